"""The workbench's web app (Starlette): the page, its JSON calls and its stream of run updates.

Everything a page asks for is confined to the folder the server was started in (`root`): setups
are saved there, runs write their setup and result under `results/serve/`, and a user strategy
file a setup names must lie inside it. A setup is only validated here (its strategy files are not
imported); a run loads what its setup names, as `fairplay run` would.

Served on loopback, requests must name a loopback host (a web page elsewhere cannot reach the
server by a name of its own); served on another address, every request must carry the token the
server printed (as `?token=`, then a cookie).
"""

from __future__ import annotations

import contextlib
import html
import json
import re
import secrets
from dataclasses import dataclass, field
from pathlib import Path

import anyio
import jinja2
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from simulator.run import chunks, runner
from simulator.studies import compare
from simulator import fileio
from simulator.statistics import headline
from simulator.studies import sweep as sweeps
from simulator.setup import config as config_module
from simulator.setup.config import ConfigError
from simulator.games.base import is_private_line
from simulator.games import game_names, get_game
from simulator.serve import setups
from simulator.serve.runs import Runs
from simulator.statistics.summary import summarize

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1", "[::1]")
TOKEN_COOKIE = "fairplay_token"
MAX_GAMES = 10**9
MAX_NAME = 1024  # characters of a file name a page may give (the system's own limit is 4096)
MAX_SWEEP_CELLS = 400  # a grid the page can draw and a person can read
RUNS_FOLDER = Path("results") / "serve"


class Refused(Exception):
    """A request the server will not do: one line, with its HTTP status."""

    def __init__(self, line: str, status: int = 400, key: str = ""):
        super().__init__(line)
        self.line, self.status, self.key = line, status, key


