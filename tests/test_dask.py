"""The Dask backend (`--scheduler`, simulator/run/dask_backend.py, docs/scale.md): the same chunks on a
real LocalCluster (loopback, 2 worker processes) give bit-identical tallies to the local backend,
for a run, a resumed run and a sweep; a worker killed in the middle of a run loses nothing and
counts nothing twice; mistakes (a bad address, Dask not installed, a worker that would play other
games) are one line and exit 2.

Every comparison is exact (tallies are integer sums merged once per chunk), so no statistical
bound is needed here.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sys

import numpy as np
import pytest
from click.testing import CliRunner

import simulator.run
from simulator.run import chunks, runner
from simulator.setup import config
from simulator.cli import main
from simulator.run.results import Result, checksum

distributed = pytest.importorskip("distributed")  # in the `test` extra; `dask` extra for users

from simulator.run import dask_backend  # noqa: E402


def run_cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def one_line(result, exit_code, *fragments) -> str:
    assert result.exit_code == exit_code, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.output
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


@pytest.fixture(scope="module")
def cluster():
    """A real cluster on loopback: a scheduler and 2 worker processes of one thread each."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as local:
        yield local


@pytest.fixture(scope="module")
def client(cluster):
    """The test's own view of the cluster (to read its workers; runs connect on their own)."""
    with distributed.Client(cluster.scheduler_address, set_as_default=False) as view:
        yield view


def local_result(games: int, seed: int, chunk_size: int, overrides=()) -> Result:
    cfg = config.load("werewolf", list(overrides))
    return runner.run(cfg, games, seed=seed, workers=1, chunk_size=chunk_size)


def assert_same_tallies(got: Result, want: Result) -> None:
    assert got.tallies.keys() == want.tallies.keys()
    for name, values in want.tallies.items():
        np.testing.assert_array_equal(got.tallies[name], values, err_msg=name)
    chunks = sorted(got.data["chunks_done"])
    assert chunks == sorted(want.data["chunks_done"]) == list(range(len(chunks)))  # each once
    assert got.games_played == want.games_played


def _kernel_compiles():
    """On a worker: (signatures of the werewolf kernel loaded from the disk cache, compiled)."""
    stats = config.load("werewolf").game.kernel.stats
    return sum(stats.cache_hits.values()), sum(stats.cache_misses.values())


def test_a_run_on_a_cluster_equals_the_local_run_and_workers_load_the_compiled_kernel(
        cluster, client, tmp_path):
    want = local_result(4000, seed=3, chunk_size=250)  # also fills the compile cache if cold
    out = tmp_path / "dask.json"
    result = run_cli("run", "werewolf", "-n", 4000, "--seed", 3, "--chunk-size", 250,
                     "--scheduler", cluster.scheduler_address, "-o", out, "-q")
    assert result.exit_code == 0, result.output
    got = Result.load(out)
    assert got.complete
    assert_same_tallies(got, want)
    # Each worker process that played loaded the kernel once from the on-disk cache, and none
    # compiled it (Dask may, rarely, give one worker every chunk of so short a run).
    compiles = client.run(_kernel_compiles)
    assert len(compiles) == 2
    assert all(loaded <= 1 and compiled == 0 for loaded, compiled in compiles.values()), compiles
    assert any(loaded == 1 for loaded, _ in compiles.values()), compiles


def test_quick_chunks_go_out_in_batches_and_give_the_same_games(cluster, tmp_path, monkeypatch):
    """A task plays several consecutive quick chunks (Dask's cost per task is about 10 ms); each
    chunk keeps its own seed and is merged on its own, so the tallies do not change."""
    batches = []
    submit = distributed.Client.submit

    def spy(self, function, *args, **kwargs):
        if function is dask_backend.play_batch_on_worker:
            batches.append([job[5] for job in args[1]])  # the chunk numbers of the task
        return submit(self, function, *args, **kwargs)

    monkeypatch.setattr(distributed.Client, "submit", spy)
    out = tmp_path / "batched.json"
    result = run_cli("run", "werewolf", "-n", 4000, "--seed", 8, "--chunk-size", 50,
                     "--scheduler", cluster.scheduler_address, "-o", out, "-q")
    assert result.exit_code == 0, result.output
    assert_same_tallies(Result.load(out), local_result(4000, seed=8, chunk_size=50))
    assert sorted(chunk for batch in batches for chunk in batch) == list(range(80))  # each once
    assert max(len(batch) for batch in batches) > 1  # 50 games take well under TASK_SECONDS
    assert all(batch == list(range(batch[0], batch[0] + len(batch))) for batch in batches)


def test_resume_on_a_cluster_finishes_a_partial_run_exactly(cluster, tmp_path):
    out = tmp_path / "partial.json"
    assert run_cli("run", "werewolf", "-n", 1000, "--seed", 5, "--chunk-size", 250,
                   "--workers", 1, "-o", out, "-q").exit_code == 0
    data = json.loads(out.read_text())  # as an interrupted run of 3000 games leaves it
    data["games_requested"], data["complete"] = 3000, False
    data["checksum"] = checksum(data)
    out.write_text(json.dumps(data))
    result = run_cli("run", "--resume", out, "--scheduler", cluster.scheduler_address, "-q")
    assert result.exit_code == 0, result.output
    assert_same_tallies(Result.load(out), local_result(3000, seed=5, chunk_size=250))


