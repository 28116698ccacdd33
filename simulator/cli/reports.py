"""The `fairplay report`, `fairplay sweep` and `fairplay export` commands (registered on the main
CLI group).

A user's mistake (an unreadable file, a bad --vary, a config that cannot be read) prints one line
``fairplay: error: ...`` and exits with 2, like the rest of the CLI; never a traceback.
"""

from __future__ import annotations

import shlex
import sys
import textwrap
from pathlib import Path

import click

from reports import guidance
from simulator.run import chunks, runner
from simulator.cli.support import fail as _fail
from simulator.cli.support import FilePath
from simulator.cli.support import (
    RunFailed, check_run_options, check_scheduler, distinct_outputs, free_default,
    is_fairplay_report, lock_output, may_replace, progress_bar, scheduler_option, trace_command,
    writable_file, write_report,
)



def _command_line() -> str:
    return "fairplay " + " ".join(shlex.quote(a) for a in sys.argv[1:])


def _unchecked_origin(result) -> str:
    from simulator.run.results import UNCHECKED_NOTE

    return f"This result was {UNCHECKED_NOTE}." if result.unchecked else ""


def _say_unchecked(result, path) -> None:
    from simulator.run.results import UNCHECKED_NOTE

    if result.unchecked:
        click.echo(f"fairplay: warning: {path} {UNCHECKED_NOTE}", err=True)


