"""鬼戏 Ghost Play, declared: identities, cards, decisions, observation, events and trace events.

Everything here is data: the kernel, the rules, the strategies and the trace decoder read these
constants. The decks themselves (the ghost deck card by card, the Taoist deck, the ghost-king
cards) are config data (params.py, configs/ghostplay/): the draft gives their sizes but not their
contents, so they are provisional and a designer edits them. Every code is a position in one
declared tuple (`codes(...)` names them).
"""

from __future__ import annotations

import numpy as np

from simulator.games.base import (
    DecisionKind, Item, Mark, ObservationLayout, Packed, Role, SetupCheck, SetupNeed, TraceEvent,
    TurnOrder, codes, private, public, trace_places,
)

NAME = "ghostplay"
TITLE = "鬼戏 Ghost Play (designer's prototype)"
SOURCE = ("鬼戏 Ghost Play, the designer's rulebook draft of a prototype (it stops in the middle "
          "of its rules); the rules as implemented and this project's rulings: "
          "docs/rules/ghostplay.md")
MIN_PLAYERS = 4
MAX_PLAYERS = 8
SCORING = "team"
LENGTH_UNIT = "turns"
DEFAULT_CONFIG = "ghostplay/default.toml"

# The players' standard (simulator/studies/standard.py, docs/strategies.md): the people-like strategy this
# game's balance is measured with, and the built-in configs it is measured on.
MEASURING_STRATEGY = "people"


def _deck_has(field: str, value: str):
    """A Taoist deck (the run's config) holding a card whose `field` is `value`."""
    def test(config: dict) -> bool:
        deck = config.get("taoist_deck") or {}
        return any(isinstance(card, dict) and card.get(field) == value and card.get("count", 1)
                   for card in deck.values())
    return test


# What makes an event available (`fairplay coverage`): the evil path is dealt at odd counts;
# artifacts, spells and wards come with the deck's cards; the at-once seal is a knob.
COVERAGE_NEEDS = {
    "evil_kings": "evil",
    "artifacts": SetupNeed("an artifact card in the Taoist deck", _deck_has("play", "artifact")),
    "spells": SetupNeed("a spell card in the Taoist deck", _deck_has("play", "spell")),
    "unpossessed": SetupNeed("a ward artifact in the Taoist deck", _deck_has("effect", "ward")),
    "the seal breaks at once (knob)": SetupNeed(
        "rules.seal = \"at-once\"", lambda config: (config.get("rules") or {}).get("seal")
        == "at-once"),
}
# Why good players never bring these about (the coverage standard, docs/strategies.md).
NEVER_USED = {
    "unpossessed": "cannot happen with the artifacts deck: a ghost finds no player only when every "
                   "player is warded, and its 2 peach swords ward at most 2 players",
}
STANDARD_CONFIGS = (
    "ghostplay/players-4.toml",
    "ghostplay/players-5.toml",
    "ghostplay/default.toml",
    "ghostplay/artifacts.toml",
)


# --- setups the game cannot be played with as it intends (refused when a config is loaded) -------
RISE_GHOSTS = 3  # ghosts on one player that raise a ghost king (rule a; rule b needs 7)


def _ghosts(params) -> list:
    """The setup's ghost cards, copies expanded (after the `ghost_mix.requirement_4` knob)."""
    return [card for card in params.ghost_cards() if card.kind == "ghost"]


def _no_ghost(params) -> str:
    if _ghosts(params):
        return ""
    return ("the ghost deck holds no ghost card (only events): nobody is ever possessed, no "
            "exorcism is hosted and no point is scored, so every game would be a draw; add ghost "
            "cards (kind = \"ghost\", the default, with a count above 0)")


def _no_points(params) -> str:
    ghosts = _ghosts(params)
    if any(card.points > 0 for card in ghosts):
        return ""
    return (f"none of the ghost deck's {len(ghosts)} ghosts is worth a point (points = 0): the "
            f"sects would always tie, so every game the ghost king does not win would be a "
            f"draw; give some ghosts points above 0")


