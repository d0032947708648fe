"""Results reported by the players (issue 34): ``/league report`` with the game score of a best of 3
or 5, the opponent's **Confirm** / **Dispute** buttons, and the bot's confirmation of a report
nobody answered in the organiser's time (``/league-admin settings confirm_minutes``).

* ``/league report pairing result [score] [league]``: a player's result for their own pairing —
  played off the bot (on paper at a meetup) or a bot match that broke.  The first report is
  posted in the league's channel, pinging the opponent, with Confirm / Dispute (persistent:
  ``lgr:<league>:<pairing>:<c|d>``; the league is read again on every press).  Only the opponent
  may press; a press after the pairing was decided says so and the buttons go.  The same report
  by the opponent counts as well; a different one holds the pairing for an organiser, who is
  pinged.
* The bot confirms a waiting report after ``confirm_minutes`` (the leagues' one clock runs
  :meth:`LeagueReports.tick_once`) and says so in the league channel.

Thin: the rules are :mod:`host.events.reports`, the writes
:class:`host.league_service.Leagues` (``report``, ``answer_report``, ``confirm_due``).  Like
cogs/league_event.py, the command is moved into the ``/league`` group when the cog loads.
"""
from __future__ import annotations

import logging
from typing import Any, Optional

import discord
from discord import app_commands

from cogs.common import L, N, clip, mention_line, reply, reply_error, safe_names, tr, user_locale
from cogs.league_part import LeaguePart, answered
from cogs.leagues import MY_RESULT_CHOICES, league_autocomplete, my_pairing_autocomplete
from data.store import LeagueRecord
from host import leagues as LG
from host.events import reports as RP
from host.events import stages as ST
from host.events.words import result_text

log = logging.getLogger("cogs.league_reports")

ANSWER_TEMPLATE = r"lgr:(?P<league>\d{1,20}):(?P<pairing>\d{1,20}):(?P<answer>[cd])"


