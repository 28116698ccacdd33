"""An adaptive run's stopping rule as its result stores it (``stopping``), so that `--resume`
follows the same one: what it asks for, written and read back, and checked when a result file
is read. `simulator.statistics.adaptive` applies it after each chunk."""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_MAX_GAMES = 10_000_000
CONFIDENCE = 0.95
MAX_LOOKS = 1_000  # planned looks of the sequential test; more chunks: a look every few chunks
# The group-sequential test's design (simulator.statistics.sequential computes its boundaries
# from these); a --until-decided result stores it with its rule.
ALPHA_BALANCED = 0.05  # the equivalence test's level (the fixed verdict's 90% interval)
ALPHA_UNBALANCED = 0.025  # one side of the fixed verdict's 95% interval
SPENDING = "Lan-DeMets O'Brien-Fleming-like alpha spending, α(t) = 2 − 2Φ(z_{1−α/2}/√t)"


@dataclass(frozen=True)
class Rule:
    kind: str  # "precision" or "decided"
    max_games: int
    precision: float | None = None

    def to_json(self) -> dict:
        out = {"rule": self.kind, "max_games": int(self.max_games)}
        if self.kind == "precision":
            out.update(precision=float(self.precision), confidence=CONFIDENCE)
        else:
            out.update(alpha_balanced=ALPHA_BALANCED, alpha_unbalanced=ALPHA_UNBALANCED,
                       spending=SPENDING,
                       looks=f"every chunk boundary (at most {MAX_LOOKS:,} looks)")
        return out

    @classmethod
    def of(cls, data: dict) -> "Rule | None":
        """The stopping rule stored in a result's data (None: a run of a fixed size)."""
        stored = data.get("stopping")
        if not stored:
            return None
        if stored.get("rule") == "precision":
            return cls("precision", int(stored["max_games"]), float(stored["precision"]))
        return cls("decided", int(stored["max_games"]))

    def describe(self) -> str:
        if self.kind == "precision":
            return (f"--precision {self.precision:g}: until every headline rate's 95% interval "
                    f"is within ±{100 * self.precision:g} points, at most "
                    f"{self.max_games:,} games")
        return f"--until-decided: until the verdict is settled, at most {self.max_games:,} games"


def problem(data: dict) -> str | None:
    """Why a result's stored rule cannot be followed (a rule that cannot be read, or an adaptive
    result whose chunks are not a prefix: they are merged in order); None when it can."""
    stored = data.get("stopping")
    if stored is None:
        return None
    try:
        if not isinstance(stored, dict) or stored.get("rule") not in ("precision", "decided"):
            raise ValueError
        rule = Rule.of(data)
        if rule.max_games < 1 or (rule.kind == "precision" and not 0 < rule.precision < 0.5):
            raise ValueError
    except (KeyError, TypeError, ValueError):
        return "corrupt result: its stopping rule cannot be read"
    chunks = data.get("chunks_done") or []
    if sorted(chunks) != list(range(len(chunks))):
        return "corrupt result: an adaptive run's chunks must be 0, 1, 2, ... (they are merged " \
               "in order)"
    return None
