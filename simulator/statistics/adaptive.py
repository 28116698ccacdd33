"""Adaptive runs: play until the answer is good enough, deciding only at chunk boundaries.

Two stopping rules, stored in the result (``stopping``, see `simulator.run.stopping`) so that
`--resume` follows the same one:

* ``precision``: stop when every headline rate's 95% interval has a half-width of at most the
  precision. The headline rates are the ones the summary leads with, with the same game-level
  intervals: each team's win rate in a team game; each seat's, role's and strategy's win rate in
  an individual game.
* ``decided``: stop when the verdict is settled (balanced within the config's
  `balance_tolerance`, or unbalanced), by the group-sequential test of `simulator.statistics.sequential`.

Both stop at `max_games` at the latest. The rule is checked after each chunk of a *contiguous
prefix* of chunks: chunks that finish out of order (several workers) wait until the chunks
before them are in, and when the rule stops the run at chunk k, chunks beyond k are dropped. The
result is therefore the same for a seed whatever the number of workers, and after Ctrl-C and
`--resume`: it equals a fixed run of the games it stopped at. Why it stopped is recorded
(``stopped``) and said in the summary.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from simulator.statistics import headline, inference, sequential, verdict
from simulator.run.chunks import chunk_count
from simulator.run.stopping import CONFIDENCE, MAX_LOOKS, Rule


def headline_rows(result):
    """The summary's headline rows (simulator.statistics.headline) that the stopping rule watches: teams (a
    team game); seats, roles, strategies (otherwise)."""
    game = result.game
    measures = headline.measures_of(game, result.tallies, result.data.get("strategies", []))
    groups = ("team",) if game.team_game else ("seat", "role", "strategy")
    return headline.rows(measures, CONFIDENCE, groups)


def _looks(data: dict) -> tuple[tuple[float, ...], list[int]]:
    """The sequential test's planned looks: their information fractions, and the chunk after
    which each comes (every chunk; every few chunks when there are more than MAX_LOOKS)."""
    size, cap = data["chunk_size"], int(data["stopping"]["max_games"])
    count = chunk_count(cap, size)
    every = -(-count // MAX_LOOKS)
    after = [k for k in range(count) if (k + 1) % every == 0 or k == count - 1]
    return sequential.fractions([min(cap, (k + 1) * size) for k in after], cap), after


def findings(result):
    """The verdict's findings of a result, at 95% (what the sequential test judges: the same
    findings as the run's verdict, verdict.run_findings)."""
    return verdict.run_findings(result.game, result.tallies, result.data, CONFIDENCE)


@dataclass(frozen=True)
class Stop:
    """Where the sequential test (--until-decided) stopped a run: why, at which look, and the
    look's critical values (z) of its balanced and unbalanced boundaries."""

    reason: str  # "balanced", "unbalanced" or "max-games"
    look: int
    looks_planned: int
    c_balanced: float
    c_unbalanced: float


def sequential_stop(data: dict) -> Stop | None:
    """The stop of a finished --until-decided run (None: a run of a fixed size, a --precision
    run, one not finished, or a record that cannot be read)."""
    stopped = data.get("stopped")
    stored = data.get("stopping")
    if not isinstance(stopped, dict) or not isinstance(stored, dict) or \
            stored.get("rule") != "decided":
        return None
    values = [stopped.get(key) for key in ("look", "looks_planned", "critical_z_balanced",
                                           "critical_z_unbalanced")]
    if stopped.get("reason") not in ("balanced", "unbalanced", "max-games") or \
            any(isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v)
                for v in values) or not 1 <= values[0] <= values[1] or min(values[2:]) <= 0:
        return None
    return Stop(stopped["reason"], int(values[0]), int(values[1]), float(values[2]),
                float(values[3]))


REPEATED = "repeated 95% CI"
AT_STOP = "95% CI at the stop"


