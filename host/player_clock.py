"""A player's own clock, the host side of ``/notify``, ``/vacation`` and ``/turns`` (no Discord):
their notification settings, their vacations and the list of games waiting on them.

``PlayerClock(host)`` uses ``host.store``, ``host.now``, ``host.allowance`` and
``host.vacation_changed`` (host/away.py).  Refusals raise :class:`host.clocks.ClockError` (a
``NotifyError`` or a ``VacationError``): ``err.text(locale)`` is the refusal in the reader's
words, and nothing was changed.  The rules are the pure modules' (``host/clocks/notify.py``,
``vacation.py``, ``turns.py``); docs/clocks.md, "Commands".

Decided here, where the issue is silent:

* **Which allowance.** A vacation is counted against the ``vacation_days`` setting of the server
  where ``/vacation`` is used; in a DM, the default (14 days).  (An automatic day counts against
  the allowance of the match's own server: host/away.py.)
* **Digest only needs a digest.** Choosing to be told by the digest only, without a digest hour,
  sets the hour to :data:`DIGEST_DEFAULT` (local); the digest cannot be turned off while it is
  the only way the player is told.
* **The turn** of an entry of ``/turns`` is the number of the move to be made, as ``/match log``
  counts the match's public moves (``host.texts.public_moves``): it is kept with the match row,
  so the list needs no replay of any match.
"""
from __future__ import annotations

import inspect
import logging
from dataclasses import dataclass, replace
from typing import Any, Awaitable, Callable, Union

from data.store import ACTIVE, CorruptRow, MatchRecord
from host.clocks import ClockError, notify, turns
from host.clocks import vacation as vac
from host.clocks.notify import NotifyError, NotifySettings
from host.clocks.vacation import Vacation, VacationError
from host.texts import public_moves
from host.types import Result

log = logging.getLogger("host.player_clock")

TURNS_MAX = 500          # the games one /turns lists (the store reads at most 1,000)
ROOM = 25                # the player's other unfinished matches read beside the waiting ones
DIGEST_DEFAULT = 9       # local hour of the digest when "digest only" is chosen without one
SETTING_KEYS = ("zone", "quiet", "how", "digest_hour")


@dataclass(frozen=True)
class Sight:
    """What the player may see of a server's match, as the front end decides it: ``visible``
    the server (its ``server`` name is shown), ``url`` a jump link to the match's channel
    (only where they may see that channel; None otherwise)."""

    visible: bool = False
    server: str | None = None
    url: str | None = None


HIDDEN = Sight()
# (guild id, channel id or None) -> what the player may see there; may be a coroutine
Seer = Callable[[int, Union[int, None]], Union[Sight, Awaitable[Sight]]]


@dataclass(frozen=True)
class VacationStatus:
    """``/vacation status``: the player's records that still count, at ``now``, against
    ``allowance`` days."""

    records: tuple[Vacation, ...]
    now: float
    allowance: int

    def text(self, locale: Any) -> str:
        return vac.status_text(self.records, self.now, self.allowance, locale)


@dataclass
class VacationChange:
    """A vacation started or ended: the record as stored, and the host's Results of the matches
    timed again (to be delivered like any other)."""

    record: Vacation
    results: list[Result]


