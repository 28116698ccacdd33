"""`fairplay run --robustness`: the verdict under every built-in strategy family of the game
(and tuned players), and a plain sentence when it depends on the players."""

from __future__ import annotations

from cli_checks import one_line_error, run_cli
from simulator.studies import robustness
from simulator.studies.robustness import Row


def test_the_run_is_played_again_with_each_strategy_family(tmp_path):
    out = tmp_path / "r.json"
    result = run_cli("run", "werewolf", "--set", "strategies.all=seer-led", "-n", 2_000,
                     "--workers", 1, "-q", "-o", out, "--robustness")
    assert result.exit_code == 0, result.output
    text = result.output[result.output.index("How the verdict depends on the players"):]
    assert "as configured (seer-led)" in text and "random at every seat" in text
    assert "seer-led at every seat" not in text  # that is the run itself
    # with random wolves the wolves win far more than with seer-led humans: the verdicts differ
    assert "The verdict moves with the players" in text or "flips" in text


def test_a_flip_between_balanced_and_unbalanced_is_said_plainly():
    rows = [Row("people at every seat", "balanced", "Balanced within ±2.0 points", "", 100),
            Row("helpful at every seat", "unbalanced", "Evil disfavoured by 20.0 points", "",
                100)]
    line = robustness.sentence(rows)
    assert line.startswith("The verdict flips with the players")
    assert "The answer depends on how people play." in line
    same = robustness.sentence(rows[:1] * 2)
    assert same.startswith("The verdict is the same with every set of players")


def test_tuned_goes_with_robustness():
    one_line_error(run_cli("run", "werewolf", "--tuned", "x.toml", "-n", 10), "--robustness")


def test_a_tuned_config_whose_strategy_fails_is_one_line_and_the_main_result_is_kept(tmp_path):
    (tmp_path / "bad.py").write_text('def bad(kind, obs, legal, params, memory, rng):\n'
                                     '    """always an illegal action"""\n    return -7\n')
    tuned = tmp_path / "T.toml"
    tuned.write_text('extends = "werewolf/base.toml"\n[strategies]\nwolf = "bad.py:bad"\n')
    out = tmp_path / "r.json"
    line = one_line_error(run_cli("run", "werewolf", "-n", 100, "--robustness", "--tuned", tuned,
                                  "--workers", 1, "-q", "-o", out), "robustness check stopped",
                          "not a legal action", exit_code=1)
    assert str(out) in line and out.exists()