def test_a_sweep_sends_every_cells_chunks_at_once_and_equals_the_local_sweep(
        cluster, tmp_path, monkeypatch):
    calls = []
    play = dask_backend.play_jobs

    def spy(results, *args, **kwargs):
        calls.append(len(results))
        return play(results, *args, **kwargs)

    monkeypatch.setattr(dask_backend, "play_jobs", spy)
    common = ["sweep", "werewolf", "--vary", "players=8..10", "-n", 1000, "--chunk-size", 250,
              "--seed", 2, "-q"]
    assert run_cli(*common, "--workers", 1, "-o", tmp_path / "local.json").exit_code == 0
    result = run_cli(*common, "--scheduler", cluster.scheduler_address,
                     "-o", tmp_path / "dask.json")
    assert result.exit_code == 0, result.output
    assert calls == [3]  # one submission loop for the 3 cells' 12 chunks, not one per cell
    local = json.loads((tmp_path / "local.json").read_text())
    dask = json.loads((tmp_path / "dask.json").read_text())
    assert [c["status"] for c in dask["cells"]] == ["ok"] * 3
    for ours, theirs in zip(dask["cells"], local["cells"]):
        assert ours["values"] == theirs["values"]
        assert ours["result"]["tallies"] == theirs["result"]["tallies"]
        assert sorted(ours["result"]["chunks_done"]) == [0, 1, 2, 3]


def test_a_worker_killed_in_the_middle_of_a_run_loses_nothing_and_counts_nothing_twice(
        cluster, client):
    cfg = config.load("werewolf")
    want = runner.run(cfg, 24_000, seed=9, workers=1, chunk_size=500)
    pids = client.run(os.getpid)
    killed = {}

    def kill_a_busy_worker(games):
        if killed:
            return
        # The chunks not merged yet are each being played by a worker or held, finished, in its
        # memory until this process fetches it (which waits for this callback): kill a worker
        # that has one, so that chunk must be played again.
        processing, holding = client.processing(), client.has_what()
        held = {address: len(processing.get(address, ())) + len(holding.get(address, ()))
                for address in pids}
        address = max(held, key=held.get)
        killed.update(address=address, holding=held[address],
                      merged=len(result.data["chunks_done"]))
        os.kill(pids[address], signal.SIGKILL)

    result = runner.start(cfg, 24_000, seed=9, chunk_size=500)
    runner.execute(result, progress=runner.Progress(advance=kill_a_busy_worker),
                   scheduler=cluster.scheduler_address)
    assert killed and killed["holding"] >= 1 and killed["merged"] < 48, killed
    assert killed["address"] not in client.run(os.getpid)  # that worker is gone
    assert result.complete
    assert_same_tallies(result, want)  # chunks_done is 0..47, each once


def test_scheduler_local_starts_a_local_cluster_and_equals_the_local_run(tmp_path):
    out = tmp_path / "local-cluster.json"
    result = run_cli("run", "werewolf", "-n", 1000, "--seed", 4, "--chunk-size", 250,
                     "--scheduler", "local", "--workers", 1, "-o", out, "-q")
    assert result.exit_code == 0, result.output
    assert_same_tallies(Result.load(out), local_result(1000, seed=4, chunk_size=250))


def test_a_strategy_fault_on_a_worker_is_the_same_one_line(cluster, tmp_path):
    (tmp_path / "bad.py").write_text(
        "def bad(kind, obs, legal, params, memory, rng):\n    return 999\n", encoding="utf-8")
    out = tmp_path / "out.json"
    line = one_line(run_cli("run", "werewolf", "--set", f"strategies.all={tmp_path}/bad.py:bad",
                            "-n", 500, "--chunk-size", 250, "--scheduler",
                            cluster.scheduler_address, "-o", out, "-q"),
                    1, "bad.py:bad", "fairplay trace")
    assert "999" in line
    assert Result.load(out).games_played == 0


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_a_bad_or_unreachable_scheduler_is_one_line_and_exit_2(monkeypatch):
    one_line(run_cli("run", "werewolf", "--scheduler", "garbage", "-q"), 2,
             "--scheduler garbage", "tcp://HOST:PORT")
    one_line(run_cli("run", "werewolf", "--scheduler", f"tcp://127.0.0.1:{_closed_port()}"), 2,
             "cannot reach a Dask scheduler", "connection refused")
    one_line(run_cli("sweep", "werewolf", "--vary", "players=8..9", "--scheduler",
                     "tcp://no-such-host.invalid:8786"), 2, "unknown host")
    one_line(run_cli("check", "b.json", "--workers", 2, "--scheduler", "tcp://127.0.0.1:1"), 2,
             "--workers sets the size of a --scheduler local cluster")
    # A server that accepts the connection and never answers: refused after the connect timeout.
    monkeypatch.setattr(dask_backend, "CONNECT_SECONDS", 0.5)
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        port = silent.getsockname()[1]
        one_line(run_cli("baseline", "werewolf", "--scheduler", f"tcp://127.0.0.1:{port}"), 2,
                 "no answer within 0.5 s")


