"""Locale helpers and small Discord utilities shared by every cog.

Nothing here knows a game: text comes from the catalog (``data/i18n``), game names from
``game.<name>`` keys, and host messages arrive as :class:`host.types.Msg`.
"""
from __future__ import annotations

import functools
import logging
import re
import unicodedata
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


def pager(page: int, pages: int, locale: str, custom_id: Any, item: Any) -> discord.ui.View | None:
    """◀ ▶ under one page of several (None when everything fits one page): ``custom_id(target)``
    names each button's persistent id and ``item(button, target)`` wraps it in the cog's
    dynamic item.  A disabled button names the page shown, so the two custom ids stay different."""
    if pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    for label, target, off in (("records.page.prev", max(page - 1, 0), page == 0),
                               ("records.page.next", min(page + 1, pages - 1), page + 1 >= pages)):
        button = discord.ui.Button(label=tr(label, locale), style=discord.ButtonStyle.secondary,
                                   custom_id=custom_id(target), disabled=off)
        view.add_item(item(button, target))
    return view


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


# The params of host messages (host.types.Msg) that carry user words — a player's, deck's, set's,
# card's or option's name, a list of names — and, for two keys, the whole text: a move in words
# and what it did (card names of a server's own set in them).  :func:`render` shows them through
# :func:`safe_text`; every other param is the bot's own (numbers, commands, catalog words).
USER_PARAMS = frozenset({"name", "names", "waiting", "card", "character", "owner"})
USER_PARAMS_OF = {"host.raw": frozenset({"text"}), "host.played": frozenset({"command"})}


def _safe_param(value: Any) -> Any:
    """A user-words param: a text, or a text in both languages ({"en": …, "ja": …})."""
    if isinstance(value, str):
        return safe_text(value)
    if isinstance(value, dict) and value and all(isinstance(v, str) for v in value.values()):
        return {k: safe_text(v) for k, v in value.items()}
    return value


def _safe_msg(m: Any) -> Any:
    """``m`` with its user-words params made safe (nested messages too)."""
    from host.types import Msg

    if not isinstance(m, Msg):
        return m
    user = USER_PARAMS | USER_PARAMS_OF.get(m.key, frozenset())
    return Msg(m.key, {k: (_safe_msg(v) if isinstance(v, Msg) else _safe_param(v) if k in user else v)
                       for k, v in m.params.items()})


def render(m: Any, locale: str) -> str:
    """Render a host Msg (or pass through a str / None), its user words through
    :func:`safe_text` (:data:`USER_PARAMS`)."""
    if m is None:
        return ""
    if isinstance(m, str):
        return m
    return _safe_msg(m).render(locale)


def render_lines(lines: Iterable[Any], locale: str) -> list[str]:
    return [s for s in (render(m, locale) for m in lines or []) if s]


def game_name(name: str, locale: str) -> str:
    key = f"game.{name}"
    return i18n.t(key, locale) if i18n.has(key) else name


def clip(text: str, limit: int) -> str:
    text = text or ""
    return text if len(text) <= limit else text[: max(0, limit - 1)] + "…"


# ---------------------------------------------------------------------------- user text
# Line breaks (and tabs) of user text: a space in one line, kept in a text of several lines.
_BREAKS = {"\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"}
# Letters that draw nothing (Hangul fillers, the combining grapheme joiner): a "blank" name.
_BLANK = {"\u034f", "\u115f", "\u1160", "\u3164", "\uffa0"}
# Escaped wherever they stand: emphasis, strike, spoiler, code, masked links, mentions
# (``<@id>``, ``<#id>``, ``</cmd:id>``, ``<t:…>``, ``<:emoji:id>``) and ``@everyone``/``@here``.
_ANYWHERE = frozenset("\\*_~|`[]<@")
# Block markers, at the start of a line and before a space (or the end of the text, which a
# message may go on after): headings (``#``, ``##``, ``###``), subtext (``-#``), quotes (``>``,
# ``>>>``) and lists (``-``, ``+``, ``1.``; ``*`` is escaped anywhere).  Escaping the marker's
# first character (a number's dot) is enough: "+1 attack" or "#3" stay as they are.
_MARKER = re.compile(r"(?:#+|-#|>+|[-+]|(\d+)\.)(?=\s|$)")
_WORDY = re.compile(r"[A-Za-z0-9]")     # ASCII, as Discord's \b sees a word


def _clean(text: Any, lines: bool) -> str:
    """``text`` as str, NFC, its lone surrogates U+FFFD, without format (Cf: zero-width, bidi
    overrides and isolates, soft hyphen, BOM…) or control characters (Cc) or blank letters;
    a line break (or tab) a space, or ``\n`` with ``lines``."""
    s = unicodedata.normalize("NFC", _whole(text).replace("\r\n", "\n"))
    out = []
    for ch in s:
        if ch in _BREAKS:
            out.append("\n" if lines and ch in "\n\r\u2028\u2029\x85" else " ")
        elif ch == "\t":
            out.append(" ")
        elif ch in _BLANK or unicodedata.category(ch) in ("Cc", "Cf"):
            continue
        else:
            out.append(ch)
    return "".join(out)


