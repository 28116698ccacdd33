"""Chenghuang round steps (kernel.py phases) on hand-built positions with scripted strategies.

Each seat plays `prefer`: the action a test names for a decision kind when it is legal, else the
first legal action (see test_chenghuang_positions.py).
"""

from __future__ import annotations

import numpy as np

from simulator.games import driver
from simulator.games.chenghuang import GAME
from simulator.games.chenghuang import kernel as K
from simulator.games.chenghuang.declaration import (
    ANSWER, CARD, DECISION, END, EV, NO_THEFT, OBS, ROLE, TR,
)
from simulator.games.chenghuang.observation import legal_theft, publish_seats
from simulator.games.chenghuang.params import ChenghuangParams

from test_chenghuang_positions import PARAMS, bind, cards, lay, position, tallies as as_tallies

FILIAL, LOYALTY, THEFT = CARD.filial, CARD.loyalty, CARD.theft
LIU, MARTIAL, GAN, IMPLEMENTS, CIVIL, OX_HEAD, XIE, HORSE_FACE, FAN = ROLE
ADMIT, ADMIT_DISCARD, COMPENSATION = DECISION.admit, DECISION.admit_discard, DECISION.compensation
DISCARD, HIDE, VOTE, TIE_BREAK = DECISION.discard, DECISION.hide, DECISION.vote, DECISION.tie_break
THEFT_TARGET, THEFT_GIVE, FAN_TARGET = (DECISION.theft_target, DECISION.theft_give,
                                        DECISION.fan_target)
DENY, CONFESS = ANSWER.deny, ANSWER.admit


def run_phase(phase, st, wanted, *extra, seed=0):
    """Run one kernel step; returns (its result, the tallies it added, the trace rows)."""
    trace = bind(st, wanted)
    rng = np.random.default_rng(seed)
    out = phase(st, *extra, rng)
    return out, as_tallies(driver.read_tallies(GAME, st)), trace[:st.trace_rows]


# --- draft and layout -----------------------------------------------------------------------------
def test_draft_keeps_six_each_and_passes_packs_clockwise():
    st = position([LIU, GAN, XIE, OX_HEAD, MARTIAL])
    assert list(st.deck[:st.deck_size]) == list(np.repeat(np.arange(6), PARAMS.deck))
    _, _, trace = run_phase(K.draft, st, [{}] * 5)
    assert list(st.held[:5].sum(axis=1)) == [6] * 5
    assert st.packs.sum() == 0
    assert (st.held.sum(axis=0) == np.asarray(PARAMS.deck)).all()  # 30 cards, all dealt
    picks = trace[trace[:, 1] == TR.pick]
    assert len(picks) == 30
    for _, _, seat, pack, kind, pick in picks:
        assert pack == (seat - (pick - 1)) % 5  # seat s picks from the pack dealt to s - p


def test_layout_discards_one_and_hides_two_or_three():
    st = position([LIU, GAN, XIE])
    st.held[0] = cards(killing=2, loyalty=2, theft=2)
    st.held[1] = cards(killing=2, loyalty=2, theft=2)
    st.held[2] = cards(killing=2, loyalty=2, theft=2)
    # everyone discards a 竊盜 and hides 忠信 first
    wanted = [{DISCARD: THEFT, HIDE: LOYALTY}] * 3
    run_phase(K.layout, st, wanted)
    assert list(st.pile) == list(cards(theft=3))
    for seat in range(3):
        assert st.n_slots[seat] == 5
        assert list(st.pile_known[seat]) == list(cards(theft=1))  # only its own discard
    # 柳將軍 (seat 0): 3 face down (2 忠信, then the first legal kind, 殺生), 2 face up
    assert st.slot_up[0, :5].sum() == 2
    assert list(st.pub_count[0]) == list(cards(killing=1, theft=1))
    # the others: 2 face down (the 2 忠信), 3 face up
    assert st.slot_up[1, :5].sum() == 3
    assert list(st.pub_count[1]) == list(cards(killing=2, theft=1))


