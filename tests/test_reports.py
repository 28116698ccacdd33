"""Tests of the run report (reports/): every number is the statistics module's, the page is valid
HTML, self-contained, and shows what a designer needs (verdict, setup, provisional rules, notes,
scores only where a game keeps them, reproducibility).

The expected numbers are computed here from the raw JSON of the result file with simulator.statistics.inference,
independently of reports.measures, and compared with both the page's embedded JSON block and the
text a reader sees in the tables.
"""

from __future__ import annotations

import dataclasses
import html
import json
import re
import tomllib
from html.parser import HTMLParser

import click
import html5lib
import numpy as np
import pytest
from scipy import stats as sps
from click.testing import CliRunner

from reports import render
from simulator.cli.reports import export, report, sweep
from simulator.setup import config
from simulator.run import runner
from simulator.statistics import inference
from simulator.statistics import verdict as verdicts
from simulator.studies import sweep as sw
from simulator.games.base import Item, Role, Tally
from simulator.games.werewolf import GAME as WEREWOLF
from simulator.run.results import Result


@click.group()
def cli():
    """The report commands on a group of their own (the real CLI adds them to `main`)."""


cli.add_command(report)
cli.add_command(sweep)
cli.add_command(export)

COMMAND = "fairplay run werewolf -n 3000 --seed 11 --chunk-size 1000"


# --- fixtures ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def result_file(tmp_path_factory):
    result = runner.run(config.load("werewolf/base-random.toml"), 3000, seed=11, workers=1, chunk_size=1000,
                        command=COMMAND)
    path = tmp_path_factory.mktemp("run") / "werewolf.json"
    result.save(path)
    return path


@pytest.fixture(scope="module")
def run_html(result_file, tmp_path_factory):
    out = tmp_path_factory.mktemp("html") / "report.html"
    outcome = CliRunner().invoke(cli, ["report", str(result_file), "-o", str(out)])
    assert outcome.exit_code == 0, outcome.output
    return out.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def raw(result_file):
    """The result file as plain JSON: the test's own source of truth."""
    return json.loads(result_file.read_text())


@pytest.fixture(scope="module")
def other_file(tmp_path_factory):
    result = runner.run(config.load("werewolf/base-random.toml", overrides=["roles.werewolf=3"]), 3000, seed=12,
                        workers=1, chunk_size=1000)
    path = tmp_path_factory.mktemp("run") / "three.json"
    result.save(path)
    return path


@pytest.fixture(scope="module")
def pages(run_html, result_file, other_file, tmp_path_factory):
    """One page of each kind: run, comparison, sweep."""
    folder = tmp_path_factory.mktemp("pages")
    outcome = CliRunner().invoke(cli, ["report", str(result_file), str(other_file),
                                       "-o", str(folder / "compare.html")])
    assert outcome.exit_code == 0, outcome.output
    outcome = CliRunner().invoke(cli, ["sweep", "werewolf/base-random.toml", "--vary", "players=8..9",
                                       "--vary", "roles.werewolf=1..2", "-n", "200",
                                       "--workers", "1", "-o", str(folder / "s.json"),
                                       "--report", str(folder / "sweep.html")])
    assert outcome.exit_code == 0, outcome.output
    return {"run": run_html,
            "compare": (folder / "compare.html").read_text(encoding="utf-8"),
            "sweep": (folder / "sweep.html").read_text(encoding="utf-8")}


# --- reading pages -----------------------------------------------------------------------------
def numbers_of(page: str) -> dict:
    match = re.search(r'<script type="application/json" id="fairplay-numbers">(.*?)</script>',
                      page, re.S)
    assert match, "the page embeds its numbers"
    return json.loads(match.group(1))


class Rows(HTMLParser):
    """Collects table rows that carry data-group/data-name, and their data-field cells' text."""

    def __init__(self):
        super().__init__()
        self.rows: dict[tuple[str, str], dict[str, str]] = {}
        self._row = None
        self._field = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "tr" and "data-group" in attrs and "data-name" in attrs:
            self._row = self.rows.setdefault((attrs["data-group"], attrs["data-name"]), {})
        elif tag == "td" and self._row is not None and "data-field" in attrs:
            self._field = attrs["data-field"]
            self._row[self._field] = ""

    def handle_endtag(self, tag):
        if tag == "td":
            self._field = None
        elif tag == "tr":
            self._row = None

    def handle_data(self, data):
        if self._row is not None and self._field is not None:
            self._row[self._field] += data


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


class Balance(HTMLParser):
    """Every opened element is closed, in order (void elements and self-closed SVG excepted)."""

    def __init__(self):
        super().__init__()
        self.stack: list[str] = []
        self.errors: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"line {self.getpos()[0]}: </{tag}> closes "
                               f"<{self.stack[-1] if self.stack else 'nothing'}>")
            if tag in self.stack:
                while self.stack.pop() != tag:
                    pass
        else:
            self.stack.pop()


def html_errors(page: str) -> list[str]:
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    errors = []
    try:
        parser.parse(page)
    except html5lib.html5parser.ParseError as exc:
        errors.append(f"html5lib: {exc}")
    balance = Balance()
    balance.feed(page)
    balance.close()
    errors += balance.errors
    if balance.stack:
        errors.append(f"unclosed: {balance.stack}")
    return errors


class References(HTMLParser):
    def __init__(self):
        super().__init__()
        self.external: list[str] = []

    def _check(self, tag, attrs):
        for name, value in attrs:
            if name in ("src", "href", "xlink:href", "srcset", "action", "data", "poster") and \
                    value and re.match(r"\s*(https?:)?//", value, re.I):
                self.external.append(f"<{tag} {name}={value}>")
        if tag == "link" or (tag == "script" and dict(attrs).get("src")):
            self.external.append(f"<{tag}> loads a resource")

    handle_starttag = _check
    handle_startendtag = _check


def external_references(page: str) -> list[str]:
    refs = References()
    refs.feed(page)
    css = " ".join(re.findall(r"<style[^>]*>(.*?)</style>", page, re.S))
    refs.external += re.findall(r"(?:url\(|@import)\s*['\"]?\s*(?:https?:)?//[^)'\"]*", css)
    return refs.external


# --- every number comes from the statistics module ---------------------------------------------
def expected_rows(raw: dict) -> dict[tuple[str, str], inference.Rate]:
    from simulator.statistics.rates import ratio_moments

    t = {k: np.asarray(v) for k, v in raw["tallies"].items()}
    games = t["games"][0]
    rows = {}
    for i, team in enumerate(WEREWOLF.teams):
        rows[("team", team)] = inference.wilson(t["team_wins"][i], games)
    for seat, wins in enumerate(t["seat_wins"]):
        rows[("seat", f"seat {seat}")] = inference.wilson(wins, games)
    # seat-games: the game is the unit
    for r, role in enumerate(WEREWOLF.roles):
        if t["role_games"][r]:
            rows[("role", role.name)] = inference.clustered_rate(
                ratio_moments(WEREWOLF, t, "role_wins", r))
    for s, label in enumerate(raw["strategies"]):
        rows[("strategy", label)] = inference.clustered_rate(
            ratio_moments(WEREWOLF, t, "slot_wins", s))
    for e, name in enumerate(WEREWOLF.end_names):
        if t["end_counts"][e]:  # an ending that never occurred is not shown
            rows[("end", name)] = inference.wilson(t["end_counts"][e], games)
    return rows


