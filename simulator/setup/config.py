"""Configs: TOML files (with `extends`), `--set` overrides, validation, strategy resolution.

A config names its game and overrides what it wants. Every key is validated; a mistake raises
:class:`ConfigError`, which the CLI prints as one line (file, key, what is allowed) with exit code
2. The game-specific part of a config is validated by the game's own `load_params`; this module
handles what every game shares: `game`, `extends`, `players`, `strategies`.
"""

from __future__ import annotations

import ast
import copy
import hashlib
import importlib.resources
import re
import sys
import tomllib
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from simulator import fileio, schema
from simulator.setup import players as players_module
from simulator.games import game_names, get_game
from simulator.games.base import (
    MAX_STRATEGY_PARAMS, MAX_STRATEGY_SLOTS, MEMORY_PER_SEAT, STRATEGY_SIGNATURE, GameSpec,
    Layout, StrategyInfo, StrategyParam,
)
from simulator.games.driver import Lineup, Slot

COMMON_KEYS = ("game", "extends", "players", "strategies", "description", "balance_target",
               "balance_tolerance")


class ConfigError(Exception):
    """A user's mistake in a config: one line naming the file, the key and what is allowed."""

    def __init__(self, file: str, key: str, message: str):
        self.file, self.key, self.message = file, key, message
        where = f"{file}: " if file else ""
        keypart = f"{key}: " if key else ""
        super().__init__(f"{where}{keypart}{message}")


@dataclass(frozen=True)
class CodePolicy:
    """Which user strategy files resolving a config may load (import and run).

    Only a config the user names on the command line loads what it names (`USER_CONFIG`). A
    config stored in a file (a result, a sweep, a baseline) is either read as data, its user
    strategies standing as unloaded placeholders (`DATA_ONLY`: reports, exports, comparisons),
    or played with files whose SHA-256 the file recorded, checked on the very bytes that are then
    run (`recorded(digests)`: `--resume`, workers, `check`).
    """

    load: bool
    digests: dict | None = None  # reference as the config names it -> SHA-256; None: any
    recorded_when: str = "this run started"


USER_CONFIG = CodePolicy(True)
DATA_ONLY = CodePolicy(False)


def recorded(digests: dict, when: str = "this run started") -> CodePolicy:
    """Load only the strategy files whose contents hash to `digests` (recorded when a run or a
    baseline was made)."""
    return CodePolicy(True, dict(digests or {}), when)


@dataclass
class ConfigContext:
    """Where a config came from, so every error can name the file, and which user strategy
    files it may load."""

    file: str
    base_dir: Path
    code: CodePolicy = USER_CONFIG

    def error(self, key: str, message: str):
        raise ConfigError(self.file, key, message)

    # A typed reader for the platform's own keys (the games' keys go through simulator.schema).
    def number(self, table: dict, key: str, default=None, low=None, high=None, prefix=""):
        value = table.get(key, default)
        name = prefix + key
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.error(name, f"must be a number, got {value!r}")
        if low is not None and value < low:
            self.error(name, f"must be at least {low}, got {value}")
        if high is not None and value > high:
            self.error(name, f"must be at most {high}, got {value}")
        return float(value)


# --- reading files -----------------------------------------------------------------------------
def builtin_config_dir() -> Path:
    return Path(str(importlib.resources.files("configs")))


def builtin_configs(game: str) -> list[tuple[str, str]]:
    """A game's built-in configs: (name as a config argument, what it is in a sentence)."""
    folder = builtin_config_dir() / game
    return [(f"{game}/{path.name}", blurb(path.read_text(encoding="utf-8")))
            for path in (sorted(folder.glob("*.toml")) if folder.is_dir() else [])]


# A sentence ends at . ! or ? before a space or the end, but not at an abbreviation.
_SENTENCE_END = re.compile(r"(?<!\be\.g)(?<!\bi\.e)(?<!\betc)(?<!\bvs)[.!?](?=\s|$)")


