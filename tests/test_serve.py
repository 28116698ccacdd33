"""`fairplay serve`'s setup editor and its guards, through Starlette's test client (no game is
played here; tests/test_serve_runs.py and test_serve_browser.py run a real server).

The editor's fields come from each game's declared keys; a page's setup is the file it saves
(`extends` the built-in, the changed keys only) and is validated with the CLI's one-line message;
paths outside the server's folder are refused; a user strategy file is never imported to validate
a setup; on loopback the Host must be loopback, elsewhere the token printed at start is needed.
"""

from __future__ import annotations

import math

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from simulator.setup import config
from simulator import schema
from simulator.cli import main
from simulator.cli.serve import is_loopback
from simulator.games import game_names, get_game
from simulator.serve import setups
from simulator.serve.app import create_app

BASE = {"game": "werewolf", "base": "werewolf/base.toml"}


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(tmp_path), base_url="http://127.0.0.1") as client:
        yield client


def test_every_declared_key_of_every_game_is_a_field_with_its_type_and_meaning():
    for name in game_names(listed_only=True):
        game = get_game(name)
        base = config.builtin_configs(name)[0][0]
        fields = {f.key: f for f in setups.fields(name, base)}
        for key in game.config_keys:
            field = fields[key.path]
            assert field.describe == key.type.describe() and field.help == key.help
            assert field.provisional == key.provisional
            if isinstance(key.type, schema.Choice):
                assert field.kind == "choice" and len(field.options) == len(key.type.options)
        for level in ["all", *game.teams, *game.role_names()]:
            assert fields[f"strategies.{level}"].options == list(game.strategies())
    provisional = [f for f in setups.fields("ghostplay", "ghostplay/default.toml")
                   if f.provisional]
    assert provisional, "ghostplay declares provisional rulings: the editor marks them"


def test_a_field_shows_the_built_in_value_and_reads_back_to_it():
    """Unchanged fields are no change: the built-in config's own values survive the round
    trip through their text (every game, every built-in config)."""
    for name in game_names(listed_only=True):
        for base, _ in config.builtin_configs(name):
            sent = {f.key: f.value for f in setups.fields(name, base)}
            setup = setups.read_page(name, base, sent, "setup.toml")
            assert setup.changes == [], (base, setup.changes)


@pytest.mark.parametrize("value", [0, 3, -2, 0.25, 1e-9, True, False, "auto", 'say "hi"', [1, 2],
                                   {"8": 2, "16": 3}, {"name": "people", "trust": 0.5}, math.inf])
def test_a_value_s_text_is_what_set_reads_back(value):
    assert config.parse_override(f"k={setups.toml_value(value)}", "")[1] == value


def test_the_saved_file_extends_the_built_in_with_only_the_changed_keys(client, tmp_path):
    fields = {"roles.werewolf": "3", "strategies.wolf": "people", "strategies.wolf.trust": "0.5",
              "players": "9"}  # players is the built-in's own value: not a change
    answer = client.post("/api/save", json={**BASE, "fields": fields, "name": "mine.toml"})
    assert answer.status_code == 200, answer.text
    text = (tmp_path / "mine.toml").read_text(encoding="utf-8")
    assert 'extends = "werewolf/base.toml"' in text
    assert "roles.werewolf = 3" in text and "players" not in text
    assert 'strategies.wolf = { name = "people", trust = 0.5 }' in text
    cfg = config.load(str(tmp_path / "mine.toml"))
    page = setups.read_page("werewolf", "werewolf/base.toml", fields, "mine.toml")
    assert cfg.raw == page.raw()
    # nothing is replaced without asking
    again = client.post("/api/save", json={**BASE, "fields": {}, "name": "mine.toml"})
    assert again.status_code == 409 and again.json()["key"] == "name"
    assert "roles.werewolf = 3" in (tmp_path / "mine.toml").read_text(encoding="utf-8")
    forced = client.post("/api/save", json={**BASE, "fields": {}, "name": "mine.toml",
                                            "force": True})
    assert forced.status_code == 200
    assert "roles.werewolf" not in (tmp_path / "mine.toml").read_text(encoding="utf-8")


