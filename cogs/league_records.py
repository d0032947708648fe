"""What a league shows of its records: the standings (a table in text with every tiebreak of
the league's scoring preset, and a picture of it, paged beyond 16 players), the trail of every
change (``/league-admin trail``) and the CSV exports (``/league-admin export``).

The standings are one Components V2 layout (cogs/layouts.py): the picture of one page in a
media gallery, the same page's table in words beneath it (with the bracket's placings, the
scoring preset and what the columns mean), ◀ ▶ in a row under them.  The post that ends a
league (:func:`post_final_standings`) is the same layout, its first page, without buttons.

Thin: the numbers come from :func:`host.leagues.table`, the trail's words from
:mod:`host.events.trail`, the files from :mod:`host.events.exports`, the picture from
:mod:`render.standings`.  The commands themselves are in cogs/leagues.py (``/league
standings``, the Standings button) and cogs/league_admin.py (trail, export); this module holds
what they show.

custom_id template: ``lgs:<league>:<page>`` — a page (from 0) of the standings picture.  The
buttons are persistent (:class:`cogs.league_pages.LeaguePage`): the league is read again on every
press, so they keep working after a restart.
"""
from __future__ import annotations

import asyncio
import io
import logging
import unicodedata
from typing import Any

import discord

from cogs.common import NO_PINGS, clip, reply, reply_error, safe_text, tr, user_locale
from cogs.layouts import edit_kwargs, layout, send_kwargs
from cogs.league_pages import LeaguePage, page_rows, turns
from data.store import LeagueRecord
from host import leagues as LG
from host.events import exports, stages, trail
from render.standings import draw_standings, number_text, standings_pages, tiebreak_text

log = logging.getLogger("cogs.league_records")

PER_PICTURE = 16          # players on one page of the standings picture
PICTURE = "standings.png"
ACCENT = 0xC9A227         # the standings' colour: a trophy's gold
NAME_CELLS = 16


# ---------------------------------------------------------------------------- the table in text
def _cells(ch: str) -> int:
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def width(text: str) -> int:
    """Display cells of ``text`` in a monospaced block (wide CJK characters count 2)."""
    return sum(map(_cells, text))


def fit_cells(text: str, cells: int) -> str:
    """``text`` cut to ``cells`` display cells, with "…"."""
    if width(text) <= cells:
        return text
    out, used = "", 0
    for ch in text:
        if used + _cells(ch) > cells - 1:
            break
        out, used = out + ch, used + _cells(ch)
    return out + "…"


def pad_cells(text: str, cells: int) -> str:
    return text + " " * max(0, cells - width(text))


def rjust_cells(text: str, cells: int) -> str:
    return " " * max(0, cells - width(text)) + text


def _row_cells(row: Any, columns: tuple[str, ...]) -> list[str]:
    """Place, name (``*`` when no longer playing), W-L-D, points, each tiebreak."""
    name = fit_cells(row.name.replace("`", "'"), NAME_CELLS) + ("" if row.status == "active" else "*")
    return ([str(row.place), name, f"{row.wins}-{row.losses}-{row.draws}", number_text(row.points)]
            + [tiebreak_text(c, row.tiebreaks.get(c)) for c in columns])


