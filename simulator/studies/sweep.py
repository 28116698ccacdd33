"""Sweeps: one config played over a grid of variations, every cell a normal run.

A sweep varies config keys (``--vary players=8..12 --vary roles.werewolf=2..4``) and plays every
combination. Each cell is exactly the run ``fairplay run CONFIG --set KEY=VALUE ... -n GAMES --seed
SEED --chunk-size CHUNK`` would make: the same chunks from the same seeds, so its tallies are
bit-identical to that run's (the cell stores that command). All cells share the seed: the cells are
then played with common random numbers, which makes differences between neighbouring cells less
noisy, and their intervals (computed as if the cells were independent) err on the safe side.

Grammar of one ``--vary``:

* ``key=a..b``      every integer from a to b inclusive (a <= b);
* ``key=x,y,z``     a list; each item is read as a TOML value (``3``, ``0.4``, ``true``,
  ``"x"``, ``[1, 2]``), else as a plain string (``seer-led``); commas inside brackets, braces or
  quotes do not split;
* ``key=x``         a single level (a ``--set`` that is shown in the grid);
* ``key+=x,y``      list append: the key holds a list, and each level appends one item to the list
  the config already has there (absent: an empty list). An item that is itself a TOML array
  appends all its elements. An empty item (``key+=,x``) is the level "unchanged", the baseline.

A cell whose config is invalid (a player count out of range, an impossible deck) is kept as an
invalid cell with the one-line error; the other cells still run.

The sweep's result file (JSON, schema ``fairplay.sweep``) holds the grid and every cell's full
result data (schema ``fairplay.result``), so any cell's report can be rebuilt from it.
"""

from __future__ import annotations

import copy
import datetime as _dt
import itertools
import json
import math
import os
import re
import shlex
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from simulator.setup import config as config_module
from simulator.run import chunks, runner
from simulator.setup import datafile
from simulator import fileio
from simulator.setup.config import ConfigError
from simulator.games import game_names, get_game
from simulator.run.results import Result, ResultError, versions

_RANGE = re.compile(r"^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*$")
_KEY = re.compile(r"^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$")
MAX_CELLS = 10_000


class SweepError(Exception):
    """A user's mistake in a sweep (bad --vary, unreadable sweep file): one line."""


# --- TOML literals -----------------------------------------------------------------------------
_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def toml_key(key: str) -> str:
    return key if _BARE_KEY.match(key) else json.dumps(key, ensure_ascii=False)


def toml_value(value: Any) -> str:
    """A TOML literal for a config value (strings, numbers, booleans, arrays, inline tables)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{toml_key(k)} = {toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"no TOML literal for {value!r}")


def label(value: Any) -> str:
    """A short human label for a level: ``seer-led``, ``3``, ``[a, b]``, ``(unchanged)``."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(label(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}={label(v)}" for k, v in value.items()) + "}"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


# --- the grid ----------------------------------------------------------------------------------
UNCHANGED = None  # an append level that leaves the list as it is


@dataclass(frozen=True)
class Axis:
    """One varied key: its levels, and whether they replace the value or append to a list."""

    key: str
    op: str  # "set" or "append"
    values: tuple  # the levels (for "append": the item(s) appended, None = unchanged)
    text: str  # as the user wrote it

    def level_label(self, value) -> str:
        if self.op == "append":
            return "(unchanged)" if value is UNCHANGED else f"+{label(value)}"
        return label(value)

    def to_json(self) -> dict:
        return {"key": self.key, "op": self.op, "values": list(self.values), "text": self.text,
                "labels": [self.level_label(v) for v in self.values]}

    @classmethod
    def from_json(cls, data: dict) -> "Axis":
        return cls(data["key"], data["op"], tuple(data["values"]), data["text"])


def split_items(text: str) -> list[str]:
    """Split on commas that are not inside brackets, braces or quotes."""
    items, depth, quote, current = [], 0, "", []
    for char in text:
        if quote:
            current.append(char)
            if char == quote:
                quote = ""
            continue
        if char in "\"'":
            quote = char
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
        elif char == "," and depth == 0:
            items.append("".join(current).strip())
            current = []
            continue
        current.append(char)
    if quote or depth:
        raise SweepError(f"unbalanced brackets or quotes in {text!r}")
    items.append("".join(current).strip())
    return items


