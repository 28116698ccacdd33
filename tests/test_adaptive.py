"""Adaptive runs (--precision, --until-decided): the stopping rule, its determinism (1 or 2
workers, interrupted and resumed), the one-line errors, and the controlled error rate of the
sequential verdict."""

import json
import re

import numpy as np
import pytest
from click.testing import CliRunner
from scipy import stats as sps

from simulator import api
from simulator.statistics import adaptive, inference, sequential, verdict
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
    """After a sequential stop the rates other than the deciding team's print repeated
    confidence intervals (Wilson at the stopping look's critical value c_k): over 4,000
    replications near the tolerance's edge, where many stop early, they miss the true rate at
    most 5% of the time (plus the binomial bound). The plain 95% interval at the stop is the
    optimistic one the verdicts issue measured."""
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


# --- the interval at the stop ------------------------------------------------------------------
def replications(truth, seed):
    """The runs of first_decisions(truth, ..., seed): the games, and where each run stopped
    (its estimate and games, and whether it stopped balanced)."""
    decided, stopped_at = first_decisions(truth, *designed_boundaries(), seed=seed)
    rng = np.random.default_rng(seed)  # the same games as first_decisions drew
    wins = rng.binomial(CHUNK, truth, size=(REPLICATIONS, LOOKS)).cumsum(axis=1)
    games = CHUNK * stopped_at
    return wins[np.arange(REPLICATIONS), stopped_at - 1] / games, games, stopped_at, decided


def designed_boundaries():
    looks = tuple(np.arange(1, LOOKS + 1) / LOOKS)  # cached by sequential.boundaries
    return (sequential.boundaries(looks, sequential.ALPHA_BALANCED),
            sequential.boundaries(looks, sequential.ALPHA_UNBALANCED))


def planned_bounds(designed, target=TARGET, tolerance=TOLERANCE):
    n = CHUNK * np.arange(1, LOOKS + 1)
    return n, sequential.stop_bounds(n, target, tolerance, *designed)


def test_the_stopping_region_is_the_rule_solved_for_the_estimate(designed):
    """stop_bounds gives, look by look, exactly the estimates at which `status` stops a run of
    one finding (on a grid 10^-5 apart), for targets at and off 50%."""
    p = np.linspace(0.2, 0.8, 60_001)
    for target, tolerance in ((TARGET, TOLERANCE), (0.3, 0.05), (0.6, 0.01)):
        n, (low, b_low, b_high, high) = planned_bounds(designed, target, tolerance)
        for k in range(LOOKS):
            balanced, unbalanced = sequential.status(p[:, None], n[k], target, tolerance,
                                                     designed[0][k], designed[1][k])
            assert np.array_equal(balanced, (p > b_low[k]) & (p < b_high[k])), (target, k)
            assert np.array_equal(unbalanced, (p < low[k]) | (p > high[k])), (target, k)
        assert b_low[0] == b_high[0] == target  # no balanced stop at the first look ...
        assert b_low[-1] < target < b_high[-1]  # ... but at the last


def test_the_estimate_at_the_stop_has_the_computed_distribution(designed):
    """P_θ(p̂_T >= v) from the recursive integration against 40,000 simulated runs with normal
    increments (the model it computes; the binomial's lattice aside). Each of the 39 empirical
    values lies within z·sqrt(F(1 − F)/R) of F, z the two-sided Bonferroni bound for 39
    comparisons at 0.1% together, plus 0.002 for the grid's error."""
    runs = 40_000
    n, bounds = planned_bounds(designed)
    values = np.linspace(0.47, 0.59, 13) + 1e-4
    thetas = np.array([0.5, 0.52, 0.56])
    computed = sequential.estimate_survival(n, bounds, thetas, values)
    z = sps.norm.isf(0.001 / 2 / computed.size)
    rng = np.random.default_rng(21)
    for theta, row in zip(thetas, computed):
        steps = CHUNK * theta + np.sqrt(CHUNK * theta * (1 - theta)) * \
            rng.standard_normal((runs, LOOKS))
        p = steps.cumsum(axis=1) / n
        low, b_low, b_high, high = bounds
        stop = (p < low) | (p > high) | ((p > b_low) & (p < b_high))
        stop[:, -1] = True
        at = p[np.arange(runs), stop.argmax(axis=1)]
        seen = (at[:, None] >= values).mean(axis=0)
        assert np.all(np.abs(seen - row) <= z * np.sqrt(row * (1 - row) / runs) + 0.002), \
            (theta, seen - row)


