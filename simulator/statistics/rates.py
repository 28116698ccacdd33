"""The rates a summary shows, in the pieces that the summary, the verdict and the stopping rule
share: a row of the table, the per-game moments of a ratio tally, and a turn-order position's
label. It reads tallies only (no result file, no run)."""

from __future__ import annotations

from dataclasses import dataclass

from simulator.statistics import inference


@dataclass
class Row:
    group: str  # "team", "seat", "role", "strategy", "end", "length"
    name: str
    rate: inference.Rate
    moments: inference.GameMoments | None = None  # for a rate over seat-games: per-game moments


def position_label(position: int, first: bool = True) -> str:
    """A seat's place in turn order from the game's first player: "1st (first player)", "2nd"
    ... (`first`: say who the 1st is)."""
    n = position + 1
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}" + (" (first player)" if position == 0 and first else "")


def ratio_moments(game, tallies: dict, name: str, index: int) -> inference.GameMoments:
    """The per-game moments of entry `index` of a ratio tally (one declared `per` a count):
    what its game-level variance needs (see inference.clustered_rate)."""
    tally = game.tally(name)
    moments = tallies[f"{name}_by_game"][index]
    return inference.GameMoments(
        y=float(tallies[name][index]), x=float(tallies[tally.per][index]),
        yy=float(moments[0]), xy=float(moments[1]), xx=float(moments[2]),
        games=int(tallies["games"][0]))
