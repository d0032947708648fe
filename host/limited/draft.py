"""The booster draft as a pure state machine: 2 to 8 seats, packs passed left then right, a
queue of packs at a seat whose neighbour is faster, and the pick timer.

How the draft runs (the rules this module enforces):

* Seats are ``0 .. n-1`` around the table; each seat is a person or a computer.  The packs are
  dealt before the start: ``packs[round][seat]``, every pack of a round the same size.
* Round 1 passes **left** (seat ``i`` hands its pack to ``i + 1``), round 2 **right** (to
  ``i - 1``), round 3 left again, alternating.  Each pick takes one card from the pack in front
  of the seat; what is left goes to the neighbour.
* A seat may have **several packs waiting** when the seat before it is faster.  They queue in
  the order they arrived and the seat always picks from the **oldest** one (as at a real table
  and on Draftmancer); nobody waits for the whole table between picks.
* A round ends when every pack of it is empty; then every seat opens its pack of the next
  round.  The draft ends after the last round.
* **The pick timer.**  A pick's time limit depends on the cards left in the pack:
  ``max(floor, base + per_card * cards_left)`` — by default 10 s plus 5 s a card, never below
  10 s (a fresh 15-card pack 85 s, the last card 15 s).  The clock of a pick starts when the
  pack comes to the front of the seat's queue (when it arrives at a seat with nothing waiting,
  or when the seat picks from the pack before it).  A pick whose time has run out is taken for
  the seat by a chooser the caller gives (the computer drafter's choice).  A draft may also run
  without a timer.
* **Computer seats** pick at once, with the same chooser, whenever a pack is in front of them.

The log holds every pick as ``(round, pick_no, seat, card, auto, at)``: ``round`` and
``pick_no`` count from 1 (``pick_no`` is the card's position within its pack, what "average pick
position" averages), ``auto`` is true when the card was not a person's choice (a timed-out pick
or a computer seat's), ``at`` the instant of the pick.

Pure: no I/O, no clock (every method that needs the time takes ``now``, seconds), no
randomness (the packs come dealt).  Time never runs backwards inside a draft: an instant earlier
than the last one recorded counts as that one.  A stored draft is read back by replaying its log
from the dealt packs and must come out exactly as stored, so every field is checked
(:meth:`BoosterDraft.from_json` raises ValueError otherwise).  Each pick costs O(pack size).
"""
from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from typing import Any, Callable, Iterable, NamedTuple, Sequence

FORMAT = "draft/booster/1"
MIN_SEATS, MAX_SEATS = 2, 8
MAX_ROUNDS = 10
MAX_PACK = 60                   # cards in one pack
CARD_ID_LIMIT = 64              # characters in a card id
MAX_TIMER = 7 * 24 * 3600.0     # no part of a pick timer above a week

# The refusal codes of :class:`Refused` (a front end maps each to its own words).
NOT_STARTED = "not_started"         # the draft has not begun
ALREADY_STARTED = "already_started"  # start() a second time
DRAFT_OVER = "draft_over"           # every pick has been made
UNKNOWN_SEAT = "unknown_seat"       # no such seat (or player) at this draft
NOT_YOUR_PACK = "not_your_pack"     # no pack is waiting in front of this seat
NOT_IN_PACK = "not_in_pack"         # the card is not in the pack in front of the seat
STALE = "stale"                     # the pick was meant for another pack than the one in front
COMPUTER_SEAT = "computer_seat"     # a person's pick for a computer's seat
REFUSALS = (NOT_STARTED, ALREADY_STARTED, DRAFT_OVER, UNKNOWN_SEAT, NOT_YOUR_PACK, NOT_IN_PACK, STALE,
            COMPUTER_SEAT)


