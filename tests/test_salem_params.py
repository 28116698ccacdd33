"""Salem configs: the tryal table and the deck are data a designer can change, the shipped
configs load, and every bad config is one clear line naming the key, with exit code 2."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from simulator.setup import config
from simulator.cli import main
from simulator.setup.config import ConfigError
from simulator.games.salem.declaration import CARD, CARDS, CHARACTERS, TRYAL
from simulator.games.salem.params import KEYS, PUBLISHED_DECK, describe_setup, published_table

CONFIGS = Path(__file__).resolve().parents[1] / "configs" / "salem"

# The published rulebook's table (docs/rules/salem.md), players -> (not a witch, witch,
# constable, each).
TABLE = {4: (18, 1, 1, 5), 5: (23, 1, 1, 5), 6: (27, 2, 1, 5), 7: (32, 2, 1, 5),
         8: (29, 2, 1, 4), 9: (33, 2, 1, 4), 10: (27, 2, 1, 3), 11: (30, 2, 1, 3),
         12: (33, 2, 1, 3)}


def load(players=8, *sets):
    return config.load("salem", list(sets), players).params


@pytest.mark.parametrize("players", sorted(TABLE))
def test_the_published_tryal_table_deals_evenly(players):
    p = load(players)
    nw, w, c, each = TABLE[players]
    assert p.tryals == (nw, w, c) and p.tryals_each == each
    assert published_table()[players] == {"not_a_witch": nw, "witch": w, "constable": c}


def test_the_deck_has_the_59_published_cards():
    p = load()
    assert sum(p.deck) == 59 and sum(PUBLISHED_DECK.values()) == 59
    assert p.deck[CARD.accusation] == 35 and p.deck[CARD.evidence] == 5
    assert p.deck[CARD.witness] == 1 and p.deck[CARD.night] == 1
    assert p.deck[CARD.conspiracy] == 1 and p.deck[CARD.black_cat] == 1
    assert len(p.characters) == len(CHARACTERS) == 15
    assert p.knobs.starting_hand == 3 and p.knobs.accusations == 7 and not p.draft


def test_a_designer_changes_any_count():
    p = load(8, "deck.accusation=30", "tryals.8.witch=3", "tryals.8.not_a_witch=28")
    assert p.deck[CARD.accusation] == 30 and p.tryals == (28, 3, 1)
    assert "published deck" in describe_setup(p)["deck"]


def test_the_extra_witch_variant_replaces_a_not_a_witch():
    assert load(8, "variants.extra_witch=true").tryals == (28, 3, 1)
    assert load(5, "variants.extra_witch=true").tryals == (22, 2, 1)


@pytest.mark.parametrize("players, rule, draft", [
    (6, "lt7", True), (7, "lt7", False), (7, "le7", True), (8, "le7", False), (5, "off", False),
])
def test_deal_two_keep_one_by_player_count(players, rule, draft):
    assert load(players, f'rules.character_draft="{rule}"').draft is draft


def test_the_knobs_reach_the_params():
    p = load(8, 'rules.black_cat_chooser="drawer"', "rules.night_resumes_turn=true",
             'rules.piety="double_threshold"', 'variants.conspiracy="middle"',
             "variants.dead_silent=true", "rules.last_convert_loses=true",
             'rules.john_proctor="blind"', 'rules.ann_putnam="at_once"', "rules.tituba_depth=5",
             "rules.starting_hand=2", 'rules.ann_putnam_held="at_draw"')
    k = p.knobs
    assert k.black_cat_chooser == "drawer" and k.night_resumes_turn and k.conspiracy == "middle"
    assert k.piety == "double_threshold" and k.john_proctor == "blind"
    assert k.dead_silent and k.last_convert_loses and k.ann_putnam == "at_once"
    assert k.ann_putnam_held == "at_draw" and load(8).knobs.ann_putnam_held == "at_reveal"
    assert k.tituba_depth == 5 and k.starting_hand == 2


@pytest.mark.parametrize("name", ["default.toml", "draft-5.toml", "extra-witch.toml"])
def test_the_shipped_configs_load(name):
    assert config.load(str(CONFIGS / name)).game.name == "salem"


# --- bad configs: one line, exit code 2 ------------------------------------------------------------
BAD = [
    # a tryal table that does not deal evenly
    (["tryals.8.not_a_witch=30"], "tryals.8", "do not deal evenly"),
    # no witch
    (["tryals.8.witch=0", "tryals.8.not_a_witch=31"], "tryals.8.witch", "at least 1 Witch"),
    # no Night card
    (["deck.night=0"], "deck.night", "no Night card"),
    # an unknown character
    (['characters=["tituba", "cotton-mathers", "will-griggs", "sarah-good", "ann-putnam", '
      '"mary-warren", "john-proctor", "giles-corey"]'], "characters", "cotton-mathers"),
    # too few characters to deal
    (['characters=["tituba", "will-griggs"]'], "characters", "cannot deal"),
    (["tryals.8.constable=2", "tryals.8.not_a_witch=28"], "tryals.8.constable", "at most 1"),
    (["deck.black_cat=2"], "deck.black_cat", "at most 1"),
    (["rules.starting_hand=10", "deck.accusation=10"], "rules.starting_hand", "cannot deal"),
]


def _refusal(*sets, players=8):
    try:
        load(players, *sets)
    except ConfigError as error:
        return error
    return None


def test_a_table_that_deals_every_player_a_witch_is_refused():
    """Every player with a Witch tryal is on the witch team: with fewer other tryals than a row
    holds, nobody could start in the town (the setup check `tryals`)."""
    error = _refusal("tryals.8={ not_a_witch = 2, witch = 29, constable = 1 }")
    assert error.key == "tryals" and "only 3 of the 32 tryal cards are not a Witch" \
        in error.message and "no town" in error.message and "tryals.8" in error.message
    assert _refusal("tryals.8={ not_a_witch = 3, witch = 28, constable = 1 }") is None
    error = _refusal("tryals.4={ not_a_witch = 1, witch = 18, constable = 1 }", players=4)
    assert error.key == "tryals" and "the 5 each player is dealt" in error.message


# Eight characters without Will Griggs (Alibis as Witnesses) or Thomas Danforth (1 fewer), and a
# deck whose only red cards are its Accusations.
PLAIN = ['characters=["abigail-williams", "ann-putnam", "cotton-mather", "george-burroughs", '
         '"giles-corey", "john-proctor", "martha-corey", "mary-warren"]',
         "deck.evidence=0", "deck.witness=0", "rules.starting_hand=1"]


def test_red_cards_that_could_never_cause_a_trial_are_refused():
    """A trial needs 7 accusations in front of one player; the deck's red cards are all the
    accusations there are (the setup check `rules.accusations`)."""
    error = _refusal(*PLAIN, "deck.accusation=6")
    assert error.key == "rules.accusations" and "add up to 6 accusations, fewer than the 7" \
        in error.message and "no player could ever be tried" in error.message
    assert _refusal(*PLAIN, "deck.accusation=7") is None
    assert _refusal(*PLAIN, "deck.accusation=6", "rules.accusations=6") is None
    error = _refusal(*PLAIN, "deck.accusation=0")
    assert error.key == "rules.accusations" and "no red card" in error.message
    # Will Griggs plays the 3 Alibis as Witnesses (7 each); Thomas Danforth needs 1 fewer
    griggs = PLAIN[0].replace('"mary-warren"', '"will-griggs"')
    assert _refusal(griggs, *PLAIN[1:], "deck.accusation=0") is None
    danforth = PLAIN[0].replace('"mary-warren"', '"thomas-danforth"')
    assert _refusal(danforth, *PLAIN[1:], "deck.accusation=6") is None
    error = _refusal(danforth, *PLAIN[1:], "deck.accusation=5")
    assert "fewer than the 6" in error.message and "rules.accusations to 6 or less" \
        in error.message


@pytest.mark.parametrize("sets, key, fragment", BAD)
def test_bad_configs_are_one_clear_error(sets, key, fragment):
    with pytest.raises(ConfigError) as error:
        load(8, *sets)
    message = str(error.value)
    assert len(message.splitlines()) == 1 and key in message and fragment in message, message


@pytest.mark.parametrize("sets, key, fragment", BAD[:4])
def test_bad_configs_exit_2_with_one_line(tmp_path, sets, key, fragment):
    path = tmp_path / "bad.toml"
    path.write_text(_toml(sets))
    result = CliRunner().invoke(main, ["run", str(path), "-n", "10", "--workers", "1"],
                                catch_exceptions=False)
    assert result.exit_code == 2, result.output
    errors = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(errors) == 1 and "Traceback" not in result.output
    assert key in errors[0] and fragment in errors[0], errors[0]


def _toml(sets) -> str:
    """A config file of the 8-player game with dotted keys set (`tryals.8.witch=0`)."""
    tables: dict[str, list[str]] = {}
    for item in sets:
        key, value = item.split("=", 1)
        table, _, name = key.rpartition(".")
        tables.setdefault(table, []).append(f"{name} = {value}")
    out = ['game = "salem"', "players = 8"] + tables.pop("", [])
    for table, lines in tables.items():
        out += [f"[{table}]"] + lines
    return "\n".join(out) + "\n"


def test_every_card_and_character_has_a_key():
    keys = {key.path for key in KEYS}
    assert {f"deck.{name}" for name in CARDS} <= keys and "characters" in keys
    assert TRYAL.witch == 1
