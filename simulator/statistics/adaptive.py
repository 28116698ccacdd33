"""Adaptive runs: play until the answer is good enough, deciding only at chunk boundaries.

Two stopping rules, stored in the result (``stopping``, see `simulator.run.stopping`) so that
`--resume` follows the same one:

* ``precision``: stop when every headline rate's 95% interval has a half-width of at most the
  precision. The headline rates are the ones the summary leads with, with the same game-level
  intervals: each team's win rate in a team game; each seat's, role's and strategy's win rate in
  an individual game.
* ``decided``: stop when the verdict is settled (balanced within the config's
  `balance_tolerance`, or unbalanced), by the group-sequential test of `simulator.statistics.sequential`.

Both stop at `max_games` at the latest. The rule is checked after each chunk of a *contiguous
prefix* of chunks: chunks that finish out of order (several workers) wait until the chunks
before them are in, and when the rule stops the run at chunk k, chunks beyond k are dropped. The
result is therefore the same for a seed whatever the number of workers, and after Ctrl-C and
`--resume`: it equals a fixed run of the games it stopped at. Why it stopped is recorded
(``stopped``) and said in the summary.
"""

from __future__ import annotations

from scipy import stats as sps

from simulator.statistics import headline, sequential, verdict
from simulator.run.chunks import chunk_count
from simulator.run.stopping import CONFIDENCE, MAX_LOOKS, Rule


def headline_rows(result):
    """The summary's headline rows (simulator.statistics.headline) that the stopping rule watches: teams (a
    team game); seats, roles, strategies (otherwise)."""
    game = result.game
    measures = headline.measures_of(game, result.tallies, result.data.get("strategies", []))
    groups = ("team",) if game.team_game else ("seat", "role", "strategy")
    return headline.rows(measures, CONFIDENCE, groups)