def test_without_the_extra_scheduler_names_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` fails
    monkeypatch.delitem(sys.modules, "simulator.run.dask_backend")
    monkeypatch.delattr(simulator.run, "dask_backend")
    for args in (["run", "werewolf"], ["sweep", "werewolf", "--vary", "players=8..9"],
                 ["baseline", "werewolf"], ["check", "b.json"]):
        one_line(run_cli(*args, "--scheduler", "local"), 2,
                 "--scheduler needs Dask", "pip install 'fairplay[dask]'")


def test_a_worker_that_would_play_other_games_refuses_to(tmp_path):
    """A worker checks the client's fingerprint once per config: other code or another strategy
    file at the same path never mixes other games into a result."""
    strategy = tmp_path / "mine.py"
    strategy.write_text("def mine(kind, obs, legal, params, memory, rng):\n"
                        "    for a in range(legal.shape[0]):\n"
                        "        if legal[a]:\n            return a\n    return -1\n")
    cfg = config.load("werewolf", [f"strategies.all={strategy}:mine"])
    result = runner.start(cfg, 100, seed=0, chunk_size=100)
    data = result.data
    args = (*chunks.playing_identity(data), 0, 0, 10)
    expected = dask_backend._identity(cfg)
    chunk, tallies, _, fault = dask_backend.play_on_worker(expected, *args)
    assert chunk == 0 and fault is None and int(tallies["games"][0]) == 10
    for change, words in [
            (lambda e: e["fingerprint"].update(code="other"), "compiled sources differ"),
            (lambda e: e["versions"].update(numba="0.1"), "numba 0."),
            (lambda e: e["fingerprint"]["strategy_files"].update(
                {k: "other" for k in e["fingerprint"]["strategy_files"]}), "mine.py")]:
        other = json.loads(json.dumps(expected))
        change(other)
        with pytest.raises(dask_backend.WorkerMismatch, match="would play other games") as info:
            dask_backend.play_on_worker(other, *args)
        assert words in str(info.value)


def _descendants(pid: int) -> list[int]:
    found = []
    for task in os.listdir(f"/proc/{pid}/task"):
        for child in map(int, open(f"/proc/{pid}/task/{task}/children").read().split()):
            found += [child] + _descendants(child)
    return found


def _running(pid: int) -> bool:
    try:
        return open(f"/proc/{pid}/stat").read().split(")")[-1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError):
        return False


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="reads /proc for the workers")
def test_ctrl_c_on_a_local_cluster_saves_what_is_merged_and_leaves_no_worker(tmp_path):
    """Ctrl-C from a terminal reaches the whole process group: the run cancels its chunks,
    closes the local cluster, saves the merged chunks and exits 130 with one line."""
    import subprocess
    import time

    out = tmp_path / "out.json"
    process = subprocess.Popen(
        [sys.executable, "-m", "simulator.cli", "run", "werewolf", "-n", "1000000000",
         "--chunk-size", "2000", "--scheduler", "local", "--workers", "1", "-o", str(out), "-q"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True)
    seen: list[int] = []
    try:
        deadline = time.monotonic() + 120
        while not out.exists() and time.monotonic() < deadline:  # the first checkpoint (10 s)
            time.sleep(0.2)
        seen = _descendants(process.pid)
        assert out.exists() and seen
        os.killpg(process.pid, signal.SIGINT)
        # (a loaded machine may take minutes to close a cluster)
        _, stderr = process.communicate(timeout=240)
        time.sleep(0.5)
        left = [pid for pid in seen if _running(pid)]
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        for pid in seen:
            if _running(pid):
                os.kill(pid, signal.SIGKILL)
    assert process.returncode == 130, stderr
    # the one line of the interrupt (besides the warning that a run this long gives up front)
    lines = [line for line in stderr.splitlines()
             if line.strip() and not line.startswith("this run will take about")]
    assert len(lines) == 1 and lines[0].startswith("Interrupted:"), stderr
    saved = Result.load(out)
    assert saved.games_played > 0 and not saved.complete
    assert saved.games_played == 2000 * len(set(saved.data["chunks_done"]))
    assert left == []


def test_the_scale_doc_cites_tests_that_exist_and_commands_that_exist():
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    text = (root / "docs" / "scale.md").read_text(encoding="utf-8")
    here = Path(__file__).read_text(encoding="utf-8")
    cited = re.findall(r"::(test_\w+)", text)
    assert len(cited) >= 6
    assert [name for name in cited if not re.search(rf"def {name}\b", here)] == []
    for command in ("run", "sweep", "baseline", "check"):
        assert "--scheduler ADDRESS" in run_cli(command, "--help").output
    assert "docs/scale.md" in (root / "README.md").read_text(encoding="utf-8")
