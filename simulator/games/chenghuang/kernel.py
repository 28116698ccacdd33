"""The Chenghuang kernel: plays n games, reading top to bottom like the rulebook's round.

    captain -> roles -> draft -> discard and layout -> abilities 1..4 -> vote -> admit / deny
    (showdown) -> theft -> scoring -> ... (4 rounds) -> the highest total wins

Every rule lives in rules.py; every decision goes through `ask`, which hands the seat's strategy
its observation and legal mask only (the strategy is called by the address of its compiled code,
kept in the state: see `bind_strategies`). A decision with a single legal action is taken without
asking.
"""

from collections import namedtuple

import numpy as np
from numba import njit

from simulator.games.base import FLAG_BLIND
from simulator.games.kernel_support import (
    borrowed, borrowed_rng, call_strategy, keep_alive, record, strategy_address, uniform_index,
)

from .declaration import (
    ABILITY_ORDER, ADMIT, ADMIT_DISCARD, CIVIL, COMPENSATION, CONFESS, DISCARD, DRAFT,
    END_CAPTAIN_TIE, END_HIGHEST, EV_ACCUSATIONS, EV_ACCUSED_HIGHEST, EV_ADMITS,
    EV_ADMITS_HIGHEST, EV_CAPTAIN_TIES, EV_CAPTAIN_TOP, EV_COMPENSATION_EMPTY, EV_DENIES,
    EV_DENY_CORRECT, EV_DENY_WRONG, EV_FAN, EV_FINAL_CAPTAIN_WINS, EV_FINAL_TIES,
    EV_HORSE_FACE_TAKES, EV_NO_THEFT, EV_ROUNDS, EV_THEFT_TIES, EV_THEFTS, EV_VOTE_TIES, FAN,
    FAN_TARGET, GAN, GAN_KEEP, HAND, HIDE, HORSE_FACE, IMPLEMENTS, JUDGE, MARTIAL, MAX_LENGTH,
    N_KINDS, OBS, PEEK, SCORE_CLIP, SCRIBE_SOURCE, SCRIBE_TARGET, THEFT_GIVE, THEFT_TARGET,
    TIE_BREAK, TIE_CAPTAIN, TIE_THEFT, TIE_VOTE, TIE_WINNER, TR_ACCUSED, TR_ADMIT,
    TR_ADMIT_DISCARD, TR_CAPTAIN, TR_COMPENSATION, TR_DEAL, TR_DISCARD, TR_FAN, TR_GAN,
    TR_HORSE_FACE, TR_JUDGE, TR_LAYOUT, TR_NO_THEFT, TR_PEEK, TR_PICK, TR_REVEAL, TR_ROLE,
    TR_ROUND, TR_ROUND_SCORE, TR_SCRIBE, TR_SHOWDOWN_LOSS, TR_THEFT, TR_TIE_BREAK, TR_VOTE,
    TR_WINNER, UNKNOWN, VOTE,
)
from .metrics import borrow_tallies
from .observation import (
    clear_drawn, clear_private, clear_tie, count_legal, fill_draft, fill_layout, fill_table,
    init_blank, init_observation, legal_admit, legal_any_kind, legal_kinds, legal_marked,
    legal_peek, legal_seats, legal_source, legal_target, legal_theft, publish_seats, show_drawn,
    show_pile, show_tie,
)
from .rules import (
    admit_discard, deal_packs, deal_roles, discard, draft_pick, extremes, face_down_count,
    first_marked, gan_draw, gan_keep, horse_face_takes, is_highest, judge_names, lay_out,
    lose_most_valuable, next_captain_candidates, pack_in_hand, peek, round_scores, scribe,
    seat_with_role, showdown_scores, steal, take_from_pile, thief_candidates,
)
from .state import (
    borrowing, inlined, legal_view, M_ACCUSED, M_ADMITTED, M_CAPTAIN, M_HIGHEST, M_REVEALED,
    M_ROUND, M_THIEF, M_VOTED, STATE_DTYPE,
)

# The setup a config resolves to (built by GameSpec.build_setup).
# (The class's name must be its module attribute: Numba's cache pickles the type by reference.)
ChenghuangSetup = namedtuple("ChenghuangSetup", ["deck", "pool", "table", "deck_counts", "rounds"])
Setup = ChenghuangSetup

