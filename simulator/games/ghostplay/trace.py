"""Readable lines from a Ghost Play trace buffer (one game, recorded by the kernel).

Rows are (turn, event code, actor, target, value, extra); see TRACE_EVENTS. The first line says
which rules of this setup are provisional (the draft is silent on them; they are config data);
then every row is one sentence, and decodes on its own. Cards are named as the config names them.
"""

from __future__ import annotations

import numpy as np

from simulator.games.base import PRIVATE_MARK

from .declaration import (
    DECISION, END, END_CONDITIONS, EVENT_EFFECTS, RISE, ROLES, TEAMS, TR, WINDOWS,
)
from .params import changed_settings, provisional_line


def _identity(code: int) -> str:
    return f"{ROLES[code].label} {ROLES[code].name}" if 0 <= code < len(ROLES) else "?"


def _ghost(card: int, params) -> str:
    cards = params.ghost_cards() if params is not None else []
    if 0 <= card < len(cards):
        c = cards[card]
        return f"{c.name} ({c.describe()})"
    return f"card {card}"


def _type(t: int, params) -> str:
    types = params.taoist_types() if params is not None else []
    if 0 <= t < len(types):
        c = types[t]
        what = c.play if c.play == "vote" else f"{c.play}: {c.effect} {c.amount}"
        return f"{c.name} ({c.colour}, value {c.value}, {what})"
    return f"card type {t}"


def _turn(a, t, v, x, p):
    return f"== turn {v}: seat {a}" + (" (the ghost king) ==" if x else " ==")


def _draw(a, t, v, x, p):
    extra = f" (its artifact gives {x} spirit power)" if x else ""
    return f"  draw: seat {a} draws {v} Taoist card(s){extra}"


def _artifact(a, t, v, x, p):
    replaced = f", replacing {_type(x, p)}" if x >= 0 else ""
    return f"  day: seat {a} sets the artifact {_type(v, p)} in front of itself{replaced}"


def _possess(a, t, v, x, p):
    on, total = divmod(x, 64)
    return (f"  haunting: {_ghost(v, p)} possesses seat {a}: {on} ghost(s) on it, {total} in "
            f"play")


def _event(a, t, v, x, p):
    effect = EVENT_EFFECTS[x] if 0 <= x < len(EVENT_EFFECTS) else "?"
    return f"  event resolved: {_ghost(v, p)} [{effect}]"


def _shown(a, t, v, x, p):
    positive, negative = divmod(v, 256)
    how = ("discarded unseen (the exorcism failed)", "shuffled into the count",
           "shown by the challenge, then discarded (the exorcism failed)")[x]
    # only a challenge shows whose votes are whose; otherwise each voter alone knows its own
    mark = "" if x == 2 else PRIVATE_MARK
    return (f"    {mark}seat {a}'s vote: {positive} positive, {negative} negative (vote value), "
            f"{how}")


def _challenge(a, t, v, x, p):
    if x == 0:
        return (f"    challenge: seat {a} challenges seat {t}: {v} positive, no negative -> the "
                f"exorcism fails")
    return (f"    challenge: seat {a} challenges seat {t}: {v} positive, {x} negative -> seat "
            f"{t}'s cards are discarded")


def _count(a, t, v, x, p):
    requirement, won = divmod(x, 2)
    positive, negative = divmod(v, 256)
    return (f"    count: net {positive - negative} ({positive} positive, {negative} negative, "
            f"shuffled) against requirement {requirement}: "
            + ("dispelled" if won else "the ghost stays"))


def _look(a, t, v, x, p):
    if x:  # rules.look_seen_by = "everyone"
        return f"    look: seat {a} looks at seat {t}'s identity, shown to everyone: {_identity(v)}"
    return f"    {PRIVATE_MARK}look: seat {a} looks at seat {t}'s identity: {_identity(v)}"


def _rise(a, t, v, x, p):
    seventh, x = divmod(x, 4096)
    rule, ghosts = divmod(x, 64)
    how = ("rule (a): possessed by 3 ghosts, none dispelled this turn" if rule == RISE.three else
           f"rule (b): the 7th ghost, {_ghost(seventh - 1, p)}, was not dispelled; most ghosts")
    return (f"  RISE: seat {a} ({_identity(v)}) becomes the ghost king by {how} ({ghosts} "
            f"ghosts on it)")


def _end(a, t, v, x, p):
    if t in (END.seal, END.seal_at_once):
        return (f"END: the seal breaks ({v} lives, seal {x}): the ghost king and the evil path "
                f"win")
    if a < 0:
        return f"END: {END_CONDITIONS[END.tie].meaning} (taiping {v}, tianshi {x})"
    return f"END: {TEAMS[a]} wins on ghost points (taiping {v}, tianshi {x})"


def _buy(a, t, v, x, p):
    if v == 0:
        return f"  day: seat {a} buys nothing ({x} spirit power)"
    return f"  day: seat {a} buys {v} Taoist card(s) with spirit power ({x} left)"


