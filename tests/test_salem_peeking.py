"""No peeking, for every Salem decision kind: at every decision of interpreted games over configs
that reach every kind (the character draft, the Black Cat's reveal by the drawer, Tituba's
partial look, ...), the deciding seat's observation is the same in a world where the game's
`scramble_hidden` changed what that seat cannot know of the state and every private piece of the
observation was poisoned.

The contract suite checks a few games of the default config; this covers every decision kind.
Run as a script (interpreted: NUMBA_DISABLE_JIT=1) by the test below:

    python tests/test_salem_peeking.py GAMES SEED
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

HERE = Path(__file__).resolve()

# (players, config keys set): together they ask every decision kind within a few games
SETUPS = [
    (5, ['rules.character_draft="lt7"', 'rules.black_cat_chooser="drawer"']),
    (8, ["rules.tituba_depth=6", 'variants.conspiracy="middle"']),
    (12, ["variants.dead_silent=true"]),
]


def main() -> None:
    games, seed = int(sys.argv[1]), int(sys.argv[2])
    sys.path.insert(0, str(HERE.parent))
    import contract_probe as probe
    from simulator.setup import config
    from simulator.games import engine
    from simulator.games.driver import Lineup, play
    from simulator.games.salem import GAME, kernel

    asked = np.zeros(len(GAME.decisions), dtype=np.int64)
    checking = probe.peeking_ask(engine.ask, GAME)

    def counting_ask(st, seat, kind, rng, observe, context):
        if st.legal_count > 1 and not engine.is_blind(st, seat):
            asked[kind] += 1
        return checking(st, seat, kind, rng, observe, context)

    kernel.ask = counting_ask
    for players, sets in SETUPS:
        cfg = config.load("salem", sets, players)
        for strategy in GAME.strategies():
            lineup = Lineup.uniform(GAME, players, strategy)
            play(GAME, cfg.params, lineup, games, np.random.default_rng(seed))
    print(json.dumps({"peeks": probe.peeks, "asked": asked.tolist()}))


@pytest.mark.slow
def test_no_decision_kind_peeks():
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    done = subprocess.run([sys.executable, str(HERE), "4", "7"], capture_output=True, text=True,
                          env=env, timeout=1200)
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout)
    from simulator.games.salem import GAME
    never = [kind.name for kind, n in zip(GAME.decisions, seen["asked"]) if n == 0]
    assert not never, f"decision kinds never checked: {never}"
    assert not seen["peeks"]["differences"], seen["peeks"]["differences"]


if __name__ == "__main__":
    main()
