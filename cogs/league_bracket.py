"""What a league shows of its bracket (an elimination of everyone, or the top cut after the
Swiss rounds): the picture in the league's channel, kept up to date as results come in, the
answer of ``/league bracket [league] [page] [public]``, and the announcements of its matches.

Each is a Components V2 layout (cogs/layouts.py): the picture in a media gallery, and beneath it
the same bracket in words, briefly (:func:`bracket_lines`: each round by name, who plays whom and
who won), so nothing is only in the picture.

* **In the channel** (:func:`post_bracket`, called by the Leagues cog after every change): the
  bracket picture (every page, up to ten to a message) is posted when the bracket starts; while
  the league's round stays the same the message is edited in place with the new picture, and
  when the round changes (or the message is too old to edit) a new one is posted — the old one
  stays as it was, with its words.  Where it is and what it drew is kept in the league document
  (``bracket_message``: ``{"round", "refs", "digest"}``), so an unchanged bracket is not drawn
  twice.
* **/league bracket**: anyone; only the caller sees it unless ``public`` is true, like the other
  record commands.  One page of the picture, with the placings and the bracket in words, ◀ ▶
  under it when there are more.
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
from cogs.layouts import TEXT_MAX, edit_kwargs, layout, send_kwargs
from cogs.league_pages import page_rows, turns
from data.store import LeagueRecord
from host.events import stages
from render.bracket import draw_bracket

log = logging.getLogger("cogs.league_bracket")

PER_MESSAGE = 10          # attachments Discord takes on one message (and pictures in one gallery)
ACCENT = 0x5865F2         # the bracket's colour
WORDS_MAX = 2500          # characters of the bracket in words (the rest of a message's 4,000: its other words)


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


def _match_words(m: dict, locale: str) -> str | None:
    """One match of the picture in words: who beat whom (and the games), or who plays whom; None
    for a bye or a match whose players are not known yet."""
    if m["status"] == "bye":
        return None
    slots = m["slots"]
    names = [safe_text(x["name"]) if x.get("name") else None for x in slots]
    if not any(names):
        return None
    unknown = tr("layouts.bracket.unknown", locale)
    a, b = (n or unknown for n in names)
    if m["status"] == "done" and any(x.get("won") for x in slots):
        w = 0 if slots[0].get("won") else 1
        text = tr("layouts.bracket.won", locale, winner=(a, b)[w], loser=(a, b)[1 - w])
        scores = [slots[w].get("score"), slots[1 - w].get("score")]
        score = "–".join(str(x) for x in scores) if all(x is not None for x in scores) else (scores[0] or "")
        return tr("layouts.bracket.score", locale, text=text, score=score) if score else text
    return tr("layouts.bracket.play", locale, a=a, b=b)


def bracket_lines(lg: LeagueRecord, locale: str, budget: int = WORDS_MAX) -> list[str]:
    """The bracket in words, briefly: a line a round (its name, as the picture names it), its
    matches — who beat whom, who plays whom.  Within ``budget`` characters: the earliest rounds
    give way to the newest, one line saying how many are left to the picture; a round too long
    on its own shows its first matches."""
    d = lg.data
    lines = []
    sep = tr("layouts.bracket.sep", locale)
    for section in stages.view(d)["sections"]:
        for rnd in section["rounds"]:
            words = [w for w in (_match_words(m, locale) for m in rnd["matches"]) if w]
            if words:
                name = stages.match_name(d, rnd["matches"][0]["id"], locale)
                lines.append(tr("layouts.bracket.round", locale, round=name, matches=sep.join(words)))
    room = budget - 80          # the line that names the rounds left out
    dropped = 0
    while len(lines) > 1 and sum(len(x) + 1 for x in lines) > room:
        lines.pop(0)
        dropped += 1
    if lines and len(lines[0]) + 1 > room:       # one round alone too long: its first matches
        lines[0] = clip(lines[0], room)
    return ([tr("layouts.bracket.earlier", locale, n=dropped)] if dropped else []) + lines


def _digest(lg: LeagueRecord, locale: str) -> str:
    raw = json.dumps([stages.view(lg.data), locale, lg.data["round"]], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()[:20]


def _files(pngs: list[bytes], first: int = 0) -> list[discord.File]:
    return [discord.File(io.BytesIO(png), filename=f"bracket-{first + i + 1}.png") for i, png in enumerate(pngs)]


def _split(ref: str) -> tuple[int, int] | None:
    a, _, b = str(ref).partition(":")
    return (int(a), int(b)) if a.isdigit() and b.isdigit() else None


def _post_layout(lg: LeagueRecord, locale: str, names: list[str], first: bool) -> discord.ui.LayoutView:
    """One message of the bracket in the channel: its pictures (``names``); the first message
    also the caption and the bracket in words."""
    alt = stage_text(lg.data, locale)
    if not first:
        return layout(accent=ACCENT, pictures=[(n, alt) for n in names])
    return layout(accent=ACCENT, title=caption(lg, locale), pictures=[(n, alt) for n in names],
                  blocks=["\n".join(bracket_lines(lg, locale))])


# ---------------------------------------------------------------------------- in the channel
async def post_bracket(cog: Any, lg: LeagueRecord) -> None:
    """Post the bracket picture, or bring the posted one up to date (module doc).  An edit also
    turns a message posted before the bracket was a layout into one."""
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
    chunks = [pngs[i:i + PER_MESSAGE] for i in range(0, len(pngs), PER_MESSAGE)]
    refs = [r for r in (_split(x) for x in mine.get("refs") or []) if r is not None]
    now = cog.bot.host.now()

    def message(i: int, chunk: list[bytes]) -> tuple[discord.ui.LayoutView, list[discord.File]]:
        files = _files(chunk, i * PER_MESSAGE)
        return _post_layout(lg, locale, [f.filename for f in files], i == 0), files

    if mine.get("round") == d["round"] and len(refs) == len(chunks) \
            and not any(too_old_to_edit(mid, now) for _, mid in refs):
        try:
            for i, ((channel, mid), chunk) in enumerate(zip(refs, chunks)):
                view, files = message(i, chunk)
                await cog.bot.get_partial_messageable(channel).get_partial_message(mid).edit(
                    **edit_kwargs(view, files), allowed_mentions=NO_PINGS)
            await cog.service.set_bracket_message(lg.id, {**mine, "digest": digest})
            return
        except discord.HTTPException:
            log.info("league %s: the bracket message is gone, posting a new one", lg.id)
    posted = []
    try:
        for i, chunk in enumerate(chunks):
            view, files = message(i, chunk)
            sent = await cog.bot.get_partial_messageable(int(cid)).send(**send_kwargs(view, files),
                                                                        allowed_mentions=NO_PINGS)
            posted.append(f"{sent.channel.id}:{sent.id}")
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
def answer_layout(lg: LeagueRecord, locale: str, page: int, pages: int) -> discord.ui.LayoutView:
    """The answer of /league bracket: the caption, the picture of page ``page``, the placings and
    the bracket in words, the page in small print, ◀ ▶ beneath."""
    d = lg.data
    placings = stages.placings_lines({**d, "players": [{**p, "name": safe_text(p["name"])} for p in d["players"]]},
                                     locale)
    blocks = ["\n".join(placings), "\n".join(bracket_lines(lg, locale, min(WORDS_MAX, TEXT_MAX - 1000)))]
    return layout(accent=ACCENT, title=caption(lg, locale), pictures=[("bracket.png", stage_text(d, locale))],
                  blocks=blocks, footer=tr("events.bracket.page", locale, page=page + 1, pages=pages) if pages > 1 else None,
                  rows=page_rows(lg.id, page, pages, locale, kind="b"))


def _page_file(pngs: list[bytes], page: int) -> discord.File:
    return discord.File(io.BytesIO(pngs[page]), filename="bracket.png")


async def send_bracket(interaction: discord.Interaction, lg: LeagueRecord, page: int = 0,
                       public: bool = False) -> None:
    """The answer of /league bracket: one page of the picture, the placings and the bracket in
    words."""
    locale = user_locale(interaction)
    if not lg.data.get("bracket"):
        await reply_error(interaction, tr("events.bracket.err.none", locale, league=lg.id, name=safe_text(lg.data["name"])))
        return
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=not public, thinking=True)
    pngs = await asyncio.to_thread(pictures, lg, locale)
    page = min(max(0, int(page)), len(pngs) - 1)
    await reply(interaction, view=answer_layout(lg, locale, page, len(pngs)), file=_page_file(pngs, page),
                ephemeral=not public)


@turns("b")
async def turn_page(interaction: discord.Interaction, league_id: int, page: int) -> None:
    """◀ ▶: the same answer with another page, edited in place (an answer given before it was a
    layout becomes one)."""
    locale = user_locale(interaction)
    lg = await interaction.client.store.get_league(int(league_id))  # type: ignore[attr-defined]
    if lg is None or lg.guild_id != interaction.guild_id or not lg.data.get("bracket"):
        await reply_error(interaction, tr("leagues.err.no_league", locale, league=league_id))
        return
    pngs = await asyncio.to_thread(pictures, lg, locale)
    page = min(max(0, int(page)), len(pngs) - 1)
    await interaction.response.edit_message(**edit_kwargs(answer_layout(lg, locale, page, len(pngs)),
                                                          [_page_file(pngs, page)]))