def parse_value(text: str) -> Any:
    """A level as TOML (``3``, ``0.5``, ``true``, ``"x"``, ``[1, 2]``), else a plain string; an
    array of bare words (``[night-talk, madman]``) is read item by item."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        pass
    stripped = text.strip()
    if stripped.startswith("[") and stripped.endswith("]"):
        inner = stripped[1:-1].strip()
        return [parse_value(item) for item in split_items(inner)] if inner else []
    return text


def parse_vary(text: str) -> Axis:
    """``players=8..12``, ``strategies.all=random,seer-led``, ``rules.extra+=a,b`` -> an Axis."""
    if "=" not in text:
        raise SweepError(f"--vary {text!r}: expected KEY=LEVELS or KEY+=ITEMS, e.g. players=8..12")
    key, values_text = text.split("=", 1)
    op = "set"
    if key.endswith("+"):
        key, op = key[:-1], "append"
    key = key.strip()
    if not _KEY.match(key):
        raise SweepError(f"--vary {text!r}: {key!r} is not a config key (like roles.werewolf)")
    match = _RANGE.match(values_text)
    if match and op == "set":
        low, high = int(match.group(1)), int(match.group(2))
        if low > high:
            raise SweepError(f"--vary {text!r}: the range {low}..{high} is empty (write low..high)")
        if high - low + 1 > MAX_CELLS:
            raise SweepError(f"--vary {text!r}: {high - low + 1:,} levels; a sweep has at most "
                             f"{MAX_CELLS:,} cells")
        values = tuple(range(low, high + 1))
    else:
        items = split_items(values_text)
        values = []
        for item in items:
            if item == "":
                if op == "set":
                    raise SweepError(f"--vary {text!r}: an empty level (only KEY+= allows one)")
                values.append(UNCHANGED)
            else:
                values.append(parse_value(item))
        values = tuple(values)
    seen = [json.dumps(v, sort_keys=True) for v in values]  # typed: true is not 1
    duplicates = [v for i, v in enumerate(values) if seen[i] in set(seen[:i])] \
        if len(set(seen)) < len(seen) else []
    if duplicates:
        raise SweepError(f"--vary {text!r}: level {label(duplicates[0])!r} appears twice")
    return Axis(key, op, values, text)


def check_axes(axes: list[Axis]) -> None:
    keys = [axis.key for axis in axes]
    for i, key in enumerate(keys):
        if key in keys[:i]:
            raise SweepError(f"--vary: {key} is varied twice; give all its levels in one --vary")
    size = math.prod(len(axis.values) for axis in axes) if axes else 0
    if not axes:
        raise SweepError("a sweep needs at least one --vary KEY=LEVELS")
    if size > MAX_CELLS:
        raise SweepError(f"the grid has {size:,} cells; at most {MAX_CELLS:,}")


def cell_overrides(base_raw: dict, axes: list[Axis], levels: tuple, file: str) -> list[str]:
    """The ``key=value`` overrides of one cell (list appends resolved against the config)."""
    raw = copy.deepcopy(base_raw)
    overrides = []
    for axis, value in zip(axes, levels):
        if axis.op == "set":
            text = f"{axis.key}={toml_value(value)}"
        else:
            current = config_module.value_at(raw, axis.key.split("."))
            if current is None:
                current = []
            if not isinstance(current, list):
                raise ConfigError(file, axis.key, f"+= appends to a list, but the value is "
                                                  f"{toml_value(current)}")
            if value is UNCHANGED:
                continue
            added = list(value) if isinstance(value, list) else [value]
            text = f"{axis.key}={toml_value(current + added)}"
        overrides.append(text)
        raw = config_module.apply_overrides(raw, [text], file)
    return overrides


def run_command(spec: str, overrides: list[str], games: int, seed: int, chunk_size: int) -> str:
    """The `fairplay run` command that plays one cell on its own."""
    parts = ["fairplay", "run", spec]
    for text in overrides:
        parts += ["--set", text]
    parts += ["-n", str(games), "--seed", str(seed)]
    if chunk_size != runner.DEFAULT_CHUNK_SIZE:
        parts += ["--chunk-size", str(chunk_size)]
    return " ".join(shlex.quote(p) for p in parts)


# --- the sweep result --------------------------------------------------------------------------
@dataclass
class Cell:
    index: int
    levels: tuple
    overrides: list[str] = field(default_factory=list)
    status: str = "pending"  # "ok", "invalid", "pending" (not played: an interrupted sweep)
    error: str = ""
    result: Result | None = None

    def to_json(self, axes: list[Axis]) -> dict:
        return {
            "index": self.index,
            "values": list(self.levels),
            "labels": [axis.level_label(v) for axis, v in zip(axes, self.levels)],
            "overrides": list(self.overrides),
            "status": self.status,
            "error": self.error,
            "result": json.loads(self.result.to_json()) if self.result is not None else None,
        }


class Sweep:
    """A sweep's grid and cells; saved as one JSON file (schema ``fairplay.sweep``)."""

    def __init__(self, data: dict, axes: list[Axis], cells: list[Cell]):
        self.data = data  # everything but the axes and cells
        self.axes = axes
        self.cells = cells

    @property
    def game(self):
        return get_game(self.data["game"])

    @property
    def valid_cells(self) -> list[Cell]:
        return [cell for cell in self.cells if cell.status == "ok"]

    @property
    def complete(self) -> bool:
        return all(cell.status != "pending" for cell in self.cells)

    def cell_label(self, cell: Cell) -> str:
        return ", ".join(f"{axis.key}={axis.level_label(v)}"
                         for axis, v in zip(self.axes, cell.levels))

    def to_json(self) -> str:
        data = dict(self.data)
        data.update(SWEEP_FILE.header())
        data["complete"] = self.complete
        data["axes"] = [axis.to_json() for axis in self.axes]
        data["cells"] = [cell.to_json(self.axes) for cell in self.cells]
        # checksummed whole: an edited count, axis or cell is refused when read
        return json.dumps(SWEEP_FILE.seal(data), indent=1, ensure_ascii=False)

    def save(self, path) -> None:
        """Write atomically, like a run's result."""
        fileio.write_atomically(path, self.to_json())

    @classmethod
    def from_data(cls, data: dict, path="<sweep>") -> "Sweep":
        SWEEP_FILE.check(data, path)
        _check_fields(data, path)
        try:
            axes = [Axis.from_json(a) for a in data["axes"]]
            cells = []
            for c in data["cells"]:
                result = None
                if c.get("result") is not None:
                    try:  # checked as any result file is (as data: nothing it names is loaded)
                        result = Result.from_data(c["result"], f"{path}: cell {c['index']}")
                    except ResultError as exc:
                        raise SweepError(str(exc)) from None
                if c["status"] not in ("ok", "invalid", "pending") or \
                        (c["status"] == "ok" and (result is None or not result.complete)):
                    raise ValueError(f"cell {c['index']} has status {c['status']!r} without "
                                     f"a complete result" if c["status"] == "ok" else
                                     f"cell {c['index']} has an unknown status")
                if not isinstance(c["values"], list) or len(c["values"]) != len(axes) or \
                        not isinstance(c["overrides"], list) or \
                        not all(isinstance(o, str) for o in c["overrides"]) or \
                        isinstance(c["index"], bool) or not isinstance(c["index"], int):
                    raise ValueError(f"cell {c.get('index')!r}: its values, overrides or number "
                                     f"are damaged")
                cells.append(Cell(int(c["index"]), tuple(c["values"]), list(c["overrides"]),
                                  c["status"], str(c.get("error", "")), result))
            if not isinstance(data["games"], int) or not isinstance(data["seed"], int) or \
                    len({cell.index for cell in cells}) != len(cells):
                raise ValueError("games, seed or the cells' numbers are damaged")
            # The cells are the axes' grid, in order (as plan made them); compared as JSON so
            # that true and 1 differ, as they do in a config.
            grid = [json.dumps(list(levels)) for levels in
                    itertools.product(*(axis.values for axis in axes))]
            if grid != [json.dumps(list(cell.levels)) for cell in cells]:
                raise ValueError("the cells' values are not the axes' grid")
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise SweepError(f"{path}: corrupt sweep: {type(exc).__name__}: {exc}") from None
        rest = {k: v for k, v in data.items() if k not in ("axes", "cells")}
        return cls(rest, axes, cells)

    @classmethod
    def load(cls, path) -> "Sweep":
        """Read and check a sweep (or tune) file. It is data: nothing it names is loaded."""
        return cls.from_data(SWEEP_FILE.read(path), path)

    def check_resumable(self, path) -> None:
        """Refuse (SweepError, one line) to continue a sweep whose cells cannot be continued
        exactly: each unfinished cell is checked as `run --resume` checks a result (its
        checksum, then its strategy files' contents and the code, before anything is loaded)."""
        for cell in self.cells:
            if cell.status != "pending":
                continue
            if cell.result is None:
                raise SweepError(f"{path}: cell {cell.index} ({self.cell_label(cell)}) was not "
                                 f"planned (a sweep made by an older fairplay); start a new sweep")
            try:
                cell.result.check_claims(path)
                cfg = chunks.config_of(cell.result)
                cell.result.check_resumable(cfg, path)
            except ResultError as exc:
                raise SweepError(f"cannot resume cell {cell.index}: {exc}") from None
            except ConfigError as exc:
                raise SweepError(f"{path}: cannot resume cell {cell.index}: {exc}") from None


