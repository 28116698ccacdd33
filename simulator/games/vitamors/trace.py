"""Readable lines from a Vita Mors Conspiro trace (rows: turn, code, actor, target, value, extra).

The first line says that the rules are provisional and names every setting that differs from the
defaults; each game then opens with its setup as the table sees it (the players and factions
dealt, the character deck, the scroll layout, the schemes set aside, the limits). Each row is one
sentence of what the table sees (TRACE_EVENTS declares the plain ones, the story below tells the
rest), and what a seat privately learns (its faction and cards, what the jesters see and do at
night, what a spell shows its caster) or what nobody sees (the rank of a face-down card, what a
removed scroll was) is a separate private line: `fairplay trace --private` shows them, a plain
trace is what the table saw. Ranks are shown 1..R. With the private lines every rule can be
checked from the text alone (tests/test_vitamors_replay.py does).
"""

from __future__ import annotations

from simulator.games.base import private_line
from simulator.games.story import Story, trace_decoder

from .declaration import (
    ALTAR_LABELS, DEFAULT_EFFECTS, EFFECTS, END_CONDITIONS, ITEM_LABELS, ITEMS, N_TILES,
    PROVISIONAL, ROLES, TEAMS, TRACE_EVENTS,
)

MODE_NAMES = ("novice", "expert")


def changed_settings(params) -> list[str]:
    """Every setting of `params` that differs from the defaults (the source's tables at its
    player count and mode, the provisional rulings, the deck and the effects), as `key = value`."""
    from .params import (
        DEFAULT_DECK, JESTERS_BY_PLAYERS, SCROLL_TABLES, VitamorsParams,
    )

    knobs, default = params.knobs, VitamorsParams(players=params.players)
    out = []
    if knobs.mode != default.knobs.mode:
        out.append(f"rules.mode = {knobs.mode}")
    if params.jesters != JESTERS_BY_PLAYERS.get(params.players):
        out.append(f"jesters = {params.jesters}")
    source = SCROLL_TABLES[knobs.mode].get(params.players, {})
    for i, item in enumerate(ITEMS):
        if item not in params.without and params.scrolls[i] != source.get(item, 0):
            out.append(f"scrolls.{knobs.mode}.{params.players}.{item} = {params.scrolls[i]}")
    if params.without:
        out.append("rules.without = [" + ", ".join(params.without) + "]")
    for key, value, fallback in (
            ("rules.jesters_swap", knobs.jesters_swap, default.knobs.jesters_swap),
            ("rules.removed_scroll", knobs.removed_scroll, default.knobs.removed_scroll),
            ("rules.spells_per_card", knobs.spells_per_card, default.knobs.spells_per_card),
            ("rules.replaced_scythes", knobs.replaced_scythes, default.knobs.replaced_scythes),
            ("rules.starting_player", knobs.starting_player, default.knobs.starting_player),
            ("rules.card_limit", knobs.card_limit, default.knobs.card_limit),
            ("rules.ritual_votes", knobs.ritual_votes, default.knobs.ritual_votes),
            ("rules.life_cards", params.life_cards, default.life_cards),
            ("rules.death_cards", params.death_cards, default.death_cards),
            ("effects.card_limit_step", knobs.card_limit_step, default.knobs.card_limit_step),
            ("effects.ritual_votes_step", knobs.ritual_votes_step,
             default.knobs.ritual_votes_step)):
        if value != fallback:
            out.append(f"{key} = {value}")
    if list(params.deck) != DEFAULT_DECK:
        out.append("deck.ranks = [" + ", ".join(str(c) for c in params.deck) + "]")
    for i, item in enumerate(ITEMS):
        if EFFECTS[params.effects[i]].name != DEFAULT_EFFECTS[item]:
            out.append(f"effects.{item} = {EFFECTS[params.effects[i]].name}")
    return out


def header(params=None) -> str:
    changed = ""
    if params is not None:
        settings = changed_settings(params)
        changed = ("; changed from the defaults: " + ", ".join(settings) if settings
                   else "; every setting at its default")
    return (f"Vita Mors Conspiro: provisional rules ({len(PROVISIONAL)} rulings of this project "
            f"where the source is silent, the card ranks and every effect among them; "
            f"`fairplay games vitamors` lists them{changed})")


