"""Locale helpers and small Discord utilities shared by every cog.

Nothing here knows a game: text comes from the catalog (``data/i18n``), game names from
``game.<name>`` keys, and host messages arrive as :class:`host.types.Msg`.
"""
from __future__ import annotations

import logging
from typing import Any, Iterable

import discord
from discord import app_commands
from discord.app_commands import locale_str

from data import i18n

log = logging.getLogger("cogs")

# Discord limits we keep to.
CONTENT_MAX = 2000
EMBED_DESC_MAX = 4096
SELECT_MAX = 25
CHOICE_MAX = 25
LABEL_MAX = 100
VALUE_MAX = 100

NO_PINGS = discord.AllowedMentions.none()

# Turn clock choices for /play (seconds; 0 = no clock).
TURN_CHOICES: list[int] = [300, 900, 3600, 86400, 259200, 0]

THREAD_TYPES = (discord.ChannelType.public_thread, discord.ChannelType.private_thread,
                discord.ChannelType.news_thread)


def L(key: str) -> locale_str:
    """A translatable string whose default (English) text comes from the catalog."""
    return locale_str(i18n.t(key, "en"), key=key)


def N(name: str, key: str) -> locale_str:
    """A translatable command/option name: the default is the code name itself."""
    return locale_str(name, key=key)


def tr(key: str, locale: Any, /, **params: Any) -> str:
    return i18n.t(key, locale, **params)


def loc(value: Any) -> str:
    """``ja`` or ``en`` for a Discord locale (or anything :func:`i18n.locale_of` takes)."""
    return i18n.locale_of(value)


def user_locale(interaction: discord.Interaction) -> str:
    return i18n.locale_of(interaction.locale)


def send_kwargs(embed: Any, *, allowed_mentions: Any, content: str | None = None, file: Any = None,
                view: Any = None) -> dict[str, Any]:
    """The keyword arguments of a message with an embed, and the optional rest only when given
    (discord.py's ``send`` refuses ``file=None`` and ``view=None`` the way it accepts nothing)."""
    kwargs: dict[str, Any] = {"embed": embed, "allowed_mentions": allowed_mentions}
    if content:
        kwargs["content"] = clip(content, CONTENT_MAX)
    if file is not None:
        kwargs["file"] = file
    if view is not None:
        kwargs["view"] = view
    return kwargs


def render(m: Any, locale: str) -> str:
    """Render a host Msg (or pass through a str / None)."""
    if m is None:
        return ""
    if isinstance(m, str):
        return m
    return m.render(locale)


def render_lines(lines: Iterable[Any], locale: str) -> list[str]:
    return [s for s in (render(m, locale) for m in lines or []) if s]


def game_name(name: str, locale: str) -> str:
    key = f"game.{name}"
    return i18n.t(key, locale) if i18n.has(key) else name


def clip(text: str, limit: int) -> str:
    text = text or ""
    return text if len(text) <= limit else text[: max(0, limit - 1)] + "…"


def code(text: Any, limit: int = 60) -> str:
    """``text`` as inline code: a file name, a column or an id someone typed, shown as typed
    (no markdown, no mention: nothing inside backticks is read as either); its own backticks
    and line breaks are dropped, a long one clipped.

    >>> code("cards.zip"), code("a`b\\nc"), code("")
    ('`cards.zip`', '`ab c`', '` `')
    """
    flat = " ".join(str(text).replace("`", "").split())
    return f"`{clip(flat, limit) or ' '}`"


def pings(user_ids: Iterable[int]) -> discord.AllowedMentions:
    """Allow pinging exactly these users, nothing else."""
    users = [discord.Object(int(u)) for u in dict.fromkeys(int(u) for u in user_ids if u)]
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False, users=users)


def mention_line(user_ids: Iterable[int]) -> str:
    return " ".join(f"<@{int(u)}>" for u in dict.fromkeys(int(u) for u in user_ids if u))


def is_thread(channel: Any) -> bool:
    return getattr(channel, "type", None) in THREAD_TYPES


def turn_label(seconds: int, locale: str) -> str:
    return tr(f"cogs.turn.{seconds}", locale)


# what the bot needs in a channel to host a match there (threads are optional: without them the
# match is played in the channel)
HOST_PERMISSIONS = ("view_channel", "send_messages", "embed_links", "attach_files", "read_message_history")


def missing_permissions(perms: "discord.Permissions", in_thread: bool = False) -> list[str]:
    """The permissions (discord.py names) the bot lacks to host a match in a channel."""
    need = [("send_messages_in_threads" if (p == "send_messages" and in_thread) else p) for p in HOST_PERMISSIONS]
    return [p for p in need if not getattr(perms, p, False)]


def permission_names(names: list[str], locale: str) -> str:
    """Permissions as the reader's Discord names them ("Attach Files", 「ファイルを添付」)."""
    return tr("cogs.perm.sep", locale).join(tr(f"cogs.perm.{n}", locale) for n in names)


EDIT_MAX_AGE = 3600 - 300   # s: Discord rations edits of messages older than an hour (429/30046)


def message_age(message_id: int, now: float) -> float:
    """Seconds since Discord created the message (its snowflake id holds the time)."""
    return now - (((int(message_id) >> 22) + 1420070400000) / 1000)