def _no_rise(params) -> str:
    ghosts = len(_ghosts(params))
    if ghosts >= RISE_GHOSTS:
        return ""
    return (f"the ghost deck holds {ghosts} ghost(s), and a ghost king rises with {RISE_GHOSTS} "
            f"ghosts on one player: none could rise, so the ghost king and the evil path could "
            f"never win; add ghosts ({RISE_GHOSTS} at least)")


def _seal_out_of_reach(params) -> str:
    ghosts, lowest = len(_ghosts(params)), min(params.seals)
    if lowest <= ghosts:
        return ""
    return (f"every ghost-king card needs {lowest} lives or more, and the ghost deck's {ghosts} "
            f"ghosts give at most {ghosts}: the seal could never break, so the ghost king and "
            f"the evil path could never win; lower ghost_kings.seal to {ghosts} or less, or add "
            f"ghosts")


SETUP_CHECKS = (
    SetupCheck("ghost_deck", "a ghost deck with no ghost card (every game a draw)", _no_ghost),
    SetupCheck("ghost_deck", "ghosts none of which is worth a point (the sects always tie)",
               _no_points),
    SetupCheck("ghost_deck", f"fewer than {RISE_GHOSTS} ghosts (no ghost king could rise)",
               _no_rise),
    SetupCheck("ghost_kings.seal", "a seal on every ghost-king card above the number of ghosts "
               "(it could never break)", _seal_out_of_reach),
)

# --- identities (身份牌) --------------------------------------------------------------------------
TEAMS = ("taiping", "tianshi", "evil")
SYMMETRIC_SEATS = "sects and the evil role are dealt at random and the first player is drawn at random"
TURN_ORDER = TurnOrder("counter-clockwise (to the right)", "drawn at random", random_first=True)
TEAM = codes(TEAMS, "Team")
ROLES = (
    Role("taiping", "taiping", "太平道 sect: its members want more ghost points than Tianshi's",
         "太平道"),
    Role("tianshi", "tianshi", "天师道 sect: its members want more ghost points than Taiping's",
         "天师道"),
    Role("evil", "evil", "邪道 the evil path (odd player counts): wins with the ghost king",
         "邪道"),
    Role("ghost-king", "evil", "鬼王: a possessed player who rose; breaks the seal with enough "
         "lives", "鬼王"),
)
ROLE = codes(ROLES, "Role")
N_ROLES = len(ROLES)
# The identity table of the draft (taiping, tianshi, evil by player count).
IDENTITIES = {4: (2, 2, 0), 5: (2, 2, 1), 6: (3, 3, 0), 7: (3, 3, 1), 8: (4, 4, 0)}

# --- cards ----------------------------------------------------------------------------------------
COLOURS = ("red", "blue")
COLOUR = codes(COLOURS, "Colour")
# Taoist cards (道术牌): every card is red or blue and votes; some can also be played in the day.
PLAYS = ("vote", "artifact", "spell")
PLAY = codes(PLAYS, "Play")
ARTIFACT_EFFECTS = ("ward", "spirit", "draw")  # 法器 in front of its holder
SPELL_EFFECTS = ("spirit", "draw")              # other cards: discarded when the turn ends
EFFECTS = ("none", "ward", "spirit", "draw")    # one code space for both
EFFECT = codes(EFFECTS, "Effect")
# Ghost-deck cards (鬼牌堆): ghosts and events.
CARD_KINDS = ("ghost", "event")
KIND = codes(CARD_KINDS, "Kind")
POSSESSIONS = ("turn-player", "most-spirit", "fewest-cards", "right-neighbour")
POSSESS = codes(POSSESSIONS, "Possess")
EVENT_EFFECTS = ("drain", "gift", "draw", "another")
EVENT = codes(EVENT_EFFECTS, "EventEffect")
# What became of a ghost-deck card (public).
# When a spell may be played (rules.card_windows): the holder's day, or just before or just after
# a haunting (every player's windows).
WINDOWS = ("day", "before the haunting", "after the haunting")
WINDOW = codes(WINDOWS, "Window")
CARD_STATES = ("in-deck", "in-play", "dispelled", "life", "resolved")
CARD_STATE = codes(CARD_STATES, "CardState")

