"""Chenghuang parameters: the config schema, the validated params, and the setup they give.

The keys (besides the platform's `game`, `players`, `strategies`, ...) are declared once in `KEYS`;
validation (simulator.schema), `fairplay games chenghuang` and docs/rules/chenghuang.md read that
declaration. A config's layout (docs/rules/chenghuang.md explains each key)::

    game = "chenghuang"
    players = 5                       # 3..6
    [rules]
    rounds = 4                        # 1..16 (the Overseers edition plays 3)
    roles = "basic"                   # "basic" (5 roles), "advanced" (all 9) or a list of names
    fan = "minus-one"                 # 范將軍: "minus-one" (-1 per card) or "steal-four"
    s_abilities = "always"            # 牛頭 / 謝將軍: "always" or "showdown-only"
    [deck]                            # cards per kind; missing kinds: the official table
    killing = 4
    ...
    [scoring]                         # an integer: points per card; a list: points for 1, 2, ...
    killing = 6                       #   cards of a set kind (more cards than listed add nothing)
    loyalty = [2, 10, 18]
    ...
    judge = 5                         # 武判: points per card of the named kind
    implements = 3                    # 刑具爺: bonus
    ox_head = 2                       # 牛頭: factor on 殺生 points
    xie = 1                           # 謝將軍: bonus per 忠信 / 孝行 card
    fan = 1                           # 范將軍: points per card (minus-one) or stolen (steal: 4)

`load_params(values, ctx)` receives every key validated (defaults filled in) and checks only what
involves several keys at once, reporting through `ctx.error(key, message)`; `setup(params, st)`
writes the setup into a fresh state.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simulator.games.base import knobs_record
from simulator.schema import Choice, Integer, Invalid, Key

from .declaration import (
    ADVANCED_POOL, BASIC_POOL, FAN_MODE, FAN_VARIANTS, HAND, KIND_LABELS, KINDS, MAX_DECK,
    MAX_PLAYERS, MAX_ROUNDS, N_ACTIONS, N_KINDS, OFFICIAL_DECK, POOL_NAMES, PRINTED_TOTAL, ROLES,
    S_ABILITIES, S_MODE, SET_LEN, T, TABLE,
)
from .observation import init_observation
from .rules import derive_scoring

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


def scoring_table(points, judge=5, implements=3, ox_head=2, xie=1, fan_variant="minus-one",
                  fan_amount=1, s_abilities="always") -> np.ndarray:
    table = np.zeros(TABLE.size, dtype=np.int64)
    for kind, value in enumerate(points):
        if isinstance(value, tuple):
            row = [0] + list(value)
            row += [row[-1]] * (SET_LEN - len(row))
            table[T.set + kind * SET_LEN:T.set + (kind + 1) * SET_LEN] = row
        else:
            table[T.each + kind] = value
    table[T.judge] = judge
    table[T.implements] = implements
    table[T.ox] = ox_head
    table[T.xie] = xie
    table[T.fan_mode] = FAN_MODE.minus_one if fan_variant == "minus-one" else FAN_MODE.steal_four
    table[T.fan_amount] = fan_amount
    table[T.s_mode] = S_MODE.always if s_abilities == "always" else S_MODE.showdown_only
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


# --- the game's own value types (simulator.schema's protocol: check, describe) ------------------
class RolePool:
    """The role pool: "basic", "advanced", or a list of role names (or labels), each once.
    A list is checked to role codes."""

    def check(self, value):
        allowed = ", ".join(role.name for role in ROLES)
        if isinstance(value, str):
            if value not in POOL_NAMES:
                raise Invalid(f"must be \"basic\", \"advanced\" or a list of role names "
                              f"({allowed}), got {value!r}")
            return value
        if not isinstance(value, list):
            raise Invalid(f"must be \"basic\", \"advanced\" or a list of role names, "
                          f"got {value!r}")
        codes = []
        for name in value:
            code = role_code(name) if isinstance(name, str) else -1
            if code < 0:
                raise Invalid(f"unknown role {name!r}; allowed: {allowed}")
            if code in codes:
                raise Invalid(f"role {name!r} is listed twice; each role card exists once")
            codes.append(code)
        return tuple(codes)

    def describe(self) -> str:
        return "\"basic\", \"advanced\" or a list of role names"


class Points:
    """A kind's printed points: an integer (points per card) or a list of 1 to SET_LEN - 1
    integers (points for 1, 2, ... cards of a set kind)."""

    def check(self, value):
        if isinstance(value, (list, tuple)):
            if not 1 <= len(value) <= SET_LEN - 1 or not all(_is_int(v) for v in value):
                raise Invalid(f"a set table must list 1 to {SET_LEN - 1} integers (points for "
                              f"1, 2, ... cards), got {value!r}")
            return tuple(value)
        if _is_int(value):
            return value
        raise Invalid(f"must be an integer (points per card) or a list of integers (points for "
                      f"1, 2, ... cards), got {value!r}")

    def describe(self) -> str:
        return (f"integer (points per card) or a list of 1 to {SET_LEN - 1} integers (points for "
                f"1, 2, ... cards)")


def _official_count(kind):
    return lambda players: OFFICIAL_DECK[players][kind]


def _official_column(kind) -> str:
    counts = sorted({(deck[kind], players) for players, deck in OFFICIAL_DECK.items()},
                    key=lambda pair: pair[1])
    by_count: dict[int, list[int]] = {}
    for count, players in counts:
        by_count.setdefault(count, []).append(players)
    return "the official table: " + ", ".join(
        f"{count} ({'/'.join(map(str, players))} players)" for count, players in by_count.items())


KEYS = (
    Key("rules.rounds", Integer(1, MAX_ROUNDS), 4,
        "rounds in a game; the highest total after the last round wins (the Overseers edition "
        "plays 3)", state=True),
    Key("rules.roles", RolePool(),
        lambda players: "advanced" if players == MAX_PLAYERS else "basic",
        "the role pool dealt from each round: \"basic\" (the 5 starred roles), \"advanced\" (all "
        "9) or a list of role names (or their labels)",
        default_text=f"\"basic\"; \"advanced\" with {MAX_PLAYERS} players"),
    Key("rules.fan", Choice(FAN_VARIANTS), "minus-one",
        "范將軍: \"minus-one\" (each card of the target scores less) or \"steal-four\" (points "
        "moved from the target's round)"),
    Key("rules.s_abilities", Choice(S_ABILITIES), "always",
        "when 牛頭's and 謝將軍's abilities (S: \"at the showdown\") count: \"always\" (in every "
        "round's score) or \"showdown-only\" (not in a round whose accused admitted and so "
        "skipped the showdown)", provisional=True),
) + tuple(
    Key(f"deck.{name}", Integer(0, MAX_DECK), _official_count(kind),
        f"cards of {KIND_LABELS[kind]} in the deck", default_text=_official_column(kind))
    for kind, name in enumerate(KINDS)
) + tuple(
    Key(f"scoring.{name}", Points(), OFFICIAL_POINTS[name],
        f"points of {KIND_LABELS[kind]}: per card, or a list for 1, 2, ... cards (more cards than "
        f"listed add nothing)")
    for kind, name in enumerate(KINDS)
) + (
    # the role abilities' points: the knobs that move the roles' win rates
    Key("scoring.judge", Integer(0), ABILITY_POINTS["judge"],
        "武判: points per card of the named kind", balance_knob=True),
    Key("scoring.implements", Integer(0), ABILITY_POINTS["implements"], "刑具爺: bonus this round",
        balance_knob=True),
    Key("scoring.ox_head", Integer(0), ABILITY_POINTS["ox_head"], "牛頭: factor on 殺生 points",
        balance_knob=True),
    Key("scoring.xie", Integer(0), ABILITY_POINTS["xie"], "謝將軍: bonus per 忠信 and per 孝行 card",
        balance_knob=True),
    Key("scoring.fan", Integer(0), None,
        "范將軍: points off per card (minus-one) or points stolen (steal-four)",
        default_text=", ".join(f"{amount} with {variant}"
                               for variant, amount in FAN_DEFAULT_AMOUNT.items()),
        balance_knob=True),
)

# The knobs declared `state=True`, as the params carry them (the engine writes them into the state).
Knobs = knobs_record(KEYS, __name__)


@dataclass(frozen=True)
class ChenghuangParams:
    players: int
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
    s_abilities: str = "always"                       # S_ABILITIES
    knobs: Knobs = Knobs()

    @property
    def deck_size(self) -> int:
        return sum(self.deck)

    def table(self) -> np.ndarray:
        """The flat scoring table the kernel and the strategies read (layout: declaration.TABLE)."""
        return scoring_table(self.points, self.judge, self.implements, self.ox_head, self.xie,
                             self.fan_variant, self.fan_amount, self.s_abilities)

    def role_names(self) -> list[str]:
        return [ROLES[r].name for r in self.role_pool]


def load_params(values: dict, ctx) -> ChenghuangParams:
    """The params of validated config values; checks what involves several keys."""
    players = values["players"]
    pool = values["rules.roles"]
    if isinstance(pool, str):
        pool_name = pool
        pool = BASIC_POOL if pool == "basic" else ADVANCED_POOL
    else:
        pool_name = ("basic" if sorted(pool) == list(BASIC_POOL) else
                     "advanced" if sorted(pool) == list(ADVANCED_POOL) else "custom")
    if len(pool) < players:
        hint = (" (the basic pool plays 3-5; 6 players need roles = \"advanced\")"
                if pool_name == "basic" else "")
        ctx.error("rules.roles", f"the role pool has {len(pool)} roles but {players} players each "
                                 f"need one{hint}")

    deck = tuple(values[f"deck.{name}"] for name in KINDS)
    if sum(deck) < HAND * players:
        ctx.error("deck", f"{sum(deck)} cards cannot deal {HAND} to each of {players} players; "
                          f"the deck needs at least {HAND * players}")
    if sum(deck) > MAX_DECK:
        ctx.error("deck", f"{sum(deck)} cards: a deck holds at most {MAX_DECK}")

    fan_variant = values["rules.fan"]
    fan_amount = values["scoring.fan"]
    if fan_amount is None:
        fan_amount = FAN_DEFAULT_AMOUNT[fan_variant]

    return ChenghuangParams(
        players=players, deck=deck, role_pool=tuple(pool),
        fan_variant=fan_variant, points=tuple(values[f"scoring.{name}"] for name in KINDS),
        judge=values["scoring.judge"], implements=values["scoring.implements"],
        ox_head=values["scoring.ox_head"], xie=values["scoring.xie"], fan_amount=fan_amount,
        pool_name=pool_name, deck_is_official=deck == OFFICIAL_DECK[players],
        s_abilities=values["rules.s_abilities"], knobs=Knobs.read(values),
    )


def setup(params: ChenghuangParams, st) -> None:
    """The setup in a fresh state: the deck (one kind code per card), the role pool, the scoring
    table, the deck counts, and the run's constants in the observation."""
    deck = np.repeat(np.arange(N_KINDS, dtype=np.int64), np.asarray(params.deck, dtype=np.int64))
    if deck.size > MAX_DECK:
        raise ValueError(f"a deck of {deck.size} cards: the state holds at most {MAX_DECK}")
    st.deck[:deck.size] = deck
    st.deck_size = deck.size
    st.pool[:len(params.role_pool)] = params.role_pool
    st.pool_size = len(params.role_pool)
    st.table[:] = params.table()
    st.deck_counts[:] = params.deck
    init_observation(st)


