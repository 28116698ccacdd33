"""What a designer can act on, said in words: the balance knobs and the sweeps that turn them,
where a sweep crosses its target, where its fair region runs, when the favoured side flips with
the strategies, which scripted players the numbers describe, and counts as people write them.

Every function reads a result (or the numbers of a sweep report, :func:`reports.numbers.
sweep_numbers`) and returns plain strings, lists and dicts; the templates only show them, and
`fairplay sweep` prints the same sentences.
"""

from __future__ import annotations

import json
import math
import shlex

import numpy as np

from simulator.setup import config
from simulator.run import runner
from simulator import schema
from simulator.statistics import inference
from simulator.statistics.rates import ratio_moments
from simulator.run.results import Result
from simulator.statistics.summary import summarize


# --- numbers as people write them --------------------------------------------------------------
def round_games(n) -> str:
    """A count of games rounded for people: two significant figures, with ≈ ("≈ 200,000")."""
    if n is None:
        return "n/a"
    n = int(n)
    if n < 100:
        return f"≈ {n:,}"
    step = 10 ** (len(str(n)) - 2)
    return f"≈ {(n + step // 2) // step * step:,}"


def pct_text(x: float) -> str:
    """A share as a percentage without needless decimals: "50%", "33.3%"."""
    v = 100 * x
    return f"{v:.0f}%" if abs(v - round(v)) < 0.05 else f"{v:.1f}%"


def percent(x, digits: int = 1) -> str:
    """A share as a percentage ("25.0%"); n/a for a missing number."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    return f"{100 * x:.{digits}f}%"


def interval_text(row, digits: int = 1) -> str:
    """A row's interval as percentages ("20.1–29.9%")."""
    if row is None or row.get("low") is None:
        return "n/a"
    return f"{100 * row['low']:.{digits}f}–{100 * row['high']:.{digits}f}%"


def points_text(x, digits: int = 1) -> str:
    """A difference of shares in signed percentage points ("+1.5")."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    return f"{100 * x:+.{digits}f}"


def number_text(x, digits: int = 0) -> str:
    """A number with thousands separators, whole where it is whole."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    if digits == 0 and float(x).is_integer():
        return f"{int(x):,}"
    return f"{x:,.{digits}f}"


def p_text(p) -> str:
    """A p-value as the statistics module writes it."""
    if p is None:
        return "n/a"
    return inference.format_p(float(p))


def count_text(per_game: float, name: str, single: bool = False) -> str:
    """How many of a role a game deals, as people write it: "2 × werewolf"; a role held in some
    games only (never twice in one) "general-liu in about 81% of games"; any other average
    "about 1.7 × villager"."""
    if abs(per_game - round(per_game)) < 1e-9:
        return f"{int(round(per_game))} × {name}"
    if single and per_game < 1:
        share = 100 * per_game
        return f"{name} in about {share:.0f}% of games" if share >= 1 else \
            f"{name} in about {share:.1f}% of games"
    return f"about {per_game:.2g} × {name}"


def roles_dealt(result: Result) -> list[dict]:
    """The roles a game deals, from the tallies: per game on average, whether a game ever holds
    two (from the per-game moments of role_wins), and the words for it."""
    t, game = result.tallies, result.game
    games = int(t["games"][0])
    moments = t.get("role_wins_by_game")
    out = []
    for r, role in enumerate(game.roles):
        held = int(t["role_games"][r]) if r < len(t["role_games"]) else 0
        if not games or not held:
            continue
        per_game = held / games
        # sum over games of (seats holding it)^2 equals the sum of seats holding it exactly when
        # no game holds it twice
        single = moments is not None and int(np.asarray(moments)[r][2]) == held
        out.append({"name": role.name, "label": role.label, "team": role.team,
                    "per_game": per_game, "single": bool(single),
                    "text": count_text(per_game, role.name, bool(single))})
    return out


def dealt_text(roles: list[dict], limit: int = 6) -> str:
    """The roles dealt, in words; a game with many roles that vary from game to game (Salem's
    character and team pairs) names the fixed counts and counts the others."""
    if len(roles) <= limit:
        return ", ".join(r["text"] for r in roles)
    fixed = [r["text"] for r in roles if abs(r["per_game"] - round(r["per_game"])) < 1e-9]
    varying = len(roles) - len(fixed)
    shown = fixed[:limit] + ([f"{len(fixed) - limit} more"] if len(fixed) > limit else [])
    return ", ".join(shown + ([f"{varying} roles dealt in some games only"] if varying else []))


# --- which scripted players ----------------------------------------------------------------------
SCRIPTED = "These numbers describe scripted players: "


