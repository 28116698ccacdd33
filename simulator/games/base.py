"""What a game declares: pure data the engine, the platform and the docs all read.

A game is declared once, up front, before any logic: its name and player range, teams or
individual scoring, roles, decision kinds, observation pieces, end conditions, events, trace
events, tallies, config keys and provisional rulings. Every code (a role, a decision kind, an
event, a trace event, an end condition) is a position in one declared tuple, and `codes(...)`
derives the named constants from that tuple, so nothing is numbered twice.

`GameSpec` gathers a game's declaration and its few functions; `simulator.games.engine` builds
the kernel's state from it, and the runner, the statistics, the CLI and the reports only ever
talk to a game through it.
"""

from __future__ import annotations

import keyword
import math
import re
import warnings
from collections import namedtuple
from dataclasses import dataclass
from typing import Any, Callable, NamedTuple

import numba
import numpy as np
from numba import types

from simulator.schema import Number

# Numba labels first-class functions experimental on every use; the engine relies on them.
warnings.filterwarnings("ignore", category=numba.NumbaExperimentalFeatureWarning)

# --- limits every game shares ---------------------------------------------------------------------
MAX_STRATEGY_SLOTS = 16   # different strategies (with their parameters) in one run
MAX_STRATEGY_PARAMS = 16  # parameters of one strategy
MEMORY_PER_SEAT = 1024    # float64 words of strategy memory one seat may use in all (its strategies
#                           together: a people-like one beside a user's own fits)
TRACE_WIDTH = 6           # one trace row: (step, event code, actor, target, value, extra)

# Strategy capability bits (StrategyInfo.flags).
FLAG_TALKS = 1  # the strategy wants to be asked a game's optional public decisions (claims)
# (StrategyInfo.talks_as narrows that to the roles in which it may speak at all.)
# The strategy decides from the legal mask (and the decision kind) alone: the engine does not
# build its seat's observation and hands it the blank one (the run's constants and the kind).
FLAG_BLIND = 2

_RNG_TYPE = numba.typeof(np.random.default_rng(0))


def _read_only(dtype):
    return types.Array(dtype, 1, "C", readonly=True)


# Every strategy of every game has this signature:
#   (decision kind, observation, legal-action mask, parameters, memory, rng) -> action index.
# A seat's strategy never receives the game state. The observation, the mask and the parameters
# are read-only (a strategy that writes into them does not compile); `memory` is the seat's own
# writable scratch vector, zeroed at the start of each game.
STRATEGY_SIGNATURE = types.int64(
    types.int64, _read_only(types.int64), _read_only(types.boolean), _read_only(types.float64),
    types.Array(types.float64, 1, "C"), _RNG_TYPE,
)



# A trace line that shows what one seat privately learns starts (after its indentation) with
# this mark; `fairplay trace` prints such lines only with --private (simulator.run.runner.trace_game).
PRIVATE_MARK = "(private) "


def is_private_line(line: str) -> bool:
    return line.lstrip().startswith(PRIVATE_MARK)


def private_line(line: str) -> str:
    """The line marked as what one seat privately learns (the mark after its indentation)."""
    text = line.lstrip(" ")
    return line[:len(line) - len(text)] + PRIVATE_MARK + text


# --- trace events -----------------------------------------------------------------------------------
class Packed:
    """Several small numbers in one trace column, declared lowest place first, each with its radix
    (the last, None, takes the rest): `Packed(down=16, up=None)` holds up * 16 + down. The kernel
    packs with the place values of `trace_places` and the decoder unpacks, so each radix is
    written here only."""

    def __init__(self, **radixes: int | None):
        self.parts = tuple(radixes.items())
        if not self.parts or any(r is None or r < 2 for _, r in self.parts[:-1]):
            raise ValueError("every packed part but the last declares a radix of 2 or more")

    def places(self) -> dict[str, int]:
        """Each part's place value: what the kernel multiplies it by."""
        out, place = {}, 1
        for name, radix in self.parts:
            out[name] = place
            place *= radix or 1
        return out

    def unpack(self, code: int) -> dict[str, int]:
        out = {}
        for name, radix in self.parts:
            if radix is None:
                out[name] = code
            else:
                code, out[name] = divmod(code, radix)
        return out


@dataclass(frozen=True)
class Digits:
    """A list of numbers in one trace column, the first in the lowest place, each below `radix`
    (the kernel packs number i times radix ** i, or adds them highest first, code * radix + d).
    `count` names the row's field that says how many; without it the list ends where the rest
    is zero."""

    name: str
    radix: int
    count: str = ""

    def places(self) -> dict[str, int]:
        return {self.name: self.radix}

    def unpack(self, code: int, count: int | None) -> list[int]:
        digits = []
        while (code > 0 if count is None else len(digits) < count):
            code, digit = divmod(code, self.radix)
            digits.append(digit)
        return digits


