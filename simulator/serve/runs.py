"""The workbench's runs: each an ordinary `fairplay run` in a process of its own
(simulator.serve.play), watched by a thread that keeps its latest result.

Sharing the cores: every run plays on the same number of worker processes (the machine's cores),
so the operating system's scheduler gives each run an equal share of the machine, however many
run at once. Each run can be stopped (SIGINT: its finished chunks are saved and the result can be
resumed); a page's runs are stopped when the page is gone; closing the server stops every run
and waits for it, and a run whose server dies outright ends itself (it watches its parent).
"""

from __future__ import annotations

import collections
import json
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from simulator.run.results import Result, ResultError
from simulator.studies.sweep import Sweep, SweepError

STOP_WAIT_SECONDS = 15.0  # how long a stopped run may take to save before it is killed
PAGE_GONE_SECONDS = 5.0  # a page that does not come back within this is closed: its runs stop


@dataclass
class Run:
    id: int
    session: str
    label: str
    setup: Path  # relative to the server's folder
    output: Path
    games: int
    seed: int
    changes: list = field(default_factory=list)  # (key, base value, value) of the setup
    vary: list = field(default_factory=list)  # a sweep's `--vary KEY=LEVELS`; empty: a run
    tune: dict = field(default_factory=dict)  # a best-response search: team or role, trials
    state: str = "starting"  # starting, running, stopping, done, stopped, failed
    line: str = ""  # what it is doing now, or how it ended
    result: Result | None = None  # a run's result so far
    sweep: Sweep | None = None  # a sweep so far
    search: dict | None = None  # a best-response search so far (its file)
    process: subprocess.Popen | None = None
    started: float = field(default_factory=time.monotonic)

    @property
    def kind(self) -> str:
        return "best-response" if self.tune else "sweep" if self.vary else "run"

    @property
    def finished(self) -> bool:
        return self.state in ("done", "stopped", "failed")


