"""How `fairplay serve` shares the machine between runs at once: starts a server in a temporary
folder, plays one run alone, then two and three identical runs at once (other seeds), and prints
each run's games per second over the same window of time.

    python benchmarks/bench_serve_share.py [--seconds 20] [--config werewolf/base.toml]

Every run plays on as many worker processes as the machine has cores, so the operating system
gives each run an equal share: with k runs at once each should play about 1/k of the one run's
rate, and the runs about as fast as one another (docs/serve.md records a measurement).
"""

from __future__ import annotations

import argparse
import json
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

SESSION = "benchmarkshare"


def post(address: str, path: str, body: dict) -> dict:
    request = urllib.request.Request(address + path, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.load(answer)


def snapshot(address: str) -> dict:
    """Each run's games played, from the first state the event stream sends."""
    with urllib.request.urlopen(f"{address}api/events?session={SESSION}", timeout=60) as stream:
        for raw in stream:
            line = raw.decode().strip()
            if line.startswith("data: "):
                return {run["id"]: (run["played"], run["state"])
                        for run in json.loads(line[6:])["runs"]}
    return {}


def measure(address: str, base: str, count: int, seconds: float, seed: int) -> list[float]:
    game = base.split("/")[0]
    ids = [post(address, "api/runs", {"session": SESSION, "game": game, "base": base,
                                      "fields": {}, "games": 10**9, "seed": seed + k})["id"]
           for k in range(count)]
    while not all(snapshot(address).get(i, (0, ""))[0] > 0 for i in ids):  # all started
        time.sleep(0.5)
    start, first = time.monotonic(), snapshot(address)
    time.sleep(seconds)
    end, last = time.monotonic(), snapshot(address)
    for i in ids:
        post(address, f"api/runs/{i}/stop", {"session": SESSION})
    while any(snapshot(address)[i][1] not in ("stopped", "done", "failed") for i in ids):
        time.sleep(0.5)
    return [(last[i][0] - first[i][0]) / (end - start) for i in ids]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--config", default="werewolf/base.toml")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="fairplay-serve-share-")
    server = subprocess.Popen([sys.executable, "-m", "simulator.cli", "serve", "--port", "0"],
                              cwd=folder, stderr=subprocess.PIPE, text=True)
    address = re.search(r"http://\S+/", server.stderr.readline())[0]
    try:
        alone = measure(address, args.config, 1, args.seconds, 0)[0]
        print(f"one run alone: {alone:,.0f} games/s")
        for count in (2, 3):
            rates = measure(address, args.config, count, args.seconds, 10 * count)
            print(f"{count} runs at once: " + ", ".join(f"{r:,.0f}" for r in rates) +
                  f" games/s (each {', '.join(f'{r / alone:.2f}' for r in rates)} of one alone;"
                  f" slowest/fastest {min(rates) / max(rates):.2f})")
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=60)


if __name__ == "__main__":
    main()
