"""Quiet hours and how a player is told (host/clocks/notify.py): time zones by IANA name, quiet
hours on the wall clock across midnight and daylight-saving changes, the daily digest, the
reminder policy."""
from __future__ import annotations

from datetime import datetime, timezone
from zoneinfo import ZoneInfo

import pytest

from host.clocks import notify as n
from host.clocks.notify import NotifyError, NotifySettings

HOUR = 3600


def local(zone: str, *when: int, fold: int = 0) -> float:
    """The instant a wall clock in ``zone`` reads ``when`` (year, month, day, hour, minute)."""
    return datetime(*when, tzinfo=ZoneInfo(zone), fold=fold).timestamp()


def utc(*when: int) -> float:
    return datetime(*when, tzinfo=timezone.utc).timestamp()


def quiet(zone: str, text: str, **kw) -> NotifySettings:
    return NotifySettings(zone=zone, quiet=n.parse_quiet(text), **kw)


# --------------------------------------------------------------------------- time zones
def test_time_zones_by_iana_name_with_autocomplete():
    """"a time zone (IANA names with autocomplete, e.g. `Asia/Tokyo`)": up to 25 names for a typed
    prefix, any case, by the whole name or its city, and common places that name no zone."""
    assert n.zone_choices("tok")[0] == "Asia/Tokyo"
    assert n.zone_choices("TOKYO") == ["Asia/Tokyo"]
    assert n.zone_choices("new y")[0] == "America/New_York"
    assert n.zone_choices("Osaka") == ["Asia/Tokyo"] and n.zone_choices("東京") == ["Asia/Tokyo"]
    europe = n.zone_choices("europe/")
    assert len(europe) == 25 and all(z.startswith("Europe/") for z in europe) and europe == sorted(europe)
    assert n.zone_choices("america/new_") == ["America/New_York"]
    assert "Asia/Tokyo" in n.zone_choices("") and len(n.zone_choices("")) <= 25
    assert n.zone_choices("x" * 500) == [] and n.zone_choices("zzzz") == []
    assert not any(z.startswith(("US/", "Etc/", "posix")) for z in n.zone_choices("u"))
    assert [n.parse_zone(t) for t in ("Asia/Tokyo", "asia/tokyo", " Tokyo ", "new york", "東京", "UTC", "US/Eastern")] \
        == ["Asia/Tokyo"] * 3 + ["America/New_York", "Asia/Tokyo", "UTC", "US/Eastern"]


def test_a_bad_time_zone_is_refused_with_its_text_and_length_first():
    """Bad input is refused with a localizable error (its length checked before anything else)."""
    for bad in ("Mars/Olympus", "", "../../etc/passwd", "Asia/Tokyo" * 100, None, 9):
        with pytest.raises(NotifyError) as exc:
            n.parse_zone(bad)
        assert exc.value.key == "clock.notify.err.zone" and len(exc.value.params["zone"]) <= 64
    with pytest.raises(NotifyError) as exc:
        n.parse_zone("Mars/Olympus")
    assert exc.value.text("ja").startswith("「Mars/Olympus」はタイムゾーンとして読めません。")


# --------------------------------------------------------------------------- settings
def test_settings_round_trip_through_json_and_are_checked():
    """"Per player: a time zone …, quiet hours …, and how to be told that it is their turn:
    thread ping, DM, or digest only"; an optional daily digest at a local hour."""
    s = NotifySettings(zone="Asia/Tokyo", quiet=(23 * 60, 7 * 60 + 30), how="dm", digest_hour=8)
    assert s.to_json() == {"zone": "Asia/Tokyo", "quiet": "23:00-07:30", "how": "dm", "digest_hour": 8}
    assert NotifySettings.from_json(s.to_json()) == s
    assert NotifySettings.from_json({}) == NotifySettings()
    cases = [({"zone": "Asia/Nowhere"}, "clock.notify.err.zone"), ({"zone": "asia/tokyo"}, "clock.notify.err.zone"),
             ({"how": "carrier pigeon"}, "clock.notify.err.how"), ({"digest_hour": 24}, "clock.notify.err.digest_hour"),
             ({"digest_hour": True}, "clock.notify.err.digest_hour"), ({"quiet": "7-7"}, "clock.notify.err.quiet_same"),
             ({"quiet": "nope"}, "clock.notify.err.quiet_format"), ([], "clock.notify.err.settings")]
    for data, key in cases:
        with pytest.raises(NotifyError) as exc:
            NotifySettings.from_json(data)
        assert exc.value.key == key, data
    with pytest.raises(NotifyError):
        NotifySettings(quiet=(0, 1440))


