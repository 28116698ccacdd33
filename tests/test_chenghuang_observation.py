"""What a Chenghuang seat may see: observations built from two states that differ only in what a
seat cannot know are identical (so its decisions cannot differ), and a change it can see shows."""

from __future__ import annotations

import numpy as np

from simulator.games.chenghuang.declaration import (
    CARD, DECISION, FACE_DOWN, N_ACTIONS, N_KINDS, OBS, ROLE,
)
from simulator.games.chenghuang.observation import (
    legal_admit, legal_peek, legal_seats, legal_source, legal_target, observe_draft,
    observe_table, publish_seats,
)
from simulator.games.chenghuang.rules import gan_keep, judge_names, peek
from strategies.chenghuang import balanced, greedy

from test_chenghuang_positions import cards, lay, position, random_table

KILLING, LOYALTY, THEFT = CARD.killing, CARD.loyalty, CARD.theft
LIU, MARTIAL, GAN, IMPLEMENTS, CIVIL = (ROLE.general_liu, ROLE.martial_judge, ROLE.general_gan,
                                       ROLE.lord_of_implements, ROLE.civil_judge)
OX_HEAD, XIE = ROLE.ox_head, ROLE.general_xie
ADMIT, PEEK, VOTE = DECISION.admit, DECISION.peek, DECISION.vote
ROLES = [LIU, IMPLEMENTS, XIE, OX_HEAD]
ME = 0
PARAMS = np.array([0.5, 0.5, 0, 0, 0, 0, 0, 0], dtype=np.float64)
MEMORY = np.zeros(0, dtype=np.float64)


def table(seat3_down, pile=cards(killing=1, theft=2, loyalty=1)):
    """Four seats laid out; seat 3's face-down cards and the pile vary between calls."""
    st = position(ROLES, captain=1)
    st.judge_kind = -1  # no 武判 this round
    lay(st, 0, up=cards(benevolence=1, treachery=1), down=cards(filial=2, theft=1))
    lay(st, 1, up=cards(killing=2, theft=1), down=cards(loyalty=2))
    lay(st, 2, up=cards(filial=2, theft=1), down=cards(benevolence=1, loyalty=1))
    lay(st, 3, up=cards(treachery=1, theft=2), down=seat3_down)
    st.pile[:] = pile
    st.pile_known[ME] = cards(theft=1)  # seat 0 discarded a 竊盜
    publish_seats(st, 4)
    return st


def observe(st, me, kind):
    observe_table(st, me, ())
    st.obs[OBS.kind] = kind  # as the engine does when it asks
    st.obs[OBS.me] = me
    st.obs[OBS.my_role] = st.role[me]
    return st.obs.copy()


def decide(strategy, st, kind, seed=11):
    return strategy(kind, st.obs, st.legal.view(np.bool_), PARAMS, MEMORY,
                    np.random.default_rng(seed))


def test_hidden_cards_of_others_do_not_reach_the_observation():
    low = table(cards(filial=1, theft=1))
    high = table(cards(killing=2), pile=cards(loyalty=3, benevolence=1))
    for kind in (VOTE, ADMIT):
        a, b = observe(low, ME, kind), observe(high, ME, kind)
        assert (a == b).all()
    # hence the same decisions, whatever the strategy reads
    for strategy in (balanced, greedy):
        legal_seats(low, 4, ME)
        legal_seats(high, 4, ME)
        observe(low, ME, VOTE)
        observe(high, ME, VOTE)
        assert decide(strategy, low, VOTE) == decide(strategy, high, VOTE)
        legal_admit(low)
        legal_admit(high)
        observe(low, ME, ADMIT)
        observe(high, ME, ADMIT)
        assert decide(strategy, low, ADMIT) == decide(strategy, high, ADMIT)


def test_what_the_seat_can_see_does_change_the_observation():
    base = observe(table(cards(filial=1, theft=1)), ME, VOTE)
    # seat 3 shows a different face-up card
    st = table(cards(filial=1, theft=1))
    lay(st, 3, up=cards(killing=1, theft=2), down=cards(filial=1, theft=1))
    seen = observe(st, ME, VOTE)
    assert not (seen == base).all()
    assert seen[OBS.known + 3 * N_KINDS + KILLING] == 1
    # and seat 3 itself sees its own face-down cards change
    a = observe(table(cards(filial=1, theft=1)), 3, VOTE)
    b = observe(table(cards(killing=2)), 3, VOTE)
    assert not (a == b).all()


def test_only_the_looker_learns_a_looked_at_card():
    st_a = table(cards(filial=1, theft=1))
    st_b = table(cards(killing=1, theft=1))
    rng_a, rng_b = np.random.default_rng(1), np.random.default_rng(1)
    # 刑具爺 (seat 1) looks at seat 3 twice: it sees both face-down cards
    for st, rng in ((st_a, rng_a), (st_b, rng_b)):
        peek(st, 4, 1, 3, rng)
        peek(st, 4, 1, 3, rng)
    assert not (observe(st_a, 1, VOTE) == observe(st_b, 1, VOTE)).all()
    for viewer in (0, 2):
        assert (observe(st_a, viewer, VOTE) == observe(st_b, viewer, VOTE)).all()


