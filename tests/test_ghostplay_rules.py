"""Ghost Play rules on hand-built positions (simulator/games/ghostplay/rules.py).

Each test names the rule it checks; docs/rules/ghostplay.md states each rule and cites its
tests. Seats go round one way: the next seat (the right-hand neighbour, the next voter) is s + 1.
"""

from __future__ import annotations

import numpy as np
import pytest

from simulator.games.ghostplay.declaration import (
    CARD_STATE, EFFECT, END_RULE, IDENTITIES, OBS, REWARD, RISE, SECOND_ARTIFACT, TEAM, UNKNOWN,
)
from simulator.games.ghostplay.params import default_params
from simulator.games.ghostplay.rules import (
    buy_cards, challenge, count_votes, deal_identities, discard_vote, draw_cards,
    draw_king_card, draw_phase_count, eligible, game_over, look, mark_participants,
    may_challenge, may_set_artifact, most_affordable, most_possessed, open_exorcism, pay_reward,
    possession_target, refill_pile, remove_ghost, resolve_event, reveal_card, rise,
    rise_candidate, score_ghost, add_life, seal_breaks, sect_points, sect_winner, set_artifact,
    shuffle_ghost_deck, start_turn, take_vote, build_taoist_pile, vote_limits,
)

from test_ghostplay_positions import (
    BLUE, EVIL, KING, PARAMS, RED, TP, TS, ghost, ghosts, give, haunt, position,
)

SIX = [TP, TS, TP, TS, TP, TS]
RNG = np.random.default_rng


# --- setup ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [4, 5, 6, 7, 8])
def test_identities_follow_the_table_and_each_seat_knows_only_its_own(players):
    st = position([TP] * players)
    taiping, tianshi, evil = IDENTITIES[players]
    seen = np.zeros(players, int)
    for seed in range(60):
        deal_identities(st, RNG(seed))
        roles = list(st.role[:players])
        assert (roles.count(TP), roles.count(TS), roles.count(EVIL)) == (taiping, tianshi, evil)
        for s in range(players):
            assert st.known[s, s] == st.role[s] and st.former[s] == st.role[s]
            assert all(st.known[s, v] == UNKNOWN for v in range(players) if v != s)
        seen += np.asarray(roles) == TP
    assert seen.min() > 0  # dealt at random: every seat is Taiping sometimes


def test_identity_table_of_the_draft():
    assert IDENTITIES == {4: (2, 2, 0), 5: (2, 2, 1), 6: (3, 3, 0), 7: (3, 3, 1), 8: (4, 4, 0)}


def test_taoist_pile_holds_the_deck_and_a_draw_takes_from_the_top():
    st = position(SIX)
    build_taoist_pile(st, RNG(1))
    assert st.pile_size == 80 and np.bincount(st.pile[:80], minlength=2).tolist() == [40, 40]
    top = st.pile[79]
    drawn, reshuffles = draw_cards(st, 3, 4, RNG(2))
    assert (drawn, reshuffles) == (4, 0) and st.pile_size == 76 and st.hand_size[3] == 4
    assert st.hand[3, top] >= 1 and st.colours[3].sum() == 4


def test_an_empty_pile_takes_the_shuffled_discards_and_with_none_nothing_is_drawn():
    st = position(SIX)
    st.pile_size = 1
    st.pile[0] = 0
    st.discard[:2] = [2, 1]
    st.discard_size = 3
    drawn, reshuffles = draw_cards(st, 0, 3, RNG(0))  # 1 from the pile, then 2 of the discards
    assert (drawn, reshuffles) == (3, 1)
    assert st.pile_size == 1 and st.discard_size == 0 and st.hand_size[0] == 3
    drawn, reshuffles = draw_cards(st, 0, 5, RNG(0))  # 1 left in all: no more after it
    assert (drawn, reshuffles) == (1, 0) and st.hand_size[0] == 4
    assert refill_pile(st, RNG(0)) == 0


