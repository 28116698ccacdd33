"""A group-sequential test for the verdict: stop as soon as "balanced" or "unbalanced" is settled,
with its error rates controlled although the data are looked at after every chunk.

Looking at a fixed-sample verdict after every chunk and stopping at the first decision inflates
its error rate (each look is another chance to be fooled by noise). The remedy from the
clinical-trials literature is a *group-sequential design with an alpha-spending function*
(Lan & DeMets 1983, Biometrika 70:659): the looks are planned (here: every chunk boundary up to
`--max-games`, at information fractions t_k = n_k / N_max), and the one-sided error α is spent
over them as α(t), so that the probability of crossing the boundary at *any* look is α. Each look
k gets a critical value c_k such that, for a standardised statistic Z_k = B(t_k)/√t_k of a
Brownian motion B (the sum of the games' contributions, scaled):

    P(Z_1 < c_1, ..., Z_{k-1} < c_{k-1}, Z_k ≥ c_k) = α(t_k) − α(t_{k−1}).

The spending function is O'Brien–Fleming-like, α(t) = 2 − 2Φ(z_{1−α/2} / √t): almost nothing
is spent early (only an overwhelming difference stops a run after a few chunks), and the last
look's critical value stays close to the fixed-sample one. The c_k are computed by the recursive
numerical integration of Armitage, McPherson & Rowe (1969; Jennison & Turnbull 2000, ch. 19):
the sub-density of B on the continuation region is carried from look to look on a grid
(`boundaries`). Every c_k is at least the fixed-sample z_{1−α} (P(Z_k ≥ c_k) ≤ α(t_k) ≤ α), so a
sequential decision is also the fixed-sample verdict's decision at the stop.

The verdict's two questions, asked at look k with these critical values:

* balanced: every finding passes the equivalence test (TOST), |d| + c_k(α=5%)·se < tolerance.
  Declaring "balanced" when some finding is at or beyond the tolerance needs that finding's
  one-sided test to cross its boundary: probability at most 5% (an intersection-union test needs
  no correction across findings);
* unbalanced: some finding's interval at the level of c_k(α=2.5%) lies entirely beyond the
  tolerance (Wilson's interval at z = c_k, the game as the unit). Declaring "unbalanced" when a
  finding is within the tolerance has probability at most 2.5% for that finding.

These are the fixed-sample verdict's levels (the 90% and the 95% interval), held over all the
looks. `tests/test_adaptive.py` checks the error rates on Bernoulli games whose truth is known,
and that the naive repeated look (the fixed-sample verdict after every chunk) exceeds them.

After a stop, `decision_intervals` are the intervals the decision read (what the verdict
prints), and `stop_intervals` the 95% confidence interval at the stop of a finding that alone
decides the stop: the design's outcomes ordered by the estimate, their distribution carried by
the same recursive integration (`estimate_survival`) through the rule solved for the estimate
(`stop_bounds`).
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from scipy import fft, optimize, special
from scipy import stats as sps

# the design a --until-decided run asks for, stored with its rule (simulator.run.stopping)
from simulator.run.stopping import ALPHA_BALANCED, ALPHA_UNBALANCED, SPENDING

_GRID_SPAN = 9.0  # B(t) with t <= 1 lies within ±9 except with probability ~1e-19
_LARGE = 1e3  # a critical value where (next to) no error is spent: no decision at that look


def spent(t, alpha: float):
    """The one-sided error spent by information fraction t (0 < t <= 1): O'Brien–Fleming-like."""
    t = np.asarray(t, dtype=float)
    return 2.0 * sps.norm.sf(sps.norm.isf(alpha / 2) / np.sqrt(t))


def fractions(games_at_looks, max_games: int) -> tuple[float, ...]:
    """Information fractions of the planned looks (the games at each chunk boundary)."""
    return tuple(float(n) / float(max_games) for n in games_at_looks)


