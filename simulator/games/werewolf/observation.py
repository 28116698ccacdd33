"""What a seat may see: the observation vector and the legal-action mask for each decision.

These functions are the only bridge from the state to a strategy. The observation holds the public
record (who is alive, the open votes, public claims: kept in the observation itself, see state.py),
the seat's own role and what the seat has learnt privately (its own known_team row); never another
seat's secret. The engine writes the decision kind, the seat and its role when it asks.
"""

from simulator.games.engine import allow, clear_legal, inlined, uniform_index

from .declaration import OBS, UNKNOWN
from .state import alive


@inlined
def observe(st, me, context):
    """The observation of seat `me` for a decision: the day, the night's victim, the suspects
    (during the sentence vote) and what `me` privately knows of every seat's team.
    `context` is (day, victim, suspect_a, suspect_b)."""
    day, victim, suspect_a, suspect_b = context
    obs = st.obs
    obs[OBS.day] = day
    obs[OBS.victim] = victim
    obs[OBS.suspect_a] = suspect_a
    obs[OBS.suspect_b] = suspect_b
    for j in range(st.players):
        obs[OBS.known_team + j] = st.known_team[me, j]


@inlined
def legal_living(st, n, exclude):
    """Legal: every living seat except `exclude` (-1 excludes nobody)."""
    clear_legal(st)
    living = alive(st)
    for j in range(n):
        if living[j] and j != exclude:
            allow(st, j)


@inlined
def legal_claim(st, n, me):
    """Legal in discussion: stay silent (pass = n) or name any other living seat as a werewolf."""
    legal_living(st, n, me)
    allow(st, n)  # pass


@inlined
def legal_pair(st, a, b):
    """Legal in the sentence vote: one of the two suspects."""
    clear_legal(st)
    allow(st, a)
    allow(st, b)


@inlined
def scramble_hidden(st, me, rng):
    """Replace everything seat `me` cannot know by another possibility (the contract suite checks
    that `me`'s observation does not change): the roles of the seats whose team it does not know
    are shuffled among them, the other seats' private knowledge and the secret sentence ballots
    are made up."""
    n = st.players
    unknown = st.order  # used as scratch: this runs on a copy of the state
    count = 0
    for j in range(n):
        if st.known_team[me, j] == UNKNOWN:
            unknown[count] = j
            count += 1
    for i in range(count - 1, 0, -1):
        k = uniform_index(i + 1, rng)
        a, b = unknown[i], unknown[k]
        st.role[a], st.role[b] = st.role[b], st.role[a]
    for i in range(n):
        if i != me:
            for j in range(n):
                st.known_team[i, j] = uniform_index(3, rng) - 1
        st.sentence[i] = uniform_index(n, rng)
