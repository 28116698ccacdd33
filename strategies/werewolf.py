"""Scripted strategies for The Werewolves in Village.

Each strategy is compiled by `strategies.common.strategy` with the platform's one signature
(kind, obs, legal, params, memory, rng) -> action; it reads the observation through the named
offsets in `OBS`, never the game state.
"""

from simulator.games.base import FLAG_TALKS, StrategyInfo, StrategyParam
from simulator.games.werewolf.declaration import DECISION, OBS, ROLE, UNKNOWN

from .common import inlined, random_double, strategy, uniform_legal, uniform_where, uniform_where_not


@inlined
def play_at_random(kind, obs, legal, rng):
    """`random`'s choice, inlined into every strategy that falls back on it."""
    if kind == DECISION.wolf_kill:
        target = uniform_where_not(legal, obs, OBS.known, ROLE.werewolf, rng)
        if target >= 0:
            return target
    if kind == DECISION.claim or kind == DECISION.medium_claim:
        return legal.size - 1  # pass
    return uniform_legal(legal, rng)


@strategy
def random_play(kind, obs, legal, params, memory, rng):
    """Uniform over legal actions; the pack kills uniformly among players it knows are not wolves.
    Never claims anything (it is not asked: no FLAG_TALKS)."""
    return play_at_random(kind, obs, legal, rng)


@strategy
def seer_led(kind, obs, legal, params, memory, rng):
    """The seer checks a random unchecked living player and publicly names every wolf found;
    humans vote for a publicly named wolf (with probability `trust`), otherwise at random.
    Werewolves play `random`."""
    if obs[OBS.my_role] == ROLE.werewolf or kind == DECISION.wolf_kill:
        return play_at_random(kind, obs, legal, rng)
    if kind == DECISION.seer_check:
        target = uniform_where(legal, obs, OBS.known, UNKNOWN, rng)
        return target if target >= 0 else uniform_legal(legal, rng)
    if kind == DECISION.claim:
        if obs[OBS.my_role] == ROLE.seer:
            for seat in range(obs[OBS.players]):
                if (legal[seat] and obs[OBS.known + seat] == ROLE.werewolf
                        and obs[OBS.named_wolf + seat] == 0):
                    return seat
        return legal.size - 1  # pass
    if kind != DECISION.suspect_vote and kind != DECISION.sentence_vote:
        return play_at_random(kind, obs, legal, rng)
    # suspect and sentence votes
    trust = params[0]
    if trust >= 1.0 or random_double(rng) < trust:
        target = uniform_where(legal, obs, OBS.named_wolf, 1, rng)
        if target >= 0:
            return target
    return uniform_legal(legal, rng)


def builtin():
    return {
        "random": StrategyInfo(
            "random", random_play,
            "uniform over legal actions; wolves kill uniformly among non-wolves; never claims"),
        "seer-led": StrategyInfo(
            "seer-led", seer_led,
            "the seer checks unchecked players and names the wolves it finds; humans vote for a "
            "named wolf (probability `trust`), otherwise at random; wolves play random",
            params=(StrategyParam("trust", 1.0, 0.0, 1.0,
                                  "probability of following a public claim when voting"),),
            flags=FLAG_TALKS),
    }
