"""Every number a report shows, assembled: a run's, a comparison's, a sweep's and role values.

Each function returns the plain dicts and lists one page shows (and embeds as its JSON block):
the statistics come from reports.measures and the simulator, the sentences a designer acts on
from reports.guidance. reports.render lays them out; `fairplay sweep` and `fairplay export` read
the same numbers.
"""

from __future__ import annotations

import json
import math

from simulator.statistics import adaptive, inference
from simulator.studies import roles as roles_module
from simulator.studies import tune as tune_module
from simulator.studies.compare import (
    Comparison, change_phrase, difference_clause, difference_sentence, fairness_headline,
)
from simulator.games import get_game
from simulator.run.results import Result
from simulator.statistics.summary import players_line
from simulator.studies.sweep import Sweep

from . import guidance, measures
from .guidance import interval_text, percent

CONFIDENCE = measures.CONFIDENCE


# --- a run -------------------------------------------------------------------------------------
def run_numbers(result: Result, confidence: float = CONFIDENCE, origin: str = "") -> dict:
    """Every number of a run report: reports.measures.run_numbers, plus what a designer acts on
    (the balance knobs and their sweeps), the scripted players in words, each role's count in
    words and each test's method. `origin` says where the result came from (a sweep's cell)."""
    numbers = measures.run_numbers(result, confidence)
    numbers["knobs"] = guidance.balance_knobs(result)
    numbers["strategies_line"] = players_line(result)
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


# --- a comparison ------------------------------------------------------------------------------
def _difference(c: Comparison, d) -> dict:
    alpha = 1 - c.confidence
    ra = inference.wilson(d.k1, d.n1, c.confidence)
    rb = inference.wilson(d.k2, d.n2, c.confidence)
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
        diff, low, high, p = inference.two_proportions(k1, n1, k2, n2, confidence)
        measure = f"{role.team} win rate"
        sign = 1
    else:
        def others(result):
            t = result.tallies
            k = int(t["seat_wins"].sum()) - int(t["role_wins"][role_index])
            n = int(t["games"][0]) * len(t["seat_wins"]) - int(t["role_games"][role_index])
            return k, n
        (k1, n1), (k2, n2) = others(a), others(b)
        d, lo, hi, p = inference.two_proportions(k1, n1, k2, n2, confidence)
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
    diffs = [_difference(c, d) for d in c.differences]
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
                      "strategies_line": players_line(result),
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
            entry["strategies_line"] = players_line(cell.result)
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
                   f"The fairest is {best['label']}: {who} wins {percent(b['rate'])} of "
                   f"decided games (95% CI {interval_text(b)}) against a target of "
                   f"{percent(b['target'])}.")
    elif closest is not None:
        b = closest["measures"]["balance"]
        settled = ("every cell is unbalanced beyond the tolerance"
                   if verdict_counts["unbalanced"] == len(valid) else
                   f"{verdict_counts['unbalanced']} cells are unbalanced beyond it and "
                   f"{verdict_counts['undecided']} not settled yet (more games would tell)")
        summary = (f"No cell is balanced within {band}: {settled}. The closest is "
                   f"{closest['label']}, where {who} wins {percent(b['rate'])} of decided games "
                   f"(95% CI {interval_text(b)}) against a target of {percent(b['target'])}.")
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


# --- role values -------------------------------------------------------------------------------
def role_values_numbers(data: dict) -> dict:
    """Role values (schema fairplay.roles) with their notes in one list, for the templates."""
    numbers = dict(data)
    numbers["notes"] = roles_module.notes(data)
    numbers["measured_with"] = roles_module.measured_with(data["strategies"]) \
        if data.get("strategies") else ""
    # each role's original (Chinese) name beside its key
    numbers["labels"] = {role.name: role.label for role in get_game(data["game"]).roles
                         if role.label}
    return numbers
