"""Chenghuang rules on hand-built positions (simulator/games/chenghuang/rules.py).

Every expected number is derived in the comment next to it from the printed scoring table:
殺生 6, 仁愛 4, 奸惡 3 each; 忠信 1/2/3 cards 2/10/18; 孝行 0/6/21; 竊盜 2; a 4th and later
忠信 / 孝行 scores nothing.
"""

from __future__ import annotations

import numpy as np
import pytest

from simulator.games.chenghuang.declaration import (
    CARD, FACE_DOWN, N_KINDS, N_ROLES, ROLE, SET_LEN, T,
)
from simulator.games.chenghuang.params import ChenghuangParams, scoring_table
from simulator.games.chenghuang.rules import (
    admit_discard, can_be_robbed, deal_packs, draft_pick, extremes, face_down_count, fan_adjust,
    floor_scores, gan_draw, gan_keep, horse_face_takes, is_highest, judge_names, kind_points,
    kind_score, knows_slot, lose_most_valuable, most_valuable_pair, next_captain_candidates,
    pack_in_hand, peek, peekable, role_kind_points, round_scores, scribe, showdown_score, steal,
    take_from_pile, thief_candidates,
)

from test_chenghuang_positions import (
    TABLE, cards, lay, lay_random, position, random_table, relayout,
)

KILLING, BENEVOLENCE, TREACHERY, LOYALTY, FILIAL, THEFT = CARD
LIU, MARTIAL, GAN, IMPLEMENTS, CIVIL, OX_HEAD, XIE, HORSE_FACE, FAN = ROLE

NONE = -1
ANY = 0  # a role without a scoring ability (柳將軍)


# --- the scoring table, every kind ----------------------------------------------------------------
PRINTED = [
    # kind, counts 0.. -> points
    (KILLING, [0, 6, 12, 18, 24]),
    (BENEVOLENCE, [0, 4, 8, 12]),
    (TREACHERY, [0, 3, 6, 9]),
    (LOYALTY, [0, 2, 10, 18, 18, 18]),   # 4th and 5th add nothing
    (FILIAL, [0, 0, 6, 21, 21, 21]),
    (THEFT, [0, 2, 4, 6]),
]


@pytest.mark.parametrize("kind,points", PRINTED)
def test_printed_points_per_kind_and_set_size(kind, points):
    for count, expected in enumerate(points):
        assert kind_points(TABLE, 0, kind, count) == expected
        # a role without a scoring power scores the printed points
        assert kind_score(TABLE, 0, kind, count, LIU, NONE) == expected


ROLE_CASES = [
    # 武判 naming a set kind: 5 each, 3 忠信 score 15 (not 18); the 4th and 5th count too (5 each)
    (MARTIAL, LOYALTY, LOYALTY, [0, 5, 10, 15, 20, 25]),
    (MARTIAL, FILIAL, FILIAL, [0, 5, 10, 15, 20, 25]),
    # 武判 naming 殺生 lowers it to 5 each; another kind keeps its printed points
    (MARTIAL, KILLING, KILLING, [0, 5, 10, 15]),
    (MARTIAL, KILLING, LOYALTY, [0, 2, 10, 18]),
    (MARTIAL, THEFT, THEFT, [0, 5, 10, 15]),
    # 牛頭 doubles 殺生 (6 -> 12 each) and nothing else
    (OX_HEAD, NONE, KILLING, [0, 12, 24, 36]),
    (OX_HEAD, NONE, BENEVOLENCE, [0, 4, 8, 12]),
    # 謝將軍: +1 for each 忠信 and each 孝行 held, the 4th and later included
    # (2+1, 10+2, 18+3, 18+4)
    (XIE, NONE, LOYALTY, [0, 3, 12, 21, 22, 23]),
    (XIE, NONE, FILIAL, [0, 1, 8, 24, 25, 26]),
    (XIE, NONE, TREACHERY, [0, 3, 6, 9]),
]


@pytest.mark.parametrize("role,judge,kind,points", ROLE_CASES)
def test_role_scoring(role, judge, kind, points):
    for count, expected in enumerate(points):
        assert kind_score(TABLE, 0, kind, count, role, judge) == expected