def test_embedded_numbers_are_the_statistics_modules(run_html, raw):
    numbers = numbers_of(run_html)
    t = raw["tallies"]
    games = t["games"][0]
    assert numbers["games"] == games == 3000
    expected = expected_rows(raw)
    shown = {(row["group"], row["name"]): row for group in numbers["rates"].values()
             for row in group}
    assert set(shown) == set(expected)
    for key, rate in expected.items():
        row = shown[key]
        assert (row["successes"], row["trials"]) == (rate.successes, rate.trials)
        assert row["rate"] == pytest.approx(rate.value, abs=1e-12)
        assert row["low"] == pytest.approx(rate.low, abs=1e-12)
        assert row["high"] == pytest.approx(rate.high, abs=1e-12)
        if rate.effective_trials is not None:  # seat-games: in games, the game as the unit
            halve = inference.games_to_halve_rate(rate, games)
        else:
            halve = inference.games_to_halve(rate.successes, rate.trials)
        assert row["games_to_halve"] == halve

    # balance: the first team's share of decided games against an even split
    decided = sum(t["team_wins"])
    rate = inference.wilson(t["team_wins"][0], decided)
    assert numbers["balance"]["rate"] == pytest.approx(rate.value)
    assert numbers["balance"]["low"] == pytest.approx(rate.low)
    assert numbers["balance"]["covers_target"] == (rate.low <= 0.5 <= rate.high)

    # the tests: werewolf names no first player and its seats are alike by construction, so
    # the verdict judges the teams alone (the team ahead of its target, Wilson, the game as the
    # unit)
    tests = {x["name"]: x for x in numbers["tests"]}
    assert set(tests) == {"camp balance"}
    ahead = 0 if t["team_wins"][0] >= t["team_wins"][1] else 1
    rate = inference.wilson(t["team_wins"][ahead], decided)
    se = (rate.value * (1 - rate.value) / decided) ** 0.5
    assert tests["camp balance"]["p"] == pytest.approx(
        2 * sps.norm.sf(abs(rate.value - 0.5) / se))
    assert tests["camp balance"]["p_holm"] == pytest.approx(tests["camp balance"]["p"])

    # game length
    hist = np.array(t["length_hist"], dtype=float)
    days = np.arange(len(hist))
    mean, low, high = inference.mean_interval((days * hist).sum(), (days ** 2 * hist).sum(),
                                          hist.sum())
    assert numbers["length"]["hist"] == t["length_hist"]
    assert numbers["length"]["mean"] == pytest.approx(mean)
    assert (numbers["length"]["low"], numbers["length"]["high"]) == pytest.approx((low, high))

    # events per game: those that occurred, in the game's order
    occurred = [(name, total) for name, total in zip(WEREWOLF.event_names, t["events"]) if total]
    assert [(e["name"], e["total"]) for e in numbers["events"]] == occurred
    for event in numbers["events"]:
        assert event["per_game"] == pytest.approx(event["total"] / games)

    # the verdict sentence is the verdict module's, from the same team findings
    tallies = {name: np.asarray(value) for name, value in t.items()}
    judged = verdicts.judge(verdicts.team_findings(WEREWOLF, tallies, 0.5, 0.02), 0.02, games,
                            "team")
    assert numbers["verdict"]["sentence"].startswith(judged.sentence)
    assert numbers["verdict"]["status"] == judged.status


def test_visible_tables_show_the_same_numbers(run_html, raw):
    parser = Rows()
    parser.feed(run_html)
    expected = expected_rows(raw)
    for key, rate in expected.items():
        cells = parser.rows[key]
        assert cells["rate"].strip() == f"{100 * rate.value:.1f}%", key
        assert cells["interval"].strip() == f"{100 * rate.low:.1f}–{100 * rate.high:.1f}%", key
        assert cells["half_width"].strip() == f"±{100 * rate.half_width:.1f}", key


def test_verdict_comes_first_in_plain_words(run_html, raw):
    body = run_html[run_html.index("<main>"):]
    first = re.search(r"<section id=\"(\w[\w-]*)\"", body).group(1)
    assert first == "verdict"
    verdict = body[:body.index("</section>")]
    wolves = raw["tallies"]["team_wins"][1] / raw["tallies"]["games"][0]
    assert wolves > 0.6  # random play: the wolves win most games of the base setup
    assert "Wolf favoured by" in verdict and "points" in verdict
    assert "95% interval" in verdict and "games would halve it" in verdict


def test_setup_and_reproducibility_blocks(run_html, raw):
    setup = run_html[run_html.index('<section id="setup">'):]
    setup = setup[:setup.index("</section>")]
    for words in ("The Werewolves in Village", "Players", "6 × villager", "2 × werewolf",
                  "1 × seer", "all = random", "Balance target"):
        assert words in setup, words
    assert "roles:</strong> 6 villager, 2 werewolf, 1 seer" in setup  # the setup notes
    repro = run_html[run_html.index('<section id="reproduce">'):]
    assert COMMAND in repro
    for key in ("seed</th><td>11", "1,000 games (3 chunks)", "numba", "scipy", "numpy"):
        assert key in repro, key
    config_text = re.search(r"<h3>Config \(resolved\)</h3>\s*<pre>(.*?)</pre>", repro,
                            re.S).group(1)
    import html as html_module

    assert tomllib.loads(html_module.unescape(config_text)) == raw["config"]


def test_werewolf_has_no_score_section(run_html):
    assert 'id="scores"' not in run_html
    assert 'id="provisional' not in run_html  # werewolf declares no provisional rules


# --- validity and self-containment -------------------------------------------------------------
@pytest.mark.parametrize("kind", ["run", "compare", "sweep"])
def test_pages_are_valid_html(pages, kind):
    assert html_errors(pages[kind]) == []


@pytest.mark.parametrize("kind", ["run", "compare", "sweep"])
def test_pages_are_self_contained(pages, kind):
    page = pages[kind]
    assert external_references(page) == []
    assert "<img" not in page and "<iframe" not in page
    assert page.count("<svg") >= 2  # charts are inline


def test_chart_ids_are_unique_across_a_page(pages):
    for page in pages.values():
        ids = re.findall(r'\bid="([^"]+)"', page)
        assert len(ids) == len(set(ids))
        for ref in set(re.findall(r'(?:href="#|url\(#)([^")]+)', page)):
            assert ref in ids, ref


def test_the_checks_catch_broken_pages():
    assert html_errors("<!DOCTYPE html><html><head><title>x</title></head><body><div><p>x"
                       "</div></body></html>")
    assert external_references('<img src="https://example.org/x.png">')
    assert external_references('<link rel="stylesheet" href="style.css">')
    assert external_references("<style>body{background:url(//cdn.example/x.png)}</style>")


# --- a game with scores, provisional rules and setup notes (the shape of Chenghuang) -----------
class FakeResult(Result):
    """A result of a game that is not registered (the report talks to the GameSpec only)."""

    def __init__(self, data, game):
        self.data = data
        self.game = game
        self.tallies = {k: np.asarray(v, dtype=np.int64) for k, v in data["tallies"].items()}


