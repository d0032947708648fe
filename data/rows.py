"""The record codec shared by the SQL stores (:mod:`data.sqlite_store`, :mod:`data.postgres_store`).

Driver-independent: a :class:`MatchRecord` is encoded to a row of plain values in :data:`COLS`
order (JSON text, 0/1 flag, numbers) and decoded back with full validation (:class:`Bad` says
what is wrong; the stores turn it into ``ValueError`` on write and quarantine on read).  Also the
match-table SQL, written once with ``?`` placeholders (the PostgreSQL store rewrites them to
``$1``...), and the small helpers building the seat index and result rows.
"""
from __future__ import annotations

import json
import math
from typing import Any, Iterable

from data.store_interface import ABORTED, QUARANTINED, STATUSES, LeagueRecord, MatchRecord
from rules import prng as PRNG

_INT64_MIN, _INT64_MAX = -(2 ** 63), 2 ** 63 - 1

# Column order of a match row.  encode produces, and decode consumes, exactly these.
COLS = ("id", "game", "status", "version", "guild_id", "channel_id", "creator", "seed",
         "turn_seconds", "deadline", "reminded", "rematch_of", "options", "seats", "names",
         "accepted", "abort_votes", "spectators", "result", "meta", "snapshot", "snapshot_seq",
         "n_commands", "created_at", "updated_at", "prng", "seed_text")
SELECT = "SELECT " + ", ".join(COLS) + " FROM matches"
I = {c: i for i, c in enumerate(COLS)}
I_SEATS = I["seats"]
WRITE_COLS = COLS[1:]  # everything but id
INSERT = (f"INSERT INTO matches ({', '.join(WRITE_COLS)}) "
           f"VALUES ({', '.join('?' * len(WRITE_COLS))})")
# version is set to version + 1 by the UPDATE itself, not taken from the record.
UPDATE_COLS = tuple(c for c in WRITE_COLS if c != "version")
UPDATE = ("UPDATE matches SET " + ", ".join(f"{c} = ?" for c in UPDATE_COLS)
           + ", version = version + 1 WHERE id = ? AND version = ?")
UPDATE_IDX = tuple(I[c] for c in UPDATE_COLS)


# Rows decoded between two yields to the event loop when listing many matches (~5 ms of work;
# host.resume() and the clock's tick() list every unfinished match).
DECODE_SLICE = 128


class Bad(Exception):
    """A row (or a record about to be written) fails validation; the message says why."""

    kind = "data"       # the quarantine kind of a row that fails (data.store.QUARANTINE_KINDS)


class BadLog(Bad):
    """The row reads, but its ``n_commands`` does not fit its command log."""

    kind = "log"


# -- decoding ----------------------------------------------------------------------------------

def _int(v: Any, name: str) -> int:
    if type(v) is not int:
        raise Bad(f"{name}: expected an integer, got {type(v).__name__}")
    return v


def _opt_int(v: Any, name: str) -> int | None:
    return None if v is None else _int(v, name)


def _num(v: Any, name: str) -> float:
    if type(v) is float or type(v) is int:
        return float(v)
    raise Bad(f"{name}: expected a number, got {type(v).__name__}")


def _opt_num(v: Any, name: str) -> float | None:
    return None if v is None else _num(v, name)


def _str(v: Any, name: str) -> str:
    if type(v) is not str:
        raise Bad(f"{name}: expected text, got {type(v).__name__}")
    return v


def _json(v: Any, name: str) -> Any:
    if type(v) is not str:
        raise Bad(f"{name}: expected JSON text, got {type(v).__name__}")
    try:
        return json.loads(v)
    except ValueError as e:
        raise Bad(f"{name}: invalid JSON ({e})") from None
    except RecursionError:  # nested deeper than the decoder goes: not a value we ever write
        raise Bad(f"{name}: JSON nested too deeply") from None


def _json_dict(v: Any, name: str) -> dict:
    d = _json(v, name)
    if type(d) is not dict:
        raise Bad(f"{name}: expected a JSON object, got {type(d).__name__}")
    return d


def _json_list(v: Any, name: str, item: type, nullable: bool = False) -> list:
    xs = _json(v, name)
    if type(xs) is not list:
        raise Bad(f"{name}: expected a JSON array, got {type(xs).__name__}")
    for x in xs:
        if type(x) is not item and not (nullable and x is None):
            raise Bad(f"{name}: expected {item.__name__} items, got {type(x).__name__}")
    return xs


