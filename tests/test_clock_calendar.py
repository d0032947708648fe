"""When the clock runs (host/clocks/calendar.py): weekend pause, playing hours, vacations.

"Weekend pause (a match or event option): clocks do not run from Saturday 00:00 to Monday 00:00
in each player's own time zone." "playing hours (in the event's time zone; clocks run only inside
them, as in Board Game Arena's turn-based tournaments)". "While on vacation, none of that
player's banks run in matches that allow vacation." "Unit tests cover the bank arithmetic,
weekend edges (daylight saving changes included) and vacation limits."
"""
from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from data import i18n
from host.clocks import ClockError
from host.clocks import calendar as K
from host.clocks import control as C
from host.clocks.calendar import Calendar

H, D = 3600, 86400
TOKYO, PARIS, NEW_YORK = "Asia/Tokyo", "Europe/Paris", "America/New_York"


def at(zone: str, *parts: int) -> float:
    """The instant of a local wall-clock time (an existing, unambiguous one) in ``zone``."""
    return datetime(*parts, tzinfo=ZoneInfo(zone)).timestamp()


def local(zone: str, t: float) -> tuple:
    d = datetime.fromtimestamp(t, ZoneInfo(zone))
    return (d.year, d.month, d.day, d.hour, d.minute)


def told(err: ClockError) -> None:
    assert err.key in i18n.catalog("en") and err.key in i18n.catalog("ja"), err.key
    for loc in ("en", "ja"):
        assert "{" not in err.text(loc), err.text(loc)


# --------------------------------------------------------------------------- weekend pause
def test_weekend_edges_in_tokyo():
    """"clocks do not run from Saturday 00:00 to Monday 00:00 in each player's own time zone"."""
    cal = Calendar(weekend_zone=TOKYO)
    fri, sat, mon = at(TOKYO, 2024, 6, 7), at(TOKYO, 2024, 6, 8), at(TOKYO, 2024, 6, 10)
    assert K.pause_at(cal, sat - 0.001) is None
    assert K.pause_at(cal, sat) == "weekend" and K.pause_at(cal, mon - 0.001) == "weekend"
    assert K.pause_at(cal, mon) is None
    assert K.running(cal, fri, mon) == D                       # Friday only
    assert K.running(cal, at(TOKYO, 2024, 6, 3), mon) == 5 * D  # a whole week: five days
    assert K.running(cal, sat + H, mon - H) == 0
    assert K.next_running(cal, sat + 5) == mon and K.next_running(cal, fri) == fri
    assert local(TOKYO, K.deadline(cal, at(TOKYO, 2024, 6, 7, 20), 6 * H)) == (2024, 6, 10, 2, 0)


def test_each_player_pauses_in_their_own_time_zone():
    """"in each player's own time zone": at Saturday 00:00 in Tokyo (Friday 17:00 in Paris) the
    Tokyo player's clock has stopped and the Paris player's still runs."""
    tokyo, paris = Calendar(weekend_zone=TOKYO), Calendar(weekend_zone=PARIS)
    t = at(TOKYO, 2024, 6, 8, 0, 30)
    assert K.pause_at(tokyo, t) == "weekend" and K.pause_at(paris, t) is None
    assert K.running(paris, t, at(PARIS, 2024, 6, 8)) == 6.5 * H