def individual_game():
    """Shaped like Chenghuang: individual scoring, score sums/squares/histograms per seat and per
    role, and per-role round counts (rounds held, rounds won, round-score sums)."""
    roles = (Role("judge", "", "names a kind", "武判"),
             Role("general", "", "lays out more", "柳將軍"))
    specs = (
        Tally("seat_score_sum", "seat", "sum", "sum of final totals per seat", per="games",
              square="seat_score_sq", section="scores"),
        Tally("seat_score_sq", "seat", "sum_sq", "their squares", section="scores"),
        Tally("seat_score_hist", "seat", "histogram", "final totals per seat", bins=40,
              total="seat_score_sum", section="scores"),
        Tally("role_score_sum", "role", "sum", "final totals by role", per="role_games",
              square="role_score_sq", section="scores"),
        Tally("role_score_sq", "role", "sum_sq", "their squares", section="scores"),
        Tally("role_rounds", "role", "count", "rounds a seat held the role"),
        Tally("role_round_wins", "role", "count", "rounds with the top score",
              per="role_rounds"),
        Tally("role_round_sum", "role", "sum", "round scores by role", per="role_rounds",
              square="role_round_sq"),
        Tally("role_round_sq", "role", "sum_sq", "their squares"),
    )
    return dataclasses.replace(
        WEREWOLF, name="overseers", title="Overseers (城隍神與夜冥將軍)", scoring="individual",
        teams=(), roles=roles, end_conditions=(Item("four_rounds", "four rounds played"),),
        events=(Item("thefts"), Item("admits")), length_unit="rounds", max_length=6,
        provisional=("the captain breaks the final tie", "theft ties go to the captain"),
        tallies=specs, filler_role="")


def individual_result(games=1000, players=4, seed=3):
    rng = np.random.default_rng(seed)
    scores = rng.integers(0, 40, size=(games, players))
    roles = rng.integers(0, 2, size=(games, players))
    winners = scores.argmax(axis=1)
    hist = np.zeros((players, 40), dtype=np.int64)
    for seat in range(players):
        hist[seat] = np.bincount(scores[:, seat], minlength=40)
    role_games = np.bincount(roles.ravel(), minlength=2)
    win_roles = roles[np.arange(games), winners]
    rounds = rng.integers(0, 12, size=(4 * games, players))  # round scores
    round_roles = rng.integers(0, 2, size=(4 * games, players))
    top = rounds == rounds.max(axis=1, keepdims=True)
    tallies = {
        "games": [games], "team_wins": [], "draws": [0],
        "seat_wins": np.bincount(winners, minlength=players).tolist(),
        "role_games": role_games.tolist(),
        "role_wins": np.bincount(win_roles, minlength=2).tolist(),
        "slot_games": [games * players] + [0] * 15, "slot_wins": [games] + [0] * 15,
        "length_hist": [0, 0, 0, 0, games, 0, 0], "end_counts": [games],
        "events": [int(rng.integers(0, games)), int(rng.integers(0, games))],
        "seat_score_sum": scores.sum(axis=0).tolist(),
        "seat_score_sq": (scores ** 2).sum(axis=0).tolist(),
        "seat_score_hist": hist.tolist(),
        "role_score_sum": [int(scores[roles == r].sum()) for r in range(2)],
        "role_score_sq": [int((scores[roles == r] ** 2).sum()) for r in range(2)],
        "role_rounds": [int((round_roles == r).sum()) for r in range(2)],
        "role_round_wins": [int(top[round_roles == r].sum()) for r in range(2)],
        "role_round_sum": [int(rounds[round_roles == r].sum()) for r in range(2)],
        "role_round_sq": [int((rounds[round_roles == r] ** 2).sum()) for r in range(2)],
        "decisions": [0] * 5, "forced": [0] * 5,
    }

    def moments(y, x):
        """Per-game sums of y², x·y, x² (rows: games; columns: entries of the axis)."""
        y, x = np.asarray(y, dtype=np.int64), np.asarray(x, dtype=np.int64)
        return np.stack([(y * y).sum(axis=0), (x * y).sum(axis=0), (x * x).sum(axis=0)],
                        axis=1).tolist()

    holds = np.stack([(roles == r).sum(axis=1) for r in range(2)], axis=1)  # games x roles
    won = np.stack([win_roles == r for r in range(2)], axis=1)
    role_scores = np.stack([(scores * (roles == r)).sum(axis=1) for r in range(2)], axis=1)
    by_game = np.arange(4 * games) // 4

    def per_game(values):  # round rows summed by game
        return np.stack([np.bincount(by_game, values[:, r], games) for r in range(2)], axis=1)

    held = np.stack([(round_roles == r).sum(axis=1) for r in range(2)], axis=1)
    top_held = np.stack([(top & (round_roles == r)).sum(axis=1) for r in range(2)], axis=1)
    round_sum = np.stack([(rounds * (round_roles == r)).sum(axis=1) for r in range(2)], axis=1)
    slot_y = np.zeros((games, 16), dtype=np.int64)
    slot_y[:, 0] = 1
    slot_x = np.zeros((games, 16), dtype=np.int64)
    slot_x[:, 0] = players
    tallies.update({
        "role_wins_by_game": moments(won, holds),
        "slot_wins_by_game": moments(slot_y, slot_x),
        "role_score_sum_by_game": moments(role_scores, holds),
        "role_round_wins_by_game": moments(per_game(top_held), per_game(held)),
        "role_round_sum_by_game": moments(per_game(round_sum), per_game(held)),
    })
    data = {"schema": "fairplay.result", "schema_version": 3, "game": "overseers",
            "config": {"game": "overseers", "players": players, "strategies": {"all": "random"}},
            "source": "overseers.toml", "base_dir": ".",
            "setup_notes": {"deck": "the 5-player column adds up to 30 cards, not the printed 32; "
                                    "the per-kind counts are used"},
            "strategies": ["random"], "slot_table": [[0, 0]] * players, "seed": seed,
            "games_requested": games, "chunk_size": games, "chunks_done": [0], "complete": True,
            "versions": {"fairplay": "test"}, "command": "fairplay run overseers.toml",
            "created": "", "elapsed_seconds": 0.0, "tallies": tallies}
    samples = {"scores": scores, "roles": roles, "rounds": rounds, "round_roles": round_roles,
               "top": top}
    game = individual_game()
    for name, empty in game.empty_tallies(players).items():  # any the engine keeps beside these
        tallies.setdefault(name, empty.tolist())
    return FakeResult(data, game), samples