def test_quiet_hours_text_in_both_languages_and_located_errors():
    """Quiet hours typed as a player would ("23:00-07:30", "23時〜7時半"), full-width digits
    too; an error says which part (the start or the end) is not a time; the length first."""
    said = {"23:00-07:30": (1380, 450), "23-7": (1380, 420), "11pm to 7:30am": (1380, 450),
            "23時〜7時半": (1380, 450), "２３：００～０７：３０": (1380, 450), "午後11時から午前7時": (1380, 420),
            "22:15 – 6:05": (1335, 365), "0-24": None, "12am-6am": (0, 360), "13:00-24:00": (780, 0),
            "off": None, "なし": None}
    for text, want in said.items():
        if want is None and text == "0-24":
            with pytest.raises(NotifyError) as exc:
                n.parse_quiet(text)
            assert exc.value.key == "clock.notify.err.quiet_same"
            continue
        assert n.parse_quiet(text) == want, text
    refusals = {"25:00-07:00": ("clock.notify.err.quiet_start", {"part": "25:00"}),
                "23:00-7:75": ("clock.notify.err.quiet_end", {"part": "7:75"}),
                "13pm-7": ("clock.notify.err.quiet_start", {"part": "13pm"}),
                "23:00": ("clock.notify.err.quiet_format", {"text": "23:00"}),
                "-7": ("clock.notify.err.quiet_format", {"text": "-7"}),
                "1" * 41: ("clock.notify.err.quiet_long", {"max": 40}),
                "9" * 100_000: ("clock.notify.err.quiet_long", {"max": 40})}
    for text, (key, params) in refusals.items():
        with pytest.raises(NotifyError) as exc:
            n.parse_quiet(text)
        assert (exc.value.key, exc.value.params) == (key, params), text
    with pytest.raises(NotifyError) as exc:
        n.parse_quiet("23:00-7:75")
    assert exc.value.text("en") == ("The end of the quiet hours, “7:75”, is not a time of day: "
                                    "write it like 07:30 or 7am.")
    assert n.parse_digest_hour("8時") == 8 and n.parse_digest_hour("8pm") == 20 and n.parse_digest_hour("off") is None
    for bad in ("8:30", "25", "x" * 500):
        with pytest.raises(NotifyError):
            n.parse_digest_hour(bad)


# --------------------------------------------------------------------------- quiet hours
def test_quiet_hours_across_midnight_hold_until_they_end():
    """"quiet hours (no pings or DMs; what falls inside waits until they end unless a deadline
    comes first)" — a window that crosses midnight, 23:00–07:30."""
    s = quiet("Europe/Paris", "23:00-07:30")
    assert n.deliver_at(s, local("Europe/Paris", 2024, 6, 3, 22, 59)) == local("Europe/Paris", 2024, 6, 3, 22, 59)
    assert n.deliver_at(s, local("Europe/Paris", 2024, 6, 3, 23, 0)) == local("Europe/Paris", 2024, 6, 4, 7, 30)
    assert n.deliver_at(s, local("Europe/Paris", 2024, 6, 4, 2, 0)) == local("Europe/Paris", 2024, 6, 4, 7, 30)
    assert n.deliver_at(s, local("Europe/Paris", 2024, 6, 4, 7, 30)) == local("Europe/Paris", 2024, 6, 4, 7, 30)
    day = quiet("Europe/Paris", "13:00-14:00")       # a window inside one day
    assert n.deliver_at(day, local("Europe/Paris", 2024, 6, 4, 13, 20)) == local("Europe/Paris", 2024, 6, 4, 14, 0)
    assert n.deliver_at(NotifySettings(zone="Europe/Paris"), 5.0) == 5.0        # no quiet hours


def test_quiet_hours_across_a_dst_change_in_paris():
    """Quiet hours follow the wall clock on the nights the clocks change (Europe/Paris: 31 March
    2024 02:00 → 03:00, 27 October 2024 03:00 → 02:00): 07:30 local either way."""
    s = quiet("Europe/Paris", "23:00-07:30")
    spring = n.deliver_at(s, local("Europe/Paris", 2024, 3, 30, 23, 30))
    assert spring == utc(2024, 3, 31, 5, 30)          # 07:30 CEST
    autumn = n.deliver_at(s, local("Europe/Paris", 2024, 10, 26, 23, 30))
    assert autumn == utc(2024, 10, 27, 6, 30)         # 07:30 CET
    # the autumn night is an hour longer than the spring one, the window the same on the wall
    assert autumn - local("Europe/Paris", 2024, 10, 26, 23, 30) == spring - local("Europe/Paris", 2024, 3, 30, 23, 30) \
        + 2 * HOUR


