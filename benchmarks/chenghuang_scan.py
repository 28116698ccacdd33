"""Chenghuang's `balanced` against single-parameter variants of itself, and against `greedy`.

The scan docs/rules/chenghuang.md records ("Calibration of balanced"): one seat plays `balanced`
with one parameter changed (`hope`, then `risk`, each over 0, 0.25, ..., 1) and every other seat
plays `balanced` with its defaults. Seats are alike by the rules (the first captain is drawn at
random), so the lone deviant wins an even share (1/players) exactly when the change is worth
nothing; a variant that wins more is a better player than the defaults. The defaults are
calibrated when no variant wins more than 1 point above the even share.

    python benchmarks/chenghuang_scan.py --workers 1           # the scan: 5 players, 100,000
                                                               # games a row (about 2.5 min)
    python benchmarks/chenghuang_scan.py --greedy --workers 1  # one balanced among greedy, 3-6
                                                               # players (under a minute)
    python benchmarks/chenghuang_scan.py --base risk=0.8       # the scan around other defaults

Every row is a run of the platform (simulator.run.runner, the seed given, all cores unless
--workers); the rate is the deviant seat's share of the games with its 95% Wilson interval (the
game is the unit: one seat, one winner a game).
"""

from __future__ import annotations

import argparse
import time

from simulator.setup import config
from simulator.run import runner
from simulator.statistics import inference
from strategies.chenghuang import builtin

VALUES = (0.0, 0.25, 0.5, 0.75, 1.0)


def lineup_config(players: int, lone: dict, others: dict) -> config.Config:
    """Seat 0 plays `lone`, every other seat `others` (strategy tables: name and params)."""
    raw = {"game": "chenghuang", "players": players,
           "strategies": {"all": dict(others), "seat.0": dict(lone)}}
    return config.from_raw(raw, "chenghuang scan")


def seat0(cfg: config.Config, games: int, seed: int, workers: int | None) -> inference.Rate:
    result = runner.run(cfg, games, seed, workers)
    t = result.tallies
    return inference.wilson(int(t["seat_wins"][0]), int(t["games"][0]))


def row(label: str, value: str, rate: inference.Rate, share: float) -> str:
    return (f"| {label} | {value} | {100 * rate.value:.2f}% ({100 * rate.low:.2f}–"
            f"{100 * rate.high:.2f}%) | {100 * (rate.value - share):+.2f} |")


def scan(players: int, games: int, seed: int, workers: int | None, base: dict) -> list[str]:
    defaults = dict(builtin()["balanced"].defaults(), **base)
    share = 1 / players
    lines = [f"One `balanced` with one parameter changed among {players - 1} `balanced` with "
             f"{', '.join(f'{k} = {v:g}' for k, v in defaults.items())}; {games:,} games each, "
             f"seed {seed}; even share {100 * share:.2f}%.", "",
             "| parameter | value | the variant's win rate (95% CI) | points above the even "
             "share |", "|---|---|---|---|"]
    for name in defaults:
        for value in VALUES:
            lone = dict(defaults, name="balanced", **{name: value})
            cfg = lineup_config(players, lone, dict(defaults, name="balanced"))
            rate = seat0(cfg, games, seed, workers)
            mark = " (the defaults)" if value == defaults[name] else ""
            lines.append(row(name, f"{value:g}{mark}", rate, share))
            print(lines[-1], flush=True)
    return lines


def against_greedy(games: int, seed: int, workers: int | None, base: dict) -> list[str]:
    defaults = dict(builtin()["balanced"].defaults(), **base)
    lines = [f"One `balanced` ({', '.join(f'{k} = {v:g}' for k, v in defaults.items())}) among "
             f"`greedy` players; {games:,} games each, seed {seed}.", "",
             "| players | `balanced`'s win rate (95% CI) | points above the even share |",
             "|---|---|---|"]
    for players in (3, 4, 5, 6):
        cfg = lineup_config(players, dict(defaults, name="balanced"), {"name": "greedy"})
        rate = seat0(cfg, games, seed, workers)
        lines.append(row(str(players), "", rate, 1 / players).replace("|  |", "|", 1))
        print(lines[-1], flush=True)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("-n", "--games", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--greedy", action="store_true",
                        help="one balanced among greedy players at 3-6 players instead")
    parser.add_argument("--base", action="append", default=[], metavar="NAME=VALUE",
                        help="defaults to scan around instead of balanced's own (repeatable)")
    args = parser.parse_args()
    base = {}
    for item in args.base:
        name, _, value = item.partition("=")
        base[name] = float(value)
    start = time.perf_counter()
    if args.greedy:
        lines = against_greedy(args.games, args.seed, args.workers, base)
    else:
        lines = scan(args.players, args.games, args.seed, args.workers, base)
    print()
    print("\n".join(lines))
    print(f"\n({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
