"""What a seat may see, and what it may do: the only bridge from the state to a strategy.

The observation holds the public record (kept in it by the rules: see state.py) and, for the
deciding seat only, its private part: its team, its hand, its own tryals, what it knows of the
others' teams and face-down tryals, and what the decision is about. `observe` writes every private
piece at every decision, so nothing of one seat's view is left behind for the next.

The context of every decision is (target, card, first, mode): the seat the decision is about, the
card being played, the first target of a Scapegoat or Robbery, and which extra piece to show
(MODE: the witches' votes at night, the night's secrets at dawn, the cards chosen from).
"""

import numpy as np

from simulator.games.engine import allow, clear_legal, compiled, inlined, set_legal

from .declaration import (
    ALIBI_WITNESS, CARD, CHAR, HAND_KINDS, HIDDEN, KNOWN, MAX_PLAYERS, MAX_TRYALS, MODE, N_CARDS,
    OBS, PHIPS, STOP, TRYAL, TURN, UNKNOWN, WITCH,
)
from .rules import has_ability, red_allowed, threshold_of, void_when_two_left
from .state import alive, discard, front, parris_left, phips_left, tituba_left

# --- the observer ------------------------------------------------------------------------------------
@compiled
def observe(st, me, context):
    """The private part of `me`'s observation (the public record is already there)."""
    target, card, first, mode = context
    obs = st.obs
    n = st.players
    witch = st.ever_witch[me] == 1
    obs[OBS.my_team] = WITCH if witch else 0
    obs[OBS.constable] = 0
    for k in range(N_CARDS):
        obs[OBS.hand + k] = st.hand[me, k]
    for slot in range(MAX_TRYALS):
        kind = UNKNOWN
        if slot < st.row_len[me]:
            kind = st.tryal_kind[st.row[me, slot]]
            if kind == TRYAL.constable and not st.tryal_up[st.row[me, slot]]:
                obs[OBS.constable] = 1
        obs[OBS.mine + slot] = kind
    for s in range(MAX_PLAYERS):
        if s < n:
            obs[OBS.known_team + s] = st.known_team[me, s]
            obs[OBS.known_witch + s] = st.known_witch[me, s]
            obs[OBS.needed + s] = threshold_of(st, s, me) if alive(st)[s] else 0
        else:
            obs[OBS.known_team + s] = UNKNOWN
            obs[OBS.known_witch + s] = 0
            obs[OBS.needed + s] = 0
        obs[OBS.votes + s] = st.votes[s] if mode == MODE.votes and witch and s < n else 0
    obs[OBS.target] = target
    obs[OBS.card] = card
    obs[OBS.first] = first
    obs[OBS.cards_played] = st.played if me == st.turn_seat else 0
    bit = 1 << me
    for slot in range(MAX_TRYALS):
        code = UNKNOWN
        if target >= 0 and slot < st.row_len[target]:
            tid = st.row[target, slot]
            if st.tryal_up[tid]:
                code = st.tryal_kind[tid]
            elif st.tryal_known[tid] & bit:
                code = KNOWN + st.tryal_kind[tid]
            else:
                code = HIDDEN
        obs[OBS.target_row + slot] = code
    dawn = mode == MODE.dawn
    obs[OBS.victim] = st.night_victim if dawn and witch else UNKNOWN
    obs[OBS.protected] = st.night_guard if dawn and obs[OBS.constable] == 1 else UNKNOWN
    for k in range(N_CARDS):
        obs[OBS.choice + k] = st.spoils[k] if mode == MODE.choice else 0


# --- legal-action masks --------------------------------------------------------------------------
@inlined
def others_alive(st, seat):
    count = 0
    for s in range(st.players):
        if s != seat and alive(st)[s]:
            count += 1
    return count


@compiled
def has_target(st, seat, kind):
    """Has the card a legal target for `seat`?"""
    if kind == CARD.scapegoat or kind == CARD.robbery:
        return others_alive(st, seat) >= 2
    for t in range(st.players):
        if t == seat or not alive(st)[t]:
            continue
        if kind == ALIBI_WITNESS:
            return True
        if kind <= CARD.witness:
            if red_allowed(st, seat, t):
                return True
        elif kind == CARD.curse:
            for b in range(CARD.asylum, CARD.black_cat + 1):
                if front(st, t, b) > 0:
                    return True
        else:
            return True
    return False


