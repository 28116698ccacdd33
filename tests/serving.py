"""A real `fairplay serve` for the tests: started in a folder of its own on a free port, read
through its JSON calls and its event stream (tests/test_serve_runs.py, test_serve_browser.py)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

SESSION = "testsession01"


class Server:
    def __init__(self, folder: Path, *options: str):
        self.folder = folder
        self.process = subprocess.Popen(
            [sys.executable, "-m", "simulator.cli", "serve", "--port", "0", *options],
            cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        line = self.process.stderr.readline()
        found = re.search(r"(http://\S+/)(\?token=\S+)?", line)
        if not found:
            self.process.kill()
            raise RuntimeError(f"fairplay serve did not print its address: {line!r}")
        self.address, self.token_query = found[1], found[2] or ""
        self.line = line

    def post(self, path: str, body: dict) -> tuple[int, dict]:
        request = urllib.request.Request(self.address + path.lstrip("/"),
                                         data=json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                return answer.status, json.load(answer)
        except urllib.error.HTTPError as error:
            return error.code, json.load(error)

    def start_run(self, games: int, seed: int = 0, fields=None, session=SESSION,
                  base="werewolf/base.toml", game="werewolf") -> dict:
        status, answer = self.post("/api/runs", {"session": session, "game": game, "base": base,
                                                 "fields": fields or {}, "games": games,
                                                 "seed": seed})
        assert status == 200, answer
        return answer

    def state_when(self, test, session=SESSION, timeout: float = 600.0) -> dict:
        """The first state of `session`'s runs that passes `test`, from the event stream."""
        deadline = time.monotonic() + timeout
        with urllib.request.urlopen(f"{self.address}api/events?session={session}",
                                    timeout=timeout) as stream:
            for raw in stream:
                line = raw.decode().strip()
                if line.startswith("data: "):
                    state = json.loads(line[6:])
                    if test(state):
                        return state
                if time.monotonic() > deadline:
                    break
        raise TimeoutError("the runs never reached the state asked for")

    def stop(self) -> int:
        """Ctrl-C, as a user stops it; its exit code."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode


def run_of(state: dict, number: int) -> dict:
    return next(run for run in state["runs"] if run["id"] == number)


def processes_in(folder: Path) -> list[int]:
    """Processes whose working folder is `folder` (a run and its workers)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if Path(os.readlink(entry / "cwd")) == folder.resolve():
                found.append(int(entry.name))
        except OSError:
            continue
    return found
