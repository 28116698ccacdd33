"""Players near equilibrium: iterated best responses until no team gains more than a tolerance.

A balance verdict is only as good as the assumption that every side plays well. `equilibrate`
drives the best-response search (simulator/studies/best_response.py) to a fixed point:

* **Passes and turns.** A pass gives every team a turn, in order; in its turn a team searches
  its best response to the others' *current* parameters (the full search: the screen of every
  one-parameter corner, the sampler, play from outside the family), confirmed on fresh games
  against its own current players: the gain and its 95% paired interval.
* **Damped moves (fictitious play).** Plain alternation can cycle (each side jumping to the
  corner that beats the other's last corner). A team whose gain is real (its interval above 0)
  and not already within the tolerance moves only part of the way, to the average of its
  starting players and every best response it has moved to so far: its n-th move takes
  1/(n + 1) of the step (integers rounded). In a two-action zero-sum game this is fictitious
  play, whose averages converge to the equilibrium (`tests/test_equilibrium.py` checks it on
  matching pennies). A best response from outside the family (another strategy) cannot be
  expressed by parameters: the team then moves towards its family's best candidate of the
  search (where that beat its current players on the search's games), and the outside gain,
  reported, keeps the iteration from converging until the family matches it.
* **Converged** when, in one pass, every team's confirmed gain lies within the tolerance with
  95% confidence (its interval's upper end below it; default 1 point): then no team moved in
  that pass, every gain was measured against the same final players, and they are the
  equilibrium players. Otherwise the passes run out and the file says "not converged", with
  the last pass's gains (the cycle's amplitude).
* **Saved as it goes.** The file (checksummed: a changed or damaged file is refused) holds
  every turn done, the players after each (the parameters' path) and the candidates of the
  search under way; `--resume` continues exactly where the interrupted run stopped, and each
  turn's seed depends only on its number, so a resumed run plays the same games.

The players are saved as `--set` lines and as a TOML config extending the searched one.
"""

from __future__ import annotations

import datetime as _dt
import json
from dataclasses import dataclass, field
from pathlib import Path

from simulator import fileio
from simulator.run.results import versions
from simulator.setup import config as config_module
from simulator.setup import datafile
from simulator.studies import best_response as br

TOLERANCE = 0.01  # the largest gain a team may have at an equilibrium (a share: 1 point)
TURN_SEED_STEP = 7_919  # turn k searches on seed + k × this: fresh games every turn


class EquilibriumError(Exception):
    """A user's mistake or a refused file: one line."""


EQUILIBRIUM_FILE = datafile.Kind(
    "fairplay.equilibrium", 1, "equilibrium",
    error=lambda path, message: EquilibriumError(f"{path}: {message}"),
    made_by="fairplay equilibrate", remedy="equilibrate again", game_field="game",
    checksummed=True,
    fields={"config": ((str,), datafile.REQUIRED), "teams": ((list,), datafile.REQUIRED),
            "tolerance": ((float, int), datafile.REQUIRED),
            "passes": ((int,), datafile.REQUIRED), "turns": ((list,), datafile.REQUIRED),
            "start": ((dict,), datafile.REQUIRED), "players": ((dict,), datafile.REQUIRED),
            "search": ((dict,), datafile.REQUIRED), "complete": ((bool,), datafile.REQUIRED),
            "converged": ((bool,), datafile.REQUIRED),
            "under_way": ((list,), []), "overrides": ((list,), []),
            "strategy_files": ((dict,), {})})


# --- the iteration, apart from the games: what the tests check on a game solved in closed form --
def moved(current: dict, best: dict, integers: set, moves: int) -> dict:
    """The players after a team's `moves`-th move (1, 2, ...) towards its best response `best`:
    the average of the starting players and every best response so far, as a running mean."""
    step = 1.0 / (moves + 1)
    out = {}
    for name, value in current.items():
        target = best.get(name, value)
        new = value + step * (target - value)
        out[name] = int(round(new)) if name in integers else float(new)
    return out


def within(turn: dict, tolerance: float) -> bool:
    """The team's gain is within the tolerance with 95% confidence (its interval's upper end)."""
    return turn["high"] < tolerance


