"""The Salem 1692 table the step-by-step view draws (the trace events' marks) agrees with the
trace's own lines, line by line. The lines, private ones included, are parsed here, independently
of the marks: each seat holds its character, then its character and the team its dealt tryals make
it (a seat that takes a Witch joins the witches); it is out from the line of its death, for the
cause the line gives; before it lies one item per card in front of it, as the lines put them there
(a red, green or blue card played on it, the Black Cat, a Scapegoat's move) and take them away (a
Curse, an Alibi, a turn in the Stocks, a discard from in front of it), and one per tryal revealed;
and it learns its tryals as dealt, each tryal it passes or gets, Tituba's look, a hand it receives
or looks through and whom it protected as the constable."""

from __future__ import annotations

import re
from collections import Counter

from simulator.setup import config
from simulator.run import runner
from simulator.games.base import PRIVATE_MARK
from simulator.games.salem.declaration import CARD, FRONT_LABELS, PLACE, TR
from simulator.games.salem.trace import decode_trace

RED = {"Accusation", "Evidence", "Witness", "Alibi as a Witness"}
BLUE = {"Asylum 避難", "Piety 信徒", "Matchmaker 情侶", "Black Cat 黑貓"}
STOCKS = "Stocks 拘留"
STAYS = RED | BLUE | {STOCKS}  # the cards a play leaves in front of its target
REVEALED = "revealed: "
OUT = {"trial": "died at a trial", "night": "killed by the witches at night",
       "confession": "died confessing", "black cat": "died by the Black Cat's reveal",
       "matchmaker": "died with its Matchmaker partner"}

TURN = re.compile(r"^Turn (\d+): seat \d+$")
CHARACTER = re.compile(r"^  seat (\d+) is ([a-z]+(?:-[a-z]+)*)( \(of .*\))?$")
DEALT = re.compile(r"^  seat (\d+) is dealt \d+ tryals face down$")
SLOTS = re.compile(r"^  seat (\d+) is dealt, slot by slot: (.+)$")
JOINS = re.compile(r"^    seat (\d+) joins the witches$")
DIES = re.compile(r"^  † seat (\d+) dies \(([a-z ]+)\), ")
BLACK_CAT = re.compile(r"^  the witches put the Black Cat in front of seat (\d+) ")
CURSE = re.compile(r"^  seat \d+ plays Curse 詛咒 on seat (\d+), discarding its (.+)$")
SCAPEGOAT = re.compile(r"^  seat \d+ plays Scapegoat 嫁禍: the cards in front of seat (\d+) go to "
                       r"seat (\d+)$")
ROBBERY = re.compile(r"^  seat \d+ plays Robbery 搶劫: the hand of seat \d+ go to seat \d+$")
PLAYS = re.compile(r"^  seat \d+ plays (.+) on seat (\d+)$")
SKIPS = re.compile(r"^  seat (\d+) is in the Stocks and skips the turn \((\d+) Stocks left\)$")
ALIBI = re.compile(r"^    the Alibi removes (\d+) x Accusation and (\d+) x Evidence from in front "
                   r"of seat (\d+)$")
DISCARD = re.compile(r"^    to the discard pile from (in front of|the hand of) seat (\d+): (\d+) x "
                     r"(.+)$")
TRYAL = r"(Not a Witch|Witch|Constable)"
REVEALS = {"trials": re.compile(rf"^  TRIAL of seat (\d+): seat \d+ reveals slot \d+: {TRYAL}$"),
           "black cat reveals": re.compile(rf"^  the Black Cat: seat (\d+) reveals slot \d+: "
                                           rf"{TRYAL}"),
           "confessions": re.compile(rf"^  seat (\d+) confesses: reveals {TRYAL} \(slot \d+\)$"),
           "tryals turned up": re.compile(rf"^    seat (\d+)'s slot \d+ is turned up: {TRYAL}$")}
PHIPS = re.compile(r"^  seat \d+ confesses without revealing a tryal \(William Phips\)$")
TAKES = re.compile(r"^    seat (\d+) takes a tryal from seat (\d+)'s slot (\d+) \(into its slot "
                   r"(\d+)\)$")
