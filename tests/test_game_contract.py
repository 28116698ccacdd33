"""The contract every registered game passes: a new game is tested the moment it registers.

Parametrised over `simulator.games.game_names()` (the registry, the template game included), so
removing a game's registration removes it from this suite and nothing here names a game. Each
test says which promise of the engine it holds a game to:

* its default config and the edges of its player range load;
* the standard tallies add up (games, wins, seat-games, lengths, end conditions);
* the same seed gives identical tallies on 1 and on 2 workers;
* interpreted (NUMBA_DISABLE_JIT=1, how people debug rules) and compiled runs give identical
  tallies and traces, on the default config and on one game of every other built-in config;
* every decision kind is asked within a few games of its built-in configs and strategies;
* every trace row decodes into a sentence;
* no peeking: at every decision, a seat's observation is the same in a world where everything it
  cannot know was changed (the hidden state by the game's `scramble_hidden`, every private piece
  of the shared observation poisoned), and the check flags a private value left behind;
* a blind strategy sees only the blank observation; a seat's memory is its own, zeroed each game;
* the arrays a strategy receives are read-only;
* an illegal action or an error raised in a strategy reaches the caller as one message naming the
  strategy, the seat, the decision kind and the value;
* a second process loads the game's compiled kernel from the cache.
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from numba import typeof

from simulator.setup import config
from simulator.run import runner
from simulator.games import driver, game_names, get_game
from simulator.games.base import STANDARD_TALLY_NAMES

GAMES = game_names()
PROBE = Path(__file__).with_name("contract_probe.py")


def probe(name: str, games: int, seed: int, interpreted: bool, peek: bool = False) -> dict:
    env = dict(os.environ)
    env.pop("NUMBA_DISABLE_JIT", None)
    if interpreted:
        env["NUMBA_DISABLE_JIT"] = "1"
    command = [sys.executable, str(PROBE), name, str(games), str(seed)] + (["--peek"] if peek
                                                                            else [])
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def builtin_configs(name: str) -> list[config.Config]:
    return [config.load(path) for path, _ in config.builtin_configs(name)] or [config.load(name)]


@pytest.fixture(scope="module", params=GAMES)
def game(request):
    return get_game(request.param)


# --- loading -------------------------------------------------------------------------------------
def test_default_config_and_player_range_edges_load(game):
    cfg = config.load(game.name)
    assert game.min_players <= cfg.players <= game.max_players
    for players in (game.min_players, game.max_players):
        assert config.load(game.name, players=players).players == players
    for path, description in config.builtin_configs(game.name):
        assert config.load(path).game is game
        assert description, f"{path} starts with a comment saying what it is"
    for key in game.config_keys:  # every declared key documents itself
        assert key.meaning and key.type.describe()


# --- tallies --------------------------------------------------------------------------------------
def check_conservation(game, cfg, t, games):
    players = cfg.players
    assert t["games"][0] == games
    assert t["length_hist"].sum() == games == t["end_counts"].sum()
    assert t["role_games"].sum() == players * games == t["slot_games"].sum()
    assert t["role_wins"].sum() == t["slot_wins"].sum() == t["seat_wins"].sum()
    assert np.all(t["seat_wins"] <= games)
    if game.team_game:
        assert t["team_wins"].sum() + t["draws"][0] == games
    else:
        assert t["seat_wins"].sum() + t["draws"][0] == games  # one winner, or none
    assert set(t) == set(game.tally_names())
    for tally in game.all_tallies():
        assert t[tally.name].shape == tally.shape(game, players)
        assert np.all(t[tally.name] >= 0) or tally.holds == "sum", tally.name


def test_standard_tallies_are_conserved(game):
    for cfg in builtin_configs(game.name):
        for strategy in game.strategies():
            lineup = driver.Lineup.uniform(game, cfg.players, strategy)
            games = 150
            t, _ = driver.play(game, cfg.params, lineup, games, np.random.default_rng(3))
            check_conservation(game, cfg, t, games)


def test_same_seed_same_tallies_on_one_and_two_workers(game):
    cfg = config.load(game.name)
    one = runner.run(cfg, 240, seed=11, workers=1, chunk_size=40).tallies
    two = runner.run(cfg, 240, seed=11, workers=2, chunk_size=40).tallies
    assert set(one) == set(two) == set(game.tally_names())
    for name in one:
        assert np.array_equal(one[name], two[name]), name


def test_interpreted_runs_equal_compiled_runs(game):
    # the default config (3 games per strategy) and one game of every other built-in config
    compiled = probe(game.name, 3, 17, interpreted=False)
    interpreted = probe(game.name, 3, 17, interpreted=True)
    for strategy in game.strategies():
        assert interpreted[strategy] == compiled[strategy], strategy
        assert compiled[strategy]["trace"], "the probe traced its games"
    configs = {str(path) for path, _ in config.builtin_configs(game.name)}
    played = {key.rsplit(" ", 1)[0] for key in compiled["configs"]}
    assert played <= configs and len(configs - played) <= 1  # all but the default's own file
    assert len(compiled["configs"]) == len(played) * len(game.strategies())
    for played in compiled["configs"]:
        assert interpreted["configs"][played] == compiled["configs"][played], played
        assert compiled["configs"][played]["trace"], played


def test_every_decision_kind_is_asked(game):
    asked = np.zeros(len(game.decisions), dtype=np.int64)
    for cfg in builtin_configs(game.name):
        for strategy in game.strategies():
            lineup = driver.Lineup.uniform(game, cfg.players, strategy)
            t, _ = driver.play(game, cfg.params, lineup, 200, np.random.default_rng(5))
            asked += t["decisions"]
    never = [kind.name for kind, n in zip(game.decisions, asked) if n == 0]
    assert not never, f"never asked in 200 games of each built-in config and strategy: {never}"


def test_every_trace_row_decodes(game):
    cfg = config.load(game.name)
    for strategy in game.strategies():
        lineup = driver.Lineup.uniform(game, cfg.players, strategy)
        _, rows = driver.play(game, cfg.params, lineup, 4, np.random.default_rng(8),
                              trace_rows=50_000)
        assert len(rows) and len(rows) < 50_000
        codes = set(rows[:, 1].tolist())
        assert codes <= set(range(len(game.trace_events)))
        lines = game.decode_trace(rows, cfg.params)
        assert lines and all(isinstance(line, str) and line.strip() for line in lines)
        for row in rows:
            alone = game.decode_trace(row[None, :], cfg.params)
            assert alone and all(line.strip() for line in alone), row.tolist()


# --- what strategies see --------------------------------------------------------------------------
def test_no_peeking_observations_ignore_what_the_seat_cannot_know(game):
    seen = probe(game.name, 3, 23, interpreted=True, peek=True)["peeks"]
    assert seen["checked"] > 20, "the probe checked the observations of real decisions"
    assert not seen["differences"], seen["differences"]


LEAKY = """
import sys
import contract_probe
from simulator.games._template import kernel
from simulator.games._template.declaration import OBS, ROLE


