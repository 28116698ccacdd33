"""The players' standard on every standard config of a game (simulator/studies/standard.py): does the
people-like strategy beat random, how much does a best response gain each team (exploitability),
what never occurs (coverage), and does any seat or turn-order position win more? Prints the
tables of docs/strategies.md and saves every figure as JSON.

    python benchmarks/bench_players.py                      # every game (about an hour on 2 cores)
    python benchmarks/bench_players.py --game salem --trials 24 -n 10000

The exploitability figures come from here, never from a timed test.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from simulator.games import game_names, get_game
from simulator.statistics import exploitability
from simulator.studies import standard

COMMAND = "python " + " ".join(["benchmarks/bench_players.py", *sys.argv[1:]])


def pts(x: float) -> str:
    return f"{100 * x:+.1f}"


def interval(d: dict) -> str:
    return f"{pts(d['gain'])} ({pts(d['low'])} to {pts(d['high'])})"


def rows_of(findings) -> list[tuple]:
    """Verdict findings as (name, difference, low, high, within, beyond) against their target."""
    return [(f.name, f.difference, f.rate.low - f.target, f.rate.high - f.target, f.within,
             f.beyond) for f in findings]


def measure(game, args, say) -> dict:
    out = {"game": game.name, "strategy": game.measuring_strategy, "setups": []}
    for setup in standard.setups(game):
        if args.config and setup.config not in args.config:
            continue
        cfg = setup.load()
        row = {"config": setup.config, "players": cfg.players, "targets": []}
        for target in standard.targets(cfg):
            entry = {"target": target.label}
            if not args.only_exploitability:
                say(f"{setup.config} {target.label}: beat random")
                entry["beats_random"] = standard.beats_random(setup, target, args.beat_games,
                                                              args.seed, args.workers)
            if args.trials or args.only_exploitability:
                say(f"{setup.config} {target.label}: best response")
                data = standard.exploitability(setup, target, args.trials, args.games, args.seed,
                                               args.confirm_games, args.workers)
                entry["best_response"] = {"confirm": data["confirm"], "best": data["best"],
                                          "default": data["default"], "set": data["set"],
                                          "strategy": data["strategy"],
                                          "best_strategy": data.get("best_strategy")}
                args.measured.append(exploitability.entry(
                    setup.config, cfg, target.team or target.label, data, COMMAND))
            row["targets"].append(entry)
        if args.only_exploitability:
            out["setups"].append(row)
            continue
        say(f"{setup.config}: coverage and seats")
        played = standard.play(setup, args.play_games, args.seed, args.workers)
        row["play"] = {
            "games": played.games,
            "gaps": [(x.name, x.per_game) for x in played.gaps],
            "exempt": [(x.name, x.per_game, why) for x, why in played.exempt],
            "seats": rows_of(played.seats),
            "positions": rows_of(played.positions),
            "random_positions": rows_of(played.random_positions),
            "tolerance": played.tolerance,
            "coverage": [(x.kind, x.name, x.per_game, x.mark) for x in played.lines]}
        out["setups"].append(row)
    return out


def markdown(data: dict) -> list[str]:
    lines = [f"### {data['game']} (`{data['strategy']}` at every seat)", "",
             "| config | players | team | people vs random (points, 95% CI) | "
             "best response gain (points, 95% CI) | tuned parameters |",
             "|---|---|---|---|---|---|"]
    for row in data["setups"]:
        for t in row["targets"]:
            br = t.get("best_response")
            gain = ("not searched" if not br else "none (the default was the best found)"
                    if br["best"] == br["default"] else interval(br["confirm"])
                    + (" **above the standard**" if br["confirm"]["gain"] > standard.EXPLOITABLE
                       else ""))
            tuned = ("" if not br else "(the defaults)" if br["best"] == br["default"] else
                     ", ".join(f"{k}={v:.3g}" for k, v in br["best"].items()))
            lines.append(f"| {row['config']} | {row['players']} | {t['target']} | "
                         f"{interval(t['beats_random'])} | {gain} | {tuned} |")
    lines += ["", "| config | games | never or rare (no reason given) | exempt | largest seat "
              "difference | largest position difference | the same position, `random` at every "
              "seat |", "|---|---|---|---|---|---|---|"]
    for row in data["setups"]:
        p = row["play"]

        def largest(items):
            if not items:
                return "n/a"
            name, d, lo, hi, within, beyond = max(items, key=lambda x: abs(x[1]))
            mark = "" if within else (" **beyond**" if beyond else " (not decided)")
            return f"{name} {pts(d)} ({pts(lo)} to {pts(hi)}){mark}"

        gaps = ", ".join(f"{n} ({v:.4f})" for n, v in p["gaps"]) or "none"
        exempt = ", ".join(n for n, _, _ in p["exempt"]) or "none"
        lead = max(p["positions"], key=lambda x: abs(x[1]))[0] if p["positions"] else None
        same = [x for x in p["random_positions"] if x[0] == lead]
        lines.append(f"| {row['config']} | {p['games']:,} | {gaps} | {exempt} | "
                     f"{largest(p['seats'])} | {largest(p['positions'])} | {largest(same)} |")
    return lines + [""] + balance(data) + [""] + coverage_table(data)


def report(data: dict, game) -> list[str]:
    """One game's tables, the reasons for what good players never do, its strategies."""
    reasons = [f"* `{event}`: {why}" for event, why in (game.never_used or {}).items()]
    return markdown(data) + [""] + reasons + [""] + strategies_table(game)