MAX_TYPES = 12          # Taoist card types a deck may list
MAX_TAOIST = 240        # Taoist cards in all
MAX_GHOST_CARDS = 62    # ghost-deck cards (each in-play slot is an action; see PASS)
MAX_KING_CARDS = 16     # ghost-king cards
MAX_REWARD = 8          # reward entries by participants (1..8)

# --- decisions ------------------------------------------------------------------------------------
# One integer per decision. PASS (the last entry of every mask) is "none" / "stop".
MAX_ACTIONS = 63
PASS = MAX_ACTIONS - 1
VOTE_BASE = 7           # vote action = positive * VOTE_BASE + negative
MAX_VOTE = VOTE_BASE - 1  # at most 6 positive and 6 negative cards in one vote
DECISIONS = (
    DecisionKind("buy", "cards to buy (0, 1, 2, ...)",
                 "day: spend spirit power on extra Taoist cards (2 each by default)"),
    DecisionKind("artifact", "Taoist card type to set in front, or PASS",
                 "day: play an artifact 法器 (asked only when holding one)"),
    DecisionKind("spell", "Taoist card type to play, or PASS",
                 "day: play another card whose timing fits (asked while holding one)"),
    DecisionKind("exorcise", "slot of a ghost in play, or PASS",
                 "night: host an exorcism of one ghost in play, or not"),
    DecisionKind("vote", "positive * 7 + negative",
                 "exorcism or summoning: add vote cards face down (positive: the ghost's colour)"),
    DecisionKind("challenge", "seat of a voter, or PASS (stop)",
                 "exorcism: the host challenges one more voter, or stops"),
    DecisionKind("summon", "slot of a ghost in play, or PASS",
                 "night: the ghost king summons a ghost in play (only it votes), or not"),
)
DECISION = codes(DECISIONS, "Decision")

