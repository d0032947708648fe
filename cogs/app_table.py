"""Practice anywhere: the bot installed on a player's own account (a user-installed app).

Discord lets a player add the bot to their own account and use some of its commands in any DM,
in group chats and in servers that never added it.  There the bot is no member: it may post
nothing at all (a post is refused, 403/50001) and answers only through the interaction a
player's command or tap made — its response, edits of that response, and at most
:data:`FOLLOWUPS_MAX` follow-ups per interaction (when only the player's install authorized it),
each token living 15 minutes.  In the bot's own DM it could post, but the same path is used
there: one way of showing these matches, everywhere.

**The matches.**  ``/practice`` outside a server (:func:`outside_server`) starts a match against
the computer that belongs to no server (host/practice.py ``anywhere``: no server, no channel,
``meta["app"]``; unrated, in the player's own ``/history``, in no server's statistics) and is
shown only through interactions:

* the command's own response is the board (deferred, then edited), and a follow-up seen by the
  player alone holds their move menu and, in a card game, their hand — so the first move is one
  tap;
* every move is a fresh tap in that menu — the same Act menu as in a server (cogs/controls.py),
  whose pick answers by updating the menu message itself; the result reaches
  :meth:`AppTable.publish` (:meth:`cogs.delivery.Delivery.publish` hands these matches over),
  where the computer answers at once, within the same tap, and the new board goes out as that
  tap's one follow-up.  The previous board is retired through the token that posted it (its
  words stay; its picture and buttons go) while that token lives, and the menu is edited to the
  player's next move, with their hand;
* the board's buttons — Act, Hand (a card game: the hand, to its player alone) and Resign — each
  give a new interaction too.  An update no tap is waiting for (the computer's move after a
  restart) edits the board in place while its token lives; otherwise its words join the next
  board.

Nothing of these matches is ever posted in a channel or sent by DM, and no interaction gets more
than :data:`FOLLOWUPS_MAX` follow-ups (:meth:`AppTable._followup` counts them).

**The commands.**  Every command is installable to servers only (the tree's default, set here),
except :data:`ANYWHERE` — ``/practice``, ``/rules``, ``/help`` and ``/card`` — which the player's
own install offers in every context.  A server-only command that reaches the bot elsewhere all
the same (a client with an old command list) is answered, in words, that it works in a server
(:func:`allowed_here`).

custom_id (≤ 100 chars)::

    u:<match>:hand      the Hand button under such a board
"""
from __future__ import annotations

import asyncio
import functools
import json
import logging
import weakref
from dataclasses import dataclass, replace
from typing import Any, Optional

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import (CONTENT_MAX, NO_PINGS, clip, loc, message_age, render, render_lines, reply, reply_error,
                         run_in_cog, tr, user_locale)
from cogs.board_layout import layout_view, v2_edit, words_view
from cogs.card_lookup import CardLookup
from cogs.components import BoardButton
from cogs.delivery import coalesce
from cogs.undo_controls import move_menu
from data.store import ACTIVE, MatchRecord, TransientStoreError
from host.practice import ai_name_msg

log = logging.getLogger("cogs.app_table")

# the commands a player's own install offers everywhere (their code names)
ANYWHERE = frozenset({"practice", "rules", "help", "card"})
FOLLOWUPS_MAX = 5                   # Discord: follow-ups per interaction of a user-installed app
TOKEN_SAFE = 15 * 60 - 60           # s: an interaction token lives 15 minutes; used only well inside
COMPUTER_MOVES_MAX = 60             # the computer's moves within one tap, at most
LINES_REF = "applines"              # the words waiting for the next board (a JSON list)
WORDS_LINES, WORDS_CHARS = 12, 1700
HAND_TEMPLATE = r"u:(?P<match>\d{1,20}):hand"


def outside_server(interaction: discord.Interaction) -> bool:
    """Is the bot no member where ``interaction`` comes from — a DM (its own too), a group
    chat, a server that has not added it (the player's own install authorized it)?"""
    return interaction.guild_id is None or not interaction.is_guild_integration()


