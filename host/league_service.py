"""The leagues' service behind the store: what the league cogs call.  Knows no Discord.

:class:`Leagues` loads a league, applies one :mod:`host.leagues` step and writes it back naming
the version it read (retrying on a conflict, like match writes), with the trail entries of what
the step changed (:mod:`host.events.trail`), starts pairing matches through the host and reports
finished league matches automatically.  Best-of-N play is :class:`host.series_table.SeriesTable`
(``Leagues.series``).

Every call returns a :class:`host.types.Result`: ``ok`` False means nothing changed and
``error`` says why and what is allowed instead.
"""
from __future__ import annotations

import copy
import logging
import secrets
import time
from dataclasses import replace
from typing import Any, Callable

from data.card_sets.limited import GAME_RULES
from data.store import (
    ACTIVE, FINISHED, OPEN, PENDING, UNFINISHED, LeagueRecord, MatchRecord, Store, VersionConflict,
)
from host import leagues as L
from host.events import bestof as BO
from host.events import calendar as CAL
from host.events import clock as EC
from host.events import entry as E
from host.events import judge as JG
from host.events import limited as LE
from host.events import reports as RP
from host.events import scoring as S
from host.events import stages as ST
from host.events import trail as T
from host.records import Records, board_key, guild_scope
from host.replay import newest_edition
from host.clocks import match as bank_clock
from host.shards import owns
from host.types import Msg, Result, msg

STOPPER = 0          # who the bot's own abort of a decided pairing's match names (not a player)
log = logging.getLogger("host.league_service")

ORGANISER_ROLE_KEY = "league_role"
LIMITED_GAMES = tuple(GAME_RULES)      # the games whose events may be sealed or draft
MAX_LEAGUE_ROUNDS = 30
MAX_DEADLINE_HOURS = 30 * 24
MAX_SIGNUP_HOURS = 30 * 24
NAME_MAX = 60
CLOCKS_SHOWN = 25       # games whose clocks one event message or schedule reads


def league_game(game: str) -> bool:
    """Whether a league can be run for ``game``: a pairing is one player against one other,
    so the game must be playable by two.  A game that takes late joiners (Avalon's Sanctuary)
    qualifies too: a league match is always two seats and the host refuses every late join
    into it (``host.err.league_join``), so it stays one against one."""
    from rules import registry

    if game not in registry:
        return False
    eng = registry.get(game)
    return eng.min_players <= 2 <= eng.max_players


def _engine(game: str) -> Any:
    from rules import registry

    return registry.get(game)


def league_game_refusal(game: str) -> Result | None:
    """None if ``game`` can have leagues, else the localized reason and the games that can."""
    from rules import registry

    if league_game(game):
        return None
    eng = registry.get(game)
    allowed: Any = "-"
    for name in reversed([n for n in registry.names() if league_game(n)]):   # "A, B, C", localized
        allowed = Msg(f"game.{name}") if allowed == "-" else msg("leagues.list", first=Msg(f"game.{name}"),
                                                                  rest=allowed)
    return Result.fail("leagues.err.two_player", game=Msg(f"game.{game}"),
                       min=eng.min_players, max=eng.max_players, games=allowed)


