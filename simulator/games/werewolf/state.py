"""The state of one werewolf game: plain arrays, allocated once per kernel call and reset per game.

Only the kernel and the rule functions see it. Strategies see an observation built from it
(`observation.py`), never the state itself.
"""

from collections import namedtuple

import numpy as np
from numba import njit

from simulator.games.kernel_support import borrowed

from .declaration import MAX_PLAYERS, OBS, UNKNOWN

State = namedtuple("State", [
    "role",          # int64[n]   role code of each seat (secret)
    "alive",         # int64[n]   1 alive, 0 dead (public)                     \  views into
    "known_team",    # int64[n, MAX_PLAYERS]  what seat i knows of seat j's team, or UNKNOWN
    "named_wolf",    # int64[n]   1 if publicly named as a werewolf (public)   |  the public
    "claimed_seer",  # int64[n]   1 if the seat publicly claimed to be the seer|  pieces of
    "votes",         # int64[n]   suspect votes received today (public)        /  `obs`
    "sentence",      # int64[n]   sentence votes received today (secret until counted)
    "obs",           # int64[OBS.size]  observation handed to strategies (read-only to them)
    "legal",         # bool[n + 1]      legal-action mask handed to strategies (read-only to them)
])


@njit(cache=True)
def new_state(n):
    """(state of borrowed views, the arrays that own them): the kernel keeps the owners alive.

    Borrowed views carry no reference count, so passing the state around costs nothing. The
    public record (alive, named_wolf, claimed_seer, votes) lives *in* the observation buffer:
    the rules update it once for everybody, and a decision only writes the deciding seat's own
    part (observation.fill_observation).
    """
    obs = np.full(OBS.size, -1, np.int64)
    owners = (
        obs,
        np.zeros(n, np.int64),
        np.full((n, MAX_PLAYERS), UNKNOWN, np.int64),
        np.zeros(n, np.int64),
        np.zeros(n + 1, np.bool_),  # actions: seats 0..n-1, then n = pass
    )
    state = State(
        role=borrowed(owners[1]),
        alive=borrowed(obs[OBS.alive:OBS.alive + n]),
        known_team=borrowed(owners[2]),
        named_wolf=borrowed(obs[OBS.named_wolf:OBS.named_wolf + n]),
        claimed_seer=borrowed(obs[OBS.claimed_seer:OBS.claimed_seer + n]),
        votes=borrowed(obs[OBS.votes:OBS.votes + n]),
        sentence=borrowed(owners[3]),
        obs=borrowed(obs),
        legal=borrowed(owners[4]),
    )
    return state, owners
