"""One list of headline measures (simulator.statistics.headline): the run summary's rows, the stopping
rule's rows, the regression check's measures and a sweep cell's rates are the same measures."""

from __future__ import annotations

import pytest

from reports import measures as report_measures
from simulator.statistics import adaptive, headline
from simulator.setup import config
from simulator.run import runner
from simulator.studies.regression.checking import run_setups
from simulator.statistics.summary import summarize


@pytest.fixture(scope="module")
def result():
    # Vita Mors draws its first player: every group of the list occurs, positions among them
    return runner.run(config.load("vitamors"), 2_000, seed=5, workers=1)


def test_the_summary_shows_every_headline_rate_and_nothing_else(result):
    measures = headline.measures_of(result.game, result.tallies, result.data["strategies"])
    groups = {m.group for m in measures}
    assert {"team", "draw", "seat", "strategy", "position", "end", "length"} <= groups
    shown = [(m.group, m.label, m.counts) for m in measures
             if m.group in (*headline.RATE_TABLES, "draw")]
    rows = summarize(result).rows
    assert [(row.group, row.name, (row.rate.successes, row.rate.trials)) for row in rows] == shown
    assert summarize(result).mean_length[0] == pytest.approx(
        next(m.value for m in measures if m.group == "length"))


def test_the_check_compares_the_positions_the_summary_shows(result):
    checked = headline.measures_of(result.game, result.tallies, result.data["strategies"])
    positions = [row.name for row in summarize(result).rows_of("position")]
    assert len(positions) == len(result.tallies["seat_wins"]) and positions[0].endswith(
        "(first player)")
    assert [m.name for m in checked if m.group == "position"] == \
        [f"position {name}" for name in positions]


def test_a_sweep_cell_and_the_stopping_rule_read_the_summary_rows(result):
    summary = summarize(result)
    cell = report_measures.cell_measures(result)
    assert [(t["name"], t["successes"]) for t in cell["teams"]] == \
        [(row.name, row.rate.successes) for row in summary.rows_of("team")]
    assert [e["name"] for e in cell["ends"]] == [row.name for row in summary.rows_of("end")]
    assert cell["seat0"]["successes"] == summary.rows_of("seat")[0].rate.successes
    watched = adaptive.headline_rows(result)
    expected = ("team",) if result.game.team_game else ("seat", "role", "strategy")
    assert [(row.group, row.name) for row in watched] == \
        [(row.group, row.name) for row in summary.rows if row.group in expected]


def test_run_setups_gives_the_same_measures_as_a_run(result):
    again, = run_setups([config.load("vitamors")], 2_000, 5, workers=1)
    assert headline.measures_of(again.game, again.tallies, again.data["strategies"]) == \
        headline.measures_of(result.game, result.tallies, result.data["strategies"])
