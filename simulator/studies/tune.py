"""Tuning a setup: a race over the grid that `--vary` axes define, for the setup closest to an
objective.

Every setup (cell) of the grid starts with a few games; the race then doubles the games of the
setups still in it, rung after rung, up to the games per setup of the final precision (`-n`).
After each rung, a setup is eliminated only when it is *clearly* worse than another one: when
the lower end of its objective's interval lies above the upper end of another setup's. The
intervals are Bonferroni-corrected over every interval the race may compute (setups × rungs ×
findings), so with probability at least 1 − alpha all of them hold at once, and then the best
setup is never eliminated. The setups that reach the last rung are exactly the cells a full
sweep at `-n` games would have played (same seed, same chunks), so the race's best is the full
grid's best whenever the grid's best survives, and it costs only the games the race played.

Objectives (each a distance from a target, smaller is better, with its interval):

* ``balanced``: the verdict's findings (a team game: the team at or above its target, its share
  of decided games; an individual game: every seat, role and strategy against an even share):
  the largest |rate − fair share|;
* ``fair-seats``: every seat's win rate against the mean of the seats' win rates: the largest
  |difference| (the mean is taken as known, as the verdict does);
* ``team=P`` (or ``<team name>=P``): the share of decided games won by the first (the named)
  team against P: |share − P|.

The result is a sweep file (schema ``fairplay.sweep``; each cell holds the games the race gave
it) with the race's log under ``tune``: `fairplay report TUNE.json` renders it.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass

import numpy as np
from scipy import stats as sps

from simulator.run import runner
from simulator.run.results import Result
from simulator.studies import sweep as sweep_module
from simulator.studies.sweep import SweepError


class TuneInterrupted(Exception):
    """Ctrl-C: carries the race so far (each setup with the games of its last finished rung)."""

    def __init__(self, tuned):
        super().__init__("interrupted")
        self.tuned = tuned


@dataclass(frozen=True)
class Objective:
    kind: str  # "balanced", "fair-seats", "team"
    text: str
    team: str | None = None
    target: float | None = None

    def describe(self) -> str:
        if self.kind == "balanced":
            return "the largest distance of a verdict finding from its fair share"
        if self.kind == "fair-seats":
            return "the largest distance of a seat's win rate from the seats' mean"
        return (f"the distance of {self.team or 'the first team'}'s share of decided games "
                f"from {100 * self.target:g}%")


def parse_objective(text: str, game) -> Objective:
    """``balanced``, ``fair-seats``, ``team=0.5``, ``wolf=0.4`` -> an Objective (SweepError)."""
    text = text.strip()
    if text in ("balanced", "fair-seats"):
        return Objective(text, text)
    if "=" in text:
        who, value = (part.strip() for part in text.split("=", 1))
        if not game.team_game:
            raise SweepError(f"--objective {text!r}: {game.name} is not a team game; use "
                             f"balanced or fair-seats")
        if who != "team" and who not in game.teams:
            raise SweepError(f"--objective {text!r}: no team {who!r}; teams: "
                             f"{', '.join(game.teams)} (or team=P for the first)")
        try:
            target = float(value)
        except ValueError:
            target = math.nan
        if not 0 <= target <= 1:
            raise SweepError(f"--objective {text!r}: the target share is a number from 0 to 1")
        return Objective("team", text, None if who == "team" else who, target)
    raise SweepError(f"--objective {text!r}: one of balanced, fair-seats, team=P (e.g. "
                     f"team=0.5), <team>=P")


def _rates(result, objective: Objective):
    """(rates, effective trials, targets) of the objective's findings in a result."""
    from simulator.statistics import adaptive

    t, game = result.tallies, result.game
    games = int(t["games"][0])
    if objective.kind == "team":
        i = game.teams.index(objective.team) if objective.team else 0
        decided = int(np.sum(t["team_wins"]))
        p = t["team_wins"][i] / decided if decided else 0.5
        return np.array([p]), np.array([float(decided)]), np.array([objective.target])
    if objective.kind == "fair-seats":
        wins = np.asarray(t["seat_wins"], float)
        mean = wins.sum() / games / len(wins) if games else 0.0
        return wins / max(games, 1), np.full(len(wins), float(games)), np.full(len(wins), mean)
    found, _ = adaptive.findings(result)
    found = [f for f in found if f.rate.trials]
    p = np.array([f.rate.value for f in found])
    n = np.array([f.rate.effective_trials if f.rate.effective_trials is not None
                  else f.rate.trials for f in found], float)
    return p, n, np.array([f.target for f in found])