def table_text(lg: LeagueRecord, locale: str, limit: int = 50, budget: int = 1700, first: int = 0) -> str:
    """The standings as a monospaced block of at most ``limit`` rows from place ``first + 1`` and
    ``budget`` characters (the rest summed up in one line): place (exact ties share one), name,
    W-L-D, points, then each tiebreak of the league's preset (percentages with 2 decimals);
    columns padded by display width so that Japanese names keep them aligned."""
    columns = LG.tiebreaks(lg.data)
    rows = LG.table(lg.data)
    head = [tr(f"events.table.col.{k}", locale) for k in ("place", "name", "record", "points", *columns)]
    cells = [_row_cells(r, columns) for r in rows][max(0, int(first)):]
    shown = cells[:limit]
    widths = [max([width(head[i])] + [width(c[i]) for c in shown]) for i in range(len(head))]
    widths[1] = max(widths[1], NAME_CELLS + 1)

    def line(c: list[str]) -> str:
        return " ".join([rjust_cells(c[0], widths[0]), pad_cells(c[1], widths[1])]
                        + [rjust_cells(x, w) for x, w in zip(c[2:], widths[2:])]).rstrip()

    lines = [line(head)]
    size = len(lines[0]) + 8
    for i, c in enumerate(cells, start=1):
        text = line(c)
        if i > limit or size + len(text) + 1 > budget - 40:
            lines.append(tr("leagues.standings.more", locale, n=len(cells) - i + 1))
            break
        lines.append(text)
        size += len(text) + 1
    return "```\n" + "\n".join(lines) + "\n```"


def _safe_players(d: dict) -> dict:
    """The league document with its players' names through :func:`safe_text` (the placings'
    words name them)."""
    return {**d, "players": [{**p, "name": safe_text(p["name"])} for p in d["players"]]}


def standings_title(lg: LeagueRecord, locale: str) -> str:
    d = lg.data
    return tr("leagues.standings.title", locale, league=lg.id, name=safe_text(d["name"]), round=d["round"] or "-",
              rounds=LG.total_rounds(d) or "-", status=tr(f"leagues.status.{lg.status}", locale))


def standings_blocks(lg: LeagueRecord, locale: str, page: int = 0) -> list[str]:
    """The standings in words, the table of the picture's page ``page`` only: a bracket's
    placings first (host/events/stages.py), the scoring preset, the table, what its columns
    mean."""
    d = lg.data
    placings = "\n".join(stages.placings_lines(_safe_players(d), locale))
    scoring = tr("events.standings.scoring", locale, preset=tr(f"events.scoring.{LG.scoring_of(d)}", locale))
    table = table_text(lg, locale, limit=PER_PICTURE, budget=3000, first=page * PER_PICTURE)
    return [placings, scoring + "\n" + table, tr(f"events.table.legend.{LG.scoring_of(d)}", locale)]


# ---------------------------------------------------------------------------- the picture
def picture_rows(lg: LeagueRecord) -> list[dict]:
    return [{"place": r.place, "name": r.name, "status": "active" if r.status == "active" else "dropped",
             "wins": r.wins, "losses": r.losses, "draws": r.draws, "points": r.points,
             "tiebreaks": dict(r.tiebreaks)} for r in LG.table(lg.data)]


def standings_png(lg: LeagueRecord, locale: str, page: int) -> tuple[bytes, int, int]:
    """The picture of page ``page`` (from 0, clamped): (PNG, page, pages)."""
    rows = picture_rows(lg)
    pages = standings_pages(len(rows), PER_PICTURE)
    page = min(max(0, int(page)), pages - 1)
    title = tr("events.standings.picture_title", locale, league=lg.id, name=lg.data["name"])
    png = draw_standings(rows, list(LG.tiebreaks(lg.data)), locale, title=title, page=page, per_page=PER_PICTURE)
    return png, page, pages


def standings_layout(lg: LeagueRecord, locale: str, page: int, pages: int, *, picture: bool = True,
                     title: str | None = None, lead: tuple[str, ...] = (), more: tuple[str, ...] = (),
                     rows: list[discord.ui.ActionRow] | None = None) -> discord.ui.LayoutView:
    """The standings as one layout: the title, the picture of page ``page`` (``PICTURE``, when
    drawn), ``lead``, the words of :func:`standings_blocks`, ``more``, the page in small print,
    ◀ ▶ beneath (``rows``: others instead)."""
    alt = tr("events.standings.picture_title", locale, league=lg.id, name=safe_text(lg.data["name"]))
    return layout(accent=ACCENT, title=title or standings_title(lg, locale),
                  pictures=[(PICTURE, alt)] if picture else [],
                  blocks=[*lead, *standings_blocks(lg, locale, page), *more],
                  footer=tr("events.bracket.page", locale, page=page + 1, pages=pages) if pages > 1 else None,
                  rows=page_rows(lg.id, page, pages, locale) if rows is None else rows)


