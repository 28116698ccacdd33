"""The statistics of `fairplay check` on hand-made counts (no simulation).

Expected p-values are recomputed here from textbook formulas, independently of simulator.statistics.inference.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from scipy import stats as sps

from simulator.studies import regression
from simulator.games import get_game
from simulator.games.base import Tally
from simulator.studies.regression import DRIFT, FAIL, MISSING, NEW, OK, Measure, compare


def rate(name, k, n, moments=None, group="team"):
    return Measure(group, name, "rate", (k, n), moments)


def pooled_z_p(k1, n1, k2, n2):
    """Two-sided pooled two-proportion z-test, written out."""
    p = (k1 + k2) / (n1 + n2)
    se = math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))
    return 2 * sps.norm.sf(abs(k2 / n2 - k1 / n1) / se)


def one(before, after, **kw):
    rows, confidence = compare([("setup", before, after)], **kw)
    return rows, confidence


def test_a_large_significant_change_fails():
    # 30.0% -> 33.0% of 10,000 games: pooled rate 0.315, se = sqrt(.315 .685 (2/10^4)) = 0.00657,
    # z = 0.03 / 0.00657 = 4.57, p = 5e-6 < 0.01, and 3 points > the 1-point tolerance.
    (row,), confidence = one([rate("team a", 3000, 10_000)], [rate("team a", 3300, 10_000)])
    assert row.pvalue == pytest.approx(pooled_z_p(3000, 10_000, 3300, 10_000), rel=1e-9)
    assert row.pvalue < 1e-5 and row.adjusted == row.pvalue  # one test: Holm changes nothing
    assert row.verdict == FAIL and row.failed
    assert row.diff == pytest.approx(0.03)
    assert confidence == pytest.approx(0.99)  # 1 - alpha/m with m = 1
    assert "significant and beyond the tolerance of 1.00 points" in row.message()


def test_a_tiny_real_drift_on_many_games_passes():
    # 50.0% -> 50.3% of 10^7 games: se = sqrt(.5 .5 2/10^7) = 0.000224, z = 13.4: real, but
    # 0.3 points is inside the 1-point tolerance. It is reported as drift and passes.
    (row,), _ = one([rate("team a", 5_000_000, 10**7)], [rate("team a", 5_030_000, 10**7)])
    assert row.adjusted < 1e-30
    assert row.verdict == DRIFT and not row.failed
    assert "significant but within the tolerance" in row.message()


def test_a_large_change_on_few_games_is_not_significant():
    # 5/10 -> 8/10: 30 points, but z = 0.3 / sqrt(.65 .35 .2) = 1.41, p = 0.16.
    (row,), _ = one([rate("team a", 5, 10)], [rate("team a", 8, 10)])
    assert row.pvalue == pytest.approx(pooled_z_p(5, 10, 8, 10))
    assert row.verdict == OK


def test_holm_corrects_across_all_setups():
    # 50% -> 52% of 10,000 games: se = 0.00707, z = 2.83, p = 0.0047, below alpha = 0.01, so
    # alone it fails. Next to four unchanged measures of another setup (p = 1) Holm multiplies
    # the smallest p by m = 5: 0.023 > 0.01, and it passes.
    moved = ("A", [rate("team a", 5000, 10_000)], [rate("team a", 5200, 10_000)])
    still = ("B", [rate(f"seat {i}", 4000, 10_000, group="seat") for i in range(4)],
             [rate(f"seat {i}", 4000, 10_000, group="seat") for i in range(4)])
    p = pooled_z_p(5000, 10_000, 5200, 10_000)
    assert 0.01 / 5 < p < 0.01
    (alone,), _ = compare([moved])
    assert alone.verdict == FAIL
    rows, confidence = compare([moved, still])
    assert rows[0].adjusted == pytest.approx(5 * p)
    assert [row.verdict for row in rows] == [OK] * 5
    assert confidence == pytest.approx(1 - 0.01 / 5)


def test_holm_across_setups_still_finds_a_big_change():
    moved = ("A", [rate("team a", 3000, 10_000)], [rate("team a", 3300, 10_000)])
    still = ("B", [rate(f"seat {i}", 4000, 10_000, group="seat") for i in range(40)],
             [rate(f"seat {i}", 4000, 10_000, group="seat") for i in range(40)])
    rows, _ = compare([moved, still])
    assert rows[0].verdict == FAIL and sum(row.failed for row in rows) == 1


def test_measures_on_one_side_only_fail_without_a_test():
    before = [rate("seat 0", 10, 100, group="seat"), rate("seat 8", 10, 100, group="seat")]
    after = [rate("seat 0", 10, 100, group="seat"), rate("seat 9", 10, 100, group="seat")]
    rows, confidence = one(before, after)
    assert [(row.name, row.verdict) for row in rows] == [("seat 0", OK), ("seat 8", MISSING),
                                                         ("seat 9", NEW)]
    assert confidence == pytest.approx(0.99)  # only seat 0 was tested
    assert "absent from this run" in rows[1].message()
    assert "not in the baseline" in rows[2].message()


def villagers(won, games=10_000, holders=9):
    """A role held by `holders` seats who win or lose together, winning `won` of `games` games:
    its counts and per-game moments (y_g = holders or 0, x_g = holders)."""
    k = holders * won
    return rate("role villager", k, holders * games,
                (holders * k, holders * k, holders * holders * games, games))


def test_seats_that_win_together_count_as_one_game():
    # 9 villagers who win or lose together: 9 x 3,000 wins of 9 x 10,000 seat-games carry the
    # information of 3,000 of 10,000 games, not more. With the game as the unit the test is the
    # unpooled z-test of the games: Var = p(1-p)/(G-1) in each run.
    (grouped,), _ = one([villagers(3000)], [villagers(3200)])
    var = 0.3 * 0.7 / 9_999 + 0.32 * 0.68 / 9_999
    assert grouped.pvalue == pytest.approx(2 * sps.norm.sf(0.02 / math.sqrt(var)), rel=1e-9)
    (per_game,), _ = one([rate("team a", 3000, 10_000)], [rate("team a", 3200, 10_000)])
    assert grouped.pvalue == pytest.approx(per_game.pvalue, rel=0.05)  # the same information
    # counted as 90,000 independent seat-games the same change would look 9 times as sure
    (naive,), _ = one([rate("role villager", 27_000, 90_000)],
                      [rate("role villager", 28_800, 90_000)])
    assert naive.pvalue < grouped.pvalue ** 5


def mean(name, values_mean, sd, n):
    """A mean measure with the given sample mean and (population) sd, as integer-ish sums."""
    total = values_mean * n
    return Measure("length", name, "mean", (round(total), round(n * (sd * sd + values_mean ** 2)),
                                             n))


def test_means_use_welch_and_a_tolerance_in_standard_deviations():
    # 10^6 games, sd 1: the difference of two means has se = sqrt(2/10^6) = 0.00141.
    # +0.01 (z = 7.1) is real but below 0.02 sd: drift. +0.05 (z = 35) is beyond: fail.
    base = mean("game length (days)", 3.0, 1.0, 10**6)
    (small,), _ = one([base], [mean("game length (days)", 3.01, 1.0, 10**6)])
    assert small.adjusted < 1e-6 and small.verdict == DRIFT
    assert small.tolerance == pytest.approx(0.02, rel=1e-3)
    welch = sps.ttest_ind_from_stats(3.01, 1.0, 10**6, 3.0, 1.0, 10**6, equal_var=False)
    assert small.pvalue == pytest.approx(welch.pvalue, rel=1e-3)
    (large,), _ = one([base], [mean("game length (days)", 3.05, 1.0, 10**6)])
    assert large.verdict == FAIL
    (looser,), _ = one([base], [mean("game length (days)", 3.05, 1.0, 10**6)],
                       mean_tolerance=0.1)
    assert looser.verdict == DRIFT


def test_a_constant_mean_that_moves_fails():
    # Every game lasts exactly 4 rounds; after a rules change exactly 5: no spread, a certain
    # change (Welch gives p = 0), and the tolerance (0.02 of sd 0) is 0.
    before = Measure("length", "game length (rounds)", "mean", (4 * 100, 16 * 100, 100))
    after = Measure("length", "game length (rounds)", "mean", (5 * 100, 25 * 100, 100))
    (row,), _ = one([before], [after])
    assert row.verdict == FAIL
    (same,), _ = one([before], [before])
    assert same.verdict == OK and same.pvalue == 1.0


@pytest.mark.parametrize("kw", [{"alpha": 0}, {"alpha": 1}, {"tolerance": -1},
                                {"mean_tolerance": -0.5}])
def test_bad_settings_are_refused(kw):
    with pytest.raises(regression.BaselineError):
        one([rate("a", 1, 2)], [rate("a", 1, 2)], **kw)


# --- measures ------------------------------------------------------------------------------------
def standard_tallies(game, players, games):
    """A werewolf run of 9 players (6 villagers, 2 werewolves, a seer, all `random`) in which the
    humans win a quarter of the games, with the per-game moments such a run has."""
    humans, wolves = games // 4, games - games // 4
    tallies = {
        "games": [games], "team_wins": [humans, wolves], "draws": [0],
        "seat_wins": [games // 2] * players, "role_games": [6 * games, 2 * games, games] + [0] * 13,
        "role_wins": [6 * humans, 2 * wolves, humans] + [0] * 13,
        "slot_games": [players * games] + [0] * 15,
        "slot_wins": [7 * humans + 2 * wolves] + [0] * 15,
        "length_hist": [0] * 25, "end_counts": [humans, games // 2, games - 3 * (games // 4), 0, 0],
        # werewolf names no first player: no game has a position in turn order
        "position_wins": [0] * players, "position_games": [0] * players,
        "events": [0] * len(game.events),
        "decisions": [0] * len(game.decisions), "forced": [0] * len(game.decisions),
        # per game, y_g and x_g: villagers (6 or 0, 6), werewolves (2 or 0, 2), the seer (1 or 0,
        # 1); the one slot: 7 when the humans win, 2 when the wolves do, of 9 seat-games
        "role_wins_by_game": [[36 * humans, 36 * humans, 36 * games],
                              [4 * wolves, 4 * wolves, 4 * games], [humans, humans, games]]
        + [[0, 0, 0]] * 13,  # the expansion roles, not dealt
        "slot_wins_by_game": [[49 * humans + 4 * wolves, 9 * (7 * humans + 2 * wolves),
                               81 * games]] + [[0, 0, 0]] * 15,
    }
    tallies["length_hist"][3] = games
    return tallies


def test_measures_of_a_werewolf_result():
    game = get_game("werewolf")  # its default: 9 players, 6 villagers, 2 werewolves, 1 seer
    measures = regression.measures_of(game, standard_tallies(game, 9, 1000), ["random"])
    by_name = {m.name: m for m in measures}
    assert list(by_name)[:3] == ["team human", "team wolf", "no winner"]
    assert by_name["team wolf"].counts == (750, 1000)
    # seat-game measures carry their per-game moments (from the tallies); per-game ones do not
    assert by_name["role villager"].moments == (36 * 250, 36 * 250, 36 * 1000, 1000)
    assert by_name["role seer"].moments == (250, 250, 1000, 1000)
    assert by_name["strategy random"].moments == (49 * 250 + 4 * 750, 9 * (7 * 250 + 2 * 750),
                                                  81 * 1000, 1000)
    assert by_name["seat 3"].moments is None and by_name["team wolf"].moments is None
    # all games last 3 days: sum 3000, sum of squares 9000
    assert by_name["game length (days)"].counts == (3000, 9000, 1000)
    assert len(measures) == 2 + 1 + 9 + 3 + 1 + 5 + 1  # roles not dealt, positions: left out


def test_score_measures_by_their_declaration():
    # A game (werewolf's declaration plus score tallies) declares each sum with its squares and
    # what it is counted per: games (seat_score), role_games (role_score), role_rounds (role_round),
    # games again for a tally without an axis (bonus).
    game = dataclasses.replace(get_game("werewolf"), tallies=(
        Tally("seat_score_sum", "seat", "sum", "final totals", per="games", square="seat_score_sq"),
        Tally("seat_score_sq", "seat", "sum_sq", "their squares"),
        Tally("role_score_sum", "role", "sum", "final totals by role", per="role_games",
              square="role_score_squares"),
        Tally("role_score_squares", "role", "sum_sq", "their squares"),
        Tally("role_rounds", "role", "count", "rounds played by role"),
        Tally("role_round_sum", "role", "sum", "round scores", per="role_rounds",
              square="role_round_sq"),
        Tally("role_round_sq", "role", "sum_sq", "their squares"),
        Tally("bonus_sum", "none", "sum", "bonus points", per="games", square="bonus_sq"),
        Tally("bonus_sq", "none", "sum_sq", "their squares"),
    ))
    games, players = 100, 9
    tallies = standard_tallies(game, players, games)
    tallies.update({
        "seat_score_sum": list(range(players)), "seat_score_sq": list(range(players)),
        "role_score_sum": [60, 20, 10] + [0] * 13, "role_score_squares": [600, 200, 100] + [0] * 13,
        "role_round_sum": [5, 6, 7] + [0] * 13, "role_round_sq": [50, 60, 70] + [0] * 13,
        "role_rounds": [30, 0, 10] + [0] * 13,
        "bonus_sum": [12], "bonus_sq": [40],
        "role_score_sum_by_game": [[7, 8, 9]] * 3 + [[0, 0, 0]] * 13,
        "role_round_sum_by_game": [[1, 2, 3]] * 3 + [[0, 0, 0]] * 13,
    })
    measures = {m.name: m for m in regression.measures_of(game, tallies, ["random"])}
    seat = measures["mean seat_score seat 4"]  # one value a game: no per-game moments needed
    assert (seat.kind, seat.counts, seat.moments) == ("mean", (4, 4, games), None)
    role = measures["mean role_score werewolf"]  # counted in role_games: with its moments
    assert role.counts == (20, 200, 2 * games) and role.moments == (7, 8, 9, games)
    per_round = measures["mean role_round seer"]  # counted in role_rounds: with its moments
    assert per_round.counts == (7, 70, 10) and per_round.moments == (1, 2, 3, games)
    assert "mean role_round werewolf" not in measures  # no rounds, no measure
    assert measures["mean bonus"].counts == (12, 40, games)
    assert measures["mean bonus"].moments is None


def test_measure_json_round_trip_and_validation():
    m = Measure("role", "role seer", "rate", (5, 10), (9, 9, 30, 3))
    assert Measure.from_json(m.to_json()) == m
    g = Measure("score", "mean x", "mean", (10, 100, 4))
    assert Measure.from_json(g.to_json()) == g
    for bad in ({"group": "team", "name": "a", "kind": "rate", "successes": 11, "trials": 10},
                {"group": "team", "name": "a", "kind": "rate", "successes": 1.5, "trials": 10},
                {"group": "team", "name": "a", "kind": "median", "successes": 1, "trials": 10},
                {"group": "team", "name": "a", "kind": "rate", "successes": 1, "trials": 10,
                 "game_moments": [1, 2, 3]},
                {"group": "team", "name": "a", "kind": "rate", "successes": 1, "trials": 10,
                 "game_moments": [1, 2, -3, 4]},
                {"name": "a", "kind": "rate", "successes": 1, "trials": 10},
                ["not", "an", "object"]):
        with pytest.raises(ValueError):
            Measure.from_json(bad)


def test_game_moments_and_sd():
    m = Measure("role", "role villager", "rate", (900, 3000), (2700, 2700, 9000, 1000))
    moments = m.game_moments()
    assert (moments.y, moments.x, moments.games) == (900, 3000, 1000)
    assert (moments.yy, moments.xy, moments.xx) == (2700, 2700, 9000)
    assert m.sd == pytest.approx(math.sqrt(0.3 * 0.7))
    g = Measure("length", "len", "mean", (6, 14, 3))  # values 1, 2, 3
    assert g.value == 2 and g.sd == pytest.approx(np.std([1, 2, 3], ddof=1))
