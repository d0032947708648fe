"""How each player is told (host/notices.py; docs/clocks.md, "How you are told"): the pure
decisions — a ping, a DM, or nothing but the digest; now, or when the quiet hours end unless a
deadline comes first; the local day; the digest hour — and the same decisions with the store
around them, on a SQLite host with a hand-driven clock: held notices queued and delivered once,
at most one reminder per match per local day, the daily digest once a day at the chosen hour,
the reminder that a vacation ends."""
from __future__ import annotations

import math
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from data.store import ACTIVE
from host import notices as N
from host.clocks import control
from host.clocks.notify import NotifySettings
from host.types import msg

ALICE, BOB = 101, 202
GUILD = 9001
DAY, HOUR = 86400.0, 3600.0
DAILY = control.parse("3d+1d max 7d").to_json()
TOKYO = {"zone": "Asia/Tokyo", "quiet": "23:00-07:00"}
PARIS = {"zone": "Europe/Paris", "quiet": "23:00-07:00"}


def local(zone: str, *args: int) -> float:
    return datetime(*args, tzinfo=ZoneInfo(zone)).timestamp()


def tokyo(*args: int) -> float:
    return local("Asia/Tokyo", *args)


async def started(host, *, at: float, **kw) -> int:
    """A SQUARES match on a 3-day bank started at ``at``, Alice (first) to act."""
    host.clock.t = at
    res = await host.challenge("squares", ALICE, "Alice", opponents=[(BOB, "Bob")], options={"first": 0},
                               time_control=DAILY, guild_id=GUILD, channel_id=5555, **kw)
    assert res.ok, res.error
    res = await host.accept(res.match.id, BOB)
    assert res.ok and res.match.status == ACTIVE
    assert [r["match_id"] for r in await host.store.waiting_for(ALICE)][-1] == res.match.id
    return res.match.id


# --------------------------------------------------------------------------- pure decisions
def test_a_player_is_told_by_ping_dm_or_the_digest_only_and_quiet_hours_hold_it():
    """"Per player: a time zone …, quiet hours (no pings or DMs; what falls inside waits until they
    end unless a deadline comes first), and how to be told that it is their turn: thread ping, DM,
    or digest only.\""""
    now = tokyo(2023, 11, 21, 5, 0)                      # 21:00 in Paris the evening before
    assert N.decide(NotifySettings(), now) == N.Route("ping", now)
    assert N.decide(NotifySettings(how="dm"), now) == N.Route("dm", now)
    assert N.decide(NotifySettings(how="digest"), now) == N.Route(None, None)
    quiet = N.read_settings(TOKYO)
    route = N.decide(quiet, now)
    assert route == N.Route("ping", tokyo(2023, 11, 21, 7, 0)) and route.held(now)
    # a deadline that comes first: an hour before it; one that is (nearly) here: at once
    assert N.decide(quiet, now, due_by=tokyo(2023, 11, 21, 7, 30)).at == tokyo(2023, 11, 21, 6, 30)
    assert N.decide(quiet, now, due_by=now + 600).at == now
    assert N.decide(quiet, now, due_by=tokyo(2023, 11, 24)).at == tokyo(2023, 11, 21, 7, 0)
    # the same instant in Paris is outside its quiet hours: told at once
    assert not N.decide(N.read_settings(PARIS), now).held(now)


def test_damaged_settings_count_as_the_defaults():
    """A stored row that does not read is never served as it is: the player is told the default
    way (a ping, UTC, no quiet hours)."""
    for raw in ({"zone": "Mars/Olympus"}, {"how": "carrier pigeon"}, {"quiet": "never"}, {"digest_hour": 25},
                "not an object", None, {}):
        assert N.read_settings(raw, ALICE) == NotifySettings()
    assert N.read_settings({"zone": "Asia/Tokyo", "how": "dm", "extra": 1}) == NotifySettings(zone="Asia/Tokyo", how="dm")


