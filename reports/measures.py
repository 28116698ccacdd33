"""The numbers a report shows, computed from a result file and nothing else.

Every function here takes a :class:`simulator.run.results.Result` (or a sweep or a comparison built
from result files) and returns plain dicts and lists of numbers and strings. The templates only
format these values, and the same dicts are embedded in the page as a JSON block
(``<script type="application/json" id="fairplay-numbers">``), so a test, or a designer's script,
can check every number against :mod:`simulator.statistics.inference`.

Rates are Wilson intervals (``inference.wilson``) at 95% unless told otherwise; the "balance
measure" of a result is the share of *decided* games won by the first team (the first seat in an
individual game), against the config's ``balance_target`` (default: an equal share), as in the
verdict of :func:`simulator.statistics.inference.favoured_sentence`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from reports.guidance import round_games
from simulator.statistics import adaptive, headline, inference, summary
from simulator.statistics import verdict as verdicts
from simulator.setup.config import COMMON_KEYS
from simulator.games.base import MAX_STRATEGY_SLOTS
from simulator.statistics.rates import position_label
from simulator.run.results import Result
from simulator.statistics.summary import summarize

CONFIDENCE = 0.95

GROUP_TITLES = headline.RATE_TABLES


def _finite(x) -> float | None:
    """JSON has no NaN: a missing number is None."""
    x = float(x)
    return x if math.isfinite(x) else None


def rate_dict(rate: inference.Rate, name: str = "", group: str = "", games: int | None = None) -> dict:
    """A rate as numbers, with the games needed to halve its interval.

    ``games_to_halve`` is in games: a rate over seat-games (roles, strategies) is worth its
    effective trials (the game is the unit), which grow in proportion to the games.
    """
    if rate.effective_trials is not None and games is not None:
        halve = inference.games_to_halve_rate(rate, games)
    else:
        halve = inference.games_to_halve(rate.successes, rate.trials, rate.confidence)
        if games is not None and rate.trials and games != rate.trials:
            halve = math.ceil(halve * games / rate.trials)
    return {
        "group": group,
        "name": name,
        # what the interval is: "95% CI", or after a sequential stop "95% CI at the stop" or
        # "repeated 95% CI" (simulator.statistics.adaptive)
        "interval": interval_name(rate),
        "successes": int(rate.successes),
        "trials": int(rate.trials),
        "rate": _finite(rate.value),
        "low": float(rate.low),
        "high": float(rate.high),
        "half_width": float(rate.half_width),
        "games_to_halve": int(halve),
    }


def interval_name(rate: inference.Rate) -> str:
    """What a rate's interval is, in the words the run's summary prints beside it."""
    return rate.label or f"{inference._confidence_label(rate.confidence)}% CI"


def summary_of(result: Result, confidence: float = CONFIDENCE):
    """The run's summary as `fairplay run` prints it: at the default confidence, a run the
    sequential test stopped has the intervals that hold after its stop (summary.summarize); at
    any other, plain intervals at that level."""
    return summarize(result, None if confidence == CONFIDENCE else confidence)


def first_rate(summary, group: str, name: str, confidence: float) -> dict:
    """The first row of a summary's group as numbers (no games: an empty rate)."""
    rows = summary.rows_of(group)
    rate = rows[0].rate if rows else inference.wilson(0, 0, confidence)
    return rate_dict(rate, name, "draws" if group == "draw" else group, summary.games)


def first_team_target(result: Result) -> float:
    """The intended share of decided games of the first team (first seat when individual)."""
    from simulator.statistics import verdict as verdicts

    game = result.game
    target = result.data.get("config", {}).get("balance_target")
    if game.team_game:
        targets = verdicts.team_targets(game, result.tallies, target,
                                        result.data.get("dealt_teams"))
        return float(targets.get(0, 0.0))
    return 1 / len(result.tallies["seat_wins"])


