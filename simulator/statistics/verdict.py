"""Verdicts a designer can act on: is the game balanced within the designer's tolerance?

A verdict judges *findings*: each a win rate against its fair share (a team's share of decided
games against its target; in an individual game, each seat, role and strategy against an even
share). For each finding two questions are asked at once:

* the difference test: is the rate different from its fair share at all? (two-sided, Holm across
  the findings of the run);
* the equivalence test (two one-sided tests, TOST): is it *within* the tolerance, fair share
  ± `balance_tolerance` (default ±2 points)? It passes when the 90% interval lies inside that band.

The status follows:

* "balanced": every finding is within the tolerance (an intersection-union test, valid at 5%
  without correction) — "balanced within ±2 points", even when a tiny difference is significant;
* "unbalanced": some finding's 95% interval lies entirely beyond the tolerance — "unbalanced by
  X points", led by the largest such finding;
* "undecided": neither yet — "not enough games yet (about N more needed)".

Rates over seat-games (roles, strategies) take the game as the unit (inference.clustered_rate).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from scipy import stats as sps

from simulator.statistics import inference
from simulator.statistics.rates import position_label, ratio_moments

DEFAULT_TOLERANCE = 0.02  # ±2 points
EQUIVALENCE_LEVEL = 0.90  # the TOST at 5% is the 90% interval inside the band


@dataclass
class Finding:
    """One win rate against its fair share."""

    group: str  # "team", "seat", "role", "strategy"
    name: str
    rate: inference.Rate  # at the run's confidence (95%)
    target: float
    pvalue: float  # difference test (two-sided)
    within: bool  # the equivalence test passed: inside target ± tolerance
    beyond: bool  # the whole interval lies outside target ± tolerance
    equivalence_p: float  # the larger p of the two one-sided tests
    games_more: int | None  # about how many more games would decide it (None: decided, or never)
    adjusted: float = math.nan  # Holm across the run's findings

    @property
    def difference(self) -> float:
        return self.rate.value - self.target

    def label(self) -> str:
        return {"team": f"the {self.name} team", "seat": self.name, "role": f"role {self.name}",
                "strategy": f"strategy {self.name}",
                "position": f"the {self.name} position in turn order"
                            + (" (the first player)" if self.name == "1st" else "")}[self.group]


@dataclass
class Verdict:
    status: str  # "balanced", "unbalanced" or "undecided"
    headline: str
    sentence: str
    tolerance: float
    findings: list[Finding]
    lead: Finding | None
    games_more: int | None
    symmetric_seats: str = ""  # why seats cannot matter by construction, when the game says so
    notes: list[str] = field(default_factory=list)


# --- one finding ------------------------------------------------------------------------------------
def _standard_error(rate: inference.Rate) -> float:
    """The rate's standard error, from its effective trials (the game is the unit)."""
    n = rate.effective_trials if rate.effective_trials is not None else rate.trials
    if not n or math.isinf(n):
        return 0.0
    p = rate.value
    if not 0 < p < 1:  # no spread seen: the interval's own width says how sure we are
        return rate.half_width / inference._z(rate.confidence)
    return math.sqrt(p * (1 - p) / n)


def _more_games(rate: inference.Rate, games: int, half_width_needed: float, level: float) -> int | None:
    """Games still to play until the interval at `level` has the half-width needed (the rate's
    spread holding; intervals narrow as one over the square root of the games)."""
    se = _standard_error(rate)
    if half_width_needed <= 0 or not games:
        return None
    needed_se = half_width_needed / inference._z(level)
    if se <= needed_se:
        return 0
    return max(1, math.ceil(games * (se / needed_se) ** 2) - games)


def finding(group: str, name: str, rate: inference.Rate, target: float, tolerance: float,
            games: int) -> Finding:
    se = _standard_error(rate)
    d = rate.value - target if rate.trials else 0.0
    if se > 0:
        pvalue = float(2 * sps.norm.sf(abs(d) / se))
        lower = float(sps.norm.sf((d + tolerance) / se))  # H0: d <= -tolerance
        upper = float(sps.norm.cdf((d - tolerance) / se))  # H0: d >= +tolerance
        equivalence_p = max(lower, upper)
    else:
        pvalue = 1.0 if d == 0 else 0.0
        equivalence_p = 0.0 if abs(d) < tolerance else 1.0
    z90 = inference._z(EQUIVALENCE_LEVEL)
    within = rate.trials > 0 and abs(d) + z90 * se < tolerance
    beyond = rate.trials > 0 and (rate.low > target + tolerance or rate.high < target - tolerance)
    if within or beyond or not rate.trials:
        more = None
    elif abs(d) < tolerance:  # heading for "within": the 90% interval must fit inside the band
        more = _more_games(rate, games, tolerance - abs(d), EQUIVALENCE_LEVEL)
    else:  # heading for "beyond": the 95% interval must clear the band
        more = _more_games(rate, games, abs(d) - tolerance, rate.confidence)
    return Finding(group, name, rate, target, pvalue, within, beyond, equivalence_p, more)


