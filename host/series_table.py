"""Best-of-3 and -5 league pairings at the table: the host side of :mod:`host.events.bestof`.
Knows no Discord (the cog is cogs/league_series.py).

:class:`SeriesTable` belongs to a :class:`host.league_service.Leagues` (``leagues.series``) and writes
through its version-checked ``_mutate`` (so every step is on the trail):

* :meth:`SeriesTable.choose` — the chooser says who moves first in the next game;
* :meth:`SeriesTable.next_game` — the pairing's next game once its first player is known: a
  challenge by the player who moves first, accepted at once for the other (so the match starts
  ACTIVE with both seated), in the thread of the previous game, that player first (the game's
  ``first`` option, Avalon's ``leader``), each player's deck as before (the event's locked deck,
  else the deck they played the previous game with), rated as the league.  A reservation on the
  pairing (``starting``) makes two callers (the publish hook and the clock) start it once;
* :meth:`SeriesTable.pending` — what is due after a game ended unseen (the bot restarted): a next
  game to start, a choice to ask for;
* :meth:`SeriesTable.time_up` — the round time limit (the leagues' clock): in the Swiss and round
  robin the running game of the pairing is aborted by the bot (moderator power in its own server,
  so no rating changes) and counts as drawn; a challenge nobody accepted is withdrawn; in a
  bracket nothing is decided and the organiser is told;
* :meth:`SeriesTable.extend` — an organiser's extra minutes for one pairing.
"""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from data import i18n
from data.store import ACTIVE, FINISHED, OPEN, PENDING, UNFINISHED, LeagueRecord, MatchRecord
from host import leagues as L
from host.events import bestof as BO
from host.events import clock as EC
from host.events import entry as E
from host.events import limited as LE
from host.events import series as S
from host.types import Result

if TYPE_CHECKING:
    from host.league_service import Leagues

log = logging.getLogger("host.series")

SYSTEM = 0                  # who the bot's own abort names (not a player: moderator power)
GRACE = 20.0                # a game finished this long ago whose next step is not done: the clock does it


