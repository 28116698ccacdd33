"""docs/strategies.md's players' standard tables are regenerated from the saved figures, never
typed: the docs hold exactly what benchmarks/results/players-standard.json gives, and the
rewriting touches nothing but the marked blocks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simulator.games import get_game
from simulator.studies import standard_tables as tables
from simulator.studies.standard import EXPLOITABLE


REPO = Path(__file__).resolve().parents[1]  # the checkout's files (the package may be installed)


def test_the_docs_tables_are_what_the_saved_figures_give():
    games = tables.load(REPO / "benchmarks" / "results" / "players-standard.json")
    expected = tables.blocks(games, get_game)
    found = tables.found_blocks((REPO / "docs" / "strategies.md").read_text(encoding="utf-8"))
    assert set(found) == set(expected), "a game's block is missing from the docs or the figures"
    stale = [name for name in expected if found[name] != expected[name]]
    assert stale == [], ("docs/strategies.md differs from the saved figures in "
                         f"{stale}: run `python benchmarks/bench_players.py --render --write-docs`")


def target(name, gain, best=None, low=None):
    br = {"confirm": {"gain": gain, "low": gain - 0.005, "high": gain + 0.005,
                      "default_rate": 0.4, "best_rate": 0.4 + gain},
          "best": best if best is not None else {"x": 1.0}, "default": {"x": 0.5},
          "set": [], "strategy": "people", "best_strategy": "people"}
    beats = {"gain": 0.2, "low": 0.19 if low is None else low, "high": 0.21}
    return {"target": name, "beats_random": beats, "best_response": br}


def game_figures(gain):
    return {"game": "template", "strategy": "people", "command": "python bench",
            "setups": [{"config": "template/default.toml", "players": 4, "command": "python bench",
                        "targets": [target("seat 0", gain)]}]}


def test_the_summary_says_not_met_above_the_standard_and_met_at_or_below_it():
    above = tables.summary({"template": game_figures(EXPLOITABLE + 0.001)}, {})
    at = tables.summary({"template": game_figures(EXPLOITABLE)}, {})
    assert "**not met**: +2.1 (seat 0, default); 1 of 1 teams above" in above[-1]
    assert "| met: +2.0 (seat 0, default) |" in at[-1]
    # the default found best counts as no gain, whatever the confirmation's noise
    same = game_figures(0.01)
    br = same["setups"][0]["targets"][0]["best_response"]
    br["best"] = dict(br["default"])
    assert "met: +0.0" in tables.summary({"template": same}, {})[-1]
    assert "none (the default was the best found)" in "\n".join(tables.markdown(same))


def test_rewriting_touches_only_the_marked_blocks_and_is_idempotent():
    text = ("# Title\n\nprose before\n\n" + tables.BEGIN.format("summary") + "\nold table\n"
            + tables.END + "\n\nprose between\n\n" + tables.BEGIN.format("werewolf")
            + "\nold werewolf\n" + tables.END + "\n\nprose after\n")
    new = tables.rewrite(text, {"summary": "| new |\n|---|", "salem": "never placed"})
    assert new == text.replace("old table", "| new |\n|---|")
    assert tables.rewrite(new, {"summary": "| new |\n|---|"}) == new
    assert tables.found_blocks(new) == {"summary": "| new |\n|---|", "werewolf": "old werewolf"}


def test_saving_one_game_keeps_the_others_and_a_damaged_file_is_refused(tmp_path):
    path = tmp_path / "standard.json"
    tables.save([game_figures(0.01)], path)
    other = dict(game_figures(0.0), game="salem")
    tables.save([other], path)
    assert set(tables.load(path)) == {"salem", "template"}
    data = json.loads(path.read_text())
    del data["games"]["salem"]["setups"]
    path.write_text(json.dumps(data))
    with pytest.raises(tables.StandardFileError, match="do not match the checksum"):
        tables.load(path)  # edited by hand
    path.write_text(json.dumps(tables.STANDARD_FILE.seal(data)))
    with pytest.raises(tables.StandardFileError, match="corrupt players' standard file"):
        tables.load(path)  # written so by a faulty fairplay
    path.write_text(path.read_text()[:-20])
    with pytest.raises(tables.StandardFileError) as caught:
        tables.load(path)
    assert "\n" not in str(caught.value)
