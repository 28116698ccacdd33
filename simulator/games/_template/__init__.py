"""The template game, "Spot the spy": the smallest complete game on the engine.

Copy this package to start a new game (docs/adding-a-game.md walks through it): every file is
one of the rooms a game has, and each place a new game fills in is marked `HOOK:`.

The game: 3-8 players, one or two of them spies. Every round the living players vote in secret for
a player to eliminate; the most-voted player is out and their role is shown. The town wins when
every spy is out; the spies win when they are as many as the town.
"""

from simulator.games.base import game_from_package

# HOOK: the registration. Name the module of your built-in strategies; then add one line for the
# game to simulator/games/__init__.py.
GAME = game_from_package(__name__, strategies="strategies.template")
