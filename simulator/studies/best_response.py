"""Best responses: how much better could one team do by tuning its players' parameters?

A balance number belongs to the game only if no side could easily do much better. This module
searches one team's (or one role's) strategy parameters, the declared `StrategyParam`s with their
ranges, for the highest win rate of the seats it tunes, the other seats keeping their strategies.

* **A kept optimiser.** Optuna's TPE sampler proposes parameter values (integers where the
  parameter is an integer); its successive-halving pruner drops a candidate whose rate after a
  quarter (a half) of its games is already among the worst (racing).
* **Common random numbers.** Every candidate plays the same seed and chunks, so the differences
  between candidates are paired: the deals and the other seats' random draws are the same until
  the tuned choices differ.
* **No winner's curse.** The best of many noisy candidates looks better than it is. The gain
  reported is measured again on fresh seeds: the default and the best found play the same fresh
  games, and the difference of their rates has a paired interval over chunks (the same estimate
  as `fairplay roles`, simulator/studies/roles.py).
* **Alternating teams.** With `rounds`, the teams take turns: each plays its best response to
  the others' current parameters; the rates where the rounds settle are "the balance when every
  team plays its tuned players".

The objective is the win rate of the tuned seats: their wins over their seat-games (a team
game's team win rate when every seat of the team is tuned).
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simulator.setup import config as config_module
from simulator.setup import datafile
from simulator import fileio
from simulator.studies import roles
from simulator.run import runner
from simulator.run.chunks import chunk_count
from simulator.run.results import versions

RUNGS = 3  # a candidate plays a quarter, a half, then all of its games (successive halving)
SAMPLERS = {"tpe": "TPE", "cmaes": "CMA-ES"}  # Optuna's samplers the search may use
TUNED = "tuned"  # the slot tag of the tuned seats' players (Space.table)


class BestResponseError(Exception):
    """A user's mistake (no such team, nothing to tune): one line."""


# A best-response file: what `fairplay best-response` saves as it goes, and `--resume` reads.
BEST_RESPONSE_FILE = datafile.Kind(
    "fairplay.best_response", 1, "best-response",
    error=lambda path, message: BestResponseError(f"{path}: {message}"),
    made_by="fairplay best-response", remedy="start a new search", game_field=None,
    checksummed=True,
    fields={"config": ((str,), datafile.REQUIRED), "trials": ((int,), datafile.REQUIRED),
            "games": ((int,), datafile.REQUIRED), "seed": ((int,), datafile.REQUIRED),
            "searched": ((list,), datafile.REQUIRED), "overrides": ((list,), []),
            "strategy_files": ((dict,), {})})


@dataclass
class Space:
    """What is tuned: the config keys (one per role of the team), the strategy they play, and its
    declared parameters with finite ranges."""

    team: str
    keys: list[str]  # strategies.<role> keys (or strategies."seat.N") set for the tuned seats
    strategy: str
    params: list  # StrategyParam
    fixed: dict  # parameter values the config gives that are not tuned (no finite range)
    roles: list[str]
    seat: int | None = None  # an individual game's one tuned seat (its roles are every role)
    start: dict | None = None  # the tuned parameters as configured: the first candidate

    def configured(self) -> dict:
        """The players as configured (the strategy's defaults where the config gives none)."""
        return {p.name: (int(self.start[p.name]) if p.integer else float(self.start[p.name]))
                for p in self.params}

    def table(self, values: dict) -> dict:
        """The strategy table a config key takes for these parameter values: in a slot of its
        own (TUNED), so that every candidate, the configured players included, plays in the
        same slot layout (where players change team during play, sharing a slot with another
        team's identical players or not moves the rate by itself)."""
        return {"name": self.strategy, **self.fixed, **values, "slot": TUNED}

    def overrides(self, values: dict) -> list[str]:
        """`--set` lines that play these values."""
        from simulator.studies.sweep import toml_value

        return [f"{key}={toml_value(self.table(values))}" for key in self.keys]

    def strategy_overrides(self, ref: str) -> list[str]:
        """`--set` lines that seat another strategy (a built-in name or "file.py:function") in
        the tuned seats, with its own defaults."""
        from simulator.studies.sweep import toml_value

        return [f"{key}={toml_value({'name': ref, 'slot': TUNED})}" for key in self.keys]

    def overrides_of(self, record: dict) -> list[str]:
        """`--set` lines that play a candidate of the search (in the family or outside it)."""
        if record.get("strategy"):
            return self.strategy_overrides(record["strategy"])
        return self.overrides(record["params"])


