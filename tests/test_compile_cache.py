"""Only the first run compiles: a second process loads the werewolf kernel from Numba's cache."""

import subprocess
import sys

PROGRAM = """
from simulator import config, runner
cfg = config.load("werewolf")
runner.run(cfg, 100, seed=0, workers=1)
stats = cfg.game.kernel.stats
print(sum(stats.cache_hits.values()), sum(stats.cache_misses.values()))
"""


def run_once():
    out = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True,
                         check=True)
    hits, misses = map(int, out.stdout.split())
    return hits, misses


def test_second_process_loads_the_kernel_from_the_cache():
    run_once()  # compiles if nothing is cached yet
    hits, misses = run_once()
    assert (hits, misses) == (1, 0)
