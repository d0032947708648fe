"""How each player is told (docs/clocks.md, "How you are told"): a ping in the match thread, a
DM, or nothing but the daily digest — now, or after their quiet hours — and the notices that
come on their own: held notices whose time has come, the daily digest, and the reminder that a
vacation ends.  No Discord here: the front end sends what :class:`Notices` decides.

Pure decisions (:func:`decide`, :func:`day_start`, :func:`digest_due`) are plain functions of
a player's :class:`~host.clocks.notify.NotifySettings` and instants; :class:`Notices` wraps them
in the store calls (settings, claims, the queue of held notices).

* **Kinds.**  ``turn`` (it is the player's turn), ``remind`` (their time runs low: the host's
  clock reminder), ``news`` (anything else the match pings them for: a time-out they may claim,
  an abort vote, a vacation day taken), ``vacation_end`` and ``digest``.
* **How.**  The player's own setting: ``ping`` in the thread, ``dm``, or ``digest`` — told nothing
  now.  Inside their quiet hours nothing now either: the notice is queued until
  :func:`host.clocks.notify.deliver_at` (the end of the quiet hours, or an hour before the
  deadline when that comes first) and delivered then, as the player's setting says at that time.
* **At most once a day.**  A reminder (and a vacation-end reminder) per match per local day of
  the player, claimed in the store (:meth:`claim_notice`, one winner across processes) for the
  instant it is delivered; the digest once per local day, at the chosen hour (up to
  :data:`DIGEST_LATE` late after a restart).
* **Still true when delivered.**  A held notice about a turn, a reminder or a vacation's end is
  dropped when the match no longer waits on the player (they played meanwhile, it ended), and
  carries the deadline as it is then.
* Damaged settings count as the defaults (UTC, no quiet hours, ping), logged.
"""
from __future__ import annotations

import logging
import math
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any, Iterable

from data import i18n
from data.store import ACTIVE, MatchRecord
from host.clocks import ClockError
from host.clocks import match as bank_clock
from host.clocks import notify
from host.clocks.notify import NotifySettings
from host.clocks.turns import Waiting
from host.types import Msg

log = logging.getLogger("host.notices")

HOUR = 3600.0
TURN, REMIND, NEWS, VACATION_END, DIGEST = "turn", "remind", "news", "vacation_end", "digest"
KINDS = (TURN, REMIND, NEWS, VACATION_END, DIGEST)
SENDS = ("ping", "dm")
SCAN_SECONDS = 15 * 60          # digests and vacation ends are looked for once a quarter hour: every
                                # zone's offset is a multiple of 15 minutes, so a whole local hour
                                # always falls on one
DIGEST_LATE = 6 * HOUR          # a digest missed (the bot was down) still comes this long after its hour
VACATION_LEAD_HOURS = 24        # "a vacation is about to end": within a day
HELD_PER_TICK = 200             # held notices taken per tick (the rest wait for the next)
LINES_MAX = 6                   # lines of a "news" notice carried along
WAITING_MAX = 1000              # matches of one player read for a digest or a vacation's end


# --------------------------------------------------------------------------- pure decisions
@dataclass(frozen=True)
class Route:
    """How and when one notice reaches a player: ``how`` "ping" or "dm" at ``at`` (``now`` or
    later: held by quiet hours), or ``how`` None — nothing now, the digest only."""

    how: str | None
    at: float | None

    def held(self, now: float) -> bool:
        return self.at is not None and self.at > now


def read_settings(raw: Any, user_id: Any = None) -> NotifySettings:
    """A player's stored settings (``{}`` when none); damaged ones count as the defaults."""
    if not raw:
        return NotifySettings()
    try:
        return NotifySettings.from_json(raw)
    except (ClockError, TypeError, ValueError, AttributeError) as exc:
        log.warning("player %s: notification settings cannot be read; the defaults instead (%s)", user_id, exc)
        return NotifySettings()


