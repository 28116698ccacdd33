"""Playing a run's chunks on a Dask distributed cluster (`--scheduler`; docs/scale.md).

The same chunks as the local backend, each played by `chunks.play` with the same arguments in
a Dask task, so the same seed gives bit-identical tallies: a chunk's games depend only on
(seed, chunk), and tallies are sums of integers, merged once per chunk in whatever order the
chunks finish. Jobs are drawn lazily and only a few per worker thread are in flight, so memory
does not grow with the run. A worker that dies has its chunks recomputed by Dask elsewhere; each
chunk's future is delivered once, and `Result.add_chunk` refuses a chunk merged twice.

Workers receive only each chunk's arguments (the resolved config as data, its source path and
folder, the seed, the chunk): they need the same fairplay, Numba and NumPy, and a user's
strategy files at the same paths. Each worker checks that once per config (the fingerprint a
result file carries) and refuses to play otherwise, so a mismatched worker never mixes other
games into a result.

Imported only when `--scheduler` is given; Dask is an optional extra (`pip install
'fairplay[dask]'`).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import logging
import os
import signal
import socket
import time

from simulator.run import chunks
from simulator.run.results import fingerprint, versions

try:
    import distributed
    from distributed.diagnostics.plugin import WorkerPlugin
except ImportError as _missing:  # refused in one line by require()
    distributed, WorkerPlugin, _MISSING = None, object, _missing

CONNECT_SECONDS = 5.0  # to reach the scheduler, and for it to have a worker
IN_FLIGHT_PER_THREAD = 2
# A task plays several consecutive chunks of a run when its chunks are quick: Dask spends about
# 10 ms of scheduling per task, a tenth of a 20,000-game werewolf chunk. Batches are sized from
# the first chunks' times to take about this long; each chunk keeps its own seed and is merged on
# its own, so the games and the tallies are the same whatever the batch.
TASK_SECONDS = 0.5
MAX_BATCH = 64
REFRESH_SECONDS = 5.0  # how often the number of worker threads is read again
INSTALL = "pip install 'fairplay[dask]'"


def require():
    """The `distributed` module, or a SchedulerError naming the extra to install."""
    if distributed is None:
        raise chunks.SchedulerError(f"--scheduler needs Dask distributed, which is not installed "
                                    f"({_MISSING.name or 'distributed'}): {INSTALL}")
    return distributed


# --- on a worker ---------------------------------------------------------------------------------
class WorkerMismatch(Exception):
    """A worker whose fairplay, Numba, NumPy, config or strategy files differ from the client's."""


_CHECKED: set[str] = set()
_COMPARED_VERSIONS = ("fairplay", "numba", "numpy")


def _identity(cfg) -> dict:
    """What must be the same on the client and every worker for a config's games to be equal."""
    found = versions()
    return {"fingerprint": fingerprint(cfg),
            "versions": {name: found[name] for name in _COMPARED_VERSIONS}}


def _differences(expected: dict, found: dict) -> list[str]:
    out = [f"{name} {found['versions'][name]} (the client has {expected['versions'][name]})"
           for name in _COMPARED_VERSIONS
           if found["versions"][name] != expected["versions"][name]]
    want, have = expected["fingerprint"], found["fingerprint"]
    if have["code"] != want["code"]:
        out.append("fairplay's compiled sources differ from the client's")
    if have["config"] != want["config"]:
        out.append("the config resolves differently")
    for source, digest in want["strategy_files"].items():
        if have["strategy_files"].get(source) != digest:
            out.append(f"strategy file {source} differs from the client's")
    return out


def _where() -> str:
    try:
        from distributed import get_worker

        return f"worker {get_worker().address}"
    except (ImportError, ValueError):
        return f"worker process {os.getpid()}"


def play_on_worker(expected: dict, raw, source, base_dir, digests, seed, chunk, games):
    """One chunk on a Dask worker: `chunks.play`, once the worker is known to play the same
    games as the client (checked once per config and worker process)."""
    key = json.dumps(expected, sort_keys=True)
    if key not in _CHECKED:
        from simulator.setup.config import ConfigError

        try:
            cfg = chunks.config_for(raw, source, base_dir, digests)
        except ConfigError as exc:
            raise WorkerMismatch(f"{_where()} cannot load the config: {exc}") from None
        differences = _differences(expected, _identity(cfg))
        if differences:
            raise WorkerMismatch(f"{_where()} would play other games: {'; '.join(differences)}; "
                                 f"every worker needs the same fairplay, Numba and NumPy and the "
                                 f"strategy files at the same paths (docs/scale.md)")
        _CHECKED.add(key)
    return chunks.play(raw, source, base_dir, digests, seed, chunk, games)


