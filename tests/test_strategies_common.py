"""The uniform choices every game's strategies share (strategies/common.py), and the memory
every strategy module lays out by name."""

import importlib

import numpy as np
import pytest

from simulator.games import game_names, get_game
from simulator.games.base import MEMORY_PER_SEAT
from simulator.games.kernel_support import (
    HAS_PDEP, nth_set_bit, nth_set_bit_by_deposit, nth_set_bit_by_halving, popcount,
)
from strategies.common import uniform_legal


def test_popcount_counts_set_bits():
    rng = np.random.default_rng(1)
    for value in [0, 1, 2**62, 2**63 - 1, *rng.integers(0, 2**63 - 1, 200)]:
        assert popcount(int(value)) == bin(int(value)).count("1")


def test_nth_set_bit_finds_every_set_bit_in_order():
    rng = np.random.default_rng(2)
    for value in [1, 2**62, 2**63 - 1, *rng.integers(1, 2**63 - 1, 200)]:
        positions = [i for i in range(63) if (int(value) >> i) & 1]
        assert [nth_set_bit(int(value), pick) for pick in range(len(positions))] == positions
        assert [nth_set_bit_by_halving(int(value), pick)
                for pick in range(len(positions))] == positions
        if HAS_PDEP:  # the BMI2 version exists only where the CPU has the instruction
            assert [nth_set_bit_by_deposit(int(value), pick)
                    for pick in range(len(positions))] == positions


def test_uniform_legal_takes_the_pick_th_legal_action_of_one_draw():
    # The choice is the floor(u * count)-th legal action for the generator's next double u, for
    # short masks (read as bits) and long ones (scanned); an empty mask draws nothing.
    rng = np.random.default_rng(3)
    for size in [1, 2, 5, 12, 40, 63, 64, 100]:
        for _ in range(100):
            legal = rng.random(size) < rng.random()
            seed = int(rng.integers(2**32))
            mine, reference = np.random.default_rng(seed), np.random.default_rng(seed)
            choice = uniform_legal(legal, mine)
            actions = np.flatnonzero(legal)
            if actions.size == 0:
                assert choice == -1
            else:
                assert choice == actions[int(reference.random() * actions.size)]
            assert mine.random() == reference.random()  # one draw, or none for an empty mask


@pytest.mark.parametrize("name", game_names())
def test_a_strategys_memory_is_its_modules_layout_within_a_seats_share(name):
    # A strategy that remembers reads its memory by name (MEMORY = Layout(...), M =
    # MEMORY.offsets(): memory[M.suspicion + seat]); the engine hands it the words its
    # StrategyInfo declares, out of a seat's MEMORY_PER_SEAT.
    layout = getattr(importlib.import_module(f"strategies.{name}"), "MEMORY", None)
    for info in get_game(name).strategies().values():
        assert 0 <= info.memory <= MEMORY_PER_SEAT, info.name
        if info.memory:
            assert layout is not None and info.memory == layout.size, info.name
