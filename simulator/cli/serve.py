"""The `fairplay serve` command: the workbench in the browser (simulator/serve/)."""

from __future__ import annotations

import ipaddress
import secrets
import socket
from pathlib import Path

import click

from simulator.cli.support import fail as _fail


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


@click.command(short_help="Start the workbench in the browser.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; any but loopback needs the token printed at start.")
@click.option("--port", type=int, default=8765, show_default=True,
              help="Port to listen on (0: any free port).")
@click.option("--workers", type=int, default=None,
              help="Worker processes of each run [default: all cores].")
def serve(host, port, workers):
    """Start the workbench in the browser: edit a setup, watch its win rates converge, compare
    runs. It serves the current folder only: setups are saved there and runs write to
    results/serve/. Ctrl-C stops it and every run (each saves what it played).

    \b
      fairplay serve                 # then open the address it prints
      fairplay serve --host 0.0.0.0  # reachable from other machines, with a token
    """
    import uvicorn

    from simulator.serve.app import create_app
    from simulator.serve.runs import Runs

    if workers is not None and workers < 1:
        _fail(f"--workers must be at least 1, got {workers}")
    if not 0 <= port <= 65535:
        _fail(f"--port must be from 0 to 65535, got {port}")
    loopback = is_loopback(host)
    token = None if loopback else secrets.token_urlsafe(24)
    family = socket.AF_INET6 if ":" in host.strip("[]") else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host.strip("[]"), port))
        listener.listen(128)  # connections wait from now on, before the address is printed
    except (OSError, ValueError, TypeError) as exc:  # a host that is no address: one line too
        listener.close()
        why = getattr(exc, "strerror", None) or exc
        _fail(f"cannot listen on {host}:{port}: {why}")
    root = Path.cwd()
    runs = Runs(root, workers)
    app = create_app(root, runs, token)
    shown = f"[{host.strip('[]')}]" if family == socket.AF_INET6 else host
    address = f"http://{shown}:{listener.getsockname()[1]}/" + (f"?token={token}" if token else "")
    click.echo(f"fairplay serve: {address}  (folder {root}; Ctrl-C stops it and every run)",
               err=True)
    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame):  # Ctrl-C, SIGTERM: the pages' streams end first
            runs.begin_close()
            super().handle_exit(sig, frame)

    server = Server(uvicorn.Config(app, log_level="warning", lifespan="on",
                                   timeout_graceful_shutdown=2))
    try:
        server.run(sockets=[listener])
    finally:
        runs.close()  # every run stopped and saved, even if the server failed
