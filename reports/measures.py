"""The numbers a report shows, computed from a result file and nothing else.

Every function here takes a :class:`simulator.results.Result` (or a sweep or a comparison built
from result files) and returns plain dicts and lists of numbers and strings. The templates only
format these values, and the same dicts are embedded in the page as a JSON block
(``<script type="application/json" id="fairplay-numbers">``), so a test, or a designer's script,
can check every number against :mod:`simulator.stats`.

Rates are Wilson intervals (``stats.wilson``) at 95% unless told otherwise; the "balance
measure" of a result is the share of *decided* games won by the first team (the first seat in an
individual game), against the config's ``balance_target`` (default: an equal share), as in the
verdict of :func:`simulator.stats.favoured_sentence`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from simulator import stats
from simulator.config import COMMON_KEYS
from simulator.games.base import MAX_STRATEGY_SLOTS
from simulator.results import Result, summarize

CONFIDENCE = 0.95

GROUP_TITLES = {
    "team": "Win rate by team",
    "seat": "Win rate by seat",
    "role": "Win rate by role",
    "strategy": "Win rate by strategy",
    "end": "How games end",
}


def _finite(x) -> float | None:
    """JSON has no NaN: a missing number is None."""
    x = float(x)
    return x if math.isfinite(x) else None


def rate_dict(rate: stats.Rate, name: str = "", group: str = "", games: int | None = None) -> dict:
    """A rate as numbers, with the games needed to halve its interval.

    ``games_to_halve`` is in games: a rate over seat-games (roles, strategies) needs
    ``stats.games_to_halve`` seat-games, which at this run's seat-games per game is that many
    games times ``games / trials``.
    """
    halve = stats.games_to_halve(rate.successes, rate.trials, rate.confidence)
    if games is not None and rate.trials and games != rate.trials:
        halve = math.ceil(halve * games / rate.trials)
    return {
        "group": group,
        "name": name,
        "successes": int(rate.successes),
        "trials": int(rate.trials),
        "rate": _finite(rate.value),
        "low": float(rate.low),
        "high": float(rate.high),
        "half_width": float(rate.half_width),
        "games_to_halve": int(halve),
    }


def first_team_target(result: Result) -> float:
    """The intended share of decided games of the first team (first seat when individual)."""
    game = result.game
    target = result.data.get("config", {}).get("balance_target")
    if game.team_game:
        return float(target) if target is not None else 1 / len(game.teams)
    return 1 / len(result.tallies["seat_wins"])


def balance(result: Result, confidence: float = CONFIDENCE) -> dict:
    """The balance measure: the first team's (seat's) share of decided games vs its target."""
    game, t = result.game, result.tallies
    if game.team_game:
        wins, who = t["team_wins"], game.teams[0]
    else:
        wins, who = t["seat_wins"], "seat 0"
    decided = int(np.sum(wins))
    rate = stats.wilson(int(wins[0]), decided, confidence)
    target = first_team_target(result)
    value = rate.value
    out = rate_dict(rate, who, "balance", decided)
    out.update({
        "label": f"{who}'s share of decided games",
        "who": who,
        "target": target,
        "distance": _finite(abs(value - target)) if rate.trials else None,
        "covers_target": bool(rate.low <= target <= rate.high),
        "decided": decided,
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
    from simulator.sweep import label

    return label(value)


def toml_text(raw: dict) -> str:
    """A config dict as TOML text: top-level keys first, then one [table] per table."""
    from simulator.sweep import toml_key, toml_value

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


# --- score tallies -----------------------------------------------------------------------------
_SQUARE_SUFFIXES = ("_sq", "_sumsq", "_sum_sq", "_squares", "_sq_sum")


def _axis_labels(result: Result, length: int) -> tuple[str, list[str], str]:
    """Label the entries of a tally axis of this length: (kind, labels, trials tally)."""
    game, t = result.game, result.tallies
    players = len(t["seat_wins"])
    if length == players:
        return "seat", [f"seat {i}" for i in range(length)], "games"
    if length == len(game.roles):
        return "role", [role.name for role in game.roles], "role_games"
    if game.teams and length == len(game.teams):
        return "team", list(game.teams), "games"
    if length == MAX_STRATEGY_SLOTS:
        labels = list(result.data.get("strategies", []))
        labels += [f"slot {i}" for i in range(len(labels), length)]
        return "strategy", labels, "slot_games"
    return "index", [str(i) for i in range(length)], "games"


def _meaning(result: Result, name: str) -> str:
    for spec in result.game.tally_specs:
        if spec.name == name:
            return spec.meaning
    return ""


def _hist_stats(counts: np.ndarray, confidence: float) -> dict:
    values = np.arange(len(counts), dtype=float)
    n = float(counts.sum())
    total = float((values * counts).sum())
    total_sq = float((values ** 2 * counts).sum())
    mean, low, high = stats.mean_interval(total, total_sq, n, confidence)
    sd = math.sqrt(max(total_sq - total * total / n, 0.0) / (n - 1)) if n > 1 else None
    return {"n": int(n), "mean": _finite(mean), "low": _finite(low), "high": _finite(high),
            "sd": _finite(sd) if sd is not None else None}


def score_tallies(result: Result) -> list[str]:
    """Names of the result's score tallies (names containing "score"), in declaration order."""
    return [name for name in result.game.tally_names()
            if "score" in name.lower() and name in result.tallies]


