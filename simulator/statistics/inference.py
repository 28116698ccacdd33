"""Statistics for reading simulation results.

Every number a report shows about balance goes through this module: win rates
with confidence intervals, tests of whether a side, team or seat is favoured,
corrections for testing many things at once, and how many more games would be
needed for a sharper answer.

SciPy is used wherever it provides the procedure; only the Wilson interval,
the Holm correction and the Newcombe difference interval are written here.
Conventions:

* ``confidence`` is a two-sided level in (0, 1), e.g. 0.95.
* Differences are always "second minus first" (``p2 - p1``, ``mean2 - mean1``).
* Zero trials never raise: a rate is ``nan`` and its interval is the
  know-nothing interval (0, 1); a test with no data has p = 1.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
from scipy import stats as sps

__all__ = [
    "Rate",
    "Test",
    "GameMoments",
    "clustered_rate",
    "clustered_mean",
    "two_clustered",
    "wilson",
    "wilson_bounds",
    "clopper_pearson",
    "holm",
    "holm_adjust",
    "balance_test",
    "team_balance",
    "seat_fairness",
    "individual_fairness",
    "simultaneous_rates",
    "games_needed",
    "games_to_halve",
    "two_proportions",
    "mean_interval",
    "two_means",
    "format_p",
    "favoured_sentence",
]

# Below this a p-value is shown as "p < 0.001": finer digits are noise in a
# simulation whose own Monte Carlo error is larger than that.
_SMALLEST_SHOWN_P = 0.001


# --------------------------------------------------------------------------
# Result types
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Rate:
    """A proportion ``successes / trials`` with a confidence interval.

    ``effective_trials`` is what the interval is worth in independent trials: the trials
    themselves for independent ones (games), fewer for seat-games that win together (team-mates),
    more for seat-games that exclude each other (rivals of an individual game); see
    :func:`clustered_rate`.
    """

    successes: int
    trials: int
    low: float
    high: float
    confidence: float
    effective_trials: float | None = None
    # what the interval is when it is not a plain one at `confidence` (after a sequential stop:
    # "95% CI at the stop", "repeated 95% CI"); the table prints it in place of "95% CI"
    label: str = ""

    @property
    def design_effect(self) -> float:
        """Variance against independent trials: 1 for games, above 1 for team-mates."""
        if not self.effective_trials or not self.trials:
            return 1.0
        return self.trials / self.effective_trials

    @property
    def value(self) -> float:
        """Observed proportion; ``nan`` when there were no trials."""
        return self.successes / self.trials if self.trials else math.nan

    @property
    def half_width(self) -> float:
        """Half the interval's width: the "plus or minus" of the estimate."""
        return (self.high - self.low) / 2

    def format(self, digits: int = 1) -> str:
        """Render as e.g. ``"41.2% (95% CI 40.9–41.5%)"``."""
        name = self.label or _confidence_label(self.confidence) + "% CI"
        if not self.trials:
            return f"n/a (no trials; {name} 0–100%)"
        return (
            f"{100 * self.value:.{digits}f}% ({name} "
            f"{100 * self.low:.{digits}f}–{100 * self.high:.{digits}f}%)"
        )


@dataclass(frozen=True)
class Test:
    """Outcome of a hypothesis test.

    ``adjusted_pvalue`` is set when the test is one of a family corrected for
    multiple comparisons (see :func:`holm_adjust`); decisions then use it.
    """

    # The class name starts with "Test"; tell pytest it is not a test case.
    __test__ = False

    name: str
    statistic: float
    pvalue: float
    adjusted_pvalue: float | None = None
    method: str = ""  # the statistical test, e.g. "exact binomial test vs 50%"

    def significant(self, alpha: float = 0.05) -> bool:
        """True when the (adjusted, if present) p-value is below ``alpha``."""
        p = self.pvalue if self.adjusted_pvalue is None else self.adjusted_pvalue
        return p < alpha


# --------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------


def _z(confidence: float) -> float:
    """Two-sided standard normal critical value, e.g. 1.96 for 0.95."""
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    return float(sps.norm.ppf(0.5 + confidence / 2))


def _confidence_label(confidence: float) -> str:
    """Percent label: 0.95 -> "95", 0.999 -> "99.9", 0.99833 -> "99.83"."""
    return f"{100 * confidence:.4g}"


