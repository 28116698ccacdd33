"""Shipped players (simulator/setup/players.py): a config names a set as STRATEGY@SET, each seat
gets its team's parameters from the set made at the nearest player count, the config's own
values win, and the file is checked whole."""

from __future__ import annotations

import json

import pytest

from cli_checks import one_line_error, run_cli
from simulator.run.results import fingerprint
from simulator.setup import config, players

PEOPLE = '"people@equilibrium"'


def a_set(players_count: int, wolf_bus: float, config_name: str) -> dict:
    return {"game": "werewolf", "strategy": "people", "name": "equilibrium",
            "config": config_name, "players": players_count,
            "teams": {"wolf": {"bus": wolf_bus, "counter": 0.0}, "human": {"mob": 0.5}},
            "converged": False, "tolerance": 0.01, "largest_gain": 0.03,
            "command": "python benchmarks/ship_players.py", "created": "2026-12-06T00:00:00+00:00"}


@pytest.fixture
def shipped(tmp_path, monkeypatch):
    path = tmp_path / "players.json"
    monkeypatch.setattr(players, "shipped_path", lambda: path)
    players.save([a_set(12, 0.2, "werewolf/standard-12.toml"),
                  a_set(16, 0.6, "werewolf/standard-16.toml")], path)
    return path


def params_of(cfg, team: str) -> dict:
    """The parameters (and slot) every seat plays when it holds the team's first role."""
    role = next(i for i, r in enumerate(cfg.game.roles) if r.team == team)
    rows = {int(cfg.slot_table[seat, role]) for seat in range(cfg.players)}
    (index,) = rows
    slot = cfg.slots[index]
    return dict(slot.params), slot


def test_each_team_plays_its_parameters_of_the_set_at_the_nearest_player_count(shipped):
    cfg = config.load("werewolf/standard-16.toml", [f"strategies.all={PEOPLE}"])
    wolf, slot = params_of(cfg, "wolf")
    human, _ = params_of(cfg, "human")
    assert wolf["bus"] == 0.6 and wolf["counter"] == 0.0 and human["mob"] == 0.5
    declared = cfg.game.strategies()["people"].defaults()
    assert human["bus"] == declared["bus"]  # what the set does not give: the declared default
    assert slot.label() == "people@equilibrium"  # the set's values are no change
    at_14 = config.load("werewolf", [f"strategies.all={PEOPLE}"], players=14)
    assert params_of(at_14, "wolf")[0]["bus"] == 0.6  # 12 and 16 are as near: the larger
    at_13 = config.load("werewolf", [f"strategies.all={PEOPLE}"], players=13)
    assert params_of(at_13, "wolf")[0]["bus"] == 0.2


def test_a_value_the_config_gives_wins_over_the_sets(shipped):
    cfg = config.load("werewolf/standard-16.toml", [
        f"strategies.all={PEOPLE}", 'strategies.wolf={name="people@equilibrium", bus=0.1}'])
    wolf, slot = params_of(cfg, "wolf")
    assert wolf["bus"] == 0.1 and wolf["counter"] == 0.0
    assert slot.label().startswith("people@equilibrium(")


def test_a_made_again_set_changes_the_runs_fingerprint(shipped):
    """A run of the same config with other values of the set never resumes into the old one."""
    before = fingerprint(config.load("werewolf/standard-16.toml", [f"strategies.all={PEOPLE}"]))
    players.save([a_set(16, 0.9, "werewolf/standard-16.toml")], shipped)
    after = fingerprint(config.load("werewolf/standard-16.toml", [f"strategies.all={PEOPLE}"]))
    assert before["config"] != after["config"]
    plain = fingerprint(config.load("werewolf/standard-16.toml"))  # no set: as before sets
    assert plain["config"] != after["config"]


def test_an_unknown_set_or_a_changed_file_is_one_line(shipped, tmp_path):
    one_line_error(run_cli("run", "werewolf", "--set", 'strategies.all="people@nash"', "-n", 10,
                           "-o", tmp_path / "r.json"), "no 'nash' players of people",
                   "it has: people@equilibrium")
    one_line_error(run_cli("run", "werewolf", "--set", 'strategies.all="sheep@equilibrium"',
                           "-n", 10, "-o", tmp_path / "r.json"), "unknown strategy 'sheep'")
    data = json.loads(shipped.read_text())
    data["sets"][0]["teams"]["wolf"]["bus"] = 1.0
    shipped.write_text(json.dumps(data))
    one_line_error(run_cli("run", "werewolf", "--set", f"strategies.all={PEOPLE}", "-n", 10,
                           "-o", tmp_path / "r.json"), "checksum")


def test_the_docs_table_is_what_the_shipped_file_gives():
    """docs/strategies.md's table of shipped sets is written from configs/players.json by
    `python benchmarks/ship_players.py --write-docs`, never typed."""
    from pathlib import Path

    docs = Path(__file__).resolve().parents[1] / "docs" / "strategies.md"
    text = docs.read_text(encoding="utf-8")
    assert players.rewrite_docs(text, players.load()) == text


def test_the_robustness_rows_show_the_verdict_under_the_shipped_players(shipped):
    from simulator.run import runner
    from simulator.studies import robustness

    cfg = config.load("werewolf")
    result = runner.run(cfg, 200, 0, 1)
    rows = robustness.rows("werewolf", result, games=200, workers=1)
    labels = [row.players for row in rows]
    assert "people@equilibrium at every seat (iterated best responses, not converged)" in labels
