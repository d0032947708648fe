"""How each player is told, through the bot on the fake Discord (cogs/notices.py, the routing in
cogs/delivery.py; docs/clocks.md, "How you are told"): a ping in the thread, a DM with a jump
link, or nothing but the digest; a reminder inside quiet hours held until they end (Tokyo and
Paris) or until an hour before the deadline; at most one reminder per match per local day; the
daily digest at the chosen hour, once a day; closed DMs."""
from __future__ import annotations

from datetime import datetime
from types import SimpleNamespace
from zoneinfo import ZoneInfo

from discord_fakes import message_text

DAY = 86400
TOKYO = {"zone": "Asia/Tokyo", "quiet": "23:00-07:00"}
PARIS = {"zone": "Europe/Paris", "quiet": "23:00-07:00"}


def uid(user: dict) -> int:
    return int(user["id"])


def local(zone: str, *args: int) -> float:
    return datetime(*args, tzinfo=ZoneInfo(zone)).timestamp()


def tokyo(*args: int) -> float:
    return local("Asia/Tokyo", *args)


def pinged(message: dict) -> list[int]:
    return [int(u) for u in (message.get("_allowed_mentions") or {}).get("users", [])]


async def move(env, user: dict, match_id: int) -> None:
    """The user plays their first legal move in the thread."""
    thread_id = (await env.match(match_id)).channel_id
    legal = await env.host.legal(match_id, uid(user))
    ix = await env.fake.slash(env.bot, user, "move", command=legal[0], channel_id=thread_id)
    assert "You played" in ix.text, ix.text


async def test_each_player_is_told_by_ping_dm_or_the_digest_only(env):
    """"how to be told that it is their turn: thread ping, DM, or digest only": a DM player is
    not pinged but gets a DM with a jump link; a digest-only player is neither pinged nor DMed."""
    await env.store.set_player_settings(uid(env.alice), {"how": "digest"})
    await env.store.set_player_settings(uid(env.bob), {"how": "dm"})
    mid = await env.start(turn_time=DAY)
    thread = (await env.match(mid)).channel_id
    first = await env.board(mid)
    assert "your turn" in message_text(first) and pinged(first) == []          # Alice: the digest only
    assert env.fake.dms(uid(env.alice)) == []
    await move(env, env.alice, mid)
    board = await env.board(mid)
    assert pinged(board) == []                                            # Bob: a DM instead
    dms = env.fake.dms(uid(env.bob))
    assert len(dms) == 1 and f"SQUARES #{mid}: it is your turn; your time runs out <t:" in dms[0]["content"]
    assert f"https://discord.com/channels/{env.fake.guild_id}/{thread}" in dms[0]["content"]
    assert not dms[0].get("_allowed_mentions", {}).get("users")
    # Bob changes his mind: pings again
    await env.store.set_player_settings(uid(env.bob), {"how": "ping"})
    await move(env, env.bob, mid)
    await move(env, env.alice, mid)
    assert pinged(await env.board(mid)) == [uid(env.bob)] and len(env.fake.dms(uid(env.bob))) == 1
    assert env.fake.dms(uid(env.alice)) == []


