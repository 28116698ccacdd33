"""The Salem kernel end to end, game by game on fixed seeds: every game ends by one of the two
victory conditions, the tryals are conserved, no dead player ever acts; the tallies add up; the
trace tells the whole game."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

from simulator.setup import config
from simulator.run import runner
from simulator.cli import main
from simulator.games import driver
from simulator.games.salem import GAME
from simulator.games.salem.declaration import END, EV, OBS, TR, TRYAL

VICTORIES = {END.witch_tryals_revealed, END.witches_by_night, END.witches_by_conversion,
             END.witches_by_day}
# Rows whose actor acts (decides or draws): a dead seat must never be one.
ACTS = {TR.turn, TR.action, TR.draw, TR.play, TR.giles, TR.kill_vote, TR.protect, TR.confess,
        TR.parris, TR.tituba, TR.proctor, TR.abigail, TR.ann_putnam}


def games_one_by_one(players, strategy, count, seed, *sets):
    """Play `count` games one at a time on the kernel's own state; yields (state, trace rows)
    after each game."""
    params = config.load("salem", list(sets), players).params
    trace = np.zeros((60_000, 6), np.int64)
    st = driver.new_state(GAME, params, driver.Lineup.uniform(GAME, players, strategy), trace)
    rng = np.random.default_rng(seed)
    for _ in range(count):
        st.trace_rows = 0
        rows = GAME.kernel(st, 1, rng)
        assert rows < len(trace)
        yield st, trace[:rows].copy()


def check_game(st, rows):
    n = int(st.players)
    # one of the two victory conditions, and the winner row says it
    assert int(st.outcome) in VICTORIES
    winner = rows[rows[:, 1] == TR.winner]
    assert len(winner) == 1 and winner[0, 5] == st.outcome
    living = [s for s in range(n) if st.obs[OBS.alive + s]]
    face_down_witches = sum(
        1 for s in living for j in range(st.row_len[s])
        if st.tryal_kind[st.row[s, j]] == TRYAL.witch and not st.tryal_up[st.row[s, j]])
    if st.outcome == END.witch_tryals_revealed:
        assert face_down_witches == 0 and winner[0, 4] == 0
    else:
        assert all(st.ever_witch[s] for s in living) and winner[0, 4] == 1
    # the tryals are conserved: every card dealt lies in exactly one row
    ids = sorted(int(st.row[s, j]) for s in range(n) for j in range(st.row_len[s]))
    assert ids == list(range(int(st.n_tryals)))
    assert st.n_tryals == int(st.tryal_counts.sum())
    kinds = np.bincount(st.tryal_kind[:st.n_tryals], minlength=3)
    assert kinds.tolist() == st.tryal_counts.tolist()
    # no dead player ever acts, takes a tryal or is chosen at night
    dead = set()
    for _, code, actor, target, _, _ in rows.tolist():
        if code in ACTS:
            assert actor not in dead, (code, actor)
        if code in (TR.passed, TR.protect, TR.victim):
            assert target not in dead, (code, target)
        if code == TR.death:
            assert actor not in dead
            dead.add(actor)
    assert dead == {s for s in range(n) if s not in living}


@pytest.mark.parametrize("players, strategy, sets", [
    (8, "people", ()), (8, "random", ()), (4, "people", ()), (12, "random", ()),
    (5, "people", ('rules.character_draft="lt7"', 'variants.conspiracy="middle"')),
    (7, "random", ("variants.dead_silent=true", "variants.extra_witch=true",
                   "rules.night_resumes_turn=true", 'rules.black_cat_chooser="drawer"',
                   'rules.ann_putnam_held="at_draw"')),
    (6, "people", ('rules.piety="double_threshold"', "rules.black_draw_replaced=true",
                   'rules.john_proctor="blind"', 'rules.ann_putnam="at_once"',
                   "rules.tituba_depth=4", "rules.last_convert_loses=true")),
])
def test_every_game_ends_by_a_victory_with_tryals_conserved_and_the_dead_idle(players, strategy,
                                                                             sets):
    for st, rows in games_one_by_one(players, strategy, 40, players, *sets):
        check_game(st, rows)


def test_the_tallies_add_up():
    params = config.load("salem", [], 8).params
    games = 500
    t, _ = driver.play(GAME, params, driver.Lineup.uniform(GAME, 8, "people"), games,
                       np.random.default_rng(4))
    assert t["games"][0] == games and t["team_wins"].sum() == games
    assert t["end_counts"][END.turn_limit] == 0
    ev = t["events"]
    assert ev[EV.trial_witch] <= ev[EV.trials] <= ev[EV.reveals]
    assert ev[EV.reveals] == ev[EV.trials] + ev[EV.confessions] - ev[EV.phips_confessions] \
        + ev[EV.black_cat_reveals]
    assert ev[EV.night_kills] + ev[EV.night_protected] + ev[EV.night_confessed] \
        + ev[EV.night_asylum] <= ev[EV.nights]
    assert ev[EV.conversions] == t["conversions"][0]
    assert ev[EV.nights] == t["nights"][0] and t["nights_hist"].sum() == games
    assert t["black_cat_games"].sum() == games
    assert (t["black_cat_wins"] <= t["black_cat_games"]).all()
    # the witch end conditions count how the witches won
    assert t["team_wins"][1] == t["end_counts"][[END.witches_by_night, END.witches_by_day,
                                                 END.witches_by_conversion]].sum()


def test_the_trace_tells_every_part_of_the_game():
    result = CliRunner().invoke(main, ["trace", "salem", "--seed", "3"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    text = result.output
    for fragment in ("seat 0 is", "is dealt", "First night", "the Black Cat in front of",
                     "Turn 1:", "chooses to draw 2 cards", "chooses to play cards", " draws ",
                     " plays ", "accusations on seat", "TRIAL of seat", "CONSPIRACY #1",
                     " takes ", "NIGHT 1", "dawn: the witches' victim", "confesses",
                     "the discard pile becomes the new deck", "dies", "team wins"):
        assert fragment in text, fragment


def test_the_reveal_that_brings_martha_corey_ann_putnams_ability_earns_no_draws():
    """Seed 900 with 10 players, turn 67: Martha Corey (seat 0) holds Rebecca Nurse's ability
    (seat 9, her right) and reveals seat 9's last tryal; seat 9 dies and Ann Putnam (seat 8)
    becomes her right. The reveal was not made with Ann Putnam's ability: no draws for it at the
    end of the turn (with rules.ann_putnam_held = at_draw: 2 cards)."""
    def turn_67(*sets):
        lines = [line.strip() for line in
                 runner.trace_game(config.load("salem", list(sets), 10), 900)]
        assert {"seat 0 is martha-corey", "seat 8 is ann-putnam",
                "seat 9 is rebecca-nurse"} <= set(lines)
        start = lines.index("Turn 67: seat 0")
        end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("Turn "))
        turn = lines[start:end]
        assert "TRIAL of seat 9: seat 0 reveals slot 2: Not a Witch" in turn
        assert "† seat 9 dies (trial), on the town team" in turn
        return [line for line in turn if "(Ann Putnam)" in line]

    assert turn_67() == []
    assert turn_67('rules.ann_putnam_held="at_draw"') == [
        "seat 0 draws 2 cards for her reveals (Ann Putnam)",
        "seat 0 draws a card (Ann Putnam)", "seat 0 draws a card (Ann Putnam)"]
