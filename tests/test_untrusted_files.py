"""Untrusted files are data, and no result is lost or silently wrong (docs/reliability.md).

Reading a result, a sweep or a baseline never imports anything it names; `--resume` and `check`
load a user strategy file only with the contents the file recorded, checked before it is run.
An output is never an input or another output, another run's file is never replaced without
--force, two runs never write one file, a failed save keeps the last checkpoint, an edited result
is never resumed, a user strategy's out-of-range index or float answer is one line, workers die
with their parent, and an interrupted sweep resumes to the sweep it would have been.
"""

from __future__ import annotations

import errno
import hashlib
import json
import tempfile
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from simulator import fileio
from simulator.run import runner
from simulator.studies import sweep as sweep_module
from simulator.run.results import Result, checksum

from cli_checks import one_line_error, run_cli
from test_faults import _children, _running

# A strategy file that leaves a mark when it is imported: reading a file that names it must not.
MARKING = '''
from pathlib import Path
Path(__file__).with_name("IMPORTED").write_text("imported")

def fn(kind, obs, legal, params, memory, rng):
    for a in range(legal.shape[0]):
        if legal[a]:
            return a
    return -1
'''

FIRST_LEGAL = '''
def fn(kind, obs, legal, params, memory, rng):
    for a in range(legal.shape[0]):
        if legal[a]:
            return a
    return -1
'''


def small_run(tmp_path, *extra, games=200, name="r.json") -> Path:
    out = tmp_path / name
    result = run_cli("run", "werewolf", "-n", games, "--chunk-size", 100, "--workers", 1, "-q",
                     "-o", out, *extra)
    assert result.exit_code == 0, result.output
    return out


def rewrite(path: Path, change, keep_checksum: bool = True) -> None:
    """Edit a result file; with keep_checksum, as fairplay would have written it (the checksum
    follows), else as a hand edit does (the checksum no longer matches)."""
    data = json.loads(path.read_text())
    change(data)
    if keep_checksum:
        data["checksum"] = checksum(data)
    path.write_text(json.dumps(data))


# --- 1. reading runs no code ------------------------------------------------------------------------
def hostile_result(tmp_path) -> Path:
    """A result whose config names a strategy file beside it, through an absolute base_dir, with
    a checksum that matches (a careful attacker writes one)."""
    good = small_run(tmp_path)
    (tmp_path / "evil.py").write_text(MARKING)
    hostile = tmp_path / "hostile.json"
    hostile.write_bytes(good.read_bytes())
    rewrite(hostile, lambda d: (d["config"].update(strategies={"all": "evil.py:fn"}),
                                d.update(base_dir=str(tmp_path))))
    return hostile


def test_reading_a_result_never_imports_the_strategy_files_it_names(tmp_path):
    hostile = hostile_result(tmp_path)
    other = small_run(tmp_path, "--seed", 1, name="other.json")
    for args in (["report", hostile, "-o", tmp_path / "a.html"],
                 ["report", other, hostile, "-o", tmp_path / "b.html"],
                 ["export", hostile, "--csv", tmp_path / "tables"]):
        result = run_cli(*args)
        assert result.exit_code == 0, result.output
    assert "evil.py:fn" in (tmp_path / "a.html").read_text()  # named, as data
    assert not (tmp_path / "IMPORTED").exists()


def test_resume_never_imports_a_strategy_file_the_result_did_not_record(tmp_path):
    hostile = hostile_result(tmp_path)
    rewrite(hostile, lambda d: d.update(games_requested=400, complete=False))
    one_line_error(run_cli("run", "--resume", hostile), "evil.py", "was not recorded",
                   "not loaded")
    assert not (tmp_path / "IMPORTED").exists()


def test_resume_checks_a_strategy_files_contents_before_it_imports_it(tmp_path):
    strategy = tmp_path / "mine.py"
    strategy.write_text(FIRST_LEGAL)
    out = small_run(tmp_path, "--set", f"strategies.all={strategy}:fn")
    rewrite(out, lambda d: d.update(games_requested=400, complete=False))
    strategy.write_text(MARKING)  # changed since the run started
    one_line_error(run_cli("run", "--resume", out), "mine.py", "changed since this run started")
    assert not (tmp_path / "IMPORTED").exists()
    strategy.write_text(FIRST_LEGAL)  # the recorded contents again: it resumes
    assert run_cli("run", "--resume", out, "--workers", 1, "-q").exit_code == 0
    assert Result.load(out).games_played == 400


