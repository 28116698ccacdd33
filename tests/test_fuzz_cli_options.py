"""Property-based fuzzing of the options of every command (`run`, with `--robustness/--tuned`
too, `sweep`, with `--resume` too, `tune`, `best-response`, `equilibrate`, `coverage`, `roles`,
`report`, `export`, `baseline`, `check`, `trace`, `games` and `serve`; a test checks none is
left out): each option's value is drawn from its
declared click type (integers negative, zero or huge, floats with nan and inf, any text, paths
that do not exist, are folders or hold no JSON), read off the command objects themselves, so a
new option is fuzzed as soon as it is declared.

The promise (docs/reliability.md): exit 0, 1 or 2, never a traceback, and a non-zero exit says
one line on standard error. Every refusal comes before anything is played: the functions that
play games are replaced here by one that raises `Reached`, so an example either is refused in
one line or reaches the games (then it was valid input, and the test stops it there). The
best-response search itself runs (its sampler, its file, its printed summary) on candidates
whose rates are made up, not played.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from cli_checks import one_line_error, run_cli
from simulator.cli import main
from simulator.run import runner
from simulator.studies import best_response as br
from simulator.studies import roles as roles_module
from simulator.studies import sweep as sweep_module

FEW = settings(max_examples=25, deadline=None, derandomize=True, database=None,
               phases=(Phase.explicit, Phase.generate), suppress_health_check=list(HealthCheck))


class Reached(Exception):
    """The command got past every check of its input to the games (which are not played)."""


def reached(*args, **kwargs):
    raise Reached


RATES_BEFORE_STOP = 30  # made-up candidates a search may try before the test stops it


@pytest.fixture(autouse=True)
def no_games(monkeypatch):
    """Nothing is played: a run, a coverage, the role values and a sweep stop where their games
    would begin; a search's candidates get made-up rates (the sampler, the file and the summary
    are the command's own), and a search that goes on stops after a few."""
    calls = {"n": 0}

    def rate(self, games, workers, scheduler):
        calls["n"] += 1
        if calls["n"] > RATES_BEFORE_STOP:
            raise Reached
        return 0.3 + 0.01 * (calls["n"] % 7)

    def paired_gain(spec, overrides, players, space, variants, games, seed, chunk_size, *rest,
                    **kwargs):
        return {"games": games, "seed": seed, "chunk_size": chunk_size, "chunks": 2,
                "default_rate": 0.3, "best_rate": 0.3, "gain": 0.0, "low": -0.002,
                "high": 0.002, "excludes_zero": False}

    monkeypatch.setattr(runner, "execute", reached)
    monkeypatch.setattr(runner, "run", reached)
    monkeypatch.setattr(runner, "play_jobs", reached)  # baseline and check
    monkeypatch.setattr(roles_module, "execute", reached)
    monkeypatch.setattr(sweep_module, "execute", reached)
    monkeypatch.setattr(br.Candidate, "rate", rate)
    monkeypatch.setattr(br, "paired_gain", paired_gain)
    import uvicorn  # the workbench is not served: its checks ran when it would begin

    monkeypatch.setattr(uvicorn.Server, "run", reached)
    yield calls


# --- values of each declared type ----------------------------------------------------------------
integers = st.one_of(st.integers(-3, 3), st.integers(-2 ** 80, 2 ** 80),
                     st.sampled_from([2 ** 31, 2 ** 32, 2 ** 63, 2 ** 64]))
floats = st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                   st.sampled_from([0.0, -0.0, 0.5, 1.0, 100.0, 1e-300]))
texts = st.text(max_size=20)
# paths, named by what they are; each is made in the example's own folder
PATHS = ["missing.json", "folder", "empty.json", "garbage.json", "sweep.json", "out/new.json",
         "tuned.toml", "bad.toml", "a\x00b.json"]
paths = st.one_of(st.sampled_from(PATHS), texts)


