"""Result files: a run's data, written and read back.

A result (JSON, versioned schema) holds the resolved config, the seed, the versions, the chunks
played and the integer tallies. Everything a summary or a report shows is computed from it
(`simulator.statistics.summary`), so a report can be rebuilt later from the file alone.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import platform
from functools import lru_cache
from importlib import metadata
from pathlib import Path

import numpy as np

from simulator.run import compile_cache, stopping
from simulator.setup import datafile
from simulator import fileio
from simulator.setup import config as config_module
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
    def digest(data: bytes) -> str:
        return hashlib.sha256(data).hexdigest()[:16]

    # each user strategy file's SHA-256, of the bytes that were loaded and run (config.py)
    files = {slot.name: slot.info.digest for slot in cfg.slots if slot.info.digest}
    # the values of a shipped set a config names ("people@equilibrium"): the same config plays
    # other players once the set is made again
    presets = [[slot.name, list(slot.preset)] for slot in cfg.slots if slot.preset]
    played = cfg.raw if not presets else {"config": cfg.raw, "presets": presets}
    return {"config": digest(json.dumps(played, sort_keys=True).encode()),
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


def checksum(data: dict) -> str:
    """The SHA-256 of a result's whole content (every field but the checksum itself), written
    with every save and checked on every read: an edited count, command or note is refused."""
    return datafile.content_checksum({key: value for key, value in data.items()
                                      if key != "checksum"})


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
    "fairplay.result", 4, "result",  # 4: the checksum covers the whole file (3: its claims)
    error=ResultError, made_by="fairplay run", remedy="start a new run", checksummed=True,
    fields={
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


# What every output of a result read with --unchecked says (a report, a table, the CSV folder).
UNCHECKED_NOTE = ("read without its checksum (--unchecked): these numbers are the file's as it "
                  "is now, not checked to be the ones fairplay wrote")


class Result:
    """A run's result: the JSON data, with tallies as int64 arrays."""

    def __init__(self, data: dict):
        self.data = data
        self.game = get_game(data["game"])
        self.tallies = {k: np.asarray(v, dtype=np.int64) for k, v in data["tallies"].items()}
        self._merged = set(data["chunks_done"])
        self.unchecked = False  # read without its checksum (`--unchecked`): outputs say so

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
        data.pop("checksum", None)
        data["checksum"] = checksum(data)
        return json.dumps(data, indent=1, ensure_ascii=False)

    def save(self, path) -> None:
        """Write atomically: a crash mid-write never leaves a half-written result."""
        fileio.write_atomically(path, self.to_json())

    @classmethod
    def load(cls, path, unchecked: bool = False) -> "Result":
        """Read and check a result file. It is data: nothing it names is loaded or run. A file
        without its checksum is refused unless `unchecked` (then `result.unchecked` says so)."""
        return cls.from_data(RESULT_FILE.read(path), path, unchecked)

    @classmethod
    def from_data(cls, data, path="<result>", unchecked: bool = False) -> "Result":
        """A result from its parsed JSON, checked field by field (see `load`)."""
        RESULT_FILE.check(data, path, unsealed=True)  # the whole file against its checksum
        if data.get("checksum") is None and not unchecked:
            raise ResultError(path, "it has no checksum (made by an older fairplay, or edited), "
                                    "so its numbers cannot be trusted; --unchecked reads it "
                                    "anyway, and every output then says so")
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
        problem = stopping.problem(data)
        if problem:
            raise ResultError(path, problem)
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
        result = cls(data)
        result.unchecked = data.get("checksum") is None
        return result

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