def balance(result: Result, confidence: float = CONFIDENCE, summary=None) -> dict:
    """The balance measure: the first team's (seat's) share of decided games vs its target.

    After a sequential stop its interval is the summary's: the row of the first team (seat)
    where the decided games are all the games (the same rate), else its repeated interval
    (adaptive.repeated), as every rate but the deciding one."""
    summary = summary if summary is not None else summary_of(result, confidence)
    game, t = result.game, result.tallies
    if game.team_game:
        wins, who = t["team_wins"], game.teams[0]
    else:
        wins, who = t["seat_wins"], "seat 0"
    if game.team_game:  # the games won by a team somebody was dealt
        from simulator.statistics import verdict as verdicts

        wins = wins[verdicts.dealt_teams(game, t, result.data.get("dealt_teams"))]
        who = game.teams[0]
    decided = int(np.sum(wins))
    rate = inference.wilson(int(wins[0]), decided, confidence)
    stop = summary.stop
    if stop is not None and any(row.rate.label for row in summary.rows):
        row = next((row for row in summary.rows_of("team" if game.team_game else "seat")
                    if row.name == who), None)
        rate = row.rate if row is not None and (row.rate.successes, row.rate.trials) == \
            (rate.successes, rate.trials) else adaptive.repeated(rate, stop.c_unbalanced)
    target = first_team_target(result)
    value = rate.value
    out = rate_dict(rate, who, "balance", decided)
    judged = summary.judgement  # the run's verdict, as `fairplay run` says
    out.update({
        "label": f"{who}'s share of decided games",
        "who": who,
        "target": target,
        "distance": _finite(abs(value - target)) if rate.trials else None,
        "covers_target": bool(rate.low <= target <= rate.high),
        "decided": decided,
        "verdict": judged.status,  # balanced (within the tolerance), unbalanced, undecided
        "verdict_headline": judged.headline,
        "tolerance": judged.tolerance,
    })
    return out


def _flat(table: dict, prefix: str = "") -> list[tuple[str, Any]]:
    rows = []
    for key, value in table.items():
        if isinstance(value, dict) and value:
            rows += _flat(value, f"{prefix}{key}.")
        else:
            rows.append((f"{prefix}{key}", value))
    return rows


def value_text(value) -> str:
    from simulator.studies.sweep import label

    return label(value)


def toml_text(raw: dict) -> str:
    """A config dict as TOML text: top-level keys first, then one [table] per table."""
    from simulator.studies.sweep import toml_key, toml_value

    lines = []
    tables = []
    for key, value in raw.items():
        if isinstance(value, dict):
            tables.append((toml_key(key), value))
        else:
            lines.append(f"{toml_key(key)} = {toml_value(value)}")

    def emit(name, table):
        scalars = [(k, v) for k, v in table.items() if not isinstance(v, dict)]
        subs = [(k, v) for k, v in table.items() if isinstance(v, dict)]
        if scalars or not subs:
            lines.append("")
            lines.append(f"[{name}]")
            for k, v in scalars:
                lines.append(f"{toml_key(k)} = {toml_value(v)}")
        for k, v in subs:
            emit(f"{name}.{toml_key(k)}", v)

    for name, table in tables:
        emit(name, table)
    return "\n".join(lines).strip() + "\n"


# --- the game's own tallies ------------------------------------------------------------------------
def axis_labels(result: Result, tally) -> list[str]:
    """Labels of a tally's entries, from its declared axis."""
    game, t = result.game, result.tallies
    if tally.axis == "seat":
        return [f"seat {i}" for i in range(len(t["seat_wins"]))]
    if tally.axis == "role":
        return [role.name for role in game.roles]
    if tally.axis == "team":
        return list(game.teams)
    if tally.axis == "slot":
        labels = list(result.data.get("strategies", []))
        return labels + [f"slot {i}" for i in range(len(labels), MAX_STRATEGY_SLOTS)]
    if tally.axis == "end":
        return game.end_names
    if tally.axis == "event":
        return game.event_names
    if tally.axis == "decision":
        return [kind.name for kind in game.decisions]
    if tally.axis == "position":
        return [position_label(i) for i in range(len(t["seat_wins"]))]
    if tally.axis == "round":
        return [f"{game.length_unit[:-1] if game.length_unit.endswith('s') else game.length_unit}"
                f" {i}" for i in range(game.max_length + 1)]
    return ["all"]


_BY = {"seat": "seat", "role": "role", "slot": "strategy", "team": "team", "end": "end",
       "event": "event", "decision": "decision", "position": "position", "round": "round",
       "none": "all"}


