"""Chenghuang throughput of this checkout against another one, interleaved: the noise-robust way
to tell whether a change made the kernel faster.

    python benchmarks/interleave_chenghuang.py BASE_CHECKOUT [--strategy random] [--pairs 5]

The development machine shares its cores: the same code runs anywhere from 28,000 to 48,000
games/s from one process to the next. So this alternates a process of the other checkout (e.g.
`git worktree add /tmp/base HEAD~1`) with a process of this one, each timing the best of 3 calls
of N games after a warm-up, and prints every pair and the median ratio (this / base). Each
checkout compiles into its own Numba cache directory (in the temporary folder: the other checkout
may be read-only). A checkout from before the engine (simulator.games.driver) is played through
its game's own `simulate`.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]

CHILD = """
import sys, time
sys.path.insert(0, sys.argv[1])
from simulator.games.chenghuang.params import ChenghuangParams
try:  # the engine's driver
    from simulator.games.chenghuang import GAME
    from simulator.games.driver import simulate as play

    def simulate(params, seats, games, seed):
        return play(GAME, params, seats, games, seed=seed)
except ImportError:  # a checkout from before the engine: the game's own simulate
    from simulator.games.chenghuang import simulate
strategy, games = sys.argv[2], int(sys.argv[3])
params = ChenghuangParams(players=5)
simulate(params, [strategy] * 5, 200, seed=0)
best = 0.0
for repeat in range(3):
    start = time.process_time()
    simulate(params, [strategy] * 5, games, seed=repeat + 1)
    best = max(best, games / (time.process_time() - start))
print(best)
"""


def rate(checkout: Path, strategy: str, games: int, cache: Path) -> float:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    out = subprocess.run([sys.executable, "-c", CHILD, str(checkout), strategy, str(games)],
                         cwd=checkout, env=env, check=True, capture_output=True, text=True)
    return float(out.stdout.split()[-1])


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", type=Path, help="the other checkout (the code to compare with)")
    parser.add_argument("--strategy", default="random")
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--games", type=int, default=20_000)
    args = parser.parse_args(argv)
    base = args.base.resolve()
    caches = {path: Path(tempfile.gettempdir()) / "fairplay-interleave" /
              f"{path.name}-{zlib.crc32(str(path).encode()):08x}" for path in (base, HERE)}
    ratios = []
    for pair in range(args.pairs):
        before = rate(base, args.strategy, args.games, caches[base])
        after = rate(HERE, args.strategy, args.games, caches[HERE])
        ratios.append(after / before)
        print(f"{args.strategy}: base {before:,.0f}  this {after:,.0f}  ratio {after / before:.2f}",
              flush=True)
    print(f"median ratio (this / base) over {args.pairs} pairs: {statistics.median(ratios):.2f}")


if __name__ == "__main__":
    main()
