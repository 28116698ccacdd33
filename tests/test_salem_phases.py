"""Salem's kernel steps (kernel.py) on hand-built positions with scripted strategies.

Each seat plays `script`: the action a test names for a decision kind when it is legal, else stop
when that is legal, else the first legal action (see test_salem_positions.py). The deck is
written bottom first, over Night: `deck=(a, b)` draws b, then a, then Night.
"""

from __future__ import annotations

import numpy as np

from simulator.games.salem import kernel as K
from simulator.games.salem.declaration import (
    ALIBI_WITNESS, CARD, CAUSE, DECISION, END, OBS, PHIPS, PLACE, STOP, TOWN, TR, TRYAL, TURN,
    WITCH,
)
from simulator.games.salem.rules import reveal_tryal

from test_salem_positions import (
    CONSTABLE, NAW, WITCH_TRYAL, accusations, add_front, alive, discard, front, hand, position,
    run,
)

D = DECISION
FOUR = [[NAW, NAW, NAW]] * 4
# four tryals each, seat 3 holding a Witch: a trial elsewhere does not end the game
OUT3 = [[NAW] * 4] * 3 + [[WITCH_TRYAL] + [NAW] * 3]


def rows(trace, code):
    return [tuple(r[2:]) for r in trace if r[1] == code]


# --- trials -----------------------------------------------------------------------------------------
def test_a_witness_causes_a_trial_and_the_placer_reveals_the_tryal_it_picks():
    st = position(["tituba", "sarah-good", "rebecca-nurse", "giles-corey"], tryals=OUT3,
                  hands=[{"witness": 1, "accusation": 1}], deck=(CARD.alibi,))
    add_front(st, 1, CARD.accusation, 2)
    _, trace = run(K.play_card, st, [{D.target: 1, D.reveal: 2}], 0, CARD.witness)
    assert rows(trace, TR.trial) == [(0, 1, NAW, 2)]
    assert list(st.obs[OBS.row + 10:OBS.row + 13]) == [3, 3, NAW]
    assert accusations(st)[1] == 0 and front(st, 1, CARD.accusation) == 0   # 9 > 7: all lost
    assert discard(st)[CARD.witness] == 1 and discard(st)[CARD.accusation] == 2
    assert hand(st, 2) == {"alibi": 1}               # Rebecca Nurse draws 1
    assert alive(st)[1] and st.outcome == -1


def test_a_revealed_witch_dies_and_the_town_wins_with_the_last_witch_tryal():
    st = position(["tituba", "sarah-good", "ann-putnam", "giles-corey"],
                  tryals=[[NAW] * 3, [NAW, WITCH_TRYAL, NAW], [NAW] * 3, [NAW] * 3],
                  hands=[{"witness": 1}])
    _, trace = run(K.play_card, st, [{D.target: 1, D.reveal: 1}], 0, CARD.witness)
    assert rows(trace, TR.death) == [(1, CAUSE.trial, WITCH, 0)]
    assert not alive(st)[1] and st.outcome == END.witch_tryals_revealed


def test_a_threshold_that_drops_with_no_card_played_waits_for_the_next_red_card():
    """Martha Corey (seat 2) has George Burroughs's ability while he is the nearest living player
    on her right (seat 1): 8 accusations, not 7. With 7 in front of her, his death drops her
    threshold to 7 with no card placed: no trial then (a trial is the final accusation's, and its
    placer reveals), but the next red card placed on her causes one, its placer revealing."""
    from simulator.games.salem.rules import recount, threshold_of

    st = position(["tituba", "george-burroughs", "martha-corey", "giles-corey"], tryals=OUT3,
                  hands=[{"accusation": 1}])
    add_front(st, 2, CARD.accusation, 7)
    recount(st, 2)
    assert threshold_of(st, 2, 0) == 8
    alive(st)[1] = 0
    assert threshold_of(st, 2, 0) == 7 and accusations(st)[2] == 7
    _, trace = run(K.play_card, st, [{D.target: 2, D.reveal: 0}], 0, CARD.accusation)
    assert rows(trace, TR.trial) == [(0, 2, NAW, 0)]


