"""Vita Mors Conspiro: how often a pattern is reachable at all, for a character deck.

A diagnostic outside the simulator (plain Python, no jesters, no spells): every player is an
honest exile who sees every hand; each sacrificer plays its card only if it extends a pattern
(else removes a scroll while any is left), onto the altar where it helps most, and the ritual
starts as soon as a pattern shows. The share of games that reach a pattern before the card limit
is a rough ceiling for the exiles' win rate with that deck (a greedy rule, not an optimum).

    python benchmarks/vitamors_ceiling.py --players 7 --scrolls 8 --ranks 4,4,4,4,4,4
"""

from __future__ import annotations

import argparse
import random


def life_pattern(cards):
    return any(cards[i] == cards[i + 1] == cards[i + 2] for i in range(len(cards) - 2))


def death_pattern(cards):
    pairs = [i for i in range(len(cards) - 1) if cards[i] == cards[i + 1]]
    return any(j >= i + 2 and cards[i] != cards[j] for i in pairs for j in pairs)


def value(life, death):
    """100 for a pattern; else 1 / 4 for a Life Altar ending in one / two alike, plus 3 for a
    Death Altar pair and 1 for an unpaired Death Altar card at the end."""
    if life_pattern(life) or death_pattern(death):
        return 100
    total = 0
    if life:
        total = 4 if len(life) >= 2 and life[-1] == life[-2] else 1
    pairs = any(death[i] == death[i + 1] for i in range(len(death) - 1))
    total += 3 if pairs else 0
    if death and not (len(death) >= 2 and death[-1] == death[-2]):
        total += 1
    return total


def game(ranks, players, scrolls, limit, rng, patient=True):
    deck = [rank for rank, count in enumerate(ranks) for _ in range(count)]
    rng.shuffle(deck)
    hands, pile = deck[:players], deck[players:]
    life, death = [], []
    seat = rng.randrange(players)
    while True:
        card = hands[seat]
        if card is None:
            return False
        base = value(life, death)
        gain_life = value(life + [card], death) - base
        gain_death = value(life, death + [card]) - base
        if max(gain_life, gain_death) >= 2 or not patient or scrolls == 0 or not (life or death):
            (life if gain_life > gain_death else death).append(card)
            hands[seat] = pile.pop() if pile else None
            if life_pattern(life) or death_pattern(death):
                return True
            if len(life) + len(death) >= limit:
                return False
        else:
            scrolls -= 1
        seat = (seat + 1) % players


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=7)
    parser.add_argument("--scrolls", type=int, default=8)
    parser.add_argument("--limit", type=int, default=9)
    parser.add_argument("--ranks", default="4,4,4,4,4,4", help="cards of each rank")
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    ranks = [int(x) for x in args.ranks.split(",")]
    rng = random.Random(args.seed)
    for patient in (True, False):
        reached = sum(game(ranks, args.players, args.scrolls, args.limit, rng, patient)
                      for _ in range(args.games))
        print(f"{'holding back' if patient else 'always playing'}: a pattern in "
              f"{reached / args.games:.1%} of {args.games:,} games")


if __name__ == "__main__":
    main()
