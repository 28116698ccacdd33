"""Runs: fixed-size chunks, each seeded from SeedSequence(seed, spawn_key=(chunk,)), tallied in
integer arrays and summed. Integer sums do not depend on order, so a run's result is bit-identical
for the same seed whatever the number of workers, and after an interrupt and a resume.

Memory does not grow with the number of games: a chunk's tallies are merged into the totals and
dropped, and at most a few chunks per worker are in flight at any time.

The runner drives a run's chunks through a backend, `local_backend` (this process or a pool of
worker processes) or `dask_backend` (a cluster); what a worker plays for one chunk is in
`chunks`. No module below the runner imports it.
"""

from __future__ import annotations

import os
import shlex
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from simulator.run import chunks, compiling, local_backend
from simulator.setup import config as config_module
from simulator.games import driver
from simulator.games.base import is_private_line
from simulator.run.results import Result, ResultError, new_result_data

DEFAULT_CHUNK_SIZE = 20_000
CHECKPOINT_EVERY_SECONDS = 10.0


def trace_game(cfg: config_module.Config, seed: int, game: int = 0,
               chunk_size: int = DEFAULT_CHUNK_SIZE, max_rows: int = 20_000,
               private: bool = False) -> list[str]:
    """Replay game `game` (0-based) of a run of `cfg` with `seed` and `chunk_size`, recording
    every event, and decode it: the same game the run played, from the same kernel. What a seat
    privately learns (lines marked `base.PRIVATE_MARK`) is kept only with `private`. A game in
    which a strategy fails, or which goes past a cap its rules declare, raises the GameFault with
    the lines up to the fault as `lines`."""
    return trace_game_with_tables(cfg, seed, game, chunk_size, max_rows, private)[0]


def trace_game_with_tables(cfg: config_module.Config, seed: int, game: int = 0,
                           chunk_size: int = DEFAULT_CHUNK_SIZE, max_rows: int = 20_000,
                           private: bool = False) -> tuple[list[str], list[list[dict]]]:
    """`trace_game`'s lines, and for each line the table after it: each seat's role, whether it
    is out and why, what lies before it and what it learned (the game's trace marks; a decoder
    that keeps no table gives an empty one)."""
    chunk, index = divmod(game, chunk_size)
    decode = cfg.game.decode_trace

    def story(rows):
        if hasattr(decode, "with_tables"):
            lines, tables = decode.with_tables(rows, cfg.params)
        else:
            lines = decode(rows, cfg.params)
            tables = [[] for _ in lines]
        kept = [private or not is_private_line(line) for line in lines]
        return ([line for line, keep in zip(lines, kept) if keep],
                [table for table, keep in zip(tables, kept) if keep])

    try:
        _, rows = driver.play(cfg.game, cfg.params, cfg.lineup, index + 1,
                              chunks.chunk_rng(seed, chunk), trace_rows=max_rows,
                              trace_game=index)
    except driver.GameFault as fault:
        fault.lines = story(fault.trace)[0]
        raise
    return story(rows)


def kernel_is_ready(cfg: config_module.Config) -> bool:
    """False when the first chunk will compile the game's kernel (a minute or so, once)."""
    return driver.kernel_is_ready(cfg.game, cfg.params, cfg.lineup)


# --- a whole run -------------------------------------------------------------------------------
@dataclass
class Progress:
    """Callbacks a caller may pass (the CLI wires them to tqdm)."""

    start: Callable[[int, int], None] = lambda done_games, total_games: None
    advance: Callable[[int], None] = lambda games: None
    close: Callable[[], None] = lambda: None
    announce: Callable[[str], None] = lambda line: None  # a line for the user, e.g. compiling
    # what is happening now, shown until the next status ("" clears it): what compiles
    status: Callable[[str], None] = lambda line: None
    warn: Callable[[str], None] = lambda line: None  # a warning: shown even when quiet


class Interrupted(Exception):
    """Raised after Ctrl-C once the partial result is saved; carries that result."""

    def __init__(self, result: Result, path: Path | None):
        super().__init__("interrupted")
        self.result, self.path = result, path