def test_thomas_danforth_needs_one_accusation_fewer():
    st = position(["thomas-danforth", "sarah-good", "tituba", "giles-corey"],
                  hands=[{"evidence": 2}, {}, {"evidence": 2}])
    run(K.play_card, st, [{D.target: 1}], 0, CARD.evidence)
    _, trace = run(K.play_card, st, [{D.target: 1}], 0, CARD.evidence)
    assert len(rows(trace, TR.trial)) == 1           # 6 accusations
    run(K.play_card, st, [{}, {}, {D.target: 3}], 2, CARD.evidence)
    _, trace = run(K.play_card, st, [{}, {}, {D.target: 3}], 2, CARD.evidence)
    assert rows(trace, TR.trial) == [] and accusations(st)[3] == 6


def test_abigail_williams_may_discard_her_accusations_after_her_reveal():
    st = position(["abigail-williams", "sarah-good", "tituba", "giles-corey"], tryals=OUT3,
                  hands=[{"witness": 1}])
    add_front(st, 0, CARD.evidence, 2)
    K.recount_all(st)
    _, trace = run(K.play_card, st, [{D.target: 1, D.abigail: 1}], 0, CARD.witness)
    assert rows(trace, TR.abigail) == [(0, -1, 1, 0)]
    assert accusations(st)[0] == 0 and discard(st)[CARD.evidence] == 2


def test_ann_putnam_draws_two_cards_per_reveal_at_the_end_of_her_turn():
    deck = (CARD.alibi, CARD.stocks, CARD.accusation)
    wanted = [{D.turn: TURN.play, D.play: CARD.witness, D.target: 1}]
    st = position(["ann-putnam", "sarah-good", "tituba", "giles-corey"], tryals=OUT3,
                  hands=[{"witness": 1, "evidence": 1}], deck=deck)
    _, trace = run(K.take_turn, st, wanted, 0)
    assert rows(trace, TR.ann_putnam) == [(0, -1, 2, 0)]
    assert hand(st, 0) == {"evidence": 1, "accusation": 1, "stocks": 1}
    # the knob: at once, right after the reveal
    st = position(["ann-putnam", "sarah-good", "tituba", "giles-corey"], tryals=OUT3,
                  hands=[{"witness": 1, "evidence": 1}], deck=deck, ann_putnam="at_once")
    _, trace = run(K.take_turn, st, wanted, 0)
    codes = [r[1] for r in trace]   # right after the trial and the red cards it clears
    between = codes[codes.index(TR.trial) + 1:codes.index(TR.ann_putnam)]
    assert between and set(between) == {TR.discards}
    assert hand(st, 0) == {"evidence": 1, "accusation": 1, "stocks": 1}


def test_martha_corey_earns_no_ann_putnam_draws_for_the_reveal_that_brings_her_the_ability():
    """Martha Corey (seat 3) holds Rebecca Nurse's ability (seat 2, her right) and reveals its
    last tryal: Rebecca Nurse dies and Ann Putnam (seat 1) becomes her right. The reveal was not
    made with Ann Putnam's ability: no draws at the end of the turn. The knob
    rules.ann_putnam_held = at_draw counts it, as she holds the ability when she draws."""
    deck = (CARD.alibi, CARD.stocks, CARD.accusation)
    tryals = [[WITCH_TRYAL, NAW, NAW], [NAW] * 3, [NAW], [NAW] * 3]
    wanted = [{}, {}, {}, {D.turn: TURN.play, D.play: CARD.witness, D.target: 2}]
    for rule, draws in (("at_reveal", []), ("at_draw", [(3, -1, 2, 0)])):
        st = position(["tituba", "ann-putnam", "rebecca-nurse", "martha-corey"], tryals=tryals,
                      hands=[{}, {}, {}, {"witness": 1, "evidence": 1}], deck=deck,
                      ann_putnam_held=rule)
        _, trace = run(K.take_turn, st, wanted, 3)
        assert rows(trace, TR.trial) == [(3, 2, NAW, 0)] and not alive(st)[2]
        assert rows(trace, TR.ann_putnam) == draws
        assert hand(st, 3) == ({"evidence": 1} if not draws else
                               {"evidence": 1, "accusation": 1, "stocks": 1})
        assert st.outcome == -1


