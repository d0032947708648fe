"""End-to-end: every game's player guide (/rules) and /help, in English and Japanese, through the
twin's limits — paged with buttons to the last page, the start picture on the first, each page
in the reader's language (issue 14, "Rules for players")."""
from __future__ import annotations

import re

import pytest

from rules import registry

from .checks import assert_ephemeral, assert_every_message_within_limits
from .twin import message_text

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def _games() -> list[str]:
    return [g for g in registry.names() if g in ("squares", "logic_square", "maken", "art_of_war", "avalon")]


@pytest.mark.parametrize("locale", ["en-US", "ja"])
async def test_every_games_guide_pages_through_in_the_readers_language(table, twin, locale):
    alice = table.alice
    for game in _games():
        ix = await twin.slash(alice, "rules", game=game, locale=locale)
        assert_ephemeral(ix)
        assert twin.picture(ix.last, "start.png").format == "PNG", game
        pages = [message_text(ix.last)]
        page = 1
        while f"guide:{game}:{page}" in str(ix.last.get("components")) and page < 12:
            ix = await twin.click(alice, ix.last, f"guide:{game}:{page}", locale=locale)
            pages.append(message_text(ix.last))
            page += 1
        assert 4 <= len(pages) <= 9, (game, len(pages))
        for text in pages:
            assert text.strip()
            if locale == "ja":
                assert JAPANESE.search(text), (game, text[:200])
            else:
                assert not JAPANESE.search(text.replace("「", "")), (game, text[:200])
            # a player's guide, never developer documentation
            assert "docs/" not in text and "view format" not in text.lower() and "rules/" not in text
    ix = await twin.slash(alice, "help", locale=locale)
    assert_ephemeral(ix)
    assert ("/ルール" in ix.text and "/ヘルプ" in ix.text) if locale == "ja" else ("/rules" in ix.text and "/help" in ix.text)
    assert_every_message_within_limits(twin)
