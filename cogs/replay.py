"""Replays in Discord (issue 35): ``/match replay``, ``/match gif`` and ``/match record``, and the
animated picture posted in a match's thread when it ends.

* ``/match replay [match] [public]`` answers with the position after a step (the picture, the
  step's words, "Step k of n · turn t") and ⏮ ◀ ▶ ⏭ buttons plus a select of turns.  Ephemeral by
  default; a seated player's ephemeral replay shows their own hand (their own view of each
  moment; a button turns it off), never anyone else's; ``public:true`` posts the public replay for
  the channel, whose buttons give anyone else who presses them their own copy.
* ``/match gif [match] [public]``: the animated picture of the match (host/gif_worker.py draws it
  in a process of its own); when a match ends it is joined to the final board, so the thread
  still ends with one message: the board, its result and the picture (``/settings gif``, default
  on; the board is whole without it — drawn seconds later, failed or turned off).
* ``/match record [match]``: the text record of the public steps (host/match_record.py); the
  match's own players also get the full record (seed, every command) once it has ended.

Nothing is kept in memory between presses: every custom id carries the match, the step, the mode
and (on a public replay) who posted it, so the buttons work after a restart and weeks later.

custom_id templates (≤ 100 chars)::

    rp:<match>:<step>:<p|o>:<f|b|n|l|h>:<author>     ⏮ ◀ ▶ ⏭ and the own-hand toggle
    rp:<match>:t:<p|o>:<author>                      the turn select (values: steps)

``p``: the public view, ``o``: the presser's own view (only ever in their ephemeral message);
``author``: who posted a public replay (0 on an ephemeral one).
"""
from __future__ import annotations

import asyncio
import io
import json
import functools
import logging
import re
from collections import OrderedDict
from dataclasses import replace
from typing import Any, Optional

import discord
from discord import app_commands
from discord.ext import commands

from cogs.authority import check_match, reachable, seated
from cogs.board_layout import COLOURS, Layout, colour_value, layout_view, v2_edit
from cogs.common import (LABEL_MAX, NO_PINGS, SELECT_MAX, L, N, clip, file_bytes, game_name, render,
                         reply, reply_error, run_in_cog, safe_text, too_old_to_edit, tr, transient, user_locale)
from cogs.game import here_match_autocomplete, log_line
from cogs.guide import command_text
from data.store import ABORTED, FINISHED
from host.replays import PLAYED

log = logging.getLogger("cogs.replay")

STEP_TEMPLATE = r"rp:(?P<match>\d{1,20}):(?P<k>\d{1,6}):(?P<mode>[po]):(?P<slot>[fbnlh]):(?P<who>\d{1,20})"
TURN_TEMPLATE = r"rp:(?P<match>\d{1,20}):t:(?P<mode>[po]):(?P<who>\d{1,20})"
PICTURE = "replay.png"
HAND = "hand.png"
GIF_CACHE = 3                  # GIFs kept (the one posted at the end is often asked for again)
DESCRIPTION_MAX = 3500


# ---------------------------------------------------------------------------- the message
def step_text(res: Any, locale: str) -> str:
    """The words of a replay step: "Step k of n · turn t", the move in words and notation, what it
    did; the starting position says so; the last position of a finished match its result."""
    d = res.data
    rec = res.match
    lines = [tr("replay.step", locale, k=d["k"], n=d["n"], turn=d["turn"] if d["turn"] is not None else "–")]
    entry = d.get("entry")
    if entry is None:
        lines.append(tr("replay.start", locale, players=tr("core.list_sep", locale).join(
            safe_text(n) for n in rec.names)))
    else:
        lines.append(log_line(entry, locale))
        lines += ["\u2003· " + safe_text(tr("host.raw", locale, text=line)) for line in entry.get("story") or []]
    if d.get("final"):
        lines.append(tr("replay.final", locale, result=render(d["result"], locale))
                     if d.get("result") is not None else tr("replay.aborted", locale))
    if d.get("own"):
        lines.append(tr("replay.own", locale))
    return clip("\n".join(lines), DESCRIPTION_MAX)


