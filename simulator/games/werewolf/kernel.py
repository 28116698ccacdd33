"""The werewolf kernel: plays n games, reading top to bottom like the rulebook's round.

    deal -> (night: seer, wolves) -> (day: discussion, suspect vote, sentence vote) -> ... -> tally

Every rule lives in rules.py; every decision goes through `decide`, which hands the seat's
strategy its observation and legal mask only.
"""

from collections import namedtuple

import numpy as np
from numba import njit

from simulator.games.base import FLAG_TALKS
from simulator.games.kernel_support import (
    borrowed, borrowed_rng, checked_action, keep_alive, record,
)

from .declaration import (
    CLAIM, EV_CLAIM, EV_HANGED_HUMAN, EV_HANGED_SEER, EV_HANGED_WOLF, EV_NIGHT_KILL,
    EV_SEER_CHECK, EV_SEER_FOUND, EV_SEER_KILLED, EV_SENTENCE_TIE, EV_SUSPECT_TIE,
    EV_TRUE_CLAIM, MAX_LENGTH, ROLE_TEAM, SEER, SEER_CHECK, SENTENCE_VOTE, SUSPECT_VOTE,
    TR_CLAIM, TR_DAY, TR_DEAL, TR_DEATH, TR_HANGED, TR_NIGHT, TR_SEER_CHECK, TR_SENTENCE_VOTE,
    TR_SUSPECT_VOTE, TR_SUSPECTS, TR_WINNER, TR_WOLF_KILL, WOLF, WOLF_KILL, CAUSE_HANGED,
    CAUSE_WOLVES,
)
from .observation import fill_observation, legal_claim, legal_living, legal_pair
from .rules import (
    choose_suspects, kill, pack_leader, publish_claim, reset_for_deal, seer_learns,
    sentence_result, shuffle_into, suspect_vote_order, victory, winner_of,
)
from .metrics import borrow_tallies
from .state import new_state

# The setup a config resolves to: the multiset of roles dealt each game.
# Named like the variable, so that pickle (and hence Numba's cache index) finds it by reference.
Setup = namedtuple("Setup", ["deck", "wolves"])


@njit(cache=True, inline="always")
def decide(strategies, slot_table, slot_params, st, seat, kind, rng):
    """Ask the seat's strategy (by its seat and current role) for an action."""
    slot = slot_table[seat, st.role[seat]]
    # The strategy receives the kernel's own buffers: they are read-only in its signature.
    action = strategies[slot](kind, st.obs, st.legal, slot_params[slot], rng)
    return checked_action(action, st.legal)


@njit(cache=True, inline="always")
def night(setup, strategies, slot_table, slot_params, st, n, day, rng, tallies, trace, k):
    """Night `day`: the seer checks, then the pack kills. Returns (victim, end code, trace rows)."""
    k = record(trace, k, day, TR_NIGHT, -1, -1, day, 0)
    for seat in range(n):  # the open vote's counts are "today's": none yet
        st.votes[seat] = 0
    for seer in range(n):
        if st.alive[seer] and st.role[seer] == SEER:
            fill_observation(st, n, seer, SEER_CHECK, day, -1, -1, -1, setup.wolves)
            legal_living(st, n, seer)
            target = decide(strategies, slot_table, slot_params, st, seer, SEER_CHECK, rng)
            team = seer_learns(st, seer, target)
            tallies.events[EV_SEER_CHECK] += 1
            if team == WOLF:
                tallies.events[EV_SEER_FOUND] += 1
            k = record(trace, k, day, TR_SEER_CHECK, seer, target, team, 0)

    leader = pack_leader(st, n)
    fill_observation(st, n, leader, WOLF_KILL, day, -1, -1, -1, setup.wolves)
    legal_living(st, n, -1)  # the pack may even pick a wolf
    victim = decide(strategies, slot_table, slot_params, st, leader, WOLF_KILL, rng)
    k = record(trace, k, day, TR_WOLF_KILL, leader, victim, 0, 0)
    kill(st, victim)
    tallies.events[EV_NIGHT_KILL] += 1
    if st.role[victim] == SEER:
        tallies.events[EV_SEER_KILLED] += 1
    k = record(trace, k, day, TR_DEATH, victim, -1, st.role[victim], CAUSE_WOLVES)
    return victim, victory(st, n), k


