"""Balance reports: one self-contained HTML file per run, sweep or comparison.

``reports.render`` writes them (``write_run_report``, ``write_sweep_report``,
``write_compare_report``), ``reports.measures`` computes every number they show from result files,
``reports.charts`` draws the charts (matplotlib, inline SVG). The ``fairplay report``, ``fairplay
sweep`` and ``fairplay export`` commands are in ``simulator.cli.reports``. See docs/reports.md.
"""
