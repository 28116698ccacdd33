"""The reports in a real browser: headless Chromium (the system's `chromium`, driven over its
DevTools protocol with websocket-client) opens each kind of report from a file:// URL and must
log no console error, give every chart a non-zero size, not overflow the page sideways, and print
to PDF; and at a phone's width (390 px) and a desktop's (1280 px) each kind (a team game's run, an
individual game's run, a one-key and a two-key sweep, a comparison) must fit the window, keep every
table scrolling in its own box and draw no chart text smaller than 9 px.

Where Chromium or websocket-client is missing the tests skip with the reason, except in CI, where
they fail (tests/browser.py).

The results are synthetic (consistent tallies drawn with NumPy, no kernel run), so this file is
fast; test_reports.py checks the numbers of real runs.
"""

from __future__ import annotations

import base64

import numpy as np
import pytest

from browser import start_browser, unavailable
from reports import render
from simulator.setup import config
from simulator.run import runner
from simulator.studies import sweep as sw



@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    tools = start_browser(tmp_path_factory.mktemp("chromium-profile"))
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
    t["role_wins"][:3] = [h * counts[0], (games - h) * wolves, h * counts[2]]  # base roles
    t["slot_games"][0] = players * games
    t["slot_wins"][0] = h * humans + (games - h) * wolves
    t["length_hist"][2:6] = rng.multinomial(games, [0.1, 0.5, 0.3, 0.1])
    parity = int(rng.binomial(games - h, 0.6))
    t["end_counts"][:3] = [h, games - h - parity, parity]  # no lovers, no piper
    t["events"][:] = rng.integers(0, 3 * games, size=len(t["events"]))
    result.data["chunks_done"] = [0]
    result.data["complete"] = True
    return result


BASIC_POOL = ("general-liu", "martial-judge", "general-gan", "lord-of-implements", "civil-judge")


def synthetic_individual(games=2000, seed=0):
    """A Chenghuang result (4 players, the basic pool: 5 roles for 4 seats) with scores drawn at
    random and tallies consistent with them; no game is played."""
    rng = np.random.default_rng(seed)
    cfg = config.load("chenghuang", players=4)
    result = runner.start(cfg, games, seed, chunk_size=games,
                          command=f"fairplay run chenghuang --players 4 -n {games}")
    game, t, players = cfg.game, result.tallies, 4
    pool = [game.role_index(name) for name in BASIC_POOL]
    scores = rng.integers(40, 110, size=(games, players))
    winners = scores.argmax(axis=1)
    roles = np.array([rng.permutation(pool)[:players] for _ in range(games)])
    t["games"][0] = games
    t["seat_wins"][:] = np.bincount(winners, minlength=players)
    won = roles[np.arange(games), winners]
    for r in pool:
        held, wins = int((roles == r).sum()), int((won == r).sum())
        t["role_games"][r], t["role_wins"][r] = held, wins
        t["role_wins_by_game"][r] = [wins, wins, held]  # a game holds a role at most once
        t["role_score_sum"][r] = int(scores[roles == r].sum())
        t["role_score_sq"][r] = int((scores[roles == r] ** 2).sum())
        t["role_score_hist"][r] = np.bincount(scores[roles == r], minlength=256)[:256]
    t["slot_games"][0], t["slot_wins"][0] = players * games, games
    t["slot_wins_by_game"][0] = [games, players * games, players * players * games]
    t["length_hist"][4] = games
    t["end_counts"][:] = [games, 0]
    t["seat_score_sum"][:] = scores.sum(axis=0)
    t["seat_score_sq"][:] = (scores ** 2).sum(axis=0)
    for seat in range(players):
        t["seat_score_hist"][seat] = np.bincount(scores[:, seat], minlength=256)[:256]
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
        "individual": render.write_run_report(synthetic_individual(), folder / "individual.html"),
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


