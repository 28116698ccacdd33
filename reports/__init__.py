"""Balance reports: one self-contained HTML file per run, sweep or comparison.

``reports.render`` writes them (``write_run_report``, ``write_sweep_report``,
``write_compare_report``) and computes nothing: ``reports.numbers`` assembles every number they
show, from the statistics of ``reports.measures`` and the sentences of ``reports.guidance``;
``reports.charts`` draws the charts (matplotlib, inline SVG) and ``reports.export`` writes the tables
as CSV. The ``fairplay report``, ``fairplay sweep`` and ``fairplay export`` commands are in
``simulator.cli.reports``. See docs/reports.md.

May import: simulator's studies, statistics, run and setup. Must not import: simulator.api,
simulator.serve or simulator.cli.
"""
