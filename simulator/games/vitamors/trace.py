"""Readable lines from a Vita Mors Conspiro trace (rows: turn, code, actor, target, value, extra).

The first line says that the rules are provisional and names every setting that differs from the
defaults; each game then opens with its setup as the table sees it (the players and factions
dealt, the character deck, the scroll layout, the schemes set aside, the limits). Each row is one
sentence of what the table sees, and what a seat privately learns (its faction and cards, what
the jesters see and do at night, what a spell shows its caster) or what nobody sees (the rank of
a face-down card, what a removed scroll was) is a separate line marked `base.PRIVATE_MARK`:
`fairplay trace --private` shows them, a plain trace is what the table saw. Ranks are shown
1..R. With the private lines every rule can be checked from the text alone
(tests/test_vitamors_replay.py does).
"""

from __future__ import annotations

import numpy as np

from simulator.games.base import PRIVATE_MARK

from .declaration import (
    ALTAR_LABELS, DEFAULT_EFFECTS, EFFECTS, END_CONDITIONS, ITEM_LABELS, ITEMS, N_TILES,
    PROVISIONAL, ROLES, TEAMS, TR,
)

MODE_NAMES = ("novice", "expert")
P = PRIVATE_MARK


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


def _ranks(code: int, count: int) -> str:
    ranks = []
    for _ in range(count):
        ranks.append(str(code % 16))
        code //= 16
    return "[" + " ".join(ranks) + "]"


def _truth(seat, said: int, truth: int, what) -> list[str]:
    """The speaker's private line: what it knows, and whether it lied."""
    verdict = "the truth" if said == truth else "a lie"
    return [f"  {P}seat {seat} knows it is {what(truth)}: {verdict}"]


