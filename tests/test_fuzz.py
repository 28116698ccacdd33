"""Property-based fuzzing of fairplay's inputs (docs/reliability.md): damaged configs, random
`--set` overrides, damaged result files and baselines, for every registered game. Each must either
run or be refused with exit 2 and one line, never a traceback. (A check whose baseline was
damaged may also fail as a check: exit 1.)

Hypothesis runs derandomized, so the examples are the same on every run; the normal suite tries a
few per property, the `slow` suite more (each example plays games and writes a report, so the
counts are sized to keep CI within its time).
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simulator import config
from simulator.cli import main
from simulator.games import game_names

GAMES = game_names(listed_only=True)
GAMES_PLAYED = 20  # each example plays a few games: the faults sit at load and validation

FEW = settings(max_examples=5, deadline=None, derandomize=True, database=None,
               suppress_health_check=list(HealthCheck))
MANY = settings(FEW, max_examples=30)


def invoke(*args) -> None:
    """Run the CLI and check the promise: success, or exit 2 (1 for a failing check) with one
    line and no traceback."""
    result = CliRunner().invoke(main, [str(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"{args}: {type(result.exception).__name__}: {result.exception}")
    assert "Traceback" not in result.output, args
    allowed = (0, 1, 2) if args[0] == "check" else (0, 2)
    assert result.exit_code in allowed, (args, result.exit_code, result.output)
    if result.exit_code == 2:
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        assert len(lines) == 1, (args, result.stderr)


# --- values a user might type ----------------------------------------------------------------------
scalars = st.one_of(st.integers(-3, 30), st.floats(-2, 40, allow_nan=False), st.booleans(),
                    st.text("abcdefghijklmnopqrstuvwxyz-_ .:/", max_size=10))
json_values = st.one_of(scalars, st.none(), st.lists(scalars, max_size=4),
                        st.dictionaries(st.text("abcxyz_", min_size=1, max_size=5), scalars,
                                        max_size=3))
toml_texts = st.one_of(scalars.map(json.dumps), st.lists(st.integers(-2, 12), max_size=4).map(
    json.dumps), st.text(max_size=12))


def key_paths(tree: dict, prefix: str = "") -> list[str]:
    paths = []
    for key, value in tree.items():
        path = f"{prefix}{key}"
        paths.append(path)
        if isinstance(value, dict):
            paths += key_paths(value, path + ".")
    return paths


def default_raw(game: str) -> dict:
    return config.load(game).raw


# --- configs and --set ---------------------------------------------------------------------------
@st.composite
def damaged_config_texts(draw):
    game = draw(st.sampled_from(GAMES))
    lines = config.locate(game).read_text(encoding="utf-8").splitlines()
    keys = key_paths(default_raw(game)) + ["players", "unknown", "strategies.all"]
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, max(len(lines) - 1, 0)))
        what = draw(st.sampled_from(["delete", "duplicate", "replace", "truncate"]))
        if what == "delete" and lines:
            del lines[at]
        elif what == "duplicate" and lines:
            lines.insert(at, lines[at])
        elif what == "replace":
            key = draw(st.sampled_from(keys)).rpartition(".")[2]
            lines[at:at + 1] = [f"{key} = {draw(toml_texts)}"]
        elif lines:
            lines[at] = lines[at][:draw(st.integers(0, len(lines[at])))]
    return game, "\n".join(lines) + "\n"


@st.composite
def overrides(draw):
    game = draw(st.sampled_from(GAMES))
    keys = key_paths(default_raw(game)) + ["players", "nope", "strategies.seat.0", "roles.x"]
    sets = draw(st.lists(st.tuples(st.sampled_from(keys), toml_texts), min_size=1, max_size=3))
    return game, [f"{key}={value}" for key, value in sets]


def check_config_text(case) -> None:
    game, text = case
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"{game}.toml"
        path.write_text(text, encoding="utf-8")
        invoke("run", path, "-n", GAMES_PLAYED, "--workers", 1, "-q", "-o",
               Path(folder) / "out.json")


def check_overrides(case) -> None:
    game, sets = case
    arguments = [part for value in sets for part in ("--set", value)]
    with tempfile.TemporaryDirectory() as folder:
        invoke("run", game, *arguments, "-n", GAMES_PLAYED, "--workers", 1, "-q", "-o",
               Path(folder) / "out.json")


test_damaged_configs = FEW(given(damaged_config_texts())(check_config_text))
test_random_overrides = FEW(given(overrides())(check_overrides))
test_damaged_configs_many = pytest.mark.slow(MANY(given(damaged_config_texts())(
    check_config_text)))
test_random_overrides_many = pytest.mark.slow(MANY(given(overrides())(check_overrides)))


# --- result files and baselines ------------------------------------------------------------------
_MADE: dict[tuple[str, str], str] = {}


def made(kind: str, game: str) -> str:
    """A small valid result (an interrupted one, so --resume has work) or baseline of `game`,
    made once per process."""
    if (kind, game) not in _MADE:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "file.json"
            if kind == "result":
                args = ["run", game, "-n", 2 * GAMES_PLAYED, "--chunk-size", GAMES_PLAYED,
                        "--workers", 1, "-q", "-o", path]
            else:
                args = ["baseline", game, "-n", GAMES_PLAYED, "--workers", 1, "-o", path]
            result = CliRunner().invoke(main, [str(a) for a in args])
            assert result.exit_code == 0, result.output
            data = json.loads(path.read_text(encoding="utf-8"))
            # the same bytes on every machine and run, so the derandomized examples are too
            data.update(created="2026-01-01T00:00:00+00:00", command="fairplay")
            if kind == "result":
                data["games_requested"], data["complete"] = 3 * GAMES_PLAYED, False
                data.update(base_dir=".", elapsed_seconds=0.0)
            else:
                for entry in data["configs"]:
                    entry.update(base_dir=".", chunk_seconds=0.0)
            _MADE[kind, game] = json.dumps(data)
    return _MADE[kind, game]


def json_paths(node, prefix=()) -> list[tuple]:
    paths = [prefix] if prefix else []
    if isinstance(node, dict):
        for key, value in node.items():
            paths += json_paths(value, prefix + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node[:6]):
            paths += json_paths(value, prefix + (index,))
    return paths


@st.composite
def damaged_files(draw, kind: str):
    game = draw(st.sampled_from(GAMES))
    text = made(kind, game)
    if draw(st.booleans()) and draw(st.integers(0, 4)) == 0:  # cut short
        return game, text[:draw(st.integers(0, len(text) - 1))]
    data = json.loads(text)
    for _ in range(draw(st.integers(1, 3))):
        paths = json_paths(data)
        path = draw(st.sampled_from(paths))
        parent = data
        for step in path[:-1]:
            parent = parent[step]
        if draw(st.booleans()) and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent[path[-1]] = draw(json_values)
    return game, json.dumps(data)


def check_result_file(case) -> None:
    _, text = case
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "result.json"
        path.write_text(text, encoding="utf-8")
        invoke("report", path, "-o", Path(folder) / "report.html")
        invoke("run", "--resume", path, "--workers", 1, "-q")


def check_baseline_file(case) -> None:
    _, text = case
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "baseline.json"
        path.write_text(text, encoding="utf-8")
        invoke("check", path, "--workers", 1)


test_damaged_results = FEW(given(damaged_files("result"))(check_result_file))
test_damaged_baselines = FEW(given(damaged_files("baseline"))(check_baseline_file))
test_damaged_results_many = pytest.mark.slow(MANY(given(damaged_files("result"))(
    check_result_file)))
test_damaged_baselines_many = pytest.mark.slow(MANY(given(damaged_files("baseline"))(
    check_baseline_file)))
