"""Turning host Results into Discord messages.

* Every board — a challenge, the board of a match under way, the final board — is one
  Components V2 message (cogs/board_layout.py): its title, words, status, players and clock as
  text, its picture in a media gallery, its controls in rows beneath, the accent the colour of
  the player to act.  Such a message has no ``content``: its pings are mentions in its text,
  notified through ``allowed_mentions``; and it stays V2 for good, so every edit sends a layout.
* A **challenge** is one message edited in place until it is accepted; its location is kept
  with ``store.set_ref(match_id, "board", "<channel_id>:<message_id>")``.
* A match that starts gets its own **thread** under the channel (server setting ``thread``),
  created from the challenge message; the host is told with ``host.set_channel``.
* The **board** of a match under way is always the newest message of its thread
  (:meth:`Delivery.turn_board`): edited in place while the same players are awaited, posted anew
  — with what happened in the turn, in words, and a ping for whoever acts now — when the turn
  passes or the match ends; the previous board keeps its words and loses its picture and
  controls (an edit to a layout of its words alone).  If the thread is gone the match falls
  back to its home channel.  A new board that follows a player's tap in the thread goes out as
  that interaction's **follow-up** (:meth:`Delivery._followup`): the same message, pings and
  controls, but Discord does not count interaction follow-ups against the bot's global rate
  limit, so a live match spends its budget only on edits.
* **Notices** without a board (clock reminders, lapsed challenges) are short messages pinging
  exactly the users concerned (``AllowedMentions`` users only).
* **Private views** go by DM, edited in place (ref ``dm:<user>``), each a layout of its own
  (:meth:`PrivateDelivery.private_layout`).  Closed DMs (403/50007) get a
  notice in the match channel, without secrets, pointing to ``/match hand``.  A failed DM never
  blocks the public update: public first, then each DM on its own.
* A 30-second **clock loop** calls ``host.tick()`` and delivers what it returns.
* **Who is pinged** is each player's own choice (:meth:`Delivery._told`, cogs/notices.py): a ping
  in the thread, a DM with a jump link instead, or nothing but the daily digest; nothing during
  their quiet hours (the notice is held until they end).

Private views are never logged.
"""
from __future__ import annotations

import asyncio
import json
import logging
import weakref
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import discord
from discord.ext import commands, tasks

from cogs.common import (
    CONTENT_MAX, NO_PINGS, clip, game_name, loc, mention_line, message_age, pings, render, render_lines,
    safe_text, start_clock, too_old_to_edit, tr,
)
from cogs.board_layout import (LINES_SHOWN, Layout, board_parts, layout_view, send_layout, v2_edit, view_items, words_view)
from cogs.components import board_view
from cogs.layouts import rows_of
from cogs.dms import PrivateDelivery
from cogs.board_clock import archive_minutes, turn_span
from cogs.notices import told
from data import i18n
from data.store import ABORTED, ACTIVE, FINISHED, OPEN, PENDING, MatchRecord
from host.queries import MOVED_FROM

log = logging.getLogger("cogs.delivery")

DM_CLOSED = 50007
# An interaction token lives 15 minutes; a follow-up is tried only well inside that.
FOLLOWUP_MAX_AGE = 10 * 60
# The answers after which a follow-up is a new message of its own: the tap's message updated
# (or its update deferred).  After a "thinking" defer the first follow-up would replace it.
_UPDATED = (discord.InteractionResponseType.deferred_message_update, discord.InteractionResponseType.message_update)
DEFAULT_SETTINGS = {"thread": True, "language": "auto", "gif": True}
FINAL_KEPT = 64     # final boards kept for the after-publish hooks (Delivery.final_boards)


def _split_ref(value: str | None) -> tuple[int, int] | None:
    if not value or ":" not in value:
        return None
    a, _, b = value.partition(":")
    try:
        return int(a), int(b)
    except ValueError:
        return None


