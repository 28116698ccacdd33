"""The trace's declarations: packing and unpacking agree, and the one decoder reads rows by them."""

import importlib
from pathlib import Path

import numpy as np
import pytest

from simulator.games.base import (
    PRIVATE_MARK, Digits, Mark, Packed, TraceEvent, codes, trace_places,
)
from simulator.games import GAMES, game_names
from simulator.games.story import Story, trace_decoder, unpack

LAYOUT = Packed(down=16, up=None)
RISE = Packed(ghosts=64, rule=64, seventh=None)
EVENTS = (
    TraceEvent("round", "Round {round}", value="round"),
    TraceEvent("layout", "  seat {seat} lays {up} up, {down} down", actor="seat", extra=LAYOUT),
    TraceEvent("rise", actor="seat", extra=RISE),
    TraceEvent("altars", "  {life:ranks}", actor="cards",
               value=Digits("life", 16, count="cards")),
    TraceEvent("team", "  witches: {witches}", value=Digits("witches", 2), private=True),
    TraceEvent("card", actor="seat", value="card", gathered=True),
)
TR = codes(EVENTS, "Trace")
PLACE = trace_places(EVENTS)


class ExampleStory(Story):
    def __init__(self, params):
        super().__init__(params)
        self.cards = []

    def header(self):
        return ["header"]

    @staticmethod
    def ranks(ranks):
        return "/".join(map(str, ranks))

    @staticmethod
    def tell_rise(row):
        return [f"  seat {row.seat}: {row.ghosts} ghosts, rule {row.rule}, seventh {row.seventh}"]

    def tell_card(self, row):
        self.cards.append(row.card)
        return []

    def flush(self):
        told = [f"  cards: {self.cards}"] if self.cards else []
        self.cards = []
        return told


decode = trace_decoder(EVENTS, ExampleStory)


def row(code, actor=-1, target=-1, value=0, extra=0, step=1):
    return np.array([[step, code, actor, target, value, extra]], dtype=np.int64)


def test_places_come_from_the_radixes():
    assert PLACE.layout == (1, 16) and PLACE.layout.up == 16
    assert PLACE.rise.rule == 64 and PLACE.rise.seventh == 4096
    assert PLACE.altars.life == 16 and PLACE.team.witches == 2
    assert not hasattr(PLACE, "round")  # nothing packed


@pytest.mark.parametrize("parts", [(3, 0), (0, 7), (15, 1000)])
def test_packed_round_trip(parts):
    down, up = parts
    code = up * PLACE.layout.up + down * PLACE.layout.down
    assert LAYOUT.unpack(code) == {"down": down, "up": up}


def test_packed_top_part_may_be_negative():
    code = 5 + 2 * PLACE.rise.rule - 1 * PLACE.rise.seventh
    assert RISE.unpack(code) == {"ghosts": 5, "rule": 2, "seventh": -1}


def test_digits_round_trip():
    ranks = [3, 1, 12, 1]
    code = sum(r * PLACE.altars.life ** i for i, r in enumerate(ranks))
    assert Digits("life", 16, count="cards").unpack(code, len(ranks)) == ranks
    assert Digits("bits", 2).unpack(0b1011, None) == [1, 1, 0, 1]
    assert Digits("kinds", 4, count="n").unpack(0, 3) == [0, 0, 0]  # zeros count with a count


def test_fields_are_named():
    fields = unpack(EVENTS[TR.layout], row(TR.layout, 2, -1, 0, 3 * 16 + 5)[0].tolist())
    assert fields == {"step": 1, "seat": 2, "down": 5, "up": 3}
    assert fields.seat == 2


def test_decoder_reads_every_kind_of_declaration():
    rows = np.concatenate([
        row(TR.round, value=4), row(TR.card, 0, value=7), row(TR.card, 1, value=8),
        row(TR.layout, 2, extra=3 * 16 + 5), row(TR.rise, 1, extra=5 + 64 - 4096),
        row(TR.altars, 2, value=2 + 16 * 9), row(TR.team, value=0b101), row(TR.card, 0, value=1),
    ])
    assert decode(rows, None) == [
        "header", "Round 4", "  cards: [7, 8]", "  seat 2 lays 3 up, 5 down",
        "  seat 1: 5 ghosts, rule 1, seventh -1", "  2/9", f"  {PRIVATE_MARK}witches: [1, 0, 1]",
        "  cards: [1]",
    ]


