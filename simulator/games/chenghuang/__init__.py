"""城隍神與夜冥將軍 (Chenghuang; English reprint "Overseers"): a drafting and bluffing game.

Individual score, 3-6 players, 4 rounds. Each round: roles dealt face up, a 6-card draft, a layout
of 5 cards (some face down), role abilities, a secret vote for the player with the top score, the
accused admits or denies (showdown), a theft, scoring. The highest total wins.
"""

from __future__ import annotations

import numpy as np

from simulator.games.base import MAX_STRATEGY_PARAMS, MAX_STRATEGY_SLOTS, GameSpec

from .declaration import (
    DECISIONS, END_CONDITIONS, EVENTS, MAX_PLAYERS, MIN_PLAYERS, NAME, OBSERVATION, PROVISIONAL,
    ROLES, SOURCE, TITLE,
)
from .kernel import play
from .metrics import TALLY_SPECS, Tallies
from .params import ChenghuangParams, build_setup, describe_setup, load_params
from .trace import decode_trace


def _strategies():
    from strategies.chenghuang import builtin

    return builtin()


GAME = GameSpec(
    name=NAME,
    title=TITLE,
    source=SOURCE,
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    scoring="individual",
    teams=(),
    roles=ROLES,
    decisions=DECISIONS,
    observation=OBSERVATION,
    end_conditions=END_CONDITIONS,
    events=EVENTS,
    length_unit="rounds",
    default_config="chenghuang/default.toml",
    provisional=PROVISIONAL,
    load_params=load_params,
    build_setup=build_setup,
    tally_specs=TALLY_SPECS,
    tally_class=Tallies,
    kernel=play,
    decode_trace=decode_trace,
    strategies=_strategies,
    describe_setup=describe_setup,
)

def simulate(params: ChenghuangParams, seats, n_games: int, seed: int = 0, trace_rows: int = 0,
             params_by_slot=None):
    """Play `n_games` with one strategy per seat; returns (tallies, trace rows).

    `seats` lists a built-in strategy name (or a StrategyInfo) per seat; a seat keeps its strategy
    whatever role it holds. Seats naming the same strategy share its slot. Parameters are the
    strategy's defaults unless `params_by_slot` maps a slot to a list of values. A convenience
    for tests, benchmarks and traces; the platform's runner does the same through the config.
    """
    builtin = _strategies()
    infos, slots = [], []
    for entry in seats:
        info = builtin[entry] if isinstance(entry, str) else entry
        if info not in infos:
            infos.append(info)
        slots.append(infos.index(info))
    functions = [info.function for info in infos]
    functions += [functions[0]] * (MAX_STRATEGY_SLOTS - len(functions))
    slot_params = np.zeros((MAX_STRATEGY_SLOTS, MAX_STRATEGY_PARAMS), dtype=np.float64)
    slot_flags = np.zeros(MAX_STRATEGY_SLOTS, dtype=np.int64)
    for slot, info in enumerate(infos):
        values = list(info.params.values())
        if params_by_slot and slot in params_by_slot:
            values = list(params_by_slot[slot])
        slot_params[slot, :len(values)] = values
        slot_flags[slot] = info.flags
    slot_table = np.repeat(np.asarray(slots, dtype=np.int64)[:, None], len(ROLES), axis=1)
    tallies = GAME.new_tallies(params)
    trace = np.zeros((trace_rows, 6), dtype=np.int64)
    rng = np.random.default_rng(seed)
    rows = play(build_setup(params), tuple(functions), slot_table, slot_params, slot_flags,
                n_games, rng, tallies, trace)
    return tallies, trace[:rows]


__all__ = ["simulate", "GAME", "ChenghuangParams", "build_setup", "load_params", "describe_setup",
           "decode_trace", "play"]