# --- observation: what one seat knows when it decides ---------------------------------------------
# (The standard pieces come first: kind, me, my_role, players; see base.STANDARD_PIECES.)
# Public pieces are written by the rules once for everybody; observers write the private ones.
UNKNOWN = -1
LOG = 8                 # exorcisms kept in the public log (a ring, by sequence number)
LOG_FIELDS = ("seq", "host", "card", "target", "outcome", "positive", "negative")
LF = codes(LOG_FIELDS, "LogField")
LOG_ENTRY = len(LOG_FIELDS) + 2 * MAX_PLAYERS  # then placed[8], shown[8]
OUTCOMES = ("dispelled", "failed", "challenge-failed", "summoned", "summon-failed")
OUTCOME = codes(OUTCOMES, "Outcome")
# shown: what a challenge showed of a voter's cards
SHOWN = ("all-positive", "had-negative")
_P, _G, _T = MAX_PLAYERS, MAX_GHOST_CARDS, MAX_TYPES
OBSERVATION = ObservationLayout((
    # the run's constants (the decks are public knowledge)
    public("ghost_cards", 1, "ghost-deck cards in the game"),
    public("card_kind", _G, "each ghost-deck card's kind (KIND), by card id"),
    public("card_colour", _G, "each ghost's colour (COLOUR): its positive votes"),
    public("card_requirement", _G,
           "each ghost's requirement: net positive vote value to dispel it"),
    public("card_points", _G, "each ghost's points"),
    public("types", 1, "Taoist card types"),
    public("type_colour", _T, "each Taoist card type's colour"),
    public("type_value", _T, "each type's vote value"),
    public("type_play", _T, "each type's use in the day (PLAY)"),
    public("type_effect", _T, "each type's effect (EFFECT)"),
    public("type_amount", _T, "each type's effect amount"),
    public("card_cost", 1, "spirit power per extra Taoist card"),
    public("evil_dealt", 1, "evil identities dealt (the draft's table by player count: public)"),
    # the game so far (public)
    public("turn", 1, "current turn, from 1"),
    public("turn_player", 1, "whose turn it is"),
    public("deck_left", 1, "ghost-deck cards not yet revealed"),
    public("king", 1, "the ghost king's seat (public), or -1"),
    public("seal", 1, "lives that break the seal (the candidate ghost-king card)"),
    public("lives", 1, "the ghost king's lives"),
    public("spirit", _P, "each seat's spirit power"),
    public("hand_size", _P, "cards in each seat's hand"),
    public("possessed", _P, "ghosts possessing each seat"),
    public("points", _P, "ghost points in front of each seat"),
    public("artifact", _P, "the artifact type in front of each seat, or -1"),
    public("card_state", _G, "what became of each ghost-deck card (CARD_STATE)"),
    public("in_play", 1, "ghosts in play"),
    public("slot_card", _G, "the card id of each ghost in play, by slot (arrival order)"),
    public("slot_target", _G, "the seat each ghost in play possesses, by slot"),
    public("card_window", 1,
           "when a spell decision is asked: 0 the holder's day, 1 just before the haunting, 2 "
           "just after it (rules.card_windows)"),
    # the exorcism or summoning under way
    public("ex_seq", 1, "exorcisms and summonings so far this game (this one included)"),
    public("ex_host", 1, "its host, or -1"),
    public("ex_slot", 1, "the slot of its ghost"),
    public("ex_card", 1, "the card id of its ghost"),
    public("placed", _P, "cards each seat placed face down in it (-1: not voted yet)"),
    public("shown_positive", _P, "a challenged voter's positive cards (-1: not shown)"),
    public("shown_negative", _P, "a challenged voter's negative cards (-1: not shown)"),
    # the public log of the last LOG exorcisms and summonings, a ring by sequence number
    public("log", LOG * LOG_ENTRY,
           "per entry: seq, host, card, target, outcome (OUTCOME), positive and negative vote "
           "value counted (-1 when a challenge failed it), then placed[8] and shown[8] (-1 not "
           "challenged, 0 all positive, 1 had a negative)"),
    # private
    private("hand", _T, "my cards by Taoist card type"),
    private("colours", 2, "my cards by colour (red, blue)"),
    private("known", _P, "identities I know: mine, the ghost king's, those I looked at (else -1)"),
))
OBS = OBSERVATION.offsets()

# --- results --------------------------------------------------------------------------------------
END_CONDITIONS = (
    Item("seal", "the seal breaks when the game ends"),
    Item("seal_at_once", "the seal breaks at once (knob)"),
    Item("points", "a sect holds more ghost points"),
    Item("tie", "the sects tie on ghost points: a draw"),
)
END = codes(END_CONDITIONS, "End")
MAX_LENGTH = 72  # turns: one ghost-deck card or more each turn, plus the last round (knob)

EVENTS = (
    Item("turns", "turns played"),
    Item("possessions", "ghosts that possessed a player"),
    Item("unpossessed", "ghosts that found no eligible player (every player warded)"),
    Item("event_cards", "event cards resolved"),
    Item("exorcisms", "exorcisms hosted"),
    Item("exorcisms_won", "of those, the ghost dispelled"),
    Item("exorcisms_challenged", "exorcisms with at least one challenge"),
    Item("challenged_won", "of those, the ghost dispelled"),
    Item("challenges", "voters challenged"),
    Item("challenges_caught", "challenged voters who had a negative vote (their votes discarded)"),
    Item("challenges_backfired", "challenged voters who had only positive votes (the exorcism "
                                 "failed)"),
    Item("summonings", "summonings by the ghost king"),
    Item("summonings_won", "of those, the ghost became a life"),
    Item("rises", "ghost kings risen"),
    Item("rise_by_three", "risen by rule (a): possessed by 3 ghosts"),
    Item("rise_by_seventh", "risen by rule (b): a 7th ghost in play"),
    Item("rises_prevented", "rises prevented by a dispel in the turn (either rule)"),
    Item("seal_breaks", "games in which the seal broke"),
    Item("evil_kings", "ghost kings risen from the evil path"),
    Item("artifacts", "artifacts set in front of a player"),
    Item("spells", "other cards played in the day"),
    Item("cards_bought", "Taoist cards bought with spirit power"),
    Item("reshuffles", "discard piles shuffled into a new Taoist draw pile"),
)
EV = codes(EVENTS, "Event")

