"""Readable lines from a Chenghuang trace buffer (one game, recorded by the kernel).

Rows are (round, event code, actor seat, target seat, value, extra); see TRACE_EVENTS.
"""

from __future__ import annotations

import numpy as np

from .declaration import (
    FACE_DOWN, KIND_LABELS, KINDS, ROLES, TIES, TRACE_EVENTS, END_CAPTAIN_TIE,
)

_EV = {name: code for code, name in enumerate(TRACE_EVENTS)}


def _kind(k: int) -> str:
    return f"{KIND_LABELS[k]} {KINDS[k]}" if 0 <= k < len(KINDS) else "nothing"


def _role(r: int) -> str:
    return f"{ROLES[r].label} {ROLES[r].name}"


def _scribe_action(a: int, target: bool) -> str:
    if a >= FACE_DOWN:
        return f"{'its own ' if target else 'its '}face-down {_kind(a - FACE_DOWN)}"
    return f"{'a face-up ' if target else 'its face-up '}{_kind(a)}"


def decode_trace(rows: np.ndarray, params) -> list[str]:
    """One line per trace row, in play order."""
    lines: list[str] = []
    seat = "seat {}".format
    dealt: dict[int, list[str]] = {}
    for row in np.asarray(rows):
        r, code, actor, target, value, extra = (int(x) for x in row)
        event = TRACE_EVENTS[code]
        if event != "deal" and dealt:
            for s, cards in sorted(dealt.items()):
                lines.append(f"  deal: {seat(s)} is dealt {', '.join(cards)}")
            dealt.clear()
        if event == "round":
            lines.append(f"== round {value} ==")
        elif event == "captain":
            how = "chosen at random" if value == 0 else "lowest score last round"
            lines.append(f"  captain: {seat(actor)} ({how})")
        elif event == "role":
            lines.append(f"  role: {seat(actor)} is {_role(value)}")
        elif event == "deal":
            dealt.setdefault(actor, []).append(f"{extra}x {_kind(value)}")
        elif event == "pick":
            lines.append(f"  draft pick {extra}: {seat(actor)} keeps {_kind(value)} "
                         f"(pack dealt to {seat(target)})")
        elif event == "discard":
            lines.append(f"  discard: {seat(actor)} discards {_kind(value)} face down")
        elif event == "layout":
            up, down = divmod(extra, 16)
            lines.append(f"  layout: {seat(actor)} lays {_kind(value)}: {up} face up, "
                         f"{down} face down")
        elif event == "judge":
            lines.append(f"  武判 {seat(actor)} names {_kind(value)} (holds {extra} of them)")
        elif event == "gan":
            back = f", returns {_kind(extra)} to the pile" if extra >= 0 else ""
            lines.append(f"  甘將軍 {seat(actor)} draws from the pile, keeps {_kind(value)} face "
                         f"down{back}")
        elif event == "peek":
            lines.append(f"  刑具爺 {seat(actor)} looks at a face-down card of {seat(target)}: "
                         f"{_kind(value)}")
        elif event == "scribe":
            lines.append(f"  文判 {seat(actor)} slides {_scribe_action(target, False)} under "
                         f"{_scribe_action(value, True)}: it now counts as {_kind(extra)}")
        elif event == "vote":
            lines.append(f"  vote: {seat(actor)} votes for {seat(target)}")
        elif event == "accused":
            tie = f", a {extra}-way tie broken by the captain" if extra > 1 else ""
            lines.append(f"  accused: {seat(actor)} with {value} votes{tie}")
        elif event == "admit":
            truth = "really the highest" if extra else "not the highest"
            lines.append(f"  {seat(actor)} {'admits' if value == 1 else 'denies'} ({truth})")
        elif event == "admit_discard":
            lines.append(f"  {seat(actor)} discards {_kind(value)} face down")
        elif event == "reveal":
            lines.append("  everyone reveals" + (" (showdown)" if value == 1 else ""))
        elif event == "showdown_loss":
            lines.append(f"  showdown: {seat(actor)} was the highest and loses its two most "
                         f"valuable cards: {_kind(value)} and {_kind(extra)}")
        elif event == "compensation":
            lines.append(f"  showdown: {seat(actor)} was not the highest and takes "
                         f"{_kind(value)} from the pile")
        elif event == "horse_face":
            lines.append(f"  馬面 {seat(actor)} takes {value} 竊盜 from the pile")
        elif event == "theft":
            if value < 0:
                lines.append(f"  theft: {seat(actor)} ({extra} 竊盜) has nobody to steal from")
            else:
                lines.append(f"  theft: {seat(actor)} ({extra} 竊盜) takes {_kind(value)} from "
                             f"{seat(target)} (the victim's choice)")
        elif event == "no_theft":
            lines.append("  theft: nobody holds 竊盜")
        elif event == "fan":
            what = ("points off" if params is None or params.fan_variant == "minus-one"
                    else "points stolen")
            lines.append(f"  范將軍 {seat(actor)} targets {seat(target)}: {value} {what}")
        elif event == "round_score":
            lines.append(f"  score: {seat(actor)} scores {value} this round, total {extra}")
        elif event == "tie_break":
            lines.append(f"  tie ({TIES[value]}): captain {seat(actor)} picks {seat(target)}")
        elif event == "winner":
            how = " after a tie broken by the captain" if extra == END_CAPTAIN_TIE else ""
            lines.append(f"winner: {seat(actor)} with {value} points{how}")
    return lines

