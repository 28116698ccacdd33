"""Chenghuang kernel throughput: games per second on one core.

    python benchmarks/bench_chenghuang.py [--games N] [--repeats R]

Plays the official 5-player basic setup with every seat on the same strategy (`random`,
`greedy`, `balanced`) in one process, after a warm-up call (which also loads or compiles the
kernel), and prints the median of R timed calls of N games each. Both wall-clock and CPU time
are measured: on a busy machine the CPU-time figure is the fairer "per core" number.

Targets: >= 60,000 games/s with `random`, >= 20,000 with `balanced`.
"""

from __future__ import annotations

import argparse
import statistics
import time

from simulator.games.chenghuang import simulate
from simulator.games.chenghuang.params import ChenghuangParams

TARGETS = {"random": 60_000, "balanced": 20_000}


def measure(params, strategy: str, games: int, repeats: int) -> tuple[float, float]:
    seats = [strategy] * params.players
    simulate(params, seats, 200, seed=0)  # warm-up: load the compiled kernel and strategy
    wall, cpu = [], []
    for repeat in range(repeats):
        w0, c0 = time.perf_counter(), time.process_time()
        tallies, _ = simulate(params, seats, games, seed=repeat + 1)
        w1, c1 = time.perf_counter(), time.process_time()
        assert tallies.games[0] == games
        wall.append(games / (w1 - w0))
        cpu.append(games / (c1 - c0))
    return statistics.median(wall), statistics.median(cpu)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--strategies", nargs="+", default=["random", "greedy", "balanced"])
    args = parser.parse_args(argv)
    params = ChenghuangParams(players=5)
    print(f"Chenghuang, 5 players, basic pool, {args.games:,} games x {args.repeats} "
          f"(median), one core")
    print(f"{'strategy':<10} {'games/s (wall)':>15} {'games/s (cpu)':>15} {'target':>10}")
    for strategy in args.strategies:
        wall, cpu = measure(params, strategy, args.games, args.repeats)
        target = TARGETS.get(strategy)
        mark = "" if target is None else (f"{target:>10,}" + (" ok" if cpu >= target else " below"))
        print(f"{strategy:<10} {wall:>15,.0f} {cpu:>15,.0f} {mark}")


if __name__ == "__main__":
    main()
