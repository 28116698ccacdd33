"""Regenerate the screenshots of docs/reports.md: each kind of report at a phone's width (390 px)
and a desktop's (1280 px), the first screen of each.

    python docs/screenshots.py            # writes docs/images/report-<kind>-<width>.png

It plays small real runs (werewolf, Chenghuang; under a minute on two cores, more the first time,
while the kernels compile), writes their reports to a temporary folder, and photographs them with
headless Chromium (`chromium --headless --screenshot`, the browser that
tests/test_reports_browser.py drives). The PNGs are reduced to a 64-colour palette to keep them
small. The games' Chinese names need a CJK font on the machine (e.g. `apt-get install
fonts-wqy-microhei`), else they show as boxes.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from reports import render  # noqa: E402
from simulator.setup import config
from simulator.run import runner  # noqa: E402
from simulator.studies import sweep as sw  # noqa: E402

OUT = ROOT / "docs" / "images"
SCREENS = {390: 844, 1280: 800}  # width: height (a phone's first screen, a laptop's)
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def build_reports(folder: Path, workers: int | None) -> dict[str, Path]:
    """One report of each kind, from small real runs."""
    def run(spec, games, seed, overrides=(), players=None):
        cfg = config.load(spec, list(overrides), players)
        parts = ["fairplay", "run", spec] + (["--players", str(players)] if players else [])
        parts += ["-n", str(games), "--seed", str(seed)]
        for o in overrides:
            parts += ["--set", o]
        return runner.run(cfg, games, seed, workers=workers, command=" ".join(parts))

    base = run("werewolf", 20_000, 1)
    three = run("werewolf", 20_000, 2, ["roles.werewolf=3"])
    chenghuang = run("chenghuang", 5_000, 1, players=4)
    one_key = sw.run_sweep("werewolf", [sw.parse_vary("players=8..14")], 5_000, seed=1,
                           workers=workers, command="fairplay sweep werewolf --vary players=8..14 "
                                                    "-n 5000 --seed 1")
    two_keys = sw.run_sweep("werewolf", [sw.parse_vary("players=8..12"),
                                         sw.parse_vary("roles.werewolf=1..3")], 3_000, seed=1,
                            workers=workers,
                            command="fairplay sweep werewolf --vary players=8..12 "
                                    "--vary roles.werewolf=1..3 -n 3000 --seed 1")
    return {
        "run": render.write_run_report(base, folder / "run.html"),
        "individual": render.write_run_report(chenghuang, folder / "individual.html"),
        "sweep": render.write_sweep_report(one_key, folder / "sweep.html"),
        "sweep-2d": render.write_sweep_report(two_keys, folder / "sweep-2d.html"),
        "compare": render.write_compare_report(base, three, folder / "compare.html",
                                               labels=("two wolves", "three wolves")),
    }


def browser() -> str:
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    sys.exit("no Chromium on PATH (apt-get install -y chromium)")


def screenshot(executable: str, page: Path, width: int, height: int, out: Path) -> None:
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run([executable, "--headless", "--no-sandbox", "--disable-gpu",
                        "--hide-scrollbars", "--force-device-scale-factor=1",
                        f"--user-data-dir={profile}", f"--window-size={width},{height}",
                        f"--screenshot={out}", page.resolve().as_uri()],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       timeout=120)


def shrink(path: Path, colours: int = 64) -> None:
    """A palette PNG: text and flat charts lose nothing visible, the file a third of its size."""
    from PIL import Image

    with Image.open(path) as image:
        small = image.convert("RGB").quantize(colors=colours, method=Image.Quantize.MEDIANCUT)
    small.save(path, optimize=True)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="folder for the PNG files")
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args(argv)
    executable = browser()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        pages = build_reports(Path(tmp), args.workers)
        total = 0
        for kind, page in pages.items():
            for width, height in SCREENS.items():
                out = args.out / f"report-{kind}-{width}.png"
                screenshot(executable, page, width, height, out)
                shrink(out)
                total += out.stat().st_size
                print(f"{out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}: "
                      f"{out.stat().st_size / 1024:.0f} KB")
    print(f"{len(pages) * len(SCREENS)} screenshots, {total / 1024:.0f} KB in all")


if __name__ == "__main__":
    main()