# --- caps (engine.within_cap): bounds the rules give, derived in params.turn_cap and
# params.decision_cap, so that a loop the rules fail to end stops the run instead of hanging it
CAPS = (
    Item("turns", "turns in a game"),
    Item("decisions", "decisions in one turn"),
)
CAP = codes(CAPS, "Cap")

# --- trace events (rows: step = turn, code, actor, target, value, extra) -------------------------
# {card:ghost} names a ghost card, {type:type} a Taoist card type, {role:identity} an identity;
# trace.py tells the sentences that need logic. The table marks: each seat's identity (a rise
# changes it, for all to see), the ghosts possessing it, its artifact, its points and lives (the
# dispelled or summoned ghost named), and the identities its looks showed it.
E, M = TraceEvent, Mark
TRACE_EVENTS = (
    E("identity", "setup: seat {seat} is dealt {role:identity}",
      actor="seat", value="role", private=True, table=(M("role", "seat", "{role:identity}"),)),
    E("king_card", value="card", extra="seal"),
    E("first", "setup: seat {seat} is the first player", actor="seat"),
    E("turn", actor="seat", value="turn", extra="king"),
    E("draw", actor="seat", value="drawn", extra="gained"),  # gained: the artifact's spirit power
    E("buy", actor="seat", value="bought", extra="spirit"),
    E("artifact", actor="seat", value="type", extra="replaced",
      table=(M("taken", "seat", "{replaced:type}"),  # (none replaced: -1, nothing taken)
             M("front", "seat", "{type:type}"))),
    E("spell", actor="seat", value="type", extra="window"),
    E("reveal", "  haunting: seat {seat} reveals {card:ghost} ({left} left in the ghost deck)",
      actor="seat", value="card", extra="left"),
    E("possess", "  haunting: {card:ghost} possesses seat {seat}: {on_seat} ghost(s) on it, "
                 "{in_play} in play",
      actor="seat", target="player", value="card", extra=Packed(in_play=64, on_seat=None),
      table=(M("front", "seat", "possessed by {card:ghost_name}"),)),
    E("unpossessed", "  haunting: {card:ghost} finds no eligible player and is set aside",
      actor="player", value="card"),
    E("event", "  event resolved: {card:ghost} [{effect:effect}]",
      actor="player", value="card", extra="effect"),
    E("exorcise", "  exorcism: seat {host} hosts the exorcism of {card:ghost} on seat {seat}",
      actor="host", target="seat", value="card", extra="slot"),
    E("summon", "  summoning: the ghost king (seat {host}) summons {card:ghost} on seat {seat}",
      actor="host", target="seat", value="card", extra="slot"),
    E("vote", "    vote: seat {voter} places {placed} card(s) face down",
      actor="voter", target="host", value="placed"),
    E("challenge", actor="host", target="voter", value="positive", extra="negative"),
    E("shown", actor="voter", target="host", value=Packed(negative=256, positive=None),
      extra="how"),
    E("count", actor="host", value=Packed(negative=256, positive=None),
      extra=Packed(won=2, requirement=None)),
    E("dispel", "    dispelled: {card:ghost} leaves seat {seat}; it goes face down in front of "
                "seat {host} as points ({points} in all)",
      actor="host", target="seat", value="card", extra="points",
      table=(M("taken", "seat", "possessed by {card:ghost_name}"),
             M("front", "host", "points: {card:ghost_name}, face down"))),
    E("life", "    summoned: {card:ghost} leaves seat {seat} and becomes a life of the ghost king "
              "({lives} lives)", actor="host", target="seat", value="card", extra="lives",
      table=(M("taken", "seat", "possessed by {card:ghost_name}"),
             M("front", "host", "life: {card:ghost_name}"))),
    E("reward", "    reward: seat {seat} gets {amount} spirit power ({participants} "
                "participant(s))",
      actor="seat", target="host", value="amount", extra="participants"),
    E("look", actor="host", target="seat", value="role", extra="public",
      table=(M("learns", "host", "seat {seat} is {role:identity}{public:seen_by}"),)),
    # seventh: the 7th ghost's card + 1 (0: rule (a))
    E("rise", actor="seat", target="player", value="role",
      extra=Packed(ghosts=64, rule=64, seventh=None),
      table=(M("role", "seat", "鬼王 ghost-king, was {role:identity}"),)),
    E("prevented", "  a dispel this turn prevented {rises} rise(s) of a ghost king",
      actor="player", value="rises"),
    E("seal", "  the seal breaks: the ghost king (seat {king}) holds {lives} lives, the seal "
              "needs {seal}", actor="king", value="lives", extra="seal"),
    # the seal broken: evil, END code, lives, seal; else the winning team (-1: a tie), END code,
    # taiping's and tianshi's ghost points
    E("end", actor="team", target="end", value="taiping", extra="tianshi"),
    # the row names no ghost it moves: a life it makes is told as one of the king's own ghosts
    E("risen_ghosts", actor="seat", target="to_lives", value="moved", extra="lives",
      table=(M("clear", "seat", "possessed by "),
             M("front", "seat", "{to_lives:risen_life}", times="moved"))),
    E("drawn", "    seat {seat} draws {drawn} x {type:type}: {held} of them in hand",
      actor="seat", target="type", value="drawn", extra="held", private=True),
    E("reshuffle", "  reshuffle: the discards are shuffled into a new draw pile ({times} "
                   "time(s))", value="times"),
    E("piles", "  Taoist cards: {pile} in the draw pile, {discarded} discarded",
      value="pile", extra="discarded"),
    E("declined", actor="seat", target="decision", value="window"),
    E("vote_cards", "    seat {seat} places {placed} x {type:type}: {left} of them left in hand",
      actor="seat", target="type", value="placed", extra="left", private=True),
    E("seat_at_end", actor="seat", target="artifact", value="spirit",
      extra=Packed(cards=1000, ghosts=1000, points=None)),
    E("turn_end", "== end of turn {turn}: {in_play} ghost(s) in play, {pile} in the draw pile, "
                  "{discards} discarded, {left} left in the ghost deck, {lives} lives ==",
      actor="in_play", target="lives", value=Packed(discards=1000, pile=None),
      extra=Packed(left=1000, turn=None)),
    E("spent", "  the turn ends: the {spent} other card(s) played in it are discarded",
      value="spent"),
)
TR = codes(TRACE_EVENTS, "Trace")
PACKED = trace_places(TRACE_EVENTS)  # the place values the kernel packs with
RISE_RULES = ("three", "seventh")
RISE = codes(RISE_RULES, "Rise")

