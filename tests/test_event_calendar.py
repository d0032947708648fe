"""The server's calendar entry of an event (host/events/calendar.py), pure: each test's docstring
quotes the rule it checks ("Events in the calendar")."""
from __future__ import annotations

import copy

import pytest

from data import i18n
from host import leagues as LG
from host.events import calendar as CAL
from host.events import entry as E

NOW = 1_800_000_000.0
HOUR, DAY = 3600.0, 86400.0


def league(**kw) -> dict:
    d = LG.new_league(name="Spring Cup", game="squares", fmt="swiss", rounds=3, deadline_hours=48, rated=True,
                      signup_hours=None, organiser=7, channel_id=55, season=1, now=NOW, locale="en")
    d.update(kw)
    return d


def with_start(d: dict, at: float) -> dict:
    E.configure(d, "signup", NOW, start_at=at)
    return d


def entry(d: dict, status: str = "signup", locale: str = "en", channel: str | None = "tournaments") -> CAL.Entry:
    return CAL.entry(d, status, locale=locale, channel=channel, link="https://discord.com/channels/1/55")


# ---------------------------------------------------------------------------- the entry
def test_an_event_with_a_start_time_has_an_entry_with_its_name_time_place_and_description():
    """"An event with a start time creates a Discord guild scheduled event in its server: name
    (the event's name), start time, the league channel as its place (… entity type EXTERNAL with
    ``location`` naming the channel, and an end time …), a description in the server's language"."""
    d = with_start(league(), NOW + 2 * DAY)
    e = entry(d)
    assert e.name == "Spring Cup" and e.start == NOW + 2 * DAY
    assert e.location == "#tournaments"
    assert e.end == e.start + 3 * 48 * HOUR                 # 3 Swiss rounds of 48 hours
    assert e.status == CAL.SCHEDULED
    assert "SQUARES" in e.description and "Swiss" in e.description and "3 rounds" in e.description
    assert "https://discord.com/channels/1/55" in e.description
    ja = entry(d, locale="ja")
    assert "スイス式" in ja.description and "全3回戦" in ja.description and "Sign up" not in ja.description
    assert ja.description.splitlines()[1] == i18n.t("calendar.description", "ja", game="", format="", rounds="",
                                                    channel="tournaments", link="").splitlines()[1]


def test_no_start_no_entry_and_sign_up_hours_count_as_the_start():
    """"with a start time (``/league-admin settings`` start time; sign-up closes then or by
    ``signup_hours``)"."""
    assert entry(league()) is None
    d = league(signup_until=NOW + 5 * HOUR)
    assert entry(d).start == NOW + 5 * HOUR
    with_start(d, NOW + 9 * HOUR)           # a start set later wins (sign-up then runs until it)
    assert entry(d).start == NOW + 9 * HOUR == d["signup_until"]


def test_the_end_is_start_plus_rounds_times_the_round_length_or_a_day():
    """"choose a sensible end, e.g. start + rounds × round length or + 1 day, and document it":
    before the start the Swiss rounds set (with the top cut's), else one round; the round length
    is the event's round days, else its deadline hours, else a day; once started, every round."""
    start = NOW + DAY
    assert CAL.end_of(with_start(league(), start), "signup", start) == start + 3 * 48 * HOUR
    cut = with_start(league(cut=4), start)                  # a top 4: two more rounds
    assert CAL.end_of(cut, "signup", start) == start + 5 * 48 * HOUR
    rr = with_start(league(format="rr", rounds=None), start)
    assert CAL.end_of(rr, "signup", start) == start + 48 * HOUR
    days = with_start(league(clock={"round_days": 3}), start)
    assert CAL.end_of(days, "signup", start) == start + 3 * 3 * DAY
    none = with_start(league(format="rr", rounds=None, deadline_hours=0), start)
    assert CAL.end_of(none, "signup", start) == start + DAY
    running = league(format="rr", rounds=None, schedule=[[], [], [], [], []])    # six players: five rounds
    assert CAL.end_of(running, "running", start) == start + 5 * 48 * HOUR


