"""/rules: a player's guide per game, paged with ◀ ▶, a start picture on the first page, in
the reader's language, and never developer documentation (issue 14, "Rules for players")."""
from __future__ import annotations

import io
import json
import re

import pytest
from PIL import Image

from cogs.guide import guide_pages
from data import i18n
from discord_fakes import component
from rules import registry

DEV_WORDS = ("docs/", ".md", "view(", "to_act", "legal_commands", "rules/")


def _text(message: dict) -> str:
    return json.dumps({k: v for k, v in message.items() if not k.startswith("_")}, ensure_ascii=False)


@pytest.mark.parametrize("game", registry.names())
@pytest.mark.parametrize("locale", ["en-US", "ja"])
async def test_rules_pages_through_the_guide_with_a_start_picture(env, game, locale):
    ix = await env.fake.slash(env.bot, env.alice, "rules", game=game, locale=locale)
    assert ix.ephemeral
    first = ix.last
    embed = first["embeds"][0]
    assert embed["image"]["url"] == "attachment://start.png"
    stored = env.fake.messages.get(int(first["id"]), first)
    picture = next(a for a in stored["attachments"] if a["filename"] == "start.png")
    Image.open(io.BytesIO(picture["_bytes"])).load()
    pages = guide_pages(game, i18n.locale_of(locale))
    seen = [embed["description"]]
    message = first
    for n in range(1, len(pages)):       # ▶ to the last page
        nxt = component(message, rf"^guide:{game}:{n}$")
        assert nxt is not None and not nxt.get("disabled"), (n, message["components"])
        message = (await env.fake.click(env.bot, env.alice, message, nxt["custom_id"], locale=locale)).last
        seen.append(message["embeds"][0]["description"])
    if pages:
        assert seen == [body for _, body in pages]
        back = component(message, rf"^guide:{game}:{max(len(pages) - 2, 0)}$")
        if len(pages) > 1:
            message = (await env.fake.click(env.bot, env.alice, message, back["custom_id"], locale=locale)).last
            assert message["embeds"][0]["description"] == pages[-2][1]
    for text in [_text(first), _text(message)]:
        assert not any(w in text for w in DEV_WORDS), text[:500]


@pytest.mark.parametrize("game", ["maken", "art_of_war", "avalon"])
def test_a_guide_has_the_same_pages_in_both_languages_and_reads_on_a_phone(game):
    en, ja = guide_pages(game, "en"), guide_pages(game, "ja")
    assert 4 <= len(en) == len(ja) <= 8
    for title, body in en + ja:
        assert len(title) <= 60 and len(body) <= 1500
    latin = re.compile(r"[A-Za-z]{4,}")
    for title, body in ja:
        outside = re.sub(r"`[^`]*`", "", title + body)
        words = [w for w in latin.findall(outside) if w not in ("KING", "GUARDIAN", "WIZARD", "SOLDIER")]
        assert len(words) <= 3, words      # notation lives in backticks; no English prose
