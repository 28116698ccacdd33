"""Tests of `fairplay baseline` / `fairplay check` (simulator/studies/regression/,
simulator/cli/regression.py).

Every run here uses a fixed seed and plays in-process (--workers 1), so each test is
deterministic: it either always passes or always fails, never by chance on one CI run.

The rule change used throughout: the 12-player base game (random play) with three werewolves
instead of the text's two (``--set roles.werewolf=3``). The werewolf oracle gives the town's
exact win probability under random play: town_win_random(10 humans, 2 wolves) = 0.3521 and
town_win_random(9, 3) = 0.1645, a drop of 18.8 points (checked in
test_the_rule_change_moves_the_town_by_more_than_five_points). With 20,000 games a side the
standard error of the difference is about sqrt(0.35*0.65/2e4 + 0.16*0.84/2e4) = 0.0043, so the
drop is some 44 standard errors: the check must fail, whatever the seed.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import click
import numpy as np
import pytest
from click.testing import CliRunner
from scipy import stats as sps

from simulator.games import get_game
from simulator.setup import config, datafile
from simulator.studies import regression
from simulator.run import runner
from simulator.studies.regression import baselines, checking
from simulator.cli.regression import baseline as baseline_command
from simulator.cli.regression import check as check_command

REPO = Path(__file__).resolve().parents[1]
BASE = REPO / "configs" / "werewolf" / "base-random.toml"
SEER_LED = REPO / "configs" / "werewolf" / "seer-led.toml"
GAMES = 20_000
SEED = 7


@click.group()
def cli():
    """The two regression commands on a group of their own."""


cli.add_command(baseline_command)
cli.add_command(check_command)


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """A baselines file of the 12-player base game, seed 7, and its setup file."""
    folder = tmp_path_factory.mktemp("baselines")
    setup = folder / "twelve.toml"
    setup.write_text(f'extends = "{BASE.as_posix()}"\nplayers = 12\n', encoding="utf-8")
    out = folder / "baselines.json"
    result = invoke("baseline", setup, "-n", GAMES, "--seed", SEED, "--workers", 1, "-o", out)
    assert result.exit_code == 0, result.output
    return folder, setup, out


@pytest.fixture
def copy(made, tmp_path):
    """A private copy of the baselines file and its setup (tests may edit or update them)."""
    folder, setup, out = made
    shutil.copy(setup, tmp_path / setup.name)
    shutil.copy(out, tmp_path / out.name)
    return tmp_path / setup.name, tmp_path / out.name


def rows(output: str) -> dict[str, str]:
    """measure name -> its table line."""
    table = {}
    for line in output.splitlines():
        if line.startswith("  ") and not line.startswith("  measure"):
            for name in ("team human", "team wolf", "seat 0", "role werewolf", "game length"):
                if line.strip().startswith(name):
                    table[name] = line
    return table


# --- the file ------------------------------------------------------------------------------------
def test_baseline_file_holds_measures_counts_tallies_and_identity(made):
    folder, setup, out = made
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["schema"] == "fairplay.baselines" and data["schema_version"] == 4
    body = {key: value for key, value in data.items() if key != "checksum"}
    assert data["checksum"] == datafile.content_checksum(body)  # the whole file
    assert (data["games"], data["seed"], data["chunk_size"]) == (GAMES, SEED,
                                                                 runner.DEFAULT_CHUNK_SIZE)
    assert set(data["versions"]) >= {"fairplay", "numba", "numpy"}
    (entry,) = data["configs"]
    assert entry["path"] == "twelve.toml"  # relative to the baselines file
    assert entry["game"] == "werewolf" and entry["players"] == 12
    assert entry["config"]["players"] == 12
    names = [m["name"] for m in entry["measures"]]
    assert names[:3] == ["team human", "team wolf", "no winner"]
    assert {"seat 11", "role seer", "strategy random",
            "end: wolf camp at least as many as the humans", "game length (days)"} <= set(names)
    human = entry["measures"][0]
    assert human["trials"] == GAMES and human["successes"] == entry["tallies"]["team_wins"][0]
    # role counts come with their per-game moments: the 9 villagers of one game win or lose
    # together, so every game adds 9² to the sum of x² and 0 or 9² to the sum of y² and of x·y
    villager = next(m for m in entry["measures"] if m["name"] == "role villager")
    yy, xy, xx, games = villager["game_moments"]
    assert villager["trials"] == 9 * GAMES and (xx, games) == (81 * GAMES, GAMES)
    assert yy == xy == 81 * (villager["successes"] // 9)
    # the file is exactly what the loader accepts
    loaded = regression.load_baseline(out)
    assert loaded.entries[0]["name"] == str(setup)


def test_pretty_json_is_equivalent_to_plain_json(made):
    data = json.loads(made[2].read_text(encoding="utf-8"))
    data["configs"][0]["config"]["description"] = "a [ tricky ] {string}\nwith a break"
    assert json.loads(baselines._dumps(data)) == data


# --- statistical check ---------------------------------------------------------------------------
def test_the_rule_change_moves_the_town_by_more_than_five_points():
    from simulator.games.werewolf.oracle import town_win_random_float

    two, three = town_win_random_float(10, 2), town_win_random_float(9, 3)
    assert two - three > 0.18  # 0.3521 -> 0.1645
    assert (config.load(str(BASE), ["players=12"]).params.role_counts[:3] ==
            (9, 2, 1))  # 12 players: 9 villagers, 2 werewolves, 1 seer


def test_unchanged_setup_passes_against_another_seed(copy):
    setup, out = copy
    result = invoke("check", out, "--workers", 1)
    assert result.exit_code == 0, result.output
    assert f"this run {GAMES:,} games (seed {SEED + 1})" in result.output  # baseline seed + 1
    # 3 team rates (human, wolf, no winner), 12 seats, 3 roles dealt, 1 strategy, 5 end
    # conditions and the mean game length
    assert "PASS: all 25 measures of 1 setup(s) hold" in result.output
    assert "config differs" not in result.output
    # the run's balance verdict, with the config's tolerance, for the baseline and for now
    line = next(x for x in result.output.splitlines() if "balance verdict:" in x)
    assert "baseline " in line and "; now " in line


def test_changed_rule_fails_and_names_the_measure(copy):
    setup, out = copy
    result = invoke("check", out, "--set", "roles.werewolf=3", "--workers", 1)
    assert result.exit_code == 1, result.output
    table = rows(result.output)
    assert table["team human"].rstrip().endswith("FAIL")
    assert "35." in table["team human"] and "16." in table["team human"]
    assert result.output.splitlines()[-1].startswith("FAIL: ")
    assert "team human -1" in result.output.splitlines()[-1]
    assert 'config differs from the baseline\'s: roles.werewolf: "auto" -> 3' in result.output
    assert "(the verdict moved)" in result.output  # 35% to 16%: a different verdict


def test_edited_config_file_is_detected_unless_the_stored_config_is_replayed(copy):
    setup, out = copy
    setup.write_text(setup.read_text(encoding="utf-8") + "[roles]\nwerewolf = 3\n",
                     encoding="utf-8")
    result = invoke("check", out, "--workers", 1)
    assert result.exit_code == 1, result.output
    assert rows(result.output)["team human"].rstrip().endswith("FAIL")
    stored = invoke("check", out, "--workers", 1, "--stored-config")
    assert stored.exit_code == 0, stored.output


def test_tolerance_keeps_a_small_significant_change_from_failing(copy):
    # With a tolerance of 40 points even this change passes (its largest move, "wolves equal
    # humans", is 32 points): every significant move is reported as drift.
    setup, out = copy
    result = invoke("check", out, "--set", "roles.werewolf=3", "--workers", 1,
                    "--tolerance", 0.4, "--mean-tolerance", 10)
    assert result.exit_code == 0, result.output
    assert "drift (within tolerance)" in rows(result.output)["team human"]


def test_update_rewrites_the_baseline_with_the_new_run(copy):
    setup, out = copy
    result = invoke("check", out, "--set", "roles.werewolf=3", "--workers", 1, "--update")
    assert result.exit_code == 0, result.output
    assert "Baselines updated" in result.output
    data = regression.load_baseline(out).data
    assert data["seed"] == SEED + 1
    entry = data["configs"][0]
    assert entry["overrides"] == ["roles.werewolf=3"] and entry["path"] == "twelve.toml"
    assert entry["config"]["roles"]["werewolf"] == 3
    # the accepted change is now the baseline: a plain check re-applies it and passes
    again = invoke("check", out, "--workers", 1)
    assert again.exit_code == 0, again.output
    assert f"(seed {SEED + 2})" in again.output


# --- exact mode ----------------------------------------------------------------------------------
def test_exact_mode_replays_the_baseline_bit_for_bit(copy):
    setup, out = copy
    result = invoke("check", out, "--exact", "--workers", 1)
    assert result.exit_code == 0, result.output
    assert f"(seed {SEED})" in result.output
    tallies = len(get_game("werewolf").tally_names())  # one check per declared tally
    assert f"all {tallies} tallies bit-identical" in result.output


def test_exact_mode_catches_any_change(copy):
    setup, out = copy
    result = invoke("check", out, "--exact", "--set", "roles.werewolf=3", "--workers", 1)
    assert result.exit_code == 1, result.output
    assert "team_wins: differs" in result.output
    assert "team human: 35." in result.output


@pytest.mark.parametrize("args, reason", [
    (["-n", 1000], "the baseline played 20,000 games per setup, not 1,000"),
    (["--seed", 99], "the baseline's seed is 7, not 99"),
])
def test_exact_mode_does_not_apply_to_other_games_or_seeds(copy, args, reason):
    setup, out = copy
    result = invoke("check", out, "--exact", "--workers", 1, *args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert "exact mode does not apply" in result.stderr and reason in result.stderr


def test_exact_mode_does_not_apply_across_versions(copy):
    setup, out = copy
    data = json.loads(out.read_text(encoding="utf-8"))
    data["versions"]["numba"] = "0.0.1"
    out.write_text(json.dumps(sealed(data)), encoding="utf-8")  # as that numba's fairplay wrote it
    result = invoke("check", out, "--exact", "--workers", 1)
    assert result.exit_code == 2
    assert "exact mode does not apply: the baseline was made with numba 0.0.1" in result.stderr
    # the statistical check still applies
    assert invoke("check", out, "--workers", 1).exit_code == 0


# --- JUnit ---------------------------------------------------------------------------------------
def test_junit_report_parses_and_counts(made, tmp_path):
    folder, setup, _ = made
    # two setups: the 12-player game and the seer-led one (9 players); break the first only
    out = tmp_path / "two.json"
    made_two = invoke("baseline", setup, SEER_LED, "-n", 5000, "--seed", 3, "--workers", 1,
                      "-o", out)
    assert made_two.exit_code == 0, made_two.output
    report = tmp_path / "reports" / "check.xml"
    result = invoke("check", out, "--set", "roles.werewolf=3", "--workers", 1, "--junit",
                    report)
    assert result.exit_code == 1
    data = regression.load_baseline(out).data
    sizes = [len(entry["measures"]) for entry in data["configs"]]

    root = ET.parse(report).getroot()
    assert root.tag == "testsuites"
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == [str(setup), str(SEER_LED)]
    assert [int(s.get("tests")) for s in suites] == sizes
    assert [len(s.findall("testcase")) for s in suites] == sizes
    assert int(root.get("tests")) == sum(sizes)
    failed = [[c.get("name") for c in s.findall("testcase") if c.find("failure") is not None]
              for s in suites]
    assert [int(s.get("failures")) for s in suites] == [len(f) for f in failed]
    assert int(root.get("failures")) == sum(map(len, failed))
    assert "team human" in failed[0] and "team wolf" in failed[0]
    # in the 9-player seer-led game three werewolves instead of two is also a large change
    assert "team human" in failed[1]
    message = suites[0].find("testcase[@name='team human']/failure").get("message")
    assert message.startswith("team human moved from 35.")
    assert "beyond the tolerance of 1.00 points" in message
    # the failures in the report are the FAIL rows of the table
    assert result.output.count(" FAIL\n") == int(root.get("failures"))


def test_junit_report_in_exact_mode_has_one_case_per_tally(copy, tmp_path):
    setup, out = copy
    report = tmp_path / "exact.xml"
    result = invoke("check", out, "--exact", "--workers", 1, "--junit", report)
    assert result.exit_code == 0
    suite = ET.parse(report).getroot().find("testsuite")
    assert int(suite.get("tests")) == len(get_game("werewolf").tally_names())
    assert int(suite.get("failures")) == 0
    assert {c.get("name") for c in suite.findall("testcase")} >= {"tally team_wins",
                                                                  "tally length_hist"}


def test_a_measure_the_file_lacks_is_checked_from_its_tallies(copy):
    # The stored measures are a readable copy of what the tallies give: a file written before a
    # measure was added (the positions in turn order) is checked on every headline measure.
    setup, out = copy
    _edit(out, _drop_measure)
    result = invoke("check", out, "--workers", 1)
    assert result.exit_code == 0, result.output
    assert re.search(r"^  team wolf +\d", result.stdout, re.M), result.stdout


@pytest.mark.parametrize("stored", [True, False], ids=["stored", "older-file"])
def test_an_exact_check_says_the_baselines_verdict_as_its_own(tmp_path, stored):
    # Ghost Play at 6 players deals nobody to the evil side: the verdict does not judge it, for
    # the baseline's tallies as for the check's (a file from before the dealt teams were stored
    # takes them from the check's own run of the unchanged config).
    out = tmp_path / "ghostplay.json"
    config_file = Path(__file__).resolve().parent.parent / "configs" / "ghostplay" / "artifacts.toml"
    made = invoke("baseline", config_file, "-n", 2_000, "--workers", 1, "-o", out)
    assert made.exit_code == 0, made.output
    if not stored:
        _edit(out, lambda d: [d["configs"][0].pop(key) for key in ("dealt_teams", "slot_table")])
    result = invoke("check", out, "--exact", "--workers", 1)
    assert result.exit_code == 0, result.output
    line = next(l for l in result.stdout.splitlines() if "balance verdict" in l)
    then, now = line.split("balance verdict: baseline ")[1].split("; now ")
    assert then == now and "evil" not in then, line


# --- bad input: one line, exit 2 -----------------------------------------------------------------
def sealed(data: dict) -> dict:
    """`data` with a checksum that fits it: a file as a faulty fairplay could have written it,
    so the checks behind the checksum are reached."""
    return baselines.BASELINES_FILE.seal(data)


def _edit(out: Path, change, seal: bool = True):
    data = json.loads(out.read_text(encoding="utf-8"))
    change(data)
    out.write_text(json.dumps(sealed(data) if seal else data), encoding="utf-8")


def _drop_measure(data):
    data["configs"][0]["measures"] = [m for m in data["configs"][0]["measures"]
                                      if m["name"] != "team wolf"]


def _rename_measure(data):
    data["configs"][0]["measures"][0]["name"] = "team dragons"


def _tamper_measure(data):
    data["configs"][0]["measures"][0]["successes"] += 1


def _other_game(data):
    data["configs"][0]["game"] = "chess"


def _foreign_tallies(data):
    del data["configs"][0]["tallies"]["events"]


@pytest.mark.parametrize("corrupt, expected", [
    (lambda out: out.write_text("{not json", encoding="utf-8"), "corrupt JSON"),
    (lambda out: out.unlink(), "cannot read: No such file or directory"),
    (lambda out: _edit(out, lambda d: d.update(schema_version=99)),
     "baselines schema version 99 is not supported"),
    (lambda out: _edit(out, lambda d: d.update(schema="fairplay.result")), "this is a result file"),
    (lambda out: out.write_text("[1, 2]", encoding="utf-8"), "not a fairplay baselines file"),
    (lambda out: _edit(out, lambda d: d.pop("configs")), "missing configs"),
    (lambda out: _edit(out, _rename_measure), "measure 'team dragons' does not come from the "
                                               "tallies of a werewolf game"),
    (lambda out: _edit(out, _tamper_measure), "does not match the stored tallies"),
    (lambda out: _edit(out, _other_game), "unknown game 'chess'"),
    (lambda out: _edit(out, _foreign_tallies), "not a werewolf baseline"),
], ids=["not-json", "missing-file", "schema-version", "result-file", "not-an-object",
        "no-configs", "unknown-measure", "tampered-measure", "unknown-game", "other-tallies"])
def test_bad_baselines_file_gives_one_line_and_exit_2(copy, corrupt, expected):
    setup, out = copy
    corrupt(out)
    result = invoke("check", out, "--workers", 1)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr.startswith("fairplay: error: ")
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert expected in result.stderr


def test_a_config_of_another_game_is_a_mismatch(copy, monkeypatch):
    # The baseline holds a werewolf setup; if its file now names another game, comparing would
    # be meaningless. (Only werewolf exists as this is written, so pretend the file changed.)
    setup, out = copy
    real = checking.setup_config

    def other_game(*args, **kwargs):
        cfg = real(*args, **kwargs)
        cfg.game = dataclasses.replace(cfg.game, name="chenghuang")
        return cfg

    monkeypatch.setattr(checking, "setup_config", other_game)
    result = invoke("check", out, "--workers", 1)
    assert result.exit_code == 2
    assert "the config is now a chenghuang setup, the baseline holds a werewolf one" \
        in result.stderr


@pytest.mark.parametrize("args, expected", [
    (["--alpha", 0], "--alpha must be between 0 and 1"),
    (["--alpha", 1.5], "--alpha must be between 0 and 1"),
    (["--tolerance", -0.1], "must not be negative"),
    (["-n", 0], "--games must be at least 1"),
    (["--seed", -1], "--seed must not be negative"),
    (["--set", "roles.werewolf=11"], "roles.werewolf"),
    (["--set", "strategies.all=nobody"], "unknown strategy 'nobody'"),
])
def test_bad_check_options_give_one_line_and_exit_2(copy, args, expected):
    setup, out = copy
    result = invoke("check", out, "--workers", 1, *args)
    assert result.exit_code == 2, result.output
    assert result.stderr.count("\n") == 1 and expected in result.stderr


def test_missing_config_file_gives_one_line_and_exit_2(copy):
    setup, out = copy
    setup.unlink()
    result = invoke("check", out, "--workers", 1)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert "twelve.toml not found" in result.stderr and "--stored-config" in result.stderr
    # the stored config still runs
    assert invoke("check", out, "--workers", 1, "--stored-config").exit_code == 0


@pytest.mark.parametrize("args, expected", [
    (["nosuch.toml"], "no such config file"),
    ([BASE, BASE], "config given twice"),
    ([BASE, "-n", 0], "--games must be at least 1"),
    ([BASE, "--set", "roles.seer=x"], "roles.seer"),
])
def test_bad_baseline_arguments_give_one_line_and_exit_2(tmp_path, args, expected):
    result = invoke("baseline", *args, "-o", tmp_path / "b.json", "--workers", 1)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and expected in result.stderr
    assert not (tmp_path / "b.json").exists()


# --- the runs ------------------------------------------------------------------------------------
def test_run_setups_equals_separate_runs():
    cfgs = [config.load(str(BASE)), config.load(str(SEER_LED))]
    together = regression.run_setups(cfgs, 3000, 11, chunk_size=1000, workers=1)
    for cfg, result in zip(cfgs, together):
        alone = runner.run(cfg, 3000, 11, workers=1, chunk_size=1000)
        for name, values in alone.tallies.items():
            assert np.array_equal(values, result.tallies[name]), name


@pytest.mark.slow
def test_run_setups_in_a_pool_equals_in_process():
    cfgs = [config.load(str(BASE)), config.load(str(SEER_LED))]
    pooled = regression.run_setups(cfgs, 4000, 5, chunk_size=1000, workers=2)
    serial = regression.run_setups(cfgs, 4000, 5, chunk_size=1000, workers=1)
    for a, b in zip(pooled, serial):
        for name in a.tallies:
            assert np.array_equal(a.tallies[name], b.tallies[name]), name


# --- the false-alarm rate ------------------------------------------------------------------------
@pytest.mark.slow
def test_false_alarm_rate_is_at_most_alpha(tmp_path):
    """An unchanged setup fails a check with probability at most alpha.

    M independent checks, each a fresh baseline (seed 2i) of two unchanged setups (the 9-player
    base game and the seer-led one: 44 measures, 22 each: 3 team rates, 9 seats, 3 roles, 1
    strategy, 5 end conditions, the mean length) checked against a run with another seed
    (2i + 1). Holm across the 44 measures bounds the chance that a check fails at alpha (the
    family-wise error rate), so the number of failing checks F is Binomial(M, q) with q <= alpha.
    If q <= alpha, P(F > binom.ppf(1 - 1e-6, M, alpha)) <= 1e-6: we assert F is at most that
    quantile, a bound a correct check crosses once in a million fixed seeds. The measures are
    strongly correlated (the town's win rate is also the rate of "all werewolves dead", of the
    seer, of every villager), so Holm is conservative and q is well below alpha; it is the upper
    bound that matters. Tolerances are 0 so that only the tests decide (with 1,500 games a side
    the tolerance of one point would hide most chance differences anyway).

    The raw p-value of one measure (the town's win rate) is also uniform under no change: its
    rejections at alpha must lie inside the two-sided binomial quantiles at 1e-6, which would
    catch a test that never rejects as much as one that rejects too often.
    """
    alpha, checks, games = 0.05, 240, 1500
    specs = [str(BASE), str(SEER_LED)]
    failures = town_rejections = 0
    for i in range(checks):
        out = tmp_path / f"b{i}.json"
        regression.make_baseline(specs, out, games=games, seed=2 * i, workers=1)
        report = regression.check(regression.load_baseline(out), seed=2 * i + 1,
                                  tolerance=0.0, mean_tolerance=0.0, alpha=alpha, workers=1)
        assert len(report.comparisons) == 44
        failures += not report.passed
        town = report.comparisons[0]
        assert town.name == "team human"
        town_rejections += town.pvalue < alpha
    bound = sps.binom.ppf(1 - 1e-6, checks, alpha)  # 28 for M = 240, alpha = 0.05
    assert failures <= bound, (failures, bound)
    low, high = sps.binom.ppf(1e-6, checks, alpha), sps.binom.ppf(1 - 1e-6, checks, alpha)
    assert low <= town_rejections <= high, (town_rejections, low, high)


# --- the project's own baselines -----------------------------------------------------------------
# Whether they hold is checked by .ci/run's last step (`fairplay check` on each file), once; here
# only that each is readable and names configs that exist.
PROJECT_BASELINES = sorted((REPO / "baselines").glob("*.json"))


@pytest.mark.parametrize("path", PROJECT_BASELINES, ids=[p.name for p in PROJECT_BASELINES])
def test_project_baselines_are_readable_and_point_at_existing_configs(path):
    try:
        loaded = regression.load_baseline(path)
    except regression.BaselineError as exc:
        pytest.fail(f"{exc} -- regenerate it (baselines/README.md)")
    for entry in loaded.entries:
        assert entry["path"] is not None and (loaded.directory / entry["path"]).exists()
        assert not Path(entry["name"]).is_absolute()  # named as given, from the repository root
    assert loaded.data["games"] >= 100_000


def test_a_baseline_tally_of_the_wrong_shape_is_one_line(tmp_path):
    from click.testing import CliRunner

    from simulator.cli import main

    path = tmp_path / "b.json"
    made = CliRunner().invoke(main, ["baseline", "werewolf", "-n", "50", "--workers", "1",
                                     "-q", "-o", str(path)])
    assert made.exit_code == 0, made.output
    data = json.loads(path.read_text())
    data["configs"][0]["tallies"]["role_wins_by_game"] = 0
    path.write_text(json.dumps(sealed(data)))
    checked = CliRunner().invoke(main, ["check", str(path), "--workers", "1"])
    assert checked.exit_code == 2 and "Traceback" not in checked.output
    assert "tally role_wins_by_game has shape []" in checked.stderr
