"""Tests for simulator.statistics.inference.

Expected values are derived in the tests themselves (closed forms worked out
in comments, or an independent SciPy routine), never pasted in unexplained.
"""

import math
import warnings

import numpy as np
import pytest
from scipy import stats as sps

from simulator.statistics import inference

Z95 = sps.norm.ppf(0.975)  # two-sided 95% normal critical value, ≈ 1.96


def wilson_by_quadratic(k, n, z):
    """Wilson interval derived independently of the module's closed form.

    The interval is every p with |k/n - p| <= z·sqrt(p(1-p)/n). Squaring and
    collecting terms gives the quadratic
        (1 + z²/n) p² - (2k/n + z²/n) p + (k/n)² = 0,
    whose two roots are the bounds.
    """
    phat = k / n
    a = 1 + z * z / n
    b = -(2 * phat + z * z / n)
    c = phat * phat
    root = math.sqrt(b * b - 4 * a * c)
    return (-b - root) / (2 * a), (-b + root) / (2 * a)


# --------------------------------------------------------------------------
# Rate and Wilson
# --------------------------------------------------------------------------


def test_wilson_matches_the_quadratic_it_solves():
    for k, n in [(412, 1000), (1, 7), (30, 31), (5000, 10000)]:
        rate = inference.wilson(k, n)
        low, high = wilson_by_quadratic(k, n, Z95)
        assert rate.low == pytest.approx(low, rel=1e-12)
        assert rate.high == pytest.approx(high, rel=1e-12)
        assert rate.low < rate.value < rate.high


def test_wilson_matches_scipy_binomtest():
    for k, n in [(0, 10), (10, 10), (3, 10), (412, 1000), (1, 1)]:
        for confidence in (0.9, 0.95, 0.999):
            ci = sps.binomtest(k, n).proportion_ci(confidence, method="wilson")
            rate = inference.wilson(k, n, confidence)
            assert rate.low == pytest.approx(ci.low, abs=1e-12)
            assert rate.high == pytest.approx(ci.high, abs=1e-12)


def test_wilson_bounds_is_vectorised_and_agrees_with_scalar():
    ks = np.array([0, 3, 7, 10, 0])
    ns = np.array([10, 10, 10, 10, 0])
    low, high = inference.wilson_bounds(ks, ns, 0.9)
    assert low.shape == high.shape == ks.shape
    for i, (k, n) in enumerate(zip(ks, ns)):
        rate = inference.wilson(int(k), int(n), 0.9)
        assert (low[i], high[i]) == pytest.approx((rate.low, rate.high))
    # The last entry has no trials: the know-nothing interval.
    assert (low[-1], high[-1]) == (0.0, 1.0)


def test_rate_properties_and_format():
    rate = inference.wilson(412, 1000)
    assert rate.value == 0.412
    assert rate.half_width == pytest.approx((rate.high - rate.low) / 2)
    # Bounds ≈ 0.38189 and 0.44279 (quadratic above), so to one decimal:
    assert rate.format() == "41.2% (95% CI 38.2–44.3%)"
    assert rate.format(2) == (
        f"41.20% (95% CI {100 * rate.low:.2f}–{100 * rate.high:.2f}%)"
    )
    # Non-round levels keep enough digits to be told apart.
    assert "99.9% CI" in inference.wilson(1, 2, 0.999).format()


def test_degenerate_rates():
    empty = inference.wilson(0, 0)
    assert math.isnan(empty.value)
    assert (empty.low, empty.high) == (0.0, 1.0)
    assert empty.half_width == 0.5
    assert "n/a" in empty.format()

    # All wins: the upper bound is exactly 1 and the lower bound solves
    # n/(n + z²) (the quadratic's smaller root when k = n).
    n = 20
    all_wins = inference.wilson(n, n)
    assert all_wins.high == 1.0
    assert all_wins.low == pytest.approx(n / (n + Z95**2))
    assert inference.wilson(0, n).low == 0.0


@pytest.mark.parametrize("k, n", [(-1, 10), (11, 10), (1.5, 10), (0, -1)])
def test_invalid_counts_raise(k, n):
    with pytest.raises(ValueError):
        inference.wilson(k, n)


