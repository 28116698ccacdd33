"""鬼戏 Ghost Play: a hidden-identity team game still being designed (the designer's draft stops in
the middle of its rules). Taiping and Tianshi sects exorcise ghosts for points; a ghost king may
rise from any possessed player and, with the evil path, break the seal.

Everything the draft leaves out is provisional and held as config data (configs/ghostplay/):
docs/rules/ghostplay.md lists every rule, every ruling and the test that covers it.
"""

from simulator.games.base import game_from_package

GAME = game_from_package(__name__, strategies="strategies.ghostplay")
