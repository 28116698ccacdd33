"""What a Ghost Play seat sees: no peeking at any decision kind, and the public record of an
exorcism shows counts, never who voted what.

The contract suite checks peeking on the default config; the default decks have no artifacts or
other cards, so the artifact and spell decisions are checked here on the example deck that has
them (`configs/ghostplay/artifacts.toml`), with `people`, at 5 players (the evil path) and with
the ghost king's summonings: interpreted, in a subprocess, through the contract probe's
`peeking_ask` (the seat's observation must not change when `scramble_hidden` replaced what it
cannot know of the state and every private piece of the observation was poisoned).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from simulator.games.ghostplay.declaration import DECISIONS, OBS, UNKNOWN
from simulator.games.ghostplay.observation import observe
from simulator.games.ghostplay.rules import open_exorcism, take_vote

from test_ghostplay_positions import RED, TP, TS, ghost, give, haunt, position, PARAMS

TESTS = Path(__file__).parent
ROOT = TESTS.parent

SCRIPT = """
import importlib, json, pkgutil, sys
import numpy as np
sys.path.insert(0, {tests!r})
import contract_probe as probe
from simulator.setup import config
from simulator.games import engine, get_game
from simulator.games.driver import play

spec = get_game("ghostplay")
asked = {{}}

def counting(inner):
    def ask(st, seat, kind, rng, observe, context):
        if st.legal_count > 1 and not engine.is_blind(st, seat):
            name = spec.decisions[kind].name
            asked[name] = asked.get(name, 0) + 1
        return inner(st, seat, kind, rng, observe, context)
    return ask

package = importlib.import_module("simulator.games.ghostplay")
for info in pkgutil.iter_modules(package.__path__):
    module = importlib.import_module("simulator.games.ghostplay." + info.name)
    if getattr(module, "ask", None) is engine.ask:
        module.ask = counting(probe.peeking_ask(engine.ask, spec))
for players, seed in ((5, 1), (6, 2)):
    cfg = config.load({config!r}, {overrides!r}, players=players)
    play(spec, cfg.params, cfg.lineup, 2, np.random.default_rng(seed))
print(json.dumps({{"peeks": probe.peeks, "asked": asked}}))
"""


@pytest.mark.parametrize("overrides", [(), ("rules.card_windows=every-window",)],
                         ids=["own-day", "every-window"])
def test_no_peeking_at_any_decision_kind_artifacts_and_other_cards_included(overrides):
    """(With rules.card_windows = "every-window" the spells are asked of every seat in every
    turn's windows too.)"""
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    script = SCRIPT.format(tests=str(TESTS), config=str(ROOT / "configs/ghostplay/artifacts.toml"),
                           overrides=list(overrides))
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, timeout=900, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.splitlines()[-1])
    assert not seen["peeks"]["differences"], seen["peeks"]["differences"]
    assert seen["peeks"]["checked"] == sum(seen["asked"].values())
    assert set(seen["asked"]) == {kind.name for kind in DECISIONS}, seen["asked"]


def test_an_exorcism_shows_how_many_cards_each_placed_not_which():
    st = position([TP, TS, TP, TS, TP, TS])
    slot = haunt(st, ghost(PARAMS, colour="red", requirement=3), 3)
    open_exorcism(st, 2, slot)
    give(st, 4, red=1, blue=2)
    take_vote(st, 4, 1, 2, RED)
    give(st, 1, red=3)
    observe(st, 1, ())
    seen = st.obs.copy()
    assert seen[OBS.placed + 4] == 3  # public: three cards face down
    assert seen[OBS.shown_positive + 4] == UNKNOWN  # not which
    assert list(seen[OBS.colours:OBS.colours + 2]) == [3, 0]  # seat 1's own hand
    assert list(seen[OBS.known:OBS.known + 6]) == [UNKNOWN, TS, UNKNOWN, UNKNOWN, UNKNOWN,
                                                   UNKNOWN]
    observe(st, 4, ())  # the next seat's observer overwrites every private piece
    assert list(st.obs[OBS.colours:OBS.colours + 2]) == [0, 0]
    assert st.obs[OBS.known + 1] == UNKNOWN and st.obs[OBS.known + 4] == TP
    assert np.array_equal(st.obs[:OBS.hand], seen[:OBS.hand])  # the public part is shared