def actions(params: ChenghuangParams) -> int:
    """Actions are a card kind (0..5), a face-down card of a kind (6..11) or a seat (0..5)."""
    return N_ACTIONS


def _deck_text(deck) -> str:
    return ", ".join(f"{KIND_LABELS[k]} {c}" for k, c in enumerate(deck))


def describe_setup(params: ChenghuangParams) -> dict:
    """Notes a report prints about a setup: the deck and the role pool (and whether they are the
    rules' own for the player count), known inconsistencies, the variants in play."""
    notes = {}
    n = params.players
    dealt = HAND * n
    official = OFFICIAL_DECK[n]
    notes["deck"] = (f"{params.deck_size} cards ({_deck_text(params.deck)}); {dealt} are dealt "
                     f"each round"
                     + (f", {params.deck_size - dealt} set aside unseen"
                        if params.deck_size > dealt else ", all of them")
                     + ("; the official deck for this player count" if params.deck_is_official
                        else ""))
    if not params.deck_is_official:
        changes = ", ".join(f"{KIND_LABELS[k]} {c} (official {official[k]})"
                            for k, c in enumerate(params.deck) if c != official[k])
        notes["deck_differs"] = (f"NOT the official {n}-player deck of {sum(official)} cards "
                                 f"({_deck_text(official)}): {changes}")
    if n == 5:
        notes["five_player_deck"] = (
            "The rules print a 5-player total of 32 cards, but the per-kind counts add up to 30. "
            "The per-kind counts are authoritative: "
            + ("this setup uses them (30 cards, all dealt)." if params.deck_is_official else
               f"this setup overrides them ({params.deck_size} cards).")
            + " Add cards in [deck] to test the other reading.")
    elif params.deck_is_official and sum(params.deck) != PRINTED_TOTAL[n]:
        notes["deck_total"] = f"the printed total for {n} players is {PRINTED_TOTAL[n]}"
    pool_words = {"basic": "basic pool (the 5 starred roles)",
                  "advanced": "advanced pool (all nine roles, the rules' advanced play)",
                  "custom": "custom pool"}[params.pool_name]
    notes["roles"] = (f"{pool_words}: "
                      + ", ".join(f"{ROLES[r].label} {ROLES[r].name}" for r in params.role_pool))
    if len(params.role_pool) > n:
        notes["roles"] += f"; {len(params.role_pool) - n} role(s) left out each round"
    default_pool = "advanced" if n == MAX_PLAYERS else "basic"
    if params.pool_name == "custom":
        notes["roles_differ"] = (
            f"NOT an official role pool: the rules deal the basic pool (3-5 players) or all nine "
            f"roles (advanced play, 3-6 players); the default for {n} players is the "
            f"{default_pool} pool")
    elif params.pool_name != default_pool:
        notes["roles"] += (f"; the default for {n} players is the {default_pool} pool (the "
                           f"advanced pool is the rules' advanced play)")
    rounds = params.knobs.rounds
    notes["rounds"] = f"{rounds} rounds" + (" (the Overseers edition)" if rounds == 3 else "")
    notes["fan"] = ("范將軍: each card of the chosen player scores "
                    f"{params.fan_amount} less" if params.fan_variant == "minus-one" else
                    f"范將軍: steals {params.fan_amount} points from the chosen player's round")
    notes["s_abilities"] = (
        "牛頭 and 謝將軍 count in every round's score, also when the accused admitted "
        "(rules.s_abilities = \"always\", provisional)" if params.s_abilities == "always" else
        "牛頭 and 謝將軍 count only in a round whose accused denied: an admitting accused skips "
        "the showdown (rules.s_abilities = \"showdown-only\")")
    return notes
