"""Result files and the statistics read from them.

A result (JSON, versioned schema) holds the resolved config, the seed, the versions, the chunks
played and the integer tallies. Everything a summary or a report shows is computed from it, so a
report can be rebuilt later from the file alone.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import platform
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import metadata
from pathlib import Path

import numpy as np

from simulator import adaptive, datafile, fileio, stats
from simulator import verdict as verdicts
from simulator.games import get_game


class ResultError(Exception):
    """An unreadable, corrupt or mismatched result file: one line for the user."""

    def __init__(self, path, message):
        super().__init__(f"{path}: {message}")


@lru_cache(maxsize=None)
def _versions() -> tuple:
    def version(name):
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            return "unknown"

    return (("fairplay", version("fairplay")), ("numba", version("numba")),
            ("numpy", version("numpy")), ("scipy", version("scipy")),
            ("python", platform.python_version()))


def versions() -> dict:
    """The versions of fairplay, Python and the libraries the results depend on (read once per
    process: reading package metadata took longer than a small run)."""
    return dict(_versions())


def fingerprint(cfg) -> dict:
    """What produced a result: the resolved config, the code (fairplay's version and a hash of its
    compiled sources) and the source of every user strategy file. `--resume` refuses a result
    whose fingerprint no longer matches: two codes' games never mix in one result."""
    from simulator import compile_cache

    def digest(data: bytes) -> str:
        return hashlib.sha256(data).hexdigest()[:16]

    # each user strategy file's SHA-256, of the bytes that were loaded and run (config.py)
    files = {slot.name: slot.info.digest for slot in cfg.slots if slot.info.digest}
    return {"config": digest(json.dumps(cfg.raw, sort_keys=True).encode()),
            "code": f"{versions()['fairplay']}+{compile_cache.loaded_key('user')}",
            "strategy_files": files}


def new_result_data(cfg, games: int, seed: int, chunk_size: int, command: str = "") -> dict:
    game = cfg.game
    empty = game.empty_tallies(cfg.players)
    return {
        **RESULT_FILE.header(),
        "game": game.name,
        "config": cfg.raw,
        "source": cfg.source,
        "base_dir": str(Path(cfg.source).parent.resolve()) if Path(cfg.source).exists() else
        os.getcwd(),
        "setup_notes": cfg.notes,
        "provisional": list(game.rulings_for(cfg.params)),
        "strategies": [slot.label() for slot in cfg.slots],
        "dealt_teams": list(game.dealt_teams(cfg.params) if game.dealt_teams else game.teams),
        "slot_table": cfg.slot_table.tolist(),
        "seed": int(seed),
        "games_requested": int(games),
        "chunk_size": int(chunk_size),
        "chunks_done": [],
        "complete": False,
        "versions": versions(),
        "command": command,
        "fingerprint": fingerprint(cfg),
        "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "elapsed_seconds": 0.0,
        "tallies": {name: array.tolist() for name, array in empty.items()},
    }


# What a result claims: everything its numbers and its continuation depend on. The checksum over
# them (SHA-256 of their canonical JSON) is written with every save and checked on every read.
CLAIMS = ("game", "config", "source", "base_dir", "seed", "games_requested", "chunk_size",
          "chunks_done", "tallies", "stopping", "fingerprint", "strategies", "slot_table",
          "dealt_teams")