TAKEN_IS = re.compile(rf"^    nobody else sees: it is {TRYAL}$")
FROM_MIDDLE = re.compile(r"^    seat (\d+) gets a tryal from the middle \(into its slot (\d+)\)$")
MIDDLE_IS = re.compile(rf"^    nobody sees: it is {TRYAL}, seat (\d+)'s slot (\d+)$")
OWN_LOOK = re.compile(r"^  seat (\d+) looks at its (\d+) tryals$")
RECEIVED = re.compile(rf"^  seat (\d+) sees the tryal it (?:takes from seat \d+|gets back from the "
                      rf"middle): {TRYAL}$")
GAVE = re.compile(rf"^  seat (\d+) knows which of its tryals (?:seat \d+ took|went to the middle): "
                  rf"{TRYAL}$")
DECK_LOOK = re.compile(r"^  seat (\d+) looks through the top (\d+) cards of the deck \(Tituba\)$")
HAND_SEEN = re.compile(r"^  seat (\d+) sees the (\d+) card\(s\) it receives from the hand of seat "
                       r"(\d+)$")
DEAD_HAND = re.compile(r"^  seat (\d+) looks through the (\d+) card\(s\) in the hand of seat (\d+) "
                       r"\(John Proctor\)$")
PROTECTS = re.compile(r"^    the constable, seat (\d+), protects seat (\d+)$")


def plain(line: str) -> str:
    text = line.lstrip(" ")
    return line[:len(line) - len(text)] + text.removeprefix(PRIVATE_MARK)


