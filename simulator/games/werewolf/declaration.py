"""The Werewolves in Village (狼人小鎮), declared: roles, decisions, observation, events.

Everything here is data: the kernel, the strategies and the trace decoder read these constants,
and adding a role means adding a row to ROLES (and the rule function that gives it its power).
"""

from __future__ import annotations

import numpy as np

from simulator.games.base import DecisionKind, Item, ObservationLayout, Role, codes

NAME = "werewolf"
TITLE = "The Werewolves in Village (狼人小鎮)"
SOURCE = "shared/seeds/004_85e4f6ba95f96566.txt (2011 house variant of Werewolf / Mafia)"
MIN_PLAYERS = 8  # role players; the moderator is the simulator
MAX_PLAYERS = 23
SCORING = "team"
LENGTH_UNIT = "days"
DEFAULT_CONFIG = "werewolf/base.toml"
PROVISIONAL = ()  # the base game's rulings all come from the rules note
FILLER_ROLE = "villager"  # villagers fill the seats the config's roles leave (fairplay roles)

# --- teams -------------------------------------------------------------------------------------
TEAMS = ("human", "wolf")
TEAM = codes(TEAMS, "Team")
HUMAN, WOLF = TEAM.human, TEAM.wolf

# --- roles (index = role code) -----------------------------------------------------------------
ROLES = (
    Role("villager", "human", "no power", "鎮民"),
    Role("werewolf", "wolf", "knows the other wolves; the pack kills one player each night", "狼人"),
    Role("seer", "human", "each night learns whether one player is a werewolf", "先知"),
)
ROLE = codes(ROLES, "Role")
N_ROLES = len(ROLES)
ROLE_TEAM = np.array([TEAMS.index(r.team) for r in ROLES], dtype=np.int64)

# --- decisions ---------------------------------------------------------------------------------
# Every decision's action is a seat index 0..n-1, or n ("pass": the last entry of the legal mask,
# legal.size - 1) where the decision allows it.

DECISIONS = (
    DecisionKind("wolf_kill", "seat to kill", "the pack (its first living wolf) picks tonight's victim"),
    DecisionKind("seer_check", "seat to check", "the seer picks a living player to learn wolf / not wolf"),
    DecisionKind("claim", "seat to name as a wolf, or PASS",
                 "discussion: a seat may publicly name a player it says is a werewolf (asked only of "
                 "strategies that talk)"),
    DecisionKind("suspect_vote", "seat to suspect", "open suspect vote, clockwise from the victim's right"),
    DecisionKind("sentence_vote", "one of the two suspects", "secret, simultaneous vote to hang a suspect"),
)
DECISION = codes(DECISIONS, "Decision")
MAX_ACTIONS = MAX_PLAYERS + 1  # seats, then "pass"

# --- observation: what one seat knows when it decides -------------------------------------------
UNKNOWN = -1
OBSERVATION = ObservationLayout((
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
    Item("wolves_dead", "all werewolves dead"),
    Item("humans_gone", "humans down to one or none"),
    Item("parity", "wolves equal humans"),
)
END = codes(END_CONDITIONS, "End")
MAX_LENGTH = 24  # days; a game of n players lasts at most about n/2 days

EVENTS = (
    Item("night_kills", "players the werewolves killed at night"),
    Item("seer_killed_at_night", "the seer killed by the werewolves"),
    Item("seer_checks", "players the seer checked"),
    Item("seer_found_wolf", "checks that found a werewolf"),
    Item("wolf_claims", "public claims naming a player a werewolf"),
    Item("true_wolf_claims", "of those, naming a real werewolf"),
    Item("suspect_vote_ties", "suspect votes in which a tie decided a suspect"),
    Item("sentence_ties", "sentence votes decided by the tie rule"),
    Item("hanged_wolf", "werewolves hanged"),
    Item("hanged_human", "humans hanged"),
    Item("hanged_seer", "the seer hanged"),
)
EV = codes(EVENTS, "Event")

# --- trace events (rows of the trace buffer: step, code, actor, target, value, extra) -----------
TRACE_EVENTS = (
    "deal", "night", "seer_check", "wolf_kill", "death", "day", "claim", "suspect_vote",
    "suspects", "sentence_vote", "hanged", "winner",
)
TR = codes(TRACE_EVENTS, "Trace")
CAUSES = ("wolves", "hanged")  # the cause of a death (trace: extra of a death row)
CAUSE = codes(CAUSES, "Cause")
