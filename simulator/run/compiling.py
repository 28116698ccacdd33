"""A first run's compiling: done on the machine's cores at once, and shown as it goes. A game's
kernel takes tens of seconds to compile once (docs/performance.md, "A cold first run"), and a
user should see it move.

`compile_ahead` compiles what a run will play before its first chunk, on two cores: a helper
process (`python -m simulator.run.compiling GAME STRATEGY...`) compiles the config's built-in
strategies, then the kernel's phases from the last, into the shared compiled-code cache, while
this process compiles the kernel from the top (`play_game`, then the entry `play`, which calls it
by address); what the helper has finished loads from the cache when this process comes to it.
Numba compiles a function's callees before it, in the order it calls them, so this process
compiles `play_game`'s first phase's callees first; the helper takes the same tree from its
other end (the last phase's last callee first), and the two meet in the middle. Strategies and
kernel need nothing of each other compiled: the kernel calls a strategy by its address.

`watch_kernel` follows Numba's compile events in this process (numba.core.event, the
"numba:compile" kind): each function Numba starts and finishes while the kernel compiles. A
status callback hears "N functions compiled, now <function>" as they go (the CLI shows it in
its progress bar), and the announce callback one closing line with the time it took. A kernel
compiled in other processes (spawned workers, a Dask cluster) is not followed: the opening line
alone says it compiles.
"""

from __future__ import annotations

import dis
import inspect
import os
import subprocess
import sys
import threading
import time
from typing import Callable

from numba import types
from numba.core import event
from numba.core.dispatcher import Dispatcher

from simulator.games import driver, get_game
from simulator.games.kernel_support import compile_strategy, strategy_is_cached


class KernelWatch(event.Listener):
    """Counts the compiles of one kernel, and of the functions compiled just before it as its
    parts (a game's `play_game`); stops listening when the kernel's own compile ends, or at
    `close`."""

    def __init__(self, game: str, kernel, status: Callable[[str], None],
                 announce: Callable[[str], None], parts=()):
        self.game, self.kernel = game, kernel
        self.roots = {id(kernel), *(id(part) for part in parts)}
        self.status, self.announce = status, announce
        self.depth, self.done, self.started = 0, 0, None
        self.listening = True

    def on_start(self, ev):
        dispatcher = ev.data["dispatcher"]
        if self.depth == 0 and id(dispatcher) not in self.roots:
            return  # something else compiles first (a strategy): not the kernel's
        if self.started is None:
            self.started = time.perf_counter()
        self.depth += 1
        self.status(f"compiling the {self.game} kernel: {self.done} "
                    f"function{'' if self.done == 1 else 's'} compiled, now "
                    f"{dispatcher.py_func.__name__}")

    def on_end(self, ev):
        if self.depth == 0:
            return
        self.depth -= 1
        self.done += 1
        failed = getattr(ev, "_exc_details", None) is not None
        # (Event.is_failed reads the other way round in Numba 0.5x: its exception instead)
        if self.depth == 0 and (ev.data["dispatcher"] is self.kernel or failed):
            # the kernel itself is done, or a compile stopped (Ctrl-C, an error)
            self.close()
            if not failed:
                self.announce(f"compiled the {self.game} kernel in "
                              f"{time.perf_counter() - self.started:.0f} s ({self.done} "
                              f"functions)")

    def close(self) -> None:
        """Stop listening and clear the status line (once)."""
        if self.listening:
            self.listening = False
            event.unregister("numba:compile", self)
            self.status("")


def watch_kernel(game: str, kernel, status: Callable[[str], None],
                 announce: Callable[[str], None], parts=()) -> KernelWatch:
    """Follow the next compile of `kernel` in this process, and of its `parts` compiled before it
    (see the module's docstring)."""
    watch = KernelWatch(game, kernel, status, announce, parts)
    event.register("numba:compile", watch)
    return watch


# A game's cold compile on two idle cores of the reference machine, in seconds: the range of
# `python benchmarks/bench_compile.py --game G` over the five games (docs/performance.md).
IDLE_COMPILE_SECONDS = (30, 100)


def expected_time(load: float | None = None, cores: int | None = None) -> str:
    """How long a kernel's cold compile will take here, honest about the machine: the range on
    two idle cores, scaled by how busy the cores are now. A compile runs two processes (this
    one, already counted in the load average, and its helper); with `load` runnable processes
    on `cores` cores each gets about cores / (load + 1) of a core, so it takes about
    (load + 1) / cores times as long, and twice as long on a single core."""
    cores = cores or os.cpu_count() or 1
    if load is None:
        try:
            load = os.getloadavg()[0]
        except OSError:  # no load average on this system: the idle range only
            load = 0.0
    low, high = IDLE_COMPILE_SECONDS
    idle = f"about {low}-{high} s on two idle cores"
    if cores == 1:
        slower, why = 2 * max(1.0, load + 1), "one core here"
    else:
        slower = max(1.0, (load + 1) / cores)
        why = f"the {cores} cores here are busy (load {load:.1f})"
    if slower < 1.25:
        return f"{idle} (the {cores} cores here are idle)"
    return f"{idle}; {why}, so about {_seconds(low * slower)} to {_seconds(high * slower)}"


