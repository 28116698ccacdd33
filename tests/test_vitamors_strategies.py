"""Vita Mors Conspiro's strategies on hand-built observations: each plays the way its summary says.

An observation is built on the default setup's constants (a dealt state's observation), with the
public record and the seat's private part written by hand; the strategy is called as the engine
calls it, with its own memory vector.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import chisquare

from simulator.setup import config
from simulator.games import driver
from simulator.run import runner
from simulator.games.vitamors import GAME
from simulator.games.vitamors.declaration import (
    ALTAR, DECISION, EFFECT, EV, EXILE, FACTION_SILENT, ITEM, JESTER, MAX_ACTIONS, MAX_ALTAR,
    MAX_PLAYERS, OBS, OFFER, PROPOSAL, RITUAL_VOTE, SCROLL, SILENT,
)
from simulator.games.vitamors.rules import deal
from strategies.common import random_play
from strategies.vitamors import (
    EXPERT_PATIENCE, MEMORY, M, OPEN_GAZE, P_BACKING_TELL, P_BLUFF, P_DISGUISE, P_DOUBT,
    P_FAITH, P_FRAME, P_PATIENCE, P_PLAY_TELL, P_REMOVE_TRUST, P_RITUAL_DOUBT, P_SCOUT,
    P_VIGILANCE, builtin, conspirator, sacrifices,
)

LIFE, DEATH = ALTAR.life, ALTAR.death
E, J = EXILE, JESTER
DEFAULTS = {p.name: p.default for p in builtin()["conspirator"].params}


def params(**given):
    values = np.zeros(12)
    for name, index in (("doubt", P_DOUBT), ("patience", P_PATIENCE),
                        ("vigilance", P_VIGILANCE), ("bluff", P_BLUFF), ("faith", P_FAITH),
                        ("play_tell", P_PLAY_TELL), ("remove_trust", P_REMOVE_TRUST),
                        ("backing_tell", P_BACKING_TELL), ("ritual_doubt", P_RITUAL_DOUBT),
                        ("disguise", P_DISGUISE), ("scout", P_SCOUT), ("frame", P_FRAME)):
        values[index] = given.get(name, DEFAULTS[name])
    return values


def _base(players=7):
    cfg = config.load("vitamors", players=players)
    st = driver.new_state(GAME, cfg.params, driver.Lineup.uniform(GAME, players))
    deal(st, np.random.default_rng(0))
    return st.obs.copy()


BASE = _base()


def card(claim=-1, by=-1, known=-1, report=-1, reporter=-1):
    """One altar (or sacrifice) card as a seat sees it: the announced rank and who announced it
    (by default the seat that offered it), what the seat knows, a see-sacrifice report."""
    return dict(claim=claim, by=by, known=known, report=report, reporter=reporter)


def view(me=0, role=E, life=(), death=(), sac=None, hand=-1, factions=None, scrolls=None,
         feathers=None, judged=0, votes=None):
    """The observation of seat `me` (role `role`); `factions` maps seats to the factions it knows
    (its own always; a jester: everyone's); `scrolls` maps positions to what a jester knows lies
    under them."""
    obs = BASE.copy()
    obs[OBS.me] = me
    obs[OBS.my_role] = role
    obs[OBS.hand] = hand
    for altar, cards in ((LIFE, life), (DEATH, death)):
        obs[OBS.altar_size + altar] = len(cards)
        for i, c in enumerate(cards):
            at = altar * MAX_ALTAR + i
            obs[OBS.altar_by + at] = c["by"]
            obs[OBS.altar_claim + at] = c["claim"]
            obs[OBS.altar_claimer + at] = c["by"] if c["claim"] >= 0 else -1
            obs[OBS.altar_report + at] = c["report"]
            obs[OBS.altar_reporter + at] = c["reporter"]
            obs[OBS.altar_known + at] = c["known"]
    if sac is not None:
        obs[OBS.sac_by] = sac["by"]
        obs[OBS.sac_claim] = sac["claim"]
        obs[OBS.sac_claimer] = sac["by"] if sac["claim"] >= 0 else -1
        obs[OBS.sac_report] = sac["report"]
        obs[OBS.sac_reporter] = sac["reporter"]
        obs[OBS.sac_known] = sac["known"]
    for s in range(7):
        obs[OBS.known_faction + s] = -1
        obs[OBS.feathers + s] = 1 if feathers is None else feathers[s]
        obs[OBS.votes + s] = -1 if votes is None else votes[s]
    obs[OBS.known_faction + me] = role
    for s, faction in (factions or {}).items():
        obs[OBS.known_faction + s] = faction
    for p in range(15):
        obs[OBS.scroll_known + p] = -1
    for p, item in (scrolls or {}).items():
        obs[OBS.scroll_known + p] = item
    obs[OBS.judged] = judged
    obs[OBS.news] += 1 + judged
    return obs


def mask(*actions):
    legal = np.zeros(MAX_ACTIONS, np.bool_)
    legal[list(actions)] = True
    return legal


def play(kind, obs, legal, memory=None, seed=0, **given):
    memory = np.zeros(MEMORY.size) if memory is None else memory
    obs = obs.copy()
    obs[OBS.kind] = kind  # (the engine writes the decision kind into every observation)
    return conspirator(kind, obs, legal, params(**given), memory, np.random.default_rng(seed))


# The default table: scroll positions 0-2 lie under Death's Gaze, 3-5 under Secret Peek.
GAZE_POSITIONS, PEEK_POSITIONS = (0, 1, 2), (3, 4, 5)
SCROLLS = tuple(range(6))
JESTERS = {0: J, 1: E, 2: E, 3: J, 4: E, 5: E, 6: E}   # what a jester at seat 0 knows


def test_builtin_strategies_and_their_parameters():
    strategies = builtin()
    assert set(strategies) == {"random", "conspirator"}
    assert strategies["conspirator"].defaults() == \
        {"doubt": 9.5, "patience": 1.0, "vigilance": 1.0, "bluff": 0.98, "faith": 1.0,
         "play_tell": 2.0, "remove_trust": 10.0, "backing_tell": 1.0, "ritual_doubt": 9.5,
         "disguise": 0.0, "scout": 0.0, "frame": 0.0}
    # at most 12 parameters a strategy: in expert mode `patience` is halved, and the chance a
    # jester leaves a Death's Gaze real is fixed (both were parameters of their own)
    assert len(strategies["conspirator"].params) <= 12
    assert (EXPERT_PATIENCE, OPEN_GAZE) == (0.5, 0.5)
    assert strategies["conspirator"].memory == MEMORY.size <= 256


def test_random_is_uniform_over_the_legal_actions():
    legal = mask(2, 5, 9)
    rng = np.random.default_rng(1)
    picks = [random_play(DECISION.spell_scroll, BASE, legal, params(), np.zeros(0), rng)
             for _ in range(3000)]
    counts = np.bincount(picks, minlength=MAX_ACTIONS)
    assert counts[[2, 5, 9]].sum() == 3000
    assert chisquare(counts[[2, 5, 9]]).pvalue > 1e-4  # fixed seed: a fixed p-value


# --- the exile ------------------------------------------------------------------------------------
def test_an_exile_votes_a_card_where_it_extends_or_completes_a_pattern():
    judge = mask(LIFE, DEATH)
    # a claimed 3 after a lone 3 on the Death Altar: a pair
    obs = view(death=[card(3, 2)], sac=card(3, 4))
    assert play(DECISION.judgement, obs, judge) == DEATH
    # a claimed 5 after two 5s on the Life Altar: three of a rank
    obs = view(life=[card(5, 1), card(5, 2)], death=[card(3, 2)], sac=card(5, 4))
    assert play(DECISION.judgement, obs, judge) == LIFE
    # a card nobody has claimed stays off the Life Altar's run
    obs = view(life=[card(5, 1), card(5, 2)], sac=card(by=4))
    assert play(DECISION.judgement, obs, judge) == DEATH


def test_an_exile_stops_believing_a_player_caught_lying():
    # Seat 4 claimed a 2 for a card this exile knows is a 6: its claim of a 5 is not believed,
    # so the card is not put on the Life Altar's run of 5s.
    life = [card(5, 1), card(5, 2)]
    death = [card(2, 4, known=6)]
    judge = mask(LIFE, DEATH)
    assert play(DECISION.judgement, view(life=life, sac=card(5, 4)), judge) == LIFE
    assert play(DECISION.judgement, view(life=life, death=death, sac=card(5, 4)), judge) == DEATH


def test_an_exile_votes_for_the_ritual_only_when_it_believes_in_a_pattern():
    vote = mask(RITUAL_VOTE.no, RITUAL_VOTE.yes)
    pattern = [card(5, 1), card(5, 2), card(5, 3)]
    assert play(DECISION.ritual, view(life=pattern), vote) == RITUAL_VOTE.yes
    assert play(DECISION.ritual, view(life=pattern[:2] + [card(4, 3)]), vote) == RITUAL_VOTE.no
    # two pairs on the Death Altar, but one claimed by a seat known to be a jester
    pairs = [card(1, 1), card(1, 2), card(2, 5), card(2, 6)]
    assert play(DECISION.ritual, view(death=pairs), vote) == RITUAL_VOTE.yes
    assert play(DECISION.ritual, view(death=pairs, factions={6: J}), vote) == RITUAL_VOTE.no


def test_an_exile_without_faith_backs_only_a_verified_pattern():
    # with `ritual_doubt` 0 only what it knows and the word of known exiles count (every other
    # seat's suspicion is 0 here, not below 0)
    vote = mask(RITUAL_VOTE.no, RITUAL_VOTE.yes)
    claimed = [card(5, 1), card(5, 2), card(5, 3)]                 # three unverified claims
    assert play(DECISION.ritual, view(life=claimed), vote, faith=1.0, ritual_doubt=0.0) == \
        RITUAL_VOTE.yes
    assert play(DECISION.ritual, view(life=claimed), vote, faith=0.0, ritual_doubt=0.0) == \
        RITUAL_VOTE.no
    # its own card, a card it has seen, and a known exile's word: verified
    checked = [card(5, 0), card(5, 2, known=5), card(5, 3)]
    assert play(DECISION.ritual, view(life=checked, factions={3: E}), vote, faith=0.0,
                ritual_doubt=0.0) == RITUAL_VOTE.yes
    # its beliefs are derived again afterwards: with faith it still sees the claimed pattern
    memory = np.zeros(MEMORY.size)
    play(DECISION.ritual, view(life=claimed), vote, memory, faith=0.0, ritual_doubt=0.0)
    assert play(DECISION.ritual, view(life=claimed), vote, memory, faith=1.0,
                ritual_doubt=0.0) == RITUAL_VOTE.yes
    # with the default `ritual_doubt` the word of seats it does not suspect counts
    assert play(DECISION.ritual, view(life=claimed), vote, faith=0.0) == RITUAL_VOTE.yes


def test_an_exile_casts_brink_to_swap_cards_into_a_pattern():
    # expert table: positions 0-2 Death's Gaze, 3-5 Secret Peek, 6 Brink of Life and Death
    obs = view(life=[card(5, 1), card(2, 2), card(5, 3), card(5, 4)])
    obs[OBS.scroll_tile + 6] = ITEM.brink
    obs[OBS.scroll_state + 6] = SCROLL.present
    obs[OBS.effects + ITEM.brink] = EFFECT.swap_adjacent
    propose = mask(PROPOSAL.decline, PROPOSAL.propose)
    assert play(DECISION.propose, obs, propose) == PROPOSAL.propose
    assert play(DECISION.spell_scroll, obs, mask(*range(7))) == 6
    # nothing to gain by a swap: no spell
    obs = view(life=[card(5, 1), card(2, 2), card(4, 3), card(5, 4)])
    obs[OBS.scroll_tile + 6] = ITEM.brink
    obs[OBS.scroll_state + 6] = SCROLL.present
    obs[OBS.effects + ITEM.brink] = EFFECT.swap_adjacent
    assert play(DECISION.propose, obs, propose) == PROPOSAL.decline


def test_an_exile_holds_back_a_card_that_fits_nowhere():
    offer = mask(OFFER.play, OFFER.remove)
    death = [card(3, 2)]
    assert play(DECISION.offer, view(death=death, hand=3), offer, patience=1.0) == OFFER.play
    assert play(DECISION.offer, view(death=death, hand=4), offer, patience=1.0) == OFFER.remove
    assert play(DECISION.offer, view(death=death, hand=4), offer, patience=0.0) == OFFER.play
    assert play(DECISION.offer, view(hand=4), offer, patience=1.0) == OFFER.play  # first card
    # in expert mode with half the chance `patience` gives
    expert = view(death=death, hand=4)
    expert[OBS.mode] = 1
    held = [play(DECISION.offer, expert, offer, seed=s, patience=1.0) for s in range(400)]
    assert 0.4 < held.count(OFFER.remove) / 400 < 0.6
    assert {play(DECISION.offer, expert, offer, seed=s, patience=0.0) for s in range(40)} == \
        {OFFER.play}
    # and it removes a scroll that cannot verify a claim
    picks = {play(DECISION.remove_scroll, view(), mask(*SCROLLS), seed=s) for s in range(40)}
    assert picks == set(PEEK_POSITIONS)
    # nor one that swaps altar cards (expert: position 6 under Brink of Life and Death)
    obs = view()
    obs[OBS.scroll_tile + 6] = ITEM.brink
    obs[OBS.effects + ITEM.brink] = EFFECT.swap_adjacent
    picks = {play(DECISION.remove_scroll, obs, mask(*SCROLLS, 6), seed=s) for s in range(40)}
    assert picks == set(PEEK_POSITIONS)
    assert play(DECISION.remove_scroll, obs, mask(0, 6)) in (0, 6)


def test_an_exile_verifies_a_claim_that_would_complete_a_pattern():
    obs = view(me=0, life=[card(5, 1), card(5, 2)], sac=card(5, 4))
    propose = mask(PROPOSAL.decline, PROPOSAL.propose)
    assert play(DECISION.propose, obs, propose) == PROPOSAL.propose
    assert play(DECISION.propose, obs, propose, vigilance=0.0) == PROPOSAL.decline
    assert play(DECISION.spell_scroll, obs, mask(*SCROLLS)) in GAZE_POSITIONS
    assert play(DECISION.spell_caster, obs, mask(*range(7))) == 0
    # a claim that completes nothing needs no spell; nor does a card it has seen
    assert play(DECISION.propose, view(life=[card(5, 1)], sac=card(5, 4)), propose) == \
        PROPOSAL.decline
    seen = view(life=[card(5, 1), card(5, 2)], sac=card(5, 4, known=5))
    assert play(DECISION.propose, seen, propose) == PROPOSAL.decline


def test_an_exile_does_not_cast_a_gaze_whose_scythes_it_saw_set_aside():
    # rules.replaced_scythes = "shown": three scythes set aside from under Death's Gaze, whose
    # three positions therefore all hold schemes; a claim would complete a pattern
    obs = view(life=[card(5, 1), card(5, 2)], sac=card(5, 3))
    propose = mask(PROPOSAL.decline, PROPOSAL.propose)
    assert play(DECISION.propose, obs, propose) == PROPOSAL.propose  # (the replaced: unseen)
    obs[OBS.replaced:OBS.replaced + 3] = [2, 0, 0]
    assert play(DECISION.propose, obs, propose) == PROPOSAL.propose  # one Gaze may be real
    obs[OBS.replaced:OBS.replaced + 3] = [3, 0, 0]
    assert play(DECISION.spell_scroll, obs, mask(*SCROLLS)) in PEEK_POSITIONS  # the claimant


def test_with_no_gaze_left_an_exile_looks_at_the_claimants_faction():
    obs = view(me=0, life=[card(5, 1), card(5, 2)], sac=card(5, 4))
    for p in GAZE_POSITIONS:
        obs[OBS.scroll_state + p] = SCROLL.removed
    propose = mask(PROPOSAL.decline, PROPOSAL.propose)
    assert play(DECISION.propose, obs, propose) == PROPOSAL.propose
    assert play(DECISION.spell_scroll, obs, mask(*PEEK_POSITIONS)) in PEEK_POSITIONS
    assert play(DECISION.peek_target, obs, mask(1, 2, 3, 4, 5, 6)) == 4
    # a claimant it knows to be an exile needs no look
    obs = view(me=0, life=[card(5, 1), card(5, 2)], sac=card(5, 4), factions={4: E})
    for p in GAZE_POSITIONS:
        obs[OBS.scroll_state + p] = SCROLL.removed
    assert play(DECISION.propose, obs, propose) == PROPOSAL.decline


def test_an_exile_reports_the_truth():
    obs = view(sac=card(5, 4, known=2))
    assert play(DECISION.report_rank, obs, mask(*range(6), SILENT)) == 2
    obs = view(factions={3: J})
    obs[OBS.peeked] = 3
    assert play(DECISION.report_faction, obs, mask(0, 1, FACTION_SILENT)) == J
    obs = view(sac=card(by=0, known=4))
    assert play(DECISION.announce, obs, mask(*range(6), SILENT)) == 4


def test_an_exile_remembers_who_voted_against_a_clear_placement():
    memory = np.zeros(MEMORY.size)
    obs = view(death=[card(3, 2)], sac=card(3, 4))
    assert play(DECISION.judgement, obs, mask(LIFE, DEATH), memory) == DEATH
    # the judgement is counted: seats 3 and 5 voted life
    after = view(death=[card(3, 2), card(3, 4)], judged=1, votes=[1, 1, 1, 0, 1, 0, 1])
    play(DECISION.ritual, after, mask(0, 1), memory)
    assert memory[M.dissent:M.dissent + 7].tolist() == [0, 0, 0, 1, 0, 1, 0]
    # and looks at the faction of the most suspect seat it does not know
    memory[M.dissent + 5] = 3.0
    obs = view(judged=1)
    assert play(DECISION.peek_target, obs, mask(1, 2, 3, 4, 5, 6), memory) == 5


def test_an_exile_swaps_two_altar_cards_into_a_pattern():
    obs = view(life=[card(5, 1), card(2, 2), card(5, 3), card(5, 4)])
    pairs = mask(*[LIFE * MAX_ALTAR + i for i in range(3)])
    assert play(DECISION.brink_swap, obs, pairs) == LIFE * MAX_ALTAR + 0  # 2 5 5 5


# --- the jester -----------------------------------------------------------------------------------
def test_a_jester_announces_a_rank_that_plants_a_false_pattern():
    life = [card(5, 1), card(5, 2)]
    obs = view(me=0, role=J, life=life, sac=card(by=0, known=2), factions=JESTERS)
    ranks = mask(*range(6), SILENT)
    assert play(DECISION.announce, obs, ranks, bluff=1.0) == 5
    assert play(DECISION.announce, obs, ranks, bluff=0.0) == 2
    # a card that would really complete the pattern is announced as something that fits nowhere
    obs = view(me=0, role=J, life=life, sac=card(by=0, known=5), factions=JESTERS)
    assert play(DECISION.announce, obs, ranks, bluff=1.0) != 5


def test_a_jester_backs_a_ritual_it_knows_is_doomed():
    vote = mask(RITUAL_VOTE.no, RITUAL_VOTE.yes)
    fake = [card(5, 1), card(5, 2), card(5, 0, known=2)]
    real = [card(5, 1), card(5, 2), card(5, 4)]
    assert play(DECISION.ritual, view(role=J, life=fake, factions=JESTERS), vote) == \
        RITUAL_VOTE.yes
    assert play(DECISION.ritual, view(role=J, life=fake[:2], factions=JESTERS), vote) == \
        RITUAL_VOTE.no
    # only one jester backs it, the first in turn order from the sacrificer: two jesters alone
    # would initiate it themselves, and lose
    later = view(role=J, life=fake, factions=JESTERS)
    later[OBS.sacrificer] = 1  # seat 3 comes first
    assert play(DECISION.ritual, later, vote) == RITUAL_VOTE.no
    later[OBS.sacrificer] = 4  # seats 4, 5, 6, then seat 0
    assert play(DECISION.ritual, later, vote) == RITUAL_VOTE.yes


def test_a_jester_votes_for_a_ritual_on_a_pattern_it_has_verified():
    """A pattern of ranks the jester knows or exiles announced (exiles never lie about their own
    cards) succeeds: voting yes wins at once if the jesters are most of the yes votes, and costs
    nothing otherwise. A pattern resting on a fellow jester's word is not verified."""
    vote = mask(RITUAL_VOTE.no, RITUAL_VOTE.yes)
    real = [card(5, 1), card(5, 2), card(5, 4)]  # seats 1, 2, 4 are exiles
    assert play(DECISION.ritual, view(role=J, life=real, factions=JESTERS), vote) == \
        RITUAL_VOTE.yes
    mine = [card(5, 1), card(5, 2), card(1, 0, known=5)]  # my own card, announced as a 1
    assert play(DECISION.ritual, view(role=J, life=mine, factions=JESTERS), vote) == \
        RITUAL_VOTE.yes
    fellow = [card(5, 1), card(5, 2), card(5, 3)]  # seat 3 is a jester: its word proves nothing
    assert play(DECISION.ritual, view(role=J, life=fellow, factions=JESTERS), vote) == \
        RITUAL_VOTE.no


def test_a_jester_sets_the_schemes_as_traps_under_deaths_gaze():
    obs = view(role=J, factions=JESTERS)
    obs[OBS.placing] = ITEM.veil
    picks = {play(DECISION.place_scheme, obs, mask(*SCROLLS), seed=s) for s in range(40)}
    assert picks == set(GAZE_POSITIONS)


@pytest.mark.parametrize("scheme", ["prolong", "requiem"])
def test_a_jester_may_leave_a_gaze_real_and_set_a_rule_scheme_under_secret_peek(scheme):
    # a rule-changing scheme goes under Secret Peek with chance OPEN_GAZE (a half), else under
    # Death's Gaze
    obs = view(role=J, factions=JESTERS)
    obs[OBS.placing] = getattr(ITEM, scheme)
    picks = [play(DECISION.place_scheme, obs, mask(*SCROLLS), seed=s) for s in range(400)]
    assert set(picks) == set(PEEK_POSITIONS) | set(GAZE_POSITIONS)
    assert 0.4 < sum(pick in PEEK_POSITIONS for pick in picks) / 400 < 0.6


def test_a_jester_springs_a_veil_on_a_card_that_would_complete_a_pattern():
    scrolls = {0: ITEM.gaze, 1: ITEM.veil, 2: ITEM.gaze, 3: ITEM.peek, 4: ITEM.swap, 5: ITEM.peek}
    danger = view(me=0, role=J, life=[card(5, 1), card(5, 2)], sac=card(5, 4), factions=JESTERS,
                  scrolls=scrolls)
    propose = mask(PROPOSAL.decline, PROPOSAL.propose)
    assert play(DECISION.propose, danger, propose, bluff=1.0) == PROPOSAL.propose
    assert play(DECISION.spell_scroll, danger, mask(*SCROLLS)) == 1
    assert play(DECISION.spell_caster, danger, mask(*range(7))) == 0
    assert play(DECISION.veil_altar, danger, mask(LIFE, DEATH)) == DEATH
    calm = view(me=0, role=J, life=[card(5, 1)], sac=card(5, 4), factions=JESTERS,
                scrolls=scrolls)
    assert play(DECISION.propose, calm, propose, bluff=1.0) == PROPOSAL.decline


def test_a_jester_covers_its_fellows_and_frames_exiles():
    # seat 3, a jester, announced a 5 for a card seat 0 saw is a 2: seat 0 confirms the 5
    obs = view(me=0, role=J, sac=card(5, 3, known=2), factions=JESTERS)
    assert play(DECISION.report_rank, obs, mask(*range(6), SILENT)) == 5
    faction = mask(0, 1, FACTION_SILENT)
    obs = view(me=0, role=J, factions=JESTERS)
    obs[OBS.peeked] = 3
    assert play(DECISION.report_faction, obs, faction, bluff=1.0) == E
    obs[OBS.peeked] = 4
    assert play(DECISION.report_faction, obs, faction, bluff=1.0) == J
    assert play(DECISION.report_faction, obs, faction, bluff=0.0) == E


def test_a_jester_always_offers_its_card():
    obs = view(me=0, role=J, hand=3, factions=JESTERS)
    assert play(DECISION.offer, obs, mask(OFFER.play, OFFER.remove), disguise=0.0) == OFFER.play


def test_a_jester_in_disguise_holds_back_as_an_exile_would():
    obs = view(me=0, role=J, hand=3, factions=JESTERS)
    assert play(DECISION.offer, obs, mask(OFFER.play, OFFER.remove), disguise=1.0) == \
        OFFER.remove
    assert play(DECISION.offer, obs, mask(OFFER.play), disguise=1.0) == OFFER.play  # forced


# --- the public tells -----------------------------------------------------------------------------
def told(obs, turn, first=0, sacrificer=None):
    """`obs` at `turn` of a game that `first` started (seats take turns from it, in order)."""
    obs = obs.copy()
    obs[OBS.first_player] = first
    obs[OBS.turn] = turn
    obs[OBS.sacrificer] = (first + turn - 1) % 7 if sacrificer is None else sacrificer
    return obs


def test_the_cards_each_seat_offered_and_the_scrolls_it_removed_are_read_from_the_table():
    # Turn 10 from seat 0 at 7 seats: seats 0, 1 and 2 had two turns each (1 and 8, 2 and 9,
    # 3 and 10), the others one. Seat 1 offered both altar cards it is named with; seat 0 offered
    # one (it removed a scroll on its other turn); seat 2's card of this turn is in the sacrifice
    # area; seat 4 removed a scroll on its one turn.
    obs = told(view(life=[card(2, 1), card(5, 0)], death=[card(4, 1)], sac=card(-1, 2)), 10)
    obs[OBS.kind] = DECISION.judgement
    assert tells(obs)[:5] == [(1, 1), (2, 0), (1, 1), (0, 1), (0, 1)]
    # while seat 2 decides its offer, its turn 10 is not counted yet
    obs = told(view(life=[card(2, 1), card(5, 0)], death=[card(4, 1)]), 10)
    obs[OBS.kind] = DECISION.offer
    assert tells(obs)[2] == (0, 1)
    assert tells(told(view(), 0)) == [(0, 0)] * 7  # the night: nothing yet


def tells(obs):
    """(cards offered, scrolls removed) of each of the 7 seats, as `sacrifices` reads them."""
    offered, removed = np.full(MAX_PLAYERS, -1.0), np.full(MAX_PLAYERS, -1.0)
    sacrifices(obs, offered, removed)
    return [(int(offered[s]), int(removed[s])) for s in range(7)]


def test_an_exile_trusts_a_seat_that_removed_scrolls_and_doubts_one_that_only_offers():
    # Turn 15 from seat 0: seats 0 to 6 had two turns each (seat 0 three). A Life Altar of three
    # 5s offered and claimed by seats 1, 2 and 3.
    vote = mask(RITUAL_VOTE.no, RITUAL_VOTE.yes)
    pattern = [card(5, 1), card(5, 2), card(5, 3)]
    # each of them removed a scroll on its other turn: trusted, the ritual starts without faith
    obs = told(view(life=pattern), 15)
    memory = np.zeros(MEMORY.size)
    assert play(DECISION.ritual, obs, vote, memory, faith=0.0) == RITUAL_VOTE.yes
    assert memory[M.suspicion + 1] == DEFAULTS["play_tell"] - DEFAULTS["remove_trust"]
    # seat 3 offered on both its turns (its other card lies on the Death Altar): suspicion 6,
    # still believed (below `doubt`) but past `ritual_doubt` 5, so without faith no ritual
    obs = told(view(life=pattern, death=[card(1, 3)]), 15)
    tells = dict(play_tell=3.0, ritual_doubt=5.0)
    assert play(DECISION.ritual, obs, vote, faith=0.0, **tells) == RITUAL_VOTE.no
    assert play(DECISION.ritual, obs, vote, faith=1.0, **tells) == RITUAL_VOTE.yes
    # and a seat that offered three times is not believed at all once it reaches `doubt`
    judge = view(life=[card(5, 1), card(5, 2)], sac=card(5, 3), death=[card(1, 3), card(2, 3)])
    obs = told(judge, 21)
    assert play(DECISION.judgement, obs, mask(0, 1), play_tell=2.0) == LIFE
    assert play(DECISION.judgement, obs, mask(0, 1), play_tell=4.0) == DEATH


def test_an_exile_looks_at_the_faction_of_a_seat_whose_word_would_not_count_for_a_ritual():
    # Turn 15 from seat 0: seat 3 offered on both its turns (suspicion 2 x 2 = 4), every other
    # seat removed a scroll on one of its turns; a Secret Peek scroll is on the board
    obs = told(view(death=[card(1, 3), card(2, 3)], sac=card(-1, 0)), 15)
    propose = mask(PROPOSAL.decline, PROPOSAL.propose)
    assert play(DECISION.propose, obs, propose, ritual_doubt=4.0) == PROPOSAL.propose
    assert play(DECISION.peek_target, obs, mask(1, 2, 3, 4, 5, 6), ritual_doubt=4.0) == 3
    assert play(DECISION.propose, obs, propose, ritual_doubt=9.5) == PROPOSAL.decline


def test_an_exile_remembers_who_backed_a_ritual_it_saw_no_pattern_in():
    obs = view()
    obs[OBS.rituals] = 1
    for s, ballot in enumerate((0, 1, 0, 0, 1, 0, 0)):  # seats 1 and 4 voted yes, I voted no
        obs[OBS.ritual_votes + s] = ballot
    memory = np.zeros(MEMORY.size)
    for _ in range(2):  # read once
        play(DECISION.judgement, obs, mask(0, 1), memory)
    assert memory[M.backed:M.backed + 7].tolist() == [0, 1, 0, 0, 1, 0, 0]
    assert memory[M.suspicion + 4] == DEFAULTS["backing_tell"]
    obs[OBS.ritual_votes + 0] = 1  # had I voted yes, their yes votes would say nothing
    obs[OBS.rituals] = 2
    play(DECISION.judgement, obs, mask(0, 1), memory)
    assert memory[M.backed + 4] == 1


def test_at_the_last_ritual_vote_an_exile_backs_any_pattern_it_believes():
    # nine cards on the altars: no ritual now and the jesters win, so even without faith an exile
    # votes for the pattern it believes
    vote = mask(RITUAL_VOTE.no, RITUAL_VOTE.yes)
    life = [card(5, 1), card(5, 2), card(5, 3)]
    death = [card(r, 4) for r in (1, 2, 3, 4, 6, 1)]
    doubtful = dict(faith=0.0, ritual_doubt=-1.0)  # no seat's word counts before the last vote
    assert play(DECISION.ritual, view(life=life, death=death), vote, **doubtful) == \
        RITUAL_VOTE.yes
    assert play(DECISION.ritual, view(life=life, death=death[:5]), vote, **doubtful) == \
        RITUAL_VOTE.no


@pytest.mark.parametrize("kind", [DECISION.judgement, DECISION.ritual, DECISION.propose,
                                  DECISION.offer])
def test_memory_is_read_once_per_judgement(kind):
    # The dissent of a judgement is counted once, however many decisions follow it.
    memory = np.zeros(MEMORY.size)
    play(DECISION.judgement, view(death=[card(3, 2)], sac=card(3, 4)), mask(0, 1), memory)
    after = view(death=[card(3, 2), card(3, 4)], judged=1, votes=[1, 1, 1, 0, 1, 1, 1], hand=2)
    legal = mask(0, 1)
    for _ in range(3):
        play(kind, after, legal, memory)
    assert memory[M.dissent + 3] == 1.0


# --- play from outside the family: parameters that are off by default -----------------------------
def test_a_scout_peeks_at_its_chief_suspect_with_no_claim_to_check():
    # Turn 15 from seat 0: seat 3 offered on both its turns (suspicion 4), every other seat
    # removed a scroll on one of its turns; no claim would complete a pattern, and nobody is
    # suspect enough to be worth a look: the default keeps its feather
    obs = told(view(death=[card(1, 3), card(2, 3)], sac=card(-1, 0)), 15)
    propose = mask(PROPOSAL.decline, PROPOSAL.propose)
    assert play(DECISION.propose, obs, propose) == PROPOSAL.decline
    # a scout casts a Secret Peek all the same, on seat 3
    memory = np.zeros(MEMORY.size)
    assert play(DECISION.propose, obs, propose, memory, scout=1.0) == PROPOSAL.propose
    assert play(DECISION.spell_scroll, obs, mask(*SCROLLS), memory, scout=1.0) in PEEK_POSITIONS
    assert play(DECISION.spell_caster, obs, mask(*range(7)), memory, scout=1.0) == 0
    assert play(DECISION.peek_target, obs, mask(1, 2, 3, 4, 5, 6), memory, scout=1.0) == 3
    assert memory[M.own_peek] == 0.0  # the proposal is spent
    # a seat someone has already reported on is left alone: the scout looks at another one
    reported = obs.copy()
    reported[OBS.faction_claim + 3] = J
    reported[OBS.faction_claimer + 3] = 1
    memory = np.zeros(MEMORY.size)
    assert play(DECISION.propose, reported, propose, memory, scout=1.0) == PROPOSAL.propose
    assert play(DECISION.peek_target, reported, mask(1, 2, 3, 4, 5, 6), memory, scout=1.0) != 3
    # nobody left that nobody has reported on: nothing to scout
    reported[OBS.faction_claim:OBS.faction_claim + 7] = E
    reported[OBS.faction_claimer:OBS.faction_claimer + 7] = 1
    assert play(DECISION.propose, reported, propose, scout=1.0) == PROPOSAL.decline
    # with no Secret Peek left on the board there is nothing to scout with
    for p in PEEK_POSITIONS:
        obs[OBS.scroll_state + p] = SCROLL.removed
    assert play(DECISION.propose, obs, propose, scout=1.0) == PROPOSAL.decline


def test_a_framer_looks_at_an_exile_through_a_real_secret_peek_and_calls_it_a_jester():
    scrolls = {0: ITEM.gaze, 1: ITEM.veil, 2: ITEM.gaze, 3: ITEM.peek, 4: ITEM.swap, 5: ITEM.peek}
    calm = view(me=0, role=J, life=[card(5, 1)], sac=card(5, 4), factions=JESTERS,
                scrolls=scrolls)
    propose = mask(PROPOSAL.decline, PROPOSAL.propose)
    assert play(DECISION.propose, calm, propose) == PROPOSAL.decline  # no trap to spring
    memory = np.zeros(MEMORY.size)
    assert play(DECISION.propose, calm, propose, memory, frame=1.0) == PROPOSAL.propose
    # the scroll: a Secret Peek it knows to be a real scythe, never its own Veil or Swap
    assert play(DECISION.spell_scroll, calm, mask(*SCROLLS), memory, frame=1.0) in (3, 5)
    assert play(DECISION.peek_target, calm, mask(*range(1, 7)), memory, frame=1.0) in \
        (1, 2, 4, 5, 6)  # an exile
    seen = calm.copy()
    seen[OBS.peeked] = 4
    assert play(DECISION.report_faction, seen, mask(0, 1, FACTION_SILENT), frame=1.0,
                bluff=1.0) == J
    # with no real Secret Peek left it keeps its feather
    no_peek = view(me=0, role=J, life=[card(5, 1)], sac=card(5, 4), factions=JESTERS,
                   scrolls={**scrolls, 3: ITEM.veil, 5: ITEM.swap})
    assert play(DECISION.propose, no_peek, propose, frame=1.0) == PROPOSAL.decline


def vitamors_tallies(*overrides, games=300):
    cfg = config.load("vitamors", list(overrides))
    return runner.run(cfg, games, seed=3, workers=1).tallies


@pytest.mark.parametrize("name, team", [("scout", "exile"), ("frame", "jester")])
def test_off_by_default_and_the_same_game_given_or_not(name, team):
    # The parameter given at its default (0) plays the very same games as not given: no extra
    # random draw, no other decision.
    plain = vitamors_tallies()
    given = vitamors_tallies(f'strategies.{team}={{name = "conspirator", {name} = 0.0}}')
    assert plain.keys() == given.keys()
    for key in plain:
        assert np.array_equal(plain[key], given[key]), key
    # on, Secret Peek is cast in almost every game (it hardly ever is by default)
    on = vitamors_tallies(f'strategies.{team}={{name = "conspirator", {name} = 1.0}}')
    assert plain["events"][EV.spell_peek] < 0.05 * 300 < 300 <= on["events"][EV.spell_peek]
    # the scouts find jesters; the framers look only at exiles
    found = on["events"][EV.peek_found_jester]
    assert found > 100 if name == "scout" else found <= plain["events"][EV.peek_found_jester]


# --- people-like play beats random play -----------------------------------------------------------
def team_rate(team, overrides, games=4000, seed=11):
    """The team's win rate over `games` games of the default 7-player table."""
    cfg = config.load("vitamors", list(overrides))
    tallies, _ = driver.play(GAME, cfg.params, cfg.lineup, games, np.random.default_rng(seed))
    return tallies["team_wins"][team] / games


def clearly_above(high, low, games=4000):
    """high - low exceeds 4.5 standard errors of the difference of two independent rates (a
    one-sided 99.9997% bound; the seeds are fixed, so the test cannot flake)."""
    se = np.sqrt((high * (1 - high) + low * (1 - low)) / games)
    return high - low > 4.5 * se


def test_conspirator_exiles_and_jesters_beat_random_ones():
    # exiles: conspirator (about 74%) against random (about 7%), jesters random in both runs
    smart = team_rate(0, ['strategies.exile="conspirator"', 'strategies.jester="random"'])
    naive = team_rate(0, ['strategies.all="random"'])
    assert clearly_above(smart, naive)
    # jesters: conspirator (about 98%) against random (about 93%), exiles random in both runs
    smart = team_rate(1, ['strategies.exile="random"', 'strategies.jester="conspirator"'])
    naive = team_rate(1, ['strategies.all="random"'])
    assert clearly_above(smart, naive)