@dataclass(frozen=True)
class Mark:
    """How one trace event changes the table the step-by-step view draws (`fairplay serve`):
    the seat named by the row's field `seat` gets a `role` (the text), is `out` of the game
    (why), is `back` in it, has an item put `front` of it or taken away (`taken`, the same
    text; `otherwise` is taken when that text is not there), has every item before it
    cleared away (`clear`; with a text, the items that begin with it; but those that begin
    with `keep`; to the seat named by the field `to`, when they move), or privately `learns`
    the text. The text is a format string of the row's fields, as an event's `says`
    (`{checked:who}`); an item whose text comes out empty is no item. `times` names a row
    field that says how many times the mark applies (cards of one kind: 0, none); `only`,
    (field, value, ...), applies it only to the rows whose field has one of the values (the
    card played is a Curse)."""

    kind: str
    seat: str
    text: str = ""
    times: str = ""
    otherwise: str = ""
    keep: str = ""
    to: str = ""
    only: tuple = ()

    KINDS = ("role", "out", "back", "front", "taken", "clear", "learns")

    def __post_init__(self):
        if self.kind not in self.KINDS:
            raise ValueError(f"a trace mark is one of {', '.join(self.KINDS)}, not {self.kind!r}")
        if self.otherwise and self.kind != "taken":
            raise ValueError(f"a trace mark's `otherwise` is for `taken`, not {self.kind!r}")
        if self.only and (len(self.only) < 2 or not isinstance(self.only[0], str)):
            raise ValueError("a trace mark's `only` is (field, value, ...)")
        if (self.keep or self.to) and self.kind != "clear":
            raise ValueError(f"a trace mark's `keep` and `to` are for `clear`, not {self.kind!r}")


@dataclass(frozen=True)
class TraceEvent:
    """One kind of trace row, (step, code, actor, target, value, extra): its code is its position
    in the game's TRACE_EVENTS. Each used column is named (a name, `Packed` parts or `Digits`);
    the step column is `step`. `says` is the row's line, a format string of the named fields
    (`{seat:who}` renders the field with the game's story's `who`); without it the game's
    story tells it (`tell_<name>`, simulator.games.story). `secret` is a line only the acting
    seat learns, told after the public one (a card played face down: which card). A private
    event's lines are all what a seat privately learns; a gathered event's rows are told
    together, when the next other row (or the end) comes (a deal, a deck in its order)."""

    name: str
    says: str = ""
    secret: str = ""
    actor: str = ""
    target: str = ""
    value: str | Packed | Digits = ""
    extra: str | Packed | Digits = ""
    private: bool = False
    gathered: bool = False
    table: tuple = ()  # Mark: how the event changes the table (who is in, what lies before whom)

    def columns(self):
        """(column index in the row, its declaration) for each named column."""
        return tuple((i, column) for i, column in
                     enumerate((self.actor, self.target, self.value, self.extra), start=2)
                     if column)


def trace_places(events, typename: str = "Places"):
    """The place values the kernel packs with, by event and part: `PLACE.layout.up` is 16 for
    `Packed(down=16, up=None)`; a `Digits` list gives its radix (`PLACE.altars.ranks`). Numba
    reads them as constants, so a packed column compiles to the same arithmetic as literals."""
    per_event = {}
    for event in events:
        places = {}
        for _, column in event.columns():
            if not isinstance(column, str):
                places.update(column.places())
        if places:
            per_event[identifier(event.name)] = namedtuple(
                f"{typename}_{identifier(event.name)}", places)(**places)
    return namedtuple(typename, per_event)(**per_event)


class IllegalAction(Exception):
    """Raised by the kernel when a strategy returns an action its legal mask does not allow (the
    engine records the seat, the decision kind and the value in the state for the message)."""


class NoLegalAction(Exception):
    """Raised by the kernel when a game asks for a decision whose mask allows nothing (a bug in
    the game's rules, never in a strategy)."""


class CapExceeded(Exception):
    """Raised by the kernel when a game goes past one of its declared caps (`engine.within_cap`:
    the most turns, decisions... its rules allow), so that a loop the rules fail to end stops the
    run with a line naming the game instead of hanging (the engine records which cap, and its
    limit, in the state for the message)."""


# --- codes ------------------------------------------------------------------------------------------
def identifier(name: str) -> str:
    """A declared name as a Python identifier: "general-liu" -> "general_liu"."""
    text = re.sub(r"\W", "_", name.strip().lower().replace("-", "_").replace(" ", "_"))
    if not text or text[0].isdigit() or keyword.iskeyword(text):
        text = "_" + text
    return text


def codes(items, typename: str = "Codes"):
    """The named codes of a declared tuple: its items' positions, by name.

    `codes(("deal", "night"))` -> Codes(deal=0, night=1); items may also be declarations with a
    `name` (roles, decisions, events). The result is a namedtuple, which Numba reads as constants:
    `EV.night_kill` compiles to the literal code.
    """
    names = [identifier(item if isinstance(item, str) else item.name) for item in items]
    if len(set(names)) != len(names):
        duplicates = sorted({n for n in names if names.count(n) > 1})
        raise ValueError(f"duplicate names in a declared tuple: {', '.join(duplicates)}")
    return namedtuple(typename, names)(*range(len(names)))


# --- declarations -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Role:
    name: str
    team: str  # a team name, or "" in an individual game
    summary: str
    label: str = ""  # original name


@dataclass(frozen=True)
class DecisionKind:
    """A kind of decision a seat is asked for; its code is its position in the game's tuple."""

    name: str
    actions: str  # what an action index means
    summary: str


@dataclass(frozen=True)
class Item:
    """A named thing a game counts or reports (an event counter, an end condition, a trace event)
    with a sentence saying what it is."""

    name: str
    meaning: str = ""