def test_the_local_day_and_the_digest_hour():
    """"an optional daily digest DM at a local hour the player chooses" — once per local day,
    also on the day that hour is skipped."""
    s = NotifySettings(zone="Asia/Tokyo", digest_hour=8)
    assert N.day_start(s, tokyo(2023, 11, 21, 5, 0)) == tokyo(2023, 11, 21, 0, 0)
    assert N.day_start(s, tokyo(2023, 11, 20, 23, 59)) == tokyo(2023, 11, 20, 0, 0)
    assert N.digest_due(s, tokyo(2023, 11, 21, 7, 59)) is None
    assert N.digest_due(s, tokyo(2023, 11, 21, 8, 0)) == tokyo(2023, 11, 21, 8, 0)
    assert N.digest_due(s, tokyo(2023, 11, 21, 13, 59)) == tokyo(2023, 11, 21, 8, 0)    # late, after a restart
    assert N.digest_due(s, tokyo(2023, 11, 21, 14, 0)) is None                           # too late: tomorrow
    assert N.digest_due(NotifySettings(zone="Asia/Tokyo"), tokyo(2023, 11, 21, 8, 0)) is None
    ny = NotifySettings(zone="America/New_York", digest_hour=2)                        # 02:00 does not exist
    jump = datetime(2024, 3, 10, 7, 0, tzinfo=ZoneInfo("UTC")).timestamp()              # 03:00 EDT
    assert N.digest_due(ny, jump - 1) is None and N.digest_due(ny, jump) == jump


def test_one_notice_per_player_and_held_notices_keep_what_they_say():
    """A reminder over a turn over news; a held notice is kept as JSON (its lines included) and a
    damaged one is refused."""
    assert N.kinds_of(turn=[1, 2], remind=[2], news=[1, 3, 0]) == {1: N.TURN, 2: N.REMIND, 3: N.NEWS}
    line = msg("host.clock.expired", names="Alice", claimers={"en": "Bob", "ja": "Bob"})
    notice = N.Notice(user_id=ALICE, kind=N.NEWS, how="ping", match_id=7, guild_id=GUILD, channel_id=8,
                      game="squares", deadline=None, lines=(msg("host.raw", text=msg("game.squares")), line))
    back = N.Notice.from_json(notice.to_json())
    assert back == notice and back.lines[0].params["text"] == msg("game.squares")
    assert back.lines[1].render("en") == line.render("en")
    assert N.Notice.from_json({**notice.to_json(), "lines": [], "locale": "fr"}).locale is None
    for bad in ({**notice.to_json(), "kind": "digest"}, {**notice.to_json(), "how": "pigeon"},
                {**notice.to_json(), "user_id": "101"}, {**notice.to_json(), "deadline": math.nan},
                {**notice.to_json(), "lines": [{"key": 3}]}, []):
        with pytest.raises(ValueError):
            N.Notice.from_json(bad)


# --------------------------------------------------------------------------- with the store
async def test_a_turn_inside_quiet_hours_is_held_until_they_end_in_tokyo_while_paris_is_pinged(clocked_host):
    """"quiet hours that hold a reminder until morning in `Asia/Tokyo` while the opponent is in
    `Europe/Paris`": at 05:00 in Tokyo (21:00 in Paris) the Paris player is pinged now, the Tokyo
    player's notice waits in the queue until 07:00 there, and is delivered once."""
    host = await clocked_host()
    await host.store.set_player_settings(ALICE, TOKYO)
    await host.store.set_player_settings(BOB, PARIS)
    mid = await started(host, at=tokyo(2023, 11, 20, 12, 0))
    rec = await host.store.get_match(mid)
    notices = N.Notices(host.store)
    now = tokyo(2023, 11, 21, 5, 0)
    plan = await notices.route(rec, now, turn=[ALICE], news=[BOB], lines=[msg("host.abort_vote", name="Bob",
                                                                           waiting="Alice")])
    assert plan.ping == [BOB] and plan.dm == [] and [at for at, _ in plan.held] == [tokyo(2023, 11, 21, 7, 0)]
    assert await notices.notices_tick(tokyo(2023, 11, 21, 6, 59)) == []
    got = await notices.notices_tick(tokyo(2023, 11, 21, 7, 0))
    assert [(n.user_id, n.kind, n.how, n.match_id, n.deadline) for n in got] == [
        (ALICE, N.TURN, "ping", mid, rec.deadline)]
    assert await notices.notices_tick(tokyo(2023, 11, 21, 7, 1)) == []          # delivered once


