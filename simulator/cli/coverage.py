"""The `fairplay coverage` command (registered on the main CLI group)."""

from __future__ import annotations

from pathlib import Path

import click

from simulator.cli.support import RunFailed, progress_bar
from simulator.cli.support import fail as _fail


@click.command(short_help="How often each power, card and ending occurs.")
@click.argument("source")
@click.option("-n", "--games", "n_games", type=int, default=20_000, show_default=True,
              help="Games to play (a CONFIG; a result file has its own).")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed.")
@click.option("--players", type=int, help="Number of players (overrides the config).")
@click.option("--set", "overrides", multiple=True, metavar="KEY=VALUE",
              help="Override a config key (repeatable).")
@click.option("--workers", type=int, default=None, help="Worker processes [default: all cores].")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
@click.option("--unchecked", is_flag=True,
              help="Read a result file that has no checksum; the table says so.")
def coverage(source, n_games, seed, players, overrides, workers, quiet, unchecked):
    """How often each power, card, spell and ending of SOURCE (a config to play, or a result
    file to read) occurs per game; the ones that never or rarely occur are marked.

    \b
      fairplay coverage vitamors --set mode=expert -n 20000
      fairplay coverage results/werewolf-p9-seed0.json
    """
    from simulator.setup import config
    from simulator.run import runner
    from simulator.statistics import coverage as coverage_module
    from simulator.setup.config import ConfigError
    from simulator.run.results import Result, ResultError

    if n_games < 1 or seed < 0:
        _fail("-n must be at least 1 and --seed at least 0")
    if workers is not None and workers < 1:
        _fail("--workers must be at least 1")
    try:
        if source.endswith(".json") and Path(source).exists():
            if overrides or players is not None:
                _fail("a result file has its own config: no --set or --players")
            result = Result.load(source, unchecked)
        else:
            cfg = config.load(source, list(overrides), players)
            result = runner.run(cfg, n_games, seed, workers,
                                progress=progress_bar(quiet, runner.Progress), isolate=True)
    except (ConfigError, ResultError) as exc:
        _fail(exc)
    except runner.RunFault as stop:
        raise RunFailed(str(stop)) from None
    except runner.Interrupted:
        click.echo("\nInterrupted: nothing to report", err=True)
        raise SystemExit(130)
    click.echo("\n".join(coverage_module.table(result)))
    if result.unchecked:
        from simulator.run.results import UNCHECKED_NOTE

        click.echo(f"\nThis result was {UNCHECKED_NOTE}.")
