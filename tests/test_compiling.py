"""The progress of a kernel's first compile (simulator.compiling): what compiles now, how many
functions are done, and one closing line with the time it took."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
from numba import njit

from simulator import compiling

ROOT = Path(__file__).resolve().parent.parent


def test_the_watch_follows_one_kernels_compile_and_then_stops_listening():
    @njit
    def helper(x):
        return x * 2

    @njit
    def toy(x):
        return helper(x) + 1

    @njit
    def other(x):
        return x - 1

    said, shown = [], []
    compiling.watch_kernel("toy", toy, shown.append, said.append)
    other(np.int64(3))  # compiled before the kernel: not the kernel's
    assert shown == [] and said == []
    assert toy(np.int64(3)) == 7
    assert shown[0] == "compiling the toy kernel: 0 functions compiled, now toy"
    assert "compiling the toy kernel: 0 functions compiled, now helper" in shown
    assert shown[-1] == ""  # cleared at the end
    assert len(said) == 1 and re.fullmatch(r"compiled the toy kernel in \d+ s \(2 functions\)",
                                           said[0]), said
    other(np.float64(3.0))  # a later compile: no longer followed
    assert len(said) == 1 and shown[-1] == ""


def test_a_cold_first_run_says_what_it_compiled(tmp_path):
    # An empty compiled-code cache: the run compiles the template's kernel and says so, from
    # its opening line to its closing one (standard error; the bar's description on a terminal).
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    done = subprocess.run([sys.executable, "-m", "simulator.cli", "run", "template", "-n", "50",
                           "--workers", "1", "-o", str(tmp_path / "r.json")],
                          env=env, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "compiling the template kernel, first run only" in done.stderr
    assert re.search(r"compiled the template kernel in \d+ s \(\d+ functions\)", done.stderr), \
        done.stderr
