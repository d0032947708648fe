"""Sealed pools and drafts in Discord: ``/draft new`` posts the draft's table in the channel
(Join, Start), each drafter picks in their DMs (the pack as a picture, one select), the table
says who is still picking and until when, the bot's clock takes a pick whose time ran out, and
after the picking each player builds a deck from their pool and plays the others at the draft
(``/draft play``).  After a match of a server's own set, each player gets the one-tap survey by
DM.  Thin: every rule is in host/limited/.

Messages are Components V2 layouts (cogs/draft_layouts.py); every control is a persistent
dynamic item, so a draft goes on after a restart.  The table is edited in place, at most once a
second and a half per draft (picks arrive in bursts; Discord rations edits).
"""
from __future__ import annotations

import asyncio
import io
import logging
import time
from typing import Any, Optional

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands, tasks

from cogs.common import (
    L, N, NO_PINGS, loc, render, render_lines, reply, reply_error, safe_text, start_clock, tr, transient,
    user_locale,
)
from cogs.cards import CARD_GAMES, play_set_autocomplete
from cogs.draft_items import TableButton
from cogs.draft_layouts import (
    PACK_PICTURE, POOL_PICTURE, build_layout, pick_layout, survey_layout, table_layout, winston_layout,
)
from cogs.layouts import edit_kwargs, layout, rows_of, send_kwargs
from host.limited.building import load_cards
from host.limited.service import Drafts, TIMERS

log = logging.getLogger("cogs.draft")

TABLE_EVERY = 1.5          # seconds between two edits of one draft's table
EDIT_GAP = 1.1             # seconds between two edits of one DM: Discord allows five in five seconds
FORMATS = [Choice(name=L(f"cmd.draft.format.{f}"), value=f) for f in ("booster", "sealed", "winston")]
SOURCES = [Choice(name=L(f"cmd.draft.source.{s}"), value=s) for s in ("cube", "boosters")]
TIMER_CHOICES = [Choice(name=L(f"cmd.draft.timer.{t}"), value=t) for t in TIMERS]

def _file(png: bytes, name: str) -> discord.File:
    return discord.File(io.BytesIO(png), filename=name)


