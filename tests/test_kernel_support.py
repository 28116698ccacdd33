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
