"""What a check says: its report as text (`fairplay check`'s output) and as JUnit XML (for CI)."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from simulator.statistics import inference
from simulator.games import get_game
from simulator.studies.regression.baselines import VERDICT_DATA, Baseline
from simulator.studies.regression.comparison import (
    DRIFT, FAIL, MISSING, NEW, Comparison, SetupRun, TallyCheck, zip_measures,
)


@dataclass
class CheckReport:
    """Everything a check found; `passed` decides the exit code."""

    baseline: Baseline
    exact: bool
    alpha: float
    tolerance: float
    mean_tolerance: float
    runs: list[SetupRun]
    comparisons: list[Comparison] = field(default_factory=list)
    confidence: float = math.nan
    tallies: list[TallyCheck] = field(default_factory=list)
    stored_config: bool = False
    cfgs: list = field(default_factory=list, repr=False)  # the configs played (for --update)
    results: list = field(default_factory=list, repr=False)  # and their results

    @property
    def items(self) -> list:
        return self.tallies if self.exact else self.comparisons

    @property
    def failures(self) -> list:
        return [item for item in self.items if item.failed]

    @property
    def passed(self) -> bool:
        return not self.failures

    # --- text ----------------------------------------------------------------------------------
    def table(self) -> str:
        lines = []
        for run in self.runs:
            lines.append(f"{run.name} ({run.game}, {run.players} players): baseline "
                         f"{run.baseline_games:,} games (seed {run.baseline_seed}), this run "
                         f"{run.games:,} games (seed {run.seed})"
                         + (f", --set {' '.join(run.overrides)}" if run.overrides else ""))
            for change in run.changes:
                lines.append(f"  config differs from the baseline's: {change}")
            if not self.exact and (run.seed, run.games) == (run.baseline_seed,
                                                            run.baseline_games):
                lines.append("  note: the baseline's own seed and games: an unchanged setup "
                             "reproduces it exactly, so chance is not tested (that is --exact)")
            if self.exact:
                lines.extend(self._exact_lines(run))
            else:
                lines.extend(self._comparison_lines(run))
            lines.append(self._balance_line(run))
            lines.append("")
        lines.append(self.verdict())
        return "\n".join(lines)

    def _balance_line(self, run: SetupRun) -> str:
        """The run's balance verdict (as `fairplay run` says it, with the config's tolerance)
        for the baseline's games and for this run's: a check also says when the verdict moved."""
        from simulator.statistics import verdict as verdicts

        entry = next(e for e in self.baseline.entries if e["name"] == run.name)
        game = get_game(run.game)
        stored = {"config": entry["config"], "strategies": entry["strategies"]}
        now = self.results[self.runs.index(run)].data \
            if len(self.results) == len(self.runs) else stored
        # who was dealt and who played what: stored with the baseline, or (a file from before
        # they were) the same as this run's when the config has not changed
        then = dict(stored, **{key: entry.get(key, None if run.changes else now.get(key))
                               for key in VERDICT_DATA})
        said = []
        for tallies, data in ((run.baseline_tallies, then), (run.tallies, now)):
            arrays = {k: np.asarray(v, dtype=np.int64) for k, v in tallies.items()}
            found, tolerance = verdicts.run_findings(game, arrays, data)
            said.append(verdicts.judge(found, tolerance, int(arrays["games"][0]), "finding"))
        # moved: another status, another finding leading it, or the same one by more than the
        # tolerance (not the same verdict by a hair)
        keys = [(v.status, v.lead.group if v.lead else "", v.lead.name if v.lead else "")
                for v in said]
        size = [v.lead.difference if v.lead and v.lead.rate.trials else 0.0 for v in said]
        same = keys[0] == keys[1] and abs(size[1] - size[0]) <= said[0].tolerance
        moved = "" if same else " (the verdict moved)"
        return (f"  balance verdict: baseline {said[0].headline.lower()}; now "
                f"{said[1].headline.lower()}{moved}")

    def _comparison_lines(self, run: SetupRun) -> list[str]:
        rows = [row for row in self.comparisons if row.setup == run.name]
        level = f"{100 * self.confidence:.4g}%"
        header = ("measure", "baseline", "new", f"difference [{level} CI]", "p (Holm)", "verdict")
        body = []
        for row in rows:
            verdict = {DRIFT: "drift (within tolerance)", FAIL: "FAIL",
                       MISSING: "FAIL (missing now)", NEW: "FAIL (new measure)"}.get(row.verdict,
                                                                                  row.verdict)
            tested = row.baseline is not None and row.new is not None
            body.append((row.name,
                         row.baseline.format_value() if row.baseline else "—",
                         row.new.format_value() if row.new else "—",
                         row.difference_text(),
                         inference.format_p(row.adjusted) if tested else "—",
                         verdict))
        widths = [max(len(r[i]) for r in [header] + body) for i in range(len(header))]
        align = ["<", ">", ">", ">", ">", "<"]

        def fmt(r):
            return "  " + "  ".join(f"{c:{a}{w}}" for c, a, w in zip(r, align, widths)).rstrip()

        return [fmt(header)] + [fmt(r) for r in body]

    def _exact_lines(self, run: SetupRun) -> list[str]:
        checks = [c for c in self.tallies if c.setup == run.name]
        differing = [c for c in checks if c.failed]
        if not differing:
            return [f"  all {len(checks)} tallies bit-identical"]
        lines = [f"  {c.tally}: differs ({c.detail})" for c in differing]
        changed = [(a, b) for a, b in zip_measures(run.baseline_measures, run.measures)
                   if a is None or b is None or a.counts != b.counts]
        if changed:
            lines.append("  measures that changed:")
            for a, b in changed[:12]:
                name = (a or b).name
                lines.append(f"    {name}: {a.format_value() if a else '—'} -> "
                             f"{b.format_value() if b else '—'}")
            if len(changed) > 12:
                lines.append(f"    ... and {len(changed) - 12} more")
        return lines

    def verdict(self) -> str:
        setups = len(self.runs)
        if self.exact:
            total = len(self.tallies)
            if self.passed:
                return (f"PASS: all {total} tallies of {setups} setup(s) are bit-identical to "
                        f"the baseline (exact mode).")
            names = sorted({f"{c.setup}: {c.tally}" for c in self.failures})
            return (f"FAIL: {len(self.failures)} of {total} tallies differ from the baseline "
                    f"(exact mode): {'; '.join(names)}.")
        total = len(self.comparisons)
        rule = (f"alpha {self.alpha:g} after Holm across all {total} measures; tolerance "
                f"{100 * self.tolerance:g} point(s) for rates, {self.mean_tolerance:g} SD for "
                f"means")
        drifts = [row for row in self.comparisons if row.verdict == DRIFT]
        drift_note = (f" {len(drifts)} significant drift(s) within tolerance."
                      if drifts else "")
        if self.passed:
            return f"PASS: all {total} measures of {setups} setup(s) hold ({rule}).{drift_note}"
        shown = 6
        named = "; ".join(f"{row.setup}: {row.name} "
                          f"{row.difference_text() if row.verdict == FAIL else row.verdict}"
                          for row in self.failures[:shown])
        if len(self.failures) > shown:
            named += f"; and {len(self.failures) - shown} more"
        return (f"FAIL: {len(self.failures)} of {total} measures regressed ({rule}): "
                f"{named}.{drift_note}")

    # --- JUnit XML -----------------------------------------------------------------------------
    def junit(self) -> ET.ElementTree:
        """One testsuite per setup, one testcase per measure (per tally in exact mode)."""
        suites = ET.Element("testsuites", name="fairplay check")
        total_tests = total_failures = 0
        total_time = 0.0
        for run in self.runs:
            items = [item for item in self.items if item.setup == run.name]
            failures = sum(item.failed for item in items)
            total_tests += len(items)
            total_failures += failures
            total_time += run.elapsed
            suite = ET.SubElement(suites, "testsuite", name=run.name, tests=str(len(items)),
                                  failures=str(failures), errors="0", skipped="0",
                                  time=f"{run.elapsed:.3f}")
            props = ET.SubElement(suite, "properties")
            for key, value in (("game", run.game), ("players", run.players),
                               ("baseline games", run.baseline_games),
                               ("baseline seed", run.baseline_seed), ("games", run.games),
                               ("seed", run.seed), ("mode", "exact" if self.exact else
                                                    "statistical"),
                               ("alpha", self.alpha), ("tolerance", self.tolerance),
                               ("mean tolerance (SD)", self.mean_tolerance),
                               ("overrides", " ".join(run.overrides)),
                               ("config changes", "; ".join(run.changes))):
                ET.SubElement(props, "property", name=key, value=str(value))
            classname = "fairplay." + run.name
            for item in items:
                if self.exact:
                    case = ET.SubElement(suite, "testcase", classname=classname,
                                         name=f"tally {item.tally}", time="0")
                    if item.failed:
                        failure = ET.SubElement(case, "failure", type="exact-mismatch",
                                                message=f"{item.tally} differs from the "
                                                        f"baseline: {item.detail}")
                        failure.text = failure.get("message")
                    continue
                case = ET.SubElement(suite, "testcase", classname=classname, name=item.name,
                                     time="0")
                if item.failed:
                    failure = ET.SubElement(case, "failure", type="regression",
                                            message=item.message())
                    before = list(item.baseline.counts) if item.baseline else "-"
                    after = list(item.new.counts) if item.new else "-"
                    failure.text = f"{item.message()}\ncounts: baseline {before}, new {after}"
                elif item.verdict == DRIFT:
                    out = ET.SubElement(case, "system-out")
                    out.text = "significant drift within tolerance: " + item.message()
        suites.set("tests", str(total_tests))
        suites.set("failures", str(total_failures))
        suites.set("errors", "0")
        suites.set("time", f"{total_time:.3f}")
        ET.indent(suites)
        return ET.ElementTree(suites)

    def write_junit(self, path) -> None:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        self.junit().write(path, encoding="utf-8", xml_declaration=True)