def test_invalid_confidence_raises():
    for confidence in (0, 1, 95):
        with pytest.raises(ValueError):
            inference.wilson(1, 2, confidence)


# --------------------------------------------------------------------------
# Clopper–Pearson
# --------------------------------------------------------------------------


def test_clopper_pearson_matches_scipy_exact():
    for k, n in [(0, 10), (10, 10), (3, 10), (412, 1000), (1, 1)]:
        ci = sps.binomtest(k, n).proportion_ci(0.95, method="exact")
        rate = inference.clopper_pearson(k, n)
        assert rate.low == pytest.approx(ci.low, abs=1e-12)
        assert rate.high == pytest.approx(ci.high, abs=1e-12)


def test_clopper_pearson_zero_successes_closed_form():
    # With k = 0 the upper bound solves P(X = 0) = (1 - p)^n = α/2,
    # i.e. p = 1 - (α/2)^(1/n).
    n, alpha = 25, 0.05
    rate = inference.clopper_pearson(0, n, 1 - alpha)
    assert rate.low == 0.0
    assert rate.high == pytest.approx(1 - (alpha / 2) ** (1 / n))


def test_clopper_pearson_is_wider_than_wilson_at_half():
    # Exact intervals are conservative; at p̂ = 1/2 they are strictly wider.
    exact, score = inference.clopper_pearson(50, 100), inference.wilson(50, 100)
    assert exact.low < score.low and exact.high > score.high
    assert inference.clopper_pearson(0, 0).half_width == 0.5


# --------------------------------------------------------------------------
# Holm
# --------------------------------------------------------------------------


def test_holm_worked_example():
    # m = 4. Sorted: 0.005, 0.01, 0.03, 0.04, multiplied by 4, 3, 2, 1
    # -> 0.02, 0.03, 0.06, 0.04; running max -> 0.02, 0.03, 0.06, 0.06.
    # Back in input order [0.01, 0.04, 0.03, 0.005]:
    adjusted = inference.holm([0.01, 0.04, 0.03, 0.005])
    np.testing.assert_allclose(adjusted, [0.03, 0.06, 0.06, 0.02])


def test_holm_caps_at_one_and_handles_edges():
    # 0.6·2 = 1.2 -> 1; then max(1.2, 0.7·1) -> 1.
    np.testing.assert_allclose(inference.holm([0.7, 0.6]), [1.0, 1.0])
    assert inference.holm([]).size == 0
    # A single test needs no correction.
    np.testing.assert_allclose(inference.holm([0.2]), [0.2])
    with pytest.raises(ValueError):
        inference.holm([0.1, 1.5])


def test_holm_properties_on_random_pvalues():
    rng = np.random.default_rng(12345)
    p = rng.uniform(size=50)
    adjusted = inference.holm(p)
    m = p.size
    assert (adjusted >= p).all()
    assert (adjusted <= 1).all()
    # Never stricter than Bonferroni (m·p) and ranks are preserved.
    assert (adjusted <= np.minimum(1, m * p) + 1e-15).all()
    order = np.argsort(p)
    assert (np.diff(adjusted[order]) >= 0).all()
    # The smallest p is always multiplied by exactly m.
    assert adjusted[order[0]] == pytest.approx(min(1, m * p[order[0]]))


def test_test_significance_uses_adjusted_when_present():
    raw = inference.Test("t", 1.0, 0.03)
    assert raw.significant(0.05)
    assert not inference.Test("t", 1.0, 0.03, adjusted_pvalue=0.09).significant(0.05)

    family = inference.holm_adjust([inference.Test("a", 0, 0.03), inference.Test("b", 0, 0.01)])
    # Sorted 0.01·2 = 0.02, then max(0.02, 0.03·1) = 0.03.
    assert [t.adjusted_pvalue for t in family] == pytest.approx([0.03, 0.02])
    assert [t.pvalue for t in family] == [0.03, 0.01]


# --------------------------------------------------------------------------
# Balance tests
# --------------------------------------------------------------------------


