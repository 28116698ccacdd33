"""What a Ghost Play run counts beyond the standard tallies (wins by team, seat, role and
strategy; draws; lengths in turns; end conditions; the named events of declaration.EVENTS).

`team_wins` holds the sects' and the evil path's wins (the ghost king wins with the evil path),
`draws` the games whose sects tied on ghost points, `role_wins` the wins by each seat's identity
at the end (a risen player counts as the ghost king). The game's own tallies below are sums with
their squares, so means and spreads come out of integer counts; the kernel adds to them directly.
How a ghost king rises (by rule a or b), how often the seal breaks and the exorcisms hosted,
challenged and won are event counters (declaration.EVENTS).
"""

from simulator.games.base import Tally

from .declaration import MAX_LENGTH

TALLIES = (
    Tally("team_points_sum", "team", "sum",
          "ghost points held at the end by each sect's members (evil: the evil player's and the "
          "ghost king's, which count for no sect)", per="games", square="team_points_sq",
          section="scores"),
    Tally("team_points_sq", "team", "sum_sq", "their squares", section="scores"),
    Tally("role_points_sum", "role", "sum", "ghost points of a seat, by its identity at the end",
          per="role_games", square="role_points_sq", section="scores"),
    Tally("role_points_sq", "role", "sum_sq", "their squares", section="scores"),
    Tally("role_hosted", "role", "sum", "exorcisms a seat hosted, by its identity at the end",
          per="role_games", square="role_hosted_sq"),
    Tally("role_hosted_sq", "role", "sum_sq", "their squares"),
    Tally("role_dispelled", "role", "sum",
          "ghosts a seat dispelled as host, by its identity at the end", per="role_games",
          square="role_dispelled_sq"),
    Tally("role_dispelled_sq", "role", "sum_sq", "their squares"),
    Tally("king_rises", "none", "count", "games in which a ghost king rose", per="games"),
    Tally("rise_turn_sum", "none", "sum", "the turn a ghost king rose", per="king_rises",
          square="rise_turn_sq"),
    Tally("rise_turn_sq", "none", "sum_sq", "its square"),
    Tally("rise_turn_hist", "none", "histogram",
          f"games by the turn a ghost king rose (1..{MAX_LENGTH}; games without one are not "
          f"counted)", bins=MAX_LENGTH + 1, total="rise_turn_sum"),
)
