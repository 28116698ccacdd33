"""The engine's Python side: build a game's state, bind its strategies, play, read the tallies.

`play(spec, params, lineup, games, rng)` is the one way any part of fairplay plays a game: the
runner's chunks, traces, tests and benchmarks. A `Lineup` says which strategy (with which
parameter values) each seat plays while it holds each role; the state built here holds it all, and
the game's compiled `play(st, games, rng)` entry does the rest (see `simulator.games.engine`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import config as numba_config
from numba import typeof

from simulator.games import kernel_support
from simulator.games.base import (
    FLAG_BLIND, FLAG_TALKS, MAX_STRATEGY_PARAMS, MAX_STRATEGY_SLOTS, MEMORY_PER_SEAT, OBS_FIRST, OBS_KIND,
    OBS_ME, OBS_PLAYERS, OBS_ROLE, TRACE_WIDTH, CapExceeded, GameSpec, IllegalAction,
    NoLegalAction, StrategyInfo, engine_fields,
)


# --- the state ----------------------------------------------------------------------------------
_DTYPES: dict[int, tuple[GameSpec, np.dtype]] = {}


def state_dtype(spec: GameSpec) -> np.dtype:
    """The record type of a game's state: the engine's fields, the game's, then every tally.
    Numba's records cannot hold booleans, so boolean fields are kept as bytes."""
    if id(spec) not in _DTYPES:
        _DTYPES[id(spec)] = (spec, _build_dtype(spec))
    return _DTYPES[id(spec)][1]


def _moment_words(spec: GameSpec) -> int:
    """Words of `moment_last`: y and x of every entry of every ratio kept."""
    return sum(2 * t.state_shape(spec)[0] for t in spec.all_tallies() if t.holds == "game_moments")


def _build_dtype(spec: GameSpec) -> np.dtype:
    fields = list(engine_fields(spec.max_players, len(spec.roles), spec.observation.size,
                                spec.max_actions, _moment_words(spec)))
    fields += [(f.name, f.dtype, f.shape, f.meaning) for f in spec.state_fields]
    fields += [(t.name, np.int64, t.state_shape(spec), t.meaning) for t in spec.all_tallies()]
    return np.dtype([(name, np.uint8 if np.dtype(dtype) == np.bool_ else dtype, shape)
                     for name, dtype, shape, _ in fields], align=True)


def blank_state(spec: GameSpec, players: int):
    """A zeroed state for `players` (a numpy record: fields read and written by name, from
    Python and from compiled code alike). Rule tests build positions on it by hand."""
    dtype = state_dtype(spec)
    st = np.zeros(1, dtype).view(np.recarray)[0]
    st.players = players
    plan_moments(spec, st, dtype, players)
    st.team_game = 1 if spec.team_game else 0
    st.trace_game = -1
    st.asking_seat = -1
    st.first_seat = -1  # no first player named yet (a hand-built position's too)
    if spec.team_game:
        st.role_team[:len(spec.roles)] = [spec.teams.index(r.team) for r in spec.roles]
    return st


