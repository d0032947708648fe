"""Best-of-3 and -5 league pairings on Discord (issue 34): who moves first, the next game in the
same thread, the round time limit, ``/league-admin extend``.

* **The choice** (:class:`ChoiceButton`): when a player must choose who moves first, the bot posts
  in the match's thread (for game 1 of a bracket pairing: in the league channel, when the pairing
  is announced) a message pinging them — "Game 2 of 3 (Alice leads 1–0): @Bob, choose who moves
  first" — with **Play first** / **Play second**.  Only the chooser may press (anyone else is
  told who chooses); a press once it is decided says so.  The buttons are persistent
  (``lgc:<league>:<pairing>:<game>:<f|s>``): the league is read again on every press.
* **The next game**: as soon as a game's first player is known (a choice, or at once: SQUARES'
  winner moves second, a redrawn first player), the bot starts it — both players seated at once,
  in the thread of the previous game (:meth:`host.series_table.SeriesTable.next_game`) — and
  posts who moves first and why before its board.  This follows the publish of the finished game
  (Delivery's ``after_publish`` hook), so the thread reads in order; a step missed (a restart)
  is done by this cog's clock (:meth:`host.series_table.SeriesTable.pending`).
* **Announcements**: a Swiss round's best-of-3 pairings with who moves first in game 1 (the
  recorded draw); a decided pairing's game score in its thread ("Alice 2–1 Bob"); the round time
  limit (``time_up``, from the leagues' clock: cogs/leagues.py hands the results here) — the
  aborted game's board, the result in the league channel, or in a bracket the organiser pinged.
* ``/league-admin extend pairing minutes [league]``: an organiser gives one pairing more time.
  Like cogs/league_event.py, the command is moved into the ``/league-admin`` group when the cog
  loads (after Leagues and LeagueAdmin: cogs/__init__.py).

Thin: the rules are :mod:`host.events.bestof` (over :mod:`host.events.series`), the writes
:class:`host.series_table.SeriesTable` (``service.series`` of the Leagues cog).
"""
from __future__ import annotations

import logging
from typing import Any, Optional

import discord
from discord import app_commands

from cogs.common import L, N, clip, mention_line, render, reply, reply_error, safe_names, safe_text, tr, user_locale
from cogs.league_part import LeaguePart, answered
from cogs.leagues import league_autocomplete, pairing_autocomplete
from data import i18n
from data.store import FINISHED, LeagueRecord
from host import leagues as LG
from host.events import bestof as BO
from host.events import series as S
from host.events import stages as ST
from host.events.words import result_text

log = logging.getLogger("cogs.league_series")

CHOICE_TEMPLATE = r"lgc:(?P<league>\d{1,20}):(?P<pairing>\d{1,20}):(?P<n>\d{1,3}):(?P<side>[fs])"
ORGANISER_COMMANDS = ("extend",)


def choice_view(league_id: int, pairing_id: int, n: int, locale: str, game: str | None = None) -> discord.ui.View:
    """The 「先攻」「後攻」 buttons (SQUARES: 「先番」「後番」) of game ``n``'s choice."""
    view = discord.ui.View(timeout=None)
    for side in ("f", "s"):
        key = i18n.game_key("events.series.button." + ("first" if side == "f" else "second"), game)
        view.add_item(ChoiceButton(league_id, pairing_id, n, side, label=tr(key, locale)))
    return view