def _check_counts(successes: np.ndarray, trials: np.ndarray) -> None:
    """Reject negative counts, successes above trials, and NaNs."""
    if np.isnan(successes).any() or np.isnan(trials).any():
        raise ValueError("counts must not be NaN")
    if (trials < 0).any() or (successes < 0).any():
        raise ValueError("counts must be non-negative")
    if (successes > trials).any():
        raise ValueError("successes cannot exceed trials")


def _as_count(x, what: str) -> int:
    """Convert an integral number (Python or NumPy) to int, or raise."""
    value = float(x)
    if not value.is_integer():
        raise ValueError(f"{what} must be a whole number, got {x!r}")
    return int(value)


def _scalar_or_array(x: np.ndarray):
    """Return a Python float for 0-d results, the array otherwise."""
    return float(x) if np.ndim(x) == 0 else x


def _target_shares(targets, k: int) -> np.ndarray:
    """Normalise per-team targets to proportions summing to 1 (default equal).

    Targets describe the split of *decided* games, so any weights are accepted
    and rescaled: ``[2, 1, 1]`` means 50% / 25% / 25%.
    """
    if targets is None:
        return np.full(k, 1.0 / k)
    shares = np.asarray(targets, dtype=float)
    if shares.shape != (k,):
        raise ValueError(f"need one target per team ({k}), got shape {shares.shape}")
    if not (shares > 0).all() or not np.isfinite(shares).all():
        raise ValueError("targets must be positive and finite")
    return shares / shares.sum()


# --------------------------------------------------------------------------
# Intervals for one proportion
# --------------------------------------------------------------------------


def wilson_bounds(successes, trials, confidence: float = 0.95, critical: float | None = None):
    """Vectorised Wilson score interval; returns ``(low, high)`` arrays.

    The Wilson interval is the set of p not rejected by the score test; unlike
    the textbook ``p ± z·se`` it stays inside [0, 1] and keeps close to its
    nominal coverage near 0 and 1, where balance questions often sit.
    ``successes`` may be fractional (e.g. an expected count ``rate * n``).
    Zero trials give (0, 1). ``critical``, when given, is the interval's z in place of
    ``confidence``'s (a repeated confidence interval's, which may be beyond what a level
    written as a float can say).
    """
    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    _check_counts(k, n)
    z2 = (_z(confidence) if critical is None else float(critical)) ** 2
    with np.errstate(divide="ignore", invalid="ignore"):
        # Closed form multiplied through by n:
        #   centre = (k + z²/2) / (n + z²)
        #   half   = z · sqrt(k(n - k)/n + z²/4) / (n + z²)
        centre = (k + z2 / 2) / (n + z2)
        half = np.sqrt(z2 * (k * (n - k) / n + z2 / 4)) / (n + z2)
    empty = n == 0
    low = np.where(empty | (k == 0), 0.0, np.clip(centre - half, 0.0, 1.0))
    high = np.where(empty | (k == n), 1.0, np.clip(centre + half, 0.0, 1.0))
    return low, high


def wilson(successes, trials, confidence: float = 0.95) -> Rate:
    """Wilson score interval for one proportion (the default everywhere)."""
    k, n = _as_count(successes, "successes"), _as_count(trials, "trials")
    low, high = wilson_bounds(k, n, confidence)
    return Rate(k, n, float(low), float(high), confidence)


def clopper_pearson(successes, trials, confidence: float = 0.95) -> Rate:
    """Exact (Clopper–Pearson) interval from beta quantiles.

    Guaranteed coverage of at least ``confidence`` for every true rate, at the
    cost of being wider than Wilson; use it when a bound must never be
    optimistic.
    """
    k, n = _as_count(successes, "successes"), _as_count(trials, "trials")
    _check_counts(np.asarray(k, float), np.asarray(n, float))
    tail = (1 - confidence) / 2
    _z(confidence)  # validates confidence
    low = 0.0 if k == 0 else float(sps.beta.ppf(tail, k, n - k + 1))
    high = 1.0 if k == n else float(sps.beta.ppf(1 - tail, k + 1, n - k))
    return Rate(k, n, low, high, confidence)


