"""The one loader of versioned JSON files (simulator/setup/datafile.py): kind, version, fields, game and
tallies, each refused in one line that names what is wrong."""

from __future__ import annotations

import json

import pytest

from simulator.setup import datafile
from simulator.games import get_game
from simulator.studies.regression import BaselineError, load_baseline
from simulator.run.results import RESULT_FILE, ResultError
from simulator.studies.sweep import SWEEP_FILE, SweepError


def test_a_newer_version_is_refused_as_newer_and_an_older_one_with_its_remedy():
    with pytest.raises(ResultError, match="newer than this fairplay, which reads version 4; "
                                          "update fairplay"):
        RESULT_FILE.check({"schema": "fairplay.result", "schema_version": 5}, "r.json")
    with pytest.raises(ResultError, match="version 3 is not supported .this fairplay reads "
                                          "version 4; start a new run"):
        RESULT_FILE.check({"schema": "fairplay.result", "schema_version": 3}, "r.json")
    with pytest.raises(SweepError, match="reads version 2; start a new sweep"):
        SWEEP_FILE.check({"schema": "fairplay.sweep", "schema_version": 0}, "s.json")


def test_another_kind_of_file_is_named_as_such(tmp_path):
    path = tmp_path / "b.json"
    path.write_text(json.dumps(SWEEP_FILE.header()))
    with pytest.raises(BaselineError, match="this is a sweep file .from `fairplay sweep`., not "
                                            "a baselines file"):
        load_baseline(path)


def test_fields_get_their_defaults_and_wrong_types_are_named():
    data = {**RESULT_FILE.header(), "game": "werewolf", "config": {}, "source": "", "base_dir": "",
            "seed": 0, "games_requested": 1, "chunk_size": 1, "chunks_done": [], "tallies": {}}
    RESULT_FILE.check(data, "r.json", unsealed=True)  # as `--unchecked` reads it
    assert data["strategies"] == [] and data["checksum"] is None
    with pytest.raises(ResultError, match="corrupt result: seed must be an integer"):
        RESULT_FILE.check(dict(data, seed=True), "r.json", unsealed=True)
    with pytest.raises(ResultError, match="unknown game 'chess'"):
        RESULT_FILE.check(dict(data, game="chess"), "r.json", unsealed=True)


def test_a_checksummed_kind_is_checked_whole_before_its_fields():
    data = RESULT_FILE.seal({**RESULT_FILE.header(), "game": "werewolf", "command": "x"})
    with pytest.raises(ResultError, match="missing config"):  # the checksum fits: fields next
        RESULT_FILE.check(dict(data), "r.json")
    for edited in (dict(data, command="y"), dict(data, extra=1),
                   {k: v for k, v in data.items() if k != "command"},
                   {k: v for k, v in data.items() if k != "checksum"}):
        with pytest.raises(ResultError, match="do not match the checksum fairplay wrote"):
            RESULT_FILE.check(edited, "r.json")


def test_tallies_fit_the_game_and_only_counts_must_not_be_negative():
    game = get_game("werewolf")
    tallies = {name: array.tolist() for name, array in game.empty_tallies(9).items()}
    tallies["halves_contrast"] = [-4]  # a sum of differences: may be negative
    assert datafile.fit_tallies(game, tallies, 9, "result")["halves_contrast"][0] == -4
    with pytest.raises(datafile.Unfit, match="tally team_wins is negative"):
        datafile.fit_tallies(game, dict(tallies, team_wins=[-1] + tallies["team_wins"][1:]), 9,
                             "result")
    with pytest.raises(datafile.Unfit, match="has shape .*; a table of 8 players needs"):
        datafile.fit_tallies(game, tallies, 8, "result")
    with pytest.raises(datafile.Unfit, match="tallies spare are not werewolf's"):
        datafile.fit_tallies(game, dict(tallies, spare=[0]), 9, "result")
