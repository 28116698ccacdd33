"""Vita Mors Conspiro's rules on hand-built positions, one rule at a time (the kernel only composes
them). A position is the kernel's own state record (`driver.new_state` with the default setup, or
`blank_state`), with fields set by name; each rule is called as the kernel calls it.

The success rule gets the most care: both patterns and their near misses, and an exhaustive
comparison with a brute-force reading of the rule text.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy.stats import binom

from simulator.setup import config
from simulator.games import driver
from simulator.games.vitamors import GAME
from simulator.games.vitamors.declaration import (
    ALTAR, END, EXILE, ITEM, JESTER, MAX_ALTAR, OBS, RITUAL_VOTE, SCROLL, SILENT, TEAM, UNKNOWN,
)
from simulator.games.vitamors.rules import (
    altar_ranks, announce, cards_on_altars, change_limit, change_needed, deal, death_pattern,
    draw, exchange_sacrifice, flip, initiator, judgement_result, life_pattern, limit_reached,
    night_leader, offer_card, place, place_scheme, remove_scroll, report_faction, report_rank,
    ritual_due, ritual_outcome, ritual_patterns, scrolls_left, see_faction, see_sacrifice,
    swap_adjacent, yes_votes,
)

LIFE, DEATH = ALTAR.life, ALTAR.death
E, J = EXILE, JESTER


def table(players=7, overrides=()):
    """A state with the setup of the default config (novice unless overridden), dealt with a
    fixed seed."""
    cfg = config.load("vitamors", list(overrides), players)
    st = driver.new_state(GAME, cfg.params, driver.Lineup.uniform(GAME, players))
    deal(st, np.random.default_rng(0))
    return st


def position(roles, ranks=None, overrides=()):
    """A dealt table whose factions are `roles` and whose cards, by id, have `ranks`."""
    st = table(len(roles), overrides)
    st.role[:len(roles)] = roles
    if ranks is not None:
        st.deck_rank[:len(ranks)] = ranks
    return st


def put(st, altar, cards):
    """Cards (ids) straight onto an altar, in order."""
    for card in cards:
        st.sacrifice = card
        place(st, altar)


# --- setup and the jesters' night -----------------------------------------------------------------
@pytest.mark.parametrize("players, jesters", [(5, 2), (6, 2), (7, 2), (8, 3), (9, 3), (10, 3)])
def test_deal_follows_the_faction_table_and_the_jesters_know_each_other(players, jesters):
    st = table(players)
    roles = st.role[:players].tolist()
    assert roles.count(J) == jesters and roles.count(E) == players - jesters
    hands = st.hand[:players].tolist()
    assert len(set(hands)) == players and st.top == players        # one card each, drawn in turn
    jester_cards = sum(1 << h for s, h in enumerate(hands) if roles[s] == J)
    everyone = (1 << players) - 1
    for s in range(players):
        if roles[s] == J:  # the jesters see each other and each other's starting cards
            assert st.knows[s] == jester_cards | (1 << hands[s])
            assert st.faction_known[s] == everyone
        else:              # an exile knows its own card and faction only
            assert st.knows[s] == 1 << hands[s]
            assert st.faction_known[s] == 1 << s
    assert st.altar_n.tolist() == [0, 0] and st.sacrifice == UNKNOWN
    assert st.obs[OBS.feathers:OBS.feathers + players].tolist() == [1] * players
    assert scrolls_left(st) == st.n_scrolls


def test_the_faction_cards_are_shuffled_uniformly():
    # Seat 0 is a jester 2/7 of the time; over 700 deals its count lies within the binomial's
    # 99.9% two-sided quantiles (a fixed seed: the test cannot flake).
    st = table(7)
    count = 0
    for seed in range(700):
        deal(st, np.random.default_rng(seed))
        count += st.role[0] == J
    assert binom.ppf(0.0005, 700, 2 / 7) <= count <= binom.ppf(0.9995, 700, 2 / 7)


def test_the_novice_setup_lays_the_source_scythes_under_each_tile():
    st = table(10)  # novice 10 players: 4 under Death's Gaze, 4 under Secret Peek
    tiles = st.setup_tile[:st.n_scrolls].tolist()
    assert tiles == [ITEM.gaze] * 4 + [ITEM.peek] * 4
    assert st.scheme_count.tolist() == [2, 1, 0, 0]
    st = table(8, ["rules.mode=\"expert\""])
    assert st.setup_tile[:st.n_scrolls].tolist() == \
        [ITEM.gaze] * 3 + [ITEM.peek] * 3 + [ITEM.brink] * 2
    assert st.scheme_count.tolist() == [1, 1, 1, 1]


def test_night_leader_is_the_first_jester_in_turn_order_from_the_start():
    st = position([E, J, E, E, J, E, E])
    assert night_leader(st, 0) == 1
    assert night_leader(st, 2) == 4
    assert night_leader(st, 5) == 1  # around the table


def test_a_scheme_replaces_a_scythe_and_the_scroll_shows_no_difference():
    st = table(7)
    before = st.obs.copy()
    place_scheme(st, 1, ITEM.veil)
    assert st.scroll_item[1] == ITEM.veil
    assert np.array_equal(st.obs, before)  # the scrolls are turned scroll side up: nothing shows
    assert st.obs[OBS.replaced:OBS.replaced + 3].tolist() == [UNKNOWN] * 3  # the scythe: unseen


def test_under_the_knob_the_replaced_scythes_are_set_aside_face_up():
    """rules.replaced_scythes = "shown": the scythe a scheme replaces is set aside face up, so the
    table counts the scythes taken from under each tile; which position holds the scheme stays
    hidden (the board's public record does not change)."""
    st = table(7, ['rules.replaced_scythes="shown"'])
    assert st.obs[OBS.replaced:OBS.replaced + 3].tolist() == [0, 0, 0]
    board = st.obs[OBS.scroll_state:OBS.scroll_state + 15].copy()
    place_scheme(st, 1, ITEM.veil)   # positions 0-2 lie under Death's Gaze, 3-5 under Secret Peek
    place_scheme(st, 4, ITEM.swap)
    place_scheme(st, 2, ITEM.veil)
    assert st.obs[OBS.replaced:OBS.replaced + 3].tolist() == [2, 1, 0]
    assert np.array_equal(st.obs[OBS.scroll_state:OBS.scroll_state + 15], board)
    assert st.obs[OBS.scroll_shown + 1] == UNKNOWN


# --- the offer ------------------------------------------------------------------------------------
def test_offering_puts_the_hand_card_in_the_sacrifice_area_and_draws():
    st = table(7)
    card, top = st.hand[3], st.pile[st.top]
    assert offer_card(st, 3) == card
    assert st.sacrifice == card and st.card_by[card] == 3
    assert st.hand[3] == top and st.top == 8 and (st.knows[3] >> top) & 1
    assert st.obs[OBS.sac_by] == 3 and st.obs[OBS.sac_claim] == UNKNOWN


def test_an_empty_draw_pile_leaves_the_hand_empty():
    st = table(7)
    st.top = st.deck_size
    draw(st, 2)
    assert st.hand[2] == UNKNOWN


def test_removing_a_scroll_takes_it_off_the_board_unseen():
    st = table(7)
    left = scrolls_left(st)
    remove_scroll(st, 4)
    assert scrolls_left(st) == left - 1
    assert st.obs[OBS.scroll_state + 4] == SCROLL.removed
    assert st.obs[OBS.scroll_shown + 4] == UNKNOWN  # what it was stays unknown


def test_under_the_knob_a_removed_scroll_is_shown_to_everyone():
    """rules.removed_scroll = "shown": the removed scroll leaves the board as before, and what it
    was becomes public, as a flipped scroll's does."""
    st = table(7, ['rules.removed_scroll="shown"'])
    place_scheme(st, 1, ITEM.veil)
    remove_scroll(st, 1)
    remove_scroll(st, 4)
    assert st.obs[OBS.scroll_state + 1] == SCROLL.removed
    assert st.obs[OBS.scroll_shown + 1] == ITEM.veil and st.obs[OBS.scroll_shown + 4] == ITEM.peek


def test_an_announcement_is_a_public_claim_about_the_sacrifice():
    st = table(7)
    offer_card(st, 0)
    announce(st, 0, SILENT)
    assert st.obs[OBS.sac_claim] == UNKNOWN
    announce(st, 0, 4)
    assert st.obs[OBS.sac_claim] == 4 and st.obs[OBS.sac_claimer] == 0


# --- spells ---------------------------------------------------------------------------------------
def test_a_flipped_scythe_performs_its_tile_and_a_scheme_its_own_effect():
    st = table(7)  # positions 0-2 under Death's Gaze, 3-5 under Secret Peek
    place_scheme(st, 4, ITEM.swap)
    assert flip(st, 0) == ITEM.gaze      # a scythe: the tile above its position
    assert flip(st, 4) == ITEM.swap      # a scheme: its own
    assert flip(st, 5) == ITEM.peek
    # discarded face up: what each was is public
    assert st.obs[OBS.scroll_shown:OBS.scroll_shown + 6].tolist() == \
        [ITEM.gaze, UNKNOWN, UNKNOWN, UNKNOWN, ITEM.swap, ITEM.peek]
    assert st.obs[OBS.scroll_state + 4] == SCROLL.flipped and scrolls_left(st) == 3


def test_see_sacrifice_teaches_the_caster_the_rank_and_a_report_is_public():
    st = table(7)
    card = offer_card(st, 1)
    assert see_sacrifice(st, 5) == st.deck_rank[card]
    assert (st.knows[5] >> card) & 1
    report_rank(st, 5, 2)
    assert st.obs[OBS.sac_report] == 2 and st.obs[OBS.sac_reporter] == 5
    assert st.report[card] == 2  # kept with the card, onto the altar
    place(st, DEATH)
    assert st.obs[OBS.altar_report + MAX_ALTAR] == 2


def test_see_faction_teaches_the_caster_a_faction_and_a_report_is_public():
    st = position([E, J, E, E, J, E, E])
    assert see_faction(st, 0, 4) == J
    assert (st.faction_known[0] >> 4) & 1
    report_faction(st, 0, 4, 2)  # silent
    assert st.obs[OBS.faction_claim + 4] == UNKNOWN
    report_faction(st, 0, 4, J)
    assert st.obs[OBS.faction_claim + 4] == J and st.obs[OBS.faction_claimer + 4] == 0


def test_swap_adjacent_exchanges_two_cards_with_their_claims():
    st = table(7)
    put(st, DEATH, [10, 11, 12])
    st.claim[11] = 3
    swap_adjacent(st, DEATH, 1)
    assert st.altar[DEATH, :3].tolist() == [10, 12, 11]
    assert st.obs[OBS.altar_claim + MAX_ALTAR + 2] == 3


def test_exchange_sacrifice_swaps_with_the_draw_pile_unseen():
    st = table(7)
    card = offer_card(st, 2)
    top = st.pile[st.top]
    assert exchange_sacrifice(st)
    assert st.sacrifice == top and st.pile[st.top] == card  # the old card is now the pile's top
    assert st.card_by[top] == 2 and st.obs[OBS.sac_claim] == UNKNOWN
    assert not (st.knows[2] >> top) & 1                      # nobody has seen the new card
    st.top = st.deck_size
    assert not exchange_sacrifice(st) and st.sacrifice == top  # an empty pile: nothing happens


def test_card_limit_and_ritual_votes_effects_move_and_clamp():
    st = table(7)
    assert change_limit(st, 1) == 10 and st.obs[OBS.card_limit] == 10
    assert change_limit(st, 40) == MAX_ALTAR and change_limit(st, -40) == 1
    assert change_needed(st, 1) == 3 and st.obs[OBS.yes_needed] == 3
    assert change_needed(st, 40) == 7 and change_needed(st, -40) == 1


# --- judgement and the altars ---------------------------------------------------------------------
@pytest.mark.parametrize("ballots, sacrificer, altar, tied", [
    ([0, 0, 0, 1, 1, 1, 1], 0, DEATH, False),   # 4 death to 3 life
    ([0, 0, 0, 0, 1, 1, 1], 6, LIFE, False),
    ([0, 0, 0, 1, 1, 1], 0, LIFE, True),        # 3 to 3: the sacrificer's vote (life)
    ([0, 0, 0, 1, 1, 1], 4, DEATH, True),       # ... (death)
])
def test_judgement_is_a_majority_and_a_tie_follows_the_sacrificer(ballots, sacrificer, altar,
                                                                   tied):
    st = table(len(ballots))
    st.ballot[:len(ballots)] = ballots
    assert judgement_result(st, sacrificer) == (altar, tied)


def test_cards_go_to_the_altar_in_order_of_arrival():
    st = table(7)
    put(st, LIFE, [5, 9])
    put(st, DEATH, [7])
    put(st, LIFE, [3])
    assert st.altar[LIFE, :3].tolist() == [5, 9, 3] and st.altar[DEATH, :1].tolist() == [7]
    assert st.obs[OBS.altar_size:OBS.altar_size + 2].tolist() == [3, 1]
    assert cards_on_altars(st) == 4 and st.sacrifice == UNKNOWN


@pytest.mark.parametrize("life, death, due", [
    (2, 3, False), (3, 0, True), (0, 4, True), (2, 4, True), (3, 3, True), (1, 2, False),
])
def test_a_ritual_vote_follows_three_life_or_four_death_cards(life, death, due):
    st = table(7)
    put(st, LIFE, range(10, 10 + life))
    put(st, DEATH, range(20, 20 + death))
    assert ritual_due(st) == due


def test_nine_cards_reach_the_limit_and_prolong_life_raises_it():
    st = table(7)
    put(st, LIFE, range(10, 14))
    put(st, DEATH, range(20, 24))
    assert not limit_reached(st)
    put(st, DEATH, [24])
    assert limit_reached(st)          # 9 cards
    change_limit(st, 1)
    assert not limit_reached(st)      # 10 after Prolong Life


# --- the ritual -----------------------------------------------------------------------------------
@pytest.mark.parametrize("roles, ballots, yes, team", [
    ([E, E, J, E, J], [1, 1, 0, 0, 0], 2, TEAM.exiles),
    ([E, E, J, E, J], [0, 0, 1, 0, 1], 2, TEAM.jesters),
    ([E, E, J, E, J], [1, 0, 1, 0, 0], 2, TEAM.exiles),   # a tie: the exiles initiate
    ([E, E, J, E, J], [1, 0, 1, 0, 1], 3, TEAM.jesters),
    ([E, E, J, E, J], [1, 1, 1, 1, 1], 5, TEAM.exiles),
])
def test_the_initiator_is_the_majority_of_the_yes_voters_a_tie_to_the_exiles(roles, ballots,
                                                                           yes, team):
    st = position(roles)
    st.ballot[:5] = ballots
    assert yes_votes(st) == yes
    assert initiator(st) == team


LIFE_CASES = [
    ([2, 2, 2], True),                 # three of a rank
    ([1, 4, 4, 4], True),
    ([4, 4, 4, 1], True),
    ([3, 1, 1, 1, 5, 5], True),
    ([0, 0, 0, 0], True),              # four in a row hold three in a row
    ([2, 2], False),                   # near misses: only two
    ([2, 2, 5, 2], False),             # three of a rank, not consecutive
    ([2, 5, 2, 2], False),
    ([1, 1, 2, 2, 1, 1], False),
    ([1, 2, 3, 4, 5], False),
    ([], False),
]

DEATH_CASES = [
    ([1, 1, 2, 2], True),              # two pairs of different ranks
    ([1, 1, 5, 2, 2], True),           # the pairs need not touch
    ([3, 1, 1, 4, 0, 0], True),
    ([1, 1, 1, 2, 2], True),           # a triple holds a pair
    ([1, 1, 2, 2, 1, 1], True),
    ([1, 1, 1, 1], False),             # near misses: two pairs of one rank
    ([1, 1, 3, 1, 1], False),
    ([1, 1, 1], False),                # overlapping pairs of one rank
    ([1, 2, 1, 2], False),             # no consecutive pair
    ([1, 1, 2], False),                # one pair
    ([2, 1, 1, 3], False),
    ([], False),
]


@pytest.mark.parametrize("ranks, success", LIFE_CASES)
def test_life_altar_pattern_three_consecutive_of_a_rank(ranks, success):
    assert life_pattern(np.asarray(ranks + [9] * 3, dtype=np.int64), len(ranks)) == success


@pytest.mark.parametrize("ranks, success", DEATH_CASES)
def test_death_altar_pattern_two_pairs_of_different_ranks(ranks, success):
    assert death_pattern(np.asarray(ranks + [9] * 3, dtype=np.int64), len(ranks)) == success


def brute_force_life(ranks) -> bool:
    """The rule text, literally: 'on the Life Altar, 3 consecutive character cards of the same
    rank' -- some window of three consecutive cards whose ranks form a set of one."""
    return any(len(set(ranks[i:i + 3])) == 1 for i in range(len(ranks) - 2))


def brute_force_death(ranks) -> bool:
    """The rule text, literally: 'on the Death Altar, 2 groups of 2 consecutive cards of the same
    rank, and the 2 groups' ranks differ' -- every choice of two windows of two consecutive
    cards that share no card, each of one rank, the ranks different."""
    pairs = [i for i in range(len(ranks) - 1) if ranks[i] == ranks[i + 1]]
    return any(j >= i + 2 and ranks[i] != ranks[j] for i, j in itertools.combinations(pairs, 2))


def test_success_rule_matches_a_brute_force_reading_on_every_altar_sequence():
    # Every sequence of 0..7 cards over 3 ranks (3,280 sequences) and of 0..5 cards over 5 ranks
    # (3,906), on each altar, through the kernel's own state: cards placed in order, the ranks
    # read back by card id, the patterns judged as the ritual judges them.
    st = table(7)
    sequences = [seq for ranks in (3, 5) for length in range(8 if ranks == 3 else 6)
                 for seq in itertools.product(range(ranks), repeat=length)]
    assert len(sequences) == 3280 + 3906
    checked = 0
    for seq in sequences:
        for altar in (LIFE, DEATH):
            st.altar_n[:] = 0
            st.deck_rank[:len(seq)] = seq
            put(st, altar, range(len(seq)))
            count = altar_ranks(st, altar)
            assert st.ranks_scratch[:count].tolist() == list(seq)
            life, death = ritual_patterns(st)
            expected = brute_force_life(seq) if altar == LIFE else brute_force_death(seq)
            assert (life if altar == LIFE else death) == expected, (altar, seq)
            assert not (death if altar == LIFE else life)  # the other altar is empty
            checked += 1
    assert checked == 2 * len(sequences)


def test_both_altars_are_judged_together():
    st = position([E] * 5 + [J] * 2, ranks=[1, 1, 1, 2, 2, 3, 3, 4])
    put(st, LIFE, [0, 1, 2])          # 1 1 1
    put(st, DEATH, [3, 4, 5, 6])      # 2 2 3 3
    assert ritual_patterns(st) == (True, True)
    st.deck_rank[1] = 4               # the Life Altar's run broken
    assert ritual_patterns(st) == (False, True)
    st.deck_rank[6] = 4               # and the second pair
    assert ritual_patterns(st) == (False, False)


@pytest.mark.parametrize("success, team, winner, end", [
    (True, TEAM.exiles, TEAM.exiles, END.success_exiles),
    (True, TEAM.jesters, TEAM.jesters, END.success_jesters),
    (False, TEAM.exiles, TEAM.jesters, END.failure_exiles),
    (False, TEAM.jesters, TEAM.exiles, END.failure_jesters),
])
def test_success_wins_for_the_initiator_failure_for_the_other_faction(success, team, winner, end):
    assert ritual_outcome(success, team) == (winner, end)


def test_yes_votes_count_only_yes():
    st = table(5)
    st.ballot[:5] = [RITUAL_VOTE.yes, RITUAL_VOTE.no, RITUAL_VOTE.yes, RITUAL_VOTE.no,
                     RITUAL_VOTE.no]
    assert yes_votes(st) == 2
