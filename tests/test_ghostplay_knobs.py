"""Ghost Play's provisional rulings as knobs: one test per choice, on hand-built positions.

Every ruling docs/rules/ghostplay.md marks provisional is a `rules.*` key whose default is the
ruling (the default of each test below); docs/rules/ghostplay.md names the test of each knob.
Seats go round one way: the next seat is s + 1. Votes are encoded positive * 7 + negative.
"""

from __future__ import annotations

import numpy as np
import pytest

from simulator.games.ghostplay import GAME
from simulator.games.ghostplay import kernel as K
from simulator.games.ghostplay.declaration import (
    CARD_STATE, DECISION, OBS, PASS, RISE, TR, UNKNOWN, VOTE_BASE,
)
from simulator.games.ghostplay.observation import legal_ghost, legal_vote
from simulator.games.ghostplay.params import KEYS, default_params, describe_setup
from simulator.games.ghostplay.rules import (
    most_possessed, possession_target, remove_ghost, rise_candidate, sect_points, start_turn,
)

from cli_checks import one_line_error as assert_one_line_error
from cli_checks import run_cli
from test_ghostplay_phases import codes, run_phase
from test_ghostplay_positions import KING, PARAMS, TP, TS, ghost, ghosts, give, haunt, position
from test_ghostplay_rules import artifact_params

SIX = [TP, TS, TP, TS, TP, TS]
VOTE, CHALLENGE, EXORCISE = DECISION.vote, DECISION.challenge, DECISION.exorcise
NO = {CHALLENGE: PASS}
RNG = np.random.default_rng
# The rulings the rules note leaves open, each a rule knob (params.KEYS, "provisional: ...").
RULE_KNOBS = ("exorcisms_per_turn", "host_ghosts", "ties", "ineligible", "king_draw_at",
              "king_reveals", "rise_order", "third", "seventh", "participants", "look",
              "look_seen_by", "failure_reward", "summon_reward", "risen_ghosts", "day_order",
              "vote_limit", "card_windows", "king_points")


def vote(positive, negative=0):
    return positive * VOTE_BASE + negative


def table(**knobs):
    """A 6-player position of SIX with these rule knobs."""
    return position(SIX, default_params(6, **knobs))


def legal(st):
    return [a for a in range(st.n_actions) if st.legal[a]]


def test_every_rule_knob_is_a_declared_key_with_the_rulings_default():
    keys = {key.path: key for key in KEYS}
    for field in RULE_KNOBS:
        key = keys[f"rules.{field}"]
        assert key.provisional and key.state
        assert getattr(default_params(6).knobs, field) == key.default


def event_card(effect):
    return next(c for c, card in enumerate(PARAMS.ghost_cards()) if card.effect == effect)


# --- exorcisms per turn ---------------------------------------------------------------------------
@pytest.mark.parametrize("per_turn, hosted", [(1, 1), (2, 2), (3, 2)])
def test_exorcisms_per_turn_lets_the_host_go_on_until_it_passes_or_no_ghost_is_left(per_turn,
                                                                                  hosted):
    st = table(exorcisms_per_turn=per_turn)
    red = ghosts(PARAMS, colour="red", requirement=2)
    haunt(st, red[0], 3)
    haunt(st, red[1], 4)
    st.ghost_order[0] = event_card("drain")  # the haunting brings no new ghost
    give(st, 0, red=6)
    wanted = [{EXORCISE: 0, VOTE: vote(2)} | NO] + [{}] * 5
    _, t, trace = run_phase(K.night, st, wanted, 0)
    assert codes(trace).count(TR.exorcise) == hosted  # 3 allowed, but no third ghost
    assert st.in_play == 2 - hosted and st.points[0] == hosted