def play_batch_on_worker(expected: dict, jobs: list) -> list:
    """Consecutive chunks of one run in one task: the output of each, in order. It stops after a
    chunk whose strategy failed (the run stops there)."""
    outs = []
    for job in jobs:
        outs.append(play_on_worker(expected, *job))
        if outs[-1][3] is not None:
            break
    return outs


def _ignore_sigint() -> None:
    """Run in each local-cluster worker: Ctrl-C on the terminal reaches the whole process group;
    the client handles it (cancels, closes the cluster), its workers must not print tracebacks."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


# --- on the client -------------------------------------------------------------------------------
async def _probe(address: str, timeout: float) -> dict:
    from distributed.comm import connect

    async def identity():
        comm = await connect(address, timeout=timeout)
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    return await asyncio.wait_for(identity(), timeout)


def _reach(address: str, timeout: float) -> None:
    """For tcp://: fail at once on an unknown host or a refused connection (Dask retries those
    until its timeout, and then does not say which it was)."""
    from distributed.comm.addressing import parse_address, parse_host_port

    scheme, location = parse_address(address)
    if scheme != "tcp":
        return
    host, port = parse_host_port(location)
    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except socket.gaierror:
        raise OSError(f"unknown host {host}") from None
    except ConnectionRefusedError:
        raise OSError(f"connection refused on port {port}") from None
    except socket.timeout:
        raise TimeoutError("no answer") from None


def check_address(address: str, timeout: float | None = None) -> None:
    """Refuse, in one line and within about `timeout` seconds, an address that is not a reachable
    Dask scheduler (a Client would retry, or wait on a silent server, much longer)."""
    require()
    timeout = CONNECT_SECONDS if timeout is None else timeout
    try:
        _reach(address, timeout)
        reply = asyncio.run(_probe(address, timeout))
    except ValueError as exc:
        raise chunks.SchedulerError(f"--scheduler {address}: {exc} (expected tcp://HOST:PORT, or "
                                    f"local)") from None
    except (asyncio.TimeoutError, TimeoutError, OSError) as exc:
        reason = str(exc).split("\n")[0]
        if isinstance(exc, (asyncio.TimeoutError, TimeoutError)) or not reason:
            reason = f"no answer within {timeout:g} s"
        raise chunks.SchedulerError(f"--scheduler {address}: cannot reach a Dask scheduler there "
                                    f"({reason})") from None
    except Exception as exc:  # something answered, not in Dask's protocol
        raise chunks.SchedulerError(f"--scheduler {address}: what answered is not a Dask "
                                    f"scheduler ({type(exc).__name__})") from None
    if not isinstance(reply, dict) or reply.get("type") != "Scheduler":
        kind = reply.get("type") if isinstance(reply, dict) else type(reply).__name__
        raise chunks.SchedulerError(f"--scheduler {address}: what answered is not a Dask "
                                    f"scheduler ({kind})")


def _quiet_logs() -> dict:
    """Dask logs to standard error (even tracebacks, as it loses a scheduler); a run's faults are
    one line of fairplay's own. Returns the levels it replaced, for `_restore_logs`."""
    names = [name for name in logging.root.manager.loggerDict
             if name.split(".")[0] in ("distributed", "dask", "tornado")]
    previous = {}
    for name in {"distributed", "dask", *names}:  # Dask's config gives some children levels
        logger = logging.getLogger(name)
        previous[name] = logger.level
        logger.setLevel(logging.CRITICAL)
    return previous


def _restore_logs(previous: dict) -> None:
    for name, level in previous.items():
        logging.getLogger(name).setLevel(level)


def connect(scheduler: str, workers: int | None):
    """(client, local cluster or None) for `--scheduler`: "local" starts a LocalCluster of
    `workers` processes (default: every core) on loopback; anything else is a scheduler's
    address."""
    require()
    if scheduler == "local":
        try:
            cluster = distributed.LocalCluster(
                n_workers=max(1, workers or os.cpu_count() or 1), threads_per_worker=1,
                processes=True, host="127.0.0.1", dashboard_address="127.0.0.1:0",
                silence_logs=logging.CRITICAL)
        except Exception as exc:
            raise chunks.SchedulerError(f"--scheduler local: cannot start a local Dask cluster: "
                                        f"{exc}") from None
        client = distributed.Client(cluster, set_as_default=False)
        client.register_plugin(_IgnoreSigint())  # every worker, also one the nanny restarts
        return client, cluster
    check_address(scheduler)
    try:
        client = distributed.Client(scheduler, timeout=CONNECT_SECONDS, set_as_default=False)
    except (OSError, TimeoutError) as exc:
        raise chunks.SchedulerError(f"--scheduler {scheduler}: cannot connect: {exc}") from None
    try:
        client.wait_for_workers(1, timeout=CONNECT_SECONDS)
    except (TimeoutError, asyncio.TimeoutError):
        client.close()
        raise chunks.SchedulerError(f"--scheduler {scheduler}: the scheduler has no worker; start "
                                    f"some with: dask worker {scheduler}") from None
    return client, None


