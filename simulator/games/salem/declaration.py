"""Salem 1692 (獵巫鎮), declared: cards, characters, roles, decisions, observation, events.

Everything here is data. The kernel, the rules, the strategies and the trace decoder read these
constants; every code is a position in one declared tuple (`codes(...)` names them), so nothing is
numbered twice.

A seat's engine *role* is its character and its team together (`role = character + CHARACTERS *
team`): a seat that joins the witches at a Conspiracy moves from `tituba/town` to `tituba/witch`,
so the role tallies give each character's win rate by its holder's final team, and a config can
name strategies by team (`town`, `witch`), by role or by seat.
"""

from __future__ import annotations

import numpy as np

from simulator.games.base import (
    DecisionKind, Digits, Item, Mark, ObservationLayout, Packed, Role, SetupCheck, TraceEvent,
    TurnOrder, codes, private, public, trace_places,
)

NAME = "salem"
TITLE = "Salem 1692 (獵巫鎮)"
SOURCE = ("Salem 1692, Facade Games 2015, designer Travis Hancock (from a player's summary of its "
          "rules); the rules as implemented and this project's rulings: docs/rules/salem.md")
MIN_PLAYERS = 4
MAX_PLAYERS = 12
SCORING = "team"
LENGTH_UNIT = "turns"
DEFAULT_CONFIG = "salem/default.toml"

# The players' standard (simulator/studies/standard.py, docs/strategies.md): the people-like strategy this
# game's balance is measured with, and the built-in configs it is measured on.
MEASURING_STRATEGY = "people"
# Why good players never bring these about (the coverage standard, docs/strategies.md).
NEVER_USED = {
    "no winner after 2000 turns": "a safety stop against an endless game, not a rule of the "
                                  "game: no game of the standard setups comes near it",
}
STANDARD_CONFIGS = (
    "salem/draft-5.toml",
    "salem/default.toml",
    "salem/players-12.toml",
    "salem/extra-witch.toml",
)
MAX_TRYALS = 10          # tryals a player may be dealt (the state is sized for it)
MAX_TRYAL_CARDS = MAX_PLAYERS * MAX_TRYALS
MAX_DECK = 128           # playing cards a config's deck may hold
MAX_TURNS = 2000         # a game still going after this many turns ends without a winner
LOG_LEN = 64             # public events the observation's log keeps (a ring)

# --- teams and tryals ---------------------------------------------------------------------------
TEAMS = ("town", "witch")
SYMMETRIC_SEATS = ("characters and tryals are dealt at random; the first player is whoever the "
                   "witches give the Black Cat")
TURN_ORDER = TurnOrder("clockwise", "the Black Cat's holder (the witches place it)", random_first=False,
                       confound="the first player holds the Black Cat, which the witches chose "
                                "to give them")
TEAM = codes(TEAMS, "Team")
TOWN, WITCH = TEAM.town, TEAM.witch

TRYALS = ("not_a_witch", "witch", "constable")
TRYAL = codes(TRYALS, "Tryal")
TRYAL_LABELS = ("Not a Witch", "Witch", "Constable")
N_TRYAL_KINDS = len(TRYALS)

# --- playing cards (index = card code) ----------------------------------------------------------
CARDS = ("accusation", "evidence", "witness", "alibi", "stocks", "scapegoat", "arson", "robbery",
         "curse", "asylum", "piety", "matchmaker", "black_cat", "night", "conspiracy")
CARD = codes(CARDS, "Card")
N_CARDS = len(CARDS)
CARD_LABELS = ("Accusation", "Evidence", "Witness", "Alibi 辯護", "Stocks 拘留", "Scapegoat 嫁禍",
               "Arson 縱火", "Robbery 搶劫", "Curse 詛咒", "Asylum 避難", "Piety 信徒",
               "Matchmaker 情侶", "Black Cat 黑貓", "Night 夜晚", "Conspiracy 傳染")
COLOURS = ("red", "green", "blue", "black")
COLOUR = codes(COLOURS, "Colour")
CARD_COLOUR = np.array([COLOUR.red] * 3 + [COLOUR.green] * 6 + [COLOUR.blue] * 4
                       + [COLOUR.black] * 2, dtype=np.int64)
