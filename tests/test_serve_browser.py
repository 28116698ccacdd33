"""`fairplay serve` in a real browser (headless Chromium over the DevTools protocol,
tests/browser.py): load the page, refuse a bad value next to its field with the CLI's message,
change a key, run, watch the rates and their intervals update, stop a run, save the setup as TOML
and play it with `fairplay run` to the same tallies, step through a game, and fit a phone's
(390 px) and a desktop's (1280 px) window."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time

import numpy as np
import pytest

from browser import start_browser
from serving import Server
from simulator.run.results import Result

GAMES = 1_000_000  # 50 chunks: long enough to be seen between updates, a few seconds here


@pytest.fixture
def page(tmp_path):
    browser = start_browser(tmp_path / "profile")
    server = Server(tmp_path)
    browser.send("Runtime.enable")
    browser.send("Log.enable")
    browser.send("Page.enable")
    try:
        yield browser, server, tmp_path
    finally:
        browser.close()
        server.stop()


def until(browser, expression: str, timeout: float = 600.0, what: str = ""):
    deadline = time.monotonic() + timeout
    while True:
        value = browser.evaluate(expression)
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(what or expression)
        time.sleep(0.1)


def set_field(browser, name: str, value: str) -> None:
    browser.evaluate(f"""(() => {{
        const input = document.querySelector('[name="{name}"]');
        input.value = {json.dumps(value)};
        input.dispatchEvent(new Event("input", {{bubbles: true}}));
        input.dispatchEvent(new Event("change", {{bubbles: true}}));
    }})()""")


def card(number: int, query: str) -> str:
    return f"document.querySelector('.run[data-id=\"{number}\"]{query}')"


def test_the_workbench_from_editing_to_a_saved_setup(page):
    browser, server, folder = page
    browser.send("Emulation.setDeviceMetricsOverride", width=1280, height=900,
                 deviceScaleFactor=1, mobile=False)
    browser.send("Page.navigate", url=server.address)
    until(browser, "document.querySelectorAll('[name=\"roles.werewolf\"]').length", 60)

    # a bad value: refused next to its field, with the CLI's words
    set_field(browser, "roles.werewolf", "99")
    error = until(browser, "document.querySelector('.error[data-for=\"roles.werewolf\"]')"
                           ".textContent", 60)
    cli = subprocess.run([sys.executable, "-m", "simulator.cli", "run", "werewolf", "--set",
                          "roles.werewolf=99", "-n", "10"], capture_output=True, text=True,
                         cwd=folder)
    assert cli.returncode == 2
    assert error.split("roles.werewolf: ", 1)[1] == cli.stderr.strip().split(
        "roles.werewolf: ", 1)[1]
    assert browser.evaluate("document.getElementById('run').disabled")

    # change a key, run, and watch the rates with their intervals update
    set_field(browser, "roles.werewolf", "3")
    until(browser, "!document.getElementById('run').disabled && !document.querySelector("
                   "'.error[data-for=\"roles.werewolf\"]').textContent", 60)
    browser.evaluate(f"document.getElementById('games').value = '{GAMES}'; "
                     f"document.getElementById('seed').value = '3'; "
                     f"document.getElementById('run').click()")
    seen = set()
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        state = browser.evaluate(card(1, "") + "?.dataset.state")
        played = browser.evaluate(card(1, "") + "?.dataset.played")
        if played:
            seen.add(int(played))
        if state in ("done", "failed"):
            break
        time.sleep(0.1)
    assert browser.evaluate(card(1, "") + ".dataset.state") == "done", \
        browser.evaluate(card(1, " .state-line") + "?.textContent")
    assert len({p for p in seen if 0 < p < GAMES}) >= 1, seen  # seen before the end
    cells = browser.evaluate("Array.from(document.querySelectorAll('.run[data-id=\"1\"] "
                             "table[data-group=\"team\"] td')).map(c => c.textContent)")
    intervals = [c for c in cells if re.fullmatch(r"\d+\.\d%–\d+\.\d%", c)]
    assert len(intervals) == 2, cells  # the humans and the wolves, each with its interval
    assert browser.evaluate(card(1, " .verdict") + ".textContent")

    # a second run, stopped from the page: saved, and short of its target
    browser.evaluate("document.getElementById('games').value = '1000000000'; "
                     "document.getElementById('run').click()")
    until(browser, card(2, "") + "?.dataset.played > 0", 600, "the second run plays")
    browser.evaluate(card(2, " button.stop") + ".click()")
    until(browser, card(2, "") + "?.dataset.state === 'stopped'", 60, "the run stops")
    stopped = Result.load(folder / "results" / "serve" / "run-2.json")
    assert 0 < stopped.games_played < 10**9

    # save the setup; `fairplay run` plays it to the page's tallies
    browser.evaluate("document.getElementById('name').value = 'mine.toml'; "
                     "document.getElementById('save').click()")
    until(browser, "document.getElementById('message').textContent.startsWith('saved')", 30)
    subprocess.run([sys.executable, "-m", "simulator.cli", "run", "mine.toml", "-n", str(GAMES),
                    "--seed", "3", "-o", "cli.json", "-q"], cwd=folder, check=True,
                   capture_output=True)
    ours = Result.load(folder / "results" / "serve" / "run-1.json")
    theirs = Result.load(folder / "cli.json")
    for name, values in ours.tallies.items():
        assert np.array_equal(values, theirs.tallies[name]), name

    # the page fits a phone's window and a desktop's
    for width in (390, 1280):
        browser.send("Emulation.setDeviceMetricsOverride", width=width, height=900,
                     deviceScaleFactor=1, mobile=width < 600)
        time.sleep(0.5)
        wide, window = browser.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        assert wide <= window, (width, wide, window)
    assert browser.errors() == []


def test_a_game_of_a_run_step_by_step(page):
    browser, server, folder = page
    answer = server.start_run(40_000, seed=2)
    server.state_when(lambda s: s["runs"][0]["state"] == "done")
    browser.send("Page.navigate", url=f"{server.address}runs/{answer['id']}/trace?game=7")
    until(browser, "document.querySelectorAll('#lines li').length", 600)
    assert until(browser, "document.getElementById('where').textContent").startswith("step 1 of")
    browser.evaluate("document.getElementById('forward').click(); "
                     "document.getElementById('forward').click(); "
                     "document.getElementById('back').click()")
    assert browser.evaluate("document.getElementById('where').textContent").startswith("step 2 ")
    assert browser.evaluate("document.querySelectorAll('#table .seat').length") == 9
    # at the last step the table has every seat's role and the dead marked out
    browser.evaluate("{ const s = document.getElementById('step'); s.value = s.max; "
                     "s.dispatchEvent(new Event('input')); }")
    every = browser.evaluate("Array.from(document.querySelectorAll('#lines li'))"
                             ".map(l => l.textContent)")
    dead = sum(1 for line in every if line.startswith("  † seat"))
    assert browser.evaluate("document.querySelectorAll('#table .seat.out').length") == dead > 0
    assert all(browser.evaluate("Array.from(document.querySelectorAll('#table .seat h3'))"
                                ".map(h => h.textContent.includes(' · '))"))
    browser.evaluate("{ const s = document.getElementById('step'); s.value = 0; "
                     "s.dispatchEvent(new Event('input')); "
                     "document.getElementById('forward').click(); "
                     "document.getElementById('forward').click(); "
                     "document.getElementById('back').click(); }")
    now = browser.evaluate("document.querySelector('#lines li.now').textContent")
    lines = browser.evaluate("Array.from(document.querySelectorAll('#lines li'))"
                             ".map(l => l.textContent)")
    assert now == lines[1]
    # a click on a line steps there, and the address links to that step
    browser.evaluate("document.querySelectorAll('#lines li')[9].click()")
    assert browser.evaluate("document.getElementById('where').textContent").startswith("step 10 ")
    assert browser.evaluate("location.hash") == "#step=10"
    cli = subprocess.run([sys.executable, "-m", "simulator.cli", "trace",
                          answer["setup"], "--seed", "2", "--game", "7"], cwd=folder,
                         capture_output=True, text=True, check=True)
    assert [line for line in cli.stdout.splitlines() if line.strip()][:len(lines)] == \
        [line for line in lines if line.strip()]
    # with what each seat learns privately: `fairplay trace --private`
    # (opened at a linked step)
    browser.send("Page.navigate", url=f"{server.address}runs/{answer['id']}/trace?game=7"
                                      f"&private=1#step=5")
    # Page.navigate answers before the new page replaces the old one: wait for the new one
    until(browser, "location.search.includes('private=1') && "
                   "document.getElementById('where') && "
                   "document.getElementById('where').textContent.startsWith('step 5 of') && "
                   "document.querySelectorAll('#lines li').length", 600)
    private = browser.evaluate("Array.from(document.querySelectorAll('#lines li'))"
                               ".map(l => l.textContent)")
    assert browser.evaluate("document.getElementById('where').textContent") == \
        f"step 5 of {len(private)}"
    cli = subprocess.run([sys.executable, "-m", "simulator.cli", "trace", answer["setup"],
                          "--seed", "2", "--game", "7", "--private"], cwd=folder,
                         capture_output=True, text=True, check=True)
    assert [line for line in cli.stdout.splitlines() if line.strip()][:len(private)] == \
        [line for line in private if line.strip()]
    assert browser.errors() == []


def test_a_page_runs_a_strategy_file_of_the_served_folder(page):
    """A setup naming a user strategy file inside the served folder (`strat/x.py:f`, relative to
    it) runs from the page and finishes with a result. The page's menu lists the built-in
    strategies; the file's name is given as a config that names it would (an option added to
    the menu here)."""
    browser, server, folder = page
    (folder / "strat").mkdir()
    (folder / "strat" / "x.py").write_text(
        "from strategies.common import uniform_legal\n\n\n"
        "def f(kind, obs, legal, params, memory, rng):\n"
        "    \"\"\"at random\"\"\"\n    return uniform_legal(legal, rng)\n", encoding="utf-8")
    browser.send("Page.navigate", url=server.address)
    until(browser, "document.querySelectorAll('[name=\"strategies.all\"]').length", 60)
    browser.evaluate("""(() => {
        const menu = document.querySelector('[name="strategies.all"]');
        const option = document.createElement("option");
        option.value = option.textContent = "strat/x.py:f";
        menu.append(option);
    })()""")
    set_field(browser, "strategies.all", "strat/x.py:f")
    until(browser, "!document.getElementById('run').disabled && !document.querySelector("
                   "'.error[data-for=\"strategies.all\"]').textContent", 60,
          "the page accepts the strategy file")
    browser.evaluate("document.getElementById('games').value = '2000'; "
                     "document.getElementById('seed').value = '1'; "
                     "document.getElementById('run').click()")
    until(browser, card(1, "") + "?.dataset.state === 'done' || " + card(1, "")
          + "?.dataset.state === 'failed'", 600, "the run ends")
    assert browser.evaluate(card(1, "") + ".dataset.state") == "done", \
        browser.evaluate(card(1, " .state-line") + "?.textContent")
    assert browser.evaluate(card(1, "") + ".dataset.played") == "2000"
    assert browser.evaluate(card(1, " .verdict") + ".textContent")
    setup = (folder / "results" / "serve" / "run-1.toml").read_text(encoding="utf-8")
    assert "../../strat/x.py:f" in setup
    assert Result.load(folder / "results" / "serve" / "run-1.json").games_played == 2000
    assert browser.errors() == []


def test_the_page_says_when_the_server_has_stopped(page):
    """Ctrl-C with the page open: the page says the server stopped and where the runs were
    saved, its run's buttons no longer act, and the server's stop is one line (no traceback)."""
    browser, server, folder = page
    browser.send("Page.navigate", url=server.address)
    until(browser, "document.querySelectorAll('[name=\"strategies.all\"]').length", 60)
    browser.evaluate("document.getElementById('games').value = '" + str(GAMES) + "'; "
                     "document.getElementById('seed').value = '1'; "
                     "document.getElementById('run').click()")
    until(browser, card(1, "") + "?.dataset.state === 'running' && " + card(1, "")
          + ".dataset.played > 0", 120, "the run has played a chunk")
    assert browser.evaluate("document.getElementById('server-gone').hidden")
    assert server.stop() == 130
    assert "Traceback" not in server.process.stderr.read()
    notice = until(browser, "!document.getElementById('server-gone').hidden && "
                            "document.getElementById('server-gone').textContent", 30,
                   "the page notices")
    assert "The server has stopped" in notice and "results/serve/" in notice
    assert browser.evaluate("[...document.querySelectorAll('#run-list button')]"
                            ".every((b) => b.disabled)")
    assert Result.load(folder / "results" / "serve" / "run-1.json").games_played > 0


def test_the_page_says_when_the_server_cannot_be_reached(page):
    """A server killed from outside (no goodbye on the stream): the page says it cannot be
    reached rather than showing a run still going."""
    browser, server, folder = page
    browser.send("Page.navigate", url=server.address)
    until(browser, "document.querySelectorAll('[name=\"strategies.all\"]').length", 60)
    server.process.kill()
    server.process.wait()
    notice = until(browser, "!document.getElementById('server-gone').hidden && "
                            "document.getElementById('server-gone').textContent", 30,
                   "the page notices")
    assert "cannot be reached" in notice
