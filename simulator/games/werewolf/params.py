"""Werewolf parameters: the config schema, the validated params, and the setup they give.

The keys (besides the platform's `game`, `players`, `strategies`, ...) are declared once in `KEYS`;
validation, `fairplay games werewolf` and docs/rules/werewolf.md read that declaration.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simulator.games.base import knobs_record
from simulator.schema import AnyOf, Boolean, Choice, Integer, Key, Number, Table

from .declaration import (
    AVAILABLE_FROM, AVAILABLE_UNTIL, HUMAN, MAX_ACTIONS, MAX_PLAYERS, OBS, PROVISIONAL_RULINGS, ROLE,
    ROLE_CAMP, ROLES, TIE_RULES, UNKNOWN, WOLF,
)
from .rules import wolves_for_players

DEFAULT_THRESHOLDS = {8: 2, 16: 3, 20: 4}
# The expansion roles a config may deal, with how many: one each, the masons two.
EXPANSION = tuple(r.name for r in ROLES if r.name not in ("villager", "werewolf", "seer"))
COPIES = {"mason": 2}


def _role_key(name):
    copies = COPIES.get(name, 1)
    counts = "0 or 2 (the masons are always two)" if copies == 2 else "0 or 1"
    return Key(f"roles.{name}", Integer(0, copies), 0,
               f"{name} cards dealt: {counts}; available from {AVAILABLE_FROM[name]} role players"
               + (f" up to {AVAILABLE_UNTIL[name]}" if name in AVAILABLE_UNTIL else ""))
    # Not listed as a balance knob: thirteen role counts, most unavailable at a given head
    # count, would drown a report's knobs; `fairplay roles` (or `run --role-values`) measures
    # what each one is worth.


KEYS = (
    Key("roles.werewolf", AnyOf((Choice(("auto",)), Integer(1, MAX_PLAYERS))), "auto",
        "werewolves dealt; \"auto\" follows [wolves_by_players]", balance_knob=True),
    Key("roles.seer", Integer(0, 1), 1, "seers dealt (villagers fill the other seats)",
        balance_knob=True),
    *(_role_key(name) for name in EXPANSION),
    Key("wolves_by_players", Table(Integer(1, MAX_PLAYERS), Integer(1, MAX_PLAYERS)),
        DEFAULT_THRESHOLDS, "role players -> werewolves: the text's thresholds (\"剩餘人數\"), "
        "the last one at or below the head count applies"),
    Key("available_from", Table(Choice(EXPANSION), Integer(1, MAX_PLAYERS)), dict(AVAILABLE_FROM),
        "role -> the fewest role players it may be dealt with (the text's head counts minus the "
        "moderator)"),
    Key("available_until", Table(Choice(EXPANSION), Integer(1, MAX_PLAYERS)),
        dict(AVAILABLE_UNTIL), "role -> the most role players it may be dealt with (the owl man "
        "gives his card to the death god from 20)"),
    Key("rules.ignore_availability", Boolean(), False,
        "deal roles below (or above) the head counts that make them available"),
    Key("rules.madman_literal", Boolean(), False,
        "knob of the rules note: count the madman as a human in the victory rules, so the humans "
        "need not kill him (he still wins with the wolves)"),
    Key("rules.witness_caught", Number(0.0, 1.0), 0.25,
        "the chance the wolves notice a peeking witness (who then dies instead of their victim)",
        state=True),
    Key("rules.mayor", Boolean(), False, "elect a mayor on day 1 (his vote counts twice; dying, "
                                          "he names a successor)", state=True),
    Key("rules.reveal_dead", Boolean(), False,
        "show a dead player's card (refused with a medium: the text forbids it)", state=True),
    Key("rules.tie_reference", Choice(TIE_RULES), "first",
        "after a night without a death the attacked player, alive, is the reference seat of the "
        "day's ties: \"first\" he wins every tie he is in (clockwise distance 0), \"after\" "
        "ties are counted from the seat after him (he comes last), \"random\" that day's ties "
        "are broken at random", state=True, provisional=True),
)
# The knobs declared `state=True`, as the params carry them (the engine writes them into the state).
Knobs = knobs_record(KEYS, __name__)


@dataclass(frozen=True)
class WerewolfParams:
    players: int
    role_counts: tuple[int, ...]  # per role code, villagers included
    wolves_by_players: tuple[tuple[int, int], ...]
    madman_literal: bool = False
    knobs: Knobs = Knobs()

    @property
    def wolves(self) -> int:
        return self.role_counts[ROLE.werewolf]


def load_params(values: dict, ctx) -> WerewolfParams:
    """The params of validated config values; checks what involves several keys, each refusal one
    line naming the key."""
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
    for name in EXPANSION:
        counts[ROLES.index(next(r for r in ROLES if r.name == name))] = values[f"roles.{name}"]
    if counts[ROLE.mason] == 1:
        ctx.error("roles.mason", "the masons are always two (0 or 2), not 1")
    if counts[ROLE.owl_man] and counts[ROLE.death_god]:
        ctx.error("roles.death-god", "the death god takes the owl man's card: deal one of them, "
                                     "not both")
    if not values["rules.ignore_availability"]:
        since = {**AVAILABLE_FROM, **values["available_from"]}
        until = {**AVAILABLE_UNTIL, **values["available_until"]}
        for name in EXPANSION:
            if not values[f"roles.{name}"]:
                continue
            what = name.replace("-", " ")
            if players < since[name]:
                ctx.error(f"roles.{name}", f"the {what} is available from {since[name]} role "
                                           f"players, not {players} (set "
                                           f"rules.ignore_availability = true to deal it anyway)")
            if name in until and players > until[name]:
                ctx.error(f"roles.{name}", f"the {what} is not used above {until[name]} role "
                                           f"players, here {players} (set "
                                           f"rules.ignore_availability = true to deal it anyway)")
    if values["rules.reveal_dead"] and counts[ROLE.medium]:
        ctx.error("rules.reveal_dead", "with a medium in the game the dead never show their "
                                       "cards (the text); deal no medium or leave it false")
    specials = sum(counts)
    if specials > players:
        ctx.error("roles", f"{specials} special roles do not fit {players} players")
    counts[ROLE.villager] = players - specials
    wolf_camp = sum(c for r, c in enumerate(counts) if ROLE_CAMP[r] == WOLF)
    humans = sum(c for r, c in enumerate(counts) if ROLE_CAMP[r] == HUMAN)
    if values["rules.madman_literal"]:
        wolf_camp -= counts[ROLE.madman]
        humans += counts[ROLE.madman]
    if humans <= wolf_camp:
        others = wolf_camp - counts[ROLE.werewolf]  # a madman counted with the wolves
        most = (players - 2 * others - counts[ROLE.paranoid] - 1) // 2
        ctx.error("roles.werewolf", f"{wolf_camp} players of the wolf camp need more humans than "
                                    f"that (here {humans}); with {players} players and these "
                                    f"roles at most {most} wolves")
    return WerewolfParams(players, tuple(counts), thresholds, values["rules.madman_literal"],
                          Knobs.read(values))


def setup(params: WerewolfParams, st) -> None:
    """The deck dealt each game, the camps, and the public constants of the observation."""
    n = params.players
    st.deck[:n] = np.repeat(np.arange(len(ROLES), dtype=np.int64), params.role_counts)
    st.wolves = params.wolves
    camps = ROLE_CAMP.copy()
    if params.madman_literal:
        camps[ROLE.madman] = HUMAN
    st.role_camp[:] = camps
    st.obs[:] = UNKNOWN
    st.obs[OBS.wolves] = params.wolves
    st.obs[OBS.dealt:OBS.dealt + len(ROLES)] = params.role_counts


def actions(params: WerewolfParams) -> int:
    """An action is a seat 0..n-1, a seat again n..2n-1 (a claim's "not a werewolf"), or 2n:
    "pass" (the mask's last entry)."""
    return min(2 * params.players + 1, MAX_ACTIONS)


TIE_WORDS = {"first": "the attacked player first", "after": "counted from the seat after the "
                                                             "attacked player",
             "random": "broken at random"}


def describe_setup(params: WerewolfParams) -> dict:
    roles = ", ".join(f"{c} {ROLES[r].name}" for r, c in enumerate(params.role_counts) if c)
    knobs = params.knobs
    rules = [name for name, on in (("mayor", knobs.mayor), ("madman counted as a human",
                                                             params.madman_literal and
                                                             params.role_counts[ROLE.madman]),
                                   ("dead players' cards shown", knobs.reveal_dead),
                                   (f"ties after a night without a death: "
                                    f"{TIE_WORDS[knobs.tie_reference]}",
                                    knobs.tie_reference != "first")) if on]
    described = {"roles": roles}
    if rules:
        described["rules"] = ", ".join(rules)
    return described


def provisional_for(params: WerewolfParams) -> tuple[str, ...]:
    """The provisional rulings a setup depends on: those about a role it deals (or the mayor)."""
    present = {ROLES[r].name for r, c in enumerate(params.role_counts) if c}
    if params.knobs.mayor:
        present.add("mayor")
    return tuple(text for text, about in PROVISIONAL_RULINGS if present.intersection(about))