def decision_intervals(finding, stop: Stop) -> tuple[float, float, float, float]:
    """The intervals the stopping look's decision read for one finding: the equivalence test's
    (balanced when every finding's lies inside the band) and Wilson's at the unbalanced
    critical value (unbalanced when some finding's lies beyond it)."""
    rate = finding.rate
    n = rate.effective_trials if rate.effective_trials is not None else rate.trials
    return tuple(float(v) for v in sequential.decision_intervals(
        rate.value, n, stop.c_balanced, stop.c_unbalanced))


def verdict_at_stop(stop: Stop, findings, tolerance: float, noun: str, max_games: int,
                    symmetric_seats: str = "") -> verdict.Verdict:
    """The verdict of a run the sequential test stopped: its decision, with the interval that
    made it (a "balanced" verdict's equivalence intervals lie inside the band, an "unbalanced"
    one's lead interval beyond it), never a fixed-sample interval or p-value, which the looks
    before the stop would make optimistic."""
    band = f"±{100 * tolerance:.1f} points"
    found = sorted((f for f in findings if f.rate.trials), key=lambda f: -abs(f.difference))
    at = f"look {stop.look} of {stop.looks_planned}"
    if not found:
        return verdict.Verdict("undecided", "No game won yet",
                               "No game has been won yet, so no side can be called favoured.",
                               tolerance, findings, None, None, symmetric_seats)

    def interval(f, which):
        eq_low, eq_high, low, high = decision_intervals(f, stop)
        low, high, z = (eq_low, eq_high, stop.c_balanced) if which == "equivalence" else \
            (low, high, stop.c_unbalanced)
        return (f"{100 * f.rate.value:.1f}% ({which} interval {100 * low:.1f}–{100 * high:.1f}%, "
                f"z = {z:.2f})")

    def beyond(f):
        return _beyond(f, stop, tolerance)

    if stop.reason == "unbalanced":
        lead = next((f for f in found if beyond(f)), found[0])
        return verdict.Verdict(
            "unbalanced", verdict.unbalanced_headline(lead),
            f"Unbalanced by {100 * abs(lead.difference):.1f} points: "
            f"{verdict.describe(lead, interval(lead, 'decision'))}; the sequential test's "
            f"interval at {at} lies beyond the tolerance of {band}.",
            tolerance, findings, lead, None, symmetric_seats)
    lead = found[0]
    if stop.reason == "balanced":
        return verdict.Verdict(
            "balanced", f"Balanced within {band}",
            f"Balanced within {band}: by the sequential test at {at}, every {noun}'s "
            f"equivalence interval lies within {band} of its fair share (the largest "
            f"difference: {verdict.describe(lead, interval(lead, 'equivalence'))}).",
            tolerance, findings, lead, None, symmetric_seats)
    open_ = [f for f in found if not beyond(f)]
    lead = open_[0] if open_ else lead
    return verdict.Verdict(
        "undecided", "Not settled within --max-games",
        f"Not settled within the {max_games:,} games of --max-games: at {at} the sequential "
        f"test could not yet say whether {lead.label()} is within {band} of its fair share "
        f"({verdict.describe(lead, interval(lead, 'equivalence'))}).",
        tolerance, findings, lead, None, symmetric_seats)


def _beyond(finding, stop: Stop, tolerance: float) -> bool:
    """The finding's decision interval lies beyond the band (the unbalanced boundary)."""
    _, _, low, high = decision_intervals(finding, stop)
    return low > finding.target + tolerance or high < finding.target - tolerance


def _within(finding, stop: Stop, tolerance: float) -> bool:
    """The finding's equivalence interval lies inside the band (the balanced boundary)."""
    eq_low, eq_high, _, _ = decision_intervals(finding, stop)
    return finding.target - tolerance < eq_low and eq_high < finding.target + tolerance


