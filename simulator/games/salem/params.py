"""Salem parameters: the config schema, the validated params, and the setup they give.

The tryal table and the deck are data: their published values are the ones in
configs/salem/default.toml, read from there as the keys' defaults, so a config that sets none of
them plays the published game and one that changes a count changes only that count
(`--set tryals.8.witch=3`, `--set deck.accusation=30`). Validation (simulator.schema),
`fairplay games salem` and docs/rules/salem.md read `KEYS`; `load_params` checks what involves
several keys, each fault one line naming its key.
"""

from __future__ import annotations

import importlib.resources
import tomllib
from dataclasses import dataclass

from simulator.games.base import knobs_record
from simulator.schema import Boolean, Choice, Integer, Invalid, Key, ListOf, Table

from .declaration import (
    ANN_PUTNAM_DRAWS, ANN_PUTNAM_HOLDS, CARD, CARDS, CAT_CHOOSERS, CHARACTERS, CONSPIRACIES,
    MAX_DECK, MAX_PLAYERS, MAX_TRYALS, MIN_PLAYERS, N_ACTIONS, OBS, PIETY_RULES, PROCTOR_RULES,
    TRYAL, TRYALS, UNKNOWN,
)

DATA_FILE = "salem/default.toml"  # in the built-in configs


def _published() -> tuple[dict, dict]:
    """The published tryal table and deck, from the game's data file."""
    text = importlib.resources.files("configs").joinpath(DATA_FILE).read_text(encoding="utf-8")
    data = tomllib.loads(text)
    table = {int(players): dict(row) for players, row in data["tryals"].items()}
    return table, dict(data["deck"])


PUBLISHED_TRYALS, PUBLISHED_DECK = _published()
DRAFTS = ("off", "lt7", "le7")


class TryalRow:
    """One row of the tryal table: { not_a_witch = N, witch = N, constable = N } (a row may name
    only the counts it changes; the others keep their published values)."""

    def check(self, value):
        if not isinstance(value, dict):
            raise Invalid(f"must be a table like {{ not_a_witch = 29, witch = 2, constable = 1 }}, "
                          f"got {value!r}")
        out = {}
        for name, count in value.items():
            if name not in TRYALS:
                raise Invalid(f"unknown tryal {name!r}; tryals: {', '.join(TRYALS)}")
            if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                raise Invalid(f"{name} must be a count of at least 0, got {count!r}")
            out[name] = count
        return out

    def describe(self) -> str:
        return "a table { not_a_witch, witch, constable } of counts"


def _table_text() -> str:
    return "the published table: " + "; ".join(
        f"{players}: {row['not_a_witch']}/{row['witch']}/{row['constable']}"
        for players, row in sorted(PUBLISHED_TRYALS.items())) + " (not a witch/witch/constable)"


