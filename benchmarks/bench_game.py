"""Throughput of any registered game: games per CPU second on one core, and first-run times.

    python benchmarks/bench_game.py --game werewolf --players 9 --strategy random
    python benchmarks/bench_game.py --game chenghuang --players 5 --strategy balanced
    python benchmarks/bench_game.py --game werewolf --against ../other-checkout
    python benchmarks/bench_game.py --game chenghuang --first-run
    python benchmarks/bench_game.py --game werewolf --interpreted 1000 --memory --startup

A measurement is many short timed calls of the game's kernel in this process (after a warm-up that
compiles it or loads it from the cache), each `--games` games from its own seed; it prints the
median and the 90th percentile of their rates. The machine is shared and noisy: the median says
what a typical second gives, the 90th percentile what an undisturbed core gives.

`--interpreted N` also times N games with NUMBA_DISABLE_JIT=1 (in a subprocess) and prints the
speed-up; `--memory` the peak resident memory of `fairplay run GAME` at 10^5 and 10^7 games (flat:
tallies are merged and dropped); `--startup` the wall time of `fairplay run GAME -n 1` with a warm
cache. `--against DIR` measures another checkout of fairplay (say, the previous commit in a git worktree)
side by side: rounds alternate between the two trees, each round in a fresh process, and the
ratio of their medians is printed. `--first-run` times `fairplay run GAME -n 1000 --workers 1`
from an empty compiled-code cache (cold: compiling) and again with it filled (warm).
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
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def measure(game: str, players: int | None, strategy: str | None, overrides: list[str],
            games: int, calls: int) -> list[float]:
    """Games per CPU second of `calls` timed calls of `games` games each."""
    import numpy as np

    from simulator.setup import config

    if strategy:
        overrides = overrides + [f'strategies.all="{strategy}"']
    cfg = config.load(game, overrides, players)
    try:
        from simulator.games import driver
    except ImportError:  # a tree from before the engine (commit 445c2ca and older)
        play = _legacy_player(cfg)
    else:
        def play(count, rng):
            driver.play(cfg.game, cfg.params, cfg.lineup, count, rng)
    play(10, np.random.default_rng(0))  # compile, or load from the cache
    rates = []
    for call in range(calls):
        rng = np.random.default_rng(call + 1)
        started = time.process_time()
        play(games, rng)
        rates.append(games / (time.process_time() - started))
    return rates


def _legacy_player(cfg):
    """Calls the kernel of a tree from before the engine, with its own calling convention."""
    import numpy as np

    setup = cfg.game.build_setup(cfg.params)
    arguments = cfg.kernel_arguments()

    def play(count, rng):
        tallies = cfg.game.new_tallies(cfg.params)
        cfg.game.kernel(setup, *arguments, count, rng, tallies, np.zeros((0, 6), np.int64))

    return play


def summary(rates: list[float]) -> dict:
    ordered = sorted(rates)
    return {"median": statistics.median(ordered),
            "p90": ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))],
            "calls": len(ordered)}


def run_tree(tree: Path, argv: list[str]) -> dict:
    """This benchmark, `--json`, in a fresh process importing fairplay from `tree`."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), *argv, "--json"],
                          capture_output=True, text=True, env=env, cwd=tree, check=True)
    return json.loads(done.stdout.splitlines()[-1])


def interpreted_rate(game, players, strategy, overrides, games) -> float:
    """Games per second of the same kernel interpreted (NUMBA_DISABLE_JIT=1), in a subprocess."""
    code = ("import sys, json, time, numpy as np\n"
            "sys.argv = ['bench']\n"
            f"sys.path.insert(0, {str(Path(__file__).resolve().parent)!r})\n"
            "import bench_game\n"
            f"rates = bench_game.measure({game!r}, {players!r}, {strategy!r}, {overrides!r}, "
            f"{games}, 1)\n"
            "print(rates[0])\n")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          check=True)
    return float(done.stdout.strip().splitlines()[-1])