def test_a_sentence_is_declared_once():
    with pytest.raises(ValueError, match="round"):
        trace_decoder((TraceEvent("round"),), Story)  # neither `says` nor tell_round
    with pytest.raises(ValueError, match="rise"):
        trace_decoder((TraceEvent("rise", "says too"),), ExampleStory)  # both


def test_a_sentence_names_only_declared_fields_and_renderers():
    with pytest.raises(ValueError, match="seats"):
        trace_decoder((TraceEvent("round", "Round {seats}", value="round"),), Story)
    with pytest.raises(ValueError, match="renderer"):
        trace_decoder((TraceEvent("round", "Round {round:roman}", value="round"),), Story)
    with pytest.raises(ValueError, match="repeat"):
        trace_decoder((TraceEvent("round", "{round}", actor="round", value="round"),), Story)


def test_packed_parts_need_radixes():
    with pytest.raises(ValueError):
        Packed(low=None, high=None)


# --- the table the step-by-step view draws ------------------------------------------------------
TABLE_EVENTS = (
    TraceEvent("deal", "  seat {seat} is dealt {role}", actor="seat", value="role",
               table=(Mark("role", "seat", "role {role}"),)),
    TraceEvent("dies", "  seat {seat} dies", actor="seat",
               table=(Mark("out", "seat", "dead"), Mark("taken", "seat", "a badge"))),
    TraceEvent("badge", "  seat {seat} takes the badge", actor="seat",
               table=(Mark("front", "seat", "a badge"),)),
    TraceEvent("peek", "  seat {seat} peeks at seat {other}", actor="seat", target="other",
               table=(Mark("learns", "seat", "seat {other} peeked at"),)),
    TraceEvent("revived", "  seat {seat} is revived", actor="seat",
               table=(Mark("back", "seat"),)),
)
TT = codes(TABLE_EVENTS, "Table")


class Players:
    players = 3


def test_the_table_follows_the_marks_line_by_line():
    rows = np.concatenate([row(TT.deal, 0, value=4), row(TT.deal, 1, value=5),
                           row(TT.badge, 1), row(TT.peek, 0, 1), row(TT.dies, 1),
                           row(TT.revived, 1), row(TT.deal, 7, value=1)])  # seat 7: not seated
    decoder = trace_decoder(TABLE_EVENTS, Story)
    lines, tables = decoder.with_tables(rows, Players())
    assert lines == decoder(rows, Players()) and len(tables) == len(lines) == 7
    assert [s["role"] for s in tables[1]] == ["role 4", "role 5", ""]
    assert tables[2][1]["front"] == ["a badge"] and tables[1][1]["front"] == []
    assert tables[3][0]["learned"] == ["seat 1 peeked at"]
    assert tables[4][1]["out"] == "dead" and tables[4][1]["front"] == []  # the badge is taken
    assert tables[5][1]["out"] == "" and tables[6] == tables[5]


def test_a_mark_names_a_kind_and_the_event_s_own_fields():
    with pytest.raises(ValueError, match="one of"):
        Mark("vanishes", "seat")
    with pytest.raises(ValueError, match="seat field"):
        trace_decoder((TraceEvent("dies", "x", actor="seat", table=(Mark("out", "who"),)),), Story)
    with pytest.raises(ValueError, match="cause"):
        trace_decoder((TraceEvent("dies", "x", actor="seat",
                                  table=(Mark("out", "seat", "{cause}"),)),), Story)


class CardStory(Story):
    @staticmethod
    def card(c):
        return f"card {c}" if c >= 0 else ""  # no card: no item


CARD_EVENTS = (
    TraceEvent("lays", "  seat {seat} lays {count} of card {card}", actor="seat", value="card",
               extra="count", table=(Mark("front", "seat", "{card:card}", times="count"),)),
    TraceEvent("discards", "  seat {seat} discards card {card}", actor="seat", value="card",
               table=(Mark("taken", "seat", "{card:card} face down", otherwise="{card:card}"),)),
    TraceEvent("hides", "  seat {seat} hides card {card}", actor="seat", value="card",
               table=(Mark("front", "seat", "{card:card} face down"),)),
    TraceEvent("sweeps", "  seat {seat} sweeps its face-down cards", actor="seat",
               table=(Mark("clear", "seat", "card", times="count"),), extra="count"),
    TraceEvent("collect", "  all cards of seat {seat} are collected", actor="seat",
               table=(Mark("clear", "seat"),)),
    TraceEvent("spends", "  seat {seat} plays card {card}", actor="seat", value="card",
               table=(Mark("taken", "seat", "card 6", only=("card", 1, 2)),)),
    TraceEvent("moves", "  the cards before seat {seat} but the face-down ones go to seat {to}",
               actor="seat", target="to", table=(Mark("clear", "seat", keep="card 5", to="to"),)),
)
TC = codes(CARD_EVENTS, "Cards")