# --- abilities in order ---------------------------------------------------------------------------
def test_abilities_act_in_order_and_absent_roles_are_skipped():
    JUDGE, PEEK = DECISION.judge, DECISION.peek

    st = position([MARTIAL, IMPLEMENTS, XIE])  # no 甘將軍, no 文判
    lay(st, 0, up=cards(killing=1, theft=2), down=cards(theft=1, loyalty=1))
    lay(st, 1, up=cards(benevolence=3), down=cards(filial=2))
    lay(st, 2, up=cards(treachery=3), down=cards(killing=1, loyalty=1))
    st.pile[:] = cards(killing=3)
    wanted = [{JUDGE: THEFT}, {PEEK: 2}, {}]
    _, _, trace = run_phase(K.abilities, st, wanted)
    assert st.judge_kind == THEFT
    assert list(st.pub_count[0]) == list(cards(killing=1, theft=3))  # the face-down 竊盜 too
    # 刑具爺 looked twice at seat 2 (its preference): both of its face-down cards
    assert list(st.peek_count[1, 2]) == list(cards(killing=1, loyalty=1))
    assert list(st.pile) == list(cards(killing=3))  # nobody drew from the pile
    codes = list(trace[:, 1])
    assert codes == [TR.judge, TR.peek, TR.peek]


def test_gan_and_civil_judge_in_the_abilities_phase():
    from simulator.games.chenghuang.declaration import FACE_DOWN

    GAN_KEEP, SCRIBE_SOURCE, SCRIBE_TARGET = (DECISION.gan_keep, DECISION.scribe_source,
                                              DECISION.scribe_target)

    st = position([GAN, CIVIL, XIE])
    lay(st, 0, up=cards(killing=3), down=cards(loyalty=2))
    lay(st, 1, up=cards(treachery=2, theft=1), down=cards(filial=2))
    lay(st, 2, up=cards(benevolence=3), down=cards(killing=1, loyalty=1))
    st.pile[:] = cards(loyalty=2)
    # 甘將軍 draws the two 忠信 (the pile holds nothing else) and keeps one; 文判 moves its face-up
    # 竊盜 under its own face-down 孝行: a third 孝行
    wanted = [{GAN_KEEP: LOYALTY}, {SCRIBE_SOURCE: THEFT, SCRIBE_TARGET: FACE_DOWN + FILIAL}, {}]
    run_phase(K.abilities, st, wanted)
    assert list(st.held[0]) == list(cards(killing=3, loyalty=3))
    assert list(st.pile) == list(cards(loyalty=1))
    assert list(st.held[1]) == list(cards(treachery=2, filial=3))


# --- vote, admit, deny ----------------------------------------------------------------------------
def table_for_vote():
    st = position([LIU, GAN, XIE, OX_HEAD], captain=3)
    st.judge_kind = -1
    lay(st, 0, up=cards(benevolence=1, treachery=2), down=cards(filial=2))       # 4+6+6 = 16
    lay(st, 1, up=cards(killing=2, theft=1), down=cards(loyalty=2))            # 12+2+10 = 24
    # 謝將軍: 6 + 2 + 2 + 4 + 2 + 1 = 17
    lay(st, 2, up=cards(filial=2, theft=1), down=cards(benevolence=1, loyalty=1))
    lay(st, 3, up=cards(treachery=1, theft=2), down=cards(killing=2))          # 牛頭: 3+4+24 = 31
    st.pile[:] = cards(killing=1, loyalty=2, theft=1)
    return st


def test_vote_no_self_votes_and_the_most_voted_is_accused():
    st = table_for_vote()
    wanted = [{VOTE: 1}, {VOTE: 0}, {VOTE: 1}, {VOTE: 1}]
    accused, tallies, trace = run_phase(K.vote, st, wanted)
    assert accused == 1 and st.accused == 1
    assert list(st.votes[:4]) == [1, 3, 0, 0]
    assert tallies.events[EV.accusations] == 1 and tallies.events[EV.vote_ties] == 0


