"""Persistent buttons and selects.

Every item is a :class:`discord.ui.DynamicItem`: its ``custom_id`` carries the match id (and,
for the Act menu, where in the menu the player is), so after a restart the same message keeps
working — nothing is read from memory, the match always comes from the host/store.

The Act menu is game-agnostic: commands are space-separated tokens and the menu is the prefix
tree of the player's legal commands.  A select offers the distinct next tokens (paged with
"…more" beyond 25), a confirm button appears as soon as the chosen tokens form a complete legal
command.  ``custom_id`` holds a short hash of the legal list, so a menu opened before the
position changed is detected and refreshed instead of playing a different command.

custom_id templates (all ≤ 100 chars)::

    m:<match>:<act|accept|decline|join|start|resign|status>    board buttons
    m:<match>:t:<hash>:<depth>:<ref>:<page>                     Act menu select
    m:<match>:go:<hash>:<idx>                                   Act menu confirm
    m:<match>:ok:resign                                         resign confirmation
    m:<match>:deck:<accept|join>                                deck picker (card games)
"""
from __future__ import annotations

import logging
import zlib
from typing import TYPE_CHECKING, Any

import discord

from cogs.common import LABEL_MAX, SELECT_MAX, clip, tr, user_locale, reply_error

if TYPE_CHECKING:  # pragma: no cover
    from cogs.game import Game

log = logging.getLogger("cogs.components")

BOARD_TEMPLATE = r"m:(?P<match>\d{1,20}):(?P<action>act|accept|decline|join|start|resign|status)"
TREE_TEMPLATE = r"m:(?P<match>\d{1,20}):t:(?P<h>[0-9a-f]{1,8}):(?P<depth>\d{1,3}):(?P<ref>\d{1,6}):(?P<page>\d{1,4})"
GO_TEMPLATE = r"m:(?P<match>\d{1,20}):go:(?P<h>[0-9a-f]{1,8}):(?P<idx>\d{1,6})"
CONFIRM_TEMPLATE = r"m:(?P<match>\d{1,20}):ok:(?P<what>resign)"
DECK_TEMPLATE = r"m:(?P<match>\d{1,20}):deck:(?P<action>accept|join)"

BUTTON_LABEL_MAX = 80
PAGE_SIZE = SELECT_MAX - 1          # one slot for "…more" when a level is paged


# ---------------------------------------------------------------------------- prefix tree
def legal_hash(legal: list[str]) -> str:
    """A short, stable fingerprint of a legal-command list."""
    return format(zlib.crc32("\n".join(legal).encode("utf-8")), "x")


def level(legal: list[str], prefix: list[str]) -> tuple[list[tuple[str, int]], int | None]:
    """The distinct next tokens after ``prefix`` (with the index of a command that has them)
    and the index of ``prefix`` itself if it is a complete legal command."""
    n = len(prefix)
    children: dict[str, int] = {}
    complete: int | None = None
    for i, command in enumerate(legal):
        tokens = command.split()
        if tokens[:n] != prefix:
            continue
        if len(tokens) == n:
            if complete is None:
                complete = i
        else:
            children.setdefault(tokens[n], i)
    return list(children.items()), complete


def descend(legal: list[str], prefix: list[str]) -> tuple[list[str], list[tuple[str, int]], int | None]:
    """Follow forced steps: while there is exactly one way on and no complete command, take it."""
    prefix = list(prefix)
    while True:
        children, complete = level(legal, prefix)
        if complete is None and len(children) == 1:
            prefix.append(children[0][0])
            continue
        return prefix, children, complete


def prefix_from(legal: list[str], depth: int, ref: int) -> list[str] | None:
    if depth == 0:
        return []
    if not 0 <= ref < len(legal):
        return None
    tokens = legal[ref].split()
    if len(tokens) < depth:
        return None
    return tokens[:depth]


def pages_of(children: list[Any]) -> int:
    if len(children) <= SELECT_MAX:
        return 1
    return (len(children) + PAGE_SIZE - 1) // PAGE_SIZE


def build_menu(match_id: int, legal: list[str], prefix: list[str], page: int, locale: str,
               notice: str | None = None) -> tuple[str, discord.ui.View]:
    """Content and view of the ephemeral Act menu at ``prefix``."""
    prefix, children, complete = descend(legal, prefix)
    h = legal_hash(legal)
    depth = len(prefix)
    ref = next((i for i, c in enumerate(legal) if c.split()[:depth] == prefix), 0)
    view = discord.ui.View(timeout=None)
    if children:
        npages = pages_of(children)
        page = page % npages
        if npages == 1:
            shown = children
        else:
            shown = children[page * PAGE_SIZE:(page + 1) * PAGE_SIZE]
        options = []
        for token, idx in shown:
            sofar = " ".join(prefix + [token])
            options.append(discord.SelectOption(label=clip(token, LABEL_MAX), value=f"{depth + 1}:{idx}",
                                                description=clip(sofar, LABEL_MAX)))
        if npages > 1:
            options.append(discord.SelectOption(
                label=clip(tr("cogs.act.more", locale, page=page + 1, pages=npages), LABEL_MAX),
                value=f"p:{(page + 1) % npages}"))
        view.add_item(TreeSelect(match_id, h, depth, ref, page, options=options,
                                 placeholder=clip(tr("cogs.act.placeholder", locale), 150)))
    if complete is not None:
        view.add_item(GoButton(match_id, h, complete,
                               label=clip(tr("cogs.act.confirm", locale, command=legal[complete]),
                                          BUTTON_LABEL_MAX)))
    if depth:
        view.add_item(BoardButton(match_id, "act", label=tr("cogs.act.restart", locale),
                                  style=discord.ButtonStyle.secondary))
    lines = []
    if notice:
        lines.append(notice)
    lines.append(tr("cogs.act.header", locale, match_id=match_id,
                    sofar=clip(" ".join(prefix), 200) or "…", n=len(legal)))
    if complete is not None and not children:
        lines.append(tr("cogs.act.ready", locale, command=clip(legal[complete], 300)))
    return "\n".join(lines), view


