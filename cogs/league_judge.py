"""Judge calls at events (docs/undo.md, "Judge calls"): **Call a judge** on an event match's board
(and ``/match judge``), the post in the staff channel that pings the judges with a jump link, the
last moves in words and the public board picture, and what a judge does from it — **Take**,
**Hands** (every seat's hand, to a judge who is not seated; the look is kept in the event's trail),
**Act** (put the match back, add time, a warning, a game loss, a match loss — each with a
reason, told to the players in words) and **Close**.  ``/league-admin penalties`` lists an
event's open calls and its penalties, ``/league penalties`` a player's own,
and ``/settings judges`` names the server's judge role and staff channel.

Thin: the rules are :mod:`host.events.judge` (pure) and :class:`host.judge_service.Judges`.
A judge is a member holding the server's judge role, or an organiser (Manage Server, or the
organiser role) — checked in the server the interaction comes from, and the service reaches only
that server's events and matches.
"""
from __future__ import annotations

import io
import logging
import time
from typing import Any, Optional

import discord
from discord import app_commands

from cogs.authority import check_match
from cogs.common import (
    L, N, NO_PINGS, clip, render, reply, reply_error, safe_text, tr, user_locale,
)
from cogs.board_layout import TEXT_MAX
from cogs.league_part import LeaguePart
from cogs.leagues import league_autocomplete
from host.events import judge as J
from host.judge_service import JUDGE_CHANNEL_KEY, JUDGE_ROLE_KEY, Judges
from host.types import PublicUpdate, Result, msg

LOOK_SEATS = 4              # the hands one look shows (no game here seats more than four)
log = logging.getLogger("cogs.league_judge")

CALL_TEMPLATE = r"jc:(?P<league>\d{1,20}):(?P<call>\d{1,9}):(?P<act>take|look|act|close)"
ACTION_TEMPLATE = r"ja:(?P<league>\d{1,20}):(?P<call>\d{1,9})"
FORCE_TEMPLATE = r"jf:(?P<league>\d{1,20}):(?P<call>\d{1,9}):(?P<n>\d{1,3})"
REWIND_CHOICES = (1, 2, 3, 4, 5)
TIME_CHOICES = (5, 15, 60)
PENDING_TTL = 15 * 60           # a "put back anyway" waits this long for the judge's second tap


def action_options(names: list[str], locale: str) -> list[discord.SelectOption]:
    """The judge's actions on a match of players ``names``, for one select: put the match back
    1–5 moves, time for each player, each penalty for each player (at most 25 options)."""
    out = [discord.SelectOption(label=tr("judge.act.rewind", locale, n=n), value=f"rw:{n}") for n in REWIND_CHOICES]
    for seat, name in enumerate(names):
        shown = safe_text(name, 40)
        out += [discord.SelectOption(label=clip(tr("judge.act.time", locale, name=shown, minutes=m), 100),
                                     value=f"tm:{seat}:{m}") for m in TIME_CHOICES]
        out += [discord.SelectOption(label=clip(tr(f"judge.act.{kind}", locale, name=shown), 100),
                                     value=f"{code}:{seat}")
                for kind, code in (("warning", "wa"), ("game_loss", "gl"), ("match_loss", "ml"))]
    return out[:25]


def parse_action(value: str, seats: int) -> tuple[str, int, int] | None:
    """``(kind, seat or moves, minutes)`` of a select value; None for anything else."""
    parts = str(value).split(":")
    try:
        if parts[0] == "rw" and len(parts) == 2 and int(parts[1]) in REWIND_CHOICES:
            return "rewind", int(parts[1]), 0
        if parts[0] == "tm" and len(parts) == 3 and 0 <= int(parts[1]) < seats and int(parts[2]) in TIME_CHOICES:
            return "time", int(parts[1]), int(parts[2])
        kinds = {"wa": "warning", "gl": "game_loss", "ml": "match_loss"}
        if parts[0] in kinds and len(parts) == 2 and 0 <= int(parts[1]) < seats:
            return kinds[parts[0]], int(parts[1]), 0
    except ValueError:
        return None
    return None


