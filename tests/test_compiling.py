"""The progress of a kernel's first compile (simulator.run.compiling): what compiles now, how many
functions are done, and one closing line with the time it took."""

from __future__ import annotations

import inspect
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from numba import njit, types
from numba.core.dispatcher import Dispatcher

from simulator.run import compiling
from simulator.setup import config
from simulator.games import driver, get_game
from simulator.games.kernel_support import compile_strategy

ROOT = Path(__file__).resolve().parent.parent


def test_the_watch_follows_one_kernels_compile_and_then_stops_listening():
    @njit
    def helper(x):
        return x * 2

    @njit
    def toy(x):
        return helper(x) + 1

    @njit
    def other(x):
        return x - 1

    said, shown = [], []
    compiling.watch_kernel("toy", toy, shown.append, said.append)
    other(np.int64(3))  # compiled before the kernel: not the kernel's
    assert shown == [] and said == []
    assert toy(np.int64(3)) == 7
    assert shown[0] == "compiling the toy kernel: 0 functions compiled, now toy"
    assert "compiling the toy kernel: 0 functions compiled, now helper" in shown
    assert shown[-1] == ""  # cleared at the end
    assert len(said) == 1 and re.fullmatch(r"compiled the toy kernel in \d+ s \(2 functions\)",
                                           said[0]), said
    other(np.float64(3.0))  # a later compile: no longer followed
    assert len(said) == 1 and shown[-1] == ""


def test_a_compile_that_stops_is_not_said_to_be_compiled():
    # Ctrl-C (or a typing error) while the kernel compiles: the description is cleared and no
    # closing line claims the kernel compiled.
    @njit
    def broken(x):
        return x.no_such_attribute

    said, shown = [], []
    compiling.watch_kernel("broken", broken, shown.append, said.append)
    with pytest.raises(Exception):
        broken(np.int64(1))
    assert said == [] and shown[-1] == ""


def _cached(cache: Path, function: str) -> bool:
    """Does the compiled-code cache hold `function` (Numba's index file, named after it)?"""
    return any(cache.rglob(f"*.{function}-*.nbi"))


