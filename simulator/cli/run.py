"""The `fairplay run` and `fairplay trace` commands: play a setup, and replay one of its games."""

from __future__ import annotations

import signal
import sys
from pathlib import Path

import click

from simulator.run import chunks, runner
from simulator.run.runner import reproduce_command
from simulator.cli.support import FilePath
from simulator.cli.support import (
    RunFailed, check_run_options, check_scheduler, distinct_outputs, free_default,
    is_fairplay_report, lock_output, may_replace, progress_bar, save_failed_line,
    scheduler_option, trace_command, writable_file, write_report,
)
from simulator.cli.support import fail as _fail
from simulator.setup.config import ConfigError
from simulator.games import driver
from simulator.run.results import ResultError
from simulator.run.stopping import DEFAULT_MAX_GAMES, Rule
from simulator.statistics import adaptive
from simulator.statistics.summary import summarize


def _load_config(spec, overrides, players):
    from simulator.setup import config

    try:
        return config.load(spec, overrides, players)
    except ConfigError as exc:
        _fail(exc)


def _config_name(config: str, cfg) -> str:
    """The name a result file takes after its config: the file's stem, or the game's name."""
    path = Path(config)
    return path.stem if path.suffix == ".toml" else cfg.game.name


def _default_output(config: str, cfg, seed) -> Path:
    return Path("results") / f"{_config_name(config, cfg)}-p{cfg.players}-seed{seed}.json"


def _roles_path(path: Path) -> Path:
    """Where --role-values saves the role values: beside the result."""
    return path.with_name(path.stem + "-roles.json")


def _other_work(path: Path, planned) -> str | None:
    """What `path` holds besides this very run (None: nothing, or the same config, seed, chunk
    size, games and stopping rule: played again, it is the same file)."""
    from simulator import fileio
    from simulator.run.results import RESULT_FILE

    if not path.exists():
        return None
    try:
        stored = fileio.read_json(path)
    except fileio.FileRefused:
        stored = None
    if not isinstance(stored, dict) or stored.get("schema") != RESULT_FILE.schema:
        return "exists and is not a fairplay result"
    identity = ("game", "config", "seed", "chunk_size", "games_requested", "stopping")
    fingerprint = (stored.get("fingerprint") or {}).get("config")
    if any(stored.get(key) != planned.data.get(key) for key in identity) or \
            fingerprint != planned.data["fingerprint"]["config"]:
        return "holds another run's result (another config, seed, length or chunk size)"
    return None


def _check_overwrite(path: Path, planned, force: bool) -> None:
    """Never replace, without --force, an -o file that holds anything but this very run."""
    held = None if force else _other_work(path, planned)
    if held is not None:
        hint = ", --resume it," if "another run" in held else ""
        _fail(f"-o {path} {held}; choose another -o{hint} or --force to replace it")


class _Terminated(KeyboardInterrupt):
    """SIGTERM, turned into what Ctrl-C raises: the run stops the same way (saves what is done,
    ends the workers), then exits 143 as a terminated process does."""


def _on_sigterm(signum, frame):
    raise _Terminated


@click.command(short_help="Play a setup many times: who wins, and is it fair?")
@click.argument("config", required=False)
@click.option("--players", type=int, help="Number of players (overrides the config).")
@click.option("-n", "--games", "n_games", type=int, default=None,
              help="Games to play [default: 100000; with --resume: the file's target, or more "
                   "to extend it].")
@click.option("--seed", type=int, default=None, help="Random seed, 0 or more [default: 0].")
@click.option("--workers", type=int, default=None, help="Worker processes [default: all cores].")
@click.option("--set", "overrides", multiple=True, metavar="KEY=VALUE",
              help="Override a config key, e.g. --set roles.werewolf=3 (repeatable).")
@click.option("-o", "--output", type=FilePath(dir_okay=False, path_type=Path),
              help="Result file [default: results/<config>-p<players>-seed<seed>.json, or "
                   "-2, -3... when that holds another run]; - writes the JSON to standard "
                   "output.")
