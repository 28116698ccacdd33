"""Tests of sweeps (simulator/studies/sweep.py) and the `fairplay sweep` command.

Cells are tiny (a few hundred games, one worker, in this process) so the whole file stays fast;
the kernel compiles once per test session.
"""

from __future__ import annotations

import copy
import json
import re

import click
import numpy as np
import pytest
from click.testing import CliRunner

from reports import render
from simulator.cli.reports import report, sweep
from reports.numbers import sweep_numbers
from simulator.run import chunks, runner
from simulator.setup import config
from simulator.studies import sweep as sw
from simulator.run.results import Result


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


def test_pooled_cells_equal_sequential_cells():
    """The pooled path (chunks of all cells in one pool of worker processes) gives the same
    tallies as playing the cells one after the other in this process."""
    axes = [sw.parse_vary("players=8..10")]
    sequential = sw.run_sweep("werewolf", axes, games=900, seed=2, workers=1, chunk_size=200)
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
    assert data["schema"] == "fairplay.sweep" and data["schema_version"] == 2
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


def test_a_sweep_whose_cells_are_not_its_axes_grid_is_refused(tmp_path):
    """An axis value that no cell holds (here false for 9: `false` is not `9`, nor is it `0`) is
    damage, refused when the file is read, not a failure when the verdict is drawn."""
    done = sw.run_sweep("werewolf", [sw.parse_vary("players=8..9")], games=20, seed=0,
                        workers=1, command="fairplay sweep")
    data = json.loads(done.to_json())
    sw.Sweep.from_data(copy.deepcopy(data))  # the undamaged file reads
    for damage in (False, 10):  # (sealed again: a careful forger's edit meets the checks)
        bad = copy.deepcopy(data)
        bad["axes"][0]["values"][1] = damage
        with pytest.raises(sw.SweepError, match="not the axes' grid"):
            sw.Sweep.from_data(sw.SWEEP_FILE.seal(bad))
    swapped = copy.deepcopy(data)
    swapped["cells"].reverse()
    with pytest.raises(sw.SweepError, match="not the axes' grid"):
        sw.Sweep.from_data(sw.SWEEP_FILE.seal(swapped))


def test_a_sweep_file_is_checked_whole_by_its_checksum(tmp_path):
    """An edited top-level count (3,000,000 games said to be 50) or axis list is refused when
    read, as is a file without its checksum; each in one line."""
    done = sw.run_sweep("werewolf", [sw.parse_vary("players=8..9")], games=20, seed=0,
                        workers=1, command="fairplay sweep")
    data = json.loads(done.to_json())
    for field, value in (("games", 50), ("axes", data["axes"][:1] * 2)):
        with pytest.raises(sw.SweepError, match="checksum"):
            sw.Sweep.from_data(dict(data, **{field: value}))
    bare = {k: v for k, v in data.items() if k != "checksum"}
    with pytest.raises(sw.SweepError, match="checksum"):
        sw.Sweep.from_data(bare)


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
    # a wide tolerance, so that some cells of 400 games are balanced within it
    result = CliRunner().invoke(cli, ["sweep", "werewolf", "--vary", "players=8..14",
                                      "--vary", "roles.werewolf=1..2", "-n", "400", "--workers",
                                      "1", "--set", "balance_tolerance=0.15", "-o", str(out),
                                      "--report", str(html)])
    assert result.exit_code == 0, result.output
    numbers = json.loads(re.search(r'id="fairplay-numbers">(.*?)</script>', html.read_text(),
                                   re.S).group(1))
    cells = {c["index"]: c for c in numbers["cells"]}
    balanced = [c for c in cells.values() if c["measures"]
                and c["measures"]["balance"]["verdict"] == "balanced"]
    balanced.sort(key=lambda c: (abs(c["measures"]["balance"]["rate"] - 0.5), c["index"]))
    assert balanced and numbers["fairest"] == [c["index"] for c in balanced[:3]]
    assert numbers["verdicts"]["balanced"] == len(balanced)
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


