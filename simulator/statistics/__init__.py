"""Stage 3, statistics: reading results. `inference` (intervals, tests, Holm's correction,
sample sizes), `sequential` (the group-sequential test), `rates` and `headline` (a result's
measures), `verdict` (balanced, unbalanced or not settled), `coverage` (which events and endings
occur), `adaptive` (whether an adaptive run has played enough) and `summary` (all of it for one
run: the table `fairplay run` prints).

May import: run, setup and what they may.
Must not import: studies, reports, api, serve or cli.
"""
