"""What every command of the CLI shares: one-line user errors, the progress bar, output files
and --scheduler."""

from __future__ import annotations

import shlex
import sys

import click


def say_error(message: str) -> None:
    """`fairplay: error: MESSAGE` on standard error, on one line whatever text it quotes."""
    from simulator.fileio import one_line

    click.echo(f"fairplay: error: {one_line(message)}", err=True)


class FilePath(click.Path):
    """A click path that refuses, as bad input, a name the system cannot open (a NUL byte)."""

    def convert(self, value, param, ctx):
        if "\x00" in str(value):
            self.fail(f"{str(value)!r} is not a file name (it holds a NUL byte)", param, ctx)
        return super().convert(value, param, ctx)


class UserError(click.ClickException):
    """A user's mistake: printed as one line `fairplay: error: ...`, exit code 2, no traceback."""

    exit_code = 2

    def show(self, file=None):
        say_error(self.message)


class RunFailed(click.ClickException):
    """A run stopped by a fault at run time (a strategy's, or a game past its cap): one line,
    exit code 1."""

    exit_code = 1

    def show(self, file=None):
        say_error(self.message)


def trace_command(result, game: int) -> str:
    """How to see game `game` of a run again, step by step."""
    command = result.data.get("command") or ""
    try:
        parts = shlex.split(command)
    except ValueError:
        parts = []
    if len(parts) < 3 or parts[:2] != ["fairplay", "run"]:
        return f"fairplay trace <config> --seed {result.data['seed']} --game {game}"
    keep, skip = ["fairplay", "trace", parts[2]], False
    for i, part in enumerate(parts[3:]):
        if skip:
            skip = False
            continue
        if part in ("-n", "--games", "--precision", "--max-games"):
            skip = True
            continue
        if part == "--until-decided":
            continue
        keep.append(part)
    keep += ["--game", str(game)]
    return " ".join(shlex.quote(part) for part in keep)


def fail(problem) -> None:
    raise UserError(str(problem)) from None


def check_run_options(workers=None, games=None, seed=None, chunk_size=None) -> None:
    """The options every playing command shares, checked alike (None: not given)."""
    for flag, value, low in (("--workers", workers, 1), ("--games", games, 1),
                             ("--seed", seed, 0), ("--chunk-size", chunk_size, 1)):
        if value is not None and value < low:
            fail(f"{flag} must be a non-negative integer, got {value}" if low == 0 else
                 f"{flag} must be at least {low}, got {value}")


class OneLineErrors(click.Group):
    """The command group: every usage error (a bad option value, an unknown option) is one line
    `fairplay: error: ...` with exit code 2, like every other mistake of a user's."""

    def main(self, *args, **kwargs):
        if kwargs.get("standalone_mode", True) is False:
            return super().main(*args, **kwargs)
        kwargs["standalone_mode"] = False
        try:
            return super().main(*args, **kwargs)
        except click.exceptions.UsageError as error:
            where = f"{error.ctx.command_path}: " if error.ctx is not None else ""
            say_error(f"{where}{error.format_message()}")
            sys.exit(2)
        except click.ClickException as error:
            error.show()
            sys.exit(error.exit_code)
        except click.exceptions.Abort:  # Ctrl-C outside a run
            click.echo("fairplay: interrupted", err=True)
            sys.exit(130)


def writable_file(path, what: str) -> None:
    """Refuse, before any game is played, a file that cannot be written: one line, exit 2."""
    import os
    from pathlib import Path

    path = Path(path)
    parent = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        fail(f"{what} {path}: is a folder, not a file")
    if path.exists() and not os.access(path, os.W_OK):
        fail(f"{what} {path}: not writable")
    import tempfile

    try:
        parent.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=parent).close()  # the one sure test: write something there
    except OSError as exc:
        fail(f"{what} {path}: cannot write there ({exc.strerror or exc})")


