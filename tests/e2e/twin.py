"""A local Discord twin: a real HTTP + websocket server on loopback that speaks the parts of
Discord's API this bot uses, for end-to-end tests of the real ``bot.py`` process.

How it works
------------
One ``aiohttp.web`` server on ``127.0.0.1`` (a free port) serves

* **REST** under ``/api/v10``: ``GET /users/@me``, ``GET /oauth2/applications/@me``,
  ``GET /gateway/bot`` (answers ``ws://127.0.0.1:PORT/gateway``), application command sync
  (``PUT /applications/{app}/commands``), channel messages (create, edit, get, delete), DM channel
  creation, threads (from a message or not; thread members), ``GET /channels/{id}``,
  interaction callbacks (message, deferred, update, deferred update, autocomplete, modal) and
  the webhook follow-up / ``@original`` endpoints, JSON or multipart with files; guild scheduled
  events, the server's calendar (tests/e2e/twin_events.py).
* **the gateway** at ``/gateway`` (and ``/gateway-resume``, the ``resume_gateway_url``):
  HELLO, heartbeats and their ACKs, IDENTIFY → READY + GUILD_CREATE, RESUME → replay of the
  events the bot missed + RESUMED, RECONNECT requests (op 7), and INTERACTION_CREATE /
  THREAD_CREATE dispatches — with **shards** (``Twin(shards=N)``, tests/e2e/twin_gateway.py):
  one connection per shard, each guild's events on shard ``(guild_id >> 22) % N``, DMs on
  shard 0, 4010/4011 for an invalid shard or a bot that must shard; :meth:`Twin.add_guild`
  makes a guild on a chosen shard.  Frames are uncompressed JSON text: discord.py asks for
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
* a Components V2 message (flag ``IS_COMPONENTS_V2``, tests/e2e/twin_v2.py) breaking Discord's
  rules, on every route (posts, edits, interaction answers, follow-ups): content, embeds,
  stickers or a poll beside the flag; an edit removing the flag, or adding it without resetting
  the content and embeds; a component where Discord allows none (top level, container, section,
  accessory); a section of other than 1..3 text displays or without an accessory; a media
  gallery of other than 1..10 items; more than 40 components (nested ones counted); more than
  4,000 characters of text displays; an id used twice; ``attachment://`` naming no file of the
  message; a file component with another URL — and, shown broken rather than refused, an
  attachment no component shows.  A stored V2 message gets Discord's component ids and its
  media resolved to its attachments;
* an interaction answered twice (40060), answered later than 3 s after it was created (a replay
  after a slow RESUME included) without a defer (10062), or followed up before it was answered;
* a modal (response type 9) to anything but a command or a component (a modal submit cannot open
  another modal), or one breaking Discord's limits: custom_id 1..100, title 1..45, 1..5 action
  rows (or labels, type 18) each holding one text input; a text input's custom_id 1..100 and
  unique, style 1 or 2, label 1..45, min_length 0..4,000, max_length 1..4,000, min <= max,
  placeholder 100, value 4,000 and within min/max (:func:`check_modal`);
* ``allowed_mentions`` with ``parse: ["users"]`` and a ``users`` list at once;
* (not refused by Discord, but shown broken) an embed image ``attachment://x.png`` naming no
  attachment of the message;
* any route the twin does not know (404, so a new kind of call is noticed).

Apps installed to a user's own account (tests/e2e/twin_user_app.py): commands' ``integration_types``
and ``contexts`` (checked at sync, and where a command is offered), group DMs and servers that
never added the bot (every channel route there refused 403/50001), interactions with ``context``
and ``authorizing_integration_owners``, and at most 5 follow-ups per interaction of the user's
install (400/40094).

Expected refusals are not violations: DMs to a user in :attr:`Twin.closed_dms` (403, code
50007) and the 429s asked for with :meth:`Twin.rate_limit`.  :meth:`Twin.drop_gateway` cuts the
websocket (TCP abort), :meth:`Twin.request_reconnect` sends op 7.

Driving the bot: :meth:`Twin.slash`, :meth:`Twin.autocomplete` and :meth:`Twin.click` build
INTERACTION_CREATE payloads from what the bot *synced* (option names, types and choices are
checked against the synced commands, as Discord does), send them over the gateway and wait
until the bot has answered and gone quiet; :meth:`Twin.submit_modal` fills in and sends the
modal an interaction was answered with (checked as Discord's client checks the form).  Only
``127.0.0.1`` is ever used.
"""
from __future__ import annotations