def blurb(text: str) -> str:
    """What a config file is, in one sentence (`fairplay games`, the setup page): its own
    `description` key, else the first sentence of the comment block it opens with (over as many
    comment lines as the sentence takes); "" without either."""
    try:
        description = tomllib.loads(text).get("description")
    except tomllib.TOMLDecodeError:
        description = None
    if isinstance(description, str) and description.strip():
        return " ".join(description.split())
    comments = []
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        comments.append(line.lstrip("#").strip())
    words = " ".join(" ".join(comments).split())
    end = _SENTENCE_END.search(words)
    return words[:end.end()] if end else words


def locate(spec: str) -> Path:
    """A config path, or a game name (its built-in default config), or a built-in file name."""
    path = Path(spec)
    if path.suffix == ".toml" or path.exists():
        if not path.exists():
            builtin = builtin_config_dir() / spec
            if builtin.exists():
                return builtin
            raise ConfigError(spec, "", "no such config file")
        return path
    if spec in game_names():
        return builtin_config_dir() / get_game(spec).default_config
    raise ConfigError(spec, "", f"neither a config file nor a game; games: "
                             f"{', '.join(game_names(listed_only=True))}")


def read_toml(path: Path, seen=()) -> dict:
    """Read a TOML file, following `extends` (relative to the file) and merging depth-first. Each
    file must be a regular file of at most fileio.TEXT_LIMIT bytes of UTF-8 (a FIFO or a device
    is refused, never waited on)."""
    try:
        raw = tomllib.loads(fileio.read_text(path, fileio.TEXT_LIMIT))
    except fileio.FileRefused as exc:
        raise ConfigError(str(path), "", str(exc)) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(str(path), "", f"not valid TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(str(path), "", "not valid TOML: nested too deeply") from None
    if fileio.depth(raw) > fileio.JSON_DEPTH:
        raise ConfigError(str(path), "", f"nested deeper than {fileio.JSON_DEPTH} levels")
    parent = raw.pop("extends", None)
    if parent is None:
        return raw
    if not isinstance(parent, str):
        raise ConfigError(str(path), "extends", "must be a file name")
    parent_path = (path.parent / parent).resolve()
    if not parent_path.exists():
        builtin = builtin_config_dir() / parent
        if not builtin.exists():
            raise ConfigError(str(path), "extends", f"no such file: {parent}")
        parent_path = builtin
    if parent_path in seen or len(seen) > 32:
        raise ConfigError(str(path), "extends", "circular extends" if parent_path in seen else
                          "more than 32 files extend one another")
    return deep_merge(read_toml(parent_path, seen + (parent_path,)), raw)


def deep_merge(base: dict, over: dict) -> dict:
    merged = copy.deepcopy(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = deep_merge(merged[key], value)
        else:
            merged[key] = copy.deepcopy(value)
    return merged


def parse_override(text: str, file: str) -> tuple[list[str], Any]:
    """`a.b=value` -> (["a", "b"], value); the value is read as TOML, else as a plain string."""
    if "=" not in text:
        raise ConfigError(file, text, "an override must look like key=value")
    key, value_text = text.split("=", 1)
    key = key.strip()
    if not key:
        raise ConfigError(file, text, "an override needs a key before '='")
    try:
        value = tomllib.loads(f"v = {value_text.strip()}")["v"]
    except tomllib.TOMLDecodeError:
        value = value_text.strip()
    return _key_path(key), value


def _key_path(key: str) -> list[str]:
    """A dotted TOML key as its parts: `strategies."seat.0"` -> ["strategies", "seat.0"] (read
    by the TOML parser; a key it cannot read is split at its dots)."""
    try:
        node = tomllib.loads(f"{key} = 0")
    except tomllib.TOMLDecodeError:
        return key.split(".")
    path = []
    while isinstance(node, dict) and len(node) == 1:
        part, node = next(iter(node.items()))
        path.append(part)
    return path


def apply_overrides(raw: dict, overrides, file: str) -> dict:
    raw = copy.deepcopy(raw)
    for text in overrides:
        set_value(raw, *parse_override(text, file), file)
    return raw


def value_at(raw: dict, path: list[str]):
    """The value at a key path (["roles", "werewolf"]) of a raw config; None where it has none."""
    node = raw
    for part in path:
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def set_value(raw: dict, path: list[str], value, file: str = "") -> None:
    """Set the value at a key path of a raw config, making the tables it needs."""
    node = raw
    for part in path[:-1]:
        node = node.setdefault(part, {})
        if not isinstance(node, dict):
            raise ConfigError(file, ".".join(path), f"{part} is not a table")
    node[path[-1]] = value


# --- strategies --------------------------------------------------------------------------------
def load_user_strategy(ref: str, ctx: ConfigContext, key: str, game: GameSpec) -> StrategyInfo:
    """`path/to/file.py:function` (path relative to the config file) -> a compiled strategy.

    The function may be plain Python or already @njit; it is compiled with the platform's strategy
    signature (and cached), bounds-checked, so it runs nearly as fast as a built-in one. The
    module may define PARAMS = {"name": default, ...} or {"name": (default, low, high), ...} (an
    integer default makes an integer parameter), MEMORY (float64 words of per-seat memory,
    zeroed each game: a count, or a simulator.games.base.Layout of named pieces) and FLAGS (see simulator.games.base).

    The file must be a regular file of bounded size. Its bytes are read once: hashed (a config
    stored in a file may only run the bytes it recorded, see CodePolicy) and then run, so what is
    checked is what runs.
    """
    from numba.core.registry import CPUDispatcher

    from strategies.common import bounds_checked, user_strategy

    file_part, _, function_name = ref.rpartition(":")
    path = Path(file_part)
    if not path.is_absolute():
        path = ctx.base_dir / path
    try:
        data = fileio.read_bytes(path, fileio.TEXT_LIMIT)
    except fileio.FileRefused as exc:
        ctx.error(key, f"strategy file {path}: {exc}" if path.exists() else
                  f"strategy file not found: {path}")
    digest = hashlib.sha256(data).hexdigest()
    wanted = ctx.code.digests
    if wanted is not None:
        if ref not in wanted:
            ctx.error(key, f"strategy file {path} was not recorded when {ctx.code.recorded_when}; "
                           f"it is not loaded")
        if wanted[ref] != digest:
            ctx.error(key, f"strategy file {path} changed since {ctx.code.recorded_when} (its "
                           f"contents differ from the recorded ones); games of two strategies "
                           f"do not mix: start a new run")
    try:
        text = fileio.decode(data)
    except fileio.FileRefused as exc:
        ctx.error(key, f"strategy file {path}: {exc}")
    other = _other_game_imported(text, path, game.name)
    if other:
        ctx.error(key, f"strategy {ref} imports the {other} game's declaration; it was written "
                       f"for {other}, not {game.name}")
    cache_key = (str(path.resolve()), function_name, digest)
    if cache_key in _USER_STRATEGIES:
        return _USER_STRATEGIES[cache_key]
    module = _user_module(text, path, digest, ctx, key)
    function = getattr(module, function_name, None)
    if function is None:
        ctx.error(key, f"{path} has no function {function_name!r}")
    python_function = function.py_func if isinstance(function, CPUDispatcher) else function
    if not callable(python_function) or not hasattr(python_function, "__code__"):
        ctx.error(key, f"{path}: {function_name} is not a function")
    arguments = python_function.__code__.co_argcount
    if arguments != len(STRATEGY_SIGNATURE.args):
        ctx.error(key, f"strategy {ref} takes {arguments} arguments; a strategy takes (kind, obs, "
                       f"legal, params, memory, rng)")
    params = _user_params(getattr(module, "PARAMS", {}), ctx, key, path)
    returned = _natural_return_type(python_function)
    if returned is not None and str(returned) == "none":  # every path raises or loops
        ctx.error(key, f"strategy {ref} never returns an action (it always raises or loops)")
    if returned is not None and not _is_integer_type(returned):
        ctx.error(key, f"strategy {ref} returns {returned} on some path; a strategy returns an "
                       f"action index, an integer (int(...) if you mean to round)")
    try:
        # An @njit function is recompiled from its Python source, like a plain one, so that it
        # gets the strategy compilation (see strategies.common.user_strategy).
        compiled = user_strategy(python_function)
    except Exception as exc:
        ctx.error(key, f"strategy {ref} does not compile: {compile_error_summary(exc)}")
    if not _returns_an_action(compiled):
        ctx.error(key, f"strategy {ref} never returns an action (it always raises or loops)")
    checked = bounds_checked(compiled, len(params))
    flags = getattr(module, "FLAGS", 0)
    memory = getattr(module, "MEMORY", 0)
    if isinstance(memory, Layout):  # declared by name, as the built-in strategies do
        memory = memory.size
    if isinstance(flags, bool) or not isinstance(flags, int) or flags < 0:
        ctx.error(key, f"{path}: FLAGS must be a non-negative integer, got {flags!r}")
    if isinstance(memory, bool) or not isinstance(memory, int) or \
            not 0 <= memory <= MEMORY_PER_SEAT:
        ctx.error(key, f"{path}: MEMORY must be a Layout or an integer from 0 to "
                       f"{MEMORY_PER_SEAT}, got {memory!r}")
    talks_as = _user_talks_as(getattr(module, "TALKS_AS", ()), game, ctx, key, path)
    summary = (function.__doc__ or "user strategy").strip().splitlines()[0]
    info = StrategyInfo(ref, checked, summary, params=params, flags=flags, memory=memory,
                        talks_as=talks_as, source=f"{path.name}:{function_name}",
                        file=str(path.resolve()), digest=digest, python=python_function)
    _USER_STRATEGIES[cache_key] = info
    return info


def _user_module(text: str, path: Path, digest: str, ctx: ConfigContext, key: str):
    """Run a user's strategy file (the bytes already read and checked) as a module: one module
    per file, its functions sharing it, run again once the file's contents changed."""
    module_name = "fairplay_user_" + "".join(c if c.isalnum() else "_" for c in str(path.resolve()))
    if module_name in sys.modules and _MODULE_LOADED.get(module_name) == digest:
        return sys.modules[module_name]
    module = types.ModuleType(module_name)
    module.__file__ = str(path)
    sys.modules[module_name] = module
    _MODULE_LOADED[module_name] = digest
    try:
        exec(compile(text, str(path), "exec"), module.__dict__)
    except KeyboardInterrupt:
        sys.modules.pop(module_name, None)
        raise
    except SystemExit as exc:  # sys.exit() at import: a fault of the file, never our exit
        sys.modules.pop(module_name, None)
        ctx.error(key, f"cannot load {path}: it calls sys.exit({exc.code!r}) when imported")
    except BaseException as exc:  # a user's file may fail in any way; report it in one line
        sys.modules.pop(module_name, None)
        ctx.error(key, f"cannot load {path}: {type(exc).__name__}: {exc}".splitlines()[0])
    return module


def _natural_return_type(function):
    """The type a strategy's Python function returns, as Numba infers it before any cast to the
    signature's int64 (None when it cannot be typed: compiling then says why)."""
    from numba.core import compiler, typed_passes
    from numba.core.registry import cpu_target

    try:
        interpreted = compiler.run_frontend(function)
        typing, target = cpu_target.typing_context, cpu_target.target_context
        typing.refresh()
        target.refresh()
        return typed_passes.type_inference_stage(typing, target, interpreted,
                                                 STRATEGY_SIGNATURE.args, None).return_type
    except Exception:
        return None


def _is_integer_type(numba_type) -> bool:
    from numba import types as nb_types

    return isinstance(numba_type, (nb_types.Integer, nb_types.Boolean, nb_types.IntegerLiteral,
                                   nb_types.BooleanLiteral))


def _user_talks_as(names, game, ctx, key, path) -> tuple[int, ...]:
    """A user's TALKS_AS: the names of the roles in which the strategy may speak (see
    StrategyInfo.talks_as), as role codes."""
    if isinstance(names, str) or not isinstance(names, (tuple, list)):
        ctx.error(key, f"{path}: TALKS_AS must be a tuple of role names, got {names!r}")
    roles = [role.name for role in game.roles]
    for name in names:
        if name not in roles:
            ctx.error(key, f"{path}: TALKS_AS names {name!r}, which is not a role of {game.name} "
                           f"({', '.join(roles)})")
    return tuple(roles.index(name) for name in names)


def _other_game_imported(text: str, path: Path, game_name: str) -> str | None:
    """The name of another registered game whose package the strategy file imports, if any: its
    codes and observation layout are another game's, so its decisions would be nonsense here."""
    from simulator.games import EXAMPLES, GAMES

    try:
        tree = ast.parse(text, filename=str(path))
    except (SyntaxError, ValueError, OSError):
        return None  # loading the file reports it
    packages = {name: module for name, module in {**GAMES, **EXAMPLES}.items()
                if name != game_name}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            modules = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        for name, package in packages.items():
            if any(m == package or m.startswith(package + ".") for m in modules):
                return name
    return None


def _returns_an_action(compiled) -> bool:
    """Did the strategy compile to something that returns an integer? (A function that always
    raises compiles to one that returns nothing.)"""
    from numba import types

    results = getattr(compiled, "overloads", None)
    if not results:  # interpreted: a plain Python function
        return True
    return all(result.signature.return_type == types.int64 for result in results.values())


def _user_params(declared, ctx: ConfigContext, key: str, path: Path) -> tuple[StrategyParam, ...]:
    """A user module's PARAMS: {name: default} or {name: (default, low, high)}. A parameter whose
    default (and bounds) are written as integers is an integer parameter: 1.5 is refused."""
    if not isinstance(declared, dict):
        ctx.error(key, f"{path}: PARAMS must be a dict of name -> default or (default, low, high)")
    params = []
    for name, value in declared.items():
        entry = value if isinstance(value, (tuple, list)) else (value,)
        numbers = [v for v in entry if _is_number(v)]
        if not isinstance(name, str) or len(numbers) != len(entry) or len(entry) not in (1, 3):
            ctx.error(key, f"{path}: PARAMS[{name!r}] must be a number or (default, low, high), "
                           f"got {value!r}")
        default = float(entry[0])
        low, high = (float(entry[1]), float(entry[2])) if len(entry) == 3 else \
            (-float("inf"), float("inf"))
        if not low <= default <= high:
            ctx.error(key, f"{path}: PARAMS[{name!r}]: the default {default:g} is outside "
                           f"[{low:g}, {high:g}]")
        integer = all(isinstance(v, int) for v in entry)
        params.append(StrategyParam(name, default, low, high, integer=integer))
    return tuple(params)


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_WHERE = re.compile(r'^File "([^"]+)", line (\d+)')
# Lines of a Numba error that only say where in the pipeline it happened.
_PIPELINE_NOISE = ("Failed in ", "During:", "File ", "There are ", "- Of which", "Overload",
                   "With argument", "No match", "raised from", "Rejected as", "^",
                   "<source elided>", ">>>")


def compile_error_summary(exc: Exception) -> str:
    """One line saying what is wrong in a (Numba) compile error and where, e.g. "Cannot modify
    readonly array of type ... (my.py, line 2)", without colour codes and pipeline stages."""
    lines = [_ANSI.sub("", line).strip() for line in str(exc).splitlines()]
    lines = [line for line in lines if line]
    specific = [lines[i + 1] for i, line in enumerate(lines[:-1])
                if line.startswith("Rejected as the implementation raised a specific error")]
    useful = specific or [line for line in lines if not line.startswith(_PIPELINE_NOISE)]
    detail = (useful or lines or [type(exc).__name__])[0]
    detail = re.sub(r"^Numba\w*Error: ", "", detail)
    where = next((m for m in map(_WHERE.match, lines) if m), None)
    return f"{detail} ({where[1]}, line {where[2]})" if where else detail


# One compiled strategy per (file, function, modification time), so that seats sharing a user
# strategy share one slot, and a process compiles (or loads from cache) each one once.
_USER_STRATEGIES: dict[tuple, StrategyInfo] = {}
_MODULE_LOADED: dict[str, int] = {}  # a user module: the file time it was loaded at


def resolve_strategy(value, game: GameSpec, builtins, ctx: ConfigContext, key: str,
                     preset: dict | None = None) -> Slot:
    """A strategy name or table as a slot. `preset`: the values of a shipped set the name
    names ("people@equilibrium", `shipped_set`), under the values the table gives."""
    tag = ""
    if isinstance(value, str):
        name, given = value, {}
    elif isinstance(value, dict):
        if "name" not in value:
            ctx.error(key, "a strategy table needs a name, e.g. { name = \"seer-led\", trust = 0.8 }")
        given = {k: v for k, v in value.items() if k not in ("name", "slot")}
        name = value["name"]
        tag = value.get("slot", "")
        if not isinstance(tag, str):
            ctx.error(f"{key}.slot", f"a slot's tag is a string, got {tag!r}")
    else:
        ctx.error(key, f"must be a strategy name or table, got {value!r}")
    if not isinstance(name, str):
        ctx.error(key, f"a strategy's name is a string, got {name!r}")
    if name in builtins:
        info = builtins[name]
    elif ":" in name and name.rpartition(":")[0].endswith(".py"):
        info = load_user_strategy(name, ctx, key, game) if ctx.code.load else \
            _unloaded_strategy(name, given)
    elif preset is not None:
        info = builtins[players_module.split(name)[0]]
        given = {**preset, **given}
    else:
        ctx.error(key, f"unknown strategy {name!r}; {game.name} has: {', '.join(builtins)} "
                       f"(or path/to/file.py:function)")
    for param in given:
        declared = info.param(param)
        if declared is None:
            allowed = ", ".join(p.name for p in info.params) or "none"
            ctx.error(f"{key}.{param}", f"unknown parameter of {name}; allowed: {allowed}")
        value = given[param]
        if not _is_number(value) or not declared.low <= value <= declared.high:
            span = f" in [{declared.low:g}, {declared.high:g}]" if \
                (declared.low, declared.high) != (-float("inf"), float("inf")) else ""
            ctx.error(f"{key}.{param}", f"must be a number{span}, got {value!r}")
        if declared.integer and value != int(value):
            ctx.error(f"{key}.{param}", f"must be an integer (it counts or switches), got "
                                        f"{value!r}")
    values = tuple((p.name, float(given.get(p.name, p.default))) for p in info.params)
    if len(values) > MAX_STRATEGY_PARAMS:
        ctx.error(key, f"a strategy may have at most {MAX_STRATEGY_PARAMS} parameters")
    reference = () if preset is None else tuple(
        (p.name, float(preset.get(p.name, p.default))) for p in info.params)
    return Slot(name, info, values, tag, reference)


def shipped_set(value, game: GameSpec, builtins, players: int, team: str, ctx: ConfigContext,
                key: str) -> dict | None:
    """The parameters a shipped set gives `team`'s seats where `value` names one
    ("people@equilibrium", simulator/setup/players.py), else None."""
    name = value.get("name") if isinstance(value, dict) else value
    parts = players_module.split(name) if isinstance(name, str) and \
        not (":" in name and name.rpartition(":")[0].endswith(".py")) else None
    if parts is None or name in builtins:
        return None
    strategy, set_name = parts
    if strategy not in builtins:
        ctx.error(key, f"unknown strategy {strategy!r} in {name!r}; {game.name} has: "
                       f"{', '.join(builtins)}")
    try:
        sets = players_module.load()
    except players_module.PlayersError as exc:
        ctx.error(key, str(exc))
    found = players_module.nearest(sets, game.name, strategy, set_name, players)
    if found is None:
        have = sorted({f"{s['strategy']}@{s['name']}" for s in sets if s["game"] == game.name})
        ctx.error(key, f"no {set_name!r} players of {strategy} ship for {game.name} ("
                       + (f"it has: {', '.join(have)}" if have else "none ship for it")
                       + "); `fairplay equilibrate` makes them for a config")
    return dict(found["teams"].get(team, {}))


def _unloaded_strategy(ref: str, given: dict) -> StrategyInfo:
    """A user strategy named by a config that is read as data (CodePolicy DATA_ONLY): its name
    and the parameter values the config gives, nothing imported. It cannot be played."""
    params = tuple(StrategyParam(name, float(value) if _is_number(value) else 0.0)
                   for name, value in given.items())
    return StrategyInfo(ref, None, "a user strategy (read as data: not loaded)", params=params,
                        source=ref)


def resolve_strategies(raw: dict, game: GameSpec, players: int, ctx: ConfigContext):
    """[strategies] -> (slots, slot_table[seat, role]).

    Keys, most specific first: `seat.N` (or a [strategies.seat] table), a role name, a team name,
    `all`. Anything not named plays `random`.
    """
    table = raw.get("strategies", {})
    if not isinstance(table, dict):
        ctx.error("strategies", "must be a table")
    builtins = game.strategies()
    seats: dict[int, Any] = {}
    by_role: dict[int, Any] = {}
    by_team: dict[str, Any] = {}
    everyone = table.get("all", "random")
    for key, value in table.items():
        full = f"strategies.{key}"
        if key == "all":
            continue
        if key == "seat":
            if not isinstance(value, dict):
                ctx.error(full, "must be a table of seat = strategy")
            for seat_key, seat_value in value.items():
                seats[_seat_number(seat_key, players, ctx, f"{full}.{seat_key}")] = seat_value
        elif key.startswith("seat."):
            seats[_seat_number(key[5:], players, ctx, full)] = value
        elif key in game.role_names():
            by_role[game.role_index(key)] = value
        elif key in game.teams:
            by_team[key] = value
        else:
            allowed = ["all", "seat.N"] + list(game.teams) + game.role_names()
            ctx.error(full, f"unknown key; allowed: {', '.join(allowed)}")

    slots: list[Slot] = []
    slot_table = np.zeros((players, len(game.roles)), dtype=np.int64)
    for seat in range(players):
        for role_index, role in enumerate(game.roles):
            if seat in seats:
                value, key = seats[seat], f"strategies.seat.{seat}"
            elif role_index in by_role:
                value, key = by_role[role_index], f"strategies.{role.name}"
            elif role.team in by_team:
                value, key = by_team[role.team], f"strategies.{role.team}"
            else:
                value, key = everyone, "strategies.all"
            preset = shipped_set(value, game, builtins, players, role.team, ctx, key)
            slot = resolve_strategy(value, game, builtins, ctx, key, preset)
            if slot not in slots:
                if len(slots) == MAX_STRATEGY_SLOTS:
                    ctx.error("strategies", f"at most {MAX_STRATEGY_SLOTS} different strategies")
                slots.append(slot)
            slot_table[seat, role_index] = slots.index(slot)
    return slots, slot_table


def _check_memory(slots, slot_table, ctx: ConfigContext) -> None:
    """A seat's strategies (one per role it may hold) share the seat's memory budget."""
    for seat, row in enumerate(slot_table):
        used = sum(slots[i].info.memory for i in set(row.tolist()))
        if used > MEMORY_PER_SEAT:
            ctx.error("strategies", f"seat {seat}'s strategies need {used} words of memory; a "
                                    f"seat has {MEMORY_PER_SEAT}")


def _seat_number(text, players, ctx, key) -> int:
    try:
        seat = int(text)
    except ValueError:
        ctx.error(key, "a seat must be a number")
    if not 0 <= seat < players:
        ctx.error(key, f"seat must be 0..{players - 1}")
    return seat


# --- the resolved config -----------------------------------------------------------------------
@dataclass
class Config:
    """A validated config, ready to run: the game, its params and the strategy slots."""

    game: GameSpec
    params: Any
    raw: dict  # the merged config (after extends and overrides): stored in results
    source: str
    slots: list[Slot]
    slot_table: np.ndarray
    notes: dict = field(default_factory=dict)

    @property
    def players(self) -> int:
        return self.params.players

    @property
    def lineup(self) -> Lineup:
        """Who plays what, as the engine takes it."""
        return Lineup(self.slots, self.slot_table)


def resolve(raw: dict, source: str, base_dir: Path, code: CodePolicy = USER_CONFIG) -> Config:
    """Validate a merged raw config dict and build the Config (runnable unless `code` is
    DATA_ONLY and it names a user strategy)."""
    ctx = ConfigContext(source, base_dir, code)
    if "game" not in raw:
        ctx.error("game", f"missing; one of: {', '.join(game_names(listed_only=True))}")
    name = raw["game"]
    if name not in game_names():
        ctx.error("game", f"unknown game {name!r}; one of: {', '.join(game_names(listed_only=True))}")
    game = get_game(name)
    players = raw.get("players")
    if isinstance(players, bool) or not isinstance(players, int):
        ctx.error("players", f"must be an integer, got {players!r}")
    if not game.min_players <= players <= game.max_players:
        ctx.error("players", f"{game.name} plays with {game.min_players}..{game.max_players}, "
                             f"got {players}")
    if "balance_target" in raw:
        # the intended win rate of the first team, for the camp-balance test (default 0.5)
        ctx.number(raw, "balance_target", low=0.0, high=1.0)
    if "balance_tolerance" in raw:
        # how far from its fair share a win rate may be and still count as balanced (±)
        tolerance = ctx.number(raw, "balance_tolerance", low=0.0, high=0.5)
        if tolerance <= 0:
            ctx.error("balance_tolerance", "must be more than 0 (a share, e.g. 0.02 for ±2 "
                                           "points)")
    game_part = {k: v for k, v in raw.items() if k not in COMMON_KEYS}
    values = schema.validate(game_part, game.config_keys, players, ctx.error)
    params = game.load_params(dict(values, players=players), ctx)
    # a setup the game cannot be played with as it intends (its declaration's SETUP_CHECKS)
    refusal = game.setup_refusal(params)
    if refusal:
        ctx.error(*refusal)
    slots, slot_table = resolve_strategies(raw, game, players, ctx)
    _check_memory(slots, slot_table, ctx)
    return Config(game, params, raw, source, slots, slot_table, game.describe_setup(params))


def names_a_file(spec: str) -> bool:
    """Does `spec` name a config file (else a game, played from its built-in default)?"""
    return Path(spec).suffix == ".toml" or Path(spec).exists()


def load(spec: str, overrides=(), players: int | None = None,
         code: CodePolicy = USER_CONFIG) -> Config:
    """Load a config file or a game's built-in default, apply overrides, validate, resolve. The
    user names the config, so its strategy files are loaded, unless `code` says otherwise (a
    config a baseline names is played only with the strategy files the baseline recorded)."""
    path = locate(spec)
    raw = read_toml(path)
    user_file = names_a_file(spec)
    source = str(path) if user_file else f"{spec} (built-in {path.name})"
    if players is not None:
        raw["players"] = players
    raw = apply_overrides(raw, overrides, source)
    # Strategy files are found next to the user's config file; with a built-in setup the user
    # names them from where they stand.
    return resolve(raw, source, path.parent if user_file else Path.cwd(), code)


def from_raw(raw: dict, source: str = "<result>", base_dir: str | Path = ".",
             code: CodePolicy = DATA_ONLY) -> Config:
    """Rebuild a Config from the merged dict stored in a file (a result, a sweep, a baseline).
    It is data: by default nothing it names is loaded (reports, exports); to play it, pass the
    strategy digests the file recorded (`recorded(...)`: workers, --resume, check)."""
    if not isinstance(raw, dict):
        raise ConfigError(source, "", "a config is a table of keys")
    return resolve(copy.deepcopy(raw), source, Path(base_dir), code)
