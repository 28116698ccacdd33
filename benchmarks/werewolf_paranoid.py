"""How the town treats a paranoid who became the seer: in traced games of a werewolf config
(default `configs/werewolf/standard-16.toml`, every role available at 16), how often the paranoid
names the seer on night 2, how often he then claims the seer, and how often a claiming one is
hanged. Each game is traced from the same kernel as `fairplay run` (chunks of one game).

    python benchmarks/werewolf_paranoid.py                         # 1,500 games, seed 11
    python benchmarks/werewolf_paranoid.py configs/werewolf/standard-23.toml --games 3000
"""

from __future__ import annotations

import argparse
import re

from simulator.setup import config
from simulator.run import runner


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("config", nargs="?", default="configs/werewolf/standard-16.toml")
    ap.add_argument("--games", type=int, default=1500)
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args()
    cfg = config.load(args.config)
    became = claimed = hanged = 0
    for game in range(args.games):
        text = "\n".join(runner.trace_game(cfg, seed=args.seed, game=game, chunk_size=1))
        found = re.search(r"the paranoid, seat (\d+) .* becomes the seer", text)
        if not found:
            continue
        became += 1
        me = rf"seat {found.group(1)} \(seer, was paranoid\)"
        if re.search(me + " claims", text):
            claimed += 1
            hanged += bool(re.search(me + " dies, hanged", text))
    print(f"{args.config}, {args.games:,} games, seed {args.seed}: the paranoid became the seer "
          f"in {became}; {claimed} of them claimed it; {hanged} of those were hanged "
          f"({hanged / max(claimed, 1):.0%})")


if __name__ == "__main__":
    main()