def test_scapegoat_moves_accusations_and_its_player_reveals_the_trial():
    st = position(["tituba", "sarah-good", "giles-corey", "ann-putnam"],
                  hands=[{"scapegoat": 1}])
    add_front(st, 1, CARD.evidence, 2)
    add_front(st, 1, CARD.asylum, 1)
    add_front(st, 2, CARD.accusation, 1)
    K.recount_all(st)
    _, trace = run(K.play_card, st, [{D.target: 1, D.second_target: 2, D.reveal: 0}], 0,
                   CARD.scapegoat)
    assert rows(trace, TR.trial) == [(0, 2, NAW, 0)]
    assert front(st, 2, CARD.asylum) == 1 and accusations(st)[1] == 0


def test_an_alibi_played_as_a_witness_by_will_griggs_reaches_piety():
    st = position(["will-griggs", "sarah-good", "giles-corey", "ann-putnam"],
                  hands=[{"alibi": 1}])
    add_front(st, 1, CARD.piety, 1)
    _, trace = run(K.play_card, st, [{D.target: 1}], 0, ALIBI_WITNESS)
    assert len(rows(trace, TR.trial)) == 1
    assert discard(st)[CARD.alibi] == 1 and front(st, 1, ALIBI_WITNESS) == 0


# --- green and blue cards ------------------------------------------------------------------------------
def test_sarah_good_shrugs_off_arson_and_robbery():
    st = position(["tituba", "sarah-good", "giles-corey", "ann-putnam"],
                  hands=[{"arson": 1, "robbery": 1}, {"witness": 1}, {"alibi": 2}])
    _, trace = run(K.play_card, st, [{D.target: 1}], 0, CARD.arson)
    assert hand(st, 1) == {"witness": 1} and rows(trace, TR.no_effect) == [(0, 1, CARD.arson, 0)]
    run(K.play_card, st, [{D.target: 2, D.second_target: 1}], 0, CARD.robbery)
    assert hand(st, 2) == {"alibi": 2} and hand(st, 1) == {"witness": 1}
    assert discard(st)[CARD.arson] == 1 and discard(st)[CARD.robbery] == 1


def test_arson_and_robbery_on_others():
    st = position(["tituba", "will-griggs", "giles-corey", "ann-putnam"],
                  hands=[{"arson": 1, "robbery": 1}, {"witness": 1}, {"alibi": 2}])
    run(K.play_card, st, [{D.target: 2, D.second_target: 3}], 0, CARD.robbery)
    assert hand(st, 3) == {"alibi": 2} and hand(st, 2) == {}
    run(K.play_card, st, [{D.target: 1}], 0, CARD.arson)
    assert hand(st, 1) == {} and discard(st)[CARD.witness] == 1


def test_curse_discards_the_blue_card_chosen():
    st = position(["tituba", "will-griggs", "giles-corey", "ann-putnam"],
                  hands=[{"curse": 1}])
    add_front(st, 2, CARD.asylum, 1)
    add_front(st, 2, CARD.matchmaker, 1)
    _, trace = run(K.play_card, st, [{D.target: 2, D.curse: CARD.matchmaker}], 0, CARD.curse)
    assert front(st, 2, CARD.matchmaker) == 0 and front(st, 2, CARD.asylum) == 1
    assert rows(trace, TR.play) == [(0, 2, CARD.curse, CARD.matchmaker)]


def test_stocks_skip_the_next_turn_and_stack():
    st = position(["tituba", "will-griggs", "giles-corey", "ann-putnam"], deck=(CARD.alibi,))
    add_front(st, 0, CARD.stocks, 2)
    _, trace = run(K.take_turn, st, [{D.turn: TURN.draw}], 0)
    assert rows(trace, TR.stocks) == [(0, -1, 1, 0)] and hand(st, 0) == {}
    assert discard(st)[CARD.stocks] == 1


# --- drawing ---------------------------------------------------------------------------------------------
def test_giles_corey_shows_two_red_cards_and_draws_a_third():
    deck = (CARD.alibi, CARD.evidence, CARD.accusation)
    st = position(["giles-corey", "will-griggs", "tituba", "ann-putnam"], deck=deck)
    _, trace = run(K.take_turn, st, [{D.turn: TURN.draw}], 0)
    assert hand(st, 0) == {"accusation": 1, "evidence": 1, "alibi": 1}
    st = position(["tituba", "will-griggs", "giles-corey", "ann-putnam"], deck=deck)
    run(K.take_turn, st, [{D.turn: TURN.draw}], 0)
    assert hand(st, 0) == {"accusation": 1, "evidence": 1}


