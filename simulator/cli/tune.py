"""The `fairplay tune` command (registered on the main CLI group)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import click

from simulator.cli.support import fail as _fail
from simulator.cli.support import FilePath
from simulator.cli.support import (
    check_run_options, distinct_outputs, free_default, is_fairplay_report, lock_output,
    may_replace, writable_file, write_report,
)


def _game_of(config: str) -> str:
    """The game a config names (for the default file name); the config's own errors come later."""
    from simulator.setup import config as config_module

    try:
        return str(config_module.read_toml(config_module.locate(config)).get("game", "game"))
    except Exception:
        return "game"


@click.command(short_help="Search a grid of setups for the one nearest a goal.")
@click.argument("config")
@click.option("--vary", "vary", multiple=True, required=True, metavar="KEY=LEVELS",
              help="A key and its levels, as for `fairplay sweep` (players=8..12, "
                   "strategies.all=random,seer-led); repeat for a grid.")
@click.option("--objective", required=True, metavar="OBJECTIVE",
              help="What the best setup is closest to: balanced, fair-seats, team=P (the first "
                   "team's share of decided games), <team>=P.")
@click.option("-n", "--games", "n_games", type=int, default=64_000, show_default=True,
              help="Games per setup at the last rung: the precision of the answer (the full "
                   "grid's, for the comparison).")
@click.option("--start", type=int, default=None,
              help="Games per setup at the first rung; doubled each rung [default: -n / 16].")
@click.option("--alpha", type=float, default=0.05, show_default=True,
              help="Chance of eliminating the best setup (all eliminations together).")
@click.option("--top", type=int, default=3, show_default=True, help="Best setups to list.")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed.")
@click.option("--workers", type=int, default=None, help="Worker processes [default: all cores].")
@click.option("--set", "overrides", multiple=True, metavar="KEY=VALUE",
              help="Override a key of the base config (repeatable).")
@click.option("--chunk-size", type=int, default=None,
              help="Games per chunk [default: the first rung's games, at most 20,000].")
@click.option("-o", "--output", type=FilePath(dir_okay=False, path_type=Path),
              help="Result file, a sweep file [default: results/tune-<game>-seed<seed>.json, "
                   "or -2, -3... when that exists].")
@click.option("--report", "report_path", type=FilePath(dir_okay=False, path_type=Path),
              help="Also write the HTML report (the sweep report) here.")
@click.option("--force", is_flag=True,
              help="Replace an -o file, or a --report file that is not a fairplay report.")
def tune(config, vary, objective, n_games, start, alpha, top, seed, workers, overrides,
         chunk_size, output, report_path, force):
    """Search the grid of --vary setups of CONFIG for the one closest to --objective, by a race
    that drops clearly worse setups early.

    \b
      fairplay tune werewolf --vary roles.werewolf=1..3 --vary players=7..9 \\
          --objective balanced -n 32000 -o tune.json --report tune.html
    """
    from simulator.studies import sweep as sweep_module
    from simulator.studies import tune as tune_module
    from simulator.setup.config import ConfigError

    check_run_options(workers, n_games, seed, chunk_size)
    if top < 1:
        _fail(f"--top must be at least 1, got {top}")
    start = max(1, n_games // 16) if start is None else start
    for path, what in ((output, "-o"), (report_path, "--report")):
        if path is not None:
            writable_file(path, what)
    command = "fairplay " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    path = output
    if path is None:
        path = Path("results") / f"tune-{_game_of(config)}-seed{seed}.json"
        if not force:
            path = free_default(path, Path.exists)
    distinct_outputs([(path, "-o"), (report_path, "--report")],
                     [Path(config)] if Path(config).exists() else [])
    writable_file(path, "-o")
    may_replace(path, "-o", force)
    if report_path is not None:
        may_replace(report_path, "--report", force, is_fairplay_report)
    lock = lock_output(path)
    try:
        axes = [sweep_module.parse_vary(text) for text in vary]
        tuned = tune_module.race(config, axes, objective, n_games, start, seed, workers,
                                 chunk_size, list(overrides), alpha, command,
                                 announce=lambda line: click.echo(line, err=True))
    except (sweep_module.SweepError, ConfigError) as exc:
        _fail(exc)
    except tune_module.TuneInterrupted as stop:
        stop.tuned.save(path)
        click.echo(f"\nInterrupted: the race so far (each setup with the games of its last "
                   f"finished rung) saved to {path}; a race is not resumed, run it again",
                   err=True)
        sys.exit(130)
    finally:
        lock.release()
    tuned.save(path)
    for cell in tuned.cells:
        if cell.status == "invalid":
            click.echo(f"fairplay: warning: invalid cell {tuned.cell_label(cell)}: {cell.error}",
                       err=True)
    click.echo("\n".join(tune_module.lines(tuned, top)))
    click.echo(f"\nResult saved to {path} (fairplay report {path} charts it)")
    if report_path is not None:
        from reports import render

        write_report(report_path, render.write_sweep_report, tuned)
