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
    overrides = [f"strategies.wolf={tmp_path / 'alike.py'}:alike"]
    data = br.search("werewolf", team="wolf", overrides=overrides, trials=12, games=2_000,
                     seed=3, workers=1)
    family = [r for r in data["searched"] if r["state"] == "complete" and "strategy" not in r]
    lucky = max(family, key=lambda r: r["value"])
    assert lucky["value"] > data["default_rate_searched"]  # the family's best was lucky ...
    space = br.search_space(config.load("werewolf", overrides), team="wolf")
    confirm = br.paired_gain("werewolf", overrides, None, space,
                             (space.overrides(data["default"]), space.overrides(lucky["params"])),
                             4_000, 1_000_003, 125, 1, None)
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
    assert {r["stage"] for r in saved["searched"]} == {"screen"}  # stopped inside the screen
    monkeypatch.setattr(br.Candidate, "rate", real)
    resumed = run_cli("best-response", "--resume", out, "-q")
    assert resumed.exit_code == 0, resumed.output
    done = json.loads(out.read_text())
    assert done["complete"] and done["searched"][:len(saved["searched"])] == saved["searched"]
    stages = [r["stage"] for r in done["searched"]]
    # the screen (skill alone: 0, 1, 0.25, 0.5, 0.75), the sampler's 5, the other strategies
    assert stages == ["screen"] * 5 + ["sampler"] * 5 + ["outside"] * stages.count("outside")
    uninterrupted = run_cli(*args[:-1], tmp_path / "again.json")
    assert uninterrupted.exit_code == 0, uninterrupted.output
    again = json.loads((tmp_path / "again.json").read_text())
    assert again["searched"] == done["searched"] and again["confirm"] == done["confirm"]


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
    seat = tuned.raw["strategies"]["seat.1"]
    if data["best_strategy"]:  # another built-in strategy did best (outside the family)
        assert seat["name"] == data["best_strategy"] and seat["slot"] == "tuned"
    else:
        assert seat["hope"] == pytest.approx(data["best"]["hope"])
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


def test_a_changed_search_file_is_refused_by_its_checksum(tmp_path):
    """A search file is checksummed whole: an edited candidate (or config, or count) is refused
    in one line, exit 2, before anything is played."""
    saved = br.BEST_RESPONSE_FILE.seal({
        **br.BEST_RESPONSE_FILE.header(), "complete": False, "team_arg": "wolf", "trials": 2,
        "games": 200, "seed": 0, "config": "werewolf", "overrides": [],
        "searched": [{"params": {"counter": 0.5}, "value": 0.3, "state": "complete"}]})
    path = tmp_path / "br.json"
    for field, value in (("searched", [{"params": {"counter": 0.5}, "value": 0.9,
                                        "state": "complete"}]), ("games", 50),
                         ("config", "werewolf/standard-16.toml")):
        path.write_text(json.dumps(dict(saved, **{field: value})))
        one_line_error(run_cli("best-response", "--resume", path, "-q"), "checksum")
    del saved["checksum"]
    path.write_text(json.dumps(saved))
    one_line_error(run_cli("best-response", "--resume", path, "-q"), "checksum")


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
    path.write_text(json.dumps(br.BEST_RESPONSE_FILE.seal(saved)))  # a whole, sealed file
    result = run_cli("best-response", "--resume", path, "-q")
    one_line_error(result, "was not recorded when the search began")
    assert result.exit_code == 2 and not marker.exists()


# --- the screen: every one-parameter corner, before any sampler ----------------------------------
class Param:
    """A declared parameter as the search reads one (name, range, integer or not)."""

    def __init__(self, name, low, high, integer=False):
        self.name, self.low, self.high, self.integer = name, low, high, integer


def synthetic(rate_of):
    """A candidate whose win rate is `rate_of(values)` at every rung: no games are played."""
    calls = []

    def candidate(values):
        calls.append(dict(values))
        return lambda games: rate_of(values)

    return candidate, calls


def test_the_screen_finds_an_optimum_at_a_corner_of_the_box_without_a_sampler():
    params = [Param("a", 0.0, 1.0), Param("b", 0.0, 2.0), Param("c", 1, 9, integer=True)]
    default = {"a": 0.5, "b": 1.0, "c": 5}

    def rate_of(v):  # best with b at its low end; a smooth slope elsewhere that points inwards
        return 0.4 + (0.05 if v["b"] == 0.0 else 0.0) - 0.01 * abs(v["a"] - 0.5)

    candidate, calls = synthetic(rate_of)
    records = br.explore(params, default, candidate, trials=0, rungs=[100, 200, 400], seed=1)
    tried = [r["params"] for r in records]
    assert tried[0] == default  # the players as configured come first
    for p in params:  # both ends of every range, the others as configured
        for end in (p.low, p.high):
            assert dict(default, **{p.name: end}) in tried
    best = max((r for r in records if r["state"] == "complete"), key=lambda r: r["value"])
    assert best["params"] == dict(default, b=0.0)
    coverage = br.range_coverage(params, records)
    assert all(c["ends"] and c["span"] == 1.0 for c in coverage)


