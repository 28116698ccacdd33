"""One chunk of a run: what a worker plays, wherever it runs (in this process, a local worker
process or a Dask task). A chunk's games depend only on the config, the seed and the chunk's
number: it is seeded from SeedSequence(seed, spawn_key=(chunk,)) and returns integer tallies.
The backends that play chunks import this module, never the runner that drives them."""

from __future__ import annotations

import json
import time

import numpy as np

from simulator.setup import config as config_module
from simulator.games import driver


class WorkerLost(RuntimeError):
    """A worker process died (killed from outside, out of memory): the run stops, saved."""


class SchedulerError(RuntimeError):
    """`--scheduler` cannot be used: Dask is not installed, the address is wrong or unreachable,
    or a worker would play other games (another fairplay, a missing strategy file)."""


def chunk_rng(seed: int, chunk: int) -> np.random.Generator:
    """The random stream of one chunk: independent of every other chunk and of the workers.
    (PCG64: the kernels step its state inline, see kernel_support.random_double.)"""
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(chunk,))))


def chunk_games(total: int, chunk_size: int, chunk: int) -> int:
    return min(chunk_size, total - chunk * chunk_size)


def chunk_count(total: int, chunk_size: int) -> int:
    return (total + chunk_size - 1) // chunk_size


_CONFIG_CACHE: dict[str, config_module.Config] = {}


def config_for(raw: dict, source: str, base_dir: str, digests: dict) -> config_module.Config:
    """The config a result stores, ready to play: its user strategy files are loaded only with
    the contents (`digests`) the result recorded when the run started."""
    if digests:  # files on disk: read and checked each time (cheap: the code is cached)
        return config_module.from_raw(raw, source, base_dir, config_module.recorded(digests))
    key = json.dumps([raw, base_dir], sort_keys=True)
    if key not in _CONFIG_CACHE:
        _CONFIG_CACHE[key] = config_module.from_raw(raw, source, base_dir,
                                                    config_module.recorded(digests))
    return _CONFIG_CACHE[key]


def config_of(result) -> config_module.Config:
    """The config of a result, ready to play (see config_for)."""
    return config_for(*playing_identity(result.data))


def playing_identity(data: dict) -> tuple:
    """What a chunk's player needs besides the seed and chunk: the config, its source and folder,
    and the digests of its user strategy files."""
    return (data["config"], data["source"], data["base_dir"],
            dict((data.get("fingerprint") or {}).get("strategy_files") or {}))


def arguments(result, chunk: int) -> tuple:
    """Everything a worker needs to play chunk `chunk` of `result` (plain data: it is pickled to
    worker processes and Dask tasks)."""
    data = result.data
    games = chunk_games(data["games_requested"], data["chunk_size"], chunk)
    return (*playing_identity(data), data["seed"], chunk, games)


def play_chunk(raw: dict, source: str, base_dir: str, digests: dict, seed: int, chunk: int,
               games: int):
    """Play one chunk and return its tallies as {name: int64 array}."""
    cfg = config_for(raw, source, base_dir, digests)
    tallies, _ = driver.play(cfg.game, cfg.params, cfg.lineup, games, chunk_rng(seed, chunk))
    return chunk, tallies


def play(raw, source, base_dir, digests, seed, chunk, games):
    """One chunk (in a worker, or in this process): (chunk, tallies, seconds, fault or None)."""
    started = time.perf_counter()
    try:
        chunk, tallies = play_chunk(raw, source, base_dir, digests, seed, chunk, games)
    except driver.GameFault as fault:
        return chunk, None, time.perf_counter() - started, fault
    return chunk, tallies, time.perf_counter() - started, None
