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
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from scipy import optimize, special
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


def status(p, n_eff, target, tolerance: float, c_balanced: float, c_unbalanced: float):
    """The sequential verdict of findings at one look (arrays over findings, or over
    replications of one finding: the last axis is the findings): returns (balanced, unbalanced)
    booleans over the leading axes. `p` is each rate, `n_eff` its effective trials (the game as
    the unit), `target` its fair share."""
    p, n_eff, target = (np.asarray(v, float) for v in (p, n_eff, target))
    d = p - target
    with np.errstate(divide="ignore", invalid="ignore"):
        se = np.where(np.isinf(n_eff), 0.0, np.sqrt(p * (1 - p) / n_eff))
    # no spread seen (p = 0 or 1): the fixed verdict's standard error from the interval's width
    low95, high95 = _wilson(p, n_eff, 1.959963984540054)
    se = np.where((se == 0) & ~np.isinf(n_eff) & ((p == 0) | (p == 1)),
                  (high95 - low95) / 2 / 1.959963984540054, se)
    within = np.abs(d) + c_balanced * se < tolerance
    low, high = _wilson(p, n_eff, c_unbalanced)
    beyond = (low > target + tolerance) | (high < target - tolerance)
    return np.all(within, axis=-1), np.any(beyond, axis=-1)