class Story:
    """Decodes one trace, keeping what a sentence needs from earlier rows (the factions dealt)."""

    def __init__(self, params):
        self.params = params
        self.roles: dict[int, int] = {}
        self.hands: dict[int, int] = {}
        self.altars = "Life [], Death []"

    def removed_shown(self) -> bool:
        return self.params is not None and self.params.knobs.removed_scroll == "shown"

    def replaced_shown(self) -> bool:
        return self.params is not None and self.params.knobs.replaced_scythes == "shown"

    def lines(self, code, a, t, v, x) -> list[str]:
        if code == TR.setup:
            self.roles, self.hands = {}, {}
            self.altars = "Life [], Death []"
            return [f"Setup: {a} players, {t} jesters, {MODE_NAMES[v]} mode, card limit {x}",
                    *setup_lines(self.params)]
        if code == TR.deal:
            self.roles[a], self.hands[a] = v, x
            return [f"  seat {a} draws a faction card and a character card",
                    f"  {P}seat {a}: {ROLES[v].label} {ROLES[v].name}, holds {_rank(x)}"]
        if code == TR.start:
            how = "seat 0 by rules.starting_player" if v else "drawn at random"
            return [f"  seat {a} is the starting player and takes the Reaper ({how})"]
        if code == TR.night:
            jesters = [s for s, role in sorted(self.roles.items()) if ROLES[role].name == "jester"]
            cards = ", ".join(f"seat {s} holds {_rank(self.hands[s])}" for s in jesters)
            return [f"Jesters' night: everyone closes their eyes; the {v} jesters open theirs",
                    f"  {P}the jesters are seats " + ", ".join(map(str, jesters))
                    + f"; they see each other's cards ({cards}); seat {a} speaks for them"]
        if code == TR.keep:
            return [f"  {P}the jesters keep {ITEM_LABELS[v]} and discard {ITEM_LABELS[x]} face "
                    f"down"]
        if code == TR.scheme:
            if t < 0:
                return [f"  {P}the jesters keep {ITEM_LABELS[v]} aside"]
            out = [f"  {P}the jesters put {ITEM_LABELS[v]} in place of the scythe at position "
                   f"{t} (under {ITEM_LABELS[x]})"]
            if self.replaced_shown():
                out.append(f"  a scythe is set aside face up: everyone sees one came from under "
                           f"{ITEM_LABELS[x]}")
            else:
                out.append("  a scythe leaves the game unseen")
            return out
        if code == TR.turn:
            return [f"Turn {v}: seat {a} is the sacrificer"]
        if code == TR.remove:
            line = (f"  seat {a} does not offer and removes the scroll at position {t} (under "
                    f"{ITEM_LABELS[x]})")
            if self.removed_shown():
                return [line + f", shown to everyone: the {_item(v)}"]
            return [line + ", unseen", f"  {P}it was the {_item(v)} (the jesters knew)"]
        if code == TR.play:
            return [f"  seat {a} offers a card face down to the sacrifice area",
                    f"  {P}seat {a}'s card is {_rank(v)}"]
        if code == TR.draw:
            if v < 0:
                return [f"  seat {a} cannot draw: the draw pile is empty"]
            return [f"  seat {a} draws a card", f"  {P}seat {a} draws {_rank(v)}"]
        if code == TR.announce:
            return [f"  seat {a} announces {_rank(v)}", *_truth(a, v, x, _rank)]
        if code == TR.decline:
            return [f"  seat {a} keeps its feather (no spell)"]
        if code == TR.propose:
            return [f"  seat {a} discards its feather: the scroll at position {v} (under "
                    f"{ITEM_LABELS[x]}), cast by seat {t}"]
        if code == TR.flip:
            return [f"  seat {a} flips it: the {_item(v)}, {EFFECTS[x].name}"]
        if code == TR.gaze:
            return [f"  seat {a} looks at seat {t}'s card in secret",
                    f"  {P}seat {a} sees {_rank(v)}"]
        if code == TR.peek:
            return [f"  seat {a} looks at seat {t}'s faction card in secret",
                    f"  {P}seat {a} sees seat {t} is {_faction(v)}"]
        if code == TR.report_rank:
            return [f"  seat {a} says seat {t}'s card is {_rank(v)}", *_truth(a, v, x, _rank)]
        if code == TR.report_faction:
            return [f"  seat {a} says seat {t} is {_faction(v)}", *_truth(a, v, x, _faction)]
        if code == TR.brink:
            if t < 0:
                return [f"  seat {a}: no altar holds two cards, nothing to swap"]
            return [f"  seat {a} swaps cards {v + 1} and {v + 2} of the {ALTAR_LABELS[t]}"]
        if code == TR.veil:
            return [f"  seat {a} puts the card on the {ALTAR_LABELS[t]} without a vote",
                    f"  {P}the card is {_rank(v)}"]
        if code == TR.exchange:
            if v < 0:
                return ["  the draw pile is empty: nothing to exchange"]
            return ["  the card is exchanged, unseen, with the top card of the draw pile",
                    f"  {P}the card was {_rank(x)}, now {_rank(v)}; {_rank(x)} is on top of "
                    f"the draw pile"]
        if code == TR.limit:
            return [f"  the card limit moves by {x}: now {v}"]
        if code == TR.needed:
            return [f"  the ritual's yes votes move by {x}: now {v}"]
        if code == TR.vote:
            return [f"  seat {a} votes {'death' if v else 'life'}"]
        if code == TR.judged:
            return [f"  the card goes to the {ALTAR_LABELS[v]}"
                    + (" (a tie: the sacrificer's vote)" if x else "")]
        if code == TR.altars:
            self.altars = f"Life {_ranks(v, a)}, Death {_ranks(x, t)}"
            return [f"  altars: {a} on the Life Altar, {t} on the Death Altar",
                    f"  {P}altars: Life {_ranks(v, a)}, Death {_ranks(x, t)}"]
        if code == TR.ritual_vote:
            return [f"  seat {a} votes {'yes' if v else 'no'} to the ritual"]
        if code == TR.ritual:
            return [f"  ritual vote: {a} yes of {t} needed: "
                    + ("the ritual starts" if v else "no ritual")]
        if code == TR.reveal:
            return [f"  seat {a} voted yes and reveals: {ROLES[v].name}"]
        if code == TR.pattern:
            found = [name for name, held in (("three of a rank on the Life Altar", v),
                                             ("two pairs on the Death Altar", x)) if held]
            outcome = "succeeds (" + " and ".join(found) + ")" if found else "fails"
            return [f"  the altars are revealed ({self.altars}); the {TEAMS[a]} initiated the "
                    f"ritual, which {outcome}"]
        if code == TR.passes:
            return [f"  the Reaper passes to seat {t}"]
        if code == TR.winner:
            return [f"The {TEAMS[v]} win: {END_CONDITIONS[x].meaning}."]
        raise ValueError(f"unknown trace code {code}")


def decode_trace(rows: np.ndarray, params) -> list[str]:
    """The header (the rules are provisional, the changed settings), then each row's lines, in
    play order."""
    lines = [header(params)]
    story = Story(params)
    for row in np.asarray(rows).tolist():
        _, code, actor, target, value, extra = row
        lines.extend(story.lines(code, actor, target, value, extra))
    return lines
