"""Runs: fixed-size chunks, each seeded from SeedSequence(seed, spawn_key=(chunk,)), tallied in
integer arrays and summed. Integer sums do not depend on order, so a run's result is bit-identical
for the same seed whatever the number of workers, and after an interrupt and a resume.

Memory does not grow with the number of games: a chunk's tallies are merged into the totals and
dropped, and at most a few chunks per worker are in flight at any time.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Callable

import numpy as np

from simulator import config as config_module
from simulator.games import driver
from simulator.results import Result, new_result_data

DEFAULT_CHUNK_SIZE = 20_000
# Workers are forked where the platform can (they start at once, with the compiled kernels
# already loaded); elsewhere they are spawned and load the kernels from the cache themselves.
POOL_START_METHOD = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
CHECKPOINT_EVERY_SECONDS = 10.0


def chunk_rng(seed: int, chunk: int) -> np.random.Generator:
    """The random stream of one chunk: independent of every other chunk and of the workers.
    (PCG64: the kernels step its state inline, see kernel_support.random_double.)"""
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(chunk,))))


def chunk_games(total: int, chunk_size: int, chunk: int) -> int:
    return min(chunk_size, total - chunk * chunk_size)


def chunk_count(total: int, chunk_size: int) -> int:
    return (total + chunk_size - 1) // chunk_size


# --- one chunk (runs in a worker process, or in-process) ---------------------------------------
_CONFIG_CACHE: dict[str, config_module.Config] = {}


def _config_for(raw: dict, source: str, base_dir: str) -> config_module.Config:
    key = json.dumps([raw, base_dir], sort_keys=True)
    if key not in _CONFIG_CACHE:
        _CONFIG_CACHE[key] = config_module.from_raw(raw, source, base_dir)
    return _CONFIG_CACHE[key]


def play_chunk(raw: dict, source: str, base_dir: str, seed: int, chunk: int, games: int):
    """Play one chunk and return its tallies as {name: int64 array}."""
    cfg = _config_for(raw, source, base_dir)
    tallies, _ = driver.play(cfg.game, cfg.params, cfg.lineup, games, chunk_rng(seed, chunk))
    return chunk, tallies


def trace_game(cfg: config_module.Config, seed: int, game: int = 0,
               chunk_size: int = DEFAULT_CHUNK_SIZE, max_rows: int = 20_000) -> list[str]:
    """Replay game `game` (0-based) of a run of `cfg` with `seed` and `chunk_size`, recording
    every event, and decode it: the same game the run played, from the same kernel."""
    chunk, index = divmod(game, chunk_size)
    _, rows = driver.play(cfg.game, cfg.params, cfg.lineup, index + 1, chunk_rng(seed, chunk),
                          trace_rows=max_rows, trace_game=index)
    return cfg.game.decode_trace(rows, cfg.params)


def kernel_is_ready(cfg: config_module.Config) -> bool:
    """False when the first chunk will compile the game's kernel (a minute or so, once)."""
    return driver.kernel_is_ready(cfg.game, cfg.params, cfg.lineup)


def _worker_init():
    # Ctrl-C goes to the parent, which saves what is done and stops the pool.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


# --- a whole run -------------------------------------------------------------------------------
@dataclass
class Progress:
    """Callbacks a caller may pass (the CLI wires them to tqdm)."""

    start: Callable[[int, int], None] = lambda done_games, total_games: None
    advance: Callable[[int], None] = lambda games: None
    close: Callable[[], None] = lambda: None
    announce: Callable[[str], None] = lambda line: None  # a line for the user, e.g. compiling


class Interrupted(Exception):
    """Raised after Ctrl-C once the partial result is saved; carries that result."""

    def __init__(self, result: Result, path: Path | None):
        super().__init__("interrupted")
        self.result, self.path = result, path


def start(cfg: config_module.Config, games: int, seed: int, chunk_size: int = DEFAULT_CHUNK_SIZE,
          command: str = "") -> Result:
    """A fresh, empty result for a run (nothing played yet)."""
    if games < 1:
        raise ValueError("the number of games must be at least 1")
    if chunk_size < 1:
        raise ValueError("the chunk size must be at least 1")
    data = new_result_data(cfg, games=games, seed=seed, chunk_size=chunk_size, command=command)
    return Result(data)


def missing_chunks(result: Result) -> list[int]:
    """The chunks of a run that are not in its tallies yet."""
    data = result.data
    done = set(data["chunks_done"])
    return [c for c in range(chunk_count(data["games_requested"], data["chunk_size"]))
            if c not in done]


def _timed_chunk(job, raw, source, base_dir, seed, chunk, games):
    started = time.perf_counter()
    chunk, tallies = play_chunk(raw, source, base_dir, seed, chunk, games)
    return job, chunk, tallies, time.perf_counter() - started