import asyncio
import copy
import datetime as dt
import io
import itertools
import os
import re
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any, Callable

from aiohttp import web

from .twin_limits import (  # noqa: F401  (some re-exported: tests import them from here)
    ACK_DEADLINE, ADMINISTRATOR, ALL_PERMISSIONS, ATTACH_FILES, BOT_PERMISSIONS, CREATE_PUBLIC_THREADS, EPHEMERAL,
    LOADING, MEMBER_PERMISSIONS, POLL, QUIET, SEND_MESSAGES, TOKEN, UPLOAD_LIMIT, VIEW_CHANNEL, check_commands,
    MODAL_TEXT_MAX, check_components, check_message, check_modal, components_of, find_component, Interaction, _json,
    message_text, modal_inputs, now_iso, Reject, Request,
)
from .twin_gateway import TwinGateway, ShardSession
from .twin_rest import TwinRest
from .twin_events import TwinEvents
from .twin_user_app import TwinUserApp

DISCORD_EPOCH_MS = 1420070400000


# ---------------------------------------------------------------------------- the twin
class Twin(TwinGateway, TwinRest, TwinEvents, TwinUserApp):
    """The local Discord.  ``async with Twin() as twin:`` or :meth:`start` / :meth:`stop`.
    ``shards``: the shard count ``GET /gateway/bot`` recommends; above 1 the twin requires
    sharding (``require_sharding``) and its first guild is on shard 0."""

    def __init__(self, *, upload_limit: int = UPLOAD_LIMIT, ack_deadline: float = ACK_DEADLINE,
                 heartbeat_ms: int = 5000, shards: int = 1, require_sharding: bool | None = None) -> None:
        if shards < 1:
            raise ValueError("a twin has at least one shard")
        self.shard_count = shards
        self.require_sharding = shards > 1 if require_sharding is None else require_sharding
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
        self._buckets: dict[tuple, list[float]] = {}   # bucket -> its window's requests (fixed windows)
        self._global_hits: list[float] = []
        self._old_edits: dict[int, int] = {}
        self._ids = itertools.count(1)
        self.app_id = self.snowflake()
        self.guilds: dict[int, dict] = {}     # guild id -> {"id", "name", "role_id", "channel_id"}
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
        self.refuse_followups = False          # public follow-ups answered 401/50027 (an expired token)
        self.init_user_app()                   # a user's own install: group DMs, foreign servers (twin_user_app.py)
        self._attachment_bytes: dict[str, bytes] = {}   # attachment id -> uploaded bytes
        first = self.add_guild(0, "Twin Guild")
        self.guild_id, self.bot_role_id = first["id"], first["role_id"]
        self.channel = self.channels[first["channel_id"]]
        # gateway
        self.port: int | None = None
        self._runner: web.AppRunner | None = None
        self.sessions: dict[int, ShardSession] = {}   # shard id -> its (last) identified session
        self.identified: list[tuple[int, int]] = []   # [shard_id, shard_count] of each IDENTIFY
        self._session_count: int | None = None        # the shard count the bot identified with
        self._ready: dict[int, asyncio.Event] = {}
        self.events: list[dict] = []                  # every event dispatched, with its "shard"
        self.heartbeats = 0
        self.identifies = 0
        self.resumes = 0
        self.resume_delay = 0.0                # seconds a RESUME takes before the replay starts
        self.connections = 0
        self.connect_paths: list[str] = []     # /gateway, then /gateway-resume for each RESUME
        self.last_activity = time.monotonic()
        self._changed = asyncio.Event()        # set (and replaced) whenever the bot calls REST
        self.log: list[str] = []               # gateway protocol trace (op names)

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> "Twin":
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/gateway-resume", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        app.router.add_get("/attachments/{aid}/{name}", self._cdn)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def _cdn(self, request: web.Request) -> web.Response:
        """Discord's CDN: the bytes of an attachment (a message's, or a user's upload)."""
        raw = self._attachment_bytes.get(request.match_info["aid"])
        if raw is None:
            return web.Response(status=404, text="Not Found")
        return web.Response(body=raw, content_type="application/octet-stream")

    def upload(self, filename: str, data: bytes) -> dict:
        """A file a user attaches to a slash command option (type 11): stored on the CDN, as
        Discord's client uploads it before sending the command.  Discord's limits: a plain file
        name, and at most the upload limit (the client refuses a larger file)."""
        if len(data) > self.upload_limit:
            raise AssertionError(f"{filename}: {len(data)} bytes is over the upload limit {self.upload_limit}")
        if not filename or "/" in filename or len(filename) > 1024:
            raise AssertionError(f"{filename!r} is not a file name Discord's client sends")
        aid = str(self.snowflake())
        self._attachment_bytes[aid] = bytes(data)
        return {"id": aid, "filename": filename, "size": len(data),
                "url": f"http://127.0.0.1:{self.port}/attachments/{aid}/{filename}",
                "proxy_url": f"http://127.0.0.1:{self.port}/attachments/{aid}/{filename}",
                "content_type": "text/csv" if filename.endswith(".csv") else "application/json"
                if filename.endswith(".json") else "application/zip" if filename.endswith(".zip")
                else "application/octet-stream",
                "ephemeral": True}

    async def stop(self) -> None:
        await self.close_gateway()
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
    def snowflake(self, shard: int | None = None) -> int:
        """A new id; ``shard``: a guild id whose events Discord sends on that shard of the
        twin's ``shard_count`` (``(id >> 22) % count`` is the id's millisecond timestamp)."""
        ms = int(self.wall() * 1000) - DISCORD_EPOCH_MS
        if shard is not None:
            ms -= (ms - shard) % self.shard_count
        return (ms << 22) + (next(self._ids) % (1 << 22))

    def add_guild(self, shard: int = 0, name: str = "Twin Guild", members: Any = None) -> dict:
        """A guild the bot is in, on gateway shard ``shard``, with a "general" text channel and
        the bot's role.  Added before the bot connects, it comes in READY (use
        :meth:`join_guild` once it is connected).  ``members``: the user ids that are members
        (``GET /guilds/{id}/members/{user}``); None: every user is."""
        if not 0 <= shard < self.shard_count:
            raise ValueError(f"shard {shard} of {self.shard_count}")
        gid = self.snowflake(shard)
        guild = {"id": gid, "name": name, "role_id": self.snowflake(), "channel_id": 0,
                 "members": None if members is None else {int(u) for u in members}}
        self.guilds[gid] = guild
        guild["channel_id"] = int(self._text_channel("general", gid)["id"])
        return guild

    async def join_guild(self, shard: int = 0, name: str = "Twin Guild") -> dict:
        """The bot is added to a new guild: GUILD_CREATE on its shard."""
        guild = self.add_guild(shard, name)
        await self.dispatch("GUILD_CREATE", self.guild_payload(guild["id"]))
        return guild

    def user(self, name: str) -> dict:
        uid = self.snowflake()
        u = {"id": str(uid), "username": name.lower(), "discriminator": "0", "global_name": name,
             "avatar": None, "bot": False}
        self.users[uid] = u
        return u

    def _text_channel(self, name: str, guild_id: int | None = None) -> dict:
        cid = self.snowflake()
        gid = self.guild_id if guild_id is None else guild_id
        ch = {"id": str(cid), "type": 0, "guild_id": str(gid), "name": name, "position": 0,
              "permission_overwrites": [], "nsfw": False, "parent_id": None, "topic": None,
              "last_message_id": None, "rate_limit_per_user": 0}
        self.channels[cid] = ch
        return ch

    def _thread(self, parent_id: int, name: str, thread_id: int | None = None, archive_after: Any = None) -> dict:
        tid = thread_id or self.snowflake()
        duration = int(archive_after or 1440)
        if duration not in (60, 1440, 4320, 10080):
            raise Reject(400, 50035, "Invalid Form Body", errors=[f"auto_archive_duration: {duration}"])
        th = {"id": str(tid), "type": 11, "guild_id": self._channel(parent_id)["guild_id"], "name": name[:100],
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
        guild = self.guilds.get(int(ch.get("guild_id") or self.guild_id)) or self.guilds[self.guild_id]
        for key in (str(guild["id"]), str(guild["role_id"]), self.bot_user["id"]):
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

    def guild_payload(self, guild_id: int | None = None) -> dict:
        guild = self.guilds[int(guild_id or self.guild_id)]
        gid, role_id = guild["id"], guild["role_id"]
        everyone = {"id": str(gid), "name": "@everyone", "permissions": MEMBER_PERMISSIONS,
                    "position": 0, "color": 0, "hoist": False, "managed": False, "mentionable": False,
                    "flags": 0}
        bot_role = {"id": str(role_id), "name": "TableBot",
                    "permissions": str(BOT_PERMISSIONS | guild.get("bot_extra", 0)),   # grant_bot: twin_events.py
                    "position": 1, "color": 0, "hoist": False, "managed": True, "mentionable": False,
                    "flags": 0, "tags": {"bot_id": str(self.app_id)}}
        me = {"user": self.bot_user, "roles": [str(role_id)], "joined_at": now_iso(), "deaf": False,
              "mute": False, "flags": 0}
        return {"id": str(gid), "name": guild["name"], "icon": None, "owner_id": str(self.snowflake()),
                "unavailable": False, "member_count": 4, "large": False, "features": [], "roles": [everyone, bot_role],
                "emojis": [], "stickers": [], "channels": [c for c in self.channels.values()
                                                         if c["type"] == 0 and c["guild_id"] == str(gid)],
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
        """Messages the bot posted for everyone to see (current versions): through the channel API,
        or as the public follow-up of an interaction (a board after a tap in the thread)."""
        out = [m for m in self.messages.values() if int(m["id"]) not in self.deleted_messages
               and (m["_via"] == "channel" or (m["_via"] == "followup" and not m["flags"] & EPHEMERAL))]
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
        # interaction callbacks and the interaction webhooks (follow-ups, edits of the original
        # answer) are not bound to the global limit
        if self.global_limit and not path.startswith(("/interactions/", "/webhooks/")):
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
        # Discord's buckets are fixed windows: a bucket's window opens with its first request
        # and, when it resets (X-RateLimit-Reset-After), the whole limit is available again —
        # what the headers promise and what discord.py plans by
        hits = self._buckets.setdefault(bucket, [])
        if hits and now - hits[0] >= per:
            hits.clear()
        reset_after = round(per - (now - hits[0]), 3) if hits else per
        if len(hits) >= limit:
            self.refusals.append(f"429 bucket {method} {path}")
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
        if self.place_payload(payload, ch, user, data, message, permissions):
            pass                # a DM, a group DM, a server without the bot (twin_user_app.py)
        else:
            payload.update(guild_id=ch["guild_id"], guild_locale=guild_locale, channel_id=ch["id"],
                           channel=ch, context=0, authorizing_integration_owners={"0": ch["guild_id"]},
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
        cid = int(payload.get("channel_id") or 0)
        meta = (self.channels.get(cid) or {}).get("thread_metadata")
        if meta and meta["archived"] and not meta.get("locked"):
            # a member's command in an archived (not locked) thread unarchives it, as a message would
            meta["archived"] = False
            self._thread_active[cid] = self.wall()
            await self.dispatch("THREAD_UPDATE", copy.deepcopy(self.channels[cid]))
        await self.dispatch("INTERACTION_CREATE", payload)
        if settle:
            await self.settle(ix, quiet=quiet, until=until, timeout=timeout)
        return ix

    def activity(self) -> None:
        """The bot just called REST: note the time and wake whoever waits on a change."""
        self.last_activity = time.monotonic()
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    async def _changes(self, seconds: float) -> None:
        """Wait until the bot next calls REST, or ``seconds`` (a waiter re-checks either way: a
        wait on something other than REST, e.g. the bot's log, polls at that period)."""
        if seconds > 0:
            try:
                await asyncio.wait_for(self._changed.wait(), seconds)
            except asyncio.TimeoutError:
                pass

    async def settle(self, ix: Interaction | None = None, *, quiet: float = QUIET,
                     until: Callable[[Interaction], Any] | None = None, timeout: float = 30.0) -> None:
        """Wait until ``ix`` is answered (a deferred one: followed up; with ``until``: until
        ``until(ix)`` holds too, e.g. the edit that follows a deferred update) and the bot has
        sent nothing for ``quiet`` seconds.  Bounded by ``timeout``.  Woken by each REST call
        rather than polling, so an answer is seen the moment it comes."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while (left := deadline - loop.time()) > 0:
            answered = ix is None or (ix.response_type is not None and not (
                ix.response_type == 5 and ix.original_id is not None
                and self.messages[ix.original_id]["flags"] & LOADING))
            if answered and until is not None and ix is not None:
                answered = bool(until(ix))
            if answered:
                idle = time.monotonic() - self.last_activity
                if idle >= quiet:
                    return
                await self._changes(min(quiet - idle, left))     # a call meanwhile restarts the quiet
            else:
                await self._changes(min(POLL, left))
        raise AssertionError(f"the bot did not finish answering within {timeout} s "
                             f"(interaction answered: {ix.response_type if ix else '-'}: {ix.text if ix else ''!r})")

    async def wait_for(self, predicate: Callable[[], Any], *, timeout: float = 20.0, what: str = "") -> Any:
        """``predicate()``'s first true value, checked at each REST call of the bot (and every
        :data:`POLL` seconds, for what the bot does elsewhere)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while (left := deadline - loop.time()) > 0:
            value = predicate()
            if value:
                return value
            await self._changes(min(POLL, left))
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
            if param["type"] == 11:          # an attachment: upload(...) made it
                if not isinstance(value, dict) or value.get("id") not in self._attachment_bytes:
                    raise AssertionError(f"/{path} {key}: pass twin.upload(name, bytes)")
                opt["value"] = value["id"]
                resolved.setdefault("attachments", {})[value["id"]] = value
            elif param["type"] == 6:
                opt["value"] = value["id"]
                resolved.setdefault("users", {})[value["id"]] = value
                resolved.setdefault("members", {})[value["id"]] = {
                    "roles": [], "joined_at": now_iso(), "deaf": False, "mute": False, "flags": 0,
                    "permissions": MEMBER_PERMISSIONS}
            else:
                want = {3: str, 4: int, 5: bool, 10: (int, float)}.get(param["type"], object)
                if key == focused and isinstance(value, str):
                    want = str          # a focused option is sent as typed, a number option too
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
                    quiet: float = QUIET, stale: bool = False, **options: Any) -> Interaction:
        """Run ``/path`` as ``user``.  Returns once the bot answered (a deferred answer: followed
        up) and then sent nothing for ``quiet`` seconds (0: as soon as it answered).  A command
        Discord's client does not offer there is refused unless ``stale`` (twin_user_app.py)."""
        data = self._command_data(path, options, None)
        payload = self.interaction_payload(2, user, data, channel_id=channel_id, locale=locale,
                                           guild_locale=guild_locale, permissions=permissions)
        self.check_offered(payload, stale)
        return await self.send_interaction(payload, user, settle=settle, quiet=quiet)

    async def autocomplete(self, user: dict, path: str, focused: str, *, channel_id: Any = None,
                           locale: str = "en-US", stale: bool = False, **options: Any) -> list[dict]:
        data = self._command_data(path, options, focused)
        payload = self.interaction_payload(4, user, data, channel_id=channel_id, locale=locale)
        self.check_offered(payload, stale)
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
            # a user picks between min_values and max_values distinct options (Discord's client)
            lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
            assert len(set(values)) == len(values) and lo <= len(values) <= hi, \
                f"{len(values)} values picked where {lo}..{hi} may be"
            data["values"] = values
        payload = self.interaction_payload(3, user, data, channel_id=stored["channel_id"], locale=locale,
                                           message=stored)
        return await self.send_interaction(payload, user, settle=settle, until=until)

    async def submit_modal(self, user: dict, ix: Interaction, values: dict[str, str], *, locale: str = "en-US",
                           settle: bool = True) -> Interaction:
        """``user`` fills in the modal the bot answered ``ix`` with (response type 9) and sends it:
        an INTERACTION_CREATE of type 5 (MODAL_SUBMIT) in ``ix``'s channel, carrying ``ix``'s
        message as it is now when ``ix`` came from a component (Discord includes it), and whose
        ``data`` is ``{"custom_id": <the modal's>, "components": [...]}`` in the shape that was
        opened: an action row → ``{"type": 1, "id", "components": [{"type": 4, "id",
        "custom_id", "value"}]}``, a label → ``{"type": 18, "id", "component": {"type": 4, "id",
        "custom_id", "value"}}``.  ``values``: text input custom_id → what the user typed; an
        input left out keeps its pre-filled ``value`` (or stays empty).  Checked as Discord's
        client checks the form before it lets it be sent: a required input is not empty, a value
        is within min_length..max_length, a short (style 1) input is one line; an unknown
        custom_id, a modal of another user's, or one already sent and answered (the client
        closed it) is an AssertionError.  Returns the new interaction (as :meth:`click` does)."""
        if ix.response_type != 9 or ix.modal is None:
            raise AssertionError(f"interaction {ix.payload['id']} was answered with type {ix.response_type}, "
                                 f"not a modal (9)")
        if ix.user_id != int(user["id"]):
            raise AssertionError("only the user whose interaction opened a modal sees it (and sends it)")
        if ix.modal_submit is not None and ix.modal_submit.response_type is not None:
            raise AssertionError(f"modal {ix.modal.get('custom_id')!r} was sent and answered: the client closed it")
        inputs = modal_inputs(ix.modal)
        by_id = {c["custom_id"]: c for c in inputs}
        unknown = sorted(set(values) - set(by_id))
        if unknown:
            raise AssertionError(f"{unknown} are not text inputs of modal {ix.modal.get('custom_id')!r}: "
                                 f"{sorted(by_id)}")
        filled: dict[str, str] = {}
        for cid, c in by_id.items():
            value = values.get(cid, c.get("value") or "")
            if not isinstance(value, str):
                raise AssertionError(f"{cid!r}: a text input's value is a str, not {value!r}")
            lo, hi = c.get("min_length") or 0, c.get("max_length") or MODAL_TEXT_MAX
            if c.get("required", True) and not value:
                raise AssertionError(f"{cid!r} is required: Discord's client does not send the form with it empty")
            if value and not lo <= len(value) <= hi:
                raise AssertionError(f"{cid!r}: {len(value)} characters where {lo}..{hi} may be typed")
            if c.get("style") == 1 and "\n" in value:
                raise AssertionError(f"{cid!r}: a short text input holds one line")
            filled[cid] = value
        # components carry ids: the bot's own, else numbered by Discord in order (skipping those taken)
        taken = {c["id"] for top in ix.modal["components"]
                 for c in [top, *top.get("components", []), top.get("component") or {}] if c.get("id")}
        numbers = (n for n in itertools.count(1) if n not in taken)

        def submitted(c: dict) -> dict:
            return {"type": 4, "id": c.get("id") or next(numbers), "custom_id": c["custom_id"],
                    "value": filled[c["custom_id"]]}

        components = []
        for top in ix.modal["components"]:
            top_id = top.get("id") or next(numbers)
            if top["type"] == 1:
                components.append({"type": 1, "id": top_id, "components": [submitted(top["components"][0])]})
            else:
                components.append({"type": 18, "id": top_id, "component": submitted(top["component"])})
        message = None
        if ix.payload.get("message"):
            message = self.messages.get(int(ix.payload["message"]["id"])) or ix.payload["message"]
        member = ix.payload.get("member") or {}
        payload = self.interaction_payload(
            5, user, {"custom_id": ix.modal["custom_id"], "components": components},
            channel_id=ix.payload["channel_id"], locale=locale,
            guild_locale=ix.payload.get("guild_locale", "en-US"),
            permissions=member.get("permissions", MEMBER_PERMISSIONS), message=message)
        sent = await self.send_interaction(payload, user, settle=settle)
        ix.modal_submit = sent
        return sent
