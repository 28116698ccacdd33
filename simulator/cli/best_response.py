"""The `fairplay best-response` command (registered on the main CLI group)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import click

from simulator.cli.support import FilePath
from simulator.cli.support import (
    RunFailed, check_scheduler, file_and_config_outputs, lock_output, scheduler_option,
)
from simulator.cli.support import fail as _fail


def _rate(x) -> str:
    return f"{100 * x:.2f}%"


def _screened(data: dict) -> list[str]:
    """What the search tried, by stage, how much of each parameter's range, and the players from
    outside the family."""
    records = data["searched"]
    stages = {}
    for record in records:
        stages[record.get("stage", "sampler")] = stages.get(record.get("stage", "sampler"), 0) + 1
    lines = ["  tried: " + ", ".join(f"{n} {stage}" for stage, n in stages.items())
             + " (screen: the configured values, then each parameter alone at both ends of its "
               "range and inside it)"]
    partial = [c["name"] for c in data.get("coverage", []) if not c["ends"]]
    if partial:
        lines.append(f"  not tried at both ends of its range: {', '.join(partial)}")
    base = data.get("default_rate_searched")
    for record in records:
        if record.get("strategy"):
            gain = "" if base is None else f" ({100 * (record['value'] - base):+.2f} points)"
            lines.append(f"  outside the family: {record['strategy']} ({record['whose']}) "
                         f"{_rate(record['value'])}{gain}")
    return lines


def _shrunk(data: dict) -> str:
    """The search's own estimate beside the confirmed gain where the fresh games shrank it by
    more than half (the winner's curse: the best of many noisy candidates looks better)."""
    searched, confirmed = data.get("searched_gain"), data["confirm"]["gain"]
    if searched is None or searched <= 0 or confirmed >= searched / 2:
        return ""
    return f" (on the search's games {100 * searched:+.2f}: the best of many looks better)"


def _lines(data: dict) -> list[str]:
    c = data["confirm"]
    tuned = ("" if data.get("seat") is not None else f"{', '.join(data['roles'])}, ")
    lines = [f"{data['game']}: best response of {data['team']} "
             f"({tuned}strategy {data['strategy']}), "
             f"{len(data['searched'])} candidates on {data['games']:,} games each (seed "
             f"{data['seed']}, the same games for every candidate)",
             *_screened(data),
             f"  measured again on {c['games']:,} fresh games (seed {c['seed']}):",
             f"  default players  {_rate(c['default_rate'])}",
             f"  best found       {_rate(c['best_rate'])}",
             f"  gain             {100 * c['gain']:+.2f} points (95% paired CI "
             f"{100 * c['low']:+.2f} to {100 * c['high']:+.2f})"
             + ("" if c["excludes_zero"] else ": not distinguishable from no gain")
             + _shrunk(data)
             if data["best"] != data["default"] or data.get("best_strategy") else
             "  gain             none: no candidate beat the default players on the search's "
             "games",
             "  the best players, as --set lines:"]
    lines += [f"    --set '{text}'" for text in data["set"]]
    return lines


@click.command("best-response", short_help="Search how much better a team could play.")
@click.argument("config", required=False)
@click.option("--team", help="The team whose players are tuned (every role of it dealt).")
@click.option("--role", help="Tune one role's players instead of a whole team.")
@click.option("--seat", type=int, help="Tune one seat's player against the rest of the table (an "
              "individual game: its win rate is the seat's).")
@click.option("--trials", type=int, default=40, show_default=True,
              help="Candidates of the sampler, after the screen (the configured parameters, "
                   "then each parameter alone at both ends of its range and inside it).")
@click.option("-n", "--games", "n_games", type=int, default=20_000, show_default=True,
              help="Games per candidate (a quarter, then a half, then all: the worst are "
                   "dropped early).")
@click.option("--confirm-games", type=int, default=None,
              help="Fresh games on which the default and the best are measured again "
                   "[default: 2 × -n].")
@click.option("--rounds", type=int, default=1, show_default=True,
              help="Alternate the teams: each round tunes the next team against the others' "
                   "current parameters.")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed.")
@click.option("--chunk-size", type=int, default=None, help="Games per chunk [default: -n/32].")
@click.option("--players", type=int, help="Number of players (overrides the config).")
@click.option("--set", "overrides", multiple=True, metavar="KEY=VALUE",
              help="Override a key of the config (repeatable).")
@click.option("--workers", type=int, default=None, help="Worker processes [default: all cores].")
@click.option("-o", "--output", type=FilePath(dir_okay=False, path_type=Path),
              help="Search file (JSON) [default: results/best-response-<game>-<team>.json, or -2, "
                   "-3... when that exists]; a "
                   "TOML config that extends CONFIG with the best parameters is written beside "
                   "it.")
@click.option("--resume", "resume_path", type=FilePath(dir_okay=False, path_type=Path),
              help="Continue an interrupted search saved in this file.")
@click.option("--candidate", "candidates", multiple=True, metavar="FILE.py:FUNCTION",
              help="Your own player for the tuned seats, measured beside the search (as "
                   "strategies.<team> names one; repeatable). The game's other built-in "
                   "strategies are always tried too.")
@click.option("--sampler", type=click.Choice(["tpe", "cmaes"]), default="tpe",
              show_default=True,
              help="Optuna's sampler for the search after the screen of every one-parameter "
                   "corner.")
@click.option("--force", is_flag=True, help="Replace existing output files.")
@click.option("-q", "--quiet", is_flag=True, help="No progress lines.")
@scheduler_option
def best_response(config, team, role, seat, trials, n_games, confirm_games, rounds, seed,
                  chunk_size, players, overrides, workers, output, resume_path, candidates,
                  sampler, force, quiet, scheduler):
    """Search one team's strategy parameters for its best response to the other seats, and
    report how much it gains over the default players (measured again on fresh games).

    \b
      fairplay best-response configs/werewolf/standard-16.toml --team wolf --trials 40
      fairplay best-response vitamors --team exiles --rounds 2
    """
    from simulator.run import chunks
    from simulator.setup.config import ConfigError
    from simulator.studies import best_response as br

    if workers is not None and workers < 1:
        _fail("--workers must be at least 1")
    check_scheduler(scheduler, workers)
    done = []
    if resume_path is not None:
        if config is not None or team or role or seat is not None:
            _fail("--resume takes the search from its file; give no CONFIG, --team, --role "
                  "or --seat")
        try:
            saved = br.load(resume_path)
        except br.BestResponseError as exc:
            _fail(exc)
        asked = br.Request.of_file(saved)
        config, team, role, seat = asked.config, asked.team, asked.role, asked.seat
        overrides, players = asked.overrides, asked.players
        trials, n_games, seed = asked.trials, asked.games, asked.seed
        chunk_size, confirm_games = asked.chunk_size, asked.confirm_games
        candidates, sampler = asked.candidates, asked.sampler
        done, output, force = saved["searched"], resume_path, True
    if config is None:
        _fail("give a CONFIG and --team, --role or --seat, or --resume FILE")
    if trials < 0 or rounds < 1 or seed < 0:
        _fail("--rounds must be at least 1, --trials and --seed at least 0")
    try:  # every count checked before any game is played
        br.check_counts(n_games, chunk_size, confirm_games)
    except br.BestResponseError as exc:
        _fail(exc)
    if rounds > 1 and (role or seat is not None):
        _fail("--rounds alternates teams: give no --role or --seat")
    if rounds > 1 and resume_path is not None:
        _fail("a search of several rounds is not resumed: run it again")
    name = team or role or (f"seat{seat}" if seat is not None else "all")
    default = Path("results") / f"best-response-{Path(config).stem}-{name}.json"
    output, toml_path = file_and_config_outputs(output, default, config,
                                                resume_path is not None, force)
    say = (lambda line: None) if quiet else (lambda line: click.echo(line, err=True))
    # A search file is data: a resumed search runs only the strategy files whose contents it
    # recorded when it began (the user named them then), checked on the bytes that are run.
    from simulator.setup import config as config_module

    code = config_module.USER_CONFIG if resume_path is None else config_module.recorded(
        saved.get("strategy_files") or {}, "the search began")
    request = br.Request(config, team, role, seat, players, tuple(overrides), trials, n_games,
                         seed, chunk_size, confirm_games, rounds,
                         "fairplay " + " ".join(shlex.quote(a) for a in sys.argv[1:]),
                         tuple(candidates), sampler)
    try:
        config_module.load(config, list(overrides), players, code=code)
    except ConfigError as exc:
        _fail(exc)
    lock = lock_output(output)
    try:
        result = br.play_search(request, output, workers, scheduler, done, code, say)
    except (br.BestResponseError, ConfigError, chunks.SchedulerError) as exc:
        _fail(exc)
    except br.SearchStopped as stop:
        raise RunFailed(f"{stop} (in a candidate's games); the candidates finished are saved "
                        f"to {output}") from None
    except KeyboardInterrupt:
        click.echo(f"\nInterrupted: the candidates finished are saved to {output}; continue "
                   f"with: fairplay best-response --resume {output}", err=True)
        sys.exit(130)
    finally:
        lock.release()
    lines = _lines(result)
    if rounds > 1:
        lines.append("  after the rounds, every team playing its tuned players:")
        for k, r in enumerate(result["rounds"], start=1):
            c = r["confirm"]
            lines.append(f"    round {k}: {r['team']} {_rate(c['default_rate'])} -> "
                         f"{_rate(c['best_rate'])}")
    click.echo("\n".join(lines))
    click.echo(f"\nSaved to {output}; the tuned config: {toml_path} (fairplay run {toml_path})")
