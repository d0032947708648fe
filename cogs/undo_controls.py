"""The controls of taking moves back (docs/undo.md): the Act menu's **Undo** button (a move of
the player's own turn that revealed nothing), **Ask for a takeback** (when it is not their turn),
and **Accept** / **Decline** for the players asked.  The host decides (host/undo.py); this only
translates taps into its calls and back.

:class:`UndoControls` is a mixin of :class:`cogs.game.Game` (it uses ``host``, ``_publish``,
``_open_menu`` and ``_remember``).
"""
from __future__ import annotations

import logging
from typing import Any

import discord

from cogs.common import render, reply, reply_error, safe_text, tr, user_locale
from cogs.components import BoardButton, build_menu

log = logging.getLogger("cogs.game")

ACTIONS = ("undo", "takeback", "tbyes", "tbno")


def add_buttons(view: discord.ui.View, buttons: list[discord.ui.Item]) -> None:
    """Add ``buttons`` to ``view`` while it has room (Discord: 5 rows of 5)."""
    for b in buttons:
        try:
            view.add_item(b)
        except ValueError:      # the view is full: the buttons that fit are there
            log.warning("menu full: a %s button was left out", getattr(b, "action", "?"))
            return


async def undo_buttons(host: Any, match_id: int, user_id: int, locale: str) -> list[discord.ui.Item]:
    """The Undo button, when the player's last move of this turn may be undone now."""
    if await host.undo_offer(match_id, user_id):
        return [BoardButton(match_id, "undo", label=tr("undo.button.undo", locale),
                            style=discord.ButtonStyle.secondary)]
    return []


async def move_menu(host: Any, match_id: int, user_id: int, locale: str, moves: list, *,
                    notice: str | None = None, first: list[discord.ui.Item] = ()) -> tuple[str, discord.ui.View]:
    """The Act menu of ``moves`` (:func:`cogs.components.build_menu`, with the player's
    multi-selects), then ``first`` (a takeback's Accept / Decline) and Undo when it is offered."""
    content, view = build_menu(match_id, moves, 0, 0, locale, notice=notice,
                               batches=await host.batch_choices(match_id, user_id, locale))
    add_buttons(view, list(first) + await undo_buttons(host, match_id, user_id, locale))
    return content, view


async def takeback_buttons(host: Any, match_id: int, user_id: int, locale: str) -> list[discord.ui.Item]:
    """Ask for a takeback, when the player may ask for one of their last move now."""
    if await host.takeback_offer(match_id, user_id):
        return [BoardButton(match_id, "takeback", label=tr("undo.button.takeback", locale),
                            style=discord.ButtonStyle.secondary)]
    return []


async def request_part(host: Any, match_id: int, user_id: int, locale: str) -> tuple[str | None, list[discord.ui.Item]]:
    """The open takeback request this player is asked to answer: its line and Accept / Decline."""
    req = await host.takeback_request(match_id, user_id)
    if req is None:
        return None, []
    line = tr("undo.menu.asked", locale, name=safe_text(req["name"], 80), n=req["n"])
    return line, [BoardButton(match_id, "tbyes", label=tr("undo.button.accept", locale),
                              style=discord.ButtonStyle.success),
                  BoardButton(match_id, "tbno", label=tr("undo.button.decline", locale),
                              style=discord.ButtonStyle.danger)]


def undone_lines(entries: list[dict], locale: str, limit: int = 5) -> list[str]:
    """The moves taken back, as ``/match log`` lists them under the moves that stand: the
    newest ``limit``, each in the words the thread told it, how and why it was taken back."""
    if not entries:
        return []
    lines = [tr("undo.log.header", locale)]
    if len(entries) > limit:
        lines.append(tr("undo.log.more", locale, n=len(entries) - limit))
    for e in entries[-limit:]:
        how = tr(f"undo.log.kind.{e['kind']}", locale, reason=safe_text(e.get("reason") or "—", 200))
        lines.append(tr("undo.log.line", locale, seq=e["seq"], name=safe_text(e["name"], 80),
                        move=safe_text(tr("host.raw", locale, text=e["words"]), 200), how=how))
    return lines


class UndoControls:
    """Undo, takeback and its answers (a mixin of the game cog)."""

    async def on_undo_button(self, interaction: discord.Interaction, rec: Any, action: str) -> None:
        """A tap on Undo, Ask for a takeback, Accept or Decline (the board's handler has read the
        match and checked it may be reached from here: cogs/controls.py)."""
        locale = user_locale(interaction)
        user = interaction.user.id
        if user not in rec.seats:
            await reply_error(interaction, tr("cogs.err.stranger", locale, match_id=rec.id))
            return
        in_menu = bool(interaction.message is not None and interaction.message.flags.ephemeral)
        await self._remember(interaction, rec.id)
        if in_menu:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
        if action == "undo":
            result = await self.host.undo(rec.id, user)
        elif action == "takeback":
            result = await self.host.takeback(rec.id, user)
        else:
            result = await self.host.takeback_answer(rec.id, user, action == "tbyes")
        if not result.ok:
            text = "⚠️ " + render(result.error, locale)
            if in_menu:
                await interaction.edit_original_response(content=text, view=None)
            else:
                await reply(interaction, text)
            return
        said = {"undo": "undo.said.undone", "takeback": "undo.said.asked",
                "tbyes": "undo.said.accepted", "tbno": "undo.said.declined"}[action]
        if result.info and action == "takeback":
            text = render(result.info[0], locale)
        else:
            text = tr(said, locale)
        view = None
        if action == "undo" or (action == "tbyes" and result.data.get("rewound")):
            # the turn is theirs again (or still): the next move, in the same message
            moves = await self.host.choices(rec.id, user, locale)
            if moves:
                text, view = await move_menu(self.host, rec.id, user, locale, moves, notice=text)
        if in_menu:
            await interaction.edit_original_response(content=text, view=view)
        else:
            await reply(interaction, text, view=view)
        await self._publish(result, user, via=interaction)
