"""Vita Mors Conspiro's config: the declared keys, the validated params and the setup they give.

The faction table, both scroll tables (novice and expert, per player count), the character deck
and the effect of every arcane tile and scheme are config data (configs/vitamors/default.toml
spells them all out); `docs/rules/vitamors.md` explains each key. A config's layout::

    game = "vitamors"
    players = 7                       # 5..10
    [rules]
    mode = "novice"                   # or "expert"
    jesters = "auto"                  # or a number; "auto" follows [jesters_by_players]
    without = []                      # schemes left out of the setup, e.g. ["veil"]
    jesters_swap = "all"              # or "choose": the jesters may keep schemes aside
    removed_scroll = "unseen"         # or "shown": a scroll removed instead of playing is shown
    spells_per_card = "any"           # or "one": at most one spell follows a played card
    replaced_scythes = "unseen"       # or "shown": the scythes the schemes replace are set aside
                                      # face up, so the table sees under which tiles they lay
    starting_player = "random"        # or "seat-0": seat 0 takes the Reaper first
    card_limit = 9                    # cards on both altars that end the game without a ritual
    ritual_votes = 2                  # yes votes that start the ritual
    life_cards = 3                    # Life Altar cards that allow a ritual vote
    death_cards = 4                   # Death Altar cards that allow a ritual vote
    [jesters_by_players]              # players -> jesters (the source's table)
    7 = 2
    [scrolls.novice]                  # players -> scythes under each tile and schemes
    7 = { gaze = 3, peek = 3, veil = 1, swap = 1 }
    [scrolls.expert]
    7 = { gaze = 3, peek = 3, brink = 1, veil = 1, swap = 1, prolong = 1, requiem = 1 }
    [deck]
    ranks = [4, 4, 4, 4, 4, 4]        # character cards of rank 1, 2, ... (provisional)
    [effects]                         # what each item does (provisional); EFFECTS names
    gaze = "see-sacrifice"
    ...
    card_limit_step = 1               # the card-limit effect (Prolong Life): +1 card
    ritual_votes_step = 1             # the ritual-votes effect (Requiem): +1 yes vote

A table given in a config is laid over the source's, player count by player count and name by
name, so `--set scrolls.novice.7.veil=0` changes one entry.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simulator.games.base import knobs_record
from simulator.schema import AnyOf, Choice, Integer, Invalid, Key, ListOf, Table

# (the source's tables of jesters and scrolls are declared in declaration.py)
from .declaration import (
    DEFAULT_EFFECTS, EFFECT_NAMES, EXPERT_SCROLLS, ITEM, ITEM_LABELS, ITEMS,
    JESTERS_BY_PLAYERS, MAX_ALTAR, MAX_DECK, MAX_PLAYERS, MAX_RANKS, MAX_SCROLLS, MIN_PLAYERS,
    MODES, N_ITEMS, N_SCHEMES, N_TILES, NOVICE_SCROLLS, OBS, REMOVED_SCROLL_RULES,
    REPLACED_SCYTHE_RULES, ROLE, SCHEMES, SCROLL_TABLES, SPELL_RULES, STARTING_PLAYER_RULES,
    SWAP_RULES, longest_play,
)
from .observation import init_observation


DEFAULT_DECK = [4, 4, 4, 4, 4, 4]  # provisional: 24 cards, 6 ranks x 4


class ScrollCounts:
    """One player count's scrolls: an inline table of counts by item name (gaze, peek, brink:
    scythes under each tile; veil, swap, prolong, requiem: schemes). A name left out is 0."""

    def check(self, value):
        if not isinstance(value, dict):
            raise Invalid(f"must be a table of counts by name ({', '.join(ITEMS)}), got "
                          f"{value!r}")
        out = {}
        for name, count in value.items():
            if name not in ITEMS:
                raise Invalid(f"unknown item {name!r}; allowed: {', '.join(ITEMS)}")
            if isinstance(count, bool) or not isinstance(count, int) or \
                    not 0 <= count <= MAX_SCROLLS:
                raise Invalid(f"{name}: must be an integer from 0 to {MAX_SCROLLS}, got "
                              f"{count!r}")
            out[name] = count
        return out

    def describe(self) -> str:
        return "a table of counts by item (gaze, peek, brink, veil, swap, prolong, requiem)"


def _table_text(table) -> str:
    return "; ".join(f"{players}: " + ", ".join(f"{k} {v}" for k, v in row.items() if v)
                     for players, row in table.items())


KEYS = (
    Key("rules.mode", Choice(MODES), "novice",
        "\"novice\" (Death's Gaze and Secret Peek; Veil and Swap) or \"expert\" (also Brink of "
        "Life and Death; Prolong Life or Requiem)", balance_knob=True, state=True),
    Key("rules.jesters", AnyOf((Choice(("auto",)), Integer(1, MAX_PLAYERS - 1))), "auto",
        "jesters dealt; \"auto\" follows [jesters_by_players]", balance_knob=True),
    Key("jesters_by_players", Table(Integer(MIN_PLAYERS, MAX_PLAYERS), Integer(1, MAX_PLAYERS - 1)),
        JESTERS_BY_PLAYERS, "players -> jesters (the source's table; entries given are laid over "
                            "it)"),
    Key("scrolls.novice", Table(Integer(MIN_PLAYERS, MAX_PLAYERS), ScrollCounts()),
        NOVICE_SCROLLS, "novice setup, players -> scythes under each tile and schemes (the "
                        "source's table; entries given are laid over it)",
        default_text=_table_text(NOVICE_SCROLLS)),
    Key("scrolls.expert", Table(Integer(MIN_PLAYERS, MAX_PLAYERS), ScrollCounts()),
        EXPERT_SCROLLS, "expert setup, likewise", default_text=_table_text(EXPERT_SCROLLS)),
    Key("rules.without", ListOf(Choice(SCHEMES), unique=True), [],
        "schemes left out of the setup (the value of a scheme: paired runs with and without it)",
        default_text="[] (none)", balance_knob=True),
    Key("rules.jesters_swap", Choice(SWAP_RULES), "all",
        "\"all\": every scheme of the setup replaces a scythe; \"choose\": the "
        "jesters may keep schemes aside", state=True, provisional=True),
    Key("rules.removed_scroll", Choice(REMOVED_SCROLL_RULES), "unseen",
        "a scroll the sacrificer removes instead of playing leaves the game "
        "\"unseen\", or is \"shown\" to everyone as it goes", state=True, provisional=True),
    Key("rules.spells_per_card", Choice(SPELL_RULES), "any",
        "\"any\": every player with a feather may propose a spell after a played "
        "card, each resolving before the next; \"one\": the first spell cast ends the proposals",
        state=True, provisional=True),
    Key("rules.replaced_scythes", Choice(REPLACED_SCYTHE_RULES), "unseen",
        "the scythes the jesters' schemes replace at night leave the game "
        "\"unseen\", or are \"shown\": set aside face up where the schemes lay, so everyone "
        "sees how many came from under each tile (not from which position)",
        state=True, provisional=True),
    Key("rules.starting_player", Choice(STARTING_PLAYER_RULES), "random",
        "the first sacrificer (the text: whoever most recently wore a hoodie) is a "
        "\"random\" seat, or \"seat-0\" for a designer who wants turn order fixed (positions are "
        "then seats)", state=True, provisional=True),
    Key("rules.card_limit", Integer(3, MAX_ALTAR), 9,
        "cards on both altars that end the game without a ritual (the jesters win)",
        balance_knob=True, state=True),
    Key("rules.ritual_votes", Integer(1, MAX_PLAYERS), 2, "yes votes that start the ritual",
        balance_knob=True, state=True),
    Key("rules.life_cards", Integer(1, MAX_ALTAR), 3, "Life Altar cards that allow a ritual vote"),
    Key("rules.death_cards", Integer(1, MAX_ALTAR), 4,
        "Death Altar cards that allow a ritual vote"),
    Key("deck.ranks", ListOf(Integer(0, MAX_DECK), 1, MAX_RANKS), DEFAULT_DECK,
        "character cards of each rank (rank 1, 2, ...)", balance_knob=True, provisional=True),
) + tuple(
    Key(f"effects.{item}", Choice(EFFECT_NAMES), DEFAULT_EFFECTS[item],
        f"the effect of {ITEM_LABELS[i]}", provisional=True)
    for i, item in enumerate(ITEMS)
) + (
    Key("effects.card_limit_step", Integer(-MAX_ALTAR, MAX_ALTAR), 1,
        "how the card-limit effect (Prolong Life) moves the card limit",
        balance_knob=True, state=True, provisional=True),
    Key("effects.ritual_votes_step", Integer(-MAX_PLAYERS, MAX_PLAYERS), 1,
        "how the ritual-votes effect (Requiem) moves the yes votes needed",
        balance_knob=True, state=True, provisional=True),
)
# The knobs declared `state=True`, as the params carry them (the engine writes them into the state).
Knobs = knobs_record(KEYS, __name__)


@dataclass(frozen=True)
class VitamorsParams:
    players: int
    jesters: int = 2
    scrolls: tuple[int, ...] = (3, 3, 0, 1, 1, 0, 0)  # counts by item (ITEMS order)
    without: tuple[str, ...] = ()
    life_cards: int = 3
    death_cards: int = 4
    deck: tuple[int, ...] = tuple(DEFAULT_DECK)
    effects: tuple[int, ...] = tuple(EFFECT_NAMES.index(DEFAULT_EFFECTS[i]) for i in ITEMS)
    knobs: Knobs = Knobs()

    @property
    def deck_size(self) -> int:
        return sum(self.deck)

    @property
    def scythes(self) -> int:
        return sum(self.scrolls[:N_TILES])

    def schemes_placed(self) -> int:
        """Schemes the jesters place (all of them with jesters_swap "all"): Veil and Swap, and the
        kept kind of Prolong Life / Requiem."""
        s = self.scrolls
        return s[ITEM.veil] + s[ITEM.swap] + max(s[ITEM.prolong], s[ITEM.requiem])


def _laid_over(official: dict, given: dict) -> dict:
    out = {players: dict(row) for players, row in official.items()}
    for players, row in given.items():
        out.setdefault(players, {}).update(row)
    return out


def load_params(values: dict, ctx) -> VitamorsParams:
    """The params of validated config values; checks what involves several keys."""
    players = values["players"]
    mode = values["rules.mode"]
    by_players = dict(JESTERS_BY_PLAYERS)
    by_players.update(values["jesters_by_players"])
    jesters = values["rules.jesters"]
    if jesters == "auto":
        if players not in by_players:
            ctx.error("jesters_by_players", f"no entry for {players} players")
        jesters = by_players[players]
    if jesters >= players:
        ctx.error("rules.jesters", f"{jesters} jesters leave no exile among {players} players; "
                                   f"at most {players - 1}")
    table = _laid_over(SCROLL_TABLES[mode], values[f"scrolls.{mode}"])
    if players not in table:
        ctx.error(f"scrolls.{mode}", f"no entry for {players} players")
    row = table[players]
    without = tuple(values["rules.without"])
    scrolls = [0 if item in without else row.get(item, 0) for item in ITEMS]
    swap_all = values["rules.jesters_swap"] == "all"
    scythes = sum(scrolls[:N_TILES])
    if scythes == 0:
        ctx.error(f"scrolls.{mode}", f"{players} players: the setup needs at least one scythe")
    if scythes > MAX_SCROLLS:
        ctx.error(f"scrolls.{mode}", f"{players} players: {scythes} scythes; the box holds "
                                     f"{MAX_SCROLLS} scrolls")
    deck = tuple(values["deck.ranks"])
    effects = tuple(EFFECT_NAMES.index(values[f"effects.{item}"]) for item in ITEMS)
    params = VitamorsParams(
        players=players, jesters=jesters, scrolls=tuple(scrolls), without=without,
        life_cards=values["rules.life_cards"], death_cards=values["rules.death_cards"], deck=deck,
        effects=effects, knobs=Knobs.read(values))
    if swap_all and params.schemes_placed() > scythes:
        ctx.error(f"scrolls.{mode}", f"{players} players: {params.schemes_placed()} schemes to "
                                     f"place but only {scythes} scythes to replace")
    if values["rules.ritual_votes"] > players:
        ctx.error("rules.ritual_votes", f"{values['rules.ritual_votes']} yes votes cannot come "
                                        f"from {players} players")
    if params.deck_size > MAX_DECK:
        ctx.error("deck.ranks", f"{params.deck_size} cards: a deck holds at most {MAX_DECK}")
    need = players + longest_play(params)
    if params.deck_size < need:
        ctx.error("deck.ranks", f"{params.deck_size} cards cannot deal {players} hands and "
                                f"{longest_play(params)} more to draw; the deck needs at least "
                                f"{need}")
    return params


def setup(params: VitamorsParams, st) -> None:
    """The setup in a fresh state: the faction deck, the character deck (card ids sorted by rank),
    the scroll positions (Death's Gaze's first, then Secret Peek's, then Brink's), the schemes the
    jesters will place, every item's effect; and the run's constants in the observation."""
    n = params.players
    st.factions[:n] = [ROLE.exile] * (n - params.jesters) + [ROLE.jester] * params.jesters
    st.jester_count = params.jesters
    st.n_ranks = len(params.deck)
    st.deck_size = params.deck_size
    st.deck_rank[:params.deck_size] = np.repeat(np.arange(len(params.deck), dtype=np.int64),
                                                params.deck)
    tiles = np.repeat(np.arange(N_TILES, dtype=np.int64), params.scrolls[:N_TILES])
    st.n_scrolls = tiles.size
    st.setup_tile[:] = -1
    st.setup_tile[:tiles.size] = tiles
    st.scheme_count[:] = params.scrolls[N_TILES:]
    st.effect_of[:] = params.effects
    init_observation(st)
    obs = st.obs
    obs[OBS.mode] = st.mode
    obs[OBS.jesters] = params.jesters
    obs[OBS.ranks] = len(params.deck)
    obs[OBS.deck:OBS.deck + MAX_RANKS] = 0
    obs[OBS.deck:OBS.deck + len(params.deck)] = params.deck
    obs[OBS.effects:OBS.effects + N_ITEMS] = params.effects
    obs[OBS.setup_schemes:OBS.setup_schemes + N_SCHEMES] = params.scrolls[N_TILES:]
    obs[OBS.life_cards] = params.life_cards
    obs[OBS.death_cards] = params.death_cards
    obs[OBS.card_limit] = st.card_limit
    obs[OBS.yes_needed] = st.ritual_votes
    obs[OBS.scroll_tile:OBS.scroll_tile + MAX_SCROLLS] = st.setup_tile


def actions(params: VitamorsParams) -> int:
    """Actions are a scroll position, a seat, a rank, an altar, or an altar's pair of cards."""
    from .declaration import MAX_ACTIONS

    return MAX_ACTIONS


