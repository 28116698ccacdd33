"""The compiled-code cache is keyed per game: editing one game's rules recompiles that game only,
editing its strategies recompiles them and not its kernel, editing a trace's sentences nothing.

`simulator.run.compile_cache` names each group's cache folder after a hash of the sources its compiled
code can depend on. These tests edit a copy of the source tree and compare the keys; the contract
suite checks, for every game, that a second process loads the kernel from the cache.
"""

import ast
import shutil
from pathlib import Path

import pytest

from simulator.run import compile_cache
from simulator.games import GAMES, EXAMPLES

ROOT = compile_cache.ROOT
PACKAGES = [path.rsplit(".", 1)[1] for path in list(GAMES.values()) + list(EXAMPLES.values())]
GROUPS = ["engine", "user"] + PACKAGES + [p + "-strategies" for p in PACKAGES]


@pytest.fixture
def tree(tmp_path):
    copy = tmp_path / "tree"
    shutil.copytree(ROOT / "simulator", copy / "simulator",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "strategies", copy / "strategies",
                    ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def keys(root: Path) -> dict[str, str]:
    return {group: compile_cache.cache_key(group, root) for group in GROUPS}


def append(path: Path, text: str = "\n# an edit\n"):
    path.write_text(path.read_text() + text)


def test_every_registered_game_has_its_own_group():
    assert set(PACKAGES) <= set(compile_cache.game_packages())
    assert compile_cache.group_of(ROOT / "simulator/games/engine.py") == "engine"
    assert compile_cache.group_of(ROOT / "strategies/common.py") == "engine"
    for package in PACKAGES:
        assert compile_cache.group_of(ROOT / f"simulator/games/{package}/rules.py") == package
    assert compile_cache.group_of(ROOT / "strategies/werewolf.py") == "werewolf-strategies"
    assert compile_cache.group_of(ROOT / "strategies/template.py") == "_template-strategies"
    assert compile_cache.group_of(Path("/somewhere/my_strategies.py")) == "user"


@pytest.mark.parametrize("package", PACKAGES)
def test_editing_one_games_kernel_recompiles_that_kernel_only(tree, package):
    before = keys(tree)
    append(tree / "simulator" / "games" / package / "kernel.py")
    after = keys(tree)
    changed = {group for group in before if before[group] != after[group]}
    assert changed == {package, "user"}  # user strategies may read any game's declarations


@pytest.mark.parametrize("package", PACKAGES)
def test_editing_one_games_declarations_recompiles_that_game_and_its_strategies(tree, package):
    before = keys(tree)
    append(tree / "simulator" / "games" / package / "declaration.py")
    after = keys(tree)
    assert {g for g in before if before[g] != after[g]} == \
        {package, package + "-strategies", "user"}


def test_a_games_strategies_are_keyed_on_what_they_import_of_the_game():
    """Chenghuang's strategies score with its rules: a rules edit recompiles them too."""
    files = compile_cache.imported_game_files(compile_cache.strategy_files("chenghuang"),
                                              "chenghuang")
    assert [f.name for f in files] == ["declaration.py", "rules.py"]
    assert [f.name for f in compile_cache.imported_game_files(
        compile_cache.strategy_files("werewolf"), "werewolf")] == ["declaration.py"]


@pytest.mark.parametrize("package", PACKAGES)
def test_editing_a_games_strategies_recompiles_them_not_its_kernel(tree, package):
    before = keys(tree)
    append(compile_cache.strategy_files(package, tree)[0])
    after = keys(tree)
    assert {g for g in before if before[g] != after[g]} == {package + "-strategies", "user"}


@pytest.mark.parametrize("path", ["simulator/games/story.py"]
                         + [f"simulator/games/{package}/trace.py" for package in PACKAGES])
def test_editing_a_trace_s_sentences_recompiles_nothing(tree, path):
    before = keys(tree)
    append(tree / path)
    assert keys(tree) == before


def compiled_code(tree: ast.Module) -> bool:
    """Does a module define a compiled function (decorated by one of the engine's compilers)?"""
    compilers = {"compiled", "inlined", "kernel", "strategy", "njit", "jit"}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            for decorator in node.decorator_list:
                target = decorator.func if isinstance(decorator, ast.Call) else decorator
                name = target.attr if isinstance(target, ast.Attribute) else \
                    getattr(target, "id", "")
                if name in compilers:
                    return True
    return False


def test_no_compiled_code_reads_a_trace_s_sentences():
    """What the hashes leave out (TRACE_ONLY) must be neither compiled nor imported by a module
    that is: else an edit there would leave stale code in the cache."""
    sources = sorted((ROOT / "simulator" / "games").rglob("*.py")) \
        + sorted((ROOT / "strategies").glob("*.py"))
    checked = 0
    for path in sources:
        tree = ast.parse(path.read_text())
        if path.name in compile_cache.TRACE_ONLY:
            assert not compiled_code(tree), path
            continue
        if not compiled_code(tree):
            continue
        checked += 1
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [alias.name for alias in node.names] + [getattr(node, "module", "") or ""]
                for name in names:
                    assert name.rsplit(".", 1)[-1] not in ("story", "trace"), (path, name)
    assert checked >= 2 * len(PACKAGES)  # each game's kernel and rules at least


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


def test_strategies_that_import_the_whole_game_are_keyed_on_all_of_it(tree):
    append(tree / "strategies" / "werewolf.py", "\nfrom simulator.games.werewolf import GAME\n")
    before = keys(tree)
    append(tree / "simulator" / "games" / "werewolf" / "kernel.py")
    after = keys(tree)
    assert {g for g in before if before[g] != after[g]} == {"werewolf", "werewolf-strategies",
                                                            "user"}
