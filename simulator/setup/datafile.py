"""Versioned JSON files: each kind declared once, and read by one loader.

fairplay writes results, baselines, sweeps (and tune files, which are sweeps), best-response
and roles files as JSON that names its kind and version (``"schema": "fairplay.result",
"schema_version": 3``). Each kind is a `Kind`: its schema name, its version, the noun its
messages use and its top-level fields (their types, and a default where older files lack them).

`Kind.load` reads such a file as data (nothing it names is loaded or run) in one order: the
bytes (a regular file of bounded size, fileio), the JSON, the kind (another kind of ours, or none,
is named as such), the version (a newer one is refused as newer), the fields, and the game (one
this fairplay has). `fit_tallies` checks that tallies fit the game's declaration. Every problem is
the kind's own error with one line; the module of each kind then checks what only it knows.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from simulator import fileio

REQUIRED = object()  # a field every file of the kind has
OPTIONAL = object()  # a field that may be absent (and stays absent)

_KINDS: dict[str, "Kind"] = {}  # schema name -> Kind, each kind as its module declares it

_TYPE_NAMES = {int: "an integer", float: "a number", str: "a text", bool: "true or false",
               dict: "an object", list: "a list", type(None): "null"}


class Unfit(ValueError):
    """Data that does not fit what it claims (the caller says where)."""


@dataclass(frozen=True)
class Kind:
    """One kind of versioned JSON file.

    `fields` maps each top-level field to ``(types, default)``: the default is REQUIRED, OPTIONAL
    or the value an older file lacking the field reads as. `error(path, message)` builds the
    kind's exception. `made_by` is the command that writes such files, `remedy` what to do with
    an older one.
    """

    schema: str
    version: int
    noun: str
    fields: dict
    error: Callable[[Any, str], Exception]
    made_by: str = ""
    remedy: str = ""
    game_field: str | None = "game"  # the field naming the game the file is for
    checksummed: bool = False  # the file carries a SHA-256 of its whole content (`seal`)

    def __post_init__(self):
        _KINDS[self.schema] = self

    def seal(self, data: dict) -> dict:
        """`data` with the checksum of everything else in it, as a checksummed kind is saved;
        `check` refuses a file whose content no longer matches it."""
        body = {key: value for key, value in data.items() if key != "checksum"}
        return {**body, "checksum": content_checksum(body)}

    def header(self) -> dict:
        """The first two fields of every file of this kind."""
        return {"schema": self.schema, "schema_version": self.version}

    def load(self, path) -> dict:
        """The checked data of the file at `path`."""
        return self.check(self.read(path), path)

    def read(self, path):
        """The parsed JSON of the file at `path`, not yet checked (see `check`)."""
        try:
            data = fileio.read_json(path)
        except fileio.FileRefused as exc:
            reason = str(exc)
            raise self.error(path, f"not a {self.noun} file: it {reason}"
                             if reason.startswith("is") else reason) from None
        return data

    def check(self, data, path, unsealed: bool = False) -> dict:
        """`data` (parsed JSON) checked as a file of this kind: its kind, version, checksum,
        fields and game. Absent fields with a default get it (a copy). `unsealed` lets a
        checksummed kind's file without any checksum through (its reader then says so)."""
        claimed = data.get("schema") if isinstance(data, dict) else None
        if claimed != self.schema:
            other = _KINDS.get(claimed) if isinstance(claimed, str) else None
            if other is not None:
                raise self.error(path, f"this is a {other.noun} file (from `{other.made_by}`), "
                                       f"not a {self.noun} file (`{self.made_by}` makes those)")
            raise self.error(path, f"not a fairplay {self.noun} file (no \"schema\": "
                                   f"\"{self.schema}\")")
        version = data.get("schema_version")
        if version != self.version:
            newer = isinstance(version, int) and not isinstance(version, bool) and \
                version > self.version
            why = (f"it is newer than this fairplay, which reads version {self.version}; "
                   f"update fairplay" if newer else
                   f"this fairplay reads version {self.version}"
                   + (f"; {self.remedy}" if self.remedy else ""))
            raise self.error(path, f"{self.noun} schema version {version!r} is not supported "
                                   f"({why})")
        if self.checksummed and not (unsealed and data.get("checksum") is None):
            body = {key: value for key, value in data.items() if key != "checksum"}
            if data.get("checksum") != content_checksum(body):
                raise self.error(path, f"its contents do not match the checksum fairplay wrote "
                                       f"(the {self.noun} file was edited or damaged); "
                                       f"{self.remedy or 'make it again'}")
        try:
            check_fields(data, self.fields)
        except Unfit as exc:
            raise self.error(path, f"corrupt {self.noun}: {exc}") from None
        if self.game_field is not None:
            try:
                known_game(data[self.game_field])
            except Unfit as exc:
                raise self.error(path, str(exc)) from None
        return data