def _hist_stats(counts: np.ndarray, confidence: float) -> dict:
    values = np.arange(len(counts), dtype=float)
    n = float(counts.sum())
    total = float((values * counts).sum())
    total_sq = float((values ** 2 * counts).sum())
    mean, low, high = inference.mean_interval(total, total_sq, n, confidence)
    sd = math.sqrt(max(total_sq - total * total / n, 0.0) / (n - 1)) if n > 1 else None
    return {"n": int(n), "mean": _finite(mean), "low": _finite(low), "high": _finite(high),
            "sd": _finite(sd) if sd is not None else None}


def _trials(result: Result, tally) -> np.ndarray:
    """The trials of a tally declared `per` another (per "games": the games of the run)."""
    t = result.tallies
    size = t[tally.name].shape[0]
    if not tally.per or tally.per == "games":
        return np.full(size, int(t["games"][0]))
    return t[tally.per].reshape(-1)[:size]


def _means(result: Result, total, confidence: float) -> list[dict]:
    """Means with Student-t intervals from a declared sum, its squares and its trials."""
    t = result.tallies
    sums, squares = t[total.name].reshape(-1), t[total.square].reshape(-1)
    trials = _trials(result, total)
    means = []
    for i, row_label in enumerate(axis_labels(result, total)[:sums.size]):
        n = int(trials[i])
        if n == 0:
            continue
        mean, low, high = inference.mean_interval(float(sums[i]), float(squares[i]), n, confidence)
        sd = math.sqrt(max(float(squares[i]) - float(sums[i]) ** 2 / n, 0.0) / (n - 1)) \
            if n > 1 else None
        means.append({"name": row_label, "n": n, "sum": int(sums[i]), "sum_sq": int(squares[i]),
                      "mean": _finite(mean), "low": _finite(low), "high": _finite(high),
                      "sd": _finite(sd) if sd is not None else None})
    return means


def _title(name: str) -> str:
    for suffix in ("_hist", "_sum"):
        if name.endswith(suffix):
            return name[:-len(suffix)]
    return name


def tally_sections(result: Result, tallies, confidence: float = CONFIDENCE) -> list[dict]:
    """Sections for the game's own tallies, each read by its declaration (base.Tally): a
    histogram gives a distribution (with exact means from its `total` sum when declared), a sum
    gives means over its trials, a count declared `per` another gives rates, any other count a
    table of values. Partners (squares, trials, a histogram's sum) are read with the tally that
    names them."""
    t = result.tallies
    game = result.game
    present = [tally for tally in tallies if tally.name in t]
    used: set[str] = set()  # read with the tally that names them, whatever its section
    for tally in game.all_tallies():
        if tally.holds == "histogram" and tally.total:
            used.update({tally.total, game.tally(tally.total).square})
        elif tally.holds == "sum":
            used.add(tally.square)
            if tally.per not in ("", "games"):
                used.add(tally.per)
        elif tally.holds == "count" and tally.per:
            used.add(tally.per)
    sections = []
    for tally in present:
        if tally.name in used or tally.holds == "sum_sq":
            continue
        array, name, meaning = t[tally.name], tally.name, tally.meaning
        by = _BY[tally.axis]
        if tally.holds == "histogram":
            rows = [("all", array)] if array.ndim == 1 else \
                list(zip(axis_labels(result, tally), array))
            series = []
            for row_label, counts in rows:
                counts = np.asarray(counts, dtype=np.int64)
                if counts.sum() == 0:
                    continue
                entry = {"name": row_label, "counts": counts.tolist()}
                entry.update(_hist_stats(counts, confidence))
                series.append(entry)
            section = {"kind": "distribution", "tally": name, "title": _title(name),
                       "meaning": meaning, "by": by, "series": series, "means": [],
                       "means_from": "histogram"}
            if tally.total:
                total = game.tally(tally.total)
                section["means"] = _means(result, total, confidence)
                section["means_from"] = f"{total.name}, {total.square}"
            elif series:  # the histogram's own means (its last bin may be clipped)
                section["means"] = [{k: s[k] for k in ("name", "n", "mean", "low", "high", "sd")}
                                    for s in series]
            sections.append(section)
        elif tally.holds == "sum":
            sections.append({"kind": "means", "tally": name, "title": _title(name),
                             "meaning": meaning, "by": by, "series": [],
                             "means": _means(result, tally, confidence),
                             "means_from": f"{name}, {tally.square}"})
        elif tally.per:
            games = int(t["games"][0])
            trials = _trials(result, tally)
            rates = [rate_dict(inference.wilson(int(k), int(n), confidence), label, name, games)
                     for label, k, n in zip(axis_labels(result, tally), array.reshape(-1),
                                            trials) if n]
            trials_meaning = game.tally(tally.per).meaning if tally.per != "games" else "games"
            sections.append({"kind": "rates", "tally": name, "title": name,
                             "meaning": f"{trials_meaning}; {meaning}".strip("; "),
                             "by": by, "rates": rates, "trials": tally.per})
        else:
            flat = array.reshape(-1)
            labels = axis_labels(result, tally) if array.ndim == 1 else \
                [str(i) for i in range(flat.size)]
            sections.append({"kind": "values", "tally": name, "title": name, "meaning": meaning,
                             "entries": [{"name": lab, "value": int(v)}
                                         for lab, v in zip(labels, flat)]})
    return sections