class Leagues:
    def __init__(self, store: Store, host: Any, *, now: Callable[[], float] = time.time) -> None:
        from host.league_limited import LeagueLimited
        from host.series_table import SeriesTable

        self.store = store
        self.host = host
        self.now = now
        self.series = SeriesTable(self)     # best of 3 or 5: choices, next games, time limits
        self.limited = LeagueLimited(self)  # sealed and draft events: the pods' pools, the decks

    async def get(self, league_id: int) -> LeagueRecord | None:
        lg = await self.store.get_league(int(league_id))
        if lg is not None:
            await self.cards_loaded(lg.data)
        return lg

    async def cards_loaded(self, d: dict) -> Any:
        """The engine of the event's decks: its pinned card set version (loaded here, once per
        process; ``host.events.entry.deck_engine`` then finds it), else the shipped cards.
        A version that cannot be used leaves the shipped cards' names (logged)."""
        from host import engines

        ref = d.get("cards")
        if not isinstance(ref, dict):
            return _engine(d["game"])
        try:
            return (await engines.load(self.store, int(ref["id"]), game=d["game"])).engine
        except (engines.CardSetUnusable, KeyError, TypeError, ValueError):
            log.error("league of %s: its card set %r cannot be used", d.get("game"), ref)
            return _engine(d["game"])

    async def _mine(self, statuses: tuple[str, ...]) -> list[LeagueRecord]:
        """The leagues in ``statuses`` whose clock work is this process's: those of the guilds
        on its gateway shards (host/shards.py; every league when it runs them all)."""
        shards = getattr(self.host, "shards", None)
        return [lg for lg in await self.store.leagues(None, statuses) if owns(shards, lg.guild_id)]

    async def running(self) -> list[LeagueRecord]:
        """The running leagues whose clock work is this process's (:meth:`_mine`)."""
        return await self._mine(("running",))

    async def _mutate(self, league_id: int, guild_id: int | None,
                      step: Callable[[dict, str], tuple[str, Any]], *, system: bool = False,
                      by: int | None = None, act: str | None = None, target: int | None = None) -> Result:
        """Load, apply ``step(data, status) -> (new status, payload)`` to a copy, write back
        (version-checked, retried); ``LeagueError`` becomes a failed Result.  A caller acts only
        on a league of its own server (``guild_id``; None — a DM — reaches none); only the bot's
        own bookkeeping (``system=True``: its message, a finished match reporting itself, the
        clock) acts on any.  Whatever the step changed in a result or a player's standing goes
        to the league's trail in the same write (:func:`host.events.trail.changes`: ``by`` the
        user who did it, None for the bot; ``act`` and ``target`` what they did, to which
        pairing)."""
        for _ in range(5):
            lg = await self.store.get_league(int(league_id))
            if lg is None or (not system and (guild_id is None or lg.guild_id != int(guild_id))):
                return Result.fail("leagues.err.no_league", league=league_id)
            await self.cards_loaded(lg.data)      # its decks are of its pinned card set
            data = copy.deepcopy(lg.data)
            try:
                status, payload = step(data, lg.status)
            except L.LeagueError as e:
                return Result.fail(e.key, **e.params)
            T.add(data, T.changes(lg.data, data, lg.status, status, at=self.now(), by=by, act=act, target=target))
            try:
                written = await self.store.update_league(
                    replace(lg, data=data, status=status, updated_at=self.now()), lg.version)
            except VersionConflict:
                continue
            res = Result(ok=True, data={"league": written, "payload": payload, "was": lg.status})
            stopped = await self._stop_decided(lg, written)
            if stopped:
                res.data["stopped"] = stopped
            return res
        return Result.fail("leagues.err.conflict")

    async def _stop_decided(self, before: LeagueRecord, after: LeagueRecord) -> list[Result]:
        """The bot matches of pairings this change decided while they were still being played —
        an organiser's decision, a report both players agreed on, a drop's forfeit — are stopped
        (aborted with the bot's moderator power in the league's own server, a challenge nobody
        accepted withdrawn): a game whose pairing has its result no longer counts, so it must
        not go on as if it did.  Returns the host Results (the cogs publish them)."""
        was = {p["id"]: p.get("result") for p in before.data.get("pairings") or []}
        stale = [p for p in after.data.get("pairings") or []
                 if p.get("match") and p.get("result") is not None and was.get(p["id"]) is None]
        out = []
        for p in stale:
            try:
                rec = await self._match(p["match"])
                if rec is None or rec.status not in UNFINISHED or rec.meta.get("league") != after.id:
                    continue
                if rec.status == ACTIVE:
                    res = await self.host.abort(rec.id, STOPPER, moderator_guild=rec.guild_id,
                                                said="events.report.match_stopped")
                else:
                    res = await self.host.decline(rec.id, rec.creator)
            except Exception:     # the result stands; a match left running is only untidy
                log.exception("league %s: stopping match %s of decided pairing #%s failed",
                              after.id, p.get("match"), p["id"])
                continue
            if res.ok:
                out.append(res)
        return out

    # ------------------------------------------------------------------ life cycle
    async def create(self, *, guild_id: int, channel_id: int | None, organiser: int, name: str,
                     game: str, fmt: str, rounds: int | None, deadline_hours: int, rated: bool,
                     signup_hours: int | None, locale: str = "en", scoring: str | None = None,
                     cut: int | None = None, seeding: str | None = None, reset: bool | None = None) -> Result:
        """A new league in sign-up.  ``cut`` (a top cut after Swiss or round-robin rounds: 0, 2,
        4, 8; None: by the number of players for a Swiss), ``seeding`` and ``reset``: the event's
        stages (:mod:`host.events.stages`)."""
        from rules import registry

        if game not in registry:
            return Result.fail("host.err.unknown_game", game=str(game)[:40], games=", ".join(registry.names()))
        refused = league_game_refusal(game)
        if refused is not None:
            return refused
        if fmt not in L.FORMATS:
            return Result.fail("leagues.err.format")
        if scoring is not None and scoring not in S.PRESETS:
            return Result.fail("events.err.scoring")
        if cut is not None and cut not in ST.CUTS:
            return Result.fail("events.bracket.err.cut")
        if cut and fmt in ST.ELIMINATION:
            return Result.fail("events.bracket.err.cut_format")
        if seeding is not None and seeding not in ST.SEEDINGS:
            return Result.fail("events.bracket.err.seeding")
        if rounds is not None and not 1 <= rounds <= MAX_LEAGUE_ROUNDS:
            return Result.fail("leagues.err.rounds", max=MAX_LEAGUE_ROUNDS)
        if not 0 <= deadline_hours <= MAX_DEADLINE_HOURS:
            return Result.fail("leagues.err.deadline", max=MAX_DEADLINE_HOURS)
        if signup_hours is not None and not 0 <= signup_hours <= MAX_SIGNUP_HOURS:
            return Result.fail("leagues.err.signup", max=MAX_SIGNUP_HOURS)
        name = " ".join(str(name or "").split())[:NAME_MAX]
        if not name:
            return Result.fail("leagues.err.name", max=NAME_MAX)
        season = await Records(self.store).season(guild_id)
        # the server's card set for the game when the event is made: pinned for all its matches
        cards = await self.host.card_sets.resolve(int(guild_id), game, None) if hasattr(self.host, "card_sets") \
            else None
        if cards is not None and not cards.ok:
            return cards
        data = L.new_league(name=name, game=game, fmt=fmt, rounds=rounds if fmt == "swiss" else None,
                            deadline_hours=deadline_hours, rated=rated, signup_hours=signup_hours or None,
                            organiser=organiser, channel_id=channel_id, season=season, now=self.now(),
                            locale=locale, scoring_preset=scoring, cut=cut, seeding=seeding, reset=reset,
                            edition=newest_edition(_engine(game)))
        if cards is not None and cards.data.get("ref"):
            data["cards"] = cards.data["ref"]
        # the server's defaults for new matches and events (/settings): the event's clock
        defaults = await self.store.get_guild_settings(int(guild_id))
        EC.apply_defaults(data, defaults.get("clock_control"), defaults.get("clock_weekend", False))
        lg = await self.store.create_league(LeagueRecord(guild_id=int(guild_id), status="signup",
                                                         data=data, created_at=self.now(),
                                                         updated_at=self.now()))
        return Result(ok=True, data={"league": lg, "payload": None})

    async def set_message(self, league_id: int, ref: str) -> None:
        def step(d: dict, status: str) -> tuple[str, Any]:
            d["message"] = ref
            return status, None
        await self._mutate(league_id, None, step, system=True)

    async def join(self, league_id: int, guild_id: int, user_id: int, name: str) -> Result:
        """A sign-up; payload: the players now in.  Past a player cap the player goes on the
        waiting list: ``data["waiting"]`` is their place in line (else None)."""
        now = self.now()

        def step(d: dict, status: str) -> tuple[str, Any]:
            L.join(d, status, user_id, name, now)
            return status, len(L.active_ids(d))
        res = await self._mutate(league_id, guild_id, step, by=user_id, act="join")
        if res.ok:
            res.data["waiting"] = E.place(res.data["league"].data, user_id)
        return res

    async def leave(self, league_id: int, guild_id: int, user_id: int, *, removed: bool = False,
                    by: int | None = None) -> Result:
        """A player leaves (``by``: themselves) or is removed (``by``: the organiser).  Payload:
        ``decided`` (pairings forfeited by a drop), ``paired``, and ``moved`` — who moved up from
        the waiting list into the free place (before the start)."""
        now = self.now()

        def step(d: dict, status: str) -> tuple[str, Any]:
            line = set(E.waiting(d))
            decided = L.drop(d, status, int(user_id), removed, now)
            new_status, paired = status, []
            if status == "running":
                state, paired = L.advance(d, now)
                new_status = "finished" if state == "finished" else status
            moved = [q["id"] for q in d["players"] if q["id"] in line]
            return new_status, {"decided": decided, "paired": paired, "moved": moved}
        return await self._mutate(league_id, guild_id, step, by=user_id if by is None else by,
                                  act="remove" if removed else "leave")

    async def start(self, league_id: int, guild_id: int, by: int | None = None) -> Result:
        now = self.now()
        lg = await self.get(league_id)
        mine = lg is not None and guild_id is not None and lg.guild_id == int(guild_id)
        extra = await self.start_args(lg) if mine else {}

        def step(d: dict, status: str) -> tuple[str, Any]:
            return "running", L.start(d, status, now, **extra)
        return await self.limited.after_start(await self._mutate(league_id, guild_id, step, by=by, act="start"))

    async def start_args(self, lg: LeagueRecord) -> dict[str, Any]:
        """What :func:`host.leagues.start` needs beyond the document: the seed of its random draws
        (the league's id and a secret part) and the server ratings of those signed up, for seeding by rating
        (the conservative estimate the leaderboard orders by; unrated players have none)."""
        # who plays is known after the admission (check-in, waiting-list players taking free
        # places): read their ratings, not only those of the players registered before it
        probe = copy.deepcopy(lg.data)
        try:
            L.admit(probe, self.now())
        except L.LeagueError:
            pass
        ids = list(dict.fromkeys([p["id"] for p in lg.data.get("players", [])]
                                 + [p["id"] for p in probe.get("players", [])]))
        rows = await self.store.get_ratings(guild_scope(lg.guild_id), lg.data["game"], ids) if ids else {}
        # the seed: the league's id and a secret part, so nobody can work out a draw (a Swiss
        # round's pairing, who moves first) before it is made from the public league number
        out: dict[str, Any] = {"key": f"{lg.id}-{secrets.token_hex(12)}",
                               "ratings": {u: board_key(r)[0] for u, r in rows.items()}}
        if LE.limited_of(lg.data) is not None:     # how many a pod may hold: what the set can deal
            plan, _err = await self.limited.plan(lg.guild_id, lg.data)
            out["pod_most"] = plan["most"] if plan is not None else 0
        return out

    async def set_calendar(self, league_id: int, **changes: Any) -> Result:
        """The bookkeeping of the event's entry in the server's calendar
        (:func:`host.events.calendar.record`): the bot's own, on any league."""
        def step(d: dict, status: str) -> tuple[str, Any]:
            CAL.record(d, **changes)
            return status, None
        return await self._mutate(league_id, None, step, system=True)

    async def open_events(self) -> list[LeagueRecord]:
        """The leagues in sign-up or running whose clock work is this process's (:meth:`_mine`):
        those whose calendar entry the clock keeps in step and whose reminders it sends."""
        return await self._mine(("signup", "running"))

    async def set_bracket_message(self, league_id: int, info: dict) -> None:
        """Where the bracket picture is posted (``{"round", "refs", "digest"}``: the round it
        shows, its messages ``"<channel>:<message>"``, what it drew)."""
        def step(d: dict, status: str) -> tuple[str, Any]:
            d["bracket_message"] = info
            return status, None
        await self._mutate(league_id, None, step, system=True)

    async def close(self, league_id: int, guild_id: int, by: int | None = None) -> Result:
        def step(d: dict, status: str) -> tuple[str, Any]:
            if status == "closed":
                raise L.LeagueError("leagues.err.closed")
            d["closed_from"] = status
            return "closed", None
        return await self._mutate(league_id, guild_id, step, by=by, act="close")

    async def next_round(self, league_id: int, guild_id: int, by: int | None = None) -> Result:
        now = self.now()

        def step(d: dict, status: str) -> tuple[str, Any]:
            if status != "running":
                raise L.LeagueError("leagues.err.not_running")
            open_ = [p for p in L.round_pairings(d) if p["result"] is None or p["held"]]
            if open_:
                raise L.LeagueError("leagues.err.round_open", pairings=", ".join(f"#{p['id']}" for p in open_))
            state, paired = L.advance(d, now, by_hand=True)
            return ("finished" if state == "finished" else status), paired
        return await self._mutate(league_id, guild_id, step, by=by, act="next_round")

    async def told_ready(self, league_id: int, rnd: int) -> bool:
        """Mark that the organiser was told round ``rnd`` is complete (pairing by hand); False
        when someone already told it."""
        def step(d: dict, status: str) -> tuple[str, Any]:
            if d.get("round_ready_told") == rnd:
                raise L.LeagueError("leagues.err.ignored")
            d["round_ready_told"] = rnd
            return status, None
        return (await self._mutate(league_id, None, step, system=True)).ok

    def _after_result(self, d: dict, status: str) -> tuple[str, list]:
        state, paired = L.advance(d, self.now())
        return ("finished" if state == "finished" else status), paired

    async def report(self, league_id: int, guild_id: int, pairing_id: int, by: int, outcome: str,
                     organiser: bool, score: str | None = None) -> Result:
        """A report (an organiser's counts at once; a player's with its game score for best of 3
        or 5, :mod:`host.events.reports`).  Payload ``{"state", "paired", "void"}``: ``void``,
        the pairings an organiser's correction took out of a bracket."""
        now = self.now()

        def step(d: dict, status: str) -> tuple[str, Any]:
            state = L.report(d, status, pairing_id, by, outcome, organiser, score=score, now=now)
            seen = len((d.get("bracket") or {}).get("void") or [])
            new_status, paired = self._after_result(d, status) if state == "final" else (status, [])
            void = [p["id"] for p in ((d.get("bracket") or {}).get("void") or [])[seen:]]
            return new_status, {"state": state, "paired": paired, "void": void}
        return await self._mutate(league_id, guild_id, step, by=by, act="decide" if organiser else "report",
                                  target=int(pairing_id))

    async def answer_report(self, league_id: int, guild_id: int, pairing_id: int, by: int, agree: bool) -> Result:
        """The opponent's Confirm (``agree``) or Dispute of the report waiting for them.  Payload
        ``{"state": "final" | "held", "paired"}``."""
        def step(d: dict, status: str) -> tuple[str, Any]:
            if agree:
                RP.confirm(d, status, pairing_id, by)
                new_status, paired = self._after_result(d, status)
                return new_status, {"state": "final", "paired": paired}
            RP.dispute(d, status, pairing_id, by)
            return status, {"state": "held", "paired": []}
        return await self._mutate(league_id, guild_id, step, by=by, act="confirm" if agree else "dispute",
                                  target=int(pairing_id))

    async def confirm_due(self) -> list[Result]:
        """The bot confirms the reports left unanswered for the organiser's ``confirm_minutes``
        (payload ``{"confirmed": [pairings], "paired"}``), one league at a time."""
        out = []
        now = self.now()
        for lg in await self._mine(("running",)):
            try:
                if not RP.due(lg.data, now):
                    continue
            except Exception:
                log.exception("league %s: its reports cannot be read", lg.id)
                continue

            def step(d: dict, status: str) -> tuple[str, Any]:
                done = RP.auto_confirm(d, status, now)
                if not done:
                    raise L.LeagueError("leagues.err.ignored")
                new_status, paired = self._after_result(d, status)
                return new_status, {"confirmed": done, "paired": paired, "state": "final"}
            try:
                res = await self._mutate(lg.id, None, step, system=True, act="auto_confirm")
            except Exception:
                log.exception("league %s: confirming reports failed", lg.id)
                continue
            if res.ok:
                out.append(res)
        return out

    async def forfeit(self, league_id: int, guild_id: int, pairing_id: int, loser: int | None,
                      by: int | None = None) -> Result:
        def step(d: dict, status: str) -> tuple[str, Any]:
            L.forfeit(d, status, pairing_id, loser)
            new_status, paired = self._after_result(d, status)
            return new_status, {"state": "final", "paired": paired}
        return await self._mutate(league_id, guild_id, step, by=by, act="forfeit", target=int(pairing_id))

    async def claim(self, league_id: int, guild_id: int, pairing_id: int, by: int) -> Result:
        lg = await self.get(league_id)
        if lg is not None and lg.guild_id == int(guild_id) and await self.catch_up(lg):
            # the pairing's match had finished: its result stands, no forfeit to claim
            lg = await self.get(league_id)
        active, waiting, begun = False, None, False
        if lg is not None:
            p = next((p for p in lg.data["pairings"] if p["id"] == int(pairing_id)), None)
            if p is not None and p.get("match"):
                m = await self._match(p["match"])
                active = m is not None and m.status == ACTIVE
                begun = m is not None and m.status in (ACTIVE, FINISHED)
                waiting = m if m is not None and m.status in (PENDING, OPEN) else None
        now = self.now()

        def step(d: dict, status: str) -> tuple[str, Any]:
            q = next((q for q in d["pairings"] if q["id"] == int(pairing_id)), None)
            before = q.get("no_show") if q is not None else None
            state = L.claim(d, status, pairing_id, by, now, active, begun=begun,
                            challenger=waiting.creator if waiting is not None else None)
            new_status, paired = self._after_result(d, status) if state == "final" else (status, [])
            after = L.pairing(d, pairing_id).get("no_show")
            # a no-show claim: its kind ("game", "match") and the rule's minutes, for the words
            no_show = dict(after, minutes=d.get("no_show_minutes")) if after and after != before else None
            return new_status, {"state": state, "paired": paired, "no_show": no_show}

        withdrawn = None
        if waiting is not None and lg is not None and lg.guild_id == int(guild_id):
            # A challenge nobody accepted does not stop a claim, but it must not start after
            # the forfeit: withdraw it first (once the claim is known to be allowed).
            try:
                step(copy.deepcopy(lg.data), lg.status)
            except L.LeagueError as e:
                return Result.fail(e.key, **e.params)
            withdrawn = await self.host.decline(waiting.id, waiting.creator)
            if not withdrawn.ok:   # accepted at this very moment: it is being played now
                return Result.fail("leagues.err.match_running", match_id=waiting.id)
        res = await self._mutate(league_id, guild_id, step, by=by, act="claim", target=int(pairing_id))
        if res.ok and withdrawn is not None:
            res.data["withdrawn"] = withdrawn
        return res

    async def pairing_clocks(self, lg: LeagueRecord, pairings: list[dict] | None = None,
                             limit: int = CLOCKS_SHOWN) -> dict[int, dict]:
        """What the event message and ``/league schedule`` show of the open pairings' clocks
        (``pairings``: those to look at, default the current ones; at most ``limit`` games read):
        ``{pairing id: {"banks": [(user, seconds left)], "deadline": instant or None, "away":
        [(user, until)]}}`` — each player's bank and the deadline of the game being played, as its
        board shows them (host/clocks/match.py: as they stood before a secret window), and each
        player on vacation now (``store.on_vacation``).  A pairing with nothing to show is left
        out; a store that fails leaves out what it could not read (logged)."""
        now = self.now()
        open_ = [p for p in (L.round_pairings(lg.data) if pairings is None else pairings)
                 if p.get("b") is not None and p.get("result") is None]
        ids = sorted({u for p in open_ for u in (p["a"], p["b"])})
        away: dict[int, float] = {}
        if ids:
            try:
                away = await self.store.on_vacation(ids, now)
            except Exception:
                log.exception("league %s: the players' vacations could not be read", lg.id)
        out: dict[int, dict] = {}
        tc = EC.control_of(lg.data)
        read = 0 if tc is not None and tc.is_bank else limit       # only a bank's games have banks to show
        for p in open_:
            info: dict[str, Any] = {}
            gone = [(u, away[u]) for u in (p["a"], p["b"]) if u in away]
            if gone:
                info["away"] = gone
            if p.get("match") and read < limit:
                read += 1
                rec = await self._match(p["match"])
                mc = bank_clock.read(rec) if rec is not None and rec.status == ACTIVE \
                    and rec.meta.get("league") == lg.id else None
                if mc is not None and mc.banks is not None:
                    banks, due = bank_clock.public(mc, rec.deadline)
                    info["banks"] = [(u, banks[s]) for s, u in enumerate(rec.seats) if u is not None and s < len(banks)]
                    info["deadline"] = due
            if info:
                out[p["id"]] = info
        return out

    async def _match(self, match_id: int) -> MatchRecord | None:
        try:
            return await self.store.get_match(int(match_id))
        except Exception:
            return None

    # ------------------------------------------------------------------ registration (host/events/entry.py)
    async def settings(self, league_id: int, guild_id: int, by: int, **changes: Any) -> Result:
        """``/league-admin settings``: the player cap, the start time, the check-in minutes, the
        no-show minutes, open decklists (:func:`host.events.entry.configure`), best of N for the
        rounds and the top cut and the round time limit (:func:`host.events.bestof.configure`),
        during sign-up; the minutes after which the bot confirms a report nobody answered
        (``confirm_minutes``, :func:`host.events.reports.configure`), until the event ends; the
        clock of the event's games and the round length (``time_control``, ``vacation``,
        ``weekend_pause``, ``hours``, ``zone``, ``round_days``: :func:`host.events.clock.configure`);
        whether its players may ask for takebacks (``takebacks``: :func:`host.events.judge.configure_takebacks`).
        Payload: ``{"changed", "moved"}``."""
        now = self.now()
        series = {k: changes.pop(k) for k in list(changes) if k in BO.SETTINGS}
        clock = {k: changes.pop(k) for k in list(changes) if k in EC.SETTINGS}
        confirm = changes.pop("confirm_minutes", False)
        by_hand = changes.pop("pair_by_hand", None)
        takebacks = changes.pop("takebacks", None)
        limited = changes.pop("limited", False)        # "sealed", "draft", None: constructed
        refused = await self.limited.setting(league_id, guild_id, limited, changes)
        if refused is not None:
            return refused

        def step(d: dict, status: str) -> tuple[str, Any]:
            # the bot's confirmation of reports and pairing by hand may change while the event runs
            changed = LE.configure(d, status, limited, games=LIMITED_GAMES) if limited is not False else []
            changed += RP.configure(d, status, confirm) if confirm is not False else []
            changed += ST.configure_pairing(d, status, by_hand) if by_hand is not None else []
            changed += JG.configure_takebacks(d, status, takebacks) if takebacks is not None else []
            changed += BO.configure(d, status, **series)      # best of N, the round time limit
            changed += EC.configure(d, status, **clock)       # the games' clock, the round length
            out = E.configure(d, status, now, **changes) if changes or (confirm is False and by_hand is None
                                                                        and takebacks is None and limited is False) \
                else {"changed": [], "moved": []}
            out["changed"] = out["changed"] + changed
            return status, out
        return await self._mutate(league_id, guild_id, step, by=by, act="settings")

    async def checkin(self, league_id: int, guild_id: int, user_id: int, *, by: int | None = None,
                      organiser: bool = False, deck: Any = None, kind: str = "code",
                      label: str | None = None) -> Result:
        """A check-in: the player's own (in the window) or, with ``organiser``, an organiser's
        (``by``: who, at any time before the start).  ``deck`` (a ready-made
        deck id or a legal spec; ``kind`` and ``label`` say what the player chose): registered
        and locked for the event in the same write — also for a player already checked in who
        has no deck yet, and in an event without check-in (the deck alone).  Payload:
        ``{"status": "registered"|"waiting"|None, "place", "deck"}``."""
        now = self.now()

        def step(d: dict, status: str) -> tuple[str, Any]:
            out: dict[str, Any] = {"status": None, "deck": None}
            if status != "signup":
                raise L.LeagueError("events.err.started")
            if deck is None or (E.has_checkin(d) and not E.checked_in(d, user_id)):
                out["status"] = E.check_in(d, status, user_id, now, by_organiser=organiser)
            if deck is not None:
                out["deck"] = E.register_deck(d, status, user_id, deck, now, kind=kind, label=label)
            out["place"] = E.place(d, user_id)
            return status, out
        return await self._mutate(league_id, guild_id, step, by=user_id if by is None else by, act="checkin")

    async def checkin_due(self) -> list[Result]:
        """Sign-up leagues whose check-in has just opened, marked as told (once each): the bot
        says so in the league channel and shows the Check-in button."""
        out = []
        now = self.now()
        for lg in await self._mine(("signup",)):
            try:
                if not E.checkin_due(lg.data, lg.status, now):
                    continue
            except Exception:
                log.exception("league %s: its registration cannot be read", lg.id)
                continue

            def step(d: dict, status: str) -> tuple[str, Any]:
                if not E.checkin_due(d, status, now):
                    raise L.LeagueError("leagues.err.ignored")
                d["checkin_told"] = now
                return status, None
            res = await self._mutate(lg.id, None, step, system=True)
            if res.ok:
                out.append(res)
        return out

    # ------------------------------------------------------------------ bot matches
    async def play(self, league_id: int, guild_id: int, user_id: int, channel_id: int | None,
                   locale: str = "en", deck: Any = None) -> Result:
        """Start the caller's current pairing as a bot match (a challenge to the opponent).
        ``deck``: the caller's deck for a card game (see ``host.decks.DeckBook.for_play``);
        the opponent picks theirs when accepting.  A pairing played best of 3 or 5: game 1 with
        the series' first player (refused until an elimination's higher seed chose), a later game
        through :meth:`host.series_table.SeriesTable.next_game`.  Data: ``pairing``, and
        ``first`` when the series says who moves first."""
        lg = await self.get(league_id)
        if lg is None or lg.guild_id != int(guild_id):
            return Result.fail("leagues.err.no_league", league=league_id)
        if lg.status != "running":
            return Result.fail("leagues.err.not_running")
        d = lg.data
        p = L.pairing_of(d, int(user_id))
        if p is None:
            return Result.fail("leagues.err.no_open_pairing", round=d["round"])
        if p.get("match"):
            m = await self._match(p["match"])
            if m is not None and m.status in UNFINISHED:
                return Result.fail("leagues.err.match_exists", match_id=m.id)
        try:   # best of 3 or 5: who moves first is the series' (a draw, a choice, SQUARES' rule)
            first = BO.first_for_play(d, p)
        except L.LeagueError as e:
            return Result.fail(e.key, **e.params)
        if first is not None and p.get("match") and BO.played(p):
            # a later game: started in the thread of the one before, for both players at once
            return await self.series.next_game(lg.id, p["id"])
        opponent = p["b"] if p["a"] == user_id else p["a"]
        names = {q["id"]: q["name"] for q in d["players"]}
        meta = L.match_meta(d, lg.id, p["id"])
        if p.get("series"):
            meta["game"] = BO.number(p)
        options = BO.first_options(d["game"], 0 if first == user_id else 1) if first is not None else None
        limited, err = await self.limited.match_args(lg, [int(user_id), int(opponent)])
        if err is not None:        # a sealed or draft event: both players' locked decks of their pools
            return err
        if limited:
            options = {**LE.options(d, options), "decks": limited["decks"]}
            meta.update(limited["meta"])
            deck = None
        res = await self.host.challenge(
            d["game"], int(user_id), names.get(user_id, str(user_id)),
            opponents=[(opponent, names.get(opponent, str(opponent)))],
            options=options, guild_id=guild_id, channel_id=channel_id or d.get("channel_id"), locale=locale,
            meta=meta, deck=deck, **EC.challenge_args(d))   # the event's clock, a fresh bank
        if not res.ok:
            return res
        match_id, seen = res.match.id, p.get("match")

        def step(dd: dict, status: str) -> tuple[str, Any]:
            q = L.pairing(dd, p["id"])
            if q.get("match") != seen or q["result"] is not None:
                # someone started (or decided) this pairing at the same moment
                raise L.LeagueError("leagues.err.match_exists", match_id=q.get("match") or "-")
            q["match"] = match_id
            return status, None
        linked = await self._mutate(league_id, guild_id, step)
        if not linked.ok:
            await self.host.decline(match_id, int(user_id))
            return linked
        res.data["pairing"] = p["id"]
        if first is not None:
            res.data.update(first=first, n=BO.number(p))
        return res

    async def on_finish(self, rec: MatchRecord) -> Result | None:
        """A finished match of a league pairing reports itself."""
        league_id, pairing_id = rec.meta.get("league"), rec.meta.get("pairing")
        if league_id is None or pairing_id is None or rec.status != FINISHED:
            return None
        winners = [rec.seats[s] for s in (rec.result or {}).get("winners", []) if 0 <= s < len(rec.seats)]
        seated = [u for u in rec.seats if u is not None]
        first = BO.first_of_match(rec.game, rec.options, rec.seats)

        def step(d: dict, status: str) -> tuple[str, Any]:
            if status != "running" or not L.match_result(d, pairing_id, rec.id, winners, seated, first):
                raise L.LeagueError("leagues.err.ignored")
            q = L.pairing(d, pairing_id)
            if q["result"] is None and q.get("series") is not None:    # best of 3 or 5: the next game
                return status, {"state": "game", "paired": [], "pairing": q, "match": rec.id}
            if q["result"] is None:    # a drawn elimination match: again
                return status, {"state": "replay", "paired": [], "pairing": q, "match": rec.id}
            new_status, paired = self._after_result(d, status)
            return new_status, {"state": "final", "paired": paired}
        res = await self._mutate(int(league_id), None, step, system=True, act="match", target=int(pairing_id))
        return res if res.ok else None

    async def catch_up(self, league: LeagueRecord | None = None) -> list[Result]:
        """Report the league matches that finished without being reported (the bot stopped
        between the match's end and the report): every running league, or just ``league``."""
        out = []
        leagues = [league] if league is not None else await self._mine(("running",))
        for lg in leagues:
            if lg is None or lg.status != "running":
                continue
            try:   # one league that fails never stops the others
                out += await self._catch_up_one(lg)
            except Exception:
                log.exception("league %s: reporting finished matches failed", lg.id)
        return out

    async def _catch_up_one(self, lg: LeagueRecord) -> list[Result]:
        out = []
        for p in L.round_pairings(lg.data):
            if p["result"] is not None or not p.get("match"):
                continue
            rec = await self._match(p["match"])
            if rec is None or rec.status != FINISHED or rec.meta.get("league") != lg.id:
                continue
            res = await self.on_finish(rec)
            if res is not None:
                out.append(res)
        return out

    async def tick(self) -> list[Result]:
        """Start leagues whose sign-up window has ended with at least two players (data
        ``started``) and call off those it ended with fewer (``cancelled``: nobody can join
        any more, so they could never start) — also an event with check-in whose start came with
        fewer than two checked in (``d["cancelled"] == "too_few_checkin"``, the payload the
        number checked in) — report league matches that finished unreported (``caught_up``),
        apply the round time limits (``time_up``: :meth:`host.series_table.SeriesTable.time_up`),
        and announce pairings whose deadline has passed (once each): they may now be claimed."""
        out = []
        now = self.now()
        for lg in await self._mine(("signup",)):
            until = lg.data.get("signup_until")
            if until is None or now < until:
                continue

            def begin(d: dict, status: str, extra: dict) -> tuple[str, Any]:
                if status != "signup":
                    raise L.LeagueError("leagues.err.started")
                if len(L.active_ids(d)) < 2:
                    d["closed_from"], d["cancelled"] = status, "too_few"
                    return "closed", len(L.active_ids(d))
                try:      # tried on a copy: a refused start changes nothing
                    L.start(copy.deepcopy(d), status, now, **extra)
                except L.LeagueError as e:
                    if e.key != "leagues.err.too_few":
                        raise
                    # fewer than two checked in by the start: called off, not tried every minute
                    d["closed_from"], d["cancelled"] = status, "too_few_checkin"
                    return "closed", int(e.params.get("n", 0))
                return "running", L.start(d, status, now, **extra)
            try:
                extra = await self.start_args(lg)
                res = await self._mutate(lg.id, None, lambda d, status, extra=extra: begin(d, status, extra),
                                         system=True, act="start")
            except Exception:   # one league that fails never stops the others
                log.exception("league %s: starting after sign-up failed", lg.id)
                continue
            if res.ok:
                res.data["cancelled" if res.data["league"].status == "closed" else "started"] = True
                out.append(await self.limited.after_start(res))
        out += await self.limited.due()        # a sealed or draft event's pools opened late
        for res in await self.catch_up():
            res.data["caught_up"] = True
            out.append(res)
        out += await self.series.time_up()        # the round time limit (data "time_up")
        for lg in await self._mine(("running",)):
            try:
                if not L.overdue(lg.data, now):
                    continue
            except Exception:
                log.exception("league %s: its pairings cannot be read", lg.id)
                continue

            def step(d: dict, status: str) -> tuple[str, Any]:
                due = L.overdue(d, now)
                for p in due:
                    p["overdue"] = True
                if not due:
                    raise L.LeagueError("leagues.err.ignored")
                return status, due
            try:
                res = await self._mutate(lg.id, None, step, system=True)
            except Exception:
                log.exception("league %s: marking overdue pairings failed", lg.id)
                continue
            if res.ok:
                out.append(res)
        return out