# Will Griggs's Alibi played as a Witness lies in front of its target as a red card worth 7 (it
# goes to the discard pile as the Alibi it is): a kind of its own in front of a player, and an
# action of its own in the `play` decision.
ALIBI_WITNESS = N_CARDS
N_FRONT = N_CARDS + 1
FRONT_LABELS = CARD_LABELS + ("Alibi as a Witness",)
# Accusations a red card is worth (Evidence on Cotton Mather: 1).
RED_VALUE = np.array([1, 3, 7] + [0] * (N_FRONT - 4) + [7], dtype=np.int64)
HAND_KINDS = CARD.black_cat + 1   # kinds a hand can hold (black cards take effect when drawn)

# --- characters (index = character code) --------------------------------------------------------
CHARACTERS = ("abigail-williams", "ann-putnam", "cotton-mather", "george-burroughs",
              "giles-corey", "john-proctor", "martha-corey", "mary-warren", "rebecca-nurse",
              "samuel-parris", "sarah-good", "thomas-danforth", "tituba", "will-griggs",
              "william-phips")
CHAR = codes(CHARACTERS, "Character")
N_CHARACTERS = len(CHARACTERS)
CHARACTER_TEXT = (
    "after she places a final accusation that causes a reveal, may discard all accusations in "
    "front of herself",
    "draws 2 cards for each tryal she reveals by her own accusation on her turn",
    "Evidence in front of him counts as 1 accusation",
    "needs 8 accusations, not 7, before a reveal",
    "if both cards he draws on his turn are red, he shows them and draws a third",
    "when another player is eliminated, takes up to 3 cards from that player's hand",
    "has the ability of the nearest living player to her right",
    "immune to the bad effects of Matchmaker and Black Cat",
    "draws 1 card whenever another player has a tryal revealed by accusations",
    "twice per game, may draw up to 2 cards from the discard pile (no black cards) instead of "
    "the deck",
    "Robbery and Arson have no effect on her",
    "when he accuses, the reveal threshold is 1 lower",
    "once per game, on her turn before she draws, looks through the draw deck and puts it in "
    "any order",
    "may play an Alibi as a Witness (7 accusations)",
    "once per game, may confess without revealing a tryal",
)


# --- setups the game cannot be played with as it intends (refused when a config is loaded) -------
def _no_town(params) -> str:
    each = params.tryals_each
    others = params.tryals[TRYAL.not_a_witch] + params.tryals[TRYAL.constable]
    if others >= each:
        return ""
    return (f"only {others} of the {sum(params.tryals)} tryal cards are not a Witch, fewer than "
            f"the {each} each player is dealt: every player would start on the witch team, so "
            f"there would be no town to play; keep at least {each} tryals that are not a Witch "
            f"in tryals.{params.players}")


def _no_trial(params) -> str:
    names = {CHARACTERS[c] for c in params.characters}
    most = sum(int(RED_VALUE[kind]) * params.deck[kind]
               for kind in (CARD.accusation, CARD.evidence, CARD.witness))
    if "will-griggs" in names:  # his Alibis play as Witnesses
        most += int(RED_VALUE[ALIBI_WITNESS]) * params.deck[CARD.alibi]
    lower = int("thomas-danforth" in names)  # his accusations need 1 fewer
    fewest = max(params.knobs.accusations - lower, 1)
    if most >= fewest:
        return ""
    if not most:
        return ("the deck has no red card (Accusation, Evidence, Witness): no player could ever "
                "be tried; add red cards (deck.accusation, deck.evidence, deck.witness)")
    return (f"the deck's red cards add up to {most} accusations, fewer than the {fewest} that "
            f"cause a trial: no player could ever be tried; lower rules.accusations to "
            f"{most + lower} or less, or add red cards (deck.accusation, deck.evidence, "
            f"deck.witness)")


SETUP_CHECKS = (
    SetupCheck("tryals", "fewer tryals that are not a Witch than each player is dealt (every "
               "player a witch: no town)", _no_town),
    SetupCheck("rules.accusations", "red cards that add up to fewer accusations than a trial "
               "needs (no trial ever)", _no_trial),
)


