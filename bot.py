"""Run the Discord bot.

    python bot.py                   # needs DISCORD_TOKEN (environment or .env)
    python bot.py --help            # every option and environment variable, in the terminal's language
    python bot.py --dump-commands   # print the application commands as synced (no token, no network)
    python bot.py --local [--game squares] [--hot-seat | --ai 2=hard] [--db FILE]   # you against the computer in the terminal, no Discord
    python bot.py --local --replay FILE   # step through a match record (--db FILE --replay N: stored match N)

    python bot.py --backup PATH     # a consistent copy of the SQLite store, while the bot runs
    python bot.py --recheck-quarantine   # release quarantined matches that read and replay again
    python bot.py --rebuild-stats GUILD  # a server's statistics again from its finished matches

``--help`` is argparse's, from :func:`parser`; its epilog lists :data:`ENVIRONMENT`, every
environment variable the program reads (a test greps the code for ``os.environ``/``getenv`` and
checks that list).  Settings come from the environment or from the ``.env`` file next to bot.py
(:data:`ENV_FILE`, see ``.env.example``); a variable already in the environment wins over
``.env``.  The ``.env`` of the folder the bot is started from is not read: where the bot is
started never changes which settings, or which database, it uses.

Where matches are stored: without ``DATABASE_URL`` (or with it empty) the SQLite file
``bot.sqlite3`` next to bot.py (:data:`DEFAULT_DATABASE`), whatever folder the bot, ``--backup``,
``--rebuild-stats`` or ``--recheck-quarantine`` is started from.  A relative path written in
``DATABASE_URL`` (``sqlite:///x.sqlite3``) stays relative to the current folder, as typed; the
start-up log line ``database: …`` and the operator commands' messages name the absolute path.
An operator command never creates a database: a file that is not there is refused, in words.

Testing only (see "End-to-end tests" in docs/testing.md): DISCORD_API_BASE, DISCORD_GATEWAY_URL,
BOT_TEST_PLUGINS, BOT_TEST_CLOCK_FILE, BOT_TEST_CLOCK_LOOP, BOT_TEST_GUILD_READY.

A start that cannot work ends with one line that says why and what to do: no token, a token
Discord refuses (401), no connection to Discord.  discord.py's warning that voice needs PyNaCl
is silenced: the bot never uses voice (other warnings are kept).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sqlite3
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from data import i18n

ROOT = Path(__file__).resolve().parent
# the SQLite file used when DATABASE_URL is unset or empty: next to bot.py, not in whatever folder
# the program happens to be started from (a start elsewhere would silently open a new, empty one)
DEFAULT_DATABASE = ROOT / "bot.sqlite3"
DEFAULT_DATABASE_URL = f"sqlite:///{DEFAULT_DATABASE}"
ENV_FILE = ROOT / ".env"      # the settings file read by every mode that uses DATABASE_URL or the token


def load_env() -> None:
    """Read :data:`ENV_FILE` into the environment (variables already set keep their value)."""
    try:
        from dotenv import load_dotenv
    except ImportError:  # pragma: no cover - declared dependency
        return
    load_dotenv(ENV_FILE)


def sqlite_file(url: str) -> Path | None:
    """The SQLite file of ``url`` as an absolute path (a relative one taken from the current
    folder, as typed); None for PostgreSQL and an in-memory database."""
    from data.backup import sqlite_path

    path = sqlite_path(url)
    if not path or path == ":memory:" or path.startswith("file:"):
        return None
    return Path(path).resolve()


def absolute_url(url: str) -> str:
    """``url`` with a relative SQLite path made absolute (other URLs as they are): what an
    operator command opens and names in its messages."""
    file = sqlite_file(url)
    return url if file is None else f"sqlite:///{file}"


@dataclass
class Config:
    token: str | None = None
    database_url: str = DEFAULT_DATABASE_URL
    log_level: str = "INFO"
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None   # this process's gateway shards (None: all)
    dev_guild_id: int | None = None
    sync_commands: bool = True
    clock: bool = True
    metrics_port: int | None = None            # METRICS_PORT: serve /metrics and /healthz (cogs/metrics.py)
    metrics_host: str = "127.0.0.1"

    @classmethod
    def from_env(cls, env: Any = None) -> "Config":
        env = os.environ if env is None else env

        def _int(name: str) -> int | None:
            raw = (env.get(name) or "").strip()
            if not raw:
                return None
            try:
                return int(raw)
            except ValueError:
                raise SystemExit(i18n.t("bot.bad_number", i18n.terminal_locale(env), name=name,
                                        value=repr(raw))) from None

        shard_count = _int("SHARD_COUNT")
        shard_ids = None
        raw_ids = (env.get("SHARD_IDS") or "").strip()
        if raw_ids:
            from host.shards import ShardSpecError, parse_shard_ids

            try:
                shard_ids = parse_shard_ids(raw_ids, shard_count)
            except ShardSpecError as e:
                raise SystemExit(i18n.t(e.key, i18n.terminal_locale(env), **e.params)) from None
        return cls(
            token=(env.get("DISCORD_TOKEN") or "").strip() or None,
            database_url=(env.get("DATABASE_URL") or "").strip() or DEFAULT_DATABASE_URL,
            log_level=(env.get("LOG_LEVEL") or "INFO").strip().upper(),
            shard_count=shard_count,
            shard_ids=shard_ids,
            dev_guild_id=_int("DEV_GUILD_ID"),
            sync_commands=(env.get("SYNC_COMMANDS") or "1").strip().lower() not in ("0", "false", "no", "off"),
            metrics_port=_int("METRICS_PORT"),
            metrics_host=(env.get("METRICS_HOST") or "").strip() or "127.0.0.1",
        )

    def shards(self) -> Any:
        """This process's share of the work (:class:`host.shards.Shards`), or None when it runs
        every shard."""
        if self.shard_ids is None or self.shard_count is None:
            return None
        from host.shards import Shards

        return Shards(self.shard_ids, self.shard_count)

    @property
    def syncs_commands(self) -> bool:
        """Only one process syncs the application commands: the one holding shard 0."""
        return self.sync_commands and (self.shard_ids is None or 0 in self.shard_ids)


def make_intents() -> Any:
    import discord

    intents = discord.Intents.default()   # no privileged intents; interactions need none
    intents.message_content = False
    intents.members = False
    intents.presences = False
    for name in ("typing", "voice_states", "invites", "integrations", "webhooks", "emojis_and_stickers",
                 "bans", "moderation", "scheduled_events", "auto_moderation", "reactions",
                 "messages", "polls"):
        if hasattr(intents, name):
            setattr(intents, name, False)
    return intents


class _NoVoiceWarning(logging.Filter):
    """Drops discord.py's "PyNaCl / davey is not installed, voice will NOT be supported": the
    bot never joins a voice channel.  Every other record passes."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).endswith("is not installed, voice will NOT be supported")