# How a captain was chosen (trace).
CAPTAIN_RANDOM, CAPTAIN_LOWEST = range(2)


@inlined
def forced(legal):
    """The only legal action, or -1 when the seat has a real choice."""
    count, last = count_legal(legal)
    if count == 1:
        return last
    if count == 0:
        raise ValueError("a decision without a legal action")
    return -1


@inlined
def ask(st, seat, kind, rng):
    """Ask the seat's strategy (by its seat and current role) for a decision of this kind; the
    rest of the observation is filled (unless the strategy is blind: it is handed `st.blank`)."""
    obs = st.blank if st.blind[seat] == 1 else st.obs
    obs[OBS.kind] = kind
    slot = st.slot_table[seat, st.role[seat]]
    action = call_strategy(st.slot_address[slot], kind, obs, legal_view(st.legal),
                           st.slot_params[slot], rng)
    if action < 0 or action >= st.legal.size or not st.legal[action]:
        raise ValueError("a strategy returned an illegal action")  # a bug in the strategy
    return action


@borrowing
def tie_break(st, n, what, rng, trace, k):
    """The captain picks one of the seats marked in st.tied. Returns (seat, trace rows)."""
    captain = st.meta[M_CAPTAIN]
    legal_marked(st.legal, st.tied, n)
    choice = forced(st.legal)
    if choice < 0:
        fill_table(st, n, captain)
        show_tie(st.obs, what, st.tied, n)
        choice = ask(st, captain, TIE_BREAK, rng)
        clear_tie(st.obs)
    k = record(trace, k, st.meta[M_ROUND], TR_TIE_BREAK, captain, choice, what, 0)
    return choice, k


# --- 0-1. captain and roles -----------------------------------------------------------------------
@borrowing
def start_round(st, pool, n, r, captain, rng, trace, k):
    for i in range(st.meta.size):
        st.meta[i] = UNKNOWN
    st.meta[M_ROUND] = r
    st.meta[M_CAPTAIN] = captain
    st.meta[M_VOTED] = 0
    st.meta[M_REVEALED] = 0
    for kind in range(N_KINDS):
        st.pile[kind] = 0
    for s in range(n):
        st.votes[s] = 0
        st.n_slots[s] = 0
        if st.peeked[s] != 0:  # otherwise nobody has looked at its cards: its counts are 0
            for v in range(n):
                for kind in range(N_KINDS):
                    st.peek_count[v, s, kind] = 0
        st.peeked[s] = 0
        for kind in range(N_KINDS):
            st.pile_known[s, kind] = 0
            st.pub_count[s, kind] = 0
            st.up_count[s, kind] = 0
            st.down_count[s, kind] = 0
    clear_private(st.obs)
    deal_roles(st, pool, n, rng)
    for s in range(n):
        st.blind[s] = st.slot_blind[st.slot_table[s, st.role[s]]]
    publish_seats(st, n)
    k = record(trace, k, r, TR_ROUND, -1, -1, r, 0)
    for s in range(n):
        k = record(trace, k, r, TR_ROLE, s, -1, st.role[s], 0)
    return k


# --- 2. draft, discard, layout --------------------------------------------------------------------
@borrowing
def draft(st, n, deck, rng, trace, k):
    r = st.meta[M_ROUND]
    deal_packs(st, deck, n, rng)
    if k < trace.shape[0]:  # tracing (the test saves a data-dependent branch per kind otherwise)
        for s in range(n):
            for kind in range(N_KINDS):
                if st.packs[s, kind] > 0:
                    k = record(trace, k, r, TR_DEAL, s, -1, kind, st.packs[s, kind])
    for pick in range(HAND):
        for s in range(n):
            pack = pack_in_hand(s, pick, n)
            legal_kinds(st.legal, st.packs[pack])
            kind = forced(st.legal)
            if kind < 0:
                fill_draft(st, n, s, pack, pick)
                kind = ask(st, s, DRAFT, rng)
            draft_pick(st, s, pack, kind)
            k = record(trace, k, r, TR_PICK, s, pack, kind, pick + 1)
    st.obs[OBS.pick] = 0
    for kind in range(N_KINDS):
        st.obs[OBS.pack + kind] = 0
    return k


