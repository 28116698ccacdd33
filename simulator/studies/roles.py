"""Role values: how much one copy of a role moves a team's win rate, from paired runs.

For each candidate role (a role of the game with a `roles.<name>` config key, other than the
game's declared filler role), two setups are played: the base config, and the same config with
one more of the role, which takes the place of one filler (werewolf: a villager). Where the config
refuses one more (a second seer), and the base already deals the role, the pair is the base with
one fewer (a filler in its place) against the base: the value of its last copy (for a role that
comes in pairs, its last two). Any other role is skipped with a note.

Players. A game named by its name (its built-in setup) is measured with its people-like strategy
at every seat (`MEASURING_STRATEGY`), unless the command sets `strategies`; a config file plays
the strategies it names. The table always says who the values were measured with.

Pairing. Both setups of a pair are played with the same seed and chunk size, so chunk i of each
draws from the same `chunk_rng(seed, i)`, and chunks are independent of one another, so the
chunk is the unit of the paired analysis. The pairing is valid but buys little today: a changed
deck deals the other roles to other seats for the same shuffle, and the two streams part at the
first game, so the chunks' win counts are nearly independent (docs/statistics.md measures it;
per-game streams alone did not help either: a correlation of about 0.05 per game on werewolf's
rich 16-player setup, the deal being the cause).

Statistics (derived in docs/statistics.md). Chunk i has n_i games in both setups and x_i = w_i(with)
- w_i(without), the difference of the team's wins. The estimate is

    D = sum(x_i) / N,   N = sum(n_i),

the difference of the two win rates. D is a ratio of sums over K independent chunks; by the delta
method (the cluster ratio estimator), with residuals r_i = x_i - D n_i,

    Var(D) ~= K / (K - 1) * sum(r_i^2) / N^2,

and the interval is D +- t_{K-1, 0.975} sqrt(Var(D)) (Student's t with K - 1 degrees of freedom,
conservative for few chunks). With equal chunks this is exactly the paired t interval of the
per-chunk differences d_i = x_i / n: r_i = n (d_i - mean d), so Var(D) = s_d^2 / K. The unpaired
interval — what two independent runs of N games would give — is D +- z sqrt(p1 q1 / N + p0 q0 / N);
the ratio of the two widths says how much the pairing bought.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field

import numpy as np
from scipy import stats as scipy_stats

from simulator.setup import config as config_module
from simulator.setup import datafile
from simulator.run import runner
from simulator.run.chunks import chunk_count, chunk_rng
from simulator.setup.config import ConfigError
from simulator.games import driver
from simulator.run.results import versions

CONFIDENCE = 0.95
TARGET_CHUNKS = 50  # default chunk size: about this many chunks per setup, for the t interval


class RolesError(Exception):
    """A user's mistake (a game without a filler role, too few chunks): one line."""


# A roles file (`fairplay roles -o`): each role's value with the setups that measured it.
ROLES_FILE = datafile.Kind(
    "fairplay.roles", 2, "roles",  # 2: checksummed whole
    error=lambda path, message: RolesError(f"{path}: {message}"),
    made_by="fairplay roles", checksummed=True, fields={
        "game": ((str,), datafile.REQUIRED), "games": ((int,), datafile.REQUIRED),
        "seed": ((int,), datafile.REQUIRED), "roles": ((list,), datafile.REQUIRED),
        "skipped": ((list,), datafile.REQUIRED)})


MIN_CHUNK_GAMES = 100  # the fewest games of a default chunk
MAX_PAIRED_CHUNKS = 1_000_000  # a paired interval keeps a count per chunk of each setup


def check_chunk_count(games: int, chunk_size: int, what: str) -> None:
    """Refuse, before any game is played, more chunks than a paired interval keeps (its counts
    per chunk would not fit in memory)."""
    chunks = chunk_count(games, chunk_size)
    if chunks > MAX_PAIRED_CHUNKS:
        raise RolesError(f"{what} {games:,} in chunks of {chunk_size:,} is {chunks:,} chunks; "
                         f"a paired interval keeps at most {MAX_PAIRED_CHUNKS:,} (fewer games"
                         f" or larger chunks)")


