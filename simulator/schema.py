"""Config keys, declared: each game's schema (key, type, range, default, meaning).

One declaration serves validation (`validate`: every key checked, one clear line per mistake),
`fairplay games <game>` (the keys and their meaning) and the docs (`markdown_table`, which the
tests compare with docs/rules/<game>.md). A game's `params.py` declares `KEYS`, a tuple of `Key`,
and receives the validated values (defaults filled in) in its `load_params`, which checks only
what involves several keys at once.

A key's path uses dots for TOML tables (`rules.rounds` is `rounds` in `[rules]`). A `Table`
type declares a table whose own keys are data (`[wolves_by_players]`: head count -> werewolves).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable


class Invalid(ValueError):
    """A value a type does not accept; the message says what is allowed."""


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _span(low, high) -> str:
    if low is not None and high is not None:
        return f" from {low:g} to {high:g}"
    if low is not None:
        return f" of at least {low:g}"
    if high is not None:
        return f" of at most {high:g}"
    return ""


@dataclass(frozen=True)
class Integer:
    low: int | None = None
    high: int | None = None

    def check(self, value):
        if not _is_int(value) or (self.low is not None and value < self.low) or \
                (self.high is not None and value > self.high):
            raise Invalid(f"must be an integer{_span(self.low, self.high)}, got {value!r}")
        return value

    def describe(self) -> str:
        return f"integer{_span(self.low, self.high)}"


@dataclass(frozen=True)
class Number:
    low: float | None = None
    high: float | None = None

    def check(self, value):
        if not _is_number(value) or (self.low is not None and value < self.low) or \
                (self.high is not None and value > self.high):
            raise Invalid(f"must be a number{_span(self.low, self.high)}, got {value!r}")
        return float(value)

    def describe(self) -> str:
        return f"number{_span(self.low, self.high)}"


@dataclass(frozen=True)
class Boolean:
    def check(self, value):
        if not isinstance(value, bool):
            raise Invalid(f"must be true or false, got {value!r}")
        return value

    def describe(self) -> str:
        return "true or false"


@dataclass(frozen=True)
class Choice:
    options: tuple[str, ...]

    def check(self, value):
        if value not in self.options:
            raise Invalid(f"must be one of {', '.join(map(repr, self.options))}, got {value!r}")
        return value

    def describe(self) -> str:
        return " or ".join(f'"{o}"' for o in self.options)


@dataclass(frozen=True)
class ListOf:
    """A list of items of one type, with its length bounds; `unique` refuses repeats."""

    item: Any
    min_length: int = 0
    max_length: int | None = None
    unique: bool = False

    def check(self, value):
        if not isinstance(value, list) or len(value) < self.min_length or \
                (self.max_length is not None and len(value) > self.max_length):
            raise Invalid(f"must be a list of {self.min_length}"
                          f"{'' if self.max_length is None else f' to {self.max_length}'} "
                          f"items ({self.item.describe()}), got {value!r}")
        items = []
        for entry in value:
            try:
                items.append(self.item.check(entry))
            except Invalid as exc:
                raise Invalid(f"list item {entry!r}: {exc}") from None
        if self.unique and len(set(items)) != len(items):
            raise Invalid(f"lists {next(i for i in items if items.count(i) > 1)!r} twice")
        return tuple(items)

    def describe(self) -> str:
        return f"a list of {self.item.describe()}"


@dataclass(frozen=True)
class AnyOf:
    """The first of several types that accepts the value. When none does, the message is that of
    the alternative meant for the value's kind (a list for a list, a number for a number), which
    says more than the list of alternatives."""

    types: tuple

    def check(self, value):
        for kind in self.types:
            try:
                return kind.check(value)
            except Invalid:
                continue
        for kind in self.types:
            if isinstance(value, _NATURAL.get(type(kind), ())) and \
                    not (isinstance(value, bool) and not isinstance(kind, Boolean)):
                try:
                    kind.check(value)
                except Invalid as exc:
                    raise Invalid(f"{exc} (or {self.describe()})") from None
        raise Invalid(f"must be {self.describe()}, got {value!r}")

    def describe(self) -> str:
        return " or ".join(kind.describe() for kind in self.types)


@dataclass(frozen=True)
class Table:
    """A TOML table whose keys are data: each key is read by `key` (TOML keys are text, so an
    Integer key type reads "8" as 8) and each value by `value`."""

    key: Any
    value: Any

    def check(self, value):
        if not isinstance(value, dict):
            raise Invalid(f"must be a table, got {value!r}")
        out = {}
        for raw_key, raw_value in value.items():
            key = raw_key
            if isinstance(self.key, Integer):
                try:
                    key = int(raw_key)
                except ValueError:
                    raise Invalid(f"key {raw_key!r}: must be {self.key.describe()}") from None
            try:
                key = self.key.check(key)
            except Invalid as exc:
                raise Invalid(f"key {raw_key!r}: {exc}") from None
            try:
                out[key] = self.value.check(raw_value)
            except Invalid as exc:
                raise Invalid(f"{raw_key}: {exc}") from None
        return out

    def describe(self) -> str:
        return f"a table of {self.key.describe()} = {self.value.describe()}"


# The Python values each type is meant for (for AnyOf's messages).
_NATURAL = {Integer: (int,), Number: (int, float), Boolean: (bool,), Choice: (str,),
            ListOf: (list,), Table: (dict,)}


@dataclass(frozen=True)
class Key:
    """One config key: its dotted path, its type, its default and what it means.

    `default` may be a function of the player count (an official setup per head count); then
    `default_text` says what it is in words. `balance_knob` marks a key a designer turns to move
    the game's balance (a count of a role, a score): reports name these knobs and the sweep that
    would show how much each moves it.

    `state` marks a knob the rules read as it is: the engine gives the game's state a field named
    after the key's last part (`rules.witness_caught` -> `st.witness_caught`) and writes the
    validated value there at setup, a Choice as its option's index, true/false as 1/0
    (simulator.games.base.knob_fields). Only an Integer, Number, Boolean or Choice with a fixed
    default can be one.

    `provisional` marks a knob for a ruling made where the game's source is silent: its help and
    the docs' key tables say so.
    """

    path: str
    type: Any
    default: Any
    meaning: str
    default_text: str = ""
    balance_knob: bool = False
    state: bool = False
    provisional: bool = False

    def __post_init__(self):
        if self.state:
            if not isinstance(self.type, (Integer, Number, Boolean, Choice)):
                raise ValueError(f"key {self.path}: only an integer, number, boolean or choice "
                                 f"goes into the state")
            if callable(self.default) or not self.name.isidentifier():
                raise ValueError(f"key {self.path}: a state knob has a fixed default and a last "
                                 f"part that is a Python name")

    @property
    def name(self) -> str:
        """The key's last part: the name of a state knob's field."""
        return self.path.rsplit(".", 1)[-1]

    def state_value(self, value):
        """A state knob's value as its state field holds it."""
        if isinstance(self.type, Choice):
            return self.type.options.index(value)
        if isinstance(self.type, Boolean):
            return int(value)
        return value

    @property
    def help(self) -> str:
        """What the key means, as `fairplay games` and the docs' key tables say it."""
        return f"provisional: {self.meaning}" if self.provisional else self.meaning

    def default_for(self, players: int):
        return self.default(players) if callable(self.default) else self.default

    def describe_default(self) -> str:
        if self.default_text:
            return self.default_text
        if isinstance(self.default, bool):
            return "true" if self.default else "false"
        if isinstance(self.default, str):
            return f'"{self.default}"'
        if isinstance(self.default, dict):
            return ", ".join(f"{k} = {v}" for k, v in self.default.items()) or "empty"
        if isinstance(self.default, (list, tuple)):
            return "[" + ", ".join(map(str, self.default)) + "]"
        return f"{self.default:g}" if isinstance(self.default, float) else str(self.default)