# --------------------------------------------------------------------------
# Rates and means over seat-games: the game is the unit
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class GameMoments:
    """Per-game sums of a ratio Y/X over G games: what its game-level variance needs.

    ``y`` and ``x`` are the totals (wins and seat-games of a role, say), ``yy``, ``xy`` and
    ``xx`` the sums over games of y_g², x_g·y_g and x_g², where y_g and x_g are one game's
    contributions. The engine keeps them for every tally declared `per` seat-games.
    """

    y: float
    x: float
    yy: float
    xy: float
    xx: float
    games: int

    @property
    def ratio(self) -> float:
        return self.y / self.x if self.x else math.nan

    def variance(self) -> float:
        """The ratio estimator's variance with the game as the unit (linearisation, the
        cluster-robust "sandwich" variance): G/(G-1) · Σ_g (y_g - r x_g)² / X²."""
        if self.games < 2 or not self.x:
            return math.nan
        r = self.ratio
        spread = self.yy - 2 * r * self.xy + r * r * self.xx
        if spread <= 1e-12 * max(self.yy, r * r * self.xx):  # zero, up to rounding
            spread = 0.0
        return self.games / (self.games - 1) * spread / (self.x * self.x)

    def independent_clusters(self) -> float:
        """(Σx)²/Σx²: the number of independent trials when every seat-game of a game has the
        same outcome (the most a game's seat-games can be worth together)."""
        return self.x * self.x / self.xx if self.xx else 0.0


def clustered_rate(moments: GameMoments, confidence: float = 0.95) -> Rate:
    """A win rate over seat-games (a role, a strategy) with the game as the unit.

    All villagers of a game win or lose together, so their seat-games are not independent
    trials: the rate's variance is the ratio estimator's game-level variance
    (:meth:`GameMoments.variance`). The interval is Wilson's at the *effective* number of trials
    n_eff = p(1-p) / Var(p), so it stays inside [0, 1]; when the rate is 0 or 1 (no spread to
    measure) n_eff is the seat-games' worth under perfect correlation, (Σx)²/Σx². A ratio that
    is the same in every game (one winner among five seats of one strategy) has no variance: its
    interval is the point itself.
    """
    k, n = _as_count(moments.y, "successes"), _as_count(moments.x, "trials")
    _check_counts(np.asarray(k, float), np.asarray(n, float))
    if n == 0:
        return Rate(k, n, 0.0, 1.0, confidence, 0.0)
    p = k / n
    variance = moments.variance()
    if 0 < p < 1 and variance == 0:  # the same share every game (one winner among rivals)
        return Rate(k, n, p, p, confidence, math.inf)
    if 0 < p < 1 and variance > 0:
        effective = p * (1 - p) / variance
    else:  # no spread to measure (p = 0 or 1), or a single game
        effective = moments.independent_clusters() or float(n)
    low, high = wilson_bounds(p * effective, effective, confidence)
    return Rate(k, n, float(low), float(high), confidence, float(effective))


def clustered_mean(moments: GameMoments, confidence: float = 0.95):
    """A mean over seat-games (a role's score, say) with the game as the unit:
    ``(mean, low, high)``, a Student-t interval with G - 1 degrees of freedom on the ratio
    estimator's game-level variance."""
    mean = moments.ratio
    variance = moments.variance()
    if not math.isfinite(variance):
        return mean, math.nan, math.nan
    half = float(sps.t.ppf(0.5 + confidence / 2, moments.games - 1)) * math.sqrt(variance)
    return mean, mean - half, mean + half


def two_clustered(first: GameMoments, second: GameMoments, confidence: float = 0.95):
    """Compare a ratio between two runs: ``(second - first, low, high, p)`` with each run's
    game-level variance (a two-sided z-test; the runs' games are independent). With no spread in
    either run, equal ratios give p = 1 and different ones p = 0."""
    diff = second.ratio - first.ratio
    variances = [first.variance(), second.variance()]
    if not all(math.isfinite(v) for v in variances):
        return diff, math.nan, math.nan, math.nan
    se = math.sqrt(sum(variances))
    if se == 0:
        return diff, diff, diff, 1.0 if diff == 0 else 0.0
    half = _z(confidence) * se
    return diff, diff - half, diff + half, float(2 * sps.norm.sf(abs(diff) / se))


