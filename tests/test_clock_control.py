"""Time controls and banks (host/clocks/control.py).

"A match (and each game of an event pairing) takes either today's per-move time or a time bank:
an initial time, an increment added after each of the player's moves, and a cap (e.g.
`3d+1d max 7d`; presets like "fast: 1 h + 10 min", "daily: 3 d + 1 d", in words in both
languages). Only the player(s) to act spend their bank; a secret response window spends the
responder's own bank (with today's floor so a window never blocks forever)."
"""
from __future__ import annotations

import json
import random
import re

import pytest

from data import i18n
from host.clocks import ClockError
from host.clocks import control as C
from host.clocks.control import DAY, HOUR, MINUTE, TimeControl

EN, JA = i18n.catalog("en"), i18n.catalog("ja")


def told(err: ClockError) -> tuple[str, str]:
    """The refusal in both languages, every placeholder filled."""
    texts = (err.text("en"), err.text("ja"))
    assert err.key in EN and err.key in JA, err.key
    for text in texts:
        assert not re.search(r"\{\w+\}", text), (err.key, text)
    return texts


# --------------------------------------------------------------------------- parse
@pytest.mark.parametrize("text, expected", [
    ("3d+1d max 7d", TimeControl.bank(3 * DAY, DAY, 7 * DAY)),
    ("3d + 1d max 7d", TimeControl.bank(3 * DAY, DAY, 7 * DAY)),
    ("3 days + 1 day, at most 7 days", TimeControl.bank(3 * DAY, DAY, 7 * DAY)),
    ("1h+10m", TimeControl.bank(HOUR, 10 * MINUTE, 2 * HOUR)),
    ("90m", TimeControl.bank(90 * MINUTE)),
    ("2h30m+5m cap 4h", TimeControl.bank(150 * MINUTE, 5 * MINUTE, 4 * HOUR)),
    ("1w+1d max 2w", TimeControl.bank(7 * DAY, DAY, 14 * DAY)),
    ("3d+1dmax7d", TimeControl.bank(3 * DAY, DAY, 7 * DAY)),
    ("3日+1日 上限7日", TimeControl.bank(3 * DAY, DAY, 7 * DAY)),
    ("３日＋１日　上限７日", TimeControl.bank(3 * DAY, DAY, 7 * DAY)),
    ("1時間+10分", TimeControl.bank(HOUR, 10 * MINUTE, 2 * HOUR)),
    ("1日半+1時間半 最大3日", TimeControl.bank(36 * HOUR, 90 * MINUTE, 3 * DAY)),
    ("per move 24h", TimeControl.move(24 * HOUR)),
    ("24h per move", TimeControl.move(24 * HOUR)),
    ("5m/move", TimeControl.move(5 * MINUTE)),
    ("1回の番ごとに24時間", TimeControl.move(24 * HOUR)),
    ("72時間 番ごと", TimeControl.move(72 * HOUR)),
])
def test_parse_reads_what_players_type_in_both_languages(text, expected):
    """"a time bank: an initial time, an increment added after each of the player's moves, and a
    cap (e.g. `3d+1d max 7d`…)"; Japanese input and today's per-move time too."""
    assert C.parse(text) == expected


def test_without_a_cap_the_bank_may_grow_to_twice_its_start_and_without_increment_never_grows():
    """Design (docs/clocks.md): `1h+10m` has no `max`: the cap is twice the starting time (at
    most 60 days); a bank without increment keeps its starting time as its cap."""
    assert C.parse("1h+10m").cap == 2 * HOUR
    assert C.parse("30d+1d").cap == 60 * DAY
    assert C.parse("90m").cap == C.parse("90m").initial == 90 * MINUTE
    with pytest.raises(ClockError) as exc:
        C.parse("90m max 2h")
    assert exc.value.key == "clock.err.control.cap_alone"
    told(exc.value)


