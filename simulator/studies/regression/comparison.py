"""The statistics of a check: each measure of each setup against its baseline.

Rates by the pooled two-proportion z-test, means by Welch's t-test, measures over seat-games by
their game-level (clustered) test; the p-values of all measures of all setups Holm-corrected
together. A measure fails only when its change is significant after Holm AND larger than the
tolerance; a measure on one side only is a change of the setup's shape and fails without a test.
Exact mode compares the tallies instead, array by array.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from simulator.statistics import inference
from simulator.studies.regression.baselines import BaselineError
from simulator.statistics.headline import Measure, number_text

DEFAULT_ALPHA = 0.01
DEFAULT_TOLERANCE = 0.01  # absolute, for rates: one percentage point
# For means, in standard deviations of the baseline's values. A rate is the mean of a 0/1 value
# whose SD is at most 0.5, so one point of a 50% rate is 0.01 / 0.5 = 0.02 SD: the same yardstick.
DEFAULT_MEAN_TOLERANCE = 0.02

# Verdicts
OK, DRIFT, FAIL, MISSING, NEW = "ok", "drift", "FAIL", "missing", "new"
FAILING = (FAIL, MISSING, NEW)


@dataclass
class SetupRun:
    """One setup of a check: the baseline entry, the config played and the new result."""

    name: str
    game: str
    players: int
    baseline_games: int
    baseline_seed: int
    games: int
    seed: int
    overrides: list[str]
    changes: list[str]  # config keys that differ from the baseline's config
    baseline_measures: list[Measure]
    measures: list[Measure]
    baseline_tallies: dict
    tallies: dict
    elapsed: float


@dataclass
class Comparison:
    """One measure of one setup: baseline against new, with its test and verdict."""

    setup: str
    name: str
    kind: str
    baseline: Measure | None
    new: Measure | None
    diff: float = math.nan
    low: float = math.nan
    high: float = math.nan
    pvalue: float = 1.0
    adjusted: float = 1.0
    tolerance: float = 0.0  # in the measure's units
    verdict: str = OK
    confidence: float = math.nan  # of the interval (simultaneous over all tests)

    @property
    def failed(self) -> bool:
        return self.verdict in FAILING

    def _amount(self, x: float, signed: bool = True) -> str:
        if math.isnan(x):
            return "n/a"
        if self.kind == "rate":
            x = round(100 * x, 2) + 0.0  # no "-0.00"
            return f"{x:{'+' if signed else ''}.2f}"
        return number_text(x, signed)

    def difference_text(self) -> str:
        if self.baseline is None or self.new is None:
            return "—"
        unit = " pts" if self.kind == "rate" else ""
        if math.isnan(self.low):
            return f"{self._amount(self.diff)}{unit}"
        return (f"{self._amount(self.diff)}{unit} "
                f"[{self._amount(self.low)}, {self._amount(self.high)}]")

    def message(self) -> str:
        """One sentence for a designer (used in failures)."""
        if self.verdict == MISSING:
            return (f"{self.name}: in the baseline ({self.baseline.format_value()}) but absent "
                    f"from this run: the setup changed shape")
        if self.verdict == NEW:
            return (f"{self.name}: not in the baseline, {self.new.format_value()} in this run: "
                    f"the setup changed shape")
        unit = " points" if self.kind == "rate" else ""
        moved = (f"{self.name} moved from {self.baseline.format_value()} to "
                 f"{self.new.format_value()} ({self._amount(self.diff)}{unit}")
        if not math.isnan(self.low):
            moved += (f", {100 * self.confidence:.4g}% CI {self._amount(self.low)} to "
                      f"{self._amount(self.high)}")
        moved += f"; Holm-adjusted {inference.format_p(self.adjusted)})"
        limit = f"the tolerance of {self._amount(self.tolerance, False)}{unit}"
        if self.verdict == FAIL:
            return f"{moved}: significant and beyond {limit}"
        if self.verdict == DRIFT:
            return f"{moved}: significant but within {limit}"
        return f"{moved}: not significant"


def compare(setups: list[tuple[str, list[Measure], list[Measure]]], alpha: float = DEFAULT_ALPHA,
            tolerance: float = DEFAULT_TOLERANCE,
            mean_tolerance: float = DEFAULT_MEAN_TOLERANCE) -> tuple[list[Comparison], float]:
    """Compare every measure of every setup; Holm across all of them together.

    ``setups`` holds ``(setup name, baseline measures, new measures)``. Returns the comparisons
    and the confidence level of their intervals, ``1 - alpha / m`` for m tests: Bonferroni
    intervals, which all hold together with probability at least ``1 - alpha`` (Holm's first
    step), so an interval that excludes 0 agrees with a rejection at the strictest step.
    """
    if not 0 < alpha < 1:
        raise BaselineError(f"--alpha must be between 0 and 1, got {alpha}")
    if tolerance < 0 or mean_tolerance < 0:
        raise BaselineError("tolerances must not be negative")
    rows: list[Comparison] = []
    for setup, before, after in setups:
        old = {m.name: m for m in before}
        new = {m.name: m for m in after}
        for name in list(old) + [n for n in new if n not in old]:
            a, b = old.get(name), new.get(name)
            kind = (a or b).kind
            if a is not None and b is not None and a.kind != b.kind:
                raise BaselineError(f"{setup}: measure {name!r} is a {a.kind} in the baseline "
                                    f"and a {b.kind} now")
            rows.append(Comparison(setup, name, kind, a, b,
                                   verdict=OK if a and b else (MISSING if a else NEW)))
    tested = [row for row in rows if row.baseline is not None and row.new is not None]
    m = len(tested)
    confidence = 1 - alpha / max(m, 1)
    for row in tested:
        before, after = row.baseline, row.new
        if before.moments is not None and after.moments is not None:
            # seat-games: the game is the unit (each run's game-level variance)
            diff, low, high, p = inference.two_clustered(before.game_moments(), after.game_moments(),
                                                     confidence)
        elif row.kind == "rate":
            diff, low, high, p = inference.two_proportions(*before.counts, *after.counts, confidence)
        else:
            diff, low, high, p = inference.two_means(*before.counts, *after.counts,
                                                 confidence=confidence)
        if row.kind == "rate":
            row.tolerance = tolerance
        else:
            sd = row.baseline.sd
            row.tolerance = mean_tolerance * (sd if not math.isnan(sd) else 0.0)
        row.diff, row.low, row.high = float(diff), float(low), float(high)
        row.confidence = confidence
        row.pvalue = 1.0 if math.isnan(p) else float(p)
    for row, adjusted in zip(tested, inference.holm([row.pvalue for row in tested])):
        row.adjusted = float(adjusted)
        if row.adjusted < alpha:
            row.verdict = FAIL if abs(row.diff) > row.tolerance else DRIFT
    return rows, confidence


@dataclass
class TallyCheck:
    """Exact mode: one tally array of one setup, identical or not."""

    setup: str
    tally: str
    identical: bool
    detail: str = ""

    @property
    def failed(self) -> bool:
        return not self.identical


def exact_checks(run: SetupRun) -> list[TallyCheck]:
    out = []
    for name, before in run.baseline_tallies.items():
        a = np.asarray(before, dtype=np.int64)
        b = np.asarray(run.tallies.get(name, []), dtype=np.int64)
        if a.shape == b.shape and np.array_equal(a, b):
            out.append(TallyCheck(run.name, name, True))
            continue
        if a.shape != b.shape:
            detail = f"shape {list(a.shape)} -> {list(b.shape)}"
        else:
            where = np.argwhere(a != b)
            i = tuple(int(x) for x in where[0])
            index = ",".join(map(str, i))
            detail = (f"{len(where)} of {a.size} entries differ; first {name}[{index}]: "
                      f"{int(a[i]):,} -> {int(b[i]):,}")
        out.append(TallyCheck(run.name, name, False, detail))
    return out


def zip_measures(before: list[Measure], after: list[Measure]):
    old = {m.name: m for m in before}
    new = {m.name: m for m in after}
    for name in list(old) + [n for n in new if n not in old]:
        yield old.get(name), new.get(name)