def test_samuel_parris_draws_from_the_discard_pile_instead():
    st = position(["samuel-parris", "will-griggs", "tituba", "ann-putnam"], deck=(CARD.alibi,))
    discard(st)[CARD.witness] = 1
    discard(st)[CARD.conspiracy] = 1
    run(K.take_turn, st, [{D.turn: TURN.parris, D.parris: CARD.witness}], 0)
    assert hand(st, 0) == {"witness": 1} and st.obs[OBS.parris_left] == 1
    assert st.pile_size == 2                         # nothing drawn from the deck


def test_tituba_puts_the_deck_in_order_before_she_draws():
    deck = (CARD.witness, CARD.accusation, CARD.stocks, CARD.alibi)
    st = position(["tituba", "will-griggs", "giles-corey", "ann-putnam"], deck=deck)
    _, trace = run(K.take_turn, st, [{D.turn: TURN.tituba, D.tituba: CARD.witness}], 0)
    assert rows(trace, TR.tituba) == [(0, -1, CARD.witness, 1)]
    assert hand(st, 0) == {"witness": 1, "alibi": 1} and st.obs[OBS.tituba_left] == 0
    top_first = st.pile[:st.pile_size][::-1].tolist()
    assert top_first == [CARD.stocks, CARD.accusation, CARD.night]


def test_tituba_depth_limits_her_look_to_the_top_cards():
    deck = (CARD.witness, CARD.accusation, CARD.stocks, CARD.alibi)
    st = position(["tituba", "will-griggs", "giles-corey", "ann-putnam"], tryals=OUT3, deck=deck,
                  tituba_depth=2)
    _, trace = run(K.take_turn, st, [{D.turn: TURN.tituba, D.tituba: CARD.witness}], 0)
    assert rows(trace, TR.tituba) == []              # the Witness is 4th from the top: unseen
    assert hand(st, 0) == {"alibi": 1, "stocks": 1}


def test_night_drawn_ends_the_turn_unless_the_knob_resumes_it():
    tryals = [[NAW, NAW], [WITCH_TRYAL, NAW], [NAW, NAW], [NAW, NAW]]
    chars = ["tituba", "will-griggs", "giles-corey", "ann-putnam"]
    wanted = [{D.turn: TURN.draw}, {D.night_kill: 0}]
    st = position(chars, tryals=tryals, deck=())
    discard(st)[CARD.alibi] = 3
    _, trace = run(K.take_turn, st, wanted, 0)
    assert rows(trace, TR.night) and hand(st, 0) == {}
    assert not alive(st)[0] and st.pile[0] == CARD.night
    wanted = [{D.turn: TURN.draw}, {D.night_kill: 2}]
    st = position(chars, tryals=tryals, deck=(), night_resumes_turn=True)
    discard(st)[CARD.alibi] = 3
    run(K.take_turn, st, wanted, 0)
    assert hand(st, 0) == {"alibi": 1}               # the second draw, from the new deck


def test_a_night_drawn_out_of_turn_ends_the_turn_too():
    st = position(["tituba", "sarah-good", "rebecca-nurse", "giles-corey"],
                  tryals=[[NAW, NAW], [NAW, NAW, NAW], [NAW, NAW], [WITCH_TRYAL, NAW]],
                  hands=[{"witness": 1, "accusation": 2}], deck=())
    wanted = [{D.turn: TURN.play, D.play: CARD.witness, D.target: 1}, {}, {}, {D.night_kill: 1}]
    _, trace = run(K.take_turn, st, wanted, 0)
    assert rows(trace, TR.night)                     # Rebecca Nurse drew the Night
    assert hand(st, 0) == {"accusation": 2}          # and the turn ended