def test_martial_judge_reveals_the_named_kind_to_everyone():
    st_a = position([MARTIAL, GAN, XIE])
    st_b = position([MARTIAL, GAN, XIE])
    lay(st_a, 0, up=cards(killing=1, benevolence=2), down=cards(killing=1, filial=1))
    lay(st_b, 0, up=cards(killing=1, benevolence=2), down=cards(loyalty=1, filial=1))
    for st in (st_a, st_b):
        lay(st, 1, up=cards(theft=3), down=cards(loyalty=2))
        lay(st, 2, up=cards(treachery=3), down=cards(loyalty=2))
    observe_table(st_a, 1, ())
    observe_table(st_b, 1, ())
    assert (st_a.obs == st_b.obs).all()  # before: the face-down cards are hidden
    judge_names(st_a, 3, 0, KILLING)
    judge_names(st_b, 3, 0, KILLING)
    a, b = observe_n(st_a, 1), observe_n(st_b, 1)
    assert a[OBS.known + KILLING] == 2 and b[OBS.known + KILLING] == 1  # the sideways cards
    assert a[OBS.unknown + 0] == 1 and b[OBS.unknown + 0] == 2


def observe_n(st, me):
    observe_table(st, me, ())
    return st.obs.copy()


def test_votes_stay_secret_until_the_count():
    st = table(cards(filial=1, theft=1))
    st.votes[:4] = [0, 2, 1, 0]
    publish_seats(st, 4)
    assert (observe(st, ME, VOTE)[OBS.votes:OBS.votes + 4] == 0).all()
    st.voted = 1
    publish_seats(st, 4)
    assert list(observe(st, ME, ADMIT)[OBS.votes:OBS.votes + 4]) == [0, 2, 1, 0]


def test_draft_observation_shows_only_the_pack_in_hand():
    st_a = position([LIU, GAN, XIE])
    st_b = position([LIU, GAN, XIE])
    st_a.packs[:3] = [cards(killing=2, theft=4), cards(loyalty=6), cards(filial=6)]
    st_b.packs[:3] = [cards(killing=2, theft=4), cards(benevolence=6), cards(treachery=6)]
    st_a.held[1] = st_b.held[1] = cards(loyalty=1)
    observe_draft(st_a, 0, (0, 1))
    observe_draft(st_b, 0, (0, 1))
    assert (st_a.obs == st_b.obs).all()
    assert list(st_a.obs[OBS.pack:OBS.pack + N_KINDS]) == list(cards(killing=2, theft=4))
    assert st_a.obs[OBS.pick] == 2
    legal = np.zeros(12, np.bool_)
    legal[[KILLING, THEFT]] = True
    assert balanced(DECISION.draft, st_a.obs, legal, PARAMS, MEMORY,
                    np.random.default_rng(0)) in (KILLING, THEFT)


def test_peek_choice_depends_only_on_what_the_looker_knows():
    st_a = table(cards(filial=1, theft=1))
    st_b = table(cards(killing=2))
    for st in (st_a, st_b):
        legal_peek(st, 4, 1)
        observe(st, 1, PEEK)
    assert (st_a.obs == st_b.obs).all() and (st_a.legal == st_b.legal).all()
    assert decide(balanced, st_a, PEEK) == decide(balanced, st_b, PEEK)


def scribe_masks_by_slot(st, n, me, source):
    """文判's legal sources and targets read card by card off the layouts (the rule as written)."""
    sources = np.zeros(N_ACTIONS, bool)
    for i in range(st.n_slots[me]):
        sources[st.slot_kind[me, i] + (0 if st.slot_up[me, i] else FACE_DOWN)] = True
    moved_kind, moved_up = source % FACE_DOWN, source < FACE_DOWN
    skip = next(i for i in range(st.n_slots[me])
                if st.slot_kind[me, i] == moved_kind and st.slot_up[me, i] == moved_up)
    targets = np.zeros(N_ACTIONS, bool)
    for s in range(n):
        for i in range(st.n_slots[s]):
            if (s, i) == (me, skip):
                continue
            if st.slot_up[s, i]:
                targets[st.slot_kind[s, i]] = True
            elif s == me:
                targets[FACE_DOWN + st.slot_kind[s, i]] = True
    return sources, targets


def test_scribe_masks_from_the_layout_counts_match_the_cards():
    # legal_source / legal_target read the counts recount keeps; on random layouts (after 武判
    # turned a kind sideways and 甘將軍 added a face-down card) they match a card-by-card reading.
    rng = np.random.default_rng(4)
    for _ in range(150):
        st = random_table([MARTIAL, GAN, CIVIL, XIE], rng)
        judge_names(st, 4, 0, int(rng.integers(N_KINDS)))
        drawn = cards(loyalty=1)
        gan_keep(st, 4, 1, drawn, LOYALTY)  # keeps a 忠信 face down
        legal_source(st, 2)
        sources = st.legal.astype(bool).copy()
        assert st.legal_count == sources.sum()
        for source in np.flatnonzero(sources):
            legal_target(st, 4, 2, source)
            assert st.legal_count == st.legal.sum()
            expected_sources, expected_targets = scribe_masks_by_slot(st, 4, 2, source)
            assert np.array_equal(sources, expected_sources)
            assert np.array_equal(st.legal.astype(bool), expected_targets)
