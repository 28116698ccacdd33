"""Hand-built Chenghuang positions and scripted strategies shared by the Chenghuang tests.

A position is the kernel's own state (`driver.blank_state`: the same record the kernel plays on)
with the setup written by the game's `setup`, so a rule tested on one behaves as in the kernel.
The module's own tests check the helpers.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from simulator.games import driver
from simulator.games.base import OBS_PLAYERS, StrategyInfo, StrategyParam
from simulator.games.chenghuang import GAME
from simulator.games.chenghuang.declaration import KINDS, N_KINDS
from simulator.games.chenghuang.params import ChenghuangParams
from simulator.games.chenghuang.rules import lay_out, recount
from strategies.common import strategy

PARAMS = ChenghuangParams(players=5)
TABLE = PARAMS.table()


def cards(**named) -> np.ndarray:
    """A count vector by kind name: cards(loyalty=3, killing=1)."""
    vector = np.zeros(N_KINDS, dtype=np.int64)
    for name, count in named.items():
        vector[KINDS.index(name)] = count
    return vector


def position(roles, params=PARAMS, captain=0):
    """A fresh state for len(roles) players in round 1 with the given roles, nothing dealt (the
    setup, the scoring table included, is `params`')."""
    n = len(roles)
    st = driver.blank_state(GAME, n)
    st.n_actions = GAME.actions(params)
    driver.setup_state(GAME, params, st)
    st.obs[OBS_PLAYERS] = n
    st.role[:n] = roles
    st.current_round = 1
    st.captain = captain
    st.judge_kind = -1
    st.voted = 0
    st.accused = -1
    st.admitted = -1
    st.highest = -1
    st.revealed = 0
    st.thief = -1
    return st


def lay(st, seat, up=None, down=None):
    """Lay out a seat's cards by hand: `up` and `down` are count vectors."""
    up = np.zeros(N_KINDS, np.int64) if up is None else up
    down = np.zeros(N_KINDS, np.int64) if down is None else down
    st.held[seat] = up + down
    lay_out(st, st.players, seat, down)


def lay_random(st, seat, rng, held=None):
    """Lay out `held` (default: 5 random cards) with 2 random ones face down. Returns (held,
    down)."""
    held = rng.multinomial(5, [1 / N_KINDS] * N_KINDS) if held is None else held
    down = np.zeros(N_KINDS, np.int64)
    for _ in range(2):
        down[rng.choice(np.flatnonzero(held - down))] += 1
    lay(st, seat, up=held - down, down=down)
    return held, down


def random_table(roles, rng):
    """A position for `roles` with every seat laid out at random (`lay_random`)."""
    st = position(roles)
    for seat in range(len(roles)):
        lay_random(st, seat, rng)
    return st


def relayout(st, seat):
    recount(st, st.players, seat)


def tallies(t: dict) -> SimpleNamespace:
    """A run's tallies (a dict by name) read as attributes: t.seat_wins."""
    return SimpleNamespace(**t)


def simulate(params, seats, games, seed=0, trace_rows=0, seat_params=None):
    """`driver.simulate` for Chenghuang, its tallies read as attributes."""
    t, rows = driver.simulate(GAME, params, seats, games, seed, trace_rows, seat_params)
    return tallies(t), rows


# --- scripted strategies ------------------------------------------------------------------------
@strategy
def prefer(kind, obs, legal, params, memory, rng):
    """Play params[kind % 8] when it is legal, else the first legal action. A test sets the
    preferred action per decision kind in the slot's params (kinds 8-15 share the entries of
    kinds 0-7: a test of the vote and after does not meet the draft, and vice versa)."""
    wanted = int(params[kind % 8])
    if 0 <= wanted < legal.size and legal[wanted]:
        return wanted
    for a in range(legal.size):
        if legal[a]:
            return a
    return -1


PREFER = StrategyInfo("prefer", prefer, "the action a test names for a decision kind",
                      params=tuple(StrategyParam(f"kind{i}", -1.0) for i in range(8)))


def bind(st, per_seat_params, trace_rows=200):
    """Seat s plays `prefer` with per_seat_params[s] (a dict decision kind -> action), bound into
    `st` as the driver binds a run's strategies; the state traces into the returned buffer."""
    n = st.players
    wanted = [{f"kind{kind % 8}": action for kind, action in per_seat_params[seat].items()}
              for seat in range(n)]
    driver.bind_lineup(st, driver.Lineup.by_seat(GAME, [PREFER] * n, wanted))
    trace = np.zeros((trace_rows, 6), np.int64)
    driver.attach_trace(st, trace)
    st.trace_rows = 0
    return trace


def test_blank_state_is_the_kernel_state():
    """A position is the kernel's own record: the state type the driver hands the kernel, with
    every declared field at its declared shape (sized for the most players) and every tally."""
    st = position([0, 1, 2])
    assert st.dtype == driver.state_dtype(GAME)
    for field in GAME.state_fields:
        assert st[field.name].shape == field.shape, field.name
    for tally in GAME.all_tallies():
        assert st[tally.name].shape == tally.state_shape(GAME), tally.name
    assert st.players == 3 and st.held.shape == (6, N_KINDS) and st.peek_count.shape == (6, 6, 6)
    assert st.legal.dtype == np.uint8  # the record keeps booleans as bytes


def test_cards_and_lay():
    st = position([0, 1, 2])
    lay(st, 1, up=cards(killing=2, theft=1), down=cards(loyalty=2))
    assert list(st.held[1]) == [2, 0, 0, 2, 0, 1]
    assert st.n_slots[1] == 5 and st.slot_up[1, :5].sum() == 3
    assert list(st.pub_count[1]) == [2, 0, 0, 0, 0, 1]
