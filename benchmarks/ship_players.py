"""Make the players that ship with fairplay: `fairplay equilibrate` on a game's standard configs
(and its default config), each result kept as a named set of `configs/players.json` that a
config plays as `strategies.all = "people@equilibrium"` (simulator/setup/players.py).

    python benchmarks/ship_players.py --config werewolf/standard-16.toml --write-docs
    python benchmarks/ship_players.py --game vitamors --passes 8

Each iteration is saved under benchmarks/results/equilibrium/ as it goes, so an interrupted one
continues where it stopped when the same command is run again (a finished one is read back, not
played again, unless --again; a larger --passes extends one that did not converge).
`--write-docs` rewrites the shipped sets' table of docs/strategies.md from the file.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from simulator.games import game_names, get_game
from simulator.setup import players
from simulator.studies import equilibrium as eq
from simulator.studies import standard

ROOT = Path(__file__).resolve().parents[1]
COMMAND = "python " + " ".join(["benchmarks/ship_players.py", *sys.argv[1:]])


def configs_of(game) -> list[str]:
    """The game's standard configs, then its default config where that is not one of them."""
    names = [setup.config for setup in standard.setups(game)]
    default = f"{game.name}/default.toml"
    if (ROOT / "configs" / default).exists() and default not in names:
        names.append(default)
    return names


def make(spec: str, args, say) -> dict:
    output = ROOT / "benchmarks" / "results" / "equilibrium" / \
        f"{spec.replace('/', '-').removesuffix('.toml')}.json"
    output.parent.mkdir(parents=True, exist_ok=True)
    saved = eq.load(output) if output.exists() and not args.again else None
    request = eq.Request.of_file(saved) if saved else eq.Request(
        spec, (), None, (), args.tolerance / 100, args.passes, args.trials, args.games,
        args.confirm_games, args.seed, "tpe", COMMAND)
    longer = saved is not None and args.passes > request.passes and not saved["converged"]
    if longer:  # the same turns, then more passes; the file names the command that made them
        request.passes, request.command = args.passes, COMMAND
    data = saved if saved and saved["complete"] and not longer else \
        eq.equilibrate(request, output, args.workers, None, saved, announce=say)
    game = get_game(data["game"])
    last = data["turns"][-len(data["teams"]):]
    return {"game": game.name, "strategy": game.measuring_strategy, "name": "equilibrium",
            "config": spec, "players": eq.spaces(request)[0].players,
            "teams": data["players"], "converged": data["converged"],
            "tolerance": float(data["tolerance"]),
            "largest_gain": float(max(t["high"] for t in last)),
            "command": data["search"].get("command") or COMMAND, "created": data["created"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="a game (repeatable; default: all)")
    parser.add_argument("--config", action="append", help="only this config (repeatable)")
    parser.add_argument("--passes", type=int, default=6)
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument("-n", "--games", type=int, default=10_000)
    parser.add_argument("--confirm-games", type=int, default=20_000)
    parser.add_argument("--tolerance", type=float, default=1.0, help="points")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--again", action="store_true", help="iterate again from the start")
    parser.add_argument("--write-docs", action="store_true")
    args = parser.parse_args()

    def say(line):
        print(line, file=sys.stderr, flush=True)

    made = []
    for name in args.game or game_names(listed_only=True):
        game = get_game(name)
        for spec in configs_of(game):
            if args.config and spec not in args.config:
                continue
            if len(game.teams) < 2:
                say(f"{spec}: {name} has no teams to take turns (an individual game): skipped")
                continue
            say(f"{spec}: equilibrating")
            made.append(make(spec, args, say))
            players.save(made[-1:])
            say(f"{spec}: saved to {players.shipped_path()}")
    if args.write_docs:
        docs = ROOT / "docs" / "strategies.md"
        docs.write_text(players.rewrite_docs(docs.read_text(encoding="utf-8"), players.load()),
                        encoding="utf-8")
    print("\n".join(players.table(players.load())))


if __name__ == "__main__":
    main()