# --------------------------------------------------------------------------
# Multiple comparisons
# --------------------------------------------------------------------------


def holm(pvalues) -> np.ndarray:
    """Holm–Bonferroni adjusted p-values, in the input order.

    Sorted ascending, the i-th smallest (0-based) p is multiplied by
    ``m - i``; a running maximum keeps the adjusted values in the same order
    as the raw ones, and they are capped at 1. Rejecting where
    ``adjusted < alpha`` controls the family-wise error rate at ``alpha``.
    """
    p = np.asarray(pvalues, dtype=float).ravel()
    if np.isnan(p).any() or (p < 0).any() or (p > 1).any():
        raise ValueError("p-values must lie in [0, 1]")
    m = p.size
    order = np.argsort(p, kind="stable")
    scaled = (m - np.arange(m)) * p[order]
    adjusted = np.empty(m)
    adjusted[order] = np.minimum(1.0, np.maximum.accumulate(scaled))
    return adjusted


def holm_adjust(tests: Sequence[Test]) -> list[Test]:
    """Return copies of ``tests`` with ``adjusted_pvalue`` set by Holm."""
    adjusted = holm([t.pvalue for t in tests])
    return [replace(t, adjusted_pvalue=float(a)) for t, a in zip(tests, adjusted)]


# --------------------------------------------------------------------------
# Balance tests
# --------------------------------------------------------------------------


def balance_test(wins, games, target: float = 0.5) -> Test:
    """Exact two-sided binomial test of one side's wins against ``target``.

    The statistic is the observed win rate. No games gives p = 1.
    """
    k, n = _as_count(wins, "wins"), _as_count(games, "games")
    _check_counts(np.asarray(k, float), np.asarray(n, float))
    name = f"exact binomial test vs {100 * target:g}%"
    if n == 0:
        return Test(name, math.nan, 1.0)
    result = sps.binomtest(k, n, target, alternative="two-sided")
    return Test(name, float(result.statistic), float(result.pvalue))


def team_balance(team_wins, games, targets=None) -> Test:
    """Do the teams win in the proportions ``targets`` (default: equally)?

    Only decided games are tested: draws (``games - sum(team_wins)``) carry
    no information about which side is stronger, and ``targets`` are read as
    the intended split of decided games (rescaled to sum to 1).

    Two teams without targets use the exact binomial test of team 0 against
    50%; otherwise a chi-square goodness-of-fit test.
    """
    wins = np.asarray(team_wins, dtype=float)
    if wins.ndim != 1 or wins.size < 2:
        raise ValueError("need win counts for at least two teams")
    decided = wins.sum()
    _check_counts(np.asarray(decided), np.asarray(float(games)))
    _check_counts(wins, np.full_like(wins, decided))
    k = wins.size
    if k == 2 and targets is None:
        return balance_test(wins[0], decided, 0.5)
    shares = _target_shares(targets, k)
    name = f"chi-square goodness of fit ({k} teams)"
    if decided == 0:
        return Test(name, 0.0, 1.0)
    result = sps.chisquare(wins, decided * shares)
    return Test(name, float(result.statistic), float(result.pvalue))


def seat_fairness(seat_wins, seat_games) -> Test:
    """Chi-square test that every seat (turn position) wins at the same rate.

    Builds the 2 × n table of wins and losses per seat and tests homogeneity
    (no continuity correction: with the game counts of a simulation it only
    costs power). Seats with no games are left out. When fewer than two seats
    remain, or every seat always wins or always loses, there is nothing to
    compare: statistic 0, p = 1.
    """
    wins = np.asarray(seat_wins, dtype=float)
    played = np.asarray(seat_games, dtype=float)
    if wins.shape != played.shape or wins.ndim != 1:
        raise ValueError("seat_wins and seat_games must be 1-d and the same length")
    _check_counts(wins, played)
    name = f"chi-square homogeneity of seat win rates ({wins.size} seats)"
    keep = played > 0
    wins, played = wins[keep], played[keep]
    losses = played - wins
    if wins.size < 2 or wins.sum() == 0 or losses.sum() == 0:
        return Test(name, 0.0, 1.0)
    result = sps.chi2_contingency(np.vstack([wins, losses]), correction=False)
    return Test(name, float(result.statistic), float(result.pvalue))