@lru_cache(maxsize=16)
def boundaries(fractions_: tuple[float, ...], alpha: float) -> np.ndarray:
    """Critical values c_k (z scale) of a one-sided group-sequential test at the looks
    `fractions_` (increasing, the last 1) with O'Brien–Fleming-like spending of `alpha`."""
    t = np.asarray(fractions_, dtype=float)
    if len(t) == 0 or np.any(np.diff(t) <= 0) or t[0] <= 0 or abs(t[-1] - 1) > 1e-12:
        raise ValueError("looks must be increasing information fractions ending at 1")
    increments = np.diff(np.concatenate([[0.0], spent(t, alpha)]))
    steps = np.sqrt(np.diff(np.concatenate([[0.0], t])))
    h = float(np.clip(steps.min() / 6, 2e-3, 0.01))
    x = np.arange(-_GRID_SPAN, _GRID_SPAN + h, h)
    critical = np.empty(len(t))
    density = None  # sub-density of B(t_{k-1}) on the grid, zero beyond the boundary
    for k, (tk, step, a) in enumerate(zip(t, steps, increments)):
        if density is None:  # B(t_1) ~ N(0, t_1)
            def crossing(b, tk=tk):
                return float(sps.norm.sf(b / math.sqrt(tk)))
        else:
            weights = density * h

            def crossing(b, weights=weights, step=step):
                return float(np.dot(weights, special.ndtr((x - b) / step)))
        if a <= 1e-300 or crossing(_LARGE * math.sqrt(tk)) >= a:
            b = _LARGE * math.sqrt(tk)
        else:
            b = optimize.brentq(lambda v: crossing(v) - a, -_GRID_SPAN, _LARGE * math.sqrt(tk),
                                xtol=1e-10)
        critical[k] = b / math.sqrt(tk)
        # carry the sub-density on to B(t_k), keeping only the paths that did not cross
        if density is None:
            density = sps.norm.pdf(x / math.sqrt(tk)) / math.sqrt(tk)
        elif step >= 2 * h:
            half = int(math.ceil(8 * step / h))
            kernel = sps.norm.pdf(np.arange(-half, half + 1) * h / step) * h / step
            density = np.convolve(density, kernel, mode="same")
        density = np.where(x < b, density, 0.0)
    return critical


def _wilson(p, n, z):
    """Wilson's interval at critical value z (arrays; n may be inf: the point itself)."""
    p, n, z = np.broadcast_arrays(np.asarray(p, float), np.asarray(n, float),
                                  np.asarray(z, float))
    with np.errstate(divide="ignore", invalid="ignore"):
        z2n = np.where(np.isinf(n), 0.0, z * z / n)
        centre = (p + z2n / 2) / (1 + z2n)
        half = z * np.sqrt(np.where(np.isinf(n), 0.0, p * (1 - p) / n + z * z / (4 * n * n))) \
            / (1 + z2n)
    return centre - half, centre + half


def decision_intervals(p, n_eff, c_balanced: float, c_unbalanced: float):
    """The two intervals a look's decision reads, for rates `p` at `n_eff` effective trials
    (arrays): the equivalence test's, p ± c_balanced·se ("balanced" when it lies inside the band
    for every finding), and Wilson's at c_unbalanced ("unbalanced" when it lies beyond the band
    for some finding). Returns (eq_low, eq_high, low, high)."""
    p, n_eff = np.asarray(p, float), np.asarray(n_eff, float)
    with np.errstate(divide="ignore", invalid="ignore"):
        se = np.where(np.isinf(n_eff), 0.0, np.sqrt(p * (1 - p) / n_eff))
    # no spread seen (p = 0 or 1): the fixed verdict's standard error from the interval's width
    low95, high95 = _wilson(p, n_eff, 1.959963984540054)
    se = np.where((se == 0) & ~np.isinf(n_eff) & ((p == 0) | (p == 1)),
                  (high95 - low95) / 2 / 1.959963984540054, se)
    low, high = _wilson(p, n_eff, c_unbalanced)
    return p - c_balanced * se, p + c_balanced * se, low, high


def status(p, n_eff, target, tolerance: float, c_balanced: float, c_unbalanced: float):
    """The sequential verdict of findings at one look (arrays over findings, or over
    replications of one finding: the last axis is the findings): returns (balanced, unbalanced)
    booleans over the leading axes. `p` is each rate, `n_eff` its effective trials (the game as
    the unit), `target` its fair share."""
    target = np.asarray(target, float)
    eq_low, eq_high, low, high = decision_intervals(p, n_eff, c_balanced, c_unbalanced)
    within = (eq_low > target - tolerance) & (eq_high < target + tolerance)
    beyond = (low > target + tolerance) | (high < target - tolerance)
    return np.all(within, axis=-1), np.any(beyond, axis=-1)


