"""Limited play at the table, knowing no Discord: a server's sealed pools and drafts of one card-set
version — created in a channel, joined, started (dealt from a secret recorded seed), picked, timed
out, and handed to deck building (host/limited/building.py).

:class:`Drafts` answers with :class:`host.types.Result` like the rest of the host: ``ok`` False
changes nothing and says why in the reader's words.  Every change is one version-checked write of
the draft's row (data/sql_limited.py), under a per-draft lock in this process; two processes that
race are told apart by the row's version, and the loser reads again and retries.

What a draft's ``state`` holds (JSON, checked when read — a draft that does not read is reported,
never served)::

    {"v": 1, "packs": 3, "size": 15, "timer": {...} | null,
     "machine": BoosterDraft.to_json() | WinstonDraft.to_json() | null,   # sealed: null
     "pools": [[ids] per seat] | null,                                    # sealed: dealt at the start
     "refs": {"table": "channel:message", "dm:<user>": "channel:message"},  # the front end's messages
     "matches": [match ids played with the draft's decks]}

**Secrecy.**  The seed is 32 random bytes (never small: a player who brute-forces seeds must not
rebuild the packs) and is shown only once the draft is ``done``; a pack is shown only to the
seat in front of it, a pool only to its owner until the draft's decks are locked and the event
shows them.  Picks are public only as "who is still picking".

**Computer drafters.**  An empty seat of a booster draft is a computer (:class:`ai.drafter.Drafter`),
which also takes a person's pick when its timer runs out.  In a Winston draft the computer takes
the pile in front of it when the pile's best card is worth it, or when it may not pass.
"""
from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable

from data import i18n
from data.sql_limited import DraftRow, LimitedRefused, PickRecord
from data.store import StoreError, TransientStoreError, VersionConflict
from host.limited import deal as D
from host.limited.building import Building
from host.limited.cards import DraftCards
from host.limited.feedback import Feedback
from host.limited.draft import DEFAULT_TIMER, BoosterDraft, PickTimer, Refused
from host.limited.rng import new_seed
from host.limited.winston import WinstonDraft
from host.types import Msg, Result, msg

log = logging.getLogger("host.limited")

FORMATS = ("sealed", "booster", "winston")
SOURCES = ("cube", "boosters")
STATE_V = 1
MIN_SEATS, MAX_SEATS = 2, 8
PACKS = (1, 5)
PACK_SIZE = (5, 20)
WINSTON_STACK = (15, 150)
DEFAULT_PACKS, DEFAULT_SIZE = 3, 15
DEFAULT_STACK = 90
TIMERS = (0, 5, 10, 20, 30)            # seconds a card (0: no timer) above the 10 s every pick has
RETRIES = 4
MACHINES_KEPT = 64                     # draft versions whose machine is kept to read
WINSTON_TAKE = 0.55                    # a computer takes a Winston pile whose best card is worth this


def _timer(per_card: int) -> PickTimer | None:
    """The pick timer of ``per_card`` seconds a card (0: none): 10 s plus that a card, never
    under 10 s (the default is 5 s a card)."""
    if not per_card:
        return None
    return PickTimer(base=DEFAULT_TIMER.base, per_card=float(per_card), floor=DEFAULT_TIMER.floor)


@dataclass
class Turn:
    """What a change did, for the front end: the draft as stored now, the people whose pack
    (or Winston pile) in front of them changed and should be shown it, whether the picking
    ended, and the lines to say in public."""

    draft: DraftRow
    show: list[int] = field(default_factory=list)
    finished: bool = False
    said: list[Msg] = field(default_factory=list)