class Table:
    """What the lines so far say of each seat."""

    def __init__(self):
        self.character, self.role, self.out = {}, {}, {}
        self.front: dict[int, Counter] = {}
        self.learned: dict[int, list[str]] = {}
        self.turn = 0
        self.passed = Counter()  # (seat, "gets" or "gives up", tryal) the pass's learns lines tell

    def before(self, seat: int) -> Counter:
        return self.front.setdefault(seat, Counter())

    def learns(self, seat: int, text: str):
        self.learned.setdefault(seat, []).append(text)

    def take(self, seat: int, item: str, count: int, line: str):
        assert self.before(seat)[item] >= count, line
        self.before(seat)[item] -= count

    def pass_tryal(self, giver: int, slot: int, receiver: int, into: int, kind: str):
        self.learns(receiver, f"turn {self.turn}: gets {kind} (into its slot {into})")
        self.learns(giver, f"turn {self.turn}: gives up its {kind} (its slot {slot})")
        self.passed.update([(receiver, "gets", kind), (giver, "gives up", kind)])

    def read(self, line: str, following: str, seen: Counter):
        """Changes the table by one line (`following`: the line after it)."""
        if m := TURN.match(line):
            self.turn = int(m[1])
        elif m := CHARACTER.match(line):
            self.character[int(m[1])] = self.role[int(m[1])] = m[2]
            seen["characters drafted"] += bool(m[3])
        elif m := DEALT.match(line):  # its private line, told with it, gives the kinds
            seat, slots = int(m[1]), SLOTS.match(following)
            assert slots and int(slots[1]) == seat, following
            team = "witch" if "Witch" in slots[2].split(", ") else "town"
            self.role[seat] = f"{self.character[seat]}/{team}"
            self.learns(seat, f"its tryals as dealt: {slots[2]}")
            seen[f"seats dealt a {team} team"] += 1
        elif m := JOINS.match(line):
            self.role[int(m[1])] = f"{self.character[int(m[1])]}/witch"
            seen["conversions"] += 1
        elif m := DIES.match(line):
            self.out[int(m[1])] = OUT[m[2]]
            seen[f"deaths ({m[2]})"] += 1
        elif m := BLACK_CAT.match(line):
            self.before(int(m[1]))["Black Cat 黑貓"] += 1
            seen["black cat placed"] += 1
        elif m := CURSE.match(line):
            assert m[2] in BLUE, line
            self.take(int(m[1]), m[2], 1, line)
            seen["curses"] += 1
        elif m := SCAPEGOAT.match(line):
            source, to = self.before(int(m[1])), self.before(int(m[2]))
            moved = Counter({item: n for item, n in source.items()
                             if not item.startswith(REVEALED)})
            source.subtract(moved)
            to.update(moved)
            seen["scapegoats"] += 1
            seen["scapegoats moving cards"] += sum(moved.values()) > 0
            seen["scapegoats leaving revealed tryals"] += +source != Counter()
        elif ROBBERY.match(line):
            seen["robberies"] += 1
        elif (m := PLAYS.match(line)) and m[1] in STAYS:
            self.before(int(m[2]))[m[1]] += 1
            seen[f"{m[1]} played"] += 1
        elif m := SKIPS.match(line):
            seat = int(m[1])
            self.take(seat, STOCKS, 1, line)
            assert self.before(seat)[STOCKS] == int(m[2]), line
            seen["stocks skips"] += 1
            seen["stocks skips with stocks left"] += int(m[2]) > 0
        elif m := ALIBI.match(line):
            seat = int(m[3])
            self.take(seat, "Accusation", int(m[1]), line)
            self.take(seat, "Evidence", int(m[2]), line)
            seen["alibis"] += 1
            seen["alibis removing evidence"] += int(m[2]) > 0
        elif m := DISCARD.match(line):
            if m[1] == "in front of":  # every card of the kind goes
                seat = int(m[2])
                assert self.before(seat).pop(m[4]) == int(m[3]), line
                seen["discards from the front"] += 1
                seen[f"discards from the front ({'red' if m[4] in RED else 'other'})"] += 1
            else:
                seen["discards from a hand"] += 1
                seen["discards from a hand of a kind lying in front"] += (
                    self.before(int(m[2]))[m[4]] > 0)
        elif PHIPS.match(line):
            seen["confessions without a reveal"] += 1
        elif m := TAKES.match(line):
            kind = TAKEN_IS.match(following)
            assert kind, following
            self.pass_tryal(int(m[2]), int(m[3]), int(m[1]), int(m[4]), kind[1])
            seen["tryals passed to the left"] += 1
        elif m := FROM_MIDDLE.match(line):
            kind = MIDDLE_IS.match(following)
            assert kind, following
            self.pass_tryal(int(kind[2]), int(kind[3]), int(m[1]), int(m[2]), kind[1])
            seen["tryals passed through the middle"] += 1
            seen["tryals got back through the middle"] += int(kind[2]) == int(m[1])
        elif m := OWN_LOOK.match(line):  # learned with the deal
            seat = int(m[1])
            assert self.learned[seat][-1].count(", ") == int(m[2]) - 1, line
            seen["looks at its tryals"] += 1
        elif m := RECEIVED.match(line):  # learned with the pass
            self.passed[int(m[1]), "gets", m[2]] -= 1
            assert self.passed[int(m[1]), "gets", m[2]] >= 0, line
            seen["tryals received"] += 1
        elif m := GAVE.match(line):
            self.passed[int(m[1]), "gives up", m[2]] -= 1
            assert self.passed[int(m[1]), "gives up", m[2]] >= 0, line
            seen["tryals given"] += 1
        elif m := DECK_LOOK.match(line):
            self.learns(int(m[1]), f"turn {self.turn}: looked through the top {m[2]} cards of "
                                   f"the deck (Tituba)")
            seen["tituba looks"] += 1
        elif m := HAND_SEEN.match(line):
            self.learns(int(m[1]), f"turn {self.turn}: saw the {m[2]} card(s) it received from "
                                   f"seat {m[3]}'s hand")
            seen["robbed hands seen"] += 1
        elif m := DEAD_HAND.match(line):
            self.learns(int(m[1]), f"turn {self.turn}: looked through the {m[2]} card(s) in "
                                   f"seat {m[3]}'s hand (John Proctor)")
            seen["dead hands looked through"] += 1
        elif m := PROTECTS.match(line):
            self.learns(int(m[1]), f"turn {self.turn}: protected seat {m[2]} at night")
            seen["protections"] += 1
        for name, pattern in REVEALS.items():
            if m := pattern.match(line):
                self.before(int(m[1]))[REVEALED + m[2]] += 1
                seen[name] += 1

    def check(self, table: list[dict], line: str):
        for seat in table:
            n = seat["seat"]
            assert seat["role"] == self.role.get(n, ""), (line, n, seat["role"])
            assert seat["out"] == self.out.get(n, ""), (line, n, seat["out"])
            assert Counter(seat["front"]) == +self.before(n), (line, n, seat["front"])
            assert seat["learned"] == self.learned.get(n, []), (line, n, seat["learned"])