async def test_a_reminder_in_quiet_hours_is_held_until_morning_in_tokyo_while_paris_keeps_its_own(env):
    """"quiet hours that hold a reminder until morning in `Asia/Tokyo` while the opponent is in
    `Europe/Paris`": the reminder board comes at 05:00 in Tokyo without pinging Alice; she is
    pinged at 07:00.  Her move at 07:05 (23:05 in Paris) does not ping Bob until 07:00 Paris."""
    await env.store.set_player_settings(uid(env.alice), TOKYO)
    await env.store.set_player_settings(uid(env.bob), PARIS)
    env.clock.t = tokyo(2023, 11, 20, 9, 48)
    mid = await env.start(turn_time=DAY)
    thread = (await env.match(mid)).channel_id
    assert pinged(await env.board(mid)) == [uid(env.alice)]               # 09:48 in Tokyo: she is told
    rec = await env.match(mid)
    delivery, notices = env.bot.get_cog("Delivery"), env.bot.get_cog("Notices")
    env.clock.t = tokyo(2023, 11, 21, 5, 0)                                # 4 h 48 min left
    assert await delivery.tick_once() == 1
    reminder = env.fake.posts(thread)[-1]
    assert "runs out in" in message_text(reminder) and pinged(reminder) == []
    env.clock.t = tokyo(2023, 11, 21, 6, 59)
    assert await notices.tick_once() == 0
    env.clock.t = tokyo(2023, 11, 21, 7, 0)
    assert await notices.tick_once() == 1
    held = env.fake.posts(thread)[-1]
    assert pinged(held) == [uid(env.alice)]
    assert held["content"] == (f"<@{uid(env.alice)}> SQUARES #{mid}: your time runs out <t:{int(rec.deadline)}:R> "
                               f"(<t:{int(rec.deadline)}:f>).")
    assert await notices.tick_once() == 0                                   # once
    env.clock.t = tokyo(2023, 11, 21, 7, 5)                                 # 23:05 in Paris
    await move(env, env.alice, mid)
    assert pinged(await env.board(mid)) == []
    env.clock.t = local("Europe/Paris", 2023, 11, 21, 6, 59)
    assert await notices.tick_once() == 0
    env.clock.t = local("Europe/Paris", 2023, 11, 21, 7, 0)
    assert await notices.tick_once() == 1
    told = env.fake.posts(thread)[-1]
    assert pinged(told) == [uid(env.bob)] and f"SQUARES #{mid}: it is your turn" in told["content"]


async def test_a_held_reminder_is_released_early_when_the_deadline_comes_first(env):
    """"what falls inside waits until they end unless a deadline comes first": Alice's time runs
    out at 06:30 in Tokyo, inside her quiet hours; the reminder made at 01:42 pings her at 05:30."""
    await env.store.set_player_settings(uid(env.alice), TOKYO)
    env.clock.t = tokyo(2023, 11, 20, 6, 30)
    mid = await env.start(turn_time=DAY)
    thread = (await env.match(mid)).channel_id
    delivery, notices = env.bot.get_cog("Delivery"), env.bot.get_cog("Notices")
    assert pinged(await env.board(mid)) == []             # 06:30 is quiet: her turn is told at 07:00
    env.clock.t = tokyo(2023, 11, 20, 7, 0)
    assert await notices.tick_once() == 1
    assert f"SQUARES #{mid}: it is your turn" in env.fake.posts(thread)[-1]["content"]
    env.clock.t = tokyo(2023, 11, 21, 1, 42)
    assert await delivery.tick_once() == 1 and pinged(env.fake.posts(thread)[-1]) == []
    env.clock.t = tokyo(2023, 11, 21, 5, 29)
    assert await notices.tick_once() == 0
    env.clock.t = tokyo(2023, 11, 21, 5, 30)
    assert await notices.tick_once() == 1
    held = env.fake.posts(thread)[-1]
    assert pinged(held) == [uid(env.alice)] and "your time runs out" in held["content"]


async def test_at_most_one_reminder_per_match_per_local_day(env):
    """"Reminders: when a bank will run out … — at most one of each per match per day": a second
    reminder of the same match on the same day (UTC, Alice's default) shows on the board without
    a ping; the next day's pings her again."""
    env.clock.t = local("UTC", 2023, 11, 19, 5, 18)
    mid = await env.start(turn_time=DAY)
    thread = (await env.match(mid)).channel_id
    delivery = env.bot.get_cog("Delivery")

    async def reminder_at(t: float) -> dict:
        env.clock.t = t
        assert await delivery.tick_once() == 1
        post = env.fake.posts(thread)[-1]
        assert "runs out in" in message_text(post)
        return post

    assert pinged(await reminder_at(local("UTC", 2023, 11, 20, 0, 30))) == [uid(env.alice)]
    env.clock.t = local("UTC", 2023, 11, 20, 0, 31)
    await move(env, env.alice, mid)
    await move(env, env.bob, mid)
    assert pinged(await reminder_at(local("UTC", 2023, 11, 20, 19, 44))) == []       # the same day
    env.clock.t = local("UTC", 2023, 11, 20, 19, 50)
    await move(env, env.alice, mid)
    await move(env, env.bob, mid)
    assert pinged(await reminder_at(local("UTC", 2023, 11, 21, 15, 2))) == [uid(env.alice)]


