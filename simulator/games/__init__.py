"""The game registry: one line per game, naming the package whose GAME is its GameSpec.

Games are imported on first use, so listing them, or running one, never compiles the others.
The contract suite (tests/test_game_contract.py) runs over every game registered here.

The games and the engine under them (`engine`, `kernel_support`, `driver`, `base`) are the
bottom stage beside `simulator.schema` and `simulator.fileio`: they may import those (and the
strategies, which they run), nothing of setup, run, statistics, studies, reports, api, serve or
cli.
"""

import importlib

GAMES = {
    "werewolf": "simulator.games.werewolf",
    "chenghuang": "simulator.games.chenghuang",
    "salem": "simulator.games.salem",
    "ghostplay": "simulator.games.ghostplay",
    "vitamors": "simulator.games.vitamors",
}
# The runnable example a new game starts from (docs/adding-a-game.md): it runs and passes the
# contract suite like every game, but `fairplay games` does not list it.
EXAMPLES = {
    "template": "simulator.games._template",
}


def game_names(listed_only: bool = False) -> list[str]:
    return list(GAMES) if listed_only else list(GAMES) + list(EXAMPLES)


def get_game(name: str):
    package = GAMES.get(name) or EXAMPLES.get(name)
    if package is None:
        raise KeyError(name)
    return importlib.import_module(package).GAME
