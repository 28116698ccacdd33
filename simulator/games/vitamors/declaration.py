"""生死逆謀 Vita Mors Conspiro, declared: factions, items (arcane tiles and schemes), effects,
decisions, observation, end conditions, events and trace events.

Everything here is data. The kernel, the rules, the strategies and the trace decoder read these
constants; nothing below changes during a run. Every code is a position in one declared tuple
(`codes(...)` names them), so no number is written twice.

The source gives the flow, the setup tables and the victory rules; the rank distribution of the
character deck and what each arcane tile and scheme does are not published. Those defaults are
this project's (docs/rules/vitamors.md gives each), listed in PROVISIONAL, and each is a config
key (params.py).
"""

from __future__ import annotations

from simulator.games.base import (
    DecisionKind, Digits, Item, Mark, ObservationLayout, Role, SetupCheck, SetupNeed, TraceEvent,
    TurnOrder, codes, private, public, trace_places,
)

NAME = "vitamors"
TITLE = "生死逆謀 Vita Mors Conspiro (provisional rules: card ranks and effects are this project's)"
SOURCE = ("生死逆謀 Vita Mors Conspiro, 玩聚設計 Play With Us Design (from an abridged transcription "
          "of its rules); the rules as implemented and this project's rulings: "
          "docs/rules/vitamors.md")
MIN_PLAYERS = 5
MAX_PLAYERS = 10
SCORING = "team"
LENGTH_UNIT = "turns"
DEFAULT_CONFIG = "vitamors/default.toml"

# The players' standard (simulator/studies/standard.py, docs/strategies.md): the people-like strategy this
# game's balance is measured with, and the built-in configs it is measured on.
MEASURING_STRATEGY = "conspirator"


# The source's tables (第２頁, 第３頁).
JESTERS_BY_PLAYERS = {5: 2, 6: 2, 7: 2, 8: 3, 9: 3, 10: 3}
NOVICE_SCROLLS = {
    5: {"gaze": 2, "peek": 2, "veil": 1, "swap": 0},
    6: {"gaze": 3, "peek": 3, "veil": 1, "swap": 1},
    7: {"gaze": 3, "peek": 3, "veil": 1, "swap": 1},
    8: {"gaze": 3, "peek": 3, "veil": 1, "swap": 1},
    9: {"gaze": 3, "peek": 4, "veil": 1, "swap": 1},
    10: {"gaze": 4, "peek": 4, "veil": 2, "swap": 1},
}
EXPERT_SCROLLS = {
    5: {"gaze": 2, "peek": 2, "brink": 1, "veil": 1, "swap": 0, "prolong": 1, "requiem": 1},
    6: {"gaze": 3, "peek": 3, "brink": 1, "veil": 1, "swap": 1, "prolong": 1, "requiem": 1},
    7: {"gaze": 3, "peek": 3, "brink": 1, "veil": 1, "swap": 1, "prolong": 1, "requiem": 1},
    8: {"gaze": 3, "peek": 3, "brink": 2, "veil": 1, "swap": 1, "prolong": 1, "requiem": 1},
    9: {"gaze": 3, "peek": 3, "brink": 2, "veil": 1, "swap": 1, "prolong": 1, "requiem": 1},
    10: {"gaze": 3, "peek": 4, "brink": 2, "veil": 1, "swap": 1, "prolong": 1, "requiem": 1},
}
SCROLL_TABLES = {"novice": NOVICE_SCROLLS, "expert": EXPERT_SCROLLS}


def _scroll_dealt(item: str):
    """The run's config deals at least one scroll of `item` (its mode's table at its player
    count, less `rules.without`)."""
    def test(config: dict) -> bool:
        rules = config.get("rules") or {}
        mode = rules.get("mode", "novice")
        if item in (rules.get("without") or ()):
            return False
        players = config.get("players")
        table = {str(k): v for k, v in (SCROLL_TABLES.get(mode) or {}).items()}
        table.update({str(k): v for k, v in ((config.get("scrolls") or {}).get(mode) or {})
                      .items()})
        row = table.get(str(players)) or {}
        return bool(row.get(item, 0))
    return SetupNeed(f"a {item} scroll in the setup", test)


