"""What a seat may see, and what it may do: the only bridge from the state to a strategy.

HOOK: an observer per decision (or one for all) with the signature (st, seat, context), and the
legal masks (clear_legal, then allow / forbid / set_legal). The engine writes the decision kind,
the seat and its role; the public pieces are already in the observation (state.alive).
"""

from simulator.games.engine import allow, clear_legal, inlined, shuffle_at, uniform_index

from .declaration import OBS, ROLE
from .state import alive


@inlined
def observe_vote(st, me, context):
    """The round and what `me` privately knows: a spy knows the other spies."""
    (round_number,) = context
    st.obs[OBS.round] = round_number
    spy = st.role[me] == ROLE.spy
    for j in range(st.players):
        st.obs[OBS.known_spy + j] = 1 if spy and st.role[j] == ROLE.spy else 0


@inlined
def legal_vote(st, me):
    """Vote for any other living player."""
    clear_legal(st)
    for j in range(st.players):
        if alive(st)[j] and j != me:
            allow(st, j)


@inlined
def scramble_hidden(st, me, rng):
    """Replace every fact of the state that seat `me` cannot know by another possibility (the
    contract suite poisons the observation's private pieces itself, then checks that `me`'s
    observation does not change): the roles of the living seats it does not know are
    shuffled among them (a spy knows every spy; an eliminated seat's role is shown), this round's
    secret ballots of the others are made up."""
    n = st.players
    unknown = st.tied  # used as scratch: this runs on a copy of the state
    count = 0
    me_spy = st.role[me] == ROLE.spy
    for j in range(n):
        if j != me and alive(st)[j] and not me_spy:
            unknown[count] = j
            count += 1
    shuffle_at(st.role, unknown, count, rng)
    for j in range(n):
        if j != me:
            st.ballots[j] = uniform_index(n, rng)
            st.received[j] = uniform_index(n, rng)
