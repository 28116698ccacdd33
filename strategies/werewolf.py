"""Scripted strategies for The Werewolves in Village.

Each strategy is compiled by `simulator.games.base.strategy` with the platform's one signature
(kind, obs, legal, params, rng) -> action; it reads the observation through the named offsets in
`OBS`, never the game state.
"""

from simulator.games.base import FLAG_TALKS, StrategyInfo, strategy
from simulator.games.werewolf.declaration import (
    CLAIM, OBS, SEER, SEER_CHECK, UNKNOWN, WOLF, WOLF_KILL,
)

from .common import uniform_legal, uniform_where, uniform_where_not


@strategy
def random_play(kind, obs, legal, params, rng):
    """Uniform over legal actions; the pack kills uniformly among players it knows are not wolves.
    Never claims anything (it is not asked: no FLAG_TALKS)."""
    if kind == WOLF_KILL:
        target = uniform_where_not(legal, obs, OBS.known_team, WOLF, rng)
        if target >= 0:
            return target
    if kind == CLAIM:
        return legal.size - 1  # pass
    return uniform_legal(legal, rng)


@strategy
def seer_led(kind, obs, legal, params, rng):
    """The seer checks a random unchecked living player and publicly names every wolf found;
    humans vote for a publicly named wolf (with probability `trust`), otherwise at random.
    Werewolves play `random`."""
    me = obs[OBS.me]
    if obs[OBS.known_team + me] == WOLF or kind == WOLF_KILL:
        return random_play(kind, obs, legal, params, rng)
    if kind == SEER_CHECK:
        target = uniform_where(legal, obs, OBS.known_team, UNKNOWN, rng)
        return target if target >= 0 else uniform_legal(legal, rng)
    if kind == CLAIM:
        if obs[OBS.my_role] == SEER:
            for seat in range(obs[OBS.players]):
                if (legal[seat] and obs[OBS.known_team + seat] == WOLF
                        and obs[OBS.named_wolf + seat] == 0):
                    return seat
        return legal.size - 1  # pass
    # suspect and sentence votes
    trust = params[0]
    if trust >= 1.0 or rng.random() < trust:
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
            params={"trust": 1.0}, flags=FLAG_TALKS),
    }
