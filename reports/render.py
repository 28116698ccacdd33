"""Rendering reports: numbers (reports.measures) + charts (reports.charts) -> one HTML file.

Public entry points:

* :func:`write_run_report` / :func:`render_run_report` — a run's balance report;
* :func:`write_sweep_report` / :func:`render_sweep_report` — a sweep's report;
* :func:`write_compare_report` / :func:`render_compare_report` — two results side by side.

A page is self-contained: its CSS is inline, its charts are inline SVG, and it has no script
except a JSON block (``id="fairplay-numbers"``) holding every number the page shows.
"""

from __future__ import annotations

import datetime as _dt
import json
import math
from importlib import metadata
from pathlib import Path

import jinja2
from markupsafe import Markup

from simulator import adaptive, stats
from simulator import roles as roles_module
from simulator import tune as tune_module
from simulator.fileio import write_atomically
from simulator.games import get_game
from simulator.compare import (Comparison, change_phrase, compare, difference_clause,
                                fairness_headline,
                               difference_sentence)
from simulator.results import Result
from simulator.sweep import Sweep

from . import charts, export, guidance, measures

CONFIDENCE = measures.CONFIDENCE


# --- the template environment ------------------------------------------------------------------
def _pct(x, digits: int = 1) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    return f"{100 * x:.{digits}f}%"


def _interval(row, digits: int = 1) -> str:
    if row is None or row.get("low") is None:
        return "n/a"
    return f"{100 * row['low']:.{digits}f}–{100 * row['high']:.{digits}f}%"


def _points(x, digits: int = 1) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    return f"{100 * x:+.{digits}f}"


def _num(x, digits: int = 0) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    if digits == 0 and float(x).is_integer():
        return f"{int(x):,}"
    return f"{x:,.{digits}f}"


def _p(p) -> str:
    if p is None:
        return "n/a"
    return stats.format_p(float(p))


def _version() -> str:
    try:
        return metadata.version("fairplay")
    except metadata.PackageNotFoundError:
        return "unknown"


def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("reports", "templates"),
        autoescape=jinja2.select_autoescape(["html", "j2"], default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters.update(pct=_pct, interval=_interval, points=_points, num=_num, p=_p,
                       approx=guidance.round_games, csv_link=_csv_link)
    return env


def _csv_link(table: dict | None) -> Markup:
    """A link that downloads a table as CSV from a data URI (no script, no file beside)."""
    if not table:
        return Markup("")
    return Markup('<a class="csv" download="{}" href="{}">Download CSV</a>').format(
        f"{table['name']}.csv", export.data_uri(table))


def _numbers_json(numbers: dict) -> Markup:
    text = json.dumps(numbers, ensure_ascii=False, allow_nan=False, sort_keys=False)
    # Inside <script>: "</" would end the element, "<!--" would open a comment.
    text = text.replace("</", "<\\/").replace("<!--", "<\\!--")
    return Markup(text)


def _page(template: str, numbers: dict, **context) -> str:
    env = environment()
    return env.get_template(template).render(
        numbers=numbers, numbers_json=_numbers_json(numbers), version=_version(),
        generated=_dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), **context)


def _write(text: str, path) -> Path:
    return write_atomically(path, text)


def _chart(kind: str, draw, caption: str, narrow=None) -> dict:
    """A chart in its two layouts: `draw()` is called once as is (wide) and once inside
    charts.narrow_layout() (a phone's), or `narrow()` there when the narrow one is drawn
    differently (a transposed heat map)."""
    wide = draw()
    with charts.narrow_layout():
        small = (narrow or draw)()
    return {"kind": kind, "svg": Markup(wide), "narrow": Markup(small), "caption": caption}