def test_showdown_score_adds_every_kind_and_the_implements_bonus():
    held = cards(killing=1, benevolence=1, treachery=1, loyalty=2, filial=1, theft=1)
    # 6 + 4 + 3 + 10 + 0 + 2 = 25
    assert showdown_score(TABLE, 0, held, 0, LIU, NONE) == 25
    # 刑具爺: +3 this round
    assert showdown_score(TABLE, 0, held, 0, IMPLEMENTS, NONE) == 28
    # 牛頭: 殺生 12 instead of 6
    assert showdown_score(TABLE, 0, held, 0, OX_HEAD, NONE) == 31
    # 謝將軍: +2 (忠信) +1 (孝行)
    assert showdown_score(TABLE, 0, held, 0, XIE, NONE) == 28
    # 武判 naming 忠信: 2 x 5 = 10, same as printed; naming 孝行: 5 instead of 0
    assert showdown_score(TABLE, 0, held, 0, MARTIAL, FILIAL) == 30
    # the judge kind only applies to 武判
    assert showdown_score(TABLE, 0, held, 0, LIU, FILIAL) == 25


def test_scoring_table_is_data():
    # a designer's table: 殺生 5 each, 忠信 as a 4-step set, 竊盜 -1 each; 武判 7 per card
    table = scoring_table((5, 4, 3, (1, 4, 9, 16), (0, 6, 21), -1), judge=7)
    assert [kind_points(table, 0, LOYALTY, c) for c in range(6)] == [0, 1, 4, 9, 16, 16]
    assert kind_points(table, 0, KILLING, 2) == 10
    assert kind_points(table, 0, THEFT, 3) == -3
    assert kind_score(table, 0, BENEVOLENCE, 2, MARTIAL, BENEVOLENCE) == 14


@pytest.mark.parametrize("table", [
    TABLE,
    # a designer's table: a 4-step 忠信 set, negative 竊盜, 牛頭 x3, 謝將軍 +2
    scoring_table((5, 4, 3, (1, 4, 9, 16), (0, 6, 21), -1), judge=7, ox_head=3, xie=2),
    # a set row as long as the table holds (7 steps)
    scoring_table((1, (1, 2, 3, 4, 5, 6, 7), 0, 0, 0, 0)),
], ids=["official", "designer", "long-set"])
def test_derived_points_agree_with_the_rule_at_every_count(table):
    """kind_score reads the table's derived entries (T.points) and extends them past POINTS_LEN;
    the rule itself is role_kind_points (printed points and the S abilities). They agree for
    every role, kind and count, far past the set table."""
    for role in range(N_ROLES):
        for kind in range(N_KINDS):
            for count in range(25):
                assert (kind_score(table, 0, kind, count, role, NONE)
                        == role_kind_points(table, 0, kind, count, role)), (role, kind, count)
        # 武判's named kind is not in the derived entries: T.judge per card
        assert kind_score(table, 0, LOYALTY, 9, MARTIAL, LOYALTY) == 9 * table[T.judge]
    for kind in range(N_KINDS):
        has_set = any(table[T.set + kind * SET_LEN + c] != 0 for c in range(SET_LEN))
        assert table[T.set_kind + kind] == int(has_set)


# --- 范將軍 ---------------------------------------------------------------------------------------
def test_fan_minus_one_per_card():
    st = position([FAN, LIU, GAN])
    st.held[1] = cards(killing=2, loyalty=3)  # 5 cards
    scores = np.array([10, 30, 20])
    moved = fan_adjust(TABLE, scores, st.held, 3, 0, 1)
    assert moved == 5 and list(scores) == [10, 25, 20]


def test_fan_steal_four_moves_points_and_never_more_than_the_round():
    table = ChenghuangParams(players=3, fan_variant="steal-four", fan_amount=4).table()
    st = position([FAN, LIU, GAN])
    scores = np.array([10, 30, 3])
    assert fan_adjust(table, scores, st.held, 3, 0, 1) == 4
    assert list(scores) == [14, 26, 3]
    assert fan_adjust(table, scores, st.held, 3, 0, 2) == 3  # only 3 to take
    assert list(scores) == [17, 26, 0]