# --- which ghost a host may pick ------------------------------------------------------------------
def test_host_ghosts_any_or_only_on_another_player():
    for knob, allowed in (("any", [0, 1, PASS]), ("not-own", [1, PASS])):
        st = table(host_ghosts=knob)
        haunt(st, ghosts(PARAMS)[0], 0)  # on the host itself
        haunt(st, ghosts(PARAMS)[1], 3)
        legal_ghost(st, 0, False)
        assert legal(st) == allowed, knob
        legal_ghost(st, 0, True)  # a summoning takes any ghost
        assert legal(st) == [0, 1, PASS]


# --- ties -----------------------------------------------------------------------------------------
def test_ties_from_the_turn_player_or_at_random():
    most = ghost(PARAMS, possess_rule="most-spirit")
    # everyone tied on spirit power, on ghosts, and three players rising by rule (a)
    for knob in ("from-turn-player", "random"):
        chosen, possessed, risen = set(), set(), set()
        for seed in range(60):
            st = table(ties=knob)
            chosen.add(possession_target(st, most, 2, RNG(seed)))
            for s in range(6):
                st.possessed[s] = 2
            possessed.add(most_possessed(st, 2, RNG(seed)))
            st.reached_three[1] = st.reached_three[3] = st.reached_three[5] = 1
            risen.add(rise_candidate(st, 2, RNG(seed))[0])
        if knob == "from-turn-player":
            assert chosen == {2} and possessed == {2} and risen == {3}
        else:  # 60 draws: a seat missed with chance (5/6)^60 < 2e-5 each (fixed seeds: exact)
            assert chosen == possessed == set(range(6)) and risen == {1, 3, 5}


# --- an ineligible player ------------------------------------------------------------------------
def test_ineligible_next_right_or_set_aside():
    turn_player = ghost(PARAMS, possess_rule="turn-player")
    right = ghost(PARAMS, possess_rule="right-neighbour")
    st = table()
    st.king = 3
    assert possession_target(st, turn_player, 3, RNG(0)) == 4
    assert possession_target(st, right, 2, RNG(0)) == 4
    st = table(ineligible="set-aside")
    st.king = 3
    assert possession_target(st, turn_player, 3, RNG(0)) == UNKNOWN
    assert possession_target(st, right, 2, RNG(0)) == UNKNOWN
    assert possession_target(st, right, 3, RNG(0)) == 4  # an eligible player: as before


# --- the ghost king's night -----------------------------------------------------------------------
def king_night(**knobs):
    st = table(**knobs)
    st.king = st.obs[OBS.king] = 4
    st.role[4] = KING
    st.pile[:5] = 0
    st.pile_size = 5
    st.ghost_order[0] = ghost(PARAMS, colour="red", requirement=2, possess_rule="right-neighbour")
    _, t, trace = run_phase(K.night, st, [{DECISION.summon: PASS}] * 6, 4)
    return st, codes(trace)


def test_king_draw_at_the_start_of_its_night_or_after_the_haunting():
    st, steps = king_night()
    assert steps == [TR.draw, TR.reveal, TR.possess]
    st, steps = king_night(king_draw_at="after-haunting")
    assert steps == [TR.reveal, TR.possess, TR.draw] and st.hand_size[4] == 1


def test_king_reveals_or_its_night_has_no_haunting():
    st, steps = king_night(king_reveals=False)
    assert steps == [TR.draw] and st.ghost_next == 0 and st.in_play == 0


# --- the rise -------------------------------------------------------------------------------------
def both_rise_rules(**knobs):
    """Seat 4 holds 4 ghosts from before, seat 1 two; this turn a third arrives on seat 1, the 7th
    in play: rule (a) raises seat 1, rule (b) the most possessed, seat 4."""
    st = table(**knobs)
    cards = ghosts(PARAMS)
    for c in cards[:4]:
        haunt(st, c, 4)
    for c in cards[4:6]:
        haunt(st, c, 1)
    start_turn(st, 0, 9)
    haunt(st, cards[6], 1)
    return st


