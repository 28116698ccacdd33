"""A sweep played by real worker processes (each one compiles the kernel: slow)."""

import numpy as np
import pytest

from simulator.studies import sweep as sw


@pytest.mark.slow
def test_pooled_sweep_with_real_worker_processes():
    axes = [sw.parse_vary("players=8..9")]
    sequential = sw.run_sweep("werewolf", axes, games=600, seed=4, workers=1, chunk_size=200)
    pooled = sw.run_sweep("werewolf", axes, games=600, seed=4, workers=2, chunk_size=200)
    for a, b in zip(sequential.cells, pooled.cells):
        for name in a.result.tallies:
            np.testing.assert_array_equal(a.result.tallies[name], b.result.tallies[name])
