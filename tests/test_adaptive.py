"""Adaptive runs (--precision, --until-decided): the stopping rule, its determinism (1 or 2
workers, interrupted and resumed), the one-line errors, and the controlled error rate of the
sequential verdict."""

import json

import numpy as np
import pytest
from click.testing import CliRunner
from scipy import stats as sps

from simulator import api
from simulator.statistics import adaptive, sequential
from simulator.run import chunks, runner
from simulator.setup import config
from simulator.cli import main
from simulator.run.results import Result, checksum
from simulator.run.stopping import Rule
from simulator.statistics.summary import summarize


def tallies(result):
    return {name: values.tolist() for name, values in result.tallies.items()}


def widest(result):
    return max(row.rate.half_width for row in adaptive.headline_rows(result))


@pytest.fixture(scope="module")
def cfg():
    return config.load("werewolf/seer-led.toml")


PRECISION = Rule("precision", 200_000, 0.02)


@pytest.fixture(scope="module")
def precise(cfg):
    return api.run(cfg, PRECISION.max_games, seed=4, workers=1, chunk_size=500,
                      stopping=PRECISION)


# --- the stopping rule -------------------------------------------------------------------------
def test_a_precision_run_stops_when_the_half_width_is_reached_and_not_before(cfg, precise):
    stopped = precise.data["stopped"]
    games = precise.games_played
    assert stopped["reason"] == "precision" and stopped["games"] == games
    assert games % 500 == 0 and 500 < games < PRECISION.max_games
    assert precise.complete and precise.data["games_requested"] == games
    assert widest(precise) <= 0.02
    # the previous chunk boundary is the same seed's run one chunk shorter: not precise yet
    before = api.run(cfg, games - 500, seed=4, workers=1, chunk_size=500)
    assert widest(before) > 0.02
    # the run equals a fixed run of the games it took, bit for bit
    assert tallies(api.run(cfg, games, seed=4, workers=1, chunk_size=500)) == \
        tallies(precise)
    # its headline rates are the teams' (a team game), as the summary prints them
    summary = summarize(precise)
    assert [(row.name, row.rate) for row in adaptive.headline_rows(precise)] == \
        [(row.name, row.rate) for row in summary.rows_of("team")]
    assert f"Stopped after {games:,} games" in summary.table()
    assert "±2 points" in summary.table()


def test_an_individual_games_headline_rates_are_its_seats_roles_and_strategies():
    """Chenghuang (individual scores): the rates the rule checks are the summary's seat, role
    and strategy rows, with the same game-level intervals."""
    result = api.run(config.load("chenghuang", players=4), 2_000, seed=1, workers=1,
                        chunk_size=1_000)
    rows = [(row.group, row.name, row.rate) for row in summarize(result).rows
            if row.group in ("seat", "role", "strategy") and row.rate.trials]
    assert [(row.group, row.name, row.rate) for row in adaptive.headline_rows(result)] == rows
    assert {group for group, _, _ in rows} >= {"seat", "role"}


def test_a_run_that_cannot_reach_its_precision_stops_at_the_cap_and_says_so(cfg):
    capped = api.run(cfg, 1_200, seed=4, workers=1, chunk_size=500,
                        stopping=Rule("precision", 1_200, 0.001))
    assert capped.games_played == 1_200 and capped.data["stopped"]["reason"] == "max-games"
    assert widest(capped) > 0.001
    assert "Stopped at the cap of 1,200 games (--max-games)" in summarize(capped).table()


