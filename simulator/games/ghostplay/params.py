"""Ghost Play's config: the declared keys, the decks as data, the validated params and the setup.

Everything the draft leaves out is data here, so the game's designer can replace it:

    game = "ghostplay"
    players = 6                      # 4..8; the identity table of the draft follows the count
    [rules]
    start_hand = 4                   # from the draft: cards, spirit power, draws, the card price
    ...
    reward = "each"                  # provisional knobs: "each" or "pool"
    seal = "at-end"                  #   "at-end" or "at-once"
    end = "deck-empty"               #   "deck-empty" or "round"
    possession_penalty = false
    second_artifact = "replaces"     #   or "refused"
    [ghost_kings]
    seal = [3, 3, 3, 3, 3, 3, 3]     # each ghost-king card's seal value (lives); one is drawn
    [ghost_mix]
    requirement_4 = "as-listed"      # or N: re-deal the ghosts' requirements (a sweep knob)
    [taoist_deck]                    # name = { colour, count, value, play, effect, amount }
    red = { colour = "red", count = 40 }
    blue = { colour = "blue", count = 40 }
    [ghost_deck]                     # card by card: name = { ... }
    g01 = { colour = "red", requirement = 2, points = 1, possess = "turn-player",
            reward = [2, 2, 1], pool = 4 }
    drain-1 = { kind = "event", effect = "drain", amount = 1 }
    ...

A deck is a table of named cards. A card's `count` (default 1) makes copies, and `count = 0`
takes a card out of a deck a config extends. A malformed card is one line naming the card and
the field (`ghost_deck: card g07: field requirement: must be ...`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass


from simulator.games.base import knobs_record
from simulator.schema import AnyOf, Boolean, Choice, Integer, Invalid, Key, ListOf

from .declaration import (
    ARTIFACT_EFFECTS, CARD_KINDS, CARD_WINDOW_RULES, COLOURS, DAY_ORDERS, EFFECTS, END_RULES,
    EVENT_EFFECTS, HOST_GHOSTS_RULES, IDENTITIES, INELIGIBLE_RULES, KING_DRAW_TIMES,
    KING_POINT_RULES, LOOK_AUDIENCES, LOOK_RULES, MAX_GHOST_CARDS, MAX_KING_CARDS, MAX_REWARD,
    MAX_TAOIST, MAX_TYPES, MAX_VOTE, OBS, PARTICIPANT_RULES, PASS, PLAYS, POSSESSIONS, PROVISIONAL,
    REWARDS, RISE_ORDERS, RISEN_GHOST_RULES, ROLE, SEAL_RULES, SECOND_ARTIFACT_RULES,
    SEVENTH_RULES, SPELL_EFFECTS, THIRD_RULES, TIE_RULES,
)

MAX_REQUIREMENT = 40
MAX_POINTS = 20


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# --- cards ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class GhostCard:
    """One entry of the ghost deck: a ghost or an event (`count` copies)."""

    name: str
    kind: str = "ghost"
    count: int = 1
    colour: str = ""           # ghost: its positive votes' colour
    requirement: int = 0       # ghost: net positive vote value that dispels it
    points: int = 0            # ghost: points in front of the host who dispels it
    possess: str = ""          # ghost: whom it possesses (POSSESSIONS)
    reward: tuple = (2, 2, 1)  # ghost: spirit power each participant gets, by participants
    pool: int = 4              # ghost: spirit power split among the participants (reward = pool)
    effect: str = ""           # event: EVENT_EFFECTS
    amount: int = 1            # event: how much

    def describe(self) -> str:
        if self.kind == "event":
            return {"drain": f"every player loses {self.amount} spirit power",
                    "gift": f"every player gains {self.amount} spirit power",
                    "draw": f"every player draws {self.amount} Taoist card(s)",
                    "another": "reveal one more card"}[self.effect]
        return (f"{self.colour} ghost, requirement {self.requirement}, {self.points} point(s), "
                f"possesses the {self.possess.replace('-', ' ')}, reward "
                f"{'/'.join(map(str, self.reward))} or pool {self.pool}")


@dataclass(frozen=True)
class TaoistCard:
    """One entry of the Taoist deck: `count` cards of one colour and vote value, some of which
    can also be played in the day (an artifact 法器 or another card)."""

    name: str
    colour: str
    count: int = 1
    value: int = 1
    play: str = "vote"         # PLAYS
    effect: str = "none"       # an artifact's or a spell's effect (EFFECTS)
    amount: int = 1


def _field_error(name, field, message):
    return Invalid(f"card {name}: field {field}: {message}")


def _read_int(name, entry, field, default, low, high):
    value = entry.get(field, default)
    if not _is_int(value) or not low <= value <= high:
        raise _field_error(name, field, f"must be an integer from {low} to {high}, got {value!r}")
    return value


def _read_choice(name, entry, field, default, options):
    value = entry.get(field, default)
    if value is None:
        raise _field_error(name, field, f"missing; one of {', '.join(map(repr, options))}")
    if value not in options:
        raise _field_error(name, field, f"must be one of {', '.join(map(repr, options))}, "
                                        f"got {value!r}")
    return value


def _check_fields(name, entry, allowed, kind):
    for field in entry:
        if field not in allowed:
            raise _field_error(name, field, f"unknown field for {kind}; allowed: "
                                            f"{', '.join(allowed)}")


GHOST_FIELDS = ("kind", "count", "colour", "requirement", "points", "possess", "reward", "pool")
EVENT_FIELDS = ("kind", "count", "effect", "amount")
TAOIST_FIELDS = ("colour", "count", "value", "play", "effect", "amount")


def _required_int(name, entry, field, low, high):
    if field not in entry:
        raise _field_error(name, field, f"missing; an integer from {low} to {high}")
    return _read_int(name, entry, field, None, low, high)


def read_ghost_card(name, entry) -> GhostCard:
    """A ghost-deck entry, checked field by field (Invalid names the card and the field)."""
    if not isinstance(entry, dict):
        raise Invalid(f"card {name}: must be a table of fields ({', '.join(GHOST_FIELDS)}), "
                      f"got {entry!r}")
    kind = _read_choice(name, entry, "kind", "ghost", CARD_KINDS)
    count = _read_int(name, entry, "count", 1, 0, MAX_GHOST_CARDS)
    if kind == "event":
        _check_fields(name, entry, EVENT_FIELDS, "an event")
        effect = _read_choice(name, entry, "effect", None, EVENT_EFFECTS)
        amount = _read_int(name, entry, "amount", 1, 0, 20)
        return GhostCard(name, kind, count, effect=effect, amount=amount)
    _check_fields(name, entry, GHOST_FIELDS, "a ghost")
    colour = _read_choice(name, entry, "colour", None, COLOURS)
    requirement = _required_int(name, entry, "requirement", 1, MAX_REQUIREMENT)
    points = _required_int(name, entry, "points", 0, MAX_POINTS)
    possess = _read_choice(name, entry, "possess", None, POSSESSIONS)
    reward = entry.get("reward", [2, 2, 1])
    if not isinstance(reward, list) or not 1 <= len(reward) <= MAX_REWARD or \
            not all(_is_int(r) and 0 <= r <= 20 for r in reward):
        raise _field_error(name, "reward", f"must be a list of 1 to {MAX_REWARD} integers from 0 "
                                           f"to 20 (spirit power each participant gets with 1, 2, "
                                           f"... participants; the last holds for more), got "
                                           f"{reward!r}")
    pool = _read_int(name, entry, "pool", 4, 0, 40)
    return GhostCard(name, kind, count, colour, requirement, points, possess, tuple(reward), pool)


def read_taoist_card(name, entry) -> TaoistCard:
    if not isinstance(entry, dict):
        raise Invalid(f"card {name}: must be a table of fields ({', '.join(TAOIST_FIELDS)}), "
                      f"got {entry!r}")
    _check_fields(name, entry, TAOIST_FIELDS, "a Taoist card")
    colour = _read_choice(name, entry, "colour", None, COLOURS)
    count = _read_int(name, entry, "count", 1, 0, MAX_TAOIST)
    value = _read_int(name, entry, "value", 1, 0, 6)
    play = _read_choice(name, entry, "play", "vote", PLAYS)
    if play == "vote":
        if "effect" in entry or "amount" in entry:
            field = "effect" if "effect" in entry else "amount"
            raise _field_error(name, field, "only an artifact or a spell has an effect (set play "
                                            "= \"artifact\" or \"spell\")")
        return TaoistCard(name, colour, count, value)
    effects = ARTIFACT_EFFECTS if play == "artifact" else SPELL_EFFECTS
    effect = _read_choice(name, entry, "effect", None, effects)
    amount = _read_int(name, entry, "amount", 1, 0, 10)
    return TaoistCard(name, colour, count, value, play, effect, amount)


class Deck:
    """A deck: a table of named cards, each read by `reader` (the schema's value-type protocol:
    check, describe). Returns a tuple of cards in the listed order."""

    def __init__(self, reader, what):
        self.reader, self.what = reader, what

    def check(self, value):
        if not isinstance(value, dict) or not value:
            raise Invalid(f"must be a table of named cards ({self.what}), got {value!r}")
        return tuple(self.reader(str(name), entry) for name, entry in value.items())

    def describe(self) -> str:
        return f"a table of named cards ({self.what})"


def _as_cards(deck, reader) -> tuple:
    """A deck as read cards: a table (a key's default) is read card by card."""
    if isinstance(deck, dict):
        return tuple(reader(str(name), entry) for name, entry in deck.items())
    return tuple(deck)


# --- the default decks (provisional; configs/ghostplay/default.toml writes them out) --------------
DEFAULT_GHOSTS = 32
DEFAULT_REQUIREMENT_4 = 10


def requirements(ghosts: int, fours: int) -> list[int]:
    """The requirements the `ghost_mix.requirement_4` knob deals over `ghosts` ghosts in listed
    order: `fours` of them, spread evenly, need 4; the others need 2 and 3 alternately."""
    out, low = [], 0
    for i in range(ghosts):
        if (i + 1) * fours // ghosts > i * fours // ghosts:
            out.append(4)
        else:
            out.append(2 + low % 2)
            low += 1
    return out


def default_ghost_deck() -> dict:
    """The provisional default ghost deck, card by card, as a config writes it."""
    deck = {}
    for i, requirement in enumerate(requirements(DEFAULT_GHOSTS, DEFAULT_REQUIREMENT_4)):
        # colours and possession rules spread so that each colour has every requirement and
        # every possession rule about equally often
        deck[f"g{i + 1:02d}"] = {"colour": COLOURS[(i + i // 6) % 2], "requirement": requirement,
                                 "points": requirement - 1,
                                 "possess": POSSESSIONS[(i // 4 + 2 * (i // 16)) % 4],
                                 "reward": [2, 2, 1], "pool": 4}
    for i in range(4):
        deck[f"drain-{i + 1}"] = {"kind": "event", "effect": "drain", "amount": 1}
    for i in range(4):
        deck[f"another-{i + 1}"] = {"kind": "event", "effect": "another"}
    return deck


DEFAULT_TAOIST_DECK = {"red": {"colour": "red", "count": 40},
                       "blue": {"colour": "blue", "count": 40}}
DEFAULT_SEALS = [3] * 7

KEYS = (
    # from the draft
    Key("rules.start_hand", Integer(0, 30), 4, "Taoist cards dealt to each player at the start",
        balance_knob=True, state=True),
    Key("rules.start_spirit", Integer(0, 60), 4, "spirit power each player starts with",
        balance_knob=True, state=True),
    Key("rules.draw", Integer(0, 10), 2, "Taoist cards drawn in the draw phase",
        balance_knob=True, state=True),
    Key("rules.card_cost", Integer(1, 20), 2, "spirit power per extra Taoist card bought in the "
        "day", balance_knob=True, state=True),
    Key("rules.king_draw", Integer(0, 10), 1, "Taoist cards the ghost king draws each night",
        balance_knob=True, state=True),
    # provisional knobs
    Key("rules.reward", Choice(REWARDS), "each",
        "a ghost's reward: \"each\" (each participant gets the card's `reward` entry "
        "for their number) or \"pool\" (the card's `pool` split evenly, the rest one each from "
        "the host on)", balance_knob=True, state=True, provisional=True),
    Key("rules.seal", Choice(SEAL_RULES), "at-end",
        "the seal breaks \"at-end\" (when the game ends, if the ghost king "
        "holds enough lives) or \"at-once\" (the moment it does)",
        balance_knob=True, state=True, provisional=True),
    Key("rules.end", Choice(END_RULES), "deck-empty",
        "the game ends after the turn that empties the ghost deck "
        "(\"deck-empty\") or at the end of that round (\"round\": every player has had as many "
        "turns)", balance_knob=True, state=True, provisional=True),
    Key("rules.possession_penalty", Boolean(), False,
        "a possessed player draws 2 minus its ghosts (never below 0)",
        balance_knob=True, state=True, provisional=True),
    Key("rules.second_artifact", Choice(SECOND_ARTIFACT_RULES), "replaces",
        "a second artifact replaces the first (\"replaces\") or cannot be "
        "played (\"refused\")", state=True, provisional=True),
    Key("rules.exorcisms_per_turn", Integer(1, 8), 1,
        "exorcisms a turn player may host in one night, one after another (the "
        "ghost king: summonings); the draft gives no limit",
        balance_knob=True, state=True, provisional=True),
    Key("rules.host_ghosts", Choice(HOST_GHOSTS_RULES), "any",
        "the host picks any ghost in play (\"any\"), or only one on another player "
        "(\"not-own\")", balance_knob=True, state=True, provisional=True),
    Key("rules.ties", Choice(TIE_RULES), "from-turn-player",
        "a tie for whom a ghost possesses (most spirit power, fewest cards), for "
        "which of several players rises by rule (a) and for most ghosts in rule (b) goes to the "
        "tied player met first going right from the turn player, the turn player first "
        "(\"from-turn-player\"), or to one of them at random (\"random\")",
        state=True, provisional=True),
    Key("rules.ineligible", Choice(INELIGIBLE_RULES), "next-right",
        "a ghost whose rule picks the ghost king or a warded player goes to the next "
        "eligible player to the right (\"next-right\") or is set aside (\"set-aside\")",
        balance_knob=True, state=True, provisional=True),
    Key("rules.king_draw_at", Choice(KING_DRAW_TIMES), "night-start",
        "the ghost king draws its Taoist card(s) at the start of its night "
        "(\"night-start\") or after the haunting, before it may summon (\"after-haunting\")",
        state=True, provisional=True),
    Key("rules.king_reveals", Boolean(), True,
        "the ghost king reveals a ghost-deck card in its night like any turn player "
        "(true), or its night has no haunting (false)",
        balance_knob=True, state=True, provisional=True),
    Key("rules.rise_order", Choice(RISE_ORDERS), "a-first",
        "when both rise rules apply at the end of a turn, rule (a) (3 ghosts) is "
        "checked first (\"a-first\") or rule (b) (the 7th ghost) is (\"b-first\")",
        state=True, provisional=True),
    Key("rules.third", Choice(THIRD_RULES), "three-or-more",
        "rule (a) counts an arrival that brings a player to 3 or more ghosts "
        "(\"three-or-more\") or to exactly 3 (\"exactly-three\")",
        balance_knob=True, state=True, provisional=True),
    Key("rules.seventh", Choice(SEVENTH_RULES), "in-play",
        "rule (b)'s 7th ghost is the first arrival of a turn that brings the ghosts "
        "on players to 7 or more (\"in-play\") or the 7th ghost to possess a player this game "
        "(\"revealed\")", balance_knob=True, state=True, provisional=True),
    Key("rules.participants", Choice(PARTICIPANT_RULES), "counted",
        "a reward's participants are the players whose vote cards were counted, the "
        "host included (\"counted\"), or every player who placed cards, challenged ones "
        "included (\"placed\")", balance_knob=True, state=True, provisional=True),
    Key("rules.look", Choice(LOOK_RULES), "success",
        "the host looks at the possessed player's identity after a success only "
        "(\"success\") or after every exorcism it hosts (\"always\")",
        state=True, provisional=True),
    Key("rules.look_seen_by", Choice(LOOK_AUDIENCES), "host",
        "the host's look is private to it (\"host\") or the identity is shown to "
        "everyone (\"everyone\")", balance_knob=True, state=True, provisional=True),
    Key("rules.failure_reward", Boolean(), False,
        "a failed exorcism or summoning pays no reward (false) or pays its "
        "participants the ghost's reward too (true)",
        balance_knob=True, state=True, provisional=True),
    Key("rules.summon_reward", Boolean(), True,
        "a successful summoning pays the ghost king the ghost's reward (true) or "
        "nothing (false)", balance_knob=True, state=True, provisional=True),
    Key("rules.risen_ghosts", Choice(RISEN_GHOST_RULES), "stay",
        "the ghosts on a player who rises stay on it and may be exorcised or "
        "summoned (\"stay\"), become the ghost king's lives at once (\"lives\"), or are "
        "set aside (\"discarded\")", balance_knob=True, state=True, provisional=True),
    Key("rules.day_order", Choice(DAY_ORDERS), "buy-first",
        "the day buys cards first, then sets an artifact and plays other cards "
        "(\"buy-first\"), or sets an artifact and plays other cards before it buys "
        "(\"cards-first\")", state=True, provisional=True),
    Key("rules.vote_limit", Integer(1, MAX_VOTE), MAX_VOTE,
        f"the most cards of each colour one voter may place in one vote (at most "
        f"{MAX_VOTE}: the decision's encoding)", balance_knob=True, state=True, provisional=True),
    Key("rules.card_windows", Choice(CARD_WINDOW_RULES), "own-day",
        "other cards (spells) are played only in their holder's day (\"own-day\"), "
        "or also by every player, from the turn player round, just before and just after each "
        "haunting (\"every-window\": the draft's \"before or after the haunting\")",
        balance_knob=True, state=True, provisional=True),
    Key("rules.king_points", Choice(KING_POINT_RULES), "no-sect",
        "the ghost king's points count for no sect (\"no-sect\") or for the sect "
        "it was dealt (\"former-sect\")", balance_knob=True, state=True, provisional=True),
    Key("ghost_kings.seal", ListOf(Integer(1, 30), 1, MAX_KING_CARDS), DEFAULT_SEALS,
        "the seal value (lives that break the seal) of each ghost-king card; one "
        "card is drawn at random each game", balance_knob=True, provisional=True),
    Key("ghost_mix.requirement_4", AnyOf((Choice(("as-listed",)), Integer(0, MAX_GHOST_CARDS))),
        "as-listed",
        "a sweep knob over the ghost deck: \"as-listed\", or N: the ghosts' requirements are "
        "re-dealt in listed order, N of them (spread evenly) need 4, the others 2 and 3 "
        "alternately, and each ghost's points become its requirement - 1", balance_knob=True),
    Key("taoist_deck", Deck(read_taoist_card, "name = { colour, count, value, play, effect, "
                                              "amount }"),
        DEFAULT_TAOIST_DECK,
        "the Taoist deck by card type: colour (\"red\" or \"blue\"), count, vote "
        "value (1), play (\"vote\", \"artifact\" or \"spell\"), effect (artifact: \"ward\", "
        "\"spirit\", \"draw\"; spell: \"spirit\", \"draw\") and amount (1)",
        default_text="40 red and 40 blue vote cards of value 1", provisional=True),
    Key("ghost_deck", Deck(read_ghost_card, "name = { kind, count, colour, requirement, points, "
                                            "possess, reward, pool } or an event { kind = "
                                            "\"event\", effect, amount }"),
        default_ghost_deck(),
        "the ghost deck card by card: a ghost's colour, requirement, points, possess "
        "(\"turn-player\", \"most-spirit\", \"fewest-cards\", \"right-neighbour\"), reward (by "
        "participants) and pool; an event's effect (\"drain\", \"gift\", \"draw\", \"another\") "
        "and amount; count copies (0 removes a card)",
        default_text="the 40 cards of configs/ghostplay/default.toml (32 ghosts, 8 events)",
        provisional=True),
)


# The provisional rule knobs that are plain params fields (`rules.<field>`), in KEYS order.
# The knobs declared `state=True`, as the params carry them (the engine writes them into the state).
Knobs = knobs_record(KEYS, __name__)


# --- the params ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class GhostplayParams:
    players: int
    ghost_deck: tuple = ()           # GhostCard entries, as listed (counts not expanded)
    taoist_deck: tuple = ()          # TaoistCard entries with a count
    seals: tuple = tuple(DEFAULT_SEALS)
    requirement_4: object = "as-listed"
    knobs: Knobs = Knobs()

    def ghost_cards(self) -> list[GhostCard]:
        """The ghost deck card by card (copies expanded, named `name` or `name#k`), after the
        `ghost_mix.requirement_4` knob: card id = position in this list."""
        cards = []
        for entry in self.ghost_deck:
            for copy in range(entry.count):
                name = entry.name if entry.count == 1 else f"{entry.name}#{copy + 1}"
                cards.append(GhostCard(name, entry.kind, 1, entry.colour, entry.requirement,
                                       entry.points, entry.possess, entry.reward, entry.pool,
                                       entry.effect, entry.amount))
        if self.requirement_4 != "as-listed":
            ghosts = [i for i, card in enumerate(cards) if card.kind == "ghost"]
            for i, requirement in zip(ghosts, requirements(len(ghosts), self.requirement_4)):
                c = cards[i]
                cards[i] = GhostCard(c.name, c.kind, 1, c.colour, requirement, requirement - 1,
                                     c.possess, c.reward, c.pool)
        return cards

    def taoist_types(self) -> list[TaoistCard]:
        """The Taoist card types in play (count > 0), in listed order: type code = position."""
        return [card for card in self.taoist_deck if card.count > 0]

    @property
    def identities(self) -> tuple[int, int, int]:
        return IDENTITIES[self.players]


def load_params(values: dict, ctx) -> GhostplayParams:
    """The params of validated config values; checks what involves several keys or cards."""
    players = values["players"]
    # (a default is not passed through its type's check: read the default decks here)
    ghost_deck = _as_cards(values["ghost_deck"], read_ghost_card)
    total = sum(card.count for card in ghost_deck)
    if not 1 <= total <= MAX_GHOST_CARDS:
        ctx.error("ghost_deck", f"{total} cards: a ghost deck holds 1 to {MAX_GHOST_CARDS} cards")
    ghosts = sum(card.count for card in ghost_deck if card.kind == "ghost")
    fours = values["ghost_mix.requirement_4"]
    if fours != "as-listed" and fours > ghosts:
        ctx.error("ghost_mix.requirement_4", f"{fours} requirement-4 ghosts, but the ghost deck "
                                             f"has {ghosts} ghosts")
    taoist = _as_cards(values["taoist_deck"], read_taoist_card)
    types = [card for card in taoist if card.count > 0]
    if len(types) > MAX_TYPES:
        ctx.error("taoist_deck", f"{len(types)} card types: a Taoist deck lists at most "
                                 f"{MAX_TYPES} (with a count above 0)")
    cards = sum(card.count for card in taoist)
    if cards > MAX_TAOIST:
        ctx.error("taoist_deck", f"{cards} cards: a Taoist deck holds at most {MAX_TAOIST}")
    # Votes are made of Taoist cards: a ghost whose colour has none can never be dispelled, and
    # one voter places at most MAX_VOTE cards, so the ghost king (the only voter at a summoning)
    # can never summon a ghost needing more than MAX_VOTE of its best cards of that colour.
    limit = values["rules.vote_limit"]
    best = {colour: max((card.value for card in taoist if card.colour == colour and card.count),
                        default=0) for colour in COLOURS}
    for card in ghost_deck:
        if card.kind != "ghost" or not card.count:
            continue
        if best[card.colour] == 0:
            ctx.error("taoist_deck", f"no {card.colour} card: {card.colour} ghosts (such as "
                                     f"{card.name}) could never be dispelled")
        elif card.requirement > limit * best[card.colour]:
            ctx.error("ghost_deck", f"card {card.name}: requirement {card.requirement} is more than "
                                    f"one voter's {limit} cards reach ({limit} x value "
                                    f"{best[card.colour]} of {card.colour}, rules.vote_limit "
                                    f"{limit}): the ghost king could never summon it")
    return GhostplayParams(
        players=players, ghost_deck=ghost_deck, taoist_deck=taoist,
        seals=tuple(values["ghost_kings.seal"]), requirement_4=fours, knobs=Knobs.read(values))


def default_params(players: int = 6, **changes) -> GhostplayParams:
    """The default setup's params without a config file (for tests and tools), with `changes` to
    its fields or its knobs by name (`seals=(2,)`, `ties="random"`)."""
    from simulator.schema import validate

    def error(key, message):
        raise ValueError(f"{key}: {message}")

    values = validate({}, KEYS, players, error)
    values["players"] = players

    class _Ctx:
        @staticmethod
        def error(key, message):
            raise ValueError(f"{key}: {message}")

    params = load_params(values, _Ctx())
    knobs = {name: value for name, value in changes.items() if name in Knobs._fields}
    fields = {name: value for name, value in changes.items() if name not in knobs}
    return dataclasses.replace(params, knobs=params.knobs._replace(**knobs), **fields)


# --- the caps (declaration.CAPS) ----------------------------------------------------------------
# Bounds the rules give on every game: the kernel checks them (engine.within_cap), so that a loop
# the rules fail to end stops the run with a line naming the game instead of hanging it.
def turn_cap(params: GhostplayParams) -> int:
    """The most turns a game can last: n * ceil(G / (n - 1)) for n players and G ghost-deck
    cards. Every turn reveals a card while any is left, except the ghost king's (rules.king_reveals
    = false), and only one seat is ever the ghost king, so each round of n turns from the first
    player reveals n - 1 cards or more: the deck is empty by the end of round ceil(G / (n - 1)),
    and the game ends then at the latest (rules.end = "round" waits for that round's end)."""
    n = params.players
    cards = sum(card.count for card in params.ghost_deck)
    return n * -(-cards // (n - 1))


def decision_cap(params: GhostplayParams) -> int:
    """The most decisions one turn can ask: S + 2n(E + 1) + E + 4 for n players, S other cards
    (spells) in the Taoist deck and E = rules.exorcisms_per_turn. The day asks 1 buy and at most
    1 artifact. A played other card stays out until the turn ends, so the turn plays at most S
    of them in all, and each series of plays ends with one pass: the day's, and with
    rules.card_windows = "every-window" each player's in each of the 2 windows (1 + 2n). The
    night asks at most E + 1 hosting (or summoning) decisions, and each exorcism n votes and at
    most n - 1 challenges (each voter once, never the host) and a stop (2n)."""
    n, exorcisms = params.players, params.knobs.exorcisms_per_turn
    spells = sum(card.count for card in params.taoist_types() if card.play == "spell")
    return 2 + (spells + 1 + 2 * n) + (exorcisms + 1) + exorcisms * 2 * n


# --- the setup ----------------------------------------------------------------------------------
def setup(params: GhostplayParams, st) -> None:
    """The setup in a fresh state: the identity deck, the decks as tables, the ghost-king cards,
    the rules' numbers, and the run's constants in the observation."""
    taiping, tianshi, evil = params.identities
    identities = [ROLE.taiping] * taiping + [ROLE.tianshi] * tianshi + [ROLE.evil] * evil
    st.identity_deck[:len(identities)] = identities

    types = params.taoist_types()
    st.n_types = len(types)
    st.taoist_size = 0
    for t, card in enumerate(types):
        st.type_colour[t] = COLOURS.index(card.colour)
        st.type_value[t] = card.value
        st.type_play[t] = PLAYS.index(card.play)
        st.type_effect[t] = EFFECTS.index(card.effect)
        st.type_amount[t] = card.amount
        st.type_count[t] = card.count
        st.taoist_size += card.count

    cards = params.ghost_cards()
    st.ghost_size = len(cards)
    for c, card in enumerate(cards):
        st.g_kind[c] = CARD_KINDS.index(card.kind)
        if card.kind == "ghost":
            st.g_colour[c] = COLOURS.index(card.colour)
            st.g_requirement[c] = card.requirement
            st.g_points[c] = card.points
            st.g_possess[c] = POSSESSIONS.index(card.possess)
            reward = list(card.reward) + [card.reward[-1]] * (MAX_REWARD - len(card.reward))
            st.g_reward[c, :] = reward
            st.g_pool[c] = card.pool
        else:
            st.g_colour[c] = -1
            st.g_effect[c] = EVENT_EFFECTS.index(card.effect)
            st.g_amount[c] = card.amount

    st.king_cards = len(params.seals)
    st.king_seal[:len(params.seals)] = params.seals
    st.turn_cap = turn_cap(params)
    st.decision_cap = decision_cap(params)

    obs = st.obs
    obs[OBS.ghost_cards] = st.ghost_size
    obs[OBS.card_kind:OBS.card_kind + MAX_GHOST_CARDS] = -1
    obs[OBS.card_colour:OBS.card_colour + MAX_GHOST_CARDS] = -1
    for c in range(st.ghost_size):
        obs[OBS.card_kind + c] = st.g_kind[c]
        obs[OBS.card_colour + c] = st.g_colour[c]
        obs[OBS.card_requirement + c] = st.g_requirement[c]
        obs[OBS.card_points + c] = st.g_points[c]
    obs[OBS.types] = st.n_types
    for t in range(MAX_TYPES):
        obs[OBS.type_colour + t] = st.type_colour[t] if t < st.n_types else -1
        obs[OBS.type_value + t] = st.type_value[t]
        obs[OBS.type_play + t] = st.type_play[t]
        obs[OBS.type_effect + t] = st.type_effect[t]
        obs[OBS.type_amount + t] = st.type_amount[t]
    obs[OBS.card_cost] = st.card_cost
    obs[OBS.evil_dealt] = params.identities[2]


def actions(params: GhostplayParams) -> int:
    """Every mask has MAX_ACTIONS entries; PASS is the last."""
    return PASS + 1


def _counts(items) -> str:
    counted: dict = {}
    for item in items:
        counted[item] = counted.get(item, 0) + 1
    return ", ".join(f"{k} x{v}" for k, v in sorted(counted.items()))


def dealt_teams(params: GhostplayParams) -> tuple[str, ...]:
    """The sects are dealt at every count; the evil side only where the table deals it (a ghost
    king that rises later joins it, but nobody starts on it)."""
    taiping, tianshi, evil = params.identities
    return tuple(team for team, count in (("taiping", taiping), ("tianshi", tianshi),
                                          ("evil", evil)) if count)


def _toml(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return f'"{value}"' if isinstance(value, str) else str(value)


def changed_settings(params: GhostplayParams) -> list[str]:
    """Every setting of `params` that differs from the default setup, as `key = value` (a changed
    deck as what changed in it): what a trace's header and a summary must say."""
    default = default_params(params.players)
    changed = [f"{key.path} = {_toml(getattr(params.knobs, key.name))}" for key in KEYS
               if key.state and getattr(params.knobs, key.name) != getattr(default.knobs, key.name)]
    if params.seals != default.seals:
        changed.append(f"ghost_kings.seal = {list(params.seals)}")
    if params.requirement_4 != default.requirement_4:
        changed.append(f"ghost_mix.requirement_4 = {_toml(params.requirement_4)}")
    for key, mine, theirs in (("taoist_deck", params.taoist_deck, default.taoist_deck),
                              ("ghost_deck", params.ghost_deck, default.ghost_deck)):
        if mine == theirs:
            continue
        old = {card.name: card for card in theirs}
        new = {card.name: card for card in mine}
        edits = [name for name in new if old.get(name) != new[name]]
        gone = [name for name in old if name not in new or not new[name].count]
        what = ", ".join([f"{name} changed" for name in edits if name in old and new[name].count]
                         + [f"{name} added" for name in edits if name not in old]
                         + [f"{name} removed" for name in gone])
        changed.append(f"{key} edited ({what or 'reordered'})")
    return changed


def describe_setup(params: GhostplayParams) -> dict:
    """Notes a report prints: the identities and every provisional piece of this setup."""
    taiping, tianshi, evil = params.identities
    cards = params.ghost_cards()
    ghosts = [c for c in cards if c.kind == "ghost"]
    events = [c for c in cards if c.kind == "event"]
    types = params.taoist_types()
    special = [t for t in types if t.play != "vote"]
    seals = sorted(set(params.seals))
    notes = {
        "identities": f"{taiping} 太平道 taiping, {tianshi} 天师道 tianshi"
                      + (f", {evil} 邪道 evil" if evil else "") + " (the draft's table)",
        "provisional": (f"PROVISIONAL (config data; the draft does not fix them): the ghost deck, "
                        f"the Taoist deck, the events, the seal value and the end rule below, "
                        f"and {len(PROVISIONAL)} rulings in all (listed in the report and by "
                        f"`fairplay games ghostplay`)"),
        "ghost_deck": (f"provisional: {len(cards)} cards: {len(ghosts)} ghosts (colour "
                       f"{_counts(c.colour for c in ghosts) or 'none'}; requirement "
                       f"{_counts(c.requirement for c in ghosts) or 'none'}; points "
                       f"{_counts(c.points for c in ghosts) or 'none'}; possess "
                       f"{_counts(c.possess for c in ghosts) or 'none'})"
                       + (f" and {len(events)} events ({_counts(c.effect for c in events)})"
                          if events else ", no events")
                       + ("" if params.requirement_4 == "as-listed" else
                          f"; requirements re-dealt with {params.requirement_4} requirement-4 "
                          f"ghosts (ghost_mix.requirement_4)")),
        "taoist_deck": (f"provisional: {sum(t.count for t in types)} cards: "
                        + ", ".join(f"{t.name} {t.count} ({t.colour}, value {t.value}"
                                    + (f", {t.play} {t.effect} {t.amount}" if t.play != "vote"
                                       else "") + ")" for t in types)
                        + ("" if special else "; no artifacts or other cards")),
        "seal": (f"provisional: {len(params.seals)} ghost-king card(s), seal "
                 + "/".join(map(str, seals)) + " lives; the seal breaks "
                 + ("when the game ends" if params.knobs.seal == "at-end" else "at once")),
        "end": ("provisional: the game ends when the ghost deck is empty and the turn ends"
                if params.knobs.end == "deck-empty" else
                "provisional: the game ends at the end of the round that empties the ghost deck"),
        "reward": ("provisional: each participant gets the ghost's reward for their number"
                   if params.knobs.reward == "each" else
                   "provisional: the ghost's pool is split among the participants"),
    }
    if params.knobs.possession_penalty:
        notes["possession"] = "provisional knob: a possessed player draws 2 minus its ghosts"
    if params.knobs.second_artifact == "refused":
        notes["artifact"] = "provisional knob: a second artifact cannot be played"
    changed = changed_settings(params)
    if changed:
        notes["changed"] = "settings changed from the default: " + "; ".join(changed)
    return notes


def provisional_line(params: GhostplayParams | None) -> str:
    """The one line a trace starts with: what in this setup is provisional."""
    if params is None:
        return (f"PROVISIONAL rules (the draft is silent; config data): the decks, the events, "
                f"the seal value, the end rule and {len(PROVISIONAL)} rulings in all "
                f"(`fairplay games ghostplay`)")
    cards = params.ghost_cards()
    ghosts = sum(1 for c in cards if c.kind == "ghost")
    taoist = sum(t.count for t in params.taoist_types())
    seals = "/".join(map(str, sorted(set(params.seals))))
    knobs = params.knobs
    end = "the ghost deck empties" if knobs.end == "deck-empty" else "the round that empties " \
                                                                "the ghost deck ends"
    return (f"PROVISIONAL rules in this game (the draft is silent; config data): ghost deck of "
            f"{len(cards)} cards ({ghosts} ghosts, {len(cards) - ghosts} events), Taoist deck of "
            f"{taoist} cards, seal {seals} lives breaking "
            f"{'when the game ends' if knobs.seal == 'at-end' else 'at once'}, the game ends "
            f"when {end}, reward '{knobs.reward}'; {len(PROVISIONAL)} rulings in all: "
            f"`fairplay games ghostplay`")