def setup_lines(params) -> list[str]:
    """The table as it is laid out before the deal (public): the deck, the scrolls, the schemes."""
    if params is None:
        return []
    deck = ", ".join(f"{count} of rank {rank + 1}" for rank, count in enumerate(params.deck))
    lines = [f"  the character deck: {params.deck_size} cards: {deck}"]
    groups, position = [], 0
    for tile in range(N_TILES):
        count = params.scrolls[tile]
        if count:
            span = f"{position}" if count == 1 else f"{position}-{position + count - 1}"
            groups.append(f"{span} under {ITEM_LABELS[tile]}")
            position += count
    lines.append("  scroll positions: " + ", ".join(groups)
                 + "; each holds a Death's Scythe, face up")
    schemes = ", ".join(f"{params.scrolls[i]} {ITEM_LABELS[i]}"
                        for i in range(N_TILES, len(ITEMS)) if params.scrolls[i])
    lines.append(f"  schemes set aside face up: {schemes or 'none'}")
    lines.append(f"  a ritual vote follows {params.life_cards} Life or {params.death_cards} Death "
                 f"Altar cards; {params.knobs.ritual_votes} yes votes start it; each player has "
                 f"one feather")
    lines.append("  seats are numbered in turn order: the Reaper passes to the right "
                 "(counter-clockwise), from seat s to seat s + 1")
    return lines


def _faction(role: int) -> str:
    """"an exile", "a jester"."""
    name = ROLES[role].name
    return ("an " if name[0] in "aeiou" else "a ") + name


def _rank(r: int) -> str:
    return f"rank {r + 1}" if r >= 0 else "no card"


def _item(i: int) -> str:
    if not 0 <= i < len(ITEM_LABELS):
        return "nothing"
    return f"{ITEM_LABELS[i]} {'scythe' if i < N_TILES else 'scheme'}"


def _ranks(cards: list[int]) -> str:
    """An altar's cards as packed (rank + 1)."""
    return "[" + " ".join(map(str, cards)) + "]"


def _truth(seat, said: int, truth: int, what) -> list[str]:
    """The speaker's private line: what it knows, and whether it lied."""
    verdict = "the truth" if said == truth else "a lie"
    return [private_line(f"  seat {seat} knows it is {what(truth)}: {verdict}")]