STANDARD_TALLIES = ("games", "team_wins", "draws", "seat_wins", "role_games", "role_wins",
                    "slot_games", "slot_wins", "length_hist", "end_counts", "events")
_COUNT_SUFFIXES = ("s", "_games", "_count", "_n", "_trials")


def _partner(t: dict, base: str, suffixes, shape) -> str | None:
    return next((base + s for s in suffixes if base + s in t and t[base + s].shape == shape), None)


def _means(result: Result, total: str, square: str, confidence: float) -> tuple[str, list]:
    """Means with Student-t intervals from a sum and a sum of squares (1-d, one per label)."""
    t = result.tallies
    array = t[total]
    kind, labels, trials_name = _axis_labels(result, array.shape[0])
    base = total[:-4]
    count = _partner(t, base, _COUNT_SUFFIXES, array.shape)
    if count is not None:  # the tally's own count (rounds held, ...) beats a guess
        trials = t[count]
    elif trials_name != "games":
        trials = t[trials_name]
    else:
        trials = np.full(array.shape[0], t["games"][0])
    if kind == "index" and array.shape[0] == 1:
        labels = ["all"]
    means = []
    for i, row_label in enumerate(labels):
        n = int(trials[i])
        if n == 0:
            continue
        mean, low, high = stats.mean_interval(float(array[i]), float(t[square][i]), n, confidence)
        sd = math.sqrt(max(float(t[square][i]) - float(array[i]) ** 2 / n, 0.0) / (n - 1)) \
            if n > 1 else None
        means.append({"name": row_label, "n": n, "sum": int(array[i]),
                      "sum_sq": int(t[square][i]), "mean": _finite(mean), "low": _finite(low),
                      "high": _finite(high), "sd": _finite(sd) if sd is not None else None})
    return kind, means