@pytest.mark.parametrize("zone, saturday, weekend_hours", [
    (PARIS, (2024, 3, 30), 47),        # spring forward: Sunday 31 March 02:00 -> 03:00
    (PARIS, (2024, 10, 26), 49),       # fall back: Sunday 27 October 03:00 -> 02:00
    (NEW_YORK, (2024, 3, 9), 47),      # Sunday 10 March 02:00 -> 03:00
    (NEW_YORK, (2024, 11, 2), 49),     # Sunday 3 November 02:00 -> 01:00
])
def test_a_weekend_with_a_daylight_saving_change_is_still_saturday_to_monday(zone, saturday, weekend_hours):
    """"weekend pause: Saturday 00:00 to Monday 00:00 in the player's own time zone
    (DST-correct: use local midnights)": the weekend holding the change lasts 47 or 49 hours of
    real time, the week's five weekdays still run 120 hours, and a deadline computed across it
    lands on the local hour it should."""
    cal = Calendar(weekend_zone=zone)
    y, m, d = saturday
    sat = at(zone, y, m, d)

    def before(days: int, hour: int = 0) -> float:
        day = date(y, m, d) - timedelta(days=days)
        return at(zone, day.year, day.month, day.day, hour)

    mon = K.next_running(cal, sat)
    assert datetime.fromtimestamp(mon, ZoneInfo(zone)).strftime("%a %H:%M") == "Mon 00:00"
    assert (mon - sat) / H == weekend_hours
    monday_before = before(5)
    assert K.running(cal, monday_before, mon) == 120 * H
    # Friday 20:00 + 6 hours of clock: 4 hours on Friday, 2 on Monday -> Monday 02:00 local
    due = K.deadline(cal, before(1, 20), 6 * H)
    assert datetime.fromtimestamp(due, ZoneInfo(zone)).strftime("%a %H:%M") == "Mon 02:00"
    assert K.running(cal, before(1, 20), due) == 6 * H
    # a 3-day bank started Friday noon runs out Wednesday noon local, whatever the change did
    due = K.deadline(cal, before(1, 12), 3 * D)
    assert datetime.fromtimestamp(due, ZoneInfo(zone)).strftime("%a %H:%M") == "Wed 12:00"


def test_a_bank_across_a_weekend_with_the_banks_own_arithmetic():
    """"A match … takes … a time bank" with a weekend pause: `3d+1d max 7d`, a move made Monday
    morning after a Friday-noon start has spent only Friday's twelve hours; the next deadline
    follows from the bank after the increment."""
    tc, cal = C.parse("3d+1d max 7d"), Calendar(weekend_zone=PARIS)
    start, moved = at(PARIS, 2024, 6, 7, 12), at(PARIS, 2024, 6, 10, 9)
    used = K.running(cal, start, moved)
    assert used == 21 * H
    bank = C.after_move(C.start_banks(tc, 2)[0], used, tc)
    assert bank == 4 * D - 21 * H
    opp_start = moved
    assert local(PARIS, K.deadline(cal, opp_start, C.start_banks(tc, 2)[1])) == (2024, 6, 13, 9, 0)


# --------------------------------------------------------------------------- playing hours
def test_playing_hours_across_midnight():
    """"daily windows in the EVENT's time zone, e.g. 18:00–23:00 (windows may cross midnight,
    e.g. 22:00–02:00; several windows per day allowed)"."""
    cal = Calendar(hours=K.parse_hours("22:00-02:00"), hours_zone=TOKYO)
    assert K.running(cal, at(TOKYO, 2024, 6, 3), at(TOKYO, 2024, 6, 4)) == 4 * H     # 00-02 and 22-24
    assert K.pause_at(cal, at(TOKYO, 2024, 6, 3, 12)) == "hours"
    assert K.pause_at(cal, at(TOKYO, 2024, 6, 3, 23, 59)) is None
    assert K.pause_at(cal, at(TOKYO, 2024, 6, 4, 1, 59)) is None
    assert K.pause_at(cal, at(TOKYO, 2024, 6, 4, 2)) == "hours"
    # 23:00 + 5 h of clock: 3 h that night, 2 h the next -> 00:00 two days later
    assert local(TOKYO, K.deadline(cal, at(TOKYO, 2024, 6, 3, 23), 5 * H)) == (2024, 6, 5, 0, 0)
    assert K.next_running(cal, at(TOKYO, 2024, 6, 4, 3)) == at(TOKYO, 2024, 6, 4, 22)
    two = Calendar(hours=K.parse_hours("12:00-13:00, 22:00-02:00"), hours_zone=PARIS)
    assert K.running(two, at(PARIS, 2024, 6, 3), at(PARIS, 2024, 6, 4)) == 5 * H
    # from 01:00: the last hour of the night's window, then 12:00-13:00
    assert local(PARIS, K.deadline(two, at(PARIS, 2024, 6, 3, 1), 2 * H)) == (2024, 6, 3, 13, 0)
    assert local(PARIS, K.deadline(two, at(PARIS, 2024, 6, 3, 1), 2 * H + 1)) == (2024, 6, 3, 22, 0)