def values_of(param: click.Parameter) -> st.SearchStrategy:
    """Text a user could give for `param`, drawn from its declared type."""
    kind = param.type
    if isinstance(kind, click.types.IntParamType):
        return st.one_of(integers.map(str), texts)
    if isinstance(kind, click.types.FloatParamType):
        return st.one_of(floats.map(repr), st.sampled_from(["nan", "inf", "-inf", "1e999"]), texts)
    if isinstance(kind, click.Choice):
        return st.one_of(st.sampled_from(list(kind.choices)), texts)
    if isinstance(kind, click.Path):
        return paths
    return texts


def options_of(command: click.Command) -> dict:
    """{option name: strategy of its argument list} for every option of `command`."""
    out = {}
    for param in command.params:
        if not isinstance(param, click.Option) or param.name == "help":
            continue
        name = max(param.opts, key=len)
        out[name] = st.just([name]) if param.is_flag else values_of(param).map(
            lambda value, name=name: [name, value])
    return out


@st.composite
def command_lines(draw, command: str, base: list):
    options = options_of(main.commands[command])
    chosen = draw(st.lists(st.sampled_from(sorted(options)), min_size=1, max_size=3,
                           unique=True))
    args = [command, *base]
    for name in chosen:
        args += draw(options[name])
    return args


def make_paths(folder: Path) -> None:
    (folder / "folder").mkdir()
    (folder / "empty.json").write_text("")
    (folder / "garbage.json").write_text('{"schema": "fairplay.sweep", "cells": [1, ')
    (folder / "bad.toml").write_text("game = \n")
    (folder / "tuned.toml").write_text('extends = "werewolf/base.toml"\n'
                                       '[strategies]\nall = "random"\n')
    (folder / "sweep.json").write_text(pending_sweep())
    (folder / "baseline.json").write_text(BASELINE.read_text(encoding="utf-8"))


BASELINE = Path(__file__).resolve().parents[1] / "baselines" / "werewolf.json"
_SWEEP: list = []


def pending_sweep() -> str:
    """A werewolf sweep of two cells, none played yet (planned and saved: nothing is played)."""
    if not _SWEEP:
        planned, _ = sweep_module.plan("werewolf", [sweep_module.parse_vary("players=8..9")], 40,
                                       0, 20, [], "fairplay sweep werewolf")
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "sweep.json"
            sweep_module.save(planned, path)
            _SWEEP.append(path.read_text(encoding="utf-8"))
    return _SWEEP[0]


def invoke(args: list) -> None:
    """`fairplay ARGS` in a fresh folder of its own; the promise kept, or the games reached."""
    with tempfile.TemporaryDirectory() as folder, contextlib.chdir(folder):
        make_paths(Path(folder))
        result = CliRunner().invoke(main, [str(a) for a in args])
    if isinstance(result.exception, Reached):
        return
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"{args}: {type(result.exception).__name__}: {result.exception}")
    assert "Traceback" not in result.output, (args, result.output)
    assert result.exit_code in (0, 1, 2), (args, result.exit_code, result.output)
    if result.exit_code != 0:
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        assert len(lines) == 1, (args, result.exit_code, result.stderr)


HUGE = str(2 ** 70)

# (command, the arguments every example starts with)
CASES = {
    "best-response": ("best-response", ["werewolf", "--team", "wolf", "-n", "100", "--trials",
                                        "2", "--workers", "1", "-q"]),
    "equilibrate": ("equilibrate", ["werewolf", "-n", "100", "--trials", "1", "--passes", "1",
                                    "--workers", "1", "-q"]),
    "coverage": ("coverage", ["werewolf", "-n", "20", "--workers", "1", "-q"]),
    "run-robustness": ("run", ["werewolf", "--robustness", "-n", "20", "--workers", "1", "-q"]),
    "sweep-resume": ("sweep", ["--resume", "sweep.json", "--workers", "1", "-q"]),
    "roles": ("roles", ["werewolf", "-n", "400", "--workers", "1", "-q"]),
    "run": ("run", ["werewolf", "-n", "20", "--workers", "1", "-q"]),
    "sweep": ("sweep", ["werewolf", "--vary", "players=8..9", "-n", "40", "--workers", "1",
                        "-q"]),
    "tune": ("tune", ["werewolf", "--vary", "roles.werewolf=1..2", "-n", "40", "--workers",
                      "1"]),
    "trace": ("trace", ["werewolf", "--seed", "1"]),
    "games": ("games", []),
    "report": ("report", ["sweep.json"]),
    "export": ("export", ["sweep.json"]),
    "baseline": ("baseline", ["werewolf", "-n", "20", "--workers", "1", "-q"]),
    "check": ("check", ["baseline.json", "--workers", "1", "-q"]),
    "serve": ("serve", ["--port", "0"]),
}


