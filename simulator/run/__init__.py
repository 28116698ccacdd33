"""Stage 2, run: playing a setup. `runner` plays a config's games in chunks (`chunks`: their
seeds and sizes) on this machine (`local_backend`) or a Dask cluster (`dask_backend`), merges
them into a `results.Result` with checkpoints and `--resume`, and compiles a kernel first
(`compiling`, `compile_cache`). An adaptive run's rule is stored here (`stopping`); whether it
has played enough is asked of the statistics stage through a `stop_check` the caller passes.

May import: setup and what it may.
Must not import: statistics, studies, reports, api, serve or cli: playing never reads a result
statistically.
"""
