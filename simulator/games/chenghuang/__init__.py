"""城隍神與夜冥將軍 (Chenghuang; English reprint "Overseers"): a drafting and bluffing game.

Individual score, 3-6 players, 4 rounds. Each round: roles dealt face up, a 6-card draft, a layout
of 5 cards (some face down), role abilities, a secret vote for the player with the top score, the
accused admits or denies (showdown), a theft, scoring. The highest total wins.
"""

from simulator.games.base import game_from_package

GAME = game_from_package(__name__, strategies="strategies.chenghuang")
