"""An event in its server's Discord calendar (a guild scheduled event), pure and synchronous:
what the calendar entry should say and be now, what to change to get it there, and when and
whom to remind.  The front end (cogs/league_calendar.py) reads these answers and makes the
Discord calls; nothing here knows Discord, the store or the clock (``now`` is given).

The entry
---------
An event with a start time — the start set with ``/league-admin settings`` (the registration's
``start_at``), else when its sign-up closes (``signup_until``, from ``signup_hours``) — gets one
calendar entry in its server while it is in sign-up and the start is at least :data:`LEAD`
ahead:

* **name**: the event's name; **start**: its start; **place**: the league channel, by name
  (a scheduled event cannot be held in a text channel, so the entry is ``EXTERNAL`` with the
  channel as its ``location``); **description**: the game, format and rounds, how to sign up,
  and a link to the channel, in the server's language (:func:`entry`).
* **end** (Discord requires one for an external entry, and ends the entry by itself then):
  start + rounds × the round length (:func:`end_of`).  The rounds are the event's own once it
  has started (every round, the top cut's too); before the start they are the Swiss rounds the
  organiser set (with the top cut's), else one.  The round length is the event's round length in
  days, else its deadline hours, else one day.
* **status**, following the event (:func:`wanted_status`): SCHEDULED in sign-up, ACTIVE once it
  runs, COMPLETED when it has finished; called off before it ran (closed during sign-up, or too
  few players at the start) CANCELED; closed while it ran, COMPLETED (Discord has no way back
  from ACTIVE to CANCELED).  Discord's own steps are followed (:func:`path`): SCHEDULED → ACTIVE →
  COMPLETED, SCHEDULED → CANCELED; an entry Discord already started by itself at its start time
  (it does so for external entries) that should be cancelled is deleted instead — the event
  never took place.  A COMPLETED or CANCELED entry is never touched again.

The league keeps its entry's bookkeeping in its document, under :data:`KEY` (no table of its
own): ``id`` (the scheduled event), ``shown`` (the fields and status last sent, so a change is
sent once and an unchanged event costs no call), ``made_at``, ``told`` (when the organiser was
told the bot lacks the Manage Events permission: once per event), ``refused`` (what Discord
refused last: not asked again until the event changes), ``gone`` (the entry is over,
or was deleted by hand: nothing more to do), ``reminded`` (the members reminded) and
``reminded_for`` (the close of sign-up the last reminder round was for).

Reminders
---------
Members who marked the entry "interested" and have not signed up (registered or on the waiting
list) are reminded by DM once each, before sign-up closes (:func:`remind_at`): a day before the
close, or half the time between the entry's making and the close when that is shorter.  A
start moved later opens a new round for members not reminded yet.

>>> d = {"name": "Cup", "game": "squares", "format": "swiss", "rounds": 3, "cut": 0,
...      "deadline_hours": 48, "signup_until": 10_000_000.0, "players": []}
>>> end_of(d, "signup", start_of(d)) - start_of(d) == 3 * 48 * 3600
True
>>> wanted_status("signup", d), wanted_status("closed", dict(d, closed_from="running"))
(1, 3)
>>> path(SCHEDULED, COMPLETED), path(ACTIVE, CANCELED)
([2, 3], None)
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable

from data import i18n
from host.events.document import round_seconds
from host.events.stages import total_rounds

KEY = "calendar"
SCHEDULED, ACTIVE, COMPLETED, CANCELED = 1, 2, 3, 4
FINAL = (COMPLETED, CANCELED)
# Discord's limits of a scheduled event
NAME_MAX, DESCRIPTION_MAX, LOCATION_MAX = 100, 1000, 100
LEAD = 60.0                 # s: an entry is made only for a start at least this far ahead
END_MARGIN = 300.0          # s: an end sent to Discord is at least this far after now and the start
DAY = 86400.0
REMIND_LEAD = DAY           # the reminder: a day before sign-up closes …
REMIND_MAX = 100            # … to at most this many members per round (one page of Discord's list)
FIELDS = ("name", "start", "end", "location", "description")


# ---------------------------------------------------------------------------- the document
def state(d: dict) -> dict:
    """The league's calendar bookkeeping (a copy; empty for a league without an entry)."""
    return dict(d.get(KEY) or {})


def record(d: dict, **changes: Any) -> None:
    """Store calendar bookkeeping in the league document (``None`` removes a key); ``reminded``
    adds to the members already reminded."""
    st = dict(d.get(KEY) or {})
    for k, v in changes.items():
        if k == "reminded":
            st["reminded"] = sorted(set(st.get("reminded") or []) | {int(u) for u in v})
        elif v is None:
            st.pop(k, None)
        else:
            st[k] = v
    d[KEY] = st


def start_of(d: dict) -> float | None:
    """The event's start: the start time set for it, else when its sign-up closes; None without
    either (no calendar entry)."""
    at = (d.get("registration") or {}).get("start_at") or d.get("signup_until")
    return float(at) if at else None


