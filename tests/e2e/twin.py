"""A local Discord twin: a real HTTP + websocket server on loopback that speaks the parts of
Discord's API this bot uses, for end-to-end tests of the real ``bot.py`` process.

How it works
------------
One ``aiohttp.web`` server on ``127.0.0.1`` (a free port) serves

* **REST** under ``/api/v10``: ``GET /users/@me``, ``GET /oauth2/applications/@me``,
  ``GET /gateway/bot`` (answers ``ws://127.0.0.1:PORT/gateway``), application command sync
  (``PUT /applications/{app}/commands``), channel messages (create, edit, get, delete), DM channel
  creation, threads (from a message or not; thread members), ``GET /channels/{id}``,
  interaction callbacks (message, deferred, update, deferred update, autocomplete) and the
  webhook follow-up / ``@original`` endpoints, JSON or multipart with files.
* **the gateway** at ``/gateway`` (and ``/gateway-resume``, the ``resume_gateway_url``):
  HELLO, heartbeats and their ACKs, IDENTIFY → READY + GUILD_CREATE, RESUME → replay of the
  events the bot missed + RESUMED, RECONNECT requests (op 7), and INTERACTION_CREATE /
  THREAD_CREATE dispatches.  Frames are uncompressed JSON text: discord.py asks for
  ``compress=zlib-stream`` but only decompresses *binary* frames
  (``DiscordWebSocket.received_message``), so text frames are accepted as they are.

The twin **records** every request (:attr:`Twin.requests`), every message with all of its
versions (:attr:`Twin.messages`), every interaction and what its user saw
(:class:`Interaction`), and it **rejects what Discord rejects** — each such rejection is also
appended to :attr:`Twin.violations`, which the e2e fixtures require to be empty:

* content over 2,000 characters; an empty message;
* embeds: more than 10, title over 256, description over 4,096, more than 25 fields, field
  name 256 / value 1,024, footer 2,048, author 256, more than 6,000 characters in all;
* more than 5 action rows, more than 5 buttons in a row, a select not alone in its row,
  more than 25 select options (or none), custom_id over 100 or duplicated, button labels over
  80, option label/value/description over 100, placeholder over 150;
* a file over the upload limit (``upload_limit``, 10 MiB by default); more than 10 files;
* an interaction answered twice (40060), answered later than 3 s after it was created (a replay
  after a slow RESUME included) without a defer (10062), or followed up before it was answered;
* ``allowed_mentions`` with ``parse: ["users"]`` and a ``users`` list at once;
* (not refused by Discord, but shown broken) an embed image ``attachment://x.png`` naming no
  attachment of the message;
* any route the twin does not know (404, so a new kind of call is noticed).

Expected refusals are not violations: DMs to a user in :attr:`Twin.closed_dms` (403, code
50007) and the 429s asked for with :meth:`Twin.rate_limit`.  :meth:`Twin.drop_gateway` cuts the
websocket (TCP abort), :meth:`Twin.request_reconnect` sends op 7.

Driving the bot: :meth:`Twin.slash`, :meth:`Twin.autocomplete` and :meth:`Twin.click` build
INTERACTION_CREATE payloads from what the bot *synced* (option names, types and choices are
checked against the synced commands, as Discord does), send them over the gateway and wait
until the bot has answered and gone quiet.  Only ``127.0.0.1`` is ever used.
"""
from __future__ import annotations

import asyncio
import copy
import datetime as dt
import io
import itertools
import json
import os
import re
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from aiohttp import WSMsgType, web

TOKEN = "twin-token-not-a-secret"
QUIET = 0.3      # seconds without a request from the bot after which it is taken to be done
UPLOAD_LIMIT = 10 * 1024 * 1024
ACK_DEADLINE = 3.0
EPHEMERAL = 64
LOADING = 128

ALL_PERMISSIONS = str((1 << 53) - 1)
ADMINISTRATOR, VIEW_CHANNEL, SEND_MESSAGES, EMBED_LINKS, ATTACH_FILES = 1 << 3, 1 << 10, 1 << 11, 1 << 14, 1 << 15
READ_HISTORY, USE_COMMANDS, MANAGE_THREADS, CREATE_PUBLIC_THREADS = 1 << 16, 1 << 31, 1 << 34, 1 << 35
SEND_IN_THREADS = 1 << 38
# @everyone: view channel, send messages, embed links, attach files, read history, use app
# commands, send in threads
MEMBER_PERMISSIONS = str(VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES | READ_HISTORY | USE_COMMANDS
                         | SEND_IN_THREADS)
# the bot's own (managed) role, as its invite link asks: also threads
BOT_PERMISSIONS = (VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES | READ_HISTORY | MANAGE_THREADS
                   | CREATE_PUBLIC_THREADS | SEND_IN_THREADS)


def _json(data: Any, status: int = 200, headers: dict | None = None) -> web.Response:
    """A JSON answer with Discord's exact content type (discord.py compares it verbatim)."""
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={"Content-Type": "application/json", **(headers or {})})


def now_iso() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat()


OLD_EDIT_RETRY = 2.0   # seconds; Discord's real wait is longer
TOKEN_LIFETIME = 15 * 60   # seconds an interaction token may be used for follow-ups and edits


class OldEdit(Exception):
    """An edit of a message older than an hour once the channel's budget is spent: 429/30046."""


