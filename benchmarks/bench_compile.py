"""Where a cold first run's time goes: each compiled function's compile, with an empty cache.

    python benchmarks/bench_compile.py --game werewolf
    python benchmarks/bench_compile.py --game vitamors --top 15

Runs `fairplay run GAME -n 200 --workers 1` in a fresh process whose `NUMBA_CACHE_DIR` is an
empty folder, with Numba's compile events recorded (numba.core.event, "numba:compile"). Prints the
whole process's wall time, the time spent compiling, and the functions that took longest, each
with its inclusive time (what it and everything it compiled took) and its own time (less the
compiles nested in it). Strategies (compiled when their module is imported, or first called) and
the game's kernel are listed apart.

`--llvm` instead compiles the game's kernel alone in a fresh process (empty cache, no helper) and
times LLVM's share per compiled function: optimising its own code, optimising the module it is
linked into (Numba links every callee's code into its caller's module and optimises the whole
again, so a caller high in the tree pays for all below it), and emitting machine code.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Run inside the fresh process: record every compile, then play the run.
CHILD = r"""
import json, sys, time
from numba.core import event

spans, stack = [], []

class Recorder(event.Listener):
    def on_start(self, ev):
        stack.append((ev.data["dispatcher"], time.perf_counter(), []))
    def on_end(self, ev):
        dispatcher, started, children = stack.pop()
        took = time.perf_counter() - started
        nested = sum(children)
        if stack:
            stack[-1][2].append(took)
        name = f"{dispatcher.py_func.__module__}.{dispatcher.py_func.__qualname__}"
        spans.append({"name": name, "inclusive": took, "own": took - nested,
                      "top": not stack})

event.register("numba:compile", Recorder())
started = time.perf_counter()
from simulator.cli import main as cli
try:
    cli.main(sys.argv[2:], standalone_mode=False)
finally:
    print(json.dumps({"wall": time.perf_counter() - started, "spans": spans}),
          file=open(sys.argv[1], "w"))
"""


# Run inside the fresh process for --llvm: time the LLVM steps of each code library.
LLVM_CHILD = r"""
import collections, json, sys, time
from numba.core import codegen
spent = collections.Counter()

def timed(method, step):
    original = getattr(codegen.CPUCodeLibrary, method)
    def wrapper(self, *args, **kwargs):
        started = time.perf_counter()
        try:
            return original(self, *args, **kwargs)
        finally:
            spent[step, self.name] += time.perf_counter() - started
    setattr(codegen.CPUCodeLibrary, method, wrapper)

timed("_optimize_functions", "own code")
timed("_optimize_final_module", "linked module")
timed("_finalize_final_module", "machine code")
timed("serialize_using_object_code", "machine code")
from simulator.setup import config
from simulator.games import driver
cfg = config.load(sys.argv[2], [], None)
started = time.perf_counter()
driver.compile_kernel(cfg.game, cfg.params.players)
print(json.dumps({"wall": time.perf_counter() - started,
                  "spent": [[step, name, took] for (step, name), took in spent.items()]}),
      file=open(sys.argv[1], "w"))
"""


def measure_llvm(game: str, top: int) -> None:
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as out:
        report = Path(out) / "llvm.json"
        subprocess.run([sys.executable, "-c", LLVM_CHILD, str(report), game],
                       env=dict(os.environ, NUMBA_CACHE_DIR=cache), check=True, cwd=ROOT)
        data = json.loads(report.read_text())
    by_step = {}
    for step, _, took in data["spent"]:
        by_step[step] = by_step.get(step, 0.0) + took
    print(f"{game}: the kernel compiled in {data['wall']:.1f} s in one process; LLVM: "
          + ", ".join(f"{step} {took:.1f} s" for step, took in by_step.items()))
    for step, name, took in sorted(data["spent"], key=lambda row: -row[2])[:top]:
        print(f"    {took:6.2f} s  {step:13s}  {name}")


def measure(game: str, games: int) -> dict:
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as out:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        report = Path(out) / "compile.json"
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", CHILD, str(report), "run", game, "-n", str(games),
                        "--workers", "1", "-q", "-o", str(Path(out) / "r.json")],
                       env=env, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
        data = json.loads(report.read_text())
        data["process"] = time.perf_counter() - started
        return data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--top", type=int, default=10)
    parser.add_argument("--llvm", action="store_true",
                        help="time LLVM's steps per function of the kernel's compile instead")
    args = parser.parse_args()
    if args.llvm:
        measure_llvm(args.game, args.top)
        return
    data = measure(args.game, args.games)
    spans = data["spans"]
    compiling = sum(s["inclusive"] for s in spans if s["top"])
    print(f"{args.game}: cold first run {data['process']:.1f} s (the process); "
          f"compiling {compiling:.1f} s in {len(spans)} compiles "
          f"({sum(s['top'] for s in spans)} started from Python)")
    for title, chosen in (("strategies", [s for s in spans if s["name"].startswith("strategies.")
                                          and s["top"]]),
                          ("everything else started from Python",
                           [s for s in spans if not s["name"].startswith("strategies.")
                            and s["top"]])):
        total = sum(s["inclusive"] for s in chosen)
        print(f"  {title}: {total:.1f} s")
        for s in sorted(chosen, key=lambda s: -s["inclusive"])[:args.top]:
            print(f"    {s['inclusive']:7.2f} s  (own {s['own']:6.2f} s)  {s['name']}")
    print("  longest own times:")
    for s in sorted(spans, key=lambda s: -s["own"])[:args.top]:
        print(f"    {s['own']:7.2f} s  {s['name']}")
    # A function compiled twice in one process was typed with two signatures (a literal argument
    # on the first pass of a loop, say): the second compile is pure waste.
    again = {}
    for s in spans:
        again.setdefault(s["name"], []).append(s["own"])
    repeated = {name: owns for name, owns in again.items() if len(owns) > 1}
    print(f"  compiled more than once: {len(repeated) or 'none'}")
    for name, owns in sorted(repeated.items(), key=lambda item: -sum(item[1])):
        print(f"    {len(owns)}x  {sum(owns):7.2f} s  {name}")


if __name__ == "__main__":
    main()
