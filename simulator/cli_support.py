"""What every command of the CLI shares: one-line user errors and the progress bar."""

from __future__ import annotations

import sys

import click


class UserError(click.ClickException):
    """A user's mistake: printed as one line `fairplay: error: ...`, exit code 2, no traceback."""

    exit_code = 2

    def show(self, file=None):
        click.echo(f"fairplay: error: {self.message}", err=True)


def fail(problem) -> None:
    raise UserError(str(problem)) from None


def progress_bar(quiet: bool, progress_class):
    """A `progress_class(start, advance, close, announce)`: a tqdm bar on a terminal, and lines
    for the user (such as "compiling the ... kernel") on standard error; nothing when quiet.
    `start` receives the total games (and optionally the games already done first)."""
    if quiet:
        return None

    def announce(line):
        click.echo(line, err=True)

    if not sys.stderr.isatty():
        return progress_class(announce=announce)
    from tqdm import tqdm

    bar = {}

    def start(*counts):
        done, total = (0, counts[0]) if len(counts) == 1 else counts
        bar["t"] = tqdm(total=total, initial=done, unit="games", unit_scale=True, file=sys.stderr)

    return progress_class(start=start, advance=lambda n: bar["t"].update(n),
                          close=lambda: bar["t"].close(), announce=announce)