# Who sees an observation piece. The contract suite's no-peeking check reads it: before every
# decision it poisons the private pieces, so a value one seat's observer left behind is flagged.
PUBLIC = "public"    # every seat sees the same value: the run's constants and the public record
PRIVATE = "private"  # the deciding seat's own (or its decision's): its observer writes it at
#                      every decision that uses it, and it rests at its blank value otherwise
VISIBILITIES = (PUBLIC, PRIVATE)


class Piece(NamedTuple):
    """One named piece of a layout: its size in entries and what it means (and, in an
    observation, who sees it)."""

    name: str
    size: int
    meaning: str
    visibility: str = ""


def public(name: str, size: int, meaning: str) -> Piece:
    """An observation piece every seat sees alike."""
    return Piece(name, size, meaning, PUBLIC)


def private(name: str, size: int, meaning: str) -> Piece:
    """An observation piece written for the deciding seat alone."""
    return Piece(name, size, meaning, PRIVATE)


# The pieces every observation starts with; the engine writes them at every decision.
STANDARD_PIECES = (
    public("kind", 1, "decision kind code"),
    private("me", 1, "my seat"),
    private("my_role", 1, "my role code"),
    public("players", 1, "number of players"),
    public("first_player", 1, "the first player's seat once the game names one, else -1"),
)
OBS_KIND, OBS_ME, OBS_ROLE, OBS_PLAYERS, OBS_FIRST = range(5)


@dataclass(frozen=True)
class Layout:
    """A flat vector assembled from named pieces (name, size, meaning): offsets are derived from
    the declared order, so code indexes the vector through compile-time constants
    (``table[T.judge]``, ``obs[OBS.alive + seat]``, ``memory[M.suspicion + seat]``) rather than
    magic numbers."""

    declared: tuple[tuple[str, int, str], ...]

    @property
    def pieces(self) -> tuple[Piece, ...]:
        return tuple(Piece(*piece) for piece in self.declared)

    @property
    def size(self) -> int:
        return sum(piece.size for piece in self.pieces)

    def offsets(self, typename: str = "Offsets"):
        """A namedtuple of piece offsets (and `size`), usable as constants inside compiled code."""
        names, values, at = [], [], 0
        for piece in self.pieces:
            names.append(piece.name)
            values.append(at)
            at += piece.size
        names.append("size")
        values.append(at)
        return namedtuple(typename, names)(*values)

    def describe(self) -> list[tuple[str, int, int, str]]:
        rows, at = [], 0
        for piece in self.pieces:
            rows.append((piece.name, at, piece.size, piece.meaning))
            at += piece.size
        return rows


@dataclass(frozen=True)
class ObservationLayout(Layout):
    """The observation vector: the standard pieces (kind, me, my_role, players, first_player)
    first in every game, then the game's own, each declared `public(...)` or `private(...)`.
    Piece sizes use the game's maximum player count, so the offsets are fixed:
    ``obs[OBS.alive + seat]``."""

    def __post_init__(self):
        for piece in self.declared:
            if not isinstance(piece, Piece) or piece.visibility not in VISIBILITIES:
                raise ValueError(f"observation piece {piece[0]!r}: declare it public(...) or "
                                 f"private(...)")

    @property
    def pieces(self) -> tuple[Piece, ...]:
        return STANDARD_PIECES + tuple(self.declared)

    def offsets(self, typename: str = "Obs"):
        return super().offsets(typename)

    def entries(self, visibility: str) -> np.ndarray:
        """The indices of every entry of the pieces with this visibility."""
        at, found = 0, []
        for piece in self.pieces:
            if piece.visibility == visibility:
                found.extend(range(at, at + piece.size))
            at += piece.size
        return np.asarray(found, dtype=np.int64)


@dataclass(frozen=True)
class Field:
    """One field of a game's state: name, dtype (np.int64, np.float64 or bool), shape, meaning.
    A shape of () is a scalar. Sizes use the game's maxima: the state is sized once per game, so
    it compiles once."""

    name: str
    dtype: Any
    shape: tuple[int, ...]
    meaning: str


def knob_fields(keys) -> tuple[Field, ...]:
    """The state fields of a game's state knobs (its keys declared `state=True`): one scalar per
    knob, named after the key's last part, a number as float64 and anything else as int64."""
    return tuple(Field(key.name, np.float64 if isinstance(key.type, Number) else np.int64, (),
                       key.meaning) for key in keys if key.state)


def knobs_record(keys, module: str):
    """The type of a game's state knobs as its params carry them: a named tuple with a member
    per knob, named after its key's last part and defaulting to the key's default
    (`Knobs().witness_caught` is 0.25); `Knobs.read(values)` takes the validated config values.
    A game's params.py binds it as `Knobs` (pickling finds it there)."""
    state_keys = tuple(key for key in keys if key.state)

    class Knobs(namedtuple("Knobs", [key.name for key in state_keys],
                           defaults=[key.default for key in state_keys])):
        __slots__ = ()

        @classmethod
        def read(cls, values: dict):
            return cls(*(values[key.path] for key in state_keys))

    Knobs.__module__ = module
    Knobs.__qualname__ = "Knobs"
    return Knobs


# Tally axes: what the first dimension of a tally counts.
AXES = ("none", "seat", "role", "slot", "team", "end", "event", "decision", "position", "round")
# What a tally holds.
HOLDS = ("count", "sum", "sum_sq", "histogram", "game_moments")


