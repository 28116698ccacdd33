"""Faults at run time (docs/reliability.md): a user strategy that returns nonsense, raises or
hangs; Ctrl-C and SIGTERM; damaged or mismatched result files on --resume; output paths. Each
gives one clear line and a non-zero exit, keeps the finished chunks, and never yields a result
that is silently wrong."""

from __future__ import annotations

import itertools
import json
import os
import shlex
import signal
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

from simulator.setup import config
from simulator.run import runner
from simulator.run.results import Result, checksum

from cli_checks import one_line_error, run_cli


def one_line(result, exit_code, *fragments) -> str:
    """The single line a fault prints (no traceback), checked for its fragments."""
    return one_line_error(result, *fragments, exit_code=exit_code)


# A random player that, once in a while (from its own rng, so at fixed games of a seeded run),
# returns BAD or raises: the fault comes after some chunks are finished.
RARE = '''
def rare(kind, obs, legal, params, memory, rng):
    """Plays at random; now and then it fails."""
    if rng.random() < 0.0002:
        BAD
    n = 0
    for a in range(legal.shape[0]):
        if legal[a]:
            n += 1
    k = int(rng.random() * n)
    for a in range(legal.shape[0]):
        if legal[a]:
            if k == 0:
                return a
            k -= 1
    return -1
'''


def rare_strategy(tmp_path, bad: str) -> Path:
    path = tmp_path / "rare.py"
    path.write_text(RARE.replace("BAD", bad), encoding="utf-8")
    return path


