"""Vacation days per rolling 365 days (host/clocks/vacation.py): pure arithmetic over a player's
records, every instant passed in."""
from __future__ import annotations

import pytest

from data import i18n
from host.clocks import vacation as v
from host.clocks.vacation import DAY, WINDOW, Vacation, VacationError

T0 = 1_700_000_000.25          # an instant with a fraction, as the wall clock gives


def test_start_begins_now_for_whole_days_never_backdated():
    """"Vacation cannot be backdated, starts at once, and is counted in whole days."""
    rec = v.start([], T0, 3)
    assert (rec.start, rec.end, rec.how, rec.days) == (T0, T0 + 3 * DAY, "asked", 3)
    assert v.start([], T0).days == 1                    # /vacation start without days: one day
    later = T0 + 400 * DAY
    assert v.start([rec], later, 2).start == later       # again at once, not where the last one ended
    for bad in (0, -1, 2.5, "3", True):
        with pytest.raises(VacationError) as exc:
            v.start([], T0, bad)
        assert exc.value.key == "clock.vacation.err.days"


def test_a_vacation_ended_early_counts_its_days_rounded_up():
    """"counted in whole days": a vacation ended after 2.5 days counts 3; ended the moment it
    started it still counts 1; one of 3 whole days counts 3 despite float sums."""
    rec = v.start([], T0, 5)
    ended = v.end([rec], T0 + 2.5 * DAY)
    assert ended == [Vacation(T0, T0 + 2.5 * DAY, "asked")] and ended[0].days == 3
    assert v.used(ended, T0 + 2.5 * DAY) == 3
    assert v.end([rec], T0)[0].days == 1
    assert v.end([rec], T0 + 2 * DAY + 1)[0].days == 3
    assert v.end([rec], T0 + 2 * DAY)[0].days == 2
    for start in (0.1, 1_699_999_999.7, 1_734_567_890.123):
        assert Vacation(start, start + 3 * DAY).days == 3


def test_ending_needs_a_running_vacation():
    """`/vacation end` ends the running vacation now; without one it is refused."""
    rec = v.start([], T0, 2)
    with pytest.raises(VacationError) as exc:
        v.end([rec], T0 + 2 * DAY)
    assert exc.value.key == "clock.vacation.err.not_running"
    with pytest.raises(VacationError):
        v.end([], T0)


def test_refused_while_one_runs_and_when_no_days_remain():
    """"every player has vacation days per rolling 365 days (a server setting, default 14)":
    one vacation at a time; no more days than remain; the refusal says how many remain and
    when the next one comes back."""
    rec = v.start([], T0, 10)
    with pytest.raises(VacationError) as exc:
        v.start([rec], T0 + DAY, 1)
    assert exc.value.key == "clock.vacation.err.running" and exc.value.params == {"until": int(T0 + 10 * DAY)}
    after = T0 + 10 * DAY
    with pytest.raises(VacationError) as exc:
        v.start([rec], after, 5)
    assert exc.value.key == "clock.vacation.err.too_many" and exc.value.params == {"n": 4, "days": 5}
    assert "1 to 4 vacation days now, not 5" in exc.value.text("en")
    all_in = [rec, v.start([rec], after, 4)]
    with pytest.raises(VacationError) as exc:
        v.start(all_in, after + 4 * DAY, 1)
    assert exc.value.key == "clock.vacation.err.none_left"
    assert exc.value.params == {"at": int(T0 + WINDOW) + 1}      # the first day taken, a year on
    assert "<t:" in exc.value.text("ja") and exc.value.text("ja").endswith("に戻ります。")
    with pytest.raises(VacationError) as exc:
        v.start([], T0, 1, allowance=0)
    assert exc.value.key == "clock.vacation.err.none_allowed"


def test_the_rolling_window_edges():
    """"vacation days per rolling 365 days": a day taken at instant d counts until d + 365 days
    (exclusive) and comes back exactly then; the days of one vacation come back one a day."""
    rec = Vacation(T0, T0 + 3 * DAY)
    assert [v.used([rec], t) for t in (T0, T0 + 3 * DAY, T0 + WINDOW - 0.001)] == [3, 3, 3]
    assert v.used([rec], T0 + WINDOW) == 2
    assert v.used([rec], T0 + WINDOW + DAY - 0.001) == 2
    assert v.used([rec], T0 + WINDOW + DAY) == 1
    assert v.used([rec], T0 + WINDOW + 2 * DAY) == 0
    assert v.remaining([rec], T0 + WINDOW, 14) == 12
    # with days left, the next return is the next day back; with nothing used, none
    assert v.next_day_back([rec], T0 + DAY, 14) == T0 + WINDOW
    assert v.next_day_back([rec], T0 + WINDOW, 14) == T0 + WINDOW + DAY
    assert v.next_day_back([], T0, 14) is None
    # all 14 used: the day that brings the count under the allowance
    full = [Vacation(T0, T0 + 10 * DAY), Vacation(T0 + 100 * DAY, T0 + 104 * DAY)]
    assert v.remaining(full, T0 + 200 * DAY, 14) == 0
    assert v.next_day_back(full, T0 + 200 * DAY, 14) == T0 + WINDOW
    # a server that lowered its allowance to 12 after 14 were used: three must come back first
    assert v.next_day_back(full, T0 + 200 * DAY, 12) == T0 + WINDOW + 2 * DAY
    assert v.next_day_back(full, T0 + 200 * DAY, 0) is None


def test_reserved_days_of_a_running_vacation_count():
    """The days not yet begun of a running vacation are reserved: a player on a 10-day vacation
    has 4 of 14 left, and gets the unused ones back by ending it early."""
    rec = v.start([], T0, 10)
    assert v.remaining([rec], T0 + 1, 14) == 4
    assert v.remaining(v.end([rec], T0 + 1.2 * DAY), T0 + 1.2 * DAY, 14) == 12


