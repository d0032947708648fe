"""Persistent buttons and selects.

Every item is a :class:`discord.ui.DynamicItem`: its ``custom_id`` carries the match id (and,
for the Act menu, where in the menu the player is), so after a restart the same message keeps
working — nothing is read from memory, the match always comes from the host/store.

The Act menu is game-agnostic: it lists the player's legal commands in words
(:mod:`render.labels`: names, a short consequence, an emoji).  When they fit one select the
player picks the move and it is played — two taps from the board.  More moves than one select
holds are laid out on several selects (a message has 5 rows: up to 4 selects of 25 when no
multi-select needs a row), each holding whole groups — the piece or card the moves are made
with — and saying which in its placeholder, so one pick still plays any move.  Only when they
do not fit even so does the first select name the piece or card (the move's group) and the
second its moves (paged with "…more" beyond 25).  ``custom_id`` holds a short hash of the legal
list, so a menu opened before the position changed is detected and refreshed instead of
playing a different command.

custom_id templates (all ≤ 100 chars)::

    m:<match>:<act|accept|decline|join|start|resign|status>    board buttons
    m:<match>:<undo|takeback|tbyes|tbno>                      taking moves back (cogs/undo_controls.py)
    m:<match>:c:<hash>:<group>:<page>                           move menu select (group 0: top;
                                                                on a menu of several selects, page
                                                                numbers the select)
    m:<match>:ok:resign                                         resign confirmation
    m:<match>:deck:<accept|join>                                deck picker (card games)
"""
from __future__ import annotations

import logging
import zlib
from typing import Any

import discord

from cogs.batch_menu import BatchSelect, batch_rows, hidden_commands
from cogs.common import LABEL_MAX, SELECT_MAX, clip, run_in_game, tr
from render.labels import Choice

log = logging.getLogger("cogs.components")

BOARD_TEMPLATE = r"m:(?P<match>\d{1,20}):(?P<action>act|accept|decline|join|start|resign|status|undo|takeback|tbyes|tbno|judge)"
MOVE_TEMPLATE = r"m:(?P<match>\d{1,20}):c:(?P<h>[0-9a-f]{1,8}):(?P<group>\d{1,4}):(?P<page>\d{1,4})"
CONFIRM_TEMPLATE = r"m:(?P<match>\d{1,20}):ok:(?P<what>resign)"
DECK_TEMPLATE = r"m:(?P<match>\d{1,20}):deck:(?P<action>accept|join)"

BUTTON_LABEL_MAX = 80
PAGE_SIZE = SELECT_MAX - 1          # one slot for "…more" when a level is paged
MENU_ROWS = 5                       # rows of components in a message (Discord)
SPARE_ROWS = 1                      # kept for the buttons added under the menu (Undo, a takeback's answers)


# ---------------------------------------------------------------------------- the move menu
def legal_hash(legal: list[str]) -> str:
    """A short, stable fingerprint of a legal-command list."""
    return format(zlib.crc32("\n".join(legal).encode("utf-8")), "x")


def group_of(choice: Choice) -> str:
    return choice.group or choice.label


def groups_of(choices: list[Choice], hidden: set[str] | frozenset = frozenset()) -> list[tuple[str, list[int]]]:
    """The groups of ``choices`` in order of first appearance, with their members' indexes
    (``hidden``: commands a multi-select of the menu offers instead, left out)."""
    out: dict[str, list[int]] = {}
    for i, c in enumerate(choices):
        if c.command not in hidden:
            out.setdefault(group_of(c), []).append(i)
    return list(out.items())


def sheets_of(groups: list[tuple[str, list[int]]], rows: int) -> list[tuple[list[str], list[int]]] | None:
    """The moves of ``groups`` laid out on at most ``rows`` selects of 25 options, so that one
    pick plays any of them: in order, each group whole on one select where it fits (a group of
    more than 25 fills selects of its own).  Each select as (the names of its groups, its moves);
    None when they need more selects than ``rows``."""
    sheets: list[tuple[list[str], list[int]]] = []
    for name, members in groups:
        if sheets and len(sheets[-1][1]) + len(members) <= SELECT_MAX:
            sheets[-1][0].append(name)
            sheets[-1][1].extend(members)
        else:
            for start in range(0, len(members), SELECT_MAX):
                sheets.append(([name], list(members[start:start + SELECT_MAX])))
        if len(sheets) > rows:
            return None
    return sheets


def pages_of(items: list[Any]) -> int:
    if len(items) <= SELECT_MAX:
        return 1
    return (len(items) + PAGE_SIZE - 1) // PAGE_SIZE


def _page(items: list[Any], page: int) -> tuple[list[Any], int, int]:
    npages = pages_of(items)
    page = page % npages
    return (items if npages == 1 else items[page * PAGE_SIZE:(page + 1) * PAGE_SIZE]), page, npages