KEYS = (
    Key("tryals", Table(Integer(MIN_PLAYERS, MAX_PLAYERS), TryalRow()), {},
        "tryal cards by player count (rows may change single counts); each player is dealt "
        "the row's total divided by the players", default_text=_table_text(), balance_knob=True),
) + tuple(
    Key(f"deck.{name}", Integer(0, MAX_DECK), PUBLISHED_DECK[name],
        f"{name.replace('_', ' ')} cards in the deck", balance_knob=name in ("accusation",
                                                                           "evidence", "alibi"))
    for name in CARDS
) + (
    Key("characters", ListOf(Choice(CHARACTERS), min_length=1, unique=True), list(CHARACTERS),
        "the characters that may be dealt (names as in `fairplay games salem`)",
        default_text="all 15"),
    Key("rules.accusations", Integer(1, 40), 7,
        "accusations in front of a player that cause a trial (George Burroughs: 1 more)",
        balance_knob=True, state=True),
    Key("rules.starting_hand", Integer(0, 10), 3,
        "cards dealt to each player (the text: 3; the first edition: 2)", balance_knob=True,
        state=True),
    Key("rules.character_draft", Choice(DRAFTS), "off",
        "deal 2 characters, keep 1: \"off\", \"lt7\" (fewer than 7 players, the source) or "
        "\"le7\" (7 or fewer, the published rulebook)"),
    Key("rules.black_cat_chooser", Choice(CAT_CHOOSERS), "holder",
        "who picks the tryal the Black Cat's holder reveals at a Conspiracy", state=True),
    Key("rules.night_resumes_turn", Boolean(), False,
        "the player whose turn the Night interrupted finishes it (false: the turn ends)",
        state=True),
    Key("rules.last_convert_loses", Boolean(), False,
        "players the deciding Conspiracy converts lose with the town (the published rulebook)",
        state=True),
    Key("rules.piety", Choice(PIETY_RULES), "no_red",
        "Piety: others cannot play red cards on its holder, or its holder's threshold doubles",
        state=True),
    Key("rules.tituba_depth", Integer(0, MAX_DECK), 0,
        "cards from the top Tituba may arrange (0: the whole deck)", state=True),
    Key("rules.ann_putnam", Choice(ANN_PUTNAM_DRAWS), "end_of_turn",
        "when Ann Putnam draws her 2 cards per reveal", state=True, provisional=True),
    Key("rules.ann_putnam_held", Choice(ANN_PUTNAM_HOLDS), "at_reveal",
        "which reveals earn Ann Putnam's draws: \"at_reveal\" (those made while holding her "
        "ability) or \"at_draw\" (all of the turn's, if she holds it when she draws)",
        state=True, provisional=True),
    Key("rules.john_proctor", Choice(PROCTOR_RULES), "choose",
        "John Proctor chooses his up to 3 cards from the dead player's hand, or takes 3 blind",
        state=True),
    Key("rules.black_draw_replaced", Boolean(), False,
        "a drawn black card is replaced by another draw (false: it counts as one of the two)",
        state=True, provisional=True),
    Key("variants.conspiracy", Choice(CONSPIRACIES), "left",
        "Conspiracy: take a tryal from the left, or the variant: one from each player into the "
        "middle, shuffled, dealt back one each", balance_knob=True, state=True),
    Key("variants.dead_silent", Boolean(), False,
        "the variant: the dead do not announce their team; their tryals leave the game face "
        "down", balance_knob=True, state=True),
    Key("variants.extra_witch", Boolean(), False,
        "the variant: one more Witch tryal (in place of a Not a Witch)", balance_knob=True),
)
# The knobs declared `state=True`, as the params carry them (the engine writes them into the state).
Knobs = knobs_record(KEYS, __name__)


@dataclass(frozen=True)
class SalemParams:
    players: int
    tryals: tuple[int, int, int]     # not a witch, witch, constable
    deck: tuple[int, ...]            # per card kind
    characters: tuple[int, ...]      # the pool, character codes
    draft: bool = False
    extra_witch: bool = False
    knobs: Knobs = Knobs()

    @property
    def tryals_each(self) -> int:
        return sum(self.tryals) // self.players


