"""The twin knows Components V2 as Discord defines it (tests/e2e/twin_v2.py): for each rule, a
payload at the limit is accepted and one past it refused with Discord's answer, on every route a
message goes by; edits keep the flag; a stored V2 message looks as Discord returns it; the
helpers the scenarios read messages with find text, controls and pictures in a layout; and a real
``discord.ui.LayoutView``, sent by discord.py's own HTTP client, is accepted.  No bot process."""
from __future__ import annotations

import asyncio
import io
import json
import time

import aiohttp
import pytest

from .twin import TOKEN, Interaction, Twin, check_message, components_of, find_component, message_text
from .twin_v2 import IS_COMPONENTS_V2, check_layout, pictures_of

# aiohttp's own multipart reader (the twin reading uploads) uses a deprecated call internally
pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")

AUTH = {"Authorization": f"Bot {TOKEN}"}
V2 = IS_COMPONENTS_V2
LEGACY = "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"
PNG = [("board.png", b"\x89PNG not really")]


# ---------------------------------------------------------------------------- payload builders
def text(content, **kw):
    return {"type": 10, "content": content, **kw}


def button(cid, label="ok", **kw):
    return {"type": 2, "style": 1, "custom_id": cid, "label": label, **kw}


def select(cid="pick", n=3):
    return {"type": 3, "custom_id": cid, "options": [{"label": str(i), "value": str(i)} for i in range(n)]}


def row(*items, **kw):
    return {"type": 1, "components": list(items), **kw}


def section(*texts, accessory=None, **kw):
    out = {"type": 9, "components": list(texts), **kw}
    if accessory is not None:
        out["accessory"] = accessory
    return out


def thumb(url="attachment://board.png", **kw):
    return {"type": 11, "media": {"url": url}, **kw}


def gallery(*urls, description=None):
    return {"type": 12, "items": [{"media": {"url": u}, "description": description} for u in urls]}


def file_(url):
    return {"type": 13, "file": {"url": url}}


def sep(**kw):
    return {"type": 14, **kw}


def container(*children, **kw):
    return {"type": 17, "components": list(children), **kw}


def v2(*components, **extra):
    return {"flags": V2, "components": list(components), **extra}