# What makes an event available (`fairplay coverage`): the scrolls the setup deals; a judgement
# can tie only at an even count.
COVERAGE_NEEDS = {
    "spell_gaze": _scroll_dealt("gaze"), "gaze_exposed": _scroll_dealt("gaze"),
    "spell_peek": _scroll_dealt("peek"), "peek_found_jester": _scroll_dealt("peek"),
    "spell_brink": _scroll_dealt("brink"), "spell_veil": _scroll_dealt("veil"),
    "veiled": _scroll_dealt("veil"), "spell_swap": _scroll_dealt("swap"),
    "exchanged": _scroll_dealt("swap"), "spell_prolong": _scroll_dealt("prolong"),
    "spell_requiem": _scroll_dealt("requiem"),
    "judgement_ties": SetupNeed("an even number of players",
                                lambda config: int(config.get("players", 1)) % 2 == 0),
}
# Why good players never (or, where it says so, rarely) bring these about (the coverage
# standard, docs/strategies.md).
NEVER_USED = {
    "judgement_ties": "each faction votes as one at a judgement (the exiles for the altar their "
                      "pattern needs, the jesters against it) and no standard count deals the "
                      "factions evenly, so the ballots never split half and half",
    "ritual failed, jesters initiated": "a failed ritual the jesters initiate hands the exiles "
                                        "the win: a jester votes for a ritual only on a pattern "
                                        "it has verified, or as the one backer of a doomed ritual "
                                        "beside a believing exile (a tie, which the exiles "
                                        "initiate)",
    "peek_found_jester": "rare in novice mode at 10 players (about one game in a thousand): an "
                         "exile holding back a card removes a Secret Peek scroll before the "
                         "scrolls that verify a claim, and ten players hold back six times a "
                         "game, so the Peek scrolls are mostly gone before anyone has a reason "
                         "to look; the jesters look only at exiles (to frame them)",
    "ritual succeeded, jesters initiated": "rare at 5 players: the jesters win by the card limit "
                                           "or by the exiles' failed rituals, and initiate one "
                                           "only on a real pattern the exiles do not see, which "
                                           "both jesters must have verified (the two of them are "
                                           "the only yes votes)",
}
STANDARD_CONFIGS = (
    "vitamors/players-5.toml",
    "vitamors/default.toml",
    "vitamors/players-10.toml",
    "vitamors/expert.toml",
    "vitamors/expert-8.toml",
)


# --- setups the game cannot be played with as it intends (refused when a config is loaded) -------
def longest_play(params) -> int:
    """The most cards a game can see offered: the card limit, raised by every scroll whose item
    moves it up."""
    raising = sum(count for item, count in enumerate(params.scrolls)
                  if params.effects[item] == EFFECT.card_limit)
    knobs = params.knobs
    return min(knobs.card_limit + max(knobs.card_limit_step, 0) * raising, MAX_ALTAR)


def _no_ritual(params) -> str:
    limit = longest_play(params)
    if min(params.life_cards, params.death_cards) <= limit:
        return ""
    return (f"a ritual vote needs {params.life_cards} cards on the Life Altar or "
            f"{params.death_cards} on the Death Altar, but the game ends when both altars hold "
            f"{limit} together: no ritual could ever be voted, so the jesters would win every "
            f"game; lower rules.life_cards or rules.death_cards to {limit} or less, or raise "
            f"rules.card_limit")


SETUP_CHECKS = (
    SetupCheck("rules.life_cards", "altar thresholds for a ritual vote above the card limit (no "
               "ritual ever: the jesters win every game)", _no_ritual),
)


MAX_SCROLLS = 15   # scroll tokens in the box: the most positions a setup may use
MAX_ALTAR = 15     # cards the two altars may hold together (the card limit, prolonged, at most)
MAX_RANKS = 12     # ranks a config's character deck may have
MAX_DECK = 60      # character cards a config's deck may hold (a seat's knowledge is a 64-bit mask)
MAX_LENGTH = MAX_SCROLLS + MAX_ALTAR + 2  # turns: each removes a scroll or places a card