# --- balance knobs -----------------------------------------------------------------------------
_VALUE_OPTIONS = {"-n", "--games", "--seed", "--workers", "--chunk-size", "-o", "--output",
                  "--report", "--resume", "--game"}


def run_base(result: Result) -> tuple[str, list[str]]:
    """The config a run played and its overrides (``--set``, ``--players`` as ``players=N``),
    read from its command; else from its source."""
    data = result.data
    try:
        tokens = shlex.split(data.get("command") or "")
    except ValueError:
        tokens = []
    if len(tokens) >= 3 and tokens[:2] == ["fairplay", "run"]:
        spec, sets, i = None, [], 2
        while i < len(tokens):
            token = tokens[i]
            if token in ("--set", "--players") and i + 1 < len(tokens):
                sets.append(tokens[i + 1] if token == "--set" else f"players={tokens[i + 1]}")
                i += 2
            elif token.startswith("--set="):
                sets.append(token[len("--set="):])
                i += 1
            elif token in _VALUE_OPTIONS:
                i += 2
            elif token.startswith("-"):
                i += 1
            else:
                spec = spec or token
                i += 1
        if spec:
            return spec, sets
    source = data.get("source", "")
    spec = source.split(" (built-in ")[0] if " (built-in " in source else (source or data["game"])
    players = data.get("config", {}).get("players")
    return spec, ([f"players={players}"] if players is not None else [])


def _kinds(kind) -> list:
    return list(kind.types) if isinstance(kind, schema.AnyOf) else [kind]


def _levels(kind, current) -> str:
    """A sensible --vary around the current value: integers as a..b (two either side), numbers
    from half to one and a half times, booleans and choices all of them."""
    kinds = _kinds(kind)
    integer = next((k for k in kinds if isinstance(k, schema.Integer)), None)
    number = next((k for k in kinds if isinstance(k, schema.Number)), None)
    is_int = isinstance(current, int) and not isinstance(current, bool)
    if integer is not None and (is_int or current is None or isinstance(current, str)):
        low = integer.low if integer.low is not None else -math.inf
        high = integer.high if integer.high is not None else math.inf
        centre = current if is_int else (integer.low or 0) + 2
        a, b = int(max(low, centre - 2)), int(min(high, centre + 2))
        return f"{a}..{b}" if a < b else str(a)
    if number is not None and isinstance(current, (int, float)) and not isinstance(current, bool):
        low = number.low if number.low is not None else -math.inf
        high = number.high if number.high is not None else math.inf
        raw = [current * f for f in (0.5, 0.75, 1, 1.25, 1.5)] if current else \
            [0, 0.25, 0.5, 0.75, 1]
        values = []
        for v in raw:
            v = min(max(v, low), high)
            if f"{v:g}" not in values:
                values.append(f"{v:g}")
        return ",".join(values)
    if any(isinstance(k, schema.Boolean) for k in kinds):
        return "false,true"
    choice = next((k for k in kinds if isinstance(k, schema.Choice)), None)
    if choice is not None:
        return ",".join(choice.options)
    return ""


def balance_knobs(result: Result) -> list[dict]:
    """The game's declared balance knobs (`schema.Key.balance_knob`) with their values in this
    run, and for each the `fairplay sweep` that would show how much it moves the balance: the
    run's config and overrides, the knob varied around its value, as many games per cell and the
    same seed (so the cell at the current value is this run, bit for bit)."""
    data, game = result.data, result.game
    raw = data.get("config", {})
    players = raw.get("players", len(result.tallies["seat_wins"]))
    dealt = {r["name"]: r for r in roles_dealt(result)}
    spec, sets = run_base(result)
    knobs = []
    for key in getattr(game, "config_keys", ()):
        if not getattr(key, "balance_knob", False):
            continue
        given = config.value_at(raw, key.path.split("."))
        current = given if given is not None else key.default_for(players)
        if current is None:
            text = key.describe_default()
        elif isinstance(current, (dict, list)):  # a whole table: too long to print, not one value
            text = f"a table of {len(current)} entries (see the config)"
        else:
            from simulator.studies.sweep import label

            text = label(current)
        role = key.path.split(".", 1)[1] if key.path.startswith("roles.") else None
        resolved = current
        if role in dealt and not (isinstance(current, int) and not isinstance(current, bool)):
            per_game = dealt[role]["per_game"]
            if abs(per_game - round(per_game)) < 1e-9:
                resolved = int(round(per_game))
                text += f" ({resolved} dealt)"
        levels = _levels(key.type, resolved)
        command = None
        if levels:
            parts = ["fairplay", "sweep", spec]
            for s in sets:
                if s.split("=", 1)[0].strip() != key.path:
                    parts += ["--set", s]
            parts += ["--vary", f"{key.path}={levels}", "-n", str(data.get("games_requested")),
                      "--seed", str(data.get("seed"))]
            chunk = data.get("chunk_size")
            if chunk and chunk != runner.DEFAULT_CHUNK_SIZE:
                parts += ["--chunk-size", str(chunk)]
            command = " ".join(shlex.quote(str(p)) for p in parts)
        knobs.append({"key": key.path, "meaning": key.meaning, "current": text,
                      "levels": levels, "command": command,
                      "table": isinstance(current, (dict, list))})
    return knobs


