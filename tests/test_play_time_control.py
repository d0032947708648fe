"""Choosing a clock (docs/clocks.md, "Choosing a clock"): ``/play time_control:`` and
``weekend_pause:``, a server's defaults in ``/settings`` (time control, weekend pause, vacation
days), and what the board and ``/match status`` show of a match on a time bank — through the real
cogs on the fake HTTP layer of tests/discord_fakes.py and the Host with a hand-driven clock.
Each test's docstring quotes the sentence of the issue it proves."""
from __future__ import annotations

import re

import pytest

from cogs.board_clock import clock_field
from cogs.play_options import clock_args, control_suggestions
from discord_fakes import ALL_PERMISSIONS, make_env, message_text
from host.clocks import control
from rules import registry
from test_host_hidden import WindowGame

DAY, HOUR = 86400, 3600
DAILY = {"initial": 3 * DAY, "increment": DAY, "cap": 7 * DAY}


def no_stamps(text: str) -> str:
    """``text`` without its Discord timestamps (an instant's digits may hold any number)."""
    return re.sub(r"<t:\d+:[a-zA-Z]>", "<t>", text)


def uid(user: dict) -> int:
    return int(user["id"])


async def _matches(env) -> list:
    return await env.store.matches_for_user(uid(env.alice), ("pending", "open", "active", "finished", "aborted"), 50)


async def _latest(env):
    return max(await _matches(env), key=lambda m: m.id)


async def _admin(env, path: str, **options):
    return await env.fake.slash(env.bot, env.carol, f"settings {path}", permissions=ALL_PERMISSIONS, **options)


# ---------------------------------------------------------------------------- /play: presets and typed controls
async def test_a_preset_offered_in_words_makes_a_bank_match(env):
    """"presets like "fast: 1 h + 10 min", "daily: 3 d + 1 d", in words in both languages"."""
    en = await env.fake.autocomplete(env.bot, env.alice, "play", "time_control", game="squares", time_control="dai")
    assert en[0] == {"name": "Daily: 3 days + 1 day per move, at most 7 days", "value": "daily"}
    ja = await env.fake.autocomplete(env.bot, env.alice, "play", "time_control", game="squares", time_control="",
                                     locale="ja")
    labels = [c["name"] for c in ja]
    assert "速め：持ち時間1時間＋1回の番ごとに10分（上限2時間）" in labels
    assert "毎日：持ち時間3日＋1回の番ごとに1日（上限7日）" in labels
    assert "1回の番ごとに24時間" in labels and "なし：時間の制限なし" in labels
    ix = await env.play(env.alice, game="squares", opponent=env.bob, options="first=1", time_control="daily")
    assert "Challenge #" in ix.text, ix.text
    rec = await _latest(env)
    assert rec.meta["clock"]["control"] == DAILY and rec.meta["clock"]["weekend"] is False
    # the challenge says how the match is played: the control in words, never the seconds
    challenge = message_text(env.fake.posts(env.fake.channel["id"])[-1])
    assert "Time control: Daily: 3 days + 1 day per move, at most 7 days" in challenge
    assert "Weekend pause" not in challenge and "259200" not in no_stamps(challenge) and "72 hours" not in challenge


async def test_a_typed_bank_with_a_weekend_pause_is_read_back_and_kept(env):
    """"an initial time, an increment added after each of the player's moves, and a cap (e.g.
    `3d+1d max 7d` …)"; "Weekend pause (a match or event option)"."""
    found = await env.fake.autocomplete(env.bot, env.alice, "play", "time_control", game="squares",
                                        time_control="2h30m+5m cap 4h")
    assert found[0] == {"name": "2 hours 30 minutes + 5 minutes per move, at most 4 hours", "value": "2h30m+5m max 4h"}
    ix = await env.play(env.alice, game="squares", opponent=env.bob, options="first=1",
                        time_control="3d + 1d max 7d", weekend_pause=True)
    assert "Challenge #" in ix.text, ix.text
    rec = await _latest(env)
    assert rec.meta["clock"]["control"] == DAILY and rec.meta["clock"]["weekend"] is True
    challenge = message_text(env.fake.posts(env.fake.channel["id"])[-1])
    assert "Time control: Daily: 3 days + 1 day per move, at most 7 days" in challenge
    assert "Weekend pause: no clock from Saturday 00:00 to Monday 00:00 in each player's time zone" in challenge
    # today's time per move, typed: a per-move clock, said in words ("2 hours", not "7200s")
    ix = await env.play(env.alice, game="squares", opponent=env.bob, options="first=1", time_control="2h per move")
    rec = await _latest(env)
    assert rec.turn_seconds == 2 * HOUR and "clock" not in rec.meta
    challenge = message_text(env.fake.posts(env.fake.channel["id"])[-1])
    assert "**Turn time**\n2 hours" in challenge and "7200" not in challenge


