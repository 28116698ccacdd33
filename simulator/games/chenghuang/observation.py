"""What a seat may see: the observation vector and the legal-action mask for each decision.

These functions are the only bridge from the state to a strategy. An observation holds the public
record (roles, face-up cards, the named kind of 武判, public copies, the vote, totals, the pile's
size), the seat's own cards and what the seat has learnt privately (cards it looked at as 刑具爺,
the cards it drew as 甘將軍, the pile cards it saw go in); never another seat's secret.

A blind strategy (base.FLAG_BLIND) decides from the legal mask alone: its seat's observation is
not built (the fill_* functions return at once) and `ask` hands it `blank`, which holds only the
run's constants and the decision kind.

Pieces that only some decisions use (the draft pack, the layout, the drawn cards, the tie) are
written for the deciding seat and cleared right after, so nothing of one seat's private view is
left behind for the next seat's decision.
"""


from .declaration import (
    FACE_DOWN, MAX_PLAYERS, N_ACTIONS, N_KINDS, OBS, TABLE_SIZE, UNKNOWN,
)
from .rules import can_be_robbed, peekable
from .state import (
    borrowing, inlined,
    M_ACCUSED, M_ADMITTED, M_CAPTAIN, M_HIGHEST, M_JUDGE_KIND, M_REVEALED, M_ROUND, M_THIEF,
    M_VOTED,
)


# --- the observation ------------------------------------------------------------------------------
@borrowing
def init_observation(obs, table, deck_counts, n, rounds):
    """Constants of the whole run: the player count, the rounds, the deck and the scoring table."""
    for i in range(obs.size):
        obs[i] = 0
    obs[OBS.players] = n
    obs[OBS.rounds] = rounds
    for k in range(N_KINDS):
        obs[OBS.deck + k] = deck_counts[k]
    for i in range(TABLE_SIZE):
        obs[OBS.table + i] = table[i]
    for s in range(MAX_PLAYERS):
        obs[OBS.roles + s] = UNKNOWN
    clear_private(obs)


@borrowing
def init_blank(obs, table, deck_counts, n, rounds):
    """The observation of blind strategies: the run's constants; everything of a round and of a
    seat unknown (-1) or empty (0). Only the decision kind changes during the run."""
    init_observation(obs, table, deck_counts, n, rounds)
    for i in (OBS.me, OBS.my_role, OBS.round, OBS.captain, OBS.judge_kind, OBS.revealed,
              OBS.accused, OBS.admitted, OBS.accused_highest, OBS.thief, OBS.pile_size):
        obs[i] = UNKNOWN


@borrowing
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


@borrowing
def publish_seats(st, n):
    """The public per-seat record: roles, totals and (once the vote is counted) the votes. These
    change only at the deal, the vote and the scoring; the kernel publishes them then."""
    obs = st.obs
    vote_done = st.meta[M_VOTED] == 1  # the vote is secret until every ballot is in
    for s in range(n):
        obs[OBS.roles + s] = st.role[s]
        obs[OBS.totals + s] = st.totals[s]
        obs[OBS.votes + s] = st.votes[s] if vote_done else 0


@borrowing
def fill_public(st, n, me):
    """The seat and the public scalars of the round so far (the decision kind is written by the
    kernel when it asks)."""
    obs = st.obs
    obs[OBS.me] = me
    obs[OBS.my_role] = st.role[me]
    obs[OBS.round] = st.meta[M_ROUND]
    obs[OBS.captain] = st.meta[M_CAPTAIN]
    obs[OBS.judge_kind] = st.meta[M_JUDGE_KIND]
    obs[OBS.revealed] = st.meta[M_REVEALED]
    obs[OBS.accused] = st.meta[M_ACCUSED]
    obs[OBS.admitted] = st.meta[M_ADMITTED]
    obs[OBS.accused_highest] = st.meta[M_HIGHEST]
    obs[OBS.thief] = st.meta[M_THIEF]
    pile = 0
    for k in range(N_KINDS):
        pile += st.pile[k]
    obs[OBS.pile_size] = pile


@borrowing
def fill_draft(st, n, me, pack, pick):
    """Draft: the pack in hand and the cards kept so far."""
    if st.blind[me] == 1:
        return
    fill_public(st, n, me)
    obs = st.obs
    obs[OBS.pick] = pick + 1
    for k in range(N_KINDS):
        obs[OBS.pack + k] = st.packs[pack, k]
        obs[OBS.mine + k] = st.held[me, k]