def announce_compiling(jobs: list[tuple[Result, int]], announce: Callable[[str], None]) -> None:
    """Say so before a game's kernel is compiled (its first run only: the cache keeps it)."""
    checked = set()
    for result in {id(result): result for result, _ in jobs}.values():
        data = result.data
        cfg = _config_for(data["config"], data["source"], data["base_dir"])
        if cfg.game.name not in checked:
            checked.add(cfg.game.name)
            if not kernel_is_ready(cfg):
                announce(f"compiling the {cfg.game.name} kernel, first run only (about a minute)")


def play_jobs(jobs: list[tuple[Result, int]], workers: int | None,
              on_done: Callable[[Result, int, dict, float], None]) -> None:
    """Play chunks of one or several runs, in this process or in one pool of worker processes.

    `jobs` lists (result, chunk) pairs; `on_done(result, chunk, tallies, seconds)` is called in
    this process as each finishes, in any order (sums of integers do not care). At most two
    chunks per worker are in flight, so memory does not grow with the run. Ctrl-C stops the pool
    and re-raises KeyboardInterrupt; the caller saves what `on_done` merged.
    """
    workers = max(1, workers or os.cpu_count() or 1)

    def arguments(index):
        result, chunk = jobs[index]
        data = result.data
        games = chunk_games(data["games_requested"], data["chunk_size"], chunk)
        return (index, data["config"], data["source"], data["base_dir"], data["seed"], chunk,
                games)

    def deliver(index, chunk, tallies, seconds):
        on_done(jobs[index][0], chunk, tallies, seconds)

    if workers == 1 or len(jobs) <= 1:
        for index in range(len(jobs)):
            deliver(*_timed_chunk(*arguments(index)))
        return
    if POOL_START_METHOD == "fork":
        # Load each kernel once here (a zero-game chunk); forked workers inherit it compiled.
        for index in {id(result): i for i, (result, _) in enumerate(jobs)}.values():
            _, raw, source, base_dir, seed, _, _ = arguments(index)
            play_chunk(raw, source, base_dir, seed, 0, 0)
    with ProcessPoolExecutor(max_workers=min(workers, len(jobs)),
                             mp_context=get_context(POOL_START_METHOD),
                             initializer=_worker_init) as pool:
        queue, pending = list(range(len(jobs))), set()
        try:
            while queue or pending:
                while queue and len(pending) < 2 * workers:
                    pending.add(pool.submit(_timed_chunk, *arguments(queue.pop(0))))
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    deliver(*future.result())
        except BaseException:
            for future in pending:
                future.cancel()
            pool.shutdown(wait=False, cancel_futures=True)
            raise


def execute(result: Result, workers: int | None = None, checkpoint: Path | None = None,
            progress: Progress | None = None) -> Result:
    """Play the chunks `result` still lacks, merging them in; save checkpoints to `checkpoint`.

    On Ctrl-C the partial result is saved and `Interrupted` is raised.
    """
    progress = progress or Progress()
    data = result.data
    total, size = data["games_requested"], data["chunk_size"]
    jobs = [(result, chunk) for chunk in missing_chunks(result)]
    announce_compiling(jobs, progress.announce)
    progress.start(result.games_played, total)
    last_save = time.monotonic()
    started = time.monotonic()

    def merge(result, chunk, tallies, seconds):
        nonlocal last_save
        result.add_chunk(chunk, tallies)
        progress.advance(chunk_games(total, size, chunk))
        if checkpoint is not None and time.monotonic() - last_save > CHECKPOINT_EVERY_SECONDS:
            result.save(checkpoint)
            last_save = time.monotonic()

    try:
        play_jobs(jobs, workers, merge)
    except KeyboardInterrupt:
        progress.close()
        result.data["elapsed_seconds"] += time.monotonic() - started
        if checkpoint is not None:
            result.save(checkpoint)
        raise Interrupted(result, checkpoint) from None
    progress.close()
    result.data["elapsed_seconds"] += time.monotonic() - started
    if checkpoint is not None:
        result.save(checkpoint)
    return result


def run(cfg: config_module.Config, games: int, seed: int = 0, workers: int | None = None,
        chunk_size: int = DEFAULT_CHUNK_SIZE, checkpoint: Path | None = None,
        progress: Progress | None = None, command: str = "") -> Result:
    """Play `games` games of `cfg` and return the result (the Python API's main entry point)."""
    return execute(start(cfg, games, seed, chunk_size, command), workers, checkpoint, progress)


def resume(path: Path, workers: int | None = None, progress: Progress | None = None) -> Result:
    """Continue an interrupted run saved at `path`; the final result equals an uninterrupted one."""
    result = Result.load(path)
    config_module.from_raw(result.data["config"], result.data["source"], result.data["base_dir"])
    return execute(result, workers, path, progress)