def test_round_score_never_below_zero():
    scores = np.array([-2, 0, 5])
    floor_scores(scores, 3)
    assert list(scores) == [0, 0, 5]


def test_round_scores_apply_fan_after_the_showdown_score():
    st = position([FAN, XIE, IMPLEMENTS])
    st.judge_kind = -1
    st.held[0] = cards(killing=1)                       # 6
    st.held[1] = cards(loyalty=3, filial=1)             # 18 + 0 + 4 (謝將軍) = 22; 4 cards
    st.held[2] = cards(filial=1)                        # 0 + 3 (刑具爺) = 3
    st.totals[:3] = [1, 2, 3]
    round_scores(st, TABLE, 3, 0, 1)                    # 范將軍 names seat 1: 22 - 4 = 18
    assert list(st.round_score[:3]) == [6, 18, 3]
    assert list(st.totals[:3]) == [7, 20, 6]



def test_s_abilities_knob_showdown_only_drops_them_in_an_admit_round():
    # rules.s_abilities: "always" (default) keeps 牛頭's x2 and 謝將軍's +1s in every round's
    # score; "showdown-only" drops them in a round whose accused admitted (no showdown).
    only = scoring_table(ChenghuangParams(players=3).points, s_abilities="showdown-only")
    for admitted, table, ox, xie in [
            (0, TABLE, 12, 22), (1, TABLE, 12, 22),   # always: 2 x 6 = 12; 18 + 0 + 4 = 22
            (0, only, 12, 22),                         # showdown-only, denied: the same
            (1, only, 6, 18)]:                         # showdown-only, admitted: printed 6; 18 + 0
        st = position([OX_HEAD, XIE, IMPLEMENTS])
        st.judge_kind = -1
        st.admitted = admitted
        st.held[0] = cards(killing=1)
        st.held[1] = cards(loyalty=3, filial=1)
        st.held[2] = cards(filial=1)                    # 刑具爺's +3 is no S ability: always 3
        round_scores(st, table, 3, -1, -1)
        assert list(st.round_score[:3]) == [ox, xie, 3]


def test_xie_counts_a_fourth_loyalty_that_scores_nothing_itself():
    # provisional: 謝將軍's +1 is per 忠信 / 孝行 held, a 4th card (which adds no set points)
    # included: 4 忠信 = 18 + 4 x 1 = 22, against 18 + 3 = 21 with three.
    assert showdown_score(TABLE, 0, cards(loyalty=4), 0, XIE, NONE) == 22
    assert showdown_score(TABLE, 0, cards(loyalty=3), 0, XIE, NONE) == 21
    assert showdown_score(TABLE, 0, cards(loyalty=4), 0, LIU, NONE) == 18

# --- the showdown's two most valuable cards -------------------------------------------------------
def test_most_valuable_pair_is_exact_over_pairs():
    # 4 孝行 (21: the 4th adds nothing) + 殺生 + 仁愛 = 31. One card at a time, 孝行 looks worthless
    # (21 -> 21), so a card-by-card choice would take 殺生 then 仁愛 (loss 10); the pair of 孝行
    # drops the set to 2 cards (6): loss 15, the most.
    held = cards(filial=4, killing=1, benevolence=1)
    assert most_valuable_pair(TABLE, held, LIU, NONE) == (FILIAL, FILIAL)
    assert list(held) == list(cards(filial=4, killing=1, benevolence=1))  # left as it was


def test_most_valuable_pair_with_roles():
    held = cards(killing=1, loyalty=1, benevolence=2)
    # printed: 殺生 6 + 仁愛 4 (pair of values 6+4 = 10 > 4+4 or 2+6)
    assert most_valuable_pair(TABLE, held, LIU, NONE) == (KILLING, BENEVOLENCE)
    # 牛頭: 殺生 12 + 仁愛 4
    assert most_valuable_pair(TABLE, held, OX_HEAD, NONE) == (KILLING, BENEVOLENCE)
    # 武判 naming 忠信: 忠信 5 + 殺生 6 = 11 > 殺生 + 仁愛 10
    assert most_valuable_pair(TABLE, held, MARTIAL, LOYALTY) == (KILLING, LOYALTY)


