"""The Discord twin's REST side (a mixin of :class:`tests.e2e.twin.Twin`): routing, rate limits,
messages, threads, DM channels, permissions checks, interaction callbacks and webhooks."""
from __future__ import annotations

import copy
import json
import re
import time
from typing import Any

from aiohttp import web

from .twin_v2 import store_v2
from .twin_limits import (
    ATTACH_FILES, CREATE_PUBLIC_THREADS, EMBED_LINKS, EPHEMERAL, LOADING, OLD_EDIT_RETRY, SEND_IN_THREADS,
    SEND_MESSAGES, TOKEN, TOKEN_LIFETIME, check_commands, check_message, check_modal, Interaction, _json, OldEdit,
    Reject, Request, now_iso,
)


class TwinRest:
    """REST routes of the twin (see the module doc)."""

    # ------------------------------------------------------------------ REST
    async def _rest(self, request: web.Request) -> web.StreamResponse:
        if request.remote not in ("127.0.0.1", "::1"):
            raise web.HTTPForbidden()
        self.activity()
        path = "/" + request.match_info["tail"]
        payload, files = await self._body(request)
        req = Request(request.method, path, payload, files, dict(request.query), at=time.monotonic())
        self.requests.append(req)
        try:
            for rule in self._limits:
                if rule["left"] > 0 and rule["method"] == request.method and rule["rx"].search(path):
                    rule["left"] -= 1
                    rule["hits"].append(time.monotonic())
                    self.refusals.append(f"429 {request.method} {path}")
                    req.status = 429
                    return _json(
                        {"message": "You are being rate limited.", "retry_after": rule["retry_after"],
                         "global": False}, status=429,
                        headers={"Via": "1.1 google", "Retry-After": str(rule["retry_after"]),
                                 "X-RateLimit-Scope": "user"})
            if not self._authorized(request, path):
                raise Reject(401, 0, "401: Unauthorized")
            limited, rate_headers = self._rate(request.method, path)
            if limited is not None:
                req.status = 429
                return limited
            status, data = await self._route(request.method, path, payload, files, request.query)
        except OldEdit:
            req.status = 429
            self.refusals.append(f"429 30046 {request.method} {path}: an edit of a message older than an hour")
            return _json({"message": "Maximum number of edits to messages older than 1 hour reached. Try again later",
                          "code": 30046, "retry_after": OLD_EDIT_RETRY, "global": False}, status=429,
                         headers={"Retry-After": str(OLD_EDIT_RETRY), "X-RateLimit-Scope": "shared"})
        except Reject as err:
            req.status = err.status
            what = f"{err.status} {err.code} {request.method} {path}: {err.message}"
            if err.errors:
                what += " — " + "; ".join(err.errors)
            (self.violations if err.violation else self.refusals).append(what)
            body: dict[str, Any] = {"message": err.message, "code": err.code}
            if err.errors:
                body["errors"] = {"_errors": [{"code": "BASE_TYPE_INVALID", "message": e} for e in err.errors]}
            return _json(body, status=err.status)
        finally:
            self.activity()
        req.status = status
        if data is None:
            return web.Response(status=status, headers=rate_headers)
        return _json(data, status=status, headers=rate_headers or None)

    def invalid_requests(self, window: float = 600.0, *, path: str = "") -> int:
        """Requests Discord counts as invalid (answered 401, 403 or 429) in the last ``window``
        seconds, optionally only those whose path matches ``path``: Cloudflare bans a bot's IP
        at 10,000 in 10 minutes, so a bot must not spend them on something it could know."""
        now = time.monotonic()
        rx = re.compile(path) if path else None
        return sum(1 for r in self.requests if r.status in (401, 403, 429) and now - r.at <= window
                   and (rx is None or rx.search(r.path)))

    def _authorized(self, request: web.Request, path: str) -> bool:
        if path.startswith(("/interactions/", "/webhooks/")):
            return True   # interaction tokens authorize these
        return request.headers.get("Authorization") == f"Bot {TOKEN}"

    async def _body(self, request: web.Request) -> tuple[Any, list[tuple[str, bytes]]]:
        if not request.can_read_body:
            return None, []
        if request.content_type.startswith("multipart/"):
            payload, files = None, []
            reader = await request.multipart()
            for _ in range(64):
                part = await reader.next()
                if part is None:
                    break
                raw = await part.read()
                if part.name == "payload_json":
                    payload = json.loads(raw)
                elif part.filename:
                    files.append((part.filename, bytes(raw)))
            return payload, files
        raw = await request.read()
        return (json.loads(raw) if raw else None), []

    async def _route(self, method: str, path: str, payload: Any, files: list, query: Any) -> tuple[int, Any]:
        m = re.fullmatch
        self.check_reach(method, path)      # a group DM, a server without the bot: 403 (twin_user_app.py)
        if method == "GET" and path == "/users/@me":
            return 200, self.bot_user
        if method == "GET" and path == "/gateway/bot":
            # the shard count Discord recommends, and how many IDENTIFYs are left today
            return 200, {"url": self.gateway_url, "shards": self.shard_count,
                         "session_start_limit": {"total": 1000, "remaining": max(0, 1000 - self.identifies),
                                                 "reset_after": 86_400_000, "max_concurrency": 1}}
        if method == "GET" and path == "/oauth2/applications/@me":
            return 200, {"id": str(self.app_id), "name": "TableBot", "icon": None, "description": "",
                         "rpc_origins": [], "bot_public": True, "bot_require_code_grant": False,
                         "owner": self.bot_user, "summary": "", "verify_key": "00", "team": None, "flags": 0,
                         "bot": self.bot_user}
        if (g := m(r"/applications/(\d+)(?:/guilds/(\d+))?/commands", path)) and method == "PUT":
            errors = check_commands(payload or [])
            if errors:
                raise Reject(400, 50035, "Invalid Form Body", errors=errors)
            self.commands = [dict(c, id=str(self.snowflake()), application_id=str(self.app_id), version="1")
                             for c in payload]
            return 200, self.commands
        if (g := m(r"/channels/(\d+)/messages", path)) and method == "POST":
            cid = int(g.group(1))
            ch = self._channel(cid)
            if ch["type"] == 1 and int(ch["recipients"][0]["id"]) in self.closed_dms:
                raise Reject(403, 50007, "Cannot send messages to this user", violation=False)
            if ch["type"] != 1:
                need = SEND_IN_THREADS if ch.get("thread_metadata") else SEND_MESSAGES
                if files:
                    need |= ATTACH_FILES
                if (payload or {}).get("embeds"):
                    need |= EMBED_LINKS
                self._require(cid, need)
            self._check(payload, files)
            await self._new_in_thread(cid, ch)
            return 200, self.public(self._new_message(cid, payload, files, via="channel"))
        if (g := m(r"/channels/(\d+)/messages/(\d+)/threads", path)) and method == "POST":
            cid, mid = int(g.group(1)), int(g.group(2))
            ch = self._channel(cid)
            if ch["type"] != 0:
                raise Reject(400, 50024, "Cannot execute action on this channel type")
            self._message_in(cid, mid)
            self._require(cid, CREATE_PUBLIC_THREADS)
            if mid in self.channels:
                raise Reject(400, 160004, "A thread has already been created for this message")
            self._check_name(payload)
            th = self._thread(cid, payload["name"], thread_id=mid, archive_after=payload.get("auto_archive_duration"))
            await self.dispatch("THREAD_CREATE", dict(copy.deepcopy(th), newly_created=True))
            return 201, copy.deepcopy(th)
        if (g := m(r"/channels/(\d+)/threads", path)) and method == "POST":
            cid = int(g.group(1))
            if self._channel(cid)["type"] != 0:
                raise Reject(400, 50024, "Cannot execute action on this channel type")
            self._require(cid, CREATE_PUBLIC_THREADS)
            self._check_name(payload)
            th = self._thread(cid, payload["name"], archive_after=payload.get("auto_archive_duration"))
            await self.dispatch("THREAD_CREATE", dict(copy.deepcopy(th), newly_created=True))
            return 201, copy.deepcopy(th)
        if g := m(r"/channels/(\d+)/messages/(\d+)", path):
            cid, mid = int(g.group(1)), int(g.group(2))
            msg = self._message_in(cid, mid)
            if method == "PATCH":
                self._check(payload, files, create=False, current=msg)
                if files and self._channel(cid)["type"] != 1:
                    self._require(cid, ATTACH_FILES)
                if self._archived(cid):
                    raise Reject(400, 50083, "Thread is archived", violation=False)
                if self.wall() - self.created_at(mid) > 3600:
                    # Discord: edits of messages older than an hour come from a small budget
                    spent = self._old_edits.get(cid, 0)
                    if spent >= self.old_edit_budget:
                        raise OldEdit()
                    self._old_edits[cid] = spent + 1
                if self._channel(cid).get("thread_metadata"):
                    self._thread_active[cid] = self.wall()
                return 200, self.public(self._edit(msg, payload, files))
            if method == "DELETE":
                self.deleted_messages.add(mid)
                return 204, None
            if method == "GET":
                return 200, self.public(msg)
        if (g := m(r"/channels/(\d+)/thread-members/(\d+)", path)) and method == "PUT":
            self._channel(int(g.group(1)))
            if self._archived(int(g.group(1))):
                raise Reject(400, 50083, "Thread is archived", violation=False)
            self.thread_members.setdefault(int(g.group(1)), set()).add(int(g.group(2)))
            return 204, None
        if (g := m(r"/guilds/(\d+)/members/(\d+)", path)) and method == "GET":
            # Discord: a member object, or 404 Unknown Member (10007) for a user who is not one
            guild, uid = self.guilds.get(int(g.group(1))), int(g.group(2))
            if guild is None:
                raise Reject(404, 10004, "Unknown Guild", violation=False)
            if uid not in self.users or (guild.get("members") is not None and uid not in guild["members"]):
                raise Reject(404, 10007, "Unknown Member", violation=False)
            return 200, {"user": copy.deepcopy(self.users[uid]), "roles": [], "joined_at": now_iso(),
                         "deaf": False, "mute": False, "flags": 0}
        if (g := m(r"/channels/(\d+)", path)) and method == "GET":
            return 200, copy.deepcopy(self._channel(int(g.group(1))))
        if (g := m(r"/channels/(\d+)", path)) and method == "PATCH":
            ch = self._channel(int(g.group(1)))
            meta = ch.get("thread_metadata")
            if meta is None:
                raise Reject(404, 0, "the twin models PATCH /channels only for threads")
            if "auto_archive_duration" in (payload or {}):
                if int(payload["auto_archive_duration"]) not in (60, 1440, 4320, 10080):
                    raise Reject(400, 50035, "Invalid Form Body", errors=["auto_archive_duration"])
                meta["auto_archive_duration"] = int(payload["auto_archive_duration"])
            if "archived" in (payload or {}):
                meta["archived"] = bool(payload["archived"])
                meta["archive_timestamp"] = self.iso()
            self._thread_active[int(ch["id"])] = self.wall()
            await self.dispatch("THREAD_UPDATE", copy.deepcopy(ch))
            return 200, copy.deepcopy(ch)
        if method == "POST" and path == "/users/@me/channels":
            uid = int(payload["recipient_id"])
            cid = self.dm_channel_of(uid)
            if cid is None:
                cid = self.snowflake()
                user = self.users.get(uid) or {"id": str(uid), "username": f"user{uid}", "discriminator": "0",
                                               "global_name": None, "avatar": None, "bot": False}
                self.channels[cid] = {"id": str(cid), "type": 1, "recipients": [user], "last_message_id": None}
            return 200, copy.deepcopy(self.channels[cid])
        if (g := m(r"/interactions/(\d+)/([^/]+)/callback", path)) and method == "POST":
            return self._callback(int(g.group(1)), g.group(2), payload, files, query)
        if g := m(r"/webhooks/(\d+)/([^/]+)/messages/(@original|\d+)", path):
            return self._webhook_message(int(g.group(1)), method, g.group(2), g.group(3), payload, files)
        if (g := m(r"/webhooks/(\d+)/([^/]+)", path)) and method == "POST":
            return await self._followup(int(g.group(1)), g.group(2), payload, files)
        if path.startswith("/guilds/") and "/scheduled-events" in path:    # the calendar: tests/e2e/twin_events.py
            return await self._scheduled_events_route(method, path, payload, query)
        raise Reject(404, 0, f"the twin has no route for {method} {path}")

    async def _new_in_thread(self, cid: int, ch: dict) -> None:
        """A new public message in ``ch`` (a post, or an interaction's public follow-up): in a
        thread it unarchives it (a locked one refuses) and counts as the thread's activity."""
        if not ch.get("thread_metadata"):
            return
        if self._archived(cid):
            if ch["thread_metadata"].get("locked"):
                raise Reject(400, 50083, "Thread is archived", violation=False)
            ch["thread_metadata"]["archived"] = False
            await self.dispatch("THREAD_UPDATE", copy.deepcopy(ch))
        self._thread_active[cid] = self.wall()

    def _check(self, payload: Any, files: list, *, create: bool = True, current: dict | None = None) -> None:
        errors = check_message(payload, files, upload_limit=self.upload_limit, create=create, current=current)
        big = [n for n, raw in files if len(raw) > self.upload_limit]
        if big:
            raise Reject(413, 40005, "Request entity too large", errors=errors)
        if errors:
            raise Reject(400, 50035, "Invalid Form Body", errors=errors)

    @staticmethod
    def _check_name(payload: Any) -> None:
        name = (payload or {}).get("name") or ""
        if not 1 <= len(name) <= 100:
            raise Reject(400, 50035, "Invalid Form Body", errors=[f"thread name: {len(name)} (1..100)"])

    def _channel(self, cid: int) -> dict:
        ch = self.channels.get(cid)
        if ch is None:
            raise Reject(404, 10003, "Unknown Channel")
        return ch

    def _message_in(self, cid: int, mid: int) -> dict:
        """A message by the channel API.  Ephemeral messages are not there: only their
        interaction's webhook can edit them."""
        self._channel(cid)
        msg = self.messages.get(mid)
        if (msg is None or mid in self.deleted_messages or msg["channel_id"] != str(cid)
                or msg.get("flags", 0) & EPHEMERAL):
            raise Reject(404, 10008, "Unknown Message")
        return msg

    # ------------------------------------------------------------------ messages
    def _attachments(self, files: list[tuple[str, bytes]]) -> list[dict]:
        out = []
        for name, raw in files:
            aid = str(self.snowflake())
            self._attachment_bytes[aid] = raw
            out.append({"id": aid, "filename": name, "size": len(raw),
                        "url": f"http://127.0.0.1:{self.port}/attachments/{aid}/{name}",
                        "proxy_url": f"http://127.0.0.1:{self.port}/attachments/{aid}/{name}",
                        "content_type": "image/png" if name.endswith(".png") else "application/octet-stream"})
        return out

    def _new_message(self, channel_id: int, payload: dict | None, files: list, *, via: str,
                     flags: int = 0, viewer: int | None = None) -> dict:
        payload = payload or {}
        mid = self.snowflake()
        ch = self.channels.get(channel_id, {})
        msg = {"id": str(mid), "channel_id": str(channel_id), "author": self.bot_user,
               "content": payload.get("content") or "", "timestamp": self.iso(), "edited_timestamp": None,
               "tts": False, "mention_everyone": False, "mentions": [], "mention_roles": [],
               "attachments": self._attachments(files), "embeds": payload.get("embeds") or [],
               "pinned": False, "type": 0, "flags": int(payload.get("flags") or 0) | flags,
               "components": payload.get("components") or [], "_via": via, "_viewer": viewer,
               "_allowed_mentions": payload.get("allowed_mentions"), "_versions": []}
        if ch.get("guild_id"):
            msg["guild_id"] = ch["guild_id"]
        self.messages[mid] = msg
        self._version(msg)
        return msg

    def _version(self, msg: dict) -> None:
        self.violations += store_v2(msg)     # a V2 message as Discord stores it (tests/e2e/twin_v2.py)
        msg["_versions"].append(self.public(msg))
        # Discord accepts an embed image naming an attachment the message does not have, but
        # shows a broken picture: the twin counts that as a violation too.
        names = {a["filename"] for a in msg.get("attachments", [])}
        for e in msg.get("embeds") or []:
            for key in ("image", "thumbnail"):
                url = (e.get(key) or {}).get("url") or ""
                if url.startswith("attachment://") and url[len("attachment://"):] not in names:
                    self.violations.append(f"message {msg['id']}: embed {key} {url} names no attachment "
                                           f"(has {sorted(names)})")

    def _edit(self, msg: dict, payload: dict | None, files: list) -> dict:
        payload = payload or {}
        for key in ("content", "embeds", "components"):
            if key in payload:
                msg[key] = payload[key] if payload[key] is not None else ("" if key == "content" else [])
        if payload.get("flags") is not None:
            msg["flags"] = (msg.get("flags", 0) & EPHEMERAL) | int(payload["flags"])
        if "attachments" in payload or files:
            keep = {str(a.get("id")) for a in payload.get("attachments") or []}
            msg["attachments"] = [a for a in msg["attachments"] if a["id"] in keep] + self._attachments(files)
        if "allowed_mentions" in payload:
            msg["_allowed_mentions"] = payload["allowed_mentions"]
        msg["edited_timestamp"] = self.iso()
        if not (msg["content"] or msg["embeds"] or msg["attachments"] or msg["components"]) and not msg["flags"] & LOADING:
            raise Reject(400, 50006, "Cannot send an empty message")
        self._version(msg)
        return msg

    @staticmethod
    def public(msg: dict) -> dict:
        """A message as Discord returns it (the twin's bookkeeping keys removed)."""
        return copy.deepcopy({k: v for k, v in msg.items() if not k.startswith("_")})

    # ------------------------------------------------------------------ interactions (REST side)
    def _ix(self, app_id: int | None, token: str) -> Interaction:
        """The interaction a token names; webhook routes must also name our application."""
        ix = self.interactions.get(token)
        if ix is None or (app_id is not None and app_id != self.app_id):
            raise Reject(404, 10015, "Unknown Webhook")
        if app_id is not None and self.wall() - self.created_at(int(ix.payload["id"])) > TOKEN_LIFETIME:
            # an interaction token lives 15 minutes: follow-ups and edits after that are refused
            raise Reject(401, 50027, "Invalid Webhook Token")
        return ix

    def _snap(self, ix: Interaction, msg: dict) -> None:
        ix.replies.append(self.public(msg))

    def _callback(self, iid: int, token: str, payload: dict, files: list, query: Any) -> tuple[int, Any]:
        ix = self._ix(None, token)
        if ix.payload["id"] != str(iid):
            raise Reject(404, 10062, "Unknown interaction")
        if ix.response_type is not None:
            raise Reject(400, 40060, "Interaction has already been acknowledged.")
        elapsed = time.monotonic() - (ix.sent_at or time.monotonic())
        if elapsed > self.ack_deadline:
            raise Reject(404, 10062, f"Unknown interaction (answered after {elapsed:.2f} s, limit "
                                     f"{self.ack_deadline} s)")
        t = payload.get("type")
        data = payload.get("data") or {}
        channel_id = int(ix.payload["channel_id"])
        if t in (4, 5) and self._archived(channel_id):
            # a locked archived thread: Discord refuses the answer (discord-api-docs #5517)
            raise Reject(400, 50083, "Thread is archived", violation=False)
        message = None
        if t == 4:
            self._check(data, files)
            message = self._new_message(channel_id, data, files, via="interaction", viewer=ix.user_id)
            ix.original_id = int(message["id"])
            self.remember_owners(message, ix)
            self._snap(ix, message)
        elif t == 5:
            message = self._new_message(channel_id, {"flags": data.get("flags", 0)}, [], via="interaction",
                                        flags=LOADING, viewer=ix.user_id)
            ix.original_id = int(message["id"])
            self.remember_owners(message, ix)
        elif t in (6, 7):
            # a component's interaction, or a modal submitted from a component (it carries the
            # component's message): the message may be updated; a command's modal has none
            if ix.payload["type"] not in (3, 5) or not ix.payload.get("message"):
                raise Reject(400, 50035, "Interaction response type not valid for this interaction")
            stored = self.messages.get(int(ix.payload["message"]["id"]))
            if stored is None:
                raise Reject(404, 10008, "Unknown Message")
            ix.original_id = int(stored["id"])
            if t == 7:
                self._check(data, files, create=False, current=stored)
                message = self._edit(stored, data, files)
                self._snap(ix, message)
        elif t == 8:
            if ix.payload["type"] != 4:
                raise Reject(400, 50035, "Autocomplete result for a non-autocomplete interaction")
            choices = data.get("choices") or []
            errors = [f"{len(choices)} choices > 25"] if len(choices) > 25 else []
            for c in choices:
                if not 1 <= len(str(c.get("name") or "")) <= 100:
                    errors.append(f"choice name {c.get('name')!r}: length (1..100)")
                if isinstance(c.get("value"), str) and len(c["value"]) > 100:
                    errors.append(f"choice value {c['value'][:20]!r}…: {len(c['value'])} > 100")
            if errors:
                raise Reject(400, 50035, "Invalid Form Body", errors=errors)
            ix.choices = choices
        elif t == 9:
            # a modal: only in answer to a command or a component; a modal submit cannot open
            # another modal, an autocomplete neither.  No message is created or edited.
            if ix.payload["type"] not in (2, 3):
                raise Reject(400, 50035, "Invalid Form Body", errors=[
                    f"type: a modal (9) cannot answer an interaction of type {ix.payload['type']}"
                    + (" (a modal submit cannot open another modal)" if ix.payload["type"] == 5 else "")])
            errors = check_modal(payload.get("data"))
            if errors:
                raise Reject(400, 50035, "Invalid Form Body", errors=errors)
            ix.modal = copy.deepcopy(data)
        else:
            raise Reject(400, 50035, f"interaction callback type {t} is not modelled by the twin")
        ix.response_type = t
        ix.acked_at = time.monotonic()
        if query.get("with_response") not in ("1", "true", "True"):
            return 204, None
        body: dict[str, Any] = {
            "interaction": {"id": ix.payload["id"], "type": ix.payload["type"],
                            "response_message_id": str(ix.original_id) if ix.original_id else None,
                            "response_message_loading": t == 5,
                            "response_message_ephemeral": bool((message or {}).get("flags", 0) & EPHEMERAL
                                                               or data.get("flags", 0) & EPHEMERAL)},
            "resource": {"type": t}}
        if message is not None and t in (4, 7):
            body["resource"]["message"] = self.public(message)
        return 200, body

    def _require_acked(self, ix: Interaction) -> None:
        if ix.response_type is None:
            raise Reject(404, 10015, "Unknown Webhook (the interaction was not answered first)")
        if ix.response_type == 8:
            raise Reject(400, 50035, "an autocomplete interaction has no messages")

    def _webhook_message(self, app_id: int, method: str, token: str, which: str, payload: Any,
                         files: list) -> tuple[int, Any]:
        ix = self._ix(app_id, token)
        self._require_acked(ix)
        mid = ix.original_id if which == "@original" else int(which)
        msg = self.messages.get(mid) if mid else None
        if msg is None or mid in self.deleted_messages:
            raise Reject(404, 10008, "Unknown Message")
        if method == "GET":
            return 200, self.public(msg)
        if method == "DELETE":
            self.deleted_messages.add(mid)
            return 204, None
        self._check(payload, files, create=False, current=msg)
        msg["flags"] = msg.get("flags", 0) & ~LOADING
        self._edit(msg, payload, files)
        self._snap(ix, msg)
        return 200, self.public(msg)

    async def _followup(self, app_id: int, token: str, payload: Any, files: list) -> tuple[int, Any]:
        ix = self._ix(app_id, token)
        self._require_acked(ix)
        self._check(payload, files)
        original = self.messages.get(ix.original_id) if ix.original_id else None
        if ix.response_type == 5 and original is not None and original.get("flags", 0) & LOADING:
            # the first follow-up after a "thinking" defer replaces the thinking message
            original["flags"] = original.get("flags", 0) & ~LOADING
            self._edit(original, payload, files)
            self._snap(ix, original)
            return 200, self.public(original)
        flags = int((payload or {}).get("flags") or 0)
        if self.refuse_followups and not flags & EPHEMERAL:
            raise Reject(401, 50027, "Invalid Webhook Token", violation=False)
        self.count_followup(ix)         # a user's own install: 5 at most (twin_user_app.py)
        cid = int(ix.payload["channel_id"])
        ch = self.channels.get(cid) or {}
        if not flags & EPHEMERAL:       # a public follow-up is a new message, as a post is
            await self._new_in_thread(cid, ch)
        msg = self._new_message(cid, payload, files, via="followup",
                                viewer=ix.user_id if flags & EPHEMERAL else None)
        self.remember_owners(msg, ix)
        self._snap(ix, msg)
        return 200, self.public(msg)
