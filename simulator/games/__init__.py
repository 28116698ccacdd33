"""The game registry: one line per game, naming the package whose GAME is its GameSpec.

Games are imported on first use, so listing them, or running one, never compiles the others.
The contract suite (tests/test_game_contract.py) runs over every game registered here.
"""

import importlib

_PACKAGES = {
    "werewolf": "simulator.games.werewolf",
    "chenghuang": "simulator.games.chenghuang",
    # The runnable example a new game starts from (docs/adding-a-game.md); not listed by
    # `fairplay games`, but it runs and passes the contract suite like every game.
    "template": "simulator.games._template",
}


def game_names(listed_only: bool = False) -> list[str]:
    if listed_only:
        return [name for name in _PACKAGES if get_game(name).listed]
    return list(_PACKAGES)


def get_game(name: str):
    if name not in _PACKAGES:
        raise KeyError(name)
    return importlib.import_module(_PACKAGES[name]).GAME
