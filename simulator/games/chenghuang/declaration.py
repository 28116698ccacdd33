"""城隍神與夜冥將軍 (Chenghuang; English reprint "Overseers"), declared: cards, roles, decisions,
observation, scoring-table layout, events and trace events.

Everything here is data. The kernel, the rules, the strategies and the trace decoder read these
constants; nothing below changes during a run.
"""

from __future__ import annotations

import numpy as np

from simulator.games.base import DecisionKind, ObservationLayout, Role

NAME = "chenghuang"
TITLE = "城隍神與夜冥將軍 (Chenghuang / Overseers)"
SOURCE = ("shared/seeds/000_3589bcffdf3fad8f.txt (BigFun 2015, designer Jacky Huang); rulings in "
          "shared/rules/chenghuang.md")
MIN_PLAYERS = 3
MAX_PLAYERS = 6
HAND = 6            # cards dealt to each player and held after the draft
LAYOUT = 5          # cards laid out after the discard
MAX_SLOTS = 8       # cards a layout can hold before the reveal (5 laid out + 1 from 甘將軍, spare)
MAX_ROUNDS = 16     # the longest game a config may ask for

# --- good/evil cards (善惡卡): index = kind code --------------------------------------------------
KINDS = ("killing", "benevolence", "treachery", "loyalty", "filial", "theft")
KIND_LABELS = ("殺生", "仁愛", "奸惡", "忠信", "孝行", "竊盜")
KIND_SIDES = ("evil", "good", "evil", "good", "good", "evil")
KILLING, BENEVOLENCE, TREACHERY, LOYALTY, FILIAL, THEFT = range(6)
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
LIU, MARTIAL, GAN, IMPLEMENTS, CIVIL, OX_HEAD, XIE, HORSE_FACE, FAN = range(9)
N_ROLES = len(ROLES)
BASIC_POOL = (LIU, MARTIAL, GAN, IMPLEMENTS, CIVIL)
ADVANCED_POOL = tuple(range(N_ROLES))
ABILITY_ORDER = np.array([MARTIAL, GAN, IMPLEMENTS, CIVIL], dtype=np.int64)  # order codes 1..4

# --- the scoring table, as data ------------------------------------------------------------------
# One flat int64 vector, identical in the setup and in every observation, so the kernel and the
# strategies score with the same function (rules.kind_points / rules.showdown_score).
# points(kind, c) = EACH[kind] * c + SET[kind, min(c, SET_LEN - 1)]
SET_LEN = 8                       # set tables hold the points for 0..7 cards; more add nothing
T_EACH = 0                        # [N_KINDS] points per card
T_SET = T_EACH + N_KINDS          # [N_KINDS * SET_LEN] set points by count
T_JUDGE = T_SET + N_KINDS * SET_LEN   # 武判: points per card of the named kind (5)
T_IMPLEMENTS = T_JUDGE + 1        # 刑具爺: bonus this round (3)
T_OX = T_IMPLEMENTS + 1           # 牛頭: factor on 殺生 points (2)
T_XIE = T_OX + 1                  # 謝將軍: bonus per 忠信 / 孝行 card (1)
T_FAN_MODE = T_XIE + 1            # 范將軍: 0 minus-one (per card), 1 steal (fixed points)
T_FAN_AMOUNT = T_FAN_MODE + 1     # 范將軍: 1 point per card, or the points stolen (4)
# Derived from the entries above when the table is built (rules.derive_scoring), because scoring is
# the hottest rule of all: the points of 0..POINTS_LEN-1 cards of each kind for a holder of each
# role, 牛頭's and 謝將軍's modifiers included (not 武判's named kind; a count past the set table
# adds the same points per card, so larger counts extend the last step), and which kinds score by
# a set table.
POINTS_LEN = SET_LEN + 1
T_POINTS = T_FAN_AMOUNT + 1       # [N_ROLES * N_KINDS * POINTS_LEN]
T_SET_KIND = T_POINTS + N_ROLES * N_KINDS * POINTS_LEN   # [N_KINDS] 1 if the kind has a set table
TABLE_SIZE = T_SET_KIND + N_KINDS
FAN_MINUS_ONE, FAN_STEAL = 0, 1
FAN_VARIANTS = ("minus-one", "steal-four")

