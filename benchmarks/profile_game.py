"""Where a game's run spends its time: a sampling profile by compiled function.

    python benchmarks/profile_game.py --game chenghuang [--players 5] [--strategy random]
        [--seconds 15] [--top 30]

Needs Linux `perf` (software cpu-clock events are enough, so it works in a VM) and binutils
`nm`. The kernel and strategies are compiled afresh in a temporary cache (about a minute), so
their object code is at hand: `perf` samples this process, and each sample's address is mapped to
the compiled function containing it (Numba's functions are not in any symbol table perf reads).
Functions LLVM inlined count toward their caller. Shares, not rates: the machine's noise moves
both the numerator and the denominator alike.
"""

from __future__ import annotations

import argparse
import bisect
import collections
import os
import subprocess
import sys
import tempfile
import time

WORK = tempfile.mkdtemp(prefix="fairplay-profile-")
os.environ["NUMBA_CACHE_DIR"] = os.path.join(WORK, "cache")  # compile afresh: objects at hand

from simulator.setup import config  # noqa: E402
from simulator.games.driver import simulate  # noqa: E402


def short_name(symbol: str) -> str:
    """The function's own name out of a mangled Numba symbol (`..._ZN<len><part>...`)."""
    i = symbol.find("_ZN")
    if i < 0:
        return symbol[:60]
    i, parts = i + 3, []
    while i < len(symbol) and symbol[i].isdigit():
        j = i
        while symbol[j].isdigit():
            j += 1
        parts.append(symbol[j:j + int(symbol[i:j])])
        i = j + int(symbol[i:j])
    return parts[-1] if parts else symbol[:60]


def compiled_functions(dispatchers) -> list[tuple[int, int, str]]:
    """(runtime address, size, name) of every function in the dispatchers' compiled libraries."""
    found, seen = [], set()
    for dispatcher in dispatchers:
        for overload in dispatcher.overloads.values():
            library = overload.library
            if id(library) in seen:
                continue
            seen.add(id(library))
            path = os.path.join(WORK, f"lib{len(seen)}.o")
            with open(path, "wb") as out:
                out.write(library._get_compiled_object())
            listing = subprocess.run(["nm", "-S", "--defined-only", path], check=True,
                                     capture_output=True, text=True).stdout
            for line in listing.splitlines():
                parts = line.split()
                if len(parts) == 4 and parts[2] in "TtWw":
                    address = library.get_pointer_to_function(parts[3])
                    if address:
                        found.append((address, int(parts[1], 16), short_name(parts[3])))
    return sorted(set(found))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--players", type=int)
    parser.add_argument("--strategy", default="random")
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args(argv)
    cfg = config.load(args.game, players=args.players)
    game, params = cfg.game, cfg.params
    seats = [args.strategy] * params.players
    print("compiling afresh ...", file=sys.stderr)
    simulate(game, params, seats, 200, seed=0)
    dispatchers = [game.kernel] + [info.function for info in game.strategies().values()]
    functions = compiled_functions(dispatchers)
    starts = [f[0] for f in functions]
    data = os.path.join(WORK, "perf.data")
    perf = subprocess.Popen(["perf", "record", "-q", "-e", "cpu-clock", "-F", "4000",
                             "-p", str(os.getpid()), "-o", data],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    begin, games = time.process_time(), 0
    while time.process_time() - begin < args.seconds:
        simulate(game, params, seats, 5_000, seed=games + 1)
        games += 5_000
    perf.send_signal(2)
    perf.wait()
    ips = subprocess.run(["perf", "script", "-i", data, "-F", "ip"], check=True,
                         capture_output=True, text=True).stdout.split()
    shares = collections.Counter()
    for ip in (int(x, 16) for x in ips):
        i = bisect.bisect_right(starts, ip) - 1
        inside = i >= 0 and ip < functions[i][0] + functions[i][1]
        shares[functions[i][2] if inside else "(outside compiled code)"] += 1
    total = max(len(ips), 1)
    print(f"{args.strategy}: {games:,} games, {len(ips):,} samples")
    for name, count in shares.most_common(args.top):
        print(f"{100 * count / total:6.1f}%  {name}")


if __name__ == "__main__":
    main()
