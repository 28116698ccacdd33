"""What a seat may see: the observation vector and the legal-action mask for each decision.

These functions are the only bridge from the state to a strategy. An observation holds the public
record (roles, face-up cards, the named kind of 武判, public copies, the vote, totals, the pile's
size), the seat's own cards and what the seat has learnt privately (cards it looked at as 刑具爺,
the cards it drew as 甘將軍, the pile cards it saw go in); never another seat's secret.

The observers (`observe_*`, with the engine's signature (st, seat, context)) are called by the
engine's `ask` only when the seat's strategy has a real choice and is not blind; a blind strategy
(base.FLAG_BLIND) is handed the blank observation, which holds only the run's constants and the
decision kind. The engine writes the decision kind, the seat and its role.

Pieces that only some decisions use (the draft pack, the layout, the drawn cards, the tie) are
written for the deciding seat and cleared right after, so nothing of one seat's private view is
left behind for the next seat's decision.
"""

import numpy as np

from simulator.games.engine import allow, clear_legal, compiled, inlined, set_legal

from .declaration import FACE_DOWN, MAX_PLAYERS, N_KINDS, NO_THEFT, OBS, UNKNOWN
from .rules import can_be_robbed, knows_slot, pack_in_hand, peekable, recount


# --- the observation ------------------------------------------------------------------------------
def init_observation(st) -> None:
    """The run's constants in the observation, from the setup fields (params.setup calls it; the
    engine then copies the result into the blank observation): the rounds, the deck and the
    scoring table; everything of a round and of a seat unknown (-1) or empty (0)."""
    obs = st.obs
    obs[:] = 0
    obs[OBS.rounds] = st.rounds
    obs[OBS.deck:OBS.deck + N_KINDS] = st.deck_counts
    obs[OBS.table:OBS.table + st.table.size] = st.table
    obs[OBS.roles:OBS.roles + MAX_PLAYERS] = UNKNOWN
    clear_private(obs)
    for piece in (OBS.round, OBS.captain, OBS.judge_kind, OBS.revealed, OBS.accused,
                  OBS.admitted, OBS.accused_highest, OBS.thief, OBS.pile_size):
        obs[piece] = UNKNOWN


@compiled
def clear_private(obs):
    """Blank every piece that depends on the deciding seat (done at the start of each round)."""
    obs[OBS.pick] = 0
    obs[OBS.to_hide] = 0
    obs[OBS.source] = UNKNOWN
    obs[OBS.tie] = UNKNOWN
    for k in range(N_KINDS):
        obs[OBS.pack + k] = 0
        obs[OBS.mine + k] = 0
        obs[OBS.my_up + k] = 0
        obs[OBS.my_down + k] = 0
        obs[OBS.pile_known + k] = 0
        obs[OBS.drawn + k] = 0
    for i in range(MAX_PLAYERS * N_KINDS):
        obs[OBS.known + i] = 0
    for s in range(MAX_PLAYERS):
        obs[OBS.unknown + s] = 0
        obs[OBS.tied + s] = 0


@compiled
def publish_seats(st, n):
    """The public per-seat record: roles, totals, the accusations each seat denied rightly and
    (once the vote is counted) the votes. These change only at the deal, the vote and the
    scoring; the kernel publishes them then."""
    obs = st.obs
    vote_done = st.voted == 1  # the vote is secret until every ballot is in
    for s in range(n):
        obs[OBS.roles + s] = st.role[s]
        obs[OBS.totals + s] = st.totals[s]
        obs[OBS.denied_right + s] = st.denied_right[s]
        obs[OBS.votes + s] = st.votes[s] if vote_done else 0


@compiled
def fill_public(st):
    """The public scalars of the round so far (the engine writes the decision kind, the seat and
    its role when it asks)."""
    obs = st.obs
    obs[OBS.round] = st.current_round
    obs[OBS.captain] = st.captain
    obs[OBS.judge_kind] = st.judge_kind
    obs[OBS.revealed] = st.revealed
    obs[OBS.accused] = st.accused
    obs[OBS.admitted] = st.admitted
    obs[OBS.accused_highest] = st.highest
    obs[OBS.thief] = st.thief
    pile = 0
    for k in range(N_KINDS):
        pile += st.pile[k]
    obs[OBS.pile_size] = pile


@compiled
def fill_draft(st, me, pack, pick):
    """Draft: the pack in hand and the cards kept so far."""
    fill_public(st)
    obs = st.obs
    obs[OBS.pick] = pick + 1
    for k in range(N_KINDS):
        obs[OBS.pack + k] = st.packs[pack, k]
        obs[OBS.mine + k] = st.held[me, k]


