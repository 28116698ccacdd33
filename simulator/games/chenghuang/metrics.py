"""What a Chenghuang run counts beyond the standard tallies (simulator.games.base.standard_tallies).

Chenghuang is an individual game: `team_wins` has length 0, `seat_wins` counts the one winner of
each game (a tie for the top total is broken by the last round's captain), `role_games` and
`role_wins` count the role held in the final round and `length_hist` the rounds played. The
game's own tallies below are sums, sums of squares and histograms, so means and spreads (and
their intervals) come out of integer counts that add up exactly across chunks. They live in the
state, and the kernel adds to them directly. The final totals are the report's scores; the round
scores by role are its other measures.
"""

from simulator.games.base import Tally

from .declaration import SCORE_CLIP

TALLIES = (
    Tally("seat_score_sum", "seat", "sum", "sum of final totals per seat", per="games",
          square="seat_score_sq", section="scores"),
    Tally("seat_score_sq", "seat", "sum_sq", "sum of squared final totals per seat",
          section="scores"),
    Tally("seat_score_hist", "seat", "histogram",
          f"final totals per seat, 0..{SCORE_CLIP} (the last bin holds higher totals)",
          bins=SCORE_CLIP + 1, total="seat_score_sum", section="scores"),
    Tally("role_score_sum", "role", "sum",
          "sum of final totals by the role held in the final round", per="role_games",
          square="role_score_sq", section="scores"),
    Tally("role_score_sq", "role", "sum_sq", "sum of their squares", section="scores"),
    Tally("role_score_hist", "role", "histogram",
          f"final totals by final-round role, 0..{SCORE_CLIP} (last bin: higher)",
          bins=SCORE_CLIP + 1, total="role_score_sum", section="scores"),
    Tally("role_rounds", "role", "count", "rounds in which a seat held the role"),
    Tally("role_round_wins", "role", "count",
          "of those, rounds in which its holder had the top round score (ties count)",
          per="role_rounds"),
    Tally("role_round_sum", "role", "sum", "sum of round scores by role", per="role_rounds",
          square="role_round_sq"),
    Tally("role_round_sq", "role", "sum_sq", "sum of squared round scores by role"),
    # the score by round: how the points come in over a game
    Tally("round_seats", "round", "count", "seat-rounds played, by round number"),
    Tally("round_score_sum", "round", "sum", "round scores by round number",
          per="round_seats", square="round_score_sq", section="scores"),
    Tally("round_score_sq", "round", "sum_sq", "their squares", section="scores"),
)
