"""The `fairplay equilibrate` command (registered on the main CLI group)."""

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


def _pts(x: float) -> str:
    return f"{100 * x:+.2f}"


def summary_lines(data: dict) -> list[str]:
    """Every turn's confirmed gain with its interval and whether the team moved, then the
    verdict and the players the iteration ended with."""
    tolerance = 100 * data["tolerance"]
    lines = [f"{data['game']}: iterated best responses of {', '.join(data['teams'])} on "
             f"{data['config']} (tolerance {tolerance:g} points)"]
    for turn in data["turns"]:
        k = turn.get("turn", 0)
        what = ("moved part of the way" if turn.get("moved") else
                f"outside the family: {turn['best_strategy']}" if turn.get("best_strategy") else
                "within the tolerance" if turn["high"] < data["tolerance"] else
                "stays (no gain distinguishable from 0)" if turn["low"] <= 0 else "stays")
        lines.append(f"  turn {k + 1} (pass {k // len(data['teams']) + 1}) {turn['team']:>10}: "
                     f"{_pts(turn['gain'])} points (95% CI {_pts(turn['low'])} to "
                     f"{_pts(turn['high'])}): {what}")
    last = data["turns"][-len(data["teams"]):]
    if data["converged"]:
        lines.append(f"  converged: in the last pass no team's best response gains "
                     f"{tolerance:g} points or more (95% upper bounds)")
    else:
        amplitude = max((t["high"] for t in last), default=0.0)
        lines.append(f"  not converged in {data['passes']} passes: the last pass's largest "
                     f"gain reaches {_pts(amplitude)} points (95% upper bound)")
    lines.append("  the players, as --set lines:")
    for team, values in data["players"].items():
        lines += [f"    --set 'strategies.{team}.{name}={value:g}'"
                  for name, value in values.items()]
    return lines


@click.command("equilibrate", short_help="Iterate best responses towards equilibrium players.")
@click.argument("config", required=False)
@click.option("--team", "teams", multiple=True,
              help="A team that takes turns (repeatable, in turn order) [default: every team].")
@click.option("--tolerance", type=float, default=1.0, show_default=True,
              help="Points: converged when no team's best response gains this much (the upper "
                   "end of its 95% interval on fresh games).")
@click.option("--passes", type=int, default=None,
              help="At most this many passes (each gives every team one turn) [default: 6; "
                   "with --resume, more than the file's extends its run].")
@click.option("--trials", type=int, default=40, show_default=True,
              help="Candidates of the sampler in each turn's search, after the screen of every "
                   "one-parameter corner.")
@click.option("-n", "--games", "n_games", type=int, default=20_000, show_default=True,
              help="Games per candidate in each turn's search.")
@click.option("--confirm-games", type=int, default=None,
              help="Fresh games on which each turn's best and current players are measured "
                   "again [default: 2 × -n].")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed.")
@click.option("--players", type=int, help="Number of players (overrides the config).")
@click.option("--set", "overrides", multiple=True, metavar="KEY=VALUE",
              help="Override a key of the config (repeatable).")
@click.option("--sampler", type=click.Choice(["tpe", "cmaes"]), default="tpe",
              show_default=True, help="Optuna's sampler of each turn's search.")
@click.option("--workers", type=int, default=None, help="Worker processes [default: all cores].")
@click.option("-o", "--output", type=FilePath(dir_okay=False, path_type=Path),
              help="Equilibrium file (JSON, checksummed) [default: "
                   "results/equilibrium-<config>.json, or -2, -3... when that exists]; a TOML "
                   "config that extends CONFIG with the players is written beside it.")
@click.option("--resume", "resume_path", type=FilePath(dir_okay=False, path_type=Path),
              help="Continue an interrupted run saved in this file.")
@click.option("--force", is_flag=True, help="Replace existing output files.")
@click.option("-q", "--quiet", is_flag=True, help="No progress lines.")
@scheduler_option
def equilibrate(config, teams, tolerance, passes, trials, n_games, confirm_games, seed, players,
                overrides, sampler, workers, output, resume_path, force, quiet, scheduler):
    """Iterated best responses: each team in turn plays its best response to the others'
    current players (the full search of `fairplay best-response`), moving part of the way
    (fictitious play), until no team gains more than the tolerance.

    \b
      fairplay equilibrate configs/werewolf/standard-16.toml
      fairplay equilibrate vitamors --passes 4 -n 10000 -o vm.json
      fairplay equilibrate --resume vm.json
    """
    from simulator.run import chunks, runner
    from simulator.setup import config as config_module
    from simulator.setup.config import ConfigError
    from simulator.studies import best_response as br
    from simulator.studies import equilibrium as eq

    if workers is not None and workers < 1:
        _fail("--workers must be at least 1")
    check_scheduler(scheduler, workers)
    saved = None
    if resume_path is not None:
        if config is not None or teams:
            _fail("--resume takes the run from its file; give no CONFIG or --team")
        try:
            saved = eq.load(resume_path)
        except eq.EquilibriumError as exc:
            _fail(exc)
        request = eq.Request.of_file(saved)
        if passes is not None:  # a longer run: the same turns, then more
            if passes < request.passes:
                _fail(f"--passes {passes} is fewer than the {request.passes} the run was "
                      f"asked for")
            request.passes = passes
        output, force = resume_path, True
    else:
        passes = 6 if passes is None else passes
        if config is None:
            _fail("give a CONFIG, or --resume FILE")
        if not 0 < tolerance < 100 or passes < 1 or trials < 0 or seed < 0:
            _fail("--tolerance must lie between 0 and 100 points, --passes be at least 1, "
                  "--trials and --seed at least 0")
        try:
            br.check_counts(n_games, None, confirm_games)
        except br.BestResponseError as exc:
            _fail(exc)
        request = eq.Request(config, tuple(teams), players, tuple(overrides), tolerance / 100,
                             passes, trials, n_games, confirm_games, seed, sampler,
                             "fairplay " + " ".join(shlex.quote(a) for a in sys.argv[1:]))
    default = Path("results") / f"equilibrium-{Path(request.config).stem}.json"
    output, toml_path = file_and_config_outputs(output, default, request.config,
                                                resume_path is not None, force)
    say = (lambda line: None) if quiet else (lambda line: click.echo(line, err=True))
    # An equilibrium file is data: a resumed run runs only the strategy files whose contents it
    # recorded when it began (the user named them then), checked on the bytes that are run.
    code = config_module.USER_CONFIG if saved is None else config_module.recorded(
        saved["strategy_files"], "the run began")
    try:
        config_module.load(request.config, list(request.overrides), request.players, code=code)
        eq.spaces(request, code)
    except (ConfigError, eq.EquilibriumError) as exc:
        _fail(exc)
    lock = lock_output(output)
    try:
        result = eq.equilibrate(request, output, workers, scheduler, saved, code, say)
    except (br.BestResponseError, eq.EquilibriumError, ConfigError,
            chunks.SchedulerError) as exc:
        _fail(exc)
    except runner.RunFault as stop:
        raise RunFailed(f"{stop} (in a candidate's games); the turns finished are saved to "
                        f"{output}") from None
    except KeyboardInterrupt:
        click.echo(f"\nInterrupted: the turns finished are saved to {output}; continue with: "
                   f"fairplay equilibrate --resume {output}", err=True)
        sys.exit(130)
    finally:
        lock.release()
    click.echo("\n".join(summary_lines(result)))
    click.echo(f"\nSaved to {output}; the players' config: {toml_path} (fairplay run "
               f"{toml_path})")