class LeagueSeries(LeaguePart):
    """Best-of-N league pairings (its one command, ``extend``, goes into /league-admin)."""

    @property
    def service(self) -> Any:
        return self.leagues.service.series

    @property
    def store(self) -> Any:
        return self.bot.store  # type: ignore[attr-defined]

    @property
    def delivery(self) -> Any:
        return self.bot.get_cog("Delivery")

    async def cog_load(self) -> None:
        await super().cog_load()
        if getattr(self.bot, "host", None) is None:      # --dump-commands: no store, no host
            return
        if self.delivery is not None and self._published not in self.delivery.after_publish:
            self.delivery.after_publish.append(self._published)

    async def cog_unload(self) -> None:
        if self.delivery is not None and self._published in self.delivery.after_publish:
            self.delivery.after_publish.remove(self._published)
        await super().cog_unload()

    async def _locale(self, lg: LeagueRecord) -> str:
        return await self.leagues.public_locale(lg.guild_id, lg)


    # ------------------------------------------------------------------ after a game
    async def _published(self, rec: Any) -> None:
        """Delivery's after-publish hook: a finished game of a best-of-3 or -5 pairing was shown;
        now its next step (the choice, or the next game), or the pairing's result."""
        if rec.status != FINISHED or rec.meta.get("league") is None or rec.meta.get("pairing") is None:
            return
        try:
            await self.follow_up(rec)
        except Exception:
            log.exception("match %s: the series' next step failed (the clock tries again)", rec.id)

    async def follow_up(self, rec: Any) -> None:
        lg = await self.store.get_league(int(rec.meta["league"]))
        if lg is None or lg.status not in ("running", "finished"):
            return
        p = next((q for q in lg.data["pairings"] if q["id"] == int(rec.meta["pairing"])), None)
        if p is None or p.get("series") is None or p.get("match") != rec.id:
            return
        locale = await self._locale(lg)
        if p.get("result") is not None:
            await self.send(rec.channel_id, tr("events.series.decided", locale, pairing=p["id"],
                                                result=result_text(p, safe_names(ST.names(lg.data)), locale)))
            return
        await self.step(lg, p, rec, locale)

    async def step(self, lg: LeagueRecord, p: dict, rec: Any, locale: str) -> None:
        """An undecided series after game ``rec`` (None: no game played as a match yet): ask the
        chooser, or start the next game when its first player is known."""
        s = p["series"]
        if S.chooser(s) is not None:
            await self.prompt(lg, p, rec.channel_id if rec is not None else lg.data.get("channel_id"), locale)
        elif S.first_player(s) is not None and rec is not None:
            await self.start_next(lg, p)

    async def prompt(self, lg: LeagueRecord, p: dict, channel_id: int | None, locale: str) -> bool:
        """The choice for the pairing's next game, pinging the chooser (once per game)."""
        n = BO.number(p)
        chooser = S.chooser(p["series"])
        if chooser is None or not await self.service.mark_prompted(lg.id, p["id"], n):
            return False
        view = choice_view(lg.id, p["id"], n, locale, lg.data.get("game"))
        text = BO.prompt_text(lg.data, p, locale)
        sent = await self.send(channel_id, text, ping=[chooser], view=view)
        if sent is None and channel_id != lg.data.get("channel_id"):   # the thread is gone
            sent = await self.send(lg.data.get("channel_id"), text, ping=[chooser],
                                   view=choice_view(lg.id, p["id"], n, locale, lg.data.get("game")))
        return sent is not None

    async def start_next(self, lg: LeagueRecord, p: dict, actor: int | None = None) -> Any:
        res = await self.service.next_game(lg.id, p["id"])
        if not res.ok:
            log.info("league %s pairing %s: the next game did not start (%s)", lg.id, p["id"], res.error.key)
            return res
        await self.show_next(res, actor=actor)
        return res

    async def show_next(self, res: Any, actor: int | None = None) -> None:
        """A next game the bot started: played where the game before it was (its thread), with a
        line on who moves first and why, then its board."""
        new = res.match
        refs = await self.store.get_refs(int(res.data["prev"]))
        await self.store.set_ref(new.id, "home", str(new.channel_id) if new.channel_id else refs.get("home"))
        if refs.get("thread") and str(new.channel_id) == refs.get("thread") or refs.get("nothread"):
            await self.store.set_ref(new.id, "nothread", "1")     # keep playing in the same thread
            if refs.get("parent"):
                await self.store.set_ref(new.id, "parent", refs["parent"])
        lg = await self.store.get_league(int(res.data["league"]))
        if lg is not None:
            p = LG.pairing(lg.data, int(res.data["pairing"]))
            await self.send(new.channel_id, BO.first_text(lg.data, p, await self._locale(lg)))
        if self.delivery is not None:
            await self.delivery.publish(res, actor=actor)

    # ------------------------------------------------------------------ the choice
    async def on_choice(self, interaction: discord.Interaction, league_id: int, pairing_id: int, n: int,
                        side: str) -> None:
        locale = user_locale(interaction)
        lg = await self.store.get_league(int(league_id))
        if lg is None or lg.guild_id != interaction.guild_id:
            await reply_error(interaction, tr("leagues.err.no_league", locale, league=league_id))
            return
        p = next((q for q in lg.data["pairings"] if q["id"] == int(pairing_id)), None)
        s = p.get("series") if p is not None else None
        if s is None or p.get("result") is not None or BO.number(p) != n or S.chooser(s) is None:
            await reply_error(interaction, tr("events.series.err.decided", locale, n=n))
            return
        chooser = S.chooser(s)
        if interaction.user.id != chooser:
            key = i18n.game_key("events.series.err.not_chooser", lg.data.get("game"))    # SQUARES: 先番
            await reply_error(interaction, tr(key, locale,
                                              name=safe_text(BO.name(lg.data, chooser)), n=n))
            return
        res = await self.service.choose(lg.id, interaction.guild_id, p["id"], interaction.user.id, side == "f", n)
        if not res.ok:
            await reply_error(interaction, render(res.error, locale))
            return
        lg = res.data["league"]
        q = LG.pairing(lg.data, p["id"])
        public = await self._locale(lg)
        game = lg.data.get("game")          # who moves first, in the game's words (SQUARES: 先番)
        said = tr("events.series.chosen", public, name=safe_text(BO.name(lg.data, interaction.user.id)), n=n,
                  side=tr(i18n.game_key("events.series.side." + ("first" if side == "f" else "second"), game), public))
        await answered(interaction, said)         # the prompt says the choice; its buttons are gone
        if BO.played(q) and q.get("match"):
            await self.start_next(lg, q, actor=interaction.user.id)
        else:       # game 1 (or a game after a no-show): the players start it with /league play
            first = S.first_player(q["series"])
            await self.send(interaction.channel_id, tr(i18n.game_key("events.series.play_hint", game), public,
                                                        name=safe_text(BO.name(lg.data, first)),
                                                        n=n, pairing=q["id"]))

    # ------------------------------------------------------------------ announcements
    async def announce(self, lg: LeagueRecord, paired: list[dict], locale: str) -> None:
        """New pairings played best of 3 or 5: the Swiss draws of game 1 in one message, and the
        choice of each bracket pairing's higher seed (in the league channel)."""
        by_id = {p["id"]: p for p in lg.data["pairings"]}
        fresh = [by_id[p["id"]] for p in paired if p["id"] in by_id and by_id[p["id"]].get("series")
                 and by_id[p["id"]].get("result") is None]
        names = safe_names(ST.names(lg.data))
        drawn = [p for p in fresh if S.chooser(p["series"]) is None]
        if drawn:
            game = lg.data.get("game")      # who moves first, in the game's words (SQUARES: 先番)
            lines = [tr(i18n.game_key("events.series.paired", game), locale,
                        format=BO.format_words(drawn[0]["best_of"], locale))]
            lines += [tr(i18n.game_key("events.series.paired_line", game), locale, pairing=p["id"],
                         a=names.get(p["a"], "?"), b=names.get(p["b"], "?"),
                         name=names.get(S.first_player(p["series"]), "?")) for p in drawn]
            await self.send(lg.data.get("channel_id"), "\n".join(lines))
        for p in fresh:
            if S.chooser(p["series"]) is not None:
                await self.prompt(lg, p, lg.data.get("channel_id"), locale)

    async def after_claim(self, lg: LeagueRecord, pairing_id: int) -> None:
        """A no-show game claim counted one game: the next game's chooser is asked (in the league
        channel: no game was played, so there is no thread)."""
        p = LG.pairing(lg.data, pairing_id)
        if p.get("series") is not None and p.get("result") is None:
            await self.step(lg, p, None, await self._locale(lg))

    async def on_time_up(self, res: Any) -> None:
        """A round time limit ran out (cogs/leagues.py's clock): the aborted game's board (or the
        withdrawn challenge), then the result — or in a bracket, the organiser pinged."""
        lg: LeagueRecord = res.data["league"]
        payload = res.data.get("payload") or {}
        p = payload.get("pairing") or {}
        locale = await self._locale(lg)
        names = safe_names(ST.names(lg.data))
        if payload.get("elimination"):
            organiser = lg.data.get("organiser")
            who = [u for u in (organiser,) if u]
            await self.leagues.announce(lg, tr("events.series.time_up_elimination", locale, pairing=p["id"],
                                               a=names.get(p["a"], "?"), b=names.get(p["b"], "?"),
                                               result=result_text(p, names, locale), mentions=mention_line(who)), ping=who)
            return
        for shown in (res.data.get("aborted"), res.data.get("withdrawn")):
            if shown is not None and self.delivery is not None:
                await self.delivery.publish(shown)
        text = tr("events.series.time_up", locale, pairing=p["id"], a=names.get(p["a"], "?"), b=names.get(p["b"], "?"),
                  result=result_text(p, names, locale))
        await self.leagues.announce(lg, text)
        aborted = res.data.get("aborted")
        if aborted is not None and aborted.match is not None and aborted.match.channel_id != lg.data.get("channel_id"):
            await self.send(aborted.match.channel_id, text)
        await self.leagues.after_change(res)

    # ------------------------------------------------------------------ /league-admin extend
    @app_commands.command(name=N("extend", "cmd.league_admin.extend.name"),
                          description=L("cmd.league_admin.extend.description"))
    @app_commands.rename(pairing=N("pairing", "cmd.league.opt.pairing.name"),
                         minutes=N("minutes", "cmd.league_admin.opt.minutes.name"),
                         league=N("league", "cmd.league.opt.league.name"))
    @app_commands.describe(pairing=L("cmd.league_admin.opt.pairing.description"),
                           minutes=L("cmd.league_admin.opt.minutes.description"),
                           league=L("cmd.league_admin.opt.league.description"))
    @app_commands.autocomplete(pairing=pairing_autocomplete, league=league_autocomplete)
    async def extend(self, interaction: discord.Interaction, pairing: int, minutes: app_commands.Range[int, 1, 1440],
                     league: Optional[int] = None) -> None:
        """Organisers: ``minutes`` more for one pairing before its round's time limit."""
        cog = self.leagues
        if cog is None or not await cog._need_organiser(interaction):
            return
        lg = await cog._resolve(interaction, league, organiser=True)
        if lg is None:
            return
        res = await self.service.extend(lg.id, interaction.guild_id, pairing, minutes, interaction.user.id)
        if await cog._fail(interaction, res):
            return
        until = int(res.data["payload"]["until"])
        await reply(interaction, tr("events.series.extended", user_locale(interaction), pairing=pairing,
                                    minutes=minutes, until=until))
        new: LeagueRecord = res.data["league"]
        await cog.announce(new, tr("events.series.extended", await self._locale(new), pairing=pairing,
                                   minutes=minutes, until=until))

    # ------------------------------------------------------------------ the clock
    async def tick_once(self) -> int:
        """(Run by the leagues' one clock, :meth:`cogs.leagues.Leagues.deadlines`.)  What a
        series still waits for after a restart: a choice to ask for, a game to start."""
        n = 0
        for kind, lg, p, rec in await self.service.pending():
            locale = await self._locale(lg)
            if kind == "prompt":
                channel = rec.channel_id if rec is not None else lg.data.get("channel_id")
                n += bool(await self.prompt(lg, p, channel, locale))
            else:
                res = await self.start_next(lg, p)
                n += bool(res.ok)
        return n


