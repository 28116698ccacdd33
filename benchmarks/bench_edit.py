"""What an edit costs the next run: a first run after editing a game's strategies, its kernel or
its trace's sentences, with the cache warm for everything else.

    python benchmarks/bench_edit.py --game vitamors
    python benchmarks/bench_edit.py --game vitamors --tree ../before

In a fresh cache folder (`NUMBA_CACHE_DIR`), it times `fairplay run GAME -n 200 --workers 1`
(cold), then the same run after a comment is appended to strategies/GAME.py, to
simulator/games/GAME/kernel.py, to simulator/games/GAME/trace.py (one at a time, each put back). `--tree` measures another
checkout (its own sources, the same Python).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def timed_run(tree: Path, game: str, cache: str, output: str) -> float:
    begin = time.perf_counter()
    subprocess.run([sys.executable, "-m", "simulator.cli", "run", game, "-n", "200",
                    "--workers", "1", "-q", "-o", output, "--force"],
                   cwd=tree, env=dict(os.environ, NUMBA_CACHE_DIR=cache), check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - begin


def after_edit(path: Path, run) -> float:
    """`run()` with a comment appended to `path`; the file is put back whatever happens."""
    text = path.read_bytes()
    try:
        path.write_bytes(text + b"\n# an edit\n")
        return run()
    finally:
        path.write_bytes(text)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="vitamors")
    parser.add_argument("--tree", type=Path, default=ROOT)
    args = parser.parse_args(argv)
    tree = args.tree.resolve()
    with tempfile.TemporaryDirectory() as work:
        cache, output = os.path.join(work, "cache"), os.path.join(work, "run.json")

        def run():
            return timed_run(tree, args.game, cache, output)

        print(f"{tree} ({args.game}): cold first run {run():.1f} s")
        strategies = tree / "strategies" / f"{args.game}.py"
        print(f"  after an edit of {strategies.relative_to(tree)}: "
              f"{after_edit(strategies, run):.1f} s")
        kernel = tree / "simulator" / "games" / args.game / "kernel.py"
        print(f"  after an edit of {kernel.relative_to(tree)}: {after_edit(kernel, run):.1f} s")
        trace = tree / "simulator" / "games" / args.game / "trace.py"
        print(f"  after an edit of {trace.relative_to(tree)}: {after_edit(trace, run):.1f} s")
        print(f"  warm, no edit: {run():.1f} s")


if __name__ == "__main__":
    main()