def too_old_to_edit(message_id: int, now: float) -> bool:
    """True when a message should be replaced, not edited: it is (nearly) an hour old, and
    Discord answers such edits with 429/30046 once a small budget is spent."""
    return message_age(message_id, now) > EDIT_MAX_AGE


def expired(error: BaseException | None) -> bool:
    """True for Discord's "Unknown interaction" (10062): the interaction was answered after its
    3 s (or its token's 15 min), e.g. after a slow reconnect.  Nothing can be sent for it any
    more; it is logged once at INFO, never as an error."""
    while error is not None:
        if isinstance(error, discord.NotFound) and getattr(error, "code", 0) == 10062:
            return True
        error = getattr(error, "original", None) or error.__cause__
    return False


def log_expired(interaction: discord.Interaction, what: str) -> None:
    log.info("interaction %s (%s) expired before it was answered; nothing sent", interaction.id, what)


async def reply(interaction: discord.Interaction, content: str | None = None, *,
                embed: discord.Embed | None = None, file: discord.File | None = None,
                view: discord.ui.View | None = None, ephemeral: bool = True,
                files: list[discord.File] | None = None) -> None:
    """Answer an interaction whether or not it was already responded to (or deferred);
    ``file`` one attachment, ``files`` several."""
    kwargs: dict[str, Any] = {"allowed_mentions": NO_PINGS, "ephemeral": ephemeral}
    if content is not None:
        kwargs["content"] = clip(content, CONTENT_MAX)
    if embed is not None:
        kwargs["embed"] = embed
    if file is not None:
        kwargs["file"] = file
    if files:
        kwargs["files"] = files
    if view is not None:
        kwargs["view"] = view
    try:
        if interaction.response.is_done():
            await interaction.followup.send(**kwargs)
        else:
            await interaction.response.send_message(**kwargs)
    except discord.HTTPException as exc:
        if expired(exc):
            log_expired(interaction, "reply")
        else:
            log.warning("could not answer interaction %s", interaction.id, exc_info=True)


def transient(error: BaseException) -> bool:
    """Is this (or what it wraps: app_commands.CommandInvokeError) the database failing for a
    moment (data.store.TransientStoreError)?  Then the answer is "try again", not "error"."""
    from data.store import TransientStoreError

    seen = 0
    while error is not None and seen < 4:
        if isinstance(error, TransientStoreError):
            return True
        error = getattr(error, "original", None) or error.__cause__
        seen += 1
    return False


async def reply_error(interaction: discord.Interaction, text: str) -> None:
    await reply(interaction, "⚠️ " + text)


async def run_in_cog(cog_name: str, interaction: discord.Interaction, factory: Any) -> None:
    """A persistent component's callback: call ``factory(cog)`` on the cog named ``cog_name``; a
    missing cog or an unexpected error gets a localized answer, a database that failed for a
    moment (logged by the store) "try again", an interaction Discord has expired only a log line."""
    cog = interaction.client.get_cog(cog_name)  # type: ignore[union-attr]
    if cog is None:
        await reply_error(interaction, tr("cogs.err.generic", user_locale(interaction)))
        return
    try:
        await factory(cog)
    except Exception as exc:
        if expired(exc):
            log_expired(interaction, str((interaction.data or {}).get("custom_id")))
            return
        if transient(exc):
            await reply_error(interaction, tr("cogs.err.transient", user_locale(interaction)))
            return
        log.exception("component %s failed", (interaction.data or {}).get("custom_id"))
        await reply_error(interaction, tr("cogs.err.generic", user_locale(interaction)))


class GameTree(app_commands.CommandTree):
    """The command tree with a localized answer for any error a command lets escape."""

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError, /) -> None:
        locale = user_locale(interaction)
        if expired(error):
            log_expired(interaction, interaction.command.qualified_name if interaction.command else "?")
            return
        if isinstance(error, (app_commands.MissingPermissions, app_commands.CheckFailure)):
            if isinstance(error, app_commands.NoPrivateMessage):
                text = tr("cogs.err.guild_only", locale)
            else:
                text = tr("cogs.err.no_permission", locale)
        elif isinstance(error, app_commands.TransformerError):
            text = tr("cogs.err.bad_value", locale, value=clip(str(error.value), 50))
        elif transient(error):
            text = tr("cogs.err.transient", locale)
        else:
            cmd = interaction.command.qualified_name if interaction.command else "?"
            log.error("command %s failed", cmd, exc_info=error)
            text = tr("cogs.err.generic", locale)
        await reply_error(interaction, text)


def jump_url(guild_id: int | None, message: discord.Message) -> str:
    """The link that opens ``message`` in the client."""
    return f"https://discord.com/channels/{guild_id or '@me'}/{message.channel.id}/{message.id}"


def _game_choices() -> list:
    from discord import app_commands
    from discord.app_commands import Choice

    from rules import registry

    return [Choice(name=app_commands.locale_str(game_name(n, "en"), key=f"game.{n}"), value=n)
            for n in registry.names()[:CHOICE_MAX]]


GAME_CHOICES = _game_choices()      # /play, /practice, /rules: the registered games by name
