"""Components V2 building blocks shared by the cogs: one message as one layout — a container with
a colour accent holding a title, the message's pictures in a media gallery, its words as text
displays and its controls in rows beneath — kept within what Discord takes of such a message.

Why one module: every message that becomes a layout (the standings and bracket posts, the card
pages, the board, the hand, the replay) needs the same pieces and the same care — Discord refuses
a layout with more than 40 components or more than 4,000 characters of text across it, and a
message that holds the ``IS_COMPONENTS_V2`` flag may carry no ``content`` and no embeds.  Here
those rules are kept once:

* :func:`layout` builds the view (``discord.ui.LayoutView``); each text block is clipped so the
  whole stays within the limits (the longest block gives way first; a fenced code block keeps
  whole lines and its closing fence), and surplus blocks are joined rather than dropped when the
  component count would overflow.
* :func:`rows_of` puts buttons five to a row and a select alone in its own; :func:`moved_rows`
  turns a classic ``discord.ui.View`` (a pager built by :func:`cogs.common.pager`) into rows for a
  layout, its persistent dynamic items unchanged.
* :func:`send_kwargs` and :func:`edit_kwargs` are the keyword arguments of a send and of an edit:
  an edit always resets ``content`` to null and ``embeds`` to [] — a message posted before it was
  a layout (an embed or a text) may only become one in an edit that clears them.

Pictures are named ``attachment://NAME``: each must be a file sent with the message (or kept by
the edit).  Words given here are shown as Markdown: user text must already have gone through
:func:`cogs.common.safe_text`.
"""
from __future__ import annotations

from typing import Any, Iterable, Sequence, Union

import discord

from cogs.common import clip

TEXT_MAX = 4000          # characters across every text display of a message
COMPONENTS_MAX = 40      # components in a message, nested ones counted
GALLERY_MAX = 10         # items in a media gallery
ROW_MAX = 5              # buttons in an action row
ALT_MAX = 1024           # a media item's description (alt text)
TITLE_MAX = 256

Picture = Union[str, tuple[str, Union[str, None]]]     # a file name, or (file name, alt text)
Accent = Union[int, discord.Colour, None]

_FENCE = "```"


def attachment(name: str) -> str:
    """The url a component shows an uploaded file by."""
    return f"attachment://{name}"


