"""Ghost Play's config: the decks are data a designer edits, a run uses what the config says, and
a malformed card is one line naming the card and the field, exit code 2."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from simulator.setup import config
from simulator.games import driver
from simulator.games.ghostplay import GAME
from simulator.games.ghostplay.declaration import EV, PROVISIONAL, TR
from simulator.games.ghostplay.params import default_params, describe_setup, requirements
from simulator.statistics.summary import summarize

from cli_checks import one_line_error as assert_one_line_error
from cli_checks import run_cli

HEAD = 'extends = "ghostplay/default.toml"\n'


def test_the_default_decks_are_the_rules_notes():
    """32 ghosts (16 red, 16 blue; requirement 2 x11, 3 x11, 4 x10; points = requirement - 1;
    each possession rule x8) and 8 events (4 drain 1, 4 reveal one more); 40 red and 40 blue
    vote cards of value 1; seven ghost-king cards of seal 3."""
    params = config.load("ghostplay").params
    cards = params.ghost_cards()
    ghosts = [c for c in cards if c.kind == "ghost"]
    events = [c for c in cards if c.kind == "event"]
    assert len(cards) == 40 and len(ghosts) == 32
    assert Counter(c.colour for c in ghosts) == {"red": 16, "blue": 16}
    assert Counter(c.requirement for c in ghosts) == {2: 11, 3: 11, 4: 10}
    assert all(c.points == c.requirement - 1 for c in ghosts)
    assert set(Counter(c.possess for c in ghosts).values()) == {8}
    assert all(c.reward == (2, 2, 1) for c in ghosts)
    assert Counter((c.effect, c.amount) for c in events) == {("drain", 1): 4, ("another", 1): 4}
    assert [(t.colour, t.count, t.value, t.play) for t in params.taoist_types()] == [
        ("red", 40, 1, "vote"), ("blue", 40, 1, "vote")]
    assert params.seals == (3,) * 7
    assert params == default_params(6)  # the file writes out the keys' defaults


def test_a_config_without_decks_plays_the_default_decks(write):
    path = write("bare.toml", 'game = "ghostplay"\nplayers = 5\n')
    assert config.load(str(path)).params.ghost_cards() == default_params(5).ghost_cards()


def test_an_edited_ghost_deck_is_the_deck_the_run_plays(write):
    """Ten copies of g07 as a requirement-2 red ghost, the events out: every game of the run
    reveals 41 ghosts and no event, and the trace names the edited card."""
    path = write("edited.toml", HEAD + """players = 4