# --- roles: character x final team ----------------------------------------------------------------
ROLES = tuple(Role(f"{name}/{team}", team, f"{name} on the {team} team: {text}")
              for team in TEAMS for name, text in zip(CHARACTERS, CHARACTER_TEXT))
ROLE = codes(ROLES, "Role")
N_ROLES = len(ROLES)

# --- decisions --------------------------------------------------------------------------------------
# One action space for every decision: 0..15 name a seat, a card kind (15: Will Griggs's Alibi
# played as a Witness), a tryal slot in a player's row (0..MAX_TRYALS-1) or a character, as the
# decision says; STOP (16, the mask's last entry) ends a sequence of picks, and PHIPS (15) is
# William Phips's confession without a reveal.
N_ACTIONS = 17
MAX_ACTIONS = N_ACTIONS
STOP = N_ACTIONS - 1
PHIPS = STOP - 1
TURN_ACTIONS = ("draw", "play", "parris", "tituba")
TURN = codes(TURN_ACTIONS, "Turn")
DECISIONS = (
    DecisionKind("character", "character code",
                 "deal 2, keep 1 (the draft knob): keep one of the two characters dealt"),
    DecisionKind("black_cat", "seat",
                 "first night: each witch votes for the player who gets the Black Cat"),
    DecisionKind("turn", "0 draw, 1 play, 2 Parris: draw from the discard pile, 3 Tituba: "
                 "arrange the deck, then draw", "the start of a turn: draw 2 cards or play cards"),
    DecisionKind("play", "card kind (15: Alibi as a Witness) or 16 stop",
                 "the next card to play this turn, or stop (not before the first card)"),
    DecisionKind("target", "seat", "the player the card is played on (Scapegoat and Robbery: the "
                 "player whose cards or hand move)"),
    DecisionKind("second_target", "seat",
                 "Scapegoat and Robbery: the player who receives the cards or the hand"),
    DecisionKind("curse", "card kind", "Curse: which blue card in front of the target goes"),
    DecisionKind("reveal", "tryal slot of the accused",
                 "a trial: the player who placed the final accusation reveals one of the accused's "
                 "face-down tryals"),
    DecisionKind("abigail", "0 keep, 1 discard", "Abigail Williams after her accusation caused a "
                 "reveal: discard the accusations in front of herself"),
    DecisionKind("parris", "card kind or 16 stop",
                 "Samuel Parris takes a card from the discard pile (up to 2)"),
    DecisionKind("tituba", "card kind or 16 stop", "Tituba puts a card of this kind next from "
                 "the top of the deck; stop leaves the rest in its order"),
    DecisionKind("proctor", "card kind or 16 stop",
                 "John Proctor takes a card from the hand of a player who died (up to 3)"),
    DecisionKind("night_kill", "seat", "night: each witch votes for the player to kill (the "
                 "votes so far are shown to the witches)"),
    DecisionKind("protect", "seat", "night: the constable protects a player other than himself"),
    DecisionKind("confess", "tryal slot, 15 confess without a reveal (William Phips), 16 no "
                 "confession", "dawn: every living player may confess (secret until all chose)"),
    DecisionKind("cat_reveal", "tryal slot of the Black Cat's holder",
                 "Conspiracy: the Black Cat's holder (or the drawer: knob) reveals one of the "
                 "holder's face-down tryals"),
)
DECISION = codes(DECISIONS, "Decision")
ABIGAIL_KEEP, ABIGAIL_CLEAR = 0, 1