@dataclass(frozen=True)
class Tally:
    """One integer tally a run adds up, declared with its axis and what it holds.

    * axis: "none" (one number, or one histogram), "seat", "role", "slot", "team", "end", "event",
      "decision", "position" (seats counted in turn order from the game's first player), "round"
      (the game's days or rounds, 0..max_length);
    * holds: "count", "sum", "sum_sq" (a sum of squares), "histogram" (`bins` counts per entry
      of the axis: the value of bin i is i, the last bin holds higher values too) or
      "game_moments" (for each entry, the sums over games of y_g², x_g·y_g and x_g², where y_g
      and x_g are one game's contributions to the tally named `per` and to its own `per`: what a
      ratio over seat-games needs for its game-level variance; the engine keeps one for every
      count or sum declared per another count, see `moment_tallies`);
    * per: for a count of wins or a sum, the tally that counts its trials (e.g. role_wins per
      role_games; a sum per "games" is per game);
    * square: for a sum, the tally holding the sum of its squares;
    * total: for a histogram, the sum tally whose exact means go with it (the histogram's last
      bin may be clipped);
    * section: where a report shows it: "scores" or "measures".
    """

    name: str
    axis: str
    holds: str
    meaning: str
    bins: int = 0
    per: str = ""
    square: str = ""
    total: str = ""
    section: str = "measures"

    def shape(self, spec: "GameSpec", players: int) -> tuple[int, ...]:
        """The tally's shape in a result of `players` players."""
        length = {"none": 1, "seat": players, "role": len(spec.roles), "slot": MAX_STRATEGY_SLOTS,
                  "team": len(spec.teams), "end": len(spec.end_conditions),
                  "event": len(spec.events), "decision": len(spec.decisions),
                  "position": players, "round": spec.max_length + 1}[self.axis]
        if self.holds == "histogram":
            return (self.bins,) if self.axis == "none" else (length, self.bins)
        if self.holds == "game_moments":
            return (length, 3)
        return (length,)

    def state_shape(self, spec: "GameSpec") -> tuple[int, ...]:
        """Its shape in the kernel's state: sized for the game's maximum player count (at least 1
        entry per axis, as the state cannot hold empty arrays)."""
        shape = self.shape(spec, spec.max_players)
        return tuple(max(1, size) for size in shape)


MARGIN_BINS = 64
LEAD_CHANGE_BINS = 16


def standard_tallies(max_length: int) -> tuple[Tally, ...]:
    """The tallies every game keeps; the engine fills them at the end of each game."""
    return (
        Tally("games", "none", "count", "games played"),
        Tally("team_wins", "team", "count", "games won by each team", per="games"),
        Tally("draws", "none", "count", "games without a winner", per="games"),
        Tally("seat_wins", "seat", "count", "games each seat won (its team or itself)",
              per="games"),
        Tally("role_games", "role", "count", "seat-games ending with the role"),
        Tally("role_wins", "role", "count", "of those, won", per="role_games"),
        Tally("slot_games", "slot", "count", "seat-games per strategy slot"),
        Tally("slot_wins", "slot", "count", "of those, won", per="slot_games"),
        Tally("length_hist", "none", "histogram", "games by length", bins=max_length + 1),
        Tally("end_counts", "end", "count", "games by end condition", per="games"),
        Tally("events", "event", "count", "named event counters"),
        Tally("decisions", "decision", "count", "decisions a strategy was asked for, by kind"),
        Tally("forced", "decision", "count", "decisions taken without asking (one legal action)"),
        # tempo: kept for the games whose rules name them (engine.first_player, engine.leader,
        # st.margin); zero otherwise
        Tally("position_games", "position", "count",
              "games with a first player (each position once a game)"),
        Tally("position_wins", "position", "count",
              "wins by position in turn order from the first player", per="position_games"),
        # Per game, c_k = n·won_k − winners: a seat's (position's) win against the table's
        # average, times n. Their sums of squares give each seat's and position's difference
        # from the average its game-level variance (verdict.contrast_finding); the first half
        # of turn order against the last half likewise (n even: n/2 each; odd: the middle one
        # left out).
        Tally("seat_contrast_sq", "seat", "sum",
              "sum over games of (n·won − winners)², by seat"),
        Tally("position_contrast_sq", "position", "sum",
              "sum over games of (n·won − winners)², by position"),
        Tally("halves_contrast", "none", "sum",
              "sum over games with a first player of (first half's wins − last half's wins)"),
        Tally("halves_contrast_sq", "none", "sum", "the same, squared"),
        Tally("margin_hist", "none", "histogram",
              "games by winning margin (the winner's lead; the last bin holds larger ones)",
              bins=MARGIN_BINS),
        Tally("leader_games", "none", "count", "games with a leader after the first round"),
        Tally("leader_wins", "none", "count", "of those, won by that early leader",
              per="leader_games"),
        Tally("lead_changes_hist", "none", "histogram",
              "games by how often the lead changed hands", bins=LEAD_CHANGE_BINS),
    )


STANDARD_TALLY_NAMES = tuple(t.name for t in standard_tallies(1))


def clustered(tally: Tally) -> bool:
    """Is this a ratio over seat-games (or rounds), whose game-level variance needs per-game
    moments? A count or sum declared per another count (not per game)."""
    return tally.holds in ("count", "sum") and tally.per not in ("", "games")