def round_length(d: dict) -> float:
    """A round's length in seconds: the round length in days, else the deadline hours, else a day."""
    return float(round_seconds(d) or DAY)


def planned_rounds(d: dict, status: str) -> int:
    """How many rounds the entry spans: the event's own once started (every round, the top
    cut's too); before the start the Swiss rounds the organiser set and the top cut's, else 1."""
    if status != "signup":
        n = total_rounds(d)
    elif d.get("format") == "swiss" and d.get("rounds"):
        cut = int(d.get("cut") or 0)
        n = int(d["rounds"]) + (math.ceil(math.log2(cut)) if cut > 1 else 0)
    else:
        n = 1
    return max(1, int(n))


def end_of(d: dict, status: str, start: float) -> float:
    """The entry's end: start + rounds × round length (module doc)."""
    return float(start) + planned_rounds(d, status) * round_length(d)


def wanted_status(status: str, d: dict) -> int:
    """The entry's status for an event in ``status`` (module doc)."""
    if status == "signup":
        return SCHEDULED
    if status == "running":
        return ACTIVE
    if status == "finished":
        return COMPLETED
    return CANCELED if d.get("closed_from", "signup") == "signup" else COMPLETED


def path(live: int, target: int) -> list[int] | None:
    """The statuses to set, in order, to take an entry from ``live`` to ``target`` by Discord's
    transitions; ``[]`` when there is nothing to do (already there, over, or no way back); None
    when it can only be deleted (started by Discord, but the event was called off)."""
    if live in FINAL or live == target:
        return []
    if live == SCHEDULED:
        return {ACTIVE: [ACTIVE], COMPLETED: [ACTIVE, COMPLETED], CANCELED: [CANCELED]}.get(target, [])
    if live == ACTIVE:
        if target == COMPLETED:
            return [COMPLETED]
        if target == CANCELED:
            return None
    return []


# ---------------------------------------------------------------------------- what the entry says
@dataclass(frozen=True)
class Entry:
    """What the calendar entry should be now (times in seconds since the epoch)."""

    name: str
    start: float
    end: float
    location: str
    description: str
    status: int

    def fields(self) -> dict[str, Any]:
        return {"name": self.name, "start": self.start, "end": self.end, "location": self.location,
                "description": self.description}

    def shown(self) -> dict[str, Any]:
        """What the bookkeeping keeps of it (``shown``)."""
        return dict(self.fields(), status=self.status)