def test_individual_game_with_scores_provisional_rules_and_notes(tmp_path):
    result, x = individual_result()
    path = render.write_run_report(result, tmp_path / "r.html")
    page = path.read_text(encoding="utf-8")
    assert html_errors(page) == [] and external_references(page) == []
    numbers = numbers_of(page)

    # provisional rules are flagged under the verdict and listed in the setup; notes shown
    assert page.index('id="verdict"') < page.index('id="provisional-flag"') < \
        page.index('id="setup"') < page.index('id="provisional"')
    assert "uses 2 rules that the source text does not settle" in re.sub(r"\s+", " ", page)
    provisional = page[page.index('id="provisional"'):]
    assert "the captain breaks the final tie" in provisional[:provisional.index("</div>")]
    assert "adds up to 30 cards, not the printed 32" in page
    assert "Provisional rules</th><td><strong>2</strong>" in page

    # no team section; the seat row of the tests is the seat finding with the smallest p (each
    # seat against an even share, the game as the unit)
    assert 'id="teams"' not in page
    tallies = {name: np.asarray(value) for name, value in result.data["tallies"].items()}
    findings = verdicts.individual_findings(result.game, tallies, result.data["strategies"],
                                            result.data["slot_table"], 0.02,
                                            include_seats=not result.game.symmetric_seats)
    names = [t["name"] for t in numbers["tests"]]
    if result.game.symmetric_seats:  # seats alike by the rules: not judged, not tested
        assert not [f for f in findings if f.group == "seat"] and "seat fairness" not in names
    else:
        seat_p = min(f.pvalue for f in findings if f.group == "seat")
        test = next(t for t in numbers["tests"] if t["name"] == "seat fairness")
        assert test["p"] == pytest.approx(seat_p)

    # scores: the distribution by seat, with means from the sums and squares
    assert 'id="scores"' in page
    sections = {s["tally"]: s for s in numbers["scores"]}
    assert set(sections) == {"seat_score_hist", "role_score_sum"}
    dist = sections["seat_score_hist"]
    assert dist["kind"] == "distribution" and dist["by"] == "seat"
    assert dist["means_from"] == "seat_score_sum, seat_score_sq"
    assert [s["counts"] for s in dist["series"]] == result.data["tallies"]["seat_score_hist"]
    for seat, row in enumerate(dist["means"]):
        values = x["scores"][:, seat].astype(float)
        mean, low, high = inference.mean_interval(values.sum(), (values ** 2).sum(), len(values))
        assert row["n"] == 1000
        assert (row["mean"], row["low"], row["high"]) == pytest.approx((mean, low, high))
        assert row["sd"] == pytest.approx(values.std(ddof=1))
    by_role = sections["role_score_sum"]
    assert by_role["kind"] == "means" and by_role["by"] == "role"
    for r, row in enumerate(by_role["means"]):
        values = x["scores"][x["roles"] == r].astype(float)
        assert row["n"] == len(values)  # the role's seat-games
        assert row["mean"] == pytest.approx(values.mean())
    charts = re.findall(r'data-chart="(\w+)"', page[page.index('id="scores"'):
                                                     page.index('id="game-measures"')])
    assert charts == ["distribution", "means", "means"]

    # the game's own other tallies: round wins as rates, round scores as means over rounds
    other = {s["tally"]: s for s in numbers["other_measures"]}
    assert set(other) == {"role_round_wins", "role_round_sum"}
    for r, row in enumerate(other["role_round_wins"]["rates"]):
        rate = inference.wilson(int(x["top"][x["round_roles"] == r].sum()),
                            int((x["round_roles"] == r).sum()))
        assert (row["rate"], row["low"], row["high"]) == pytest.approx(
            (rate.value, rate.low, rate.high))
    for r, row in enumerate(other["role_round_sum"]["means"]):
        values = x["rounds"][x["round_roles"] == r].astype(float)
        assert row["n"] == len(values)  # over the role's rounds, not its games
        assert row["mean"] == pytest.approx(values.mean())


# --- the command -------------------------------------------------------------------------------
def test_write_run_report_api(result_file, tmp_path):
    out = render.write_run_report(Result.load(result_file), tmp_path / "sub" / "r.html")
    assert out.exists() and out.read_text().startswith("<!DOCTYPE html>")


def test_report_default_output_is_next_to_the_result(result_file, tmp_path):
    copy = tmp_path / "mine.json"
    copy.write_text(result_file.read_text())
    outcome = CliRunner().invoke(cli, ["report", str(copy)])
    assert outcome.exit_code == 0, outcome.output
    assert (tmp_path / "mine.html").exists()


@pytest.mark.parametrize("content, words", [
    (None, "no such file"),
    ("{not json", "corrupt JSON"),
    ('{"schema": "something else"}', "not a fairplay result file"),
])
def test_report_errors_are_one_line_exit_2(tmp_path, content, words):
    path = tmp_path / "x.json"
    if content is not None:
        path.write_text(content)
    outcome = CliRunner().invoke(cli, ["report", str(path)])
    assert outcome.exit_code == 2
    assert words in outcome.output
    assert "Traceback" not in outcome.output
    assert len(outcome.output.strip().splitlines()) == 1


def test_report_refuses_three_files_and_a_sweep_in_a_comparison(tmp_path, result_file):
    outcome = CliRunner().invoke(cli, ["report", str(result_file)] * 3)
    assert outcome.exit_code == 2
    sweep_file = tmp_path / "s.json"
    sweep_file.write_text(json.dumps({"schema": "fairplay.sweep"}))
    outcome = CliRunner().invoke(cli, ["report", str(result_file), str(sweep_file)])
    assert outcome.exit_code == 2 and "not sweep files" in outcome.output


def test_sweep_json_schema_is_readable_by_report(pages):
    numbers = numbers_of(pages["sweep"])
    assert numbers["kind"] == "sweep" and len(numbers["cells"]) == 4
    assert 'data-chart="heatmap"' in pages["sweep"]
    assert sw.SWEEP_FILE.schema == "fairplay.sweep"


# --- comparisons -------------------------------------------------------------------------------
def test_comparison_numbers_are_two_sample_tests_with_holm(pages, result_file, other_file):
    numbers = numbers_of(pages["compare"])
    a = json.loads(result_file.read_text())["tallies"]
    b = json.loads(other_file.read_text())["tallies"]
    games_a, games_b = a["games"][0], b["games"][0]
    expected = {}
    for i, team in enumerate(WEREWOLF.teams):
        expected[("team", team)] = (a["team_wins"][i], games_a, b["team_wins"][i], games_b)
    for seat in range(len(a["seat_wins"])):
        expected[("seat", f"seat {seat}")] = (a["seat_wins"][seat], games_a,
                                              b["seat_wins"][seat], games_b)
    for r, role in enumerate(WEREWOLF.roles):
        if a["role_games"][r] or b["role_games"][r]:  # a role dealt in neither is no row
            expected[("role", role.name)] = (a["role_wins"][r], a["role_games"][r],
                                             b["role_wins"][r], b["role_games"][r])
    expected[("strategy", "random")] = (a["slot_wins"][0], a["slot_games"][0],
                                        b["slot_wins"][0], b["slot_games"][0])
    for e, name in enumerate(WEREWOLF.end_names):
        if a["end_counts"][e] or b["end_counts"][e]:  # an ending in neither run is no row
            expected[("end", name)] = (a["end_counts"][e], games_a, b["end_counts"][e], games_b)
    shown = {(d["group"], d["name"]): d for d in numbers["differences"]}
    assert list(shown) == list(expected)  # the same rows, in the report's order
    from simulator.statistics.rates import ratio_moments

    ta, tb = ({k: np.asarray(v) for k, v in t.items()} for t in (a, b))
    pvalues = []
    for key, counts in expected.items():
        if key[0] in ("role", "strategy"):  # seat-games: each run's game-level variance
            name, i = ("role_wins", WEREWOLF.role_index(key[1])) if key[0] == "role" else \
                ("slot_wins", 0)
            diff, low, high, p = inference.two_clustered(ratio_moments(WEREWOLF, ta, name, i),
                                                     ratio_moments(WEREWOLF, tb, name, i))
        else:
            diff, low, high, p = inference.two_proportions(*counts)
        row = shown[key]
        assert (row["diff"], row["low"], row["high"], row["p"]) == \
            pytest.approx((diff, low, high, p)), key
        pvalues.append(p)
    # the mean game length (Welch) is the family's last member
    sums = []
    for t in (a, b):
        hist = np.array(t["length_hist"], dtype=float)
        days = np.arange(len(hist))
        sums += [(days * hist).sum(), (days ** 2 * hist).sum(), hist.sum()]
    ldiff, llow, lhigh, lp = inference.two_means(*sums)
    assert numbers["length"]["diff"] == pytest.approx(ldiff)
    assert (numbers["length"]["low"], numbers["length"]["high"]) == pytest.approx((llow, lhigh))
    adjusted = inference.holm(pvalues + [lp])
    assert [shown[k]["p_holm"] for k in expected] == pytest.approx(list(adjusted[:-1]))
    assert numbers["length"]["adjusted"] == pytest.approx(adjusted[-1])
    for key, row in shown.items():
        assert row["significant"] == (row["p_holm"] < 0.05)

    # visible table cells
    parser = Rows()
    parser.feed(pages["compare"])
    for key, row in shown.items():
        cells = parser.rows[key]
        assert cells["diff"].strip() == f"{100 * row['diff']:+.1f}"
        assert cells["interval"].strip() == f"{100 * row['low']:+.1f} to {100 * row['high']:+.1f}"


