"""The twin itself: it refuses what Discord refuses (so the scenarios can trust a silence), and it
only ever listens on loopback.  No bot process here: plain HTTP requests at the twin."""
from __future__ import annotations

import json
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
    assert "50007" not in kinds and "429" not in kinds
    assert any("50007" in r for r in twin.refusals) and any(r.startswith("429") for r in twin.refusals)