@borrowing
def layout(st, n, rng, trace, k):
    """Each player discards 1 card face down, then lays out 5: 3 up and 2 down (柳將軍 2 and 3)."""
    r = st.meta[M_ROUND]
    up = st.up
    down = st.down
    for s in range(n):
        for kind in range(N_KINDS):
            up[kind] = 0
            down[kind] = 0
        legal_kinds(st.legal, st.held[s])
        kind = forced(st.legal)
        if kind < 0:
            fill_layout(st, n, s, up, down, 0)
            kind = ask(st, s, DISCARD, rng)
        discard(st, s, kind)
        k = record(trace, k, r, TR_DISCARD, s, -1, kind, 0)
        for kind in range(N_KINDS):
            up[kind] = st.held[s, kind]
        hide = face_down_count(st.role[s])
        for i in range(hide):
            legal_kinds(st.legal, up)
            kind = forced(st.legal)
            if kind < 0:
                fill_layout(st, n, s, up, down, hide - i)
                kind = ask(st, s, HIDE, rng)
            up[kind] -= 1
            down[kind] += 1
        lay_out(st, n, s, down)
        if k < trace.shape[0]:
            for kind in range(N_KINDS):
                if st.held[s, kind] > 0:
                    k = record(trace, k, r, TR_LAYOUT, s, -1, kind, up[kind] * 16 + down[kind])
    st.obs[OBS.to_hide] = 0
    return k


# --- 3. abilities in order 1..4 -------------------------------------------------------------------
@borrowing
def abilities(st, n, rng, trace, k):
    r = st.meta[M_ROUND]
    for order in range(ABILITY_ORDER.size):
        role = ABILITY_ORDER[order]
        s = seat_with_role(st, n, role)
        if s < 0:
            continue
        if role == MARTIAL:
            legal_any_kind(st.legal)
            fill_table(st, n, s)
            kind = ask(st, s, JUDGE, rng)
            judge_names(st, n, s, kind)
            k = record(trace, k, r, TR_JUDGE, s, -1, kind, st.held[s, kind])
        elif role == GAN:
            if gan_draw(st, st.drawn, rng) == 0:
                continue
            legal_kinds(st.legal, st.drawn)
            kind = forced(st.legal)
            if kind < 0:
                fill_table(st, n, s)
                show_drawn(st.obs, st.drawn)
                kind = ask(st, s, GAN_KEEP, rng)
                clear_drawn(st.obs)
            back = gan_keep(st, n, s, st.drawn, kind)
            k = record(trace, k, r, TR_GAN, s, -1, kind, back)
        elif role == IMPLEMENTS:
            for _ in range(2):
                legal_peek(st, n, s)
                count, last = count_legal(st.legal)
                if count == 0:
                    break
                target = last
                if count > 1:
                    fill_table(st, n, s)
                    target = ask(st, s, PEEK, rng)
                kind = peek(st, n, s, target, rng)
                k = record(trace, k, r, TR_PEEK, s, target, kind, 0)
        elif role == CIVIL:
            legal_source(st, s)
            source = forced(st.legal)
            if source < 0:
                fill_table(st, n, s)
                source = ask(st, s, SCRIBE_SOURCE, rng)
            legal_target(st, n, s, source)
            target = forced(st.legal)
            if target < 0:
                fill_table(st, n, s)
                st.obs[OBS.source] = source
                target = ask(st, s, SCRIBE_TARGET, rng)
                st.obs[OBS.source] = UNKNOWN
            kind = scribe(st, n, s, source, target)
            k = record(trace, k, r, TR_SCRIBE, s, source, target, kind)
    return k


