"""`fairplay equilibrate`: iterated best responses with damped moves (fictitious play) until no
team gains more than the tolerance (simulator/studies/equilibrium.py).

The iteration is checked apart from any game on matching pennies, whose equilibrium is known in
closed form; the command on werewolf with a one-parameter player (tiny searches), interrupted and
resumed; a changed file is refused by its checksum.
"""

from __future__ import annotations

import json

import pytest

from cli_checks import one_line_error, run_cli
from simulator.studies import best_response as br
from simulator.studies import equilibrium as eq
from test_best_response import planted_file


# --- the iteration on a game solved in closed form -----------------------------------------------
def pennies(k, team, players):
    """Matching pennies: `row` wins when the coins match; p and q are the chances of heads.
    Row's rate is pq + (1-p)(1-q); a best response is a pure coin (the side the other's coin
    favours), whose rate is max(q, 1-q); the gain is exact (an interval of ±0.1 point)."""
    p, q = players["row"]["p"], players["col"]["q"]
    row_rate = p * q + (1 - p) * (1 - q)
    if team == "row":
        best, gain = {"p": 1.0 if q > 0.5 else 0.0}, max(q, 1 - q) - row_rate
    else:
        best, gain = {"q": 1.0 if p < 0.5 else 0.0}, max(p, 1 - p) - (1 - row_rate)
    return {"best": best, "best_strategy": None, "gain": gain, "low": gain - 0.001,
            "high": gain + 0.001}


@pytest.mark.parametrize("start", [(0.9, 0.2), (0.0, 1.0), (0.5, 0.9)])
def test_fictitious_play_converges_to_matching_pennies_equilibrium(start):
    """The only equilibrium is p = q = 1/2. The two gains add up to max(q, 1-q) + max(p, 1-p) - 1
    >= |p - 1/2| + |q - 1/2|, so when both are below the tolerance t (their upper ends: gain +
    0.001 < t) the players lie within 2t of it together; plain alternation (every move the whole
    step) would jump between the corners for ever."""
    tolerance = 0.01
    done = eq.iterate(["row", "col"], {"row": {"p": start[0]}, "col": {"q": start[1]}},
                      {"row": set(), "col": set()}, pennies, tolerance, passes=2_000)
    assert eq.converged(done.turns, ["row", "col"], tolerance)
    p, q = done.players["row"]["p"], done.players["col"]["q"]
    assert abs(p - 0.5) + abs(q - 0.5) < 2 * tolerance
    assert not any(turn["moved"] for turn in done.turns[-2:])  # the last pass moved nobody


def test_a_move_is_the_running_mean_of_the_best_responses():
    """The n-th move takes 1/(n+1) of the step: the players are the mean of the starting ones
    and every best response moved to (integers rounded)."""
    first = eq.moved({"x": 0.0, "k": 0}, {"x": 1.0, "k": 3}, {"k"}, moves=1)
    assert first == {"x": 0.5, "k": 2}  # (0 + 1) / 2; (0 + 3) / 2 = 1.5, rounded to even
    second = eq.moved(first, {"x": 0.0, "k": 3}, {"k"}, moves=2)
    assert second["x"] == pytest.approx(1 / 3) and second["k"] == 2  # 2 + (3 - 2) / 3 = 2.33


def test_only_a_real_gain_with_a_target_in_the_family_moves_a_team():
    real = {"gain": 0.05, "low": 0.03, "high": 0.07, "best_strategy": None, "best": {"x": 1.0}}
    assert eq.should_move(real, 0.01)
    assert not eq.should_move(dict(real, low=-0.01), 0.01)  # not distinguishable from 0
    assert not eq.should_move(dict(real, gain=0.004, low=0.001, high=0.008), 0.01)  # within
    outside = dict(real, best_strategy="random", best={})
    assert not eq.should_move(outside, 0.01)  # not expressible, and no better family member
    assert eq.target(dict(outside, best_inside={"x": 1.0}, inside_gain=0.02)) == {"x": 1.0}
    assert not eq.should_move(dict(outside, best_inside={"x": 1.0}, inside_gain=-0.01), 0.01)


# --- the command ----------------------------------------------------------------------------------
def planted_args(tmp_path, out):
    path = planted_file(tmp_path)
    return ["equilibrate", "werewolf", "--set", f"strategies.wolf={path}:planted",
            "--set", f"strategies.human={path}:planted", "--passes", 1, "--trials", 0,
            "-n", 256, "--confirm-games", 256, "--workers", 1, "-q", "-o", out]