# --- factions -------------------------------------------------------------------------------------
TEAMS = ("exiles", "jesters")
SYMMETRIC_SEATS = "roles are dealt at random and the first sacrificer is drawn at random"
TURN_ORDER = TurnOrder("counter-clockwise (to the right)", "drawn at random (the first sacrificer)",
                       random_first=True)
TEAM = codes(TEAMS, "Team")
ROLES = (
    Role("exile", "exiles", "wins by a successful ritual it started (or a failed one the jesters "
                            "started)", "流放者"),
    Role("jester", "jesters", "knows the jesters and their starting cards; places the schemes; "
                              "wins by a failed ritual, or nine cards without one", "小丑"),
)
ROLE = codes(ROLES, "Role")
EXILE, JESTER = ROLE.exile, ROLE.jester

# --- items: the three arcane tiles (a scythe under one performs it) and the four schemes -----------
ITEMS = ("gaze", "peek", "brink", "veil", "swap", "prolong", "requiem")
ITEM = codes(ITEMS, "ItemCode")
ITEM_LABELS = ("死神凝視 Death's Gaze", "秘密窺探 Secret Peek", "生死之際 Brink of Life and Death",
               "遮蔽 Veil", "替換 Swap", "續命 Prolong Life", "安魂 Requiem")
N_ITEMS = len(ITEMS)
N_TILES = 3                      # items 0..2 are tiles: a scroll showing one is a Death's Scythe
TILES = ITEMS[:N_TILES]
SCHEMES = ITEMS[N_TILES:]
N_SCHEMES = len(SCHEMES)

# --- effects: what an item does when its scroll is flipped (each item's effect is config data) ----
EFFECTS = (
    Item("nothing", "no effect"),
    Item("see-sacrifice", "the caster secretly looks at the card in the sacrifice area"),
    Item("see-faction", "the caster secretly looks at one other player's faction card"),
    Item("swap-adjacent", "the caster swaps two adjacent cards on one altar"),
    Item("veil", "the card in the sacrifice area goes, without a vote, to the altar the caster "
                 "chooses"),
    Item("exchange-sacrifice", "the card in the sacrifice area is exchanged with the top card of "
                               "the draw pile, unseen"),
    Item("card-limit", "the card limit changes by effects.card_limit_step for this game"),
    Item("ritual-votes", "the yes votes the ritual needs change by effects.ritual_votes_step for "
                         "this game"),
)
EFFECT = codes(EFFECTS, "Effect")
EFFECT_NAMES = tuple(e.name for e in EFFECTS)
DEFAULT_EFFECTS = {
    "gaze": "see-sacrifice", "peek": "see-faction", "brink": "swap-adjacent", "veil": "veil",
    "swap": "exchange-sacrifice", "prolong": "card-limit", "requiem": "ritual-votes",
}

# --- the table --------------------------------------------------------------------------------------
ALTARS = ("life", "death")
ALTAR = codes(ALTARS, "Altar")
ALTAR_LABELS = ("Life Altar 活祭壇", "Death Altar 死祭壇")
SCROLL_STATES = ("unused", "present", "removed", "flipped")
SCROLL = codes(SCROLL_STATES, "ScrollState")

# --- decisions ------------------------------------------------------------------------------------
OFFERS = ("play", "remove")
OFFER = codes(OFFERS, "Offer")
PROPOSALS = ("decline", "propose")
PROPOSAL = codes(PROPOSALS, "Proposal")
RITUAL_VOTES = ("no", "yes")
RITUAL_VOTE = codes(RITUAL_VOTES, "RitualVote")
PASS = MAX_SCROLLS    # place_scheme: keep the scheme aside (only when rules.jesters_swap = "choose")
SILENT = MAX_RANKS    # announce / report_rank: say nothing
FACTION_SILENT = 2    # report_faction: say nothing (0 exile, 1 jester)
MAX_ACTIONS = 2 * MAX_ALTAR  # brink_swap: altar * MAX_ALTAR + i (swap cards i and i + 1)

