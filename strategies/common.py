"""Helpers every game's strategies share: uniform choices over a legal mask.

Randomness uses `random_double(rng)` (exactly `rng.random()`, called more cheaply) scaled to the
range: one uniform double per choice. (The bias of
floor(u * k) for k <= 64 is below 2**-46, far under anything a simulation can detect, and it is
several times faster than Generator.integers inside Numba.)
"""

from numba import njit

from simulator.games.kernel_support import popcount, random_double


@njit(cache=True, inline="always")
def uniform_index(count, rng):
    """A uniform integer in [0, count)."""
    return int(random_double(rng) * count)


@njit(cache=True, inline="always")
def uniform_legal(legal, rng):
    """A uniformly random legal action (-1 if none is legal): the pick-th legal action, with
    pick = floor(u * count). A mask of up to 63 actions is read as the bits of one integer and
    the pick-th set bit is found by halving, without a data-dependent branch (a loop that stops
    at the pick mispredicts its exit at most decisions)."""
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
def _skip_low(bits, pick, position, width):
    """One halving step of `nth_set_bit`: when the wanted bit is above the low `width` bits,
    drop them."""
    low = popcount(bits & ((1 << width) - 1))
    above = pick >= low
    return ((bits >> width) if above else bits, (pick - low) if above else pick,
            (position + width) if above else position)


@njit(cache=True, inline="always")
def nth_set_bit(bits, pick):
    """The position of the pick-th (0-based) set bit of a non-negative int64 with more than
    `pick` set bits."""
    position = 0
    bits, pick, position = _skip_low(bits, pick, position, 32)
    bits, pick, position = _skip_low(bits, pick, position, 16)
    bits, pick, position = _skip_low(bits, pick, position, 8)
    bits, pick, position = _skip_low(bits, pick, position, 4)
    bits, pick, position = _skip_low(bits, pick, position, 2)
    bits, pick, position = _skip_low(bits, pick, position, 1)
    return position


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