class CallForm(discord.ui.Modal):
    """What happened (optional, ≤ 300 characters): the player's call of a judge."""

    def __init__(self, match_id: int, locale: str) -> None:
        super().__init__(title=clip(tr("judge.form.title", locale), 45), custom_id=f"jform:{int(match_id)}",
                         timeout=15 * 60)
        self.match_id = int(match_id)
        self.what = discord.ui.TextInput(label=clip(tr("judge.form.label", locale), 45),
                                         style=discord.TextStyle.paragraph, required=False,
                                         max_length=J.CALL_TEXT_MAX,
                                         placeholder=clip(tr("judge.form.placeholder", locale), 100))
        self.add_item(self.what)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        cog = interaction.client.get_cog("LeagueJudge")  # type: ignore[union-attr]
        await cog.submit_call(interaction, self.match_id, str(self.what.value or ""))


class ReasonForm(discord.ui.Modal):
    """The reason of a judge's action (required)."""

    def __init__(self, league_id: int, call_id: int, value: str, title: str, locale: str) -> None:
        super().__init__(title=clip(title, 45), custom_id=f"jr:{int(league_id)}:{int(call_id)}",
                         timeout=15 * 60)
        self.league_id, self.call_id, self.value = int(league_id), int(call_id), value
        self.reason = discord.ui.TextInput(label=clip(tr("judge.form.reason", locale), 45),
                                           style=discord.TextStyle.paragraph, required=True,
                                           max_length=J.REASON_MAX)
        self.add_item(self.reason)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        cog = interaction.client.get_cog("LeagueJudge")  # type: ignore[union-attr]
        await cog.do_action(interaction, self.league_id, self.call_id, self.value, str(self.reason.value or ""))


class _Routed:
    """A persistent component whose tap goes to the LeagueJudge cog (errors answered, logged)."""

    async def _route(self, interaction: discord.Interaction, name: str, *args: Any) -> None:
        cog = interaction.client.get_cog("LeagueJudge")  # type: ignore[union-attr]
        if cog is None:
            await reply_error(interaction, tr("cogs.err.generic", user_locale(interaction)))
            return
        try:
            await getattr(cog, name)(interaction, *args)
        except Exception:
            log.exception("judge control %s failed", name)
            await reply_error(interaction, tr("cogs.err.generic", user_locale(interaction)))


class CallButton(_Routed, discord.ui.DynamicItem[discord.ui.Button], template=CALL_TEMPLATE):
    """Take / Hands / Act / Close, under a call's post in the staff channel."""

    def __init__(self, league_id: int, call_id: int, act: str, *, label: str | None = None) -> None:
        style = {"take": discord.ButtonStyle.success, "close": discord.ButtonStyle.secondary,
                 "act": discord.ButtonStyle.primary}.get(act, discord.ButtonStyle.secondary)
        super().__init__(discord.ui.Button(label=clip(label or act, 80), style=style,
                                           custom_id=f"jc:{int(league_id)}:{int(call_id)}:{act}"))
        self.league_id, self.call_id, self.act = int(league_id), int(call_id), act

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any):
        return cls(int(match["league"]), int(match["call"]), match["act"], label=item.label)

    async def callback(self, interaction: discord.Interaction) -> None:
        await self._route(interaction, "on_call_button", self.league_id, self.call_id, self.act)


