"""Tests of the exact werewolf oracle (simulator/games/werewolf/oracle.py).

Notation: f(h, w) = town_win_random(h, w), g(h, w) = town_win_seer_led(h, w), both at the start
of night 1 with h humans (the seer included) and w wolves. Each night removes one human; each day
removes one player; parity (humans <= wolves) is checked after the night kill, before the day.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction as F
from functools import lru_cache

import pytest

from simulator.games.werewolf.oracle import (
    HUMANS_WIN,
    WOLVES_WIN,
    length_distribution_random,
    length_distribution_seer_led,
    town_win_random,
    town_win_random_float,
    town_win_seer_led,
    town_win_seer_led_float,
)

GRID = [(h, w) for w in range(1, 6) for h in range(w + 1, 22)]


# --- hand-derived small cases --------------------------------------------------------------------

def test_random_one_wolf_two_humans():
    # Night 1: the wolf kills one of the 2 humans -> 1 human, 1 wolf -> parity -> wolves win
    # during night 1. The town never gets a day: f(2, 1) = 0, and the game has length 1.
    assert town_win_random(2, 1) == 0
    assert length_distribution_random(2, 1) == {(WOLVES_WIN, 1): 1}


def test_random_one_wolf_three_humans():
    # Night 1: a human dies -> 2h 1w (no parity). Day 1: hanging uniform over the 3 living players:
    #   the wolf with 1/3 -> humans win on day 1;
    #   a human with 2/3 -> 1h 1w -> parity -> wolves win on day 1.
    # f(3, 1) = 1/3.
    assert town_win_random(3, 1) == F(1, 3)
    assert length_distribution_random(3, 1) == {(HUMANS_WIN, 1): F(1, 3), (WOLVES_WIN, 1): F(2, 3)}


def test_random_one_wolf_four_humans():
    # Night 1: a human dies -> 3h 1w. Day 1: hanging uniform over 4 players:
    #   the wolf with 1/4 -> humans win on day 1;
    #   a human with 3/4 -> 2h 1w, no parity -> night 2: a human dies -> 1h 1w -> wolves win
    #   during night 2 (length 2).
    # f(4, 1) = 1/4 < f(3, 1) = 1/3: the fourth human adds a target to the random hanging but no
    # extra day (see test_random_parity_of_player_count).
    assert town_win_random(4, 1) == F(1, 4)
    assert length_distribution_random(4, 1) == {(HUMANS_WIN, 1): F(1, 4), (WOLVES_WIN, 2): F(3, 4)}


def test_random_one_wolf_five_humans():
    # Night 1 -> 4h 1w. Day 1 over 5 players: wolf 1/5 -> humans win (day 1); a human 4/5 -> 3h 1w
    # at the start of night 2, which is the (3, 1) game shifted by one round: humans win with 1/3
    # (on day 2), else the wolves win on day 2.
    # f(5, 1) = 1/5 + 4/5 * 1/3 = 7/15.
    assert town_win_random(5, 1) == F(7, 15)
    assert length_distribution_random(5, 1) == {
        (HUMANS_WIN, 1): F(1, 5),
        (HUMANS_WIN, 2): F(4, 5) * F(1, 3),
        (WOLVES_WIN, 2): F(4, 5) * F(2, 3),
    }


def test_random_two_wolves_five_humans():
    # Night 1 -> 4h 2w. Day 1 over 6 players:
    #   a wolf with 2/6 -> 4h 1w at night 2 = f(4, 1) = 1/4 (computed above);
    #   a human with 4/6 -> 3h 2w at night 2 -> the kill leaves 2h 2w -> wolves win.
    # f(5, 2) = 1/3 * 1/4 = 1/12.
    assert town_win_random(5, 2) == F(1, 12)


def test_seer_led_one_wolf_three_humans():
    # Seer S, villagers A and B, wolf W. Night 1: S checks one of A, B, W uniformly; then W kills one
    # of S, A, B uniformly, leaving 2h 1w (no parity).
    #   S found W (1/3) and survived (2/3): W is named and hanged on day 1 -> humans win.
    #   Every other case (7/9): random hanging over 3 players, the wolf with 1/3.
    # g(3, 1) = 2/9 + 7/9 * 1/3 = 13/27 (> f(3, 1) = 9/27).
    assert town_win_seer_led(3, 1) == F(13, 27)
    assert length_distribution_seer_led(3, 1) == {(HUMANS_WIN, 1): F(13, 27), (WOLVES_WIN, 1): F(14, 27)}


def test_seer_led_one_wolf_four_humans():
    # Seer S, villagers A, B, C, wolf W. Night 1: S checks one of A, B, C, W; W kills one of S, A, B, C.
    # After the night: 3h 1w. Useful sub-result: from 2h 1w at the start of a night the kill leaves
    # 1h 1w -> wolves win, whatever the seer does. So on day 1 the town wins only by hanging W.
    # (a) S found W (1/4):
    #     S killed (1/4): random day over 4 players -> W with 1/4;
    #     S alive (3/4): W named and hanged -> humans win.
    #     -> 1/4 * 1/4 + 3/4 = 13/16.
    # (b) S found a villager (3/4): nobody is named on day 1; hanging is random over 4 -> W with 1/4
    #     whether S lived or not -> 1/4.
    # g(4, 1) = 1/4 * 13/16 + 3/4 * 1/4 = 13/64 + 12/64 = 25/64.
    assert town_win_seer_led(4, 1) == F(25, 64)


def test_decided_deals_and_bad_arguments():
    # No wolves: the humans have won before night 1; humans <= wolves: the wolves have.
    assert town_win_random(3, 0) == 1 and town_win_seer_led(3, 0) == 1
    assert town_win_random(2, 2) == 0 and town_win_seer_led(1, 1) == 0
    assert length_distribution_random(3, 0) == {(HUMANS_WIN, 0): 1}
    assert length_distribution_seer_led(2, 3) == {(WOLVES_WIN, 0): 1}
    # h = w + 1: the first night kill reaches parity, seer or not.
    for w in range(1, 6):
        assert town_win_random(w + 1, w) == 0 == town_win_seer_led(w + 1, w)
    with pytest.raises(ValueError):
        town_win_random(-1, 1)
    with pytest.raises(ValueError):
        town_win_random(3, 1.0)
    with pytest.raises(ValueError):
        town_win_seer_led(0, 1)  # no human, so no seer


# --- consistency ---------------------------------------------------------------------------------

@pytest.mark.parametrize("model", ["random", "seer_led"])
def test_probabilities_and_length_distributions_are_consistent(model):
    win, lengths = {
        "random": (town_win_random, length_distribution_random),
        "seer_led": (town_win_seer_led, length_distribution_seer_led),
    }[model]
    win_float = town_win_random_float if model == "random" else town_win_seer_led_float
    for h, w in GRID:
        p = win(h, w)
        assert isinstance(p, F) and 0 <= p <= 1
        assert win_float(h, w) == pytest.approx(float(p), abs=1e-15)
        dist = lengths(h, w)
        assert sum(dist.values()) == 1
        assert all(0 < q <= 1 for q in dist.values())
        assert sum(q for (winner, _), q in dist.items() if winner == HUMANS_WIN) == p
        assert {winner for winner, _ in dist} <= {HUMANS_WIN, WOLVES_WIN}
        # Every round removes two players (one human at night, one player by day) until the end,
        # so the game lasts at least 1 and at most ceil((h + w) / 2) days.
        days = [d for _, d in dist]
        assert min(days) >= 1 and max(days) <= math.ceil((h + w) / 2)


# --- the seer only helps -------------------------------------------------------------------------

def test_swapping_a_human_for_a_wolf_helps_the_town():
    # Lemma L: at a fixed number of players, trading a living human for a living wolf hurts the
    # town: f(h + 1, w - 1) >= f(h, w) (and f(h + 1, 0) = 1). It is what the dominance below rests on.
    for h, w in GRID:
        assert town_win_random(h + 1, w - 1) >= town_win_random(h, w)


def test_seer_led_dominates_random():
    # Property: g(h, w) >= f(h, w). It must hold, and the reason is a coupling, by induction on the
    # number of living players. The seer's checks do not change who the wolves kill (uniform over
    # living humans in both models), and when the seer names nobody the day hanging has exactly the
    # random-play law, landing in a state that is again seer-led (>= its random value by induction)
    # or, if the seer was hanged or killed, exactly the random-play state. The only difference is
    # the day on which he names a wolf: then a wolf is hanged for sure, leading to night (h, w - 1),
    # where random voting would instead have mixed night (h, w - 1) with night (h - 1, w). Since
    # f(h, w - 1) >= f(h - 1, w) (lemma L above, at the same total of players), the sure hanging is
    # at least as good. Strictly better as soon as the town gets a day (h >= w + 2).
    for h, w in GRID:
        f, g = town_win_random(h, w), town_win_seer_led(h, w)
        assert g >= f
        if h >= w + 2:
            assert g > f


# --- monotonicity: the parity of the number of players -------------------------------------------

def test_random_one_wolf_closed_form_and_growth():
    # With one wolf: f(h, 1) = 1/h + (h - 1)/h * f(h - 2, 1) (night: a human dies; day: the wolf is
    # hanged with 1/h, else night starts from (h - 2, 1)), with f(1, 1) = f(2, 1) = 0. So
    #   1 - f(h + 2, 1) = (h + 1)/(h + 2) * (1 - f(h, 1)),
    # hence f(h + 2, 1) > f(h, 1): the town's chances grow with the humans in steps of two (fixed
    # parity of n = h + 1), and
    #   odd h:  1 - f(h, 1) = prod_{j=1}^{(h-1)/2} 2j / (2j + 1),
    #   even h: 1 - f(h, 1) = prod_{j=2}^{h/2} (2j - 1) / (2j),
    # both ~ sqrt(pi / (2h)) -> 0: with one wolf the town wins with probability -> 1, slowly.
    for h in range(2, 60):
        lose = F(1)
        if h % 2:
            for j in range(1, (h - 1) // 2 + 1):
                lose *= F(2 * j, 2 * j + 1)
        else:
            for j in range(2, h // 2 + 1):
                lose *= F(2 * j - 1, 2 * j)
        assert town_win_random(h, 1) == 1 - lose
        if h >= 3:
            assert town_win_random(h + 2, 1) > town_win_random(h, 1)
    # Large game (also exercises the bottom-up cache fill): 1 - f(401, 1) ~ sqrt(pi / 802) ~ 0.0626.
    assert town_win_random_float(401, 1) == pytest.approx(1 - math.sqrt(math.pi / 802), abs=2e-4)


def test_random_parity_of_player_count():
    # If every hanging hit a human, the town would get floor((h - w) / 2) days before parity: each
    # round costs two humans, and a day happens only while h - 1 > w after the night kill. That count
    # grows only every second added human, so what holds is monotonicity at fixed parity of n = h + w:
    #   f(h + 2, w) > f(h, w)          (two more humans: one more day)
    #   f(h, w + 2) <= f(h, w)         (two more wolves: one day fewer, two more wolves to hang)
    # while one added human helps only when it makes n even (it adds a day) and hurts when it makes
    # n odd (same number of days, one more innocent target for the random hanging):
    #   f(h + 1, w) > f(h, w)  iff  h + w is odd.
    # f(h, w + 1) <= f(h, w) is NOT true in general: in an odd game the extra wolf costs no day but
    # makes a random hanging likelier to hit a wolf, which wins when wolves are many, e.g.
    # f(8, 5) = 0.005208 < f(8, 6) = 0.005328. Seer-led play shows the same pattern.
    for win in (town_win_random, town_win_seer_led):
        for h, w in GRID:
            assert win(h + 2, w) > win(h, w)
            assert win(h, w + 2) <= win(h, w)
            assert (win(h + 1, w) > win(h, w)) == ((h + w) % 2 == 1)
    assert town_win_random(8, 5) < town_win_random(8, 6)
    assert town_win_seer_led(7, 4) < town_win_seer_led(7, 5)


# --- independent checks: a labelled-player enumeration and a Monte Carlo simulation ---------------

def _winner(alive, wolves):
    """Victory check: no wolves -> humans; humans <= wolves -> wolves; else None."""
    n_wolves = len(alive & wolves)
    if n_wolves == 0:
        return HUMANS_WIN
    if len(alive) - n_wolves <= n_wolves:
        return WOLVES_WIN
    return None


def _labelled_lengths(humans, wolves_n, seer):
    """Exact (winner, days) distribution by brute force over *labelled* seats (no counting argument):
    seats 0..w-1 are wolves, seat w the seer (if any), the rest villagers."""
    wolves = frozenset(range(wolves_n))
    seer_seat = wolves_n if seer else None

    def add(acc, dist, p, shift):
        for (who, d), q in dist.items():
            acc[(who, d + shift)] = acc.get((who, d + shift), F(0)) + p * q

    @lru_cache(maxsize=None)
    def night(alive, checked):
        if seer_seat in alive:
            candidates = sorted(alive - checked - {seer_seat})
            checks = [(F(1, len(candidates)), checked | {t}, t if t in wolves else None)
                      for t in candidates] or [(F(1), checked, None)]
        else:
            checks = [(F(1), checked, None)]
        acc = {}
        living_humans = sorted(alive - wolves)
        for p, chk, found in checks:
            for victim in living_humans:
                q = p * F(1, len(living_humans))
                rest = alive - {victim}
                who = _winner(rest, wolves)
                if who is not None:
                    add(acc, {(who, 1): F(1)}, q, 0)
                else:
                    named = found if (found is not None and seer_seat in rest) else None
                    add(acc, day(rest, chk, named), q, 0)
        return acc

    @lru_cache(maxsize=None)
    def day(alive, checked, named):
        targets = [(F(1), named)] if named is not None else [(F(1, len(alive)), x) for x in sorted(alive)]
        acc = {}
        for p, x in targets:
            rest = alive - {x}
            who = _winner(rest, wolves)
            if who is not None:
                add(acc, {(who, 1): F(1)}, p, 0)
            else:
                add(acc, night(rest, checked & rest), p, 1)
        return acc

    return night(frozenset(range(humans + wolves_n)), frozenset())


@pytest.mark.parametrize("humans,wolves", [(3, 1), (4, 1), (5, 1), (6, 1), (4, 2), (5, 2), (6, 2), (7, 2)])
def test_counts_match_labelled_enumeration(humans, wolves):
    # The oracle's count-based chain must equal the brute force over seats: this checks the
    # exchangeability argument of the oracle's module docstring, exactly.
    assert length_distribution_random(humans, wolves) == _labelled_lengths(humans, wolves, seer=False)
    assert length_distribution_seer_led(humans, wolves) == _labelled_lengths(humans, wolves, seer=True)


def _simulate(humans, wolves_n, seer, rng):
    """One game of the abstract model played seat by seat. Returns (winner, days)."""
    wolves = set(range(wolves_n))
    seer_seat = wolves_n if seer else -1
    alive = set(range(humans + wolves_n))
    checked = set()
    day_no = 0
    while True:
        day_no += 1
        # night: the living seer checks first, then the wolves kill
        found = None
        if seer_seat in alive:
            candidates = sorted(alive - checked - {seer_seat})
            if candidates:
                target = rng.choice(candidates)
                checked.add(target)
                if target in wolves:
                    found = target
        alive.remove(rng.choice(sorted(alive - wolves)))
        who = _winner(alive, wolves)
        if who is not None:
            return who, day_no
        # day: a surviving seer names his wolf and the town hangs it; otherwise random hanging
        if found is not None and seer_seat in alive:
            alive.remove(found)
        else:
            alive.remove(rng.choice(sorted(alive)))
        who = _winner(alive, wolves)
        if who is not None:
            return who, day_no


@pytest.mark.parametrize("seer", [False, True], ids=["random", "seer_led"])
def test_monte_carlo_cross_check(seer):
    # 20000 independent games of (7 humans, 2 wolves), fixed seed. Each tested frequency is a
    # binomial proportion with standard error se = sqrt(p (1 - p) / N) at the oracle's exact p;
    # we allow |p_hat - p| <= 4 se (z = 4: a correct oracle fails a given check with probability
    # ~6e-5). For the town win rate, se ~ 0.0026 (random, p = 5/32) and ~ 0.0033 (seer-led,
    # p ~ 0.324), so the tolerance is ~ 0.010 and ~ 0.013. The same bound is applied to every
    # (winner, days) cell, and a cell the oracle calls impossible must never occur.
    humans, wolves, n_games = 7, 2, 20000
    rng = random.Random(20240611 + seer)
    counts = {}
    for _ in range(n_games):
        outcome = _simulate(humans, wolves, seer, rng)
        counts[outcome] = counts.get(outcome, 0) + 1

    exact = (length_distribution_seer_led if seer else length_distribution_random)(humans, wolves)
    assert set(counts) <= set(exact)

    def close(p_hat, p):
        se = math.sqrt(p * (1 - p) / n_games)
        return abs(p_hat - p) <= 4 * se

    p_town = float(town_win_seer_led(humans, wolves) if seer else town_win_random(humans, wolves))
    town_hat = sum(k for (who, _), k in counts.items() if who == HUMANS_WIN) / n_games
    assert close(town_hat, p_town), (town_hat, p_town)
    for cell, p in exact.items():
        assert close(counts.get(cell, 0) / n_games, float(p)), (cell, counts.get(cell, 0) / n_games, float(p))
