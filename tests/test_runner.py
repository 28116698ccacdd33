"""Runs are deterministic: the same seed gives identical tallies on 1 or 2 workers and after an
interrupt and a resume; memory is bounded by chunks in flight, not games."""

import json
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from simulator.run import chunks, runner
from simulator.setup import config
from simulator.run.results import Result
from simulator.statistics.summary import summarize


def tallies(result):
    return {name: values.tolist() for name, values in result.tallies.items()}


@pytest.fixture(scope="module")
def cfg():
    return config.load("werewolf/seer-led.toml")


def test_chunks_are_seeded_independently_of_workers():
    a = chunks.chunk_rng(7, 3).random(4)
    b = chunks.chunk_rng(7, 3).random(4)
    c = chunks.chunk_rng(7, 4).random(4)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)


def test_chunk_sizes_cover_the_run_exactly():
    sizes = [chunks.chunk_games(45_001, 10_000, c) for c in range(chunks.chunk_count(45_001, 10_000))]
    assert sizes == [10_000] * 4 + [5_001]


def test_same_seed_same_tallies_on_one_and_two_workers(cfg):
    one = runner.run(cfg, 6_000, seed=11, workers=1, chunk_size=1_000)
    two = runner.run(cfg, 6_000, seed=11, workers=2, chunk_size=1_000)
    assert tallies(one) == tallies(two)
    assert one.games_played == 6_000
    other_seed = runner.run(cfg, 6_000, seed=12, workers=1, chunk_size=1_000)
    assert tallies(other_seed) != tallies(one)


def test_interrupt_and_resume_equal_an_uninterrupted_run(cfg, tmp_path):
    whole = runner.run(cfg, 5_000, seed=3, workers=1, chunk_size=500)
    path = tmp_path / "partial.json"
    calls = {"n": 0}

    def advance(games):
        calls["n"] += 1
        if calls["n"] == 4:  # Ctrl-C after the fourth chunk is merged
            raise KeyboardInterrupt

    with pytest.raises(runner.Interrupted) as stop:
        runner.run(cfg, 5_000, seed=3, workers=1, chunk_size=500, checkpoint=path,
                   progress=runner.Progress(advance=advance))
    saved = Result.load(path)
    assert not saved.complete
    assert saved.games_played == 2_000 == stop.value.result.games_played
    resumed = runner.resume(path, workers=2)
    assert resumed.complete
    assert tallies(resumed) == tallies(whole)
    assert tallies(Result.load(path)) == tallies(whole)


def test_ctrl_c_on_the_command_line_saves_and_resumes(tmp_path):
    """A real SIGINT to `fairplay run` with 2 workers: exit 130, partial result saved; `--resume`
    then completes it to the same tallies as an uninterrupted run."""
    out = tmp_path / "run.json"
    # Far more games than can finish before the first checkpoint (written after 10 s of play).
    args = [sys.executable, "-m", "simulator.cli", "run", "werewolf", "-n", "100000000",
            "--chunk-size", "20000", "--workers", "2", "--seed", "5", "-q", "-o", str(out)]
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # The first checkpoint is written 10 s into play, after the kernel is compiled or loaded: a
    # cold compile on a loaded machine (the suite's other workers compiling too) can take minutes.
    deadline = time.monotonic() + 900
    while not out.exists() and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.2)
    assert out.exists(), "no checkpoint was written before the deadline"
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=300)  # a loaded machine is slow to stop
    assert process.returncode == 130, err
    assert "Interrupted" in err and "--resume" in err and "Traceback" not in err
    partial = Result.load(out)
    assert 0 < partial.games_played < 100_000_000
    assert partial.games_played == 20_000 * len(partial.data["chunks_done"])


def test_memory_does_not_hold_per_game_data(cfg):
    """The result holds only fixed-size tallies: its size does not depend on the game count."""
    small = runner.run(cfg, 1_000, seed=1, workers=1, chunk_size=500)
    large = runner.run(cfg, 20_000, seed=1, workers=1, chunk_size=500)
    assert {k: v.shape for k, v in small.tallies.items()} == {k: v.shape for k, v in large.tallies.items()}
    assert len(json.dumps(tallies(large))) < 2 * len(json.dumps(tallies(small)))


def test_result_file_round_trip(cfg, tmp_path):
    result = runner.run(cfg, 2_000, seed=2, workers=1, chunk_size=1_000)
    path = tmp_path / "r.json"
    result.save(path)
    loaded = Result.load(path)
    assert tallies(loaded) == tallies(result)
    assert loaded.data["seed"] == 2 and loaded.data["chunk_size"] == 1_000
    assert loaded.data["versions"]["numba"]
    assert loaded.data["config"]["game"] == "werewolf"
    assert summarize(loaded).table() == summarize(result).table()


def test_private_trace_lines_show_only_when_asked(monkeypatch):
    """What a seat privately learns is marked in a game's trace and kept only with --private."""
    from types import SimpleNamespace

    from simulator.games.base import PRIVATE_MARK

    story = ["Day 1", f"  {PRIVATE_MARK}seat 2 sees seat 4's card", "  seat 2 votes seat 4"]
    game = SimpleNamespace(decode_trace=lambda rows, params: list(story))
    cfg = SimpleNamespace(game=game, params=None, lineup=None)
    monkeypatch.setattr(runner.driver, "play", lambda *args, **kwargs: (None, None))
    assert runner.trace_game(cfg, seed=0) == [story[0], story[2]]
    assert runner.trace_game(cfg, seed=0, private=True) == story