# --- the interval at the stop ------------------------------------------------------------------
def stop_bounds(n, target: float, tolerance: float, c_balanced, c_unbalanced):
    """Where one finding's estimate p̂ stops the run at looks with `n` effective trials (arrays
    over looks): (low, balanced_low, balanced_high, high). "Unbalanced" when p̂ < low or p̂ > high
    (Wilson's interval at c_unbalanced clears the band: p̂ beyond the band's edge q by
    c·√(q(1−q)/n), the score test that Wilson's interval inverts); "balanced" when
    balanced_low < p̂ < balanced_high (|p̂ − target| + c_balanced·√(p̂(1−p̂)/n) < tolerance; an
    empty interval when no estimate is close enough yet). The same rule as `status`, solved for
    p̂."""
    n, c_b, c_u = (np.asarray(v, float) for v in (n, c_balanced, c_unbalanced))
    edge_high, edge_low = target + tolerance, target - tolerance
    with np.errstate(invalid="ignore"):
        high = np.where(edge_high < 1, edge_high + c_u * np.sqrt(edge_high * (1 - edge_high) / n),
                        np.inf)
        low = np.where(edge_low > 0, edge_low - c_u * np.sqrt(edge_low * (1 - edge_low) / n),
                       -np.inf)
    # balanced: n(tolerance − |d|)² = c²·p(1 − p) with p = target ± |d|, a quadratic in |d|
    # on each side; its root in [0, tolerance) is where the equivalence test starts passing
    b_low, b_high = np.empty_like(n), np.empty_like(n)
    for sign, out in ((1.0, b_high), (-1.0, b_low)):
        q = target * (1 - target)
        slope = sign * (1 - 2 * target)  # d/d|d| of p(1 − p) at |d| = 0, on this side
        a = n + c_b ** 2
        b = -(2 * n * tolerance + c_b ** 2 * slope)
        c = n * tolerance ** 2 - c_b ** 2 * q
        disc = b * b - 4 * a * c
        with np.errstate(invalid="ignore"):
            root = (-b - np.sqrt(disc)) / (2 * a)  # the smaller root: the band's inner side
        ok = (disc >= 0) & (root > 0) & (root < tolerance) & (c > 0)
        out[:] = np.where(ok, target + sign * root, target)
    return low, b_low, b_high, high


_SPAN = 8.0  # B(t) of the centred walk lies within ±8 for t <= 1 but with probability ~1e-15


def _cell_share(x, h, low, high):
    """The share of each grid cell [x − h/2, x + h/2] inside (low, high) (broadcast)."""
    return np.clip((np.minimum(high, x + h / 2) - np.maximum(low, x - h / 2)) / h, 0.0, 1.0)


def estimate_survival(n, bounds, thetas, values) -> np.ndarray:
    """P_θ(p̂_T ≥ v) for each θ in `thetas` (rows) and v in `values` (columns): the chance that
    the estimate where the run stops is at least v, when the finding's true rate is θ and the
    run stops at the first look whose estimate is in the stopping region (`bounds`, from
    `stop_bounds`; every path stops at the last look).

    The estimate at look k is p̂_k = θ + σ·B(t_k)/(√N·t_k), σ² = θ(1 − θ), t_k = n_k/N, for a
    Brownian motion B (the games' sum, centred and scaled: the central limit theorem, as the
    test's boundaries assume). The sub-density of B on the paths still running is carried from
    look to look on a grid (Armitage, McPherson & Rowe 1969): convolved with the step's normal
    density, then cut to the continuation region, each cell weighed by its share inside (so the
    cut is exact to second order in the grid's step)."""
    n = np.asarray(n, float)
    thetas = np.atleast_1d(np.asarray(thetas, float))[:, None]  # thetas × grid
    values = np.atleast_1d(np.asarray(values, float))
    low, b_low, b_high, high = (np.asarray(v, float) for v in bounds)
    t = n / n[-1]
    steps = np.sqrt(np.diff(np.concatenate([[0.0], t])))
    h = float(np.clip(steps.min() / 6, 2e-3, 0.01))
    x = np.arange(-_SPAN, _SPAN + h / 2, h)[None, :]
    size = x.shape[1]
    sigma = np.sqrt(np.clip(thetas * (1 - thetas), 1e-12, None))
    survival = np.zeros((thetas.shape[0], len(values)))
    density = np.broadcast_to(sps.norm.pdf(x / math.sqrt(t[0])) / math.sqrt(t[0]),
                              (thetas.shape[0], size))
    spectra = {}  # the step's kernel, Fourier-transformed, by step (most steps are equal)
    rows = np.arange(thetas.shape[0])[:, None]
    for k in range(len(t)):
        if k and steps[k] >= 2 * h:
            step = float(steps[k])
            half = int(math.ceil(8 * step / h))
            length = fft.next_fast_len(size + 2 * half)
            if (step, length) not in spectra:
                kernel = sps.norm.pdf(np.arange(-half, half + 1) * h / step) * h / step
                spectra[(step, length)] = fft.rfft(kernel, length)
            density = fft.irfft(fft.rfft(density, length, axis=1) * spectra[(step, length)],
                                length, axis=1)[:, half:half + size]
        scale = n[k] / (sigma * math.sqrt(n[-1]))  # B per unit of p̂ − θ at this look
        if k == len(t) - 1:
            go = np.zeros_like(density)
        else:
            go = _cell_share(x, h, (low[k] - thetas) * scale, (high[k] - thetas) * scale)
            if b_low[k] < b_high[k]:  # the balanced region cuts the continuation in two
                go -= _cell_share(x, h, (b_low[k] - thetas) * scale,
                                  (b_high[k] - thetas) * scale)
        mass = density * (1.0 - go) * h  # where the paths that stop at this look stop
        # P(stop here, p̂ ≥ v): the mass from v's cell up, v's own cell shared linearly
        above = np.cumsum(mass[:, ::-1], axis=1)[:, ::-1]
        index = np.clip(((values[None, :] - thetas) * scale + _SPAN) / h + 0.5, 0,
                        size - 1e-9)
        cell = index.astype(int)
        survival += above[rows, cell] - (index - cell) * mass[rows, cell]
        density = density * go
    return np.clip(survival, 0.0, 1.0)  # sums of rounding errors below 0 or above 1