# ---------------------------------------------------------------------------- one test per limit
# name -> (a payload Discord accepts, the same past the limit, what the refusal says)
LIMITS = {
    "content beside the flag": (v2(text("hi"), content=None), v2(text("hi"), content="hi"), f"content[{LEGACY}]"),
    "even an empty content beside the flag": (v2(text("hi")), v2(text("hi"), content=""), f"content[{LEGACY}]"),
    "embeds beside the flag": (v2(text("hi"), embeds=[]), v2(text("hi"), embeds=[{"title": "t"}]),
                               f"embeds[{LEGACY}]"),
    "stickers beside the flag": (v2(text("hi"), sticker_ids=[]), v2(text("hi"), sticker_ids=["1"]),
                                 f"sticker_ids[{LEGACY}]"),
    "a poll beside the flag": (v2(text("hi"), poll=None),
                               v2(text("hi"), poll={"question": {"text": "?"}, "answers": []}), f"poll[{LEGACY}]"),
    "layout components without the flag": (v2(text("hi")), {"components": [text("hi")]},
                                           "top-level component is not an action row"),
    "a thumbnail only as a section's accessory": (
        v2(section(text("a"), accessory=thumb())), v2(thumb()), "11 (thumbnail) cannot be a top-level component"),
    "a button only in a row or as an accessory": (
        v2(row(button("a"))), v2(button("a")), "2 (button) cannot be a top-level component"),
    "no container in a container": (
        v2(container(text("a"))), v2(container(container(text("a")))), "17 (container) cannot be in a container"),
    "a container holds something": (v2(container(sep())), v2(container()), "a container holds at least one"),
    "a section holds at most 3 text displays": (
        v2(section(text("a"), text("b"), text("c"), accessory=button("x"))),
        v2(section(text("a"), text("b"), text("c"), text("d"), accessory=button("x"))), "a section holds 1..3"),
    "a section holds at least 1 text display": (
        v2(section(text("a"), accessory=button("x"))), v2(section(accessory=button("x"))), "a section holds 1..3"),
    "a section holds only text displays": (
        v2(section(text("a"), accessory=button("x"))), v2(section(text("a"), sep(), accessory=button("x"))),
        "14 (separator) cannot be in a section"),
    "a section needs an accessory": (
        v2(section(text("a"), accessory=thumb())), v2(section(text("a"))), "a section needs an accessory"),
    "a section's accessory is a thumbnail or a button": (
        v2(section(text("a"), accessory=button("x"))), v2(section(text("a"), accessory=select())),
        "3 (string select) cannot be a section's accessory"),
    "a row holds at most 5 buttons": (
        v2(container(row(*[button(f"b{i}") for i in range(5)]))),
        v2(container(row(*[button(f"b{i}") for i in range(6)]))), "6 items > 5"),
    "a select is alone in its row": (v2(row(select())), v2(row(select(), button("b"))), "a select must be alone"),
    "a row holds only buttons and selects": (v2(row(button("b"))), v2(row(text("no"))),
                                             "10 (text display) cannot be in an action row"),
    "a row is not empty": (v2(row(button("b"))), v2(row()), "empty action row"),
    "a media gallery holds at most 10 items": (
        v2(gallery(*["https://example.com/a.png"] * 10)), v2(gallery(*["https://example.com/a.png"] * 11)),
        "a media gallery holds 1..10"),
    "a media gallery holds at least 1 item": (v2(gallery("https://example.com/a.png")), v2(gallery()),
                                              "a media gallery holds 1..10"),
    "alt text at most 1,024 characters": (
        v2(gallery("attachment://board.png", description="d" * 1024)),
        v2(gallery("attachment://board.png", description="d" * 1025)), "alt text 1..1024"),
    "at most 40 components in all": (
        v2(container(*[text("t")] * 39)), v2(container(*[text("t")] * 40)), "41 components > 40"),
    "nested components count toward the 40": (
        # 8 rows of 4 buttons are 40 components; a separator more is 41
        v2(*[row(*[button(f"b{r}{i}") for i in range(4)]) for r in range(8)]),
        v2(*[row(*[button(f"b{r}{i}") for i in range(4)]) for r in range(8)], sep()), "41 components > 40"),
    "at most 4,000 characters of text in all": (
        v2(text("a" * 1000), container(text("b" * 1000), section(text("c" * 1000), accessory=button("x"))),
           text("d" * 1000)),
        v2(text("a" * 1000), container(text("b" * 1000), section(text("c" * 1000), accessory=button("x"))),
           text("d" * 1001)), "4001 characters of text display > 4000"),
    "a text display is not empty": (v2(text("x")), v2(text("")), "content: 0 (1..4000"),
    "an id is used once": (v2(text("a", id=1), text("b", id=2), text("c", id=0), text("d", id=0)),
                           v2(text("a", id=1), container(text("b", id=1))), "duplicated 1"),
    "an id is a 32-bit integer": (v2(text("a", id=2 ** 31 - 1)), v2(text("a", id=2 ** 31)), "a 32-bit integer"),
    "a custom_id is used once in the whole layout": (
        v2(section(text("a"), accessory=button("a")), container(row(button("b")))),
        v2(section(text("a"), accessory=button("a")), container(row(button("a")))), "duplicated 'a'"),
    "a button's label at most 80 characters": (
        v2(section(text("a"), accessory=button("a", label="l" * 80))),
        v2(section(text("a"), accessory=button("a", label="l" * 81))), "label: 81 > 80"),
    "attachment:// names a file of the message": (
        v2(gallery("attachment://board.png")), v2(gallery("attachment://other.png")),
        "attachment://other.png names no file of the message"),
    "a thumbnail's attachment:// too": (
        v2(section(text("a"), accessory=thumb("attachment://board.png"))),
        v2(section(text("a"), accessory=thumb("attachment://gone.png"))), "attachment://gone.png names no file"),
    "a file component takes only attachment://": (
        v2(file_("attachment://board.png")), v2(file_("https://example.com/board.png")),
        "a file component takes only attachment://"),
    "media URLs are http(s) or attachment://": (
        v2(gallery("https://example.com/a.png")), v2(gallery("ftp://example.com/a.png")),
        "neither http(s):// nor attachment://"),
    "a separator's spacing is 1 or 2": (v2(sep(divider=False, spacing=2)), v2(sep(spacing=3)), "spacing: 3"),
    "an accent colour is RGB": (v2(container(text("a"), accent_color=0xFFFFFF)),
                                v2(container(text("a"), accent_color=0x1000000)), "accent_color"),
}