# --- a run -------------------------------------------------------------------------------------
def run_charts(numbers: dict) -> dict:
    """The charts of a run report, keyed by section."""
    out: dict[str, list] = {}
    rates = numbers["rates"]
    team_game = numbers["setup"]["scoring"] == "team"
    if rates["team"]:
        teams = numbers["setup"]["teams"]
        even = 1 / len(teams)
        out["team"] = [_chart("rates", lambda: charts.rates_chart(
            rates["team"], "Win rate by team", reference=even,
            reference_label="even game" if len(teams) == 2 else "equal share", full=True),
            "Share of all games each team won; whiskers are 95% Wilson intervals. The dashed "
            f"line is an equal share ({100 * even:.0f}%).")]
    if rates["seat"]:
        ref = numbers["seat_reference"]
        ref_label = "even share" if not team_game else "mean of seats"
        out["seat"] = [_chart("rates", lambda: charts.rates_chart(
            rates["seat"], "Win rate by seat", reference=ref, reference_label=ref_label),
            "Share of games each seat won" + (" (its team's win)" if team_game else "")
            + ". Seats differ only by position and chance; the dashed line is the "
            + ref_label + ".")]
    # In an individual game every seat-game has the same even share (1/players), the line a
    # role or strategy is judged against; in a team game a role's share depends on its team.
    even = None if team_game else numbers["seat_reference"]
    even_words = "" if team_game else " The dashed line is the even share (1/players)."
    if rates["role"]:
        out["role"] = [_chart("rates", lambda: charts.rates_chart(
            rates["role"], "Win rate by role", reference=even, reference_label="even share"),
            "Share of seat-games won by a seat that ended the game holding the role; whiskers "
            "are 95% intervals with the game as the unit." + even_words)]
    if rates["strategy"]:
        out["strategy"] = [_chart("rates", lambda: charts.rates_chart(
            rates["strategy"], "Win rate by strategy", reference=even,
            reference_label="even share"),
            "Share of seat-games won by seats playing each strategy; whiskers are 95% intervals "
            "with the game as the unit." + even_words)]
    if rates["end"]:
        out["end"] = [_chart("rates", lambda: charts.rates_chart(
            rates["end"], "How games end", full=True,
            xlabel="share of games (%), with 95% interval"),
            "Share of games that ended by each condition, with 95% Wilson intervals.")]
    length = numbers["length"]
    if length["games"] and length["min"] != length["max"]:  # one length needs no chart
        out["length"] = [_chart("histogram", lambda: charts.histogram_chart(
            length["hist"], "Game length", xlabel=f"game length ({length['unit']})",
            mean=length["mean"]),
            f"Share of games lasting each number of {length['unit']}; the dashed line is the "
            f"mean.")]
    out["scores"] = [section_charts(sec, "points") for sec in numbers["scores"]]
    out["other"] = [section_charts(sec, "") for sec in numbers["other_measures"]]
    return out


def section_charts(section: dict, unit: str) -> list[dict]:
    """The charts of one game-specific tally section (scores and other measures)."""
    title, by = section["title"].replace("_", " "), section.get("by", "")
    values = f"{title} ({unit})" if unit else title
    figs = []
    series = section.get("series") or []
    if section["kind"] == "distribution" and series:
        if len(series) == 1:
            figs.append(_chart("histogram", lambda: charts.histogram_chart(
                series[0]["counts"], f"Distribution of {title}", xlabel=values,
                mean=series[0]["mean"]), section["meaning"] or section["tally"]))
        else:
            figs.append(_chart("distribution", lambda: charts.distributions_chart(
                series, f"Distribution of {title} by {by}", xlabel=values,
                ylabel="share of games (%)" if by == "seat" else f"share of {by}-games (%)"),
                section["meaning"] or section["tally"]))
    if section["kind"] in ("distribution", "means") and len(section.get("means") or []) > 1:
        figs.append(_chart("means", lambda: charts.means_chart(
            section["means"], f"Mean {title} by {by}",
            xlabel=f"mean {values}, with 95% interval"),
            f"Means with 95% Student-t intervals (from {section['means_from']})."))
    if section["kind"] == "rates" and section["rates"]:
        figs.append(_chart("rates", lambda: charts.rates_chart(
            section["rates"], f"{title.capitalize()}: rate by {by}",
            xlabel="rate (%), with 95% interval"), section["meaning"]))
    return figs


def run_numbers(result: Result, confidence: float = CONFIDENCE, origin: str = "") -> dict:
    """Every number of a run report: reports.measures.run_numbers, plus what a designer acts on
    (the balance knobs and their sweeps), the scripted players in words, each role's count in
    words and each test's method. `origin` says where the result came from (a sweep's cell)."""
    numbers = measures.run_numbers(result, confidence)
    numbers["knobs"] = guidance.balance_knobs(result)
    numbers["strategies_line"] = guidance.strategy_line(result)
    numbers["origin"] = origin
    numbers["stopped"] = adaptive.sentence(result.data)  # an adaptive run: why it stopped
    _role_words(numbers["setup"], result)
    for test in numbers["tests"]:
        if not test.get("method"):
            test["method"] = guidance.test_method(result, test["name"])
    return numbers


def _role_words(setup: dict, result: Result) -> None:
    words = {r["name"]: r for r in guidance.roles_dealt(result)}
    for role in setup["roles_per_game"]:
        role["text"] = words[role["name"]]["text"] if role["name"] in words else \
            guidance.count_text(role["per_game"], role["name"])


def render_run_report(result: Result, confidence: float = CONFIDENCE, origin: str = "",
                      role_values: dict | None = None) -> str:
    """A run's report as one HTML string; `role_values` (schema fairplay.roles, from `fairplay
    run --role-values`) adds the section of what each role is worth."""
    numbers = run_numbers(result, confidence, origin)
    figures = run_charts(numbers)
    if role_values:
        numbers["role_values"] = _role_values_numbers(role_values)
        figures["role_values"] = roles_charts(role_values)
    return _page("run.html.j2", numbers, n=numbers, charts=figures,
                 tables=export.run_tables(numbers), titles=measures.GROUP_TITLES,
                 title=f"Balance report: {result.game.title}")