_DECLINED = {DECISION.exorcise: "hosts no exorcism", DECISION.summon: "summons nothing",
             DECISION.challenge: "stops challenging", DECISION.artifact: "sets no artifact",
             DECISION.spell: "plays no other card"}


def _seat_at_end(a, t, v, x, p):
    points, x = divmod(x, 1000000)
    ghosts, cards = divmod(x, 1000)
    artifact = _type(t, p) if t >= 0 else "none"
    return (f"  end of turn: seat {a} has {v} spirit power, {cards} card(s), {ghosts} ghost(s), "
            f"{points} point(s), artifact {artifact}")


def _turn_end(a, t, v, x, p):
    pile, discards = divmod(v, 1000)
    turn, left = divmod(x, 1000)
    return (f"== end of turn {turn}: {a} ghost(s) in play, {pile} in the draw pile, {discards} "
            f"discarded, {left} left in the ghost deck, {t} lives ==")


# (actor, target, value, extra, params) -> the row's sentence, by trace code.
SENTENCES = {
    TR.identity: lambda a, t, v, x, p: f"{PRIVATE_MARK}setup: seat {a} is dealt {_identity(v)}",
    TR.king_card: lambda a, t, v, x, p:
        f"setup: ghost-king card {v + 1} is the candidate ghost king: its seal breaks with {x} "
        f"lives",
    TR.first: lambda a, t, v, x, p: f"setup: seat {a} is the first player",
    TR.turn: _turn,
    TR.draw: _draw,
    TR.buy: _buy,
    TR.artifact: _artifact,
    TR.spell: lambda a, t, v, x, p: f"  {WINDOWS[x] if x else 'day'}: seat {a} plays {_type(v, p)}",
    TR.reveal: lambda a, t, v, x, p:
        f"  haunting: seat {a} reveals {_ghost(v, p)} ({x} left in the ghost deck)",
    TR.possess: _possess,
    TR.unpossessed: lambda a, t, v, x, p:
        f"  haunting: {_ghost(v, p)} finds no eligible player and is set aside",
    TR.event: _event,
    TR.exorcise: lambda a, t, v, x, p:
        f"  exorcism: seat {a} hosts the exorcism of {_ghost(v, p)} on seat {t}",
    TR.summon: lambda a, t, v, x, p:
        f"  summoning: the ghost king (seat {a}) summons {_ghost(v, p)} on seat {t}",
    TR.vote: lambda a, t, v, x, p: f"    vote: seat {a} places {v} card(s) face down",
    TR.challenge: _challenge,
    TR.shown: _shown,
    TR.count: _count,
    TR.dispel: lambda a, t, v, x, p:
        f"    dispelled: {_ghost(v, p)} leaves seat {t}; it goes face down in front of seat {a} "
        f"as points ({x} in all)",
    TR.life: lambda a, t, v, x, p:
        f"    summoned: {_ghost(v, p)} leaves seat {t} and becomes a life of the ghost king "
        f"({x} lives)",
    TR.reward: lambda a, t, v, x, p:
        f"    reward: seat {a} gets {v} spirit power ({x} participant(s))",
    TR.look: _look,
    TR.rise: _rise,
    TR.prevented: lambda a, t, v, x, p:
        f"  a dispel this turn prevented {v} rise(s) of a ghost king",
    TR.seal: lambda a, t, v, x, p:
        f"  the seal breaks: the ghost king (seat {a}) holds {v} lives, the seal needs {x}",
    TR.end: _end,
    TR.risen_ghosts: lambda a, t, v, x, p:
        f"  the {v} ghost(s) on seat {a} " + ("become the ghost king's lives" if t == 1 else
                                               "are set aside") + f" ({x} lives)",
    TR.drawn: lambda a, t, v, x, p:
        f"    {PRIVATE_MARK}seat {a} draws {v} x {_type(t, p)}: {x} of them in hand",
    TR.reshuffle: lambda a, t, v, x, p:
        f"  reshuffle: the discards are shuffled into a new draw pile ({v} time(s))",
    TR.piles: lambda a, t, v, x, p: f"  Taoist cards: {v} in the draw pile, {x} discarded",
    TR.declined: lambda a, t, v, x, p:
        ("    " if t == DECISION.challenge else "  ") + f"seat {a} passes: {_DECLINED[t]}",
    TR.vote_cards: lambda a, t, v, x, p:
        f"    {PRIVATE_MARK}seat {a} places {v} x {_type(t, p)}: {x} of them left in hand",
    TR.seat_at_end: _seat_at_end,
    TR.turn_end: _turn_end,
}


def decode_trace(rows: np.ndarray, params) -> list[str]:
    """The provisional rules of this setup, then one line per trace row, in play order."""
    lines = [provisional_line(params)]
    if params is not None:  # every setting that differs from the default setup
        lines += [f"setup: changed setting: {line}" for line in changed_settings(params)]
    for row in np.asarray(rows):
        _, code, actor, target, value, extra = (int(x) for x in row)
        lines.append(SENTENCES[code](actor, target, value, extra, params))
    return lines
