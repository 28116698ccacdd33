"""The headline measures of one setup's tallies, declared once: the rows of the run summary
(simulator.statistics.summary), what the stopping rule watches (simulator.statistics.adaptive), what a baselines file
stores and a check compares (simulator.studies.regression) and a sweep cell's numbers (reports.measures).
Each measure keeps the integer counts it is computed from.

A rate keeps ``(successes, trials)``, a mean ``(sum, sum of squares, count)``; role and strategy
measures (and means over seat-games) also keep their per-game moments, so that their tests can
take the game as the unit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from simulator.statistics import inference
from simulator.statistics.rates import Row, position_label, ratio_moments


@dataclass(frozen=True)
class Group:
    """A group of headline measures: a measure's name is `prefix` + its label (the row's name in
    the summary), and a group with a `title` is a table of rates in the summary and reports."""

    name: str
    prefix: str
    title: str = ""


# In the order the summary shows them.
GROUPS = {g.name: g for g in (
    Group("team", "team ", "Win rate by team"),
    Group("draw", "", ""),
    Group("seat", "", "Win rate by seat"),
    Group("role", "role ", "Win rate by role"),
    Group("strategy", "strategy ", "Win rate by strategy"),
    # every game whose rules name a first player: the first player's seat is position 1st
    Group("position", "position ", "Win rate by position in turn order from the first player"),
    Group("end", "end: ", "How games end"),
    Group("length", ""),
    Group("score", ""),
)}
RATE_TABLES = {name: g.title for name, g in GROUPS.items() if g.title}


@dataclass(frozen=True)
class Measure:
    """One headline measure and the integer counts it is computed from.

    A rate has counts ``(successes, trials)``; a mean has ``(sum, sum of squares, count)``.
    """

    group: str  # one of GROUPS
    name: str  # unique within a setup, e.g. "team human", "seat 3", "end: wolves equal humans"
    kind: str  # "rate" or "mean"
    counts: tuple[int, ...]
    # For a rate or a mean over seat-games (a role, a strategy, a role's rounds): the sums over
    # games of y_g², x_g·y_g and x_g² and the number of games, where y_g and x_g are one game's
    # successes (or sum) and trials (or count). Seat-games of one game win together or exclude
    # each other, so the tests take the game as the unit (inference.GameMoments). None: the measure
    # counts one trial (or value) per game, and the plain tests apply.
    moments: tuple[int, int, int, int] | None = None

    @property
    def value(self) -> float:
        if self.kind == "rate":
            k, n = self.counts
            return k / n if n else math.nan
        total, _, n = self.counts
        return total / n if n else math.nan

    @property
    def sd(self) -> float:
        """Standard deviation of the underlying values (of the 0/1 outcome for a rate)."""
        if self.kind == "rate":
            p = self.value
            return math.sqrt(p * (1 - p)) if self.counts[1] else math.nan
        total, total_sq, n = self.counts
        if n < 2:
            return math.nan
        return math.sqrt(max(total_sq - total * total / n, 0.0) / (n - 1))

    @property
    def label(self) -> str:
        """The measure's name within its group ("human" for "team human")."""
        return self.name[len(GROUPS[self.group].prefix):]

    def interval(self, confidence: float) -> inference.Rate:
        """A rate's confidence interval: Wilson's for one trial per game, else the game as the
        unit (inference.clustered_rate)."""
        k, n = self.counts
        if self.moments is None:
            return inference.wilson(k, n, confidence)
        return inference.clustered_rate(self.game_moments(), confidence)

    def row(self, confidence: float) -> Row:
        return Row(self.group, self.label, self.interval(confidence),
                   None if self.moments is None else self.game_moments())

    def game_moments(self) -> inference.GameMoments:
        y, x = (self.counts[0], self.counts[1]) if self.kind == "rate" else \
            (self.counts[0], self.counts[2])
        yy, xy, xx, games = self.moments
        return inference.GameMoments(y, x, yy, xy, xx, games)

    def same_counts(self, other: "Measure") -> bool:
        return (self.group, self.name, self.kind, self.counts, self.moments) == \
            (other.group, other.name, other.kind, other.counts, other.moments)

    def to_json(self) -> dict:
        if self.kind == "rate":
            k, n = self.counts
            out = {"group": self.group, "name": self.name, "kind": "rate",
                   "successes": k, "trials": n}
        else:
            total, total_sq, n = self.counts
            out = {"group": self.group, "name": self.name, "kind": "mean",
                   "sum": total, "sum_sq": total_sq, "count": n}
        if self.moments is not None:
            out["game_moments"] = list(self.moments)
        return out

    @classmethod
    def from_json(cls, data) -> "Measure":
        if not isinstance(data, dict):
            raise ValueError("a measure must be an object")
        for key in ("group", "name", "kind"):
            if not isinstance(data.get(key), str):
                raise ValueError(f"a measure needs a string {key!r}")
        kind = data["kind"]
        if kind == "rate":
            keys = ("successes", "trials")
        elif kind == "mean":
            keys = ("sum", "sum_sq", "count")
        else:
            raise ValueError(f"measure {data['name']!r} has unknown kind {kind!r}")
        counts = []
        for key in keys:
            value = data.get(key)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"measure {data['name']!r}: {key} must be an integer")
            counts.append(value)
        if kind == "rate" and not 0 <= counts[0] <= counts[1]:
            raise ValueError(f"measure {data['name']!r}: need 0 <= successes <= trials")
        if kind == "mean" and (counts[1] < 0 or counts[2] < 0):
            raise ValueError(f"measure {data['name']!r}: negative sum of squares or count")
        moments = data.get("game_moments")
        if moments is not None:
            if not isinstance(moments, list) or len(moments) != 4 or \
                    any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in moments):
                raise ValueError(f"measure {data['name']!r}: game_moments must be four "
                                 f"non-negative integers (yy, xy, xx, games)")
            moments = tuple(moments)
        return cls(data["group"], data["name"], kind, tuple(counts), moments)

    def format_value(self) -> str:
        if math.isnan(self.value):
            return "n/a"
        return f"{100 * self.value:.2f}%" if self.kind == "rate" else number_text(self.value)


