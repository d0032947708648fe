"""Events in the server's Discord calendar: each event with a start time is a guild scheduled
event there, kept in step with it, and the members marked "interested" are reminded to sign up.

Thin: what the entry should be, what to change, when to remind and whom are
:mod:`host.events.calendar`; its bookkeeping (the entry's id, what it shows, the organiser told,
the members reminded) is written in the league document by
:meth:`host.league_service.Leagues.set_calendar`.  This cog only makes the Discord calls:

* :meth:`LeagueCalendar.sync` — on every refresh of the event message (cogs/leagues.py, which
  follows every change: made, sign-ups, settings, start, results, end, called off) and on each
  tick of the leagues' one clock: the entry made (``Guild.create_scheduled_event``, an
  ``EXTERNAL`` entry whose place is the league channel), brought in step
  (``ScheduledEvent.edit``: name, start, end, description, status), ended or cancelled.  An
  event whose entry already shows what it should costs no call.
* :meth:`LeagueCalendar.tick_once` — run by the leagues' clock (cogs/leagues.py): the reminder
  rounds due (``ScheduledEvent.users``: a DM to each interested member not signed up, once each;
  a ping in the league channel for one whose DMs are closed, as a player whose DMs are closed is
  told in the match thread), then :meth:`sync` for every open event of this process.

Only the Manage Events permission is needed (Discord's newer Create Events covers the bot's own
entries too).  Without it — known from the gateway's cache, so no refused call is made — the
event works as before and its organiser is told once, by DM (the bookkeeping's ``told``).  Names
shown in a message go through :func:`cogs.common.safe_text`; nothing here raises out of a refresh
or a tick (logged instead).
"""
from __future__ import annotations

import asyncio
import datetime as dt
import logging
from typing import Any

import discord
from discord.ext import commands

from cogs.common import NO_PINGS, clip, safe_text, tr, transient
from data import i18n
from data.store import LeagueRecord
from host.events import calendar as CAL

log = logging.getLogger("cogs.league_calendar")


def when(t: float) -> dt.datetime:
    """An instant as the aware datetime discord.py sends."""
    return dt.datetime.fromtimestamp(float(t), dt.timezone.utc)


def live_of(event: Any) -> dict[str, Any]:
    """A scheduled event as :func:`host.events.calendar.changes` reads it."""
    end = getattr(event, "end_time", None)
    return {"status": int(event.status.value), "name": event.name, "start": event.start_time.timestamp(),
            "end": end.timestamp() if end else None, "location": getattr(event, "location", None),
            "description": event.description}


def permitted(guild: Any) -> bool:
    """May the bot make and change the server's scheduled events (its roles, as the gateway told)?"""
    me = getattr(guild, "me", None)
    if me is None:
        return False
    perms = me.guild_permissions
    return bool(perms.administrator or perms.manage_events or getattr(perms, "create_events", False))