def test_the_discards_become_the_pile_as_soon_as_the_last_card_is_drawn():
    st = position(SIX)
    st.pile_size = 2
    st.pile[:2] = [0, 1]
    st.discard[:2] = [1, 2]
    st.discard_size = 3
    assert draw_cards(st, 0, 2, RNG(0)) == (2, 1)
    assert st.pile_size == 3 and st.discard_size == 0  # at once, not at the next draw


def test_setup_ghost_deck_shuffled_and_a_king_card_drawn():
    params = default_params(6, seals=(3, 5, 7))
    st = position(SIX, params)
    orders = set()
    for seed in range(5):
        shuffle_ghost_deck(st, RNG(seed))
        assert sorted(st.ghost_order[:40]) == list(range(40)) and st.ghost_next == 0
        assert (st.card_state[:40] == CARD_STATE.in_deck).all() and st.in_play == 0
        orders.add(tuple(st.ghost_order[:40]))
    assert len(orders) == 5
    drawn = {draw_king_card(st, RNG(seed)) for seed in range(40)}
    assert drawn == {0, 1, 2}
    card = draw_king_card(st, RNG(3))
    assert st.seal_lives == (3, 5, 7)[card] and st.obs[OBS.seal] == st.seal_lives


# --- the draw and the day -------------------------------------------------------------------------
def test_draw_phase_draws_two_and_the_possession_penalty_knob():
    st = position(SIX)
    st.possessed[2] = 1
    assert draw_phase_count(st, 2) == 2  # by default possession has no effect
    st.possession_penalty = 1
    assert draw_phase_count(st, 0) == 2
    assert draw_phase_count(st, 2) == 1  # 2 minus its ghosts
    st.possessed[2] = 3
    assert draw_phase_count(st, 2) == 0  # never below 0


def test_buying_costs_two_spirit_power_a_card():
    st = position(SIX)
    build_taoist_pile(st, RNG(0))
    st.spirit[1] = 5
    assert most_affordable(st, 1) == 2  # 5 // 2
    buy_cards(st, 1, 2, RNG(0))
    assert st.spirit[1] == 1 and st.hand_size[1] == 2 and st.obs[OBS.spirit + 1] == 1
    st.pile_size = 1  # no more cards than the piles hold
    st.spirit[1] = 20
    assert most_affordable(st, 1) == 1


def artifact_params(**changes):
    deck = {"red": {"colour": "red", "count": 30}, "blue": {"colour": "blue", "count": 30},
            "charm": {"colour": "red", "count": 4, "play": "artifact", "effect": "ward"},
            "lamp": {"colour": "blue", "count": 4, "play": "artifact", "effect": "draw",
                     "amount": 1},
            "elixir": {"colour": "red", "count": 4, "play": "spell", "effect": "spirit",
                       "amount": 2}}
    from simulator.games.ghostplay.params import read_taoist_card
    cards = tuple(read_taoist_card(k, v) for k, v in deck.items())
    return default_params(6, taoist_deck=cards, **changes)


def test_a_second_artifact_replaces_the_first_or_is_refused_by_the_knob():
    st = position(SIX, artifact_params())
    CHARM, LAMP = 2, 3
    st.hand[0, CHARM] = st.hand[0, LAMP] = 1
    st.colours[0] = [1, 1]
    st.hand_size[0] = 2
    assert set_artifact(st, 0, CHARM) == UNKNOWN and st.artifact[0] == CHARM
    assert st.hand_size[0] == 1 and st.obs[OBS.artifact] == CHARM
    assert may_set_artifact(st, 0)
    assert set_artifact(st, 0, LAMP) == CHARM  # the charm is discarded
    assert st.discard[CHARM] == 1 and st.artifact[0] == LAMP
    assert draw_phase_count(st, 0) == 3  # the lamp: 2 + 1
    st.second_artifact = SECOND_ARTIFACT.refused
    assert not may_set_artifact(st, 0) and may_set_artifact(st, 1)