def write_run_report(result: Result, path, origin: str = "",
                     role_values: dict | None = None) -> Path:
    """Write the report of `result` (a simulator.results.Result) to `path` (HTML)."""
    return _write(render_run_report(result, origin=origin, role_values=role_values), path)


# --- a comparison ------------------------------------------------------------------------------
def _diff_dict(c: Comparison, d) -> dict:
    alpha = 1 - c.confidence
    ra = stats.wilson(d.k1, d.n1, c.confidence)
    rb = stats.wilson(d.k2, d.n2, c.confidence)
    return {
        "group": d.group, "name": d.name,
        "a": measures.rate_dict(ra, d.name, d.group), "b": measures.rate_dict(rb, d.name, d.group),
        "diff": measures._finite(d.diff), "low": measures._finite(d.low),
        "high": measures._finite(d.high), "p": float(d.pvalue), "p_holm": float(d.adjusted),
        "significant": d.significant(alpha),
        "sentence": difference_sentence(c, d),
        "clause": difference_clause(c, d),
    }


def role_value(a: Result, b: Result, role_index: int, confidence: float = CONFIDENCE) -> dict:
    """What a role is worth, from two results that deal it differently (B minus A).

    Team game: the change in the win rate of the role's team (share of all games). Individual
    game: minus the change in the win rate of every seat-game not holding the role (what the role
    takes from the others), a rate over seat-games.
    """
    game = a.game
    role = game.roles[role_index]
    if game.team_game and role.team in game.teams:
        team = game.teams.index(role.team)
        k1, n1 = int(a.tallies["team_wins"][team]), int(a.tallies["games"][0])
        k2, n2 = int(b.tallies["team_wins"][team]), int(b.tallies["games"][0])
        diff, low, high, p = stats.two_proportions(k1, n1, k2, n2, confidence)
        measure = f"{role.team} win rate"
        sign = 1
    else:
        def others(result):
            t = result.tallies
            k = int(t["seat_wins"].sum()) - int(t["role_wins"][role_index])
            n = int(t["games"][0]) * len(t["seat_wins"]) - int(t["role_games"][role_index])
            return k, n
        (k1, n1), (k2, n2) = others(a), others(b)
        d, lo, hi, p = stats.two_proportions(k1, n1, k2, n2, confidence)
        diff, low, high = -d, -hi, -lo
        measure = "win rate of the other seats (negated)"
        sign = -1
    return {"role": role.name, "team": role.team, "measure": measure, "sign": sign,
            "k1": k1, "n1": n1, "k2": k2, "n2": n2,
            "diff": measures._finite(diff), "low": measures._finite(low),
            "high": measures._finite(high), "p": float(p),
            "excludes_zero": bool(low > 0 or high < 0)}


def compare_numbers(c: Comparison, labels=("A", "B")) -> dict:
    alpha = 1 - c.confidence
    diffs = [_diff_dict(c, d) for d in c.differences]
    subject = change_phrase(c)
    team_rows = [d for d in diffs if d["group"] == "team"]
    significant = [d for d in diffs if d["significant"]]
    # Seats move with their teams, so their sentences would repeat the team's; they stay in the
    # tables. The others, largest change first.
    others = sorted((d for d in significant if d["group"] not in ("team", "seat")),
                    key=lambda d: -abs(d["diff"] or 0.0))
    headline_rows = team_rows or others[:1]
    lead = headline_rows[0]["sentence"] if headline_rows else ""

    def said(d, before) -> bool:
        """Is this the same fact as one said before (the other of two teams, a role or a
        strategy whose rate is its team's in both runs)?"""
        rates = [(x["a"]["rate"], x["b"]["rate"]) for x in (d, *before)]
        if any(r is None for pair in rates for r in pair):
            return False
        return any(len(team_rows) == 2 and e["group"] == d["group"] == "team" or
                   abs(rates[0][0] - ra) < 1e-12 and abs(rates[0][1] - rb) < 1e-12
                   for e, (ra, rb) in zip(before, rates[1:]))

    also, before = [], headline_rows[:1]
    for d in headline_rows[1:] + [d for d in others if d not in headline_rows]:
        if not said(d, before):
            also.append(d["clause"])
        before.append(d)
    role_values = []
    for name, before, after in c.role_changes:
        r = c.a.game.role_index(name)
        entry = role_value(c.a, c.b, r, c.confidence)
        entry["name"] = (f"{name} {guidance.per_game_text(before)} → "
                         f"{guidance.per_game_text(after)} per game")
        entry["before"], entry["after"] = before, after
        role_values.append(entry)
    length = {k: measures._finite(v) if isinstance(v, float) else v for k, v in c.length.items()}
    length["significant"] = bool(c.length["adjusted"] < alpha) \
        if not math.isnan(c.length["adjusted"]) else False
    sides = {}
    for key, result, label in (("a", c.a, labels[0]), ("b", c.b, labels[1])):
        side_setup = measures.setup(result)
        _role_words(side_setup, result)
        sides[key] = {"label": label, "setup": side_setup,
                      "strategies_line": guidance.strategy_line(result),
                      "balance": measures.balance(result, c.confidence),
                      "games": int(result.tallies["games"][0]),
                      "length": measures.length(result, c.confidence),
                      "reproducibility": measures.reproducibility(result)}
    numbers = {
        "kind": "compare",
        "game": c.a.game.name,
        "confidence": c.confidence,
        "labels": list(labels),
        "subject": subject,
        "changes": [{"key": k, "a": None if a is None else measures.value_text(a),
                     "b": None if b is None else measures.value_text(b)} for k, a, b in c.changes],
        "differences": diffs,
        "significant_count": len(significant),
        "tests": len(diffs) + (0 if length["p"] is None else 1),
        "lead": lead,
        "also": also,
        "length": length,
        "role_values": role_values,
        "only_in": c.only_in,
        "sides": sides,
        # "is B fairer than A?": each verdict measure's distance from its target, both runs
        "fairer": fairness_headline(c, labels),
        "fairness": [{"group": f.group, "name": f.name, "label": f.label,
                      "rate_a": measures._finite(f.rate_a), "rate_b": measures._finite(f.rate_b),
                      "target_a": f.target_a, "target_b": f.target_b,
                      "distance_a": measures._finite(f.distance_a),
                      "distance_b": measures._finite(f.distance_b),
                      "change": measures._finite(f.change), "low": measures._finite(f.low),
                      "high": measures._finite(f.high), "p_holm": measures._finite(f.adjusted),
                      "significant": bool(f.adjusted < alpha)} for f in c.fairness],
        "verdicts": [{"status": v.status, "headline": v.headline} for v in c.verdicts],
    }
    lines = [sides["a"]["strategies_line"], sides["b"]["strategies_line"]]
    numbers["strategies_line"] = (f"{lines[0]} in both setups" if lines[0] == lines[1] else
                                  f"{labels[0]}: {lines[0]}; {labels[1]}: {lines[1]}")
    return numbers


