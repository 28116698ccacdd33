"""Verdicts within the designer's tolerance (simulator/statistics/verdict.py): balanced within ±2 points,
unbalanced by X, or not enough games yet; individual games judged by seat, role and strategy."""


import numpy as np
import pytest

from simulator.setup import config
from simulator.run import runner
from simulator.statistics import verdict
from simulator.setup.config import ConfigError
from simulator.games import get_game
from simulator.statistics.summary import summarize

WEREWOLF = get_game("werewolf")


def team_tallies(first_wins: int, decided: int) -> dict:
    return {"team_wins": np.array([first_wins, decided - first_wins]),
            "games": np.array([decided])}


def judge_team(first_wins, decided, tolerance=0.02):
    findings = verdict.team_findings(WEREWOLF, team_tallies(first_wins, decided), None, tolerance)
    return verdict.judge(findings, tolerance, decided, "team")


def test_a_small_real_difference_is_balanced_within_the_tolerance():
    # 51.2% of 19,600 decided games: the 95% interval is 51.2 ± 0.7 (1.96 sqrt(.512 .488 / 19600)
    # = 0.0070), significantly above 50% — but its 90% interval, 51.2 ± 0.59, lies inside 48..52.
    judged = judge_team(10_035, 19_600)
    (lead,) = judged.findings
    assert lead.rate.high - lead.rate.value == pytest.approx(0.0070, abs=2e-4)
    assert lead.pvalue < 0.001  # the difference test alone would call it unbalanced
    assert judged.status == "balanced" and judged.headline == "Balanced within ±2.0 points"
    assert "Balanced within ±2.0 points" in judged.sentence


def test_a_difference_beyond_the_tolerance_is_unbalanced_by_its_size():
    judged = judge_team(11_760, 19_600)  # 60%: the interval 59.3..60.7 is beyond 52
    assert judged.status == "unbalanced"
    assert judged.headline == "Human favoured by 10.0 points"
    assert judged.sentence.startswith("Unbalanced by 10.0 points")
    judged = judge_team(7_840, 19_600)  # 40%: the wolves are the ones ahead
    assert judged.headline == "Wolf favoured by 10.0 points"


def test_an_open_question_says_about_how_many_more_games_would_settle_it():
    # 52.5% of 2,000: the 90% interval 52.5 ± 1.8 reaches inside 52 (and the 95% one too).
    judged = judge_team(1_050, 2_000)
    assert judged.status == "undecided" and judged.headline == "Not enough games yet"
    more = judged.games_more
    assert more and f"about {verdict.about(more)} more needed" in judged.sentence
    # "about": with that many more games at the same rate the interval just reaches the band's
    # edge, with twice as many it clears it ...
    games = 2_000 + 2 * more
    assert judge_team(round(0.525 * games), games).status == "unbalanced"
    # ... and with a tenth of them, not yet
    games = 2_000 + more // 10
    assert judge_team(round(0.525 * games), games).status == "undecided"


def test_about_rounds_to_two_significant_figures():
    assert [verdict.about(n) for n in (7, 96, 1_234, 209_876)] == ["7", "96", "1,200", "210,000"]


def test_the_tolerance_is_a_config_key(tmp_path):
    cfg = config.load("werewolf", ["balance_tolerance=0.05"])
    result = runner.run(cfg, 2_000, seed=1, workers=1)
    assert summarize(result).judgement.tolerance == 0.05
    for bad in ("0", "-0.1", "0.6", '"two"'):
        with pytest.raises(ConfigError, match="balance_tolerance"):
            config.load("werewolf", [f"balance_tolerance={bad}"])


# --- individual games --------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def chenghuang_random():
    return summarize(runner.run(config.load("chenghuang"), 20_000, seed=2, workers=2))


def test_chenghuang_verdict_names_the_role_imbalance(chenghuang_random):
    judged = chenghuang_random.judgement
    assert judged.status == "unbalanced" and judged.lead.group == "role"
    assert judged.headline.startswith("Roles matter most")
    assert f"role {judged.lead.name}" in chenghuang_random.verdict
    # the seats are alike by the rules, and the verdict says so
    assert "alike by construction" in chenghuang_random.verdict
    groups = {f.group for f in judged.findings}
    # one strategy at every seat: no strategy to compare; seats alike by the rules: positions
    # in turn order from the first captain are judged instead
    assert groups == {"position", "role"}


def test_a_mixed_strategy_table_names_the_strategies_not_the_seats():
    # two greedy players among three random ones: greedy wins far more than an even share. The
    # seats are alike by the rules (a random first captain), so seat numbers are not judged:
    # the strategies are, and turn order
    cfg = config.load("chenghuang", ['strategies.all="random"', 'strategies.seat.0="greedy"',
                                     'strategies.seat.1="greedy"'])
    summary = summarize(runner.run(cfg, 10_000, seed=3, workers=2))
    judged = summary.judgement
    assert judged.status == "unbalanced" and judged.lead.group == "strategy"
    assert judged.lead.name == "greedy" and judged.lead.difference > 0.05
    assert "strategy greedy" in summary.verdict and "Seats" not in judged.headline
    assert not [f for f in judged.findings if f.group == "seat"]
    assert [f for f in judged.findings if f.group == "position"]