async def test_todays_turn_time_still_works_and_both_at_once_is_refused(env):
    """"A match … takes either today's per-move time or a time bank"."""
    await env.play(env.alice, game="squares", opponent=env.bob, options="first=1", turn_time=300)
    rec = await _latest(env)
    assert rec.turn_seconds == 300 and "clock" not in rec.meta
    before = len(await _matches(env))
    ix = await env.play(env.alice, game="squares", opponent=env.bob, turn_time=300, time_control="daily")
    assert ix.ephemeral and "either turn_time or time_control, not both" in ix.text
    ix = await env.play(env.alice, game="squares", opponent=env.bob, turn_time=300, time_control="daily", locale="ja")
    assert "どちらか一方だけ" in ix.text
    assert len(await _matches(env)) == before


async def test_a_control_that_cannot_be_read_is_refused_where_it_fails_and_nothing_is_made(env):
    """"Bad input gets a clear localized error saying what is allowed, and changes nothing"
    (the time control typed with `/play`)."""
    ix = await env.play(env.alice, game="squares", opponent=env.bob, time_control="3d+1x")
    assert ix.ephemeral and "“1” (character 4) needs a unit" in ix.text, ix.text
    ix = await env.play(env.alice, game="squares", opponent=env.bob, time_control="3d+1x", locale="ja")
    assert "4文字目" in ix.text and "単位" in ix.text, ix.text
    ix = await env.play(env.alice, game="squares", opponent=env.bob, time_control="45d")
    assert "The starting time must be from 1 minute to 30 days." in ix.text, ix.text
    # a weekend pause needs a bank to pause
    ix = await env.play(env.alice, game="squares", opponent=env.bob, time_control="24h per move", weekend_pause=True)
    assert "A weekend pause needs a time bank" in ix.text
    ix = await env.play(env.alice, game="squares", opponent=env.bob, weekend_pause=True)
    assert "A weekend pause needs a time bank" in ix.text
    # … even against the computer: refused before anything starts
    ix = await env.play(env.alice, game="squares", opponent=env.fake.bot_user, time_control="soon")
    assert "cannot be read" in ix.text
    assert await _matches(env) == [] and env.fake.posts(env.fake.channel["id"]) == []


# ---------------------------------------------------------------------------- a server's defaults
async def test_a_servers_defaults_apply_when_the_player_gives_none(env):
    """"A server's /settings sets the defaults for new matches and events"."""
    ix = await _admin(env, "clock", value="daily")
    assert "Saved" in ix.text
    await _admin(env, "weekend", value="on")
    await env.play(env.alice, game="squares", opponent=env.bob, options="first=1")
    rec = await _latest(env)
    assert rec.meta["clock"]["control"] == DAILY and rec.meta["clock"]["weekend"] is True
    assert rec.turn_seconds == 3 * DAY
    # the player's own choice wins: another bank, without the pause …
    await env.play(env.alice, game="squares", opponent=env.bob, options="first=1", time_control="fast",
                   weekend_pause=False)
    rec = await _latest(env)
    assert rec.meta["clock"]["control"] == control.PRESETS["fast"].to_json() and rec.meta["clock"]["weekend"] is False
    # … today's time per move (no weekend pause: it pauses banks only) …
    await env.play(env.alice, game="squares", opponent=env.bob, options="first=1", turn_time=900)
    rec = await _latest(env)
    assert rec.turn_seconds == 900 and "clock" not in rec.meta
    # … or no clock at all
    await env.play(env.alice, game="squares", opponent=env.bob, options="first=1", time_control="none")
    rec = await _latest(env)
    assert rec.turn_seconds is None and "clock" not in rec.meta
    # a per-move default: the weekend default does not apply to it
    await _admin(env, "clock", value="24h per move")
    await env.play(env.alice, game="squares", opponent=env.bob, options="first=1")
    rec = await _latest(env)
    assert rec.turn_seconds == DAY and "clock" not in rec.meta
    # no default: today's behaviour
    await _admin(env, "clock", value="なし")
    await env.play(env.alice, game="squares", opponent=env.bob, options="first=1")
    rec = await _latest(env)
    assert rec.turn_seconds is None and "clock" not in rec.meta