def test_rise_order_a_first_or_b_first():
    assert rise_candidate(both_rise_rules(), 0, RNG(0)) == (1, RISE.three, 0)
    assert rise_candidate(both_rise_rules(rise_order="b-first"), 0, RNG(0)) == \
        (4, RISE.seventh, 0)


def test_third_three_or_more_or_exactly_three():
    for knob, risen in (("three-or-more", 2), ("exactly-three", UNKNOWN)):
        st = table(third=knob)
        for c in ghosts(PARAMS)[:3]:
            haunt(st, c, 2)
        start_turn(st, 0, 5)
        haunt(st, ghosts(PARAMS)[3], 2)  # a fourth ghost arrives on seat 2
        assert rise_candidate(st, 0, RNG(0))[0] == risen, knob


def test_seventh_in_play_or_the_games_seventh_arrival():
    for knob, seventh in (("in-play", UNKNOWN), ("revealed", 6)):
        st = table(seventh=knob)
        cards = ghosts(PARAMS)
        for i, c in enumerate(cards[:6]):
            haunt(st, c, i)
        remove_ghost(st, 0)  # two dispelled earlier: 4 in play
        remove_ghost(st, 0)
        start_turn(st, 0, 5)
        haunt(st, cards[6], 1)  # the 7th arrival of the game, 5 in play
        assert st.seventh_card == (cards[6] if seventh >= 0 else UNKNOWN), knob
        s, rule, _ = rise_candidate(st, 0, RNG(0))
        assert (s, rule) == ((UNKNOWN, UNKNOWN) if seventh < 0 else (1, RISE.seventh))


@pytest.mark.parametrize("knob", ["stay", "lives", "discarded"])
def test_risen_ghosts_stay_become_lives_or_are_set_aside(knob):
    st = table(risen_ghosts=knob)
    cards = ghosts(PARAMS)[:3]
    for c in cards[:2]:
        haunt(st, c, 4)
    start_turn(st, 0, 7)
    haunt(st, cards[2], 4)
    haunt(st, ghosts(PARAMS)[3], 1)
    out, t, trace = run_phase(lambda st, p, turn, rng: K.end_of_turn(st, p, turn, rng), st,
                              [{}] * 6, 0, 7)
    assert st.king == 4 and out == 0
    if knob == "stay":
        assert st.possessed[4] == 3 and st.in_play == 4 and st.lives == 0
        assert TR.risen_ghosts not in codes(trace)
    else:
        assert st.possessed[4] == 0 and st.in_play == 1 and st.slot_target[0] == 1
        state = CARD_STATE.life if knob == "lives" else CARD_STATE.resolved
        assert all(st.card_state[c] == state for c in cards)
        assert st.lives == (3 if knob == "lives" else 0)
        assert codes(trace)[-1] == TR.risen_ghosts


def test_risen_ghosts_as_lives_break_a_seal_at_once():
    st = position(SIX, default_params(6, risen_ghosts="lives", seal="at-once"))
    cards = ghosts(PARAMS)[:3]
    for c in cards[:2]:
        haunt(st, c, 4)
    start_turn(st, 0, 7)
    haunt(st, cards[2], 4)
    out, _, _ = run_phase(lambda st, p, turn, rng: K.end_of_turn(st, p, turn, rng), st,
                          [{}] * 6, 0, 7)
    assert out == 1 and st.seal_broken == 1  # 3 lives, seal 3


# --- the exorcism's aftermath ---------------------------------------------------------------------
def red_ghost_on_3(requirement, **knobs):
    st = table(**knobs)
    card = ghost(PARAMS, colour="red", requirement=requirement)
    slot = haunt(st, card, 3)
    for s in range(6):
        give(st, s, red=3, blue=3)
    return st, card, slot