def test_quiet_hours_across_a_dst_change_in_new_york():
    """America/New_York, 10 March 2024 02:00 → 03:00 and 3 November 2024 02:00 → 01:00: an end
    that does not exist (02:30) ends the window when the clocks jump; a repeated hour inside
    the window is quiet both times."""
    s = quiet("America/New_York", "01:00-02:30")
    assert n.deliver_at(s, local("America/New_York", 2024, 3, 10, 1, 15)) == utc(2024, 3, 10, 7, 0)   # 03:00 EDT
    s = quiet("America/New_York", "00:30-01:30")
    first = local("America/New_York", 2024, 11, 3, 1, 10, fold=0)             # 01:10 EDT
    assert n.deliver_at(s, first) == local("America/New_York", 2024, 11, 3, 1, 30, fold=0)
    again = local("America/New_York", 2024, 11, 3, 1, 10, fold=1)             # 01:10 EST, an hour later
    assert n.in_quiet(s, again) and n.deliver_at(s, again) == local("America/New_York", 2024, 11, 3, 1, 30, fold=1)
    s = quiet("America/New_York", "22:00-06:00")
    assert n.deliver_at(s, local("America/New_York", 2024, 11, 2, 23, 0)) == utc(2024, 11, 3, 11, 0)   # 06:00 EST


@pytest.mark.parametrize("zone, day", [("America/New_York", (2024, 3, 10)), ("America/New_York", (2024, 11, 3)),
                                       ("Europe/Paris", (2024, 3, 31)), ("Europe/Paris", (2024, 10, 27)),
                                       ("Australia/Lord_Howe", (2024, 4, 7)), ("Australia/Lord_Howe", (2024, 10, 6))])
@pytest.mark.parametrize("window", ["23:00-07:30", "01:00-02:30", "02:30-03:15", "00:00-02:00", "02:00-01:00"])
def test_the_end_of_quiet_hours_is_the_first_minute_outside_them(zone, day, window):
    """DST-correct: the held instant is exactly the first whole minute whose wall time is outside
    the window, checked minute by minute around each change (Lord Howe Island moves by half an
    hour)."""
    s = quiet(zone, window)
    start = datetime(*day, tzinfo=timezone.utc).timestamp() - 12 * HOUR
    for now in range(int(start), int(start) + 36 * HOUR, 37 * 60):
        held = n.deliver_at(s, float(now))
        if not n.in_quiet(s, now):
            assert held == now
            continue
        t = now - now % 60 + 60
        while n.in_quiet(s, t):
            t += 60
        assert held == t, (zone, window, now)


def test_a_notification_is_held_until_morning_in_tokyo_while_paris_is_told_at_once():
    """"quiet hours that hold a reminder until morning in `Asia/Tokyo` while the opponent is in
    `Europe/Paris`"."""
    tokyo = quiet("Asia/Tokyo", "23:00-07:30", how="dm")
    paris = quiet("Europe/Paris", "23:00-07:30")
    made = local("Asia/Tokyo", 2024, 6, 3, 23, 40)            # 16:40 in Paris
    assert n.deliver_at(tokyo, made) == local("Asia/Tokyo", 2024, 6, 4, 7, 30)
    assert n.deliver_at(paris, made) == made


def test_a_deadline_comes_first_deliver_an_hour_before_it():
    """"what falls inside waits until they end unless a deadline comes first": then at the later
    of now and the deadline − 1 h."""
    s = quiet("Asia/Tokyo", "23:00-07:30")
    now = local("Asia/Tokyo", 2024, 6, 3, 23, 40)
    morning = local("Asia/Tokyo", 2024, 6, 4, 7, 30)
    assert n.deliver_at(s, now, due_by=local("Asia/Tokyo", 2024, 6, 4, 5, 0)) == local("Asia/Tokyo", 2024, 6, 4, 4, 0)
    assert n.deliver_at(s, now, due_by=now + 30 * 60) == now                 # less than an hour: at once
    assert n.deliver_at(s, now, due_by=now - 60) == now                      # already past: at once
    assert n.deliver_at(s, now, due_by=morning + HOUR) == morning            # an hour after the quiet end: it waits
    assert n.deliver_at(s, now, due_by=morning + HOUR - 1) == morning - 1
    outside = local("Asia/Tokyo", 2024, 6, 3, 12, 0)
    assert n.deliver_at(s, outside, due_by=outside + 60) == outside


# --------------------------------------------------------------------------- digest
def test_the_daily_digest_at_the_chosen_local_hour():
    """"an optional daily digest DM at a local hour the player chooses"."""
    s = NotifySettings(zone="Asia/Tokyo", digest_hour=8)
    assert n.next_digest(s, local("Asia/Tokyo", 2024, 6, 3, 7, 0)) == local("Asia/Tokyo", 2024, 6, 3, 8, 0)
    assert n.next_digest(s, local("Asia/Tokyo", 2024, 6, 3, 8, 0)) == local("Asia/Tokyo", 2024, 6, 4, 8, 0)
    assert n.next_digest(NotifySettings(zone="Asia/Tokyo"), 0.0) is None


