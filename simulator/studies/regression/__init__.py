"""Regression checks: a baseline of a setup's headline measures, and a check against it.

`fairplay baseline` plays each config and stores, per setup, every headline measure with the
counts it is computed from (win counts and games of every team, seat, role, strategy and
position in turn order; end conditions; the mean game length, and mean scores where a game keeps score sums) plus the full
tallies, the resolved config, the seed, the games, the chunk size and the versions. The file is
JSON with the versioned schema ``fairplay.baselines``.

`fairplay check` plays every setup again and compares each measure with its baseline by a
two-sample test: the pooled two-proportion z-test for rates, Welch's t-test for means. The
p-values of ALL measures of all setups are Holm-corrected together, so an unchanged game fails a
check with probability at most ``alpha`` however many measures there are. A measure fails only
when its change is significant after Holm (adjusted p < alpha) AND larger than the tolerance, so a
real but negligible drift measured on millions of games does not break a build.

* The check re-reads each config from its *file* (path stored relative to the baselines file), so a
  rules or config change is what it detects; ``stored_config=True`` replays the config dict stored
  in the baseline instead, which isolates code and strategy changes.
* By default the check plays with seed ``baseline seed + 1``: an unchanged setup is then tested
  against chance, not against a bit-identical copy of itself; and being fixed, that seed makes a
  check of an unchanged setup give the same verdict on every CI run.
* Exact mode replays the baseline's seed, games and chunk size and demands bit-identical tallies;
  it applies only when the fairplay, Numba and NumPy versions are the baseline's.

A measure that exists on one side only (a seat, role or strategy that appears or disappears) is a
change of the setup's shape and fails without a test. Role and strategy measures count seat-games,
which are not independent within a game (team-mates win together, rivals exclude each other);
their tests take the game as the unit, from the per-game moments the engine keeps
(`Measure.moments`, `inference.two_clustered`).

The package, one job per module (the headline measures it compares are declared once, in
`simulator.statistics.headline`): `baselines` (the file: written, read and checked as data), `checking` (playing the setups, for a
baseline and for a check), `comparison` (the statistics of the comparison, and exact mode's
tally by tally), `report` (what a check says, as text and as JUnit XML). What the commands and
the Python API use is named here.
"""

from simulator.studies.regression.baselines import Baseline, BaselineError, load_baseline, save
from simulator.studies.regression.checking import (DEFAULT_GAMES, check, make_baseline, run_setups,
                                           update)
from simulator.studies.regression.comparison import (DEFAULT_ALPHA, DEFAULT_MEAN_TOLERANCE,
                                             DEFAULT_TOLERANCE, DRIFT, FAIL, MISSING, NEW, OK,
                                             Comparison, compare)
from simulator.statistics.headline import Measure, measures_of
from simulator.studies.regression.report import CheckReport

__all__ = ["Baseline", "BaselineError", "load_baseline", "save", "DEFAULT_GAMES", "check",
           "make_baseline", "run_setups", "update", "DEFAULT_ALPHA", "DEFAULT_MEAN_TOLERANCE",
           "DEFAULT_TOLERANCE", "DRIFT", "FAIL", "MISSING", "NEW", "OK", "Comparison", "compare",
           "Measure", "measures_of", "CheckReport"]
