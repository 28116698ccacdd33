"""Writing files so that a crash or Ctrl-C never leaves a half-written one behind."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomically(path, text: str) -> Path:
    """Write `text` to a temporary file beside `path`, then rename it over `path`.

    The rename is atomic, so readers see the old file or the new one, never a mix. The file gets
    the usual permissions (mkstemp would leave it private to the owner).
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path