async def test_the_daily_digest_at_the_chosen_hour_once_a_day(env, monkeypatch):
    """"an optional daily digest DM at a local hour the player chooses": at 08:00 in Tokyo, once a
    day; the link to a match only where the player may see its server."""
    await env.store.set_player_settings(uid(env.alice), {**TOKYO, "how": "digest", "digest_hour": 8})
    env.clock.t = tokyo(2023, 11, 20, 12, 0)
    mid = await env.start(turn_time=3 * DAY)
    thread = (await env.match(mid)).channel_id
    notices = env.bot.get_cog("Notices")
    env.clock.t = tokyo(2023, 11, 21, 7, 59)
    assert await notices.tick_once() == 0
    env.clock.t = tokyo(2023, 11, 21, 8, 0)
    assert await notices.tick_once() == 1
    (digest,) = env.fake.dms(uid(env.alice))
    deadline = int((await env.match(mid)).deadline)
    # the bot does not know the server here (the fake sends none): no link
    assert digest["content"] == f"Daily digest: 1 game is waiting on you.\n• SQUARES #{mid} · time runs out <t:{deadline}:R>"
    for t in (tokyo(2023, 11, 21, 8, 1), tokyo(2023, 11, 21, 8, 15), tokyo(2023, 11, 21, 23, 0)):
        env.clock.t = t
        assert await notices.tick_once() == 0
    server = SimpleNamespace(chunked=False, get_member=lambda user_id: None)
    monkeypatch.setattr(env.bot, "get_guild", lambda gid: server if gid == env.fake.guild_id else None)
    env.clock.t = tokyo(2023, 11, 22, 8, 0)
    assert await notices.tick_once() == 1
    second = env.fake.dms(uid(env.alice))[-1]
    assert f"[#{mid}](https://discord.com/channels/{env.fake.guild_id}/{thread})" in second["content"]
    assert len(env.fake.dms(uid(env.alice))) == 2


async def test_a_dm_player_with_closed_dms_is_pinged_instead_and_told_once(env):
    """A closed DM is handled as for private views: no crash, logged, the player told once in the
    thread how to see their hand — and the notice becomes a ping."""
    await env.store.set_player_settings(uid(env.bob), {"how": "dm"})
    env.fake.closed_dms.add(uid(env.bob))
    mid = await env.start(turn_time=DAY)
    thread = (await env.match(mid)).channel_id
    await move(env, env.alice, mid)
    assert pinged(await env.board(mid)) == [uid(env.bob)]
    closed = [m for m in env.fake.posts(thread) if "cannot send you direct messages" in m["content"]]
    assert len(closed) == 1 and pinged(closed[0]) == [uid(env.bob)]
    await move(env, env.bob, mid)
    await move(env, env.alice, mid)
    assert pinged(await env.board(mid)) == [uid(env.bob)]
    assert len([m for m in env.fake.posts(thread) if "cannot send you direct messages" in m["content"]]) == 1
    assert "your turn" in message_text(await env.board(mid))


async def test_a_news_dm_carries_only_what_everyone_may_read(env):
    """"no public message … can show another player's private cards": a DM telling a player of
    news in their match carries the update's public lines, never the caller's own reply (which
    may name a secret choice)."""
    from cogs.notices import told
    from host.types import msg

    await env.store.set_player_settings(uid(env.bob), {"how": "dm"})
    mid = await env.start(turn_time=DAY)
    rec = await env.match(mid)
    delivery = env.bot.get_cog("Delivery")
    secret = SimpleNamespace(public=SimpleNamespace(text=[]), info=[msg("host.raw", text="SECRET-CARD")],
                             notify=[uid(env.bob)], data={})
    await told(delivery, rec, {}, secret, [uid(env.bob)], [])
    said = SimpleNamespace(public=SimpleNamespace(text=[msg("host.raw", text="PUBLIC-LINE")]), info=[],
                           notify=[uid(env.bob)], data={})
    await told(delivery, rec, {}, said, [uid(env.bob)], [])
    dms = [m["content"] for m in env.fake.dms(uid(env.bob))]
    assert len(dms) == 2 and all(f"#{mid}" in d for d in dms)
    assert not any("SECRET-CARD" in d for d in dms) and "PUBLIC-LINE" in dms[1]
