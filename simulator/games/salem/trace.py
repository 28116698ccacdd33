"""Readable lines from a Salem trace buffer (one game, recorded by the kernel).

Rows are (turn, event code, actor, target, value, extra); TRACE_EVENTS in declaration.py says
what each field holds. A row decodes on its own into a sentence of what the table sees and,
where a seat privately learns something (its tryals, its hand, a card drawn, a tryal passed to
it, the witches' votes, the constable's protection, Tituba's arrangement) or nobody sees it (the
deck's order, whose tryal went through the middle), a line marked PRIVATE_MARK:
`fairplay trace --private` shows them, a plain trace is what the table saw. Consecutive `deck`
rows make one deck in its order. The header says the setup and every setting that differs from
the published game.

With the private lines every rule can be checked from the text alone
(tests/test_salem_replay.py does): each tryal's slot, the deck's order after every shuffle and
arrangement, every card that goes to the discard pile and from where, each declined choice.
"""

from __future__ import annotations

from simulator.games.base import PRIVATE_MARK

from .declaration import (
    CARD, CARDS, CAUSES, CHARACTERS, DECISION, DECK_VIEW, DRAWS, END_CONDITIONS,
    FRONT_LABELS, LEARN, NIGHT_OUTCOMES, PHIPS, PLACE, PROVISIONAL, TEAMS, TR, TRYAL_LABELS,
    TURN_ACTIONS,
)


def seat(s: int) -> str:
    return f"seat {s}"


def card(k: int) -> str:
    return FRONT_LABELS[k] if 0 <= k < len(FRONT_LABELS) else f"card {k}"


def tryal(k: int) -> str:
    return TRYAL_LABELS[k] if 0 <= k < len(TRYAL_LABELS) else "nothing"


def _character(a, t, v, x):
    offered = f" (of {CHARACTERS[v]} and {CHARACTERS[x]})" if x >= 0 else ""
    return f"  {seat(a)} is {CHARACTERS[v]}{offered}"


P = PRIVATE_MARK