def step_controls(res: Any, mode: str, who: int, locale: str, *, toggle: bool) -> list[list[discord.ui.Item]]:
    """The rows under a replay step: ⏮ ◀ ▶ ⏭ (and the own-hand toggle), then the turn select."""
    d = res.data
    mid, k, n = res.match.id, d["k"], d["n"]
    buttons: list[discord.ui.Item] = []
    for slot, target, emoji, off in (("f", 0, "⏮", k == 0), ("b", k - 1, "◀", k == 0),
                                     ("n", k + 1, "▶", k >= n), ("l", n, "⏭", k >= n)):
        buttons.append(StepButton(discord.ui.Button(
            emoji=emoji, style=discord.ButtonStyle.secondary, disabled=off,
            custom_id=f"rp:{mid}:{max(0, min(target, n))}:{mode}:{slot}:{who}")))
    if toggle:
        buttons.append(StepButton(discord.ui.Button(
            label=clip(tr("replay.hand_off" if mode == "o" else "replay.hand_on", locale), LABEL_MAX),
            emoji="🂠", style=discord.ButtonStyle.primary if mode == "o" else discord.ButtonStyle.secondary,
            custom_id=f"rp:{mid}:{k}:{mode}:h:{who}")))
    rows = [buttons]
    turns = d["turns"]
    if len(turns) > 1:
        shown = _around(turns, k)
        options = [discord.SelectOption(
            label=clip(tr("replay.turn_option", locale, turn=t), LABEL_MAX), value=str(first),
            description=clip(tr("replay.turn_step", locale, k=first), LABEL_MAX), default=False)
            for t, first in shown]
        rows.append([TurnSelect(discord.ui.Select(
            custom_id=f"rp:{mid}:t:{mode}:{who}", options=options,
            placeholder=clip(tr("replay.turn_placeholder", locale, turn=d["turn"]), 150)))])
    return rows