def test_comparison_says_what_changed_in_words(pages):
    numbers = numbers_of(pages["compare"])
    human = next(d for d in numbers["differences"] if d["name"] == "human")
    assert human["diff"] < 0  # a third werewolf costs the humans
    lead = numbers["lead"]
    assert lead.startswith("Adding 1 werewolf (roles.werewolf auto → 3, 2 → 3 dealt) moves the "
                           "human win rate by ")
    assert f"{100 * human['diff']:+.1f} points (95% CI " in lead
    assert "significant after Holm correction" in lead
    assert lead in pages["compare"]
    assert numbers["changes"] == [{"key": "roles.werewolf", "a": "auto", "b": "3"}]
    values = {v["role"]: v for v in numbers["role_values"]}
    assert set(values) == {"villager", "werewolf"}
    assert values["werewolf"]["diff"] > 0 and values["villager"]["diff"] < 0


def test_comparison_labels_and_mismatched_games(result_file, other_file, tmp_path):
    out = tmp_path / "c.html"
    outcome = CliRunner().invoke(cli, ["report", str(result_file), str(other_file), "-o",
                                       str(out), "--labels", "two wolves,three wolves"])
    assert outcome.exit_code == 0, outcome.output
    page = out.read_text()
    assert "<th>two wolves</th><th>three wolves</th>" in page
    outcome = CliRunner().invoke(cli, ["report", str(result_file), str(other_file),
                                       "--labels", "same,same"])
    assert outcome.exit_code == 2
    from simulator.studies.compare import CompareError, compare

    individual, _ = individual_result()
    with pytest.raises(CompareError, match="cannot compare"):
        compare(Result.load(result_file), individual)


def test_partial_and_empty_results_still_give_a_valid_report(tmp_path):
    empty = runner.start(config.load("werewolf/base-random.toml", overrides=['description="<b>x & y</b>"']), 1000,
                         seed=1)
    page = render.write_run_report(empty, tmp_path / "e.html").read_text()
    assert html_errors(page) == [] and external_references(page) == []
    assert "Partial result" in page and "No games played" in page
    assert "&lt;b&gt;x &amp; y&lt;/b&gt;" in page  # config text is escaped, never markup
    drawn = runner.start(config.load("werewolf/base-random.toml"), 10, seed=1)
    for name, value in (("games", 10), ("draws", 10)):
        drawn.tallies[name][0] = value
    drawn.tallies["length_hist"][3] = 10
    page = render.write_run_report(drawn, tmp_path / "d.html").read_text()
    assert html_errors(page) == []
    assert "No game has been won yet" in page


# --- what a designer acts on, and honest captions ------------------------------------------------
def section_of(page: str, ident: str) -> str:
    start = page.index(f'<section id="{ident}"')
    return page[start:page.index("</section>", start)]


def test_tests_table_names_each_statistical_test(run_html):
    tests = section_of(run_html, "tests")
    methods = re.findall(r'<td data-field="method">(.*?)</td>', tests)
    assert methods == ["each dealt team against its target share of decided games (Wilson); "
                       "Holm across every finding"]
    numbers = numbers_of(run_html)
    assert [t["method"] for t in numbers["tests"]] == methods


def test_games_to_halve_is_rounded_for_people(run_html):
    from reports.guidance import round_games

    assert [round_games(n) for n in (57, 995, 12_002, 123_456, 199_999, 2_345_678)] == [
        "≈ 57", "≈ 1,000", "≈ 12,000", "≈ 120,000", "≈ 200,000", "≈ 2,300,000"]
    parser = Rows()
    parser.feed(run_html)
    numbers = numbers_of(run_html)
    for group in numbers["rates"].values():
        for row in group:  # the page rounds; the embedded numbers stay exact
            shown = parser.rows[(row["group"], row["name"])]["games_to_halve"].strip()
            assert shown == round_games(row["games_to_halve"]), row
    sample = section_of(run_html, "sample-size")
    assert f"<strong>{round_games(numbers['games_for_one_point'])}</strong> games" in sample
    assert not re.search(r'data-field="games_to_halve"[^>]*>\d', run_html)


def test_timing_row_says_it_is_wall_time_with_any_compiling(run_html):
    repro = section_of(run_html, "reproduce")
    assert "wall time</th>" in repro
    assert "including any compiling of the kernel on a first run" in repro


def test_every_report_names_the_scripted_players(pages):
    for kind, page in pages.items():
        verdict = section_of(page, "verdict")
        line = "random at every seat" + (" in both setups" if kind == "compare" else "")
        assert f"These numbers describe scripted players: <strong>{line}</strong>" in verdict, \
            kind
    assert numbers_of(pages["compare"])["strategies_line"] == \
        "random at every seat in both setups"


@pytest.mark.parametrize("overrides, line", [
    ([], "random at every seat"),
    (["strategies.all=seer-led", "strategies.seat.4=random"],
     "seer-led (seats 0-3, 5-8), random (seat 4)"),
    (["strategies.human=seer-led"], "by role: seer-led (the human team), random (the wolf team)"),
    (["strategies.seer=seer-led"], "by role: random (villager, werewolf), seer-led (seer)"),
    (["strategies.human=seer-led", "strategies.seat.0=random"],
     "by role: seer-led (the human team), random (the wolf team); seat 0: random"),
])
def test_strategy_line_in_words(overrides, line):
    from simulator.statistics.summary import players_line

    # a few games played: the line names the roles dealt (werewolf declares more than the base
    # game deals)
    played = runner.run(config.load("werewolf/base-random.toml", overrides=overrides), 20, 0, workers=1)
    assert players_line(played) == line


def test_role_counts_read_as_people_write_them():
    from reports.guidance import count_text, per_game_text

    assert count_text(2.0, "werewolf") == "2 × werewolf"
    assert count_text(0.80032, "judge") == "about 0.8 × judge"
    assert count_text(0.80032, "judge", single=True) == "judge in about 80% of games"
    assert count_text(1.66667, "villager") == "about 1.7 × villager"
    assert (per_game_text(3.0), per_game_text(0.80032)) == ("3", "about 0.8")