# --- decisions ------------------------------------------------------------------------------------
# Actions are small integers whose meaning depends on the decision. "kind" means a card kind code
# 0..5; "seat" a seat 0..n-1. SOURCE and TARGET of 文判 use 0..5 for a face-up card of that kind
# and 6..11 (FACE_DOWN + kind) for one of the civil judge's own face-down cards of that kind.
FACE_DOWN = N_KINDS
N_ACTIONS = 2 * N_KINDS
DECISIONS = (
    DecisionKind(0, "draft", "kind", "keep one card of this kind from the pack in hand"),
    DecisionKind(1, "discard", "kind", "discard one of the 6 drafted cards face down"),
    DecisionKind(2, "hide", "kind", "lay one more card face down (asked 2 times, 3 for 柳將軍); "
                 "the rest are laid face up"),
    DecisionKind(3, "judge", "kind", "武判 names a card kind"),
    DecisionKind(4, "gan_keep", "kind", "甘將軍 keeps one of the two drawn cards"),
    DecisionKind(5, "peek", "seat",
                 "刑具爺 looks at one face-down card of that seat (asked twice)"),
    DecisionKind(6, "scribe_source", "kind (0-5 face up, 6-11 face down)",
                 "文判 picks the own card to move"),
    DecisionKind(7, "scribe_target", "kind (0-5 a face-up card on the table, 6-11 own face-down)",
                 "文判 picks the card to copy"),
    DecisionKind(8, "vote", "seat", "secret simultaneous vote for the player with the top score"),
    DecisionKind(9, "admit", "0 deny, 1 admit", "the accused admits or denies"),
    DecisionKind(10, "admit_discard", "kind", "the accused who admitted discards a card (twice)"),
    DecisionKind(11, "compensation", "kind", "the wrongly accused takes a card from the pile"),
    DecisionKind(12, "theft_target", "seat", "the thief names the player to take a card from"),
    DecisionKind(13, "theft_give", "kind", "the victim of the theft chooses the card to give"),
    DecisionKind(14, "fan_target", "seat", "范將軍 names the player it penalises"),
    DecisionKind(15, "tie_break", "seat", "the captain picks one of the tied players"),
)
(DRAFT, DISCARD, HIDE, JUDGE, GAN_KEEP, PEEK, SCRIBE_SOURCE, SCRIBE_TARGET, VOTE, ADMIT,
 ADMIT_DISCARD, COMPENSATION, THEFT_TARGET, THEFT_GIVE, FAN_TARGET, TIE_BREAK) = range(16)
DENY, CONFESS = 0, 1

# What a tie decision is about (obs "tie").
TIES = ("vote", "theft", "captain", "winner")
TIE_VOTE, TIE_THEFT, TIE_CAPTAIN, TIE_WINNER = range(4)

# --- observation: what one seat knows when it decides ---------------------------------------------
UNKNOWN = -1
OBSERVATION = ObservationLayout((
    ("kind", 1, "decision kind code"),
    ("me", 1, "my seat"),
    ("players", 1, "number of players"),
    ("round", 1, "current round, from 1"),
    ("rounds", 1, "rounds in the game"),
    ("captain", 1, "this round's captain"),
    ("my_role", 1, "my role code"),
    ("roles", MAX_PLAYERS, "role code of each seat (roles are dealt face up); -1 past the players"),
    ("totals", MAX_PLAYERS, "each seat's total before this round (derivable from the reveals)"),
    ("deck", N_KINDS, "cards of each kind in the game (dealt or set aside)"),
    ("table", TABLE_SIZE, "the scoring table (see T_* in declaration.py)"),
    ("pick", 1, "draft pick number 1..6, 0 outside the draft"),
    ("pack", N_KINDS, "cards of each kind in the pack I pick from (draft only)"),
    ("mine", N_KINDS, "my cards of each kind (drafted so far, then held)"),
    ("my_up", N_KINDS, "layout: my cards to lay / laid face up, by kind"),
    ("my_down", N_KINDS, "layout: my cards laid face down, by kind"),
    ("to_hide", 1, "layout: cards I still have to lay face down, this one included"),
    ("judge_kind", 1, "the kind 武判 named this round, or -1"),
    ("revealed", 1, "1 once every card on the table is face up"),
    ("known", MAX_PLAYERS * N_KINDS, "per seat and kind: cards of that seat I know (mine: all)"),
    ("unknown", MAX_PLAYERS, "per seat: its cards whose kind I do not know"),
    ("pile_size", 1, "cards in the discard pile"),
    ("pile_known", N_KINDS, "pile cards I know of, by kind (all of them when I look through it)"),
    ("drawn", N_KINDS, "甘將軍: the two cards drawn from the pile, by kind"),
    ("source", 1, "文判: the source action already chosen, or -1"),
    ("votes", MAX_PLAYERS, "votes each seat received (after the vote)"),
    ("accused", 1, "the accused seat, or -1"),
    ("admitted", 1, "-1 not yet decided, 0 denied, 1 admitted"),
    ("accused_highest", 1, "-1 unknown, 1 the accused really had the top score, 0 not"),
    ("thief", 1, "the seat that steals this round, or -1"),
    ("tie", 1, "what a tie decision is about (TIES), or -1"),
    ("tied", MAX_PLAYERS, "1 for each seat in the tie being broken"),
))
OBS = OBSERVATION.offsets()