@dataclass
class Workbench:
    root: Path
    runs: Runs
    references: dict = field(default_factory=dict)  # session -> the pinned run's number
    _views: dict = field(default_factory=dict)  # run number -> (games, its view), computed once

    # --- paths -------------------------------------------------------------------------------
    def inside(self, name: str, suffix: str) -> Path:
        """`name`, relative to the root, refused when it leaves the root or has another suffix."""
        if not isinstance(name, str) or not name.strip():
            raise Refused("give a file name", key="name")
        if "\x00" in name or len(name) > MAX_NAME or \
                any(len(part.encode()) > 255 for part in Path(name.strip()).parts):
            raise Refused(f"a file name has at most {MAX_NAME} characters, each part of it 255 "
                          f"bytes, and no NUL", key="name")
        path = Path(name.strip())
        if path.is_absolute() or path.suffix != suffix:
            raise Refused(f"{name}: give a {suffix} file name relative to the folder fairplay "
                          f"serve was started in", key="name")
        full = (self.root / path).resolve()
        if not full.is_relative_to(self.root.resolve()):
            raise Refused(f"{name}: outside the folder fairplay serve was started in", 403,
                          key="name")
        return full

    def next_run_paths(self, kind: str = "run") -> tuple[Path, Path]:
        """A run's (or sweep's, or search's) setup and output files: never a file that already
        exists."""
        number = max(self.runs.runs, default=0) + 1
        while True:
            # (a best-response search writes its tuned config beside its file, as NAME.toml)
            tail = "-setup" if kind == "best-response" else ""
            setup = RUNS_FOLDER / f"{kind}-{number}{tail}.toml"
            output = RUNS_FOLDER / f"{kind}-{number}.json"
            if not any((self.root / p).exists() for p in (setup, output,
                                                          output.with_suffix(".toml"))):
                return setup, output
            number += 1

    # --- what the page shows -----------------------------------------------------------------
    def run_view(self, run) -> dict:
        view = {"id": run.id, "kind": run.kind, "label": run.label, "state": run.state,
                "line": run.line, "games": run.games, "seed": run.seed, "setup": str(run.setup),
                "output": str(run.output), "played": 0, "tables": [], "verdict": None,
                "grid": None}
        if run.vary:
            return dict(view, **self.sweep_view(run))
        if run.tune:
            return dict(view, **self.search_view(run))
        if run.result is None:
            return view
        played = run.result.games_played
        cached = self._views.get(run.id)
        if cached and cached[0] == (played, run.state):
            return dict(view, **cached[1])
        summary = summarize(run.result)
        tables = []
        for group, title in headline.RATE_TABLES.items():
            rows = summary.shown_rows(group)
            if rows:
                tables.append({"group": group, "title": title, "rows": [
                    {"name": r.name, "rate": r.rate.value, "low": r.rate.low,
                     "high": r.rate.high, "wins": r.rate.successes, "games": r.rate.trials}
                    for r in rows]})
        judged = summary.judgement
        extra = {"played": played, "tables": tables,
                 "verdict": {"status": judged.status if judged else "",
                             "headline": judged.headline if judged else "",
                             "sentence": summary.verdict,
                             "more": judged.games_more if judged else None}}
        self._views[run.id] = ((played, run.state), extra)
        return dict(view, **extra)

    def sweep_view(self, run) -> dict:
        """A sweep's grid: each cell's balance measure (the first team's share of decided games,
        or seat 0's) with its interval and verdict, for the page's line chart or heat map."""
        if run.sweep is None:
            return {"vary": run.vary}
        key = (sum(c.status != "pending" for c in run.sweep.cells), run.state)
        cached = self._views.get(run.id)
        if cached and cached[0] == key:
            return cached[1]
        from reports.numbers import sweep_numbers

        numbers = sweep_numbers(run.sweep)
        cells = [{"labels": c["labels"], "status": c["status"], "error": c["error"],
                  "label": c["label"],
                  "balance": {k: c["measures"]["balance"][k] for k in
                              ("rate", "low", "high", "target", "verdict")}
                  if c["measures"] else None} for c in numbers["cells"]]
        finished = sum(c["status"] != "pending" for c in cells)
        extra = {"vary": run.vary, "played": finished, "cells_total": len(cells),
                 "grid": {"axes": [{"key": a.key, "labels": [a.level_label(v) for v in a.values]}
                                   for a in run.sweep.axes],
                          "varied": numbers["varied"], "cells": cells,
                          "who": numbers["balance_who"], "summary": numbers["summary"]
                          if finished else ""}}
        self._views[run.id] = (key, extra)
        return extra

    @staticmethod
    def search_view(run) -> dict:
        """A best-response search: every candidate's win rate on the search's games, the best so
        far, and once it is done the gain measured again on fresh games with its interval."""
        search = run.search or {}
        records = search.get("searched", [])
        complete = [r for r in records if r["state"] == "complete"]
        best = max(complete, key=lambda r: r["value"], default=None)
        confirm = search.get("confirm")
        return {"played": len(records), "trials": run.tune.get("trials"),
                "search": {"who": run.tune.get("team") or run.tune.get("role"),
                           "candidates": [{"value": r["value"], "state": r["state"],
                                           "params": r["params"],
                                           "stage": r.get("stage", "sampler"),
                                           "strategy": r.get("strategy")} for r in records],
                           "best": best, "confirm": confirm, "set": search.get("set", []),
                           "strategy": search.get("strategy", "")}}

    def difference_view(self, reference, run) -> list[str]:
        """What moved from the pinned run to this one: each headline difference whose interval
        excludes zero after Holm, else the largest one, as a sentence with its interval."""
        if reference is None or reference.result is None or run.result is None or \
                reference.id == run.id:  # a sweep is no reference, nor compared with one
            return []
        if reference.result.game.name != run.result.game.name:
            return [f"another game than the reference ({reference.result.game.name})"]
        if not reference.result.games_played or not run.result.games_played:
            return []
        try:
            comparison = compare.compare(reference.result, run.result)
        except compare.CompareError as exc:
            return [str(exc)]
        group = "team" if run.result.game.team_game else "role"
        chosen = [d for d in comparison.differences if d.group == group]
        if group == "team" and len(run.result.game.teams) == 2:
            chosen = chosen[:1]  # the other team's difference is its mirror image
        shown = [d for d in chosen if d.significant(1 - comparison.confidence)] or \
            sorted(chosen, key=lambda d: -abs(d.diff))[:1]
        subject = compare.change_phrase(comparison).replace("Going from A to B",
                                                            f"From run {reference.id} to "
                                                            f"run {run.id}")
        return [compare.difference_sentence(comparison, d, subject) for d in shown]

    def state_of(self, session: str) -> dict:
        runs = self.runs.of_session(session)
        reference = self.runs.runs.get(self.references.get(session, -1))
        views = []
        for run in runs:
            view = self.run_view(run)
            view["differences"] = self.difference_view(reference, run)
            view["reference"] = reference is not None and reference.id == run.id
            views.append(view)
        return {"runs": views[::-1], "reference": reference.id if reference else None}


