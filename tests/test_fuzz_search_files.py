"""Property-based fuzzing of the files searches leave behind: a best-response search file
(`fairplay best-response -o`), an equilibrium file (`fairplay equilibrate -o`) and a players
file (configs/players.json, which a config names as `people@SET`), each edited at random: a
field deleted, changed to another JSON value or added, at the top or nested inside.

Every command that reads one (`best-response --resume`, `equilibrate --resume`, a run of a
config naming `people@equilibrium`) either refuses it in one line with exit 2, or reads the
very data it was given. The files are checksummed whole, so an edit left unsealed is always
refused; in about half of the examples the checksum is recomputed after the edit, as a careful
forger would, so that the checks behind it are met too (then the file may also be read and
used, and the command keeps the promise: exit 0, 1 or 2, one line, no traceback).

Nothing is played: the files are made once for the module by the commands themselves, on
candidates whose rates are made up, and a run stops where its games would begin.
"""

from __future__ import annotations

import contextlib
import json
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from simulator.cli import main
from simulator.run import runner
from simulator.setup import players as players_module
from simulator.studies import best_response as br
from simulator.studies import equilibrium as eq

FEW = settings(max_examples=100, deadline=None, derandomize=True, database=None,
               phases=(Phase.explicit, Phase.generate), suppress_health_check=list(HealthCheck))

KINDS = {"best-response": br.BEST_RESPONSE_FILE, "equilibrium": eq.EQUILIBRIUM_FILE,
         "players": players_module.PLAYERS_FILE}


class Reached(Exception):
    """A run got past every check of its input to its games (which are not played)."""


def reached(*args, **kwargs):
    raise Reached


@pytest.fixture(scope="module")
def no_games():
    """Candidates get made-up rates, a confirmation made-up numbers; a run stops where its
    games would begin."""
    calls = {"n": 0}

    def rate(self, games, workers, scheduler):
        calls["n"] += 1
        return 0.3 + 0.01 * (calls["n"] % 7)

    def paired_gain(spec, overrides, players, space, variants, games, seed, chunk_size, *rest,
                    **kwargs):
        return {"games": games, "seed": seed, "chunk_size": chunk_size, "chunks": 2,
                "default_rate": 0.3, "best_rate": 0.3, "gain": 0.0, "low": -0.002,
                "high": 0.002, "excludes_zero": False}

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(runner, "execute", reached)
        patch.setattr(br.Candidate, "rate", rate)
        patch.setattr(br, "paired_gain", paired_gain)
        yield


def cli(args: list, folder: Path):
    with contextlib.chdir(folder):
        return CliRunner().invoke(main, [str(a) for a in args])


class Made(dict):
    def __repr__(self):  # (a failing example names the files, not their whole text)
        return "<the made files>"


@pytest.fixture(scope="module")
def made(no_games):
    """{kind: the file's text}, each made once with the smallest counts the commands take."""
    out = Made()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        for kind, args in (
                ("best-response", ["best-response", "werewolf", "--team", "wolf", "-n", 100,
                                   "--trials", 1, "--workers", 1, "-q", "-o", "file.json"]),
                ("equilibrium", ["equilibrate", "werewolf", "-n", 100, "--trials", 1,
                                 "--passes", 1, "--workers", 1, "-q", "-o", "file.json"])):
            result = cli(args, folder)
            assert result.exit_code == 0, result.output
            out[kind] = (folder / "file.json").read_text(encoding="utf-8")
            (folder / "file.json").unlink()
            (folder / "file.toml").unlink()
    out["players"] = players_module.shipped_path().read_text(encoding="utf-8")
    return out


def reads(kind: str, text: str, folder: Path):
    """Every command that reads a file of `kind`, on `text` saved in `folder`."""
    path = folder / "file.json"
    path.write_text(text, encoding="utf-8")
    if kind == "best-response":
        return [cli(["best-response", "--resume", path, "--workers", 1, "-q"], folder)]
    if kind == "equilibrium":
        return [cli(["equilibrate", "--resume", path, "--workers", 1, "-q"], folder)]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(players_module, "shipped_path", lambda: path)
        return [cli(["run", "werewolf", "--set", 'strategies.all="people@equilibrium"', "-n", 20,
                     "--workers", 1, "-q", "-o", "out.json"], folder),
                cli(["run", "werewolf", "--set", 'strategies.wolf={name = "people@equilibrium",'
                     ' bus = 0.2}', "-n", 20, "--workers", 1, "-q", "-o", "out.json"], folder)]