def moment_tallies(tallies) -> tuple[Tally, ...]:
    """The per-game moments the engine keeps for each clustered tally (`<name>_by_game`)."""
    return tuple(Tally(f"{t.name}_by_game", t.axis, "game_moments",
                       f"per-game sums of y², x·y and x² for {t.name} (y) per {t.per} (x)",
                       per=t.name, section=t.section)
                 for t in tallies if clustered(t))


# --- strategies ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class StrategyParam:
    """A strategy parameter: its default, its allowed range and what it means."""

    name: str
    default: float
    low: float = -math.inf
    high: float = math.inf
    meaning: str = ""
    integer: bool = False  # read as a whole number (a count, a switch): 1.5 is refused

    def describe(self) -> str:
        span = "" if math.isinf(self.low) and math.isinf(self.high) else \
            f" in [{self.low:g}, {self.high:g}]"
        return f"{self.name}={self.default:g}{span}" + (", an integer" if self.integer else "")


@dataclass(frozen=True)
class StrategyInfo:
    """A strategy as a config names it: the compiled function, its parameters, its memory and
    its capabilities."""

    name: str
    function: Any  # a Numba dispatcher compiled with STRATEGY_SIGNATURE
    summary: str
    params: tuple[StrategyParam, ...] = ()
    flags: int = 0
    memory: int = 0  # float64 words of per-seat memory it uses
    # With FLAG_TALKS: the role codes in which it may ever take an optional public decision; the
    # engine asks a seat holding another role nothing optional (empty: every role may speak).
    talks_as: tuple[int, ...] = ()
    source: str = ""  # where it is defined (file:function), for messages
    file: str = ""  # a user's strategy: the file it was loaded from
    digest: str = ""  # a user's strategy: the SHA-256 of that file's bytes (results record it)
    python: Any = None  # a user's strategy: its Python function, to explain an index fault

    def defaults(self) -> dict[str, float]:
        return {p.name: p.default for p in self.params}

    def param(self, name: str) -> StrategyParam | None:
        return next((p for p in self.params if p.name == name), None)


@dataclass(frozen=True)
class SetupNeed:
    """What makes an event available where a role or an on/off key cannot say it (`fairplay
    coverage`): `test` reads the run's resolved config (a dict), `words` say it."""

    words: str
    test: Callable[[dict], bool]


@dataclass(frozen=True)
class SetupCheck:
    """A setup the game cannot be played with as it intends (Ghost Play with no ghost: every game
    a draw), declared in `SETUP_CHECKS` and refused when a config is loaded, after its params are
    read (simulator.setup.config.resolve), in one line naming `key`. `test(params)` returns that line's
    sentence: why the setup cannot be played and what to change; "" when it can. `words` say
    what is refused, for `fairplay games`."""

    key: str
    words: str
    test: Callable[[Any], str]


@dataclass(frozen=True)
class TurnOrder:
    """What "position" means in a game: seats are numbered in turn order, and a seat's position
    is its offset from the first player in that order (engine.first_player names it)."""

    direction: str  # "clockwise", "counter-clockwise": how play passes, in words
    first_player: str  # what decides the first player: "drawn at random", "the Black Cat's holder"
    random_first: bool  # True: every seat is first equally often (positions are not seats)
    confound: str = ""  # what else the first position holds, named beside a position effect


# --- the state's engine fields --------------------------------------------------------------------
MAX_MOMENT_PAIRS = 16  # ratios over seat-games whose per-game moments a game can keep


