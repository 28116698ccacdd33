"""What every strategy uses: the `strategy` decorator and uniform choices over a legal mask.

A strategy is a function (kind, obs, legal, params, memory, rng) -> action, compiled by
`@strategy` with the platform's one signature (simulator.games.base.STRATEGY_SIGNATURE). Helpers
it calls are `@compiled` or `@inlined` (cached, no reference counting: they never allocate).
Randomness is one uniform double per choice (`random_double`, `uniform_index`), from the rng the
strategy is handed.
"""

from numba import njit

from simulator.games.base import FLAG_BLIND, STRATEGY_SIGNATURE, StrategyInfo
from simulator.games.engine import compiled, inlined  # noqa: F401  (for strategy modules)
from simulator.games.kernel_support import compile_when_first_used
from simulator.games.kernel_support import nth_set_bit, popcount, random_double, uniform_index

__all__ = ["strategy", "compiled", "inlined", "random_double", "uniform_index", "uniform_legal",
           "uniform_legal_scan", "user_strategy", "bounds_checked", "uniform_where", "uniform_where_not", "random_play", "RANDOM"]


def strategy(function):
    """Compile `function` as a strategy: the one signature, cached, and without reference counting.

    A strategy is called through a function pointer that Numba cannot inline, so every reference
    count it touched would be a real call on every decision. The kernel owns everything a strategy
    sees for the whole call, so a strategy that does not allocate needs no reference counting. One
    that does allocate (a user's, say) cannot be compiled that way and keeps the ordinary runtime.
    """
    return compile_when_first_used(njit(cache=True, _nrt=False)(function))


def user_strategy(function):
    """Compile a user's strategy with every index it uses checked: Numba checks no bounds by
    default, so a user's `memory[100000] = 1` would write over the state and the run would go
    on. Built-in strategies are not checked: the contract suite and their tests hold them."""
    return njit(STRATEGY_SIGNATURE, cache=True, boundscheck=True)(function)


def bounds_checked(compiled, parameters: int):
    """The entry the kernel calls for a user's compiled strategy: it is handed exactly the
    `parameters` it declared, so reading one more is an IndexError (a fault naming it) too."""
    def checked(kind, obs, legal, params, memory, rng):
        return compiled(kind, obs, legal, params[:parameters], memory, rng)

    # a closure over `compiled` and `parameters`: compiled in each process (a fraction of a second)
    return njit(STRATEGY_SIGNATURE, boundscheck=True)(checked)


@inlined
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


@inlined
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


@inlined
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


@inlined
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


@strategy
def random_play(kind, obs, legal, params, memory, rng):
    """Uniform over the legal actions (blind: it is shown no observation)."""
    return uniform_legal(legal, rng)


# Every game's built-in `random` strategy (werewolf's own differs: its pack kills non-wolves).
RANDOM = StrategyInfo("random", random_play, "uniform over the legal actions", flags=FLAG_BLIND)
