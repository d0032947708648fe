"""Sign-up, waiting list, check-in, no-shows and drops for events (host/events/registration.py).

"Sign-up is open until a time with an optional player cap; players past the cap go on a waiting
list, in order; when a registered player leaves before the start, the first on the waiting list
moves up.  Check-in opens a set time before the start and closes at the start; only checked-in
players are paired; the organiser may check someone in by hand (also outside the window); at
the start, registered players who did not check in are left out (they stay listed as 'no
check-in'), and waiting-list players who checked in may fill free places up to the cap in
waiting-list order.  A no-show: when a pairing has not started within no_show_minutes after the
round began, the player who showed up may claim a game win; after twice that time, the match.
A player may drop between rounds (never paired again, stays in the standings)."
"""
from __future__ import annotations

import copy
import json

import pytest

from host.events import registration as reg_
from host.events import scoring
from host.events.registration import RegistrationError

START = 100_000.0
HOUR = 3600.0


def _reg(cap: int | None = 4, checkin: int | None = 30, signup_until: float | None = START - HOUR) -> dict:
    return reg_.new(cap=cap, signup_until=signup_until, start_at=START, checkin_minutes=checkin)


def _signed(reg: dict, *users: int, now: float = START - 2 * HOUR) -> list[str]:
    return [reg_.sign_up(reg, u, f"player {u}", now) for u in users]


def _raises(key: str, call, *args, **kwargs) -> RegistrationError:
    """The call raises ``key`` and changes nothing in the registration (its first argument when a
    dict)."""
    before = json.dumps(args[0]) if args and isinstance(args[0], dict) else None
    with pytest.raises(RegistrationError) as e:
        call(*args, **kwargs)
    assert e.value.key == key
    if before is not None:
        assert json.dumps(args[0]) == before
    return e.value


# -- sign-up, cap, waiting list -----------------------------------------------------------------

def test_cap_and_waiting_list_order():
    """"Players past the cap go on a waiting list, in order"."""
    reg = _reg(cap=3)
    assert _signed(reg, 1, 2, 3, 4, 5) == ["registered"] * 3 + ["waiting"] * 2
    assert reg_.registered(reg) == [1, 2, 3] and reg_.waiting(reg) == [4, 5]
    assert [reg_.place_in_line(reg, u) for u in (4, 5, 1)] == [1, 2, None]
    assert reg_.status(reg, 5) == "waiting" and reg_.status(reg, 9) is None


def test_no_cap_means_no_waiting_list():
    """"An optional player cap": without one everybody is registered."""
    reg = _reg(cap=None)
    assert set(_signed(reg, *range(1, 40))) == {"registered"}


def test_move_up_on_leave():
    """"When a registered player leaves before the start, the first on the waiting list moves up"."""
    reg = _reg(cap=2)
    _signed(reg, 1, 2, 3, 4)
    assert reg_.leave(reg, 4, START - HOUR) is None           # a waiting player leaves: nobody moves
    assert reg_.waiting(reg) == [3]
    assert reg_.leave(reg, 1, START - HOUR) == 3
    assert reg_.registered(reg) == [2, 3] and reg_.waiting(reg) == []
    assert reg_.leave(reg, 2, START - HOUR) is None           # an empty waiting list: nobody moves
    assert reg_.registered(reg) == [3]


def test_leaving_and_signing_up_again_is_a_new_sign_up():
    """Ruling: "a player who leaves and signs up again is a new sign-up, at the end of the line"."""
    reg = _reg(cap=2)
    _signed(reg, 1, 2, 3)
    assert reg_.leave(reg, 1, START - 2 * HOUR) == 3
    assert _signed(reg, 1) == ["waiting"]
    assert reg_.registered(reg) == [2, 3] and reg_.waiting(reg) == [1]


def test_signup_deadline_edges():
    """"Sign-up is open until a time": open at the deadline itself, closed after it; never at or
    after the start."""
    reg = _reg(signup_until=START - HOUR)
    assert reg_.signup_open(reg, START - HOUR)
    assert reg_.sign_up(reg, 1, "a", START - HOUR) == "registered"
    assert not reg_.signup_open(reg, START - HOUR + 1)
    e = _raises("events.err.signup_closed", reg_.sign_up, reg, 2, "b", START - HOUR + 1)
    assert e.params == {"until": START - HOUR}
    reg = _reg(signup_until=None)
    assert reg_.sign_up(reg, 1, "a", START - 1) == "registered"
    _raises("events.err.started", reg_.sign_up, reg, 2, "b", START)


# -- check-in -----------------------------------------------------------------------------------