# --- what a sweep says in words (synthetic cells: chosen win rates, no game played) -------------
def synthetic_sweep(varies, human_share, games=4000):
    """A planned sweep whose cells are filled with consistent tallies: the human team wins
    `human_share(levels)` of the games (levels: {key: value}); no game is played."""
    axes = [sw.parse_vary(text) for text in varies]
    planned, configs = sw.plan("werewolf", axes, games=games, seed=0)
    for cell in planned.cells:
        if cell.result is None:
            continue
        cfg = configs[cell.index]
        counts = np.asarray(cfg.params.role_counts)
        h = round(human_share({a.key: v for a, v in zip(axes, cell.levels)}) * games)
        t = cell.result.tallies
        t["games"][0] = games
        t["team_wins"][:] = [h, games - h]
        wolves, humans = int(counts[1]), cfg.players - int(counts[1])
        t["seat_wins"][:] = (h * humans + (games - h) * wolves) // cfg.players
        t["role_games"][:] = counts * games
        t["role_wins"][:3] = [h * counts[0], (games - h) * counts[1], h * counts[2]]
        t["slot_games"][0] = cfg.players * games
        t["slot_wins"][0] = h * humans + (games - h) * wolves
        t["length_hist"][3] = games
        t["end_counts"][:3] = [h, games - h, 0]
        cell.result.data["chunks_done"] = [0]
        cell.result.data["complete"] = True
        cell.status = "ok"
    return planned


def test_a_crossing_between_integer_levels_is_said_and_interpolated():
    from reports import render

    shares = {1: 0.62, 2: 0.41, 3: 0.20}
    done = synthetic_sweep(["players=12", "roles.werewolf=1..3"],
                           lambda lv: shares[lv["roles.werewolf"]])
    numbers = sweep_numbers(done)
    crossing = [c for c in numbers["crossings"] if c["kind"] == "crossing"]
    assert len(crossing) == 1
    c = crossing[0]
    assert c["between"] == [1, 2]
    assert c["estimate"] == pytest.approx(1 + (0.62 - 0.5) / (0.62 - 0.41), abs=1e-3)
    assert c["sentence"] == ("The 50% point of human's share of decided games lies between 1 and "
                             "2 werewolves (62.0% and 41.0%), at about 1.6 by linear "
                             "interpolation; no integer count balances it.")
    # neither interval covers the target, so no cell is fair
    assert numbers["fair_region"].startswith("No cell's 95% interval covers the 50% target")


def test_crossings_per_level_of_the_other_key_and_the_fair_region(tmp_path):
    from reports import render

    # the human share falls with werewolves and rises with players; at 9 players one wolf is
    # exactly fair, at 8 players no level reaches 50%
    def share(lv):
        return {8: 0.45, 9: 0.5, 10: 0.58}[lv["players"]] - 0.2 * (lv["roles.werewolf"] - 1)

    done = synthetic_sweep(["players=8..10", "roles.werewolf=1..3"], share)
    numbers = sweep_numbers(done)
    sentences = [c["sentence"] for c in numbers["crossings"]]
    assert ("At 8 players, human's share of decided games stays below the 50% point from 1 "
            "werewolf to 3 werewolves (closest: 1 werewolf, 45.0%).") in sentences
    assert ("At 9 players, human's share of decided games is exactly on the 50% point at 1 "
            "werewolf.") in sentences
    assert any(s.startswith("At 10 players, the 50% point of human's share of decided games lies "
                            "between 1 and 2 werewolves (58.0% and 38.0%), at about 1.4")
               for s in sentences)
    # the other direction: along players, per werewolf count
    assert ("With 1 werewolf, human's share of decided games is exactly on the 50% point at 9 "
            "players.") in sentences
    assert ("With 2 werewolves, human's share of decided games stays below the 50% point from 8 "
            "players to 10 players (closest: 10 players, 38.0%).") in sentences
    covering = [(c["levels"][0], c["levels"][1]) for c in numbers["cells"]
                if c["measures"]["balance"]["covers_target"]]
    assert covering == [(9, 1)]  # 45% ± 1.5 points at 8 players does not cover 50%
    region = numbers["fair_region"]
    assert region == ("Fair region (cells whose 95% interval covers the 50% target; ✓ in the "
                      "table, dotted outline in the heat map): at 8 players: none; at 9 players: "
                      "1 werewolf; at 10 players: none.")
    page = render.write_sweep_report(done, tmp_path / "s.html").read_text()
    for sentence in sentences + [region]:
        assert sentence in page.replace("&#39;", "'")
    # the fair region is marked in the table (✓, class covers) and the heat map (dotted)
    assert page.count('class="covers"') + page.count('class="fairest"') == 1
    assert "stroke-dasharray" in page[page.index('data-chart="heatmap"'):]