# ---------------------------------------------------------------------------- dynamic items
def _game(interaction: discord.Interaction) -> "Game | None":
    return interaction.client.get_cog("Game")  # type: ignore[union-attr]


async def _run(interaction: discord.Interaction, coro_factory) -> None:
    """Call a Game-cog handler; a missing cog or an unexpected error gets a localized answer."""
    game = _game(interaction)
    if game is None:
        await reply_error(interaction, tr("cogs.err.generic", user_locale(interaction)))
        return
    try:
        await coro_factory(game)
    except Exception:
        log.exception("component %s failed", (interaction.data or {}).get("custom_id"))
        await reply_error(interaction, tr("cogs.err.generic", user_locale(interaction)))


_STYLES = {
    "act": discord.ButtonStyle.primary,
    "accept": discord.ButtonStyle.success,
    "join": discord.ButtonStyle.success,
    "start": discord.ButtonStyle.primary,
    "decline": discord.ButtonStyle.danger,
    "resign": discord.ButtonStyle.danger,
    "status": discord.ButtonStyle.secondary,
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
        await _run(interaction, lambda g: g.on_board_button(interaction, self.match_id, self.action))


class TreeSelect(discord.ui.DynamicItem[discord.ui.Select], template=TREE_TEMPLATE):
    def __init__(self, match_id: int, h: str, depth: int, ref: int, page: int, *,
                 options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None) -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"m:{int(match_id)}:t:{h}:{int(depth)}:{int(ref)}:{int(page)}",
            options=options or [discord.SelectOption(label="…", value="0:0")],
            placeholder=placeholder, min_values=1, max_values=1))
        self.match_id, self.h, self.depth, self.ref, self.page = int(match_id), h, int(depth), int(ref), int(page)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select,
                             match: Any) -> "TreeSelect":
        return cls(int(match["match"]), match["h"], int(match["depth"]), int(match["ref"]),
                   int(match["page"]), options=list(item.options) or None, placeholder=item.placeholder)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []
        value = values[0] if values else ""
        await _run(interaction, lambda g: g.on_menu_select(
            interaction, self.match_id, self.h, self.depth, self.ref, self.page, value))


class GoButton(discord.ui.DynamicItem[discord.ui.Button], template=GO_TEMPLATE):
    def __init__(self, match_id: int, h: str, idx: int, *, label: str | None = None) -> None:
        super().__init__(discord.ui.Button(
            label=clip(label or "OK", BUTTON_LABEL_MAX), style=discord.ButtonStyle.success,
            custom_id=f"m:{int(match_id)}:go:{h}:{int(idx)}"))
        self.match_id, self.h, self.idx = int(match_id), h, int(idx)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: Any) -> "GoButton":
        return cls(int(match["match"]), match["h"], int(match["idx"]), label=item.label)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _run(interaction, lambda g: g.on_menu_go(interaction, self.match_id, self.h, self.idx))


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
        await _run(interaction, lambda g: g.on_confirm(interaction, self.match_id, self.what))


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
        await _run(interaction, lambda g: g.on_deck_pick(interaction, self.match_id, self.action, value))


DYNAMIC_ITEMS = (BoardButton, TreeSelect, GoButton, ConfirmButton, DeckSelect)


def board_view(match_id: int, status: str, locale: str, *, late_join: bool = False) -> discord.ui.View | None:
    """The buttons under the board message for a match in ``status`` (None: no buttons).
    ``late_join``: somebody may join the running match now (the host's ``PublicUpdate.joinable``:
    a free seat, or a defeated player's rejoin)."""
    actions = {
        "pending": ("accept", "decline"),
        "open": ("join", "start", "decline"),
        "active": ("act", "status", "resign") + (("join",) if late_join else ()),
    }.get(status)
    if not actions:
        return None
    view = discord.ui.View(timeout=None)
    for action in actions:
        key = "cogs.button.withdraw" if (status == "open" and action == "decline") else f"cogs.button.{action}"
        view.add_item(BoardButton(match_id, action, label=tr(key, locale)))
    return view


def act_view(match_id: int, locale: str) -> discord.ui.View:
    """The Act button alone, for a DM: the player answers a decision of theirs (a chain, a
    battle support, a discard…) where they are asked, through the same menu as under the board."""
    view = discord.ui.View(timeout=None)
    view.add_item(BoardButton(match_id, "act", label=tr("cogs.button.act", locale)))
    return view
