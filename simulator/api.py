"""The Python API: what the command line is a thin layer over, for notebooks and scripts.

    from simulator import api
    cfg = api.load("werewolf", players=12, overrides=["roles.werewolf=3"])
    result = api.run(cfg, games=200_000, seed=1)
    summary = api.summarize(result)
    print(summary.table())            # the CLI's table
    rows = summary.records()          # one dict per rate: group, name, wins, games, rate, low, high
    print(summary.verdict)
    for line in api.trace(cfg, seed=3):
        print(line)
"""

from functools import partial

from simulator.run import runner
from simulator.run.results import Result, ResultError
from simulator.run.runner import trace_game as trace
from simulator.setup.config import Config, ConfigError, load
from simulator.statistics import adaptive
from simulator.statistics.summary import Summary, summarize

# A run, or a resumed one, with the statistics stage deciding when an adaptive run (a
# `stopping` rule) has played enough.
run = partial(runner.run, stop_check=adaptive.stops)
resume = partial(runner.resume, stop_check=adaptive.stops)

__all__ = ["Config", "ConfigError", "Result", "ResultError", "Summary", "load", "resume", "run",
           "summarize", "trace"]