def test_checkin_window_edges():
    """"Check-in opens a set time (checkin_minutes) before the start and closes at the start"."""
    reg = _reg(checkin=30)
    _signed(reg, 1, 2, 3)
    opens = START - 30 * 60
    assert reg_.checkin_window(reg) == (opens, START)
    assert not reg_.checkin_open(reg, opens - 1)
    assert reg_.checkin_open(reg, opens) and reg_.checkin_open(reg, START - 0.001)
    assert not reg_.checkin_open(reg, START)
    e = _raises("events.err.checkin_not_open", reg_.check_in, reg, 1, opens - 1)
    assert e.params == {"opens": opens}
    assert reg_.check_in(reg, 1, opens) == "registered"
    assert reg_.check_in(reg, 2, START - 0.5) == "registered"
    _raises("events.err.checkin_closed", reg_.check_in, reg, 3, START)
    assert reg_.entry(reg, 1)["checked_in_by"] == "player"


def test_organiser_checks_in_outside_the_window():
    """"The organiser may check someone in by hand (also outside the window)"."""
    reg = _reg(checkin=15)
    _signed(reg, 1, 2)
    assert reg_.check_in(reg, 1, START - 5 * HOUR, by_organiser=True) == "registered"
    assert reg_.check_in(reg, 2, START + 60, by_organiser=True) == "registered"   # late, before close
    assert reg_.entry(reg, 2)["checked_in_by"] == "organiser"
    assert reg_.close(reg, START + 120) == [1, 2]


def test_waiting_players_may_check_in_and_keep_it_when_moving_up():
    """Waiting-list players may check in; one who moves up stays checked in."""
    reg = _reg(cap=2)
    _signed(reg, 1, 2, 3)
    assert reg_.check_in(reg, 3, START - 60) == "waiting"
    assert reg_.check_in(reg, 2, START - 60) == "registered"
    assert reg_.leave(reg, 1, START - 30) == 3
    assert reg_.close(reg, START) == [2, 3]


def test_close_with_no_checkin_and_waiting_list_fill():
    """"At the start, registered players who did not check in are left out (they stay listed as
    'no check-in'), and waiting-list players who checked in may fill free places up to the cap in
    waiting-list order"."""
    reg = _reg(cap=4)
    _signed(reg, 1, 2, 3, 4, 5, 6, 7, 8)
    for u in (1, 3, 6, 7, 8):                   # 2 and 4 do not check in, nor does 5 (waiting)
        reg_.check_in(reg, u, START - 60)
    players = reg_.close(reg, START)
    assert players == [1, 3, 6, 7]             # two free places: 6 and 7 in waiting-list order
    assert [reg_.status(reg, u) for u in range(1, 9)] == [
        "active", "no_checkin", "active", "no_checkin", "waiting", "active", "active", "waiting"]
    assert reg_.active(reg) == players and reg_.started(reg) and reg["closed_at"] == START


def test_close_without_check_in_takes_the_registered_players():
    """An event without check-in takes every registered player; the waiting list stays out."""
    reg = _reg(cap=2, checkin=None)
    _signed(reg, 1, 2, 3)
    _raises("events.err.no_checkin", reg_.check_in, reg, 1, START - 60)
    assert reg_.close(reg, START) == [1, 2] and reg_.status(reg, 3) == "waiting"


def test_close_without_a_cap_fills_every_checked_in_player():
    """Without a cap there is no waiting list: every checked-in registered player plays."""
    reg = _reg(cap=None)
    _signed(reg, 1, 2, 3)
    for u in (3, 1):
        reg_.check_in(reg, u, START - 60)
    assert reg_.close(reg, START) == [1, 3]


def test_close_needs_two_players():
    """An event needs at least two players: with fewer it does not start and nothing changes."""
    reg = _reg()
    _signed(reg, 1, 2, 3)
    reg_.check_in(reg, 2, START - 60)
    e = _raises("events.err.too_few", reg_.close, reg, START)
    assert e.params == {"n": 1} and not reg_.started(reg)


# -- after the start ----------------------------------------------------------------------------

def test_drop_never_paired_again_stays_in_the_standings():
    """"A player may drop between rounds (never paired again, stays in the standings)"."""
    reg = _reg(checkin=None)
    _signed(reg, 1, 2, 3)
    reg_.close(reg, START)
    reg_.drop(reg, 2, START + HOUR)
    assert reg_.active(reg) == [1, 3]
    assert reg_.players(reg) == [{"id": 1, "name": "player 1", "status": "active"},
                                 {"id": 2, "name": "player 2", "status": "dropped"},
                                 {"id": 3, "name": "player 3", "status": "active"}]
    rows = scoring.standings(reg_.players(reg), [{"round": 1, "a": 2, "b": 3, "games": ["a"], "result": None}])
    assert rows[0].user_id == 2 and rows[0].status == "dropped"
    _raises("events.err.already_dropped", reg_.drop, reg, 2, START + HOUR)