def test_the_same_seed_stops_at_the_same_chunk_on_one_and_two_workers(cfg, precise):
    two = api.run(cfg, PRECISION.max_games, seed=4, workers=2, chunk_size=500,
                     stopping=PRECISION)
    assert tallies(two) == tallies(precise)
    assert two.data["stopped"] == precise.data["stopped"]
    assert sorted(two.data["chunks_done"]) == list(range(precise.games_played // 500))


def test_chunks_that_finish_out_of_order_wait_for_the_prefix_and_those_beyond_the_stop_drop(
        cfg, precise, monkeypatch):
    """Chunks delivered in the order 1, 0, 3, 2, ... (as several workers may finish them): the
    rule still sees the prefixes 0, 0-1, 0-2, ... and stops at the same chunk; the chunk
    delivered after the stopping one is not counted."""
    order = []

    def swapped(results, jobs, workers, on_done, isolate=False, scheduler=None):
        jobs = list(jobs)[:2 * (precise.games_played // 500 + 2)]
        for i in range(0, len(jobs) - 1, 2):
            for result, chunk in (jobs[i + 1], jobs[i]):
                order.append(chunk)
                data = result.data
                on_done(result, *chunks.play_chunk(*chunks.playing_identity(data),
                                                   data["seed"], chunk, 500),
                        0.0)

    monkeypatch.setattr(runner, "play_jobs", swapped)
    shuffled = api.run(cfg, PRECISION.max_games, seed=4, chunk_size=500, stopping=PRECISION)
    assert order[:4] == [1, 0, 3, 2]
    last = precise.games_played // 500 - 1  # the chunk the rule stops at
    beyond = [chunk for chunk in order if chunk > last]
    assert beyond and not set(beyond) & set(shuffled.data["chunks_done"])  # delivered, dropped
    assert tallies(shuffled) == tallies(precise)
    assert shuffled.data["stopped"] == precise.data["stopped"]


def test_an_interrupted_adaptive_run_resumes_to_the_same_stop(cfg, precise, tmp_path):
    path = tmp_path / "partial.json"
    calls = {"n": 0}

    def advance(games):
        calls["n"] += 1
        if calls["n"] == 2:  # Ctrl-C after the second chunk is merged, before its check
            raise KeyboardInterrupt

    with pytest.raises(runner.Interrupted):
        api.run(cfg, PRECISION.max_games, seed=4, workers=1, chunk_size=500,
                   checkpoint=path, progress=runner.Progress(advance=advance),
                   stopping=PRECISION)
    saved = Result.load(path)
    assert saved.games_played == 1_000 and not saved.complete and "stopped" not in saved.data
    resumed = api.resume(path, workers=2)
    assert tallies(resumed) == tallies(precise)
    assert resumed.data["stopped"] == precise.data["stopped"]
    assert Result.load(path).data["stopped"] == precise.data["stopped"]


@pytest.mark.parametrize("overrides, status", [
    ([], "unbalanced"),  # seer-led at 9 players: the wolves win about two games in three
    (["players=10", "roles.werewolf=2"], "balanced"),  # about 50%
])
def test_until_decided_stops_when_the_verdict_is_settled(overrides, status):
    cfg = config.load("werewolf/seer-led.toml", overrides)
    rule = Rule("decided", 400_000)
    one = api.run(cfg, rule.max_games, seed=2, workers=1, chunk_size=2_000, stopping=rule)
    two = api.run(cfg, rule.max_games, seed=2, workers=2, chunk_size=2_000, stopping=rule)
    stopped = one.data["stopped"]
    assert stopped["reason"] == status
    assert one.games_played < rule.max_games and tallies(one) == tallies(two)
    assert stopped == two.data["stopped"]
    # the fixed-sample verdict agrees at the stop (the sequential critical values are wider)
    assert summarize(one).judgement.status == stopped["reason"]
    assert stopped["critical_z_balanced"] >= sps.norm.isf(sequential.ALPHA_BALANCED)
    # and the previous boundary was not settled by the sequential test
    shorter = api.run(cfg, one.games_played - 2_000, seed=2, workers=1, chunk_size=2_000)
    shorter.data["stopping"] = rule.to_json()
    shorter.data["games_requested"] = rule.max_games
    assert adaptive.decision(shorter)[0] is None
    assert "the verdict is settled" in summarize(one).table()


# --- the group-sequential test -----------------------------------------------------------------
def test_the_boundaries_are_the_published_ones():
    """Lan-DeMets O'Brien-Fleming-like spending, 5 equally spaced looks, one-sided 2.5%:
    4.877, 3.357, 2.680, 2.290, 2.031 (Jennison & Turnbull 2000, table 7.6; gsDesign's
    sfLDOF); two looks: 2.963, 1.969."""
    five = sequential.boundaries(tuple(np.arange(1, 6) / 5), 0.025)
    assert np.allclose(five, [4.877, 3.357, 2.680, 2.290, 2.031], atol=0.003)
    two = sequential.boundaries((0.5, 1.0), 0.025)
    assert np.allclose(two, [2.963, 1.969], atol=0.003)
    # every critical value is at least the fixed-sample one: a sequential decision is also the
    # fixed verdict's
    many = sequential.boundaries(tuple(np.arange(1, 101) / 100), 0.05)
    assert np.all(many >= sps.norm.isf(0.05))


TOLERANCE, TARGET, CHUNK, LOOKS, REPLICATIONS = 0.02, 0.5, 500, 40, 4_000


def first_decisions(truth, c_balanced, c_unbalanced, seed):
    """Replications of a sequential verdict on Bernoulli games (win rate `truth`, every game
    decided): 1 for balanced, 2 for unbalanced, 0 for undecided at the last look."""
    rng = np.random.default_rng(seed)
    wins = rng.binomial(CHUNK, truth, size=(REPLICATIONS, LOOKS)).cumsum(axis=1)
    decided = np.zeros(REPLICATIONS, dtype=int)
    stopped_at = np.full(REPLICATIONS, LOOKS)
    for k in range(LOOKS):
        games = CHUNK * (k + 1)
        balanced, unbalanced = sequential.status((wins[:, k] / games)[:, None], games, TARGET,
                                                 TOLERANCE, c_balanced[k], c_unbalanced[k])
        open_ = decided == 0
        stopped_at[open_ & (balanced | unbalanced)] = k + 1
        decided[open_ & unbalanced] = 2
        decided[open_ & balanced & ~unbalanced] = 1
    return decided, stopped_at


def upper(alpha):
    """The most wrong decisions among the replications a procedure with error rate alpha
    gives, but for a one-sided 99.9% chance: the number is Binomial(R, alpha), so its rate lies
    below alpha + z_0.999·sqrt(alpha(1 − alpha)/R) (normal approximation, R·alpha >= 100)."""
    return alpha + sps.norm.isf(0.001) * np.sqrt(alpha * (1 - alpha) / REPLICATIONS)


def wilson_low(count):
    """The lower end of the 99.9% one-sided Wilson interval of count/REPLICATIONS."""
    z = sps.norm.isf(0.001)
    p, n = count / REPLICATIONS, REPLICATIONS
    return (p + z * z / (2 * n) - z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))) / \
        (1 + z * z / n)


@pytest.fixture(scope="module")
def designed():
    looks = tuple(np.arange(1, LOOKS + 1) / LOOKS)
    return (sequential.boundaries(looks, sequential.ALPHA_BALANCED),
            sequential.boundaries(looks, sequential.ALPHA_UNBALANCED))


def test_the_sequential_verdict_controls_its_error_rates_and_the_naive_look_does_not(designed):
    """At the edge of the tolerance (truth 52% against 50% ± 2) "balanced" is wrong, and so is
    "unbalanced". Over 4,000 replications of 40 looks, the sequential test says "balanced" at
    most 5% of the time and "unbalanced" at most 2.5% (each plus the binomial bound above);
    the fixed-sample verdict looked at after every chunk says "balanced" far more often."""
    decided, _ = first_decisions(TARGET + TOLERANCE, *designed, seed=1)
    wrong_balanced, wrong_unbalanced = np.mean(decided == 1), np.mean(decided == 2)
    assert wrong_balanced <= upper(sequential.ALPHA_BALANCED), wrong_balanced
    assert wrong_unbalanced <= upper(sequential.ALPHA_UNBALANCED), wrong_unbalanced
    fixed = np.full(LOOKS, sps.norm.isf(sequential.ALPHA_BALANCED)), \
        np.full(LOOKS, sps.norm.isf(sequential.ALPHA_UNBALANCED))
    naive, _ = first_decisions(TARGET + TOLERANCE, *fixed, seed=1)
    # the naive procedure's wrong "balanced" rate is, with 99.9% confidence, above 5%
    assert wilson_low(np.sum(naive == 1)) > sequential.ALPHA_BALANCED, np.mean(naive == 1)
    # the same on the other side of the band, and for "unbalanced" when the game is fair
    low, _ = first_decisions(TARGET - TOLERANCE, *designed, seed=2)
    assert np.mean(low == 1) <= upper(sequential.ALPHA_BALANCED)
    fair, stopped_at = first_decisions(TARGET, *designed, seed=3)
    assert np.mean(fair == 2) <= upper(sequential.ALPHA_UNBALANCED)
    # and the test is worth having: a fair game is called balanced, mostly before the last look
    assert np.mean(fair == 1) > 0.9 and np.median(stopped_at) < LOOKS


def test_a_clear_imbalance_is_called_early(designed):
    decided, stopped_at = first_decisions(0.6, *designed, seed=4)
    assert np.all(decided == 2)
    assert np.max(stopped_at) <= LOOKS // 2


# --- the command line --------------------------------------------------------------------------
def run_cli(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def assert_one_line_error(result, *fragments):
    assert result.exit_code == 2, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.output
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


@pytest.mark.parametrize("args, fragments", [
    (["-n", "1000", "--precision", "0.01"], ["-n", "--precision", "give one"]),
    (["-n", "1000", "--until-decided"], ["-n", "--until-decided"]),
    (["--precision", "0.01", "--until-decided"], ["not both"]),
    (["--max-games", "1000"], ["--max-games", "-n"]),
    (["--precision", "0"], ["--precision", "between 0 and 0.5"]),
    (["--precision", "0.7"], ["--precision", "between 0 and 0.5"]),
    (["--precision", "0.01", "--max-games", "0"], ["--max-games", "at least 1"]),
])
def test_options_that_do_not_go_together_are_one_line(args, fragments):
    assert_one_line_error(run_cli("run", "werewolf", *args), *fragments)


def test_a_resumed_adaptive_run_keeps_its_rule(cfg, tmp_path):
    path = tmp_path / "adaptive.json"
    result = runner.start(cfg, 10_000, 1, 500, stopping=PRECISION)
    result.save(path)
    assert_one_line_error(run_cli("run", "--resume", str(path), "--precision", "0.01"),
                          "--resume", "stopping rule")
    assert_one_line_error(run_cli("run", "--resume", str(path), "-n", "20000"),
                          "adaptive", "-n")


def test_a_damaged_stopping_rule_is_refused_in_one_line(cfg, tmp_path):
    path = tmp_path / "damaged.json"
    result = runner.start(cfg, 10_000, 1, 500, stopping=PRECISION)
    data = json.loads(result.to_json())
    data["stopping"] = {"rule": "precision", "max_games": 100, "precision": "fine"}
    data["checksum"] = checksum(data)  # as if fairplay had written it: the rule is checked
    path.write_text(json.dumps(data))
    assert_one_line_error(run_cli("run", "--resume", str(path)), "stopping rule")


def test_the_command_line_plays_until_precise_and_records_the_command(tmp_path):
    out = tmp_path / "p.json"
    done = run_cli("run", "werewolf", "--precision", "0.03", "--chunk-size", "500",
                   "--workers", "1", "-q", "-o", str(out), "--seed", "3")
    assert done.exit_code == 0, done.output
    saved = Result.load(out)
    assert saved.data["stopping"]["rule"] == "precision"
    assert "--precision 0.03 --max-games 10000000" in saved.data["command"]
    assert f"Stopped after {saved.games_played:,} games" in done.output
    report = tmp_path / "p.html"
    assert run_cli("report", str(out), "-o", str(report)).exit_code == 0
    assert f"Stopped after {saved.games_played:,} games" in report.read_text(encoding="utf-8")


def test_repeated_intervals_cover_the_truth_wherever_the_run_stops(designed):
    """A run that stops early prints repeated confidence intervals (Wilson at the stopping
    look's critical value c_k): over 4,000 replications near the tolerance's edge, where many
    stop early, they miss the true rate at most 5% of the time (plus the binomial bound). The
    plain 95% interval at the stop is the optimistic one the verdicts issue measured."""
    truth = TARGET + TOLERANCE + 0.005
    decided, stopped_at = first_decisions(truth, *designed, seed=5)
    rng = np.random.default_rng(5)  # the same games as first_decisions drew
    wins = rng.binomial(CHUNK, truth, size=(REPLICATIONS, LOOKS)).cumsum(axis=1)
    at = stopped_at - 1
    games = CHUNK * stopped_at
    p = wins[np.arange(REPLICATIONS), at] / games
    low, high = sequential._wilson(p, games, designed[1][at])
    missed = np.mean((truth < low) | (truth > high))
    assert np.mean(stopped_at < LOOKS) > 0.2  # a quarter stop early (seed 5): they are there
    assert missed <= upper(0.05), missed
    plain_low, plain_high = sequential._wilson(p, games, sps.norm.isf(0.025))
    plain_missed = np.sum((truth < plain_low) | (truth > plain_high))
    assert wilson_low(plain_missed) > 0.05  # the plain interval misses more than 5%


def test_an_early_stop_prints_its_intervals_at_the_repeated_level():
    rule = Rule("decided", 400_000, None)  # the base game: the wolves win 84%
    result = api.run(config.load("werewolf"), 400_000, seed=2, workers=1, chunk_size=5_000,
                        stopping=rule)
    level = adaptive.interval_level(result.data)
    assert result.games_played < 400_000 and level > 0.95
    summary = summarize(result)
    assert all(row.rate.confidence == level for row in summary.rows)
    assert "repeated confidence intervals" in summary.table()


def test_playing_an_adaptive_run_needs_the_statistics_stages_check(cfg):
    """The run stage never reads a result statistically: an adaptive result played without the
    stop check the caller passes (simulator.api passes adaptive.stops) is refused."""
    with pytest.raises(ValueError, match="needs its stopping check"):
        runner.run(cfg, 1_000, seed=1, chunk_size=500, stopping=PRECISION)
