"""The state of one Chenghuang game: plain arrays, allocated once per kernel call, reset per round.

Only the kernel and the rule functions see it; a strategy sees the observation built from it
(observation.py). Cards of one kind are interchangeable, so a holding is a count per kind
(`held`). Before the reveal the table layout also keeps one slot per laid-out card, to know which
face-down card each seat has seen (`slot_*`); after the reveal every card is public and only
`held` matters.
"""

from collections import namedtuple

import numpy as np
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.arrayobj import make_array, populate_array

from simulator.games.base import MAX_STRATEGY_PARAMS, MAX_STRATEGY_SLOTS

from .declaration import EVENTS, MAX_PLAYERS, MAX_SLOTS, N_ACTIONS, N_KINDS, N_ROLES, OBS, TABLE_SIZE

# Functions that take the state are compiled without reference counting (Numba's `_nrt=False`):
# they never allocate (Numba refuses to compile an allocation without reference counting, so that
# is checked when compiling), and the state they receive is owned by the kernel for the whole call.
borrowing = njit(cache=True, _nrt=False)
# The few small steps of every decision (asking a strategy, finding a forced action) are inlined
# into their callers as well: they are smaller than a call's passing of the state and the views.
inlined = njit(cache=True, _nrt=False, inline="always")

# Scalars of the current round, kept in one small array (`meta`).
META = ("round", "captain", "judge_kind", "voted", "accused", "admitted", "highest", "revealed",
        "thief")
(M_ROUND, M_CAPTAIN, M_JUDGE_KIND, M_VOTED, M_ACCUSED, M_ADMITTED, M_HIGHEST, M_REVEALED,
 M_THIEF) = range(len(META))


def fields(n):
    """(name, dtype, shape, meaning) of every array of the state of an n-player game."""
    i8 = np.int64
    return (
        ("role", i8, (n,), "role code of each seat this round (public)"),
        ("held", i8, (n, N_KINDS), "cards each seat holds, by (effective) kind"),
        ("packs", i8, (n, N_KINDS), "draft packs, by the seat they were dealt to"),
        ("pile", i8, (N_KINDS,), "the discard pile"),
        ("pile_known", i8, (n, N_KINDS), "pile cards each seat knows of"),
        ("slot_kind", i8, (n, MAX_SLOTS), "layout: kind of each laid-out card"),
        ("slot_up", i8, (n, MAX_SLOTS), "layout: 1 face up"),
        ("slot_public", i8, (n, MAX_SLOTS), "layout: 1 if its kind is public while face down"),
        ("slot_seen", i8, (n, MAX_SLOTS), "layout: bit v set if seat v has looked at it"),
        ("n_slots", i8, (n,), "layout: cards laid out"),
        ("pub_count", i8, (n, N_KINDS), "layout: cards of each kind anyone can name (face up or "
                                        "public), recounted from the slots after every change"),
        ("peek_count", i8, (n, n, N_KINDS), "layout: [v, s, k] face-down cards of s of kind k "
                                            "that seat v has looked at (recounted likewise)"),
        ("peeked", i8, (n,), "layout: 1 if peek_count has entries for the seat"),
        ("up_count", i8, (n, N_KINDS), "layout: face-up cards of each kind (recounted likewise)"),
        ("down_count", i8, (n, N_KINDS), "layout: face-down cards of each kind (likewise)"),
        ("votes", i8, (n,), "votes received"),
        ("showdown", i8, (n,), "showdown scores (before 范將軍)"),
        ("round_score", i8, (n,), "points this round"),
        ("totals", i8, (n,), "total points"),
        ("tied", i8, (n,), "scratch: seats in a tie"),
        ("meta", i8, (len(META),), "round scalars"),
        ("up", i8, (N_KINDS,), "scratch: cards to lay face up"),
        ("down", i8, (N_KINDS,), "scratch: cards laid face down"),
        ("drawn", i8, (N_KINDS,), "scratch: the cards 甘將軍 drew"),
        ("table", i8, (TABLE_SIZE,), "the scoring table (declaration.T_*)"),
        ("slot_table", i8, (n, N_ROLES), "strategy slot of a seat while it holds a role"),
        ("slot_params", np.float64, (MAX_STRATEGY_SLOTS, MAX_STRATEGY_PARAMS),
         "each slot's strategy parameters"),
        ("slot_address", i8, (MAX_STRATEGY_SLOTS,), "native address of each slot's strategy "
                                                     "(kernel_support.strategy_address)"),
        ("slot_blind", i8, (MAX_STRATEGY_SLOTS,), "1 if the slot's strategy is blind "
                                                  "(base.FLAG_BLIND)"),
        ("blind", i8, (n,), "1 if the seat's strategy this round is blind: its observation is "
                            "not built (it is handed `blank`)"),
        ("events", i8, (len(EVENTS),), "event counters, added into the tallies after the run"),
        ("role_rounds", i8, (N_ROLES,), "rounds played by role (tallies.role_rounds)"),
        ("role_round_wins", i8, (N_ROLES,), "tallies.role_round_wins"),
        ("role_round_sum", i8, (N_ROLES,), "tallies.role_round_sum"),
        ("role_round_sq", i8, (N_ROLES,), "tallies.role_round_sq"),
        ("obs", i8, (OBS.size,), "observation handed to strategies"),
        ("blank", i8, (OBS.size,), "observation handed to blind strategies: the run's constants "
                                   "and the decision kind"),
        ("legal", np.bool_, (N_ACTIONS,), "legal-action mask handed to strategies"),
    )


