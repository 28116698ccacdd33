"""The players' standard (simulator/studies/standard.py, docs/strategies.md) on every game's standard
configs, on small runs with fixed seeds: the people-like players beat `random` for every team,
every available event and ending occurs (or the game says why good players never bring it about),
and no seat wins more than the tolerance above the table's average. The exploitability figures
come from `benchmarks/bench_players.py`, not from a test.

Bounds: each assertion is the 95% interval of the quantity on the side the standard names (the
gain over random above 0; a seat's difference not wholly beyond ±2 points), so a game that met
the standard by only a hair would fail here as it should, and a fixed seed makes every run the
same. Coverage asserts that each event occurs at least once in COVERAGE_GAMES games: an event of
the rare threshold's double (0.2% of games) is missed with probability exp(−0.002 · 10,000) =
exp(−20)."""

import math

import pytest

from simulator.studies import standard
from simulator.games import game_names, get_game

GAMES = [g for g in game_names(listed_only=True) if get_game(g).standard_configs]
BEAT_GAMES = 4_000
COVERAGE_GAMES = 10_000


def test_every_game_names_its_measuring_strategy_and_standard_configs():
    assert set(GAMES) == {"werewolf", "chenghuang", "ghostplay", "salem", "vitamors"}
    for name in GAMES:
        game = get_game(name)
        assert game.measuring_strategy in game.strategies(), name
        assert len(game.standard_configs) >= 3, name
        counts = {setup.load().players for setup in standard.setups(game)}
        assert len(counts) >= 3, f"{name}: three player counts"
        events = set(game.event_names) | set(game.end_names)
        assert set(game.never_used or {}) <= events, name
        assert all(len(why) > 20 for why in (game.never_used or {}).values()), name


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_people_beat_random_for_every_team(name):
    game = get_game(name)
    for setup in standard.setups(game):
        for target in standard.targets(setup.load()):
            out = standard.beats_random(setup, target, BEAT_GAMES, seed=5, workers=1)
            assert out["low"] > 0, (f"{setup.config} {target.label}: people "
                                    f"{out['people_rate']:.3f} vs random "
                                    f"{out['random_rate']:.3f}, gain CI {out['low']:+.3f} to "
                                    f"{out['high']:+.3f}")


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_every_available_event_occurs_and_no_seat_is_favoured(name):
    game = get_game(name)
    for setup in standard.setups(game):
        played = standard.play(setup, COVERAGE_GAMES, seed=6, workers=1)
        # what never occurs although the setup allows it, and no reason says why
        never = {line.name for line in played.gaps if line.per_game == 0}
        assert never == set(), setup.config
        favoured = [f.name for f in played.seats if f.beyond]
        assert not favoured, f"{setup.config}: seats beyond ±2 points: {favoured}"
        assert all(math.isfinite(f.rate.value) for f in played.seats)


def test_beats_random_and_the_seat_target_on_an_individual_game():
    """An individual game is measured at seat 0 against the rest of the table."""
    game = get_game("chenghuang")
    setup = standard.setups(game)[0]
    targets = standard.targets(setup.load())
    assert [t.label for t in targets] == ["seat 0"]
    out = standard.beats_random(setup, targets[0], 640, seed=1, workers=1)
    assert 0 <= out["random_rate"] <= 1 and 0 <= out["people_rate"] <= 1
    assert out["low"] <= out["gain"] <= out["high"]


def test_a_setup_keeps_the_configs_own_players_or_seats_the_measuring_strategy_everywhere():
    """A config whose every seat plays the measuring strategy is measured as it is (with the
    parameters it gives); any other (a config that plays `random`) gets the measuring strategy at
    every seat."""
    werewolf = standard.Setup("werewolf/standard-16.toml", "people")
    assert werewolf.overrides == []
    chenghuang = standard.Setup("chenghuang/random.toml", "balanced")
    assert chenghuang.overrides == ['strategies={ all = "balanced" }']
    assert {slot.name for slot in chenghuang.load().slots} == {"balanced"}