@compiled
def playable(st, seat, kind):
    """May `seat` play a card of `kind` (ALIBI_WITNESS: an Alibi as a Witness) now?"""
    if kind == ALIBI_WITNESS:
        if st.hand[seat, CARD.alibi] == 0 or not has_ability(st, seat, CHAR.will_griggs):
            return False
    elif kind >= HAND_KINDS or st.hand[seat, kind] == 0 or void_when_two_left(st, kind):
        return False
    return has_target(st, seat, kind)


@compiled
def legal_play(st, seat, first):
    """The cards `seat` may play next; STOP (end the turn) after the first card."""
    clear_legal(st)
    for kind in range(HAND_KINDS):
        set_legal(st, kind, playable(st, seat, kind))
    set_legal(st, ALIBI_WITNESS, playable(st, seat, ALIBI_WITNESS))
    set_legal(st, STOP, not first)


@compiled
def can_play(st, seat):
    for kind in range(HAND_KINDS):
        if playable(st, seat, kind):
            return True
    return playable(st, seat, ALIBI_WITNESS)


@compiled
def discard_takeable(st):
    """Cards Samuel Parris may take from the discard pile: no black cards (nor, with two players
    left, the cards discarded when drawn)."""
    for k in range(HAND_KINDS):
        if discard(st)[k] > 0 and not void_when_two_left(st, k):
            return True
    return False


@compiled
def legal_turn(st, seat):
    """Draw; play (a playable card in hand); Samuel Parris's draw from the discard pile; Tituba's
    arrangement of the deck before she draws."""
    clear_legal(st)
    allow(st, TURN.draw)
    set_legal(st, TURN.play, can_play(st, seat))
    set_legal(st, TURN.parris, has_ability(st, seat, CHAR.samuel_parris)
              and parris_left(st)[seat] > 0 and discard_takeable(st))
    set_legal(st, TURN.tituba, has_ability(st, seat, CHAR.tituba) and tituba_left(st)[seat] > 0
              and st.pile_size > 1)


@compiled
def legal_target(st, seat, kind):
    """The players `seat` may play a card of `kind` on (Scapegoat / Robbery: the first)."""
    clear_legal(st)
    for t in range(st.players):
        if t == seat or not alive(st)[t]:
            continue
        if kind <= CARD.witness:
            set_legal(st, t, red_allowed(st, seat, t))
        elif kind == CARD.curse:
            blue = False
            for b in range(CARD.asylum, CARD.black_cat + 1):
                if front(st, t, b) > 0:
                    blue = True
            set_legal(st, t, blue)
        else:
            allow(st, t)


@compiled
def legal_second(st, seat, first):
    """Scapegoat / Robbery: the receiver, another living player than `seat` and `first`."""
    clear_legal(st)
    for t in range(st.players):
        if t != seat and t != first and alive(st)[t]:
            allow(st, t)


@compiled
def legal_blue(st, target):
    """Curse: the kinds of blue card in front of `target`."""
    clear_legal(st)
    for b in range(CARD.asylum, CARD.black_cat + 1):
        set_legal(st, b, front(st, target, b) > 0)


@compiled
def legal_slots(st, seat):
    """The slots of `seat`'s face-down tryals."""
    clear_legal(st)
    for slot in range(st.row_len[seat]):
        set_legal(st, slot, not st.tryal_up[st.row[seat, slot]])


@compiled
def legal_confess(st, seat):
    """Dawn: reveal a face-down tryal, confess without a reveal (William Phips, once), or not."""
    legal_slots(st, seat)
    set_legal(st, PHIPS, has_ability(st, seat, CHAR.william_phips) and phips_left(st)[seat] > 0)
    allow(st, STOP)


@compiled
def legal_kinds(st, counts, size, stop):
    """Every card kind with a count in counts[:size] (and STOP)."""
    clear_legal(st)
    for k in range(size):
        set_legal(st, k, counts[k] > 0)
    set_legal(st, STOP, stop)