def test_long_names_and_places_fit_discords_limits():
    """"Discord's field limits: name 1–100, description ≤ 1000, external needs location ≤ 100"."""
    d = with_start(league(name="x" * 300), NOW + DAY)
    e = entry(d, channel="c" * 300)
    assert len(e.name) == 100 and e.name.endswith("…")
    assert len(e.location) == 100 and len(e.description) <= 1000
    unknown = entry(d, channel=None)        # a channel the cache does not know: its link is the place
    assert unknown.location == "https://discord.com/channels/1/55"


def test_the_status_follows_the_event_by_discords_transitions():
    """"Kept in step … ended (status COMPLETED) when the event ends, cancelled (status CANCELED)
    when it is called off/closed early"; "status transitions SCHEDULED→ACTIVE→COMPLETED,
    SCHEDULED→CANCELED only"."""
    d = league()
    assert CAL.wanted_status("signup", d) == CAL.SCHEDULED
    assert CAL.wanted_status("running", d) == CAL.ACTIVE
    assert CAL.wanted_status("finished", d) == CAL.COMPLETED
    assert CAL.wanted_status("closed", dict(d, closed_from="signup")) == CAL.CANCELED       # called off
    assert CAL.wanted_status("closed", dict(d, closed_from="signup", cancelled="too_few")) == CAL.CANCELED
    assert CAL.wanted_status("closed", dict(d, closed_from="running")) == CAL.COMPLETED     # ended early
    assert CAL.path(CAL.SCHEDULED, CAL.ACTIVE) == [CAL.ACTIVE]
    assert CAL.path(CAL.SCHEDULED, CAL.COMPLETED) == [CAL.ACTIVE, CAL.COMPLETED]
    assert CAL.path(CAL.SCHEDULED, CAL.CANCELED) == [CAL.CANCELED]
    assert CAL.path(CAL.ACTIVE, CAL.COMPLETED) == [CAL.COMPLETED]
    assert CAL.path(CAL.ACTIVE, CAL.CANCELED) is None             # Discord started it: only deleted
    assert CAL.path(CAL.ACTIVE, CAL.SCHEDULED) == []              # no way back
    for over in CAL.FINAL:
        assert all(CAL.path(over, t) == [] for t in (1, 2, 3, 4))


# ---------------------------------------------------------------------------- what to do
def test_an_entry_is_made_once_in_sign_up_for_a_start_ahead():
    """"An event with a start time creates a Discord guild scheduled event": made once, in
    sign-up, when the start is ahead (Discord refuses a start in the past)."""
    d = with_start(league(), NOW + DAY)
    assert CAL.action(d, "signup", NOW, entry(d), permitted=True) == "create"
    assert CAL.action(d, "running", NOW, entry(d, "running"), permitted=True) == "none"
    assert CAL.action(d, "signup", NOW + DAY - 30, entry(d), permitted=True) == "none"
    CAL.record(d, id=99, shown=entry(d).shown(), made_at=NOW)
    assert CAL.action(d, "signup", NOW, entry(d), permitted=True) == "none"     # unchanged: no call


def test_the_entry_moves_when_the_organiser_changes_the_start_or_the_name():
    """"Kept in step when the organiser changes the start time (or name)"."""
    d = with_start(league(), NOW + DAY)
    CAL.record(d, id=99, shown=entry(d).shown(), made_at=NOW)
    moved = with_start(copy.deepcopy(d), NOW + 3 * DAY)
    assert CAL.action(moved, "signup", NOW, entry(moved), permitted=True) == "update"
    live = {"status": CAL.SCHEDULED, **{k: v for k, v in entry(d).fields().items()}}
    done = CAL.changes(entry(moved), live, NOW)
    assert done["fields"] == {"start": NOW + 3 * DAY, "end": NOW + 3 * DAY + 3 * 48 * HOUR}
    assert done["statuses"] == [] and not done["gone"] and not done["delete"]
    renamed = dict(d, name="Summer Cup")
    assert CAL.changes(entry(renamed), live, NOW)["fields"] == {"name": "Summer Cup"}
    assert CAL.settled(entry(moved), done) == {"shown": entry(moved).shown()}


