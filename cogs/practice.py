"""``/practice game [level] [deck]`` (issue 17): a match against the computer, unrated.

The computer takes the second seat under the bot's own user.  Whenever a shown update leaves
it to act, it moves after a short, natural delay through the host like anyone else (logged,
replayable, its hand kept secret); after a restart the matches waiting for it are picked up.
"""
from __future__ import annotations

import asyncio
import logging
from typing import Any, Optional

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from cogs.common import (GAME_CHOICES, L, N, game_name, missing_permissions, permission_names, render, render_lines,
                         reply_error, safe_text, tr, user_locale)
from cogs.app_table import outside_server
from cogs.cards import play_set_autocomplete
from cogs.decks import any_deck_autocomplete
from data.store import ACTIVE, TransientStoreError
from host.shards import owns
from host.decks import DeckBook
from host.practice import ai_name_msg
from host.types import Result
from rules import registry

log = logging.getLogger("cogs.practice")

THINK_S = 1.2        # the computer's pause before it moves, so its moves read as moves
# the database failed for a moment: the computer tries its move again after these pauses
RETRY_S = (2.0, 5.0, 10.0, 20.0, 30.0)


def _level_choices() -> list[Choice[str]]:
    return [Choice(name=app_commands.locale_str(tr(f"host.ai_level.{lv}", "en"), key=f"host.ai_level.{lv}"),
                   value=lv) for lv in ("easy", "normal", "hard")]


class Practice(commands.Cog):
    """Practice against the computer."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self._turns: dict[int, asyncio.Task] = {}

    @property
    def host(self) -> Any:
        return self.bot.host  # type: ignore[attr-defined]

    @property
    def delivery(self) -> Any:
        return self.bot.get_cog("Delivery")

    async def cog_load(self) -> None:
        delivery = self.delivery
        if delivery is not None:
            delivery.after_publish.append(self._shown)

    async def cog_unload(self) -> None:
        for task in self._turns.values():
            task.cancel()

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """After a restart: every running practice match that waits for the computer (with
        several processes, those of this process's shards: host/shards.py)."""
        me = getattr(self.bot.user, "id", None)
        if me is None:
            return
        try:
            running = await self.bot.store.matches_for_user(int(me), (ACTIVE,), limit=100_000)  # type: ignore[attr-defined]
        except Exception:
            log.exception("practice matches could not be listed")
            return
        for rec in running:
            if self.host.ai_seats(rec) and owns(self.host.shards, rec.guild_id):
                self.schedule(rec.id)

    async def _shown(self, rec: Any) -> None:
        if rec.status == ACTIVE and self.host.ai_seats(rec):
            self.schedule(rec.id)

    def schedule(self, match_id: int) -> None:
        task = self._turns.get(match_id)
        if task is not None and not task.done():
            return
        self._turns[match_id] = asyncio.get_running_loop().create_task(self._turn(match_id))

    async def _turn(self, match_id: int) -> None:
        """The computer's moves while it is to act (several in a row when the game says so)."""
        retries = iter(RETRY_S)
        try:
            while True:
                try:
                    if not await self.host.ai_to_act(match_id):
                        break
                    await asyncio.sleep(THINK_S)
                    result = await self.host.ai_move(match_id)
                except TransientStoreError:
                    result = Result.fail("host.err.transient")
                if result is not None and not result.ok and result.error.key == "host.err.transient":
                    pause = next(retries, None)      # the database failed for a moment: again
                    if pause is None:
                        log.warning("match %s: the computer could not move (the database did not "
                                    "answer); it tries again at the next update of the match or restart", match_id)
                        break
                    await asyncio.sleep(pause)
                    continue
                if result is None or not result.ok:
                    break
                retries = iter(RETRY_S)
                if self.delivery is not None:
                    await self.delivery.publish(result, actor=getattr(self.bot.user, "id", None))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("match %s: the computer's move failed", match_id)
        finally:
            self._turns.pop(match_id, None)

    # ------------------------------------------------------------------ /practice
    @app_commands.command(name=N("practice", "cmd.practice.name"), description=L("cmd.practice.description"))
    @app_commands.allowed_installs(guilds=True, users=True)      # also on a player's own account:
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)   # cogs/app_table.py
    @app_commands.rename(game=N("game", "cmd.practice.game.name"), level=N("level", "cmd.practice.level.name"),
                         deck=N("deck", "cmd.practice.deck.name"), card_set=N("set", "cmd.play.set.name"))
    @app_commands.describe(game=L("cmd.practice.game.description"), level=L("cmd.practice.level.description"),
                           deck=L("cmd.practice.deck.description"), card_set=L("cmd.play.set.description"))
    @app_commands.choices(game=GAME_CHOICES, level=_level_choices())
    @app_commands.autocomplete(deck=any_deck_autocomplete, card_set=play_set_autocomplete)
    async def practice(self, interaction: discord.Interaction, game: str, level: Optional[str] = None,
                       deck: Optional[app_commands.Range[str, 1, 1000]] = None,
                       card_set: Optional[app_commands.Range[str, 1, 40]] = None) -> None:
        await self.start(interaction, game, level, deck, card_set=card_set)

    async def start(self, interaction: discord.Interaction, game: str, level: Optional[str] = None,
                    deck: Optional[str] = None, *, card_set: Optional[str] = None) -> None:
        """Start a practice match (``/practice``, or ``/play`` with the bot as the opponent)."""
        locale = user_locale(interaction)
        game = str(game or "").strip()
        if game not in registry:
            await reply_error(interaction, tr("cogs.err.unknown_game", locale, game=safe_text(game, 40),
                                              games=tr("core.list_sep", locale).join(game_name(n, locale) for n in registry.names())))
            return
        # where the bot is no member (a DM, a group chat, a server without it): a match of no
        # server, shown through the player's interactions only (cogs/app_table.py)
        anywhere = outside_server(interaction)
        missing = [] if anywhere else missing_permissions(interaction.app_permissions,
                                                          in_thread=isinstance(interaction.channel, discord.Thread))
        if missing:
            await reply_error(interaction, tr("cogs.err.missing_permissions", locale,
                                              perms=permission_names(missing, locale)))
            return
        cards = await self.host.card_sets.resolve(None if anywhere else interaction.guild_id, game, card_set)
        if not cards.ok:
            await reply_error(interaction, render(cards.error, locale))
            return
        chosen, err = await DeckBook(self.bot.store).for_play(interaction.user.id, game, deck,  # type: ignore[attr-defined]
                                                              engine=cards.data["engine"])
        if err is not None:
            await reply_error(interaction, "\n".join([render(err.error, locale)]
                                                      + ["• " + t for t in render_lines(err.info, locale)]))
            return
        level = level or "normal"
        if anywhere:
            await self.bot.get_cog("AppTable").start(interaction, game, level, chosen, card_set=card_set)
            return
        public_locale = await self.delivery.locale_for_guild(interaction.guild_id, interaction.guild_locale)
        await interaction.response.defer(ephemeral=True, thinking=True)
        result = await self.host.practice(
            game, interaction.user.id, interaction.user.display_name, ai_user=self.bot.user.id, level=level,
            ai_name=ai_name_msg(level).render(public_locale), deck=chosen, guild_id=interaction.guild_id,
            channel_id=interaction.channel_id, locale=public_locale, cards=card_set)
        if not result.ok:
            await reply_error(interaction, render(result.error, locale))
            return
        await self.bot.get_cog("Game").post_new_match(interaction, result, locale, self.host.abort, "cogs.practice.posted",
                                                      level=tr(f"host.ai_level.{level}", locale))