# The options of the rule knobs (params.KEYS; the state holds the option's code).
REWARDS = ("each", "pool")  # rules.reward
REWARD = codes(REWARDS, "Reward")
SEAL_RULES = ("at-end", "at-once")  # rules.seal
SEAL = codes(SEAL_RULES, "Seal")
END_RULES = ("deck-empty", "round")  # rules.end
END_RULE = codes(END_RULES, "EndRule")
SECOND_ARTIFACT_RULES = ("replaces", "refused")  # rules.second_artifact
SECOND_ARTIFACT = codes(SECOND_ARTIFACT_RULES, "SecondArtifact")
HOST_GHOSTS_RULES = ("any", "not-own")  # rules.host_ghosts
HOST_GHOSTS = codes(HOST_GHOSTS_RULES, "HostGhosts")
TIE_RULES = ("from-turn-player", "random")  # rules.ties
TIES = codes(TIE_RULES, "Ties")
INELIGIBLE_RULES = ("next-right", "set-aside")  # rules.ineligible
INELIGIBLE = codes(INELIGIBLE_RULES, "Ineligible")
KING_DRAW_TIMES = ("night-start", "after-haunting")  # rules.king_draw_at
KING_DRAW_AT = codes(KING_DRAW_TIMES, "KingDrawAt")
RISE_ORDERS = ("a-first", "b-first")  # rules.rise_order
RISE_ORDER = codes(RISE_ORDERS, "RiseOrder")
THIRD_RULES = ("three-or-more", "exactly-three")  # rules.third
THIRD = codes(THIRD_RULES, "Third")
SEVENTH_RULES = ("in-play", "revealed")  # rules.seventh
SEVENTH = codes(SEVENTH_RULES, "Seventh")
PARTICIPANT_RULES = ("counted", "placed")  # rules.participants
PARTICIPANTS = codes(PARTICIPANT_RULES, "Participants")
LOOK_RULES = ("success", "always")  # rules.look
LOOK = codes(LOOK_RULES, "Look")
LOOK_AUDIENCES = ("host", "everyone")  # rules.look_seen_by
LOOK_SEEN_BY = codes(LOOK_AUDIENCES, "LookSeenBy")
RISEN_GHOST_RULES = ("stay", "lives", "discarded")  # rules.risen_ghosts
RISEN_GHOSTS = codes(RISEN_GHOST_RULES, "RisenGhosts")
DAY_ORDERS = ("buy-first", "cards-first")  # rules.day_order
DAY_ORDER = codes(DAY_ORDERS, "DayOrder")
CARD_WINDOW_RULES = ("own-day", "every-window")  # rules.card_windows
CARD_WINDOWS = codes(CARD_WINDOW_RULES, "CardWindows")
KING_POINT_RULES = ("no-sect", "former-sect")  # rules.king_points
KING_POINTS = codes(KING_POINT_RULES, "KingPoints")