def test_vote_tie_is_broken_by_the_captain():
    st = table_for_vote()
    # 2 votes each for seats 0 and 1; seat 1 cannot vote for itself (its wish 1 is illegal: it
    # votes for the first legal seat, 0). The captain (seat 3) picks seat 0.
    wanted = [{VOTE: 1}, {VOTE: 1}, {VOTE: 0}, {VOTE: 1, TIE_BREAK: 0}]
    accused, tallies, trace = run_phase(K.vote, st, wanted)
    assert list(st.votes[:4]) == [2, 2, 0, 0]
    assert accused == 0
    assert tallies.events[EV.vote_ties] == 1


def judge_round(st, accused, wanted):
    out, tallies, trace = run_phase(K.judgement, st, wanted, accused)
    return tallies


def test_admit_discards_two_of_its_choice_and_skips_the_showdown():
    st = table_for_vote()
    wanted = [{}, {}, {}, {ADMIT: CONFESS, ADMIT_DISCARD: THEFT}]
    tallies = judge_round(st, 3, wanted)
    # it discards 竊盜, 竊盜 (its choice), then everyone reveals; no penalty, no compensation
    assert list(st.held[3]) == list(cards(treachery=1, killing=2))
    assert list(st.pile) == list(cards(killing=1, loyalty=2, theft=3))
    assert st.admitted == CONFESS and st.revealed == 1
    assert st.highest == -1
    ev = tallies.events
    assert ev[EV.admits] == 1 and ev[EV.admits_highest] == 1
    assert ev[EV.accused_highest] == 1
    assert ev[EV.denies] == 0


def test_deny_wrong_the_highest_loses_its_two_most_valuable():
    st = table_for_vote()
    wanted = [{}, {}, {}, {ADMIT: DENY}]
    tallies = judge_round(st, 3, wanted)  # seat 3 (牛頭, 31) is the highest
    # its most valuable pair: the two 殺生 (24 under 牛頭)
    assert list(st.held[3]) == list(cards(treachery=1, theft=2))
    assert list(st.pile) == list(cards(killing=3, loyalty=2, theft=1))
    assert st.highest == 1
    ev = tallies.events
    assert ev[EV.deny_wrong] == 1 and ev[EV.deny_correct] == 0 and ev[EV.denies] == 1


def test_deny_correct_the_accused_takes_a_card_of_its_choice():
    st = table_for_vote()
    wanted = [{}, {ADMIT: DENY, COMPENSATION: LOYALTY}, {}, {}]
    tallies = judge_round(st, 1, wanted)  # seat 1 (24) is not the highest (31)
    assert list(st.held[1]) == list(cards(killing=2, theft=1, loyalty=3))
    assert list(st.pile) == list(cards(killing=1, loyalty=1, theft=1))
    assert st.highest == 0
    ev = tallies.events
    assert ev[EV.deny_correct] == 1 and ev[EV.accused_highest] == 0
    # the table saw it deny rightly, and remembers it: public from the next scoring on
    assert list(st.denied_right[:4]) == [0, 1, 0, 0]
    publish_seats(st, 4)
    assert list(st.obs[OBS.denied_right:OBS.denied_right + 4]) == [0, 1, 0, 0]


def test_deny_with_a_tie_at_the_top_counts_as_highest():
    st = table_for_vote()
    st.held[1] = cards(killing=2, theft=1, loyalty=2, benevolence=1, treachery=1)  # 24+4+3 = 31
    st.held[3] = cards(treachery=1, theft=2, killing=2)                            # 31
    wanted = [{}, {ADMIT: DENY}, {}, {}]
    tallies = judge_round(st, 1, wanted)
    assert st.highest == 1
    assert st.denied_right[1] == 0  # denied wrongly: not counted
    # its two most valuable: 殺生 + 忠信 (6 + 8: the pair set drops from 10 to 2) = 14 beats the
    # two 殺生 (12) and the two 忠信 (10)
    assert list(st.held[1]) == list(cards(killing=1, theft=1, loyalty=1, benevolence=1,
                                          treachery=1))
    assert tallies.events[EV.deny_wrong] == 1