@compiled
def fill_layout(st, me, up, down, to_hide):
    """Discard and layout: my cards, those still to lay face up and those laid face down."""
    fill_public(st)
    obs = st.obs
    obs[OBS.to_hide] = to_hide
    for k in range(N_KINDS):
        obs[OBS.mine + k] = st.held[me, k]
        obs[OBS.my_up + k] = up[k]
        obs[OBS.my_down + k] = down[k]
        obs[OBS.pile_known + k] = st.pile_known[me, k]


@compiled
def fill_table(st, me):
    """From the abilities on: everything on the table that `me` can see, and its own cards."""
    fill_public(st)
    obs = st.obs
    revealed = st.revealed == 1
    for k in range(N_KINDS):
        obs[OBS.mine + k] = st.held[me, k]
        obs[OBS.my_down + k] = 0
        obs[OBS.pile_known + k] = st.pile_known[me, k]
    for s in range(st.players):
        base = OBS.known + s * N_KINDS
        if revealed or s == me:
            for k in range(N_KINDS):
                obs[base + k] = st.held[s, k]
            obs[OBS.unknown + s] = 0
        else:
            hidden = st.n_slots[s]
            for k in range(N_KINDS):
                known = st.pub_count[s, k] + st.peek_count[me, s, k]
                obs[base + k] = known
                hidden -= known
            obs[OBS.unknown + s] = hidden
    if not revealed:
        for k in range(N_KINDS):
            obs[OBS.my_up + k] = st.up_count[me, k]
            obs[OBS.my_down + k] = st.down_count[me, k]
    else:
        for k in range(N_KINDS):
            obs[OBS.my_up + k] = st.held[me, k]


@compiled
def show_drawn(obs, drawn):
    for k in range(N_KINDS):
        obs[OBS.drawn + k] = drawn[k]


@compiled
def clear_drawn(obs):
    for k in range(N_KINDS):
        obs[OBS.drawn + k] = 0


@compiled
def show_pile(obs, pile):
    """The accused who is compensated looks through the whole pile."""
    for k in range(N_KINDS):
        obs[OBS.pile_known + k] = pile[k]


@compiled
def show_tie(obs, what, tied, n):
    obs[OBS.tie] = what
    for s in range(n):
        obs[OBS.tied + s] = tied[s]


@compiled
def clear_tie(obs):
    obs[OBS.tie] = UNKNOWN
    for s in range(MAX_PLAYERS):
        obs[OBS.tied + s] = 0


# --- observers: what `ask` fills for each decision ----------------------------------------------
@inlined
def observe_draft(st, me, context):
    """A draft pick: context (the pack in hand, the pick 0..5)."""
    pack, pick = context
    fill_draft(st, me, pack, pick)


@inlined
def observe_layout(st, me, context):
    """The discard and the layout: context (cards still to lay face down, this one included);
    the cards to lay face up and those laid face down are the state's `up` and `down`."""
    fill_layout(st, me, st.up, st.down, context[0])


@inlined
def observe_table(st, me, context):
    """Every decision from the abilities on: the table as `me` sees it (context empty)."""
    fill_table(st, me)


@inlined
def observe_drawn(st, me, context):
    """甘將軍's keep: the table and the two cards it drew (the state's `drawn`)."""
    fill_table(st, me)
    show_drawn(st.obs, st.drawn)


@inlined
def observe_source(st, me, context):
    """文判's copy: the table and the source it chose, context (source,)."""
    fill_table(st, me)
    st.obs[OBS.source] = context[0]


@inlined
def observe_pile(st, me, context):
    """The compensation: the table and the whole pile, which the accused looks through."""
    fill_table(st, me)
    show_pile(st.obs, st.pile)


@inlined
def observe_tie(st, me, context):
    """A tie-break: the table and the tie, context (what it is about: TIE,)."""
    fill_table(st, me)
    show_tie(st.obs, context[0], st.tied, st.players)


# --- legal-action masks ---------------------------------------------------------------------------
@compiled
def legal_kinds(st, counts):
    """Legal: every kind with a card in `counts` (a 1-d count vector)."""
    clear_legal(st)
    for k in range(N_KINDS):
        set_legal(st, k, counts[k] > 0)


@compiled
def legal_any_kind(st):
    clear_legal(st)
    for k in range(N_KINDS):
        allow(st, k)


@compiled
def legal_seats(st, n, exclude):
    """Legal: every seat but `exclude`."""
    clear_legal(st)
    for s in range(n):
        set_legal(st, s, s != exclude)


@compiled
def legal_marked(st, marks, n):
    """Legal: the seats marked in `marks` (a tie)."""
    clear_legal(st)
    for s in range(n):
        set_legal(st, s, marks[s] == 1)


@compiled
def legal_admit(st):
    clear_legal(st)
    allow(st, 0)
    allow(st, 1)


@compiled
def legal_peek(st, n, me):
    """刑具爺: another seat with a face-down card it has not seen."""
    clear_legal(st)
    for s in range(n):
        set_legal(st, s, s != me and peekable(st, me, s) > 0)


