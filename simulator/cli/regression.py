"""`fairplay baseline` and `fairplay check`: regression checks for CI (see docs/ci.md).

Exit codes: 0 all measures hold, 1 a regression, 2 bad input (one line on stderr), 130 Ctrl-C.
"""

from __future__ import annotations

import shlex
import sys
import time
from pathlib import Path

import click

from simulator.run import chunks, runner
from simulator.studies import regression
from simulator.cli.support import fail as _fail
from simulator.cli.support import FilePath
from simulator.cli.support import (
    RunFailed, check_scheduler, distinct_outputs, lock_output, may_replace, progress_bar,
    scheduler_option, writable_file,
)
from simulator.setup.config import ConfigError
from simulator.run.results import ResultError


def _progress(quiet: bool) -> runner.Progress | None:
    return progress_bar(quiet, runner.Progress)


def _command_line() -> str:
    return "fairplay " + " ".join(shlex.quote(a) for a in sys.argv[1:])


def _check_workers(workers, seed) -> None:
    if workers is not None and workers < 1:
        _fail("--workers must be at least 1")
    if seed is not None and seed < 0:
        _fail(f"--seed must not be negative, got {seed}")


@click.command(short_help="Store balance baselines of configs for CI.")
@click.argument("configs", nargs=-1, required=True)
@click.option("-o", "--output", type=FilePath(dir_okay=False, path_type=Path),
              default=Path("baselines.json"), show_default=True, help="Baselines file to write.")
@click.option("-n", "--games", "n_games", type=int, default=regression.DEFAULT_GAMES,
              show_default=True, help="Games per config.")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed.")
@click.option("--workers", type=int, default=None, help="Worker processes [default: all cores].")
@click.option("--set", "overrides", multiple=True, metavar="KEY=VALUE",
              help="Override a key in every config (repeatable; stored, and re-applied by "
                   "`check`).")
@click.option("--chunk-size", type=int, default=runner.DEFAULT_CHUNK_SIZE, show_default=True,
              help="Games per chunk (part of a run's identity, needed by `check --exact`).")