def start(cfg: config_module.Config, games: int, seed: int, chunk_size: int = DEFAULT_CHUNK_SIZE,
          command: str = "", stopping=None) -> Result:
    """A fresh, empty result for a run (nothing played yet). With `stopping` (a
    stopping.Rule) `games` is its cap: the run stops when the rule says so (simulator.statistics.adaptive)."""
    if games < 1:
        raise ValueError("the number of games must be at least 1")
    if chunk_size < 1:
        raise ValueError("the chunk size must be at least 1")
    data = new_result_data(cfg, games=games, seed=seed, chunk_size=chunk_size, command=command)
    if stopping is not None:
        data["stopping"] = stopping.to_json()
    return Result(data)


def missing_chunks(result: Result):
    """The chunks of a run that are not in its tallies yet, one at a time (a run of 10^12 games
    never lists them all)."""
    data = result.data
    done = set(data["chunks_done"])
    return (c for c in range(chunks.chunk_count(data["games_requested"], data["chunk_size"]))
            if c not in done)


def missing_count(result: Result) -> int:
    data = result.data
    return (chunks.chunk_count(data["games_requested"], data["chunk_size"])
            - len(data["chunks_done"]))


def missing_games(result: Result) -> int:
    """Games a run still has to play (its target less what its chunks hold)."""
    data = result.data
    return sum(chunks.chunk_games(data["games_requested"], data["chunk_size"], c)
               for c in missing_chunks(result))


class SaveFailed(Exception):
    """A result (or sweep) could not be written (a full disk, a folder made read-only): what is
    on disk is the last save, untouched (writes are atomic)."""

    def __init__(self, path, error: OSError, saved_games: int | None = None):
        super().__init__(f"cannot save to {path}: {error.strerror or error}")
        self.path, self.error, self.saved_games = Path(path), error, saved_games
        self.rescued: Path | None = None  # where the unsaved result was written instead


class RunFault(Exception):
    """A game stopped a chunk of a run (a strategy failed, or the game went past a cap its rules
    declare): the fault, and which game of the run it was."""

    def __init__(self, fault: driver.GameFault, result: Result, game: int):
        super().__init__(str(fault))
        self.fault, self.result, self.game = fault, result, game


def announce_compiling(results, progress: Progress, here: bool = True) -> None:
    """Say so before a game's kernel is compiled (its first run only: the cache keeps it), and
    compile it now with the config's strategies beside it, showing how it goes
    (simulator.run.compiling). With `here` False (chunks played on a Dask cluster, which compiles
    for itself) only say so."""
    checked = set()
    for result in results:
        cfg = chunks.config_of(result)
        if cfg.game.name not in checked:
            checked.add(cfg.game.name)
            if not kernel_is_ready(cfg):
                progress.announce(f"compiling the {cfg.game.name} kernel, first run only: "
                                  f"{compiling.expected_time()}")
                if here:
                    compiling.compile_ahead(cfg, progress.status, progress.announce)
            elif here:
                names = compiling.uncached_builtins(cfg.game, cfg.lineup)
                if names:  # compiled when the first chunk binds them: say so before
                    progress.announce(f"compiling the {cfg.game.name} strategies "
                                      f"{', '.join(names)}, first use only")


def play_jobs(results: list[Result], jobs, workers: int | None,
              on_done: Callable[[Result, int, dict, float], None], isolate: bool = False,
              scheduler: str | None = None) -> None:
    """Play chunks of one or several runs through a backend: in this process or in a pool of
    worker processes (simulator/run/local_backend.py), or on a Dask cluster.

    `jobs` yields (result, chunk) pairs of the `results`, lazily; `on_done(result, chunk,
    tallies, seconds)` is called in this process as each finishes, in any order (sums of
    integers do not care). At most two chunks per worker are in flight, so memory does not grow
    with the run. With more than one worker, or `isolate`, chunks run in child processes that
    this process can end at once: Ctrl-C (or SIGTERM made KeyboardInterrupt by the caller) ends
    them, even inside a strategy that never returns, and re-raises; the caller saves what
    `on_done` merged. A strategy's fault, or a game past a cap its rules declare, stops the run
    as a RunFault. With `scheduler` (a Dask scheduler's address, or "local" for a local cluster
    of `workers` processes) the same chunks are played on a Dask cluster
    (simulator/run/dask_backend.py).
    """
    workers = max(1, workers or os.cpu_count() or 1)

    def deliver(result, chunk, tallies, seconds, fault):
        if fault is not None:
            raise RunFault(fault, result, chunk * result.data["chunk_size"] + fault.game)
        on_done(result, chunk, tallies, seconds)

    if scheduler is None:
        local_backend.play_jobs(results, jobs, workers, isolate, deliver)
        return
    from simulator.run import dask_backend  # here: it imports Dask, an optional extra

    dask_backend.play_jobs(results, jobs, workers, scheduler, deliver)