def test_auto_days_chain_while_the_bank_stays_out():
    """"When a bank runs out and the player has days left and the match allows it, one day is
    taken automatically and the player is told" — and if the bank is still out when that day
    ends, the next, without a gap, until no day remains."""
    out_at = T0 + 5 * DAY
    first = v.auto_day([], out_at + 40, 3, at=out_at)           # the tick came 40 s late
    assert first == Vacation(out_at, out_at + DAY, "auto")
    records = [first]
    assert v.auto_day(records, out_at + DAY / 2, 3) is None       # the day covers now
    second = v.auto_day(records, out_at + DAY + 30, 3, at=out_at + DAY)
    assert second == Vacation(out_at + DAY, out_at + 2 * DAY, "auto")
    records.append(second)
    # a stale "ran out at" never reaches back before the last day's end
    third = v.auto_day(records, out_at + 2 * DAY + 5, 3, at=out_at)
    assert third == Vacation(out_at + 2 * DAY, out_at + 3 * DAY, "auto")
    records.append(third)
    assert v.remaining(records, out_at + 3 * DAY, 3) == 0
    assert v.auto_day(records, out_at + 3 * DAY, 3) is None       # spent: the time-out works as today
    assert v.intervals(records) == [(out_at, out_at + 3 * DAY)]
    text = v.auto_text("Alice", first, 2, "en")
    assert "Alice" in text and f"<t:{int(out_at + DAY)}:f>" in text and "left: 2" in text
    # never in the future, never over an asked vacation
    asked = v.start([], T0, 2)
    assert v.auto_day([asked], T0 + DAY, 14) is None
    assert v.auto_day([asked], T0 + 2 * DAY + 9, 14, at=T0 + 2 * DAY + 60).start == T0 + 2 * DAY + 9


def test_intervals_for_the_calendar_and_pruning():
    """The calendar takes plain intervals [start, end): sorted, touching ones merged, empty ones
    left out; records whose days have all come back are forgotten."""
    a = Vacation(T0 + 10 * DAY, T0 + 11 * DAY, "auto")
    b = Vacation(T0, T0 + 2 * DAY)
    c = Vacation(T0 + 11 * DAY, T0 + 12 * DAY, "auto")
    empty = Vacation(T0 + 20 * DAY, T0 + 20 * DAY)
    assert v.intervals([a, empty, c, b]) == [(T0, T0 + 2 * DAY), (T0 + 10 * DAY, T0 + 12 * DAY)]
    assert v.prune([a, b, c, empty], T0 + WINDOW + DAY) == [a, c, empty]
    assert v.prune([a, b, c, empty], T0 + WINDOW + 30 * DAY) == []


def test_records_round_trip_and_bad_ones_are_refused():
    rec = Vacation(T0, T0 + DAY, "auto")
    assert Vacation.from_json(rec.to_json()) == rec
    for bad in (None, [], {"start": T0}, {"start": T0, "end": T0 - 1}, {"start": "x", "end": T0},
                {"start": T0, "end": T0 + DAY, "how": "sick"}, {"start": float("nan"), "end": T0},
                {"start": T0, "end": T0 + 100 * DAY}):
        with pytest.raises(VacationError) as exc:
            Vacation.from_json(bad)
        assert exc.value.key == "clock.vacation.err.record"


def test_the_allowance_is_a_server_setting_within_bounds():
    """"vacation days per rolling 365 days (a server setting, default 14)"."""
    assert v.ALLOWANCE_DEFAULT == 14 and v.check_allowance(0) == 0 and v.check_allowance(60) == 60
    for bad in (-1, 61, 14.0, True, "14"):
        with pytest.raises(VacationError) as exc:
            v.check_allowance(bad)
        assert exc.value.key == "clock.vacation.err.allowance"
        assert exc.value.text("ja") == "休暇の日数は0〜60日の整数で指定してください。"


def test_status_and_what_opponents_see():
    """"`/vacation status`"; "opponents see "on vacation until …"" — as a Discord timestamp, so
    each reader sees it in their own time zone."""
    rec = v.start([], T0, 3)
    until = int(T0 + 3 * DAY)
    en = v.status_text([rec], T0 + 60, 14, "en")
    assert en.splitlines() == [f"On vacation until <t:{until}:f> (<t:{until}:R>).",
                               "11 vacation days left, of 14 per 365 days.",
                               f"The next day comes back <t:{int(T0 + WINDOW) + 1}:f> (<t:{int(T0 + WINDOW) + 1}:R>)."]
    ja = v.status_text([rec], T0 + 60, 14, "ja")
    assert ja.splitlines()[:2] == [f"<t:{until}:f>（<t:{until}:R>）まで休暇中です。", "休暇の残りは11日です（365日間で14日まで）。"]
    assert v.status_text([], T0, 14, "en").splitlines() == ["Not on vacation.", "14 vacation days left, of 14 per 365 days."]
    assert "1 vacation day left" in v.status_text([Vacation(T0, T0 + 13 * DAY)], T0 + 20 * DAY, 14, "en")
    assert v.status_text([], T0, 0, "en").splitlines()[1] == "This server gives no vacation days."
    assert v.away_text("Bob", [rec], T0 + DAY, "en") == f"Bob is on vacation until <t:{until}:f>."
    assert v.away_text("Bob", [rec], T0 + 3 * DAY, "ja") is None
    assert v.started_text(rec, "en").startswith("Vacation started for 3 days")
    assert v.ended_text(v.end([rec], T0 + 5)[0], "en") == "Vacation ended: 1 day counted."
    assert i18n.t("clock.vacation.ended", "ja", n=3) == "休暇を終えました。数えた日数は3日です。"