def _own_tallies(result: Result, section: str):
    return [tally for tally in result.game.tallies if tally.section == section]


def scores(result: Result, confidence: float = CONFIDENCE) -> list[dict]:
    """One section per score tally (declared with section "scores"); none when the game keeps
    no scores."""
    return tally_sections(result, _own_tallies(result, "scores"), confidence)


# The engine's tempo tallies, shown with the game's other measures when the game keeps them.
TEMPO_TALLIES = ("margin_hist", "leader_wins", "lead_changes_hist")


def other_measures(result: Result, confidence: float = CONFIDENCE) -> list[dict]:
    """The game's other own tallies (declared with section "measures"), then the tempo tallies
    (winning margins, whether the early leader wins, lead changes) when the game keeps them."""
    t = result.tallies
    tempo = [result.game.tally(name) for name in TEMPO_TALLIES
             if name in t and t[name].any()]
    return tally_sections(result, list(_own_tallies(result, "measures")) + tempo, confidence)


# --- a whole run -------------------------------------------------------------------------------
def length(result: Result, confidence: float = CONFIDENCE) -> dict:
    hist = result.tallies["length_hist"].astype(np.int64)
    games = int(hist.sum())
    out = {"unit": result.game.length_unit, "hist": hist.tolist(), "games": games}
    out.update(_hist_stats(hist, confidence) if games else
               {"n": 0, "mean": None, "low": None, "high": None, "sd": None})
    if games:
        cumulative = np.cumsum(hist)
        out["median"] = int(np.searchsorted(cumulative, games / 2))
        out["p90"] = int(np.searchsorted(cumulative, 0.9 * games))
        nonzero = np.nonzero(hist)[0]
        out["min"], out["max"] = int(nonzero[0]), int(nonzero[-1])
    return out


def setup(result: Result) -> dict:
    """What the report is about: game, players, roles, variants, strategies, notes, provisos."""
    data, game, t = result.data, result.game, result.tallies
    raw = data.get("config", {})
    players = raw.get("players", len(t["seat_wins"]))
    game_part = {k: v for k, v in raw.items() if k not in COMMON_KEYS}
    strategies_table = raw.get("strategies", {}) if isinstance(raw.get("strategies"), dict) else {}
    games = int(t["games"][0])
    role_counts = []
    for r, role in enumerate(game.roles):
        if games and t["role_games"][r]:
            role_counts.append({"name": role.name, "label": role.label, "team": role.team,
                                "per_game": float(t["role_games"][r]) / games})
    notes = data.get("setup_notes") or {}
    return {
        "game": game.name,
        "title": game.title,
        "scoring": game.scoring,
        "teams": list(game.teams),
        "players": players,
        "description": raw.get("description", ""),
        "source": data.get("source", ""),
        "game_source": game.source,
        "roles_per_game": role_counts,
        "knobs": [{"key": k, "value": value_text(v)} for k, v in _flat(game_part)],
        "strategy_keys": [{"key": k, "value": value_text(v)} for k, v in _flat(strategies_table)],
        "strategy_slots": [label for s, label in enumerate(data.get("strategies", []))],
        "balance_target": raw.get("balance_target"),
        "notes": [{"key": str(k), "value": value_text(v)} for k, v in notes.items()],
        "provisional": list(summary.provisional_of(result)),
    }