def decide(settings: NotifySettings, now: float, due_by: float | None = None) -> Route:
    """How and when a notice made at ``now`` reaches the player: their way (a ping or a DM) at
    once outside quiet hours; inside them when they end, unless ``due_by`` (a deadline) comes
    first — then an hour before it; nothing for a player who takes the digest only."""
    if settings.how not in SENDS:
        return Route(None, None)
    return Route(settings.how, notify.deliver_at(settings, now, due_by))


def day_start(settings: NotifySettings, t: float) -> float:
    """The first instant of the player's local day holding ``t`` (local midnight; on a day whose
    midnight is skipped, the jump)."""
    zone = settings.tz
    return notify.local_instants(zone, datetime.fromtimestamp(t, zone).date(), 0)[0]


def digest_due(settings: NotifySettings, now: float, late: float = DIGEST_LATE) -> float | None:
    """The instant of the player's digest due at ``now`` — the latest chosen local hour at or
    before ``now``, if at most ``late`` ago — or None (no digest hour, or not now).  The caller
    claims it once (a claim not since that instant)."""
    if settings.digest_hour is None:
        return None
    zone = settings.tz
    day = datetime.fromtimestamp(now, zone).date()
    for back in range(3):
        at = notify.local_instants(zone, day - timedelta(days=back), settings.digest_hour * 60)[0]
        if at <= now:
            return at if now - at < late else None
    return None     # pragma: no cover - a local hour comes every day


def notice_key(match_id: int, user_id: int) -> str:
    """The key of a once-a-day notice of one match for one player."""
    return f"match:{int(match_id)}:user:{int(user_id)}"


def kinds_of(turn: Iterable[int] = (), remind: Iterable[int] = (), news: Iterable[int] = ()) -> dict[int, str]:
    """Each player's one notice: a reminder over a turn over news."""
    out: dict[int, str] = {}
    for kind, users in ((NEWS, news), (TURN, turn), (REMIND, remind)):
        for u in users:
            if u:
                out[int(u)] = kind
    return out


