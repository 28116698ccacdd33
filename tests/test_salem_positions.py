"""Hand-built Salem positions and a scripted strategy shared by the Salem tests.

A position is the kernel's own state (`driver.blank_state`: the same record the kernel plays on)
with the setup written by the game's `setup` and a table laid out by hand with the rules' own
functions, so a rule tested on one behaves as in the kernel. The module's own tests check the
helpers.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from simulator.setup import config
from simulator.games import driver
from simulator.games.base import OBS_PLAYERS, StrategyInfo
from simulator.games.salem import GAME
from simulator.games.salem.declaration import (
    CARDS, CHAR, CHARACTERS, MAX_PLAYERS, N_CARDS, N_FRONT, OBS, STOP, TOWN, TRYAL,
    WITCH,
)
from simulator.games.salem.rules import (
    add_hand, give_tryal, night_at_bottom, publish_row, recount_all, reset_public, set_character,
)
from strategies.common import strategy

NAW, WITCH_TRYAL, CONSTABLE = TRYAL.not_a_witch, TRYAL.witch, TRYAL.constable
_PARAMS: dict = {}


def params(players=8, **overrides):
    """The params of the built-in config for `players`, with `--set` style overrides
    (`piety="double_threshold"` sets rules.piety; `variants__dead_silent=True` sets
    variants.dead_silent)."""
    sets = []
    for key, value in sorted(overrides.items()):
        path = key.replace("__", ".") if "__" in key else f"rules.{key}"
        text = f'"{value}"' if isinstance(value, str) else str(value).lower()
        sets.append(f"{path}={text}")
    key = (players, tuple(sets))
    if key not in _PARAMS:
        _PARAMS[key] = config.load("salem", sets, players).params
    return _PARAMS[key]


def position(characters, tryals=None, hands=None, deck=(), **overrides):
    """A fresh state for len(characters) players (character codes or names), each dealt the
    tryal kinds in `tryals[seat]` (default: 4 Not a Witch) and the cards in `hands[seat]` (a
    dict card name -> count); the draw deck is `deck` (card codes, bottom first) over Night."""
    n = len(characters)
    p = params(max(n, 4), **overrides)  # a smaller table: the 4-player setup, tryals by hand
    st = driver.blank_state(GAME, n)
    st.n_actions = GAME.actions(p)
    driver.setup_state(GAME, p, st)
    st.obs[OBS_PLAYERS] = n
    reset_public(st)
    st.outcome = -1
    st.turn_seat = 0
    st.night_victim = -1
    st.night_guard = -1
    st.known_team[:n, :n] = -1
    st.confessing[:n] = STOP
    tryals = tryals or [[NAW] * 4] * n
    tid = 0
    for seat, kinds in enumerate(tryals):
        st.known_team[seat, seat] = TOWN
        for kind in kinds:
            st.tryal_kind[tid] = kind
            give_tryal(st, seat, tid)
            tid += 1
    st.n_tryals = tid
    for seat, character in enumerate(characters):
        code = CHARACTERS.index(character) if isinstance(character, str) else character
        set_character(st, seat, code)
        publish_row(st, seat)
    for seat, hand in enumerate(hands or []):
        for name, count in hand.items():
            add_hand(st, seat, CARDS.index(name), count)
    st.pile_size = 0
    night_at_bottom(st, np.random.default_rng(0))
    for i, card in enumerate(deck):
        st.pile[i + 1] = card
    st.pile_size = 1 + len(deck)
    st.obs[OBS.deck_size] = st.pile_size
    recount_all(st)
    return st


# --- the public record, from Python (state.py's accessors return views only inside compiled code)
def alive(st):
    """The public `alive` piece of the observation."""
    return st.obs[OBS.alive:OBS.alive + MAX_PLAYERS]


def accusations(st):
    return st.obs[OBS.accusations:OBS.accusations + MAX_PLAYERS]


def discard(st):
    """The discard pile by card kind."""
    return st.obs[OBS.discard:OBS.discard + N_CARDS]


def front(st, seat, kind):
    """Cards of `kind` in front of `seat`."""
    return int(st.obs[OBS.front + seat * N_FRONT + kind])


def add_front(st, seat, kind, delta):
    st.obs[OBS.front + seat * N_FRONT + kind] += delta


def hand(st, seat):
    """A seat's hand as a dict card name -> count."""
    return {CARDS[k]: int(st.hand[seat, k]) for k in range(N_CARDS) if st.hand[seat, k]}


def tallies(t: dict) -> SimpleNamespace:
    return SimpleNamespace(**t)


# --- a scripted strategy --------------------------------------------------------------------------
SCRIPT_MEMORY = 16


@strategy
def script(kind, obs, legal, params, memory, rng):
    """The action a test wrote into the seat's memory for this decision kind (memory[kind] =
    action + 1) when it is legal; else stop when that is legal; else the first legal action."""
    wanted = int(memory[kind]) - 1
    if 0 <= wanted < legal.size and legal[wanted]:
        return wanted
    if legal[legal.size - 1]:
        return legal.size - 1
    for a in range(legal.size):
        if legal[a]:
            return a
    return -1


SCRIPT = StrategyInfo("script", script, "the action a test names for a decision kind",
                      memory=SCRIPT_MEMORY)


def bind(st, wanted, trace_rows=400, strategies=None):
    """Seat s plays `script` with wanted[s] (a dict decision kind -> action), bound into `st` as
    the driver binds a run's strategies (or `strategies`, one StrategyInfo per seat); the state
    traces into the returned buffer."""
    n = st.players
    lineup = driver.Lineup.by_seat(GAME, strategies or [SCRIPT] * n)
    driver.bind_lineup(st, lineup)
    st.memory[:] = 0
    for seat in range(n):
        slot = lineup.table[seat, 0]
        base = st.memory_offset[seat, slot]
        for kind, action in (wanted[seat] if seat < len(wanted) else {}).items():
            st.memory[base + kind] = action + 1
    trace = np.zeros((trace_rows, 6), np.int64)
    driver.attach_trace(st, trace)
    st.trace_rows = 0
    return trace


def run(phase, st, wanted, *arguments, seed=0):
    """Run one kernel step on a position; returns (its result, the trace rows)."""
    trace = bind(st, wanted)
    out = phase(st, *arguments, np.random.default_rng(seed))
    return out, trace[:st.trace_rows]


# --- the helpers' own tests -----------------------------------------------------------------------
def test_a_position_is_the_kernel_state():
    st = position(["tituba", "mary-warren", "john-proctor", "sarah-good"],
                  tryals=[[NAW, WITCH_TRYAL], [NAW, CONSTABLE], [NAW, NAW], [NAW, NAW]],
                  hands=[{"accusation": 2}, {}, {"alibi": 1}, {}])
    assert st.dtype == driver.state_dtype(GAME)
    assert list(st.character[:4]) == [CHAR.tituba, CHAR.mary_warren, CHAR.john_proctor,
                                      CHAR.sarah_good]
    assert list(st.ever_witch[:4]) == [1, 0, 0, 0]
    assert st.role[0] == CHAR.tituba + len(CHARACTERS)  # tituba/witch
    assert hand(st, 0) == {"accusation": 2} and hand(st, 2) == {"alibi": 1}
    assert list(st.obs[OBS.face_down:OBS.face_down + 4]) == [2, 2, 2, 2]
    assert st.pile_size == 1 and st.pile[0] == CARDS.index("night")
    assert st.known_team[0, 0] == WITCH and st.known_team[1, 1] == TOWN
    assert st.known_witch[0, 0] == 1 and st.known_witch[1, 0] == 0
