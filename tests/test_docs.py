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
