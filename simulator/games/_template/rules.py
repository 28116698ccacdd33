"""Spot the spy's rules: one small compiled function per rule, each tested on hand-built
positions (tests/test_template_rules.py); the kernel only composes them.

HOOK: your rules. Randomness only through the engine's draws (uniform_index, random_double).
"""

from simulator.games.engine import inlined, shuffle, uniform_index

from .declaration import END, OBS, ROLE, UNKNOWN
from .state import alive


@inlined
def deal(st, rng):
    """Shuffle the deck into the seats (Fisher-Yates) and reset the table."""
    n = st.players
    for i in range(n):
        st.role[i] = st.deck[i]
    shuffle(st.role, n, rng)
    for i in range(n):
        alive(st)[i] = 1
        st.obs[OBS.shown + i] = UNKNOWN
        st.obs[OBS.ballot + i] = UNKNOWN
        st.received[i] = 0


@inlined
def count_votes(st):
    """Tally the round's ballots (secret until now) into `votes` and the game's `received`."""
    n = st.players
    for i in range(n):
        st.votes[i] = 0
    for i in range(n):
        if alive(st)[i]:
            st.votes[st.ballots[i]] += 1
            st.received[st.ballots[i]] += 1


@inlined
def most_voted(st, rng):
    """The seat with the most votes; a tie is broken uniformly at random (provisional ruling).
    Returns (seat, number of seats tied at the top)."""
    n = st.players
    top = -1
    for i in range(n):
        if alive(st)[i] and st.votes[i] > top:
            top = st.votes[i]
    tied = 0
    for i in range(n):
        if alive(st)[i] and st.votes[i] == top:
            st.tied[tied] = i
            tied += 1
    return st.tied[uniform_index(tied, rng)], tied


@inlined
def eliminate(st, seat):
    """The seat is out; its role is shown to everyone."""
    alive(st)[seat] = 0
    st.obs[OBS.shown + seat] = st.role[seat]


@inlined
def publish_ballots(st):
    """With public ballots, everyone sees whom each living seat voted for."""
    for i in range(st.players):
        st.obs[OBS.ballot + i] = st.ballots[i] if st.reveal_votes and alive(st)[i] else UNKNOWN


@inlined
def victory(st):
    """The end condition, or -1 while the game goes on: the town wins when every spy is out, the
    spies when they are as many as the town."""
    spies = 0
    town = 0
    for i in range(st.players):
        if alive(st)[i]:
            if st.role[i] == ROLE.spy:
                spies += 1
            else:
                town += 1
    if spies == 0:
        return END.spies_out
    if spies >= town:
        return END.spies_even
    return -1
