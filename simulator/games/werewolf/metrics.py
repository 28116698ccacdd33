"""What a werewolf run counts: the standard tallies plus nothing game-specific yet.

The tally names are the platform's standard ones (simulator.games.base.standard_tallies); the
game-specific measures live in the `events` counters and `end_counts`, named in declaration.py.
"""

from collections import namedtuple

from numba import njit

from simulator.games.base import standard_tallies
from simulator.games.kernel_support import borrowed

from .declaration import MAX_LENGTH

TALLY_SPECS = standard_tallies(MAX_LENGTH)
# Named like the variable, so that pickle (and hence Numba's cache index) finds it by reference.
Tallies = namedtuple("Tallies", [spec.name for spec in TALLY_SPECS])


@njit(cache=True)
def borrow_tallies(t):
    """The same tallies as reference-free views (the caller holds the arrays for the call)."""
    return Tallies(
        borrowed(t.games), borrowed(t.team_wins), borrowed(t.draws), borrowed(t.seat_wins),
        borrowed(t.role_games), borrowed(t.role_wins), borrowed(t.slot_games),
        borrowed(t.slot_wins), borrowed(t.length_hist), borrowed(t.end_counts),
        borrowed(t.events),
    )