@pytest.mark.parametrize("bad, detail", [
    ("return 999", "returned 999"),
    ("return -1", "returned -1"),
    ("raise ValueError('out of ideas')", "raised ValueError: out of ideas"),
])
def test_a_failing_strategy_is_one_line_with_where_and_how_to_replay_it(tmp_path, bad, detail):
    path = rare_strategy(tmp_path, bad)
    out = tmp_path / "out.json"
    result = run_cli("run", "werewolf", "--set", f"strategies.all={path}:rare", "-n", 5000,
                     "--chunk-size", 100, "--workers", 1, "-o", out, "-q")
    line = one_line(result, 1, "strategy rare.py:rare", detail, "at seat ", "decision ",
                    "fairplay trace werewolf", "--seed 0", "--chunk-size 100")
    game = int(line.split("(game ")[1].split(" of the run")[0].replace(",", ""))
    # the chunks before the failing one are saved (one worker plays them in order)
    saved = Result.load(out)
    assert sorted(saved.data["chunks_done"]) == list(range(game // 100))
    assert saved.games_played == 100 * (game // 100) and not saved.complete
    # the command in the line replays that very game, up to the same fault
    command = line.split(" of the run: ")[1].split(" shows it")[0]
    replay = run_cli(*shlex.split(command)[1:])
    assert replay.exit_code == 1
    assert line.split(" (game ")[0] in replay.stderr
    assert "the trace above stops there" in replay.stderr
    assert replay.stdout.strip()  # the game up to the fault


def test_a_fault_in_a_worker_process_is_the_same_one_line(tmp_path):
    path = rare_strategy(tmp_path, "return 999")
    result = run_cli("run", "werewolf", "--set", f"strategies.all={path}:rare", "-n", 5000,
                     "--chunk-size", 100, "--workers", 2, "-o", tmp_path / "out.json", "-q")
    line = one_line(result, 1, "strategy rare.py:rare", "returned 999",
                    "fairplay trace werewolf")
    game = int(line.split("(game ")[1].split(" of the run")[0].replace(",", ""))
    # what finished before the fault is saved; the failing chunk is not
    saved = Result.load(tmp_path / "out.json")
    assert game // 100 not in saved.data["chunks_done"]
    assert saved.games_played == 100 * len(saved.data["chunks_done"])


@pytest.mark.parametrize("body, detail", [
    ("    while True:\n        pass\n", "never returns an action"),
    ("    raise ValueError('no')\n", "never returns an action"),
])
def test_an_unusable_strategy_is_refused_at_load_time(write, body, detail):
    path = write("bad.py", "def bad(kind, obs, legal, params, memory, rng):\n" + body)
    one_line(run_cli("run", "werewolf", "--set", f"strategies.all={path}:bad", "-n", 10),
             2, "bad.py:bad", detail)


def test_a_parameter_of_the_wrong_type_is_refused(write):
    path = write("p.py", 'PARAMS = {"x": "high"}\n'
                         "def p(kind, obs, legal, params, memory, rng):\n    return 0\n")
    one_line(run_cli("run", "werewolf", "--set", f"strategies.all={path}:p", "-n", 10),
             2, "PARAMS['x']", "'high'")


def test_a_parameter_outside_its_declared_range_is_refused():
    one_line(run_cli("run", "werewolf", "--set", 'strategies.all={name="seer-led", trust=5}',
                     "-n", 10), 2, "strategies.all.trust", "[0, 1]", "got 5")


def test_a_strategy_written_for_another_game_is_refused(write):
    path = write("other.py", "from simulator.games.chenghuang.declaration import DECISION\n"
                             "def other(kind, obs, legal, params, memory, rng):\n"
                             "    return 0\n")
    one_line(run_cli("run", "werewolf", "--set", f"strategies.all={path}:other", "-n", 10),
             2, "other.py:other", "chenghuang", "not werewolf")


# --- Ctrl-C and SIGTERM on a run whose strategy never returns --------------------------------------
HANG = '''
def hang(kind, obs, legal, params, memory, rng):
    """Never returns (a loop the compiler cannot see through)."""
    x = 1
    while x > 0:
        x = (x * 3 + 1) % 1000 + 1
    return x
'''


def _children(pid: int) -> list[int]:
    kids = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            kids += map(int, Path(f"/proc/{pid}/task/{task}/children").read_text().split())
    except (FileNotFoundError, ProcessLookupError):
        pass
    return kids


def _running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError):
        return False


def _hanging_run(tmp_path, workers: int, act) -> tuple[int, str, float, list[int]]:
    """Start a run whose strategy never returns, wait until its workers are inside it, `act` on
    (the run's process, its workers); return the exit code, standard error, the seconds from
    the act to the exit, and the workers still running after it. Nothing is left behind."""
    (tmp_path / "hang.py").write_text(HANG, encoding="utf-8")
    process = subprocess.Popen(
        [sys.executable, "-m", "simulator.cli", "run", "werewolf", "--set",
         "strategies.all=hang.py:hang", "-n", "5000", "--workers", str(workers), "-o",
         str(tmp_path / "out.json"), "-q"], cwd=tmp_path, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, start_new_session=True)
    workers_seen: list[int] = []
    try:
        deadline = time.monotonic() + 300  # a cold cache compiles the kernel first
        while len(_children(process.pid)) < workers and time.monotonic() < deadline:
            time.sleep(0.1)
        workers_seen = _children(process.pid)
        assert len(workers_seen) == workers
        time.sleep(1.0)  # the workers are inside the strategy's endless loop
        acted = time.monotonic()
        act(process, workers_seen)
        _, stderr = process.communicate(timeout=300)  # a loaded machine is slow to stop
        took = time.monotonic() - acted
        time.sleep(0.2)
        left_running = [pid for pid in workers_seen if _running(pid)]
    finally:  # whatever failed above, leave nothing running
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        for pid in workers_seen:
            if _running(pid):
                os.kill(pid, signal.SIGKILL)
    return process.returncode, stderr, took, left_running


needs_proc = pytest.mark.skipif(not Path("/proc/self/task").exists(),
                                reason="reads /proc for the workers")


@needs_proc
@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("stop, exit_code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_stops_a_hanging_run_at_once_saves_it_and_leaves_no_worker(
        tmp_path, workers, stop, exit_code):
    code, stderr, took, left_running = _hanging_run(
        tmp_path, workers, lambda process, _: process.send_signal(stop))
    assert code == exit_code, stderr
    # The promise is 2 seconds; the bound leaves room for a loaded machine, and a run that
    # ignored the signal would reach the 60-second timeout instead.
    assert took < 10, took
    assert "Interrupted: 0 of 5,000 games saved to" in stderr and "Traceback" not in stderr
    assert Result.load(tmp_path / "out.json").games_played == 0
    assert left_running == []


@needs_proc
def test_a_worker_killed_from_outside_stops_the_run_in_one_line_and_saves_it(tmp_path):
    code, stderr, took, left_running = _hanging_run(
        tmp_path, 2, lambda _, workers: os.kill(workers[0], signal.SIGKILL))
    assert code == 1 and took < 10, stderr
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "a worker process ended unexpectedly" in lines[0], stderr
    assert "fairplay run --resume" in lines[0]
    assert Result.load(tmp_path / "out.json").games_played == 0
    assert left_running == []


# --- --resume -------------------------------------------------------------------------------------
def partial_run(tmp_path, strategy: str = "random", played: int = 200, target: int = 400) -> Path:
    """A result file as an interrupted run leaves it: `played` of `target` games, in chunks of
    100 (a finished shorter run with a larger target: the same tallies, chunk by chunk)."""
    out = tmp_path / "partial.json"
    result = run_cli("run", "werewolf", "--set", f"strategies.all={strategy}", "-n", played,
                     "--chunk-size", 100, "--workers", 1, "-o", out, "-q")
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    data["games_requested"], data["complete"] = target, False
    data["checksum"] = checksum(data)  # as the interrupted run wrote it
    out.write_text(json.dumps(data))
    return out


def test_resume_finishes_a_partial_run_exactly(tmp_path):
    path = partial_run(tmp_path)
    assert run_cli("run", "--resume", path, "--workers", 1, "-q").exit_code == 0
    fresh = runner.run(config.load("werewolf", ["strategies.all=random"]), 400, seed=0,
                       workers=1, chunk_size=100)
    resumed = Result.load(path)
    for name, values in fresh.tallies.items():
        np.testing.assert_array_equal(resumed.tallies[name], values, err_msg=name)


def test_resume_refuses_a_run_whose_strategy_file_changed(tmp_path):
    strategy = tmp_path / "mine.py"
    strategy.write_text("def mine(kind, obs, legal, params, memory, rng):\n"
                        "    for a in range(legal.shape[0]):\n"
                        "        if legal[a]:\n            return a\n    return -1\n")
    path = partial_run(tmp_path, f"{strategy}:mine")
    strategy.write_text(strategy.read_text().replace("range(legal.shape[0])",
                                                     "range(legal.shape[0] - 1, -1, -1)"))
    one_line(run_cli("run", "--resume", path), 2, "mine.py changed since this run started")


def test_resume_refuses_tallies_that_disagree_with_the_chunks(tmp_path):
    path = partial_run(tmp_path)
    data = json.loads(path.read_text())
    data["chunks_done"] = [0]  # the tallies hold two chunks
    data["checksum"] = checksum(data)  # a file fairplay could have written (a bug, say)
    path.write_text(json.dumps(data))
    one_line(run_cli("run", "--resume", path), 2, "tallies count 200 games but its chunks hold 100")


class _InterruptingTallies(dict):
    """A chunk's tallies whose reading is interrupted by Ctrl-C, between the first tally merged
    and the rest."""

    def items(self):
        for number, item in enumerate(super().items()):
            if number == 1:
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(0.01)  # a signal is handled between bytecodes: let it arrive here
            yield item


def test_ctrl_c_during_a_merge_waits_until_the_chunk_is_whole():
    """A Ctrl-C that lands inside a merge takes effect after it, so a saved result never holds
    tallies that no chunk claims (a resume would play them again)."""
    cfg = config.load("werewolf", ["strategies.all=random"])
    played = runner.run(cfg, 100, seed=0, workers=1, chunk_size=100)
    result = runner.start(cfg, 200, seed=0, chunk_size=100)
    with pytest.raises(KeyboardInterrupt):
        result.add_chunk(0, _InterruptingTallies(played.tallies))
    assert result.data["chunks_done"] == [0]
    for name, values in played.tallies.items():
        np.testing.assert_array_equal(result.tallies[name], values, err_msg=name)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_resume_refuses_tallies_of_the_wrong_shape(tmp_path):
    path = partial_run(tmp_path)
    data = json.loads(path.read_text())
    data["tallies"]["seat_wins"] = data["tallies"]["seat_wins"][:3]
    data["checksum"] = checksum(data)
    path.write_text(json.dumps(data))
    one_line(run_cli("run", "--resume", path), 2, "seat_wins", "shape [3]", "needs [9]")


def test_resume_refuses_a_result_whose_config_was_edited(tmp_path):
    path = partial_run(tmp_path)
    data = json.loads(path.read_text())
    data["config"]["roles"]["werewolf"] = 3
    path.write_text(json.dumps(data))
    one_line(run_cli("run", "--resume", path), 2, "checksum", "edited")
    data["checksum"] = checksum(data)  # an edit that knew to rewrite the checksum
    path.write_text(json.dumps(data))
    one_line(run_cli("run", "--resume", path), 2, "does not match its fingerprint")


def test_resume_with_more_games_extends_the_run_bit_identically(tmp_path):
    out = tmp_path / "short.json"
    assert run_cli("run", "werewolf", "-n", 300, "--chunk-size", 100, "--workers", 1, "-o",
                   out, "-q").exit_code == 0
    assert run_cli("run", "--resume", out, "-n", 700, "--workers", 2, "-q").exit_code == 0
    extended = Result.load(out)
    fresh = runner.run(config.load("werewolf"), 700, seed=0, workers=1, chunk_size=100)
    assert extended.complete and extended.games_played == 700
    for name, values in fresh.tallies.items():
        np.testing.assert_array_equal(extended.tallies[name], values, err_msg=name)
    one_line(run_cli("run", "--resume", out, "-n", 500), 2, "below this run's 700 games")


def test_resume_refuses_a_seed_and_says_when_a_run_is_complete(tmp_path):
    out = tmp_path / "done.json"
    assert run_cli("run", "werewolf", "-n", 100, "--workers", 1, "-o", out, "-q").exit_code == 0
    one_line(run_cli("run", "--resume", out, "--seed", 3), 2, "--seed cannot change a run")
    before = out.read_bytes()
    done = run_cli("run", "--resume", out)
    assert done.exit_code == 0 and "already complete (100 games)" in done.stderr
    assert out.read_bytes() == before


# --- outputs ----------------------------------------------------------------------------------------
def test_the_default_output_names_the_config_and_is_never_overwritten_by_another(tmp_path,
                                                                                 monkeypatch):
    monkeypatch.chdir(tmp_path)
    seer_led = Path(config.builtin_config_dir()) / "werewolf" / "seer-led.toml"
    assert run_cli("run", seer_led, "-n", 100, "--workers", 1, "-q").exit_code == 0
    path = Path("results/seer-led-p9-seed0.json")
    assert path.exists()
    before = path.read_bytes()
    one_line(run_cli("run", "werewolf", "-n", 100, "--workers", 1, "-o", path, "-q"), 2,
             "holds another run's result", "--force")
    assert path.read_bytes() == before
    assert run_cli("run", "werewolf", "-n", 100, "--workers", 1, "-o", path, "-q",
                   "--force").exit_code == 0
    assert Result.load(path).data["config"] == config.load("werewolf").raw
    # the same config may replace its own result (a rerun)
    assert run_cli("run", "werewolf", "-n", 100, "--workers", 1, "-o", path, "-q").exit_code == 0


@pytest.mark.parametrize("option", ["-o", "--report"])
def test_an_unwritable_target_is_refused_before_the_first_game(tmp_path, option):
    blocker = tmp_path / "file"
    blocker.write_text("")
    target = blocker / "sub" / "x.out"  # under a file: cannot be created
    out = tmp_path / "r.json"
    extra = [] if option == "-o" else ["-o", out]
    one_line(run_cli("run", "werewolf", "-n", 100, option, target, *extra), 2, option,
             str(target))
    assert not out.exists()  # nothing was played


def test_output_dash_writes_the_json_to_standard_output(tmp_path):
    result = run_cli("run", "werewolf", "-n", 100, "--workers", 1, "-o", "-", "-q")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["schema"] == "fairplay.result" and data["complete"]
    assert sum(data["tallies"]["games"]) == 100


@pytest.mark.parametrize("seed", ["-1", "x", "1.5"])
def test_a_seed_must_be_a_non_negative_integer(seed):
    result = run_cli("run", "werewolf", "-n", 10, "--seed", seed)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "--seed" in result.stderr


# --- limits -----------------------------------------------------------------------------------------
def test_chunk_jobs_are_produced_lazily_for_any_number_of_games():
    cfg = config.load("werewolf")
    tracemalloc.start()
    result = runner.start(cfg, 10 ** 12, seed=0, chunk_size=runner.DEFAULT_CHUNK_SIZE)
    first = list(itertools.islice(runner.missing_chunks(result), 3))
    count = runner.missing_count(result)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert first == [0, 1, 2]
    assert count == -(-10 ** 12 // runner.DEFAULT_CHUNK_SIZE)
    assert peak < 20 * 2 ** 20  # a list of 10^12 / chunk-size chunks would be gigabytes


def test_a_long_run_says_so_up_front_with_its_estimate(monkeypatch):
    monkeypatch.setattr(runner, "LONG_RUN_SECONDS", 0.0)
    said = []
    progress = runner.Progress(warn=said.append)
    runner.run(config.load("werewolf"), 300, seed=0, workers=1, chunk_size=100,
               progress=progress)
    assert len([line for line in said if line.startswith("this run will take about")]) == 1