def test_most_valuable_pair_ties_take_the_lowest_kinds_and_short_holdings():
    held = cards(benevolence=1, treachery=1, theft=2)  # values 4, 3, 2, 2: pair 仁愛 + 奸惡
    assert most_valuable_pair(TABLE, held, LIU, NONE) == (BENEVOLENCE, TREACHERY)
    tied = cards(killing=2, loyalty=0, benevolence=0)
    assert most_valuable_pair(TABLE, tied, LIU, NONE) == (KILLING, KILLING)
    assert most_valuable_pair(TABLE, cards(theft=1), LIU, NONE) == (THEFT, -1)
    assert most_valuable_pair(TABLE, cards(), LIU, NONE) == (-1, -1)



def test_most_valuable_pair_matches_rescoring_every_pair():
    # The pair is found from per-kind losses; rescoring the holding without each pair (the rule
    # as written) gives the same pair, lowest kind codes first among equal losses.
    rng = np.random.default_rng(8)
    for _ in range(400):
        held = rng.multinomial(int(rng.integers(2, 12)), [1 / N_KINDS] * N_KINDS)
        role = int(rng.integers(N_ROLES))
        judge = int(rng.integers(N_KINDS)) if role == MARTIAL else NONE
        base = showdown_score(TABLE, 0, held, 0, role, judge)
        best, expected = None, None
        for a in range(N_KINDS):
            for b in range(a, N_KINDS):
                left = held.copy()
                left[a] -= 1
                left[b] -= 1
                if left.min() < 0:
                    continue
                loss = base - showdown_score(TABLE, 0, left, 0, role, judge)
                if best is None or loss > best:
                    best, expected = loss, (a, b)
        assert most_valuable_pair(TABLE, held, role, judge) == expected

# --- vote and showdown ----------------------------------------------------------------------------
def test_highest_counts_ties():
    showdown = np.array([20, 25, 25, 3])
    assert is_highest(showdown, 4, 1) and is_highest(showdown, 4, 2)
    assert not is_highest(showdown, 4, 0)


def test_vote_leaders_and_ties():
    tied = np.zeros(4, np.int64)
    assert extremes(np.array([1, 2, 0, 1]), 4, tied, True) == (1, 2)
    assert list(tied) == [0, 1, 0, 0]
    assert extremes(np.array([2, 2, 0, 0]), 4, tied, True) == (2, 2)
    assert list(tied) == [1, 1, 0, 0]


def test_deny_wrong_loses_the_two_most_valuable_to_the_pile():
    st = position([LIU, GAN, XIE])
    st.judge_kind = -1
    st.held[2] = cards(loyalty=3, killing=1, theft=1)  # 謝將軍: 18+3, 殺生 6, 竊盜 2 = 29
    # pairs: 忠信+忠信 -> 1 忠信 (2+1) + 6 + 2 = 11 (loss 18); 忠信 + 殺生 -> 10+2+2+2 = 16
    a, b = lose_most_valuable(st, TABLE, 3, 2)
    assert (a, b) == (LOYALTY, LOYALTY)
    assert list(st.held[2]) == list(cards(loyalty=1, killing=1, theft=1))
    assert list(st.pile) == list(cards(loyalty=2))
    assert list(st.pile_known[0]) == list(cards(loyalty=2))  # in view of everyone


def test_deny_correct_takes_a_card_from_the_pile_and_sees_the_pile():
    st = position([LIU, GAN, XIE])
    st.pile[:] = cards(killing=1, theft=2)
    st.pile_known[0] = cards(theft=1)  # seat 0 discarded a 竊盜
    st.pile_known[1] = cards(killing=1)
    take_from_pile(st, 3, 1, KILLING)
    assert list(st.held[1]) == list(cards(killing=1))
    assert list(st.pile) == list(cards(theft=2))
    assert list(st.pile_known[1]) == list(cards(theft=2))  # it looked through the pile
    assert list(st.pile_known[0]) == list(cards(theft=1))


