"""The command line, used the way a designer uses it."""

import json

from click.testing import CliRunner

from simulator.cli import main
from simulator.summary import summarize


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
    from simulator import config, runner
    from simulator.games.chenghuang.declaration import PROVISIONAL

    cfg = config.load("chenghuang", ["players=4"])
    table = summarize(runner.run(cfg, 200, seed=1, workers=1)).table().splitlines()
    assert table[1].startswith("  deck: 25 cards") and "official deck" in table[1]
    assert table[-1].startswith(f"Provisional: the result depends on {len(PROVISIONAL)} rulings")
    werewolf = summarize(runner.run(config.load("werewolf"), 200, seed=1, workers=1)).table()
    assert "Provisional:" not in werewolf  # the base game's source settles every rule it uses