@pytest.mark.parametrize("limit", list(LIMITS))
def test_each_components_v2_rule_accepts_the_limit_and_refuses_past_it(limit):
    fine, broken, problem = LIMITS[limit]
    assert check_message(fine, PNG) == []
    errors = check_message(broken, PNG)
    assert any(problem in e for e in errors), errors


def test_a_legacy_message_keeps_its_own_limits():
    """Without the flag the old rules stand: at most 5 rows, each holding buttons or one select."""
    assert check_message({"content": "x", "components": [row(button(f"b{i}")) for i in range(5)]}, []) == []
    assert any("6 action rows > 5" in e for e in check_message(
        {"content": "x", "components": [row(button(f"b{i}")) for i in range(6)]}, []))
    # with the flag, rows are not limited to 5: 6 rows of 1 button are 12 components
    assert check_layout([row(button(f"b{i}")) for i in range(6)]) == []


# ---------------------------------------------------------------------------- over HTTP, every route
async def _send(http, method, url, payload, files=(), headers=None):
    """POST/PATCH as discord.py does: JSON, or multipart with ``payload_json`` and ``files[n]``."""
    if files:
        form = aiohttp.FormData()
        form.add_field("payload_json", json.dumps(payload), content_type="application/json")
        for i, (name, raw) in enumerate(files):
            form.add_field(f"files[{i}]", raw, filename=name, content_type="image/png")
        kwargs = {"data": form}
    else:
        kwargs = {"json": payload}
    async with http.request(method, url, headers=headers or {}, **kwargs) as r:
        return r.status, (await r.json() if r.content_type == "application/json" else None)


def _interaction(twin, kind, user, message=None):
    data = {"id": "1", "name": "x", "type": 1} if kind == 2 else {"custom_id": "go", "component_type": 2}
    p = twin.interaction_payload(kind, user, data, message=message)
    ix = Interaction(p, int(user["id"]), sent_at=time.monotonic())
    twin.interactions[p["token"]] = ix
    return p, ix


ROUTES = ("channel message", "DM", "interaction reply", "follow-up", "channel edit", "interaction update",
          "original response edit")


async def _route_call(twin, http, route, payload, files=()):
    """Send ``payload`` by ``route``; an edit applies to a V2 message (a layout with a button)."""
    base, cid = twin.api_base, twin.channel["id"]
    alice = twin.user("Alice")
    if route in ("channel edit", "interaction update"):
        status, original = await _send(http, "POST", f"{base}/channels/{cid}/messages",
                                       v2(container(text("before"), row(button("go")))), (), AUTH)
        assert status == 200, original
    if route == "channel message":
        return await _send(http, "POST", f"{base}/channels/{cid}/messages", payload, files, AUTH)
    if route == "DM":
        _, dm = await _send(http, "POST", f"{base}/users/@me/channels", {"recipient_id": alice["id"]}, (), AUTH)
        return await _send(http, "POST", f"{base}/channels/{dm['id']}/messages", payload, files, AUTH)
    if route == "channel edit":
        return await _send(http, "PATCH", f"{base}/channels/{cid}/messages/{original['id']}", payload, files, AUTH)
    if route == "interaction update":
        p, _ = _interaction(twin, 3, alice, message=twin.message(original["id"]))
        return await _send(http, "POST", f"{base}/interactions/{p['id']}/{p['token']}/callback",
                           {"type": 7, "data": payload}, files)
    if route == "interaction reply":
        p, _ = _interaction(twin, 2, alice)
        return await _send(http, "POST", f"{base}/interactions/{p['id']}/{p['token']}/callback",
                           {"type": 4, "data": payload}, files)
    p, _ = _interaction(twin, 2, alice)
    ack = {"type": 4, "data": v2(text("first"))} if route == "follow-up" else {"type": 5, "data": {"flags": 64}}
    status, _ = await _send(http, "POST", f"{base}/interactions/{p['id']}/{p['token']}/callback", ack)
    assert status == 204
    if route == "follow-up":
        return await _send(http, "POST", f"{base}/webhooks/{twin.app_id}/{p['token']}", payload, files)
    return await _send(http, "PATCH", f"{base}/webhooks/{twin.app_id}/{p['token']}/messages/@original",
                       payload, files)


