"""Regenerate the screenshot of `fairplay serve` in README.md and docs/serve.md: the workbench
at a desktop's width (1280 px) with a pinned reference run and a run that adds a werewolf.

    python docs/serve_screenshot.py       # writes docs/images/serve-1280.png

It starts `fairplay serve` in a temporary folder, plays two short werewolf runs through the
page's own calls, and photographs the page in headless Chromium over its DevTools protocol (the
helper tests/test_serve_browser.py uses). The PNG is reduced to a palette (docs/screenshots.py).
"""

from __future__ import annotations

import base64
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "docs"))

from browser import start_browser  # noqa: E402
from screenshots import shrink  # noqa: E402
from serving import SESSION, Server, run_of  # noqa: E402

OUT = ROOT / "docs" / "images" / "serve-1280.png"


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        server = Server(folder)
        browser = start_browser(folder / "profile")
        try:
            first = server.start_run(200_000, seed=1)
            server.state_when(lambda s: run_of(s, first["id"])["state"] == "done")
            server.post(f"/api/runs/{first['id']}/pin", {"session": SESSION})
            second = server.start_run(200_000, seed=1, fields={"roles.werewolf": "3"})
            server.state_when(lambda s: run_of(s, second["id"])["state"] == "done")
            browser.send("Page.enable")
            browser.send("Emulation.setDeviceMetricsOverride", width=1280, height=1100,
                         deviceScaleFactor=1, mobile=False)
            browser.send("Page.navigate", url=server.address)
            time.sleep(1)
            browser.evaluate(f"sessionStorage.setItem('fairplay-session', '{SESSION}')")
            browser.send("Page.navigate", url=server.address)
            time.sleep(3)
            browser.evaluate("document.querySelector('[name=\"roles.werewolf\"]').value = '3'")
            shot = browser.send("Page.captureScreenshot", format="png")
            OUT.write_bytes(base64.b64decode(shot["data"]))
            shrink(OUT)
            print(f"{OUT.relative_to(ROOT)}: {OUT.stat().st_size / 1024:.0f} KB")
        finally:
            browser.close()
            server.stop()


if __name__ == "__main__":
    main()
