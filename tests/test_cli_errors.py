"""Bad input: one line naming the file, the key and what is allowed; exit code 2; no traceback."""

import json

import pytest

from cli_checks import one_line_error as assert_one_line_error
from cli_checks import run_cli
from simulator.run.results import checksum


def test_unknown_game():
    assert_one_line_error(run_cli("run", "chess"), "chess", "werewolf")


def test_unknown_game_in_file(write):
    path = write("c.toml", 'game = "chess"\nplayers = 4\n')
    assert_one_line_error(run_cli("run", str(path)), "c.toml", "game", "unknown game")


def test_unknown_key(write):
    path = write("c.toml", 'extends = "werewolf/base.toml"\n[rules]\nmadmen = true\n')
    assert_one_line_error(run_cli("run", str(path)), "c.toml", "rules.madmen", "madman_literal")


def test_unknown_top_level_key(write):
    path = write("c.toml", 'extends = "werewolf/base.toml"\nplayer = 9\n')
    assert_one_line_error(run_cli("run", str(path)), "player", "unknown key")


def test_wrong_type(write):
    path = write("c.toml", 'extends = "werewolf/base.toml"\nplayers = "nine"\n')
    assert_one_line_error(run_cli("run", str(path)), "players", "integer")


def test_wrong_type_through_set():
    assert_one_line_error(run_cli("run", "werewolf", "--set", "roles.seer=yes"), "roles.seer",
                          "integer")


@pytest.mark.parametrize("players", ["7", "24"])
def test_players_out_of_range(players):
    assert_one_line_error(run_cli("run", "werewolf", "--players", players), "players", "8..23")


def test_more_wolves_than_allowed():
    result = run_cli("run", "werewolf", "--players", "9", "--set", "roles.werewolf=5")
    assert_one_line_error(result, "roles.werewolf", "at most 4 wolves")


def test_a_setup_the_game_cannot_be_played_with(write, tmp_path):
    # Ghost Play with a ghost deck of events only: every game would be a draw (the game's
    # declared setup check), refused before anything is played or saved
    path = write("c.toml", 'game = "ghostplay"\nplayers = 6\n[ghost_deck]\n'
                           'drain = { kind = "event", effect = "drain", count = 8 }\n')
    out = tmp_path / "r.json"
    result = run_cli("run", str(path), "-n", "10", "-o", str(out))
    assert_one_line_error(result, "c.toml", "ghost_deck", "no ghost card", "draw",
                          "add ghost cards")
    assert not out.exists()


def test_unknown_role():
    assert_one_line_error(run_cli("run", "werewolf", "--set", "roles.wizard=1"), "roles.wizard",
                          "seer")


def test_unknown_strategy():
    assert_one_line_error(run_cli("run", "werewolf", "--set", "strategies.all=clever"),
                          "strategies.all", "clever", "seer-led")


def test_unknown_strategy_parameter():
    result = run_cli("run", "werewolf", "--set", 'strategies.all={name="seer-led", trsut=1}')
    assert_one_line_error(result, "strategies.all.trsut", "trust")


def test_strategy_file_missing(write):
    path = write("c.toml", 'extends = "werewolf/base.toml"\n[strategies]\nall = "nope.py:f"\n')
    assert_one_line_error(run_cli("run", str(path)), "strategies.all", "not found")


def test_strategy_file_does_not_compile(write):
    write("bad.py", "def broken(kind, obs, legal, params, memory, rng):\n    return obs.nothing\n")
    path = write("c.toml", 'extends = "werewolf/base.toml"\n[strategies]\nall = "bad.py:broken"\n')
    assert_one_line_error(run_cli("run", str(path), "-n", "10"), "strategies.all",
                          "does not compile")


def test_strategy_file_that_writes_into_its_observation(write):
    # The observation, legal mask and parameters are the kernel's own buffers, read-only.
    write("scribble.py", "def scribble(kind, obs, legal, params, memory, rng):\n"
                         "    obs[0] = 7\n    return 0\n")
    path = write("c.toml",
                 'extends = "werewolf/base.toml"\n[strategies]\nall = "scribble.py:scribble"\n')
    result = run_cli("run", str(path), "-n", "10")
    assert_one_line_error(result, "strategies.all", "does not compile")
    assert "readonly" in result.output


def test_strategy_file_with_syntax_error(write):
    write("bad.py", "def broken(:\n")
    path = write("c.toml", 'extends = "werewolf/base.toml"\n[strategies]\nall = "bad.py:broken"\n')
    assert_one_line_error(run_cli("run", str(path)), "strategies.all", "SyntaxError")


def test_negative_game_count():
    assert_one_line_error(run_cli("run", "werewolf", "-n", "-5"), "--games", "at least 1")


def test_not_toml(write):
    path = write("c.toml", "game = \n")
    assert_one_line_error(run_cli("run", str(path)), "c.toml", "not valid TOML")


def test_missing_config_file():
    assert_one_line_error(run_cli("run", "no/such/file.toml"), "file.toml", "no such config")


def test_resume_missing_file(tmp_path):
    assert_one_line_error(run_cli("run", "--resume", str(tmp_path / "none.json")), "cannot read")


def test_resume_corrupt_file(write):
    path = write("r.json", '{"schema": "fairplay.result", "schema_ver')
    assert_one_line_error(run_cli("run", "--resume", str(path)), "r.json", "corrupt JSON")


def test_resume_not_a_result(write):
    path = write("r.json", json.dumps({"hello": 1}))
    assert_one_line_error(run_cli("run", "--resume", str(path)), "not a fairplay result")


def test_resume_other_schema_version(write):
    path = write("r.json", json.dumps({"schema": "fairplay.result", "schema_version": 99}))
    assert_one_line_error(run_cli("run", "--resume", str(path)), "schema version 99")


def test_resume_missing_tallies(write, tmp_path):
    result = run_cli("run", "werewolf", "-n", "50", "--workers", "1", "-o",
                     str(tmp_path / "ok.json"), "-q")
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "ok.json").read_text())
    del data["tallies"]["seat_wins"]
    data["checksum"] = checksum(data)  # as a faulty fairplay could write it: the tallies are
    path = write("r.json", json.dumps(data))  # checked behind the checksum
    assert_one_line_error(run_cli("run", "--resume", str(path)), "seat_wins")
    del data["checksum"]  # without its checksum: refused before anything else
    path = write("r.json", json.dumps(data))
    assert_one_line_error(run_cli("run", "--resume", str(path)), "no checksum")


def test_unknown_game_for_games_command():
    assert_one_line_error(run_cli("games", "chess"), "chess")