@pytest.mark.parametrize("truth, seed", [(0.50, 6), (0.515, 7), (0.52, 8), (0.55, 9)])
def test_the_interval_at_the_stop_covers_at_95_percent_and_is_as_wide_as_a_plain_one(
        designed, truth, seed):
    """Bernoulli games, 4,000 sequential runs each: a fair game, two near the tolerance's edge
    (52%) where runs stop balanced, unbalanced or at the cap, and a clear imbalance. The
    interval at the stop covers the truth in 95% of runs, within z_0.9995·sqrt(0.95·0.05/R) =
    ±1.2 points (the binomial error of the count, two-sided 99.9%); its median width is that of
    a plain 95% interval at the stop within 10%, where the repeated interval the summary
    printed before is wider in every run."""
    p, games, stopped_at, _ = replications(truth, seed)
    n, bounds = planned_bounds(designed)
    low, high, median = sequential.stop_intervals(n, bounds, p, games)
    covered = np.mean((low <= truth) & (truth <= high))
    assert abs(covered - 0.95) <= sps.norm.isf(0.0005) * np.sqrt(0.95 * 0.05 / REPLICATIONS), \
        covered
    plain = 2 * sps.norm.isf(0.025) * np.sqrt(p * (1 - p) / games)
    assert 0.9 < np.median((high - low) / plain) < 1.1
    rci_low, rci_high = sequential._wilson(p, games, designed[1][stopped_at - 1])
    assert np.all(high - low < rci_high - rci_low)
    assert np.all((low <= median) & (median <= high))


def test_a_balanced_stop_never_prints_an_interval_that_leaves_the_band(designed):
    """The verdict of every balanced stop among 8,000 runs near the tolerance's edge prints the
    interval that decided it, inside 48.0–52.0%. The interval the summary printed beside it
    before (Wilson at the unbalanced boundary's critical value) leaves the band in most."""
    printed = re.compile(r"equivalence interval (\d+\.\d)–(\d+\.\d)%")
    balanced = left_before = 0
    for truth, seed in ((0.515, 7), (0.52, 8)):
        p, games, stopped_at, decided = replications(truth, seed)
        for i in np.flatnonzero(decided == 1):
            k = stopped_at[i] - 1
            stop = adaptive.Stop("balanced", k + 1, LOOKS, float(designed[0][k]),
                                 float(designed[1][k]))
            wins = int(round(p[i] * games[i]))
            found = verdict.finding("team", "first", inference.wilson(wins, int(games[i])),
                                    TARGET, TOLERANCE, int(games[i]))
            said = adaptive.verdict_at_stop(stop, [found], TOLERANCE, "team", CHUNK * LOOKS)
            assert said.status == "balanced"
            low, high = (float(v) for v in printed.search(said.sentence).groups())
            assert 48.0 <= low and high <= 52.0, said.sentence
            old_low, old_high = sequential._wilson(p[i], games[i], designed[1][k])
            balanced += 1
            left_before += bool(old_low < 0.48 or old_high > 0.52)
    assert balanced > 1_000 and left_before > balanced / 2


def test_an_early_stop_prints_the_teams_at_the_stop_and_the_other_rates_repeated():
    rule = Rule("decided", 400_000, None)  # the base game with people: the humans win ~75%
    result = api.run(config.load("werewolf"), 400_000, seed=2, workers=1, chunk_size=5_000,
                     stopping=rule)
    stop = adaptive.sequential_stop(result.data)
    assert result.games_played < 400_000 and stop.reason == "unbalanced"
    summary = summarize(result)
    teams = summary.rows_of("team")
    assert {row.rate.label for row in teams} == {adaptive.AT_STOP}
    plain = {row.name: row.rate for row in summarize(result, 0.95).rows_of("team")}
    for row in teams:  # about as wide as a plain interval, far narrower than a repeated one
        assert row.rate.half_width < 1.2 * plain[row.name].half_width
        assert row.rate.half_width < 0.5 * adaptive.repeated(plain[row.name],
                                                             stop.c_unbalanced).half_width
    others = [row for row in summary.rows if row.group != "team"]
    assert others and {row.rate.label for row in others} == {adaptive.REPEATED}
    table = summary.table()
    assert "95% CI at the stop" in table and "repeated 95% confidence intervals" in table
    assert "100.00%" not in table and "z = 8.0 CI" not in table
    # a record whose stop cannot be read: plain intervals, and the sentence says so
    del result.data["stopped"]["critical_z_unbalanced"]
    assert adaptive.sequential_stop(result.data) is None
    assert {row.rate.label for row in summarize(result).rows} == {""}


