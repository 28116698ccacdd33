"""The Werewolves in Village (狼人小鎮): the base game (villagers, werewolves, one seer).

Team game: humans against werewolves. 8-23 role players (the simulator is the moderator).
Night first; each day an open suspect vote, then a secret sentence vote between two suspects.
"""

from simulator.games.base import game_from_package

GAME = game_from_package(__name__, strategies="strategies.werewolf")