def allowed_here(command: Any, interaction: discord.Interaction) -> bool:
    """May the top-level ``command`` be used where ``interaction`` comes from?  :data:`ANYWHERE`
    everywhere; the others in a server that added the bot, and in the bot's own DM, where each
    answers for itself as before (a server's command refuses there in its own words).  An interaction that names no context is let
    through (as before there were contexts)."""
    if command is None or command.name in ANYWHERE:
        return True
    ctx = interaction.context
    if not (ctx.guild or ctx.dm_channel or ctx.private_channel):
        return True
    if ctx.guild:
        return interaction.guild_id is not None and interaction.is_guild_integration()
    if ctx.dm_channel:
        # the bot's own DM: every command answers for itself there, as it always has — a
        # server's command refuses in its own words ("Leagues belong to a server: use /league
        # inside the server whose league you mean"), which says more than a generic refusal
        return True
    return False


def recent(turn: list[str]) -> list[str]:
    """The newest lines of what happened that fit a board's words."""
    kept: list[str] = []
    size = 0
    for line in reversed(turn):
        line = clip(line, 300)
        if len(kept) == WORDS_LINES or size + len(line) + 1 > WORDS_CHARS:
            break
        kept.insert(0, line)
        size += len(line) + 1
    return kept


def _lines(value: str | None) -> list[str]:
    try:
        lines = json.loads(value) if value else []
    except ValueError:
        return []
    return [str(x) for x in lines] if isinstance(lines, list) else []


@dataclass
class Board:
    """The board of a match now: the interaction webhook (token) that posted it, its message,
    the interaction's id (the token's age), and what it says happened (its words, kept when it
    is retired) with its status line."""

    webhook: Any
    message_id: int
    since: int
    lines: list[str]
    status: str = ""

    @property
    def words(self) -> str:
        return clip("\n".join(recent(self.lines)) or f"**{self.status}**", CONTENT_MAX)