# Rulings this project made where the draft and the rules note are silent, or that the rules note
# marks provisional (docs/rules/ghostplay.md gives the why and the covering tests). The decks, the
# events, the seal value and the end rule are config data: params.py, configs/ghostplay/.
PROVISIONAL = (
    "the ghost deck is config data (key ghost_deck): by default 32 ghosts (16 red, 16 blue; "
    "requirement 2 x11, 3 x11, 4 x10; points = requirement - 1; each possession rule x8) and 8 "
    "events (4 x every player loses 1 spirit power, 4 x reveal one more card)",
    "the Taoist deck is config data (key taoist_deck): by default 40 red and 40 blue vote cards of "
    "value 1; no artifacts or other cards (the format allows them)",
    "a ghost's requirement is the net positive vote value needed; a vote card is positive if its "
    "colour is the ghost's colour (card data: each card's colour, value and requirement)",
    "a ghost's reward: spirit power to each participant, 2 with at most 2 participants, else 1 "
    "(card data; knob rules.reward: a pool split among them)",
    "the ghost-king cards are config data: each sets the seal at 3 lives by default (key "
    "ghost_kings.seal)",
    "the seal breaks when the game ends if the ghost king holds that many lives, and the ghost "
    "king and the evil path win (knob rules.seal: at once)",
    "the game ends when the ghost deck is empty and the turn ends (knob rules.end: at the end of "
    "that round)",
    "the sects want their members to hold more ghost points than the other sect's; a tie is a "
    "draw; the evil player's and the ghost king's points count for no sect (knob "
    "rules.king_points: the ghost king's count for its dealt sect)",
    "no dice and no skills (the draft names them but never defines them); the 3 unused identity "
    "cards play no part (no knob: there is nothing defined to switch on)",
    "turns and votes go the same way round: seat s, then s + 1 (no knob: the rules note binds "
    "one direction)",
    "the day's steps come in one order: buy cards, set an artifact, play other cards (knob "
    "rules.day_order); special cards are played only in their holder's day (knob "
    "rules.card_windows: also by every player before and after each haunting)",
    "the ghost king draws its Taoist card at the start of its night (knob rules.king_draw_at), "
    "then reveals a ghost-deck card like any turn player (knob rules.king_reveals), and may "
    "summon",
    "an event resolves at once; 'reveal one more card' on an empty ghost deck does nothing (no "
    "knob: there is no card to reveal)",
    "possession ties (most spirit power, fewest cards): the tied player met first going right "
    "from the turn player, the turn player first (knob rules.ties: at random)",
    "no new ghost possesses the ghost king (or a warded player): it goes to the next eligible "
    "player to the right (knob rules.ineligible: it is set aside); with none eligible it is set "
    "aside",
    "at most one exorcism per turn (knob rules.exorcisms_per_turn); the host picks any ghost in "
    "play, on any player including itself (knob rules.host_ghosts)",
    "a vote is at most 6 positive and 6 negative cards (the decision's encoding; knob "
    "rules.vote_limit lowers it); a vote's cards of a colour are taken in the Taoist deck's "
    "listed order of card types (no knob: the vote decision names counts by colour)",
    "the host may not challenge itself nor a voter who placed no card; after the challenges the "
    "votes still on the table are shuffled and counted; after a failing challenge the votes not "
    "shown are discarded unseen (no knob: see docs/rules/ghostplay.md)",
    "participants are the players whose vote cards were counted, the host always included (knob "
    "rules.participants: every player who placed cards)",
    "the reward and the identity look follow a success only (knobs rules.failure_reward, "
    "rules.look); the look is private to the host (knob rules.look_seen_by)",
    "a summoning follows the exorcism's steps: only the ghost king votes, nobody challenges, a "
    "success pays the ghost's reward (knob rules.summon_reward) and gives a life, nobody looks",
    "the ghost king's rise is checked at the end of the turn, before the end of the game; at most "
    "one ghost king a game; rule (a) before rule (b) (knob rules.rise_order)",
    "rule (a): an arrival that brings a player to 3 or more ghosts (knob rules.third); several "
    "such players: the first going right from the turn player (knob rules.ties)",
    "rule (b): the 7th ghost is the first arrival of the turn that brings the ghosts on players to "
    "7 or more (knob rules.seventh); a tie for most ghosts goes to the first going right from the "
    "turn player (knob rules.ties)",
    "the new ghost king keeps its hand, spirit power, artifact and points; its ghosts stay and may "
    "be exorcised by others or summoned by it (knob rules.risen_ghosts)",
    "possession has no effect beyond the rise rules and the look (knob rules.possession_penalty: "
    "the draw penalty)",
    "no hand limit (no knob: a limit needs a discard decision the draft does not describe); a "
    "second artifact replaces the first (knob rules.second_artifact: it cannot be played)",
    "another card (a spell) stays in front of its player until the turn ends, then is "
    "discarded, so no reshuffle brings it back in the turn it was played (no knob: discarded at "
    "once, two cards that draw could be played in turn for ever)",
    "when the Taoist draw pile runs out with no discards to shuffle, the next draw takes the "
    "discards there are then; with no card anywhere, no card is drawn (no knob: there is no card "
    "to draw)",
)

# The constants of the tables above, for compiled code.
IDENTITY_TABLE = np.array([[0, 0, 0]] * (MAX_PLAYERS + 1), dtype=np.int64)
for _n, _counts in IDENTITIES.items():
    IDENTITY_TABLE[_n] = _counts