# --------------------------------------------------------------------------- what is sent
@dataclass(frozen=True)
class Notice:
    """One thing to tell one player: ``kind`` (module doc), sent as ``how`` ("ping" in the match
    thread, "dm").  ``deadline``: the player's deadline (a turn, a reminder) or the end of their
    vacation; ``lines``: what happened (news); ``rows``: the games of a digest; ``locale``: the
    player's own language when their settings name one."""

    user_id: int
    kind: str
    how: str = "dm"
    match_id: int | None = None
    guild_id: int | None = None
    channel_id: int | None = None
    game: str | None = None
    deadline: float | None = None
    lines: tuple[Msg, ...] = ()
    rows: tuple[Waiting, ...] = field(default=(), compare=False)
    channels: dict[int, int | None] = field(default_factory=dict, compare=False)   # a digest's match -> channel
    locale: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The notice as the queue of held notices keeps it (a digest is never held)."""
        lines = []
        for m in self.lines[:LINES_MAX]:
            try:
                lines.append(_msg_json(m))
            except (TypeError, ValueError):
                log.debug("a line of a held notice cannot be kept and is left out: %s", getattr(m, "key", m))
        return {"user_id": self.user_id, "kind": self.kind, "how": self.how, "match_id": self.match_id,
                "guild_id": self.guild_id, "channel_id": self.channel_id, "game": self.game,
                "deadline": self.deadline, "lines": lines, "locale": self.locale}

    @classmethod
    def from_json(cls, data: Any) -> "Notice":
        """A held notice read back, checked (``ValueError`` when it cannot be one)."""
        if not isinstance(data, dict):
            raise ValueError("a held notice is a JSON object")
        kind, how = data.get("kind"), data.get("how")
        if kind not in KINDS or kind == DIGEST or how not in SENDS:
            raise ValueError(f"not a held notice: kind {str(kind)[:20]!r}, how {str(how)[:20]!r}")
        deadline = data.get("deadline")
        if deadline is not None and not (type(deadline) in (int, float) and math.isfinite(deadline)):
            raise ValueError("deadline: not a finite number")
        game = data.get("game")
        locale = data.get("locale")
        lines = data.get("lines") or []
        if not isinstance(lines, list):
            raise ValueError("lines: not a list")
        return cls(user_id=_id(data.get("user_id"), "user_id"), kind=kind, how=how,
                   match_id=_opt_id(data.get("match_id"), "match_id"),
                   guild_id=_opt_id(data.get("guild_id"), "guild_id"),
                   channel_id=_opt_id(data.get("channel_id"), "channel_id"),
                   game=game if isinstance(game, str) and len(game) <= 40 else None,
                   deadline=None if deadline is None else float(deadline),
                   lines=tuple(_msg_from_json(x) for x in lines[:LINES_MAX]),
                   locale=locale if locale in i18n.LOCALES else None)


def _id(value: Any, name: str) -> int:
    if type(value) is not int or value <= 0:
        raise ValueError(f"{name}: not an id")
    return value


def _opt_id(value: Any, name: str) -> int | None:
    return None if value is None else _id(value, name)


def _value_json(value: Any) -> Any:
    if isinstance(value, Msg):
        return {"$msg": _msg_json(value)}
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float) and math.isfinite(value):
        return value
    if isinstance(value, (list, tuple)):
        return [_value_json(v) for v in value]
    if isinstance(value, dict) and all(isinstance(k, str) for k in value) and "$msg" not in value:
        return {k: _value_json(v) for k, v in value.items()}
    raise TypeError(f"cannot keep a {type(value).__name__}")


def _msg_json(m: Any) -> dict[str, Any]:
    if not isinstance(m, Msg):
        raise TypeError("not a Msg")
    return {"key": m.key, "params": {k: _value_json(v) for k, v in m.params.items()}}


def _value_from_json(value: Any) -> Any:
    if isinstance(value, dict):
        if set(value) == {"$msg"}:
            return _msg_from_json(value["$msg"])
        return {k: _value_from_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_value_from_json(v) for v in value]
    return value


def _msg_from_json(data: Any) -> Msg:
    if not isinstance(data, dict) or not isinstance(data.get("key"), str) or not isinstance(data.get("params"), dict):
        raise ValueError("a line of a held notice is not a message")
    return Msg(data["key"], {str(k): _value_from_json(v) for k, v in data["params"].items()})


@dataclass
class Plan:
    """What to do with one Result's notices: ``ping`` in the thread now, ``dm`` now, ``held``
    (already queued: ``(deliver at, notice)``), ``silent`` (told nothing now: the digest only,
    or a reminder already had today)."""

    ping: list[int] = field(default_factory=list)
    dm: list[Notice] = field(default_factory=list)
    held: list[tuple[float, Notice]] = field(default_factory=list)
    silent: list[int] = field(default_factory=list)


def _locale(raw: Any) -> str | None:
    value = raw.get("locale") if isinstance(raw, dict) else None
    return value if value in i18n.LOCALES else None


# --------------------------------------------------------------------------- with the store
class Notices:
    """The store calls around the decisions (module doc).  One per process: it remembers the
    quarter hour it last looked for digests and vacation ends."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self._scanned: int | None = None

    async def route(self, rec: MatchRecord, now: float, *, turn: Iterable[int] = (), remind: Iterable[int] = (),
                    news: Iterable[int] = (), lines: Iterable[Msg] = (), no_dm: Iterable[int] = ()) -> Plan:
        """Decide for each player a match update would ping: ``turn`` (it is their turn),
        ``remind`` (the clock's reminder: at most one per match per local day) and ``news``
        (``lines`` say what).  Held notices are queued here; ``no_dm``: players whose DMs are
        known to be closed (told by a ping instead)."""
        kinds = kinds_of(turn, remind, news)
        plan = Plan()
        if not kinds or rec.id is None:
            return plan
        raw = await self.store.player_settings_many(list(kinds))
        closed = {int(u) for u in no_dm}
        for uid, kind in kinds.items():
            settings = read_settings(raw.get(uid), uid)
            due = rec.deadline if kind in (TURN, REMIND) else None
            route = decide(settings, now, due)
            if route.how is None or route.at is None:
                plan.silent.append(uid)
                continue
            if kind == REMIND and not await self.store.claim_notice(
                    REMIND, notice_key(rec.id, uid), route.at, day_start(settings, route.at)):
                plan.silent.append(uid)          # one reminder per match per local day
                continue
            how = "ping" if route.how == "dm" and uid in closed else route.how
            notice = Notice(user_id=uid, kind=kind, how=how, match_id=rec.id, guild_id=rec.guild_id,
                            channel_id=rec.channel_id, game=rec.game, deadline=due,
                            lines=tuple(lines)[:LINES_MAX] if kind == NEWS else (), locale=_locale(raw.get(uid)))
            if route.held(now):
                await self.store.queue_notice(uid, route.at, notice.to_json())
                plan.held.append((route.at, notice))
            elif how == "ping":
                plan.ping.append(uid)
            else:
                plan.dm.append(notice)
        return plan

    async def notices_tick(self, now: float) -> list[Notice]:
        """What to send now: the held notices whose time has come (still true), and, once a
        quarter hour, the digests due and the reminders that a vacation ends."""
        out = await self.held(now)
        bucket = int(now // SCAN_SECONDS)
        if bucket != self._scanned:
            self._scanned = bucket
            out += await self.scan(now)
        return out

    # -- held notices ---------------------------------------------------------------------------
    async def held(self, now: float) -> list[Notice]:
        """The held notices due at ``now`` (taken from the queue: each once), as the player's
        settings say now, and only those still true (module doc)."""
        taken: list[Notice] = []
        seen: set[tuple] = set()
        for id_, uid, payload in await self.store.due_notices(now, limit=HELD_PER_TICK):
            try:
                notice = replace(Notice.from_json(payload), user_id=uid)
            except ValueError as exc:
                log.warning("held notice %s cannot be read and is dropped: %s", id_, exc)
                continue
            key = (uid, notice.kind, notice.match_id)
            if key not in seen:          # the same notice held twice (the turn came back): once
                seen.add(key)
                taken.append(notice)
        if not taken:
            return []
        users = list(dict.fromkeys(n.user_id for n in taken))
        raw = await self.store.player_settings_many(users)
        away = await self.store.on_vacation(
            [n.user_id for n in taken if n.kind == VACATION_END], now) if any(
            n.kind == VACATION_END for n in taken) else {}
        waiting: dict[int, dict[int, dict]] = {}
        out = []
        for notice in taken:
            settings = read_settings(raw.get(notice.user_id), notice.user_id)
            if settings.how not in SENDS:
                continue                  # the player takes the digest only now
            notice = replace(notice, how=settings.how, locale=_locale(raw.get(notice.user_id)) or notice.locale)
            if notice.kind in (TURN, REMIND, VACATION_END) and notice.match_id is not None:
                if notice.user_id not in waiting:
                    rows = await self.store.waiting_for(notice.user_id, limit=WAITING_MAX)
                    waiting[notice.user_id] = {r["match_id"]: r for r in rows}
                row = waiting[notice.user_id].get(notice.match_id)
                if row is None:
                    continue              # the match no longer waits on them
                if notice.kind == VACATION_END:
                    end = away.get(notice.user_id)
                    if end is None or end <= now:
                        continue          # the vacation is over already
                    notice = replace(notice, deadline=end)
                else:
                    notice = replace(notice, deadline=row["deadline"])
                    if notice.kind == REMIND and notice.deadline is None:
                        continue          # the clock is paused: nothing runs out
            elif notice.match_id is not None:
                rec = await self.store.get_match(notice.match_id)
                if rec is None or rec.status != ACTIVE:
                    continue              # news of a match that has ended meanwhile
            out.append(notice)
        return out

    # -- digests and vacation ends -------------------------------------------------------------
    async def scan(self, now: float) -> list[Notice]:
        """The digests due at ``now`` and the reminders that a vacation ends within a day, for
        every player some match waits on."""
        users = await self.waiting_users()
        if not users:
            return []
        raw = await self.store.player_settings_many(users)
        out: list[Notice] = []
        for uid in users:
            if uid not in raw:
                continue                  # no settings: no digest hour
            settings = read_settings(raw[uid], uid)
            due = digest_due(settings, now)
            if due is not None:
                notice = await self.digest(uid, due, now, _locale(raw[uid]))
                if notice is not None:
                    out.append(notice)
        for uid, end in (await self.store.on_vacation(users, now)).items():
            settings = read_settings(raw.get(uid), uid)
            if notify.vacation_reminder_due(end, None, now, settings.zone, VACATION_LEAD_HOURS):
                out += await self.vacation_ends(uid, settings, end, now, _locale(raw.get(uid)))
        return out

    async def waiting_users(self) -> list[int]:
        """Every player some unfinished match waits on (one indexed read of the store)."""
        return [int(u) for u in await self.store.waiting_users()]

    async def digest(self, user_id: int, due: float, now: float, locale: str | None = None) -> Notice | None:
        """The player's daily digest (claimed: once for the digest hour ``due``), or None when
        nothing waits on them or it was sent."""
        rows = await self.store.waiting_for(user_id, limit=WAITING_MAX)
        if not rows:
            return None
        if not await self.store.claim_notice(DIGEST, f"user:{int(user_id)}", now, due):
            return None
        games = []
        channels: dict[int, int | None] = {}
        for row in rows:
            rec = await self.store.get_match(row["match_id"])
            if rec is None or rec.status != ACTIVE:
                continue
            games.append(_waiting(rec, row, user_id))
            channels[int(rec.id)] = rec.channel_id
        if not games:
            return None
        first = games[0]
        return Notice(user_id=int(user_id), kind=DIGEST, how="dm", match_id=first.match_id,
                      guild_id=first.guild_id, rows=tuple(games), channels=channels, locale=locale)

    async def vacation_ends(self, user_id: int, settings: NotifySettings, end: float, now: float,
                            locale: str | None = None) -> list[Notice]:
        """The reminder that the player's vacation ends at ``end``, for each match waiting on
        them whose clock a vacation stops: at most one per match per local day; held ones
        queued, the others returned."""
        route = decide(settings, now, end)
        if route.how is None or route.at is None:
            return []
        out = []
        for row in await self.store.waiting_for(user_id, limit=WAITING_MAX):
            rec = await self.store.get_match(row["match_id"])
            if rec is None or rec.status != ACTIVE:
                continue
            mc = bank_clock.read(rec)
            if mc is None or mc.banks is None or not mc.vacation:
                continue                  # a vacation does not stop this match's clock
            if not await self.store.claim_notice(VACATION_END, notice_key(rec.id, user_id), route.at,
                                                 day_start(settings, route.at)):
                continue
            notice = Notice(user_id=int(user_id), kind=VACATION_END, how=route.how, match_id=rec.id,
                            guild_id=rec.guild_id, channel_id=rec.channel_id, game=rec.game, deadline=end,
                            locale=locale)
            if route.held(now):
                await self.store.queue_notice(user_id, route.at, notice.to_json())
            else:
                out.append(notice)
        return out


def _waiting(rec: MatchRecord, row: dict, user_id: int) -> Waiting:
    """A digest's entry: the game, the other players, the time left (the link is the front
    end's)."""
    others = tuple(n for u, n in zip(rec.seats, rec.names) if u is not None and int(u) != int(user_id) and n)
    return Waiting(match_id=int(rec.id), guild_id=row.get("guild_id", rec.guild_id), game=rec.game,
                   opponents=others, turn=int(rec.n_commands) + 1, deadline=row.get("deadline"),
                   bank_left=row.get("bank_left"), event=(rec.meta or {}).get("pairing") is not None)


__all__ = ["DIGEST", "KINDS", "NEWS", "REMIND", "TURN", "VACATION_END", "Notice", "Notices", "Plan", "Route",
           "day_start", "decide", "digest_due", "kinds_of", "notice_key", "read_settings"]