class _IgnoreSigint(WorkerPlugin):
    """Set up on every worker of a local cluster, also on one the nanny restarts."""

    name = "fairplay-ignore-sigint"

    def setup(self, worker):
        try:
            _ignore_sigint()
        except ValueError:  # not the worker process's main thread: signals cannot be set here
            pass


def close(client, cluster) -> None:
    """Close the client, and a local cluster with its worker processes."""
    try:
        client.close(timeout=CONNECT_SECONDS)
    except Exception:
        pass
    if cluster is not None:
        try:
            cluster.close(timeout=CONNECT_SECONDS)
        except Exception:
            pass


def play_jobs(results, jobs, workers: int | None, scheduler: str, deliver) -> None:
    """Play the (result, chunk) pairs `jobs` yields on the Dask cluster at `scheduler` ("local":
    a local cluster of `workers` processes); `deliver(result, chunk, tallies, seconds, fault)`
    merges each chunk's output in this process (or raises its fault), in any order."""
    quieted = _quiet_logs()
    try:
        client, cluster = connect(scheduler, workers)
        try:
            _play_all(client, results, jobs, deliver)
        finally:
            close(client, cluster)
    finally:
        _restore_logs(quieted)


def _play_all(client, results, jobs, deliver) -> None:
    expected = {}
    for result in results:
        expected[id(result)] = _identity(chunks.config_of(result))
    in_flight: dict = {}  # future -> (result, its chunks); a future leaves it when delivered
    finished = distributed.as_completed(loop=client.loop, with_results=False)
    jobs = iter(jobs)
    waiting = None  # a job taken from `jobs` that did not fit the last batch
    exhausted = False
    limit, read_at = 0, -REFRESH_SECONDS
    batch = 1  # chunks per task: one until a chunk's time is known

    def next_job():
        nonlocal waiting
        job, waiting = (waiting, None) if waiting is not None else (next(jobs, None), None)
        return job

    def feed() -> None:
        nonlocal exhausted, limit, read_at, waiting
        if time.monotonic() - read_at >= REFRESH_SECONDS:  # workers may join or leave
            threads = sum(client.nthreads().values())
            limit, read_at = IN_FLIGHT_PER_THREAD * max(1, threads), time.monotonic()
        while not exhausted and len(in_flight) < limit:
            job = next_job()
            if job is None:
                exhausted = True
                return
            result, numbers = job[0], [job[1]]
            while len(numbers) < batch:  # consecutive chunks of the same run
                job = next_job()
                if job is None:
                    exhausted = True
                    break
                if job[0] is not result:
                    waiting = job
                    break
                numbers.append(job[1])
            future = client.submit(play_batch_on_worker, expected[id(result)],
                                   [chunks.arguments(result, chunk) for chunk in numbers],
                                   pure=False)
            in_flight[future] = (result, numbers)
            finished.add(future)

    try:
        feed()
        for future in finished:
            job = in_flight.pop(future, None)
            if job is None:  # never expected: a future seen twice is merged once
                continue
            result, numbers = job
            outs = _outcome(future)
            future.release()
            for chunk, out in zip(numbers, outs):
                if out[0] != chunk:
                    raise RuntimeError(f"a Dask task returned chunk {out[0]} for chunk {chunk}")
                deliver(result, *out)
            if len(outs) < len(numbers) and outs[-1][3] is None:
                raise RuntimeError("a Dask task returned fewer chunks than it was given")
            seconds = sum(out[2] for out in outs) / len(outs)
            batch = max(batch, min(MAX_BATCH, int(TASK_SECONDS / max(seconds, 1e-6)) or 1))
            feed()
    finally:
        if in_flight:
            try:
                client.cancel(list(in_flight), force=True)
            except Exception:
                pass


def _outcome(future):
    """A finished chunk (chunk, tallies, seconds, fault), the cluster's failures made the run's."""
    try:
        return future.result()
    except WorkerMismatch as exc:
        raise chunks.SchedulerError(str(exc)) from None
    except distributed.KilledWorker as exc:
        raise chunks.WorkerLost(f"Dask gave up on a chunk whose workers kept dying ({exc}; out of "
                                f"memory?)") from None
    except (concurrent.futures.CancelledError, asyncio.CancelledError, OSError) as exc:
        reason = getattr(exc, "reason", None) or type(exc).__name__
        raise chunks.WorkerLost(f"lost the connection to the Dask scheduler ({reason})") from None