BROKEN = {
    "content beside the flag": (v2(text("hi"), content="hi"), f"content[{LEGACY}]"),
    "41 components": (v2(container(*[text("t")] * 40)), "41 components > 40"),
    "4,001 characters of text": (v2(text("a" * 4000), text("b")), "4001 characters"),
    "a picture not uploaded": (v2(gallery("attachment://missing.png")), "names no file"),
}


@pytest.mark.parametrize("broken", list(BROKEN))
async def test_every_route_accepts_a_layout_and_refuses_a_broken_one_with_discords_answer(broken):
    """A post, a DM, an interaction reply and update, a follow-up and the edits of a message and
    of an original response: each accepts a V2 layout with its picture (stored flagged, its text
    read) and answers a broken one 400 / 50035 naming the fault, recorded, storing nothing."""
    payload, problem = BROKEN[broken]
    fine = v2(container(text("## Board"), gallery("attachment://board.png"), row(button("go"))))
    async with Twin() as twin, aiohttp.ClientSession() as http:
        for route in ROUTES:
            before = [m["_versions"][-1] for m in twin.messages.values()]
            violations = len(twin.violations)
            status, body = await _route_call(twin, http, route, payload, PNG)
            assert status == 400 and body["code"] == 50035, (route, status, body)
            assert any(problem in e["message"] for e in body["errors"]["_errors"]), (route, body)
            assert len(twin.violations) == violations + 1 and problem in twin.violations[-1], route
            assert [m["_versions"][-1] for m in twin.messages.values()][:len(before)] == before, route
        for route in ROUTES:
            versions = {mid: len(m["_versions"]) for mid, m in twin.messages.items()}
            status, body = await _route_call(twin, http, route, fine, PNG)
            assert status in (200, 204), (route, status, body)
            [shown] = [m for mid, m in twin.messages.items() if len(m["_versions"]) > versions.get(mid, 0)
                       and "## Board" in message_text(m)]
            assert shown["flags"] & V2 and pictures_of(shown) == ["board.png"], route
            assert find_component(shown, "^go$"), route
        assert len(twin.violations) == len(ROUTES)


# ---------------------------------------------------------------------------- edits and the flag
async def test_the_flag_cannot_be_removed_by_an_edit_and_content_cannot_come_back():
    async with Twin() as twin, aiohttp.ClientSession() as http:
        base, cid = twin.api_base, twin.channel["id"]
        _, msg = await _send(http, "POST", f"{base}/channels/{cid}/messages", v2(text("a layout")), (), AUTH)
        url = f"{base}/channels/{cid}/messages/{msg['id']}"
        for payload, problem in (({"flags": 0, "components": [row(button("b"))]}, "cannot be removed"),
                                 ({"flags": 0}, "cannot be removed"),
                                 ({"content": "words again"}, f"content[{LEGACY}]"),
                                 ({"embeds": [{"title": "an embed"}]}, f"embeds[{LEGACY}]"),
                                 # without flags the edit keeps the message's: it is checked as V2
                                 ({"components": [container(text("a" * 4001))]}, "content: 4001")):
            status, body = await _send(http, "PATCH", url, payload, (), AUTH)
            assert status == 400 and body["code"] == 50035, (payload, body)
            assert problem in twin.violations[-1], (payload, twin.violations[-1])
        # an edit without flags, or with the flag and another one, stays V2
        status, body = await _send(http, "PATCH", url, {"components": [text("still a layout")]}, (), AUTH)
        assert status == 200 and body["flags"] & V2 and message_text(body) == "still a layout"
        status, body = await _send(http, "PATCH", url, v2(text("quiet"), flags=V2 | 4), (), AUTH)
        assert status == 200 and body["flags"] & V2
        assert len(twin.violations) == 5


