"""Hand-built Chenghuang positions and scripted strategies shared by the Chenghuang tests.

The module's own tests check the helpers: a hand-built state has exactly the arrays the kernel
allocates, so a rule tested on one behaves as in the kernel.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.games.base import MAX_STRATEGY_SLOTS, STRATEGY_SIGNATURE
from simulator.games.chenghuang.declaration import KINDS, N_KINDS
from simulator.games.chenghuang.observation import init_observation
from simulator.games.chenghuang.params import ChenghuangParams
from simulator.games.chenghuang.rules import lay_out, recount
from simulator.games.chenghuang.state import M_CAPTAIN, M_REVEALED, M_ROUND, M_VOTED, empty_state

PARAMS = ChenghuangParams(players=5)
TABLE = PARAMS.table()


def cards(**named) -> np.ndarray:
    """A count vector by kind name: cards(loyalty=3, killing=1)."""
    vector = np.zeros(N_KINDS, dtype=np.int64)
    for name, count in named.items():
        vector[KINDS.index(name)] = count
    return vector


def position(roles, params=PARAMS, captain=0):
    """A fresh state for len(roles) players in round 1 with the given roles, nothing dealt."""
    n = len(roles)
    st = empty_state(n)
    st.role[:] = roles
    st.table[:] = params.table()
    st.meta[M_ROUND] = 1
    st.meta[M_CAPTAIN] = captain
    st.meta[M_VOTED] = 0
    st.meta[M_REVEALED] = 0
    init_observation(st.obs, params.table(), np.asarray(params.deck, dtype=np.int64), n,
                     params.rounds)
    return st


def lay(st, seat, up=None, down=None):
    """Lay out a seat's cards by hand: `up` and `down` are count vectors."""
    up = np.zeros(N_KINDS, np.int64) if up is None else up
    down = np.zeros(N_KINDS, np.int64) if down is None else down
    st.held[seat] = up + down
    lay_out(st, st.role.size, seat, down)



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
    recount(st, st.role.size, seat)


# --- scripted strategies ------------------------------------------------------------------------
@njit(STRATEGY_SIGNATURE, cache=True)
def prefer(kind, obs, legal, params, rng):
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


def slots(st, per_seat_params):
    """The strategies giving seat s slot s, playing `prefer` with per_seat_params[s] (a dict
    decision kind -> action): the tuple of functions; the slots and parameters go into `st`."""
    n = st.role.size
    st.slot_table[:] = np.arange(n, dtype=np.int64)[:, None]
    st.slot_params[:] = -1.0
    for seat, wanted in enumerate(per_seat_params):
        for kind, action in wanted.items():
            st.slot_params[seat, kind % 8] = action
    return tuple([prefer] * MAX_STRATEGY_SLOTS)


def test_empty_state_matches_the_kernel_state():
    """The same arrays as the kernel's record, sized for the players at the table (the record is
    sized for the most players; its legal mask is stored as bytes)."""
    from simulator.games.chenghuang.declaration import MAX_PLAYERS
    from simulator.games.chenghuang.state import new_state

    kernel_state = new_state()[0]
    mine = empty_state(MAX_PLAYERS)
    assert list(kernel_state.dtype.names) == list(mine._fields)
    for name in mine._fields:
        ours = getattr(mine, name)
        theirs = kernel_state[name]
        assert ours.shape == theirs.shape, name
        assert ours.dtype == theirs.dtype or (name == "legal" and theirs.dtype == np.uint8), name
    small = empty_state(3)
    assert small.held.shape == (3, N_KINDS) and small.peek_count.shape == (3, 3, N_KINDS)


def test_cards_and_lay():
    st = position([0, 1, 2])
    lay(st, 1, up=cards(killing=2, theft=1), down=cards(loyalty=2))
    assert list(st.held[1]) == [2, 0, 0, 2, 0, 1]
    assert st.n_slots[1] == 5 and st.slot_up[1, :5].sum() == 3
    assert list(st.pub_count[1]) == [2, 0, 0, 0, 0, 1]