class Runs:
    """Every run of one server, by number."""

    def __init__(self, root: Path, workers: int | None = None):
        self.root = root
        self.workers = workers or os.cpu_count() or 1
        self.runs: dict[int, Run] = {}
        self.lock = threading.Lock()
        self.changed = threading.Condition(self.lock)
        self.version = 0
        self._open_pages: dict[str, int] = {}  # session -> its open event streams
        self._page_left: dict[str, float] = {}  # session -> when its last stream ended
        self.closed = False
        self.closing = False  # the server is stopping: every page's stream says so and ends

    # --- starting and watching -----------------------------------------------------------------
    def start(self, session: str, label: str, setup: Path, output: Path, games: int, seed: int,
              changes=(), vary=(), tune=None) -> Run:
        with self.lock:
            if self.closed:
                raise RuntimeError("the server is closing")
            number = max(self.runs, default=0) + 1
            run = Run(number, session, label, setup, output, games, seed, list(changes),
                      list(vary), dict(tune or {}))
            self.runs[number] = run
        self._launch(run)
        return run

    def resume(self, run: Run) -> None:
        """Continue a stopped run (or sweep) from its file, as `fairplay run --resume` does."""
        with self.lock:
            if self.closed or not run.finished:
                return
            run.state, run.line = "starting", ""
            self._bump()
        self._launch(run, resume=True)

    def _launch(self, run: Run, resume: bool = False) -> None:
        if run.tune:  # a best-response search, as `fairplay best-response` plays it
            tune = run.tune
            command = [sys.executable, "-m", "simulator.serve.play", "--best-response",
                       str(run.setup), str(run.output), "--team" if tune.get("team") else "--role",
                       tune.get("team") or tune["role"], "--trials", str(tune["trials"]),
                       "--games", str(run.games), "--seed", str(run.seed), "--parent",
                       str(os.getpid()), "--workers", str(self.workers)] + \
                (["--resume"] if resume else [])
        else:
            command = [sys.executable, "-m", "simulator.serve.play", str(run.setup),
                       str(run.output), "--games", str(run.games), "--seed", str(run.seed),
                       "--parent", str(os.getpid()), "--workers", str(self.workers)] + \
                (["--resume"] if resume else []) + [f"--vary={text}" for text in run.vary]
        # A session of its own: Ctrl-C in the server's terminal reaches the server, which stops
        # each run itself (and waits for it to save).
        run.process = subprocess.Popen(command, cwd=self.root,
                                       stdout=subprocess.DEVNULL if run.tune else subprocess.PIPE,
                                       stderr=subprocess.PIPE, text=True, encoding="utf-8",
                                       start_new_session=True)
        if run.tune:
            threading.Thread(target=self._watch_search, args=(run,), daemon=True).start()
        else:
            errors: collections.deque = collections.deque(maxlen=20)  # its last words, if any
            threading.Thread(target=errors.extend, args=(run.process.stderr,),
                             daemon=True).start()
            threading.Thread(target=self._watch, args=(run, errors), daemon=True).start()

    def _watch_search(self, run: Run) -> None:
        """A best-response search: its lines are its status, its file its progress."""
        from simulator.studies import best_response

        def read_file():
            try:
                search = best_response.load(self.root / run.output)
            except (best_response.BestResponseError, OSError, ValueError):
                return
            with self.lock:
                if search != run.search:
                    run.search = search
                    if run.state == "starting":
                        run.state = "running"
                    self._bump()

        def poll():
            while run.process.poll() is None:
                if (self.root / run.output).exists():
                    read_file()
                time.sleep(1.0)

        threading.Thread(target=poll, daemon=True).start()
        last = ""
        for line in run.process.stderr:
            line = line.strip()
            if line:
                last = line
                with self.lock:
                    run.line = line
                    self._bump()
        code = run.process.wait()
        read_file()
        with self.lock:
            run.state = "done" if code == 0 else "stopped" if code == 130 else "failed"
            run.line = {"done": f"saved to {run.output}"}.get(run.state, last)
            self._bump()

    def _watch(self, run: Run, errors) -> None:
        for line in run.process.stdout:
            try:
                message = json.loads(line)
            except ValueError:
                continue
            kind = message.get("kind")
            with self.lock:
                if kind == "status":
                    run.line = str(message.get("line", ""))
                elif kind == "result":
                    try:
                        if run.vary:
                            run.sweep = Sweep.from_data(message["data"], str(run.output))
                        else:
                            run.result = Result.from_data(message["data"], str(run.output))
                    except (ResultError, SweepError, KeyError, TypeError, ValueError):
                        continue
                    if run.state == "starting":
                        run.state, run.line = "running", ""
                elif kind == "end":
                    run.state = {"done": "done", "stopped": "stopped"}.get(message.get("how"),
                                                                           "failed")
                    run.line = str(message.get("line", ""))
                self._bump()
        code = run.process.wait()
        time.sleep(0.1)  # its last lines on stderr
        last = [line.strip() for line in errors if line.strip()]
        with self.lock:
            if not run.finished:  # it died without a word (killed, a crash)
                run.state = "failed"
                run.line = last[-1] if last else f"the run's process ended (exit code {code})"
            self._bump()

    def _bump(self) -> None:
        self.version += 1
        self.changed.notify_all()

    def touch(self) -> None:
        """Something the pages show changed besides the runs (a pinned reference)."""
        with self.lock:
            self._bump()

    def wait_for_change(self, version: int, timeout: float) -> int:
        with self.lock:
            self.changed.wait_for(lambda: self.version != version or self.closed or self.closing,
                                  timeout)
            return self.version

    # --- stopping ------------------------------------------------------------------------------
    def stop(self, number: int) -> Run | None:
        run = self.runs.get(number)
        if run is None or run.finished or run.process is None:
            return run
        with self.lock:
            run.state = "stopping"
            self._bump()
        try:
            run.process.send_signal(signal.SIGINT)  # saves its finished chunks, then ends
        except ProcessLookupError:
            pass
        return run

    def stop_session(self, session: str) -> None:
        for run in list(self.runs.values()):
            if run.session == session:
                self.stop(run.id)

    def page_opened(self, session: str) -> None:
        with self.lock:
            self._open_pages[session] = self._open_pages.get(session, 0) + 1

    def page_closed(self, session: str) -> None:
        """A page's event stream ended; unless the page comes back (a reload), its runs stop."""
        with self.lock:
            self._open_pages[session] = self._open_pages.get(session, 1) - 1
            self._page_left[session] = time.monotonic()

        def later():
            with self.lock:  # gone, and for the whole wait (not back and gone again since)
                gone = self._open_pages.get(session, 0) <= 0 and \
                    time.monotonic() - self._page_left[session] >= PAGE_GONE_SECONDS * 0.99
            if gone:
                self.stop_session(session)

        timer = threading.Timer(PAGE_GONE_SECONDS, later)
        timer.daemon = True
        timer.start()

    def begin_close(self) -> None:
        """The server is stopping: the pages' event streams end now (a stream left open would
        hold the server past its graceful shutdown); `close` then stops the runs."""
        with self.lock:
            self.closing = True
            self._bump()

    def close(self) -> None:
        """Stop every run, let each save, and leave no process behind."""
        with self.lock:
            self.closed = True
            self._bump()
        for number in list(self.runs):
            self.stop(number)
        deadline = time.monotonic() + STOP_WAIT_SECONDS
        for run in self.runs.values():
            if run.process is None:
                continue
            try:
                run.process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                os.killpg(run.process.pid, signal.SIGKILL)
                run.process.wait()

    # --- reading -------------------------------------------------------------------------------
    def of_session(self, session: str) -> list[Run]:
        return [run for run in self.runs.values() if run.session == session]