# --- a run ------------------------------------------------------------------------------------------
def _points(x: float) -> str:
    return f"{100 * abs(x):.1f}"


def about(n: int) -> str:
    """A count as people say it: two significant figures ("about 210,000")."""
    if n < 100:
        return f"{n:,}"
    digits = len(str(n)) - 2
    return f"{round(n, -digits):,}"


def judge(findings: list[Finding], tolerance: float, games: int, noun: str,
          symmetric_seats: str = "") -> Verdict:
    """The run's verdict from its findings (Holm across their difference tests)."""
    if findings:
        for f, adjusted in zip(findings, inference.holm([f.pvalue for f in findings])):
            f.adjusted = float(adjusted)
    band = f"±{_points(tolerance)} points"
    if not findings or games == 0:
        return Verdict("undecided", "No games played", "No game has been played yet.",
                       tolerance, findings, None, None, symmetric_seats)
    if not any(f.rate.trials for f in findings):
        return Verdict("undecided", "No game won yet",
                       "No game has been won yet, so no side can be called favoured.",
                       tolerance, findings, None, None, symmetric_seats)
    by_size = sorted(findings, key=lambda f: -abs(f.difference))
    beyond = [f for f in by_size if f.beyond]
    if beyond:
        lead = beyond[0]
        status = "unbalanced"
        headline = unbalanced_headline(lead)
        sentence = (f"Unbalanced by {_points(lead.difference)} points: {_describe(lead)}, beyond "
                    f"the tolerance of {band}.")
        more = None
    elif all(f.within for f in findings):
        lead = by_size[0]
        status = "balanced"
        headline = f"Balanced within {band}"
        sentence = (f"Balanced within {band}: every {noun} is within {band} of its fair share "
                    f"(the largest difference: {_describe(lead)}).")
        more = None
    else:
        open_ = [f for f in by_size if not f.within]
        lead = open_[0]
        status = "undecided"
        needs = [f.games_more for f in open_ if f.games_more is not None]
        more = max(needs) if needs and len(needs) == len(open_) else None
        headline = "Not enough games yet"
        amount = f"about {about(more)} more needed" if more else "many more needed"
        sentence = (f"Not enough games yet ({amount}) to say whether {lead.label()} is within "
                    f"{band} of its fair share: {_describe(lead)}.")
    significant = sorted((f for f in findings if f.adjusted < 0.05),
                         key=lambda f: -abs(f.difference))
    if status != "unbalanced" and significant and significant[0] is not lead:
        sentence += f" The clearest difference: {_describe(significant[0])}."
    return Verdict(status, headline, sentence, tolerance, findings, lead, more, symmetric_seats)


def _describe(f: Finding) -> str:
    return describe(f, f.rate.format(1), inference.format_p(f.adjusted))


def describe(f: Finding, shown: str, after: str = "") -> str:
    """The finding in words, its rate as `shown` and `after` beside its difference: "the wolf
    team wins 51.0% (95% CI 50.1–51.9%) against its target of 50.0% (+1.0 points, p = 0.03)"."""
    share = {"team": "its target of", "seat": "the average seat's",
             "position": "the average position's"}.get(f.group, "an even share of")
    sign = "+" if f.difference >= 0 else "−"
    return (f"{f.label()} wins {shown} against {share} {100 * f.target:.1f}% "
            f"({sign}{_points(f.difference)} points{', ' + after if after else ''})")


def unbalanced_headline(lead: Finding) -> str:
    if lead.group == "team":
        word = "favoured" if lead.difference > 0 else "disfavoured"
        return f"{lead.name[:1].upper()}{lead.name[1:]} {word} by {_points(lead.difference)} points"
    what = {"seat": "Seats", "role": "Roles", "strategy": "Strategies",
            "position": "Turn order"}[lead.group]
    verb = "matters" if lead.group == "position" else "matter"
    return f"{what} {verb} most: {lead.label()} {'+' if lead.difference > 0 else '−'}" \
           f"{_points(lead.difference)} points"


def dealt_teams(game, tallies, dealt: list[str] | None = None) -> list[int]:
    """The teams some seat is dealt at the start (`dealt`, as the result records it from the
    game's setup; a file without it: the teams of the roles that ended some game). A team
    nobody is dealt is not judged: Ghost Play's evil side at an even player count."""
    if dealt is not None:
        return [i for i, team in enumerate(game.teams) if team in dealt]
    if "role_games" not in tallies:  # only the team wins are known: every team
        return list(range(len(game.teams)))
    ended = {game.teams.index(role.team) for r, role in enumerate(game.roles)
             if tallies["role_games"][r]}
    return sorted(ended) or list(range(len(game.teams)))