def test_participants_counted_or_every_player_who_placed_cards():
    # seat 0 hosts with 3 red and challenges seat 2, who placed 2 blue: caught, discarded
    wanted = [{VOTE: vote(3), CHALLENGE: 2}, {VOTE: vote(0)}, {VOTE: vote(0, 2)}, {},
              {VOTE: vote(0)}, {}]
    for knob, paid in (("counted", [0]), ("placed", [0, 2])):
        st, card, slot = red_ghost_on_3(3, participants=knob)
        won, t, trace = run_phase(K.exorcism, st, wanted, 0, slot, False)
        assert won == 1
        assert list(trace[trace[:, 1] == TR.reward][:, 2]) == paid, knob


def test_look_after_a_success_only_or_always():
    wanted = [{VOTE: vote(3)} | NO, {VOTE: vote(1, 1)}, {}, {}, {}, {}]  # net 3 < 4
    for knob, looked in (("success", False), ("always", True)):
        st, card, slot = red_ghost_on_3(4, look=knob)
        won, t, trace = run_phase(K.exorcism, st, wanted, 0, slot, False)
        assert won == 0 and (TR.look in codes(trace)) == looked, knob
        assert st.known[0, 3] == (TS if looked else UNKNOWN)


def test_look_seen_by_the_host_or_everyone():
    wanted = [{VOTE: vote(3)} | NO] + [{}] * 5
    for knob in ("host", "everyone"):
        st, card, slot = red_ghost_on_3(3, look_seen_by=knob)
        won, t, trace = run_phase(K.exorcism, st, wanted, 0, slot, False)
        assert won == 1
        knew = [st.known[v, 3] == TS for v in range(6)]
        assert knew == ([True] * 6 if knob == "everyone" else [v in (0, 3) for v in range(6)])
        line = GAME.decode_trace(trace, default_params(6, look_seen_by=knob))
        look = next(x for x in line if "look: seat 0" in x)
        assert look.lstrip().startswith("(private) ") == (knob == "host"), look


def test_failure_reward_none_or_paid():
    wanted = [{VOTE: vote(3)} | NO, {VOTE: vote(0, 1)}, {}, {}, {}, {}]  # net 2 < 3
    for knob, paid in ((False, []), (True, [0, 1])):
        st, card, slot = red_ghost_on_3(3, failure_reward=knob)
        won, t, trace = run_phase(K.exorcism, st, wanted, 0, slot, False)
        assert won == 0
        assert list(trace[trace[:, 1] == TR.reward][:, 2]) == paid, knob
        assert st.spirit[0] == (6 if knob else 4)  # 2 participants: 2 each


def test_summon_reward_paid_or_not():
    for knob, spirit in ((True, 6), (False, 4)):
        st, card, slot = red_ghost_on_3(2, summon_reward=knob)
        st.king = 1
        st.role[1] = KING
        wanted = [{}, {VOTE: vote(2)}, {}, {}, {}, {}]
        won, t, trace = run_phase(K.exorcism, st, wanted, 1, slot, True)
        assert won == 1 and st.lives == 1 and st.spirit[1] == spirit, knob


# --- the day, the vote, the points ----------------------------------------------------------------
def test_day_order_buy_first_or_cards_first():
    # 4 spirit power buys 2 cards; played first, the elixir's 2 more pay for a third
    for knob, steps, bought in (("buy-first", [TR.buy, TR.artifact, TR.spell], 2),
                                ("cards-first", [TR.artifact, TR.spell, TR.buy], 3)):
        st = position(SIX, artifact_params(day_order=knob))
        from simulator.games.ghostplay.rules import build_taoist_pile
        build_taoist_pile(st, RNG(0))
        CHARM, ELIXIR = 2, 4
        st.hand[1, CHARM] = st.hand[1, ELIXIR] = 1
        st.colours[1] = [2, 0]
        st.hand_size[1] = 2
        wanted = [{}] * 6
        wanted[1] = {DECISION.buy: bought, DECISION.artifact: CHARM, DECISION.spell: ELIXIR}
        _, t, trace = run_phase(K.day, st, wanted, 1)
        assert codes(trace) == steps, knob
        assert trace[trace[:, 1] == TR.buy][0, 4] == bought
        assert st.spirit[1] == 4 + 2 - 2 * bought