class LiveLine:
    """One line of a terminal's standard error, rewritten in place while something long runs
    before the first game (a kernel's compile): its text and the seconds since it began,
    refreshed twice a second, so a first run never sits silent. Lines printed meanwhile go above
    it; an empty text clears it."""

    def __init__(self, stream=None, every: float = 0.5):
        import threading

        self.stream = stream or sys.stderr
        self.every, self.text, self.began = every, "", None
        self.lock = threading.Lock()
        self.wake = threading.Event()
        self.thread = None

    def set(self, text: str) -> None:
        import threading
        import time

        with self.lock:
            if text and self.began is None:
                self.began = time.monotonic()
            self.text = text
            self._draw()
            if text and self.thread is None:
                self.wake.clear()
                self.thread = threading.Thread(target=self._tick, daemon=True)
                self.thread.start()
        if not text:
            self.stop()

    def print(self, line: str) -> None:
        """A line above the live one (which is drawn again under it)."""
        with self.lock:
            self.stream.write("\r\x1b[K" + line + "\n")
            self._draw()

    def stop(self) -> None:
        with self.lock:
            self.text, self.began = "", None
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            thread, self.thread = self.thread, None
        self.wake.set()
        if thread is not None:
            thread.join()

    def _draw(self) -> None:
        import time

        if self.text:
            elapsed = time.monotonic() - self.began
            self.stream.write(f"\r\x1b[K{self.text} ({elapsed:.0f} s)")
        self.stream.flush()

    def _tick(self) -> None:
        while not self.wake.wait(self.every):
            with self.lock:
                self._draw()


def progress_bar(quiet: bool, progress_class):
    """A `progress_class(start, advance, close, announce, status, warn)`: a tqdm bar on a
    terminal (its description says what compiles now) and lines for the user (such as
    "compiling the ... kernel") on standard error, none of it when quiet; warnings (a run that will take hours) are shown quiet or not. `start` receives the
    total games (and optionally the games already done first)."""
    def announce(line):
        click.echo(line, err=True)

    if quiet:
        return progress_class(warn=announce)
    if not sys.stderr.isatty():
        return progress_class(announce=announce, warn=announce)
    from tqdm import tqdm

    bar = {}
    live = LiveLine()  # before the bar: what compiles now, with the time it has taken

    def start(*counts):
        live.stop()
        done, total = (0, counts[0]) if len(counts) == 1 else counts
        bar["t"] = tqdm(total=total, initial=done, unit="games", unit_scale=True, file=sys.stderr)

    def status(text):  # what compiles now, in the bar's description ("" clears it)
        if "t" in bar:
            bar["t"].set_description_str(text)
        else:
            live.set(text)

    def say(line):
        if live.text:
            live.print(line)
        else:
            announce(line)

    def close():
        live.stop()
        if "t" in bar:
            bar["t"].close()

    return progress_class(start=start, advance=lambda n: bar["t"].update(n), close=close,
                          announce=say, status=status, warn=say)


def scheduler_option(command):
    """`--scheduler ADDRESS`: play the chunks on a Dask cluster (docs/scale.md)."""
    return click.option(
        "--scheduler", metavar="ADDRESS",
        help="Play the chunks on a Dask cluster: a scheduler's address (tcp://HOST:8786), or "
             "local for a local cluster of --workers processes; the same results (needs "
             "pip install 'fairplay[dask]'; docs/scale.md).")(command)


def check_scheduler(scheduler, workers) -> None:
    """Refuse, before anything is played, --scheduler without Dask installed, and --workers with
    a remote cluster (which has its own)."""
    if scheduler is None:
        return
    if workers is not None and scheduler != "local":
        fail("--workers sets the size of a --scheduler local cluster; a remote cluster has its "
             "own workers (give --workers or --scheduler ADDRESS, not both)")
    from simulator.run import chunks, dask_backend

    try:
        if scheduler == "local":
            dask_backend.require()
        else:
            dask_backend.check_address(scheduler)
    except chunks.SchedulerError as exc:
        fail(exc)