def search_space(cfg, team: str | None = None, role: str | None = None,
                 seat: int | None = None) -> Space:
    """The tuned seats (every role of `team` the config deals, `role`, or one `seat`: an
    individual game's player against the rest of the table), the one strategy they play, and its
    parameters with finite ranges. Raises BestResponseError when there is nothing to tune."""
    game = cfg.game
    if sum(x is not None for x in (team, role, seat)) != 1:
        raise BestResponseError("give one of --team, --role or --seat")
    if seat is not None:
        if not 0 <= seat < cfg.players:
            raise BestResponseError(f"--seat {seat} is not a seat of {cfg.players} players "
                                    f"(0 to {cfg.players - 1})")
        slots = {int(s) for s in cfg.slot_table[seat]}
        if len(slots) != 1:
            raise BestResponseError(f"seat {seat} plays {len(slots)} strategies (one per role): "
                                    f"tune a role instead (--role)")
        slot = cfg.slots[slots.pop()]
        return _space(slot, f"seat {seat}", [f'strategies."seat.{seat}"'], game.role_names(),
                      seat)
    if role is not None:
        if role not in game.role_names():
            raise BestResponseError(f"unknown role {role!r}; {game.name} has: "
                                    f"{', '.join(game.role_names())}")
        tuned = [role]
        team = game.roles[game.role_index(role)].team or role
    else:
        if team not in game.teams:
            raise BestResponseError(f"unknown team {team!r}; {game.name} has: "
                                    f"{', '.join(game.teams) or 'no teams (use --role)'}")
        dealt = roles.role_counts(cfg)
        tuned = [r.name for i, r in enumerate(game.roles) if r.team == team and dealt[i]]
        if not tuned:
            raise BestResponseError(f"no role of team {team} is dealt in this setup")
    slots = {int(cfg.slot_table[seat, game.role_index(name)])
             for seat in range(cfg.players) for name in tuned}
    if len(slots) != 1:
        raise BestResponseError(f"the {team} roles play {len(slots)} different strategies; tune "
                                f"one role at a time (--role)")
    return _space(cfg.slots[slots.pop()], team, [f"strategies.{name}" for name in tuned], tuned)


def _space(slot, team: str, keys: list[str], tuned: list[str], seat: int | None = None) -> Space:
    tunable = [p for p in slot.info.params if math.isfinite(p.low) and math.isfinite(p.high)
               and p.high > p.low]
    if not tunable:
        raise BestResponseError(f"strategy {slot.name} declares no parameter with a finite "
                                f"range: nothing to tune (use a people-like strategy)")
    given = dict(slot.params)
    fixed = {p.name: given[p.name] for p in slot.info.params if p not in tunable}
    return Space(team, keys, slot.name, tunable, fixed, tuned, seat,
                 {p.name: given[p.name] for p in tunable})


def objective_of(tallies: dict, cfg, space: Space) -> tuple[int, int]:
    """(wins, seat-games) of the tuned seats: the tallies of the tuned roles (a strategy slot may
    be shared with other roles' seats, a role's tallies are its seats' alone); a tuned seat's
    wins over the games."""
    if space.seat is not None:
        return int(tallies["seat_wins"][space.seat]), int(tallies["games"][0])
    index = [cfg.game.role_index(name) for name in space.roles]
    return (sum(int(tallies["role_wins"][r]) for r in index),
            sum(int(tallies["role_games"][r]) for r in index))


def _config(spec: str, overrides, players, code=config_module.USER_CONFIG):
    """A candidate's config; `code` says which user strategy files it may run (a resumed search:
    only those whose contents the search recorded)."""
    return config_module.load(spec, list(overrides), players, code=code)


def strategy_files(cfg) -> dict:
    """The SHA-256 of every user strategy file a config plays, as a search records them."""
    return {slot.name: slot.info.digest for slot in cfg.slots if slot.info.digest}


