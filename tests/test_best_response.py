"""`fairplay best-response`: a search of one team's strategy parameters (Optuna), on common
random numbers, whose gain is measured again on fresh games (simulator/studies/best_response.py).

A planted weakness (a parameter whose default makes the wolves play at random) is found, with a
gain whose interval excludes 0; where every value of the parameter plays alike, the gain's
interval includes 0 although the search kept the luckiest candidate (no winner's curse). Fixed
seeds make both deterministic; the bounds are the 95% intervals the command itself reports.
"""

from __future__ import annotations

import json

import pytest

from cli_checks import one_line_error, run_cli
from simulator.studies import best_response as br
from simulator.setup import config
from simulator.games import get_game

# The wolves play werewolf's people-like strategy with probability `skill`, else at random: the
# default skill of 0 is clearly worse for them.
PLANTED = '''
import numpy as np

from strategies.common import random_double, uniform_legal
from strategies.werewolf import {function} as good

MEMORY = {memory}
PARAMS = {{"skill": (0.0, 0.0, 1.0)}}
GOOD = np.array({defaults})  # people's own parameters, as it declares them


def planted(kind, obs, legal, params, memory, rng):
    """people with probability skill, else at random."""
    if random_double(rng) < params[0]:
        return good(kind, obs, legal, GOOD, memory, rng)
    return uniform_legal(legal, rng)
'''

# Every value of `noise` plays alike (uniformly at random); it only moves the random stream, so
# each candidate plays other games of the same distribution: the search's best is luck.
ALIKE = '''
from strategies.common import random_double, uniform_legal

PARAMS = {"noise": (0.5, 0.0, 1.0)}


def alike(kind, obs, legal, params, memory, rng):
    """at random, after int(100 * noise) draws"""
    for _ in range(int(100 * params[0])):
        random_double(rng)
    return uniform_legal(legal, rng)
'''


def planted_file(tmp_path):
    info = get_game("werewolf").strategies()["people"]
    path = tmp_path / "planted.py"
    path.write_text(PLANTED.format(function=info.function.py_func.__name__, memory=info.memory,
                                   defaults=[p.default for p in info.params]))
    return path


def test_a_planted_weakness_is_found_with_a_gain_that_excludes_zero(tmp_path):
    path = planted_file(tmp_path)
    data = br.search("werewolf", team="wolf", overrides=[f"strategies.wolf={path}:planted"],
                     trials=12, games=2_000, seed=3, workers=1)
    assert [p["name"] for p in data["params"]] == ["skill"]
    assert data["searched"][0]["params"] == {"skill": 0.0}  # the default is tried first
    assert data["best"]["skill"] > 0.5
    confirm = data["confirm"]
    assert confirm["low"] > 0 and confirm["best_rate"] > confirm["default_rate"]


def test_where_every_value_plays_alike_the_gain_includes_zero(tmp_path):
    (tmp_path / "alike.py").write_text(ALIKE)
    data = br.search("werewolf", team="wolf",
                     overrides=[f"strategies.wolf={tmp_path / 'alike.py'}:alike"],
                     trials=12, games=2_000, seed=3, workers=1)
    complete = [r["value"] for r in data["searched"] if r["state"] == "complete"]
    assert max(complete) > data["default_rate_searched"]  # the search's best was lucky ...
    confirm = data["confirm"]
    assert confirm["low"] <= 0 <= confirm["high"]  # ... and fresh games say so


def test_the_command_prints_the_gain_and_writes_a_config_that_plays_it(tmp_path):
    path = planted_file(tmp_path)
    out = tmp_path / "br.json"
    result = run_cli("best-response", "werewolf", "--team", "wolf", "--set",
                     f"strategies.wolf={path}:planted", "--trials", 6, "-n", 1_000,
                     "--workers", 1, "-q", "-o", out)
    assert result.exit_code == 0, result.output
    assert "gain" in result.output and "--set 'strategies.werewolf=" in result.output
    data = json.loads(out.read_text())
    assert data["complete"] and data["confirm"]["games"] == 2_000
    tuned = config.load(str(out.with_suffix(".toml")))
    assert tuned.raw["strategies"]["werewolf"]["skill"] == pytest.approx(data["best"]["skill"])


