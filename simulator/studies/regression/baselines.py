"""The baselines file: written by `fairplay baseline`, read (as data) by `fairplay check`.

JSON of the versioned kind ``fairplay.baselines`` (`BASELINES_FILE`): per setup, its headline
measures with their counts, the full tallies, the resolved config, and where its config file
and strategy files were; for the whole file the seed, the games, the chunk size and the versions.
Loading checks every setup against its game: its tallies fit it and its measures are the ones
its tallies give.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from simulator.setup import datafile
from simulator import fileio
from simulator.statistics.headline import Measure, measures_of
from simulator.run.results import Result, versions


# The result data a balance verdict reads besides the tallies (verdict.run_findings).
VERDICT_DATA = ("dealt_teams", "slot_table")


class BaselineError(Exception):
    """An unreadable, corrupt or mismatched baselines file, or a check that cannot apply.

    The message is one line for the user; the CLI prints it and exits with 2.
    """

    def __init__(self, message: str, path=None):
        super().__init__(f"{path}: {message}" if path is not None else message)


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
        # what the balance verdict reads besides the tallies: who was dealt, who played what
        **{key: result.data[key] for key in VERDICT_DATA},
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


def save(data: dict, path) -> None:
    """Write atomically (a crash mid-write never leaves a half-written baselines file) and
    checksummed whole: a hand-edited measure, tally or count is refused when read."""
    fileio.write_atomically(path, _dumps(BASELINES_FILE.seal(data)) + "\n")


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


def baseline_measures(entry: dict) -> list:
    """Every headline measure of a setup of a loaded baselines file, from its stored tallies."""
    game = datafile.known_game(entry["game"])
    arrays = datafile.fit_tallies(game, entry["tallies"], entry["players"], "baseline")
    return measures_of(game, arrays, entry["strategies"])


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
    "fairplay.baselines", 4, "baselines",  # 4: checksummed whole (3: the seat and position
    # contrast tallies, the strategy files' digests)
    error=lambda path, message: BaselineError(message, path), made_by="fairplay baseline",
    remedy="regenerate it with `fairplay baseline`", game_field=None, checksummed=True, fields={
        "games": ((int,), _REQUIRED), "seed": ((int,), _REQUIRED),
        "chunk_size": ((int,), _REQUIRED), "versions": ((dict,), _REQUIRED),
        "configs": ((list,), _REQUIRED)})
_ENTRY_FIELDS = {
    "name": ((str,), _REQUIRED), "overrides": ((list,), _REQUIRED), "game": ((str,), _REQUIRED),
    "players": ((int,), _REQUIRED), "config": ((dict,), _REQUIRED),
    "base_dir": ((str,), _REQUIRED), "strategies": ((list,), _REQUIRED),
    "measures": ((list,), _REQUIRED), "tallies": ((dict,), _REQUIRED),
    "path": ((str, type(None)), None),
    # absent in files from before they were stored (a check then takes them from its own run
    # when the config has not changed)
    "dealt_teams": ((list,), datafile.OPTIONAL), "slot_table": ((list,), datafile.OPTIONAL),
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
    # The measures are a readable copy of what the tallies give (a check derives them from the
    # tallies, `baseline_measures`); one the file lacks is a measure added since it was written.
    expected = {m.name: m for m in measures_of(game, arrays, entry["strategies"])}
    given = {m.name: m for m in stored}
    unknown = [name for name in given if name not in expected]
    if unknown:
        raise BaselineError(f"corrupt baselines: {where}: measure {unknown[0]!r} does not come "
                            f"from the tallies of a {game.name} game", path)
    for name, measure in given.items():
        if not measure.same_counts(expected[name]):
            raise BaselineError(f"corrupt baselines: {where}: measure {name!r} does not match "
                                f"the stored tallies", path)
