"""Readable lines from a Salem trace buffer (one game, recorded by the kernel).

Rows are (turn, event code, actor, target, value, extra); TRACE_EVENTS in declaration.py says
what each field holds. Every row decodes on its own into one sentence.
"""

from __future__ import annotations

from .declaration import (
    CARD, CAUSES, CHARACTERS, DECISION, DRAWS, END_CONDITIONS, FRONT_LABELS,
    NIGHT_OUTCOMES, PHIPS, TEAMS, TR, TRYAL_LABELS, TURN_ACTIONS,
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


def _tryals(a, t, v, x):
    nw, w, c = v % 16, (v // 16) % 16, v // 256
    parts = [f"{nw} Not a Witch"] + ([f"{w} Witch"] if w else []) + \
        ([f"{c} Constable"] if c else [])
    return f"  {seat(a)} is dealt {', '.join(parts)} (secret)"


def _draw(a, t, v, x):
    why = {"turn": "", "giles_corey": " (Giles Corey's third card)",
           "ann_putnam": " (Ann Putnam)", "rebecca_nurse": " (Rebecca Nurse)"}[DRAWS[x]]
    return f"  {seat(a)} draws {card(v)}{why}"


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
    TR.hand: lambda a, t, v, x: f"  {seat(a)} is dealt {x} x {card(v)}",
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
    TR.draw: _draw,
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
    TR.proctor: lambda a, t, v, x: f"  {seat(a)} takes {card(v)} from the hand of {seat(t)} "
                                   f"(John Proctor)",
    TR.abigail: lambda a, t, v, x: f"  {seat(a)} " + ("discards the accusations in front of "
                                                      "herself" if v else "keeps the accusations"
                                                      " in front of herself") +
                                   " (Abigail Williams)",
    TR.ann_putnam: lambda a, t, v, x: f"  {seat(a)} draws {v} cards for her reveals "
                                      f"(Ann Putnam)",
    TR.parris: lambda a, t, v, x: f"  {seat(a)} takes {card(v)} from the discard pile "
                                  f"(Samuel Parris)",
    TR.tituba: lambda a, t, v, x: f"  {seat(a)} puts {card(v)} at position {x} from the top "
                                  f"(Tituba)",
    TR.conspiracy: lambda a, t, v, x: f"  CONSPIRACY #{v}, drawn by {seat(a)}",
    TR.passed: lambda a, t, v, x: f"    {seat(t)} takes {tryal(v)} from {seat(a)}"
                                  + (" (through the middle)" if x else ""),
    TR.joins_witches: lambda a, t, v, x: f"    {seat(a)} joins the witches",
    TR.night: lambda a, t, v, x: f"  NIGHT {v}",
    TR.kill_vote: lambda a, t, v, x: f"    witch {seat(a)} votes for {seat(t)}"
                                     + (" (the Black Cat)" if v == DECISION.black_cat else ""),
    TR.victim: lambda a, t, v, x: f"    the witches choose {seat(t)} ({v} vote(s)"
                                  f"{', a tie broken at random' if x > 1 else ''})",
    TR.protect: lambda a, t, v, x: f"    the constable, {seat(a)}, protects {seat(t)}",
    TR.confess: _confess,
    TR.dawn: lambda a, t, v, x: f"  dawn: the witches' victim {seat(t)} " + {
        "died": "dies", "protected": "was protected by the constable",
        "confessed": "confessed and survives", "asylum": "is safe in the Asylum",
        "already_dead": "is already dead"}[NIGHT_OUTCOMES[v]],
    TR.reshuffle: lambda a, t, v, x: f"  the discard pile becomes the new deck ({v} cards, "
                                     f"Night at the bottom)",
    TR.two_left: lambda a, t, v, x: f"  two players left: {v} blue card(s) discarded",
    TR.winner: _winner,
}


def decode_trace(rows, params) -> list[str]:
    lines = []
    for step, code, actor, target, value, extra in rows.tolist():
        lines.append(SENTENCES[code](actor, target, value, extra))
    return lines