_REQUIRED, _OPTIONAL = datafile.REQUIRED, datafile.OPTIONAL
# A sweep file (a tune file is one too): its top-level fields, their types, and a default where
# older files lack them.
SWEEP_FILE = datafile.Kind(
    "fairplay.sweep", 2, "sweep",  # 2: checksummed whole, its cells' results too (version 4)
    error=lambda path, message: SweepError(f"{path}: {message}"),
    made_by="fairplay sweep", remedy="start a new sweep", checksummed=True, fields={
        "game": ((str,), _REQUIRED), "axes": ((list,), _REQUIRED),
        "cells": ((list,), _REQUIRED), "games": ((int,), _REQUIRED),
        "seed": ((int,), _REQUIRED), "chunk_size": ((int,), runner.DEFAULT_CHUNK_SIZE),
        "base_config": ((dict,), _OPTIONAL), "overrides": ((list,), []),
        "versions": ((dict,), {}), "elapsed_seconds": ((int, float), 0.0),
        "command": ((str,), ""), "config": ((str,), _OPTIONAL), "source": ((str,), _OPTIONAL),
        "created": ((str,), _OPTIONAL), "complete": ((bool,), _OPTIONAL),
        "tune": ((dict,), _OPTIONAL)})


def _check_fields(data: dict, path) -> None:
    """Refuse (SweepError) a sweep whose numbers are out of range, or whose base config holds a
    null (TOML has none)."""
    if data["games"] < 1 or data["seed"] < 0 or data["chunk_size"] < 1:
        raise SweepError(f"{path}: corrupt sweep: games, seed or chunk size out of range")
    if not all(isinstance(o, str) for o in data["overrides"]):
        raise SweepError(f"{path}: corrupt sweep: overrides must be KEY=VALUE texts")
    if _holds_null(data.get("base_config")):
        raise SweepError(f"{path}: corrupt sweep: its base config holds a null (TOML has none)")


