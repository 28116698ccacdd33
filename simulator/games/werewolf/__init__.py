"""The Werewolves in Village (狼人小鎮): the base game (villagers, werewolves, one seer).

Team game: humans against werewolves. 8-23 role players (the simulator is the moderator).
Night first; each day an open suspect vote, then a secret sentence vote between two suspects.
"""

from simulator.games.base import GameSpec

from . import declaration as d
from .kernel import play
from .metrics import TALLY_SPECS, Tallies
from .params import build_setup, describe_setup, load_params
from .trace import decode_trace


def _strategies():
    from strategies.werewolf import builtin

    return builtin()


GAME = GameSpec(
    name=d.NAME,
    title=d.TITLE,
    source=d.SOURCE,
    min_players=d.MIN_PLAYERS,
    max_players=d.MAX_PLAYERS,
    scoring="team",
    teams=d.TEAMS,
    roles=d.ROLES,
    decisions=d.DECISIONS,
    observation=d.OBSERVATION,
    end_conditions=d.END_CONDITIONS,
    events=d.EVENTS,
    length_unit="days",
    default_config="werewolf/base.toml",
    provisional=(),
    load_params=load_params,
    build_setup=build_setup,
    tally_specs=TALLY_SPECS,
    tally_class=Tallies,
    kernel=play,
    decode_trace=decode_trace,
    strategies=_strategies,
    describe_setup=describe_setup,
)
