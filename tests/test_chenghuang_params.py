"""Chenghuang configs: the shipped TOML files load, and every bad input is one clear error that
names the key and what is allowed."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from simulator.config import COMMON_KEYS, ConfigContext, ConfigError, read_toml
from simulator.games.chenghuang import GAME, build_setup, describe_setup
from simulator.games.chenghuang.declaration import (
    ADVANCED_POOL, BASIC_POOL, CIVIL, FAN_STEAL, LIU, LOYALTY, MARTIAL, T_FAN_AMOUNT,
    T_FAN_MODE, T_JUDGE, T_SET, SET_LEN,
)
from simulator.games.chenghuang.params import ChenghuangParams, load_params

CONFIGS = Path(__file__).resolve().parents[1] / "configs" / "chenghuang"


def read(name: str) -> dict:
    """A shipped config with `extends` resolved by the platform's reader; the platform's own keys
    are removed as simulator.config does before calling the game's load_params."""
    raw = read_toml(CONFIGS / name)
    return {key: value for key, value in raw.items() if key not in COMMON_KEYS or key == "players"}


def load(raw):
    return load_params(raw, ConfigContext("test.toml", Path(".")))


def test_default_config_is_the_official_five_player_setup():
    params = load(read("default.toml"))
    assert params == ChenghuangParams(players=5)
    assert params.deck == (4, 6, 6, 6, 4, 4) and params.deck_size == 30
    assert params.role_pool == BASIC_POOL and params.rounds == 4
    assert GAME.default_config == "chenghuang/default.toml"


def test_overseers_variant():
    params = load(read("overseers.toml"))
    assert params.rounds == 3 and params.fan_variant == "steal-four" and params.fan_amount == 4
    table = params.table()
    assert table[T_FAN_MODE] == FAN_STEAL and table[T_FAN_AMOUNT] == 4


@pytest.mark.parametrize("name,players,cards,pool", [
    ("players-3.toml", 3, 25, BASIC_POOL),
    ("players-4.toml", 4, 25, BASIC_POOL),
    ("players-6.toml", 6, 36, ADVANCED_POOL),
])
def test_player_count_configs(name, players, cards, pool):
    params = load(read(name))
    assert params.players == players and params.deck_size == cards and params.role_pool == pool
    setup = build_setup(params)
    assert setup.deck.size == cards and setup.pool.size == len(pool)


def test_defaults_follow_the_player_count():
    assert load({"players": 3}).deck == (3, 4, 5, 5, 5, 3)
    assert load({"players": 6}).deck == (5, 6, 7, 7, 7, 4)
    assert load({"players": 6}).role_pool == ADVANCED_POOL
    assert load({"players": 4}).role_pool == BASIC_POOL


def test_role_list_and_scoring_table_as_data():
    params = load({"players": 3, "rules": {"roles": ["general-liu", "武判", "civil-judge"]},
                   "scoring": {"loyalty": [1, 4, 9, 16], "judge": 7}})
    assert params.role_pool == (LIU, MARTIAL, CIVIL) and params.pool_name == "custom"
    table = params.table()
    assert list(table[T_SET + LOYALTY * SET_LEN:T_SET + (LOYALTY + 1) * SET_LEN]) == \
        [0, 1, 4, 9, 16, 16, 16, 16]
    assert table[T_JUDGE] == 7


def test_five_player_note_names_the_inconsistency():
    notes = describe_setup(load(read("default.toml")))
    assert "32" in notes["five_player_deck"] and "30" in notes["five_player_deck"]
    assert "per-kind counts are authoritative" in notes["five_player_deck"]
    other = describe_setup(load({"players": 5, "deck": {"killing": 6}}))
    assert "overrides" in other["five_player_deck"] and "32" in other["five_player_deck"]
    assert "five_player_deck" not in describe_setup(load({"players": 4}))
    assert GAME.describe_setup is describe_setup


BAD = [
    # (raw config, the key named, words the message must contain)
    ({"players": 7}, "players", "from 3 to 6"),
    ({"players": 2}, "players", "from 3 to 6"),
    ({"players": "five"}, "players", "integer"),
    ({"players": 5, "deck": {"killing": 0, "benevolence": 0, "treachery": 0}}, "deck",
     "at least 30"),
    ({"players": 5, "deck": {"killing": -1}}, "deck.killing", "non-negative"),
    ({"players": 5, "deck": {"dragons": 2}}, "deck.dragons", "allowed: killing"),
    ({"players": 5, "rules": {"roles": ["general-liu", "dragon-king"]}}, "rules.roles",
     "unknown role 'dragon-king'"),
    ({"players": 4, "rules": {"roles": ["general-liu", "general-gan", "ox-head"]}},
     "rules.roles", "3 roles but 4 players"),
    ({"players": 6, "rules": {"roles": "basic"}}, "rules.roles", "advanced"),
    ({"players": 5, "rules": {"roles": ["general-liu", "general-liu", "ox-head"]}},
     "rules.roles", "twice"),
    ({"players": 5, "rules": {"roles": "expert"}}, "rules.roles", "basic"),
    ({"players": 5, "rules": {"fan": "steal-five"}}, "rules.fan", "minus-one, steal-four"),
    ({"players": 5, "rules": {"rounds": 0}}, "rules.rounds", "from 1 to 16"),
    ({"players": 5, "rules": {"turns": 3}}, "rules.turns", "allowed: rounds, roles, fan"),
    ({"players": 5, "scoring": {"loyalty": [1, 2, 3, 4, 5, 6, 7, 8]}}, "scoring.loyalty",
     "1 to 7 integers"),
    ({"players": 5, "scoring": {"killing": 6.5}}, "scoring.killing", "integer"),
    ({"players": 5, "scoring": {"judge": -5}}, "scoring.judge", "non-negative"),
    ({"players": 5, "scoring": {"bonus": 1}}, "scoring.bonus", "allowed"),
    ({"players": 5, "score": {}}, "score", "unknown key"),
    ({"players": 5, "seed": 3}, "seed", "allowed: players, rules, deck, scoring"),
    ({"players": 5, "deck": 30}, "deck", "must be a table"),
]


@pytest.mark.parametrize("raw,key,words", BAD)
def test_bad_configs_name_the_key_and_what_is_allowed(raw, key, words):
    with pytest.raises(ConfigError) as error:
        load(copy.deepcopy(raw))
    assert error.value.key == key and error.value.file == "test.toml"
    assert words in error.value.message
    assert str(error.value).startswith(f"test.toml: {key}: ")  # one line: file, key, message


def test_the_platform_loads_and_runs_the_shipped_configs(monkeypatch):
    """Through simulator.config and simulator.runner, as `fairplay run` does (the game is added to
    the registry here in case the registry does not list it)."""
    import simulator.games as games
    from simulator import config, runner

    monkeypatch.setitem(games._PACKAGES, "chenghuang", "simulator.games.chenghuang")
    cfg = config.load(str(CONFIGS / "overseers.toml"))
    assert cfg.params.rounds == 3 and cfg.params.fan_variant == "steal-four"
    assert "five_player_deck" in cfg.notes
    result = runner.run(cfg, 300, seed=1, workers=1)
    assert "chenghuang: 300 games" in result.summary().table()
    lines = runner.trace_game(cfg, seed=2)
    assert lines[0] == "== round 1 ==" and lines[-1].startswith("winner: seat")
    with pytest.raises(ConfigError) as error:
        config.load(str(CONFIGS / "default.toml"), overrides=["deck.killing=-2"])
    assert error.value.key == "deck.killing"
