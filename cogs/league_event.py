"""An event's registration, check-in and decklists (issue 34): ``/league checkin [deck]``,
``/league decklists``, ``/league-admin settings``, ``/league-admin checkin``, ``/league-admin
decklists``, the check-in clock, and the two guards other cogs ask: the deck an event match
uses without asking (:func:`event_deck`, the accept of a league challenge) and what an event
match's export shows to whom (:func:`event_export`, ``/history``).

The commands live in the ``/league`` and ``/league-admin`` groups of cogs/leagues.py and
cogs/league_admin.py: this cog defines them and, when it loads (after those two cogs:
cogs/__init__.py), moves them into those groups, so a member still finds everything under
``/league`` and an organiser under ``/league-admin``.

Thin: the rules are in :mod:`host.events.entry` (over :mod:`host.events.registration`), the
writes in :class:`host.league_service.Leagues` (``settings``, ``checkin``, ``checkin_due``).  The
Check-in button is the league message's ``lg:<league>:checkin`` (cogs/leagues.py: shown while
check-in is open), answered here.
"""
from __future__ import annotations

import datetime as dt
import logging
import re
import unicodedata
from typing import Any, Optional

import discord
from discord import app_commands
from discord.app_commands import Choice

from cogs.common import (L, N, clip, game_name, mention_line, render, render_lines, reply, reply_error, safe_text, tr,
                         user_locale)
from cogs.decks import any_deck_autocomplete
from cogs.league_clock import control_autocomplete
from cogs.play_options import zone_autocomplete
from cogs.league_part import LeaguePart
from cogs.leagues import league_autocomplete
from data.store import LeagueRecord, TransientStoreError
from host.decks import DeckBook
from host.types import Msg
from host.events import bestof as BO
from host.events import clock as EC
from host.events import reports as RP
from host.events import stages as ST
from host.events import entry as E

log = logging.getLogger("cogs.league_event")

MEMBER_COMMANDS = ("checkin", "decklists")                           # into /league
ORGANISER_COMMANDS = ("settings", "admin_checkin", "admin_decklists")  # into /league-admin
CLEAR = frozenset({"none", "-", "off", "0", "なし", "なし。"})
BEST_OF_CHOICES = [Choice(name=L(f"events.series.best_of.{n}"), value=n) for n in BO.BEST_OFS]
LIMITED_CHOICES = [Choice(name=L(f"events.limited.choice.{v}"), value=v) for v in ("sealed", "draft", "none")]

DATE_RE = re.compile(r"^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[ T]+|\s*)(\d{1,2}):(\d{2})$")
EPOCH_RE = re.compile(r"^(?:<t:)?(\d{9,12})(?::[tTdDfFR])?>?$")
OFFSET_RE = re.compile(r"^(?:UTC|GMT)?\s*([+-])\s*(\d{1,2})(?::?(\d{2}))?$", re.I)


# ---------------------------------------------------------------------------- the start, typed
def parse_offset(text: str | None) -> int | None:
    """A UTC offset in minutes from ``+09:00``, ``+9``, ``UTC-5``, ``-05:30``, ``UTC`` or ``Z``;
    None when it is none of these (or beyond −12:00 … +14:00)."""
    raw = unicodedata.normalize("NFKC", text or "").strip().replace("−", "-")
    if raw.upper() in ("UTC", "GMT", "Z", "0", "+0", "-0"):
        return 0
    m = OFFSET_RE.match(raw)
    if not m:
        return None
    minutes = int(m.group(2)) * 60 + int(m.group(3) or 0)
    minutes = -minutes if m.group(1) == "-" else minutes
    return minutes if -12 * 60 <= minutes <= 14 * 60 and int(m.group(3) or 0) < 60 else None


