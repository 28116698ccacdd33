"""Stage 4, studies: many runs answering one question. `sweep` (a grid of setups), `tune` (a
race for the fairest), `compare` (two results side by side), `roles` (what each role is worth),
`best_response` (how much better a team could play), `robustness` (does the verdict depend on
the players), `standard` (are the players good enough to measure with) and `regression/` (the
balance baselines CI checks).

May import: statistics, run, setup and what they may.
Must not import: reports, api, serve or cli.
"""
