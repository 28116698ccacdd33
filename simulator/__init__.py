"""fairplay's simulation platform.

Importing the package first points Numba's on-disk cache at a folder named after a hash of
fairplay's own sources (see `compiled_code_cache`). Numba keys its cache on each function's own
file only, so a kernel that inlines a rule from another file would otherwise keep running stale
compiled code after that rule changed.
"""

import hashlib
import os
from pathlib import Path

import numba

# The folders holding compiled (@njit) code: a change anywhere in them starts a fresh cache.
_COMPILED_SOURCES = ("simulator/games", "strategies")


def compiled_code_cache() -> Path:
    """~/.cache/fairplay/numba-<hash of the sources>, unless NUMBA_CACHE_DIR says otherwise."""
    digest = hashlib.sha256()
    root = Path(__file__).resolve().parent.parent
    for folder in _COMPILED_SOURCES:
        for path in sorted((root / folder).rglob("*.py")):
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "fairplay"
    return base / f"numba-{digest.hexdigest()[:16]}"


if not os.environ.get("NUMBA_CACHE_DIR"):
    numba.config.CACHE_DIR = str(compiled_code_cache())
