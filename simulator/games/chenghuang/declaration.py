"""城隍神與夜冥將軍 (Chenghuang; English reprint "Overseers"), declared: cards, roles, decisions,
observation, scoring-table layout, events and trace events.

Everything here is data. The kernel, the rules, the strategies and the trace decoder read these
constants; nothing below changes during a run. Every code is a position in one declared tuple
(`codes(...)` names them), so no number is written twice.
"""

from __future__ import annotations

import numpy as np

from simulator.games.base import (
    DecisionKind, Item, Layout, Mark, ObservationLayout, Packed, Role, TraceEvent, TurnOrder,
    codes, private, public, trace_places,
)

NAME = "chenghuang"
TITLE = "城隍神與夜冥將軍 (Chenghuang / Overseers)"
SOURCE = ("城隍神與夜冥將軍, BigFun 2015, designer Jacky Huang (its 2015 rules); the rules as "
          "implemented and this project's rulings: docs/rules/chenghuang.md")
MIN_PLAYERS = 3
MAX_PLAYERS = 6
SCORING = "individual"
TEAMS = ()
LENGTH_UNIT = "rounds"
DEFAULT_CONFIG = "chenghuang/default.toml"

# The players' standard (simulator/studies/standard.py, docs/strategies.md): the people-like strategy this
# game's balance is measured with, and the built-in configs it is measured on.
MEASURING_STRATEGY = "balanced"
# What makes an event available (`fairplay coverage`): the advanced pool's roles.
COVERAGE_NEEDS = {"horse_face_takes": "horse-face", "fan_penalties": "general-fan"}
# Why good players never bring these about (the coverage standard, docs/strategies.md).
NEVER_USED = {
    "compensation_empty": "cannot happen in a real game: every player discards a card to the pile "
                          "each round before the judgement and only 甘將軍 takes one back, so the "
                          "pile holds at least players − 1 cards when a correct denial is "
                          "compensated (the rule is kept for completeness)",
    "theft_declined": "a thief gains nothing this round by declining: a stolen card never "
                      "lowers its score (every kind's points grow or stay with its count) and "
                      "never raises the victim's",
}
STANDARD_CONFIGS = (
    "chenghuang/players-3.toml",
    "chenghuang/default.toml",
    "chenghuang/players-6.toml",
    "chenghuang/overseers.toml",
)
HAND = 6            # cards dealt to each player and held after the draft
LAYOUT = 5          # cards laid out after the discard
MAX_SLOTS = 8       # cards a layout can hold before the reveal (5 laid out + 1 from 甘將軍, spare)
MAX_ROUNDS = 16     # the longest game a config may ask for
# Seats are alike by the rules: the first captain is drawn at random, roles are dealt at random
# each round, and the draft passes every pack around the whole table.
SYMMETRIC_SEATS = "the first captain is drawn at random and every round deals the roles anew"
TURN_ORDER = TurnOrder("clockwise", "drawn at random (the first captain)", random_first=True)
MAX_DECK = 128      # the most cards a config's deck may hold (the state is sized for it)

# --- good/evil cards (善惡卡): index = kind code --------------------------------------------------
KINDS = ("killing", "benevolence", "treachery", "loyalty", "filial", "theft")
CARD = codes(KINDS, "Card")
KIND_LABELS = ("殺生", "仁愛", "奸惡", "忠信", "孝行", "竊盜")
KIND_SIDES = ("evil", "good", "evil", "good", "good", "evil")
N_KINDS = len(KINDS)

# The official card counts per player count (rules table; the per-kind counts are authoritative).
OFFICIAL_DECK = {
    3: (3, 4, 5, 5, 5, 3),
    4: (3, 4, 5, 5, 5, 3),
    5: (4, 6, 6, 6, 4, 4),
    6: (5, 6, 7, 7, 7, 4),
}
PRINTED_TOTAL = {3: 25, 4: 25, 5: 32, 6: 36}