def individual_fairness(seat_wins, games) -> Test:
    """Chi-square test that each of n seats wins 1/n of single-winner games.

    Games without a winner (``games - sum(seat_wins)``) are left out, as in
    :func:`team_balance`.
    """
    wins = np.asarray(seat_wins, dtype=float)
    if wins.ndim != 1 or wins.size < 2:
        raise ValueError("need win counts for at least two seats")
    decided = wins.sum()
    _check_counts(np.asarray(decided), np.asarray(float(games)))
    _check_counts(wins, np.full_like(wins, decided))
    name = f"chi-square goodness of fit ({wins.size} seats, equal shares)"
    if decided == 0:
        return Test(name, 0.0, 1.0)
    result = sps.chisquare(wins, np.full(wins.size, decided / wins.size))
    return Test(name, float(result.statistic), float(result.pvalue))


# --------------------------------------------------------------------------
# Many rates at once
# --------------------------------------------------------------------------


def simultaneous_rates(successes, trials, confidence: float = 0.99) -> list[Rate]:
    """Wilson intervals that all hold together with probability ``confidence``.

    Each of the m intervals is built at ``1 - (1 - confidence) / m``; by the
    union bound the chance that any misses is at most ``1 - confidence``.
    This is the Bonferroni level, which is also the first (strictest) step of
    Holm's step-down procedure. Holm's later, looser steps apply only to tests
    that are rejected in order; intervals have no such order, so the first
    step's level is the one that makes them simultaneous.
    """
    ks = np.asarray(successes).ravel()
    ns = np.asarray(trials).ravel()
    if ks.shape != ns.shape:
        raise ValueError("successes and trials must have the same length")
    m = ks.size
    if m == 0:
        return []
    _z(confidence)  # validates confidence
    each = 1 - (1 - confidence) / m
    return [wilson(k, n, each) for k, n in zip(ks, ns)]


# --------------------------------------------------------------------------
# Planning: how many games?
# --------------------------------------------------------------------------


def _wilson_half_width(rate: float, n: int, z: float) -> float:
    """Wilson half-width if a fraction ``rate`` of ``n`` trials succeed."""
    return z * math.sqrt(rate * (1 - rate) * n + z * z / 4) / (n + z * z)


def _smallest_n(rate: float, half_width: float, z: float) -> int:
    """Smallest n >= 1 whose Wilson half-width at ``rate`` is <= half_width.

    The half-width falls monotonically with n for every rate in [0, 1], so
    bracket the answer around the normal approximation z² p(1-p) / h² and
    bisect.
    """
    def fits(n: int) -> bool:
        return _wilson_half_width(rate, n, z) <= half_width

    guess = max(1, math.ceil(z * z * rate * (1 - rate) / half_width**2))
    if fits(guess):
        hi = guess
        lo = guess // 2
        while lo >= 1 and fits(lo):
            hi, lo = lo, lo // 2
        if lo < 1:
            return hi  # hi == 1
    else:
        lo = guess
        hi = 2 * guess
        while not fits(hi):
            lo, hi = hi, 2 * hi
    # Invariant: fits(hi) and not fits(lo).
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if fits(mid):
            hi = mid
        else:
            lo = mid
    return hi


def games_needed(rate, half_width: float, confidence: float = 0.95) -> int:
    """Games needed for a Wilson half-width of at most ``half_width``.

    ``rate`` is the expected win rate; when it is unknown (None, NaN) or not
    strictly between 0 and 1, 0.5 is used, which needs the most games.
    """
    if not half_width > 0:
        raise ValueError("half_width must be positive")
    z = _z(confidence)
    if rate is None or not 0 < float(rate) < 1:  # NaN fails the comparison too
        rate = 0.5
    return _smallest_n(float(rate), half_width, z)


def games_to_halve(successes, trials, confidence: float = 0.95) -> int:
    """Total games after which the current Wilson half-width would be halved.

    Assumes the observed rate holds; that includes a rate of exactly 0 or 1,
    whose interval narrows faster than a mid-range one. With no trials the
    rate is unknown and 0.5 is assumed. Roughly four times ``trials``.
    """
    current = wilson(successes, trials, confidence)
    rate = current.value if current.trials else 0.5
    return _smallest_n(rate, current.half_width / 2, _z(confidence))