async def test_a_held_reminder_comes_an_hour_before_the_deadline_when_that_comes_first(clocked_host):
    """"what falls inside waits until they end unless a deadline comes first": Alice's bank runs
    out at 06:30 in Tokyo, inside her quiet hours — the reminder made at 03:00 comes at 05:30."""
    host = await clocked_host()
    await host.store.set_player_settings(ALICE, TOKYO)
    mid = await started(host, at=tokyo(2023, 11, 18, 6, 30))
    rec = await host.store.get_match(mid)
    assert rec.deadline == tokyo(2023, 11, 21, 6, 30)
    notices = N.Notices(host.store)
    plan = await notices.route(rec, tokyo(2023, 11, 21, 3, 0), remind=[ALICE])
    assert [at for at, _ in plan.held] == [tokyo(2023, 11, 21, 5, 30)] and not plan.ping
    assert await notices.notices_tick(tokyo(2023, 11, 21, 5, 29)) == []
    got = await notices.notices_tick(tokyo(2023, 11, 21, 5, 30))
    assert [(n.user_id, n.kind, n.deadline) for n in got] == [(ALICE, N.REMIND, rec.deadline)]


async def test_at_most_one_reminder_per_match_per_local_day(clocked_host):
    """"Reminders: when a bank will run out … — at most one of each per match per day" (the
    player's own day; a reminder held overnight is not followed by another that morning)."""
    host = await clocked_host()
    await host.store.set_player_settings(ALICE, TOKYO)
    mid = await started(host, at=tokyo(2023, 11, 19, 12, 0))
    other = await started(host, at=tokyo(2023, 11, 19, 12, 0))
    rec, rec2 = await host.store.get_match(mid), await host.store.get_match(other)
    notices = N.Notices(host.store)
    plan = await notices.route(rec, tokyo(2023, 11, 20, 12, 0), remind=[ALICE])
    assert plan.ping == [ALICE]
    plan = await notices.route(rec, tokyo(2023, 11, 20, 22, 0), remind=[ALICE])
    assert plan.ping == [] and plan.silent == [ALICE]                 # the same day in Tokyo
    assert (await notices.route(rec2, tokyo(2023, 11, 20, 22, 0), remind=[ALICE])).ping == [ALICE]   # another match
    # the next day: made at 05:00, held until 07:00 — and nothing more that day
    plan = await notices.route(rec, tokyo(2023, 11, 21, 5, 0), remind=[ALICE])
    assert [at for at, _ in plan.held] == [tokyo(2023, 11, 21, 7, 0)]
    assert (await notices.route(rec, tokyo(2023, 11, 21, 9, 0), remind=[ALICE])).silent == [ALICE]
    assert (await notices.route(rec, tokyo(2023, 11, 22, 9, 0), remind=[ALICE])).ping == [ALICE]
    # a turn is no reminder: it is told every time
    assert (await notices.route(rec, tokyo(2023, 11, 22, 9, 5), turn=[ALICE])).ping == [ALICE]


async def test_a_held_notice_is_dropped_once_it_is_no_longer_true(clocked_host):
    """A held turn is not delivered after the player played it, nor news after the match ended; a
    player who switched to the digest only meanwhile is not told; one who switched to DMs is told
    by DM."""
    host = await clocked_host()
    await host.store.set_player_settings(ALICE, TOKYO)
    await host.store.set_player_settings(BOB, {**PARIS, "how": "ping"})
    mid = await started(host, at=tokyo(2023, 11, 20, 12, 0))
    rec = await host.store.get_match(mid)
    notices = N.Notices(host.store)
    night = tokyo(2023, 11, 21, 5, 0)
    assert (await notices.route(rec, night, turn=[ALICE])).held
    host.clock.t = night + 600
    assert (await host.command(mid, ALICE, "place L1 a1")).ok      # she played in the night
    assert await notices.notices_tick(tokyo(2023, 11, 21, 7, 0)) == []
    # Bob's turn now; he is asleep in Paris (07:00 Paris is 15:00 Tokyo)
    rec = await host.store.get_match(mid)
    paris_night = local("Europe/Paris", 2023, 11, 21, 1, 0)
    assert (await notices.route(rec, paris_night, turn=[BOB])).held
    assert (await notices.route(rec, paris_night, news=[BOB])).held
    await host.store.set_player_settings(BOB, {**PARIS, "how": "dm"})
    got = await notices.notices_tick(local("Europe/Paris", 2023, 11, 21, 7, 0))
    assert sorted((n.kind, n.how) for n in got) == [(N.NEWS, "dm"), (N.TURN, "dm")]
    assert (await notices.route(rec, paris_night + DAY, turn=[BOB])).held
    await host.store.set_player_settings(BOB, {**PARIS, "how": "digest"})
    assert await notices.notices_tick(local("Europe/Paris", 2023, 11, 22, 7, 0)) == []
    # news held for a match that ends before it is due is not told
    await host.store.set_player_settings(BOB, PARIS)
    assert (await notices.route(rec, paris_night + 2 * DAY, news=[BOB], lines=[msg("host.lapsed")])).held
    assert (await host.resign(mid, ALICE)).ok
    assert await notices.notices_tick(local("Europe/Paris", 2023, 11, 23, 7, 0)) == []