def _holds_null(value) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if item is None:
            return True
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def is_sweep_file(path) -> bool:
    """True when `path` is a regular file that starts like a sweep file (a cheap sniff)."""
    return datafile.sniff(path, SWEEP_FILE)


# --- running -----------------------------------------------------------------------------------
@dataclass
class SweepProgress:
    """Callbacks (the CLI wires them to tqdm): total games, games done, a cell finished."""

    start: Callable[[int], None] = lambda total_games: None
    advance: Callable[[int], None] = lambda games: None
    cell_done: Callable[[Cell], None] = lambda cell: None
    close: Callable[[], None] = lambda: None
    announce: Callable[[str], None] = lambda line: None  # a line for the user, e.g. compiling
    status: Callable[[str], None] = lambda line: None  # what is happening now (runner.Progress)
    warn: Callable[[str], None] = lambda line: None  # a warning: shown even when quiet


class SweepInterrupted(Exception):
    """Ctrl-C: carries the sweep with the cells played so far (the rest 'pending')."""

    def __init__(self, sweep: Sweep):
        super().__init__("interrupted")
        self.sweep = sweep


class SweepFailed(Exception):
    """A fault stopped the sweep (`cause`: runner.RunFault, WorkerLost or SchedulerError); carries
    the sweep with the cells finished so far (saved like an interrupted one) and, for a
    strategy's fault, the cell it happened in."""

    def __init__(self, sweep: Sweep, cause: Exception, cell: Cell | None = None):
        super().__init__(str(cause))
        self.sweep, self.cause, self.cell = sweep, cause, cell


