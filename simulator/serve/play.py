"""One run or sweep of the workbench, in a process of its own: exactly `fairplay run SETUP.toml
-n N --seed S -o RESULT.json`, or `fairplay sweep SETUP.toml --vary ... -n N --seed S -o
SWEEP.json` (the same config loading, seeds, chunks and checkpoints, so the same tallies),
reporting to the server on its standard output, one JSON object per line:

    {"kind": "status", "line": "compiling the werewolf kernel ..."}   what it is doing now
    {"kind": "result", "data": {...}}   the result (or sweep) so far, about once a second at most
    {"kind": "end", "how": "done" | "stopped" | "failed", "line": "..."}

SIGINT stops it the way Ctrl-C stops `fairplay run` and `fairplay sweep`: the finished chunks
are saved and the file can be resumed. It ends on its own when the server that started it is
gone.

    python -m simulator.serve.play SETUP.toml OUTPUT.json --games N --seed S --parent PID
        [--workers W] [--resume] [--vary KEY=LEVELS ...]

    python -m simulator.serve.play --best-response SETUP OUTPUT.json --team T | --role R
        --trials N --games N --seed S --parent PID [--workers W] [--resume]

A best-response search is what `fairplay best-response SETUP --team T --trials N -n N --seed S
-o OUTPUT.json` plays, through the same function (simulator.studies.best_response.play_search):
the server follows it through the file saved after every candidate, and the lines it prints on
standard error; it exits 0 when done, 130 when stopped (the candidates finished are saved), 1
when it failed (its last line says why).
"""

from __future__ import annotations

import argparse
import json
import sys
import time

REPORT_EVERY_SECONDS = 1.0


def _say(kind: str, **fields) -> None:
    sys.stdout.write(json.dumps({"kind": kind, **fields}, separators=(",", ":")) + "\n")
    sys.stdout.flush()


class _Reporter:
    """Says the result (or sweep) so far, at most about once a second unless forced, and what
    the run is doing now; `progress(kind)` builds the runner's or the sweep's callbacks."""

    def __init__(self):
        self.current = None  # a Result or a Sweep: anything with to_json()
        self.last = 0.0

    def report(self, *_, force: bool = False) -> None:
        if self.current is not None and \
                (force or time.monotonic() - self.last >= REPORT_EVERY_SECONDS):
            self.last = time.monotonic()
            _say("result", data=json.loads(self.current.to_json()))

    def progress(self, kind, **callbacks):
        def status(line):
            _say("status", line=line)

        return kind(announce=status, status=status, warn=status, **callbacks)