class Refused(Exception):
    """A pick (or look) the draft does not allow; ``code`` is one of the module's refusal
    codes, for the front end to put into words."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


# --------------------------------------------------------------------------- shared checks
def check_time(now: Any) -> float:
    """An instant: a finite number of seconds (ValueError otherwise: a caller's mistake)."""
    if isinstance(now, bool) or not isinstance(now, (int, float)) or not math.isfinite(now):
        raise ValueError(f"an instant is a finite number of seconds, not {now!r}")
    return float(now)


def check_card(card: Any) -> str:
    """A card id: a non-empty string of at most CARD_ID_LIMIT characters."""
    if not isinstance(card, str) or not card or len(card) > CARD_ID_LIMIT:
        raise ValueError(f"a card id is a non-empty string of at most {CARD_ID_LIMIT} characters, not {card!r}")
    return card


def check_int(value: Any, low: int, high: int, what: str) -> int:
    """A whole number in ``low .. high`` (booleans are not numbers here)."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{what} must be a whole number from {low} to {high}, not {value!r}")
    return value


def check_bool(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{what} must be true or false, not {value!r}")
    return value


def check_list(value: Any, what: str, length: int | None = None) -> list:
    if not isinstance(value, list) or (length is not None and len(value) != length):
        raise ValueError(f"{what} must be a list" + ("" if length is None else f" of {length}"))
    return value


# --------------------------------------------------------------------------- the pick timer
@dataclass(frozen=True)
class PickTimer:
    """How long a pick may take: ``max(floor, base + per_card * cards)`` seconds, ``cards``
    being the cards in the pack (or, in a Winston draft, in the pile looked at).  The defaults
    are 10 s plus 5 s a card, never below 10 s."""

    base: float = 10.0
    per_card: float = 5.0
    floor: float = 10.0

    def __post_init__(self) -> None:
        for name in ("base", "per_card", "floor"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
                    or not 0 <= value <= MAX_TIMER:
                raise ValueError(f"the timer's {name} must be 0 to {MAX_TIMER:.0f} seconds, not {value!r}")
            object.__setattr__(self, name, float(value))
        if self.floor < 1:
            raise ValueError("a pick timer never allows less than 1 second")

    def limit(self, cards: int) -> float:
        """Seconds allowed for a pick from ``cards`` cards."""
        return max(self.floor, self.base + self.per_card * cards)

    def to_json(self) -> dict:
        return {"base": self.base, "per_card": self.per_card, "floor": self.floor}

    @classmethod
    def from_json(cls, data: Any) -> "PickTimer | None":
        """A stored timer (None: the draft runs without one); ValueError for anything else."""
        if data is None:
            return None
        if not isinstance(data, dict) or set(data) != {"base", "per_card", "floor"}:
            raise ValueError("a pick timer is {base, per_card, floor}")
        return cls(data["base"], data["per_card"], data["floor"])


DEFAULT_TIMER = PickTimer()     # 10 s + 5 s a card, never below 10 s


# --------------------------------------------------------------------------- picks and events
class LogEntry(NamedTuple):
    """One pick: ``round`` and ``pick_no`` from 1, ``auto`` when not a person's choice."""

    round: int
    pick_no: int
    seat: int
    card: str
    auto: bool
    at: float


@dataclass(frozen=True)
class Event:
    """What a pick did: the pick itself, the seat its pack went to (None when it emptied the
    pack), whether it ended the round and whether it ended the draft."""

    entry: LogEntry
    passed_to: int | None
    round_over: bool
    done: bool


Chooser = Callable[[int, tuple, tuple], str]   # (seat, pack, pool) -> card


def direction(round_no: int) -> int:
    """Where packs go in round ``round_no`` (from 1): +1 (left, seat i to i+1) in rounds 1, 3,
    …; -1 (right) in rounds 2, 4, …"""
    return 1 if round_no % 2 == 1 else -1


# --------------------------------------------------------------------------- the draft
class BoosterDraft:
    """A booster draft for ``len(packs[0])`` seats; ``packs[round][seat]`` are dealt packs of
    card ids, ``computers`` the seats the computer drafts for, ``timer`` the pick timer (None:
    no timer).  Call :meth:`start` to open the first packs."""

    def __init__(self, packs: Sequence[Sequence[Sequence[str]]], computers: Iterable[int] = (),
                 timer: PickTimer | None = DEFAULT_TIMER) -> None:
        if not isinstance(packs, (list, tuple)) or not 1 <= len(packs) <= MAX_ROUNDS:
            raise ValueError(f"a draft has 1 to {MAX_ROUNDS} rounds of packs")
        first = packs[0]
        if not isinstance(first, (list, tuple)) or not MIN_SEATS <= len(first) <= MAX_SEATS:
            raise ValueError(f"a booster draft seats {MIN_SEATS} to {MAX_SEATS}")
        n = len(first)
        dealt = []
        for r, rnd in enumerate(packs, 1):
            if not isinstance(rnd, (list, tuple)) or len(rnd) != n:
                raise ValueError(f"round {r} must have one pack for each of the {n} seats")
            size = None
            row = []
            for pack in rnd:
                if not isinstance(pack, (list, tuple)) or not 1 <= len(pack) <= MAX_PACK:
                    raise ValueError(f"a pack holds 1 to {MAX_PACK} cards")
                if size is not None and len(pack) != size:
                    raise ValueError(f"every pack of round {r} must hold the same number of cards")
                size = len(pack)
                row.append(tuple(check_card(c) for c in pack))
            dealt.append(tuple(row))
        if isinstance(computers, (str, bytes)):
            raise ValueError("the computer seats are a list of seats")
        comp = list(computers)
        for s in comp:
            check_int(s, 0, n - 1, "a computer seat")
        if len(set(comp)) != len(comp):
            raise ValueError("a computer seat is listed twice")
        if timer is not None and not isinstance(timer, PickTimer):
            raise ValueError("the timer must be a PickTimer or None")
        self._packs: tuple[tuple[tuple[str, ...], ...], ...] = tuple(dealt)
        self._n = n
        self._computers = frozenset(comp)
        self._timer = timer
        self._started_at: float | None = None
        self._last = -math.inf                 # the latest instant seen: time never runs back
        self._round = 0                        # index of the round in play (== rounds once done)
        self._contents: list[list[str]] = []   # the round's packs as they are now, by the seat that opened them
        self._queues: list[deque[int]] = [deque() for _ in range(n)]   # packs waiting, oldest first
        self._since: list[float | None] = [None] * n                   # when the front pack's clock started
        self._pools: list[list[str]] = [[] for _ in range(n)]
        self._log: list[LogEntry] = []
        self._left = 0                         # cards left in the round's packs

    # ----------------------------------------------------------------- reading
    @property
    def seats(self) -> int:
        return self._n

    @property
    def rounds(self) -> int:
        return len(self._packs)

    @property
    def computers(self) -> frozenset[int]:
        return self._computers

    @property
    def timer(self) -> PickTimer | None:
        return self._timer

    @property
    def started(self) -> bool:
        return self._started_at is not None

    @property
    def done(self) -> bool:
        return self.started and self._round >= len(self._packs)

    @property
    def round(self) -> int:
        """The round in play, from 1 (0 before the start; the last round once done)."""
        if not self.started:
            return 0
        return min(self._round + 1, len(self._packs))

    @property
    def log(self) -> list[LogEntry]:
        return list(self._log)

    def dealt(self) -> tuple[tuple[tuple[str, ...], ...], ...]:
        """The packs as dealt, ``[round][seat]``."""
        return self._packs

    def waiting(self) -> list[int]:
        """The seats with a pack in front of them."""
        return [s for s in range(self._n) if self._queues[s]]

    def queued(self, seat: int) -> int:
        """How many packs wait at ``seat`` (the one in front included)."""
        return len(self._queues[self._seat(seat)])

    def pack_of(self, seat: int) -> tuple[str, ...] | None:
        """The pack in front of ``seat`` (its oldest waiting pack), or None."""
        q = self._queues[self._seat(seat)]
        return tuple(self._contents[q[0]]) if q else None

    def pool_of(self, seat: int) -> list[str]:
        """The cards ``seat`` has taken, in the order taken."""
        return list(self._pools[self._seat(seat)])

    def pools(self) -> list[list[str]]:
        return [list(p) for p in self._pools]

    def pick_number(self, seat: int) -> int | None:
        """The position (from 1) within its pack of the pick ``seat`` is to make, or None when no
        pack waits for it: 1 for a fresh pack, 15 for the last card of a 15-card pack."""
        q = self._queues[self._seat(seat)]
        if not q:
            return None
        return self._size() - len(self._contents[q[0]]) + 1

    def deadline(self, seat: int) -> float | None:
        """When the pick in front of ``seat`` runs out of time (None: no pack, or no timer)."""
        seat = self._seat(seat)
        since = self._since[seat]
        if since is None or self._timer is None:
            return None
        return since + self._timer.limit(len(self._contents[self._queues[seat][0]]))

    def next_deadline(self) -> float | None:
        """The earliest deadline at the table, for the caller's scheduler."""
        times = [d for d in (self.deadline(s) for s in range(self._n)) if d is not None]
        return min(times) if times else None

    def due(self, now: float) -> list[int]:
        """The seats whose pick has run out of time at ``now``."""
        now = check_time(now)
        return [s for s in range(self._n) if (d := self.deadline(s)) is not None and now >= d]

    # ----------------------------------------------------------------- acting
    def start(self, now: float) -> None:
        """Open the first round's packs: every seat has its own pack in front of it."""
        now = check_time(now)
        if self.started:
            raise Refused(ALREADY_STARTED)
        self._started_at = now
        self._last = now
        self._open(now)

    def pick(self, seat: int, card: str, now: float, *, expect: tuple[int, int] | None = None) -> Event:
        """A person's pick of ``card`` from the pack in front of ``seat``.  ``expect``, when given,
        is the ``(round, pick_no)`` the person was shown: a pick sent for a pack that has since
        moved on is refused (``stale``) rather than taken from another pack."""
        if isinstance(seat, int) and not isinstance(seat, bool) and seat in self._computers:
            raise Refused(COMPUTER_SEAT)
        return self._take(seat, card, now, auto=False, expect=expect)

    def expire(self, now: float, chooser: Chooser) -> list[Event]:
        """Take, with ``chooser(seat, pack, pool) -> card``, every pick that has run out of time
        at ``now`` (one per seat: the next pack in the queue gets its own full time)."""
        events = []
        for seat in self.due(now):
            events.append(self._chosen(seat, now, chooser))
        return events

    def computer_picks(self, chooser: Chooser, now: float) -> list[Event]:
        """Every pick the computer seats can make at ``now``, with ``chooser``: a computer seat
        picks whenever a pack is in front of it, so this goes on while packs keep reaching them
        (a table of computers drafts to the end in one call)."""
        now = check_time(now)
        events: list[Event] = []
        if not self.started:
            return events
        work = deque(s for s in sorted(self._computers) if self._queues[s])
        while work and not self.done:
            seat = work.popleft()
            if not self._queues[seat]:
                continue
            ev = self._chosen(seat, now, chooser)
            events.append(ev)
            if self._queues[seat]:
                work.append(seat)
            if ev.passed_to is not None and ev.passed_to in self._computers:
                work.append(ev.passed_to)
            if ev.round_over and not ev.done:
                work.extend(s for s in sorted(self._computers))
        return events

    def _chosen(self, seat: int, now: float, chooser: Chooser) -> Event:
        pack = self.pack_of(seat)
        card = chooser(seat, pack, tuple(self._pools[seat]))
        return self._take(seat, card, now, auto=True)

    # ----------------------------------------------------------------- the machinery
    def _seat(self, seat: Any) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self._n:
            raise Refused(UNKNOWN_SEAT)
        return seat

    def _size(self) -> int:
        return len(self._packs[self._round][0])

    def _late(self, seat: int, now: float) -> bool:
        """Whether the pick in front of ``seat`` has run out of time at ``now``."""
        d = self.deadline(seat) if self._queues[seat] else None
        return d is not None and now >= d

    def _open(self, now: float) -> None:
        """Open the packs of round ``self._round``: each seat's own pack in front of it."""
        rnd = self._packs[self._round]
        self._contents = [list(p) for p in rnd]
        self._queues = [deque([s]) for s in range(self._n)]
        self._since = [now] * self._n
        self._left = sum(len(p) for p in rnd)

    def _take(self, seat: Any, card: Any, now: Any, *, auto: bool, expect: Any = None) -> Event:
        now = check_time(now)
        if not self.started:
            raise Refused(NOT_STARTED)
        if self.done:
            raise Refused(DRAFT_OVER)
        seat = self._seat(seat)
        q = self._queues[seat]
        if not q:
            raise Refused(NOT_YOUR_PACK)
        pack = self._contents[q[0]]
        pick_no = self._size() - len(pack) + 1
        if expect is not None and tuple(expect) != (self._round + 1, pick_no):
            raise Refused(STALE)
        if not isinstance(card, str) or card not in pack:
            raise Refused(NOT_IN_PACK)
        now = max(now, self._last)
        self._last = now
        pack.remove(card)                      # the first copy: a pack may hold two of a card
        self._pools[seat].append(card)
        self._left -= 1
        origin = q.popleft()
        self._since[seat] = now if q else None
        entry = LogEntry(self._round + 1, pick_no, seat, card, auto, now)
        self._log.append(entry)
        passed_to = None
        if pack:
            passed_to = (seat + direction(self._round + 1)) % self._n
            nq = self._queues[passed_to]
            nq.append(origin)
            if len(nq) == 1:
                self._since[passed_to] = now
        round_over = self._left == 0
        if round_over:
            self._round += 1
            if self._round < len(self._packs):
                self._open(now)
            else:
                self._contents = []
                self._since = [None] * self._n
        return Event(entry, passed_to, round_over, self.done)

    # ----------------------------------------------------------------- storing
    def to_json(self) -> dict:
        """The draft as a JSON object: what was dealt and every pick, and the state they lead to
        (kept for readers; :meth:`from_json` checks it against the replayed log)."""
        return {
            "format": FORMAT,
            "seats": self._n,
            "computers": sorted(self._computers),
            "timer": None if self._timer is None else self._timer.to_json(),
            "packs": [[list(p) for p in rnd] for rnd in self._packs],
            "started_at": self._started_at,
            "log": [[e.round, e.pick_no, e.seat, e.card, e.auto, e.at] for e in self._log],
            "round": self.round,
            "contents": [list(p) for p in self._contents],
            "queues": [list(q) for q in self._queues],
            "since": list(self._since),
            "pools": [list(p) for p in self._pools],
        }

    @classmethod
    def from_json(cls, data: Any) -> "BoosterDraft":
        """A stored draft read back: the dealt packs and settings checked, the log replayed pick
        by pick (each must be a pick the draft allowed, in order, at non-decreasing instants),
        and the result must be exactly the stored object; ValueError otherwise."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"not a booster draft of format {FORMAT}")
        n = check_int(data.get("seats"), MIN_SEATS, MAX_SEATS, "seats")
        computers = check_list(data.get("computers"), "computers")
        packs = check_list(data.get("packs"), "packs")
        if packs and isinstance(packs[0], list) and len(packs[0]) != n:
            raise ValueError("the packs do not match the seats")
        draft = cls(packs, computers, PickTimer.from_json(data.get("timer")))
        started = data.get("started_at")
        log = check_list(data.get("log"), "log")
        if started is not None:
            draft.start(check_time(started))
        elif log:
            raise ValueError("a draft that has not started has no picks")
        for raw in log:
            row = check_list(raw, "a log entry", 6)
            rnd, pick_no, seat, card, auto, at = row
            check_int(rnd, 1, MAX_ROUNDS, "a pick's round")
            check_int(pick_no, 1, MAX_PACK, "a pick's number")
            check_int(seat, 0, n - 1, "a pick's seat")
            check_card(card)
            check_bool(auto, "a pick's auto")
            at = check_time(at)
            if at < draft._last:
                raise ValueError("the log's instants go backwards")
            if seat in draft._computers and not auto:
                raise ValueError("a computer seat's pick is always automatic")
            if auto and seat not in draft._computers and not draft._late(seat, at):
                raise ValueError(f"the log holds a timed-out pick before its deadline: {row!r}")
            try:
                draft._take(seat, card, at, auto=auto, expect=(rnd, pick_no))
            except Refused as err:
                raise ValueError(f"the log holds a pick the draft refuses ({err.code}): {row!r}") from None
        if draft.to_json() != data:
            raise ValueError("the stored draft does not match its replayed log")
        return draft
