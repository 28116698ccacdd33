"""A run's summary: every rate with its interval, the tests, the verdict and the notes, computed
from a result's tallies (the table `fairplay run` prints; reports show the same numbers)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from simulator.statistics import adaptive, coverage, exploitability, headline, inference
from simulator.statistics import verdict as verdicts
from simulator.games import get_game
from simulator.statistics.rates import Row
from simulator.run.results import Result


@dataclass
class Summary:
    game: str
    games: int
    rows: list[Row]
    tests: list[inference.Test]  # Holm-adjusted together
    verdict: str
    mean_length: tuple[float, float, float]
    length_unit: str
    events_per_game: dict[str, float]  # the events that occurred
    games_for_one_point: int
    judgement: "verdicts.Verdict | None" = None  # the verdict's findings, status and lead
    setup: dict = field(default_factory=dict)  # the game's notes on the setup (deck, pool, ...)
    provisional: tuple[str, ...] = ()  # the game's rulings made where its source is silent
    stopped: str = ""  # an adaptive run: how many games it took and why it stopped
    repeated: str = ""  # a sequential stop: what its intervals are
    never: tuple[str, ...] = ()  # events and endings the setup makes possible, never occurred
    players: str = ""  # who played: "`people` at every seat"
    exploitability: str = ""  # how much a side gains by playing otherwise, as measured
    length_label: str = "95% CI"  # the game length's interval (repeated after a sequential stop)
    stop: "adaptive.Stop | None" = None  # where the sequential test stopped the run
    # after a sequential stop: its decision for each test's family, in place of the p-values
    decisions: list = field(default_factory=list)

    def records(self) -> list[dict]:
        """A table-like view: one dict per rate (ready for pandas.DataFrame, csv, ...)."""
        return [{"group": row.group, "name": row.name, "wins": row.rate.successes,
                 "games": row.rate.trials, "rate": row.rate.value, "low": row.rate.low,
                 "high": row.rate.high} for row in self.rows]

    def rows_of(self, group: str) -> list[Row]:
        return [row for row in self.rows if row.group == group]

    def shown_rows(self, group: str) -> list[Row]:
        """The rows a reader is shown: an ending that never occurred is left out (the setup
        cannot produce it, or `never` lists it with the events that never occurred)."""
        return [row for row in self.rows_of(group) if group != "end" or row.rate.successes > 0]

    def table(self) -> str:
        """A plain-text table of every rate with its interval, and the tests."""
        lines = [f"{self.game}: {self.games:,} games"]
        if self.stopped:
            lines.append(f"  {self.stopped}")
        if self.repeated:
            lines.append(f"  {self.repeated}")
        for name, note in self.setup.items():
            lines.append(f"  {name.replace('_', ' ')}: {note}")
        order = get_game(self.game).turn_order
        titles = dict(headline.RATE_TABLES)
        if order:
            titles["position"] = (f"Win rate by position in turn order ({order.direction}) "
                                  f"from the first player ({order.first_player})")
        for group, title in titles.items():
            rows = self.shown_rows(group)
            if not rows:
                continue
            lines.append("")
            lines.append(title)
            width = max(len(r.name) for r in rows)
            for row in rows:
                r = row.rate
                lines.append(f"  {row.name:<{width}}  {r.format(1):>28}  ({r.successes:,}/{r.trials:,})")
        mean, low, high = self.mean_length
        lines.append("")
        lines.append(f"Game length: {mean:.2f} {self.length_unit} ({self.length_label} "
                     f"{low:.2f}–{high:.2f})")
        if self.events_per_game:
            lines.append("Events per game: " + ", ".join(
                f"{name} {value:.3f}" for name, value in self.events_per_game.items()))
        if self.never:
            lines.append("Possible in this setup but never occurred: " + ", ".join(self.never))
        lines.append("")
        if self.stop is not None:
            lines.append(f"Tests: {adaptive.decisions_heading(self.stop)}")
            for decision in self.decisions:
                lines.append(f"  {decision.name}: {decision.text()}")
        else:
            lines.append("Tests (Holm-corrected together)")
            for test in self.tests:
                lines.append(f"  {test.name}: {inference.format_p(test.adjusted_pvalue)}")
        lines.append("")
        lines.append(f"Verdict: {self.verdict}")
        if self.exploitability:
            lines.append(self.exploitability)
        for note in (self.judgement.notes if self.judgement else []):
            lines.append(note)
        lines.append(f"To know a win rate to ±1 point (95%) you need about "
                     f"{verdicts.about(self.games_for_one_point)} games.")
        if self.provisional:
            lines.append(f"Provisional: the result depends on {len(self.provisional)} rulings "
                         f"made where the game's source is silent (`fairplay games {self.game}` "
                         f"lists them).")
        return "\n".join(lines)


def seats_text(seats) -> str:
    """[0, 1, 2, 3] -> "seats 0-3"; [4] -> "seat 4"; [0, 2, 3] -> "seats 0, 2-3"."""
    seats = sorted(seats)
    runs, start = [], None
    for i, s in enumerate(seats):
        if start is None:
            start = s
        if i + 1 == len(seats) or seats[i + 1] != s + 1:
            runs.append(f"{start}" if start == s else f"{start}-{s}")
            start = None
    return ("seat " if len(seats) == 1 else "seats ") + ", ".join(runs)


def players_line(result: Result, quote: str = "") -> str:
    """Who plays what, in words: "random at every seat", "greedy (seats 0-3), balanced (seat
    4)", "by role: seer-led (the human team), random (the wolf team)"; each strategy's name
    between `quote`s."""
    data, game, t = result.data, result.game, result.tallies
    labels = [f"{quote}{label}{quote}" for label in data.get("strategies") or []]
    if not labels:
        return ""
    table = np.asarray(data.get("slot_table") or [], dtype=np.int64)
    if table.ndim != 2 or table.size == 0:
        return f"{labels[0]} at every seat" if len(labels) == 1 else ", ".join(labels)

    def name(slot) -> str:
        return labels[slot] if slot < len(labels) else f"slot {slot}"

    role_games = t["role_games"]
    dealt = [r for r in range(table.shape[1]) if r < len(role_games) and role_games[r] > 0]
    dealt = dealt or list(range(table.shape[1]))
    sub = table[:, dealt]
    if (sub == sub[0, 0]).all():
        return f"{name(sub[0, 0])} at every seat"
    if (sub == sub[:, :1]).all():  # by seat
        groups: dict[int, list[int]] = {}
        for seat, slot in enumerate(sub[:, 0]):
            groups.setdefault(int(slot), []).append(seat)
        return ", ".join(f"{name(slot)} ({seats_text(seats)})" for slot, seats in groups.items())
    # by role (or team), the seats that differ from the common pattern listed apart
    base = [int(np.bincount(sub[:, j]).argmax()) for j in range(sub.shape[1])]
    exceptions = [seat for seat in range(sub.shape[0]) if (sub[seat] != base).any()]
    if len(set(base)) == 1:
        text = f"{name(base[0])} at every {'other ' if exceptions else ''}seat"
    else:
        by_slot: dict[int, list[int]] = {}
        for j, slot in enumerate(base):
            by_slot.setdefault(slot, []).append(dealt[j])
        parts = []
        for slot, roles in by_slot.items():
            names = {game.roles[r].name for r in roles}
            teams = [team for team in game.teams
                     if {role.name for i, role in enumerate(game.roles)
                         if role.team == team and i in dealt} <= names]
            covered = {game.roles[r].name for r in dealt if game.roles[r].team in teams}
            if teams and covered == names:
                who = " and ".join(teams)
                parts.append(f"{name(slot)} (the {who} team{'s' if len(teams) > 1 else ''})")
            else:
                parts.append(f"{name(slot)} ({', '.join(game.roles[r].name for r in roles)})")
        text = "by role: " + ", ".join(parts)
    for seat in exceptions:
        row = sub[seat]
        if (row == row[0]).all():
            text += f"; seat {seat}: {name(row[0])}"
        else:
            text += f"; seat {seat}: " + ", ".join(
                f"{name(slot)} as {game.roles[dealt[j]].name}" for j, slot in enumerate(row))
    return text


def _families_noun(groups: list[str]) -> str:
    words = {"team": "team", "seat": "seat", "role": "role", "strategy": "strategy",
             "position": "position in turn order"}
    names = [words[g] for g in groups]
    return ", ".join(names[:-1]) + (" and " if len(names) > 1 else "") + names[-1] if names \
        else "finding"


def summarize(result: Result, confidence: float | None = None) -> Summary:
    """A run's summary at `confidence` (default 95%). A run the sequential test stopped
    (--until-decided) gives its verdict as the test decided it, with the interval that decided
    it; by default its rates carry the intervals that hold after such a stop
    (adaptive.rows_at_stop), and with a `confidence` given, plain ones at that level."""
    stop = adaptive.sequential_stop(result.data)
    at_stop = stop is not None and confidence is None
    if confidence is None:
        confidence = adaptive.CONFIDENCE
    game = result.game
    t = result.tallies
    games = int(t["games"][0])
    players = len(t["seat_wins"])
    measures = headline.measures_of(game, t, result.data.get("strategies", []))
    rows = headline.rows(measures, confidence, (*headline.RATE_TABLES, "draw"))
    occurred = coverage.occurrence(result)

    # The families judged together (Holm across every finding): verdict.run_findings
    findings, tolerance = verdicts.run_findings(game, t, result.data, confidence)
    if game.team_game:
        families = [("team", "camp balance",
                     "each dealt team against its target share of decided games (Wilson)")]
    else:
        families = [("role", "role fairness", "z-tests of each role against an even share, "
                                              "the game as the unit"),
                    ("strategy", "strategy fairness", "z-tests of each strategy against an "
                                                      "even share, the game as the unit")]
    families.insert(1, ("seat", "seat fairness", "z-tests of each seat against the table's "
                                                 "average, the game as the unit"))
    families.append(("position", "turn-order fairness",
                     "z-tests of each position from the first player against the average "
                     "position, the game as the unit"))
    nouns = sorted({f.group for f in findings}, key=["team", "seat", "role", "strategy",
                                                     "position"].index)
    noun = _families_noun(nouns)
    judged = verdicts.judge(findings, tolerance, games, noun, game.symmetric_seats)
    if stop is not None:  # the sequential test's decision, not the fixed-sample verdict's
        judged = adaptive.verdict_at_stop(stop, findings, tolerance, noun,
                                          int(result.data["stopping"]["max_games"]),
                                          game.symmetric_seats)
    critical = stop.c_unbalanced if at_stop else None
    note = ""
    if at_stop:
        rows, note = adaptive.rows_at_stop(result, stop, rows, findings, tolerance)
    tests = []
    for group, name, method in families:
        members = [f for f in findings if f.group == group]
        if members:
            lead = min(members, key=lambda f: f.pvalue)
            tests.append(inference.Test(name, abs(lead.difference), lead.pvalue, lead.adjusted,
                                    method=f"{method}; Holm across every finding"))
    decisions = adaptive.decisions_at_stop(stop, findings, tolerance,
                                           [(group, name) for group, name, _ in families]) \
        if stop is not None else []
    first_share = (t["team_wins"][0] / t["team_wins"].sum() if t["team_wins"].sum() else 0.5) \
        if game.team_game else 1 / players
    players = players_line(result, quote="`")
    verdict = judged.sentence + (f" Measured with {players.removeprefix('by role: ')}."
                                 if players else "")
    if judged.symmetric_seats:
        verdict += (f" Seats are alike by construction ({judged.symmetric_seats}): they are not "
                    f"judged; turn order is.") if game.turn_order else \
            (f" Seats are alike by construction ({judged.symmetric_seats}): they are not judged.")
    effect = verdicts.halves_effect(t, confidence, critical) if game.turn_order else None
    label = adaptive.REPEATED if at_stop else ""
    if effect is not None:
        judged.notes.append(effect.sentence(game.turn_order, confidence, label))

    length = next((m.counts for m in measures if m.group == "length"), (0, 0, 0))
    mean_length = inference.mean_interval(*length, confidence, critical)
    return Summary(game.name, games, rows, tests, verdict, tuple(float(x) for x in mean_length),
                   game.length_unit, occurred.events, inference.games_needed(first_share, 0.01, 0.95),
                   judged,
                   dict(result.data.get("setup_notes") or {}), provisional_of(result),
                   adaptive.sentence(result.data), note,
                   occurred.never, players,
                   exploitability.sentence(result.data, game.team_game) if games else "",
                   label or f"{inference._confidence_label(confidence)}% CI", stop, decisions)


def provisional_of(result: "Result") -> tuple[str, ...]:
    """The provisional rulings a result depends on (a file from before they were recorded: every
    ruling of its game)."""
    recorded = result.data.get("provisional")
    return tuple(result.game.provisional) if recorded is None else tuple(recorded)
