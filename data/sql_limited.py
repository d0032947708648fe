"""Limited play in the SQL stores (:class:`LimitedSql`, a part of :class:`data.sql_store.SqlStore`;
the tables of ``data/migrations/0011_limited.sql``).

The standing ruling of limited play: a sealed pool or a draft changes what a player may build
from, never how the game is played.  So the store keeps only what building from a pool needs and
what the per-card figures of a server's set read (host/stats/card_figures.py):

* a **draft** (:class:`DraftRow`, sealed, booster or Winston): the set it deals from, its recorded
  seed, its status and the host's state (the draft machine or the sealed pools, a JSON object),
  the earliest pick deadline (``due_at``, for the clock) and an optimistic-lock ``version``;
* its **seats** (:class:`SeatRow`): a person or a computer drafter, and the deck built (an
  event's deck is ``locked``: never changed again);
* once the draft is over, its **picks** (:class:`PickRecord`); the **games** played with drafted
  and sealed decks (:class:`LimitedGameRecord`); and the **survey** after a match
  (:class:`SurveyRecord`, one answer per player per match: a second replaces the first).
  Each write of these three also adds what it newly keeps to the counters the report reads, in
  the same transaction (data/sql_card_counters.py, mixed into the store beside this class).

Secrecy: a pool is hidden information until the draft ends, so the seed is left out of a
:class:`DraftRow`'s ``repr`` (no log line shows it) and picks are refused before the draft is
``done``.  Every value is checked before it is written (``ValueError``, nothing written) — sizes
too: the state at most :data:`STATE_MAX` bytes, a deck or a pack at most :data:`CARDS_MAX` ids,
an id at most :data:`CARD_ID_MAX` characters, names clipped to :data:`NAME_MAX` — and every row
when it is read: one that does not fit is skipped with a log line, never served, never stopping
the others.  What a draft may not do (a person seated twice, a locked deck changed, a finished
draft moved on) raises :class:`LimitedRefused`, which names the reason.  :meth:`create_draft` and
:meth:`update_draft` settle a ``COMMIT`` never confirmed (:class:`OutcomeUnknown`) by reading back
what they wrote; every other write is idempotent (writing it twice is writing it once), so it is
simply written again.
"""
from __future__ import annotations

import json
import logging
import math
import re
import time
from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Sequence

from data.resilience import ABSENT, MOVED, STORED
from data.rows import Bad, dumps
from data.store_interface import MAX_ID, OutcomeUnknown, StoreError, VersionConflict, valid_id

log = logging.getLogger("data.store")

GAMES = ("logic_square", "maken", "art_of_war", "avalon")     # SQUARES has no cards
FORMATS = ("sealed", "booster", "winston")
SOURCES = ("cube", "boosters")
DRAFT_STATUSES = ("open", "drafting", "building", "done", "cancelled")
OVER = ("done", "cancelled")            # a draft in one of these never moves on
LIVE = ("open", "drafting", "building")
SCORES = (1.0, 0.5, 0.0)
MAX_SEATS = 8
SEED_BYTES = 32
STATE_MAX = 1_000_000                   # bytes of a draft's state (UTF-8 JSON)
CARDS_MAX = 200                         # card ids in a deck, a pack, a drawn or played list
SEEN_MAX = 1_000                        # card ids a match showed (a survey's choice)
CARD_ID_MAX = 64                        # characters in a card id
NAME_MAX = 100                          # characters of a seat's name (longer is clipped)
SET_NAME_MAX = 100                      # characters of a set's name or an edition
LIST_MAX = 100                          # drafts one call of drafts_of lists at most
BAD_LOGGED = 5                          # bad rows logged one by one per read; then a count

# LimitedRefused reasons
NO_DRAFT, NO_SEAT, STARTED, TAKEN, SEATED, LOCKED, NOT_DONE, FINISHED = (
    "no_draft", "no_seat", "started", "taken", "seated", "locked", "not_done", "over")

_HEX = re.compile(r"[0-9a-f]{64}")
_PLAIN_ID = r'"[^"\\\x00-\x1f]{1,%d}"' % CARD_ID_MAX      # an id that JSON writes with no escape
_PLAIN_LIST = re.compile(r"\[(?:%s(?:,%s)*)?\]" % (_PLAIN_ID, _PLAIN_ID))   # ["a","b"], as the store writes it
_DRAFT_COLS = ("id, guild_id, game, set_name, set_version, edition, format, source, seed, channel_id, "
               "league_id, created_by, created_at, status, state, due_at, version, updated_at")
_SEAT_COLS = "draft_id, seat, user_id, name, deck, deck_at, locked"
_PICK_COLS = "draft_id, seq, round, pick_no, seat, card, offered, human, at"
_GAME_COLS = "match_id, seat, draft_id, guild_id, game, set_name, set_version, deck, drawn, played, score"
_SURVEY_COLS = "match_id, user_id, guild_id, game, set_name, set_version, fun, strong, weak, seen, at"