# --- roles (夜冥將軍): index = role code ----------------------------------------------------------
ROLES = (
    Role("general-liu", "", "lays out 2 face-up and 3 face-down cards this round", "柳將軍"),
    Role("martial-judge", "", "(1) names a card kind: each of its cards of that kind scores 5",
         "武判"),
    Role("general-gan", "", "(2) draws 2 from the discard pile, keeps 1 face down, returns 1",
         "甘將軍"),
    Role("lord-of-implements", "", "(3) looks at 2 face-down cards of other players; +3 this round",
         "刑具爺"),
    Role("civil-judge", "", "(4) slides one own card face down under a card: it counts as a copy",
         "文判"),
    Role("ox-head", "", "(S) its 殺生 cards score double", "牛頭"),
    Role("general-xie", "", "(S) +1 for each 忠信 and each 孝行 card it holds", "謝將軍"),
    Role("horse-face", "", "(F) takes every 竊盜 from the discard pile; cannot be stolen from",
         "馬面"),
    Role("general-fan", "", "(F) at scoring, a chosen player's cards score 1 less each", "范將軍"),
)
ROLE = codes(ROLES, "Role")
N_ROLES = len(ROLES)
POOL_NAMES = ("basic", "advanced")
BASIC_POOL = (ROLE.general_liu, ROLE.martial_judge, ROLE.general_gan, ROLE.lord_of_implements,
              ROLE.civil_judge)
ADVANCED_POOL = tuple(range(N_ROLES))
# The numbered abilities, acted in this order (order codes 1..4).
ABILITY_ORDER = np.array([ROLE.martial_judge, ROLE.general_gan, ROLE.lord_of_implements,
                          ROLE.civil_judge], dtype=np.int64)

# --- the scoring table, as data ------------------------------------------------------------------
# One flat int64 vector, identical in the setup and in every observation, so the kernel and the
# strategies score with the same function (rules.kind_points / rules.showdown_score).
# points(kind, c) = each[kind] * c + set[kind, min(c, SET_LEN - 1)]
SET_LEN = 8                       # set tables hold the points for 0..7 cards; more add nothing
POINTS_LEN = SET_LEN + 1          # derived points per count: 0..POINTS_LEN-1 cards
FAN_VARIANTS = ("minus-one", "steal-four")
FAN_MODE = codes(FAN_VARIANTS, "FanMode")
# When 牛頭's and 謝將軍's abilities (S: "at the showdown", 攤牌時) count: in every round's score,
# or only in a round whose accused denied (an admitting accused skips the showdown).
S_ABILITIES = ("always", "showdown-only")
S_MODE = codes(S_ABILITIES, "SMode")
TABLE = Layout((
    ("each", N_KINDS, "points per card of each kind"),
    ("set", N_KINDS * SET_LEN, "set points of each kind by count (0..SET_LEN-1 cards)"),
    ("judge", 1, "武判: points per card of the named kind (5)"),
    ("implements", 1, "刑具爺: bonus this round (3)"),
    ("ox", 1, "牛頭: factor on 殺生 points (2)"),
    ("xie", 1, "謝將軍: bonus per 忠信 / 孝行 card (1)"),
    ("fan_mode", 1, "范將軍: FAN_MODE (minus-one: per card; steal-four: fixed points)"),
    ("fan_amount", 1, "范將軍: 1 point per card, or the points stolen (4)"),
    ("s_mode", 1, "S_MODE: when 牛頭's and 謝將軍's abilities count (always, showdown-only)"),
    # Derived from the entries above when the table is built (rules.derive_scoring), because
    # scoring is the hottest rule of all: the points of 0..POINTS_LEN-1 cards of each kind for a
    # holder of each role, 牛頭's and 謝將軍's modifiers included (not 武判's named kind; a count
    # past the set table adds the same points per card, so larger counts extend the last step),
    # and which kinds score by a set table.
    ("points", N_ROLES * N_KINDS * POINTS_LEN, "derived: points of c cards by role and kind"),
    ("set_kind", N_KINDS, "derived: 1 if the kind has a set table"),
))
T = TABLE.offsets("Table")
TABLE_SIZE = T.size