def test_a_damaged_default_is_left_out_and_the_rules_hold_without_discord():
    """"Where this issue is silent, build what a player … would expect": a stored default that
    cannot be read plays as no default (logged), never refusing every /play."""
    assert clock_args(None, None, None, {"clock_control": {"initial": -5}}, "en") == ({}, None)
    assert clock_args(None, None, None, {"clock_control": DAILY, "clock_weekend": True}, "en") == (
        {"time_control": DAILY, "weekend_pause": True}, None)
    assert clock_args(0, None, None, {"clock_control": DAILY}, "en") == ({}, None)        # turn_time "none"
    args, refused = clock_args(123, None, None, {}, "en")
    assert args == {} and refused.startswith("Choose a turn time from the list")
    # what autocomplete offers for a typed text it cannot read: the presets that match, no error
    assert [v for _, v in control_suggestions("slo", "en")] == ["slow"]
    assert control_suggestions("zzz", "en") == []


async def test_settings_show_the_clock_defaults_in_words_and_refuse_bad_values(env):
    """"vacation days per rolling 365 days (a server setting, default 14)"; "A server's
    /settings sets the defaults for new matches and events"."""
    ix = await _admin(env, "show")
    assert "Default clock of new matches and events: none (no time limit unless one is chosen)" in ix.text
    assert "Weekend pause by default (time banks only): off" in ix.text
    assert "Vacation days: 14 per 365 days for each player" in ix.text
    choices = await env.fake.autocomplete(env.bot, env.carol, "settings clock", "value", value="3日+1日 上限7日",
                                          locale="ja")
    assert choices[0] == {"name": "毎日：持ち時間3日＋1回の番ごとに1日（上限7日）", "value": "daily"}
    await _admin(env, "clock", value="3日+1日 上限7日")
    await _admin(env, "weekend", value="on")
    ix = await _admin(env, "vacation_days", value=7)
    assert "Default clock of new matches and events: Daily: 3 days + 1 day per move, at most 7 days" in ix.text
    assert "Weekend pause by default (time banks only): on" in ix.text
    assert "Vacation days: 7 per 365 days for each player" in ix.text
    saved = await env.store.get_guild_settings(env.fake.guild_id)
    assert (saved["clock_control"], saved["clock_weekend"], saved["vacation_days"]) == (DAILY, True, 7)
    # a refusal says what is allowed and saves nothing
    ix = await _admin(env, "vacation_days", value=61)
    assert "whole number of days from 0 to 60" in ix.text
    ix = await _admin(env, "clock", value="3d max 7d")
    assert "A cap (character 4) only matters with an increment" in ix.text
    assert await env.store.get_guild_settings(env.fake.guild_id) == saved
    ix = await env.fake.slash(env.bot, env.alice, "settings vacation_days", value=3)
    assert "Manage Server" in ix.text and (await env.store.get_guild_settings(env.fake.guild_id)) == saved
    ix = await env.fake.slash(env.bot, env.carol, "settings show", permissions=ALL_PERMISSIONS, locale="ja")
    assert "新しい対戦と大会の既定の持ち時間：毎日：持ち時間3日＋1回の番ごとに1日（上限7日）" in ix.text
    assert "既定の週末の一時停止（持ち時間制のみ）：オン" in ix.text and "休暇日数：各プレイヤー365日あたり7日" in ix.text
    # a stored default that cannot be read is said so
    await env.store.set_guild_setting(env.fake.guild_id, "clock_control", {"per_move": 7})
    ix = await _admin(env, "show")
    assert "the stored one cannot be read; set it again with /settings clock" in ix.text