def test_the_sweep_command_prints_the_crossings(tmp_path):
    result = CliRunner().invoke(cli, ["sweep", "werewolf/base-random.toml", "--vary", "players=8..9",
                                      "--vary", "roles.werewolf=1..2", "-n", "300", "--workers",
                                      "1", "-o", str(tmp_path / "s.json")])
    assert result.exit_code == 0, result.output
    from reports import render

    numbers = sweep_numbers(sw.Sweep.load(tmp_path / "s.json"))
    text = " ".join(result.output.split())
    assert "These numbers describe scripted players: random at every seat." in text
    assert numbers["crossings"]
    for entry in numbers["crossings"]:
        assert entry["sentence"] in text
    assert numbers["fair_region"] in text
    # the table says what each cell dealt when the counts differ between cells
    assert "[7 × villager, 1 × werewolf]" in result.output


def test_favoured_side_flips_with_the_strategies(tmp_path):
    from reports import render

    def share(lv):
        return {"random": 0.2, "seer-led": 0.7}[lv["strategies.all"]] + 0.0 * lv["players"]

    done = synthetic_sweep(["players=8..9", "strategies.all=random,seer-led"], share)
    numbers = sweep_numbers(done)
    assert [f for f in numbers["flips"] if "favoured" in f] == [
        "At 8 players, the favoured side flips with strategies.all: wolf under random, human "
        "under seer-led.",
        "At 9 players, the favoured side flips with strategies.all: wolf under random, human "
        "under seer-led."]
    # the top role flips with it (the wolves' seat-games win when the wolves do)
    assert "At 8 players, the top role (highest win rate) changes with strategies.all: werewolf " \
        "under random, villager under seer-led." in numbers["flips"]
    # the scripted players differ by cell: the line names them with their levels
    assert numbers["strategies_line"] == (
        "random at every seat (strategies.all = random); seer-led at every seat "
        "(strategies.all = seer-led)")
    same = synthetic_sweep(["strategies.all=random,seer-led"], lambda lv: 0.2)
    assert sweep_numbers(same)["flips"] == [
        "The favoured side does not change with strategies.all: wolf under every level."]


def test_two_keys_draw_a_line_chart_per_level_of_the_second_key(tmp_path):
    from reports import render

    done = synthetic_sweep(["players=8..11", "roles.werewolf=1..3"],
                           lambda lv: 0.9 - 0.2 * lv["roles.werewolf"] + 0.01 * lv["players"])
    page = render.write_sweep_report(done, tmp_path / "s.html").read_text()
    assert page.count('data-chart="heatmap"') == 2
    assert page.count('data-chart="line"') == 3  # one per werewolf count
    for title in ("human's share of decided games, 1 werewolf",
                  "human's share of decided games, 3 werewolves"):
        assert f'aria-label="{title}"' in page


def test_sweep_table_shows_what_each_cell_dealt(tmp_path):
    from reports import render

    # roles.werewolf = "auto": the count follows the player count (2 up to 15, 3 from 16)
    done = synthetic_sweep(["players=15..16"], lambda lv: 0.4)
    page = render.write_sweep_report(done, tmp_path / "s.html").read_text()
    dealt = re.findall(r'<td data-field="dealt">(.*?)</td>', page)
    assert [re.sub(r"<[^>]+>", "", d) for d in dealt] == [
        "12 × villager, 2 × werewolf, 1 × seer", "12 × villager, 3 × werewolf, 1 × seer"]
    numbers = sweep_numbers(done)
    assert [c["dealt"] for c in numbers["cells"]] == [
        "12 × villager, 2 × werewolf, 1 × seer", "12 × villager, 3 × werewolf, 1 × seer"]


