"""`fairplay tune`: the race finds the full grid's best setup with far fewer games, its result
renders with the sweep report, and bad options are one line."""

import json

import pytest
from click.testing import CliRunner

from simulator.studies import sweep as sweep_module
from simulator.studies import tune
from simulator.cli import main
from simulator.studies.sweep import Sweep

SPACE = ["roles.werewolf=1..3", "strategies.all=random,seer-led"]
BASE = ["players=10"]
GAMES, START, SEED = 16_000, 1_000, 5


def axes():
    return [sweep_module.parse_vary(text) for text in SPACE]


@pytest.fixture(scope="module")
def raced():
    return tune.race("werewolf", axes(), "balanced", GAMES, START, SEED, workers=1,
                     base_overrides=BASE)


def test_the_race_finds_the_full_grids_best_setup_with_a_third_of_the_games(raced):
    """The full grid at the race's final precision (every cell at GAMES games, the same seed
    and chunks) ranks the cells by the same objective; its best is the race's best, and the
    race played at most a third of the grid's games."""
    grid = sweep_module.run_sweep("werewolf", axes(), GAMES, SEED, workers=1,
                                  chunk_size=raced.data["chunk_size"], base_overrides=BASE)
    info = raced.data["tune"]
    objective = tune.parse_objective("balanced", grid.game)
    scores = {cell.index: tune.distance(cell.result, objective, 0.95)["value"]
              for cell in grid.valid_cells}
    best = min(scores, key=lambda i: (scores[i], i))
    assert info["ranking"][0]["index"] == best
    # the race's best cell is the grid's cell, bit for bit
    mine = raced.cells[best].result
    assert mine.games_played == GAMES
    assert {k: v.tolist() for k, v in mine.tallies.items()} == \
        {k: v.tolist() for k, v in grid.cells[best].result.tallies.items()}
    assert info["games_full_grid"] == GAMES * len(grid.valid_cells)
    assert info["games_spent"] == sum(c.result.games_played for c in raced.valid_cells)
    assert info["games_full_grid"] >= 3 * info["games_spent"], info


def test_a_setup_is_eliminated_only_when_its_interval_lies_beyond_anothers(raced):
    info = raced.data["tune"]
    assert info["rungs"] == [1_000, 2_000, 4_000, 8_000, 16_000]
    # Bonferroni over every interval the race may compute: rungs × setups × findings
    assert info["interval_confidence"] == pytest.approx(1 - 0.05 / (5 * 6 * 1))
    eliminated = 0
    for entry in info["log"]:
        scores = entry["scores"]
        best_high = min(s["high"] for s in scores.values())
        for index, score in scores.items():
            assert (int(index) in entry["eliminated"]) == \
                (score["low"] > best_high and entry is not info["log"][-1])
            assert score["low"] <= score["value"] <= score["high"]
        eliminated += len(entry["eliminated"])
    assert eliminated >= 4  # the race did drop setups early
    survivors = info["log"][-1]["alive"]
    for cell in raced.valid_cells:
        assert cell.result.games_played == (GAMES if cell.index in survivors else
                                            next(e["games"] for e in info["log"]
                                                 if cell.index in e["eliminated"]))


def test_the_tune_file_renders_with_the_sweep_report(raced, tmp_path):
    path = tmp_path / "tune.json"
    raced.save(path)
    loaded = Sweep.load(path)
    assert loaded.data["tune"]["ranking"] == json.loads(json.dumps(raced.data["tune"]["ranking"]))
    done = CliRunner().invoke(main, ["report", str(path), "-o", str(tmp_path / "t.html")],
                              catch_exceptions=False)
    assert done.exit_code == 0, done.output
    html = (tmp_path / "t.html").read_text(encoding="utf-8")
    assert "roles.werewolf" in html and "seer-led" in html


