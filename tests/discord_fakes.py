"""A fake Discord for driving discord.py's REAL objects without a token or a network.

How it works
------------
discord.py sends every REST call — bot calls through :class:`discord.http.HTTPClient` and
interaction responses / followups / original-response edits through the webhook adapter — via
one ``aiohttp.ClientSession``.  :func:`install` replaces that session with :class:`FakeSession`,
so everything above it (Route building, JSON/multipart encoding, status handling, raising
``discord.Forbidden``/``NotFound`` from 403/404 bodies, ratelimit bookkeeping, Message
parsing) is discord.py's own code.  :class:`FakeDiscord` answers each request like Discord
would (message objects with ids, DM channels, threads, interaction callbacks with
``with_response``, webhook followups) and records every call as a :class:`Request`
(method, path, JSON payload, uploaded files).

Incoming events are gateway-shaped ``INTERACTION_CREATE`` payloads handed to
``bot._connection.parse_interaction_create`` — the exact entry point the gateway uses — so the
command tree, autocomplete and DynamicItem dispatch all run for real.  :meth:`FakeDiscord.settle`
then waits for the tasks that dispatch spawned.

Switches: ``fake.closed_dms.add(user_id)`` makes DMs to that user fail with 403/50007;
``fake.delete_channel(id)`` / ``fake.delete_message(id)`` make later calls 404 (10003/10008).
"""
from __future__ import annotations

import asyncio
import copy
import datetime as dt
import itertools
import json
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import discord  # noqa: E402
from discord import utils  # noqa: E402
from multidict import CIMultiDict

from data.sqlite_store import CHECKPOINT_TASK  # noqa: E402
from tests.e2e.twin_v2 import controls as v2_controls, is_v2, pictures_of, texts as v2_texts  # noqa: E402,F401

API_PREFIX = re.compile(r"^https://discord\.com/api/v\d+")
ALL_PERMISSIONS = str(discord.Permissions.all().value)
MEMBER_PERMISSIONS = str(discord.Permissions(
    view_channel=True, send_messages=True, send_messages_in_threads=True, read_message_history=True,
    use_application_commands=True, embed_links=True, attach_files=True).value)


def _now_iso() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat()


@dataclass
class Request:
    method: str
    path: str
    json: Any = None
    files: list[tuple[str, bytes]] = field(default_factory=list)
    params: dict | None = None
    status: int = 200


@dataclass
class Reply:
    """What the invoking user saw from one interaction."""
    interaction: "IxRecord"

    @property
    def messages(self) -> list[dict]:
        return self.interaction.replies


@dataclass
class IxRecord:
    """One interaction we sent, and everything Discord saw in response to it."""
    payload: dict
    response_type: int | None = None
    original_id: int | None = None
    replies: list[dict] = field(default_factory=list)     # message snapshots, in order
    choices: list[dict] | None = None                       # autocomplete result

    @property
    def token(self) -> str:
        return self.payload["token"]

    @property
    def last(self) -> dict | None:
        return self.replies[-1] if self.replies else None

    @property
    def text(self) -> str:
        return "\n".join(message_text(m) for m in self.replies)

    @property
    def ephemeral(self) -> bool:
        return bool(self.last and self.last.get("flags", 0) & 64)

    @property
    def files(self) -> list[str]:
        return [a["filename"] for m in self.replies for a in m.get("attachments", [])]


def message_text(m: dict | None) -> str:
    """Content plus every embed's visible text, plus (a Components V2 message) the text of its
    text displays, in containers and sections too."""
    if not m:
        return ""
    parts = [m.get("content") or ""]
    for e in m.get("embeds") or []:
        parts += [e.get("title") or "", e.get("description") or ""]
        for f in e.get("fields") or []:
            parts += [f.get("name") or "", f.get("value") or ""]
        if e.get("footer"):
            parts.append(e["footer"].get("text") or "")
    if is_v2(m):
        parts += v2_texts(m.get("components"))
    return "\n".join(p for p in parts if p)


def controls_of(m: dict) -> list[dict]:
    """The buttons and selects of a message: its rows' items, and in a Components V2 message
    those inside its containers too."""
    return v2_controls(m.get("components"))


