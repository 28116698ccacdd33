"""The `fairplay` command line: a thin layer over simulator.api.

A user's mistake (bad config, bad option, unreadable result) prints one line and exits with 2;
never a traceback. Ctrl-C saves what is done and exits with 130.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import click

from simulator import runner
from simulator.config import ConfigError
from simulator.cli_support import fail as _fail
from simulator.cli_support import progress_bar
from simulator.results import ResultError


def _load_config(spec, overrides, players):
    from simulator import config

    try:
        return config.load(spec, overrides, players)
    except ConfigError as exc:
        _fail(exc)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="fairplay")
def main():
    """fairplay: a balance laboratory for hidden-role and card games."""


@main.command()
@click.argument("game", required=False)
@click.option("--keys-markdown", is_flag=True,
              help="Print only the game's config keys, as the Markdown table of its rules doc.")
def games(game, keys_markdown):
    """List the games, or describe one GAME: roles, decisions, observation, strategies, config
    keys and built-in configs."""
    from simulator import describe
    from simulator.games import game_names, get_game

    if game is None:
        for name in game_names(listed_only=True):
            spec = get_game(name)
            click.echo(f"{name:<12} {spec.title}  ({spec.min_players}-{spec.max_players} players, "
                       f"{spec.scoring})")
        return
    if game not in game_names():
        _fail(f"unknown game {game!r}; games: {', '.join(game_names(listed_only=True))}")
    spec = get_game(game)
    lines = describe.keys_markdown(spec) if keys_markdown else describe.game_lines(spec)
    click.echo("\n".join(lines))


def _reproduce_command(config, players, n_games, seed, overrides, chunk_size) -> str:
    """The canonical command that replays a run (defaults spelled out, so nothing is implied)."""
    parts = ["fairplay", "run", config]
    if players is not None:
        parts += ["--players", str(players)]
    parts += ["-n", str(n_games), "--seed", str(seed), "--chunk-size", str(chunk_size)]
    for override in overrides:
        parts += ["--set", override]
    return " ".join(shlex.quote(part) for part in parts)


def _default_output(cfg, seed) -> Path:
    return Path("results") / f"{cfg.game.name}-p{cfg.players}-seed{seed}.json"


@main.command()
@click.argument("config", required=False)
@click.option("--players", type=int, help="Number of players (overrides the config).")
@click.option("-n", "--games", "n_games", type=int, default=100_000, show_default=True,
              help="Games to play.")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed.")
@click.option("--workers", type=int, default=None, help="Worker processes [default: all cores].")
@click.option("--set", "overrides", multiple=True, metavar="KEY=VALUE",
              help="Override a config key, e.g. --set roles.werewolf=3 (repeatable).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Result file [default: results/<game>-p<players>-seed<seed>.json].")
@click.option("--resume", "resume_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Continue the interrupted run saved in this result file.")
@click.option("--chunk-size", type=int, default=runner.DEFAULT_CHUNK_SIZE, show_default=True,
              help="Games per chunk (part of a run's identity: results match for equal seeds "
                   "and chunk sizes).")
@click.option("--report", "report_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write the HTML balance report to this file.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
def run(config, players, n_games, seed, workers, overrides, output, resume_path, chunk_size,
        report_path, quiet):
    """Play CONFIG (a .toml file or a game name) many times and summarise who wins."""
    if workers is not None and workers < 1:
        _fail("--workers must be at least 1")
    progress = progress_bar(quiet, runner.Progress)
    try:
        if resume_path is not None:
            if config is not None:
                _fail("--resume takes the config from the result file; give no CONFIG")
            path = resume_path
            result = runner.resume(path, workers, progress)
        else:
            if config is None:
                _fail("give a CONFIG (a .toml file or a game name), or --resume RESULT")
            if n_games < 1:
                _fail(f"--games must be at least 1, got {n_games}")
            if chunk_size < 1:
                _fail(f"--chunk-size must be at least 1, got {chunk_size}")
            cfg = _load_config(config, overrides, players)
            path = output or _default_output(cfg, seed)
            command = _reproduce_command(config, players, n_games, seed, overrides, chunk_size)
            result = runner.run(cfg, n_games, seed, workers, chunk_size, path, progress, command)
    except (ConfigError, ResultError) as exc:
        _fail(exc)
    except runner.Interrupted as stop:
        done = stop.result.games_played
        click.echo(f"\nInterrupted: {done:,} of {stop.result.data['games_requested']:,} games "
                   f"saved to {stop.path}; continue with: fairplay run --resume {stop.path}",
                   err=True)
        sys.exit(130)
    click.echo(result.summary().table())
    click.echo(f"\nResult saved to {path}")
    if report_path is not None:
        from reports.render import write_run_report

        write_run_report(result, report_path)
        click.echo(f"Report written to {report_path}")


@main.command()
@click.argument("config")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed of the run.")
@click.option("--game", "game_index", type=int, default=0, show_default=True,
              help="Which game of the run (0-based): the trace replays exactly that game.")
@click.option("--chunk-size", type=int, default=runner.DEFAULT_CHUNK_SIZE, show_default=True,
              help="The run's chunk size (a run's games depend on seed and chunk size).")
@click.option("--players", type=int, help="Number of players (overrides the config).")
@click.option("--set", "overrides", multiple=True, metavar="KEY=VALUE", help="Override a key.")
def trace(config, seed, game_index, chunk_size, players, overrides):
    """Print one game of CONFIG step by step, from the same kernel as `run`: by default the first
    game of `fairplay run CONFIG --seed SEED`; --game K replays its game K."""
    if game_index < 0:
        _fail(f"--game must be at least 0, got {game_index}")
    if chunk_size < 1:
        _fail(f"--chunk-size must be at least 1, got {chunk_size}")
    cfg = _load_config(config, overrides, players)
    if not runner.kernel_is_ready(cfg):
        click.echo(f"compiling the {cfg.game.name} kernel, first run only (about a minute)",
                   err=True)
    for line in runner.trace_game(cfg, seed, game_index, chunk_size):
        click.echo(line)


# Regression checks for CI (simulator/regression_cli.py), reports and sweeps (reports/).
from reports.commands import report, sweep  # noqa: E402
from simulator.regression_cli import baseline, check  # noqa: E402

for command in (report, sweep, baseline, check):
    main.add_command(command)


if __name__ == "__main__":  # pragma: no cover
    main()