def default_chunk_size(games: int) -> int:
    """About TARGET_CHUNKS chunks per setup, at least MIN_CHUNK_GAMES games each, at most the
    runner's."""
    return max(1, min(runner.DEFAULT_CHUNK_SIZE,
                      max(MIN_CHUNK_GAMES, math.ceil(games / TARGET_CHUNKS))))


def role_counts(cfg) -> list[int]:
    """Copies of each role dealt per game: the params' `role_counts` where the game keeps them,
    else what one game dealt (the role tallies of a one-game run)."""
    counts = getattr(cfg.params, "role_counts", None)
    if counts is not None:
        return [int(c) for c in counts]
    tallies, _ = driver.play(cfg.game, cfg.params, cfg.lineup, 1, chunk_rng(0, 0))
    return [int(c) for c in tallies["role_games"]]


@dataclass
class Pair:
    """One candidate role: the setup without it (index into the plan's setups) and with it."""

    role: str
    without: int
    with_: int
    count_without: int
    count_with: int
    note: str = ""


@dataclass
class Plan:
    game: object
    spec: str
    players: int
    overrides: list[str]
    games: int
    seed: int
    chunk_size: int
    team: str
    setups: list = field(default_factory=list)  # (label, overrides, Config)
    pairs: list[Pair] = field(default_factory=list)
    skipped: list[dict] = field(default_factory=list)  # {"role", "note"}
    command: str = ""


def plan(spec: str, players: int | None = None, overrides=(), games: int = 100_000,
         seed: int = 0, chunk_size: int | None = None, command: str = "") -> Plan:
    """Resolve the base setup and every candidate's pair, without playing.

    Raises ConfigError for a bad base config and RolesError for a game without a filler role or
    a run too short to give an interval."""
    if games < 1:
        raise RolesError(f"--games must be at least 1, got {games}")
    chunk_size = default_chunk_size(games) if chunk_size is None else chunk_size
    if chunk_size < 1:
        raise RolesError(f"--chunk-size must be at least 1, got {chunk_size}")
    check_chunk_count(games, chunk_size, "-n")
    if chunk_count(games, chunk_size) < 2:
        raise RolesError(f"-n {games:,} with chunks of {chunk_size:,} is one chunk; the paired "
                         f"interval needs at least 2 (more games or a smaller --chunk-size)")
    base = config_module.load(spec, list(overrides), players)
    game = base.game
    overrides = list(overrides)
    if measured_by_default(spec, overrides, game):
        # A game's built-in setup says how its rules play, not how people play it: role values
        # are measured with its people-like strategy unless the command names the players
        overrides.insert(0, f"strategies={{all = \"{game.measuring_strategy}\"}}")
        base = config_module.load(spec, overrides, players)
    if not game.team_game or not game.filler_role:
        raise RolesError(f"{game.name} declares no filler role (FILLER_ROLE in its declaration), "
                         f"so no role can be added in place of one; fairplay roles needs a team "
                         f"game with one")
    filler = game.filler_role
    team = game.roles[game.role_index(filler)].team
    out = Plan(game, spec, base.params.players if hasattr(base.params, "players") else players,
               list(overrides), games, seed, chunk_size, team, command=command)
    out.setups.append(("base", [], base))
    counts = role_counts(base)
    keys = {key.path for key in game.config_keys}
    filler_code = game.role_index(filler)

    def variant(name, count):
        """The config with `count` copies of role `name` (fillers fill the rest), or its error."""
        text = f"roles.{name}={count}"
        try:
            cfg = config_module.load(spec, list(overrides) + [text], players)
        except ConfigError as exc:  # (the file is the base's, the key the role's: the reason)
            return None, text, exc.message
        changed = role_counts(cfg)
        moved = [c1 - c0 for c0, c1 in zip(counts, changed)]
        expected = [0] * len(counts)
        expected[game.role_index(name)] = count - counts[game.role_index(name)]
        expected[filler_code] = -expected[game.role_index(name)]
        if moved != expected:
            return None, text, (f"{text} changes more than one {name} for one {filler} "
                                f"(other roles follow it)")
        return cfg, text, ""

    def refused_more(refused, both=False):
        """Why one more (with `both`: and two more) was refused."""
        if 1 not in refused:
            return f"the base setup has no {filler} to replace"
        if both and 2 in refused:
            return f"one more: {refused[1]}; two more: {refused[2]}"
        return refused[1]

    for role in game.roles:
        name = role.name
        if name == filler:
            continue
        if f"roles.{name}" not in keys:
            out.skipped.append({"role": name, "note": f"the config has no roles.{name} key"})
            continue
        have = counts[game.role_index(name)]
        # One more copy in place of a filler (a role that comes in pairs: two more); else the
        # base's last copy against a filler (a pair: its last two against two).
        refused = {}  # step -> why the config refused it
        for step in (1, 2, -1, -2):
            if (counts[filler_code] if step > 0 else have) < abs(step):
                continue
            cfg, text, why = variant(name, have + step)
            if cfg is None:
                refused[step] = why
            elif step > 0:
                out.setups.append((f"+{name}", [text], cfg))
                out.pairs.append(Pair(name, 0, len(out.setups) - 1, have, have + step))
                break
            else:
                last = "last copy against a" if step == -1 else "last two against two"
                out.setups.append((f"-{name}", [text], cfg))
                out.pairs.append(Pair(name, len(out.setups) - 1, 0, have + step, have,
                                      note=f"one more refused ({refused_more(refused)}); measured "
                                           f"as the base's {last} {filler}"
                                           f"{'' if step == -1 else 's'}"))
                break
        else:
            fewer = "".join(f"; {'one' if step == -1 else 'two'} fewer: {why}"
                            for step, why in refused.items() if step < 0)
            out.skipped.append({"role": name,
                                "note": f"skipped: {refused_more(refused, both=True)}{fewer}"})
    return out