_VOICE_FILTER = _NoVoiceWarning()


def quiet_voice_warning() -> None:
    logging.getLogger("discord.client").addFilter(_VOICE_FILTER)   # the same filter once


def make_bot(config: Config, *, store: Any = None, host: Any = None) -> Any:
    """Build the bot (no network).  ``store``/``host`` may be given (tests); otherwise they are
    opened in ``setup_hook`` from ``config.database_url``."""
    import discord
    from discord.ext import commands

    from cogs.common import GameTree

    quiet_voice_warning()

    class GameBot(commands.AutoShardedBot):
        def __init__(self) -> None:
            kwargs: dict[str, Any] = {}
            if config.shard_count:
                kwargs["shard_count"] = config.shard_count
            if config.shard_ids is not None:
                kwargs["shard_ids"] = list(config.shard_ids)
            if TEST_GUILD_READY is not None:     # TESTING ONLY: discord.py's wait for more guilds (2 s)
                kwargs["guild_ready_timeout"] = TEST_GUILD_READY
            super().__init__(command_prefix=commands.when_mentioned, intents=make_intents(),
                             tree_cls=GameTree, help_command=None,
                             allowed_mentions=discord.AllowedMentions.none(), **kwargs)
            self.config = config
            self.store = store
            self.host = host
            self.clock_enabled = config.clock
            self.clock_seconds = TEST_CLOCK_LOOP     # None: the clock loop's own period (TESTING ONLY)
            self._resumed = False

        async def setup_hook(self) -> None:
            await prepare(self)
            if self.config.syncs_commands:
                await sync_commands(self)
            elif self.config.sync_commands:
                logging.getLogger("bot").info("shards %s: the process holding shard 0 syncs the commands",
                                              ",".join(map(str, self.config.shard_ids or ())))

        async def on_ready(self) -> None:
            if not self._resumed:
                self._resumed = True
                n = await self.host.resume()
                logging.getLogger("bot").info("ready as %s; %d unfinished matches", self.user, n)

        async def close(self) -> None:
            await super().close()
            if self.store is not None and getattr(self, "_owns_store", False):
                await self.store.close()

    return GameBot()