def custom_ids(m: dict) -> list[str]:
    return [c["custom_id"] for c in controls_of(m) if c.get("custom_id")]


def component(m: dict, pattern: str) -> dict | None:
    rx = re.compile(pattern)
    return next((c for c in controls_of(m) if c.get("custom_id") and rx.search(c["custom_id"])), None)


class _Resp:
    def __init__(self, status: int, data: Any) -> None:
        self.status = status
        self.reason = {200: "OK", 204: "No Content", 400: "Bad Request", 403: "Forbidden",
                       404: "Not Found"}.get(status, "?")
        self.headers = CIMultiDict({"content-type": "application/json"} if data is not None else {})
        self._text = "" if data is None else json.dumps(data)

    async def text(self, encoding: str | None = None) -> str:
        return self._text

    async def json(self) -> Any:
        return json.loads(self._text) if self._text else None

    async def read(self) -> bytes:
        return self._text.encode()

    def release(self) -> None:
        pass


class _Ctx:
    def __init__(self, coro: Any) -> None:
        self._coro = coro

    async def __aenter__(self) -> _Resp:
        return await self._coro

    async def __aexit__(self, *exc: Any) -> None:
        return None


class FakeSession:
    """Stands in for aiohttp.ClientSession under discord.py's HTTP client and webhook adapter."""

    def __init__(self, discord_: "FakeDiscord") -> None:
        self.discord = discord_
        self.closed = False

    def request(self, method: str, url: str, **kwargs: Any) -> _Ctx:
        return _Ctx(self.discord.handle(method, url, kwargs))

    def get(self, url: str, **kwargs: Any) -> _Ctx:
        return self.request("GET", url, **kwargs)

    async def ws_connect(self, *a: Any, **k: Any) -> Any:
        raise RuntimeError("the fake Discord has no gateway; dispatch payloads instead")

    async def close(self) -> None:
        self.closed = True


def _decode_body(data: Any) -> tuple[Any, list[tuple[str, bytes]]]:
    if data is None:
        return None, []
    if isinstance(data, (str, bytes)):
        return (json.loads(data) if data else None), []
    fields = getattr(data, "_fields", None)
    if fields is None:
        return None, []
    payload, files = None, []
    for type_options, _headers, value in fields:
        name = type_options.get("name")
        if name == "payload_json":
            payload = json.loads(value)
        elif type_options.get("filename"):
            raw = value.read() if hasattr(value, "read") else bytes(value)
            if hasattr(value, "seek"):
                value.seek(0)
            files.append((type_options["filename"], raw))
    return payload, files


class HTTPError(Exception):
    def __init__(self, status: int, code: int, message: str) -> None:
        self.status, self.code, self.message = status, code, message


