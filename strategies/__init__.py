"""Scripted strategies, one module per game, plus shared helpers (common.py)."""

import simulator  # noqa: F401  (sets where compiled strategies are cached before any is compiled)