def _looks(data: dict) -> tuple[tuple[float, ...], list[int]]:
    """The sequential test's planned looks: their information fractions, and the chunk after
    which each comes (every chunk; every few chunks when there are more than MAX_LOOKS)."""
    size, cap = data["chunk_size"], int(data["stopping"]["max_games"])
    count = chunk_count(cap, size)
    every = -(-count // MAX_LOOKS)
    after = [k for k in range(count) if (k + 1) % every == 0 or k == count - 1]
    return sequential.fractions([min(cap, (k + 1) * size) for k in after], cap), after


def findings(result):
    """The verdict's findings of a result, at 95% (what the sequential test judges: the same
    findings as the run's verdict, verdict.run_findings)."""
    return verdict.run_findings(result.game, result.tallies, result.data, CONFIDENCE)


def repeated_note(data: dict) -> str:
    """What the summary says of its intervals when they are repeated confidence intervals."""
    level = interval_level(data)
    if level <= CONFIDENCE:
        return ""
    critical = data["stopped"]["critical_z_unbalanced"]
    return (f"Intervals: repeated confidence intervals of the group-sequential design (z = "
            f"{critical:.2f} at the stopping look, {100 * level:.2f}% each): they cover the true "
            f"rates with 95% probability whatever look the run stopped at, where plain 95% "
            f"intervals after an early stop would be too narrow.")


def interval_level(data: dict) -> float:
    """The confidence level a run's intervals are printed at: 95%, or for a run the sequential
    verdict stopped, the pointwise level of its repeated confidence interval at the stopping
    look, 2Φ(c_k) − 1 with c_k the look's critical value (Jennison & Turnbull 2000, ch. 9):
    intervals at that level cover the true rates with 95% probability whatever look the run
    stopped at, where a plain 95% interval after an early stop is optimistic."""
    stopped = data.get("stopped") if isinstance(data.get("stopped"), dict) else {}
    critical = stopped.get("critical_z_unbalanced")
    if not isinstance(critical, (int, float)) or not 1.0 < critical < 50:
        return CONFIDENCE
    # 1 - 2·sf keeps the precision that 2·cdf - 1 loses; a level a float cannot tell from 1
    # (z above 8) is held just below it
    return float(min(max(CONFIDENCE, 1 - 2 * sps.norm.sf(critical)), 1 - 2 ** -50))


def decision(result) -> tuple[str | None, dict]:
    """The sequential verdict at the result's last chunk boundary: ("balanced" | "unbalanced" |
    None, details)."""
    looks, after = _looks(result.data)
    chunk = len(result.data["chunks_done"]) - 1
    if chunk not in after:
        return None, {"look": None, "looks_planned": len(looks)}
    k = after.index(chunk)
    c_balanced = float(sequential.boundaries(looks, sequential.ALPHA_BALANCED)[k])
    c_unbalanced = float(sequential.boundaries(looks, sequential.ALPHA_UNBALANCED)[k])
    found, tolerance = findings(result)
    details = {"look": k + 1, "looks_planned": len(looks), "critical_z_balanced": c_balanced,
               "critical_z_unbalanced": c_unbalanced}
    found = [f for f in found if f.rate.trials]
    if not found:
        return None, details
    p = [f.rate.value for f in found]
    n = [f.rate.effective_trials if f.rate.effective_trials is not None else f.rate.trials
         for f in found]
    balanced, unbalanced = sequential.status(p, n, [f.target for f in found], tolerance,
                                             c_balanced, c_unbalanced)
    if bool(unbalanced):
        return "unbalanced", details
    if bool(balanced):
        return "balanced", details
    return None, details


def stops(result) -> bool:
    """Check the rule at the result's last chunk boundary; on a stop, record why and close the
    run (its target becomes the games played). True when it stopped."""
    data = result.data
    rule = Rule.of(data)
    if rule is None or not data["chunks_done"]:
        return False
    games = result.games_played
    if rule.kind == "precision":
        rows = headline_rows(result)
        widest = max(rows, key=lambda row: row.rate.half_width, default=None)
        if widest is None or widest.rate.half_width > rule.precision:
            return _at_cap(result, rule, widest)
        _close(result, {"reason": "precision", "games": games,
                        "chunks": len(data["chunks_done"]),
                        "widest": {"group": widest.group, "name": widest.name,
                                   "half_width": widest.rate.half_width}})
        return True
    status, details = decision(result)
    if status is None:
        return _at_cap(result, rule, None, details)
    _close(result, {"reason": status, "games": games, "chunks": len(data["chunks_done"]),
                    **details})
    return True


def _at_cap(result, rule, widest=None, details=None) -> bool:
    if result.games_played < rule.max_games:
        return False
    stopped = {"reason": "max-games", "games": result.games_played,
               "chunks": len(result.data["chunks_done"])}
    if widest is not None:
        stopped["widest"] = {"group": widest.group, "name": widest.name,
                             "half_width": widest.rate.half_width}
    stopped.update(details or {})
    _close(result, stopped)
    return True


def _close(result, stopped: dict) -> None:
    data = result.data
    data["stopped"] = stopped
    data["games_requested"] = int(result.games_played)
    data["complete"] = True


def sentence(data: dict) -> str:
    """What the summary says about an adaptive run: how many games it took, and why it stopped."""
    try:
        return _sentence(data)
    except (KeyError, TypeError, ValueError):  # a hand-edited record: say what is sure
        return "Adaptive run (its record of why it stopped cannot be read)."


def _sentence(data: dict) -> str:
    rule = Rule.of(data)
    if rule is None:
        return ""
    stopped = data.get("stopped")
    if not isinstance(stopped, dict):
        return f"Adaptive run ({rule.describe()}), not finished yet."
    games = f"{int(stopped.get('games', 0)):,} games"
    widest = stopped.get("widest") or {}
    if rule.kind == "precision":
        what = (f"the widest: {widest.get('group')} {widest.get('name')} "
                f"±{100 * float(widest.get('half_width', 0)):.2f} points") if widest else ""
        if stopped.get("reason") == "precision":
            return (f"Stopped after {games}: every headline rate's 95% interval is within "
                    f"±{100 * rule.precision:g} points ({what}).")
        return (f"Stopped at the cap of {rule.max_games:,} games (--max-games) before every "
                f"headline rate reached ±{100 * rule.precision:g} points ({what}).")
    look = (f"look {stopped.get('look')} of {stopped.get('looks_planned')}, a group-sequential "
            f"test with O'Brien-Fleming-like alpha spending")
    if stopped.get("reason") in ("balanced", "unbalanced"):
        return f"Stopped after {games}: the verdict is settled ({stopped['reason']}; {look})."
    return (f"Stopped at the cap of {rule.max_games:,} games (--max-games) before the verdict "
            f"was settled ({look}).")
