"""The twin itself: it refuses what Discord refuses (so the scenarios can trust a silence), and it
only ever listens on loopback.  No bot process here: plain HTTP requests at the twin."""
from __future__ import annotations

import asyncio
import json
import re
import time

import aiohttp
import pytest

from .twin import TOKEN, Interaction, Twin, check_commands, check_message

# aiohttp's own multipart reader (the twin reading uploads) uses a deprecated call internally
pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")

AUTH = {"Authorization": f"Bot {TOKEN}"}


def row(*items):
    return {"type": 1, "components": list(items)}


def button(cid, label="ok"):
    return {"type": 2, "style": 1, "custom_id": cid, "label": label}


@pytest.mark.parametrize("payload, problem", [
    ({"content": "x" * 2001}, "content: 2001 > 2000"),
    ({"embeds": [{"title": "t" * 257}]}, "title: 257 > 256"),
    ({"embeds": [{"description": "d" * 4097}]}, "description: 4097 > 4096"),
    ({"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]}, "fields: 26 > 25"),
    ({"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]}, "6001 > 6000"),
    ({"components": [row(button(f"b{i}")) for i in range(6)]}, "6 action rows > 5"),
    ({"components": [row({"type": 3, "custom_id": "s", "options": [
        {"label": str(i), "value": str(i)} for i in range(26)]})]}, "options: 26 (1..25)"),
    ({"components": [row(button("c" * 101))]}, "custom_id: 101 > 100"),
    ({"components": [row(button("a", label="l" * 81))]}, "label: 81 > 80"),
    ({"components": [row(button("a"), button("a"))]}, "duplicated"),
    ({"content": ""}, "empty message"),
])
def test_check_message_names_what_discord_would_refuse(payload, problem):
    errors = check_message(payload, [])
    assert any(problem in e for e in errors), errors


def test_check_message_accepts_a_message_at_the_limits():
    payload = {"content": "x" * 2000, "embeds": [{"title": "t" * 256, "description": "d" * 4096,
                                                   "fields": [{"name": "n", "value": "v"}] * 25}],
               "components": [row(button("c" * 100, label="l" * 80))] + [row(button(f"r{i}")) for i in range(4)]}
    assert check_message(payload, [("a.png", b"x" * 1024)]) == []


def test_files_over_the_upload_limit_and_bad_commands_are_refused():
    assert check_message({"content": "hi"}, [("big.png", b"x" * (10 * 1024 * 1024 + 1))])
    assert check_commands([{"name": "Bad Name", "description": "d"}])
    assert check_commands([{"name": "ok", "description": "d",
                            "options": [{"name": "o", "description": "d", "type": 3,
                                         "choices": [{"name": str(i), "value": str(i)} for i in range(26)]}]}])


async def test_the_twin_answers_discords_errors_and_records_violations():
    async with Twin() as twin, aiohttp.ClientSession() as http:
        base = twin.api_base
        cid = twin.channel["id"]
        assert twin.api_base.startswith("http://127.0.0.1:") and twin.gateway_url.startswith("ws://127.0.0.1:")
        async with http.get(f"{base}/users/@me") as r:
            assert r.status == 401
        async with http.post(f"{base}/channels/{cid}/messages", headers=AUTH, json={"content": "x" * 2001}) as r:
            body = await r.json()
            assert r.status == 400 and body["code"] == 50035
        form = aiohttp.FormData()
        form.add_field("payload_json", json.dumps({"content": "pic"}))
        form.add_field("files[0]", b"x" * (twin.upload_limit + 1), filename="big.png")
        async with http.post(f"{base}/channels/{cid}/messages", headers=AUTH, data=form) as r:
            assert r.status == 413
        async with http.post(f"{base}/channels/{cid}/messages", headers=AUTH, json={"content": "fine"}) as r:
            assert r.status == 200 and r.headers["Content-Type"] == "application/json"
            message = await r.json()
        # closed DMs: 403 / 50007 (expected, so not a violation)
        user = twin.user("Dee")
        twin.closed_dms.add(int(user["id"]))
        async with http.post(f"{base}/users/@me/channels", headers=AUTH, json={"recipient_id": user["id"]}) as r:
            dm = await r.json()
        async with http.post(f"{base}/channels/{dm['id']}/messages", headers=AUTH, json={"content": "psst"}) as r:
            assert r.status == 403 and (await r.json())["code"] == 50007
        # 429 on demand, with retry_after (and the Via header discord.py looks for)
        twin.rate_limit("PATCH", rf"/messages/{message['id']}$", retry_after=0.25)
        async with http.patch(f"{base}/channels/{cid}/messages/{message['id']}", headers=AUTH,
                              json={"content": "edited"}) as r:
            assert r.status == 429 and (await r.json())["retry_after"] == 0.25 and r.headers["Via"]
        async with http.patch(f"{base}/channels/{cid}/messages/{message['id']}", headers=AUTH,
                              json={"content": "edited"}) as r:
            assert r.status == 200
        # an interaction answered twice, and one answered after 3 s without a defer
        alice = twin.user("Alice")
        for late in (False, True):
            payload = twin.interaction_payload(2, alice, {"id": "1", "name": "x", "type": 1})
            ix = Interaction(payload, int(alice["id"]), sent_at=time.monotonic() - (3.5 if late else 0))
            twin.interactions[payload["token"]] = ix
            url = f"{base}/interactions/{payload['id']}/{payload['token']}/callback?with_response=1"
            async with http.post(url, json={"type": 5, "data": {"flags": 64}}) as r:
                assert r.status == (404 if late else 200)
            if not late:
                async with http.post(url, json={"type": 4, "data": {"content": "again"}}) as r:
                    assert r.status == 400 and (await r.json())["code"] == 40060
        # an embed picture that names no attachment is accepted but shown broken: a violation
        async with http.post(f"{base}/channels/{cid}/messages", headers=AUTH,
                             json={"embeds": [{"image": {"url": "attachment://board.png"}}]}) as r:
            assert r.status == 200
        # a route the twin does not know is a 404 and a violation (so new calls get noticed)
        async with http.get(f"{base}/guilds/1/audit-logs", headers=AUTH) as r:
            assert r.status == 404
    kinds = "\n".join(twin.violations)
    for what in ("401", "content: 2001", "413", "40060", "answered after", "no route", "names no attachment"):
        assert what in kinds, kinds
    # (as whole words: a random interaction token in a violation may contain the digits "429")
    assert not re.search(r"\b50007\b", kinds) and not re.search(r"\b429\b", kinds)
    assert any("50007" in r for r in twin.refusals) and any(r.startswith("429") for r in twin.refusals)


# ---------------------------------------------------------------------------- every limit, every route
def _select(n):
    return {"type": 3, "custom_id": "pick", "options": [{"label": str(i), "value": str(i)} for i in range(n)]}


# Each limit the issue lists, as a payload Discord refuses (the upload limit is the twin's
# ``upload_limit``, set small here so the test sends little).
LIMITS = {
    "content over 2,000 characters": ({"content": "x" * 2001}, []),
    "embed title over 256": ({"embeds": [{"title": "t" * 257}]}, []),
    "embed description over 4,096": ({"embeds": [{"description": "d" * 4097}]}, []),
    "more than 25 embed fields": ({"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]}, []),
    "embeds over 6,000 characters in all": (
        {"embeds": [{"description": "d" * 4000}, {"title": "t" * 200, "description": "d" * 1801}]}, []),
    "more than 5 action rows": ({"content": "x", "components": [row(button(f"b{i}")) for i in range(6)]}, []),
    "more than 25 select options": ({"content": "x", "components": [row(_select(26))]}, []),
    "custom_id over 100": ({"content": "x", "components": [row(button("c" * 101))]}, []),
    "button label over 80": ({"content": "x", "components": [row(button("a", label="l" * 81))]}, []),
    "a file over the upload limit": ({"content": "pic"}, [("board.png", b"x" * 2049)]),
    "more than 10 files": ({"content": "pics"}, [(f"p{i}.png", b"x") for i in range(11)]),
}
ROUTES = ("channel message", "channel edit", "DM", "interaction reply", "interaction update",
          "follow-up", "original response edit")


async def _send(http, method, url, payload, files, headers=None):
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


async def _route_call(twin, http, route, payload, files):
    """Send ``payload`` through ``route`` (setting up what the route needs first)."""
    base, cid = twin.api_base, twin.channel["id"]
    alice = twin.user("Alice")

    async def interaction(kind, ack=None, message=None):
        data = {"id": "1", "name": "x", "type": 1} if kind == 2 else {"custom_id": "b", "component_type": 2}
        p = twin.interaction_payload(kind, alice, data, message=message)
        twin.interactions[p["token"]] = Interaction(p, int(alice["id"]), sent_at=time.monotonic())
        if ack is not None:
            status, _ = await _send(http, "POST", f"{base}/interactions/{p['id']}/{p['token']}/callback", ack, [])
            assert status == 204
        return p

    if route in ("channel message", "channel edit", "interaction update"):
        status, original = await _send(http, "POST", f"{base}/channels/{cid}/messages",
                                       {"content": "hi", "components": [row(button("b"))]}, [], AUTH)
        assert status == 200
    if route == "channel message":
        return await _send(http, "POST", f"{base}/channels/{cid}/messages", payload, files, AUTH)
    if route == "channel edit":
        return await _send(http, "PATCH", f"{base}/channels/{cid}/messages/{original['id']}", payload, files, AUTH)
    if route == "DM":
        status, dm = await _send(http, "POST", f"{base}/users/@me/channels", {"recipient_id": alice["id"]}, [], AUTH)
        return await _send(http, "POST", f"{base}/channels/{dm['id']}/messages", payload, files, AUTH)
    if route == "interaction reply":
        p = await interaction(2)
        return await _send(http, "POST", f"{base}/interactions/{p['id']}/{p['token']}/callback",
                           {"type": 4, "data": payload}, files)
    if route == "interaction update":
        p = await interaction(3, message=twin.message(original["id"]))
        return await _send(http, "POST", f"{base}/interactions/{p['id']}/{p['token']}/callback",
                           {"type": 7, "data": payload}, files)
    if route == "follow-up":
        p = await interaction(2, ack={"type": 4, "data": {"content": "first"}})
        return await _send(http, "POST", f"{base}/webhooks/{twin.app_id}/{p['token']}", payload, files)
    p = await interaction(2, ack={"type": 5, "data": {"flags": 64}})
    return await _send(http, "PATCH", f"{base}/webhooks/{twin.app_id}/{p['token']}/messages/@original",
                       payload, files)


@pytest.mark.parametrize("limit", list(LIMITS))
async def test_the_twin_refuses_each_discord_limit_on_every_route_the_bot_sends_messages_by(limit):
    """Content 2,000; embed title 256, description 4,096, 25 fields, 6,000 in all; 5 action rows;
    25 select options; custom_id 100; labels 80; the upload limit; 10 files — refused (400/413)
    on a channel message, its edit, a DM, an interaction reply or update, a follow-up and an
    edit of the original response; each refusal is recorded as a violation and stores nothing."""
    payload, files = LIMITS[limit]
    async with Twin(upload_limit=2048) as twin, aiohttp.ClientSession() as http:
        for route in ROUTES:
            before = [m["_versions"][-1] for m in twin.messages.values()]
            violations = len(twin.violations)
            status, body = await _route_call(twin, http, route, payload, files)
            assert status in (400, 413), (route, status, body)
            assert body["code"] in (50035, 40005), (route, body)
            assert len(twin.violations) == violations + 1, (route, twin.violations)
            # the refused payload left no trace: every message kept its last version
            assert [m["_versions"][-1] for m in twin.messages.values()][:len(before)] == before, route
        # the same routes accept a payload at the limits
        fine = {"content": "x" * 2000, "components": [row(button("c" * 100, label="l" * 80))]}
        for route in ROUTES:
            status, body = await _route_call(twin, http, route, fine, [("a.png", b"x" * 2048)])
            assert status in (200, 204), (route, status, body)
        assert len(twin.violations) == len(ROUTES)


async def test_a_deferred_interaction_may_be_followed_up_after_3_s_but_an_undeferred_one_may_not_be_answered():
    """Discord: an interaction must be answered within 3 s; a defer buys 15 minutes."""
    async with Twin() as twin, aiohttp.ClientSession() as http:
        alice = twin.user("Alice")
        base = twin.api_base
        late = twin.interaction_payload(2, alice, {"id": "1", "name": "x", "type": 1})
        twin.interactions[late["token"]] = Interaction(late, int(alice["id"]), sent_at=time.monotonic() - 3.2)
        status, body = await _send(http, "POST", f"{base}/interactions/{late['id']}/{late['token']}/callback",
                                   {"type": 4, "data": {"content": "too late"}}, [])
        assert status == 404 and body["code"] == 10062
        deferred = twin.interaction_payload(2, alice, {"id": "1", "name": "x", "type": 1})
        ix = Interaction(deferred, int(alice["id"]), sent_at=time.monotonic() - 2.5)
        twin.interactions[deferred["token"]] = ix
        status, _ = await _send(http, "POST", f"{base}/interactions/{deferred['id']}/{deferred['token']}/callback",
                                {"type": 5, "data": {"flags": 64}}, [])
        assert status == 204
        ix.sent_at -= 60     # a minute later: the follow-up is still fine
        status, msg = await _send(http, "POST", f"{base}/webhooks/{twin.app_id}/{deferred['token']}",
                                  {"content": "done"}, [])
        assert status == 200 and msg["content"] == "done" and ix.text == "done" and ix.ephemeral
        # a follow-up to an interaction never answered is refused too
        never = twin.interaction_payload(2, alice, {"id": "1", "name": "x", "type": 1})
        twin.interactions[never["token"]] = Interaction(never, int(alice["id"]), sent_at=time.monotonic())
        status, body = await _send(http, "POST", f"{base}/webhooks/{twin.app_id}/{never['token']}",
                                   {"content": "x"}, [])
        assert status == 404
    assert [v.split(" ")[1] for v in twin.violations] == ["10062", "10015"], twin.violations


async def test_autocomplete_results_over_25_choices_or_100_characters_are_refused():
    async with Twin() as twin, aiohttp.ClientSession() as http:
        alice = twin.user("Alice")
        for choices in ([{"name": str(i), "value": str(i)} for i in range(26)],
                        [{"name": "n" * 101, "value": "v"}], [{"name": "n", "value": "v" * 101}]):
            p = twin.interaction_payload(4, alice, {"id": "1", "name": "x", "type": 1, "options": []})
            twin.interactions[p["token"]] = Interaction(p, int(alice["id"]), sent_at=time.monotonic())
            status, body = await _send(http, "POST", f"{twin.api_base}/interactions/{p['id']}/{p['token']}/callback",
                                       {"type": 8, "data": {"choices": choices}}, [])
            assert status == 400 and body["code"] == 50035
    assert len(twin.violations) == 3


async def test_discord_py_own_http_client_gets_discords_errors_from_the_twin_and_waits_out_a_429(monkeypatch):
    """What the bot process sees: discord.py's HTTPClient raises on a refused message (so a
    scenario fails), and sleeps ``retry_after`` on a 429 before it tries again."""
    import discord
    import discord.http

    async with Twin() as twin:
        monkeypatch.setattr(discord.http.Route, "BASE", twin.api_base)
        http = discord.http.HTTPClient(asyncio.get_running_loop())
        try:
            me = await http.static_login(TOKEN)
            assert me["id"] == str(twin.app_id)
            cid = int(twin.channel["id"])
            with discord.http.handle_message_parameters(content="x" * 2001) as params:
                with pytest.raises(discord.HTTPException) as err:
                    await http.send_message(cid, params=params)
            assert err.value.status == 400 and err.value.code == 50035
            user = twin.user("Dee")
            twin.closed_dms.add(int(user["id"]))
            dm = await http.start_private_message(int(user["id"]))
            with discord.http.handle_message_parameters(content="psst") as params:
                with pytest.raises(discord.Forbidden) as closed:
                    await http.send_message(int(dm["id"]), params=params)
            assert closed.value.code == 50007
            twin.rate_limit("POST", rf"^/channels/{cid}/messages$", retry_after=0.6)
            with discord.http.handle_message_parameters(content="after the wait") as params:
                sent = await http.send_message(cid, params=params)
            posts = twin.calls("POST", rf"^/channels/{cid}/messages$")
            assert [r.status for r in posts[-2:]] == [429, 200] and sent["content"] == "after the wait"
            assert posts[-1].at - posts[-2].at >= 0.6 - 0.05
        finally:
            await http.close()
    assert len(twin.violations) == 1 and "content: 2001" in twin.violations[0]


# ---------------------------------------------------------------------------- the gateway
async def test_the_gateway_speaks_hello_identify_ready_guild_create_heartbeat_resume_and_reconnect():
    async with Twin(heartbeat_ms=41250) as twin, aiohttp.ClientSession() as http:
        url = twin.gateway_url + "?v=10&encoding=json"

        async def receive(ws):
            msg = await asyncio.wait_for(ws.receive(), 5)
            assert msg.type == aiohttp.WSMsgType.TEXT, msg
            return json.loads(msg.data)

        # a bad token is closed with 4004
        async with http.ws_connect(url) as ws:
            assert (await receive(ws))["op"] == 10
            await ws.send_json({"op": 2, "d": {"token": "nope", "intents": 0, "properties": {}}})
            msg = await asyncio.wait_for(ws.receive(), 5)
            assert msg.type == aiohttp.WSMsgType.CLOSE and msg.data == 4004
        async with http.ws_connect(url) as ws:
            hello = await receive(ws)
            assert hello == {"op": 10, "d": {"heartbeat_interval": 41250}}
            await ws.send_json({"op": 1, "d": None})
            assert (await receive(ws)) == {"op": 11}
            await ws.send_json({"op": 2, "d": {"token": TOKEN, "intents": 1, "properties": {}, "shard": [0, 1]}})
            ready = await receive(ws)
            assert (ready["op"], ready["t"], ready["s"]) == (0, "READY", 1)
            assert ready["d"]["user"]["id"] == str(twin.app_id)
            assert ready["d"]["resume_gateway_url"].startswith("ws://127.0.0.1:")
            session = ready["d"]["session_id"]
            guild = await receive(ws)
            assert (guild["t"], guild["s"], guild["d"]["id"]) == ("GUILD_CREATE", 2, str(twin.guild_id))
            assert twin.channel in guild["d"]["channels"]
            # an interaction reaches the bot as INTERACTION_CREATE, and the twin starts its 3 s
            alice = twin.user("Alice")
            payload = twin.interaction_payload(2, alice, {"id": "1", "name": "x", "type": 1})
            ix = await twin.send_interaction(payload, alice, settle=False)
            event = await receive(ws)
            assert (event["t"], event["s"], event["d"]["id"]) == ("INTERACTION_CREATE", 3, payload["id"])
            assert ix.sent_at is not None
            # Discord asks for a reconnect
            await twin.request_reconnect()
            assert (await receive(ws)) == {"op": 7, "d": None}
        # while nobody is connected, events wait; a RESUME replays what was missed, then RESUMED
        missed = twin.interaction_payload(2, alice, {"id": "1", "name": "x", "type": 1})
        await twin.send_interaction(missed, alice, settle=False)
        async with http.ws_connect(ready["d"]["resume_gateway_url"] + "?v=10&encoding=json") as ws:
            assert (await receive(ws))["op"] == 10
            await ws.send_json({"op": 6, "d": {"token": TOKEN, "session_id": session, "seq": 3}})
            replayed = await receive(ws)
            assert (replayed["t"], replayed["s"], replayed["d"]["id"]) == ("INTERACTION_CREATE", 4, missed["id"])
            resumed = await receive(ws)
            assert (resumed["t"], resumed["s"]) == ("RESUMED", 5)
            # the connection dies without a close frame
            await twin.drop_gateway()
            msg = await asyncio.wait_for(ws.receive(), 5)
            assert msg.type in (aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.ERROR)
        # a RESUME of an unknown session is refused with op 9 (invalid session, not resumable)
        async with http.ws_connect(url) as ws:
            await receive(ws)
            await ws.send_json({"op": 6, "d": {"token": TOKEN, "session_id": "other", "seq": 1}})
            assert (await receive(ws)) == {"op": 9, "d": False}
    assert (twin.identifies, twin.resumes, twin.heartbeats) == (1, 1, 1)
    assert twin.log[:2] == ["HELLO", "IDENTIFY(bad token)"] and "DROP" in twin.log


def test_the_loopback_guard_loaded_into_the_bot_refuses_any_other_host():
    """tests/e2e/loopback_only.py (in every e2e bot process): loopback works, anything else is
    refused before a packet leaves — by address or by name."""
    import subprocess
    import sys

    from .harness import ROOT

    code = """
import socket, tests.e2e.loopback_only
server = socket.socket(); server.bind(("127.0.0.1", 0)); server.listen()
socket.create_connection(server.getsockname(), timeout=2).close()
for target in (("192.0.2.1", 443), ("discord.com", 443)):
    try:
        socket.create_connection(target, timeout=2)
    except OSError as exc:
        assert "loopback only" in str(exc), exc
    else:
        raise SystemExit("reached " + str(target))
print("guarded")
"""
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.strip() == "guarded", out.stderr
    assert "only loopback is allowed" in out.stderr


async def test_a_bot_process_pointed_away_from_loopback_is_stopped_by_the_guard(tmp_path):
    """The e2e bot processes carry the loopback guard: a bot told to use another API host fails
    at once, with the guard's error in its log, and never reaches it."""
    from .harness import BotProcess

    async with Twin() as twin:
        bot = BotProcess(twin, tmp_path, extra_env={"DISCORD_API_BASE": "http://192.0.2.1/api/v10"})
        with pytest.raises(AssertionError, match="exited"):
            await bot.start()
        await bot.stop()
    assert "the bot tried to reach 192.0.2.1; only loopback is allowed" in bot.log()
    assert twin.requests == [] and twin.identifies == 0


async def test_threads_from_a_message_or_not_with_discords_refusals():
    async with Twin() as twin, aiohttp.ClientSession() as http:
        base, cid = twin.api_base, twin.channel["id"]
        status, msg = await _send(http, "POST", f"{base}/channels/{cid}/messages", {"content": "board"}, [], AUTH)
        status, thread = await _send(http, "POST", f"{base}/channels/{cid}/messages/{msg['id']}/threads",
                                     {"name": "SQUARES #1", "auto_archive_duration": 1440}, [], AUTH)
        assert status == 201 and thread["id"] == msg["id"] and thread["parent_id"] == cid and thread["type"] == 11
        status, body = await _send(http, "POST", f"{base}/channels/{cid}/messages/{msg['id']}/threads",
                                   {"name": "again"}, [], AUTH)
        assert status == 400 and body["code"] == 160004
        status, other = await _send(http, "POST", f"{base}/channels/{cid}/threads",
                                    {"name": "n" * 100, "type": 11}, [], AUTH)
        assert status == 201 and other["id"] != msg["id"]
        status, _ = await _send(http, "POST", f"{base}/channels/{cid}/threads", {"name": "n" * 101, "type": 11}, [], AUTH)
        assert status == 400
        status, body = await _send(http, "POST", f"{base}/channels/{thread['id']}/threads", {"name": "x"}, [], AUTH)
        assert status == 400 and body["code"] == 50024      # no thread inside a thread
        user = twin.user("Carol")
        async with http.put(f"{base}/channels/{thread['id']}/thread-members/{user['id']}", headers=AUTH) as r:
            assert r.status == 204
        status, posted = await _send(http, "POST", f"{base}/channels/{thread['id']}/messages", {"content": "hi"}, [], AUTH)
        assert status == 200 and posted["channel_id"] == thread["id"]
    assert twin.thread_members == {int(thread["id"]): {int(user["id"])}}
    assert [e["t"] for e in twin.events if e["t"] == "THREAD_CREATE"] == ["THREAD_CREATE"] * 2
    assert len(twin.violations) == 3 and all(v.startswith("400") for v in twin.violations)


async def test_an_ephemeral_message_is_edited_only_through_its_interaction():
    async with Twin() as twin, aiohttp.ClientSession() as http:
        alice = twin.user("Alice")
        p = twin.interaction_payload(2, alice, {"id": "1", "name": "x", "type": 1})
        ix = Interaction(p, int(alice["id"]), sent_at=time.monotonic())
        twin.interactions[p["token"]] = ix
        status, _ = await _send(http, "POST", f"{twin.api_base}/interactions/{p['id']}/{p['token']}/callback",
                                {"type": 4, "data": {"content": "only you", "flags": 64}}, [])
        assert status == 204 and ix.ephemeral
        cid = twin.channel["id"]
        status, body = await _send(http, "PATCH", f"{twin.api_base}/channels/{cid}/messages/{ix.original_id}",
                                   {"content": "edited"}, [], AUTH)
        assert status == 404 and body["code"] == 10008
        status, _ = await _send(http, "PATCH", f"{twin.api_base}/webhooks/{twin.app_id}/{p['token']}/messages/@original",
                                {"content": "edited"}, [])
        assert status == 200 and ix.text.endswith("edited")
    assert len(twin.violations) == 1


async def test_the_twins_clock_ages_messages_and_archives_idle_threads():
    """Issue 15: with the twin's clock, an edit of a message older than an hour is answered
    429/30046 once the channel's budget is spent (a deletion is not); an idle thread archives
    after its duration (THREAD_UPDATE), refuses edits and member adds (50083) and is unarchived
    by a new message or by PATCH archived=false; the clock is shared through a file; invalid
    requests (401/403/429) are counted."""
    async with Twin() as twin, aiohttp.ClientSession() as http:
        base = twin.api_base
        cid = twin.channel["id"]
        assert twin.env()["BOT_TEST_CLOCK_FILE"] == str(twin.clock_file) and twin.clock_file.read_text() == "0"
        async with http.post(f"{base}/channels/{cid}/messages", headers=AUTH, json={"content": "old"}) as r:
            old = await r.json()
        async with http.post(f"{base}/channels/{cid}/threads", headers=AUTH,
                             json={"name": "t", "type": 11, "auto_archive_duration": 60}) as r:
            thread = await r.json()
            assert r.status == 201 and thread["thread_metadata"]["auto_archive_duration"] == 60
        async with http.post(f"{base}/channels/{thread['id']}/messages", headers=AUTH, json={"content": "in"}) as r:
            inside = await r.json()
        await twin.advance(2 * 3600)
        assert float(twin.clock_file.read_text()) == 7200.0
        async with http.patch(f"{base}/channels/{cid}/messages/{old['id']}", headers=AUTH, json={"content": "x"}) as r:
            body = await r.json()
            assert r.status == 429 and body["code"] == 30046 and body["retry_after"] > 0
        assert twin.invalid_requests() == 1
        async with http.delete(f"{base}/channels/{cid}/messages/{old['id']}", headers=AUTH) as r:
            assert r.status == 204
        # the thread was idle for longer than its hour: archived
        assert twin.channels[int(thread["id"])]["thread_metadata"]["archived"]
        async with http.put(f"{base}/channels/{thread['id']}/thread-members/{twin.user('Fay')['id']}", headers=AUTH) as r:
            assert r.status == 400 and (await r.json())["code"] == 50083
        async with http.patch(f"{base}/channels/{thread['id']}", headers=AUTH, json={"archived": False}) as r:
            assert r.status == 200 and not (await r.json())["thread_metadata"]["archived"]
        await twin.advance(2 * 3600)
        assert twin.channels[int(thread["id"])]["thread_metadata"]["archived"]
        async with http.post(f"{base}/channels/{thread['id']}/messages", headers=AUTH, json={"content": "again"}) as r:
            fresh = await r.json()
            assert r.status == 200
        assert not twin.channels[int(thread["id"])]["thread_metadata"]["archived"]
        # a message just posted may be edited; the old one in the thread may not
        async with http.patch(f"{base}/channels/{thread['id']}/messages/{fresh['id']}", headers=AUTH,
                              json={"content": "ok"}) as r:
            assert r.status == 200
        async with http.patch(f"{base}/channels/{thread['id']}/messages/{inside['id']}", headers=AUTH,
                              json={"content": "no"}) as r:
            assert r.status == 429 and (await r.json())["code"] == 30046
        assert twin.invalid_requests() == 2
    assert not twin.clock_file.exists()


async def test_the_twin_has_discords_buckets_and_global_limit_with_headers():
    """Issue 15: per-channel buckets (posts apart from edits) answer with X-RateLimit headers and,
    once spent, 429 with retry_after; a global limit per second; interaction callbacks aside."""
    async with Twin() as twin, aiohttp.ClientSession() as http:
        twin.discord_rate_limits(per_channel=(2, 5.0), per_second=50)
        base, cid = twin.api_base, twin.channel["id"]
        seen = []
        for _ in range(3):
            async with http.post(f"{base}/channels/{cid}/messages", headers=AUTH, json={"content": "x"}) as r:
                seen.append((r.status, r.headers.get("X-RateLimit-Remaining"), r.headers.get("X-RateLimit-Bucket")))
                if r.status == 429:
                    body = await r.json()
                    assert body["retry_after"] > 0 and body["global"] is False
                else:
                    message = await r.json()
        assert [s for s, _, _ in seen] == [200, 200, 429]
        assert seen[0][1] == "1" and seen[1][1] == "0" and seen[0][2] == f"post-{cid}"
        # an edit is another bucket
        async with http.patch(f"{base}/channels/{cid}/messages/{message['id']}", headers=AUTH, json={"content": "y"}) as r:
            assert r.status == 200 and r.headers["X-RateLimit-Bucket"] == f"edit-{cid}"
        twin.discord_rate_limits(per_channel=(100, 5.0), per_second=3)
        statuses = []
        for _ in range(4):
            async with http.get(f"{base}/channels/{cid}", headers=AUTH) as r:
                statuses.append(r.status)
                if r.status == 429:
                    assert r.headers["X-RateLimit-Global"] == "true"
        assert statuses[-1] == 429          # 3 per second: the fourth call (or sooner) is refused


async def test_an_interaction_token_lives_fifteen_minutes():
    """Issue 15: follow-ups and edits with an interaction's token are refused 15 minutes after the
    interaction was created (401/50027)."""
    async with Twin() as twin, aiohttp.ClientSession() as http:
        base = twin.api_base
        alice = twin.user("Alice")
        payload = twin.interaction_payload(2, alice, {"id": "1", "name": "x", "type": 1})
        twin.interactions[payload["token"]] = Interaction(payload, int(alice["id"]), sent_at=time.monotonic())
        url = f"{base}/interactions/{payload['id']}/{payload['token']}/callback"
        async with http.post(url, json={"type": 5, "data": {"flags": 64}}) as r:
            assert r.status in (200, 204)
        hook = f"{base}/webhooks/{twin.app_id}/{payload['token']}"
        async with http.post(hook, json={"content": "in time"}) as r:
            assert r.status == 200
        await twin.advance(16 * 60)
        async with http.post(hook, json={"content": "too late"}) as r:
            assert r.status == 401 and (await r.json())["code"] == 50027
        twin.violations.clear()


async def test_a_command_unarchives_an_archived_thread_but_a_locked_one_refuses_the_answer():
    """Issue 15: a member's command in an archived thread unarchives it (as a message would); in a
    thread that is also locked the answer is refused (400/50083, discord-api-docs #5517)."""
    async with Twin() as twin, aiohttp.ClientSession() as http:
        alice = twin.user("Alice")
        thread = twin._thread(int(twin.channel["id"]), "t")
        tid = int(thread["id"])
        for locked in (False, True):
            thread["thread_metadata"].update(archived=True, locked=locked)
            payload = twin.interaction_payload(2, alice, {"id": "1", "name": "x", "type": 1}, channel_id=tid)
            ix = await twin.send_interaction(payload, alice, settle=False)
            assert thread["thread_metadata"]["archived"] is locked
            url = f"{twin.api_base}/interactions/{payload['id']}/{payload['token']}/callback"
            async with http.post(url, json={"type": 4, "data": {"content": "hi", "flags": 64}}) as r:
                assert r.status in ((400,) if locked else (200, 204))
                if locked:
                    assert (await r.json())["code"] == 50083
            assert ix is not None


# ---------------------------------------------------------------------------- shards
async def _hello(http, url):
    ws = await http.ws_connect(url)
    msg = await asyncio.wait_for(ws.receive(), 5)
    assert json.loads(msg.data)["op"] == 10
    return ws


async def _next(ws, timeout=5.0):
    msg = await asyncio.wait_for(ws.receive(), timeout)
    assert msg.type == aiohttp.WSMsgType.TEXT, msg
    return json.loads(msg.data)


async def _nothing(ws, timeout=0.3):
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(ws.receive(), timeout)


def test_guild_ids_land_on_the_shard_asked_for():
    twin = Twin(shards=2)
    assert (twin.guild_id >> 22) % 2 == 0
    for shard in (0, 1, 1, 0, 1):
        guild = twin.add_guild(shard)
        assert (guild["id"] >> 22) % 2 == shard and twin.shard_of(guild["id"]) == shard
        assert twin.channels[guild["channel_id"]]["guild_id"] == str(guild["id"])
    assert len(set(twin.guilds)) == 6
    three = Twin(shards=3)
    assert [(three.add_guild(s)["id"] >> 22) % 3 for s in (2, 1, 0)] == [2, 1, 0]
    with pytest.raises(ValueError):
        three.add_guild(3)
    twin.clock_file.unlink()
    three.clock_file.unlink()


async def test_two_shards_each_get_their_own_guilds_interactions_and_dms_on_shard_zero():
    async with Twin(shards=2) as twin, aiohttp.ClientSession() as http:
        other = twin.add_guild(1, "Second Guild")
        async with http.get(f"{twin.api_base}/gateway/bot", headers=AUTH) as r:
            body = await r.json()
            assert body["shards"] == 2 and body["session_start_limit"]["max_concurrency"] == 1
        url = twin.gateway_url + "?v=10&encoding=json"
        ws0, ws1 = await _hello(http, url), await _hello(http, url)
        try:
            await ws1.send_json({"op": 2, "d": {"token": TOKEN, "intents": 1, "properties": {}, "shard": [1, 2]}})
            await ws0.send_json({"op": 2, "d": {"token": TOKEN, "intents": 1, "properties": {}, "shard": [0, 2]}})
            ready1, ready0 = await _next(ws1), await _next(ws0)
            assert ready0["d"]["shard"] == [0, 2] and ready1["d"]["shard"] == [1, 2]
            assert ready0["d"]["session_id"] != ready1["d"]["session_id"]
            # READY lists only the shard's guilds, then each comes as GUILD_CREATE on it
            assert [g["id"] for g in ready0["d"]["guilds"]] == [str(twin.guild_id)]
            assert [g["id"] for g in ready1["d"]["guilds"]] == [str(other["id"])]
            created0, created1 = await _next(ws0), await _next(ws1)
            assert (created0["t"], created0["d"]["id"], created0["s"]) == ("GUILD_CREATE", str(twin.guild_id), 2)
            assert (created1["t"], created1["d"]["id"], created1["s"]) == ("GUILD_CREATE", str(other["id"]), 2)
            assert [c["id"] for c in created1["d"]["channels"]] == [str(other["channel_id"])]
            await _nothing(ws0)
            await _nothing(ws1)
            # an interaction in a guild goes to that guild's shard only, numbered in its session
            alice = twin.user("Alice")
            for channel_id, ws, quiet, shard in ((other["channel_id"], ws1, ws0, 1),
                                                 (twin.channel["id"], ws0, ws1, 0)):
                payload = twin.interaction_payload(2, alice, {"id": "1", "name": "x", "type": 1},
                                                   channel_id=channel_id)
                ix = await twin.send_interaction(payload, alice, settle=False)
                event = await _next(ws)
                assert (event["t"], event["s"], event["d"]["id"]) == ("INTERACTION_CREATE", 3, payload["id"])
                assert event["d"]["guild_id"] == twin.channels[int(channel_id)]["guild_id"]
                assert ix.shards == [shard]
                await _nothing(quiet)
            # a DM (no guild) goes to shard 0
            async with http.post(f"{twin.api_base}/users/@me/channels", headers=AUTH,
                                 json={"recipient_id": alice["id"]}) as r:
                dm = await r.json()
            payload = twin.interaction_payload(2, alice, {"id": "1", "name": "x", "type": 1}, channel_id=dm["id"])
            ix = await twin.send_interaction(payload, alice, settle=False)
            event = await _next(ws0)
            assert event["d"]["id"] == payload["id"] and "guild_id" not in event["d"] and ix.shards == [0]
            await _nothing(ws1)
            # a guild the bot joins later comes on its own shard; a thread's events follow its guild
            joined = await twin.join_guild(1, "Third Guild")
            event = await _next(ws1)
            assert (event["t"], event["d"]["id"]) == ("GUILD_CREATE", str(joined["id"]))
            async with http.post(f"{twin.api_base}/channels/{other['channel_id']}/threads", headers=AUTH,
                                 json={"name": "t", "type": 11}) as r:
                assert r.status == 201
            thread_event = await _next(ws1)
            assert thread_event["t"] == "THREAD_CREATE" and thread_event["s"] == 5
            await _nothing(ws0)
            # shard 1 is cut: its events wait for its RESUME, shard 0 carries on
            await twin.drop_gateway(1)
            missed = twin.interaction_payload(2, alice, {"id": "1", "name": "x", "type": 1},
                                              channel_id=other["channel_id"])
            await twin.send_interaction(missed, alice, settle=False)
            resumed = await _hello(http, ready1["d"]["resume_gateway_url"] + "?v=10&encoding=json")
            await resumed.send_json({"op": 6, "d": {"token": TOKEN, "session_id": ready1["d"]["session_id"],
                                                    "seq": 5}})
            replayed = await _next(resumed)
            assert (replayed["t"], replayed["d"]["id"]) == ("INTERACTION_CREATE", missed["id"])
            assert (await _next(resumed))["t"] == "RESUMED"
            await _nothing(ws0)
            await resumed.close()
        finally:
            await ws0.close()
            await ws1.close()
    assert twin.identified == [(1, 2), (0, 2)] and twin.resumes == 1
    assert twin.violations == []


@pytest.mark.parametrize("shards, shard, code", [
    (2, [2, 2], 4010),        # shard id out of range
    (2, [-1, 2], 4010),
    (1, [0, 0], 4010),        # no shards at all
    (1, "0,1", 4010),         # not [shard_id, shard_count]
    (2, [0, 1], 4011),        # the twin's guilds need 2 shards: one connection is refused
    (2, None, 4011),          # no shard given: shard 0 of 1
])
async def test_an_invalid_shard_or_missing_sharding_is_closed_as_discord_does(shards, shard, code):
    async with Twin(shards=shards) as twin, aiohttp.ClientSession() as http:
        ws = await _hello(http, twin.gateway_url + "?v=10&encoding=json")
        identify = {"token": TOKEN, "intents": 1, "properties": {}}
        if shard is not None:
            identify["shard"] = shard
        await ws.send_json({"op": 2, "d": identify})
        msg = await asyncio.wait_for(ws.receive(), 5)
        assert msg.type == aiohttp.WSMsgType.CLOSE and msg.data == code, msg
        await ws.close()
    assert twin.identifies == 0 and twin.sessions == {}


async def test_a_second_identify_on_one_connection_is_closed_already_authenticated():
    async with Twin(shards=2) as twin, aiohttp.ClientSession() as http:
        ws = await _hello(http, twin.gateway_url + "?v=10&encoding=json")
        identify = {"token": TOKEN, "intents": 1, "properties": {}, "shard": [1, 2]}
        await ws.send_json({"op": 2, "d": identify})
        assert (await _next(ws))["t"] == "READY"
        await ws.send_json({"op": 2, "d": identify})
        msg = await asyncio.wait_for(ws.receive(), 5)
        assert msg.type == aiohttp.WSMsgType.CLOSE and msg.data == 4005, msg
        await ws.close()
    assert twin.identifies == 1 and twin.violations == ["IDENTIFY sent twice on one connection"]