def engine_fields(max_players, n_roles, observation_size, max_actions, moment_words):
    """(name, dtype, shape, meaning) of the fields the engine keeps in every game's state."""
    i8, f8 = np.int64, np.float64
    return (
        ("players", i8, (), "players in this run"),
        ("n_actions", i8, (), "size of the legal mask strategies are handed"),
        ("team_game", i8, (), "1 in a team game"),
        ("clock", i8, (), "the game's current day or round: the step column of the trace"),
        ("game_index", i8, (), "games started in this call"),
        ("winner", i8, (), "the game's winning team or seat, -1 for a draw"),
        ("first_seat", i8, (), "this game's first player (first captain), -1 when none"),
        ("margin", i8, (), "this game's winning margin, -1 when the game does not say"),
        ("leader", i8, (), "the last seat to lead alone this game, -1 for none yet"),
        ("first_leader", i8, (), "the seat leading after the first round, -1 for none"),
        ("lead_changes", i8, (), "how often the lead changed hands this game"),
        ("leads_noted", i8, (), "rounds whose leader was noted this game"),
        ("won", i8, (max_players,), "1 for each seat that won the game"),
        ("role", i8, (max_players,), "each seat's role (the strategy slot follows it)"),
        ("role_team", i8, (n_roles,), "each role's team (team games)"),
        ("slot_table", i8, (max_players, n_roles),
         "strategy slot of a seat while it holds a role"),
        ("slot_params", f8, (MAX_STRATEGY_SLOTS, MAX_STRATEGY_PARAMS), "each slot's parameters"),
        ("slot_address", i8, (MAX_STRATEGY_SLOTS,), "each slot's compiled strategy"),
        ("game_address", i8, (), "the game's compiled play_game, which `play` calls"),
        ("slot_flags", i8, (MAX_STRATEGY_SLOTS,), "each slot's capability bits (FLAG_*)"),
        ("slot_speaks", i8, (MAX_STRATEGY_SLOTS,),
         "bit r set: the slot is asked the optional public decisions while holding role r"),
        ("slot_memory", i8, (MAX_STRATEGY_SLOTS,), "memory words each slot's strategy uses"),
        ("memory_offset", i8, (max_players, MAX_STRATEGY_SLOTS),
         "where a seat's memory for a slot starts"),
        ("memory", f8, (max_players * MEMORY_PER_SEAT,), "every seat's strategy memory"),
        ("memory_used", i8, (), "words of memory in use (zeroed before each game)"),
        ("obs", i8, (observation_size,), "the observation handed to strategies"),
        ("blank", i8, (observation_size,), "the observation handed to blind strategies"),
        ("legal", bool, (max_actions,), "the legal-action mask handed to strategies"),
        ("legal_count", i8, (), "legal actions in the mask"),
        ("asking_seat", i8, (), "the seat asked last (for fault messages)"),
        ("asking_kind", i8, (), "the decision kind asked last"),
        ("returned", i8, (), "an illegal action a strategy returned"),
        ("cap_passed", i8, (), "the declared cap (GameSpec.caps) a game went past"),
        ("cap_limit", i8, (), "that cap's limit in that game"),
        ("trace_address", i8, (), "the trace buffer"),
        ("trace_capacity", i8, (), "rows the trace buffer holds"),
        ("trace_rows", i8, (), "rows written"),
        ("trace_limit", i8, (), "rows that may be written in the current game"),
        ("trace_game", i8, (), "the game (of this call) to trace, -1 for all"),
        ("tally_offset", i8, (), "where the tallies start in the state, in 8-byte words"),
        ("tally_words", i8, (), "how many words the tallies take"),
        ("moment_pairs", i8, (), "ratios whose per-game moments are kept"),
        ("moment_plan", i8, (MAX_MOMENT_PAIRS, 4),
         "for each ratio, in words from the tallies' start: y, x, entries, moments"),
        ("moment_last", i8, (max(1, moment_words),),
         "the ratios' y and x at the end of the previous game"),
    )