# --- rates of roles, for sweeps ------------------------------------------------------------------
def role_rates(result: Result, confidence: float = 0.95) -> list[dict]:
    """Each dealt role's win rate (over seat-games, the game as the unit)."""
    t, game = result.tallies, result.game
    out = []
    for r, role in enumerate(game.roles):
        if r < len(t["role_games"]) and t["role_games"][r]:
            rate = inference.clustered_rate(ratio_moments(game, t, "role_wins", r), confidence)
            out.append({"name": role.name, "rate": _finite(rate.value), "low": _finite(rate.low),
                        "high": _finite(rate.high)})
    return out


def _finite(x) -> float | None:
    x = float(x)
    return x if math.isfinite(x) else None


# --- sweeps: words about the grid --------------------------------------------------------------
def _plural(word: str) -> str:
    if word.endswith("wolf"):
        return word[:-1] + "ves"
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    if word.endswith("y") and word[-2:-1] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def numeric_axis(axis: dict) -> bool:
    return axis["op"] == "set" and len(axis["values"]) >= 2 and \
        all(_is_number(v) for v in axis["values"])


def quantity(key: str, value, label: str) -> str:
    """A level in words: "12 players", "1 werewolf", "2 werewolves", "strategies.all = random"."""
    if key == "players" and _is_number(value):
        return f"{label} player{'' if value == 1 else 's'}"
    if key.startswith("roles.") and _is_number(value):
        role = key[len("roles."):]
        return f"{label} {role if value == 1 else _plural(role)}"
    return f"{key} = {label}"


def _span(key: str, first, last, first_label: str, last_label: str) -> str:
    """A run of levels: "1–2 werewolves", "9–10 players", "x = 1–3"."""
    if first == last:
        return quantity(key, first, first_label)
    if key == "players":
        return f"{first_label}–{last_label} players"
    if key.startswith("roles."):
        return f"{first_label}–{last_label} {_plural(key[len('roles.'):])}"
    return f"{key} = {first_label}–{last_label}"


def _between(key: str, a_label: str, b_label: str) -> str:
    if key == "players":
        return f"{a_label} and {b_label} players"
    if key.startswith("roles."):
        return f"{a_label} and {b_label} {_plural(key[len('roles.'):])}"
    return f"{key} = {a_label} and {b_label}"


def context_text(pairs: list[tuple[str, object, str]]) -> str:
    """"At 12 players", "With 2 werewolves", "With strategies.all = random" ('' for none)."""
    if not pairs:
        return ""
    words = " and ".join(quantity(k, v, lab) for k, v, lab in pairs)
    return ("At " if pairs[0][0] == "players" else "With ") + words


def _groups(axes: list[dict], cells: list[dict], varied: list[int], along: int):
    """The cells along one axis, grouped by the levels of the other varied axes (in order)."""
    others = [i for i in varied if i != along]
    groups: dict[str, tuple[list, list]] = {}
    for c in cells:
        key = json.dumps([c["levels"][i] for i in others])
        if key not in groups:
            groups[key] = ([(axes[i]["key"], c["levels"][i], c["labels"][i]) for i in others], [])
        groups[key][1].append(c)
    for context, members in groups.values():
        order = {json.dumps(v): n for n, v in enumerate(axes[along]["values"])}
        members.sort(key=lambda c: order.get(json.dumps(c["levels"][along]), 0))
        yield context, members


def _sentence(context: str, rest: str) -> str:
    if context:
        return f"{context}, {rest}."
    return f"{rest[:1].upper()}{rest[1:]}."