def test_marks_count_take_a_fallback_clear_and_skip_empty_items():
    rows = np.concatenate([
        row(TC.lays, 0, value=3, extra=2),   # two card-3 items
        row(TC.lays, 0, value=4, extra=0),   # none
        row(TC.lays, 0, value=-1, extra=1),  # no card: no item
        row(TC.hides, 0, value=3),
        row(TC.discards, 0, value=3),        # the face-down one goes first
        row(TC.discards, 0, value=3),        # then a face-up one
        row(TC.hides, 1, value=5), row(TC.lays, 1, value=6, extra=1),
        row(TC.sweeps, 1, extra=0),          # applied no times: nothing goes
        row(TC.sweeps, 1, extra=1),          # the items that begin with "card" go
        row(TC.lays, 0, value=7, extra=1),
        row(TC.collect, 0),
        row(TC.hides, 1, value=5), row(TC.lays, 1, value=6, extra=2),
        row(TC.moves, 1, 0),                 # all but "card 5 ..." move to seat 0
        row(TC.spends, 0, value=3),          # card 3: not one the mark is for
        row(TC.spends, 0, value=2)])         # card 2: a card 6 goes
    _, tables = trace_decoder(CARD_EVENTS, CardStory).with_tables(rows, Players())
    fronts = [[t[0]["front"], t[1]["front"]] for t in tables]
    assert fronts[0] == [["card 3", "card 3"], []]
    assert fronts[1] == fronts[2] == fronts[0]
    assert fronts[3][0] == ["card 3", "card 3", "card 3 face down"]
    assert fronts[4][0] == ["card 3", "card 3"]
    assert fronts[5][0] == ["card 3"]
    assert fronts[7][1] == ["card 5 face down", "card 6"] == fronts[8][1]
    assert fronts[9][1] == []
    assert fronts[10][0] == ["card 3", "card 7"] and fronts[11][0] == []
    assert fronts[14] == [["card 6", "card 6"], ["card 5 face down"]] == fronts[15]
    assert fronts[16][0] == ["card 6"]


def test_a_mark_s_count_and_fallback_are_checked():
    with pytest.raises(ValueError, match="counts by"):
        trace_decoder((TraceEvent("lays", "x", actor="seat",
                                  table=(Mark("front", "seat", "c", times="n"),)),), Story)
    with pytest.raises(ValueError, match="`otherwise` is for `taken`"):
        Mark("front", "seat", "c", otherwise="d")
    with pytest.raises(ValueError, match="are for `clear`"):
        Mark("taken", "seat", "c", to="other")
    with pytest.raises(ValueError, match="applies by"):
        trace_decoder((TraceEvent("spends", "x", actor="seat",
                                  table=(Mark("taken", "seat", "c", only=("card", 1)),)),), Story)
    with pytest.raises(ValueError, match="is \\(field, value"):
        Mark("taken", "seat", "c", only=("card",))
    with pytest.raises(ValueError, match="moves them to"):
        trace_decoder((TraceEvent("moves", "x", actor="seat",
                                  table=(Mark("clear", "seat", to="other"),)),), Story)
    with pytest.raises(ValueError, match="renderer"):
        trace_decoder((TraceEvent("lays", "x", actor="seat", value="card",
                                  table=(Mark("front", "seat", "{card:nowhere}"),)),), Story)


@pytest.mark.parametrize("name", game_names(listed_only=True))
def test_every_game_declares_its_table_and_checks_it_against_its_lines(name):
    """`fairplay serve` draws each listed game's table: its events give roles and lay items or
    knowledge, and the game's own test compares the table with its trace's lines."""
    events = importlib.import_module(f"{GAMES[name]}.declaration").TRACE_EVENTS
    kinds = {mark.kind for event in events for mark in event.table}
    assert "role" in kinds and kinds & {"front", "learns"}, kinds
    assert (Path(__file__).parent / f"test_{name}_table.py").is_file()


def test_a_count_of_votes_reads_as_a_person_writes_it():
    from simulator.games.story import Story

    assert [Story.votes(n) for n in (0, 1, 2)] == ["0 votes", "1 vote", "2 votes"]