def _option(c: Choice, value: str) -> discord.SelectOption:
    return discord.SelectOption(label=clip(c.label, LABEL_MAX), value=value,
                                description=clip(c.description, LABEL_MAX) or None, emoji=c.emoji or None)


def build_menu(match_id: int, choices: list[Choice], group: int, page: int, locale: str,
               notice: str | None = None, batches: list | None = None) -> tuple[str, discord.ui.View]:
    """Content and view of the ephemeral move menu.

    Two taps: when the moves fit one select (25 options) they are all listed, and picking one
    plays it; when they fit the selects the message has room for (:func:`sheets_of`), they are
    all listed on those, group by group.  Otherwise the player first picks a group (the piece or
    card the move is made with; a group of one move plays it at once), then the move (``group``
    ≥ 1: that group).  ``batches``: the game's moves that may be picked together (host
    ``batch_choices``), shown as multi-selects under the move select (cogs/batch_menu.py), whose
    moves leave it.  One row is left for the buttons added under the menu (:data:`SPARE_ROWS`)."""
    legal = [c.command for c in choices]
    h = legal_hash(legal)
    view = discord.ui.View(timeout=None)
    hidden = hidden_commands(batches, legal)
    groups = groups_of(choices, hidden)
    visible = [i for i, c in enumerate(choices) if c.command not in hidden]
    lines = [notice] if notice else []
    lines.append(tr("cogs.act.header", locale, match_id=match_id, n=len(choices)))
    if group and not 1 <= group <= len(groups):
        group = 0
    if not group and not visible:       # every move is in a multi-select
        for item in batch_rows(match_id, h, batches, locale):
            view.add_item(item)
        lines.append(tr("cogs.batch.tap", locale))
        return "\n".join(lines), view
    multi = batch_rows(match_id, h, batches, locale) if not group else []
    sheets = sheets_of(groups, MENU_ROWS - SPARE_ROWS - len(multi)) \
        if not group and len(visible) > SELECT_MAX else None
    if sheets:                          # every move on a few selects: one pick plays any
        sep = tr("core.list_sep", locale)
        for k, (names, members) in enumerate(sheets):
            view.add_item(MoveSelect(match_id, h, 0, k, options=[_option(choices[i], f"c:{i}") for i in members],
                                     placeholder=clip(sep.join(names), 150)))
        for item in multi:
            view.add_item(item)
        if multi:
            lines.append(tr("cogs.batch.tap", locale))
        lines.append(tr("cogs.act.tap", locale))
        return "\n".join(lines), view
    if group or len(visible) <= SELECT_MAX:
        members = groups[group - 1][1] if group else visible
        shown, page, npages = _page(members, page)
        options = [_option(choices[i], f"c:{i}") for i in shown]
        placeholder = tr("cogs.act.placeholder", locale)
        if group:
            lines.append(tr("cogs.act.in_group", locale, group=clip(groups[group - 1][0], 100)))
    else:
        shown, page, npages = _page(list(range(len(groups))), page)
        options = []
        for k in shown:
            name, members = groups[k]
            if len(members) == 1:
                c = choices[members[0]]
                options.append(discord.SelectOption(
                    label=clip(name, LABEL_MAX), value=f"c:{members[0]}", emoji=c.emoji or None,
                    description=clip(c.label if c.label != name else c.description, LABEL_MAX) or None))
            else:
                options.append(discord.SelectOption(
                    label=clip(name, LABEL_MAX), value=f"g:{k + 1}", emoji=choices[members[0]].emoji or None,
                    description=clip(tr("cogs.act.group_count", locale, n=len(members)), LABEL_MAX)))
        placeholder = tr("cogs.act.group_placeholder", locale)
    if npages > 1:
        options.append(discord.SelectOption(
            label=clip(tr("cogs.act.more", locale, page=page + 1, pages=npages), LABEL_MAX),
            value=f"p:{(page + 1) % npages}"))
    view.add_item(MoveSelect(match_id, h, group, page, options=options, placeholder=clip(placeholder, 150)))
    for item in multi:
        view.add_item(item)
    if multi:
        lines.append(tr("cogs.batch.tap", locale))
    if group:
        view.add_item(BoardButton(match_id, "act", label=tr("cogs.act.restart", locale),
                                  style=discord.ButtonStyle.secondary))
    lines.append(tr("cogs.act.tap", locale))
    return "\n".join(lines), view


# ---------------------------------------------------------------------------- dynamic items
_STYLES = {
    "act": discord.ButtonStyle.primary,
    "accept": discord.ButtonStyle.success,
    "join": discord.ButtonStyle.success,
    "start": discord.ButtonStyle.primary,
    "decline": discord.ButtonStyle.danger,
    "resign": discord.ButtonStyle.danger,
    "status": discord.ButtonStyle.secondary,
    "judge": discord.ButtonStyle.secondary,
}


