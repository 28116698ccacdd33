"""Playing: the setups of a baseline (`make_baseline`), and again to check them (`check`).

All setups share one process pool (`run_setups`). A check re-reads each config from its file (or
replays the stored one), plays with seed ``baseline seed + 1`` by default (exact mode: the
baseline's own seed, games and chunk size, and only when the versions are the baseline's), and
hands the measures or tallies to the comparison; `update` saves the check's own run as the new
baseline.
"""

from __future__ import annotations

import json
from pathlib import Path

from simulator.setup import config as config_module
from simulator.run import chunks, runner
from simulator.studies.regression.baselines import (Baseline, BaselineError, baseline_data,
                                           baseline_measures, save)
from simulator.studies.regression.comparison import (DEFAULT_ALPHA, DEFAULT_MEAN_TOLERANCE,
                                             DEFAULT_TOLERANCE, SetupRun, compare, exact_checks)
from simulator.statistics.headline import measures_of
from simulator.studies.regression.report import CheckReport
from simulator.run.results import Result, versions

DEFAULT_GAMES = 200_000
# Exact replays need the same code and the same random streams (Numba implements NumPy's
# generators itself, so its version matters as much as NumPy's).
EXACT_VERSIONS = ("fairplay", "numba", "numpy")


def run_setups(cfgs, games: int, seed: int, chunk_size: int = runner.DEFAULT_CHUNK_SIZE,
               workers: int | None = None, progress: runner.Progress | None = None,
               command: str = "", scheduler: str | None = None) -> list[Result]:
    """Play `games` games of every config with one process pool; one Result per config.

    Each Result is bit-identical to ``runner.run(cfg, games, seed, chunk_size=chunk_size)``: the
    chunks and their seeds are the same, only the pool is shared (so workers load the compiled
    kernels once, not once per setup). ``elapsed_seconds`` is the time spent in the setup's
    chunks, summed over workers.
    """
    progress = progress or runner.Progress()
    results = [runner.start(cfg, games, seed, chunk_size, command) for cfg in cfgs]
    jobs = ((result, chunk) for result in results for chunk in runner.missing_chunks(result))
    runner.announce_compiling(results, progress, here=scheduler is None)
    progress.start(0, games * len(results))

    def merge(result, chunk, tallies, seconds):
        result.add_chunk(chunk, tallies)
        result.data["elapsed_seconds"] += seconds
        progress.advance(chunks.chunk_games(games, chunk_size, chunk))

    try:
        runner.play_jobs(results, jobs, workers, merge, scheduler=scheduler)
    finally:
        progress.close()
    return results


def make_baseline(specs, output, games: int = DEFAULT_GAMES, seed: int = 0,
                  workers: int | None = None, chunk_size: int = runner.DEFAULT_CHUNK_SIZE,
                  overrides=(), progress: runner.Progress | None = None,
                  command: str = "", scheduler: str | None = None) -> dict:
    """Play every config and return the baselines data (saved to `output` when it is not None).

    Raises ConfigError for a bad config and BaselineError for bad arguments.
    """
    specs = list(specs)
    if not specs:
        raise BaselineError("give at least one CONFIG")
    if games < 1:
        raise BaselineError(f"--games must be at least 1, got {games}")
    if chunk_size < 1:
        raise BaselineError(f"--chunk-size must be at least 1, got {chunk_size}")
    repeated = sorted({s for s in specs if specs.count(s) > 1})
    if repeated:
        raise BaselineError(f"config given twice: {', '.join(repeated)}")
    cfgs = [config_module.load(spec, overrides) for spec in specs]
    results = run_setups(cfgs, games, seed, chunk_size, workers, progress, command, scheduler)
    out_dir = Path(output).parent if output is not None else Path(".")
    data = baseline_data(specs, cfgs, results, [list(overrides)] * len(specs), games, seed,
                         chunk_size, out_dir, command)
    if output is not None:
        save(data, output)
    return data


def _flatten(value, prefix="") -> dict:
    if isinstance(value, dict):
        out = {}
        for key, inner in value.items():
            out.update(_flatten(inner, f"{prefix}{key}."))
        return out or {prefix[:-1]: {}}
    return {prefix[:-1]: value}


def config_changes(old: dict, new: dict) -> list[str]:
    """The dotted keys where two raw configs differ, as 'key: old -> new'."""
    a, b = _flatten(old), _flatten(new)
    lines = []
    for key in sorted(set(a) | set(b)):
        if a.get(key, "<unset>") != b.get(key, "<unset>"):
            before = json.dumps(a[key]) if key in a else "(unset)"
            after = json.dumps(b[key]) if key in b else "(unset)"
            lines.append(f"{key}: {before} -> {after}")
    return lines


