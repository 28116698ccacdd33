"""fairplay roles: what each role is worth, from paired runs (simulator/studies/roles.py).

Werewolf's seer-led config with small runs and fixed seeds. Every bound is the 95% interval the
command itself reports: a role whose interval lies wholly above (below) zero moves the human win
rate up (down) at the 5% level, and with a fixed seed the run, and so the assertion, is fixed.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from cli_checks import one_line_error, run_cli
from reports import render
from simulator.studies import roles as roles_module
from test_reports import html_errors, numbers_of

CONFIG = "configs/werewolf/seer-led.toml"
GAMES = 4000  # per setup: 40 chunks of 100 (the default chunk size for this -n)


@pytest.fixture(scope="module")
def values(tmp_path_factory):
    path = tmp_path_factory.mktemp("roles") / "roles.json"
    result = run_cli("roles", CONFIG, "-n", GAMES, "--seed", 3, "--workers", 1, "-o", path)
    assert result.exit_code == 0, result.output
    return json.loads(path.read_text()), result.output, path


def by_role(data):
    return {r["role"]: r for r in data["roles"]}


def test_table_has_every_candidate_role_sorted(values):
    data, output, _ = values
    # werewolf's base game at 9 players: villager (the filler), werewolf and seer; the medium is
    # the one expansion role the text makes available at 9; the others are skipped, saying why
    assert set(by_role(data)) == {"seer", "werewolf", "medium"}
    skipped = {s["role"]: s["note"] for s in data["skipped"]}
    assert "available from 10 role players" in skipped["madman"]
    assert [r["value"] for r in data["roles"]] == sorted((r["value"] for r in data["roles"]),
                                                         reverse=True)
    assert data["filler"] == "villager" and data["team"] == "human"
    for role in ("seer", "werewolf"):
        assert role in output
    # one more seer is refused by the config (at most one): measured as the base's seer instead
    seer = by_role(data)["seer"]
    assert (seer["count_without"], seer["count_with"]) == (0, 1) and "refused" in seer["note"]
    assert (by_role(data)["werewolf"]["count_without"],
            by_role(data)["werewolf"]["count_with"]) == (2, 3)


def test_seer_helps_the_humans_and_a_wolf_hurts_them(values):
    rows = by_role(values[0])
    # the 95% paired interval lies wholly on one side of zero (module docstring)
    assert rows["seer"]["low"] > 0, rows["seer"]
    assert rows["werewolf"]["high"] < 0, rows["werewolf"]
    for r in rows.values():
        assert r["low"] <= r["value"] <= r["high"]
        assert r["value"] == pytest.approx(r["with_rate"] - r["without_rate"])


def test_pairs_share_their_chunks_streams():
    """A pair of identical setups (the base against itself): chunk i of both plays the same
    stream, so every paired difference is 0 and the paired interval has width 0, while two
    independent runs of the same size would have a positive width. This is the pairing's
    defining property; how much narrower a real pair's interval is depends on how long two
    different setups keep drawing alike (measured in docs/statistics.md)."""
    planned = roles_module.plan(CONFIG, games=1000, seed=5, chunk_size=100)
    planned.pairs = [roles_module.Pair("base", 0, 0, 0, 0)]
    data = roles_module.execute(planned, workers=1)
    (row,) = data["roles"]
    assert row["value"] == 0 and row["low"] == 0 and row["high"] == 0
    assert row["unpaired_high"] - row["unpaired_low"] > 0
    assert row["width_ratio"] == 0


def test_paired_interval_narrower_for_correlated_chunks():
    """The interval's arithmetic: chunks whose two win counts move together (a shared
    chunk effect) give a paired interval narrower than the unpaired one; independent-looking
    chunks do not. Synthetic counts, fixed seed."""
    rng = np.random.default_rng(11)
    n = np.full(60, 500)
    shared = rng.binomial(500, 0.4, size=60)  # the common part of both setups' wins
    with_, without = shared + rng.binomial(40, 0.5, 60), shared + rng.binomial(40, 0.3, 60)
    value, low, high, _ = roles_module.paired_interval(with_ - without, n)
    ulow, uhigh, _ = roles_module.unpaired_interval(int(with_.sum()), int(without.sum()),
                                                    int(n.sum()))
    assert value == pytest.approx((with_.sum() - without.sum()) / n.sum())
    assert high - low < 0.5 * (uhigh - ulow)


def test_same_seed_same_json_whatever_the_workers(values, tmp_path):
    _, _, one = values
    two = tmp_path / "two.json"
    result = run_cli("roles", CONFIG, "-n", GAMES, "--seed", 3, "--workers", 2, "-o", two, "-q")
    assert result.exit_code == 0, result.output
    assert json.loads(two.read_text()) == json.loads(one.read_text())
    assert two.read_text() == one.read_text()


def test_a_game_without_a_filler_role_is_refused():
    one_line_error(run_cli("roles", "chenghuang", "-n", 1000), "chenghuang",
                   "declares no filler role")


@pytest.mark.parametrize("args, fragment", [
    (["-n", 0], "--games must be at least 1"),
    (["--workers", 0], "--workers must be at least 1"),
    (["--seed", -1], "--seed"),
    (["--chunk-size", 0], "--chunk-size must be at least 1"),
    (["-n", 50, "--chunk-size", 50], "needs at least 2"),
    (["--players", 3], "players"),
    (["--set", "roles.nobody=1"], "roles.nobody"),
    (["-n", "many"], "many"),
])
def test_bad_options_give_one_line(args, fragment):
    one_line_error(run_cli("roles", "werewolf", *args), fragment)


def test_ctrl_c_saves_nothing_and_exits_130(monkeypatch, tmp_path):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(roles_module.runner, "play_jobs", interrupted)
    path = tmp_path / "roles.json"
    result = run_cli("roles", CONFIG, "-n", 1000, "-o", path)
    one_line_error(result, "Interrupted", "nothing saved", exit_code=130)
    assert not path.exists()


def test_report_renders(values, tmp_path):
    data, _, _ = values
    page = render.render_roles_report(data)
    assert html_errors(page) == []
    assert numbers_of(page)["roles"] == data["roles"]
    for role in ("seer", "werewolf"):
        assert f'data-role="{role}"' in page
    assert "<svg" in page
    path = tmp_path / "roles.html"
    result = run_cli("roles", CONFIG, "-n", 1000, "--workers", 1, "--report", path, "-q")
    assert result.exit_code == 0, result.output
    assert html_errors(path.read_text()) == []


def test_a_filler_role_must_be_one_of_the_games_roles():
    import dataclasses

    from simulator.games.werewolf import GAME

    assert GAME.filler_role == "villager"
    with pytest.raises(ValueError, match="filler role 'nobody' is not one of its roles"):
        dataclasses.replace(GAME, filler_role="nobody")


def test_a_role_that_comes_in_pairs_is_added_as_a_pair():
    # werewolf's masons are always two: one more mason is refused, two more replace two villagers
    p = roles_module.plan("werewolf", players=14, games=200, chunk_size=100)
    masons = next(pair for pair in p.pairs if pair.role == "mason")
    assert (masons.count_without, masons.count_with) == (0, 2)
    name, overrides, cfg = p.setups[masons.with_]
    assert overrides == ["roles.mason=2"] and cfg.params.role_counts[7] == 2


def test_a_pair_the_base_deals_is_measured_as_its_last_two(tmp_path):
    # The rich 16-player setup deals the two masons: a third or fourth is refused, and so is
    # one; the pair is measured as the base's last two against two villagers. Reasons name the
    # key, not the base's file again.
    p = roles_module.plan("configs/werewolf/rich-16.toml", games=200, chunk_size=100)
    masons = next(pair for pair in p.pairs if pair.role == "mason")
    assert (masons.count_without, masons.count_with) == (0, 2)
    assert masons.note == ("one more refused (must be an integer from 0 to 2, got 3); measured "
                           "as the base's last two against two villagers")
    name, overrides, cfg = p.setups[masons.without]
    assert overrides == ["roles.mason=0"] and cfg.params.role_counts[7] == 0
    assert "mason" not in {s["role"] for s in p.skipped}
    # The roles that allow one copy share their note: one line names them all.
    rows = [{"role": pair.role, "note": pair.note} for pair in p.pairs]
    lines = roles_module.notes({"roles": rows, "skipped": p.skipped})
    single = next(line for line in lines if "last copy against a villager" in line)
    assert single.startswith("seer, ") and "hunter" in single and "witch" in single
    assert len(lines) == len({row["note"] for row in rows if row["note"]} |
                             {s["note"] for s in p.skipped})


def test_a_run_report_can_carry_the_role_values(values, tmp_path):
    # `fairplay run --role-values` measures the same pairs as `fairplay roles` (the run's games
    # per setup, its seed) and adds them to the report as a section of their own.
    data, _, _ = values
    report, out = tmp_path / "run.html", tmp_path / "run.json"
    result = run_cli("run", CONFIG, "-n", GAMES, "--seed", 3, "--workers", 1, "--role-values",
                     "--report", report, "-o", out, "-q")
    assert result.exit_code == 0, result.output
    saved = json.loads((tmp_path / "run-roles.json").read_text())
    assert saved["roles"] == data["roles"]  # the same seed and games: the same values
    page = report.read_text()
    assert html_errors(page) == []
    assert 'id="role-values"' in page and 'href="#role-values"' in page
    for role in ("seer", "werewolf"):
        assert f'data-role="{role}"' in page
    # a resumed run has no CONFIG to vary: refused in one line
    one_line_error(run_cli("run", "--resume", out, "--role-values"), "--role-values")


def test_the_intervals_of_one_table_hold_together_and_name_the_players(values):
    """Every value of a table is measured against one base run and read side by side: each
    interval is Bonferroni's at 1 - 0.05/m (m roles), the tests Holm-adjusted across them, and
    the table says which strategies played."""
    from scipy import stats as sps

    from simulator.statistics.inference import holm

    data, output, _ = values
    rows, chunks = data["roles"], data["chunks"]
    t = sps.t.ppf(1 - 0.05 / len(rows) / 2, chunks - 1)
    for r in rows:
        assert r["high"] - r["value"] == pytest.approx(t * r["se"])
        assert r["low"] <= r["pointwise_low"] and r["pointwise_high"] <= r["high"]
        assert r["excludes_zero"] == (r["low"] > 0 or r["high"] < 0)
    assert [r["p_holm"] for r in rows] == pytest.approx(list(holm([r["p"] for r in rows])))
    assert "hold together across the 3 roles" in output
    assert "measured with seer-led" in output


def test_random_play_says_what_its_values_mean():
    line = roles_module.measured_with(["random", "random"])
    assert line.startswith("measured with random") and "not to people" in line


def test_a_game_named_by_its_name_is_measured_with_its_people_like_players():
    """`fairplay roles werewolf` plays werewolf's built-in setup; role values are measured with
    the game's people-like strategy (its MEASURING_STRATEGY),
    unless the command sets the strategies or names a config file (which says who plays)."""
    from simulator.games import get_game

    game = get_game("werewolf")
    planned = roles_module.plan("werewolf", None, [], 400, chunk_size=100)
    assert {slot.label() for slot in planned.setups[0][2].slots} == {game.measuring_strategy}
    assert all(cfg.raw["strategies"] == {"all": game.measuring_strategy}
               for _, _, cfg in planned.setups)
    told = roles_module.plan("werewolf", None, ["strategies.all=random"], 400, chunk_size=100)
    assert {slot.label() for slot in told.setups[0][2].slots} == {"random"}
    named = roles_module.plan("configs/werewolf/base-random.toml", None, [], 400, chunk_size=100)
    assert {slot.label() for slot in named.setups[0][2].slots} == {"random"}