def target(turn: dict) -> dict | None:
    """Where a team moves towards: its best response, or, where that came from outside the
    family (another strategy, which parameters cannot express), the best candidate of its own
    family where that beat its current players on the search's games; else nowhere."""
    if turn.get("best_strategy") is None:
        return turn["best"]
    return turn.get("best_inside") if turn.get("inside_gain", 0.0) > 0 else None


def should_move(turn: dict, tolerance: float) -> bool:
    """A real gain (interval above 0), not already within the tolerance, with a target."""
    return turn["low"] > 0 and not within(turn, tolerance) and target(turn) is not None


@dataclass
class Progress:
    """Where an iteration stands: the players of each team, their moves so far, every turn."""

    players: dict
    moves: dict = field(default_factory=dict)
    turns: list = field(default_factory=list)

    def apply(self, turn: dict, integers: dict, tolerance: float) -> dict:
        """Record `turn` (a team's confirmed best response) and move that team if it should;
        returns the turn with the players after it."""
        team = turn["team"]
        if should_move(turn, tolerance):
            self.moves[team] = self.moves.get(team, 0) + 1
            self.players[team] = moved(self.players[team], target(turn), integers[team],
                                       self.moves[team])
        turn = dict(turn, moved=should_move(turn, tolerance),
                    players={t: dict(v) for t, v in self.players.items()})
        self.turns.append(turn)
        return turn


def converged(turns: list, teams: list, tolerance: float) -> bool:
    """The last len(teams) turns (one of every team: they take turns in order) had every gain
    within the tolerance: nobody moved, so every gain was measured against the same players."""
    return len(turns) >= len(teams) and \
        all(within(turn, tolerance) for turn in turns[-len(teams):])


def iterate(teams: list, start: dict, integers: dict, respond, tolerance: float = TOLERANCE,
            passes: int = 6, done=(), on_progress=None) -> Progress:
    """Iterated best responses from `start` ({team: {param: value}}): `respond(k, team,
    players)` returns turn k's confirmed best response of `team` to `players` as {"team",
    "best", "best_strategy", "gain", "low", "high", ...}. `done`: the turns of an interrupted
    run, replayed (not played again). Stops at convergence or after `passes` passes;
    `on_progress(progress)` sees the replayed turns, then every new one."""
    progress = Progress({t: dict(v) for t, v in start.items()})
    for turn in done:
        progress.apply(turn, integers, tolerance)
    if on_progress:
        on_progress(progress)
    for k in range(len(progress.turns), passes * len(teams)):
        if converged(progress.turns, teams, tolerance):
            break
        team = teams[k % len(teams)]
        turn = respond(k, team, {t: dict(v) for t, v in progress.players.items()})
        progress.apply(dict(turn, team=team, turn=k), integers, tolerance)
        if on_progress:
            on_progress(progress)
    return progress


# --- the iteration on a game: each turn a best-response search ----------------------------------
@dataclass
class Request:
    """One `fairplay equilibrate` as the user asked for it (stored in its file for `--resume`)."""

    config: str
    teams: tuple = ()
    players: int | None = None
    overrides: tuple = ()
    tolerance: float = TOLERANCE
    passes: int = 6
    trials: int = 40
    games: int = 20_000
    confirm_games: int | None = None
    seed: int = 0
    sampler: str = "tpe"
    command: str = ""

    def search_args(self) -> dict:
        return {"trials": self.trials, "games": self.games, "confirm_games": self.confirm_games,
                "seed": self.seed, "sampler": self.sampler, "players": self.players,
                "teams": list(self.teams), "command": self.command}

    @classmethod
    def of_file(cls, saved: dict) -> "Request":
        s = saved["search"]
        return cls(saved["config"], tuple(saved["teams"]), s.get("players"),
                   tuple(saved.get("overrides", [])), float(saved["tolerance"]),
                   int(saved["passes"]), int(s["trials"]), int(s["games"]),
                   s.get("confirm_games"), int(s["seed"]), s.get("sampler", "tpe"),
                   s.get("command", ""))


