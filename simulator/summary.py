"""A run's summary: every rate with its interval, the tests, the verdict and the notes, computed
from a result's tallies (the table `fairplay run` prints; reports show the same numbers)."""

from __future__ import annotations

from dataclasses import dataclass, field


from simulator import adaptive, headline, stats
from simulator import verdict as verdicts
from simulator.games import get_game
from simulator.rates import Row
from simulator.results import Result


@dataclass
class Summary:
    game: str
    games: int
    rows: list[Row]
    tests: list[stats.Test]  # Holm-adjusted together
    verdict: str
    mean_length: tuple[float, float, float]
    length_unit: str
    events_per_game: dict[str, float]
    games_for_one_point: int
    judgement: "verdicts.Verdict | None" = None  # the verdict's findings, status and lead
    setup: dict = field(default_factory=dict)  # the game's notes on the setup (deck, pool, ...)
    provisional: tuple[str, ...] = ()  # the game's rulings made where its source is silent
    stopped: str = ""  # an adaptive run: how many games it took and why it stopped
    repeated: str = ""  # a sequential stop: the intervals are repeated confidence intervals

    def records(self) -> list[dict]:
        """A table-like view: one dict per rate (ready for pandas.DataFrame, csv, ...)."""
        return [{"group": row.group, "name": row.name, "wins": row.rate.successes,
                 "games": row.rate.trials, "rate": row.rate.value, "low": row.rate.low,
                 "high": row.rate.high} for row in self.rows]

    def rows_of(self, group: str) -> list[Row]:
        return [row for row in self.rows if row.group == group]

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
            rows = self.rows_of(group)
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
        lines.append(f"Game length: {mean:.2f} {self.length_unit} (95% CI {low:.2f}–{high:.2f})")
        if self.events_per_game:
            lines.append("Events per game: " + ", ".join(
                f"{name} {value:.3f}" for name, value in self.events_per_game.items()))
        lines.append("")
        lines.append("Tests (Holm-corrected together)")
        for test in self.tests:
            lines.append(f"  {test.name}: {stats.format_p(test.adjusted_pvalue)}")
        lines.append("")
        lines.append(f"Verdict: {self.verdict}")
        for note in (self.judgement.notes if self.judgement else []):
            lines.append(note)
        lines.append(f"To know a win rate to ±1 point (95%) you need about "
                     f"{verdicts.about(self.games_for_one_point)} games.")
        if self.provisional:
            lines.append(f"Provisional: the result depends on {len(self.provisional)} rulings "
                         f"made where the game's source is silent (`fairplay games {self.game}` "
                         f"lists them).")
        return "\n".join(lines)


def _families_noun(groups: list[str]) -> str:
    words = {"team": "team", "seat": "seat", "role": "role", "strategy": "strategy",
             "position": "position in turn order"}
    names = [words[g] for g in groups]
    return ", ".join(names[:-1]) + (" and " if len(names) > 1 else "") + names[-1] if names \
        else "finding"


def summarize(result: Result, confidence: float | None = None) -> Summary:
    """A run's summary at `confidence`; by default 95%, or for a run that the sequential verdict
    stopped (--until-decided), the level of its repeated confidence intervals."""
    if confidence is None:
        confidence = adaptive.interval_level(result.data)
    game = result.game
    t = result.tallies
    games = int(t["games"][0])
    players = len(t["seat_wins"])
    measures = headline.measures_of(game, t, result.data.get("strategies", []))
    rows = headline.rows(measures, confidence, (*headline.RATE_TABLES, "draw"))

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
    tests = []
    for group, name, method in families:
        members = [f for f in findings if f.group == group]
        if members:
            lead = min(members, key=lambda f: f.pvalue)
            tests.append(stats.Test(name, abs(lead.difference), lead.pvalue, lead.adjusted,
                                    method=f"{method}; Holm across every finding"))
    first_share = (t["team_wins"][0] / t["team_wins"].sum() if t["team_wins"].sum() else 0.5) \
        if game.team_game else 1 / players
    verdict = judged.sentence
    if judged.symmetric_seats:
        verdict += (f" Seats are alike by construction ({judged.symmetric_seats}): they are not "
                    f"judged; turn order is.") if game.turn_order else \
            (f" Seats are alike by construction ({judged.symmetric_seats}): they are not judged.")
    effect = verdicts.halves_effect(t, confidence) if game.turn_order else None
    if effect is not None:
        judged.notes.append(effect.sentence(game.turn_order, confidence))

    length = next((m.counts for m in measures if m.group == "length"), (0, 0, 0))
    mean_length = stats.mean_interval(*length, confidence)
    events = {name: float(t["events"][i]) / games for i, name in enumerate(game.event_names)} if games else {}
    return Summary(game.name, games, rows, tests, verdict, tuple(float(x) for x in mean_length),
                   game.length_unit, events, stats.games_needed(first_share, 0.01, 0.95), judged,
                   dict(result.data.get("setup_notes") or {}), provisional_of(result),
                   adaptive.sentence(result.data),
                   # printed at the level of the sequential design's repeated intervals
                   adaptive.repeated_note(result.data)
                   if confidence == adaptive.interval_level(result.data) > 0.95 else "")


def provisional_of(result: "Result") -> tuple[str, ...]:
    """The provisional rulings a result depends on (a file from before they were recorded: every
    ruling of its game)."""
    recorded = result.data.get("provisional")
    return tuple(result.game.provisional) if recorded is None else tuple(recorded)