def test_balance_test_exact_values():
    # 10 wins in 10 games vs 1/2: only 0 and 10 are as unlikely, each with
    # probability 2^-10, so p = 2/1024.
    test = inference.balance_test(10, 10)
    assert test.pvalue == pytest.approx(2 / 1024)
    assert test.statistic == 1.0
    # Two-sided against 1/2 is symmetric in the sides.
    assert inference.balance_test(37, 90).pvalue == pytest.approx(
        inference.balance_test(53, 90).pvalue
    )
    assert inference.balance_test(0, 0).pvalue == 1.0


def test_team_balance_two_teams_is_binomial_on_decided_games():
    # 6 v 4 with 2 draws -> 6 of 10 decided. Under 1/2 every outcome except
    # X = 5 (probability C(10,5)/1024 = 252/1024) is at most as likely as
    # X = 6, so p = 1 - 252/1024.
    test = inference.team_balance([6, 4], 12)
    assert test.pvalue == pytest.approx(1 - 252 / 1024)
    assert "binomial" in test.name


def test_team_balance_three_teams_chi_square():
    # 30/20/10 of 60 vs 20 each: X² = (10² + 0 + 10²)/20 = 10 on 2 degrees of
    # freedom, and the chi-square(2) survival function is exp(-x/2).
    test = inference.team_balance([30, 20, 10], 60)
    assert test.statistic == pytest.approx(10.0)
    assert test.pvalue == pytest.approx(math.exp(-5))
    # Draws are ignored: same counts with 40 draws give the same test.
    assert inference.team_balance([30, 20, 10], 100).pvalue == pytest.approx(test.pvalue)


def test_team_balance_targets_are_rescaled():
    # Counts exactly on a 2:1:1 target fit perfectly.
    for targets in ([0.5, 0.25, 0.25], [2, 1, 1]):
        test = inference.team_balance([30, 15, 15], 60, targets)
        assert test.statistic == pytest.approx(0.0)
        assert test.pvalue == pytest.approx(1.0)


def test_team_balance_rejects_bad_input():
    with pytest.raises(ValueError):
        inference.team_balance([30, 40], 60)  # more wins than games
    with pytest.raises(ValueError):
        inference.team_balance([30, 20, 10], 60, [1, 0, 1])  # zero target
    with pytest.raises(ValueError):
        inference.team_balance([30, 20, 10], 60, [1, 1])  # wrong length
    assert inference.team_balance([0, 0, 0], 5).pvalue == 1.0


def test_seat_fairness_detects_planted_seat_effect():
    rng = np.random.default_rng(2024)
    games = np.full(4, 10_000)
    # Seat 3 wins 10 points more often: a gap of ~15 standard errors.
    wins = rng.binomial(games, [0.25, 0.25, 0.25, 0.35])
    assert inference.seat_fairness(wins, games).pvalue < 1e-6


def test_seat_fairness_identical_and_degenerate_counts():
    identical = inference.seat_fairness([2500] * 4, [10_000] * 4)
    assert identical.statistic == pytest.approx(0.0)
    assert identical.pvalue == pytest.approx(1.0)
    assert not identical.significant()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for wins in ([0, 0, 0], [50, 60, 70]):  # every seat loses / wins
            test = inference.seat_fairness(wins, [50, 60, 70])
            assert (test.statistic, test.pvalue) == (0.0, 1.0)
        # A seat that never played is left out instead of breaking the table.
        assert inference.seat_fairness([5, 5, 0], [10, 10, 0]).pvalue == pytest.approx(1.0)


def test_seat_fairness_two_seats_equals_pooled_z_test():
    # For a 2 × 2 table Pearson's X² is the square of the pooled
    # two-proportion z statistic, so the p-values coincide.
    seat = inference.seat_fairness([430, 470], [1000, 1000])
    *_, pvalue = inference.two_proportions(430, 1000, 470, 1000)
    assert seat.pvalue == pytest.approx(pvalue)


def test_individual_fairness():
    # Same arithmetic as the three-team case: X² = 10, p = exp(-5).
    test = inference.individual_fairness([30, 20, 10], 60)
    assert test.pvalue == pytest.approx(math.exp(-5))
    even = inference.individual_fairness([25, 25, 25, 25], 100)
    assert even.pvalue == pytest.approx(1.0)
    with pytest.raises(ValueError):
        inference.individual_fairness([30, 40], 60)


# --------------------------------------------------------------------------
# Simultaneous intervals
# --------------------------------------------------------------------------