def plan_moments(spec: GameSpec, st, dtype: np.dtype, players: int,
                 slots: int = MAX_STRATEGY_SLOTS) -> None:
    """Tell the engine where the tallies are and which ratios' per-game moments to keep (in
    8-byte words from the first tally), each for the entries a run of `players` with `slots`
    strategy slots can use (the moments are kept after every game: no entry for nothing)."""
    tallies = spec.all_tallies()
    offsets = [dtype.fields[t.name][1] for t in tallies]
    sizes = [dtype.fields[t.name][0].itemsize for t in tallies]
    if any(offsets[i] + sizes[i] != offsets[i + 1] for i in range(len(tallies) - 1)):
        raise AssertionError("the tallies must lie one after the other in the state")
    start = offsets[0]
    st.tally_offset = start // 8
    st.tally_words = (offsets[-1] + sizes[-1] - start) // 8
    pairs = [t for t in tallies if t.holds == "game_moments"]
    if len(pairs) > len(st.moment_plan):
        raise ValueError(f"game {spec.name!r}: at most {len(st.moment_plan)} ratios over "
                         f"seat-games keep per-game moments")
    for index, moments in enumerate(pairs):
        ratio = spec.tally(moments.per)
        entries = slots if ratio.axis == "slot" else ratio.shape(spec, players)[0]
        st.moment_plan[index] = ((dtype.fields[ratio.name][1] - start) // 8,
                                 (dtype.fields[ratio.per][1] - start) // 8, entries,
                                 (dtype.fields[moments.name][1] - start) // 8)
    st.moment_pairs = len(pairs)


@dataclass(frozen=True)
class Slot:
    """One strategy slot of a run: a strategy with its parameter values."""

    name: str
    info: StrategyInfo
    params: tuple[tuple[str, float], ...] = ()
    # a strategy table's `slot`: seats with a tag keep a slot of their own even where another
    # slot plays the same strategy with the same parameters (the slot layout can matter: a
    # player who changes team during play keeps, or changes, his slot's memory)
    tag: str = ""
    # a shipped set's values (name "people@equilibrium", simulator/setup/players.py): what the
    # label measures a change from, instead of the strategy's declared defaults
    preset: tuple[tuple[str, float], ...] = ()

    def label(self) -> str:
        suffix = f" ({self.tag})" if self.tag else ""
        reference = dict(self.preset) if self.preset else self.info.defaults()
        if not self.params or dict(self.params) == reference:
            return self.name + suffix
        inner = ", ".join(f"{k}={v:g}" for k, v in self.params)
        return f"{self.name}({inner}){suffix}"


@dataclass
class Lineup:
    """Who plays what: the strategy slots and, per seat and role, the slot it plays."""

    slots: list[Slot]
    table: np.ndarray  # int64[players, roles]

    @classmethod
    def uniform(cls, spec: GameSpec, players: int, strategy: str | StrategyInfo = "random",
                **params) -> "Lineup":
        """Every seat plays one strategy (a built-in name or a StrategyInfo)."""
        return cls.by_seat(spec, [strategy] * players, [params] * players)

    @classmethod
    def by_seat(cls, spec: GameSpec, strategies, params=None) -> "Lineup":
        """One strategy per seat (names or StrategyInfo), kept whatever role the seat holds;
        `params` optionally gives each seat's parameter values (a dict)."""
        builtin = spec.strategies()
        slots: list[Slot] = []
        seats = []
        for index, entry in enumerate(strategies):
            info = builtin[entry] if isinstance(entry, str) else entry
            given = (params[index] if params else None) or {}
            values = tuple((p.name, float(given.get(p.name, p.default))) for p in info.params)
            slot = Slot(info.name, info, values)
            if slot not in slots:
                slots.append(slot)
            seats.append(slots.index(slot))
        table = np.repeat(np.asarray(seats, dtype=np.int64)[:, None], len(spec.roles), axis=1)
        return cls(slots, table)


def speaking_roles(info: StrategyInfo, roles: int) -> int:
    """The roles (bits) in which a strategy is asked the optional public decisions: none without
    FLAG_TALKS, else those of `talks_as` (every role when it names none)."""
    if not info.flags & FLAG_TALKS:
        return 0
    if not info.talks_as:
        return (1 << roles) - 1
    for role in info.talks_as:
        if not 0 <= role < roles:
            raise ValueError(f"strategy {info.name!r}: talks_as names role {role}; the game has "
                             f"roles 0..{roles - 1}")
    return sum(1 << role for role in set(info.talks_as))


def bind_lineup(st, lineup: Lineup) -> None:
    """Put the strategies into the state: each slot's compiled code, parameters, flags and
    memory, and every seat's memory segment per slot it may play."""
    if len(lineup.slots) > MAX_STRATEGY_SLOTS:
        raise ValueError(f"at most {MAX_STRATEGY_SLOTS} strategy slots")
    players = lineup.table.shape[0]
    st.slot_table[:players, :lineup.table.shape[1]] = lineup.table
    for index, slot in enumerate(lineup.slots):
        if len(slot.params) > MAX_STRATEGY_PARAMS:
            raise ValueError(f"{slot.name}: at most {MAX_STRATEGY_PARAMS} parameters")
        st.slot_params[index, :len(slot.params)] = [value for _, value in slot.params]
        if slot.info.function is None:
            raise ValueError(f"strategy {slot.name} was read as data (from a stored config) and "
                             f"cannot be played")
        st.slot_address[index] = kernel_support.native_address(slot.info.function)
        st.slot_flags[index] = slot.info.flags
        st.slot_speaks[index] = speaking_roles(slot.info, lineup.table.shape[1])
        st.slot_memory[index] = slot.info.memory
    used = 0
    for seat in range(players):
        start = used
        for index in sorted(set(lineup.table[seat].tolist())):
            st.memory_offset[seat, index] = used
            used += lineup.slots[index].info.memory
        if used - start > MEMORY_PER_SEAT:
            raise ValueError(f"seat {seat}'s strategies use {used - start} words of memory; "
                             f"a seat has {MEMORY_PER_SEAT}")
    st.memory_used = used


def setup_state(spec: GameSpec, params, st) -> None:
    """Write a setup into a state: each state knob (`params.knobs`) into its field, then the
    game's own setup fields and its run constants in the observation (`spec.setup`)."""
    for key in spec.config_keys:
        if key.state:
            st[key.name] = key.state_value(getattr(params.knobs, key.name))
    spec.setup(params, st)


def new_state(spec: GameSpec, params, lineup: Lineup, trace: np.ndarray | None = None,
              trace_game: int = -1):
    """A state ready for the kernel: setup, strategies, observation constants, trace buffer."""
    st = blank_state(spec, params.players)
    st.n_actions = spec.actions(params)
    st.game_address = kernel_support.game_address(spec.play_game, game_signature(spec, st))
    bind_lineup(st, lineup)
    plan_moments(spec, st, st.dtype, params.players, len(lineup.slots))
    setup_state(spec, params, st)
    st.obs[OBS_PLAYERS] = params.players
    st.blank[:] = st.obs
    st.blank[[OBS_KIND, OBS_ME, OBS_ROLE, OBS_FIRST]] = -1
    if trace is not None:
        attach_trace(st, trace, trace_game)
    return st


def attach_trace(st, trace: np.ndarray, game: int = -1) -> None:
    """Let a state record events into `trace` (rows x TRACE_WIDTH int64, kept alive by the
    caller): all games, or only game `game` of the call. Hand-built states trace this way too."""
    if trace.ndim != 2 or trace.shape[1] != TRACE_WIDTH or trace.dtype != np.int64 or \
            not trace.flags.c_contiguous:
        raise ValueError(f"a trace buffer is a C-contiguous int64 array of rows x {TRACE_WIDTH}")
    st.trace_address = kernel_support.trace_address(trace)
    st.trace_capacity = len(trace)
    st.trace_limit = len(trace)  # for hand-built positions; the game loop sets it per game
    st.trace_game = game


def read_tallies(spec: GameSpec, st) -> dict[str, np.ndarray]:
    """The tallies a state holds, shaped for its player count (copies)."""
    out = {}
    for tally in spec.all_tallies():
        shape = tally.shape(spec, int(st.players))
        array = np.asarray(st[tally.name]).reshape(tally.state_shape(spec))
        out[tally.name] = array[tuple(slice(0, n) for n in shape)].astype(np.int64).copy()
    return out


# --- playing --------------------------------------------------------------------------------------
class GameFault(Exception):
    """A game that stopped the run: what went wrong, which game of the call it was, and the
    traced game up to there. A strategy's fault (StrategyFault) or a game past a cap its rules
    declare (CapFault)."""

    def __init__(self, message: str, game: int):
        super().__init__(message)
        self.game = game
        self.trace = np.zeros((0, TRACE_WIDTH), dtype=np.int64)  # the traced game, up to here

    def __reduce__(self):  # it crosses from worker processes to the parent
        return type(self), (str(self), self.game)


class StrategyFault(GameFault):
    """A strategy returned an illegal action or raised: where, what, and how to see it again."""

    def __init__(self, message: str, seat: int, kind: str, strategy: str, game: int):
        super().__init__(message, game)
        self.seat, self.kind, self.strategy = seat, kind, strategy

    def __reduce__(self):
        return type(self), (str(self), self.seat, self.kind, self.strategy, self.game)


class CapFault(GameFault):
    """A game went past one of its declared caps (engine.within_cap): a loop its rules do not
    end, which would otherwise hang the run."""


def _cap_fault(spec: GameSpec, st) -> CapFault:
    cap = int(st.cap_passed)
    what = spec.caps[cap] if 0 <= cap < len(spec.caps) else None
    name = (what.meaning or what.name) if what else f"cap {cap}"
    return CapFault(f"the game went past its cap of {int(st.cap_limit):,} {name}: a loop the "
                    f"rules do not end", int(st.game_index))


def _fault(spec: GameSpec, st, lineup: Lineup, error: Exception) -> StrategyFault:
    seat, kind = int(st.asking_seat), int(st.asking_kind)
    game = int(st.game_index)
    kind_name = spec.decisions[kind].name if 0 <= kind < len(spec.decisions) else str(kind)
    slot_index = int(lineup.table[seat, int(st.role[seat])]) if 0 <= seat < len(lineup.table) \
        else -1
    slot = lineup.slots[slot_index] if 0 <= slot_index < len(lineup.slots) else None
    who = (slot.info.source or slot.name) if slot else "a strategy"
    where = f"seat {seat}, decision {kind_name}"
    if isinstance(error, IllegalAction):
        message = (f"strategy {who} returned {int(st.returned)} at {where}, which is not a legal "
                   f"action")
    else:
        detail = str(error).splitlines()[0] if str(error) else ""
        if isinstance(error, IndexError) and slot is not None and slot.info.python is not None:
            detail = _index_detail(st, slot, seat, slot_index) or detail
        message = f"strategy {who} raised {type(error).__name__}" + \
                  (f": {detail}" if detail else "") + f" at {where}"
    return StrategyFault(message, seat, kind_name, who, game)


def _index_detail(st, slot: Slot, seat: int, slot_index: int) -> str:
    """Which index a user's strategy read or wrote out of range, and where: its Python function
    is called again on copies of what it was handed at the failing decision (the compiled check
    says only "index is out of bounds"). Empty when that call does not fail the same way."""
    import traceback

    obs = (st.blank if st.slot_flags[slot_index] & FLAG_BLIND else st.obs).copy()
    legal = np.asarray(st.legal[:int(st.n_actions)]).astype(np.bool_)
    params = np.array(st.slot_params[slot_index][:len(slot.params)])
    start = int(st.memory_offset[seat, slot_index])
    memory = np.array(st.memory[start:start + int(st.slot_memory[slot_index])])
    for array in (obs, legal, params):
        array.flags.writeable = False
    try:
        slot.info.python(int(st.asking_kind), obs, legal, params, memory,
                         np.random.default_rng(0))
    except IndexError as exc:
        frames = [f for f in traceback.extract_tb(exc.__traceback__)
                  if f.filename == slot.info.python.__code__.co_filename]
        where = f" (line {frames[-1].lineno}: {frames[-1].line.strip()})" if frames and \
            frames[-1].line else ""
        return f"{exc}{where}; its memory has {int(st.slot_memory[slot_index])} words and its " \
               f"parameters are {len(slot.params)}"
    except Exception:
        return ""
    return ""


def check_generator(rng) -> None:
    """Kernels step the generator's PCG64 state inline: anything else would be read wrongly."""
    if not isinstance(rng, np.random.Generator) or \
            not isinstance(rng.bit_generator, np.random.PCG64):
        raise TypeError("kernels need a numpy Generator over PCG64 (np.random.default_rng)")


def play(spec: GameSpec, params, lineup: Lineup, games: int, rng, trace_rows: int = 0,
         trace_game: int = -1):
    """Play `games` games; returns (tallies, trace rows). With `trace_rows`, the events of game
    `trace_game` (of this call; -1: all) are recorded, up to that many rows."""
    check_generator(rng)
    trace = np.zeros((trace_rows, TRACE_WIDTH), dtype=np.int64) if trace_rows else None
    st = new_state(spec, params, lineup, trace, trace_game)
    try:
        rows = spec.kernel(st, games, rng)
    except NoLegalAction:
        raise
    except CapExceeded:
        fault = _cap_fault(spec, st)
        if trace is not None:
            fault.trace = trace[:int(st.trace_rows)].copy()
        raise fault from None
    except Exception as error:  # raised by a strategy (or its illegal answer)
        if int(st.asking_seat) < 0:  # no strategy was being asked: a bug in the game
            raise
        fault = _fault(spec, st, lineup, error)
        if trace is not None:
            fault.trace = trace[:int(st.trace_rows)].copy()
        raise fault from None
    tallies = read_tallies(spec, st)
    return tallies, (trace[:rows].copy() if trace is not None else np.zeros((0, TRACE_WIDTH),
                                                                            dtype=np.int64))


def kernel_signature(spec: GameSpec, players: int) -> tuple:
    """The argument types of the game's kernel, `play(st, games, rng)`."""
    st = blank_state(spec, players)
    return (typeof(st), typeof(np.int64(0)), typeof(np.random.default_rng(0)))


def game_signature(spec: GameSpec, st) -> tuple:
    """The argument types of the game's `play_game(st, rng)`, which `play` calls by address."""
    return (typeof(st), typeof(np.random.default_rng(0)))


def compile_kernel(spec: GameSpec, players: int) -> None:
    """Compile the game's kernel now (or load it from the cache), before any game is played:
    `play_game`, with everything it calls, then the entry `play`."""
    if not numba_config.DISABLE_JIT:
        signature = kernel_signature(spec, players)
        spec.play_game.compile((signature[0], signature[2]))
        spec.kernel.compile(signature)


def kernel_is_ready(spec: GameSpec, params, lineup: Lineup) -> bool:
    """Is the game's kernel compiled in this process, or in the on-disk cache? (False: the first
    call compiles it, which takes a while; the CLI says so before it starts.)"""
    if numba_config.DISABLE_JIT:
        return True
    signature = kernel_signature(spec, params.players)
    return all(tuple(wanted) in dispatcher.overloads
               or kernel_support.is_cached(dispatcher, wanted)
               for dispatcher, wanted in ((spec.kernel, signature),
                                          (spec.play_game, (signature[0], signature[2]))))


def simulate(spec: GameSpec, params, seats, games: int, seed: int = 0, trace_rows: int = 0,
             seat_params=None, trace_game: int = -1):
    """Play `games` games with one strategy per seat (a built-in name or a StrategyInfo, kept
    whatever role the seat holds); returns (tallies, trace rows). A convenience for tests,
    benchmarks and tools; runs go through the runner and a config. `seat_params` optionally
    gives each seat's parameter values (a dict)."""
    lineup = Lineup.by_seat(spec, list(seats), seat_params)
    return play(spec, params, lineup, games, np.random.default_rng(seed), trace_rows, trace_game)
