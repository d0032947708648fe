"""A match's messages as Components V2 layouts: the board (in play, retired, final with its
animated picture), the player's hand DM and a replay step.

A V2 message is one layout (:class:`discord.ui.LayoutView`) and nothing beside it — no
``content``, no embeds, and it stays V2 for good.  Each of these messages is one
:class:`discord.ui.Container` whose accent is the colour of the player to act (the status colour
once the match is over), holding, top to bottom:

* the title as a heading (``## SQUARES #12``);
* the words above the picture (``head``): what happened in the turn that ended and the pings of
  whoever acts now — a V2 message pings through its text, with ``allowed_mentions``;
* the status in bold and the turn's words so far (``status``, ``lines``);
* the pictures, each in a media gallery of its own (``attachment://`` names the file sent with
  the message), so that each spans the message's whole width and still reads at 400 px on a
  phone (two items of one gallery would stand side by side at half width);
* a caption under them, then the players, the clock and the options (``details``) and a line of
  small print (``footer``);
* the controls in action rows beneath, after a divider: the same persistent buttons and selects
  (:class:`discord.ui.DynamicItem`) as ever, so a board keeps working after a restart.

Everything the layout says is text: the picture only shows it again.  Discord's limits of a V2
message — 40 components, 4,000 characters of text across it — are kept here: the turn's words
give way first (their oldest lines), then the words above the picture, then the details.

A retired board (:func:`words_view`) is a layout of its words alone: its picture and controls
gone, its flag kept (a V2 message cannot lose it).
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any, Sequence, Union

import discord

from cogs.board_clock import clock_field
from cogs.common import clip, game_name, render, render_lines, safe_text, tr
from cogs.layouts import ALT_MAX, TEXT_MAX, attachment, edit_kwargs, send_kwargs
from data.store import ABORTED, ACTIVE, DECLINED, FINISHED, OPEN, PENDING, MatchRecord
from host.engines import shown_engine
from host.options_text import public_options
from host.texts import public_moves
from render.base import SEAT_COLOURS
from rules import registry

SMALL = "-# "               # Discord markdown: small print
MARKUP = 24                 # characters of markup the layout adds around its texts, at most


@dataclass(frozen=True)
class Layout:
    """What one message shows, before it is laid out (:func:`layout_view`)."""

    title: str = ""
    head: str = ""
    status: str = ""
    lines: str = ""
    pictures: tuple[tuple[str, str], ...] = ()    # (file name, alt text)
    caption: str = ""
    details: str = ""
    footer: str = ""
    accent: int | None = None


def seat_accent(seat: int) -> int:
    """The colour of seat ``seat`` as the pictures draw it (render.base), as an accent."""
    r, g, b = SEAT_COLOURS[int(seat) % len(SEAT_COLOURS)]
    return (r << 16) | (g << 8) | b


def colour_value(colour: Any) -> int | None:
    if colour is None:
        return None
    return int(colour.value) if isinstance(colour, discord.Colour) else int(colour)


def _tail(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters keeping its end (the newest lines, the pings): whole
    lines where it can, "…" where something was left out."""
    if len(text) <= limit:
        return text
    if limit <= 1:
        return ""
    kept = text[-(limit - 1):]
    cut = kept.find("\n")
    if 0 <= cut < len(kept) - 1:
        kept = kept[cut + 1:]
    return "…" + kept


def fit(layout: Layout, limit: int = TEXT_MAX) -> Layout:
    """``layout`` with its texts within ``limit`` characters in all (a message's
    :data:`TEXT_MAX`, or its share of a message that holds several): the turn's words shortened
    first, then the words above the picture, then the details (the title, status, caption and
    small print are short by making)."""
    title = clip(layout.title, 256)
    status = clip(layout.status, 500)
    caption = clip(layout.caption, 1200)
    footer = clip(layout.footer, 300)
    # (the heading's "## ", the status's bold and the blank lines between the parts: a margin)
    fixed = sum(len(t) for t in (title, status, caption, footer)) + MARKUP
    room = limit - fixed
    head, lines, details = layout.head, layout.lines, layout.details
    lines = _tail(lines, max(0, room - len(head) - len(details)))
    head = _tail(head, max(0, room - len(lines) - len(details)))
    details = clip(details, max(0, room - len(head) - len(lines)))
    return Layout(title=title, head=head, status=status, lines=lines, pictures=layout.pictures,
                  caption=caption, details=details, footer=footer, accent=layout.accent)


Row = Union[discord.ui.ActionRow, Sequence[discord.ui.Item]]


def layout_view(layout: Layout, rows: Sequence[Row] = (), *, limit: int = TEXT_MAX) -> discord.ui.LayoutView:
    """The message of ``layout`` with ``rows`` of controls beneath (each an action row as
    :func:`cogs.layouts.rows_of` makes them, or the items of one: up to five buttons or one
    select).  Persistent (no timeout): its controls are dynamic items.  ``limit``: the
    characters of text it may hold (:func:`fit`)."""
    layout = fit(layout, limit)
    box = discord.ui.Container(accent_colour=layout.accent)
    if layout.title:
        box.add_item(discord.ui.TextDisplay("## " + layout.title))
    if layout.head.strip():
        box.add_item(discord.ui.TextDisplay(layout.head))
    body = "\n\n".join(p for p in (f"**{layout.status}**" if layout.status else "", layout.lines) if p.strip())
    if body:
        box.add_item(discord.ui.TextDisplay(body))
    for name, alt in layout.pictures:
        box.add_item(discord.ui.MediaGallery(discord.MediaGalleryItem(
            attachment(name), description=clip(alt, ALT_MAX) or None)))
    if layout.caption.strip():
        box.add_item(discord.ui.TextDisplay(layout.caption))
    small = SMALL + layout.footer if layout.footer else ""
    rest = "\n\n".join(p for p in (layout.details, small) if p.strip())
    if rest:
        box.add_item(discord.ui.TextDisplay(rest))
    rows = [row if isinstance(row, discord.ui.ActionRow) else discord.ui.ActionRow(*row)
            for row in rows if (row.children if isinstance(row, discord.ui.ActionRow) else row)]
    if rows:
        box.add_item(discord.ui.Separator())
        for row in rows:
            box.add_item(row)
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(box)
    return view


