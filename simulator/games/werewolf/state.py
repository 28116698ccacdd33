"""The state of a werewolf game: the fields the rules read and write (the engine adds its own:
each seat's `role`, the observation `obs`, the legal mask, the tallies).

Only the kernel and the rules see the state; a strategy sees the observation built from it
(observation.py), never the state itself.

The public record (who is alive, the mayor, claims, today's open votes, the last sentence ballots)
is kept in the observation itself, in the pieces every seat is shown: the rules update it once for
everybody, and a decision only writes the deciding seat's private part. `alive(st)` and its
siblings are those pieces.
"""

import numpy as np

from simulator.games.base import Field
from simulator.games.engine import inlined

from .declaration import MAX_PLAYERS, N_ROLES, OBS

FIELDS = (
    # the setup (the knobs declared `state=True` in params.KEYS are added by the engine)
    Field("deck", np.int64, (MAX_PLAYERS,), "the roles dealt each game (the setup)"),
    Field("wolves", np.int64, (), "werewolves dealt (the setup is public)"),
    Field("deck_dealt", np.int64, (MAX_PLAYERS,), "each seat's role as dealt (a paranoid's "
                                                  "changes): the role tallies count it"),
    Field("role_camp", np.int64, (N_ROLES,), "the camp each role counts for in the victory rules"),
    Field("in_play", np.int64, (N_ROLES,), "seats holding each role this game, living or dead "
                                           "(a phase whose role is not in play is skipped)"),
    # what each seat knows
    Field("known", np.int64, (MAX_PLAYERS, MAX_PLAYERS),
          "what seat i knows of seat j: a role code, NOT_WOLF, HUMAN_SIDE, WOLF_SIDE or UNKNOWN"),
    # night
    Field("lover", np.int64, (MAX_PLAYERS,), "each seat's lover, or -1"),
    Field("cupid", np.int64, (), "the seat that linked the lovers (it knows them), or -1"),
    Field("charmed", np.int64, (MAX_PLAYERS,), "1 if the seat is charmed"),
    Field("charmed_bits", np.int64, (), "the charmed seats as bits (what the charmed see)"),
    Field("shielded", np.int64, (MAX_PLAYERS,), "1 if a bodyguard protects the seat tonight"),
    Field("last_protected", np.int64, (MAX_PLAYERS,),
          "the player each bodyguard protected the night before, or -1"),
    Field("save_left", np.int64, (MAX_PLAYERS,), "1 while the seat (a witch) keeps her revival"),
    Field("poison_left", np.int64, (MAX_PLAYERS,), "1 while the seat (a witch) keeps her poison"),
    Field("owl_target", np.int64, (), "the owl man's suspect for the coming day, or -1"),
    Field("marked", np.int64, (MAX_PLAYERS,), "1 if a death god marked the seat for the day"),
    Field("night_death", np.int64, (MAX_PLAYERS,),
          "the cause the seat dies of at daybreak, or -1"),
    Field("joins_pack", np.int64, (), "a seat that becomes a werewolf and meets the pack at the "
                                      "next night, or -1"),
    # deaths and what they set off
    Field("queue", np.int64, (MAX_PLAYERS,), "the deaths whose consequences are still to settle"),
    Field("queued", np.int64, (), "deaths in the queue"),
    Field("settled", np.int64, (), "deaths of the queue already settled"),
    Field("cause", np.int64, (MAX_PLAYERS,), "each dead seat's cause of death, or -1"),
    # day
    Field("sentence", np.int64, (MAX_PLAYERS,), "sentence votes received today (secret until "
                                                "counted)"),
    Field("order", np.int64, (MAX_PLAYERS,), "today's voting order"),
    Field("tie_rank", np.int64, (MAX_PLAYERS,), "each seat's place in today's ties when they are "
                                                "drawn at random (0 first)"),
    Field("scratch", np.int64, (MAX_PLAYERS,), "working space for one rule"),
)


@inlined
def alive(st):
    """1 if the seat is alive (public)."""
    return st.obs[OBS.alive:OBS.alive + MAX_PLAYERS]


@inlined
def revealed(st):
    """The role each seat has shown publicly, or -1."""
    return st.obs[OBS.revealed:OBS.revealed + MAX_PLAYERS]


@inlined
def claimed(st):
    """The role each seat has publicly claimed (seer or medium), or -1."""
    return st.obs[OBS.claimed:OBS.claimed + MAX_PLAYERS]


@inlined
def named_wolf(st):
    """Public claims that the seat is a werewolf."""
    return st.obs[OBS.named_wolf:OBS.named_wolf + MAX_PLAYERS]


@inlined
def named_clear(st):
    """Public claims that the seat is not a werewolf."""
    return st.obs[OBS.named_clear:OBS.named_clear + MAX_PLAYERS]


@inlined
def said(st):
    """said[c * MAX_PLAYERS + s]: 1 if c claimed s is a werewolf, 0 if not, -1 if nothing."""
    return st.obs[OBS.said:OBS.said + MAX_PLAYERS * MAX_PLAYERS]


@inlined
def votes(st):
    """Suspect votes the seat has received so far today (public: the vote is open)."""
    return st.obs[OBS.votes:OBS.votes + MAX_PLAYERS]


@inlined
def voted(st):
    """Whom the seat gave its suspect vote today, or -1 (public)."""
    return st.obs[OBS.voted:OBS.voted + MAX_PLAYERS]


@inlined
def ballot(st):
    """Whom the seat chose at the last sentence vote, or -1 (public once opened)."""
    return st.obs[OBS.ballot:OBS.ballot + MAX_PLAYERS]


@inlined
def mayor_seat(st):
    return st.obs[OBS.mayor]


@inlined
def set_mayor(st, seat):
    st.obs[OBS.mayor] = seat