class SeriesTable:
    def __init__(self, leagues: "Leagues") -> None:
        self.leagues = leagues

    @property
    def host(self) -> Any:
        return self.leagues.host

    def now(self) -> float:
        return self.leagues.now()

    # ------------------------------------------------------------------ choosing
    async def choose(self, league_id: int, guild_id: int | None, pairing_id: int, by: int, play_first: bool,
                     n: int | None = None) -> Result:
        """``by`` chooses to move first (or second) in game ``n`` (the next game; a press on an old
        prompt whose game is over is refused).  Payload: ``{"pairing", "n", "first"}``."""
        def step(d: dict, status: str) -> tuple[str, Any]:
            if status != "running":
                raise L.LeagueError("leagues.err.not_running")
            p = L.pairing(d, pairing_id)
            s = p.get("series")
            if s is None or p.get("result") is not None or S.over(s) or (n is not None and BO.number(p) != n):
                raise L.LeagueError("events.series.err.decided", n=n or BO.number(p))
            BO.choose(d, p, by, play_first)
            return status, {"pairing": p, "n": BO.number(p), "first": S.first_player(s)}
        return await self.leagues._mutate(league_id, guild_id, step, by=by, act="choose",
                                          target=int(pairing_id))

    async def mark_prompted(self, league_id: int, pairing_id: int, n: int) -> bool:
        """Note that the choice for game ``n`` was asked for (once): False when it already was."""
        def step(d: dict, status: str) -> tuple[str, Any]:
            p = L.pairing(d, pairing_id)
            if status != "running" or p.get("prompted") == n or p.get("result") is not None:
                raise L.LeagueError("leagues.err.ignored")
            p["prompted"] = n
            return status, None
        return (await self.leagues._mutate(league_id, None, step, system=True)).ok

    # ------------------------------------------------------------------ the next game
    def deck_for(self, d: dict, prev: MatchRecord | None, user: int) -> Any:
        """A player's deck for the next game: the event's locked deck, else the one they played
        the previous game with (None in a game without decks)."""
        from rules import registry

        if getattr(registry.get(d["game"]), "decks", None) is None:
            return None
        locked = E.locked_deck(d, user)
        if locked is not None:
            return E.play_deck(locked)
        if prev is not None and user in prev.seats:
            decks = (prev.options or {}).get("decks")
            seat = prev.seats.index(user)
            if isinstance(decks, list) and seat < len(decks):
                return decks[seat]
        return None

    async def next_game(self, league_id: int, pairing_id: int) -> Result:
        """Start the pairing's next game (module doc).  Data: ``pairing``, ``n``, ``prev`` (the
        previous game's match), ``first`` and ``league``; the Result is the accept that started it."""
        lg = await self.leagues.get(league_id)
        if lg is None or lg.status != "running":
            return Result.fail("leagues.err.not_running")
        d = lg.data
        try:
            p = L.pairing(d, pairing_id)
        except L.LeagueError as e:
            return Result.fail(e.key, **e.params)
        s = p.get("series")
        if s is None or p.get("result") is not None or S.over(s):
            return Result.fail("events.err.series_over")
        n = BO.number(p)
        first = S.first_player(s)
        if first is None:
            return Result.fail(i18n.game_key("events.series.err.choose_first", d.get("game")),
                               name=BO.name(d, S.chooser(s)), n=n)
        prev = await self.leagues._match(p["match"]) if p.get("match") else None
        if prev is None:
            return Result.fail("events.series.err.play", n=n)
        if prev.status in UNFINISHED:
            return Result.fail("events.series.err.running", n=n, match_id=prev.id)
        now = self.now()

        def reserve(dd: dict, status: str) -> tuple[str, Any]:
            q = L.pairing(dd, pairing_id)
            if status != "running" or q.get("result") is not None or q.get("match") != prev.id \
                    or BO.number(q) != n:
                raise L.LeagueError("events.series.err.started", n=n)
            held = q.get("starting") or {}
            if held.get("n") == n and now - float(held.get("at") or 0) < BO.STARTING_TTL:
                raise L.LeagueError("events.series.err.started", n=n)
            q["starting"] = {"n": n, "at": now}
            return status, None
        reserved = await self.leagues._mutate(league_id, None, reserve, system=True)
        if not reserved.ok:
            return reserved
        second = p["b"] if first == p["a"] else p["a"]
        names = {q["id"]: q["name"] for q in d["players"]}
        res = await self.host.challenge(
            d["game"], first, names.get(first, str(first)), opponents=[(second, names.get(second, str(second)))],
            options=LE.options(d, BO.first_options(d["game"], 0)), guild_id=lg.guild_id, channel_id=prev.channel_id,
            locale=prev.meta.get("locale", d.get("locale", "en")),
            meta={**L.match_meta(d, lg.id, p["id"]), "game": n, **LE.meta(d, [first, second])},
            deck=self.deck_for(d, prev, first), **EC.challenge_args(d))   # the event's clock: a fresh bank
        if not res.ok:
            await self._release(league_id, pairing_id, n)
            return res
        started = await self.host.accept(res.match.id, second, deck=self.deck_for(d, prev, second))
        if not started.ok:
            await self.host.decline(res.match.id, first)
            await self._release(league_id, pairing_id, n)
            return started
        mid = res.match.id

        def link(dd: dict, status: str) -> tuple[str, Any]:
            q = L.pairing(dd, pairing_id)
            if q.get("match") != prev.id or q.get("result") is not None:
                raise L.LeagueError("events.series.err.started", n=n)
            q["match"] = mid
            q.pop("starting", None)
            return status, None
        linked = await self.leagues._mutate(league_id, None, link, system=True)
        if not linked.ok:
            await self.host.abort(mid, SYSTEM, moderator_guild=lg.guild_id)
            return linked
        started.data.update(pairing=p["id"], n=n, prev=prev.id, first=first, league=lg.id)
        if started.public is not None:      # the bot seated both players: nobody "accepted" it
            started.public.text = [m for m in started.public.text if m.key != "host.accepted"]
        return started

    async def _release(self, league_id: int, pairing_id: int, n: int) -> None:
        def step(d: dict, status: str) -> tuple[str, Any]:
            q = L.pairing(d, pairing_id)
            if (q.get("starting") or {}).get("n") != n:
                raise L.LeagueError("leagues.err.ignored")
            q.pop("starting", None)
            return status, None
        await self.leagues._mutate(league_id, None, step, system=True)

    async def pending(self) -> list[tuple[str, LeagueRecord, dict, MatchRecord | None]]:
        """What is due in the running leagues' series and was not done (the bot stopped, a post
        failed): ``("start", league, pairing, previous match)`` — the next game's first player is
        known; ``("prompt", …)`` — its chooser has not been asked.  Only for a game that ended at
        least :data:`GRACE` seconds ago (the publish hook does it at once)."""
        out = []
        now = self.now()
        for lg in await self.leagues._mine(("running",)):
            try:
                for p in L.round_pairings(lg.data):
                    s = p.get("series")
                    if s is None or p.get("result") is not None or S.over(s):
                        continue
                    n = BO.number(p)
                    rec = await self.leagues._match(p["match"]) if p.get("match") else None
                    if rec is not None and (rec.status != FINISHED or now - rec.updated_at < GRACE):
                        continue
                    if S.chooser(s) is not None and p.get("prompted") != n:
                        out.append(("prompt", lg, p, rec))
                    elif S.first_player(s) is not None and rec is not None:
                        held = p.get("starting") or {}
                        if held.get("n") != n or now - float(held.get("at") or 0) >= BO.STARTING_TTL:
                            out.append(("start", lg, p, rec))
            except Exception:
                log.exception("league %s: its series cannot be read", lg.id)
        return out

    # ------------------------------------------------------------------ the time limit
    async def time_up(self) -> list[Result]:
        """Pairings whose round time limit ran out (module doc).  Each Result's data:
        ``time_up`` True, ``aborted`` (the host Result of the aborted game, or None), ``withdrawn``
        (a challenge nobody accepted, withdrawn), and in its payload ``pairing`` and
        ``elimination`` (True: nothing decided, the organiser decides)."""
        out: list[Result] = []
        now = self.now()
        for lg in await self.leagues._mine(("running",)):
            try:
                due = BO.time_due(lg.data, now)
            except Exception:
                log.exception("league %s: its time limits cannot be read", lg.id)
                continue
            for p in due:
                try:
                    res = await self._time_up_one(lg, p, now)
                except Exception:
                    log.exception("league %s: the time limit of pairing %s failed", lg.id, p["id"])
                    continue
                if res is not None and res.ok:
                    out.append(res)
        return out

    async def _time_up_one(self, lg: LeagueRecord, p: dict, now: float) -> Result | None:
        pid = p["id"]
        if p.get("bracket"):
            def mark(d: dict, status: str) -> tuple[str, Any]:
                q = L.pairing(d, pid)
                if status != "running" or q.get("result") is not None or q.get("time_up"):
                    raise L.LeagueError("leagues.err.ignored")
                BO.time_up(q, now)
                return status, {"pairing": q, "elimination": True, "paired": []}
            res = await self.leagues._mutate(lg.id, None, mark, system=True)
            if res.ok:
                res.data.update(time_up=True, aborted=None, withdrawn=None)
            return res
        rec = await self.leagues._match(p["match"]) if p.get("match") else None
        aborted = withdrawn = None
        unfinished = False
        if rec is not None and rec.status == ACTIVE:
            aborted = await self.host.abort(rec.id, SYSTEM, moderator_guild=rec.guild_id, said="events.series.time_aborted")
            unfinished = aborted.ok
            if not aborted.ok:
                aborted = None
                fresh = await self.leagues._match(rec.id)
                if fresh is not None and fresh.status == FINISHED:
                    await self.leagues.on_finish(fresh)        # it ended just now: it counts
        elif rec is not None and rec.status in (PENDING, OPEN):
            withdrawn = await self.host.decline(rec.id, rec.creator)
            withdrawn = withdrawn if withdrawn.ok else None
        match_id = rec.id if unfinished and rec is not None else None

        def step(d: dict, status: str) -> tuple[str, Any]:
            q = L.pairing(d, pid)
            if status != "running" or q.get("result") is not None:
                raise L.LeagueError("leagues.err.ignored")
            BO.time_out(d, q, unfinished, match_id)
            new_status, paired = self.leagues._after_result(d, status)
            return new_status, {"state": "final", "paired": paired, "pairing": q, "elimination": False}
        res = await self.leagues._mutate(lg.id, None, step, system=True, act="time", target=pid)
        if res.ok:
            res.data.update(time_up=True, aborted=aborted, withdrawn=withdrawn)
        return res

    async def extend(self, league_id: int, guild_id: int, pairing_id: int, minutes: int, by: int) -> Result:
        """``/league-admin extend``: ``minutes`` more for one pairing.  Payload ``{"pairing", "until"}``."""
        now = self.now()

        def step(d: dict, status: str) -> tuple[str, Any]:
            if status != "running":
                raise L.LeagueError("leagues.err.not_running")
            p = L.pairing(d, pairing_id)
            until = BO.extend(d, p, int(minutes), now)
            return status, {"pairing": p, "until": until}
        return await self.leagues._mutate(league_id, guild_id, step, by=by, act="extend", target=int(pairing_id))