def view_items(view: discord.ui.View | None) -> list[discord.ui.Item]:
    """The controls of a legacy view (e.g. :func:`cogs.components.board_view`), in order."""
    return list(view.children) if view is not None else []


def words_view(text: str) -> discord.ui.LayoutView:
    """A message of words alone — a retired board, the pointer to a match's thread: one text
    display, no picture, no controls."""
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.TextDisplay(_tail(text.strip() or "…", TEXT_MAX)))
    return view


def v2_edit(view: discord.ui.LayoutView, **kwargs: Any) -> dict[str, Any]:
    """The keyword arguments of an edit that makes a message this layout: ``content`` and the
    embeds reset (null and []) as Discord asks of an edit to a V2 message — a message posted
    before the boards were layouts becomes one in the same edit (:func:`cogs.layouts.edit_kwargs`)
    — with the rest of the edit's arguments (``attachments``, ``allowed_mentions``)."""
    return {**edit_kwargs(view), **kwargs}


def send_layout(view: discord.ui.LayoutView, *, allowed_mentions: Any, files: Sequence[discord.File] = ()
                ) -> dict[str, Any]:
    """The keyword arguments of a new V2 message: the layout, its files, its pings."""
    return {**send_kwargs(view, [f for f in files if f is not None]), "allowed_mentions": allowed_mentions}


# ---------------------------------------------------------------------------- the board
COLOURS = {
    PENDING: discord.Colour.gold(), OPEN: discord.Colour.gold(), ACTIVE: discord.Colour.blurple(),
    FINISHED: discord.Colour.green(), ABORTED: discord.Colour.dark_grey(),
    DECLINED: discord.Colour.dark_grey(),
}
BOARD_PICTURE = "board.png"
LINES_SHOWN = 12            # the newest lines of the turn an edited board shows


def board_accent(rec: MatchRecord, public: Any) -> int:
    """The colour of the player to act (the first awaited seat), else of the match's status —
    a finished match's result, a challenge's waiting."""
    if rec.status == ACTIVE:
        seats = [str(u) for u in rec.seats]
        for uid in getattr(public, "awaited", None) or []:
            if str(uid) in seats:
                return seat_accent(seats.index(str(uid)))
    return colour_value(COLOURS.get(rec.status, discord.Colour.default())) or 0


def players_text(rec: MatchRecord, locale: str) -> str:
    """The players as the board lists them: seat, mention and name (an open seat says so)."""
    players = []
    for i, (uid, name) in enumerate(zip(rec.seats, rec.names)):
        who = f"<@{uid}>" if uid else tr("cogs.board.open_seat", locale)
        players.append(tr("delivery.board.player", locale, n=i + 1, who=who, name=safe_text(name, 40))
                       if uid and name else f"{i + 1}. {who}")
    return "\n".join(players) or "-"


def options_text(rec: MatchRecord, locale: str) -> str:
    """The options as players read them: never a deck's contents or a raw id
    (host.options_text); until the first move everyone sees (a secret decision is no move:
    host.texts.public_moves); plain lines with players' and decks' names in them, made safe as a
    whole.  "" when none are shown."""
    if not (rec.options and rec.game in registry and (rec.status != ACTIVE or not public_moves(rec))):
        return ""
    return safe_text(public_options(shown_engine(rec), rec.options, list(rec.names), locale), lines=True)


def board_parts(rec: MatchRecord, public: Any, locale: str, lines: list[str] | None = None, *,
                head: str = "", status: bool = True) -> tuple[Layout, discord.File | None]:
    """The board of ``rec`` as a layout and its picture: the title, ``head`` (the words above the
    picture), the status in bold with ``lines`` (default: the update's own text) below it —
    without the status when ``status`` is false (a final board says its result in ``head``) —
    the picture, the players, the clock, the options while the match is not under way, and the
    hint to press Act while it is."""
    said = render(public.status_line, locale) if public is not None else ""
    if lines is None:
        lines = render_lines(public.text if public is not None else [], locale)
    lines = [line for line in lines if line != said]   # the result is already the status line
    details = [f"**{tr('cogs.board.players', locale)}**\n{players_text(rec, locale)}"]
    clock = clock_field(rec, public, locale)
    if clock is not None:
        details.append(f"**{clock[0]}**\n{clock[1]}")
    opts = options_text(rec, locale)
    if opts:
        details.append(f"**{tr('cogs.board.options', locale)}**\n{clip(opts, 1024)}")
    file = _picture(public.picture if public is not None else None, BOARD_PICTURE)
    title = f"{game_name(rec.game, locale)} #{rec.id}"
    layout = Layout(
        title=title, head=head, status=said if status else "", lines="\n".join(lines[-LINES_SHOWN:]),
        pictures=((BOARD_PICTURE, said or title),) if file is not None else (),
        details="\n\n".join(details), footer=tr("cogs.board.footer", locale) if rec.status == ACTIVE else "",
        accent=board_accent(rec, public))
    return layout, file


def _picture(png: bytes | None, name: str) -> discord.File | None:
    return discord.File(io.BytesIO(png), filename=name) if png else None
