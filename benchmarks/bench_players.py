"""The players' standard on every standard config of a game (simulator/studies/standard.py): does the
people-like strategy beat random, how much does a best response gain each team (exploitability),
what never occurs (coverage), and does any seat or turn-order position win more? Saves every
figure in benchmarks/results/players-standard.json (the games and configs measured replace their
earlier figures, the others are kept) and prints the tables; `--write-docs` rewrites the
generated tables of docs/strategies.md from that file (simulator/studies/standard_tables.py).

    python benchmarks/bench_players.py --write-docs                 # every game
    python benchmarks/bench_players.py --game salem --write-docs    # one game
    python benchmarks/bench_players.py --render --write-docs        # the docs from saved figures

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
from simulator.studies import standard, standard_tables

COMMAND = "python " + " ".join(["benchmarks/bench_players.py", *sys.argv[1:]])


def rows_of(findings) -> list[tuple]:
    """Verdict findings as (name, difference, low, high, within, beyond) against their target."""
    return [(f.name, f.difference, f.rate.low - f.target, f.rate.high - f.target, f.within,
             f.beyond) for f in findings]


def measure(game, args, say) -> dict:
    out = {"game": game.name, "strategy": game.measuring_strategy, "command": COMMAND,
           "setups": []}
    for setup in standard.setups(game):
        if args.config and setup.config not in args.config:
            continue
        cfg = setup.load()
        row = {"config": setup.config, "players": cfg.players, "command": COMMAND,
               "targets": []}
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
    parser.add_argument("-o", "--output", type=Path, default=standard_tables.results_path(),
                        help="the figures file (default: the project's own)")
    parser.add_argument("--write-docs", action="store_true",
                        help="rewrite the generated tables of docs/strategies.md from the file")
    parser.add_argument("--config", action="append",
                        help="only this standard config, e.g. werewolf/standard-16.toml "
                             "(repeatable)")
    parser.add_argument("--only-exploitability", action="store_true",
                        help="measure the best responses alone (no tables printed)")
    parser.add_argument("--save-exploitability", action="store_true",
                        help="write the confirmed gains to configs/exploitability.json, which "
                             "runs of these setups print beside their verdict")
    parser.add_argument("--render", action="store_true",
                        help="print the tables of the figures saved earlier (no games played)")
    args = parser.parse_args()
    if args.render:
        games = standard_tables.load(args.output)
        for name, data in games.items():
            print("\n".join(standard_tables.report(data, get_game(name))) + "\n")
    else:
        names = args.game or [g for g in game_names(listed_only=True)
                              if get_game(g).standard_configs]
        started = time.perf_counter()
        say = lambda line: print(f"[{time.perf_counter() - started:6.0f} s] {line}",  # noqa: E731
                                 file=sys.stderr, flush=True)
        args.measured = []
        for name in names:
            data = merged(measure(get_game(name), args, say), args)
            standard_tables.save([data], args.output)
            print("\n".join(standard_tables.report(data, get_game(name))) + "\n", flush=True)
        if args.save_exploitability:
            exploitability.save(args.measured)
            say(f"{len(args.measured)} exploitability figures saved to "
                f"{exploitability.shipped_path()}")
        say(f"done; figures saved to {args.output}")
    if args.write_docs:
        changed = standard_tables.write_docs(standard_tables.load(args.output), get_game)
        print(f"docs/strategies.md: {', '.join(changed) or 'no'} tables rewritten",
              file=sys.stderr)


def merged(data: dict, args) -> dict:
    """The game's new figures over its saved ones: a config measured now replaces its row (with
    --only-exploitability, only its best responses), the configs not measured keep theirs."""
    try:
        saved = standard_tables.load(args.output).get(data["game"]) if args.output.exists() \
            else None
    except standard_tables.StandardFileError:
        saved = None
    if not saved:
        return data
    old = {row["config"]: row for row in saved["setups"]}
    for row in data["setups"]:
        before = old.get(row["config"])
        if args.only_exploitability and before:
            kept = {t["target"]: t for t in before["targets"]}
            for t in row["targets"]:
                t.update({k: v for k, v in kept.get(t["target"], {}).items()
                          if k not in t})
            row.update({k: v for k, v in before.items() if k not in row})
            row["command"] = f"{before['command']}; {row['command']}" \
                if before["command"] != row["command"] else row["command"]
        old[row["config"]] = row
    order = list(get_game(data["game"]).standard_configs)
    data["setups"] = sorted(old.values(), key=lambda r: order.index(r["config"])
                            if r["config"] in order else len(order))
    return data

if __name__ == "__main__":
    main()