def decode(row: tuple | list) -> MatchRecord:
    """A match row (in COLS order) -> MatchRecord; raises Bad if anything is off."""
    (id_, game, status, version, guild_id, channel_id, creator, seed, turn_seconds, deadline,
     reminded, rematch_of, options, seats, names, accepted, abort_votes, spectators, result,
     meta, snapshot, snapshot_seq, n_commands, created_at, updated_at, prng, seed_text) = row
    try:
        prng = PRNG.check(prng)
    except ValueError as e:
        raise Bad(f"prng: {e}") from None
    if prng == PRNG.LEGACY:
        if seed_text is not None:
            raise Bad("seed_text: a legacy (prng 1) match keeps its seed in the seed column")
    else:
        # a keyed-stream seed is 128 random bits: more than a 64-bit column holds
        digits = seed_text[1:] if type(seed_text) is str and seed_text[:1] == "-" else seed_text
        if type(digits) is not str or not digits.isascii() or not digits.isdigit() \
                or len(digits) > 80:
            raise Bad(f"seed_text: expected a decimal seed, got {str(seed_text)[:20]!r}")
        if seed != 0 or type(seed) is not int:
            raise Bad(f"seed: a keyed-stream match keeps its seed in seed_text, not {seed!r}")
        seed = int(seed_text)
    if reminded not in (0, 1) or type(reminded) not in (int, bool):
        raise Bad(f"reminded: expected 0 or 1, got {reminded!r}")
    if result is None:
        res = None
    else:
        res = _json(result, "result")
        if res is not None and type(res) is not dict:
            raise Bad(f"result: expected a JSON object or null, got {type(res).__name__}")
    rec = MatchRecord(
        id=_opt_int(id_, "id"),
        game=_str(game, "game"),
        status=_str(status, "status"),
        version=_int(version, "version"),
        guild_id=_opt_int(guild_id, "guild_id"),
        channel_id=_opt_int(channel_id, "channel_id"),
        creator=_int(creator, "creator"),
        seed=_int(seed, "seed"),
        turn_seconds=_opt_int(turn_seconds, "turn_seconds"),
        deadline=_opt_num(deadline, "deadline"),
        reminded=bool(reminded),
        rematch_of=_opt_int(rematch_of, "rematch_of"),
        options=_json_dict(options, "options"),
        seats=_json_list(seats, "seats", int, nullable=True),
        names=_json_list(names, "names", str),
        accepted=_json_list(accepted, "accepted", int),
        abort_votes=_json_list(abort_votes, "abort_votes", int),
        spectators=_json_list(spectators, "spectators", int),
        result=res,
        meta=_json_dict(meta, "meta"),
        snapshot=None if snapshot is None else _str(snapshot, "snapshot"),
        snapshot_seq=_int(snapshot_seq, "snapshot_seq"),
        n_commands=_int(n_commands, "n_commands"),
        created_at=_num(created_at, "created_at"),
        updated_at=_num(updated_at, "updated_at"),
        prng=prng,
    )
    wide = ("id", "version", "guild_id", "channel_id", "creator", "rematch_of")
    for name in wide + (("seed",) if prng == PRNG.LEGACY else ()):
        v = getattr(rec, name)
        if v is not None and not _INT64_MIN <= v <= _INT64_MAX:
            raise Bad(f"{name}: {v} does not fit in a signed 64-bit integer")
    _plausible(rec)
    return rec