@dataclass(frozen=True)
class Decision:
    """What the sequential test read for one family of findings (a "test" of the summary) at the
    look it stopped: "unbalanced" (some finding's decision interval lies beyond the band),
    "balanced" (every finding's equivalence interval lies inside it) or "open" (neither), with
    the interval of the finding that shows it. It takes the place of a fixed-sample p-value,
    which the looks before the stop make too small."""

    name: str  # the family: "camp balance", "seat fairness", ...
    outcome: str  # "unbalanced", "balanced" or "open"
    finding: object  # verdict.Finding: the one whose interval is given
    interval: str  # "decision" (Wilson's at the unbalanced z) or "equivalence"
    low: float
    high: float
    z: float
    tolerance: float
    look: int
    looks_planned: int

    def text(self) -> str:
        """The family's decision in words (one line of the summary's Tests block)."""
        f = self.finding
        band = f"{100 * f.target:.1f}% ±{100 * self.tolerance:.1f} points"
        shown = (f"{self.interval} interval {100 * self.low:.1f}–{100 * self.high:.1f}% "
                 f"(z = {self.z:.2f})")
        if self.outcome == "unbalanced":
            return f"unbalanced boundary crossed: {f.label()}'s {shown} lies beyond {band}"
        if self.outcome == "balanced":
            return (f"inside the band: every equivalence interval lies within its fair share "
                    f"±{100 * self.tolerance:.1f} points (the largest difference, "
                    f"{f.label()}'s {shown}, against {100 * f.target:.1f}%)")
        return (f"not settled: {f.label()}'s {shown} reaches past {band}, and no decision "
                f"interval lies beyond the band")


def decisions_at_stop(stop: Stop, findings, tolerance: float, families) -> list[Decision]:
    """The sequential test's decision for each family of findings at the stop (`families`: the
    (group, name) pairs of the summary's tests, in its order; a family with no finding is left
    out). Each is read from the intervals the stop read (`decision_intervals`)."""
    out = []
    for group, name in families:
        members = sorted((f for f in findings if f.group == group and f.rate.trials),
                         key=lambda f: -abs(f.difference))
        if not members:
            continue
        beyond = [f for f in members if _beyond(f, stop, tolerance)]
        open_ = [f for f in members if not _within(f, stop, tolerance)]
        if beyond:
            outcome, lead, which = "unbalanced", beyond[0], "decision"
        elif not open_:
            outcome, lead, which = "balanced", members[0], "equivalence"
        else:
            outcome, lead, which = "open", open_[0], "equivalence"
        eq_low, eq_high, low, high = decision_intervals(lead, stop)
        if which == "decision":
            interval = (low, high, stop.c_unbalanced)
        else:
            interval = (eq_low, eq_high, stop.c_balanced)
        out.append(Decision(name, outcome, lead, which, *interval, tolerance, stop.look,
                            stop.looks_planned))
    return out


def decisions_heading(stop: Stop) -> str:
    """The heading of the Tests block after a sequential stop: what takes the p-values' place."""
    return (f"Sequential test at look {stop.look} of {stop.looks_planned} (z = "
            f"{stop.c_balanced:.2f} for balanced, {stop.c_unbalanced:.2f} for unbalanced); no "
            f"fixed-sample p-value: the looks before the stop make it too small")


def repeated(rate, critical: float):
    """A rate's repeated confidence interval: Wilson's at the stopping look's critical value of
    the unbalanced boundary (one-sided 2.5% over every look, so the pair holds at 95% at every
    look at once: Jennison & Turnbull 2000, ch. 9), at its effective trials."""
    n = rate.effective_trials if rate.effective_trials is not None else rate.trials
    if not rate.trials or not math.isfinite(n) or n <= 0:
        return replace(rate, label=REPEATED)
    low, high = inference.wilson_bounds(rate.value * n, n, critical=critical)
    return replace(rate, low=float(low), high=float(high), label=REPEATED)


