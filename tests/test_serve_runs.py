"""`fairplay serve`'s runs, against a real server: a run is an ordinary `fairplay run` (the same
tallies, saved, resumable), runs at once can each be stopped, a closed page stops its runs, and
stopping the server (Ctrl-C, or killing it outright) leaves no process behind."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import numpy as np
import pytest

from serving import SESSION, Server, processes_in, run_of
from simulator.setup import config
from simulator.run import runner
from simulator.studies import sweep as sweeps
from simulator.run.results import Result

LONG = 10**9  # a run that only a stop ends


@pytest.fixture
def server(tmp_path):
    server = Server(tmp_path)
    yield server
    server.stop()


def test_a_run_is_an_ordinary_result_with_the_cli_s_tallies(server, tmp_path):
    answer = server.start_run(60_000, seed=5, fields={"roles.werewolf": "3"})
    state = server.state_when(lambda s: run_of(s, answer["id"])["state"] in ("done", "failed"))
    run = run_of(state, answer["id"])
    assert run["state"] == "done", run["line"]
    assert run["played"] == 60_000
    team = next(t for t in run["tables"] if t["group"] == "team")
    for row in team["rows"]:
        assert row["low"] <= row["rate"] <= row["high"]
    assert run["verdict"]["sentence"].endswith(" Measured with `people` at every seat.") or \
        " Measured with `people` at every seat. " in run["verdict"]["sentence"]  # the run card
    ends = next(t for t in run["tables"] if t["group"] == "end")["rows"]
    assert ends and all(row["wins"] > 0 for row in ends)  # what the setup cannot produce: left out

    saved = Result.load(tmp_path / answer["output"])
    assert (tmp_path / answer["setup"]).read_text(encoding="utf-8").count("\n") == 3  # extends + 1
    cfg = config.load(str(tmp_path / answer["setup"]))
    assert cfg.raw["roles"]["werewolf"] == 3
    again = runner.run(cfg, 60_000, seed=5, workers=1)
    for name, values in again.tallies.items():
        assert np.array_equal(values, saved.tallies[name]), name
    assert saved.data["command"].startswith(f"fairplay run {answer['setup']} -n 60000 --seed 5")


def test_a_page_plays_a_strategy_file_of_the_served_folder(server, tmp_path):
    """A strategy file named relative to the served folder, as the page's check reads it, is
    the file the run plays (its setup is written under results/serve/, and names it from
    there)."""
    (tmp_path / "strat").mkdir()
    (tmp_path / "strat" / "x.py").write_text(
        "from strategies.common import uniform_legal\n\n\n"
        "def f(kind, obs, legal, params, memory, rng):\n"
        "    \"\"\"at random\"\"\"\n    return uniform_legal(legal, rng)\n")
    answer = server.start_run(500, seed=1, fields={"strategies.all": "strat/x.py:f"})
    state = server.state_when(lambda s: run_of(s, answer["id"])["state"] in ("done", "failed"))
    run = run_of(state, answer["id"])
    assert run["state"] == "done", run["line"]
    assert "../../strat/x.py:f" in (tmp_path / answer["setup"]).read_text(encoding="utf-8")
    assert Result.load(tmp_path / answer["output"]).games_played == 500


def test_a_sweep_is_an_ordinary_sweep_with_the_cli_s_tallies(server, tmp_path):
    status, answer = server.post("/api/sweeps", {
        "session": SESSION, "game": "werewolf", "base": "werewolf/base.toml", "fields": {},
        "games": 20_000, "seed": 4, "vary": ["roles.werewolf=1..2", "roles.bogus=1"]})
    assert status == 200, answer
    state = server.state_when(lambda s: run_of(s, answer["id"])["state"] in ("done", "failed"))
    grid = run_of(state, answer["id"])["grid"]
    assert [c["status"] for c in grid["cells"]] == ["invalid", "invalid"]  # as the CLI keeps them
    status, answer = server.post("/api/sweeps", {
        "session": SESSION, "game": "werewolf", "base": "werewolf/base.toml", "fields": {},
        "games": 20_000, "seed": 4, "vary": ["roles.werewolf=1..2"]})
    state = server.state_when(lambda s: run_of(s, answer["id"])["state"] in ("done", "failed"))
    sweep = run_of(state, answer["id"])
    assert sweep["state"] == "done", sweep["line"]
    for cell in sweep["grid"]["cells"]:
        assert cell["balance"]["low"] <= cell["balance"]["rate"] <= cell["balance"]["high"]
    subprocess.run([sys.executable, "-m", "simulator.cli", "sweep", answer["setup"], "--vary",
                    "roles.werewolf=1..2", "-n", "20000", "--seed", "4", "-o", "cli.json", "-q"],
                   cwd=tmp_path, check=True, capture_output=True)
    ours, theirs = (sweeps.Sweep.load(tmp_path / name) for name in (answer["output"], "cli.json"))
    for a, b in zip(ours.cells, theirs.cells):
        for name, values in a.result.tallies.items():
            assert np.array_equal(values, b.result.tallies[name]), name


def test_a_best_response_search_is_the_cli_s_own(server, tmp_path):
    status, answer = server.post("/api/best-response", {
        "session": SESSION, "game": "werewolf", "base": "werewolf/seer-led.toml", "fields": {},
        "games": 4_000, "seed": 2, "trials": 3, "who": "team:human"})
    assert status == 200, answer
    state = server.state_when(lambda s: run_of(s, answer["id"])["state"] in ("done", "failed"))
    search = run_of(state, answer["id"])
    assert search["state"] == "done", search["line"]
    stages = [c["stage"] for c in search["search"]["candidates"]]
    assert stages.count("sampler") == 3 and "screen" in stages and "outside" in stages
    assert search["search"]["confirm"]
    subprocess.run([sys.executable, "-m", "simulator.cli", "best-response", answer["setup"],
                    "--team", "human", "--trials", "3", "-n", "4000", "--seed", "2", "-o",
                    "cli.json", "-q"], cwd=tmp_path, check=True, capture_output=True)
    ours, theirs = (json.loads((tmp_path / name).read_text())
                    for name in (answer["output"], "cli.json"))
    assert ours["searched"] == theirs["searched"] and ours["confirm"] == theirs["confirm"]


def test_runs_at_once_each_stop_and_a_stopped_run_resumes(server, tmp_path):
    first = server.start_run(LONG)
    second = server.start_run(LONG, seed=1)
    server.state_when(lambda s: all(run_of(s, n)["played"] > 0
                                    for n in (first["id"], second["id"])))
    status, _ = server.post(f"/api/runs/{first['id']}/stop", {"session": SESSION})
    assert status == 200
    state = server.state_when(lambda s: run_of(s, first["id"])["state"] == "stopped")
    assert run_of(state, second["id"])["state"] == "running"  # the other goes on
    stopped = runner.load_for_resume(tmp_path / first["output"])
    assert 0 < stopped.games_played < LONG
    server.post(f"/api/runs/{second['id']}/stop", {"session": SESSION})
    server.state_when(lambda s: run_of(s, second["id"])["state"] == "stopped")
    # continued from the page, it goes on from what it saved
    status, _ = server.post(f"/api/runs/{first['id']}/resume", {"session": SESSION})
    assert status == 200
    server.state_when(lambda s: run_of(s, first["id"])["state"] == "running" and
                      run_of(s, first["id"])["played"] > stopped.games_played)
    server.post(f"/api/runs/{first['id']}/stop", {"session": SESSION})
    server.state_when(lambda s: run_of(s, first["id"])["state"] == "stopped")
    assert runner.load_for_resume(tmp_path / first["output"]).games_played > \
        stopped.games_played


def test_a_run_of_another_page_cannot_be_stopped_from_this_one(server):
    mine = server.start_run(LONG, session="anotherpage1")
    status, answer = server.post(f"/api/runs/{mine['id']}/stop", {"session": SESSION})
    assert status == 404
    server.post(f"/api/runs/{mine['id']}/stop", {"session": "anotherpage1"})


def test_closing_the_page_stops_its_runs(server, tmp_path):
    answer = server.start_run(LONG, session="closingpage1")
    # the page's stream, opened and then closed (the page is gone)
    server.state_when(lambda s: run_of(s, answer["id"])["played"] > 0, session="closingpage1")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        data = json.loads((tmp_path / answer["output"]).read_text()) \
            if (tmp_path / answer["output"]).exists() else {}
        if data and not processes_running_play(tmp_path):
            break
        time.sleep(0.5)
    assert not processes_running_play(tmp_path)
    assert 0 < Result.load(tmp_path / answer["output"]).games_played < LONG


def processes_running_play(folder) -> list[int]:
    found = []
    for pid in processes_in(folder):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                if b"simulator.serve.play" in handle.read():
                    found.append(pid)
        except OSError:
            continue
    return found


@pytest.mark.parametrize("how", ["ctrl-c", "kill"])
def test_stopping_the_server_leaves_no_process_behind(tmp_path, how):
    server = Server(tmp_path)
    try:
        answer = server.start_run(LONG)
        server.state_when(lambda s: run_of(s, answer["id"])["played"] > 0)
        if how == "ctrl-c":
            assert server.stop() == 130  # as every command ends on Ctrl-C
            assert "Traceback" not in server.process.stderr.read()
            # the run was stopped, not killed: what it played is saved and can be resumed
            assert runner.load_for_resume(tmp_path / answer["output"]).games_played > 0
        else:
            server.process.send_signal(signal.SIGKILL)
            server.process.wait()
        deadline = time.monotonic() + 30
        while processes_in(tmp_path) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert processes_in(tmp_path) == []
    finally:
        server.stop()


def test_served_beyond_loopback_it_prints_a_token_and_asks_for_it(tmp_path):
    server = Server(tmp_path, "--host", "0.0.0.0")
    try:
        assert server.token_query.startswith("?token=")
        local = server.address.replace("0.0.0.0", "127.0.0.1")
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(local, timeout=30)
        assert refused.value.code == 401
        with urllib.request.urlopen(local + server.token_query, timeout=30) as page:
            assert page.status == 200 and "fairplay serve" in page.read().decode()
    finally:
        server.stop()


def test_stopping_the_server_with_a_page_open_is_one_line_and_tells_the_page(tmp_path):
    """Ctrl-C with a page's event stream open: the stream says the server is closing (the page
    shows it) and ends, so the server stops at once, with no traceback."""
    server = Server(tmp_path)
    told = []

    def page():
        with urllib.request.urlopen(f"{server.address}api/events?session={SESSION}",
                                    timeout=60) as stream:
            for raw in stream:
                told.append(raw.decode().strip())

    reader = threading.Thread(target=page, daemon=True)
    try:
        reader.start()
        deadline = time.monotonic() + 30
        while not any(line.startswith("data: ") for line in told) and \
                time.monotonic() < deadline:
            time.sleep(0.1)
        assert server.stop() == 130
        said = server.process.stderr.read()
        reader.join(10)
    finally:
        server.stop()
    assert "Traceback" not in said and "CancelledError" not in said, said
    assert "graceful shutdown exceeded" not in said, said  # no stream held the server open
    assert "event: closing" in told, told