def test_the_start_of_an_event_makes_the_entry_active_with_its_real_rounds():
    """"ended … when the event ends": on the way the entry goes ACTIVE when the event starts, its
    end set by the event's own rounds; an ACTIVE entry's start is never sent again."""
    d = with_start(league(format="rr", rounds=None), NOW + DAY)
    signup = entry(d)
    live = {"status": CAL.SCHEDULED, **signup.fields()}
    d["schedule"] = [[], [], []]                     # four players: three rounds
    running = entry(d, "running")
    done = CAL.changes(running, live, NOW + DAY)
    assert done["statuses"] == [CAL.ACTIVE] and not done["gone"]
    assert done["fields"] == {"end": running.start + 3 * 48 * HOUR, "description": running.description}
    live_active = dict(live, status=CAL.ACTIVE, start=NOW + 5)             # Discord started it itself
    assert "start" not in CAL.changes(running, live_active, NOW + DAY)["fields"]


def test_an_end_already_past_is_sent_a_little_after_now():
    """An external entry needs an end after its start; an event running late is not ended by a
    past estimate."""
    d = with_start(league(), NOW + DAY)
    want = entry(d, "running")
    late = want.end + 7 * DAY
    live = {"status": CAL.ACTIVE, **dict(want.fields(), end=want.end - 1)}
    assert CAL.changes(want, live, late)["fields"]["end"] == late + CAL.END_MARGIN


def test_ended_and_called_off_entries():
    """"ended (status COMPLETED) when the event ends, cancelled (status CANCELED) when it is
    called off/closed early"; an entry Discord already started cannot be cancelled (ACTIVE →
    CANCELED is no transition): it is deleted; a COMPLETED or CANCELED one is left as it is."""
    d = with_start(league(), NOW + DAY)
    live = {"status": CAL.ACTIVE, **entry(d, "running").fields()}
    finished = CAL.changes(entry(d, "finished"), live, NOW)
    assert finished["statuses"] == [CAL.COMPLETED] and finished["gone"] and finished["fields"] == {}
    closed = dict(d, closed_from="signup")
    called_off = CAL.changes(entry(closed, "closed"), dict(live, status=CAL.SCHEDULED), NOW)
    assert called_off["statuses"] == [CAL.CANCELED] and called_off["gone"] and called_off["fields"] == {}
    too_late = CAL.changes(entry(closed, "closed"), live, NOW)
    assert too_late["delete"] and too_late["gone"]
    over = CAL.changes(entry(d, "finished"), dict(live, status=CAL.CANCELED), NOW)
    assert over == {"fields": {}, "statuses": [], "delete": False, "gone": True}
    assert CAL.settled(entry(d, "finished"), finished)["gone"] is True


def test_a_cleared_start_calls_the_entry_off_and_a_new_start_makes_a_new_one():
    """"Kept in step when the organiser changes the start time": cleared, the entry is called
    off; set again, a new entry is made (the members reminded stay reminded)."""
    d = with_start(league(), NOW + DAY)
    CAL.record(d, id=99, shown=entry(d).shown(), made_at=NOW, reminded=[5])
    E.configure(d, "signup", NOW, start_at=None)
    assert entry(d) is None
    assert CAL.action(d, "signup", NOW, None, permitted=True) == "update"
    done = CAL.changes(None, {"status": CAL.SCHEDULED}, NOW)
    assert done["statuses"] == [CAL.CANCELED] and done["gone"]
    CAL.record(d, **CAL.settled(None, done))
    assert CAL.state(d) == {"reminded": [5]}
    with_start(d, NOW + 2 * DAY)
    assert CAL.action(d, "signup", NOW, entry(d), permitted=True) == "create"


def test_without_manage_events_the_organiser_is_told_once():
    """"Needs only the Manage Events permission; without it, the event works as today and the
    organiser is told once (stored, so not on every change)"."""
    d = with_start(league(), NOW + DAY)
    assert CAL.action(d, "signup", NOW, entry(d), permitted=False) == "tell"
    CAL.record(d, told=NOW)
    assert CAL.action(d, "signup", NOW, entry(d), permitted=False) == "none"
    with_start(d, NOW + 2 * DAY)                     # a change later: still told only once
    assert CAL.action(d, "signup", NOW, entry(d), permitted=False) == "none"
    assert CAL.action(d, "signup", NOW, entry(d), permitted=True) == "create"     # the permission given since