def _plausible(rec: MatchRecord) -> None:
    """Fields that parse but do not fit together (store-level: no engine knowledge; the host
    checks the game and the log, see host/integrity.py).  Raises Bad."""
    if rec.status not in STATUSES:
        raise Bad(f"status: {rec.status[:40]!r} is not a match status")
    if not rec.game:
        raise Bad("game: empty")
    if rec.id is not None and rec.id < 1:
        raise Bad(f"id: {rec.id} is not a row id")
    if rec.version < 1:
        raise Bad(f"version: {rec.version} (a stored match is at version 1 or later)")
    if rec.n_commands < 0:
        raise Bad(f"n_commands: {rec.n_commands} is negative")
    if not 0 <= rec.snapshot_seq <= rec.n_commands:
        raise Bad(f"snapshot_seq: {rec.snapshot_seq} is not within the log "
                  f"(n_commands {rec.n_commands})")
    if rec.turn_seconds is not None and rec.turn_seconds <= 0:
        raise Bad(f"turn_seconds: {rec.turn_seconds} is not a positive time")
    for name in ("deadline", "created_at", "updated_at"):
        v = getattr(rec, name)
        if v is not None and not math.isfinite(v):
            raise Bad(f"{name}: {v} is not a finite time")
    if not rec.seats:
        raise Bad("seats: a match has at least one seat")
    if len(rec.names) != len(rec.seats):
        raise Bad(f"names: {len(rec.names)} names for {len(rec.seats)} seats")
    seated = [u for u in rec.seats if u is not None]
    if len(set(seated)) != len(seated):
        raise Bad("seats: one user holds two seats")
    players = set(seated)
    for name in ("accepted", "abort_votes", "spectators"):
        ids = getattr(rec, name)
        if len(set(ids)) != len(ids):
            raise Bad(f"{name}: a user is listed twice")
    if not set(rec.accepted) <= players:
        raise Bad("accepted: a user who holds no seat")
    # a moderator's vote ends the match at once (ABORTED): otherwise only players vote
    if rec.status != ABORTED and not set(rec.abort_votes) <= players:
        raise Bad("abort_votes: a user who holds no seat")
    winners = (rec.result or {}).get("winners")
    if winners is not None and (type(winners) is not list or any(
            type(w) is not int or not 0 <= w < len(rec.seats) for w in winners)):
        raise Bad("result: winners are not seats of the match")
    for key, low in (("players0", 1), ("shown", 0), ("edition", 1)):
        v = rec.meta.get(key)
        if v is not None and (type(v) is not int or v < low):
            raise Bad(f"meta: {key} is {str(v)[:20]!r}, not a whole number >= {low}")
    if "players0" in rec.meta and rec.meta["players0"] > len(rec.seats):
        raise Bad(f"meta: players0 {rec.meta['players0']} exceeds the {len(rec.seats)} seats")
    cards = rec.meta.get("cards")      # a server's card set version (host/engines.py card_ref)
    if cards is not None and not (
            type(cards) is dict and type(cards.get("id")) is int and cards["id"] > 0
            and type(cards.get("name")) is str and type(cards.get("version")) is int
            and type(cards.get("digest")) is str and len(cards["digest"]) == 64):
        raise Bad("meta: cards is not a card set reference {id, name, version, digest}")


# The command log's length and last seq of the match row, read beside it (see SqlStore): they
# must both equal n_commands (seqs are unique and >= 1, so the log is then exactly 1..n).
LOG_COUNT = "(SELECT COUNT(*) FROM commands WHERE commands.match_id = matches.id)"
LOG_LAST = "(SELECT MAX(seq) FROM commands WHERE commands.match_id = matches.id)"
# A match row followed by its log's last seq and its length (check_row).  One match
# (get_match): both.  Listings: the last seq only, one descending step on the commands primary
# key per row, which already catches an n_commands above or below the log; the length (a scan
# of the match's whole log) would add ~0.1 s per 10,000 listed matches on PostgreSQL (measured
# with 445,000 stored commands: rows + decode ~0.6 s; last seq +0.03 s; both +0.12 s; SQLite
# +0.03 s for both).  A gap inside the log is caught when the match itself is read, which
# every host action on a listed match does first (and the host's first replay checks seqs).
SELECT_CHECKED = SELECT.replace(" FROM matches", f", {LOG_LAST}, {LOG_COUNT} FROM matches")
SELECT_LISTED = SELECT.replace(" FROM matches", f", {LOG_LAST} FROM matches")
N_COLS = len(COLS)


def check_log(rec: MatchRecord, last: Any, count: Any = None) -> None:
    """Raise Bad unless the command log fits ``rec.n_commands``: its last seq ``last`` (None:
    the log is empty) must equal it, and so must its length ``count`` if it was read (seqs are
    unique and >= 1, so the two together say the log is exactly entries 1..n_commands)."""
    last = 0 if last is None else int(last)
    if last != rec.n_commands:
        raise BadLog(f"n_commands: {rec.n_commands}, but the command log's last entry is {last}")
    if count is not None and int(count) != rec.n_commands:
        raise BadLog(f"n_commands: {rec.n_commands}, but the command log holds {int(count)} "
                  "entries (a gap)")