def test_simultaneous_rates_use_bonferroni_level():
    ks, ns = [10, 40, 70], [100, 100, 100]
    rates = inference.simultaneous_rates(ks, ns, confidence=0.99)
    each = 1 - 0.01 / 3  # (1 - confidence) split over m = 3 intervals
    for rate, k, n in zip(rates, ks, ns):
        assert rate.confidence == pytest.approx(each)
        single = inference.wilson(k, n, each)
        assert (rate.low, rate.high) == pytest.approx((single.low, single.high))
        assert rate.half_width > inference.wilson(k, n, 0.99).half_width
    assert inference.simultaneous_rates([], []) == []


# --------------------------------------------------------------------------
# Planning
# --------------------------------------------------------------------------


def _half_width(rate, n):
    low, high = inference.wilson_bounds(rate * n, n)
    return (high - low) / 2


@pytest.mark.parametrize(
    "rate, target", [(0.5, 0.01), (0.3, 0.02), (0.05, 0.005), (0.999, 0.001), (0.5, 0.4)]
)
def test_games_needed_is_the_smallest_sufficient_n(rate, target):
    n = inference.games_needed(rate, target)
    assert _half_width(rate, n) <= target
    if n > 1:
        assert _half_width(rate, n - 1) > target


def test_games_needed_closed_form_at_half():
    # At p = 1/2 the Wilson half-width is (z/2)/sqrt(n + z²), so
    # half-width <= h  <=>  n >= (z/(2h))² - z².
    h = 0.01
    assert inference.games_needed(0.5, h) == math.ceil((Z95 / (2 * h)) ** 2 - Z95**2)


def test_games_needed_is_monotone_and_falls_back_to_half():
    widths = [0.05, 0.02, 0.01, 0.005]
    needed = [inference.games_needed(0.3, h) for h in widths]
    assert needed == sorted(needed) and len(set(needed)) == len(needed)
    # Rates further from 1/2 need fewer games.
    by_rate = [inference.games_needed(p, 0.01) for p in (0.5, 0.4, 0.2, 0.1)]
    assert by_rate == sorted(by_rate, reverse=True)
    at_half = inference.games_needed(0.5, 0.01)
    for unknown in (None, math.nan, 0.0, 1.0, -0.2, 1.5):
        assert inference.games_needed(unknown, 0.01) == at_half
    with pytest.raises(ValueError):
        inference.games_needed(0.5, 0.0)


def test_games_to_halve():
    # At p̂ = 1/2: (z/2)/sqrt(n' + z²) <= half of (z/2)/sqrt(n + z²)
    # <=> n' + z² >= 4(n + z²) <=> n' >= 4n + 3z².
    assert inference.games_to_halve(50, 100) == math.ceil(4 * 100 + 3 * Z95**2)
    # Any observed rate: the answer really halves the width and is ~4×.
    current = inference.wilson(130, 1000).half_width
    n = inference.games_to_halve(130, 1000)
    assert _half_width(0.13, n) <= current / 2 < _half_width(0.13, n - 1)
    assert 3.5 * 1000 < n < 4.5 * 1000
    # No games yet: width 1/2 at unknown rate 1/2 -> target 1/4.
    assert inference.games_to_halve(0, 0) == inference.games_needed(0.5, 0.25)


# --------------------------------------------------------------------------
# Two proportions
# --------------------------------------------------------------------------


def test_two_proportions_newcombe_by_hand():
    # Method 10: with Wilson intervals (l1, u1), (l2, u2) and d = p2 - p1,
    #   low  = d - sqrt((p2 - l2)² + (u1 - p1)²)
    #   high = d + sqrt((u2 - p2)² + (p1 - l1)²).
    # This is Newcombe's (1998) example 56/70 vs 48/80, whose paper reports
    # 0.0524 to 0.3339.
    k1, n1, k2, n2 = 48, 80, 56, 70
    l1, u1 = wilson_by_quadratic(k1, n1, Z95)
    l2, u2 = wilson_by_quadratic(k2, n2, Z95)
    p1, p2 = k1 / n1, k2 / n2
    diff, low, high, pvalue = inference.two_proportions(k1, n1, k2, n2)
    assert diff == pytest.approx(0.2)
    assert low == pytest.approx(diff - math.hypot(p2 - l2, u1 - p1))
    assert high == pytest.approx(diff + math.hypot(u2 - p2, p1 - l1))
    assert (round(low, 4), round(high, 4)) == (0.0524, 0.3339)
    # Pooled z: p̄ = 104/150, se = sqrt(p̄(1-p̄)(1/80 + 1/70)).
    pooled = 104 / 150
    z = 0.2 / math.sqrt(pooled * (1 - pooled) * (1 / 80 + 1 / 70))
    assert pvalue == pytest.approx(2 * sps.norm.sf(z))