class AppTable(commands.Cog):
    """Matches of no server, shown through interactions only."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self._boards: dict[int, Board] = {}
        self._locks: "weakref.WeakValueDictionary[int, asyncio.Lock]" = weakref.WeakValueDictionary()
        self._sent: dict[int, int] = {}          # interaction id -> follow-ups sent for it
        self._hands: dict[int, bool] = {}        # match id -> does its player hold a hidden hand?
        self._previous_check: Any = None

    @property
    def host(self) -> Any:
        return self.bot.host  # type: ignore[attr-defined]

    @property
    def store(self) -> Any:
        return self.bot.store  # type: ignore[attr-defined]

    @property
    def delivery(self) -> Any:
        return self.bot.get_cog("Delivery")

    # ------------------------------------------------------------------ the install policy
    async def cog_load(self) -> None:
        tree = self.bot.tree
        # installable to servers only, unless a command says otherwise (ANYWHERE)
        tree.allowed_installs = app_commands.AppInstallationType(guild=True, user=False)
        if self._previous_check is None:
            self._previous_check = tree.interaction_check
            tree.interaction_check = self._interaction_check  # type: ignore[method-assign]
        self.bot.add_dynamic_items(HandButton)

    async def cog_unload(self) -> None:
        if self._previous_check is not None:
            self.bot.tree.interaction_check = self._previous_check  # type: ignore[method-assign]
            self._previous_check = None

    async def _interaction_check(self, interaction: discord.Interaction) -> bool:
        name = (interaction.data or {}).get("name") if isinstance(interaction.data, dict) else None
        command = self.bot.tree.get_command(name) if name else None
        if not allowed_here(command, interaction):
            log.info("/%s refused where the bot is not installed for it (context %s)", name, interaction.context)
            if interaction.type is discord.InteractionType.autocomplete:
                await interaction.response.autocomplete([])
            else:
                key = "user_app.err.server_only" if interaction.guild_id is not None else "cogs.err.guild_only"
                await reply_error(interaction, tr(key, user_locale(interaction)))
            return False
        return await self._previous_check(interaction)

    # ------------------------------------------------------------------ helpers
    def owns(self, rec: Any) -> bool:
        """Is this a match of no server, shown through interactions only?"""
        return bool((getattr(rec, "meta", None) or {}).get("app"))

    def _lock(self, match_id: int) -> asyncio.Lock:
        lock = self._locks.get(int(match_id))
        if lock is None:
            lock = self._locks[int(match_id)] = asyncio.Lock()
        return lock

    def _young(self, interaction_id: int) -> bool:
        """Is the token of this interaction still good to use (well inside its 15 minutes)?"""
        return message_age(int(interaction_id), self.host.now()) < TOKEN_SAFE

    @staticmethod
    def _locale(rec: MatchRecord) -> str:
        return loc((rec.meta or {}).get("locale", "en"))

    def _can_follow(self, via: Any) -> bool:
        """Can ``via`` (the tap that made an update) carry a new board as its follow-up: answered
        by updating its own message (a follow-up is then a message of its own) and young."""
        return (isinstance(via, discord.Interaction) and via.response.is_done()
                and via.response.type in (discord.InteractionResponseType.deferred_message_update,
                                          discord.InteractionResponseType.message_update,
                                          discord.InteractionResponseType.channel_message)
                and self._young(via.id))

    async def _followup(self, via: discord.Interaction, *, content: str | None = None, embed: Any = None,
                        file: Any = None, view: Any = None, ephemeral: bool = False) -> Any:
        """One follow-up of ``via`` — never more than :data:`FOLLOWUPS_MAX` for one interaction;
        None when it cannot be sent."""
        sent = self._sent.get(via.id, 0)
        if sent >= FOLLOWUPS_MAX:
            log.info("interaction %s: its %d follow-ups are spent", via.id, FOLLOWUPS_MAX)
            return None
        self._sent[via.id] = sent + 1
        if len(self._sent) > 512:       # forget the interactions whose tokens have lapsed
            self._sent = {k: v for k, v in self._sent.items() if self._young(k)}
        kwargs: dict[str, Any] = {"allowed_mentions": NO_PINGS, "wait": True, "ephemeral": ephemeral}
        for key, value in (("content", content), ("embed", embed), ("file", file), ("view", view)):
            if value is not None:
                kwargs[key] = value
        try:
            return await via.followup.send(**kwargs)
        except discord.HTTPException as exc:
            log.info("interaction %s: a follow-up could not be sent (%s)", via.id, getattr(exc, "code", exc))
            if file is not None:
                file.reset()
            return None

    async def _set_lines(self, match_id: int, lines: list[str] | None) -> None:
        value = json.dumps(lines[-40:], ensure_ascii=False) if lines else None
        await self.store.set_ref(int(match_id), LINES_REF, value)

    # ------------------------------------------------------------------ /practice outside a server
    async def start(self, interaction: discord.Interaction, game: str, level: str, deck: Any = None,
                    card_set: Optional[str] = None) -> None:
        """``/practice`` where the bot is no member: the match, its board as the command's
        response, and the player's move menu (with their hand) seen by them alone."""
        locale = user_locale(interaction)
        await interaction.response.defer(thinking=True)      # the board: for everyone there to see
        result = await self.host.practice(
            game, interaction.user.id, interaction.user.display_name, ai_user=self.bot.user.id, level=level,
            ai_name=ai_name_msg(level).render(locale), deck=deck, locale=locale, cards=card_set, anywhere=True)
        if not result.ok:
            await reply_error(interaction, render(result.error, locale))
            return
        rec = result.match
        log.info("match %s: practice of %s outside a server (context %s)", rec.id, game, interaction.context)
        async with self._lock(rec.id):
            shown = await self._with_computer(result)
            parts = await self._board_parts(shown, [])
            if parts is None:       # (a new match always has a status line)
                await reply_error(interaction, tr("cogs.err.generic", locale))
                return
            view, file, lines, status = parts
            try:
                message = await interaction.edit_original_response(
                    **v2_edit(view, attachments=[file] if file else [], allowed_mentions=NO_PINGS))
            except discord.HTTPException as exc:
                log.info("match %s: the board could not be shown (%s)", rec.id, getattr(exc, "code", exc))
                return
            self._boards[rec.id] = Board(interaction.followup, message.id, interaction.id, lines, status)
            await self._set_lines(rec.id, None)
        await self._offer_menu(interaction, shown.match, locale)
        await self._after(shown.match)

    async def _offer_menu(self, interaction: discord.Interaction, rec: MatchRecord, locale: str) -> None:
        """To the player alone: their move menu and their hand, when a decision is theirs."""
        user = interaction.user.id
        if rec.status != ACTIVE:
            return
        moves = await self.host.choices(rec.id, user, locale)
        if not moves:
            return
        content, view = await move_menu(self.host, rec.id, user, locale, moves)
        embed, file = await self._hand(rec, user, locale)
        await self._followup(interaction, content=content, embed=embed, file=file, view=view, ephemeral=True)

    # ------------------------------------------------------------------ every update
    async def publish(self, result: Any, *, actor: int | None = None, via: Any = None) -> Any:
        """Show an update of such a match (called by :meth:`Delivery.publish`): the computer
        answers first, then the board — the follow-up of ``via``, the tap that made the update —
        and the tap's menu offers the player's next move.  Never raises."""
        rec = getattr(result, "match", None)
        if rec is None or not getattr(result, "ok", False):
            return None
        try:
            async with self._lock(rec.id):
                shown = await self._with_computer(result)
                answered = shown is not result
                message = await self._show(shown, via, fresh=answered or shown.match.status != ACTIVE)
            if answered:          # the computer answered: the player's next move, in their menu
                await self._next_menu(via, shown.match)
            else:                 # the player's turn goes on: the hand beside their menu is redrawn
                await self._redraw_hand(via, shown.match)
        except Exception:
            log.exception("match %s: showing an update outside a server failed", rec.id)
            return None
        await self._after(shown.match)
        return message

    async def _after(self, rec: MatchRecord) -> None:
        """The hooks every shown update calls (:attr:`Delivery.after_publish`): the practice cog's
        check that the computer has nothing left to do, among others."""
        for callback in list(getattr(self.delivery, "after_publish", None) or []):
            try:
                await callback(rec)
            except Exception:
                log.exception("match %s: an after-publish callback failed", rec.id)

    async def _with_computer(self, result: Any) -> Any:
        """``result`` and the computer's moves that follow it at once, as one update."""
        rec = result.match
        results = [result]
        if rec.status == ACTIVE and self.host.ai_seats(rec):
            for _ in range(COMPUTER_MOVES_MAX):
                try:
                    if not await self.host.ai_to_act(rec.id):
                        break
                    moved = await self.host.ai_move(rec.id)
                except TransientStoreError:
                    log.info("match %s: the database failed for a moment; the computer moves at the next tap", rec.id)
                    break
                if moved is None or not moved.ok:
                    break
                results.append(moved)
        return functools.reduce(coalesce, results) if len(results) > 1 else result

    async def _board_parts(self, result: Any, before: list[str]) -> tuple | None:
        """(layout, picture, lines, status) of the board after ``result`` — a Components V2
        layout (cogs/board_layout.py) with its controls: ``before`` — what the board being
        edited already says (``[]`` for a new board) — then the words no board has shown yet,
        then the update's own, above the picture.  None for an update without a board: its words
        wait for the next one."""
        rec, public = result.match, result.public
        locale = self._locale(rec)
        refs = await self.store.get_refs(rec.id)
        status = render(public.status_line, locale) if public is not None and public.status_line is not None else ""
        pending = _lines(refs.get(LINES_REF)) + [x for x in render_lines(public.text if public else [], locale)
                                                 if x != status]
        if not status:
            await self._set_lines(rec.id, pending)
            return None
        lines = list(before) + pending
        words = recent(lines)
        over = rec.status != ACTIVE
        if over:
            words.append(f"**{status}**")
        # the result is said once: in the words above the picture
        layout, file = self.delivery.board_layout(rec, public, locale, lines=[], head="\n".join(words),
                                                  status=not over)
        layout = replace(layout, footer="" if over else tr("user_app.board.footer", locale))
        rows = [await self._controls(rec, locale)] if not over else []
        return layout_view(layout, rows), file, lines, status

    async def _controls(self, rec: MatchRecord, locale: str) -> list[discord.ui.Item]:
        """Act, Hand (when the player holds a hidden hand) and Resign: one row."""
        items: list[discord.ui.Item] = [BoardButton(rec.id, "act", label=tr("cogs.button.act", locale))]
        if await self._has_hand(rec):
            items.append(HandButton(rec.id, label=tr("user_app.button.hand", locale)))
        items.append(BoardButton(rec.id, "resign", label=tr("cogs.button.resign", locale)))
        return items

    async def _has_hand(self, rec: MatchRecord) -> bool:
        if rec.id not in self._hands:
            player = next((u for u in rec.seats if u is not None and u != getattr(self.bot.user, "id", None)), None)
            res = await self.host.hand(rec.id, player) if player is not None else None
            mine = [p for p in res.private if p.user_id == player] if res is not None and res.ok else []
            self._hands[rec.id] = bool(mine and set(mine[0].own) - {"cards", "seat"})
        return self._hands[rec.id]

    async def _show(self, shown: Any, via: Any, *, fresh: bool) -> Any:
        """The board after ``shown``: a new one — ``via``'s follow-up — when the computer has
        answered, when the match has ended or when there is no board to edit (``fresh``);
        otherwise the board edited in place (the player's own move within their turn: its words
        grow), as long as its token lives.  The board before a new one is retired.  When
        neither can be, the update's words wait for the next board."""
        rec = shown.match
        old = self._boards.get(rec.id)
        live = old is not None and self._young(old.since)
        message, board = None, None
        if (fresh or not live) and self._can_follow(via):
            parts = await self._board_parts(shown, [])
            if parts is None:
                return None
            view, file, lines, status = parts
            message = await self._followup(via, file=file, view=view)
            if message is not None:
                board = Board(via.followup, message.id, via.id, lines, status)
        if message is None and live:
            parts = await self._board_parts(shown, old.lines)
            if parts is None:
                return None
            view, file, lines, status = parts
            try:     # the board edited in place (no tap to follow, or the same turn goes on)
                message = await old.webhook.edit_message(old.message_id, **v2_edit(
                    view, attachments=[file] if file else [], allowed_mentions=NO_PINGS))
                board = replace(old, lines=lines, status=status)
            except discord.HTTPException as exc:
                log.info("match %s: its board could not be edited (%s)", rec.id, getattr(exc, "code", exc))
                message = None
        if message is None or board is None:
            parts = await self._board_parts(shown, [])     # nothing shown: the words wait
            if parts is not None:
                await self._set_lines(rec.id, parts[2])
            return None
        if old is not None and old.message_id != board.message_id:
            await self._retire(rec.id, old)
        if rec.status == ACTIVE:
            self._boards[rec.id] = board
        else:           # the final board stays as it is
            self._boards.pop(rec.id, None)
            self._hands.pop(rec.id, None)
        await self._set_lines(rec.id, None)
        return message

    async def _retire(self, match_id: int, board: Board) -> None:
        """A board that is no longer the newest keeps its words; its picture and buttons go —
        through the token that posted it, while that token lives."""
        if not self._young(board.since):
            return
        try:
            await board.webhook.edit_message(board.message_id, **v2_edit(words_view(board.words), attachments=[],
                                                                         allowed_mentions=NO_PINGS))
        except discord.HTTPException as exc:
            log.info("match %s: the board before could not be retired (%s)", match_id, getattr(exc, "code", exc))

    async def _next_menu(self, via: Any, rec: MatchRecord) -> None:
        """The computer has answered a pick in the player's menu: that menu now offers their next
        move, with their hand."""
        if not isinstance(via, discord.Interaction) or via.message is None or not via.message.flags.ephemeral:
            return
        if rec.status != ACTIVE or not self._young(via.id):
            return
        locale = user_locale(via)
        moves = await self.host.choices(rec.id, via.user.id, locale)
        if not moves:
            return
        content, view = await move_menu(self.host, rec.id, via.user.id, locale, moves,
                                        notice=tr("user_app.menu.answered", locale))
        embed, file = await self._hand(rec, via.user.id, locale)
        try:
            await via.edit_original_response(content=content, embed=embed, attachments=[file] if file else [],
                                             view=view)
        except discord.HTTPException as exc:
            log.info("match %s: the menu could not offer the next move (%s)", rec.id, getattr(exc, "code", exc))

    async def _redraw_hand(self, via: Any, rec: MatchRecord) -> None:
        """The player's own move in their menu, their turn going on: the menu keeps its words
        and choices (cogs/controls.py wrote them), the hand shown with it is drawn anew."""
        if not isinstance(via, discord.Interaction) or via.message is None or not via.message.flags.ephemeral:
            return
        if rec.status != ACTIVE or not via.message.embeds or not self._young(via.id):
            return
        embed, file = await self._hand(rec, via.user.id, user_locale(via))
        if embed is None:
            return
        try:
            await via.edit_original_response(embed=embed, attachments=[file] if file else [])
        except discord.HTTPException as exc:
            log.info("match %s: the hand beside the menu could not be redrawn (%s)", rec.id, getattr(exc, "code", exc))

    # ------------------------------------------------------------------ the hand
    async def _hand(self, rec: MatchRecord, user_id: int, locale: str) -> tuple[Any, Any]:
        """The player's hand (embed, picture), shown to them alone; (None, None) when the game
        hides nothing of theirs."""
        res = await self.host.hand(rec.id, user_id)
        if not res.ok:
            return None, None
        await res.ready()
        mine = [p for p in res.private if p.user_id == user_id]
        if not mine or not set(mine[0].own) - {"cards", "seat"}:
            return None, None
        embed, file = self.delivery.private_embed(res.match or rec, mine[0], locale)
        # its last line points at the match's channel: here there is none, only the board's Act
        lines = (embed.description or "").split("\n")
        if (res.match or rec).status == ACTIVE and lines and lines[-1] == tr("cogs.dm.footer", locale, where=""):
            lines = lines[:-1]
        embed.description = clip("\n".join(lines + [tr("user_app.hand.footer", locale)]), 4000)
        return embed, file

    async def on_hand(self, interaction: discord.Interaction, match_id: int) -> None:
        """The Hand button: the player's hand, to them alone."""
        locale = user_locale(interaction)
        try:
            rec = await self.store.get_match(int(match_id))
        except Exception:       # unreadable: said as a match that is not there
            rec = None
        if rec is None or interaction.user.id not in rec.seats:
            await reply_error(interaction, tr("authority.match.elsewhere", locale, match_id=match_id))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        res = await self.host.hand(rec.id, interaction.user.id)
        if res.ok:
            await res.ready()
        mine = [p for p in res.private if p.user_id == interaction.user.id] if res.ok else []
        if not mine or not set(mine[0].own) - {"cards", "seat"}:
            await reply(interaction, tr("cogs.hand.empty", locale))
            return
        # no channel here to point at, only the board's Act: its own small print says so
        view, file = self.delivery.private_layout(res.match or rec, mine[0], locale, to_player=False,
                                                  footer=tr("user_app.hand.footer", locale))
        await reply(interaction, view=view, file=file)


class HandButton(discord.ui.DynamicItem[discord.ui.Button], template=HAND_TEMPLATE):
    """The Hand button under the board of a match of no server."""

    def __init__(self, match_id: int, *, label: str | None = None) -> None:
        super().__init__(discord.ui.Button(label=clip(label or "Hand", 80), style=discord.ButtonStyle.secondary,
                                           custom_id=f"u:{int(match_id)}:hand"))
        self.match_id = int(match_id)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: Any) -> "HandButton":
        return cls(int(match["match"]), label=item.label)

    async def callback(self, interaction: discord.Interaction) -> None:
        await run_in_cog("AppTable", interaction, lambda c: c.on_hand(interaction, self.match_id))


# the cogs of the bot on a player's own account (cogs/__init__.py adds them)
USER_APP_COGS = (AppTable, CardLookup)

__all__ = ["ANYWHERE", "AppTable", "HandButton", "USER_APP_COGS", "allowed_here", "outside_server"]