class Candidate:
    """One candidate's run, played rung by rung: each rung extends the same run (the same seed
    and chunks), so a candidate that reaches the last rung played exactly `games` games once."""

    def __init__(self, spec, overrides, players, space, played, seed, chunk_size, code):
        """`played`: the `--set` lines of the candidate's players in the tuned seats."""
        self.cfg = _config(spec, list(overrides) + list(played), players, code)
        self.space, self.seed, self.chunk_size = space, seed, chunk_size
        self.result = None

    def rate(self, games: int, workers, scheduler) -> float:
        if self.result is None:
            self.result = runner.start(self.cfg, games, self.seed, self.chunk_size)
        else:
            self.result.data["games_requested"], self.result.data["complete"] = games, False
        try:
            runner.execute(self.result, workers, scheduler=scheduler)
        except runner.Interrupted:  # Ctrl-C: the search stops as its caller expects
            raise KeyboardInterrupt from None
        wins, seat_games = objective_of(self.result.tallies, self.cfg, self.space)
        return wins / seat_games if seat_games else math.nan


def check_counts(games: int, chunk_size: int | None, confirm_games: int | None) -> None:
    """Refuse, before any game is played, counts a search cannot measure with: the
    confirmation's paired interval needs two chunks of its fresh games (chunks of at least
    roles.MIN_CHUNK_GAMES), so -n (whose double they default to) and --confirm-games must
    give that many."""
    least = 2 * roles.MIN_CHUNK_GAMES
    if chunk_size is not None and chunk_size < 1:
        raise BestResponseError(f"--chunk-size must be at least 1, got {chunk_size}")
    if confirm_games is not None and confirm_games < least:
        raise BestResponseError(f"--confirm-games must be at least {least} (the confirmation's "
                                f"interval needs two chunks of {roles.MIN_CHUNK_GAMES} fresh "
                                f"games), got {confirm_games}")
    if games < 1 or (confirm_games is None and 2 * games < least):
        raise BestResponseError(f"-n must be at least {least // 2} (the confirmation plays "
                                f"2 × -n fresh games, and its interval needs two chunks of "
                                f"{roles.MIN_CHUNK_GAMES}), got {games}")
    # the confirmation's paired interval keeps a count per chunk of its fresh games
    confirm, what = (2 * games, "-n (the confirmation's 2 × -n)") if confirm_games is None \
        else (confirm_games, "--confirm-games")
    try:
        roles.check_chunk_count(confirm, roles.default_chunk_size(confirm), what)
    except roles.RolesError as exc:
        raise BestResponseError(str(exc)) from None