def plan(spec: str, axes: list[Axis], games: int, seed: int,
         chunk_size: int = runner.DEFAULT_CHUNK_SIZE, base_overrides=(), command: str = ""):
    """Resolve every cell's config. Returns (sweep, {cell index: Config}) without playing.

    Raises ConfigError when the base config itself cannot be read, SweepError for a bad grid.
    """
    check_axes(axes)
    if games < 1:
        raise SweepError("the number of games per cell must be at least 1")
    if chunk_size < 1:
        raise SweepError("the chunk size must be at least 1")
    path = config_module.locate(spec)
    base_raw = config_module.read_toml(path)
    source = str(path) if Path(spec).suffix == ".toml" or Path(spec).exists() else \
        f"{spec} (built-in {path.name})"
    base_raw = config_module.apply_overrides(base_raw, list(base_overrides), source)
    game_name = base_raw.get("game")
    if game_name not in game_names():
        raise ConfigError(source, "game", f"unknown game {game_name!r}; one of: "
                                          f"{', '.join(game_names())}")
    data = {
        "game": game_name,
        "config": spec,
        "source": source,
        "base_config": base_raw,
        "overrides": list(base_overrides),
        "games": int(games),
        "seed": int(seed),
        "chunk_size": int(chunk_size),
        "command": command,
        "versions": versions(),
        "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "elapsed_seconds": 0.0,
    }
    cells, configs = [], {}
    for index, levels in enumerate(itertools.product(*(axis.values for axis in axes))):
        cell = Cell(index, tuple(levels))
        try:
            cell.overrides = cell_overrides(base_raw, axes, cell.levels, source)
            cfg = config_module.load(spec, overrides=list(base_overrides) + cell.overrides)
            if cfg.game.name != game_name:
                raise ConfigError(source, "game", "a sweep cannot change the game")
        except ConfigError as exc:
            cell.status, cell.error = "invalid", str(exc)
        except (ValueError, TypeError, KeyError) as exc:  # a game's validation slipped through
            cell.status, cell.error = "invalid", f"{type(exc).__name__}: {exc}".splitlines()[0]
        else:
            cell.result = runner.start(cfg, games, seed, chunk_size, run_command(
                spec, list(base_overrides) + cell.overrides, games, seed, chunk_size))
            configs[index] = cfg
        cells.append(cell)
    return Sweep(data, list(axes), cells), configs