def render_compare_report(a: Result, b: Result, labels=("A", "B"),
                          confidence: float = CONFIDENCE) -> str:
    c = compare(a, b, confidence)
    numbers = compare_numbers(c, labels)
    figs = {}
    teams = [d for d in numbers["differences"] if d["group"] == "team"]
    if teams:
        figs["team"] = _chart("paired", lambda: charts.paired_rates_chart(
            [d["name"] for d in teams], [d["a"] for d in teams], [d["b"] for d in teams],
            "Win rate by team", labels=labels),
            f"{labels[0]} (blue circles) and {labels[1]} (orange squares), with 95% intervals.")
    if numbers["differences"]:
        rows = [dict(d, name=f"{d['group']}: {d['name']}" if d["group"] != "seat" else d["name"])
                for d in numbers["differences"]]
        figs["differences"] = _chart("differences", lambda: charts.differences_chart(
            rows, f"Differences, {labels[1]} minus {labels[0]}",
            xlabel="difference (percentage points), with 95% interval"),
            "Each rate's change in percentage points with its 95% Newcombe interval; filled "
            "diamonds are significant after Holm correction over all the comparisons.")
    la, lb = numbers["sides"]["a"]["length"], numbers["sides"]["b"]["length"]
    if la["games"] and lb["games"]:
        figs["length"] = _chart("distribution", lambda: charts.distributions_chart(
            [{"name": labels[0], "counts": la["hist"]}, {"name": labels[1], "counts": lb["hist"]}],
            "Game length", xlabel=f"game length ({la['unit']})", ylabel="share of games (%)"),
            "Share of games lasting each length, both setups.")
    if numbers["role_values"]:
        team_game = bool(c.a.game.team_game)
        figs["roles"] = _chart("values", lambda: charts.differences_chart(
            numbers["role_values"], "Role values",
            xlabel=("change in the role's team win rate (points), with 95% interval" if team_game
                    else "fall in the other seats' win rate (points), with 95% interval"),
            sort=True),
            f"What dealing more or fewer of a role is worth, {labels[1]} against {labels[0]} "
            "(percentage points, 95% Newcombe interval).")
    return _page("compare.html.j2", numbers, n=numbers, charts=figs, titles=measures.GROUP_TITLES,
                 tables=export.compare_tables(numbers), title=f"Comparison: {a.game.title}")


def write_compare_report(a: Result, b: Result, path, labels=("A", "B")) -> Path:
    return _write(render_compare_report(a, b, labels), path)