class LimitedRefused(StoreError):
    """A limited-play write the draft does not allow; nothing was written.  ``reason``: one of
    ``no_draft``, ``no_seat``, ``started`` (a seat changes only before the start), ``taken``
    (another person sits there), ``seated`` (that person sits elsewhere at this draft),
    ``locked`` (an event's deck), ``not_done`` (picks are kept only once the draft is over) or
    ``over`` (a finished or cancelled draft does not move on).  Not a failure of the database."""

    kind = "refused"

    def __init__(self, reason: str, message: str = "") -> None:
        super().__init__(message or f"limited play refused: {reason}")
        self.reason = reason


@dataclass(frozen=True)
class SeatRow:
    """One seat of a draft: ``user_id`` None is a computer drafter; ``deck`` the card ids built
    (None until built), ``locked`` an event's deck that may not change."""
    draft_id: int
    seat: int
    user_id: int | None
    name: str
    deck: tuple[str, ...] | None = None
    deck_at: float | None = None
    locked: bool = False

    @property
    def computer(self) -> bool:
        return self.user_id is None


@dataclass(frozen=True)
class DraftRow:
    """A sealed event or a draft with its seats.  ``set_name``/``set_version`` None: the shipped
    cards (``edition``).  ``seed``: the 32 bytes every pack and pool is dealt from — secret until
    the status is ``done``, so it is kept out of ``repr``.  ``state``: the host's JSON object."""
    id: int
    guild_id: int
    game: str
    set_name: str | None
    set_version: int | None
    edition: str | None
    format: str
    source: str
    seed: bytes = field(repr=False)
    channel_id: int | None = None
    league_id: int | None = None
    created_by: int = 0
    created_at: float = 0.0
    status: str = "open"
    state: dict = field(default_factory=dict, repr=False)
    due_at: float | None = None
    version: int = 0
    updated_at: float = 0.0
    seats: tuple[SeatRow, ...] = ()

    def seat_of(self, user_id: int) -> SeatRow | None:
        """The seat ``user_id`` holds at this draft, if any."""
        return next((s for s in self.seats if s.user_id is not None and s.user_id == user_id), None)


@dataclass(frozen=True)
class PickRecord:
    """One pick of a finished draft: the ``seq``-th of its log, ``pick_no`` the card's position
    within its pack in ``round``; ``offered`` the pack as it came (the card taken included);
    ``human``: a person's choice, not the timer's or a computer drafter's."""
    draft_id: int
    seq: int
    round: int
    pick_no: int
    seat: int
    card: str
    offered: tuple[str, ...]
    human: bool
    at: float


@dataclass(frozen=True)
class LimitedGameRecord:
    """One seat of a finished match played with a drafted or sealed deck (``score``: 1 a win,
    0.5 a draw, 0 a loss)."""
    match_id: int
    seat: int
    draft_id: int
    guild_id: int
    game: str
    set_name: str | None
    set_version: int | None
    deck: tuple[str, ...]
    drawn: tuple[str, ...]
    played: tuple[str, ...]
    score: float


@dataclass(frozen=True)
class SurveyRecord:
    """One player's survey answer after a match: ``fun`` 1–5, a card of ``seen`` that felt too
    ``strong`` and one too ``weak`` (each may be None).  ``user_id`` only keeps one answer per
    player per match; no figure names it."""
    match_id: int
    user_id: int
    guild_id: int
    game: str
    set_name: str | None
    set_version: int | None
    fun: int | None
    strong: str | None
    weak: str | None
    seen: tuple[str, ...]
    at: float


# -- checks (raise Bad; a write turns it into ValueError) ---------------------------------------
def _int(v: Any, name: str, low: int = 0, high: int = MAX_ID, none: bool = False) -> Any:
    if v is None and none:
        return None
    if type(v) is not int or not low <= v <= high:
        raise Bad(f"{name}: expected a whole number {low}..{high}, got {str(v)[:30]!r}")
    return v


def _float(v: Any, name: str, none: bool = False) -> Any:
    if v is None and none:
        return None
    if type(v) not in (int, float) or not math.isfinite(v):
        raise Bad(f"{name}: expected a finite number, got {str(v)[:30]!r}")
    return float(v)


def _text(v: Any, name: str, limit: int, none: bool = False) -> Any:
    if v is None and none:
        return None
    if type(v) is not str or not 0 < len(v) <= limit:
        raise Bad(f"{name}: expected a text of 1..{limit} characters")
    return v


def _one_of(v: Any, name: str, allowed: tuple) -> str:
    if v not in allowed or type(v) is not str:
        raise Bad(f"{name}: {str(v)[:30]!r} is not one of {', '.join(allowed)}")
    return v


def _flag(v: Any, name: str) -> bool:
    if v is True or v is False:
        return v
    if type(v) is int and v in (0, 1):
        return bool(v)
    raise Bad(f"{name}: expected 0 or 1")


def _cards(v: Any, name: str, limit: int = CARDS_MAX) -> tuple[str, ...]:
    """A list of card ids (copies allowed) -> a tuple; checked in C-speed passes, since the report
    reads tens of thousands of them."""
    if type(v) not in (list, tuple) or len(v) > limit:
        raise Bad(f"{name}: expected a list of at most {limit} card ids")
    if v and not (set(map(type, v)) == {str} and 0 < min(map(len, v)) and max(map(len, v)) <= CARD_ID_MAX):
        raise Bad(f"{name}: each card id is a text of 1..{CARD_ID_MAX} characters")
    return tuple(v)