def test_a_night_drawn_by_one_rebecca_nurse_ends_the_turn_before_another_draws():
    """Martha Corey (seat 3) has the ability of Rebecca Nurse, the nearest living player on her
    right (seat 2): after a trial both draw, in turn order from the placer, Rebecca Nurse first.
    Her draw is the Night; the turn during which it was drawn ends, so Martha Corey draws nothing
    from the reshuffled deck."""
    st = position(["tituba", "sarah-good", "rebecca-nurse", "martha-corey"],
                  tryals=[[NAW, NAW], [NAW, NAW, NAW], [NAW, NAW], [WITCH_TRYAL, NAW]],
                  hands=[{"witness": 1, "accusation": 2}], deck=())
    discard(st)[CARD.alibi] = 3  # the reshuffled deck would give Martha Corey an Alibi
    wanted = [{D.turn: TURN.play, D.play: CARD.witness, D.target: 1}, {}, {}, {D.night_kill: 1}]
    _, trace = run(K.take_turn, st, wanted, 0)
    assert rows(trace, TR.night)                     # Rebecca Nurse drew the Night
    assert hand(st, 3) == {} and hand(st, 2) == {}   # and nobody drew after it
    assert hand(st, 0) == {"accusation": 2}          # the turn ended


def test_a_drawn_black_card_counts_as_a_draw_unless_the_knob_replaces_it():
    tryals = [[NAW, NAW]] * 3 + [[WITCH_TRYAL, NAW]]  # a Witch left: the game goes on
    chars = ["tituba", "will-griggs", "giles-corey", "ann-putnam"]
    deck = (CARD.stocks, CARD.alibi, CARD.conspiracy)
    st = position(chars, tryals=tryals, deck=deck)
    run(K.take_turn, st, [{D.turn: TURN.draw}], 0)
    assert hand(st, 0) == {"alibi": 1} and discard(st)[CARD.conspiracy] == 1
    st = position(chars, tryals=tryals, deck=deck, black_draw_replaced=True)
    run(K.take_turn, st, [{D.turn: TURN.draw}], 0)
    assert hand(st, 0) == {"alibi": 1, "stocks": 1}


def test_with_two_players_left_a_blue_card_drawn_is_discarded_and_replaced():
    st = position(["tituba", "will-griggs", "giles-corey", "ann-putnam"], tryals=OUT3,
                  deck=(CARD.accusation, CARD.alibi, CARD.robbery, CARD.asylum))
    alive(st)[2] = 0
    alive(st)[3] = 0
    st.obs[OBS.two_left] = 1
    _, trace = run(K.take_turn, st, [{D.turn: TURN.draw}], 0)
    assert hand(st, 0) == {"alibi": 1, "accusation": 1} and discard(st)[CARD.asylum] == 1
    assert discard(st)[CARD.robbery] == 1 and len(rows(trace, TR.discarded)) == 2


# --- the night ---------------------------------------------------------------------------------------------
NIGHT_TRYALS = [[WITCH_TRYAL, NAW], [WITCH_TRYAL, NAW], [NAW, CONSTABLE], [NAW, NAW], [NAW, NAW]]
NIGHT_CHARS = ["tituba", "will-griggs", "giles-corey", "ann-putnam", "mary-warren"]


def night(wanted, setup=None, **knobs):
    st = position(NIGHT_CHARS, tryals=NIGHT_TRYALS, **knobs)
    if setup:
        setup(st)
    _, trace = run(K.night, st, wanted)
    return st, trace


def test_the_witches_kill_by_majority_and_the_victim_dies():
    st, trace = night([{D.night_kill: 3}, {D.night_kill: 3}, {D.protect: 4}])
    assert rows(trace, TR.victim) == [(-1, 3, 2, 1)]
    assert rows(trace, TR.dawn) == [(-1, 3, 0, 0)] and not alive(st)[3]
    assert st.pile[0] == CARD.night and st.turn_over == 1 and st.obs[OBS.nights] == 1


def test_a_tied_witch_vote_is_broken_at_random():
    victims = set()
    for seed in range(12):
        st = position(NIGHT_CHARS, tryals=NIGHT_TRYALS)
        _, trace = run(K.night, st, [{D.night_kill: 3}, {D.night_kill: 4}], seed=seed)
        victims.add(rows(trace, TR.victim)[0][1])
    assert victims == {3, 4}                         # P(one seat 12 times) = 2 / 2^12