def offset_text(minutes: int) -> str:
    sign = "-" if minutes < 0 else "+"
    return f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def parse_start(text: str, offset: int) -> tuple[float | None, bool]:
    """The start an organiser typed: a Discord timestamp (``<t:1767225600:F>``) or its number,
    or ``YYYY-MM-DD HH:MM`` at UTC ``offset`` minutes.  Returns (epoch seconds or None when it
    cannot be read, whether the offset was used)."""
    raw = unicodedata.normalize("NFKC", text or "").strip()
    m = EPOCH_RE.match(raw)
    if m:
        return float(m.group(1)), False
    m = DATE_RE.match(raw)
    if not m:
        return None, True
    year, month, day, hour, minute = (int(x) for x in m.groups())
    try:
        when = dt.datetime(year, month, day, hour, minute, tzinfo=dt.timezone(dt.timedelta(minutes=offset)))
    except ValueError:
        return None, True
    return when.timestamp(), True


# ---------------------------------------------------------------------------- guards other cogs ask
async def event_deck(store: Any, rec: Any, user_id: int) -> Any:
    """The deck ``user_id`` registered for the event of league match ``rec`` (a ready-made id or a
    spec), or None: the accept of a league challenge uses it without asking (cogs/controls.py)."""
    league_id = (rec.meta or {}).get("league")
    if league_id is None:
        return None
    try:
        lg = await store.get_league(int(league_id))
    except TransientStoreError:
        raise        # "try again" (cogs.common.run_in_cog): never a free pick instead of the locked deck
    except Exception:
        log.exception("league %s: reading its decklists failed", league_id)
        return None
    if lg is None or lg.data.get("game") != rec.game:
        return None
    locked = E.locked_deck(lg.data, user_id)
    return None if locked is None else E.play_deck(locked)


async def event_export(bot: Any, interaction: discord.Interaction, rec: Any, full: dict) -> dict:
    """What ``/history``'s export of an event match gives this reader: the full record (seed,
    every command, both decks) to the organisers, and to the match's players once the event has
    ended; everyone else the public record (:func:`host.events.entry.public_export`)."""
    lg = None
    try:
        lg = await bot.store.get_league(int(rec.meta["league"]))
    except Exception:
        log.exception("league %s: reading it for an export failed", rec.meta.get("league"))
    cog = bot.get_cog("Leagues")
    organiser = (lg is not None and cog is not None and lg.guild_id == interaction.guild_id
                 and await cog.is_organiser(interaction))
    if lg is not None and E.export_access(lg.data, lg.status, interaction.user.id, organiser, rec.seats) == "full":
        return full
    shown = await bot.host.log(rec.id)
    return E.public_export(full, shown.data.get("log", []) if shown.ok else [])