def setup_config(baseline: Baseline, entry: dict, overrides=(), stored_config: bool = False):
    """The config a check plays for one setup: its file (default) or the stored dict."""
    all_overrides = list(entry["overrides"]) + list(overrides)
    name = entry["name"]
    # A baselines file is data: the strategy files its setups name are run only with the
    # contents it recorded (a changed strategy is a changed baseline: `check --update`).
    code = config_module.recorded(entry.get("strategy_files") or {}, "the baseline was made")
    if stored_config:
        raw = config_module.apply_overrides(entry["config"], overrides, f"{name} (stored)")
        return config_module.from_raw(raw, f"{name} (stored in {baseline.path.name})",
                                      (baseline.directory / entry["base_dir"]).resolve(), code)
    if entry.get("path") is not None:
        file = baseline.directory / entry["path"]
        if not file.exists():
            raise BaselineError(f"{name}: config file {file} not found (the baselines file "
                                f"names it relative to itself); restore it, or check the "
                                f"stored config with --stored-config", baseline.path)
        return config_module.load(str(file), all_overrides, code=code)
    return config_module.load(name, all_overrides, code=code)


def check(baseline: Baseline, games: int | None = None, seed: int | None = None,
          tolerance: float = DEFAULT_TOLERANCE, alpha: float = DEFAULT_ALPHA,
          mean_tolerance: float = DEFAULT_MEAN_TOLERANCE, overrides=(), workers: int | None = None,
          exact: bool = False, stored_config: bool = False,
          progress: runner.Progress | None = None, scheduler: str | None = None) -> CheckReport:
    """Re-run every setup of `baseline` and compare it (statistically, or exactly).

    Defaults: the baseline's number of games; seed = baseline seed + 1 (exact mode: the
    baseline's seed). Raises BaselineError / ConfigError on bad input (exit 2 in the CLI).
    """
    data = baseline.data
    if games is not None and games < 1:
        raise BaselineError(f"--games must be at least 1, got {games}")
    if not 0 < alpha < 1:
        raise BaselineError(f"--alpha must be between 0 and 1, got {alpha}")
    if tolerance < 0 or mean_tolerance < 0:
        raise BaselineError("--tolerance and --mean-tolerance must not be negative")
    if exact:
        _exact_applies(baseline, games, seed)
        games, seed = data["games"], data["seed"]
    games = data["games"] if games is None else games
    seed = data["seed"] + 1 if seed is None else seed

    cfgs = []
    for entry in baseline.entries:
        cfg = setup_config(baseline, entry, overrides, stored_config)
        if cfg.game.name != entry["game"]:
            raise BaselineError(f"{entry['name']}: the config is now a {cfg.game.name} setup, "
                                f"the baseline holds a {entry['game']} one", baseline.path)
        cfgs.append(cfg)
    results = run_setups(cfgs, games, seed, data["chunk_size"], workers, progress,
                         scheduler=scheduler)

    runs = []
    for entry, cfg, result in zip(baseline.entries, cfgs, results):
        runs.append(SetupRun(
            name=entry["name"], game=entry["game"], players=int(cfg.players),
            baseline_games=data["games"], baseline_seed=data["seed"], games=games, seed=seed,
            overrides=list(entry["overrides"]) + list(overrides),
            changes=config_changes(entry["config"], cfg.raw),
            baseline_measures=baseline_measures(entry),
            measures=measures_of(cfg.game, result.tallies, result.data["strategies"]),
            baseline_tallies=entry["tallies"],
            tallies={k: v.tolist() for k, v in result.tallies.items()},
            elapsed=float(result.data["elapsed_seconds"])))
    report = CheckReport(baseline, exact, alpha, tolerance, mean_tolerance, runs,
                         stored_config=stored_config)
    if exact:
        report.tallies = [c for run in runs for c in exact_checks(run)]
    else:
        report.comparisons, report.confidence = compare(
            [(run.name, run.baseline_measures, run.measures) for run in runs],
            alpha, tolerance, mean_tolerance)
    report.cfgs, report.results = cfgs, results
    return report


def _exact_applies(baseline: Baseline, games, seed) -> None:
    data = baseline.data
    why = []
    if games is not None and games != data["games"]:
        why.append(f"the baseline played {data['games']:,} games per setup, not {games:,}")
    if seed is not None and seed != data["seed"]:
        why.append(f"the baseline's seed is {data['seed']}, not {seed}")
    now = versions()
    for package in EXACT_VERSIONS:
        then = data["versions"].get(package)
        if then != now.get(package):
            why.append(f"the baseline was made with {package} {then}, this is {now.get(package)}")
    if why:
        raise BaselineError("exact mode does not apply: " + "; ".join(why)
                            + " (check statistically without --exact, or refresh the baseline "
                              "with --update)", baseline.path)


def updated_data(report: CheckReport, command: str = "") -> dict:
    """The baselines data of the check's own run (for --update)."""
    runs = report.runs
    entries_by_name = {entry["name"]: entry for entry in report.baseline.entries}
    data = baseline_data([run.name for run in runs], report.cfgs, report.results,
                         [run.overrides for run in runs], runs[0].games, runs[0].seed,
                         report.baseline.data["chunk_size"], report.baseline.directory, command)
    for entry in data["configs"]:
        old = entries_by_name[entry["name"]]
        # keep the stored location of each config: the names were given relative to the cwd
        # of `fairplay baseline`, which need not be today's
        entry["path"] = old.get("path")
        if report.stored_config:
            entry["base_dir"] = old["base_dir"]
    return data


def update(report: CheckReport, command: str = "") -> dict:
    data = updated_data(report, command)
    save(data, report.baseline.path)
    return data
