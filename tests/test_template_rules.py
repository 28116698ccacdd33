"""The template game's rules on hand-built positions: the pattern every game's rule tests follow.

A position is built on `driver.blank_state(GAME, players)`, the kernel's own state record, by
setting fields by name; the rule is called as the kernel calls it.
"""

import numpy as np
import pytest

from simulator.setup import config
from simulator.games import driver
from simulator.games._template import GAME
from simulator.games._template.declaration import END, OBS, ROLE, UNKNOWN
from simulator.games._template.rules import (
    count_votes, deal, eliminate, most_voted, publish_ballots, victory,
)

C, S = ROLE.citizen, ROLE.spy


def alive(st):
    """The public `alive` piece of the observation (state.alive, from Python)."""
    return st.obs[OBS.alive:OBS.alive + len(st.won)]


def position(roles, living=None, reveal_votes=True):
    st = driver.blank_state(GAME, len(roles))
    st.role[:len(roles)] = roles
    st.reveal_votes = 1 if reveal_votes else 0
    for seat in range(len(roles)):
        alive(st)[seat] = 1 if living is None or seat in living else 0
    return st


def test_deal_shuffles_the_deck_and_resets_the_table():
    st = driver.new_state(GAME, config.load("template", players=6).params,
                          driver.Lineup.uniform(GAME, 6))
    counts = np.zeros(2, dtype=int)
    for seed in range(200):
        deal(st, np.random.default_rng(seed))
        assert sorted(st.role[:6].tolist()) == [C] * 5 + [S]
        counts[0] += st.role[0] == S
        assert alive(st)[:6].tolist() == [1] * 6
        assert (st.obs[OBS.shown:OBS.shown + 6] == UNKNOWN).all()
    assert 15 <= counts[0] <= 55  # seat 0 is the spy about 1/6 of the time (200 deals)


def test_count_votes_counts_living_ballots_only():
    st = position([C, C, S, C], living={0, 1, 2})
    st.ballots[:4] = [2, 2, 0, 1]  # seat 3 is dead: its ballot is not counted
    count_votes(st)
    assert st.votes[:4].tolist() == [1, 0, 2, 0]
    assert st.received[:4].tolist() == [1, 0, 2, 0]


def test_most_voted_breaks_a_tie_at_random():
    st = position([C, C, S, C, C])
    st.votes[:5] = [2, 0, 2, 1, 0]
    picks = [most_voted(st, np.random.default_rng(seed)) for seed in range(100)]
    assert {seat for seat, _ in picks} == {0, 2}
    assert all(tied == 2 for _, tied in picks)
    st.votes[:5] = [1, 0, 3, 1, 0]
    assert most_voted(st, np.random.default_rng(0)) == (2, 1)


def test_eliminate_shows_the_role():
    st = position([C, S, C])
    eliminate(st, 1)
    assert alive(st)[1] == 0 and st.obs[OBS.shown + 1] == S


@pytest.mark.parametrize("reveal", [True, False])
def test_publish_ballots_only_when_ballots_are_public(reveal):
    st = position([C, S, C], reveal_votes=reveal)
    st.ballots[:3] = [1, 0, 1]
    publish_ballots(st)
    shown = st.obs[OBS.ballot:OBS.ballot + 3].tolist()
    assert shown == ([1, 0, 1] if reveal else [UNKNOWN] * 3)


@pytest.mark.parametrize("roles, living, end", [
    ([C, C, S, C], {0, 1, 3}, END.spies_out),       # the spy is out
    ([C, C, S, C], {0, 2}, END.spies_even),         # one spy, one citizen
    ([C, C, S, C], {0, 1, 2}, -1),                  # two citizens still outnumber the spy
    ([C, S, S, C, C, C], {1, 2, 3, 4}, END.spies_even),
])
def test_victory(roles, living, end):
    assert victory(position(roles, living)) == end