def team_targets(game, tallies, target: float | None,
                 dealt: list[str] | None = None) -> dict[int, float]:
    """Each dealt team's target share of decided games: an equal share of the teams dealt at
    this player count, or the designer's `balance_target` for the first team (the others share
    the rest equally)."""
    teams = dealt_teams(game, tallies, dealt)
    if target is None or 0 not in teams:
        return {i: 1 / len(teams) for i in teams}
    rest = [i for i in teams if i != 0]
    return {0: target, **{i: (1 - target) / len(rest) for i in rest}} if rest else {0: 1.0}


def team_findings(game, tallies, target: float | None, tolerance: float,
                  confidence: float = 0.95, dealt: list[str] | None = None) -> list[Finding]:
    """A team game: each dealt team's share of the decided games against its target (two teams:
    the one at or above its target only, the other being its complement). Games a team nobody
    was dealt won (a risen ghost king's) count as decided for nobody judged."""
    wins = np.asarray(tallies["team_wins"], dtype=np.int64)
    targets = team_targets(game, tallies, target, dealt)
    teams = list(targets)
    decided = int(wins[teams].sum())
    if len(teams) == 2:
        first, second = teams
        ahead = first if not decided or wins[first] / decided >= targets[first] else second
        teams = [ahead]
    elif len(teams) == 1:
        teams = []  # one team dealt: it wins every decided game by construction
    return [finding("team", game.teams[i], inference.wilson(int(wins[i]), decided, confidence),
                    targets[i], tolerance, int(tallies["games"][0])) for i in teams]


def contrast_finding(group: str, name: str, wins: int, games: int, square_sum: int,
                     table_wins: int, players: int, tolerance: float,
                     confidence: float = 0.95) -> Finding:
    """A seat's (or a position's) win rate against the average of the table, the game as the
    unit: each game gives the contrast c = won − winners/n, whose mean is the difference and
    whose spread over games (the tallied sum of (n·c)²) its standard error. Seats of one game
    win together (team-mates) or exclude each other (rivals), so their rates are not
    independent trials; the contrast takes that into account exactly."""
    p = wins / games if games else math.nan
    average = table_wins / (players * games) if games else math.nan
    if games < 2:
        rate = inference.Rate(wins, games, 0.0, 1.0, confidence, float(games))
        return finding(group, name, rate, average if games else 0.0, tolerance, games)
    d = p - average
    spread = (square_sum / players ** 2 - games * d * d) / (games - 1)
    se = math.sqrt(max(spread, 0.0) / games)
    if 0 < p < 1 and se > 0:
        effective = p * (1 - p) / (se * se)
        low, high = inference.wilson_bounds(p * effective, effective, confidence)
        rate = inference.Rate(wins, games, float(low), float(high), confidence, float(effective))
    elif 0 < p < 1:  # the same contrast every game: no spread, the point is exact
        rate = inference.Rate(wins, games, p, p, confidence, math.inf)
    else:
        rate = inference.wilson(wins, games, confidence)
    return finding(group, name, rate, average, tolerance, games)


def seat_findings(tallies, tolerance: float, confidence: float = 0.95) -> list[Finding]:
    """Every seat against the table's average (for games whose seats are not alike by
    construction)."""
    games = int(tallies["games"][0])
    wins = np.asarray(tallies["seat_wins"], dtype=np.int64)
    players = len(wins)
    return [contrast_finding("seat", f"seat {k}", int(wins[k]), games,
                             int(tallies["seat_contrast_sq"][k]), int(wins.sum()), players,
                             tolerance, confidence) for k in range(players)]


def position_findings(tallies, tolerance: float, confidence: float = 0.95) -> list[Finding]:
    """Every position in turn order from the first player against the average position."""
    games = np.asarray(tallies["position_games"], dtype=np.int64)
    if not games.any():
        return []
    wins = np.asarray(tallies["position_wins"], dtype=np.int64)
    players = len(wins)
    return [contrast_finding("position", position_label(k, first=False), int(wins[k]),
                             int(games[k]), int(tallies["position_contrast_sq"][k]),
                             int(wins.sum()), players, tolerance, confidence)
            for k in range(players)]


