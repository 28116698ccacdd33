"""Werewolf throughput and memory: games per second per core (Numba and interpreted), peak memory.

    python benchmarks/bench_werewolf.py            # full measurement (a few minutes)
    python benchmarks/bench_werewolf.py --quick    # smaller counts, for a smoke check

Speed is measured in this process on one core (chunks run in-process), after a warm-up that
compiles or loads the cache. Each figure is the median of several repeats, because a shared
machine is noisy. The interpreted figure runs the same kernel with NUMBA_DISABLE_JIT=1 in a
subprocess on fewer games. Peak memory is the maximum resident set size of a fresh
`fairplay run` process (one worker, so everything happens in the measured process).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from simulator import config, runner

SETUPS = {"random": "werewolf/base.toml", "seer-led": "werewolf/seer-led.toml"}


def games_per_second(spec: str, games: int, repeats: int) -> list[float]:
    cfg = config.load(spec)
    runner.run(cfg, 1_000, seed=0, workers=1)  # warm-up: compile or load the cache
    speeds = []
    for repeat in range(repeats):
        start = time.perf_counter()
        runner.run(cfg, games, seed=repeat, workers=1, chunk_size=games)
        speeds.append(games / (time.perf_counter() - start))
    return speeds


def interpreted_games_per_second(spec: str, games: int) -> float:
    code = (
        "import time\n"
        "from simulator import config, runner\n"
        f"cfg = config.load({spec!r})\n"
        "t = time.perf_counter()\n"
        f"runner.run(cfg, {games}, seed=0, workers=1)\n"
        f"print({games} / (time.perf_counter() - t))\n"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True)
    return float(out.stdout.strip().splitlines()[-1])


def peak_memory_mib(games: int) -> float:
    code = (
        "import resource\n"
        "from simulator import config, runner\n"
        "cfg = config.load('werewolf')\n"
        f"runner.run(cfg, {games}, seed=0, workers=1)\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return int(out.stdout.strip().splitlines()[-1]) / 1024  # ru_maxrss is in KiB on Linux


def startup_seconds(repeats: int = 5) -> list[float]:
    """Wall time of `fairplay run werewolf -n 1` with a warm cache: everything a run does before
    its games start (imports, config, loading the compiled kernel), plus one game."""
    with tempfile.TemporaryDirectory() as folder:
        command = ["fairplay", "run", "werewolf", "-n", "1", "--workers", "1", "-q", "-o",
                   os.path.join(folder, "result.json")]
        subprocess.run(command, check=True, capture_output=True)  # fill the cache if needed
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True)
            times.append(time.perf_counter() - start)
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller counts")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    games, repeats, slow_games = (50_000, 3, 200) if args.quick else (500_000, 5, 1_000)
    memory_counts = (10**4, 10**5) if args.quick else (10**5, 10**7)

    figures = {}
    print(f"{'setup (9 players)':<20}{'Numba games/s/core':>22}{'interpreted':>14}{'speed-up':>10}")
    for name, spec in SETUPS.items():
        speeds = games_per_second(spec, games, repeats)
        slow = interpreted_games_per_second(spec, slow_games)
        median = statistics.median(speeds)
        figures[name] = {"numba_median": median, "numba_all": speeds, "interpreted": slow,
                         "speedup": median / slow}
        print(f"{name:<20}{median:>22,.0f}{slow:>14,.0f}{median / slow:>9,.0f}x")

    print()
    for count in memory_counts:
        mib = peak_memory_mib(count)
        figures[f"peak_mib_{count}"] = mib
        print(f"peak memory, {count:>12,} games: {mib:8.1f} MiB")
    startup = statistics.median(startup_seconds())
    figures["startup_seconds"] = startup
    print(f"start-up of `fairplay run werewolf` with a warm cache: {startup:.2f} s (median)")
    low, high = memory_counts
    ratio = figures[f"peak_mib_{high}"] / figures[f"peak_mib_{low}"]
    print(f"ratio {high:,} / {low:,} games: {ratio:.3f}")
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(figures, handle, indent=1)


if __name__ == "__main__":
    main()