# --- the game ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class GameSpec:
    """Everything the platform knows about a game, declared before any logic.

    Built by each game package's `__init__.py` and checked here (`validate`), so a game that
    declares something inconsistent fails when it registers, not in the middle of a run.
    """

    name: str
    title: str
    source: str
    min_players: int
    max_players: int
    scoring: str  # "team" or "individual"
    teams: tuple[str, ...]
    roles: tuple[Role, ...]
    decisions: tuple[DecisionKind, ...]
    observation: ObservationLayout
    end_conditions: tuple[Item, ...]
    events: tuple[Item, ...]
    trace_events: tuple[TraceEvent, ...]
    length_unit: str  # what a game's length counts ("days", "rounds")
    max_length: int  # longest length the length histogram tells apart
    max_actions: int  # the largest legal mask of any decision
    state_fields: tuple[Field, ...]
    tallies: tuple[Tally, ...]  # the game's own, beside the standard ones
    config_keys: tuple  # simulator.schema.Key: the game's config schema
    default_config: str  # built-in config file, relative to the configs package
    provisional: tuple[str, ...]  # rulings this project made where the source is silent
    # behaviour
    load_params: Callable[..., Any]  # (validated values, ConfigContext) -> frozen params
    setup: Callable[[Any, Any], None]  # (params, state): write the setup into a fresh state
    actions: Callable[[Any], int]  # params -> size of the legal mask strategies are handed
    kernel: Any  # the compiled entry play(state, games, rng)
    play_game: Any  # the compiled play_game(state, rng): one game, which `play` calls by address
    decode_trace: Callable[[np.ndarray, Any], list[str]]
    # (state, seat, rng): replace every fact of the state the seat cannot know by another
    # possibility; the contract suite also poisons the observation's private pieces and checks
    # the seat's observation does not change (no peeking)
    scramble_hidden: Callable[..., None]
    strategies: Callable[[], dict]  # built-in strategies by name (loaded lazily)
    describe_setup: Callable[[Any], dict] = lambda params: {}
    # why the rules make every seat alike (e.g. "the first captain is drawn at random"), or ""
    symmetric_seats: str = ""
    # turn order: its direction in words, what decides the first player, and what else goes
    # with being first (e.g. Salem's "the first player holds the Black Cat"), for the verdict
    turn_order: "TurnOrder | None" = None
    # params -> the teams some seat is dealt at the start (default: every team). A team nobody
    # is dealt (Ghost Play's evil side at an even count) is not judged by the verdict.
    dealt_teams: Callable[[Any], tuple[str, ...]] | None = None
    # event or ending name -> the roles (any one dealt) or config key (on) that make it
    # available in a setup, for `fairplay coverage` (simulator/statistics/coverage.py)
    coverage_needs: dict | None = None
    # the role that fills a setup's remaining seats (werewolf: "villager"), or "": `fairplay
    # roles` measures a role's value by putting it in place of one filler
    filler_role: str = ""
    # params -> the provisional rulings a setup depends on (default: all of them)
    provisional_for: Callable[[Any], tuple[str, ...]] | None = None
    # the game's people-like strategy: what its players' standard measures (simulator/studies/standard.py)
    measuring_strategy: str = ""
    # the built-in configs the players' standard is measured on (three player counts, each mode)
    standard_configs: tuple[str, ...] = ()
    # event or ending name -> why good players never bring it about in a standard setup (the
    # coverage standard's exemptions, printed beside the coverage table)
    never_used: dict | None = None
    # setups the game cannot be played with as it intends, refused when a config is loaded
    setup_checks: tuple[SetupCheck, ...] = ()
    # what the kernel bounds with `engine.within_cap` (e.g. "turns in a game"): a game past one
    # stops the run as a fault naming the game (driver.CapFault)
    caps: tuple[Item, ...] = ()

    def __post_init__(self):
        self.validate()

    @property
    def team_game(self) -> bool:
        return self.scoring == "team"

    def setup_refusal(self, params) -> tuple[str, str] | None:
        """(key, why) of the first declared setup check a setup (its params) fails, or None."""
        for check in self.setup_checks:
            why = check.test(params)
            if why:
                return check.key, why
        return None

    def rulings_for(self, params) -> tuple[str, ...]:
        """The provisional rulings a setup (its params) depends on."""
        return tuple(self.provisional_for(params)) if self.provisional_for else self.provisional

    def role_names(self) -> list[str]:
        return [role.name for role in self.roles]

    def role_index(self, name: str) -> int:
        return self.role_names().index(name)

    @property
    def end_names(self) -> list[str]:
        """The end conditions as a designer reads them."""
        return [end.meaning or end.name for end in self.end_conditions]

    @property
    def event_names(self) -> list[str]:
        return [event.name for event in self.events]

    def all_tallies(self) -> tuple[Tally, ...]:
        """The standard tallies, the game's own, then the per-game moments of the ratios."""
        declared = standard_tallies(self.max_length) + tuple(self.tallies)
        return declared + moment_tallies(declared)

    def tally(self, name: str) -> Tally:
        return next(t for t in self.all_tallies() if t.name == name)

    def tally_names(self) -> list[str]:
        return [t.name for t in self.all_tallies()]

    def empty_tallies(self, players: int) -> dict[str, np.ndarray]:
        return {t.name: np.zeros(t.shape(self, players), dtype=np.int64)
                for t in self.all_tallies()}

    def validate(self) -> None:
        """Refuse an inconsistent declaration at registration, with a sentence saying what."""

        def bad(message):
            raise ValueError(f"game {self.name!r}: {message}")

        if self.scoring not in ("team", "individual"):
            bad(f"scoring must be 'team' or 'individual', not {self.scoring!r}")
        if not 1 <= self.min_players <= self.max_players:
            bad(f"player range {self.min_players}..{self.max_players} is empty")
        if self.team_game:
            if not self.teams:
                bad("a team game declares its teams")
            for role in self.roles:
                if role.team not in self.teams:
                    bad(f"role {role.name!r} is on unknown team {role.team!r}")
        elif self.teams:
            bad("an individual game declares no teams")
        if not self.roles:
            bad("a game declares at least one role (one 'player' role will do)")
        if len(self.roles) > 63:
            bad("at most 63 roles (a strategy's speaking roles are the bits of one integer)")
        for label, items in (("roles", self.roles), ("decisions", self.decisions),
                             ("end conditions", self.end_conditions), ("events", self.events),
                             ("trace events", self.trace_events), ("caps", self.caps)):
            try:
                codes(items)
            except ValueError as exc:
                bad(f"{label}: {exc}")
        if not self.decisions:
            bad("a game declares at least one decision kind")
        if not self.end_conditions:
            bad("a game declares at least one end condition")
        if self.max_actions < 1:
            bad("max_actions must be at least 1")
        engine_names = {name for name, *_ in engine_fields(1, 1, 1, 1, 1)}
        names = [f.name for f in self.state_fields]
        if len(set(names)) != len(names):
            bad(f"state fields repeat (a state knob is named after its key's last part): "
                f"{', '.join(sorted({n for n in names if names.count(n) > 1}))}")
        tally_names = [t.name for t in self.all_tallies()]
        clash = set(names) & (set(tally_names) | engine_names)
        if clash:
            bad(f"state fields clash with engine fields or tallies: {', '.join(sorted(clash))}")
        if len(set(tally_names)) != len(tally_names):
            bad("tally names repeat")
        # In interpreted runs the state is a numpy record, whose own attributes (round, size,
        # sum, ...) would hide a field of the same name.
        shadowed = sorted(n for n in names + tally_names if hasattr(np.record, n))
        if shadowed:
            bad(f"state fields or tallies named like numpy record attributes: "
                f"{', '.join(shadowed)}")
        for tally in self.tallies:
            if tally.axis not in AXES:
                bad(f"tally {tally.name}: axis must be one of {', '.join(AXES)}")
            if tally.holds not in HOLDS:
                bad(f"tally {tally.name}: holds must be one of {', '.join(HOLDS)}")
            if tally.holds == "game_moments":
                bad(f"tally {tally.name}: game moments are the engine's (declare `per`)")
            if clustered(tally) and self.tally(tally.per).holds != "count":
                bad(f"tally {tally.name} is counted per {tally.per}, which must be a count")
            if (tally.holds == "histogram") != (tally.bins > 0):
                bad(f"tally {tally.name}: a histogram, and only a histogram, has bins")
            for partner in (tally.per, tally.square, tally.total):
                if partner and partner not in tally_names:
                    bad(f"tally {tally.name} refers to unknown tally {partner!r}")
            if tally.holds == "sum" and not tally.square:
                bad(f"tally {tally.name}: a sum declares the tally of its squares (square=...)")
            if tally.section not in ("scores", "measures"):
                bad(f"tally {tally.name}: section must be 'scores' or 'measures'")
        for f in self.state_fields:
            if np.dtype(f.dtype) not in (np.dtype(np.int64), np.dtype(np.float64),
                                         np.dtype(np.bool_)):
                bad(f"state field {f.name}: dtype must be int64, float64 or bool")
        pieces = [piece.name for piece in self.observation.pieces]
        if len(set(pieces)) != len(pieces):
            bad("observation pieces repeat (kind, me, my_role and players are standard)")
        if self.filler_role and self.filler_role not in self.role_names():
            bad(f"filler role {self.filler_role!r} is not one of its roles")
        for check in self.setup_checks:
            if not isinstance(check, SetupCheck) or not callable(check.test):
                bad("SETUP_CHECKS holds SetupCheck(key, words, test) entries")