# --- a sweep -----------------------------------------------------------------------------------
def sweep_numbers(sweep: Sweep, confidence: float = CONFIDENCE, top: int = 3) -> dict:
    axes = [axis.to_json() for axis in sweep.axes]
    varied = [i for i, axis in enumerate(sweep.axes) if len(axis.values) > 1]
    cells = []
    for cell in sweep.cells:
        entry = {"index": cell.index, "levels": list(cell.levels),
                 "labels": [axis.level_label(v) for axis, v in zip(sweep.axes, cell.levels)],
                 "label": sweep.cell_label(cell), "status": cell.status, "error": cell.error,
                 "overrides": list(cell.overrides),
                 "command": cell.result.data.get("command", "") if cell.result else "",
                 "measures": None, "fairest": False, "rank": None, "dealt": "",
                 "strategies_line": ""}
        if cell.status == "ok" and cell.result is not None:
            entry["measures"] = measures.cell_measures(cell.result, confidence)
            entry["measures"]["role_rates"] = guidance.role_rates(cell.result, confidence)
            _role_words({"roles_per_game": entry["measures"]["roles"]}, cell.result)
            entry["dealt"] = ", ".join(r["text"] for r in entry["measures"]["roles"])
            entry["strategies_line"] = guidance.strategy_line(cell.result)
        cells.append(entry)
    valid = [c for c in cells if c["measures"] is not None]
    # a cell is fair when its own verdict is "balanced within the tolerance" (the run's verdict:
    # difference and equivalence tests), however many games it played
    covering = sorted((c for c in valid if c["measures"]["balance"]["verdict"] == "balanced"
                       and c["measures"]["balance"]["distance"] is not None),
                      key=lambda c: (c["measures"]["balance"]["distance"], c["index"]))
    verdict_counts = {status: sum(1 for c in valid
                                  if c["measures"]["balance"]["verdict"] == status)
                      for status in ("balanced", "unbalanced", "undecided")}
    band = (f"±{100 * valid[0]['measures']['balance']['tolerance']:.1f} points" if valid
            else "")
    for rank, c in enumerate(covering[:top], start=1):
        c["fairest"], c["rank"] = True, rank
    closest = min((c for c in valid if c["measures"]["balance"]["distance"] is not None),
                  key=lambda c: (c["measures"]["balance"]["distance"], c["index"]), default=None)
    game = sweep.game
    teams = list(game.teams)
    targets = sorted({round(c["measures"]["balance"]["target"], 12) for c in valid})
    target = targets[0] if len(targets) == 1 else None  # None: each cell has its own
    who = valid[0]["measures"]["balance"]["who"] if valid else (teams[0] if teams else "seat 0")
    others = (f" {verdict_counts['unbalanced']} are unbalanced beyond it, "
              f"{verdict_counts['undecided']} not settled yet.")
    if covering:
        best = covering[0]
        b = best["measures"]["balance"]
        summary = (f"{len(covering)} of {len(valid)} valid cells are balanced within {band} "
                   f"(each cell's own verdict).{others if len(covering) < len(valid) else ''} "
                   f"The fairest is {best['label']}: {who} wins {_pct(b['rate'])} of decided "
                   f"games (95% CI {_interval(b)}) against a target of {_pct(b['target'])}.")
    elif closest is not None:
        b = closest["measures"]["balance"]
        settled = ("every cell is unbalanced beyond the tolerance"
                   if verdict_counts["unbalanced"] == len(valid) else
                   f"{verdict_counts['unbalanced']} cells are unbalanced beyond it and "
                   f"{verdict_counts['undecided']} not settled yet (more games would tell)")
        summary = (f"No cell is balanced within {band}: {settled}. The closest is "
                   f"{closest['label']}, where {who} wins {_pct(b['rate'])} of decided games "
                   f"(95% CI {_interval(b)}) against a target of {_pct(b['target'])}.")
    else:
        summary = "No cell could be played: every cell's config is invalid."
    numbers = {
        "kind": "sweep",
        "game": sweep.data["game"],
        "confidence": confidence,
        "axes": axes,
        "varied": varied,
        "games": sweep.data["games"],
        "tune": sweep.data.get("tune"),  # a `fairplay tune` race: its log
        "tune_ties": tune_module.tie_sentence(sweep.data["tune"]) if sweep.data.get("tune")
        else "",
        "seed": sweep.data["seed"],
        "chunk_size": sweep.data.get("chunk_size"),
        "complete": sweep.complete,
        "cells": cells,
        "valid": len(valid),
        "invalid": sum(1 for c in cells if c["status"] == "invalid"),
        "pending": sum(1 for c in cells if c["status"] == "pending"),
        "fairest": [c["index"] for c in covering[:top]],
        "verdicts": verdict_counts,
        "tolerance_band": band,
        "closest": closest["index"] if closest else None,
        "target": target,
        "targets_vary": len(targets) > 1,
        "balance_who": who,
        "summary": summary,
        "role_values": sweep_role_values(sweep, confidence),
        "reproducibility": {
            "command": sweep.data.get("command", ""),
            "config": sweep.data.get("config", ""),
            "source": sweep.data.get("source", ""),
            "overrides": sweep.data.get("overrides", []),
            "versions": sweep.data.get("versions", {}),
            "created": sweep.data.get("created", ""),
            "elapsed_seconds": sweep.data.get("elapsed_seconds"),
            "config_toml": measures.toml_text(sweep.data.get("base_config", {})),
        },
        "teams": teams,
        "ends": list(game.end_names),
        "length_unit": game.length_unit,
        "title": game.title,
    }
    numbers["crossings"] = guidance.crossings(numbers)
    numbers["fair_region"] = guidance.fair_region(numbers)
    numbers["flips"] = guidance.strategy_flips(numbers)
    numbers["strategies_line"] = _sweep_strategies(numbers)
    return numbers


