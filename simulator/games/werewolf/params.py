"""Werewolf parameters: a validated config as a frozen dataclass, and the kernel's setup arrays.

Config keys (besides `game`, `players`, `strategies`):

    [roles]              # how many of each role; villagers fill the remaining seats
    werewolf = "auto"    # "auto": from [wolves_by_players]; or a number
    seer = 1
    [wolves_by_players]  # head count (role players) -> werewolves, the text's thresholds
    8 = 2
    16 = 3
    20 = 4
    [rules]
    madman_literal = false   # knob of the rules note; no effect without a madman in play
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .declaration import ROLES, ROLE_TEAM, VILLAGER, WEREWOLF, WOLF
from .kernel import Setup
from .rules import wolves_for_players

DEFAULT_THRESHOLDS = ((8, 2), (16, 3), (20, 4))
TOP_KEYS = ("players", "roles", "wolves_by_players", "rules")
RULE_KEYS = ("madman_literal",)


@dataclass(frozen=True)
class WerewolfParams:
    players: int
    role_counts: tuple[int, ...]  # per role code, villagers included
    wolves_by_players: tuple[tuple[int, int], ...]
    madman_literal: bool = False

    @property
    def wolves(self) -> int:
        return sum(c for r, c in enumerate(self.role_counts) if ROLE_TEAM[r] == WOLF)


def load_params(raw: dict, ctx) -> WerewolfParams:
    ctx.only_keys(raw, TOP_KEYS)
    players = raw["players"]

    thresholds_table = ctx.table(raw, "wolves_by_players")
    thresholds = []
    for key, value in thresholds_table.items():
        try:
            at = int(key)
        except ValueError:
            ctx.error(f"wolves_by_players.{key}", "keys are head counts (role players)")
        thresholds.append((at, ctx.integer(thresholds_table, key, low=1,
                                           prefix="wolves_by_players.")))
    thresholds = tuple(sorted(thresholds)) or DEFAULT_THRESHOLDS

    roles_table = ctx.table(raw, "roles")
    names = [role.name for role in ROLES]
    counts = [0] * len(ROLES)
    for key in roles_table:
        if key not in names or key == "villager":
            allowed = ", ".join(n for n in names if n != "villager")
            ctx.error(f"roles.{key}", f"unknown role; allowed: {allowed} (villagers fill the rest)")
    wolves = roles_table.get("werewolf", "auto")
    if wolves == "auto":
        wolves = wolves_for_players(players, thresholds)
    else:
        wolves = ctx.integer(roles_table, "werewolf", low=1, prefix="roles.")
    if wolves < 1:
        ctx.error("wolves_by_players", f"no threshold gives werewolves for {players} players; "
                                       f"add a row at or below {players}")
    counts[WEREWOLF] = wolves
    for key in roles_table:
        if key != "werewolf":
            counts[names.index(key)] = ctx.integer(roles_table, key, low=0, prefix="roles.")
    specials = sum(counts)
    if specials > players:
        ctx.error("roles", f"{specials} special roles do not fit {players} players")
    counts[VILLAGER] = players - specials
    humans = players - wolves
    if humans <= wolves:
        ctx.error("roles.werewolf", f"{wolves} werewolves need more than {wolves} humans; "
                                    f"with {players} players at most {(players - 1) // 2} wolves")

    rules = ctx.table(raw, "rules")
    ctx.only_keys(rules, RULE_KEYS, prefix="rules.")
    madman_literal = ctx.boolean(rules, "madman_literal", default=False, prefix="rules.")
    return WerewolfParams(players, tuple(counts), thresholds, madman_literal)


def build_setup(params: WerewolfParams) -> Setup:
    deck = np.repeat(np.arange(len(ROLES), dtype=np.int64), params.role_counts)
    return Setup(deck, np.int64(params.wolves))


def describe_setup(params: WerewolfParams) -> dict:
    roles = ", ".join(f"{c} {ROLES[r].name}" for r, c in enumerate(params.role_counts) if c)
    return {"roles": roles}

