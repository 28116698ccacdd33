"""Readable lines from a Vita Mors Conspiro trace (rows: turn, code, actor, target, value, extra).

The first line says that the rules are provisional; then each row is one sentence (`SENTENCES`, by
trace code), so every row decodes on its own. Ranks are shown 1..R. A trace is for the designer:
it shows what the players cannot see (factions, ranks, what a removed scroll was).
"""

from __future__ import annotations

import numpy as np

from .declaration import (
    ALTAR_LABELS, EFFECTS, END_CONDITIONS, ITEM_LABELS, N_TILES, PROVISIONAL, ROLES, TEAMS, TR,
)

MODE_NAMES = ("novice", "expert")


def header(params=None) -> str:
    changed = ""
    if params is not None:
        from .params import describe_setup

        changed = "; " + describe_setup(params)["effects"]
    return (f"Vita Mors Conspiro: provisional rules ({len(PROVISIONAL)} rulings of this project "
            f"where the source is silent, the card ranks and every effect among them; "
            f"`fairplay games vitamors` lists them{changed})")


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


def _lie(said: int, truth: int, what) -> str:
    return "" if said == truth else f" (a lie: it is {what(truth)})"


def _remove(a, t, v, x, shown=False):
    return (f"  seat {a} does not offer and removes the scroll at position {t} (under "
            f"{ITEM_LABELS[x]}; it was the {_item(v)}), "
            + ("shown to everyone" if shown else "unseen"))


def _scheme(a, t, v, x, shown=False):
    if t < 0:
        return f"  the jesters keep {ITEM_LABELS[v]} aside"
    return (f"  the jesters put {ITEM_LABELS[v]} in place of the scythe at position {t} (under "
            f"{ITEM_LABELS[x]}); the scythe "
            + ("is set aside face up: everyone sees one came from under "
               f"{ITEM_LABELS[x]}" if shown else "leaves the game unseen"))


def _brink(a, t, v, x):
    if t < 0:
        return f"  seat {a}: no altar holds two cards, nothing to swap"
    return f"  seat {a} swaps cards {v + 1} and {v + 2} of the {ALTAR_LABELS[t]}"


def _exchange(a, t, v, x):
    if v < 0:
        return "  the draw pile is empty: nothing to exchange"
    return (f"  the card ({_rank(x)}) is exchanged, unseen, with the top card of the draw pile: "
            f"now {_rank(v)}")


def _pattern(a, t, v, x):
    found = [name for name, held in (("three of a rank on the Life Altar", v),
                                     ("two pairs on the Death Altar", x)) if held]
    outcome = "succeeds (" + " and ".join(found) + ")" if found else "fails"
    return (f"  the altars are revealed; the {TEAMS[a]} initiated the ritual, which {outcome}")


SENTENCES = {
    TR.setup: lambda a, t, v, x: f"Setup: {a} players, {t} jesters, {MODE_NAMES[v]} mode, card "
                                 f"limit {x}",
    TR.deal: lambda a, t, v, x: f"  seat {a}: {ROLES[v].label} {ROLES[v].name}, holds {_rank(x)}",
    TR.start: lambda a, t, v, x: f"  seat {a} is the starting player and takes the Reaper ("
                                 + ("seat 0 by rules.starting_player)" if v else "drawn at random)"),
    TR.night: lambda a, t, v, x: f"Jesters' night: the {v} jesters see each other and each "
                                 f"other's cards; seat {a} speaks for them",
    TR.keep: lambda a, t, v, x: f"  the jesters keep {ITEM_LABELS[v]} and discard "
                                f"{ITEM_LABELS[x]} face down",
    TR.scheme: _scheme,
    TR.turn: lambda a, t, v, x: f"Turn {v}: seat {a} is the sacrificer",
    TR.remove: _remove,
    TR.play: lambda a, t, v, x: f"  seat {a} offers a card of {_rank(v)} to the sacrifice area",
    TR.draw: lambda a, t, v, x: f"  seat {a} draws {_rank(v)}" if v >= 0 else
    f"  seat {a} cannot draw: the draw pile is empty",
    TR.announce: lambda a, t, v, x: f"  seat {a} announces {_rank(v)}{_lie(v, x, _rank)}",
    TR.propose: lambda a, t, v, x: f"  seat {a} discards its feather: the scroll at position {v} "
                                   f"(under {ITEM_LABELS[x]}), cast by seat {t}",
    TR.flip: lambda a, t, v, x: f"  seat {a} flips it: the {_item(v)}, {EFFECTS[x].name}",
    TR.gaze: lambda a, t, v, x: f"  seat {a} secretly sees seat {t}'s card: {_rank(v)}",
    TR.peek: lambda a, t, v, x: f"  seat {a} secretly sees seat {t}'s faction: {ROLES[v].name}",
    TR.report_rank: lambda a, t, v, x: f"  seat {a} says seat {t}'s card is "
                                       f"{_rank(v)}{_lie(v, x, _rank)}",
    TR.report_faction: lambda a, t, v, x: f"  seat {a} says seat {t} is an {ROLES[v].name}"
                                          f"{_lie(v, x, lambda f: ROLES[f].name)}",
    TR.brink: _brink,
    TR.veil: lambda a, t, v, x: f"  seat {a} puts the card ({_rank(v)}) on the "
                                f"{ALTAR_LABELS[t]} without a vote",
    TR.exchange: _exchange,
    TR.limit: lambda a, t, v, x: f"  the card limit moves by {x}: now {v}",
    TR.needed: lambda a, t, v, x: f"  the ritual's yes votes move by {x}: now {v}",
    TR.vote: lambda a, t, v, x: f"  seat {a} votes {'death' if v else 'life'}",
    TR.judged: lambda a, t, v, x: f"  the card goes to the {ALTAR_LABELS[v]}"
                                  + (" (a tie: the sacrificer's vote)" if x else ""),
    TR.altars: lambda a, t, v, x: f"  altars: Life {_ranks(v, a)}, Death {_ranks(x, t)}",
    TR.ritual_vote: lambda a, t, v, x: f"  seat {a} votes {'yes' if v else 'no'} to the ritual",
    TR.ritual: lambda a, t, v, x: f"  ritual vote: {a} yes of {t} needed: "
                                  + ("the ritual starts" if v else "no ritual"),
    TR.reveal: lambda a, t, v, x: f"  seat {a} voted yes and reveals: {ROLES[v].name}",
    TR.pattern: _pattern,
    TR.winner: lambda a, t, v, x: f"The {TEAMS[v]} win: {END_CONDITIONS[x].meaning}.",
}


def decode_trace(rows: np.ndarray, params) -> list[str]:
    """The header (the rules are provisional), then one line per row, in play order."""
    lines = [header(params)]
    for row in np.asarray(rows).tolist():
        _, code, actor, target, value, extra = row
        if code == TR.remove:  # (what the table saw depends on rules.removed_scroll)
            shown = params is not None and params.removed_scroll == "shown"
            lines.append(_remove(actor, target, value, extra, shown))
        elif code == TR.scheme:  # (likewise the replaced scythe, by rules.replaced_scythes)
            shown = params is not None and params.replaced_scythes == "shown"
            lines.append(_scheme(actor, target, value, extra, shown))
        else:
            lines.append(SENTENCES[code](actor, target, value, extra))
    return lines
