"""/play, /move, /match …, /rules (the handlers behind the persistent buttons and the Act menu
are in :mod:`cogs.controls`).

Thin by design: every decision about a game is the host's.  This cog turns interactions into
host calls and hands the Results to the Delivery cog.  Game names come from the registry and
the catalog, so a new game needs no change here.
"""
from __future__ import annotations

import logging
from typing import Any, Optional

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from cogs.common import (
    CHOICE_MAX, GAME_CHOICES, TURN_CHOICES, VALUE_MAX, L, N, clip, game_name, is_thread, jump_url, missing_permissions,
    permission_names, render, render_lines, reply, reply_error, safe_text, tr, user_locale,
)
from host import read_options
from host.decks import DeckBook
from cogs.authority import ELSEWHERE, check_match, moderator_guild
from cogs.controls import TableControls, said_move
from cogs.undo_controls import UndoControls, undone_lines
from cogs.cards import play_set_autocomplete
from cogs.decks import any_deck_autocomplete
from cogs.play_options import clock_args, control_autocomplete, options_autocomplete
from data.store import ABORTED, FINISHED, UNFINISHED, MatchRecord
from rules import registry

log = logging.getLogger("cogs.game")



def _turn_choices() -> list[Choice[int]]:
    return [Choice(name=app_commands.locale_str(tr(f"cogs.turn.{s}", "en"), key=f"cogs.turn.{s}"), value=s)
            for s in TURN_CHOICES]




def allowed_options(game: Any) -> str:
    """``name=default (choices|range)`` for each option of a game (via the host's helper)."""
    from host import describe_options

    return describe_options(game)


def _names_list(locale: str) -> str:
    return tr("core.list_sep", locale).join(game_name(n, locale) for n in registry.names())


async def match_autocomplete(interaction: discord.Interaction, current: str) -> list[Choice[int]]:
    """The invoking user's unfinished matches."""
    locale = user_locale(interaction)
    try:
        recs = await interaction.client.store.matches_for_user(interaction.user.id, UNFINISHED, 25)  # type: ignore[attr-defined]
    except Exception:
        log.exception("match autocomplete failed")
        return []
    return _match_choices(recs, locale, current, exclude=interaction.user.id)


async def channel_match_autocomplete(interaction: discord.Interaction, current: str) -> list[Choice[int]]:
    """Unfinished matches in this channel (for spectators), then the user's own."""
    locale = user_locale(interaction)
    store = interaction.client.store  # type: ignore[attr-defined]
    try:
        recs = []
        if interaction.channel_id is not None:
            recs = await store.matches_in_channel(interaction.channel_id)
        if len(recs) < CHOICE_MAX:
            recs += await store.matches_for_user(interaction.user.id, UNFINISHED, CHOICE_MAX)
    except Exception:
        log.exception("channel match autocomplete failed")
        return []
    return _match_choices(recs, locale, current)


def parent_of(interaction: discord.Interaction) -> int | None:
    """The channel of the thread a command was used in (None elsewhere): a match that had to
    leave its thread lives there (host ``match_for``)."""
    return _int(getattr(interaction.channel, "parent_id", None)) if is_thread(interaction.channel) else None


async def here_match_autocomplete(interaction: discord.Interaction, current: str) -> list[Choice[int]]:
    """For commands that read a match (its log, its status): the matches of this channel or
    thread, finished ones too (newest first), then the invoking user's unfinished matches."""
    locale = user_locale(interaction)
    store = interaction.client.store  # type: ignore[attr-defined]
    try:
        recs = []
        if interaction.channel_id is not None:
            recs = sorted(await store.matches_in_channel(interaction.channel_id, (*UNFINISHED, FINISHED, ABORTED)),
                          key=lambda m: -m.id)
            parent = parent_of(interaction)
            if not recs and parent is not None:     # a thread its match had to leave
                left = await interaction.client.host.match_for(  # type: ignore[attr-defined]
                    interaction.user.id, interaction.channel_id, parent)
                recs = [left] if left is not None else []
        if len(recs) < CHOICE_MAX:
            recs += await store.matches_for_user(interaction.user.id, UNFINISHED, CHOICE_MAX)
    except Exception:
        log.exception("match autocomplete failed")
        return []
    return _match_choices(recs, locale, current)