async def test_the_daily_digest_comes_at_the_chosen_hour_once_a_day(clocked_host):
    """"an optional daily digest DM at a local hour the player chooses": at 08:00 in Tokyo, once
    that day (also with a second process looking), again the next day; nothing waiting, no
    digest."""
    host = await clocked_host()
    await host.store.set_player_settings(ALICE, {**TOKYO, "digest_hour": 8})
    await host.store.set_player_settings(BOB, {**PARIS, "digest_hour": 8})
    mid = await started(host, at=tokyo(2023, 11, 20, 12, 0))
    notices = N.Notices(host.store)
    assert await notices.notices_tick(tokyo(2023, 11, 21, 7, 59)) == []
    got = await notices.notices_tick(tokyo(2023, 11, 21, 8, 0))
    assert [(n.user_id, n.kind, n.how) for n in got] == [(ALICE, N.DIGEST, "dm")]
    rows = got[0].rows
    assert [(r.match_id, r.game, tuple(r.opponents), r.guild_id) for r in rows] == [(mid, "squares", ("Bob",), GUILD)]
    assert rows[0].deadline == (await host.store.get_match(mid)).deadline and got[0].channels == {mid: 5555}
    assert await notices.notices_tick(tokyo(2023, 11, 21, 8, 1)) == []
    assert await N.Notices(host.store).notices_tick(tokyo(2023, 11, 21, 8, 20)) == []    # another process
    assert await notices.notices_tick(tokyo(2023, 11, 21, 8, 30)) == []
    again = await notices.notices_tick(tokyo(2023, 11, 22, 8, 0))
    assert [(n.user_id, n.kind) for n in again] == [(ALICE, N.DIGEST)]
    # Bob's 08:00 in Paris: nothing waits on him, so no digest
    assert await notices.notices_tick(local("Europe/Paris", 2023, 11, 22, 8, 0)) == []


async def test_a_vacation_about_to_end_is_told_once_per_match_per_day(clocked_host):
    """"Reminders: … and when a vacation is about to end — at most one of each per match per day":
    only for the matches whose clock the vacation stops."""
    host = await clocked_host()
    await host.store.set_player_settings(ALICE, {"zone": "Asia/Tokyo"})
    mid = await started(host, at=tokyo(2023, 11, 20, 12, 0))
    await started(host, at=tokyo(2023, 11, 20, 12, 0), vacation=False)
    start = tokyo(2023, 11, 20, 12, 0)
    end = start + 2 * DAY
    assert await host.store.start_vacation(ALICE, start, end, "asked", allowance_check=None)
    await host.vacation_changed(ALICE)
    notices = N.Notices(host.store)
    assert await notices.notices_tick(tokyo(2023, 11, 21, 11, 0)) == []        # 25 hours before its end
    got = await notices.notices_tick(tokyo(2023, 11, 21, 13, 0))
    assert [(n.user_id, n.kind, n.match_id, n.deadline, n.how) for n in got] == [
        (ALICE, N.VACATION_END, mid, end, "ping")]
    assert await notices.notices_tick(tokyo(2023, 11, 21, 20, 0)) == []        # the same day
    got = await notices.notices_tick(tokyo(2023, 11, 22, 0, 30))               # the next day in Tokyo
    assert [(n.kind, n.match_id) for n in got] == [(N.VACATION_END, mid)]
    assert await notices.notices_tick(tokyo(2023, 11, 22, 12, 0)) == []        # it has ended
