"""``/cards``: a server's own card sets for the four card games (issue 36) — upload, list,
browse as pictures, compare, export, choose the server's default, delete, balance-test, and
the log of who did what.  Thin: every rule is in :class:`host.card_sets.CardSets` and
:class:`host.balance_runs.BalanceRuns`.

Managing sets (upload, default, delete, balance) takes Manage Server or the role the server
names with ``/cards role``; looking at them (list, show, diff, export) is open to every member.
A set is its server's: every call looks only among the sets of the server it comes from, and a
page button pressed anywhere else answers that there is no such set.

``/cards show`` answers with one Components V2 layout (cogs/layouts.py): the picture of six cards
in a media gallery, each card's name and rules text in words beneath it, ◀ ▶ in a row under them.

custom_id template (≤ 100 chars)::

    cs:<game>:<version id, 0 = shipped>:<page>:<filter>     /cards show, ◀ ▶
"""
from __future__ import annotations

import asyncio
import functools
import io
import logging
import re
from typing import Any, Optional

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from cogs.common import (CHOICE_MAX, L, N, clip, code, file_bytes, game_name, render, render_lines, reply, reply_error,
                         run_in_cog, safe_text, tr, user_locale)
from cogs.layouts import edit_kwargs, layout, rows_of, send_kwargs
from data.card_sets import games
from data.card_sets.upload import MAX_FILE, MAX_UNPACKED
from host.card_sets import ROLE_KEY, SHIPPED, SHIPPED_NAMES, set_label

log = logging.getLogger("cogs.cards")

PAGE_TEMPLATE = r"cs:(?P<game>[a-z_]{2,20}):(?P<set>\d{1,19}):(?P<page>\d{1,4}):(?P<q>.{0,40})"
PER_PAGE = 6
PICTURE = "cards.png"
ACCENT = 0x1ABC9C               # the card pages' colour
RULES_SHOWN = 450               # characters of a card's rules text under the page (six to a page)
PROBLEMS_SHOWN = 12             # problems listed in the answer; all of them in the attached file
CONTENT_MAX = 1900

CARD_GAMES = [Choice(name=app_commands.locale_str(game_name(g, "en"), key=f"game.{g}"), value=g)
              for g in games.GAMES]
MODES = [Choice(name=L("cmd.cards.mode.extend"), value="extend"),
         Choice(name=L("cmd.cards.mode.alone"), value="alone")]


def may_manage(interaction: discord.Interaction, settings: dict) -> bool:
    """Manage Server, or the role the server named for card sets — in the server itself only."""
    if interaction.guild_id is None:
        return False
    if interaction.permissions.manage_guild:
        return True
    role = settings.get(ROLE_KEY)
    roles = [r.id for r in getattr(interaction.user, "roles", []) or []]
    return isinstance(role, int) and role in roles


def _game_of(interaction: discord.Interaction) -> str | None:
    game = getattr(interaction.namespace, "game", None)
    return game if games.adapter(game) is not None else None


