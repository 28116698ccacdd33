"""Property-based fuzzing of fairplay's inputs (docs/reliability.md), for every registered game.
Each input must either work or be refused with exit 2 and exactly one line on standard error,
never a traceback or a hang. Covered:

- damaged config files (`fairplay run FILE`) and random `--set` overrides (`fairplay run GAME`);
- damaged result files (`report`, `run --resume`, `export --csv`), about half of them with the
  checksum recomputed after the damage, so that the field-by-field validation behind it is
  reached; damaged baselines (`check`: a check whose baseline was damaged may also fail: exit 1);
- damaged sweep files (`report`, `export --csv`, `sweep --resume`), the cells' and the whole
  file's checksums recomputed in about half;
- result and sweep files with a negative count, and JSON or TOML nested 10,000 deep: always exit 2;
- `fairplay trace` with random (negative, huge) `--seed`, `--game`, `--chunk-size` and `--set`;
- `fairplay roles` with random `--set` overrides; `fairplay tune` with random `--vary` and
  `--objective` text;
- damaged user strategy files named with `--set strategies.all="PATH:fn"` (lines deleted,
  duplicated or cut, random PARAMS / MEMORY / FLAGS, `return 1.5`, `sys.exit` at import, a fault
  at run time, bytes that are not UTF-8): a strategy's fault at run time is exit 1, one line;
- special files where a file is expected (a FIFO, /dev/zero, a folder, a sparse 2 GiB file) as a
  config, an `extends` target, a strategy file, a result, a baseline and a sweep: exit 2, one
  line, promptly (run in a child process with a timeout, so a hang fails instead of hanging);
  so is a `--vary` range of a million levels (more cells than a sweep may have).

Damage the fuzzing once found to give a traceback is kept, each in its smallest form, in
`test_known_damage_is_one_line`.

Hypothesis runs derandomized, so the examples are the same on every run; the normal suite tries a
few per property, the `slow` suite more (each example plays games and writes a report, so the
counts are sized to keep CI within its time).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from simulator.setup import config
from simulator.cli import main
from simulator.games import game_names, get_game
from simulator.run.results import checksum
from simulator.studies.sweep import SWEEP_FILE

GAMES = game_names(listed_only=True)
# the games `fairplay roles` can value (a team game with a filler role); the others are refused
ROLE_GAMES = [name for name in GAMES if get_game(name).team_game and get_game(name).filler_role]
GAMES_PLAYED = 20  # each example plays a few games: the faults sit at load and validation

# No shrinking: a failing example is reported as generated (shrinking one takes minutes)
FEW = settings(max_examples=5, deadline=None, derandomize=True, database=None,
               phases=(Phase.explicit, Phase.generate), suppress_health_check=list(HealthCheck))
MANY = settings(FEW, max_examples=30)


def invoke(*args, allowed=None) -> None:
    """Run the CLI and check the promise: success, or a refusal (exit 2; 1 for a failing check
    or, where `allowed` says so, a fault at run time) with one line and no traceback."""
    result = CliRunner().invoke(main, [str(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"{args}: {type(result.exception).__name__}: {result.exception}")
    assert "Traceback" not in result.output, args
    if allowed is None:
        allowed = (0, 1, 2) if args[0] == "check" else (0, 2)
    assert result.exit_code in allowed, (args, result.exit_code, result.output)
    if result.exit_code != 0 and not (args[0] == "check" and result.exit_code == 1):
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        assert len(lines) == 1, (args, result.exit_code, result.stderr)


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
def overrides(draw, games=tuple(GAMES), min_size=1):
    game = draw(st.sampled_from(list(games)))
    keys = key_paths(default_raw(game)) + ["players", "nope", "strategies.seat.0", "roles.x"]
    sets = draw(st.lists(st.tuples(st.sampled_from(keys), toml_texts), min_size=min_size,
                         max_size=3))
    return game, [f"{key}={value}" for key, value in sets]


def set_options(sets) -> list[str]:
    return [part for value in sets for part in ("--set", value)]


def check_config_text(case) -> None:
    game, text = case
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"{game}.toml"
        path.write_text(text, encoding="utf-8")
        invoke("run", path, "-n", GAMES_PLAYED, "--workers", 1, "-q", "-o",
               Path(folder) / "out.json")


def check_overrides(case) -> None:
    game, sets = case
    with tempfile.TemporaryDirectory() as folder:
        invoke("run", game, *set_options(sets), "-n", GAMES_PLAYED, "--workers", 1, "-q", "-o",
               Path(folder) / "out.json")


test_damaged_configs = FEW(given(damaged_config_texts())(check_config_text))
test_random_overrides = FEW(given(overrides())(check_overrides))
test_damaged_configs_many = pytest.mark.slow(MANY(given(damaged_config_texts())(
    check_config_text)))
test_random_overrides_many = pytest.mark.slow(MANY(given(overrides())(check_overrides)))


# --- trace, roles and tune with random options ----------------------------------------------------
numbers = st.one_of(st.integers(-3, 60), st.integers(-2 ** 80, 2 ** 80))


@st.composite
def trace_cases(draw):
    game, sets = draw(overrides(min_size=0))
    chunk_size = draw(st.one_of(st.none(), st.integers(-2, 40), st.integers(2 ** 62, 2 ** 80)))
    return game, draw(numbers), draw(numbers), chunk_size, sets


def check_trace(case) -> None:
    game, seed, index, chunk_size, sets = case
    chunks = [] if chunk_size is None else ["--chunk-size", chunk_size]
    # a strategy's fault at run time is exit 1 in a trace too: none of the built-in ones has one
    invoke("trace", game, "--seed", seed, "--game", index, *chunks, *set_options(sets))


def check_roles(case) -> None:
    game, sets = case
    with tempfile.TemporaryDirectory() as folder:
        invoke("roles", game, *set_options(sets), "-n", GAMES_PLAYED, "--chunk-size",
               GAMES_PLAYED // 2, "--workers", 1, "-q", "-o", Path(folder) / "roles.json")


OBJECTIVES = ["balanced", "fair-seats", "team=0.5", "team=0", "team=1", "wolf=0.3", "human=0.7",
              "village=0.5", "team=1.5", "team=-0.1", "team=nan", "team=inf", "x=y", "=", "",
              "balanced,fair-seats"]


@st.composite
def tune_cases(draw):
    game = draw(st.sampled_from(GAMES))
    keys = key_paths(default_raw(game)) + ["players", "nope", "strategies.all", "", "a b"]
    # grids stay small (a few cells of a few dozen games): a range spans at most 4 levels
    ranges = st.tuples(st.integers(-3, 30), st.integers(-1, 3)).map(
        lambda t: f"{t[0]}..{t[0] + t[1]}")
    levels = st.one_of(ranges, st.lists(toml_texts, max_size=3).map(",".join),
                       st.text(max_size=12))
    varies = [f"{draw(st.sampled_from(keys))}{draw(st.sampled_from(['=', '=', '+=', '', '==']))}"
              f"{draw(levels)}" for _ in range(draw(st.integers(1, 2)))]
    objective = draw(st.one_of(st.sampled_from(OBJECTIVES), st.text(max_size=10)))
    return game, varies, objective


def check_tune(case) -> None:
    game, varies, objective = case
    with tempfile.TemporaryDirectory() as folder:
        invoke("tune", game, *[part for vary in varies for part in ("--vary", vary)],
               "--objective", objective, "-n", 2 * GAMES_PLAYED, "--start", GAMES_PLAYED,
               "--chunk-size", GAMES_PLAYED, "--workers", 1, "-o", Path(folder) / "tune.json")


# besides the generated examples, one that must play (a huge seed and game are a game too)
check_trace = example(("werewolf", 2 ** 70, 2 ** 70 + 3, None, []))(check_trace)
check_roles = example(("werewolf", ["players=10"]))(check_roles)
check_tune = example(("werewolf", ["players=8..9"], "balanced"))(check_tune)
test_trace_options = FEW(given(trace_cases())(check_trace))
test_roles_overrides = FEW(given(overrides(ROLE_GAMES or GAMES))(check_roles))
test_tune_vary_and_objective = FEW(given(tune_cases())(check_tune))
test_trace_options_many = pytest.mark.slow(MANY(given(trace_cases())(check_trace)))
test_roles_overrides_many = pytest.mark.slow(MANY(given(overrides(ROLE_GAMES or GAMES))(
    check_roles)))
test_tune_vary_and_objective_many = pytest.mark.slow(MANY(given(tune_cases())(check_tune)))


# --- result files, baselines and sweeps ----------------------------------------------------------
_MADE: dict[tuple[str, str], str] = {}


def reseal(data, kind: str) -> None:
    """Recompute the checksum of a (damaged) result, or of each result in a sweep's cells, as a
    careful forger would: the damage then meets the checks behind the checksum. A result too
    damaged to be summed keeps its checksum."""
    if not isinstance(data, dict):
        return
    if kind == "result":
        results = [data]
    elif kind == "sweep" and isinstance(data.get("cells"), list):
        results = [cell.get("result") for cell in data["cells"] if isinstance(cell, dict)]
    else:
        return
    for result in results:
        if isinstance(result, dict):
            try:
                result["checksum"] = checksum(result)
            except Exception:  # chunks_done that cannot be sorted, say
                pass
    if kind == "sweep":  # and the sweep's own checksum over the whole file
        data.update(SWEEP_FILE.seal(data))


def zeroed(node):
    return [zeroed(item) for item in node] if isinstance(node, list) else 0


def made(kind: str, game: str = "werewolf") -> str:
    """A small valid result (an interrupted one, so --resume has work), baseline or sweep (of
    werewolf: its last cell not played, so --resume has work) of `game`, made once per
    process."""
    if (kind, game) not in _MADE:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "file.json"
            if kind == "result":
                args = ["run", game, "-n", 2 * GAMES_PLAYED, "--chunk-size", GAMES_PLAYED,
                        "--workers", 1, "-q", "-o", path]
            elif kind == "sweep":
                args = ["sweep", game, "--vary", "players=8..9", "-n", GAMES_PLAYED,
                        "--chunk-size", GAMES_PLAYED, "--workers", 1, "-o", path, "-q"]
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
                data["checksum"] = checksum(data)  # the edits above are fairplay's own
            elif kind == "sweep":
                data.update(elapsed_seconds=0.0, complete=False)
                for cell in data["cells"]:
                    cell["result"].update(created="2026-01-01T00:00:00+00:00",
                                          command="fairplay", base_dir=".",
                                          elapsed_seconds=0.0)
                last = data["cells"][-1]
                last["status"] = "pending"
                last["result"].update(chunks_done=[], complete=False,
                                      tallies={name: zeroed(values) for name, values in
                                               last["result"]["tallies"].items()})
                reseal(data, kind)
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
    game = draw(st.sampled_from(GAMES)) if kind != "sweep" else "werewolf"
    text = made(kind, game)
    if draw(st.booleans()) and draw(st.integers(0, 4)) == 0:  # cut short
        return game, text[:draw(st.integers(0, len(text) - 1))]
    data = json.loads(text)
    for _ in range(draw(st.integers(1, 3))):
        # fields near the top (a result's, a sweep's, a cell's) as often as deep ones: each is
        # read by some command
        depth = draw(st.integers(1, 6))
        paths = [p for p in json_paths(data) if len(p) <= depth] or json_paths(data)
        path = draw(st.sampled_from(paths))
        parent = data
        for step in path[:-1]:
            parent = parent[step]
        if draw(st.booleans()) and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent[path[-1]] = draw(json_values)
    if draw(st.booleans()):
        reseal(data, kind)
    return game, json.dumps(data)


def check_result_file(case) -> None:
    _, text = case
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "result.json"
        path.write_text(text, encoding="utf-8")
        invoke("report", path, "-o", Path(folder) / "report.html")
        invoke("export", path, "--csv", Path(folder) / "tables")
        invoke("run", "--resume", path, "--workers", 1, "-q")


def check_baseline_file(case) -> None:
    _, text = case
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "baseline.json"
        path.write_text(text, encoding="utf-8")
        invoke("check", path, "--workers", 1)


def check_sweep_file(case) -> None:
    _, text = case
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "sweep.json"
        path.write_text(text, encoding="utf-8")
        invoke("report", path, "-o", Path(folder) / "report.html")
        invoke("export", path, "--csv", Path(folder) / "tables")
        invoke("sweep", "--resume", path, "--workers", 1, "-q")


test_damaged_results = FEW(given(damaged_files("result"))(check_result_file))
test_damaged_baselines = FEW(given(damaged_files("baseline"))(check_baseline_file))
test_damaged_sweeps = FEW(given(damaged_files("sweep"))(check_sweep_file))
test_damaged_results_many = pytest.mark.slow(MANY(given(damaged_files("result"))(
    check_result_file)))
test_damaged_baselines_many = pytest.mark.slow(MANY(given(damaged_files("baseline"))(
    check_baseline_file)))
test_damaged_sweeps_many = pytest.mark.slow(MANY(given(damaged_files("sweep"))(
    check_sweep_file)))


def test_the_made_files_are_accepted(tmp_path):
    """The undamaged files the fuzzing starts from are valid (else every example is refused for
    the same reason, and the fuzzing tests nothing): the result and the sweep resume."""
    for kind in ("result", "sweep"):
        path = tmp_path / f"{kind}.json"
        path.write_text(made(kind), encoding="utf-8")
        result = CliRunner().invoke(main, ["run" if kind == "result" else "sweep", "--resume",
                                           str(path), "--workers", "1", "-q"])
        assert result.exit_code == 0, result.output


def int_leaves(node, prefix=()) -> list[tuple]:
    if isinstance(node, list):
        return [path for index, item in enumerate(node) for path in
                int_leaves(item, prefix + (index,))]
    return [prefix] if isinstance(node, int) and not isinstance(node, bool) else []


@st.composite
def negative_tallies(draw):
    """A valid result or sweep with one count made negative (a count of games, a histogram or a
    sum of squares: a sum such as a contrast may be negative), its checksum recomputed."""
    kind = draw(st.sampled_from(["result", "sweep"]))
    game = draw(st.sampled_from(GAMES)) if kind == "result" else "werewolf"
    data = json.loads(made(kind, game))
    holder = data if kind == "result" else \
        data["cells"][draw(st.integers(0, len(data["cells"]) - 1))]["result"]
    counts = {tally.name for tally in get_game(game).all_tallies()
              if tally.holds in ("count", "histogram", "sum_sq")}
    names = sorted(name for name, values in holder["tallies"].items()
                   if name in counts and int_leaves(values))
    name = draw(st.sampled_from(names))
    path = draw(st.sampled_from(int_leaves(holder["tallies"][name])))
    parent = holder["tallies"]
    for step in (name,) + path[:-1]:
        parent = parent[step]
    parent[path[-1]] = draw(st.one_of(st.integers(-5, -1), st.integers(-2 ** 64, -1)))
    reseal(data, kind)
    return kind, json.dumps(data)


def check_negative_tally(case) -> None:
    kind, text = case
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"{kind}.json"
        path.write_text(text, encoding="utf-8")
        invoke("report", path, "-o", Path(folder) / "report.html", allowed=(2,))
        invoke("export", path, "--csv", Path(folder) / "tables", allowed=(2,))
        invoke("run" if kind == "result" else "sweep", "--resume", path, "--workers", 1, "-q",
               allowed=(2,))


test_negative_tallies = FEW(given(negative_tallies())(check_negative_tally))
test_negative_tallies_many = pytest.mark.slow(MANY(given(negative_tallies())(
    check_negative_tally)))


DEEP = "[" * 10_000 + "]" * 10_000


@pytest.mark.parametrize("kind, command", [
    ("result", "report"), ("result", "resume"), ("result", "export"), ("baseline", "check"),
    ("sweep", "report"), ("sweep", "resume"), ("sweep", "export"), ("config", "run")])
@pytest.mark.parametrize("where", ["bare", "inside"])
def test_deeply_nested_files_are_one_line(tmp_path, kind, command, where):
    """JSON (or TOML) nested 10,000 deep, alone or as one field of a valid file: exit 2."""
    path = tmp_path / ("file.toml" if kind == "config" else "file.json")
    if kind == "config":
        text = (f"x = {DEEP}\n" if where == "bare" else
                config.locate("werewolf").read_text(encoding="utf-8") + f"\n[deep]\nx = {DEEP}\n")
    else:
        text = DEEP if where == "bare" else made(kind)[:-1] + f', "deep": {DEEP}}}'
    path.write_text(text, encoding="utf-8")
    args = {"report": ["report", path, "-o", tmp_path / "report.html"],
            "export": ["export", path, "--csv", tmp_path / "tables"],
            "resume": ["run" if kind == "result" else "sweep", "--resume", path, "--workers", 1,
                       "-q"],
            "check": ["check", path, "--workers", 1, "-q"],
            "run": ["run", path, "-n", GAMES_PLAYED, "--workers", 1, "-q", "-o",
                    tmp_path / "out.json"]}[command]
    invoke(*args, allowed=(2,))


def check_file(kind: str, text: str) -> None:
    """Every command that reads a file of `kind` (result, sweep or baseline), on `text`."""
    {"result": check_result_file, "sweep": check_sweep_file,
     "baseline": check_baseline_file}[kind]((None, text))


_DELETE = object()


def _set(*path_and_value):
    """An edit of a parsed file: set the value at a path of keys and indices (_DELETE: remove
    it)."""
    *path, value = path_and_value

    def edit(data):
        for step in path[:-1]:
            data = data[step]
        if value is _DELETE:
            del data[path[-1]]
        else:
            data[path[-1]] = value
    return edit


# Damage the fuzzing once found to give a traceback (each the smallest one found; the checksums
# are recomputed after it): each is one line now.
@pytest.mark.parametrize("kind, edit", [
    pytest.param("result", _set("chunks_done", [0, "a"]), id="result-chunks_done-unsortable"),
    pytest.param("result", _set("chunks_done", [None, 1]), id="result-chunks_done-none"),
    pytest.param("result", _set("fingerprint", "strategy_files", True),
                 id="result-fingerprint-strategy_files-not-a-table"),
    pytest.param("result", _set("dealt_teams", [1.5, True]), id="result-dealt_teams-not-names"),
    pytest.param("sweep", _set("base_config", 7), id="sweep-base_config-not-a-table"),
    pytest.param("sweep", _set("base_config", "strategies", "all", None),
                 id="sweep-base_config-null-value"),
    pytest.param("sweep", _set("cells", 1, "overrides", 0, 0), id="sweep-cell-override-not-text"),
    pytest.param("sweep", _set("cells", 1, "values", {"a": 1}), id="sweep-cell-values-not-a-list"),
    pytest.param("sweep", _set("versions", [1]), id="sweep-versions-not-a-table"),
    pytest.param("sweep", _set("chunk_size", ""), id="sweep-chunk_size-not-a-number"),
    pytest.param("sweep", _set("elapsed_seconds", [1]), id="sweep-elapsed_seconds-not-a-number"),
    pytest.param("sweep", _set("elapsed_seconds", _DELETE), id="sweep-elapsed_seconds-missing"),
    pytest.param("sweep", _set("cells", 1, "result", "dealt_teams", [1.5, True]),
                 id="sweep-cell-dealt_teams-not-names"),
    pytest.param("baseline", _set("seed", -2), id="baseline-seed-negative"),
])
def test_known_damage_is_one_line(kind, edit):
    data = json.loads(made(kind))
    edit(data)
    reseal(data, kind)
    check_file(kind, json.dumps(data))


# --- user strategy files -------------------------------------------------------------------------
STRATEGY = '''"""A strategy for the fuzz tests: the first legal action."""
PARAMS = {"bias": (0.5, 0.0, 1.0)}
MEMORY = 1
FLAGS = 0


def fn(kind, obs, legal, params, memory, rng):
    """The first legal action."""
    memory[0] += params[0]
    for a in range(legal.shape[0]):
        if legal[a]:
            return a
    return -1
'''
python_values = st.one_of(json_values.map(repr), st.sampled_from([
    "(0.5, 0, 1)", "{'x': (2, 0, 1)}", "{'x': 'high'}", "{'x': (1, 2)}", "{1: 2}", "-1", "2**70",
    "None", "True", "1.5", "10**6", "[]", "{'x': float('nan')}", "{'x': (0, 1, 0)}"]))


BODY = '    """The first legal action."""'


@st.composite
def damaged_strategies(draw):
    lines = STRATEGY.splitlines()
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(lines) - 1))
        body = lines.index(BODY) + 1 if BODY in lines else at  # the function's first statement
        what = draw(st.sampled_from(["delete", "duplicate", "truncate", "constant", "return",
                                     "exit", "fault"]))
        if what == "delete":
            del lines[at]
        elif what == "duplicate":
            lines.insert(at, lines[at])
        elif what == "truncate":
            lines[at] = lines[at][:draw(st.integers(0, len(lines[at])))]
        elif what == "constant":
            name = draw(st.sampled_from(["PARAMS", "MEMORY", "FLAGS"]))
            lines.insert(at, f"{name} = {draw(python_values)}")
        elif what == "return":
            lines.insert(body, "    return 1.5")
        elif what == "exit":
            lines.insert(0, "import sys; sys.exit(3)")
        else:  # an illegal action now and then: a fault at run time
            lines[body:body] = ["    if rng.random() < 0.5:", "        return 999"]
    data = ("\n".join(lines) + "\n").encode("utf-8")
    if draw(st.integers(0, 5)) == 0:  # bytes that are not UTF-8
        at = draw(st.integers(0, len(data)))
        bad = draw(st.sampled_from([b"\xff", b"\xc3(", b"\x80\x80", b"\xed\xa0\x80"]))
        data = data[:at] + bad + data[at:]
    function = draw(st.sampled_from(["fn", "fn", "fn", "nope", "PARAMS", ""]))
    return data, function


def check_strategy_file(case) -> None:
    data, function = case
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "mine.py"
        path.write_bytes(data)
        invoke("run", "werewolf", "--set", f'strategies.all="{path}:{function}"', "-n",
               GAMES_PLAYED, "--workers", 1, "-q", "-o", Path(folder) / "out.json",
               allowed=(0, 1, 2))


# a strategy that returns an illegal action: a fault at run time (exit 1, one line)
check_strategy_file = example((STRATEGY.replace(
    BODY, BODY + "\n    if rng.random() < 0.5:\n        return 999").encode(), "fn"))(
    check_strategy_file)


def test_the_undamaged_strategy_runs(tmp_path):
    path = tmp_path / "mine.py"
    path.write_text(STRATEGY, encoding="utf-8")
    result = CliRunner().invoke(main, ["run", "werewolf", "--set", f'strategies.all="{path}:fn"',
                                       "-n", str(GAMES_PLAYED), "--workers", "1", "-q", "-o",
                                       str(tmp_path / "out.json")])
    assert result.exit_code == 0, result.output


test_damaged_strategy_files = FEW(given(damaged_strategies())(check_strategy_file))
test_damaged_strategy_files_many = pytest.mark.slow(MANY(given(damaged_strategies())(
    check_strategy_file)))


# --- special files where a file is expected ------------------------------------------------------
PROMPTLY = 60  # seconds: a refusal takes one or two; more is a hang


def cli_in_child(args, cwd, timeout=PROMPTLY) -> str | None:
    """`fairplay ARGS` in a child process: None when it kept the promise (exit 2, one line, no
    traceback, within `timeout`), else what went wrong."""
    command = [sys.executable, "-m", "simulator.cli", *[str(a) for a in args]]
    try:
        done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return f"{args}: no answer within {timeout} s (a hang)"
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    if done.returncode != 2 or len(lines) != 1 or "Traceback" in done.stderr + done.stdout:
        return f"{args}: exit {done.returncode}, stderr {done.stderr!r}"
    return None


def special_file(kind: str, folder: Path) -> Path:
    path = folder / "special"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        return Path("/dev/zero")
    elif kind == "folder":
        path.mkdir()
    else:  # a sparse file: 2 GiB long, no disk used
        path.touch()
        os.truncate(path, 2 << 30)
    return path


@pytest.mark.skipif(not hasattr(os, "mkfifo") or not Path("/dev/zero").exists(),
                    reason="needs FIFOs and /dev/zero")
@pytest.mark.parametrize("kind", ["fifo", "device", "folder", "sparse"])
def test_special_files_are_refused_promptly(tmp_path, kind):
    """A FIFO, a device, a folder or a huge file as a config, an `extends` target, a strategy
    file, a result, a baseline or a sweep: exit 2 with one line, at once (never a read that waits
    for a writer or fills the memory)."""
    path = special_file(kind, tmp_path)
    child = tmp_path / "child.toml"
    child.write_text(f'extends = "{path}"\n', encoding="utf-8")
    play = ["-n", GAMES_PLAYED, "--workers", 1, "-q", "-o", tmp_path / "out.json"]
    cases = [
        ["run", path, *play],
        ["run", child, *play],
        ["run", "werewolf", "--set", f'strategies.all="{path}:fn"', *play],
        ["report", path, "-o", tmp_path / "report.html"],
        ["run", "--resume", path, "--workers", 1, "-q"],
        ["export", path, "--csv", tmp_path / "tables"],
        ["check", path, "--workers", 1, "-q"],
        ["sweep", "--resume", path, "--workers", 1, "-q"],
    ]
    with ThreadPoolExecutor(max_workers=4) as pool:
        problems = [p for p in pool.map(lambda args: cli_in_child(args, tmp_path), cases) if p]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("command", ["sweep", "tune"])
def test_a_huge_range_is_refused_promptly(tmp_path, command):
    extra = ["--objective", "balanced", "--start", GAMES_PLAYED] if command == "tune" else ["-q"]
    problem = cli_in_child([command, "werewolf", "--vary", "players=1..1000000", "-n",
                            2 * GAMES_PLAYED, "--workers", 1, "-o", tmp_path / "out.json",
                            *extra], tmp_path, timeout=15)
    assert problem is None, problem