# --- theft ----------------------------------------------------------------------------------------
def revealed_table(roles, held, captain=0):
    st = position(roles, captain=captain)
    for seat, vector in enumerate(held):
        st.held[seat] = vector
    st.revealed = 1
    st.judge_kind = -1
    return st


def test_theft_thief_names_and_victim_chooses():
    st = revealed_table([LIU, GAN, XIE], [cards(theft=1), cards(killing=2, loyalty=1),
                                          cards(benevolence=1)])
    wanted = [{THEFT_TARGET: 1}, {THEFT_GIVE: LOYALTY}, {}]
    _, tallies, _ = run_phase(K.theft, st, wanted)
    assert st.thief == 0
    assert list(st.held[0]) == list(cards(theft=1, loyalty=1))
    assert list(st.held[1]) == list(cards(killing=2))
    assert tallies.events[EV.thefts] == 1



def test_theft_is_optional_the_thief_may_decline():
    # the seed: the player with the most 竊盜 "may" (可) name a player; declining (NO_THEFT,
    # past every seat) is always legal and leaves every holding as it was
    holdings = [cards(theft=1), cards(killing=2, loyalty=1), cards(benevolence=1)]
    st = revealed_table([LIU, GAN, XIE], holdings)
    _, tallies, trace = run_phase(K.theft, st, [{THEFT_TARGET: NO_THEFT}, {}, {}])
    assert st.thief == 0
    for seat in range(3):
        assert list(st.held[seat]) == list(holdings[seat])
    assert tallies.events[EV.thefts] == 0 and tallies.events[EV.theft_declined] == 1
    declined = trace[trace[:, 1] == TR.theft_declined]
    assert len(declined) == 1 and declined[0][2] == 0  # actor: the thief
    # the thief's mask: every seat it may name (not itself), and NO_THEFT
    st = revealed_table([LIU, GAN, XIE], holdings)
    assert legal_theft(st, 3, 0) == 2
    assert list(np.flatnonzero(st.legal)) == [1, 2, NO_THEFT]

def test_theft_tie_broken_by_the_captain_and_nobody_holds_theft():
    st = revealed_table([LIU, GAN, XIE], [cards(theft=1), cards(theft=1, killing=1),
                                          cards(benevolence=1)], captain=2)
    wanted = [{}, {THEFT_TARGET: 2}, {TIE_BREAK: 1}]
    _, tallies, _ = run_phase(K.theft, st, wanted)
    assert st.thief == 1
    assert list(st.held[1]) == list(cards(theft=1, killing=1, benevolence=1))
    assert tallies.events[EV.theft_ties] == 1

    st = revealed_table([LIU, GAN, XIE], [cards(killing=1)] * 3)
    _, tallies, _ = run_phase(K.theft, st, [{}] * 3)
    assert tallies.events[EV.rounds_without_theft] == 1 and tallies.events[EV.thefts] == 0


def test_theft_with_horse_face():
    st = revealed_table([HORSE_FACE, GAN, XIE], [cards(killing=3), cards(theft=1, loyalty=1),
                                                 cards(benevolence=1)])
    st.pile[:] = cards(theft=2)
    # 馬面 takes the 2 竊盜 from the pile and becomes the thief; it may not name itself
    wanted = [{THEFT_TARGET: 1}, {THEFT_GIVE: LOYALTY}, {}]
    _, tallies, _ = run_phase(K.theft, st, wanted)
    assert st.thief == 0
    assert list(st.held[0]) == list(cards(killing=3, theft=2, loyalty=1))
    assert tallies.events[EV.horse_face_takes] == 2

    # the player with the most 竊盜 can never name 馬面
    st = revealed_table([HORSE_FACE, GAN, XIE], [cards(killing=3), cards(theft=2),
                                                 cards(benevolence=1)])
    wanted = [{}, {THEFT_TARGET: 0}, {}]
    _, tallies, _ = run_phase(K.theft, st, wanted)
    assert list(st.held[0]) == list(cards(killing=3))
    assert list(st.held[1]) == list(cards(theft=2, benevolence=1))


