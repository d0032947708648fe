"""What a league shows of its bracket (an elimination of everyone, or the top cut after the
Swiss rounds): the picture in the league's channel, kept up to date as results come in, the
answer of ``/league bracket [league] [page] [public]``, and the announcements of its matches.

* **In the channel** (:func:`post_bracket`, called by the Leagues cog after every change): the
  bracket picture (every page, up to ten to a message) is posted when the bracket starts; while
  the league's round stays the same the message is edited in place with the new picture, and
  when the round changes (or the message is too old to edit) a new one is posted — the old one
  stays as it was, with its words.  Where it is and what it drew is kept in the league document
  (``bracket_message``: ``{"round", "refs", "digest"}``), so an unchanged bracket is not drawn
  twice.
* **/league bracket**: anyone; only the caller sees it unless ``public`` is true, like the other
  record commands.  One page of the picture, ◀ ▶ under it when there are more.
* **Announcements** (:func:`announce_matches`): every new elimination pairing, pinging its two
  players, with how to start the match (``/league play``); a drawn match, to be played again.

Thin: the bracket is :mod:`host.events.stages` (over :mod:`host.events.bracket`), the picture
:func:`render.bracket.draw_bracket`; every word comes from the catalog (the round names from the
renderer's ``events.pic.*``).

custom_id template: ``lgb:<league>:<page>`` — a page (from 0) of the picture; persistent (the
:class:`cogs.league_pages.LeaguePage` buttons): the league is read again on every press.
"""
from __future__ import annotations

import asyncio
import hashlib
import io
import json
import logging
from typing import Any

import discord

from cogs.common import (NO_PINGS, clip, mention_line, reply, reply_error, safe_names, safe_text, too_old_to_edit, tr,
                         user_locale)
from cogs.league_pages import page_view, turns
from data.store import LeagueRecord
from host.events import stages
from render.bracket import draw_bracket

log = logging.getLogger("cogs.league_bracket")

PER_MESSAGE = 10          # attachments Discord takes on one message


def stage_text(d: dict, locale: str) -> str:
    """"top 8" / 「決勝トーナメント（上位8名）」, or the elimination's kind."""
    b = d["bracket"]
    if b["stage"] == "cut":
        return tr("events.bracket.stage.cut", locale, n=len(b["structure"]["seeds"]))
    return tr("events.bracket.stage.elimination", locale, kind=tr(f"leagues.format.{b['kind']}", locale))


def caption(lg: LeagueRecord, locale: str) -> str:
    d = lg.data
    champion = stages.champion(d)
    if champion is not None:
        return tr("events.bracket.post.final", locale, league=lg.id, name=safe_text(d["name"]), stage=stage_text(d, locale),
                  champion=safe_names(stages.names(d)).get(champion, str(champion)))
    return tr("events.bracket.post", locale, league=lg.id, name=safe_text(d["name"]), stage=stage_text(d, locale),
              round=d["round"])


def pictures(lg: LeagueRecord, locale: str) -> list[bytes]:
    """Every page of the league's bracket picture (PNG), words in ``locale``."""
    return draw_bracket(stages.view(lg.data), locale)