# --- the public event log (in every observation) -----------------------------------------------
# A ring of the last LOG_LEN public events, each (code, actor, target, value); `log_count` counts
# every event of the game, so a strategy knows what it has not read yet (its memory) and whether
# the ring overwrote some of it.
LOG_CODES = (
    "accuse",      # actor placed red cards worth `value` accusations on target
    "alibi",       # actor's Alibi removed `value` accusations from target
    "stocks",      # actor put target in the Stocks
    "arson",       # actor burnt target's hand (value: cards discarded)
    "robbery",     # actor gave target's hand to player `value`
    "scapegoat",   # actor moved target's cards to player `value`
    "curse",       # actor discarded target's blue card of kind `value`
    "blue",        # actor put a blue card of kind `value` in front of target
    "trial",       # actor's accusation revealed target's tryal of kind `value`
    "confess",     # actor confessed, revealing `value` (-1: William Phips, nothing)
    "cat_reveal",  # actor, the Black Cat's holder, revealed `value`
    "night",       # the witches chose target; value: NIGHT_OUTCOMES
    "death",       # actor died (target: CAUSE); value: the team announced, -1 when silent
    "conspiracy",  # actor drew Conspiracy; value: the number of the conspiracy
)
LOG = codes(LOG_CODES, "Log")
LOG_WIDTH = 4
DRAWS = ("turn", "giles_corey", "ann_putnam", "rebecca_nurse")  # why a card is drawn
DRAW = codes(DRAWS, "Draw")
NIGHT_OUTCOMES = ("died", "protected", "confessed", "asylum", "already_dead")
NIGHT_OUTCOME = codes(NIGHT_OUTCOMES, "NightOutcome")
CAUSES = ("trial", "night", "confession", "black_cat", "matchmaker")
CAUSE = codes(CAUSES, "Cause")
# When the deaths (or conversions) being resolved happen: it names how the witches won.
PHASES = ("day", "night", "conversion")
PHASE = codes(PHASES, "Phase")

# What a decision's context asks the observer to show beside the rest (observation.observe).
MODES = ("plain", "votes", "dawn", "choice")
MODE = codes(MODES, "Mode")

# The options of the rule knobs the rules read (params.KEYS; the state holds the option's code).
CAT_CHOOSERS = ("holder", "drawer")  # rules.black_cat_chooser
CAT_CHOOSER = codes(CAT_CHOOSERS, "CatChooser")
PIETY_RULES = ("no_red", "double_threshold")  # rules.piety
PIETY = codes(PIETY_RULES, "Piety")
ANN_PUTNAM_DRAWS = ("end_of_turn", "at_once")  # rules.ann_putnam
ANN_PUTNAM = codes(ANN_PUTNAM_DRAWS, "AnnPutnam")
ANN_PUTNAM_HOLDS = ("at_reveal", "at_draw")  # rules.ann_putnam_held
ANN_HELD = codes(ANN_PUTNAM_HOLDS, "AnnPutnamHeld")
PROCTOR_RULES = ("choose", "blind")  # rules.john_proctor
PROCTOR = codes(PROCTOR_RULES, "Proctor")
CONSPIRACIES = ("left", "middle")  # variants.conspiracy
CONSPIRACY = codes(CONSPIRACIES, "Conspiracy")

