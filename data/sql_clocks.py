"""Clocks across days in the SQL stores (:class:`ClocksSql`, a part of
:class:`data.sql_store.SqlStore`, the same SQL on both backends): a player's own settings,
vacations, the games waiting on each player, the notices already sent and the notices held by
quiet hours (docs/clocks.md; the tables of ``data/migrations/0008_clocks.sql``).

The store keeps plain values and JSON objects; the host turns them into its own classes
(``host/clocks/``: ``NotifySettings.from_json``, ``Vacation.from_json``, ``turns.Waiting``).
Every row read is checked — types, finite numbers, sizes, a JSON object where one is stored —
and one that fails is skipped with a log line, never served, never raised out of a listing and
never stopping the others.  Input that could not be stored as it is raises ``ValueError`` and
writes nothing.

Across processes:

* **one vacation at a time** — :meth:`ClocksSql.start_vacation` decides inside its write
  transaction and stores the vacation under the player's next number (``seq``, part of the
  primary key): of two starts at the same moment one finds its number taken, reads again, sees
  the other's vacation and is refused;
* **one notice a day** — :meth:`ClocksSql.claim_notice` is one ``INSERT … ON CONFLICT DO UPDATE
  … WHERE`` statement: of several callers exactly one claims;
* **a held notice is delivered once** — :meth:`ClocksSql.due_notices` deletes the rows it
  returns (``DELETE … RETURNING``; PostgreSQL skips the rows another process is taking).  A
  process that stops between taking a notice and sending it loses that notice: a ping is never
  sent twice.
"""
from __future__ import annotations

import json
import logging
import math
from collections.abc import Mapping
from typing import Any, Callable, Iterable

from data.resilience import ABSENT, STORED, retry_all
from data.rows import Bad, dumps
from data.store_interface import OutcomeUnknown, TransientStoreError, valid_id

log = logging.getLogger("data.store")

DAY = 86400.0
# the records an allowance is counted over: a day taken at d counts until d + 365 days
# (host/clocks/vacation.py WINDOW), so a vacation that ended before start - 365 days counts nothing
VACATION_WINDOW = 365 * DAY
# the longest vacation a record may span (host/clocks/vacation.py: ALLOWANCE_MAX days)
VACATION_MAX_SECONDS = 60 * DAY
VACATION_HOWS = ("asked", "auto")            # host/clocks/vacation.py HOWS
MAX_SETTINGS_TEXT = 4096                     # a player's settings as JSON text
MAX_PAYLOAD_TEXT = 8192                      # a held notice as JSON text
MAX_KIND = 32
MAX_KEY = 200
MAX_LIMIT = 1000                             # rows of one waiting_for / due_notices call
IDS_PER_QUERY = 900                          # users per statement of the batch reads
# a notice time at or past this (year 31 million) is damaged (an infinity, PostgreSQL's NaN):
# it never blocks a notice
_FAR = 1e15
_CLAIM_TRIES = 5                             # start_vacation: reads again when its number was taken


# -- checks ----------------------------------------------------------------------------------

def _num(v: Any, name: str) -> float:
    if (type(v) is float or type(v) is int) and math.isfinite(v):
        return float(v)
    raise Bad(f"{name}: expected a finite number, got {str(v)[:40] if type(v) in (int, float) else type(v).__name__}")


def _opt_num(v: Any, name: str) -> float | None:
    return None if v is None else _num(v, name)


def _rid(v: Any, name: str) -> int:
    if type(v) is not int or valid_id(v) is None:
        raise Bad(f"{name}: expected an id, got {type(v).__name__}")
    return v


def _obj(text: Any, name: str, limit: int) -> dict:
    if type(text) is not str:
        raise Bad(f"{name}: expected JSON text, got {type(text).__name__}")
    if len(text) > limit:
        raise Bad(f"{name}: {len(text)} characters, more than {limit}")
    try:
        out = json.loads(text)
    except (ValueError, RecursionError):
        raise Bad(f"{name}: invalid JSON") from None
    if type(out) is not dict:
        raise Bad(f"{name}: expected a JSON object, got {type(out).__name__}")
    return out



def _readable(rows: Iterable[Any], decode: Any, warning: str, owner: int) -> list[dict]:
    """Each row decoded; one that cannot be read is logged (``warning`` with the owner, the row's
    first column and the reason) and skipped, never stopping the others."""
    out = []
    for row in rows:
        try:
            out.append(decode(tuple(row)))
        except (Bad, ValueError, TypeError) as e:
            log.warning(warning, owner, row[0], e)
    return out

