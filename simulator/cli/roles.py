"""The `fairplay roles` command (registered on the main CLI group)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import click

from simulator.cli.support import fail as _fail
from simulator.cli.support import FilePath
from simulator.cli.support import (
    RunFailed, check_run_options, distinct_outputs, is_fairplay_report, lock_output,
    may_replace, progress_bar, writable_file, write_report,
)


@click.command(short_help="What each role is worth to its team.")
@click.argument("config")
@click.option("--players", type=int, default=None, help="Role players (overrides the config's).")
@click.option("-n", "--games", "n_games", type=int, default=100_000, show_default=True,
              help="Games per setup (the base and each role's variant), all with the same seed.")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed.")
@click.option("--workers", type=int, default=None, help="Worker processes [default: all cores].")
@click.option("--chunk-size", type=int, default=None,
              help="Games per chunk, the unit of the pairing [default: about 50 chunks, at most "
                   "20,000 games each].")
@click.option("--set", "overrides", multiple=True, metavar="KEY=VALUE",
              help="Override a key of the base config (repeatable).")
@click.option("-o", "--output", type=FilePath(dir_okay=False, path_type=Path),
              help="Save the role values as JSON here (schema fairplay.roles).")
@click.option("--report", "report_path", type=FilePath(dir_okay=False, path_type=Path),
              help="Also write an HTML report of the role values here.")
@click.option("--force", is_flag=True,
              help="Replace an -o file, or a --report file that is not a fairplay report.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
def roles(config, players, n_games, seed, workers, chunk_size, overrides, output, report_path,
          force, quiet):
    """What each role of CONFIG (a game name or a .toml file) is worth: how much one more of it,
    in place of one filler role (werewolf: a villager), moves the filler's team's win rate, in
    percentage points with a 95% interval from paired runs (the same seeds with and without).

    \b
      fairplay roles werewolf --players 12 -n 200000 -o roles.json --report roles.html
    """
    from simulator.studies import roles as roles_module

    check_run_options(workers, n_games, seed, chunk_size)
    distinct_outputs([(output, "-o"), (report_path, "--report")],
                     [Path(config)] if Path(config).exists() else [])
    for path, what in ((output, "-o"), (report_path, "--report")):
        if path is not None:
            writable_file(path, what)
    if output is not None:
        may_replace(output, "-o", force)
    if report_path is not None:
        may_replace(report_path, "--report", force, is_fairplay_report)
    lock = lock_output(output) if output is not None else None
    try:
        data = measure(config, players, overrides, n_games, seed, chunk_size, workers, quiet)
        click.echo("\n".join(roles_module.table(data)))
        if output is not None:
            roles_module.save(data, output)
            click.echo(f"\nSaved to {output}")
    finally:
        if lock is not None:
            lock.release()
    if report_path is not None:
        from reports import render

        write_report(report_path, render.write_roles_report, data)


def canonical_command(config, players, overrides, n_games, seed, chunk_size) -> str:
    """The `fairplay roles` command that gives these role values (defaults spelled out, workers
    left out: they change nothing)."""
    parts = ["fairplay", "roles", config] + (["--players", str(players)] if players else [])
    for text in overrides:
        parts += ["--set", text]
    parts += ["-n", str(n_games), "--seed", str(seed)]
    if chunk_size is not None:
        parts += ["--chunk-size", str(chunk_size)]
    return " ".join(shlex.quote(p) for p in parts)


def measure(config, players, overrides, n_games, seed, chunk_size, workers, quiet) -> dict:
    """Plan and play the role values of CONFIG (`fairplay roles`, `fairplay run --role-values`);
    a mistake or a fault is one line and a non-zero exit."""
    from simulator.studies import roles as roles_module
    from simulator.run import chunks, runner
    from simulator.setup.config import ConfigError

    command = canonical_command(config, players, overrides, n_games, seed, chunk_size)
    try:
        planned = roles_module.plan(config, players, list(overrides), n_games, seed, chunk_size,
                                    command)
        if not planned.pairs:
            _fail(f"no role of {planned.game.name} can be added or measured: "
                  + "; ".join(f"{s['role']}: {s['note']}" for s in planned.skipped))
        return roles_module.execute(planned, workers, progress_bar(quiet, runner.Progress))
    except (roles_module.RolesError, ConfigError) as exc:
        _fail(exc)
    except roles_module.RolesInterrupted:
        click.echo("\nInterrupted: role values need every chunk of every setup; nothing saved",
                   err=True)
        sys.exit(130)
    except runner.RunFault as stop:
        raise RunFailed(f"{stop} (game {stop.game:,} of the setup "
                        f"{stop.result.data.get('source', '')}); nothing saved") from None
    except chunks.WorkerLost as lost:
        raise RunFailed(f"{lost}; nothing saved") from None