def test_admit_discards_face_down_first_and_only_knowers_learn_it():
    st = position([LIU, GAN, IMPLEMENTS])
    lay(st, 0, up=cards(killing=1, theft=2), down=cards(killing=1, loyalty=1))
    admit_discard(st, 3, 0, KILLING)  # the face-down 殺生 goes (it holds one face up too)
    assert list(st.held[0]) == list(cards(killing=1, theft=2, loyalty=1))
    assert st.pile[KILLING] == 1
    assert st.pile_known[0, KILLING] == 1 and st.pile_known[1, KILLING] == 0
    admit_discard(st, 3, 0, THEFT)  # a face-up card: everyone saw it leave
    assert list(st.pile_known[:3, THEFT]) == [1, 1, 1]


# --- theft ----------------------------------------------------------------------------------------
def test_thief_is_the_player_with_most_theft_cards():
    st = position([LIU, GAN, XIE, OX_HEAD])
    st.held[:4] = [cards(theft=1), cards(theft=2), cards(theft=2), cards(killing=3)]
    tied = np.zeros(4, np.int64)
    assert thief_candidates(st, 4, tied) == (2, 2)
    assert list(tied) == [0, 1, 1, 0]
    st.held[:4] = [cards(killing=1)] * 4
    assert thief_candidates(st, 4, tied) == (0, 0)  # nobody holds 竊盜: no theft
    assert list(tied) == [0, 0, 0, 0]


def test_horse_face_takes_pile_theft_and_cannot_be_robbed():
    st = position([HORSE_FACE, GAN, XIE])
    st.pile[:] = cards(theft=3, killing=1)
    st.held[0] = cards(killing=1)
    st.held[1] = cards(theft=1)
    st.held[2] = cards()
    assert horse_face_takes(st, 3, 0) == 3
    assert list(st.held[0]) == list(cards(killing=1, theft=3))
    assert list(st.pile) == list(cards(killing=1))
    assert list(st.pile_known[:3, THEFT]) == [0, 0, 0]
    tied = np.zeros(3, np.int64)
    assert thief_candidates(st, 3, tied) == (1, 3)  # 馬面 now steals
    assert can_be_robbed(st, 0, 1)          # seat 1 holds a card
    assert not can_be_robbed(st, 0, 2)      # seat 2 holds nothing
    assert not can_be_robbed(st, 0, 0)      # never oneself
    assert not can_be_robbed(st, 1, 0)      # never 馬面


def test_steal_moves_the_given_card():
    st = position([LIU, GAN, XIE])
    st.held[0] = cards(theft=1)
    st.held[2] = cards(killing=1, loyalty=2)
    steal(st, 0, 2, LOYALTY)
    assert list(st.held[0]) == list(cards(theft=1, loyalty=1))
    assert list(st.held[2]) == list(cards(killing=1, loyalty=1))


# --- captain --------------------------------------------------------------------------------------
def test_next_captain_is_the_lowest_round_score():
    tied = np.zeros(4, np.int64)
    assert next_captain_candidates(np.array([12, 7, 30, 9]), 4, tied) == (1, 7)
    assert list(tied) == [0, 1, 0, 0]
    assert next_captain_candidates(np.array([7, 7, 30, 9]), 4, tied) == (2, 7)
    assert list(tied) == [1, 1, 0, 0]


# --- deal and draft -------------------------------------------------------------------------------
def test_draft_passes_clockwise():
    # at pick p (0-based) seat s holds the pack dealt to seat s - p: packs move s -> s + 1
    assert [pack_in_hand(0, p, 5) for p in range(6)] == [0, 4, 3, 2, 1, 0]
    assert [pack_in_hand(3, p, 5) for p in range(3)] == [3, 2, 1]
    # the pack seat 2 leaves behind at pick 0 is the one seat 3 picks from at pick 1
    assert pack_in_hand(3, 1, 5) == pack_in_hand(2, 0, 5)


def test_deal_gives_six_cards_each_and_sets_the_rest_aside():
    st = position([LIU, GAN, XIE], params=ChenghuangParams(players=3, deck=(3, 4, 5, 5, 5, 3)))
    deck = np.repeat(np.arange(6), [3, 4, 5, 5, 5, 3])  # 25 cards, 3 players: 7 aside
    rng = np.random.default_rng(3)
    deal_packs(st, deck, 3, rng)
    assert list(st.packs[:3].sum(axis=1)) == [6, 6, 6]
    dealt = st.packs.sum(axis=0)
    assert (dealt <= np.array([3, 4, 5, 5, 5, 3])).all() and dealt.sum() == 18
    draft_pick(st, 1, 0, int(np.flatnonzero(st.packs[0])[0]))
    assert st.packs[0].sum() == 5 and st.held[1].sum() == 1