# --- scoring and the captain ----------------------------------------------------------------------
def test_scoring_fan_penalty_and_the_next_captain():
    st = revealed_table([FAN, XIE, IMPLEMENTS, LIU],
                        [cards(killing=1), cards(loyalty=3, filial=1), cards(theft=1),
                         cards(benevolence=2)], captain=0)
    # round: 6, 18+4=22 (-4 cards by 范將軍) = 18, 2+3 = 5, 8 -> lowest: seat 2
    wanted = [{FAN_TARGET: 1}, {}, {}, {}]
    nxt, tallies, _ = run_phase(K.scoring, st, wanted, False)
    assert list(st.round_score[:4]) == [6, 18, 5, 8]
    assert nxt == 2
    assert tallies.events[EV.fan_penalties] == 1
    assert tallies.role_round_wins[XIE] == 1 and tallies.role_rounds.sum() == 4


def test_scoring_captain_tie_is_broken_by_the_current_captain():
    st = revealed_table([LIU, GAN, XIE], [cards(killing=1), cards(killing=1),
                                          cards(loyalty=3)], captain=2)
    wanted = [{}, {}, {TIE_BREAK: 1}]
    nxt, tallies, _ = run_phase(K.scoring, st, wanted, False)
    assert list(st.round_score[:3]) == [6, 6, 21]
    assert nxt == 1
    assert tallies.events[EV.captain_ties] == 1
    # the last round names no next captain
    st = revealed_table([LIU, GAN, XIE], [cards(killing=1), cards(killing=1),
                                          cards(loyalty=3)], captain=2)
    nxt, tallies, _ = run_phase(K.scoring, st, wanted, True)
    assert nxt == 2 and tallies.events[EV.captain_ties] == 0
    assert tallies.events[EV.captain_round_top] == 1  # seat 2 (captain) had the top 21


# --- the end of the game --------------------------------------------------------------------------
def test_highest_total_wins_and_a_tie_goes_to_the_last_captain():
    st = revealed_table([LIU, GAN, XIE, OX_HEAD], [cards()] * 4, captain=2)
    st.totals[:4] = [80, 95, 70, 94]
    (winner, end), tallies, _ = run_phase(K.final_result, st, [{}] * 4)
    assert winner == 1 and end == END.highest
    st.totals[:4] = [95, 95, 70, 94]
    (winner, end), tallies, _ = run_phase(K.final_result, st, [{}, {}, {TIE_BREAK: 1}, {}])
    assert winner == 1 and end == END.captain_tie
    assert tallies.events[EV.final_ties] == 1


def test_roles_are_dealt_from_the_shuffled_pool_one_each():
    from simulator.games.chenghuang.rules import deal_roles

    params = ChenghuangParams(players=3, deck=(3, 4, 5, 5, 5, 3))
    st = position([0, 0, 0], params=params)
    pool = np.array([LIU, MARTIAL, GAN, IMPLEMENTS, CIVIL], np.int64)
    seen = np.zeros(9, np.int64)
    rng = np.random.default_rng(0)
    for _ in range(2000):
        deal_roles(st, pool, 3, rng)
        assert len(set(st.role[:3])) == 3             # each role card once
        seen[st.role[:3]] += 1
    # five roles for three seats: each is dealt 3/5 of the time (2000 * 3/5 = 1200; +-5 sd)
    assert all(abs(seen[r] - 1200) < 5 * (2000 * 0.6 * 0.4) ** 0.5 for r in range(5))
    assert seen[5:].sum() == 0