def test_the_command_line_reports_the_best_setups_and_the_games_saved(tmp_path):
    out = tmp_path / "t.json"
    done = CliRunner().invoke(main, ["tune", "werewolf", "--vary", "roles.werewolf=1..2",
                                     "--set", "players=10", "--objective", "team=0.5",
                                     "-n", "2000", "--start", "1000", "--workers", "1",
                                     "-o", str(out)], catch_exceptions=False)
    assert done.exit_code == 0, done.output
    assert "Best setups (2,000 games each" in done.output
    assert "the whole grid at the same precision would play 4,000" in done.output
    assert Sweep.load(out).data["tune"]["objective"] == "team=0.5"


def run_cli(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.mark.parametrize("args, fragments", [
    (["--objective", "fairest"], ["--objective", "balanced, fair-seats, team=P"]),
    (["--objective", "team=1.5"], ["from 0 to 1"]),
    (["--objective", "goblins=0.5"], ["no team 'goblins'", "human"]),
    (["--objective", "balanced", "--start", "1500", "--chunk-size", "1000"],
     ["--start 1,500", "multiple of the chunk size"]),
    (["--objective", "balanced", "-n", "1000", "--start", "2000"], ["at most the games"]),
    (["--objective", "balanced", "--alpha", "0"], ["--alpha"]),
    (["--objective", "balanced", "--top", "0"], ["--top"]),
])
def test_bad_options_are_one_line(args, fragments):
    result = run_cli("tune", "werewolf", "--vary", "roles.werewolf=1..2", *args)
    assert result.exit_code == 2, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


def test_a_bad_vary_and_a_team_objective_of_an_individual_game_are_one_line():
    result = run_cli("tune", "werewolf", "--vary", "players=9..8", "--objective", "balanced")
    assert result.exit_code == 2 and "empty" in result.stderr
    result = run_cli("tune", "chenghuang", "--vary", "players=4..5", "--objective", "team=0.5")
    assert result.exit_code == 2 and "not a team game" in result.stderr


def test_an_interrupted_race_keeps_each_setups_last_finished_rung(monkeypatch, tmp_path):
    """Ctrl-C in the second rung (after one setup of it is played): the setups keep the games of
    their last finished rung, the file says the race was interrupted and still renders."""
    real, merged = sweep_module.runner.play_jobs, {"n": 0}

    def play_jobs(results, jobs, workers, on_done, *args, **kwargs):
        def merge(*out):
            on_done(*out)
            merged["n"] += 1
            if merged["n"] == 3:  # rung 1 plays 2 setups, rung 2 then plays one: interrupted
                raise KeyboardInterrupt

        return real(results, jobs, workers, merge, *args, **kwargs)

    monkeypatch.setattr(sweep_module.runner, "play_jobs", play_jobs)
    with pytest.raises(tune.TuneInterrupted) as stop:
        tune.race("werewolf", [sweep_module.parse_vary("roles.werewolf=1..2")], "team=0.5",
                  4_000, 1_000, SEED, workers=1, base_overrides=["players=10"], alpha=1e-9)
    tuned = stop.value.tuned
    assert tuned.data["tune"]["interrupted"] is True
    assert sorted(c.result.games_played for c in tuned.cells) == [1_000, 2_000]
    path = tmp_path / "partial.json"
    tuned.save(path)
    done = CliRunner().invoke(main, ["report", str(path), "-o", str(tmp_path / "p.html")],
                              catch_exceptions=False)
    assert done.exit_code == 0, done.output


def test_the_ties_are_the_setups_whose_intervals_reach_the_best(raced):
    info = raced.data["tune"]
    best = info["ranking"][0]
    expected = [e["index"] for e in info["ranking"] if e["low"] <= best["high"]]
    assert info["tied"] == expected and info["tied"][0] == best["index"]


def test_identical_setups_are_said_to_be_tied(tmp_path):
    """Two setups that differ only in their description play the same games (the same seed):
    no race can rank them, and the command says so."""
    out = tmp_path / "t.json"
    done = run_cli("tune", "werewolf", "--vary", "description=a,b", "--objective", "balanced",
                   "-n", "2000", "--start", "1000", "--workers", "1", "-o", str(out),
                   "--report", str(tmp_path / "t.html"))
    assert done.exit_code == 0, done.output
    assert "The best 2 setups are tied within their intervals" in done.output
    assert "tied within their intervals" in (tmp_path / "t.html").read_text()
