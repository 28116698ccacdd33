"""Every Ghost Play game ends, and one that would not stops the run instead of hanging it.

Games are bounded by the rules (a played other card stays out until the turn ends, so cards that
draw cannot draw each other back for ever: test_ghostplay_phases.py) and by the caps derived from
them (declaration.CAPS; params.turn_cap, params.decision_cap), which the kernel checks: a game
past one stops the run as a fault, in one line naming the game (docs/rules/ghostplay.md).
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from simulator.games import driver
from simulator.games.base import CapExceeded
from simulator.games.ghostplay import GAME
from simulator.games.ghostplay import kernel as K
from simulator.games.ghostplay import params as ghostplay_params
from simulator.games.ghostplay.declaration import CAP, DECISION, WINDOW
from simulator.games.ghostplay.params import decision_cap, default_params, turn_cap
from simulator.run import chunks
from simulator.run.results import Result
from simulator.setup import config

from cli_checks import one_line_error, run_cli
from test_ghostplay_phases import run_phase
from test_ghostplay_positions import TP, TS, position
from test_ghostplay_rules import artifact_params

CONFIGS = Path(__file__).resolve().parent.parent / "configs" / "ghostplay"
SIX = [TP, TS, TP, TS, TP, TS]


# --- the run that never ended ---------------------------------------------------------------------
def test_the_run_whose_game_389_never_ended_now_ends():
    """`fairplay run configs/ghostplay/artifacts.toml -n 400 --seed 11 --chunk-size 100` with
    Taiping trusting nobody: in its game 389 (chunk 3) seat 4 played two talismans in turn for
    ever, each drawing the other back from the reshuffled discards. Chunk 3 up to that game."""
    cfg = config.load(str(CONFIGS / "artifacts.toml"),
                      ['strategies.taiping={name="people",trust=0.0}'])
    tallies, _ = driver.play(cfg.game, cfg.params, cfg.lineup, 90, chunks.chunk_rng(11, 3))
    assert tallies["games"][0] == 90
    assert tallies["events"][GAME.event_names.index("spells")] > 0


# --- every game ends, whatever the strategies' parameters -----------------------------------------
STRATEGIES = GAME.strategies()


def parameter_values(info):
    """Values for every parameter of a strategy, within its declared range."""
    values = {}
    for p in info.params:
        if p.integer:
            values[p.name] = st.integers(int(p.low), int(p.high))
        else:
            values[p.name] = st.floats(p.low, p.high, allow_nan=False)
    return st.fixed_dictionaries(values)


@settings(max_examples=10, deadline=None, derandomize=True, database=None,
          phases=(Phase.explicit, Phase.generate), suppress_health_check=list(HealthCheck))
@given(setup=st.sampled_from(["players-4", "players-5", "default", "artifacts"]),
       windows=st.sampled_from(["own-day", "every-window"]),
       values=st.fixed_dictionaries({name: parameter_values(info)
                                     for name, info in STRATEGIES.items()}),
       seed=st.integers(0, 2**32 - 1))
def test_every_game_ends_whatever_the_strategies_parameters(setup, windows, values, seed):
    cfg = config.load(str(CONFIGS / f"{setup}.toml"), [f"rules.card_windows={windows}"])
    n = cfg.params.players
    names = [list(STRATEGIES)[s % len(STRATEGIES)] for s in range(n)]  # every strategy plays
    lineup = driver.Lineup.by_seat(GAME, names, [values[name] for name in names])
    games = 4
    tallies, _ = driver.play(GAME, cfg.params, lineup, games, chunks.chunk_rng(seed, 0))
    assert tallies["games"][0] == games  # (a game past a cap raises a CapFault instead)


# --- the caps -------------------------------------------------------------------------------------
def test_the_caps_follow_the_decks_and_the_rules():
    # 40 ghost-deck cards, at least n - 1 revealed a round: 6 * ceil(40 / 5) turns
    assert turn_cap(default_params(6)) == 48 and turn_cap(default_params(4)) == 4 * 14
    # no other card: 2 + (0 + 1 + 2n) + (E + 1) + E * 2n
    assert decision_cap(default_params(6)) == 2 + 13 + 2 + 12
    assert decision_cap(default_params(6, exorcisms_per_turn=2)) == 2 + 13 + 3 + 24
    assert decision_cap(artifact_params()) == 2 + (4 + 1 + 12) + 2 + 12  # 4 elixirs


def test_a_turn_past_its_decision_cap_stops_the_game():
    st_ = position(SIX, artifact_params())
    ELIXIR = 4
    st_.hand[0, ELIXIR] = 3
    st_.colours[0] = [3, 0]
    st_.hand_size[0] = 3
    st_.decision_cap = 2  # lowered: the third elixir would be the turn's third decision
    wanted = [{}] * 6
    wanted[0] = {DECISION.spell: ELIXIR}
    with pytest.raises(CapExceeded):
        run_phase(K.play_spells, st_, wanted, 0, WINDOW.day)
    assert st_.cap_passed == CAP.decisions and st_.cap_limit == 2
    assert st_.spent_size == 2


def test_a_game_past_its_cap_stops_the_run_in_one_line_and_keeps_the_finished_chunks(
        tmp_path, monkeypatch):
    # lowered to 36 turns (the default game lasts 36 or 37): the first 37-turn game stops the run
    monkeypatch.setattr(ghostplay_params, "turn_cap", lambda params: 36)
    out = tmp_path / "out.json"
    result = run_cli("run", "ghostplay", "-n", 40, "--chunk-size", 1, "--workers", 1,
                     "-o", out, "-q")
    line = one_line_error(result, "the game went past its cap of 36 turns in a game",
                          "fairplay trace ghostplay", "--seed 0", "--chunk-size 1",
                          exit_code=1)
    game = int(line.split("(game ")[1].split(" of the run")[0].replace(",", ""))
    saved = Result.load(out)  # one worker plays the chunks in order: those before it are saved
    assert game > 0 and saved.games_played == game
    assert sorted(saved.data["chunks_done"]) == list(range(game))
    # the command in the line shows that game, up to the cap
    command = line.split(" of the run: ")[1].split(" shows it")[0]
    replay = run_cli(*shlex.split(command)[1:])
    assert replay.exit_code == 1
    assert "the game went past its cap of 36 turns in a game" in replay.stderr
    assert "the trace above stops there" in replay.stderr
    assert "== end of turn 36:" in replay.stdout and "== turn 37:" not in replay.stdout
