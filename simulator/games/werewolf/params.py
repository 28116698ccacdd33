"""Werewolf parameters: the config schema, the validated params, and the setup they give.

The keys (besides the platform's `game`, `players`, `strategies`, ...) are declared once in `KEYS`;
validation, `fairplay games werewolf` and docs/rules/werewolf.md read that declaration.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simulator.schema import AnyOf, Boolean, Choice, Integer, Key, Table

from .declaration import MAX_ACTIONS, MAX_PLAYERS, OBS, ROLE, ROLE_TEAM, ROLES, UNKNOWN, WOLF
from .rules import wolves_for_players

DEFAULT_THRESHOLDS = {8: 2, 16: 3, 20: 4}

KEYS = (
    Key("roles.werewolf", AnyOf((Choice(("auto",)), Integer(1, MAX_PLAYERS))), "auto",
        "werewolves dealt; \"auto\" follows [wolves_by_players]", balance_knob=True),
    Key("roles.seer", Integer(0, 1), 1, "seers dealt (villagers fill the other seats)",
        balance_knob=True),
    Key("wolves_by_players", Table(Integer(1, MAX_PLAYERS), Integer(1, MAX_PLAYERS)),
        DEFAULT_THRESHOLDS, "role players -> werewolves: the text's thresholds (\"剩餘人數\"), "
        "the last one at or below the head count applies"),
    Key("rules.madman_literal", Boolean(), False,
        "knob of the rules note: count the madman as a human (no effect without a madman)"),
)


@dataclass(frozen=True)
class WerewolfParams:
    players: int
    role_counts: tuple[int, ...]  # per role code, villagers included
    wolves_by_players: tuple[tuple[int, int], ...]
    madman_literal: bool = False

    @property
    def wolves(self) -> int:
        return sum(c for r, c in enumerate(self.role_counts) if ROLE_TEAM[r] == WOLF)


def load_params(values: dict, ctx) -> WerewolfParams:
    """The params of validated config values; checks what involves several keys."""
    players = values["players"]
    thresholds = tuple(sorted(values["wolves_by_players"].items())) or \
        tuple(DEFAULT_THRESHOLDS.items())
    wolves = values["roles.werewolf"]
    if wolves == "auto":
        wolves = wolves_for_players(players, thresholds)
        if wolves < 1:
            ctx.error("wolves_by_players", f"no threshold gives werewolves for {players} players; "
                                           f"add a row at or below {players}")
    counts = [0] * len(ROLES)
    counts[ROLE.werewolf] = wolves
    counts[ROLE.seer] = values["roles.seer"]
    specials = sum(counts)
    if specials > players:
        ctx.error("roles", f"{specials} special roles do not fit {players} players")
    counts[ROLE.villager] = players - specials
    if players - wolves <= wolves:
        ctx.error("roles.werewolf", f"{wolves} werewolves need more than {wolves} humans; "
                                    f"with {players} players at most {(players - 1) // 2} wolves")
    return WerewolfParams(players, tuple(counts), thresholds, values["rules.madman_literal"])


def setup(params: WerewolfParams, st) -> None:
    """The deck dealt each game and the public constants of the observation."""
    n = params.players
    st.deck[:n] = np.repeat(np.arange(len(ROLES), dtype=np.int64), params.role_counts)
    st.wolves = params.wolves
    st.obs[:] = UNKNOWN
    st.obs[OBS.wolves] = params.wolves


def actions(params: WerewolfParams) -> int:
    """Every decision's action is a seat 0..n-1, or n: "pass" (the mask's last entry)."""
    return min(params.players + 1, MAX_ACTIONS)


def describe_setup(params: WerewolfParams) -> dict:
    roles = ", ".join(f"{c} {ROLES[r].name}" for r, c in enumerate(params.role_counts) if c)
    return {"roles": roles}
