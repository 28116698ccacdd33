"""Strategies for Spot the spy (the template game).

HOOK: each strategy is `@strategy` with the one signature (kind, obs, legal, params, memory, rng)
-> action; it reads the observation by name (OBS.piece), breaks ties at random with its rng, and
keeps what it wants to remember across the game in `memory` (laid out by name in a `Layout`,
its size declared in StrategyInfo).
`builtin()` lists them with their parameters (name, default, range, meaning).
"""

from simulator.games.base import Layout, StrategyInfo, StrategyParam
from simulator.games._template.declaration import MAX_PLAYERS, OBS, ROLE

from .common import RANDOM, random_double, strategy, uniform_index, uniform_legal

# The memory of `suspicious` (float64 words, zeroed at the start of each game), read by name:
# memory[M.suspicion + seat].
MEMORY = Layout((
    ("rounds_read", 1, "the last round whose ballots were read"),
    ("suspicion", MAX_PLAYERS, "how often each seat voted for a shown citizen"),
))
M = MEMORY.offsets("Memory")


@strategy
def suspicious(kind, obs, legal, params, memory, rng):
    """Citizens remember who voted for shown citizens and vote for the most suspected (ties at
    random); with probability `noise` they vote at random. Spies vote for the most suspected
    citizen that is not a spy, to blend in."""
    n = obs[OBS.players]
    me = obs[OBS.me]
    if memory[M.rounds_read] < obs[OBS.round] - 1:
        for seat in range(n):
            voted = obs[OBS.ballot + seat]
            if voted >= 0 and obs[OBS.shown + voted] == ROLE.citizen:
                memory[M.suspicion + seat] += 1.0
        memory[M.rounds_read] = obs[OBS.round] - 1
    if random_double(rng) < params[0]:
        return uniform_legal(legal, rng)
    spy = obs[OBS.my_role] == ROLE.spy
    best = -1.0
    count = 0
    for seat in range(n):
        if legal[seat] and not (spy and obs[OBS.known_spy + seat] == 1) and seat != me:
            score = memory[M.suspicion + seat]
            if score > best:
                best = score
                count = 1
            elif score == best:
                count += 1
    if count == 0:
        return uniform_legal(legal, rng)
    pick = uniform_index(count, rng)
    for seat in range(n):
        if legal[seat] and not (spy and obs[OBS.known_spy + seat] == 1) and seat != me:
            if memory[M.suspicion + seat] == best:
                if pick == 0:
                    return seat
                pick -= 1
    return uniform_legal(legal, rng)


def builtin():
    return {
        "random": RANDOM,
        "suspicious": StrategyInfo(
            "suspicious", suspicious,
            "votes for the player who most often voted for shown citizens (ties at random)",
            params=(StrategyParam("noise", 0.1, 0.0, 1.0, "chance of a random vote"),),
            memory=MEMORY.size),
    }
