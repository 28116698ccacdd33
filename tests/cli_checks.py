"""Helpers for tests of the command line: run it in-process, and check a fault's one line."""

from click.testing import CliRunner

from simulator.cli import main


def run_cli(*args):
    """`fairplay ARGS` in this process (arguments may be paths or numbers)."""
    return CliRunner().invoke(main, [str(arg) for arg in args], catch_exceptions=False)


def one_line_error(result, *fragments, exit_code=2) -> str:
    """The single line a fault prints on stderr (no traceback, the given exit code), checked to
    contain every fragment."""
    assert result.exit_code == exit_code, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.output
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]