def test_the_constable_the_confession_and_asylum_save_the_victim():
    st, trace = night([{D.night_kill: 3}, {D.night_kill: 3}, {D.protect: 3}])
    assert rows(trace, TR.protect) == [(2, 3, 0, 0)] and alive(st)[3]
    st, trace = night([{D.night_kill: 3}, {D.night_kill: 3}, {D.protect: 4}, {D.confess: 1}])
    assert rows(trace, TR.confess) == [(3, -1, NAW, 1)] and alive(st)[3]
    st, trace = night([{D.night_kill: 3}, {D.night_kill: 3}, {D.protect: 4}],
                      lambda s: add_front(s, 3, CARD.asylum, 1))
    assert alive(st)[3] and rows(trace, TR.dawn)[0][2] == 3


def test_a_confession_revealing_a_witch_kills_the_confessor():
    st, trace = night([{D.night_kill: 3, D.confess: 0}, {D.night_kill: 3}, {D.protect: 4}])
    assert not alive(st)[0] and rows(trace, TR.death)[0][:2] == (0, CAUSE.confession)


def test_william_phips_confesses_once_without_a_reveal():
    st = position(["tituba", "will-griggs", "william-phips", "ann-putnam", "mary-warren"],
                  tryals=NIGHT_TRYALS)
    _, trace = run(K.night, st, [{}, {D.night_kill: 2}, {D.confess: PHIPS}])
    assert rows(trace, TR.confess) == [(2, -1, -1, PHIPS)]
    assert alive(st)[2] and st.obs[OBS.phips_left + 2] == 0


def test_matchmaker_partners_die_together_except_mary_warren():
    def link(partner):
        def setup(st):
            add_front(st, 3, CARD.matchmaker, 1)
            add_front(st, partner, CARD.matchmaker, 1)
        return setup
    st, trace = night([{D.night_kill: 3}, {D.night_kill: 3}, {D.protect: 4}], link(2))
    assert not alive(st)[3] and not alive(st)[2]
    assert rows(trace, TR.death)[1][:2] == (2, CAUSE.matchmaker)
    st, trace = night([{D.night_kill: 3}, {D.night_kill: 3}, {D.protect: 2}], link(4))
    assert not alive(st)[3] and alive(st)[4]       # Mary Warren
    def link_asylum(st):
        link(2)(st)
        add_front(st, 2, CARD.asylum, 1)
    st, trace = night([{D.night_kill: 3}, {D.night_kill: 3}, {D.protect: 4}], link_asylum)
    assert not alive(st)[2]                        # Asylum saves from the witches' kill only


def test_john_proctor_takes_up_to_three_cards_from_the_dead():
    def setup(st):
        for kind, count in ((CARD.witness, 1), (CARD.evidence, 1), (CARD.alibi, 2)):
            K.add_hand(st, 3, kind, count)
    st = position(["tituba", "will-griggs", "john-proctor", "ann-putnam", "mary-warren"],
                  tryals=NIGHT_TRYALS)
    setup(st)
    _, trace = run(K.die, st, [{}, {}, {D.proctor: CARD.witness}], 3, CAUSE.night)
    assert hand(st, 2) == {"witness": 1}             # then stop
    assert discard(st)[CARD.evidence] == 1 and discard(st)[CARD.alibi] == 2
    st = position(["tituba", "will-griggs", "john-proctor", "ann-putnam", "mary-warren"],
                  tryals=NIGHT_TRYALS, john_proctor="blind")
    setup(st)
    run(K.die, st, [], 3, CAUSE.night)
    assert sum(hand(st, 2).values()) == 3 and discard(st)[:N_HAND].sum() == 1


N_HAND = CARD.black_cat + 1


def test_two_players_left_lose_their_blue_cards_at_once():
    st = position(["tituba", "will-griggs", "giles-corey"],
                  tryals=[[WITCH_TRYAL, NAW], [NAW, NAW], [NAW, NAW]],
                  hands=[{"asylum": 1}, {"scapegoat": 1, "accusation": 1}])
    add_front(st, 1, CARD.piety, 1)
    _, trace = run(K.die, st, [], 2, CAUSE.night)
    assert rows(trace, TR.two_left) == [(-1, -1, 0, 0)]
    # the trace names each of the 3 cards and where it lay
    purged = [r for r in trace[list(trace[:, 1]).index(TR.two_left):] if r[1] == TR.discards]
    assert sorted(tuple(r[2:]) for r in purged) == [
        (0, PLACE.hand, CARD.asylum, 1), (1, PLACE.hand, CARD.scapegoat, 1),
        (1, PLACE.front, CARD.piety, 1)]
    assert hand(st, 1) == {"accusation": 1} and front(st, 1, CARD.piety) == 0


