"""The setup editor's model: a built-in config as fields, generated from the game's declared keys
(simulator.schema), and the fields a page sends back turned into a config.

A field holds its value as the text `--set key=VALUE` takes (TOML: `3`, `true`, `"auto"`,
`{ 8 = 2 }`) and is read by the same parser. The changed fields become the keys of a TOML file
that `extends` the built-in config, and the page's config is the file's config: the built-in
merged with the changes exactly as `extends` merges them, validated by `config.resolve`. So the
page, the saved file and `fairplay run` agree on every value and every message.
"""

from __future__ import annotations

import math
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path

from simulator.setup import config as config_module
from simulator import schema
from simulator.setup.config import ConfigError
from simulator.games import game_names, get_game
from simulator.studies.sweep import toml_key, toml_value

# The platform's own keys besides `players` and `strategies` (config.COMMON_KEYS).
COMMON_FIELDS = (
    ("balance_target", schema.Number(0.0, 1.0), None,
     "the intended win rate of the first team, for the camp-balance test (default 0.5)"),
    ("balance_tolerance", schema.Number(0.0, 0.5), None,
     "how far from its fair share a win rate may be and still count as balanced (±)"),
)


@dataclass
class Field:
    key: str  # the config key, dotted as --set takes it
    value: str  # its value as TOML text ("" for a strategy: not set here)
    kind: str  # "text", "choice" or "strategy"
    group: str  # where the page shows it: "setup", "rules", "strategies", "more strategies"
    describe: str = ""  # the type and range in words
    help: str = ""
    provisional: bool = False
    options: list = field(default_factory=list)  # a choice's values, or strategy names
    params: dict = field(default_factory=dict)  # a strategy field: its parameters' values


def builtin_path(game: str, name: str) -> Path:
    """A game's built-in config, by its name as `fairplay games GAME` lists it."""
    for listed, _ in config_module.builtin_configs(game):
        if listed == name:
            return config_module.builtin_config_dir() / listed
    raise ConfigError(name, "", f"not a built-in config of {game}")


def catalogue() -> list[dict]:
    """Every listed game with its built-in configs, for the page's first two menus."""
    return [{"game": name, "title": get_game(name).title,  # its own name, as `fairplay games`
             "configs": [{"name": n, "about": about}
                         for n, about in config_module.builtin_configs(name)]}
            for name in game_names(listed_only=True)]


def base_raw(game: str, base: str) -> dict:
    return config_module.read_toml(builtin_path(game, base))


def fields(game_name: str, base: str) -> list[Field]:
    """The fields of a built-in config: players, the common keys, every declared key of the
    game, and a strategy field for every level a config may name (all, team, role, seat)."""
    game = get_game(game_name)
    raw = base_raw(game_name, base)
    players = int(raw.get("players", game.min_players))
    out = [Field("players", str(players), "text", "setup",
                 f"integer from {game.min_players} to {game.max_players}",
                 "the number of players")]
    for key, kind, default, meaning in COMMON_FIELDS:
        value = raw.get(key, default)
        out.append(Field(key, "" if value is None else toml_value(value), "text", "setup",
                         kind.describe(), meaning))
    for key in game.config_keys:
        value = config_module.value_at(raw, key.path.split("."))
        if value is None:
            value = key.default_for(players)
        if isinstance(value, tuple):
            value = list(value)
        choice = isinstance(key.type, (schema.Choice, schema.Boolean))
        options = [toml_value(o) for o in key.type.options] if isinstance(key.type, schema.Choice) \
            else ["true", "false"] if isinstance(key.type, schema.Boolean) else []
        out.append(Field(key.path, toml_value(value), "choice" if choice else "text", "rules",
                         key.type.describe(), key.help, key.provisional, options))
    names = list(game.strategies())
    table = raw.get("strategies", {}) if isinstance(raw.get("strategies"), dict) else {}
    seats = table.get("seat", {}) if isinstance(table.get("seat"), dict) else {}
    levels = [("all", "every seat not named below", "strategies")] + \
        [(team, f"the {team} team", "strategies") for team in game.teams] + \
        [(role, f"whoever holds {role}", "more strategies") for role in game.role_names()] + \
        [(f"seat.{s}", f"seat {s}, whatever it holds", "more strategies")
         for s in range(players)]
    for level, meaning, group in levels:
        given = seats.get(level[5:]) if level.startswith("seat.") else table.get(level)
        name, params = _strategy_parts(given)
        out.append(Field(f"strategies.{level}", name, "strategy", group,
                         "a strategy" + ("" if level == "all" else " (empty: as above)"),
                         meaning, options=names, params=params))
    return out


def _moved_strategy_file(value, folder: Path):
    """A strategy (a name or a table) whose file, named relative to the server's folder, is
    named relative to `folder` inside it instead."""
    name = value.get("name") if isinstance(value, dict) else value
    if not (isinstance(name, str) and ":" in name and
            name.rpartition(":")[0].endswith(".py")) or Path(name.rpartition(":")[0]).is_absolute():
        return value
    file, _, function = name.rpartition(":")
    moved = f"{Path(os.path.relpath(file, folder)).as_posix()}:{function}"
    return dict(value, name=moved) if isinstance(value, dict) else moved


def _strategy_parts(value) -> tuple[str, dict]:
    if isinstance(value, str):
        return value, {}
    if isinstance(value, dict):
        return str(value.get("name", "")), {k: toml_value(v) for k, v in value.items()
                                              if k != "name"}
    return "", {}