def test_playing_hours_with_a_weekend_pause_and_daylight_saving():
    """Playing hours in the event's zone and the player's weekend in their own: Friday's window
    22:00–02:00 runs until the player's Saturday begins; on the nights Paris changes its clocks
    the window lasts from 22:00 until the wall clock first reads 02:00 (4 hours either way)."""
    cal = Calendar(weekend_zone=PARIS, hours=((22 * 60, 2 * 60),), hours_zone=PARIS)
    assert K.running(cal, at(PARIS, 2024, 6, 7, 12), at(PARIS, 2024, 6, 10, 12)) == 2 * H + 2 * H
    event_only = Calendar(hours=((22 * 60, 2 * 60),), hours_zone=PARIS)
    for night in ((2024, 3, 30), (2024, 10, 26)):
        start = at(PARIS, *night, 12)
        assert K.running(event_only, start, start + D) == 4 * H
    tokyo_player = Calendar(weekend_zone=TOKYO, hours=((18 * 60, 23 * 60),), hours_zone=PARIS)
    # Friday 18:00-23:00 in Paris is Saturday 01:00-06:00 in Tokyo: no play for that player
    assert K.running(tokyo_player, at(PARIS, 2024, 6, 7, 12), at(PARIS, 2024, 6, 8, 12)) == 0


@pytest.mark.parametrize("text, windows", [
    ("18:00-23:00", ((1080, 1380),)),
    ("18:00–23:00", ((1080, 1380),)),
    ("22:00-02:00, 12:00-13:00", ((720, 780), (1320, 120))),
    ("9:00-10:00 12:00-13:00", ((540, 600), (720, 780))),
    ("18時〜23時", ((1080, 1380),)),
    ("１９時半から２２時", ((1170, 1320),)),
    ("20時30分〜24時", ((1230, 1440),)),
    ("18 to 24", ((1080, 1440),)),
    ("", ()), ("none", ()), ("なし", ()),
])
def test_parse_hours_reads_windows(text, windows):
    """Playing hours as an organiser types them, in English or Japanese."""
    assert K.parse_hours(text) == windows
    if windows:
        assert K.parse_hours(K.format_hours(windows, "en")) == windows
        assert K.parse_hours(K.format_hours(windows, "ja")) == windows


def test_format_hours_in_both_languages():
    assert K.format_hours(((1320, 120), (720, 780)), "en") == "12:00–13:00, 22:00–02:00"
    assert K.format_hours(K.parse_hours("18時〜24時"), "ja") == "18:00〜24:00"
    assert K.format_hours((), "ja") == "終日"


@pytest.mark.parametrize("text, key", [
    ("x" * 101, "clock.calendar.err.hours_too_long"),
    ("18:00-23:00," * 1000, "clock.calendar.err.hours_too_long"),
    ("abc", "clock.calendar.err.hours_syntax"),
    ("18:00", "clock.calendar.err.hours_syntax"),
    ("18:00 23:00", "clock.calendar.err.hours_syntax"),
    ("18:00-23:00,", "clock.calendar.err.hours_syntax"),
    ("18:00-23:00 junk", "clock.calendar.err.hours_syntax"),
    ("-18:00-23:00", "clock.calendar.err.hours_syntax"),
    ("25:00-26:00", "clock.calendar.err.hours_time"),
    ("18:60-23:00", "clock.calendar.err.hours_time"),
    ("24:30-02:00", "clock.calendar.err.hours_time"),
    ("018:00-23:00", "clock.calendar.err.hours_time"),
    ("18:00-18:00", "clock.calendar.err.hours_same"),
    ("18:00-18:20", "clock.calendar.err.hours_short"),
    ("18:00-18:40", "clock.calendar.err.hours_short"),
    ("18:00-23:00, 22:00-23:30", "clock.calendar.err.hours_overlap"),
    ("22:00-02:00, 01:00-03:00", "clock.calendar.err.hours_overlap"),
    ("1:00-2:00, 3:00-4:00, 5:00-6:00, 7:00-8:00, 9:00-10:00", "clock.calendar.err.hours_count"),
])
def test_bad_playing_hours_are_refused_with_a_catalog_key(text, key):
    """"Bad input (… hours) is parsed in time linear in its length with limits checked first and
    refused with a located, localizable error"; "validate" the windows."""
    with pytest.raises(ClockError) as exc:
        K.parse_hours(text)
    assert exc.value.key == key, (text, exc.value)
    told(exc.value)
    if "at" in exc.value.params:
        assert 1 <= exc.value.params["at"] <= len(text)