@dataclass
class HalvesEffect:
    """The first half of turn order against the last half: mean win rates and the difference
    with its interval (the game as the unit)."""

    size: int  # players in each half
    first: float
    last: float
    difference: float
    low: float
    high: float
    pvalue: float

    def sentence(self, turn_order, confidence: float = 0.95, label: str = "") -> str:
        """The effect in words; with a `label` (an interval that holds after a sequential stop:
        adaptive.REPEATED) no p-value, which the looks before the stop would make too small."""
        more = "more" if self.difference >= 0 else "less"
        p = "" if label else f", {inference.format_p(self.pvalue)}"
        text = (f"Turn order: the first {self.size} players from the first player win "
                f"{100 * self.first:.1f}%, the last {self.size} {100 * self.last:.1f}%: "
                f"{_points(self.difference)} points {more} "
                f"({label or f'{round(100 * confidence)}% CI'} "
                f"{100 * self.low:+.1f} to {100 * self.high:+.1f}{p}; "
                f"play passes {turn_order.direction}, the first player is "
                f"{turn_order.first_player}).")
        if turn_order.confound:
            text += (f" Being first is not all it is: {turn_order.confound}, so this effect "
                     f"cannot be told apart from it.")
        return text


def halves_effect(tallies, confidence: float = 0.95,
                  critical: float | None = None) -> HalvesEffect | None:
    games = int(np.asarray(tallies["position_games"])[0]) if len(tallies["position_games"]) \
        else 0
    wins = np.asarray(tallies["position_wins"], dtype=np.int64)
    size = len(wins) // 2
    if games < 2 or size == 0:
        return None
    first, last = wins[:size].sum() / games / size, wins[-size:].sum() / games / size
    total, squares = float(tallies["halves_contrast"][0]), float(tallies["halves_contrast_sq"][0])
    mean = total / games
    spread = max((squares - games * mean * mean) / (games - 1), 0.0)
    se = math.sqrt(spread / games) / size
    difference = float(first - last)
    half = (inference._z(confidence) if critical is None else critical) * se
    pvalue = float(2 * sps.norm.sf(abs(difference) / se)) if se > 0 else \
        (1.0 if difference == 0 else 0.0)
    return HalvesEffect(size, float(first), float(last), difference, difference - half,
                        difference + half, pvalue)


def individual_findings(game, tallies, strategies: list[str], slot_table, tolerance: float,
                        confidence: float = 0.95, include_seats: bool = True) -> list[Finding]:
    """An individual game: every seat, role and strategy against an even share of the decided
    games. A seat is judged against the seats playing the same strategies as it does, so a
    table of mixed strategies does not read a strategy's strength as a seat's."""
    games = int(tallies["games"][0])
    seat_wins = np.asarray(tallies["seat_wins"], dtype=np.int64)
    players = len(seat_wins)
    decided = int(seat_wins.sum())
    even = decided / games / players if games else 1 / players
    out = []
    table = np.asarray(slot_table) if slot_table is not None else np.zeros((players, 1), int)
    lineups = [tuple(sorted(set(row.tolist()))) for row in table[:players]]
    for seat in range(players if include_seats else 0):
        mates = [s for s in range(players) if lineups[s] == lineups[seat]]
        target = seat_wins[mates].sum() / games / len(mates) if games and len(mates) > 1 \
            else even
        if len(mates) == 1 and len(set(lineups)) > 1:
            continue  # the only seat playing its strategies: its strategy finding says it all
        out.append(finding("seat", f"seat {seat}", inference.wilson(int(seat_wins[seat]), games,
                                                                confidence), target, tolerance,
                           games))
    for r, role in enumerate(game.roles):
        if tallies["role_games"][r]:
            rate = inference.clustered_rate(ratio_moments(game, tallies, "role_wins", r), confidence)
            out.append(finding("role", role.name, rate, even, tolerance, games))
    used = [s for s, label in enumerate(strategies) if tallies["slot_games"][s]]
    if len(used) > 1:  # one strategy at every seat wins its even share by construction
        for s in used:
            rate = inference.clustered_rate(ratio_moments(game, tallies, "slot_wins", s), confidence)
            out.append(finding("strategy", strategies[s], rate, even, tolerance, games))
    return out


def run_findings(game, tallies, data: dict, confidence: float = 0.95) -> tuple[list[Finding], float]:
    """Every finding the verdict of a run judges, from its tallies and its data (config,
    strategies, dealt teams), and the tolerance: the one list the summary, the sequential
    stopping rule and every command's verdict use. Teams (a team game) or roles and strategies
    (an individual game); seat numbers only where the rules do not make seats alike; positions in
    turn order wherever the game names a first player."""
    config = data.get("config") or {}
    tolerance = float(config.get("balance_tolerance", DEFAULT_TOLERANCE))
    if game.team_game:
        found = team_findings(game, tallies, config.get("balance_target"), tolerance,
                              confidence, data.get("dealt_teams"))
        if not game.symmetric_seats:
            found += seat_findings(tallies, tolerance, confidence)
    else:
        found = individual_findings(game, tallies, data.get("strategies", []),
                                    data.get("slot_table"), tolerance, confidence,
                                    include_seats=not game.symmetric_seats)
    found += position_findings(tallies, tolerance, confidence)
    return found, tolerance

