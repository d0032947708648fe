"""The league and card messages as Components V2 layouts, end to end: the real ``bot.py`` against
the twin, which refuses what Discord refuses of a layout (tests/e2e/twin_v2.py).  Each kind —
the bracket post in the league's channel (posted, then edited in place), ``/league bracket``,
``/league standings``, the post that ends a league, ``/cards show`` and its pages, ``/card`` — is
checked against the V2 rules: the flag set, no content and no embeds beside it, one container
with a colour accent, its picture in a media gallery naming a file of the message, its words
readable as text (the words the picture holds: who plays whom, the table, the card's text),
within 40 components and 4,000 characters.  A standings answer sent before the layouts (a text
with ◀ ▶) becomes a layout when its page turns, its content cleared in the same edit."""
from __future__ import annotations

import re

import aiohttp
import pytest

from .checks import assert_every_message_within_limits
from .test_league_e2e import ADMIN, announcements, create_league
from .twin import TOKEN, components_of, find_component, message_text
from .twin_v2 import CONTAINER, MEDIA_GALLERY, check_layout, is_v2, pictures_of

pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")

# results decided back to back, faster than people play: Discord's 5 posts per channel in a 1 s
# window (tests/e2e/conftest.py, channel_window)
CHANNEL_WINDOW = 1.0
PAIRED = re.compile(r"`#(\d+)` (\w+): (\w+) vs (\w+)")


def assert_layout(m: dict, pictures: list[str], *words: str) -> str:
    """``m`` is a Components V2 message as Discord takes it: the flag, nothing beside it, one
    accented container holding a media gallery of ``pictures`` (files of the message), the
    ``words`` readable in its text.  Returns its text."""
    assert is_v2(m), f"not a layout: {m.get('content')!r} {m.get('embeds')!r}"
    assert not m.get("content") and not m.get("embeds"), "content or embeds beside the flag"
    top = m["components"]
    assert [c["type"] for c in top] == [CONTAINER] and top[0].get("accent_color"), top
    assert [c["type"] for c in top[0]["components"]].count(MEDIA_GALLERY) == (1 if pictures else 0)
    assert pictures_of(m) == pictures
    assert set(pictures) <= {a["filename"] for a in m.get("attachments") or []}
    assert check_layout(top, {a["filename"] for a in m.get("attachments") or []}) == []
    text = message_text(m)
    for w in words:
        assert w in text, (w, text)
    return text


def bracket_posts(twin) -> list[dict]:
    return [m for m in twin.posts(twin.channel["id"])
            if any(a["filename"].startswith("bracket-") for a in m.get("attachments") or [])]


async def test_league_and_card_messages_are_layouts_within_discords_rules(table, twin):
    alice, bob, carol = table.alice, table.bob, table.carol
    dave = twin.user("Dave")
    users = {"Alice": alice, "Bob": bob, "Carol": carol, "Dave": dave}
    league_id, message = await create_league(table, name="Layout Cup", game="squares", format="single")
    for user in users.values():
        await twin.click(user, twin.message(message["id"]), f"lg:{league_id}:join")
    await twin.slash(alice, "league-admin start", league=league_id, permissions=ADMIN)

    # the bracket post: the picture, and who plays whom in words
    [told] = await twin.wait_for(lambda: announcements(twin, league_id, "new matches are paired"),
                                 what="the semifinals")
    semis = PAIRED.findall(told["content"])
    [post] = await twin.wait_for(lambda: bracket_posts(twin), what="the bracket post")
    text = assert_layout(post, ["bracket-1.png"], f"League #{league_id} Layout Cup", "**Semifinals**: ")
    for _, _, a, b in semis:
        assert f"{a} vs {b}" in text or f"{b} vs {a}" in text, text

    # /league bracket and /league standings: the same, only to the one who asks
    ix = await twin.slash(bob, "league bracket", league=league_id)
    assert_layout(ix.last, ["bracket.png"], "still in:", "**Semifinals**: ")
    ix = await twin.slash(carol, "league standings", league=league_id)
    text = assert_layout(ix.last, ["standings.png"], f"League #{league_id} Layout Cup", "```")
    assert all(name in text for name in users)

    # a standings answer from before the layouts (a text and ◀ ▶): its page turns into a layout
    url = f"{twin.api_base}/channels/{twin.channel['id']}/messages"
    old_form = {"content": f"League #{league_id} Layout Cup — standings",
                "components": [{"type": 1, "components": [
                    {"type": 2, "style": 2, "label": "◀", "custom_id": f"lgs:{league_id}:0"}]}]}
    async with aiohttp.ClientSession() as http:
        async with http.post(url, json=old_form, headers={"Authorization": f"Bot {TOKEN}"}) as r:
            assert r.status == 200
            old = await r.json()
    ix = await twin.click(dave, twin.message(old["id"]), f"lgs:{league_id}:0")
    assert ix.response_type == 7, ix.text
    assert_layout(twin.message(old["id"]), ["standings.png"], "Dave")
    edit = next(r for r in reversed(twin.requests) if r.path.endswith("/callback") and (r.json or {}).get("type") == 7)
    assert edit.json["data"]["content"] is None and edit.json["data"]["embeds"] == []

    # the semifinals decided: the bracket post edited in place, the winners named in words
    for pairing, *_ in semis:
        await twin.slash(alice, "league-admin report", pairing=int(pairing), result="first", league=league_id,
                         permissions=ADMIN)
    await twin.settle(quiet=0.3)
    winners = [a for _, _, a, _ in semis]
    newest = bracket_posts(twin)[-1]
    text = assert_layout(newest, ["bracket-1.png"], "**Final**: ")
    assert all(f"{a} beat {b}" in text for _, _, a, b in semis), text
    assert len(twin.message(post["id"])["_versions"]) > 1 or newest["id"] != post["id"]

    # the final decided: the end of the league is one layout with the final standings
    [final] = await twin.wait_for(lambda: [m for m in announcements(twin, league_id, "new matches are paired")
                                           if "Final" in m["content"]], what="the final")
    [(pairing, _, a, b)] = PAIRED.findall(final["content"])
    assert {a, b} == set(winners)
    await twin.slash(alice, "league-admin report", pairing=int(pairing), result="first", league=league_id,
                     permissions=ADMIN)
    [done] = await twin.wait_for(lambda: announcements(twin, league_id, "is finished"), what="the end")
    text = assert_layout(done, ["standings.png"], f"Champion: {a}", "```")
    assert re.search(rf"^\s*1 {a}\b", text, re.M), text
    assert not components_of(done), "the end of the league has no buttons: the league message has them"
    assert f"the final bracket. Champion: {a}" in message_text(bracket_posts(twin)[-1])

    # /cards show: six cards in the picture and in words, pages that edit in place
    ix = await twin.slash(dave, "cards show", game="maken")
    text = assert_layout(ix.last, ["cards.png"], "page 1 of", "🃏 **")
    assert text.count("🃏 **") + text.count("📦 **") == 6, text
    forward = find_component(ix.last, r"^cs:maken:0:1:")
    page2 = await twin.click(dave, ix.last, forward["custom_id"])
    assert page2.response_type == 7 and page2.last["id"] == ix.last["id"]
    assert_layout(page2.last, ["cards.png"], "page 2 of")

    # /card: the card's picture, its text and its game
    ix = await twin.slash(dave, "card", name="Blitz Vector")
    assert_layout(ix.last, ["card.png"], "### Blitz Vector", "Hit damage 60", "**Game:** Battle Logic Square",
                  "ブリッツ・ベクター")
    assert_every_message_within_limits(twin)