# --- outputs: never an input, never another output, never another run's file ----------------------
def distinct_outputs(outputs, inputs=()) -> None:
    """Refuse, before anything is played or written, an output that is also an input of the
    command (writing it would replace what is read) or two outputs naming one file.
    `outputs` are (path or None, option name) pairs."""
    from simulator.fileio import same_file

    seen = []
    for path, what in outputs:
        if path is None:
            continue
        for source in inputs:
            if same_file(path, source):
                fail(f"{what} {path} is also this command's input; writing it would replace "
                     f"what is read: choose another file")
        for other, other_what in seen:
            if same_file(path, other):
                fail(f"{what} and {other_what} both name {path}; give each its own file")
        seen.append((path, what))


def file_and_config_outputs(output, default, config: str, resumed: bool, force: bool):
    """The JSON file of a search (best-response, equilibrate) and the TOML config beside it:
    `default` (or its next free name) where no -o was given; both refused, before anything is
    played, when they are an input, cannot be written, or (a new search) would replace a file
    without --force. Returns (file, TOML path)."""
    from pathlib import Path

    if output is None:
        output = default if force else free_default(
            default, lambda p: p.exists() or p.with_suffix(".toml").exists())
    toml_path = output.with_suffix(".toml")
    distinct_outputs([(output, "-o"), (toml_path, "the TOML config")],
                     [Path(config)] if Path(config).exists() else [])
    for path, what in ((output, "-o"), (toml_path, "the TOML config")):
        writable_file(path, what)
        if not resumed:
            may_replace(path, what, force)
    return output, toml_path


def free_default(first, taken) -> "Path":
    """A default output never refuses: `first` unless `taken(path)` says that writing there
    would lose something (another run's file; this very run played again is not), else the
    first of `STEM-2.SUFFIX`, `STEM-3.SUFFIX`... beside it that is not taken (the command's
    closing line says where it saved). Only an explicit -o naming another run's file is
    refused."""
    from pathlib import Path

    first = Path(first)
    path, k = first, 1
    while taken(path):
        k += 1
        path = first.with_name(f"{first.stem}-{k}{first.suffix}")
    return path


def may_replace(path, what: str, force: bool, replaceable=lambda path: False) -> None:
    """Refuse to replace an existing file without --force, unless `replaceable(path)` says that
    replacing it loses nothing (an earlier report of fairplay's, the same run played again)."""
    from pathlib import Path

    path = Path(path)
    if force or not path.exists() or replaceable(path):
        return
    fail(f"{what} {path} exists and holds something else; choose another file, or --force to "
         f"replace it")


def is_fairplay_report(path) -> bool:
    """Is `path` an HTML report fairplay wrote (its generator tag, near the start)?"""
    from simulator import fileio

    try:
        head = fileio.read_bytes(path, fileio.JSON_LIMIT)[:2048]
    except fileio.FileRefused:
        return False
    return b'<meta name="generator" content="fairplay' in head


def lock_output(path):
    """Hold the lock of an output for as long as this command writes it (fileio.OutputLock): a
    second run on the same file is refused in one line."""
    from simulator import fileio

    try:
        return fileio.OutputLock(path).acquire()
    except fileio.Busy as exc:
        fail(exc)
    except OSError as exc:
        fail(f"{path}: cannot write there ({exc.strerror or exc})")


def save_failed_line(failed) -> str:
    """One line for runner.SaveFailed: what could not be written, and where the games are."""
    if failed.saved_games is not None:
        kept = (f"the last checkpoint, {failed.saved_games:,} games, is still in {failed.path} "
                f"(fairplay run --resume {failed.path} continues from it)")
    else:
        kept = f"nothing was written to {failed.path}"
    rescued = f"; every finished game was written to {failed.rescued} instead" \
        if failed.rescued else ""
    return f"{failed}; {kept}{rescued}"


def write_report(path, write, *args, err: bool = False) -> None:
    """`write(*args, path)`, a report writer of reports.render, then one line saying where it is;
    a failed write is one line and exit 2."""
    try:
        write(*args, path)
    except OSError as exc:
        fail(f"{path}: cannot write: {exc.strerror}")
    click.echo(f"Report written to {path}", err=err)
