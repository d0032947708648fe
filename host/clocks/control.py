"""Time controls and banks: today's time per move, or a bank (Fischer time, as correspondence
sites play it: a starting time, an increment added after each of the player's own moves, a cap).

A :class:`TimeControl` is immutable and valid by construction (a bad one raises
:class:`~host.clocks.ClockError`); it round-trips through JSON (:meth:`TimeControl.to_json`,
:meth:`TimeControl.from_json`, which checks a stored row when it is read).  :func:`parse` reads
what a player types, in English or Japanese::

    3d+1d max 7d    3d + 1d max 7d    1h+10m    90m    2h30m+5m cap 4h    24h per move
    3日+1日 上限7日    1時間+10分    1回の番ごとに24時間    fast / daily / slow (速め・毎日・ゆっくり)

and :func:`describe` says a control in words ("3 days + 1 day per move, at most 7 days"), which
:func:`parse` reads back.  Without ``max`` the cap is twice the starting time (at most
``CAP_MAX``); a bank without increment never grows, so its cap is its starting time.

Bank arithmetic takes the seconds a player's clock ran (``host.clocks.calendar.running``, which
leaves out weekends, hours outside playing hours and vacations): :func:`start_banks`,
:func:`spend`, :func:`after_move`, :func:`window_allowance`.  A per-move control is a bank that
is full again after each move: that is today's turn clock.
"""
from __future__ import annotations

import json
import math
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from data import i18n
from host.clocks import ClockError

MINUTE, HOUR, DAY, WEEK = 60, 3600, 86400, 7 * 86400

PER_MOVE_MIN, PER_MOVE_MAX = 5 * MINUTE, 72 * HOUR      # today's turn_time choices: 5 minutes .. 72 hours
INITIAL_MIN, INITIAL_MAX = MINUTE, 30 * DAY
INCREMENT_MAX = 7 * DAY
CAP_MAX = 60 * DAY
# a secret response window spends the responder's own bank, but lasts at least this long, so a
# window never blocks forever (the same 5 minutes as ``host.table.WINDOW_SECONDS``)
WINDOW_FLOOR = 5 * MINUTE

MAX_TEXT = 128         # what a player may type, checked before anything else (describe's longest words fit)
MAX_DIGITS = 6         # a number longer than this is refused before it is converted
MAX_STORED = 1000      # a stored row's JSON text


