"""Helpers every game's strategies share: uniform choices over a legal mask.

Randomness is one uniform double per choice (`kernel_support.uniform_index`).
"""

from numba import njit

from simulator.games.kernel_support import nth_set_bit, popcount, uniform_index


@njit(cache=True, inline="always")
def uniform_legal(legal, rng):
    """A uniformly random legal action (-1 if none is legal): the pick-th legal action, with
    pick = floor(u * count). A mask of up to 63 actions is read as the bits of one integer and
    the pick-th set bit found without a data-dependent branch (a loop that stops at the pick
    mispredicts its exit at most decisions); see kernel_support.nth_set_bit."""
    if legal.size > 63:
        return uniform_legal_scan(legal, rng)
    bits = 0
    for a in range(legal.size):
        bits |= (1 if legal[a] else 0) << a
    count = popcount(bits)
    if count == 0:
        return -1
    return nth_set_bit(bits, uniform_index(count, rng))


@njit(cache=True, inline="always")
def uniform_legal_scan(legal, rng):
    """`uniform_legal` for masks longer than 63 actions: the same choice by scanning."""
    count = 0
    for a in range(legal.size):
        count += legal[a]
    if count == 0:
        return -1
    pick = uniform_index(count, rng)
    choice = -1
    seen = 0
    for a in range(legal.size):
        choice = a if (legal[a] and seen == pick) else choice
        seen += legal[a]
    return choice


@njit(cache=True, inline="always")
def uniform_where(legal, values, offset, wanted, rng):
    """A uniformly random legal action `a` with values[offset + a] == wanted (-1 if none)."""
    count = 0
    for a in range(legal.size):
        if legal[a] and values[offset + a] == wanted:
            count += 1
    if count == 0:
        return -1
    pick = uniform_index(count, rng)
    for a in range(legal.size):
        if legal[a] and values[offset + a] == wanted:
            if pick == 0:
                return a
            pick -= 1
    return -1


@njit(cache=True, inline="always")
def uniform_where_not(legal, values, offset, unwanted, rng):
    """A uniformly random legal action `a` with values[offset + a] != unwanted (-1 if none)."""
    count = 0
    for a in range(legal.size):
        if legal[a] and values[offset + a] != unwanted:
            count += 1
    if count == 0:
        return -1
    pick = uniform_index(count, rng)
    for a in range(legal.size):
        if legal[a] and values[offset + a] != unwanted:
            if pick == 0:
                return a
            pick -= 1
    return -1
