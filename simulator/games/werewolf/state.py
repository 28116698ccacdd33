"""The state of a werewolf game: the fields the rules read and write (the engine adds its own:
each seat's `role`, the observation `obs`, the legal mask, the tallies).

Only the kernel and the rules see the state; a strategy sees the observation built from it
(observation.py), never the state itself.

The public record (who is alive, who was named a werewolf, who claimed the seer, today's open suspect
votes) is kept in the observation itself, in the pieces every seat is shown: the rules update it
once for everybody, and a decision only writes the deciding seat's private part. `alive(st)` and
its siblings are those pieces.
"""

import numpy as np

from simulator.games.base import Field
from simulator.games.engine import inlined

from .declaration import MAX_PLAYERS, OBS

FIELDS = (
    Field("deck", np.int64, (MAX_PLAYERS,), "the roles dealt each game (the setup)"),
    Field("wolves", np.int64, (), "werewolves dealt (the setup is public)"),
    Field("known_team", np.int64, (MAX_PLAYERS, MAX_PLAYERS),
          "what seat i knows of seat j's team, or UNKNOWN"),
    Field("sentence", np.int64, (MAX_PLAYERS,), "sentence votes received today (secret until "
                                                "counted)"),
    Field("order", np.int64, (MAX_PLAYERS,), "today's voting order"),
)


@inlined
def alive(st):
    """1 if the seat is alive (public)."""
    return st.obs[OBS.alive:OBS.alive + MAX_PLAYERS]


@inlined
def named_wolf(st):
    """1 if someone publicly named the seat as a werewolf (public)."""
    return st.obs[OBS.named_wolf:OBS.named_wolf + MAX_PLAYERS]


@inlined
def claimed_seer(st):
    """1 if the seat publicly claimed to be the seer (public)."""
    return st.obs[OBS.claimed_seer:OBS.claimed_seer + MAX_PLAYERS]


@inlined
def votes(st):
    """Suspect votes the seat has received so far today (public: the vote is open)."""
    return st.obs[OBS.votes:OBS.votes + MAX_PLAYERS]
