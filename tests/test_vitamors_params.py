"""Vita Mors Conspiro configs: the source's tables per player count and mode, the provisional deck
and effects as data a designer edits, and every bad input one clear line (exit code 2)."""

from __future__ import annotations

import re

import numpy as np
import pytest
from click.testing import CliRunner

from simulator.setup import config
from simulator.cli import main
from simulator.setup.config import ConfigError
from simulator.games import driver
from simulator.games.vitamors import GAME
from simulator.games.vitamors.declaration import EV, ITEM, ITEMS, OBS
from simulator.games.vitamors.params import describe_setup
from simulator.statistics.summary import summarize

NOVICE = {5: (2, 2, 0, 1, 0, 0, 0), 6: (3, 3, 0, 1, 1, 0, 0), 7: (3, 3, 0, 1, 1, 0, 0),
          8: (3, 3, 0, 1, 1, 0, 0), 9: (3, 4, 0, 1, 1, 0, 0), 10: (4, 4, 0, 2, 1, 0, 0)}
EXPERT = {5: (2, 2, 1, 1, 0, 1, 1), 6: (3, 3, 1, 1, 1, 1, 1), 7: (3, 3, 1, 1, 1, 1, 1),
          8: (3, 3, 2, 1, 1, 1, 1), 9: (3, 3, 2, 1, 1, 1, 1), 10: (3, 4, 2, 1, 1, 1, 1)}
JESTERS = {5: 2, 6: 2, 7: 2, 8: 3, 9: 3, 10: 3}


@pytest.mark.parametrize("players", range(5, 11))
def test_the_setup_tables_per_player_count_and_mode(players):
    # the source's 第２頁 and 第３頁 tables, in ITEMS order (gaze, peek, brink, veil, swap,
    # prolong, requiem)
    assert ITEMS == ("gaze", "peek", "brink", "veil", "swap", "prolong", "requiem")
    novice = config.load("vitamors", players=players).params
    expert = config.load("configs/vitamors/expert.toml", players=players).params
    assert novice.knobs.mode == "novice" and expert.knobs.mode == "expert"
    assert novice.jesters == expert.jesters == JESTERS[players]
    assert novice.scrolls == NOVICE[players]
    assert expert.scrolls == EXPERT[players]


def test_editing_the_character_deck_changes_the_run():
    # Every card of rank 6: the deal shows it, the Death Altar can never hold two pairs of
    # different ranks, and every game with three cards on the Life Altar shows the life pattern.
    cfg = config.load("vitamors", ["deck.ranks=[0, 0, 0, 0, 0, 24]"])
    assert cfg.params.deck == (0, 0, 0, 0, 0, 24)
    st = driver.new_state(GAME, cfg.params, cfg.lineup)
    assert st.obs[OBS.deck:OBS.deck + 6].tolist() == [0, 0, 0, 0, 0, 24]
    assert set(st.deck_rank[:24].tolist()) == {5}
    tallies, rows = driver.play(GAME, cfg.params, cfg.lineup, 300, np.random.default_rng(4),
                                trace_rows=400, trace_game=0)
    lines = GAME.decode_trace(rows, cfg.params)
    assert sum(bool(re.search(r"seat \d+: \S+ \w+, holds rank 6", line)) for line in lines) == 7
    assert tallies["events"][EV.death_pattern] == 0
    life_three = tallies["life_cards_hist"][3:].sum()
    assert life_three > 0
    rituals_with_three = tallies["events"][EV.life_pattern]
    assert rituals_with_three > 0
    # the default deck, for comparison: some Death Altar patterns
    base = config.load("vitamors")
    tallies, _ = driver.play(GAME, base.params, base.lineup, 300, np.random.default_rng(4))
    assert tallies["events"][EV.death_pattern] > 0


def test_the_jesters_may_keep_schemes_aside_when_the_knob_says_so():
    cfg = config.load("vitamors", ['rules.jesters_swap="choose"', 'strategies.all="random"'])
    assert cfg.params.knobs.jesters_swap == "choose"
    _, rows = driver.play(GAME, cfg.params, cfg.lineup, 40, np.random.default_rng(2),
                          trace_rows=20_000)
    lines = GAME.decode_trace(rows, cfg.params)
    assert any("keep 遮蔽 Veil aside" in line or "keep 替換 Swap aside" in line for line in lines)
    assert any("in place of the scythe" in line for line in lines)


