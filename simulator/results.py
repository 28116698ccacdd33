"""Result files and the statistics read from them.

A result (JSON, versioned schema) holds the resolved config, the seed, the versions, the chunks
played and the integer tallies. Everything a summary or a report shows is computed from it, so a
report can be rebuilt later from the file alone.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import platform
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import numpy as np

from simulator import stats
from simulator.fileio import write_atomically
from simulator.games import game_names, get_game

SCHEMA = "fairplay.result"
SCHEMA_VERSION = 2  # 2: the engine's tallies (decisions, per-game moments of the ratios)


class ResultError(Exception):
    """An unreadable, corrupt or mismatched result file: one line for the user."""

    def __init__(self, path, message):
        super().__init__(f"{path}: {message}")


def versions() -> dict:
    def version(name):
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            return "unknown"

    return {"fairplay": version("fairplay"), "numba": version("numba"),
            "numpy": version("numpy"), "scipy": version("scipy"),
            "python": platform.python_version()}


def new_result_data(cfg, games: int, seed: int, chunk_size: int, command: str = "") -> dict:
    game = cfg.game
    empty = game.empty_tallies(cfg.players)
    return {
        "schema": SCHEMA,
        "schema_version": SCHEMA_VERSION,
        "game": game.name,
        "config": cfg.raw,
        "source": cfg.source,
        "base_dir": str(Path(cfg.source).parent.resolve()) if Path(cfg.source).exists() else
        os.getcwd(),
        "setup_notes": cfg.notes,
        "strategies": [slot.label() for slot in cfg.slots],
        "slot_table": cfg.slot_table.tolist(),
        "seed": int(seed),
        "games_requested": int(games),
        "chunk_size": int(chunk_size),
        "chunks_done": [],
        "complete": False,
        "versions": versions(),
        "command": command,
        "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "elapsed_seconds": 0.0,
        "tallies": {name: array.tolist() for name, array in empty.items()},
    }


class Result:
    """A run's result: the JSON data, with tallies as int64 arrays."""

    def __init__(self, data: dict):
        self.data = data
        self.game = get_game(data["game"])
        self.tallies = {k: np.asarray(v, dtype=np.int64) for k, v in data["tallies"].items()}

    # --- building ----------------------------------------------------------------------------
    def add_chunk(self, chunk: int, tallies: dict) -> None:
        for name, values in tallies.items():
            self.tallies[name] += values
        self.data["chunks_done"].append(int(chunk))
        total = (self.data["games_requested"] + self.data["chunk_size"] - 1) // self.data["chunk_size"]
        self.data["complete"] = len(self.data["chunks_done"]) == total

    # --- files -------------------------------------------------------------------------------
    def to_json(self) -> str:
        data = dict(self.data)
        data["chunks_done"] = sorted(self.data["chunks_done"])
        data["tallies"] = {k: v.tolist() for k, v in self.tallies.items()}
        return json.dumps(data, indent=1, ensure_ascii=False)

    def save(self, path) -> None:
        """Write atomically: a crash mid-write never leaves a half-written result."""
        write_atomically(path, self.to_json())

    @classmethod
    def load(cls, path) -> "Result":
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise ResultError(path, f"cannot read: {exc.strerror}") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ResultError(path, f"not a result file (corrupt JSON: {exc.msg})") from None
        if not isinstance(data, dict) or data.get("schema") != SCHEMA:
            raise ResultError(path, "not a fairplay result file")
        if data.get("schema_version") != SCHEMA_VERSION:
            raise ResultError(path, f"schema version {data.get('schema_version')} is not "
                                    f"supported (this fairplay reads {SCHEMA_VERSION})")
        required = ("game", "config", "source", "base_dir", "seed", "games_requested",
                    "chunk_size", "chunks_done", "tallies")
        missing = [key for key in required if key not in data]
        if missing:
            raise ResultError(path, f"corrupt result: missing {', '.join(missing)}")
        if data["game"] not in game_names():
            raise ResultError(path, f"unknown game {data['game']!r}")
        game = get_game(data["game"])
        absent = [n for n in game.tally_names() if n not in data["tallies"]]
        if absent:
            raise ResultError(path, f"corrupt result: tallies missing {', '.join(absent)}")
        try:
            return cls(data)
        except (TypeError, ValueError) as exc:
            raise ResultError(path, f"corrupt result: {exc}") from None

    # --- reading -----------------------------------------------------------------------------
    @property
    def games_played(self) -> int:
        return int(self.tallies["games"][0])

    @property
    def complete(self) -> bool:
        return bool(self.data.get("complete"))

    def summary(self, confidence: float = 0.95) -> "Summary":
        return summarize(self, confidence)


# --- statistics of a result -------------------------------------------------------------------
@dataclass
class Row:
    group: str  # "team", "seat", "role", "strategy", "end", "length"
    name: str
    rate: stats.Rate
    moments: stats.GameMoments | None = None  # for a rate over seat-games: per-game moments


