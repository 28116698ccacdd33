"""A table from trace code to a sentence: how `fairplay trace template` tells one game.

HOOK: one entry per trace event; rows are (round, code, actor, target, value, extra).
"""

from .declaration import END_CONDITIONS, ROLES, TEAMS, TR

SENTENCES = {
    TR.deal: lambda r, a, t, v, x: f"  seat {a} is dealt {ROLES[v].name}",
    TR.round: lambda r, a, t, v, x: f"Round {v}",
    TR.vote: lambda r, a, t, v, x: f"  seat {a} votes for seat {t}",
    TR.out: lambda r, a, t, v, x: f"  seat {a} is out with {x} votes: a {ROLES[v].name}",
    TR.winner: lambda r, a, t, v, x: f"The {TEAMS[v]} wins: {END_CONDITIONS[x].meaning}.",
}


def decode_trace(rows, params) -> list[str]:
    return [SENTENCES[code](step, actor, target, value, extra)
            for step, code, actor, target, value, extra in rows.tolist()]
