"""Spot the spy's config: the declared keys, the validated params and the setup they give.

HOOK: KEYS (validation, `fairplay games template` and docs/rules/template.md all read them),
`load_params` (checks involving several keys), `setup` (the state's setup fields and the
observation's run constants), `actions` (the size of the legal mask), `describe_setup`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simulator.schema import Boolean, Integer, Key

from .declaration import MAX_PLAYERS, OBS, ROLE, ROLES

KEYS = (
    Key("rules.spies", Integer(1, 2), 1, "spies dealt", balance_knob=True),
    Key("rules.reveal_votes", Boolean(), True,
        "ballots become public after each vote (false: only the result is known)",
        balance_knob=True),
)


@dataclass(frozen=True)
class TemplateParams:
    players: int
    spies: int = 1
    reveal_votes: bool = True


def load_params(values: dict, ctx) -> TemplateParams:
    players, spies = values["players"], values["rules.spies"]
    if 2 * spies >= players:
        ctx.error("rules.spies", f"{spies} spies need more than {spies} citizens; with {players} "
                                 f"players at most {(players - 1) // 2}")
    return TemplateParams(players, spies, values["rules.reveal_votes"])


def setup(params: TemplateParams, st) -> None:
    counts = [params.players - params.spies, params.spies]
    st.deck[:params.players] = np.repeat(np.arange(len(ROLES)), counts)
    st.spies = params.spies
    st.reveal_votes = 1 if params.reveal_votes else 0
    st.obs[OBS.spies] = params.spies


def actions(params: TemplateParams) -> int:
    return min(params.players, MAX_PLAYERS)


def describe_setup(params: TemplateParams) -> dict:
    return {"roles": f"{params.players - params.spies} {ROLES[ROLE.citizen].name}, "
                     f"{params.spies} {ROLES[ROLE.spy].name}",
            "ballots": "public after each vote" if params.reveal_votes else "secret"}