def test_general_liu_lays_three_face_down():
    assert face_down_count(LIU) == 3
    assert all(face_down_count(role) == 2 for role in range(1, 9))



def test_a_fresh_layout_sets_the_counts_a_recount_finds():
    # lay_out writes the layout counts itself; they must be what recounting its slots gives, for
    # any holding and any choice of face-down cards, and a seat looked at in an earlier layout
    # (peek counts left over) starts again unseen.
    rng = np.random.default_rng(11)
    for trial in range(200):
        st = position([IMPLEMENTS, LIU, XIE])
        if trial % 2:
            lay(st, 1, up=cards(theft=1), down=cards(loyalty=1, filial=1))
            peek(st, 3, 0, 1, rng)
        held, down = lay_random(st, 1, rng)
        counts = [st.pub_count[1].copy(), st.up_count[1].copy(), st.down_count[1].copy(),
                  st.peek_count[:, 1].copy(), st.peeked[1]]
        relayout(st, 1)
        assert list(counts[0]) == list(st.pub_count[1]) == list(held - down)
        assert list(counts[1]) == list(st.up_count[1])
        assert list(counts[2]) == list(st.down_count[1]) == list(down)
        assert np.array_equal(counts[3], st.peek_count[:, 1]) and counts[3].sum() == 0
        assert counts[4] == st.peeked[1] == 0



def test_judge_and_gan_update_the_counts_a_recount_finds():
    # 武判's naming and 甘將軍's kept card update the layout counts themselves; after each, in any
    # order with looks by 刑具爺 (even before them, as no round has it), a recount finds the same.
    rng = np.random.default_rng(13)
    for _ in range(200):
        st = random_table([MARTIAL, GAN, IMPLEMENTS, XIE], rng)
        steps = ["judge", "gan", "peek", "peek", "peek"]
        rng.shuffle(steps)
        for step in steps:
            if step == "judge":
                judge_names(st, 4, 0, int(rng.integers(N_KINDS)))
            elif step == "gan":
                drawn = np.zeros(N_KINDS, np.int64)
                drawn[rng.integers(N_KINDS)] += 1
                gan_keep(st, 4, 1, drawn, int(np.flatnonzero(drawn)[0]))
            else:
                target = int(rng.integers(4))
                if target != 2 and peekable(st, 2, target) > 0:
                    peek(st, 4, 2, target, rng)
            counts = [getattr(st, name).copy() for name in ("pub_count", "up_count", "down_count")]
            looked = st.peek_count.copy()
            for seat in range(4):
                relayout(st, seat)
            for before, name in zip(counts, ("pub_count", "up_count", "down_count")):
                assert np.array_equal(before, getattr(st, name)), (step, name)
            assert np.array_equal(looked, st.peek_count), step

# --- abilities ------------------------------------------------------------------------------------
def test_martial_judge_turns_the_named_kind_sideways():
    st = position([MARTIAL, GAN, XIE])
    lay(st, 0, up=cards(killing=1, benevolence=2), down=cards(loyalty=1, killing=1))
    lay(st, 1, up=cards(theft=3), down=cards(loyalty=2))
    # before: seat 1 sees seat 0's three face-up cards only
    assert st.pub_count[0].sum() == 3
    judge_names(st, 3, 0, KILLING)
    assert st.judge_kind == KILLING
    # the face-down 殺生 is now public: seat 1 knows 2 殺生 and 2 仁愛, one card unknown
    assert list(st.pub_count[0]) == list(cards(killing=2, benevolence=2))
    assert sum(knows_slot(st, 1, 0, i) for i in range(st.n_slots[0])) == 4


