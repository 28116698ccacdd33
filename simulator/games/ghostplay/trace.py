"""How a Ghost Play trace reads: the sentences that need logic; TRACE_EVENTS declares the rest.

The first line says which rules of this setup are provisional (the draft is silent on them; they
are config data); then every row is one sentence, and decodes on its own. Cards are named as the
config names them.
"""

from __future__ import annotations

from simulator.games.base import private_line
from simulator.games.story import Story, trace_decoder

from .declaration import (
    DECISION, END, END_CONDITIONS, EVENT_EFFECTS, RISE, ROLES, TEAMS, TRACE_EVENTS, WINDOWS,
)
from .params import changed_settings, provisional_line

_DECLINED = {DECISION.exorcise: "hosts no exorcism", DECISION.summon: "summons nothing",
             DECISION.challenge: "stops challenging", DECISION.artifact: "sets no artifact",
             DECISION.spell: "plays no other card"}


class GhostplayStory(Story):
    def header(self):
        lines = [provisional_line(self.params)]
        if self.params is not None:  # every setting that differs from the default setup
            lines += [f"setup: changed setting: {line}" for line in changed_settings(self.params)]
        return lines

    @staticmethod
    def identity(code: int) -> str:
        return f"{ROLES[code].label} {ROLES[code].name}" if 0 <= code < len(ROLES) else "?"

    def ghost(self, card: int) -> str:
        cards = self.params.ghost_cards() if self.params is not None else []
        if 0 <= card < len(cards):
            c = cards[card]
            return f"{c.name} ({c.describe()})"
        return f"card {card}"

    def ghost_name(self, card: int) -> str:
        """A ghost-deck card by its name alone, for the table."""
        cards = self.params.ghost_cards() if self.params is not None else []
        return cards[card].name if 0 <= card < len(cards) else f"card {card}"

    @staticmethod
    def risen_life(to_lives: int) -> str:
        """A ghost on the risen seat that became a life (rules.risen_ghosts = "lives"); else none."""
        return "life: a ghost that possessed it" if to_lives == 1 else ""

    @staticmethod
    def seen_by(public: int) -> str:
        return ", shown to everyone" if public else ""

    def type(self, t: int) -> str:
        types = self.params.taoist_types() if self.params is not None else []
        if 0 <= t < len(types):
            c = types[t]
            what = c.play if c.play == "vote" else f"{c.play}: {c.effect} {c.amount}"
            return f"{c.name} ({c.colour}, value {c.value}, {what})"
        return f"card type {t}"

    @staticmethod
    def effect(code: int) -> str:
        return EVENT_EFFECTS[code] if 0 <= code < len(EVENT_EFFECTS) else "?"

    @staticmethod
    def tell_king_card(row):
        return (f"setup: ghost-king card {row.card + 1} is the candidate ghost king: its seal "
                f"breaks with {row.seal} lives")

    @staticmethod
    def tell_turn(row):
        return f"== turn {row.turn}: seat {row.seat}" + (" (the ghost king) ==" if row.king
                                                         else " ==")

    @staticmethod
    def tell_draw(row):
        gained = f" (its artifact gives {row.gained} spirit power)" if row.gained else ""
        return f"  draw: seat {row.seat} draws {row.drawn} Taoist card(s){gained}"

    @staticmethod
    def tell_buy(row):
        if row.bought == 0:
            return f"  day: seat {row.seat} buys nothing ({row.spirit} spirit power)"
        return (f"  day: seat {row.seat} buys {row.bought} Taoist card(s) with spirit power "
                f"({row.spirit} left)")

    def tell_artifact(self, row):
        replaced = f", replacing {self.type(row.replaced)}" if row.replaced >= 0 else ""
        return (f"  day: seat {row.seat} sets the artifact {self.type(row.type)} in front of "
                f"itself{replaced}")

    def tell_spell(self, row):
        window = WINDOWS[row.window] if row.window else "day"
        return f"  {window}: seat {row.seat} plays {self.type(row.type)}"

    @staticmethod
    def tell_challenge(row):
        if row.negative == 0:
            return (f"    challenge: seat {row.host} challenges seat {row.voter}: {row.positive} "
                    f"positive, no negative -> the exorcism fails")
        return (f"    challenge: seat {row.host} challenges seat {row.voter}: {row.positive} "
                f"positive, {row.negative} negative -> seat {row.voter}'s cards are discarded")

    @staticmethod
    def tell_shown(row):
        how = ("discarded unseen (the exorcism failed)", "shuffled into the count",
               "shown by the challenge, then discarded (the exorcism failed)")[row.how]
        line = (f"    seat {row.voter}'s vote: {row.positive} positive, {row.negative} negative "
                f"(vote value), {how}")
        # only a challenge shows whose votes are whose; otherwise each voter alone knows its own
        return line if row.how == 2 else private_line(line)

    @staticmethod
    def tell_count(row):
        return (f"    count: net {row.positive - row.negative} ({row.positive} positive, "
                f"{row.negative} negative, shuffled) against requirement {row.requirement}: "
                + ("dispelled" if row.won else "the ghost stays"))

    def tell_look(self, row):
        if row.public:  # rules.look_seen_by = "everyone"
            return (f"    look: seat {row.host} looks at seat {row.seat}'s identity, shown to "
                    f"everyone: {self.identity(row.role)}")
        return private_line(f"    look: seat {row.host} looks at seat {row.seat}'s identity: "
                       f"{self.identity(row.role)}")

    def tell_rise(self, row):
        how = ("rule (a): possessed by 3 ghosts, none dispelled this turn" if row.rule == RISE.three
               else f"rule (b): the 7th ghost, {self.ghost(row.seventh - 1)}, was not "
                    f"dispelled; most ghosts")
        return (f"  RISE: seat {row.seat} ({self.identity(row.role)}) becomes the ghost king by "
                f"{how} ({row.ghosts} ghosts on it)")

    @staticmethod
    def tell_end(row):
        if row.end in (END.seal, END.seal_at_once):
            return (f"END: the seal breaks ({row.taiping} lives, seal {row.tianshi}): the ghost "
                    f"king and the evil path win")
        if row.team < 0:
            return (f"END: {END_CONDITIONS[END.tie].meaning} (taiping {row.taiping}, tianshi "
                    f"{row.tianshi})")
        return (f"END: {TEAMS[row.team]} wins on ghost points (taiping {row.taiping}, tianshi "
                f"{row.tianshi})")

    @staticmethod
    def tell_risen_ghosts(row):
        where = "become the ghost king's lives" if row.to_lives == 1 else "are set aside"
        return f"  the {row.moved} ghost(s) on seat {row.seat} {where} ({row.lives} lives)"

    @staticmethod
    def tell_declined(row):
        indent = "    " if row.decision == DECISION.challenge else "  "
        return f"{indent}seat {row.seat} passes: {_DECLINED[row.decision]}"

    def tell_seat_at_end(self, row):
        artifact = self.type(row.artifact) if row.artifact >= 0 else "none"
        return (f"  end of turn: seat {row.seat} has {row.spirit} spirit power, {row.cards} "
                f"card(s), {row.ghosts} ghost(s), {row.points} point(s), artifact {artifact}")


decode_trace = trace_decoder(TRACE_EVENTS, GhostplayStory)