def tally_sections(result: Result, names: list[str], confidence: float = CONFIDENCE) -> list[dict]:
    """Sections for game-specific tallies, recognised by their names (see :func:`scores`)."""
    t = result.tallies
    used: set[str] = set()  # partners read with the tally that names them
    for name in names:
        if name not in t:
            continue
        shape = t[name].shape
        if name.endswith("_sum"):
            used.add(_partner(t, name[:-4], _SQUARE_SUFFIXES, shape))
        elif name.endswith("_wins"):
            used.add(_partner(t, name[:-5], _COUNT_SUFFIXES, shape))
        elif name.endswith("_hist") and name[:-5] + "_sum" in t:
            total = name[:-5] + "_sum"
            square = _partner(t, name[:-5], _SQUARE_SUFFIXES, t[total].shape)
            if square and t[total].ndim == 1 and (t[name].ndim == 1 or
                                                   t[total].shape[0] == shape[0]):
                used.update({total, square})
    sections = []
    for name in names:
        if name in used or name not in t:
            continue
        array = t[name]
        meaning = _meaning(result, name)
        if name.endswith("_hist") and array.ndim in (1, 2) and array.size:
            used.add(name)
            base = name[:-5]
            if array.ndim == 1:
                kind, rows = "all", [("all", array)]
            else:
                kind, labels, _ = _axis_labels(result, array.shape[0])
                rows = list(zip(labels, array))
            series = []
            for row_label, counts in rows:
                counts = np.asarray(counts, dtype=np.int64)
                if counts.sum() == 0:
                    continue
                entry = {"name": row_label, "counts": counts.tolist()}
                entry.update(_hist_stats(counts, confidence))
                series.append(entry)
            section = {"kind": "distribution", "tally": name, "title": base, "meaning": meaning,
                       "by": kind, "series": series, "means": [], "means_from": "histogram"}
            total = base + "_sum" if base + "_sum" in t else None
            square = _partner(t, base, _SQUARE_SUFFIXES, t[total].shape) if total else None
            if total and square and t[total].ndim == 1 and \
                    (array.ndim == 1 or t[total].shape[0] == array.shape[0]):
                section["by"], section["means"] = _means(result, total, square, confidence)
                section["means_from"] = f"{total}, {square}"
            elif series:  # the histogram's own means (its last bin may be clipped)
                section["means"] = [{k: s[k] for k in ("name", "n", "mean", "low", "high", "sd")}
                                    for s in series]
            sections.append(section)
            continue
        if name.endswith("_sum") and array.ndim == 1:
            square = _partner(t, name[:-4], _SQUARE_SUFFIXES, array.shape)
            if square:
                kind, means = _means(result, name, square, confidence)
                sections.append({"kind": "means", "tally": name, "title": name[:-4],
                                 "meaning": meaning, "by": kind, "series": [], "means": means,
                                 "means_from": f"{name}, {square}"})
                continue
        if name.endswith("_wins") and array.ndim == 1:
            trials_name = _partner(t, name[:-5], _COUNT_SUFFIXES, array.shape)
            if trials_name:
                kind, labels, _ = _axis_labels(result, array.shape[0])
                games = int(t["games"][0])
                rates = [rate_dict(stats.wilson(int(k), int(n), confidence), lab, name, games)
                         for lab, k, n in zip(labels, array, t[trials_name]) if n]
                sections.append({"kind": "rates", "tally": name, "title": name[:-5],
                                 "meaning": f"{_meaning(result, trials_name)}; "
                                            f"{meaning}".strip("; "),
                                 "by": kind, "rates": rates, "trials": trials_name})
                continue
        flat = array.reshape(-1) if array.ndim else array.reshape(1)
        if array.ndim == 1:
            _, labels, _ = _axis_labels(result, array.shape[0])
        else:
            labels = [str(i) for i in range(flat.size)]
        sections.append({"kind": "values", "tally": name, "title": name, "meaning": meaning,
                         "entries": [{"name": lab, "value": int(v)}
                                    for lab, v in zip(labels, flat)]})
    return sections


def scores(result: Result, confidence: float = CONFIDENCE) -> list[dict]:
    """One section per score tally family; an empty list when the game keeps no scores.

    Recognised by name: ``X_hist`` (index = score, value = count; 1-d, or one row per seat, role
    or strategy) gives a distribution, with means from ``X_sum`` and its square ``X_sq`` when the
    game keeps them (else from the histogram); ``X_sum`` with ``X_sq`` gives means with Student-t
    intervals over games, the role's seat-games, or the tally ``Xs`` / ``X_count`` when there is
    one; ``X_wins`` with ``Xs`` / ``X_games`` gives rates; anything else, a table of values.
    """
    return tally_sections(result, score_tallies(result), confidence)