@click.option("--resume", "resume_path", type=FilePath(dir_okay=False, path_type=Path),
              help="Continue the run saved in this result file (-n N extends it to N games).")
@click.option("--chunk-size", type=int, default=runner.DEFAULT_CHUNK_SIZE, show_default=True,
              help="Games per chunk (part of a run's identity: results match for equal seeds "
                   "and chunk sizes).")
@click.option("--report", "report_path", type=FilePath(dir_okay=False, path_type=Path),
              help="Also write the HTML balance report to this file.")
@click.option("--force", is_flag=True,
              help="Replace an -o file that holds another run's result, or a --report file "
                   "that is not a fairplay report.")
@click.option("--precision", type=float, default=None, metavar="HALF_WIDTH",
              help="Play until every headline rate's 95% interval is within ± this (0.005: half "
                   "a point), or --max-games; instead of -n.")
@click.option("--until-decided", is_flag=True,
              help="Play until the verdict is settled (balanced or unbalanced; a group-"
                   "sequential test), or --max-games; instead of -n.")
@click.option("--max-games", type=int, default=None,
              help=f"The cap of --precision or --until-decided [default: "
                   f"{DEFAULT_MAX_GAMES:,}].")
@click.option("--role-values", is_flag=True,
              help="Also measure what each role is worth (as `fairplay roles`: one more setup per "
                   "role, as many games each as the run played) and add it to the report.")
@click.option("--robustness", is_flag=True,
              help="Also play the setup with every built-in strategy family of the game at "
                   "every seat (and --tuned), and say whether the verdict depends on the "
                   "players.")
