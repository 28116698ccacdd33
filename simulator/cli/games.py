"""The `fairplay games` command: the games, and what each one declares."""

from __future__ import annotations

import click

from simulator.cli.support import fail as _fail


@click.command(short_help="List the games, or describe one in full.")
@click.argument("game", required=False)
@click.option("--keys-markdown", is_flag=True,
              help="Print only the game's config keys, as the Markdown table of its rules doc.")
def games(game, keys_markdown):
    """List the games, or describe one GAME: roles, decisions, observation, strategies, config
    keys and built-in configs."""
    from simulator.setup import describe
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