async def set_autocomplete(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """This server's sets of the chosen game (and the shipped cards)."""
    game = _game_of(interaction)
    if game is None or interaction.guild_id is None:
        return []
    locale = user_locale(interaction)
    res = await interaction.client.host.card_sets.listing(interaction.guild_id, game)  # type: ignore[attr-defined]
    cur = (current or "").casefold()
    out = [Choice(name=tr("cards.shipped_choice", locale), value=SHIPPED)] if cur in SHIPPED or not cur else []
    for s in res.data.get("sets", []) if res.ok else []:
        newest = s["versions"][-1]
        label = tr("cards.set_choice", locale, name=s["name"], version=newest.version,
                   default=tr("cards.default_mark", locale) if s["default"] else "")
        if cur in s["name"].casefold():
            out.append(Choice(name=clip(label, 100), value=s["name"][:100]))
    return out[:CHOICE_MAX]


async def play_set_autocomplete(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """/play's and /practice's ``set``: as :func:`set_autocomplete`, for the game being started."""
    game = getattr(interaction.namespace, "game", None)
    if games.adapter(game) is None:
        return []
    return await set_autocomplete(interaction, current)



async def _answer(interaction: discord.Interaction, res: Any, locale: str) -> None:
    """What the host said, or its error (localized)."""
    await (reply(interaction, "\n".join(render_lines(res.info, locale))) if res.ok
           else reply_error(interaction, render(res.error, locale)))

class Cards(commands.Cog):
    """A server's own card sets."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @property
    def sets(self) -> Any:
        return self.bot.host.card_sets  # type: ignore[attr-defined]

    @property
    def store(self) -> Any:
        return self.bot.store  # type: ignore[attr-defined]

    def runs(self) -> Any:
        from host.balance_runs import runs_of

        return runs_of(self.bot)

    async def cog_load(self) -> None:
        if getattr(self.bot, "host", None) is None or getattr(self.bot, "store", None) is None:
            return          # a bot made only to list its commands (bot.py --dump-commands)
        runs = self.runs()
        runs.words = safe_text          # the set's deck names in the result post
        if self._run_update not in runs.on_update:
            runs.on_update.append(self._run_update)
        try:        # a run that was playing or waiting when the bot stopped goes on from where it was
            if await self.store.balance_runs(("queued", "running")):
                await runs.start()
        except Exception:
            log.warning("balance runs: could not look for runs to resume", exc_info=True)

    async def cog_unload(self) -> None:
        runs = getattr(self.bot, "balance_runs", None)
        if runs is not None:
            await runs.stop()

    group = app_commands.Group(name=N("cards", "cmd.cards.name"), description=L("cmd.cards.description"),
                               guild_only=True)

    async def _managing(self, interaction: discord.Interaction) -> bool:
        settings = await self.store.get_guild_settings(interaction.guild_id) if interaction.guild_id else {}
        if not may_manage(interaction, settings):
            await reply_error(interaction, tr("cards.err.manage", user_locale(interaction)))
            return False
        return True

    # ------------------------------------------------------------------ upload
    @group.command(name=N("upload", "cmd.cards.upload.name"), description=L("cmd.cards.upload.description"))
    @app_commands.rename(file=N("file", "cmd.cards.file.name"), game=N("game", "cmd.cards.game.name"),
                         name=N("name", "cmd.cards.set.name"), mode=N("mode", "cmd.cards.mode.name"))
    @app_commands.describe(file=L("cmd.cards.file.description"), game=L("cmd.cards.game.description"),
                           name=L("cmd.cards.setname.description"), mode=L("cmd.cards.mode.description"))
    @app_commands.choices(game=CARD_GAMES, mode=MODES)
    async def upload(self, interaction: discord.Interaction, file: discord.Attachment, game: str,
                     name: app_commands.Range[str, 1, 32], mode: Optional[str] = None) -> None:
        locale = user_locale(interaction)
        if not await self._managing(interaction):
            return
        limit = MAX_UNPACKED if file.filename.lower().endswith(".zip") else MAX_FILE
        if file.size > limit:
            await reply_error(interaction, tr("cards.err.too_big", locale, name=safe_text(file.filename, 60),
                                              size=f"{file.size / 1024:,.0f} KiB", limit=f"{limit // 1024} KiB"))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            data = await file.read()
        except (discord.HTTPException, discord.NotFound):
            await reply_error(interaction, tr("cards.err.download", locale))
            return
        res = await self.sets.upload(interaction.guild_id, interaction.user.id, game, name, file.filename, data,
                                     mode or "extend")
        if not res.ok:
            problems = res.data.get("problems") or []
            if not problems:
                await reply_error(interaction, render(res.error, locale))
                return
            lines = [p.render(locale) for p in problems]                 # problems.txt: plain text
            head = tr("cards.problems", locale, count=len(problems), file=code(file.filename))
            shown = "\n".join("• " + p.render(locale, code=code, words=safe_text) for p in problems[:PROBLEMS_SHOWN])
            more = tr("cards.problems_more", locale, count=len(lines) - PROBLEMS_SHOWN) \
                if len(lines) > PROBLEMS_SHOWN else ""
            report = discord.File(io.BytesIO(file_bytes("\n".join(lines) + "\n")), filename="problems.txt")
            await reply(interaction, clip("⚠️ " + "\n".join(x for x in (head, shown, more) if x), CONTENT_MAX),
                        file=report)
            return
        row = res.data["set"]
        lines = render_lines(res.info, locale)
        if not res.data.get("unchanged"):
            lines.append(tr("cards.uploaded_next", locale, name=safe_text(row.name), game=game_name(game, locale)))
        await reply(interaction, clip("\n".join(lines), CONTENT_MAX))

    # ------------------------------------------------------------------ list
    @group.command(name=N("list", "cmd.cards.list.name"), description=L("cmd.cards.list.description"))
    @app_commands.rename(game=N("game", "cmd.cards.game.name"))
    @app_commands.describe(game=L("cmd.cards.game.description"))
    @app_commands.choices(game=CARD_GAMES)
    async def list_sets(self, interaction: discord.Interaction, game: Optional[str] = None) -> None:
        locale = user_locale(interaction)
        res = await self.sets.listing(interaction.guild_id, game)
        if not res.ok:
            await reply_error(interaction, render(res.error, locale))
            return
        lines = []
        for s in res.data["sets"]:
            newest = s["versions"][-1]
            summary = newest.summary or {}
            lines.append(tr("cards.list_line", locale, game=game_name(s["game"], locale), name=safe_text(s["name"]),
                            version=newest.version, versions=len(s["versions"]), cards=summary.get("cards", 0),
                            decks=summary.get("decks", 0), mode=tr(f"cmd.cards.mode.{newest.mode}", locale),
                            default=tr("cards.default_mark", locale) if s["default"] else "",
                            when=f"<t:{int(newest.created_at)}:d>"))
        await reply(interaction, clip("\n".join(lines) or tr("cards.none", locale), CONTENT_MAX))

    # ------------------------------------------------------------------ show
    @group.command(name=N("show", "cmd.cards.show.name"), description=L("cmd.cards.show.description"))
    @app_commands.rename(game=N("game", "cmd.cards.game.name"), card_set=N("set", "cmd.cards.set.name"),
                         version=N("version", "cmd.cards.version.name"), query=N("filter", "cmd.cards.filter.name"),
                         public=N("public", "cmd.cards.public.name"))
    @app_commands.describe(game=L("cmd.cards.game.description"), card_set=L("cmd.cards.set.description"),
                           version=L("cmd.cards.version.description"), query=L("cmd.cards.filter.description"),
                           public=L("cmd.cards.public.description"))
    @app_commands.choices(game=CARD_GAMES)
    @app_commands.autocomplete(card_set=set_autocomplete)
    async def show(self, interaction: discord.Interaction, game: str, card_set: Optional[str] = None,
                   version: Optional[app_commands.Range[int, 1, 100000]] = None,
                   query: Optional[app_commands.Range[str, 0, 30]] = None, public: Optional[bool] = None) -> None:
        locale = user_locale(interaction)
        res = await self.sets.show(interaction.guild_id, game, card_set, version, query or "")
        if not res.ok:
            await reply_error(interaction, render(res.error, locale))
            return
        await interaction.response.defer(ephemeral=not public, thinking=True)
        row = res.data["row"]
        view, file = await self._page(game, row, res.data, 0, locale)
        await interaction.followup.send(**send_kwargs(view, [file]), ephemeral=not public,
                                        allowed_mentions=discord.AllowedMentions.none())

    async def _page(self, game: str, row: Any, data: dict, page: int, locale: str) -> tuple:
        """Page ``page`` of a set as (layout, file): its title, the picture of six cards, each
        card's name and rules text in words (so nothing is only in the picture), ◀ ▶ beneath."""
        from render.card_pages import page_png

        entries = data["entries"]
        pages = max(1, -(-len(entries) // PER_PAGE))
        page = max(0, min(page, pages - 1))
        chunk = entries[page * PER_PAGE:(page + 1) * PER_PAGE]
        title = set_label(row) if row is not None else tr("cards.shipped_title", locale)
        note = tr("cards.filtered", locale, query=data["query"]) if data["query"] else ""
        png = await asyncio.to_thread(page_png, game, chunk, title=title, page=page + 1, pages=pages,
                                      locale=locale, note=note)
        head = tr("cards.show_head", locale, game=game_name(game, locale), shown=len(entries), total=data["total"],
                  page=page + 1, pages=pages)
        view = layout(accent=ACCENT, title=safe_text(title, 120), pictures=[(PICTURE, head)],
                      blocks=[head + ("\n" + tr("cards.filtered", locale, query=safe_text(data["query"])) if note else ""),
                              *(_entry_words(e, locale) for e in chunk)],
                      rows=rows_of(_page_buttons(game, row, data, page, pages)))
        return view, discord.File(io.BytesIO(png), filename=PICTURE)

    async def on_page(self, interaction: discord.Interaction, game: str, set_id: int, page: int, query: str) -> None:
        locale = user_locale(interaction)
        row = None
        if set_id:
            found = await self.store.get_card_set(set_id)
            # a set is its server's: from anywhere else there is no such set
            if found is None or interaction.guild_id is None or found.guild_id != interaction.guild_id \
                    or found.deleted_at is not None or found.game != game:
                await reply_error(interaction, tr("cards.err.gone", locale))
                return
            res = await self.sets.show(interaction.guild_id, game, found.name, found.version, query)
        else:
            res = await self.sets.show(interaction.guild_id, game, None, None, query)
        if not res.ok:
            await reply_error(interaction, render(res.error, locale))
            return
        row = res.data["row"]
        view, file = await self._page(game, row, res.data, page, locale)
        await interaction.response.edit_message(**edit_kwargs(view, [file]))

    # ------------------------------------------------------------------ diff
    @group.command(name=N("diff", "cmd.cards.diff.name"), description=L("cmd.cards.diff.description"))
    @app_commands.rename(game=N("game", "cmd.cards.game.name"), card_set=N("set", "cmd.cards.set.name"),
                         version=N("version", "cmd.cards.version.name"), against=N("against", "cmd.cards.against.name"))
    @app_commands.describe(game=L("cmd.cards.game.description"), card_set=L("cmd.cards.set.description"),
                           version=L("cmd.cards.version.description"), against=L("cmd.cards.against.description"))
    @app_commands.choices(game=CARD_GAMES)
    @app_commands.autocomplete(card_set=set_autocomplete)
    async def diff(self, interaction: discord.Interaction, game: str, card_set: str,
                   version: Optional[app_commands.Range[int, 1, 100000]] = None,
                   against: Optional[app_commands.Range[str, 1, 20]] = None) -> None:
        from data.card_sets.diff import render as words

        locale = user_locale(interaction)
        shipped, old = False, None
        if against:
            a = against.strip().casefold()
            m = re.fullmatch(r"v?(\d{1,6})", a)
            if a in SHIPPED_NAMES:
                shipped = True
            elif m:
                old = int(m.group(1))
            else:
                await reply_error(interaction, tr("cards.err.against", locale, value=safe_text(against, 20)))
                return
        res = await self.sets.diff(interaction.guild_id, game, card_set, version, old, shipped)
        if not res.ok:
            await reply_error(interaction, render(res.error, locale))
            return
        row, base = res.data["row"], res.data["against"]
        new_name, old_name = set_label(row), set_label(base) if base is not None else None
        head = tr("cards.diff_head", locale, new=safe_text(new_name),
                  old=safe_text(old_name) if old_name is not None else tr("cards.shipped_title", locale))
        lines = list(words(res.data["changes"], locale))             # changes.txt: plain text
        body = "\n".join("• " + safe_text(x) for x in lines) or tr("cards.diff_none", locale)
        text = head + "\n" + body
        if len(text) > CONTENT_MAX:
            plain_head = tr("cards.diff_head", locale, new=new_name,
                            old=old_name if old_name is not None else tr("cards.shipped_title", locale))
            report = discord.File(io.BytesIO(file_bytes(plain_head + "\n" + "\n".join(lines) + "\n")),
                                  filename="changes.txt")
            await reply(interaction, clip(text, CONTENT_MAX - 40) + "\n" + tr("cards.diff_file", locale), file=report)
            return
        await reply(interaction, text)

    # ------------------------------------------------------------------ export
    @group.command(name=N("export", "cmd.cards.export.name"), description=L("cmd.cards.export.description"))
    @app_commands.rename(game=N("game", "cmd.cards.game.name"), card_set=N("set", "cmd.cards.set.name"),
                         version=N("version", "cmd.cards.version.name"))
    @app_commands.describe(game=L("cmd.cards.game.description"), card_set=L("cmd.cards.set.description"),
                           version=L("cmd.cards.version.description"))
    @app_commands.choices(game=CARD_GAMES)
    @app_commands.autocomplete(card_set=set_autocomplete)
    async def export(self, interaction: discord.Interaction, game: str, card_set: str,
                     version: Optional[app_commands.Range[int, 1, 100000]] = None) -> None:
        locale = user_locale(interaction)
        res = await self.sets.export(interaction.guild_id, game, card_set, version)
        if not res.ok:
            await reply_error(interaction, render(res.error, locale))
            return
        files = [discord.File(io.BytesIO(body), filename=name) for name, body in res.data["files"].items()][:10]
        await reply(interaction, tr("cards.exported", locale, name=safe_text(set_label(res.data["row"]))), files=files)

    # ------------------------------------------------------------------ default, delete, role, log
    @group.command(name=N("default", "cmd.cards.default.name"), description=L("cmd.cards.default.description"))
    @app_commands.rename(game=N("game", "cmd.cards.game.name"), card_set=N("set", "cmd.cards.set.name"))
    @app_commands.describe(game=L("cmd.cards.game.description"), card_set=L("cmd.cards.default_set.description"))
    @app_commands.choices(game=CARD_GAMES)
    @app_commands.autocomplete(card_set=set_autocomplete)
    async def default(self, interaction: discord.Interaction, game: str, card_set: str) -> None:
        locale = user_locale(interaction)
        if not await self._managing(interaction):
            return
        res = await self.sets.set_default(interaction.guild_id, interaction.user.id, game, card_set)
        await _answer(interaction, res, locale)

    @group.command(name=N("delete", "cmd.cards.delete.name"), description=L("cmd.cards.delete.description"))
    @app_commands.rename(game=N("game", "cmd.cards.game.name"), card_set=N("set", "cmd.cards.set.name"))
    @app_commands.describe(game=L("cmd.cards.game.description"), card_set=L("cmd.cards.set.description"))
    @app_commands.choices(game=CARD_GAMES)
    @app_commands.autocomplete(card_set=set_autocomplete)
    async def delete(self, interaction: discord.Interaction, game: str, card_set: str) -> None:
        locale = user_locale(interaction)
        if not await self._managing(interaction):
            return
        res = await self.sets.delete(interaction.guild_id, interaction.user.id, game, card_set)
        await _answer(interaction, res, locale)

    @group.command(name=N("role", "cmd.cards.role.name"), description=L("cmd.cards.role.description"))
    @app_commands.rename(role=N("role", "cmd.cards.role_opt.name"))
    @app_commands.describe(role=L("cmd.cards.role_opt.description"))
    async def role(self, interaction: discord.Interaction, role: Optional[discord.Role] = None) -> None:
        locale = user_locale(interaction)
        if interaction.guild_id is None or not interaction.permissions.manage_guild:
            await reply_error(interaction, tr("cards.err.role_manage", locale))
            return
        await self.store.set_guild_setting(interaction.guild_id, ROLE_KEY, role.id if role else None)
        await self.store.log_card_set(_log_entry(interaction, "role", role.id if role else None))
        await reply(interaction, tr("cards.role_set", locale, role=role.mention) if role
                    else tr("cards.role_cleared", locale))

    @group.command(name=N("log", "cmd.cards.log.name"), description=L("cmd.cards.log.description"))
    async def show_log(self, interaction: discord.Interaction) -> None:
        locale = user_locale(interaction)
        if not await self._managing(interaction):
            return
        res = await self.sets.log(interaction.guild_id)
        lines = []
        for e in res.data.get("log", []):
            what = tr(f"cards.log.{e.action}", locale, name=safe_text(e.name) if e.name else tr("cards.shipped_title", locale),
                      version=e.version or "", game=game_name(e.game, locale) if e.game != "-" else "",
                      **{k: safe_text(v) if isinstance(v, str) else v for k, v in (e.detail or {}).items()
                         if isinstance(v, (str, int))})
            lines.append(f"<t:{int(e.at)}:f> <@{e.user_id}> {what}")
        await reply(interaction, clip("\n".join(lines) or tr("cards.log_none", locale), CONTENT_MAX))

    # ------------------------------------------------------------------ balance
    @group.command(name=N("balance", "cmd.cards.balance.name"), description=L("cmd.cards.balance.description"))
    @app_commands.rename(game=N("game", "cmd.cards.game.name"), card_set=N("set", "cmd.cards.set.name"),
                         version=N("version", "cmd.cards.version.name"))
    @app_commands.describe(game=L("cmd.cards.game.description"), card_set=L("cmd.cards.set.description"),
                           version=L("cmd.cards.version.description"))
    @app_commands.choices(game=CARD_GAMES)
    @app_commands.autocomplete(card_set=set_autocomplete)
    async def balance(self, interaction: discord.Interaction, game: str, card_set: str,
                      version: Optional[app_commands.Range[int, 1, 100000]] = None) -> None:
        locale = user_locale(interaction)
        if not await self._managing(interaction):
            return
        res = await self.runs().request(interaction.guild_id, interaction.user.id, game, card_set, version,
                                        channel_id=interaction.channel_id, locale=locale)
        if not res.ok:
            await reply_error(interaction, render(res.error, locale))
            return
        await interaction.response.defer(thinking=True)
        run = res.data["run"]
        message = await interaction.followup.send(self.runs().progress_text(run, locale),
                                                  allowed_mentions=discord.AllowedMentions.none(), wait=True)
        await self.runs().attach(run, message.channel.id, message.id)

    # ------------------------------------------------------------------ report
    @group.command(name=N("report", "cmd.cards.report.name"), description=L("cmd.cards.report.description"))
    @app_commands.rename(game=N("game", "cmd.cards.game.name"), card_set=N("set", "cmd.cards.set.name"),
                         version=N("version", "cmd.cards.version.name"), page=N("page", "cmd.cards.page.name"),
                         public=N("public", "cmd.cards.public.name"))
    @app_commands.describe(game=L("cmd.cards.game.description"), card_set=L("cmd.cards.set.description"),
                           version=L("cmd.cards.version.description"), page=L("cmd.cards.page.description"),
                           public=L("cmd.cards.public.description"))
    @app_commands.choices(game=CARD_GAMES)
    @app_commands.autocomplete(card_set=set_autocomplete)
    async def report(self, interaction: discord.Interaction, game: str, card_set: Optional[str] = None,
                     version: Optional[app_commands.Range[int, 1, 100000]] = None,
                     page: Optional[app_commands.Range[int, 1, 100]] = None, public: Optional[bool] = None) -> None:
        """The per-card figures of limited play and the playtest survey for one version of a set
        (host/limited/feedback.py): a picture of 20 cards a page and the whole table as CSV."""
        from cogs.card_report import report_message

        locale = user_locale(interaction)
        draft = self.bot.get_cog("Draft")
        if draft is None:
            await reply_error(interaction, tr("cogs.err.generic", locale))
            return
        await interaction.response.defer(ephemeral=not public, thinking=True)
        res = await draft.service.report(interaction.guild_id, game, card_set, version)
        if not res.ok:
            await reply_error(interaction, render(res.error, locale))
            return
        kwargs = await report_message(res, game, locale, (page or 1) - 1)
        await interaction.followup.send(**kwargs, ephemeral=not public, allowed_mentions=discord.AllowedMentions.none())

    async def _run_update(self, run: Any, text: str, picture: bytes | None, final: bool) -> None:
        """A balance run's progress (edited at most every 10 s) and, at its end, its picture."""
        channel = self.bot.get_channel(run.channel_id) if run.channel_id else None
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(run.channel_id) if run.channel_id else None
            except discord.HTTPException:
                return
        if channel is None:
            return
        try:
            if run.message_id:
                await channel.get_partial_message(run.message_id).edit(
                    content=text if not final else text.split("\n", 1)[0], allowed_mentions=discord.AllowedMentions.none())
            if final:
                files = [discord.File(io.BytesIO(picture), filename="balance.png")] if picture else []
                await channel.send(content=clip(text, CONTENT_MAX), files=files,
                                   allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.warning("balance run %s: could not post its progress", run.id, exc_info=True)


def _entry_words(e: Any, locale: str) -> str:
    """A card (or deck) of a page in words: its name (a shipped card marked so), then its rules
    text in the reader's language (a deck: its list), clipped."""
    name = safe_text(e.name.get(locale) or e.name.get("en") or e.id, 60)
    line = ("📦 " if e.deck else "🃏 ") + f"**{name}**" + ("" if e.own else " " + tr("cards.shipped_mark", locale))
    rules = getattr(e, "rules", None) or {}
    text = str(rules.get(locale) or rules.get("en") or "")
    return line + ("\n" + safe_text(text, RULES_SHOWN, lines=True) if text else "")


def _page_buttons(game: str, row: Any, data: dict, page: int, pages: int) -> list[discord.ui.Item]:
    """◀ ▶ of a set's pages (none for one page); a disabled button points at the page shown, so
    the two ids always differ."""
    if pages <= 1:
        return []
    sid = row.id if row is not None else 0
    q = data["query"][:30].replace("\n", " ")
    out: list[discord.ui.Item] = []
    for target, label, disabled in ((page - 1 if page > 0 else page, "◀", page == 0),
                                    (page + 1 if page + 1 < pages else page, "▶", page + 1 >= pages)):
        button = discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, disabled=disabled,
                                   custom_id=f"cs:{game}:{sid}:{target}:{q}")
        out.append(CardPage(button, game, sid, target, q))
    return out


def _log_entry(interaction: discord.Interaction, action: str, value: Any) -> Any:
    from data.store import CardSetLog

    return CardSetLog(int(interaction.guild_id), interaction.user.id, action, "-", None, None,
                      {"role": value} if value is not None else {})


# ---------------------------------------------------------------------------- dynamic items
_run = functools.partial(run_in_cog, "Cards")


class CardPage(discord.ui.DynamicItem[discord.ui.Button], template=PAGE_TEMPLATE):
    def __init__(self, item: discord.ui.Button, game: str, set_id: int, page: int, query: str) -> None:
        super().__init__(item)
        self.game, self.set_id, self.page, self.query = game, set_id, page, query

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any):
        return cls(item, match["game"], int(match["set"]), int(match["page"]), match["q"].strip())

    async def callback(self, interaction: discord.Interaction) -> None:
        await _run(interaction, lambda c: c.on_page(interaction, self.game, self.set_id, self.page, self.query))


DYNAMIC_ITEMS = (CardPage,)

__all__ = ["Cards", "DYNAMIC_ITEMS", "may_manage", "set_autocomplete", "play_set_autocomplete"]
