"""Plays a few games of one game for the contract suite and prints what it saw as JSON.

    python tests/contract_probe.py GAME GAMES SEED [--peek]

Run by tests/test_game_contract.py, interpreted (NUMBA_DISABLE_JIT=1) or compiled: for each
built-in strategy (every seat playing it) the tallies and the trace of GAMES games. Then one traced game of every
other built-in config for each strategy, so that the rules and decisions only a richer setup
reaches (a role the default config does not deal) are compared too. With --peek (interpreted runs
only) every decision is also checked for peeking (`peeking_ask`).
"""

from __future__ import annotations

import json
import sys

import numpy as np

from simulator.setup import config
from simulator.games import engine, get_game
from simulator.games.base import OBS_FIRST, OBS_ME, OBS_ROLE, PRIVATE
from simulator.games.driver import Lineup, play

PEEK_RNG = np.random.default_rng(12345)  # never the game's stream: the game must not change
# Poison written into the private pieces: far from any value a game writes, so an entry still
# holding it after the observer ran is one the observer left unwritten.
POISON = (1 << 40, 1 << 41)
peeks = {"checked": 0, "differences": []}


def copy_state(st):
    buffer = np.zeros(1, st.dtype).view(np.recarray)
    buffer[0] = st
    return buffer[0]


def seat_view(st, seat, observe, context):
    """The observation `engine.ask` hands the seat's strategy (the kind aside)."""
    observe(st, seat, context)
    st.obs[OBS_ME] = seat
    st.obs[OBS_ROLE] = st.role[seat]
    st.obs[OBS_FIRST] = st.first_seat
    return np.array(st.obs)


def peeking_ask(real_ask, spec):
    """`ask`, checking first that the seat's observation holds nothing it cannot know.

    The seat's view is built twice: on the state, and on a copy in which the game's
    `scramble_hidden` replaced every hidden fact of the state the seat cannot know by another
    possibility and every private piece of the shared observation was poisoned. The two views
    must be equal, except that an entry the observer left unwritten (still poisoned) must hold
    its resting value, the blank observation's: anything else is what an earlier seat's
    decision left behind.
    """
    private = spec.observation.entries(PRIVATE)

    def ask(st, seat, kind, rng, observe, context):
        if st.legal_count > 1 and not engine.is_blind(st, seat):
            seen = seat_view(st, seat, observe, context)
            world = copy_state(st)
            spec.scramble_hidden(world, seat, PEEK_RNG)
            poison = PEEK_RNG.integers(*POISON, private.size)
            world.obs[private] = poison
            view = seat_view(world, seat, observe, context)
            unwritten = np.zeros(view.size, dtype=bool)
            unwritten[private] = view[private] == poison
            differ = np.where(unwritten, seen != np.asarray(st.blank), view != seen)
            peeks["checked"] += 1
            if differ.any() and len(peeks["differences"]) < 5:
                at = np.nonzero(differ)[0].tolist()
                pieces = {name for name, start, size, _ in spec.observation.describe()
                          for i in at if start <= i < start + size}
                peeks["differences"].append({"seat": int(seat),
                                             "kind": spec.decisions[kind].name,
                                             "pieces": sorted(pieces)})
        return real_ask(st, seat, kind, rng, observe, context)

    return ask


def main() -> None:
    name, games, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    spec = get_game(name)
    if "--peek" in sys.argv:
        # Interpreted kernels look `ask` up in their modules' globals at every call.
        import importlib
        import pkgutil

        package = importlib.import_module(spec.kernel.__module__.rsplit(".", 1)[0])
        for info in pkgutil.iter_modules(package.__path__):
            module = importlib.import_module(f"{package.__name__}.{info.name}")
            if getattr(module, "ask", None) is engine.ask:
                module.ask = peeking_ask(engine.ask, spec)
    cfg = config.load(name)
    out = {}
    for strategy in spec.strategies():
        lineup = Lineup.uniform(spec, cfg.players, strategy)
        tallies, trace = play(spec, cfg.params, lineup, games, np.random.default_rng(seed),
                              trace_rows=50_000)
        out[strategy] = {"tallies": {k: v.tolist() for k, v in tallies.items()},
                         "trace": trace.tolist()}
    # One game of every other built-in config per strategy, traced: a richer setup asks the
    # decisions and plays the rules the default config never reaches (a role it does not deal),
    # which the interpreted-equals-compiled check and the peeking check must see too.
    out["configs"] = {}
    for path, _ in config.builtin_configs(name):
        other = config.load(path)
        if other.source == cfg.source:
            continue
        for strategy in spec.strategies():
            lineup = Lineup.uniform(spec, other.players, strategy)
            tallies, trace = play(spec, other.params, lineup, 1, np.random.default_rng(seed),
                                  trace_rows=50_000)
            out["configs"][f"{path} {strategy}"] = {
                "tallies": {k: v.tolist() for k, v in tallies.items()}, "trace": trace.tolist()}
    out["peeks"] = peeks
    print(json.dumps(out))


if __name__ == "__main__":
    main()