DECISIONS = (
    DecisionKind("keep_scheme", "0 Prolong Life, 1 Requiem",
                 "expert: the jesters keep one of Prolong Life / Requiem (the other is discarded "
                 "face down)"),
    DecisionKind("place_scheme", "scroll position of a scythe (or PASS = 15: keep it aside)",
                 "jesters' night: a scheme replaces the scythe at this position"),
    DecisionKind("offer", "0 play the card, 1 remove a scroll",
                 "the sacrificer's offer (forced to play when no scroll is left)"),
    DecisionKind("remove_scroll", "scroll position", "the scroll the sacrificer removes unseen"),
    DecisionKind("announce", "rank 0..R-1 (shown as 1..R), or SILENT = 12",
                 "the sacrificer's public claim about the card it played (asked only of "
                 "strategies that talk)"),
    DecisionKind("propose", "0 decline, 1 propose a spell",
                 "a player with a feather, after a card is played, in turn order"),
    DecisionKind("spell_scroll", "scroll position", "the scroll the proposer names"),
    DecisionKind("spell_caster", "seat", "the caster the proposer names (self included)"),
    DecisionKind("peek_target", "seat", "see-faction: the player whose faction the caster sees"),
    DecisionKind("veil_altar", "0 life, 1 death", "veil: the altar the caster puts the card on"),
    DecisionKind("brink_swap", "altar * 15 + i: swap cards i and i + 1 of that altar",
                 "swap-adjacent: the two cards the caster swaps"),
    DecisionKind("report_rank", "rank 0..R-1, or SILENT = 12",
                 "see-sacrifice: the caster's public claim about what it saw (strategies that "
                 "talk)"),
    DecisionKind("report_faction", "0 exile, 1 jester, 2 silent",
                 "see-faction: the caster's public claim about what it saw (strategies that talk)"),
    DecisionKind("judgement", "0 life, 1 death",
                 "everyone's simultaneous vote on the card; a tie follows the sacrificer"),
    DecisionKind("ritual", "0 no, 1 yes", "everyone's simultaneous vote to start the ritual"),
)
DECISION = codes(DECISIONS, "Decision")