# --- decisions ------------------------------------------------------------------------------------
# Actions are small integers whose meaning depends on the decision. "kind" means a card kind code
# 0..5; "seat" a seat 0..n-1. SOURCE and TARGET of 文判 use 0..5 for a face-up card of that kind
# and 6..11 (FACE_DOWN + kind) for one of the civil judge's own face-down cards of that kind. The
# thief may decline (the seed: the player with the most 竊盜 "may" name a player): action
# NO_THEFT, past every seat.
FACE_DOWN = N_KINDS
NO_THEFT = MAX_PLAYERS
N_ACTIONS = 2 * N_KINDS
MAX_ACTIONS = N_ACTIONS
DECISIONS = (
    DecisionKind("draft", "kind", "keep one card of this kind from the pack in hand"),
    DecisionKind("discard", "kind", "discard one of the 6 drafted cards face down"),
    DecisionKind("hide", "kind", "lay one more card face down (asked 2 times, 3 for 柳將軍); "
                 "the rest are laid face up"),
    DecisionKind("judge", "kind", "武判 names a card kind"),
    DecisionKind("gan_keep", "kind", "甘將軍 keeps one of the two drawn cards"),
    DecisionKind("peek", "seat", "刑具爺 looks at one face-down card of that seat (asked twice)"),
    DecisionKind("scribe_source", "kind (0-5 face up, 6-11 face down)",
                 "文判 picks the own card to move"),
    DecisionKind("scribe_target", "kind (0-5 a face-up card on the table, 6-11 own face-down)",
                 "文判 picks the card to copy"),
    DecisionKind("vote", "seat", "secret simultaneous vote for the player with the top score"),
    DecisionKind("admit", "0 deny, 1 admit", "the accused admits or denies"),
    DecisionKind("admit_discard", "kind", "the accused who admitted discards a card (twice)"),
    DecisionKind("compensation", "kind", "the wrongly accused takes a card from the pile"),
    DecisionKind("theft_target", f"seat, or {MAX_PLAYERS} to decline",
                 "the thief names the player to take a card from, or declines"),
    DecisionKind("theft_give", "kind", "the victim of the theft chooses the card to give"),
    DecisionKind("fan_target", "seat", "范將軍 names the player it penalises"),
    DecisionKind("tie_break", "seat", "the captain picks one of the tied players"),
)
DECISION = codes(DECISIONS, "Decision")
# The actions of the `admit` decision.
ANSWERS = ("deny", "admit")
ANSWER = codes(ANSWERS, "Answer")

# What a tie decision is about (obs "tie").
TIES = ("vote", "theft", "captain", "winner")
TIE = codes(TIES, "Tie")

# How a round's captain was chosen (trace: the value of a `captain` row).
CAPTAIN_CHOICES = ("random", "lowest")
CHOSEN = codes(CAPTAIN_CHOICES, "Chosen")

# --- observation: what one seat knows when it decides ---------------------------------------------
# (The standard pieces come first: kind, me, my_role, players; see base.STANDARD_PIECES.)
UNKNOWN = -1
OBSERVATION = ObservationLayout((
    public("round", 1, "current round, from 1"),
    public("rounds", 1, "rounds in the game"),
    public("captain", 1, "this round's captain"),
    public("roles", MAX_PLAYERS,
           "role code of each seat (roles are dealt face up); -1 past the players"),
    public("totals", MAX_PLAYERS,
           "each seat's total before this round (derivable from the reveals)"),
    public("denied_right", MAX_PLAYERS,
           "rounds each seat was accused, denied and proved not the highest at the showdown "
           "(everyone saw its face-down cards then)"),
    public("deck", N_KINDS, "cards of each kind in the game (dealt or set aside)"),
    public("table", TABLE.size, "the scoring table (see TABLE in declaration.py)"),
    private("pick", 1, "draft pick number 1..6, 0 outside the draft"),
    private("pack", N_KINDS, "cards of each kind in the pack I pick from (draft only)"),
    private("mine", N_KINDS, "my cards of each kind (drafted so far, then held)"),
    private("my_up", N_KINDS, "layout: my cards to lay / laid face up, by kind"),
    private("my_down", N_KINDS, "layout: my cards laid face down, by kind"),
    private("to_hide", 1, "layout: cards I still have to lay face down, this one included"),
    public("judge_kind", 1, "the kind 武判 named this round, or -1"),
    public("revealed", 1, "1 once every card on the table is face up"),
    private("known", MAX_PLAYERS * N_KINDS,
            "per seat and kind: cards of that seat I know (mine: all)"),
    private("unknown", MAX_PLAYERS, "per seat: its cards whose kind I do not know"),
    public("pile_size", 1, "cards in the discard pile"),
    private("pile_known", N_KINDS,
            "pile cards I know of, by kind (all of them when I look through it)"),
    private("drawn", N_KINDS, "甘將軍: the two cards drawn from the pile, by kind"),
    private("source", 1, "文判: the source action already chosen, or -1"),
    public("votes", MAX_PLAYERS, "votes each seat received (after the vote)"),
    public("accused", 1, "the accused seat, or -1"),
    public("admitted", 1, "-1 not yet decided, 0 denied, 1 admitted"),
    public("accused_highest", 1, "-1 unknown, 1 the accused really had the top score, 0 not"),
    public("thief", 1, "the seat that steals this round, or -1"),
    private("tie", 1, "what a tie decision is about (TIES), or -1"),
    private("tied", MAX_PLAYERS, "1 for each seat in the tie being broken"),
))
OBS = OBSERVATION.offsets()

