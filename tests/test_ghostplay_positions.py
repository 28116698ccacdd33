"""Hand-built Ghost Play positions and a scripted strategy shared by the Ghost Play tests.

A position is the kernel's own state (`driver.blank_state`: the same record the kernel plays on)
with the setup written by the game's `setup`, so a rule tested on one behaves as in the kernel.
The module's own tests check the helpers.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from simulator.games import driver
from simulator.games.base import OBS_PLAYERS, StrategyInfo, StrategyParam
from simulator.games.ghostplay import GAME
from simulator.games.ghostplay.declaration import COLOUR, OBS, ROLE, UNKNOWN
from simulator.games.ghostplay.params import default_params
from simulator.games.ghostplay.rules import add_card, possess, reset_table
from strategies.common import strategy

TP, TS, EVIL, KING = ROLE.taiping, ROLE.tianshi, ROLE.evil, ROLE.ghost_king
RED, BLUE = COLOUR.red, COLOUR.blue
PARAMS = default_params(6)


def position(roles, params=None, seed=0):
    """A fresh game for len(roles) players with the given identities: the table reset (4 spirit
    power each, no cards, no ghosts in play, the ghost deck in listed order, nothing revealed),
    the seal from the first ghost-king card."""
    n = len(roles)
    params = params or default_params(n)
    st = driver.blank_state(GAME, n)
    st.n_actions = GAME.actions(params)
    driver.setup_state(GAME, params, st)
    st.obs[OBS_PLAYERS] = n
    reset_table(st)
    st.role[:n] = roles
    st.former[:n] = roles
    st.known[:, :] = UNKNOWN
    for s in range(n):
        st.known[s, s] = roles[s]
    st.pile_size = 0
    st.ghost_order[:st.ghost_size] = np.arange(st.ghost_size)
    st.ghost_next = 0
    st.obs[OBS.deck_left] = st.ghost_size
    st.seal_lives = st.king_seal[0]
    st.first_seat = 0
    return st


def give(st, seat, red=0, blue=0):
    """Seat takes `red` red and `blue` blue vote cards (types 0 and 1 of the default deck)."""
    for _ in range(red):
        add_card(st, seat, 0)
    for _ in range(blue):
        add_card(st, seat, 1)


def ghost(params, colour=None, requirement=None, possess_rule=None):
    """The id of the first ghost card of the default deck with these attributes."""
    for c, card in enumerate(params.ghost_cards()):
        if card.kind != "ghost":
            continue
        if colour is not None and card.colour != colour:
            continue
        if requirement is not None and card.requirement != requirement:
            continue
        if possess_rule is not None and card.possess != possess_rule:
            continue
        return c
    raise LookupError((colour, requirement, possess_rule))


def ghosts(params, **wanted):
    """Every ghost card id of the deck with these attributes."""
    return [c for c, card in enumerate(params.ghost_cards()) if card.kind == "ghost"
            and all(getattr(card, k) == v for k, v in wanted.items())]


def haunt(st, card, seat):
    """Put ghost `card` on `seat` (as a possession does). Returns its slot."""
    return possess(st, card, seat)


def tallies(t: dict) -> SimpleNamespace:
    return SimpleNamespace(**t)


# --- scripted strategies ------------------------------------------------------------------------
@strategy
def prefer(kind, obs, legal, params, memory, rng):
    """Play params[kind] when it is legal, else the first legal action (a test names the action
    per decision kind; -1: the first legal one)."""
    wanted = int(params[kind])
    if 0 <= wanted < legal.size and legal[wanted]:
        return wanted
    for a in range(legal.size):
        if legal[a]:
            return a
    return -1


PREFER = StrategyInfo("prefer", prefer, "the action a test names for a decision kind",
                      params=tuple(StrategyParam(f"kind{i}", -1.0) for i in range(8)))


def bind(st, per_seat, trace_rows=400):
    """Seat s plays `prefer` with per_seat[s] (a dict decision kind -> action), bound into `st`
    as the driver binds a run's strategies; the state traces into the returned buffer."""
    n = st.players
    wanted = [{f"kind{kind}": action for kind, action in per_seat[seat].items()}
              for seat in range(n)]
    driver.bind_lineup(st, driver.Lineup.by_seat(GAME, [PREFER] * n, wanted))
    trace = np.zeros((trace_rows, 6), np.int64)
    driver.attach_trace(st, trace)
    st.trace_rows = 0
    return trace


def test_position_is_the_kernel_state_with_the_default_setup():
    st = position([TP, TS, TP, TS, TP, TS])
    assert st.dtype == driver.state_dtype(GAME)
    assert st.players == 6 and st.ghost_size == 40 and st.taoist_size == 80
    assert list(st.spirit[:6]) == [4] * 6 and st.seal_lives == 3 and st.king == UNKNOWN
    give(st, 2, red=2, blue=1)
    assert list(st.colours[2]) == [2, 1] and st.hand_size[2] == 3
    assert st.obs[OBS.hand_size + 2] == 3
    card = ghost(PARAMS, colour="blue", requirement=4)
    assert PARAMS.ghost_cards()[card].points == 3
    assert haunt(st, card, 5) == 0 and st.possessed[5] == 1 and st.in_play == 1
