"""The engine's cost, measured against a hand-written kernel of werewolf's 9-player base game.

    python benchmarks/werewolf_reference.py
    python benchmarks/werewolf_reference.py --games 1000000 --rounds 5

The reference is what a programmer would write for this one game with no engine: seats in plain
arrays, no observations, no strategy calls, no trace, one tally. Two werewolves, one seer and six
villagers; every night the seer (while alive) checks a random unchecked living player and the
wolves kill a random living human; every day the town hangs a living wolf the seer has found, or
else a random living player. The humans win when no wolf lives, the wolves when they are at least
as many as the humans (the base game's victory rules 1 and 3; rule 2 follows from 3 here).

Each round times, side by side: the reference kernel (games per CPU second, in this process),
the engine's werewolf kernel with `random` at every seat in this process (as
bench_game.py does), and a whole `fairplay run werewolf -n GAMES --workers 1` process with a
warm compiled-code cache (games per second of its wall time, start-up included). It prints each
round's figures and the medians' ratios to the reference.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from numba import njit

from simulator.games.kernel_support import uniform_index
from strategies.common import uniform_legal

ROOT = Path(__file__).resolve().parent.parent
PLAYERS, WOLVES = 9, 2
VILLAGER, WEREWOLF, SEER = 0, 1, 2


@njit(cache=True)
def play_reference(games, rng):
    """Play `games` games; returns (human wins, wolf wins, nights played)."""
    role = np.zeros(PLAYERS, np.int64)
    alive = np.zeros(PLAYERS, np.bool_)
    checked = np.zeros(PLAYERS, np.bool_)
    pick = np.zeros(PLAYERS, np.bool_)
    human_wins = wolf_wins = nights = 0
    for _ in range(games):
        # deal: the first WOLVES + 1 cards are the wolves and the seer, shuffled over the seats
        for seat in range(PLAYERS):
            role[seat] = WEREWOLF if seat < WOLVES else (SEER if seat == WOLVES else VILLAGER)
        for i in range(PLAYERS - 1, 0, -1):
            j = uniform_index(i + 1, rng)
            role[i], role[j] = role[j], role[i]
        alive[:] = True
        checked[:] = False
        wolves, humans = WOLVES, PLAYERS - WOLVES
        while True:
            nights += 1
            # night: the seer checks a random unchecked living player other than himself
            for seer in range(PLAYERS):
                if role[seer] == SEER and alive[seer]:
                    count = 0
                    for seat in range(PLAYERS):
                        pick[seat] = alive[seat] and not checked[seat] and seat != seer
                        count += pick[seat]
                    if count > 0:
                        checked[uniform_legal(pick, rng)] = True
            # the wolves kill a random living human
            for seat in range(PLAYERS):
                pick[seat] = alive[seat] and role[seat] != WEREWOLF
            alive[uniform_legal(pick, rng)] = False
            humans -= 1
            if wolves >= humans:
                wolf_wins += 1
                break
            # day: hang a living wolf the seer found, else a random living player
            hanged = -1
            for seat in range(PLAYERS):
                if alive[seat] and checked[seat] and role[seat] == WEREWOLF:
                    hanged = seat
                    break
            if hanged < 0:
                for seat in range(PLAYERS):
                    pick[seat] = alive[seat]
                hanged = uniform_legal(pick, rng)
            alive[hanged] = False
            if role[hanged] == WEREWOLF:
                wolves -= 1
            else:
                humans -= 1
            if wolves == 0:
                human_wins += 1
                break
            if wolves >= humans:
                wolf_wins += 1
                break
    return human_wins, wolf_wins, nights


def reference_rate(games: int, seed: int) -> float:
    rng = np.random.default_rng(seed)
    started = time.process_time()
    play_reference(games, rng)
    return games / (time.process_time() - started)


def engine_rate(cfg, games: int, seed: int) -> float:
    from simulator.games import driver

    rng = np.random.default_rng(seed)
    started = time.process_time()
    driver.play(cfg.game, cfg.params, cfg.lineup, games, rng)
    return games / (time.process_time() - started)


def process_rate(games: int, seed: int) -> float:
    """Games per wall second of a whole `fairplay run` process (start-up included)."""
    with tempfile.TemporaryDirectory() as out:
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "simulator.cli", "run", "werewolf/base-random.toml",
                        "-n", str(games), "--seed", str(seed), "--workers", "1", "-q", "-o",
                        os.path.join(out, "r.json")],
                       cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        return games / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000,
                        help="games per timing (default 1,000,000)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    from simulator.setup import config

    cfg = config.load("werewolf/base-random.toml", [], PLAYERS)
    play_reference(10, np.random.default_rng(0))  # compile, or load from the cache
    engine_rate(cfg, 10, 0)
    process_rate(10, 0)
    wins = play_reference(100_000, np.random.default_rng(1))
    print(f"reference: humans win {wins[0] / 1000:.1f}% of 100,000 games, "
          f"{wins[2] / 100_000:.2f} nights a game")
    rates = {"reference": [], "engine kernel": [], "fairplay run": []}
    for round_ in range(args.rounds):
        seed = round_ + 1
        rates["reference"].append(reference_rate(args.games, seed))
        rates["engine kernel"].append(engine_rate(cfg, args.games, seed))
        rates["fairplay run"].append(process_rate(args.games, seed))
        print(f"round {round_ + 1}: " + ", ".join(f"{name} {values[-1]:,.0f}"
                                                for name, values in rates.items()))
    reference = statistics.median(rates["reference"])
    for name, values in rates.items():
        median = statistics.median(values)
        print(f"{name:14s} {median:12,.0f} games/s   {median / reference:.3f} of the reference")


if __name__ == "__main__":
    main()