def test_presets_are_data_named_in_both_languages():
    """"presets like "fast: 1 h + 10 min", "daily: 3 d + 1 d", in words in both languages"."""
    assert C.PRESETS == {
        "fast": TimeControl.bank(HOUR, 10 * MINUTE, 2 * HOUR),
        "daily": TimeControl.bank(3 * DAY, DAY, 7 * DAY),
        "slow": TimeControl.bank(7 * DAY, 2 * DAY, 14 * DAY),
    }
    for name, tc in C.PRESETS.items():
        assert C.parse(name) == tc and C.parse(name.upper()) == tc
        assert C.parse(i18n.t(f"clock.control.preset.{name}", "ja")) == tc
        assert C.parse(i18n.t(f"clock.control.preset.{name}", "en")) == tc
        assert C.preset_of(tc) == name
    assert C.parse("weekly") == C.PRESETS["slow"] and C.parse("デイリー") == C.PRESETS["daily"]
    assert C.describe(C.PRESETS["fast"], "en") == "Fast: 1 hour + 10 minutes per move, at most 2 hours"
    assert C.describe(C.PRESETS["daily"], "en") == "Daily: 3 days + 1 day per move, at most 7 days"
    assert C.describe(C.PRESETS["daily"], "ja") == "毎日：持ち時間3日＋1回の番ごとに1日（上限7日）"
    assert C.describe(C.PRESETS["slow"], "ja", named=False) == "持ち時間7日＋1回の番ごとに2日（上限14日）"


def test_describe_says_a_control_in_words():
    """"`describe(tc, locale)` in words ("3 days + 1 day per move, at most 7 days" / Japanese)"."""
    assert C.describe(C.parse("3d+1d max 7d"), "en", named=False) == "3 days + 1 day per move, at most 7 days"
    assert C.describe(C.parse("2h30m+5m cap 4h"), "en") == "2 hours 30 minutes + 5 minutes per move, at most 4 hours"
    assert C.describe(C.parse("2h30m+5m cap 4h"), "ja") == "持ち時間2時間30分＋1回の番ごとに5分（上限4時間）"
    assert C.describe(C.parse("90m"), "en") == "1 hour 30 minutes for the whole match (no increment)"
    assert C.describe(C.parse("90m"), "ja") == "対戦全体で1時間30分（加算なし）"
    # per move, as today's turn-time choices say it: hours, never days
    assert C.describe(C.parse("72h per move"), "en") == "72 hours per move"
    assert C.describe(C.parse("1回の番ごとに5分"), "ja") == "1回の番ごとに5分"
    assert C.describe(C.parse("1h per move"), "en") == "1 hour per move"


def _random_control(rng: random.Random) -> TimeControl:
    if rng.random() < 0.3:
        return TimeControl.move(rng.randrange(C.PER_MOVE_MIN, C.PER_MOVE_MAX + 1, MINUTE))
    initial = rng.choice([rng.randrange(MINUTE, 3 * HOUR, MINUTE), rng.randrange(HOUR, C.INITIAL_MAX + 1, HOUR)])
    if rng.random() < 0.25:
        return TimeControl.bank(initial)
    increment = rng.randrange(MINUTE, C.INCREMENT_MAX + 1, MINUTE)
    cap = rng.randrange(initial, C.CAP_MAX + 1, MINUTE) if rng.random() < 0.7 else None
    return TimeControl.bank(initial, increment, cap)


def test_parse_reads_back_describe_and_notation_in_both_languages():
    """"parse/describe round-trips in both languages": what the bot says a control is, a player
    may paste back, in English and in Japanese, and the short notation too."""
    rng = random.Random(48)
    controls = list(C.PRESETS.values()) + [_random_control(rng) for _ in range(300)]
    for tc in controls:
        for loc in ("en", "ja"):
            assert C.parse(C.describe(tc, loc)) == tc, (tc, C.describe(tc, loc))
            assert C.parse(C.describe(tc, loc, named=False)) == tc
        assert C.parse(C.notation(tc)) == tc, (tc, C.notation(tc))
        assert len(C.notation(tc)) <= C.MAX_TEXT
    assert C.notation(C.PRESETS["daily"]) == "3d+1d max 7d"
    assert C.notation(C.parse("1回の番ごとに24時間")) == "24h per move"