def kept(result, what, refused: bool) -> None:
    """The promise: refused in one line with exit 2 (`refused`: nothing else will do), or read
    (its games reached, or done: exit 0), or a fault at run time in one line (exit 1)."""
    if isinstance(result.exception, Reached):
        assert not refused, (what, "read a file that differs from the one written")
        return
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        import traceback

        raise AssertionError(f"{what}: {type(result.exception).__name__}: {result.exception}\n"
                             + "".join(traceback.format_exception(result.exception)[-6:]))
    assert "Traceback" not in result.output, (what, result.output)
    assert result.exit_code in ((2,) if refused else (0, 1, 2)), \
        (what, result.exit_code, result.output)
    if result.exit_code != 0:
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        assert len(lines) == 1, (what, result.stderr)


# --- random edits ---------------------------------------------------------------------------------
keys = st.one_of(st.sampled_from(["extra", "checksum", "schema", "schema_version", "", "0"]),
                 st.text(max_size=6))
scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.integers(-2 ** 70, 2 ** 70),
                    st.floats(-10, 10, allow_nan=False), st.text(max_size=10),
                    st.sampled_from(["werewolf", "wolf", "human", "people", "complete",
                                     "pruned", "werewolf/base.toml", "strat/x.py:f"]))
json_values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(keys, inner, max_size=3)), max_leaves=6)


def json_paths(node, prefix=()) -> list[tuple]:
    paths = [prefix] if prefix else []
    if isinstance(node, dict):
        for key, value in node.items():
            paths += json_paths(value, prefix + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node[:4]):
            paths += json_paths(value, prefix + (index,))
    return paths


def edited(made: dict, kind: str, data) -> tuple[str, bool, bool]:
    """(text, resealed, same as written) of a random edit of the made file of `kind`."""
    original = json.loads(made[kind])
    edit = json.loads(made[kind])
    for _ in range(data.draw(st.integers(1, 2))):
        depth = data.draw(st.integers(1, 5))  # fields near the top as often as deep ones
        paths = [p for p in json_paths(edit) if len(p) <= depth] or json_paths(edit)
        path = data.draw(st.sampled_from(paths))
        parent = edit
        for step in path[:-1]:
            parent = parent[step]
        what = data.draw(st.sampled_from(["delete", "change", "add"]))
        if what == "delete" and isinstance(parent, dict):
            del parent[path[-1]]
        elif what == "add":
            target = parent[path[-1]] if isinstance(parent[path[-1]], dict) else parent
            if isinstance(target, dict):
                target[data.draw(keys)] = data.draw(json_values)
            else:
                target.append(data.draw(json_values))
        else:
            parent[path[-1]] = data.draw(json_values)
    resealed = data.draw(st.booleans()) and isinstance(edit, dict)
    if resealed:
        edit = KINDS[kind].seal(edit)
    return json.dumps(edit), resealed, edit == original


@FEW
@given(st.sampled_from(sorted(KINDS)), st.data())
def test_an_edited_search_file_is_refused_in_one_line_or_read_as_written(made, kind, data):
    text, resealed, same = edited(made, kind, data)
    with tempfile.TemporaryDirectory() as folder:
        for result in reads(kind, text, Path(folder)):
            kept(result, (kind, text[:300]), refused=not resealed and not same)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_the_made_files_are_read(made, kind):
    """The files the edits start from are accepted (else every edit is refused for the same
    reason, and the fuzzing tests nothing)."""
    with tempfile.TemporaryDirectory() as folder:
        for result in reads(kind, made[kind], Path(folder)):
            if not isinstance(result.exception, Reached):
                assert result.exit_code == 0, result.output


def _searched_param(value):
    def edit(data):
        data["searched"][0]["params"]["reveal"] = value
    return edit


def _team_values(field, value):
    def edit(data):
        data[field]["wolf"] = value
    return edit


def _turn(key, value):
    def edit(data):
        data["turns"][1][key] = value
    return edit


# Edits the fuzzing found to end in a traceback (each sealed again after it): one line now.
@pytest.mark.parametrize("kind, edit", [
    ("equilibrium", lambda data: data.update(start={"checksum": {}})),
    ("equilibrium", _team_values("players", {"reveal": "high"})),
    ("equilibrium", _team_values("start", {})),
    ("equilibrium", _turn("best", {"reveal": 7.0})),
    ("equilibrium", _turn("team", "nobody")),
    ("best-response", _searched_param(5.0)),
    ("best-response", _searched_param(True)),
    ("best-response", lambda data: data["searched"][0]["params"].pop("reveal")),
    ("best-response", lambda data: data["searched"][0].update(rungs=["x"])),
], ids=["eq-start-other-team", "eq-players-not-numbers", "eq-start-empty", "eq-turn-best-out",
        "eq-turn-team", "br-param-out-of-range", "br-param-true",
        "br-param-missing", "br-rungs-not-numbers"])
def test_known_damage_is_one_line(made, kind, edit):
    data = json.loads(made[kind])
    edit(data)
    text = json.dumps(KINDS[kind].seal(data))
    with tempfile.TemporaryDirectory() as folder:
        for result in reads(kind, text, Path(folder)):
            kept(result, kind, refused=True)