def _vacation(row: Any) -> dict:
    """``(seq, start_at, end_at, how)`` -> ``{"start", "end", "how"}`` (``Vacation.to_json``)."""
    _seq, start, end, how = row
    start, end = _num(start, "start_at"), _num(end, "end_at")
    if end < start or end - start > VACATION_MAX_SECONDS:
        raise Bad(f"vacation [{start}, {end}) is not a vacation")
    if how not in VACATION_HOWS:
        raise Bad(f"how: {str(how)[:20]!r} is not one of {VACATION_HOWS}")
    return {"start": start, "end": end, "how": how}


def _waiting(row: Any) -> dict:
    match_id, user_id, guild_id, since, deadline, bank_left = row
    bank = _opt_num(bank_left, "bank_left")
    if bank is not None and bank < 0:
        raise Bad(f"bank_left: {bank} is negative")
    return {"match_id": _rid(match_id, "match_id"), "user_id": _rid(user_id, "user_id"),
            "guild_id": None if guild_id is None else _rid(guild_id, "guild_id"),
            "since": _num(since, "since"), "deadline": _opt_num(deadline, "deadline"), "bank_left": bank}


# -- arguments (a caller's mistake: ValueError, nothing written) ------------------------------

def _id_arg(value: Any, name: str = "user id") -> int:
    got = valid_id(value)
    if got is None or isinstance(value, str):
        raise ValueError(f"not a {name}: {str(value)[:40]!r}")
    return got


_user = _id_arg


def _arg_num(v: Any, name: str) -> float:
    try:
        return _num(v, name)
    except Bad as e:
        raise ValueError(str(e)) from None


def _arg_opt_num(v: Any, name: str) -> float | None:
    return None if v is None else _arg_num(v, name)


def _name(v: Any, name: str, limit: int) -> str:
    if type(v) is not str or not v or len(v) > limit or not v.isprintable():
        raise ValueError(f"{name}: expected printable text of 1 to {limit} characters")
    return v


def _json_arg(value: Any, name: str, limit: int) -> str:
    if type(value) is not dict:
        raise ValueError(f"{name}: expected a dict, got {type(value).__name__}")
    try:
        text = dumps(value, name)
    except Bad as e:
        raise ValueError(str(e)) from None
    if len(text) > limit:
        raise ValueError(f"{name}: {len(text)} characters of JSON, more than {limit}")
    return text


def _ids(user_ids: Iterable[Any]) -> list[int]:
    """The valid ids among ``user_ids``, each once, in order (an id no row can have is left out)."""
    out: dict[int, None] = {}
    for u in user_ids:
        uid = valid_id(u)
        if uid is not None and not isinstance(u, (bool, str)):
            out[uid] = None
    return list(out)


def _waiting_rows(rows: Iterable[Any]) -> list[tuple[int, float, float | None, float | None]]:
    """The rows of :attr:`MatchRecord.waiting` (a mapping with ``user_id``, ``since``,
    ``deadline``, ``bank_left``, or a 4-tuple in that order), checked: one row per user (else
    ValueError, before anything is written)."""
    out: dict[int, tuple[int, float, float | None, float | None]] = {}
    for row in rows:
        if isinstance(row, Mapping):
            user_id, since, deadline, bank = (row.get("user_id"), row.get("since"), row.get("deadline"),
                                              row.get("bank_left"))
        else:
            user_id, since, deadline, bank = row
        uid = _user(user_id)
        if uid in out:
            raise ValueError(f"user {uid} is waited on twice")
        bank = _arg_opt_num(bank, "bank_left")
        if bank is not None and bank < 0:
            raise ValueError(f"bank_left: {bank} is negative")
        out[uid] = (uid, _arg_num(since, "since"), _arg_opt_num(deadline, "deadline"), bank)
    return list(out.values())


def _limit(limit: Any) -> int:
    return max(1, min(MAX_LIMIT, int(limit)))