# --- results --------------------------------------------------------------------------------------
END_CONDITIONS = (
    Item("highest", "highest total"),
    Item("captain_tie", "tie broken by the captain"),
)
END = codes(END_CONDITIONS, "End")
MAX_LENGTH = MAX_ROUNDS
SCORE_CLIP = 255  # score histograms count final totals 0..255; higher totals go in the last bin

EVENTS = (
    Item("accusations", "votes held (one per round)"),
    Item("vote_ties", "the captain chose the accused among tied players"),
    Item("accused_highest", "the accused really had the top showdown score (ties count)"),
    Item("admits", "the accused admitted"),
    Item("admits_highest", "... and really had the top score"),
    Item("denies", "the accused denied"),
    Item("deny_correct", "denied and was not the highest: compensation"),
    Item("deny_wrong", "denied but was the highest: lost the two most valuable cards"),
    Item("compensation_empty", "a compensation with an empty discard pile"),
    Item("horse_face_takes", "竊盜 cards 馬面 took from the discard pile"),
    Item("thefts", "cards stolen"),
    Item("theft_declined", "the thief could steal and declined"),
    Item("theft_ties", "the captain chose the thief among tied players"),
    Item("rounds_without_theft", "rounds in which nobody held 竊盜"),
    Item("fan_penalties", "范將軍 penalties applied"),
    Item("captain_ties", "the captain chose next round's captain among tied players"),
    Item("captain_round_top", "rounds in which the captain had the top round score (ties count)"),
    Item("final_ties", "games whose top total was tied (the last captain decided)"),
    Item("final_captain_wins", "games won by the last round's captain"),
    Item("rounds", "rounds played"),
)
EV = codes(EVENTS, "Event")

# --- trace events (rows of the trace buffer: step = round, code, actor, target, value, extra) ----
# {card:kind} names a card kind ("武判 judge"); trace.py tells the sentences that need logic.
# The table (`fairplay serve`): each seat's role this round; before it the 城隍令 card of the
# captain, the votes cast for it, 武判's named kind and the seat's cards, face up or "(face down)".
# The reveal names no seat, so the face-down cards keep their label after it. What a seat privately
# learns: its discard, 甘將軍's draw, 刑具爺's looks, a look through the pile. A seat's items are
# collected when its next role is dealt (the old captain keeps its card through its tie-break).
E, M = TraceEvent, Mark
TRACE_EVENTS = (
    E("round", "== round {round} ==", value="round"),
    E("captain", actor="captain", value="how", table=(M("front", "captain", "城隍令 (captain)"),)),
    E("role", "  role: seat {seat} is {role:role}", actor="seat", value="role",
      table=(M("clear", "seat"), M("role", "seat", "{role:role}"))),
    E("deal", actor="seat", value="card", extra="count", gathered=True),
    E("pick", "  draft pick {pick}: seat {seat} keeps {card:kind} (pack dealt to seat {pack})",
      actor="seat", target="pack", value="card", extra="pick"),
    E("discard", "  discard: seat {seat} discards {card:kind} face down",
      actor="seat", value="card",
      table=(M("learns", "seat", "round {step}: put {card:kind} on the pile"),)),
    E("layout", "  layout: seat {seat} lays {card:kind}: {up} face up, {down} face down",
      actor="seat", value="card", extra=Packed(down=16, up=None),
      table=(M("front", "seat", "{card:kind}", times="up"),
             M("front", "seat", "{card:kind} (face down)", times="down"))),
    E("judge", "  武判 seat {seat} names {card:kind} (holds {held} of them)",
      actor="seat", value="card", extra="held",
      table=(M("front", "seat", "named {card:kind} (every one turned sideways)"),)),
    E("gan", actor="seat", value="kept", extra="returned",
      table=(M("front", "seat", "{kept:kind} (face down)"),
             M("learns", "seat", "round {step}: kept {kept:kind} from the pile, returned "
                                 "{returned:kind}"))),
    E("peek", "  刑具爺 seat {seat} looks at a face-down card of seat {target}: {card:kind}",
      actor="seat", target="target", value="card",
      table=(M("learns", "seat", "round {step}: seat {target} has {card:kind} face down"),)),
    E("scribe", actor="seat", target="slid", value="under", extra="counts_as",
      table=(M("taken", "seat", "{slid:scribed}"),
             M("front", "seat", "{counts_as:kind} (face down)"))),
    E("vote", "  vote: seat {voter} votes for seat {accused}", actor="voter", target="accused",
      table=(M("front", "accused", "vote from seat {voter}"),)),
    E("accused", actor="accused", value="votes", extra="tied"),
    E("admit", actor="accused", value="answer", extra="highest"),
    E("admit_discard", "  seat {seat} discards {card:kind} face down",
      actor="seat", value="card",
      table=(M("taken", "seat", "{card:kind} (face down)", otherwise="{card:kind}"),)),
    E("reveal", value="showdown"),
    E("showdown_loss", "  showdown: seat {seat} was the highest and loses its two most valuable "
                       "cards: {first:kind} and {second:kind}",
      actor="seat", value="first", extra="second",
      table=(M("taken", "seat", "{first:item}", otherwise="{first:item} (face down)"),
             M("taken", "seat", "{second:item}", otherwise="{second:item} (face down)"))),
    E("compensation", "  showdown: seat {seat} was not the highest and takes {card:kind} from "
                      "the pile", actor="seat", value="card",
      table=(M("front", "seat", "{card:kind}"),
             M("learns", "seat", "round {step}: looked through the pile"))),
    E("horse_face", "  馬面 seat {seat} takes {thefts} 竊盜 from the pile",
      actor="seat", value="thefts",
      table=(M("front", "seat", f"{KIND_LABELS[CARD.theft]} {KINDS[CARD.theft]}",
               times="thefts"),)),
    E("theft", actor="thief", target="victim", value="card", extra="thefts",
      table=(M("taken", "victim", "{card:item}", otherwise="{card:item} (face down)"),
             M("front", "thief", "{card:item}"))),
    E("no_theft", "  theft: nobody holds 竊盜"),
    E("theft_declined", "  theft: seat {thief} ({thefts} 竊盜) declines to steal",
      actor="thief", extra="thefts"),
    E("fan", actor="seat", target="target", value="points"),
    E("round_score", "  score: seat {seat} scores {score} this round, total {total}",
      actor="seat", value="score", extra="total"),
    E("tie_break", "  tie ({tie:tie}): captain seat {captain} picks seat {choice}",
      actor="captain", target="choice", value="tie"),
    E("winner", actor="seat", value="points", extra="end"),
)
TR = codes(TRACE_EVENTS, "Trace")
PACKED = trace_places(TRACE_EVENTS)  # the place values the kernel packs with

