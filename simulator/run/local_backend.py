"""Playing a run's chunks on this machine: in this process, or in a pool of worker processes
that this process can end at once. The Dask backend (`simulator.run.dask_backend`) plays the same
chunks on a cluster; the runner picks one and merges what either delivers."""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import time
from multiprocessing import get_context
from multiprocessing.connection import wait

from simulator.run import chunks
from simulator.run.chunks import WorkerLost

# Workers are forked where the platform can (they start at once, with the compiled kernels
# already loaded); elsewhere they are spawned and load the kernels from the cache themselves.
POOL_START_METHOD = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"


def play_jobs(results, jobs, workers: int, isolate: bool, deliver) -> None:
    """Play the (result, chunk) pairs `jobs` yields and `deliver(result, chunk, tallies,
    seconds, fault)` each in this process, in any order. In this process itself with one worker
    and no `isolate`; otherwise in `workers` child processes, at most two chunks each in flight,
    so memory does not grow with the run. Ctrl-C ends the children, even inside a strategy that
    never returns, and re-raises."""
    jobs = iter(jobs)
    if workers == 1 and not isolate:
        for result, chunk in jobs:
            deliver(result, *chunks.play(*chunks.arguments(result, chunk)))
        return
    if POOL_START_METHOD == "fork":
        # Load each kernel once here (a zero-game chunk); forked workers inherit it compiled.
        for result in results:
            chunks.play_chunk(*chunks.arguments(result, 0)[:-1], 0)
    pool = _Workers(workers)
    try:
        in_flight = {conn: 0 for conn in pool.connections}
        pending: dict = {conn: [] for conn in pool.connections}  # the runs of its chunks, in order
        exhausted = False

        def feed(conn) -> None:
            nonlocal exhausted
            while not exhausted and in_flight[conn] < 2:  # two each: no worker waits on us
                job = next(jobs, None)
                if job is None:
                    exhausted = True
                    return
                result, chunk = job
                pending[conn].append(result)
                conn.send(chunks.arguments(result, chunk))
                in_flight[conn] += 1

        for conn in pool.connections:
            feed(conn)
        while any(in_flight.values()):
            # short waits, so that Ctrl-C is seen at once
            for conn in wait([c for c, n in in_flight.items() if n], timeout=0.2):
                out = pool.receive(conn)
                in_flight[conn] -= 1
                deliver(pending[conn].pop(0), *out)
                feed(conn)
    finally:
        pool.close()  # ends the workers, whatever they are doing


class _Workers:
    """Worker processes that this process can end at once. Each has a pipe of its own: no lock
    is shared between workers (a worker ended while holding one would block the others), and
    closing kills them all, even inside a strategy that never returns."""

    def __init__(self, count: int):
        context = get_context(POOL_START_METHOD)
        self.processes, self.connections = [], []
        for _ in range(count):
            ours, theirs = context.Pipe()
            process = context.Process(target=_serve, args=(theirs, os.getpid()), daemon=True)
            process.start()
            theirs.close()
            self.processes.append(process)
            self.connections.append(ours)

    def receive(self, conn):
        """A finished chunk (chunk, tallies, seconds, fault); a worker's own failure re-raised."""
        try:
            out = conn.recv()
        except (EOFError, OSError):
            process = self.processes[self.connections.index(conn)]
            process.join(1)
            raise WorkerLost(f"a worker process ended unexpectedly (exit code "
                             f"{process.exitcode}; out of memory?)") from None
        if isinstance(out, BaseException):
            raise out
        return out

    def close(self) -> None:
        for process in self.processes:
            if process.is_alive():
                process.kill()
        for process, conn in zip(self.processes, self.connections):
            process.join()
            conn.close()


def _worker_init(parent: int):
    # Ctrl-C goes to the parent, which saves what is done and ends the pool; the parent ends a
    # worker with SIGTERM, which must kill it at once (whatever handler the parent had).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    die_with_parent(parent)


def die_with_parent(parent: int) -> None:
    """End this process when `parent` dies, however it dies (`kill -9` included): a worker left
    behind would spin on, a hung strategy at full CPU. Linux kills it (PR_SET_PDEATHSIG);
    elsewhere a thread watches the parent."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(1, signal.SIGKILL, 0, 0, 0) != 0:  # 1: PR_SET_PDEATHSIG
            raise OSError(ctypes.get_errno(), "prctl")
    except (OSError, AttributeError):
        import threading

        def watch():
            while os.getppid() == parent:
                time.sleep(0.5)
            os._exit(1)

        threading.Thread(target=watch, daemon=True).start()
    if os.getppid() != parent:  # it died before the request was made
        os._exit(1)


def _serve(conn, parent: int) -> None:
    """A worker: play the chunks sent to it, one at a time, until its pipe closes."""
    _worker_init(parent)
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        try:
            out = chunks.play(*job)
        except Exception as error:  # a bug, not a strategy's fault: the parent re-raises it
            out = error if _picklable(error) else RuntimeError(f"{type(error).__name__}: {error}")
        conn.send(out)


def _picklable(value) -> bool:
    try:
        pickle.dumps(value)
    except Exception:
        return False
    return True
