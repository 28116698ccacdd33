"""The intervals printed after an --until-decided stop, measured: coverage, width and the bias of
the estimate where the run stopped, against a truth that is known.

1. Bernoulli streams (no games): sequential runs of the design below on games won with
   probability θ, near and far from the tolerance's edge (50% ± 2 points).
2. Werewolf with random play at every seat (configs/werewolf/base-random.toml), whose exact
   win rates the random-lynch model gives (simulator/games/werewolf/oracle.py): sequential runs
   through `simulator.api.run`, read from the summary `fairplay run` prints.

For each: how the runs stopped; the coverage of the team's 95% interval at the stop (what the
summary prints), of a plain 95% interval at the stop and of the repeated interval (Wilson at the
unbalanced boundary's critical value, what the summary printed before), each with its 95%
Wilson interval over the runs; their median widths against the plain interval's; the bias of the
estimate and of the median-unbiased estimate (points, and standard errors at the stop), over all
runs and over those that stopped before the cap; and, among "balanced" stops, how often the
verdict's interval, the table's 95% interval at the stop and the old repeated interval leave the
band.

    python benchmarks/bench_sequential.py --runs 400 --streams 20000 --workers 2

(about 9 minutes on 2 cores; docs/statistics.md quotes its figures)
"""

from __future__ import annotations

import argparse
import multiprocessing
import re
import time

import numpy as np
from scipy import stats as sps

MAX_GAMES, CHUNK = 50_000, 1_000  # 50 looks, as a default run's 1,000,000 games in 20,000s
TARGET, TOLERANCE = 0.5, 0.02
THETAS = (0.50, 0.51, 0.515, 0.52, 0.525, 0.53, 0.55, 0.60)
# (players, werewolves): inside the band, inside near its edge, beyond near it, far beyond
SETUPS = ((11, 1), (20, 2), (8, 1), (10, 1))
Z95 = sps.norm.isf(0.025)


def wilson_text(hits: int, n: int) -> str:
    from simulator.statistics import inference
    rate = inference.wilson(hits, n)
    return f"{100 * rate.value:5.1f}% ({100 * rate.low:.1f}–{100 * rate.high:.1f})"


def report(label: str, truth, p, games, early, low, high, median, rci, balanced, verdict_out,
           table_out) -> None:
    """One block of figures: the arrays are over runs."""
    truth = np.broadcast_to(np.asarray(truth, float), p.shape)
    se = np.sqrt(p * (1 - p) / games)
    plain = (p - Z95 * se, p + Z95 * se)
    n = len(p)
    print(f"\n{label}: {n:,} runs; {np.mean(balanced):.1%} balanced, "
          f"{np.mean(early & ~balanced):.1%} unbalanced, {np.mean(~early):.1%} at the cap; "
          f"median {int(np.median(games)):,} games")
    for name, (lo, hi) in (("at the stop (printed)", (low, high)), ("plain 95%", plain),
                           ("repeated (before)", rci)):
        hit = (lo <= truth) & (truth <= hi)
        ratio = np.median((hi - lo) / (plain[1] - plain[0]))
        print(f"  coverage {name:<22} {wilson_text(int(hit.sum()), n)}; among early stops "
              f"{wilson_text(int(hit[early].sum()), int(early.sum())) if early.any() else '-'}; "
              f"median width / plain {ratio:.2f}")
    for name, estimate in (("estimate at the stop", p), ("median-unbiased", median)):
        # the mean error, in points and in the median standard error at the stop
        error = estimate - truth
        text = f"  bias of the {name:<21} {100 * error.mean():+.3f} points " \
               f"({error.mean() / np.median(se):+.2f} se)"
        if early.any():
            text += f"; early stops {100 * error[early].mean():+.3f} points " \
                    f"({error[early].mean() / np.median(se[early]):+.2f} se)"
        print(text)
    if balanced.any():
        rci_out = (rci[0] < TARGET - TOLERANCE) | (rci[1] > TARGET + TOLERANCE)
        print(f"  balanced stops ({int(balanced.sum()):,}) whose interval leaves the band: the "
              f"verdict's {np.mean(verdict_out[balanced]):.1%}, the table's at the stop "
              f"{np.mean(table_out[balanced]):.1%}, the repeated one printed before "
              f"{np.mean(rci_out[balanced]):.1%}")


