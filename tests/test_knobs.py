"""A knob declared once: a config key marked `state=True` reaches the game's state by itself.

The engine gives the state a field named after the key's last part (its dtype from the key's
type, its meaning from the key's) and writes the validated value there at setup, a Choice as its
option's index and true/false as 1/0; the game's params carry the values in `knobs`.
"""

import dataclasses
import pickle

import numpy as np
import pytest

from simulator.setup import config
from simulator.games import driver, get_game
from simulator.games.base import Field, knob_fields, knobs_record
from simulator.schema import Boolean, Choice, Integer, Key, ListOf, Number

KEYS = (
    Key("rules.rounds", Integer(1, 9), 4, "rounds played", state=True),
    Key("rules.chance", Number(0.0, 1.0), 0.25, "a chance", state=True),
    Key("rules.open", Boolean(), False, "cards shown", state=True),
    Key("rules.order", Choice(("left", "middle", "right")), "middle", "who goes first",
        state=True),
    Key("rules.deck", ListOf(Integer(0)), [1, 2], "a table the setup reads itself"),
)
Knobs = knobs_record(KEYS, __name__)


def test_a_state_knob_gets_its_field_named_after_its_last_part():
    fields = {f.name: f for f in knob_fields(KEYS)}
    assert list(fields) == ["rounds", "chance", "open", "order"]  # not the list
    assert fields["chance"].dtype == np.float64
    assert {fields[name].dtype for name in ("rounds", "open", "order")} == {np.int64}
    assert all(f.shape == () for f in fields.values())
    assert fields["order"].meaning == "who goes first"


def test_the_knobs_record_holds_the_declared_defaults_and_reads_validated_values():
    assert Knobs() == (4, 0.25, False, "middle")
    values = {"rules.rounds": 7, "rules.chance": 1.0, "rules.open": True,
              "rules.order": "right", "rules.deck": [3]}
    knobs = Knobs.read(values)
    assert (knobs.rounds, knobs.chance, knobs.open, knobs.order) == (7, 1.0, True, "right")
    assert pickle.loads(pickle.dumps(knobs)) == knobs  # params cross to worker processes


def test_the_state_value_of_a_choice_is_its_index_and_of_a_boolean_one_or_zero():
    order, opened = KEYS[3], KEYS[2]
    assert [order.state_value(v) for v in ("left", "middle", "right")] == [0, 1, 2]
    assert (opened.state_value(True), opened.state_value(False)) == (1, 0)
    assert KEYS[1].state_value(0.5) == 0.5


@pytest.mark.parametrize("key", [
    lambda: Key("rules.deck", ListOf(Integer(0)), [1], "a list", state=True),
    lambda: Key("rules.count", Integer(0), lambda players: players, "by head count", state=True),
    lambda: Key("roles.death-god", Integer(0, 1), 0, "not a Python name", state=True),
])
def test_only_a_plain_value_with_a_fixed_default_goes_into_the_state(key):
    with pytest.raises(ValueError, match="state"):
        key()


def test_a_declared_knob_reaches_the_state_and_a_choice_its_index():
    # Werewolf declares rules.witness_caught (a number), rules.mayor (true/false) and
    # rules.tie_reference (a choice of "first", "after", "random") as state knobs.
    game = get_game("werewolf")
    cfg = config.load("werewolf", overrides=["rules.witness_caught=0.6", "rules.mayor=true",
                                             "rules.tie_reference=random"])
    st = driver.new_state(game, cfg.params, driver.Lineup.uniform(game, cfg.players))
    assert st.witness_caught == 0.6 and st.mayor == 1 and st.tie_reference == 2
    assert st.dtype.fields["witness_caught"][0] == np.float64
    default = config.load("werewolf").params
    driver.setup_state(game, default, st)
    assert (st.witness_caught, st.mayor, st.tie_reference) == (0.25, 0, 0)


def test_a_game_refuses_a_hand_written_field_named_like_a_state_knob():
    game = get_game("template")
    with pytest.raises(ValueError, match="state fields repeat"):
        dataclasses.replace(game, state_fields=game.state_fields +
                            (Field("reveal_votes", np.int64, (), "a copy"),))