class FakeDiscord:
    """A tiny in-memory Discord: one guild, channels, threads, DMs, messages, interactions."""

    def __init__(self, *, guild_id: int = 5000, app_id: int = 9000) -> None:
        self._ids = itertools.count(1)
        self.guild_id = guild_id
        self.app_id = app_id
        self.bot_user = {"id": str(app_id), "username": "TableBot", "discriminator": "0",
                         "global_name": "TableBot", "avatar": None, "bot": True}
        self.users: dict[int, dict] = {}
        self.channels: dict[int, dict] = {}
        self.messages: dict[int, dict] = {}
        self.deleted_channels: set[int] = set()
        self.deleted_messages: set[int] = set()
        self.closed_dms: set[int] = set()
        self.forbidden_channels: set[int] = set()
        self.no_threads: set[int] = set()
        self.requests: list[Request] = []
        self.unhandled: list[Request] = []
        self.interactions: dict[str, IxRecord] = {}
        self.thread_members: dict[int, set[int]] = {}
        self.synced: list[Any] = []
        self.channel = self.text_channel("general")

    # ------------------------------------------------------------------ ids and objects
    def snowflake(self) -> int:
        return utils.time_snowflake(dt.datetime.now(dt.timezone.utc)) + next(self._ids)

    def user(self, name: str, user_id: int | None = None) -> dict:
        uid = user_id or self.snowflake()
        u = {"id": str(uid), "username": name.lower(), "discriminator": "0", "global_name": name,
             "avatar": None, "bot": False}
        self.users[uid] = u
        return u

    def text_channel(self, name: str) -> dict:
        cid = self.snowflake()
        ch = {"id": str(cid), "type": 0, "guild_id": str(self.guild_id), "name": name, "position": 0,
              "permission_overwrites": [], "nsfw": False, "parent_id": None, "topic": None,
              "last_message_id": None, "rate_limit_per_user": 0}
        self.channels[cid] = ch
        return ch

    def thread(self, parent_id: int, name: str, thread_id: int | None = None) -> dict:
        tid = thread_id or self.snowflake()
        th = {"id": str(tid), "type": 11, "guild_id": str(self.guild_id), "name": name[:100],
              "parent_id": str(parent_id), "owner_id": self.bot_user["id"], "member_count": 1,
              "message_count": 0, "rate_limit_per_user": 0, "flags": 0,
              "thread_metadata": {"archived": False, "auto_archive_duration": 1440,
                                  "archive_timestamp": _now_iso(), "locked": False}}
        self.channels[tid] = th
        return th

    def delete_channel(self, channel_id: int) -> None:
        self.deleted_channels.add(int(channel_id))

    def delete_message(self, message_id: int) -> None:
        self.deleted_messages.add(int(message_id))

    def threads(self) -> list[dict]:
        return [c for c in self.channels.values() if c["type"] in (10, 11, 12)]

    def posts(self, channel_id: int | str | None = None) -> list[dict]:
        """Messages the bot posted for everyone to see (current state, after edits): through the
        channel API, or as an interaction's public follow-up (a board after a tap in the thread)."""
        out = [m for m in self.messages.values() if int(m["id"]) not in self.deleted_messages
               and (m.get("_via") == "channel" or (m.get("_via") == "followup" and not m.get("flags", 0) & 64))]
        if channel_id is not None:
            out = [m for m in out if m["channel_id"] == str(channel_id)]
        return out

    def dms(self, user_id: int) -> list[dict]:
        chans = {cid for cid, c in self.channels.items()
                 if c["type"] == 1 and c["recipients"][0]["id"] == str(user_id)}
        return [m for m in self.messages.values() if int(m["channel_id"]) in chans]

    def calls(self, method: str, pattern: str) -> list[Request]:
        rx = re.compile(pattern)
        return [r for r in self.requests if r.method == method and rx.search(r.path)]

    def _message(self, channel_id: int, payload: dict | None, files: list[tuple[str, bytes]],
                 *, via: str, flags: int = 0) -> dict:
        payload = payload or {}
        mid = self.snowflake()
        ch = self.channels.get(channel_id, {})
        m = {"id": str(mid), "channel_id": str(channel_id), "author": self.bot_user,
             "content": payload.get("content") or "", "timestamp": _now_iso(), "edited_timestamp": None,
             "tts": False, "mention_everyone": False, "mentions": [], "mention_roles": [],
             "attachments": self._attachments(payload, files), "embeds": payload.get("embeds") or [],
             "pinned": False, "type": 0, "flags": int(payload.get("flags") or 0) | flags,
             "components": payload.get("components") or [], "_via": via,
             "_allowed_mentions": payload.get("allowed_mentions")}
        if ch.get("guild_id"):
            m["guild_id"] = ch["guild_id"]
        self.messages[mid] = m
        return m

    def _attachments(self, payload: dict, files: list[tuple[str, bytes]]) -> list[dict]:
        out = []
        for name, raw in files:
            aid = self.snowflake()
            out.append({"id": str(aid), "filename": name, "size": len(raw),
                        "url": f"https://cdn.example/{aid}/{name}", "proxy_url": f"https://cdn.example/{aid}/{name}",
                        "_bytes": raw})
        return out

    def _edit(self, m: dict, payload: dict | None, files: list[tuple[str, bytes]]) -> dict:
        payload = payload or {}
        for key in ("content", "embeds", "components"):
            if key in payload:
                m[key] = payload[key] if payload[key] is not None else ([] if key != "content" else "")
        if "flags" in payload and payload["flags"] is not None:
            m["flags"] = (m.get("flags", 0) & 64) | int(payload["flags"])
        if "attachments" in payload or files:
            keep_ids = {str(a.get("id")) for a in payload.get("attachments") or []}
            kept = [a for a in m.get("attachments", []) if a["id"] in keep_ids]
            m["attachments"] = kept + self._attachments(payload, files)
        if "allowed_mentions" in payload:
            m["_allowed_mentions"] = payload["allowed_mentions"]
        m["edited_timestamp"] = _now_iso()
        return m

    @staticmethod
    def public(m: dict) -> dict:
        """A message as Discord returns it (our bookkeeping keys removed)."""
        out = {k: v for k, v in m.items() if not k.startswith("_")}
        out["attachments"] = [{k: v for k, v in a.items() if not k.startswith("_")}
                              for a in m.get("attachments", [])]
        return copy.deepcopy(out)

    # ------------------------------------------------------------------ HTTP entry point
    async def handle(self, method: str, url: str, kwargs: dict) -> _Resp:
        await asyncio.sleep(0)
        split = urlsplit(API_PREFIX.sub("", url))
        path = split.path
        payload, files = _decode_body(kwargs.get("data"))
        req = Request(method, path, payload, files, kwargs.get("params"))
        self.requests.append(req)
        try:
            status, data = self._route(method, path, payload, files, kwargs.get("params") or {})
        except HTTPError as err:
            req.status = err.status
            return _Resp(err.status, {"message": err.message, "code": err.code})
        req.status = status
        return _Resp(status, data)

    def _check_channel(self, cid: int) -> dict:
        if cid in self.deleted_channels:
            raise HTTPError(404, 10003, "Unknown Channel")
        if cid in self.forbidden_channels:
            raise HTTPError(403, 50001, "Missing Access")
        ch = self.channels.get(cid)
        if ch is None:  # a channel we did not model: treat as a plain text channel
            ch = {"id": str(cid), "type": 0, "guild_id": str(self.guild_id), "name": f"c{cid}",
                  "position": 0, "permission_overwrites": [], "nsfw": False, "parent_id": None}
            self.channels[cid] = ch
        return ch

    def _check_message(self, cid: int, mid: int) -> dict:
        self._check_channel(cid)
        m = self.messages.get(mid)
        if m is None or mid in self.deleted_messages or m["channel_id"] != str(cid):
            raise HTTPError(404, 10008, "Unknown Message")
        return m

    def _route(self, method: str, path: str, payload: Any, files: list, params: dict) -> tuple[int, Any]:
        m = re.fullmatch
        if method == "GET" and path == "/users/@me":
            return 200, self.bot_user
        if method == "GET" and path == "/oauth2/applications/@me":
            return 200, {"id": str(self.app_id), "name": "TableBot", "icon": None, "description": "",
                         "rpc_origins": [], "bot_public": True, "bot_require_code_grant": False,
                         "owner": self.bot_user, "summary": "", "verify_key": "00", "team": None,
                         "flags": 0}
        if (g := m(r"/applications/(\d+)(?:/guilds/(\d+))?/commands", path)) and method == "PUT":
            self.synced.append((g.group(2), payload))
            return 200, [dict(c, id=str(self.snowflake()), application_id=str(self.app_id), version="1",
                              default_member_permissions=c.get("default_member_permissions"))
                         for c in payload]
        if (g := m(r"/channels/(\d+)/messages", path)) and method == "POST":
            cid = int(g.group(1))
            ch = self._check_channel(cid)
            if ch["type"] == 1 and int(ch["recipients"][0]["id"]) in self.closed_dms:
                raise HTTPError(403, 50007, "Cannot send messages to this user")
            return 200, self.public(self._message(cid, payload, files, via="channel"))
        if g := m(r"/channels/(\d+)/messages/(\d+)", path):
            cid, mid = int(g.group(1)), int(g.group(2))
            msg = self._check_message(cid, mid)
            if method == "PATCH":
                return 200, self.public(self._edit(msg, payload, files))
            if method == "DELETE":
                self.deleted_messages.add(mid)
                return 204, None
            if method == "GET":
                return 200, self.public(msg)
        if (g := m(r"/channels/(\d+)/messages/(\d+)/threads", path)) and method == "POST":
            cid, mid = int(g.group(1)), int(g.group(2))
            ch = self._check_channel(cid)
            if ch["type"] in (1, 10, 11, 12) or cid in self.no_threads:
                raise HTTPError(400, 50024, "Cannot execute action on this channel type")
            self._check_message(cid, mid)
            # Discord gives a thread started from a message the message's id
            return 200, copy.deepcopy(self.thread(cid, payload["name"], thread_id=mid))
        if (g := m(r"/channels/(\d+)/threads", path)) and method == "POST":
            cid = int(g.group(1))
            ch = self._check_channel(cid)
            if ch["type"] in (1, 10, 11, 12) or cid in self.no_threads:
                raise HTTPError(400, 50024, "Cannot execute action on this channel type")
            return 200, copy.deepcopy(self.thread(cid, payload["name"]))
        if (g := m(r"/channels/(\d+)/thread-members/(\d+)", path)) and method == "PUT":
            self._check_channel(int(g.group(1)))
            self.thread_members.setdefault(int(g.group(1)), set()).add(int(g.group(2)))
            return 204, None
        if (g := m(r"/channels/(\d+)", path)) and method == "GET":
            return 200, copy.deepcopy(self._check_channel(int(g.group(1))))
        if method == "POST" and path == "/users/@me/channels":
            uid = int(payload["recipient_id"])
            for ch in self.channels.values():
                if ch["type"] == 1 and ch["recipients"][0]["id"] == str(uid):
                    return 200, copy.deepcopy(ch)
            cid = self.snowflake()
            user = self.users.get(uid) or self.user(f"user{uid}", uid)
            ch = {"id": str(cid), "type": 1, "recipients": [user], "last_message_id": None}
            self.channels[cid] = ch
            return 200, copy.deepcopy(ch)
        if (g := m(r"/interactions/(\d+)/([^/]+)/callback", path)) and method == "POST":
            return self._callback(g.group(2), payload, files)
        if g := m(r"/webhooks/(\d+)/([^/]+)/messages/(@original|\d+)", path):
            return self._webhook_message(method, g.group(2), g.group(3), payload, files)
        if (g := m(r"/webhooks/(\d+)/([^/]+)", path)) and method == "POST":
            return self._followup(g.group(2), payload, files)
        req = Request(method, path, payload, files)
        self.unhandled.append(req)
        raise HTTPError(400, 0, f"fake Discord has no route for {method} {path}")

    # ------------------------------------------------------------------ interactions
    def _ix(self, token: str) -> IxRecord:
        ix = self.interactions.get(token)
        if ix is None:
            raise HTTPError(404, 10015, "Unknown Webhook")
        return ix

    def _snap(self, ix: IxRecord, msg: dict) -> None:
        ix.replies.append(self.public(msg))

    def _callback(self, token: str, payload: dict, files: list) -> tuple[int, Any]:
        ix = self._ix(token)
        if ix.response_type is not None:
            raise HTTPError(400, 40060, "Interaction has already been acknowledged.")
        t = payload["type"]
        data = payload.get("data") or {}
        ix.response_type = t
        cid = int(ix.payload["channel_id"])
        message = None
        if t == 4:
            message = self._message(cid, data, files, via="interaction")
            ix.original_id = int(message["id"])
            self._snap(ix, message)
        elif t == 5:
            message = self._message(cid, {"content": "", "flags": data.get("flags", 0)}, [],
                                    via="interaction", flags=128)
            ix.original_id = int(message["id"])
        elif t in (6, 7):
            source = ix.payload.get("message")
            if source is None:
                raise HTTPError(400, 50035, "component response without a message")
            stored = self.messages.get(int(source["id"]))
            if stored is None:
                raise HTTPError(404, 10008, "Unknown Message")
            ix.original_id = int(stored["id"])
            if t == 7:
                message = self._edit(stored, data, files)
                self._snap(ix, message)
        elif t == 8:
            ix.choices = data.get("choices", [])
        else:
            raise HTTPError(400, 50035, f"callback type {t} not modelled")
        body = {"interaction": {"id": ix.payload["id"], "type": ix.payload["type"],
                                "response_message_id": str(ix.original_id) if ix.original_id else None,
                                "response_message_loading": t == 5,
                                "response_message_ephemeral": bool(
                                    (message or {}).get("flags", 0) & 64 or data.get("flags", 0) & 64)},
                "resource": {"type": t}}
        if message is not None and t in (4, 7):
            body["resource"]["message"] = self.public(message)
        return 200, body

    def _webhook_message(self, method: str, token: str, which: str, payload: Any, files: list) -> tuple[int, Any]:
        ix = self._ix(token)
        mid = ix.original_id if which == "@original" else int(which)
        msg = self.messages.get(mid) if mid else None
        if msg is None or mid in self.deleted_messages:
            raise HTTPError(404, 10008, "Unknown Message")
        if method == "GET":
            return 200, self.public(msg)
        if method == "DELETE":
            self.deleted_messages.add(mid)
            return 204, None
        msg["flags"] = msg.get("flags", 0) & ~128
        self._edit(msg, payload, files)
        self._snap(ix, msg)
        return 200, self.public(msg)

    def _followup(self, token: str, payload: Any, files: list) -> tuple[int, Any]:
        ix = self._ix(token)
        original = self.messages.get(ix.original_id) if ix.original_id else None
        if ix.response_type == 5 and original is not None and original.get("flags", 0) & 128:
            # the first followup after a "thinking" defer replaces the thinking message
            original["flags"] = original.get("flags", 0) & ~128
            self._edit(original, payload, files)
            self._snap(ix, original)
            return 200, self.public(original)
        msg = self._message(int(ix.payload["channel_id"]), payload, files, via="followup")
        self._snap(ix, msg)
        return 200, self.public(msg)

    # ------------------------------------------------------------------ building interactions
    def _channel_payload(self, channel_id: int | str | None) -> dict:
        cid = int(channel_id) if channel_id is not None else int(self.channel["id"])
        return copy.deepcopy(self._check_channel_quiet(cid))

    def _check_channel_quiet(self, cid: int) -> dict:
        return self.channels.get(cid) or {"id": str(cid), "type": 0, "guild_id": str(self.guild_id),
                                          "name": f"c{cid}", "position": 0, "permission_overwrites": [],
                                          "nsfw": False, "parent_id": None}

    def interaction_payload(self, type_: int, user: dict, data: dict, *, channel_id: Any = None,
                            locale: str = "en-US", guild_locale: str = "en-US", message: dict | None = None,
                            permissions: str = MEMBER_PERMISSIONS, dm: bool = False) -> dict:
        iid = self.snowflake()
        payload: dict[str, Any] = {
            "id": str(iid), "application_id": str(self.app_id), "type": type_, "token": f"tok-{iid}",
            "version": 1, "data": data, "locale": locale, "app_permissions": ALL_PERMISSIONS,
            "entitlements": [], "attachment_size_limit": 8 * 1024 * 1024,
        }
        if dm:
            ch = channel_id or self._dm_for(user)
            payload.update(channel_id=str(ch), channel=copy.deepcopy(self.channels[int(ch)]), user=user,
                           context=1, authorizing_integration_owners={"1": user["id"]})
        else:
            ch = self._channel_payload(channel_id)
            payload.update(guild_id=str(self.guild_id), guild_locale=guild_locale, channel_id=ch["id"],
                           channel=ch, context=0, authorizing_integration_owners={"0": str(self.guild_id)},
                           member={"user": user, "roles": [], "joined_at": _now_iso(), "deaf": False,
                                   "mute": False, "flags": 0, "permissions": permissions})
        if message is not None:
            payload["message"] = self.public(message)
        return payload

    def _dm_for(self, user: dict) -> int:
        for cid, ch in self.channels.items():
            if ch["type"] == 1 and ch["recipients"][0]["id"] == user["id"]:
                return cid
        cid = self.snowflake()
        self.channels[cid] = {"id": str(cid), "type": 1, "recipients": [user], "last_message_id": None}
        return cid

    async def dispatch(self, bot: Any, payload: dict) -> IxRecord:
        ix = IxRecord(payload)
        self.interactions[payload["token"]] = ix
        before = set(asyncio.all_tasks())
        bot._connection.parse_interaction_create(payload)
        await self.settle(before)
        return ix

    async def settle(self, before: set | None = None, timeout: float = 20.0) -> None:
        """Wait until every task started since ``before`` is done (nested ones too).

        View timeout timers are not waited for: discord.py gives every ephemeral view a
        15-minute timeout task that simply sleeps; nor a store's own background task (an SQLite
        store opened meanwhile copies its log back until it is closed)."""
        before = before or set()
        me = asyncio.current_task()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            await asyncio.sleep(0)
            pending = [t for t in asyncio.all_tasks() if t is not me and t not in before and not t.done()
                       and "timeout_task_impl" not in getattr(t.get_coro(), "__qualname__", "")
                       and t.get_name() != CHECKPOINT_TASK]
            if not pending:
                return
            left = deadline - loop.time()
            if left <= 0:
                raise AssertionError(f"tasks did not finish: {pending}")
            await asyncio.wait(pending, timeout=left)

    # -- application commands
    def _command_data(self, bot: Any, path: str, options: dict[str, Any], focused: str | None) -> dict:
        names = path.split()
        cmd = bot.tree.get_command(names[0])
        if cmd is None:
            raise KeyError(f"no command {names[0]!r}")
        chain = [cmd]
        for name in names[1:]:
            cmd = cmd.get_command(name)
            if cmd is None:
                raise KeyError(f"no subcommand {path!r}")
            chain.append(cmd)
        resolved: dict[str, dict] = {}
        opts = []
        params = {p.display_name: p for p in cmd.parameters}
        params.update({p.name: p for p in cmd.parameters})
        for key, value in options.items():
            param = params[key]
            opt: dict[str, Any] = {"name": param.display_name, "type": param.type.value}
            if param.type is discord.AppCommandOptionType.user:
                user = value
                opt["value"] = user["id"]
                resolved.setdefault("users", {})[user["id"]] = user
                resolved.setdefault("members", {})[user["id"]] = {
                    "roles": [], "joined_at": _now_iso(), "deaf": False, "mute": False, "flags": 0,
                    "permissions": MEMBER_PERMISSIONS}
            else:
                opt["value"] = value
            if focused == key or focused == param.display_name:
                opt["focused"] = True
            opts.append(opt)
        for sub in reversed(chain[1:]):
            opts = [{"type": 1, "name": sub.name, "options": opts}]
        data: dict[str, Any] = {"id": str(self.snowflake()), "name": chain[0].name, "type": 1, "options": opts}
        if resolved:
            data["resolved"] = resolved
        return data

    async def slash(self, bot: Any, user: dict, path: str, *, locale: str = "en-US",
                    guild_locale: str = "en-US", channel_id: Any = None, permissions: str = MEMBER_PERMISSIONS,
                    dm: bool = False, **options: Any) -> IxRecord:
        data = self._command_data(bot, path, options, None)
        payload = self.interaction_payload(2, user, data, channel_id=channel_id, locale=locale,
                                           guild_locale=guild_locale, permissions=permissions, dm=dm)
        return await self.dispatch(bot, payload)

    async def autocomplete(self, bot: Any, user: dict, path: str, focused: str, *, locale: str = "en-US",
                           channel_id: Any = None, **options: Any) -> list[dict]:
        data = self._command_data(bot, path, options, focused)
        payload = self.interaction_payload(4, user, data, channel_id=channel_id, locale=locale)
        ix = await self.dispatch(bot, payload)
        return ix.choices or []

    # -- components
    async def click(self, bot: Any, user: dict, message: dict, custom_id: str, *, locale: str = "en-US",
                    guild_locale: str = "en-US", values: list[str] | None = None) -> IxRecord:
        """Press a button (or pick ``values`` in a select) on a message as ``user``."""
        stored = self.messages.get(int(message["id"]), message)
        comp = component(stored, "^" + re.escape(custom_id) + "$")
        if comp is None:
            raise AssertionError(f"{custom_id!r} is not on message {message['id']}: {custom_ids(stored)}")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": comp["type"]}
        if values is not None:
            data["values"] = values
        ch_id = stored["channel_id"]
        dm = self.channels.get(int(ch_id), {}).get("type") == 1
        payload = self.interaction_payload(3, user, data, channel_id=ch_id, locale=locale,
                                           guild_locale=guild_locale, message=stored, dm=dm)
        return await self.dispatch(bot, payload)

    async def click_raw(self, bot: Any, user: dict, message: dict, custom_id: str, **kw: Any) -> IxRecord:
        """Press a button whose custom_id is given verbatim (e.g. from an old message)."""
        return await self.click(bot, user, message, custom_id, **kw)


