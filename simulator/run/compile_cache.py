"""Where Numba caches compiled code: one folder per game, named after a hash of what it depends on.

Numba keys a cached function on its own source file only, so a kernel that inlines a rule from
another file would keep running stale code after the rule changed. fairplay therefore gives each
*group* of sources its own cache folder, named after a hash of every file the group's compiled code
can depend on:

* the engine: the files directly in simulator/games/ and strategies/common.py;
* a game's kernel: the engine's files plus its package simulator/games/<game>/;
* a game's strategies (group "<game>-strategies"): the engine's files, strategies/<game>.py and
  the files of the game's package it imports (its declarations; not the kernel, which calls a
  strategy by its address, so neither depends on the other's source);
* anything else (a user's strategy file): every compiled source of fairplay, since it may use any
  game's declarations.

The trace's sentences (simulator/games/story.py and each game's trace.py) are never compiled nor
imported by compiled code, so no hash covers them (tests/test_compile_cache.py checks it).
Editing one game's kernel recompiles that kernel only, editing its strategies recompiles them
and not its kernel, editing a trace's sentences recompiles nothing; editing the engine recompiles
every game. The folders live under $NUMBA_CACHE_DIR if it is set, else ~/.cache/fairplay/numba.
"""

from __future__ import annotations

import ast
import hashlib
import os
from functools import lru_cache
from pathlib import Path

from numba.core import caching

ROOT = Path(__file__).resolve().parent.parent.parent
GAMES = Path("simulator") / "games"
STRATEGIES = Path("strategies")
STRATEGIES_GROUP = "-strategies"  # a game's strategies: "werewolf-strategies"
TRACE_ONLY = ("story.py", "trace.py")  # the engine's and each game's trace sentences: not compiled


def base_dir() -> Path:
    given = os.environ.get("NUMBA_CACHE_DIR")
    if given:
        return Path(given)
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "fairplay" / "numba"


def engine_files(root: Path = ROOT) -> list[Path]:
    files = sorted(f for f in (root / GAMES).glob("*.py") if f.name not in TRACE_ONLY)
    files.append(root / STRATEGIES / "common.py")
    return [f for f in files if f.exists()]


def game_packages(root: Path = ROOT) -> list[str]:
    return sorted(p.name for p in (root / GAMES).iterdir()
                  if p.is_dir() and (p / "__init__.py").exists())


def game_files(package: str, root: Path = ROOT) -> list[Path]:
    """The files a game's kernel can depend on, in its package (its trace sentences aside)."""
    return sorted(f for f in (root / GAMES / package).rglob("*.py") if f.name not in TRACE_ONLY)


def strategy_files(package: str, root: Path = ROOT) -> list[Path]:
    """A game's built-in strategies: strategies/<game>.py."""
    return [root / STRATEGIES / f"{name}.py" for name in sorted({package, package.lstrip("_")})
            if (root / STRATEGIES / f"{name}.py").exists()]


def imported_game_files(sources: list[Path], package: str, root: Path = ROOT) -> list[Path]:
    """The files of a game's package that `sources` import, directly or through one another
    (compiled code can use only what its module imports): the strategies read the declarations,
    not the kernel. An import of the package itself (its __init__) counts as all of it."""
    folder = root / GAMES / package
    dotted = ".".join(GAMES.parts + (package,))
    found: set[Path] = set()
    todo = list(sources)
    while todo:
        path = todo.pop()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level and path.parent == folder:
                names = [f"{dotted}.{node.module}" if node.module else dotted]
                names += [f"{names[0]}.{alias.name}" for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            for name in names:
                if name == dotted:
                    return game_files(package, root)
                if name.startswith(dotted + "."):
                    module = folder / (name[len(dotted) + 1:].replace(".", "/") + ".py")
                    if module.exists() and module not in found and module.name not in TRACE_ONLY:
                        found.add(module)
                        todo.append(module)
    return sorted(found)


def _digest(files, root: Path) -> str:
    digest = hashlib.sha256()
    for path in files:
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def group_of(path: Path, root: Path = ROOT) -> str:
    """The group a source file belongs to: "engine", a game package's name, its strategies'
    ("werewolf-strategies"), or "user"."""
    try:
        relative = Path(path).resolve().relative_to(root)
    except ValueError:
        return "user"
    parts = relative.parts
    if relative.parent == GAMES or relative == STRATEGIES / "common.py":
        return "engine"
    if len(parts) > 3 and Path(*parts[:2]) == GAMES:
        return parts[2]
    if len(parts) == 2 and parts[0] == "strategies":
        stem = relative.stem
        for package in game_packages(root):
            if stem in (package, package.lstrip("_")):
                return package + STRATEGIES_GROUP
    return "user"


def cache_key(group: str, root: Path = ROOT) -> str:
    """The hash naming a group's cache folder (it changes exactly when the group's code may)."""
    engine = engine_files(root)
    if group == "engine":
        return _digest(engine, root)
    if group == "user":
        files = engine + [f for p in game_packages(root)
                          for f in game_files(p, root) + strategy_files(p, root)]
        return _digest(files, root)
    if group.endswith(STRATEGIES_GROUP):
        package = group[:-len(STRATEGIES_GROUP)]
        strategies = strategy_files(package, root)
        return _digest(engine + imported_game_files(strategies, package, root) + strategies, root)
    return _digest(engine + game_files(group, root), root)


@lru_cache(maxsize=None)
def loaded_key(group: str) -> str:
    """`cache_key` of the code this process runs: computed once, when the group is first used
    (hashing every source again for each result cost more than playing a small run)."""
    return cache_key(group)


def cache_dir(group: str) -> Path:
    return base_dir() / f"{group.lstrip('_')}-{loaded_key(group)}"


# Numba's locator machinery (named CacheImpl since Numba 0.61, _CacheImpl before).
_CACHE_IMPL = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl")


class GroupCacheLocator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):
    """Numba's cache locator for fairplay: a function's cache lives in its group's folder."""

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = str(cache_dir(group_of(Path(py_file))) /
                               self.get_suitable_cache_subpath(py_file))

    def get_cache_path(self):
        return self._cache_path


def install() -> None:
    """Make Numba locate every cache through GroupCacheLocator (first, before its own)."""
    locators = _CACHE_IMPL._locator_classes
    if GroupCacheLocator not in locators:
        locators.insert(0, GroupCacheLocator)