class Reject(Exception):
    """An error answer, as Discord would give it."""

    def __init__(self, status: int, code: int, message: str, *, violation: bool = True,
                 errors: list[str] | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.violation = status, code, message, violation
        self.errors = errors or []


# ---------------------------------------------------------------------------- limits
def check_message(payload: dict | None, files: list[tuple[str, bytes]], *, upload_limit: int = UPLOAD_LIMIT,
                  create: bool = True) -> list[str]:
    """Every reason Discord would refuse this message payload (empty list: fine)."""
    p = payload or {}
    errors: list[str] = []
    content = p.get("content")
    if content is not None and len(content) > 2000:
        errors.append(f"content: {len(content)} > 2000 characters")
    embeds = p.get("embeds") or []
    if len(embeds) > 10:
        errors.append(f"embeds: {len(embeds)} > 10")
    total = 0
    for i, e in enumerate(embeds):
        for key, limit in (("title", 256), ("description", 4096)):
            n = len(e.get(key) or "")
            total += n
            if n > limit:
                errors.append(f"embeds[{i}].{key}: {n} > {limit}")
        fields = e.get("fields") or []
        if len(fields) > 25:
            errors.append(f"embeds[{i}].fields: {len(fields)} > 25")
        for j, f in enumerate(fields):
            name, value = f.get("name") or "", f.get("value") or ""
            total += len(name) + len(value)
            if len(name) > 256 or not name:
                errors.append(f"embeds[{i}].fields[{j}].name: {len(name)} (1..256)")
            if len(value) > 1024 or not value:
                errors.append(f"embeds[{i}].fields[{j}].value: {len(value)} (1..1024)")
        footer = (e.get("footer") or {}).get("text") or ""
        author = (e.get("author") or {}).get("name") or ""
        total += len(footer) + len(author)
        if len(footer) > 2048:
            errors.append(f"embeds[{i}].footer.text: {len(footer)} > 2048")
        if len(author) > 256:
            errors.append(f"embeds[{i}].author.name: {len(author)} > 256")
    if total > 6000:
        errors.append(f"embeds: {total} > 6000 characters in all")
    errors += check_components(p.get("components") or [])
    if len(files) > 10:
        errors.append(f"files: {len(files)} attachments > 10")
    for name, raw in files:
        if len(raw) > upload_limit:
            errors.append(f"file {name}: {len(raw)} bytes > upload limit {upload_limit}")
    am = p.get("allowed_mentions")
    if isinstance(am, dict):
        parse = am.get("parse") or []
        if "users" in parse and am.get("users"):
            errors.append("allowed_mentions: parse 'users' and a users list are mutually exclusive")
        if len(am.get("users") or []) > 100:
            errors.append("allowed_mentions.users: more than 100")
    if create and not (content or embeds or files or p.get("components") or p.get("sticker_ids")
                       or p.get("poll")):
        errors.append("cannot send an empty message (50006)")
    return errors


def check_components(rows: list[dict]) -> list[str]:
    errors: list[str] = []
    if len(rows) > 5:
        errors.append(f"components: {len(rows)} action rows > 5")
    seen: set[str] = set()
    for r, row in enumerate(rows):
        if row.get("type") != 1:
            errors.append(f"components[{r}]: top-level component is not an action row")
            continue
        items = row.get("components") or []
        if not items:
            errors.append(f"components[{r}]: empty action row")
        selects = [c for c in items if c.get("type") in (3, 5, 6, 7, 8)]
        if selects and len(items) > 1:
            errors.append(f"components[{r}]: a select must be alone in its row")
        if len(items) > 5:
            errors.append(f"components[{r}]: {len(items)} items > 5")
        for c, item in enumerate(items):
            where = f"components[{r}][{c}]"
            cid = item.get("custom_id")
            if item.get("type") == 2 and item.get("style") == 5:
                if cid:
                    errors.append(f"{where}: a link button has no custom_id")
            else:
                if not cid:
                    errors.append(f"{where}: custom_id is required")
                elif len(cid) > 100:
                    errors.append(f"{where}.custom_id: {len(cid)} > 100")
                elif cid in seen:
                    errors.append(f"{where}.custom_id: duplicated {cid!r}")
                if cid:
                    seen.add(cid)
            if item.get("type") == 2:
                label = item.get("label") or ""
                if len(label) > 80:
                    errors.append(f"{where}.label: {len(label)} > 80")
                if not label and not item.get("emoji"):
                    errors.append(f"{where}: a button needs a label or an emoji")
            if item.get("type") == 3:
                options = item.get("options") or []
                if not 1 <= len(options) <= 25:
                    errors.append(f"{where}.options: {len(options)} (1..25)")
                values = [o.get("value") for o in options]
                if len(set(values)) != len(values):
                    errors.append(f"{where}.options: duplicated values")
                for o, opt in enumerate(options):
                    for key in ("label", "value", "description"):
                        n = len(opt.get(key) or "")
                        if n > 100 or (key != "description" and n == 0):
                            errors.append(f"{where}.options[{o}].{key}: {n} (1..100)")
                if len(item.get("placeholder") or "") > 150:
                    errors.append(f"{where}.placeholder: > 150")
                lo, hi = item.get("min_values", 1), item.get("max_values", 1)
                if not (0 <= lo <= hi <= max(1, len(options))):
                    errors.append(f"{where}: min_values/max_values {lo}/{hi}")
    return errors


def check_commands(commands: list[dict]) -> list[str]:
    """Application command payload limits (names, descriptions, options, choices)."""
    errors: list[str] = []
    name_rx = re.compile(r"^[-_\w]{1,32}$")

    def opts(where: str, options: list[dict]) -> None:
        if len(options) > 25:
            errors.append(f"{where}: {len(options)} options > 25")
        for o in options:
            w = f"{where}.{o.get('name')}"
            if not name_rx.match(o.get("name") or "") or (o.get("name") or "") != (o.get("name") or "").lower():
                errors.append(f"{w}: bad name")
            if not 1 <= len(o.get("description") or "") <= 100:
                errors.append(f"{w}: description length")
            for loc, text in (o.get("name_localizations") or {}).items():
                if not name_rx.match(text or ""):
                    errors.append(f"{w}: bad {loc} name {text!r}")
            for loc, text in (o.get("description_localizations") or {}).items():
                if not 1 <= len(text or "") <= 100:
                    errors.append(f"{w}: {loc} description length")
            choices = o.get("choices") or []
            if len(choices) > 25:
                errors.append(f"{w}: {len(choices)} choices > 25")
            for ch in choices:
                if not 1 <= len(ch.get("name") or "") <= 100:
                    errors.append(f"{w}: choice name length")
                for loc, text in (ch.get("name_localizations") or {}).items():
                    if not 1 <= len(text or "") <= 100:
                        errors.append(f"{w}: {loc} choice name length")
            if o.get("type") in (1, 2):
                opts(w, o.get("options") or [])

    if len(commands) > 100:
        errors.append("more than 100 commands")
    for c in commands:
        if not name_rx.match(c.get("name") or ""):
            errors.append(f"/{c.get('name')}: bad name")
        if c.get("type", 1) == 1 and not 1 <= len(c.get("description") or "") <= 100:
            errors.append(f"/{c.get('name')}: description length")
        opts(f"/{c.get('name')}", c.get("options") or [])
    return errors


# ---------------------------------------------------------------------------- records
@dataclass
class Request:
    method: str
    path: str
    json: Any = None
    files: list[tuple[str, bytes]] = field(default_factory=list)
    query: dict = field(default_factory=dict)
    status: int = 0
    at: float = 0.0


@dataclass
class Interaction:
    """One interaction the twin delivered, and everything its user saw in answer."""
    payload: dict
    user_id: int
    sent_at: float | None = None
    acked_at: float | None = None
    response_type: int | None = None
    original_id: int | None = None
    replies: list[dict] = field(default_factory=list)   # message snapshots, in order
    choices: list[dict] | None = None
    done: asyncio.Event = field(default_factory=asyncio.Event)

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
        return bool(self.last and self.last.get("flags", 0) & EPHEMERAL)

    @property
    def files(self) -> list[str]:
        return [a["filename"] for m in self.replies for a in m.get("attachments", [])]


def message_text(m: dict | None) -> str:
    """Content plus every embed's visible text."""
    if not m:
        return ""
    parts = [m.get("content") or ""]
    for e in m.get("embeds") or []:
        parts += [e.get("title") or "", e.get("description") or ""]
        for f in e.get("fields") or []:
            parts += [f.get("name") or "", f.get("value") or ""]
        parts.append((e.get("footer") or {}).get("text") or "")
        parts.append((e.get("author") or {}).get("name") or "")
    return "\n".join(p for p in parts if p)


def components_of(m: dict) -> list[dict]:
    return [c for row in m.get("components") or [] for c in row.get("components") or []]


def find_component(m: dict, pattern: str) -> dict | None:
    rx = re.compile(pattern)
    return next((c for c in components_of(m) if c.get("custom_id") and rx.search(c["custom_id"])), None)


# ---------------------------------------------------------------------------- the twin
class Twin:
    """The local Discord.  ``async with Twin() as twin:`` or :meth:`start` / :meth:`stop`."""

    def __init__(self, *, upload_limit: int = UPLOAD_LIMIT, ack_deadline: float = ACK_DEADLINE,
                 heartbeat_ms: int = 5000) -> None:
        self.upload_limit = upload_limit
        self.ack_deadline = ack_deadline
        self.heartbeat_ms = heartbeat_ms
        # the twin's clock: wall time plus ``clock_offset`` (``advance``), shared with the bot
        # through ``clock_file`` (BOT_TEST_CLOCK_FILE), so a match can span hours and days
        self.clock_offset = 0.0
        fd, name = tempfile.mkstemp(prefix="twin-clock-")
        os.close(fd)
        self.clock_file = Path(name)
        self.clock_file.write_text("0")
        self.old_edit_budget = 0              # edits of >1 h old messages a channel may still make
        # rate limits: per route and channel (Discord: 5 per 5 s for a channel's messages) and a
        # global limit per second; None = not enforced (the default keeps the suite fast; a
        # scenario sets Discord's own numbers with ``discord_rate_limits()``)
        self.channel_limit: tuple[int, float] | None = None
        self.global_limit: int | None = None
        self._buckets: dict[tuple, list[float]] = {}
        self._global_hits: list[float] = []
        self._old_edits: dict[int, int] = {}
        self._ids = itertools.count(1)
        self.app_id = self.snowflake()
        self.guild_id = self.snowflake()
        self.bot_role_id = self.snowflake()
        self.bot_user = {"id": str(self.app_id), "username": "tablebot", "discriminator": "0",
                         "global_name": "TableBot", "avatar": None, "bot": True}
        self.users: dict[int, dict] = {}
        self.channels: dict[int, dict] = {}
        self.messages: dict[int, dict] = {}
        self.deleted_messages: set[int] = set()
        self._thread_active: dict[int, float] = {}   # thread id -> the twin time of its last activity
        self.closed_dms: set[int] = set()
        self.requests: list[Request] = []
        self.violations: list[str] = []
        self.refusals: list[str] = []          # expected refusals (closed DMs, injected 429s)
        self.interactions: dict[str, Interaction] = {}
        self.commands: list[dict] = []
        self.thread_members: dict[int, set[int]] = {}
        self._limits: list[dict] = []          # injected 429s
        self._attachment_bytes: dict[str, bytes] = {}   # attachment id -> uploaded bytes
        self.channel = self._text_channel("general")
        # gateway
        self.port: int | None = None
        self._runner: web.AppRunner | None = None
        self.ws: web.WebSocketResponse | None = None
        self._ws_transport: Any = None
        self.session_id: str | None = None
        self.seq = 0
        self.events: list[dict] = []
        self.heartbeats = 0
        self.identifies = 0
        self.resumes = 0
        self.resume_delay = 0.0                # seconds a RESUME takes before the replay starts
        self.connections = 0
        self.connect_paths: list[str] = []     # /gateway, then /gateway-resume for each RESUME
        self.ready = asyncio.Event()           # set on each IDENTIFY/RESUME success
        self.last_activity = time.monotonic()
        self.log: list[str] = []               # gateway protocol trace (op names)

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> "Twin":
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/gateway-resume", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def stop(self) -> None:
        if self.ws is not None and not self.ws.closed:
            try:
                await asyncio.wait_for(self.ws.close(code=1001), 2)
            except Exception:
                pass
        if self._runner is not None:
            await asyncio.wait_for(self._runner.cleanup(), 10)
            self._runner = None
        self.clock_file.unlink(missing_ok=True)

    async def __aenter__(self) -> "Twin":
        return await self.start()

    async def __aexit__(self, *exc: Any) -> None:
        await self.stop()

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    def env(self) -> dict[str, str]:
        """The environment that points ``bot.py`` at this twin."""
        return {"DISCORD_TOKEN": TOKEN, "DISCORD_API_BASE": self.api_base,
                "DISCORD_GATEWAY_URL": self.gateway_url, "BOT_TEST_CLOCK_FILE": str(self.clock_file)}

    # ------------------------------------------------------------------ the clock
    def wall(self) -> float:
        """The twin's time (seconds since the epoch): real time plus what :meth:`advance` added."""
        return time.time() + self.clock_offset

    def iso(self) -> str:
        return dt.datetime.fromtimestamp(self.wall(), dt.timezone.utc).isoformat()

    async def advance(self, seconds: float) -> None:
        """Let ``seconds`` pass for Discord and for the bot (its clock reads ``clock_file``):
        messages age, idle threads archive (a THREAD_UPDATE tells the bot)."""
        self.clock_offset += float(seconds)
        self.clock_file.write_text(repr(self.clock_offset))
        for th in list(self.channels.values()):
            meta = th.get("thread_metadata")
            if not meta or meta["archived"]:
                continue
            idle = self.wall() - self._thread_active.get(int(th["id"]), self.wall())
            if idle > int(meta["auto_archive_duration"]) * 60:
                meta["archived"] = True
                meta["archive_timestamp"] = self.iso()
                await self.dispatch("THREAD_UPDATE", copy.deepcopy(th))

    @staticmethod
    def created_at(snowflake: int) -> float:
        return ((int(snowflake) >> 22) + 1420070400000) / 1000

    # ------------------------------------------------------------------ objects
    def snowflake(self) -> int:
        ms = int(self.wall() * 1000) - 1420070400000
        return (ms << 22) + (next(self._ids) % (1 << 22))

    def user(self, name: str) -> dict:
        uid = self.snowflake()
        u = {"id": str(uid), "username": name.lower(), "discriminator": "0", "global_name": name,
             "avatar": None, "bot": False}
        self.users[uid] = u
        return u

    def _text_channel(self, name: str) -> dict:
        cid = self.snowflake()
        ch = {"id": str(cid), "type": 0, "guild_id": str(self.guild_id), "name": name, "position": 0,
              "permission_overwrites": [], "nsfw": False, "parent_id": None, "topic": None,
              "last_message_id": None, "rate_limit_per_user": 0}
        self.channels[cid] = ch
        return ch

    def _thread(self, parent_id: int, name: str, thread_id: int | None = None, archive_after: Any = None) -> dict:
        tid = thread_id or self.snowflake()
        duration = int(archive_after or 1440)
        if duration not in (60, 1440, 4320, 10080):
            raise Reject(400, 50035, "Invalid Form Body", errors=[f"auto_archive_duration: {duration}"])
        th = {"id": str(tid), "type": 11, "guild_id": str(self.guild_id), "name": name[:100],
              "parent_id": str(parent_id), "owner_id": self.bot_user["id"], "member_count": 1,
              "message_count": 0, "rate_limit_per_user": 0, "flags": 0,
              "thread_metadata": {"archived": False, "auto_archive_duration": duration,
                                  "archive_timestamp": self.iso(), "locked": False}}
        self.channels[tid] = th
        self._thread_active[tid] = self.wall()
        return th

    # ------------------------------------------------------------------ permissions
    def bot_permissions(self, cid: int) -> int:
        """The bot's permissions in a channel (a thread: its parent's), as Discord computes them:
        @everyone and the bot's role, then the channel's overwrites for @everyone, the role and
        the bot itself."""
        ch = self.channels.get(int(cid)) or {}
        if ch.get("type") == 1:
            return int(ALL_PERMISSIONS)
        if ch.get("parent_id") and ch.get("thread_metadata"):
            ch = self.channels.get(int(ch["parent_id"])) or {}
        perms = int(MEMBER_PERMISSIONS) | BOT_PERMISSIONS
        if perms & ADMINISTRATOR:
            return int(ALL_PERMISSIONS)
        overwrites = {str(o["id"]): o for o in ch.get("permission_overwrites") or []}
        for key in (str(self.guild_id), str(self.bot_role_id), self.bot_user["id"]):
            o = overwrites.get(key)
            if o:
                perms = (perms & ~int(o.get("deny") or 0)) | int(o.get("allow") or 0)
        return perms

    async def deny_bot(self, cid: int, *bits: int) -> None:
        """A server admin takes permissions from the bot in a channel (a member overwrite); the
        bot hears of it (CHANNEL_UPDATE)."""
        ch = self._channel(int(cid))
        deny = 0
        for b in bits:
            deny |= b
        overwrites = ch.setdefault("permission_overwrites", [])
        mine = next((o for o in overwrites if str(o["id"]) == self.bot_user["id"]), None)
        if mine is None:
            mine = {"id": self.bot_user["id"], "type": 1, "allow": "0", "deny": "0"}
            overwrites.append(mine)
        mine["deny"] = str(int(mine["deny"]) | deny)
        mine["allow"] = str(int(mine["allow"]) & ~deny)
        await self.dispatch("CHANNEL_UPDATE", copy.deepcopy(ch))

    def _require(self, cid: int, need: int) -> None:
        perms = self.bot_permissions(cid)
        if not perms & VIEW_CHANNEL:
            raise Reject(403, 50001, "Missing Access", violation=False)
        if perms & need != need:
            raise Reject(403, 50013, "Missing Permissions", violation=False)

    def _archived(self, cid: int) -> bool:
        meta = (self.channels.get(cid) or {}).get("thread_metadata")
        return bool(meta and meta.get("archived"))

    def guild_payload(self) -> dict:
        everyone = {"id": str(self.guild_id), "name": "@everyone", "permissions": MEMBER_PERMISSIONS,
                    "position": 0, "color": 0, "hoist": False, "managed": False, "mentionable": False,
                    "flags": 0}
        bot_role = {"id": str(self.bot_role_id), "name": "TableBot", "permissions": str(BOT_PERMISSIONS),
                    "position": 1, "color": 0, "hoist": False, "managed": True, "mentionable": False,
                    "flags": 0, "tags": {"bot_id": str(self.app_id)}}
        me = {"user": self.bot_user, "roles": [str(self.bot_role_id)], "joined_at": now_iso(), "deaf": False,
              "mute": False, "flags": 0}
        return {"id": str(self.guild_id), "name": "Twin Guild", "icon": None, "owner_id": str(self.snowflake()),
                "unavailable": False, "member_count": 4, "large": False, "features": [], "roles": [everyone, bot_role],
                "emojis": [], "stickers": [], "channels": [c for c in self.channels.values() if c["type"] == 0],
                "threads": [], "members": [me], "voice_states": [], "presences": [], "stage_instances": [],
                "guild_scheduled_events": [], "soundboard_sounds": [], "preferred_locale": "en-US",
                "joined_at": now_iso(), "verification_level": 0, "default_message_notifications": 0,
                "explicit_content_filter": 0, "mfa_level": 0, "premium_tier": 0, "nsfw_level": 0,
                "system_channel_id": None, "afk_channel_id": None, "afk_timeout": 300,
                "description": None, "vanity_url_code": None, "banner": None, "splash": None,
                "discovery_splash": None, "premium_progress_bar_enabled": False}

    # ------------------------------------------------------------------ queries for tests
    def public_messages(self) -> list[dict]:
        """Every version of every message anyone in the guild could see (not DMs, not ephemeral)."""
        out = []
        for m in self.messages.values():
            ch = self.channels.get(int(m["channel_id"]), {})
            if ch.get("type") == 1:
                continue
            out += [v for v in m["_versions"] if not v.get("flags", 0) & EPHEMERAL]
        return out

    def dm_channel_of(self, user_id: int) -> int | None:
        return next((cid for cid, c in self.channels.items()
                     if c["type"] == 1 and c["recipients"][0]["id"] == str(user_id)), None)

    def dms(self, user_id: int) -> list[dict]:
        """Messages (current versions) in the DM channel with ``user_id``."""
        cid = self.dm_channel_of(user_id)
        return [m for m in self.messages.values() if cid is not None and int(m["channel_id"]) == cid]

    def all_dms(self) -> list[dict]:
        dm_ids = {cid for cid, c in self.channels.items() if c["type"] == 1}
        return [m for m in self.messages.values() if int(m["channel_id"]) in dm_ids]

    def posts(self, channel_id: Any = None) -> list[dict]:
        """Messages the bot posted through the channel API (current versions)."""
        out = [m for m in self.messages.values() if m["_via"] == "channel" and int(m["id"]) not in self.deleted_messages]
        if channel_id is not None:
            out = [m for m in out if m["channel_id"] == str(channel_id)]
        return out

    def message(self, message_id: Any) -> dict:
        return self.messages[int(message_id)]

    def calls(self, method: str, pattern: str) -> list[Request]:
        rx = re.compile(pattern)
        return [r for r in self.requests if r.method == method and rx.search(r.path)]

    def threads(self) -> list[dict]:
        return [c for c in self.channels.values() if c["type"] in (10, 11, 12)]

    def attachment(self, message: dict, name: str | None = None) -> bytes:
        """The bytes of the message's (first, or ``name``d) attachment, as uploaded."""
        for a in message.get("attachments", []):
            if name is None or a["filename"] == name:
                return self._attachment_bytes[a["id"]]
        raise AssertionError(f"no attachment {name or ''} on message {message['id']}")

    def picture(self, message: dict, name: str | None = None) -> Any:
        """The message's (first, or ``name``d) attachment decoded by Pillow."""
        from PIL import Image

        img = Image.open(io.BytesIO(self.attachment(message, name)))
        img.load()
        return img

    # ------------------------------------------------------------------ fault injection
    def discord_rate_limits(self, per_channel: tuple[int, float] = (5, 5.0), per_second: int = 50) -> None:
        """Enforce Discord's limits: a channel's message posts (and, apart, its edits and
        deletions) ``per_channel`` = (count, seconds), every REST call ``per_second`` globally
        (interaction callbacks aside).  Each answer carries X-RateLimit-* headers."""
        self.channel_limit, self.global_limit = per_channel, per_second

    def _bucket(self, method: str, path: str) -> tuple | None:
        m = re.fullmatch(r"/channels/(\d+)/messages(/\d+)?", path)
        if not m:
            return None
        kind = "post" if method == "POST" and not m.group(2) else "edit" if method == "PATCH" else \
            "delete" if method == "DELETE" else None
        return (kind, int(m.group(1))) if kind else None

    def _rate(self, method: str, path: str) -> tuple[web.Response | None, dict]:
        """(a 429 answer, or None; the X-RateLimit headers for the answer)."""
        now = time.monotonic()
        headers: dict[str, str] = {}
        if self.global_limit and not path.startswith("/interactions/"):
            self._global_hits = [t for t in self._global_hits if now - t < 1.0]
            if len(self._global_hits) >= self.global_limit:
                retry = round(1.0 - (now - self._global_hits[0]), 3)
                self.refusals.append(f"429 global {method} {path}")
                return _json({"message": "You are being rate limited.", "retry_after": retry, "global": True},
                             status=429, headers={"Via": "1.1 google", "Retry-After": str(retry),
                                                  "X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"}), {}
            self._global_hits.append(now)
        bucket = self._bucket(method, path) if self.channel_limit else None
        if bucket is None:
            return None, headers
        limit, per = self.channel_limit
        hits = self._buckets.setdefault(bucket, [])
        hits[:] = [t for t in hits if now - t < per]
        reset_after = round(per - (now - hits[0]), 3) if hits else per
        if len(hits) >= limit:
            self.refusals.append(f"429 {method} {path}")
            return _json({"message": "You are being rate limited.", "retry_after": reset_after, "global": False},
                         status=429, headers={"Via": "1.1 google", "Retry-After": str(reset_after),
                                              "X-RateLimit-Limit": str(limit), "X-RateLimit-Remaining": "0",
                                              "X-RateLimit-Reset-After": str(reset_after),
                                              "X-RateLimit-Reset": str(round(time.time() + reset_after, 3)),
                                              "X-RateLimit-Bucket": f"{bucket[0]}-{bucket[1]}",
                                              "X-RateLimit-Scope": "user"}), {}
        hits.append(now)
        reset_after = round(per - (now - hits[0]), 3)
        headers = {"X-RateLimit-Limit": str(limit), "X-RateLimit-Remaining": str(limit - len(hits)),
                   "X-RateLimit-Reset-After": str(reset_after),
                   "X-RateLimit-Reset": str(round(time.time() + reset_after, 3)),
                   "X-RateLimit-Bucket": f"{bucket[0]}-{bucket[1]}"}
        return None, headers

    def rate_limit(self, method: str, pattern: str, *, retry_after: float = 1.0, count: int = 1) -> dict:
        """Answer the next ``count`` matching requests with 429 (``retry_after`` seconds)."""
        rule = {"method": method, "rx": re.compile(pattern), "retry_after": retry_after, "left": count,
                "hits": []}
        self._limits.append(rule)
        return rule

    async def drop_gateway(self) -> None:
        """Cut the websocket as a network failure would (TCP abort, no close frame)."""
        ws, transport = self.ws, self._ws_transport
        self.ws = None
        self.ready.clear()
        self.log.append("DROP")
        if transport is not None:
            transport.abort()
        elif ws is not None:
            await ws.close(code=4000)

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT (Discord asks the client to reconnect and resume)."""
        ws = self.ws
        assert ws is not None, "no gateway connection"
        self.ready.clear()
        self.log.append("RECONNECT")
        await ws.send_str(json.dumps({"op": 7, "d": None}))

    # ------------------------------------------------------------------ gateway
    async def _send(self, ws: web.WebSocketResponse, payload: dict) -> None:
        await ws.send_str(json.dumps(payload))

    async def dispatch(self, t: str, d: dict) -> None:
        """Send a DISPATCH event (buffered for RESUME if the socket is down)."""
        self.seq += 1
        event = {"op": 0, "t": t, "s": self.seq, "d": d}
        self.events.append(event)
        if self.ws is not None and not self.ws.closed and self.ready.is_set():
            await self._deliver(self.ws, event)

    async def _deliver(self, ws: web.WebSocketResponse, event: dict) -> None:
        if event["t"] == "INTERACTION_CREATE":
            ix = self.interactions.get(event["d"]["token"])
            if ix is not None and ix.sent_at is None:
                ix.sent_at = time.monotonic()      # (an interaction made without send_interaction)
        await self._send(ws, event)

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        if request.remote not in ("127.0.0.1", "::1"):
            raise web.HTTPForbidden()
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        self.connections += 1
        self.connect_paths.append(request.path)
        if request.query.get("v") != "10" or request.query.get("encoding") != "json":
            self.violations.append(f"gateway connected with {dict(request.query)}")
        transport = request.transport
        await self._send(ws, {"op": 10, "d": {"heartbeat_interval": self.heartbeat_ms}})
        self.log.append("HELLO")
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    break
                data = json.loads(msg.data)
                op = data.get("op")
                if op == 1:
                    self.heartbeats += 1
                    await self._send(ws, {"op": 11})
                elif op == 2:
                    await self._identify(ws, transport, data.get("d") or {})
                elif op == 6:
                    await self._resume(ws, transport, data.get("d") or {})
                elif op in (3, 4, 8):
                    self.log.append(f"op{op}")
                else:
                    self.violations.append(f"gateway: unexpected op {op}")
        finally:
            if self.ws is ws:
                self.ws = None
                self.ready.clear()
        return ws

    async def _identify(self, ws: web.WebSocketResponse, transport: Any, d: dict) -> None:
        if d.get("token") != TOKEN:
            self.log.append("IDENTIFY(bad token)")
            await ws.close(code=4004, message=b"Authentication failed.")
            return
        if d.get("intents", 0) & ((1 << 1) | (1 << 8) | (1 << 15)):
            self.violations.append("identify asked for a privileged intent")
        self.identifies += 1
        self.log.append("IDENTIFY")
        self.session_id = uuid.uuid4().hex
        self.seq = 0
        self.events = []
        self.ws, self._ws_transport = ws, transport
        shard = d.get("shard") or [0, 1]
        self.ready.set()
        await self.dispatch("READY", {
            "v": 10, "user": self.bot_user, "guilds": [{"id": str(self.guild_id), "unavailable": True}],
            "session_id": self.session_id, "session_type": "normal",
            "resume_gateway_url": f"ws://127.0.0.1:{self.port}/gateway-resume",
            "shard": shard, "application": {"id": str(self.app_id), "flags": 0},
            "private_channels": [], "relationships": [], "user_settings": {}, "presences": [],
            "guild_join_requests": [], "geo_ordered_rtc_regions": []})
        await self.dispatch("GUILD_CREATE", self.guild_payload())

    async def _resume(self, ws: web.WebSocketResponse, transport: Any, d: dict) -> None:
        if d.get("token") != TOKEN or d.get("session_id") != self.session_id:
            self.log.append("RESUME(invalid)")
            await self._send(ws, {"op": 9, "d": False})
            return
        self.resumes += 1
        self.log.append("RESUME")
        if self.resume_delay:           # a slow RESUME: the missed events come late
            await asyncio.sleep(self.resume_delay)
        self.ws, self._ws_transport = ws, transport
        seq = d.get("seq") or 0
        for event in [e for e in self.events if e["s"] > seq]:
            await self._deliver(ws, event)
        self.seq += 1
        resumed = {"op": 0, "t": "RESUMED", "s": self.seq, "d": {}}
        self.events.append(resumed)
        await self._send(ws, resumed)
        self.ready.set()

    async def wait_connected(self, timeout: float = 30.0) -> None:
        await asyncio.wait_for(self.ready.wait(), timeout)

    # ------------------------------------------------------------------ REST
    async def _rest(self, request: web.Request) -> web.StreamResponse:
        if request.remote not in ("127.0.0.1", "::1"):
            raise web.HTTPForbidden()
        self.last_activity = time.monotonic()
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
            self.last_activity = time.monotonic()
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
        if method == "GET" and path == "/users/@me":
            return 200, self.bot_user
        if method == "GET" and path == "/gateway/bot":
            return 200, {"url": self.gateway_url, "shards": 1,
                         "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0,
                                                 "max_concurrency": 1}}
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
            if self._archived(cid):            # a new message unarchives a thread (not a locked one)
                if ch["thread_metadata"].get("locked"):
                    raise Reject(400, 50083, "Thread is archived", violation=False)
                ch["thread_metadata"]["archived"] = False
                await self.dispatch("THREAD_UPDATE", copy.deepcopy(ch))
            if ch.get("thread_metadata"):
                self._thread_active[cid] = self.wall()
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
                self._check(payload, files, create=False)
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
            return self._followup(int(g.group(1)), g.group(2), payload, files)
        raise Reject(404, 0, f"the twin has no route for {method} {path}")

    def _check(self, payload: Any, files: list, *, create: bool = True) -> None:
        errors = check_message(payload, files, upload_limit=self.upload_limit, create=create)
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
        message = None
        if t == 4:
            self._check(data, files)
            message = self._new_message(channel_id, data, files, via="interaction", viewer=ix.user_id)
            ix.original_id = int(message["id"])
            self._snap(ix, message)
        elif t == 5:
            message = self._new_message(channel_id, {"flags": data.get("flags", 0)}, [], via="interaction",
                                        flags=LOADING, viewer=ix.user_id)
            ix.original_id = int(message["id"])
        elif t in (6, 7):
            if ix.payload["type"] != 3:
                raise Reject(400, 50035, "Interaction response type not valid for this interaction")
            stored = self.messages.get(int(ix.payload["message"]["id"]))
            if stored is None:
                raise Reject(404, 10008, "Unknown Message")
            ix.original_id = int(stored["id"])
            if t == 7:
                self._check(data, files, create=False)
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
        self._check(payload, files, create=False)
        msg["flags"] = msg.get("flags", 0) & ~LOADING
        self._edit(msg, payload, files)
        self._snap(ix, msg)
        return 200, self.public(msg)

    def _followup(self, app_id: int, token: str, payload: Any, files: list) -> tuple[int, Any]:
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
        msg = self._new_message(int(ix.payload["channel_id"]), payload, files, via="followup",
                                viewer=ix.user_id if flags & EPHEMERAL else None)
        self._snap(ix, msg)
        return 200, self.public(msg)

    # ------------------------------------------------------------------ interactions (gateway side)
    def _channel_payload(self, channel_id: Any) -> dict:
        cid = int(channel_id) if channel_id is not None else int(self.channel["id"])
        return copy.deepcopy(self._channel(cid))

    def interaction_payload(self, type_: int, user: dict, data: dict, *, channel_id: Any = None,
                            locale: str = "en-US", guild_locale: str = "en-US", message: dict | None = None,
                            permissions: str = MEMBER_PERMISSIONS) -> dict:
        iid = self.snowflake()
        ch = self._channel_payload(channel_id)
        payload: dict[str, Any] = {
            "id": str(iid), "application_id": str(self.app_id), "type": type_,
            "token": f"itok-{iid}-{uuid.uuid4().hex}", "version": 1, "data": data, "locale": locale,
            "app_permissions": str(self.bot_permissions(int(ch["id"]))), "entitlements": [], "attachment_size_limit": self.upload_limit,
        }
        if ch["type"] == 1:
            payload.update(channel_id=ch["id"], channel=ch, user=user, context=1,
                           authorizing_integration_owners={"1": user["id"]})
        else:
            payload.update(guild_id=str(self.guild_id), guild_locale=guild_locale, channel_id=ch["id"],
                           channel=ch, context=0, authorizing_integration_owners={"0": str(self.guild_id)},
                           member={"user": user, "roles": [], "joined_at": now_iso(), "deaf": False,
                                   "mute": False, "flags": 0, "permissions": permissions})
        if message is not None:
            payload["message"] = self.public(message)
        return payload

    async def send_interaction(self, payload: dict, user: dict, *, settle: bool = True,
                               quiet: float = QUIET, until: Callable[[Interaction], Any] | None = None,
                               timeout: float = 30.0) -> Interaction:
        # Discord counts the 3 s from the interaction's creation, not from its (re)delivery:
        # one replayed after a slow RESUME may already be too late to answer (10062)
        ix = Interaction(payload, int(user["id"]), sent_at=time.monotonic())
        self.interactions[payload["token"]] = ix
        await self.dispatch("INTERACTION_CREATE", payload)
        if settle:
            await self.settle(ix, quiet=quiet, until=until, timeout=timeout)
        return ix

    async def settle(self, ix: Interaction | None = None, *, quiet: float = QUIET,
                     until: Callable[[Interaction], Any] | None = None, timeout: float = 30.0) -> None:
        """Wait until ``ix`` is answered (a deferred one: followed up; with ``until``: until
        ``until(ix)`` holds too, e.g. the edit that follows a deferred update) and the bot has
        sent nothing for ``quiet`` seconds.  Bounded by ``timeout``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            answered = ix is None or (ix.response_type is not None and not (
                ix.response_type == 5 and ix.original_id is not None
                and self.messages[ix.original_id]["flags"] & LOADING))
            if answered and until is not None and ix is not None:
                answered = bool(until(ix))
            if answered and time.monotonic() - self.last_activity >= quiet:
                return
            await asyncio.sleep(0.05)
        raise AssertionError(f"the bot did not finish answering within {timeout} s "
                             f"(interaction answered: {ix.response_type if ix else '-'}: {ix.text if ix else ''!r})")

    async def wait_for(self, predicate: Callable[[], Any], *, timeout: float = 20.0, what: str = "") -> Any:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            value = predicate()
            if value:
                return value
            await asyncio.sleep(0.05)
        raise AssertionError(f"timed out after {timeout} s waiting for {what or predicate}")

    # -- application commands, as synced
    def _command_data(self, path: str, options: dict[str, Any], focused: str | None) -> dict:
        names = path.split()
        cmd = next((c for c in self.commands if c["name"] == names[0]), None)
        if cmd is None:
            raise AssertionError(f"/{names[0]} was not synced; synced: {[c['name'] for c in self.commands]}")
        chain = [cmd]
        for name in names[1:]:
            sub = next((o for o in chain[-1].get("options") or [] if o["type"] in (1, 2) and o["name"] == name), None)
            if sub is None:
                raise AssertionError(f"/{path}: no subcommand {name!r}")
            chain.append(sub)
        params = {o["name"]: o for o in chain[-1].get("options") or []}
        resolved: dict[str, dict] = {}
        opts = []
        for key, value in options.items():
            param = params.get(key)
            if param is None:
                raise AssertionError(f"/{path} has no option {key!r}: {sorted(params)}")
            opt: dict[str, Any] = {"name": key, "type": param["type"]}
            if param["type"] == 6:
                opt["value"] = value["id"]
                resolved.setdefault("users", {})[value["id"]] = value
                resolved.setdefault("members", {})[value["id"]] = {
                    "roles": [], "joined_at": now_iso(), "deaf": False, "mute": False, "flags": 0,
                    "permissions": MEMBER_PERMISSIONS}
            else:
                want = {3: str, 4: int, 5: bool, 10: (int, float)}.get(param["type"], object)
                if not isinstance(value, want):
                    raise AssertionError(f"/{path} {key}: {value!r} is not of option type {param['type']}")
                if param.get("choices") and key != focused and value not in [c["value"] for c in param["choices"]]:
                    raise AssertionError(f"/{path} {key}: {value!r} is not one of the synced choices")
                opt["value"] = value
            if key == focused:
                opt["focused"] = True
            opts.append(opt)
        if focused is None:
            missing = [n for n, p in params.items() if p.get("required") and n not in options]
            if missing:
                raise AssertionError(f"/{path}: required options missing: {missing}")
        for sub in reversed(chain[1:]):
            opts = [{"type": sub["type"], "name": sub["name"], "options": opts}]
        data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": opts}
        if resolved:
            data["resolved"] = resolved
        return data

    async def slash(self, user: dict, path: str, *, channel_id: Any = None, locale: str = "en-US",
                    guild_locale: str = "en-US", permissions: str = MEMBER_PERMISSIONS, settle: bool = True,
                    quiet: float = QUIET, **options: Any) -> Interaction:
        """Run ``/path`` as ``user``.  Returns once the bot answered (a deferred answer: followed
        up) and then sent nothing for ``quiet`` seconds (0: as soon as it answered)."""
        data = self._command_data(path, options, None)
        payload = self.interaction_payload(2, user, data, channel_id=channel_id, locale=locale,
                                           guild_locale=guild_locale, permissions=permissions)
        return await self.send_interaction(payload, user, settle=settle, quiet=quiet)

    async def autocomplete(self, user: dict, path: str, focused: str, *, channel_id: Any = None,
                           locale: str = "en-US", **options: Any) -> list[dict]:
        data = self._command_data(path, options, focused)
        payload = self.interaction_payload(4, user, data, channel_id=channel_id, locale=locale)
        ix = await self.send_interaction(payload, user, quiet=0.0)   # an autocomplete sends nothing else
        assert ix.response_type == 8, f"autocomplete answered with type {ix.response_type}"
        return ix.choices or []

    async def click(self, user: dict, message: dict, custom_id: str, *, values: list[str] | None = None,
                    locale: str = "en-US", settle: bool = True,
                    until: Callable[[Interaction], Any] | None = None) -> Interaction:
        """Press a button (or pick ``values`` in a select) that is on ``message`` right now.
        ``until``: see :meth:`settle` (a deferred update is answered before its edit comes)."""
        stored = self.messages[int(message["id"])]
        viewer = stored.get("_viewer")
        if stored["flags"] & EPHEMERAL and viewer is not None and viewer != int(user["id"]):
            raise AssertionError("only its user can see (and click) an ephemeral message")
        comp = next((c for c in components_of(stored) if c.get("custom_id") == custom_id), None)
        if comp is None:
            raise AssertionError(f"{custom_id!r} is not on message {message['id']}: "
                                 f"{[c.get('custom_id') for c in components_of(stored)]}")
        if comp.get("disabled"):
            raise AssertionError(f"{custom_id!r} is disabled")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": comp["type"]}
        if comp["type"] == 3:
            allowed = [o["value"] for o in comp.get("options") or []]
            assert values and all(v in allowed for v in values), f"{values} not in {allowed}"
            data["values"] = values
        payload = self.interaction_payload(3, user, data, channel_id=stored["channel_id"], locale=locale,
                                           message=stored)
        return await self.send_interaction(payload, user, settle=settle, until=until)