def test_a_warded_player_and_the_ghost_king_are_not_possessed():
    st = position(SIX, artifact_params())
    st.artifact[2] = 2  # the charm: ward
    assert st.type_effect[2] == EFFECT.ward
    assert not eligible(st, 2) and eligible(st, 1)
    st.king = 3
    assert not eligible(st, 3)
    turn_player = ghost(PARAMS, possess_rule="turn-player")
    assert possession_target(st, turn_player, 2, RNG(0)) == 4  # 2 warded, 3 the king: the next is 4
    for s in range(6):
        st.artifact[s] = 2
    st.king = UNKNOWN
    assert possession_target(st, turn_player, 0, RNG(0)) == UNKNOWN  # nobody eligible


# --- the haunting ---------------------------------------------------------------------------------
def test_reveal_takes_the_top_card_and_an_empty_deck_reveals_nothing():
    st = position(SIX)
    st.ghost_order[:3] = [7, 2, 30]
    assert reveal_card(st) == 7 and reveal_card(st) == 2 and st.obs[OBS.deck_left] == 38
    st.ghost_next = 40
    assert reveal_card(st) == UNKNOWN


@pytest.mark.parametrize("rule", ["turn-player", "right-neighbour"])
def test_possession_by_seat(rule):
    st = position(SIX)
    card = ghost(PARAMS, possess_rule=rule)
    for p in range(6):
        assert possession_target(st, card, p, RNG(0)) == (p if rule == "turn-player" else (p + 1) % 6)


def test_possession_of_most_spirit_power_ties_go_right_from_the_turn_player():
    st = position(SIX)
    card = ghost(PARAMS, possess_rule="most-spirit")
    st.spirit[:6] = [3, 6, 2, 6, 1, 6]
    assert possession_target(st, card, 0, RNG(0)) == 1  # 1, 3, 5 tie: first going right from 0
    assert possession_target(st, card, 2, RNG(0)) == 3
    assert possession_target(st, card, 4, RNG(0)) == 5
    assert possession_target(st, card, 5, RNG(0)) == 5  # the turn player first
    st.spirit[:6] = 4
    assert possession_target(st, card, 4, RNG(0)) == 4  # everyone tied: the turn player


def test_possession_of_fewest_cards_ties_go_right_from_the_turn_player():
    st = position(SIX)
    card = ghost(PARAMS, possess_rule="fewest-cards")
    st.hand_size[:6] = [5, 2, 4, 2, 3, 9]
    assert possession_target(st, card, 0, RNG(0)) == 1
    assert possession_target(st, card, 2, RNG(0)) == 3
    assert possession_target(st, card, 3, RNG(0)) == 3
    st.king = 1
    assert possession_target(st, card, 0, RNG(0)) == 2  # the king is skipped: the next to the right


def test_possess_counts_ghosts_and_notes_the_third_and_the_seventh():
    st = position(SIX)
    start_turn(st, 0, 1)
    cards = ghosts(PARAMS)[:8]
    haunt(st, cards[0], 2)
    haunt(st, cards[1], 2)
    assert st.reached_three[2] == 0
    haunt(st, cards[2], 2)
    assert st.reached_three[2] == 1 and st.possessed[2] == 3 and st.obs[OBS.possessed + 2] == 3
    for c in cards[3:6]:
        haunt(st, c, 4)
    assert st.seventh_card == UNKNOWN and st.in_play == 6
    haunt(st, cards[6], 5)
    assert st.seventh_card == cards[6] and st.in_play == 7
    haunt(st, cards[7], 5)
    assert st.seventh_card == cards[6]  # the first arrival that brings them to 7
    assert st.card_state[cards[7]] == CARD_STATE.in_play
    assert list(st.slot_card[:8]) == cards and st.slot_target[7] == 5