def measured_by_default(spec: str, overrides, game) -> bool:
    """Are the players left to `fairplay roles`: a game's name (its built-in setup), no
    `strategies` override, and a people-like strategy declared (`MEASURING_STRATEGY`)?"""
    told = any(text.split("=", 1)[0].strip().startswith("strategies") for text in overrides)
    return bool(game.measuring_strategy) and not config_module.names_a_file(spec) and not told


class RolesInterrupted(Exception):
    """Ctrl-C: nothing partial is kept (the pairs need every chunk of both setups)."""


def execute(p: Plan, workers: int | None = None,
            progress: runner.Progress | None = None) -> dict:
    """Play every setup's chunks through one pool and return the role values (JSON data)."""
    progress = progress or runner.Progress()
    results = [runner.start(cfg, p.games, p.seed, p.chunk_size) for _, _, cfg in p.setups]
    team = p.game.teams.index(p.team)
    chunks = chunk_count(p.games, p.chunk_size)
    wins = np.zeros((len(results), chunks), dtype=np.int64)  # the team's wins per chunk
    played = np.zeros((len(results), chunks), dtype=np.int64)
    index_of = {id(result): i for i, result in enumerate(results)}
    runner.announce_compiling(results[:1], progress)
    progress.start(0, p.games * len(results))

    def on_done(result, chunk, tallies, seconds):
        i = index_of[id(result)]
        wins[i, chunk] = tallies["team_wins"][team]
        played[i, chunk] = tallies["games"][0]
        result.add_chunk(chunk, tallies)
        progress.advance(int(tallies["games"][0]))

    jobs = ((result, chunk) for chunk in range(chunks) for result in results)
    try:
        runner.play_jobs(results, jobs, workers, on_done, isolate=True)
    except KeyboardInterrupt:
        progress.close()
        raise RolesInterrupted() from None
    progress.close()
    rows = [pair_estimate(pair, wins[pair.with_], wins[pair.without], played[pair.with_],
                          played[pair.without]) for pair in p.pairs]
    rows = simultaneous(rows, chunks)
    rows.sort(key=lambda r: (-r["value"], r["role"]))
    base_cfg = p.setups[0][2]
    return {
        **ROLES_FILE.header(),
        "game": p.game.name, "config": p.spec, "source": base_cfg.source,
        "players": p.players, "overrides": p.overrides,
        "games": p.games, "seed": p.seed, "chunk_size": p.chunk_size, "chunks": chunks,
        "team": p.team, "filler": p.game.filler_role, "confidence": CONFIDENCE,
        "simultaneous": "Bonferroni across the roles (one base run); Holm for the tests",
        "strategies": [slot.label() for slot in base_cfg.slots],
        "base_setup": p.game.describe_setup(base_cfg.params),
        "setups": [{"label": label, "overrides": over,
                    "win_rate": float(wins[i].sum() / played[i].sum())}
                   for i, (label, over, _) in enumerate(p.setups)],
        "roles": rows, "skipped": p.skipped,
        "width_ratio_median": (float(np.median([r["width_ratio"] for r in rows]))
                               if rows else None),
        "command": p.command, "versions": versions(),
    }


