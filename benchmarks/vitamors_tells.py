"""Vita Mors Conspiro: the exiles' win rate and the public tells that tell the factions apart.

For each config: the exiles' win rate (95% Wilson interval) and how games end; then what the
table sees each faction do: the share of scroll removals each faction makes, the cards each seat
offers per game by faction (and the jesters' multiple of the exiles'), and, in rituals that
started and failed, the share of yes votes each faction cast. Read from the kernel's trace rows
(the same games as `fairplay run` with a chunk size of `--chunk`).

    python benchmarks/vitamors_tells.py configs/vitamors/*.toml --games 4000
    python benchmarks/vitamors_tells.py configs/vitamors/default.toml --set strategies.all=random
"""

from __future__ import annotations

import argparse

import numpy as np
from scipy.stats import binomtest

from simulator.setup import config
from simulator.games import driver
from simulator.games.vitamors import GAME
from simulator.games.vitamors.declaration import END, END_CONDITIONS, EXILE, TR
from simulator.run.chunks import chunk_rng

ROWS_PER_GAME = 400  # a game has at most ~32 turns of at most ~12 rows each, plus its setup


def tells(rows: np.ndarray, players: int) -> dict:
    """Counts over the traced games: wins, endings, removals, offers and yes votes by faction."""
    out = {"games": 0, "exile_wins": 0, "ends": [0] * len(END_CONDITIONS),
           "removed": [0, 0], "offered": [0, 0], "seats": [0, 0], "failed_yes": [0, 0]}
    role = [0] * players
    yes = []
    for _, code, actor, _target, value, extra in rows.tolist():
        if code == TR.deal:
            role[actor] = value
            out["seats"][value] += 1
        elif code == TR.remove:
            out["removed"][role[actor]] += 1
        elif code == TR.play:
            out["offered"][role[actor]] += 1
        elif code == TR.ritual_vote:
            if actor == 0:
                yes = []
            if value == 1:
                yes.append(actor)
        elif code == TR.winner:
            out["games"] += 1
            out["ends"][extra] += 1
            out["exile_wins"] += value == 0
            if extra in (END.failure_exiles, END.failure_jesters):
                for seat in yes:
                    out["failed_yes"][role[seat]] += 1
    return out


def measure(path: str, overrides: list[str], games: int, seed: int, chunk: int) -> dict:
    cfg = config.load(path, overrides)
    total = None
    for i in range((games + chunk - 1) // chunk):
        count = min(chunk, games - i * chunk)
        _, rows = driver.play(GAME, cfg.params, cfg.lineup, count, chunk_rng(seed, i),
                              trace_rows=ROWS_PER_GAME * count)
        part = tells(rows, cfg.players)
        if total is None:
            total = part
        else:
            for key, value in part.items():
                total[key] = ([a + b for a, b in zip(total[key], value)]
                              if isinstance(value, list) else total[key] + value)
    total["players"] = cfg.players
    return total


def share(part: int, whole: int) -> str:
    return f"{part / whole:6.1%}" if whole else "     -"


def report(path: str, t: dict) -> list[str]:
    games = t["games"]
    ci = binomtest(t["exile_wins"], games).proportion_ci(0.95, method="wilson")
    removed = sum(t["removed"])
    per_seat = [t["offered"][f] / t["seats"][f] if t["seats"][f] else 0.0 for f in (0, 1)]
    failed = sum(t["failed_yes"])
    return [
        f"{path}: {games:,} games, {t['players']} players",
        f"  exiles win {t['exile_wins'] / games:.1%} ({ci.low:.1%} to {ci.high:.1%})",
        "  ends: " + ", ".join(f"{item.meaning} {share(n, games).strip()}"
                               for item, n in zip(END_CONDITIONS, t["ends"])),
        f"  scroll removals: {removed / games:.2f} a game, made by exiles "
        f"{share(t['removed'][EXILE], removed).strip()}",
        f"  cards offered per seat and game: exiles {per_seat[0]:.2f}, jesters {per_seat[1]:.2f}"
        + (f" ({per_seat[1] / per_seat[0]:.1f} times)" if per_seat[0] else ""),
        f"  yes votes in failed rituals: {failed / games:.2f} a game, cast by exiles "
        f"{share(t['failed_yes'][EXILE], failed).strip()}",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("configs", nargs="+", help="Vita Mors configs")
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--chunk", type=int, default=1000)
    parser.add_argument("--set", action="append", default=[], dest="overrides",
                        help="a config override, e.g. strategies.all=random")
    args = parser.parse_args()
    for path in args.configs:
        print("\n".join(report(path, measure(path, args.overrides, args.games, args.seed,
                                             args.chunk))))


if __name__ == "__main__":
    main()