def test_a_wide_heat_map_turns_on_its_side_on_a_phone(tmp_path):
    """Six werewolf counts across, two player counts down: the narrow drawing puts the six down,
    so it fits a phone's 355 px instead of scrolling."""
    from reports import render

    done = synthetic_sweep(["players=14..15", "roles.werewolf=1..6"],
                           lambda lv: 0.8 - 0.1 * lv["roles.werewolf"])
    page = render.write_sweep_report(done, tmp_path / "s.html").read_text()
    heat = re.search(r'<figure data-chart="heatmap">(.*?)</figure>', page, re.S).group(1)
    narrow = heat[heat.index('class="chart-narrow"'):]
    # six columns would need 1.5 + 6 × 0.62 inches (501 px); turned, two fit the phone's 355
    assert re.search(r"min-width:(\d+)px", narrow).group(1) == "355"


def test_a_one_key_sweep_charts_each_cells_game_length():
    done = sw.run_sweep("werewolf", [sw.parse_vary("players=8..9")], games=300, seed=1,
                        workers=1)
    numbers = sweep_numbers(done)
    for cell in numbers["cells"]:
        hist = cell["measures"]["length"]["hist"]
        assert sum(hist) == 300 and hist == done.cells[cell["index"]].result.tallies[
            "length_hist"].tolist()
    titles = [f["svg"] for f in render.sweep_charts(numbers)]
    assert any("Game length by cell" in svg for svg in titles)


FLAKY = '''
from simulator.games.base import OBS_PLAYERS
from strategies.common import uniform_legal


def flaky(kind, obs, legal, params, memory, rng):
    """Plays at random, and gives up at a table of 10."""
    if obs[OBS_PLAYERS] >= 10 and kind >= 0:
        raise ValueError("gives up")
    return uniform_legal(legal, rng)
'''


def test_a_fault_in_one_cell_keeps_the_finished_cells_in_one_line(tmp_path):
    # Every fault is one line and loses nothing: the strategy fails in the cell players=10; the
    # cells 8 and 9, played before it (one worker: in order), are saved and report; the line
    # names the cell and how to trace the game.
    (tmp_path / "flaky.py").write_text(FLAKY)
    out = tmp_path / "s.json"
    result = CliRunner().invoke(cli, ["sweep", "werewolf", "--vary", "players=8..10", "-n", "300",
                                      "--workers", "1", "-q", "-o", str(out), "--set",
                                      f'strategies.all="{tmp_path / "flaky.py"}:flaky"'])
    assert result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    assert "raised ValueError: gives up" in lines[0] and "cell players=10" in lines[0]
    assert "fairplay trace werewolf" in lines[0]
    assert f"2 of 3 cells finished, saved to {out}" in lines[0]
    saved = sw.Sweep.load(out)
    assert [cell.status for cell in saved.cells] == ["ok", "ok", "pending"]
    assert all(cell.result.games_played == 300 for cell in saved.valid_cells)
    html = tmp_path / "r.html"
    assert CliRunner().invoke(cli, ["report", str(out), "-o", str(html)]).exit_code == 0
    assert html.exists()


def test_a_cluster_that_refuses_keeps_the_finished_cells(tmp_path, monkeypatch):
    # A Dask worker that would play other games stops the sweep (chunks.SchedulerError, bad
    # input: exit 2) after the first cell is in: that cell is saved, the rest stay pending.
    real = runner.play_jobs

    def first_cell_then_refuse(results, jobs, workers, merge, scheduler=None):
        first = [job for job in jobs if job[0] is results[0]]
        real(results, iter(first), 1, merge)
        raise chunks.SchedulerError("worker tcp://10.0.0.9:4000 would play other games")

    monkeypatch.setattr(runner, "play_jobs", first_cell_then_refuse)
    out = tmp_path / "s.json"
    result = CliRunner().invoke(cli, ["sweep", "werewolf", "--vary", "players=8..9", "-n", "200",
                                      "--workers", "2", "-q", "-o", str(out)])
    assert result.exit_code == 2, result.output
    assert len(result.output.strip().splitlines()) == 1
    assert "would play other games" in result.output
    assert f"1 of 2 cells finished, saved to {out}" in result.output
    assert [cell.status for cell in sw.Sweep.load(out).cells] == ["ok", "pending"]