class VitamorsStory(Story):
    """Keeps what a sentence needs from earlier rows (the factions dealt, the altars)."""

    def __init__(self, params):
        super().__init__(params)
        self.roles: dict[int, int] = {}
        self.hands: dict[int, int] = {}
        self.altars = "Life [], Death []"

    def header(self):
        return [header(self.params)]

    item = staticmethod(_item)
    rank = staticmethod(_rank)
    faction = staticmethod(_faction)

    @staticmethod
    def label(i: int) -> str:
        return ITEM_LABELS[i]

    @staticmethod
    def placed(position: int) -> str:
        """Where the jesters put a scheme at night."""
        return f"at position {position}" if position >= 0 else "kept aside"

    @staticmethod
    def effect(e: int) -> str:
        return EFFECTS[e].name

    @staticmethod
    def role(r: int) -> str:
        return ROLES[r].name

    @staticmethod
    def team(t: int) -> str:
        return TEAMS[t]

    @staticmethod
    def end(e: int) -> str:
        return END_CONDITIONS[e].meaning

    def removed_shown(self) -> bool:
        return self.params is not None and self.params.knobs.removed_scroll == "shown"

    def replaced_shown(self) -> bool:
        return self.params is not None and self.params.knobs.replaced_scythes == "shown"

    def tell_setup(self, row):
        self.roles, self.hands = {}, {}
        self.altars = "Life [], Death []"
        return [f"Setup: {row.players} players, {row.jesters} jesters, {MODE_NAMES[row.mode]} "
                f"mode, card limit {row.limit}", *setup_lines(self.params)]

    def tell_deal(self, row):
        self.roles[row.seat], self.hands[row.seat] = row.role, row.rank
        return [f"  seat {row.seat} draws a faction card and a character card",
                private_line(f"  seat {row.seat}: {ROLES[row.role].label} {ROLES[row.role].name}, "
                        f"holds {_rank(row.rank)}")]

    @staticmethod
    def tell_start(row):
        how = "seat 0 by rules.starting_player" if row.fixed else "drawn at random"
        return [f"  seat {row.seat} is the starting player and takes the Reaper ({how})"]

    def tell_night(self, row):
        jesters = [s for s, role in sorted(self.roles.items()) if ROLES[role].name == "jester"]
        cards = ", ".join(f"seat {s} holds {_rank(self.hands[s])}" for s in jesters)
        return [f"Jesters' night: everyone closes their eyes; the {row.jesters} jesters open "
                f"theirs",
                private_line("  the jesters are seats " + ", ".join(map(str, jesters))
                        + f"; they see each other's cards ({cards}); seat {row.speaker} speaks "
                          f"for them")]

    def tell_scheme(self, row):
        scheme = ITEM_LABELS[row.scheme]
        if row.position < 0:
            return [private_line(f"  the jesters keep {scheme} aside")]
        tile = ITEM_LABELS[row.tile]
        out = [private_line(f"  the jesters put {scheme} in place of the scythe at position "
                       f"{row.position} (under {tile})")]
        if self.replaced_shown():
            out.append(f"  a scythe is set aside face up: everyone sees one came from under "
                       f"{tile}")
        else:
            out.append("  a scythe leaves the game unseen")
        return out

    def tell_remove(self, row):
        line = (f"  seat {row.seat} does not offer and removes the scroll at position "
                f"{row.position} (under {ITEM_LABELS[row.tile]})")
        if self.removed_shown():
            return [line + f", shown to everyone: the {_item(row.item)}"]
        return [line + ", unseen", private_line(f"  it was the {_item(row.item)} (the jesters knew)")]

    @staticmethod
    def tell_draw(row):
        if row.rank < 0:
            return [f"  seat {row.seat} cannot draw: the draw pile is empty"]
        return [f"  seat {row.seat} draws a card",
                private_line(f"  seat {row.seat} draws {_rank(row.rank)}")]

    @staticmethod
    def tell_announce(row):
        return [f"  seat {row.seat} announces {_rank(row.said)}",
                *_truth(row.seat, row.said, row.rank, _rank)]

    @staticmethod
    def tell_report_rank(row):
        return [f"  seat {row.caster} says seat {row.sacrificer}'s card is {_rank(row.said)}",
                *_truth(row.caster, row.said, row.rank, _rank)]

    @staticmethod
    def tell_report_faction(row):
        return [f"  seat {row.caster} says seat {row.seat} is {_faction(row.said)}",
                *_truth(row.caster, row.said, row.role, _faction)]

    @staticmethod
    def tell_brink(row):
        if row.altar < 0:
            return [f"  seat {row.caster}: no altar holds two cards, nothing to swap"]
        return [f"  seat {row.caster} swaps cards {row.pair + 1} and {row.pair + 2} of the "
                f"{ALTAR_LABELS[row.altar]}"]

    @staticmethod
    def tell_veil(row):
        return [f"  seat {row.caster} puts the card on the {ALTAR_LABELS[row.altar]} without a "
                f"vote", private_line(f"  the card is {_rank(row.rank)}")]

    @staticmethod
    def tell_exchange(row):
        if row.rank < 0:
            return ["  the draw pile is empty: nothing to exchange"]
        return ["  the card is exchanged, unseen, with the top card of the draw pile",
                private_line(f"  the card was {_rank(row.old)}, now {_rank(row.rank)}; "
                        f"{_rank(row.old)} is on top of the draw pile")]

    @staticmethod
    def tell_vote(row):
        return [f"  seat {row.seat} votes {'death' if row.death else 'life'}"]

    @staticmethod
    def tell_judged(row):
        return [f"  the card goes to the {ALTAR_LABELS[row.altar]}"
                + (" (a tie: the sacrificer's vote)" if row.tied else "")]

    def tell_altars(self, row):
        self.altars = f"Life {_ranks(row.life)}, Death {_ranks(row.death)}"
        return [f"  altars: {row.life_cards} on the Life Altar, {row.death_cards} on the Death "
                f"Altar", private_line(f"  altars: {self.altars}")]

    @staticmethod
    def tell_ritual_vote(row):
        return [f"  seat {row.seat} votes {'yes' if row.yes else 'no'} to the ritual"]

    @staticmethod
    def tell_ritual(row):
        return [f"  ritual vote: {row.yes} yes of {row.needed} needed: "
                + ("the ritual starts" if row.started else "no ritual")]

    def tell_pattern(self, row):
        found = [name for name, held in (("three of a rank on the Life Altar", row.life),
                                         ("two pairs on the Death Altar", row.death)) if held]
        outcome = "succeeds (" + " and ".join(found) + ")" if found else "fails"
        return [f"  the altars are revealed ({self.altars}); the {TEAMS[row.team]} initiated "
                f"the ritual, which {outcome}"]


decode_trace = trace_decoder(TRACE_EVENTS, VitamorsStory)