def paired_interval(x: np.ndarray, n: np.ndarray, confidence: float = CONFIDENCE):
    """D = sum(x) / sum(n) and its t interval from the chunk residuals (module docstring)."""
    x, n = np.asarray(x, dtype=np.float64), np.asarray(n, dtype=np.float64)
    k, total = len(x), n.sum()
    d = x.sum() / total
    residuals = x - d * n
    se = math.sqrt(k / (k - 1) * float(np.sum(residuals ** 2))) / total
    half = float(scipy_stats.t.ppf(0.5 + confidence / 2, k - 1)) * se
    return float(d), float(d - half), float(d + half), se


def paired_difference(w1, n1, w0, n0, confidence: float = CONFIDENCE):
    """D = sum(w1)/sum(n1) − sum(w0)/sum(n0) for two setups played on the same chunks, where a
    chunk's trial counts may differ between them (a team's seat-games change when players change
    teams during play), and its t interval from the linearised chunk residuals
    z = (w1 − r1·n1)/N1 − (w0 − r0·n0)/N0; with n1 = n0 this is `paired_interval`."""
    w1, n1, w0, n0 = (np.asarray(a, dtype=np.float64) for a in (w1, n1, w0, n0))
    k, big1, big0 = len(w1), n1.sum(), n0.sum()
    r1, r0 = w1.sum() / big1, w0.sum() / big0
    z = (w1 - r1 * n1) / big1 - (w0 - r0 * n0) / big0
    se = math.sqrt(k / (k - 1) * float(np.sum(z ** 2)))
    half = float(scipy_stats.t.ppf(0.5 + confidence / 2, k - 1)) * se
    d = float(r1 - r0)
    return d, d - half, d + half, se


def unpaired_interval(w1: int, w0: int, n: int, confidence: float = CONFIDENCE):
    """The Wald interval of a difference of two independent proportions over n games each."""
    p1, p0 = w1 / n, w0 / n
    se = math.sqrt(p1 * (1 - p1) / n + p0 * (1 - p0) / n)
    half = float(scipy_stats.norm.ppf(0.5 + confidence / 2)) * se
    return p1 - p0 - half, p1 - p0 + half, se


def pair_estimate(pair: Pair, w_with, w_without, n_with, n_without) -> dict:
    if not np.array_equal(n_with, n_without):
        raise RuntimeError("the two setups of a pair played different chunks")
    value, low, high, se = paired_interval(w_with - w_without, n_with)
    total = int(n_with.sum())
    ulow, uhigh, use = unpaired_interval(int(w_with.sum()), int(w_without.sum()), total)
    return {
        "role": pair.role, "value": value, "low": low, "high": high, "se": se,
        "pointwise_low": low, "pointwise_high": high,
        "excludes_zero": bool(low > 0 or high < 0),
        "unpaired_low": ulow, "unpaired_high": uhigh,
        "width_ratio": float((high - low) / (uhigh - ulow)) if uhigh > ulow else None,
        "with_rate": float(w_with.sum() / total), "without_rate": float(w_without.sum() / total),
        "count_without": pair.count_without, "count_with": pair.count_with,
        "games": total, "note": pair.note,
    }


