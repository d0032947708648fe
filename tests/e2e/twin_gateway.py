"""The Discord twin's gateway side (a mixin of :class:`tests.e2e.twin.Twin`), with shards.

Each websocket connection IDENTIFYs as one shard, ``"shard": [shard_id, shard_count]`` (none: shard
0 of 1), and gets a session of its own: its own ``session_id``, sequence numbers and buffer of
events for a RESUME.  As Discord does, the twin

* closes a second IDENTIFY on one connection with **4005** "Already authenticated", and an
  IDENTIFY whose shard is malformed or out of range (``shard_id`` not in
  ``0 … shard_count − 1``) with **4010** "Invalid shard", and, when the twin requires sharding
  (``Twin(shards=N)`` with N > 1: the bot is in too many guilds for one connection), one that
  asks for fewer than N shards with **4011** "Sharding required";
* routes each guild's events (GUILD_CREATE, INTERACTION_CREATE, THREAD_*, CHANNEL_UPDATE, …) to
  the session of shard ``(guild_id >> 22) % shard_count`` only, and DMs and guild-less events to
  shard 0;
* lists in READY only the guilds of the session's shard, each then sent as GUILD_CREATE.

An event for a shard nobody identified on is lost, as Discord's would be.  With the default
single shard the twin behaves as one connection always did.
"""
from __future__ import annotations

import asyncio
import json
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from .twin_limits import TOKEN

ALREADY_AUTHENTICATED, INVALID_SHARD, SHARDING_REQUIRED = 4005, 4010, 4011
GUILD_EVENTS = ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE")   # the guild's id is the payload's ``id``


@dataclass
class ShardSession:
    """One identified gateway session: a shard of ``shard_count``."""
    shard_id: int
    shard_count: int
    session_id: str
    connection: int                       # the twin's connection number it was identified on
    seq: int = 0
    events: list[dict] = field(default_factory=list)   # what was sent (or is due) on it, for RESUME
    ws: Any = None
    transport: Any = None


