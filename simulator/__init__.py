"""fairplay's simulation platform.

Importing the package points Numba's on-disk cache at one folder per game, named after a hash of
the sources that game's compiled code depends on (see `simulator.run.compile_cache`): editing one
game's rules recompiles that game only.
"""

from simulator.run import compile_cache

compile_cache.install()