async def checkin_deck_autocomplete(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """The caller's decks (then the ready-made ones) for the game of the chosen league, or of
    the server's league in sign-up."""
    if interaction.guild_id is None:
        return []
    store = interaction.client.store  # type: ignore[attr-defined]
    league_id = getattr(interaction.namespace, "league", None)
    try:
        if league_id is not None:
            lg = await store.get_league(int(league_id))
            leagues = [lg] if lg is not None and lg.guild_id == interaction.guild_id else []
        else:
            leagues = await store.leagues(interaction.guild_id, ("signup",))
    except Exception:
        log.exception("check-in deck autocomplete failed")
        return []
    if not leagues:
        return []
    interaction.namespace.game = leagues[-1].data["game"]   # any_deck_autocomplete reads the game there
    return await any_deck_autocomplete(interaction, current)


class LeagueEvent(LeaguePart):
    """Registration, check-in and decklists of server leagues."""

    member_commands = MEMBER_COMMANDS

    # ------------------------------------------------------------------ helpers
    async def _resolve(self, interaction: discord.Interaction, league: int | None,
                       organiser: bool = False) -> tuple[Any, LeagueRecord | None]:
        cog = self.leagues
        if cog is None:
            await reply_error(interaction, tr("cogs.err.generic", user_locale(interaction)))
            return None, None
        if organiser and not await cog._need_organiser(interaction):
            return cog, None
        return cog, await cog._resolve(interaction, league, organiser=organiser)

    async def announce_moves(self, lg: LeagueRecord, moved: list[int]) -> None:
        """Tell each player who moved up from the waiting list, with a ping, in the league channel."""
        cog = self.leagues
        if not moved or cog is None:
            return
        locale = await cog.public_locale(lg.guild_id, lg)
        for uid in moved:
            await cog.announce(lg, tr("events.reg.moved_up", locale, mention=f"<@{uid}>", league=lg.id,
                                      name=safe_text(lg.data["name"])), ping=[uid])

    # ------------------------------------------------------------------ /league checkin
    @app_commands.command(name=N("checkin", "cmd.league.checkin.name"), description=L("cmd.league.checkin.description"))
    @app_commands.rename(deck=N("deck", "cmd.league.opt.deck.name"), league=N("league", "cmd.league.opt.league.name"))
    @app_commands.describe(deck=L("cmd.league.opt.checkin_deck.description"),
                           league=L("cmd.league.opt.league.description"))
    @app_commands.autocomplete(deck=checkin_deck_autocomplete, league=league_autocomplete)
    async def checkin(self, interaction: discord.Interaction, deck: Optional[app_commands.Range[str, 1, 1000]] = None,
                      league: Optional[int] = None) -> None:
        """Check in while check-in is open; in a card game, ``deck`` registers the deck for the
        event (locked: every event match uses it)."""
        _, lg = await self._resolve(interaction, league)
        if lg is not None:
            await self._checkin(interaction, lg, deck)

    async def checkin_button(self, interaction: discord.Interaction, lg: LeagueRecord) -> None:
        """The league message's Check-in button."""
        await self._checkin(interaction, lg, None)

    async def _checkin(self, interaction: discord.Interaction, lg: LeagueRecord, deck_text: str | None) -> None:
        locale = user_locale(interaction)
        cog = self.leagues
        user = interaction.user.id
        chosen, kind, label = None, "code", None
        if deck_text:
            chosen, err = await DeckBook(self.bot.store).for_play(  # type: ignore[attr-defined]
                user, lg.data["game"], deck_text, engine=await cog.service.cards_loaded(lg.data))
            if err is not None:
                await reply_error(interaction, "\n".join([render(err.error, locale)]
                                                          + ["• " + t for t in render_lines(err.info, locale)]))
                return
            if isinstance(chosen, str):
                kind = "ready"
            elif await self.bot.store.get_deck(user, lg.data["game"], deck_text) is not None:  # type: ignore[attr-defined]
                kind, label = "saved", deck_text
        res = await cog.service.checkin(lg.id, interaction.guild_id, user, deck=chosen, kind=kind, label=label)
        if await cog._fail(interaction, res):
            return
        new: LeagueRecord = res.data["league"]
        out = res.data["payload"]
        lines = []
        if out["status"] == "waiting":
            lines.append(tr("events.reg.checkin.done_waiting", locale, league=lg.id, name=safe_text(lg.data["name"]),
                            place=out.get("place") or "-"))
        elif out["status"] is not None:
            lines.append(tr("events.reg.checkin.done", locale, league=lg.id, name=safe_text(lg.data["name"])))
        if out.get("deck"):
            lines.append(tr("events.reg.checkin.deck", locale, league=lg.id, name=safe_text(lg.data["name"]),
                            deck=safe_text(E.deck_label(new.data, out["deck"], locale)), hash=out["deck"]["hash"][:12]))
        await reply(interaction, "\n".join(lines))
        await cog.refresh(new)

    # ------------------------------------------------------------------ /league decklists
    @app_commands.command(name=N("decklists", "cmd.league.decklists.name"),
                          description=L("cmd.league.decklists.description"))
    @app_commands.rename(user=N("player", "cmd.records.user.name"), league=N("league", "cmd.league.opt.league.name"))
    @app_commands.describe(user=L("cmd.league.opt.decklist_user.description"),
                           league=L("cmd.league.opt.league.description"))
    @app_commands.autocomplete(league=league_autocomplete)
    async def decklists(self, interaction: discord.Interaction, user: Optional[discord.User] = None,
                        league: Optional[int] = None) -> None:
        """Your own registered list at any time; another player's, or everyone's, only once the
        event's lists are public (open decklists: from the top cut, and at the end)."""
        cog, lg = await self._resolve(interaction, league)
        if lg is None or await self._no_decklists(interaction, lg):
            return
        lg = await cog.service.limited.synced(lg)   # a deck built a moment ago registered first
        locale = user_locale(interaction)
        me = interaction.user.id
        organiser = await cog.is_organiser(interaction)
        public = E.decklists_public(lg.data, lg.status)
        if user is not None:
            if not E.may_see_decklist(lg.data, lg.status, me, user.id, organiser):
                await reply_error(interaction, tr("events.reg.err.decklist_closed", locale))
                return
            await reply(interaction, clip(E.decklist_text(lg.data, user.id, locale, safe_text), 2000))
            return
        if public or organiser:
            await reply(interaction, self._overview(lg, locale))
            return
        await reply(interaction, clip(E.decklist_text(lg.data, me, locale, safe_text) + "\n"
                                      + tr("events.reg.decklists.closed_note", locale), 2000))

    async def _no_decklists(self, interaction: discord.Interaction, lg: LeagueRecord) -> bool:
        """A game without decks (SQUARES) has no decklists: said, and True."""
        if E.has_decklists(lg.data):
            return False
        locale = user_locale(interaction)
        await reply_error(interaction, tr("events.reg.err.no_decklists", locale, league=lg.id, name=safe_text(lg.data["name"]),
                                          game=game_name(lg.data["game"], locale)))
        return True

    def _overview(self, lg: LeagueRecord, locale: str) -> str:
        d = lg.data
        ids = [p["id"] for p in d["players"]] + [uid for uid in E.waiting(d)]
        ids += [int(u) for u in (d.get("decklists") or {}) if int(u) not in ids]
        lines = [tr("events.reg.decklists.title", locale, league=lg.id, name=safe_text(d["name"]),
                    n=len(d.get("decklists") or {}))]
        for uid in ids:
            entry = E.locked_deck(d, uid)
            name = safe_text(E._name(d, uid))
            lines.append(tr("events.reg.decklists.line", locale, name=name, deck=safe_text(E.deck_label(d, entry, locale)),
                            hash=entry["hash"][:12]) if entry else tr("events.reg.decklists.line_none", locale, name=name))
        lines.append(tr("events.reg.decklists.hint", locale))
        return clip("\n".join(lines), 2000)

    # ------------------------------------------------------------------ /league-admin settings
    @app_commands.command(name=N("settings", "cmd.league_admin.settings.name"),
                          description=L("cmd.league_admin.settings.description"))
    @app_commands.rename(league=N("league", "cmd.league.opt.league.name"),
                         cap=N("cap", "cmd.league_admin.opt.cap.name"),
                         start=N("start", "cmd.league_admin.opt.start.name"),
                         checkin_minutes=N("checkin_minutes", "cmd.league_admin.opt.checkin.name"),
                         no_show_minutes=N("no_show_minutes", "cmd.league_admin.opt.no_show.name"),
                         open_decklists=N("open_decklists", "cmd.league_admin.opt.open_decklists.name"),
                         utc_offset=N("utc_offset", "cmd.league_admin.opt.utc_offset.name"),
                         best_of=N("best_of", "cmd.league_admin.opt.best_of.name"),
                         cut_best_of=N("cut_best_of", "cmd.league_admin.opt.cut_best_of.name"),
                         round_minutes=N("round_minutes", "cmd.league_admin.opt.round_minutes.name"),
                         takebacks=N("takebacks", "cmd.league_admin.opt.takebacks.name"),
                         confirm_minutes=N("confirm_minutes", "cmd.league_admin.opt.confirm_minutes.name"),
                         pair_by_hand=N("pair_by_hand", "cmd.league_admin.opt.pair_by_hand.name"),
                         clock=N("clock", "cmd.league_admin.opt.clock.name"),
                         vacation=N("vacation", "cmd.league_admin.opt.vacation.name"),
                         weekends=N("weekends", "cmd.league_admin.opt.weekends.name"),
                         hours=N("hours", "cmd.league_admin.opt.hours.name"),
                         zone=N("zone", "cmd.league_admin.opt.zone.name"),
                         round_days=N("round_days", "cmd.league_admin.opt.round_days.name"),
                         limited=N("limited", "cmd.league_admin.opt.limited.name"))
    @app_commands.describe(league=L("cmd.league_admin.opt.league.description"),
                           cap=L("cmd.league_admin.opt.cap.description"),
                           start=L("cmd.league_admin.opt.start.description"),
                           checkin_minutes=L("cmd.league_admin.opt.checkin.description"),
                           no_show_minutes=L("cmd.league_admin.opt.no_show.description"),
                           open_decklists=L("cmd.league_admin.opt.open_decklists.description"),
                           utc_offset=L("cmd.league_admin.opt.utc_offset.description"),
                           best_of=L("cmd.league_admin.opt.best_of.description"),
                           cut_best_of=L("cmd.league_admin.opt.cut_best_of.description"),
                           round_minutes=L("cmd.league_admin.opt.round_minutes.description"),
                           takebacks=L("cmd.league_admin.opt.takebacks.description"),
                           confirm_minutes=L("cmd.league_admin.opt.confirm_minutes.description"),
                           pair_by_hand=L("cmd.league_admin.opt.pair_by_hand.description"),
                           clock=L("cmd.league_admin.opt.clock.description"),
                           vacation=L("cmd.league_admin.opt.vacation.description"),
                           weekends=L("cmd.league_admin.opt.weekends.description"),
                           hours=L("cmd.league_admin.opt.hours.description"),
                           zone=L("cmd.league_admin.opt.zone.description"),
                           round_days=L("cmd.league_admin.opt.round_days.description"),
                           limited=L("cmd.league_admin.opt.limited.description"))
    @app_commands.choices(best_of=BEST_OF_CHOICES, cut_best_of=BEST_OF_CHOICES, limited=LIMITED_CHOICES)
    @app_commands.autocomplete(league=league_autocomplete, clock=control_autocomplete, zone=zone_autocomplete)
    async def settings(self, interaction: discord.Interaction, league: Optional[int] = None,
                       cap: Optional[app_commands.Range[int, 0, 1024]] = None,
                       start: Optional[app_commands.Range[str, 1, 40]] = None,
                       checkin_minutes: Optional[app_commands.Range[int, 0, 1440]] = None,
                       no_show_minutes: Optional[app_commands.Range[int, 0, 1440]] = None,
                       open_decklists: Optional[bool] = None,
                       utc_offset: Optional[app_commands.Range[str, 1, 12]] = None,
                       best_of: Optional[int] = None, cut_best_of: Optional[int] = None,
                       round_minutes: Optional[app_commands.Range[int, 0, 10080]] = None,
                       confirm_minutes: Optional[app_commands.Range[int, 0, 10080]] = None,
                       pair_by_hand: Optional[bool] = None,
                       clock: Optional[app_commands.Range[str, 1, 128]] = None,
                       vacation: Optional[bool] = None, weekends: Optional[bool] = None,
                       hours: Optional[app_commands.Range[str, 1, 100]] = None,
                       zone: Optional[app_commands.Range[str, 1, 64]] = None,
                       round_days: Optional[app_commands.Range[int, 0, 30]] = None,
                       takebacks: Optional[bool] = None, limited: Optional[str] = None) -> None:
        """Organisers, during sign-up: 0 (or ``none`` for the start) clears a setting; no
        option at all shows them.  ``best_of`` / ``cut_best_of`` (1, 3, 5) and ``round_minutes``:
        best-of-N play and the round time limit (:mod:`host.events.bestof`); ``confirm_minutes``
        (also while the event runs): the bot confirms a report nobody answered after that long
        (:mod:`host.events.reports`); ``pair_by_hand`` (also while it runs): the next round is
        paired when the organiser runs ``/league-admin next-round``.  The event's clock (during
        sign-up: :mod:`host.events.clock`): ``clock`` (a time control typed or a preset; ``none``: no
        clock), ``vacation``, ``weekends`` (the weekend pause), ``hours`` (playing hours; ``none``:
        all day) and ``zone`` (their time zone); ``round_days`` (also while it runs; 0: the
        deadline hours); ``takebacks`` (until it ends): may its players ask for takebacks;
        ``limited`` (during sign-up): a sealed or draft event (``none``: decks of one's own,
        :mod:`host.events.limited`)."""
        cog, lg = await self._resolve(interaction, league, organiser=True)
        if lg is None:
            return
        locale = user_locale(interaction)
        changes: dict[str, Any] = {}
        read_as: tuple[int, float] | None = None
        if cap is not None:
            changes["cap"] = cap or None
        if checkin_minutes is not None:
            changes["checkin_minutes"] = checkin_minutes or None
        if no_show_minutes is not None:
            changes["no_show_minutes"] = no_show_minutes or None
        if open_decklists is not None:
            changes["open_decklists"] = open_decklists
        for key, value in (("best_of", best_of), ("cut_best_of", cut_best_of)):
            if value is not None:
                changes[key] = value
        if round_minutes is not None:
            changes["round_minutes"] = round_minutes or None
        if confirm_minutes is not None:
            changes["confirm_minutes"] = confirm_minutes or None
        if pair_by_hand is not None:
            changes["pair_by_hand"] = pair_by_hand
        if takebacks is not None:
            changes["takebacks"] = takebacks
        if limited is not None:
            changes["limited"] = None if limited == "none" else limited
        # the event's clock: read (and refused, in the reader's words) by host/events/clock.py
        for key, value in (("time_control", clock), ("vacation", vacation), ("weekend_pause", weekends),
                           ("hours", hours), ("zone", zone), ("round_days", round_days)):
            if value is not None:
                changes[key] = value
        if start is not None:
            if unicodedata.normalize("NFKC", start).strip().lower() in CLEAR:
                changes["start_at"] = None
            else:
                public = await cog.public_locale(interaction.guild_id, interaction.guild_locale)
                offset = 9 * 60 if public == "ja" else 0
                if utc_offset is not None:
                    offset = parse_offset(utc_offset)     # type: ignore[assignment]
                    if offset is None:
                        await reply_error(interaction, tr("events.reg.err.bad_offset", locale, text=safe_text(utc_offset, 12)))
                        return
                at, typed = parse_start(start, offset)
                if at is None:
                    await reply_error(interaction, tr("events.reg.err.bad_start", locale, text=safe_text(start, 40)))
                    return
                changes["start_at"] = at
                if typed:
                    read_as = (offset, at)
        if changes:
            res = await cog.service.settings(lg.id, interaction.guild_id, interaction.user.id, **changes)
            if not res.ok:     # a refusal may quote what was typed: shown as text, never as markdown
                res.error = Msg(res.error.key, {k: safe_text(v, 60) if isinstance(v, str) else v
                                                for k, v in res.error.params.items()})
            if await cog._fail(interaction, res):
                return
            lg, moved = res.data["league"], res.data["payload"]["moved"]
        else:
            moved = []
        lines = [tr("events.reg.set.title", locale, league=lg.id, name=safe_text(lg.data["name"]))]
        lines += ["• " + x for x in E.settings_lines(lg.data, locale) + BO.settings_lines(lg.data, locale)
                  + [RP.settings_line(lg.data, locale), ST.pairing_line(lg.data, locale)]
                  + EC.settings_lines(lg.data, locale)]
        if read_as is not None:
            lines.append(tr("events.reg.set.read_as", locale, offset=offset_text(read_as[0]), at=int(read_as[1])))
        if moved:
            lines.append(tr("events.reg.set.moved", locale, players=" ".join(f"<@{u}>" for u in moved)))
        await reply(interaction, clip("\n".join(lines), 2000))
        if changes:
            await cog.refresh(lg)
            await self.announce_moves(lg, moved)

    # ------------------------------------------------------------------ /league-admin checkin
    @app_commands.command(name=N("checkin", "cmd.league_admin.checkin.name"),
                          description=L("cmd.league_admin.checkin.description"))
    @app_commands.rename(user=N("player", "cmd.records.user.name"), league=N("league", "cmd.league.opt.league.name"))
    @app_commands.describe(user=L("cmd.league_admin.opt.checkin_user.description"),
                           league=L("cmd.league_admin.opt.league.description"))
    @app_commands.autocomplete(league=league_autocomplete)
    async def admin_checkin(self, interaction: discord.Interaction, user: discord.User,
                            league: Optional[int] = None) -> None:
        """The organiser checks a signed-up player in by hand (also before the window opens)."""
        cog, lg = await self._resolve(interaction, league, organiser=True)
        if lg is None:
            return
        res = await cog.service.checkin(lg.id, interaction.guild_id, user.id, by=interaction.user.id, organiser=True)
        if await cog._fail(interaction, res):
            return
        out = res.data["payload"]
        key = "events.reg.checkin.by_organiser_waiting" if out["status"] == "waiting" else "events.reg.checkin.by_organiser"
        await reply(interaction, tr(key, user_locale(interaction), user=f"<@{user.id}>", league=lg.id,
                                    place=out.get("place") or "-"))
        await cog.refresh(res.data["league"])

    # ------------------------------------------------------------------ /league-admin decklists
    @app_commands.command(name=N("decklists", "cmd.league_admin.decklists.name"),
                          description=L("cmd.league_admin.decklists.description"))
    @app_commands.rename(league=N("league", "cmd.league.opt.league.name"), user=N("player", "cmd.records.user.name"))
    @app_commands.describe(league=L("cmd.league_admin.opt.league.description"),
                           user=L("cmd.league_admin.opt.decklist_user.description"))
    @app_commands.autocomplete(league=league_autocomplete)
    async def admin_decklists(self, interaction: discord.Interaction, league: Optional[int] = None,
                              user: Optional[discord.User] = None) -> None:
        """Every list at any time, only to the organiser: who registered what (deck, hash), or
        one player's list card by card, by name."""
        cog, lg = await self._resolve(interaction, league, organiser=True)
        if lg is None or await self._no_decklists(interaction, lg):
            return
        lg = await cog.service.limited.synced(lg)   # a deck built a moment ago registered first
        locale = user_locale(interaction)
        if user is not None:
            await reply(interaction, clip(E.decklist_text(lg.data, user.id, locale, safe_text), 2000))
        else:
            await reply(interaction, self._overview(lg, locale))

    # ------------------------------------------------------------------ the clock
    async def tick_once(self) -> int:
        """(Run by the leagues' one clock, :meth:`cogs.leagues.Leagues.deadlines`.)  Leagues
        whose check-in has just opened: the league message gets its Check-in button,
        and the channel is told, pinging everyone signed up (the waiting list too)."""
        cog = self.leagues
        if cog is None:
            return 0
        n = 0
        for res in await cog.service.checkin_due():
            lg: LeagueRecord = res.data["league"]
            await cog.refresh(lg)
            reg = E.reg(lg.data) or {"entries": []}
            who = [e["id"] for e in reg["entries"] if e["status"] in ("registered", "waiting")]
            locale = await cog.public_locale(lg.guild_id, lg)
            await cog.announce(lg, tr("events.reg.checkin_open", locale, league=lg.id, name=safe_text(lg.data["name"]),
                                      at=int(reg["start_at"]), mentions=mention_line(who)), ping=who)
            n += 1
        return n