# --- observation: what one seat knows when it decides ---------------------------------------------
UNKNOWN = -1
HIDDEN = 3          # a face-down tryal whose kind I do not know (row, target_row)
KNOWN = 4           # target_row: 4 + kind for a face-down tryal whose kind I know
P, T = MAX_PLAYERS, MAX_TRYALS
OBSERVATION = ObservationLayout((
    # public, kept up to date by the rules
    public("turn", 1, "turn number, from 1"),
    public("nights", 1, "nights so far"),
    public("current", 1, "the player whose turn it is"),
    public("deck_size", 1, "cards in the draw deck (Night at its bottom)"),
    public("two_left", 1, "1 once only two players are left (blue cards gone)"),
    public("conspiracies", 1, "Conspiracies so far"),
    public("witches_dealt", 1, "Witch tryals in the game (the setup is public)"),
    public("tryals_dealt", 1, "tryals each player was dealt"),
    public("threshold", 1, "accusations that cause a trial (before characters and Piety)"),
    public("constable_gone", 1, "1 once the Constable tryal was revealed"),
    public("piety_blocks", 1,
           "1: Piety keeps red cards from the others' hands off its holder; 0: it doubles the "
           "holder's threshold"),
    public("discard", N_CARDS, "the discard pile by card kind (face up)"),
    public("alive", P, "1 if the seat is alive"),
    public("character", P, "each seat's character (public), -1 past the players"),
    public("hand_size", P, "cards in each seat's hand"),
    public("front", P * N_FRONT, "cards in front of each seat by kind (15: Alibi as a Witness)"),
    public("accusations", P, "accusations in front of each seat"),
    public("face_down", P, "face-down tryals of each seat"),
    public("revealed", P * N_TRYAL_KINDS, "revealed tryals of each seat by kind"),
    public("team_shown", P, "team a dead seat announced (0 town, 1 witch), else -1"),
    public("row", P * T,
           "each seat's tryal row by slot: -1 empty, 0-2 revealed kind, 3 face down"),
    public("parris_left", P, "discard-pile draws left to each seat (Samuel Parris)"),
    public("tituba_left", P, "deck arrangements left to each seat (Tituba)"),
    public("phips_left", P, "confessions without a reveal left to each seat (William Phips)"),
    private("needed", P,
            "accusations in front of each seat that cause a trial when I place the last"),
    public("log_count", 1, "public events so far this game"),
    public("log", LOG_LEN * LOG_WIDTH, "the last public events: (LOG code, actor, target, value), "
                                       "event e at (e % LOG_LEN) * 4"),
    # private: written for the deciding seat
    private("my_team", 1, "my team (0 town, 1 witch)"),
    private("constable", 1, "1 if I hold a face-down Constable tryal"),
    private("hand", N_CARDS, "my hand by card kind"),
    private("mine", T, "my tryal row by slot: the kind, -1 empty"),
    private("known_team", P, "what I know of each seat's team: -1 unknown, 0 town, 1 witch"),
    private("known_witch", P, "face-down Witch tryals I know each seat holds"),
    private("target", 1, "the seat a decision is about (reveal, curse, cat_reveal), else -1"),
    private("card", 1, "the card being played (target decisions), else -1"),
    private("first", 1, "Scapegoat / Robbery: the first target, else -1"),
    private("cards_played", 1, "cards I played so far this turn"),
    private("target_row", T,
            "the target's row: -1 empty, 0-2 revealed, 3 face down, 4+kind known"),
    private("votes", P, "night: the witches' kill votes so far (witches only)"),
    private("victim", 1, "dawn: tonight's victim if I am a witch, else -1"),
    private("protected", 1, "dawn: whom I protected if I am the constable, else -1"),
    private("choice", N_CARDS, "the cards I choose from: the characters offered, the deck Tituba "
                               "arranges, the hand John Proctor takes from"),
))
OBS = OBSERVATION.offsets()

# --- results --------------------------------------------------------------------------------------
END_CONDITIONS = (
    Item("witch_tryals_revealed", "town: every Witch tryal revealed"),
    Item("witches_by_night", "witches: the last townsfolk died at night"),
    Item("witches_by_conversion", "witches: Conspiracy converted the last townsfolk"),
    Item("witches_by_day", "witches: the last townsfolk died by day (trial, Black Cat)"),
    Item("turn_limit", f"no winner after {MAX_TURNS} turns"),
)
END = codes(END_CONDITIONS, "End")
MAX_LENGTH = 300  # turns the length histogram tells apart (longer games go in the last bin)

EVENTS = (
    Item("trials", "trials (accusations reached the threshold)"),
    Item("trial_witch", "trials that revealed a Witch"),
    Item("reveals", "tryals revealed while their holder lived (trials, confessions, Black Cat)"),
    Item("confessions", "confessions at dawn"),
    Item("phips_confessions", "confessions without a reveal (William Phips)"),
    Item("cards_played", "cards played"),
    Item("draw_turns", "turns spent drawing"),
    Item("stocks_skips", "turns skipped in the Stocks"),
    Item("nights", "nights"),
    Item("night_kills", "players the witches killed at night"),
    Item("night_protected", "night victims saved by the constable"),
    Item("night_confessed", "night victims saved by their confession"),
    Item("night_asylum", "night victims saved by Asylum"),
    Item("conspiracies", "Conspiracies"),
    Item("conversions", "players Conspiracy turned into witches"),
    Item("black_cat_reveals", "tryals revealed by the Black Cat"),
    Item("deaths", "deaths"),
    Item("matchmaker_deaths", "deaths through Matchmaker"),
    Item("two_left", "games that came down to two players"),
    Item("constable_revealed", "Constable tryals revealed"),
)
EV = codes(EVENTS, "Event")

