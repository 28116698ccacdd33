"""A first run's compiling: done on the machine's cores at once, and shown as it goes. A game's
kernel takes tens of seconds to compile once (docs/performance.md, "A cold first run"), and a
user should see it move.

`compile_ahead` compiles what a run will play before its first chunk: the config's built-in
strategies in a helper process (`python -m simulator.compiling GAME STRATEGY...`, which writes
them to the shared compiled-code cache) while this process compiles the kernel; the strategies
then load from the cache. Neither needs the other compiled: the kernel calls a strategy by its
address.

`watch_kernel` follows Numba's compile events in this process (numba.core.event, the
"numba:compile" kind): each function Numba starts and finishes while the kernel compiles. A
status callback hears "N functions compiled, now <function>" as they go (the CLI shows it in
its progress bar), and the announce callback one closing line with the time it took. A kernel
compiled in other processes (spawned workers, a Dask cluster) is not followed: the opening line
alone says it compiles.
"""

from __future__ import annotations

import subprocess
import sys
import time
from typing import Callable

from numba.core import event

from simulator.games import driver, get_game
from simulator.games.kernel_support import compile_strategy


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


def uncompiled_builtins(spec, lineup) -> list[str]:
    """The names of the built-in strategies the lineup plays that this process has not compiled
    yet (a user's strategy, from the user's own file, is compiled here: the helper process
    imports nothing the config does not name as built-in)."""
    playing = {id(slot.info.function) for slot in lineup.slots}
    return sorted(name for name, info in spec.strategies().items()
                  if id(info.function) in playing and not getattr(info.function, "overloads", 1))


def compile_ahead(cfg, status: Callable[[str], None], announce: Callable[[str], None]) -> None:
    """Compile the kernel and strategies of a config's first run (see the module's docstring),
    following the kernel's compile with `watch_kernel`. The helper is ended if this process is
    interrupted; a helper that fails only means the strategies compile here instead."""
    names = uncompiled_builtins(cfg.game, cfg.lineup)
    helper = subprocess.Popen([sys.executable, "-m", "simulator.compiling", cfg.game.name, *names],
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL) if names else None
    try:
        watch_kernel(cfg.game.name, cfg.game.kernel, status, announce)
        driver.compile_kernel(cfg.game, cfg.params.players)
        if helper is not None:
            status(f"compiling the {cfg.game.name} strategies: {', '.join(names)}")
            helper.wait()
            status("")
    finally:
        if helper is not None and helper.poll() is None:
            helper.kill()
            helper.wait()


def main(argv: list[str]) -> int:
    """The helper: compile the named built-in strategies of a game into the cache."""
    game, names = argv[0], argv[1:]
    strategies = get_game(game).strategies()
    for name in names:
        compile_strategy(strategies[name].function)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
