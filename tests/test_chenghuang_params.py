"""Chenghuang configs: the shipped TOML files load, and every bad input is one clear error that
names the key and what is allowed.

Configs go through the platform's own path (simulator.config): the player count, then the game's
declared keys (simulator.schema, from params.KEYS), then the game's `load_params`, which checks
what involves several keys at once.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from simulator import config, schema
from simulator.config import ConfigError
from simulator.games import driver, game_names
from simulator.games.chenghuang import GAME
from simulator.games.chenghuang.declaration import (
    ADVANCED_POOL, BASIC_POOL, CARD, FAN_MODE, ROLE, SET_LEN, T,
)
from simulator.games.chenghuang.params import KEYS, ChenghuangParams, describe_setup

CONFIGS = Path(__file__).resolve().parents[1] / "configs" / "chenghuang"


def read(name: str):
    """A shipped config, loaded as `fairplay run` loads it; its params."""
    return config.load(str(CONFIGS / name)).params


def load(raw):
    """A config dict (the game's keys and `players`) through the platform's validation."""
    return config.resolve(dict(copy.deepcopy(raw), game="chenghuang"), "test.toml",
                          Path(".")).params


def test_default_config_is_the_official_five_player_setup():
    params = read("default.toml")
    assert params == ChenghuangParams(players=5)
    assert params.deck == (4, 6, 6, 6, 4, 4) and params.deck_size == 30
    assert params.role_pool == BASIC_POOL and params.rounds == 4
    assert GAME.default_config == "chenghuang/default.toml"
    assert load({"players": 5}) == params  # every key's default is the official setup


def test_overseers_variant():
    params = read("overseers.toml")
    assert params.rounds == 3 and params.fan_variant == "steal-four" and params.fan_amount == 4
    table = params.table()
    assert table[T.fan_mode] == FAN_MODE.steal_four and table[T.fan_amount] == 4
    # the amount follows the variant unless [scoring] sets it
    assert load({"players": 5, "rules": {"fan": "steal-four"}}).fan_amount == 4
    assert load({"players": 5, "rules": {"fan": "steal-four"},
                 "scoring": {"fan": 2}}).fan_amount == 2


@pytest.mark.parametrize("name,players,cards,pool", [
    ("players-3.toml", 3, 25, BASIC_POOL),
    ("players-4.toml", 4, 25, BASIC_POOL),
    ("players-6.toml", 6, 36, ADVANCED_POOL),
])
def test_player_count_configs(name, players, cards, pool):
    params = read(name)
    assert params.players == players and params.deck_size == cards and params.role_pool == pool
    st = driver.blank_state(GAME, players)
    GAME.setup(params, st)
    assert st.deck_size == cards and st.pool_size == len(pool)
    assert [int((st.deck[:cards] == kind).sum()) for kind in CARD] == list(params.deck)
    assert list(st.pool[:st.pool_size]) == list(pool) and st.rounds == params.rounds


def test_defaults_follow_the_player_count():
    assert load({"players": 3}).deck == (3, 4, 5, 5, 5, 3)
    assert load({"players": 6}).deck == (5, 6, 7, 7, 7, 4)
    assert load({"players": 6}).role_pool == ADVANCED_POOL
    assert load({"players": 4}).role_pool == BASIC_POOL


def test_role_list_and_scoring_table_as_data():
    params = load({"players": 3, "rules": {"roles": ["general-liu", "武判", "civil-judge"]},
                   "scoring": {"loyalty": [1, 4, 9, 16], "judge": 7}})
    assert params.role_pool == (ROLE.general_liu, ROLE.martial_judge, ROLE.civil_judge)
    assert params.pool_name == "custom"
    table = params.table()
    assert list(table[T.set + CARD.loyalty * SET_LEN:T.set + (CARD.loyalty + 1) * SET_LEN]) == \
        [0, 1, 4, 9, 16, 16, 16, 16]
    assert table[T.judge] == 7


def test_five_player_note_names_the_inconsistency():
    notes = describe_setup(read("default.toml"))
    assert "32" in notes["five_player_deck"] and "30" in notes["five_player_deck"]
    assert "per-kind counts are authoritative" in notes["five_player_deck"]
    other = describe_setup(load({"players": 5, "deck": {"killing": 6}}))
    assert "overrides" in other["five_player_deck"] and "32" in other["five_player_deck"]
    assert "five_player_deck" not in describe_setup(load({"players": 4}))
    assert GAME.describe_setup is describe_setup


def test_every_key_is_declared_with_its_meaning():
    """The schema documents itself (`fairplay games chenghuang`, docs/rules/chenghuang.md)."""
    assert GAME.config_keys == KEYS
    table = schema.markdown_table(KEYS)
    for key in KEYS:
        assert key.meaning and key.type.describe() and key.describe_default()
        assert f"`{key.path}`" in table
    assert {key.path.split(".")[0] for key in KEYS} == {"rules", "deck", "scoring"}


BAD = [
    # (raw config, the key named, words the message must contain)
    ({"players": 7}, "players", ("3..6",)),
    ({"players": 2}, "players", ("3..6",)),
    ({"players": "five"}, "players", ("integer",)),
    ({"players": 5, "deck": {"killing": 0, "benevolence": 0, "treachery": 0}}, "deck",
     ("at least 30",)),
    ({"players": 5, "deck": {"killing": -1}}, "deck.killing", ("integer from 0",)),
    ({"players": 5, "deck": {"killing": 100, "theft": 100}}, "deck", ("at most 128",)),
    ({"players": 5, "deck": {"dragons": 2}}, "deck.dragons",
     ("unknown key", "allowed:", "killing")),
    ({"players": 5, "rules": {"roles": ["general-liu", "dragon-king"]}}, "rules.roles",
     ("unknown role 'dragon-king'",)),
    ({"players": 4, "rules": {"roles": ["general-liu", "general-gan", "ox-head"]}},
     "rules.roles", ("3 roles but 4 players",)),
    ({"players": 6, "rules": {"roles": "basic"}}, "rules.roles", ("advanced",)),
    ({"players": 5, "rules": {"roles": ["general-liu", "general-liu", "ox-head"]}},
     "rules.roles", ("twice",)),
    ({"players": 5, "rules": {"roles": "expert"}}, "rules.roles", ("basic",)),
    ({"players": 5, "rules": {"fan": "steal-five"}}, "rules.fan", ("minus-one", "steal-four")),
    ({"players": 5, "rules": {"rounds": 0}}, "rules.rounds", ("from 1 to 16",)),
    ({"players": 5, "rules": {"turns": 3}}, "rules.turns",
     ("unknown key", "allowed:", "rounds", "roles", "fan")),
    ({"players": 5, "scoring": {"loyalty": [1, 2, 3, 4, 5, 6, 7, 8]}}, "scoring.loyalty",
     ("1 to 7 integers",)),
    ({"players": 5, "scoring": {"killing": 6.5}}, "scoring.killing", ("integer",)),
    ({"players": 5, "scoring": {"judge": -5}}, "scoring.judge", ("at least 0",)),
    ({"players": 5, "scoring": {"bonus": 1}}, "scoring.bonus", ("allowed",)),
    ({"players": 5, "score": {}}, "score", ("unknown key",)),
    ({"players": 5, "seed": 3}, "seed", ("unknown key", "allowed:", "rules", "deck", "scoring")),
    ({"players": 5, "deck": 30}, "deck", ("must be a table",)),
]


@pytest.mark.parametrize("raw,key,words", BAD)
def test_bad_configs_name_the_key_and_what_is_allowed(raw, key, words):
    with pytest.raises(ConfigError) as error:
        load(raw)
    assert error.value.key == key and error.value.file == "test.toml"
    for word in words:
        assert word in error.value.message
    assert str(error.value).startswith(f"test.toml: {key}: ")  # one line: file, key, message


def test_the_platform_loads_and_runs_the_shipped_configs():
    """Through simulator.config and simulator.runner, as `fairplay run` does."""
    from simulator import runner

    assert "chenghuang" in game_names()
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