def streams(count: int) -> None:
    from simulator.statistics import sequential
    looks = tuple(np.arange(1, MAX_GAMES // CHUNK + 1) / (MAX_GAMES // CHUNK))
    c_b = sequential.boundaries(looks, sequential.ALPHA_BALANCED)
    c_u = sequential.boundaries(looks, sequential.ALPHA_UNBALANCED)
    n = CHUNK * np.arange(1, len(looks) + 1)
    bounds = sequential.stop_bounds(n, TARGET, TOLERANCE, c_b, c_u)
    print(f"Bernoulli streams: {len(looks)} looks of {CHUNK:,} games (at most {MAX_GAMES:,}), "
          f"target {TARGET:.0%} ± {100 * TOLERANCE:g} points")
    for theta in THETAS:
        rng = np.random.default_rng(round(theta * 1e4))
        rates = rng.binomial(CHUNK, theta, size=(count, len(looks))).cumsum(axis=1) / n
        balanced, unbalanced = sequential.status(rates[..., None], n[:, None], TARGET, TOLERANCE,
                                                 c_b[:, None], c_u[:, None])
        stop = balanced | unbalanced
        stop[:, -1] = True
        at = stop.argmax(axis=1)
        rows = np.arange(count)
        p, games = rates[rows, at], n[at]
        low, high, median = sequential.stop_intervals(n, bounds, p, games)
        eq_low, eq_high, *rci = sequential.decision_intervals(p, games, c_b[at], c_u[at])
        was_balanced = balanced[rows, at] & ~unbalanced[rows, at]
        report(f"θ = {100 * theta:g}%", theta, p, games, at < len(looks) - 1, low, high, median,
               rci, was_balanced,
               (eq_low <= TARGET - TOLERANCE) | (eq_high >= TARGET + TOLERANCE),
               (low < TARGET - TOLERANCE) | (high > TARGET + TOLERANCE))


_ROW = re.compile(r"^  wolf +(\d+\.\d)% \((.*?) (\d+\.\d)–(\d+\.\d)%\)")


def one_run(task):
    """One sequential run of werewolf under random play: what its summary prints of the wolf
    team, and the figures the report needs (wolf-team scale)."""
    players, wolves, seed = task
    from simulator import api
    from simulator.run.stopping import Rule
    from simulator.setup import config
    from simulator.statistics import adaptive, sequential
    from simulator.statistics.summary import summarize
    cfg = config.load("werewolf/base-random.toml", players=players,
                      overrides=[f"roles.werewolf={wolves}"])
    result = api.run(cfg, MAX_GAMES, seed=seed, workers=1, chunk_size=CHUNK,
                     stopping=Rule("decided", MAX_GAMES))
    summary = summarize(result)
    stop = adaptive.sequential_stop(result.data)
    row = next(r for r in summary.rows_of("team") if r.name == "wolf")
    assert row.rate.label == adaptive.AT_STOP, row.rate
    finding = summary.judgement.lead
    low, high, median = adaptive.interval_at_stop(result, finding, summary.judgement.tolerance)
    if finding.name != "wolf":
        median = 1 - median
    games = result.games_played
    p = row.rate.successes / games
    rci = sequential._wilson(p, games, stop.c_unbalanced)
    shown = re.search(r"interval (\d+\.\d)–(\d+\.\d)%", summary.verdict).groups()
    verdict_out = float(shown[0]) / 100 < TARGET - TOLERANCE or \
        float(shown[1]) / 100 > TARGET + TOLERANCE
    return (p, games, stop.reason, row.rate.low, row.rate.high, median, float(rci[0]),
            float(rci[1]), verdict_out)


def werewolf(count: int, workers: int) -> None:
    from simulator.games.werewolf import oracle
    print(f"\nWerewolf, random play (configs/werewolf/base-random.toml), --until-decided "
          f"--max-games {MAX_GAMES:,} --chunk-size {CHUNK:,}, seeds 1..{count}; truth: the "
          f"random-lynch model's exact wolf win rate")
    covered = []
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        for players, wolves in SETUPS:
            truth = 1 - oracle.town_win_random_float(players - wolves, wolves)
            started = time.perf_counter()
            out = pool.map(one_run, [(players, wolves, seed) for seed in range(1, count + 1)])
            p, games, reason, low, high, median, rci_low, rci_high, verdict_out = \
                (np.array(column) for column in zip(*out))
            report(f"{players} players, {wolves} werewol{'ves' if wolves > 1 else 'f'}: the "
                   f"wolves win {100 * truth:.2f}% exactly ({time.perf_counter() - started:.0f} "
                   f"s)", truth, p, games.astype(float), reason != "max-games", low, high,
                   median, (rci_low, rci_high), reason == "balanced", verdict_out,
                   (low < TARGET - TOLERANCE) | (high > TARGET + TOLERANCE))
            covered.append((low <= truth) & (truth <= high))
    hits = np.concatenate(covered)
    print(f"\nAll {len(hits):,} werewolf runs: the interval at the stop covers "
          f"{wilson_text(int(hits.sum()), len(hits))}")


def timing() -> None:
    """The time the summary takes to compute the interval at the stop, once the critical values
    are known (they are computed once per run), for a run of chunks of 20,000 games."""
    from simulator.statistics import sequential
    print()
    for count in (50, 500, 1000):
        looks = tuple(np.arange(1, count + 1) / count)
        sequential.boundaries.cache_clear()
        started = time.perf_counter()
        c_b = sequential.boundaries(looks, sequential.ALPHA_BALANCED)
        c_u = sequential.boundaries(looks, sequential.ALPHA_UNBALANCED)
        critical = time.perf_counter() - started
        n = 20_000 * np.arange(1, count + 1)
        started = time.perf_counter()
        sequential.stop_intervals(n, sequential.stop_bounds(n, TARGET, TOLERANCE, c_b, c_u),
                                  [0.51], [n[count // 3]])
        print(f"{count:>5} looks: the interval at the stop {time.perf_counter() - started:.2f} s "
              f"(the critical values {critical:.2f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=400, help="werewolf runs per setup")
    parser.add_argument("--streams", type=int, default=20_000, help="Bernoulli runs per θ")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    streams(args.streams)
    if args.runs:
        werewolf(args.runs, args.workers)
    timing()


if __name__ == "__main__":
    main()