def distance(result, objective: Objective, confidence: float) -> dict:
    """The objective's distance with an interval: each finding's Wilson interval at
    `confidence` (the game as the unit) gives an interval for |rate − target|; the distance is
    the largest of them, its interval from the ends of theirs."""
    p, n, target = _rates(result, objective)
    if not len(p):
        return {"value": math.inf, "low": math.inf, "high": math.inf}
    z = float(sps.norm.isf((1 - confidence) / 2))
    with np.errstate(divide="ignore", invalid="ignore"):
        finite = np.isfinite(n) & (n > 0)
        n_ = np.where(finite, n, 1.0)
        z2n = np.where(finite, z * z / n_, 0.0)
        centre = (p + z2n / 2) / (1 + z2n)
        half = np.where(finite, z * np.sqrt(p * (1 - p) / n_ + z * z / (4 * n_ * n_)), 0.0) \
            / (1 + z2n)
    low, high = centre - half, centre + half
    far = np.maximum(np.abs(low - target), np.abs(high - target))
    near = np.where((low <= target) & (target <= high), 0.0,
                    np.minimum(np.abs(low - target), np.abs(high - target)))
    return {"value": float(np.max(np.abs(p - target))), "low": float(np.max(near)),
            "high": float(np.max(far))}


def rungs(start: int, games: int) -> list[int]:
    """Games per setup at each rung: start, 2·start, 4·start, ... and finally `games`."""
    out = [start]
    while out[-1] * 2 < games:
        out.append(out[-1] * 2)
    if out[-1] != games:
        out.append(games)
    return out


def _findings_count(result, objective) -> int:
    """How many intervals the objective takes of one setup, at most (before any game)."""
    game, players = result.game, len(result.tallies["seat_wins"])
    if objective.kind == "team":
        return 1
    if objective.kind == "fair-seats":
        return players
    if game.team_game:
        return 1 if len(game.teams) == 2 else len(game.teams)
    return players + len(game.roles) + len(result.data.get("strategies", []))


def race(spec: str, axes, objective_text: str, games: int, start: int, seed: int = 0,
         workers: int | None = None, chunk_size: int | None = None, base_overrides=(),
         alpha: float = 0.05, command: str = "", announce=lambda line: None):
    """Run the race; returns the sweep (cells with the games the race gave them, `tune` log)."""
    if not 0 < alpha < 1:
        raise SweepError(f"--alpha must be between 0 and 1, got {alpha:g}")
    if start < 1 or games < start:
        raise SweepError(f"the first rung's games (--start {start:,}) must be at least 1 and at "
                         f"most the games per setup (-n {games:,})")
    chunk_size = chunk_size or min(runner.DEFAULT_CHUNK_SIZE, start)
    if start % chunk_size:
        raise SweepError(f"--start {start:,} must be a multiple of the chunk size "
                         f"({chunk_size:,}), so that every rung extends the setups' runs exactly")
    planned, _ = sweep_module.plan(spec, axes, start, seed, chunk_size, list(base_overrides),
                                   command)
    objective = parse_objective(objective_text, planned.game)
    valid = [cell for cell in planned.cells if cell.status != "invalid"]
    if not valid:
        raise SweepError(f"every one of the {len(planned.cells)} cells is invalid; nothing to play")
    ladder = rungs(start, games)
    findings = max(_findings_count(cell.result, objective) for cell in valid)
    # Bonferroni: every interval the race may compute holds at once with probability 1 - alpha
    confidence = 1 - alpha / (len(ladder) * len(valid) * findings)
    alive = list(valid)
    log = []
    for r, n in enumerate(ladder):
        before = {cell.index: json.loads(cell.result.to_json()) for cell in alive}
        for cell in alive:
            data = cell.result.data
            if data["games_requested"] != n:
                data["games_requested"], data["complete"] = n, False
                data["command"] = sweep_module.run_command(
                    spec, list(base_overrides) + cell.overrides, n, seed, chunk_size)
            cell.status = "pending"
        announce(f"rung {r + 1} of {len(ladder)}: {len(alive)} setup"
                 f"{'s' if len(alive) > 1 else ''} to {n:,} games")
        try:
            sweep_module.execute(planned, workers)
        except sweep_module.SweepInterrupted:
            for cell in alive:  # a setup cut off in this rung keeps its last finished rung
                if cell.status == "pending" and before[cell.index]["tallies"]["games"][0]:
                    cell.result, cell.status = Result(before[cell.index]), "ok"
            played = [c for c in alive if c.status == "ok"]
            _record(planned, objective, alpha, confidence, ladder, log, played, valid, games)
            planned.data["tune"]["interrupted"] = True
            raise TuneInterrupted(planned) from None
        scores = {cell.index: distance(cell.result, objective, confidence) for cell in alive}
        best_high = min(s["high"] for s in scores.values())
        out = [cell for cell in alive if scores[cell.index]["low"] > best_high] \
            if r < len(ladder) - 1 else []
        log.append({"rung": r + 1, "games": n, "alive": [c.index for c in alive],
                    "eliminated": [c.index for c in out],
                    "scores": {str(i): s for i, s in scores.items()}})
        alive = [cell for cell in alive if cell not in out]
    _record(planned, objective, alpha, confidence, ladder, log, alive, valid, games)
    return planned