def _card_list(text: Any, name: str, limit: int = CARDS_MAX) -> tuple[str, ...]:
    """A stored JSON list of card ids.  The store writes them compact (``["a","b"]``), and such a
    list of ids needing no escape (no quote, backslash or control character) is read by splitting
    it — the report reads tens of thousands; any other text goes through the JSON parser and
    every check of :func:`_cards`."""
    if type(text) is not str or len(text) > limit * (CARD_ID_MAX * 6 + 3) + 2:
        raise Bad(f"{name}: not a JSON list")
    if _PLAIN_LIST.fullmatch(text):
        out = tuple(text[2:-2].split('","')) if len(text) > 2 else ()
        if len(out) > limit:
            raise Bad(f"{name}: expected a list of at most {limit} card ids")
        return out
    return _cards(json.loads(text), name, limit)


def _set_key(game: Any, set_name: Any, set_version: Any) -> tuple[str, str | None, int | None]:
    _one_of(game, "game", GAMES)
    _text(set_name, "set_name", SET_NAME_MAX, none=True)
    _int(set_version, "set_version", 1, 2 ** 31 - 1, none=True)
    if (set_name is None) != (set_version is None):
        raise Bad("set_name and set_version: both or neither")
    return game, set_name, set_version


def _checked_for_writing(fn: Any, *args: Any) -> Any:
    try:
        return fn(*args)
    except Bad as e:
        raise ValueError(str(e)) from None


def _state_text(state: Any) -> str:
    if not isinstance(state, dict):
        raise ValueError("a draft's state is a JSON object")
    try:
        text = dumps(state, "state")
    except Bad as e:
        raise ValueError(str(e)) from None
    if len(text.encode("utf-8")) > STATE_MAX:
        raise ValueError(f"a draft's state is larger than {STATE_MAX} bytes")
    return text


def _state(text: Any) -> dict:
    if type(text) is not str or len(text) > STATE_MAX:
        raise Bad("state: not a JSON text within the limit")
    value = json.loads(text)
    if not isinstance(value, dict):
        raise Bad("state: not a JSON object")
    return value


def _seat(row: Any) -> SeatRow:
    draft_id, seat, user_id, name, deck, deck_at, locked = row
    if type(name) is not str or len(name) > NAME_MAX:
        raise Bad("name: not a text within the limit")
    locked = _flag(locked, "locked")
    out = SeatRow(_int(draft_id, "draft_id"), _int(seat, "seat", 0, MAX_SEATS - 1),
                  _int(user_id, "user_id", none=True), name,
                  None if deck is None else _card_list(deck, "deck"), _float(deck_at, "deck_at", none=True), locked)
    if locked and out.deck is None:
        raise Bad("locked: a locked seat without a deck")
    return out


def _draft(row: Any, seat_rows: Iterable[Any]) -> DraftRow:
    (id_, guild_id, game, set_name, set_version, edition, fmt, source, seed, channel_id, league_id, created_by,
     created_at, status, state, due_at, version, updated_at) = row
    _set_key(game, set_name, set_version)
    _text(edition, "edition", SET_NAME_MAX, none=True)
    if set_name is not None and edition is not None:
        raise Bad("edition: a server's set has none")
    if type(seed) is not str or not _HEX.fullmatch(seed):
        raise Bad("seed: not 64 hex digits")
    status = _one_of(status, "status", DRAFT_STATUSES)
    due_at = _float(due_at, "due_at", none=True)
    if due_at is not None and status in OVER:
        raise Bad("due_at: a finished draft is due for nothing")
    draft_id = _int(id_, "id")
    seats = tuple(sorted((_seat(tuple(s)) for s in seat_rows), key=lambda s: s.seat))
    if not 1 <= len(seats) <= MAX_SEATS or [s.seat for s in seats] != list(range(len(seats))) \
            or any(s.draft_id != draft_id for s in seats):
        raise Bad("seats: not seats 0..n-1 of this draft (1 to 8)")
    people = [s.user_id for s in seats if s.user_id is not None]
    if len(set(people)) != len(people):
        raise Bad("seats: a person seated twice")
    return DraftRow(draft_id, _int(guild_id, "guild_id"), game, set_name, set_version, edition,
                    _one_of(fmt, "format", FORMATS), _one_of(source, "source", SOURCES), bytes.fromhex(seed),
                    _int(channel_id, "channel_id", none=True), _int(league_id, "league_id", none=True),
                    _int(created_by, "created_by"), _float(created_at, "created_at"), status, _state(state),
                    due_at, _int(version, "version"), _float(updated_at, "updated_at"), seats)


def _pick(row: Any, stored: bool = True) -> PickRecord:
    draft_id, seq, rnd, pick_no, seat, card, offered, human, at = row
    offered = _card_list(offered, "offered") if stored else _cards(offered, "offered")
    card = _text(card, "card", CARD_ID_MAX)
    if card not in offered:
        raise Bad("card: not in the pack offered")
    return PickRecord(_int(draft_id, "draft_id"), _int(seq, "seq", 1), _int(rnd, "round", 1),
                      _int(pick_no, "pick_no", 1), _int(seat, "seat", 0, MAX_SEATS - 1), card, offered,
                      _flag(human, "human"), _float(at, "at"))


