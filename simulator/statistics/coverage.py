"""Rule coverage: how often each power, card, spell and ending of a game occurs.

Every event a game counts (`EVENTS` in its declaration) and every end condition is listed with
how often it happens per game; one that never happens, or in fewer than 0.1% of games (per game,
fewer than one in a thousand), is marked, so "the seer never checks" or "this ending never
occurs" shows at a glance. A game may say what makes an event available (`COVERAGE_NEEDS` in its
declaration: event or ending name -> the roles, any of which must be dealt, a config key that
must be on, or a `SetupNeed` that reads the config): where that is missing in a setup, the event is
"not available", not a blind spot.
"""

from __future__ import annotations

from dataclasses import dataclass

from simulator.games.base import SetupNeed

RARE = 0.001  # per game: under one in a thousand games


@dataclass
class Line:
    kind: str  # "event" or "end"
    name: str
    per_game: float  # events per game, or the share of games ending so
    available: bool
    needs: str  # what makes it available, in words ("" when always)

    @property
    def mark(self) -> str:
        if not self.available:
            return "not available"
        if self.per_game == 0:
            return "NEVER"
        if self.per_game < RARE:
            return "rare"
        return ""


def _available(needs, game, tallies, config: dict) -> bool:
    """Any of the needed roles dealt (in some game), or the needed config key on."""
    for need in needs:
        if "." in need:  # a config key such as rules.mayor
            node = config
            for part in need.split("."):
                node = node.get(part) if isinstance(node, dict) else None
            if node:
                return True
        elif need in game.role_names() and tallies["role_games"][game.role_index(need)]:
            return True
    return False


def coverage(result) -> list[Line]:
    """The coverage lines of a result: its events per game and its endings' shares."""
    game, t = result.game, result.tallies
    games = int(t["games"][0])
    needs = game.coverage_needs or {}
    config = result.data.get("config") or {}
    lines = []
    for kind, names, counts in (("event", game.event_names, t["events"]),
                                ("end", game.end_names, t["end_counts"])):
        for i, name in enumerate(names):
            need = needs.get(name, ())
            if isinstance(need, SetupNeed):
                available, words = bool(need.test(config)), need.words
            else:
                need = (need,) if isinstance(need, str) else tuple(need)
                available, words = not need or _available(need, game, t, config), " or ".join(need)
            lines.append(Line(kind, name, float(counts[i]) / games if games else 0.0, available,
                              words))
    return lines


@dataclass(frozen=True)
class Occurrence:
    """What a run's summary shows of its events and endings: what occurred, what the setup makes
    possible but never occurred (a finding, on one line), and what the setup cannot produce
    (left out)."""

    events: dict  # event name -> per game, each one that occurred
    never: tuple[str, ...]  # events and endings the setup makes possible that never occurred
    impossible: frozenset  # events and endings the setup cannot produce


def occurrence(result) -> Occurrence:
    lines = coverage(result)
    return Occurrence({x.name: x.per_game for x in lines if x.kind == "event" and x.per_game > 0},
                      tuple(x.name for x in lines if x.available and x.per_game == 0),
                      frozenset(x.name for x in lines if not x.available and x.per_game == 0))


def table(result) -> list[str]:
    """The terminal table: every event and ending, the blind spots marked."""
    lines = coverage(result)
    games = int(result.tallies["games"][0])
    out = [f"{result.game.name}: rule coverage over {games:,} games "
           f"(strategies: {', '.join(result.data.get('strategies', [])) or 'n/a'})"]
    width = max((len(line.name) for line in lines), default=10)
    for kind, title in (("event", "Events per game"), ("end", "Share of games ending so")):
        out.append(f"  {title}")
        for line in (x for x in lines if x.kind == kind):
            value = f"{line.per_game:.4f}" if kind == "event" else f"{100 * line.per_game:.2f}%"
            note = line.mark + (f" (needs {line.needs})" if line.mark == "not available" else "")
            out.append(f"    {line.name:<{width}}  {value:>9}  {note}".rstrip())
    blind = [x.name for x in lines if x.mark in ("NEVER", "rare")]
    out.append(f"  {len(blind)} of {sum(1 for x in lines if x.available)} available events and "
               f"endings never or rarely (under {RARE:.1%} of games) occur"
               + (f": {', '.join(blind)}" if blind else ""))
    return out