# --- registration -----------------------------------------------------------------------------------
def game_from_package(package: str, strategies: str) -> GameSpec:
    """A game's GameSpec from its package's modules, by their conventional names:

    declaration.py  NAME, TITLE, SOURCE, MIN_PLAYERS, MAX_PLAYERS, SCORING, TEAMS, ROLES, DECISIONS,
                    OBSERVATION, END_CONDITIONS, EVENTS, TRACE_EVENTS, LENGTH_UNIT, MAX_LENGTH,
                    MAX_ACTIONS, PROVISIONAL, DEFAULT_CONFIG (and SYMMETRIC_SEATS, FILLER_ROLE,
                    TURN_ORDER, COVERAGE_NEEDS, MEASURING_STRATEGY, STANDARD_CONFIGS,
                    NEVER_USED, SETUP_CHECKS, CAPS, optional)
    state.py        FIELDS (besides the state knobs, which the engine adds from KEYS)
    metrics.py      TALLIES
    params.py       KEYS, load_params, setup, actions, describe_setup (and provisional_for,
                    optional: the rulings a setup depends on); params carrying state knobs
                    (keys declared `state=True`) hold them as `knobs` (knobs_record)
    observation.py  scramble_hidden
    kernel.py       play
    trace.py        decode_trace

    and `strategies`, the module whose `builtin()` returns the built-in strategies (imported
    when first needed, so that listing games compiles nothing).
    """
    import importlib

    def part(module_name):
        return importlib.import_module(f"{package}.{module_name}")

    declaration, state, metrics = part("declaration"), part("state"), part("metrics")
    params, kernel, trace = part("params"), part("kernel"), part("trace")
    observation = part("observation")

    def need(module, name):
        if not hasattr(module, name):
            raise ValueError(f"{module.__name__} must define {name} (see docs/adding-a-game.md)")
        return getattr(module, name)

    def builtin_strategies():
        return importlib.import_module(strategies).builtin()

    d = declaration
    return GameSpec(
        name=need(d, "NAME"), title=need(d, "TITLE"), source=need(d, "SOURCE"),
        min_players=need(d, "MIN_PLAYERS"), max_players=need(d, "MAX_PLAYERS"),
        scoring=need(d, "SCORING"), teams=tuple(need(d, "TEAMS")), roles=tuple(need(d, "ROLES")),
        decisions=tuple(need(d, "DECISIONS")), observation=need(d, "OBSERVATION"),
        end_conditions=tuple(need(d, "END_CONDITIONS")), events=tuple(need(d, "EVENTS")),
        trace_events=tuple(need(d, "TRACE_EVENTS")), length_unit=need(d, "LENGTH_UNIT"),
        max_length=need(d, "MAX_LENGTH"), max_actions=need(d, "MAX_ACTIONS"),
        provisional=tuple(need(d, "PROVISIONAL")), default_config=need(d, "DEFAULT_CONFIG"),
        state_fields=knob_fields(need(params, "KEYS")) + tuple(need(state, "FIELDS")),
        tallies=tuple(need(metrics, "TALLIES")),
        config_keys=tuple(need(params, "KEYS")), load_params=need(params, "load_params"),
        setup=need(params, "setup"), actions=need(params, "actions"),
        describe_setup=need(params, "describe_setup"), kernel=need(kernel, "play"),
        play_game=need(kernel, "play_game"),
        decode_trace=need(trace, "decode_trace"),
        symmetric_seats=getattr(d, "SYMMETRIC_SEATS", ""),
        turn_order=getattr(d, "TURN_ORDER", None),
        dealt_teams=getattr(params, "dealt_teams", None),
        coverage_needs=getattr(d, "COVERAGE_NEEDS", None),
        filler_role=getattr(d, "FILLER_ROLE", ""),
        provisional_for=getattr(params, "provisional_for", None),
        measuring_strategy=getattr(d, "MEASURING_STRATEGY", ""),
        standard_configs=tuple(getattr(d, "STANDARD_CONFIGS", ())),
        never_used=getattr(d, "NEVER_USED", None),
        setup_checks=tuple(getattr(d, "SETUP_CHECKS", ())),
        caps=tuple(getattr(d, "CAPS", ())),
        scramble_hidden=need(observation, "scramble_hidden"), strategies=builtin_strategies,
    )
