"""Which of Optuna's samplers finds more on our games: TPE or CMA-ES?

Each target (a standard config and a team, or a seat of an individual game) is searched twice by
`simulator.studies.best_response.search`, once per sampler, with everything else equal: the same
seed, the same screen (every parameter alone at its ends and interior points), the same number of
sampler candidates on the same games (common random numbers), the same out-of-family players and
the same confirmation on fresh games. What differs is only what the sampler proposes after the
screen, so the comparison reads:

* **beyond the screen**: the best sampler candidate's rate minus the best screened candidate's
  (points, on the search's games): what the sampler added;
* **confirmed**: the gain of the search's best over the default on fresh games, with its 95%
  paired interval;
* the wall time of the whole search.

    python benchmarks/bench_samplers.py                     # the default targets, 2 cores
    python benchmarks/bench_samplers.py --target werewolf/standard-16.toml:wolf -n 10000

It writes benchmarks/results/samplers.json and prints a markdown table (docs/strategies.md,
"Best responses", quotes it with this command beside it).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from simulator.studies import best_response

TARGETS = ("werewolf/standard-16.toml:wolf", "werewolf/standard-16.toml:human",
           "chenghuang/default.toml:seat0", "vitamors/players-5.toml:jesters")
COMMAND = "python " + " ".join(["benchmarks/bench_samplers.py", *sys.argv[1:]])


def pts(x: float) -> str:
    return f"{100 * x:+.1f}"


def one(target: str, sampler: str, args) -> dict:
    spec, _, who = target.partition(":")
    side = {"seat": int(who[4:])} if who.startswith("seat") else {"team": who}
    started = time.perf_counter()
    data = best_response.search(spec, trials=args.trials, games=args.games, seed=args.seed,
                                workers=args.workers, sampler=sampler, **side)
    seconds = time.perf_counter() - started
    inside = [r for r in data["searched"] if r["state"] == "complete" and "strategy" not in r]
    screen = max(r["value"] for r in inside if r["stage"] == "screen")
    sampled = [r["value"] for r in inside if r["stage"] == "sampler"]
    return {"target": target, "sampler": sampler, "seconds": round(seconds, 1),
            "best_screen": screen, "best_sampler": max(sampled, default=None),
            "beyond_screen": (max(sampled) - screen) if sampled else None,
            "best": data["best"], "best_strategy": data["best_strategy"],
            "confirm": data["confirm"]}


def table(rows: list[dict]) -> list[str]:
    lines = ["| target | sampler | best of the screen | best of the sampler (beyond the screen) | "
             "confirmed gain of the best (95% CI) | seconds |", "|---|---|---|---|---|---|"]
    for r in rows:
        c = r["confirm"]
        sampled = ("none finished" if r["best_sampler"] is None else
                   f"{100 * r['best_sampler']:.2f}% ({pts(r['beyond_screen'])})")
        lines.append(f"| {r['target']} | {r['sampler']} | {100 * r['best_screen']:.2f}% | "
                     f"{sampled} | {pts(c['gain'])} ({pts(c['low'])} to {pts(c['high'])}) | "
                     f"{r['seconds']:.0f} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", action="append", help="CONFIG:TEAM or CONFIG:seatN "
                        "(repeatable; default: " + ", ".join(TARGETS) + ")")
    parser.add_argument("--trials", type=int, default=40)
    parser.add_argument("-n", "--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("-o", "--output", type=Path,
                        default=Path(__file__).parent / "results" / "samplers.json")
    args = parser.parse_args()
    rows = []
    for target in args.target or TARGETS:
        for sampler in best_response.SAMPLERS:
            rows.append(one(target, sampler, args))
            print(table(rows[-1:])[-1], flush=True)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps({"command": COMMAND, "trials": args.trials,
                                       "games": args.games, "seed": args.seed, "rows": rows},
                                      indent=1) + "\n")
    print("\n".join(["", f"`{COMMAND}`:", ""] + table(rows)))


if __name__ == "__main__":
    main()
