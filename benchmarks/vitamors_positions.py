"""Vita Mors Conspiro: where a turn-order effect comes from, read from traced games.

For each turn-order position (1st = the starting player), the win rate of a seat there split by
its dealt faction, and how many turns it was the sacrificer. A position that is worse for both
factions is a property of the position (here: how many sacrifices it gets before the game ends),
not a strategy favouring one side; random players, whose sacrifices decide nothing, cannot show
it. Each game is replayed from the same kernel as `fairplay run` (one game per chunk of one game,
so each trace is played alone).

    python benchmarks/vitamors_positions.py configs/vitamors/default.toml --games 3000
"""

from __future__ import annotations

import argparse
import math
import re

from simulator.setup import config
from simulator.run import runner

FACTION = re.compile(r"\s+seat (\d+): \S+ (exile|jester)")
START = re.compile(r"\s+seat (\d+) is the starting player")
TURN = re.compile(r"Turn \d+: seat (\d+) is the sacrificer")


def read_game(lines: list[str]) -> tuple[dict, int, str, list[int]]:
    """(factions by seat, starting seat, the winning faction, the sacrificers in order)."""
    factions, start, sacrificers = {}, None, []
    for line in lines:
        if m := FACTION.match(line):
            factions[int(m.group(1))] = m.group(2)
        elif m := START.match(line):
            start = int(m.group(1))
        elif m := TURN.match(line):
            sacrificers.append(int(m.group(1)))
    end = "\n".join(lines[-8:]).lower()
    winner = "exile" if "exiles win" in end else "jester" if "jesters win" in end else None
    if start is None or winner is None or not factions:
        raise ValueError("a trace without its setup or its result: " + " / ".join(lines[-3:]))
    return factions, start, winner, sacrificers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("config", help="a Vita Mors config")
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    cfg = config.load(args.config)
    n = cfg.players
    played = {(p, f): 0 for p in range(n) for f in ("exile", "jester")}
    won = dict.fromkeys(played, 0)
    turns = [0] * n
    for game in range(args.games):
        factions, start, winner, sacrificers = read_game(
            runner.trace_game(cfg, args.seed, game, chunk_size=1))
        for seat, faction in factions.items():
            position = (seat - start) % n
            played[position, faction] += 1
            won[position, faction] += faction == winner
        for seat in sacrificers:
            turns[(seat - start) % n] += 1
    print(f"{args.config}: {args.games:,} games, seed {args.seed}")
    print("position  exile wins (95% CI)        jester wins (95% CI)       sacrifices a game")
    for p in range(n):
        cells = []
        for faction in ("exile", "jester"):
            k, m = won[p, faction], played[p, faction]
            rate = k / m if m else float("nan")
            half = 1.96 * math.sqrt(rate * (1 - rate) / m) if m else float("nan")
            cells.append(f"{rate:6.1%} ({rate - half:6.1%} to {rate + half:6.1%})")
        print(f"{p + 1:>8}  {cells[0]}  {cells[1]}  {turns[p] / args.games:6.2f}")


if __name__ == "__main__":
    main()
