"""The werewolf table the step-by-step view draws (the trace events' marks) agrees with the trace's
own lines, line by line: each seat holds the role its deal line (or its paranoid line) gave it, is
out from the line of its death until a line revives it, holds the mayor's badge exactly while its
lines say so, and knows one thing per seer check, medium reading and witness peek of its own. The
lines are parsed here, independently of the marks."""

from __future__ import annotations

import re

import pytest

from simulator.setup import config
from simulator.run import runner

DEAL = re.compile(r"^  seat (\d+): (.+)$")
BECOMES = re.compile(r"^  the paranoid, seat (\d+) \(.*\), names .* and becomes the (.+)$")
DIES = re.compile(r"^  † seat (\d+) ")
REVIVES = re.compile(r"revives seat (\d+) ")
ELECTED = re.compile(r"^  seat (\d+) \(.*\) is elected mayor")
SUCCESSOR = re.compile(r"^  the dying mayor, seat (\d+) \(.*\), names seat (\d+) ")
LEARNS = (re.compile(r"^  the seer, seat (\d+) \(.*\), checks"),
          re.compile(r"^  the medium, seat (\d+) \(.*\), learns"),
          re.compile(r"^  the witness, seat (\d+) \(.*\), peeks"))


@pytest.mark.parametrize("spec", ["werewolf/standard-16.toml", "werewolf/mayor-23.toml"])
def test_the_table_agrees_with_the_lines(spec):
    cfg = config.load(spec)
    checked, seen = 0, {"deaths": 0, "mayors": 0, "learned": 0}
    for seed in (1, 2):
        for game in range(3):
            lines, tables = runner.trace_game_with_tables(cfg, seed, game)
            assert len(lines) == len(tables)
            roles, out, mayor, learned = {}, set(), None, {}
            for line, table in zip(lines, tables):
                if line == "Deal (secret):":  # told with seat 0's deal: its table has it
                    continue
                if m := DEAL.match(line):
                    roles[int(m[1])] = m[2]
                if m := BECOMES.match(line):
                    roles[int(m[1])] = f"{m[2]}, was paranoid"
                if m := DIES.match(line):
                    out.add(int(m[1]))
                    seen["deaths"] += 1
                if m := REVIVES.search(line):
                    out.discard(int(m[1]))
                if m := ELECTED.match(line):
                    mayor = int(m[1])
                    seen["mayors"] += 1
                if m := SUCCESSOR.match(line):
                    mayor = int(m[2])
                for pattern in LEARNS:
                    if m := pattern.match(line):
                        learned[int(m[1])] = learned.get(int(m[1]), 0) + 1
                        seen["learned"] += 1
                for seat in table:
                    n = seat["seat"]
                    assert seat["role"] == roles.get(n, ""), (line, n)
                    assert bool(seat["out"]) == (n in out), (line, n)
                    assert ("the mayor" in seat["front"]) == (n == mayor), (line, n)
                    assert len([x for x in seat["learned"] if not x.startswith("named")
                                and not x.startswith("in love")
                                and not re.match(r"seat \d+ \(.*\): \"", x)]) == \
                        learned.get(n, 0), (line, n)
                checked += 1
    assert checked > 500 and seen["deaths"] and seen["learned"]
    assert seen["mayors"] or "mayor" not in spec  # mayor-23 elects one
