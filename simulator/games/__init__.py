"""The game registry: every game package exposes GAME, a GameSpec (see base.py).

Games are imported on first use, so listing them, or running one, never compiles the others.
"""

import importlib

_PACKAGES = {
    "werewolf": "simulator.games.werewolf",
    "chenghuang": "simulator.games.chenghuang",
}


def game_names() -> list[str]:
    return list(_PACKAGES)


def get_game(name: str):
    if name not in _PACKAGES:
        raise KeyError(name)
    return importlib.import_module(_PACKAGES[name]).GAME
