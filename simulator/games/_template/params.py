"""Spot the spy's config: the declared keys, the validated params and the setup they give.

HOOK: KEYS (validation, `fairplay games template` and docs/rules/template.md all read them),
`load_params` (checks involving several keys), `setup` (the state's setup fields and the
observation's run constants), `actions` (the size of the legal mask), `describe_setup`.

A knob the rules read as it is (`rules.reveal_votes`) is declared `state=True`: the engine gives
the state its field (`st.reveal_votes`, 1 or 0) and writes it, and the params carry it in
`knobs`. A knob the setup turns into something else (`rules.spies`: the deck) is read here.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simulator.games.base import knobs_record
from simulator.schema import Boolean, Integer, Key

from .declaration import MAX_PLAYERS, OBS, ROLE, ROLES

KEYS = (
    Key("rules.spies", Integer(1, 2), 1, "spies dealt", balance_knob=True),
    Key("rules.reveal_votes", Boolean(), True,
        "ballots become public after each vote (false: only the result is known)",
        balance_knob=True, state=True),
)
Knobs = knobs_record(KEYS, __name__)


@dataclass(frozen=True)
class TemplateParams:
    players: int
    spies: int = 1
    knobs: Knobs = Knobs()


def load_params(values: dict, ctx) -> TemplateParams:
    players, spies = values["players"], values["rules.spies"]
    if 2 * spies >= players:
        ctx.error("rules.spies", f"{spies} spies need more than {spies} citizens; with {players} "
                                 f"players at most {(players - 1) // 2}")
    return TemplateParams(players, spies, Knobs.read(values))


def setup(params: TemplateParams, st) -> None:
    counts = [params.players - params.spies, params.spies]
    st.deck[:params.players] = np.repeat(np.arange(len(ROLES)), counts)
    st.obs[OBS.spies] = params.spies


def actions(params: TemplateParams) -> int:
    return min(params.players, MAX_PLAYERS)


def describe_setup(params: TemplateParams) -> dict:
    return {"roles": f"{params.players - params.spies} {ROLES[ROLE.citizen].name}, "
                     f"{params.spies} {ROLES[ROLE.spy].name}",
            "ballots": "public after each vote" if params.knobs.reveal_votes else "secret"}