StopCheck = Callable[[Result], bool]


def execute(result: Result, workers: int | None = None, checkpoint: Path | None = None,
            progress: Progress | None = None, isolate: bool = False,
            scheduler: str | None = None, stop_check: StopCheck | None = None) -> Result:
    """Play the chunks `result` still lacks, merging them in; save checkpoints to `checkpoint`.

    An adaptive result (one with a stored stopping rule) is played until `stop_check(result)`,
    asked at each chunk boundary, says it stopped (and closed the result): the statistics stage
    decides (simulator.statistics.adaptive.stops, which simulator.api passes); playing never
    reads results statistically itself.

    On Ctrl-C the partial result is saved and `Interrupted` is raised; on a strategy's fault it
    is saved too and the RunFault re-raised. A run that would take more than about an hour at
    the rate of its first chunks says so (progress.announce).
    """
    progress = progress or Progress()
    data = result.data
    total, size = data["games_requested"], data["chunk_size"]
    rule = data.get("stopping")  # an adaptive run: chunks are merged in order, the rule checked
    if rule and stop_check is None:
        raise ValueError("an adaptive run (--precision, --until-decided) needs its stopping check "
                         "(simulator.statistics.adaptive.stops; simulator.api.run passes it)")
    saved_games = [result.games_played if checkpoint is not None and checkpoint.exists()
                   else None]  # what the file at `checkpoint` holds (None: nothing of ours)

    def save_checkpoint():
        if checkpoint is None:
            return
        try:
            result.save(checkpoint)
        except OSError as exc:
            failed = SaveFailed(checkpoint, exc, saved_games[0])
            failed.rescued = _rescue(result, checkpoint)
            raise failed from None
        saved_games[0] = result.games_played

    if rule and not result.complete and stop_check(result):  # interrupted before its check
        save_checkpoint()
        return result
    try:
        announce_compiling([result], progress, here=scheduler is None)
    except KeyboardInterrupt:
        save_checkpoint()
        raise Interrupted(result, checkpoint) from None
    progress.start(result.games_played, total)
    last_save = time.monotonic()
    started = time.monotonic()
    estimated = False
    workers_used = max(1, workers or os.cpu_count() or 1)

    def merge(result, chunk, tallies, seconds):
        nonlocal last_save, estimated
        result.add_chunk(chunk, tallies)
        progress.advance(chunks.chunk_games(total, size, chunk))
        if not estimated and not rule:
            estimated = True
            left = seconds * missing_count(result) / workers_used
            if left > LONG_RUN_SECONDS:
                progress.warn(f"this run will take about {_duration(left)} at the rate of its "
                                  f"first chunk; Ctrl-C stops it and keeps what is done "
                                  f"(--resume continues)")
        if checkpoint is not None and time.monotonic() - last_save > CHECKPOINT_EVERY_SECONDS:
            save_checkpoint()
            last_save = time.monotonic()

    def save():
        progress.close()
        result.data["elapsed_seconds"] += time.monotonic() - started
        save_checkpoint()

    held: dict = {}  # an adaptive run's chunks that finished before an earlier one

    def merge_in_order(result, chunk, tallies, seconds):
        held[chunk] = (tallies, seconds)
        while len(data["chunks_done"]) in held:
            merge(result, len(data["chunks_done"]), *held.pop(len(data["chunks_done"])))
            if stop_check(result):
                raise _Stopped  # chunks beyond this one are dropped

    try:
        play_jobs([result], ((result, chunk) for chunk in missing_chunks(result)), workers,
                  merge_in_order if rule else merge, isolate, scheduler)
    except _Stopped:
        pass
    except KeyboardInterrupt:
        save()
        raise Interrupted(result, checkpoint) from None
    except (RunFault, chunks.WorkerLost, chunks.SchedulerError):
        save()
        raise
    save()
    return result