def spaces(request: Request, code=config_module.USER_CONFIG) -> tuple:
    """The game, the teams in turn order, and for each its search space, starting players and
    integer parameters."""
    cfg = br._config(request.config, list(request.overrides), request.players, code)
    teams = list(request.teams) or list(cfg.game.teams)
    unknown = [t for t in teams if t not in cfg.game.teams]
    if unknown or len(set(teams)) != len(teams) or len(teams) < 2:
        raise EquilibriumError(f"equilibrate needs two or more distinct teams of "
                               f"{cfg.game.name} ({', '.join(cfg.game.teams)}); "
                               f"got {', '.join(teams) or 'none'}")
    found = {}
    for team in teams:
        try:
            found[team] = br.search_space(cfg, team=team)
        except br.BestResponseError as exc:
            raise EquilibriumError(str(exc)) from None
    start = {t: found[t].configured() for t in teams}
    integers = {t: {p.name for p in found[t].params if p.integer} for t in teams}
    return cfg, teams, found, start, integers


def overrides_of(found: dict, players: dict) -> list[str]:
    """Every team's players as `--set` lines."""
    return [line for team, values in players.items() for line in found[team].overrides(values)]


def turn_summary(k: int, data: dict) -> dict:
    """What the file keeps of turn k's search: its best, the confirmed gain, the search's own
    estimate and how many candidates it tried."""
    c = data["confirm"]
    inside = [r for r in data["searched"] if "strategy" not in r and r["state"] == "complete"]
    best_inside = max(inside, key=lambda r: r["value"], default=None)
    base = data.get("default_rate_searched")
    return {"turn": k, "team": data["team"], "best": data["best"],
            "best_inside": None if best_inside is None else best_inside["params"],
            "inside_gain": None if best_inside is None or base is None
            else best_inside["value"] - base,
            "best_strategy": data.get("best_strategy"), "gain": c["gain"], "low": c["low"],
            "high": c["high"], "default_rate": c["default_rate"], "best_rate": c["best_rate"],
            "searched_gain": data.get("searched_gain"), "candidates": len(data["searched"]),
            "seed": data["seed"], "confirm_seed": c["seed"]}


def file_data(request: Request, cfg, teams, start, progress: Progress, under_way=(),
              complete=False) -> dict:
    return EQUILIBRIUM_FILE.seal({
        **EQUILIBRIUM_FILE.header(), "game": cfg.game.name, "config": request.config,
        # the user's strategy files the config names, by SHA-256: a resumed run runs only these
        "strategy_files": br.strategy_files(cfg),
        "overrides": list(request.overrides), "teams": teams,
        "tolerance": request.tolerance, "passes": request.passes,
        "search": request.search_args(), "start": start,
        "players": progress.players, "turns": progress.turns, "under_way": list(under_way),
        "complete": complete,
        "converged": converged(progress.turns, teams, request.tolerance),
        "versions": versions(),
        "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")})


def load(path) -> dict:
    """An equilibrium file, checked whole (its checksum) and as data: nothing it names is run."""
    data = EQUILIBRIUM_FILE.load(path)
    turns = data["turns"]
    keys = ("team", "best", "gain", "low", "high")
    if not all(isinstance(t, dict) and all(k in t for k in keys) for t in turns) or \
            not all(isinstance(t, str) for t in data["teams"]) or \
            any(t["team"] not in data["teams"] for t in turns):
        raise EquilibriumError(f"{path}: corrupt equilibrium file (its turns)")
    if not all(isinstance(k, str) and isinstance(v, str)
               for k, v in data["strategy_files"].items()):
        raise EquilibriumError(f"{path}: corrupt equilibrium file (its strategy files)")
    return data