def leaky_observe_vote(st, me, context):
    # the template's observer, but it writes what a spy knows only for a spy: a citizen who
    # votes after a spy finds the spies marked in its observation
    (round_number,) = context
    st.obs[OBS.round] = round_number
    if st.role[me] == ROLE.spy:
        for j in range(st.players):
            st.obs[OBS.known_spy + j] = 1 if st.role[j] == ROLE.spy else 0


kernel.observe_vote = leaky_observe_vote
sys.argv = ["contract_probe.py", "template", "3", "23", "--peek"]
contract_probe.main()
"""


def test_the_no_peeking_check_flags_a_private_value_left_behind():
    # A scrambled copy of the state alone would not show this leak (the copy carries the spy's
    # leftover too); the poisoned private pieces do.
    env = dict(os.environ, NUMBA_DISABLE_JIT="1",
               PYTHONPATH=os.pathsep.join(filter(None, [str(PROBE.parent),
                                                        os.environ.get("PYTHONPATH")])))
    done = subprocess.run([sys.executable, "-c", LEAKY], capture_output=True, text=True, env=env,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    differences = json.loads(done.stdout)["peeks"]["differences"]
    assert differences and all(d["pieces"] == ["known_spy"] for d in differences), differences


BLIND = '''
from simulator.games.base import FLAG_BLIND, OBS_KIND, OBS_ME, OBS_ROLE
from strategies.common import uniform_legal

FLAGS = FLAG_BLIND
MEMORY = 2


def blind(kind, obs, legal, params, memory, rng):
    """Blind: checks that its observation is the blank one (the same all game, no seat in it)."""
    if obs[OBS_KIND] != kind or obs[OBS_ME] != -1 or obs[OBS_ROLE] != -1:
        raise ValueError("a blind strategy was shown a seat's observation")
    digest = 0.0
    for i in range(obs.size):
        if i != OBS_KIND:
            digest = digest * 1.000001 + obs[i]
    if memory[0] == 0.0:
        memory[0] = 1.0
        memory[1] = digest
    elif memory[1] != digest:
        raise ValueError("the blank observation changed")
    return uniform_legal(legal, rng)
'''

MEMORY = '''
from simulator.games.base import OBS_ME, Layout
from strategies.common import uniform_legal

# declared by name, as the built-in strategies declare theirs
MEMORY = Layout((("decisions", 1, "decisions so far"), ("seat", 1, "my seat + 1"),
                 ("spare", 1, "never written")))
M = MEMORY.offsets("Memory")


def remembers(kind, obs, legal, params, memory, rng):
    """Counts its own decisions in its memory, marked with its seat."""
    me = obs[OBS_ME]
    if memory[M.decisions] == 0.0:
        if memory[M.seat] != 0.0 or memory[M.spare] != 0.0:
            raise ValueError("memory not zeroed at the start of a game")
        memory[M.seat] = me + 1.0
    elif memory[M.seat] != me + 1.0:
        raise ValueError("memory written by another seat")
    memory[M.decisions] += 1.0
    return uniform_legal(legal, rng)
'''


def run_user_strategy(tmp_path, game, source, function, games=200, workers=1):
    (tmp_path / "probe_strategy.py").write_text(source)
    cfg = config.load(game.name, [f'strategies.all="{tmp_path / "probe_strategy.py"}:{function}"'])
    return runner.run(cfg, games, seed=2, workers=workers, chunk_size=50).tallies


def test_a_blind_strategy_sees_only_the_blank_observation(game, tmp_path):
    t = run_user_strategy(tmp_path, game, BLIND, "blind")
    assert t["decisions"].sum() > 0


def test_a_seats_memory_is_its_own_and_zeroed_each_game(game, tmp_path):
    t = run_user_strategy(tmp_path, game, MEMORY, "remembers", workers=2)
    assert t["decisions"].sum() > 0
    assert config.load(game.name, [f'strategies.all="{tmp_path / "probe_strategy.py"}:remembers"']
                       ).lineup.slots[0].info.memory == 3


@pytest.mark.parametrize("target", ["obs[0] = 1", "legal[0] = True", "params[0] = 1.0"])
def test_strategies_cannot_write_what_they_are_shown(game, tmp_path, target):
    source = f"def writes(kind, obs, legal, params, memory, rng):\n    {target}\n    return 0\n"
    (tmp_path / "writer.py").write_text(source)
    with pytest.raises(config.ConfigError, match="does not compile"):
        config.load(game.name, [f'strategies.all="{tmp_path / "writer.py"}:writes"'])


# --- faults -----------------------------------------------------------------------------------------
ILLEGAL = '''
def illegal(kind, obs, legal, params, memory, rng):
    """Returns the first action its mask forbids."""
    for action in range(legal.size):
        if not legal[action]:
            return action
    return legal.size
'''

RAISES = '''
def raises(kind, obs, legal, params, memory, rng):
    if kind >= 0:
        raise ValueError("this strategy gives up")
    return 0
'''


@pytest.mark.parametrize("source, function, detail", [
    (ILLEGAL, "illegal", "which is not a legal action"),
    (RAISES, "raises", "raised ValueError: this strategy gives up"),
])
def test_strategy_faults_name_the_strategy_seat_kind_and_value(game, tmp_path, source, function,
                                                               detail):
    with pytest.raises(runner.RunFault) as stop:
        run_user_strategy(tmp_path, game, source, function, games=50)
    fault = stop.value.fault
    assert isinstance(fault, driver.StrategyFault)
    assert stop.value.game == fault.game  # one chunk: the run's game is the chunk's
    message = str(stop.value)
    assert len(message.splitlines()) == 1
    assert f"probe_strategy.py:{function}" in message and detail in message
    assert f"seat {fault.seat}" in message
    assert f"decision {fault.kind}" in message
    assert fault.kind in [kind.name for kind in game.decisions]
    if function == "illegal":
        assert "returned " in message


# --- compiling and caching --------------------------------------------------------------------------
def test_kernel_argument_types_survive_pickling(game):
    cfg = config.load(game.name)
    st = driver.new_state(game, cfg.params, cfg.lineup)
    for value in (st, np.random.default_rng(0)):
        kind = typeof(value)
        assert pickle.loads(pickle.dumps(kind)) == kind


CACHED = """
import sys
from simulator.setup import config
from simulator.run import runner
cfg = config.load(sys.argv[1])
runner.run(cfg, 20, seed=0, workers=1)
stats = cfg.game.kernel.stats
print(sum(stats.cache_hits.values()), sum(stats.cache_misses.values()))
"""


def test_a_second_process_loads_the_kernel_from_the_cache(game):
    def once():
        done = subprocess.run([sys.executable, "-c", CACHED, game.name], capture_output=True,
                              text=True, check=True)
        return tuple(map(int, done.stdout.split()))

    once()  # compiles if nothing is cached yet
    assert once() == (1, 0)


def test_the_standard_tallies_come_first_and_own_tallies_are_declared(game):
    names = game.tally_names()
    assert tuple(names[:len(STANDARD_TALLY_NAMES)]) == STANDARD_TALLY_NAMES
    for tally in game.tallies:
        assert tally.meaning


def test_a_game_package_holds_no_numba_internals(game):
    # Every Numba trick lives in the engine (simulator/games/engine.py, kernel_support.py): a game's
    # package and its strategies use the engine's decorators and nothing of Numba's own.
    package = Path(sys.modules[game.kernel.__module__].__file__).parent
    root = package.parent.parent.parent
    files = sorted(package.glob("*.py")) + [root / "strategies" / f"{package.name.lstrip('_')}.py"]
    forbidden = ("import numba", "from numba", "llvmlite", "intrinsic", "_nrt", "njit(")
    for path in files:
        text = path.read_text(encoding="utf-8")
        found = [word for word in forbidden if word in text]
        assert not found, f"{path.relative_to(root)} uses {found}"