def _record(planned, objective, alpha, confidence, ladder, log, alive, valid, games) -> None:
    """The race's log and ranking, in the sweep's data (`tune`)."""
    final = {cell.index: distance(cell.result, objective, 0.95) for cell in alive}
    ranked = sorted(alive, key=lambda c: (final[c.index]["value"], c.index))
    spent = sum(cell.result.games_played for cell in valid if cell.result is not None)
    planned.data["games"] = int(games)
    planned.data["tune"] = {
        "objective": objective.text, "objective_meaning": objective.describe(),
        "alpha": alpha, "interval_confidence": confidence, "rungs": ladder,
        "method": "racing: doubling games per rung; a setup is eliminated when its distance's "
                  "lower bound exceeds another's upper bound, Bonferroni over setups × rungs "
                  "× findings",
        "log": log,
        "ranking": [{"index": c.index, "label": planned.cell_label(c), **final[c.index]}
                    for c in ranked],
        "games_spent": int(spent),
        "games_full_grid": int(games * len(valid)),
        "tied": tied(final, ranked),
    }


def tied(final: dict, ranked: list) -> list[int]:
    """The setups tied with the best within their intervals (the best's included): those whose
    95% interval of the distance reaches below the best one's upper bound. More games, not this
    race, would tell them apart."""
    if not ranked:
        return []
    best = final[ranked[0].index]
    return [c.index for c in ranked if final[c.index]["low"] <= best["high"]]


def tie_sentence(info: dict) -> str:
    """Says when the best setups cannot be told apart: "tied within their intervals"."""
    ties = info.get("tied") or []
    if len(ties) < 2:
        return ""
    labels = [e["label"] for e in info["ranking"] if e["index"] in ties]
    shown = "; ".join(labels[:4]) + (f"; and {len(labels) - 4} more" if len(labels) > 4 else "")
    return (f"The best {len(ties)} setups are tied within their intervals ({shown}): their "
            f"distances' 95% intervals overlap the best one's, so this race cannot rank them; "
            f"more games (-n) would.")


def lines(tuned, top: int = 3) -> list[str]:
    """The terminal summary of a race."""
    info = tuned.data["tune"]
    out = [f"{tuned.data['game']}: tuned for {info['objective']} ({info['objective_meaning']})"]
    out.append(f"Best setups ({tuned.data['games']:,} games each; distance with its 95% "
               f"interval, in points):")
    for rank, entry in enumerate(info["ranking"][:top], start=1):
        out.append(f"  {rank}. {entry['label']}: {100 * entry['value']:.2f} "
                   f"(95% CI {100 * entry['low']:.2f}–{100 * entry['high']:.2f})")
    sentence = tie_sentence(info)
    if sentence:
        out.append(sentence)
    for entry in info["log"]:
        if entry["eliminated"]:
            names = "; ".join(tuned.cell_label(tuned.cells[i]) for i in entry["eliminated"])
            out.append(f"  eliminated after {entry['games']:,} games: {names}")
    spent, full = info["games_spent"], info["games_full_grid"]
    out.append(f"The race played {spent:,} games; the whole grid at the same precision would "
               f"play {full:,} ({full / spent:.1f}× as many).")
    return out
