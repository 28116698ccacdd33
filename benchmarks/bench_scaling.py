"""Scaling of a long run: one local worker against two, and a Dask LocalCluster of two workers
against the local pool of two, side by side (docs/scale.md, docs/performance.md).

    python benchmarks/bench_scaling.py                      # werewolf, 5,000,000 games, 3 rounds
    python benchmarks/bench_scaling.py --games 2000000 --rounds 5

Every round times the same run (same seed, same chunks) four ways, in an order that rotates from
round to round so that a burst of load elsewhere does not always fall on the same one:

- `pool-1`: the local backend, one worker process (`fairplay run --workers 1`);
- `pool-2`: the local backend, two worker processes (`--workers 2`);
- `dask-2`: a LocalCluster of two worker processes of one thread each, started before the round
  (`--scheduler tcp://...`: the backend's own cost, without the cluster's start-up);
- `local-2`: `--scheduler local --workers 2`, which starts and closes its own cluster (the cost a
  user of `--scheduler local` sees, start-up included).

It prints the wall time of each, their medians, the ratios pool-1 / pool-2 (target >= 1.8) and
dask-2 / pool-2 (target <= 1.10), and the load average of the machine before and after (the
wall-time ratios mean little on a machine whose cores are busy with other work). It also prints
the CPU seconds each way spent in all its processes (this one, its workers, the cluster's
workers), which other work on the machine does not inflate: equal CPU per game means a backend
adds no work, so it scales as the pool does where the cores are free. Every run's tallies are
checked equal to the first: the backends play the same games.
"""

from __future__ import annotations

import argparse
import logging
import os
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="werewolf")
    parser.add_argument("--games", type=int, default=5_000_000)
    parser.add_argument("--chunk-size", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    import numpy as np
    import psutil
    from distributed import Client, LocalCluster

    from simulator.setup import config
    from simulator.run import runner

    cfg = config.load(args.game)
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                           dashboard_address=None, silence_logs=logging.ERROR)
    ways = {
        "pool-1": dict(workers=1),
        "pool-2": dict(workers=2),
        "dask-2": dict(scheduler=cluster.scheduler_address),
        "local-2": dict(workers=2, scheduler="local"),
    }
    with Client(cluster, set_as_default=False) as view:
        cluster_pids = list(view.run(os.getpid).values())
    reference = None

    def cpu_seconds() -> float:
        """This process and its finished children (the pool's workers, a local cluster's), plus
        the pre-started cluster's workers."""
        own = resource.getrusage(resource.RUSAGE_SELF)
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        cluster_cpu = sum(sum(psutil.Process(pid).cpu_times()[:2]) for pid in cluster_pids)
        return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime + cluster_cpu

    cpu: dict[str, list[float]] = {way: [] for way in ways}

    def play(way: str, games: int) -> float:
        nonlocal reference
        started, cpu_started = time.perf_counter(), cpu_seconds()
        result = runner.run(cfg, games, seed=args.seed, chunk_size=args.chunk_size,
                            isolate=True, **ways[way])
        took = time.perf_counter() - started
        if games == args.games:
            cpu[way].append(cpu_seconds() - cpu_started)
        if games == args.games:
            if reference is None:
                reference = result.tallies
            for name, values in reference.items():
                assert np.array_equal(result.tallies[name], values), (way, name)
        return took

    for way in ways:  # warm-up: every kernel loaded, every worker of the cluster too
        play(way, 4 * args.chunk_size)
    load_before = os.getloadavg()
    times: dict[str, list[float]] = {way: [] for way in ways}
    names = list(ways)
    for r in range(args.rounds):
        order = names[r % len(names):] + names[:r % len(names)]
        for way in order:
            times[way].append(play(way, args.games))
            print(f"round {r + 1}: {way:<8} {times[way][-1]:7.2f} s wall, {cpu[way][-1]:7.2f} s CPU",
                  flush=True)
    load_after = os.getloadavg()
    cluster.close()

    median = {way: statistics.median(values) for way, values in times.items()}
    print(f"\n{args.game}, {args.games:,} games, chunks of {args.chunk_size:,}, "
          f"{args.rounds} rounds, {os.cpu_count()} cores; load average before "
          f"{load_before[0]:.2f} {load_before[1]:.2f}, after {load_after[0]:.2f} "
          f"{load_after[1]:.2f} (1 and 5 minutes)")
    print(f"{'way':<8} {'median s':>9} {'games/s':>11} {'CPU s':>7}   rounds (wall s)")
    cpu_median = {way: statistics.median(values) for way, values in cpu.items()}
    for way, values in times.items():
        print(f"{way:<8} {median[way]:9.2f} {args.games / median[way]:11,.0f} "
              f"{cpu_median[way]:7.2f}   " + ", ".join(f"{v:.2f}" for v in values))
    print(f"\npool-1 / pool-2  = {median['pool-1'] / median['pool-2']:.2f}  (target >= 1.80)")
    print(f"dask-2 / pool-2  = {median['dask-2'] / median['pool-2']:.2f}  (target <= 1.10)")
    print(f"local-2 / pool-2 = {median['local-2'] / median['pool-2']:.2f}  (start-up included)")
    print(f"CPU: pool-2 / pool-1 = {cpu_median['pool-2'] / cpu_median['pool-1']:.2f}, dask-2 / "
          f"pool-2 = {cpu_median['dask-2'] / cpu_median['pool-2']:.2f}, local-2 / pool-2 = "
          f"{cpu_median['local-2'] / cpu_median['pool-2']:.2f}")
    print("every run's tallies equal: yes")


if __name__ == "__main__":
    main()
