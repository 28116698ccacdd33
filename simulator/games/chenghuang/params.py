"""Chenghuang parameters: a frozen dataclass and the validation of a raw TOML dict.

Config layout (every key optional except ``players``; docs/rules/chenghuang.md explains each)::

    game = "chenghuang"
    players = 5                       # 3..6
    [rules]
    rounds = 4                        # 1..16 (the Overseers edition plays 3)
    roles = "basic"                   # "basic" (5 roles), "advanced" (all 9) or a list of names
    fan = "minus-one"                 # 范將軍: "minus-one" (-1 per card) or "steal-four"
    [deck]                            # cards per kind; missing kinds: the official table
    killing = 4
    benevolence = 6
    treachery = 6
    loyalty = 6
    filial = 4
    theft = 4
    [scoring]                         # an integer: points per card; a list: points for 1, 2, ...
    killing = 6                       #   cards of a set kind (more cards than listed add nothing)
    benevolence = 4
    treachery = 3
    loyalty = [2, 10, 18]
    filial = [0, 6, 21]
    theft = 2
    judge = 5                         # 武判: points per card of the named kind
    implements = 3                    # 刑具爺: bonus
    ox_head = 2                       # 牛頭: factor on 殺生 points
    xie = 1                           # 謝將軍: bonus per 忠信 / 孝行 card
    fan = 1                           # 范將軍: points per card (minus-one) or stolen (steal: 4)

``load_params(raw, ctx)`` reports the first bad key through ``ctx.error(key, message)``, which
raises the platform's ConfigError naming the file, the key and what is allowed. ``build_setup``
turns the params into the arrays one kernel call needs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .kernel import Setup
from .rules import derive_scoring
from .declaration import (
    ADVANCED_POOL, BASIC_POOL, FAN_MINUS_ONE, FAN_STEAL, FAN_VARIANTS, HAND, KIND_LABELS, KINDS,
    MAX_PLAYERS, MAX_ROUNDS, MIN_PLAYERS, OFFICIAL_DECK, PRINTED_TOTAL, ROLES, SET_LEN,
    T_EACH, T_FAN_AMOUNT, T_FAN_MODE, T_IMPLEMENTS, T_JUDGE, T_OX, T_SET, T_XIE, TABLE_SIZE,
)

# The keys this game reads. The platform's own keys (game, extends, strategies, ...) are read and
# removed by simulator.config before `load_params` sees the dict; `players` comes validated.
GAME_KEYS = ("players", "rules", "deck", "scoring")
RULE_KEYS = ("rounds", "roles", "fan")
POOL_NAMES = ("basic", "advanced")

# The printed scoring table: an int is points per card, a tuple the points for 1, 2, 3 ... cards.
OFFICIAL_POINTS = {
    "killing": 6,
    "benevolence": 4,
    "treachery": 3,
    "loyalty": (2, 10, 18),
    "filial": (0, 6, 21),
    "theft": 2,
}
ABILITY_POINTS = {"judge": 5, "implements": 3, "ox_head": 2, "xie": 1}
FAN_DEFAULT_AMOUNT = {"minus-one": 1, "steal-four": 4}
SCORING_KEYS = tuple(KINDS) + tuple(ABILITY_POINTS) + ("fan",)


@dataclass(frozen=True)
class ChenghuangParams:
    players: int
    rounds: int = 4
    deck: tuple[int, ...] = OFFICIAL_DECK[5]          # cards per kind, in KINDS order
    role_pool: tuple[int, ...] = BASIC_POOL             # role codes dealt from each round
    fan_variant: str = "minus-one"
    points: tuple = tuple(OFFICIAL_POINTS[k] for k in KINDS)  # int (per card) or tuple (set)
    judge: int = 5
    implements: int = 3
    ox_head: int = 2
    xie: int = 1
    fan_amount: int = 1
    pool_name: str = "basic"                          # "basic", "advanced" or "custom"
    deck_is_official: bool = True

    @property
    def deck_size(self) -> int:
        return sum(self.deck)

    def table(self) -> np.ndarray:
        """The flat scoring table the kernel and the strategies read (layout: T_* constants)."""
        return scoring_table(self.points, self.judge, self.implements, self.ox_head, self.xie,
                             self.fan_variant, self.fan_amount)

    def role_names(self) -> list[str]:
        return [ROLES[r].name for r in self.role_pool]


def scoring_table(points, judge=5, implements=3, ox_head=2, xie=1, fan_variant="minus-one",
                  fan_amount=1) -> np.ndarray:
    table = np.zeros(TABLE_SIZE, dtype=np.int64)
    for kind, value in enumerate(points):
        if isinstance(value, tuple):
            row = [0] + list(value)
            row += [row[-1]] * (SET_LEN - len(row))
            table[T_SET + kind * SET_LEN:T_SET + (kind + 1) * SET_LEN] = row
        else:
            table[T_EACH + kind] = value
    table[T_JUDGE] = judge
    table[T_IMPLEMENTS] = implements
    table[T_OX] = ox_head
    table[T_XIE] = xie
    table[T_FAN_MODE] = FAN_MINUS_ONE if fan_variant == "minus-one" else FAN_STEAL
    table[T_FAN_AMOUNT] = fan_amount
    derive_scoring(table)
    return table


def role_code(name: str) -> int:
    """A role by its name ("general-liu") or its label ("柳將軍"); -1 if there is none."""
    for code, role in enumerate(ROLES):
        if name == role.name or name == role.label:
            return code
    return -1


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _table(raw, key, ctx) -> dict:
    value = raw.get(key, {})
    if not isinstance(value, dict):
        ctx.error(key, f"must be a table ([{key}]), got {value!r}")
    return value


def _unknown(table: dict, allowed, prefix: str, ctx) -> None:
    for key in table:
        if key not in allowed:
            ctx.error(f"{prefix}{key}", f"unknown key; allowed: {', '.join(allowed)}")


def load_params(raw: dict, ctx) -> ChenghuangParams:
    """Validate a raw (already merged) config dict into ChenghuangParams."""
    for key in raw:
        if key not in GAME_KEYS:
            ctx.error(key, f"unknown key; allowed: {', '.join(GAME_KEYS)} "
                           f"(and the platform's game, extends, strategies, description)")

    players = raw.get("players", 5)
    if not _is_int(players) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        ctx.error("players", f"must be an integer from {MIN_PLAYERS} to {MAX_PLAYERS}, "
                             f"got {players!r}")

    # [rules]
    rules = _table(raw, "rules", ctx)
    _unknown(rules, RULE_KEYS, "rules.", ctx)
    rounds = rules.get("rounds", 4)
    if not _is_int(rounds) or not 1 <= rounds <= MAX_ROUNDS:
        ctx.error("rules.rounds", f"must be an integer from 1 to {MAX_ROUNDS}, got {rounds!r}")
    fan_variant = rules.get("fan", "minus-one")
    if fan_variant not in FAN_VARIANTS:
        ctx.error("rules.fan", f"must be one of {', '.join(FAN_VARIANTS)}, got {fan_variant!r}")
    pool_raw = rules.get("roles", "advanced" if players == MAX_PLAYERS else "basic")
    allowed_roles = ", ".join(role.name for role in ROLES)
    if isinstance(pool_raw, str):
        if pool_raw not in POOL_NAMES:
            ctx.error("rules.roles", f"must be \"basic\", \"advanced\" or a list of role names "
                                     f"({allowed_roles}), got {pool_raw!r}")
        pool = BASIC_POOL if pool_raw == "basic" else ADVANCED_POOL
        pool_name = pool_raw
    elif isinstance(pool_raw, list):
        codes = []
        for name in pool_raw:
            code = role_code(name) if isinstance(name, str) else -1
            if code < 0:
                ctx.error("rules.roles", f"unknown role {name!r}; allowed: {allowed_roles}")
            if code in codes:
                ctx.error("rules.roles",
                          f"role {name!r} is listed twice; each role card exists once")
            codes.append(code)
        pool = tuple(codes)
        pool_name = ("basic" if sorted(pool) == list(BASIC_POOL) else
                     "advanced" if sorted(pool) == list(ADVANCED_POOL) else "custom")
    else:
        ctx.error("rules.roles", f"must be \"basic\", \"advanced\" or a list of role names, "
                                 f"got {pool_raw!r}")
    if len(pool) < players:
        hint = (" (the basic pool plays 3-5; 6 players need roles = \"advanced\")"
                if pool_name == "basic" else "")
        ctx.error("rules.roles", f"the role pool has {len(pool)} roles but {players} players each "
                                 f"need one{hint}")

    # [deck]
    deck_raw = _table(raw, "deck", ctx)
    _unknown(deck_raw, KINDS, "deck.", ctx)
    deck = list(OFFICIAL_DECK[players])
    for kind, name in enumerate(KINDS):
        if name in deck_raw:
            count = deck_raw[name]
            if not _is_int(count) or count < 0:
                ctx.error(f"deck.{name}", f"must be a non-negative integer (cards of "
                                          f"{KIND_LABELS[kind]}), got {count!r}")
            deck[kind] = count
    if sum(deck) < HAND * players:
        ctx.error("deck", f"{sum(deck)} cards cannot deal {HAND} to each of {players} players; "
                          f"the deck needs at least {HAND * players}")

    # [scoring]
    scoring = _table(raw, "scoring", ctx)
    _unknown(scoring, SCORING_KEYS, "scoring.", ctx)
    points = []
    for kind, name in enumerate(KINDS):
        value = scoring.get(name, OFFICIAL_POINTS[name])
        if isinstance(value, (list, tuple)):
            if not 1 <= len(value) <= SET_LEN - 1 or not all(_is_int(v) for v in value):
                ctx.error(f"scoring.{name}", f"a set table must list 1 to {SET_LEN - 1} integers "
                                             f"(points for 1, 2, ... cards), got {value!r}")
            points.append(tuple(value))
        elif _is_int(value):
            points.append(value)
        else:
            ctx.error(f"scoring.{name}", f"must be an integer (points per card) or a list of "
                                         f"integers (points for 1, 2, ... cards), got {value!r}")
    ability = {}
    for name, default in ABILITY_POINTS.items():
        value = scoring.get(name, default)
        if not _is_int(value) or value < 0:
            ctx.error(f"scoring.{name}", f"must be a non-negative integer, got {value!r}")
        ability[name] = value
    fan_amount = scoring.get("fan", FAN_DEFAULT_AMOUNT[fan_variant])
    if not _is_int(fan_amount) or fan_amount < 0:
        ctx.error("scoring.fan", f"must be a non-negative integer, got {fan_amount!r}")

    return ChenghuangParams(
        players=players, rounds=rounds, deck=tuple(deck), role_pool=tuple(pool),
        fan_variant=fan_variant, points=tuple(points), fan_amount=fan_amount,
        pool_name=pool_name, deck_is_official=tuple(deck) == OFFICIAL_DECK[players], **ability,
    )


def describe_setup(params: ChenghuangParams) -> dict:
    """Notes a report prints about a setup: the deck, the role pool, and known inconsistencies."""
    notes = {}
    n = params.players
    dealt = HAND * n
    deck_line = ", ".join(f"{KIND_LABELS[k]} {c}" for k, c in enumerate(params.deck))
    notes["deck"] = (f"{params.deck_size} cards ({deck_line}); {dealt} are dealt each round"
                     + (f", {params.deck_size - dealt} set aside unseen"
                        if params.deck_size > dealt else ", all of them"))
    if n == 5:
        notes["five_player_deck"] = (
            "The rules print a 5-player total of 32 cards, but the per-kind counts add up to 30. "
            "The per-kind counts are authoritative: "
            + ("this setup uses them (30 cards, all dealt)." if params.deck_is_official else
               f"this setup overrides them ({params.deck_size} cards).")
            + " Add cards in [deck] to test the other reading.")
    elif params.deck_is_official and sum(params.deck) != PRINTED_TOTAL[n]:
        notes["deck_total"] = f"the printed total for {n} players is {PRINTED_TOTAL[n]}"
    notes["roles"] = (f"{params.pool_name} pool: "
                      + ", ".join(f"{ROLES[r].label} {ROLES[r].name}" for r in params.role_pool))
    if len(params.role_pool) > n:
        notes["roles"] += f"; {len(params.role_pool) - n} role(s) left out each round"
    notes["rounds"] = f"{params.rounds} rounds" + (" (the Overseers edition)" if params.rounds == 3
                                                   else "")
    notes["fan"] = ("范將軍: each card of the chosen player scores "
                    f"{params.fan_amount} less" if params.fan_variant == "minus-one" else
                    f"范將軍: steals {params.fan_amount} points from the chosen player's round")
    return notes


def build_setup(params: ChenghuangParams) -> Setup:
    """The arrays one kernel call needs: the deck (one kind code per card), the role pool, the
    scoring table, the deck counts and the number of rounds."""
    deck = np.repeat(np.arange(len(params.deck), dtype=np.int64),
                     np.asarray(params.deck, dtype=np.int64))
    return Setup(
        deck=deck,
        pool=np.asarray(params.role_pool, dtype=np.int64),
        table=params.table(),
        deck_counts=np.asarray(params.deck, dtype=np.int64),
        rounds=int(params.rounds),
    )