@pytest.mark.parametrize("source, status", [
    ("werewolf", "Unbalanced"),  # the command: people-like players, humans ~75%
    ("configs/werewolf/base-random.toml", "Balanced"),  # random play: the wolves win 51.5%
])
def test_the_command_line_verdict_and_its_interval_agree(source, status, tmp_path):
    """`fairplay run werewolf --players 20 --set roles.werewolf=2 --until-decided --max-games
    1000000 --seed 3 --workers 1`: the verdict prints the interval that decided it, beyond the
    band for "unbalanced", inside it for "balanced"; the team rates print their interval at
    the stop, and no critical value or level stands in for an interval."""
    done = run_cli("run", source, "--players", "20", "--set", "roles.werewolf=2",
                   "--until-decided", "--max-games", "1000000", "--seed", "3", "--workers", "1",
                   "-o", str(tmp_path / "run.json"))
    assert done.exit_code == 0, done.output
    line = next(line for line in done.output.splitlines() if line.startswith("Verdict: "))
    assert line.startswith(f"Verdict: {status} ")
    low, high = (float(v) / 100 for v in re.search(
        r"(?:decision|equivalence) interval (\d+\.\d)–(\d+\.\d)%", line).groups())
    if status == "Balanced":
        assert 0.48 <= low and high <= 0.52
    else:
        assert low > 0.52 or high < 0.48
    assert re.search(r"human +\d+\.\d% \(95% CI at the stop ", done.output)
    assert "100.00%" not in done.output and not re.search(r"z = \d+\.\d CI", done.output)


def test_playing_an_adaptive_run_needs_the_statistics_stages_check(cfg):
    """The run stage never reads a result statistically: an adaptive result played without the
    stop check the caller passes (simulator.api passes adaptive.stops) is refused."""
    with pytest.raises(ValueError, match="needs its stopping check"):
        runner.run(cfg, 1_000, seed=1, chunk_size=500, stopping=PRECISION)


def test_each_family_gets_the_sequential_decision_its_intervals_read():
    """After a stop the summary's Tests give, for each family, what the stop's intervals read
    (sequential.decision_intervals): a decision interval beyond the band, every equivalence
    interval inside it, or neither; never a fixed-sample p-value."""
    stop = adaptive.Stop("max-games", 40, 40, 1.88, 2.16)

    def finding(group, name, wins, games):
        rate = inference.wilson(wins, games)
        return verdict.Finding(group, name, rate, 0.5, 1.0, False, False, 1.0, None)

    findings = [finding("team", "wolf", 20_760, 40_000),  # 51.9%: reaches past 52%, not beyond
                finding("seat", "seat 0", 20_000, 40_000), finding("seat", "seat 1", 20_100, 40_000),
                finding("position", "1st", 22_000, 40_000), finding("position", "2nd", 20_000, 40_000)]
    families = [("team", "camp balance"), ("seat", "seat fairness"),
                ("position", "turn-order fairness"), ("role", "role fairness")]
    decisions = adaptive.decisions_at_stop(stop, findings, 0.02, families)
    assert [(d.name, d.outcome, d.finding.name, d.interval) for d in decisions] == [
        ("camp balance", "open", "wolf", "equivalence"),
        ("seat fairness", "balanced", "seat 1", "equivalence"),
        ("turn-order fairness", "unbalanced", "1st", "decision")]
    for d in decisions:
        eq_low, eq_high, low, high = adaptive.decision_intervals(d.finding, stop)
        expected = (low, high, stop.c_unbalanced) if d.interval == "decision" else \
            (eq_low, eq_high, stop.c_balanced)
        assert (d.low, d.high, d.z) == expected
    assert decisions[0].text().startswith("not settled: the wolf team's equivalence interval ")
    assert decisions[2].text().startswith("unbalanced boundary crossed: the 1st position")
    assert "z = 2.16" in decisions[2].text() and "100.00%" not in decisions[2].text()
    assert "look 40 of 40" in adaptive.decisions_heading(stop)


def test_the_turn_order_effect_after_a_stop_prints_its_repeated_interval_and_no_p():
    from simulator.games import get_game

    effect = verdict.HalvesEffect(2, 0.3, 0.2, 0.1, 0.05, 0.15, 0.001)
    order = get_game("ghostplay").turn_order
    assert "(95% CI +5.0 to +15.0, p = 0.001;" in effect.sentence(order)
    after = effect.sentence(order, label=adaptive.REPEATED)
    assert "(repeated 95% CI +5.0 to +15.0;" in after and "p = " not in after
