"""The `fairplay` command line: a thin layer over simulator.api, one module per command group.

A user's mistake (bad config, bad option, unreadable result) prints one line and exits with 2;
never a traceback. Ctrl-C saves what is done and exits with 130. The helpers every command
shares (one-line errors, progress bars, output files, --scheduler) are in `support`.

The top stage: may import every other (`fairplay serve` starts the workbench); nothing imports
it.
"""

import click

from simulator.cli import (
    best_response, coverage, equilibrate, games, regression, reports, roles, run, serve, tune,
)
from simulator.cli.support import OneLineErrors


@click.group(cls=OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="fairplay")
def main():
    """fairplay: a balance laboratory for hidden-role and card games."""


for command in (games.games, run.run, run.trace, reports.report, reports.sweep, reports.export,
                regression.baseline, regression.check, tune.tune, roles.roles,
                best_response.best_response, equilibrate.equilibrate, coverage.coverage,
                serve.serve):
    main.add_command(command)
