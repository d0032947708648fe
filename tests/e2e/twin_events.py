"""The Discord twin's guild scheduled events (a mixin of :class:`tests.e2e.twin.Twin`): the
server's calendar, as Discord's "Guild Scheduled Event" resource defines it.

REST (routed from :meth:`tests.e2e.twin_rest.TwinRest._route`):

* ``POST /guilds/{guild}/scheduled-events`` — a new entry.  Refused like Discord (400 50035,
  a violation: the bot sent what Discord refuses): a name of 1–100 characters, a description of
  at most 1,000, ``privacy_level`` 2 (GUILD_ONLY) and an ``entity_type`` (only ``EXTERNAL``, 3,
  is modelled: the twin has no voice or stage channels) — an external entry has no
  ``channel_id``, an ``entity_metadata.location`` of 1–100 characters and a
  ``scheduled_end_time`` after its start; the start in the future; at most 100 entries SCHEDULED
  or ACTIVE in a guild (30038).  The bot needs the guild-level permission MANAGE_EVENTS
  (``1 << 33``) — or Discord's newer CREATE_EVENTS (``1 << 44``) for its own entries — else
  403 / 50013 (an invalid request the fixtures count).
* ``GET /guilds/{guild}/scheduled-events[?with_user_count=]`` and ``GET …/{id}`` (404 10070
  for an unknown entry), ``PATCH …/{id}`` (every field optional, the same limits; ``status``
  only SCHEDULED → ACTIVE → COMPLETED and SCHEDULED → CANCELED, nothing after COMPLETED or
  CANCELED, and the start only while SCHEDULED), ``DELETE …/{id}`` (204).
* ``GET …/{id}/users?limit=&before=&after=&with_member=`` — the members marked interested, in
  ascending id order, at most ``limit`` (1–100), ``before`` winning over ``after``.

Discord's own automation (its "status update automation"): an EXTERNAL entry becomes ACTIVE at
its start and COMPLETED at its end, applied whenever the twin looks at it (its clock is
:meth:`Twin.wall`, moved by :meth:`Twin.advance`).

For tests: :meth:`grant_bot` gives the bot's role guild permissions (MANAGE_EVENTS) and tells
the bot (GUILD_ROLE_UPDATE); :meth:`interested` marks a user "interested" in an entry, as a
member pressing the bell does; :meth:`scheduled_events` lists a guild's entries as Discord
returns them.
"""
from __future__ import annotations

import copy
import datetime as dt
import re
from typing import Any

from .twin_limits import ADMINISTRATOR, BOT_PERMISSIONS, MEMBER_PERMISSIONS, Reject

MANAGE_EVENTS = 1 << 33
CREATE_EVENTS = 1 << 44
SCHEDULED, ACTIVE, COMPLETED, CANCELED = 1, 2, 3, 4
STAGE_INSTANCE, VOICE, EXTERNAL = 1, 2, 3
GUILD_ONLY = 2
NAME_MAX, DESCRIPTION_MAX, LOCATION_MAX = 100, 1000, 100
LIVE_MAX = 100          # entries SCHEDULED or ACTIVE in one guild
TRANSITIONS = {SCHEDULED: {ACTIVE, CANCELED}, ACTIVE: {COMPLETED}}
FIELDS = ("name", "description", "privacy_level", "scheduled_start_time", "scheduled_end_time", "entity_type",
          "entity_metadata", "channel_id", "status", "image", "recurrence_rule")


def _parse(value: Any, what: str) -> float:
    """An ISO 8601 timestamp → seconds since the epoch (400 when it is not one)."""
    try:
        when = dt.datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        raise Reject(400, 50035, "Invalid Form Body", errors=[f"{what}: {value!r} is no ISO8601 timestamp"]) from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.timezone.utc)
    return when.timestamp()


def _iso(t: float | None) -> str | None:
    return None if t is None else dt.datetime.fromtimestamp(t, dt.timezone.utc).isoformat()


