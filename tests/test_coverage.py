"""`fairplay coverage`: every event and ending with its rate per game; the blind spots marked,
and what a setup does not deal is "not available", not a blind spot (simulator/statistics/coverage.py)."""

from __future__ import annotations

from cli_checks import one_line_error, run_cli
from simulator.setup import config
from simulator.statistics import coverage
from simulator.run import runner


def test_every_event_and_ending_is_listed_and_what_is_not_dealt_is_not_available():
    result = runner.run(config.load("werewolf"), 2_000, seed=1, workers=1)
    lines = {line.name: line for line in coverage.coverage(result)}
    game = result.game
    assert set(lines) == set(game.event_names) | set(game.end_names)
    # the base game deals a seer and no witch: the seer checks, the witch is not available
    assert lines["seer_checks"].per_game > 0.5 and lines["seer_checks"].mark == ""
    assert lines["witch_saves"].mark == "not available"
    assert lines["mayor_elected"].mark == "not available"  # rules.mayor is off
    assert lines["every player of the wolf camp dead"].per_game == \
        result.tallies["end_counts"][0] / 2_000


def test_an_available_power_nobody_uses_is_marked_never(tmp_path):
    # with the witch dealt but every seat playing at random, she may still act; with the
    # mayor's rule on the election always happens: both are available and occur
    result = runner.run(config.load("werewolf", ["rules.mayor=true"], players=12), 1_000,
                        seed=2, workers=1)
    lines = {line.name: line for line in coverage.coverage(result)}
    assert lines["mayor_elected"].available and lines["mayor_elected"].per_game > 0.9
    # an event the setup makes available but which never happened is marked NEVER
    lines["hanged_seer"].per_game = 0.0
    assert lines["hanged_seer"].mark == "NEVER"
    lines["hanged_seer"].per_game = 0.0005
    assert lines["hanged_seer"].mark == "rare"


def test_the_command_plays_a_config_or_reads_a_result(tmp_path):
    played = run_cli("coverage", "werewolf", "-n", 500, "--workers", 1, "-q")
    assert played.exit_code == 0, played.output
    assert "rule coverage over 500 games" in played.output and "not available" in played.output
    out = tmp_path / "r.json"
    assert run_cli("run", "werewolf", "-n", 300, "--workers", 1, "-q", "-o", out).exit_code == 0
    read = run_cli("coverage", str(out))
    assert read.exit_code == 0 and "over 300 games" in read.output
    one_line_error(run_cli("coverage", str(out), "--set", "players=10"), "no --set")


def test_a_setup_need_reads_the_setup_scrolls_cards_knobs_and_player_count():
    """Vita Mors' spells are available where the setup deals their scrolls (the mode's table at
    the player count), its judgement ties at an even count; Ghost Play's artifacts and spells
    where the Taoist deck holds such cards, its at-once seal where the knob says so."""
    def marks(spec, overrides=(), players=None):
        result = runner.run(config.load(spec, list(overrides), players), 64, seed=1, workers=1)
        return {line.name: line.available for line in coverage.coverage(result)}

    novice, expert = marks("vitamors"), marks("vitamors/expert-8.toml")
    assert novice["spell_gaze"] and novice["spell_swap"] and not novice["spell_brink"]
    assert expert["spell_brink"] and expert["spell_prolong"] and expert["spell_requiem"]
    assert not novice["judgement_ties"] and expert["judgement_ties"]  # 7 and 8 players
    assert not marks("vitamors", ["rules.without=[\"swap\"]"])["spell_swap"]
    assert not marks("vitamors", players=5)["spell_swap"]  # no swap scroll at 5 players
    plain, artifacts = marks("ghostplay"), marks("ghostplay/artifacts.toml")
    assert not plain["artifacts"] and not plain["spells"] and not plain["unpossessed"]
    assert artifacts["artifacts"] and artifacts["spells"] and artifacts["unpossessed"]
    assert not plain["the seal breaks at once (knob)"]
    assert marks("ghostplay", ["rules.seal=\"at-once\""])["the seal breaks at once (knob)"]


def test_coverage_refuses_zero_workers_as_every_command_does():
    one_line_error(run_cli("coverage", "werewolf", "--workers", 0, "-n", 10),
                   "--workers must be at least 1")