def _clip(text: str, limit: int, *, lines: bool = False) -> str:
    """``text`` in at most ``limit`` characters (ending with "…" when cut); one line unless
    ``lines`` (Discord's name and place are one line)."""
    text = str(text or "").strip() if lines else " ".join(str(text or "").split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _rounds_words(d: dict, locale: str, status: str) -> str:
    if status != "signup":
        return i18n.t("leagues.embed.rounds", locale, n=planned_rounds(d, status))
    if d.get("format") == "swiss" and d.get("rounds"):
        if d.get("cut"):
            return i18n.t("leagues.embed.rounds_cut", locale, rounds=int(d["rounds"]), cut=int(d["cut"]))
        return i18n.t("leagues.embed.rounds", locale, n=int(d["rounds"]))
    return i18n.t("leagues.embed.rounds_later", locale)


def entry(d: dict, status: str, *, locale: str, channel: str | None, link: str | None,
          words: Callable[[Any], str] = str) -> Entry | None:
    """The entry for the event as it stands, None when it has no start.  ``channel``: the league
    channel's name (None: unknown — the place is then the ``link``); ``link``: the channel's
    address; ``words``: how the front end makes a channel name safe for the description (its
    markdown); the name and the place are plain text in Discord and are sent as typed."""
    start = start_of(d)
    if start is None:
        return None
    where = i18n.t("calendar.location", locale, channel=channel) if channel else (link or "-")
    description = i18n.t("calendar.description", locale, game=i18n.t(f"game.{d.get('game')}", locale),
                         format=i18n.t(f"leagues.format.{d.get('format')}", locale),
                         rounds=_rounds_words(d, locale, status),
                         channel=words(channel) if channel else "-", link=link or "")
    name = _clip(d.get("name") or "-", NAME_MAX) or "-"
    return Entry(name=name, start=float(start), end=end_of(d, status, start), location=_clip(where, LOCATION_MAX),
                 description=_clip(description, DESCRIPTION_MAX, lines=True), status=wanted_status(status, d))


# ---------------------------------------------------------------------------- what to do
def action(d: dict, status: str, now: float, want: Entry | None, *, permitted: bool) -> str:
    """What the front end should do now: ``"create"`` (a new entry), ``"update"`` (fetch the
    entry and bring it in step: :func:`changes`), ``"tell"`` (the bot may not manage events and
    the organiser was not told yet: tell them once), or ``"none"``.

    An entry is made only in sign-up, for a start at least :data:`LEAD` ahead; once made it is
    followed until it is over (``gone``).  A start cleared while in sign-up calls it off."""
    st = state(d)
    if st.get("gone"):
        return "none"
    target = want.shown() if want is not None else {"status": CANCELED}
    if st.get("refused") == target:
        return "none"           # Discord refused exactly this: not asked again until the event changes
    if not st.get("id"):
        if want is None or status != "signup" or want.start < now + LEAD:
            return "none"
        return "create" if permitted else ("none" if st.get("told") else "tell")
    if st.get("shown") == target:
        return "none"
    return "update" if permitted else ("none" if st.get("told") else "tell")


def sendable_end(want: Entry, now: float) -> float:
    """The end sent to Discord: the planned end, but never before now or the start (a late
    event's estimate has passed; Discord refuses an end before its start)."""
    return max(want.end, now + END_MARGIN, want.start + END_MARGIN)


def changes(want: Entry | None, live: dict, now: float) -> dict[str, Any]:
    """How to bring a live entry in step with ``want`` (None: the start was cleared — call it
    off).  ``live``: the entry as Discord has it now (``status``, ``name``, ``start``, ``end``,
    ``location``, ``description``).  Returns ``{"fields": {field: value}, "statuses": [status,
    …], "delete": bool, "gone": bool}``: the fields to edit (while SCHEDULED every one; once
    ACTIVE all but the start), then the statuses to set in order; ``delete`` when it can only be
    deleted; ``gone`` when the entry is over afterwards."""
    target = want.status if want is not None else CANCELED
    status = int(live.get("status") or SCHEDULED)
    steps = path(status, target)
    out: dict[str, Any] = {"fields": {}, "statuses": [], "delete": False, "gone": False}
    if status in FINAL:
        out["gone"] = True
        return out
    if steps is None:
        out["delete"] = out["gone"] = True
        return out
    if want is not None and target != CANCELED:
        for k in FIELDS:
            if k == "start" and status != SCHEDULED:
                continue            # Discord keeps the start of an entry that has begun
            value = getattr(want, k)
            if k in ("start", "end"):
                differs = live.get(k) is None or abs(float(live[k]) - float(value)) >= 1
            else:
                differs = live.get(k) != value
            if differs:
                out["fields"][k] = sendable_end(want, now) if k == "end" else value
    out["statuses"] = steps
    out["gone"] = bool(steps) and steps[-1] in FINAL
    return out


def settled(want: Entry | None, done: dict) -> dict[str, Any]:
    """The bookkeeping to :func:`record` once the front end applied ``done`` (:func:`changes`):
    what the entry now shows, and whether it is over.  An entry called off because the start was
    cleared is forgotten instead, so that a new start makes a new entry (the members reminded
    stay reminded)."""
    if want is None and done["gone"]:
        return {"id": None, "shown": None, "made_at": None, "reminded_for": None}
    shown = want.shown() if want is not None else {"status": CANCELED}
    return {"shown": shown, "gone": True} if done["gone"] else {"shown": shown}


# ---------------------------------------------------------------------------- reminders
def signed_up(d: dict) -> set[int]:
    """Everyone signed up: the players in, and everyone in the registration (the waiting list too)."""
    ids = {int(p["id"]) for p in d.get("players") or [] if p.get("status") == "active"}
    ids |= {int(e["id"]) for e in (d.get("registration") or {}).get("entries") or []
            if e.get("status") in ("registered", "waiting", "active")}
    return ids


def remind_at(d: dict) -> float | None:
    """When the interested members are reminded: :data:`REMIND_LEAD` before sign-up closes, or
    half the time from the entry's making to the close when that is shorter; None without an
    entry or a close."""
    st = state(d)
    close = d.get("signup_until")
    made = st.get("made_at")
    if not st.get("id") or close is None or made is None:
        return None
    lead = min(REMIND_LEAD, max(0.0, (float(close) - float(made)) / 2))
    return float(close) - lead


def reminder_due(d: dict, status: str, now: float) -> bool:
    """Whether a reminder round is due now: in sign-up, with a live entry, at or after
    :func:`remind_at` and before the close, and not yet done for this close."""
    st = state(d)
    at = remind_at(d)
    if status != "signup" or st.get("gone") or at is None:
        return False
    close = float(d["signup_until"])
    return at <= now < close and st.get("reminded_for") != close


def to_remind(d: dict, interested: list[int], *, skip: set[int] | None = None) -> list[int]:
    """Of the members marked interested (in Discord's order), those to remind now: not signed
    up, not reminded before, not ``skip`` (the bot itself), each once, at most
    :data:`REMIND_MAX`."""
    done = {int(u) for u in state(d).get("reminded") or []} | signed_up(d) | set(skip or ())
    out = [u for u in dict.fromkeys(int(u) for u in interested) if u not in done]
    return out[:REMIND_MAX]