def test_vote_limit_caps_each_colour_of_a_vote():
    for limit in (6, 2):
        st = table(vote_limit=limit)
        give(st, 0, red=5, blue=4)
        legal_vote(st, 0, 0)  # a red ghost
        actions = legal(st)
        assert max(a // VOTE_BASE for a in actions) == min(5, limit)
        assert max(a % VOTE_BASE for a in actions) == min(4, limit)


def test_vote_limit_refuses_a_deck_the_ghost_king_could_never_summon():
    result = run_cli("run", "ghostplay", "--set", "rules.vote_limit=3", "-n", "10")
    assert_one_line_error(result, "ghost_deck", "requirement 4", "never summon")


def test_king_points_for_no_sect_or_its_dealt_sect():
    for knob, points in (("no-sect", (1, 0, 5)), ("former-sect", (6, 0, 0))):
        st = table(king_points=knob)
        st.points[0] = 5
        st.points[2] = 1
        st.role[0] = KING  # dealt taiping (st.former), risen
        st.king = 0
        assert sect_points(st) == points, knob


def test_every_changed_setting_is_named_in_the_trace_header_and_the_summary():
    assert GAME.decode_trace(np.zeros((0, 6), np.int64), default_params(6))[1:] == []
    params = default_params(6, exorcisms_per_turn=2, ties="random", seals=(2,))
    header = GAME.decode_trace(np.zeros((0, 6), np.int64), params)[1:]
    assert header == ["setup: changed setting: rules.exorcisms_per_turn = 2",
                      'setup: changed setting: rules.ties = "random"',
                      "setup: changed setting: ghost_kings.seal = [2]"]
    assert "rules.exorcisms_per_turn = 2" in describe_setup(params)["changed"]
    deck = artifact_params()  # a changed Taoist deck is named card by card
    line = GAME.decode_trace(np.zeros((0, 6), np.int64), deck)[1]
    assert line.startswith("setup: changed setting: taoist_deck edited (red changed")
    assert "charm added" in line


# --- card windows ---------------------------------------------------------------------------------
def window_night(knob, wanted_spell):
    """Seat 0's night in the example deck; seat 3 (not the turn player) holds an elixir (a spell:
    +2 spirit power); the haunting brings a ghost."""
    st = position(SIX, artifact_params(card_windows=knob))
    ELIXIR = 4
    st.hand[3, ELIXIR] = 1
    st.colours[3] = [1, 0]
    st.hand_size[3] = 1
    st.ghost_order[0] = ghost(PARAMS, possess_rule="right-neighbour")
    wanted = [{EXORCISE: PASS}] * 6
    wanted[3] = {DECISION.spell: wanted_spell}
    _, t, trace = run_phase(K.night, st, wanted, 0)
    return st, t, trace


def test_card_windows_own_day_or_every_players_windows_before_and_after_the_haunting():
    ELIXIR = 4
    st, t, trace = window_night("own-day", ELIXIR)
    assert TR.spell not in codes(trace) and st.hand[3, ELIXIR] == 1  # not its day: never asked
    assert st.legal[ELIXIR] == 0 or t.decisions[DECISION.spell] == 0
    st, t, trace = window_night("every-window", ELIXIR)
    spells = trace[trace[:, 1] == TR.spell]
    assert list(spells[:, 2]) == [3] and list(spells[:, 5]) == [1]  # before the haunting
    assert codes(trace).index(TR.spell) < codes(trace).index(TR.reveal)
    assert st.spirit[3] == 6 and st.hand[3, ELIXIR] == 0
    assert st.spent[ELIXIR] == 1 and st.discard[ELIXIR] == 0  # out until the turn ends
    lines = GAME.decode_trace(trace, artifact_params(card_windows="every-window"))
    assert any(line.startswith("  before the haunting: seat 3 plays elixir") for line in lines)
    # a holder that passes before the haunting is asked again after it
    st, t, trace = window_night("every-window", PASS)
    passes = trace[(trace[:, 1] == TR.declined) & (trace[:, 2] == 3)]
    assert list(passes[:, 4]) == [1, 2] and t.decisions[DECISION.spell] == 2


def test_people_play_a_card_in_a_window_when_it_helps_and_keep_it_otherwise():
    from test_ghostplay_strategies import PEOPLE, ask
    from strategies.ghostplay import people
    from simulator.games.ghostplay.observation import legal_day_card
    from simulator.games.ghostplay.declaration import PLAY, WINDOW
    st = position(SIX, artifact_params())
    ELIXIR = 4  # +2 spirit power
    st.hand[3, ELIXIR] = 1
    st.hand_size[3] = 1
    legal_day_card(st, 3, PLAY.spell)

    def choice(window, turn_player):
        st.obs[OBS.card_window] = window
        st.obs[OBS.turn_player] = turn_player
        return ask(people, st, 3, DECISION.spell, params=PEOPLE)

    assert choice(WINDOW.day, 3) == ELIXIR  # its own day: played
    assert choice(WINDOW.after_the_haunting, 2) == ELIXIR  # its day comes next: played
    assert choice(WINDOW.after_the_haunting, 0) == PASS  # kept for later
    assert choice(WINDOW.before_the_haunting, 2) == PASS
    # a card that draws: after a haunting with a ghost in play (its cards can vote)
    params = default_params(6, taoist_deck=tuple(
        c if c.name != "elixir" else type(c)(c.name, c.colour, c.count, c.value, "spell", "draw",
                                              2) for c in artifact_params().taoist_deck))
    st = position(SIX, params)
    st.hand[3, ELIXIR] = 1
    st.hand_size[3] = 1
    legal_day_card(st, 3, PLAY.spell)
    assert choice(WINDOW.after_the_haunting, 0) == PASS  # no ghost in play
    haunt(st, ghosts(PARAMS)[0], 1)
    assert choice(WINDOW.after_the_haunting, 0) == ELIXIR
    assert choice(WINDOW.before_the_haunting, 0) == PASS


OTHER_CHOICES = [("exorcisms_per_turn", 3), ("host_ghosts", "not-own"), ("ties", "random"),
                 ("ineligible", "set-aside"), ("king_draw_at", "after-haunting"),
                 ("king_reveals", False), ("rise_order", "b-first"), ("third", "exactly-three"),
                 ("seventh", "revealed"), ("participants", "placed"), ("look", "always"),
                 ("look_seen_by", "everyone"), ("failure_reward", True),
                 ("summon_reward", False), ("risen_ghosts", "lives"),
                 ("risen_ghosts", "discarded"), ("day_order", "cards-first"), ("vote_limit", 4),
                 ("card_windows", "every-window"), ("king_points", "former-sect")]


def test_the_other_choices_cover_every_knob():
    assert {field for field, _ in OTHER_CHOICES} == set(RULE_KNOBS)


@pytest.mark.parametrize("field, value", OTHER_CHOICES, ids=[f"{f}={v}" for f, v in OTHER_CHOICES])
def test_every_knob_choice_plays_whole_games_with_every_strategy(field, value):
    from simulator.games import driver
    for strategy, players in (("people", 5), ("helpful", 6), ("random", 7)):
        params = artifact_params(**{field: value}) if players == 6 else \
            default_params(players, **{field: value})
        t, _ = driver.simulate(GAME, params, [strategy] * players, 40, 1)
        ended = int(t["team_wins"].sum()) + int(t["draws"].sum())
        assert ended == 40, (strategy, field, value)  # every game ends with a result