# --- requests ------------------------------------------------------------------------------------
def _templates() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.PackageLoader("simulator.serve", "templates"),
                              autoescape=True)


async def _json(request: Request) -> dict:
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise Refused("send JSON (Content-Type: application/json)", 415)
    try:
        body = json.loads(await request.body())
    except ValueError:
        raise Refused("not valid JSON") from None
    if not isinstance(body, dict):
        raise Refused("send a JSON object")
    return body


def _session(value) -> str:
    if not isinstance(value, str) or not re.fullmatch(r"[A-Za-z0-9_-]{8,64}", value):
        raise Refused("a page session is 8 to 64 letters, digits, - or _")
    return value


def _whole_number(text: str, high: int):
    """The whole number a person types for a count ("100000", "100,000", "1e6", "2.5e6"), or
    `text` itself where it is none. ASCII digits only ("²" is a digit to str.isdigit, not to
    int), and never more digits than the bound has (Python refuses to convert a very long
    one)."""
    plain = re.sub(r"(?<=[0-9])[,_](?=[0-9]{3})", "", text.strip())
    found = re.fullmatch(r"([0-9]+)(?:\.([0-9]+))?(?:[eE]\+?([0-9]{1,2}))?", plain)
    if not found or len(found[1]) > len(str(high)):
        return text
    digits, decimals, exponent = found[1], (found[2] or "").rstrip("0"), int(found[3] or 0)
    if len(decimals) > exponent or len(digits) + exponent > len(str(high)) + 1:
        return text  # not whole, or past any bound
    return int(digits + decimals + "0" * (exponent - len(decimals)))


def _integer(body: dict, key: str, low: int, high: int, default: int) -> int:
    value = body.get(key, default)
    if isinstance(value, str):
        value = _whole_number(value, high)
    elif isinstance(value, float) and value.is_integer() and abs(value) <= high:
        value = int(value)  # JSON's 1e6
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise Refused(f"{key} must be an integer from {low:,} to {high:,}", key=key)
    return value


def _setup_of(bench: Workbench, body: dict) -> tuple[setups.Setup, str]:
    game, base, sent = body.get("game"), body.get("base"), body.get("fields", {})
    if not isinstance(game, str) or not isinstance(base, str) or not isinstance(sent, dict):
        raise Refused("a setup names its game, its built-in config and its fields")
    source = str(body.get("name") or "setup.toml")
    if "\x00" in source or len(source) > MAX_NAME:
        raise Refused(f"a file name has at most {MAX_NAME} characters and no NUL", key="name")
    try:
        setup = setups.read_page(game, base, sent, source)
        setups.check(setup, source, bench.root)
    except ConfigError as exc:  # the page's own setup is no file: its errors name the field
        if exc.file != source:
            raise
        raise ConfigError("", exc.key, exc.message) from None
    return setup, source


