"""The docs read the declarations: each game's rules document embeds its config keys table, as
`fairplay games <game> --keys-markdown` prints it."""

import re
from pathlib import Path

import pytest

from simulator import schema
from simulator.games import game_names, get_game

DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules"


@pytest.mark.parametrize("name", game_names())
def test_rules_document_lists_the_config_keys_as_declared(name):
    game = get_game(name)
    text = (DOCS / f"{game.name}.md").read_text(encoding="utf-8")
    block = re.search(rf"<!-- keys:{game.name} -->\n(.*?)\n<!-- /keys -->", text, re.S)
    assert block, f"docs/rules/{game.name}.md has no <!-- keys:{game.name} --> block"
    assert block.group(1).strip() == schema.markdown_table(game.config_keys)


@pytest.mark.parametrize("name", game_names())
def test_rules_document_names_the_provisional_rulings(name):
    game = get_game(name)
    text = (DOCS / f"{game.name}.md").read_text(encoding="utf-8").lower()
    if game.provisional:
        assert "provisional" in text


def _cited_tests(text: str):
    """(file, test) pairs a document cites: `test_x.py::test_y`, and `::test_z` for the file
    named last."""
    current = None
    for match in re.finditer(r"(test_\w+\.py)|::(test_\w+)", text):
        if match.group(1):
            current = match.group(1)
        elif current:
            yield current, match.group(2)


@pytest.mark.parametrize("document", sorted(p.name for p in DOCS.glob("*.md")))
def test_every_test_a_rules_document_cites_exists(document):
    tests = DOCS.parent.parent / "tests"
    text = (DOCS / document).read_text(encoding="utf-8")
    missing = []
    for file, name in _cited_tests(text):
        path = tests / file
        if not path.exists() or not re.search(rf"def {name}\b", path.read_text(encoding="utf-8")):
            missing.append(f"{file}::{name}")
    assert not missing, f"docs/rules/{document} cites tests that do not exist: {missing}"


@pytest.mark.parametrize("name", game_names())
def test_rules_document_gives_the_observation_size_as_declared(name):
    game = get_game(name)
    text = (DOCS / f"{game.name}.md").read_text(encoding="utf-8")
    for stated in re.findall(r"observation is a flat int64 vector of (\d+) entries", text):
        assert int(stated) == game.observation.size, f"docs/rules/{game.name}.md"


def _knobs_named(ruling: str, keys) -> list[str]:
    """The config keys a provisional ruling names as its knob: "(knob rules.x)", "(key x)",
    "knob rules.x = ...", or a key alone in parentheses, "(deck.ranks)"."""
    return [key.path for key in keys
            if re.search(rf"(\b(knob|key) |\(){re.escape(key.path)}(?![\w.])", ruling)]


@pytest.mark.parametrize("name", game_names())
def test_a_provisional_rulings_knob_is_flagged_provisional(name):
    # One source: the key's flag says it (`fairplay games`, the key tables); the rulings list
    # names the knob that changes the ruling.
    game = get_game(name)
    named = {path for ruling in game.provisional for path in _knobs_named(ruling, game.config_keys)}
    flagged = {key.path for key in game.config_keys if key.provisional}
    assert named <= flagged, sorted(named - flagged)
    assert all("provisional" not in key.meaning.lower() for key in game.config_keys), \
        "say it with Key(..., provisional=True)"


def test_the_knob_finder_reads_the_rulings_forms():
    keys = [schema.Key(path, schema.Boolean(), False, "") for path in
            ("rules.reward", "ghost_deck", "deck.ranks", "tryals", "deck")]
    assert _knobs_named("a pool (card data; knob rules.reward: a pool split)", keys) == \
        ["rules.reward"]
    assert _knobs_named("config data (key ghost_deck): by default", keys) == ["ghost_deck"]
    assert _knobs_named("24 cards, 6 ranks x 4 (deck.ranks)", keys) == ["deck.ranks"]
    assert _knobs_named("the tryals still deal evenly", keys) == []


# Paths of a working folder outside the project: a clone has none of them, so neither a game's
# source (`fairplay games`, the report's Setup section) nor a document may point there.
OUTSIDE = ("shared/" + "seeds", "shared/" + "rules")
ROOT = DOCS.parent.parent


@pytest.mark.parametrize("name", game_names())
def test_a_games_source_names_what_a_user_can_find(name):
    source = get_game(name).source
    assert not any(path in source for path in OUTSIDE), source
    if name != "template":
        assert f"docs/rules/{name}.md" in source and (ROOT / "docs" / "rules" /
                                                       f"{name}.md").is_file()


def test_no_document_or_module_points_outside_the_project():
    files = [path for folder in ("docs", "simulator", "tests", "configs", "strategies", "reports")
             for path in (ROOT / folder).rglob("*") if path.suffix in (".md", ".py", ".toml",
                                                                      ".txt", ".html", ".js")]
    files.append(ROOT / "README.md")
    found = [f"{path.relative_to(ROOT)}: {path_text}" for path in files
             for path_text in OUTSIDE if path_text in path.read_text(encoding="utf-8")]
    assert not found, found