def describe_setup(params: VitamorsParams) -> dict:
    """Notes a report prints: the setup, and that its rules are provisional."""
    n = params.players
    s = params.scrolls
    tiles = ", ".join(f"{s[i]} under {ITEM_LABELS[i]}" for i in range(N_TILES) if s[i])
    schemes = ", ".join(f"{s[i]} {ITEM_LABELS[i]}" for i in range(N_TILES, N_ITEMS) if s[i])
    knobs = params.knobs
    notes = {
        "provisional": "The rules of this game are provisional: the character deck's ranks and "
                       "what each arcane tile and scheme does are not published; the defaults "
                       "are this project's (fairplay games vitamors lists every provisional "
                       "ruling).",
        "mode": f"{knobs.mode} mode, {n} players: {n - params.jesters} exiles, "
                f"{params.jesters} jesters",
        "scrolls": f"scythes: {tiles}; schemes: {schemes or 'none'}"
                   + (" (the jesters keep one of Prolong Life / Requiem)"
                      if s[ITEM.prolong] and s[ITEM.requiem] else "")
                   + ("" if knobs.jesters_swap == "all" else
                      "; the jesters may keep schemes aside")
                   + ("; a removed scroll is shown" if knobs.removed_scroll == "shown" else "")
                   + ("; at most one spell per card" if knobs.spells_per_card == "one" else "")
                   + ("; the replaced scythes are set aside face up"
                      if knobs.replaced_scythes == "shown" else "")
                   + ("; seat 0 starts" if knobs.starting_player == "seat-0" else ""),
        "deck": f"{params.deck_size} character cards: "
                + ", ".join(f"{count} of rank {rank + 1}" for rank, count in enumerate(params.deck))
                + (" (the provisional default)" if list(params.deck) == DEFAULT_DECK else ""),
        "limits": f"ritual vote from {params.life_cards} Life / {params.death_cards} Death Altar "
                  f"cards; {knobs.ritual_votes} yes votes start it; {knobs.card_limit} cards "
                  f"without a ritual: the jesters win",
    }
    changed = [f"{item} = {EFFECT_NAMES[params.effects[i]]}" for i, item in enumerate(ITEMS)
               if EFFECT_NAMES[params.effects[i]] != DEFAULT_EFFECTS[item]]
    notes["effects"] = ("provisional effects: the defaults" if not changed else
                        "provisional effects changed: " + ", ".join(changed))
    if params.without:
        notes["without"] = "left out of the setup: " + ", ".join(params.without)
    return notes