class Draft(commands.Cog):
    """Limited play: drafts, sealed pools, deck building, the survey."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self._service: Drafts | None = None
        self._due: dict[tuple, asyncio.Task] = {}
        self._last: dict[tuple, float] = {}        # when each key last ran (time.monotonic)
        self._dirty: set[tuple] = set()

    @property
    def service(self) -> Drafts:
        bot = self.bot
        if self._service is None or self._service.store is not bot.store:  # type: ignore[attr-defined]
            host = bot.host  # type: ignore[attr-defined]
            self._service = Drafts(bot.store, load_cards(host.card_sets), host=host, now=host.now)  # type: ignore[attr-defined]
        return self._service

    async def cog_load(self) -> None:
        host = getattr(self.bot, "host", None)
        if host is None:            # --dump-commands
            return
        if self._on_match_finished not in host.on_finish:
            host.on_finish.append(self._on_match_finished)
        start_clock(self.bot, self.clock)

    async def cog_unload(self) -> None:
        self.clock.cancel()
        try:
            self.bot.host.on_finish.remove(self._on_match_finished)  # type: ignore[attr-defined]
        except (AttributeError, ValueError):
            pass

    group = app_commands.Group(name=N("draft", "cmd.draft.name"), description=L("cmd.draft.description"),
                               guild_only=True)

    # ------------------------------------------------------------------ commands
    @group.command(name=N("new", "cmd.draft.new.name"), description=L("cmd.draft.new.description"))
    @app_commands.rename(game=N("game", "cmd.cards.game.name"), format=N("format", "cmd.draft.format.name"),
                         set=N("set", "cmd.draft.set.name"), seats=N("seats", "cmd.draft.seats.name"),
                         source=N("source", "cmd.draft.source.name"), timer=N("timer", "cmd.draft.timer.name"),
                         size=N("cards", "cmd.draft.size.name"))
    @app_commands.describe(game=L("cmd.cards.game.description"), format=L("cmd.draft.format.description"),
                           set=L("cmd.draft.set.description"), seats=L("cmd.draft.seats.description"),
                           source=L("cmd.draft.source.description"), timer=L("cmd.draft.timer.description"),
                           size=L("cmd.draft.size.description"))
    @app_commands.choices(game=CARD_GAMES, format=FORMATS, source=SOURCES, timer=TIMER_CHOICES)
    @app_commands.autocomplete(set=play_set_autocomplete)
    async def new(self, interaction: discord.Interaction, game: str, format: str, set: Optional[str] = None,
                  seats: app_commands.Range[int, 2, 8] = 4, source: Optional[str] = None,
                  timer: Optional[int] = None, size: Optional[app_commands.Range[int, 5, 150]] = None) -> None:
        locale = user_locale(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        res = await self.service.create(guild_id=interaction.guild_id, channel_id=interaction.channel_id,
                                        user_id=interaction.user.id, name=interaction.user.display_name, game=game,
                                        set_name=set, fmt=format, seats=seats, source=source or "cube",
                                        timer=5 if timer is None else timer, size=size)
        if not res.ok:
            await reply_error(interaction, render(res.error, locale))
            return
        row = res.data["draft"]
        await self._remember_locale(interaction, row.id)
        message = await self._post_table(row)
        if message is None:
            await self.service.cancel(row.id, row.guild_id, interaction.user.id)
            await reply_error(interaction, tr("cogs.err.cannot_post", locale))
            return
        await reply(interaction, tr("draft.created", locale, draft=row.id))

    @group.command(name=N("deck", "cmd.draft.deck.name"), description=L("cmd.draft.deck.description"))
    @app_commands.rename(draft=N("draft", "cmd.draft.draft.name"))
    @app_commands.describe(draft=L("cmd.draft.draft.description"))
    async def deck(self, interaction: discord.Interaction, draft: Optional[int] = None) -> None:
        draft_id = await self._mine(interaction, draft)
        if draft_id is not None:
            await self.on_build(interaction, draft_id)

    @group.command(name=N("pool", "cmd.draft.pool.name"), description=L("cmd.draft.pool.description"))
    @app_commands.rename(draft=N("draft", "cmd.draft.draft.name"))
    @app_commands.describe(draft=L("cmd.draft.draft.description"))
    async def pool(self, interaction: discord.Interaction, draft: Optional[int] = None) -> None:
        draft_id = await self._mine(interaction, draft)
        if draft_id is not None:
            await self.on_pool(interaction, draft_id)

    @group.command(name=N("play", "cmd.draft.play.name"), description=L("cmd.draft.play.description"))
    @app_commands.rename(opponent=N("opponent", "cmd.draft.opponent.name"), draft=N("draft", "cmd.draft.draft.name"))
    @app_commands.describe(opponent=L("cmd.draft.opponent.description"), draft=L("cmd.draft.draft.description"))
    async def play(self, interaction: discord.Interaction, opponent: discord.Member, draft: Optional[int] = None) -> None:
        locale = user_locale(interaction)
        draft_id = await self._mine(interaction, draft)
        if draft_id is None:
            return
        game_cog = self.bot.get_cog("Game")
        delivery = self.bot.get_cog("Delivery")
        public_locale = await delivery.locale_for_guild(interaction.guild_id, interaction.guild_locale)
        await interaction.response.defer(ephemeral=True, thinking=True)
        res = await self.service.challenge(draft_id, interaction.guild_id, interaction.user.id,
                                           interaction.user.display_name, opponent.id, opponent.display_name,
                                           interaction.channel_id, locale=public_locale)
        if not res.ok:
            await reply_error(interaction, render(res.error, locale))
            return
        await game_cog.post_new_match(interaction, res, locale, self.bot.host.decline, "cogs.play.posted")  # type: ignore[attr-defined]

    @group.command(name=N("close", "cmd.draft.close.name"), description=L("cmd.draft.close.description"))
    @app_commands.rename(draft=N("draft", "cmd.draft.draft.name"))
    @app_commands.describe(draft=L("cmd.draft.draft.description"))
    async def close(self, interaction: discord.Interaction, draft: int) -> None:
        await self.on_table(interaction, draft, "close")

    async def _mine(self, interaction: discord.Interaction, draft: int | None) -> int | None:
        """The draft named, else the caller's newest draft in this server."""
        if draft is not None:
            return int(draft)
        rows = await self.service.live(interaction.guild_id, interaction.user.id) if interaction.guild_id else []
        if not rows:
            locale = user_locale(interaction)
            await reply_error(interaction, tr("draft.err.none_of_yours", locale, command=self.command("draft new", locale)))
            return None
        return rows[0].id

    # ------------------------------------------------------------------ the table
    async def _table_view(self, row: Any, locale: str) -> discord.ui.LayoutView:
        service = self.service
        waiting = service.waiting_on(row)
        deadlines = [d for d in (service.deadline(row, s) for s in waiting) if d]
        machine = service.read_machine(row) if row.status == "drafting" and row.format == "booster" else None
        round_no = (machine.round, machine.rounds) if machine is not None and not machine.done else None
        return table_layout(row, locale, waiting=waiting, deadline=min(deadlines) if deadlines else None,
                            info=row.state, play=self.command("draft play", locale), round_no=round_no,
                            league=row.league_id, late=service.timed_out(row))

    def command(self, path: str, locale: str) -> str:
        """A command as the reader's client names it (in Japanese, its Japanese name)."""
        from cogs.guide import command_text

        return command_text(self.bot.tree, path, locale)

    async def _locale(self, row: Any) -> str:
        delivery = self.bot.get_cog("Delivery")
        try:
            return await delivery.locale_for_guild(row.guild_id, None)
        except Exception:
            return "en"

    async def _post_table(self, row: Any) -> discord.Message | None:
        locale = await self._locale(row)
        try:
            message = await self.bot.get_partial_messageable(int(row.channel_id)).send(
                **send_kwargs(await self._table_view(row, locale)), allowed_mentions=NO_PINGS)
        except discord.HTTPException as exc:
            log.info("draft %s: its table could not be posted (%s)", row.id, getattr(exc, "code", exc))
            return None
        await self.service.set_ref(row.id, "table", f"{message.channel.id}:{message.id}")
        return message

    def soon(self, key: tuple, make: Any, delay: float = 0.0) -> None:
        """Run ``make()`` (a coroutine function) for ``key`` — one run at a time, at least
        ``delay`` (else :data:`EDIT_GAP`) seconds after the one before, and when asked again
        while one runs, once more after it with the newest state: a burst of picks makes one
        edit of a message, and a message is never edited faster than Discord's five edits in
        five seconds a channel (so no edit ever waits out a rate limit)."""
        task = self._due.get(key)
        if task is not None and not task.done():
            self._dirty.add(key)
            return

        async def run() -> None:
            while True:
                self._dirty.discard(key)
                wait = max(delay, EDIT_GAP - (time.monotonic() - self._last.get(key, -EDIT_GAP)))
                if wait > 0:
                    await asyncio.sleep(wait)
                self._last[key] = time.monotonic()
                try:
                    await make()
                except Exception:
                    log.exception("draft: %s was not shown", key)
                if key not in self._dirty:
                    break
        self._due[key] = asyncio.create_task(run())

    def table_soon(self, draft_id: int) -> None:
        """Edit the draft's table shortly (a burst of picks makes one edit)."""
        self.soon(("table", int(draft_id)), lambda: self._edit_table(int(draft_id)), TABLE_EVERY)

    def dm_soon(self, draft_id: int, user_id: int) -> None:
        """Show the player their draft DM as the draft stands when it is sent."""
        key = ("dm", int(draft_id), int(user_id))

        async def make() -> None:
            row, err = await self.service.get(draft_id)
            if err is None:
                await self.send_front(row, user_id)
                after, err = await self.service.get(draft_id)
                if err is None and not self._same_front(after, row, user_id):
                    self._dirty.add(key)        # it moved on while the DM was sent: once more
        self.soon(key, make)

    async def _edit_table(self, draft_id: int) -> None:
        row, err = await self.service.get(draft_id)
        if err:
            return
        ref = (row.state.get("refs") or {}).get("table")
        if not ref:
            return
        channel_id, message_id = (int(x) for x in ref.split(":"))
        locale = await self._locale(row)
        try:
            await self.bot.get_partial_messageable(channel_id).get_partial_message(message_id).edit(
                **edit_kwargs(await self._table_view(row, locale)), allowed_mentions=NO_PINGS)
        except discord.HTTPException as exc:
            log.info("draft %s: its table could not be edited (%s)", draft_id, getattr(exc, "code", exc))

    async def on_table(self, interaction: discord.Interaction, draft_id: int, action: str) -> None:
        """A button of the table (or /draft close)."""
        locale = user_locale(interaction)
        service = self.service
        guild = interaction.guild_id
        moderator = bool(interaction.guild_id and interaction.permissions.manage_guild)
        if action in ("pack", "pool", "build", "show"):
            await {"pack": self.on_pack, "pool": self.on_pool, "build": self.on_build, "show": self.on_show}[action](
                interaction, draft_id)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        name = interaction.user.display_name
        if action == "join":
            res = await service.join(draft_id, guild, interaction.user.id, name)
            if res.ok:
                await self._remember_locale(interaction, int(draft_id))
        elif action == "leave":
            res = await service.leave(draft_id, guild, interaction.user.id)
        elif action == "start":
            res = await service.start(draft_id, guild, interaction.user.id, moderator=moderator)
        elif action == "cancel":
            res = await service.cancel(draft_id, guild, interaction.user.id, moderator=moderator)
        elif action == "close":
            res = await service.close(draft_id, guild, interaction.user.id, moderator=moderator)
        else:
            return
        if not res.ok:
            await reply_error(interaction, render(res.error, locale))
            return
        turn = res.data.get("turn")
        if turn is not None:
            await self.after_turn(turn)
        else:
            self.table_soon(int(draft_id))
        lines = render_lines(res.info, locale) or [tr("draft.done_ok", locale)]
        await reply(interaction, "\n".join(lines))

    # ------------------------------------------------------------------ an event's pods
    async def show_event(self, lg: Any, results: list) -> None:
        """A sealed or draft event has opened its pods' drafts (host/league_limited.py): each
        pod's table posted in the event's channel, each player asked in their DMs (a sealed
        pool: to build their deck; a draft: their first pack)."""
        for res in results:
            turn = res.data.get("turn")
            if turn is None:
                continue
            if not (turn.draft.state.get("refs") or {}).get("table") and turn.draft.channel_id:
                if await self._post_table(turn.draft) is None:
                    log.info("league %s: draft %s's table was not posted", lg.id, turn.draft.id)
            fresh, err = await self.service.get(turn.draft.id)
            if err is None:
                turn.draft = fresh
            await self.after_turn(turn)

    async def _event_deck_saved(self, row: Any) -> None:
        """A deck saved in an event's pod: registered as the player's locked decklist entry of the
        event at once (the clock does it later if this fails), and the event's message updated."""
        leagues = self.bot.get_cog("Leagues")
        if leagues is None or row.league_id is None:
            return
        try:
            if await leagues.service.limited.sync(int(row.league_id)):
                lg = await leagues.service.get(int(row.league_id))
                if lg is not None:
                    await leagues.refresh(lg)
        except Exception as e:
            if not transient(e):
                log.exception("league %s: a deck of draft %s was not registered yet", row.league_id, row.id)

    async def _event_may_show(self, interaction: discord.Interaction, row: Any, locale: str) -> bool:
        """An event pod's pools, decks and seed: shown under the event's decklist rules (to its
        organisers at any time, to everyone once its lists are public); refused, and said, else."""
        from host.events import entry as E

        leagues = self.bot.get_cog("Leagues")
        lg = await leagues.service.get(int(row.league_id)) if leagues is not None else None
        if lg is not None and lg.guild_id == interaction.guild_id and (
                E.decklists_public(lg.data, lg.status) or await leagues.is_organiser(interaction)):
            return True
        await reply_error(interaction, tr("events.reg.err.decklist_closed", locale))
        return False

    # ------------------------------------------------------------------ after every change
    async def after_turn(self, turn: Any) -> None:
        """Show the people whose pack changed their new pack, say the change in the table, and,
        when the picking ended, ask everyone to build their deck."""
        row = turn.draft
        show = set(turn.show)
        if turn.finished:
            show |= {int(s.user_id) for s in row.seats if s.user_id is not None}
        for uid in sorted(show):
            self.dm_soon(row.id, uid)
        self.table_soon(row.id)

    async def front_view(self, row: Any, user_id: int, *, note: str = "", locale: str | None = None
                         ) -> tuple[discord.ui.LayoutView, list[discord.File]] | None:
        """The player's draft DM as it should be now: what is in front of them (the pack, or the
        Winston pile), what they wait for, or the end of the picking with the way to their deck."""
        service = self.service
        cards, err = await service.cards_of(row)
        if err:
            return None
        seat = service.seat_of(row, user_id)
        if seat is None:
            return None
        locale = locale or await self._user_locale(user_id, row)
        front = service.in_front(row, seat)
        pool = service.pools(row)[seat]
        files: list[discord.File] = []
        if row.format == "winston":
            other = next((s for s in row.seats if s.seat != seat), None)
            other_name = safe_text(other.name, 40) if other and other.user_id else tr("draft.seat.computer", locale)
            view = winston_layout(row, front, cards, pool, locale, other=other_name, note=note)
        else:
            view = pick_layout(row, front, cards, pool, locale, note=note)
        if front is not None:
            from render.pack import pack_png

            title = tr("draft.pic.title", locale, draft=row.id)
            png = await asyncio.to_thread(pack_png, row.game, front["cards"], cards.entries, title=title, locale=locale)
            files.append(_file(png, PACK_PICTURE))
        if row.status in ("building", "done") and front is None:
            sealed = row.format == "sealed"
            blocks = [tr("draft.dm.sealed_build" if sealed else "draft.dm.build", locale, n=len(pool))]
            if row.league_id is not None:      # an event's pool: the deck is locked, its matches the event's
                blocks.append(tr("draft.dm.event", locale, league=row.league_id))
            view = layout(title=tr("draft.dm.sealed_title" if sealed else "draft.dm.over_title", locale, draft=row.id),
                          blocks=blocks,
                          rows=rows_of([TableButton(row.id, "build", label=tr("draft.button.build", locale),
                                                    style=discord.ButtonStyle.primary)]))
        return view, files

    async def send_front(self, row: Any, user_id: int, *, note: str = "") -> None:
        """The player's draft DM (one message a draft, edited in place; sent anew when it cannot
        be edited)."""
        for _ in range(3):      # drawn from the newest draft: a pick made meanwhile is not undone on screen
            made = await self.front_view(row, user_id, note=note)
            if made is None:
                return
            fresh, _err = await self.service.get(row.id)
            if fresh is None or self._same_front(fresh, row, user_id):
                break
            row = fresh
        view, files = made
        ref = (row.state.get("refs") or {}).get(f"dm:{user_id}")
        if ref:
            channel_id, message_id = (int(x) for x in ref.split(":"))
            try:
                await self.bot.get_partial_messageable(channel_id).get_partial_message(message_id).edit(
                    **edit_kwargs(view, files), allowed_mentions=NO_PINGS)
                return
            except discord.HTTPException as exc:
                log.info("draft %s: DM of %s not edited (%s); sent anew", row.id, user_id, getattr(exc, "code", exc))
                for f in files:
                    f.reset()
        try:
            dm = await self.bot.create_dm(discord.Object(int(user_id)))
            message = await dm.send(**send_kwargs(view, files), allowed_mentions=NO_PINGS)
        except discord.HTTPException as exc:
            log.info("draft %s: could not DM %s (%s)", row.id, user_id, getattr(exc, "code", exc))
            return
        await self.service.set_ref(row.id, f"dm:{user_id}", f"{message.channel.id}:{message.id}")

    async def _user_locale(self, user_id: int, where: Any) -> str:
        """A player's language: what their last tap at the draft (or the match) said, else the
        server's."""
        if hasattr(where, "seats") and hasattr(where, "state") and isinstance(where.state, dict):
            said = (where.state.get("refs") or {}).get(f"loc:{user_id}")
            if said:
                return loc(said)
            return await self._locale(where)
        try:
            refs = await self.bot.store.get_refs(int(where.id))  # type: ignore[attr-defined]
            if refs.get(f"loc:{user_id}"):
                return loc(refs[f"loc:{user_id}"])
        except Exception:
            log.debug("the language of user %s could not be read", user_id, exc_info=True)
        return loc((where.meta or {}).get("locale", "en"))

    async def _remember_locale(self, interaction: discord.Interaction, draft_id: int) -> None:
        row, err = await self.service.get(draft_id)
        locale = user_locale(interaction)
        if err is None and (row.state.get("refs") or {}).get(f"loc:{interaction.user.id}") != locale:
            await self.service.set_ref(draft_id, f"loc:{interaction.user.id}", locale)

    # ------------------------------------------------------------------ picks
    async def on_pick(self, interaction: discord.Interaction, draft_id: int, rnd: int, pick: int) -> None:
        """A pick from the DM's select: the DM itself answers (the interaction's own update, so a
        quick drafter never runs into Discord's limit on edits of one message), then whoever the
        pack went to is shown it."""
        card = ((interaction.data or {}).get("values") or [None])[0]
        res = await self.service.pick(draft_id, interaction.user.id, str(card), expect=(rnd, pick))
        await self._answer_in_dm(interaction, res, lambda turn, cards, locale: tr(
            "draft.dm.took", locale, card=safe_text(cards.name(str(card), locale), 80)))

    async def on_winston(self, interaction: discord.Interaction, draft_id: int, turn_no: int, action: str) -> None:
        res = await self.service.winston(draft_id, interaction.user.id, action, turn_no=turn_no)
        await self._answer_in_dm(interaction, res, lambda turn, cards, locale: " ".join(render_lines(turn.said, locale)))

    def _same_front(self, a: Any, b: Any, user_id: int) -> bool:
        seat = self.service.seat_of(a, user_id)
        return a.status == b.status and seat is not None and \
            self.service.in_front(a, seat) == self.service.in_front(b, seat)

    async def _answer_in_dm(self, interaction: discord.Interaction, res: Any, said: Any) -> None:
        locale = user_locale(interaction)
        if not res.ok:
            if res.error.key in ("draft.err.pick.stale", "draft.err.pick.not_your_pack", "draft.err.pick.not_your_turn"):
                # a tap on a menu that is no longer current: the DM shows what is in front now
                row, err = await self.service.get(res.error.params.get("draft", 0))
                made = await self.front_view(row, interaction.user.id, note="⚠️ " + render(res.error, locale),
                                             locale=locale) if err is None else None
                if made is not None:
                    await interaction.response.edit_message(**edit_kwargs(*made))
                    return
            await reply_error(interaction, render(res.error, locale))
            return
        turn = res.data["turn"]
        row, user = turn.draft, interaction.user.id
        cards, _ = await self.service.cards_of(row)
        note = said(turn, cards, locale) if cards is not None else ""
        made = await self.front_view(row, user, note=note, locale=locale)
        if made is not None:
            view, files = made
            try:
                await interaction.response.edit_message(**edit_kwargs(view, files))
                ref = f"{interaction.channel_id}:{interaction.message.id}" if interaction.message else None
                if ref and (row.state.get("refs") or {}).get(f"dm:{user}") != ref:
                    await self.service.set_ref(row.id, f"dm:{user}", ref)
            except discord.HTTPException as exc:
                log.info("draft %s: the DM of %s did not answer (%s)", row.id, user, getattr(exc, "code", exc))
            # a pack that reached them while this answer was drawn: shown after it
            now, err = await self.service.get(row.id)
            if err is None and not self._same_front(now, row, user):
                self.dm_soon(row.id, user)
        turn.show = [u for u in turn.show if u != user]
        if turn.finished:
            turn.show = [int(s.user_id) for s in row.seats if s.user_id is not None and int(s.user_id) != user]
            turn.finished = False
        await self.after_turn(turn)

    async def on_pack(self, interaction: discord.Interaction, draft_id: int) -> None:
        """The table's "My pack": the DM sent again (a player who closed it, or missed it)."""
        locale = user_locale(interaction)
        row, err = await self.service.get(draft_id, interaction.guild_id)
        if err:
            await reply_error(interaction, render(err.error, locale))
            return
        if self.service.seat_of(row, interaction.user.id) is None:
            await reply_error(interaction, tr("draft.err.not_in", locale, draft=row.id))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.service.set_ref(row.id, f"dm:{interaction.user.id}", None)
        row, _ = await self.service.get(draft_id)
        await self.send_front(row, interaction.user.id)
        await reply(interaction, tr("draft.pack_sent", locale))

    async def on_pool(self, interaction: discord.Interaction, draft_id: int) -> None:
        """The player's pool, to them alone, as a picture."""
        locale = user_locale(interaction)
        res = await self.service.pool_of(draft_id, interaction.user.id)
        if not res.ok:
            await reply_error(interaction, render(res.error, locale))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        from render.pack import pool_png

        pool, cards, row = res.data["pool"], res.data["cards"], res.data["draft"]
        png = await asyncio.to_thread(pool_png, row.game, pool, cards.entries,
                                      title=tr("draft.pool.title", locale, draft=row.id), locale=locale)
        names = ", ".join(safe_text(cards.name(c, locale), 40) for c in pool) or "-"
        view = layout(title=tr("draft.pool.title", locale, draft=row.id),
                      pictures=[(POOL_PICTURE, tr("draft.build.pool_alt", locale, n=len(pool)))], blocks=[names])
        await interaction.followup.send(**send_kwargs(view, [_file(png, POOL_PICTURE)]), ephemeral=True)

    async def on_show(self, interaction: discord.Interaction, draft_id: int) -> None:
        """A done draft's pools and decks, to whoever asks (a draft of this server)."""
        locale = user_locale(interaction)
        row, err = await self.service.get(draft_id, interaction.guild_id)
        if err:
            await reply_error(interaction, render(err.error, locale))
            return
        if row.status != "done":
            await reply_error(interaction, tr("draft.err.not_done", locale, draft=row.id))
            return
        if row.league_id is not None and not await self._event_may_show(interaction, row, locale):
            return
        cards, err = await self.service.cards_of(row)
        if err:
            await reply_error(interaction, render(err.error, locale))
            return
        pools = self.service.pools(row)
        blocks = []
        for s in row.seats:
            who = safe_text(s.name, 40) if s.user_id else tr("draft.seat.computer", locale)
            pool = ", ".join(safe_text(cards.name(c, locale), 30) for c in (pools[s.seat] if s.seat < len(pools) else []))
            deck = ", ".join(safe_text(cards.name(c, locale), 30) for c in (s.deck or ()))
            blocks.append(tr("draft.show.seat", locale, seat=s.seat + 1, name=who, pool=pool or "-", deck=deck or "-"))
        blocks.append(tr("draft.show.seed", locale, seed=row.seed.hex()))
        again = await self.service.dealt_again(row)      # the seed deals the same cards again
        if again is not None:
            blocks.append(tr("draft.show.redealt" if again else "draft.show.not_redealt", locale))
        view = layout(title=tr("draft.show.title", locale, draft=row.id), blocks=blocks)
        await reply(interaction, view=view)

    # ------------------------------------------------------------------ deck building
    async def on_build(self, interaction: discord.Interaction, draft_id: int) -> None:
        locale = user_locale(interaction)
        res = await self.service.pool_of(draft_id, interaction.user.id)
        if not res.ok:
            await reply_error(interaction, render(res.error, locale))
            return
        row = res.data["draft"]
        if row.status not in ("building", "done"):
            await reply_error(interaction, tr("draft.err.not_building", locale, draft=row.id))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        view, files = await self._build_view(res, locale)
        await interaction.followup.send(**send_kwargs(view, files), ephemeral=True)

    async def _build_view(self, res: Any, locale: str, **kw: Any) -> tuple[discord.ui.LayoutView, list]:
        from render.pack import pool_png

        row, cards = res.data["draft"], res.data["cards"]
        user = kw.pop("user_id", None)
        chosen = await self.service.chosen(row, user) if user is not None else {}
        png = await asyncio.to_thread(pool_png, row.game, res.data["pool"], cards.entries,
                                      title=tr("draft.pool.title", locale, draft=row.id), locale=locale)
        return (build_layout(row, res.data, locale, chosen=kw.pop("chosen", chosen), play=self.command("draft play", locale),
                             **kw), [_file(png, POOL_PICTURE)])

    async def on_build_select(self, interaction: discord.Interaction, draft_id: int, slot: str) -> None:
        locale = user_locale(interaction)
        values = [str(v) for v in (interaction.data or {}).get("values", [])]
        res = await self.service.build_part(draft_id, interaction.user.id, slot, values)
        if not res.ok:
            await reply_error(interaction, render(res.error, locale))
            return
        await interaction.response.defer()

    async def on_build_button(self, interaction: discord.Interaction, draft_id: int, action: str) -> None:
        locale = user_locale(interaction)
        await interaction.response.defer()
        service = self.service
        row, err = await service.get(draft_id)
        if err:
            await interaction.followup.send(render(err.error, locale), ephemeral=True)
            return
        from host.limited.building import chosen_deck

        chosen = await service.chosen(row, interaction.user.id)
        res = await service.save_deck(draft_id, interaction.user.id, chosen_deck(chosen), auto=action == "auto")
        problems = []
        if not res.ok:
            problems = [render(res.error, locale)] + [render(p, locale) if not isinstance(p, dict)
                                                      else str(p.get("text", "")) for p in res.info]
        pool = await service.pool_of(draft_id, interaction.user.id)
        if pool.ok:
            view, files = await self._build_view(pool, locale, user_id=interaction.user.id, problems=problems,
                                                 saved=res.ok)
            try:
                await interaction.edit_original_response(**edit_kwargs(view, files))
            except discord.HTTPException as exc:
                log.info("draft %s: the deck builder was not redrawn (%s)", draft_id, getattr(exc, "code", exc))
        if res.ok:
            self.table_soon(int(draft_id))
            if res.data["draft"].league_id is not None:
                await self._event_deck_saved(res.data["draft"])

    # ------------------------------------------------------------------ the clock
    @tasks.loop(seconds=5)
    async def clock(self) -> None:
        """Timed-out picks taken by the computer drafter, their players shown their next pack."""
        try:
            results = await self.service.expire_due()
        except Exception as e:
            if not transient(e):
                log.exception("drafts: the clock failed")
            return
        for res in results:
            try:
                await self.after_turn(res.data["turn"])
            except Exception:
                log.exception("drafts: a timed-out pick was not shown")

    @clock.before_loop
    async def _before(self) -> None:
        await self.bot.wait_until_ready()

    # ------------------------------------------------------------------ the survey
    async def _on_match_finished(self, rec: Any) -> None:
        res = await self.service.on_match_finished(rec)
        if not res.ok or not res.data.get("survey"):
            return
        cards, _ = await self.service.cards(rec.guild_id, rec.game, res.data["set"]["name"], res.data["set"]["version"])
        label = f"{safe_text(res.data['set']['name'], 40)} v{res.data['set']['version']}"
        me = getattr(self.bot.user, "id", None)
        for uid, seen in res.data["survey"].items():
            if uid == me:          # the computer's seat in a practice match: no survey to itself
                continue
            locale = await self._user_locale(uid, rec)
            view = survey_layout(rec.id, rec.game, label, seen, cards, locale)
            try:
                dm = await self.bot.create_dm(discord.Object(int(uid)))
                await dm.send(**send_kwargs(view), allowed_mentions=NO_PINGS)
            except discord.HTTPException as exc:
                log.info("match %s: no survey DM to %s (%s)", rec.id, uid, getattr(exc, "code", exc))

    async def on_survey(self, interaction: discord.Interaction, match_id: int, part: str, value: Any) -> None:
        locale = user_locale(interaction)
        if part == "fun":
            res = await self.service.answer_survey(match_id, interaction.user.id, fun=int(value))
        else:
            card = ((interaction.data or {}).get("values") or [None])[0]
            res = await self.service.answer_survey(match_id, interaction.user.id, **{part: card})
        if not res.ok:
            await reply_error(interaction, render(res.error, locale))
            return
        rec, seen = await self.service.survey_cards(match_id, interaction.user.id)
        ref = (rec.meta or {}).get("cards") or {}
        cards, _ = await self.service.cards(rec.guild_id, rec.game, ref.get("name"), ref.get("version"))
        view = survey_layout(rec.id, rec.game, f"{safe_text(ref.get('name', ''), 40)} v{ref.get('version')}",
                             seen or [], cards, locale, answer=res.data["answer"])
        await interaction.response.edit_message(**edit_kwargs(view))


__all__ = ["Draft"]