class ClocksSql:
    """The clock methods of :class:`data.sql_store.SqlStore` (see the module docstring)."""

    # provided by SqlStore / the backend
    _FOR_UPDATE: str
    _in: Any
    _settle: Any
    _read: Any
    _write: Any

    # -- a player's own settings --------------------------------------------------------------
    async def get_player_settings(self, user_id: int) -> dict[str, Any]:
        """The player's settings (a JSON object), ``{}`` when none are stored or the row does
        not read (logged)."""
        uid = valid_id(user_id)
        if uid is None:
            return {}
        return (await self.player_settings_many([uid])).get(uid, {})

    async def player_settings_many(self, user_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
        """The settings of several players at once (a clock tick reads every player's zone):
        ``user id -> settings``; players without settings (or whose row does not read) absent."""
        ids = _ids(user_ids)
        out: dict[int, dict[str, Any]] = {}
        for i in range(0, len(ids), IDS_PER_QUERY):
            cond, args = self._in("user_id", ids[i:i + IDS_PER_QUERY], "bigint")
            async with self._read() as c:
                rows = await c.fetchall(f"SELECT user_id, settings FROM player_settings WHERE {cond}", *args)
            for user_id, text in rows:
                try:
                    out[_rid(user_id, "user_id")] = _obj(text, "settings", MAX_SETTINGS_TEXT)
                except Bad as e:
                    log.warning("player %s: settings cannot be read and are ignored: %s", user_id, e)
        return out

    async def set_player_settings(self, user_id: int, settings: dict[str, Any] | None) -> None:
        """Store the player's settings (a JSON object of at most :data:`MAX_SETTINGS_TEXT`
        characters, replacing what was stored); ``None`` or ``{}`` forgets them."""
        uid = _user(user_id)
        if not settings:
            if settings is not None and type(settings) is not dict:
                raise ValueError(f"settings: expected a dict, got {type(settings).__name__}")
            async with self._write() as c:
                await c.execute("DELETE FROM player_settings WHERE user_id = ?", uid)
            return
        text = _json_arg(settings, "settings", MAX_SETTINGS_TEXT)
        async with self._write() as c:
            await c.execute("INSERT INTO player_settings (user_id, settings) VALUES (?, ?) "
                            "ON CONFLICT (user_id) DO UPDATE SET settings = excluded.settings", uid, text)

    # -- vacations ------------------------------------------------------------------------------
    def _vacation_rows(self, user_id: int, rows: Iterable[Any]) -> list[dict]:
        return _readable(rows, _vacation, "player %s: vacation %s cannot be read and is skipped: %s", user_id)

    async def vacations(self, user_id: int, since: float) -> list[dict]:
        """The player's vacations ending after ``since``, by start: ``{"start", "end", "how"}``
        each (``Vacation.to_json``)."""
        uid = valid_id(user_id)
        if uid is None:
            return []
        return (await self.vacations_many([uid], since)).get(uid, [])

    async def vacations_many(self, user_ids: Iterable[int], since: float) -> dict[int, list[dict]]:
        """:meth:`vacations` of several players at once: ``user id -> records`` (players without
        any absent)."""
        ids, since = _ids(user_ids), _arg_num(since, "since")
        out: dict[int, list[dict]] = {}
        for i in range(0, len(ids), IDS_PER_QUERY):
            cond, args = self._in("user_id", ids[i:i + IDS_PER_QUERY], "bigint")
            async with self._read() as c:
                rows = await c.fetchall(
                    f"SELECT user_id, seq, start_at, end_at, how FROM vacations WHERE {cond} AND end_at > ? "
                    "ORDER BY user_id, start_at, seq", *args, since)
            for row in rows:
                got = self._vacation_rows(row[0], [tuple(row)[1:]])
                if got:
                    out.setdefault(int(row[0]), []).append(got[0])
        return out

    async def start_vacation(self, user_id: int, start: float, end: float, how: str, *,
                             allowance_check: Callable[[list[dict]], Any] | None) -> dict | None:
        """Store the vacation ``[start, end)`` (``how``: ``asked`` or ``auto``) unless the player
        has one that ends after ``start``; returns it as stored (``{"start", "end", "how"}``) or
        None when refused.  Decided inside the write transaction, so of two starts at once only
        one is stored.  ``allowance_check(records)`` is called there with the player's records
        that can still count (those ending after ``start - 365 days``, as :meth:`vacations`
        gives them): it refuses by raising (the exception reaches the caller, nothing is
        written: e.g. ``host.clocks.vacation.start``'s ``VacationError``) or by returning False
        (None is returned).  It may be called more than once (when another start came first)."""
        uid = _user(user_id)
        start, end = _arg_num(start, "start"), _arg_num(end, "end")
        if end < start or end - start > VACATION_MAX_SECONDS:
            raise ValueError(f"a vacation lasts 0 to {VACATION_MAX_SECONDS:.0f} seconds, not [{start}, {end})")
        if how not in VACATION_HOWS:
            raise ValueError(f"how: {str(how)[:20]!r} is not one of {VACATION_HOWS}")
        record = {"start": start, "end": end, "how": how}
        for _ in range(_CLAIM_TRIES):
            refusal: BaseException | None = None
            refused = stored = False
            try:
                async with self._write() as c:
                    # one statement, so one snapshot (PostgreSQL reads each statement afresh): the
                    # records that count and the player's last number, of the same moment — a
                    # vacation stored after it holds the next number, and taking it fails below
                    rows = await c.fetchall(
                        "SELECT seq, start_at, end_at, how FROM vacations WHERE user_id = ? AND (end_at > ? "
                        "OR seq = (SELECT MAX(seq) FROM vacations WHERE user_id = ?)) ORDER BY start_at, seq",
                        uid, start - VACATION_WINDOW, uid)
                    top = max((r[0] for r in rows if type(r[0]) is int), default=0)
                    records = [r for r in self._vacation_rows(uid, rows) if r["end"] > start - VACATION_WINDOW]
                    if allowance_check is not None:
                        try:
                            refused = allowance_check([dict(r) for r in records]) is False
                        except Exception as e:      # told after the (empty) transaction ends
                            refusal, refused = e, True
                    if not refused:
                        refused = any(r["end"] > start for r in records)      # one at a time
                    if not refused:
                        stored = await c.execute(
                            "INSERT INTO vacations (user_id, seq, start_at, end_at, how) VALUES (?, ?, ?, ?, ?) "
                            "ON CONFLICT (user_id, seq) DO NOTHING", uid, top + 1, start, end, how) == 1
            except OutcomeUnknown:
                async def check(c: Any) -> str:
                    got = await c.fetchval(
                        "SELECT COUNT(*) FROM vacations WHERE user_id = ? AND start_at = ? AND end_at = ? AND how = ?",
                        uid, start, end, how)
                    return STORED if got else ABSENT

                await self._settle(check, f"player {uid}'s vacation")
                return record
            if refusal is not None:
                raise refusal
            if refused:
                return None
            if stored:
                return record
            # another start took the number meanwhile (PostgreSQL): read again, now with it
        raise TransientStoreError(f"player {uid}'s vacation: other writes kept coming first", kind="locked")

    async def end_vacation(self, user_id: int, now: float, end: float | None = None) -> dict | None:
        """End the player's vacation running at ``now``: its end becomes ``end`` (``now`` when not
        given; the caller applies the whole-days rule), which must lie between its start and its
        planned end.  Returns the record as stored now, or None when no vacation runs."""
        uid = valid_id(user_id)
        now = _arg_num(now, "now")
        new_end = now if end is None else _arg_num(end, "end")
        if uid is None:
            return None
        found: list[Any] = []
        wrong = ""
        try:
            async with self._write() as c:
                rows = await c.fetchall(
                    "SELECT seq, start_at, end_at, how FROM vacations WHERE user_id = ? AND start_at <= ? "
                    "AND end_at > ? ORDER BY start_at DESC, seq DESC" + self._FOR_UPDATE, uid, now, now)
                for row in rows:
                    got = self._vacation_rows(uid, [row])
                    if got:
                        found = [row[0], got[0]]
                        break
                if not found:
                    return None
                seq, rec = found
                if not rec["start"] <= new_end <= rec["end"]:
                    wrong = f"a vacation of [{rec['start']}, {rec['end']}) cannot end at {new_end}"
                else:
                    await c.execute("UPDATE vacations SET end_at = ? WHERE user_id = ? AND seq = ?",
                                    new_end, uid, seq)
        except OutcomeUnknown:
            async def check(c: Any) -> str:
                got = await c.fetchval("SELECT end_at FROM vacations WHERE user_id = ? AND seq = ?"
                                       + self._FOR_UPDATE, uid, found[0])
                return STORED if got == new_end else ABSENT

            await self._settle(check, f"player {uid}'s vacation")
        if wrong:
            raise ValueError(wrong)
        return {**found[1], "end": new_end}

    async def on_vacation(self, user_ids: Iterable[int], now: float) -> dict[int, float]:
        """Who of ``user_ids`` is on vacation at ``now``, and until when (one query for them all,
        a statement per :data:`IDS_PER_QUERY` players)."""
        ids, now = _ids(user_ids), _arg_num(now, "now")
        out: dict[int, float] = {}
        for i in range(0, len(ids), IDS_PER_QUERY):
            cond, args = self._in("user_id", ids[i:i + IDS_PER_QUERY], "bigint")
            async with self._read() as c:
                rows = await c.fetchall(
                    f"SELECT user_id, seq, start_at, end_at, how FROM vacations WHERE {cond} "
                    "AND start_at <= ? AND end_at > ?", *args, now, now)
            for row in rows:
                got = self._vacation_rows(row[0], [tuple(row)[1:]])
                if got:
                    uid = int(row[0])
                    out[uid] = max(out.get(uid, got[0]["end"]), got[0]["end"])
        return out

    # -- the games waiting on each player -------------------------------------------------------
    async def waiting_for(self, user_id: int, limit: int = 100) -> list[dict]:
        """The matches waiting on the player (``/turns``), at most ``limit`` (1 to
        :data:`MAX_LIMIT`): by deadline, then the paused ones by bank left, then those without a
        time limit, ties by match (``host.clocks.turns.order``).  Each: ``match_id``,
        ``user_id``, ``guild_id``, ``since``, ``deadline``, ``bank_left``."""
        uid = valid_id(user_id)
        if uid is None:
            return []
        async with self._read() as c:
            rows = await c.fetchall(
                "SELECT match_id, user_id, guild_id, since, deadline, bank_left FROM turns_waiting "
                "WHERE user_id = ? ORDER BY CASE WHEN deadline IS NULL THEN 1 ELSE 0 END, deadline, "
                "CASE WHEN bank_left IS NULL THEN 1 ELSE 0 END, bank_left, match_id LIMIT ?", uid, _limit(limit))
        return _readable(rows, _waiting, "player %s: waiting match %s cannot be read and is skipped: %s", uid)

    async def waiting_users(self) -> list[int]:
        """Every player some unfinished match waits on, once each, in order (the daily digests and
        the vacation-end reminders look only at them)."""
        async with self._read() as c:
            rows = await c.fetchall("SELECT DISTINCT user_id FROM turns_waiting ORDER BY user_id")
        return [int(r[0]) for r in rows if valid_id(r[0]) is not None]

    # -- notices sent ---------------------------------------------------------------------------
    async def mark_sent(self, kind: str, key: str, at: float) -> None:
        """A notice of ``kind`` for ``key`` was sent at ``at`` (replacing the time stored)."""
        kind, key, at = _name(kind, "kind", MAX_KIND), _name(key, "key", MAX_KEY), _arg_num(at, "at")
        async with self._write() as c:
            await c.execute("INSERT INTO notices_sent (kind, key, at) VALUES (?, ?, ?) "
                            "ON CONFLICT (kind, key) DO UPDATE SET at = excluded.at", kind, key, at)

    async def last_sent(self, kind: str, key: str) -> float | None:
        """When a notice of ``kind`` for ``key`` was last sent; None if never (or the row does not
        read)."""
        if type(kind) is not str or type(key) is not str:
            return None
        async with self._read() as c:
            at = await c.fetchval("SELECT at FROM notices_sent WHERE kind = ? AND key = ?", kind, key)
        if at is None:
            return None
        try:
            return _num(at, "at")
        except Bad as e:
            log.warning("notice %s %s: time sent cannot be read and is ignored: %s", kind, key[:80], e)
            return None

    async def claim_notice(self, kind: str, key: str, now: float, not_since: float) -> bool:
        """Claim the right to send a notice of ``kind`` for ``key``: True (and ``now`` stored as
        the time sent) if none was sent at or after ``not_since``, else False.  One statement:
        of several processes claiming at once exactly one gets True."""
        kind, key = _name(kind, "kind", MAX_KIND), _name(key, "key", MAX_KEY)
        now, not_since = _arg_num(now, "now"), _arg_num(not_since, "not_since")
        async with self._write() as c:
            n = await c.execute(
                "INSERT INTO notices_sent (kind, key, at) VALUES (?, ?, ?) ON CONFLICT (kind, key) "
                f"DO UPDATE SET at = excluded.at WHERE notices_sent.at < ? OR notices_sent.at >= {_FAR:.0f}",
                kind, key, now, not_since)
        return n == 1

    async def prune_sent(self, before: float) -> int:
        """Forget the notices sent before ``before`` (they no longer hold anything back); how many."""
        before = _arg_num(before, "before")
        async with self._write() as c:
            return await c.execute("DELETE FROM notices_sent WHERE at < ?", before)

    # -- notices held by quiet hours ------------------------------------------------------------
    async def queue_notice(self, user_id: int, deliver_at: float, payload: dict[str, Any]) -> int:
        """Hold a notice for the player until ``deliver_at``; ``payload`` (a JSON object of at most
        :data:`MAX_PAYLOAD_TEXT` characters) is given back by :meth:`due_notices`, and its
        ``match_id``, if any, lets :meth:`drop_notices` drop it.  Returns its id."""
        uid = _user(user_id)
        at = _arg_num(deliver_at, "deliver_at")
        text = _json_arg(payload, "payload", MAX_PAYLOAD_TEXT)
        mid = payload.get("match_id")
        mid = valid_id(mid) if type(mid) is int else None
        async with self._write() as c:
            return await c.insert("INSERT INTO notice_queue (user_id, deliver_at, match_id, payload) "
                                  "VALUES (?, ?, ?, ?)", uid, at, mid, text)

    async def due_notices(self, now: float, limit: int = 100) -> list[tuple[int, int, dict[str, Any]]]:
        """Take the held notices due at ``now`` (at most ``limit``), earliest first: ``(id, user id,
        payload)`` each.  Taking deletes them, so each is given to exactly one caller; a row that
        does not read is dropped with a log line."""
        now = _arg_num(now, "now")
        # PostgreSQL: rows another process is taking are skipped, not waited for
        lock = self._FOR_UPDATE + " SKIP LOCKED" if self._FOR_UPDATE else ""
        async with self._write() as c:
            rows = await c.fetchall(
                "DELETE FROM notice_queue WHERE id IN (SELECT id FROM notice_queue WHERE deliver_at <= ? "
                f"ORDER BY deliver_at, id LIMIT ?{lock}) RETURNING id, user_id, deliver_at, payload",
                now, _limit(limit))
        out = []
        def order(row: tuple) -> tuple:
            at, id_ = row[2], row[0]
            return (at if type(at) is float and math.isfinite(at) else math.inf, id_ if type(id_) is int else 0)

        for id_, user_id, _at, text in sorted((tuple(r) for r in rows), key=order):
            try:
                out.append((_rid(id_, "id"), _rid(user_id, "user_id"), _obj(text, "payload", MAX_PAYLOAD_TEXT)))
            except Bad as e:
                log.warning("held notice %s cannot be read and is dropped: %s", id_, e)
        return out

    async def drop_notices(self, match_id: int) -> int:
        """Drop the held notices of a match (it ended); how many."""
        mid = valid_id(match_id)
        if mid is None:
            return 0
        async with self._write() as c:
            return await c.execute("DELETE FROM notice_queue WHERE match_id = ?", mid)


CLOCK_READS = ("get_player_settings", "player_settings_many", "vacations", "vacations_many", "on_vacation",
               "waiting_for", "waiting_users", "last_sent")
# tried again on a transient failure, not after an unknown outcome (start_vacation and
# end_vacation settle theirs by reading back; a notice taken or queued twice would be sent twice)
CLOCK_WRITES = ("start_vacation", "end_vacation", "claim_notice", "queue_notice", "due_notices")
# writing twice is writing once
CLOCK_IDEMPOTENT = ("set_player_settings", "mark_sent", "prune_sent", "drop_notices")

# Every public method tries again on a transient failure (data/resilience.py).
retry_all(ClocksSql, (*CLOCK_READS, *CLOCK_WRITES), idempotent=CLOCK_IDEMPOTENT)

__all__ = ["ClocksSql", "CLOCK_READS", "CLOCK_WRITES", "CLOCK_IDEMPOTENT", "VACATION_HOWS",
           "VACATION_MAX_SECONDS", "VACATION_WINDOW", "MAX_SETTINGS_TEXT", "MAX_PAYLOAD_TEXT"]
