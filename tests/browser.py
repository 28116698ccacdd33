"""Headless Chromium for the browser tests: the system's `chromium`, driven over its DevTools
protocol with websocket-client (tests/test_reports_browser.py, tests/test_serve_browser.py).

Where Chromium or websocket-client is missing the tests skip with the reason, except in CI (the
environment variable CI is set), where they fail: CI must install them (`apt-get install -y
chromium`, `pip install websocket-client`).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def unavailable(reason: str):
    if _in_ci():
        pytest.fail(f"{reason} (required in CI: apt-get install -y chromium; "
                    f"pip install websocket-client)")
    pytest.skip(reason)


def _browser_path() -> str:
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    unavailable("no Chromium on PATH (apt-get install -y chromium)")


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


def start_browser(profile: Path) -> DevTools:
    """A headless Chromium with an empty profile in `profile`, or a skip (a failure in CI)."""
    executable = _browser_path()
    try:
        import websocket  # noqa: F401
    except ImportError:
        unavailable("websocket-client is not installed (pip install websocket-client)")
    return DevTools(executable, profile)