class LeagueCalendar(commands.Cog):
    """The server's calendar entries of its events (module doc)."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self._locks: dict[int, asyncio.Lock] = {}

    @property
    def leagues(self) -> Any:
        return self.bot.get_cog("Leagues")

    def _lock(self, league_id: int) -> asyncio.Lock:
        lock = self._locks.get(int(league_id))
        if lock is None:
            lock = self._locks[int(league_id)] = asyncio.Lock()
        return lock

    def _now(self) -> float:
        return float(self.bot.host.now())  # type: ignore[attr-defined]

    def _guild(self, lg: LeagueRecord) -> Any:
        """The event's server from the gateway's cache (None: not this process's, or unknown)."""
        return self.bot.get_guild(int(lg.guild_id)) if lg.guild_id else None

    async def _public(self, lg: LeagueRecord) -> str:
        cog = self.leagues
        if cog is None:
            return i18n.locale_of(lg.data.get("locale", "en"))
        return await cog.public_locale(lg.guild_id, lg)

    async def want(self, lg: LeagueRecord, guild: Any) -> CAL.Entry | None:
        """What the event's entry should be now (None: it has no start)."""
        d = lg.data
        if CAL.start_of(d) is None:
            return None
        cid = d.get("channel_id")
        channel = guild.get_channel(int(cid)) if cid else None
        link = f"https://discord.com/channels/{guild.id}/{int(cid)}" if cid else None
        return CAL.entry(d, lg.status, locale=await self._public(lg), channel=getattr(channel, "name", None),
                         link=link, words=safe_text)

    # ------------------------------------------------------------------ keeping the entry in step
    async def sync(self, lg: LeagueRecord) -> None:
        """Bring the event's calendar entry in step with the event (module doc); never raises."""
        try:
            await self._sync(lg)
        except Exception as e:
            if not transient(e):      # the database failing for a moment: the next refresh or tick again
                log.exception("league %s: its calendar entry could not be kept in step", lg.id)

    async def _sync(self, lg: LeagueRecord) -> None:
        st = CAL.state(lg.data)
        if st.get("gone") or (not st.get("id") and (lg.status != "signup" or CAL.start_of(lg.data) is None)):
            return          # nothing in the calendar, and nothing to put there
        guild = self._guild(lg)
        if guild is None:
            return
        now = self._now()
        if CAL.action(lg.data, lg.status, now, await self.want(lg, guild), permitted=permitted(guild)) == "none":
            return
        async with self._lock(lg.id):
            fresh = await self.bot.store.get_league(lg.id)  # type: ignore[attr-defined]
            if fresh is None:
                return
            want = await self.want(fresh, guild)
            what = CAL.action(fresh.data, fresh.status, now, want, permitted=permitted(guild))
            if what == "create":
                await self._create(fresh, guild, want, now)    # type: ignore[arg-type]
            elif what == "update":
                await self._update(fresh, guild, want, now)
            elif what == "tell":
                await self._tell_organiser(fresh)

    async def _record(self, lg: LeagueRecord, **changes: Any) -> bool:
        cog = self.leagues
        if cog is None:
            return False
        return (await cog.service.set_calendar(lg.id, **changes)).ok

    async def _create(self, lg: LeagueRecord, guild: Any, want: CAL.Entry, now: float) -> None:
        try:
            event = await guild.create_scheduled_event(
                name=want.name, start_time=when(want.start), end_time=when(CAL.sendable_end(want, now)),
                entity_type=discord.EntityType.external, privacy_level=discord.PrivacyLevel.guild_only,
                location=want.location, description=want.description)
        except discord.Forbidden:
            await self._tell_organiser(lg)
            return
        except discord.HTTPException as exc:
            log.info("league %s: Discord refused its calendar entry (%s %s)", lg.id, exc.status, exc.code)
            await self._record(lg, refused=want.shown())
            return
        await self._record(lg, id=int(event.id), shown=want.shown(), made_at=now, refused=None)

    async def _update(self, lg: LeagueRecord, guild: Any, want: CAL.Entry | None, now: float) -> None:
        st = CAL.state(lg.data)
        try:
            event = await guild.fetch_scheduled_event(int(st["id"]), with_counts=False)
        except discord.NotFound:        # deleted by hand in Discord: left alone from now on
            await self._record(lg, gone=True)
            return
        except discord.Forbidden:
            await self._tell_organiser(lg)
            return
        except discord.HTTPException as exc:
            log.info("league %s: its calendar entry could not be read (%s)", lg.id, exc.status)
            return
        done = CAL.changes(want, live_of(event), now)
        try:
            if done["delete"]:
                await event.delete()
            else:
                kw: dict[str, Any] = {}
                for key, value in done["fields"].items():
                    if key in ("start", "end"):
                        kw[f"{key}_time"] = when(value)
                    else:
                        kw[key] = value
                statuses = list(done["statuses"])
                if statuses:         # the first status change in the same call as the fields
                    kw["status"] = discord.EventStatus(statuses.pop(0))
                if kw:
                    event = await event.edit(**kw)
                for status in statuses:
                    event = await event.edit(status=discord.EventStatus(status))
        except discord.NotFound:
            await self._record(lg, gone=True)
            return
        except discord.Forbidden:
            await self._tell_organiser(lg)
            return
        except discord.HTTPException as exc:
            log.info("league %s: Discord refused a change of its calendar entry (%s %s)", lg.id, exc.status, exc.code)
            await self._record(lg, refused=want.shown() if want is not None else {"status": CAL.CANCELED})
            return
        await self._record(lg, **CAL.settled(want, done), refused=None)

    # ------------------------------------------------------------------ telling
    async def _locales(self, lg: LeagueRecord, user_ids: list[int]) -> dict[int, str]:
        """Each member's own language (their settings), else the server's."""
        public = await self._public(lg)
        try:
            raw = await self.bot.store.player_settings_many(list(user_ids))  # type: ignore[attr-defined]
        except Exception:
            log.info("league %s: the members' languages could not be read", lg.id)
            raw = {}
        out = {}
        for uid in user_ids:
            own = (raw.get(uid) or {}).get("locale") if isinstance(raw.get(uid), dict) else None
            out[uid] = own if own in i18n.LOCALES else public
        return out

    async def _dm(self, lg: LeagueRecord, user_id: int, text: str, in_channel: str) -> bool:
        """A DM to a member; when their DMs are closed, ``in_channel`` in the league channel
        instead, pinging them.  True when either was sent."""
        try:
            dm = await self.bot.create_dm(discord.Object(int(user_id)))
            await dm.send(content=clip(text, 2000), allowed_mentions=NO_PINGS)
            return True
        except discord.Forbidden as exc:
            log.info("league %s: DMs closed for user %s (code %s): told in the league channel", lg.id, user_id, exc.code)
        except discord.HTTPException as exc:
            log.info("league %s: a DM to user %s failed (%s)", lg.id, user_id, exc.status)
            return False
        cog = self.leagues
        if cog is None:
            return False
        await cog.announce(lg, in_channel, ping=[int(user_id)])
        return True

    async def _tell_organiser(self, lg: LeagueRecord) -> None:
        """The bot may not manage the server's events: the organiser is told, once per event
        (stored first, so a failed DM is not tried again on every change)."""
        if CAL.state(lg.data).get("told") or not await self._record(lg, told=self._now()):
            return
        organiser = lg.data.get("organiser")
        if not organiser:
            return
        locale = (await self._locales(lg, [int(organiser)]))[int(organiser)]
        name = safe_text(lg.data.get("name") or "-")
        text = tr("calendar.no_permission", locale, league=lg.id, name=name)
        public = await self._public(lg)
        await self._dm(lg, int(organiser), text, tr("calendar.no_permission_channel", public,
                                                   mention=f"<@{int(organiser)}>", league=lg.id, name=name))

    # ------------------------------------------------------------------ the clock
    async def tick_once(self) -> int:
        """(Run by the leagues' one clock, :meth:`cogs.leagues.Leagues.deadlines`.)  Every open
        event of this process: its reminder round when due, then its entry kept in step (an
        entry Discord refused, or a permission given since, is tried again here).  Returns the
        members reminded."""
        cog = self.leagues
        if cog is None:
            return 0
        n = 0
        for lg in await cog.service.open_events():
            try:
                if CAL.reminder_due(lg.data, lg.status, self._now()):
                    n += await self._remind(lg)
                await self._sync(lg)
            except Exception as e:
                if transient(e):
                    continue
                log.exception("league %s: its calendar tick failed", lg.id)
        return n

    async def _remind(self, lg: LeagueRecord) -> int:
        """The reminder round: each member marked interested who has not signed up gets a DM,
        once (recorded before sending)."""
        guild = self._guild(lg)
        if guild is None:
            return 0
        async with self._lock(lg.id):
            fresh = await self.bot.store.get_league(lg.id)  # type: ignore[attr-defined]
            if fresh is None or not CAL.reminder_due(fresh.data, fresh.status, self._now()):
                return 0
            try:
                event = await guild.fetch_scheduled_event(int(CAL.state(fresh.data)["id"]), with_counts=True)
                interested = [u.id async for u in event.users(limit=CAL.REMIND_MAX) if not u.bot]
            except discord.NotFound:
                await self._record(fresh, gone=True)
                return 0
            except discord.HTTPException as exc:
                log.info("league %s: who is interested could not be read (%s)", lg.id, exc.status)
                return 0
            me = getattr(self.bot.user, "id", None)
            who = CAL.to_remind(fresh.data, interested, skip={int(me)} if me else set())
            close = float(fresh.data["signup_until"])
            if not await self._record(fresh, reminded=who, reminded_for=close):
                return 0
        locales = await self._locales(fresh, who)
        public = await self._public(fresh)
        name = safe_text(fresh.data.get("name") or "-")
        channel = int(fresh.data.get("channel_id") or 0)
        for uid in who:
            text = tr("calendar.remind", locales[uid], league=fresh.id, name=name, at=int(close), channel=channel)
            await self._dm(fresh, uid, text, tr("calendar.remind_channel", public, mention=f"<@{uid}>",
                                                league=fresh.id, name=name, at=int(close)))
        return len(who)
