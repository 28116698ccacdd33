"""Exact win probabilities and game lengths for two abstract models of the werewolf base game.

This module is an *oracle*: a small dynamic program in exact rational arithmetic
(`fractions.Fraction`) that the simulator's tests compare Monte Carlo estimates against. It does
not use the simulator; it only needs the rules below, and every transition is derived in words so
that a reader can check the numbers without running anything.

The game
--------
There are ``humans + wolves`` role players. The wolves know each other; the humans are villagers,
and in the second model exactly one of them is the seer. The game starts with NIGHT 1 and then
alternates DAY 1, NIGHT 2, DAY 2, ...

* Night: the wolves kill exactly one living human (a non-wolf).
* Day: exactly one living player is hanged.
* Victory is checked after every death, in this order:
  all wolves dead -> the humans win; otherwise living humans <= living wolves (parity) -> the wolves
  win. Parity also covers "every human but one is dead", since there is always at least one wolf
  while the game goes on. In particular parity is checked right after the night kill, before the
  day begins.

While the game goes on we therefore always have ``wolves >= 1`` and ``humans > wolves``, which
also means there is always a human to kill at night and a player to hang by day.

Model 1, random play (``*_random``)
-----------------------------------
The classical random-lynch Mafia model (Braverman, Etesami and Mossel 2008; Migdał 2010): the night
kill is uniform over the living humans, and the day hanging is uniform over ALL living players,
wolves included (role-blind random voting hangs every living player with the same probability).
A seer, if any, is just a human here: his checks never change a vote.

Model 2, seer-led play (``*_seer_led``)
---------------------------------------
Exactly one of the humans is the seer. Every night, *before* the wolves act, the living seer checks
a player drawn uniformly among the living players other than himself that he has not checked
before (if there is none, he checks nobody). If he finds a wolf and survives the night (and the
night kill did not end the game), he names it publicly the next day, every human votes for it, and
it is hanged for certain (the humans outnumber the wolves while the game goes on, and the wolves
vote at random, so the humans' votes carry it). If he found no wolf that night, or found one but was
killed that same night, the day hanging is uniform over all living players, exactly as in model 1.
The wolves kill uniformly among the living humans: the seer, and humans the seer has already cleared,
are as likely to die as anyone. Once the seer is dead the game continues as model 1 from the current
counts and the current phase. (These wolves do not exploit a seer who has revealed himself by naming
a wolf; a cleverer pack would, so this model is favourable to the town on that point.)

Why counts are enough (exchangeability)
---------------------------------------
A state could list every seat with its role, whether it is alive and whether the seer has checked
it. The DP only keeps counts: at the start of a night, ``h`` living humans (seer included), ``w``
living wolves, whether the seer lives, and ``c`` = the number of living non-seer humans he has
already checked; the other ``h - 1 - c`` living non-seer humans are unchecked. A living wolf is never
"checked" at the start of a night while the seer lives: a wolf he found is hanged the next day unless
the seer died that night, after which checks no longer matter. So the living players fall into four
categories: seer, checked human, unchecked human, wolf.

Every random choice in either model is uniform over a set that is a *union of whole categories*:

* the seer's check is uniform over {unchecked humans} + {wolves};
* the night kill is uniform over {seer} + {checked humans} + {unchecked humans};
* the random day hanging is uniform over all four categories;
* the seer-led hanging takes the one wolf named that day, after which every remaining wolf is again
  an unchecked wolf (they are all alike).

Public information (who died, who was hanged, the seer's naming) never enters a choice except
through these rules: the random voters ignore it by definition, the seer does not use his cleared
humans to steer the vote, and the pack ignores it. Hence renaming the players *within* a category
maps the process to itself: given the history of counts, the players of one category are
exchangeable, and a uniform choice over a union of categories hits a given category with probability
(its size) / (the size of the union), whoever is in it. The count process is therefore a Markov
chain with exactly the transition probabilities written in the step functions below, and the
probability that a uniform hanging over the ``h + w`` living players takes the seer, a checked human,
an unchecked human or a wolf is ``1, c, h - 1 - c, w`` over ``h + w``.

Model 3, random play with a hamster (``town_win_random_hamster``)
-----------------------------------------------------------------
Model 1 with one of the humans a hamster, whom the wolves cannot kill: the night's attack is uniform
over the living humans, hamster included, and an attack on the hamster kills nobody; the day's
hanging is uniform over all living players. It is exact for the simulator when hanging is uniform,
which the tie rule decides on the day after the hamster was attacked: he is the day's reference
seat, alive (`rules.tie_reference`; with "random" that day's ties are broken at random, so every
living player is as likely to be hanged). Its states are (villagers, hamster alive, wolves) at the
start of a night or a day; the same exchangeability argument holds with the hamster as a category
of his own.

Game length
-----------
``length_distribution_*`` return ``{(winner, days): probability}``, where ``winner`` is
``HUMANS_WIN`` (``"human"``) or ``WOLVES_WIN`` (``"wolf"``), the names of the two teams, and ``days`` is the
number of the day on which the game ended, **counting a game that ends during night k as length k**
(night k precedes day k). A game that ends on night 1 has length 1, so does a game that ends on day 1;
a game decided before night 1 (no wolves, or humans <= wolves from the deal) has length 0.

Cost and limits
---------------
The random model has O(h * w) states, the seer-led one O(h^2 * w); every value is an exact
``Fraction`` (denominators grow quickly, so tens of players is the intended range). For large
inputs the public functions fill the cache bottom-up first so that recursion stays shallow.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

__all__ = [
    "HUMANS_WIN",
    "WOLVES_WIN",
    "town_win_random",
    "town_win_random_float",
    "length_distribution_random",
    "town_win_seer_led",
    "town_win_seer_led_float",
    "length_distribution_seer_led",
    "town_win_random_hamster",
]

HUMANS_WIN = "human"
WOLVES_WIN = "wolf"

# States of the chain (plain tuples, so that they can be cached):
#   ("random_night", h, w)               start of a night, model 1 (or seer dead)
#   ("random_day", h, w)                 start of a day, after the night kill and its parity check
#   ("seer_night", h, w, c)              start of a night, seer alive, c checked living humans
#   ("seer_day", h, w, c, found)         start of a day, seer alive; found = he holds a wolf to name
# h always counts every living non-wolf (the seer included while he lives).
_R_NIGHT, _R_DAY, _S_NIGHT, _S_DAY = "random_night", "random_day", "seer_night", "seer_day"
_NIGHTS = (_R_NIGHT, _S_NIGHT)

_BOTTOM_UP_ABOVE = 120  # players; above this the cache is filled bottom-up before the query


def _after_death(h: int, w: int, if_going_on):
    """Victory check after a death: no wolves -> humans; humans <= wolves -> wolves; else go on."""
    if w == 0:
        return HUMANS_WIN
    if h <= w:
        return WOLVES_WIN
    return if_going_on


# --- model 1: random play -----------------------------------------------------------------------

def _random_night_step(h: int, w: int):
    """Night, random play, from ``h > w >= 1``.

    The wolves kill one of the ``h`` living humans; whoever it is, a human dies (certainly,
    probability 1), leaving ``h - 1`` humans and ``w`` wolves. The wolves are all alive, so the
    victory check is parity only: if ``h - 1 <= w`` the wolves win during this night; otherwise
    the day begins with ``(h - 1, w)``.
    """
    return ((Fraction(1), _after_death(h - 1, w, (_R_DAY, h - 1, w))),)


def _random_day_step(h: int, w: int):
    """Day, random play, from ``h > w >= 1`` (the night's parity check already passed).

    One of the ``h + w`` living players is hanged, each with probability ``1 / (h + w)``:

    * a wolf, with probability ``w / (h + w)``: ``w - 1`` wolves remain. If that was the last wolf
      the humans win today; otherwise ``h > w > w - 1`` so parity cannot hold, and night begins
      with ``(h, w - 1)``.
    * a human, with probability ``h / (h + w)``: ``h - 1`` humans remain; if ``h - 1 <= w`` the
      wolves win today, otherwise night begins with ``(h - 1, w)``.
    """
    n = h + w
    return (
        (Fraction(w, n), _after_death(h, w - 1, (_R_NIGHT, h, w - 1))),
        (Fraction(h, n), _after_death(h - 1, w, (_R_NIGHT, h - 1, w))),
    )


# --- model 2: seer-led play ---------------------------------------------------------------------

def _seer_night_step(h: int, w: int, c: int):
    """Night, seer alive, from ``h > w >= 1`` with ``0 <= c <= h - 1`` checked living humans.

    First the seer checks. He may check the ``u = h - 1 - c`` unchecked non-seer humans and the
    ``w`` wolves (no living wolf is checked yet, see the module docstring), so ``u + w >= 1``
    players and a check always happens:

    * he finds a wolf with probability ``w / (u + w)``; the checked count stays ``c1 = c`` and he
      holds a wolf to name (``found``);
    * he finds a human with probability ``u / (u + w)``; the checked count becomes ``c1 = c + 1``.

    Then the wolves kill one of the ``h`` living humans uniformly (the check changes nothing for
    them), given the check's outcome:

    * the seer, with probability ``1 / h``: his knowledge dies with him (a found wolf is never named).
      Parity check on ``(h - 1, w)``; if the game goes on, the day is a random-play day from
      ``(h - 1, w)`` and the rest of the game is model 1.
    * a checked human, with probability ``c1 / h``: ``(h - 1, w)`` with ``c1 - 1`` checked;
    * an unchecked human, with probability ``(h - 1 - c1) / h``: ``(h - 1, w)`` with ``c1`` checked.

    In the last two cases the parity check ``h - 1 <= w`` may end the game during this night (a
    found wolf is then never named); otherwise the seer-led day begins, carrying ``found``.
    The probabilities of the six branches are the products of the check and kill probabilities.
    """
    u = h - 1 - c
    checks = []
    if w:
        checks.append((Fraction(w, u + w), c, True))
    if u:
        checks.append((Fraction(u, u + w), c + 1, False))
    out = []
    for p_check, c1, found in checks:
        out.append((p_check * Fraction(1, h), _after_death(h - 1, w, (_R_DAY, h - 1, w))))
        if c1:
            out.append((p_check * Fraction(c1, h),
                        _after_death(h - 1, w, (_S_DAY, h - 1, w, c1 - 1, found))))
        if h - 1 - c1:
            out.append((p_check * Fraction(h - 1 - c1, h),
                        _after_death(h - 1, w, (_S_DAY, h - 1, w, c1, found))))
    return tuple(out)


def _seer_day_step(h: int, w: int, c: int, found: bool):
    """Day, seer alive, from ``h > w >= 1`` (the night's parity check passed), ``c`` checked humans.

    * If the seer found a wolf last night (``found``), he names it, all ``h`` humans vote for it
      and, since ``h > w``, it is hanged with probability 1: ``w - 1`` wolves remain. If it was the
      last, the humans win today; otherwise ``h > w - 1`` and the next night starts at
      ``(h, w - 1, c)``: the seer lives, his cleared humans are untouched, and the remaining wolves
      are unchecked.
    * Otherwise voting is random, uniform over the ``h + w`` living players, split by category
      (exchangeability, see the module docstring):

      - a wolf, ``w / (h + w)``: humans win if it was the last, else night ``(h, w - 1, c)``;
      - the seer, ``1 / (h + w)``: parity check on ``(h - 1, w)``, then model 1 from night
        ``(h - 1, w)``;
      - a checked human, ``c / (h + w)``: parity check, then night ``(h - 1, w, c - 1)``;
      - an unchecked human, ``(h - 1 - c) / (h + w)``: parity check, then night ``(h - 1, w, c)``.
    """
    wolf_hanged = _after_death(h, w - 1, (_S_NIGHT, h, w - 1, c))
    if found:
        return ((Fraction(1), wolf_hanged),)
    n = h + w
    out = [
        (Fraction(w, n), wolf_hanged),
        (Fraction(1, n), _after_death(h - 1, w, (_R_NIGHT, h - 1, w))),
    ]
    if c:
        out.append((Fraction(c, n), _after_death(h - 1, w, (_S_NIGHT, h - 1, w, c - 1))))
    if h - 1 - c:
        out.append((Fraction(h - 1 - c, n), _after_death(h - 1, w, (_S_NIGHT, h - 1, w, c))))
    return tuple(out)


# --- the chain ----------------------------------------------------------------------------------

@lru_cache(maxsize=None)
def _step(state):
    """The transitions out of ``state``: a tuple of ``(probability, next)``, where ``next`` is a
    winner (``HUMANS_WIN`` / ``WOLVES_WIN``) or another state. The probabilities sum to 1."""
    kind, *args = state
    if kind == _R_NIGHT:
        return _random_night_step(*args)
    if kind == _R_DAY:
        return _random_day_step(*args)
    if kind == _S_NIGHT:
        return _seer_night_step(*args)
    return _seer_day_step(*args)


@lru_cache(maxsize=None)
def _town(state) -> Fraction:
    """Probability that the humans win from ``state``: first-step analysis,
    ``P(state) = sum_over_branches p * (1 if humans won, 0 if wolves won, else P(next))``.
    Every step removes one living player, so the recursion ends."""
    total = Fraction(0)
    for p, nxt in _step(state):
        if nxt == HUMANS_WIN:
            total += p
        elif nxt != WOLVES_WIN:
            total += p * _town(nxt)
    return total


@lru_cache(maxsize=None)
def _lengths(state):
    """Distribution of ``(winner, day number)`` from ``state``, with days counted from the round of
    ``state`` (its night or day) as 1: a branch that ends in this round has length 1; a night's
    continuation is this round's day (same count); a day's continuation is the next night, so its
    lengths shift by one. Returned as a sorted tuple of ``((winner, days), probability)``."""
    is_day = state[0] not in _NIGHTS
    dist: dict[tuple[str, int], Fraction] = {}
    for p, nxt in _step(state):
        if nxt in (HUMANS_WIN, WOLVES_WIN):
            key = (nxt, 1)
            dist[key] = dist.get(key, Fraction(0)) + p
            continue
        for (winner, days), q in _lengths(nxt):
            key = (winner, days + 1 if is_day else days)
            dist[key] = dist.get(key, Fraction(0)) + p * q
    return tuple(sorted(dist.items()))


# --- public API ---------------------------------------------------------------------------------

def _check_counts(humans: int, wolves: int, need_a_human: bool) -> None:
    for name, value in (("humans", humans), ("wolves", wolves)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{name} must be a non-negative int, got {value!r}")
    if need_a_human and humans < 1:
        raise ValueError("seer-led play needs at least one human (the seer)")
    if humans + wolves == 0:
        raise ValueError("a game needs at least one player")


def _start(humans: int, wolves: int, seer: bool):
    """The state at the start of night 1, or the winner if the deal already decides the game."""
    decided = _after_death(humans, wolves, None)
    if decided is not None:
        return decided
    return (_S_NIGHT, humans, wolves, 0) if seer else (_R_NIGHT, humans, wolves)


def _fill_bottom_up(evaluate, humans: int, wolves: int, seer: bool) -> None:
    """Evaluate (``_town`` or ``_lengths``) every smaller night state first, so that a large query
    recurses only a few levels (each night state only leads to night states with fewer players)."""
    if humans + wolves <= _BOTTOM_UP_ABOVE:
        return
    for h in range(2, humans + 1):
        for w in range(1, min(wolves, h - 1) + 1):
            evaluate((_R_NIGHT, h, w))
            if seer:
                for c in range(0, h):
                    evaluate((_S_NIGHT, h, w, c))


def town_win_random(humans: int, wolves: int) -> Fraction:
    """Exact probability that the humans win under random play (model 1), at the start of night 1.

    ``humans`` counts every non-wolf (villagers and seer alike; the seer's power is unused here).
    With no wolves the humans have won (1); with ``humans <= wolves`` the wolves have (0).
    """
    _check_counts(humans, wolves, need_a_human=False)
    start = _start(humans, wolves, seer=False)
    if start in (HUMANS_WIN, WOLVES_WIN):
        return Fraction(int(start == HUMANS_WIN))
    _fill_bottom_up(_town, humans, wolves, seer=False)
    return _town(start)


def town_win_random_float(humans: int, wolves: int) -> float:
    """``town_win_random`` as a float."""
    return float(town_win_random(humans, wolves))


def length_distribution_random(humans: int, wolves: int) -> dict[tuple[str, int], Fraction]:
    """Exact distribution of ``(winner, days)`` under random play, from the start of night 1.

    ``winner`` is ``HUMANS_WIN`` or ``WOLVES_WIN``; ``days`` is the number of the day on which the
    game ended, a game ending during night k counting as k (night k precedes day k); a deal that is
    already decided has length 0. The probabilities sum to 1, and those with ``HUMANS_WIN`` sum to
    ``town_win_random(humans, wolves)``.
    """
    _check_counts(humans, wolves, need_a_human=False)
    start = _start(humans, wolves, seer=False)
    if start in (HUMANS_WIN, WOLVES_WIN):
        return {(start, 0): Fraction(1)}
    _fill_bottom_up(_lengths, humans, wolves, seer=False)
    return dict(_lengths(start))


def town_win_seer_led(humans: int, wolves: int) -> Fraction:
    """Exact probability that the humans win under seer-led play (model 2), at the start of night 1.

    ``humans`` counts every non-wolf and includes the seer, who is alive and has checked nobody
    (state ``(humans, wolves, seer alive, c = 0)``). With no wolves the humans have won (1); with
    ``humans <= wolves`` the wolves have (0).
    """
    _check_counts(humans, wolves, need_a_human=True)
    start = _start(humans, wolves, seer=True)
    if start in (HUMANS_WIN, WOLVES_WIN):
        return Fraction(int(start == HUMANS_WIN))
    _fill_bottom_up(_town, humans, wolves, seer=True)
    return _town(start)


def town_win_seer_led_float(humans: int, wolves: int) -> float:
    """``town_win_seer_led`` as a float."""
    return float(town_win_seer_led(humans, wolves))


def length_distribution_seer_led(humans: int, wolves: int) -> dict[tuple[str, int], Fraction]:
    """Exact distribution of ``(winner, days)`` under seer-led play, from the start of night 1,
    with the same conventions as ``length_distribution_random``."""
    _check_counts(humans, wolves, need_a_human=True)
    start = _start(humans, wolves, seer=True)
    if start in (HUMANS_WIN, WOLVES_WIN):
        return {(start, 0): Fraction(1)}
    _fill_bottom_up(_lengths, humans, wolves, seer=True)
    return dict(_lengths(start))


# --- model 3: random play with a hamster --------------------------------------------------------

def _hamster_after(v: int, k: int, w: int, going_on):
    """Victory check with v villagers and k (0 or 1) hamster: the hamster counts as a human."""
    return _after_death(v + k, w, going_on)


@lru_cache(maxsize=None)
def _hamster_town(state) -> Fraction:
    if state == HUMANS_WIN:
        return Fraction(1)
    if state == WOLVES_WIN:
        return Fraction(0)
    phase, v, k, w = state
    if phase == "night":
        # the attack is uniform over the v + k living humans; on the hamster nobody dies
        total = v + k
        value = Fraction(k, total) * _hamster_town(("day", v, k, w))
        if v:
            value += Fraction(v, total) * _hamster_town(
                _hamster_after(v - 1, k, w, ("day", v - 1, k, w)))
        return value
    # the hanging is uniform over the v + k + w living players
    total = v + k + w
    value = Fraction(w, total) * _hamster_town(_hamster_after(v, k, w - 1, ("night", v, k, w - 1)))
    if v:
        value += Fraction(v, total) * _hamster_town(
            _hamster_after(v - 1, k, w, ("night", v - 1, k, w)))
    if k:
        value += Fraction(k, total) * _hamster_town(_hamster_after(v, 0, w, ("night", v, 0, w)))
    return value


def town_win_random_hamster(villagers: int, wolves: int) -> Fraction:
    """Exact probability that the humans win under random play with a hamster (model 3), from
    the start of night 1: ``villagers`` humans besides the hamster, ``wolves`` werewolves."""
    _check_counts(villagers + 1, wolves, need_a_human=False)
    return _hamster_town(_hamster_after(villagers, 1, wolves, ("night", villagers, 1, wolves)))