def crossings(numbers: dict) -> list[dict]:
    """Where a sweep's balance measure crosses its target between levels of a numeric key:
    linear interpolation of (measure − target) between adjacent played levels, per level of the
    other varied keys. Each entry has the sentence that says it."""
    axes, cells, varied = numbers["axes"], numbers["cells"], numbers["varied"]
    who = numbers["balance_who"]
    out = []
    # the last key first: along the knob, per level of the setting (players) it is tried in
    for along in reversed(varied):
        axis = axes[along]
        if not numeric_axis(axis):
            continue
        key = axis["key"]
        for pairs, members in _groups(axes, cells, varied, along):
            points = []
            for c in members:
                m = c["measures"]
                if m is None or not m["balance"]["decided"] or m["balance"]["rate"] is None:
                    continue
                b = m["balance"]
                points.append((c["levels"][along], c["labels"][along], c, b["rate"] - b["target"]))
            if len(points) < 2:
                continue
            points.sort(key=lambda p: p[0])
            context = context_text(pairs)
            targets = {round(p[2]["measures"]["balance"]["target"], 9) for p in points}
            point = (f"the {pct_text(next(iter(targets)))} point" if len(targets) == 1
                     else "the even-share point (its target in each cell)")
            share = f"{who}'s share of decided games"
            integers = all(isinstance(p[0], int) for p in points)
            found = False
            for i, (x1, l1, c1, d1) in enumerate(points):
                if d1 == 0:
                    out.append({"along": key, "context": context, "kind": "hit",
                                "estimate": x1, "cells": [c1["index"]],
                                "sentence": _sentence(context, f"{share} is exactly on {point} "
                                                      f"at {quantity(key, x1, l1)}")})
                    found = True
                if i + 1 == len(points):
                    break
                x2, l2, c2, d2 = points[i + 1]
                if d1 * d2 >= 0:
                    continue
                b1, b2 = c1["measures"]["balance"], c2["measures"]["balance"]
                found = True
                x = x1 + (x2 - x1) * d1 / (d1 - d2)
                estimate = f"{x:.1f}" if integers else f"{x:.3g}"
                rest = (f"{point} of {share} lies between {_between(key, l1, l2)} "
                        f"({percent(b1['rate'])} and {percent(b2['rate'])}), at about {estimate} "
                        f"by linear interpolation")
                covering = [(xx, ll) for xx, ll, bb in ((x1, l1, b1), (x2, l2, b2))
                            if bb["covers_target"]]
                if covering:
                    if len(covering) == 2:
                        rest += "; both are within chance of it (their 95% intervals cover it)"
                    else:
                        rest += (f"; {quantity(key, *covering[0])} is within chance of it (its "
                                 f"95% interval covers it)")
                elif integers and x2 - x1 == 1:
                    noun = {"players": "player count"}.get(key, "count" if key.startswith(
                        "roles.") else "value")
                    rest += f"; no integer {noun} balances it"
                if integers and x2 - x1 > 1:
                    rest += " (the levels in between were not played)"
                out.append({"along": key, "context": context, "kind": "crossing",
                            "estimate": x, "between": [x1, x2],
                            "cells": [c1["index"], c2["index"]],
                            "sentence": _sentence(context, rest)})
            if not found:
                above = points[0][3] > 0
                closest = min(points, key=lambda p: abs(p[3]))
                cb = closest[2]["measures"]["balance"]
                rest = (f"{share} stays {'above' if above else 'below'} {point} from "
                        f"{quantity(key, points[0][0], points[0][1])} to "
                        f"{quantity(key, points[-1][0], points[-1][1])} (closest: "
                        f"{quantity(key, closest[0], closest[1])}, {percent(cb['rate'])}"
                        f"{', whose 95% interval covers it' if cb['covers_target'] else ''})")
                out.append({"along": key, "context": context, "kind": "none",
                            "direction": "above" if above else "below",
                            "cells": [closest[2]["index"]], "sentence": _sentence(context, rest)})
    return out


def _runs(axis_key: str, axis: dict, picked: list[int]) -> str:
    """Levels (positions in the axis) in words, consecutive integer levels as a span."""
    values, labels = axis["values"], axis["labels"]
    runs: list[list[int]] = []
    for i in picked:
        if runs and runs[-1][-1] == i - 1 and _is_number(values[i]) and \
                _is_number(values[i - 1]) and values[i] - values[i - 1] == 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    parts = [_span(axis_key, values[r[0]], values[r[-1]], labels[r[0]], labels[r[-1]])
             for r in runs]
    return ", ".join(parts)


