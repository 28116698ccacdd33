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

from simulator.config import Config, ConfigError, load
from simulator.results import Result, ResultError
from simulator.runner import resume, run, trace_game as trace
from simulator.summary import Summary, summarize

__all__ = ["Config", "ConfigError", "Result", "ResultError", "Summary", "load", "resume", "run",
           "summarize", "trace"]
