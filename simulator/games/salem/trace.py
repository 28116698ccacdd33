"""How a Salem trace reads: the sentences that need logic; TRACE_EVENTS declares the rest.

Each row decodes on its own into a sentence of what the table sees and, where a seat privately
learns something (its tryals, its hand, a card drawn, a tryal passed to it, the witches' votes,
the constable's protection, Tituba's arrangement) or nobody sees it (the deck's order, whose
tryal went through the middle), a private line: `fairplay trace --private` shows them, a plain
trace is what the table saw. Consecutive `deck` rows make one deck in its order. The header says
the setup and every setting that differs from the published game.

With the private lines every rule can be checked from the text alone
(tests/test_salem_replay.py does): each tryal's slot, the deck's order after every shuffle and
arrangement, every card that goes to the discard pile and from where, each declined choice.
"""

from __future__ import annotations

from simulator.games.base import private_line
from simulator.games.story import Story, trace_decoder

from .declaration import (
    ALIBI_WITNESS, CARD, CARD_COLOUR, CARDS, CAUSE, CAUSES, CHARACTERS, COLOUR, DECISION,
    DECK_VIEW, DRAWS, END_CONDITIONS, FRONT_LABELS, LEARN, N_CARDS, NIGHT_OUTCOMES, PHIPS, PLACE,
    PROVISIONAL, TEAMS, TOWN, TRACE_EVENTS, TRYAL, TRYAL_LABELS, TURN_ACTIONS, WITCH,
)


def card(k: int) -> str:
    return FRONT_LABELS[k] if 0 <= k < len(FRONT_LABELS) else f"card {k}"


def tryal(k: int) -> str:
    return TRYAL_LABELS[k] if 0 <= k < len(TRYAL_LABELS) else "nothing"


ACTIONS = {"draw": "draw 2 cards", "play": "play cards",
           "parris": "draw from the discard pile (Samuel Parris)",
           "tituba": "arrange the deck, then draw (Tituba)"}

DAWNS = {"died": "dies", "protected": "was protected by the constable",
         "confessed": "confessed and survives", "asylum": "is safe in the Asylum",
         "already_dead": "is already dead"}

STOPS = {
    DECISION.play: "stops playing cards",
    DECISION.parris: "takes no second card from the discard pile (Samuel Parris)",
    DECISION.proctor: "takes no more cards (John Proctor)",
    DECISION.tituba: "leaves the rest of the deck in its order (Tituba)",
    DECISION.confess: "does not confess",
}

# The cards a play leaves in front of its target: red and blue cards, Stocks, an Alibi as a Witness.
STAYS = frozenset([k for k in range(N_CARDS) if CARD_COLOUR[k] in (COLOUR.red, COLOUR.blue)]
                  + [CARD.stocks, ALIBI_WITNESS])

DIED = {CAUSE.trial: "died at a trial", CAUSE.night: "killed by the witches at night",
        CAUSE.confession: "died confessing", CAUSE.black_cat: "died by the Black Cat's reveal",
        CAUSE.matchmaker: "died with its Matchmaker partner"}

DECK_OPENINGS = {
    DECK_VIEW.deal: "the playing cards shuffled for the deal (each seat in turn takes its "
                    "starting hand from the top; the rest and Conspiracy make the draw deck)",
    DECK_VIEW.shuffled: "the draw deck after the shuffle",
    DECK_VIEW.tituba: "the draw deck after Tituba's arrangement",
}


def _deck(view: int, kinds: list[int]) -> list[str]:
    """The deck's order: nobody sees it (Tituba sees what she arranged); the table sees a
    shuffle."""
    seen = "Tituba sees" if view == DECK_VIEW.tituba else "nobody sees"
    public = {DECK_VIEW.deal: "the playing cards are shuffled and each seat in turn is dealt "
                              "its starting hand from the top",
              DECK_VIEW.shuffled: f"the draw deck is shuffled ({len(kinds)} cards, Night at "
                                  f"the bottom)",
              DECK_VIEW.tituba: "Tituba puts the deck back"}[view]
    return [f"  {public}", private_line(f"  {seen}: {DECK_OPENINGS[view]}, top first ({len(kinds)} "
                                   f"cards): " + ", ".join(card(k) for k in kinds))]