# --- 5-6. vote, admit or deny, showdown -----------------------------------------------------------
@borrowing
def vote(st, n, rng, trace, k):
    """Secret simultaneous vote (no self-votes); the captain breaks a tie. Returns (accused, k)."""
    r = st.meta[M_ROUND]
    for s in range(n):
        legal_seats(st.legal, n, s)
        target = forced(st.legal)
        if target < 0:
            fill_table(st, n, s)
            target = ask(st, s, VOTE, rng)
        st.votes[target] += 1
        k = record(trace, k, r, TR_VOTE, s, target, 0, 0)
    st.meta[M_VOTED] = 1
    publish_seats(st, n)
    st.events[EV_ACCUSATIONS] += 1
    count, top = extremes(st.votes, n, st.tied, True)
    if count > 1:
        st.events[EV_VOTE_TIES] += 1
        accused, k = tie_break(st, n, TIE_VOTE, rng, trace, k)
    else:
        accused = first_marked(st.tied, n)
    st.meta[M_ACCUSED] = accused
    k = record(trace, k, r, TR_ACCUSED, accused, -1, top, count)
    return accused, k


@borrowing
def judgement(st, n, accused, rng, trace, k):
    """The accused admits (discards 2 of its choice) or denies (showdown: the highest loses its 2
    most valuable cards, anyone else takes 1 card from the pile)."""
    r = st.meta[M_ROUND]
    table = st.table
    showdown_scores(st, table, n)
    highest = is_highest(st.showdown, n, accused)
    if highest:
        st.events[EV_ACCUSED_HIGHEST] += 1
    legal_admit(st.legal)
    fill_table(st, n, accused)
    choice = ask(st, accused, ADMIT, rng)
    st.meta[M_ADMITTED] = choice
    k = record(trace, k, r, TR_ADMIT, accused, -1, choice, 1 if highest else 0)
    if choice == CONFESS:
        st.events[EV_ADMITS] += 1
        if highest:
            st.events[EV_ADMITS_HIGHEST] += 1
        for _ in range(2):
            legal_kinds(st.legal, st.held[accused])
            count, last = count_legal(st.legal)
            if count == 0:
                break
            kind = last
            if count > 1:
                fill_table(st, n, accused)
                kind = ask(st, accused, ADMIT_DISCARD, rng)
            admit_discard(st, n, accused, kind)
            k = record(trace, k, r, TR_ADMIT_DISCARD, accused, -1, kind, 0)
        st.meta[M_REVEALED] = 1
        k = record(trace, k, r, TR_REVEAL, -1, -1, 0, 0)
        return k
    st.events[EV_DENIES] += 1
    st.meta[M_REVEALED] = 1
    st.meta[M_HIGHEST] = 1 if highest else 0
    k = record(trace, k, r, TR_REVEAL, -1, -1, 1, 0)
    if highest:
        st.events[EV_DENY_WRONG] += 1
        a, b = lose_most_valuable(st, table, n, accused)
        k = record(trace, k, r, TR_SHOWDOWN_LOSS, accused, -1, a, b)
        return k
    st.events[EV_DENY_CORRECT] += 1
    legal_kinds(st.legal, st.pile)
    count, last = count_legal(st.legal)
    if count == 0:
        st.events[EV_COMPENSATION_EMPTY] += 1
        return k
    kind = last
    if count > 1:
        fill_table(st, n, accused)
        show_pile(st.obs, st.pile)
        kind = ask(st, accused, COMPENSATION, rng)
    take_from_pile(st, n, accused, kind)
    k = record(trace, k, r, TR_COMPENSATION, accused, -1, kind, 0)
    return k


# --- 7. theft -------------------------------------------------------------------------------------
@borrowing
def theft(st, n, rng, trace, k):
    r = st.meta[M_ROUND]
    horse = seat_with_role(st, n, HORSE_FACE)
    if horse >= 0:
        got = horse_face_takes(st, n, horse)
        st.events[EV_HORSE_FACE_TAKES] += got
        k = record(trace, k, r, TR_HORSE_FACE, horse, -1, got, 0)
    count, most = thief_candidates(st, n, st.tied)
    if count == 0:
        st.events[EV_NO_THEFT] += 1
        k = record(trace, k, r, TR_NO_THEFT, -1, -1, 0, 0)
        return k
    if count > 1:
        st.events[EV_THEFT_TIES] += 1
        thief, k = tie_break(st, n, TIE_THEFT, rng, trace, k)
    else:
        thief = first_marked(st.tied, n)
    st.meta[M_THIEF] = thief
    legal_theft(st, n, thief)
    count, last = count_legal(st.legal)
    if count == 0:
        k = record(trace, k, r, TR_THEFT, thief, -1, -1, most)
        return k
    victim = last
    if count > 1:
        fill_table(st, n, thief)
        victim = ask(st, thief, THEFT_TARGET, rng)
    legal_kinds(st.legal, st.held[victim])
    kind = forced(st.legal)
    if kind < 0:
        fill_table(st, n, victim)
        kind = ask(st, victim, THEFT_GIVE, rng)
    steal(st, thief, victim, kind)
    st.events[EV_THEFTS] += 1
    k = record(trace, k, r, TR_THEFT, thief, victim, kind, most)
    return k