@pytest.mark.parametrize("sampler", sorted(br.SAMPLERS))
def test_each_sampler_proposes_candidates_inside_the_box(sampler):
    """Both samplers the command offers run (CMA-ES needs its own package, a dependency) and
    propose values inside the declared ranges, integers as integers, after the screen."""
    params = [Param("a", 0.0, 1.0), Param("b", 0.0, 2.0), Param("c", 1, 9, integer=True)]
    default = {"a": 0.5, "b": 1.0, "c": 5}
    candidate, _ = synthetic(lambda v: 0.4 + 0.01 * v["a"] - 0.01 * abs(v["b"] - 1.5))
    records = br.explore(params, default, candidate, trials=6, rungs=[100], seed=3,
                         sampler=sampler)
    sampled = [r["params"] for r in records if r["stage"] == "sampler"]
    assert len(sampled) == 6
    for values in sampled:
        assert 0.0 <= values["a"] <= 1.0 and 0.0 <= values["b"] <= 2.0
        assert isinstance(values["c"], int) and 1 <= values["c"] <= 9


def test_a_step_at_one_value_is_seen_by_the_screen():
    """A parameter whose every value above 0 plays alike and only exactly 0 differs: a
    continuous sampler would almost never draw the 0; the screen's end does."""
    params = [Param("trust", 0.0, 1.0), Param("x", 0.0, 1.0)]
    default = {"trust": 0.6, "x": 0.3}
    candidate, _ = synthetic(lambda v: 0.55 if v["trust"] == 0.0 else 0.45)
    records = br.explore(params, default, candidate, trials=4, rungs=[100], seed=2)
    best = max((r for r in records if r["state"] == "complete"), key=lambda r: r["value"])
    assert best["params"]["trust"] == 0.0 and best["stage"] == "screen"


def test_the_screens_gains_are_put_together():
    params = [Param("a", 0.0, 1.0), Param("b", 0.0, 1.0)]
    default = {"a": 0.5, "b": 0.5}
    candidate, _ = synthetic(lambda v: 0.3 + 0.1 * (v["a"] == 1.0) + 0.1 * (v["b"] == 0.0))
    records = br.explore(params, default, candidate, trials=0, rungs=[100], seed=3)
    assert records[-1]["params"] == {"a": 1.0, "b": 0.0} and records[-1]["value"] == 0.5


def test_the_default_is_measured_in_the_same_slot_layout_as_every_candidate():
    """Where players change team during play (the paranoid), a tuned team given a slot of its
    own moves its rate with unchanged values: the default candidate has that slot too."""
    cfg = config.load("werewolf/standard-16.toml")
    space = br.search_space(cfg, team="wolf")
    default = br.Candidate("werewolf/standard-16.toml", [], None, space,
                           space.overrides(space.configured()), 0, 100, config.USER_CONFIG)
    other = br.Candidate("werewolf/standard-16.toml", [], None, space,
                         space.overrides(dict(space.configured(), counter=0.0)), 0, 100,
                         config.USER_CONFIG)
    assert (default.cfg.slot_table == other.cfg.slot_table).all()
    assert len(default.cfg.slots) == len(other.cfg.slots) == 2  # the tuned team's slot apart


# --- players from outside the family ----------------------------------------------------------
CAUTIOUS_WOLF = '''
from strategies.common import uniform_legal


def hush(kind, obs, legal, params, memory, rng):
    """A wolf that never claims: at random otherwise."""
    return uniform_legal(legal, rng)
'''


def test_a_candidate_file_and_the_other_built_in_strategies_are_measured_beside_the_search(
        tmp_path):
    (tmp_path / "mine.py").write_text(CAUTIOUS_WOLF)
    out = tmp_path / "br.json"
    result = run_cli("best-response", "werewolf", "--team", "wolf", "--trials", 0, "-n", 400,
                     "--candidate", f"{tmp_path / 'mine.py'}:hush", "--workers", 1, "-q",
                     "-o", out)
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    outside = {r["strategy"]: r for r in data["searched"] if r["stage"] == "outside"}
    assert set(outside) == {f"{tmp_path / 'mine.py'}:hush", "random", "seer-led"}
    assert outside[f"{tmp_path / 'mine.py'}:hush"]["whose"] == "yours"
    assert f"outside the family: {tmp_path / 'mine.py'}:hush (yours)" in result.output
    assert data["strategy_files"]  # recorded: a resume runs the file it measured


@pytest.mark.parametrize("ref, fragment", [("missing.py:f", "missing.py"),
                                           ("mine.py:nothing", "nothing")])
def test_a_bad_candidate_file_is_one_line_and_nothing_is_written(tmp_path, ref, fragment):
    (tmp_path / "mine.py").write_text(CAUTIOUS_WOLF)
    out = tmp_path / "br.json"
    result = run_cli("best-response", "werewolf", "--team", "wolf", "--trials", 0, "-n", 400,
                     "--candidate", str(tmp_path / ref), "--workers", 1, "-q", "-o", out)
    one_line_error(result, fragment)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.py"]


@pytest.mark.parametrize("args, words", [
    (["--confirm-games", -5], "--confirm-games must be at least 200"),
    (["--confirm-games", 0], "--confirm-games must be at least 200"),
    (["--chunk-size", 0], "--chunk-size must be at least 1"),
    (["-n", 3], "-n must be at least 100"),
    (["-n", 0], "-n must be at least 100"),
])
def test_every_count_is_checked_before_any_game_is_played(tmp_path, monkeypatch, args, words):
    """A count the search cannot measure with is one line, exit 2, before the first candidate
    (nothing is played: a candidate's games would fail the test here)."""
    def played(*_, **__):
        raise AssertionError("a game was played")

    monkeypatch.setattr(br.Candidate, "rate", played)
    out = tmp_path / "br.json"
    one_line_error(run_cli("best-response", "werewolf", "--team", "wolf", *args, "-o", out),
                   words)
    assert not out.exists()
    if "--chunk-size" not in args:  # equilibrate's searches take the same counts
        one_line_error(run_cli("equilibrate", "werewolf", *args, "-o", out), words)
        assert not out.exists()
