"""Setups a game cannot be played with as it intends: each game declares them (`SETUP_CHECKS`,
simulator.games.base.SetupCheck), and loading a config refuses them in one line naming the key.
Each game's own checks are tested with its configs (test_ghostplay_config.py,
test_salem_params.py, test_vitamors_params.py); this file tests the hook."""

from __future__ import annotations

import dataclasses
import importlib

import pytest

from simulator.setup import config
from simulator.setup.describe import game_lines
from simulator.games import EXAMPLES, GAMES, game_names, get_game
from simulator.games.base import SetupCheck


@pytest.mark.parametrize("name", game_names())
def test_the_declared_checks_are_the_games_and_name_its_keys(name):
    game = get_game(name)
    declaration = importlib.import_module({**GAMES, **EXAMPLES}[name] + ".declaration")
    assert game.setup_checks == tuple(getattr(declaration, "SETUP_CHECKS", ()))
    paths = {key.path for key in game.config_keys}
    for check in game.setup_checks:
        assert isinstance(check, SetupCheck) and check.words
        assert check.key in paths, f"{name}: {check.key} is not a config key"


@pytest.mark.parametrize("name", game_names())
def test_every_built_in_config_passes_its_games_checks(name):
    for path, _ in config.builtin_configs(name) or [(name, "")]:
        cfg = config.load(path)
        assert cfg.game.setup_refusal(cfg.params) is None, path


@pytest.mark.parametrize("name", [name for name in game_names() if get_game(name).setup_checks])
def test_fairplay_games_lists_the_refused_setups(name):
    game = get_game(name)
    lines = game_lines(game)
    at = lines.index("  setups refused (the game cannot be played with them as it intends):")
    assert lines[at + 1:at + 1 + len(game.setup_checks)] == \
        [f"    - {check.words} ({check.key})" for check in game.setup_checks]


def test_the_first_failing_check_is_refused_with_its_key():
    game = get_game("ghostplay")
    checks = (SetupCheck("rules.draw", "never", lambda params: ""),
              SetupCheck("rules.card_cost", "always", lambda params: "why, and what to change"),
              SetupCheck("rules.king_draw", "also", lambda params: "not reached"))
    changed = dataclasses.replace(game, setup_checks=checks)
    params = config.load("ghostplay").params
    assert changed.setup_refusal(params) == ("rules.card_cost", "why, and what to change")
    assert dataclasses.replace(game, setup_checks=checks[:1]).setup_refusal(params) is None


def test_a_malformed_setup_check_is_refused_at_registration():
    with pytest.raises(ValueError, match="SETUP_CHECKS"):
        dataclasses.replace(get_game("ghostplay"), setup_checks=(lambda params: "",))