def test_a_bad_value_is_refused_with_the_cli_s_line_naming_its_field(client, tmp_path):
    answer = client.post("/api/check", json={**BASE, "fields": {"roles.werewolf": "99"},
                                             "name": "mine.toml"})
    assert answer.status_code == 200 and not answer.json()["ok"]
    assert answer.json()["key"] == "roles.werewolf"
    (tmp_path / "mine.toml").write_text('extends = "werewolf/base.toml"\nroles.werewolf = 99\n')
    cli = CliRunner().invoke(main, ["run", str(tmp_path / "mine.toml"), "-n", "10"])
    assert cli.exit_code == 2
    # the page's setup is no file: its error names the field, the command line's the file too
    assert answer.json()["error"].startswith("roles.werewolf: ")
    assert cli.output.strip().endswith(f"mine.toml: {answer.json()['error']}")
    param = client.post("/api/check", json={**BASE, "fields": {
        "strategies.wolf": "people", "strategies.wolf.trust": "7"}})
    assert param.json()["key"] == "strategies.wolf.trust"


@pytest.mark.parametrize("name", ["../outside.toml", "/tmp/absolute.toml", "sub/../../x.toml",
                                  "notes.txt", ""])
def test_a_file_outside_the_folder_or_not_toml_is_refused(client, tmp_path, name):
    answer = client.post("/api/save", json={**BASE, "fields": {}, "name": name})
    assert answer.status_code in (400, 403) and answer.json()["key"] == "name"
    assert not (tmp_path.parent / "outside.toml").exists()


MARKING = """
import pathlib
pathlib.Path(__file__).with_name("IMPORTED").write_text("ran")
def fn(obs, legal, memory, params, rng):
    return 0
"""


def test_a_strategy_file_is_never_imported_to_check_a_setup_and_never_outside(client, tmp_path):
    (tmp_path / "mine.py").write_text(MARKING)
    inside = client.post("/api/check", json={**BASE, "fields": {"strategies.all": "mine.py:fn"}})
    assert inside.json()["ok"], inside.text
    assert not (tmp_path / "IMPORTED").exists()
    outside = client.post("/api/check", json={**BASE, "fields": {
        "strategies.wolf": "../elsewhere.py:fn"}})
    assert not outside.json()["ok"] and outside.json()["key"] == "strategies.wolf"
    assert "outside the folder" in outside.json()["error"]


def test_on_loopback_a_request_must_name_a_loopback_host(tmp_path):
    with TestClient(create_app(tmp_path), base_url="http://attacker.example") as client:
        assert client.get("/").status_code == 400
    with TestClient(create_app(tmp_path), base_url="http://localhost") as client:
        assert client.get("/").status_code == 200


def test_elsewhere_every_request_needs_the_token(tmp_path):
    with TestClient(create_app(tmp_path, token="s3cret-token"), base_url="http://10.0.0.5") as c:
        assert c.get("/").status_code == 401
        assert c.get("/?token=wrong").status_code == 401
        assert c.get("/api/setup", params=BASE).status_code == 401
        assert c.get("/?token=s3cret-token").status_code == 200  # sets the cookie
        assert c.get("/api/setup", params=BASE).status_code == 200
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.2")


def test_an_unknown_game_or_config_is_refused_in_one_line(client):
    assert client.get("/api/setup", params={"game": "chess", "base": "x"}).status_code == 404
    answer = client.get("/api/setup", params={"game": "werewolf", "base": "../../etc/passwd"})
    assert answer.status_code == 400 and "not a built-in config" in answer.json()["error"]


def test_a_post_must_be_json_and_a_session_well_formed(client):
    assert client.post("/api/check", content="game=werewolf").status_code == 415
    answer = client.post("/api/runs", json={**BASE, "session": "../../x", "games": 10})
    assert answer.status_code == 400
    assert client.post("/api/runs/99/stop", json={"session": "abcdefgh"}).status_code == 404