# --- observation: what one seat knows when it decides ---------------------------------------------
# Altar pieces hold both altars: entry altar * MAX_ALTAR + i is card i (in order of arrival) of
# that altar. Ranks are 0..R-1 (the trace shows them as 1..R); -1 means unknown or none.
UNKNOWN = -1
OBSERVATION = ObservationLayout((
    # the run's constants
    public("mode", 1, "0 novice, 1 expert"),
    public("jesters", 1, "jesters dealt (the setup is public)"),
    public("ranks", 1, "ranks in the character deck (R)"),
    public("deck", MAX_RANKS, "character cards of each rank in the deck"),
    public("effects", N_ITEMS, "the effect (EFFECTS code) each item performs, by item"),
    public("setup_schemes", N_SCHEMES, "schemes of each kind in the setup (veil, swap, prolong, "
                                       "requiem); the jesters keep only one of prolong / requiem"),
    public("life_cards", 1, "Life Altar cards that allow a ritual vote"),
    public("death_cards", 1, "Death Altar cards that allow a ritual vote"),
    # public, kept up to date by the rules
    public("turn", 1, "current turn, from 1"),
    public("sacrificer", 1, "the seat holding the Reaper"),
    public("card_limit", 1, "cards on both altars that end the game without a ritual (now)"),
    public("yes_needed", 1, "yes votes that start the ritual (now)"),
    public("feathers", MAX_PLAYERS, "1 if the seat still has its feather"),
    public("scroll_tile", MAX_SCROLLS,
           "the tile (item 0..2) each scroll position lies under, -1 unused"),
    public("scroll_state", MAX_SCROLLS, "each position: SCROLL_STATES code"),
    public("scroll_shown", MAX_SCROLLS, "the item a flipped scroll showed (public), else -1"),
    public("replaced", N_TILES, "scythes set aside face up from under each tile at night "
                                "(rules.replaced_scythes = \"shown\"), else -1"),
    public("altar_size", 2, "cards on the Life and the Death Altar"),
    public("altar_by", 2 * MAX_ALTAR, "the seat that offered each altar card, -1 none"),
    public("altar_claim", 2 * MAX_ALTAR, "the rank its sacrificer announced, -1 none"),
    public("altar_claimer", 2 * MAX_ALTAR, "who announced it, -1"),
    public("altar_report", 2 * MAX_ALTAR, "the rank a see-sacrifice caster reported, -1 none"),
    public("altar_reporter", 2 * MAX_ALTAR, "who reported it, -1"),
    public("sac_by", 1, "the seat that offered the card in the sacrifice area, -1 when empty"),
    public("sac_claim", 1, "its announced rank, -1"),
    public("sac_claimer", 1, "who announced it, -1"),
    public("sac_report", 1, "the rank a see-sacrifice caster reported for it, -1"),
    public("sac_reporter", 1, "who reported it, -1"),
    public("judged", 1, "cards judged by a vote so far"),
    public("votes", MAX_PLAYERS, "each seat's vote on the last judged card (0 life, 1 death), -1"),
    public("rituals", 1, "ritual votes held so far"),
    public("ritual_votes", MAX_PLAYERS, "each seat's last ritual vote (0 no, 1 yes), -1"),
    public("faction_claim", MAX_PLAYERS,
           "the last public claim about the seat's faction (0 exile, 1 jester), -1"),
    public("faction_claimer", MAX_PLAYERS, "who made it, -1"),
    public("news", 1, "public events so far (a strategy may cache what it derived from them)"),
    # private: written for the deciding seat
    private("hand", 1, "the rank of my hand card, -1 none"),
    private("known_faction", MAX_PLAYERS, "factions I know (mine; a jester: all), -1 unknown"),
    private("altar_known", 2 * MAX_ALTAR, "ranks of the altar cards I know, -1 unknown"),
    private("sac_known", 1, "the rank of the card in the sacrifice area, if I know it, -1"),
    private("scroll_known", MAX_SCROLLS,
            "the item under each unflipped scroll, if I know it (jesters)"),
    private("kept", 1, "the scheme kept of prolong / requiem, if I know it (jesters), -1"),
    private("placing", 1, "place_scheme: the scheme being placed, else -1"),
    private("effect", 1, "a caster's decisions: the effect being resolved, else -1"),
    private("peeked", 1, "report_faction: the seat whose faction I just saw, else -1"),
))
OBS = OBSERVATION.offsets()

# --- results --------------------------------------------------------------------------------------
END_CONDITIONS = (
    Item("success_exiles", "ritual succeeded, exiles initiated"),
    Item("success_jesters", "ritual succeeded, jesters initiated"),
    Item("failure_exiles", "ritual failed, exiles initiated"),
    Item("failure_jesters", "ritual failed, jesters initiated"),
    Item("card_limit", "card limit reached without a ritual"),
)
END = codes(END_CONDITIONS, "End")

EVENTS = tuple(Item(f"spell_{item}", f"spells that flipped a {label}"
                    + (" scythe" if i < N_TILES else " scheme"))
               for i, (item, label) in enumerate(zip(ITEMS, ITEM_LABELS))) + (
    Item("cards_played", "character cards offered"),
    Item("scrolls_removed", "scrolls removed instead of offering"),
    Item("forced_offers", "offers forced (no scroll left to remove)"),
    Item("false_announcements", "announcements of a rank that was not the card's"),
    Item("gaze_exposed", "see-sacrifice spells that saw another rank than the one announced"),
    Item("peek_found_jester", "see-faction spells that found a jester"),
    Item("judgement_ties", "judgements decided by the sacrificer's vote"),
    Item("veiled", "cards placed by a veil, without a vote"),
    Item("exchanged", "cards exchanged with the draw pile"),
    Item("ritual_votes", "ritual votes held"),
    Item("life_pattern", "games whose Life Altar showed three consecutive cards of one rank"),
    Item("death_pattern", "games whose Death Altar showed two pairs of different ranks"),
)
EV = codes(EVENTS, "Event")

