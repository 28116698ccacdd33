"""Comparing two results: every headline rate side by side, its difference with an interval, and
a Holm-corrected test for each, phrased for a designer.

Differences are "B minus A" (``inference.two_proportions``: Newcombe interval, two-proportion z-test;
for rates over seat-games, ``inference.two_clustered``: each run's game-level variance);
all the differences of one comparison (team, seat, role, strategy and end-condition rates, plus the
mean game length by Welch's test) are one family for the Holm correction, so "significant" means
significant after looking at all of them at once.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from simulator.statistics import inference
from simulator.run.results import Result
from simulator.statistics.summary import summarize

GROUPS = ("team", "seat", "role", "strategy", "end")


class CompareError(Exception):
    """Two results that cannot be compared (different games): one line."""


@dataclass
class Difference:
    group: str
    name: str
    k1: int
    n1: int
    k2: int
    n2: int
    diff: float  # p2 - p1
    low: float
    high: float
    pvalue: float
    adjusted: float = math.nan

    @property
    def rate1(self) -> float:
        return self.k1 / self.n1 if self.n1 else math.nan

    @property
    def rate2(self) -> float:
        return self.k2 / self.n2 if self.n2 else math.nan

    def significant(self, alpha: float = 0.05) -> bool:
        return self.adjusted < alpha


@dataclass
class Comparison:
    a: Result
    b: Result
    confidence: float
    differences: list[Difference]
    length: dict  # mean length difference (Welch)
    changes: list[tuple[str, object, object]]  # config keys that differ: (key, in A, in B)
    role_changes: list[tuple[str, float, float]]  # roles dealt per game: (role, in A, in B)
    only_in: dict = field(default_factory=dict)  # {"a": [...], "b": [...]} rows in one side only
    fairness: list["Fairness"] = field(default_factory=list)  # "is B fairer than A?"
    verdicts: tuple = ()  # each run's verdict (simulator.statistics.verdict.Verdict), A then B

    def of(self, group: str) -> list[Difference]:
        return [d for d in self.differences if d.group == group]


@dataclass
class Fairness:
    """One verdict measure in both runs: its distance from its target, and the change of that
    distance from A to B with its interval (B fairer: negative)."""

    group: str
    name: str
    label: str
    rate_a: float
    rate_b: float
    target_a: float
    target_b: float
    distance_a: float
    distance_b: float
    change: float
    low: float
    high: float
    pvalue: float
    adjusted: float = math.nan


def fairness(a: Result, b: Result, confidence: float = 0.95):
    """Each measure the verdict judges in both runs (a team's share of decided games against its
    target; a role, strategy or position against its fair share), with its distance from the
    target in A and in B and the change of that distance (delta method: the distance's standard
    error is its rate's away from the target; both runs' games are independent). Holm across
    them. Returns (rows, verdict of A, verdict of B)."""
    from scipy import stats as sps

    from simulator.statistics import verdict as verdicts

    found = []
    for result in (a, b):
        rows, tolerance = verdicts.run_findings(result.game, result.tallies, result.data,
                                                confidence)
        if result.game.team_game:  # every dealt team, not only the one ahead
            dealt = verdicts.team_targets(result.game, result.tallies,
                                          (result.data.get("config") or {}).get("balance_target"),
                                          result.data.get("dealt_teams"))
            teams = list(dealt)[:1] if len(dealt) == 2 else list(dealt)  # two mirror each other
            wins = result.tallies["team_wins"]
            decided = int(sum(int(wins[i]) for i in dealt))
            rows = [verdicts.finding("team", result.game.teams[i], inference.wilson(
                int(wins[i]), decided, confidence), dealt[i], tolerance,
                int(result.tallies["games"][0])) for i in teams] + \
                [f for f in rows if f.group != "team"]
        found.append({(f.group, f.name): f for f in rows if f.rate.trials})
    z = inference._z(confidence)
    out = []
    for key in [k for k in found[0] if k in found[1]]:
        fa, fb = found[0][key], found[1][key]
        da, db = abs(fa.difference), abs(fb.difference)
        se = math.hypot(verdicts._standard_error(fa.rate), verdicts._standard_error(fb.rate))
        change = db - da
        p = float(2 * sps.norm.sf(abs(change) / se)) if se > 0 else float(change == 0)
        out.append(Fairness(fa.group, fa.name, fa.label(), fa.rate.value, fb.rate.value,
                            fa.target, fb.target, da, db, change, change - z * se,
                            change + z * se, p))
    for row, adjusted in zip(out, inference.holm([r.pvalue for r in out]) if out else []):
        row.adjusted = float(adjusted)
    out.sort(key=lambda r: -max(r.distance_a, r.distance_b))
    return out


def fairness_headline(comparison: "Comparison", labels=("A", "B")) -> str:
    """The answer to "is B fairer than A?", from the measure furthest from its target."""
    if not comparison.fairness:
        return ""
    lead = comparison.fairness[0]
    a, b = labels
    level = f"{100 * comparison.confidence:.4g}%"
    what = (f"{lead.label}'s distance from its target ({100 * lead.target_b:.1f}%) goes from "
            f"{100 * lead.distance_a:.1f} points in {a} to {100 * lead.distance_b:.1f} in {b} "
            f"({_points(lead.change)} points, {level} CI {_points(lead.low)} to "
            f"{_points(lead.high)}, {inference.format_p(lead.adjusted)} after Holm)")
    if lead.adjusted < 1 - comparison.confidence:
        answer = f"{b} is fairer than {a}" if lead.change < 0 else f"{b} is less fair than {a}"
    else:
        answer = f"{b} is not measurably fairer or less fair than {a}"
    statuses = [v.status for v in comparison.verdicts]
    tail = ""
    if statuses:
        tail = f" Verdicts: {a} {comparison.verdicts[0].headline.lower()}; " \
               f"{b} {comparison.verdicts[1].headline.lower()}."
    return f"{answer}: {what}.{tail}"


def _flat(table: dict, prefix: str = "") -> dict:
    out = {}
    for key, value in table.items():
        if isinstance(value, dict) and value:
            out.update(_flat(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def config_changes(a: dict, b: dict) -> list[tuple[str, object, object]]:
    """Leaf keys whose values differ (None where a side lacks the key), in a stable order."""
    fa, fb = _flat(a), _flat(b)
    keys = list(fa) + [k for k in fb if k not in fa]
    return [(k, fa.get(k), fb.get(k)) for k in keys if fa.get(k) != fb.get(k)]


def _role_counts(result: Result) -> dict[str, float]:
    t = result.tallies
    games = int(t["games"][0])
    if not games:
        return {}
    return {role.name: float(t["role_games"][r]) / games
            for r, role in enumerate(result.game.roles)}


def compare(a: Result, b: Result, confidence: float = 0.95) -> Comparison:
    """Compare result B with result A (same game)."""
    if a.game.name != b.game.name:
        raise CompareError(f"cannot compare a {a.game.name} result with a {b.game.name} result")
    sa, sb = summarize(a, confidence), summarize(b, confidence)
    differences = []
    only_in = {"a": [], "b": []}
    for group in GROUPS:
        rows_a = {row.name: row for row in sa.rows_of(group)}
        rows_b = {row.name: row for row in sb.rows_of(group)}
        for name in list(rows_a) + [n for n in rows_b if n not in rows_a]:
            if group == "end" and name in rows_a and name in rows_b and \
                    not rows_a[name].rate.successes and not rows_b[name].rate.successes:
                continue  # an ending that occurs in neither run says nothing
            if name not in rows_b:
                only_in["a"].append(f"{group} {name}" if group != "seat" else name)
                continue
            if name not in rows_a:
                only_in["b"].append(f"{group} {name}" if group != "seat" else name)
                continue
            ra, rb = rows_a[name].rate, rows_b[name].rate
            ma, mb = rows_a[name].moments, rows_b[name].moments
            if ma is not None and mb is not None:  # seat-games: the game is the unit
                diff, low, high, p = inference.two_clustered(ma, mb, confidence)
            else:
                diff, low, high, p = inference.two_proportions(ra.successes, ra.trials,
                                                           rb.successes, rb.trials, confidence)
            differences.append(Difference(group, name, ra.successes, ra.trials, rb.successes,
                                          rb.trials, diff, low, high, p))
    la, lb = a.tallies["length_hist"], b.tallies["length_hist"]
    sums = []
    for hist in (la, lb):
        values = np.arange(len(hist), dtype=float)
        sums.append((float((values * hist).sum()), float((values ** 2 * hist).sum()),
                     float(hist.sum())))
    ldiff, llow, lhigh, lp = inference.two_means(*sums[0], *sums[1], confidence)
    length = {"unit": a.game.length_unit,
              "mean_a": sums[0][0] / sums[0][2] if sums[0][2] else math.nan,
              "mean_b": sums[1][0] / sums[1][2] if sums[1][2] else math.nan,
              "diff": ldiff, "low": llow, "high": lhigh, "p": lp, "adjusted": math.nan}
    pvalues = [d.pvalue for d in differences]
    has_length = not math.isnan(lp)
    if has_length:
        pvalues.append(lp)
    if pvalues:
        adjusted = inference.holm(pvalues)
        for d, adj in zip(differences, adjusted):
            d.adjusted = float(adj)
        if has_length:
            length["adjusted"] = float(adjusted[-1])
    ca, cb = _role_counts(a), _role_counts(b)
    role_changes = [(name, ca.get(name, 0.0), cb.get(name, 0.0)) for name in ca
                    if abs(ca.get(name, 0.0) - cb.get(name, 0.0)) > 1e-9]
    changes = config_changes(a.data.get("config", {}), b.data.get("config", {}))
    return Comparison(a, b, confidence, differences, length, changes, role_changes, only_in,
                      fairness(a, b, confidence), (sa.judgement, sb.judgement))


# --- words -------------------------------------------------------------------------------------
def _value(value) -> str:
    from simulator.studies.sweep import label

    return "(not set)" if value is None else label(value)


def _count_word(n: float) -> str:
    return f"{n:g}" if n != int(n) else str(int(n))


def change_phrase(comparison: Comparison) -> str:
    """What changed from A to B, as the subject of a sentence: "Adding a werewolf"."""
    changes = comparison.changes
    dealt = {name: (before, after) for name, before, after in comparison.role_changes}
    if len(changes) == 1:
        key, old, new = changes[0]
        role = key.split(".", 1)[1] if key.startswith("roles.") else None
        if role in dealt and all(float(x).is_integer() for x in dealt[role]):
            # the counts actually dealt (a config may say "auto")
            before, after = (int(x) for x in dealt[role])
        elif role is not None and all(isinstance(x, (int, type(None))) and
                                      not isinstance(x, bool) for x in (old, new)):
            before, after = old or 0, new or 0
        else:
            before = after = None
        if before is not None and before != after:
            how = f"{key} {_value(old)} → {_value(new)}"
            if (_value(old), _value(new)) != (str(before), str(after)):
                how += f", {before} → {after} dealt"
            if after > before:
                return (f"Adding {_count_word(after - before)} {role}"
                        f"{'' if after - before == 1 else 's'} ({how})")
            return (f"Removing {_count_word(before - after)} {role}"
                    f"{'' if before - after == 1 else 's'} ({how})")
        if key == "players" and isinstance(old, int) and isinstance(new, int):
            return f"Going from {old} to {new} players"
        return f"Changing {key} from {_value(old)} to {_value(new)}"
    if not changes:
        return "Going from A to B (the same config)"
    listed = "; ".join(f"{k} {_value(o)} → {_value(n)}" for k, o, n in changes[:4])
    more = f"; and {len(changes) - 4} more" if len(changes) > 4 else ""
    return f"Going from A to B ({listed}{more})"


def _points(x: float) -> str:
    return f"{100 * x:+.1f}"


def difference_clause(comparison: Comparison, d: Difference) -> str:
    """The words for one difference: 'the human win rate by +3.1 points (95% CI +2.0 to +4.2;
    40.1% → 43.2%), significant after Holm correction (p < 0.001)'."""
    what = {"team": f"the {d.name} win rate", "seat": f"the win rate of {d.name}",
            "role": f"the {d.name} win rate", "strategy": f"the win rate of strategy {d.name}",
            "end": f"the share of games ending with \u201c{d.name}\u201d"}[d.group]
    level = f"{100 * comparison.confidence:.4g}"
    verdict = ("significant after Holm correction" if d.significant(1 - comparison.confidence)
               else "not significant after Holm correction")
    return (f"{what} by {_points(d.diff)} points ({level}% CI {_points(d.low)} to "
            f"{_points(d.high)}; {100 * d.rate1:.1f}% → {100 * d.rate2:.1f}%), {verdict} "
            f"({inference.format_p(d.adjusted)})")


def difference_sentence(comparison: Comparison, d: Difference, subject: str | None = None) -> str:
    """One sentence: 'Adding X moves the human win rate by +3.1 points (95% CI +2.0 to +4.2;
    ...), significant after Holm correction (p < 0.001).'"""
    subject = subject or change_phrase(comparison)
    return f"{subject} moves {difference_clause(comparison, d)}."
