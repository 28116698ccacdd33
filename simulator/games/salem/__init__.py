"""Salem 1692 (獵巫鎮): the complete game, its 59 cards and 15 characters.

Team game: the town against the witches, 4-12 players. Each player holds face-down tryal cards;
on a turn a player draws 2 cards or plays cards on others (7 accusations put a player on trial:
one of their tryals is revealed). Night brings a witch kill; Conspiracy passes tryals along and
the witch team grows. The town wins when every Witch tryal is revealed, the witches when every
living player is one of them.
"""

from simulator.games.base import game_from_package

GAME = game_from_package(__name__, strategies="strategies.salem")