class TwinGateway:
    """Gateway of the twin (see the module doc).  Needs the twin's ``shard_count``,
    ``require_sharding``, ``guilds``, ``interactions``, ``guild_payload``, counters and ``log``."""

    # ------------------------------------------------------------------ shards
    def shard_of(self, guild_id: Any, count: int | None = None) -> int:
        """The shard Discord delivers ``guild_id``'s events on (no guild: shard 0)."""
        count = count or self._session_count or self.shard_count
        return 0 if guild_id is None else (int(guild_id) >> 22) % count

    def shard_for(self, t: str, d: dict) -> int:
        gid = d.get("id") if t in GUILD_EVENTS else d.get("guild_id")
        return self.shard_of(gid)

    def ready_event(self, shard: int = 0) -> asyncio.Event:
        """Set while shard ``shard`` has an identified (or resumed) connection."""
        event = self._ready.get(shard)
        if event is None:
            event = self._ready[shard] = asyncio.Event()
        return event

    @property
    def ready(self) -> asyncio.Event:
        return self.ready_event(0)

    @property
    def ws(self) -> web.WebSocketResponse | None:
        """Shard 0's connection (the only one without sharding)."""
        session = self.sessions.get(0)
        return session.ws if session is not None else None

    @property
    def session_id(self) -> str | None:
        session = self.sessions.get(0)
        return session.session_id if session is not None else None

    # ------------------------------------------------------------------ sending
    async def _send(self, ws: web.WebSocketResponse, payload: dict) -> None:
        await ws.send_str(json.dumps(payload))

    async def dispatch(self, t: str, d: dict, *, shard: int | None = None) -> None:
        """Send a DISPATCH event on the shard it belongs to (``shard``: that one), buffered for
        a RESUME while the shard's socket is down."""
        shard = self.shard_for(t, d) if shard is None else shard
        session = self.sessions.get(shard)
        event: dict[str, Any] = {"op": 0, "t": t, "s": None, "d": d}
        if session is not None:
            session.seq += 1
            event["s"] = session.seq
            session.events.append(event)
        self.events.append(dict(event, shard=shard))
        if session is not None and session.ws is not None and not session.ws.closed \
                and self.ready_event(shard).is_set():
            await self._deliver(session, event)

    async def _deliver(self, session: ShardSession, event: dict) -> None:
        if event["t"] == "INTERACTION_CREATE":
            ix = self.interactions.get(event["d"]["token"])
            if ix is not None:
                if ix.sent_at is None:
                    ix.sent_at = time.monotonic()      # (an interaction made without send_interaction)
                ix.shards.append(session.shard_id)
        await self._send(session.ws, event)

    # ------------------------------------------------------------------ connections
    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        if request.remote not in ("127.0.0.1", "::1"):
            raise web.HTTPForbidden()
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        self.connections += 1
        connection = self.connections
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
                    await self._identify(ws, transport, data.get("d") or {}, connection)
                elif op == 6:
                    await self._resume(ws, transport, data.get("d") or {})
                elif op in (3, 4, 8):
                    self.log.append(f"op{op}")
                else:
                    self.violations.append(f"gateway: unexpected op {op}")
        finally:
            for session in self.sessions.values():
                if session.ws is ws:
                    session.ws = session.transport = None
                    self.ready_event(session.shard_id).clear()
        return ws

    @staticmethod
    def _shard_asked(d: dict) -> tuple[int, int] | None:
        """The IDENTIFY's ``[shard_id, shard_count]`` (none: shard 0 of 1); None if invalid."""
        shard = d.get("shard")
        if shard is None:
            return 0, 1
        if not (isinstance(shard, list) and len(shard) == 2
                and all(isinstance(x, int) and not isinstance(x, bool) for x in shard)):
            return None
        sid, count = shard
        return (sid, count) if 0 <= sid < count else None

    async def _identify(self, ws: web.WebSocketResponse, transport: Any, d: dict, connection: int = 0) -> None:
        if d.get("token") != TOKEN:
            self.log.append("IDENTIFY(bad token)")
            await ws.close(code=4004, message=b"Authentication failed.")
            return
        if any(session.ws is ws for session in self.sessions.values()):
            self.violations.append("IDENTIFY sent twice on one connection")
            await ws.close(code=ALREADY_AUTHENTICATED, message=b"Already authenticated.")
            return
        asked = self._shard_asked(d)
        if asked is None:
            self.log.append(f"IDENTIFY(invalid shard {d.get('shard')!r})")
            await ws.close(code=INVALID_SHARD, message=b"Invalid shard.")
            return
        sid, count = asked
        if self.require_sharding and count < self.shard_count:
            self.log.append(f"IDENTIFY(sharding required: {count} < {self.shard_count})")
            await ws.close(code=SHARDING_REQUIRED, message=b"Sharding required.")
            return
        if d.get("intents", 0) & ((1 << 1) | (1 << 8) | (1 << 15)):
            self.violations.append("identify asked for a privileged intent")
        self.identifies += 1
        self.identified.append((sid, count))
        self.log.append("IDENTIFY" if count == 1 else f"IDENTIFY[{sid},{count}]")
        session = ShardSession(sid, count, uuid.uuid4().hex, connection, ws=ws, transport=transport)
        self.sessions[sid] = session          # a new session of the shard replaces the old one
        self._session_count = count
        self.ready_event(sid).set()
        guilds = [gid for gid in self.guilds if self.shard_of(gid, count) == sid]
        await self.dispatch("READY", {
            "v": 10, "user": self.bot_user, "guilds": [{"id": str(g), "unavailable": True} for g in guilds],
            "session_id": session.session_id, "session_type": "normal",
            "resume_gateway_url": f"ws://127.0.0.1:{self.port}/gateway-resume",
            "shard": [sid, count], "application": {"id": str(self.app_id), "flags": 0},
            "private_channels": [], "relationships": [], "user_settings": {}, "presences": [],
            "guild_join_requests": [], "geo_ordered_rtc_regions": []}, shard=sid)
        for gid in guilds:
            await self.dispatch("GUILD_CREATE", self.guild_payload(gid), shard=sid)

    async def _resume(self, ws: web.WebSocketResponse, transport: Any, d: dict) -> None:
        session = next((s for s in self.sessions.values() if s.session_id == d.get("session_id")), None)
        if d.get("token") != TOKEN or session is None:
            self.log.append("RESUME(invalid)")
            await self._send(ws, {"op": 9, "d": False})
            return
        self.resumes += 1
        self.log.append("RESUME")
        if self.resume_delay:           # a slow RESUME: the missed events come late
            await asyncio.sleep(self.resume_delay)
        session.ws, session.transport = ws, transport
        seq = d.get("seq") or 0
        for event in [e for e in session.events if e["s"] > seq]:
            await self._deliver(session, event)
        session.seq += 1
        resumed = {"op": 0, "t": "RESUMED", "s": session.seq, "d": {}}
        session.events.append(resumed)
        await self._send(ws, resumed)
        self.ready_event(session.shard_id).set()

    async def wait_connected(self, timeout: float = 30.0, *, shard: int = 0) -> None:
        await asyncio.wait_for(self.ready_event(shard).wait(), timeout)

    async def close_gateway(self) -> None:
        for session in self.sessions.values():
            if session.ws is not None and not session.ws.closed:
                try:
                    await asyncio.wait_for(session.ws.close(code=1001), 2)
                except Exception:
                    pass

    # ------------------------------------------------------------------ fault injection
    async def drop_gateway(self, shard: int = 0) -> None:
        """Cut shard ``shard``'s websocket as a network failure would (TCP abort, no close frame)."""
        session = self.sessions.get(shard)
        ws, transport = (session.ws, session.transport) if session is not None else (None, None)
        if session is not None:
            session.ws = session.transport = None
        self.ready_event(shard).clear()
        self.log.append("DROP")
        if transport is not None:
            transport.abort()
        elif ws is not None:
            await ws.close(code=4000)

    async def request_reconnect(self, shard: int = 0) -> None:
        """Send op 7 RECONNECT on shard ``shard`` (Discord asks the client to reconnect and resume)."""
        ws = self.sessions[shard].ws if shard in self.sessions else None
        assert ws is not None, "no gateway connection"
        self.ready_event(shard).clear()
        self.log.append("RECONNECT")
        await ws.send_str(json.dumps({"op": 7, "d": None}))