def test_an_interrupted_search_is_saved_and_resumed(tmp_path, monkeypatch):
    path = planted_file(tmp_path)
    out = tmp_path / "br.json"
    real, calls = br.Candidate.rate, {"n": 0}

    def rate(self, *args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 7:  # during the third candidate or so
            raise KeyboardInterrupt
        return real(self, *args, **kwargs)

    monkeypatch.setattr(br.Candidate, "rate", rate)
    args = ["best-response", "werewolf", "--team", "wolf", "--set",
            f"strategies.wolf={path}:planted", "--trials", 5, "-n", 1_000, "--workers", 1,
            "-q", "-o", out]
    stopped = run_cli(*args)
    assert stopped.exit_code == 130 and "best-response --resume" in stopped.stderr
    saved = json.loads(out.read_text())
    assert not saved["complete"] and 1 <= len(saved["searched"]) < 5
    monkeypatch.setattr(br.Candidate, "rate", real)
    resumed = run_cli("best-response", "--resume", out, "-q")
    assert resumed.exit_code == 0, resumed.output
    done = json.loads(out.read_text())
    assert done["complete"] and len(done["searched"]) == 5
    assert done["searched"][:len(saved["searched"])] == saved["searched"]


def test_ctrl_c_inside_a_candidate_s_games_stops_the_search_in_one_line(tmp_path, monkeypatch):
    """Ctrl-C while a candidate's chunks play reaches the runner first, which saves and raises
    its Interrupted: the search still stops as after any Ctrl-C (exit 130, no traceback)."""
    from simulator.run import runner

    path = planted_file(tmp_path)
    out = tmp_path / "br.json"
    real, calls = runner.play_jobs, {"n": 0}

    def play_jobs(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 4:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(runner, "play_jobs", play_jobs)
    stopped = run_cli("best-response", "werewolf", "--team", "wolf", "--set",
                      f"strategies.wolf={path}:planted", "--trials", 5, "-n", 1_000,
                      "--workers", 1, "-q", "-o", out)
    assert stopped.exit_code == 130, stopped.output
    assert "best-response --resume" in stopped.stderr and "Traceback" not in stopped.output
    assert not json.loads(out.read_text())["complete"]


@pytest.mark.parametrize("args, fragments", [
    (["--team", "nobody"], ["unknown team 'nobody'"]),
    (["--team", "wolf"], ["declares no parameter with a finite range"]),  # random wolves
    ([], ["--team, --role or --seat"]),
    (["--team", "wolf", "--seat", "0"], ["give one of --team, --role or --seat"]),
])
def test_bad_requests_are_one_line(args, fragments):
    one_line_error(run_cli("best-response", "werewolf/base-random.toml", *args, "-n", 100),
                   *fragments)


def test_one_seat_of_an_individual_game_is_tuned_and_its_config_plays_it(tmp_path):
    """An individual game's best response tunes one seat against the rest of the table; its
    rate is that seat's wins over the games, and the TOML plays the best at that seat only."""
    out = tmp_path / "seat.json"
    result = run_cli("best-response", "chenghuang", "--seat", 1, "--set",
                     'strategies.all="balanced"', "--trials", 3, "-n", 640, "--workers", 1,
                     "-q", "-o", out)
    assert result.exit_code == 0, result.output
    assert "best response of seat 1 (strategy balanced)" in result.output
    data = json.loads(out.read_text())
    assert data["seat"] == 1 and data["set"][0].startswith('strategies."seat.1"=')
    tuned = config.load(str(out.with_suffix(".toml")))
    assert tuned.raw["strategies"]["seat.1"]["hope"] == pytest.approx(data["best"]["hope"])
    assert tuned.raw["strategies"]["all"] == "balanced"
    one_line_error(run_cli("best-response", "chenghuang", "--seat", 7, "-n", 100),
                   "--seat 7 is not a seat of 5 players")


def test_the_paired_difference_is_the_paired_interval_and_covers_with_unequal_counts():
    """With equal trial counts the ratio estimate is the paired interval exactly; where a
    team's seat-games differ between the two setups it still covers the true difference about
    95% of the time (400 simulated comparisons: 0.95 ± 3 standard errors, 0.917 to 0.983)."""
    import numpy as np

    from simulator.studies import roles

    rng = np.random.default_rng(11)
    n = np.full(40, 100)
    w1, w0 = rng.binomial(n, 0.5), rng.binomial(n, 0.45)
    assert roles.paired_difference(w1, n, w0, n)[:3] == pytest.approx(
        roles.paired_interval(w1 - w0, n)[:3])
    covered = 0
    for _ in range(400):
        shared = rng.normal(0, 0.05, 40)  # what the two setups share in a chunk (its deals)
        n1, n0 = rng.integers(80, 120, 40), rng.integers(80, 120, 40)
        w1 = rng.binomial(n1, np.clip(0.50 + shared, 0, 1))
        w0 = rng.binomial(n0, np.clip(0.45 + shared, 0, 1))
        _, low, high, _ = roles.paired_difference(w1, n1, w0, n0)
        covered += low <= 0.05 <= high
    assert 0.917 <= covered / 400 <= 0.983


def test_the_first_candidate_is_the_players_as_configured():
    """A config that gives the tuned team parameters is measured against those players, not
    against the strategy's declared defaults."""
    cfg = config.load("werewolf/standard-12.toml",
                      ['strategies.wolf={ name = "people", cover = 0.25 }'])
    space = br.search_space(cfg, team="wolf")
    assert space.configured()["cover"] == 0.25
    declared = {p.name: p.default for p in get_game("werewolf").strategies()["people"].params}
    assert space.configured()["counter"] == declared["counter"]


def test_a_resumed_search_runs_no_strategy_file_it_did_not_record(tmp_path):
    """A search file is data: one naming a strategy file whose contents it never recorded is
    refused in one line (exit 2), and the file is never imported."""
    marker = tmp_path / "ran"
    (tmp_path / "evil.py").write_text(f"open({str(marker)!r}, 'w').write('ran')\n"
                                      "def f(kind, obs, legal, params, memory, rng):\n"
                                      "    return 0\n")
    saved = {**br.BEST_RESPONSE_FILE.header(), "complete": False,
             "searched": [], "team_arg": "wolf", "trials": 2, "games": 200, "seed": 0,
             "config": "werewolf", "overrides": [f"strategies.wolf={tmp_path / 'evil.py'}:f"]}
    path = tmp_path / "br.json"
    path.write_text(json.dumps(saved))
    result = run_cli("best-response", "--resume", path, "-q")
    one_line_error(result, "was not recorded when the search began")
    assert result.exit_code == 2 and not marker.exists()