def number_text(x: float, signed: bool = False) -> str:
    sign = "+" if signed else ""
    x = round(x, 3) + 0.0  # no "-0.000"
    return f"{x:{sign},.3f}" if abs(x) < 1e5 else f"{x:{sign},.0f}"


def measures_of(game, tallies: dict, strategies) -> list[Measure]:
    """Every headline measure of one setup's tallies, in a stable order.

    Rates with no trials (a role nobody was dealt, an unused strategy slot, the positions of a
    game with no first player) are left out. Role and strategy rates, and means counted per
    seat-games or rounds, carry their per-game moments (`Measure.moments`): their tests take the
    game as the unit.
    """
    t = {k: np.asarray(v, dtype=np.int64) for k, v in tallies.items()}
    games = int(t["games"][0])
    out: list[Measure] = []

    def moments_of(name, i):
        m = ratio_moments(game, t, name, i)
        return (int(m.yy), int(m.xy), int(m.xx), int(m.games))

    def rate(group, label, k, n, moments=None):
        if int(n) > 0:
            out.append(Measure(group, GROUPS[group].prefix + label, "rate", (int(k), int(n)),
                               moments))

    for i, team in enumerate(game.teams):
        rate("team", team, t["team_wins"][i], games)
    rate("draw", "no winner", t["draws"][0], games)
    for seat, wins in enumerate(t["seat_wins"]):
        rate("seat", f"seat {seat}", wins, games)
    # Roles and strategies count seat-games, which win together (team-mates) or exclude each
    # other (rivals): they carry their per-game moments.
    for r, role in enumerate(game.roles):
        rate("role", role.name, t["role_wins"][r], t["role_games"][r],
             moments_of("role_wins", r))
    for s, label in enumerate(strategies):
        rate("strategy", label, t["slot_wins"][s], t["slot_games"][s],
             moments_of("slot_wins", s))
    for position, wins in enumerate(t["position_wins"]):  # one seat per game holds a position
        rate("position", position_label(position), wins, t["position_games"][position])
    for e, name in enumerate(game.end_names):
        rate("end", name, t["end_counts"][e], games)

    if games:
        lengths = np.arange(len(t["length_hist"]), dtype=np.int64)
        hist = t["length_hist"]
        out.append(Measure("length", f"game length ({game.length_unit})", "mean",
                           (int((lengths * hist).sum()), int((lengths * lengths * hist).sum()),
                            games)))
    role_names = [role.name for role in game.roles]
    for tally in game.tallies:
        if tally.holds != "sum" or tally.name not in t or tally.square not in t:
            continue
        prefix = tally.name[:-4] if tally.name.endswith("_sum") else tally.name
        sums, squares = t[tally.name].ravel(), t[tally.square].ravel()
        per_game = tally.per in ("", "games")
        counts = np.full(sums.size, games) if per_game else t[tally.per].ravel()
        for i in range(sums.size):
            label = {"role": role_names[i] if i < len(role_names) else str(i),
                     "slot": strategies[i] if i < len(strategies) else str(i),
                     "seat": f"seat {i}"}.get(tally.axis, str(i))
            if i < counts.size and int(counts[i]) > 0:
                out.append(Measure("score", f"mean {prefix} {label}" if sums.size > 1 else
                                   f"mean {prefix}", "mean",
                                   (int(sums[i]), int(squares[i]), int(counts[i])),
                                   None if per_game else moments_of(tally.name, i)))
    return out


def rows(measures: list[Measure], confidence: float, groups=tuple(RATE_TABLES)) -> list[Row]:
    """The rates of `groups` among `measures`, each with its interval at `confidence`."""
    return [m.row(confidence) for m in measures if m.kind == "rate" and m.group in groups]