BAD = [
    ("", "clock.err.control.empty"),
    ("   ", "clock.err.control.empty"),
    (",", "clock.err.control.empty"),
    ("garbage", "clock.err.control.syntax"),
    ("3d+1d max 7d; drop table", "clock.err.control.syntax"),
    ("-3d", "clock.err.control.syntax"),
    ("3d+-1d", "clock.err.control.syntax"),
    ("1.5d", "clock.err.control.decimal"),
    ("2,5h", "clock.err.control.decimal"),
    ("1分半", "clock.err.control.syntax"),
    ("3", "clock.err.control.unit"),
    ("3+1", "clock.err.control.unit"),
    ("30s", "clock.err.control.unit"),
    ("5 mo", "clock.err.control.unit"),
    ("7時", "clock.err.control.unit"),
    ("9999999d", "clock.err.control.too_big"),
    ("1" * 60 + "d", "clock.err.control.too_big"),
    ("x" * 129, "clock.err.control.too_long"),
    ("3d" * 5000, "clock.err.control.too_long"),          # 10 KB
    ("３" * 10_000, "clock.err.control.too_long"),
    ("3d+", "clock.err.control.shape"),
    ("+1d", "clock.err.control.shape"),
    ("3d max", "clock.err.control.shape"),
    ("max 7d", "clock.err.control.shape"),
    ("3d 1d", "clock.err.control.shape"),
    ("30m 2h", "clock.err.control.shape"),
    ("3d+1d+1d", "clock.err.control.shape"),
    ("3d+1d max 7d max 8d", "clock.err.control.shape"),
    ("per move", "clock.err.control.shape"),
    ("24h per move max 3d", "clock.err.control.shape"),
    ("24h per move per move", "clock.err.control.shape"),
    ("0d", "clock.err.control.initial"),
    ("0m+1m", "clock.err.control.initial"),
    ("31d", "clock.err.control.initial"),
    ("3d+8d", "clock.err.control.increment"),
    ("3d+1d max 2d", "clock.err.control.cap"),
    ("3d+1d max 61d", "clock.err.control.cap"),
    ("1m per move", "clock.err.control.per_move"),
    ("73h per move", "clock.err.control.per_move"),
    ("0m per move", "clock.err.control.per_move"),
]


@pytest.mark.parametrize("text, key", BAD)
def test_bad_input_is_refused_with_a_catalog_key_saying_what_is_allowed(text, key):
    """"a corpus of bad inputs (garbage, huge numbers, 10 KB strings, negative, zero bank) each
    refused with a catalog key"; "errors as ClockError with catalog keys that say what is
    allowed instead", located where a place can be named."""
    with pytest.raises(ClockError) as exc:
        C.parse(text)
    assert exc.value.key == key, (text, exc.value)
    en, ja = told(exc.value)
    if "at" in exc.value.params:
        at = exc.value.params["at"]
        assert isinstance(at, int) and 1 <= at <= len(text)
        assert f"character {at}" in en and f"{at}文字目" in ja


def test_errors_locate_the_part_they_refuse():
    """"refused with a located, localizable error": the error quotes the part and its place."""
    for text, part, at in [("3d + 1x", "1", 6), ("3d+1d max 7d junk", "junk", 14), ("3d 1d", "1d", 4),
                           ("3日+1日 上限", "上限", 7)]:
        with pytest.raises(ClockError) as exc:
            C.parse(text)
        assert (exc.value.params["part"], exc.value.params["at"]) == (part, at), exc.value


def test_bounds_errors_say_the_bounds_in_the_readers_words():
    """Bounds are params said in each language (a Japanese reader never reads "30 days")."""
    with pytest.raises(ClockError) as exc:
        C.parse("100d")
    en, ja = told(exc.value)
    assert en == "The starting time must be from 1 minute to 30 days."
    assert ja == "最初の持ち時間は1分〜30日にしてください。"
    with pytest.raises(ClockError) as exc:
        C.parse("2m per move")
    assert told(exc.value) == ("A time per move must be from 5 minutes to 72 hours.",
                               "1回の番ごとの持ち時間は5分〜72時間にしてください。")