def test_events_drain_not_below_zero_and_gift():
    st = position(SIX)
    drain = next(c for c, card in enumerate(PARAMS.ghost_cards()) if card.effect == "drain")
    st.spirit[:6] = [0, 1, 2, 3, 4, 5]
    resolve_event(st, drain, 0, RNG(0))
    assert list(st.spirit[:6]) == [0, 0, 1, 2, 3, 4]
    assert st.card_state[drain] == CARD_STATE.resolved
    st.g_effect[drain] = 1  # gift
    st.g_amount[drain] = 2
    resolve_event(st, drain, 0, RNG(0))
    assert list(st.spirit[:6]) == [2, 2, 3, 4, 5, 6]


# --- the exorcism ---------------------------------------------------------------------------------
def table_with_votes(votes, colour="red", requirement=3, host=0, king=UNKNOWN):
    """Seats vote (positive, negative) on a ghost of `colour`: each is given the cards first."""
    st = position(SIX)
    card = ghost(PARAMS, colour=colour, requirement=requirement)
    slot = haunt(st, card, 3)
    st.king = king
    mine = RED if colour == "red" else BLUE
    open_exorcism(st, host, slot)
    for v, (positive, negative) in votes.items():
        if mine == RED:
            give(st, v, red=positive, blue=negative)
        else:
            give(st, v, red=negative, blue=positive)
        take_vote(st, v, positive, negative, mine)
    return st, card, slot


def test_votes_are_placed_face_down_and_counted_with_red_and_blue_cancelling():
    st, card, _ = table_with_votes({0: (3, 0), 1: (1, 1), 2: (0, 2), 4: (0, 0)})
    assert [st.obs[OBS.placed + v] for v in range(6)] == [3, 2, 2, -1, 0, -1]
    assert st.hand_size[0] == 0 and st.on_table[4] == 0
    positive, negative = count_votes(st)
    assert (positive, negative) == (4, 3)  # net 1: short of a requirement of 3
    assert positive - negative < st.g_requirement[card]


def test_blue_ghost_positive_votes_are_blue():
    st, card, _ = table_with_votes({0: (2, 0), 2: (2, 1)}, colour="blue", requirement=2)
    assert st.vote_positive[2] == 2 and st.vote_cards[2, 1] == 2 and st.vote_cards[2, 0] == 1
    positive, negative = count_votes(st)
    assert positive - negative == 3 >= st.g_requirement[card]


def test_vote_limits_follow_the_hand():
    st = position(SIX)
    give(st, 1, red=8, blue=2)
    assert vote_limits(st, 1, RED) == (6, 2)  # at most 6 of a colour (the encoding)
    assert vote_limits(st, 1, BLUE) == (2, 6)


def test_who_may_be_challenged():
    st, _, _ = table_with_votes({0: (2, 0), 1: (1, 0), 2: (0, 1), 4: (0, 0), 5: (1, 0)}, king=5)
    assert not may_challenge(st, 0, 0)  # not the host itself
    assert may_challenge(st, 0, 1) and may_challenge(st, 0, 2)
    assert not may_challenge(st, 0, 4)  # it abstained
    assert not may_challenge(st, 0, 5)  # never the ghost king
    challenge(st, 2)
    assert not may_challenge(st, 0, 2)  # once


def test_a_challenged_all_positive_vote_fails_the_exorcism():
    st, _, _ = table_with_votes({0: (2, 0), 1: (2, 0)})
    assert challenge(st, 1) == 1
    assert st.shown[1] == 0 and st.obs[OBS.shown_positive + 1] == 2
    assert st.obs[OBS.shown_negative + 1] == 0


def test_a_challenged_vote_with_a_negative_is_discarded_whole():
    st, _, _ = table_with_votes({0: (3, 0), 1: (2, 1), 2: (0, 1)})
    assert challenge(st, 1) == 0
    assert st.shown[1] == 1 and st.on_table[1] == 0 and st.discard_size == 3
    assert list(st.vote_cards[1, :2]) == [0, 0]
    assert count_votes(st) == (3, 1)  # seat 1's positive cards went too