# Rules this project decided where the source and the rulings note are silent (see
# docs/rules/chenghuang.md for the reasoning and the covering tests).
PROVISIONAL = (
    "seats are numbered clockwise; the draft passes from seat s to seat s+1",
    "武判 turns every card of the named kind sideways, so their number and places become public",
    "武判's 5 points apply to every card of the named kind, a 4th and later 忠信/孝行 included",
    "文判's copy takes the copied card's kind for the rest of the round, wherever the card goes",
    "a copy of a face-up card is public; a copy of an own face-down card is known to 文判 only",
    "刑具爺 picks the seat; the face-down card looked at is uniform among that seat's face-down "
    "cards it has not seen",
    "the S abilities (牛頭, 謝將軍) count in the round score also when the accused admitted (the "
    "cards are revealed all the same); knob rules.s_abilities = \"always\" (default) | "
    "\"showdown-only\" (only in a round whose accused denied)",
    "刑具爺's +3 is not an S ability: it counts in every round's score, admit or deny",
    "謝將軍's +1 applies to every 忠信 and 孝行 it holds, a 4th and later card (which scores nothing "
    "itself) included",
    "the showdown's two most valuable cards go to the discard pile; among equally valuable pairs "
    "the one with the lowest kind codes goes",
    "the admitting player's discards are taken face down first when it holds the kind face down",
    "馬面 acts before the check 'nobody holds 竊盜', so its take can start the theft event",
    "the thief may only name a player who holds a card (or decline); the victim gives any card it "
    "holds",
    "范將軍 names another player; minus-one: the penalty is the number of cards held; steal: "
    "at most the victim's round score is moved to 范將軍",
    "a round score is never below 0",
    "the current captain breaks the tie for next round's captain",
    "a decision with a single legal action is taken without asking the strategy",
    "a seat's pile knowledge is what it saw go in (its discard, 甘將軍's draw, a look through "
    "the pile, public discards); it is not updated for draws it cannot see",
)