def _seconds(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.0f} min"


def uncompiled_builtins(spec, lineup) -> list[str]:
    """The names of the built-in strategies the lineup plays that this process has not compiled
    yet (a user's strategy, from the user's own file, is compiled here: the helper process
    imports nothing the config does not name as built-in)."""
    playing = {id(slot.info.function) for slot in lineup.slots}
    return sorted(name for name, info in spec.strategies().items()
                  if id(info.function) in playing and not getattr(info.function, "overloads", 1))


def uncached_builtins(spec, lineup) -> list[str]:
    """`uncompiled_builtins` less those the compiled-code cache holds: what a run with a
    compiled kernel still has to compile (a strategy its first time in another config)."""
    strategies = spec.strategies()
    return [name for name in uncompiled_builtins(spec, lineup)
            if not strategy_is_cached(strategies[name].function)]


def compile_ahead(cfg, status: Callable[[str], None], announce: Callable[[str], None]) -> None:
    """Compile the kernel and strategies of a config's first run (see the module's docstring),
    following the kernel's compile with `watch_kernel`. The helper is ended once the kernel is
    compiled and it has said its strategies are (the phases it may still be compiling are then
    loaded or compiled here), or if this process is interrupted; a helper that fails only means
    the strategies compile here instead."""
    names = uncompiled_builtins(cfg.game, cfg.lineup)
    helper = subprocess.Popen([sys.executable, "-m", "simulator.run.compiling", cfg.game.name, *names],
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
    watch = watch_kernel(cfg.game.name, cfg.game.kernel, status, announce, [cfg.game.play_game])
    try:
        driver.compile_kernel(cfg.game, cfg.params.players)
        if names:
            status(f"compiling the {cfg.game.name} strategies: {', '.join(names)}")
            for line in helper.stdout:  # until it says so, or ends
                if line.strip() == STRATEGIES_DONE:
                    break
            status("")
    finally:
        watch.close()
        if helper.poll() is None:
            helper.kill()
        helper.wait()
        helper.stdout.close()


# What the helper prints once the strategies are in the cache (it goes on with the kernel's phases).
STRATEGIES_DONE = "strategies compiled"


def phases_last_first(spec) -> list:
    """The kernel's phases the helper compiles while this process compiles the kernel: the
    compiled functions of the game's kernel module but `play` and `play_game` (which call all
    the others), each with its likely argument types: the state for `st`, the generator for `rng`,
    int64 for the rest (the engine's `compiled` types a call's constants as int64 too). A phase
    whose real types differ (a bool, a tuple) is compiled for nothing: this process then compiles
    it itself.

    The order is this process's own order reversed at every level: from `play_game`, the phase it
    calls last, and within each phase the phases it calls, last first, before the phase itself
    (Numba compiles callees first, so a phase compiled before its callees would compile them in
    this process's order, behind it). Phases `play_game` does not reach follow, last defined
    first."""
    module = sys.modules[spec.kernel.py_func.__module__]
    state, _, generator = driver.kernel_signature(spec, spec.min_players)
    phases = {}
    for name, value in vars(module).items():
        if (isinstance(value, Dispatcher) and value.py_func.__module__ == module.__name__
                and value is not spec.kernel and not value.targetoptions.get("inline")):
            phases[name] = value
    order = []

    def visit(name):
        for callee in reversed(_names_called(phases[name].py_func)):
            if callee in phases and callee != "play_game" and callee not in order:
                order.append(callee)  # marked before its callees: a recursion stops here
                visit(callee)
                order.remove(callee)
                order.append(callee)

    if "play_game" in phases:
        visit("play_game")
    order += [name for name in reversed(phases) if name not in order and name != "play_game"]
    result = []
    for name in order:
        arguments = inspect.signature(phases[name].py_func).parameters
        result.append((phases[name], tuple(state if a == "st" else generator if a == "rng"
                                           else types.int64 for a in arguments)))
    return result


def _names_called(function) -> list[str]:
    """The global names a function's code reads, in the order it first reads them (its calls of
    the module's other phases among them; an attribute such as `TR.night` is not one)."""
    return list(dict.fromkeys(instruction.argval for instruction in dis.get_instructions(function)
                              if instruction.opname == "LOAD_GLOBAL"))


def end_with_parent(every: float = 0.2) -> None:
    """End this process as soon as its parent has gone (killed without a chance to end it):
    a helper is useful to its run only, and no process is left behind."""
    parent = os.getppid()

    def watch():
        while os.getppid() == parent:
            time.sleep(every)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


def main(argv: list[str]) -> int:
    """The helper: compile the named built-in strategies of a game into the cache, say so, then
    compile the kernel's phases (until it is ended, or its parent is gone)."""
    end_with_parent()
    game, names = argv[0], argv[1:]
    spec = get_game(game)
    strategies = spec.strategies()
    for name in names:
        compile_strategy(strategies[name].function)
    print(STRATEGIES_DONE, flush=True)
    for phase, signature in phases_last_first(spec):
        try:
            phase.compile(signature)
        except Exception:  # a guessed signature that does not type: this process compiles it
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