@dataclass
class Summary:
    game: str
    games: int
    rows: list[Row]
    tests: list[stats.Test]  # Holm-adjusted together
    verdict: str
    mean_length: tuple[float, float, float]
    length_unit: str
    events_per_game: dict[str, float]
    games_for_one_point: int

    def records(self) -> list[dict]:
        """A table-like view: one dict per rate (ready for pandas.DataFrame, csv, ...)."""
        return [{"group": row.group, "name": row.name, "wins": row.rate.successes,
                 "games": row.rate.trials, "rate": row.rate.value, "low": row.rate.low,
                 "high": row.rate.high} for row in self.rows]

    def rows_of(self, group: str) -> list[Row]:
        return [row for row in self.rows if row.group == group]

    def table(self) -> str:
        """A plain-text table of every rate with its interval, and the tests."""
        lines = [f"{self.game}: {self.games:,} games"]
        titles = {"team": "Win rate by team", "seat": "Win rate by seat",
                  "role": "Win rate by role", "strategy": "Win rate by strategy",
                  "end": "How games end"}
        for group, title in titles.items():
            rows = self.rows_of(group)
            if not rows:
                continue
            lines.append("")
            lines.append(title)
            width = max(len(r.name) for r in rows)
            for row in rows:
                r = row.rate
                lines.append(f"  {row.name:<{width}}  {r.format(1):>28}  ({r.successes:,}/{r.trials:,})")
        mean, low, high = self.mean_length
        lines.append("")
        lines.append(f"Game length: {mean:.2f} {self.length_unit} (95% CI {low:.2f}–{high:.2f})")
        if self.events_per_game:
            lines.append("Events per game: " + ", ".join(
                f"{name} {value:.3f}" for name, value in self.events_per_game.items()))
        lines.append("")
        lines.append("Tests (Holm-corrected together)")
        for test in self.tests:
            lines.append(f"  {test.name}: {stats.format_p(test.adjusted_pvalue)}")
        lines.append("")
        lines.append(f"Verdict: {self.verdict}")
        lines.append(f"To know a win rate to ±1 point (95%) you need about "
                     f"{self.games_for_one_point:,} games.")
        return "\n".join(lines)


def ratio_moments(game, tallies: dict, name: str, index: int) -> stats.GameMoments:
    """The per-game moments of entry `index` of a ratio tally (one declared `per` a count):
    what its game-level variance needs (see stats.clustered_rate)."""
    tally = game.tally(name)
    moments = tallies[f"{name}_by_game"][index]
    return stats.GameMoments(
        y=float(tallies[name][index]), x=float(tallies[tally.per][index]),
        yy=float(moments[0]), xy=float(moments[1]), xx=float(moments[2]),
        games=int(tallies["games"][0]))


def summarize(result: Result, confidence: float = 0.95) -> Summary:
    game = result.game
    t = result.tallies
    games = int(t["games"][0])
    players = len(t["seat_wins"])
    rows: list[Row] = []
    for i, team in enumerate(game.teams):
        rows.append(Row("team", team, stats.wilson(int(t["team_wins"][i]), games, confidence)))
    for seat in range(players):
        rows.append(Row("seat", f"seat {seat}", stats.wilson(int(t["seat_wins"][seat]), games,
                                                             confidence)))
    # Roles and strategies count seat-games, which win together (team-mates) or exclude each
    # other (rivals): their intervals take the game as the unit.
    for r, role in enumerate(game.roles):
        if t["role_games"][r]:
            moments = ratio_moments(game, t, "role_wins", r)
            rows.append(Row("role", role.name, stats.clustered_rate(moments, confidence),
                            moments))
    for s, label in enumerate(result.data.get("strategies", [])):
        if t["slot_games"][s]:
            moments = ratio_moments(game, t, "slot_wins", s)
            rows.append(Row("strategy", label, stats.clustered_rate(moments, confidence),
                            moments))
    for e, name in enumerate(game.end_names):
        rows.append(Row("end", name, stats.wilson(int(t["end_counts"][e]), games, confidence)))

    tests = []
    target = result.data["config"].get("balance_target")
    if game.team_game:
        decided = int(t["team_wins"].sum())
        targets = None if target is None else [target, 1 - target]
        test = stats.team_balance(t["team_wins"], games, targets)
        tests.append(stats.Test("camp balance", test.statistic, test.pvalue))
        seat = stats.seat_fairness(t["seat_wins"], np.full(players, games))
        tests.append(stats.Test("seat fairness", seat.statistic, seat.pvalue))
        verdict = stats.favoured_sentence(list(game.teams), t["team_wins"], games,
                                          target=targets)
        headline = t["team_wins"][0] / decided if decided else 0.5
    else:
        seat = stats.individual_fairness(t["seat_wins"], games)
        tests.append(stats.Test("seat fairness", seat.statistic, seat.pvalue))
        best = int(np.argmax(t["seat_wins"]))
        rate = stats.wilson(int(t["seat_wins"][best]), games, confidence)
        verdict = (f"seat {best} wins most often, {rate.format(1)} against an even share of "
                   f"{100 / players:.1f}%; seat effects are "
                   f"{'significant' if seat.pvalue < 1 - confidence else 'not significant'} "
                   f"({stats.format_p(seat.pvalue)}).")
        headline = 1 / players
    tests = stats.holm_adjust(tests)

    lengths = np.arange(len(t["length_hist"]))
    total = float((lengths * t["length_hist"]).sum())
    total_sq = float((lengths ** 2 * t["length_hist"]).sum())
    mean_length = stats.mean_interval(total, total_sq, games, confidence)
    events = {name: float(t["events"][i]) / games for i, name in enumerate(game.event_names)} if games else {}
    return Summary(game.name, games, rows, tests, verdict, tuple(float(x) for x in mean_length),
                   game.length_unit, events, stats.games_needed(headline, 0.01, 0.95))
