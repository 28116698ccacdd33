"""The cost of an adaptive run's stopping rule: a run of N games with the precision rule checked
after every chunk (a precision it cannot reach, so it plays all N) against a fixed run of N games
of the same setup, side by side in this process with one worker (rounds alternate; medians and
their ratio); the time of one check of each rule after a chunk; and the time to compute the
sequential test's critical values for a number of planned looks (once per run).

    python benchmarks/bench_adaptive.py --games 400000 --chunk-size 10000 --rounds 5
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from simulator.statistics import adaptive, sequential
from simulator.setup import config
from simulator.run import runner
from simulator.run.stopping import Rule


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", default="werewolf")
    parser.add_argument("--games", type=int, default=400_000)
    parser.add_argument("--chunk-size", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--looks", type=int, nargs="*", default=[200, 500, 1000])
    args = parser.parse_args()
    cfg = config.load(args.config)
    runner.run(cfg, 1_000, seed=0, workers=1, chunk_size=1_000)  # warm: the kernel is loaded
    times = {"fixed": [], "precision": []}
    for round_ in range(args.rounds):
        for kind in times:
            rule = None if kind == "fixed" else Rule("precision", args.games, 1e-9)
            started = time.perf_counter()
            runner.run(cfg, args.games, seed=round_, workers=1, chunk_size=args.chunk_size,
                       stopping=rule, stop_check=adaptive.stops)
            times[kind].append(time.perf_counter() - started)
    base = statistics.median(times["fixed"])
    for kind, values in times.items():
        median = statistics.median(values)
        print(f"{kind:<10} {args.games:,} games: median {median:6.2f} s, ratio to fixed "
              f"{median / base:5.3f}")
    result = runner.run(cfg, 20_000, seed=0, workers=1, chunk_size=args.chunk_size)
    result.data["stopping"] = Rule("decided", args.games).to_json()
    result.data["games_requested"] = args.games
    adaptive.decision(result)  # the critical values, once
    for name, check in (("precision", adaptive.headline_rows), ("until-decided",
                                                                adaptive.decision)):
        started = time.perf_counter()
        for _ in range(50):
            check(result)
        print(f"one {name} check after a chunk: {(time.perf_counter() - started) / 50 * 1e3:.2f} ms")
    for looks in args.looks:
        sequential.boundaries.cache_clear()
        started = time.perf_counter()
        sequential.boundaries(tuple(np.arange(1, looks + 1) / looks), 0.05)
        print(f"critical values for {looks:>5} looks: {time.perf_counter() - started:5.2f} s")


if __name__ == "__main__":
    main()