async def prepare(bot: Any) -> None:
    """Open the store/host if needed, set the translator, load the cogs."""
    import cogs
    from cogs.translator import CatalogTranslator

    if bot.store is None:
        from data.store import open_store

        bot.store = await open_store(bot.config.database_url)
        bot._owns_store = True
        # the absolute path opened (PostgreSQL: server and database, never the password)
        where = getattr(bot.store, "where", None) or sqlite_file(bot.config.database_url) or ":memory:"
        logging.getLogger("bot").info("database: %s", where)
    if bot.host is None:
        from host import Host

        shards = bot.config.shards() if hasattr(bot.config, "shards") else None
        bot.host = (Host(bot.store, now=TEST_CLOCK, shards=shards) if TEST_CLOCK is not None
                    else Host(bot.store, shards=shards))
    if not isinstance(bot.tree.translator, CatalogTranslator):
        await bot.tree.set_translator(CatalogTranslator())
    await cogs.setup_all(bot)
    from host.runtime import settle

    settle()             # what start made lives until the end: out of the collector's way


async def sync_commands(bot: Any) -> None:
    import discord

    log = logging.getLogger("bot")
    if bot.config.dev_guild_id:
        guild = discord.Object(bot.config.dev_guild_id)
        bot.tree.copy_global_to(guild=guild)
        synced = await bot.tree.sync(guild=guild)
        log.info("synced %d commands to guild %s", len(synced), bot.config.dev_guild_id)
    else:
        synced = await bot.tree.sync()
        log.info("synced %d global commands (may take a while to appear)", len(synced))


async def command_payloads(bot: Any) -> list[dict]:
    """Every application command exactly as ``tree.sync`` would send it."""
    from cogs.translator import CatalogTranslator

    import cogs

    if not isinstance(bot.tree.translator, CatalogTranslator):
        await bot.tree.set_translator(CatalogTranslator())
    await cogs.setup_all(bot)
    translator = bot.tree.translator
    return [await c.get_translated_payload(bot.tree, translator) for c in bot.tree.get_commands()]


async def dump_commands() -> list[dict]:
    bot = make_bot(Config(sync_commands=False, clock=False))
    try:
        return await command_payloads(bot)
    finally:
        await bot.tree.set_translator(None)


# ---------------------------------------------------------------------------- TESTING ONLY
# The end-to-end tests (tests/e2e) run this very file against a local Discord twin on
# loopback.  These settings are never needed in production; leave them unset.
#   DISCORD_API_BASE=http://127.0.0.1:PORT/api/v10   REST base (discord.http.Route.BASE)
#   DISCORD_GATEWAY_URL=ws://127.0.0.1:PORT/gateway   gateway used when discord.py falls back
#                                                     to its default (reconnects, SHARD_COUNT)
#   BOT_TEST_PLUGINS=tests.e2e.hidden_game            comma-separated modules imported before
#                                                     the cogs (e.g. to register a test game)
#   BOT_TEST_CLOCK_FILE=/tmp/twin-clock-…             seconds the twin's clock is ahead of real
#                                                     time: the host's clock follows it
#   BOT_TEST_CLOCK_LOOP=3                             seconds between clock-loop runs (default 30)
#   BOT_TEST_GUILD_READY=0.1                          seconds discord.py waits after the last guild
#                                                     of a shard before it is ready (default 2): the
#                                                     twin sends its few guilds at once
TEST_CLOCK: Any = None
TEST_CLOCK_LOOP: float | None = None
TEST_GUILD_READY: float | None = None