def strategies_table(game) -> list[str]:
    """What each built-in strategy does and its parameters (from its declaration)."""
    lines = ["| strategy | what it does (it sees its seat's observation and its own memory) | "
             "parameters (default, range) |", "|---|---|---|"]
    for name, info in game.strategies().items():
        params = "; ".join(f"`{p.name}` {p.default:g} ({p.low:g}–{p.high:g}): {p.meaning}"
                           for p in info.params) or "none"
        lines.append(f"| `{name}` | {info.summary} | {params} |")
    return lines


def balance(data: dict) -> list[str]:
    """The balance under default and tuned players: each team's (seat's) win rate with the
    default players and with its own best response against the others' default players, both
    on the same fresh games (the best response's confirmation)."""
    lines = ["| config | team | default players | the team tuned, the others default |",
             "|---|---|---|---|"]
    for row in data["setups"]:
        for t in row["targets"]:
            br = t.get("best_response")
            if br:
                c = br["confirm"]
                lines.append(f"| {row['config']} | {t['target']} | "
                             f"{100 * c['default_rate']:.1f}% | {100 * c['best_rate']:.1f}% |")
    return lines


def coverage_table(data: dict) -> list[str]:
    """Events per game and endings' shares, one column per config; NEVER, rare, or - (not
    available in that setup)."""
    names = [(kind, name) for kind, name, _, _ in data["setups"][0]["play"]["coverage"]]
    head = [Path(row["config"]).stem for row in data["setups"]]
    lines = ["| event or ending | " + " | ".join(head) + " |",
             "|---|" + "---|" * len(head)]
    cells = {}
    for row in data["setups"]:
        for kind, name, per_game, mark in row["play"]["coverage"]:
            value = (f"{per_game:.3f}" if kind == "event" else f"{100 * per_game:.1f}%")
            cells[row["config"], name] = ("-" if mark == "not available" else
                                          f"{value} {mark}".strip())
    for kind, name in names:
        label = name if kind == "event" else f"ends: {name}"
        lines.append(f"| {label} | " + " | ".join(cells.get((row["config"], name), "")
                                               for row in data["setups"]) + " |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="a game (repeatable; default: all)")
    parser.add_argument("--trials", type=int, default=24, help="best-response candidates "
                        "(0: no search)")
    parser.add_argument("-n", "--games", type=int, default=10_000, help="games per candidate")
    parser.add_argument("--confirm-games", type=int, default=40_000)
    parser.add_argument("--beat-games", type=int, default=20_000)
    parser.add_argument("--play-games", type=int, default=40_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("-o", "--output", type=Path, default=Path("results/players-standard.json"))
    parser.add_argument("--config", action="append",
                        help="only this standard config, e.g. werewolf/standard-16.toml "
                             "(repeatable)")
    parser.add_argument("--only-exploitability", action="store_true",
                        help="measure the best responses alone (no tables printed)")
    parser.add_argument("--save-exploitability", action="store_true",
                        help="write the confirmed gains to configs/exploitability.json, which "
                             "runs of these setups print beside their verdict")
    parser.add_argument("--render", type=Path, nargs="+", metavar="JSON",
                        help="print the tables of figures saved earlier (no games played)")
    args = parser.parse_args()
    if args.render:
        for path in args.render:
            for data in json.loads(path.read_text()):
                print("\n".join(report(data, get_game(data["game"]))) + "\n")
        return
    names = args.game or [g for g in game_names(listed_only=True)
                          if get_game(g).standard_configs]
    started = time.perf_counter()
    say = lambda line: print(f"[{time.perf_counter() - started:6.0f} s] {line}",  # noqa: E731
                             file=sys.stderr, flush=True)
    everything = []
    args.measured = []
    for name in names:
        data = measure(get_game(name), args, say)
        everything.append(data)
        if not args.only_exploitability:
            print("\n".join(report(data, get_game(name))) + "\n", flush=True)
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(json.dumps(everything, indent=1))
    if args.save_exploitability:
        exploitability.save(args.measured)
        say(f"{len(args.measured)} exploitability figures saved to "
            f"{exploitability.shipped_path()}")
    say(f"done; figures saved to {args.output}")


if __name__ == "__main__":
    main()