class Drafts(Building, Feedback):
    """The service (deck building and the draft's matches: host/limited/building.py; the rows a
    match leaves, the survey and the report: host/limited/feedback.py).  ``store``: the store (its limited-play methods); ``cards``: an async
    callable ``(guild_id, game, set_name, version) -> (DraftCards | None, Result | None)``
    (host/limited/building.py's :func:`load_cards` bound to the card-set service); ``now``: the clock."""

    def __init__(self, store: Any, cards: Callable[..., Any], *, host: Any = None,
                 now: Callable[[], float] = time.time) -> None:
        self.store = store
        self.cards = cards
        self.host = host
        self.now = now
        self._locks: "weakref.WeakValueDictionary[int, asyncio.Lock]" = weakref.WeakValueDictionary()
        self._machines: "OrderedDict[tuple[int, int], Any]" = OrderedDict()   # (draft, version) -> machine, read only

    def _lock(self, draft_id: int) -> asyncio.Lock:
        lock = self._locks.get(draft_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[draft_id] = lock
        return lock

    # ------------------------------------------------------------------ reading
    async def get(self, draft_id: Any, guild_id: int | None = None) -> tuple[DraftRow | None, Result | None]:
        """The draft, if it is this server's (a draft of another server is "not here", as a
        match of another server is)."""
        try:
            did = int(draft_id)
        except (TypeError, ValueError):
            return None, Result.fail("draft.err.no_draft", draft=str(draft_id)[:20])
        row = await self.store.get_draft(did)
        if row is None or (guild_id is not None and row.guild_id != guild_id):
            return None, Result.fail("draft.err.no_draft", draft=did)
        if not isinstance(row.state, dict) or row.state.get("v") != STATE_V:
            return None, Result.fail("draft.err.unreadable", draft=did)
        return row, None

    async def cards_of(self, row: DraftRow) -> tuple[DraftCards | None, Result | None]:
        return await self.cards(row.guild_id, row.game, row.set_name, row.set_version)

    @staticmethod
    def seat_of(row: DraftRow, user_id: int) -> int | None:
        for s in row.seats:
            if s.user_id is not None and int(s.user_id) == int(user_id):
                return s.seat
        return None

    @staticmethod
    def machine(row: DraftRow) -> BoosterDraft | WinstonDraft | None:
        """The draft's state machine, read back from its row (its log replayed and checked): a
        fresh one, for a change to make."""
        data = row.state.get("machine")
        if data is None:
            return None
        return WinstonDraft.from_json(data) if row.format == "winston" else BoosterDraft.from_json(data)

    def read_machine(self, row: DraftRow) -> BoosterDraft | WinstonDraft | None:
        """The machine of this version of the draft, to read only (what is in front of whom, the
        pools, the deadlines): replayed once per version, not once per question — a pick's
        answer and the table each ask several."""
        key = (row.id, row.version)
        if key not in self._machines:
            self._machines[key] = self.machine(row)
            while len(self._machines) > MACHINES_KEPT:
                self._machines.popitem(last=False)
        return self._machines[key]

    def pools(self, row: DraftRow) -> list[list[str]]:
        """Every seat's pool as it stands (the sealed pools, or what each seat has drafted)."""
        if row.format == "sealed":
            return [list(p) for p in row.state.get("pools") or []]
        m = self.read_machine(row)
        return m.pools() if m is not None else [[] for _ in row.seats]

    def waiting_on(self, row: DraftRow) -> list[int]:
        """The seats a booster or Winston draft waits for now (people and computers)."""
        m = self.read_machine(row)
        if m is None or row.status != "drafting":
            return []
        if isinstance(m, WinstonDraft):
            return [m.to_act] if m.to_act is not None else []
        return list(m.waiting())

    def timed_out(self, row: DraftRow, most: int = 3) -> list[dict]:
        """The newest picks (or Winston takes) the timer made for a person, newest last — said in
        public (who, and which pick: never the card, which is theirs alone): ``[{"seat", "round",
        "pick"}]`` (a Winston take: ``round`` None, ``pick`` its turn)."""
        m = self.read_machine(row)
        if m is None:
            return []
        people = {s.seat for s in row.seats if s.user_id is not None}
        if isinstance(m, WinstonDraft):
            late = [{"seat": e.player, "round": None, "pick": e.turn} for e in m.log if e.auto and e.player in people]
        else:
            late = [{"seat": e.seat, "round": e.round, "pick": e.pick_no} for e in m.log if e.auto and e.seat in people]
        return late[-most:]

    def deadline(self, row: DraftRow, seat: int) -> float | None:
        m = self.read_machine(row)
        if m is None or row.status != "drafting":
            return None
        if isinstance(m, WinstonDraft):
            return m.deadline() if m.to_act == seat else None
        return m.deadline(seat)

    def in_front(self, row: DraftRow, seat: int) -> dict | None:
        """What the seat is asked now: ``{"kind": "pack", "cards", "round", "pick", "queued",
        "deadline"}`` in a booster draft, ``{"kind": "pile", "cards", "pile", "piles", "stack",
        "can_pass", "deadline"}`` in a Winston draft; None when nothing is in front of it."""
        m = self.read_machine(row)
        if m is None or row.status != "drafting":
            return None
        if isinstance(m, WinstonDraft):
            cards = m.pile_in_front(seat)
            if cards is None:
                return None
            return {"kind": "pile", "cards": list(cards), "pile": (m.looking_at or 0) + 1,
                    "piles": list(m.pile_sizes()), "stack": m.stack_size(), "can_pass": m.can_pass(),
                    "deadline": m.deadline(), "turn": m.turn}
        pack = m.pack_of(seat)
        if pack is None:
            return None
        return {"kind": "pack", "cards": list(pack), "round": m.round, "rounds": m.rounds,
                "pick": m.pick_number(seat), "queued": m.queued(seat), "deadline": m.deadline(seat)}

    # ------------------------------------------------------------------ writing
    async def _write(self, row: DraftRow, state: dict, status: str, machine: Any = None) -> DraftRow:
        """Write the draft's new ``state`` and ``status`` (version-checked).  ``machine``: the
        state machine a pick changed (its JSON and next deadline go with it); None leaves the
        stored machine and its deadline as they are (a ref, a deck-builder choice)."""
        if machine is not None:
            state = {**state, "machine": machine.to_json()}
            due = machine.deadline() if isinstance(machine, WinstonDraft) else machine.next_deadline()
        else:
            due = row.due_at
        due = due if status == "drafting" else None
        return await self.store.update_draft(row.id, row.version, state=state, status=status, due_at=due)

    async def _change(self, draft_id: int, guild_id: int | None, change: Callable[[DraftRow], Any]) -> Result:
        """Read the draft, apply ``change`` (an async function of the row returning a Result),
        retried when another process wrote the draft meanwhile."""
        async with self._lock(int(draft_id)):
            for _ in range(RETRIES):
                row, err = await self.get(draft_id, guild_id)
                if err:
                    return err
                try:
                    return await change(row)
                except VersionConflict:
                    continue
                except TransientStoreError:
                    return Result.fail("draft.err.try_again")
                except LimitedRefused as exc:
                    return Result.fail(f"draft.err.{getattr(exc, 'reason', 'refused')}", draft=row.id)
            return Result.fail("draft.err.try_again")

    # ------------------------------------------------------------------ create, join, leave
    async def create(self, *, guild_id: int | None, channel_id: int | None, user_id: int, name: str, game: str,
                     set_name: str | None, fmt: str, seats: int = 8, source: str = "cube",
                     packs: int | None = None, size: int | None = None, timer: int = 5,
                     league_id: int | None = None, version: int | None = None,
                     seated: list[tuple[int, str]] | None = None, extra: dict | None = None) -> Result:
        """A new draft (``fmt``: sealed, booster or winston) of ``set_name`` (None: the server's
        default set for the game, ``shipped``: the shipped cards; ``version``: that version, else
        its newest) with ``seats`` seats (Winston: two), the creator in seat 1 and the others open —
        a seat nobody takes is a computer's in a booster or Winston draft.  An event's pod
        (``league_id``) is ``seated``: exactly these people, its organiser its creator; ``extra``
        goes into its state (the pod's number).  The set, its version and the numbers are checked
        now, so the start cannot fail for them."""
        if guild_id is None:
            return Result.fail("draft.err.dm")
        if fmt not in FORMATS:
            return Result.fail("draft.err.format", formats=", ".join(FORMATS))
        if source not in SOURCES:
            return Result.fail("draft.err.source", sources=", ".join(SOURCES))
        seats = 2 if fmt == "winston" else len(seated) if seated else int(seats)
        if not MIN_SEATS <= seats <= MAX_SEATS:
            return Result.fail("draft.err.seats", low=MIN_SEATS, high=MAX_SEATS)
        if int(timer) not in TIMERS:
            return Result.fail("draft.err.timer", allowed=", ".join(str(t) for t in TIMERS))
        cards, err = await self.cards(guild_id, game, set_name, version)
        if err:
            return err
        plan, err = self.plan(cards, fmt, source, seats, packs, size)
        if err:
            return err
        state = {"v": STATE_V, **plan, "timer": int(timer), "machine": None, "pools": None, "refs": {},
                 "matches": [], **(extra or {})}
        people = list(seated) if seated else [(user_id, name)] + [(None, "")] * (seats - 1)
        try:
            row = await self.store.create_draft(
                guild_id=guild_id, game=game, format=fmt, source=source, seed=new_seed(), created_by=user_id,
                seats=people, state=state, set_name=cards.set_name,
                set_version=cards.set_version, channel_id=channel_id, league_id=league_id, created_at=self.now())
        except TransientStoreError:
            return Result.fail("draft.err.try_again")
        return Result(ok=True, data={"draft": row, "cards": cards},
                      info=[msg("draft.created", draft=row.id)])

    @staticmethod
    def plan(cards: DraftCards, fmt: str, source: str, seats: int, packs: int | None, size: int | None
             ) -> tuple[dict, Result | None]:
        """The numbers of a draft, checked against what the set can deal: ``{"packs", "size"}``
        (a Winston draft: ``size`` is its stack)."""
        decl = cards.limited
        if source == "boosters":
            if decl is None or decl.boosters is None:
                return {}, Result.fail("draft.err.no_boosters")
            b = decl.boosters
            return {"packs": b.packs, "size": b.size}, None
        cube = cards.cube
        if fmt == "winston":
            n = size or min(DEFAULT_STACK, len(cube))
            if not WINSTON_STACK[0] <= n <= WINSTON_STACK[1]:
                return {}, Result.fail("draft.err.stack", low=WINSTON_STACK[0], high=WINSTON_STACK[1])
            if len(cube) < n:
                return {}, Result.fail("draft.err.cube_small", have=len(cube), need=n)
            return {"packs": 1, "size": n}, None
        packs = packs or DEFAULT_PACKS
        size = size or DEFAULT_SIZE
        if not PACKS[0] <= packs <= PACKS[1] or not PACK_SIZE[0] <= size <= PACK_SIZE[1]:
            return {}, Result.fail("draft.err.packs", low=PACKS[0], high=PACKS[1], small=PACK_SIZE[0],
                                   large=PACK_SIZE[1])
        if len(cube) < seats * packs * size:
            return {}, Result.fail("draft.err.cube_small", have=len(cube), need=seats * packs * size)
        return {"packs": packs, "size": size}, None

    async def join(self, draft_id: Any, guild_id: int | None, user_id: int, name: str) -> Result:
        async def change(row: DraftRow) -> Result:
            if row.status != "open":
                return Result.fail("draft.err.started", draft=row.id)
            if self.seat_of(row, user_id) is not None:
                return Result.fail("draft.err.already_in", draft=row.id)
            free = [s.seat for s in row.seats if s.user_id is None]
            if not free:
                return Result.fail("draft.err.full", draft=row.id)
            new = await self.store.set_seat_user(row.id, free[0], user_id, name)
            return Result(ok=True, data={"draft": new}, info=[msg("draft.joined", draft=row.id, seat=free[0] + 1)])
        return await self._change(draft_id, guild_id, change)

    async def leave(self, draft_id: Any, guild_id: int | None, user_id: int) -> Result:
        async def change(row: DraftRow) -> Result:
            if row.status != "open":
                return Result.fail("draft.err.started", draft=row.id)
            seat = self.seat_of(row, user_id)
            if seat is None:
                return Result.fail("draft.err.not_in", draft=row.id)
            if seat == 0:
                return Result.fail("draft.err.creator_leaves", draft=row.id)
            new = await self.store.set_seat_user(row.id, seat, None, "")
            return Result(ok=True, data={"draft": new}, info=[msg("draft.left", draft=row.id)])
        return await self._change(draft_id, guild_id, change)

    async def cancel(self, draft_id: Any, guild_id: int | None, user_id: int, *, moderator: bool = False) -> Result:
        async def change(row: DraftRow) -> Result:
            if row.created_by != user_id and not moderator:
                return Result.fail("draft.err.not_creator", draft=row.id)
            if row.league_id is not None:      # an event's pool: the event needs it
                return Result.fail("draft.err.event", draft=row.id, league=row.league_id)
            if row.status in ("done", "cancelled"):
                return Result.fail("draft.err.over", draft=row.id)
            new = await self._write(row, dict(row.state), "cancelled")
            return Result(ok=True, data={"draft": new}, info=[msg("draft.cancelled", draft=row.id)])
        return await self._change(draft_id, guild_id, change)

    # ------------------------------------------------------------------ start
    async def start(self, draft_id: Any, guild_id: int | None, user_id: int, *, moderator: bool = False,
                    league: bool = False) -> Result:
        """Deal and begin: sealed pools are opened at once (the draft goes to deck building), a
        booster draft opens its first packs, a Winston draft its piles.  Empty seats: computers.
        Only the creator (or a moderator, or the event running it) may start."""
        async def change(row: DraftRow) -> Result:
            if row.created_by != user_id and not (moderator or league):
                return Result.fail("draft.err.not_creator", draft=row.id)
            if row.status != "open":
                return Result.fail("draft.err.started", draft=row.id)
            people = [s.seat for s in row.seats if s.user_id is not None]
            computers = [s.seat for s in row.seats if s.user_id is None]
            if row.format == "sealed":
                if len(people) < 1:
                    return Result.fail("draft.err.nobody", draft=row.id)
            elif not people:
                return Result.fail("draft.err.nobody", draft=row.id)
            cards, err = await self.cards_of(row)
            if err:
                return err
            now = self.now()
            state = dict(row.state)
            try:
                packs = self._deal(row, cards)
            except (D.DealError, ValueError) as exc:
                log.warning("draft %s: dealing failed (%s)", row.id, exc)
                return Result.fail("draft.err.cannot_deal", draft=row.id)
            if row.format == "sealed":
                state["pools"] = D.sealed_pools(packs)
                new = await self._write(row, state, "building")
                return Result(ok=True, data={"turn": Turn(new, finished=True,
                                                          said=[msg("draft.sealed_opened", draft=row.id)])})
            timer = _timer(int(state.get("timer") or 0))
            if row.format == "winston":
                machine: Any = WinstonDraft(packs, first=0, timer=timer)
                machine.start(now)
            else:
                machine = BoosterDraft(packs, computers=computers, timer=timer)
                machine.start(now)
            turn = self._computers(row, machine, cards, now)
            status = "building" if machine.done else "drafting"
            new = await self._write(row, state, status, machine)
            turn.draft = new
            turn.finished = machine.done
            turn.show = self._people(new, range(len(new.seats)))
            turn.said.insert(0, msg("draft.started", draft=row.id))
            return Result(ok=True, data={"turn": turn})
        return await self._change(draft_id, guild_id, change)

    async def dealt_again(self, row: DraftRow) -> bool | None:
        """Deal the draft's cards again from its recorded seed and compare them with what it
        holds (the sealed pools, the packs or the Winston stack as first dealt): True when they
        are the same, False when not (a changed row), None when the set cannot be read."""
        cards, err = await self.cards_of(row)
        if err:
            return None
        try:
            packs = self._deal(row, cards)
        except (D.DealError, ValueError):
            return False
        if row.format == "sealed":
            return D.sealed_pools(packs) == [list(p) for p in row.state.get("pools") or []]
        m = self.read_machine(row)
        if m is None:
            return False
        if isinstance(m, WinstonDraft):
            return tuple(packs) == tuple(m.dealt())
        return [[tuple(p) for p in rnd] for rnd in packs] == [[tuple(p) for p in rnd] for rnd in m.dealt()]

    def _deal(self, row: DraftRow, cards: DraftCards) -> Any:
        """The packs (``packs[round][seat]``), or the Winston stack, from the draft's seed."""
        n, plan = len(row.seats), row.state
        rng = D.deal_rng(row.seed, row.format, row.source)
        if row.source == "boosters":
            packs = D.booster_packs(cards.limited, 2 if row.format == "winston" else n, rng, cards.kinds)
            if row.format == "winston":
                stack = [c for rnd in packs for p in rnd for c in p]
                return rng.shuffle(stack)
            return packs
        if row.format == "winston":
            return D.winston_stack(cards.cube, int(plan["size"]), rng)
        return D.cube_packs(cards.cube, n, int(plan["packs"]), int(plan["size"]), rng)

    # ------------------------------------------------------------------ picks
    async def pick(self, draft_id: Any, user_id: int, card: str, *, expect: tuple[int, int] | None = None,
                   guild_id: int | None = None) -> Result:
        """A person's pick from the pack in front of them (``expect``: the (round, pick) their
        menu showed: a tap on an older menu is refused rather than taking from another pack)."""
        def act(machine: BoosterDraft, seat: int, now: float, cards: DraftCards) -> list[Msg]:
            event = machine.pick(seat, str(card), now, expect=expect)
            return [msg("draft.picked", card=_names(cards, [event.entry.card]))]
        return await self._person_acts(draft_id, guild_id, user_id, "booster", act)

    async def winston(self, draft_id: Any, user_id: int, action: str, *, turn_no: int | None = None,
                      guild_id: int | None = None) -> Result:
        """A Winston draft's take or pass of the pile in front of the player (``turn_no``: the
        turn their menu showed)."""
        def act(machine: WinstonDraft, seat: int, now: float, cards: DraftCards) -> list[Msg]:
            if turn_no is not None and machine.turn != turn_no:
                raise Refused("stale")
            event = machine.take(seat, now) if action == "take" else machine.pass_pile(seat, now)
            return [msg("draft.winston.took" if event.entry.action != "pass" else "draft.winston.passed",
                        n=len(event.entry.cards), pile=event.entry.pile + 1)]
        return await self._person_acts(draft_id, guild_id, user_id, "winston", act)

    async def _person_acts(self, draft_id: Any, guild_id: int | None, user_id: int, fmt: str,
                           act: Callable[[Any, int, float, DraftCards], list[Msg]]) -> Result:
        """A person's act in a draft of format ``fmt`` that is picking: ``act(machine, seat, now,
        cards)`` changes the machine and returns what it did in words (:class:`Refused`: refused,
        nothing changed); then the computer seats act, and the draft is written."""
        async def change(row: DraftRow) -> Result:
            if row.status != "drafting" or row.format != fmt:
                return Result.fail("draft.err.not_picking", draft=row.id)
            seat = self.seat_of(row, user_id)
            if seat is None:
                return Result.fail("draft.err.not_in", draft=row.id)
            cards, err = await self.cards_of(row)
            if err:
                return err
            machine = self.machine(row)
            now = self.now()
            before = self._fronts(machine)
            try:
                said = act(machine, seat, now, cards)
            except Refused as exc:
                return Result.fail(f"draft.err.pick.{exc.code}", draft=row.id)
            turn = self._computers(row, machine, cards, now)
            return await self._after(row, machine, turn, before, said)
        return await self._change(draft_id, guild_id, change)

    async def expire_due(self, limit: int = 50) -> list[Result]:
        """The clock: every draft whose pick (or look) ran out of time gets it taken by the
        computer drafter; each draft on its own (one that fails is logged, the others go on)."""
        now = self.now()
        try:
            due = await self.store.drafts_due(now, limit)
        except StoreError:
            log.warning("drafts: the due drafts could not be read", exc_info=True)
            return []
        out = []
        for did in due:
            try:
                res = await self._expire(did, now)
            except Exception:
                log.exception("draft %s: its timed-out picks could not be taken", did)
                continue
            if res is not None:
                out.append(res)
        return out

    async def _expire(self, draft_id: int, now: float) -> Result | None:
        async def change(row: DraftRow) -> Result:
            if row.status != "drafting":
                return Result(ok=False)
            cards, err = await self.cards_of(row)
            if err:
                return err
            machine = self.machine(row)
            before = self._fronts(machine)
            if isinstance(machine, WinstonDraft):
                events = machine.expire(now)
            else:
                events = machine.expire(now, self._chooser(cards))
            if not events:
                return Result(ok=False)
            late = sorted({e.entry.seat if hasattr(e.entry, "seat") else e.entry.player for e in events})
            names = {loc: i18n.t("core.list_sep", loc).join(self._name(row, s) for s in late) for loc in i18n.LOCALES}
            turn = self._computers(row, machine, cards, now)
            return await self._after(row, machine, turn, before, [msg("draft.timed_out", names=names)])
        res = await self._change(draft_id, None, change)
        return res if res.ok else None

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def _chooser(cards: DraftCards) -> Callable[[int, tuple, tuple], str]:
        drafter = cards.drafter
        return lambda seat, pack, pool: drafter.pick(pack, pool)

    def _computers(self, row: DraftRow, machine: Any, cards: DraftCards, now: float) -> Turn:
        """Let the computer seats act (a booster draft's computer picks; a Winston draft's
        computer turns) until a person must."""
        computers = {s.seat for s in row.seats if s.user_id is None}
        if isinstance(machine, WinstonDraft):
            drafter = cards.drafter
            while not machine.done and machine.to_act in computers:
                seat = machine.to_act
                pile = machine.pile_in_front(seat) or ()
                best = max((drafter.adjusted(c, machine.pool_of(seat)) for c in pile), default=0.0)
                if not machine.can_pass() or best + 0.02 * (len(pile) - 1) >= WINSTON_TAKE:
                    machine.take(seat, now)
                else:
                    machine.pass_pile(seat, now)
        else:
            machine.computer_picks(self._chooser(cards), now)
        return Turn(row)

    @staticmethod
    def _fronts(machine: Any) -> dict[int, Any]:
        """What is in front of each seat (to tell who has something new after a change)."""
        if isinstance(machine, WinstonDraft):
            who = machine.to_act
            return {who: (machine.turn, machine.looking_at)} if who is not None else {}
        return {s: (machine.pack_of(s), machine.round, machine.pick_number(s)) for s in machine.waiting()}

    def _people(self, row: DraftRow, seats: Any) -> list[int]:
        users = {s.seat: s.user_id for s in row.seats}
        return [int(users[s]) for s in seats if users.get(s) is not None]

    @staticmethod
    def _name(row: DraftRow, seat: int) -> str:
        for s in row.seats:
            if s.seat == seat:
                return s.name or f"#{seat + 1}"
        return f"#{seat + 1}"

    async def _after(self, row: DraftRow, machine: Any, turn: Turn, before: dict, said: list[Msg]) -> Result:
        status = "building" if machine.done else "drafting"
        new = await self._write(row, dict(row.state), status, machine)
        after = self._fronts(machine)
        changed = [s for s, front in after.items() if before.get(s) != front]
        turn.draft = new
        turn.show = self._people(new, changed)
        turn.said = said
        if machine.done:
            turn.finished = True
            turn.said.append(msg("draft.finished", draft=row.id))
        return Result(ok=True, data={"turn": turn})

    async def _keep_picks(self, row: DraftRow, machine: Any) -> None:
        """The picks of a draft that is done, flat, for the per-card figures (a Winston take of
        a pile counts each card as picked at its place in the pile).  Kept only once the draft is
        done (its decks built or its creator closed it): until then a pick says what a player holds."""
        people = {s.seat for s in row.seats if s.user_id is not None}
        picks: list[PickRecord] = []
        if isinstance(machine, WinstonDraft):
            seq = 0
            for e in machine.log:
                if e.action == "pass":
                    continue
                for i, card in enumerate(e.cards, 1):
                    seq += 1
                    picks.append(PickRecord(row.id, seq, 1, i, e.player, card, tuple(e.cards),
                                            e.player in people and not e.auto, e.at))
        else:
            packs = machine.dealt()
            contents: dict[tuple[int, int], list[str]] = {}
            for seq, e in enumerate(machine.log, 1):
                # the pack's contents when picked: replayed per (round, opener) from the deal
                opener = _opener(e, len(row.seats))
                key = (e.round, opener)
                pack = contents.setdefault(key, list(packs[e.round - 1][opener]))
                offered = tuple(pack)
                if e.card in pack:
                    pack.remove(e.card)
                picks.append(PickRecord(row.id, seq, e.round, e.pick_no, e.seat, e.card, offered,
                                        e.seat in people and not e.auto, e.at))
        try:
            await self.store.add_picks(row.id, picks)
        except (StoreError, ValueError):
            log.warning("draft %s: its picks were not kept for the figures", row.id, exc_info=True)

    async def set_ref(self, draft_id: int, key: str, value: str | None) -> None:
        """Remember a front-end message of the draft (``table``, ``dm:<user>``), a small write of
        its own (a conflict with a pick is retried)."""
        async def change(row: DraftRow) -> Result:
            refs = dict(row.state.get("refs") or {})
            if refs.get(key) == value:
                return Result(ok=True)
            if value is None:
                refs.pop(key, None)
            else:
                refs[key] = value
            await self._write(row, {**row.state, "refs": refs}, row.status)
            return Result(ok=True)
        await self._change(draft_id, None, change)

    async def live(self, guild_id: int, user_id: int | None = None) -> list[DraftRow]:
        return await self.store.drafts_of(guild_id, user_id=user_id)


def _names(cards: DraftCards, ids: list[str]) -> dict[str, str]:
    """Cards by their names, in each language (a message's param read in the reader's)."""
    return {loc: i18n.t("core.list_sep", loc).join(cards.name(c, loc) for c in ids) for loc in i18n.LOCALES}


def _opener(entry: Any, seats: int) -> int:
    """The seat that opened the pack a pick came from: in round r the pack moves one seat a pick
    in the round's direction, so the pick number says how far it has travelled."""
    step = 1 if entry.round % 2 == 1 else -1
    return (entry.seat - step * (entry.pick_no - 1)) % seats


__all__ = ["Drafts", "Turn", "FORMATS", "SOURCES", "TIMERS"]
