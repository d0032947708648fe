"""Telling each player in their own way (docs/clocks.md, "How you are told"): the front end of
:mod:`host.notices`.

* :func:`told` — called by :class:`cogs.delivery.Delivery` for the players a match update would
  ping: it returns whom to ping in the thread now; a player who asked for DMs gets a DM with a
  jump link instead, a player in their quiet hours nothing now (the notice is held), a player
  who takes the digest only nothing.
* :class:`Notices` — a loop every minute: the held notices whose time has come (a ping comes as
  a short message in the match thread, a DM as a DM), the daily digests and the reminders that
  a vacation ends.

A closed DM is handled as :mod:`cogs.dms` handles it: logged, the match remembers it (later
notices of that match ping instead) and the player is told once in the thread how to see their
hand; the notice itself becomes a ping.  Nothing here raises out of a delivery.
"""
from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any, Iterable

import discord
from discord.ext import commands, tasks

from cogs.common import CONTENT_MAX, NO_PINGS, clip, game_name, loc, pings, render_lines, start_clock, tr
from data.store import ACTIVE
from host.clocks import turns
from host.notices import DIGEST, REMIND, TURN, VACATION_END, Notice
from host.notices import Notices as HostNotices

log = logging.getLogger("cogs.notices")

LOOP_SECONDS = 60


# --------------------------------------------------------------------------- words
def match_url(guild_id: int | None, channel_id: int | None) -> str | None:
    """The link that opens a match's thread (its newest message is the board)."""
    if channel_id is None:
        return None
    return f"https://discord.com/channels/{guild_id or '@me'}/{int(channel_id)}"


def headline(notice: Notice, locale: str) -> str:
    """What the notice says, in ``locale``: which match, what for, and the deadline as a Discord
    timestamp."""
    game = game_name(notice.game, locale) if notice.game else "?"
    at = int(notice.deadline) if notice.deadline is not None else None
    where = {"game": game, "match_id": notice.match_id}
    if notice.kind == REMIND and at is not None:
        return tr("notices.remind", locale, at=at, **where)
    if notice.kind in (TURN, REMIND):
        return tr("notices.turn_deadline", locale, at=at, **where) if at is not None \
            else tr("notices.turn", locale, **where)
    if notice.kind == VACATION_END and at is not None:
        return tr("notices.vacation_end", locale, at=at, **where)
    lines = render_lines(notice.lines, locale)
    return "\n".join([tr("notices.news", locale, **where)] + [clip(line, 300) for line in lines])


def ping_text(notice: Notice, locale: str) -> str:
    return clip(tr("notices.ping", locale, mention=f"<@{int(notice.user_id)}>", text=headline(notice, locale)),
                CONTENT_MAX)


def _chunks(texts: Iterable[str], limit: int = CONTENT_MAX) -> list[str]:
    """Texts joined by blank lines into as few messages of at most ``limit`` characters as fit."""
    out: list[str] = []
    for text in texts:
        text = clip(text, limit)
        if out and len(out[-1]) + 2 + len(text) <= limit:
            out[-1] += "\n\n" + text
        else:
            out.append(text)
    return out


# --------------------------------------------------------------------------- the host's side
def core(bot: Any) -> HostNotices:
    """The process's :class:`host.notices.Notices` (the loop's), or one for this call."""
    cog = bot.get_cog("Notices")
    return cog.core if cog is not None else HostNotices(bot.store)


async def told(delivery: Any, rec: Any, refs: dict[str, str], result: Any, ping_ids: list[int],
               turn: Iterable[int]) -> list[int]:
    """Of ``ping_ids`` (whom a match update would ping), those to ping in the thread now.  Those
    in ``turn`` are told it is their turn; with the clock's reminder the players it concerns are
    reminded (at most once per match per local day); the others hear ``news``.  DMs go out
    here; held notices are queued."""
    if not ping_ids:
        return ping_ids
    data = getattr(result, "data", None) or {}
    notify = {int(u) for u in getattr(result, "notify", None) or [] if u}
    turn_set = {int(u) for u in turn if u}
    remind = [u for u in ping_ids if data.get("clock") == "reminder" and int(u) in notify]
    turns_ = [u for u in ping_ids if int(u) in turn_set and u not in remind]
    news = [u for u in ping_ids if u not in remind and int(u) not in turn_set]
    public = getattr(result, "public", None)
    # what everyone may read, never the caller's own reply (``info`` may name a secret choice)
    lines = list(getattr(public, "text", None) or [])
    closed = [u for u in ping_ids if refs.get(f"dmclosed:{u}")]
    plan = await core(delivery.bot).route(rec, delivery.host.now(), turn=turns_, remind=remind, news=news,
                                          lines=lines, no_dm=closed)
    now_ping = {int(u) for u in plan.ping}
    for uid, group in _by_user(plan.dm).items():
        _, failed = await _dm(delivery, uid, group)
        now_ping |= {n.user_id for n in failed}      # DMs closed: a ping instead
    return [u for u in ping_ids if int(u) in now_ping]


def _by_user(notices: Iterable[Notice]) -> dict[int, list[Notice]]:
    out: dict[int, list[Notice]] = {}
    for n in notices:
        out.setdefault(n.user_id, []).append(n)
    return out


