"""Judge calls at events (docs/undo.md, "Judge calls"): the async glue between a call's record in
the event (:mod:`host.events.judge`, pure, written with the event through
:meth:`host.league_service.Leagues._mutate`: version-checked, with its trail entries in the same
write) and the table (:class:`host.table.Host`: a rewind, time, a game loss, every seat's hand).

Authority as everywhere: every call names the server it comes from (``guild_id``) and reaches
only that server's events and matches — a call from a match of another server, or a judge of
another server, is refused and changes nothing.  Whether the caller is a judge (the server's
judge role, or an organiser) is the front end's check, made against the same server.
"""
from __future__ import annotations

from typing import Any

from data.store import ACTIVE, MatchRecord
from host.events import judge as J
from host.types import Result, msg

JUDGE_ROLE_KEY = "judge_role"          # guild setting: the role pinged for calls; its members judge
JUDGE_CHANNEL_KEY = "judge_channel"    # guild setting: where calls are posted (else the event's channel)
LAST_MOVES = 5                         # the moves in words on a call's staff post


class Judges:
    """Judge calls and a judge's actions (built on the events service)."""

    def __init__(self, leagues: Any) -> None:
        self.leagues = leagues
        self.store = leagues.store
        self.host = leagues.host

    def now(self) -> float:
        return self.leagues.now()

    async def _event_match(self, match_id: int, guild_id: int | None) -> tuple[MatchRecord | None, Result | None]:
        """The match of an event of server ``guild_id``, or the refusal (another server's match
        reads as no such match: nothing about it is said)."""
        rec = await self.host.store.get_match(int(match_id)) if match_id is not None else None
        if rec is None or guild_id is None or rec.guild_id != int(guild_id):
            return None, Result.fail("host.err.no_match", match_id=match_id)
        if rec.meta.get("league") is None:
            return None, Result.fail("judge.err.not_event", match_id=rec.id)
        return rec, None

    # ------------------------------------------------------------------ calls
    async def call(self, match_id: int, guild_id: int | None, user_id: int, text: str) -> Result:
        """A player of the match calls a judge: the call is kept in the event (its trail says
        so); ``data``: the call, the league, the match, the last moves in words."""
        rec, err = await self._event_match(match_id, guild_id)
        if err:
            return err
        if rec.status != ACTIVE:
            return Result.fail("undo.err.not_active", match=rec)
        if int(user_id) not in [u for u in rec.seats if u is not None]:
            return Result.fail("events.judge.err.not_in_match", match=rec)
        pairing = rec.meta.get("pairing")

        def step(d: dict, status: str) -> tuple[str, Any]:
            return status, J.call(d, status, match_id=rec.id, pairing_id=pairing, by=int(user_id),
                                  text=text, now=self.now())
        res = await self.leagues._mutate(int(rec.meta["league"]), guild_id, step, by=int(user_id))
        if not res.ok:
            return res
        log = await self.host.log(rec.id)
        moves = (log.data.get("log") or [])[-LAST_MOVES:] if log.ok else []
        res.data.update(call=res.data["payload"], match=rec, moves=moves)
        return res

    async def _call_step(self, league_id: int, guild_id: int | None, judge: int, fn: Any) -> Result:
        def step(d: dict, status: str) -> tuple[str, Any]:
            return status, fn(d, status)
        res = await self.leagues._mutate(int(league_id), guild_id, step, by=int(judge))
        if res.ok:
            res.data["call"] = res.data["payload"]
        return res

    async def take(self, league_id: int, call_id: int, guild_id: int | None, judge: int) -> Result:
        return await self._call_step(league_id, guild_id, judge,
                                     lambda d, s: J.take(d, call_id, judge, self.now()))

    async def close(self, league_id: int, call_id: int, guild_id: int | None, judge: int, note: str = "") -> Result:
        return await self._call_step(league_id, guild_id, judge,
                                     lambda d, s: J.close(d, call_id, judge, self.now(), note))

    async def set_staff_ref(self, league_id: int, call_id: int, ref: str) -> None:
        def step(d: dict, status: str) -> tuple[str, Any]:
            J.set_staff_ref(d, call_id, ref)
            return status, None
        await self.leagues._mutate(int(league_id), None, step, system=True)

    async def _league(self, league_id: int, guild_id: int | None) -> tuple[Any, Result | None]:
        """(the event, None) when it is one of server ``guild_id``'s; else the refusal (another
        server's event reads as no such event)."""
        lg = await self.leagues.get(int(league_id))
        if lg is None or guild_id is None or lg.guild_id != int(guild_id):
            return None, Result.fail("leagues.err.no_league", league=league_id)
        return lg, None

    async def calls(self, league_id: int, guild_id: int | None) -> Result:
        """The event's open calls, oldest first (for its staff)."""
        lg, err = await self._league(league_id, guild_id)
        return err or Result(ok=True, data={"calls": J.open_calls(lg.data), "league": lg})

    async def call_match(self, league_id: int, call_id: int, guild_id: int | None
                         ) -> tuple[Any, dict | None, MatchRecord | None, Result | None]:
        """(the event, the call, its match, None) for a call of this server's event, whatever
        its status; else the refusal."""
        lg, err = await self._league(league_id, guild_id)
        if err:
            return None, None, None, err
        try:
            c = J.call_of(lg.data, call_id)
        except Exception:
            return lg, None, None, Result.fail("events.judge.err.no_call", call=call_id)
        rec = await self.host.store.get_match(int(c["match"]))
        if rec is None or rec.guild_id != lg.guild_id:
            return lg, c, None, Result.fail("host.err.no_match", match_id=c["match"])
        return lg, c, rec, None

    async def _live(self, league_id: int, call_id: int, guild_id: int | None
                    ) -> tuple[Any, dict | None, MatchRecord | None, Result | None]:
        """:meth:`call_match` for a call that is open or taken; else the refusal."""
        lg, c, rec, err = await self.call_match(league_id, call_id, guild_id)
        if c is not None and c["status"] not in J.LIVE:     # (said before a missing match is)
            return lg, c, None, Result.fail("events.judge.err.closed", call=c["id"])
        return lg, c, rec, err

    # ------------------------------------------------------------------ a judge's actions
    async def look(self, league_id: int, call_id: int, guild_id: int | None, judge: int) -> Result:
        """Every seat's hand, for a judge who is not seated in the match, while the call is
        open; the look goes into the event's trail first (who, which match, when)."""
        lg, c, rec, err = await self._live(league_id, call_id, guild_id)
        if err:
            return err
        if int(judge) in [u for u in rec.seats if u is not None]:
            return Result.fail("judge.err.seated", match=rec)
        res = await self._call_step(league_id, guild_id, judge,
                                    lambda d, s: J.look(d, call_id, judge, self.now()))
        if not res.ok:
            return res
        return await self.host.seat_views(rec.id)

    async def rewind(self, league_id: int, call_id: int, guild_id: int | None, judge: int, moves: int,
                     reason: str, *, force: bool = False) -> Result:
        """Put the call's match back ``moves`` entries (a replay of the log's prefix); refused
        with ``data["revealed"]`` when something hidden came out since, unless ``force``."""
        lg, c, rec, err = await self._live(league_id, call_id, guild_id)
        if err:
            return err
        said = J.clean_text(reason, J.REASON_MAX)
        if not said:
            return Result.fail("events.judge.err.reason")
        res = await self.host.rewind(rec.id, int(moves), by_user=int(judge), reason=said, force=force)
        if not res.ok:
            return res
        await self._call_step(league_id, guild_id, judge, lambda d, s: J.judge_action(
            d, kind="rewind", call_id=call_id, match_id=rec.id, by=judge, now=self.now(), reason=said,
            n=int(moves), pairing=rec.meta.get("pairing")))
        return res

    async def add_time(self, league_id: int, call_id: int, guild_id: int | None, judge: int, player: int,
                       minutes: int, reason: str) -> Result:
        lg, c, rec, err = await self._live(league_id, call_id, guild_id)
        if err:
            return err
        if int(player) not in rec.seats:
            return Result.fail("events.judge.err.not_in_match", match=rec)
        said = J.clean_text(reason, J.REASON_MAX)
        if not said or not 1 <= int(minutes) <= J.ADD_TIME_MAX_MINUTES:
            return Result.fail("events.judge.err.reason" if not said else "events.judge.err.minutes",
                               max=J.ADD_TIME_MAX_MINUTES)
        seat = rec.seats.index(int(player))
        res = await self.host.add_time(rec.id, seat, int(minutes) * 60,
                                       lines=[msg("judge.said", reason=said)])
        if not res.ok:
            return res
        await self._call_step(league_id, guild_id, judge, lambda d, s: J.judge_action(
            d, kind="time", call_id=call_id, match_id=rec.id, by=judge, now=self.now(), reason=said,
            player=int(player), minutes=int(minutes), pairing=rec.meta.get("pairing")))
        return res

    async def penalty(self, league_id: int, call_id: int, guild_id: int | None, judge: int, kind: str,
                      player: int, reason: str) -> Result:
        """A warning, a game loss (the live game ends as their loss; the series records it and
        the standings follow) or a match loss (the pairing is decided as by a forfeit, and the
        live game is stopped: ``data["stopped"]``).  ``data``: the penalty, the league, and the table's Result when
        the match changed (``table``)."""
        lg, c, rec, err = await self._live(league_id, call_id, guild_id)
        if err:
            return err
        if int(player) not in rec.seats:
            return Result.fail("events.judge.err.not_in_match", match=rec)
        pairing = rec.meta.get("pairing")
        if pairing is None:
            return Result.fail("judge.err.not_event", match_id=rec.id)
        if kind == "game_loss" and rec.status != ACTIVE:
            # the call's game is over (e.g. already lost, the series went on): a game loss
            # recorded now would end no game, and the series would never count it
            return Result.fail("judge.err.game_over", match=rec, match_id=rec.id)

        def step(d: dict, status: str) -> tuple[str, Any]:
            pen = J.penalty(d, status, kind=kind, player=int(player), pairing_id=int(pairing), match_id=rec.id,
                            reason=reason, by=int(judge), now=self.now(), call_id=call_id)
            if kind == "match_loss":
                new_status, paired = self.leagues._after_result(d, status)
                return new_status, {"penalty": pen, "state": "final", "paired": paired}
            return status, {"penalty": pen}
        act = {"match_loss": "forfeit"}.get(kind)
        res = await self.leagues._mutate(int(league_id), guild_id, step, by=int(judge), act=act,
                                         target=int(pairing) if act else None)
        if not res.ok:
            return res
        pen = res.data["payload"]["penalty"]
        line = msg(f"judge.penalty.{kind}", name=rec.names[rec.seats.index(int(player))],
                   reason=pen["reason"])
        table = None
        if kind == "game_loss":
            table = await self.host.judge_loss(rec.id, rec.seats.index(int(player)), lines=[line])
        # (a match loss decides the pairing: the events service stops its live game itself,
        # ``data["stopped"]``, as for any pairing decided while its match is played)
        res.data.update(penalty=pen, table=table, line=line, match=rec)
        return res

    async def penalties(self, league_id: int, guild_id: int | None, player: int | None = None) -> Result:
        lg, err = await self._league(league_id, guild_id)
        return err or Result(ok=True, data={"penalties": J.penalties(lg.data, player), "league": lg})