def _game(row: Any, stored: bool = True) -> LimitedGameRecord:
    match_id, seat, draft_id, guild_id, game, set_name, set_version, deck, drawn, played, score = row
    lists = [(_card_list if stored else _cards)(v, n) for v, n in ((deck, "deck"), (drawn, "drawn"), (played, "played"))]
    score = _float(score, "score")
    if score not in SCORES:
        raise Bad("score: not 1, 0.5 or 0")
    _set_key(game, set_name, set_version)
    return LimitedGameRecord(_int(match_id, "match_id"), _int(seat, "seat", 0, 63), _int(draft_id, "draft_id"),
                             _int(guild_id, "guild_id"), game, set_name, set_version, *lists, score)


def _survey(row: Any, stored: bool = True) -> SurveyRecord:
    match_id, user_id, guild_id, game, set_name, set_version, fun, strong, weak, seen, at = row
    seen = _card_list(seen, "seen", SEEN_MAX) if stored else _cards(seen, "seen", SEEN_MAX)
    for v, n in ((strong, "strong"), (weak, "weak")):
        if v is not None and (_text(v, n, CARD_ID_MAX) not in seen):
            raise Bad(f"{n}: not one of the cards seen")
    _set_key(game, set_name, set_version)
    return SurveyRecord(_int(match_id, "match_id"), _int(user_id, "user_id"), _int(guild_id, "guild_id"), game,
                        set_name, set_version, _int(fun, "fun", 1, 5, none=True), strong, weak, seen, _float(at, "at"))


def _read_each(rows: Iterable[Any], check: Any, what: str) -> list:
    """Every row that reads; the others skipped and logged (the first few one by one)."""
    out, bad = [], 0
    for r in rows:
        try:
            out.append(check(tuple(r)))
        except (Bad, TypeError, ValueError) as e:      # (json's errors are ValueErrors)
            bad += 1
            if bad <= BAD_LOGGED:
                log.warning("%s: a row does not read (%s); skipped", what, e)
    if bad > BAD_LOGGED:
        log.warning("%s: %d rows do not read in all; skipped", what, bad)
    return out


def _set_where(set_name: str | None, set_version: int | None) -> tuple[str, list]:
    """The set of a row: ``IS NULL`` for the shipped cards (both backends read that from the index)."""
    if set_name is None:
        return "set_name IS NULL AND set_version IS NULL", []
    return "set_name = ? AND set_version = ?", [set_name, set_version]