def install(bot: Any, fake: FakeDiscord) -> None:
    """Route all of ``bot``'s HTTP (REST and interaction webhooks) into ``fake``."""
    http = bot.http

    async def static_login(token: str) -> Any:
        http._HTTPClient__session = FakeSession(fake)
        http._global_over = asyncio.Event()
        http._global_over.set()
        http.token = token
        return await http.request(discord.http.Route("GET", "/users/@me"))

    http.static_login = static_login


async def start_bot(fake: FakeDiscord, store: Any, host: Any) -> Any:
    """A logged-in bot (setup_hook ran: cogs, translator, dynamic items) on the fake Discord."""
    import bot as bot_module

    config = bot_module.Config(token="fake-token", sync_commands=False, clock=False)
    bot = bot_module.make_bot(config, store=store, host=host)
    install(bot, fake)
    await bot.login("fake-token")
    await bot.on_ready()
    return bot


# ---------------------------------------------------------------------------- test environment
class Clock:
    """A hand-driven clock for the host (``now=clock``)."""

    def __init__(self, t: float = 1_700_000_000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


@dataclass
class Env:
    fake: FakeDiscord
    bot: Any
    store: Any
    host: Any
    clock: Clock
    db_path: str
    render: bool
    alice: dict = field(default_factory=dict)
    bob: dict = field(default_factory=dict)
    carol: dict = field(default_factory=dict)

    async def close(self) -> None:
        await self.bot.close()
        await self.store.close()

    async def restart(self) -> None:
        """Stop the bot and start a fresh bot + Host + store on the same database."""
        from data.store import open_store
        from host import Host

        await self.close()
        self.store = await open_store(self.db_path)
        self.host = Host(self.store, now=self.clock, render=self.render)
        self.bot = await start_bot(self.fake, self.store, self.host)

    async def refs(self, match_id: int) -> dict:
        return await self.store.get_refs(match_id)

    async def board(self, match_id: int) -> dict:
        """The current board message of a match (as the fake Discord holds it)."""
        ref = (await self.refs(match_id))["board"]
        return self.fake.messages[int(ref.split(":")[1])]

    async def match(self, match_id: int) -> Any:
        return await self.store.get_match(match_id)

    async def play(self, user: dict, **options: Any) -> IxRecord:
        return await self.fake.slash(self.bot, user, "play", **options)

    async def start(self, options: str = "first=1", game: str = "squares", **kw: Any) -> int:
        """Alice challenges Bob, Bob accepts; returns the match id."""
        ix = await self.play(self.alice, game=game, opponent=self.bob, options=options, **kw)
        assert "#" in ix.text, ix.text
        match_id = max(m.id for m in await self.store.matches_for_user(int(self.alice["id"])))
        board = await self.board(match_id)
        await self.fake.click(self.bot, self.bob, board, f"m:{match_id}:accept")
        return match_id


async def make_env(tmp_path: Any, *, render: bool = False, gif: bool = False) -> Env:
    """The bot on a :class:`FakeDiscord`, pictures off unless ``render``.  The end-of-match
    animated picture is off too unless ``gif`` (the server setting ``/settings gif``, set before
    the bot starts): drawn in a worker process after every finished match, it cost CPU that no test
    here looks at (8 of the 12.7 CPU-seconds of tests/test_cogs_every_game.py; the end-to-end
    tests post and read it, and ``/match gif`` draws it on demand whatever the setting)."""
    from data.store import open_store
    from host import Host

    db_path = str(tmp_path / "bot.sqlite3")
    store = await open_store(db_path)
    fake = FakeDiscord()
    if not gif:
        await store.set_guild_setting(fake.guild_id, "gif", False)
    clock = Clock()
    host = Host(store, now=clock, render=render)
    bot = await start_bot(fake, store, host)
    return Env(fake, bot, store, host, clock, db_path, render,
               alice=fake.user("Alice"), bob=fake.user("Bob"), carol=fake.user("Carol"))
