"""How a Chenghuang trace reads: the sentences that need logic; TRACE_EVENTS declares the rest.
The deal rows of a round are gathered into one line per seat."""

from __future__ import annotations

from simulator.games.story import Story, trace_decoder

from .declaration import CHOSEN, END, FACE_DOWN, KIND_LABELS, KINDS, ROLES, TIES, TRACE_EVENTS


def _kind(k: int) -> str:
    return f"{KIND_LABELS[k]} {KINDS[k]}" if 0 <= k < len(KINDS) else "nothing"


def _scribe_action(a: int, target: bool) -> str:
    if a >= FACE_DOWN:
        return f"{'its own ' if target else 'its '}face-down {_kind(a - FACE_DOWN)}"
    return f"{'a face-up ' if target else 'its face-up '}{_kind(a)}"


class ChenghuangStory(Story):
    def __init__(self, params):
        super().__init__(params)
        self.dealt: dict[int, list[str]] = {}

    kind = staticmethod(_kind)

    @staticmethod
    def item(k: int) -> str:
        """A card's table item; none ("") where there was no card."""
        return _kind(k) if 0 <= k < len(KINDS) else ""

    @staticmethod
    def scribed(a: int) -> str:
        """The table item of the card 文判 slides (a scribe action: face up, or face down)."""
        return f"{_kind(a - FACE_DOWN)} (face down)" if a >= FACE_DOWN else _kind(a)

    @staticmethod
    def role(r: int) -> str:
        return f"{ROLES[r].label} {ROLES[r].name}"

    @staticmethod
    def tie(t: int) -> str:
        return TIES[t]

    def tell_deal(self, row):
        self.dealt.setdefault(row.seat, []).append(f"{row.count}x {_kind(row.card)}")
        return []

    def flush(self):
        lines = [f"  deal: seat {s} is dealt {', '.join(cards)}"
                 for s, cards in sorted(self.dealt.items())]
        self.dealt.clear()
        return lines

    def tell_captain(self, row):
        how = "chosen at random" if row.how == CHOSEN.random else "lowest score last round"
        return f"  captain: seat {row.captain} ({how})"

    def tell_gan(self, row):
        back = f", returns {_kind(row.returned)} to the pile" if row.returned >= 0 else ""
        return f"  甘將軍 seat {row.seat} draws from the pile, keeps {_kind(row.kept)} face down{back}"

    def tell_scribe(self, row):
        return (f"  文判 seat {row.seat} slides {_scribe_action(row.slid, False)} under "
                f"{_scribe_action(row.under, True)}: it now counts as {_kind(row.counts_as)}")

    def tell_accused(self, row):
        tie = f", a {row.tied}-way tie broken by the captain" if row.tied > 1 else ""
        return f"  accused: seat {row.accused} with {row.votes} votes{tie}"

    def tell_admit(self, row):
        truth = "really the highest" if row.highest else "not the highest"
        return f"  seat {row.accused} {'admits' if row.answer == 1 else 'denies'} ({truth})"

    def tell_reveal(self, row):
        return "  everyone reveals" + (" (showdown)" if row.showdown == 1 else "")

    def tell_theft(self, row):
        if row.card < 0:
            return f"  theft: seat {row.thief} ({row.thefts} 竊盜) has nobody to steal from"
        return (f"  theft: seat {row.thief} ({row.thefts} 竊盜) takes {_kind(row.card)} from seat "
                f"{row.victim} (the victim's choice)")

    def tell_fan(self, row):
        what = ("points off" if self.params is None or self.params.fan_variant == "minus-one"
                else "points stolen")
        return f"  范將軍 seat {row.seat} targets seat {row.target}: {row.points} {what}"

    def tell_winner(self, row):
        how = " after a tie broken by the captain" if row.end == END.captain_tie else ""
        return f"winner: seat {row.seat} with {row.points} points{how}"


decode_trace = trace_decoder(TRACE_EVENTS, ChenghuangStory)
