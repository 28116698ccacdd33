"""Chenghuang configs: the shipped TOML files load, and every bad input is one clear error that
names the key and what is allowed.

Configs go through the platform's own path (simulator.setup.config): the player count, then the game's
declared keys (simulator.schema, from params.KEYS), then the game's `load_params`, which checks
what involves several keys at once.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from simulator.setup import config
from simulator import schema
from simulator.setup.config import ConfigError
from simulator.games import driver, game_names
from simulator.games.chenghuang import GAME
from simulator.games.chenghuang.declaration import (
    ADVANCED_POOL, BASIC_POOL, CARD, FAN_MODE, OFFICIAL_DECK, ROLE, SET_LEN, T,
)
from simulator.games.chenghuang.params import KEYS, ChenghuangParams, describe_setup
from simulator.statistics.summary import summarize

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
    assert params.role_pool == BASIC_POOL and params.knobs.rounds == 4
    assert GAME.default_config == "chenghuang/default.toml"
    assert load({"players": 5}) == params  # every key's default is the official setup


def test_overseers_variant():
    # the English reprint as sold: all nine roles (its one deck of Overseers), 3 rounds, and
    # 范將軍 steals 4 points
    params = read("overseers.toml")
    assert params.knobs.rounds == 3
    assert params.fan_variant == "steal-four" and params.fan_amount == 4
    assert params.role_pool == ADVANCED_POOL and params.pool_name == "advanced"
    assert params.deck == OFFICIAL_DECK[5]
    table = params.table()
    assert table[T.fan_mode] == FAN_MODE.steal_four and table[T.fan_amount] == 4
    # the amount follows the variant unless [scoring] sets it
    assert load({"players": 5, "rules": {"fan": "steal-four"}}).fan_amount == 4
    assert load({"players": 5, "rules": {"fan": "steal-four"},
                 "scoring": {"fan": 2}}).fan_amount == 2


def test_overseers_steal_four_fires():
    """范將軍 is in the Overseers pool, so its steal happens: with 5 of 9 roles dealt a round, it
    is at the table in 5/9 of the rounds (about 1.7 of 3 rounds a game)."""
    from simulator.run import runner

    cfg = config.load(str(CONFIGS / "overseers.toml"))
    result = runner.run(cfg, 300, seed=3, workers=1)
    events = dict(zip(GAME.event_names, result.tallies["events"]))
    assert events["fan_penalties"] > 300  # about 500 expected; at least one a game on average
    assert events["rounds"] == 900


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_every_player_count_plays_its_official_setup(players):
    """`fairplay run chenghuang --players N` and a sweep over players=3..6: the official deck
    and role pool for each count."""
    official_pool = ADVANCED_POOL if players == 6 else BASIC_POOL
    cfg = config.load("chenghuang", players=players)
    assert cfg.params.deck == OFFICIAL_DECK[players] and cfg.params.role_pool == official_pool
    assert cfg.params.deck_is_official and "deck_differs" not in cfg.notes
    assert "roles_differ" not in cfg.notes
    assert cfg.params.deck_size == {3: 25, 4: 25, 5: 30, 6: 36}[players]
    assert f"{cfg.params.deck_size} cards" in cfg.notes["deck"]
    assert "the official deck for this player count" in cfg.notes["deck"]


def test_a_sweep_over_players_plays_four_official_setups():
    from simulator.studies import sweep

    plan, configs = sweep.plan("chenghuang", [sweep.parse_vary("players=3..6")], 10, 0)
    assert [cell.status for cell in plan.cells].count("invalid") == 0
    assert sorted(cfg.params.players for cfg in configs.values()) == [3, 4, 5, 6]
    for cfg in configs.values():
        assert cfg.params.deck == OFFICIAL_DECK[cfg.params.players]
        assert cfg.params.role_pool == (ADVANCED_POOL if cfg.params.players == 6 else BASIC_POOL)


def test_a_setup_that_differs_from_the_official_one_is_named():
    notes = describe_setup(load({"players": 4, "deck": {"killing": 4, "theft": 4}}))
    assert notes["deck_differs"].startswith("NOT the official 4-player deck of 25 cards")
    assert "殺生 4 (official 3)" in notes["deck_differs"] and "竊盜 4 (official 3)" in \
        notes["deck_differs"]
    assert "official deck" not in notes["deck"]
    notes = describe_setup(load({"players": 4, "rules": {"roles": ["general-liu", "ox-head",
                                                                   "general-fan", "武判"]}}))
    assert notes["roles_differ"].startswith("NOT an official role pool")
    notes = describe_setup(load({"players": 4, "rules": {"roles": "advanced"}}))
    assert "the default for 4 players is the basic pool" in notes["roles"]
    assert "roles_differ" not in notes and "deck_differs" not in notes
    # the knob for the S abilities is named too
    assert "showdown-only" in describe_setup(
        load({"players": 6, "rules": {"s_abilities": "showdown-only"}}))["s_abilities"]


@pytest.mark.parametrize("name,players,cards,pool", [
    ("players-3.toml", 3, 25, BASIC_POOL),
    ("players-4.toml", 4, 25, BASIC_POOL),
    ("players-6.toml", 6, 36, ADVANCED_POOL),
])
def test_player_count_configs(name, players, cards, pool):
    params = read(name)
    assert params.players == players and params.deck_size == cards and params.role_pool == pool
    st = driver.blank_state(GAME, players)
    driver.setup_state(GAME, params, st)
    assert st.deck_size == cards and st.pool_size == len(pool)
    assert [int((st.deck[:cards] == kind).sum()) for kind in CARD] == list(params.deck)
    assert list(st.pool[:st.pool_size]) == list(pool) and st.rounds == params.knobs.rounds


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
    ({"players": 5, "rules": {"s_abilities": "never"}}, "rules.s_abilities",
     ("always", "showdown-only")),
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
    """Through simulator.setup.config and simulator.run.runner, as `fairplay run` does."""
    from simulator.run import runner

    assert "chenghuang" in game_names()
    cfg = config.load(str(CONFIGS / "overseers.toml"))
    assert cfg.params.knobs.rounds == 3 and cfg.params.fan_variant == "steal-four"
    assert "five_player_deck" in cfg.notes
    result = runner.run(cfg, 300, seed=1, workers=1)
    assert "chenghuang: 300 games" in summarize(result).table()
    lines = runner.trace_game(cfg, seed=2)
    assert lines[0] == "== round 1 ==" and lines[-1].startswith("winner: seat")
    with pytest.raises(ConfigError) as error:
        config.load(str(CONFIGS / "default.toml"), overrides=["deck.killing=-2"])
    assert error.value.key == "deck.killing"


def test_the_report_of_a_four_player_run_shows_the_25_card_deck():
    from reports import render
    from simulator.run import runner

    cfg = config.load("chenghuang", players=4)
    page = render.render_run_report(runner.run(cfg, 50, seed=1, workers=1))
    assert "25 cards (殺生 3, 仁愛 4, 奸惡 5, 忠信 5, 孝行 5, 竊盜 3)" in page
    assert "the official deck for this player count" in page
    other = config.load("chenghuang", players=4, overrides=["deck.killing=4"])
    page = render.render_run_report(runner.run(other, 50, seed=1, workers=1))
    assert "NOT the official 4-player deck of 25 cards" in page
