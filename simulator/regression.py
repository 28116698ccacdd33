"""Regression checks: a baseline of a setup's headline measures, and a check against it.

`fairplay baseline` plays each config and stores, per setup, every headline measure with the
counts it is computed from (win counts and games of every team, seat, role and strategy; end
conditions; the mean game length, and mean scores where a game keeps score sums) plus the full
tallies, the resolved config, the seed, the games, the chunk size and the versions. The file is
JSON with the versioned schema ``fairplay.baselines`` (version 1).

`fairplay check` plays every setup again and compares each measure with its baseline by a
two-sample test: the pooled two-proportion z-test for rates, Welch's t-test for means. The
p-values of ALL measures of all setups are Holm-corrected together, so an unchanged game fails a
check with probability at most ``alpha`` however many measures there are. A measure fails only
when its change is significant after Holm (adjusted p < alpha) AND larger than the tolerance, so a
real but negligible drift measured on millions of games does not break a build.

* The check re-reads each config from its *file* (path stored relative to the baselines file), so a
  rules or config change is what it detects; ``stored_config=True`` replays the config dict stored
  in the baseline instead, which isolates code and strategy changes.
* By default the check plays with seed ``baseline seed + 1``: an unchanged setup is then tested
  against chance, not against a bit-identical copy of itself; and being fixed, that seed makes a
  check of an unchanged setup give the same verdict on every CI run.
* Exact mode replays the baseline's seed, games and chunk size and demands bit-identical tallies;
  it applies only when the fairplay, Numba and NumPy versions are the baseline's.

A measure that exists on one side only (a seat, role or strategy that appears or disappears) is a
change of the setup's shape and fails without a test. Role and strategy measures count seat-games,
which are not independent within a game (team-mates win together, rivals exclude each other);
their tests take the game as the unit, from the per-game moments the engine keeps
(`Measure.moments`, `stats.two_clustered`).
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import os
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from simulator import config as config_module
from simulator import datafile, fileio, runner, stats
from simulator.games import get_game
from simulator.results import Result, versions

DEFAULT_GAMES = 200_000
DEFAULT_ALPHA = 0.01
DEFAULT_TOLERANCE = 0.01  # absolute, for rates: one percentage point
# For means, in standard deviations of the baseline's values. A rate is the mean of a 0/1 value
# whose SD is at most 0.5, so one point of a 50% rate is 0.01 / 0.5 = 0.02 SD: the same yardstick.
DEFAULT_MEAN_TOLERANCE = 0.02
# Exact replays need the same code and the same random streams (Numba implements NumPy's
# generators itself, so its version matters as much as NumPy's).
EXACT_VERSIONS = ("fairplay", "numba", "numpy")

# Verdicts
OK, DRIFT, FAIL, MISSING, NEW = "ok", "drift", "FAIL", "missing", "new"
FAILING = (FAIL, MISSING, NEW)


class BaselineError(Exception):
    """An unreadable, corrupt or mismatched baselines file, or a check that cannot apply.

    The message is one line for the user; the CLI prints it and exits with 2.
    """

    def __init__(self, message: str, path=None):
        super().__init__(f"{path}: {message}" if path is not None else message)


# --- measures ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Measure:
    """One headline measure and the integer counts it is computed from.

    A rate has counts ``(successes, trials)``; a mean has ``(sum, sum of squares, count)``.
    """

    group: str  # team, draw, seat, role, strategy, end, length, score
    name: str  # unique within a setup, e.g. "team human", "seat 3", "end: wolves equal humans"
    kind: str  # "rate" or "mean"
    counts: tuple[int, ...]
    # For a rate or a mean over seat-games (a role, a strategy, a role's rounds): the sums over
    # games of y_g², x_g·y_g and x_g² and the number of games, where y_g and x_g are one game's
    # successes (or sum) and trials (or count). Seat-games of one game win together or exclude
    # each other, so the tests take the game as the unit (stats.GameMoments). None: the measure
    # counts one trial (or value) per game, and the plain tests apply.
    moments: tuple[int, int, int, int] | None = None

    @property
    def value(self) -> float:
        if self.kind == "rate":
            k, n = self.counts
            return k / n if n else math.nan
        total, _, n = self.counts
        return total / n if n else math.nan

    @property
    def sd(self) -> float:
        """Standard deviation of the underlying values (of the 0/1 outcome for a rate)."""
        if self.kind == "rate":
            p = self.value
            return math.sqrt(p * (1 - p)) if self.counts[1] else math.nan
        total, total_sq, n = self.counts
        if n < 2:
            return math.nan
        return math.sqrt(max(total_sq - total * total / n, 0.0) / (n - 1))

    def game_moments(self) -> stats.GameMoments:
        y, x = (self.counts[0], self.counts[1]) if self.kind == "rate" else \
            (self.counts[0], self.counts[2])
        yy, xy, xx, games = self.moments
        return stats.GameMoments(y, x, yy, xy, xx, games)

    def same_counts(self, other: "Measure") -> bool:
        return (self.group, self.name, self.kind, self.counts, self.moments) == \
            (other.group, other.name, other.kind, other.counts, other.moments)

    def to_json(self) -> dict:
        if self.kind == "rate":
            k, n = self.counts
            out = {"group": self.group, "name": self.name, "kind": "rate",
                   "successes": k, "trials": n}
        else:
            total, total_sq, n = self.counts
            out = {"group": self.group, "name": self.name, "kind": "mean",
                   "sum": total, "sum_sq": total_sq, "count": n}
        if self.moments is not None:
            out["game_moments"] = list(self.moments)
        return out

    @classmethod
    def from_json(cls, data) -> "Measure":
        if not isinstance(data, dict):
            raise ValueError("a measure must be an object")
        for key in ("group", "name", "kind"):
            if not isinstance(data.get(key), str):
                raise ValueError(f"a measure needs a string {key!r}")
        kind = data["kind"]
        if kind == "rate":
            keys = ("successes", "trials")
        elif kind == "mean":
            keys = ("sum", "sum_sq", "count")
        else:
            raise ValueError(f"measure {data['name']!r} has unknown kind {kind!r}")
        counts = []
        for key in keys:
            value = data.get(key)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"measure {data['name']!r}: {key} must be an integer")
            counts.append(value)
        if kind == "rate" and not 0 <= counts[0] <= counts[1]:
            raise ValueError(f"measure {data['name']!r}: need 0 <= successes <= trials")
        if kind == "mean" and (counts[1] < 0 or counts[2] < 0):
            raise ValueError(f"measure {data['name']!r}: negative sum of squares or count")
        moments = data.get("game_moments")
        if moments is not None:
            if not isinstance(moments, list) or len(moments) != 4 or \
                    any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in moments):
                raise ValueError(f"measure {data['name']!r}: game_moments must be four "
                                 f"non-negative integers (yy, xy, xx, games)")
            moments = tuple(moments)
        return cls(data["group"], data["name"], kind, tuple(counts), moments)

    def format_value(self) -> str:
        if math.isnan(self.value):
            return "n/a"
        return f"{100 * self.value:.2f}%" if self.kind == "rate" else _number(self.value)


def _number(x: float, signed: bool = False) -> str:
    sign = "+" if signed else ""
    x = round(x, 3) + 0.0  # no "-0.000"
    return f"{x:{sign},.3f}" if abs(x) < 1e5 else f"{x:{sign},.0f}"


def measures_of(game, tallies: dict, strategies) -> list[Measure]:
    """Every headline measure of one setup's tallies, in a stable order.

    Rates with no trials (a role nobody was dealt, an unused strategy slot) are left out. Role
    and strategy rates, and means counted per seat-games or rounds, carry their per-game moments
    (`Measure.moments`): their tests take the game as the unit.
    """
    from simulator.results import ratio_moments

    t = {k: np.asarray(v, dtype=np.int64) for k, v in tallies.items()}
    games = int(t["games"][0])
    out: list[Measure] = []

    def moments_of(name, i):
        m = ratio_moments(game, t, name, i)
        return (int(m.yy), int(m.xy), int(m.xx), int(m.games))

    def rate(group, name, k, n, moments=None):
        if int(n) > 0:
            out.append(Measure(group, name, "rate", (int(k), int(n)), moments))

    for i, team in enumerate(game.teams):
        rate("team", f"team {team}", t["team_wins"][i], games)
    rate("draw", "no winner", t["draws"][0], games)
    for seat, wins in enumerate(t["seat_wins"]):
        rate("seat", f"seat {seat}", wins, games)
    for r, role in enumerate(game.roles):
        rate("role", f"role {role.name}", t["role_wins"][r], t["role_games"][r],
             moments_of("role_wins", r))
    for s, label in enumerate(strategies):
        rate("strategy", f"strategy {label}", t["slot_wins"][s], t["slot_games"][s],
             moments_of("slot_wins", s))
    for e, name in enumerate(game.end_names):
        rate("end", f"end: {name}", t["end_counts"][e], games)

    if games:
        lengths = np.arange(len(t["length_hist"]), dtype=np.int64)
        hist = t["length_hist"]
        out.append(Measure("length", f"game length ({game.length_unit})", "mean",
                           (int((lengths * hist).sum()), int((lengths * lengths * hist).sum()),
                            games)))
    role_names = [role.name for role in game.roles]
    for tally in game.tallies:
        if tally.holds != "sum" or tally.name not in t or tally.square not in t:
            continue
        prefix = tally.name[:-4] if tally.name.endswith("_sum") else tally.name
        sums, squares = t[tally.name].ravel(), t[tally.square].ravel()
        per_game = tally.per in ("", "games")
        counts = np.full(sums.size, games) if per_game else t[tally.per].ravel()
        for i in range(sums.size):
            label = {"role": role_names[i] if i < len(role_names) else str(i),
                     "slot": strategies[i] if i < len(strategies) else str(i),
                     "seat": f"seat {i}"}.get(tally.axis, str(i))
            if i < counts.size and int(counts[i]) > 0:
                out.append(Measure("score", f"mean {prefix} {label}" if sums.size > 1 else
                                   f"mean {prefix}", "mean",
                                   (int(sums[i]), int(squares[i]), int(counts[i])),
                                   None if per_game else moments_of(tally.name, i)))
    return out


# --- running many setups in one pool -----------------------------------------------------------
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
    runner.announce_compiling(results, progress.announce)
    progress.start(0, games * len(results))

    def merge(result, chunk, tallies, seconds):
        result.add_chunk(chunk, tallies)
        result.data["elapsed_seconds"] += seconds
        progress.advance(runner.chunk_games(games, chunk_size, chunk))

    try:
        runner.play_jobs(results, jobs, workers, merge, scheduler=scheduler)
    finally:
        progress.close()
    return results


# --- the baselines file ------------------------------------------------------------------------
def _relative(path: Path, start: Path) -> str:
    return Path(os.path.relpath(path.resolve(), start.resolve())).as_posix()


def _entry(name: str, cfg, result: Result, overrides, out_dir: Path) -> dict:
    """One setup of a baselines file."""
    spec_path = Path(name)
    is_file = spec_path.exists() and not spec_path.is_dir()
    source_dir = Path(result.data["base_dir"])
    return {
        "name": name,
        "path": _relative(spec_path, out_dir) if is_file else None,
        "overrides": list(overrides),
        "game": cfg.game.name,
        "players": int(cfg.players),
        "config": cfg.raw,
        "base_dir": _relative(source_dir, out_dir),
        "strategies": list(result.data["strategies"]),
        # the SHA-256 of each user strategy file it played: `check` loads only those contents
        "strategy_files": dict(result.data["fingerprint"].get("strategy_files") or {}),
        "chunk_seconds": round(float(result.data["elapsed_seconds"]), 3),
        "measures": [m.to_json() for m in measures_of(cfg.game, result.tallies,
                                                       result.data["strategies"])],
        "tallies": {k: v.tolist() for k, v in result.tallies.items()},
    }


def baseline_data(names, cfgs, results, overrides_per_setup, games, seed, chunk_size,
                  out_dir: Path, command: str = "") -> dict:
    return {
        **BASELINES_FILE.header(),
        "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "command": command,
        "versions": versions(),
        "games": int(games),
        "seed": int(seed),
        "chunk_size": int(chunk_size),
        "configs": [_entry(name, cfg, result, overrides, out_dir)
                    for name, cfg, result, overrides
                    in zip(names, cfgs, results, overrides_per_setup)],
    }


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


def save(data: dict, path) -> None:
    """Write atomically: a crash mid-write never leaves a half-written baselines file."""
    fileio.write_atomically(path, _dumps(data) + "\n")


def _dumps(data: dict) -> str:
    """JSON with one line per measure and per tally array, so a diff of two baselines reads well.

    Only whitespace that contains a line break is touched, and JSON strings never hold a raw line
    break, so the text stays exactly equivalent to ``json.dumps(data)``.
    """
    text = json.dumps(data, indent=1, ensure_ascii=False)

    def collapse(match):
        inner = re.sub(r"^(\[|\{)\s*\n\s*", r"\1", match.group(0))
        inner = re.sub(r"\s*\n\s*(\]|\})$", r"\1", inner)
        return re.sub(r"\s*\n\s*", " ", inner)

    # innermost lists (numbers, strings) and innermost objects (a measure, the versions)
    text = re.sub(r"\[[^\[\]{}]*\]", collapse, text)
    return re.sub(r"\{[^\[\]{}]*\}", collapse, text)


@dataclass
class Baseline:
    """A loaded, validated baselines file."""

    path: Path
    data: dict

    @property
    def entries(self) -> list[dict]:
        return self.data["configs"]

    @property
    def directory(self) -> Path:
        return self.path.parent


_REQUIRED = datafile.REQUIRED
# A baselines file: its top-level fields, and those of each setup in "configs".
BASELINES_FILE = datafile.Kind(
    "fairplay.baselines", 3, "baselines",  # 3: the seat and position contrast tallies, the
    # strategy files' digests
    error=lambda path, message: BaselineError(message, path), made_by="fairplay baseline",
    remedy="regenerate it with `fairplay baseline`", game_field=None, fields={
        "games": ((int,), _REQUIRED), "seed": ((int,), _REQUIRED),
        "chunk_size": ((int,), _REQUIRED), "versions": ((dict,), _REQUIRED),
        "configs": ((list,), _REQUIRED)})
_ENTRY_FIELDS = {
    "name": ((str,), _REQUIRED), "overrides": ((list,), _REQUIRED), "game": ((str,), _REQUIRED),
    "players": ((int,), _REQUIRED), "config": ((dict,), _REQUIRED),
    "base_dir": ((str,), _REQUIRED), "strategies": ((list,), _REQUIRED),
    "measures": ((list,), _REQUIRED), "tallies": ((dict,), _REQUIRED),
    "path": ((str, type(None)), None),
    # the SHA-256 of each user strategy file the setup played
    "strategy_files": ((dict,), datafile.OPTIONAL)}


def load_baseline(path) -> Baseline:
    """Read and validate a baselines file; any problem raises BaselineError (one line)."""
    path = Path(path)
    data = BASELINES_FILE.load(path)
    if data["games"] < 1 or data["chunk_size"] < 1 or data["seed"] < 0:
        raise BaselineError("corrupt baselines: games and chunk_size must be at least 1, the "
                            "seed at least 0", path)
    if not data["configs"]:
        raise BaselineError("corrupt baselines: no setups in \"configs\"", path)
    names = set()
    for i, entry in enumerate(data["configs"]):
        if not isinstance(entry, dict):
            raise BaselineError(f"corrupt baselines: configs[{i}] is not an object", path)
        where = f"configs[{i}]" + (f" ({entry['name']})" if isinstance(entry.get("name"), str)
                                   else "")
        try:
            datafile.check_fields(entry, _ENTRY_FIELDS)
        except datafile.Unfit as exc:
            raise BaselineError(f"corrupt baselines: {where}: {exc}", path) from None
        if entry["name"] in names:
            raise BaselineError(f"corrupt baselines: setup {entry['name']!r} appears twice", path)
        names.add(entry["name"])
        _check_entry(entry, data, where, path)
    return Baseline(path, data)


def _check_entry(entry: dict, data: dict, where: str, path) -> None:
    files = entry.get("strategy_files", {})
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in files.items()):
        raise BaselineError(f"corrupt baselines: {where}: strategy_files must map strategy "
                            f"files to their SHA-256", path)
    if not all(isinstance(o, str) for o in entry["overrides"]):
        raise BaselineError(f"corrupt baselines: {where}: overrides must be strings", path)
    try:
        game = datafile.known_game(entry["game"])
        arrays = datafile.fit_tallies(game, entry["tallies"], entry["players"], "baseline")
    except datafile.Unfit as exc:
        raise BaselineError(f"{where}: {exc}", path) from None
    if int(arrays["games"][0]) != data["games"]:
        raise BaselineError(f"corrupt baselines: {where}: tallies hold "
                            f"{arrays['games'].tolist()} games, the file says {data['games']}",
                            path)
    stored = []
    for j, raw in enumerate(entry["measures"]):
        try:
            stored.append(Measure.from_json(raw))
        except ValueError as exc:
            raise BaselineError(f"corrupt baselines: {where}: measures[{j}]: {exc}", path) \
                from None
    expected = {m.name: m for m in measures_of(game, arrays, entry["strategies"])}
    given = {m.name: m for m in stored}
    missing = [name for name in expected if name not in given]
    if missing:
        raise BaselineError(f"corrupt baselines: {where}: measure {missing[0]!r} is missing"
                            + (f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""),
                            path)
    unknown = [name for name in given if name not in expected]
    if unknown:
        raise BaselineError(f"corrupt baselines: {where}: measure {unknown[0]!r} does not come "
                            f"from the tallies of a {game.name} game", path)
    for name, measure in given.items():
        if not measure.same_counts(expected[name]):
            raise BaselineError(f"corrupt baselines: {where}: measure {name!r} does not match "
                                f"the stored tallies", path)


# --- running the check -------------------------------------------------------------------------
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


@dataclass
class SetupRun:
    """One setup of a check: the baseline entry, the config played and the new result."""

    name: str
    game: str
    players: int
    baseline_games: int
    baseline_seed: int
    games: int
    seed: int
    overrides: list[str]
    changes: list[str]  # config keys that differ from the baseline's config
    baseline_measures: list[Measure]
    measures: list[Measure]
    baseline_tallies: dict
    tallies: dict
    elapsed: float


@dataclass
class Comparison:
    """One measure of one setup: baseline against new, with its test and verdict."""

    setup: str
    name: str
    kind: str
    baseline: Measure | None
    new: Measure | None
    diff: float = math.nan
    low: float = math.nan
    high: float = math.nan
    pvalue: float = 1.0
    adjusted: float = 1.0
    tolerance: float = 0.0  # in the measure's units
    verdict: str = OK
    confidence: float = math.nan  # of the interval (simultaneous over all tests)

    @property
    def failed(self) -> bool:
        return self.verdict in FAILING

    def _amount(self, x: float, signed: bool = True) -> str:
        if math.isnan(x):
            return "n/a"
        if self.kind == "rate":
            x = round(100 * x, 2) + 0.0  # no "-0.00"
            return f"{x:{'+' if signed else ''}.2f}"
        return _number(x, signed)

    def difference_text(self) -> str:
        if self.baseline is None or self.new is None:
            return "—"
        unit = " pts" if self.kind == "rate" else ""
        if math.isnan(self.low):
            return f"{self._amount(self.diff)}{unit}"
        return (f"{self._amount(self.diff)}{unit} "
                f"[{self._amount(self.low)}, {self._amount(self.high)}]")

    def message(self) -> str:
        """One sentence for a designer (used in failures)."""
        if self.verdict == MISSING:
            return (f"{self.name}: in the baseline ({self.baseline.format_value()}) but absent "
                    f"from this run: the setup changed shape")
        if self.verdict == NEW:
            return (f"{self.name}: not in the baseline, {self.new.format_value()} in this run: "
                    f"the setup changed shape")
        unit = " points" if self.kind == "rate" else ""
        moved = (f"{self.name} moved from {self.baseline.format_value()} to "
                 f"{self.new.format_value()} ({self._amount(self.diff)}{unit}")
        if not math.isnan(self.low):
            moved += (f", {100 * self.confidence:.4g}% CI {self._amount(self.low)} to "
                      f"{self._amount(self.high)}")
        moved += f"; Holm-adjusted {stats.format_p(self.adjusted)})"
        limit = f"the tolerance of {self._amount(self.tolerance, False)}{unit}"
        if self.verdict == FAIL:
            return f"{moved}: significant and beyond {limit}"
        if self.verdict == DRIFT:
            return f"{moved}: significant but within {limit}"
        return f"{moved}: not significant"


def compare(setups: list[tuple[str, list[Measure], list[Measure]]], alpha: float = DEFAULT_ALPHA,
            tolerance: float = DEFAULT_TOLERANCE,
            mean_tolerance: float = DEFAULT_MEAN_TOLERANCE) -> tuple[list[Comparison], float]:
    """Compare every measure of every setup; Holm across all of them together.

    ``setups`` holds ``(setup name, baseline measures, new measures)``. Returns the comparisons
    and the confidence level of their intervals, ``1 - alpha / m`` for m tests: Bonferroni
    intervals, which all hold together with probability at least ``1 - alpha`` (Holm's first
    step), so an interval that excludes 0 agrees with a rejection at the strictest step.
    """
    if not 0 < alpha < 1:
        raise BaselineError(f"--alpha must be between 0 and 1, got {alpha}")
    if tolerance < 0 or mean_tolerance < 0:
        raise BaselineError("tolerances must not be negative")
    rows: list[Comparison] = []
    for setup, before, after in setups:
        old = {m.name: m for m in before}
        new = {m.name: m for m in after}
        for name in list(old) + [n for n in new if n not in old]:
            a, b = old.get(name), new.get(name)
            kind = (a or b).kind
            if a is not None and b is not None and a.kind != b.kind:
                raise BaselineError(f"{setup}: measure {name!r} is a {a.kind} in the baseline "
                                    f"and a {b.kind} now")
            rows.append(Comparison(setup, name, kind, a, b,
                                   verdict=OK if a and b else (MISSING if a else NEW)))
    tested = [row for row in rows if row.baseline is not None and row.new is not None]
    m = len(tested)
    confidence = 1 - alpha / max(m, 1)
    for row in tested:
        before, after = row.baseline, row.new
        if before.moments is not None and after.moments is not None:
            # seat-games: the game is the unit (each run's game-level variance)
            diff, low, high, p = stats.two_clustered(before.game_moments(), after.game_moments(),
                                                     confidence)
        elif row.kind == "rate":
            diff, low, high, p = stats.two_proportions(*before.counts, *after.counts, confidence)
        else:
            diff, low, high, p = stats.two_means(*before.counts, *after.counts,
                                                 confidence=confidence)
        if row.kind == "rate":
            row.tolerance = tolerance
        else:
            sd = row.baseline.sd
            row.tolerance = mean_tolerance * (sd if not math.isnan(sd) else 0.0)
        row.diff, row.low, row.high = float(diff), float(low), float(high)
        row.confidence = confidence
        row.pvalue = 1.0 if math.isnan(p) else float(p)
    for row, adjusted in zip(tested, stats.holm([row.pvalue for row in tested])):
        row.adjusted = float(adjusted)
        if row.adjusted < alpha:
            row.verdict = FAIL if abs(row.diff) > row.tolerance else DRIFT
    return rows, confidence


@dataclass
class TallyCheck:
    """Exact mode: one tally array of one setup, identical or not."""

    setup: str
    tally: str
    identical: bool
    detail: str = ""

    @property
    def failed(self) -> bool:
        return not self.identical


def exact_checks(run: SetupRun) -> list[TallyCheck]:
    out = []
    for name, before in run.baseline_tallies.items():
        a = np.asarray(before, dtype=np.int64)
        b = np.asarray(run.tallies.get(name, []), dtype=np.int64)
        if a.shape == b.shape and np.array_equal(a, b):
            out.append(TallyCheck(run.name, name, True))
            continue
        if a.shape != b.shape:
            detail = f"shape {list(a.shape)} -> {list(b.shape)}"
        else:
            where = np.argwhere(a != b)
            i = tuple(int(x) for x in where[0])
            index = ",".join(map(str, i))
            detail = (f"{len(where)} of {a.size} entries differ; first {name}[{index}]: "
                      f"{int(a[i]):,} -> {int(b[i]):,}")
        out.append(TallyCheck(run.name, name, False, detail))
    return out


@dataclass
class CheckReport:
    """Everything a check found; `passed` decides the exit code."""

    baseline: Baseline
    exact: bool
    alpha: float
    tolerance: float
    mean_tolerance: float
    runs: list[SetupRun]
    comparisons: list[Comparison] = field(default_factory=list)
    confidence: float = math.nan
    tallies: list[TallyCheck] = field(default_factory=list)
    stored_config: bool = False
    cfgs: list = field(default_factory=list, repr=False)  # the configs played (for --update)
    results: list = field(default_factory=list, repr=False)  # and their results

    @property
    def items(self) -> list:
        return self.tallies if self.exact else self.comparisons

    @property
    def failures(self) -> list:
        return [item for item in self.items if item.failed]

    @property
    def passed(self) -> bool:
        return not self.failures

    # --- text ----------------------------------------------------------------------------------
    def table(self) -> str:
        lines = []
        for run in self.runs:
            lines.append(f"{run.name} ({run.game}, {run.players} players): baseline "
                         f"{run.baseline_games:,} games (seed {run.baseline_seed}), this run "
                         f"{run.games:,} games (seed {run.seed})"
                         + (f", --set {' '.join(run.overrides)}" if run.overrides else ""))
            for change in run.changes:
                lines.append(f"  config differs from the baseline's: {change}")
            if not self.exact and (run.seed, run.games) == (run.baseline_seed,
                                                            run.baseline_games):
                lines.append("  note: the baseline's own seed and games: an unchanged setup "
                             "reproduces it exactly, so chance is not tested (that is --exact)")
            if self.exact:
                lines.extend(self._exact_lines(run))
            else:
                lines.extend(self._comparison_lines(run))
            lines.append(self._balance_line(run))
            lines.append("")
        lines.append(self.verdict())
        return "\n".join(lines)

    def _balance_line(self, run: SetupRun) -> str:
        """The run's balance verdict (as `fairplay run` says it, with the config's tolerance)
        for the baseline's games and for this run's: a check also says when the verdict moved."""
        from simulator import verdict as verdicts

        entry = next(e for e in self.baseline.entries if e["name"] == run.name)
        game = get_game(run.game)
        said = []
        for tallies, data in (
                (run.baseline_tallies, {"config": entry["config"],
                                        "strategies": entry["strategies"]}),
                (run.tallies, self.results[self.runs.index(run)].data
                 if len(self.results) == len(self.runs) else
                 {"config": entry["config"], "strategies": entry["strategies"]})):
            arrays = {k: np.asarray(v, dtype=np.int64) for k, v in tallies.items()}
            found, tolerance = verdicts.run_findings(game, arrays, data)
            said.append(verdicts.judge(found, tolerance, int(arrays["games"][0]), "finding"))
        # moved: another status, another finding leading it, or the same one by more than the
        # tolerance (not the same verdict by a hair)
        keys = [(v.status, v.lead.group if v.lead else "", v.lead.name if v.lead else "")
                for v in said]
        size = [v.lead.difference if v.lead and v.lead.rate.trials else 0.0 for v in said]
        same = keys[0] == keys[1] and abs(size[1] - size[0]) <= said[0].tolerance
        moved = "" if same else " (the verdict moved)"
        return (f"  balance verdict: baseline {said[0].headline.lower()}; now "
                f"{said[1].headline.lower()}{moved}")

    def _comparison_lines(self, run: SetupRun) -> list[str]:
        rows = [row for row in self.comparisons if row.setup == run.name]
        level = f"{100 * self.confidence:.4g}%"
        header = ("measure", "baseline", "new", f"difference [{level} CI]", "p (Holm)", "verdict")
        body = []
        for row in rows:
            verdict = {DRIFT: "drift (within tolerance)", FAIL: "FAIL",
                       MISSING: "FAIL (missing now)", NEW: "FAIL (new measure)"}.get(row.verdict,
                                                                                  row.verdict)
            tested = row.baseline is not None and row.new is not None
            body.append((row.name,
                         row.baseline.format_value() if row.baseline else "—",
                         row.new.format_value() if row.new else "—",
                         row.difference_text(),
                         stats.format_p(row.adjusted) if tested else "—",
                         verdict))
        widths = [max(len(r[i]) for r in [header] + body) for i in range(len(header))]
        align = ["<", ">", ">", ">", ">", "<"]

        def fmt(r):
            return "  " + "  ".join(f"{c:{a}{w}}" for c, a, w in zip(r, align, widths)).rstrip()

        return [fmt(header)] + [fmt(r) for r in body]

    def _exact_lines(self, run: SetupRun) -> list[str]:
        checks = [c for c in self.tallies if c.setup == run.name]
        differing = [c for c in checks if c.failed]
        if not differing:
            return [f"  all {len(checks)} tallies bit-identical"]
        lines = [f"  {c.tally}: differs ({c.detail})" for c in differing]
        changed = [(a, b) for a, b in zip_measures(run.baseline_measures, run.measures)
                   if a is None or b is None or a.counts != b.counts]
        if changed:
            lines.append("  measures that changed:")
            for a, b in changed[:12]:
                name = (a or b).name
                lines.append(f"    {name}: {a.format_value() if a else '—'} -> "
                             f"{b.format_value() if b else '—'}")
            if len(changed) > 12:
                lines.append(f"    ... and {len(changed) - 12} more")
        return lines

    def verdict(self) -> str:
        setups = len(self.runs)
        if self.exact:
            total = len(self.tallies)
            if self.passed:
                return (f"PASS: all {total} tallies of {setups} setup(s) are bit-identical to "
                        f"the baseline (exact mode).")
            names = sorted({f"{c.setup}: {c.tally}" for c in self.failures})
            return (f"FAIL: {len(self.failures)} of {total} tallies differ from the baseline "
                    f"(exact mode): {'; '.join(names)}.")
        total = len(self.comparisons)
        rule = (f"alpha {self.alpha:g} after Holm across all {total} measures; tolerance "
                f"{100 * self.tolerance:g} point(s) for rates, {self.mean_tolerance:g} SD for "
                f"means")
        drifts = [row for row in self.comparisons if row.verdict == DRIFT]
        drift_note = (f" {len(drifts)} significant drift(s) within tolerance."
                      if drifts else "")
        if self.passed:
            return f"PASS: all {total} measures of {setups} setup(s) hold ({rule}).{drift_note}"
        shown = 6
        named = "; ".join(f"{row.setup}: {row.name} "
                          f"{row.difference_text() if row.verdict == FAIL else row.verdict}"
                          for row in self.failures[:shown])
        if len(self.failures) > shown:
            named += f"; and {len(self.failures) - shown} more"
        return (f"FAIL: {len(self.failures)} of {total} measures regressed ({rule}): "
                f"{named}.{drift_note}")

    # --- JUnit XML -----------------------------------------------------------------------------
    def junit(self) -> ET.ElementTree:
        """One testsuite per setup, one testcase per measure (per tally in exact mode)."""
        suites = ET.Element("testsuites", name="fairplay check")
        total_tests = total_failures = 0
        total_time = 0.0
        for run in self.runs:
            items = [item for item in self.items if item.setup == run.name]
            failures = sum(item.failed for item in items)
            total_tests += len(items)
            total_failures += failures
            total_time += run.elapsed
            suite = ET.SubElement(suites, "testsuite", name=run.name, tests=str(len(items)),
                                  failures=str(failures), errors="0", skipped="0",
                                  time=f"{run.elapsed:.3f}")
            props = ET.SubElement(suite, "properties")
            for key, value in (("game", run.game), ("players", run.players),
                               ("baseline games", run.baseline_games),
                               ("baseline seed", run.baseline_seed), ("games", run.games),
                               ("seed", run.seed), ("mode", "exact" if self.exact else
                                                    "statistical"),
                               ("alpha", self.alpha), ("tolerance", self.tolerance),
                               ("mean tolerance (SD)", self.mean_tolerance),
                               ("overrides", " ".join(run.overrides)),
                               ("config changes", "; ".join(run.changes))):
                ET.SubElement(props, "property", name=key, value=str(value))
            classname = "fairplay." + run.name
            for item in items:
                if self.exact:
                    case = ET.SubElement(suite, "testcase", classname=classname,
                                         name=f"tally {item.tally}", time="0")
                    if item.failed:
                        failure = ET.SubElement(case, "failure", type="exact-mismatch",
                                                message=f"{item.tally} differs from the "
                                                        f"baseline: {item.detail}")
                        failure.text = failure.get("message")
                    continue
                case = ET.SubElement(suite, "testcase", classname=classname, name=item.name,
                                     time="0")
                if item.failed:
                    failure = ET.SubElement(case, "failure", type="regression",
                                            message=item.message())
                    before = list(item.baseline.counts) if item.baseline else "-"
                    after = list(item.new.counts) if item.new else "-"
                    failure.text = f"{item.message()}\ncounts: baseline {before}, new {after}"
                elif item.verdict == DRIFT:
                    out = ET.SubElement(case, "system-out")
                    out.text = "significant drift within tolerance: " + item.message()
        suites.set("tests", str(total_tests))
        suites.set("failures", str(total_failures))
        suites.set("errors", "0")
        suites.set("time", f"{total_time:.3f}")
        ET.indent(suites)
        return ET.ElementTree(suites)

    def write_junit(self, path) -> None:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        self.junit().write(path, encoding="utf-8", xml_declaration=True)


def zip_measures(before: list[Measure], after: list[Measure]):
    old = {m.name: m for m in before}
    new = {m.name: m for m in after}
    for name in list(old) + [n for n in new if n not in old]:
        yield old.get(name), new.get(name)


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
            baseline_measures=[Measure.from_json(m) for m in entry["measures"]],
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