SCREEN = """(() => {
  const texts = [];
  for (const t of document.querySelectorAll('figure svg text')) {
    const box = t.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;  // the layout this screen does not show
    const m = t.getScreenCTM();
    if (!m) continue;
    const px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
    texts.push({text: t.textContent.trim().slice(0, 40), px: px});
  }
  const shown = cls => [...document.querySelectorAll('figure .' + cls)]
    .filter(d => getComputedStyle(d).display !== 'none').length;
  const tables = [...document.querySelectorAll('table')].map(t => ({
    overflow: getComputedStyle(t.parentElement).overflowX,
    box: t.parentElement.getBoundingClientRect().right,
  }));
  return {texts: texts, wide: shown('chart-wide'), narrow: shown('chart-narrow'),
          figures: document.querySelectorAll('figure').length, tables: tables,
          overflow: document.documentElement.scrollWidth - window.innerWidth,
          width: window.innerWidth};
})()"""


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("kind", ["run", "individual", "line", "sweep", "compare"])
def test_every_report_fits_the_screen_with_legible_charts(browser, report_files, kind, width):
    browser.events.clear()
    browser.send("Page.enable")
    browser.send("Emulation.setDeviceMetricsOverride", width=width, height=900,
                 deviceScaleFactor=1, mobile=width < 600)
    try:
        browser.send("Page.navigate", url=report_files[kind].resolve().as_uri())
        browser.wait_for("Page.loadEventFired")
        screen = browser.evaluate(SCREEN)
    finally:
        browser.send("Emulation.clearDeviceMetricsOverride")
    assert screen["width"] == width
    assert screen["overflow"] <= 0, f"the page is {screen['overflow']}px wider than the window"
    # one layout of each chart is shown: the narrow one on a phone, the wide one on a desktop
    assert screen["figures"] > 0
    assert (screen["narrow"], screen["wide"]) == ((screen["figures"], 0) if width < 600 else
                                                  (0, screen["figures"]))
    assert len(screen["texts"]) > 10 * screen["figures"] // 2
    small = [t for t in screen["texts"] if t["px"] < 9]
    assert not small, f"chart text below 9 px at {width} px: {small[:5]}"
    # every table scrolls in its own box, which stays inside the window
    assert screen["tables"]
    for table in screen["tables"]:
        assert table["overflow"] == "auto"
        assert table["box"] <= width


# The CJK characters of a text node, the platform fonts Chromium drew them with, and their width.
CJK_TEXT = r"""(() => {
  const node = [...document.querySelectorAll('h1, .cjk')].find(e => /[\u4e00-\u9fff]/.test(e.textContent));
  if (!node) return null;
  const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    const m = t.textContent.match(/[\u4e00-\u9fff]+/);
    if (!m) continue;
    const range = document.createRange();
    range.setStart(t, m.index); range.setEnd(t, m.index + m[0].length);
    return {text: m[0], width: range.getBoundingClientRect().width,
            em: parseFloat(getComputedStyle(t.parentElement).fontSize),
            family: getComputedStyle(t.parentElement).fontFamily,
            id: node.id || (node.classList.contains('cjk') ? 'cjk' : 'h1')};
  }
  return null;
})()"""


@pytest.fixture(scope="module")
def roles_report(tmp_path_factory):
    from simulator.studies import roles as roles_module

    data = roles_module.run_roles("werewolf", games=400, seed=1, workers=1)
    return render.write_roles_report(data, tmp_path_factory.mktemp("roles") / "roles.html")


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("kind", ["run", "roles"])
def test_chinese_names_are_drawn_with_real_glyphs(browser, report_files, roles_report, kind,
                                                  width):
    """The pages name a CJK font stack, so with a CJK font installed (CI: Debian's
    fonts-noto-cjk) the Chinese game and role names are drawn in it, each character a full
    em wide, not as empty boxes from a Latin font; the roles report shows them beside the keys."""
    path = roles_report if kind == "roles" else report_files[kind]
    browser.events.clear()
    browser.send("Page.enable")
    browser.send("DOM.enable")
    browser.send("CSS.enable")
    browser.send("Emulation.setDeviceMetricsOverride", width=width, height=900,
                 deviceScaleFactor=1, mobile=width < 600)
    try:
        browser.send("Page.navigate", url=path.resolve().as_uri())
        browser.wait_for("Page.loadEventFired")
        found = browser.evaluate(CJK_TEXT)
        assert found, "the page shows a Chinese name"
        selector = ".cjk" if found["id"] == "cjk" else "h1"
        root = browser.send("DOM.getDocument")["root"]["nodeId"]
        node = browser.send("DOM.querySelector", nodeId=root, selector=selector)["nodeId"]
        fonts = browser.send("CSS.getPlatformFontsForNode", nodeId=node)["fonts"]
    finally:
        browser.send("Emulation.clearDeviceMetricsOverride")
    families = [f["familyName"] for f in fonts if f["glyphCount"]]
    if not any("CJK" in f or "Han" in f for f in families):
        unavailable(f"no CJK font drew the Chinese name ({families}; apt-get install -y "
                     f"fonts-noto-cjk)")
    assert "Noto Sans CJK" in found["family"]  # the page names the stack itself
    # a CJK glyph is a full em wide (an empty box of a Latin font is about half that)
    assert found["width"] >= 0.9 * len(found["text"]) * found["em"], found
