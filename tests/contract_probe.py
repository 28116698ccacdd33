"""Plays a few games of one game for the contract suite and prints what it saw as JSON.

    python tests/contract_probe.py GAME GAMES SEED [--peek]

Run by tests/test_game_contract.py, interpreted (NUMBA_DISABLE_JIT=1) or compiled: for each
built-in strategy (every seat playing it) the tallies and the trace of GAMES games. Then one traced game of every
other built-in config for each strategy, so that the rules and decisions only a richer setup
reaches (a role the default config does not deal) are compared too. With --peek (interpreted runs
only) every decision is also checked for peeking: the deciding seat's observation is rebuilt on a
copy of the state in which the game's `scramble_hidden` replaced everything the seat cannot know,
and must come out the same.
"""

from __future__ import annotations

import json
import sys

import numpy as np

from simulator import config
from simulator.games import engine, get_game
from simulator.games.driver import Lineup, play

PEEK_RNG = np.random.default_rng(12345)  # never the game's stream: the game must not change
peeks = {"checked": 0, "differences": []}


def copy_state(st):
    buffer = np.zeros(1, st.dtype).view(np.recarray)
    buffer[0] = st
    return buffer[0]


def peeking_ask(real_ask, spec):
    def ask(st, seat, kind, rng, observe, context):
        if st.legal_count > 1 and not engine.is_blind(st, seat):
            observe(st, seat, context)
            seen = np.array(st.obs)
            world = copy_state(st)
            spec.scramble_hidden(world, seat, PEEK_RNG)
            observe(world, seat, context)
            peeks["checked"] += 1
            differ = np.nonzero(np.asarray(world.obs) != seen)[0]
            if differ.size and len(peeks["differences"]) < 5:
                pieces = {name for name, at, size, _ in spec.observation.describe()
                          for i in differ.tolist() if at <= i < at + size}
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
