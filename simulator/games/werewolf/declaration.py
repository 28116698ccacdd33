"""The Werewolves in Village (狼人小鎮), declared: roles, decisions, observation, events.

Everything here is data: the kernel, the strategies and the trace decoder read these constants,
and adding a role means adding a row to ROLES (and the rule function that gives it its power).
"""

from __future__ import annotations

import numpy as np

from simulator.games.base import DecisionKind, ObservationLayout, Role

NAME = "werewolf"
TITLE = "The Werewolves in Village (狼人小鎮)"
SOURCE = "shared/seeds/004_85e4f6ba95f96566.txt (2011 house variant of Werewolf / Mafia)"
MIN_PLAYERS = 8  # role players; the moderator is the simulator
MAX_PLAYERS = 23

# --- teams -------------------------------------------------------------------------------------
TEAMS = ("human", "wolf")
HUMAN, WOLF = 0, 1

# --- roles (index = role code) -----------------------------------------------------------------
ROLES = (
    Role("villager", "human", "no power", "鎮民"),
    Role("werewolf", "wolf", "knows the other wolves; the pack kills one player each night", "狼人"),
    Role("seer", "human", "each night learns whether one player is a werewolf", "先知"),
)
VILLAGER, WEREWOLF, SEER = 0, 1, 2
N_ROLES = len(ROLES)
ROLE_TEAM = np.array([TEAMS.index(r.team) for r in ROLES], dtype=np.int64)

# --- decisions ---------------------------------------------------------------------------------
# Every decision's action is a seat index 0..n-1, or n ("pass": the last entry of the legal mask,
# legal.size - 1) where the decision allows it.

DECISIONS = (
    DecisionKind(0, "wolf_kill", "seat to kill", "the pack (its first living wolf) picks tonight's victim"),
    DecisionKind(1, "seer_check", "seat to check", "the seer picks a living player to learn wolf / not wolf"),
    DecisionKind(2, "claim", "seat to name as a wolf, or PASS",
                 "discussion: a seat may publicly name a player it says is a werewolf (asked only of "
                 "strategies that talk)"),
    DecisionKind(3, "suspect_vote", "seat to suspect", "open suspect vote, clockwise from the victim's right"),
    DecisionKind(4, "sentence_vote", "one of the two suspects", "secret, simultaneous vote to hang a suspect"),
)
WOLF_KILL, SEER_CHECK, CLAIM, SUSPECT_VOTE, SENTENCE_VOTE = range(5)

# --- observation: what one seat knows when it decides -------------------------------------------
UNKNOWN = -1
OBSERVATION = ObservationLayout((
    ("kind", 1, "decision kind code"),
    ("me", 1, "my seat"),
    ("my_role", 1, "my role code"),
    ("players", 1, "number of role players"),
    ("day", 1, "current day/night number, from 1"),
    ("victim", 1, "seat killed by the wolves last night, or -1"),
    ("suspect_a", 1, "first suspect (footprint) during the sentence vote, else -1"),
    ("suspect_b", 1, "second suspect (fur) during the sentence vote, else -1"),
    ("wolves", 1, "werewolves dealt (the setup is public)"),
    ("alive", MAX_PLAYERS, "1 if the seat is alive"),
    ("known_team", MAX_PLAYERS, "team I know the seat to be on (0 human, 1 wolf) or -1"),
    ("named_wolf", MAX_PLAYERS, "1 if someone publicly named the seat as a werewolf"),
    ("claimed_seer", MAX_PLAYERS, "1 if the seat publicly claimed to be the seer"),
    ("votes", MAX_PLAYERS, "suspect votes the seat has received so far today (open vote)"),
))
OBS = OBSERVATION.offsets()

# --- results -----------------------------------------------------------------------------------
END_CONDITIONS = (
    "all werewolves dead",
    "humans down to one or none",
    "wolves equal humans",
)
END_WOLVES_DEAD, END_HUMANS_GONE, END_PARITY = range(3)
MAX_LENGTH = 24  # days; a game of n players lasts at most about n/2 days

EVENTS = (
    "night_kills",
    "seer_killed_at_night",
    "seer_checks",
    "seer_found_wolf",
    "wolf_claims",
    "true_wolf_claims",
    "suspect_vote_ties",
    "sentence_ties",
    "hanged_wolf",
    "hanged_human",
    "hanged_seer",
)
(EV_NIGHT_KILL, EV_SEER_KILLED, EV_SEER_CHECK, EV_SEER_FOUND, EV_CLAIM, EV_TRUE_CLAIM,
 EV_SUSPECT_TIE, EV_SENTENCE_TIE, EV_HANGED_WOLF, EV_HANGED_HUMAN, EV_HANGED_SEER) = range(len(EVENTS))

# --- trace events (rows of the trace buffer: step, code, actor, target, value, extra) -----------
TRACE_EVENTS = (
    "deal", "night", "seer_check", "wolf_kill", "death", "day", "claim", "suspect_vote",
    "suspects", "sentence_vote", "hanged", "winner",
)
(TR_DEAL, TR_NIGHT, TR_SEER_CHECK, TR_WOLF_KILL, TR_DEATH, TR_DAY, TR_CLAIM, TR_SUSPECT_VOTE,
 TR_SUSPECTS, TR_SENTENCE_VOTE, TR_HANGED, TR_WINNER) = range(len(TRACE_EVENTS))
CAUSE_WOLVES, CAUSE_HANGED = 0, 1
