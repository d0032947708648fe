"""The Winston draft for two players as a pure state machine.

The rules followed (the classic two-player format from the card-game world, as draft guides and
draft sites describe it):

* All the cards form one shuffled, face-down **stack**.  Its top three cards start three
  **piles**, one card each (pile 1, 2, 3; this module numbers them 0, 1, 2).
* On a turn the player looks at pile 1.  They either **take** it — every card of the pile goes
  to their pool and the pile is refilled with one card from the top of the stack — or **pass**:
  one card from the stack is added to the pile, and they look at the next pile.  Passing pile 3
  takes the top card of the stack blind instead.  A take (of a pile, or the blind card) ends the
  turn, and the other player's turn begins; the players alternate.
* **When the stack runs out:** a pile taken is no longer refilled, an empty pile is skipped, and
  passing adds nothing.  The blind card needs a card in the stack, so the last pile with cards
  cannot be passed when the stack is empty (the player must take it); and when the stack holds a
  single card as the last pile is passed, that card is the blind one and the pile gets nothing.
  (Every pile has cards while the stack does, so a blind draw always follows pile 3.)
* The draft ends when the stack and every pile are empty.
* **The timer** is the booster draft's (:class:`host.limited.draft.PickTimer`) applied to each
  look: the time for a look is ``max(floor, base + per_card * cards in the pile)``, and its clock
  starts when the player starts looking at that pile.  A look that runs out of time takes the
  pile in front of the player.

The log holds every action as ``(turn, player, action, pile, cards, auto, at)``: ``turn`` counts
the turns from 1, ``action`` is ``take`` (the pile's cards taken), ``pass`` (a pile passed, no
card taken) or ``blind`` (pile 3 passed and the top card of the stack taken, in ``cards``),
``auto`` when the timer took the pile.  A stored draft is read back by replaying its log from
the dealt stack and must come out exactly as stored (ValueError otherwise).

Pure: no I/O, no clock, no randomness (the stack comes shuffled).  Each action is O(1) apart from
copying the pile taken.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, NamedTuple, Sequence

from host.limited.draft import (
    ALREADY_STARTED, DEFAULT_TIMER, DRAFT_OVER, NOT_STARTED, UNKNOWN_SEAT, PickTimer, Refused, check_bool,
    check_card, check_int, check_list, check_time,
)

FORMAT = "draft/winston/1"
PILES = 3
PLAYERS = 2
MIN_STACK, MAX_STACK = 3, 600
TAKE, PASS, BLIND = "take", "pass", "blind"
ACTIONS = (TAKE, PASS, BLIND)

# The Winston draft's own refusal codes (besides draft.py's not_started, draft_over, unknown_seat).
NOT_YOUR_TURN = "not_your_turn"     # the other player is looking at the piles
MUST_TAKE = "must_take"             # the stack is empty and no later pile has cards: take this one
REFUSALS = (NOT_STARTED, ALREADY_STARTED, DRAFT_OVER, UNKNOWN_SEAT, NOT_YOUR_TURN, MUST_TAKE)


class LogEntry(NamedTuple):
    """One action: ``turn`` from 1, ``pile`` 0..2, ``cards`` what the player took."""

    turn: int
    player: int
    action: str
    pile: int
    cards: tuple[str, ...]
    auto: bool
    at: float


@dataclass(frozen=True)
class Event:
    """What an action did: the action, whether it ended the turn, and whether the draft."""

    entry: LogEntry
    turn_over: bool
    done: bool


class WinstonDraft:
    """A Winston draft from ``stack`` (card ids, top first, already shuffled); ``first`` is the
    player (0 or 1) who looks first, ``timer`` the time for each look (None: no timer)."""

    def __init__(self, stack: Sequence[str], first: int = 0, timer: PickTimer | None = DEFAULT_TIMER) -> None:
        if not isinstance(stack, (list, tuple)) or not MIN_STACK <= len(stack) <= MAX_STACK:
            raise ValueError(f"a Winston draft needs a stack of {MIN_STACK} to {MAX_STACK} cards")
        check_int(first, 0, PLAYERS - 1, "the first player")
        if timer is not None and not isinstance(timer, PickTimer):
            raise ValueError("the timer must be a PickTimer or None")
        self._dealt = tuple(check_card(c) for c in stack)
        self._first = first
        self._timer = timer
        self._stack = list(reversed(self._dealt))          # the top at the end: a draw is a pop
        self._piles: list[list[str]] = [[self._stack.pop()] for _ in range(PILES)]
        self._pools: list[list[str]] = [[] for _ in range(PLAYERS)]
        self._log: list[LogEntry] = []
        self._started_at: float | None = None
        self._last = -math.inf
        self._turn = 1
        self._player = first
        self._at: int | None = None        # the pile looked at, once started (None once done)
        self._since: float | None = None

    # ----------------------------------------------------------------- reading
    @property
    def started(self) -> bool:
        return self._started_at is not None

    @property
    def done(self) -> bool:
        return self.started and self._at is None

    @property
    def turn(self) -> int:
        """The turn in play, from 1 (a turn ends with a take)."""
        return self._turn

    @property
    def to_act(self) -> int | None:
        """The player looking at the piles (None before the start and once done)."""
        return self._player if self.started and not self.done else None

    @property
    def looking_at(self) -> int | None:
        """The pile (0..2) the player to act is looking at."""
        return self._at

    @property
    def log(self) -> list[LogEntry]:
        return list(self._log)

    @property
    def timer(self) -> PickTimer | None:
        return self._timer

    def dealt(self) -> tuple[str, ...]:
        """The stack as dealt, top first."""
        return self._dealt

    def stack_size(self) -> int:
        return len(self._stack)

    def pile_sizes(self) -> tuple[int, ...]:
        """How many cards each pile holds: what both players see."""
        return tuple(len(p) for p in self._piles)

    def pile_in_front(self, player: int) -> tuple[str, ...] | None:
        """The cards of the pile ``player`` is looking at (None when it is not their look): only
        that player may be shown them."""
        player = self._player_no(player)
        if self.to_act != player:
            return None
        return tuple(self._piles[self._at])

    def can_pass(self) -> bool:
        """Whether the player to act may pass the pile in front of them."""
        if self.to_act is None:
            return False
        return bool(self._stack) or self._later(self._at) is not None

    def pool_of(self, player: int) -> list[str]:
        return list(self._pools[self._player_no(player)])

    def pools(self) -> list[list[str]]:
        return [list(p) for p in self._pools]

    def deadline(self) -> float | None:
        """When the current look runs out of time (None: no timer, or nobody to act)."""
        if self._since is None or self._timer is None or self._at is None:
            return None
        return self._since + self._timer.limit(len(self._piles[self._at]))

    def due(self, now: float) -> list[int]:
        """The player whose look has run out of time at ``now`` (a list of at most one)."""
        now = check_time(now)
        d = self.deadline()
        return [self._player] if d is not None and now >= d else []

    # ----------------------------------------------------------------- acting
    def start(self, now: float) -> None:
        now = check_time(now)
        if self.started:
            raise Refused(ALREADY_STARTED)
        self._started_at = now
        self._last = now
        self._at = self._first_pile()
        self._since = now

    def take(self, player: int, now: float) -> Event:
        """``player`` takes the pile they are looking at; it is refilled from the stack."""
        return self._act(player, TAKE, now, auto=False)

    def pass_pile(self, player: int, now: float) -> Event:
        """``player`` passes the pile they are looking at: a card from the stack goes onto it and
        they look at the next pile, or, passing the last pile, take the top card of the stack."""
        return self._act(player, PASS, now, auto=False)

    def expire(self, now: float) -> list[Event]:
        """A look that has run out of time at ``now`` takes the pile in front of the player."""
        return [self._act(p, TAKE, now, auto=True) for p in self.due(now)]

    # ----------------------------------------------------------------- the machinery
    def _player_no(self, player: Any) -> int:
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < PLAYERS:
            raise Refused(UNKNOWN_SEAT)
        return player

    def _first_pile(self) -> int | None:
        return next((i for i in range(PILES) if self._piles[i]), None)

    def _later(self, pile: int) -> int | None:
        return next((i for i in range(pile + 1, PILES) if self._piles[i]), None)

    def _act(self, player: Any, action: str, now: Any, *, auto: bool) -> Event:
        now = check_time(now)
        if not self.started:
            raise Refused(NOT_STARTED)
        if self.done:
            raise Refused(DRAFT_OVER)
        player = self._player_no(player)
        if player != self._player:
            raise Refused(NOT_YOUR_TURN)
        i = self._at
        if action == PASS and not self.can_pass():
            raise Refused(MUST_TAKE)
        now = max(now, self._last)
        self._last = now
        if action == TAKE:
            cards = tuple(self._piles[i])
            self._piles[i] = [self._stack.pop()] if self._stack else []
            return self._end_turn(LogEntry(self._turn, player, TAKE, i, cards, auto, now), cards, now)
        later = self._later(i)
        if later is None:                   # the last pile: the top card of the stack, blind
            if len(self._stack) >= 2:
                self._piles[i].append(self._stack.pop())
            card = self._stack.pop()
            return self._end_turn(LogEntry(self._turn, player, BLIND, i, (card,), auto, now), (card,), now)
        if self._stack:
            self._piles[i].append(self._stack.pop())
        self._at = later
        self._since = now
        entry = LogEntry(self._turn, player, PASS, i, (), auto, now)
        self._log.append(entry)
        return Event(entry, False, False)

    def _end_turn(self, entry: LogEntry, cards: tuple[str, ...], now: float) -> Event:
        self._pools[entry.player].extend(cards)
        self._log.append(entry)
        self._at = self._first_pile()
        if self._at is None:                # every pile empty, so the stack is too
            self._since = None
            return Event(entry, True, True)
        self._turn += 1
        self._player = 1 - self._player
        self._since = now
        return Event(entry, True, False)

    # ----------------------------------------------------------------- storing
    def to_json(self) -> dict:
        """The draft as a JSON object: the dealt stack, every action, and the state they lead to
        (kept for readers; :meth:`from_json` checks it against the replayed log)."""
        return {
            "format": FORMAT,
            "stack_dealt": list(self._dealt),
            "first": self._first,
            "timer": None if self._timer is None else self._timer.to_json(),
            "started_at": self._started_at,
            "log": [[e.turn, e.player, e.action, e.pile, list(e.cards), e.auto, e.at] for e in self._log],
            "turn": self._turn,
            "to_act": self.to_act,
            "looking_at": self._at,
            "since": self._since,
            "stack": list(reversed(self._stack)),
            "piles": [list(p) for p in self._piles],
            "pools": [list(p) for p in self._pools],
        }

    @classmethod
    def from_json(cls, data: Any) -> "WinstonDraft":
        """A stored Winston draft read back: the dealt stack and settings checked, the log
        replayed action by action (each one the draft allowed, by the player to act, at the pile
        looked at, at non-decreasing instants), and the result must be exactly the stored
        object; ValueError otherwise."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"not a Winston draft of format {FORMAT}")
        stack = check_list(data.get("stack_dealt"), "the dealt stack")
        draft = cls(stack, data.get("first"), PickTimer.from_json(data.get("timer")))
        started = data.get("started_at")
        log = check_list(data.get("log"), "log")
        if started is not None:
            draft.start(check_time(started))
        elif log:
            raise ValueError("a Winston draft that has not started has no actions")
        for raw in log:
            row = check_list(raw, "a log entry", 7)
            turn, player, action, pile, cards, auto, at = row
            check_int(turn, 1, MAX_STACK, "a turn")
            check_int(player, 0, PLAYERS - 1, "a player")
            check_int(pile, 0, PILES - 1, "a pile")
            if action not in ACTIONS:
                raise ValueError(f"unknown action {action!r}")
            for c in check_list(cards, "the cards taken"):
                check_card(c)
            check_bool(auto, "an action's auto")
            if auto and action != TAKE:
                raise ValueError("only a take is ever automatic (a look that ran out of time)")
            at = check_time(at)
            if at < draft._last:
                raise ValueError("the log's instants go backwards")
            if draft.done or (turn, player, pile) != (draft._turn, draft._player, draft._at):
                raise ValueError(f"the log holds an action out of turn: {row!r}")
            if auto and (draft.deadline() is None or at < draft.deadline()):
                raise ValueError(f"the log holds a timed-out take before its deadline: {row!r}")
            try:
                ev = draft._act(player, TAKE if action == TAKE else PASS, at, auto=auto)
            except Refused as err:
                raise ValueError(f"the log holds an action the draft refuses ({err.code}): {row!r}") from None
            if ev.entry.action != action or list(ev.entry.cards) != cards:
                raise ValueError(f"the log's action does not match its replay: {row!r}")
        if draft.to_json() != data:
            raise ValueError("the stored Winston draft does not match its replayed log")
        return draft