def check_game(lines: list[str], tables: list[list[dict]], seen: Counter) -> int:
    """Follows the lines and checks every table; returns the lines checked."""
    assert len(lines) == len(tables)
    lines = [plain(line) for line in lines]
    table = Table()
    for line, following, after in zip(lines, lines[1:] + [""], tables):
        table.read(line, following, seen)
        table.check(after, line)
    assert not +table.passed, table.passed  # each seat's learns lines tell its passes
    return len(lines)


# The built-in configs (people-like players), and random players with the silent dead and the
# Conspiracy through the middle (confessions that kill, William Phips, tryals leaving unseen).
CASES = [
    ("salem/default.toml", (), (1, 2), 3),
    ("salem/players-12.toml", (), (1,), 2),
    ("salem/draft-5.toml", (), (1,), 3),
    ("salem", ("variants.dead_silent=true", 'variants.conspiracy="middle"',
               'strategies={all="random"}'), (1,), 3),
]


def test_the_table_agrees_with_the_lines():
    checked, seen = 0, Counter()
    for spec, sets, seeds, games in CASES:
        cfg = config.load(spec, list(sets), None)
        for seed in seeds:
            for game in range(games):
                lines, tables = runner.trace_game_with_tables(cfg, seed, game, private=True)
                checked += check_game(lines, tables, seen)
    assert checked > 9000, checked
    for event in ("characters drafted", "seats dealt a town team", "seats dealt a witch team",
                  "black cat placed", *(f"{card} played" for card in sorted(STAYS)),
                  "stocks skips", "stocks skips with stocks left", "scapegoats",
                  "scapegoats moving cards", "scapegoats leaving revealed tryals", "curses",
                  "robberies", "alibis", "alibis removing evidence", "discards from the front",
                  "discards from the front (red)", "discards from the front (other)",
                  "discards from a hand", "discards from a hand of a kind lying in front",
                  *REVEALS, "confessions without a reveal", *(f"deaths ({cause})" for cause in OUT),
                  "conversions", "tryals passed to the left", "tryals passed through the middle",
                  "tryals got back through the middle",
                  "looks at its tryals", "tryals received", "tryals given", "tituba looks",
                  "robbed hands seen", "dead hands looked through", "protections"):
        assert seen[event] > 0, (event, seen)


def test_no_card_s_name_begins_with_another_s():
    """A discard from in front of a seat clears the items that begin with the card's name."""
    for a in FRONT_LABELS:
        assert not a.startswith(REVEALED)
        assert not any(b != a and b.startswith(a) for b in FRONT_LABELS), a


def test_a_play_row_s_marks_change_the_table_for_its_own_card_only():
    """Rows the games above may not bring: a Robbery's and a Scapegoat's receiving seat is a
    number that is also a blue card's code; a discard from a hand of a kind that lies in front."""
    params = config.load("salem/players-12.toml").params
    asylum, piety = CARD.asylum, CARD.piety  # seats 9 and 10
    rows = [(1, TR.play, 0, 3, asylum, -1), (1, TR.play, 0, 3, CARD.accusation, -1),
            (1, TR.play, 0, 3, CARD.stocks, -1), (1, TR.trial, 0, 3, 0, 1),
            (1, TR.play, 0, 3, CARD.robbery, asylum),          # seat 3 keeps its Asylum
            (1, TR.play, 0, 3, CARD.arson, -1),
            (1, TR.play, 0, 3, CARD.curse, asylum),            # the Asylum goes
            (1, TR.play, 0, 3, CARD.scapegoat, piety),         # the cards go to seat 10
            (1, TR.discards, 10, PLACE.hand, CARD.accusation, 2),   # nothing changes
            (1, TR.discards, 10, PLACE.front, CARD.stocks, 1)]
    _, tables = decode_trace.with_tables(rows, params)
    fronts = [[t[3]["front"], t[10]["front"]] for t in tables[-len(rows):]]
    assert fronts[3] == [["Asylum 避難", "Accusation", STOCKS, "revealed: Not a Witch"], []]
    assert fronts[5] == fronts[4] == fronts[3]
    assert fronts[6] == [["Accusation", STOCKS, "revealed: Not a Witch"], []]
    assert fronts[7] == [["revealed: Not a Witch"], ["Accusation", STOCKS]] == fronts[8]
    assert fronts[9] == [["revealed: Not a Witch"], ["Accusation"]]
