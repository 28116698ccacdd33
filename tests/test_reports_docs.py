"""docs/reports.md stays true to the reports: its screenshots exist (each report kind at a
phone's and a desktop's width), are real PNGs of those widths, stay small, and come from the
script that regenerates them; the commands it documents exist."""

import re
import struct
from pathlib import Path

from click.testing import CliRunner

from simulator.cli import main

DOCS = Path(__file__).resolve().parent.parent / "docs"
KINDS = ("run", "individual", "sweep", "sweep-2d", "compare")


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", path
    return struct.unpack(">II", head[16:24])


def test_reports_doc_shows_each_kind_at_both_widths():
    text = (DOCS / "reports.md").read_text(encoding="utf-8")
    images = re.findall(r"!\[[^\]]+\]\((images/[^)]+\.png)\)", text)
    expected = [f"images/report-{kind}-{width}.png" for kind in KINDS for width in (390, 1280)]
    assert sorted(images) == sorted(expected)
    total = 0
    for image in images:
        path = DOCS / image
        width, height = png_size(path)
        assert width == int(image.rsplit("-", 1)[1][:-4]), image
        assert height <= 900, image  # the first screen, not the whole page
        total += path.stat().st_size
    assert total < 600_000, f"{total:,} bytes of screenshots"
    script = (DOCS / "screenshots.py").read_text(encoding="utf-8")
    assert "python docs/screenshots.py" in text and "--screenshot" in script
    for kind in KINDS:
        assert f'"{kind}"' in script


def test_documented_commands_exist():
    for command in (["export", "--help"], ["report", "--help"]):
        result = CliRunner().invoke(main, command)
        assert result.exit_code == 0, result.output
    assert "--csv DIR" in CliRunner().invoke(main, ["export", "--help"]).output
    assert "--cell K" in CliRunner().invoke(main, ["report", "--help"]).output
    readme = (DOCS.parent / "README.md").read_text(encoding="utf-8")
    assert "fairplay export sweep.json --csv tables/" in readme
