"""The contract every game package fulfils.

A game is declared once, up front, by a :class:`GameSpec` (its name, player range, teams or
individual scoring, roles, decision kinds with their observation layout, end conditions, event
counters, trace events) plus four functions that turn a validated config into the arrays one Numba
kernel needs. The runner, the statistics, the CLI and the reports only ever talk to a game through
this contract, so a new game plugs in without touching them.

The kernel of every game has the same calling convention::

    play(setup, strategies, slot_table, slot_params, slot_flags, n_games, rng, tallies, trace) -> int

* ``setup``       – a game-specific NamedTuple of arrays/scalars (built by ``GameSpec.build_setup``)
* ``strategies``  – a tuple of ``MAX_STRATEGY_SLOTS`` first-class strategy functions
* ``slot_table``  – int64[n_players, n_roles]: strategy slot of a seat while it holds a role
* ``slot_params`` – float64[MAX_STRATEGY_SLOTS, MAX_STRATEGY_PARAMS]: each slot's parameters
* ``slot_flags``  – int64[MAX_STRATEGY_SLOTS]: capability bits (see ``FLAG_*``)
* ``n_games``     – games to play; their outcomes are *added* into ``tallies``
* ``rng``         – a ``numpy.random.Generator`` over ``PCG64`` (``random_double`` steps its
                    state inline); the only source of randomness
* ``tallies``     – a game-specific NamedTuple of int64 arrays (see ``TallySpec``)
* ``trace``       – int64[max_events, TRACE_WIDTH]; filled only when it has rows (one game traced)

and returns the number of trace rows written.
"""

from __future__ import annotations

import warnings
from collections import namedtuple
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import numba
import numpy as np
from numba import types

# Strategies are Numba first-class functions by design (one kernel compile serves every strategy,
# built-in or a user's); Numba labels the feature experimental on every use, which is noise here.
warnings.filterwarnings("ignore", category=numba.NumbaExperimentalFeatureWarning)

# A kernel receives a fixed-size tuple of strategy functions, padded with copies of the first, so
# that its Numba type never changes and it compiles (and caches) once per game.
MAX_STRATEGY_SLOTS = 16
MAX_STRATEGY_PARAMS = 8

# Strategy capability bits (slot_flags).
FLAG_TALKS = 1  # the strategy wants to be asked the public "claim" decisions of a game
# The strategy decides from the legal mask (and the decision kind) alone. A kernel may then skip
# building the seat's observation and hand it one that holds only the run's constants and the
# decision kind: a blind strategy sees nothing of the seat's view, let alone another seat's.
FLAG_BLIND = 2

# One trace row: (step, event code, actor seat, target seat, value, extra).
TRACE_WIDTH = 6

_RNG_TYPE = numba.typeof(np.random.default_rng(0))


def _read_only(dtype):
    return types.Array(dtype, 1, "C", readonly=True)


# Every strategy of every game has this signature: (decision kind, observation, legal-action mask,
# parameters, rng) -> action index. A seat's strategy never receives the game state. The three
# arrays are read-only: a strategy that writes into them does not compile, so the kernel can hand
# over its own buffers without copying them first.
STRATEGY_SIGNATURE = types.int64(
    types.int64, _read_only(types.int64), _read_only(types.boolean), _read_only(types.float64),
    _RNG_TYPE,
)


def strategy(function):
    """Compile `function` as a strategy: the one signature, cached, and without reference counting.

    A strategy is called through a function pointer that Numba cannot inline, so every reference
    count it touches (the three arrays, the generator) is a real call on every decision (eight
    of them in the werewolf `random` strategy). The kernel owns everything a strategy sees for the whole
    call, so a strategy that does not allocate needs no reference counting. One that does
    allocate (a user's, say) cannot be compiled that way and keeps the ordinary runtime.
    """
    from numba import njit
    from numba.core.errors import NumbaError

    try:
        return njit(STRATEGY_SIGNATURE, cache=True, _nrt=False)(function)
    except NumbaError:  # it allocates (or does not compile at all: then this raises the reason)
        return njit(STRATEGY_SIGNATURE, cache=True)(function)