def _sweep_strategies(numbers: dict) -> str:
    """The scripted players of a sweep: one line when every cell has the same, else each line
    with the levels of the strategy keys (or the cells) that play it."""
    lines: dict[str, list[dict]] = {}
    for c in numbers["cells"]:
        if c["strategies_line"]:
            lines.setdefault(c["strategies_line"], []).append(c)
    if len(lines) <= 1:
        return next(iter(lines), "")
    keyed = [i for i, axis in enumerate(numbers["axes"]) if axis["key"].startswith("strategies")]
    parts = []
    for line, members in lines.items():
        if keyed:
            where = sorted({", ".join(f"{numbers['axes'][i]['key']} = {c['labels'][i]}"
                                      for i in keyed) for c in members})
            parts.append(f"{line} ({'; '.join(where)})")
        else:
            parts.append(f"{line} (cells {', '.join(str(c['index']) for c in members)})")
    return "; ".join(parts)


def sweep_role_values(sweep: Sweep, confidence: float = CONFIDENCE) -> list[dict]:
    """Role values from a sweep that varies a role count: for each step up of ``roles.<role>``
    (the next level of the axis, the other keys held), what the extra role does to its team's
    win rate (see :func:`role_value`)."""
    game = sweep.game
    by_levels = {tuple(map(json.dumps, cell.levels)): cell for cell in sweep.cells}
    entries = []
    for a_index, axis in enumerate(sweep.axes):
        if axis.op != "set" or not axis.key.startswith("roles."):
            continue
        role = axis.key.split(".", 1)[1]
        if role not in game.role_names():
            continue
        levels = sorted(v for v in axis.values if isinstance(v, int) and not isinstance(v, bool))
        for cell in sweep.cells:
            level = cell.levels[a_index]
            if cell.status != "ok" or level not in levels or level == levels[-1]:
                continue
            nxt = levels[levels.index(level) + 1]
            partner_levels = list(cell.levels)
            partner_levels[a_index] = nxt
            partner = by_levels.get(tuple(map(json.dumps, partner_levels)))
            if partner is None or partner.status != "ok":
                continue
            entry = role_value(cell.result, partner.result, game.role_index(role), confidence)
            context = ", ".join(f"{ax.key}={ax.level_label(v)}" for i, (ax, v) in
                                enumerate(zip(sweep.axes, cell.levels))
                                if i != a_index and len(ax.values) > 1)
            entry["name"] = f"{role} {level}→{nxt}" + (f" ({context})" if context else "")
            entry["from_cell"], entry["to_cell"] = cell.index, partner.index
            entries.append(entry)
    entries.sort(key=lambda e: -(e["diff"] if e["diff"] is not None else -math.inf))
    return entries


def _series_over(cells, getter):
    values, lows, highs = [], [], []
    for c in cells:
        m = c["measures"] if c else None
        row = getter(m) if m else None
        values.append(None if row is None else row.get("rate", row.get("mean")))
        lows.append(None if row is None else row.get("low"))
        highs.append(None if row is None else row.get("high"))
    return values, lows, highs


