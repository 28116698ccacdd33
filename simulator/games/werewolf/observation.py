"""What a seat may see: the observation vector and the legal-action mask for each decision.

These two functions are the only bridge from the state to a strategy. The observation holds the
public record (who is alive, the open votes, public claims), the seat's own role and what the seat
has learnt privately (its own known_team row); never another seat's secret.
"""

from numba import njit

from .declaration import OBS


@njit(cache=True, inline="always")
def fill_observation(st, n, me, kind, day, victim, suspect_a, suspect_b, wolves):
    """The observation of seat `me` for a decision. The public pieces (alive, named_wolf,
    claimed_seer, votes) are already in the buffer: the state's public arrays are views of it.
    Only the decision and what `me` privately knows are written here."""
    obs = st.obs
    obs[OBS.kind] = kind
    obs[OBS.me] = me
    obs[OBS.my_role] = st.role[me]
    obs[OBS.players] = n
    obs[OBS.day] = day
    obs[OBS.victim] = victim
    obs[OBS.suspect_a] = suspect_a
    obs[OBS.suspect_b] = suspect_b
    obs[OBS.wolves] = wolves
    for j in range(n):
        obs[OBS.known_team + j] = st.known_team[me, j]
    return obs


@njit(cache=True, inline="always")
def clear_legal(legal):
    for a in range(legal.size):
        legal[a] = False


@njit(cache=True, inline="always")
def legal_living(st, n, exclude):
    """Legal: every living seat except `exclude` (-1 excludes nobody)."""
    legal = st.legal
    clear_legal(legal)
    for j in range(n):
        if st.alive[j] and j != exclude:
            legal[j] = True
    return legal


@njit(cache=True, inline="always")
def legal_claim(st, n, me):
    """Legal in discussion: stay silent (pass = n) or name any other living seat as a werewolf."""
    legal = legal_living(st, n, me)
    legal[n] = True  # pass
    return legal


@njit(cache=True, inline="always")
def legal_pair(st, a, b):
    """Legal in the sentence vote: one of the two suspects."""
    legal = st.legal
    clear_legal(legal)
    legal[a] = True
    legal[b] = True
    return legal
