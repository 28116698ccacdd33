"""The Vita Mors table the step-by-step view draws (the trace events' marks) agrees with the
trace's own lines, line by line: each seat holds the faction its deal line gave it, is never out,
has its feather until its line says it discards it, has the Reaper exactly while the lines say so,
has before it each faction report it made and, once revealed, its faction, and knows what its
lines say the night (the jesters' speaker) and its spells showed it. The lines are parsed here,
independently of the marks."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from simulator.setup import config
from simulator.run import runner
from simulator.games.base import is_private_line

FEATHER, REAPER = "死神之羽 Death's Feather", "the Reaper"
P = r"  \(private\) "
DEALT = re.compile(r"^  seat (\d+) draws a faction card and a character card$")
FACTION = re.compile(rf"^{P}seat (\d+): \S+ (exile|jester), holds ")
START = re.compile(r"^  seat (\d+) is the starting player and takes the Reaper ")
PASSES = re.compile(r"^  the Reaper passes to seat (\d+)$")
TURN = re.compile(r"^Turn (\d+): seat (\d+) is the sacrificer$")
SPEAKER = re.compile(rf"^{P}the jesters are seats .*; seat (\d+) speaks for them$")
KEEP = re.compile(rf"^{P}the jesters keep (.+) and discard (.+) face down$")
PUT = re.compile(rf"^{P}the jesters put (.+) in place of the scythe at position (\d+) \(under ")
ASIDE = re.compile(rf"^{P}the jesters keep (.+) aside$")
PROPOSES = re.compile(r"^  seat (\d+) discards its feather: ")
DECLINES = re.compile(r"^  seat (\d+) keeps its feather \(no spell\)$")
GAZE = re.compile(r"^  seat (\d+) looks at seat (\d+)'s card in secret$")
GAZE_SEES = re.compile(rf"^{P}seat (\d+) sees (rank \d+|no card)$")
PEEK = re.compile(r"^  seat (\d+) looks at seat (\d+)'s faction card in secret$")
PEEK_SEES = re.compile(rf"^{P}seat (\d+) sees seat (\d+) is (an? (?:exile|jester))$")
REPORT = re.compile(r"^  seat (\d+) says seat (\d+) is (an? (?:exile|jester))$")
REVEAL = re.compile(r"^  seat (\d+) voted yes and reveals: (exile|jester)$")

# (config, overrides, seed, events that must occur in its first 8 games): the built-in configs
# (novice and expert, which adds the keep; 5 to 10 players), and random players who may keep a
# scheme aside (rules.jesters_swap = "choose") and cast more spells.
COMMON = ("deals", "turns", "passes", "feathers", "schemes", "reveals")
CASES = (
    ("vitamors/default.toml", (), 2, COMMON + ("gazes",)),
    ("vitamors/players-5.toml", (), 1, COMMON + ("gazes",)),
    ("vitamors/players-10.toml", (), 1, COMMON + ("gazes",)),
    ("vitamors/expert.toml", (), 2, COMMON + ("keeps", "gazes", "peeks", "reports")),
    ("vitamors/expert-8.toml", (), 3, COMMON + ("keeps", "gazes", "peeks", "reports")),
    ("vitamors/expert-8.toml", ("strategies.all=random", "rules.jesters_swap=choose"), 1,
     COMMON + ("keeps", "kept aside", "gazes", "peeks")),
)


def check_game(lines, tables, seen):
    """Walks one game's lines (private ones included), asserting each line's table; returns the
    lines checked."""
    assert len(lines) == len(tables) and tables
    players = len(tables[0])
    roles, front = {}, {n: Counter() for n in range(players)}
    learned = {n: [] for n in range(players)}
    reaper, speaker, turn = None, None, None
    for i, line in enumerate(lines):
        following = lines[i + 1] if i + 1 < len(lines) else ""
        if m := DEALT.match(line):  # its faction is the next (private) line; one row tells both
            f = FACTION.match(following)
            assert f and f[1] == m[1], (line, following)
            roles[int(m[1])] = f[2]
            front[int(m[1])][FEATHER] += 1
            seen["deals"] += 1
        if m := START.match(line):
            reaper = int(m[1])
            front[reaper][REAPER] += 1
        if m := PASSES.match(line):
            assert reaper is not None and int(m[1]) == (reaper + 1) % players, line
            front[reaper][REAPER] -= 1
            reaper = int(m[1])
            front[reaper][REAPER] += 1
            seen["passes"] += 1
        if m := TURN.match(line):
            turn = int(m[1])
            assert int(m[2]) == reaper, line  # the sacrificer holds the Reaper
            seen["turns"] += 1
        if m := SPEAKER.match(line):
            speaker = int(m[1])
        if m := KEEP.match(line):
            learned[speaker].append(f"the jesters keep {m[1]}, discard {m[2]}")
            seen["keeps"] += 1
        if m := PUT.match(line):
            learned[speaker].append(f"{m[1]} at position {m[2]}")
            seen["schemes"] += 1
        if m := ASIDE.match(line):
            learned[speaker].append(f"{m[1]} kept aside")
            seen["kept aside"] += 1
        if m := DECLINES.match(line):
            assert front[int(m[1])][FEATHER] == 1, line
        if m := PROPOSES.match(line):
            assert front[int(m[1])][FEATHER] == 1, line
            front[int(m[1])][FEATHER] -= 1
            seen["feathers"] += 1
        if m := GAZE.match(line):
            s = GAZE_SEES.match(following)
            assert s and s[1] == m[1], (line, following)
            learned[int(m[1])].append(f"turn {turn}: seat {m[2]}'s card is {s[2]}")
            seen["gazes"] += 1
        if m := PEEK.match(line):
            s = PEEK_SEES.match(following)
            assert s and (s[1], s[2]) == (m[1], m[2]), (line, following)
            learned[int(m[1])].append(f"seat {m[2]} is {s[3]}")
            seen["peeks"] += 1
        if m := REPORT.match(line):
            front[int(m[1])][f"says seat {m[2]} is {m[3]}"] += 1
            seen["reports"] += 1
        if m := REVEAL.match(line):
            assert roles[int(m[1])] == m[2], line
            front[int(m[1])][f"faction revealed: {m[2]}"] += 1
            seen["reveals"] += 1
        for seat in tables[i]:
            n = seat["seat"]
            assert seat["role"] == roles.get(n, ""), (line, n)
            assert seat["out"] == "", (line, n)
            assert Counter(seat["front"]) == +front[n], (line, n, seat["front"])
            assert seat["learned"] == learned[n], (line, n, seat["learned"])
    assert roles and set(roles) == set(range(players))
    return len(lines)


@pytest.mark.parametrize("spec, overrides, seed, events", CASES)
def test_the_table_agrees_with_the_lines(spec, overrides, seed, events):
    cfg = config.load(spec, overrides)
    checked, seen = 0, Counter()
    for game in range(8):
        lines, tables = runner.trace_game_with_tables(cfg, seed, game, private=True)
        checked += check_game(lines, tables, seen)
        if game == 0:  # a plain trace draws the same table by the lines the table saw
            kept = [i for i, line in enumerate(lines) if not is_private_line(line)]
            assert runner.trace_game_with_tables(cfg, seed, game) == (
                [lines[i] for i in kept], [tables[i] for i in kept])
    assert checked > 1000, checked
    for what in events:
        assert seen[what], (what, dict(seen))
