"""A sealed or draft event at the table: the pools its pods open, the decks its players build from
them, and the matches those decks play — the glue between the league service
(host/league_service.py) and limited play (host/limited/), knowing no Discord.

* **Before the start** (``/league-admin settings limited``): :meth:`LeagueLimited.plan` checks
  that the event's card set (the version it pinned, else the shipped cards) can deal pools to at
  least two players, and says how many a pod may hold (a cube deals each card once).
* **At the start** the league document splits its players into pods
  (:func:`host.events.limited.make_pods`); :meth:`LeagueLimited.open_drafts` then opens one draft
  a pod, every seat a player's, its organiser its creator, and starts it: a sealed pod goes
  straight to deck building, a draft pod to its first packs.  The draft ids are written into the
  league (``limited_drafts``), so a start interrupted half-way is finished by the bot's clock
  (:meth:`LeagueLimited.due`), never opened twice (a pod's draft records its pod number).
* **A deck built** in a pod's draft is locked there (the draft's seat) and, in the same breath,
  registered as the player's decklist entry of the event (:meth:`LeagueLimited.sync`): the decks
  are then shown, exported and played like any event's locked decks.  ``sync`` also runs before
  a match is started and on the bot's clock, so a deck whose registration a lost connection cut
  short is registered later, never lost.
* **A match** of the event (:meth:`LeagueLimited.match_args`) is played with both locked decks
  and the set's limited numbers; it is refused until both players have built theirs.
"""
from __future__ import annotations

import logging
from typing import Any

from data.card_sets.limited import GAME_RULES
from data.sql_limited import DRAFT_STATUSES, LIST_MAX
from data.store import StoreError, TransientStoreError
from host.events import entry as E
from host.events import limited as LE
from host.events.document import LeagueError
from host.limited.building import deck_spec, load_cards
from host.limited.service import Drafts
from host.types import Result

log = logging.getLogger("host.league_limited")

TIMER = 5                      # seconds a card above the 10 s of every pick, in an event's draft


