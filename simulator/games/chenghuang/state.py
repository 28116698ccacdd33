"""The state of one Chenghuang game: plain arrays, allocated once per kernel call, reset per round.

Only the kernel and the rule functions see it; a strategy sees the observation built from it
(observation.py). Cards of one kind are interchangeable, so a holding is a count per kind
(`held`). Before the reveal the table layout also keeps one slot per laid-out card, to know which
face-down card each seat has seen (`slot_*`); after the reveal every card is public and only
`held` matters.
"""

from collections import namedtuple

import numpy as np
from numba import njit

from simulator.games.kernel_support import borrowed

from .declaration import MAX_SLOTS, N_ACTIONS, N_KINDS, OBS

# Functions that take the state (a tuple of borrowed views) are compiled without reference
# counting. Passing the ~20 arrays of the state to a function Numba does not inline otherwise costs
# about a hundred incref/decref calls (no-ops on borrowed views, but calls all the same): hundreds
# of nanoseconds per call, more than the rule itself. Such functions must never allocate; Numba
# refuses to compile an allocation without reference counting, so that is checked when compiling.
borrowing = njit(cache=True, _nrt=False)

# Scalars of the current round, kept in one small array (`meta`).
META = ("round", "captain", "judge_kind", "voted", "accused", "admitted", "highest", "revealed",
        "thief")
(M_ROUND, M_CAPTAIN, M_JUDGE_KIND, M_VOTED, M_ACCUSED, M_ADMITTED, M_HIGHEST, M_REVEALED,
 M_THIEF) = range(len(META))

State = namedtuple("State", [
    "role",         # int64[n]            role code of each seat this round (public)
    "held",         # int64[n, kinds]     cards each seat holds, by (effective) kind
    "packs",        # int64[n, kinds]     draft packs, by the seat they were dealt to
    "pile",         # int64[kinds]        the discard pile
    "pile_known",   # int64[n, kinds]     pile cards each seat knows of
    "slot_kind",    # int64[n, MAX_SLOTS] layout: kind of each laid-out card
    "slot_up",      # int64[n, MAX_SLOTS] layout: 1 face up
    "slot_public",  # int64[n, MAX_SLOTS] layout: 1 if its kind is public while face down
    "slot_seen",    # int64[n, MAX_SLOTS] layout: bit v set if seat v has looked at it
    "n_slots",      # int64[n]            layout: cards laid out
    "pub_count",    # int64[n, kinds]     layout: cards of each kind anyone can name (face up or
                    #                     public), recounted from the slots after every change
    "peek_count",   # int64[n, n, kinds]  layout: [v, s, k] face-down cards of s of kind k that
                    #                     seat v has looked at (recounted likewise)
    "peeked",       # int64[n]            layout: 1 if peek_count has entries for the seat
    "votes",        # int64[n]            votes received
    "showdown",     # int64[n]            showdown scores (before 范將軍)
    "round_score",  # int64[n]            points this round
    "totals",       # int64[n]            total points
    "tied",         # int64[n]            scratch: seats in a tie
    "deck",         # int64[deck size]    the deck, shuffled each round
    "pool",         # int64[pool size]    the role pool, shuffled each round
    "meta",         # int64[len(META)]    round scalars
    "up",           # int64[kinds]        scratch: cards to lay face up
    "down",         # int64[kinds]        scratch: cards laid face down
    "drawn",        # int64[kinds]        scratch: the cards 甘將軍 drew
    "obs",          # int64[OBS.size]     observation handed to strategies
    "legal",        # bool[N_ACTIONS]     legal-action mask handed to strategies
])


@njit(cache=True)
def new_state(n, deck_size, pool_size):
    """(state of borrowed views, the arrays that own them): the kernel keeps the owners alive."""
    owners = (
        np.zeros(n, np.int64),
        np.zeros((n, N_KINDS), np.int64),
        np.zeros((n, N_KINDS), np.int64),
        np.zeros(N_KINDS, np.int64),
        np.zeros((n, N_KINDS), np.int64),
        np.zeros((n, MAX_SLOTS), np.int64),
        np.zeros((n, MAX_SLOTS), np.int64),
        np.zeros((n, MAX_SLOTS), np.int64),
        np.zeros((n, MAX_SLOTS), np.int64),
        np.zeros(n, np.int64),
        np.zeros((n, N_KINDS), np.int64),
        np.zeros((n, n, N_KINDS), np.int64),
        np.zeros(n, np.int64),
        np.zeros(n, np.int64),
        np.zeros(n, np.int64),
        np.zeros(n, np.int64),
        np.zeros(n, np.int64),
        np.zeros(n, np.int64),
        np.zeros(deck_size, np.int64),
        np.zeros(pool_size, np.int64),
        np.full(len(META), -1, np.int64),
        np.zeros(N_KINDS, np.int64),
        np.zeros(N_KINDS, np.int64),
        np.zeros(N_KINDS, np.int64),
        np.full(OBS.size, -1, np.int64),
        np.zeros(N_ACTIONS, np.bool_),
    )
    state = State(
        borrowed(owners[0]), borrowed(owners[1]), borrowed(owners[2]), borrowed(owners[3]),
        borrowed(owners[4]), borrowed(owners[5]), borrowed(owners[6]), borrowed(owners[7]),
        borrowed(owners[8]), borrowed(owners[9]), borrowed(owners[10]), borrowed(owners[11]),
        borrowed(owners[12]), borrowed(owners[13]), borrowed(owners[14]), borrowed(owners[15]),
        borrowed(owners[16]), borrowed(owners[17]), borrowed(owners[18]), borrowed(owners[19]),
        borrowed(owners[20]), borrowed(owners[21]), borrowed(owners[22]), borrowed(owners[23]),
        borrowed(owners[24]), borrowed(owners[25]),
    )
    return state, owners


def empty_state(n, deck_size=30, pool_size=5):
    """The same arrays as `new_state`, owned by NumPy: for tests and tools that build a position
    by hand and call the rule functions from Python."""
    shapes = {
        "held": (n, N_KINDS), "packs": (n, N_KINDS), "pile": (N_KINDS,), "pile_known": (n, N_KINDS),
        "slot_kind": (n, MAX_SLOTS), "slot_up": (n, MAX_SLOTS), "slot_public": (n, MAX_SLOTS),
        "slot_seen": (n, MAX_SLOTS), "pub_count": (n, N_KINDS), "peek_count": (n, n, N_KINDS),
        "deck": (deck_size,), "pool": (pool_size,), "meta": (len(META),), "up": (N_KINDS,),
        "down": (N_KINDS,), "drawn": (N_KINDS,), "obs": (OBS.size,),
    }
    arrays = {}
    for name in State._fields:
        if name == "legal":
            arrays[name] = np.zeros(N_ACTIONS, np.bool_)
        else:
            arrays[name] = np.zeros(shapes.get(name, (n,)), np.int64)
    arrays["meta"][:] = -1
    arrays["obs"][:] = -1
    return State(**arrays)