def check_row(row: tuple | list) -> MatchRecord:
    """A row of SELECT_CHECKED or SELECT_LISTED -> MatchRecord: :func:`decode` and
    :func:`check_log`.  Raises Bad for anything that makes it unreadable, whatever the decoder
    tripped over."""
    try:
        rec = decode(tuple(row[:N_COLS]))
        check_log(rec, row[N_COLS], row[N_COLS + 1] if len(row) > N_COLS + 1 else None)
    except Bad:
        raise
    except Exception as e:  # a value no check foresaw: still this row's fault, not the caller's
        raise Bad(f"unreadable ({type(e).__name__}: {str(e)[:200]})") from None
    return rec


# -- encoding ----------------------------------------------------------------------------------

def dumps(v: Any, name: str) -> str:
    try:
        return json.dumps(v, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as e:
        raise Bad(f"{name}: not JSON-serialisable ({e})") from None


def encode(rec: MatchRecord) -> list:
    """MatchRecord -> row values in COLS order."""
    def num(v: Any, name: str) -> Any:
        if isinstance(v, float) and not math.isfinite(v):
            raise Bad(f"{name}: {v} is not a finite number")
        return v

    legacy = rec.prng == PRNG.LEGACY
    if type(rec.seed) is not int:
        raise Bad(f"seed: expected an integer, got {type(rec.seed).__name__}")
    return [
        rec.id, rec.game, rec.status, rec.version, rec.guild_id, rec.channel_id, rec.creator,
        rec.seed if legacy else 0, rec.turn_seconds, num(rec.deadline, "deadline"),
        1 if rec.reminded else 0, rec.rematch_of,
        dumps(rec.options, "options"), dumps(list(rec.seats), "seats"),
        dumps(list(rec.names), "names"), dumps(list(rec.accepted), "accepted"),
        dumps(list(rec.abort_votes), "abort_votes"), dumps(list(rec.spectators), "spectators"),
        None if rec.result is None else dumps(rec.result, "result"),
        dumps(rec.meta, "meta"), rec.snapshot, rec.snapshot_seq, rec.n_commands,
        num(rec.created_at, "created_at"), num(rec.updated_at, "updated_at"),
        rec.prng, None if legacy else str(rec.seed),
    ]


def prepare(rec: MatchRecord, **overrides: Any) -> tuple[list, MatchRecord]:
    """Encode ``rec`` (with ``overrides``), and decode it again: the row to write and the copy
    to hand back.  Raises ValueError (nothing written) if the record cannot be stored."""
    try:
        row = encode(rec)
        for k, v in overrides.items():
            row[I[k]] = v
        out = decode(row)
    except Bad as e:
        raise ValueError(f"cannot store match {rec.id}: {e}") from None
    return row, out


def players(match_id: int, seats: list[int | None]) -> list[tuple[int, int, int]]:
    return [(match_id, seat, uid) for seat, uid in enumerate(seats) if uid is not None]


def result_rows(rec: MatchRecord, finished_at: float) -> list[tuple]:
    res = rec.result or {}
    winners = res.get("winners") or []
    reason = str(res.get("reason", "") or "")
    rows = []
    for seat, uid in enumerate(rec.seats):
        if uid is None:
            continue
        outcome = "draw" if not winners else ("win" if seat in winners else "loss")
        rows.append((rec.id, rec.game, rec.guild_id, seat, uid, outcome, reason, finished_at))
    return rows


def statuses(wanted: Iterable[str]) -> tuple[str, ...]:
    # Quarantined rows are never loaded.
    return tuple(dict.fromkeys(s for s in wanted if s != QUARANTINED))


# -- leagues and saved decks -------------------------------------------------------------------

LEAGUE_STATUSES = ("signup", "running", "finished", "closed")


def decode_league(row: tuple | list) -> LeagueRecord:
    """A leagues row (id, guild_id, status, version, data, created_at, updated_at) ->
    LeagueRecord; raises Bad if anything is off (the stores skip such a row and log it)."""
    id_, guild_id, status, version, data, created_at, updated_at = row
    status = _str(status, "status")
    if status not in LEAGUE_STATUSES:
        raise Bad(f"status: {status[:20]!r} is not a league status")
    return LeagueRecord(id=_int(id_, "id"), guild_id=_int(guild_id, "guild_id"), status=status,
                        version=_int(version, "version"), data=_json_dict(data, "data"),
                        created_at=_num(created_at, "created_at"),
                        updated_at=_num(updated_at, "updated_at"))


def decode_deck(spec: Any) -> dict:
    """A saved deck's stored spec -> dict; raises Bad if it is not a JSON object."""
    return _json_dict(spec, "spec")
