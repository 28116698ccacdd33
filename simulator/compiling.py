"""What a first run is compiling, as it goes: a game's kernel takes tens of seconds to compile
once (docs/performance.md, "A cold first run"), and a user should see it move.

`watch_kernel` follows Numba's compile events in this process (numba.core.event, the
"numba:compile" kind): each function Numba starts and finishes while the kernel compiles. A
status callback hears "N functions compiled, now <function>" as they go (the CLI shows it in
its progress bar), and the announce callback one closing line with the time it took. A kernel
compiled in other processes (spawned workers, a Dask cluster) is not followed: the opening line
alone says it compiles.
"""

from __future__ import annotations

import time
from typing import Callable

from numba.core import event


class KernelWatch(event.Listener):
    """Counts the compiles nested in one kernel's compile; stops listening when it ends."""

    def __init__(self, game: str, kernel, status: Callable[[str], None],
                 announce: Callable[[str], None]):
        self.game, self.kernel = game, kernel
        self.status, self.announce = status, announce
        self.depth, self.done, self.started = 0, 0, None

    def on_start(self, ev):
        dispatcher = ev.data["dispatcher"]
        if self.depth == 0 and dispatcher is not self.kernel:
            return  # something else compiles first (a strategy): not the kernel's
        if self.depth == 0:
            self.started = time.perf_counter()
        self.depth += 1
        self.status(f"compiling the {self.game} kernel: {self.done} functions compiled, now "
                    f"{dispatcher.py_func.__name__}")

    def on_end(self, ev):
        if self.depth == 0:
            return
        self.depth -= 1
        self.done += 1
        if self.depth == 0:  # the kernel itself is done
            event.unregister("numba:compile", self)
            self.status("")
            self.announce(f"compiled the {self.game} kernel in "
                          f"{time.perf_counter() - self.started:.0f} s ({self.done} functions)")


def watch_kernel(game: str, kernel, status: Callable[[str], None],
                 announce: Callable[[str], None]) -> KernelWatch:
    """Follow the next compile of `kernel` in this process (see the module's docstring)."""
    watch = KernelWatch(game, kernel, status, announce)
    event.register("numba:compile", watch)
    return watch