def test_the_digest_hour_on_a_dst_day():
    """A digest hour that does not exist comes when the clocks jump past it; one that occurs
    twice comes the first time only (once per local day)."""
    skipped = NotifySettings(zone="America/New_York", digest_hour=2)
    assert n.next_digest(skipped, local("America/New_York", 2024, 3, 10, 0, 0)) == utc(2024, 3, 10, 7, 0)    # 03:00 EDT
    assert n.next_digest(skipped, utc(2024, 3, 10, 7, 0)) == local("America/New_York", 2024, 3, 11, 2, 0)
    twice = NotifySettings(zone="America/New_York", digest_hour=1)
    assert n.next_digest(twice, local("America/New_York", 2024, 11, 3, 0, 0)) == utc(2024, 11, 3, 5, 0)      # 01:00 EDT
    after = local("America/New_York", 2024, 11, 3, 1, 0, fold=1)                                            # 01:00 EST
    assert n.next_digest(twice, after - 1) == local("America/New_York", 2024, 11, 4, 1, 0)
    paris = NotifySettings(zone="Europe/Paris", digest_hour=8)
    assert n.next_digest(paris, local("Europe/Paris", 2024, 3, 31, 0, 0)) == utc(2024, 3, 31, 6, 0)         # 08:00 CEST


# --------------------------------------------------------------------------- reminders
def test_a_reminder_when_a_bank_runs_low_at_most_once_a_local_day():
    """"Reminders: when a bank will run out within a set share or hours, and when a vacation is
    about to end — at most one of each per match per day" (the player's own day)."""
    bank = 3 * 24 * HOUR
    now = local("Asia/Tokyo", 2024, 6, 3, 12, 0)
    assert not n.reminder_due(bank * 0.5, bank, 0.2, 12, None, now, "Asia/Tokyo")
    assert n.reminder_due(bank * 0.19, bank, 0.2, 12, None, now, "Asia/Tokyo")          # the share
    assert n.reminder_due(11 * HOUR, 100 * HOUR, 0.05, 12, None, now, "Asia/Tokyo")     # the hours
    assert not n.reminder_due(13 * HOUR, 100 * HOUR, 0.05, 12, None, now, "Asia/Tokyo")
    assert not n.reminder_due(0, bank, 0.2, 12, None, now, "Asia/Tokyo")               # out: the expiry's business
    assert not n.reminder_due(HOUR, bank, 0, 0, None, now, "Asia/Tokyo")               # both off
    sent = local("Asia/Tokyo", 2024, 6, 3, 0, 5)
    assert not n.reminder_due(HOUR, bank, 0.2, 12, sent, now, "Asia/Tokyo")
    assert n.reminder_due(HOUR, bank, 0.2, 12, sent, local("Asia/Tokyo", 2024, 6, 4, 0, 0), "Asia/Tokyo")
    # the same two instants are one UTC day apart but one day in Tokyo: the player's day counts
    a, b = local("Asia/Tokyo", 2024, 6, 3, 8, 0), local("Asia/Tokyo", 2024, 6, 3, 10, 0)    # 23:00, 01:00 UTC
    assert not n.reminder_due(HOUR, bank, 0.2, 12, a, b, "Asia/Tokyo") and n.reminder_due(HOUR, bank, 0.2, 12, a, b)


def test_a_vacation_ending_reminder_once_a_day():
    end = local("Europe/Paris", 2024, 6, 5, 18, 0)
    assert not n.vacation_reminder_due(end, None, end - 30 * HOUR, "Europe/Paris")
    assert n.vacation_reminder_due(end, None, end - 20 * HOUR, "Europe/Paris")
    assert not n.vacation_reminder_due(end, end - 20 * HOUR, end - 19 * HOUR, "Europe/Paris")
    assert not n.vacation_reminder_due(end, None, end, "Europe/Paris")
    assert "<t:" in n.vacation_reminder_text(end, "ja")


def test_settings_and_reminders_in_words():
    s = NotifySettings(zone="Asia/Tokyo", quiet=(1380, 450), how="digest", digest_hour=8)
    assert n.settings_text(s, "en").splitlines() == ["Time zone: Asia/Tokyo", "Quiet hours: 23:00 to 07:30",
                                                     "Told in the daily digest only", "Daily digest at 08:00"]
    assert n.settings_text(s, "ja").splitlines()[1] == "通知しない時間帯：23:00〜07:30"
    assert n.settings_text(NotifySettings(), "ja").splitlines()[1:] == ["通知しない時間帯：なし", "通知方法：対戦スレッドでメンション",
                                                                       "まとめ通知：なし"]
    assert n.reminder_text("maken", 12, 1_700_000_000.5, "en") == \
        "Project Maken #12: your time runs out <t:1700000000:R> (<t:1700000000:f>)."