# --- Conspiracy ----------------------------------------------------------------------------------------------
def test_conspiracy_black_cat_reveal_then_each_takes_from_the_left():
    st = position(["tituba", "will-griggs", "giles-corey", "ann-putnam"],
                  tryals=[[NAW, NAW], [WITCH_TRYAL], [NAW, NAW, CONSTABLE], [NAW, NAW]])
    add_front(st, 2, CARD.black_cat, 1)
    before = [set(st.row[s, :st.row_len[s]].tolist()) for s in range(4)]
    _, trace = run(K.conspiracy, st, [{}, {}, {D.cat_reveal: 2}], 3)
    assert rows(trace, TR.cat_reveal) == [(2, 2, CONSTABLE, 2)]
    assert st.obs[OBS.constable_gone] == 1
    for seat, giver in ((0, 1), (1, 2), (2, 3), (3, 0)):
        got = set(st.row[seat, :st.row_len[seat]].tolist()) - before[seat]
        assert len(got) == 1 and got <= before[giver]
    assert [int(st.row_len[s]) for s in range(4)] == [2, 1, 3, 2]   # each gave one, took one
    assert st.ever_witch[0] == 1 and st.known_team[0, 0] == WITCH    # took seat 1's Witch
    assert st.known_team[1, 0] == WITCH                              # and seat 1 knows it
    assert rows(trace, TR.joins_witches) == [(0, -1, 0, 0)]
    assert st.game_events[K.EV.conversions] == 1


def test_the_drawer_picks_the_black_cats_reveal_with_the_knob_and_mary_warren_reveals_none():
    st = position(["tituba", "will-griggs", "giles-corey", "ann-putnam"],
                  black_cat_chooser="drawer")
    add_front(st, 2, CARD.black_cat, 1)
    _, trace = run(K.conspiracy, st, [{}, {D.cat_reveal: 1}, {D.cat_reveal: 0}], 1)
    assert rows(trace, TR.cat_reveal) == [(2, 1, NAW, 1)]
    st = position(["tituba", "will-griggs", "mary-warren", "ann-putnam"])
    add_front(st, 2, CARD.black_cat, 1)
    _, trace = run(K.conspiracy, st, [], 1)
    assert rows(trace, TR.cat_reveal) == []


def test_a_black_cat_reveal_that_kills_leaves_its_holder_out_of_the_passing():
    st = position(["tituba", "will-griggs", "giles-corey", "ann-putnam"],
                  tryals=[[NAW, NAW], [NAW, NAW], [NAW], [NAW, WITCH_TRYAL]])
    add_front(st, 2, CARD.black_cat, 1)
    _, trace = run(K.conspiracy, st, [], 0)
    assert not alive(st)[2]
    # (giver, receiver): seat 0 takes from seat 1, seat 1 from seat 3, seat 3 from seat 0
    assert sorted(r[:2] for r in rows(trace, TR.passed)) == [(0, 3), (1, 0), (3, 1)]
    # each giver's slot (one of its two), each receiver's new last slot
    for giver, receiver, kind, x in rows(trace, TR.passed):
        assert x >> 6 == 1 and (x >> 1) & 31 in (0, 1)


def test_the_conspiracy_variant_passes_through_the_middle():
    st = position(["tituba", "will-griggs", "giles-corey", "ann-putnam"],
                  tryals=[[NAW, WITCH_TRYAL], [NAW, NAW], [NAW, NAW], [NAW, NAW]],
                  variants__conspiracy="middle")
    ids = sorted(st.row[s, j] for s in range(4) for j in range(2))
    _, trace = run(K.conspiracy, st, [], 0)
    assert sorted(st.row[s, j] for s in range(4) for j in range(st.row_len[s])) == ids
    assert all(st.row_len[s] == 2 for s in range(4))
    assert all(x & 1 == 1 for *_, x in rows(trace, TR.passed))   # through the middle
    for giver, receiver, kind, x in rows(trace, TR.passed):  # the slots it went from and to
        assert x >> 6 == 1 and 0 <= (x >> 1) & 31 <= 1