def test_what_discord_refused_is_not_asked_again_until_the_event_changes():
    """Discord refusing an entry is not asked the same every minute of the clock."""
    d = with_start(league(), NOW + DAY)
    CAL.record(d, refused=entry(d).shown())
    assert CAL.action(d, "signup", NOW, entry(d), permitted=True) == "none"
    with_start(d, NOW + 2 * DAY)
    assert CAL.action(d, "signup", NOW, entry(d), permitted=True) == "create"


def test_an_entry_deleted_or_over_is_left_alone():
    """A COMPLETED, CANCELED or deleted entry (``gone``) is never touched again."""
    d = with_start(league(), NOW + DAY)
    CAL.record(d, id=99, gone=True)
    assert CAL.action(d, "signup", NOW, entry(d), permitted=True) == "none"
    assert CAL.action(d, "finished", NOW, entry(d, "finished"), permitted=False) == "none"


# ---------------------------------------------------------------------------- reminders
def test_the_reminder_comes_a_day_before_sign_up_closes_or_halfway_when_sooner():
    """"Members marked "interested" get a DM reminder to register before sign-up closes (once
    each, a set time before close — e.g. 24 h or half the remaining time if shorter …)"."""
    d = with_start(league(), NOW + 5 * DAY)
    assert CAL.remind_at(d) is None                          # no entry yet
    CAL.record(d, id=99, made_at=NOW)
    assert CAL.remind_at(d) == NOW + 4 * DAY
    soon = with_start(league(), NOW + 6 * HOUR)
    CAL.record(soon, id=99, made_at=NOW)
    assert CAL.remind_at(soon) == NOW + 3 * HOUR
    assert not CAL.reminder_due(d, "signup", NOW + 4 * DAY - 1)
    assert CAL.reminder_due(d, "signup", NOW + 4 * DAY)
    assert not CAL.reminder_due(d, "signup", NOW + 5 * DAY)          # sign-up has closed
    assert not CAL.reminder_due(d, "running", NOW + 4 * DAY)
    CAL.record(d, reminded_for=d["signup_until"])
    assert not CAL.reminder_due(d, "signup", NOW + 4 * DAY + HOUR)  # this round is done


def test_a_start_moved_later_opens_a_new_round_for_those_not_reminded_yet():
    """"once each": a later close brings a new round, but nobody is reminded twice."""
    d = with_start(league(), NOW + 2 * DAY)
    CAL.record(d, id=99, made_at=NOW, reminded=[11], reminded_for=d["signup_until"])
    with_start(d, NOW + 4 * DAY)
    assert CAL.reminder_due(d, "signup", NOW + 3 * DAY)
    assert CAL.to_remind(d, [11, 12]) == [12]


def test_only_interested_members_not_yet_signed_up_are_reminded_once_each():
    """"only those not yet registered": the players in and the waiting list are left out, and
    so is the bot; each member once, at most one page of Discord's list."""
    d = with_start(league(), NOW + 2 * DAY)
    E.configure(d, "signup", NOW, cap=2)
    for uid in (1, 2, 3):
        LG.join(d, "signup", uid, f"p{uid}", NOW)          # 3 is on the waiting list
    assert CAL.to_remind(d, [1, 2, 3, 4, 5, 5, 9], skip={9}) == [4, 5]
    CAL.record(d, reminded=[4])
    assert CAL.to_remind(d, [4, 5, 6]) == [5, 6]
    assert len(CAL.to_remind(league(), list(range(1000, 1300)))) == CAL.REMIND_MAX


@pytest.mark.parametrize("locale", ["en", "ja"])
def test_every_text_of_the_calendar_is_in_the_catalog_in_both_languages(locale):
    """Every user-facing string goes through the ja/en catalog."""
    for key in ("calendar.location", "calendar.description", "calendar.remind", "calendar.remind_channel",
                "calendar.no_permission", "calendar.no_permission_channel"):
        assert key in i18n.catalog(locale), key
    text = i18n.t("calendar.no_permission", locale, league=4, name="Cup")
    assert ("Manage Events" in text) if locale == "en" else ("`イベントの管理`" in text)