# --- trace events (rows: step = turn, code, actor, target, value, extra) -------------------------
# {card:card} names a card, {kind:tryal} a tryal; trace.py tells the sentences that need logic.
# The table (`fairplay serve`): each seat's role (its character, then with the team its dealt
# tryals make it; a seat that takes a Witch joins the witches) and how it died; before it one item
# per card lying in front of it (its name) and per tryal revealed ("revealed: Witch"); what it
# privately learns (its tryals, each tryal it passes or gets, Tituba's look, a hand it receives or
# looks through, the constable's protection).
PLACES = ("hand", "front")  # where cards go to the discard pile from
PLACE = codes(PLACES, "Place")
# What a seat privately learns (trace lines marked simulator.games.base.PRIVATE_MARK).
LEARNS = ("own_tryals", "received", "taken", "deck", "robbed_hand", "dead_hand")
LEARN = codes(LEARNS, "Learn")
E, M = TraceEvent, Mark
TRACE_EVENTS = (
    E("character", actor="seat", value="character", extra="offered",  # offered -1: no draft
      table=(M("role", "seat", "{character:character}"),)),
    E("tryals", actor="seat", value=Digits("kinds", 4, count="dealt"), extra="dealt",
      table=(M("role", "seat", "{seat:character_of}/{kinds:team_of}"),
             M("learns", "seat", "its tryals as dealt: {kinds:tryal_list}"))),
    E("hand", "  seat {seat} is dealt {count} x {card:card}",
      actor="seat", value="card", extra="count", private=True),
    E("first_night", "First night: the {witches} witch(es) see each other", value="witches"),
    E("black_cat", "  the witches put the Black Cat in front of seat {seat} ({votes} vote(s)"
                   "{tied:tie_broken}); seat {seat} starts",
      target="seat", value="votes", extra="tied",
      table=(M("front", "seat", CARD_LABELS[CARD.black_cat]),)),
    E("turn", "Turn {turn}: seat {seat}", actor="seat", value="turn"),
    E("stocks", "  seat {seat} is in the Stocks and skips the turn ({left} Stocks left)",
      actor="seat", value="left", table=(M("taken", "seat", CARD_LABELS[CARD.stocks]),)),
    E("action", "  seat {seat} chooses to {action:action}", actor="seat", value="action"),
    E("draw", actor="seat", value="card", extra="why"),  # why: a DRAWS code
    E("discarded", "  seat {seat} discards the {card:card} drawn (two players left) and draws "
                   "again", actor="seat", value="card"),
    E("giles", "  seat {seat} shows two red cards and draws a third (Giles Corey)",
      actor="seat"),
    # Curse: second is the blue card discarded; Scapegoat, Robbery: the seat receiving. A red,
    # green or blue card that stays lies before its target; a Curse takes the blue card named; a
    # Scapegoat moves every card before its target (not the revealed tryals) to the second seat.
    E("play", actor="seat", target="target", value="card", extra="second",
      table=(M("front", "target", "{card:lies}"),
             M("taken", "target", "{second:card}", only=("card", CARD.curse)),
             M("clear", "target", keep="revealed: ", to="second",
               only=("card", CARD.scapegoat)))),
    E("no_effect", "  {card:card} has no effect: seat {target} has Sarah Good's ability",
      actor="seat", target="target", value="card"),  # Sarah Good shrugs off Robbery or Arson
    E("accusations", "    accusations on seat {accused}: {accusations} of {trial_at} (placed "
                     "by seat {placer})",
      actor="accused", target="placer", value="accusations", extra="trial_at"),
    E("trial", "  TRIAL of seat {accused}: seat {placer} reveals slot {slot}: {kind:tryal}",
      actor="placer", target="accused", value="kind", extra="slot",
      table=(M("front", "accused", "{kind:revealed}"),)),
    E("cat_reveal", actor="holder", target="chooser", value="kind", extra="slot",
      table=(M("front", "holder", "{kind:revealed}"),)),
    E("death", actor="seat", target="cause", value="team",  # team -1: silent
      table=(M("out", "seat", "{cause:died}"),)),
    E("proctor", actor="proctor", target="dead", value="card"),
    E("abigail", actor="seat", value="discards"),
    E("ann_putnam", "  seat {seat} draws {cards} cards for her reveals (Ann Putnam)",
      actor="seat", value="cards"),
    E("parris", "  seat {seat} takes {card:card} from the discard pile (Samuel Parris)",
      actor="seat", value="card"),
    E("tituba", "  seat {seat} puts {card:card} at position {position} from the top (Tituba)",
      actor="seat", value="card", extra="position", private=True),  # position: 1.. from the top
    E("conspiracy", "  CONSPIRACY #{number}, drawn by seat {drawer}",
      actor="drawer", value="number"),
    E("passed", actor="giver", target="receiver", value="kind",
      extra=Packed(middle=2, given=32, into=None),  # the giver's slot, the receiver's slot
      table=(M("learns", "receiver", "turn {step}: gets {kind:tryal} (into its slot {into})"),
             M("learns", "giver", "turn {step}: gives up its {kind:tryal} (its slot {given})"))),
    E("joins_witches", "    seat {seat} joins the witches", actor="seat", private=True,
      table=(M("role", "seat", "{seat:character_of}/witch"),)),
    E("night", "  NIGHT {night}", value="night"),
    E("kill_vote", actor="witch", target="seat", value="decision", private=True),
    E("victim", "    the witches choose seat {victim} ({votes} vote(s){tied:tie_broken})",
      target="victim", value="votes", extra="tied", private=True),
    E("protect", "    the constable, seat {constable}, protects seat {seat}",
      actor="constable", target="seat", private=True,
      table=(M("learns", "constable", "turn {step}: protected seat {seat} at night"),)),
    E("confess", actor="seat", value="kind", extra="slot",  # kind -1: none (William Phips)
      table=(M("front", "seat", "{kind:revealed}"),)),
    E("dawn", "  dawn: the witches' victim seat {victim} {outcome:dawn}",
      target="victim", value="outcome"),
    E("reshuffle", "  the discard pile becomes the new deck ({cards} cards, Night at the bottom)",
      value="cards"),
    E("two_left", "  two players left: every blue card in a hand or in front of a player, and "
                  "Scapegoat and Robbery in hands, go to the discard pile"),
    E("winner", value="team", extra="end"),  # team -1: none
    E("deck", target="position", value="card", extra="view", gathered=True),  # position 1..
    E("witch_team", "  the witch team opens its eyes: seat(s) {witches:seats} see each other",
      value=Digits("witches", 2), private=True),  # 1 for each seat that is a witch
    E("stop", actor="seat", value="decision"),  # the DECISION declined
    E("alibi_removed", "    the Alibi removes {accusations} x Accusation and {evidence} x "
                       "Evidence from in front of seat {seat}",
      actor="seat", target="player", value="accusations", extra="evidence",
      table=(M("taken", "seat", CARD_LABELS[CARD.accusation], times="accusations"),
             M("taken", "seat", CARD_LABELS[CARD.evidence], times="evidence"))),
    # from in front of the seat, every card of the kind goes (no card's name begins with
    # another's); from the hand, nothing on the table changes
    E("discards", "    to the discard pile from {place:place} seat {seat}: {count} x "
                  "{card:card}", actor="seat", target="place", value="card", extra="count",
      table=(M("clear", "seat", "{card:card}", only=("place", PLACE.front)),)),
    E("turned_up", "    seat {seat}'s slot {slot} is turned up: {kind:tryal}",
      actor="seat", value="kind", extra="slot",  # the dead reveal the rest of their tryals
      table=(M("front", "seat", "{kind:revealed}"),)),
    E("silent_tryals", "    seat {seat}'s {count} face-down tryal(s) leave the game unseen",
      actor="seat", value="count"),
    E("learns", actor="seat", target="about", value="value", extra="what",
      private=True,  # about -1: nobody; what: a LEARNS code
      # (its tryals and the tryals passed are learned from the deal's and the pass's rows)
      table=(M("learns", "seat", "turn {step}: looked through the top {value} cards of the deck "
                                 "(Tituba)", only=("what", LEARN.deck)),
             M("learns", "seat", "turn {step}: saw the {value} card(s) it received from seat "
                                 "{about}'s hand", only=("what", LEARN.robbed_hand)),
             M("learns", "seat", "turn {step}: looked through the {value} card(s) in seat "
                                 "{about}'s hand (John Proctor)", only=("what", LEARN.dead_hand)))),
)
TR = codes(TRACE_EVENTS, "Trace")
PACKED = trace_places(TRACE_EVENTS)  # the place values the kernel packs with
# When the trace shows the deck in its order (top first): the cards shuffled for the deal, the
# draw deck after a shuffle (the deal's and every night's), and after Tituba's arrangement.
DECK_VIEWS = ("deal", "shuffled", "tituba")
DECK_VIEW = codes(DECK_VIEWS, "DeckView")

