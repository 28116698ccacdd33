"""The Ghost Play table the step-by-step view draws (the trace events' marks) agrees with the
trace's own lines, line by line: each seat holds the identity its deal line gave it until a rise
line makes it the ghost king, nobody is ever out, in front of each seat lie exactly the ghosts
possessing it, its artifact, its points (each dispelled ghost) and, for the ghost king, its lives
(each summoned ghost), and a seat has learned one identity per look it took. The lines are parsed
here, independently of the marks, and the parse is checked against each seat's end-of-turn line
(ghosts, points, artifact)."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from simulator.setup import config
from simulator.run import runner

IDENTITY = re.compile(r"^\(private\) setup: seat (\d+) is dealt (.+)$")
TURN = re.compile(r"^== turn \d+: seat (\d+)( \(the ghost king\))? ==$")
ARTIFACT = re.compile(r"^  day: seat (\d+) sets the artifact (.+?) in front of itself"
                      r"(?:, replacing (.+))?$")
POSSESS = re.compile(r"^  haunting: (\S+) \(.*\) possesses seat (\d+): (\d+) ghost\(s\) on it, "
                     r"\d+ in play$")
SUMMON = re.compile(r"^  summoning: the ghost king \(seat (\d+)\) summons ")
DISPEL = re.compile(r"^    dispelled: (\S+) \(.*, (\d+) point\(s\), .*\) leaves seat (\d+); it "
                    r"goes face down in front of seat (\d+) as points \((\d+) in all\)$")
LIFE = re.compile(r"^    summoned: (\S+) \(.*\) leaves seat (\d+) and becomes a life of the ghost "
                  r"king \((\d+) lives\)$")
LOOK = re.compile(r"^    (?:\(private\) )?look: seat (\d+) looks at seat (\d+)'s identity"
                  r"(, shown to everyone)?: (.+)$")
RISE = re.compile(r"^  RISE: seat (\d+) \((.+?)\) becomes the ghost king by rule")
RISEN = re.compile(r"^  the (\d+) ghost\(s\) on seat (\d+) (become the ghost king's lives|are "
                   r"set aside) \((\d+) lives\)$")
OWN_LIFE = "a ghost that possessed it"  # the row names no ghost: how the table names such a life
SEAT_AT_END = re.compile(r"^  end of turn: seat (\d+) has \d+ spirit power, \d+ card\(s\), "
                         r"(\d+) ghost\(s\), (\d+) point\(s\), artifact (.+)$")

# (config, overrides, the counters its games must raise besides the common ones)
CASES = [
    ("ghostplay/default.toml", (), ()),
    ("ghostplay/players-4.toml", (), ()),
    ("ghostplay/players-5.toml", (), ()),
    ("ghostplay/artifacts.toml", (), ("artifacts",)),
    # helpful players set every artifact they draw (a second replaces the first); looks are public
    ("ghostplay/artifacts.toml", ("strategies.all=helpful", "rules.look_seen_by=everyone",
                                  "rules.look=always"), ("artifacts", "replaced", "public_looks")),
    # the risen player's ghosts become its lives, or are set aside (rules.risen_ghosts)
    ("ghostplay/default.toml", ("rules.risen_ghosts=lives",), ("risen_lives",)),
    ("ghostplay/default.toml", ("rules.risen_ghosts=discarded",), ("risen_set_aside",)),
]


@pytest.mark.parametrize("spec, overrides, expected", CASES,
                         ids=["default", "players-4", "players-5", "artifacts",
                              "artifacts-helpful-public-looks", "risen-lives", "risen-set-aside"])
def test_the_table_agrees_with_the_lines(spec, overrides, expected):
    cfg = config.load(spec, overrides)
    checked = 0
    seen = Counter()
    for seed in (1, 2):
        for game in range(2):
            lines, tables = runner.trace_game_with_tables(cfg, seed, game, private=True)
            assert len(lines) == len(tables)
            roles, ghosts, points, lives, artifact, learned = {}, {}, {}, {}, {}, {}
            value = {}  # each dispelled ghost's points
            king = summoner = None
            for line, table in zip(lines, tables):
                if m := IDENTITY.match(line):
                    roles[int(m[1])] = m[2]
                    seen["identities"] += 1
                if m := TURN.match(line):
                    assert bool(m[2]) == (int(m[1]) == king), line
                if m := ARTIFACT.match(line):
                    seat = int(m[1])
                    assert m[3] == artifact.get(seat), line  # what it replaced, if anything
                    artifact[seat] = m[2]
                    seen["artifacts"] += 1
                    seen["replaced"] += m[3] is not None
                if m := POSSESS.match(line):
                    seat = int(m[2])
                    ghosts.setdefault(seat, []).append(m[1])
                    assert len(ghosts[seat]) == int(m[3]), line
                    seen["possessions"] += 1
                if m := SUMMON.match(line):
                    summoner = int(m[1])
                    assert summoner == king, line
                if m := DISPEL.match(line):
                    ghosts[int(m[3])].remove(m[1])
                    host = int(m[4])
                    points.setdefault(host, []).append(m[1])
                    value[m[1]] = int(m[2])
                    assert sum(value[g] for g in points[host]) == int(m[5]), line
                    seen["dispels"] += 1
                if m := LIFE.match(line):
                    ghosts[int(m[2])].remove(m[1])
                    lives.setdefault(summoner, []).append(m[1])
                    assert sum(map(len, lives.values())) == int(m[3]), line
                    seen["lives"] += 1
                if m := LOOK.match(line):
                    shown = ", shown to everyone" if m[3] else ""
                    learned.setdefault(int(m[1]), []).append(f"seat {m[2]} is {m[4]}{shown}")
                    seen["looks"] += 1
                    seen["public_looks"] += bool(m[3])
                if m := RISE.match(line):
                    king = int(m[1])
                    assert roles[king] == m[2], line
                    roles[king] = f"鬼王 ghost-king, was {m[2]}"
                    seen["rises"] += 1
                if m := RISEN.match(line):
                    seat, moved = int(m[2]), int(m[1])
                    assert seat == king and len(ghosts.get(seat, [])) == moved > 0, line
                    ghosts[seat] = []
                    if m[3].startswith("become"):
                        lives.setdefault(seat, []).extend([OWN_LIFE] * moved)
                        seen["risen_lives"] += moved
                    else:
                        seen["risen_set_aside"] += moved
                    assert sum(map(len, lives.values())) == int(m[4]), line
                if m := SEAT_AT_END.match(line):  # the parse agrees with the kernel's state
                    seat = int(m[1])
                    assert len(ghosts.get(seat, [])) == int(m[2]), line
                    assert sum(value[g] for g in points.get(seat, [])) == int(m[3]), line
                    assert artifact.get(seat, "none") == m[4], line
                    seen["seat_checks"] += 1
                assert [seat["seat"] for seat in table] == list(range(cfg.params.players))
                for seat in table:
                    n = seat["seat"]
                    front = ([f"possessed by {g}" for g in ghosts.get(n, [])]
                             + [f"points: {g}, face down" for g in points.get(n, [])]
                             + [f"life: {g}" for g in lives.get(n, [])]
                             + ([artifact[n]] if n in artifact else []))
                    assert seat["role"] == roles.get(n, ""), (line, n)
                    assert seat["out"] == "", (line, n)  # nobody leaves a game of Ghost Play
                    assert Counter(seat["front"]) == Counter(front), (line, n)
                    assert seat["learned"] == learned.get(n, []), (line, n)
                checked += 1
            assert len(roles) == cfg.params.players
    assert checked > 2000
    assert seen["seat_checks"] > 500
    for counter in ("identities", "possessions", "dispels", "looks", "rises", "lives") + expected:
        assert seen[counter], counter