def fair_region(numbers: dict) -> str:
    """Which cells' 95% intervals cover the target, in words (one or two varied keys)."""
    axes, cells, varied = numbers["axes"], numbers["cells"], numbers["varied"]
    valid = [c for c in cells if c["measures"] is not None]
    if not valid or not 1 <= len(varied) <= 2:
        return ""
    targets = {round(c["measures"]["balance"]["target"], 9) for c in valid}
    point = (f"the {pct_text(next(iter(targets)))} target" if len(targets) == 1
             else "its cell's target")
    covering = [c for c in valid if c["measures"]["balance"]["covers_target"]]
    marks = "✓ in the table" + (", dotted outline in the heat map" if len(varied) == 2 else "")
    if not covering:
        return (f"No cell's 95% interval covers {point}: the fair region, if there is one, lies "
                f"outside this grid.")
    if len(covering) == len(valid):
        return f"Every played cell's 95% interval covers {point} ({marks})."
    head = f"Fair region (cells whose 95% interval covers {point}; {marks}): "
    if len(varied) == 1:
        a = varied[0]
        axis = axes[a]
        positions = sorted(_position(axis, c["levels"][a]) for c in covering)
        return head + _runs(axis["key"], axis, positions) + "."
    row_axis, col_axis = axes[varied[0]], axes[varied[1]]
    rows = []
    for r, value in enumerate(row_axis["values"]):
        members = [c for c in valid if json.dumps(c["levels"][varied[0]]) == json.dumps(value)]
        if not members:
            text = "no played cell"
        else:
            picked = sorted(_position(col_axis, c["levels"][varied[1]]) for c in members
                            if c["measures"]["balance"]["covers_target"])
            text = _runs(col_axis["key"], col_axis, picked) if picked else "none"
        if rows and rows[-1][1] == text and rows[-1][0][-1] == r - 1 and \
                _is_number(value) and _is_number(row_axis["values"][r - 1]) and \
                value - row_axis["values"][r - 1] == 1:
            rows[-1][0].append(r)
        else:
            rows.append(([r], text))
    parts = []
    for positions, text in rows:
        where = _runs(row_axis["key"], row_axis, positions)
        lead = "at " if row_axis["key"] == "players" else "with "
        parts.append(f"{lead}{where}: {text}")
    return head + "; ".join(parts) + "."


def _position(axis: dict, value) -> int:
    dumped = json.dumps(value)
    return next(i for i, v in enumerate(axis["values"]) if json.dumps(v) == dumped)


def strategy_flips(numbers: dict) -> list[str]:
    """For each varied strategies key: does the favoured side (a team game) or the top role
    change between its levels, the other keys held?"""
    axes, cells, varied = numbers["axes"], numbers["cells"], numbers["varied"]
    teams = numbers["teams"]
    out = []
    for along in varied:
        axis = axes[along]
        if not axis["key"].startswith("strategies"):
            continue
        key = axis["key"]
        for pairs, members in _groups(axes, cells, varied, along):
            played = [c for c in members if c["measures"] is not None]
            if len(played) < 2:
                continue
            context = context_text(pairs)
            if teams:
                sides = []
                for c in played:
                    b = c["measures"]["balance"]
                    if b["covers_target"] or b["rate"] is None:
                        sides.append("neither side (within chance)")
                    elif b["rate"] > b["target"]:
                        sides.append(teams[0])
                    else:
                        sides.append(teams[1] if len(teams) == 2 else "the other teams")
                named = {s for s in sides if not s.startswith("neither")}
                listing = ", ".join(f"{s} under {c['labels'][along]}"
                                    for s, c in zip(sides, played))
                if len(named) > 1:
                    out.append(_sentence(context, f"the favoured side flips with {key}: "
                                                  f"{listing}"))
                elif len(set(sides)) > 1:
                    out.append(_sentence(context, f"the favoured side changes with {key}: "
                                                  f"{listing}"))
                else:
                    out.append(_sentence(context, f"the favoured side does not change with "
                                                  f"{key}: {sides[0]} under every level"))
            tops = []
            for c in played:
                rates = c["measures"].get("role_rates") or []
                rates = [r for r in rates if r["rate"] is not None]
                tops.append(max(rates, key=lambda r: r["rate"])["name"] if rates else None)
            if len({t for t in tops if t}) > 1:
                listing = ", ".join(f"{t} under {c['labels'][along]}"
                                    for t, c in zip(tops, played) if t)
                out.append(_sentence(context, f"the top role (highest win rate) changes with "
                                              f"{key}: {listing}"))
    return out


def per_game_text(x: float) -> str:
    """A count per game: "2", or "about 0.8" when it is an average."""
    return str(int(round(x))) if abs(x - round(x)) < 1e-9 else f"about {x:.2g}"


# --- tests -------------------------------------------------------------------------------------
def test_method(result: Result, name: str) -> str:
    """The statistical test behind one of a run's tests, for a summary whose tests do not carry
    it (inference.Test.method): recomputed from the tallies, as simulator.statistics.summary.summarize runs it."""
    try:
        for test in summarize(result).tests:
            if test.name == name:
                return test.method
    except ValueError:
        pass
    return name
