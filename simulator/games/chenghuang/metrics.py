"""What a Chenghuang run counts: the standard tallies plus score statistics and round results.

Chenghuang is an individual game: `team_wins` has length 0, `seat_wins` counts the one winner of
each game (a tie for the top total is broken by the last round's captain), `role_games` and
`role_wins` count the role held in the final round and `length_hist` the rounds played. The
game-specific tallies below are sums, sums of squares and histograms, so means and spreads (and
their intervals) come out of integer counts that add up exactly across chunks.
"""

from collections import namedtuple

from numba import njit

from simulator.games.base import TallySpec, standard_tallies
from simulator.games.kernel_support import borrowed

from .declaration import MAX_LENGTH, N_ROLES, SCORE_CLIP

GAME_TALLIES = (
    TallySpec("seat_score_sum", lambda g, p: (p.players,), "sum of final totals per seat"),
    TallySpec("seat_score_sq", lambda g, p: (p.players,), "sum of squared final totals per seat"),
    TallySpec("seat_score_hist", lambda g, p: (p.players, SCORE_CLIP + 1),
              f"final totals per seat, 0..{SCORE_CLIP} (the last bin holds higher totals)"),
    TallySpec("role_score_sum", lambda g, p: (N_ROLES,),
              "sum of final totals by the role held in the final round"),
    TallySpec("role_score_sq", lambda g, p: (N_ROLES,), "sum of their squares"),
    TallySpec("role_score_hist", lambda g, p: (N_ROLES, SCORE_CLIP + 1),
              f"final totals by final-round role, 0..{SCORE_CLIP} (last bin: higher)"),
    TallySpec("role_rounds", lambda g, p: (N_ROLES,), "rounds in which a seat held the role"),
    TallySpec("role_round_wins", lambda g, p: (N_ROLES,),
              "of those, rounds in which its holder had the top round score (ties count)"),
    TallySpec("role_round_sum", lambda g, p: (N_ROLES,), "sum of round scores by role"),
    TallySpec("role_round_sq", lambda g, p: (N_ROLES,), "sum of squared round scores by role"),
)
TALLY_SPECS = standard_tallies(MAX_LENGTH) + GAME_TALLIES
# The class's name must be its module attribute: Numba's cache pickles the type by reference.
ChenghuangTallies = namedtuple("ChenghuangTallies", [spec.name for spec in TALLY_SPECS])
Tallies = ChenghuangTallies


@njit(cache=True)
def borrow_tallies(t):
    """The same tallies as reference-free views (the caller holds the arrays for the call)."""
    return Tallies(
        borrowed(t.games), borrowed(t.team_wins), borrowed(t.draws), borrowed(t.seat_wins),
        borrowed(t.role_games), borrowed(t.role_wins), borrowed(t.slot_games),
        borrowed(t.slot_wins), borrowed(t.length_hist), borrowed(t.end_counts),
        borrowed(t.events),
        borrowed(t.seat_score_sum), borrowed(t.seat_score_sq), borrowed(t.seat_score_hist),
        borrowed(t.role_score_sum), borrowed(t.role_score_sq), borrowed(t.role_score_hist),
        borrowed(t.role_rounds), borrowed(t.role_round_wins), borrowed(t.role_round_sum),
        borrowed(t.role_round_sq),
    )