class LeagueLimited:
    """``leagues``: the league service (its ``store``, ``host``, ``now``, ``_mutate`` and ``get``)."""

    def __init__(self, leagues: Any) -> None:
        self.leagues = leagues
        self._drafts: Drafts | None = None

    @property
    def drafts(self) -> Drafts:
        lg = self.leagues
        if self._drafts is None or self._drafts.store is not lg.store:
            self._drafts = Drafts(lg.store, load_cards(lg.host.card_sets), host=lg.host, now=lg.now)
        return self._drafts

    # ------------------------------------------------------------------ the set's pools
    async def cards(self, guild_id: int, d: dict) -> tuple[Any, Result | None]:
        """The DraftCards of the event's set: the version it pinned, else the shipped cards."""
        ref = d.get("cards") if isinstance(d.get("cards"), dict) else None
        if ref is None:
            return await self.drafts.cards(guild_id, d["game"], "shipped", None)
        return await self.drafts.cards(guild_id, d["game"], ref.get("name"), ref.get("version"))

    async def plan(self, guild_id: int, d: dict) -> tuple[dict | None, Result | None]:
        """How the event's pools are dealt: ``{"source", "cube", "most", "rules"}`` — declared
        boosters where the set has them, else its cube (``cube``: its number of cards); the most
        players a pod may hold; the set's limited deck numbers.  A failed Result when the set
        cannot deal two pools."""
        cards, err = await self.cards(guild_id, d)
        if err:
            return None, err
        boosters = cards.limited is not None and cards.limited.boosters is not None
        most = LE.most_per_pod(None if boosters else len(cards.cube))
        if most < 2:
            return None, Result.fail("events.limited.err.cube_small", have=len(cards.cube),
                                     need=2 * LE.SIZE[0])
        return {"source": "boosters" if boosters else "cube", "cube": len(cards.cube), "most": most,
                "rules": cards.deck_rules()}, None

    async def setting(self, league_id: int, guild_id: int, value: Any, changes: dict) -> Result | None:
        """Before ``/league-admin settings limited`` is applied: the event's set must deal pools
        (a failed Result says why); a limited event shows its lists at the end unless the
        organiser says otherwise in the same command (``changes`` gets ``open_decklists``)."""
        if not value:
            return None
        lg = await self.leagues.get(league_id)
        if lg is not None and lg.guild_id == int(guild_id) and lg.data.get("game") in GAME_RULES:
            _plan, err = await self.plan(lg.guild_id, lg.data)
            if err is not None:
                return err
        changes.setdefault("open_decklists", True)
        return None

    async def after_start(self, res: Result) -> Result:
        """A sealed or draft event that has just started: its pods' drafts opened and started
        (``data["drafts"]``: their Results, for the front end to post and ask)."""
        if res.ok and LE.limited_of(res.data["league"].data) is not None:
            try:
                res.data["drafts"] = await self.open_drafts(res.data["league"].id)
            except Exception:      # the clock opens them later (:meth:`due`)
                log.exception("league %s: its pools were not opened at the start", res.data["league"].id)
        return res

    # ------------------------------------------------------------------ the pods' drafts
    async def open_drafts(self, league_id: int) -> list[Result]:
        """Open and start the draft of every pod that has none yet (at the start; again on the
        clock if one was cut short).  Returns each started draft's Result (``data["turn"]``, for
        the front end to post its table and ask its players), with ``data["league"]``."""
        lg = await self.leagues.get(league_id)
        if lg is None or lg.status != "running" or not LE.limited_of(lg.data) or not LE.pods_to_open(lg.data):
            return []
        d = lg.data
        plan, err = await self.plan(lg.guild_id, d)
        if err:
            log.warning("league %s: its pools cannot be dealt (%s)", lg.id, err.error)
            return []
        names = {p["id"]: p.get("name", "") for p in d.get("players", [])}
        ref = d.get("cards") if isinstance(d.get("cards"), dict) else None
        fmt = "sealed" if d["limited"] == "sealed" else "booster"
        have = {}
        try:      # a pod's draft opened before an interruption: found by its pod number, not opened twice
            for row in await self.leagues.store.drafts_of(lg.guild_id, statuses=DRAFT_STATUSES, limit=LIST_MAX):
                if row.league_id == lg.id and isinstance(row.state.get("pod"), int):
                    have.setdefault(row.state["pod"], row)
        except TransientStoreError:
            return []
        out = []
        for i in LE.pods_to_open(d):
            pod = [int(u) for u in d["pods"][i]]
            row = have.get(i)
            if row is None:
                packs = size = None
                if plan["source"] == "cube":
                    fit = LE.cube_plan(plan["cube"], len(pod))
                    if fit is None:
                        log.warning("league %s: pod %s cannot be dealt from the cube", lg.id, i + 1)
                        continue
                    packs, size = fit
                made = await self.drafts.create(
                    guild_id=lg.guild_id, channel_id=d.get("channel_id"), user_id=int(d["organiser"]), name="",
                    game=d["game"], set_name=ref.get("name") if ref else "shipped",
                    version=ref.get("version") if ref else None, fmt=fmt, source=plan["source"], packs=packs,
                    size=size, timer=TIMER if fmt == "booster" else 0, league_id=lg.id,
                    seated=[(u, names.get(u, "")) for u in pod], extra={"pod": i})
                if not made.ok:
                    log.warning("league %s: pod %s's draft was not opened (%s)", lg.id, i + 1, made.error)
                    continue
                row = made.data["draft"]
            if row.status == "open":
                started = await self.drafts.start(row.id, lg.guild_id, int(d["organiser"]), league=True)
                if not started.ok:
                    log.warning("league %s: pod %s's draft did not start (%s)", lg.id, i + 1, started.error)
                    continue
                started.data["league"] = lg.id
                out.append(started)

            def step(dd: dict, status: str, i: int = i, draft_id: int = row.id) -> tuple[str, Any]:
                dd.setdefault("limited_drafts", {})[str(i)] = draft_id
                dd["limited_rules"] = dict(plan["rules"])
                return status, None
            await self.leagues._mutate(lg.id, None, step, system=True)
        return out

    # ------------------------------------------------------------------ the decks
    async def sync(self, league_id: int) -> list[int]:
        """Register every deck locked in the event's drafts that the league does not hold yet
        (the player's decklist entry, with their pool).  Returns who was registered."""
        lg = await self.leagues.get(league_id)
        if lg is None or not LE.limited_of(lg.data):
            return []
        d = lg.data
        found: list[tuple[int, Any, list[str], int, str]] = []
        for value in (d.get("limited_drafts") or {}).values():
            if type(value) is not int:
                continue
            row, err = await self.drafts.get(value, lg.guild_id)
            if err or row.league_id != lg.id:
                continue
            pools = cards = None
            for s in row.seats:
                if s.user_id is None or not s.deck or not s.locked or not LE.missing_decks(d, [s.user_id]):
                    continue
                if cards is None:        # read once a draft, when one of its decks is to register
                    cards, err = await self.drafts.cards_of(row)
                    if err:
                        break
                spec = deck_spec(cards, s.deck)
                if spec is None:
                    log.warning("league %s: the deck of %s in draft %s does not read", lg.id, s.user_id, row.id)
                    continue
                pools = pools if pools is not None else self.drafts.pools(row)
                pool = pools[s.seat] if s.seat < len(pools) else []
                found.append((int(s.user_id), spec, list(pool), row.id, E.deck_hash(d, spec)))
        if not found:
            return []
        now = self.leagues.now()

        def step(dd: dict, status: str) -> tuple[str, Any]:
            done = [u for u, spec, pool, draft, h in found if LE.register(dd, u, spec, pool, draft, h, now)]
            if not done:
                raise LeagueError("leagues.err.ignored")
            return status, done
        res = await self.leagues._mutate(lg.id, None, step, system=True)
        return list(res.data["payload"]) if res.ok else []

    async def synced(self, lg: Any, ids: list[int] | None = None) -> Any:
        """``lg`` with the decks of ``ids`` (None: every player) that were built but not yet
        registered registered first (:meth:`sync`), read again when that changed it; ``lg`` as it
        is otherwise (a constructed event, nothing missing)."""
        if LE.limited_of(lg.data) is None:
            return lg
        if not LE.missing_decks(lg.data, [p["id"] for p in lg.data.get("players", [])] if ids is None else ids):
            return lg
        if await self.sync(lg.id):
            return await self.leagues.get(lg.id) or lg
        return lg

    async def due(self) -> list[Result]:
        """The clock's work on running limited events: pods whose draft is not open yet (a Result
        like :meth:`after_start`'s for each event whose drafts it opened), and decks built but not
        yet registered (after an interruption).  One event's failure never stops another's."""
        out: list[Result] = []
        for lg in await self.leagues.running():
            try:
                d = lg.data
                if not LE.limited_of(d):
                    continue
                if LE.pods_to_open(d):
                    opened = await self.open_drafts(lg.id)
                    fresh = await self.leagues.get(lg.id) if opened else None
                    if fresh is not None:
                        out.append(Result(ok=True, data={"league": fresh, "payload": None, "drafts": opened}))
                await self.synced(lg)
            except (StoreError, LeagueError):
                log.info("league %s: its pools were not looked after this time", lg.id, exc_info=True)
            except Exception:
                log.exception("league %s: its pools were not looked after", lg.id)
        return out

    # ------------------------------------------------------------------ the matches
    async def match_args(self, lg: Any, seats: list[int]) -> tuple[dict, Result | None]:
        """What a match of a limited event adds: ``{"decks": [spec per seat], "meta": {...}}``,
        both players' locked decks — or a failed Result naming who has not built theirs."""
        if LE.limited_of(lg.data) is None:
            return {}, None
        d = (await self.synced(lg, seats)).data
        missing = LE.missing_decks(d, seats)
        if missing:
            names = {p["id"]: p.get("name", "") for p in d.get("players", [])}
            who = ", ".join(str(names.get(u) or u) for u in missing)
            return {}, Result.fail("events.limited.err.no_deck", names=who)
        decks = [E.locked_deck(d, u)["spec"] for u in seats]    # type: ignore[index]
        return {"decks": decks, "meta": LE.meta(d, seats)}, None


__all__ = ["LeagueLimited", "TIMER"]