# --------------------------------------------------------------------------- sending
async def send(delivery: Any, notices: Iterable[Notice]) -> int:
    """Send what :meth:`host.notices.Notices.notices_tick` returned: pings in their match
    threads, DMs (one message per player where they fit); the messages sent."""
    sent = 0
    dms: dict[int, list[Notice]] = {}
    pinged: list[Notice] = []
    for n in notices:
        if n.how == "ping" and n.kind != DIGEST and n.match_id is not None:
            pinged.append(n)
        else:
            dms.setdefault(n.user_id, []).append(n)
    for uid, group in dms.items():
        count, failed = await _dm(delivery, uid, group)
        sent += count
        pinged += [replace(n, how="ping") for n in failed]
    for n in pinged:
        try:
            sent += await _ping(delivery, n)
        except Exception:
            log.exception("notices: a ping to user %s for match %s failed", n.user_id, n.match_id)
    return sent


async def _ping(delivery: Any, notice: Notice) -> int:
    """A held ping: a short message in the match thread pinging exactly that player."""
    rec = await delivery.store.get_match(int(notice.match_id))
    if rec is None or rec.status != ACTIVE:
        return 0
    refs = await delivery.store.get_refs(rec.id)
    locale = await delivery.public_locale(rec)
    message = await delivery._post(rec, refs, content=ping_text(notice, locale),
                                   allowed_mentions=pings([notice.user_id]))
    return 1 if message is not None else 0


async def _locale(delivery: Any, notice: Notice) -> str:
    """The player's own language: their settings, else what the match remembers of them, else
    the match's."""
    if notice.locale:
        return notice.locale
    if notice.match_id is not None:
        try:
            refs = await delivery.store.get_refs(int(notice.match_id))
            if refs.get(f"loc:{notice.user_id}"):
                return loc(refs[f"loc:{notice.user_id}"])
            rec = await delivery.store.get_match(int(notice.match_id))
            if rec is not None:
                return loc((rec.meta or {}).get("locale", "en"))
        except Exception:
            log.debug("notices: the language of user %s could not be read", notice.user_id, exc_info=True)
    return "en"


def _may_see(bot: Any, guild_id: int | None, channel_id: int | None, user_id: int) -> bool:
    """May the player see that server and channel (as far as the bot knows; a server it no
    longer shares: no)?"""
    if guild_id is None:
        return True
    guild = bot.get_guild(int(guild_id))
    if guild is None:
        return False
    member = guild.get_member(int(user_id))
    if member is None:
        return not guild.chunked       # members unknown: they played there
    channel = guild.get_channel_or_thread(int(channel_id)) if channel_id else None
    return channel is None or channel.permissions_for(member).view_channel


def _dm_text(bot: Any, notice: Notice, locale: str) -> str | None:
    if notice.kind == DIGEST:
        rows = [replace(row, url=match_url(row.guild_id, notice.channels.get(row.match_id)),
                        visible=_may_see(bot, row.guild_id, notice.channels.get(row.match_id), notice.user_id))
                for row in notice.rows]
        return turns.digest_text(rows, locale)
    url = match_url(notice.guild_id, notice.channel_id)
    text = headline(notice, locale)
    return text + "\n" + tr("notices.link", locale, url=url) if url else text


async def _dm(delivery: Any, user_id: int, group: list[Notice]) -> tuple[int, list[Notice]]:
    """DM one player their notices, in their language; (messages sent, the match notices that
    could not go because their DMs are closed)."""
    if delivery._is_me(user_id):
        return 0, []
    locale = await _locale(delivery, group[0])
    texts = [t for t in (_dm_text(delivery.bot, n, locale) for n in group) if t]
    if not texts:
        return 0, []
    sent = 0
    try:
        dm = await delivery.bot.create_dm(discord.Object(int(user_id)))
        for content in _chunks(texts):
            await dm.send(content=content, allowed_mentions=NO_PINGS)
            sent += 1
    except discord.Forbidden as exc:
        log.info("notices: DMs closed for user %s (code %s)", user_id, exc.code)
        failed = [n for n in group if n.kind != DIGEST and n.match_id is not None]
        for match_id in dict.fromkeys(n.match_id for n in failed):
            try:
                rec = await delivery.store.get_match(int(match_id))
                if rec is not None:
                    await delivery._dm_closed(rec, await delivery.store.get_refs(rec.id), int(user_id))
            except Exception:
                log.exception("notices: match %s: remembering closed DMs failed", match_id)
        return sent, failed
    except discord.HTTPException as exc:
        log.warning("notices: a DM to user %s failed (%s)", user_id, exc.status)
    return sent, []


# --------------------------------------------------------------------------- the loop
class Notices(commands.Cog):
    """Every minute: held notices whose time has come, daily digests, vacation ends."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.core = HostNotices(bot.store)  # type: ignore[attr-defined]

    async def cog_load(self) -> None:
        start_clock(self.bot, self.loop)

    async def cog_unload(self) -> None:
        self.loop.cancel()

    @tasks.loop(seconds=LOOP_SECONDS)
    async def loop(self) -> None:
        try:
            await self.tick_once()
        except Exception:
            log.exception("notices: the tick failed; the next one tries again")

    @loop.before_loop
    async def _before_loop(self) -> None:
        await self.bot.wait_until_ready()

    async def tick_once(self) -> int:
        """One step of the loop; returns the messages sent."""
        delivery = self.bot.get_cog("Delivery")
        if delivery is None:
            return 0
        notices = await self.core.notices_tick(self.bot.host.now())  # type: ignore[attr-defined]
        return await send(delivery, notices)


async def setup(bot: commands.Bot) -> None:
    """Add the loop (once)."""
    if bot.get_cog("Notices") is None:
        await bot.add_cog(Notices(bot))


__all__ = ["Notices", "headline", "match_url", "send", "setup", "told"]