def test_participants_are_the_counted_voters_and_the_host():
    st, _, _ = table_with_votes({0: (0, 0), 1: (2, 1), 2: (1, 0), 4: (0, 0)}, host=0)
    challenge(st, 1)  # discarded: not a participant
    assert mark_participants(st, 0) == 2  # the host (who placed nothing) and seat 2
    assert list(st.order[:6]) == [1, 0, 1, 0, 0, 0]


def test_all_votes_are_discarded_after_the_count():
    st, _, _ = table_with_votes({0: (3, 0), 2: (1, 1)})
    for v in range(6):
        discard_vote(st, v)
    assert st.discard_size == 5 and st.vote_cards.sum() == 0 and st.on_table.sum() == 0


@pytest.mark.parametrize("count,each", [(1, 2), (2, 2), (3, 1), (6, 1)])
def test_reward_two_each_with_at_most_two_participants_else_one(count, each):
    st = position(SIX)
    card = ghost(PARAMS)
    assert pay_reward(st, 2, card, 0, count) == each and st.spirit[2] == 4 + each


def test_reward_pool_knob_splits_the_pool_from_the_host_on():
    st = position(SIX)
    st.reward = REWARD.pool
    card = ghost(PARAMS)  # pool 4
    assert [pay_reward(st, v, card, i, 3) for i, v in enumerate([2, 3, 4])] == [2, 1, 1]


def test_a_dispelled_ghost_is_the_hosts_points_and_the_host_looks():
    st = position(SIX)
    start_turn(st, 0, 1)
    card = ghost(PARAMS, requirement=4)
    other = ghost(PARAMS, requirement=2)
    haunt(st, other, 1)
    slot = haunt(st, card, 3)
    assert remove_ghost(st, slot) == (card, 3)
    assert st.in_play == 1 and st.possessed[3] == 0 and st.cleared[3] == 1
    assert st.slot_card[0] == other and st.obs[OBS.slot_card + 1] == UNKNOWN
    score_ghost(st, 0, card)
    assert st.points[0] == 3 and st.obs[OBS.points] == 3
    assert st.card_state[card] == CARD_STATE.dispelled
    assert look(st, 0, 3) == TS and st.known[0, 3] == TS
    assert st.known[1, 3] == UNKNOWN  # private to the host


def test_a_summoned_ghost_is_a_life_and_the_seal_value():
    st = position(SIX)
    card = ghost(PARAMS)
    st.king = 2
    assert add_life(st, card) == 1 and st.card_state[card] == CARD_STATE.life
    assert not seal_breaks(st)
    st.lives = 3
    assert seal_breaks(st)
    st.king = UNKNOWN  # no ghost king: no seal to break
    assert not seal_breaks(st)


# --- the rise of the ghost king -------------------------------------------------------------------
def turn_with(arrivals, dispelled=(), p=0, before=()):
    """A turn of player p: `before` ghosts were on seats already, `arrivals` arrive this turn,
    then the ghosts of `dispelled` (indices into arrivals + before) are dispelled."""
    st = position(SIX)
    cards = ghosts(PARAMS)
    placed = []
    for s in before:
        placed.append(cards[len(placed)])
        haunt(st, placed[-1], s)
    start_turn(st, p, 5)
    for s in arrivals:
        placed.append(cards[len(placed)])
        haunt(st, placed[-1], s)
    for i in dispelled:
        slot = list(st.slot_card[:st.in_play]).index(placed[i])
        remove_ghost(st, slot)
    return st


def test_rise_a_third_ghost_not_dispelled():
    st = turn_with(arrivals=[4], before=[4, 4])
    assert rise_candidate(st, 0, RNG(0)) == (4, RISE.three, 0)


def test_rise_a_prevented_by_dispelling_any_one_of_the_players_ghosts():
    st = turn_with(arrivals=[4], before=[4, 4], dispelled=[0])  # an older ghost of seat 4
    assert rise_candidate(st, 0, RNG(0)) == (UNKNOWN, UNKNOWN, 1)
    assert st.possessed[4] == 2


