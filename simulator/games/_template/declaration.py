"""Spot the spy, declared: pure data, read by the engine, the kernel, the strategies, the trace
decoder, the reports and `fairplay games template`.

HOOK: everything here. Every code is a position in a declared tuple: `codes(...)` names them.
"""

from simulator.games.base import (
    DecisionKind, Item, ObservationLayout, Role, TraceEvent, codes, private, public,
)

NAME = "template"
TITLE = "Spot the spy (the template game)"
SOURCE = "simulator/games/_template: an example written for this project"
MIN_PLAYERS = 3
MAX_PLAYERS = 8
SCORING = "team"  # or "individual"
LENGTH_UNIT = "rounds"
DEFAULT_CONFIG = "template/default.toml"

TEAMS = ("town", "spy")
TEAM = codes(TEAMS, "Team")

ROLES = (
    Role("citizen", "town", "votes to find the spies"),
    Role("spy", "spy", "knows the other spies; votes like everyone"),
)
ROLE = codes(ROLES, "Role")

# Every action is a seat number (the player voted for).
DECISIONS = (
    DecisionKind("vote", "seat to eliminate", "secret, simultaneous vote of every living player"),
)
DECISION = codes(DECISIONS, "Decision")
MAX_ACTIONS = MAX_PLAYERS

UNKNOWN = -1
# What a seat may know (kind, me, my_role and players come first in every observation).
OBSERVATION = ObservationLayout((
    public("round", 1, "current round, from 1"),
    public("spies", 1, "spies dealt (the setup is public)"),
    public("alive", MAX_PLAYERS, "1 if the seat is alive"),
    public("shown", MAX_PLAYERS, "role of an eliminated seat (shown when it is out), else -1"),
    private("known_spy", MAX_PLAYERS, "1 if I know the seat is a spy (spies know each other)"),
    public("ballot", MAX_PLAYERS,
           "whom each seat voted for last round, if ballots are public, else -1"),
))
OBS = OBSERVATION.offsets()

END_CONDITIONS = (
    Item("spies_out", "every spy eliminated"),
    Item("spies_even", "spies as many as the town"),
)
END = codes(END_CONDITIONS, "End")
MAX_LENGTH = MAX_PLAYERS  # rounds: one player goes each round

EVENTS = (
    Item("vote_ties", "rounds whose top vote was tied (broken at random)"),
    Item("spies_out", "spies eliminated"),
    Item("citizens_out", "citizens eliminated"),
)
EV = codes(EVENTS, "Event")
# HOOK: one declaration per trace event: the columns it uses (actor, target, value, extra) by
# name, and its line, a format string of those names ({role:role} renders with trace.py's story;
# a sentence that needs logic is the story's tell_<event> instead). Several small numbers share a
# column with `Packed(low=radix, high=None)`, a list with `Digits(name, radix, count)`; the kernel
# packs with the place values of `trace_places(TRACE_EVENTS)`.
TRACE_EVENTS = (
    TraceEvent("deal", "  seat {seat} is dealt {role:role}", actor="seat", value="role"),
    TraceEvent("round", "Round {round}", value="round"),
    TraceEvent("vote", "  seat {voter} votes for seat {suspect}", actor="voter",
               target="suspect"),
    TraceEvent("out", "  seat {seat} is out with {votes} votes: a {role:role}",
               actor="seat", value="role", extra="votes"),
    TraceEvent("winner", "The {team:team} wins: {end:end}.", value="team", extra="end"),
)
TR = codes(TRACE_EVENTS, "Trace")

# Rulings this project made where the rules are silent (docs/rules/template.md gives the why).
PROVISIONAL = (
    "a tied vote is broken uniformly at random among the tied players",
)
