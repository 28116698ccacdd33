"""Salem rules on hand-built positions (simulator/games/salem/rules.py and the legal masks of
observation.py). docs/rules/salem.md cites each test next to the rule it covers."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import binom

from simulator.games.salem.declaration import (
    ALIBI_WITNESS, CARD, CHAR, END, HIDDEN, N_CARDS, OBS, PHASE, PHIPS, STOP, TOWN, TRYAL, TURN,
    WITCH,
)
from simulator.games.salem.observation import (
    legal_blue, legal_confess, legal_play, legal_target, legal_turn, playable,
)
from simulator.games.salem.rules import (
    alibi_removal, ann_putnam_draws, ann_putnam_earns, apply_alibi, arrange_top, black_cat_holder,
    bury, face_down_slot, give_tryal, has_ability, immune_to_theft, matchmaker_partner, move_front,
    move_hand, next_living, night_at_bottom, pick_face_down, recount, red_allowed, remove_tryal,
    reveal_kills, reveal_tryal, right_living, take_tryal, threshold_of, town_knowledge_goes_stale,
    two_left_purge, victory, witches_wake,
)

from test_salem_positions import (
    CONSTABLE, NAW, WITCH_TRYAL, accusations, add_front, alive, discard, front, hand, position,
)

PLAIN = ["abigail-williams", "ann-putnam", "giles-corey", "john-proctor"]


def legal(st):
    return [a for a in range(st.legal.size) if st.legal[a]]


# --- seats and characters ------------------------------------------------------------------------
def test_left_is_clockwise_and_right_counter_clockwise_skipping_the_dead():
    st = position(PLAIN + ["tituba"])
    assert next_living(st, 4) == 0 and right_living(st, 0) == 4
    alive(st)[0] = 0
    assert next_living(st, 4) == 1 and right_living(st, 1) == 4


def test_martha_corey_has_the_ability_of_the_nearest_living_player_to_her_right():
    st = position(["george-burroughs", "tituba", "martha-corey", "sarah-good"])
    assert has_ability(st, 2, CHAR.tituba) and not has_ability(st, 2, CHAR.george_burroughs)
    assert has_ability(st, 2, CHAR.martha_corey)
    alive(st)[1] = 0  # her right is now George Burroughs: 8 accusations for her too
    assert has_ability(st, 2, CHAR.george_burroughs) and not has_ability(st, 2, CHAR.tituba)
    assert threshold_of(st, 2, 3) == 8


@pytest.mark.parametrize("timing", ["end_of_turn", "at_once"])
def test_only_a_reveal_made_while_holding_ann_putnams_ability_earns_her_draws(timing):
    """Martha Corey (seat 2) reveals a tryal that kills her right-hand neighbour (seat 1). When
    Rebecca Nurse dies there, Ann Putnam (seat 0) becomes her right: the reveal was made with
    Rebecca Nurse's ability, not Ann Putnam's, so by default (rules.ann_putnam_held = at_reveal)
    it earns nothing. When Ann Putnam dies there, the reveal was made with her ability and earns
    2 cards at the end of the turn, though Martha Corey no longer holds it then. With at_draw
    the ability is read when she draws: every reveal of the turn counts if she holds it then (at
    the end of the turn; right after the reveal with rules.ann_putnam = at_once)."""
    at_once = timing == "at_once"
    for rule in ("at_reveal", "at_draw"):
        # she gains the ability by the death
        st = position(["ann-putnam", "rebecca-nurse", "martha-corey", "tituba"],
                      ann_putnam=timing, ann_putnam_held=rule)
        held = has_ability(st, 2, CHAR.ann_putnam)
        alive(st)[1] = 0
        assert not held and has_ability(st, 2, CHAR.ann_putnam)
        assert ann_putnam_earns(st, 2, held) == (rule == "at_draw")
        st.ann_pending[2] = 1
        assert ann_putnam_draws(st, 2) == 2   # the end of the turn: she holds the ability
        # she loses the ability by the death
        st = position(["tituba", "ann-putnam", "martha-corey", "sarah-good"],
                      ann_putnam=timing, ann_putnam_held=rule)
        held = has_ability(st, 2, CHAR.ann_putnam)
        alive(st)[1] = 0
        assert held and not has_ability(st, 2, CHAR.ann_putnam)
        assert ann_putnam_earns(st, 2, held) == (rule == "at_reveal" or not at_once)
        st.ann_pending[2] = 1
        assert ann_putnam_draws(st, 2) == (2 if rule == "at_reveal" else 0)
        # Ann Putnam herself earns 2 cards a reveal; a player without her ability none (with
        # at_draw at the end of the turn its reveals count, and it holds no ability to draw)
        st = position(["ann-putnam", "tituba", "sarah-good", "giles-corey"],
                      ann_putnam=timing, ann_putnam_held=rule)
        assert ann_putnam_earns(st, 0, True)
        st.ann_pending[0] = 2
        assert ann_putnam_draws(st, 0) == 4
        assert ann_putnam_earns(st, 1, False) == (rule == "at_draw" and not at_once)
        if rule == "at_draw":
            st.ann_pending[1] = 1
            assert ann_putnam_draws(st, 1) == 0


# --- accusations and trials ---------------------------------------------------------------------
def test_thresholds_burroughs_danforth_and_piety_read_as_a_double_threshold():
    st = position(["george-burroughs", "thomas-danforth", "tituba", "sarah-good"])
    assert threshold_of(st, 2, 3) == 7            # 7 accusations
    assert threshold_of(st, 0, 3) == 8            # George Burroughs: 8
    assert threshold_of(st, 2, 1) == 6            # Thomas Danforth accuses: 1 fewer
    assert threshold_of(st, 0, 1) == 7
    add_front(st, 2, CARD.piety, 1)
    assert threshold_of(st, 2, 3) == 7            # Piety (no red cards) keeps the threshold
    st = position(["george-burroughs", "thomas-danforth", "tituba", "sarah-good"],
                  piety="double_threshold")
    add_front(st, 2, CARD.piety, 1)
    add_front(st, 0, CARD.piety, 1)
    assert threshold_of(st, 2, 3) == 14 and threshold_of(st, 0, 3) == 16
    assert threshold_of(st, 2, 1) == 13           # doubled, then Danforth's -1


def test_red_cards_are_worth_1_3_7_and_evidence_is_1_on_cotton_mather():
    st = position(["cotton-mather", "tituba", "martha-corey", "sarah-good"])
    for seat in (0, 1, 2):
        add_front(st, seat, CARD.accusation, 2)
        add_front(st, seat, CARD.evidence, 1)
        add_front(st, seat, CARD.witness, 1)
        add_front(st, seat, ALIBI_WITNESS, 1)
    assert recount(st, 1) == 2 + 3 + 7 + 7
    assert recount(st, 0) == 2 + 1 + 7 + 7        # Cotton Mather
    assert recount(st, 2) == 2 + 3 + 7 + 7        # Martha's right is Tituba
    alive(st)[1] = 0
    assert recount(st, 2) == 2 + 1 + 7 + 7        # now Cotton Mather is her right


def test_piety_keeps_red_cards_from_hands_off_its_holder():
    st = position(PLAIN, hands=[{"accusation": 1, "alibi": 1}])
    add_front(st, 1, CARD.piety, 1)
    assert not red_allowed(st, 0, 1) and red_allowed(st, 0, 2)
    assert not red_allowed(st, 0, 0)               # never on oneself
    alive(st)[3] = 0
    assert not red_allowed(st, 0, 3)               # nor on the dead
    legal_target(st, 0, CARD.accusation)
    assert legal(st) == [2]
    st.character[0] = CHAR.will_griggs             # an Alibi as a Witness still reaches Piety
    assert playable(st, 0, ALIBI_WITNESS)
    legal_target(st, 0, CARD.alibi)
    assert legal(st) == [1, 2]
    st = position(PLAIN, piety="double_threshold")
    add_front(st, 1, CARD.piety, 1)
    assert red_allowed(st, 0, 1)


@pytest.mark.parametrize("accusation_cards, evidence_cards, value, removed", [
    (0, 0, 3, (0, 0)),
    (1, 0, 3, (1, 0)),
    (5, 0, 3, (3, 0)),       # up to 3 accusations
    (1, 1, 3, (0, 1)),       # the Evidence removes 3, the Accusation only 1
    (3, 1, 3, (3, 0)),       # 3 either way: Accusation cards first
    (2, 2, 1, (2, 1)),       # Cotton Mather: Evidence is 1
    (0, 3, 1, (0, 3)),
])
def test_alibi_removes_up_to_3_accusations(accusation_cards, evidence_cards, value, removed):
    assert alibi_removal(accusation_cards, evidence_cards, value) == removed


def test_alibi_discards_the_removed_cards_and_leaves_a_witness():
    st = position(PLAIN)
    add_front(st, 1, CARD.accusation, 1)
    add_front(st, 1, CARD.evidence, 1)
    add_front(st, 1, CARD.witness, 1)
    recount(st, 1)
    assert apply_alibi(st, 1) == 3
    assert accusations(st)[1] == 8 and front(st, 1, CARD.evidence) == 0
    assert discard(st)[CARD.evidence] == 1 and front(st, 1, CARD.witness) == 1


def test_a_revealed_witch_or_the_last_tryal_kills():
    st = position(PLAIN, tryals=[[NAW, WITCH_TRYAL], [NAW], [NAW, CONSTABLE], [NAW, NAW]])
    kind = reveal_tryal(st, 0, 0)
    assert kind == NAW and not reveal_kills(st, 0, kind)
    kind = reveal_tryal(st, 0, 1)
    assert kind == TRYAL.witch and reveal_kills(st, 0, kind)
    assert reveal_kills(st, 1, reveal_tryal(st, 1, 0))           # the last tryal
    assert st.obs[OBS.revealed + 0 * 3 + TRYAL.witch] == 1
    assert list(st.obs[OBS.row:OBS.row + 3]) == [NAW, TRYAL.witch, -1]
    assert st.known_team[3, 0] == WITCH                             # a revealed Witch is public


def test_a_revealed_constable_ends_the_constables_power():
    from simulator.games.salem.rules import constable_seat
    st = position(PLAIN, tryals=[[NAW, NAW], [NAW, NAW], [NAW, CONSTABLE], [NAW, NAW]])
    assert constable_seat(st) == 2 and st.obs[OBS.constable_gone] == 0
    reveal_tryal(st, 2, 1)
    assert constable_seat(st) == -1 and st.obs[OBS.constable_gone] == 1


# --- cards in front ----------------------------------------------------------------------------------
def test_scapegoat_moves_every_red_green_and_blue_card():
    st = position(PLAIN)
    add_front(st, 1, CARD.evidence, 2)
    add_front(st, 1, CARD.stocks, 1)
    add_front(st, 1, CARD.asylum, 1)
    add_front(st, 2, CARD.accusation, 1)
    recount(st, 1)
    recount(st, 2)
    assert move_front(st, 1, 2) == 4
    assert accusations(st)[1] == 0 and accusations(st)[2] == 7
    assert front(st, 2, CARD.stocks) == 1 and front(st, 2, CARD.asylum) == 1


def test_robbery_gives_a_whole_hand_and_sarah_good_is_immune():
    st = position(["sarah-good", "tituba", "martha-corey", "ann-putnam"],
                  hands=[{"accusation": 2}, {"alibi": 1, "witness": 1}])
    assert move_hand(st, 1, 3) == 2
    assert hand(st, 3) == {"alibi": 1, "witness": 1} and hand(st, 1) == {}
    assert st.obs[OBS.hand_size + 3] == 2 and st.obs[OBS.hand_size + 1] == 0
    assert immune_to_theft(st, 0) and not immune_to_theft(st, 1)
    alive(st)[1] = 0                               # Martha's right is Sarah Good
    assert immune_to_theft(st, 2)


def test_matchmaker_links_the_two_holders():
    st = position(PLAIN)
    assert matchmaker_partner(st, 0) == -1
    add_front(st, 0, CARD.matchmaker, 1)
    assert matchmaker_partner(st, 0) == -1
    add_front(st, 2, CARD.matchmaker, 1)
    assert matchmaker_partner(st, 0) == 2 and matchmaker_partner(st, 2) == 0
    add_front(st, 2, CARD.matchmaker, -1)
    add_front(st, 0, CARD.matchmaker, 1)           # both in front of one player: no partner
    assert matchmaker_partner(st, 0) == -1


def test_black_cat_holder():
    st = position(PLAIN)
    assert black_cat_holder(st) == -1
    add_front(st, 3, CARD.black_cat, 1)
    assert black_cat_holder(st) == 3


# --- tryals and what players know ---------------------------------------------------------------------
def test_a_passed_witch_converts_its_receiver_and_its_giver_knows():
    st = position(PLAIN, tryals=[[NAW, NAW], [WITCH_TRYAL, NAW], [NAW, NAW], [NAW, NAW]])
    tid = st.row[1, 0]
    remove_tryal(st, 1, tid)
    give_tryal(st, 0, tid)
    assert st.ever_witch[0] == 1 and st.role[0] == CHAR.abigail_williams + 15
    assert st.ever_witch[1] == 1                   # who ever held a Witch stays a witch
    assert st.known_team[1, 0] == WITCH and st.known_witch[1, 0] == 1
    assert st.known_witch[1, 1] == 0 and st.known_witch[0, 0] == 1
    assert st.known_team[2, 0] == -1               # nobody else knows
    # the row closes up: seat 1 keeps one tryal, seat 0 has three
    assert st.row_len[1] == 1 and st.row_len[0] == 3
    assert take_tryal(st, 0, 2) == tid and st.known_witch[1, 0] == 0


def test_blind_picks_are_uniform_among_face_down_tryals():
    st = position(PLAIN, tryals=[[NAW, NAW, NAW, NAW], [NAW], [NAW], [NAW]])
    reveal_tryal(st, 0, 1)
    rng = np.random.default_rng(4)
    picks = [pick_face_down(st, 0, rng) for _ in range(3000)]
    assert st.row[0, 1] not in picks
    counts = np.bincount([list(st.row[0, :4]).index(p) for p in picks], minlength=4)
    # each of the 3 face-down slots: Binomial(3000, 1/3); 99.99% two-sided bounds
    low, high = binom.ppf(0.00005, 3000, 1 / 3), binom.ppf(0.99995, 3000, 1 / 3)
    assert counts[1] == 0 and all(low <= c <= high for c in counts[[0, 2, 3]])
    assert face_down_slot(st, 0, 1) == 2


def test_witches_learn_their_team_at_night_and_town_knowledge_goes_stale():
    st = position(PLAIN, tryals=[[WITCH_TRYAL, NAW], [NAW], [WITCH_TRYAL], [NAW]])
    witches_wake(st)
    assert list(st.known_team[0, :4]) == [WITCH, TOWN, WITCH, TOWN]
    assert list(st.known_team[1, :4]) == [-1, TOWN, -1, -1]
    town_knowledge_goes_stale(st)
    assert list(st.known_team[0, :4]) == [WITCH, -1, WITCH, -1]
    assert st.known_team[1, 1] == TOWN


# --- death ---------------------------------------------------------------------------------------------
def test_the_dead_discard_everything_reveal_their_tryals_and_announce_their_team():
    st = position(PLAIN, tryals=[[NAW, WITCH_TRYAL], [NAW], [NAW], [NAW]],
                  hands=[{"accusation": 2, "piety": 1}])
    add_front(st, 0, CARD.stocks, 1)
    assert bury(st, 0) == WITCH
    assert not alive(st)[0] and hand(st, 0) == {} and front(st, 0, CARD.stocks) == 0
    assert discard(st)[CARD.accusation] == 2 and discard(st)[CARD.stocks] == 1
    assert list(st.obs[OBS.row:OBS.row + 2]) == [NAW, TRYAL.witch]
    assert st.obs[OBS.team_shown] == WITCH and st.known_team[3, 0] == WITCH


def test_the_silent_dead_take_their_tryals_out_of_the_game_face_down():
    st = position(PLAIN, tryals=[[NAW, WITCH_TRYAL], [NAW], [NAW], [NAW]],
                  variants__dead_silent=True)
    assert bury(st, 0) == -1
    assert list(st.obs[OBS.row:OBS.row + 2]) == [HIDDEN, HIDDEN]
    assert st.obs[OBS.team_shown] == -1 and st.known_team[3, 0] == -1
    assert st.obs[OBS.face_down] == 0


# --- the deck --------------------------------------------------------------------------------------------
def test_the_new_deck_is_the_discard_pile_and_the_rest_with_night_at_the_bottom():
    st = position(PLAIN, deck=(CARD.accusation, CARD.night, CARD.witness))
    st.pile[2] = CARD.evidence                    # (one Night: Tituba moved it up)
    st.pile[0] = CARD.night
    discard(st)[CARD.conspiracy] = 1
    discard(st)[CARD.alibi] = 2
    night_at_bottom(st, np.random.default_rng(1))
    cards = sorted(st.pile[:st.pile_size].tolist())
    assert st.pile[0] == CARD.night and st.pile_size == 7
    assert cards == sorted([CARD.night, CARD.accusation, CARD.evidence, CARD.witness,
                            CARD.conspiracy, CARD.alibi, CARD.alibi])
    assert discard(st).sum() == 0 and st.obs[OBS.deck_size] == 7


def test_tituba_arranges_the_top_of_the_deck():
    st = position(PLAIN, deck=(CARD.accusation, CARD.evidence, CARD.witness, CARD.alibi))
    # top first: alibi, witness, evidence, accusation, night
    picks = np.array([CARD.evidence, CARD.night] + [0] * 10, dtype=np.int64)
    arrange_top(st, 5, picks, 2)
    top_first = st.pile[:st.pile_size][::-1].tolist()
    assert top_first == [CARD.evidence, CARD.night, CARD.alibi, CARD.witness, CARD.accusation]


def test_two_players_left_discard_every_blue_card_and_scapegoat_and_robbery():
    st = position(PLAIN, hands=[{"asylum": 1, "scapegoat": 1, "accusation": 2},
                                {"robbery": 1, "matchmaker": 1}])
    add_front(st, 2, CARD.black_cat, 1)
    add_front(st, 2, CARD.piety, 1)
    assert two_left_purge(st) == 6
    assert hand(st, 0) == {"accusation": 2} and hand(st, 1) == {}
    assert front(st, 2, CARD.black_cat) == 0 and st.obs[OBS.two_left] == 1
    assert not playable(st, 0, CARD.scapegoat)


# --- victory -----------------------------------------------------------------------------------------------
def test_the_town_wins_when_every_witch_tryal_is_revealed():
    st = position(PLAIN, tryals=[[NAW, WITCH_TRYAL], [WITCH_TRYAL], [NAW], [NAW]])
    assert victory(st) == -1
    reveal_tryal(st, 0, 1)
    assert victory(st) == -1
    reveal_tryal(st, 1, 0)
    assert victory(st) == END.witch_tryals_revealed   # the witch team need not be dead


def test_the_witches_win_when_every_living_player_is_a_witch_and_say_how():
    st = position(PLAIN, tryals=[[NAW, WITCH_TRYAL], [NAW, NAW], [NAW], [NAW]])
    for seat in (2, 3):
        alive(st)[seat] = 0
    assert victory(st) == -1
    st.ever_witch[1] = 1                           # converted earlier; seat 1 passed it on
    for phase, end in ((PHASE.night, END.witches_by_night),
                       (PHASE.conversion, END.witches_by_conversion),
                       (PHASE.day, END.witches_by_day)):
        st.phase = phase
        assert victory(st) == end


def test_both_victories_at_once_go_to_the_town():
    st = position(PLAIN, tryals=[[NAW, WITCH_TRYAL], [NAW], [NAW], [NAW]])
    reveal_tryal(st, 0, 1)
    for seat in (1, 2, 3):
        alive(st)[seat] = 0
    assert victory(st) == END.witch_tryals_revealed


def test_silent_dead_town_wins_when_no_witch_tryal_is_left_face_down_before_the_living():
    st = position(PLAIN, tryals=[[NAW, WITCH_TRYAL], [NAW], [NAW], [NAW]],
                  variants__dead_silent=True)
    bury(st, 0)
    assert victory(st) == END.witch_tryals_revealed


# --- legal masks ----------------------------------------------------------------------------------------
def test_a_turn_is_a_draw_or_a_play_and_parris_and_tituba_have_their_own():
    st = position(["samuel-parris", "tituba", "giles-corey", "sarah-good"],
                  hands=[{}, {"accusation": 1}], deck=(CARD.alibi,))
    legal_turn(st, 0)
    assert legal(st) == [TURN.draw]                 # nothing to play, nothing discarded
    discard(st)[CARD.witness] = 1
    legal_turn(st, 0)
    assert legal(st) == [TURN.draw, TURN.parris]
    legal_turn(st, 1)
    assert legal(st) == [TURN.draw, TURN.play, TURN.tituba]
    st.obs[OBS.tituba_left + 1] = 0                 # once per game
    legal_turn(st, 1)
    assert legal(st) == [TURN.draw, TURN.play]


def test_cards_are_played_one_by_one_and_stop_only_after_the_first():
    st = position(PLAIN, hands=[{"accusation": 1, "curse": 1, "night": 0}])
    legal_play(st, 0, True)
    assert legal(st) == [CARD.accusation]           # no blue card in front of anyone: no Curse
    add_front(st, 2, CARD.asylum, 1)
    legal_play(st, 0, False)
    assert legal(st) == [CARD.accusation, CARD.curse, STOP]
    legal_target(st, 0, CARD.curse)
    assert legal(st) == [2]
    legal_blue(st, 2)
    assert legal(st) == [CARD.asylum]


def test_a_black_cat_drawn_after_its_discard_is_played_like_a_blue_card():
    st = position(PLAIN, hands=[{"black_cat": 1}])
    assert playable(st, 0, CARD.black_cat)
    legal_target(st, 0, CARD.black_cat)
    assert legal(st) == [1, 2, 3]                   # on another player, never on its player


def test_only_will_griggs_plays_an_alibi_as_a_witness():
    st = position(["will-griggs", "martha-corey", "tituba", "sarah-good"],
                  hands=[{"alibi": 1}, {"alibi": 1}, {"alibi": 1}])
    assert playable(st, 0, ALIBI_WITNESS) and playable(st, 1, ALIBI_WITNESS)
    assert not playable(st, 2, ALIBI_WITNESS) and playable(st, 2, CARD.alibi)


def test_dawn_confessions_and_william_phips():
    st = position(["william-phips", "tituba", "giles-corey", "sarah-good"],
                  tryals=[[NAW, NAW], [NAW, WITCH_TRYAL], [NAW], [NAW]])
    reveal_tryal(st, 0, 0)
    legal_confess(st, 0)
    assert legal(st) == [1, PHIPS, STOP]
    st.obs[OBS.phips_left] = 0
    legal_confess(st, 0)
    assert legal(st) == [1, STOP]
    legal_confess(st, 1)
    assert legal(st) == [0, 1, STOP]


def test_blank_counts_are_the_published_deck():
    st = position(PLAIN)
    assert st.deck_counts.sum() == 59 and st.deck_counts[CARD.accusation] == 35
    assert st.deck_counts.size == N_CARDS and TOWN == 0 and WITCH == 1