def stop_intervals(n, bounds, estimates, stop_trials, level: float = 0.95):
    """The confidence interval at the stop and the median-unbiased estimate of a finding whose
    run the sequential test stopped: (low, high, median) arrays over `estimates` (each the
    estimate where a run stopped, after `stop_trials` effective trials).

    The outcomes are ordered by the estimate itself (the sample-mean or MLE ordering: Emerson &
    Fleming 1990; Jennison & Turnbull 2000, §8.5): `low` is the rate θ under which an estimate at
    least as high as the one seen has probability (1 − level)/2, `high` the one under which an
    estimate at most as high has that probability, and `median` the one under which each has
    probability 1/2. P_θ(p̂_T ≥ v) rises with θ, so the set of rates not rejected is this
    interval, and it covers the true rate with probability `level` whatever look the run stops
    at (the stage-wise ordering of the literature needs continuation regions that are intervals;
    the balanced region in the middle splits ours in two)."""
    estimates = np.atleast_1d(np.asarray(estimates, float))
    stop_trials = np.broadcast_to(np.asarray(stop_trials, float), estimates.shape)
    tail = (1 - level) / 2
    targets = sps.norm.ppf([tail, 0.5, 1 - tail])  # probits of P(p̂_T >= estimate) at the roots
    # a grid of rates around the estimates, wide enough to hold every root: half a standard
    # error (at the stop) apart for many estimates, 1.5 for one (then refined around each root)
    se = np.sqrt(np.clip(estimates * (1 - estimates), 0.25 / stop_trials, None) / stop_trials)
    spacing = float(se.min()) * (0.5 if len(estimates) > 1 else 1.5)
    first, last = float(np.min(estimates - 6 * se)), float(np.max(estimates + 6 * se))
    while True:
        count = int(min(400, math.ceil((last - first) / spacing) + 1))
        thetas = np.linspace(max(first, 1e-6), min(last, 1 - 1e-6), count)
        probit = _probit(estimate_survival(n, bounds, thetas, estimates))  # thetas × estimates
        below, above = probit[0] > targets[0], probit[-1] < targets[-1]
        if not ((thetas[0] > 1e-6 and below.any()) or (thetas[-1] < 1 - 1e-6 and above.any())):
            break
        width = last - first
        first, last = first - (width if below.any() else 0), last + (width if above.any() else 0)
        spacing *= 1.5
    # P(p̂_T >= v) against θ is close to Φ(linear) near each root: interpolate on the probit
    roots = np.array([[np.interp(z, column, thetas) for z in targets]
                      for column in np.maximum.accumulate(probit, axis=0).T])  # estimates × 3
    if len(estimates) == 1:  # refine: three rates a tenth of the grid's step around each root
        near = np.clip(roots[0][:, None] + np.array([-1, 0, 1]) * spacing / 10, 1e-6, 1 - 1e-6)
        local = _probit(estimate_survival(n, bounds, near.ravel(), estimates)).reshape(3, 3)
        roots[0] = [np.interp(z, np.maximum.accumulate(row), rates)
                    for z, row, rates in zip(targets, local, near)]
    return roots[:, 0], roots[:, 2], roots[:, 1]


def _probit(p):
    return sps.norm.ppf(np.clip(p, 1e-15, 1 - 1e-15))
