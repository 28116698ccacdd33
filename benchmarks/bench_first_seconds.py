"""What a newcomer sees in the first seconds of a cold first run, in a terminal.

Runs `fairplay run GAME` (README's first command) in a pseudo-terminal with an empty
compiled-code cache, and prints the screen as it stands after each of --at seconds (a line
rewritten in place shows as it last read), then what the run printed in the end, with the
times.

    python benchmarks/bench_first_seconds.py --game werewolf --at 2 5 10

docs/performance.md ("The first ten seconds") shows its output.
"""

from __future__ import annotations

import argparse
import os
import pty
import re
import select
import subprocess
import sys
import tempfile
import time

ESCAPE = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def screen(raw: str) -> list[str]:
    """The lines a terminal shows for `raw`: a carriage return goes back to the line's start, an
    erase clears it, and the rest overwrites."""
    lines, line = [], ""
    for part in re.split(r"(\r|\n|\x1b\[K)", raw.replace("\r\n", "\n")):
        if part == "\n":
            lines.append(line)
            line = ""
        elif part == "\r":
            line = ""  # the next text overwrites (fairplay erases after every return)
        elif part == "\x1b[K":
            continue
        else:
            line += ESCAPE.sub("", part)
    return lines + ([line] if line else [])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="werewolf")
    parser.add_argument("--at", type=float, nargs="+", default=[2, 5, 10])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--limit", type=float, default=900, help="Stop the run after this.")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as work:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, COLUMNS="100")
        leader, follower = pty.openpty()
        command = [sys.executable, "-m", "simulator.cli", "run", args.game, "-n",
                   str(args.games)]
        began = time.monotonic()
        process = subprocess.Popen(command, stdin=follower, stdout=follower, stderr=follower,
                                   env=env, cwd=work, close_fds=True)
        os.close(follower)
        raw, shots, pending = b"", [], sorted(args.at)
        while True:
            now = time.monotonic() - began
            while pending and now >= pending[0]:
                shots.append((pending.pop(0), screen(raw.decode(errors="replace"))))
            ready, _, _ = select.select([leader], [], [], 0.05)
            if ready:
                try:
                    chunk = os.read(leader, 65536)
                except OSError:
                    chunk = b""
                if not chunk:
                    break
                raw += chunk
            elif process.poll() is not None or now > args.limit:
                break
        if process.poll() is None:
            process.kill()
        process.wait()
        total = time.monotonic() - began
    print(f"$ fairplay run {args.game} -n {args.games:,}   (empty cache; "
          f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f} at the end)")
    for at, lines in shots:
        print(f"\n--- after {at:g} s ---")
        print("\n".join(lines[-6:]) if lines else "(nothing yet)")
    final = screen(raw.decode(errors="replace"))
    print(f"\n--- the end, after {total:.0f} s (exit {process.returncode}) ---")
    keep = ("compil", "Verdict", "Result saved", f"{args.game}: ")
    print("\n".join(line for line in final if any(word in line for word in keep)))


if __name__ == "__main__":
    main()