@pytest.mark.parametrize("vary", [[], ["players"], ["a=1", "b=2", "c=3"], ["players=1..999"]])
def test_a_sweep_that_cannot_be_drawn_is_refused_at_its_field(client, vary):
    answer = client.post("/api/sweeps", json={**BASE, "session": "abcdefgh", "games": 10,
                                              "vary": vary})
    assert answer.status_code == 400 and answer.json()["key"] == "vary", answer.text


@pytest.mark.parametrize("who, fragment", [("team:nobody", "tune a team or a role"),
                                            ("team:wolf", "nothing to tune")])  # random wolves
def test_a_search_with_nothing_to_tune_is_refused_before_it_starts(client, who, fragment):
    answer = client.post("/api/best-response", json={**BASE, "base": "werewolf/base-random.toml",
                                                     "session": "abcdefgh",
                                                     "games": 100, "who": who})
    assert answer.status_code == 400 and answer.json()["key"] == "who"
    assert fragment in answer.json()["error"]


def test_a_search_too_small_to_measure_is_refused_at_its_games_field(client):
    answer = client.post("/api/best-response", json={**BASE, "session": "abcdefgh",
                                                     "games": 3, "who": "team:wolf"})
    assert answer.status_code == 400 and answer.json()["key"] == "games"
    assert "-n must be at least 100" in answer.json()["error"]


@pytest.mark.parametrize("endpoint", ["/api/runs", "/api/save", "/api/check"])
@pytest.mark.parametrize("name", ["x" * 5000 + ".toml", "a\x00b.toml"])
def test_a_file_name_too_long_or_with_a_nul_is_a_400_at_its_field(client, endpoint, name):
    answer = client.post(endpoint, json={**BASE, "session": "abcdefgh", "games": 10,
                                         "name": name})
    assert answer.status_code == 400 and answer.json()["key"] == "name", answer.text


def test_a_number_of_more_digits_than_python_converts_is_a_400(client):
    """200,000 digits: past Python's int-conversion limit, refused before converting."""
    answer = client.post("/api/runs", json={**BASE, "session": "abcdefgh",
                                            "games": "1" * 200_000})
    assert answer.status_code == 400 and answer.json()["key"] == "games"


def test_the_page_offers_every_listed_game_and_its_configs(client):
    # each game under its own name, as `fairplay games` lists it
    assert all(entry["title"] == get_game(entry["game"]).title for entry in setups.catalogue())
    page = client.get("/").text
    for entry in setups.catalogue():
        assert f'"{entry["game"]}"' in page
        for base in entry["configs"]:
            assert base["name"] in page


def test_serve_refuses_bad_options_in_one_line():
    for args in (["--port", "70000"], ["--workers", "0"]):
        result = CliRunner().invoke(main, ["serve", *args])
        assert result.exit_code == 2 and result.output.startswith("fairplay: error:")


def test_counts_are_read_as_people_type_them():
    """Games and seed as a designer types them ("1e6", "100,000"); anything not a whole number
    in range is refused at its field."""
    from simulator.serve.app import Refused, _integer

    for typed, read in (("1e6", 1_000_000), ("2.5e6", 2_500_000), ("100,000", 100_000),
                        ("12_000", 12_000), (" 42 ", 42), (1e6, 1_000_000), (7, 7)):
        assert _integer({"games": typed}, "games", 1, 10**9, 0) == read, typed
    for typed in ("1.5", "1e-3", "1e99", "²", "1,00", "ten", 2.5, True, "1" * 200_000):
        with pytest.raises(Refused, match="games must be an integer"):
            _integer({"games": typed}, "games", 1, 10**9, 0)


def test_a_page_of_its_own_tab_refuses_as_a_page(client):
    """A report or a game step by step opened in a tab of its own: a bad run or game number is a
    short page saying why, not JSON shown as the page."""
    for path in ("/runs/99/trace?game=3", "/runs/99/report"):
        answer = client.get(path)
        assert answer.status_code == 404 and answer.headers["content-type"].startswith(
            "text/html")
        assert '<p class="error">' in answer.text and 'href="/"' in answer.text