def _file(png: bytes) -> discord.File:
    return discord.File(io.BytesIO(png), filename=PICTURE)


async def send_standings(interaction: discord.Interaction, lg: LeagueRecord, page: int = 0) -> None:
    """The answer of /league standings and of the Standings button: one layout with the picture
    of page ``page``, the table of that page in words, ◀ ▶ when there are more pages."""
    locale = user_locale(interaction)
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)
    png, page, pages = await asyncio.to_thread(standings_png, lg, locale, page)
    await reply(interaction, view=standings_layout(lg, locale, page, pages), file=_file(png))


@turns("s")
async def turn_page(interaction: discord.Interaction, league_id: int, page: int) -> None:
    """◀ ▶: the same answer with another page, edited in place (an answer given before it was a
    layout becomes one)."""
    locale = user_locale(interaction)
    lg = await interaction.client.store.get_league(int(league_id))  # type: ignore[attr-defined]
    if lg is None or lg.guild_id != interaction.guild_id:
        await reply_error(interaction, tr("leagues.err.no_league", locale, league=league_id))
        return
    png, page, pages = await asyncio.to_thread(standings_png, lg, locale, page)
    await interaction.response.edit_message(**edit_kwargs(standings_layout(lg, locale, page, pages), [_file(png)]))


async def post_final_standings(bot: Any, lg: LeagueRecord, locale: str, title: str, lead: tuple[str, ...] = (),
                               more: tuple[str, ...] = ()) -> None:
    """The post in the league's channel when the league ends: one layout with ``title``, ``lead``
    (the champion), the picture of the final standings' first page and that page's table in
    words, ``more`` (the statistics command); no buttons (the league message has the Standings
    button), nobody pinged.  The picture is left out when it cannot be drawn; the words never are."""
    cid = lg.data.get("channel_id")
    if not cid:
        return
    try:
        png: bytes | None
        png, _page, pages = await asyncio.to_thread(standings_png, lg, locale, 0)
    except Exception:
        log.exception("league %s: the final standings picture could not be drawn", lg.id)
        png, pages = None, 1
    view = standings_layout(lg, locale, 0, pages, picture=png is not None, title=title, lead=lead, more=more, rows=[])
    try:
        await bot.get_partial_messageable(int(cid)).send(**send_kwargs(view, [_file(png)] if png is not None else []),
                                                         allowed_mentions=NO_PINGS)
    except discord.HTTPException:
        log.info("league %s: cannot post the final standings in %s", lg.id, cid)


# ---------------------------------------------------------------------------- trail and exports
def trail_content(lg: LeagueRecord, page: int, locale: str) -> str:
    """Page ``page`` (from 1, clamped) of the league's trail, newest first, in words."""
    d = lg.data
    entries, shown, pages = trail.page(d, page - 1)
    names = {p["id"]: safe_text(p["name"]) for p in d["players"]}
    lines = [tr("events.trail.title", locale, league=lg.id, name=safe_text(d["name"]), page=shown + 1, pages=pages)]
    lines += [clip(trail.line(e, names, locale, safe_text), 300) for e in entries] or [tr("events.trail.empty", locale)]
    if d.get("trail_cut"):
        lines.append(tr("events.trail.cut", locale, n=d["trail_cut"], max=trail.TRAIL_MAX))
    if shown + 1 < pages:
        lines.append(tr("events.trail.more", locale, page=shown + 2))
    return clip("\n".join(lines), 2000)


def export_files(lg: LeagueRecord, locale: str) -> list[discord.File]:
    return [discord.File(io.BytesIO(raw), filename=name) for name, raw in exports.files(lg.data, locale)]


DYNAMIC_ITEMS = (LeaguePage,)     # the pages of the standings and of the bracket