def rungs_of(games: int, chunk_size: int) -> list[int]:
    """A quarter, a half and all of the games, each a whole number of chunks."""
    out = []
    for k in range(RUNGS):
        n = max(chunk_size, (games >> (RUNGS - 1 - k)) // chunk_size * chunk_size)
        if not out or n > out[-1]:
            out.append(n)
    return out


# --- the search: a screen of every one-parameter corner, then the sampler, then confirmation ----
# The screen tries, for each parameter alone (the others as configured), both ends of its range
# and these interior points: a deviation that is a step at one value, or best at an end, is
# never left to a sampler that might not draw it.
SCREEN_INTERIOR = (0.25, 0.5, 0.75)


def _at(p, share: float):
    value = p.low + share * (p.high - p.low)
    return int(round(value)) if p.integer else float(value)


def screen_points(params, default: dict) -> list[dict]:
    """The configured values first, then each parameter alone at both ends of its range and at
    SCREEN_INTERIOR (the others as configured), each point once."""
    points = [dict(default)]
    for p in params:
        for share in (0.0, 1.0, *SCREEN_INTERIOR):
            point = dict(default, **{p.name: _at(p, share)})
            if point not in points:
                points.append(point)
    return points


def combined_point(params, default: dict, records: list[dict]) -> dict | None:
    """Every parameter at the value of its best screened point where that beat the configured
    values (the screen's one-parameter gains put together); None when none did."""
    complete = [r for r in records if r["state"] == "complete"]
    base = next((r["value"] for r in complete if r["params"] == default), None)
    if base is None:
        return None
    point = dict(default)
    for p in params:
        alone = [r for r in complete if all(r["params"][q.name] == default[q.name]
                                           for q in params if q.name != p.name)
                 and r["params"][p.name] != default[p.name]]
        best = max(alone, key=lambda r: r["value"], default=None)
        if best is not None and best["value"] > base:
            point[p.name] = best["params"][p.name]
    return point if point != default else None


def range_coverage(params, records: list[dict]) -> list[dict]:
    """For each parameter: the span of the values tried as a share of its range, and whether
    both of its ends were tried (the search file records it)."""
    out = []
    for p in params:
        tried = [r["params"][p.name] for r in records if p.name in r["params"]]
        span = (max(tried) - min(tried)) / (p.high - p.low) if tried else 0.0
        out.append({"name": p.name, "low": p.low, "high": p.high, "tried": len(set(tried)),
                    "span": float(span), "ends": bool(tried) and min(tried) <= p.low
                    and max(tried) >= p.high})
    return out


def explore(params, default: dict, candidate, trials: int, rungs: list[int], seed: int,
            done=(), on_trial=None, announce=lambda line: None, sampler: str = "tpe") -> list:
    """The candidates of a search, as records {"params", "value", "state", "rungs", "stage"}:
    the screen (`screen_points`), the screen's gains put together (`combined_point`), then
    `trials` candidates of Optuna's sampler ("tpe" or "cmaes") over the whole box, which has
    seen the screen. `candidate(values)` returns a function `rate(games)` that plays the
    candidate's first `games` games (each rung extends the same run: common random numbers);
    racing (Optuna's successive-halving pruner) drops a candidate whose rate after a rung is
    already among the worst. `done`: the records of an interrupted search, which are not played
    again."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.ERROR)
    distributions = {
        p.name: optuna.distributions.IntDistribution(int(p.low), int(p.high)) if p.integer
        else optuna.distributions.FloatDistribution(float(p.low), float(p.high))
        for p in params}
    # Optuna's samplers take a seed below 2**32; a larger one is folded into that range (a
    # seed below it is its own)
    folded = seed % 2**32
    chosen = (optuna.samplers.CmaEsSampler(seed=folded, warn_independent_sampling=False)
              if sampler == "cmaes" else optuna.samplers.TPESampler(seed=folded))
    study = optuna.create_study(
        direction="maximize", sampler=chosen,
        pruner=optuna.pruners.SuccessiveHalvingPruner(min_resource=1, reduction_factor=2))
    records = list(done)
    for record in records:  # a resumed search: what was tried already
        study.add_trial(optuna.trial.create_trial(
            params=record["params"], distributions=distributions,
            value=record["value"] if record["state"] == "complete" else None,
            intermediate_values={i: v for i, v in enumerate(record.get("rungs", []))},
            system_attrs=record.get("pruner", {}),  # the racing's rungs, as it left them
            state=optuna.trial.TrialState.COMPLETE if record["state"] == "complete"
            else optuna.trial.TrialState.PRUNED))

    def evaluate(trial, stage) -> float:
        values = {p.name: trial.suggest_int(p.name, int(p.low), int(p.high)) if p.integer
                  else trial.suggest_float(p.name, float(p.low), float(p.high))
                  for p in params}
        rate = candidate(values)
        seen, value = [], math.nan
        for step, n in enumerate(rungs):
            value = rate(n)
            seen.append(value)
            trial.report(value, step)
            if step < len(rungs) - 1 and trial.should_prune():
                records.append({"params": values, "value": value, "state": "pruned",
                                "rungs": seen, "stage": stage})
                raise optuna.TrialPruned()
        records.append({"params": values, "value": value, "state": "complete", "rungs": seen,
                        "stage": stage})
        return value

    def tried(point):
        return any(r["params"] == point for r in records)

    def play(point, stage):
        if point is not None:
            study.enqueue_trial(point)
        study.optimize(lambda trial: evaluate(trial, stage), n_trials=1, catch=())
        # the racing's record of the candidate (which rungs it completed, at what rate), kept so
        # that a resumed search races as the uninterrupted one would have
        records[-1]["pruner"] = {key: value for key, value in study.trials[-1].system_attrs.items()
                                 if key.startswith("completed_rung_")}
        if on_trial:
            on_trial(records)
        announce(f"{stage} candidate {len(records)}: {_describe(records[-1])}")

    for point in screen_points(params, default):
        if not tried(point):
            play(point, "screen")
    together = combined_point(params, default, records)
    if together is not None and not tried(together):
        play(together, "screen")
    sampled = sum(1 for r in records if r.get("stage") == "sampler")
    for _ in range(max(0, trials - sampled)):
        play(None, "sampler")
    return records


def search(spec: str, team: str | None = None, role: str | None = None, overrides=(),
           players: int | None = None, trials: int = 40, games: int = 20_000, seed: int = 0,
           chunk_size: int | None = None, confirm_games: int | None = None,
           workers: int | None = None, scheduler: str | None = None, done: list | None = None,
           on_trial=None, announce=lambda line: None, seat: int | None = None,
           code=config_module.USER_CONFIG, candidates=(), sampler: str = "tpe") -> dict:
    """One best-response search on `games` games of seed `seed` for every candidate (common
    random numbers): the screen of every one-parameter corner, `trials` candidates of the
    sampler (`explore`), and the players from outside the family: the game's other built-in
    strategies and the user's `candidates` ("file.py:function", as a config names one), each on
    all the games. The best of them all and the default are then measured again on
    `confirm_games` fresh games. `done`: the candidates of an interrupted search. Returns the
    search's JSON data. Ctrl-C raises KeyboardInterrupt with `on_trial` having seen every
    finished candidate."""
    check_counts(games, chunk_size, confirm_games)
    cfg = _config(spec, overrides, players, code)
    space = search_space(cfg, team, role, seat)
    chunk_size = chunk_size or max(1, min(runner.DEFAULT_CHUNK_SIZE, games // 32))
    if games < chunk_size:
        raise BestResponseError(f"-n {games:,} must be at least one chunk ({chunk_size:,} games)")
    if sampler not in SAMPLERS:
        raise BestResponseError(f"unknown sampler {sampler!r}: {', '.join(SAMPLERS)}")
    confirm_games = confirm_games or 2 * games
    rungs = rungs_of(games, chunk_size)
    default = space.configured()
    outside = [(name, "built-in") for name in sorted(cfg.game.strategies())
               if name != space.strategy] + [(ref, "yours") for ref in candidates]
    for ref, _ in outside:  # a bad file or name is refused before anything is played
        _config(spec, list(overrides) + space.strategy_overrides(ref), players, code)
    previous = list(done or [])
    check_records(previous, space, "the search's file")
    inside = [r for r in previous if "strategy" not in r]
    tried_outside = [r for r in previous if "strategy" in r]

    def candidate(values):
        played = Candidate(spec, overrides, players, space, space.overrides(values), seed,
                           chunk_size, code)
        return lambda n: played.rate(n, workers, scheduler)

    def seen(records):
        if on_trial:
            on_trial(records + tried_outside)

    records = explore(space.params, default, candidate, trials, rungs, seed, inside, seen,
                      announce, sampler)
    for ref, whose in outside:  # every game of the search, no racing: a few, and all different
        if any(r["strategy"] == ref for r in tried_outside):
            continue
        played = Candidate(spec, overrides, players, space, space.strategy_overrides(ref), seed,
                           chunk_size, code)
        value = played.rate(games, workers, scheduler)
        tried_outside.append({"strategy": ref, "whose": whose, "params": {}, "value": value,
                              "state": "complete", "rungs": [value], "stage": "outside"})
        seen(records)
        announce(f"outside the family: {ref} ({whose}): {100 * value:.2f}%")
    records = records + tried_outside
    complete = [r for r in records if r["state"] == "complete"]
    best = max(complete, key=lambda r: (r["value"], -records.index(r)))
    base = next((r["value"] for r in records
                 if "strategy" not in r and r["params"] == default and r["state"] == "complete"),
                None)
    announce(f"measuring the default and the best found again on {confirm_games:,} fresh games")
    confirm = paired_gain(spec, overrides, players, space,
                          (space.overrides(default), space.overrides_of(best)), confirm_games,
                          seed + 1_000_003, roles.default_chunk_size(confirm_games), workers,
                          scheduler, code)
    searched_gain = None if base is None else best["value"] - base
    return {
        **BEST_RESPONSE_FILE.header(),
        "default_rate_searched": base,
        "game": cfg.game.name, "config": spec, "overrides": list(overrides),
        "players": cfg.players, "team": space.team, "roles": space.roles, "seat": space.seat,
        "strategy": space.strategy, "keys": space.keys, "fixed": space.fixed,
        "strategy_files": strategy_files(cfg),
        "params": [{"name": p.name, "low": p.low, "high": p.high, "default": p.default,
                    "integer": p.integer, "meaning": p.meaning} for p in space.params],
        "games": games, "trials": trials, "seed": seed, "chunk_size": chunk_size,
        "rungs": rungs, "sampler": sampler,
        "method": (f"a screen of every parameter alone at both ends of its range and at "
                   f"{', '.join(f'{q:g}' for q in SCREEN_INTERIOR)} of it, the screen's gains "
                   f"together, then {trials} candidates of Optuna's {SAMPLERS[sampler]} "
                   f"sampler with a successive-halving pruner, and the game's other built-in "
                   f"strategies and the user's candidates on every game; every candidate on "
                   f"the same seed (common random numbers)"),
        "searched": records, "coverage": range_coverage(space.params, records),
        "default": default, "best": best["params"],
        "best_strategy": best.get("strategy"),
        "searched_gain": searched_gain,
        "confirm": confirm,
        "set": space.overrides_of(best),
        "versions": versions(),
        "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
    }


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _in_range(p, value) -> bool:
    return _number(value) and p.low <= value <= p.high and (not p.integer or value == int(value))


def fits(values, space: Space, every: bool = True) -> bool:
    """Are `values` parameter values of `space` ({name: number in its range}; `every`: one for
    each of its parameters)?"""
    params = {p.name: p for p in space.params}
    return isinstance(values, dict) and (set(values) == set(params) if every else
                                         set(values) <= set(params)) and \
        all(_in_range(params[name], value) for name, value in values.items())


def check_records(records: list, space: Space, where: str) -> None:
    """Refuse, before anything is played, candidates of an interrupted search that do not fit
    what is searched (a parameter it does not have, a value outside its range, a rate that is
    not a number): one line."""
    for record in records:
        outside = isinstance(record, dict) and "strategy" in record
        ok = isinstance(record, dict) and _number(record.get("value")) and (
            isinstance(record.get("strategy"), str) and record["strategy"] and
            record.get("params") == {} if outside else
            fits(record.get("params"), space) and
            isinstance(record.get("rungs", []), list) and
            all(_number(v) for v in record.get("rungs", [])) and
            isinstance(record.get("pruner", {}), dict) and
            all(isinstance(k, str) and _number(v) for k, v in record.get("pruner", {}).items()))
        if not ok:
            names = ", ".join(p.name for p in space.params)
            raise BestResponseError(f"{where}: a candidate does not fit the parameters of "
                                    f"{space.strategy} searched ({names}, each in its range)")


def _describe(record: dict) -> str:
    values = ", ".join(f"{k}={v:g}" for k, v in record["params"].items())
    state = "" if record["state"] == "complete" else " (dropped early)"
    return f"{values}: {100 * record['value']:.2f}%{state}"


def paired_gain(spec, overrides, players, space, variants, games: int, seed: int,
                chunk_size: int, workers, scheduler, code=config_module.USER_CONFIG) -> dict:
    """Two variants of the tuned seats' players (two lists of overrides) on the same games
    (seed `seed`): their rates and the second's gain over the first with its 95% paired
    interval over chunks (roles.paired_difference: the chunk is the unit, the game's correlations
    inside it; a team's seat-games may differ between the two where players change teams during
    play)."""
    cfgs = [_config(spec, list(overrides) + list(variant), players, code)
            for variant in variants]
    results = [runner.start(cfg, games, seed, chunk_size) for cfg in cfgs]
    chunks = chunk_count(games, chunk_size)
    wins = np.zeros((2, chunks), dtype=np.int64)
    seat_games = np.zeros((2, chunks), dtype=np.int64)
    index = {id(result): i for i, result in enumerate(results)}

    def on_done(result, chunk, tallies, seconds):
        i = index[id(result)]
        wins[i, chunk], seat_games[i, chunk] = objective_of(tallies, cfgs[i], space)
        result.add_chunk(chunk, tallies)

    jobs = ((result, chunk) for chunk in range(chunks) for result in results)
    runner.play_jobs(results, jobs, workers, on_done, isolate=True, scheduler=scheduler)
    rates = wins.sum(axis=1) / np.maximum(seat_games.sum(axis=1), 1)
    gain, low, high, _ = roles.paired_difference(wins[1], seat_games[1], wins[0], seat_games[0])
    return {"games": games, "seed": seed, "chunk_size": chunk_size, "chunks": chunks,
            "default_rate": float(rates[0]), "best_rate": float(rates[1]),
            "gain": gain, "low": low, "high": high,
            "excludes_zero": bool(low > 0 or high < 0)}


def rounds(spec: str, teams: list[str], count: int, overrides=(), players=None, **kwargs) -> dict:
    """Alternating best responses: round k tunes teams[k % len(teams)] against the others'
    current parameters. Returns every round's search and the settled overrides."""
    current = list(overrides)
    out = []
    for k in range(count):
        team = teams[k % len(teams)]
        data = search(spec, team=team, overrides=current, players=players, **kwargs)
        keys = set(data["keys"])
        current = [o for o in current if o.split("=", 1)[0] not in keys] + data["set"]
        out.append(data)
    return {"rounds": out, "settled": current}


def toml_text(data: dict, out_dir: Path) -> str:
    """A config that `extends` the searched one and plays the best parameters found (after
    `rounds`, every team's)."""
    from simulator.studies.sweep import toml_key, toml_value

    spec = data["config"]
    path = Path(spec)
    if path.exists():
        extends = os.path.relpath(path.resolve(), out_dir.resolve())
    else:
        extends = str(config_module.locate(spec).relative_to(config_module.builtin_config_dir()))
    who = data["team"] if data.get("seat") is not None else f"team {data['team']}"
    lines = [f"# the best response of {who} found by fairplay best-response",
             f"extends = {toml_value(Path(extends).as_posix())}"]
    if data.get("players_arg") is not None:
        lines.append(f"players = {int(data['players_arg'])}")
    tuned = data.get("settled") or list(data.get("overrides", [])) + data["set"]
    keys = {text.split("=", 1)[0] for text in tuned}
    for text in data.get("overrides", []):
        if text.split("=", 1)[0] not in keys:
            lines.append(f"# also given: --set {text}")
    lines += ["", "[strategies]"]
    for text in tuned:
        path, value = config_module.parse_override(text, "")
        if path[0] == "strategies" and len(path) == 2:
            lines.append(f"{toml_key(path[1])} = {toml_value(value)}")
    return "\n".join(lines) + "\n"


def save(data: dict, path) -> None:
    """Write a search file, checksummed whole (a changed candidate or config is refused)."""
    fileio.write_atomically(path, json.dumps(BEST_RESPONSE_FILE.seal(data), indent=1,
                                             ensure_ascii=False))


def load(path) -> dict:
    """A best-response file (read as data: nothing it names is run)."""
    data = BEST_RESPONSE_FILE.load(path)
    searched = data["searched"]
    if not all(isinstance(r, dict) and isinstance(r.get("params"), dict) and
               isinstance(r.get("value"), (int, float)) and r.get("state") in ("complete", "pruned")
               for r in searched):
        raise BestResponseError(f"{path}: corrupt best-response file (its candidates)")
    if not all(isinstance(k, str) and isinstance(v, str)
               for k, v in data["strategy_files"].items()):
        raise BestResponseError(f"{path}: corrupt best-response file (its strategy files)")
    return data



# --- a whole search, saved as it goes: what `fairplay best-response` and the workbench run ------
@dataclass
class Request:
    """One best-response search as a user asks for it (the command's arguments, stored in its
    file so that `--resume` repeats it)."""

    config: str
    team: str | None = None
    role: str | None = None
    seat: int | None = None
    players: int | None = None
    overrides: tuple = ()
    trials: int = 40
    games: int = 20_000
    seed: int = 0
    chunk_size: int | None = None
    confirm_games: int | None = None
    rounds: int = 1
    command: str = ""
    candidates: tuple = ()  # the user's players from outside the family ("file.py:function")
    sampler: str = "tpe"

    def arguments(self, files: dict) -> dict:
        """What the search's file records of the request (its `--resume` reads them back)."""
        return {"team_arg": self.team, "role_arg": self.role, "seat_arg": self.seat,
                "players_arg": self.players, "strategy_files": files,
                "confirm_games": self.confirm_games, "trials": self.trials,
                "games": self.games, "seed": self.seed, "config": self.config,
                "overrides": list(self.overrides), "command": self.command,
                "candidates": list(self.candidates), "sampler": self.sampler}

    @classmethod
    def of_file(cls, saved: dict) -> "Request":
        """The request a search file recorded (a search to resume)."""
        return cls(saved["config"], saved.get("team_arg"), saved.get("role_arg"),
                   saved.get("seat_arg"), saved.get("players_arg"),
                   tuple(saved.get("overrides", [])), saved["trials"], saved["games"],
                   saved["seed"], saved.get("chunk_size"), saved.get("confirm_games"),
                   command=saved.get("command", ""),
                   candidates=tuple(saved.get("candidates", [])),
                   sampler=saved.get("sampler", "tpe"))


class SearchStopped(Exception):
    """A search stopped by a strategy's fault: the candidates finished are saved."""

    def __init__(self, fault: runner.RunFault, output: Path):
        super().__init__(str(fault))
        self.fault, self.output = fault, output


def play_search(request: Request, output: Path, workers: int | None = None,
                scheduler: str | None = None, done=(), code=config_module.USER_CONFIG,
                announce=lambda line: None) -> dict:
    """Run `request` (continuing from the candidates `done`), saving the search to `output`
    after every candidate and, at the end, the whole search there and the config that plays its
    best parameters beside it (OUTPUT.toml). Ctrl-C leaves the finished candidates saved
    (KeyboardInterrupt goes on up); a strategy's fault too (SearchStopped)."""
    from simulator.studies.sweep import toml_value

    files = strategy_files(_config(request.config, list(request.overrides), request.players,
                                   code))
    for ref in request.candidates:  # the user's own players: recorded, so a resume runs them
        files.update(strategy_files(_config(
            request.config, list(request.overrides) + [f"strategies.all={toml_value(ref)}"],
            request.players, code)))
    arguments = request.arguments(files)
    tried = list(done)

    def checkpoint(records):
        tried[:] = records
        save({**BEST_RESPONSE_FILE.header(), "complete": False,
              "chunk_size": request.chunk_size, "searched": records, **arguments}, output)

    common = dict(overrides=list(request.overrides), players=request.players,
                  trials=request.trials, games=request.games, seed=request.seed,
                  chunk_size=request.chunk_size, confirm_games=request.confirm_games,
                  workers=workers, scheduler=scheduler, announce=announce,
                  candidates=request.candidates, sampler=request.sampler)
    try:
        if request.rounds > 1:
            teams = list(_config(request.config, list(request.overrides), request.players)
                         .game.teams)
            first = request.team or teams[0]
            order = teams[teams.index(first):] + teams[:teams.index(first)]
            data = rounds(request.config, order, request.rounds, **common)
            result = dict(data["rounds"][-1], rounds=data["rounds"], settled=data["settled"],
                          **arguments, complete=True)
        else:
            common.pop("overrides")
            common.pop("players")
            result = dict(search(request.config, request.team, request.role,
                                 list(request.overrides), request.players, done=list(done),
                                 on_trial=checkpoint, seat=request.seat, code=code, **common),
                          **arguments, complete=True)
    except runner.RunFault as fault:
        checkpoint(list(tried))  # (the file exists even when no candidate finished)
        raise SearchStopped(fault, output) from None
    save(result, output)
    toml_path = output.with_suffix(".toml")
    fileio.write_atomically(toml_path, toml_text(result, toml_path.parent))
    return result