class LimitedSql:
    """The store's limited-play methods (mixed into :class:`data.sql_store.SqlStore`)."""

    # -- drafts and seats ---------------------------------------------------------------------
    async def create_draft(self, *, guild_id: int, game: str, format: str, source: str, seed: bytes,
                           created_by: int, seats: Sequence[tuple[int | None, str]], state: dict,
                           set_name: str | None = None, set_version: int | None = None,
                           edition: str | None = None, channel_id: int | None = None,
                           league_id: int | None = None, status: str = "open", due_at: float | None = None,
                           created_at: float | None = None) -> DraftRow:
        """Store a new draft and its seats (``(user_id or None for a computer, name)``, seat 0
        first) in one transaction; the stored draft, ``version`` 0.  ``seed``: 32 random bytes.
        ``ValueError`` (nothing written) for anything that cannot be stored."""
        if type(seed) is not bytes or len(seed) != SEED_BYTES:
            raise ValueError(f"a draft's seed is {SEED_BYTES} random bytes")
        if status in OVER:
            due_at = None
        at = time.time() if created_at is None else created_at
        text = _state_text(state)
        try:
            given = list(seats)
            people = [(u, n[:NAME_MAX]) for u, n in given if type(n) is str]
        except (TypeError, ValueError):
            given, people = [None], []
        if not people or len(people) != len(given):
            raise ValueError("a draft's seats are (user id or None, name) pairs, 1 to 8 of them")
        head = (0, guild_id, game, set_name, set_version, edition, format, source, seed.hex(), channel_id, league_id,
                created_by, at, status, text, due_at, 0, at)
        out = _checked_for_writing(_draft, head, [(0, i, u, n, None, None, 0) for i, (u, n) in enumerate(people)])
        values = (out.guild_id, game, set_name, set_version, edition, format, source, seed.hex(), channel_id,
                  league_id, out.created_by, out.created_at, status, text, out.due_at, out.updated_at)
        try:
            async with self._write() as c:                         # type: ignore[attr-defined]
                new_id = await c.insert(
                    "INSERT INTO limited_drafts (guild_id, game, set_name, set_version, edition, format, source, "
                    "seed, channel_id, league_id, created_by, created_at, status, state, due_at, version, "
                    "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)", *values)
                await c.executemany("INSERT INTO limited_seats (draft_id, seat, user_id, name, locked) "
                                    "VALUES (?, ?, ?, ?, 0)", [(new_id, s.seat, s.user_id, s.name) for s in out.seats])
        except OutcomeUnknown:
            found: list[int] = []

            async def check(c: Any) -> str:        # the seed is 256 random bits: the row is this call's
                got = await c.fetchval("SELECT id FROM limited_drafts WHERE guild_id = ? AND seed = ?"
                                       + self._FOR_UPDATE, out.guild_id, seed.hex())   # type: ignore[attr-defined]
                if got is None:
                    return ABSENT
                found.append(int(got))
                return STORED

            await self._settle(check, "the new draft")            # type: ignore[attr-defined]
            new_id = found[0]
        return replace(out, id=new_id, seats=tuple(replace(s, draft_id=new_id) for s in out.seats))

    async def _drafts(self, c: Any, where: str, params: Sequence[Any]) -> list[DraftRow]:
        """The drafts of ``SELECT … WHERE where`` with their seats (one query each); a draft
        whose row or one of whose seats does not read is skipped and logged."""
        heads = await c.fetchall(f"SELECT {_DRAFT_COLS} FROM limited_drafts WHERE {where}", *params)
        if not heads:
            return []
        cond, args = self._in("draft_id", [h[0] for h in heads], "bigint")   # type: ignore[attr-defined]
        seats: dict[Any, list] = {}
        for s in await c.fetchall(f"SELECT {_SEAT_COLS} FROM limited_seats WHERE {cond}", *args):
            seats.setdefault(s[0], []).append(s)
        out = []
        for h in heads:
            try:
                out.append(_draft(tuple(h), seats.get(h[0], ())))
            except (Bad, TypeError, ValueError) as e:
                log.warning("draft %s does not read (%s); skipped", h[0], e)
        return out

    async def _draft_for_write(self, c: Any, draft_id: int) -> DraftRow | None:
        """Inside _write(): the draft, its row locked (PostgreSQL) until the transaction ends;
        None if there is none.  A draft that does not read cannot be written (StoreError)."""
        if await c.fetchval("SELECT id FROM limited_drafts WHERE id = ?" + self._FOR_UPDATE,   # type: ignore[attr-defined]
                            draft_id) is None:
            return None
        got = await self._drafts(c, "id = ?", (draft_id,))
        if not got:
            raise StoreError(f"draft {draft_id} does not read; it cannot be written")
        return got[0]

    async def get_draft(self, draft_id: int) -> DraftRow | None:
        """The draft with its seats; None if there is none (or it does not read: logged)."""
        did = valid_id(draft_id)
        if did is None:
            return None
        async with self._read() as c:                              # type: ignore[attr-defined]
            got = await self._drafts(c, "id = ?", (did,))
        return got[0] if got else None

    async def update_draft(self, draft_id: int, expected_version: int, *, state: dict, status: str,
                           due_at: float | None, at: float | None = None) -> DraftRow:
        """Write the draft's state, status and earliest deadline if it is still at
        ``expected_version``; the draft at ``expected_version + 1``.  :class:`VersionConflict`
        (nothing written) if it moved or does not exist; :class:`LimitedRefused` ``over`` for a
        finished or cancelled draft given another status.  A draft that is over is due for
        nothing: its ``due_at`` is cleared."""
        did = valid_id(draft_id)
        if did is None or type(expected_version) is not int:
            raise VersionConflict(f"draft {draft_id} does not exist")
        _checked_for_writing(_one_of, status, "status", DRAFT_STATUSES)
        due_at = None if status in OVER else _checked_for_writing(_float, due_at, "due_at", True)
        text, now = _state_text(state), float(time.time() if at is None else at)
        _checked_for_writing(_float, now, "at")
        try:
            async with self._write() as c:                         # type: ignore[attr-defined]
                old = await self._draft_for_write(c, did)
                if old is None:
                    raise VersionConflict(f"draft {did} does not exist")
                if old.version != expected_version:
                    raise VersionConflict(f"draft {did} is at version {old.version}, not {expected_version}")
                if old.status in OVER and status != old.status:
                    raise LimitedRefused(FINISHED, f"draft {did} is {old.status}")
                n = await c.execute("UPDATE limited_drafts SET state = ?, status = ?, due_at = ?, version = ?, "
                                    "updated_at = ? WHERE id = ? AND version = ?", text, status, due_at,
                                    expected_version + 1, now, did, expected_version)
                if n != 1:
                    raise VersionConflict(f"draft {did} changed while being written")
        except OutcomeUnknown:
            async def check(c: Any) -> str:
                got = await c.fetchone("SELECT version, state, updated_at FROM limited_drafts WHERE id = ?"
                                       + self._FOR_UPDATE, did)            # type: ignore[attr-defined]
                if got is None:
                    return ABSENT
                if got[0] == expected_version + 1 and got[1] == text and float(got[2]) == now:
                    return STORED
                return MOVED if got[0] > expected_version else ABSENT

            await self._settle(check, f"draft {did}")             # type: ignore[attr-defined]
            old = await self.get_draft(did)
            if old is None:
                raise StoreError(f"draft {did} was written but does not read back") from None
            return old
        return replace(old, state=json.loads(text), status=status, due_at=due_at, version=expected_version + 1,
                       updated_at=now)

    async def set_seat_user(self, draft_id: int, seat: int, user_id: int | None, name: str) -> DraftRow:
        """Before the start (status ``open``), seat a person (``user_id``) where a computer sat,
        or give a seat back to a computer (``user_id`` None); the draft's version moves on, so a
        state written from the draft as read before is refused.  The same person asking again
        for the seat they hold changes nothing.  :class:`LimitedRefused`: ``no_draft``,
        ``no_seat``, ``started``, ``taken`` (another person sits there), ``seated`` (this person
        sits elsewhere at the draft)."""
        did = valid_id(draft_id)
        if did is None:
            raise LimitedRefused(NO_DRAFT)
        _checked_for_writing(_int, user_id, "user_id", 0, MAX_ID, True)
        if type(name) is not str:
            raise ValueError("a seat's name is a text")
        name = name[:NAME_MAX]
        async with self._write() as c:                             # type: ignore[attr-defined]
            old = await self._draft_for_write(c, did)
            if old is None:
                raise LimitedRefused(NO_DRAFT)
            if type(seat) is not int or not 0 <= seat < len(old.seats):
                raise LimitedRefused(NO_SEAT)
            here = old.seats[seat]
            if here.user_id == user_id and (user_id is not None or here.name == name):
                return old                      # asked again (a retried call): nothing to change
            if old.status != "open":
                raise LimitedRefused(STARTED)
            if user_id is not None and here.user_id is not None:
                raise LimitedRefused(TAKEN)
            if user_id is not None and old.seat_of(user_id) is not None:
                raise LimitedRefused(SEATED)
            now = max(time.time(), old.updated_at)
            await c.execute("UPDATE limited_seats SET user_id = ?, name = ? WHERE draft_id = ? AND seat = ?",
                            user_id, name, did, seat)
            await c.execute("UPDATE limited_drafts SET version = version + 1, updated_at = ? WHERE id = ?", now, did)
        seats = tuple(replace(s, user_id=user_id, name=name) if s.seat == seat else s for s in old.seats)
        return replace(old, seats=seats, version=old.version + 1, updated_at=now)

    async def save_limited_deck(self, draft_id: int, seat: int, deck: Sequence[str], *, locked: bool = False,
                                at: float | None = None) -> SeatRow:
        """Store the deck built at a seat (card ids, copies allowed); ``locked``: an event's deck,
        never changed again.  Saving the very deck a locked seat holds changes nothing; any
        other deck there is :class:`LimitedRefused` ``locked`` (``no_seat``: no such seat)."""
        did = valid_id(draft_id)
        cards = _checked_for_writing(_cards, list(deck) if isinstance(deck, (list, tuple)) else deck, "deck")
        now = _checked_for_writing(_float, time.time() if at is None else at, "at")
        if did is None or type(seat) is not int or not 0 <= seat < MAX_SEATS:
            raise LimitedRefused(NO_SEAT)
        text = dumps(list(cards), "deck")
        async with self._write() as c:                             # type: ignore[attr-defined]
            row = await c.fetchone(f"SELECT {_SEAT_COLS} FROM limited_seats WHERE draft_id = ? AND seat = ?"
                                   + self._FOR_UPDATE, did, seat)  # type: ignore[attr-defined]
            if row is None:
                raise LimitedRefused(NO_SEAT)
            try:
                old = _seat(tuple(row))
            except (Bad, TypeError, ValueError) as e:
                raise StoreError(f"seat {seat} of draft {did} does not read ({e}); it cannot be written") from None
            if old.locked:
                if old.deck == cards:
                    return old
                raise LimitedRefused(LOCKED)
            await c.execute("UPDATE limited_seats SET deck = ?, deck_at = ?, locked = ? WHERE draft_id = ? AND seat = ?",
                            text, now, 1 if locked else 0, did, seat)
        return replace(old, deck=cards, deck_at=now, locked=bool(locked))

    async def drafts_due(self, now: float, limit: int = 100) -> list[int]:
        """The drafts whose earliest pick deadline is at or before ``now``, earliest first."""
        async with self._read() as c:                              # type: ignore[attr-defined]
            rows = await c.fetchall("SELECT id FROM limited_drafts WHERE due_at IS NOT NULL AND due_at <= ? "
                                    "ORDER BY due_at, id LIMIT ?", float(now), max(0, int(limit)))
        return [r[0] for r in rows if type(r[0]) is int]

    async def drafts_of(self, guild_id: int, *, statuses: Sequence[str] = LIVE, user_id: int | None = None,
                        limit: int = 25) -> list[DraftRow]:
        """A server's drafts in ``statuses`` (only those where ``user_id`` holds a seat, if
        given), newest first, at most ``limit`` (≤ :data:`LIST_MAX`)."""
        wanted = [s for s in DRAFT_STATUSES if s in tuple(statuses)]
        gid = valid_id(guild_id)
        if not wanted or gid is None:
            return []
        cond, args = self._in("status", wanted)                    # type: ignore[attr-defined]
        where, params = f"guild_id = ? AND {cond}", [gid, *args]
        if user_id is not None:
            uid = valid_id(user_id)
            if uid is None:
                return []
            where += " AND id IN (SELECT draft_id FROM limited_seats WHERE user_id = ?)"
            params.append(uid)
        params.append(max(1, min(LIST_MAX, int(limit))))
        async with self._read() as c:                              # type: ignore[attr-defined]
            return await self._drafts(c, where + " ORDER BY created_at DESC, id DESC LIMIT ?", params)

    # -- what the per-card figures read -------------------------------------------------------
    async def add_picks(self, draft_id: int, picks: Iterable[PickRecord]) -> None:
        """Keep the picks of a finished draft (:class:`LimitedRefused` ``not_done`` before it is
        ``done``: picks are hidden information until then).  Idempotent: a pick already kept
        (same ``seq``) stays as it was.  The picks newly kept are added to the report's counters
        in the same transaction (data/sql_card_counters.py)."""
        did = valid_id(draft_id)
        if did is None:
            raise LimitedRefused(NO_DRAFT)
        rows = []
        for p in picks:
            if not isinstance(p, PickRecord) or p.draft_id != did:
                raise ValueError(f"a pick of draft {did} is a PickRecord of that draft")
            p = _checked_for_writing(_pick, (p.draft_id, p.seq, p.round, p.pick_no, p.seat, p.card, p.offered,
                                             p.human, p.at), False)
            rows.append(p)
        if len({p.seq for p in rows}) != len(rows):
            raise ValueError("two picks with one seq")
        if not rows:
            return
        problem = None
        async with self._write() as c:                             # type: ignore[attr-defined]
            head = await c.fetchone("SELECT guild_id, game, set_name, set_version, status, "
                                    "(SELECT COUNT(*) FROM limited_seats WHERE draft_id = ?) "
                                    "FROM limited_drafts WHERE id = ?" + self._FOR_UPDATE,   # type: ignore[attr-defined]
                                    did, did)
            if head is None:
                raise LimitedRefused(NO_DRAFT)
            guild, game, set_name, set_version, status, n_seats = head
            if status != "done":
                raise LimitedRefused(NOT_DONE)
            if any(p.seat >= n_seats for p in rows):
                problem = f"a pick at a seat draft {did} does not have"
            elif new := await self._count_picks(c, did, (guild, game, set_name, set_version), rows):  # type: ignore[attr-defined]
                await c.executemany(
                    "INSERT INTO limited_picks (draft_id, seq, round, pick_no, seat, card, offered, human, at, "
                    "guild_id, game, set_name, set_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (draft_id, seq) DO NOTHING",
                    [(did, p.seq, p.round, p.pick_no, p.seat, p.card, dumps(list(p.offered), "offered"),
                      int(p.human), p.at, guild, game, set_name, set_version) for p in new])
        if problem is not None:     # (raised outside the transaction, which wrote nothing)
            raise ValueError(problem)

    async def add_limited_games(self, rows: Iterable[LimitedGameRecord]) -> None:
        """Keep the seats of finished matches played with limited decks.  Idempotent per
        (match, seat): a seat already kept stays as it was.  ``ValueError`` (nothing written)
        when a row's server, game or set is not its draft's, or its match or draft does not exist.
        The seats newly kept are added to the report's counters in the same transaction."""
        games = []
        for g in rows:
            if not isinstance(g, LimitedGameRecord):
                raise ValueError("a limited game is a LimitedGameRecord")
            games.append(_checked_for_writing(_game, (g.match_id, g.seat, g.draft_id, g.guild_id, g.game, g.set_name,
                                                      g.set_version, g.deck, g.drawn, g.played, g.score), False))
        if not games:
            return
        drafts = sorted({g.draft_id for g in games})
        matches = sorted({g.match_id for g in games})
        problem = None
        async with self._write() as c:                             # type: ignore[attr-defined]
            cond, args = self._in("id", drafts, "bigint")          # type: ignore[attr-defined]
            keys = {r[0]: tuple(r[1:]) for r in await c.fetchall(
                f"SELECT id, guild_id, game, set_name, set_version FROM limited_drafts WHERE {cond}", *args)}
            cond, args = self._in("id", matches, "bigint")         # type: ignore[attr-defined]
            found = {r[0] for r in await c.fetchall(f"SELECT id FROM matches WHERE {cond} ORDER BY id"
                                                    + self._FOR_UPDATE, *args)}   # type: ignore[attr-defined]
            for g in games:
                if g.match_id not in found:
                    problem = f"match {g.match_id} does not exist"
                elif keys.get(g.draft_id) != (g.guild_id, g.game, g.set_name, g.set_version):
                    problem = (f"match {g.match_id} seat {g.seat}: not the server, game and set of draft "
                               f"{g.draft_id}")
                if problem is not None:
                    break
            else:
                new_games = await self._count_games(c, games)      # type: ignore[attr-defined]
                await c.executemany(
                    f"INSERT INTO limited_games ({_GAME_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (match_id, seat) DO NOTHING",
                    [(g.match_id, g.seat, g.draft_id, g.guild_id, g.game, g.set_name, g.set_version,
                      dumps(list(g.deck), "deck"), dumps(list(g.drawn), "drawn"), dumps(list(g.played), "played"),
                      g.score) for g in new_games])
        if problem is not None:     # (raised outside the transaction, which wrote nothing)
            raise ValueError(problem)

    async def put_survey(self, record: SurveyRecord) -> None:
        """Keep one player's survey answer after a match, replacing an earlier answer of theirs
        to the same match.  ``ValueError`` (nothing written) when the match does not exist.  The
        report's counters lose the earlier answer and gain this one in the same transaction."""
        if not isinstance(record, SurveyRecord):
            raise ValueError("a survey answer is a SurveyRecord")
        r = _checked_for_writing(_survey, (record.match_id, record.user_id, record.guild_id, record.game,
                                           record.set_name, record.set_version, record.fun, record.strong,
                                           record.weak, record.seen, record.at), False)
        async with self._write() as c:                             # type: ignore[attr-defined]
            there = await c.fetchval("SELECT id FROM matches WHERE id = ?" + self._FOR_UPDATE,  # type: ignore[attr-defined]
                                     r.match_id) is not None
            if there:
                await self._count_survey(c, r)                     # type: ignore[attr-defined]
                await c.execute(
                    f"INSERT INTO card_surveys ({_SURVEY_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (match_id, user_id) DO UPDATE SET guild_id = excluded.guild_id, "
                    "game = excluded.game, set_name = excluded.set_name, set_version = excluded.set_version, "
                    "fun = excluded.fun, strong = excluded.strong, weak = excluded.weak, seen = excluded.seen, "
                    "at = excluded.at",
                    r.match_id, r.user_id, r.guild_id, r.game, r.set_name, r.set_version, r.fun, r.strong, r.weak,
                    dumps(list(r.seen), "seen"), r.at)
        if not there:               # (raised outside the transaction, which wrote nothing)
            raise ValueError(f"match {r.match_id} does not exist")

    async def limited_rows(self, guild_id: int, game: str, set_name: str | None, set_version: int | None
                           ) -> tuple[list[PickRecord], list[LimitedGameRecord], list[SurveyRecord]]:
        """Every row the per-card figures of one server's set version count (``set_name`` None:
        the shipped cards): the picks, the games and the survey answers, each from one index
        range.  A row that does not read is skipped and logged.  (``/cards report`` reads the
        counters kept from these rows instead, data/sql_card_counters.py, which counts a
        version from them again when it must.)"""
        gid = valid_id(guild_id)
        if gid is None or game not in GAMES:
            return [], [], []
        async with self._read() as c:                              # type: ignore[attr-defined]
            return await self._limited_rows_in(c, gid, game, set_name, set_version)

    async def _limited_rows_in(self, c: Any, gid: int, game: str, set_name: str | None, set_version: int | None
                               ) -> tuple[list[PickRecord], list[LimitedGameRecord], list[SurveyRecord]]:
        """:meth:`limited_rows` on the connection ``c`` (also inside a write: the counters'
        recount, data/sql_card_counters.py)."""
        cond, args = _set_where(set_name, set_version)
        where, params = f"WHERE guild_id = ? AND game = ? AND {cond}", [gid, game, *args]
        picks = await c.fetchall(f"SELECT {_PICK_COLS} FROM limited_picks {where} ORDER BY draft_id, seq", *params)
        games = await c.fetchall(f"SELECT {_GAME_COLS} FROM limited_games {where} ORDER BY match_id, seat", *params)
        surveys = await c.fetchall(f"SELECT {_SURVEY_COLS} FROM card_surveys {where} ORDER BY match_id, user_id",
                                   *params)
        what = f"guild {gid} {game} set {set_name!r} v{set_version}"
        return (_read_each(picks, _pick, f"{what}: picks"), _read_each(games, _game, f"{what}: limited games"),
                _read_each(surveys, _survey, f"{what}: surveys"))


    async def survey_of(self, match_id: int, user_id: int) -> SurveyRecord | None:
        """A player's survey answer about one match, None when there is none (or it does not
        read: logged)."""
        mid, uid = valid_id(match_id), valid_id(user_id)
        if mid is None or uid is None:
            return None
        async with self._read() as c:                              # type: ignore[attr-defined]
            rows = await c.fetchall(f"SELECT {_SURVEY_COLS} FROM card_surveys WHERE match_id = ? AND user_id = ?",
                                    mid, uid)
        got = _read_each(rows, _survey, f"match {mid}: survey")
        return got[0] if got else None


LIMITED_READS = ("get_draft", "drafts_due", "drafts_of", "limited_rows", "survey_of")
LIMITED_WRITES = ("create_draft", "update_draft")
LIMITED_IDEMPOTENT = ("set_seat_user", "save_limited_deck", "add_picks", "add_limited_games", "put_survey")
__all__ = ["LimitedSql", "LimitedRefused", "DraftRow", "SeatRow", "PickRecord", "LimitedGameRecord", "SurveyRecord",
           "LIMITED_READS", "LIMITED_WRITES", "LIMITED_IDEMPOTENT", "GAMES", "FORMATS", "SOURCES",
           "DRAFT_STATUSES", "OVER", "LIVE"]