def _rescue(result: Result, path: Path) -> Path | None:
    """A result that could not be saved where asked, written to the temporary folder instead
    (None if that fails too): no finished game is lost to a full or read-only folder."""
    import tempfile

    try:
        handle, rescue = tempfile.mkstemp(prefix=f"fairplay-unsaved-{path.stem}-", suffix=".json")
        os.close(handle)
        result.save(rescue)
        return Path(rescue)
    except OSError:
        return None


class _Stopped(Exception):
    """An adaptive run's rule stopped it at a chunk boundary (ends the pool)."""


LONG_RUN_SECONDS = 3600.0


def _duration(seconds: float) -> str:
    if seconds >= 86_400:
        return f"{seconds / 86_400:.1f} days"
    if seconds >= 3_600:
        return f"{seconds / 3_600:.1f} hours"
    return f"{seconds / 60:.0f} minutes"


def run(cfg: config_module.Config, games: int, seed: int = 0, workers: int | None = None,
        chunk_size: int = DEFAULT_CHUNK_SIZE, checkpoint: Path | None = None,
        progress: Progress | None = None, command: str = "", isolate: bool = False,
        stopping=None, scheduler: str | None = None,
        stop_check: StopCheck | None = None) -> Result:
    """Play `games` games of `cfg` and return the result. With `stopping` (a stopping.Rule),
    play until `stop_check` says the rule is met, `games` at most (simulator.api.run passes the
    statistics stage's check); with `scheduler`, on a Dask cluster
    (simulator/run/dask_backend.py)."""
    return execute(start(cfg, games, seed, chunk_size, command, stopping), workers, checkpoint,
                   progress, isolate, scheduler, stop_check)


def reproduce_command(config, players, n_games, seed, overrides, chunk_size,
                       stopping=None) -> str:
    """The canonical command that replays a run (defaults spelled out, so nothing is implied)."""
    parts = ["fairplay", "run", config]
    if players is not None:
        parts += ["--players", str(players)]
    if stopping is None:
        parts += ["-n", str(n_games)]
    else:
        parts += (["--precision", f"{stopping.precision:g}"] if stopping.kind == "precision"
                  else ["--until-decided"]) + ["--max-games", str(stopping.max_games)]
    parts += ["--seed", str(seed), "--chunk-size", str(chunk_size)]
    for override in overrides:
        parts += ["--set", override]
    return " ".join(shlex.quote(part) for part in parts)


def load_for_resume(path: Path, games: int | None = None) -> Result:
    """The result saved at `path`, checked for `--resume` (fingerprint, chunks, shapes) and, with
    `games` above its target, extended to that many games: the same seed and chunks, so the
    final result equals a run of `games` from the start."""
    result = Result.load(path)
    data = result.data
    result.check_claims(path)  # before any file it names is loaded
    try:
        cfg = chunks.config_of(result)
    except config_module.ConfigError as exc:
        raise ResultError(path, f"cannot resume: {exc}") from None
    result.check_resumable(cfg, path)
    if games is not None and data.get("stopping"):
        raise ResultError(path, "an adaptive run (--precision, --until-decided) follows its "
                                "stopping rule; -n cannot extend it")
    if games is not None and games != data["games_requested"]:
        size, requested = data["chunk_size"], data["games_requested"]
        if games < requested:
            raise ResultError(path, f"-n {games:,} is below this run's {requested:,} games; a "
                                    f"run can be extended, not cut")
        if requested % size and (requested // size) in data["chunks_done"]:
            raise ResultError(path, f"its last chunk was cut short at {requested % size:,} "
                                    f"games, so extending it would not equal a run of "
                                    f"{games:,} from the start; start a new run")
        data["games_requested"] = int(games)
        data["complete"] = False
    return result


def resume(path: Path, workers: int | None = None, progress: Progress | None = None,
           isolate: bool = False, games: int | None = None, scheduler: str | None = None,
           stop_check: StopCheck | None = None) -> Result:
    """Continue an interrupted run saved at `path` (to `games` games, if more than its target):
    the final result equals an uninterrupted one."""
    return execute(load_for_resume(path, games), workers, path, progress, isolate, scheduler,
                   stop_check)