class ActionSelect(_Routed, discord.ui.DynamicItem[discord.ui.Select], template=ACTION_TEMPLATE):
    """The judge's action on the call's match (then a reason)."""

    def __init__(self, league_id: int, call_id: int, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None) -> None:
        super().__init__(discord.ui.Select(custom_id=f"ja:{int(league_id)}:{int(call_id)}",
                                           options=options or [discord.SelectOption(label="-", value="-")],
                                           placeholder=placeholder))
        self.league_id, self.call_id = int(league_id), int(call_id)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select, match: Any):
        return cls(int(match["league"]), int(match["call"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await self._route(interaction, "on_action_pick", self.league_id, self.call_id,
                          (self.item.values or ["-"])[0])


class ForceButton(_Routed, discord.ui.DynamicItem[discord.ui.Button], template=FORCE_TEMPLATE):
    """Put the match back anyway, though something hidden was revealed since."""

    def __init__(self, league_id: int, call_id: int, n: int, *, label: str | None = None) -> None:
        super().__init__(discord.ui.Button(label=clip(label or "ok", 80), style=discord.ButtonStyle.danger,
                                           custom_id=f"jf:{int(league_id)}:{int(call_id)}:{int(n)}"))
        self.league_id, self.call_id, self.n = int(league_id), int(call_id), int(n)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any):
        return cls(int(match["league"]), int(match["call"]), int(match["n"]), label=item.label)

    async def callback(self, interaction: discord.Interaction) -> None:
        await self._route(interaction, "on_force", self.league_id, self.call_id, self.n)


class LeagueJudge(LeaguePart):
    """Judge calls and penalties (commands grafted into /league-admin, /league and /match)."""

    member_commands = ("my_penalties",)

    def __init__(self, bot: Any) -> None:
        super().__init__(bot)
        # (judge, league, call, moves) -> (reason, when): a rewind waiting for "put back anyway"
        self._pending: dict[tuple[int, int, int, int], tuple[str, float]] = {}

    @property
    def judges(self) -> Judges:
        return Judges(self.leagues.service)

    @property
    def host(self) -> Any:
        return self.bot.host  # type: ignore[attr-defined]

    @property
    def delivery(self) -> Any:
        return self.bot.get_cog("Delivery")

    async def cog_load(self) -> None:
        """``judge`` goes into ``/match`` (the Game cog's group), ``judges`` and ``takebacks``
        into ``/settings`` (the server's settings); the rest as every league part."""
        settings = self.bot.get_cog("Settings").settings_group
        homes = {"match_judge": self.bot.get_cog("Game").match_group,
                 "judges_setting": settings, "takebacks_setting": settings}
        for command in list(self.__cog_app_commands__):
            group = homes.get(command.callback.__name__)
            if group is not None:
                group.add_command(command)
                self._grafted.append((group, command))
        self.__cog_app_commands__ = [c for c in self.__cog_app_commands__ if c.callback.__name__ not in homes]
        await super().cog_load()

    # ------------------------------------------------------------------ who judges
    async def is_judge(self, interaction: discord.Interaction) -> bool:
        """A judge here: the server's judge role, or an organiser (never from a DM)."""
        if interaction.guild_id is None:
            return False
        if await self.leagues.is_organiser(interaction):
            return True
        role = (await self.bot.store.get_guild_settings(interaction.guild_id)).get(JUDGE_ROLE_KEY)  # type: ignore[attr-defined]
        roles = getattr(interaction.user, "_roles", None) or [r.id for r in getattr(interaction.user, "roles", [])]
        return bool(role) and int(role) in {int(r) for r in roles}

    async def _need_judge(self, interaction: discord.Interaction) -> bool:
        if await self.is_judge(interaction):
            return True
        await reply_error(interaction, tr("judge.err.not_judge", user_locale(interaction)))
        return False

    # ------------------------------------------------------------------ a player calls
    async def on_call_button(self, interaction: discord.Interaction, league_id: int, call_id: int, act: str) -> None:
        if not await self._need_judge(interaction):
            return
        if act == "take":
            await self._take(interaction, league_id, call_id)
        elif act == "close":
            await self._close(interaction, league_id, call_id)
        elif act == "look":
            await self._look(interaction, league_id, call_id)
        else:
            await self._act_menu(interaction, league_id, call_id)

    async def open_form(self, interaction: discord.Interaction, rec: Any) -> None:
        """The board's Call a judge: the short form (a modal) — only on an event match."""
        locale = user_locale(interaction)
        if interaction.guild_id is None or rec.guild_id is None or int(rec.guild_id) != int(interaction.guild_id):
            # another server's match reads as no such match (as the call itself would answer):
            # no form to fill in for a call that would be refused
            await reply_error(interaction, tr("host.err.no_match", locale, match_id=rec.id))
            return
        if rec.meta.get("league") is None:
            await reply_error(interaction, tr("judge.err.not_event", locale, match_id=rec.id))
            return
        if interaction.user.id not in rec.seats:
            await reply_error(interaction, tr("cogs.err.stranger", locale, match_id=rec.id))
            return
        await interaction.response.send_modal(CallForm(rec.id, locale))

    async def submit_call(self, interaction: discord.Interaction, match_id: int, text: str) -> None:
        locale = user_locale(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        res = await self.judges.call(match_id, interaction.guild_id, interaction.user.id, text)
        if not res.ok:
            await reply_error(interaction, render(res.error, locale))
            return
        lg, c, rec = res.data["league"], res.data["call"], res.data["match"]
        posted = await self._post_call(lg, c, rec, res.data.get("moves") or [])
        await reply(interaction, tr("judge.called", locale, call=c["id"]))
        public = await self.leagues.public_locale(lg.guild_id, lg)
        await self._to_table(rec, tr("judge.called_public", public, name=safe_text(rec.names[rec.seats.index(interaction.user.id)], 80),
                                     call=c["id"]) + ("" if posted else "\n" + tr("judge.no_staff_post", public)))

    async def _staff_channel(self, lg: Any) -> int | None:
        settings = await self.bot.store.get_guild_settings(lg.guild_id)  # type: ignore[attr-defined]
        return settings.get(JUDGE_CHANNEL_KEY) or lg.data.get("channel_id")

    async def _post_call(self, lg: Any, c: dict, rec: Any, moves: list[dict]) -> bool:
        """The call's post in the staff channel: the judges pinged, the jump link, the last moves
        in words, the public board picture, and the judge's buttons."""
        from cogs.game import log_line

        channel = await self._staff_channel(lg)
        if not channel:
            return False
        locale = await self.leagues.public_locale(lg.guild_id, lg)
        settings = await self.bot.store.get_guild_settings(lg.guild_id)  # type: ignore[attr-defined]
        role = settings.get(JUDGE_ROLE_KEY)
        refs = await self.bot.store.get_refs(rec.id)  # type: ignore[attr-defined]
        where = refs.get("thread") or rec.channel_id
        lines = [(f"<@&{int(role)}> " if role else f"<@{int(lg.data['organiser'])}> ")
                 + tr("judge.post.head", locale, call=c["id"], name=safe_text(lg.data["name"], 80), match=rec.id)]
        lines.append(tr("judge.post.players", locale, players=" — ".join(safe_text(n, 60) for n in rec.names)))
        who = rec.names[rec.seats.index(c["by"])] if c["by"] in rec.seats else str(c["by"])
        lines.append(tr("judge.post.by", locale, name=safe_text(who, 60),
                        text=safe_text(c["text"], J.CALL_TEXT_MAX) if c["text"] else tr("judge.post.no_text", locale)))
        if where:
            lines.append(f"https://discord.com/channels/{lg.guild_id}/{int(where)}")
        if moves:
            lines.append(tr("judge.post.moves", locale))
            lines += [clip(log_line(e, locale), 200) for e in moves]
        lines.append(tr("judge.post.status.open", locale))
        status = await self.host.status(rec.id)
        picture = status.public.picture if status.ok and status.public is not None else None
        view = discord.ui.View(timeout=None)
        for act in ("take", "look", "act", "close"):
            view.add_item(CallButton(lg.id, c["id"], act, label=tr(f"judge.button.{act}", locale)))
        kwargs: dict[str, Any] = {"view": view, "allowed_mentions": discord.AllowedMentions(
            everyone=False, users=[discord.Object(int(lg.data["organiser"]))] if not role else False,
            roles=[discord.Object(int(role))] if role else False)}
        if picture:
            kwargs["file"] = discord.File(io.BytesIO(picture), filename=f"match-{rec.id}.png")
        try:
            message = await self.bot.get_partial_messageable(int(channel)).send(clip("\n".join(lines), 2000), **kwargs)
        except discord.HTTPException:
            log.info("league %s: cannot post judge call %s in %s", lg.id, c["id"], channel)
            return False
        await self.judges.set_staff_ref(lg.id, c["id"], f"{channel}:{message.id}")
        return True

    async def _to_table(self, rec: Any, text: str, ping: list[int] | None = None) -> None:
        """A line in the match's thread (or channel), shown as every notice of a running match
        is: above a new board, so the board stays the thread's newest message."""
        fresh = await self.host.store.get_match(rec.id) or rec
        notice = Result(ok=True, match=fresh, notify=list(ping or []),
                        public=PublicUpdate(text=[msg("host.raw", text=text)], view={}))
        if self.delivery is not None:
            await self.delivery.publish(notice)
            return
        refs = await self.bot.store.get_refs(rec.id)  # type: ignore[attr-defined]
        await self.send(int(refs.get("thread") or rec.channel_id or 0) or None, text, ping=ping)

    # ------------------------------------------------------------------ a judge's buttons
    async def _restatus(self, interaction: discord.Interaction, key: str, **params: Any) -> None:
        """The staff post with its last line (the call's status) replaced."""
        base = (interaction.message.content if interaction.message is not None else "") or ""
        kept = base.split("\n")[:-1] if "\n" in base else [base]
        locale = user_locale(interaction)
        text = clip("\n".join(kept + [tr(key, locale, **params)]), 2000)
        try:
            if key.endswith(".closed"):
                await interaction.response.edit_message(content=text, view=None, allowed_mentions=NO_PINGS)
            else:
                await interaction.response.edit_message(content=text, allowed_mentions=NO_PINGS)
        except discord.HTTPException:
            await reply(interaction, tr(key, locale, **params))

    async def _take(self, interaction: discord.Interaction, league_id: int, call_id: int) -> None:
        res = await self.judges.take(league_id, call_id, interaction.guild_id, interaction.user.id)
        if not res.ok:
            await reply_error(interaction, render(res.error, user_locale(interaction)))
            return
        c = res.data["call"]
        await self._restatus(interaction, "judge.post.status.taken", judge=f"<@{interaction.user.id}>")
        rec = await self.host.store.get_match(int(c["match"]))
        if rec is not None:
            lg = res.data["league"]
            public = await self.leagues.public_locale(lg.guild_id, lg)
            players = [u for u in rec.seats if u]
            await self._to_table(rec, tr("judge.taken_public", public, judge=safe_text(interaction.user.display_name, 80),
                                         call=c["id"]), ping=players)

    async def _close(self, interaction: discord.Interaction, league_id: int, call_id: int) -> None:
        res = await self.judges.close(league_id, call_id, interaction.guild_id, interaction.user.id)
        if not res.ok:
            await reply_error(interaction, render(res.error, user_locale(interaction)))
            return
        await self._restatus(interaction, "judge.post.status.closed", judge=f"<@{interaction.user.id}>")

    async def _look(self, interaction: discord.Interaction, league_id: int, call_id: int) -> None:
        locale = user_locale(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        res = await self.judges.look(league_id, call_id, interaction.guild_id, interaction.user.id)
        if not res.ok:
            await reply_error(interaction, render(res.error, locale))
            return
        await interaction.followup.send(**look_layout(self.delivery, res.match, res.private, locale),
                                        ephemeral=True, allowed_mentions=NO_PINGS)

    async def _act_menu(self, interaction: discord.Interaction, league_id: int, call_id: int) -> None:
        locale = user_locale(interaction)
        _, _, rec, err = await self.judges.call_match(league_id, call_id, interaction.guild_id)
        if err:
            await reply_error(interaction, render(err.error, locale))
            return
        view = discord.ui.View(timeout=None)
        view.add_item(ActionSelect(league_id, call_id, action_options(list(rec.names), locale),
                                   placeholder=clip(tr("judge.act.placeholder", locale), 150)))
        await reply(interaction, tr("judge.act.head", locale, call=call_id, match=rec.id), view=view)

    async def on_action_pick(self, interaction: discord.Interaction, league_id: int, call_id: int, value: str) -> None:
        locale = user_locale(interaction)
        if not await self._need_judge(interaction):
            return
        await interaction.response.send_modal(ReasonForm(league_id, call_id, value, tr("judge.form.reason_title", locale), locale))

    async def do_action(self, interaction: discord.Interaction, league_id: int, call_id: int, value: str,
                        reason: str, *, force: bool = False) -> None:
        """The judge's action with its reason: done, told to the players, kept in the trail."""
        locale = user_locale(interaction)
        if not await self._need_judge(interaction):
            return
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        _, _, rec, err = await self.judges.call_match(league_id, call_id, interaction.guild_id)
        picked = parse_action(value, len(rec.seats)) if err is None else None
        if picked is None:
            await reply_error(interaction, tr("judge.err.action", locale))
            return
        kind, n, minutes = picked
        judge = interaction.user.id
        if kind == "rewind":
            res = await self.judges.rewind(league_id, call_id, interaction.guild_id, judge, n, reason, force=force)
            if not res.ok and res.data.get("revealed"):
                now = time.monotonic()
                # (rulings never confirmed are let go once they could no longer be confirmed)
                self._pending = {k: v for k, v in self._pending.items() if now - v[1] <= PENDING_TTL}
                self._pending[(judge, league_id, call_id, n)] = (reason, now)
                view = discord.ui.View(timeout=None)
                view.add_item(ForceButton(league_id, call_id, n, label=tr("judge.act.force", locale, n=n)))
                await reply(interaction, "⚠️ " + render(res.error, locale), view=view)
                return
        elif kind == "time":
            res = await self.judges.add_time(league_id, call_id, interaction.guild_id, judge, rec.seats[n], minutes, reason)
        else:
            res = await self.judges.penalty(league_id, call_id, interaction.guild_id, judge, kind, rec.seats[n], reason)
        if not res.ok:
            await reply_error(interaction, render(res.error, locale))
            return
        await reply(interaction, tr("judge.done", locale))
        await self._announce(res, kind, judge)

    async def on_force(self, interaction: discord.Interaction, league_id: int, call_id: int, n: int) -> None:
        locale = user_locale(interaction)
        if not await self._need_judge(interaction):
            return
        pending = self._pending.pop((interaction.user.id, league_id, call_id, n), None)
        if pending is None or time.monotonic() - pending[1] > PENDING_TTL:
            await reply_error(interaction, tr("judge.err.force_lapsed", locale))
            return
        await self.do_action(interaction, league_id, call_id, f"rw:{n}", pending[0], force=True)

    async def _announce(self, res: Any, kind: str, judge: int) -> None:
        """Tell the players: the board for a rewind or a game loss, a line for time and penalties,
        and the event's message and standings for what changed a result."""
        if kind in ("rewind", "time"):
            if self.delivery is not None:
                await self.delivery.publish(res, actor=judge)
            return
        rec, line = res.data["match"], res.data["line"]
        lg = res.data["league"]
        public = await self.leagues.public_locale(lg.guild_id, lg)
        table = res.data.get("table")
        if table is not None and table.ok and self.delivery is not None:
            await self.delivery.publish(table, actor=judge)
        elif kind != "game_loss":
            await self._to_table(rec, render(line, public), ping=[u for u in rec.seats if u])
        await self.leagues.after_change(res)

    # ------------------------------------------------------------------ commands
    @app_commands.command(name=N("judge", "cmd.match.judge.name"), description=L("cmd.match.judge.description"))
    @app_commands.rename(match=N("match", "cmd.opt.match.name"), what=N("what", "cmd.match.judge.what.name"))
    @app_commands.describe(match=L("cmd.opt.match.description"), what=L("cmd.match.judge.what.description"))
    @app_commands.guild_only()
    async def match_judge(self, interaction: discord.Interaction, match: Optional[int] = None,
                          what: Optional[app_commands.Range[str, 0, 300]] = None) -> None:
        """Call a judge to your event match (what happened, in a few words)."""
        game = self.bot.get_cog("Game")
        rec = await game._resolve(interaction, match)
        if rec is None:
            return
        if not await check_match(interaction, rec):
            return
        if what is None:
            await self.open_form(interaction, rec)
            return
        await self.submit_call(interaction, rec.id, what)

    @app_commands.command(name=N("penalties", "cmd.league_admin.penalties.name"),
                          description=L("cmd.league_admin.penalties.description"))
    @app_commands.rename(league=N("league", "cmd.league.opt.league.name"))
    @app_commands.describe(league=L("cmd.league_admin.opt.league.description"))
    @app_commands.autocomplete(league=league_autocomplete)
    async def penalties(self, interaction: discord.Interaction, league: Optional[int] = None) -> None:
        """The event's open judge calls, then every penalty (for its judges and organisers)."""
        if not await self._need_judge(interaction):
            return
        lg = await self.leagues._resolve(interaction, league, organiser=True)
        if not lg:
            return
        locale = user_locale(interaction)
        res = await self.judges.calls(lg.id, interaction.guild_id)
        if not res.ok:
            await reply_error(interaction, render(res.error, locale))
            return
        lines = [tr("judge.calls.head", locale, name=safe_text(lg.data["name"], 80), n=len(res.data["calls"]))]
        lines += [J.call_line(c, locale, lambda s: safe_text(s, 200)) for c in res.data["calls"][:10]]
        await self._penalty_list(interaction, lg, None, lead=lines)

    @app_commands.command(name=N("penalties", "cmd.league.penalties.name"), description=L("cmd.league.penalties.description"))
    @app_commands.rename(league=N("league", "cmd.league.opt.league.name"))
    @app_commands.describe(league=L("cmd.league.opt.league.description"))
    @app_commands.autocomplete(league=league_autocomplete)
    async def my_penalties(self, interaction: discord.Interaction, league: Optional[int] = None) -> None:
        """Your own penalties in an event (only you see them)."""
        lg = await self.leagues._resolve(interaction, league)
        if lg:
            await self._penalty_list(interaction, lg, interaction.user.id)

    async def _penalty_list(self, interaction: discord.Interaction, lg: Any, player: int | None,
                            lead: list[str] | None = None) -> None:
        locale = user_locale(interaction)
        res = await self.judges.penalties(lg.id, interaction.guild_id, player)
        if not res.ok:
            await reply_error(interaction, render(res.error, locale))
            return
        names = {p["id"]: safe_text(p["name"], 60) for p in lg.data.get("players") or []}
        pens = res.data["penalties"]
        lines = list(lead or []) + [tr("judge.penalties.head" if player is None else "judge.penalties.mine", locale,
                    name=safe_text(lg.data["name"], 80), n=len(pens))]
        lines += [J.penalty_line(p, names, locale, lambda s: safe_text(s, 200)) for p in pens[-20:]]
        await reply(interaction, clip("\n".join(lines), 2000))

    @app_commands.command(name=N("judges", "cmd.settings.judges.name"), description=L("cmd.settings.judges.description"))
    @app_commands.rename(role=N("role", "cmd.league.opt.role.name"), channel=N("channel", "cmd.settings.judges.channel.name"))
    @app_commands.describe(role=L("cmd.settings.judges.role.description"),
                           channel=L("cmd.settings.judges.channel.description"))
    async def judges_setting(self, interaction: discord.Interaction, role: Optional[discord.Role] = None,
                             channel: Optional[discord.TextChannel] = None) -> None:
        """The server's judge role (pinged for calls; its members judge) and staff channel."""
        locale = user_locale(interaction)
        if interaction.guild_id is None or not interaction.permissions.manage_guild:
            await reply_error(interaction, tr("cogs.err.no_permission", locale))
            return
        store = self.bot.store  # type: ignore[attr-defined]
        await store.set_guild_setting(interaction.guild_id, JUDGE_ROLE_KEY, role.id if role else None)
        await store.set_guild_setting(interaction.guild_id, JUDGE_CHANNEL_KEY, channel.id if channel else None)
        await reply(interaction, tr("judge.setting.done", locale,
                                    role=f"<@&{role.id}>" if role else tr("judge.setting.none", locale),
                                    channel=f"<#{channel.id}>" if channel else tr("judge.setting.event_channel", locale)))


    @app_commands.command(name=N("takebacks", "cmd.settings.takebacks.name"),
                          description=L("cmd.settings.takebacks.description"))
    @app_commands.rename(mode=N("allow", "cmd.settings.takebacks.mode.name"))
    @app_commands.describe(mode=L("cmd.settings.takebacks.mode.description"))
    @app_commands.choices(mode=[app_commands.Choice(name=L(f"judge.takebacks.{m}"), value=m)
                                for m in ("casual", "rated", "off")])
    async def takebacks_setting(self, interaction: discord.Interaction, mode: str) -> None:
        """Where players may ask each other for takebacks (host/undo.py): casual matches (the
        default), rated ones too, or never.  Events decide for themselves."""
        locale = user_locale(interaction)
        if interaction.guild_id is None or not interaction.permissions.manage_guild:
            await reply_error(interaction, tr("cogs.err.no_permission", locale))
            return
        if mode not in ("casual", "rated", "off"):
            await reply_error(interaction, tr("cogs.err.generic", locale))
            return
        await self.bot.store.set_guild_setting(interaction.guild_id, "takebacks", mode)  # type: ignore[attr-defined]
        await reply(interaction, tr("judge.takebacks.done", locale, mode=tr(f"judge.takebacks.{mode}", locale)))


DYNAMIC_ITEMS = (CallButton, ActionSelect, ForceButton)


def look_layout(delivery: Any, rec: Any, private: list, locale: str) -> dict[str, Any]:
    """The judge's look at every hand as one Components V2 message: a heading, then one
    container a seat — whose hand, its picture (``seatN.png``) and its words, without the line
    that tells a player where to act — within Discord's limits of a message (its 4,000
    characters of text shared between the seats, at most 40 components)."""
    head = discord.ui.TextDisplay(tr("judge.look.head", locale, match=rec.id))
    seats = private[:LOOK_SEATS]
    share = max(200, (TEXT_MAX - len(head.content)) // max(1, len(seats)))
    view, files = discord.ui.LayoutView(timeout=None), []
    view.add_item(head)
    for pu in seats:
        title = clip(tr("judge.look.title", locale, name=safe_text(rec.names[pu.seat], 80)), 256)
        one, file = delivery.private_layout(rec, pu, locale, title=title, to_player=False,
                                            picture=f"seat{pu.seat + 1}.png", limit=share)
        for item in one.children:
            view.add_item(item)
        if file is not None:
            files.append(file)
    return {"view": view, "files": files}