def check_saved(saved: dict, teams: list, found: dict, path) -> None:
    """Refuse, before anything is played, a file to resume whose players or turns do not fit the
    game's teams and their parameters (each in its range): one line."""
    def number(value):
        return isinstance(value, (int, float)) and not isinstance(value, bool)

    def turn_fits(turn):
        space = found.get(turn.get("team"))
        return space is not None and all(number(turn.get(k)) for k in ("gain", "low", "high")) \
            and br.fits(turn.get("best"), space, every=False) \
            and (turn.get("best_inside") is None or br.fits(turn["best_inside"], space)) \
            and (turn.get("inside_gain") is None or number(turn["inside_gain"])) \
            and (turn.get("best_strategy") is None or isinstance(turn["best_strategy"], str))

    ok = all(isinstance(table, dict) and set(table) == set(teams) and
             all(br.fits(table[team], found[team]) for team in teams)
             for table in (saved["start"], saved["players"])) and \
        all(turn_fits(turn) for turn in saved["turns"])
    if not ok:
        raise EquilibriumError(f"{path}: corrupt equilibrium file (its players or turns do not "
                               f"fit the teams {', '.join(teams)} and their parameters)")


def equilibrate(request: Request, output: Path, workers=None, scheduler=None, saved=None,
                code=config_module.USER_CONFIG, announce=lambda line: None) -> dict:
    """Run (or, from `saved`, continue) `request`, saving the file after every candidate and
    every turn; at the end the players' TOML config beside it. Ctrl-C leaves it saved."""
    cfg, teams, found, start, integers = spaces(request, code)
    if saved is not None:
        check_saved(saved, teams, found, output)
        teams, start = list(saved["teams"]), saved["start"]
    done = list(saved["turns"]) if saved else []
    under_way = list(saved.get("under_way", [])) if saved else []
    state = {"progress": Progress({t: dict(v) for t, v in start.items()}), "under_way": under_way}

    def save_now(complete=False):
        fileio.write_atomically(output, json.dumps(
            file_data(request, cfg, teams, start, state["progress"], state["under_way"],
                      complete),
            indent=1, ensure_ascii=False))

    def respond(k: int, team: str, players: dict) -> dict:
        others = {t: v for t, v in players.items() if t != team}
        current = list(request.overrides) + overrides_of(found, players)
        announce(f"turn {k + 1} (pass {k // len(teams) + 1}): {team} against "
                 + "; ".join(f"{t} {_values(v)}" for t, v in others.items()))

        def keep(records):
            state["under_way"] = list(records)
            save_now()

        data = br.search(request.config, team=team, overrides=current, players=request.players,
                         trials=request.trials, games=request.games,
                         seed=request.seed + k * TURN_SEED_STEP,
                         confirm_games=request.confirm_games, workers=workers,
                         scheduler=scheduler, done=state["under_way"], on_trial=keep,
                         announce=announce, code=code, sampler=request.sampler)
        state["under_way"] = []
        turn = turn_summary(k, data)
        announce(f"  {team}: {100 * turn['gain']:+.2f} points (95% CI {100 * turn['low']:+.2f}"
                 f" to {100 * turn['high']:+.2f})"
                 + (f", from outside the family ({turn['best_strategy']})"
                    if turn["best_strategy"] else ""))
        return turn

    def on_progress(progress):
        state["progress"] = progress
        save_now()

    state["progress"] = iterate(teams, start, integers, respond, request.tolerance,
                                request.passes, done, on_progress)
    save_now(complete=True)
    result = load(output)
    toml_path = output.with_suffix(".toml")
    fileio.write_atomically(toml_path, toml_text(request, found, result, toml_path.parent))
    return result


def _values(values: dict) -> str:
    return ", ".join(f"{k}={v:.3g}" for k, v in values.items())


def toml_text(request: Request, found: dict, data: dict, out_dir: Path) -> str:
    """A config that `extends` the searched one and plays the players the iteration ended with."""
    lines = br.toml_text({"config": request.config, "team": "every team", "seat": None,
                          "players_arg": request.players,
                          "overrides": list(request.overrides),
                          "settled": list(request.overrides)
                          + overrides_of(found, data["players"])}, out_dir)
    verdict = ("converged: no team gains " if data["converged"] else
               "not converged: a team may still gain ")
    _, rest = lines.split("\n", 1)  # br.toml_text's first line names a best response
    return (f"# players near equilibrium, by fairplay equilibrate ({verdict}"
            f"{100 * data['tolerance']:g} points or more)\n" + rest)