def test_todays_turn_times_are_valid_per_move_controls():
    """"either today's per-move time (`turn_time`, 5 minutes to 72 hours)": every turn-time
    choice of /play is a per-move control, described as the choice is labelled."""
    from cogs.common import TURN_CHOICES

    for seconds in TURN_CHOICES:
        if seconds:
            tc = TimeControl.move(seconds)
            assert C.describe(tc, "en") == i18n.t(f"cogs.turn.{seconds}", "en") + " per move"
            assert C.parse(C.notation(tc)) == tc
    assert (C.PER_MOVE_MIN, C.PER_MOVE_MAX) == (min(s for s in TURN_CHOICES if s), max(TURN_CHOICES))


# --------------------------------------------------------------------------- stored rows
def test_json_round_trip():
    """"Immutable, JSON round-trip (`to_json()`/`from_json()`…)"."""
    rng = random.Random(7)
    for tc in [_random_control(rng) for _ in range(100)] + list(C.PRESETS.values()):
        stored = json.dumps(tc.to_json())
        assert TimeControl.from_json(json.loads(stored)) == tc
        assert TimeControl.from_json(stored) == tc
    assert C.PRESETS["daily"].to_json() == {"initial": 3 * DAY, "increment": DAY, "cap": 7 * DAY}
    assert TimeControl.move(300).to_json() == {"per_move": 300}
    with pytest.raises(AttributeError):
        C.PRESETS["daily"].cap = 1      # frozen


@pytest.mark.parametrize("row", [
    None, 3, [], "", "{", "[1, 2]", "x" * 2000, {}, {"per_move": 0}, {"per_move": True}, {"per_move": 300.0},
    {"per_move": "300"}, {"per_move": 330.5}, {"per_move": 30}, {"per_move": 300, "cap": 300},
    {"initial": 3600, "increment": 60}, {"initial": 3600, "increment": 60, "cap": 60},
    {"initial": -60, "increment": 0, "cap": -60}, {"initial": 3600, "increment": 60, "cap": 7200, "x": 1},
    {"initial": 3600, "increment": 0, "cap": 7200}, {"initial": 90, "increment": 0, "cap": 90},
    {"initial": 10 ** 30, "increment": 0, "cap": 10 ** 30}, '{"initial": 1e999, "increment": 0, "cap": 1}',
    "[" * 100_000 + "]" * 100_000,
])
def test_a_damaged_stored_row_raises_a_clear_error_never_a_half_built_control(row):
    """"a stored row is checked when read; a bad one raises a clear error, never a half-built
    object"."""
    with pytest.raises(ClockError) as exc:
        TimeControl.from_json(row)
    assert exc.value.key == "clock.err.control.stored"
    told(exc.value)


def test_a_control_cannot_be_built_inconsistent():
    """Valid by construction: both kinds at once, fractions of a minute, a cap below the start."""
    for kwargs, key in [(dict(per_move=300, initial=300, cap=300), "clock.err.control.kind"),
                        (dict(), "clock.err.control.kind"),
                        (dict(initial=3600, increment=30, cap=7200), "clock.err.control.whole_minutes"),
                        (dict(initial=3600, increment=60, cap=1800), "clock.err.control.cap")]:
        with pytest.raises(ClockError) as exc:
            TimeControl(**kwargs)
        assert exc.value.key == key
        told(exc.value)