# --- 8. scoring -----------------------------------------------------------------------------------
@borrowing
def scoring(st, n, last_round, rng, trace, k):
    """范將軍 first, then every seat scores its cards. Returns (next captain, k)."""
    r = st.meta[M_ROUND]
    fan = seat_with_role(st, n, FAN)
    target = -1
    if fan >= 0:
        legal_seats(st.legal, n, fan)
        target = forced(st.legal)
        if target < 0:
            fill_table(st, n, fan)
            target = ask(st, fan, FAN_TARGET, rng)
    moved = round_scores(st, st.table, n, fan, target)
    publish_seats(st, n)
    if fan >= 0:
        st.events[EV_FAN] += 1
        k = record(trace, k, r, TR_FAN, fan, target, moved, 0)
    top = st.round_score[0]
    for s in range(1, n):
        top = max(top, st.round_score[s])
    for s in range(n):
        role = st.role[s]
        score = st.round_score[s]
        st.role_rounds[role] += 1
        st.role_round_sum[role] += score
        st.role_round_sq[role] += score * score
        if score == top:
            st.role_round_wins[role] += 1
        k = record(trace, k, r, TR_ROUND_SCORE, s, -1, score, st.totals[s])
    captain = st.meta[M_CAPTAIN]
    st.events[EV_ROUNDS] += 1
    if st.round_score[captain] == top:
        st.events[EV_CAPTAIN_TOP] += 1
    if last_round:
        return captain, k
    count, low = next_captain_candidates(st.round_score, n, st.tied)
    if count > 1:
        st.events[EV_CAPTAIN_TIES] += 1
        nxt, k = tie_break(st, n, TIE_CAPTAIN, rng, trace, k)
    else:
        nxt = first_marked(st.tied, n)
    return nxt, k


# --- the game -------------------------------------------------------------------------------------
@borrowing
def play_round(st, n, deck, pool, r, captain, last_round, rng, trace, k, how):
    """One round, steps 0 to 8. Returns (next round's captain, trace rows)."""
    k = start_round(st, pool, n, r, captain, rng, trace, k)
    k = record(trace, k, r, TR_CAPTAIN, captain, -1, how, 0)
    k = draft(st, n, deck, rng, trace, k)
    k = layout(st, n, rng, trace, k)
    k = abilities(st, n, rng, trace, k)
    accused, k = vote(st, n, rng, trace, k)
    k = judgement(st, n, accused, rng, trace, k)
    k = theft(st, n, rng, trace, k)
    return scoring(st, n, last_round, rng, trace, k)


@borrowing
def final_result(st, n, rng, trace, k):
    """The highest total wins; a tie is broken by the last round's captain.
    Returns (winner, end condition, trace rows)."""
    count, best = extremes(st.totals, n, st.tied, True)
    if count > 1:
        st.events[EV_FINAL_TIES] += 1
        winner, k = tie_break(st, n, TIE_WINNER, rng, trace,
                              k)
        end = END_CAPTAIN_TIE
    else:
        winner = first_marked(st.tied, n)
        end = END_HIGHEST
    k = record(trace, k, st.meta[M_ROUND], TR_WINNER, winner, -1, st.totals[winner], end)
    return winner, end, k