def fit(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters: as it is when it fits; a fenced code block keeps its
    first lines whole, then "…" and its closing fence (so the rest of the message is not read as
    code); any other text is cut with "…"."""
    text = text or ""
    if len(text) <= limit:
        return text
    if text.startswith(_FENCE) and text.rstrip().endswith(_FENCE) and limit > 2 * len(_FENCE) + 8:
        lines = text.rstrip()[: -len(_FENCE)].rstrip("\n").split("\n")
        kept, size = [lines[0]], len(lines[0]) + 1
        tail = "…\n" + _FENCE
        for line in lines[1:]:
            if size + len(line) + 1 + len(tail) > limit:
                break
            kept.append(line)
            size += len(line) + 1
        return "\n".join(kept) + "\n" + tail
    return clip(text, limit)


def fit_all(blocks: Sequence[str], budget: int) -> list[str]:
    """The blocks (empty ones left out) within ``budget`` characters in all: while over, the
    longest block gives up the overflow (never below one character)."""
    out = [b for b in blocks if b]
    while out and sum(map(len, out)) > budget:
        over = sum(map(len, out)) - budget
        i = max(range(len(out)), key=lambda k: len(out[k]))
        shorter = fit(out[i], max(1, len(out[i]) - over))
        if len(shorter) >= len(out[i]):       # cannot shrink further: give up the block
            out.pop(i)
            continue
        out[i] = shorter
    return out


def gallery(pictures: Sequence[Picture]) -> discord.ui.MediaGallery | None:
    """The pictures (up to ten) as one media gallery, each with its alt text; None for none."""
    items = []
    for p in list(pictures)[:GALLERY_MAX]:
        name, alt = (p, None) if isinstance(p, str) else p
        kwargs: dict[str, Any] = {"description": clip(alt, ALT_MAX)} if alt else {}
        items.append(discord.MediaGalleryItem(attachment(name), **kwargs))
    return discord.ui.MediaGallery(*items) if items else None


def rows_of(items: Iterable[discord.ui.Item]) -> list[discord.ui.ActionRow]:
    """Buttons five to a row, in order; a select alone in its row."""
    rows: list[discord.ui.ActionRow] = []
    current: list[discord.ui.Item] = []
    for item in items:
        if isinstance(item, discord.ui.Select) or isinstance(getattr(item, "item", None), discord.ui.Select):
            if current:
                rows.append(discord.ui.ActionRow(*current))
                current = []
            rows.append(discord.ui.ActionRow(item))
            continue
        current.append(item)
        if len(current) == ROW_MAX:
            rows.append(discord.ui.ActionRow(*current))
            current = []
    if current:
        rows.append(discord.ui.ActionRow(*current))
    return rows


def moved_rows(view: discord.ui.View | None) -> list[discord.ui.ActionRow]:
    """The items of a classic view (None: no rows), taken out of it and put in rows for a layout,
    by the row each was given (else five to a row)."""
    if view is None:
        return []
    items = list(view.children)
    for item in items:
        view.remove_item(item)
    by_row: dict[int, list[discord.ui.Item]] = {}
    for i, item in enumerate(items):
        by_row.setdefault(item.row if item.row is not None else 100 + i // ROW_MAX, []).append(item)
    return [row for key in sorted(by_row) for row in rows_of(by_row[key])]


def _count(rows: Sequence[discord.ui.ActionRow]) -> int:
    return sum(1 + len(r.children) for r in rows)


def layout(*, accent: Accent = None, title: str | None = None, pictures: Sequence[Picture] = (),
           blocks: Sequence[str] = (), footer: str | None = None, rows: Sequence[discord.ui.ActionRow] = (),
           timeout: float | None = None) -> discord.ui.LayoutView:
    """One message as one container: ``title`` (shown as a heading), the ``pictures`` in a media
    gallery, each of ``blocks`` as a text display, ``footer`` as small print, then a divider and
    the ``rows`` of controls.  Within Discord's limits whatever it is given: the title cut to
    256 characters, the blocks to the 4,000 characters the message may hold in all, and when
    the components would pass 40 the last blocks joined into one.  ``timeout`` None: the view
    never times out (its controls are persistent dynamic items).  ValueError when given nothing
    to show (Discord refuses an empty container)."""
    head = f"### {clip(title, TITLE_MAX)}" if title else ""
    foot = f"-# {clip(footer, TITLE_MAX)}" if footer else ""
    rows = list(rows)
    shown = gallery(pictures)
    fixed = 1 + bool(head) + (shown is not None) + bool(foot) + (1 + _count(rows) if rows else 0)
    texts = fit_all([str(b) for b in blocks if b], TEXT_MAX - len(head) - len(foot))
    room = max(1, COMPONENTS_MAX - fixed)
    if len(texts) > room:                     # too many pieces: the last ones shown as one
        texts = texts[: room - 1] + [fit("\n\n".join(texts[room - 1:]), TEXT_MAX)]
        texts = fit_all(texts, TEXT_MAX - len(head) - len(foot))
    box = discord.ui.Container(accent_colour=accent)
    if head:
        box.add_item(discord.ui.TextDisplay(head))
    if shown is not None:
        box.add_item(shown)
    for text in texts:
        box.add_item(discord.ui.TextDisplay(text))
    if foot:
        box.add_item(discord.ui.TextDisplay(foot))
    if rows:
        box.add_item(discord.ui.Separator())
        for row in rows:
            box.add_item(row)
    if not box.children:                      # a container holds at least one component
        raise ValueError("a layout needs a title, a picture, words or controls")
    view = discord.ui.LayoutView(timeout=timeout)
    view.add_item(box)
    return view


def send_kwargs(view: discord.ui.LayoutView, files: Sequence[discord.File] = ()) -> dict[str, Any]:
    """The keyword arguments of a new message that is ``view`` (no content, no embeds)."""
    kwargs: dict[str, Any] = {"view": view}
    if files:
        kwargs["files"] = list(files)
    return kwargs


def edit_kwargs(view: discord.ui.LayoutView, files: Sequence[discord.File] | None = None) -> dict[str, Any]:
    """The keyword arguments of an edit that makes a message ``view``: content null and embeds []
    (a message that was an embed or a text may become a layout only so), and, when ``files`` is
    given, the message's attachments replaced by them."""
    kwargs: dict[str, Any] = {"content": None, "embed": None, "view": view}
    if files is not None:
        kwargs["attachments"] = list(files)
    return kwargs


__all__ = ["ALT_MAX", "COMPONENTS_MAX", "GALLERY_MAX", "TEXT_MAX", "attachment", "edit_kwargs", "fit", "fit_all",
           "gallery", "layout", "moved_rows", "rows_of", "send_kwargs"]
