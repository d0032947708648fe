"""◀ ▶ under a league picture: the standings (cogs/league_records.py) and the bracket
(cogs/league_bracket.py), in the rows beneath their layouts (cogs/layouts.py).  The buttons are persistent (a :class:`discord.ui.DynamicItem`): the
page is in the custom id and the league is read again on every press, so they keep working after
a restart.  What a press does is registered by the module that draws the picture (:func:`turns`);
this module names neither.

custom_id template: ``lg<kind>:<league>:<page>`` — ``lgs:`` a page (from 0) of the standings
picture, ``lgb:`` of the bracket picture.
"""
from __future__ import annotations

import logging
from typing import Any, Awaitable, Callable

import discord

from cogs.common import pager, reply_error, tr, user_locale
from cogs.layouts import moved_rows

log = logging.getLogger("cogs.league_pages")

PAGE_TEMPLATE = r"lg(?P<kind>[sb]):(?P<league>\d{1,20}):(?P<page>\d{1,4})"
KINDS = {"s": "standings", "b": "bracket"}

Turn = Callable[[discord.Interaction, int, int], Awaitable[None]]
# kind -> ``turn(interaction, league_id, page)``: the same answer with another page, edited in
# place; filled by the modules that draw the pictures
TURNS: dict[str, Turn] = {}


def turns(kind: str) -> Callable[[Turn], Turn]:
    """Register the decorated coroutine as what ◀ ▶ under a picture of ``kind`` does."""
    def register(turn: Turn) -> Turn:
        TURNS[kind] = turn
        return turn

    return register


def page_view(league_id: int, page: int, pages: int, locale: str, kind: str = "s") -> discord.ui.View | None:
    """◀ ▶ under a league picture (``kind``: ``s`` the standings, ``b`` the bracket; none when it
    fits one page)."""
    return pager(page, pages, locale, lambda target: f"lg{kind}:{int(league_id)}:{target}",
                 lambda button, target: LeaguePage(button, kind, int(league_id), target))


def page_rows(league_id: int, page: int, pages: int, locale: str, kind: str = "s") -> list[discord.ui.ActionRow]:
    """The same ◀ ▶ as rows for a layout (none when it fits one page)."""
    return moved_rows(page_view(league_id, page, pages, locale, kind))


class LeaguePage(discord.ui.DynamicItem[discord.ui.Button], template=PAGE_TEMPLATE):
    """◀ ▶ of a league picture (standings or bracket): persistent, the page in the custom id."""

    def __init__(self, item: discord.ui.Button, kind: str, league_id: int, page: int) -> None:
        super().__init__(item)
        self.kind, self.league_id, self.page = kind, int(league_id), int(page)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any):
        return cls(item, match["kind"], int(match["league"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        turn = TURNS[self.kind]     # registered by the module that draws the picture
        try:
            await turn(interaction, self.league_id, self.page)
        except Exception:
            log.exception("%s page %s of league %s failed", KINDS[self.kind], self.page, self.league_id)
            await reply_error(interaction, tr("cogs.err.generic", user_locale(interaction)))