class ChoiceButton(discord.ui.DynamicItem[discord.ui.Button], template=CHOICE_TEMPLATE):
    """Play first / Play second: the chooser's answer for game ``n`` of a pairing."""

    def __init__(self, league_id: int, pairing_id: int, n: int, side: str, *, label: str | None = None) -> None:
        style = discord.ButtonStyle.primary if side == "f" else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(label=clip(label or side, 80), style=style,
                                           custom_id=f"lgc:{int(league_id)}:{int(pairing_id)}:{int(n)}:{side}"))
        self.league_id, self.pairing_id, self.n, self.side = int(league_id), int(pairing_id), int(n), side

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any):
        return cls(int(match["league"]), int(match["pairing"]), int(match["n"]), match["side"], label=item.label)

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = interaction.client.get_cog("LeagueSeries")  # type: ignore[union-attr]
        if cog is None:
            await reply_error(interaction, tr("cogs.err.generic", user_locale(interaction)))
            return
        try:
            await cog.on_choice(interaction, self.league_id, self.pairing_id, self.n, self.side)
        except Exception:
            log.exception("choice button of pairing %s failed", self.pairing_id)
            await reply_error(interaction, tr("cogs.err.generic", user_locale(interaction)))


DYNAMIC_ITEMS = (ChoiceButton,)
