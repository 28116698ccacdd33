"""The command line, used the way a designer uses it."""

import json

import pytest
from click.testing import CliRunner

from simulator.setup import config
from simulator.cli import main
from simulator.games import game_names
from simulator.statistics.summary import summarize


def invoke(*args):
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_games_lists_and_describes():
    listing = invoke("games")
    assert "werewolf" in listing
    description = invoke("games", "werewolf")
    for fragment in ("seer", "suspect_vote", "known", "seer-led", "at least as many as the humans",
                     "filler role: villager"):
        assert fragment in description


@pytest.mark.parametrize("name", game_names())
def test_each_built_in_config_is_listed_with_one_whole_sentence(name):
    # `fairplay games <game>` (and the setup page) says what each built-in config is: the first
    # sentence of its opening comment, whole and short, never a line cut mid-sentence
    listed = config.builtin_configs(name)
    assert listed
    lines = invoke("games", name).splitlines()
    for path, about in listed:
        assert about and about[-1] in ".!?", f"{path}: {about!r}"
        assert about[0].isupper() or not about[0].isascii(), f"{path}: {about!r}"
        assert len(about) <= 120, f"{path}: {len(about)} characters: {about!r}"
        assert not about.rstrip(".!?").endswith((",", ";", ":")), f"{path}: {about!r}"
        assert f"    {path}: {about}" in lines


def test_a_blurb_is_the_first_sentence_of_the_opening_comment_or_the_description():
    text = ("# The 23-player setup with the mayor: elected on day 1, his vote counts\n"
            "# twice. A dying mayor names his successor.\n# More.\ngame = \"werewolf\"\n")
    assert config.blurb(text) == ("The 23-player setup with the mayor: elected on day 1, his "
                                  "vote counts twice.")
    assert config.blurb("# Three rounds, e.g. for a short game. More\n") == \
        "Three rounds, e.g. for a short game."
    assert config.blurb("# No full stop\n\n# Another block.\n") == "No full stop"
    assert config.blurb('game = "salem"\n# A late comment.\n') == ""
    described = 'description = "What the  setup\\nis."\n# A comment.\ngame = "salem"\n'
    assert config.blurb(described) == "What the setup is."
    assert config.blurb("# Broken [toml.\n[[\n") == "Broken [toml."


def test_run_prints_intervals_and_a_verdict(tmp_path):
    out = tmp_path / "r.json"
    text = invoke("run", "werewolf", "-n", "2000", "--seed", "4", "--workers", "1", "-o", str(out))
    assert "95% CI" in text and "Verdict:" in text and "camp balance" in text
    data = json.loads(out.read_text())
    assert data["complete"] and data["tallies"]["games"] == [2000]
    assert data["command"].startswith("fairplay run werewolf")


def test_run_with_players_and_set(tmp_path):
    out = tmp_path / "r.json"
    invoke("run", "werewolf", "--players", "16", "--set", "roles.werewolf=4", "-n", "500",
           "--workers", "1", "-o", str(out))
    data = json.loads(out.read_text())
    assert data["config"]["players"] == 16
    assert sum(data["tallies"]["role_games"]) == 16 * 500
    assert data["tallies"]["role_games"][1] == 4 * 500  # werewolf seat-games


def test_trace_shows_a_whole_game():
    text = invoke("trace", "werewolf/seer-led.toml", "--seed", "3")
    for fragment in ("Deal", "Night 1", "the seer", "werewolves", "suspect vote", "sentence vote",
                     "is hanged", "team wins"):
        assert fragment in text


def test_the_summary_shows_the_setup_and_ends_with_the_provisional_rulings():
    from simulator.setup import config
    from simulator.run import runner
    from simulator.games.chenghuang.declaration import PROVISIONAL

    cfg = config.load("chenghuang", ["players=4"])
    table = summarize(runner.run(cfg, 200, seed=1, workers=1)).table().splitlines()
    assert table[1].startswith("  deck: 25 cards") and "official deck" in table[1]
    assert table[-1].startswith(f"Provisional: the result depends on {len(PROVISIONAL)} rulings")
    werewolf = summarize(runner.run(config.load("werewolf"), 200, seed=1, workers=1)).table()
    assert "Provisional:" not in werewolf  # the base game's source settles every rule it uses