def test_a_role_held_in_some_games_only_reads_as_a_share_of_games(tmp_path):
    result = runner.start(config.load("werewolf/base-random.toml"), 1000, seed=1)
    t = result.tallies
    t["games"][0] = 10_000
    # the seer is held by one seat in 8,003 games of 10,000 and never by two (x_g in {0, 1});
    # the villagers, 6.4 a game on average
    t["role_games"][:3] = [64_000, 20_000, 8_003]
    t["role_wins_by_game"][2][2] = 8_003
    t["role_wins_by_game"][0][2] = 6 * 6 * 10_000
    page = render.write_run_report(result, tmp_path / "r.html").read_text()
    setup = section_of(page, "setup")
    assert "seer in about 80% of games" in setup
    assert "about 6.4 × villager" in setup and "2 × werewolf" in setup
    assert "0.8003" not in re.sub(r"<[^>]+>", "", setup)  # the exact figure only in a tooltip


def test_run_report_names_the_balance_knobs_and_their_sweeps(run_html):
    knobs = section_of(run_html, "knobs")
    numbers = numbers_of(run_html)
    assert [(k["key"], k["current"]) for k in numbers["knobs"]] == [
        ("roles.werewolf", "auto (2 dealt)"), ("roles.seer", "1")]
    commands = [html_unescape(c) for c in re.findall(r'<pre class="command">(.*?)</pre>', knobs)]
    assert commands == [
        "fairplay sweep werewolf --vary roles.werewolf=1..4 -n 3000 --seed 11 --chunk-size 1000",
        "fairplay sweep werewolf --vary roles.seer=0..1 -n 3000 --seed 11 --chunk-size 1000"]
    assert knobs.index("roles.werewolf</code>, now <strong>auto (2 dealt)</strong>") > 0


def html_unescape(text: str) -> str:
    import html as html_module

    return html_module.unescape(text)


def test_a_knobs_sweep_replays_the_run_at_its_current_value(tmp_path):
    """The knob's command keeps the run's config, overrides, games and seed: its cell at the
    current value has the run's tallies, bit for bit."""
    import shlex

    from reports.guidance import balance_knobs

    command = "fairplay run werewolf --players 10 -n 400 --seed 5 --chunk-size 200 " \
              "--set strategies.all=seer-led"
    result = runner.run(config.load("werewolf/base-random.toml", ["strategies.all=seer-led"], players=10), 400,
                        seed=5, workers=1, chunk_size=200, command=command)
    knob = next(k for k in balance_knobs(result) if k["key"] == "roles.werewolf")
    assert knob["command"] == ("fairplay sweep werewolf --set players=10 --set "
                               "strategies.all=seer-led --vary roles.werewolf=1..4 -n 400 "
                               "--seed 5 --chunk-size 200")
    args = shlex.split(knob["command"])[1:] + ["--workers", "1", "-o", str(tmp_path / "k.json")]
    outcome = CliRunner().invoke(cli, args)
    assert outcome.exit_code == 0, outcome.output
    cell = next(c for c in sw.Sweep.load(tmp_path / "k.json").cells if c.levels == (2,))
    for name, values in result.tallies.items():
        np.testing.assert_array_equal(cell.result.tallies[name], values, err_msg=name)


# --- data out ------------------------------------------------------------------------------------
def csv_links(page: str) -> dict[str, str]:
    """The CSV download links of a page: {file name: the CSV text of its data URI}."""
    from urllib.parse import unquote

    links = {}
    for name, href in re.findall(r'<a class="csv" download="([^"]+)" href="([^"]+)"', page):
        prefix = "data:text/csv;charset=utf-8,"
        assert href.startswith(prefix)
        links[name] = unquote(href[len(prefix):])
    return links


def read_csv(text: str) -> list[dict]:
    import csv
    import io

    return list(csv.DictReader(io.StringIO(text)))


def test_every_table_has_a_csv_download_equal_to_the_export(run_html, result_file, tmp_path):
    links = csv_links(run_html)
    for group in ("team", "seat", "role", "strategy", "end"):
        assert f"rates_{group}.csv" in links
    assert {"tests.csv", "events.csv", "lengths.csv", "sample_size.csv"} <= set(links)
    outcome = CliRunner().invoke(cli, ["export", str(result_file), "--csv", str(tmp_path / "t")])
    assert outcome.exit_code == 0, outcome.output
    files = {p.name: p.read_bytes().decode("utf-8") for p in (tmp_path / "t").glob("*.csv")}
    for name, text in links.items():
        assert files[name] == text, name
    assert "balance.csv" in files and "knobs.csv" in files
    # the numbers are the page's (exact, not rounded)
    numbers = numbers_of(run_html)
    for row, expected in zip(read_csv(files["rates_team.csv"]), numbers["rates"]["team"]):
        assert row["name"] == expected["name"]
        assert (int(row["successes"]), int(row["trials"])) == (expected["successes"],
                                                               expected["trials"])
        assert float(row["rate"]) == expected["rate"] and float(row["low"]) == expected["low"]
        assert int(row["games_to_halve"]) == expected["games_to_halve"]
    lengths = read_csv(files["lengths.csv"])
    assert [int(r["games"]) for r in lengths] == \
        numbers["length"]["hist"][:len(lengths)] and sum(int(r["games"]) for r in lengths) == 3000
    tests = read_csv(files["tests.csv"])
    assert [r["method"] for r in tests] == [t["method"] for t in numbers["tests"]]


def test_comparison_and_sweep_tables_link_their_csv(pages):
    links = csv_links(pages["compare"])
    numbers = numbers_of(pages["compare"])
    rows = read_csv(links["differences_team.csv"])
    team = [d for d in numbers["differences"] if d["group"] == "team"]
    assert [r["name"] for r in rows] == [d["name"] for d in team]
    assert [float(r["difference"]) for r in rows] == [d["diff"] for d in team]
    cells = read_csv(csv_links(pages["sweep"])["cells.csv"])
    assert [int(r["cell"]) for r in cells] == [0, 1, 2, 3]


def test_export_of_a_sweep_has_one_row_per_cell(tmp_path):
    out = tmp_path / "s.json"
    outcome = CliRunner().invoke(cli, ["sweep", "werewolf/base-random.toml", "--vary", "players=8..9",
                                       "--vary", "roles.werewolf=3..4", "-n", "200",
                                       "--workers", "1", "-o", str(out)])
    assert outcome.exit_code == 0, outcome.output
    outcome = CliRunner().invoke(cli, ["export", str(out), "--csv", str(tmp_path / "csv")])
    assert outcome.exit_code == 0, outcome.output
    assert "tables written to" in outcome.output
    rows = read_csv((tmp_path / "csv" / "cells.csv").read_text())
    assert [(r["players"], r["roles.werewolf"], r["status"]) for r in rows] == [
        ("8", "3", "ok"), ("8", "4", "invalid"), ("9", "3", "ok"), ("9", "4", "ok")]
    done = sw.Sweep.load(out)
    for row, cell in zip(rows, done.cells):
        if cell.status != "ok":
            assert "roles.werewolf" in row["error"] and row["balance"] == ""
            continue
        t = cell.result.tallies
        rate = inference.wilson(int(t["team_wins"][0]), int(t["team_wins"].sum()))
        assert float(row["balance"]) == pytest.approx(rate.value, abs=1e-15)
        assert float(row["balance_low"]) == pytest.approx(rate.low, abs=1e-15)
        assert float(row["werewolf_per_game"]) == cell.levels[1]
        assert row["dealt"].endswith(f"{cell.levels[1]} × werewolf, 1 × seer")
    assert (tmp_path / "csv" / "role_values.csv").exists()


