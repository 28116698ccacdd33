"""The reports in a real browser: headless Chromium (the system's `chromium`, driven over its
DevTools protocol with websocket-client) opens each kind of report from a file:// URL and must
log no console error, give every chart a non-zero size, not overflow the page sideways, and print
to PDF.

Where Chromium or websocket-client is missing the tests skip with the reason, except in CI (the
environment variable CI is set), where they fail: CI must install them (`apt-get install -y
chromium`, `pip install websocket-client`).

The results are synthetic (consistent tallies drawn with NumPy, no kernel run), so this file is
fast; test_reports.py checks the numbers of real runs.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import time
import urllib.request
from pathlib import Path

import numpy as np
import pytest

from reports import render
from simulator import config, runner
from simulator import sweep as sw

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def _unavailable(reason: str):
    if _in_ci():
        pytest.fail(f"{reason} (required in CI: apt-get install -y chromium; "
                    f"pip install websocket-client)")
    pytest.skip(reason)


def _browser_path() -> str:
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    _unavailable("no Chromium on PATH (apt-get install -y chromium)")


class DevTools:
    """Just enough of the Chrome DevTools protocol: one page, commands and events."""

    def __init__(self, executable: str, profile: Path):
        import websocket

        self.process = subprocess.Popen(
            [executable, "--headless", "--no-sandbox", "--disable-gpu",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--no-first-run", "--no-default-browser-check", f"--user-data-dir={profile}",
             "--remote-debugging-port=0", "--remote-allow-origins=*", "--window-size=1200,900",
             "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = profile / "DevToolsActivePort"
        deadline = time.monotonic() + 60
        while not (port_file.exists() and port_file.read_text().count("\n") >= 1):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.close()
                raise RuntimeError("Chromium did not start its DevTools endpoint")
            time.sleep(0.1)
        port = int(port_file.read_text().splitlines()[0])
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=30) as answer:
            targets = json.load(answer)
        page = next(t for t in targets if t.get("type") == "page")
        self.socket = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=60,
                                                  suppress_origin=True)
        self.next_id = 0
        self.events: list[dict] = []

    def send(self, method: str, **params) -> dict:
        self.next_id += 1
        self.socket.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.events.append(message)

    def wait_for(self, event: str, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while not any(e.get("method") == event for e in self.events):
            if time.monotonic() > deadline:
                raise TimeoutError(event)
            self.socket.settimeout(max(0.1, deadline - time.monotonic()))
            self.events.append(json.loads(self.socket.recv()))

    def evaluate(self, expression: str):
        answer = self.send("Runtime.evaluate", expression=expression, returnByValue=True,
                           awaitPromise=True)
        if "exceptionDetails" in answer:
            raise RuntimeError(answer["exceptionDetails"])
        return answer["result"].get("value")  # undefined has no value

    def errors(self) -> list[str]:
        found = []
        for e in self.events:
            method, params = e.get("method"), e.get("params", {})
            if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                found.append(f"console.{params['type']}: {params.get('args')}")
            elif method == "Runtime.exceptionThrown":
                found.append(f"exception: {params.get('exceptionDetails', {}).get('text')}")
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                found.append(f"log: {params['entry'].get('text')} {params['entry'].get('url', '')}")
        return found

    def close(self) -> None:
        try:
            self.socket.close()
        except Exception:
            pass
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    executable = _browser_path()
    try:
        import websocket  # noqa: F401
    except ImportError:
        _unavailable("websocket-client is not installed (pip install websocket-client)")
    tools = DevTools(executable, tmp_path_factory.mktemp("chromium-profile"))
    yield tools
    tools.close()


# --- synthetic but consistent results ----------------------------------------------------------
def synthetic(overrides=(), games=4000, seed=0):
    """A werewolf result with tallies drawn from a simple model (no game is played)."""
    rng = np.random.default_rng(seed)
    cfg = config.load("werewolf", overrides=list(overrides))
    result = runner.start(cfg, games, seed, chunk_size=games, command="fairplay run werewolf "
                          + " ".join(f"--set {o}" for o in overrides) + f" -n {games}")
    players = cfg.players
    counts = np.asarray(cfg.params.role_counts)
    wolves = int(counts[1])
    humans = players - wolves
    p_humans = float(np.clip(0.85 - 0.25 * wolves + 0.03 * (players - 8), 0.02, 0.98))
    h = int(rng.binomial(games, p_humans))
    t = result.tallies
    t["games"][0] = games
    t["team_wins"][:] = [h, games - h]
    t["seat_wins"][:] = rng.binomial(games, (h * humans + (games - h) * wolves) / games / players,
                                     size=players)
    t["role_games"][:] = counts * games
    t["role_wins"][:] = [h * counts[0], (games - h) * wolves, h * counts[2]]
    t["slot_games"][0] = players * games
    t["slot_wins"][0] = h * humans + (games - h) * wolves
    t["length_hist"][2:6] = rng.multinomial(games, [0.1, 0.5, 0.3, 0.1])
    parity = int(rng.binomial(games - h, 0.6))
    t["end_counts"][:] = [h, games - h - parity, parity]
    t["events"][:] = rng.integers(0, 3 * games, size=len(t["events"]))
    result.data["chunks_done"] = [0]
    result.data["complete"] = True
    return result


@pytest.fixture(scope="module")
def report_files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("reports")
    a, b = synthetic(seed=1), synthetic(["roles.werewolf=3"], seed=2)
    files = {
        "run": render.write_run_report(a, folder / "run.html"),
        "compare": render.write_compare_report(a, b, folder / "compare.html"),
    }
    planned, _ = sw.plan("werewolf", [sw.parse_vary("players=8..11"),
                                      sw.parse_vary("roles.werewolf=1..4")], 500, 0)
    for cell in planned.cells:
        if cell.result is not None:
            cell.result = synthetic(cell.overrides, games=500, seed=cell.index)
            cell.status = "ok"
    files["sweep"] = render.write_sweep_report(planned, folder / "sweep.html")
    planned, _ = sw.plan("werewolf", [sw.parse_vary("players=8..12")], 500, 0)
    for cell in planned.cells:
        cell.result = synthetic(cell.overrides, games=500, seed=cell.index)
        cell.status = "ok"
    files["line"] = render.write_sweep_report(planned, folder / "line.html")
    return files


CHARTS = """[...document.querySelectorAll('figure[data-chart]')].map(f => {
  const s = f.querySelector('svg'); const r = s ? s.getBoundingClientRect() : {width: 0, height: 0};
  return {kind: f.dataset.chart, width: r.width, height: r.height};
})"""


@pytest.mark.parametrize("kind, expected", [
    ("run", {"rates", "histogram"}),
    ("compare", {"paired", "differences", "distribution", "values"}),
    ("sweep", {"heatmap", "values"}),
    ("line", {"line"}),
])
def test_report_opens_cleanly_in_chromium(browser, report_files, kind, expected):
    browser.events.clear()
    browser.send("Page.enable")
    browser.send("Runtime.enable")
    browser.send("Log.enable")
    browser.send("Page.navigate", url=report_files[kind].resolve().as_uri())
    browser.wait_for("Page.loadEventFired")
    browser.evaluate("new Promise(r => setTimeout(r, 200))")  # late console messages
    assert browser.errors() == []
    charts = browser.evaluate(CHARTS)
    assert charts, "the report has charts"
    assert expected <= {c["kind"] for c in charts}
    for chart in charts:
        assert chart["width"] > 50 and chart["height"] > 50, chart
    assert browser.evaluate("document.querySelector('#verdict').innerText.trim().length") > 40
    overflow = browser.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page is {overflow}px wider than the window"
    pdf = browser.send("Page.printToPDF", printBackground=True)
    assert base64.b64decode(pdf["data"]).startswith(b"%PDF")
