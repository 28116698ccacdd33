"""Tests of sweeps (simulator/sweep.py) and the `fairplay sweep` command.

Cells are tiny (a few hundred games, one worker, in this process) so the whole file stays fast;
the kernel compiles once per test session.
"""

from __future__ import annotations

import json
import re
from concurrent.futures import ThreadPoolExecutor

import click
import numpy as np
import pytest
from click.testing import CliRunner

from reports.commands import report, sweep
from simulator import config, runner
from simulator import sweep as sw
from simulator.results import Result


@click.group()
def cli():
    """The two report commands on a group of their own (the real CLI adds them to `main`)."""


cli.add_command(report)
cli.add_command(sweep)

URL = re.compile(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//""", re.I)


# --- the --vary grammar ------------------------------------------------------------------------
def test_range_is_inclusive_integers():
    axis = sw.parse_vary("players=8..12")
    assert (axis.key, axis.op, axis.values) == ("players", "set", (8, 9, 10, 11, 12))


def test_comma_list_reads_toml_else_plain_strings():
    axis = sw.parse_vary("strategies.all=random,seer-led")
    assert axis.values == ("random", "seer-led")
    assert sw.parse_vary("x=1,0.5,true,\"a,b\"").values == (1, 0.5, True, "a,b")
    assert sw.parse_vary("x=[a, b],[c,3]").values == (["a", "b"], ["c", 3])


def test_append_levels_and_the_unchanged_baseline():
    axis = sw.parse_vary("rules.extra+=,a,[b,c]")
    assert axis.op == "append"
    assert axis.values == (None, "a", ["b", "c"])
    assert [axis.level_label(v) for v in axis.values] == ["(unchanged)", "+a", "+[b, c]"]


@pytest.mark.parametrize("text, words", [
    ("players", "KEY=LEVELS"),
    ("players=12..8", "empty"),
    ("x=1,1", "twice"),
    ("x=a,,b", "empty level"),
    ("x=[a", "unbalanced"),
    ("bad key=1", "not a config key"),
])
def test_bad_vary_is_one_clear_error(text, words):
    with pytest.raises(sw.SweepError, match=words):
        sw.parse_vary(text)


def test_a_key_may_be_varied_once():
    with pytest.raises(sw.SweepError, match="varied twice"):
        sw.check_axes([sw.parse_vary("players=8"), sw.parse_vary("players=9")])


def test_append_overrides_extend_the_configs_list():
    base = {"game": "x", "rules": {"extra": ["a"]}, "n": 3}
    axis = sw.parse_vary("rules.extra+=,b,[c,d]")
    assert sw.cell_overrides(base, [axis], (None,), "f") == []
    assert sw.cell_overrides(base, [axis], ("b",), "f") == ['rules.extra=["a", "b"]']
    assert sw.cell_overrides(base, [axis], (["c", "d"],), "f") == ['rules.extra=["a", "c", "d"]']
    # an absent key starts from an empty list
    axis = sw.parse_vary("rules.more+=z")
    assert sw.cell_overrides(base, [axis], ("z",), "f") == ['rules.more=["z"]']
    # appending to something that is not a list is the cell's error
    with pytest.raises(config.ConfigError, match="appends to a list"):
        sw.cell_overrides(base, [sw.parse_vary("n+=1")], (1,), "f")


def test_overrides_are_toml_that_config_reads_back():
    for value in [3, 0.25, True, "seer-led", ["a", 2], {"name": "seer-led", "trust": 0.5}]:
        text = f"k={sw.toml_value(value)}"
        assert config.parse_override(text, "f") == (["k"], value)


# --- running -----------------------------------------------------------------------------------
def test_each_cell_is_bit_identical_to_its_own_run():
    axes = [sw.parse_vary("players=8..9"), sw.parse_vary("strategies.all=random,seer-led")]
    done = sw.run_sweep("werewolf", axes, games=700, seed=5, workers=1, chunk_size=300)
    assert [c.status for c in done.cells] == ["ok"] * 4
    for cell in done.cells:
        alone = runner.run(config.load("werewolf", overrides=cell.overrides), 700, seed=5,
                           workers=1, chunk_size=300)
        for name, values in alone.tallies.items():
            np.testing.assert_array_equal(cell.result.tallies[name], values, err_msg=name)
        assert cell.result.data["command"].startswith("fairplay run werewolf --set players=")


def test_pooled_cells_equal_sequential_cells(monkeypatch):
    """The pooled path (chunks of all cells in one pool) gives the same tallies; threads stand
    in for the processes here (a spawned worker would compile the kernel anew)."""
    axes = [sw.parse_vary("players=8..10")]
    sequential = sw.run_sweep("werewolf", axes, games=900, seed=2, workers=1, chunk_size=200)
    monkeypatch.setattr(runner, "ProcessPoolExecutor",
                        lambda max_workers, mp_context, initializer:
                        ThreadPoolExecutor(max_workers))
    pooled = sw.run_sweep("werewolf", axes, games=900, seed=2, workers=3, chunk_size=200)
    for a, b in zip(sequential.cells, pooled.cells):
        assert b.status == "ok"
        assert sorted(b.result.data["chunks_done"]) == list(range(5))
        for name in a.result.tallies:
            np.testing.assert_array_equal(a.result.tallies[name], b.result.tallies[name])


def test_invalid_cells_are_kept_with_their_error_line():
    axes = [sw.parse_vary("players=8..9"), sw.parse_vary("roles.werewolf=3..4")]
    done = sw.run_sweep("werewolf", axes, games=200, seed=1, workers=1)
    status = {c.levels: c.status for c in done.cells}
    assert status == {(8, 3): "ok", (8, 4): "invalid", (9, 3): "ok", (9, 4): "ok"}
    bad = next(c for c in done.cells if c.status == "invalid")
    assert "roles.werewolf" in bad.error and "\n" not in bad.error
    assert bad.result is None


def test_sweep_file_round_trip(tmp_path):
    axes = [sw.parse_vary("players=8..9")]
    done = sw.run_sweep("werewolf", axes, games=300, seed=9, workers=1, command="fairplay sweep")
    path = tmp_path / "s.json"
    done.save(path)
    data = json.loads(path.read_text())
    assert data["schema"] == "fairplay.sweep" and data["schema_version"] == 1
    assert data["cells"][0]["result"]["schema"] == "fairplay.result"
    assert sw.is_sweep_file(path)
    again = sw.Sweep.load(path)
    assert again.to_json() == done.to_json()
    # every cell's result is a whole result file
    (tmp_path / "cell.json").write_text(json.dumps(data["cells"][1]["result"]))
    assert Result.load(tmp_path / "cell.json").games_played == 300


def test_unreadable_sweep_file_is_one_line(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"schema": "fairplay.sweep", "schema_version": 99}')
    with pytest.raises(sw.SweepError, match="version 99"):
        sw.Sweep.load(bad)


# --- the command -------------------------------------------------------------------------------
def test_sweep_players_8_to_11_and_its_line_chart(tmp_path):
    out, html = tmp_path / "sweep.json", tmp_path / "sweep.html"
    result = CliRunner().invoke(cli, ["sweep", "werewolf", "--vary", "players=8..11", "-n", "500",
                                      "--seed", "3", "--workers", "1", "-o", str(out),
                                      "--report", str(html)])
    assert result.exit_code == 0, result.output
    assert "players=11" in result.output
    done = sw.Sweep.load(out)
    assert [c.levels for c in done.cells] == [(8,), (9,), (10,), (11,)]
    assert all(c.status == "ok" and c.result.games_played == 500 for c in done.cells)
    text = html.read_text()
    assert text.count('data-chart="line"') == 3  # team win rates, endings, length
    assert 'data-chart="heatmap"' not in text
    assert not URL.search(text)
    # `fairplay report` rebuilds the same report from the file
    again = tmp_path / "again.html"
    result = CliRunner().invoke(cli, ["report", str(out), "-o", str(again)])
    assert result.exit_code == 0, result.output
    assert again.read_text().count('data-chart="line"') == 3


def test_two_keys_draw_the_heat_map(tmp_path):
    out, html = tmp_path / "s.json", tmp_path / "s.html"
    result = CliRunner().invoke(cli, ["sweep", "werewolf", "--vary", "players=8..10",
                                      "--vary", "roles.werewolf=1..4", "-n", "300", "--workers",
                                      "1", "-o", str(out), "--report", str(html)])
    assert result.exit_code == 0, result.output
    assert "invalid" in result.output  # 4 wolves among 8 players
    text = html.read_text()
    assert 'data-chart="heatmap"' in text
    assert "invalid:" in text
    assert 'data-chart="values"' in text  # role values: one more werewolf, other keys held
    numbers = json.loads(re.search(r'id="fairplay-numbers">(.*?)</script>', text, re.S).group(1))
    assert numbers["invalid"] == 1 and numbers["valid"] == 11
    for entry in numbers["role_values"]:
        assert entry["role"] == "werewolf" and entry["diff"] > 0  # wolves help wolves


def test_fairest_cells_cover_the_target_and_are_closest(tmp_path):
    out, html = tmp_path / "s.json", tmp_path / "s.html"
    result = CliRunner().invoke(cli, ["sweep", "werewolf", "--vary", "players=8..14",
                                      "--vary", "roles.werewolf=1..2", "-n", "400", "--workers",
                                      "1", "-o", str(out), "--report", str(html)])
    assert result.exit_code == 0, result.output
    numbers = json.loads(re.search(r'id="fairplay-numbers">(.*?)</script>', html.read_text(),
                                   re.S).group(1))
    cells = {c["index"]: c for c in numbers["cells"]}
    covering = [c for c in cells.values() if c["measures"]
                and c["measures"]["balance"]["low"] <= 0.5 <= c["measures"]["balance"]["high"]]
    covering.sort(key=lambda c: abs(c["measures"]["balance"]["rate"] - 0.5))
    assert numbers["fairest"] == [c["index"] for c in covering[:3]]
    for index in numbers["fairest"]:
        assert f'<tr class="fairest" data-cell="{index}">' in html.read_text()


def test_every_cell_invalid_exits_2(tmp_path):
    result = CliRunner().invoke(cli, ["sweep", "werewolf", "--vary", "players=30..31", "-n",
                                      "100", "-o", str(tmp_path / "s.json")])
    assert result.exit_code == 2
    assert "every one of the 2 cells is invalid" in result.output
    assert not (tmp_path / "s.json").exists()


def test_bad_vary_and_bad_config_exit_2(tmp_path):
    result = CliRunner().invoke(cli, ["sweep", "werewolf", "--vary", "players=9..8"])
    assert result.exit_code == 2 and "empty" in result.output
    result = CliRunner().invoke(cli, ["sweep", "nope.toml", "--vary", "players=9"])
    assert result.exit_code == 2 and "no such config file" in result.output


def test_fifty_cell_sweep_report_is_small(tmp_path):
    out, html = tmp_path / "s.json", tmp_path / "s.html"
    result = CliRunner().invoke(cli, ["sweep", "werewolf", "--vary", "players=8..17",
                                      "--vary", "roles.werewolf=1..5", "-n", "60", "--workers",
                                      "1", "-o", str(out), "--report", str(html)])
    assert result.exit_code == 0, result.output
    assert len(sw.Sweep.load(out).cells) == 50
    size = html.stat().st_size
    assert size < 2_000_000, f"{size:,} bytes"
    assert 'data-chart="heatmap"' in html.read_text()


def test_three_keys_give_a_table_and_unplayed_cells_say_so(tmp_path):
    from reports import render

    axes = [sw.parse_vary("players=8..9"), sw.parse_vary("roles.seer=0..1"),
            sw.parse_vary("strategies.all=random,seer-led")]
    planned, _ = sw.plan("werewolf", axes, games=100, seed=0)
    assert len(planned.cells) == 8 and not planned.complete
    page = render.write_sweep_report(planned, tmp_path / "p.html").read_text()
    assert "not played" in page and 'data-chart="' not in page
    done = sw.execute(planned, workers=1)
    page = render.write_sweep_report(done, tmp_path / "d.html").read_text()
    assert 'data-chart="line"' not in page and 'data-chart="heatmap"' not in page
    assert "shown as a table" in page
    assert page.count('<tr class="') >= 8
    assert 'data-chart="values"' in page  # the seer's value, from roles.seer=0..1