def reproducibility(result: Result) -> dict:
    data = result.data
    games_played = int(result.tallies["games"][0])
    return {
        "command": data.get("command") or "",
        "seed": data.get("seed"),
        "games_requested": data.get("games_requested"),
        "games_played": games_played,
        "chunk_size": data.get("chunk_size"),
        "chunks": len(data.get("chunks_done", [])),
        "complete": bool(data.get("complete")),
        "versions": dict(data.get("versions", {})),
        "created": data.get("created", ""),
        "elapsed_seconds": data.get("elapsed_seconds"),
        "source": data.get("source", ""),
        "config_toml": toml_text(data.get("config", {})),
        "schema": f"{data.get('schema')} v{data.get('schema_version')}",
    }


def _plural(word: str, n: float) -> str:
    return word if n == 1 else word + "s"


def verdict(result: Result, summary, bal: dict, tests: list[dict]) -> dict:
    """The verdict block: a headline, the designer's sentence, and how sure it is (the status
    within the config's balance tolerance comes from simulator.statistics.verdict)."""
    game = result.game
    games = summary.games
    judged = summary.judgement
    seat_test = next((t for t in tests if t["name"] == "seat fairness"), None)
    order_test = next((t for t in tests if t["name"] == "turn-order fairness"), None)
    if games == 0 or judged is None:
        return {"headline": "No games played", "sentence": summary.verdict, "sure": "",
                "exploitability": summary.exploitability,
                "favoured": None, "points": None, "significant": False, "seat": "",
                "status": "undecided", "tolerance": None, "lead": None, "games_more": None}
    band = f"±{100 * judged.tolerance:.1f} points"
    lead = judged.lead
    if summary.stop is not None:
        return _verdict_at_stop(result, summary, bal, band)
    if game.team_game:
        points = 100 * abs(bal["rate"] - bal["target"]) if bal["rate"] is not None else 0.0
        hw = 100 * bal["half_width"]
        significant = not bal["covers_target"]
        favoured = lead.name if judged.status == "unbalanced" else None
        sure = (f"From {games:,} games the 95% interval of {bal['label']} is "
                f"{100 * bal['low']:.1f}–{100 * bal['high']:.1f}% (±{hw:.1f} points); "
                f"{round_games(bal['games_to_halve'])} games would halve it.")
    else:
        points = 100 * abs(lead.difference) if lead and lead.rate.trials else 0.0
        hw = 100 * lead.rate.half_width if lead else 0.0
        significant = any(f.adjusted < 0.05 for f in judged.findings)
        favoured = None
        sure = (f"From {games:,} games the 95% interval of {lead.label()}'s win rate is "
                f"{100 * lead.rate.low:.1f}–{100 * lead.rate.high:.1f}% (±{hw:.1f} points); "
                f"every seat, role and strategy is judged against an even share, Holm-corrected "
                f"together." if lead else "")
    if judged.status == "balanced":
        sure += f" Every interval (90%) lies within {band} of its fair share: balanced."
    elif judged.status == "unbalanced":
        if points > 2 * hw + 100 * judged.tolerance:
            sure += " The imbalance is far larger than the uncertainty: a firm answer."
        else:
            sure += f" The 95% interval lies beyond the tolerance of {band}."
    else:
        more = (f"about {verdicts.about(judged.games_more)} more games"
                if judged.games_more else "many more games")
        sure += (f" Whether it is within {band} is not settled yet: {more} would tell "
                 f"(the tolerance is the config's balance_tolerance).")
    seat = ""
    for test, what in ((order_test, "Turn order"), (seat_test, "Seat number")):
        if test is not None:
            effect = "has a significant effect" if test["significant"] else \
                "has no significant effect"
            seat += (f"{what} {effect} on who wins ({inference.format_p(test['p_holm'])}, "
                     f"Holm-corrected with every other finding). ")
    seat += " ".join(judged.notes)
    if game.symmetric_seats:
        seat += (f" Seats are alike by construction ({game.symmetric_seats}): seat numbers are "
                 f"not judged.")
    seat = seat.strip()
    lead_dict = None if lead is None else {
        "group": lead.group, "name": lead.name, "rate": _finite(lead.rate.value),
        "low": lead.rate.low, "high": lead.rate.high, "target": _finite(lead.target),
        "difference": _finite(lead.difference), "p_holm": _finite(lead.adjusted)}
    return {"headline": judged.headline, "sentence": summary.verdict, "sure": sure,
            "exploitability": summary.exploitability,
            "favoured": favoured, "points": points, "significant": significant, "seat": seat,
            "status": judged.status, "tolerance": judged.tolerance, "lead": lead_dict,
            "games_more": judged.games_more}