def answer_view(league_id: int, pairing_id: int, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for answer in ("c", "d"):
        view.add_item(AnswerButton(league_id, pairing_id, answer,
                                   label=tr("events.report.button." + ("confirm" if answer == "c" else "dispute"), locale)))
    return view


def reported_words(d: dict, p: dict, reporter: int, locale: str) -> str:
    """What ``reporter`` said about ``p``, in words: "Alice 2–1 Bob", "Alice won", "draw"."""
    said = {"a": p["a"], "b": p["b"], "result": (p.get("reports") or {}).get(str(reporter)), "how": "report"}
    games = (p.get("report_games") or {}).get(str(reporter))
    if games:
        said.update(games=games, scored=True)
    return result_text(said, safe_names(ST.names(d)), locale)


class LeagueReports(LeaguePart):
    """Players' reports, the opponent's answer, the bot's confirmation."""

    member_commands = ("report",)

    async def _held(self, lg: LeagueRecord, pairing_id: int, key: str, **params: Any) -> None:
        """A pairing held for an organiser: said in the league channel, the organiser pinged."""
        locale = await self.leagues.public_locale(lg.guild_id, lg)
        organiser = lg.data.get("organiser")
        who = [u for u in (organiser,) if u]
        await self.leagues.announce(lg, tr(key, locale, pairing=pairing_id, mentions=mention_line(who), **params),
                                    ping=who)

    # ------------------------------------------------------------------ /league report
    @app_commands.command(name=N("report", "cmd.league.report.name"), description=L("cmd.league.report.mine.description"))
    @app_commands.rename(pairing=N("pairing", "cmd.league.opt.pairing.name"), result=N("result", "cmd.league.opt.result.name"),
                         score=N("score", "cmd.league.opt.score.name"), league=N("league", "cmd.league.opt.league.name"))
    @app_commands.describe(pairing=L("cmd.league.opt.pairing.description"), result=L("cmd.league.opt.result.mine.description"),
                           score=L("cmd.league.opt.score.description"), league=L("cmd.league.opt.league.description"))
    @app_commands.choices(result=MY_RESULT_CHOICES)
    @app_commands.autocomplete(pairing=my_pairing_autocomplete, league=league_autocomplete)
    async def report(self, interaction: discord.Interaction, pairing: int, result: str,
                     score: Optional[app_commands.Range[str, 1, 20]] = None, league: Optional[int] = None) -> None:
        """A player's result for their own pairing (organisers decide any pairing with
        /league-admin report): the opponent confirms it, or reports the same."""
        cog = self.leagues
        locale = user_locale(interaction)
        lg = await cog._resolve(interaction, league)
        if lg is None:
            return
        if result not in RP.OUTCOMES:
            await reply_error(interaction, tr("leagues.err.bad_result", locale))
            return
        me = interaction.user.id
        res = await cog.service.report(lg.id, interaction.guild_id, pairing, me, result, organiser=False, score=score)
        if await cog._fail(interaction, res):
            return
        new: LeagueRecord = res.data["league"]
        state = res.data["payload"]["state"]
        p = LG.pairing(new.data, pairing)
        other = p["b"] if p["a"] == me else p["a"]
        names = safe_names(ST.names(new.data))
        await reply(interaction, tr(f"events.report.{state}", locale, pairing=pairing, name=names.get(other, "?"),
                                    said=reported_words(new.data, p, me, locale)))
        await cog.after_change(res)
        public = await cog.public_locale(new.guild_id, new)
        if state == "waiting":
            at = RP.due_at(new.data, p)
            text = tr("events.report.ask", public, pairing=pairing, round=p["round"], name=names.get(me, "?"),
                      said=reported_words(new.data, p, me, public), mention=f"<@{other}>")
            if at is not None:
                text += "\n" + tr("events.report.ask_auto", public, at=int(at))
            await self.send(new.data.get("channel_id"), text, ping=[other], view=answer_view(new.id, pairing, public))
        elif state == "held":
            await self._held(new, pairing, "events.report.held_public", a=names.get(p["a"], "?"),
                             b=names.get(p["b"], "?"))

    # ------------------------------------------------------------------ Confirm / Dispute
    async def on_answer(self, interaction: discord.Interaction, league_id: int, pairing_id: int, agree: bool) -> None:
        locale = user_locale(interaction)
        cog = self.leagues
        lg = await self.bot.store.get_league(int(league_id))  # type: ignore[attr-defined]
        if lg is None or lg.guild_id != interaction.guild_id:
            await reply_error(interaction, tr("leagues.err.no_league", locale, league=league_id))
            return
        p = next((q for q in lg.data["pairings"] if q["id"] == int(pairing_id)), None)
        reporter = RP.pending(p) if p is not None else None
        if p is None or reporter is None:
            await reply_error(interaction, tr("events.report.err.answered", locale, pairing=pairing_id))
            await self._retire(interaction)
            return
        other = p["b"] if str(p["a"]) == reporter else p["a"]
        if interaction.user.id != other:
            names = safe_names(ST.names(lg.data))
            await reply_error(interaction, tr("events.report.err.not_opponent", locale, pairing=pairing_id,
                                              name=names.get(other, "?")))
            return
        res = await cog.service.answer_report(lg.id, interaction.guild_id, pairing_id, interaction.user.id, agree)
        if not res.ok:
            await cog._fail(interaction, res)
            return
        new: LeagueRecord = res.data["league"]
        q = LG.pairing(new.data, pairing_id)
        public = await cog.public_locale(new.guild_id, new)
        names = safe_names(ST.names(new.data))
        said = tr("events.report.confirmed" if agree else "events.report.disputed", public,
                  name=names.get(interaction.user.id, "?"), result=result_text(q, names, public))
        await answered(interaction, said)         # the question says the answer; its buttons are gone
        await cog.after_change(res)
        if not agree:
            await self._held(new, pairing_id, "events.report.disputed_public", name=names.get(interaction.user.id, "?"))

    async def _retire(self, interaction: discord.Interaction) -> None:
        """The buttons of a question already answered go (the reply was sent first)."""
        if interaction.message is None:
            return
        try:
            await interaction.message.edit(view=None)
        except discord.HTTPException:
            pass

    # ------------------------------------------------------------------ the clock
    async def tick_once(self) -> int:
        """(Run by the leagues' one clock, :meth:`cogs.leagues.Leagues.deadlines`.)  Reports left
        unanswered for the organiser's ``confirm_minutes``: confirmed by the bot, and said."""
        n = 0
        cog = self.leagues
        for res in await cog.service.confirm_due():
            lg: LeagueRecord = res.data["league"]
            public = await cog.public_locale(lg.guild_id, lg)
            names = safe_names(ST.names(lg.data))
            minutes = RP.confirm_minutes(lg.data) or 0
            for p in res.data["payload"]["confirmed"]:
                await cog.announce(lg, tr("events.report.auto", public, pairing=p["id"], minutes=minutes,
                                          result=result_text(p, names, public)))
                n += 1
            await cog.after_change(res)
        return n


class AnswerButton(discord.ui.DynamicItem[discord.ui.Button], template=ANSWER_TEMPLATE):
    """Confirm / Dispute: the opponent's answer to a report."""

    def __init__(self, league_id: int, pairing_id: int, answer: str, *, label: str | None = None) -> None:
        style = discord.ButtonStyle.success if answer == "c" else discord.ButtonStyle.danger
        super().__init__(discord.ui.Button(label=clip(label or answer, 80), style=style,
                                           custom_id=f"lgr:{int(league_id)}:{int(pairing_id)}:{answer}"))
        self.league_id, self.pairing_id, self.answer = int(league_id), int(pairing_id), answer

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any):
        return cls(int(match["league"]), int(match["pairing"]), match["answer"], label=item.label)

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = interaction.client.get_cog("LeagueReports")  # type: ignore[union-attr]
        if cog is None:
            await reply_error(interaction, tr("cogs.err.generic", user_locale(interaction)))
            return
        try:
            await cog.on_answer(interaction, self.league_id, self.pairing_id, self.answer == "c")
        except Exception:
            log.exception("answer to the report of pairing %s failed", self.pairing_id)
            await reply_error(interaction, tr("cogs.err.generic", user_locale(interaction)))


DYNAMIC_ITEMS = (AnswerButton,)