@click.option("--force", is_flag=True, help="Replace an existing -o file.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
@scheduler_option
def baseline(configs, output, n_games, seed, workers, overrides, chunk_size, force, quiet,
             scheduler):
    """Play each CONFIG and store its headline measures as a baseline for `fairplay check`.

    CONFIG is a .toml file or a game name. The file records each config's path relative to
    itself, so `check` re-reads the file and catches a change of rules or setup.
    """
    _check_workers(workers, seed)
    check_scheduler(scheduler, workers)
    distinct_outputs([(output, "-o")], [Path(c) for c in configs if Path(c).exists()])
    writable_file(output, "-o")  # before the first game, not after the last
    may_replace(output, "-o", force)
    started = time.monotonic()
    lock = lock_output(output)
    try:
        data = regression.make_baseline(configs, output, n_games, seed, workers, chunk_size,
                                        overrides, _progress(quiet), _command_line(),
                                        scheduler=scheduler)
    except (ConfigError, ResultError, regression.BaselineError, chunks.SchedulerError) as exc:
        _fail(exc)
    except OSError as exc:  # the final write (a full disk): the old file is left as it was
        raise RunFailed(f"-o {output}: cannot write: {exc.strerror or exc}; nothing was "
                        f"written") from None
    except KeyboardInterrupt:
        click.echo("\nInterrupted: no baselines written.", err=True)
        sys.exit(130)
    finally:
        lock.release()
    for entry in data["configs"]:
        measures = [regression.Measure.from_json(m) for m in entry["measures"]]
        teams = ", ".join(f"{m.name[5:]} {m.format_value()}" for m in measures
                          if m.group == "team")
        click.echo(f"{entry['name']}: {entry['game']}, {entry['players']} players, "
                   f"{data['games']:,} games, {len(measures)} measures"
                   + (f" (wins: {teams})" if teams else ""))
    click.echo(f"Baselines saved to {output} (seed {seed}, {time.monotonic() - started:.1f} s). "
               f"Check with: fairplay check {output}")


@click.command(short_help="Replay baselines; fail if the balance has moved.")
@click.argument("baselines", type=FilePath(path_type=Path))
@click.option("-n", "--games", "n_games", type=int, default=None,
              help="Games per config [default: the baseline's].")
@click.option("--seed", type=int, default=None,
              help="Random seed [default: the baseline's seed + 1, so that an unchanged setup is "
                   "tested against chance, not against itself; --exact: the baseline's].")
@click.option("--tolerance", type=float, default=regression.DEFAULT_TOLERANCE,
              show_default=True,
              help="A rate fails only if it moves by more than this (0.01 = 1 point) AND "
                   "significantly.")
@click.option("--mean-tolerance", type=float, default=regression.DEFAULT_MEAN_TOLERANCE,
              show_default=True,
              help="The same for means (game length, scores), in standard deviations of the "
                   "baseline's values.")
@click.option("--alpha", type=float, default=regression.DEFAULT_ALPHA, show_default=True,
              help="The most chance that an unchanged game fails the check (Holm across all "
                   "measures).")
@click.option("--set", "overrides", multiple=True, metavar="KEY=VALUE",
              help="Override a key in every config before playing (repeatable).")
@click.option("--junit", type=FilePath(dir_okay=False, path_type=Path),
              help="Also write a JUnit XML report (one testsuite per config) for CI.")
@click.option("--update", is_flag=True,
              help="Rewrite the baselines file with this run (accepts the change; exit 0).")
@click.option("--exact", is_flag=True,
              help="Replay the baseline's seed, games and chunk size and demand bit-identical "
                   "tallies (needs the same fairplay, Numba and NumPy versions).")
@click.option("--stored-config", is_flag=True,
              help="Replay the config stored in the baselines file instead of re-reading the "
                   "config file (detects code and strategy changes only).")
@click.option("--workers", type=int, default=None, help="Worker processes [default: all cores].")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
@scheduler_option
def check(baselines, n_games, seed, tolerance, mean_tolerance, alpha, overrides, junit, update,
          exact, stored_config, workers, quiet, scheduler):
    """Re-run the setups of BASELINES and fail (exit 1) if a measure moved beyond chance.

    A measure fails when its change is significant after Holm correction across all measures
    (adjusted p < alpha) and larger than the tolerance. Exit 0: all hold; 1: a regression;
    2: bad input.
    """
    _check_workers(workers, seed)
    check_scheduler(scheduler, workers)
    distinct_outputs([(junit, "--junit")], [baselines])
    if junit is not None:
        writable_file(junit, "--junit")
    if update:
        writable_file(baselines, "--update")
    try:
        loaded = regression.load_baseline(baselines)
        report = regression.check(loaded, n_games, seed, tolerance, alpha, mean_tolerance,
                                  overrides, workers, exact, stored_config, _progress(quiet),
                                  scheduler=scheduler)
    except (ConfigError, ResultError, regression.BaselineError, chunks.SchedulerError) as exc:
        _fail(exc)
    except KeyboardInterrupt:
        click.echo("\nInterrupted: nothing checked.", err=True)
        sys.exit(130)
    click.echo(report.table())
    if junit is not None:
        try:
            report.write_junit(junit)
        except OSError as exc:
            _fail(f"{junit}: cannot write the JUnit report: {exc.strerror}")
        click.echo(f"JUnit report written to {junit}")
    if update:
        try:
            regression.update(report, _command_line())
        except OSError as exc:
            _fail(f"{baselines}: cannot write: {exc.strerror}")
        click.echo(f"Baselines updated in {baselines} (seed {report.runs[0].seed}, "
                   f"{report.runs[0].games:,} games per setup).")
        return
    if not report.passed:
        sys.exit(1)