class TwinEvents:
    """Scheduled events of the twin's guilds (module doc)."""

    # ------------------------------------------------------------------ state (made on first use)
    @property
    def _events(self) -> dict[int, dict]:
        return self.__dict__.setdefault("_scheduled_events_state", {})

    def _event_users(self, event_id: int) -> dict[int, dict]:
        return self.__dict__.setdefault("_scheduled_event_users", {}).setdefault(int(event_id), {})

    # ------------------------------------------------------------------ for tests
    async def grant_bot(self, bits: int = MANAGE_EVENTS, guild_id: Any = None, *, on: bool = True) -> None:
        """Give (``on``) or take the bot's role guild permissions ``bits`` in a guild, and tell the
        bot (GUILD_ROLE_UPDATE), as a server admin editing the bot's role does."""
        guild = self.guilds[int(guild_id or self.guild_id)]
        extra = int(guild.get("bot_extra") or 0)
        guild["bot_extra"] = (extra | bits) if on else (extra & ~bits)
        # the bot's role as GUILD_CREATE gives it, with the new permissions (tests/e2e/twin.py)
        role = next(r for r in self.guild_payload(guild["id"])["roles"] if r["id"] == str(guild["role_id"]))
        await self.dispatch("GUILD_ROLE_UPDATE", {"guild_id": str(guild["id"]), "role": role})

    def bot_guild_permissions(self, guild_id: Any = None) -> int:
        """The bot's guild-level permissions: @everyone's and its role's (what an EXTERNAL entry needs)."""
        guild = self.guilds[int(guild_id or self.guild_id)]
        perms = int(MEMBER_PERMISSIONS) | BOT_PERMISSIONS | int(guild.get("bot_extra") or 0)
        return (1 << 53) - 1 if perms & ADMINISTRATOR else perms

    def interested(self, event_id: Any, user: dict) -> None:
        """``user`` marks the entry "interested" (Discord's bell)."""
        ev = self._events.get(int(event_id))
        if ev is None:
            raise AssertionError(f"no scheduled event {event_id}")
        self._event_users(int(event_id))[int(user["id"])] = copy.deepcopy(user)

    def scheduled_events(self, guild_id: Any = None) -> list[dict]:
        """A guild's entries as Discord returns them (Discord's automation applied), oldest first."""
        gid = int(guild_id or self.guild_id)
        return [self._public_event(ev) for ev in self._events.values() if ev["guild_id"] == gid]

    def scheduled_event(self, event_id: Any) -> dict | None:
        ev = self._events.get(int(event_id))
        return None if ev is None else self._public_event(ev)

    # ------------------------------------------------------------------ the object
    def _auto(self, ev: dict) -> None:
        """Discord's automation: an EXTERNAL entry starts at its start and ends at its end."""
        if ev["entity_type"] != EXTERNAL:
            return
        now = self.wall()
        if ev["status"] == SCHEDULED and now >= ev["start"]:
            ev["status"] = ACTIVE
        if ev["status"] == ACTIVE and ev.get("end") is not None and now >= ev["end"]:
            ev["status"] = COMPLETED

    def _public_event(self, ev: dict, *, with_count: bool = False) -> dict:
        self._auto(ev)
        out = {"id": str(ev["id"]), "guild_id": str(ev["guild_id"]), "channel_id": None,
               "creator_id": self.bot_user["id"], "creator": copy.deepcopy(self.bot_user), "name": ev["name"],
               "description": ev.get("description"), "scheduled_start_time": _iso(ev["start"]),
               "scheduled_end_time": _iso(ev.get("end")), "privacy_level": ev["privacy_level"],
               "status": ev["status"], "entity_type": ev["entity_type"], "entity_id": None,
               "entity_metadata": {"location": ev["location"]} if ev.get("location") is not None else None,
               "image": None, "recurrence_rule": None}
        if with_count:
            out["user_count"] = len(self._event_users(ev["id"]))
        return out

    # ------------------------------------------------------------------ REST
    def _need_events(self, gid: int) -> None:
        perms = self.bot_guild_permissions(gid)
        if not perms & (MANAGE_EVENTS | CREATE_EVENTS):
            raise Reject(403, 50013, "Missing Permissions", violation=False)

    def _event_of(self, gid: int, eid: int) -> dict:
        ev = self._events.get(eid)
        if ev is None or ev["guild_id"] != gid:
            raise Reject(404, 10070, "Unknown Guild Scheduled Event", violation=False)
        self._auto(ev)
        return ev

    def _check_fields(self, payload: dict, ev: dict | None) -> dict:
        """The fields of a create (``ev`` None) or an edit, checked as Discord checks them; the
        entry's new values."""
        errors: list[str] = []
        unknown = sorted(set(payload) - set(FIELDS))
        if unknown:
            errors.append(f"unknown fields {unknown}")
        new = dict(ev or {})
        if ev is None or "name" in payload:
            name = payload.get("name")
            if not isinstance(name, str) or not 1 <= len(name) <= NAME_MAX:
                errors.append(f"name: {len(name) if isinstance(name, str) else name!r} (1..{NAME_MAX})")
            new["name"] = name
        if "description" in payload:
            text = payload["description"]
            if text is not None and (not isinstance(text, str) or not 1 <= len(text) <= DESCRIPTION_MAX):
                errors.append(f"description: {len(text) if isinstance(text, str) else text!r} (1..{DESCRIPTION_MAX})")
            new["description"] = text
        if ev is None or "privacy_level" in payload:
            if payload.get("privacy_level") != GUILD_ONLY:
                errors.append(f"privacy_level: {payload.get('privacy_level')!r} (2, GUILD_ONLY)")
            new["privacy_level"] = GUILD_ONLY
        if ev is None or "entity_type" in payload:
            kind = payload.get("entity_type")
            if kind in (STAGE_INSTANCE, VOICE):
                errors.append("entity_type: the twin has no voice or stage channel (use EXTERNAL)")
            elif kind != EXTERNAL:
                errors.append(f"entity_type: {kind!r}")
            new["entity_type"] = kind
        if payload.get("channel_id") is not None:
            errors.append("channel_id: must be null for an EXTERNAL entry")
        if "entity_metadata" in payload or ev is None:
            location = (payload.get("entity_metadata") or {}).get("location")
            if not isinstance(location, str) or not 1 <= len(location) <= LOCATION_MAX:
                errors.append(f"entity_metadata.location: {len(location) if isinstance(location, str) else location!r}"
                              f" (1..{LOCATION_MAX}, required for EXTERNAL)")
            new["location"] = location
        if ev is None or "scheduled_start_time" in payload:
            if payload.get("scheduled_start_time") is None:
                errors.append("scheduled_start_time: required")
            else:
                start = _parse(payload["scheduled_start_time"], "scheduled_start_time")
                if ev is not None and ev["status"] != SCHEDULED:
                    errors.append("scheduled_start_time: only a SCHEDULED entry's start can change")
                elif start <= self.wall():
                    errors.append("scheduled_start_time: Cannot schedule event in the past.")
                new["start"] = start
        if ev is None or "scheduled_end_time" in payload:
            end = payload.get("scheduled_end_time")
            if end is None:
                errors.append("scheduled_end_time: required for EXTERNAL")
            else:
                new["end"] = _parse(end, "scheduled_end_time")
        if new.get("end") is not None and new.get("start") is not None and new["end"] <= new["start"]:
            errors.append("scheduled_end_time: must be after scheduled_start_time")
        if "status" in payload:
            if ev is None:
                errors.append("status: not a field of a new entry")
            elif payload["status"] not in TRANSITIONS.get(ev["status"], set()):
                errors.append(f"status: {ev['status']} -> {payload['status']!r} is no valid transition")
            new["status"] = payload["status"]
        if errors:
            raise Reject(400, 50035, "Invalid Form Body", errors=errors)
        return new

    async def _scheduled_events_route(self, method: str, path: str, payload: Any, query: Any) -> tuple[int, Any]:
        g = re.fullmatch(r"/guilds/(\d+)/scheduled-events(?:/(\d+))?(/users)?", path)
        if g is None:
            raise Reject(404, 0, f"the twin has no route for {method} {path}")
        gid = int(g.group(1))
        if gid not in self.guilds:
            raise Reject(404, 10004, "Unknown Guild")
        count = str(query.get("with_user_count", "")).lower() in ("1", "true")
        if g.group(2) is None:
            if method == "GET":
                return 200, [self._public_event(ev, with_count=count) for ev in self._events.values()
                             if ev["guild_id"] == gid]
            if method != "POST":
                raise Reject(405, 0, f"{method} {path}")
            self._need_events(gid)
            new = self._check_fields(payload or {}, None)
            live = [ev for ev in self._events.values() if ev["guild_id"] == gid and ev["status"] in (SCHEDULED, ACTIVE)]
            if len(live) >= LIVE_MAX:
                raise Reject(400, 30038, "Maximum number of guild scheduled events reached (100)")
            eid = self.snowflake()
            new.update(id=eid, guild_id=gid, status=SCHEDULED)
            self._events[eid] = new
            return 200, self._public_event(new)
        ev = self._event_of(gid, int(g.group(2)))
        if g.group(3):
            if method != "GET":
                raise Reject(405, 0, f"{method} {path}")
            try:
                limit = int(query.get("limit", 100))
            except ValueError:
                limit = -1
            if not 1 <= limit <= 100:
                raise Reject(400, 50035, "Invalid Form Body", errors=[f"limit: {query.get('limit')!r} (1..100)"])
            users = sorted(self._event_users(ev["id"]).items())
            if query.get("before"):
                users = [(u, x) for u, x in users if u < int(query["before"])][-limit:]
            else:
                users = [(u, x) for u, x in users if u > int(query.get("after") or 0)][:limit]
            with_member = str(query.get("with_member", "")).lower() in ("1", "true")
            out = []
            for _, user in users:
                row: dict[str, Any] = {"guild_scheduled_event_id": str(ev["id"]), "user": copy.deepcopy(user)}
                if with_member:
                    row["member"] = {"user": copy.deepcopy(user), "roles": [], "joined_at": _iso(self.wall()),
                                     "deaf": False, "mute": False, "flags": 0}
                out.append(row)
            return 200, out
        if method == "GET":
            return 200, self._public_event(ev, with_count=count)
        if method == "PATCH":
            self._need_events(gid)
            if ev["status"] in (COMPLETED, CANCELED):
                raise Reject(400, 50035, "Invalid Form Body", errors=["a COMPLETED or CANCELED entry cannot change"])
            new = self._check_fields(payload or {}, ev)
            ev.update(new)
            return 200, self._public_event(ev)
        if method == "DELETE":
            self._need_events(gid)
            del self._events[ev["id"]]
            return 204, None
        raise Reject(405, 0, f"{method} {path}")