def test_every_command_is_fuzzed():
    assert {command for command, _ in CASES.values()} == set(main.commands)


@pytest.mark.parametrize("case", sorted(CASES))
def test_options_from_their_declared_types(case):
    command, base = CASES[case]

    @FEW
    @given(command_lines(command, base))
    def fuzz(args):
        invoke(args)

    fuzz()


# Inputs the fuzzing found to end in a traceback, or to play before they were refused; each is
# one line now (or, where it is valid, reaches its games).
@pytest.mark.parametrize("args", [
    # a seed past 2**32 - 1 (Optuna's samplers take no more): a search is seeded all the same
    ["best-response", "werewolf", "--team", "wolf", "-n", "100", "--trials", "2", "--seed",
     HUGE, "--workers", "1", "-q"],
    ["best-response", "werewolf", "--team", "wolf", "-n", "100", "--trials", "2", "--seed",
     str(2 ** 32), "--sampler", "cmaes", "--workers", "1", "-q"],
    ["equilibrate", "werewolf", "-n", "100", "--trials", "1", "--passes", "1", "--seed", HUGE,
     "--workers", "1", "-q"],
    # a value that ends a line, quoted in the message: shown escaped, on one line
    ["coverage", "werewolf", "-n", "20", "--set", "a\rb\u2028c", "-q"],
    ["best-response", "werewolf", "--team", "wolf\nvillage", "-n", "100"],
    ["sweep", "--resume", "sweep.json", "--workers", "x\ny"],
    # a file name with a NUL byte (the system cannot open it): bad input, not a ValueError
    ["export", "sweep.json", "--csv", "a\x00b"],
    ["check", "baseline.json", "--junit", "a\x00b.xml", "--workers", "1"],
    # a host that cannot be encoded as an address
    ["serve", "--port", "0", "--host", "\udcff\x00"],
], ids=["best-response-seed", "best-response-cmaes-seed", "equilibrate-seed", "set-line-break",
        "team-line-break", "usage-line-break", "nul-in-folder", "nul-in-file", "host-not-text"])
def test_known_options_are_kept(args):
    invoke(args)


@pytest.mark.parametrize("args, words", [
    # more chunks than a paired interval keeps (its arrays would not fit in memory)
    (["roles", "werewolf", "-n", HUGE, "-q"], ["-n", "chunks"]),
    (["roles", "werewolf", "-n", "2000000", "--chunk-size", "1", "-q"], ["-n", "chunks"]),
    (["best-response", "werewolf", "--team", "wolf", "-n", HUGE], ["-n", "chunks"]),
    (["best-response", "werewolf", "--team", "wolf", "--confirm-games", HUGE],
     ["--confirm-games", "chunks"]),
    (["equilibrate", "werewolf", "-n", HUGE], ["-n", "chunks"]),
    # a tuned config that cannot be read: refused before the run plays, not after it
    (["run", "werewolf", "--robustness", "--tuned", "missing.toml", "-n", "20"], ["missing.toml"]),
    (["run", "werewolf", "--robustness", "--tuned", "bad.toml", "-n", "20"], ["bad.toml"]),
    (["run", "werewolf", "--robustness", "--tuned", "folder", "-n", "20"], ["folder"]),
], ids=["roles-n-huge", "roles-chunks", "best-response-n-huge", "best-response-confirm-huge",
        "equilibrate-n-huge", "tuned-missing", "tuned-not-toml", "tuned-folder"])
def test_refused_before_anything_is_played(args, words, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    make_paths(tmp_path)
    one_line_error(run_cli(*args), *words)