def test_a_window_error_names_the_window_in_the_readers_words():
    with pytest.raises(ClockError) as exc:
        K.parse_hours("18:00-23:00, 22:00-23:30")
    assert exc.value.text("en") == "The windows 18:00–23:00 and 22:00–23:30 overlap."
    assert exc.value.text("ja") == "時間帯18:00〜23:00と22:00〜23:30が重なっています。"


@pytest.mark.parametrize("zone", ["Mars/Olympus", "../etc/passwd", "/etc/localtime", "", "x" * 100,
                                  "Asia/Tokyo\x00", "Asia/Tokyo ", 9, "asia//tokyo", "Asia/" + "x" * 10_000])
def test_an_unknown_time_zone_is_refused(zone):
    """"a time zone … refused with a located, localizable error"."""
    for check in (K.check_zone, lambda z: Calendar(hours=((1080, 1380),), hours_zone=z)):
        with pytest.raises(ClockError) as exc:
            check(zone)
        assert exc.value.key == "clock.calendar.err.zone"
        told(exc.value)
    with pytest.raises(ClockError):
        Calendar(weekend_zone=zone)


def test_known_time_zones_are_accepted():
    """IANA names, read with the standard library (the tzdata package supplies them anywhere)."""
    for zone in (TOKYO, PARIS, NEW_YORK, "UTC", "Etc/GMT+9", "America/Argentina/Buenos_Aires"):
        assert K.check_zone(zone) == zone


def test_playing_hours_need_a_zone_and_vacations_must_be_intervals():
    with pytest.raises(ClockError) as exc:
        Calendar(hours=((1080, 1380),))
    assert exc.value.key == "clock.calendar.err.hours_zone"
    for bad in ([(10.0, 5.0)], [(1.0, float("inf"))], [("a", "b")], [(1.0,)]):
        with pytest.raises(ClockError) as exc:
            Calendar(vacations=bad)
        assert exc.value.key == "clock.calendar.err.vacation"
        told(exc.value)


# --------------------------------------------------------------------------- vacations
def test_vacation_overlapping_a_weekend():
    """"While on vacation, none of that player's banks run": a vacation from Thursday noon to
    Sunday noon and the weekend after it pause the clock from Thursday noon to Monday 00:00."""
    thu = at(PARIS, 2024, 6, 6)
    vac = (at(PARIS, 2024, 6, 6, 12), at(PARIS, 2024, 6, 9, 12))
    cal = Calendar(weekend_zone=PARIS, vacations=(vac,))
    assert K.running(cal, thu, at(PARIS, 2024, 6, 11)) == 12 * H + 24 * H
    assert K.pause_at(cal, at(PARIS, 2024, 6, 8, 12)) == "vacation"
    assert K.pause_at(cal, at(PARIS, 2024, 6, 9, 13)) == "weekend"
    assert K.next_running(cal, vac[0]) == at(PARIS, 2024, 6, 10)
    assert local(PARIS, K.deadline(cal, thu, 20 * H)) == (2024, 6, 10, 8, 0)


def test_vacations_are_sorted_and_merged():
    a, b, c = (100.0, 200.0), (150.0, 300.0), (1000.0, 1100.0)
    cal = Calendar(vacations=(c, b, a))
    assert cal.vacations == ((100.0, 300.0), (1000.0, 1100.0))
    assert K.running(cal, 0, 2000) == 2000 - 200 - 100
    assert K.deadline(cal, 0, 100) == 100 and K.deadline(cal, 0, 100.5) == 300.5
    assert K.deadline(cal, 50, 0) == 50 and K.next_running(cal, 250) == 300


def test_no_pause_is_plain_time():
    assert K.running(K.ALWAYS, 10, 70.5) == 60.5 and K.running(K.ALWAYS, 70, 10) == 0
    assert K.deadline(K.ALWAYS, 10, 3 * D) == 10 + 3 * D