# --- trace events (rows: turn, code, actor, target, value, extra) ----------------------------------
# {tile:label} is an item's label; trace.py tells the sentences that need logic. An altar's
# cards are packed as rank + 1 (0 ends the row), the first card in the lowest place. The marks
# (`table`) keep what lies by each seat (its faction card, feather, the Reaper, its faction
# reports, its revealed faction) and what a spell or the night showed it.
E, M = TraceEvent, Mark
TRACE_EVENTS = (
    E("setup", actor="players", target="jesters", value="mode", extra="limit"),
    E("deal", actor="seat", value="role", extra="rank",
      table=(M("role", "seat", "{role:role}"), M("front", "seat", "死神之羽 Death's Feather"))),
    E("start", actor="seat", value="fixed",  # fixed: rules.starting_player says seat 0
      table=(M("front", "seat", "the Reaper"),)),
    E("night", actor="speaker", value="jesters"),
    E("keep", "  the jesters keep {kept:label} and discard {discarded:label} face down",
      actor="speaker", value="kept", extra="discarded", private=True,
      table=(M("learns", "speaker", "the jesters keep {kept:label}, discard {discarded:label}"),)),
    E("scheme", actor="speaker", target="position", value="scheme", extra="tile",
      table=(M("learns", "speaker", "{scheme:label} {position:placed}"),)),
    E("turn", "Turn {turn}: seat {seat} is the sacrificer", actor="seat", value="turn"),
    E("remove", actor="seat", target="position", value="item", extra="tile"),
    E("play", "  seat {seat} offers a card face down to the sacrifice area",
      secret="  seat {seat}'s card is {rank:rank}", actor="seat", value="rank"),
    E("draw", actor="seat", value="rank"),
    E("announce", actor="seat", value="said", extra="rank"),
    E("propose", "  seat {seat} discards its feather: the scroll at position {position} (under "
                 "{tile:label}), cast by seat {caster}",
      actor="seat", target="caster", value="position", extra="tile",
      table=(M("taken", "seat", "死神之羽 Death's Feather"),)),
    E("flip", "  seat {caster} flips it: the {item:item}, {effect:effect}",
      actor="caster", value="item", extra="effect"),
    E("gaze", "  seat {caster} looks at seat {sacrificer}'s card in secret",
      secret="  seat {caster} sees {rank:rank}", actor="caster", target="sacrificer",
      value="rank", table=(M("learns", "caster", "turn {step}: seat {sacrificer}'s card is "
                                                 "{rank:rank}"),)),
    E("peek", "  seat {caster} looks at seat {seat}'s faction card in secret",
      secret="  seat {caster} sees seat {seat} is {role:faction}", actor="caster", target="seat",
      value="role", table=(M("learns", "caster", "seat {seat} is {role:faction}"),)),
    E("report_rank", actor="caster", target="sacrificer", value="said", extra="rank"),
    E("report_faction", actor="caster", target="seat", value="said", extra="role",
      table=(M("front", "caster", "says seat {seat} is {said:faction}"),)),
    E("brink", actor="caster", target="altar", value="pair", extra="swapped"),
    E("veil", actor="caster", target="altar", value="rank"),
    E("exchange", actor="caster", target="sacrificer", value="rank", extra="old"),
    E("limit", "  the card limit moves by {change}: now {limit}",
      actor="caster", value="limit", extra="change"),
    E("needed", "  the ritual's yes votes move by {change}: now {needed}",
      actor="caster", value="needed", extra="change"),
    E("vote", actor="seat", value="death"),
    E("judged", actor="sacrificer", value="altar", extra="tied"),
    E("altars", actor="life_cards", target="death_cards",
      value=Digits("life", 16, count="life_cards"), extra=Digits("death", 16, count="death_cards")),
    E("ritual_vote", actor="seat", value="yes"),
    E("ritual", actor="yes", target="needed", value="started"),
    E("reveal", "  seat {seat} voted yes and reveals: {role:role}", actor="seat", value="role",
      table=(M("front", "seat", "faction revealed: {role:role}"),)),
    E("pattern", actor="team", value="life", extra="death"),  # which pattern each altar shows
    E("winner", "The {team:team} win: {end:end}.", value="team", extra="end"),
    E("decline", "  seat {seat} keeps its feather (no spell)", actor="seat"),
    E("passes", "  the Reaper passes to seat {seat}", actor="previous", target="seat",
      table=(M("taken", "previous", "the Reaper"), M("front", "seat", "the Reaper"))),
)
TR = codes(TRACE_EVENTS, "Trace")
PACKED = trace_places(TRACE_EVENTS)  # the place values the kernel packs with