def sweep_charts(numbers: dict) -> list[dict]:
    varied = numbers["varied"]
    axes = numbers["axes"]
    cells = numbers["cells"]
    figs = []
    if len(varied) == 1:
        a = varied[0]
        axis = axes[a]
        # one cell per level (the other axes have a single level)
        line = [next((c for c in cells if c["levels"][a] == v), None) for v in axis["values"]]
        levels = axis["values"]  # the chart spaces numeric levels by value, others evenly
        highlight = [i for i, c in enumerate(line) if c and c["fairest"]]
        highlight.sort(key=lambda i: line[i]["rank"])
        if numbers["teams"]:
            series = []
            for t, team in enumerate(numbers["teams"]):
                v, lo, hi = _series_over(line, lambda m, t=t: m["teams"][t])
                series.append({"name": team, "values": v, "lows": lo, "highs": hi})
            target = numbers["target"]
            if target is None:  # each cell's own balance_target
                target = [c["measures"]["balance"]["target"] if c and c["measures"] else None
                          for c in line]
            figs.append(_chart("line", lambda: charts.line_chart(
                levels, axis["labels"], series, "Win rate by team", xlabel=axis["key"],
                ylabel="win rate (%)", target=target,
                target_label=f"target for {numbers['teams'][0]}", highlight=highlight),
                f"Each team's share of all games at each {axis['key']}; bands are 95% Wilson "
                f"intervals. Rings mark the fairest cells; the dashed line is the balance target "
                f"of {numbers['teams'][0]}."))
        else:
            v, lo, hi = _series_over(line, lambda m: m["balance"])
            figs.append(_chart("line", lambda: charts.line_chart(
                levels, axis["labels"], [{"name": "seat 0 share", "values": v, "lows": lo,
                                          "highs": hi}],
                "First seat's share of decided games", xlabel=axis["key"], ylabel="share (%)",
                highlight=highlight, target_label="even share (1/players)",
                target=[c["measures"]["balance"]["target"] if c and c["measures"] else None
                        for c in line]),
                "The first seat's share of decided games (bands: 95% intervals); the dashed line "
                "is an even share, 1/players. Rings mark the fairest cells."))
        series = []
        for e, name in enumerate(numbers["ends"]):
            v, lo, hi = _series_over(line, lambda m, e=e: m["ends"][e])
            series.append({"name": name, "values": v, "lows": lo, "highs": hi})
        figs.append(_chart("line", lambda: charts.line_chart(
            levels, axis["labels"], series, "How games end", xlabel=axis["key"],
            ylabel="share of games (%)"),
            "Share of games ending by each condition, with 95% interval bands."))
        v, lo, hi = _series_over(line, lambda m: m["length"])
        figs.append(_chart("line", lambda: charts.line_chart(
            levels, axis["labels"], [{"name": "mean length", "values": v, "lows": lo,
                                      "highs": hi}],
            "Game length", xlabel=axis["key"], ylabel=f"mean length ({numbers['length_unit']})",
            scale=1.0),
            f"Mean game length in {numbers['length_unit']}, with 95% Student-t interval band."))
        played = [(label, c) for label, c in zip(axis["labels"], line) if c and c["measures"]]
        if played:
            figs.append(_chart("distribution", lambda: charts.distributions_chart(
                [{"name": f"{axis['key']} = {label}", "counts": c["measures"]["length"]["hist"]}
                 for label, c in played],
                "Game length by cell", xlabel=f"game length ({numbers['length_unit']})",
                ylabel="share of games (%)"),
                "How long each cell's games last: the share of games of each length."))
    elif len(varied) == 2:
        ax_x, ax_y = varied[1], varied[0]  # the first varied key runs down, the second across
        xa, ya = axes[ax_x], axes[ax_y]
        grid = {}
        for c in cells:
            grid[(json.dumps(c["levels"][ax_x]), json.dumps(c["levels"][ax_y]))] = c

        def matrix(getter):
            vals, lows, highs = [], [], []
            for yv in ya["values"]:
                rv, rl, rh = [], [], []
                for xv in xa["values"]:
                    c = grid.get((json.dumps(xv), json.dumps(yv)))
                    row = getter(c["measures"]) if c and c["measures"] else None
                    rv.append(None if row is None else row.get("rate", row.get("mean")))
                    rl.append(None if row is None else row.get("low"))
                    rh.append(None if row is None else row.get("high"))
                vals.append(rv)
                lows.append(rl)
                highs.append(rh)
            return vals, lows, highs

        fairest, covers = [], []
        for yi, yv in enumerate(ya["values"]):
            for xi, xv in enumerate(xa["values"]):
                c = grid.get((json.dumps(xv), json.dumps(yv)))
                if c and c["fairest"]:
                    fairest.append((xi, yi))
                if c and c["measures"] and c["measures"]["balance"]["covers_target"]:
                    covers.append((xi, yi))
        v, lo, hi = matrix(lambda m: m["balance"])
        who = numbers["balance_who"]
        if numbers["target"] is not None:
            target, centers = numbers["target"], None
            label, where = f"{who}'s share (%)", f"the balance target ({_pct(target)}, white)"
        else:
            target = None
            centers, _, _ = matrix(lambda m: {"rate": m["balance"]["target"]})
            label = "points above the cell's target"
            where = "each cell's own target (white)"
        wide, small = _heatmaps(xa, ya, v, lo, hi, f"{who}'s share of decided games (%)",
                                target=target, centers=centers, colorbar_label=label,
                                fairest=fairest, covers=covers)
        figs.append(_chart("heatmap", wide, (
            f"Each cell: {who}'s share of decided games ± the half-width of its 95% interval. "
            f"Colours diverge from {where}: orange where {who} wins less than the target, "
            f"purple where more. Dotted outlines mark the fair region (the cell's interval "
            f"covers the target), green outlines the fairest cells; hatched cells are invalid "
            f"setups."), narrow=small))
        v, lo, hi = matrix(lambda m: m["length"])
        wide, small = _heatmaps(xa, ya, v, lo, hi, f"Mean game length ({numbers['length_unit']})",
                                colorbar_label=f"{numbers['length_unit']}", scale=1.0,
                                value_digits=2, show_halfwidth=False)
        figs.append(_chart("heatmap", wide,
                           f"Mean game length in {numbers['length_unit']} for each cell.",
                           narrow=small))
        # a line chart per level of the second key: the balance measure along the first
        for xv, xlabel in zip(xa["values"], xa["labels"]):
            line = [grid.get((json.dumps(xv), json.dumps(yv))) for yv in ya["values"]]
            highlight = sorted((i for i, c in enumerate(line) if c and c["fairest"]),
                               key=lambda i: line[i]["rank"])
            bv, blo, bhi = _series_over(line, lambda m: m["balance"])
            level_target = numbers["target"] if numbers["target"] is not None else \
                [c["measures"]["balance"]["target"] if c and c["measures"] else None
                 for c in line]
            level = guidance.quantity(xa["key"], xv, xlabel)
            figs.append(_chart("line", lambda: charts.line_chart(
                ya["values"], ya["labels"], [{"name": f"{who}'s share", "values": bv,
                                              "lows": blo, "highs": bhi}],
                f"{who}'s share of decided games, {level}", xlabel=ya["key"],
                ylabel="share of decided games (%)", target=level_target,
                target_label="target", highlight=highlight),
                f"With {level}: {who}'s share of decided games at each {ya['key']}, with its "
                f"95% interval band; the dashed line is the target, rings mark the fairest "
                f"cells."))
    if numbers["role_values"]:
        if numbers["teams"]:
            xlabel = "change in the role's team win rate (points), with 95% interval"
            what = "What one more of a role is worth to its team: the change in its team's win rate"
        else:
            xlabel = "fall in the other seats' win rate (points), with 95% interval"
            what = ("What one more of a role is worth: how much the win rate of the seats not "
                    "holding it falls")
        figs.append(_chart("values", lambda: charts.differences_chart(
            numbers["role_values"], "Role values", xlabel=xlabel, sort=True),
            what + " (percentage points, 95% Newcombe interval) from one level of the role count "
            "to the next, the other keys held; sorted by value."))
    return figs