async def test_a_legacy_message_becomes_v2_only_by_an_edit_that_resets_its_content_and_embeds():
    """Discord: the flag can be set by an edit, which must reset content (null) and embeds ([])."""
    async with Twin() as twin, aiohttp.ClientSession() as http:
        base, cid = twin.api_base, twin.channel["id"]
        _, msg = await _send(http, "POST", f"{base}/channels/{cid}/messages",
                             {"content": "old words", "embeds": [{"title": "old"}], "components": [row(button("b"))]},
                             (), AUTH)
        url = f"{base}/channels/{cid}/messages/{msg['id']}"
        status, _ = await _send(http, "PATCH", url, v2(text("new")), (), AUTH)
        assert status == 400 and f"content[{LEGACY}]: the message's content must be reset" in twin.violations[-1]
        status, _ = await _send(http, "PATCH", url, v2(text("new"), content=None), (), AUTH)
        assert status == 400 and f"embeds[{LEGACY}]: the message's embeds must be reset" in twin.violations[-1]
        status, body = await _send(http, "PATCH", url, v2(text("new"), content=None, embeds=[]), (), AUTH)
        assert status == 200 and body["flags"] & V2 and body["content"] == "" and body["embeds"] == []
        assert message_text(body) == "new" and len(twin.violations) == 2
        # a legacy message of rows only has nothing to reset: setting the flag keeps its rows
        _, rows = await _send(http, "POST", f"{base}/channels/{cid}/messages", {"components": [row(button("r"))]},
                              (), AUTH)
        status, body = await _send(http, "PATCH", f"{base}/channels/{cid}/messages/{rows['id']}", {"flags": V2},
                                   (), AUTH)
        assert status == 200 and body["flags"] & V2 and find_component(body, "^r$")


async def test_interaction_answers_carry_the_flag_and_are_checked_against_the_message_they_edit():
    async with Twin() as twin, aiohttp.ClientSession() as http:
        base = twin.api_base
        alice = twin.user("Alice")
        p, ix = _interaction(twin, 2, alice)
        status, _ = await _send(http, "POST", f"{base}/interactions/{p['id']}/{p['token']}/callback",
                                {"type": 4, "data": v2(text("a reply"), flags=V2 | 64)})
        assert status == 204 and ix.ephemeral and ix.text == "a reply"
        # the original response is V2: an edit of it may not bring content back nor drop the flag
        hook = f"{base}/webhooks/{twin.app_id}/{p['token']}/messages/@original"
        status, _ = await _send(http, "PATCH", hook, {"content": "words"})
        assert status == 400 and LEGACY in twin.violations[-1]
        status, _ = await _send(http, "PATCH", hook, {"flags": 64, "components": [text("x")]})
        assert status == 400 and "cannot be removed" in twin.violations[-1]
        status, body = await _send(http, "PATCH", hook, {"components": [text("edited")]})
        assert status == 200 and ix.last["flags"] & V2 and ix.text.endswith("edited")
        # a component's update of a V2 message (type 7) without the flag is refused
        board = twin._new_message(int(twin.channel["id"]), v2(section(text("board"), accessory=button("go"))), [],
                                  via="channel")
        p3, ix3 = _interaction(twin, 3, alice, message=board)
        status, body = await _send(http, "POST", f"{base}/interactions/{p3['id']}/{p3['token']}/callback",
                                   {"type": 7, "data": {"flags": 0, "components": [row(button("go"))]}})
        assert status == 400 and ix3.response_type is None
        assert len(twin.violations) == 3


async def test_attachment_references_on_an_edit_name_the_files_it_keeps_or_uploads():
    async with Twin() as twin, aiohttp.ClientSession() as http:
        base, cid = twin.api_base, twin.channel["id"]
        _, msg = await _send(http, "POST", f"{base}/channels/{cid}/messages",
                             v2(gallery("attachment://board.png")), PNG, AUTH)
        url = f"{base}/channels/{cid}/messages/{msg['id']}"
        kept = [{"id": msg["attachments"][0]["id"]}]
        status, _ = await _send(http, "PATCH", url, v2(gallery("attachment://board.png"), attachments=kept), (), AUTH)
        assert status == 200
        # no attachments list and no files: the edit keeps them all
        status, _ = await _send(http, "PATCH", url, v2(text("t"), gallery("attachment://board.png")), (), AUTH)
        assert status == 200
        status, _ = await _send(http, "PATCH", url, v2(gallery("attachment://board.png"), attachments=[]), (), AUTH)
        assert status == 400 and "attachment://board.png names no file" in twin.violations[-1]
        status, body = await _send(http, "PATCH", url,
                                   v2(gallery("attachment://next.png"), attachments=[{"id": 0, "filename": "next.png"}]),
                                   [("next.png", b"png")], AUTH)
        assert status == 200 and [a["filename"] for a in body["attachments"]] == ["next.png"]
        assert pictures_of(body) == ["next.png"] and len(twin.violations) == 1