def load_params(values: dict, ctx) -> SalemParams:
    """The params of validated config values; checks what involves several keys."""
    n = values["players"]
    row = dict(PUBLISHED_TRYALS.get(n, {}))
    row.update(values["tryals"].get(n, {}))
    missing = [name for name in TRYALS if name not in row]
    if missing:
        ctx.error(f"tryals.{n}", f"the row for {n} players needs {', '.join(missing)}")
    counts = [row[name] for name in TRYALS]
    extra = values["variants.extra_witch"]
    if extra:
        if counts[TRYAL.not_a_witch] == 0:
            ctx.error("variants.extra_witch", f"the extra Witch replaces a Not a Witch, and "
                                              f"tryals.{n} has none")
        counts[TRYAL.not_a_witch] -= 1
        counts[TRYAL.witch] += 1
    if counts[TRYAL.witch] == 0:
        ctx.error(f"tryals.{n}.witch", "there must be at least 1 Witch tryal")
    if counts[TRYAL.constable] > 1:
        ctx.error(f"tryals.{n}.constable", f"at most 1 Constable tryal, got "
                                           f"{counts[TRYAL.constable]}")
    total = sum(counts)
    if total % n:
        ctx.error(f"tryals.{n}", f"{total} tryal cards do not deal evenly to {n} players "
                                 f"(add or remove {n - total % n} or {total % n})")
    if not 1 <= total // n <= MAX_TRYALS:
        ctx.error(f"tryals.{n}", f"{total} tryal cards give {total // n} to each of {n} players; "
                                 f"each player gets 1 to {MAX_TRYALS}")

    deck = [values[f"deck.{name}"] for name in CARDS]
    if deck[CARD.night] != 1:
        ctx.error("deck.night", f"the deck needs exactly 1 Night card (its bottom), got "
                                f"{deck[CARD.night]}" + (": no Night card" if not deck[CARD.night]
                                                         else ""))
    if deck[CARD.black_cat] > 1:
        ctx.error("deck.black_cat", f"at most 1 Black Cat, got {deck[CARD.black_cat]}")
    if sum(deck) > MAX_DECK:
        ctx.error("deck", f"{sum(deck)} cards: a deck holds at most {MAX_DECK}")
    dealt = sum(deck) - deck[CARD.black_cat] - deck[CARD.night] - deck[CARD.conspiracy]
    hand = values["rules.starting_hand"]
    if dealt < hand * n:
        ctx.error("rules.starting_hand", f"{dealt} cards cannot deal {hand} to each of {n} "
                                         f"players")

    pool = tuple(CHARACTERS.index(name) for name in values["characters"])
    draft_rule = values["rules.character_draft"]
    draft = draft_rule == "lt7" and n < 7 or draft_rule == "le7" and n <= 7
    needed = 2 * n if draft else n
    if len(pool) < needed:
        ctx.error("characters", f"{len(pool)} characters cannot deal {needed // n} to each of "
                                f"{n} players")
    return SalemParams(
        players=n, tryals=tuple(counts), deck=tuple(deck), characters=pool, draft=draft,
        extra_witch=extra, knobs=Knobs.read(values),
    )


def setup(params: SalemParams, st) -> None:
    """The run's constants in a fresh state and its observation."""
    st.deck_counts[:] = params.deck
    st.tryal_counts[:] = params.tryals
    st.tryals_each = params.tryals_each
    st.char_pool[:len(params.characters)] = params.characters
    st.pool_size = len(params.characters)
    st.draft = int(params.draft)
    obs = st.obs
    obs[:] = 0
    obs[OBS.character:OBS.character + MAX_PLAYERS] = UNKNOWN
    obs[OBS.witches_dealt] = params.tryals[TRYAL.witch]
    obs[OBS.tryals_dealt] = params.tryals_each
    obs[OBS.threshold] = params.knobs.accusations
    obs[OBS.piety_blocks] = 1 if params.knobs.piety == "no_red" else 0


def actions(params: SalemParams) -> int:
    """One action space for every decision (see DECISIONS): 0..15, then STOP."""
    return N_ACTIONS


def describe_setup(params: SalemParams) -> dict:
    notes = {}
    n = params.players
    nw, w, c = params.tryals
    notes["tryals"] = (f"{nw} Not a Witch, {w} Witch, {c} Constable: {params.tryals_each} each"
                       + (" (the extra-witch variant)" if params.extra_witch else ""))
    published = PUBLISHED_TRYALS.get(n)
    if published and not params.extra_witch and \
            (nw, w, c) != (published["not_a_witch"], published["witch"], published["constable"]):
        notes["tryals"] += " (the published table differs)"
    notes["deck"] = f"{sum(params.deck)} playing cards" + (
        "" if params.deck == tuple(PUBLISHED_DECK[name] for name in CARDS) else
        " (the published deck has 59)")
    notes["characters"] = (f"{len(params.characters)} in the pool"
                           + ("; each player keeps 1 of 2" if params.draft else ""))
    variants = [name for name, on in (("Conspiracy through the middle",
                                       params.knobs.conspiracy == "middle"),
                                      ("silent dead", params.knobs.dead_silent),
                                      ("an extra witch", params.extra_witch)) if on]
    if variants:
        notes["variants"] = ", ".join(variants)
    return notes


def published_table() -> dict:
    """The published tryal table (for the docs and tests)."""
    return {players: dict(row) for players, row in PUBLISHED_TRYALS.items()}