@pytest.mark.parametrize("case", ["missing", "corrupt", "folder is a file", "unwritable"])
def test_export_errors_are_one_line_exit_2(tmp_path, result_file, case):
    target, folder = result_file, tmp_path / "out"
    if case == "missing":
        target = tmp_path / "nope.json"
    elif case == "corrupt":
        target = tmp_path / "bad.json"
        target.write_text("{not json")
    elif case == "folder is a file":
        folder.write_text("x")
    else:  # inside a file: no folder can be made there (root ignores permission bits)
        (tmp_path / "file").write_text("x")
        folder = tmp_path / "file" / "sub"
    outcome = CliRunner().invoke(cli, ["export", str(target), "--csv", str(folder)])
    assert outcome.exit_code == 2, outcome.output
    assert "Traceback" not in outcome.output
    assert len(outcome.output.strip().splitlines()) == 1
    words = {"missing": "no such file", "corrupt": "corrupt JSON",
             "folder is a file": "cannot write", "unwritable": "cannot write"}[case]
    assert words in outcome.output


def test_a_sweep_cell_renders_as_its_own_report(tmp_path):
    out = tmp_path / "s.json"
    outcome = CliRunner().invoke(cli, ["sweep", "werewolf/base-random.toml", "--vary", "players=8..9",
                                       "--vary", "roles.werewolf=3..4", "-n", "300",
                                       "--workers", "1", "-o", str(out),
                                       "--report", str(tmp_path / "s.html")])
    assert outcome.exit_code == 0, outcome.output
    assert re.search(r'<td class="num">2</td>\s*<td></td>\s*<td>9</td>\s*<td>3</td>',
                     (tmp_path / "s.html").read_text())  # the table shows the cell's number
    outcome = CliRunner().invoke(cli, ["report", str(out), "--cell", "2"])
    assert outcome.exit_code == 0, outcome.output
    page = (tmp_path / "s-cell2.html").read_text()
    assert html_errors(page) == []
    assert "Cell 2 of the sweep s.json: players=9, roles.werewolf=3" in page
    cell = sw.Sweep.load(out).cells[2]
    alone = numbers_of(render.render_run_report(cell.result))
    numbers = numbers_of(page)
    assert numbers["rates"] == alone["rates"] and numbers["games"] == 300
    assert numbers["setup"]["players"] == 9
    for args, words in ((["--cell", "1"], "has no result (invalid:"),
                        (["--cell", "7"], "no cell 7; the cells are 0..3")):
        outcome = CliRunner().invoke(cli, ["report", str(out)] + args)
        assert outcome.exit_code == 2 and words in outcome.output, outcome.output
        assert len(outcome.output.strip().splitlines()) == 1


def test_cell_needs_a_sweep_file(result_file):
    outcome = CliRunner().invoke(cli, ["report", str(result_file), "--cell", "0"])
    assert outcome.exit_code == 2 and "--cell K takes one sweep file" in outcome.output


# --- every screen --------------------------------------------------------------------------------
class Tables(HTMLParser):
    """Each <table>'s parent element and its class."""

    def __init__(self):
        super().__init__()
        self.stack: list[tuple[str, str]] = []
        self.parents: list[tuple[str, str]] = []

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.parents.append(self.stack[-1] if self.stack else ("", ""))
        if tag not in VOID:
            self.stack.append((tag, dict(attrs).get("class") or ""))

    def handle_endtag(self, tag):
        if tag not in VOID and self.stack:
            self.stack.pop()


@pytest.mark.parametrize("kind", ["run", "compare", "sweep"])
def test_every_table_scrolls_in_its_own_box(pages, kind):
    parser = Tables()
    parser.feed(pages[kind])
    assert parser.parents
    assert all(parent == ("div", "scroll") for parent in parser.parents), parser.parents


@pytest.mark.parametrize("kind", ["run", "compare", "sweep"])
def test_every_chart_comes_wide_and_narrow(pages, kind):
    figures = re.findall(r'<figure data-chart="(\w+)">(.*?)</figure>', pages[kind], re.S)
    assert figures
    for chart, body in figures:
        wide = re.search(r'<div class="chart-wide"><svg (.*?)>', body).group(1)
        narrow = re.search(r'<div class="chart-narrow"><svg (.*?)>', body).group(1)
        assert "style=" not in wide
        width = int(re.search(r"min-width:(\d+)px", narrow).group(1))
        if chart != "heatmap":  # a heat map may be wider than a phone (it scrolls in its box)
            assert width <= 360, (chart, width)


def test_a_table_knob_is_named_not_printed():
    """A knob whose value is a whole table (Salem's tryals per player count) is named by its
    size, without a sweep command that would have to vary the whole table."""
    from reports import guidance

    result = runner.run(config.load("salem"), 20, seed=0, workers=1)
    knob = next(k for k in guidance.balance_knobs(result) if k["key"] == "tryals")
    assert knob["table"] and knob["command"] is None
    assert knob["current"] == "a table of 9 entries (see the config)"


def test_many_roles_dealt_in_some_games_only_are_counted_not_listed():
    from reports import guidance

    roles = [{"text": f"r{i} in about 10% of games", "per_game": 0.1} for i in range(8)]
    roles.append({"text": "2 × witch", "per_game": 2.0})
    assert guidance.dealt_text(roles) == "2 × witch, 8 roles dealt in some games only"
    assert guidance.dealt_text(roles[:2]) == "r0 in about 10% of games, r1 in about 10% of games"


def test_a_comparison_answers_whether_b_is_fairer_first(pages, result_file, other_file):
    """Its headline is each verdict measure's distance from its target in both runs, the change
    of that distance with its interval; the rest follows, each fact once."""
    page, numbers = pages["compare"], numbers_of(pages["compare"])
    assert page.index('id="fairness"') < page.index("What else changes")
    fair = numbers["fairness"]
    assert fair and numbers["fairer"].startswith(("B is fairer than A", "B is less fair than A",
                                                  "B is not measurably"))
    first = fair[0]
    assert first["change"] == pytest.approx(first["distance_b"] - first["distance_a"])
    assert first["low"] < first["change"] < first["high"]
    team = [f for f in fair if f["group"] == "team"]
    assert len(team) == 1  # of two teams one is said: the other mirrors it



# --- a run the sequential test stopped (--until-decided) ----------------------------------------
STOPS = {  # small designs (40 looks of 1,000 games) that stop early, in a few seconds
    "unbalanced": ("werewolf", []),  # people-like players: the wolves win ~58%, look 5
    "balanced": ("werewolf/seer-led.toml", ["players=10", "roles.werewolf=2"]),  # ~50%, look 14
}


