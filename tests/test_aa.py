"""A/A tests: two runs of the same setup with different seeds differ only by chance, so a
comparison (`fairplay report A B`) or a check (`fairplay check`) may flag a difference in at most
its stated share alpha of such pairs. 200 pairs per game; the bound is the binomial's 99.9%
quantile, so the tests do not flake (they run with fixed seeds anyway).

Counted as independent trials, the seat-games of a role (9-player werewolf: six villagers who win
together) flag the villagers in 92 of these 200 werewolf pairs at alpha = 0.05; with the game as
the unit the rates stay within alpha.
"""

import pytest
from scipy import stats as sps

from simulator.studies import compare, regression
from simulator.setup import config
from simulator.run import runner

PAIRS = 200


def bound(alpha: float) -> int:
    """The most flagged pairs out of PAIRS that chance allows (99.9% quantile)."""
    return int(sps.binom.ppf(0.999, PAIRS, alpha))


@pytest.fixture(scope="module", params=[
    ("werewolf", ['strategies.all="seer-led"'], 1_000),
    ("chenghuang", ['strategies.all="greedy"', 'strategies.seat.0="balanced"'], 300),
], ids=["werewolf", "chenghuang"])
def pairs(request):
    name, overrides, games = request.param
    cfg = config.load(name, overrides)
    results = [runner.run(cfg, games, seed=seed, workers=1, chunk_size=games)
               for seed in range(2 * PAIRS)]
    return cfg, list(zip(results[::2], results[1::2]))


def test_a_comparison_of_two_runs_of_one_setup_flags_at_most_alpha(pairs):
    cfg, runs = pairs
    alpha = 0.05
    any_flagged = 0
    seat_game_flagged = {}
    for a, b in runs:
        differences = compare.compare(a, b).differences
        any_flagged += any(d.adjusted < alpha for d in differences)
        for d in differences:  # each seat-game rate alone, before Holm: uniform p-values
            if d.group in ("role", "strategy"):
                seat_game_flagged[d.name] = seat_game_flagged.get(d.name, 0) + (d.pvalue < alpha)
    assert any_flagged <= bound(alpha)
    assert seat_game_flagged  # roles and strategies were compared
    for name, flagged in seat_game_flagged.items():
        assert flagged <= bound(alpha), (name, flagged)


def test_a_check_of_a_setup_against_itself_fails_at_most_alpha(pairs):
    cfg, runs = pairs
    alpha = regression.DEFAULT_ALPHA
    flagged = 0
    for a, b in runs:
        before = regression.measures_of(cfg.game, a.tallies, a.data["strategies"])
        after = regression.measures_of(cfg.game, b.tallies, b.data["strategies"])
        rows, _ = regression.compare([("setup", before, after)], alpha=alpha, tolerance=0.0,
                                     mean_tolerance=0.0)
        flagged += any(row.verdict != regression.OK for row in rows)
        assert any(row.baseline.moments for row in rows if row.baseline)  # seat-game measures
    assert flagged <= bound(alpha)