def play_search(argv) -> int:
    """A best-response search of the workbench (see the module's docstring)."""
    parser = argparse.ArgumentParser(prog="python -m simulator.serve.play --best-response")
    parser.add_argument("setup")
    parser.add_argument("output")
    parser.add_argument("--parent", type=int, required=True)
    parser.add_argument("--team")
    parser.add_argument("--role")
    parser.add_argument("--trials", type=int, default=40)
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--resume", action="store_true")
    args = parser.parse_args(argv)

    from simulator.run.local_backend import die_with_parent

    die_with_parent(args.parent)  # a server killed outright takes its search with it
    from pathlib import Path

    from simulator import fileio
    from simulator.setup import config
    from simulator.studies import best_response as br

    def say(line):
        print(line, file=sys.stderr, flush=True)

    output = Path(args.output)
    try:
        if args.resume:
            saved = br.load(output)
            request, done = br.Request.of_file(saved), saved["searched"]
            code = config.recorded(saved.get("strategy_files") or {}, "the search began")
        else:
            who = ["--team", args.team] if args.team else ["--role", args.role]
            request = br.Request(args.setup, args.team, args.role, trials=args.trials,
                                 games=args.games, seed=args.seed,
                                 command=" ".join(["fairplay", "best-response", args.setup, *who,
                                                   "--trials", str(args.trials), "-n",
                                                   str(args.games), "--seed", str(args.seed),
                                                   "-o", str(output)]))
            done, code = (), config.USER_CONFIG
        lock = fileio.OutputLock(output).acquire()
        try:
            br.play_search(request, output, args.workers, None, done, code, say)
        finally:
            lock.release()
    except KeyboardInterrupt:
        say(f"stopped: the candidates finished are saved to {output}")
        return 130
    except (br.BestResponseError, br.SearchStopped, config.ConfigError, fileio.Busy,
            OSError) as exc:
        say(str(exc))
        return 1
    return 0


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--best-response"]:
        return play_search(argv[1:])
    parser = argparse.ArgumentParser(prog="python -m simulator.serve.play")
    parser.add_argument("setup")
    parser.add_argument("output")
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--parent", type=int, required=True)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--vary", action="append", default=[])
    args = parser.parse_args(argv)

    from simulator.run.local_backend import die_with_parent

    die_with_parent(args.parent)  # a server killed outright takes its runs with it

    from pathlib import Path

    from simulator.run import chunks, runner
    from simulator.setup import config
    from simulator.run.results import ResultError

    output = Path(args.output)
    if args.vary:
        return play_sweep(args, output)
    reporter = _Reporter()
    report = reporter.report
    progress = reporter.progress(runner.Progress, advance=report)
    try:
        if args.resume:
            result = runner.load_for_resume(output)
        else:
            cfg = config.load(args.setup)
            command = runner.reproduce_command(args.setup, None, args.games, args.seed, (),
                                               runner.DEFAULT_CHUNK_SIZE) + f" -o {output}"
            result = runner.start(cfg, args.games, args.seed, command=command)
        reporter.current = result
        report(force=True)
        runner.execute(result, args.workers, output, progress, isolate=True)
    except runner.Interrupted as stopped:
        reporter.current = stopped.result
        report(force=True)
        _say("end", how="stopped", line=f"stopped: {stopped.result.games_played:,} games saved "
                                        f"to {output}")
        return 130
    except (config.ConfigError, ResultError, runner.SaveFailed, runner.RunFault,
            chunks.WorkerLost) as exc:
        report(force=True)
        _say("end", how="failed", line=str(exc))
        return 2 if isinstance(exc, (config.ConfigError, ResultError)) else 1
    except KeyboardInterrupt:  # before the run had started: nothing to save
        _say("end", how="stopped", line="stopped before any game was played")
        return 130
    report(force=True)
    _say("end", how="done", line=f"{result.games_played:,} games saved to {output}")
    return 0


def play_sweep(args, output) -> int:
    import shlex

    from simulator.run import chunks, runner
    from simulator.setup import config
    from simulator.studies import sweep as sweeps

    reporter = _Reporter()
    report = reporter.report
    progress = reporter.progress(sweeps.SweepProgress, cell_done=report)
    try:
        if args.resume:
            sweep = sweeps.Sweep.load(output)
            sweep.check_resumable(output)
        else:
            axes = [sweeps.parse_vary(text) for text in args.vary]
            command = " ".join(shlex.quote(part) for part in [
                "fairplay", "sweep", args.setup, *[f"--vary={text}" for text in args.vary],
                "-n", str(args.games), "--seed", str(args.seed), "-o", str(output)])
            sweep, _ = sweeps.plan(args.setup, axes, args.games, args.seed, command=command)
        reporter.current = sweep
        report(force=True)
        sweeps.execute(sweep, args.workers, progress, output)
        sweeps.save(sweep, output)
    except sweeps.SweepInterrupted as stopped:
        reporter.current = stopped.sweep
        report(force=True)
        done = sum(cell.status != "pending" for cell in stopped.sweep.cells)
        _say("end", how="stopped", line=f"stopped: {done} of {len(stopped.sweep.cells)} cells "
                                        f"finished, saved to {output}")
        return 130
    except sweeps.SweepFailed as failed:
        reporter.current = failed.sweep
        report(force=True)
        _say("end", how="failed", line=str(failed))
        return 1
    except (config.ConfigError, sweeps.SweepError, runner.SaveFailed, chunks.WorkerLost) as exc:
        _say("end", how="failed", line=str(exc))
        return 2 if isinstance(exc, (config.ConfigError, sweeps.SweepError)) else 1
    except KeyboardInterrupt:
        _say("end", how="stopped", line="stopped before any game was played")
        return 130
    report(force=True)
    _say("end", how="done", line=f"{len(sweep.cells)} cells saved to {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