@pytest.fixture(scope="module", params=sorted(STOPS))
def stopped(request, tmp_path_factory):
    """A run stopped early by `--until-decided`, its report, its CLI summary and its CSV tables."""
    from simulator import api
    from simulator.run.stopping import Rule

    source, overrides = STOPS[request.param]
    result = api.run(config.load(source, overrides), 40_000, seed=3, workers=1,
                     chunk_size=1_000, stopping=Rule("decided", 40_000, None))
    folder = tmp_path_factory.mktemp(f"stopped-{request.param}")
    path = folder / "run.json"
    result.save(path)
    outcome = CliRunner().invoke(cli, ["report", str(path), "-o", str(folder / "report.html")])
    assert outcome.exit_code == 0, outcome.output
    outcome = CliRunner().invoke(cli, ["export", str(path), "--csv", str(folder / "csv")])
    assert outcome.exit_code == 0, outcome.output
    loaded = Result.load(path)
    return {"reason": request.param, "result": loaded,
            "page": (folder / "report.html").read_text(encoding="utf-8"),
            "csv": {p.name: p.read_bytes().decode("utf-8") for p in (folder / "csv").glob("*.csv")}}


def visible_text(page: str) -> str:
    body = re.sub(r"<(script|style|svg)\b.*?</\1>", " ", page, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", body)))


def test_a_stopped_runs_report_prints_the_intervals_of_its_cli_summary(stopped):
    from simulator.statistics import adaptive
    from simulator.statistics.summary import summarize

    result, page = stopped["result"], stopped["page"]
    stop = adaptive.sequential_stop(result.data)
    assert stop is not None and stop.reason == stopped["reason"] and stop.look < stop.looks_planned
    summary = summarize(result)  # what `fairplay run` prints
    table = summary.table()
    numbers = numbers_of(page)
    parser = Rows()
    parser.feed(page)
    for group in ("team", "seat", "role", "strategy", "end"):
        rows = summary.shown_rows(group)
        shown = {row["name"]: row for row in numbers["rates"][group]}
        assert set(shown) == {row.name for row in rows}
        for row in rows:
            entry = shown[row.name]
            assert (entry["low"], entry["high"]) == (row.rate.low, row.rate.high), row
            assert entry["interval"] == row.rate.label
            # the page's cell is the CLI's text: "human  42.3% (95% CI at the stop 40.9–43.9%)"
            cli = re.search(rf"^  {re.escape(row.name)} +\d+\.\d% \({re.escape(row.rate.label)} "
                            rf"(\d+\.\d–\d+\.\d%)\)", table, re.M)
            assert cli, row.name
            assert parser.rows[(group, row.name)]["interval"].strip() == cli.group(1)
    # the deciding finding (werewolf's teams) at the stop, every other rate repeated
    assert {row["interval"] for row in numbers["rates"]["team"]} == {adaptive.AT_STOP}
    assert {row["interval"] for row in numbers["rates"]["seat"]} == {adaptive.REPEATED}
    text = visible_text(page)
    assert f"{adaptive.AT_STOP} " in text and f"{adaptive.REPEATED} " in text
    assert summary.repeated and summary.repeated in text  # the words on what each interval is
    # the balance measure is the first team's row (every game has a winner)
    human = next(row for row in numbers["rates"]["team"] if row["name"] == "human")
    balance = numbers["balance"]
    assert (balance["low"], balance["high"], balance["interval"]) == \
        (human["low"], human["high"], adaptive.AT_STOP)
    # the game's own measures stay plain, and say so
    assert all(section["interval"] == "95% CI, not adjusted for the early stop"
               for section in numbers["other_measures"])
    mean, low, high = summary.mean_length
    assert (numbers["length"]["low"], numbers["length"]["high"]) == (low, high)
    assert numbers["length"]["interval"] == adaptive.REPEATED
    # no level or critical value stands in for an interval
    assert "100.00%" not in page and not re.search(r"z = 8\.0", page)
    assert "100.00%" not in table and not re.search(r"z = 8\.0", table)


def test_a_stopped_runs_verdict_is_the_cli_verdict_and_a_balanced_one_stays_in_its_band(stopped):
    from simulator.statistics.summary import summarize

    result, numbers = stopped["result"], numbers_of(stopped["page"])
    summary = summarize(result)
    verdict = numbers["verdict"]
    assert verdict["sentence"] == summary.verdict
    assert verdict["status"] == summary.judgement.status == stopped["reason"]
    assert f"Verdict: {summary.verdict}" in summary.table()
    assert verdict["significant"] == (stopped["reason"] == "unbalanced")
    low, high = (float(v) / 100 for v in re.search(
        r"(?:decision|equivalence) interval (\d+\.\d)–(\d+\.\d)%", verdict["sentence"]).groups())
    target, tolerance = 0.5, summary.judgement.tolerance
    if stopped["reason"] == "balanced":
        assert target - tolerance <= low and high <= target + tolerance
        assert "Every equivalence interval of the sequential test lies within" in verdict["sure"]
    else:
        assert low > target + tolerance or high < target - tolerance
    # the balance measure with its interval at the stop, never a plain one
    assert "look" in verdict["sure"] and "(95% CI at the stop " in verdict["sure"]
    assert not re.search(r"95% CI \d", verdict["sure"])


def test_a_stopped_runs_tests_give_the_sequential_decision_not_a_fixed_sample_p(stopped):
    from simulator.statistics import adaptive
    from simulator.statistics.summary import summarize

    result, page = stopped["result"], stopped["page"]
    stop = adaptive.sequential_stop(result.data)
    summary = summarize(result)
    table = summary.table()
    block = table[table.index("\nTests"):table.index("\nVerdict")]
    assert f"Sequential test at look {stop.look} of {stop.looks_planned}" in block
    assert "no fixed-sample p-value" in block and not re.search(r"\bp [=<]", block)
    words = {"unbalanced": "unbalanced boundary crossed", "balanced": "inside the band"}
    assert f"camp balance: {words[stopped['reason']]}" in block
    # the report's Tests table: the same decisions, no p-value column
    numbers = numbers_of(page)
    [test] = numbers["tests"]
    [decision] = summary.decisions
    assert test["decision"] == decision.outcome == stopped["reason"]
    assert test["p"] is None and test["p_holm"] is None
    assert (test["low"], test["high"], test["z"]) == (decision.low, decision.high, decision.z)
    section = page[page.index('<section id="tests">'):]
    section = visible_text(section[:section.index("</section>")])
    assert "Holm-adjusted p" not in section and not re.search(r"\bp [=<]", section)
    assert words[stopped["reason"]] in section and f"look {stop.look} of" in section
    assert numbers["sequential"]["look"] == stop.look
    # the CSV export: the same numbers, each interval named, the decision in place of p
    files = stopped["csv"]
    assert files.keys() >= {"rates_team.csv", "tests.csv", "balance.csv"}
    for row, expected in zip(read_csv(files["rates_team.csv"]), numbers["rates"]["team"]):
        assert (float(row["low"]), float(row["high"])) == (expected["low"], expected["high"])
        assert row["interval"] == adaptive.AT_STOP
    [tests] = read_csv(files["tests.csv"])
    assert "p" not in tests and tests["decision"] == stopped["reason"]
    assert int(tests["look"]) == stop.look
    assert read_csv(files["rates_seat.csv"])[0]["interval"] == adaptive.REPEATED
    links = csv_links(page)
    assert all(links[name] == text for name, text in files.items() if name in links)