def _file_clock(path: str) -> Any:
    import time as _time
    from pathlib import Path

    clock_file = Path(path)

    def now() -> float:
        try:
            return _time.time() + float(clock_file.read_text() or 0)
        except (OSError, ValueError):
            return _time.time()

    return now


def apply_test_overrides(env: Any = None) -> None:
    """Point discord.py at a local Discord twin and load test plugins (tests only)."""
    import importlib

    env = os.environ if env is None else env
    api_base = (env.get("DISCORD_API_BASE") or "").strip().rstrip("/")
    gateway = (env.get("DISCORD_GATEWAY_URL") or "").strip()
    if api_base or gateway:
        import discord.gateway
        import discord.http
        import yarl

        if api_base:
            discord.http.Route.BASE = api_base
        if gateway:
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
        logging.getLogger("bot").warning("TESTING ONLY: Discord API at %s, gateway %s",
                                         api_base or "(default)", gateway or "(from /gateway/bot)")
    for name in (env.get("BOT_TEST_PLUGINS") or "").split(","):
        if name.strip():
            importlib.import_module(name.strip())
    clock_file = (env.get("BOT_TEST_CLOCK_FILE") or "").strip()
    if clock_file:
        global TEST_CLOCK
        TEST_CLOCK = _file_clock(clock_file)
        logging.getLogger("bot").warning("TESTING ONLY: the clock follows %s", clock_file)
    loop_seconds = (env.get("BOT_TEST_CLOCK_LOOP") or "").strip()
    if loop_seconds:
        global TEST_CLOCK_LOOP
        TEST_CLOCK_LOOP = float(loop_seconds)
        logging.getLogger("bot").warning("TESTING ONLY: the clock loop runs every %s s", loop_seconds)
    guild_ready = (env.get("BOT_TEST_GUILD_READY") or "").strip()
    if guild_ready:
        global TEST_GUILD_READY
        TEST_GUILD_READY = float(guild_ready)
        logging.getLogger("bot").warning("TESTING ONLY: ready %s s after the last guild", guild_ready)
# ---------------------------------------------------------------------------- end TESTING ONLY