def test_general_gan_keeps_one_returns_one():
    st = position([LIU, GAN, XIE])
    lay(st, 1, up=cards(theft=3), down=cards(loyalty=2))
    st.pile[:] = cards(killing=1, filial=1)
    st.pile_known[1] = cards(filial=1)  # its own discard
    drawn = np.zeros(6, np.int64)
    assert gan_draw(st, drawn, np.random.default_rng(0)) == 2
    assert list(drawn) == list(cards(killing=1, filial=1)) and st.pile.sum() == 0
    back = gan_keep(st, 3, 1, drawn, KILLING)
    assert back == FILIAL
    assert list(st.pile) == list(cards(filial=1))
    assert list(st.held[1]) == list(cards(theft=3, loyalty=2, killing=1))
    assert st.n_slots[1] == 6 and st.slot_up[1, 5] == 0  # face down
    assert list(st.pile_known[1]) == list(cards(filial=1))
    assert st.pub_count[1].sum() == 3  # the others do not know the new card


def test_gan_with_a_short_pile():
    st = position([LIU, GAN, XIE])
    st.pile[:] = cards(theft=1)
    drawn = np.zeros(6, np.int64)
    assert gan_draw(st, drawn, np.random.default_rng(0)) == 1
    lay(st, 1, up=cards(killing=3), down=cards(loyalty=2))
    assert gan_keep(st, 3, 1, drawn, THEFT) == -1
    assert st.pile.sum() == 0


def test_lord_of_implements_looks_at_unseen_face_down_cards():
    st = position([IMPLEMENTS, GAN, XIE])
    lay(st, 1, up=cards(theft=3), down=cards(loyalty=1, filial=1))
    assert peekable(st, 0, 1) == 2
    rng = np.random.default_rng(5)
    first = peek(st, 3, 0, 1, rng)
    second = peek(st, 3, 0, 1, rng)
    assert sorted([first, second]) == [LOYALTY, FILIAL]  # never the same card twice
    assert peekable(st, 0, 1) == 0
    assert peekable(st, 2, 1) == 2  # seat 2 saw nothing
    assert list(st.peek_count[0, 1]) == list(cards(loyalty=1, filial=1))
    assert st.peek_count[2, 1].sum() == 0


def test_civil_judge_copies_a_face_up_card_publicly():
    st = position([CIVIL, GAN, XIE])
    lay(st, 0, up=cards(theft=2, treachery=1), down=cards(benevolence=1, filial=1))
    lay(st, 1, up=cards(killing=3), down=cards(loyalty=2))
    # move the face-up 竊盜 under seat 1's face-up 殺生
    kind = scribe(st, 3, 0, THEFT, KILLING)
    assert kind == KILLING
    assert list(st.held[0]) == list(cards(theft=1, treachery=1, killing=1, benevolence=1,
                                          filial=1))
    # the copy is face down but its kind is public: seat 2 knows 竊盜, 奸惡 and the 殺生 copy
    assert list(st.pub_count[0]) == list(cards(theft=1, treachery=1, killing=1))
    assert showdown_score(TABLE, 0, st.held[0], 0, CIVIL, NONE) == 2 + 3 + 6 + 4 + 0


def test_civil_judge_copies_its_own_face_down_card_privately():
    st = position([CIVIL, IMPLEMENTS, XIE])
    lay(st, 0, up=cards(theft=1, treachery=2), down=cards(filial=2))
    # move a face-up 奸惡 under its own face-down 孝行: a third 孝行 (the set of 3 scores 21)
    scribe(st, 3, 0, TREACHERY, FACE_DOWN + FILIAL)
    assert list(st.held[0]) == list(cards(theft=1, treachery=1, filial=3))
    assert list(st.pub_count[0]) == list(cards(theft=1, treachery=1))  # others know 2 cards
    assert showdown_score(TABLE, 0, st.held[0], 0, CIVIL, NONE) == 2 + 3 + 21


def test_scribe_copy_inherits_what_a_looker_knew_of_the_target():
    st = position([CIVIL, IMPLEMENTS, XIE])
    lay(st, 0, up=cards(theft=1, treachery=2), down=cards(filial=1, loyalty=1))
    rng = np.random.default_rng(0)
    peek(st, 3, 1, 0, rng)
    peek(st, 3, 1, 0, rng)  # seat 1 has seen both face-down cards
    scribe(st, 3, 0, TREACHERY, FACE_DOWN + FILIAL)
    assert list(st.peek_count[1, 0]) == list(cards(filial=2, loyalty=1))
    assert st.peek_count[2, 0].sum() == 0