def test_two_proportions_contains_true_difference_and_agrees_with_chi2():
    # 300/1000 vs 330/1000 drawn from rates differing by 0.03.
    diff, low, high, pvalue = inference.two_proportions(300, 1000, 330, 1000)
    assert low < 0.03 < high
    assert low < 0 < high and pvalue > 0.05  # not distinguishable at n = 1000
    table = [[300, 330], [700, 670]]
    chi2 = sps.chi2_contingency(table, correction=False)
    assert pvalue == pytest.approx(chi2.pvalue)


def test_two_proportions_coverage_simulation():
    # 2000 replications of n = 200 per group, p1 = 0.3, p2 = 0.4. If coverage
    # is exactly 0.95, the number covering is Binomial(2000, 0.95) with
    # sd = sqrt(2000·0.95·0.05) ≈ 9.7, so a correct interval lands within
    # ±4 sd ≈ ±39 of 1900, i.e. coverage in [0.93, 0.97], essentially always.
    rng = np.random.default_rng(7)
    reps, n, p1, p2 = 2000, 200, 0.3, 0.4
    k1 = rng.binomial(n, p1, size=reps)
    k2 = rng.binomial(n, p2, size=reps)
    _, low, high, _ = inference.two_proportions(k1, n, k2, n)
    coverage = np.mean((low <= p2 - p1) & (p2 - p1 <= high))
    assert 0.93 <= coverage <= 0.97


def test_two_proportions_degenerate():
    for k in (0, 10):  # both never (0/10, 0/20) / both always (10/10, 20/20) win
        diff, low, high, pvalue = inference.two_proportions(k, 10, 2 * k, 20)
        assert diff == 0.0 and pvalue == 1.0
        assert low < 0 < high
    diff, low, high, pvalue = inference.two_proportions(0, 0, 5, 10)
    assert math.isnan(diff) and (low, high, pvalue) == (-1.0, 1.0, 1.0)
    # Opposite extremes are as different as possible.
    diff, low, high, pvalue = inference.two_proportions(0, 50, 50, 50)
    assert diff == 1.0 and pvalue < 1e-20 and -1 <= low < high <= 1


# --------------------------------------------------------------------------
# Means from running sums
# --------------------------------------------------------------------------


def test_mean_interval_matches_scipy_on_raw_data():
    rng = np.random.default_rng(99)
    x = rng.normal(10, 3, size=40)
    mean, low, high = inference.mean_interval(x.sum(), (x**2).sum(), x.size)
    expected = sps.t.interval(0.95, x.size - 1, loc=x.mean(), scale=sps.sem(x))
    assert mean == pytest.approx(x.mean())
    assert (low, high) == pytest.approx(expected)


def test_mean_interval_degenerate():
    mean, low, high = inference.mean_interval(7.0, 49.0, 1)
    assert mean == 7.0 and math.isnan(low) and math.isnan(high)
    assert math.isnan(inference.mean_interval(0, 0, 0)[0])
    # Constant values: zero spread, so the interval collapses on the mean.
    assert inference.mean_interval(15.0, 45.0, 5) == pytest.approx((3.0, 3.0, 3.0))
    # Vectorised over groups.
    means, lows, _ = inference.mean_interval([10.0, 7.0], [30.0, 49.0], [5, 1])
    assert means[0] == 2.0 and math.isnan(lows[1])


