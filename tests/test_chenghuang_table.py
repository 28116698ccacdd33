"""The Chenghuang table the step-by-step view draws (the trace events' marks) agrees with the
trace's own lines, line by line. The lines are parsed here, independently of the marks, into what
lies before each seat: the 城隍令 card while it is the captain (through its tie-break at the round's
end), the votes cast for it, 武判's named kind, and its cards, face up or "(face down)" (laid out,
甘將軍's draw, 文判's copy, taken from the pile or stolen), all collected when its next role is
dealt. The reveal names no seat, so a face-down card keeps its label; a card taken after it is a
face-up one first. Each seat learns its discard, 甘將軍's draw, 刑具爺's looks and a look through
the pile."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from simulator.setup import config
from simulator.run import runner
from simulator.games.chenghuang.declaration import (
    CARD, HAND, KIND_LABELS, KINDS, LAYOUT, PACKED, TR,
)
from simulator.games.chenghuang.trace import decode_trace

KIND_TEXTS = {f"{label} {kind}" for label, kind in zip(KIND_LABELS, KINDS)}
THEFT = f"{KIND_LABELS[-1]} {KINDS[-1]}"
DOWN = " (face down)"
CAPTAIN_CARD = "城隍令 (captain)"

ROUND = re.compile(r"^== round (\d+) ==$")
ROLE = re.compile(r"^  role: seat (\d+) is (.+)$")
CAPTAIN = re.compile(r"^  captain: seat (\d+) \(")
PICK = re.compile(r"^  draft pick \d+: seat (\d+) keeps (.+) \(pack dealt to seat \d+\)$")
DISCARD = re.compile(r"^  discard: seat (\d+) discards (.+) face down$")
LAYOUT_LINE = re.compile(r"^  layout: seat (\d+) lays (.+): (\d+) face up, (\d+) face down$")
JUDGE = re.compile(r"^  武判 seat (\d+) names (.+) \(holds \d+ of them\)$")
GAN = re.compile(r"^  甘將軍 seat (\d+) draws from the pile, keeps (.+) face down"
                 r"(?:, returns (.+) to the pile)?$")
PEEK = re.compile(r"^  刑具爺 seat (\d+) looks at a face-down card of seat (\d+): (.+)$")
SCRIBE = re.compile(r"^  文判 seat (\d+) slides its (face-up|face-down) (.+) under "
                    r"(a face-up|its own face-down) (.+): it now counts as (.+)$")
VOTE = re.compile(r"^  vote: seat (\d+) votes for seat (\d+)$")
ACCUSED = re.compile(r"^  accused: seat (\d+) with \d+ votes")
ADMIT_DISCARD = re.compile(r"^  seat (\d+) discards (.+) face down$")
REVEAL = re.compile(r"^  everyone reveals")
LOSS = re.compile(r"^  showdown: seat (\d+) was the highest and loses its two most valuable "
                  r"cards: (.+) and (.+)$")
COMPENSATION = re.compile(r"^  showdown: seat (\d+) was not the highest and takes (.+) from the "
                          r"pile$")
HORSE = re.compile(r"^  馬面 seat (\d+) takes (\d+) 竊盜 from the pile$")
THEFT_LINE = re.compile(r"^  theft: seat (\d+) \(\d+ 竊盜\) takes (.+) from seat (\d+) ")
NO_VICTIM = re.compile(r"^  theft: seat \d+ \(\d+ 竊盜\) has nobody to steal from$")
TIE = re.compile(r"^  tie \((.+)\): captain seat (\d+) picks seat \d+$")


def _cards(front: Counter) -> int:
    return sum(count for item, count in front.items()
               if item.removesuffix(DOWN) in KIND_TEXTS)


def _take_shown(front: Counter, kind: str, line: str) -> str:
    """A card taken after the reveal: a face-up item first, else a face-down one."""
    for item in (kind, kind + DOWN):
        if front[item] > 0:
            front[item] -= 1
            return item
    raise AssertionError(f"{line!r}: the seat has no {kind}")


def _check_learned(learned: list[str], expected: list[tuple]) -> None:
    assert len(learned) == len(expected), (learned, expected)
    for text, (round_, *parts) in zip(learned, expected):
        assert text.startswith(f"round {round_}: "), (text, parts)
        for part in parts:
            assert part in text, (text, parts)


@pytest.mark.parametrize("spec", ["chenghuang/default.toml", "chenghuang/overseers.toml",
                                  "chenghuang/players-6.toml"])
def test_the_table_agrees_with_the_lines(spec):
    # random play: its six games reach every event checked below (the default players, which
    # play for value, need more games to slide a face-down card with 文判)
    cfg = config.load(spec, ["strategies.all=random"])
    checked = 0
    seen = Counter()
    for seed in (1, 2):
        for game in range(3):
            lines, tables = runner.trace_game_with_tables(cfg, seed, game)
            assert len(lines) == len(tables) and lines[-1].startswith("winner:")
            n = len(tables[0])
            roles = {}
            front = [Counter() for _ in range(n)]  # what lies before each seat, by the lines
            hand = [Counter() for _ in range(n)]   # the cards held before the layout
            learned = [[] for _ in range(n)]
            round_, gan = 0, None
            for line, table in zip(lines, tables):
                if m := ROUND.match(line):
                    round_, gan = int(m[1]), None
                elif m := ROLE.match(line):
                    s = int(m[1])
                    roles[s] = m[2]
                    front[s], hand[s] = Counter(), Counter()
                elif m := CAPTAIN.match(line):
                    front[int(m[1])][CAPTAIN_CARD] += 1
                    seen["captains"] += 1
                elif m := PICK.match(line):
                    hand[int(m[1])][m[2]] += 1
                elif m := DISCARD.match(line):
                    s = int(m[1])
                    assert sum(hand[s].values()) == HAND and hand[s][m[2]] > 0, line
                    hand[s][m[2]] -= 1
                    learned[s].append((round_, m[2], "pile"))
                elif m := LAYOUT_LINE.match(line):
                    s, kind, up, down = int(m[1]), m[2], int(m[3]), int(m[4])
                    assert hand[s].pop(kind) == up + down, line  # it lays what it holds
                    front[s][kind] += up
                    front[s][kind + DOWN] += down
                    seen["face-up cards laid"] += up
                    seen["face-down cards laid"] += down
                elif m := JUDGE.match(line):
                    front[int(m[1])][f"named {m[2]} (every one turned sideways)"] += 1
                    seen["judges"] += 1
                elif m := GAN.match(line):
                    gan = int(m[1])
                    front[gan][m[2] + DOWN] += 1
                    learned[gan].append((round_, m[2], m[3] or "nothing"))
                    seen["gans"] += 1
                elif m := PEEK.match(line):
                    s, target, kind = int(m[1]), int(m[2]), m[3]
                    assert front[target][kind + DOWN] > 0, line  # it lies there face down
                    learned[s].append((round_, f"seat {target} ", kind))
                    seen["peeks"] += 1
                elif m := SCRIBE.match(line):
                    s, slid, copy = int(m[1]), m[3] + (DOWN if m[2] == "face-down" else ""), m[6]
                    assert front[s][slid] > 0 and m[5] == copy, line
                    front[s][slid] -= 1
                    if m[4] == "its own face-down":
                        assert front[s][copy + DOWN] > 0, line
                    else:
                        assert any(f[copy] > 0 for f in front), line
                    front[s][copy + DOWN] += 1
                    seen[f"文判 slides a {m[2]} card"] += 1
                elif m := VOTE.match(line):
                    front[int(m[2])][f"vote from seat {m[1]}"] += 1
                    seen["votes"] += 1
                elif ACCUSED.match(line):  # every seat's layout, 甘將軍's draw with it
                    for s in range(n):
                        assert _cards(front[s]) == LAYOUT + (s == gan), (line, s)
                elif m := ADMIT_DISCARD.match(line):
                    s, kind = int(m[1]), m[2]
                    if front[s][kind + DOWN] > 0:  # the kernel discards a face-down one first
                        front[s][kind + DOWN] -= 1
                        seen["admit discards face down"] += 1
                    else:
                        assert front[s][kind] > 0, line
                        front[s][kind] -= 1
                        seen["admit discards face up"] += 1
                elif REVEAL.match(line):
                    seen["reveals"] += 1
                    seen["face-down cards at a reveal"] += sum(
                        count for f in front for item, count in f.items() if item.endswith(DOWN))
                elif m := LOSS.match(line):
                    s = int(m[1])
                    for kind in (m[2], m[3]):
                        if kind != "nothing":
                            seen["showdown losses of a face-down card"] += (
                                _take_shown(front[s], kind, line).endswith(DOWN))
                    seen["showdown losses"] += 1
                elif m := COMPENSATION.match(line):
                    s = int(m[1])
                    front[s][m[2]] += 1
                    learned[s].append((round_, "pile"))
                    seen["compensations"] += 1
                elif m := HORSE.match(line):
                    front[int(m[1])][THEFT] += int(m[2])
                    seen["馬面 takes"] += int(m[2]) > 0
                elif m := THEFT_LINE.match(line):
                    thief, kind, victim = int(m[1]), m[2], int(m[3])
                    _take_shown(front[victim], kind, line)
                    front[thief][kind] += 1
                    seen["thefts"] += 1
                elif NO_VICTIM.match(line):
                    seen["thieves with nobody to steal from"] += 1
                elif m := TIE.match(line):  # at the round's end, still the old captain
                    assert front[int(m[2])][CAPTAIN_CARD] == 1, line
                    seen[f"{m[1]} ties"] += 1

                for seat in table:
                    s = seat["seat"]
                    assert seat["role"] == roles.get(s, ""), (line, s)
                    assert seat["out"] == "", (line, s)
                    assert Counter(seat["front"]) == +front[s], (line, s, seat["front"])
                    _check_learned(seat["learned"], learned[s])
                checked += 1
            assert sum(f[CAPTAIN_CARD] for f in front) == 1
    assert checked > 1200, checked
    for event in ("captains", "face-up cards laid", "face-down cards laid", "judges", "gans",
                  "peeks", "文判 slides a face-up card", "文判 slides a face-down card", "votes",
                  "admit discards face down", "admit discards face up", "reveals",
                  "face-down cards at a reveal", "showdown losses",
                  "showdown losses of a face-down card", "compensations", "thefts",
                  "vote ties", "theft ties", "captain ties"):
        assert seen[event] > 0, (event, seen)
    if spec != "chenghuang/default.toml":  # the advanced pool's 馬面
        assert seen["馬面 takes"] > 0, seen


def test_a_row_without_a_card_puts_no_item():
    """Rows the games above rarely or never bring: a thief with nobody to steal from, a showdown
    loss of a seat short of a card (-1: no card)."""
    params = config.load("chenghuang/players-3.toml").params
    killing = CARD.killing
    rows = [(1, TR.round, -1, -1, 1, 0), *[(1, TR.role, s, -1, s, 0) for s in range(3)],
            (1, TR.captain, 0, -1, 0, 0),
            (1, TR.layout, 1, -1, killing, PACKED.layout.up + PACKED.layout.down),
            (1, TR.reveal, -1, -1, 1, 0),
            (1, TR.showdown_loss, 1, -1, killing, -1),
            (1, TR.theft, 2, -1, -1, 1)]
    lines, tables = decode_trace.with_tables(rows, params)
    assert lines[-1] == "  theft: seat 2 (1 竊盜) has nobody to steal from"
    assert [seat["front"] for seat in tables[-1]] == [
        [CAPTAIN_CARD], ["殺生 killing (face down)"], []]
