"""The Discord front end: cogs that turn interactions into host calls and host Results into
messages.  :func:`setup_all` loads every cog and registers the persistent components."""
from __future__ import annotations

from discord.ext import commands

from cogs.app_table import USER_APP_COGS
from cogs.cards import DYNAMIC_ITEMS as CARD_ITEMS, Cards
from cogs.components import DYNAMIC_ITEMS
from cogs.decks import Decks
from cogs.draft import Draft
from cogs.draft_items import DYNAMIC_ITEMS as DRAFT_ITEMS
from cogs.delivery import Delivery
from cogs.game import Game
from cogs.guide import DYNAMIC_ITEMS as GUIDE_ITEMS, Guide
from cogs.league_admin import LeagueAdmin
from cogs.league_calendar import LeagueCalendar
from cogs.league_event import LeagueEvent
from cogs.league_judge import DYNAMIC_ITEMS as JUDGE_ITEMS, LeagueJudge
from cogs.league_reports import DYNAMIC_ITEMS as REPORT_ITEMS, LeagueReports
from cogs.league_series import DYNAMIC_ITEMS as SERIES_ITEMS, LeagueSeries
from cogs.leagues import DYNAMIC_ITEMS as LEAGUE_ITEMS, Leagues
from cogs.practice import Practice
from cogs.records import DYNAMIC_ITEMS as RECORD_ITEMS, Records
from cogs.replay import DYNAMIC_ITEMS as REPLAY_ITEMS, Replay
from cogs.settings import Settings
from cogs.stats import DYNAMIC_ITEMS as STATS_ITEMS, Stats

# Replay after Game and Delivery, and LeagueEvent, LeagueSeries, LeagueReports and LeagueJudge after Leagues
# and LeagueAdmin (LeagueJudge also after Game): they add their commands to their groups
COGS = (Delivery, Game, Replay, Practice, Guide, Settings, Records, Leagues, LeagueAdmin, LeagueEvent, LeagueSeries,
        LeagueReports, LeagueJudge, LeagueCalendar, Decks, Cards, Stats, Draft, *USER_APP_COGS)


async def setup_all(bot: commands.Bot) -> None:
    """Add every cog and register the DynamicItems (persistent across restarts)."""
    for cog in COGS:
        if bot.get_cog(cog.__name__) is None:
            await bot.add_cog(cog(bot))
    await __import__("cogs.notices", fromlist=["setup"]).setup(bot)    # held notices, digests (cogs/notices.py)
    await __import__("cogs.clock_player", fromlist=["setup"]).setup(bot)   # /turns, /vacation, /notify
    bot.add_dynamic_items(*DYNAMIC_ITEMS, *RECORD_ITEMS, *LEAGUE_ITEMS, *GUIDE_ITEMS, *SERIES_ITEMS, *REPORT_ITEMS,
                          *REPLAY_ITEMS, *CARD_ITEMS, *STATS_ITEMS, *JUDGE_ITEMS, *DRAFT_ITEMS)
    if getattr(getattr(bot, "config", None), "metrics_port", None) is not None and bot.get_cog("MetricsServer") is None:
        from cogs.metrics import MetricsServer   # METRICS_PORT: /metrics and /healthz

        await bot.add_cog(MetricsServer(bot))


__all__ = ["COGS", "setup_all"]