class BoardButton(discord.ui.DynamicItem[discord.ui.Button], template=BOARD_TEMPLATE):
    def __init__(self, match_id: int, action: str, *, label: str | None = None,
                 style: discord.ButtonStyle | None = None) -> None:
        super().__init__(discord.ui.Button(
            label=clip(label or action, BUTTON_LABEL_MAX),
            style=style or _STYLES.get(action, discord.ButtonStyle.secondary),
            custom_id=f"m:{int(match_id)}:{action}"))
        self.match_id = int(match_id)
        self.action = action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: Any) -> "BoardButton":
        return cls(int(match["match"]), match["action"], label=item.label, style=item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        await run_in_game(interaction, lambda g: g.on_board_button(interaction, self.match_id, self.action))


class MoveSelect(discord.ui.DynamicItem[discord.ui.Select], template=MOVE_TEMPLATE):
    def __init__(self, match_id: int, h: str, group: int, page: int, *,
                 options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None) -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"m:{int(match_id)}:c:{h}:{int(group)}:{int(page)}",
            options=options or [discord.SelectOption(label="…", value="p:0")],
            placeholder=placeholder, min_values=1, max_values=1))
        self.match_id, self.h, self.group, self.page = int(match_id), h, int(group), int(page)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select,
                             match: Any) -> "MoveSelect":
        return cls(int(match["match"]), match["h"], int(match["group"]), int(match["page"]),
                   options=list(item.options) or None, placeholder=item.placeholder)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []
        value = values[0] if values else ""
        await run_in_game(interaction, lambda g: g.on_menu_select(
            interaction, self.match_id, self.h, self.group, self.page, value))


class ConfirmButton(discord.ui.DynamicItem[discord.ui.Button], template=CONFIRM_TEMPLATE):
    def __init__(self, match_id: int, what: str, *, label: str | None = None) -> None:
        super().__init__(discord.ui.Button(
            label=clip(label or what, BUTTON_LABEL_MAX), style=discord.ButtonStyle.danger,
            custom_id=f"m:{int(match_id)}:ok:{what}"))
        self.match_id, self.what = int(match_id), what

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: Any) -> "ConfirmButton":
        return cls(int(match["match"]), match["what"], label=item.label)

    async def callback(self, interaction: discord.Interaction) -> None:
        await run_in_game(interaction, lambda g: g.on_confirm(interaction, self.match_id, self.what))


class DeckSelect(discord.ui.DynamicItem[discord.ui.Select], template=DECK_TEMPLATE):
    """Pick the deck to play with when accepting or joining a card game."""

    def __init__(self, match_id: int, action: str, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None) -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"m:{int(match_id)}:deck:{action}", options=options or [discord.SelectOption(label="-")],
            placeholder=clip(placeholder, 150) if placeholder else None, min_values=1, max_values=1))
        self.match_id, self.action = int(match_id), action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select,
                             match: Any) -> "DeckSelect":
        return cls(int(match["match"]), match["action"], options=item.options)

    async def callback(self, interaction: discord.Interaction) -> None:
        value = self.item.values[0] if self.item.values else ""
        await run_in_game(interaction, lambda g: g.on_deck_pick(interaction, self.match_id, self.action, value))


# BatchSelect: the menu's multi-selects (cogs/batch_menu.py)
DYNAMIC_ITEMS = (BoardButton, MoveSelect, ConfirmButton, DeckSelect, BatchSelect)


def board_view(match_id: int, status: str, locale: str, *, late_join: bool = False,
               judge: bool = False) -> discord.ui.View | None:
    """The buttons under the board message for a match in ``status`` (None: no buttons).
    ``late_join``: somebody may join the running match now (the host's ``PublicUpdate.joinable``:
    a free seat, or a defeated player's rejoin).  ``judge``: an event match, whose players may
    call a judge (cogs/league_judge.py)."""
    actions = {
        "pending": ("accept", "decline"),
        "open": ("join", "start", "decline"),
        "active": ("act", "status", "resign") + (("join",) if late_join else ()) + (("judge",) if judge else ()),
    }.get(status)
    if not actions:
        return None
    view = discord.ui.View(timeout=None)
    for action in actions:
        key = "cogs.button.withdraw" if (status == "open" and action == "decline") else f"cogs.button.{action}"
        view.add_item(BoardButton(match_id, action, label=tr(key, locale)))
    return view


def act_button(match_id: int, locale: str) -> BoardButton:
    """The Act button: it opens the player's move menu."""
    return BoardButton(match_id, "act", label=tr("cogs.button.act", locale))