def rows_at_stop(result, stop: Stop, rows, findings, tolerance: float):
    """The summary's rows after a sequential stop, and the line that says what their intervals
    are. Where one finding decides the stop (a team game of two dealt teams with no position or
    seat findings), that team's rate and its complement get the 95% confidence interval at the
    stop (`interval_at_stop`); every other interval is the repeated one (`repeated`), valid
    whatever stopped the run."""
    out = [replace(row, rate=repeated(row.rate, stop.c_unbalanced)) for row in rows]
    rcis = (f"repeated 95% confidence intervals (z = {stop.c_unbalanced:.2f} at look "
            f"{stop.look} of {stop.looks_planned}), which hold at every look whatever stopped "
            f"the run")
    judged = [f for f in findings if f.rate.trials]
    t = result.tallies
    dealt = verdict.dealt_teams(result.game, t, result.data.get("dealt_teams"))
    # the team rows are the finding and its complement when every game has a winner of the two
    alone = len(judged) == 1 and judged[0].group == "team" and len(dealt) == 2 and \
        int(np.sum(np.asarray(t["team_wins"])[dealt])) == int(t["games"][0])
    at_stop = interval_at_stop(result, judged[0], tolerance) if alone else None
    if at_stop is None:
        several = (" (several findings decide this run's stop together: no narrower interval "
                   "at the stop is computed)" if len(judged) > 1 else "")
        return out, f"Intervals after the sequential stop: {rcis}{several}."
    finding = judged[0]
    low, high, median = at_stop
    names = [result.game.teams[i] for i in dealt]
    other = names[1 - names.index(finding.name)]
    for i, row in enumerate(out):
        if row.group == "team" and row.name in (finding.name, other):
            lo, hi = (low, high) if row.name == finding.name else (1 - high, 1 - low)
            out[i] = replace(row, rate=replace(rows[i].rate, low=lo, high=hi, label=AT_STOP))
    note = (f"Intervals after the sequential stop: the teams' cover the true rate 95% of the "
            f"time whatever look the run stops at (the outcomes ordered by the estimate: "
            f"Jennison & Turnbull 2000, §8.5; the median-unbiased estimate of "
            f"{finding.label()}'s rate is {100 * median:.1f}%); the others are {rcis}, and "
            f"wider.")
    if stop.reason == "balanced" and not \
            finding.target - tolerance <= low <= high <= finding.target + tolerance:
        note += (" The verdict reads the equivalence test's interval, one-sided 5% on each "
                 "side as a fixed run's verdict reads its 90% interval: the 95% interval may "
                 "reach past the band it is balanced within.")
    return out, note


def interval_at_stop(result, finding, tolerance: float) -> tuple[float, float, float] | None:
    """The 95% confidence interval at the stop and the median-unbiased estimate of the one
    finding that decides a run's stop (sequential.stop_intervals), or None where the band
    reaches 0 or 1 (the stopping region's shape is only solved inside)."""
    if not 0 < finding.target - tolerance < finding.target + tolerance < 1:
        return None
    rate = finding.rate
    n = rate.effective_trials if rate.effective_trials is not None else rate.trials
    games = result.games_played
    if not games or not n or not math.isfinite(n):
        return None
    looks, _ = _looks(result.data)
    return _interval(looks, int(result.data["stopping"]["max_games"]), n / games,
                     float(finding.target), float(tolerance), float(rate.value), float(n))


@lru_cache(maxsize=32)
def _interval(looks, cap: int, ratio: float, target: float, tolerance: float, estimate: float,
              trials: float) -> tuple[float, float, float]:
    # the finding's effective trials grow with the games (their ratio hardly moves in a run)
    n = np.asarray(looks) * cap * ratio
    bounds = sequential.stop_bounds(n, target, tolerance,
                                    sequential.boundaries(looks, sequential.ALPHA_BALANCED),
                                    sequential.boundaries(looks, sequential.ALPHA_UNBALANCED))
    low, high, median = sequential.stop_intervals(n, bounds, [estimate], [trials], CONFIDENCE)
    return float(low[0]), float(high[0]), float(median[0])