def test_the_walk_raises_rather_than_loop_forever(monkeypatch):
    """"must terminate for any valid calendar: a calendar where the clock never runs again must
    be impossible or raise": valid playing hours give every day an hour (impossible), and the
    walk gives up with a catalog error instead of looping (raise)."""
    with pytest.raises(ClockError):
        K.check_hours(((0, 20),))
    # vacations from each Monday to Saturday, weekends between: a walk of many pauses in a row
    monday = at(TOKYO, 2024, 6, 3)
    weeks = tuple((monday + 7 * D * k, monday + 7 * D * k + 5 * D) for k in range(20))
    cal = Calendar(vacations=weeks, weekend_zone=TOKYO)
    assert K.next_running(cal, monday) == monday + 20 * 7 * D
    monkeypatch.setattr(K, "MAX_STEPS", 3)
    with pytest.raises(ClockError) as exc:
        K.deadline(cal, monday, 600)
    assert exc.value.key == "clock.calendar.err.never"
    told(exc.value)


# --------------------------------------------------------------------------- property
ZONES = (TOKYO, PARIS, NEW_YORK, "UTC", "Australia/Lord_Howe", "America/Santiago", "Asia/Kolkata")


def _random_hours(rng: random.Random) -> tuple:
    while True:
        count = rng.randint(1, 3)
        starts = sorted(rng.sample(range(0, 1440, 15), count))
        windows = []
        for i, s in enumerate(starts):
            room = (starts[(i + 1) % count] - s) % 1440 or 1440
            if room < 30:
                break
            windows.append((s, (s + rng.randrange(30, room + 1, 15)) % 1440))
        else:
            try:
                return K.check_hours(windows)
            except ClockError:
                continue


def _random_calendar(rng: random.Random, t0: float) -> Calendar:
    vacations = []
    t = t0 - 5 * D
    for _ in range(rng.randint(0, 4)):
        t += rng.uniform(0, 20 * D)
        length = rng.uniform(60, 10 * D)
        vacations.append((t, t + length))
        t += length
    hours = _random_hours(rng) if rng.random() < 0.4 else ()
    return Calendar(weekend_zone=rng.choice(ZONES) if rng.random() < 0.6 else None, hours=hours,
                    hours_zone=rng.choice(ZONES) if hours else None, vacations=tuple(vacations))


def test_running_up_to_the_deadline_is_the_budget_for_random_calendars():
    """"running(deadline(x)) == budget as a property test over many random calendars and
    instants": the deadline is also the earliest such instant (the clock ran just before it)."""
    rng = random.Random(4848)
    base = at("UTC", 2024, 1, 1)
    for _ in range(400):
        start = base + rng.uniform(0, 2 * 365 * D)      # across two years of DST changes
        cal = _random_calendar(rng, start)
        budget = rng.choice([rng.uniform(1, H), rng.uniform(H, 3 * D), rng.uniform(3 * D, 7 * D),
                             rng.uniform(7 * D, 60 * D)])
        due = K.deadline(cal, start, budget)
        assert math.isclose(K.running(cal, start, due), budget, rel_tol=0, abs_tol=1e-3), (cal, start, budget)
        assert K.running(cal, start, due - 0.5) < budget
        assert K.pause_at(cal, due - 1e-3) is None
        # split anywhere: the clock's seconds add up
        mid = rng.uniform(start, due)
        assert math.isclose(K.running(cal, start, mid) + K.running(cal, mid, due), budget, abs_tol=1e-3)
        nxt = K.next_running(cal, start)
        assert nxt >= start and K.running(cal, start, nxt) == 0


def test_stretches_agree_with_pause_at():
    """The stretches in which the clock runs are exactly the instants with no pause."""
    rng = random.Random(99)
    base = at("UTC", 2024, 3, 1)
    for _ in range(20):
        cal = _random_calendar(rng, base)
        spans = list(K.stretches(cal, base, base + 30 * D))
        for a, b in spans:
            assert a < b and K.pause_at(cal, a) is None and K.pause_at(cal, (a + b) / 2) is None
        for (_, b), (a2, _) in zip(spans, spans[1:]):
            assert b <= a2
            if b < a2:
                assert K.pause_at(cal, (b + a2) / 2) is not None
