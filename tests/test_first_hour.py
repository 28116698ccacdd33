"""What a newcomer meets in the first hour: the default players, runs that do not trip over each
other, two outputs on one path, a summary of what happened, and help that fits."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simulator.setup import config
from simulator.games import game_names, get_game
from simulator.run.results import Result

from cli_checks import one_line_error, run_cli

FAST = ("--workers", 1, "-q", "--chunk-size", 100)


# --- 1. the default config plays the measuring players, and every verdict names them ----------
@pytest.mark.parametrize("game", [name for name in game_names(listed_only=True)])
def test_every_default_config_plays_the_players_the_standard_measures(game):
    cfg = config.load(game)
    assert {slot.name for slot in cfg.slots} == {get_game(game).measuring_strategy}


def test_random_play_stays_one_set_away_and_in_named_configs():
    assert {s.name for s in config.load("werewolf", ["strategies.all=random"]).slots} == {"random"}
    for named in ("werewolf/base-random.toml", "chenghuang/random.toml"):
        assert {s.name for s in config.load(named).slots} == {"random"}


def test_the_verdict_names_its_players_in_the_terminal_and_the_report(tmp_path):
    out, report = tmp_path / "r.json", tmp_path / "r.html"
    done = run_cli("run", "werewolf", "-n", 200, *FAST, "-o", out, "--report", report)
    assert done.exit_code == 0, done.output
    verdict = next(line for line in done.stdout.splitlines() if line.startswith("Verdict:"))
    assert "Measured with `people` at every seat." in verdict
    assert "Measured with `people` at every seat." in report.read_text()
    mixed = run_cli("run", "werewolf", "-n", 200, *FAST, "-o", tmp_path / "m.json", "--set",
                    'strategies={wolf = "people", human = "seer-led"}')
    assert "Measured with `seer-led` (the human team), `people` (the wolf team)." in mixed.stdout


def test_run_help_says_how_to_choose_the_players():
    text = run_cli("run", "--help").stdout
    assert "--set strategies.all=random" in text and "the verdict names who played" in text


# --- 2. a default output path never refuses --------------------------------------------------
def test_a_second_run_on_the_default_path_never_fails_and_loses_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runs = [(), ("-n", 300), ("--precision", 0.2, "--max-games", 300), ("--set", "roles.seer=0"),
            ("--seed", 1)]
    saved = {}
    for extra in runs:
        args = ("-n", 200, *extra) if "-n" not in extra and "--precision" not in extra else extra
        done = run_cli("run", "werewolf", *args, *FAST)
        assert done.exit_code == 0, done.output
        line = done.stdout.rsplit("Result saved to ", 1)[1].strip()
        path = Path(line.split(" (", 1)[0])
        if path.name != "werewolf-p9-seed0.json" and "seed0" in path.name:  # says why
            assert line.endswith("(results/werewolf-p9-seed0.json holds another run)"), line
        assert path not in saved
        saved[path] = path.read_bytes()
        for earlier, content in saved.items():  # no earlier result is lost
            assert earlier.read_bytes() == content
    assert sorted(p.name for p in saved) == [
        "werewolf-p9-seed0-2.json", "werewolf-p9-seed0-3.json", "werewolf-p9-seed0-4.json",
        "werewolf-p9-seed0.json", "werewolf-p9-seed1.json"]
    assert Result.load("results/werewolf-p9-seed0-2.json").data["games_requested"] == 300
    # the very same run again goes to its own file, not to a fifth one
    again = run_cli("run", "werewolf", "-n", 200, *FAST)
    assert "werewolf-p9-seed0.json" in again.stdout and len(list(Path("results").iterdir())) == 5


def test_an_explicit_output_naming_another_run_is_still_refused(tmp_path):
    out = tmp_path / "r.json"
    assert run_cli("run", "werewolf", "-n", 200, *FAST, "-o", out).exit_code == 0
    before = out.read_bytes()
    one_line_error(run_cli("run", "werewolf", "-n", 300, *FAST, "-o", out),
                   "holds another run's result", "--force")
    assert out.read_bytes() == before


@pytest.mark.parametrize("command", [
    ("sweep", "werewolf", "--vary", "roles.werewolf=1..2", "-n", 100),
    ("tune", "werewolf", "--vary", "roles.werewolf=1..2", "-n", 200, "--objective", "balanced"),
])
def test_other_default_outputs_never_refuse_either(tmp_path, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    for _ in range(2):
        assert run_cli(*command, "--workers", 1).exit_code == 0
    files = {p.name for p in Path("results").iterdir() if p.suffix == ".json"}
    first = f"{command[0]}-werewolf-seed0.json"
    assert files == {first, first.replace(".json", "-2.json")}


# --- 3. two outputs of one command on one path -----------------------------------------------
TWO_OUTPUTS = {
    "run": ("run", "werewolf", "-n", 100, *FAST, "-o", "{x}", "--report", "{x}"),
    "run --role-values": ("run", "werewolf", "-n", 100, *FAST, "--role-values", "-o", "{stem}.json",
                          "--report", "{stem}-roles.json"),
    "sweep": ("sweep", "werewolf", "--vary", "roles.werewolf=1..2", "-n", 100, "-o", "{x}",
              "--report", "{x}"),
    "tune": ("tune", "werewolf", "--vary", "roles.werewolf=1..2", "-n", 100, "--objective",
             "balanced", "-o", "{x}",
             "--report", "{x}"),
    "roles": ("roles", "werewolf", "-n", 100, "-o", "{x}", "--report", "{x}"),
    "best-response": ("best-response", "werewolf", "--team", "wolf", "-o", "{stem}.toml"),
}


@pytest.mark.parametrize("name", TWO_OUTPUTS)
def test_two_outputs_on_one_path_are_refused_and_nothing_is_written(tmp_path, name):
    x, stem = tmp_path / "x.json", tmp_path / "x"
    args = [str(a).format(x=x, stem=stem) for a in TWO_OUTPUTS[name]]
    one_line_error(run_cli(*args), "both name")
    assert list(tmp_path.iterdir()) == []


# --- 4. the summary shows what happened ------------------------------------------------------
def test_the_base_werewolf_summary_lists_nothing_the_setup_cannot_produce(tmp_path):
    done = run_cli("run", "werewolf", "-n", 300, *FAST, "-o", tmp_path / "r.json")
    text = done.stdout
    game = get_game("werewolf")
    dealt = {"villager", "werewolf", "seer"}
    impossible = [name for name, need in game.coverage_needs.items()
                  if isinstance(need, str) and need not in dealt]
    assert "medium_readings" in impossible and "lovers across the camps, the last two alive" \
        in impossible  # the check is not empty
    for name in impossible:
        assert name not in text, name
    events = next(line for line in text.splitlines() if line.startswith("Events per game: "))
    for item in events.removeprefix("Events per game: ").split(", "):
        assert float(item.rsplit(" ", 1)[1]) > 0, item  # only what occurred
    ends = text.split("How games end\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert ends and all("(0/" not in line for line in ends)


def test_what_was_possible_but_never_occurred_is_one_line(tmp_path):
    done = run_cli("run", "werewolf/base-random.toml", "-n", 200, *FAST, "-o",
                   tmp_path / "r.json")
    never = [line for line in done.stdout.splitlines() if line.startswith("Possible in this")]
    # random players never claim to be the seer: a finding, not a blind spot of the setup
    assert never == ["Possible in this setup but never occurred: wolf_claims, true_wolf_claims, "
                     "clear_claims"]


def test_every_command_summary_fits_the_help_page():
    text = run_cli("--help").stdout
    commands = text.split("Commands:\n", 1)[1].splitlines()
    assert len(commands) >= 10
    for line in commands:
        assert not line.rstrip().endswith("..."), line


# --- 7. a cold first run shows its compile as it goes ----------------------------------------
def test_the_compile_estimate_scales_with_how_busy_the_machine_is():
    from simulator.run.compiling import IDLE_COMPILE_SECONDS, expected_time

    low, high = IDLE_COMPILE_SECONDS
    assert expected_time(load=0.5, cores=2) == \
        f"about {low}-{high} s on two idle cores (the 2 cores here are idle)"
    # load 3 on 2 cores: this process and its helper get half a core each, twice as long
    assert expected_time(load=3.0, cores=2).endswith(
        f"busy (load 3.0), so about {2 * low} s to {2 * high / 60:.0f} min")
    assert "one core here" in expected_time(load=0.0, cores=1)


def test_the_live_line_shows_the_status_and_its_time_and_clears_itself():
    import io

    from simulator.cli.support import LiveLine

    stream = io.StringIO()
    live = LiveLine(stream, every=0.01)
    live.set("compiling the werewolf kernel: 3 functions compiled, now night")
    live.print("a line above it")
    live.set("")
    text = stream.getvalue()
    assert "\r\x1b[Kcompiling the werewolf kernel: 3 functions compiled, now night (0 s)" in text
    assert "\r\x1b[Ka line above it\n" in text
    assert text.endswith("\r\x1b[K") and live.thread is None