def file_bytes(text: Any) -> bytes:
    """A text for an attached file (problems.txt, changes.txt…) as UTF-8 that never fails: a lone
    surrogate (a designer's JSON ``"A\\ud800B"``) becomes U+FFFD instead of raising.

    >>> file_bytes("A\\ud800B"), file_bytes("赤")
    (b'A\\xef\\xbf\\xbdB', b'\\xe8\\xb5\\xa4')
    """
    return _whole(text).encode("utf-8")


def _whole(text: Any) -> str:
    """``str(text)`` whose surrogates are whole characters: a pair one character, a lone one U+FFFD."""
    s = str(text)
    if any("\ud800" <= ch <= "\udfff" for ch in s):
        s = s.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return s


def safe_text(text: Any, limit: int | None = None, *, lines: bool = False) -> str:
    r"""Any user-supplied text (a player, card, deck, set or event name, a card's text…) made
    safe for a Discord message: THE one function every cog shows user text through.

    NFC; no invisible character (Unicode format and control characters: zero-width, bidi
    overrides, soft hyphen…); one line (a line break is a space) unless ``lines``; clipped to
    ``limit`` characters ending with "…" *before* escaping (an escape is never cut); then every
    markdown character escaped one by one with a backslash (Discord hides the backslash, so the
    reader sees the text as typed; a lone ``_`` between ASCII letters or digits, as in
    ``mizuha_basic``, needs none), so no emphasis, spoiler, code, masked link, heading, quote,
    list, mention, channel, command, timestamp, custom emoji or ``@everyone`` can form.  A bare
    URL stays visible words but is no link and draws no preview (``https\://``).  Call it once,
    where the text is put into the message (escaping twice shows backslashes).

    >>> safe_text("[a](https://e.co) @everyone <@&1> *赤の騎士*")
    '\\[a\\](https\\://e.co) \\@everyone \\<\\@&1> \\*赤の騎士\\*'
    >>> safe_text("# Big\u200b\nname", 8), safe_text("赤の騎士")
    ('\\# Big n…', '赤の騎士')
    """
    s = _clean(text, lines)
    if limit is not None and len(s) > limit:
        s = s[: max(0, limit - 1)] + "…"
    out: list[str] = []
    start = True                # at the start of a line (spaces before a marker do not count)
    i, n = 0, len(s)
    while i < n:
        ch = s[i]
        if start and ch not in " \u3000":
            marker = _MARKER.match(s, i)
            if marker and marker.group(1):      # "1. item": the dot escaped
                out.append(marker.group(1) + "\\.")
                i, start = marker.end(), False
                continue
            if marker:                          # "# title", "- item", "> quote": the first mark
                out.append("\\" + ch)
                i, start = i + 1, False
                continue
        if ch == "_" and 0 < i < n - 1 and _WORDY.match(s[i - 1]) and _WORDY.match(s[i + 1]):
            out.append(ch)      # snake_case: one underscore between letters starts no emphasis
        elif ch in _ANYWHERE or (ch == ":" and s.startswith("//", i + 1)):
            out.append("\\" + ch)
        else:
            out.append(ch)
        start = ch == "\n" or (start and ch in " \u3000")
        i += 1
    return "".join(out)


def safe_names(names: dict) -> dict:
    """A ``{user id: name}`` map (an event's players) with each name through :func:`safe_text`."""
    return {k: safe_text(v) for k, v in names.items()}


def code(text: Any, limit: int = 60) -> str:
    """``text`` as inline code: a file name, a column or an id someone typed, shown as typed
    (no markdown, no mention: nothing inside backticks is read as either); its own backticks
    and line breaks and invisible characters are dropped (as :func:`safe_text` does), a long one
    clipped.

    >>> code("cards.zip"), code("a`b\\nc"), code("")
    ('`cards.zip`', '`ab c`', '` `')
    """
    flat = " ".join(_clean(text, False).replace("`", "").split())
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


# a Game-cog handler: the board's buttons, the Act menu and its multi-selects (cogs/components.py,
# cogs/batch_menu.py), answered as every persistent component is
run_in_game = functools.partial(run_in_cog, "Game")


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
            text = tr("cogs.err.bad_value", locale, value=safe_text(error.value, 50))
        elif transient(error):
            text = tr("cogs.err.transient", locale)
        else:
            cmd = interaction.command.qualified_name if interaction.command else "?"
            log.error("command %s failed", cmd, exc_info=error)
            text = tr("cogs.err.generic", locale)
        await reply_error(interaction, text)


def start_clock(bot: Any, loop: Any) -> None:
    """Start a cog's clock loop (a ``discord.ext.tasks`` loop) unless the bot runs without clocks,
    at the faster interval a test run asks for (``bot.clock_seconds``, TESTING ONLY: bot.py)."""
    if not getattr(bot, "clock_enabled", True):
        return
    seconds = getattr(bot, "clock_seconds", None)
    if seconds:
        loop.change_interval(seconds=seconds)
    loop.start()


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
