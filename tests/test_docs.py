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