@pytest.mark.parametrize("minutes", [10, 15])
def test_no_show_thresholds(minutes):
    """"When a pairing has not started (no game begun) within no_show_minutes after the round
    began, the player who showed up may claim a game win; after twice that time, the match"."""
    began = START
    t = minutes * 60
    claim = reg_.no_show_claim
    assert claim(began, began, minutes, False) is None
    assert claim(began, began + t - 1, minutes, False) is None
    assert claim(began, began + t, minutes, False) == "game"
    assert claim(began, began + 2 * t - 1, minutes, False) == "game"
    assert claim(began, began + 2 * t, minutes, False) == "match"
    assert claim(began, began + 10 * t, minutes, False) == "match"
    assert claim(began, began + 10 * t, minutes, True) is None        # a game has begun
    assert claim(began, began - 60, minutes, False) is None           # the round has not begun
    assert claim(began, began + 10 * t, None, False) is None          # no no-show rule


def test_registration_is_json_able():
    """The host stores the registration as JSON: a round trip changes nothing."""
    reg = _reg(cap=2)
    _signed(reg, 1, 2, 3)
    for u in (1, 3):
        reg_.check_in(reg, u, START - 60)
    back = json.loads(json.dumps(reg))
    assert back == reg
    assert reg_.close(copy.deepcopy(back), START) == reg_.close(reg, START) == [1, 3]


# -- errors -------------------------------------------------------------------------------------

def test_errors_before_the_start():
    """Double sign-up, sign-up after the deadline, check-in by a non-registered user, a double
    check-in, leaving without having signed up: each an error that changes nothing."""
    reg = _reg(cap=2)
    _signed(reg, 1, 2, 3)
    e = _raises("events.err.already_signed_up", reg_.sign_up, reg, 1, "again", START - 2 * HOUR)
    assert e.params == {"status": "registered"}
    _raises("events.err.already_signed_up", reg_.sign_up, reg, 3, "again", START - 2 * HOUR)
    _raises("events.err.signup_closed", reg_.sign_up, reg, 9, "late", START - 60)
    _raises("events.err.not_signed_up", reg_.check_in, reg, 9, START - 60)
    _raises("events.err.not_signed_up", reg_.check_in, reg, 9, START - 60, by_organiser=True)
    reg_.check_in(reg, 1, START - 60)
    _raises("events.err.already_checked_in", reg_.check_in, reg, 1, START - 30)
    _raises("events.err.not_signed_up", reg_.leave, reg, 9, START - 60)
    _raises("events.err.started", reg_.leave, reg, 1, START)        # at the start: drop instead
    _raises("events.err.not_started", reg_.drop, reg, 1, START - 60)


def test_errors_after_the_start():
    """Once started: no sign-up, leave, check-in or second start; only active players drop."""
    reg = _reg(cap=2, checkin=None)
    _signed(reg, 1, 2, 3)
    reg_.close(reg, START - 10)
    _raises("events.err.started", reg_.sign_up, reg, 9, "x", START - 5)
    _raises("events.err.started", reg_.leave, reg, 1, START - 5)
    _raises("events.err.started", reg_.check_in, reg, 1, START - 5, by_organiser=True)
    _raises("events.err.started", reg_.close, reg, START)
    _raises("events.err.not_playing", reg_.drop, reg, 3, START)        # on the waiting list
    _raises("events.err.not_playing", reg_.drop, reg, 9, START)        # never signed up


@pytest.mark.parametrize("kwargs, key", [
    ({"cap": 1}, "events.err.bad_cap"),
    ({"cap": 0}, "events.err.bad_cap"),
    ({"cap": 2.5}, "events.err.bad_cap"),
    ({"checkin_minutes": 0}, "events.err.bad_minutes"),
    ({"checkin_minutes": 10, "start_at": None}, "events.err.checkin_needs_start"),
    ({"signup_until": START + 1}, "events.err.signup_after_start"),
])
def test_new_rejects_nonsense(kwargs, key):
    """Settings that cannot work are refused when the registration is made."""
    args = {"cap": 8, "signup_until": START - HOUR, "start_at": START, "checkin_minutes": 30} | kwargs
    _raises(key, reg_.new, **args)
    _raises("events.err.bad_minutes", reg_.no_show_claim, START, START, 0, False)