def test_a_scheme_left_out_is_not_in_the_setup():
    params = config.load("vitamors", ['rules.without=["swap"]']).params
    assert params.scrolls[ITEM.swap] == 0 and params.scrolls[ITEM.veil] == 1
    assert "left out of the setup: swap" in describe_setup(params)["without"]


def test_every_setup_says_the_rules_are_provisional():
    for overrides in ([], ['rules.mode="expert"'], ['effects.gaze="nothing"']):
        notes = config.load("vitamors", overrides).notes
        assert "provisional" in notes["provisional"]
        assert "provisional" in notes["effects"]
    notes = config.load("vitamors", ['effects.gaze="nothing"']).notes
    assert "gaze = nothing" in notes["effects"]
    assert "provisional" in GAME.decode_trace(np.zeros((0, 6), np.int64), None)[0]
    from simulator.run import runner

    summary = summarize(runner.run(config.load("vitamors"), 200, seed=1, workers=1)).table()
    assert summary.splitlines()[-1].startswith(
        f"Provisional: the result depends on {len(GAME.provisional)} rulings")
    assert "  provisional: " in summary  # the setup notes under the header say so too


BAD = [
    (['rules.mode="master"'], "rules.mode", "novice"),
    (["rules.jesters=7"], "rules.jesters", "no exile"),
    (["scrolls.novice.7={ gaze = 0, peek = 0, veil = 0, swap = 0 }"], "scrolls.novice",
     "at least one scythe"),
    (["scrolls.novice.7={ dragon = 1 }"], "scrolls.novice", "unknown item"),
    (["scrolls.novice.7={ gaze = 1, peek = 0, veil = 1, swap = 1 }"], "scrolls.novice",
     "2 schemes to place but only 1 scythes"),
    (["deck.ranks=[2, 2]"], "deck.ranks", "cannot deal"),
    (["deck.ranks=[40, 40]"], "deck.ranks", "at most 60"),
    (['effects.gaze="fireball"'], "effects.gaze", "see-sacrifice"),
    (["rules.ritual_votes=8"], "rules.ritual_votes", "cannot come from"),
    (["rules.card_limit=2"], "rules.card_limit", "from 3"),
]


def test_altar_thresholds_no_game_could_reach_are_refused():
    """A ritual vote needs 3 Life or 4 Death Altar cards, and 9 cards on both altars end the game
    (10 once Prolong Life raised the limit): thresholds above the longest game leave no ritual,
    and the jesters would win every game (the setup check `rules.life_cards`)."""
    with pytest.raises(ConfigError) as error:
        config.load("vitamors", ["rules.life_cards=10", "rules.death_cards=12"])
    assert error.value.key == "rules.life_cards"
    assert "both altars hold 9 together: no ritual could ever be voted" in error.value.message
    assert "to 9 or less" in error.value.message
    # one threshold within the limit is enough; Prolong Life raises it in expert mode
    assert config.load("vitamors", ["rules.life_cards=9", "rules.death_cards=12"])
    assert config.load("vitamors", ["rules.life_cards=12", "rules.death_cards=9"])
    expert = ['rules.mode="expert"', "rules.death_cards=12"]
    assert config.load("vitamors", expert + ["rules.life_cards=10"])
    with pytest.raises(ConfigError) as error:
        config.load("vitamors", expert + ["rules.life_cards=11"])
    assert "both altars hold 10 together" in error.value.message


@pytest.mark.parametrize("overrides, key, words", BAD)
def test_bad_configs_name_the_key_and_what_is_allowed(overrides, key, words):
    with pytest.raises(ConfigError) as error:
        config.load("vitamors", overrides)
    assert error.value.key == key, str(error.value)
    assert words in error.value.message
    assert len(str(error.value).splitlines()) == 1


@pytest.mark.parametrize("overrides, key, words", BAD[:4] + BAD[5:6])
def test_bad_configs_exit_2_with_one_line(overrides, key, words):
    args = ["run", "vitamors", "-n", "10", "--workers", "1", "-q", "-o", "-"]
    for override in overrides:
        args += ["--set", override]
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code == 2, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and key in lines[0] and words in lines[0], result.stderr
    assert "Traceback" not in result.output