def _around(turns: list[list[int]], k: int) -> list[list[int]]:
    """At most 25 turns for the select: all of them, else the first and last and those nearest
    the step shown (a long match is jumped through in hops)."""
    if len(turns) <= SELECT_MAX:
        return turns
    here = max(i for i, (_, first) in enumerate(turns) if first <= k) if any(f <= k for _, f in turns) else 0
    lo = max(1, min(here - (SELECT_MAX - 2) // 2, len(turns) - (SELECT_MAX - 1)))
    return [turns[0], *turns[lo:lo + SELECT_MAX - 2], turns[-1]]


def step_layout(res: Any, mode: str, who: int, locale: str, *, toggle: bool
                ) -> tuple[discord.ui.LayoutView, list[discord.File]]:
    """A replay step as a Components V2 layout: the title, the step's words, the step's board
    (everyone's view) and, in a player's own replay, their hand at that moment — each picture
    full width —, the hint, and the step buttons and turn select beneath.  With its files."""
    rec = res.match
    title = tr("replay.title", locale, match_id=rec.id, game=game_name(rec.game, locale))
    pictures, files = [], []
    for name, key, alt in ((PICTURE, "picture", title), (HAND, "hand", tr("replay.own", locale))):
        png = res.data.get(key)
        if png:
            pictures.append((name, alt))
            files.append(discord.File(io.BytesIO(png), filename=name))
    layout = Layout(title=title, lines=step_text(res, locale), pictures=tuple(pictures),
                    footer=tr("replay.footer", locale), accent=colour_value(discord.Colour.blurple()))
    return layout_view(layout, step_controls(res, mode, who, locale, toggle=toggle)), files


# ---------------------------------------------------------------------------- the cog
class Replay(commands.Cog):
    """Replays, the animated picture and the text record of a match."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self._gifs: "OrderedDict[tuple, Any]" = OrderedDict()
        self._making: dict[tuple, asyncio.Future] = {}
        self._grafted: list[Any] = []
        self._tasks: set[asyncio.Task] = set()

    @property
    def host(self) -> Any:
        return self.bot.host  # type: ignore[attr-defined]

    @property
    def store(self) -> Any:
        return self.bot.store  # type: ignore[attr-defined]

    @property
    def delivery(self) -> Any:
        return self.bot.get_cog("Delivery")

    async def cog_load(self) -> None:
        """The commands go into ``/match`` (the Game cog's group); the end-of-match picture hangs
        on Delivery's after-publish hook."""
        game = self.bot.get_cog("Game")
        for command in list(self.__cog_app_commands__):
            game.match_group.add_command(command)
            self._grafted.append(command)
        self.__cog_app_commands__ = []
        if self.delivery is not None and self._published not in self.delivery.after_publish:
            self.delivery.after_publish.append(self._published)

    async def cog_unload(self) -> None:
        game = self.bot.get_cog("Game")
        for command in self._grafted:
            if game is not None:
                game.match_group.remove_command(command.name)
        self._grafted = []
        if self.delivery is not None and self._published in self.delivery.after_publish:
            self.delivery.after_publish.remove(self._published)
        for task in list(self._tasks):
            task.cancel()
        from host import gif_worker

        gif_worker.shutdown()

    async def _resolve(self, interaction: discord.Interaction, match: int | None) -> Any:
        game = self.bot.get_cog("Game")
        return await game._resolve_played(interaction, match)

    # ------------------------------------------------------------------ /match replay
    @app_commands.command(name=N("replay", "cmd.match.replay.name"), description=L("cmd.match.replay.description"))
    @app_commands.rename(match=N("match", "cmd.opt.match.name"), public=N("public", "cmd.records.public.name"))
    @app_commands.describe(match=L("cmd.opt.match.description"), public=L("cmd.match.replay.public.description"))
    @app_commands.autocomplete(match=here_match_autocomplete)
    async def match_replay(self, interaction: discord.Interaction, match: Optional[int] = None,
                           public: bool = False) -> None:
        rec = await self._resolve(interaction, match)
        if rec is None:
            return
        await interaction.response.defer(ephemeral=not public, thinking=True)
        locale = user_locale(interaction)
        own = not public and rec.status != ABORTED and seated(rec, interaction.user.id)
        await self._show(interaction, rec.id, 0, "o" if own else "p",
                         int(interaction.user.id) if public else 0, locale, new=True, public=public)

    async def _show(self, interaction: discord.Interaction, match_id: int, k: int, mode: str, who: int,
                    locale: str, *, new: bool, public: bool = False) -> None:
        res = await self.host.replay(match_id, interaction.user.id, k, own=mode == "o", locale=locale)
        if not res.ok:
            await reply_error(interaction, render(res.error, locale))
            return
        if mode == "o" and not res.data["own"]:
            mode = "p"          # not a seat of theirs (any more): the public view
        view, files = step_layout(res, mode, who, locale,
                                  toggle=seated(res.match, interaction.user.id) and not public and who == 0)
        if new:
            await interaction.followup.send(view=view, files=files, ephemeral=not public, allowed_mentions=NO_PINGS)
            return
        try:
            await interaction.response.edit_message(**v2_edit(view, attachments=files))
        except discord.HTTPException as exc:
            log.info("replay step of match %s not shown: %s", match_id, exc)

    async def on_step(self, interaction: discord.Interaction, match_id: int, k: int, mode: str, slot: str,
                      who: int) -> None:
        """A replay button: the step it names; on a public replay someone other than its author
        gets their own ephemeral copy (the channel's replay stays where its author left it)."""
        locale = user_locale(interaction)
        rec = await self._readable(interaction, match_id)
        if rec is None:
            return
        ephemeral = bool(interaction.message is not None and interaction.message.flags.ephemeral)
        if slot == "h":
            mode = "p" if mode == "o" else "o"
        if mode == "o" and not ephemeral:        # a hand is only ever shown in its player's own message
            mode = "p"
        if who and int(who) != int(interaction.user.id):
            await interaction.response.defer(ephemeral=True, thinking=True)
            await self._show(interaction, match_id, k, "p", 0, locale, new=True)
            return
        await self._show(interaction, match_id, k, mode, who, locale, new=False)

    async def _readable(self, interaction: discord.Interaction, match_id: int) -> Any:
        locale = user_locale(interaction)
        try:
            rec = await self.store.get_match(int(match_id))
        except Exception as exc:
            key = "host.err.transient" if transient(exc) else "host.err.quarantined"
            await reply_error(interaction, tr(key, locale, match_id=match_id))
            return None
        if rec is None:
            await reply_error(interaction, tr("host.err.no_match", locale, match_id=match_id))
            return None
        if not reachable(rec, interaction):          # another server's match, not a player of it
            await check_match(interaction, rec)
            return None
        return rec

    # ------------------------------------------------------------------ /match gif
    @app_commands.command(name=N("gif", "cmd.match.gif.name"), description=L("cmd.match.gif.description"))
    @app_commands.rename(match=N("match", "cmd.opt.match.name"), public=N("public", "cmd.records.public.name"))
    @app_commands.describe(match=L("cmd.opt.match.description"), public=L("cmd.match.gif.public.description"))
    @app_commands.autocomplete(match=here_match_autocomplete)
    async def match_gif(self, interaction: discord.Interaction, match: Optional[int] = None,
                        public: bool = False) -> None:
        rec = await self._resolve(interaction, match)
        if rec is None:
            return
        locale = user_locale(interaction)
        if not rec.n_commands or rec.status not in PLAYED:
            await reply_error(interaction, tr("replay.err.nothing", locale, match_id=rec.id))
            return
        await interaction.response.defer(ephemeral=not public, thinking=True)
        try:
            made = await self.gif(rec, locale)
        except Exception:
            log.exception("the GIF of match %s failed", rec.id)
            await reply_error(interaction, tr("replay.err.gif", locale, match_id=rec.id))
            return
        await reply(interaction, gif_caption(rec, made, locale, self._result(rec), self.bot.tree), file=gif_file(rec, made),
                    ephemeral=not public)

    def _result(self, rec: Any) -> Any:
        """How ``rec`` ended, as the host words it (None while it is being played or aborted)."""
        return self.host._outcome_msg(rec) if rec.status == FINISHED and rec.result else None

    async def gif(self, rec: Any, locale: str) -> Any:
        """The animated picture of ``rec`` in ``locale`` (:mod:`host.gif_worker`), made once per
        match, length and language however many ask at once, the newest few kept."""
        key = (rec.id, rec.n_commands, rec.status, locale)
        if key in self._gifs:
            self._gifs.move_to_end(key)
            return self._gifs[key]
        if key in self._making:
            return await asyncio.shield(self._making[key])
        from host import gif_worker

        async def make() -> Any:
            await self.host.engine(rec)         # a server's card set: its version loaded here
            commands = await self.store.commands(rec.id)
            return await gif_worker.match_gif_bytes(rec, commands, locale=locale)

        future = asyncio.ensure_future(make())
        self._making[key] = future
        try:
            made = await asyncio.shield(future)
        finally:
            self._making.pop(key, None)
        self._gifs[key] = made
        while len(self._gifs) > GIF_CACHE:
            self._gifs.popitem(last=False)
        return made

    async def _published(self, rec: Any) -> None:
        """Delivery's after-publish hook: a match just ended gets its animated picture in its
        thread (``/settings gif``), once — drawn in the background, so nothing waits for it —
        joined to its final board when it has one."""
        if rec.status != FINISHED or self.delivery is None:
            return
        board = self.delivery.final_boards.pop(rec.id, None)
        if not rec.n_commands:
            return
        try:
            refs = await self.store.get_refs(rec.id)
            if refs.get("gif") or not refs.get("thread"):
                return
            if not (await self.delivery.settings(rec.guild_id)).get("gif", True):
                return
            await self.store.set_ref(rec.id, "gif", "1")     # once, also if it fails
        except Exception:
            log.exception("match %s: the end-of-match picture was not started", rec.id)
            return
        task = asyncio.create_task(self._post_gif(rec, int(refs["thread"]), board))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _post_gif(self, rec: Any, thread_id: int, board: Any = None) -> None:
        """Draw the animated picture and join it to the final board ``board`` (the message as
        posted); without one, or when it cannot be edited, post it in the thread on its own."""
        try:
            locale = await self.delivery.public_locale(rec)
            made = await self.gif(rec, locale)
            if board is not None and await self._join(rec, board, made, locale):
                return
            await self.bot.get_partial_messageable(thread_id).send(**gif_message(
                rec, made, gif_caption(rec, made, locale, self._result(rec), self.bot.tree)))
        except Exception:
            log.exception("match %s: the end-of-match picture was not posted", rec.id)

    async def _join(self, rec: Any, board: Any, made: Any, locale: str) -> bool:
        """Edit the final board to carry the animated picture too, in a gallery of its own under
        the board's picture, its caption beneath (the result is already in the board's words):
        one rate-limited edit instead of a post, and the board stays the thread's newest
        message.  ``board``: (the message as posted, its layout).  The board keeps its picture
        (kept by id, only the GIF is uploaded), words, result and pings.  False when it is no
        longer the match's board, is too old to edit, or Discord refuses the edit."""
        message, layout = board
        ref = f"{message.channel.id}:{message.id}"
        refs = await self.store.get_refs(rec.id)
        if refs.get("board") != ref or too_old_to_edit(int(message.id), self.host.now()):
            return False
        gif = gif_file(rec, made)
        caption = gif_caption(rec, made, locale, None, self.bot.tree)
        joined = replace(layout, pictures=(*layout.pictures, (gif.filename, caption.split("\n")[0])), caption=caption)
        # the board's own mentions stay mentions (an edit notifies nobody)
        mentions = discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                           users=list(getattr(message, "mentions", None) or []))
        try:
            await self.bot.get_partial_messageable(message.channel.id).get_partial_message(message.id).edit(
                **v2_edit(layout_view(joined), attachments=[*message.attachments, gif], allowed_mentions=mentions))
        except discord.HTTPException as exc:
            log.info("match %s: the animated picture could not join the final board (%s)", rec.id,
                     getattr(exc, "code", exc))
            return False
        return True

    # ------------------------------------------------------------------ /match record
    @app_commands.command(name=N("record", "cmd.match.record.name"), description=L("cmd.match.record.description"))
    @app_commands.rename(match=N("match", "cmd.opt.match.name"))
    @app_commands.describe(match=L("cmd.opt.match.description"))
    @app_commands.autocomplete(match=here_match_autocomplete)
    async def match_record(self, interaction: discord.Interaction, match: Optional[int] = None) -> None:
        rec = await self._resolve(interaction, match)
        if rec is None:
            return
        locale = user_locale(interaction)
        if not rec.n_commands or rec.status not in PLAYED:
            await reply_error(interaction, tr("replay.err.nothing", locale, match_id=rec.id))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        from host.engines import engine_of
        from host.match_record import full_export_allowed, write_record

        start, steps = await self.host.replay_book(rec)
        undone = await self.host.undone_entries(rec) if rec.meta.get("undos") else []
        text = await asyncio.to_thread(write_record, engine_of(rec), rec, steps, locale=locale,
                                       start_view=start["view"], undone=undone)
        files = [discord.File(io.BytesIO(file_bytes(text)), filename=f"match-{rec.id}.txt")]
        lines = [tr("replay.record.done", locale, match_id=rec.id)]
        if full_export_allowed(rec, interaction.user.id) and rec.meta.get("league") is None:
            # the match's own players, once it is over: the full record too (seed, every command;
            # an event's players get theirs from /history once the event has ended)
            from cogs.records import records_of

            got = await records_of(self.bot).export(rec.id)
            if got.ok:
                raw = file_bytes(json.dumps(got.data["export"], ensure_ascii=False, indent=2))
                files.append(discord.File(io.BytesIO(raw), filename=f"match-{rec.id}-full.json"))
                lines.append(tr("replay.record.full", locale))
        await reply(interaction, "\n".join(lines), files=files)


def gif_caption(rec: Any, made: Any, locale: str, result: Any, tree: Any) -> str:
    """The GIF's words: the match, its players and steps, how it ended (``result``: the host's
    outcome message), whether it was sampled, and how to step through it (the command named
    as the reader's client shows it: ``tree``, the bot's command tree)."""
    text = tr("replay.gif.caption", locale, match_id=rec.id, game=game_name(rec.game, locale),
              players=tr("core.list_sep", locale).join(safe_text(n) for n in rec.names), steps=made.steps)
    if result is not None:
        text += "\n" + render(result, locale)
    if made.sampled:
        text += "\n" + tr("replay.gif.sampled", locale, frames=made.frames, steps=made.steps)
    command = command_text(tree, "match replay", locale, match=("cmd.opt.match.name", rec.id))
    return text + "\n" + tr("replay.gif.hint", locale, command=command)


def gif_file(rec: Any, made: Any) -> discord.File:
    return discord.File(io.BytesIO(made.data), filename=f"match-{rec.id}.gif")


def gif_message(rec: Any, made: Any, caption: str) -> dict[str, Any]:
    """The animated picture posted on its own (the final board could not carry it): one layout,
    the GIF in its gallery and its words beneath, pinging nobody."""
    gif = gif_file(rec, made)
    first = caption.split("\n")[0]
    layout = Layout(pictures=((gif.filename, first),), caption=caption,
                    accent=colour_value(COLOURS.get(rec.status, discord.Colour.default())))
    return {"view": layout_view(layout), "file": gif, "allowed_mentions": NO_PINGS}


# ---------------------------------------------------------------------------- dynamic items
# a Replay-cog handler, answered as every persistent component is (cogs.common.run_in_cog)
_run = functools.partial(run_in_cog, "Replay")


class StepButton(discord.ui.DynamicItem[discord.ui.Button], template=STEP_TEMPLATE):
    def __init__(self, item: discord.ui.Button) -> None:
        super().__init__(item)
        m = re.fullmatch(STEP_TEMPLATE, item.custom_id or "")
        self.match_id, self.k, self.mode, self.slot, self.who = (
            int(m["match"]), int(m["k"]), m["mode"], m["slot"], int(m["who"]))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any):
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _run(interaction, lambda c: c.on_step(interaction, self.match_id, self.k, self.mode, self.slot, self.who))


class TurnSelect(discord.ui.DynamicItem[discord.ui.Select], template=TURN_TEMPLATE):
    def __init__(self, item: discord.ui.Select) -> None:
        super().__init__(item)
        m = re.fullmatch(TURN_TEMPLATE, item.custom_id or "")
        self.match_id, self.mode, self.who = int(m["match"]), m["mode"], int(m["who"])

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select, match: Any):
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or ["0"]
        try:
            k = max(0, int(str(values[0])[:7]))
        except ValueError:
            await reply_error(interaction, tr("cogs.err.bad_value", user_locale(interaction),
                                              value=safe_text(values[0], 20)))
            return
        await _run(interaction, lambda c: c.on_step(interaction, self.match_id, k, self.mode, "t", self.who))


DYNAMIC_ITEMS = (StepButton, TurnSelect)