def test_two_means_matches_scipy_welch():
    rng = np.random.default_rng(3)
    a = rng.normal(0.0, 1.0, size=30)
    b = rng.normal(0.8, 2.0, size=45)
    diff, low, high, pvalue = inference.two_means(
        a.sum(), (a**2).sum(), a.size, b.sum(), (b**2).sum(), b.size
    )
    # SciPy reports mean(first) - mean(second); we report second - first.
    welch = sps.ttest_ind(b, a, equal_var=False)
    ci = welch.confidence_interval(0.95)
    assert diff == pytest.approx(b.mean() - a.mean())
    assert pvalue == pytest.approx(welch.pvalue)
    assert (low, high) == pytest.approx((ci.low, ci.high))


def test_two_means_degenerate():
    assert all(math.isnan(v) for v in inference.two_means(1, 1, 1, 2, 4, 1)[1:])
    # Zero spread in both groups: the comparison is exact.
    assert inference.two_means(6, 12, 3, 6, 12, 3) == (0.0, 0.0, 0.0, 1.0)
    assert inference.two_means(6, 12, 3, 9, 27, 3)[3] == 0.0


# --------------------------------------------------------------------------
# Sentences
# --------------------------------------------------------------------------


def test_format_p():
    assert inference.format_p(0.31) == "p = 0.31"
    assert inference.format_p(0.031) == "p = 0.031"
    assert inference.format_p(0.0004) == "p < 0.001"
    assert inference.format_p(1.0) == "p = 1"


def test_favoured_sentence_two_teams():
    # 412/1000: Wilson bounds ≈ 38.19% and 44.28% (see quadratic above);
    # human has 58.8%, 8.8 points over 50%; z ≈ 0.088/0.0158 ≈ 5.6.
    sentence = inference.favoured_sentence(["human", "wolf"], [588, 412], 1000)
    assert sentence == (
        "wolf wins 41.2% (95% CI 38.2–44.3%): "
        "human is favoured by 8.8 points over an even game (p < 0.001)."
    )


def test_favoured_sentence_no_side_favoured():
    # 495/1000: score z = 0.005/sqrt(0.25/1000) ≈ 0.32, p ≈ 0.75.
    sentence = inference.favoured_sentence(["human", "wolf"], [505, 495], 1000)
    z = 0.005 / math.sqrt(0.25 / 1000)
    assert sentence.endswith(
        f": no side is significantly favoured ({inference.format_p(2 * sps.norm.sf(z))})."
    )


def test_favoured_sentence_verdict_agrees_with_interval_and_p():
    # The score test is the dual of the Wilson interval, so "favoured" must
    # appear exactly when p < 0.05, across the boundary region.
    for wolf in range(440, 561, 3):
        sentence = inference.favoured_sentence(["human", "wolf"], [1000 - wolf, wolf], 1000)
        rate = inference.wilson(wolf, 1000)
        favoured = "is favoured" in sentence
        assert favoured == (not rate.low <= 0.5 <= rate.high)
        p = sps.chisquare([1000 - wolf, wolf]).pvalue
        assert favoured == (p < 0.05)


def test_favoured_sentence_draws_targets_and_many_teams():
    with_draws = inference.favoured_sentence(["human", "wolf"], [500, 412], 1000)
    assert "912 decided games" in with_draws
    # 412/912 = 45.2%, so human is 4.8 points over an even split.
    assert "human is favoured by 4.8 points" in with_draws

    targeted = inference.favoured_sentence(["human", "wolf"], [588, 412], 1000, [0.55, 0.45])
    # Wolf's target is 45%, observed 41.2%: human is 3.8 points over its 55%.
    assert "human is favoured by 3.8 points over its target of 55.0%" in targeted

    three = inference.favoured_sentence(["a", "b", "c"], [380, 320, 300], 1000)
    # Largest rate 38.0% vs an equal share of 33.3%: 4.7 points.
    assert three.startswith("a wins 38.0%")
    assert "4.7 points over an equal share of 33.3%" in three
    even = inference.favoured_sentence(["a", "b", "c"], [334, 333, 333], 1000)
    assert "no side is significantly favoured" in even
    assert "No game has been won" in inference.favoured_sentence(["a", "b"], [0, 0], 3)


# --------------------------------------------------------------------------
# Rates over seat-games with the game as the unit
# --------------------------------------------------------------------------