def test_a_cold_first_run_says_what_it_compiled_and_compiles_only_the_strategies_it_plays(
        tmp_path):
    # An empty compiled-code cache: the run compiles the template's kernel and says so, from
    # its opening line to its closing one (standard error; the bar's description on a terminal).
    # The config plays `suspicious` only: that strategy is compiled (by the helper, beside the
    # kernel), `random` is not.
    cache = tmp_path / "cache"
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    done = subprocess.run([sys.executable, "-m", "simulator.cli", "run", "template", "-n", "50",
                           "--workers", "1", "--set", "strategies.all=suspicious",
                           "-o", str(tmp_path / "r.json")],
                          env=env, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "compiling the template kernel, first run only" in done.stderr
    assert re.search(r"compiled the template kernel in \d+ s \(\d+ functions\)", done.stderr), \
        done.stderr
    assert _cached(cache, "suspicious")
    assert not _cached(cache, "random_play")


def test_the_helper_compiles_the_named_strategies_into_the_cache(tmp_path):
    cache = tmp_path / "cache"
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    done = subprocess.run([sys.executable, "-m", "simulator.run.compiling", "template", "suspicious"],
                          env=env, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines()[0] == compiling.STRATEGIES_DONE
    assert _cached(cache, "suspicious") and not _cached(cache, "random_play")
    # then the kernel's phases: the template's one phase besides play_game (which calls it)
    assert _cached(cache, "voting_round") and not _cached(cache, "play_game")


def test_the_helper_takes_the_phases_from_the_last_with_their_likely_types():
    import simulator.games.werewolf.kernel as kernel

    spec = get_game("werewolf")
    phases = compiling.phases_last_first(spec)
    names = [phase.py_func.__name__ for phase, _ in phases]
    assert "play" not in names and "play_game" not in names
    defined = {phase.py_func.__name__ for phase in vars(kernel).values()
               if isinstance(phase, Dispatcher) and phase.py_func.__module__ == kernel.__name__
               and not phase.targetoptions.get("inline")}
    assert sorted(names) == sorted(defined - {"play", "play_game"})  # each once
    # Callees before their callers (Numba compiles them first anyway), and the tree taken from
    # the end this process comes to last: play_game calls night, then daytime, so the helper
    # starts in daytime's last callees and ends with night, whose callees come last first.
    for caller in names:
        for callee in compiling._names_called(getattr(kernel, caller).py_func):
            if callee in names:
                assert names.index(callee) < names.index(caller), (callee, caller)
    assert names.index("daytime") < names.index("late_night") < names.index("first_night") \
        < names.index("night") == len(names) - 1
    assert names.index("sentence_vote") < names.index("elect_mayor")
    state, _, generator = driver.kernel_signature(spec, 9)
    for phase, signature in phases:
        parameters = list(inspect.signature(phase.py_func).parameters)
        assert len(signature) == len(parameters)
        for parameter, type_ in zip(parameters, signature):
            assert type_ == {"st": state, "rng": generator}.get(parameter, types.int64)


def test_only_built_in_strategies_not_yet_compiled_go_to_the_helper():
    spec = get_game("template")
    lineup = driver.Lineup.uniform(spec, 5, "suspicious")
    info = spec.strategies()["suspicious"]
    if info.function.overloads:  # compiled by an earlier test in this process
        assert compiling.uncompiled_builtins(spec, lineup) == []
    else:
        assert compiling.uncompiled_builtins(spec, lineup) == ["suspicious"]
    compile_strategy(info.function)
    assert compiling.uncompiled_builtins(spec, lineup) == []


def test_an_interrupted_compile_ends_its_helper(monkeypatch):
    # Ctrl-C while the kernel compiles: the helper compiling the strategies is ended too, no
    # process is left behind.
    started = []
    real_popen = subprocess.Popen

    def popen(*args, **kwargs):
        started.append(real_popen([sys.executable, "-c", "import time; time.sleep(600)"],
                                  stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True))
        return started[-1]

    def interrupted(spec, players):
        raise KeyboardInterrupt

    monkeypatch.setattr(compiling.subprocess, "Popen", popen)
    monkeypatch.setattr(compiling.driver, "compile_kernel", interrupted)
    monkeypatch.setattr(compiling, "uncompiled_builtins", lambda spec, lineup: ["suspicious"])
    cfg = config.load("template")
    with pytest.raises(KeyboardInterrupt):
        compiling.compile_ahead(cfg, lambda line: None, lambda line: None)
    assert len(started) == 1 and started[0].poll() is not None


def test_a_strategy_compiled_for_the_first_time_is_announced_once(tmp_path):
    # The kernel is in the cache (a first run with `random`), a strategy is not: the run says it
    # compiles that strategy; the next run finds it cached and says nothing of it.
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))

    def run(strategy):
        done = subprocess.run([sys.executable, "-m", "simulator.cli", "run", "template", "-n",
                               "20", "--workers", "1", "--set", f"strategies.all={strategy}",
                               "--force", "-o", str(tmp_path / "r.json")],
                              env=env, cwd=ROOT, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stderr

    run("random")
    line = "compiling the template strategies suspicious, first use only"
    assert line in run("suspicious")
    assert "compiling" not in run("suspicious")


def test_a_helper_whose_run_is_killed_ends_too(tmp_path):
    # A run killed outright (SIGKILL: no chance to end its helper) leaves no compiling process
    # behind: the helper sees its parent gone and exits. The werewolf helper has a minute of
    # phases to compile from an empty cache, so it is still at work when its parent is killed.
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    parent = subprocess.Popen(
        [sys.executable, "-c",
         "import subprocess, sys, time\n"
         "helper = subprocess.Popen([sys.executable, '-m', 'simulator.run.compiling', 'werewolf'],"
         " stdout=subprocess.PIPE, text=True)\n"
         "print(helper.pid, flush=True)\n"
         "helper.stdout.readline()\n"  # its strategies are done: it compiles phases now
         "print('phases', flush=True)\n"
         "time.sleep(600)\n"],
        env=env, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    helper = None
    try:
        helper = int(parent.stdout.readline())
        assert parent.stdout.readline().strip() == "phases"
        assert _running(helper)
        parent.kill()
        parent.wait()
        deadline = time.monotonic() + 30
        while _running(helper) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _running(helper)
    finally:
        parent.kill()
        if helper is not None and _running(helper):
            os.kill(helper, 9)


def _running(pid: int) -> bool:
    """Is the process alive (not a zombie: an orphan is reaped by init)?"""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def test_a_compiled_function_called_with_constants_compiles_once_for_their_types():
    # Numba types a call with a constant argument by the constant's own literal type, so each
    # distinct constant (and a loop variable first typed by its initial `0`) compiled the callee
    # again. The engine's `compiled` types calls by the arguments' plain types.
    from simulator.games.engine import compiled

    def body(x, kind, shape):
        return x * 10 + kind + shape[0]

    plain, typed = njit(body), compiled(body)

    def caller_of(callee):
        @njit
        def caller(x):
            total = 0
            reference = 0
            for _ in range(2):
                total += callee(x, 1, (2, -1)) + callee(x, 2, (3, -1))
                reference = callee(reference, 3, (x, x))
            return total + reference

        return caller

    assert caller_of(plain)(np.int64(4)) == caller_of(typed)(np.int64(4))
    assert len(plain.signatures) > 1  # what Numba does by itself: one compile per constant
    assert typed.signatures == [(types.int64, types.int64, types.UniTuple(types.int64, 2))]


LINKING_PROBE = """
import numpy as np
from simulator.games import get_game
from simulator.games import driver
from simulator.setup import config
spec = get_game("template")
cfg = config.load("template")
driver.compile_kernel(spec, cfg.params.players)
signature = driver.kernel_signature(spec, cfg.params.players)
entry = spec.kernel.overloads[tuple(signature)]
game = spec.play_game.overloads[(signature[0], signature[2])]
name = game.fndesc.llvm_func_name
own = game.library.get_llvm_str()
assert f"@{name}(" in own or f'@"{name}"(' in own, "play_game's code is not in its library"
defined = [line for line in entry.library.get_llvm_str().splitlines()
           if line.startswith("define") and name in line]
assert defined == [], defined
tallies, _ = driver.play(spec, cfg.params, cfg.lineup, 200, np.random.default_rng(3))
again, _ = driver.play(spec, cfg.params, cfg.lineup, 200, np.random.default_rng(3))
assert tallies["games"].sum() == 200
assert all((tallies[key] == again[key]).all() for key in tallies)
print("ok")
"""


def test_the_entry_calls_play_game_by_address_without_linking_the_game_into_itself(tmp_path):
    # Numba links a callee's code into its caller's and optimises the whole again: the entry
    # `play` used to hold (and re-optimise) every function of the game. Called by its address,
    # play_game's code is in play_game's library alone, and the games are the same. Numba shows
    # no code of a function loaded from its cache, so the probe compiles into an empty one.
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    done = subprocess.run([sys.executable, "-c", LINKING_PROBE], env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]


def test_a_state_without_its_game_is_refused_not_called():
    spec = get_game("template")
    cfg = config.load("template")
    st = driver.blank_state(spec, cfg.params.players)  # not driver.new_state: no game_address
    with pytest.raises(ValueError, match="no play_game"):
        spec.kernel(st, 1, np.random.default_rng(0))