class SalemStory(Story):
    """Gathers the deck's rows into one deck in its order, and keeps each seat's character (the
    table's role names it)."""

    def __init__(self, params):
        super().__init__(params)
        self.deck: list[int] = []
        self.view = -1
        self.characters: dict[int, str] = {}

    def header(self):
        return header(self.params)

    card = staticmethod(card)
    tryal = staticmethod(tryal)

    # --- the table's marks (TRACE_EVENTS): each renders one field
    @staticmethod
    def character(code):
        return CHARACTERS[code]

    def character_of(self, seat):
        return self.characters.get(seat, "?")

    @staticmethod
    def team_of(kinds):
        return TEAMS[WITCH if TRYAL.witch in kinds else TOWN]

    @staticmethod
    def tryal_list(kinds):
        return ", ".join(map(tryal, kinds))

    @staticmethod
    def lies(k):
        """A card played that stays in front of its target (else no item)."""
        return card(k) if k in STAYS else ""

    @staticmethod
    def revealed(kind):
        return f"revealed: {tryal(kind)}" if kind >= 0 else ""

    @staticmethod
    def died(cause):
        return DIED[cause]

    @staticmethod
    def tie_broken(tied):
        return ", a tie broken at random" if tied > 1 else ""

    @staticmethod
    def action(code):
        return ACTIONS[TURN_ACTIONS[code]]

    @staticmethod
    def dawn(outcome):
        return DAWNS[NIGHT_OUTCOMES[outcome]]

    @staticmethod
    def seats(bits):
        return ", ".join(str(s) for s, bit in enumerate(bits) if bit) or "none"

    @staticmethod
    def place(where):
        return "the hand of" if where == PLACE.hand else "in front of"

    def tell_deck(self, row):
        told = self.flush() if row.position == 1 else []  # a new view of the deck begins
        self.deck.append(row.card)
        self.view = row.view
        return told

    def flush(self):
        if not self.deck:
            return []
        told, self.deck = _deck(self.view, self.deck), []
        return told

    def tell_character(self, row):
        self.characters[row.seat] = CHARACTERS[row.character]
        offered = (f" (of {CHARACTERS[row.character]} and {CHARACTERS[row.offered]})"
                   if row.offered >= 0 else "")
        return f"  seat {row.seat} is {CHARACTERS[row.character]}{offered}"

    @staticmethod
    def tell_tryals(row):
        return [f"  seat {row.seat} is dealt {row.dealt} tryals face down",
                private_line(f"  seat {row.seat} is dealt, slot by slot: "
                        + ", ".join(tryal(k) for k in row.kinds))]

    @staticmethod
    def tell_draw(row):
        """A card drawn: the table sees a card taken (a black card, which takes effect at once,
        is seen by all); the drawer sees which."""
        why = {"turn": "", "giles_corey": " (Giles Corey's third card)",
               "ann_putnam": " (Ann Putnam)", "rebecca_nurse": " (Rebecca Nurse)"}[DRAWS[row.why]]
        if row.card in (CARD.night, CARD.conspiracy):
            return f"  seat {row.seat} draws {card(row.card)}{why}"
        return [f"  seat {row.seat} draws a card{why}",
                private_line(f"  seat {row.seat} draws {card(row.card)}{why}")]

    @staticmethod
    def tell_play(row):
        a, t, v, x = row.seat, row.target, row.card, row.second
        if v in (CARD.scapegoat, CARD.robbery):  # two players
            what = "the cards in front of" if v == CARD.scapegoat else "the hand of"
            return f"  seat {a} plays {card(v)}: {what} seat {t} go to seat {x}"
        if v == CARD.curse:
            return f"  seat {a} plays {card(v)} on seat {t}, discarding its {card(x)}"
        return f"  seat {a} plays {card(v)} on seat {t}"

    @staticmethod
    def tell_cat_reveal(row):
        chosen = f" (chosen by seat {row.chooser})" if row.chooser != row.holder else ""
        return (f"  the Black Cat: seat {row.holder} reveals slot {row.slot}: "
                f"{tryal(row.kind)}{chosen}")

    @staticmethod
    def tell_death(row):
        team = "silent about their team" if row.team < 0 else f"on the {TEAMS[row.team]} team"
        return f"  † seat {row.seat} dies ({CAUSES[row.cause].replace('_', ' ')}), {team}"

    @staticmethod
    def tell_proctor(row):
        return [f"  seat {row.proctor} takes a card from the hand of seat {row.dead} (John "
                f"Proctor)",
                private_line(f"  seat {row.proctor} takes {card(row.card)} from the hand of seat "
                        f"{row.dead} (John Proctor)")]

    @staticmethod
    def tell_abigail(row):
        what = ("discards the accusations in front of herself" if row.discards else
                "keeps the accusations in front of herself")
        return f"  seat {row.seat} {what} (Abigail Williams)"

    @staticmethod
    def tell_passed(row):
        """A Conspiracy pass: the table sees which slot goes where; the receiver sees the tryal
        (the private learns rows say so); through the middle nobody sees whose tryal each one
        gets."""
        if row.middle:
            return [f"    seat {row.receiver} gets a tryal from the middle (into its slot "
                    f"{row.into})",
                    private_line(f"    nobody sees: it is {tryal(row.kind)}, seat {row.giver}'s slot "
                            f"{row.given}")]
        return [f"    seat {row.receiver} takes a tryal from seat {row.giver}'s slot {row.given} "
                f"(into its slot {row.into})",
                private_line(f"    nobody else sees: it is {tryal(row.kind)}")]

    @staticmethod
    def tell_kill_vote(row):
        cat = " (the Black Cat)" if row.decision == DECISION.black_cat else ""
        return f"    witch seat {row.witch} votes for seat {row.seat}{cat}"

    @staticmethod
    def tell_confess(row):
        if row.slot == PHIPS:
            return f"  seat {row.seat} confesses without revealing a tryal (William Phips)"
        return f"  seat {row.seat} confesses: reveals {tryal(row.kind)} (slot {row.slot})"

    @staticmethod
    def tell_winner(row):
        if row.team < 0:
            return f"No winner: {END_CONDITIONS[row.end].meaning}."
        return f"The {TEAMS[row.team]} team wins ({END_CONDITIONS[row.end].meaning})."

    @staticmethod
    def tell_stop(row):
        line = f"  seat {row.seat} {STOPS[row.decision]}"
        return private_line(line) if row.decision in (DECISION.tituba, DECISION.proctor) else line

    @staticmethod
    def tell_learns(row):
        v, t = row.value, row.about
        what = {
            LEARN.own_tryals: f"looks at its {v} tryals",  # (the deal's private line shows them)
            LEARN.received: (f"sees the tryal it takes from seat {t}: {tryal(v)}" if t >= 0 else
                             f"sees the tryal it gets back from the middle: {tryal(v)}"),
            LEARN.taken: (f"knows which of its tryals seat {t} took: {tryal(v)}" if t >= 0 else
                          f"knows which of its tryals went to the middle: {tryal(v)}"),
            LEARN.deck: f"looks through the top {v} cards of the deck (Tituba)",
            LEARN.robbed_hand: f"sees the {v} card(s) it receives from the hand of seat {t}",
            LEARN.dead_hand: f"looks through the {v} card(s) in the hand of seat {t} (John "
                             f"Proctor)",
        }[row.what]
        return f"  seat {row.seat} {what}"