[ghost_deck]
g07 = { colour = "red", requirement = 2, points = 1, possess = "most-spirit", count = 10 }
drain-1 = { kind = "event", effect = "drain", count = 0 }
drain-2 = { kind = "event", effect = "drain", count = 0 }
drain-3 = { kind = "event", effect = "drain", count = 0 }
drain-4 = { kind = "event", effect = "drain", count = 0 }
another-1 = { kind = "event", effect = "another", count = 0 }
another-2 = { kind = "event", effect = "another", count = 0 }
another-3 = { kind = "event", effect = "another", count = 0 }
another-4 = { kind = "event", effect = "another", count = 0 }
""")
    cfg = config.load(str(path))
    assert len(cfg.params.ghost_cards()) == 41
    t, rows = driver.play(GAME, cfg.params, cfg.lineup, 50, np.random.default_rng(0),
                          trace_rows=20_000, trace_game=0)
    assert t["events"][EV.possessions] + t["events"][EV.unpossessed] == 41 * 50
    assert t["events"][EV.event_cards] == 0
    assert np.flatnonzero(t["length_hist"]).tolist() == [41]  # one card a turn, no events
    lines = GAME.decode_trace(rows, cfg.params)
    assert any("g07#10 (red ghost, requirement 2" in line for line in lines)
    # the report's setup notes say what the deck is
    assert "41 cards: 41 ghosts" in describe_setup(cfg.params)["ghost_deck"]


def test_taoist_deck_with_artifacts_and_spells_is_read():
    params = config.load("configs/ghostplay/artifacts.toml").params
    plays = {t.name: (t.play, t.effect, t.amount) for t in params.taoist_types()}
    assert plays["peach-sword"] == ("artifact", "ward", 1)
    assert plays["talisman"] == ("spell", "draw", 2)
    assert sum(t.count for t in params.taoist_types()) == 80


@pytest.mark.parametrize("entry, fragments", [
    ('g07 = { colour = "green", requirement = 4, points = 3, possess = "most-spirit" }',
     ["card g07", "field colour", "'red', 'blue'", "'green'"]),
    ('g07 = { colour = "red", requirement = 0, points = 3, possess = "most-spirit" }',
     ["card g07", "field requirement", "from 1 to 40"]),
    ('g07 = { colour = "red", requirement = 2, points = 1, possess = "richest" }',
     ["card g07", "field possess", "'turn-player'"]),
    ('g07 = { colour = "red", requirement = 2, points = 1, possess = "turn-player", '
     'reward = "lots" }', ["card g07", "field reward", "list"]),
    ('g07 = { colour = "red", requirement = 2, points = 1, possess = "turn-player", '
     'wings = 2 }', ["card g07", "field wings", "unknown field"]),
    ('x = { kind = "event", effect = "flood" }', ["card x", "field effect", "'drain'"]),
    ('x = { kind = "trap" }', ["card x", "field kind", "'ghost', 'event'"]),
    ('x = 3', ["card x", "must be a table"]),
])
def test_a_malformed_ghost_card_is_one_line_naming_the_card_and_the_field(write, entry,
                                                                          fragments):
    path = write("bad.toml", HEAD + "[ghost_deck]\n" + entry + "\n")
    assert_one_line_error(run_cli("run", str(path), "-n", "10"), "bad.toml", "ghost_deck",
                          *fragments)


@pytest.mark.parametrize("entry, fragments", [
    ('red = { colour = "red", count = 40, value = 9 }', ["card red", "field value"]),
    ('mirror = { colour = "blue", play = "artifact", effect = "fly" }',
     ["card mirror", "field effect", "'ward'"]),
    ('red = { colour = "red", effect = "ward" }', ["card red", "field effect", "artifact"]),
])
def test_a_malformed_taoist_card_is_one_line(write, entry, fragments):
    path = write("bad.toml", HEAD + "[taoist_deck]\n" + entry + "\n")
    assert_one_line_error(run_cli("run", str(path), "-n", "10"), "taoist_deck", *fragments)


def test_deck_limits_and_the_sweep_knob_are_checked(write):
    path = write("big.toml", HEAD + "[ghost_deck]\ng01 = { count = 40 }\n")
    assert_one_line_error(run_cli("run", str(path), "-n", "10"), "ghost_deck", "79 cards")
    result = run_cli("run", "ghostplay", "--set", "ghost_mix.requirement_4=33", "-n", "10")
    assert_one_line_error(result, "ghost_mix.requirement_4", "32 ghosts")
    result = run_cli("run", "ghostplay", "--set", "ghost_kings.seal=[]", "-n", "10")
    assert result.exit_code == 2


def test_a_deck_that_could_never_dispel_or_summon_a_ghost_is_refused(write):
    """Votes are Taoist cards: a Taoist deck with no card of a ghost's colour (or no card at
    all: every game would be a draw) is refused, and so is a ghost needing more than one voter's
    6 cards can reach (the ghost king, alone at a summoning, could never summon it)."""
    result = run_cli("run", "ghostplay", "--set", "taoist_deck.red.count=0", "--set",
                     "taoist_deck.blue.count=0", "-n", "10")
    assert_one_line_error(result, "taoist_deck", "no red card", "never be dispelled")
    result = run_cli("run", "ghostplay", "--set", "ghost_deck.g01.requirement=7", "-n", "10")
    assert_one_line_error(result, "ghost_deck", "card g01", "requirement 7", "never summon")
    path = write("strong.toml", HEAD + "[taoist_deck]\nred = { colour = \"red\", count = 40, "
                                       "value = 2 }\n[ghost_deck]\ng01 = { requirement = 7 }\n")
    assert run_cli("run", str(path), "-n", "10", "-o", str(path.with_suffix(".json"))) \
        .exit_code == 0  # red cards of value 2: one voter reaches 12


# A config of its own decks (no `extends`): the ghost deck is only what it lists.
OWN = 'game = "ghostplay"\nplayers = 5\n'


def _ghosts(count, points=1):
    return "".join(f'g{i} = {{ colour = "{("red", "blue")[i % 2]}", requirement = 2, '
                   f'points = {points}, possess = "turn-player" }}\n' for i in range(count))


def _refusal(path):
    """The ConfigError a config's setup check raises, or None when it loads."""
    try:
        config.load(str(path))
    except config.ConfigError as error:
        return error
    return None


def test_a_ghost_deck_with_no_ghost_is_refused(write):
    """Only events: nobody is possessed, nothing is exorcised, nothing scores: every game would
    be a draw (the setup check `ghost_deck`, one line)."""
    path = write("events.toml", OWN + '[ghost_deck]\ndrain = { kind = "event", effect = "drain", '
                                      'count = 8 }\n')
    error = _refusal(path)
    assert error.key == "ghost_deck" and "no ghost card" in error.message
    assert "every game would be a draw" in error.message and "add ghost cards" in error.message
    # taking every ghost out of the default deck with count = 0 is the same setup
    zeroed = "".join(f"g{i:02d} = {{ count = 0 }}\n" for i in range(1, 33))
    error = _refusal(write("zeroed.toml", HEAD + "[ghost_deck]\n" + zeroed))
    assert error.key == "ghost_deck" and "no ghost card" in error.message