# --- results --------------------------------------------------------------------------------------
END_CONDITIONS = ("highest total", "tie broken by the captain")
END_HIGHEST, END_CAPTAIN_TIE = range(2)
MAX_LENGTH = MAX_ROUNDS
SCORE_CLIP = 255  # score histograms count final totals 0..255; higher totals go in the last bin

EVENTS = (
    "accusations",          # votes held (one per round)
    "vote_ties",            # the captain chose the accused among tied players
    "accused_highest",      # the accused really had the top showdown score (ties count)
    "admits",               # the accused admitted
    "admits_highest",       # ... and really had the top score
    "denies",               # the accused denied
    "deny_correct",         # denied and was not the highest: compensation
    "deny_wrong",           # denied but was the highest: lost the two most valuable cards
    "compensation_empty",   # a compensation with an empty discard pile
    "horse_face_takes",     # 竊盜 cards 馬面 took from the discard pile
    "thefts",               # cards stolen
    "theft_ties",           # the captain chose the thief among tied players
    "rounds_without_theft", # rounds in which nobody held 竊盜
    "fan_penalties",        # 范將軍 penalties applied
    "captain_ties",         # the captain chose next round's captain among tied players
    "captain_round_top",    # rounds in which the captain had the top round score (ties count)
    "final_ties",           # games whose top total was tied (the last captain decided)
    "final_captain_wins",   # games won by the last round's captain
    "rounds",               # rounds played
)
(EV_ACCUSATIONS, EV_VOTE_TIES, EV_ACCUSED_HIGHEST, EV_ADMITS, EV_ADMITS_HIGHEST, EV_DENIES,
 EV_DENY_CORRECT, EV_DENY_WRONG, EV_COMPENSATION_EMPTY, EV_HORSE_FACE_TAKES, EV_THEFTS,
 EV_THEFT_TIES, EV_NO_THEFT, EV_FAN, EV_CAPTAIN_TIES, EV_CAPTAIN_TOP, EV_FINAL_TIES,
 EV_FINAL_CAPTAIN_WINS, EV_ROUNDS) = range(len(EVENTS))

# --- trace events (rows of the trace buffer: step = round, code, actor, target, value, extra) ----
TRACE_EVENTS = (
    "round", "captain", "role", "deal", "pick", "discard", "layout", "judge", "gan", "peek",
    "scribe", "vote", "accused", "admit", "admit_discard", "reveal", "showdown_loss",
    "compensation", "horse_face", "theft", "no_theft", "fan", "round_score", "tie_break", "winner",
)
(TR_ROUND, TR_CAPTAIN, TR_ROLE, TR_DEAL, TR_PICK, TR_DISCARD, TR_LAYOUT, TR_JUDGE, TR_GAN,
 TR_PEEK, TR_SCRIBE, TR_VOTE, TR_ACCUSED, TR_ADMIT, TR_ADMIT_DISCARD, TR_REVEAL,
 TR_SHOWDOWN_LOSS, TR_COMPENSATION, TR_HORSE_FACE, TR_THEFT, TR_NO_THEFT, TR_FAN,
 TR_ROUND_SCORE, TR_TIE_BREAK, TR_WINNER) = range(len(TRACE_EVENTS))

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
    "the S abilities (牛頭, 謝將軍) and 刑具爺's +3 count in the round score also when the accused "
    "admitted (the cards are revealed all the same)",
    "the showdown's two most valuable cards go to the discard pile; among equally valuable pairs "
    "the one with the lowest kind codes goes",
    "the admitting player's discards are taken face down first when it holds the kind face down",
    "馬面 acts before the check 'nobody holds 竊盜', so its take can start the theft event",
    "the thief may only name a player who holds a card; the victim gives any card it holds",
    "范將軍 names another player; minus-one: the penalty is the number of cards held; steal: "
    "at most the victim's round score is moved to 范將軍",
    "a round score is never below 0",
    "the current captain breaks the tie for next round's captain",
    "a decision with a single legal action is taken without asking the strategy",
    "a seat's pile knowledge is what it saw go in (its discard, 甘將軍's draw, a look through "
    "the pile, public discards); it is not updated for draws it cannot see",
)