def setup_logging(level: str) -> None:
    logging.basicConfig(level=getattr(logging, level, logging.INFO),
                        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s")
    logging.getLogger("discord.http").setLevel(max(logging.INFO, getattr(logging, level, logging.INFO)))


def load_games(lang: str) -> bool:
    """Load and validate every game and card set (data/cards/…, also a server's own cards);
    a data file that is wrong stops the start with the file, card and field it names."""
    try:
        import rules  # noqa: F401 - registers every game, validating its card data
    except ValueError as exc:  # each game's CardDataError is a ValueError
        print(i18n.t("bot.card_data", lang, error=str(exc)), file=sys.stderr)
        return False
    return True


def run_backup(args: list[str]) -> int:
    """``--backup PATH``: copy the SQLite store of DATABASE_URL to PATH (data/backup.py)."""
    from data.backup import BackupError, backup

    lang = i18n.terminal_locale()
    if len(args) != 1:
        print(i18n.t("bot.backup_usage", lang), file=sys.stderr)
        return 2
    load_env()
    try:
        done = backup(absolute_url(Config.from_env().database_url), args[0])
    except BackupError as e:
        print(i18n.t(e.key, lang, **e.params), file=sys.stderr)
        return 2
    except sqlite3.Error as e:
        print(i18n.t("bot.backup_failed", lang, detail=str(e)), file=sys.stderr)
        return 1
    print(i18n.t("bot.backup_done", lang, count=done.get("matches"), **done))
    return 0


class NoDatabase(Exception):
    """An operator command named an SQLite file that does not exist (opening it would make a new,
    empty database and report on nothing)."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.path = path


def with_store(work: Any, *, existing: bool = False) -> Any:
    """An operator command's work on DATABASE_URL's store (``.env`` read first): ``work(store)``
    awaited on a store opened for it and closed after.  ``existing``: refuse (:class:`NoDatabase`)
    an SQLite file that is not there rather than create it."""
    from data.store import open_store

    load_env()
    url = absolute_url(Config.from_env().database_url)
    file = sqlite_file(url)
    if existing and file is not None and not file.is_file():
        raise NoDatabase(str(file))

    async def run() -> Any:
        store = await open_store(url)
        try:
            return await work(store)
        finally:
            await store.close()
    return asyncio.run(run())


def run_recheck(args: list[str]) -> int:
    """``--recheck-quarantine``: read every quarantined match of DATABASE_URL again through
    every check, replay its log, and release the ones that pass (host/resilient.py)."""
    from data.store import StoreError
    from host import Host

    lang = i18n.terminal_locale()
    if args:
        print(i18n.t("bot.unknown_args", lang, args=" ".join(args)), file=sys.stderr)
        return 2
    try:
        found = with_store(lambda store: Host(store, render=False).recheck_all(), existing=True)
    except NoDatabase as e:
        print(i18n.t("bot.no_database", lang, path=e.path), file=sys.stderr)
        return 2
    except StoreError as e:
        print(i18n.t("bot.recheck_failed", lang, detail=str(e)), file=sys.stderr)
        return 1
    for match_id, what, why in found:
        print(i18n.t(f"bot.recheck.{what}", lang, match_id=match_id, why=why))
    print(i18n.t("bot.recheck_done", lang, released=sum(1 for f in found if f[1] == "released"),
                 total=len(found)))
    return 0


def run_rebuild_stats(guild: str) -> int:
    """``--rebuild-stats GUILD``: a server's statistics again from the command logs of its finished
    matches (host/stats/service.py; ``/stats`` reads them).  Safe while the bot runs: a match that
    ends meanwhile is counted by the bot or at its next start."""
    from data.store import StoreError
    from host import Host
    from host.stats.service import Stats

    lang = i18n.terminal_locale()
    if not guild.isdigit() or not 0 < int(guild) < 2 ** 63:
        print(i18n.t("bot.rebuild_stats_bad_guild", lang, guild=guild[:40]), file=sys.stderr)
        return 2
    try:
        n = with_store(lambda store: Stats(store, Host(store, render=False)).rebuild(int(guild)), existing=True)
    except NoDatabase as e:
        print(i18n.t("bot.no_database", lang, path=e.path), file=sys.stderr)
        return 2
    except StoreError as e:
        print(i18n.t("bot.rebuild_stats_failed", lang, detail=str(e)), file=sys.stderr)
        return 1
    print(i18n.t("bot.rebuild_stats_done", lang, guild=guild, n=n))
    return 0


# every environment variable the program reads: name -> its catalog entry (bot.env.<name>)
ENVIRONMENT = ("DISCORD_TOKEN", "DATABASE_URL", "LOG_LEVEL", "SHARD_COUNT", "SHARD_IDS", "DEV_GUILD_ID",
               "SYNC_COMMANDS", "METRICS_PORT", "METRICS_HOST", "LOGIC_SQUARE_CARDS_DIR", "CARD_BALANCE_CPU_SECONDS", "CARD_BALANCE_PER_ORDER",
               "CARD_BALANCE_VALUE_MATCHES", "LANG")
TEST_ENVIRONMENT = ("DISCORD_API_BASE", "DISCORD_GATEWAY_URL", "BOT_TEST_PLUGINS", "BOT_TEST_CLOCK_FILE",
                    "BOT_TEST_CLOCK_LOOP", "BOT_TEST_GUILD_READY")


def parser(lang: str = "en") -> argparse.ArgumentParser:
    """``python bot.py``'s options, in ``lang``; the epilog lists the environment variables."""
    from host.console import add_local_arguments, localized_parser

    def h(key: str, **params: Any) -> str:
        return i18n.t(f"bot.cli.{key}", lang, **params).replace("%", "%%")

    import textwrap

    from rules import registry

    width = max(len(n) for n in ENVIRONMENT) + 4
    wrap = 50 if i18n.locale_of(lang) == "ja" else 96 - width     # Japanese letters are twice as wide
    env = [h("env_title")]
    for name in ENVIRONMENT:
        label = "LC_ALL, LC_MESSAGES, LANG" if name == "LANG" else name
        lines = textwrap.wrap(i18n.t(f"bot.env.{name}", lang), wrap) or [""]
        if len(label) + 2 >= width:
            env.append(f"  {label}")
            env += [" " * width + line for line in lines]
        else:
            env.append(f"  {label:<{width - 2}}{lines[0]}")
            env += [" " * width + line for line in lines[1:]]
    env += [""] + textwrap.wrap(h("env_testing", names=", ".join(TEST_ENVIRONMENT)), wrap + width)
    games = i18n.t("core.list_sep", lang).join(i18n.t(f"game.{name}", lang) for name in registry.names())
    p = localized_parser("python bot.py", lang, description=h("description", games=games), epilog="\n".join(env))
    mode = p.add_argument_group(h("modes")).add_mutually_exclusive_group()
    mode.add_argument("--local", action="store_true", help=h("local"))
    mode.add_argument("--dump-commands", action="store_true", help=h("dump_commands"))
    mode.add_argument("--backup", metavar="PATH", help=h("backup"))
    mode.add_argument("--recheck-quarantine", action="store_true", help=h("recheck"))
    mode.add_argument("--rebuild-stats", metavar="GUILD", help=h("rebuild_stats"))
    add_local_arguments(p.add_argument_group(h("local_options")), lang)
    return p


def _local_options_given(p: argparse.ArgumentParser, args: argparse.Namespace) -> list[str]:
    """The ``--local`` options set on a command line that is not ``--local``."""
    from host.console import LOCAL_OPTIONS

    return [a.option_strings[0] for a in p._actions
            if a.dest in LOCAL_OPTIONS and getattr(args, a.dest) != p.get_default(a.dest)]


# Exit codes (docs/operating.md, "Deploying"): 0 stopped, 1 a failure a restart may cure (no
# network), 2 bad arguments or settings (no token, unreadable card data), 78 a token Discord
# refuses (sysexits' EX_CONFIG).  deploy/doujin-table.service does not restart on 2 or 78.
EXIT_CONFIG = 78


def run_bot(config: Config, lang: str) -> int:
    """Run the bot until it is stopped; a refused token or no connection to Discord ends with
    one line that says what is wrong and what to do (no traceback)."""
    import aiohttp
    import discord

    bot = make_bot(config)
    try:
        bot.run(config.token, log_handler=None)
    except discord.LoginFailure:
        print(i18n.t("bot.bad_token", lang), file=sys.stderr)
        return EXIT_CONFIG         # restarting cannot help: a service manager must not retry
    except (aiohttp.ClientError, OSError, asyncio.TimeoutError) as exc:
        detail = " ".join(str(exc).split())[:200] or type(exc).__name__
        print(i18n.t("bot.no_network", lang, detail=detail), file=sys.stderr)
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    lang = i18n.terminal_locale()
    if not load_games(lang):
        return 2
    if argv and argv[0] == "--local":       # the console reads its own options (--local --help)
        from host.console import main as console_main

        return console_main(argv[1:])
    p = parser(lang)
    try:
        args = p.parse_args(argv)           # --help and wrong arguments end here
        if args.local:
            from host.console import main as console_main

            return console_main([a for a in argv if a != "--local"])
        stray = _local_options_given(p, args)
        if stray:
            p.error(i18n.t("bot.cli.local_only", lang, options=" ".join(stray)))
    except SystemExit as done:              # argparse: 0 after --help, 2 after a wrong argument
        return int(done.code or 0)
    if args.backup is not None:
        return run_backup([args.backup])
    if args.recheck_quarantine:
        return run_recheck([])
    if args.rebuild_stats is not None:
        return run_rebuild_stats(args.rebuild_stats)
    if args.dump_commands:
        payload = asyncio.run(dump_commands())
        print(json.dumps(payload, ensure_ascii=False, indent=2))
        return 0
    load_env()
    config = Config.from_env()
    if not config.token:
        print(i18n.t("bot.no_token", lang), file=sys.stderr)
        return 2
    setup_logging(config.log_level)
    apply_test_overrides()   # TESTING ONLY: no-op unless DISCORD_API_BASE/… are set
    return run_bot(config, lang)


if __name__ == "__main__":
    sys.exit(main())