# ---------------------------------------------------------------------------- what the board shows
async def test_the_board_and_status_show_banks_in_words_never_the_stored_seconds(env):
    """"The board's clock line shows each player's bank; every deadline shown anywhere is a
    Discord timestamp, so each reader sees it in their own time zone"."""
    match_id = await env.start(time_control="daily")
    rec = await env.match(match_id)
    assert rec.status == "active" and rec.turn_seconds == 3 * DAY
    board = message_text(await env.board(match_id))
    assert f"Time banks: Alice: 3 d, Bob: 3 d. Time runs out <t:{int(rec.deadline)}:R>." in board
    assert "**Clock**\nTime control: Daily: 3 days + 1 day per move, at most 7 days" in board
    assert "259200" not in no_stamps(board) and "72 hours" not in board and "Turn time" not in board
    env.clock.advance(5 * HOUR)
    ix = await env.fake.slash(env.bot, env.bob, "match status", match=match_id, locale="ja")
    assert "持ち時間：Alice：残り3日、Bob：残り3日。期限：" in ix.text
    assert "持ち時間の方式：毎日：持ち時間3日＋1回の番ごとに1日（上限7日）" in ix.text and "259200" not in no_stamps(ix.text)
    # without the host's line in the status, the field says the banks itself, names made safe
    rec.names[0] = "**Al**"
    name, value = clock_field(rec, None, "en")
    assert name == "Clock" and "Time banks: \\*\\*Al\\*\\*: 3 d, Bob: 3 d. Time runs out <t:" in value
    # a rematch keeps the control, with full banks
    await env.fake.slash(env.bot, env.alice, "match resign", match=match_id)
    await env.fake.slash(env.bot, env.alice, "match rematch", match=match_id)
    rematch = await _latest(env)
    assert rematch.id != match_id and rematch.meta["clock"]["control"] == DAILY


@pytest.fixture
async def window_env(tmp_path):
    registry.register(WindowGame())
    e = await make_env(tmp_path)
    yield e
    await e.close()
    registry._games.pop("window_test", None)


async def test_a_secret_windows_deadline_is_never_shown(window_env):
    """"a secret response window spends the responder's own bank (with today's floor so a window
    never blocks forever)" — and nothing public tells the window: the board and /match status
    keep the deadline everyone saw before it."""
    env = window_env
    match_id = await env.start(game="window_test", options="", time_control="daily")
    public_deadline = int((await env.match(match_id)).deadline)
    thread_id = (await env.match(match_id)).channel_id
    env.clock.advance(HOUR)
    await env.fake.slash(env.bot, env.alice, "move", command="go", channel_id=thread_id)
    rec = await env.match(match_id)
    secret = int(rec.deadline)
    assert secret == public_deadline + HOUR        # Bob's bank from the window's start
    shown = [message_text(p) for p in env.fake.posts(thread_id)]
    shown.append((await env.fake.slash(env.bot, env.carol, "match status", match=match_id)).text)
    assert any(f"<t:{public_deadline}:R>" in text for text in shown)
    for text in shown:
        assert f"<t:{secret}" not in text and "259200" not in no_stamps(text)
    # the field computed without the host's line keeps the public deadline too
    _, value = clock_field(rec, None, "en")
    assert f"<t:{public_deadline}:R>" in value and f"<t:{secret}" not in value


async def test_a_bank_matchs_thread_outlasts_its_longest_decision(env):
    """"Where this issue is silent, build what a player with a job … would expect": the match's
    thread is not archived by a bank's starting time read as a time per move — a bank that may
    stop (weekend, vacation) keeps its thread a week, one that cannot for its cap."""
    from dataclasses import replace

    from cogs.board_clock import archive_minutes, turn_span

    match_id = await env.start(time_control="fast")         # 1 h + 10 min, at most 2 h; vacation stops it
    rec = await env.match(match_id)
    assert rec.turn_seconds == HOUR and turn_span(rec) is None
    [made] = [r for r in env.fake.calls("POST", r"/threads$") if r.json and "auto_archive_duration" in r.json]
    assert made.json["auto_archive_duration"] == 10080
    no_pause = replace(rec, meta={**rec.meta, "clock": {**rec.meta["clock"], "vacation": False}})
    assert turn_span(no_pause) == 2 * HOUR and archive_minutes(turn_span(no_pause)) == 4320
    per_move = replace(rec, meta={k: v for k, v in rec.meta.items() if k != "clock"}, turn_seconds=300)
    assert turn_span(per_move) == 300 and archive_minutes(300) == 1440