def decision(result) -> tuple[str | None, dict]:
    """The sequential verdict at the result's last chunk boundary: ("balanced" | "unbalanced" |
    None, details)."""
    looks, after = _looks(result.data)
    chunk = len(result.data["chunks_done"]) - 1
    if chunk not in after:
        return None, {"look": None, "looks_planned": len(looks)}
    k = after.index(chunk)
    c_balanced = float(sequential.boundaries(looks, sequential.ALPHA_BALANCED)[k])
    c_unbalanced = float(sequential.boundaries(looks, sequential.ALPHA_UNBALANCED)[k])
    found, tolerance = findings(result)
    details = {"look": k + 1, "looks_planned": len(looks), "critical_z_balanced": c_balanced,
               "critical_z_unbalanced": c_unbalanced}
    found = [f for f in found if f.rate.trials]
    if not found:
        return None, details
    p = [f.rate.value for f in found]
    n = [f.rate.effective_trials if f.rate.effective_trials is not None else f.rate.trials
         for f in found]
    balanced, unbalanced = sequential.status(p, n, [f.target for f in found], tolerance,
                                             c_balanced, c_unbalanced)
    if bool(unbalanced):
        return "unbalanced", details
    if bool(balanced):
        return "balanced", details
    return None, details


def stops(result) -> bool:
    """Check the rule at the result's last chunk boundary; on a stop, record why and close the
    run (its target becomes the games played). True when it stopped."""
    data = result.data
    rule = Rule.of(data)
    if rule is None or not data["chunks_done"]:
        return False
    games = result.games_played
    if rule.kind == "precision":
        rows = headline_rows(result)
        widest = max(rows, key=lambda row: row.rate.half_width, default=None)
        if widest is None or widest.rate.half_width > rule.precision:
            return _at_cap(result, rule, widest)
        _close(result, {"reason": "precision", "games": games,
                        "chunks": len(data["chunks_done"]),
                        "widest": {"group": widest.group, "name": widest.name,
                                   "half_width": widest.rate.half_width}})
        return True
    status, details = decision(result)
    if status is None:
        return _at_cap(result, rule, None, details)
    _close(result, {"reason": status, "games": games, "chunks": len(data["chunks_done"]),
                    **details})
    return True


def _at_cap(result, rule, widest=None, details=None) -> bool:
    if result.games_played < rule.max_games:
        return False
    stopped = {"reason": "max-games", "games": result.games_played,
               "chunks": len(result.data["chunks_done"])}
    if widest is not None:
        stopped["widest"] = {"group": widest.group, "name": widest.name,
                             "half_width": widest.rate.half_width}
    stopped.update(details or {})
    _close(result, stopped)
    return True


def _close(result, stopped: dict) -> None:
    data = result.data
    data["stopped"] = stopped
    data["games_requested"] = int(result.games_played)
    data["complete"] = True


def sentence(data: dict) -> str:
    """What the summary says about an adaptive run: how many games it took, and why it stopped."""
    try:
        return _sentence(data)
    except (KeyError, TypeError, ValueError):  # a hand-edited record: say what is sure
        return "Adaptive run (its record of why it stopped cannot be read)."


def _sentence(data: dict) -> str:
    rule = Rule.of(data)
    if rule is None:
        return ""
    stopped = data.get("stopped")
    if not isinstance(stopped, dict):
        return f"Adaptive run ({rule.describe()}), not finished yet."
    games = f"{int(stopped.get('games', 0)):,} games"
    widest = stopped.get("widest") or {}
    if rule.kind == "precision":
        what = (f"the widest: {widest.get('group')} {widest.get('name')} "
                f"±{100 * float(widest.get('half_width', 0)):.2f} points") if widest else ""
        if stopped.get("reason") == "precision":
            return (f"Stopped after {games}: every headline rate's 95% interval is within "
                    f"±{100 * rule.precision:g} points ({what}).")
        return (f"Stopped at the cap of {rule.max_games:,} games (--max-games) before every "
                f"headline rate reached ±{100 * rule.precision:g} points ({what}).")
    look = (f"look {stopped.get('look')} of {stopped.get('looks_planned')}, a group-sequential "
            f"test with O'Brien-Fleming-like alpha spending")
    if stopped.get("reason") in ("balanced", "unbalanced"):
        return f"Stopped after {games}: the verdict is settled ({stopped['reason']}; {look})."
    return (f"Stopped at the cap of {rule.max_games:,} games (--max-games) before the verdict "
            f"was settled ({look}).")