def test_ghosts_none_of_which_scores_are_refused(write):
    """Points are the sects' only score: with every ghost worth 0 the sects always tie."""
    error = _refusal(write("pointless.toml", OWN + "[ghost_deck]\n" + _ghosts(8, points=0)))
    assert error.key == "ghost_deck" and "none of the ghost deck's 8 ghosts is worth a point" \
        in error.message and "always tie" in error.message
    # one ghost worth a point is enough; the requirement_4 knob deals points too
    deck = _ghosts(7, points=0) + 'g7 = { colour = "red", requirement = 2, points = 1, ' \
                                  'possess = "turn-player" }\n'
    assert _refusal(write("one.toml", OWN + "[ghost_deck]\n" + deck)) is None
    assert _refusal(write("knob.toml", OWN + "[ghost_mix]\nrequirement_4 = 2\n[ghost_deck]\n"
                          + _ghosts(8, points=0))) is None


def test_fewer_ghosts_than_a_ghost_king_needs_to_rise_are_refused(write):
    """A ghost king rises with 3 ghosts on one player (rule a; rule b needs 7)."""
    seal = "[ghost_kings]\nseal = [2]\n"
    error = _refusal(write("two.toml", OWN + seal + "[ghost_deck]\n" + _ghosts(2)))
    assert error.key == "ghost_deck" and "2 ghost(s)" in error.message
    assert "none could rise" in error.message and "3 at least" in error.message
    assert _refusal(write("three.toml", OWN + seal + "[ghost_deck]\n" + _ghosts(3))) is None


def test_a_seal_no_ghost_king_could_ever_break_is_refused(write):
    """Each life is a ghost: a seal above the number of ghosts on every ghost-king card could
    never break; one card within reach is enough."""
    deck = "[ghost_deck]\n" + _ghosts(5)
    error = _refusal(write("high.toml", OWN + "[ghost_kings]\nseal = [6, 7]\n" + deck))
    assert error.key == "ghost_kings.seal" and "needs 6 lives or more" in error.message
    assert "could never break" in error.message and "to 5 or less" in error.message
    assert _refusal(write("reach.toml", OWN + "[ghost_kings]\nseal = [7, 5]\n" + deck)) is None
    # the default deck (32 ghosts) takes any seal a config may set (at most 30)
    assert config.load("ghostplay", ["ghost_kings.seal=[30]"]).params.seals == (30,)


def test_the_requirement_4_knob_redeals_requirements_and_points():
    assert Counter(requirements(32, 10)) == {2: 11, 3: 11, 4: 10}
    for fours in (0, 8, 16, 32):
        params = default_params(6, requirement_4=fours)
        ghosts = [c for c in params.ghost_cards() if c.kind == "ghost"]
        counts = Counter(c.requirement for c in ghosts)
        assert counts[4] == fours and abs(counts[2] - counts[3]) <= 1
        assert all(c.points == c.requirement - 1 for c in ghosts)
        assert "requirement-4 ghosts" in describe_setup(params)["ghost_deck"]


def test_every_summary_says_what_is_provisional():
    notes = describe_setup(default_params(6))
    assert "PROVISIONAL" in notes["provisional"]
    for key in ("ghost_deck", "taoist_deck", "seal", "end", "reward"):
        assert notes[key].startswith("provisional")
    assert GAME.provisional == PROVISIONAL and len(PROVISIONAL) >= 20
    lines = GAME.decode_trace(np.zeros((0, 6), np.int64), default_params(6))
    assert lines[0].startswith("PROVISIONAL rules")
    from simulator.run import runner
    table = summarize(runner.run(config.load("ghostplay"), 40, seed=0, workers=1)).table()
    assert f"depends on {len(PROVISIONAL)} rulings" in table.splitlines()[-1]
    assert TR.end in range(len(GAME.trace_events))


def test_a_sweep_over_the_ghost_deck_runs_and_charts_and_reports_say_what_is_provisional(
        tmp_path):
    sweep = tmp_path / "sweep.json"
    result = run_cli("sweep", "ghostplay", "--vary", "ghost_mix.requirement_4=0,16,32", "-n",
                     "200", "--workers", "1", "-q", "-o", str(sweep), "--report",
                     str(tmp_path / "sweep.html"))
    assert result.exit_code == 0, result.output
    assert "ghost_mix.requirement_4=32" in result.output
    assert (tmp_path / "sweep.html").stat().st_size > 10_000
    report = tmp_path / "run.html"
    result = run_cli("run", "ghostplay", "-n", "200", "--workers", "1", "-q", "-o",
                     str(tmp_path / "run.json"), "--report", str(report))
    assert result.exit_code == 0, result.output
    html = report.read_text(encoding="utf-8")
    assert "PROVISIONAL" in html and PROVISIONAL[0][:40] in html