def games_to_halve_rate(rate: Rate, games: int) -> int:
    """Games after which a rate's interval would be half as wide, the observed rate holding.

    The rate may count games or seat-games: its interval is worth `effective_trials` independent
    trials now (`trials` when that is not set), and those grow in proportion to the games.
    """
    effective = rate.effective_trials if rate.effective_trials is not None else rate.trials
    if not effective or not games:
        return games_needed(0.5, 0.25, rate.confidence)
    if math.isinf(effective) or rate.half_width == 0:
        return int(games)  # no spread at all: more games change nothing
    p = rate.value if 0 < rate.value < 1 else (0.5 if not rate.trials else rate.value)
    needed = _smallest_n(p, rate.half_width / 2, _z(rate.confidence))
    return math.ceil(needed * games / effective)


# --------------------------------------------------------------------------
# Comparing two groups
# --------------------------------------------------------------------------


def two_proportions(k1, n1, k2, n2, confidence: float = 0.95):
    """Compare two win rates: ``(p2 - p1, low, high, pvalue)``.

    Interval: Newcombe's hybrid score interval (method 10 of Newcombe 1998),
    which combines the two Wilson intervals. It inherits Wilson's good
    coverage and stays inside [-1, 1], unlike the Wald interval.

    p-value: two-sided pooled two-proportion z-test, the usual test of equal
    rates (its square is the 2 × 2 chi-square statistic). The two are not
    exact duals, so right at the 5% edge they can disagree.

    Degenerate cases: if both rates are equal and 0 or 1 there is no
    variation to test and p = 1; if either group has no trials the
    difference is NaN, the interval (-1, 1) and p = 1. Arrays are accepted
    and broadcast.
    """
    k1, n1, k2, n2 = (np.asarray(x, dtype=float) for x in (k1, n1, k2, n2))
    l1, u1 = wilson_bounds(k1, n1, confidence)
    l2, u2 = wilson_bounds(k2, n2, confidence)
    empty = (n1 == 0) | (n2 == 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        p1, p2 = k1 / n1, k2 / n2
        diff = p2 - p1
        low = diff - np.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2)
        high = diff + np.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)
        pooled = (k1 + k2) / (n1 + n2)
        se = np.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
        pvalue = 2 * sps.norm.sf(np.abs(diff) / se)
    no_variation = (pooled == 0) | (pooled == 1)
    pvalue = np.where(empty | no_variation, 1.0, pvalue)
    low = np.where(empty, -1.0, low)
    high = np.where(empty, 1.0, high)
    return tuple(_scalar_or_array(x) for x in (diff, low, high, pvalue))


def mean_interval(total, total_sq, n, confidence: float = 0.95, critical: float | None = None):
    """Student-t interval for a mean from running sums: ``(mean, low, high)``.

    ``total`` is the sum of the values and ``total_sq`` the sum of their
    squares, so scores can be accumulated without storing every game. With
    fewer than two values there is no spread estimate: ``(mean, nan, nan)``.
    Arrays are accepted and broadcast. ``critical``, when given, is the
    interval's multiple of the standard error in place of the t quantile
    (a repeated confidence interval's z).
    """
    total, total_sq, n = (np.asarray(x, dtype=float) for x in (total, total_sq, n))
    _z(confidence)  # validates confidence
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = total / n
        # Rounding can push a zero variance slightly negative; clamp at 0.
        var = np.maximum(total_sq - total * mean, 0.0) / (n - 1)
        sem = np.sqrt(var / n)
        t_crit = sps.t.ppf(0.5 + confidence / 2, n - 1) if critical is None else critical
        low = np.where(n >= 2, mean - t_crit * sem, np.nan)
        high = np.where(n >= 2, mean + t_crit * sem, np.nan)
    mean = np.where(n > 0, mean, np.nan)
    return tuple(_scalar_or_array(x) for x in (mean, low, high))


