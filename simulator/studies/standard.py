"""The players' standard: is a game's people-like strategy good enough to measure balance with?

A balance number belongs to the game only if its players are good. For each of a game's standard
configs (`STANDARD_CONFIGS` in its declaration, every seat playing its `MEASURING_STRATEGY`) this
module measures the four parts of the standard (docs/strategies.md):

* **beats random**: each team (an individual game: seat 0) wins more with the people-like players
  than with `random` in their seats, the other seats unchanged; both play the same games (common
  random numbers) and the gain has a 95% paired interval over chunks;
* **exploitability**: a best-response search over the team's declared parameters
  (simulator/studies/best_response.py) gains it at most `EXPLOITABLE` over the default players, measured
  again on fresh games;
* **coverage**: every event and ending available in the setup occurs (simulator/statistics/coverage.py), or
  the game says why good players never bring it about (`NEVER_USED`);
* **no seat bias**: identical strategies favour no seat (no seat's rate is beyond the verdict's
  tolerance of the table's average, verdict.seat_findings); the positions in turn order are
  reported beside the same positions with `random` at every seat: random players cannot favour
  a position, so an effect they show too belongs to the rules (the first player's Black Cat in
  Salem), one only the people-like players show to them.

`benchmarks/bench_players.py` runs it all and prints the tables of docs/strategies.md;
`tests/test_standard.py` holds the beat-random and coverage parts on small runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from simulator.studies import best_response, roles
from simulator.statistics import coverage, verdict
from simulator.run import runner
from simulator.setup import config as config_module
from simulator.studies.sweep import toml_value

EXPLOITABLE = 0.02  # a best response may gain its team at most 2 points


@dataclass(frozen=True)
class Setup:
    """One standard config played by the game's people-like strategy at every seat: as the
    config gives it where every seat plays that strategy already (with the parameters the config
    gives each team), else with `strategies = { all = STRATEGY }`."""

    config: str  # the built-in config, e.g. "werewolf/standard-16.toml"
    strategy: str

    @cached_property
    def overrides(self) -> list[str]:
        cfg = config_module.load(self.config, [], None)
        if {slot.name for slot in cfg.slots} == {self.strategy}:
            return []
        return [f"strategies={toml_value({'all': self.strategy})}"]

    def load(self):
        return config_module.load(self.config, self.overrides, None)


def setups(game) -> list[Setup]:
    return [Setup(name, game.measuring_strategy) for name in game.standard_configs]


@dataclass(frozen=True)
class Target:
    """Whose play is measured: a team (a team game) or one seat (an individual game)."""

    label: str
    team: str | None = None
    seat: int | None = None

    def space(self, cfg):
        return best_response.search_space(cfg, team=self.team, seat=self.seat)


def targets(cfg) -> list[Target]:
    """Every team the setup deals (a team game) or seat 0 (an individual game: seats are alike)."""
    game = cfg.game
    if not game.team_game:
        return [Target("seat 0", seat=0)]
    dealt = set(game.dealt_teams(cfg.params)) if game.dealt_teams else set(game.teams)
    return [Target(team, team=team) for team in game.teams if team in dealt]


def beats_random(setup: Setup, target: Target, games: int, seed: int = 0,
                 workers: int | None = None) -> dict:
    """The target's rate with `random` in its seats and with the people-like players, on the
    same games: the people's gain over random with its 95% paired interval."""
    cfg = setup.load()
    space = target.space(cfg)
    randoms = [f"{key}={toml_value('random')}" for key in space.keys]
    out = best_response.paired_gain(setup.config, setup.overrides, None, space, (randoms, []),
                                    games, seed, roles.default_chunk_size(games), workers, None)
    return {"random_rate": out.pop("default_rate"), "people_rate": out.pop("best_rate"), **out}


def exploitability(setup: Setup, target: Target, trials: int, games: int, seed: int = 0,
                   confirm_games: int | None = None, workers: int | None = None,
                   announce=lambda line: None) -> dict:
    """The target's best response over its parameters (best_response.search)."""
    return best_response.search(setup.config, team=target.team, overrides=setup.overrides,
                                trials=trials, games=games, seed=seed,
                                confirm_games=confirm_games, workers=workers,
                                announce=announce, seat=target.seat)


@dataclass
class Play:
    """One run of a standard setup: its coverage gaps and its seat and position findings."""

    games: int
    gaps: list  # coverage.Line: available, under the rare threshold, not exempted
    exempt: list  # (coverage.Line, reason): rare or never, with the game's reason
    seats: list  # verdict.Finding
    positions: list  # verdict.Finding
    tolerance: float
    lines: list = field(default_factory=list)  # every coverage line
    # the positions with `random` at every seat: a turn-order effect that random players show too
    # belongs to the rules (random players cannot favour a position)
    random_positions: list = field(default_factory=list)


def play(setup: Setup, games: int, seed: int = 0, workers: int | None = None) -> Play:
    """Play the setup; read its coverage and its seat and position findings."""
    cfg = setup.load()
    result = runner.run(cfg, games, seed, workers)
    lines = coverage.coverage(result)
    reasons = cfg.game.never_used or {}
    blind = [line for line in lines if line.available and line.mark in ("NEVER", "rare")]
    tolerance = verdict.DEFAULT_TOLERANCE
    tallies = result.tallies
    randoms = []
    if verdict.position_findings(tallies, tolerance):
        at_random = config_module.load(setup.config,
                                       [f"strategies={toml_value({'all': 'random'})}"], None)
        randoms = verdict.position_findings(runner.run(at_random, games, seed, workers).tallies,
                                            tolerance)
    return Play(result.games_played,
                [line for line in blind if line.name not in reasons],
                [(line, reasons[line.name]) for line in blind if line.name in reasons],
                verdict.seat_findings(tallies, tolerance),
                verdict.position_findings(tallies, tolerance), tolerance, lines, randoms)