def test_the_witches_win_when_a_conspiracy_converts_the_last_townsperson():
    st = position(["tituba", "will-griggs", "giles-corey"],
                  tryals=[[NAW], [WITCH_TRYAL], [WITCH_TRYAL]])
    alive(st)[2] = 0
    st.ever_witch[2] = 0
    run(K.conspiracy, st, [], 0)
    assert st.outcome == END.witches_by_conversion
    assert K.settle(st) == WITCH and list(st.won[:2]) == [1, 1]
    st = position(["tituba", "will-griggs", "giles-corey"],
                  tryals=[[NAW], [WITCH_TRYAL], [WITCH_TRYAL]], last_convert_loses=True)
    alive(st)[2] = 0
    run(K.conspiracy, st, [], 0)
    assert K.settle(st) == WITCH and list(st.won[:2]) == [0, 1]


# --- the first night -------------------------------------------------------------------------------------
def test_the_witches_place_the_black_cat_and_its_holder_starts():
    st = position(["tituba", "will-griggs", "giles-corey", "ann-putnam"],
                  tryals=[[WITCH_TRYAL, NAW], [NAW, NAW], [WITCH_TRYAL, NAW], [NAW, NAW]])
    start, trace = run(K.first_night, st, [{D.black_cat: 3}, {}, {D.black_cat: 3}])
    assert start == 3 and front(st, 3, CARD.black_cat) == 1
    assert st.first_cat == 3 and st.first_cat_team == TOWN
    assert st.known_team[0, 2] == WITCH and st.known_team[2, 1] == TOWN
    assert len(rows(trace, TR.kill_vote)) == 2


def test_a_dead_players_tryals_stay_revealed_in_front_of_them():
    st = position(["tituba", "will-griggs", "giles-corey", "ann-putnam"])
    reveal_tryal(st, 1, 0)
    run(K.die, st, [], 1, CAUSE.trial)
    assert st.row_len[1] == 4 and all(st.tryal_up[st.row[1, j]] for j in range(4))
    assert st.obs[OBS.team_shown + 1] == TOWN and STOP == 16 and TRYAL.witch == WITCH_TRYAL


_ = np


# --- the setup ---------------------------------------------------------------------------------------------
EIGHT = ["tituba", "will-griggs", "giles-corey", "ann-putnam", "mary-warren", "sarah-good",
         "john-proctor", "samuel-parris"]


def test_the_deal_characters_tryals_three_cards_each_and_the_deck():
    st = position(EIGHT)
    _, trace = run(K.deal, st, [], seed=5)
    chars = st.character[:8].tolist()
    assert len(set(chars)) == 8 and all(x == -1 for *_, x in rows(trace, TR.character))
    assert [int(st.row_len[s]) for s in range(8)] == [4] * 8       # 32 tryals, 4 each
    kinds = [int(st.tryal_kind[st.row[s, j]]) for s in range(8) for j in range(4)]
    assert [kinds.count(k) for k in (NAW, WITCH_TRYAL, CONSTABLE)] == [29, 2, 1]
    assert [int(st.hand[s].sum()) for s in range(8)] == [3] * 8    # 3 cards each
    assert all(st.hand[s, k] == 0 for s in range(8)
               for k in (CARD.black_cat, CARD.night, CARD.conspiracy))
    pile = st.pile[:st.pile_size].tolist()
    assert pile[0] == CARD.night and pile.count(CARD.night) == 1    # Night at the bottom
    assert pile.count(CARD.conspiracy) == 1 and CARD.black_cat not in pile   # set aside
    assert len(pile) == 59 - 1 - 24 and discard(st).sum() == 0
    assert [int(st.ever_witch[s]) for s in range(8)] == [
        int(any(st.tryal_kind[st.row[s, j]] == WITCH_TRYAL for j in range(4))) for s in range(8)]


def test_deal_two_characters_keep_one():
    st = position(EIGHT[:5], character_draft="lt7")
    _, trace = run(K.deal, st, [], seed=2)
    dealt = rows(trace, TR.character)
    assert len(dealt) == 5 and all(x >= 0 and x != kept for _, _, kept, x in dealt)
    kept = [kept for _, _, kept, _ in dealt]
    offered = kept + [x for *_, x in dealt]
    assert len(set(offered)) == 10 and st.character[:5].tolist() == kept
    assert all(kept == min(kept, x) for _, _, kept, x in dealt)  # the script keeps the lower