def validate(raw: dict, keys, players: int, error: Callable[[str, str], None]) -> dict:
    """Check `raw` (the game's part of a merged config) against `keys`.

    Returns {path: value} for every declared key (defaults filled in). `error(key, message)` must
    raise; it is called for the first unknown key, wrong type or value out of range.
    """
    by_path = {key.path: key for key in keys}
    tables = {path.rsplit(".", 1)[0] for path in by_path if "." in path}
    found: dict[str, Any] = {}

    def walk(node: dict, prefix: str):
        for name, value in node.items():
            path = prefix + name
            if path in by_path:
                found[path] = value
            elif path in tables:
                if not isinstance(value, dict):
                    error(path, f"must be a table ([{path}]), got {value!r}")
                walk(value, path + ".")
            else:
                siblings = sorted({p[len(prefix):].split(".")[0] for p in list(by_path) + list(tables)
                                   if p.startswith(prefix)})
                error(path, f"unknown key; allowed: {', '.join(siblings)}")

    walk(raw, "")
    values = {}
    for key in keys:
        if key.path in found:
            try:
                values[key.path] = key.type.check(found[key.path])
            except Invalid as exc:
                error(key.path, str(exc))
        else:
            values[key.path] = key.default_for(players)
    return values


def markdown_table(keys) -> str:
    """The keys as a Markdown table (the docs embed it; a test keeps them equal)."""
    lines = ["| key | type | default | meaning |", "|---|---|---|---|"]
    for key in keys:
        lines.append(f"| `{key.path}` | {key.type.describe()} | {key.describe_default()} | "
                     f"{key.help} |")
    return "\n".join(lines)
