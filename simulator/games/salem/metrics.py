"""What a Salem run counts beyond the standard tallies (simulator.games.base.standard_tallies).

The standard tallies give the win rates by team, seat, strategy and role, and a role is a
character with its holder's final team (`tituba/witch`): each character's win rate by its
holder's final team. The end conditions say how the witches won (the last townsfolk died at
night, by day, or was converted). The game's own tallies below are per-game sums with their
squares (means with intervals) and histograms: every event counter per game (trials, reveals,
confessions, ...), the nights, the players Conspiracy converted, the turns; and what became of
the player the witches gave the Black Cat on the first night, by that player's team then.
"""

from simulator.games.base import Tally

from .declaration import MAX_PLAYERS

TALLIES = (
    Tally("per_game", "event", "sum", "each event counter per game", per="games",
          square="per_game_sq"),
    Tally("per_game_sq", "event", "sum_sq", "their squares"),
    Tally("nights", "none", "sum", "nights per game", per="games", square="nights_sq"),
    Tally("nights_sq", "none", "sum_sq", "their squares"),
    Tally("nights_hist", "none", "histogram", "games by nights (the last bin holds more)",
          bins=16, total="nights"),
    Tally("conversions", "none", "sum", "players Conspiracy turned into witches per game",
          per="games", square="conversions_sq"),
    Tally("conversions_sq", "none", "sum_sq", "their squares"),
    Tally("conversions_hist", "none", "histogram", "games by players converted",
          bins=MAX_PLAYERS + 1, total="conversions"),
    Tally("turns", "none", "sum", "turns per game (exact; the length histogram clips)",
          per="games", square="turns_sq"),
    Tally("turns_sq", "none", "sum_sq", "their squares"),
    Tally("black_cat_games", "team", "count",
          "games whose first-night Black Cat went to a player of the team", per="games"),
    Tally("black_cat_wins", "team", "count", "the Black Cat's first holder's final team won",
          per="black_cat_games"),
    Tally("black_cat_deaths", "team", "count", "the Black Cat's first holder died",
          per="black_cat_games"),
)