@compiled
def legal_parris(st, stop):
    """Samuel Parris: a card from the discard pile (no black cards), then STOP after the first."""
    clear_legal(st)
    for k in range(HAND_KINDS):
        set_legal(st, k, discard(st)[k] > 0 and not void_when_two_left(st, k))
    set_legal(st, STOP, stop)


@compiled
def legal_living(st, exclude):
    """Every living seat but `exclude` (-1: none)."""
    clear_legal(st)
    for t in range(st.players):
        if t != exclude and alive(st)[t]:
            allow(st, t)


# --- no peeking --------------------------------------------------------------------------------------
def scramble_hidden(st, me, rng) -> None:
    """Replace every fact of the state that seat `me` cannot know by another possibility (the
    contract suite poisons the observation's private pieces itself, then checks that `me`'s
    observation does not change; it runs on a copy of the state, interpreted).

    The playing cards `me` cannot see (the other hands and the draw deck, Night kept in place)
    are pooled, shuffled and dealt back to the same places; the face-down tryals `me` has not
    seen are shuffled among their places; the other seats' teams and knowledge that `me` does
    not know are made up; so are tonight's secrets (the witches' votes and victim unless `me` is
    a witch, the constable's protection unless `me` holds the Constable, the other dawn
    choices)."""
    n = int(st.players)
    witch = bool(st.ever_witch[me])
    # playing cards: the other hands and the deck (Tituba's view while she arranges it stays)
    pool, places = [], []
    for s in range(n):
        if s != me:
            for k in range(N_CARDS):
                pool += [k] * int(st.hand[s, k])
                places += [("hand", s)] * int(st.hand[s, k])
                st.hand[s, k] = 0
    viewing = int(st.spoils.sum()) > 0 and st.turn_seat == me
    keep = st.pile_size if viewing else 0
    for i in range(int(st.pile_size) - int(keep)):
        if st.pile[i] != CARD.night:
            pool.append(int(st.pile[i]))
            places.append(("pile", i))
    order = rng.permutation(len(pool))
    for (where, at), pick in zip(places, order):
        kind = pool[pick]
        if where == "hand":
            st.hand[at, kind] += 1
        else:
            st.pile[at] = kind
    # face-down tryals `me` does not know
    hidden = []
    for s in range(n):
        for slot in range(int(st.row_len[s])):
            tid = int(st.row[s, slot])
            if not st.tryal_up[tid] and not (int(st.tryal_known[tid]) >> me) & 1:
                hidden.append(tid)
    kinds = [int(st.tryal_kind[t]) for t in hidden]
    for tid, pick in zip(hidden, rng.permutation(len(hidden))):
        st.tryal_kind[tid] = kinds[pick]
    # the others' knowledge and teams
    for tid in range(int(st.n_tryals)):
        if not st.tryal_up[tid]:
            mine = int(st.tryal_known[tid]) & (1 << me)
            st.tryal_known[tid] = (int(rng.integers(0, 1 << n)) & ~(1 << me)) | mine
    for v in range(n):
        if v == me:
            continue
        for s in range(n):
            st.known_team[v, s] = int(rng.integers(-1, 2))
            st.known_witch[v, s] = int(rng.integers(0, 3))
        if st.known_team[me, v] == UNKNOWN:
            st.ever_witch[v] = int(rng.integers(0, 2))
            st.role[v] = st.character[v] + (len(CHAR) if st.ever_witch[v] else 0)
        st.confessing[v] = int(rng.integers(0, STOP + 1))
    if not witch:
        st.night_victim = int(rng.integers(0, n))
        st.votes[:n] = rng.integers(0, 3, n)
    if not any(int(st.tryal_kind[st.row[me, slot]]) == TRYAL.constable
               and not st.tryal_up[st.row[me, slot]] for slot in range(int(st.row_len[me]))):
        st.night_guard = int(rng.integers(0, n))
    st.ann_pending[:n] = np.where(np.arange(n) == me, st.ann_pending[:n], rng.integers(0, 2, n))