def strategy_catalogue(game_name: str) -> dict:
    """Each built-in strategy's summary and parameters (name, default, range, meaning)."""
    out = {}
    for name, info in get_game(game_name).strategies().items():
        out[name] = {"summary": info.summary,
                     "params": [{"name": p.name, "default": toml_value(float(p.default)),
                                 "low": None if math.isinf(p.low) else p.low,
                                 "high": None if math.isinf(p.high) else p.high,
                                 "integer": p.integer, "meaning": p.meaning}
                                for p in info.params]}
    return out


# --- what a page sends back -------------------------------------------------------------------
@dataclass
class Setup:
    """A page's setup: a built-in config and the changed keys."""

    game: str
    base: str  # the built-in config it extends, e.g. "werewolf/base.toml"
    changes: list  # (key path, value) of each changed key; a strategy's table is one value

    def raw(self) -> dict:
        """The merged config, as reading the saved file would give it (`extends` merges the
        file's tables into the built-in's, key by key)."""
        over: dict = {}
        for path, value in self.changes:
            config_module.set_value(over, list(path), value)
        return config_module.deep_merge(base_raw(self.game, self.base), over)

    def toml(self, folder: Path | None = None) -> str:
        """The file: `extends` the built-in config, then the changed keys only. A strategy file
        the page names relative to the server's folder is written relative to `folder` (the
        file's own, relative to the server's), where a config's paths are read from."""
        lines = [f"# A {self.game} setup made in fairplay serve from {self.base}.",
                 f"extends = {toml_value(self.base)}"]
        for path, value in self.changes:
            if folder is not None and path[0] == "strategies":
                value = _moved_strategy_file(value, folder)
            lines.append(f"{'.'.join(toml_key(p) for p in path)} = {toml_value(value)}")
        return "\n".join(lines) + "\n"

    def changed_keys(self) -> list[tuple[str, object, object]]:
        """(key, built-in value, new value) for each change."""
        base = base_raw(self.game, self.base)
        return [(".".join(path), config_module.value_at(base, list(path)), value)
                for path, value in self.changes]

    def label(self) -> str:
        changes = self.changed_keys()
        said = ", ".join(f"{k} = {toml_value(v)}" for k, _, v in changes[:3])
        more = f" and {len(changes) - 3} more" if len(changes) > 3 else ""
        return self.base + (f": {said}{more}" if changes else "")


def read_page(game_name: str, base: str, sent: dict, source: str) -> Setup:
    """The setup a page sent: {key: TOML text} for plain fields, {key: name} and
    {key.param: text} for strategy fields. Only what differs from the built-in config is kept.
    A value that is not TOML is read as a plain string, as `--set` reads it."""
    if game_name not in game_names():
        raise ConfigError(source, "game", f"unknown game {game_name!r}")
    builtin_path(game_name, base)
    known = {f.key: f for f in fields(game_name, base)}
    catalogue_ = get_game(game_name).strategies()
    changes: list = []
    for key, text in sent.items():
        if not isinstance(key, str) or not isinstance(text, str):
            raise ConfigError(source, str(key), "a field's value is text")
    for key, spec in known.items():
        if spec.kind == "strategy":
            name = sent.get(key, spec.value).strip()
            params = {}
            info = catalogue_.get(name)
            for param in (info.params if info else ()):
                text = sent.get(f"{key}.{param.name}", "").strip()
                if text:
                    params[param.name] = config_module.parse_override(
                        f"{key}.{param.name}={text}", source)[1]
            value = ({"name": name, **params} if params else name) if name else None
            before = _strategy_value(spec)
            if value != before and value is not None:
                changes.append((tuple(config_module.parse_override(f"{key}=0", source)[0]), value))
            elif value is None and before is not None:
                raise ConfigError(source, key, "a strategy the built-in config names cannot be "
                                               "removed here; choose one")
            continue
        if key not in sent:
            continue
        text = sent[key].strip()
        if text == spec.value or (text == "" and spec.value == ""):
            continue
        path, value = config_module.parse_override(f"{key}={text}", source)
        if value == config_module.parse_override(f"{key}={spec.value}", source)[1] \
                and spec.value != "":
            continue
        changes.append((tuple(path), value))
    return Setup(game_name, base, changes)


def _strategy_value(spec: Field):
    if not spec.value:
        return None
    if spec.params:
        return {"name": spec.value, **{k: config_module.parse_override(f"x={v}", "")[1]
                                       for k, v in spec.params.items()}}
    return spec.value


def check(setup: Setup, source: str, root: Path) -> config_module.Config:
    """The setup's config, validated as `fairplay run` validates the saved file (a user strategy
    file is not loaded here: only named and confined to the server's folder)."""
    raw = setup.raw()
    confine_strategy_files(raw, source, root)
    return config_module.resolve(raw, source, root, config_module.DATA_ONLY)


def confine_strategy_files(raw: dict, source: str, root: Path) -> None:
    """Refuse a user strategy file outside the server's folder (`path/to/file.py:function`)."""
    table = raw.get("strategies")
    if not isinstance(table, dict):
        return
    entries = [(f"strategies.{k}", v) for k, v in table.items() if k != "seat"]
    if isinstance(table.get("seat"), dict):
        entries += [(f"strategies.seat.{k}", v) for k, v in table["seat"].items()]
    for key, value in entries:
        name = value.get("name") if isinstance(value, dict) else value
        if isinstance(name, str) and ":" in name and name.rpartition(":")[0].endswith(".py"):
            path = (root / name.rpartition(":")[0]).resolve()
            if not path.is_relative_to(root.resolve()):
                raise ConfigError(source, key, f"{name.rpartition(':')[0]} is outside the folder "
                                               f"fairplay serve was started in")


def field_dicts(game_name: str, base: str) -> list[dict]:
    return [asdict(f) for f in fields(game_name, base)]