def test_check_loads_only_the_strategy_contents_its_baseline_recorded(tmp_path):
    strategy = tmp_path / "mine.py"
    strategy.write_text(FIRST_LEGAL)
    config = tmp_path / "mine.toml"
    config.write_text(f'game = "werewolf"\nplayers = 9\n[strategies]\nall = "mine.py:fn"\n')
    baselines = tmp_path / "b.json"
    made = run_cli("baseline", config, "-n", 200, "--workers", 1, "-o", baselines)
    assert made.exit_code == 0, made.output
    assert json.loads(baselines.read_text())["configs"][0]["strategy_files"] == \
        {"mine.py:fn": hashlib.sha256(strategy.read_bytes()).hexdigest()}
    strategy.write_text(MARKING)
    one_line_error(run_cli("check", baselines, "--workers", 1), "mine.py",
                   "changed since the baseline was made")
    assert not (tmp_path / "IMPORTED").exists()


# --- 3. outputs ---------------------------------------------------------------------------------------
def test_an_output_that_is_an_input_or_another_output_is_refused(tmp_path):
    out = small_run(tmp_path)
    before = out.read_bytes()
    one_line_error(run_cli("report", out, "-o", out), "is also this command's input")
    one_line_error(run_cli("run", "werewolf", "-n", 100, "-o", tmp_path / "x.json", "--report",
                           tmp_path / "x.json"), "both name")
    one_line_error(run_cli("run", "--resume", out, "--report", out), "both name")
    assert out.read_bytes() == before and not (tmp_path / "x.json").exists()


def test_another_runs_result_is_never_replaced_without_force(tmp_path):
    out = small_run(tmp_path)
    before = out.read_bytes()
    one_line_error(run_cli("run", "werewolf", "-n", 200, "--chunk-size", 100, "--seed", 1,
                           "-o", out), "holds another run's result", "--force")
    assert out.read_bytes() == before
    small_run(tmp_path)  # the very same run may be played again into its own file
    assert run_cli("run", "werewolf", "-n", 200, "--chunk-size", 100, "--seed", 1, "--workers",
                   1, "-q", "-o", out, "--force").exit_code == 0
    assert Result.load(out).data["seed"] == 1
    page = tmp_path / "notes.html"
    page.write_text("<p>my own notes</p>")
    one_line_error(run_cli("report", out, "-o", page), "exists", "--force")
    assert page.read_text() == "<p>my own notes</p>"


def test_a_run_holds_its_output_so_a_second_run_on_it_is_refused(tmp_path):
    out = tmp_path / "busy.json"
    with fileio.OutputLock(out):  # a run in progress on it
        one_line_error(run_cli("run", "werewolf", "-n", 100, "-o", out),
                       "being written by another fairplay run")
    assert not out.exists()
    small_run(tmp_path, name="busy.json")  # free again once released
    assert not (tmp_path / ".busy.json.lock").exists()


def test_a_result_without_its_checksum_is_read_only_when_asked_and_every_output_says_so(
        tmp_path):
    """The checksum line deleted and the camps' wins swapped: every reading command refuses it
    in one line (exit 2); with --unchecked it is read, and the report, the CSV folder and the
    coverage table each say it was not checked."""
    out = small_run(tmp_path)

    def swap(data):
        del data["checksum"]
        data["tallies"]["team_wins"].reverse()

    rewrite(out, swap, keep_checksum=False)
    for args in (("report", out, "-o", tmp_path / "r.html"),
                 ("export", out, "--csv", tmp_path / "tables"),
                 ("coverage", out)):
        one_line_error(run_cli(*args), "no checksum", "--unchecked")
    assert not (tmp_path / "r.html").exists() and not (tmp_path / "tables").exists()
    done = run_cli("report", out, "-o", tmp_path / "r.html", "--unchecked")
    assert done.exit_code == 0 and "without its checksum" in done.stderr
    assert "read without its checksum (--unchecked)" in (tmp_path / "r.html").read_text()
    done = run_cli("export", out, "--csv", tmp_path / "tables", "--unchecked")
    assert done.exit_code == 0 and (tmp_path / "tables" / "UNCHECKED.txt").exists()
    done = run_cli("coverage", out, "--unchecked")
    assert done.exit_code == 0 and "read without its checksum" in done.output
    fine = small_run(tmp_path, name="fine.json")  # a checked export clears an earlier note
    assert run_cli("export", fine, "--csv", tmp_path / "tables").exit_code == 0
    assert not (tmp_path / "tables" / "UNCHECKED.txt").exists()


def test_a_link_to_a_busy_output_is_locked_out_and_stays_a_link(tmp_path):
    """The lock goes by the file, not by the name given: a second run writing through a
    symbolic link to a file being written is refused; a run writing through a link writes the
    file it points to and leaves the link a link."""
    out = tmp_path / "busy.json"
    link = tmp_path / "link.json"
    link.symlink_to(out)
    with fileio.OutputLock(out):
        one_line_error(run_cli("run", "werewolf", "-n", 100, "-o", link),
                       "being written by another fairplay run")
    assert not out.exists() and link.is_symlink()
    result = run_cli("run", "werewolf", "-n", 100, "--workers", 1, "-q", "-o", link)
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and out.is_file() and Result.load(out).games_played == 100