def peak_memory_mib(game: str, games: int) -> float:
    """Peak resident memory of a one-worker `fairplay run GAME -n games` process."""
    code = ("import resource, tempfile, os\n"
            "from simulator.setup import config\nfrom simulator.run import runner\n"
            f"runner.run(config.load({game!r}), {games}, seed=0, workers=1)\n"
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    return int(done.stdout.strip().splitlines()[-1]) / 1024  # ru_maxrss is in KiB on Linux


def startup_seconds(game: str, repeats: int = 5) -> float:
    """Median wall time of `fairplay run GAME -n 1` with a warm cache: everything a run does
    before its games start (imports, config, loading the compiled code), plus one game."""
    with tempfile.TemporaryDirectory() as folder:
        command = [sys.executable, "-m", "simulator.cli", "run", game, "-n", "1", "--workers",
                   "1", "-q", "-o", os.path.join(folder, "result.json")]
        subprocess.run(command, check=True, capture_output=True)  # fill the cache if needed
        times = []
        for _ in range(repeats):
            started = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True)
            times.append(time.perf_counter() - started)
    return statistics.median(times)


def first_run(game: str) -> dict:
    """Seconds of `fairplay run GAME -n 1000 --workers 1`: cold (empty cache), then warm."""
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as out:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        times = {}
        for label in ("cold", "warm"):
            started = time.perf_counter()
            subprocess.run([sys.executable, "-m", "simulator.cli", "run", game, "-n", "1000",
                            "--workers", "1", "-q", "-o", str(Path(out) / "r.json")],
                           env=env, check=True, capture_output=True)
            times[label] = time.perf_counter() - started
        return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--players", type=int)
    parser.add_argument("--strategy", help="every seat plays this built-in strategy")
    parser.add_argument("--set", dest="overrides", action="append", default=[],
                        metavar="KEY=VALUE", help="override a config key (repeatable)")
    parser.add_argument("--games", type=int, default=5_000, help="games per timed call")
    parser.add_argument("--calls", type=int, default=30, help="timed calls per measurement")
    parser.add_argument("--against", type=Path, help="another checkout to compare with")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds (--against)")
    parser.add_argument("--first-run", action="store_true",
                        help="time a first run with an empty and a filled cache")
    parser.add_argument("--interpreted", type=int, metavar="N",
                        help="also time N games interpreted (NUMBA_DISABLE_JIT=1)")
    parser.add_argument("--memory", action="store_true",
                        help="also measure peak memory at 10^5 and 10^7 games")
    parser.add_argument("--startup", action="store_true",
                        help="also time the start-up of a run with a warm cache")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.first_run:
        times = first_run(args.game)
        print(f"{args.game}: first run {times['cold']:.1f} s cold (compiling), "
              f"{times['warm']:.1f} s warm (from the cache)")
        return
    what = (f"{args.game}, {args.players or 'default'} players, "
            f"{args.strategy or 'config'} strategies")
    if args.against is None:
        result = summary(measure(args.game, args.players, args.strategy, args.overrides,
                                 args.games, args.calls))
        if args.json:
            print(json.dumps(result))
            return
        print(f"{what}: median {result['median']:,.0f} games/s, 90th percentile "
              f"{result['p90']:,.0f} games/s ({result['calls']} calls of {args.games:,} games)")
        if args.interpreted:
            slow = interpreted_rate(args.game, args.players, args.strategy, args.overrides,
                                    args.interpreted)
            print(f"interpreted: {slow:,.0f} games/s ({args.interpreted:,} games); compiled is "
                  f"{result['median'] / slow:,.0f}x faster")
        if args.memory:
            low, high = peak_memory_mib(args.game, 10**5), peak_memory_mib(args.game, 10**7)
            print(f"peak memory: {low:.1f} MiB at 10^5 games, {high:.1f} MiB at 10^7 "
                  f"(ratio {high / low:.3f})")
        if args.startup:
            print(f"start-up with a warm cache: {startup_seconds(args.game):.2f} s (median of 5)")
        return
    argv = [a for a in sys.argv[1:] if a not in ("--against", str(args.against))]
    argv = [a for i, a in enumerate(argv) if not (a == "--rounds" or
                                                  (i and argv[i - 1] == "--rounds"))]
    here, there = [], []
    for _ in range(args.rounds):
        here.append(run_tree(ROOT, argv))
        there.append(run_tree(args.against.resolve(), argv))
    for label, rounds in (("this tree", here), (str(args.against), there)):
        medians = ", ".join(f"{r['median']:,.0f}" for r in rounds)
        print(f"{what} [{label}]: medians by round {medians}")
    ratio = statistics.median(r["median"] for r in here) / \
        statistics.median(r["median"] for r in there)
    print(f"ratio of the medians (this tree / other): {ratio:.3f}")


if __name__ == "__main__":
    main()