# ---------------------------------------------------------------------------- as Discord stores it
async def test_a_stored_layout_has_discords_ids_and_its_media_resolved_and_a_hidden_file_is_a_violation():
    import discord.components

    async with Twin() as twin, aiohttp.ClientSession() as http:
        base, cid = twin.api_base, twin.channel["id"]
        payload = v2(container(text("title", id=2), section(text("s"), accessory=thumb()),
                               gallery("attachment://board.png", description="the board"),
                               file_("attachment://log.txt"), row(button("go"))))
        status, msg = await _send(http, "POST", f"{base}/channels/{cid}/messages", payload,
                                  PNG + [("log.txt", b"moves")], AUTH)
        assert status == 200 and twin.violations == []
        ids = [msg["components"][0]["id"]] + [c["id"] for c in msg["components"][0]["components"]]
        # numbered in order, skipping the 2 the bot gave: container 1, text 2, section 3 (its
        # text 4, its thumbnail 5), gallery 6, file 7, row 8 (its button 9)
        assert ids == [1, 2, 3, 6, 7, 8]
        sec = msg["components"][0]["components"][1]
        assert sec["components"][0]["id"] == 4 and sec["accessory"]["id"] == 5
        board = next(a for a in msg["attachments"] if a["filename"] == "board.png")
        media = msg["components"][0]["components"][2]["items"][0]["media"]
        assert media["url"] == board["url"] and media["attachment_id"] == board["id"]
        log = msg["components"][0]["components"][3]
        assert log["name"] == "log.txt" and log["size"] == 5
        # the request as the bot sent it is not rewritten
        assert twin.requests[-1].json["components"][0]["components"][2]["items"][0]["media"]["url"] == \
            "attachment://board.png"
        # discord.py reads the stored layout back
        parsed = [discord.components._component_factory(c) for c in msg["components"]]
        assert type(parsed[0]).__name__ == "Container" and parsed[0].id == 1
        # an uploaded file no component shows: accepted by Discord, shown to nobody
        status, hidden = await _send(http, "POST", f"{base}/channels/{cid}/messages", v2(text("no picture")),
                                     PNG, AUTH)
        assert status == 200 and twin.violations == [
            f"message {hidden['id']}: attachment board.png is shown by no component (a Components V2 message "
            f"shows a file only through a media gallery, thumbnail or file component)"]


# ---------------------------------------------------------------------------- reading as a user
def test_the_reading_helpers_walk_a_layout():
    m = {"id": "1", "flags": V2, "content": "", "embeds": [],
         "attachments": [{"id": "10", "filename": "board.png", "url": "http://x/10/board.png"},
                         {"id": "11", "filename": "face.png", "url": "http://x/11/face.png"}],
         "components": [
             text("top words"),
             container(text("in a container"),
                       section(text("in a section"), text("second line"), accessory=button("m:1:act")),
                       gallery("http://x/10/board.png"),
                       row(button("m:1:undo"), button("m:1:help"))),
             section(text("face"), accessory={"type": 11, "media": {"url": "http://x/11/face.png",
                                                                    "attachment_id": "11"}}),
             row(select("m:1:pick"))]}
    assert message_text(m).splitlines() == ["top words", "in a container", "in a section", "second line", "face"]
    assert [c["custom_id"] for c in components_of(m)] == ["m:1:act", "m:1:undo", "m:1:help", "m:1:pick"]
    assert find_component(m, r":act$")["type"] == 2 and find_component(m, r":pick$")["type"] == 3
    assert pictures_of(m) == ["board.png", "face.png"]
    # a legacy message reads as before
    old = {"content": "words", "embeds": [{"title": "T"}], "attachments": [{"id": "1", "filename": "b.png"}],
           "components": [row(button("a"), button("b"))], "flags": 0}
    assert message_text(old) == "words\nT" and [c["custom_id"] for c in components_of(old)] == ["a", "b"]
    assert pictures_of(old) == ["b.png"]


