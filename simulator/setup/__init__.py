"""Stage 1, setup: reading what a user gives. A config file or a game's name becomes a checked
`Config` (`config`: keys, knobs, strategies, the game's own setup checks); every file fairplay
writes is a `datafile.Kind`, checked whole when read; `describe` says what a game is.

May import: `simulator.schema`, `simulator.fileio`, `simulator.games` and the strategies.
Must not import: run, statistics, studies, reports, api, serve or cli.
"""