def checksum(data: dict) -> str:
    claims = {key: data.get(key) for key in CLAIMS}
    claims["chunks_done"] = sorted(claims["chunks_done"] or [])
    text = json.dumps(claims, sort_keys=True, ensure_ascii=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _check_fingerprint(stored: dict, path) -> None:
    """A fingerprint is texts: the config's and the code's hashes, and each strategy file's."""
    files = stored.get("strategy_files", {})
    if not all(isinstance(stored.get(k, ""), str) for k in ("config", "code")) or \
            not isinstance(files, dict) or \
            not all(isinstance(k, str) and isinstance(v, str) for k, v in files.items()):
        raise ResultError(path, "corrupt result: its fingerprint must hold hashes as text")


# Every field of a result file: the types it may have, and its default when absent (older files
# lack the optional ones).
_REQUIRED = datafile.REQUIRED
# A result file: every field, the types it may have, and its default when absent (older files
# lack the optional ones).
RESULT_FILE = datafile.Kind(
    "fairplay.result", 3, "result",  # 3: seat and position contrasts, the teams dealt, a checksum
    error=ResultError, made_by="fairplay run", remedy="start a new run", fields={
        "game": ((str,), _REQUIRED), "config": ((dict,), _REQUIRED),
        "source": ((str,), _REQUIRED), "base_dir": ((str,), _REQUIRED),
        "seed": ((int,), _REQUIRED), "games_requested": ((int,), _REQUIRED),
        "chunk_size": ((int,), _REQUIRED), "chunks_done": ((list,), _REQUIRED),
        "tallies": ((dict,), _REQUIRED),
        "complete": ((bool,), False), "elapsed_seconds": ((int, float), 0.0),
        "command": ((str,), ""), "strategies": ((list,), []), "slot_table": ((list,), []),
        "setup_notes": ((dict,), {}), "versions": ((dict,), {}), "created": ((str,), ""),
        "fingerprint": ((dict,), {}),
        "checksum": ((str, type(None)), None),  # absent in older files (they cannot be resumed)
        "dealt_teams": ((list, type(None)), None),  # absent in older files: the teams some
        # role of which ended a game
        "provisional": ((list, type(None)), None),  # absent in older files: every ruling
    })


class Result:
    """A run's result: the JSON data, with tallies as int64 arrays."""

    def __init__(self, data: dict):
        self.data = data
        self.game = get_game(data["game"])
        self.tallies = {k: np.asarray(v, dtype=np.int64) for k, v in data["tallies"].items()}
        self._merged = set(data["chunks_done"])

    # --- building ----------------------------------------------------------------------------
    def add_chunk(self, chunk: int, tallies: dict) -> None:
        if int(chunk) in self._merged:  # a chunk played twice (a backend's bug) never counts twice
            raise ValueError(f"chunk {chunk} is already merged into this result")
        # A Ctrl-C between the tallies and the chunk's number would save games no chunk claims,
        # and a resume would play them again
        with fileio.signals_held():
            self._merged.add(int(chunk))
            for name, values in tallies.items():
                self.tallies[name] += values
            self.data["chunks_done"].append(int(chunk))
            total = -(-self.data["games_requested"] // self.data["chunk_size"])
            self.data["complete"] = len(self.data["chunks_done"]) == total

    # --- files -------------------------------------------------------------------------------
    def to_json(self) -> str:
        data = dict(self.data)
        data["chunks_done"] = sorted(self.data["chunks_done"])
        data["tallies"] = {k: v.tolist() for k, v in self.tallies.items()}
        data["checksum"] = checksum(data)
        return json.dumps(data, indent=1, ensure_ascii=False)

    def save(self, path) -> None:
        """Write atomically: a crash mid-write never leaves a half-written result."""
        fileio.write_atomically(path, self.to_json())

    @classmethod
    def load(cls, path) -> "Result":
        """Read and check a result file. It is data: nothing it names is loaded or run."""
        return cls.from_data(RESULT_FILE.read(path), path)

    @classmethod
    def from_data(cls, data, path="<result>") -> "Result":
        """A result from its parsed JSON, checked field by field (see `load`)."""
        RESULT_FILE.check(data, path)
        game = get_game(data["game"])
        try:
            players = int(data["config"]["players"])
        except Exception:  # a damaged config: the tallies cannot be checked against it
            raise ResultError(path, "corrupt result: its config has no valid player count") \
                from None
        try:
            datafile.fit_tallies(game, data["tallies"], players, "result")
        except datafile.Unfit as exc:
            raise ResultError(path, f"corrupt result: {exc}") from None
        if data["games_requested"] < 1 or data["chunk_size"] < 1 or data["seed"] < 0:
            raise ResultError(path, "corrupt result: games, chunk size and seed out of range")
        if not all(isinstance(c, int) and not isinstance(c, bool) for c in data["chunks_done"]):
            raise ResultError(path, "corrupt result: chunks_done must list chunk numbers")
        _check_fingerprint(data["fingerprint"], path)
        dealt = data["dealt_teams"]
        if dealt is not None and not all(isinstance(t, str) and t in game.teams for t in dealt):
            raise ResultError(path, "corrupt result: dealt_teams must name teams of its game")
        if data.get("checksum") is not None and data["checksum"] != checksum(data):
            raise ResultError(path, "its contents do not match the checksum fairplay wrote (the "
                                    "file was edited or damaged); it is not read")
        adaptive.check(data, path)
        from simulator import config as config_module  # here: importing results stays light

        try:  # as data: a user strategy it names is not loaded
            cfg = config_module.from_raw(data["config"], data["source"], data["base_dir"])
        except config_module.ConfigError as exc:
            raise ResultError(path, f"corrupt result: its config is not valid ({exc})") from None
        if cfg.game.name != game.name:
            raise ResultError(path, f"corrupt result: its config is for {cfg.game.name}, the file "
                                    f"for {game.name}")
        strategies, slots = data["strategies"], data["slot_table"]
        rows_fit = not slots or (len(slots) == players and all(
            isinstance(row, list) and len(row) == len(game.roles) and
            all(isinstance(i, int) and 0 <= i < len(strategies) for i in row) for row in slots))
        if not all(isinstance(name, str) for name in strategies) or not rows_fit:
            raise ResultError(path, "corrupt result: its strategies and slot table do not fit")
        return cls(data)

    def check_claims(self, path) -> None:
        """Refuse (one line) to continue a file whose claims (config, seed, chunks, tallies) are
        not the ones fairplay wrote: `--resume` never merges games into an edited result."""
        if self.data.get("checksum") is None:
            raise ResultError(path, "this result has no checksum (made by an older fairplay, or "
                                    "edited); start a new run")
        if self.data["checksum"] != checksum(json.loads(self.to_json())):
            raise ResultError(path, "its contents do not match the checksum fairplay wrote (the "
                                    "file was edited or damaged); start a new run")

    def check_resumable(self, cfg, path) -> None:
        """Refuse (ResultError, one line) a result that `--resume` must not continue: one whose
        fingerprint no longer matches its config, code or strategy files, whose tallies disagree
        with its list of chunks, or whose tally shapes disagree with its config."""
        data = self.data
        stored = data.get("fingerprint")
        if not stored:
            raise ResultError(path, "this result has no fingerprint (made by an older fairplay); "
                                    "start a new run")
        now = fingerprint(cfg)
        if stored.get("config") != now["config"]:
            raise ResultError(path, "its config does not match its fingerprint (the file was "
                                    "edited?); start a new run")
        if stored.get("code") != now["code"]:
            raise ResultError(path, f"fairplay's code changed since this run started "
                                    f"({stored.get('code')} -> {now['code']}); games of two codes "
                                    f"do not mix: start a new run")
        for source, before in (stored.get("strategy_files") or {}).items():
            after = now["strategy_files"].get(source)
            if after != before:
                raise ResultError(path, f"strategy file {source} changed since this run started; "
                                        f"games of two strategies do not mix: start a new run")
        size, requested = data["chunk_size"], data["games_requested"]
        chunks = data["chunks_done"]
        total = (requested + size - 1) // size
        if len(set(chunks)) != len(chunks) or any(not 0 <= c < total for c in chunks):
            raise ResultError(path, "corrupt result: its list of chunks is not a set of this "
                                    "run's chunks")
        played = sum(min(size, requested - c * size) for c in chunks)
        if self.games_played != played:
            raise ResultError(path, f"corrupt result: its tallies count {self.games_played:,} "
                                    f"games but its chunks hold {played:,}")
        expected = cfg.game.empty_tallies(cfg.players)
        for name, empty in expected.items():
            if self.tallies[name].shape != empty.shape:
                raise ResultError(path, f"corrupt result: tally {name} has shape "
                                        f"{list(self.tallies[name].shape)}, its config needs "
                                        f"{list(empty.shape)}")

    # --- reading -----------------------------------------------------------------------------
    @property
    def games_played(self) -> int:
        return int(self.tallies["games"][0])

    @property
    def complete(self) -> bool:
        return bool(self.data.get("complete"))

    def summary(self, confidence: float | None = None) -> "Summary":
        """The run's summary at `confidence`; by default 95%, or for a run that the sequential
        verdict stopped (--until-decided), the level of its repeated confidence intervals."""
        return summarize(self, adaptive.interval_level(self.data) if confidence is None
                         else confidence)


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
    judgement: "verdicts.Verdict | None" = None  # the verdict's findings, status and lead
    setup: dict = field(default_factory=dict)  # the game's notes on the setup (deck, pool, ...)
    provisional: tuple[str, ...] = ()  # the game's rulings made where its source is silent
    stopped: str = ""  # an adaptive run: how many games it took and why it stopped
    repeated: str = ""  # a sequential stop: the intervals are repeated confidence intervals

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
        if self.stopped:
            lines.append(f"  {self.stopped}")
        if self.repeated:
            lines.append(f"  {self.repeated}")
        for name, note in self.setup.items():
            lines.append(f"  {name.replace('_', ' ')}: {note}")
        order = get_game(self.game).turn_order
        titles = {"team": "Win rate by team", "seat": "Win rate by seat",
                  "role": "Win rate by role", "strategy": "Win rate by strategy",
                  "position": (f"Win rate by position in turn order ({order.direction}) from the "
                               f"first player ({order.first_player})") if order else
                  "Win rate by position in turn order from the first player",
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
        for note in (self.judgement.notes if self.judgement else []):
            lines.append(note)
        lines.append(f"To know a win rate to ±1 point (95%) you need about "
                     f"{verdicts.about(self.games_for_one_point)} games.")
        if self.provisional:
            lines.append(f"Provisional: the result depends on {len(self.provisional)} rulings "
                         f"made where the game's source is silent (`fairplay games {self.game}` "
                         f"lists them).")
        return "\n".join(lines)


def _families_noun(groups: list[str]) -> str:
    words = {"team": "team", "seat": "seat", "role": "role", "strategy": "strategy",
             "position": "position in turn order"}
    names = [words[g] for g in groups]
    return ", ".join(names[:-1]) + (" and " if len(names) > 1 else "") + names[-1] if names \
        else "finding"


def position_label(position: int, first: bool = True) -> str:
    """A seat's place in turn order from the game's first player: "1st (first player)", "2nd"
    ... (`first`: say who the 1st is)."""
    n = position + 1
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}" + (" (first player)" if position == 0 and first else "")


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
    for position in range(players):  # games whose rules name a first player
        if t["position_games"][position]:
            rows.append(Row("position", position_label(position), stats.wilson(
                int(t["position_wins"][position]), int(t["position_games"][position]),
                confidence)))

    # The families judged together (Holm across every finding): verdict.run_findings
    findings, tolerance = verdicts.run_findings(game, t, result.data, confidence)
    if game.team_game:
        families = [("team", "camp balance",
                     "each dealt team against its target share of decided games (Wilson)")]
    else:
        families = [("role", "role fairness", "z-tests of each role against an even share, "
                                              "the game as the unit"),
                    ("strategy", "strategy fairness", "z-tests of each strategy against an "
                                                      "even share, the game as the unit")]
    families.insert(1, ("seat", "seat fairness", "z-tests of each seat against the table's "
                                                 "average, the game as the unit"))
    families.append(("position", "turn-order fairness",
                     "z-tests of each position from the first player against the average "
                     "position, the game as the unit"))
    nouns = sorted({f.group for f in findings}, key=["team", "seat", "role", "strategy",
                                                     "position"].index)
    noun = _families_noun(nouns)
    judged = verdicts.judge(findings, tolerance, games, noun, game.symmetric_seats)
    tests = []
    for group, name, method in families:
        members = [f for f in findings if f.group == group]
        if members:
            lead = min(members, key=lambda f: f.pvalue)
            tests.append(stats.Test(name, abs(lead.difference), lead.pvalue, lead.adjusted,
                                    method=f"{method}; Holm across every finding"))
    headline = (t["team_wins"][0] / t["team_wins"].sum() if t["team_wins"].sum() else 0.5) \
        if game.team_game else 1 / players
    verdict = judged.sentence
    if judged.symmetric_seats:
        verdict += (f" Seats are alike by construction ({judged.symmetric_seats}): they are not "
                    f"judged; turn order is.") if game.turn_order else \
            (f" Seats are alike by construction ({judged.symmetric_seats}): they are not judged.")
    effect = verdicts.halves_effect(t, confidence) if game.turn_order else None
    if effect is not None:
        judged.notes.append(effect.sentence(game.turn_order, confidence))

    lengths = np.arange(len(t["length_hist"]))
    total = float((lengths * t["length_hist"]).sum())
    total_sq = float((lengths ** 2 * t["length_hist"]).sum())
    mean_length = stats.mean_interval(total, total_sq, games, confidence)
    events = {name: float(t["events"][i]) / games for i, name in enumerate(game.event_names)} if games else {}
    return Summary(game.name, games, rows, tests, verdict, tuple(float(x) for x in mean_length),
                   game.length_unit, events, stats.games_needed(headline, 0.01, 0.95), judged,
                   dict(result.data.get("setup_notes") or {}), provisional_of(result),
                   adaptive.sentence(result.data),
                   # printed at the level of the sequential design's repeated intervals
                   adaptive.repeated_note(result.data)
                   if confidence == adaptive.interval_level(result.data) > 0.95 else "")


def provisional_of(result: "Result") -> tuple[str, ...]:
    """The provisional rulings a result depends on (a file from before they were recorded: every
    ruling of its game)."""
    recorded = result.data.get("provisional")
    return tuple(result.game.provisional) if recorded is None else tuple(recorded)