# The settings a trace's header compares with the published game: (config key, the params'
# knob, its published value).
SETTINGS = (
    ("rules.accusations", "accusations", 7),
    ("rules.starting_hand", "starting_hand", 3),
    ("rules.black_cat_chooser = drawer", "black_cat_chooser", "holder"),
    ("rules.night_resumes_turn", "night_resumes_turn", False),
    ("rules.last_convert_loses", "last_convert_loses", False),
    ("rules.piety = double_threshold", "piety", "no_red"),
    ("rules.tituba_depth", "tituba_depth", 0),
    ("rules.ann_putnam = at_once", "ann_putnam", "end_of_turn"),
    ("rules.ann_putnam_held = at_draw", "ann_putnam_held", "at_reveal"),
    ("rules.john_proctor = blind", "john_proctor", "choose"),
    ("rules.black_draw_replaced", "black_draw_replaced", False),
    ("variants.conspiracy = middle", "conspiracy", "left"),
    ("variants.dead_silent", "dead_silent", False),
)


def changed_settings(params) -> list[str]:
    """Every setting of `params` that differs from the published game, as `key = value`."""
    from .params import PUBLISHED_DECK, PUBLISHED_TRYALS

    changed = []
    for key, field, published in SETTINGS:
        value = getattr(params.knobs, field)
        if value != published:
            changed.append(key if " = " in key else
                           f"{key} = {str(value).lower() if isinstance(value, bool) else value}")
    if params.extra_witch:
        changed.append("variants.extra_witch = true")
    if params.draft:
        changed.append("rules.character_draft: each player keeps 1 of 2 characters")
    for name, count in zip(CARDS, params.deck):
        if count != PUBLISHED_DECK[name]:
            changed.append(f"deck.{name} = {count} (published: {PUBLISHED_DECK[name]})")
    row = PUBLISHED_TRYALS.get(params.players)
    if row is not None:
        published = [row["not_a_witch"], row["witch"] + params.extra_witch,
                     row["constable"]]
        published[0] -= params.extra_witch
        if list(params.tryals) != published:
            changed.append(f"tryals.{params.players} = {'/'.join(map(str, params.tryals))} "
                           f"(published: {'/'.join(map(str, published))})")
    if len(params.characters) != len(CHARACTERS):
        changed.append("characters = " + ", ".join(CHARACTERS[c] for c in params.characters))
    return changed


def header(params) -> list[str]:
    """The setup, the deck's composition and every changed setting."""
    if params is None:
        return [f"Salem 1692: provisional rules ({len(PROVISIONAL)} rulings)"]
    nw, w, c = params.tryals
    deck = ", ".join(f"{count} x {card(k)}" for k, count in enumerate(params.deck) if count)
    return [
        f"Salem 1692: {params.players} players, {params.tryals_each} tryals each ({nw} Not a "
        f"Witch, {w} Witch, {c} Constable), {len(params.characters)} characters in the pool",
        f"  the deck ({sum(params.deck)} cards): {deck}",
        "  settings changed from the published game: "
        + ("; ".join(changed_settings(params)) or "none"),
        f"  provisional: {len(PROVISIONAL)} rulings of this project where the source is silent "
        f"(`fairplay games salem` lists them)",
    ]


decode_trace = trace_decoder(TRACE_EVENTS, SalemStory)