class Delivery(PrivateDelivery, commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        # One publish at a time per match (a thread is created once; board edits stay in
        # order), and never show an older version of a match over a newer one.
        self._locks: "weakref.WeakValueDictionary[int, asyncio.Lock]" = weakref.WeakValueDictionary()
        # per match: the update waiting for the publisher in progress, coalesced (see publish)
        self._queued: dict[int, tuple[Any, int | None]] = {}
        self._shown: dict[int, int] = {}
        # called with the match record after each shown update (the practice cog: is it the
        # computer's turn now?); a failing callback never stops the update
        self.after_publish: list[Any] = []
        # per match just ended: its final board as posted, to which the Replay cog joins the
        # animated picture (cogs/replay.py) so the end of a match stays one message
        self.final_boards: dict[int, Any] = {}

    def _lock(self, match_id: int) -> asyncio.Lock:
        lock = self._locks.get(match_id)
        if lock is None:
            lock = self._locks[match_id] = asyncio.Lock()
        return lock

    # ------------------------------------------------------------------ plumbing
    @property
    def host(self) -> Any:
        return self.bot.host  # type: ignore[attr-defined]

    @property
    def store(self) -> Any:
        return self.bot.store  # type: ignore[attr-defined]

    async def cog_load(self) -> None:
        start_clock(self.bot, self.clock)

    async def cog_unload(self) -> None:
        self.clock.cancel()

    async def settings(self, guild_id: int | None) -> dict[str, Any]:
        out = dict(DEFAULT_SETTINGS)
        if guild_id is not None:
            try:
                out.update(await self.store.get_guild_settings(int(guild_id)))
            except Exception:
                log.exception("reading settings of guild %s failed", guild_id)
        return out

    async def locale_for_guild(self, guild_id: int | None, fallback: Any = None) -> str:
        """The language of public messages in a guild: the setting, else Discord's guild locale."""
        lang = (await self.settings(guild_id)).get("language", "auto")
        if lang in i18n.LOCALES:
            return lang
        return loc(fallback) if fallback is not None else "en"

    async def public_locale(self, rec: MatchRecord) -> str:
        lang = (await self.settings(rec.guild_id)).get("language", "auto")
        if lang in i18n.LOCALES:
            return lang
        return loc((rec.meta or {}).get("locale", "en"))

    async def remember_locale(self, match_id: int, user_id: int, locale: str) -> None:
        """Keep the player's own language for their DMs."""
        try:
            refs = await self.store.get_refs(int(match_id))
            if refs.get(f"loc:{user_id}") != locale:
                await self.store.set_ref(int(match_id), f"loc:{user_id}", locale)
        except Exception:
            log.debug("could not remember locale for match %s", match_id, exc_info=True)

    def _messageable(self, channel_id: int, **kw: Any) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(int(channel_id), **kw)

    # ------------------------------------------------------------------ rendering
    def board_reply(self, rec: MatchRecord, public: Any, locale: str, *, head: str = "", extra: str = ""
                    ) -> tuple[discord.ui.LayoutView, discord.File | None]:
        """The board as a reply seen by one player (``/match status``, ``/spectate``): the board
        message's layout without its controls — ``head`` above the picture (e.g. where the match
        is played), ``extra`` after the players and clock (e.g. how many moves are theirs)."""
        layout, file = self.board_layout(rec, public, locale, head=head)
        if extra:
            layout = replace(layout, details="\n\n".join(p for p in (layout.details, extra) if p))
        return layout_view(layout), file

    def board_layout(self, rec: MatchRecord, public: Any, locale: str, lines: list[str] | None = None, *,
                     head: str = "", status: bool = True) -> tuple[Layout, discord.File | None]:
        """The board message as a Components V2 layout and its picture (cogs/board_layout.py):
        the title, ``head`` above the picture (what happened, the pings), the status in bold and
        ``lines`` (default: the update's own text), the picture, the players, the clock, the
        options while the match is not under way."""
        return board_parts(rec, public, locale, lines, head=head, status=status)

    # ------------------------------------------------------------------ channel posting
    async def _post(self, rec: MatchRecord, refs: dict[str, str], **kwargs: Any) -> discord.Message | None:
        """Send in the match channel; if it is gone, fall back to the home channel."""
        tried: list[int] = []
        candidates = [rec.channel_id, _int(refs.get("home")), _int(refs.get("parent"))]
        for cid in candidates:
            if cid is None or cid in tried:
                continue
            tried.append(cid)
            try:
                message = await self._messageable(cid).send(**kwargs)
            except discord.HTTPException as exc:  # gone, forbidden, archived+locked, …: try the next
                log.info("match %s: cannot post in channel %s (%s)", rec.id, cid, getattr(exc, "code", exc))
                for f in kwargs.get("files") or ([kwargs["file"]] if kwargs.get("file") else []):
                    f.reset()
                continue
            if cid != rec.channel_id:
                await self._moved(rec, refs, cid)
            return message
        return None

    async def _followup(self, rec: MatchRecord, via: Any, kwargs: dict[str, Any]) -> Any:
        """Send a new board as the follow-up of ``via``, the player's tap in the match channel
        that made it — or None, and the caller posts it through the channel.  Only a tap in
        the match's own channel, already answered by updating its message (so the follow-up is
        a message of its own, public), and whose token is young: a follow-up is the same
        message with the same pings and controls, edited and retired later through the channel
        like any other, but Discord does not count it against the bot's global rate limit."""
        if not isinstance(via, discord.Interaction) or rec.channel_id is None or via.channel_id != rec.channel_id:
            return None
        if via.response.type not in _UPDATED or message_age(via.id, self.host.now()) > FOLLOWUP_MAX_AGE:
            return None
        try:
            return await via.followup.send(wait=True, **kwargs)
        except discord.HTTPException as exc:   # an expired token, a thread gone…: the channel it is
            log.info("match %s: the board could not follow the tap (%s)", rec.id, getattr(exc, "code", exc))
            if kwargs.get("file") is not None:
                kwargs["file"].reset()
            return None

    async def _moved(self, rec: MatchRecord, refs: dict[str, str], channel_id: int) -> None:
        """The match channel (thread) is gone: the match lives in ``channel_id`` from now on."""
        log.info("match %s moves to channel %s", rec.id, channel_id)
        left = rec.channel_id
        written = await self.host.set_channel(rec.id, channel_id)
        rec.channel_id = written.channel_id if written is not None else channel_id
        if left is not None and refs.get("thread") == str(left):
            # the thread keeps the match's history: a command there still means this match
            await self.store.set_ref(rec.id, MOVED_FROM, str(left))
        await self.store.set_ref(rec.id, "thread", None)
        await self.store.set_ref(rec.id, "nothread", "1")
        refs.pop("thread", None)
        refs["nothread"] = "1"

    def _too_old(self, ref: str | None) -> bool:
        where = _split_ref(ref)
        return where is not None and too_old_to_edit(where[1], self.host.now())

    async def _edit(self, ref: str | None, **kwargs: Any) -> discord.Message | None:
        """Edit a message named by a ``channel:message`` ref; None if it is gone, or (nearly) an
        hour old — then the caller posts a fresh one (Discord rations edits of old messages:
        429/30046), and an archived thread refuses edits (50083) until a new message comes."""
        where = _split_ref(ref)
        if where is None:
            return None
        cid, mid = where
        if too_old_to_edit(mid, self.host.now()):
            log.info("message %s in %s is too old to edit: a fresh one is posted", mid, cid)
            return None
        try:
            return await self._messageable(cid).get_partial_message(mid).edit(**kwargs)
        except discord.HTTPException as exc:
            log.info("message %s in %s cannot be edited (%s)", mid, cid, getattr(exc, "code", exc))
            return None

    # ------------------------------------------------------------------ threads
    async def _ensure_thread(self, rec: MatchRecord, refs: dict[str, str], locale: str) -> None:
        if rec.guild_id is None or refs.get("thread") or refs.get("nothread") == "1":
            return
        if not (await self.settings(rec.guild_id)).get("thread", True):
            return
        home = rec.channel_id
        if home is None:
            return
        if not self._may_thread(rec.guild_id, home):
            # without Create Public Threads (or Send Messages in Threads) the match is played in
            # the channel itself; asking anyway would only cost a refused request
            log.info("match %s: no permission for a thread in %s; playing in the channel", rec.id, home)
            await self.store.set_ref(rec.id, "nothread", "1")
            refs["nothread"] = "1"
            return
        names = [n for n in rec.names if n]
        name = clip(tr("cogs.thread.name", locale, game=game_name(rec.game, locale), match_id=rec.id,
                       players=" vs ".join(names)), 100)
        board = _split_ref(refs.get("board"))
        # a challenge accepted after an hour or more (Discord rations edits of old messages,
        # 429/30046): the thread starts on its own and the challenge is replaced below
        aged = board is not None and self._too_old(refs.get("board"))
        try:
            if board is not None and board[0] == home and not aged:
                data = await self.bot.http.start_thread_with_message(
                    home, board[1], name=name, auto_archive_duration=archive_minutes(turn_span(rec)))
            else:
                data = await self.bot.http.start_thread_without_message(
                    home, name=name, auto_archive_duration=archive_minutes(turn_span(rec)),
                    type=discord.ChannelType.public_thread.value)
        except discord.HTTPException as exc:
            log.info("match %s: no thread in %s (%s); playing in the channel", rec.id, home,
                     getattr(exc, "code", exc))
            await self.store.set_ref(rec.id, "nothread", "1")
            refs["nothread"] = "1"
            return
        thread_id = int(data["id"])
        written = await self.host.set_channel(rec.id, thread_id)
        rec.channel_id = written.channel_id if written is not None else thread_id
        # The challenge message stays in the channel as a pointer to the thread (its buttons
        # gone); one too old to edit is deleted and the pointer posted afresh in its place.
        if board is not None:
            pointer = tr("cogs.thread.moved", locale, thread=f"<#{thread_id}>")
            if rec.meta.get("pairing") is not None and len(names) == 2:   # a league match, in the league channel
                pointer = tr("cogs.thread.moved_pairing", locale, thread=f"<#{thread_id}>", pairing=int(rec.meta["pairing"]),
                             a=safe_text(names[0]), b=safe_text(names[1]))
            if aged:
                await self._delete(refs.get("board"))
                try:
                    moved = await self._messageable(board[0]).send(view=words_view(pointer),
                                                                   allowed_mentions=NO_PINGS)
                    await self.store.set_ref(rec.id, "challenge", f"{moved.channel.id}:{moved.id}")
                except discord.HTTPException as exc:
                    log.info("match %s: no pointer to its thread (%s)", rec.id, getattr(exc, "code", exc))
            else:
                await self._edit(refs.get("board"), **v2_edit(words_view(pointer), attachments=[],
                                                              allowed_mentions=NO_PINGS))
                await self.store.set_ref(rec.id, "challenge", refs["board"])
        await self.store.set_ref(rec.id, "board", None)
        await self.store.set_ref(rec.id, "thread", str(thread_id))
        await self.store.set_ref(rec.id, "parent", str(home))
        refs.pop("board", None)
        refs.update(thread=str(thread_id), parent=str(home))

    def _may_thread(self, guild_id: int, channel_id: int) -> bool:
        """May the bot open a public thread in this channel and post there (as far as its cache
        of the server knows; True when it cannot tell)?"""
        guild = self.bot.get_guild(int(guild_id))
        channel = guild.get_channel(int(channel_id)) if guild is not None else None
        if guild is None or channel is None or guild.me is None:
            return True
        perms = channel.permissions_for(guild.me)
        return perms.create_public_threads and perms.send_messages_in_threads

    # ------------------------------------------------------------------ board
    async def update_board(self, rec: MatchRecord, refs: dict[str, str], locale: str, public: Any,
                           content: str | None = None, ping: list[int] | None = None) -> discord.Message | None:
        """A challenge (or a match that was never played): one board edited in place, its
        ``content`` (the challenge's call, with its pings) above the picture."""
        layout, file = self.board_layout(rec, public, locale, head=content or "")
        view = layout_view(layout, self._controls(rec, public, locale))
        if refs.get("board"):
            message = await self._edit(refs["board"], **v2_edit(view, attachments=[file] if file else [],
                                                                 allowed_mentions=NO_PINGS))
            if message is not None:
                return message
            if file is not None:
                file.reset()
        previous = refs.get("board")
        message = await self._post_board(rec, refs, view, file, ping=ping)
        if message is not None and previous and self._too_old(previous):
            await self._delete(previous)    # an old challenge replaced: its buttons must not stay live
        return message

    @staticmethod
    def _controls(rec: MatchRecord, public: Any, locale: str) -> list[list[discord.ui.Item]]:
        """The board's controls, as rows beneath it (none once the match is over)."""
        # Join on a running match only while somebody may join (a free seat, or a defeated
        # player's rejoin): the host says so
        return rows_of(view_items(board_view(rec.id, rec.status, locale,
                                             late_join=bool(getattr(public, "joinable", False)),
                                             judge=rec.meta.get("league") is not None)))

    async def _post_board(self, rec: MatchRecord, refs: dict[str, str], view: discord.ui.LayoutView,
                          file: discord.File | None, *, ping: list[int] | None,
                          via: discord.Interaction | None = None) -> discord.Message | None:
        """Post a board (in the match channel, else the home channel) and remember it as the board.
        Its pings are in its text; ``ping`` names who they may notify.  ``via``: the tap that made
        this board's news — in the match channel it carries the board as its follow-up
        (:meth:`_followup`)."""
        kwargs = send_layout(view, allowed_mentions=pings(ping) if ping else NO_PINGS, files=[file])
        message = await self._followup(rec, via, kwargs) if via is not None else None
        if message is None:
            message = await self._post(rec, refs, **kwargs)
        if message is None:
            log.warning("match %s: the board could not be posted anywhere", rec.id)
            return None
        ref = f"{message.channel.id}:{message.id}"
        await self.store.set_ref(rec.id, "board", ref)
        refs["board"] = ref
        return message

    # ------------------------------------------------------------------ the turn board
    async def turn_board(self, rec: MatchRecord, refs: dict[str, str], locale: str, result: Any,
                         actor: int | None, *, notice: bool = False,
                         via: discord.Interaction | None = None) -> discord.Message | None:
        """The board of a match under way (or just ended), always at hand.

        While the same players are awaited the board is edited in place: its picture, its
        status and, below it, what happened this turn so far.  When the turn passes to others,
        when somebody must be pinged, and when the match ends, a **new** board is posted — its
        text says in words what happened in the turn that ended and pings whoever acts now — and
        the previous board is retired: its picture and controls are removed, its words stay.  So
        the newest message of the thread is the board with its controls, and the thread reads
        as one short message per turn.  The final board, with the result, stays the last: the
        animated picture of the match is joined to it when drawn (cogs/replay.py)."""
        public = result.public
        status = render(public.status_line, locale)
        lines = [line for line in render_lines(public.text, locale) if line != status]
        turn = _lines(refs.get("turnlog")) + lines
        # who everyone sees acting: a hidden decision (a secret response window) is never named
        awaited = list(dict.fromkeys(getattr(public, "awaited", None) or []))
        awaiting = ",".join(str(u) for u in sorted(set(awaited)))
        notify = [u for u in getattr(result, "notify", []) or [] if u and u != actor]
        over = rec.status != ACTIVE
        if refs.get("board") and not over and not notify and awaiting == refs.get("awaiting", ""):
            # the words it was posted with (and its pings, which an edit does not send again) stay;
            # a board posted before the boards were layouts: its words as kept for its retirement
            layout, file = self.board_layout(rec, public, locale, lines=turn[-LINES_SHOWN:],
                                             head=refs.get("boardhead", refs.get("boardwords") or ""))
            view = layout_view(layout, self._controls(rec, public, locale))
            message = await self._edit(refs["board"], **v2_edit(view, attachments=[file] if file else [],
                                                                 allowed_mentions=NO_PINGS))
            if message is not None:
                await self._set_lines(rec, refs, turn)
                return message
        # a new board: what happened, who acts now (pinged), the picture and the controls
        # a notice (a clock reminder, an expiry, an abort vote) pings only whom it concerns
        # (the computer of a practice match is never pinged: the board says it is thinking)
        ping_ids = [u for u in dict.fromkeys(([] if notice else [u for u in awaited if u != actor]) + notify)
                    if not self._is_me(u)]
        ping_ids = await self._told(rec, refs, result, ping_ids, [] if notice else awaited)
        # the words of the turn stay when this board is retired; its pings go
        words = _recent(turn, locale)
        calls: list[str] = []
        if over:
            words.append(f"**{status}**")
        elif notice:
            if notify:
                calls.append(mention_line(notify))
        elif awaited:
            people = [u for u in awaited if not self._is_me(u)]
            if people:
                calls.append(tr("cogs.turn_ping", locale, mentions=mention_line(people)))
            if len(people) < len(awaited):
                calls.append(tr("delivery.thinking", locale, name=safe_text(self._computer_name(rec))))
        if notify and set(notify) - set(awaited) and not notice:
            calls.append(mention_line([u for u in notify if u not in awaited]))
        previous, previous_words = refs.get("board"), refs.get("boardwords")
        head = "\n".join(words + calls)
        # the result is said once: in the words above the picture
        layout, file = self.board_layout(rec, public, locale, lines=[], head=head, status=not over)
        message = await self._post_board(rec, refs, layout_view(layout, self._controls(rec, public, locale)), file,
                                         ping=ping_ids, via=via)
        if message is None:
            await self._set_lines(rec, refs, turn)
            return None
        ref = refs["board"]
        if over:
            self._keep_final(rec.id, message, layout)
        kept = clip("\n".join(words) or status, CONTENT_MAX)
        for key, value in (("boardwords", kept), ("boardhead", head)):
            if refs.get(key) != value:
                await self.store.set_ref(rec.id, key, value)
                refs[key] = value
        if refs.get("awaiting", "") != awaiting:
            await self.store.set_ref(rec.id, "awaiting", awaiting or None)
            refs["awaiting"] = awaiting
        await self._set_lines(rec, refs, [])
        if previous and previous != ref:
            await self._retire(previous, previous_words or f"{game_name(rec.game, locale)} #{rec.id}")
        return message

    def _keep_final(self, match_id: int, message: Any, layout: Layout) -> None:
        """Keep the final board just posted, with its layout, for the after-publish hooks (the
        newest few: a hook takes it at once, so only a board nobody took is ever dropped)."""
        self.final_boards[int(match_id)] = (message, layout)
        while len(self.final_boards) > FINAL_KEPT:
            self.final_boards.pop(next(iter(self.final_boards)))

    def _computer_name(self, rec: MatchRecord) -> str:
        """The name of the computer's seat in a practice match (the bot's own user)."""
        names = [n for u, n in zip(rec.seats, rec.names) if u is not None and self._is_me(u) and n]
        return names[0] if names else str(getattr(getattr(self.bot, "user", None), "display_name", "") or "")

    async def _retire(self, ref: str, words: str) -> None:
        """Retire a board: its words stay in the thread (``words``: the board's text without
        its pings), its picture, controls and ping line go — an edit to a layout of the words
        alone (a V2 message stays one).  A board too old to edit is deleted instead (a deletion
        is not rationed; its turn's words are in the board that replaced it)."""
        if not self._too_old(ref):
            await self._edit(ref, **v2_edit(words_view(words), attachments=[], allowed_mentions=NO_PINGS))
            return
        await self._delete(ref)

    async def _delete(self, ref: str | None) -> None:
        where = _split_ref(ref)
        if where is None:
            return
        try:
            await self._messageable(where[0]).get_partial_message(where[1]).delete()
        except discord.HTTPException as exc:
            log.info("message %s in %s cannot be deleted (%s)", where[1], where[0], getattr(exc, "code", exc))

    async def _set_lines(self, rec: MatchRecord, refs: dict[str, str], lines: list[str]) -> None:
        value = json.dumps(lines[-40:], ensure_ascii=False) if lines else None
        if refs.get("turnlog") != value:
            await self.store.set_ref(rec.id, "turnlog", value)
            if value is None:
                refs.pop("turnlog", None)
            else:
                refs["turnlog"] = value

    async def _remember_lines(self, rec: MatchRecord, refs: dict[str, str], lines: list[str]) -> None:
        if lines:
            await self._set_lines(rec, refs, _lines(refs.get("turnlog")) + lines)

    # ------------------------------------------------------------------ the one entry point
    async def publish(self, result: Any, *, actor: int | None = None,
                      via: discord.Interaction | None = None) -> discord.Message | None:
        """Show a successful host Result: board, events, pings, private DMs.  Never raises.
        ``via``: the interaction of the player whose tap made ``result``; a new board may go out
        as its follow-up (:meth:`_followup`)."""
        rec = getattr(result, "match", None)
        if rec is None or not getattr(result, "ok", False):
            return None
        table = self.bot.get_cog("AppTable") if (getattr(rec, "meta", None) or {}).get("app") else None
        if table is not None:       # a match of no server: through interactions only (cogs/app_table.py)
            return await table.publish(result, actor=actor, via=via)
        lock = self._lock(rec.id)
        if lock.locked() and rec.status == ACTIVE and getattr(result, "public", None) is not None:
            # An update of this match is being shown — perhaps sleeping out a 429 from Discord.
            # Rather than wait behind it, this one joins the line as ONE coalesced update (the
            # newest board and views; every line and ping of the skipped ones kept), which that
            # publisher shows when it is done.
            queued = self._queued.get(rec.id)
            self._queued[rec.id] = (coalesce(queued[0], result) if queued else result, actor)
            return None
        async with lock:
            message = await self._publish(result, rec, actor, via)
            while (queued := self._queued.pop(rec.id, None)) is not None:
                rec = queued[0].match
                message = await self._publish(queued[0], rec, queued[1]) or message
        for callback in list(self.after_publish):
            try:
                await callback(rec)
            except Exception:
                log.exception("match %s: an after-publish callback failed", rec.id)
        return message

    async def _publish(self, result: Any, rec: MatchRecord, actor: int | None,
                       via: discord.Interaction | None = None) -> discord.Message | None:
        board_message = None
        stale = rec.version < self._shown.get(rec.id, 0)
        if not stale:
            self._shown[rec.id] = rec.version
        try:
            refs = await self.store.get_refs(rec.id)
            locale = await self.public_locale(rec)
            public = result.public
            waiting = rec.status in (PENDING, OPEN)
            # a challenge that never became a match (declined, lapsed, aborted before the first
            # move) is one message edited in place; a match that was played gets turn boards
            played = rec.status in (ACTIVE, FINISHED) or bool(public is not None and public.view) \
                or bool(rec.status == ABORTED and refs.get("awaiting") is not None)
            if public is not None and rec.status == ACTIVE:
                await self._ensure_thread(rec, refs, locale)
            new_challenge = waiting and not refs.get("board")
            if public is not None and public.status_line is not None and not stale:
                content = None
                ping_ids: list[int] = []
                if new_challenge:
                    ping_ids = [u for u in result.notify if u]
                    key = "cogs.challenge.open" if rec.status == OPEN else "cogs.challenge.ping"
                    content = tr(key, locale, mentions=mention_line(ping_ids)) if ping_ids or rec.status == OPEN \
                        else None
                if not played:
                    board_message = await self.update_board(rec, refs, locale, public, content=content,
                                                            ping=ping_ids)
                else:
                    board_message = await self.turn_board(rec, refs, locale, result, actor, via=via)
            elif public is not None and public.status_line is not None and played:
                # an older update arriving after a newer one: its words still reach the next board
                await self._remember_lines(rec, refs, render_lines(public.text, locale))
            if public is None or public.status_line is None:
                if not (rec.status == ACTIVE and refs.get("board") and public is not None
                        and await self._notice_on_board(rec, refs, locale, result, actor)):
                    await self._post_event(rec, refs, locale, result, actor)
        except Exception:
            log.exception("publishing match %s failed", getattr(rec, "id", "?"))
        if stale:
            return board_message
        await self._deliver_privates(result, rec)
        try:
            await self.retire_prompts(result, rec, actor)
        except Exception:
            log.exception("match %s: retiring decision prompts failed", rec.id)
        for p in getattr(result, "prompts", []) or []:
            if getattr(p, "secret", False) and p.user_id and p.user_id != actor and not self._is_me(p.user_id):
                await self.secret_prompt(rec, p.user_id, list(p.legal))
        return board_message

    def _is_me(self, user_id: Any) -> bool:
        """The bot's own user: the computer's seat of a practice match (cogs/practice.py). It
        gets no DM — Discord refuses a DM to oneself, a wasted rate-limited call."""
        me = getattr(getattr(self.bot, "user", None), "id", None)
        return me is not None and str(user_id) == str(me)

    async def _notice_on_board(self, rec: MatchRecord, refs: dict[str, str], locale: str, result: Any,
                               actor: int | None) -> bool:
        """A notice about a running match (a clock reminder, an expiry, an abort vote) goes out
        as a new board — the picture and controls under the notice, its pings included — so the
        newest message of the thread is still the board.  False if the board cannot be had."""
        try:
            board = await self.host.status(rec.id)
        except Exception:
            log.exception("match %s: the board for a notice could not be had", rec.id)
            return False
        if not getattr(board, "ok", False) or board.public is None or board.public.status_line is None:
            return False
        public = replace(board.public, text=list(result.public.text))
        notify = [u for u in result.notify if u and u != actor]
        combined = SimpleNamespace(public=public, notify=notify, data=getattr(result, "data", None) or {})
        return await self.turn_board(board.match or rec, refs, locale, combined, actor, notice=True) is not None

    async def _post_event(self, rec: MatchRecord, refs: dict[str, str], locale: str, result: Any,
                          actor: int | None) -> None:
        public = result.public
        lines = render_lines(public.text if public is not None else [], locale)
        if not public and result.info and result.notify:
            lines = render_lines(result.info, locale)
        # a secret decision (e.g. a hidden response window) is never pinged in public
        prompted = [p.user_id for p in result.prompts
                    if p.user_id and p.user_id != actor and not getattr(p, "secret", False) and not self._is_me(p.user_id)]
        notify = [u for u in result.notify if u and u != actor]
        ping_ids = list(dict.fromkeys(notify + prompted))
        if prompted:
            lines.append(tr("cogs.turn_ping", locale, mentions=mention_line(prompted)))
        if notify and set(notify) - set(prompted):
            lines.append(mention_line([u for u in notify if u not in prompted]))
        if not lines:
            return
        ping_ids = await self._told(rec, refs, result, ping_ids, prompted)
        await self._post(rec, refs, content=clip("\n".join(lines), CONTENT_MAX),
                         allowed_mentions=pings(ping_ids) if ping_ids else NO_PINGS)

    async def _told(self, rec: MatchRecord, refs: dict[str, str], result: Any, ping_ids: list[int],
                    turn: list[int]) -> list[int]:
        """Of ``ping_ids``, whom to ping in the thread now: each player is told in their own way
        (cogs/notices.py: a DM instead, later after their quiet hours, or the digest only);
        ``turn``: those told it is their turn.  If that cannot be decided, everyone as before."""
        try:
            return await told(self, rec, refs, result, ping_ids, turn)
        except Exception:
            log.exception("match %s: how to tell the players could not be decided; pinging them", rec.id)
            return ping_ids

    # ------------------------------------------------------------------ clock
    @tasks.loop(seconds=30)
    async def clock(self) -> None:
        try:
            results = await self.host.tick()
        except Exception:
            log.exception("host.tick failed")
            return
        await self._deliver_tick(results)

    @clock.before_loop
    async def _before_clock(self) -> None:
        await self.bot.wait_until_ready()
        try:
            await self.check_permissions()
        except Exception:
            log.exception("checking the bot's permissions at start-up failed")

    async def check_permissions(self) -> list[str]:
        """At start-up: for every channel with an unfinished match, the permissions the bot lacks
        there, logged once per channel with what an admin must grant (a board post would be
        refused on every update otherwise).  Returns the warnings."""
        from cogs.common import missing_permissions, permission_names

        warnings: list[str] = []
        seen: set[int] = set()
        for rec in await self.store.unfinished_matches():
            if rec.guild_id is None or rec.channel_id is None or rec.channel_id in seen:
                continue
            seen.add(rec.channel_id)
            guild = self.bot.get_guild(int(rec.guild_id))
            channel = guild.get_channel_or_thread(int(rec.channel_id)) if guild is not None else None
            if guild is None or channel is None or guild.me is None:
                continue
            missing = missing_permissions(channel.permissions_for(guild.me),
                                          in_thread=isinstance(channel, discord.Thread))
            if missing:
                text = (f"channel {rec.channel_id} (match {rec.id}): the bot lacks "
                        f"{permission_names(missing, 'en')}; a server admin must grant it there")
                warnings.append(text)
                log.warning(text)
        return warnings

    async def tick_once(self) -> int:
        """One clock step (what the loop does every 30 s); returns the number of results."""
        results = await self.host.tick()
        return await self._deliver_tick(results)

    async def _deliver_tick(self, results: list) -> int:
        """Show what a tick returned; then, for a player who just took a vacation day
        automatically (``data["away"]``), time their other matches again (the vacation stops
        those banks too) and show them without a "your turn" ping for that player.  Returns the
        number of results shown."""
        shown = 0
        for result in results:
            await self.publish(result)
            shown += 1
            for uid in result.data.get("away", ()) if result.data else ():
                try:
                    more = await self.host.vacation_changed(uid, skip=result.match.id)
                except Exception:
                    log.exception("timing the matches of player %s again failed", uid)
                    continue
                for other in more:
                    await self.publish(other, actor=uid)
                    shown += 1
        return shown


def coalesce(older: Any, newer: Any) -> Any:
    """Two updates of one match as one: the newer board, views and prompts (the newest state's
    truth), the lines of both in order, the pings of both."""
    if older.match.version > newer.match.version:
        older, newer = newer, older
    public = newer.public
    if older.public is not None and public is not None:
        public = replace(public, text=list(older.public.text) + list(public.text))
    elif public is None:
        public = older.public
    return replace(newer, public=public, private=list(newer.private or older.private),
                   notify=list(dict.fromkeys(list(older.notify) + list(newer.notify))))


def _lines(value: str | None) -> list[str]:
    """The words of the turn so far, as stored (a JSON list of strings); [] if unreadable."""
    if not value:
        return []
    try:
        lines = json.loads(value)
    except ValueError:
        return []
    return [str(x) for x in lines] if isinstance(lines, list) else []


def _int(value: Any) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except (TypeError, ValueError):
        return None


SUMMARY_LINES = 15      # a board's words: the newest lines of the turn that ended …
SUMMARY_CHARS = 1700    # … within Discord's 2000 characters, with room left for the pings


def _recent(turn: list[str], locale: str) -> list[str]:
    """The newest lines of a turn that fit a board (a battle told in full can be long), and how
    many earlier ones ``/match log`` still has."""
    kept: list[str] = []
    size = 0
    limit = SUMMARY_LINES if len(turn) <= SUMMARY_LINES else SUMMARY_LINES - 1   # (room for the marker)
    for line in reversed(turn):
        line = clip(line, 300)
        if len(kept) == limit or size + len(line) + 1 > SUMMARY_CHARS:
            break
        kept.insert(0, line)
        size += len(line) + 1
    if len(kept) < len(turn):
        kept.insert(0, tr("cogs.board.earlier", locale, n=len(turn) - len(kept)))
    return kept