def content_checksum(data) -> str:
    """SHA-256 of `data`'s canonical JSON (sorted keys, ASCII, no spaces): what a checksummed
    file's "checksum" holds."""
    text = json.dumps(data, sort_keys=True, ensure_ascii=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def check_fields(data: dict, fields: dict) -> None:
    """Refuse (Unfit) an object that lacks a required field or holds one of the wrong type;
    fill in the defaults of absent ones."""
    missing = [name for name, (_, default) in fields.items()
               if default is REQUIRED and name not in data]
    if missing:
        raise Unfit(f"missing {', '.join(missing)}")
    for name, (types, default) in fields.items():
        if name not in data:
            if default is not OPTIONAL:
                data[name] = copy.deepcopy(default)
            continue
        value = data[name]
        if isinstance(value, bool) and bool not in types or not isinstance(value, types):
            raise Unfit(f"{name} must be {' or '.join(_TYPE_NAMES[t] for t in types)}")


def known_game(name):
    """The game `name` names, or Unfit when this fairplay has no such game."""
    from simulator.games import game_names, get_game  # here: reading a file header stays light

    if name not in game_names():
        raise Unfit(f"unknown game {name!r} (this fairplay has: {', '.join(game_names())})")
    return get_game(name)


def fit_tallies(game, tallies: dict, players: int, what: str) -> dict:
    """The tallies as int64 arrays, when they are exactly the game's (every declared tally, no
    other, each of the shape `players` players need, no count negative); otherwise Unfit saying
    what does not fit (`what` names the file: "result", "baseline")."""
    names = game.tally_names()
    absent = [name for name in names if name not in tallies]
    if absent:
        raise Unfit(f"tallies {', '.join(absent)} missing: not a {game.name} {what}, or a "
                    f"corrupt one")
    extra = [name for name in tallies if name not in names]
    if extra:
        raise Unfit(f"tallies {', '.join(extra)} are not {game.name}'s: a {what} of another "
                    f"game or version?")
    try:
        arrays = {name: np.asarray(tallies[name], dtype=np.int64) for name in names}
    except (TypeError, ValueError, OverflowError):
        raise Unfit("tallies must be integer arrays") from None
    try:
        shapes = {name: empty.shape for name, empty in game.empty_tallies(players).items()}
    except Exception:  # a player count the game cannot size its tallies for
        raise Unfit(f"{players} players is not a {game.name} table") from None
    for name, shape in shapes.items():
        if arrays[name].shape != shape:
            raise Unfit(f"tally {name} has shape {list(arrays[name].shape)}; a table of "
                        f"{players} players needs {list(shape)}")
    # counts cannot be negative (a sum can: a contrast, a score)
    for tally in game.all_tallies():
        if tally.holds in ("count", "histogram", "sum_sq") and (arrays[tally.name] < 0).any():
            raise Unfit(f"tally {tally.name} is negative (it counts games)")
    return arrays


def sniff(path, kind: Kind) -> bool:
    """Does the file at `path` start like a file of `kind` (a cheap look at its first bytes,
    to choose how to read it)?"""
    try:
        head = fileio.read_bytes(path, fileio.JSON_LIMIT)[:4096].decode("utf-8", "replace")
    except fileio.FileRefused:
        return False
    return bool(re.search(r'"schema"\s*:\s*"' + re.escape(kind.schema) + '"', head))