def _match_choices(recs: list[MatchRecord], locale: str, current: str, *,
                   exclude: int | None = None) -> list[Choice[int]]:
    """Matches as suggestions ("#12 SQUARES — Alice, Bob (in play)"), each once, filtered by
    what is typed (words or the number); ``exclude``: a user left out of the names (the caller,
    in a list of their own matches)."""
    out: list[Choice[int]] = []
    seen: set[int] = set()
    needle = (current or "").strip().lower().lstrip("#")
    for rec in recs:
        if rec.id in seen:
            continue
        seen.add(rec.id)
        label = tr("cogs.match.choice", locale, match_id=rec.id, game=game_name(rec.game, locale),
                   others=tr("core.list_sep", locale).join(
                       n for u, n in zip(rec.seats, rec.names) if n and (exclude is None or u != exclude)) or "-",
                   status=tr(f"host.state.{rec.status}", locale))
        if needle and needle not in label.lower() and needle not in str(rec.id):
            continue
        out.append(Choice(name=clip(label, 100), value=int(rec.id)))
    return out[:CHOICE_MAX]


async def command_autocomplete(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """Only the invoking player's own legal commands, in words (the menu's labels), filtered by
    what they typed — in the words or in the notation."""
    bot = interaction.client
    match_id = getattr(interaction.namespace, "match", None)
    try:
        if match_id is None:
            rec = await bot.host.match_for(interaction.user.id, interaction.channel_id,  # type: ignore[attr-defined]
                                           parent_of(interaction))
            if rec is None:
                return []
            match_id = rec.id
        moves = await bot.host.choices(int(match_id), interaction.user.id,  # type: ignore[attr-defined]
                                       user_locale(interaction))
    except Exception:
        log.exception("command autocomplete failed")
        return []
    typed = " ".join((current or "").lower().split())

    def name(c: Any) -> str:
        return " ".join(x for x in (c.emoji, c.text()) if x)

    starts = [c for c in moves if c.command.lower().startswith(typed) or name(c).lower().startswith(typed)]
    inside = [c for c in moves if typed and c not in starts
              and (typed in c.command.lower() or typed in name(c).lower())]
    return [Choice(name=clip(name(c), 100), value=c.command[:VALUE_MAX]) for c in (starts + inside)[:CHOICE_MAX]]


class Game(TableControls, UndoControls, commands.Cog):
    """Playing matches."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @property
    def host(self) -> Any:
        return self.bot.host  # type: ignore[attr-defined]

    @property
    def store(self) -> Any:
        return self.bot.store  # type: ignore[attr-defined]

    @property
    def delivery(self) -> Any:
        return self.bot.get_cog("Delivery")

    # ------------------------------------------------------------------ helpers
    async def _record(self, match_id: int) -> MatchRecord | None:
        try:
            return await self.store.get_match(int(match_id))
        except Exception:  # a quarantined/corrupt row: the host will say so
            log.info("match %s could not be read", match_id)
            return None

    async def _resolve(self, interaction: discord.Interaction, match_id: int | None,
                       elsewhere: str = ELSEWHERE) -> MatchRecord | None:
        """The match a command means: the ``match`` option, else the host's guess; answers if none
        (or if it is another server's match and the caller is not seated: cogs/authority.py)."""
        locale = user_locale(interaction)
        if match_id is not None:
            rec = await self._record(match_id)
            if rec is None:
                await reply_error(interaction, tr("host.err.no_match", locale, match_id=match_id))
            return rec if rec is not None and await check_match(interaction, rec, elsewhere) else None
        rec = await self.host.match_for(interaction.user.id, interaction.channel_id, parent_of(interaction))
        if rec is None:
            await reply_error(interaction, tr("cogs.err.which_match", locale))
        return rec

    async def _resolve_played(self, interaction: discord.Interaction, match_id: int | None) -> MatchRecord | None:
        """As :meth:`_resolve`, but without a number a challenge not yet started (a rematch
        offered in a finished match's thread) gives way to the match played there (its log, a
        player's last hand)."""
        if match_id is not None:
            return await self._resolve(interaction, match_id)
        rec = await self.host.log_match_for(interaction.user.id, interaction.channel_id, parent_of(interaction))
        if rec is None:
            await reply_error(interaction, tr("cogs.err.which_match", user_locale(interaction)))
        return rec

    async def _remember(self, interaction: discord.Interaction, match_id: int) -> None:
        if self.delivery is not None:
            await self.delivery.remember_locale(match_id, interaction.user.id, user_locale(interaction))

    async def _answer(self, interaction: discord.Interaction, result: Any, ok_text: str | None = None) -> bool:
        """Tell the caller what happened: the error, or the info lines (or ``ok_text``)."""
        locale = user_locale(interaction)
        if not result.ok:
            await reply_error(interaction, render(result.error, locale) or tr("cogs.err.generic", locale))
            return False
        lines = render_lines(result.info, locale)
        if ok_text:
            lines.insert(0, ok_text)
        if lines:
            await reply(interaction, "\n".join(lines))
        elif interaction.response.is_done() and _is_slash(interaction):
            await reply(interaction, tr("cogs.done", locale))
        return True

    async def _publish(self, result: Any, actor: int | None, via: discord.Interaction | None = None) -> None:
        """Show a result.  ``via``: the player's interaction that made it, whose follow-up may
        carry a new board in the match's thread (see :meth:`Delivery.publish`)."""
        if self.delivery is not None and result.ok:
            await self.delivery.publish(result, actor=actor, via=via)

    async def _defer(self, interaction: discord.Interaction) -> None:
        if interaction.response.is_done():
            return
        if interaction.type is discord.InteractionType.component:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)

    async def _status_reply(self, interaction: discord.Interaction, match_id: int) -> None:
        locale = user_locale(interaction)
        result = await self.host.status(match_id, viewer=interaction.user.id)
        if not result.ok:
            await reply_error(interaction, render(result.error, locale))
            return
        mine = [p for p in result.prompts if p.user_id == interaction.user.id]
        extra = (f"**{tr('cogs.status.your_turn', locale)}**\n"
                 f"{tr('cogs.status.legal_count', locale, n=len(mine[0].legal))}") if mine else ""
        view, file = self.delivery.board_reply(result.match, result.public, locale, extra=extra)
        await reply(interaction, view=view, file=file)

    # ------------------------------------------------------------------ /play
    @app_commands.command(name=N("play", "cmd.play.name"), description=L("cmd.play.description"))
    @app_commands.guild_only()
    @app_commands.rename(game=N("game", "cmd.play.game.name"),
                         opponent=N("opponent", "cmd.play.opponent.name"),
                         opponent2=N("opponent2", "cmd.play.opponent2.name"),
                         opponent3=N("opponent3", "cmd.play.opponent3.name"),
                         open_seats=N("open_seats", "cmd.play.open_seats.name"),
                         options=N("options", "cmd.play.options.name"),
                         turn_time=N("turn_time", "cmd.play.turn_time.name"),
                         time_control=N("time_control", "cmd.play.time_control.name"),
                         weekend_pause=N("weekend_pause", "cmd.play.weekend_pause.name"),
                         rated=N("rated", "cmd.play.rated.name"),
                         deck=N("deck", "cmd.play.deck.name"), fill_ai=N("fill_ai", "cmd.play.fill_ai.name"),
                         card_set=N("set", "cmd.play.set.name"))
    @app_commands.describe(game=L("cmd.play.game.description"),
                           opponent=L("cmd.play.opponent.description"),
                           opponent2=L("cmd.play.opponent2.description"),
                           opponent3=L("cmd.play.opponent3.description"),
                           open_seats=L("cmd.play.open_seats.description"),
                           options=L("cmd.play.options.description"),
                           turn_time=L("cmd.play.turn_time.description"),
                           time_control=L("cmd.play.time_control.description"),
                           weekend_pause=L("cmd.play.weekend_pause.description"),
                           rated=L("cmd.play.rated.description"),
                           deck=L("cmd.play.deck.description"), fill_ai=L("cmd.play.fill_ai.description"),
                           card_set=L("cmd.play.set.description"))
    @app_commands.choices(game=GAME_CHOICES, turn_time=_turn_choices())
    @app_commands.autocomplete(deck=any_deck_autocomplete, options=options_autocomplete,
                               card_set=play_set_autocomplete, time_control=control_autocomplete)
    async def play(self, interaction: discord.Interaction, game: str,
                   opponent: Optional[discord.User] = None, opponent2: Optional[discord.User] = None,
                   opponent3: Optional[discord.User] = None,
                   open_seats: Optional[app_commands.Range[int, 0, 9]] = None,
                   options: Optional[app_commands.Range[str, 0, 200]] = None,
                   turn_time: Optional[int] = None, rated: Optional[bool] = None,
                   deck: Optional[app_commands.Range[str, 1, 1000]] = None,
                   fill_ai: Optional[bool] = None, card_set: Optional[app_commands.Range[str, 1, 40]] = None,
                   time_control: Optional[app_commands.Range[str, 1, 128]] = None,
                   weekend_pause: Optional[bool] = None) -> None:
        locale = user_locale(interaction)
        game = str(game or "").strip()
        if game not in registry:
            await reply_error(interaction, tr("cogs.err.unknown_game", locale, game=safe_text(game, 40),
                                              games=_names_list(locale)))
            return
        if interaction.guild_id is not None:
            # the board needs its picture, embed and controls here: say what is missing now
            # rather than fail on every post (each refusal counts against the bot's budget)
            missing = missing_permissions(interaction.app_permissions,
                                          in_thread=isinstance(interaction.channel, discord.Thread))
            if missing:
                await reply_error(interaction, tr("cogs.err.missing_permissions", locale,
                                                  perms=permission_names(missing, locale)))
                return
        # the cards: the set named, else the server's choice for the game, else the shipped ones
        cards = await self.host.card_sets.resolve(interaction.guild_id, game, card_set)
        if not cards.ok:
            await reply_error(interaction, render(cards.error, locale))
            return
        engine = cards.data["engine"] or registry.get(game)
        parsed, problem = read_options(engine, options)
        if problem is not None:
            await reply_error(interaction, tr("cogs.err.bad_options", locale, detail=render(problem, locale),
                                              allowed=allowed_options(engine)))
            return
        # the clock: turn_time or time_control (never both), else the server's defaults
        clock, refused = clock_args(turn_time, time_control, weekend_pause,
                                    await self.delivery.settings(interaction.guild_id), locale)
        if refused is not None:
            await reply_error(interaction, refused)
            return
        opponents: list[tuple[int, str]] = []
        me = getattr(self.bot.user, "id", None)
        if opponent is not None and opponent.id == me and opponent2 is None and opponent3 is None \
                and not open_seats and self.bot.get_cog("Practice") is not None:
            # the bot itself as the opponent: a practice match against the computer
            await self.bot.get_cog("Practice").start(interaction, game, None, deck, card_set=card_set)
            return
        for user in (opponent, opponent2, opponent3):
            if user is None:
                continue
            if user.bot:
                await reply_error(interaction, tr("cogs.err.bot_opponent", locale, name=safe_text(user.display_name)))
                return
            opponents.append((user.id, user.display_name))
        seats = int(open_seats or 0)
        if not opponents and not seats:
            seats = max(0, engine.min_players - 1)  # nobody named: open the seats the game needs
        if fill_ai and (engine.max_players < 3 or len(opponents) + seats + 1 < 3):
            await reply_error(interaction, tr("cogs.err.fill_ai_ffa", locale))
            return
        chosen, err = await DeckBook(self.bot.store).for_play(interaction.user.id, game, deck, engine=cards.data["engine"])
        if err is not None:
            await reply_error(interaction, "\n".join([render(err.error, locale)]
                                                      + ["• " + t for t in render_lines(err.info, locale)]))
            return
        public_locale = await self.delivery.locale_for_guild(interaction.guild_id, interaction.guild_locale)
        await interaction.response.defer(ephemeral=True, thinking=True)
        result = await self.host.challenge(
            game, interaction.user.id, interaction.user.display_name, opponents=opponents,
            open_seats=seats, options=parsed, **clock, guild_id=interaction.guild_id,
            channel_id=interaction.channel_id, locale=public_locale,
            meta={"rated": rated is not False, **({"fill_ai": True} if fill_ai else {}),
                  **({"cards": cards.data["ref"]} if cards.data["ref"] else {})},
            deck=chosen, cards=card_set)
        if not result.ok:
            await reply_error(interaction, render(result.error, locale))
            return
        await self.post_new_match(interaction, result, locale, self.host.decline, "cogs.play.posted")

    async def post_new_match(self, interaction: discord.Interaction, result: Any, locale: str, withdraw: Any,
                             posted_key: str, **params: Any) -> None:
        """Show a match just made (/play, /practice): its thread or channel, the board, and the
        caller's link to it; with nowhere to show it, ``withdraw(match, user)`` so nothing lingers."""
        rec = result.match
        await self._setup_refs(rec.id, interaction.channel, interaction.channel_id)
        await self._remember(interaction, rec.id)
        message = await self.delivery.publish(result, actor=interaction.user.id)
        if message is None:
            await withdraw(rec.id, interaction.user.id)
            await reply_error(interaction, tr("cogs.err.cannot_post", locale))
            return
        await reply(interaction, tr(posted_key, locale, match_id=rec.id, game=game_name(rec.game, locale),
                                    url=jump_url(interaction.guild_id, message), **params))

    async def _setup_refs(self, match_id: int, channel: Any, channel_id: int | None) -> None:
        if channel_id is None:
            return
        await self.store.set_ref(match_id, "home", str(channel_id))
        if is_thread(channel):
            # Already in a thread: play right here (threads cannot hold threads).
            await self.store.set_ref(match_id, "nothread", "1")
            parent = getattr(channel, "parent_id", None)
            if parent:
                await self.store.set_ref(match_id, "parent", str(parent))

    # ------------------------------------------------------------------ /move
    @app_commands.command(name=N("move", "cmd.move.name"), description=L("cmd.move.description"))
    @app_commands.rename(command=N("command", "cmd.move.command.name"), match=N("match", "cmd.opt.match.name"))
    @app_commands.describe(command=L("cmd.move.command.description"), match=L("cmd.opt.match.description"))
    @app_commands.autocomplete(command=command_autocomplete, match=match_autocomplete)
    async def move(self, interaction: discord.Interaction, command: app_commands.Range[str, 1, 200],
                   match: Optional[int] = None) -> None:
        rec = await self._resolve(interaction, match)
        if rec is None:
            return
        await self._remember(interaction, rec.id)
        await self._defer(interaction)
        locale = user_locale(interaction)
        typed = " ".join(command.split())
        said = next(iter(await self.host.choices(rec.id, interaction.user.id, locale, only=typed)), None)
        result = await self.host.command(rec.id, interaction.user.id, command)
        played = tr("cogs.played", locale, move=said_move(said, locale) if said
                    else tr("cogs.played.notation", locale, command=clip(typed.replace("`", "'"), 200)),
                    match_id=rec.id)
        if await self._answer(interaction, result, ok_text=played):
            await self._publish(result, interaction.user.id)

    # ------------------------------------------------------------------ /match …
    match_group = app_commands.Group(name=N("match", "cmd.match.name"), description=L("cmd.match.description"))

    async def _simple(self, interaction: discord.Interaction, match: int | None, call: str,
                      ok_key: str | None = None, publish: bool = True, **kwargs: Any) -> None:
        rec = await self._resolve(interaction, match)
        if rec is None:
            return
        await self._remember(interaction, rec.id)
        await self._defer(interaction)
        result = await getattr(self.host, call)(rec.id, interaction.user.id, **kwargs)
        if result.ok and result.data.get("clock") == "auto":   # a claim played the game's default
            ok_key = "cogs.claimed_auto"
        ok_text = tr(ok_key, user_locale(interaction), match_id=rec.id) if ok_key else None
        if await self._answer(interaction, result, ok_text=ok_text) and publish:
            await self._publish(result, interaction.user.id)

    @match_group.command(name=N("status", "cmd.match.status.name"), description=L("cmd.match.status.description"))
    @app_commands.rename(match=N("match", "cmd.opt.match.name"))
    @app_commands.describe(match=L("cmd.opt.match.description"))
    @app_commands.autocomplete(match=here_match_autocomplete)
    async def match_status(self, interaction: discord.Interaction, match: Optional[int] = None) -> None:
        rec = await self._resolve(interaction, match)
        if rec is None:
            return
        await self._defer(interaction)
        await self._status_reply(interaction, rec.id)

    @match_group.command(name=N("resign", "cmd.match.resign.name"), description=L("cmd.match.resign.description"))
    @app_commands.rename(match=N("match", "cmd.opt.match.name"))
    @app_commands.describe(match=L("cmd.opt.match.description"))
    @app_commands.autocomplete(match=match_autocomplete)
    async def match_resign(self, interaction: discord.Interaction, match: Optional[int] = None) -> None:
        await self._simple(interaction, match, "resign", ok_key="cogs.resigned")

    @match_group.command(name=N("abort", "cmd.match.abort.name"), description=L("cmd.match.abort.description"))
    @app_commands.rename(match=N("match", "cmd.opt.match.name"))
    @app_commands.describe(match=L("cmd.opt.match.description"))
    @app_commands.autocomplete(match=match_autocomplete)
    async def match_abort(self, interaction: discord.Interaction, match: Optional[int] = None) -> None:
        rec = await self._resolve(interaction, match, elsewhere="authority.abort.foreign")
        if rec is None:
            return
        # moderator power counts only in the match's own server (the host checks it too)
        mod_guild = None if interaction.user.id in rec.seats else moderator_guild(interaction)
        await self._remember(interaction, rec.id)
        await self._defer(interaction)
        result = await self.host.abort(rec.id, interaction.user.id, moderator_guild=mod_guild)
        if await self._answer(interaction, result):
            await self._publish(result, interaction.user.id)

    @match_group.command(name=N("hand", "cmd.match.hand.name"), description=L("cmd.match.hand.description"))
    @app_commands.rename(match=N("match", "cmd.opt.match.name"))
    @app_commands.describe(match=L("cmd.opt.match.description"))
    @app_commands.autocomplete(match=match_autocomplete)
    async def match_hand(self, interaction: discord.Interaction, match: Optional[int] = None) -> None:
        rec = await self._resolve_played(interaction, match)
        if rec is None:
            return
        await self._remember(interaction, rec.id)
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = user_locale(interaction)
        result = await self.host.hand(rec.id, interaction.user.id)
        if not result.ok:
            await reply_error(interaction, render(result.error, locale))
            return
        mine = [p for p in result.private if p.user_id == interaction.user.id]
        if not mine or not set(mine[0].own) - {"cards", "seat"}:   # e.g. SQUARES: everything is on the board
            await reply(interaction, tr("cogs.hand.empty", locale))
            return
        view, file = self.delivery.private_layout(result.match, mine[0], locale)
        await reply(interaction, view=view, file=file)
        await self.delivery.dms_again(rec.id, interaction.user.id)   # perhaps they reopened their DMs

    @match_group.command(name=N("log", "cmd.match.log.name"), description=L("cmd.match.log.description"))
    @app_commands.rename(match=N("match", "cmd.opt.match.name"))
    @app_commands.describe(match=L("cmd.opt.match.description"))
    @app_commands.autocomplete(match=here_match_autocomplete)
    async def match_log(self, interaction: discord.Interaction, match: Optional[int] = None) -> None:
        rec = await self._resolve_played(interaction, match)
        if rec is None:
            return
        await self._defer(interaction)
        locale = user_locale(interaction)
        result = await self.host.log(rec.id)
        if not result.ok:
            await reply_error(interaction, render(result.error, locale))
            return
        entries = result.data.get("log", [])
        header = tr("cogs.log.header", locale, match_id=rec.id, game=game_name(rec.game, locale), n=len(entries))
        undone = clip("\n".join(undone_lines(result.data.get("undone") or [], locale)), 900)
        if not entries:
            empty = "cogs.log.empty" if rec.status == "active" else "cogs.log.none_played"
            await reply(interaction, header + "\n" + tr(empty, locale) + ("\n" + undone if undone else ""))
            return
        # each entry: the move in words, its notation after (as the Act menu says it), then what
        # it did in words (the newest entries are kept)
        blocks = [[log_line(e, locale)]
                  + ["\u2003· " + safe_text(tr("host.raw", locale, text=line)) for line in e.get("story") or []]
                  for e in entries]
        body: list[str] = []
        size = 0
        budget = 1800 - len(header) - len(undone)
        kept = 0
        for block in reversed(blocks):
            text = "\n".join(block)
            if size + len(text) + 1 > budget:
                break
            body[:0] = block
            size += len(text) + 1
            kept += 1
        skipped = len(blocks) - kept
        text = header
        if skipped:
            text += "\n" + tr("cogs.log.skipped", locale, n=skipped)
        text += "\n" + "\n".join(body)
        if undone:
            text += "\n" + undone
        await reply(interaction, text)

    @match_group.command(name=N("rematch", "cmd.match.rematch.name"), description=L("cmd.match.rematch.description"))
    @app_commands.rename(match=N("match", "cmd.opt.match.name"))
    @app_commands.describe(match=L("cmd.opt.match.description"))
    @app_commands.autocomplete(match=match_autocomplete)
    async def match_rematch(self, interaction: discord.Interaction, match: Optional[int] = None) -> None:
        locale = user_locale(interaction)
        if match is None:
            # a finished match is not found by match_for: take the latest finished one here
            rec = await self._latest_here(interaction)
            if rec is None:
                await reply_error(interaction, tr("cogs.err.which_match", locale))
                return
        else:
            rec = await self._resolve(interaction, match)
            if rec is None:
                return
        await self._defer(interaction)
        result = await self.host.rematch(rec.id, interaction.user.id)
        if not result.ok:
            await reply_error(interaction, render(result.error, locale))
            return
        new = result.match
        old_refs = await self.store.get_refs(rec.id)
        await self.store.set_ref(new.id, "home", str(new.channel_id) if new.channel_id else old_refs.get("home"))
        if old_refs.get("thread") and str(new.channel_id) == old_refs.get("thread"):
            await self.store.set_ref(new.id, "nothread", "1")   # keep playing in the same thread
            if old_refs.get("parent"):
                await self.store.set_ref(new.id, "parent", old_refs["parent"])
        elif old_refs.get("nothread"):
            await self.store.set_ref(new.id, "nothread", "1")
        await self._remember(interaction, new.id)
        message = await self.delivery.publish(result, actor=interaction.user.id)
        url = jump_url(interaction.guild_id, message) if message is not None else ""
        key = "cogs.rematch.accepted" if result.data.get("accepted_rematch") else "cogs.rematch.posted"
        await reply(interaction, tr(key, locale, match_id=new.id, url=url))

    async def _latest_here(self, interaction: discord.Interaction) -> MatchRecord | None:
        statuses = ("finished", "aborted")
        if interaction.channel_id is not None:
            here = [m for m in await self.store.matches_in_channel(interaction.channel_id, statuses)
                    if interaction.user.id in m.seats]
            if here:
                return max(here, key=lambda m: m.id)
        mine = await self.store.matches_for_user(interaction.user.id, statuses, 1)
        return mine[0] if mine else None

    @match_group.command(name=N("spectate", "cmd.match.spectate.name"), description=L("cmd.match.spectate.description"))
    @app_commands.rename(match=N("match", "cmd.opt.match.name"))
    @app_commands.describe(match=L("cmd.opt.match.description"))
    @app_commands.autocomplete(match=channel_match_autocomplete)
    async def match_spectate(self, interaction: discord.Interaction, match: int) -> None:
        locale = user_locale(interaction)
        rec = await self._resolve(interaction, match)
        if rec is None:
            return
        await self._defer(interaction)
        result = await self.host.spectate(rec.id, interaction.user.id)
        if not result.ok:
            await reply_error(interaction, render(result.error, locale))
            return
        refs = await self.store.get_refs(rec.id)
        if refs.get("thread"):
            thread = int(refs["thread"])
            try:
                cached = self.bot.get_channel(thread)
                if cached is None or (isinstance(cached, discord.Thread) and cached.archived):
                    # an idle thread archived itself (discord.py then drops it from its cache)
                    # and refuses new members (50083): unarchive it first
                    try:
                        await self.bot.http.edit_channel(thread, archived=False)
                    except discord.HTTPException as exc:
                        log.info("match %s: thread %s not unarchived (%s)", rec.id, thread, getattr(exc, "code", exc))
                try:
                    await self.bot.http.add_user_to_thread(thread, interaction.user.id)
                except discord.HTTPException as exc:
                    if getattr(exc, "code", 0) != 50083:
                        raise
                    await self.bot.http.edit_channel(thread, archived=False)   # not seen archiving
                    await self.bot.http.add_user_to_thread(thread, interaction.user.id)
            except discord.HTTPException:
                log.info("could not add spectator to thread of match %s", rec.id)
        where = f"<#{result.match.channel_id}>" if result.match.channel_id else ""
        lines = render_lines(result.info, locale)
        if where:
            lines.append(tr("cogs.spectate.where", locale, where=where))
        view, file = self.delivery.board_reply(result.match, result.public, locale, head="\n".join(lines))
        await reply(interaction, view=view, file=file)

    @match_group.command(name=N("claim", "cmd.match.claim.name"), description=L("cmd.match.claim.description"))
    @app_commands.rename(match=N("match", "cmd.opt.match.name"))
    @app_commands.describe(match=L("cmd.opt.match.description"))
    @app_commands.autocomplete(match=match_autocomplete)
    async def match_claim(self, interaction: discord.Interaction, match: Optional[int] = None) -> None:
        await self._simple(interaction, match, "claim_timeout", ok_key="cogs.claimed")

def log_line(entry: dict, locale: str) -> str:
    """One ``/match log`` entry: "12. Bob: Place Pawn 5 on c5 (`place P5 c5`)" — the move in
    words first, its notation after (the notation alone when it has no words)."""
    name = safe_text(entry.get("name") or f"#{entry['seat'] + 1}")
    command = "`" + clip(str(entry["command"]), 200).replace("`", "'") + "`"
    words = entry.get("words")
    said = tr("host.raw", locale, text=words) if words else ""
    if said and entry["command"] in ("join", "resign"):     # the host's own entries: words only
        move = safe_text(said)
    else:
        move = tr("cogs.log.move", locale, words=safe_text(said), command=command) if said else command
    return f"{entry['seq']}. {name}: {move}"


def _is_slash(interaction: discord.Interaction) -> bool:
    return interaction.type is discord.InteractionType.application_command


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None
