"""What a seat may see, and what it may do: the only bridge from the state to a strategy.

The public game (spirit power, hand sizes, ghosts in play, points, artifacts, the ghost king, the
exorcism under way and the log of the last ones) is in the observation already: the rules write
it once for everybody. An observer writes only the deciding seat's private part: its hand, its
cards by colour, and the identities it knows (its own, the ghost king's, those it looked at).
"""

import numpy as np

from simulator.games.engine import allow, clear_legal, inlined

from .declaration import HOST_GHOSTS, OBS, PASS, PLAY, VOTE_BASE
from .rules import may_challenge, may_set_artifact, most_affordable, vote_limits


@inlined
def observe(st, me, context):
    """Every decision: my hand by type, my cards by colour, the identities I know."""
    obs = st.obs  # (past the types and the players every seat's entries stay as set up: 0, -1)
    for t in range(st.n_types):
        obs[OBS.hand + t] = st.hand[me, t]
    obs[OBS.colours] = st.colours[me, 0]
    obs[OBS.colours + 1] = st.colours[me, 1]
    for s in range(st.players):
        obs[OBS.known + s] = st.known[me, s]


# --- legal masks ------------------------------------------------------------------------------
@inlined
def legal_buy(st, s):
    """Buy 0, 1, ... cards, as many as the spirit power pays for and the piles hold."""
    clear_legal(st)
    for k in range(most_affordable(st, s) + 1):
        allow(st, k)


@inlined
def legal_day_card(st, s, play):
    """PASS, or a card type of the hand that plays as `play` (an artifact only while the seat may
    set one)."""
    clear_legal(st)
    allow(st, PASS)
    if play == PLAY.artifact and not may_set_artifact(st, s):
        return
    for t in range(st.n_types):
        if st.type_play[t] == play and st.hand[s, t] > 0:
            allow(st, t)


@inlined
def legal_ghost(st, host, summoning):
    """PASS, or the slot of any ghost in play (rules.host_ghosts = "not-own": a host's exorcism
    only of a ghost on another player; a summoning takes any)."""
    clear_legal(st)
    allow(st, PASS)
    for slot in range(st.in_play):
        if summoning or st.host_ghosts == HOST_GHOSTS.any or st.slot_target[slot] != host:
            allow(st, slot)


@inlined
def legal_vote(st, v, colour):
    """positive * VOTE_BASE + negative, for every count the hand allows (0 + 0: abstain)."""
    clear_legal(st)
    most_positive, most_negative = vote_limits(st, v, colour)
    for p in range(most_positive + 1):
        for q in range(most_negative + 1):
            allow(st, p * VOTE_BASE + q)


@inlined
def legal_challenge(st, host):
    """PASS (stop), or a voter the host may challenge."""
    clear_legal(st)
    allow(st, PASS)
    for v in range(st.players):
        if may_challenge(st, host, v):
            allow(st, v)


# --- no peeking ---------------------------------------------------------------------------------
def scramble_hidden(st, me, rng) -> None:
    """Replace every fact of the state that seat `me` cannot know by another possibility (the
    contract suite poisons the observation's private pieces itself, then checks that `me`'s
    observation does not change; it runs on a copy of the state, interpreted):

    * the identities `me` does not know (not its own, not the ghost king's current one, not one it
      looked at) are shuffled among those seats (the ghost king's former identity among them);
    * the Taoist cards `me` cannot see (the other hands, the draw pile, the discards, the votes on
      the table that no challenge showed) are pooled, shuffled and dealt back in the same numbers;
    * the ghost deck's order is shuffled;
    * what the others know privately (their looks) is made up."""
    n = int(st.players)
    king = int(st.king)
    unknown = [s for s in range(n) if s != me and st.known[me, s] < 0]
    identity = [int(st.former[s]) if s == king else int(st.role[s]) for s in unknown]
    identity = [int(x) for x in rng.permutation(np.asarray(identity, dtype=np.int64))]
    for s, value in zip(unknown, identity):
        if s == king:
            st.former[s] = value
        else:
            st.role[s] = value
            st.former[s] = value
    # Taoist cards out of sight
    types = int(st.n_types)
    pool: list[int] = []
    hands = []
    for s in range(n):
        if s == me:
            continue
        hands.append((s, int(st.hand_size[s])))
        for t in range(types):
            pool += [t] * int(st.hand[s, t])
            st.hand[s, t] = 0
        st.colours[s, :] = 0
        st.hand_size[s] = 0
    votes = []
    for v in range(n):
        if v != me and st.on_table[v] == 1 and st.shown[v] < 0:
            placed = int(st.vote_cards[v, :types].sum())
            for t in range(types):
                pool += [t] * int(st.vote_cards[v, t])
                st.vote_cards[v, t] = 0
            votes.append((v, placed))
    pile = int(st.pile_size)
    pool += [int(t) for t in st.pile[:pile]]
    discards = int(st.discard_size)
    for t in range(types):
        pool += [t] * int(st.discard[t])
        st.discard[t] = 0
    pool = [int(t) for t in rng.permutation(np.asarray(pool, dtype=np.int64))]
    for s, size in hands:
        for _ in range(size):
            t = pool.pop()
            st.hand[s, t] += 1
            st.colours[s, st.type_colour[t]] += 1
            st.hand_size[s] += 1
    colour = int(st.g_colour[st.obs[OBS.ex_card]]) if st.obs[OBS.ex_card] >= 0 else 0
    for v, placed in votes:
        st.vote_positive[v] = st.vote_negative[v] = 0
        st.positive_value[v] = st.negative_value[v] = 0
        for _ in range(placed):
            t = pool.pop()
            st.vote_cards[v, t] += 1
            if st.type_colour[t] == colour:
                st.vote_positive[v] += 1
                st.positive_value[v] += st.type_value[t]
            else:
                st.vote_negative[v] += 1
                st.negative_value[v] += st.type_value[t]
    for i in range(pile):
        st.pile[i] = pool.pop()
    for _ in range(discards):
        t = pool.pop()
        st.discard[t] += 1
    # the ghost deck's order
    left = list(range(int(st.ghost_next), int(st.ghost_size)))
    order = [int(st.ghost_order[i]) for i in left]
    for i, card in zip(left, rng.permutation(np.asarray(order, dtype=np.int64))):
        st.ghost_order[i] = card
    # the others' looks
    for v in range(n):
        if v != me:
            for s in range(n):
                if s != v and s != king:
                    st.known[v, s] = int(rng.integers(-1, 3))