# --------------------------------------------------------------------------- bank arithmetic
def test_banks_start_full_and_only_spending_lowers_them():
    """"Only the player(s) to act spend their bank": each seat starts with the initial time and
    a bank goes down by the running seconds of its own player only, never below 0."""
    tc = C.parse("3d+1d max 7d")
    banks = list(C.start_banks(tc, 4))
    assert banks == [3 * DAY] * 4
    banks[2] = C.spend(banks[2], 5 * HOUR)
    assert banks == [3 * DAY, 3 * DAY, 3 * DAY - 5 * HOUR, 3 * DAY]
    assert C.spend(100.0, 250.5) == 0.0 and C.out_of_time(C.spend(100.0, 250.5))
    assert not C.out_of_time(C.spend(100.0, 99.5))
    with pytest.raises(ValueError):
        C.spend(100.0, -1)
    with pytest.raises(ValueError):
        C.start_banks(tc, 0)


def test_the_increment_comes_after_the_players_own_move_up_to_the_cap():
    """"an increment added after each of the player's moves, and a cap": `3d+1d max 7d` grows by a
    day per quick move and stops at 7 days."""
    tc = C.parse("3d+1d max 7d")
    bank = C.start_banks(tc, 2)[0]
    bank = C.after_move(bank, 2 * HOUR, tc)
    assert bank == 4 * DAY - 2 * HOUR
    for _ in range(10):
        bank = C.after_move(bank, 60, tc)
    assert bank == 7 * DAY                      # the cap
    assert C.after_move(7 * DAY, 3 * DAY, tc) == 5 * DAY
    assert C.after_move(3600.0, 9999.0, tc) == DAY          # spent to 0, then the increment
    flat = C.parse("90m")
    assert C.after_move(90 * MINUTE, 10 * MINUTE, flat) == 80 * MINUTE


def test_per_move_time_is_full_again_after_each_move():
    """"what "time left" means for a per-move control (today's behaviour)": each move has the
    whole per-move time, whatever the last one took."""
    tc = C.parse("24h per move")
    assert C.start_banks(tc, 2) == (24 * HOUR, 24 * HOUR)
    assert C.spend(24 * HOUR, 20 * HOUR) == 4 * HOUR
    assert C.after_move(4 * HOUR, 3 * HOUR, tc) == 24 * HOUR
    assert C.after_move(0.0, 30 * HOUR, tc) == 24 * HOUR


def test_a_secret_window_spends_the_responders_bank_with_todays_floor():
    """"a secret response window spends the responder's own bank (with today's floor so a window
    never blocks forever)": the window lasts the bank, at least the floor (today's 5 minutes),
    even on an empty bank; it earns no increment."""
    from host.table import WINDOW_SECONDS

    assert C.WINDOW_FLOOR == WINDOW_SECONDS == 5 * MINUTE
    assert C.window_allowance(2 * DAY) == 2 * DAY
    assert C.window_allowance(60.0) == C.WINDOW_FLOOR
    assert C.window_allowance(0.0) == C.WINDOW_FLOOR
    assert C.window_allowance(0.0, floor=30) == 30
    assert C.spend(60.0, C.window_allowance(60.0)) == 0.0        # the window ate the bank, not more
    # per move: the window lasts the turn time, as today
    tc = C.parse("1h per move")
    assert C.window_allowance(C.start_banks(tc, 2)[1]) == HOUR


@pytest.mark.parametrize("seconds, en, ja", [
    (2 * DAY + 4 * HOUR + 59 * MINUTE + 59, "2 d 4 h", "2日4時間"),
    (2 * DAY + 30 * MINUTE, "2 d", "2日"),
    (3 * HOUR + 5 * MINUTE + 30, "3 h 5 min", "3時間5分"),
    (HOUR, "1 h", "1時間"),
    (45 * MINUTE + 59.9, "45 min", "45分"),
    (59.99, "59 s", "59秒"),
    (0, "0 s", "0秒"),
    (-5, "0 s", "0秒"),
    (float("nan"), "0 s", "0秒"),
])
def test_format_left_is_compact_and_never_says_more_than_is_left(seconds, en, ja):
    """"`format_left(seconds, locale)` compact duration words ("2 d 4 h", "3時間5分") for the
    board's clock line" (rounded down)."""
    assert C.format_left(seconds, "en") == en
    assert C.format_left(seconds, "ja") == ja