@borrowing
def tally_game(st, n, rounds, winner, end, tallies):
    tallies.games[0] += 1
    tallies.end_counts[end] += 1
    tallies.length_hist[min(rounds, MAX_LENGTH)] += 1
    if winner == st.meta[M_CAPTAIN]:
        st.events[EV_FINAL_CAPTAIN_WINS] += 1
    for s in range(n):
        role = st.role[s]
        slot = st.slot_table[s, role]
        won = 1 if s == winner else 0
        total = st.totals[s]
        tallies.seat_wins[s] += won
        tallies.role_games[role] += 1
        tallies.role_wins[role] += won
        tallies.slot_games[slot] += 1
        tallies.slot_wins[slot] += won
        tallies.seat_score_sum[s] += total
        tallies.seat_score_sq[s] += total * total
        tallies.seat_score_hist[s, min(max(total, 0), SCORE_CLIP)] += 1
        tallies.role_score_sum[role] += total
        tallies.role_score_sq[role] += total * total
        tallies.role_score_hist[role, min(max(total, 0), SCORE_CLIP)] += 1


@borrowing
def add_counters(st, tallies):
    """The run's event and per-round counters, kept in the state, go into the tallies."""
    for i in range(st.events.size):
        tallies.events[i] += st.events[i]
    for role in range(st.role_rounds.size):
        tallies.role_rounds[role] += st.role_rounds[role]
        tallies.role_round_wins[role] += st.role_round_wins[role]
        tallies.role_round_sum[role] += st.role_round_sum[role]
        tallies.role_round_sq[role] += st.role_round_sq[role]


@borrowing
def play_games(st, n, deck, pool, rounds, n_games, rng, tallies, trace):
    """The game loop (without reference counting: everything it touches is owned by `play`)."""
    k = 0
    for _ in range(n_games):
        for s in range(n):
            st.totals[s] = 0
        captain = uniform_index(n, rng)
        how = CAPTAIN_RANDOM
        for r in range(1, rounds + 1):
            nxt, k = play_round(st, n, deck, pool, r, captain, r == rounds, rng,
                                trace, k, how)
            how = CAPTAIN_LOWEST
            captain = nxt
        winner, end, k = final_result(st, n, rng, trace, k)
        tally_game(st, n, rounds, winner, end, tallies)
    add_counters(st, tallies)
    return k


@njit(cache=True)
def bind_strategies(st, strategies):
    """Keep each slot's strategy in the state as the address of its compiled code: the round
    steps call it from there (`ask`), so they do not take the tuple of strategy functions."""
    for slot in range(len(strategies)):
        address = strategy_address(strategies[slot])
        if address == 0:
            raise ValueError("a strategy without compiled code")
        st.slot_address[slot] = address


@njit(cache=True)
def play(setup, strategies, slot_table, slot_params, slot_flags, n_games, rng, tallies, trace):
    """Play `n_games` complete games and add their outcomes into `tallies`."""
    n = slot_table.shape[0]
    # The state is one record (see state.py); the deck and the role pool are the kernel's own
    # copies, shuffled in place from round to round.
    buffer = np.zeros(1, STATE_DTYPE)
    st = buffer[0]
    deck = setup.deck.copy()
    pool = setup.pool.copy()
    for i in range(setup.table.size):
        st.table[i] = setup.table[i]
    for s in range(n):
        for role in range(slot_table.shape[1]):
            st.slot_table[s, role] = slot_table[s, role]
    for slot in range(slot_params.shape[0]):
        for j in range(slot_params.shape[1]):
            st.slot_params[slot, j] = slot_params[slot, j]
        st.slot_blind[slot] = 1 if slot_flags[slot] & FLAG_BLIND else 0
    bind_strategies(st, strategies)
    for i in range(st.meta.size):
        st.meta[i] = -1
    init_observation(st.obs, setup.table, setup.deck_counts, n, setup.rounds)
    init_blank(st.blank, setup.table, setup.deck_counts, n, setup.rounds)
    # Everything the game loop touches is a reference-free view (see kernel_support).
    k = play_games(st, n, borrowed(deck), borrowed(pool), setup.rounds, n_games,
                   borrowed_rng(rng), borrow_tallies(tallies), borrowed(trace))
    keep_alive((buffer, deck, pool))
    return k