# The kernel's state is one NumPy record (a structured scalar) sized for the largest table: Numba
# passes a record to a function as one pointer and reads its arrays at fixed offsets, where a tuple
# of arrays is copied onto the stack at every call (some 200 words for this state). Numba's records
# cannot hold booleans, so the legal mask is stored as bytes and handed to strategies as a boolean
# view (`legal_view`).
STATE_DTYPE = np.dtype(
    [(name, np.uint8 if dtype is np.bool_ else dtype, shape)
     for name, dtype, shape, _ in fields(MAX_PLAYERS)],
    align=True,
)

# A hand-built state for tests and tools: the same arrays, sized for n players, owned by NumPy.
# (The class's name must be its module attribute: Numba's cache pickles the type by reference.)
ChenghuangState = namedtuple("ChenghuangState", [f[0] for f in fields(1)])
State = ChenghuangState


def new_state():
    """The kernel's state: a zeroed one-element record array; the kernel works on its element."""
    return np.zeros(1, STATE_DTYPE)


def empty_state(n):
    """The same arrays as the kernel's state, sized for n players and owned by NumPy: for tests
    and tools that build a position by hand and call the rule functions from Python."""
    arrays = {name: np.zeros(shape, dtype) for name, dtype, shape, _ in fields(n)}
    arrays["meta"][:] = -1
    arrays["obs"][:] = -1
    return State(**arrays)


@intrinsic
def legal_view(typingctx, legal):
    """The legal mask as a boolean array of N_ACTIONS entries, without a reference count (the
    record's bytes, or a hand-built state's boolean array, reinterpreted in place)."""
    view_type = types.Array(types.boolean, 1, "C")
    sig = view_type(legal)

    def codegen(context, builder, signature, args):
        source = make_array(signature.args[0])(context, builder, value=args[0])
        view = make_array(view_type)(context, builder)
        intp = context.get_value_type(types.intp)
        populate_array(view, data=builder.bitcast(source.data, view.data.type),
                       shape=cgutils.pack_array(builder, [intp(N_ACTIONS)]),
                       strides=cgutils.pack_array(builder, [intp(1)]),
                       itemsize=intp(1), meminfo=None)
        return view._getvalue()

    return sig, codegen