@borrowing
def fill_layout(st, n, me, up, down, to_hide):
    """Discard and layout: my cards, those still to lay face up and those laid face down."""
    if st.blind[me] == 1:
        return
    fill_public(st, n, me)
    obs = st.obs
    obs[OBS.to_hide] = to_hide
    for k in range(N_KINDS):
        obs[OBS.mine + k] = st.held[me, k]
        obs[OBS.my_up + k] = up[k]
        obs[OBS.my_down + k] = down[k]
        obs[OBS.pile_known + k] = st.pile_known[me, k]


@borrowing
def fill_table(st, n, me):
    """From the abilities on: everything on the table that `me` can see, and its own cards."""
    if st.blind[me] == 1:
        return
    fill_public(st, n, me)
    obs = st.obs
    revealed = st.meta[M_REVEALED] == 1
    for k in range(N_KINDS):
        obs[OBS.mine + k] = st.held[me, k]
        obs[OBS.my_down + k] = 0
        obs[OBS.pile_known + k] = st.pile_known[me, k]
    for s in range(n):
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


@borrowing
def show_drawn(obs, drawn):
    for k in range(N_KINDS):
        obs[OBS.drawn + k] = drawn[k]


@borrowing
def clear_drawn(obs):
    for k in range(N_KINDS):
        obs[OBS.drawn + k] = 0


@borrowing
def show_pile(obs, pile):
    """The accused who is compensated looks through the whole pile."""
    for k in range(N_KINDS):
        obs[OBS.pile_known + k] = pile[k]


@borrowing
def show_tie(obs, what, tied, n):
    obs[OBS.tie] = what
    for s in range(n):
        obs[OBS.tied + s] = tied[s]


@borrowing
def clear_tie(obs):
    obs[OBS.tie] = UNKNOWN
    for s in range(MAX_PLAYERS):
        obs[OBS.tied + s] = 0


# --- legal-action masks ---------------------------------------------------------------------------
@borrowing
def clear_legal(legal):
    for a in range(N_ACTIONS):
        legal[a] = False


@inlined
def count_legal(legal):
    count = 0
    last = -1
    for a in range(N_ACTIONS):
        if legal[a]:
            count += 1
            last = a
    return count, last


@borrowing
def legal_kinds(legal, counts):
    """Legal: every kind with a card in `counts` (a 1-d count vector)."""
    clear_legal(legal)
    for k in range(N_KINDS):
        legal[k] = counts[k] > 0


@borrowing
def legal_any_kind(legal):
    clear_legal(legal)
    for k in range(N_KINDS):
        legal[k] = True


@borrowing
def legal_seats(legal, n, exclude):
    """Legal: every seat but `exclude`."""
    clear_legal(legal)
    for s in range(n):
        legal[s] = s != exclude


@borrowing
def legal_marked(legal, marks, n):
    """Legal: the seats marked in `marks` (a tie)."""
    clear_legal(legal)
    for s in range(n):
        legal[s] = marks[s] == 1


@borrowing
def legal_admit(legal):
    clear_legal(legal)
    legal[0] = True
    legal[1] = True


@borrowing
def legal_peek(st, n, me):
    """刑具爺: another seat with a face-down card it has not seen."""
    legal = st.legal
    clear_legal(legal)
    for s in range(n):
        legal[s] = s != me and peekable(st, me, s) > 0


@borrowing
def legal_source(st, me):
    """文判's own card to move: 0-5 a face-up card of that kind, 6-11 a face-down one (from the
    layout counts `recount` keeps)."""
    legal = st.legal
    clear_legal(legal)
    for k in range(N_KINDS):
        legal[k] = st.up_count[me, k] > 0
        legal[FACE_DOWN + k] = st.down_count[me, k] > 0


@borrowing
def legal_target(st, n, me, source):
    """The card 文判 copies: 0-5 any face-up card of that kind on the table, 6-11 one of its own
    face-down cards of that kind; never the moved card itself (from the layout counts)."""
    legal = st.legal
    clear_legal(legal)
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
        legal[k] = up > 0
        legal[FACE_DOWN + k] = down > 0


@borrowing
def legal_theft(st, n, thief):
    """The thief names another player holding a card, never 馬面."""
    legal = st.legal
    clear_legal(legal)
    for s in range(n):
        legal[s] = can_be_robbed(st, thief, s)
