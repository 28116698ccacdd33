"""Readable lines from a Chenghuang trace buffer (one game, recorded by the kernel).

Rows are (round, event code, actor seat, target seat, value, extra); see TRACE_EVENTS. Each trace
event has one sentence (`SENTENCES`, by trace code); the deal rows of a round are gathered into
one line per seat.
"""

from __future__ import annotations

import numpy as np

from .declaration import CHOSEN, END, FACE_DOWN, KIND_LABELS, KINDS, ROLES, TIES, TR


def _kind(k: int) -> str:
    return f"{KIND_LABELS[k]} {KINDS[k]}" if 0 <= k < len(KINDS) else "nothing"


def _role(r: int) -> str:
    return f"{ROLES[r].label} {ROLES[r].name}"


def _scribe_action(a: int, target: bool) -> str:
    if a >= FACE_DOWN:
        return f"{'its own ' if target else 'its '}face-down {_kind(a - FACE_DOWN)}"
    return f"{'a face-up ' if target else 'its face-up '}{_kind(a)}"


def seat(s: int) -> str:
    return f"seat {s}"


def _captain(actor, target, value, extra, params):
    how = "chosen at random" if value == CHOSEN.random else "lowest score last round"
    return f"  captain: {seat(actor)} ({how})"


def _layout(actor, target, value, extra, params):
    up, down = divmod(extra, 16)
    return f"  layout: {seat(actor)} lays {_kind(value)}: {up} face up, {down} face down"


def _gan(actor, target, value, extra, params):
    back = f", returns {_kind(extra)} to the pile" if extra >= 0 else ""
    return f"  甘將軍 {seat(actor)} draws from the pile, keeps {_kind(value)} face down{back}"


def _accused(actor, target, value, extra, params):
    tie = f", a {extra}-way tie broken by the captain" if extra > 1 else ""
    return f"  accused: {seat(actor)} with {value} votes{tie}"


def _admit(actor, target, value, extra, params):
    truth = "really the highest" if extra else "not the highest"
    return f"  {seat(actor)} {'admits' if value == 1 else 'denies'} ({truth})"


def _theft(actor, target, value, extra, params):
    if value < 0:
        return f"  theft: {seat(actor)} ({extra} 竊盜) has nobody to steal from"
    return (f"  theft: {seat(actor)} ({extra} 竊盜) takes {_kind(value)} from {seat(target)} "
            f"(the victim's choice)")


def _fan(actor, target, value, extra, params):
    what = ("points off" if params is None or params.fan_variant == "minus-one"
            else "points stolen")
    return f"  范將軍 {seat(actor)} targets {seat(target)}: {value} {what}"


def _winner(actor, target, value, extra, params):
    how = " after a tie broken by the captain" if extra == END.captain_tie else ""
    return f"winner: {seat(actor)} with {value} points{how}"


# (actor, target, value, extra, params) -> the row's line, by trace code. The deal rows are not
# here: decode_trace gathers them.
SENTENCES = {
    TR.round: lambda actor, target, value, extra, params: f"== round {value} ==",
    TR.captain: _captain,
    TR.role: lambda actor, target, value, extra, params:
        f"  role: {seat(actor)} is {_role(value)}",
    TR.pick: lambda actor, target, value, extra, params:
        f"  draft pick {extra}: {seat(actor)} keeps {_kind(value)} (pack dealt to {seat(target)})",
    TR.discard: lambda actor, target, value, extra, params:
        f"  discard: {seat(actor)} discards {_kind(value)} face down",
    TR.layout: _layout,
    TR.judge: lambda actor, target, value, extra, params:
        f"  武判 {seat(actor)} names {_kind(value)} (holds {extra} of them)",
    TR.gan: _gan,
    TR.peek: lambda actor, target, value, extra, params:
        f"  刑具爺 {seat(actor)} looks at a face-down card of {seat(target)}: {_kind(value)}",
    TR.scribe: lambda actor, target, value, extra, params:
        f"  文判 {seat(actor)} slides {_scribe_action(target, False)} under "
        f"{_scribe_action(value, True)}: it now counts as {_kind(extra)}",
    TR.vote: lambda actor, target, value, extra, params:
        f"  vote: {seat(actor)} votes for {seat(target)}",
    TR.accused: _accused,
    TR.admit: _admit,
    TR.admit_discard: lambda actor, target, value, extra, params:
        f"  {seat(actor)} discards {_kind(value)} face down",
    TR.reveal: lambda actor, target, value, extra, params:
        "  everyone reveals" + (" (showdown)" if value == 1 else ""),
    TR.showdown_loss: lambda actor, target, value, extra, params:
        f"  showdown: {seat(actor)} was the highest and loses its two most valuable cards: "
        f"{_kind(value)} and {_kind(extra)}",
    TR.compensation: lambda actor, target, value, extra, params:
        f"  showdown: {seat(actor)} was not the highest and takes {_kind(value)} from the pile",
    TR.horse_face: lambda actor, target, value, extra, params:
        f"  馬面 {seat(actor)} takes {value} 竊盜 from the pile",
    TR.theft: _theft,
    TR.no_theft: lambda actor, target, value, extra, params: "  theft: nobody holds 竊盜",
    TR.theft_declined: lambda actor, target, value, extra, params:
        f"  theft: {seat(actor)} ({extra} 竊盜) declines to steal",
    TR.fan: _fan,
    TR.round_score: lambda actor, target, value, extra, params:
        f"  score: {seat(actor)} scores {value} this round, total {extra}",
    TR.tie_break: lambda actor, target, value, extra, params:
        f"  tie ({TIES[value]}): captain {seat(actor)} picks {seat(target)}",
    TR.winner: _winner,
}


def decode_trace(rows: np.ndarray, params) -> list[str]:
    """One line per trace row, in play order (a round's deal rows: one line per seat)."""
    lines: list[str] = []
    dealt: dict[int, list[str]] = {}

    def deal_lines():
        for s, cards in sorted(dealt.items()):
            lines.append(f"  deal: {seat(s)} is dealt {', '.join(cards)}")
        dealt.clear()

    for row in np.asarray(rows):
        _, code, actor, target, value, extra = (int(x) for x in row)
        if code == TR.deal:
            dealt.setdefault(actor, []).append(f"{extra}x {_kind(value)}")
            continue
        deal_lines()
        lines.append(SENTENCES[code](actor, target, value, extra, params))
    deal_lines()  # a trace that ends with the deal (cut short, or a single row)
    return lines