def _verdict_at_stop(result: Result, summary, bal: dict, band: str) -> dict:
    """The verdict block of a run the sequential test stopped: the summary's verdict (the
    interval that decided it), the balance measure with the interval the summary gives it, the
    summary's words on what its intervals are, and for seats and turn order the sequential
    test's decision, never a fixed-sample p-value."""
    game, judged, stop = result.game, summary.judgement, summary.stop
    lead = judged.lead
    at = f"look {stop.look} of {stop.looks_planned}"
    if game.team_game and bal["rate"] is not None:
        sure = (f"From {summary.games:,} games, stopped by the sequential test at {at}: "
                f"{bal['label']} is {100 * bal['rate']:.1f}% ({bal['interval']} "
                f"{100 * bal['low']:.1f}–{100 * bal['high']:.1f}%, ±{100 * bal['half_width']:.1f} "
                f"points).")
    else:
        sure = f"From {summary.games:,} games, stopped by the sequential test at {at}."
    if judged.status == "balanced":
        sure += (f" Every equivalence interval of the sequential test lies within {band} of its "
                 f"fair share: balanced.")
    elif judged.status == "unbalanced":
        sure += f" The sequential test's decision interval lies beyond the tolerance of {band}."
    else:
        sure += (f" Whether it is within {band} is not settled within --max-games: a run with a "
                 f"larger --max-games would tell.")
    seat = ""
    for name, what in (("turn-order fairness", "Turn order"), ("seat fairness", "Seat number")):
        decision = next((d for d in summary.decisions if d.name == name), None)
        if decision is not None:
            seat += f"{what}, by the sequential test: {decision.text()}. "
    seat += " ".join(judged.notes)
    if game.symmetric_seats:
        seat += (f" Seats are alike by construction ({game.symmetric_seats}): seat numbers are "
                 f"not judged.")
    lead_dict = None if lead is None else {
        "group": lead.group, "name": lead.name, "rate": _finite(lead.rate.value),
        "target": _finite(lead.target), "difference": _finite(lead.difference)}
    return {"headline": judged.headline, "sentence": summary.verdict, "sure": sure,
            "exploitability": summary.exploitability,
            "favoured": lead.name if game.team_game and judged.status == "unbalanced" and lead
            else None,
            "points": 100 * abs(lead.difference) if lead and lead.rate.trials else 0.0,
            "significant": judged.status == "unbalanced", "seat": seat.strip(),
            "status": judged.status, "tolerance": judged.tolerance, "lead": lead_dict,
            "games_more": judged.games_more}


# the interval of a number the summary does not adjust after a sequential stop (the game's own
# measures): plain, and said to be
PLAIN_AFTER_STOP = "95% CI, not adjusted for the early stop"


def _plain_after_stop(sections: list[dict]) -> list[dict]:
    """The game's own measures after a sequential stop: their intervals stay plain 95% ones,
    labelled as not adjusted for the stop."""
    for section in sections:
        section["interval"] = PLAIN_AFTER_STOP
        for rate in section.get("rates") or []:
            rate["interval"] = PLAIN_AFTER_STOP
    return sections


def sequential(summary) -> dict | None:
    """A run the sequential test stopped: where and why, and what its intervals and tests are
    (None: any other run)."""
    stop = summary.stop
    if stop is None:
        return None
    return {"reason": stop.reason, "look": stop.look, "looks_planned": stop.looks_planned,
            "critical_z_balanced": stop.c_balanced, "critical_z_unbalanced": stop.c_unbalanced,
            "intervals": summary.repeated, "tests": adaptive.decisions_heading(stop)}