def test_rise_a_not_in_a_later_turn_three_ghosts_from_before():
    st = turn_with(arrivals=[1], before=[4, 4, 4])  # (a position the rules prevented earlier)
    assert rise_candidate(st, 0, RNG(0)) == (UNKNOWN, UNKNOWN, 0)


def test_rise_a_several_players_the_first_going_right_from_the_turn_player():
    st = turn_with(arrivals=[1, 5], before=[1, 1, 5, 5], p=3)
    assert rise_candidate(st, 3, RNG(0))[0] == 5


def test_rise_b_a_seventh_ghost_not_dispelled_the_most_possessed_rises():
    st = turn_with(arrivals=[2], before=[0, 1, 1, 3, 4, 4], p=2)
    assert st.in_play == 7
    assert rise_candidate(st, 2, RNG(0)) == (4, RISE.seventh, 0)  # 1 and 4 tie: 4 first from seat 2
    st = turn_with(arrivals=[2], before=[0, 1, 1, 3, 4, 4], p=0)
    assert rise_candidate(st, 0, RNG(0))[0] == 1


def test_rise_b_prevented_only_by_dispelling_that_seventh_ghost():
    st = turn_with(arrivals=[2], before=[0, 1, 1, 3, 4, 4], dispelled=[6])
    assert rise_candidate(st, 0, RNG(0)) == (UNKNOWN, UNKNOWN, 1)
    st = turn_with(arrivals=[2], before=[0, 1, 1, 3, 4, 4], dispelled=[0])  # another ghost
    assert rise_candidate(st, 0, RNG(0)) == (1, RISE.seventh, 0)


def test_rise_a_comes_before_rise_b():
    st = turn_with(arrivals=[3], before=[0, 1, 2, 3, 3, 5])
    assert st.in_play == 7
    assert rise_candidate(st, 0, RNG(0))[:2] == (3, RISE.three)


def test_at_most_one_ghost_king():
    st = turn_with(arrivals=[4], before=[4, 4])
    st.king = 1
    assert rise_candidate(st, 0, RNG(0)) == (UNKNOWN, UNKNOWN, 0)


def test_the_risen_player_becomes_the_ghost_king_for_all_to_see_and_keeps_its_things():
    st = turn_with(arrivals=[4], before=[4, 4])
    give(st, 4, red=2, blue=1)
    st.points[4] = 3
    st.spirit[4] = 7
    assert rise(st, 4, 9) == TP
    assert st.role[4] == KING and st.former[4] == TP and st.king == 4 and st.rise_turn == 9
    assert st.obs[OBS.king] == 4 and all(st.known[v, 4] == KING for v in range(6))
    assert st.hand_size[4] == 3 and st.points[4] == 3 and st.spirit[4] == 7
    assert st.possessed[4] == 3  # its ghosts stay


def test_most_possessed_tie_goes_to_the_turn_player_first():
    st = position(SIX)
    st.possessed[:6] = [2, 0, 2, 0, 2, 0]
    assert most_possessed(st, 2, RNG(0)) == 2 and most_possessed(st, 3, RNG(0)) == 4


# --- the end --------------------------------------------------------------------------------------
def test_the_game_ends_when_the_ghost_deck_is_empty_and_the_turn_ends():
    st = position(SIX)
    st.ghost_next = 39
    assert not game_over(st, 0)
    st.ghost_next = 40
    assert game_over(st, 3)
    st.end = END_RULE.round  # the knob: at the end of that round (the first player was seat 0)
    assert not game_over(st, 3) and game_over(st, 5)


def test_sects_score_their_members_points_and_a_tie_is_a_draw():
    st = position([TP, TS, TP, TS, EVIL, KING])
    st.points[:6] = [2, 3, 2, 0, 5, 9]
    assert sect_points(st) == (4, 3, 14)  # the evil path's and the king's count for no sect
    assert sect_winner(st) == TEAM.taiping
    st.points[3] = 1
    assert sect_winner(st) == -1
    st.points[3] = 2
    assert sect_winner(st) == TEAM.tianshi