async def test_a_user_clicks_a_button_in_a_section_of_a_stored_layout():
    async with Twin() as twin:
        alice = twin.user("Alice")
        board = twin._new_message(int(twin.channel["id"]),
                                  v2(container(section(text("your turn"), accessory=button("m:7:act")))), [],
                                  via="channel")
        ix = await twin.click(alice, board, "m:7:act", settle=False)
        sent = twin.events[-1]["d"]
        assert sent["data"]["custom_id"] == "m:7:act" and sent["message"]["flags"] & V2
        assert ix.payload is sent and twin.violations == []


# ---------------------------------------------------------------------------- discord.py agrees
async def test_a_layout_view_sent_by_discord_py_is_accepted_and_an_over_long_one_refused(monkeypatch):
    """A ``discord.ui.LayoutView`` — container with text, a section with a thumbnail, a media
    gallery of the uploaded board, a separator and a row of buttons, then a row with a select —
    serialised and flagged by discord.py itself (``view.to_components()``; discord.py sets
    IS_COMPONENTS_V2 for a view with V2 items) and sent by its HTTP client: the twin accepts it,
    an edit with a new layout too, and refuses 4,001 characters of text, which discord.py lets
    through."""
    import discord
    import discord.http
    from discord import ui

    def layout(words: str) -> ui.LayoutView:
        view = ui.LayoutView(timeout=None)
        box = ui.Container(accent_colour=discord.Colour(0x3366CC))
        box.add_item(ui.TextDisplay(words))
        box.add_item(ui.Section(ui.TextDisplay("Alice to act"), accessory=ui.Thumbnail("attachment://board.png")))
        box.add_item(ui.MediaGallery(discord.MediaGalleryItem("attachment://board.png", description="the board")))
        box.add_item(ui.Separator())
        buttons = ui.ActionRow()
        buttons.add_item(ui.Button(label="Act", custom_id="m:1:act"))
        buttons.add_item(ui.Button(label="Help", custom_id="m:1:help"))
        box.add_item(buttons)
        view.add_item(box)
        picks = ui.ActionRow()
        picks.add_item(ui.Select(custom_id="m:1:pick", options=[discord.SelectOption(label="a1")]))
        view.add_item(picks)
        return view

    async with Twin() as twin:
        monkeypatch.setattr(discord.http.Route, "BASE", twin.api_base)
        http = discord.http.HTTPClient(asyncio.get_running_loop())
        try:
            await http.static_login(TOKEN)
            cid = int(twin.channel["id"])
            view = layout("## Squares #1")
            with discord.http.handle_message_parameters(
                    view=view, file=discord.File(io.BytesIO(b"png"), "board.png")) as params:
                sent = await http.send_message(cid, params=params)
            request = twin.calls("POST", rf"^/channels/{cid}/messages$")[-1]
            assert request.json["flags"] == V2 and request.json["components"] == view.to_components()
            assert sent["flags"] & V2 and twin.violations == []
            assert "## Squares #1" in message_text(sent) and "Alice to act" in message_text(sent)
            assert [c["custom_id"] for c in components_of(sent)] == ["m:1:act", "m:1:help", "m:1:pick"]
            assert pictures_of(sent) == ["board.png", "board.png"]
            with discord.http.handle_message_parameters(view=layout("## Squares #1 — turn 2")) as params:
                edited = await http.edit_message(cid, int(sent["id"]), params=params)
            assert "turn 2" in message_text(edited) and pictures_of(edited) == ["board.png", "board.png"]
            too_long = layout("x" * 3990)       # with "Alice to act": 4,002 characters of text
            assert too_long.content_length() > 4000
            with discord.http.handle_message_parameters(
                    view=too_long, file=discord.File(io.BytesIO(b"png"), "board.png")) as params:
                with pytest.raises(discord.HTTPException) as err:
                    await http.send_message(cid, params=params)
            assert err.value.status == 400 and err.value.code == 50035
        finally:
            await http.close()
    assert len(twin.violations) == 1 and "characters of text display > 4000" in twin.violations[0]