def other_measures(result: Result, confidence: float = CONFIDENCE) -> list[dict]:
    """The game's other own tallies (neither standard nor scores), read like :func:`scores`."""
    scored = set(score_tallies(result))
    names = [n for n in result.game.tally_names()
             if n not in STANDARD_TALLIES and n not in scored and n in result.tallies]
    return tally_sections(result, names, confidence)


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
        "provisional": list(game.provisional),
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
    """The verdict block: a headline, the designer's sentence, and how sure it is."""
    game = result.game
    games = summary.games
    seat_test = next((t for t in tests if t["name"] == "seat fairness"), None)
    if games == 0:
        return {"headline": "No games played", "sentence": summary.verdict, "sure": "",
                "favoured": None, "points": None, "significant": False, "seat": ""}
    points = 100 * abs(bal["rate"] - bal["target"]) if bal["rate"] is not None else 0.0
    hw = 100 * bal["half_width"]
    if game.team_game:
        significant = not bal["covers_target"]
        if significant:
            first = bal["rate"] > bal["target"]
            favoured = game.teams[0] if first else (game.teams[1] if len(game.teams) == 2 else
                                                    "the other teams")
            headline = f"{favoured} favoured by {points:.1f} points"
        else:
            favoured = None
            headline = "No side is significantly favoured"
    else:
        significant = bool(seat_test and seat_test["significant"])
        favoured = None
        headline = ("Seat position matters" if significant else
                    "No seat is significantly favoured")
    sure = (f"From {games:,} games the 95% interval of {bal['label']} is "
            f"{100 * bal['low']:.1f}–{100 * bal['high']:.1f}% (±{hw:.1f} points); "
            f"about {bal['games_to_halve']:,} games would halve it.")
    if significant and game.team_game and points > 2 * hw:
        sure += " The imbalance is far larger than the uncertainty: a firm answer."
    elif not significant:
        sure += (f" An imbalance smaller than about {hw:.1f} points cannot be ruled out.")
    seat = ""
    if seat_test is not None:
        effect = "has a significant effect" if seat_test["significant"] else \
            "has no significant effect"
        seat = (f"Seat position {effect} "
                f"on who wins ({stats.format_p(seat_test['p_holm'])}, Holm-corrected).")
    headline = headline[:1].upper() + headline[1:]
    return {"headline": headline, "sentence": summary.verdict, "sure": sure,
            "favoured": favoured, "points": points, "significant": significant, "seat": seat}


def run_numbers(result: Result, confidence: float = CONFIDENCE) -> dict:
    """Every number of a run report."""
    summary = summarize(result, confidence)
    games = summary.games
    groups = {}
    for group in GROUP_TITLES:
        groups[group] = [rate_dict(row.rate, row.name, group, games)
                         for row in summary.rows_of(group)]
    tests = [{"name": t.name, "statistic": _finite(t.statistic), "p": float(t.pvalue),
              "p_holm": float(t.adjusted_pvalue), "significant": t.significant(1 - confidence)}
             for t in summary.tests]
    bal = balance(result, confidence)
    draws = int(result.tallies["draws"][0])
    events = [{"name": name, "total": int(result.tallies["events"][i]),
               "per_game": _finite(result.tallies["events"][i] / games) if games else None}
              for i, name in enumerate(result.game.events)]
    mean, low, high = summary.mean_length
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
        "draws": rate_dict(stats.wilson(draws, games, confidence), "draws", "draws", games),
        "tests": tests,
        "seat_reference": (1 / len(seat_rates) if not result.game.team_game and seat_rates
                           else (float(np.mean(seat_rates)) if seat_rates else None)),
        "length": dict(length(result, confidence), summary_mean=_finite(mean),
                       summary_low=_finite(low), summary_high=_finite(high)),
        "events": events,
        "scores": scores(result, confidence),
        "other_measures": other_measures(result, confidence),
        "setup": setup(result),
        "reproducibility": reproducibility(result),
        "games_for_one_point": summary.games_for_one_point,
    }


# --- sweeps ------------------------------------------------------------------------------------
def cell_measures(result: Result, confidence: float = CONFIDENCE) -> dict:
    """The headline measures of one sweep cell (or any result), computed directly with stats."""
    game, t = result.game, result.tallies
    games = int(t["games"][0])
    teams = [rate_dict(stats.wilson(int(t["team_wins"][i]), games, confidence), team, "team", games)
             for i, team in enumerate(game.teams)]
    ends = [rate_dict(stats.wilson(int(t["end_counts"][e]), games, confidence), name, "end", games)
            for e, name in enumerate(game.end_conditions)]
    seat0 = rate_dict(stats.wilson(int(t["seat_wins"][0]), games, confidence), "seat 0", "seat",
                      games)
    draws = rate_dict(stats.wilson(int(t["draws"][0]), games, confidence), "draws", "draws", games)
    lengths = length(result, confidence)
    players = len(t["seat_wins"])
    if game.team_game:
        seat_test = stats.seat_fairness(t["seat_wins"], np.full(players, games))
    else:
        seat_test = stats.individual_fairness(t["seat_wins"], games)
    return {
        "games": games,
        "players": players,
        "balance": balance(result, confidence),
        "teams": teams,
        "seat0": seat0,
        "ends": ends,
        "draws": draws,
        "length": {"mean": lengths["mean"], "low": lengths["low"], "high": lengths["high"],
                   "unit": lengths["unit"]},
        "seat_fairness_p": float(seat_test.pvalue),
        "roles": setup(result)["roles_per_game"],
    }