# Rules this project decided where the source and the rules note are silent (docs/rules/salem.md
# gives the reasoning and the covering tests).
PROVISIONAL = (
    "a turn is either a draw or at least one card played: a player with no playable card draws",
    "a drawn black card counts as one of the two cards drawn (knob rules.black_draw_replaced)",
    "Scapegoat and Robbery name two players other than their player; the Scapegoat's player "
    "placed the red cards it moves, so it reveals the tryal of a trial they cause (Thomas "
    "Danforth's lower threshold included)",
    "Alibi removes red cards worth at most 3 accusations, as many as possible, Accusation cards "
    "first",
    "Evidence counts as 1 accusation while it lies in front of Cotton Mather, however it got there",
    "a trial is caused by a red card placed: when a threshold drops with no card placed (Martha "
    "Corey's George Burroughs neighbour dies), the accused is tried at the next red card placed "
    "on them, whose player reveals",
    "Piety read as a double threshold doubles the character's threshold (14, George Burroughs "
    "16) before Thomas Danforth's -1",
    "Robbery has no effect when Sarah Good is either of its two players",
    "Matchmaker kills the partner of a player who dies unless the partner is Mary Warren; a "
    "player holding both Matchmakers has no partner; Martha Corey's borrowed Mary Warren "
    "immunity is read before anyone leaves (her right may be the player dying)",
    "a discarded Black Cat goes to the discard pile and can be drawn and played later",
    "the witches vote in seat order from the current player; each witch sees the votes so far; "
    "the Black Cat's placement on the first night is voted the same way",
    "witches learn the whole witch team every night (who wakes is who is a witch), and what "
    "they knew of town players goes stale at the next Conspiracy",
    "dawn confessions are chosen secretly and at once, then revealed in seat order",
    "a face-down tryal a player has seen stays known to them wherever it moves (its moves are "
    "public), except through the middle of the Conspiracy variant",
    "the whole remaining draw deck (if Tituba moved Night up) is shuffled with the discard pile "
    "at the reshuffle",
    "Ann Putnam's draws come at the end of her turn, even one the Night cut short (knob "
    "rules.ann_putnam)",
    "only a tryal revealed while its player holds Ann Putnam's ability earns her draws: Martha "
    "Corey's reveal that kills her right-hand neighbour and so brings her Ann Putnam's ability "
    "earns nothing (knob rules.ann_putnam_held)",
    "Rebecca Nurse draws after Abigail Williams's choice; a Night she draws cuts the turn short "
    "like any Night",
    "the extra Witch of the variant replaces a Not a Witch, so the tryals still deal evenly",
    "the Black Cat placed on the first night is the one whose holder starts; without a Black "
    "Cat in the deck a random player starts",
    "players converted by the Conspiracy that completes the witches' win are the ones who lose "
    "with the town under rules.last_convert_loses",
    "the dead's tryals stay in front of them (revealed, or face down out of the game when the "
    "dead are silent), so the number of tryals is conserved",
    "the witches may choose any living player at night, one of their own included",
    "Asylum and a confession save from the witches' kill only: a Matchmaker partner of a player "
    "who dies at night dies too",
)