# --------------------------------------------------------------------------- the control
@dataclass(frozen=True)
class TimeControl:
    """Either ``per_move`` seconds for each move (today's turn clock) or a bank: ``initial``
    seconds to start with, ``increment`` added after each of the player's own moves, never more
    than ``cap``.  All in whole minutes.  Build one with :meth:`move` or :meth:`bank`."""

    per_move: int | None = None
    initial: int | None = None
    increment: int = 0
    cap: int | None = None

    def __post_init__(self) -> None:
        def whole(value: Any) -> bool:
            return type(value) is int and value % MINUTE == 0

        if self.per_move is not None:
            if self.initial is not None or self.cap is not None or self.increment != 0:
                raise ClockError("clock.err.control.kind")
            if not whole(self.per_move):
                raise ClockError("clock.err.control.whole_minutes")
            if not PER_MOVE_MIN <= self.per_move <= PER_MOVE_MAX:
                raise ClockError("clock.err.control.per_move", min=both(PER_MOVE_MIN, days=False),
                                 max=both(PER_MOVE_MAX, days=False))
            return
        if self.initial is None or self.cap is None:
            raise ClockError("clock.err.control.kind")
        if not (whole(self.initial) and whole(self.increment) and whole(self.cap)):
            raise ClockError("clock.err.control.whole_minutes")
        if not INITIAL_MIN <= self.initial <= INITIAL_MAX:
            raise ClockError("clock.err.control.initial", min=both(INITIAL_MIN), max=both(INITIAL_MAX))
        if not 0 <= self.increment <= INCREMENT_MAX:
            raise ClockError("clock.err.control.increment", max=both(INCREMENT_MAX))
        if not self.initial <= self.cap <= CAP_MAX or (self.increment == 0 and self.cap != self.initial):
            raise ClockError("clock.err.control.cap", initial=both(self.initial), max=both(CAP_MAX))

    @classmethod
    def move(cls, seconds: int) -> TimeControl:
        """Today's clock: ``seconds`` for each move."""
        return cls(per_move=seconds)

    @classmethod
    def bank(cls, initial: int, increment: int = 0, cap: int | None = None) -> TimeControl:
        """A bank; ``cap`` None: twice ``initial`` (at most ``CAP_MAX``, at least ``initial``).
        Without an increment the bank never grows and its cap is ``initial``."""
        if increment == 0:
            cap = initial
        elif cap is None and type(initial) is int:
            cap = max(initial, min(2 * initial, CAP_MAX))
        return cls(initial=initial, increment=increment, cap=cap)

    @property
    def is_bank(self) -> bool:
        return self.per_move is None

    @property
    def start(self) -> int:
        """What each player has when the match starts (and, per move, at each turn)."""
        return self.initial if self.per_move is None else self.per_move

    def to_json(self) -> dict[str, int]:
        """The stored form: ``{"per_move": s}`` or ``{"initial": s, "increment": s, "cap": s}``."""
        if self.per_move is not None:
            return {"per_move": self.per_move}
        return {"initial": self.initial, "increment": self.increment, "cap": self.cap}

    @classmethod
    def from_json(cls, data: Any) -> TimeControl:
        """A stored control (the dict of :meth:`to_json`, or its JSON text), checked: a damaged
        row raises ``ClockError("clock.err.control.stored")``, never a half-built control."""
        try:
            if isinstance(data, (str, bytes)):
                if len(data) > MAX_STORED:
                    raise ValueError(f"{len(data)} characters")
                data = json.loads(data)
            if not isinstance(data, dict):
                raise ValueError(f"not an object: {type(data).__name__}")
            if set(data) == {"per_move"}:
                return cls(per_move=data["per_move"])
            if set(data) == {"initial", "increment", "cap"}:
                return cls(initial=data["initial"], increment=data["increment"], cap=data["cap"])
            raise ValueError(f"unexpected fields {sorted(map(str, data))[:6]}")
        except ClockError as exc:
            raise ClockError("clock.err.control.stored", detail=exc.text("en")) from exc
        except (ValueError, TypeError, RecursionError) as exc:
            raise ClockError("clock.err.control.stored", detail=str(exc)[:120]) from exc


PRESETS: dict[str, TimeControl] = {
    "fast": TimeControl.bank(1 * HOUR, 10 * MINUTE, 2 * HOUR),
    "daily": TimeControl.bank(3 * DAY, 1 * DAY, 7 * DAY),
    "slow": TimeControl.bank(7 * DAY, 2 * DAY, 14 * DAY),
}
# other words a player may type for a preset (besides its id and its name in each language)
PRESET_ALIASES = {"weekly": "slow", "スピード": "fast", "デイリー": "daily", "スロー": "slow",
                  "ウィークリー": "slow", "毎週": "slow"}


def preset_of(tc: TimeControl) -> str | None:
    """The preset ``tc`` is, if any (``"daily"`` for ``3d+1d max 7d``)."""
    return next((name for name, value in PRESETS.items() if value == tc), None)


@lru_cache(maxsize=1)
def _preset_words() -> dict[str, str]:
    words = {_fold(k): v for k, v in PRESET_ALIASES.items()}
    for name in PRESETS:
        words[name] = name
        for loc in i18n.LOCALES:
            words[_fold(i18n.t(f"clock.control.preset.{name}", loc))] = name
    return words


# --------------------------------------------------------------------------- parsing
_PLUS, _CAP, _MOVE, _SKIP = "+", "^", "@", ""
_PHRASES: list[tuple[str, str]] = sorted({
    "+": _PLUS, "plus": _PLUS,
    "max": _CAP, "maximum": _CAP, "cap": _CAP, "capped at": _CAP, "at most": _CAP, "up to": _CAP,
    "上限": _CAP, "最大": _CAP,
    "per move": _MOVE, "a move": _MOVE, "each move": _MOVE, "every move": _MOVE, "/move": _MOVE,
    "per turn": _MOVE, "a turn": _MOVE, "each turn": _MOVE, "/turn": _MOVE,
    "1回の番ごとに": _MOVE, "1回の番ごと": _MOVE, "1回の番につき": _MOVE, "番ごとに": _MOVE, "番ごと": _MOVE,
    "1回の操作ごとに": _MOVE, "1回の操作ごと": _MOVE, "操作ごとに": _MOVE, "操作ごと": _MOVE,
    ",": _SKIP, "、": _SKIP, ":": _SKIP, "(": _SKIP, ")": _SKIP, "「": _SKIP, "」": _SKIP,
    "for the whole match": _SKIP, "in all": _SKIP, "no increment": _SKIP,
    "持ち時間": _SKIP, "対戦全体で": _SKIP, "加算なし": _SKIP,
}.items(), key=lambda kv: -len(kv[0]))
_UNIT_RANK = {"w": 4, "d": 3, "h": 2, "m": 1}
_UNIT_SECONDS = {"w": WEEK, "d": DAY, "h": HOUR, "m": MINUTE}
_UNITS: list[tuple[str, str]] = sorted({
    "w": "w", "week": "w", "weeks": "w", "週": "w", "週間": "w",
    "d": "d", "day": "d", "days": "d", "日": "d", "日間": "d",
    "h": "h", "hr": "h", "hrs": "h", "hour": "h", "hours": "h", "時間": "h",
    "m": "m", "min": "m", "mins": "m", "minute": "m", "minutes": "m", "分": "m", "分間": "m",
}.items(), key=lambda kv: -len(kv[0]))
_HALF = "半"      # 1時間半, 1日半: half of the unit before it (not of minutes)