def test_an_interrupted_equilibrate_is_saved_and_resumed(tmp_path, monkeypatch):
    """Ctrl-C inside the second turn's search keeps the first turn and the second's candidates;
    `--resume` ends with exactly the turns and players of an uninterrupted run."""
    out = tmp_path / "eq.json"
    real, calls = br.Candidate.rate, {"n": 0}
    screen = 6  # the configured skill, then 0, 1, 0.25, 0.5, 0.75 (0 is the configured one)

    def rate(self, *args, **kwargs):
        calls["n"] += 1
        if calls["n"] == screen * 3 + 3:  # three rungs a candidate: inside the second turn
            raise KeyboardInterrupt
        return real(self, *args, **kwargs)

    monkeypatch.setattr(br.Candidate, "rate", rate)
    stopped = run_cli(*planted_args(tmp_path, out))
    assert stopped.exit_code == 130 and "equilibrate --resume" in stopped.stderr
    saved = eq.load(out)
    assert not saved["complete"] and len(saved["turns"]) == 1 and saved["under_way"]
    monkeypatch.setattr(br.Candidate, "rate", real)
    resumed = run_cli("equilibrate", "--resume", out, "-q")
    assert resumed.exit_code == 0, resumed.output
    assert "turn 2 (pass 1)" in resumed.output and "--set 'strategies.wolf.skill=" in \
        resumed.output
    done = eq.load(out)
    assert done["complete"] and done["turns"][0] == saved["turns"][0]
    again = tmp_path / "again.json"
    uninterrupted = run_cli(*planted_args(tmp_path, again))
    assert uninterrupted.exit_code == 0, uninterrupted.output
    alone = eq.load(again)
    assert alone["turns"] == done["turns"] and alone["players"] == done["players"]
    # the wolves' default skill 0 plays at random: their first turn is a real gain, and moves
    first = done["turns"][0]
    assert first["team"] == "human" and done["turns"][1]["team"] == "wolf"
    assert done["turns"][1]["low"] > 0 and done["turns"][1]["moved"]
    toml = out.with_suffix(".toml").read_text()
    assert toml.startswith("# players near equilibrium") and "skill" in toml
    played = run_cli("run", out.with_suffix(".toml"), "-n", 100, "--workers", 1, "-q", "-o",
                     tmp_path / "r.json")
    assert played.exit_code == 0, played.output


def test_a_changed_equilibrium_file_is_refused_in_one_line(tmp_path, monkeypatch):
    def fake_search(spec, team=None, **kwargs):
        return {"team": team, "best": {}, "best_strategy": None, "searched": [], "seed": 0,
                "searched_gain": 0.0,
                "confirm": {"gain": 0.001, "low": -0.002, "high": 0.004, "default_rate": 0.5,
                            "best_rate": 0.501, "seed": 1}}

    monkeypatch.setattr(br, "search", fake_search)
    out = tmp_path / "eq.json"
    result = run_cli("equilibrate", "werewolf", "--passes", 1, "-q", "-o", out)
    assert result.exit_code == 0, result.output
    assert "converged" in result.output and eq.load(out)["converged"]
    data = json.loads(out.read_text())
    data["players"]["wolf"] = {name: 0.0 for name in data["players"]["wolf"]}
    out.write_text(json.dumps(data))
    one_line_error(run_cli("equilibrate", "--resume", out), "checksum")


def test_equilibrate_needs_two_teams_and_an_untaken_output(tmp_path):
    one_line_error(run_cli("equilibrate", "werewolf", "--team", "wolf", "-o",
                           tmp_path / "a.json"), "two or more distinct teams")
    one_line_error(run_cli("equilibrate", "werewolf", "--team", "wolves", "--team", "human",
                           "-o", tmp_path / "a.json"), "two or more distinct teams")
    one_line_error(run_cli("equilibrate", "chenghuang", "-o", tmp_path / "a.json"),
                   "two or more distinct teams")
    taken = tmp_path / "taken.json"
    taken.write_text("{}")
    one_line_error(run_cli("equilibrate", "werewolf", "-o", taken), "--force")
    assert taken.read_text() == "{}"


def test_a_resume_with_more_passes_extends_a_run_that_did_not_converge(tmp_path, monkeypatch):
    def fake_search(spec, team=None, **kwargs):  # a real gain every turn: never converges
        return {"team": team, "best": {"counter": 0.0} if team == "wolf" else {"mob": 1.0},
                "best_strategy": None, "searched": [], "seed": kwargs["seed"],
                "searched_gain": 0.05,
                "confirm": {"gain": 0.05, "low": 0.03, "high": 0.07, "default_rate": 0.4,
                            "best_rate": 0.45, "seed": 1}}

    monkeypatch.setattr(br, "search", fake_search)
    out = tmp_path / "eq.json"
    assert run_cli("equilibrate", "werewolf", "--passes", 1, "-q", "-o", out).exit_code == 0
    first = eq.load(out)
    assert len(first["turns"]) == 2 and not first["converged"]
    one_line_error(run_cli("equilibrate", "--resume", out, "--passes", 0), "fewer than")
    assert run_cli("equilibrate", "--resume", out, "--passes", 2, "-q").exit_code == 0
    longer = eq.load(out)
    assert longer["passes"] == 2 and longer["turns"][:2] == first["turns"]
    assert [t["turn"] for t in longer["turns"]] == [0, 1, 2, 3]
    # the wolves' second move takes a third of the step: (0.95 + 0 + 0) / 3 from the default
    assert longer["players"]["wolf"]["counter"] == pytest.approx(0.95 / 3)