@njit(cache=True, inline="always")
def daytime(setup, strategies, slot_table, slot_params, slot_flags, st, n, day, victim, order,
            rng, tallies, trace, k):
    """Day `day`: discussion, the open suspect vote, the secret sentence vote, the hanging.

    Returns (end code, trace rows)."""
    k = record(trace, k, day, TR_DAY, -1, -1, day, 0)
    voters = suspect_vote_order(st, n, victim, order)

    # Discussion: only strategies that talk are asked; a claim is a public event.
    for i in range(voters):
        seat = order[i]
        if slot_flags[slot_table[seat, st.role[seat]]] & FLAG_TALKS:
            fill_observation(st, n, seat, CLAIM, day, victim, -1, -1, setup.wolves)
            legal_claim(st, n, seat)
            target = decide(strategies, slot_table, slot_params, st, seat, CLAIM, rng)
            if target != n:  # n = pass
                publish_claim(st, seat, target)
                tallies.events[EV_CLAIM] += 1
                if ROLE_TEAM[st.role[target]] == WOLF:
                    tallies.events[EV_TRUE_CLAIM] += 1
                k = record(trace, k, day, TR_CLAIM, seat, target, 0, 0)

    # Suspect vote: open, one after another, clockwise from the victim's right. Legal: every
    # living seat but the voter's own (the mask is built once and the voter's seat masked out).
    legal_living(st, n, -1)
    for i in range(voters):
        seat = order[i]
        fill_observation(st, n, seat, SUSPECT_VOTE, day, victim, -1, -1, setup.wolves)
        st.legal[seat] = False
        target = decide(strategies, slot_table, slot_params, st, seat, SUSPECT_VOTE, rng)
        st.legal[seat] = True
        st.votes[target] += 1
        k = record(trace, k, day, TR_SUSPECT_VOTE, seat, target, 0, 0)
    footprint, fur, tied = choose_suspects(st, n, victim)
    if tied:
        tallies.events[EV_SUSPECT_TIE] += 1
    k = record(trace, k, day, TR_SUSPECTS, footprint, fur, st.votes[footprint], st.votes[fur])

    # Sentence vote: secret and simultaneous, so nobody's observation shows another's ballot.
    st.sentence[footprint] = 0
    st.sentence[fur] = 0
    legal_pair(st, footprint, fur)
    for i in range(voters):
        seat = order[i]
        fill_observation(st, n, seat, SENTENCE_VOTE, day, victim, footprint, fur, setup.wolves)
        target = decide(strategies, slot_table, slot_params, st, seat, SENTENCE_VOTE, rng)
        st.sentence[target] += 1
        k = record(trace, k, day, TR_SENTENCE_VOTE, seat, target, 0, 0)
    hanged, tied = sentence_result(st, footprint, fur, victim, n)
    if tied:
        tallies.events[EV_SENTENCE_TIE] += 1
    k = record(trace, k, day, TR_HANGED, hanged, -1, st.sentence[hanged],
               st.sentence[footprint] + st.sentence[fur] - st.sentence[hanged])
    kill(st, hanged)
    role = st.role[hanged]
    if ROLE_TEAM[role] == WOLF:
        tallies.events[EV_HANGED_WOLF] += 1
    else:
        tallies.events[EV_HANGED_HUMAN] += 1
        if role == SEER:
            tallies.events[EV_HANGED_SEER] += 1
    k = record(trace, k, day, TR_DEATH, hanged, -1, role, CAUSE_HANGED)
    return victory(st, n), k


@njit(cache=True, inline="always")
def tally_game(st, n, end, day, slot_table, tallies):
    winner = winner_of(end)
    tallies.games[0] += 1
    tallies.team_wins[winner] += 1
    tallies.end_counts[end] += 1
    tallies.length_hist[min(day, MAX_LENGTH)] += 1
    for seat in range(n):
        role = st.role[seat]
        won = 1 if ROLE_TEAM[role] == winner else 0
        slot = slot_table[seat, role]
        tallies.seat_wins[seat] += won
        tallies.role_games[role] += 1
        tallies.role_wins[role] += won
        tallies.slot_games[slot] += 1
        tallies.slot_wins[slot] += won
    return winner


@njit(cache=True, _nrt=False)
def play_games(setup, deck, strategies, slot_table, slot_params, slot_flags, n_games, rng,
               tallies, trace, st, order):
    """The game loop; every array it touches is a borrowed view, so it needs no reference
    counting and is compiled without it."""
    n = deck.size
    k = 0
    for _ in range(n_games):
        shuffle_into(st.role, deck, rng)
        reset_for_deal(st, n)
        for seat in range(n):
            k = record(trace, k, 0, TR_DEAL, seat, -1, st.role[seat], 0)
        day = 0
        end = -1
        while end < 0:
            day += 1
            victim, end, k = night(setup, strategies, slot_table, slot_params, st, n, day, rng,
                                   tallies, trace, k)
            if end >= 0:
                break
            end, k = daytime(setup, strategies, slot_table, slot_params, slot_flags, st, n, day,
                             victim, order, rng, tallies, trace, k)
        winner = tally_game(st, n, end, day, slot_table, tallies)
        k = record(trace, k, day, TR_WINNER, -1, -1, winner, end)
    return k


@njit(cache=True)
def play(setup, strategies, slot_table, slot_params, slot_flags, n_games, rng, tallies, trace):
    """Play `n_games` complete games and add their outcomes into `tallies`."""
    # Everything the hot loop touches is a reference-free view (see kernel_support).
    deck = borrowed(setup.deck)
    n = deck.size
    st, owners = new_state(n)
    order_owner = np.empty(n, np.int64)
    k = play_games(setup, deck, strategies, borrowed(slot_table), borrowed(slot_params),
                   borrowed(slot_flags), n_games, borrowed_rng(rng), borrow_tallies(tallies),
                   borrowed(trace), st, borrowed(order_owner))
    keep_alive((owners, order_owner))
    return k