def two_means(sum1, sq1, n1, sum2, sq2, n2, confidence: float = 0.95):
    """Welch t comparison from running sums: ``(mean2 - mean1, low, high, p)``.

    Welch's test does not assume equal variances, which rarely hold between
    different strategies or setups. If either group has fewer than two values
    the interval and p are NaN. If both groups have zero spread the result is
    exact: p = 1 when the means are equal, 0 otherwise.
    """
    n1, n2 = float(n1), float(n2)
    mean1 = float(sum1) / n1 if n1 else math.nan
    mean2 = float(sum2) / n2 if n2 else math.nan
    diff = mean2 - mean1
    if n1 < 2 or n2 < 2:
        return diff, math.nan, math.nan, math.nan
    # Sample variances; rounding can push a zero variance below 0.
    var1 = max(float(sq1) - float(sum1) * mean1, 0.0) / (n1 - 1)
    var2 = max(float(sq2) - float(sum2) * mean2, 0.0) / (n2 - 1)
    a, b = var1 / n1, var2 / n2
    se = math.sqrt(a + b)
    if se == 0:
        return diff, diff, diff, 1.0 if diff == 0 else 0.0
    # Welch–Satterthwaite degrees of freedom (SciPy does not return them
    # from summary statistics).
    df = (a + b) ** 2 / (a * a / (n1 - 1) + b * b / (n2 - 1))
    t_crit = float(sps.t.ppf(0.5 + confidence / 2, df))
    result = sps.ttest_ind_from_stats(
        mean2, math.sqrt(var2), n2, mean1, math.sqrt(var1), n1, equal_var=False
    )
    return diff, diff - t_crit * se, diff + t_crit * se, float(result.pvalue)


# --------------------------------------------------------------------------
# Words for designers
# --------------------------------------------------------------------------


def format_p(p: float) -> str:
    """Two significant figures, floored at "p < 0.001": "p = 0.031"."""
    if math.isnan(p):
        return "p = n/a"
    if p < _SMALLEST_SHOWN_P:
        return f"p < {_SMALLEST_SHOWN_P:g}"
    return f"p = {p:.2g}"


def favoured_sentence(
    team_names: Sequence[str],
    team_wins,
    games,
    target=None,
    confidence: float = 0.95,
) -> str:
    """One plain sentence saying whether, and by how much, a side is favoured.

    ``target`` gives each team's intended share of decided games (default:
    equal). Rates are of decided games; draws are mentioned when present.

    Two teams: the second team's rate is reported, so that repeated runs of
    the same game read the same way. A side is called favoured when the
    Wilson interval excludes its target; the p-value shown is the score test
    (chi-square goodness of fit), the exact dual of the Wilson interval, so
    the verdict and the p-value always agree.

    More teams: the team furthest above its target share (with equal targets,
    the most winning team) is reported, and the verdict follows the overall
    chi-square test of :func:`team_balance`.
    """
    names = list(team_names)
    wins = np.asarray(team_wins, dtype=float)
    k = wins.size
    if k < 2 or len(names) != k:
        raise ValueError("need one name per team and at least two teams")
    decided = int(wins.sum())
    _check_counts(np.asarray(float(decided)), np.asarray(float(games)))
    if decided == 0:
        return "No game has been won yet, so no side can be called favoured."
    shares = _target_shares(target, k)
    draws = int(games) - decided
    scope = f" of {decided} decided games ({draws} without a winner)" if draws else ""

    if k == 2:
        shown = 1
        rate = wilson(wins[shown], decided, confidence)
        pvalue = float(sps.chisquare(wins, decided * shares).pvalue)
        significant = not rate.low <= shares[shown] <= rate.high
        favoured = shown if rate.value > shares[shown] else 1 - shown
    else:
        shown = favoured = int(np.argmax(wins / decided - shares))
        rate = wilson(wins[shown], decided, confidence)
        pvalue = team_balance(wins, decided, target).pvalue
        significant = pvalue < 1 - confidence

    if not significant:
        verdict = "no side is significantly favoured"
    else:
        excess = abs(rate.value - shares[shown])
        if target is None:
            baseline = "an even game" if k == 2 else f"an equal share of {shares[0]:.1%}"
        else:
            baseline = f"its target of {shares[favoured]:.1%}"
        verdict = f"{names[favoured]} is favoured by {100 * excess:.1f} points over {baseline}"
    return f"{names[shown]} wins {rate.format()}{scope}: {verdict} ({format_p(pvalue)})."