def _fold(text: str) -> str:
    """What parsing compares: NFKC (full-width ３日＋１日 is 3日+1日), case-folded, one space."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def _ascii_letter(c: str) -> bool:
    return "a" <= c <= "z"


def _snippet(s: str, at: int, end: int | None = None) -> str:
    """What an error quotes: ``s[at:end]``, or the word at ``at``; at most 12 characters."""
    if end is None:
        end = s.find(" ", at)
        end = len(s) if end < 0 else end
    return (s[at:end].strip() or s[at:at + 1])[:12]


def parse(text: Any) -> TimeControl:
    """The time control a player typed (module doc), or ``ClockError`` whose key says what is
    allowed instead; the length is checked first and the reading is linear in it."""
    if not isinstance(text, str):
        raise ClockError("clock.err.control.empty")
    if len(text) > MAX_TEXT:
        raise ClockError("clock.err.control.too_long", max=MAX_TEXT)
    s = _fold(text)
    if len(s) > 4 * MAX_TEXT:        # NFKC may spell a character out (㍱), never without bound
        raise ClockError("clock.err.control.too_long", max=MAX_TEXT)
    if not s:
        raise ClockError("clock.err.control.empty")
    presets = _preset_words()
    if s in presets:
        return PRESETS[presets[s]]
    head, colon, rest = s.partition(":")
    offset = 0
    if colon and head.strip() in presets:       # "daily: 3 days + 1 day per move, …" (describe's words)
        if not rest.strip():
            return PRESETS[presets[head.strip()]]
        offset = len(head) + 1
        s = rest
    return _build(_tokens(s, offset), s, offset)


def _unit_at(s: str, j: int) -> tuple[str, str] | None:
    """The unit word at ``s[j:]`` and its unit, longest first; a Latin unit must end its word
    (``5 mo`` has none)."""
    for word, unit in _UNITS:
        if s.startswith(word, j):
            end = j + len(word)
            if _ascii_letter(word[-1]) and end < len(s) and _ascii_letter(s[end]) \
                    and not any(s.startswith(p, end) for p, _ in _PHRASES):
                continue            # "5 mo"; but "3dmax7d" is 3d max 7d
            return word, unit
    return None


Token = tuple[str, int, int, int]      # (kind, seconds, start, end) in the folded text


def _tokens(s: str, offset: int) -> list[Token]:
    """The parts of ``s``: ``"t"`` a duration (``2h30m`` is one), ``+``, ``^`` (the cap),
    ``@`` (per move); words between parts are skipped.  Positions count from the start of the
    folded text (``offset`` is where ``s`` begins in it)."""
    out: list[Token] = []
    i, n = 0, len(s)
    last_rank = 0            # the unit of the duration being read (its parts go down: 2h30m)
    while i < n:
        if s[i] == " ":
            i += 1
            continue
        phrase = next(((p, kind) for p, kind in _PHRASES if s.startswith(p, i)), None)
        if phrase is not None:
            if phrase[1]:
                out.append((phrase[1], 0, offset + i, offset + i + len(phrase[0])))
            i += len(phrase[0])
            last_rank = 0
            continue
        if not "0" <= s[i] <= "9":
            raise ClockError("clock.err.control.syntax", part=_snippet(s, i), at=offset + i + 1)
        start = i
        while i < n and "0" <= s[i] <= "9":
            i += 1
        if i - start > MAX_DIGITS:
            raise ClockError("clock.err.control.too_big", part=_snippet(s, start, i),
                             at=offset + start + 1, digits=MAX_DIGITS)
        if i + 1 < n and s[i] in ".," and "0" <= s[i + 1] <= "9":      # 1.5d: whole numbers only
            raise ClockError("clock.err.control.decimal", part=_snippet(s, start), at=offset + start + 1)
        number = int(s[start:i])
        j = i + 1 if i < n and s[i] == " " else i
        found = _unit_at(s, j)
        if found is None:
            raise ClockError("clock.err.control.unit", part=_snippet(s, start, i), at=offset + start + 1)
        word, unit = found
        i = j + len(word)
        seconds = number * _UNIT_SECONDS[unit]
        if i < n and s[i] == _HALF:
            if unit == "m":
                raise ClockError("clock.err.control.syntax", part=_HALF, at=offset + i + 1)
            seconds += _UNIT_SECONDS[unit] // 2
            i += 1
        rank = _UNIT_RANK[unit]
        if out and out[-1][0] == "t" and last_rank:
            if rank >= last_rank:       # "3d 1d", "30m 2h": a duration's parts go down
                raise ClockError("clock.err.control.shape", part=_snippet(s, start, i), at=offset + start + 1)
            out[-1] = ("t", out[-1][1] + seconds, out[-1][2], offset + i)
        else:
            out.append(("t", seconds, offset + start, offset + i))
        last_rank = rank
    return out


def _build(tokens: list[Token], s: str, offset: int) -> TimeControl:
    """The control the parts say: ``T @`` or ``@ T`` (per move), or ``T [+ [@] T [@]] [^ T]``."""
    def misplaced(index: int) -> ClockError:
        _, _, start, end = tokens[min(index, len(tokens) - 1)]
        return ClockError("clock.err.control.shape", part=_snippet(s, start - offset, end - offset), at=start + 1)

    if not tokens:
        raise ClockError("clock.err.control.empty")
    kinds = [tok[0] for tok in tokens]
    if _MOVE in kinds and _PLUS not in kinds and _CAP not in kinds:
        if len(tokens) != 2 or kinds.count("t") != 1:
            raise misplaced(2 if len(tokens) > 2 else 0)
        return TimeControl.move(next(tok[1] for tok in tokens if tok[0] == "t"))
    pos = 0

    def take(kind: str) -> Token | None:
        nonlocal pos
        if pos < len(tokens) and tokens[pos][0] == kind:
            pos += 1
            return tokens[pos - 1]
        return None

    first = take("t")
    if first is None:
        raise misplaced(0)
    increment, cap = 0, None
    if take(_PLUS):
        moved = take(_MOVE)
        inc = take("t")
        if inc is None:
            raise misplaced(pos)
        if not moved:
            take(_MOVE)
        increment = inc[1]
    capped = take(_CAP)
    if capped:
        top = take("t")
        if top is None:
            raise misplaced(pos)
        cap = top[1]
    if pos < len(tokens):
        raise misplaced(pos)
    if capped and not increment:        # a bank that never grows has no use for a cap
        raise ClockError("clock.err.control.cap_alone", at=capped[2] + 1)
    return TimeControl.bank(first[1], increment, cap)


# --------------------------------------------------------------------------- words
def words(seconds: int, locale: Any = "en", *, days: bool = True) -> str:
    """A whole-minute duration in words: "3 days", "2 hours 30 minutes", "1時間30分"; without
    ``days``, hours at most ("72 hours", as today's turn-time choices say it)."""
    seconds = max(0, int(seconds))
    d, rem = divmod(seconds, DAY) if days else (0, seconds)
    h, rem = divmod(rem, HOUR)
    m = rem // MINUTE
    parts = [i18n.t(f"clock.control.{unit}", locale, n=v)
             for unit, v in (("days", d), ("hours", h), ("minutes", m)) if v]
    if not parts:
        return i18n.t("clock.control.minutes", locale, n=0)
    text = parts[0]
    for part in parts[1:]:
        text = i18n.t("clock.control.join", locale, a=text, b=part)
    return text


def both(seconds: int, *, days: bool = True) -> dict[str, str]:
    """A duration in words in both languages: an error's param, said in the reader's language."""
    return {loc: words(seconds, loc, days=days) for loc in i18n.LOCALES}


def describe(tc: TimeControl, locale: Any = "en", *, named: bool = True) -> str:
    """``tc`` in words, "Daily: 3 days + 1 day per move, at most 7 days" (``named``: a preset's
    name first); :func:`parse` reads it back."""
    if tc.per_move is not None:
        text = i18n.t("clock.control.per_move", locale, time=words(tc.per_move, locale, days=False))
    elif tc.increment:
        text = i18n.t("clock.control.bank", locale, initial=words(tc.initial, locale),
                      increment=words(tc.increment, locale), cap=words(tc.cap, locale))
    else:
        text = i18n.t("clock.control.bank_flat", locale, initial=words(tc.initial, locale))
    name = preset_of(tc) if named else None
    if name is None:
        return text
    return i18n.t("clock.control.named", locale, name=i18n.t(f"clock.control.preset.{name}", locale), text=text)


def notation(tc: TimeControl) -> str:
    """The short form a player types, the same in both languages: ``3d+1d max 7d``, ``90m``,
    ``24h per move``."""
    def short(seconds: int, days: bool = True) -> str:
        d, rem = divmod(seconds, DAY) if days else (0, seconds)
        h, rem = divmod(rem, HOUR)
        out = "".join(f"{v}{u}" for v, u in ((d, "d"), (h, "h"), (rem // MINUTE, "m")) if v)
        return out or "0m"

    if tc.per_move is not None:
        return f"{short(tc.per_move, days=False)} per move"
    if not tc.increment:
        return short(tc.initial)
    return f"{short(tc.initial)}+{short(tc.increment)} max {short(tc.cap)}"


def format_left(seconds: float, locale: Any = "en") -> str:
    """Time left on a clock line, its two largest units, rounded down (never more than is
    left): "2 d 4 h", "3 h 5 min", "45 min", "30 s"; "2日4時間", "3時間5分"."""
    left = max(0, math.floor(seconds)) if math.isfinite(seconds) else 0
    d, rem = divmod(left, DAY)
    h, rem = divmod(rem, HOUR)
    m, s = divmod(rem, MINUTE)
    if d:
        parts = [("d", d), ("h", h)]
    elif h:
        parts = [("h", h), ("m", m)]
    elif m:
        parts = [("m", m)]
    else:
        parts = [("s", s)]
    said = [i18n.t(f"clock.control.left.{unit}", locale, n=v) for unit, v in parts if v] \
        or [i18n.t(f"clock.control.left.{parts[0][0]}", locale, n=0)]
    text = said[0]
    for part in said[1:]:
        text = i18n.t("clock.control.join", locale, a=text, b=part)
    return text


# --------------------------------------------------------------------------- bank arithmetic
def start_banks(tc: TimeControl, seats: int) -> tuple[float, ...]:
    """Each seat's bank when the match starts (per move: the time for the first move)."""
    if type(seats) is not int or seats < 1:
        raise ValueError(f"seats must be a positive int, not {seats!r}")
    return (float(tc.start),) * seats


def _used(used: float) -> float:
    if not (isinstance(used, (int, float)) and math.isfinite(used) and used >= 0):
        raise ValueError(f"used seconds must be finite and >= 0, not {used!r}")
    return float(used)


def spend(bank: float, used: float) -> float:
    """What is left of ``bank`` after its clock ran ``used`` seconds: never below 0 (at 0 the
    player is out of time)."""
    return max(0.0, float(bank) - _used(used))


def after_move(bank: float, used: float, tc: TimeControl) -> float:
    """The bank after the player's own move that took ``used`` running seconds: what is left
    plus the increment, at most the cap.  Per move: full again (today's clock).  Whether a move
    after the bank ran out is still accepted is the caller's (a time-out is claimed)."""
    left = spend(bank, used)
    if tc.per_move is not None:
        return float(tc.per_move)
    return min(float(tc.cap), left + tc.increment)


def window_allowance(bank: float, floor: float = WINDOW_FLOOR) -> float:
    """How long a secret response window may stay open for a responder with ``bank`` left: the
    bank, but never less than ``floor`` (so a window never blocks forever, even on an empty
    bank).  When it closes, the responder's bank is ``spend(bank, used)`` (no increment: a
    response is not a move of one's own)."""
    return max(float(bank), float(floor))


def out_of_time(bank: float) -> bool:
    """The bank is spent: the caller takes a vacation day if it may, else a time-out is due."""
    return bank <= 0
