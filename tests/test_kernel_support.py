"""The shared kernel helpers: random_double is exactly rng.random()."""

import numpy as np
from numba import njit

from simulator.games.kernel_support import random_double


@njit(cache=True)
def _draws(rng, count):
    out = np.empty(count)
    for i in range(count):
        out[i] = random_double(rng)
    return out


def test_random_double_is_exactly_rng_random():
    # Same numbers from the same stream, so switching a kernel to it keeps results bit-identical.
    for seed in (0, 1, 12345):
        assert np.array_equal(_draws(np.random.default_rng(seed), 5000),
                              np.random.default_rng(seed).random(5000))


def test_random_double_advances_the_generator_like_rng_random():
    rng = np.random.default_rng(7)
    _draws(rng, 10)
    reference = np.random.default_rng(7)
    reference.random(10)
    assert rng.random() == reference.random()


@njit(cache=True)
def _mixed_draws(rng, count):
    out = np.empty(count)
    for i in range(count):
        out[i] = rng.random() if i % 3 == 0 else random_double(rng)
    return out


def test_random_double_mixes_with_numbas_own_draws_on_one_stream():
    # It steps numpy's PCG64 state in place, so Numba's Generator.random() (through the bit
    # generator's function pointer) continues the same stream: strategies may use either.
    for seed in (3, 2**40 + 17):
        assert np.array_equal(_mixed_draws(np.random.default_rng(seed), 3000),
                              np.random.default_rng(seed).random(3000))


def test_the_engines_shuffle_is_uniform_and_keeps_the_rest():
    # Every game deals and shuffles its decks with engine.shuffle. Over 60,000 shuffles of the
    # first 3 of 5 values each of the 6 orders is expected 10,000 times; the chi-square statistic
    # (5 degrees of freedom) of a uniform shuffle exceeds chi2.ppf(1 - 1e-6, 5) = 35.9 with
    # probability 1e-6, while a shuffle that never moved the first value would score 60,000.
    from itertools import permutations

    from scipy.stats import chi2

    from simulator.games.engine import shuffle

    rng = np.random.default_rng(5)
    orders = {order: 0 for order in permutations((0, 1, 2))}
    values = np.zeros(5, dtype=np.int64)
    for _ in range(60_000):
        values[:] = (0, 1, 2, 3, 4)
        shuffle(values, 3, rng)
        assert tuple(values[3:]) == (3, 4)
        orders[tuple(int(v) for v in values[:3])] += 1
    expected = 60_000 / 6
    statistic = sum((seen - expected) ** 2 / expected for seen in orders.values())
    assert statistic < chi2.ppf(1 - 1e-6, 5), orders


def test_shuffle_pairs_and_shuffle_at_follow_shuffles_stream():
    # shuffle_pairs moves a partner array by the same permutation, and shuffle_at permutes the
    # values at given places: from one seed, both give exactly the order `shuffle` gives (so a
    # game may use whichever fits without changing its games), and leave everything else.
    from simulator.games.engine import shuffle, shuffle_at, shuffle_pairs

    for seed in range(20):
        plain = np.arange(7, dtype=np.int64)
        shuffle(plain, 6, np.random.default_rng(seed))
        values, partners = np.arange(7, dtype=np.int64), 10 * np.arange(7, dtype=np.int64)
        shuffle_pairs(values, partners, 6, np.random.default_rng(seed))
        assert np.array_equal(values, plain) and np.array_equal(partners, 10 * plain)
        places = np.array([1, 3, 4, 6, 0, 2], dtype=np.int64)  # any places, in any order
        spread = np.arange(7, dtype=np.int64)
        shuffle_at(spread, places, 6, np.random.default_rng(seed))
        assert np.array_equal(spread[places], places[plain[:6]])
        assert spread[5] == 5