def execute(sweep: Sweep, workers: int | None = None, progress: SweepProgress | None = None,
            checkpoint: Path | None = None, scheduler: str | None = None) -> Sweep:
    """Play every unfinished cell (planned, or partly played by an interrupted sweep). One pool
    plays the chunks of all cells (a pool per cell would pay the workers' start-up once per
    cell); with one worker they are played in this process. Chunks and seeds are the same
    either way, so are the tallies. With `scheduler` (runner.play_jobs) all cells' chunks go to
    the Dask cluster at once. The sweep is saved to `checkpoint` every few seconds and when it
    stops, finished chunks of unfinished cells included: `--resume` continues it exactly.
    """
    progress = progress or SweepProgress()
    workers = max(1, workers or os.cpu_count() or 1)
    todo = [cell for cell in sweep.cells if cell.status == "pending" and cell.result is not None]
    total = sum(runner.missing_games(cell.result) for cell in todo)
    runner.announce_compiling([cell.result for cell in todo], progress,
                              here=scheduler is None)
    progress.start(total)
    started = time.monotonic()
    saved_at = [time.monotonic()]
    cell_started: dict[int, float] = {}

    def finish(cell: Cell):
        cell.status = "ok"
        cell.result.data["elapsed_seconds"] += time.monotonic() - cell_started.get(cell.index,
                                                                                    started)
        progress.cell_done(cell)

    def save_now_and_then():
        if checkpoint is not None and \
                time.monotonic() - saved_at[0] > runner.CHECKPOINT_EVERY_SECONDS:
            save(sweep, checkpoint)
            saved_at[0] = time.monotonic()

    try:
        _execute_pooled(todo, workers, progress, cell_started, finish, save_now_and_then,
                        scheduler)
    except (KeyboardInterrupt, runner.Interrupted):
        _keep_finished(sweep, progress, started, checkpoint)
        raise SweepInterrupted(sweep) from None
    except (runner.RunFault, chunks.WorkerLost, chunks.SchedulerError) as fault:
        # a strategy's fault, a lost worker, a mismatched Dask worker: the finished chunks stay
        failed = getattr(fault, "result", None)  # a strategy's fault names its run: the cell
        cell = next((c for c in todo if failed is not None and c.result is failed), None)
        _keep_finished(sweep, progress, started, checkpoint)
        raise SweepFailed(sweep, fault, cell) from None
    progress.close()
    sweep.data["elapsed_seconds"] += time.monotonic() - started
    return sweep


def save(sweep: Sweep, path: Path) -> None:
    """Save a sweep; a failed write (a full disk) is a SweepSaveFailed naming the last save."""
    try:
        sweep.save(path)
    except OSError as exc:
        raise runner.SaveFailed(path, exc) from None


def _keep_finished(sweep: Sweep, progress: SweepProgress, started: float,
                   checkpoint: Path | None) -> None:
    """A stopped sweep: the finished cells, and the finished chunks of the others, are kept
    (and saved to `checkpoint`); `fairplay sweep --resume` continues it."""
    progress.close()
    sweep.data["elapsed_seconds"] += time.monotonic() - started
    if checkpoint is not None:
        save(sweep, checkpoint)


def _execute_pooled(todo: list[Cell], workers: int, progress: SweepProgress,
                    cell_started: dict, finish, after_merge, scheduler: str | None = None) -> None:
    """One pool plays the chunks of every cell; a cell is finished when its last chunk is in."""
    jobs = ((cell.result, chunk) for cell in todo for chunk in runner.missing_chunks(cell.result))
    cell_of = {id(cell.result): cell for cell in todo}
    remaining = {cell.index: runner.missing_count(cell.result) for cell in todo}
    for cell in todo:
        cell_started[cell.index] = time.monotonic()
        if remaining[cell.index] == 0:
            finish(cell)

    def merge(result, chunk, tallies, seconds):
        cell = cell_of[id(result)]
        result.add_chunk(chunk, tallies)
        data = result.data
        progress.advance(chunks.chunk_games(data["games_requested"], data["chunk_size"], chunk))
        remaining[cell.index] -= 1
        if remaining[cell.index] == 0:
            finish(cell)
        after_merge()

    runner.play_jobs([cell.result for cell in todo], jobs, workers, merge, scheduler=scheduler)


def resume(path: Path, workers: int | None = None, progress: SweepProgress | None = None,
           scheduler: str | None = None) -> Sweep:
    """Continue an interrupted sweep saved at `path`: the result equals an uninterrupted one."""
    sweep = Sweep.load(path)
    sweep.check_resumable(path)
    return execute(sweep, workers, progress, checkpoint=path, scheduler=scheduler)


def run_sweep(spec: str, axes: list[Axis], games: int, seed: int = 0, workers: int | None = None,
              chunk_size: int = runner.DEFAULT_CHUNK_SIZE, base_overrides=(), command: str = "",
              progress: SweepProgress | None = None, checkpoint: Path | None = None,
              scheduler: str | None = None) -> Sweep:
    """Plan and play a sweep (the Python API's entry point)."""
    sweep, _ = plan(spec, axes, games, seed, chunk_size, base_overrides, command)
    return execute(sweep, workers, progress, checkpoint, scheduler)