def moments_of(y, x):
    """GameMoments of per-game contributions y_g (successes) and x_g (trials)."""
    y, x = np.asarray(y, dtype=float), np.asarray(x, dtype=float)
    return inference.GameMoments(y.sum(), x.sum(), (y * y).sum(), (x * y).sum(), (x * x).sum(),
                             len(y))


def test_team_mates_winning_together_are_worth_one_trial_a_game():
    # G games, m team-mates per game who all win or all lose: y_g = m b_g, x_g = m. Then
    # sum (y_g - p x_g)^2 = m^2 sum (b_g - p)^2 = m^2 G p (1 - p), and
    # Var = G/(G-1) m^2 G p(1-p) / (m G)^2 = p(1-p)/(G-1): n_eff = G - 1, whatever m is.
    rng = np.random.default_rng(1)
    for m in (1, 3, 7):
        won = rng.random(500) < 0.3
        rate = inference.clustered_rate(moments_of(m * won, np.full(500, m)))
        assert rate.effective_trials == pytest.approx(499)
        assert rate.design_effect == pytest.approx(500 * m / 499)
        low, high = inference.wilson_bounds(rate.value * 499, 499)
        assert (rate.low, rate.high) == pytest.approx((float(low), float(high)))


def test_rivals_of_an_individual_game_have_a_fixed_share():
    # Five seats playing one strategy: exactly one of them wins each game, the share is 1/5 in
    # every game, so the rate has no variance.
    rate = inference.clustered_rate(moments_of(np.ones(100), np.full(100, 5)))
    assert rate.value == 0.2 and rate.low == rate.high == 0.2


def test_a_rate_of_zero_uses_the_worth_of_perfectly_correlated_seat_games():
    # x_g = 2 in every game: (sum x)^2 / sum x^2 = (2G)^2 / (4G) = G independent trials.
    rate = inference.clustered_rate(moments_of(np.zeros(400), np.full(400, 2)))
    assert rate.effective_trials == 400
    assert (rate.low, rate.high) == pytest.approx(tuple(map(float, inference.wilson_bounds(0, 400))))


def test_clustered_intervals_cover_at_their_level():
    # 400 replicate runs of 300 games, four team-mates who win together with p = 0.4: the 95%
    # interval must cover 0.4 in at least the share a binomial(400, 0.95) exceeds with
    # probability 0.999 (seat-game Wilson intervals, half as wide, cover far less).
    rng = np.random.default_rng(7)
    covered = naive = 0
    for _ in range(400):
        won = rng.random(300) < 0.4
        rate = inference.clustered_rate(moments_of(4 * won, np.full(300, 4)))
        covered += rate.low <= 0.4 <= rate.high
        seat_games = inference.wilson(int(4 * won.sum()), 1200)
        naive += seat_games.low <= 0.4 <= seat_games.high
    floor = sps.binom.ppf(0.001, 400, 0.95)
    assert covered >= floor
    assert naive < floor  # the seat-game interval is too narrow: why this exists


def test_clustered_mean_is_a_t_interval_on_game_totals():
    # With one value per game (x_g = 1) the ratio is the plain mean and
    # Var = G/(G-1) sum (y - mean)^2 / G^2 = s^2 / G: the usual t interval.
    rng = np.random.default_rng(3)
    values = rng.integers(0, 30, 50).astype(float)
    mean, low, high = inference.clustered_mean(moments_of(values, np.ones(50)))
    reference = inference.mean_interval(values.sum(), (values ** 2).sum(), 50)
    assert (mean, low, high) == pytest.approx(reference)


def test_two_clustered_runs_compare_with_both_game_level_variances():
    a = moments_of(3 * (np.arange(200) % 2), np.full(200, 3))         # exactly half
    b = moments_of(3 * (np.arange(200) % 4 == 0), np.full(200, 3))    # a quarter
    diff, low, high, p = inference.two_clustered(a, b)
    se = math.sqrt(a.variance() + b.variance())
    assert diff == pytest.approx(-0.25)
    assert (low, high) == pytest.approx((diff - Z95 * se, diff + Z95 * se))
    assert p == pytest.approx(2 * sps.norm.sf(0.25 / se))
    assert inference.two_clustered(a, a)[3] == pytest.approx(1.0)