def create_app(root: Path, runs: Runs | None = None, token: str | None = None,
               loopback: bool = True) -> Starlette:
    """The workbench on `root`. With `token`, every request must carry it; on loopback (no
    token), every request must name a loopback host."""
    root = Path(root).resolve()
    bench = Workbench(root, runs or Runs(root))
    pages = _templates()

    def refused(exc: Refused) -> JSONResponse:
        return JSONResponse({"error": fileio.one_line(exc.line), "key": exc.key},
                            status_code=exc.status)

    def handles(function):
        async def endpoint(request: Request):
            try:
                return await function(request)
            except Refused as exc:
                return refused(exc)
            except ConfigError as exc:
                return JSONResponse({"error": fileio.one_line(str(exc)), "key": exc.key},
                                    status_code=400)
        return endpoint

    def handles_page(function):
        """`handles` for a page opened in its own tab (a report, a game step by step): a
        refusal is a short page with its one line, not JSON shown as the page."""
        async def endpoint(request: Request):
            try:
                return await function(request)
            except Refused as exc:
                line = html.escape(fileio.one_line(exc.line))
                return HTMLResponse(f'<!doctype html><meta charset="utf-8"><title>fairplay: '
                                    f'not shown</title><p class="error">{line}</p><p><a '
                                    f'href="/">The workbench</a></p>', status_code=exc.status)
        return endpoint

    async def index(request: Request):
        page = pages.get_template("workbench.html.j2").render(
            catalogue=setups.catalogue(), root=str(root), cores=bench.runs.workers)
        return HTMLResponse(page)

    @handles
    async def setup(request: Request):
        game, base = request.query_params.get("game", ""), request.query_params.get("base", "")
        if game not in game_names():
            raise Refused(f"unknown game {game!r}", 404, key="game")
        fields = await anyio.to_thread.run_sync(setups.field_dicts, game, base)
        spec = get_game(game)
        return JSONResponse({"fields": fields, "strategies": setups.strategy_catalogue(game),
                             "teams": list(spec.teams), "roles": spec.role_names()})

    @handles
    async def check(request: Request):
        body = await _json(request)
        try:
            setup, _ = await anyio.to_thread.run_sync(_setup_of, bench, body)
        except ConfigError as exc:  # the answer to "is this setup valid?": no, and why
            return JSONResponse({"ok": False, "error": fileio.one_line(str(exc)),
                                 "key": exc.key})
        return JSONResponse({"ok": True, "toml": setup.toml(), "label": setup.label()})

    @handles
    async def save(request: Request):
        body = await _json(request)
        path = bench.inside(body.get("name", ""), ".toml")
        setup, _ = await anyio.to_thread.run_sync(_setup_of, bench, body)
        if path.exists() and not body.get("force"):
            raise Refused(f"{path.relative_to(root)} exists; tick replace to overwrite it",
                          409, key="name")
        fileio.write_atomically(path, setup.toml())
        return JSONResponse({"saved": str(path.relative_to(root)), "toml": setup.toml()})

    def asked(body: dict, default_games: int) -> tuple[str, int, int]:
        """What every start names: the page's session, the games and the seed."""
        return (_session(body.get("session")),
                _integer(body, "games", 1, MAX_GAMES, default_games),
                _integer(body, "seed", 0, 2**63 - 1, 0))

    def launch(wanted: tuple, setup: setups.Setup, kind: str, label: str,
               **options) -> JSONResponse:
        """Write the setup under results/serve/ and start its run, sweep or search there."""
        session, games, seed = wanted
        setup_path, output = bench.next_run_paths(kind)
        (root / RUNS_FOLDER).mkdir(parents=True, exist_ok=True)
        fileio.write_atomically(root / setup_path, setup.toml(setup_path.parent))
        run = bench.runs.start(session, label, setup_path, output, games, seed,
                               setup.changed_keys(), **options)
        return JSONResponse({"id": run.id, "setup": str(setup_path), "output": str(output)})

    @handles
    async def start_run(request: Request):
        body = await _json(request)
        wanted = asked(body, 100_000)
        setup, _ = await anyio.to_thread.run_sync(_setup_of, bench, body)
        return launch(wanted, setup, "run", setup.label())

    @handles
    async def start_sweep(request: Request):
        body = await _json(request)
        wanted = asked(body, 100_000)
        given = body.get("vary", [])
        vary = [text.strip() for text in given if isinstance(text, str)
                and text.strip()] if isinstance(given, list) else []
        if not vary or len(vary) > 2:
            raise Refused("a sweep varies one or two keys (KEY=a..b or KEY=x,y,z)", key="vary")
        try:
            axes = [sweeps.parse_vary(text) for text in vary]
            sweeps.check_axes(axes)
        except sweeps.SweepError as exc:
            raise Refused(str(exc), key="vary") from None
        cells = 1
        for axis in axes:
            cells *= len(axis.values)
        if cells > MAX_SWEEP_CELLS:
            raise Refused(f"{cells} cells; the page sweeps at most {MAX_SWEEP_CELLS} (fairplay "
                          f"sweep has no such limit)", key="vary")
        setup, _ = await anyio.to_thread.run_sync(_setup_of, bench, body)
        return launch(wanted, setup, "sweep", f"{setup.label()} × {' × '.join(vary)}",
                      vary=vary)

    @handles
    async def start_search(request: Request):
        body = await _json(request)
        wanted = asked(body, 20_000)
        trials = _integer(body, "trials", 1, 1000, 20)
        who = body.get("who", "")
        setup, source = await anyio.to_thread.run_sync(_setup_of, bench, body)
        game = get_game(setup.game)
        kind, _, name = who.partition(":") if isinstance(who, str) else ("", "", "")
        if not ((kind == "team" and name in game.teams) or
                (kind == "role" and name in game.role_names())):
            raise Refused(f"tune a team or a role of {game.name}", key="who")
        tune = {kind: name, "trials": trials}

        def check_space():  # nothing to tune is said now, not after the process starts
            from simulator.studies import best_response

            try:
                best_response.check_counts(wanted[1], None, None)
            except best_response.BestResponseError as exc:
                raise Refused(str(exc), key="games") from None
            cfg = config_module.resolve(setup.raw(), source, root, config_module.DATA_ONLY)
            try:
                best_response.search_space(cfg, **{kind: name})
            except best_response.BestResponseError as exc:
                raise Refused(str(exc), key="who") from None

        await anyio.to_thread.run_sync(check_space)
        return launch(wanted, setup, "best-response",
                      f"{setup.label()}: best response of {name}", tune=tune)

    def _run(request: Request, session: str | None = None):
        try:
            number = int(request.path_params["number"])
        except ValueError:
            raise Refused("no such run", 404) from None
        run = bench.runs.runs.get(number)
        if run is None or (session is not None and run.session != session):
            raise Refused("no such run", 404)
        return run

    @handles
    async def stop_run(request: Request):
        body = await _json(request)
        run = _run(request, _session(body.get("session")))
        bench.runs.stop(run.id)
        return JSONResponse({"id": run.id, "state": run.state})

    @handles
    async def resume_run(request: Request):
        body = await _json(request)
        run = _run(request, _session(body.get("session")))
        if run.state != "stopped":
            raise Refused(f"only a stopped run continues (this one is {run.state})", 409)
        bench.runs.resume(run)
        return JSONResponse({"id": run.id, "state": run.state})

    @handles
    async def pin(request: Request):
        body = await _json(request)
        session = _session(body.get("session"))
        run = _run(request, session)
        if bench.references.get(session) == run.id:
            bench.references.pop(session)
        else:
            bench.references[session] = run.id
        bench.runs.touch()
        return JSONResponse({"reference": bench.references.get(session)})

    @handles_page
    async def report(request: Request):
        run = _run(request)
        if run.tune:
            raise Refused(f"a best-response search has no report: its file is {run.output} "
                          f"(fairplay best-response prints it)", 409)
        from reports import render  # matplotlib: only when a report is asked for

        if run.vary:
            if run.sweep is None or not run.sweep.valid_cells:
                raise Refused("this sweep has finished no cell yet", 409)
            text = await anyio.to_thread.run_sync(render.render_sweep_report, run.sweep)
            return HTMLResponse(text)
        if run.result is None or not run.result.games_played:
            raise Refused("this run has played no game yet", 409)
        text = await anyio.to_thread.run_sync(
            lambda: render.render_run_report(run.result, origin=str(run.output)))
        return HTMLResponse(text)

    @handles_page
    async def trace(request: Request):
        run = _run(request)
        if run.result is None:
            raise Refused("a run's games can be stepped through (a sweep's cells are runs: "
                          "fairplay trace plays any of them)", 409)
        game = _integer(dict(request.query_params), "game", 0, run.games - 1, 0)
        private = request.query_params.get("private") == "1"

        def lines():
            cfg = chunks.config_of(run.result)
            return runner.trace_game_with_tables(cfg, run.seed, game,
                                                 run.result.data["chunk_size"], private=private)

        found, tables = await anyio.to_thread.run_sync(lines)
        # the table changes only at some rows: each distinct one is sent once
        distinct: dict[str, int] = {}
        for table in tables:
            distinct.setdefault(json.dumps(table), len(distinct))
        page = pages.get_template("trace.html.j2").render(
            run=run, game=game, lines=found, games=run.games, private=private,
            marked=[is_private_line(line) for line in found],
            tables=[json.loads(text) for text in distinct],
            table_of_line=[distinct[json.dumps(table)] for table in tables],
            drawn=any(seat["role"] or seat["out"] or seat["front"] or seat["learned"]
                      for table in tables for seat in table))
        return HTMLResponse(page)

    async def events(request: Request):
        try:
            session = _session(request.query_params.get("session"))
        except Refused as exc:
            return refused(exc)
        bench.runs.page_opened(session)

        async def stream():
            version = -1
            try:
                while not bench.runs.closed and not bench.runs.closing:
                    new = await anyio.to_thread.run_sync(bench.runs.wait_for_change, version, 1.0)
                    if await request.is_disconnected():
                        break
                    if new == version:
                        yield ": still here\n\n"
                        continue
                    version = new
                    state = await anyio.to_thread.run_sync(bench.state_of, session)
                    yield f"data: {json.dumps(state)}\n\n"
                if bench.runs.closing or bench.runs.closed:  # the page says the server is gone
                    yield "event: closing\ndata: {}\n\n"
            finally:
                bench.runs.page_closed(session)

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache"})

    routes = [
        Route("/", index),
        Route("/api/setup", setup),
        Route("/api/check", check, methods=["POST"]),
        Route("/api/save", save, methods=["POST"]),
        Route("/api/runs", start_run, methods=["POST"]),
        Route("/api/sweeps", start_sweep, methods=["POST"]),
        Route("/api/best-response", start_search, methods=["POST"]),
        Route("/api/runs/{number}/stop", stop_run, methods=["POST"]),
        Route("/api/runs/{number}/resume", resume_run, methods=["POST"]),
        Route("/api/runs/{number}/pin", pin, methods=["POST"]),
        Route("/api/events", events),
        Route("/runs/{number}/report", report),
        Route("/runs/{number}/trace", trace),
    ]
    middleware = [] if token else [Middleware(TrustedHostMiddleware,
                                              allowed_hosts=list(LOOPBACK_NAMES))]

    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        await anyio.to_thread.run_sync(bench.runs.close)  # every run stopped and saved

    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan)
    app.state.bench = bench
    return TokenGate(app, token) if token else app


class TokenGate:
    """Every request must carry the server's token: `?token=` (which then sets a cookie, so the
    page's own requests carry it) or that cookie."""

    def __init__(self, app, token: str):
        self.app, self.token = app, token
        self.state = getattr(app, "state", None)

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        request = Request(scope)
        given = request.query_params.get("token")
        cookie = request.cookies.get(TOKEN_COOKIE, "")
        if given is not None and secrets.compare_digest(given, self.token):
            async def with_cookie(message):
                if message["type"] == "http.response.start":
                    message.setdefault("headers", [])
                    message["headers"] = list(message["headers"]) + [
                        (b"set-cookie", f"{TOKEN_COOKIE}={self.token}; HttpOnly; "
                                        f"SameSite=Strict; Path=/".encode())]
                await send(message)
            return await self.app(scope, receive, with_cookie)
        if cookie and secrets.compare_digest(cookie, self.token):
            return await self.app(scope, receive, send)
        response = Response("this fairplay serve needs the token it printed at start "
                            "(?token=...)\n", status_code=401, media_type="text/plain")
        await response(scope, receive, send)