@click.option("--tuned", "tuned_path", type=FilePath(dir_okay=False, path_type=Path),
              help="With --robustness: a tuned config (from fairplay best-response) to play "
                   "too.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
@scheduler_option
def run(config, players, n_games, seed, workers, overrides, output, resume_path, chunk_size,
        report_path, force, precision, until_decided, max_games, role_values, robustness,
        tuned_path, quiet, scheduler):
    """Play CONFIG (a .toml file or a game name) many times and summarise who wins.

    \b
    Who plays: the config's [strategies]. A game's default config plays the players the game
    measures balance with (werewolf: people); choose others with --set, e.g.
      fairplay run werewolf --set strategies.all=random
      fairplay run werewolf --set 'strategies={wolf = "people", human = "seer-led"}'
    `fairplay games GAME` lists each game's strategies; the verdict names who played.
    """
    check_run_options(workers, n_games, seed, chunk_size)
    stopping = _stopping_rule(n_games, precision, until_decided, max_games, resume_path)
    check_scheduler(scheduler, workers)
    if role_values and resume_path is not None:
        _fail("--role-values needs the CONFIG: run it without --resume (or use fairplay roles)")
    if (robustness or tuned_path) and resume_path is not None:
        _fail("--robustness needs the CONFIG: run it without --resume")
    if tuned_path is not None and not robustness:
        _fail("--tuned goes with --robustness")
    to_stdout = output is not None and str(output) == "-"
    if resume_path is not None and output is not None:
        _fail("--resume writes to the file it continues; give no -o")
    if report_path is not None:
        writable_file(report_path, "--report")
    progress = progress_bar(quiet, runner.Progress)
    previous = signal.signal(signal.SIGTERM, _on_sigterm)
    lock = None
    path = None
    try:
        if resume_path is not None:
            if config is not None:
                _fail("--resume takes the config from the result file; give no CONFIG")
            if seed is not None:
                _fail("--seed cannot change a run being resumed (its seed is in the file)")
            if overrides or players is not None:
                _fail("--resume takes the config from the result file; no --set or --players")
            distinct_outputs([(resume_path, "--resume"), (report_path, "--report")])
            _report_may_replace(report_path, force)
            writable_file(resume_path, "--resume")
            lock = lock_output(resume_path)
            result = runner.load_for_resume(resume_path, n_games)
            path = resume_path
            if result.complete:
                hint = "" if result.data.get("stopping") else \
                    " (-n N with more games extends it)"
                click.echo(f"{resume_path} is already complete ({result.games_played:,} games); "
                           f"nothing to play{hint}", err=True)
            else:
                result = runner.execute(result, workers, path, progress, isolate=True,
                                        scheduler=scheduler, stop_check=adaptive.stops)
        else:
            if config is None:
                _fail("give a CONFIG (a .toml file or a game name), or --resume RESULT")
            seed = 0 if seed is None else seed
            n_games = 100_000 if n_games is None else n_games
            cfg = _load_config(config, overrides, players)
            if tuned_path is not None:  # read now, not after the run has played
                _load_config(str(tuned_path), [], None)
            command = reproduce_command(config, players, n_games, seed, overrides, chunk_size,
                                        stopping)
            if stopping is not None:
                n_games = stopping.max_games
            planned = runner.start(cfg, n_games, seed, chunk_size, command, stopping)
            path = None if to_stdout else output
            if path is None and not to_stdout:
                path = _default_output(config, cfg, seed)
                if not force:
                    path = free_default(path, lambda p: _other_work(p, planned) is not None or (
                        role_values and _roles_path(p).exists()))
            roles_path = _roles_path(path) if role_values and path else None
            distinct_outputs([(path, "-o"), (report_path, "--report"),
                              (roles_path, "the role values' file")],
                             [Path(config)] if Path(config).exists() else [])
            _report_may_replace(report_path, force)
            if path is not None:
                writable_file(path, "-o")
                lock = lock_output(path)
                _check_overwrite(path, planned, force)
            if roles_path is not None:
                writable_file(roles_path, "the role values' file")
                may_replace(roles_path, "the role values' file", force)
            if stopping is not None and not quiet:
                click.echo(f"Playing {stopping.describe()}", err=True)
            result = runner.execute(planned, workers, path, progress, isolate=True,
                                    scheduler=scheduler, stop_check=adaptive.stops)
    except (ConfigError, ResultError, chunks.SchedulerError) as exc:
        _fail(exc)
    except runner.SaveFailed as failed:
        raise RunFailed(save_failed_line(failed)) from None
    except chunks.WorkerLost as lost:
        raise RunFailed(f"{lost}; the finished chunks are saved to {path}, and fairplay run "
                        f"--resume {path} continues the run" if path else str(lost)) from None
    except runner.RunFault as stop:
        saved = f"; {stop.result.games_played:,} games saved to {path}" if path else ""
        raise RunFailed(f"{stop} (game {stop.game:,} of the run: "
                        f"{trace_command(stop.result, stop.game)} shows it){saved}") from None
    except runner.Interrupted as stop:
        done = stop.result.games_played
        where = (f"saved to {stop.path}; continue with: fairplay run --resume {stop.path}"
                 if stop.path else "not saved (the result was going to standard output)")
        click.echo(f"\nInterrupted: {done:,} of {stop.result.data['games_requested']:,} games "
                   f"{where}", err=True)
        sys.exit(143 if isinstance(stop.__context__, _Terminated) else 130)
    finally:
        signal.signal(signal.SIGTERM, previous)
        if lock is not None:
            lock.release()
    if to_stdout:
        click.echo(result.to_json())
        click.echo(summarize(result).table(), err=True)
    else:
        click.echo(summarize(result).table())
        default = _default_output(config, cfg, seed) if config is not None and output is None \
            else None
        beside = f" ({default} holds another run)" if default and path != default else ""
        click.echo(f"\nResult saved to {path}{beside}")
    if robustness:
        from simulator.studies import robustness as robustness_module

        try:
            found = robustness_module.rows(config, result, overrides, players,
                                           result.games_played, seed, workers,
                                           str(tuned_path) if tuned_path else None,
                                           scheduler=scheduler)
        except ConfigError as exc:
            _fail(exc)
        except runner.RunFault as stop:  # a compared setup's strategy failed: the main result
            raise RunFailed(f"the robustness check stopped: {stop} (the main result is saved"
                            f"{' to ' + str(path) if path else ''})") from None
        click.echo("\n" + "\n".join(robustness_module.table(found)), err=to_stdout)
    values = None
    if role_values:
        from simulator.studies import roles as roles_module
        from simulator.cli.roles import measure

        values = measure(config, players, overrides, result.games_played, seed, None, workers,
                         quiet)
        click.echo("\n" + "\n".join(roles_module.table(values)), err=to_stdout)
        if path is not None:
            saved = _roles_path(path)
            roles_module.save(values, saved)
            click.echo(f"Role values saved to {saved}", err=to_stdout)
    if report_path is not None:
        from reports.render import write_run_report

        write_report(report_path, lambda path: write_run_report(result, path, role_values=values),
                     err=to_stdout)


def _report_may_replace(report_path, force) -> None:
    if report_path is not None:
        may_replace(report_path, "--report", force, is_fairplay_report)


def _stopping_rule(n_games, precision, until_decided, max_games, resume_path):
    """The adaptive rule of `run`'s options (None: a fixed number of games); one line, exit 2,
    for options that do not go together."""
    adaptive_options = precision is not None or until_decided
    if resume_path is not None and (adaptive_options or max_games is not None):
        _fail("--resume follows the stopping rule saved in the result file; give no "
              "--precision, --until-decided or --max-games")
    if precision is not None and until_decided:
        _fail("give --precision or --until-decided, not both")
    if n_games is not None and adaptive_options:
        _fail("-n plays a fixed number of games, --precision and --until-decided play until "
              "they are done: give one (--max-games caps an adaptive run)")
    if max_games is not None and not adaptive_options:
        _fail("--max-games caps --precision or --until-decided; a fixed run takes -n")
    if not adaptive_options:
        return None
    if precision is not None and not 0 < precision < 0.5:
        _fail(f"--precision is a half-width between 0 and 0.5 (0.005: half a point), got "
              f"{precision:g}")
    max_games = DEFAULT_MAX_GAMES if max_games is None else max_games
    if max_games < 1:
        _fail(f"--max-games must be at least 1, got {max_games}")
    return Rule("precision" if precision is not None else "decided", max_games,
                         precision)


@click.command(short_help="Print one game step by step.")
@click.argument("config")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed of the run.")
@click.option("--game", "game_index", type=int, default=0, show_default=True,
              help="Which game of the run (0-based): the trace replays exactly that game.")
@click.option("--chunk-size", type=int, default=runner.DEFAULT_CHUNK_SIZE, show_default=True,
              help="The run's chunk size (a run's games depend on seed and chunk size).")
@click.option("--players", type=int, help="Number of players (overrides the config).")
@click.option("--set", "overrides", multiple=True, metavar="KEY=VALUE", help="Override a key.")
@click.option("--private", is_flag=True,
              help="Also show what each seat privately learns (lines marked \"(private)\").")
def trace(config, seed, game_index, chunk_size, players, overrides, private):
    """Print one game of CONFIG step by step, from the same kernel as `run`: by default the first
    game of `fairplay run CONFIG --seed SEED`; --game K replays its game K."""
    if game_index < 0:
        _fail(f"--game must be at least 0, got {game_index}")
    check_run_options(seed=seed, chunk_size=chunk_size)
    cfg = _load_config(config, overrides, players)
    if not runner.kernel_is_ready(cfg):
        click.echo(f"compiling the {cfg.game.name} kernel, first run only (about a minute)",
                   err=True)
    try:
        lines = runner.trace_game(cfg, seed, game_index, chunk_size, private=private)
    except driver.GameFault as fault:
        for line in fault.lines:
            click.echo(line)
        raise RunFailed(f"{fault} (in game {game_index:,}; the trace above stops there)") from None
    for line in lines:
        click.echo(line)