# The options of the rule knobs (params.KEYS; the state holds the option's code).
MODES = ("novice", "expert")  # rules.mode
SWAP_RULES = ("all", "choose")  # rules.jesters_swap
SWAP = codes(SWAP_RULES, "Swap")
REMOVED_SCROLL_RULES = ("unseen", "shown")  # rules.removed_scroll
REMOVED_SCROLL = codes(REMOVED_SCROLL_RULES, "RemovedScroll")
SPELL_RULES = ("any", "one")  # rules.spells_per_card
SPELLS = codes(SPELL_RULES, "Spells")
REPLACED_SCYTHE_RULES = ("unseen", "shown")  # rules.replaced_scythes
REPLACED_SCYTHES = codes(REPLACED_SCYTHE_RULES, "ReplacedScythes")
STARTING_PLAYER_RULES = ("random", "seat-0")  # rules.starting_player
STARTING_PLAYER = codes(STARTING_PLAYER_RULES, "StartingPlayer")

# Rulings this project made where the source is silent or its effects are unpublished
# (docs/rules/vitamors.md gives each one's code, test and config key).
PROVISIONAL = (
    "the character deck: 24 cards, 6 ranks x 4 (deck.ranks)",
    "Death's Gaze: the caster secretly looks at the card in the sacrifice area (effects.gaze)",
    "Secret Peek: the caster secretly looks at one other player's faction card (effects.peek)",
    "Brink of Life and Death: the caster swaps two adjacent cards on one altar (effects.brink)",
    "Veil: the card in the sacrifice area goes, without a vote, to the altar the caster chooses; "
    "no further spell follows that card (effects.veil)",
    "Swap: the card in the sacrifice area is exchanged with the top card of the draw pile, unseen "
    "(effects.swap)",
    "Prolong Life: the 9-card limit becomes 10 for this game (effects.prolong)",
    "Requiem: the ritual needs 3 yes votes instead of 2 for this game (effects.requiem)",
    "traitor tokens are not used",
    "the jesters replace a scythe with every scheme of the setup, at positions they choose "
    "(rules.jesters_swap); the replaced scythes leave the game unseen (rules.replaced_scythes)",
    "expert: the jesters choose which of Prolong Life / Requiem to keep; which one is secret",
    "the first jester in turn order from the starting player speaks for the jesters at night",
    "the starting player is a random seat (rules.starting_player); seats are numbered in turn "
    "order",
    "a scroll removed instead of playing is the sacrificer's choice and leaves the game unseen "
    "(rules.removed_scroll)",
    "spell proposals are asked once per played card, in turn order from the sacrificer, each "
    "resolving before the next (rules.spells_per_card); the named caster cannot refuse; no "
    "scroll left, no spell",
    "a scythe acts through the tile above its original position; a flipped scroll is public",
    "information from a spell is private to the caster; announcements and reports are public "
    "claims a strategy chooses, and may be lies",
    "talk is modelled as three public claims, each about what a seat may know: the sacrificer's "
    "rank, a Death's Gaze report and a Secret Peek report; unprompted faction claims and "
    "accusations are not (every player would claim to be an exile, and an accusation with no "
    "source adds nothing to the dissents and caught lies every seat already reads)",
    "cards lie on each altar in order of arrival",
    "an effect that finds nothing to act on (no two cards on an altar, an empty draw pile) does "
    "nothing",
)
