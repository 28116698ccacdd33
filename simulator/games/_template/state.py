"""Spot the spy's state: the fields the rules read and write. The engine adds its own (each
seat's `role`, the observation, the legal mask, the tallies): see simulator/games/engine.py.

HOOK: one Field per piece of state, sized for MAX_PLAYERS (a state is sized once per game, so
it compiles once). Public pieces may live in the observation itself, as `alive` does here. A
knob declared `state=True` in params.KEYS gets its field from the engine.
"""

import numpy as np

from simulator.games.base import Field
from simulator.games.engine import inlined

from .declaration import MAX_PLAYERS, OBS

FIELDS = (
    Field("deck", np.int64, (MAX_PLAYERS,), "the roles dealt each game (the setup)"),
    Field("votes", np.int64, (MAX_PLAYERS,), "votes received this round (secret until counted)"),
    Field("ballots", np.int64, (MAX_PLAYERS,), "whom each seat voted for this round"),
    Field("received", np.int64, (MAX_PLAYERS,), "votes each seat received this game"),
    Field("tied", np.int64, (MAX_PLAYERS,), "scratch: the seats tied at the top"),
)


@inlined
def alive(st):
    """1 if the seat is alive: public, so it lives in the observation every seat is shown."""
    return st.obs[OBS.alive:OBS.alive + MAX_PLAYERS]