def run_numbers(result: Result, confidence: float = CONFIDENCE) -> dict:
    """Every number of a run report, from the run's summary (summary_of: after a sequential stop,
    the intervals and tests `fairplay run` prints)."""
    summary = summary_of(result, confidence)
    games = summary.games
    groups = {}
    for group in GROUP_TITLES:
        groups[group] = [rate_dict(row.rate, row.name, group, games)
                         for row in summary.shown_rows(group)]
    tests = [{"name": t.name, "method": t.method, "statistic": _finite(t.statistic),
              "p": float(t.pvalue), "p_holm": float(t.adjusted_pvalue),
              "significant": t.significant(1 - confidence)}
             for t in summary.tests]
    if summary.stop is not None:  # the sequential test's decisions in place of the p-values
        tests = [{"name": d.name, "method": f"the sequential test at look {d.look} of "
                                            f"{d.looks_planned}: the {d.interval} interval",
                  "statistic": _finite(abs(d.finding.difference)), "p": None, "p_holm": None,
                  "significant": d.outcome == "unbalanced", "decision": d.outcome,
                  "finding": d.finding.label(), "low": d.low, "high": d.high, "z": d.z,
                  "interval": d.interval, "text": d.text()} for d in summary.decisions]
    bal = balance(result, confidence, summary)
    # the events that occurred; what the setup makes possible but never occurred is summary.never
    events = [{"name": name, "total": int(result.tallies["events"][i]),
               "per_game": _finite(result.tallies["events"][i] / games) if games else None}
              for i, name in enumerate(result.game.event_names)
              if name in summary.events_per_game]
    mean, low, high = summary.mean_length
    lengths = length(result, confidence)
    if summary.stop is not None and lengths["games"]:  # the summary's (repeated) interval
        lengths.update(low=_finite(low), high=_finite(high))
    lengths["interval"] = summary.length_label
    adjusted = any(row.rate.label for row in summary.rows)  # after a sequential stop
    stopped = _plain_after_stop if adjusted else (lambda sections: sections)
    seat_rates = [r["rate"] for r in groups["seat"] if r["rate"] is not None]
    return {
        "kind": "run",
        "game": result.game.name,
        "games": games,
        "confidence": confidence,
        "complete": result.complete,
        "verdict": verdict(result, summary, bal, tests),
        "balance": bal,
        "rates": groups,
        "draws": first_rate(summary, "draw", "draws", confidence),
        "tests": tests,
        # the dashed lines of the charts: an equal share of the teams, and the seats' reference
        "team_reference": 1 / len(result.game.teams) if result.game.teams else None,
        "seat_reference": (1 / len(seat_rates) if not result.game.team_game and seat_rates
                           else (float(np.mean(seat_rates)) if seat_rates else None)),
        "sequential": sequential(summary),
        "length": dict(lengths, summary_mean=_finite(mean),
                       summary_low=_finite(low), summary_high=_finite(high)),
        "events": events,
        "never": list(summary.never),
        "scores": stopped(scores(result, confidence)),
        "other_measures": stopped(other_measures(result, confidence)),
        "setup": setup(result),
        "reproducibility": reproducibility(result),
        "games_for_one_point": summary.games_for_one_point,
    }


# --- sweeps ------------------------------------------------------------------------------------
def cell_measures(result: Result, confidence: float = CONFIDENCE) -> dict:
    """The headline measures of one sweep cell (or any result): the run summary's rows."""
    summary = summary_of(result, confidence)
    games, t = summary.games, result.tallies

    def rates(group):
        return [rate_dict(row.rate, row.name, group, games) for row in summary.rows_of(group)]

    lengths = length(result, confidence)
    players = len(t["seat_wins"])
    rows = {test.name: test for test in summary.tests}
    # where the rules name a first player, turn order; else seat numbers, where they are judged
    order = rows.get("turn-order fairness") or rows.get("seat fairness")
    return {
        "games": games,
        "players": players,
        "balance": balance(result, confidence, summary),
        "teams": rates("team"),
        "seat0": first_rate(summary, "seat", "seat 0", confidence),
        "ends": rates("end"),
        "draws": first_rate(summary, "draw", "draws", confidence),
        "length": {"mean": lengths["mean"], "low": lengths["low"], "high": lengths["high"],
                   "unit": lengths["unit"], "hist": lengths["hist"]},
        "turn_order_p": None if order is None else float(order.adjusted_pvalue),
        "roles": setup(result)["roles_per_game"],
    }