def _tryals(a, t, v, x):
    kinds = [tryal((v // 4 ** slot) % 4) for slot in range(x)]
    return [f"  {seat(a)} is dealt {x} tryals face down",
            f"  {P}{seat(a)} is dealt, slot by slot: {', '.join(kinds)}"]


def _draw_line(a, t, v, x):
    """A card drawn: the table sees a card taken (a black card, which takes effect at once, is
    seen by all); the drawer sees which."""
    why = {"turn": "", "giles_corey": " (Giles Corey's third card)",
           "ann_putnam": " (Ann Putnam)", "rebecca_nurse": " (Rebecca Nurse)"}[DRAWS[x]]
    if v in (CARD.night, CARD.conspiracy):
        return f"  {seat(a)} draws {card(v)}{why}"
    return [f"  {seat(a)} draws a card{why}", f"  {P}{seat(a)} draws {card(v)}{why}"]


def _pass_lines(a, t, v, x):
    """A Conspiracy pass: the table sees which slot goes where; the receiver sees the tryal (the
    private learns rows say so); through the middle nobody sees whose tryal each one gets."""
    middle, given, into = x & 1, (x >> 1) & 31, x >> 6
    if middle:
        return [f"    {seat(t)} gets a tryal from the middle (into its slot {into})",
                f"    {P}nobody sees: it is {tryal(v)}, {seat(a)}'s slot {given}"]
    return [f"    {seat(t)} takes a tryal from {seat(a)}'s slot {given} (into its slot {into})",
            f"    {P}nobody else sees: it is {tryal(v)}"]


def seats(mask: int) -> str:
    return ", ".join(str(s) for s in range(64) if mask >> s & 1) or "none"


def _learns(a, t, v, x):
    what = {
        LEARN.own_tryals: f"looks at its {v} tryals",  # (the deal's private line shows them)
        LEARN.received: (f"sees the tryal it takes from {seat(t)}: {tryal(v)}" if t >= 0 else
                         f"sees the tryal it gets back from the middle: {tryal(v)}"),
        LEARN.taken: (f"knows which of its tryals {seat(t)} took: {tryal(v)}" if t >= 0 else
                      f"knows which of its tryals went to the middle: {tryal(v)}"),
        LEARN.deck: f"looks through the top {v} cards of the deck (Tituba)",
        LEARN.robbed_hand: f"sees the {v} card(s) it receives from the hand of {seat(t)}",
        LEARN.dead_hand: f"looks through the {v} card(s) in the hand of {seat(t)} (John Proctor)",
    }[x]
    return f"  {PRIVATE_MARK}{seat(a)} {what}"


STOPS = {
    DECISION.play: "stops playing cards",
    DECISION.parris: "takes no second card from the discard pile (Samuel Parris)",
    DECISION.proctor: "takes no more cards (John Proctor)",
    DECISION.tituba: "leaves the rest of the deck in its order (Tituba)",
    DECISION.confess: "does not confess",
}


def _discards(a, t, v, x):
    where = "the hand of" if t == PLACE.hand else "in front of"
    return f"    to the discard pile from {where} {seat(a)}: {x} x {card(v)}"


DECK_OPENINGS = {
    DECK_VIEW.deal: "the playing cards shuffled for the deal (each seat in turn takes its "
                    "starting hand from the top; the rest and Conspiracy make the draw deck)",
    DECK_VIEW.shuffled: "the draw deck after the shuffle",
    DECK_VIEW.tituba: "the draw deck after Tituba's arrangement",
}


def _deck(view: int, kinds: list[int]) -> list[str]:
    """The deck's order: nobody sees it (Tituba sees what she arranged); the table sees a
    shuffle."""
    seen = "Tituba sees" if view == DECK_VIEW.tituba else "nobody sees"
    public = {DECK_VIEW.deal: "the playing cards are shuffled and each seat in turn is dealt "
                              "its starting hand from the top",
              DECK_VIEW.shuffled: f"the draw deck is shuffled ({len(kinds)} cards, Night at "
                                  f"the bottom)",
              DECK_VIEW.tituba: "Tituba puts the deck back"}[view]
    return [f"  {public}", f"  {P}{seen}: {DECK_OPENINGS[view]}, top first ({len(kinds)} "
                           f"cards): " + ", ".join(card(k) for k in kinds)]


def _play(a, t, v, x):
    if v in (CARD.scapegoat, CARD.robbery):  # two players
        what = "the cards in front of" if v == CARD.scapegoat else "the hand of"
        return f"  {seat(a)} plays {card(v)}: {what} {seat(t)} go to {seat(x)}"
    if v == CARD.curse:
        return f"  {seat(a)} plays {card(v)} on {seat(t)}, discarding its {card(x)}"
    return f"  {seat(a)} plays {card(v)} on {seat(t)}"


def _death(a, t, v, x):
    team = "silent about their team" if v < 0 else f"on the {TEAMS[v]} team"
    return f"  † {seat(a)} dies ({CAUSES[t].replace('_', ' ')}), {team}"


def _confess(a, t, v, x):
    if x == PHIPS:
        return f"  {seat(a)} confesses without revealing a tryal (William Phips)"
    return f"  {seat(a)} confesses: reveals {tryal(v)} (slot {x})"


def _winner(a, t, v, x):
    if v < 0:
        return f"No winner: {END_CONDITIONS[x].meaning}."
    return f"The {TEAMS[v]} team wins ({END_CONDITIONS[x].meaning})."


SENTENCES = {
    TR.character: _character,
    TR.tryals: _tryals,
    TR.hand: lambda a, t, v, x: f"  {P}{seat(a)} is dealt {x} x {card(v)}",
    TR.first_night: lambda a, t, v, x: f"First night: the {v} witch(es) see each other",
    TR.black_cat: lambda a, t, v, x: f"  the witches put the Black Cat in front of {seat(t)} "
                                     f"({v} vote(s){', a tie broken at random' if x > 1 else ''})"
                                     f"; {seat(t)} starts",
    TR.turn: lambda a, t, v, x: f"Turn {v}: {seat(a)}",
    TR.stocks: lambda a, t, v, x: f"  {seat(a)} is in the Stocks and skips the turn "
                                  f"({v} Stocks left)",
    TR.action: lambda a, t, v, x: f"  {seat(a)} chooses to " + {
        "draw": "draw 2 cards", "play": "play cards",
        "parris": "draw from the discard pile (Samuel Parris)",
        "tituba": "arrange the deck, then draw (Tituba)"}[TURN_ACTIONS[v]],
    TR.draw: _draw_line,
    TR.discarded: lambda a, t, v, x: f"  {seat(a)} discards the {card(v)} drawn (two players "
                                     f"left) and draws again",
    TR.giles: lambda a, t, v, x: f"  {seat(a)} shows two red cards and draws a third "
                                 f"(Giles Corey)",
    TR.play: _play,
    TR.no_effect: lambda a, t, v, x: f"  {card(v)} has no effect: {seat(t)} has Sarah Good's "
                                     f"ability",
    TR.accusations: lambda a, t, v, x: f"    accusations on {seat(a)}: {v} of {x} "
                                       f"(placed by {seat(t)})",
    TR.trial: lambda a, t, v, x: f"  TRIAL of {seat(t)}: {seat(a)} reveals slot {x}: {tryal(v)}",
    TR.cat_reveal: lambda a, t, v, x: f"  the Black Cat: {seat(a)} reveals slot {x}: {tryal(v)}"
                                      + (f" (chosen by {seat(t)})" if t != a else ""),
    TR.death: _death,
    TR.proctor: lambda a, t, v, x: [f"  {seat(a)} takes a card from the hand of {seat(t)} (John "
                                    f"Proctor)",
                                    f"  {P}{seat(a)} takes {card(v)} from the hand of {seat(t)} "
                                    f"(John Proctor)"],
    TR.abigail: lambda a, t, v, x: f"  {seat(a)} " + ("discards the accusations in front of "
                                                      "herself" if v else "keeps the accusations"
                                                      " in front of herself") +
                                   " (Abigail Williams)",
    TR.ann_putnam: lambda a, t, v, x: f"  {seat(a)} draws {v} cards for her reveals "
                                      f"(Ann Putnam)",
    TR.parris: lambda a, t, v, x: f"  {seat(a)} takes {card(v)} from the discard pile "
                                  f"(Samuel Parris)",
    TR.tituba: lambda a, t, v, x: f"  {P}{seat(a)} puts {card(v)} at position {x} from the top "
                                  f"(Tituba)",
    TR.conspiracy: lambda a, t, v, x: f"  CONSPIRACY #{v}, drawn by {seat(a)}",
    TR.passed: _pass_lines,
    TR.joins_witches: lambda a, t, v, x: f"    {P}{seat(a)} joins the witches",
    TR.night: lambda a, t, v, x: f"  NIGHT {v}",
    TR.kill_vote: lambda a, t, v, x: f"    {P}witch {seat(a)} votes for {seat(t)}"
                                     + (" (the Black Cat)" if v == DECISION.black_cat else ""),
    TR.victim: lambda a, t, v, x: f"    {P}the witches choose {seat(t)} ({v} vote(s)"
                                  f"{', a tie broken at random' if x > 1 else ''})",
    TR.protect: lambda a, t, v, x: f"    {P}the constable, {seat(a)}, protects {seat(t)}",
    TR.confess: _confess,
    TR.dawn: lambda a, t, v, x: f"  dawn: the witches' victim {seat(t)} " + {
        "died": "dies", "protected": "was protected by the constable",
        "confessed": "confessed and survives", "asylum": "is safe in the Asylum",
        "already_dead": "is already dead"}[NIGHT_OUTCOMES[v]],
    TR.reshuffle: lambda a, t, v, x: f"  the discard pile becomes the new deck ({v} cards, "
                                     f"Night at the bottom)",
    TR.two_left: lambda a, t, v, x: "  two players left: every blue card in a hand or in front "
                                    "of a player, and Scapegoat and Robbery in hands, go to the "
                                    "discard pile",
    TR.witch_team: lambda a, t, v, x: f"  {PRIVATE_MARK}the witch team opens its eyes: "
                                      f"seat(s) {seats(v)} see each other",
    TR.stop: lambda a, t, v, x: f"  {P if v in (DECISION.tituba, DECISION.proctor) else ''}"
                                f"{seat(a)} {STOPS[v]}",
    TR.alibi_removed: lambda a, t, v, x: f"    the Alibi removes {v} x Accusation and {x} x "
                                         f"Evidence from in front of {seat(a)}",
    TR.discards: _discards,
    TR.turned_up: lambda a, t, v, x: f"    {seat(a)}'s slot {x} is turned up: {tryal(v)}",
    TR.silent_tryals: lambda a, t, v, x: f"    {seat(a)}'s {v} face-down tryal(s) leave the game "
                                         f"unseen",
    TR.learns: _learns,
    TR.winner: _winner,
}


# The settings a trace's header compares with the published game: (config key, the params'
# knob, its published value).
SETTINGS = (
    ("rules.accusations", "accusations", 7),
    ("rules.starting_hand", "starting_hand", 3),
    ("rules.black_cat_chooser = drawer", "black_cat_chooser", "holder"),
    ("rules.night_resumes_turn", "night_resumes_turn", False),
    ("rules.last_convert_loses", "last_convert_loses", False),
    ("rules.piety = double_threshold", "piety", "no_red"),
    ("rules.tituba_depth", "tituba_depth", 0),
    ("rules.ann_putnam = at_once", "ann_putnam", "end_of_turn"),
    ("rules.john_proctor = blind", "john_proctor", "choose"),
    ("rules.black_draw_replaced", "black_draw_replaced", False),
    ("variants.conspiracy = middle", "conspiracy", "left"),
    ("variants.dead_silent", "dead_silent", False),
)


def changed_settings(params) -> list[str]:
    """Every setting of `params` that differs from the published game, as `key = value`."""
    from .params import PUBLISHED_DECK, PUBLISHED_TRYALS

    changed = []
    for key, field, published in SETTINGS:
        value = getattr(params.knobs, field)
        if value != published:
            changed.append(key if " = " in key else
                           f"{key} = {str(value).lower() if isinstance(value, bool) else value}")
    if params.extra_witch:
        changed.append("variants.extra_witch = true")
    if params.draft:
        changed.append("rules.character_draft: each player keeps 1 of 2 characters")
    for name, count in zip(CARDS, params.deck):
        if count != PUBLISHED_DECK[name]:
            changed.append(f"deck.{name} = {count} (published: {PUBLISHED_DECK[name]})")
    row = PUBLISHED_TRYALS.get(params.players)
    if row is not None:
        published = [row["not_a_witch"], row["witch"] + params.extra_witch,
                     row["constable"]]
        published[0] -= params.extra_witch
        if list(params.tryals) != published:
            changed.append(f"tryals.{params.players} = {'/'.join(map(str, params.tryals))} "
                           f"(published: {'/'.join(map(str, published))})")
    if len(params.characters) != len(CHARACTERS):
        changed.append("characters = " + ", ".join(CHARACTERS[c] for c in params.characters))
    return changed


def header(params) -> list[str]:
    """The setup, the deck's composition and every changed setting."""
    if params is None:
        return [f"Salem 1692: provisional rules ({len(PROVISIONAL)} rulings)"]
    nw, w, c = params.tryals
    deck = ", ".join(f"{count} x {card(k)}" for k, count in enumerate(params.deck) if count)
    return [
        f"Salem 1692: {params.players} players, {params.tryals_each} tryals each ({nw} Not a "
        f"Witch, {w} Witch, {c} Constable), {len(params.characters)} characters in the pool",
        f"  the deck ({sum(params.deck)} cards): {deck}",
        "  settings changed from the published game: "
        + ("; ".join(changed_settings(params)) or "none"),
        f"  provisional: {len(PROVISIONAL)} rulings of this project where the source is silent "
        f"(`fairplay games salem` lists them)",
    ]


def decode_trace(rows, params) -> list[str]:
    lines = header(params)
    deck, view = [], -1
    for step, code, actor, target, value, extra in rows.tolist():
        if code == TR.deck:
            if target == 1 and deck:  # a new view of the deck begins
                lines += _deck(view, deck)
                deck = []
            deck.append(value)
            view = extra
            continue
        if deck:
            lines += _deck(view, deck)
            deck = []
        said = SENTENCES[code](actor, target, value, extra)
        lines += [said] if isinstance(said, str) else said
    if deck:
        lines += _deck(view, deck)
    return lines

