"""生死逆謀 Vita Mors Conspiro: a hidden-role team game of offerings, spells and a ritual.

Team game, 5-10 players: the exiles against the jesters. Each turn the sacrificer offers a hidden
character card (or removes a scroll instead); spells may look at it or change it; everyone votes it
onto the Life or the Death Altar; once an altar is full enough, a ritual vote may end the game, and
the ritual succeeds if the Life Altar shows three consecutive cards of one rank or the Death Altar
two pairs of different ranks. Nine cards without a ritual: the jesters win.

The card ranks and what each arcane tile and scheme does are not published: the defaults here are
provisional, and every one of them is data in the config (docs/rules/vitamors.md).
"""

from simulator.games.base import game_from_package

GAME = game_from_package(__name__, strategies="strategies.vitamors")