@dataclass(frozen=True)
class ObservationLayout:
    """A flat int64 observation vector assembled from named pieces (name, size).

    Offsets are fixed at import time (piece sizes use the game's maximum player count), so the
    kernel and the strategies index the vector through compile-time constants:
    ``obs[OBS.alive + seat]`` rather than magic numbers.
    """

    pieces: tuple[tuple[str, int, str], ...]  # (name, size, meaning)

    @property
    def size(self) -> int:
        return sum(size for _, size, _ in self.pieces)

    def offsets(self):
        """A namedtuple of piece offsets, usable as a constant inside @njit code."""
        names, values, at = [], [], 0
        for name, size, _ in self.pieces:
            names.append(name)
            values.append(at)
            at += size
        names.append("size")
        values.append(at)
        return namedtuple("Obs", names)(*values)

    def describe(self) -> list[tuple[str, int, int, str]]:
        rows, at = [], 0
        for name, size, meaning in self.pieces:
            rows.append((name, at, size, meaning))
            at += size
        return rows


@dataclass(frozen=True)
class DecisionKind:
    code: int
    name: str
    actions: str  # what an action index means
    summary: str


@dataclass(frozen=True)
class Role:
    name: str
    team: str  # a team name, or "" in an individual game
    summary: str
    label: str = ""  # original name


@dataclass(frozen=True)
class StrategyInfo:
    """A strategy as a config names it: the compiled function, its parameters and capabilities."""

    name: str
    function: Any  # a Numba dispatcher compiled with STRATEGY_SIGNATURE
    summary: str
    params: Mapping[str, float] = field(default_factory=dict)  # name -> default, in slot order
    flags: int = 0


@dataclass(frozen=True)
class TallySpec:
    """Declares one tally array: its name and shape as a function of the game parameters."""

    name: str
    shape: Callable[["GameSpec", Any], tuple[int, ...]]
    meaning: str


@dataclass(frozen=True)
class GameSpec:
    """Everything the platform knows about a game, declared before any logic."""

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
    end_conditions: tuple[str, ...]
    events: tuple[str, ...]  # named event counters (tallies.events)
    length_unit: str  # what tallies.length_hist counts ("days", "rounds")
    default_config: str  # built-in config file, relative to the configs package
    provisional: tuple[str, ...]  # rules this project designed where the source is silent
    # game-specific behaviour
    load_params: Callable[..., Any]  # (raw config dict, ConfigContext) -> frozen params
    build_setup: Callable[[Any], Any]  # params -> setup NamedTuple
    tally_specs: tuple[TallySpec, ...]
    tally_class: type  # a namedtuple class with the tally names, defined in the game's metrics
    kernel: Any
    decode_trace: Callable[[np.ndarray, Any], list[str]]
    strategies: Callable[[], Mapping[str, StrategyInfo]]  # built-in strategies (loaded lazily)
    describe_setup: Callable[[Any], dict] = lambda params: {}

    @property
    def team_game(self) -> bool:
        return self.scoring == "team"

    def role_names(self) -> list[str]:
        return [role.name for role in self.roles]

    def role_index(self, name: str) -> int:
        return self.role_names().index(name)

    def tally_names(self) -> list[str]:
        return [spec.name for spec in self.tally_specs]

    def new_tallies(self, params):
        arrays = [np.zeros(spec.shape(self, params), dtype=np.int64) for spec in self.tally_specs]
        return self.tally_class(*arrays)


def standard_tallies(max_length: int) -> tuple[TallySpec, ...]:
    """The tallies every game keeps; the statistics and the reports read these names."""
    return (
        TallySpec("games", lambda g, p: (1,), "games played"),
        TallySpec("team_wins", lambda g, p: (len(g.teams),), "games won by each team"),
        TallySpec("draws", lambda g, p: (1,), "games without a winner"),
        TallySpec("seat_wins", lambda g, p: (p.players,), "games each seat won (its team or itself)"),
        TallySpec("role_games", lambda g, p: (len(g.roles),), "seat-games ending with the role"),
        TallySpec("role_wins", lambda g, p: (len(g.roles),), "of those, won"),
        TallySpec("slot_games", lambda g, p: (MAX_STRATEGY_SLOTS,), "seat-games per strategy slot"),
        TallySpec("slot_wins", lambda g, p: (MAX_STRATEGY_SLOTS,), "of those, won"),
        TallySpec("length_hist", lambda g, p: (max_length + 1,), "games by length"),
        TallySpec("end_counts", lambda g, p: (len(g.end_conditions),), "games by end condition"),
        TallySpec("events", lambda g, p: (len(g.events),), "named event counters"),
    )