def simultaneous(rows: list[dict], chunks: int, confidence: float = CONFIDENCE) -> list[dict]:
    """Make the roles' intervals hold together: every value of one table is measured against the
    same base run, and a designer reads them side by side, so each interval is widened to
    Bonferroni's 1 - (1 - confidence)/m (m roles: valid whatever the dependence through the
    shared base), and each value's paired t-test is Holm-adjusted across the table. `low` and
    `high` become the simultaneous interval; the one-at-a-time interval stays as `pointwise_*`."""
    from simulator.statistics import inference

    m = len(rows)
    if not m:
        return rows
    level = 1 - (1 - confidence) / m
    t = float(scipy_stats.t.ppf(0.5 + level / 2, chunks - 1))
    pvalues = []
    for row in rows:
        se = row["se"]
        row["low"], row["high"] = row["value"] - t * se, row["value"] + t * se
        pvalues.append(float(2 * scipy_stats.t.sf(abs(row["value"]) / se, chunks - 1))
                       if se > 0 else (1.0 if row["value"] == 0 else 0.0))
    for row, p, adjusted in zip(rows, pvalues, inference.holm(pvalues)):
        row["p"], row["p_holm"] = p, float(adjusted)
        row["excludes_zero"] = bool(row["low"] > 0 or row["high"] < 0)
    return rows


def measured_with(strategies: list[str]) -> str:
    """Who the values were measured with, in words (random play says what that means)."""
    names = sorted(set(strategies))
    text = "measured with " + ", ".join(names)
    if names == ["random"]:
        text += (" (every seat plays at random: the values say what a role is worth to players "
                 "who do not use it, not to people)")
    return text


def table(data: dict) -> list[str]:
    """The terminal table, sorted by value (largest first)."""
    pct = lambda x: f"{100 * x:+.1f}"  # noqa: E731
    together = len(data["roles"])
    lines = [f"Role values in {data['game']} ({data['players']} players, {data['games']:,} games "
             f"per setup, seed {data['seed']}): the {data['team']} win rate with one more of the "
             f"role in place of a {data['filler']}, in points, with 95% paired intervals that "
             f"hold together across the {together} roles (Bonferroni: every value is measured "
             f"against one base run)",
             f"  base setup: {data['base_setup'].get('roles', data['config'])}"]
    if data.get("strategies"):
        lines.append(f"  {measured_with(data['strategies'])}")
    width = max([len(r["role"]) for r in data["roles"]] + [4])
    lines.append(f"  {'role':<{width}}  {'value':>6}  {'95% interval':>15}  {'copies':>6}  "
                 f"{'without':>7}  {'with':>6}  {'paired/unpaired width':>21}")
    for r in data["roles"]:
        ratio = "n/a" if r["width_ratio"] is None else f"{r['width_ratio']:.2f}"
        lines.append(f"  {r['role']:<{width}}  {pct(r['value']):>6}  "
                     f"{pct(r['low']) + ' to ' + pct(r['high']):>15}  "
                     f"{str(r['count_without']) + '->' + str(r['count_with']):>6}  "
                     f"{100 * r['without_rate']:>6.1f}%  {100 * r['with_rate']:>5.1f}%  "
                     f"{ratio:>21}")
    lines += [f"  note: {line}" for line in notes(data)]
    return lines


def notes(data: dict) -> list[str]:
    """The roles' notes (measured otherwise, or skipped), one line per distinct note: "seer,
    witch: one more refused (...)"."""
    grouped: dict[str, list[str]] = {}
    for row in list(data["roles"]) + list(data["skipped"]):
        if row["note"]:
            grouped.setdefault(row["note"], []).append(row["role"])
    return [f"{', '.join(roles)}: {note}" for note, roles in grouped.items()]


def save(data: dict, path) -> None:
    from simulator.fileio import write_atomically

    write_atomically(path, json.dumps(ROLES_FILE.seal(data), indent=1, ensure_ascii=False))


def run_roles(spec: str, players: int | None = None, overrides=(), games: int = 100_000,
              seed: int = 0, chunk_size: int | None = None, workers: int | None = None,
              command: str = "", progress: runner.Progress | None = None) -> dict:
    """Plan and play (the Python API's entry point)."""
    return execute(plan(spec, players, overrides, games, seed, chunk_size, command), workers,
                   progress)