# --- 4. a failed save ------------------------------------------------------------------------------
def test_a_full_disk_at_the_final_save_keeps_the_last_checkpoint_and_rescues_the_rest(
        tmp_path, monkeypatch):
    out = tmp_path / "full.json"
    monkeypatch.setattr(runner, "CHECKPOINT_EVERY_SECONDS", 0.0)  # a checkpoint after each chunk
    real_save, saves = Result.save, []

    def save(self, path):
        saves.append(self.games_played)
        if self.complete and Path(path) == out:
            raise OSError(errno.ENOSPC, "No space left on device")
        real_save(self, path)

    monkeypatch.setattr(Result, "save", save)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # where the rest is rescued to
    result = run_cli("run", "werewolf", "-n", 300, "--chunk-size", 100, "--workers", 1, "-q",
                     "-o", out)
    line = one_line_error(result, "No space left on device", "the last checkpoint, 200 games",
                          "fairplay run --resume", exit_code=1)
    assert Result.load(out).games_played == 200
    rescued = Path(line.split("written to ")[1].split(" instead")[0])
    assert rescued.parent == tmp_path and Result.load(rescued).games_played == 300


def test_a_baseline_output_that_cannot_be_written_is_refused_before_playing(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    one_line_error(run_cli("baseline", "werewolf", "-n", 100, "-o", blocker / "b.json"),
                   "cannot write there")


# --- 5. edited results -----------------------------------------------------------------------------
@pytest.mark.parametrize("edit", [
    lambda d: d["tallies"]["team_wins"].reverse(),  # tallies changed, the totals still agree
    lambda d: d.update(seed=5),
])
def test_a_hand_edited_result_is_never_resumed(tmp_path, edit):
    out = small_run(tmp_path)
    rewrite(out, lambda d: d.update(games_requested=400, complete=False))
    rewrite(out, edit, keep_checksum=False)
    one_line_error(run_cli("run", "--resume", out), "checksum", "edited")


# --- 6. user strategies that index out of range or answer a float ---------------------------------
@pytest.mark.parametrize("body, index, array", [
    ("memory[100000] = 1.0", "index 100000 is out of bounds", "memory[100000] = 1.0"),
    ("x = params[3]", "index 3 is out of bounds", "x = params[3]"),
])
def test_an_out_of_range_index_in_a_strategy_is_one_line_naming_it(tmp_path, body, index,
                                                                   array):
    (tmp_path / "bad.py").write_text(f"MEMORY = 4\nPARAMS = {{'a': 0.5}}\n"
                                     f"def fn(kind, obs, legal, params, memory, rng):\n"
                                     f"    {body}\n" + FIRST_LEGAL.split(":\n", 1)[1])
    result = run_cli("run", "werewolf", "--set", f"strategies.all={tmp_path / 'bad.py'}:fn",
                     "-n", 100, "--workers", 1, "-q", "-o", tmp_path / "o.json")
    one_line_error(result, "strategy bad.py:fn raised IndexError", index, array,
                   "its memory has 4 words and its parameters are 1", exit_code=1)


def test_a_strategy_that_answers_a_float_is_refused_at_load(tmp_path):
    (tmp_path / "half.py").write_text("def fn(kind, obs, legal, params, memory, rng):\n"
                                      "    return 0.5 * legal.shape[0]\n")
    one_line_error(run_cli("run", "werewolf", "--set",
                           f"strategies.all={tmp_path / 'half.py'}:fn", "-n", 10),
                   "returns float64", "an integer")


@pytest.mark.parametrize("game, setting", [
    ("ghostplay", 'strategies.all={ name = "people", help = 1.5 }'),
    ("werewolf", 'strategies.all={ name = "STRATEGY", depth = 1.5 }'),
])
def test_an_integer_parameter_given_a_fraction_is_refused(tmp_path, game, setting):
    (tmp_path / "deep.py").write_text("PARAMS = {'depth': (1, 0, 5)}\n" + FIRST_LEGAL)
    setting = setting.replace("STRATEGY", f"{tmp_path / 'deep.py'}:fn")
    one_line_error(run_cli("run", game, "--set", setting, "-n", 10), "must be an integer",
                   "1.5")


# --- 7. workers die with their parent ----------------------------------------------------------------
HANG = '''
def hang(kind, obs, legal, params, memory, rng):
    n = 0
    while n >= 0:
        n = (n + 1) % 1000
    return -1
'''


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc for the workers")
def test_workers_end_when_their_parent_is_killed(tmp_path):
    (tmp_path / "hang.py").write_text(HANG)
    process = subprocess.Popen(
        [sys.executable, "-m", "simulator.cli", "run", "werewolf", "--set",
         "strategies.all=hang.py:hang", "-n", "5000", "--workers", "2", "-o",
         str(tmp_path / "out.json"), "-q"], cwd=tmp_path, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, start_new_session=True)
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 300  # a cold cache compiles the kernel first
        while len(_children(process.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        workers = _children(process.pid)
        assert len(workers) == 2
        time.sleep(1.0)  # inside the endless loop
        process.kill()  # kill -9: the parent cannot end them itself
        process.wait()
        deadline = time.monotonic() + 10
        while any(map(_running, workers)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(map(_running, workers))
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        for pid in workers:
            if _running(pid):
                os.kill(pid, signal.SIGKILL)


# --- 8. sweeps resume ------------------------------------------------------------------------------
def test_an_interrupted_sweep_keeps_its_chunks_and_resumes_to_the_same_sweep(tmp_path,
                                                                             monkeypatch):
    args = ["werewolf", "--vary", "players=8..9", "-n", 400, "--chunk-size", 100, "--workers", 1,
            "-q"]
    whole = tmp_path / "whole.json"
    assert run_cli("sweep", *args, "-o", whole).exit_code == 0
    real = runner.play_jobs
    merged = []

    def interrupted(results, jobs, workers, on_done, *rest, **kwargs):
        def stop_after_six(*out):
            on_done(*out)
            merged.append(out[1])
            if len(merged) == 6:
                raise KeyboardInterrupt

        real(results, jobs, workers, stop_after_six, *rest, **kwargs)

    monkeypatch.setattr(runner, "play_jobs", interrupted)
    cut = tmp_path / "cut.json"
    stopped = run_cli("sweep", *args, "-o", cut)
    assert stopped.exit_code == 130 and "fairplay sweep --resume" in stopped.stderr
    monkeypatch.setattr(runner, "play_jobs", real)
    saved = sweep_module.Sweep.load(cut)
    assert [c.status for c in saved.cells] == ["ok", "pending"]
    assert saved.cells[1].result.games_played == 200  # the running cell's chunks are kept
    assert run_cli("sweep", "--resume", cut, "-q").exit_code == 0
    done, expected = sweep_module.Sweep.load(cut), sweep_module.Sweep.load(whole)
    for a, b in zip(done.cells, expected.cells):
        assert a.status == b.status == "ok"
        assert all(np.array_equal(a.result.tallies[k], b.result.tallies[k])
                   for k in b.result.tallies)
    one_line_error(run_cli("sweep", "--resume", cut, "--seed", 3), "give no --seed")


# --- 9. smaller faults -----------------------------------------------------------------------------
def test_a_strategy_that_exits_when_imported_is_one_line(tmp_path):
    (tmp_path / "quit.py").write_text("import sys\nsys.exit(3)\n" + FIRST_LEGAL)
    one_line_error(run_cli("run", "werewolf", "--set",
                           f"strategies.all={tmp_path / 'quit.py'}:fn", "-n", 10),
                   "quit.py", "calls sys.exit(3) when imported")


def test_quiet_hides_the_progress_bar_not_the_long_run_warning(tmp_path, monkeypatch):
    monkeypatch.setattr(runner, "LONG_RUN_SECONDS", 0.0)
    result = run_cli("run", "werewolf", "-n", 300, "--chunk-size", 100, "--workers", 1, "-q",
                     "-o", tmp_path / "q.json")
    assert result.exit_code == 0 and "this run will take about" in result.stderr


def test_trace_refuses_a_negative_seed():
    one_line_error(run_cli("trace", "werewolf", "--seed", -1), "--seed")


def test_negative_tallies_and_non_utf8_files_are_one_line(tmp_path):
    out = small_run(tmp_path)
    rewrite(out, lambda d: d["tallies"]["team_wins"].__setitem__(0, -5))
    one_line_error(run_cli("report", out, "-o", tmp_path / "n.html"), "negative")
    (tmp_path / "latin.json").write_bytes(b'{"schema": "fairplay.result", "x": "\xe9"}')
    one_line_error(run_cli("report", tmp_path / "latin.json", "-o", tmp_path / "l.html"),
                   "not UTF-8")
    (tmp_path / "latin.toml").write_bytes(b'game = "werewolf"\n# caf\xe9\n')
    one_line_error(run_cli("run", tmp_path / "latin.toml", "-n", 10), "not UTF-8")
