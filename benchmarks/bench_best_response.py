"""The wall time of a one-team best-response search on a standard setup, as a user runs it
(`fairplay best-response CONFIG --team T` with its defaults: the screen of every one-parameter
corner, 40 candidates of the sampler and the game's other strategies, 20,000 games each, then the
default and the best on 40,000 fresh games), in a fresh process with a warm compile cache.
The target is at most 5 minutes for one team of standard-16 on the project's 2-core machine.

    python benchmarks/bench_best_response.py --config werewolf/standard-16.toml --team wolf
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", default="werewolf/standard-16.toml")
    parser.add_argument("--team", default="wolf")
    parser.add_argument("--trials", type=int, default=40)
    parser.add_argument("--games", type=int, default=20_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "br.json"
        command = [sys.executable, "-m", "simulator.cli", "best-response", args.config,
                   "--team", args.team, "--trials", str(args.trials), "-n", str(args.games),
                   "-q", "-o", str(out)]
        # warm the compile cache (a first run compiles the kernel once; not what is timed)
        subprocess.run([sys.executable, "-m", "simulator.cli", "run", args.config, "-n", "100",
                        "-q", "-o", str(Path(folder) / "warm.json")], check=True,
                       capture_output=True)
        started = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        seconds = time.perf_counter() - started
        data = json.loads(out.read_text())
    confirm = data["confirm"]
    pruned = sum(1 for r in data["searched"] if r["state"] == "pruned")
    print(f"{args.config} --team {args.team}: {seconds:.1f} s for {len(data['searched'])} "
          f"candidates ({pruned} dropped early) of {args.games:,} games and "
          f"{confirm['games']:,} confirming games; gain {100 * confirm['gain']:+.2f} points "
          f"(95% CI {100 * confirm['low']:+.2f} to {100 * confirm['high']:+.2f})")


if __name__ == "__main__":
    main()
