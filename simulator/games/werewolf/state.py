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
    "alive",         # int64[n]   1 alive, 0 dead (public)
    "known_team",    # int64[n, MAX_PLAYERS]  what seat i knows of seat j's team, or UNKNOWN
    "named_wolf",    # int64[n]   1 if publicly named as a werewolf (public)
    "claimed_seer",  # int64[n]   1 if the seat publicly claimed to be the seer (public)
    "votes",         # int64[n]   suspect votes received today (public)
    "sentence",      # int64[n]   sentence votes received today (secret until counted)
    "obs",           # int64[OBS.size]  observation handed to strategies
    "legal",         # bool[n + 1]      legal-action mask the kernel builds and checks against
    "offered",       # bool[n + 1]      the copy of it handed to the strategy (which may scribble)
])


@njit(cache=True)
def new_state(n):
    """(state of borrowed views, the arrays that own them): the kernel keeps the owners alive.

    Borrowed views carry no reference count, so passing the state around costs nothing.
    """
    owners = (
        np.zeros(n, np.int64),
        np.zeros(n, np.int64),
        np.full((n, MAX_PLAYERS), UNKNOWN, np.int64),
        np.zeros(n, np.int64),
        np.zeros(n, np.int64),
        np.zeros(n, np.int64),
        np.zeros(n, np.int64),
        np.full(OBS.size, -1, np.int64),
        np.zeros(n + 1, np.bool_),  # actions: seats 0..n-1, then n = pass
        np.zeros(n + 1, np.bool_),
    )
    state = State(
        borrowed(owners[0]), borrowed(owners[1]), borrowed(owners[2]), borrowed(owners[3]),
        borrowed(owners[4]), borrowed(owners[5]), borrowed(owners[6]), borrowed(owners[7]),
        borrowed(owners[8]), borrowed(owners[9]),
    )
    return state, owners