def _heatmaps(xa: dict, ya: dict, values, lows, highs, title: str, *, centers=None,
              fairest=(), covers=(), **options):
    """The wide and narrow drawings of a heat map; the narrow one turns a grid that is wider
    than tall (more than five columns) on its side, to fit a phone."""

    def flip(m):
        return None if m is None else [list(row) for row in zip(*m)]

    def wide():
        return charts.heatmap(xa["labels"], ya["labels"], values, lows, highs, title,
                              xlabel=xa["key"], ylabel=ya["key"], centers=centers,
                              fairest=list(fairest), covers=list(covers), **options)

    def turned():
        return charts.heatmap(ya["labels"], xa["labels"], flip(values), flip(lows), flip(highs),
                              title, xlabel=ya["key"], ylabel=xa["key"], centers=flip(centers),
                              fairest=[(y, x) for x, y in fairest],
                              covers=[(y, x) for x, y in covers], **options)

    nx, ny = len(xa["labels"]), len(ya["labels"])
    return wide, (turned if nx > 5 and ny < nx else None)


def render_sweep_report(sweep: Sweep, confidence: float = CONFIDENCE) -> str:
    numbers = sweep_numbers(sweep, confidence)
    return _page("sweep.html.j2", numbers, n=numbers, charts=sweep_charts(numbers),
                 tables=export.sweep_tables(numbers), title=f"Sweep report: {numbers['title']}")


def write_sweep_report(sweep: Sweep, path) -> Path:
    return _write(render_sweep_report(sweep), path)



# --- role values (fairplay roles) --------------------------------------------------------------
def roles_charts(data: dict) -> list[dict]:
    rows = [{"name": r["role"], "diff": r["value"], "low": r["low"], "high": r["high"]}
            for r in data["roles"]]
    title = f"{data['team']} win rate with one more of each role (in place of a {data['filler']})"
    return [_chart("values", lambda: charts.differences_chart(
        rows, title, xlabel="change in percentage points, 95% simultaneous paired interval",
        sort=True),
        "Each role's value: the point estimate and its 95% paired interval, widened so that "
        "the intervals of every role hold together (one base run); the zero line is the base "
        "setup.")]


def _role_values_numbers(data: dict) -> dict:
    """Role values (schema fairplay.roles) with their notes in one list, for the templates."""
    numbers = dict(data)
    numbers["notes"] = roles_module.notes(data)
    numbers["measured_with"] = roles_module.measured_with(data["strategies"]) \
        if data.get("strategies") else ""
    # each role's original (Chinese) name beside its key
    numbers["labels"] = {role.name: role.label for role in get_game(data["game"]).roles
                         if role.label}
    return numbers


def render_roles_report(data: dict) -> str:
    """The report of `fairplay roles`: the values as a chart and a table (schema fairplay.roles)."""
    numbers = _role_values_numbers(data)
    return _page("roles.html.j2", numbers, n=numbers, charts=roles_charts(data),
                 title=f"Role values: {data['game']}, {data['players']} players")


def write_roles_report(data: dict, path) -> Path:
    return _write(render_roles_report(data), path)