@compiled
def legal_source(st, me):
    """文判's own card to move: 0-5 a face-up card of that kind, 6-11 a face-down one (from the
    layout counts `recount` keeps)."""
    clear_legal(st)
    for k in range(N_KINDS):
        set_legal(st, k, st.up_count[me, k] > 0)
        set_legal(st, FACE_DOWN + k, st.down_count[me, k] > 0)


@compiled
def legal_target(st, n, me, source):
    """The card 文判 copies: 0-5 any face-up card of that kind on the table, 6-11 one of its own
    face-down cards of that kind; never the moved card itself (from the layout counts)."""
    clear_legal(st)
    moved_up = source < FACE_DOWN
    moved = source if moved_up else source - FACE_DOWN
    for k in range(N_KINDS):
        up = 0
        for s in range(n):
            up += st.up_count[s, k]
        if moved_up and k == moved:
            up -= 1
        down = st.down_count[me, k]
        if not moved_up and k == moved:
            down -= 1
        set_legal(st, k, up > 0)
        set_legal(st, FACE_DOWN + k, down > 0)


@compiled
def legal_theft(st, n, thief):
    """The thief names another player holding a card, never 馬面, or declines (NO_THEFT; the only
    legal action when nobody can be robbed). Returns how many players it could name."""
    clear_legal(st)
    victims = 0
    for s in range(n):
        robbable = can_be_robbed(st, thief, s)
        set_legal(st, s, robbable)
        victims += 1 if robbable else 0
    allow(st, NO_THEFT)
    return victims


# --- no peeking ---------------------------------------------------------------------------------
def scramble_hidden(st, me, rng) -> None:
    """Replace every fact of the state that seat `me` cannot know by another possibility (the
    contract suite poisons the observation's private pieces itself, then checks that `me`'s
    observation does not change; it runs on a copy of the state, interpreted).

    The cards whose kind `me` does not know and cannot see are pooled, shuffled and dealt back to
    the same places: the other seats' hands before they lay out, their face-down cards `me` has
    not seen (neither face up nor turned sideways by 武判 nor looked at), during the draft the
    packs `me` does not hold, and the part of the pile `me` has not seen go in (all of the pile
    is known to the accused who was compensated: it looked through it). The other seats' private
    knowledge (what they saw go into the pile, which face-down cards they looked at) and the
    ballots of a vote not yet counted are made up."""
    n = int(st.players)
    revealed = st.revealed == 1
    pool: list[int] = []
    hands, slots, packs = [], [], []
    for s in range(n):
        if s == me or revealed:
            continue
        if st.n_slots[s] == 0:  # not laid out yet: its whole hand is secret
            for k in range(N_KINDS):
                pool += [k] * int(st.held[s, k])
            hands.append((s, int(st.held[s].sum())))
            st.held[s, :] = 0
            continue
        for i in range(st.n_slots[s]):
            if not knows_slot(st, me, s, i):
                kind = int(st.slot_kind[s, i])
                pool.append(kind)
                st.held[s, kind] -= 1
                slots.append((s, i))
    if st.packs[:n].sum() > 0:  # the draft: `me` holds the pack of its pick number
        in_hand = pack_in_hand(me, int(st.held[me].sum()), n)
        for p in range(n):
            if p != in_hand:
                for k in range(N_KINDS):
                    pool += [k] * int(st.packs[p, k])
                packs.append((p, int(st.packs[p].sum())))
                st.packs[p, :] = 0
    pile_unseen = 0
    if not (st.accused == me and st.highest == 0):
        for k in range(N_KINDS):
            seen = min(int(st.pile[k]), int(st.pile_known[me, k]))
            pool += [k] * (int(st.pile[k]) - seen)
            pile_unseen += int(st.pile[k]) - seen
            st.pile[k] = seen
    pool = [int(k) for k in rng.permutation(np.asarray(pool, dtype=np.int64))]
    for s, count in hands:
        for _ in range(count):
            st.held[s, pool.pop()] += 1
    for s, i in slots:
        kind = pool.pop()
        st.slot_kind[s, i] = kind
        st.held[s, kind] += 1
    for p, count in packs:
        for _ in range(count):
            st.packs[p, pool.pop()] += 1
    for _ in range(pile_unseen):
        st.pile[pool.pop()] += 1
    # What the others know privately: made up (`me`'s own looks stay as they are).
    for v in range(n):
        if v != me:
            st.pile_known[v, :] = rng.integers(0, 3, N_KINDS)
    for s in range(n):
        for i in range(st.n_slots[s]):
            mine = int(st.slot_seen[s, i]) & (1 << me)
            others = int(rng.integers(0, 1 << n)) & ~(1 << me) & ~(1 << s)
            st.slot_seen[s, i] = mine | others
        recount(st, n, s)
    if st.voted == 0:  # the ballots are secret until every one is in
        st.votes[:n] = rng.integers(0, n, n)