# --- report ------------------------------------------------------------------------------------
@click.command(short_help="Write the HTML report of a result or sweep file.")
@click.argument("files", nargs=-1, required=True,
                type=FilePath(dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=FilePath(dir_okay=False, path_type=Path),
              help="HTML file to write [default: next to the first file, .html].")
@click.option("--labels", metavar="A,B", default="A,B", show_default=True,
              help="Names of the two setups in a comparison.")
@click.option("--cell", "cell_index", type=int, metavar="K",
              help="With a sweep file: the report of its cell K alone (the # column of the "
                   "sweep's table).")
@click.option("--force", is_flag=True, help="Replace an -o file that is not a fairplay report.")
@click.option("--unchecked", is_flag=True,
              help="Read a result file that has no checksum (an older fairplay's, or edited); "
                   "the report says so.")
def report(files, output, labels, cell_index, force, unchecked):
    """Write the HTML report of a RESULT.json or a sweep file; with two result files, a
    comparison of B against A; with --cell K, the report of one cell of a sweep.

    \b
      fairplay report results/base.json -o base.html
      fairplay report sweep.json -o sweep.html
      fairplay report sweep.json --cell 3 -o cell3.html
      fairplay report A.json B.json -o compare.html
    """
    from simulator.studies.compare import CompareError
    from simulator.run.results import Result, ResultError
    from simulator.studies.sweep import Sweep, SweepError, is_sweep_file

    from reports import render

    if len(files) > 2:
        _fail("give one result or sweep file, or two result files to compare")
    for path in files:
        if not path.exists():
            _fail(f"{path}: no such file")
    if cell_index is not None and (len(files) != 1 or not is_sweep_file(files[0])):
        _fail("--cell K takes one sweep file (fairplay report sweep.json --cell K)")
    if output is not None:
        distinct_outputs([(output, "-o")], files)
        may_replace(output, "-o", force, is_fairplay_report)
    try:
        if cell_index is not None:
            path = files[0]
            done = Sweep.load(path)
            cell = next((c for c in done.cells if c.index == cell_index), None)
            if cell is None:
                _fail(f"{path}: no cell {cell_index}; the cells are 0..{len(done.cells) - 1}")
            if cell.status != "ok" or cell.result is None:
                why = f"invalid: {cell.error}" if cell.status == "invalid" else "not played"
                _fail(f"{path}: cell {cell_index} ({done.cell_label(cell)}) has no result ({why})")
            output = output or _free(path.with_name(f"{path.stem}-cell{cell_index}.html"), force)
            render.write_run_report(cell.result, output,
                                    origin=f"Cell {cell_index} of the sweep {path.name}: "
                                           f"{done.cell_label(cell)}")
        elif len(files) == 1:
            path = files[0]
            output = output or _free(path.with_suffix(".html"), force)
            if is_sweep_file(path):
                render.write_sweep_report(Sweep.load(path), output)
            else:
                result = Result.load(path, unchecked)
                render.write_run_report(result, output, origin=_unchecked_origin(result))
                _say_unchecked(result, path)
        else:
            if any(is_sweep_file(p) for p in files):
                _fail("a comparison takes two result files, not sweep files")
            names = [x.strip() for x in labels.split(",")]
            if len(names) != 2 or not all(names) or names[0] == names[1]:
                _fail(f"--labels wants two different names like A,B; got {labels!r}")
            a, b = (Result.load(p, unchecked) for p in files)
            for result, path in ((a, files[0]), (b, files[1])):
                _say_unchecked(result, path)
            output = output or _free(files[0].with_name(f"{files[0].stem}-vs-{files[1].stem}.html"),
                                     force)
            render.write_compare_report(a, b, output, labels=tuple(names))
    except (ResultError, SweepError, CompareError) as exc:
        _fail(exc)
    except OSError as exc:
        _fail(f"{output}: cannot write: {exc.strerror}")
    click.echo(f"Report written to {output}")


def _free(path: Path, force: bool) -> Path:
    """A default output: refused (without --force) when something other than a fairplay report is
    there already (a result file named like it, say)."""
    may_replace(path, "the report", force, is_fairplay_report)
    return path


# --- sweep -------------------------------------------------------------------------------------
def _progress(quiet: bool):
    from simulator.studies.sweep import SweepProgress

    return progress_bar(quiet, SweepProgress)


def _table(sweep, numbers=None) -> str:
    from reports import measures

    lines = []
    labels = [sweep.cell_label(cell) for cell in sweep.cells]
    width = max((len(x) for x in labels), default=0)
    dealt = _varying_dealt(numbers) if numbers else {}
    for cell, label in zip(sweep.cells, labels):
        if cell.status == "ok":
            b = measures.balance(cell.result)
            mark = {"balanced": f"balanced within ±{100 * b['tolerance']:.1f} points",
                    "unbalanced": "unbalanced", "undecided": "not settled yet"}[b["verdict"]]
            extra = f"  [{dealt[cell.index]}]" if dealt.get(cell.index) else ""
            lines.append(f"  {label:<{width}}  {b['who']} {100 * b['rate']:5.1f}% of decided "
                         f"(95% CI {100 * b['low']:.1f}–{100 * b['high']:.1f}%){extra}  "
                         f"{mark}".rstrip())
        elif cell.status == "invalid":
            lines.append(f"  {label:<{width}}  invalid: {cell.error}")
        else:
            lines.append(f"  {label:<{width}}  not played")
    return "\n".join(lines)


def _varying_dealt(numbers: dict) -> dict[int, str]:
    """Per played cell, the roles whose counts differ between cells ("2 × werewolf"): what
    `roles.werewolf = "auto"` or a player count dealt."""
    counts: dict[str, set] = {}
    for c in numbers["cells"]:
        for r in (c["measures"] or {}).get("roles", []):
            counts.setdefault(r["name"], set()).add(round(r["per_game"], 9))
    varying = {name for name, seen in counts.items() if len(seen) > 1}
    out = {}
    for c in numbers["cells"]:
        if c["measures"]:
            # whole counts only: "2 × werewolf" says what a cell dealt; a role held in some
            # games (Salem's characters) says nothing about the cell
            out[c["index"]] = guidance.dealt_text([
                r for r in c["measures"]["roles"] if r["name"] in varying
                and abs(r["per_game"] - round(r["per_game"])) < 1e-9])
    return out


def _insights(numbers: dict) -> str:
    """The sweep's sentences: the scripted players, where the balance crosses the target, the
    fair region, the strategy flips (the same words as the report's)."""
    lines = []
    if numbers["strategies_line"]:
        lines.append(f"These numbers describe scripted players: {numbers['strategies_line']}.")
    lines += [c["sentence"] for c in numbers["crossings"]]
    if numbers["fair_region"]:
        lines.append(numbers["fair_region"])
    lines += numbers["flips"]
    return "\n".join(textwrap.fill(line, 100, initial_indent="- ", subsequent_indent="  ")
                     for line in lines)


@click.command(short_help="Play a config over a grid of variations.")
@click.argument("config", required=False)
@click.option("--vary", "vary", multiple=True, metavar="KEY=LEVELS",
              help="A key and its levels: players=8..12 (inclusive range), "
                   "strategies.all=random,seer-led (list), rules.extra+=a,b (append to a list). "
                   "Repeat for a grid of every combination.")
@click.option("-n", "--games", "n_games", type=int, default=None,
              help="Games per cell [default: 10000].")
@click.option("--seed", type=int, default=None, help="Random seed, the same for every cell "
                                                     "[default: 0].")
@click.option("--workers", type=int, default=None, help="Worker processes [default: all cores].")
@click.option("--set", "overrides", multiple=True, metavar="KEY=VALUE",
              help="Override a key of the base config (repeatable).")
@click.option("--chunk-size", type=int, default=None,
              help=f"Games per chunk [default: {runner.DEFAULT_CHUNK_SIZE}].")
@click.option("-o", "--output", type=FilePath(dir_okay=False, path_type=Path),
              help="Sweep file [default: results/sweep-<game>-seed<seed>.json, or -2, "
                   "-3... when that exists].")
@click.option("--resume", "resume_path", type=FilePath(dir_okay=False, path_type=Path),
              help="Continue the interrupted sweep saved in this file (its finished cells and "
                   "chunks are kept): equal to a sweep never interrupted.")
@click.option("--report", "report_path", type=FilePath(dir_okay=False, path_type=Path),
              help="Also write the sweep's HTML report here.")
@click.option("--force", is_flag=True,
              help="Replace an -o file that holds something else (another sweep, say).")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
@scheduler_option
def sweep(config, vary, n_games, seed, workers, overrides, chunk_size, output, resume_path,
          report_path, force, quiet, scheduler):
    """Play CONFIG over a grid of variations; every cell is a normal run.

    \b
      fairplay sweep werewolf --vary players=8..12 --vary roles.werewolf=2..4 \\
          -n 20000 --seed 1 -o sweep.json --report sweep.html
      fairplay sweep --resume sweep.json      # after Ctrl-C: play what is left
    """
    from simulator.studies import sweep as sweep_module

    from reports import numbers as numbers_module
    from reports import render

    if workers is not None and workers < 1:
        _fail("--workers must be at least 1")
    check_scheduler(scheduler, workers)
    if report_path is not None:
        writable_file(report_path, "--report")
    lock = None
    try:
        if resume_path is not None:
            given = [name for name, value in (("CONFIG", config), ("--vary", vary),
                                              ("-n", n_games), ("--seed", seed),
                                              ("--set", overrides), ("--chunk-size", chunk_size),
                                              ("-o", output)) if value]
            if given:
                _fail(f"--resume takes the sweep from its file; give no {', '.join(given)}")
            distinct_outputs([(resume_path, "--resume"), (report_path, "--report")])
            if report_path is not None:
                _free(report_path, force)
            writable_file(resume_path, "--resume")
            lock = lock_output(resume_path)
            try:
                planned = sweep_module.Sweep.load(resume_path)
                planned.check_resumable(resume_path)
            except sweep_module.SweepError as exc:
                _fail(exc)
            path = resume_path
        else:
            planned, path = _plan_sweep(config, vary, n_games, seed, overrides, chunk_size)
            if output is not None:
                path = output
            elif not force:
                path = free_default(path, Path.exists)
            distinct_outputs([(path, "-o"), (report_path, "--report")],
                             [Path(config)] if Path(config).exists() else [])
            if report_path is not None:
                _free(report_path, force)
            writable_file(path, "-o")
            lock = lock_output(path)
            may_replace(path, "-o", force)
        done = _play_sweep(planned, path, workers, quiet, scheduler)
    finally:
        if lock is not None:
            lock.release()
    numbers = numbers_module.sweep_numbers(done)
    click.echo(f"{done.data['game']}: {len(done.cells)} cells, {done.data['games']:,} games each")
    click.echo(_table(done, numbers))
    insights = _insights(numbers)
    if insights:
        click.echo("\n" + insights)
    click.echo(f"\nSweep saved to {path}")
    if report_path is not None:
        write_report(report_path, render.write_sweep_report, done)


def _plan_sweep(config, vary, n_games, seed, overrides, chunk_size):
    """A new sweep's cells (and its default file), or one line saying what is wrong."""
    from simulator.studies import sweep as sweep_module
    from simulator.setup.config import ConfigError

    if config is None or not vary:
        _fail("give a CONFIG and at least one --vary KEY=LEVELS, or --resume SWEEP")
    n_games = 10_000 if n_games is None else n_games
    seed = 0 if seed is None else seed
    chunk_size = runner.DEFAULT_CHUNK_SIZE if chunk_size is None else chunk_size
    check_run_options(games=n_games, seed=seed, chunk_size=chunk_size)
    try:
        axes = [sweep_module.parse_vary(text) for text in vary]
        planned, _ = sweep_module.plan(config, axes, n_games, seed, chunk_size, list(overrides),
                                       _command_line())
    except (sweep_module.SweepError, ConfigError) as exc:
        _fail(exc)
    if all(cell.status == "invalid" for cell in planned.cells):
        for cell in planned.cells:
            click.echo(f"  {planned.cell_label(cell)}: {cell.error}", err=True)
        _fail(f"every one of the {len(planned.cells)} cells is invalid; nothing to play")
    for cell in planned.cells:
        if cell.status == "invalid":
            click.echo(f"fairplay: warning: invalid cell {planned.cell_label(cell)}: {cell.error}",
                       err=True)
    return planned, Path("results") / f"sweep-{planned.data['game']}-seed{seed}.json"


def _play_sweep(planned, path, workers, quiet, scheduler):
    """Play a planned (or resumed) sweep, saving it to `path`; a stop is one line."""
    from simulator.studies import sweep as sweep_module

    try:
        done = sweep_module.execute(planned, workers, _progress(quiet), checkpoint=path,
                                    scheduler=scheduler)
        sweep_module.save(done, path)
    except runner.SaveFailed as failed:
        raise RunFailed(f"{failed}; the sweep's last save is in {path}") from None
    except sweep_module.SweepFailed as stop:
        finished = len(stop.sweep.valid_cells)
        where = ""
        if stop.cell is not None:
            where = (f" (cell {stop.sweep.cell_label(stop.cell)}, game {stop.cause.game:,}: "
                     f"{trace_command(stop.cause.result, stop.cause.game)} shows it)")
        saved = (f"{finished} of {len(stop.sweep.cells)} cells finished, saved to {path} with "
                 f"the finished chunks of the others (fairplay sweep --resume {path})")
        if isinstance(stop.cause, chunks.SchedulerError):  # the cluster given: bad input
            _fail(f"{stop.cause}; {saved}")
        raise RunFailed(f"{stop.cause}{where}; {saved}") from None
    except sweep_module.SweepInterrupted as stop:
        played = len(stop.sweep.valid_cells)
        click.echo(f"\nInterrupted: {played} of {len(stop.sweep.cells)} cells finished, saved to "
                   f"{path} with the finished chunks of the others; continue with: fairplay "
                   f"sweep --resume {path}", err=True)
        sys.exit(130)
    return done


# --- export ------------------------------------------------------------------------------------
@click.command(short_help="Write the tables of a result or sweep as CSV.")
@click.argument("file", type=FilePath(dir_okay=False, path_type=Path))
@click.option("--csv", "folder", required=True, type=FilePath(path_type=Path), metavar="DIR",
              help="Folder for the CSV files (made if needed).")
@click.option("--unchecked", is_flag=True,
              help="Read a result file that has no checksum; the folder's UNCHECKED.txt and "
                   "a warning say so.")
def export(file, folder, unchecked):
    """Write the tables of a RESULT.json or a sweep file as CSV files, one per table (rates by
    group, the balance measure, tests, events, game lengths, the game's own tallies; a sweep:
    one row per cell with its config values and measures, and the role values).

    \b
      fairplay export results/werewolf-p9-seed0.json --csv tables/
      fairplay export sweep.json --csv sweep-tables/
    """
    from simulator.run.results import Result, ResultError
    from simulator.studies.sweep import Sweep, SweepError, is_sweep_file

    from reports import export as export_module
    from reports import numbers as numbers_module

    if not file.exists():
        _fail(f"{file}: no such file")
    try:
        if is_sweep_file(file):
            tables = export_module.sweep_tables(numbers_module.sweep_numbers(Sweep.load(file)))
        else:
            result = Result.load(file, unchecked)
            tables = export_module.run_tables(numbers_module.run_numbers(result))
    except (ResultError, SweepError) as exc:
        _fail(exc)
    if folder.exists() and not folder.is_dir():
        _fail(f"{folder}: cannot write: not a folder")
    try:
        paths = export_module.write_tables(tables, folder)
        note = folder / "UNCHECKED.txt"
        if not is_sweep_file(file) and result.unchecked:
            from simulator.run.results import UNCHECKED_NOTE

            note.write_text(f"{file.name} was {UNCHECKED_NOTE}.\n", encoding="utf-8")
            _say_unchecked(result, file)
        elif note.exists():  # an earlier export's note, of another file
            note.unlink()
    except OSError as exc:
        _fail(f"{folder}: cannot write: {exc.strerror or exc}")
    click.echo(f"{len(paths)} tables written to {folder}: "
               + ", ".join(path.name for path in paths))