def _digest(lg: LeagueRecord, locale: str) -> str:
    raw = json.dumps([stages.view(lg.data), locale, lg.data["round"]], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()[:20]


def _files(pngs: list[bytes], first: int = 0) -> list[discord.File]:
    return [discord.File(io.BytesIO(png), filename=f"bracket-{first + i + 1}.png") for i, png in enumerate(pngs)]


def _split(ref: str) -> tuple[int, int] | None:
    a, _, b = str(ref).partition(":")
    return (int(a), int(b)) if a.isdigit() and b.isdigit() else None


# ---------------------------------------------------------------------------- in the channel
async def post_bracket(cog: Any, lg: LeagueRecord) -> None:
    """Post the bracket picture, or bring the posted one up to date (module doc)."""
    d = lg.data
    cid = d.get("channel_id")
    if not d.get("bracket") or not cid:
        return
    locale = await cog.public_locale(lg.guild_id, lg)
    digest = _digest(lg, locale)
    mine = d.get("bracket_message") or {}
    if mine.get("digest") == digest:
        return
    pngs = await asyncio.to_thread(pictures, lg, locale)
    text = clip(caption(lg, locale), 2000)
    chunks = [pngs[i:i + PER_MESSAGE] for i in range(0, len(pngs), PER_MESSAGE)]
    refs = [r for r in (_split(x) for x in mine.get("refs") or []) if r is not None]
    now = cog.bot.host.now()
    if mine.get("round") == d["round"] and len(refs) == len(chunks) \
            and not any(too_old_to_edit(mid, now) for _, mid in refs):
        try:
            for i, ((channel, message), chunk) in enumerate(zip(refs, chunks)):
                await cog.bot.get_partial_messageable(channel).get_partial_message(message).edit(
                    content=text if i == 0 else None, attachments=_files(chunk, i * PER_MESSAGE),
                    allowed_mentions=NO_PINGS)
            await cog.service.set_bracket_message(lg.id, {**mine, "digest": digest})
            return
        except discord.HTTPException:
            log.info("league %s: the bracket message is gone, posting a new one", lg.id)
    posted = []
    try:
        for i, chunk in enumerate(chunks):
            message = await cog.bot.get_partial_messageable(int(cid)).send(
                content=text if i == 0 else None, files=_files(chunk, i * PER_MESSAGE), allowed_mentions=NO_PINGS)
            posted.append(f"{message.channel.id}:{message.id}")
    except discord.HTTPException:
        log.warning("league %s: cannot post the bracket in channel %s", lg.id, cid)
        if not posted:
            return
    await cog.service.set_bracket_message(lg.id, {"round": d["round"], "refs": posted, "digest": digest})


async def announce_matches(cog: Any, lg: LeagueRecord, paired: list[dict], locale: str) -> None:
    """New elimination pairings: their round, the two players (pinged), how to start."""
    d = lg.data
    fresh = [p for p in paired if p.get("bracket") and p["result"] is None]
    if not fresh or not d.get("bracket"):
        return
    names = safe_names(stages.names(d))
    lines = [tr("events.bracket.paired", locale, league=lg.id, name=safe_text(d["name"]), stage=stage_text(d, locale))]
    lines += [tr("events.bracket.pairing_line", locale, pairing=p["id"], round=stages.match_name(d, p["bracket"], locale),
                 a=names.get(p["a"], "?"), b=names.get(p["b"], "?")) for p in fresh]
    who = [u for p in fresh for u in (p["a"], p["b"])]
    lines.append(mention_line(who))
    await cog.announce(lg, "\n".join(lines), ping=who)


async def announce_replay(cog: Any, lg: LeagueRecord, payload: dict, locale: str) -> None:
    """A drawn elimination match: the two play again."""
    p = payload.get("pairing") or {}
    if not p:
        return
    names = safe_names(stages.names(lg.data))
    await cog.announce(lg, tr("events.bracket.replay", locale, pairing=p["id"], a=names.get(p["a"], "?"),
                              b=names.get(p["b"], "?"), match_id=payload.get("match") or "-",
                              mentions=mention_line([p["a"], p["b"]])), ping=[p["a"], p["b"]])


def champion_line(lg: LeagueRecord, locale: str) -> str:
    champion = stages.champion(lg.data)
    if champion is None:
        return ""
    return tr("events.bracket.champion", locale, name=safe_names(stages.names(lg.data)).get(champion, str(champion)))


# ---------------------------------------------------------------------------- /league bracket
def _content(lg: LeagueRecord, locale: str, page: int, pages: int) -> str:
    lines = [caption(lg, locale)]
    if pages > 1:
        lines.append(tr("events.bracket.page", locale, page=page + 1, pages=pages))
    lines += stages.placings_lines(lg.data, locale)
    return clip("\n".join(lines), 2000)


async def send_bracket(interaction: discord.Interaction, lg: LeagueRecord, page: int = 0,
                       public: bool = False) -> None:
    """The answer of /league bracket: one page of the picture, the placings in words."""
    locale = user_locale(interaction)
    if not lg.data.get("bracket"):
        await reply_error(interaction, tr("events.bracket.err.none", locale, league=lg.id, name=safe_text(lg.data["name"])))
        return
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=not public, thinking=True)
    pngs = await asyncio.to_thread(pictures, lg, locale)
    page = min(max(0, int(page)), len(pngs) - 1)
    await reply(interaction, _content(lg, locale, page, len(pngs)),
                file=discord.File(io.BytesIO(pngs[page]), filename="bracket.png"),
                view=page_view(lg.id, page, len(pngs), locale, kind="b"), ephemeral=not public)


@turns("b")
async def turn_page(interaction: discord.Interaction, league_id: int, page: int) -> None:
    """◀ ▶: the same answer with another page, edited in place."""
    locale = user_locale(interaction)
    lg = await interaction.client.store.get_league(int(league_id))  # type: ignore[attr-defined]
    if lg is None or lg.guild_id != interaction.guild_id or not lg.data.get("bracket"):
        await reply_error(interaction, tr("leagues.err.no_league", locale, league=league_id))
        return
    pngs = await asyncio.to_thread(pictures, lg, locale)
    page = min(max(0, int(page)), len(pngs) - 1)
    await interaction.response.edit_message(
        content=_content(lg, locale, page, len(pngs)),
        attachments=[discord.File(io.BytesIO(pngs[page]), filename="bracket.png")],
        view=page_view(lg.id, page, len(pngs), locale, kind="b"))