class PlayerClock:
    """The host side of a player's own clock (see the module docstring)."""

    def __init__(self, host: Any) -> None:
        self.host = host

    @property
    def store(self) -> Any:
        return self.host.store

    # ------------------------------------------------------------------ settings
    async def settings(self, user_id: int) -> NotifySettings:
        """The player's settings; the defaults when none are stored or the stored ones are not
        valid (logged)."""
        return (await self._read_settings(user_id))[0]

    async def _read_settings(self, user_id: int) -> tuple[NotifySettings, dict]:
        raw = await self.store.get_player_settings(user_id)
        if not raw:
            return NotifySettings(), {}
        try:
            return NotifySettings.from_json({k: raw[k] for k in SETTING_KEYS if k in raw}), raw
        except (ClockError, TypeError, ValueError) as exc:
            log.warning("player %s: stored notification settings are not valid (%s); the defaults instead",
                        user_id, exc)
            return NotifySettings(), raw

    async def _save(self, user_id: int, raw: dict, settings: NotifySettings) -> NotifySettings:
        """Store ``settings``, keeping what else the row holds (keys that are not settings)."""
        await self.store.set_player_settings(
            user_id, {**{k: v for k, v in raw.items() if k not in SETTING_KEYS}, **settings.to_json()})
        return settings

    async def set_zone(self, user_id: int, text: Any) -> NotifySettings:
        """The time zone from what the player typed (an IANA name, a city, a common place)."""
        zone = notify.parse_zone(text)
        current, raw = await self._read_settings(user_id)
        return await self._save(user_id, raw, replace(current, zone=zone))

    async def set_quiet(self, user_id: int, text: Any) -> NotifySettings:
        """Quiet hours from what the player typed (``23:00-07:00``; ``off`` for none)."""
        quiet = notify.parse_quiet(text)
        current, raw = await self._read_settings(user_id)
        return await self._save(user_id, raw, replace(current, quiet=quiet))

    async def set_how(self, user_id: int, how: Any) -> NotifySettings:
        """How to be told it is their turn: ``ping``, ``dm`` or ``digest`` (only); digest only
        without a digest hour sets it to :data:`DIGEST_DEFAULT`."""
        how = notify.parse_how(how)
        current, raw = await self._read_settings(user_id)
        new = replace(current, how=how)
        if how == "digest" and new.digest_hour is None:
            new = replace(new, digest_hour=DIGEST_DEFAULT)
        return await self._save(user_id, raw, new)

    async def set_digest(self, user_id: int, text: Any) -> NotifySettings:
        """The local hour of the daily digest from what the player typed (``8``, ``8:00``,
        ``8am``, ``8時``; ``off`` for none); refused off while the digest is how they are told."""
        hour = notify.parse_digest_hour(str(text) if isinstance(text, int) and not isinstance(text, bool) else text)
        current, raw = await self._read_settings(user_id)
        if hour is None and current.how == "digest":
            raise NotifyError("clock_cmd.err.digest_needed")
        return await self._save(user_id, raw, replace(current, digest_hour=hour))

    # ------------------------------------------------------------------ vacations
    async def allowance(self, guild_id: int | None) -> int:
        """The vacation days per 365 days where the command is used (the server's
        ``vacation_days``; the default in a DM)."""
        return await self.host.allowance(guild_id)

    async def _records(self, user_id: int, now: float) -> list[Vacation]:
        return _vacations(user_id, await self.store.vacations(user_id, now - vac.WINDOW))

    async def vacation_status(self, user_id: int, guild_id: int | None) -> VacationStatus:
        now = self.host.now()
        records = await self._records(user_id, now)
        return VacationStatus(tuple(records), now, await self.allowance(guild_id))

    async def start_vacation(self, user_id: int, days: Any, guild_id: int | None) -> VacationChange:
        """``/vacation start [days]``: a vacation of whole days (1 when not said) from now, at most
        the days left of the allowance where it is used; refused while one runs.  Decided again
        inside the store's transaction, so of two starts at once one is stored."""
        now = self.host.now()
        allowance = await self.allowance(guild_id)
        record = vac.start(await self._records(user_id, now), now, days, allowance)

        def still(rows: list[dict]) -> bool:        # raises the refusal, told to the player
            again = vac.start(_vacations(user_id, rows), now, days, allowance)
            return again == record

        stored = await self.store.start_vacation(user_id, record.start, record.end, vac.ASKED,
                                                 allowance_check=still)
        if stored is None:                          # another start came first: say what it is
            fresh = await self._records(user_id, now)
            vac.start(fresh, now, days, allowance)
            raise VacationError("clock.vacation.err.running", until=int(max((r.end for r in fresh), default=now)))
        return VacationChange(record, await self._retime(user_id))

    async def end_vacation(self, user_id: int) -> VacationChange:
        """``/vacation end``: the running vacation ends now (it counts its whole days, rounded
        up); refused when none runs."""
        now = self.host.now()
        vac.end(await self._records(user_id, now), now)      # refused when none runs
        stored = await self.store.end_vacation(user_id, now)
        if stored is None:                          # it ended meanwhile
            raise VacationError("clock.vacation.err.not_running")
        record = Vacation(stored["start"], stored["end"], stored["how"])
        return VacationChange(record, await self._retime(user_id))

    async def _retime(self, user_id: int) -> list[Result]:
        """The player's waiting matches timed again on their new calendar (host/away.py); the
        vacation itself is stored whatever happens here."""
        try:
            return await self.host.vacation_changed(user_id)
        except Exception:
            log.exception("player %s: matches could not be timed again after a vacation change", user_id)
            return []

    # ------------------------------------------------------------------ /turns
    async def turns(self, user_id: int, sight: Seer | None = None, limit: int = TURNS_MAX) -> list[turns.Waiting]:
        """The games waiting on the player, ordered by time left (``host.clocks.turns.order``):
        one read of the waiting rows and one of the player's active matches (a waiting match
        the second read did not reach — one among more than :data:`ROOM` newer matches of the
        player that wait on others — is read on its own).  ``sight(guild_id, channel_id)`` says
        what the player may see of a server's match, asked once per channel; without it nothing
        of any server is shown."""
        rows = await self.store.waiting_for(user_id, limit=limit)
        if not rows:
            return []
        recs = {r.id: r for r in await self.store.matches_for_user(user_id, (ACTIVE,), len(rows) + ROOM)}
        for row in rows:
            mid = row["match_id"]
            if mid not in recs:
                try:
                    rec = await self.store.get_match(mid)
                except CorruptRow:
                    log.info("player %s: waiting match %s cannot be read and is left out", user_id, mid)
                    continue
                if rec is not None:
                    recs[mid] = rec
        seen: dict[tuple[int, int | None], Sight] = {}
        out: list[turns.Waiting] = []
        for row in rows:
            rec = recs.get(row["match_id"])
            if rec is None or rec.status != ACTIVE or int(user_id) not in rec.seats:
                continue                             # ended or left since the row was written
            guild_id = rec.guild_id if rec.guild_id is not None else row["guild_id"]
            if guild_id is None:
                look = Sight(True)                   # a match outside any server: the player's own
            elif sight is None:
                look = HIDDEN
            else:
                key = (int(guild_id), rec.channel_id)
                if key not in seen:
                    got = sight(*key)
                    seen[key] = await got if inspect.isawaitable(got) else got
                look = seen[key]
            out.append(turns.Waiting(
                match_id=rec.id, guild_id=guild_id, game=rec.game, opponents=tuple(opponents(rec, user_id)),
                turn=public_moves(rec) + 1, deadline=row["deadline"], bank_left=row["bank_left"],
                visible=look.visible, url=look.url if look.visible else None,
                event=rec.meta.get("league") is not None, server=look.server if look.visible else None))
        return turns.order(out)


def opponents(rec: MatchRecord, user_id: int) -> list[str]:
    """The names of the other seats of the match, in seat order, each once (open seats left
    out; the computer's seats of a practice match keep their own names)."""
    out: list[str] = []
    seen: set[tuple[int, str]] = set()
    for uid, name in zip(rec.seats, rec.names):
        if uid is None or int(uid) == int(user_id) or not name or (int(uid), name) in seen:
            continue
        seen.add((int(uid), name))
        out.append(name)
    return out


def _vacations(user_id: int, rows: list[dict]) -> list[Vacation]:
    out = []
    for r in rows:
        try:
            out.append(Vacation.from_json(r))
        except ClockError:
            log.warning("player %s: a vacation cannot be read and is skipped", user_id)
    return out


__all__ = ["PlayerClock", "Sight", "HIDDEN", "Seer", "VacationStatus", "VacationChange", "opponents",
           "TURNS_MAX", "DIGEST_DEFAULT"]
