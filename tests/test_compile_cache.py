"""The compiled-code cache is keyed per game: editing one game's rules recompiles that game only.

`simulator.compile_cache` names each group's cache folder after a hash of the sources its compiled
code can depend on. These tests edit a copy of the source tree and compare the keys; the contract
suite checks, for every game, that a second process loads the kernel from the cache.
"""

import shutil
from pathlib import Path

import pytest

from simulator import compile_cache
from simulator.games import GAMES, EXAMPLES

ROOT = compile_cache.ROOT
PACKAGES = [path.rsplit(".", 1)[1] for path in list(GAMES.values()) + list(EXAMPLES.values())]


@pytest.fixture
def tree(tmp_path):
    copy = tmp_path / "tree"
    shutil.copytree(ROOT / "simulator", copy / "simulator",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "strategies", copy / "strategies",
                    ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def keys(root: Path) -> dict[str, str]:
    return {group: compile_cache.cache_key(group, root)
            for group in ["engine", "user"] + PACKAGES}


def append(path: Path, text: str = "\n# an edit\n"):
    path.write_text(path.read_text() + text)


def test_every_registered_game_has_its_own_group():
    assert set(PACKAGES) <= set(compile_cache.game_packages())
    assert compile_cache.group_of(ROOT / "simulator/games/engine.py") == "engine"
    assert compile_cache.group_of(ROOT / "strategies/common.py") == "engine"
    for package in PACKAGES:
        assert compile_cache.group_of(ROOT / f"simulator/games/{package}/rules.py") == package
    assert compile_cache.group_of(ROOT / "strategies/werewolf.py") == "werewolf"
    assert compile_cache.group_of(ROOT / "strategies/template.py") == "_template"
    assert compile_cache.group_of(Path("/somewhere/my_strategies.py")) == "user"


@pytest.mark.parametrize("package", PACKAGES)
def test_editing_one_games_rules_recompiles_that_game_only(tree, package):
    before = keys(tree)
    append(tree / "simulator" / "games" / package / "rules.py")
    after = keys(tree)
    changed = {group for group in before if before[group] != after[group]}
    assert changed == {package, "user"}  # user strategies may read any game's declarations


def test_editing_a_games_strategies_recompiles_that_game_only(tree):
    before = keys(tree)
    append(tree / "strategies" / "werewolf.py")
    after = keys(tree)
    assert {g for g in before if before[g] != after[g]} == {"werewolf", "user"}


def test_editing_the_engine_recompiles_every_game(tree):
    before = keys(tree)
    append(tree / "simulator" / "games" / "engine.py")
    after = keys(tree)
    assert all(before[group] != after[group] for group in before)


def test_numba_is_told_to_use_the_group_folders():
    from numba.core import caching

    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl")
    assert impl._locator_classes[0] is compile_cache.GroupCacheLocator
    folder = compile_cache.cache_dir("werewolf")
    assert folder.name.startswith("werewolf-") and folder.parent == compile_cache.base_dir()
