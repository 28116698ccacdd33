"""What a run of Spot the spy counts beyond the standard tallies (wins by team, seat, role and
strategy; lengths; end conditions; events).

HOOK: the game's own tallies, each declaring its axis and what it holds, so that the reports and
the regression check know how to read it.
"""

from simulator.games.base import Tally

TALLIES = (
    Tally("votes_received", "seat", "sum", "votes the seat received in a game", per="games",
          square="votes_received_sq"),
    Tally("votes_received_sq", "seat", "sum_sq", "sum of the squares of those"),
)
