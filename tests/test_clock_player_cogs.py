"""/turns, /vacation and /notify through the real cog on the fake Discord (tests/discord_fakes.py):
ephemeral answers in both languages, refusals that change nothing, the boards of the matches a
vacation timed again, and /turns across servers with names and links only where the player may
see them (cogs/clock_player.py; docs/clocks.md, "Commands")."""
from __future__ import annotations

import re

import discord
import pytest

from discord_fakes import MEMBER_PERMISSIONS, HTTPError, _now_iso, component, message_text

from data.store import ACTIVE
from host.clocks import control

DAY, HOUR = 86400, 3600
DAILY = control.parse("3d+1d max 7d").to_json()
AWAY, GONE = 6000, 7000
VIEW_CHANNEL = 1 << 10


def uid(user: dict) -> int:
    return int(user["id"])


def members_route(env, members: dict[int, set[int]]) -> None:
    """The fake answers ``GET /guilds/{g}/members/{u}`` (Discord's member lookup): a member of
    ``members[g]``, else 404 Unknown Member."""
    real = env.fake._route

    def route(method, path, payload, files, params):
        g = re.fullmatch(r"/guilds/(\d+)/members/(\d+)", path)
        if g and method == "GET":
            gid, user = int(g.group(1)), int(g.group(2))
            if user not in members.get(gid, set()):
                raise HTTPError(404, 10007, "Unknown Member")
            return 200, {"user": env.fake.users[user], "roles": [], "joined_at": _now_iso(), "deaf": False,
                         "mute": False, "flags": 0}
        return real(method, path, payload, files, params)

    env.fake._route = route


def cache_guild(env, gid: int, name: str, channels: list[dict], threads: list[dict] = ()) -> discord.Guild:
    """A server the bot is in, as the gateway would have told it (no member list)."""
    state = env.bot._connection
    everyone = {"id": str(gid), "name": "@everyone", "permissions": MEMBER_PERMISSIONS, "position": 0, "color": 0,
                "hoist": False, "managed": False, "mentionable": False, "flags": 0}
    data = {"id": str(gid), "name": name, "icon": None, "owner_id": "1", "unavailable": False, "member_count": 3,
            "large": False, "features": [], "roles": [everyone], "emojis": [], "stickers": [],
            "channels": [dict(c, guild_id=str(gid)) for c in channels],
            "threads": [dict(t, guild_id=str(gid)) for t in threads], "members": [], "voice_states": [],
            "presences": [], "stage_instances": [], "guild_scheduled_events": [], "preferred_locale": "en-US",
            "verification_level": 0, "default_message_notifications": 0, "explicit_content_filter": 0,
            "mfa_level": 0, "premium_tier": 0, "nsfw_level": 0}
    guild = discord.Guild(data=data, state=state)
    state._add_guild(guild)
    return guild


def channel(cid: int, name: str, hidden: bool = False, gid: int = AWAY) -> dict:
    deny = [{"id": str(gid), "type": 0, "allow": "0", "deny": str(VIEW_CHANNEL)}] if hidden else []
    return {"id": str(cid), "type": 0, "name": name, "position": 0, "permission_overwrites": deny, "nsfw": False,
            "parent_id": None}


async def waiting_on(env, user: dict, other: dict, guild_id, channel_id) -> int:
    """A match made by the host (no Discord), ``user`` to act."""
    res = await env.host.challenge("squares", uid(user), user["global_name"], opponents=[(uid(other), other["global_name"])],
                                   time_control=DAILY, guild_id=guild_id, channel_id=channel_id,
                                   options={"first": 0})
    assert res.ok, res.error
    res = await env.host.accept(res.match.id, uid(other))
    assert res.ok and res.match.status == ACTIVE
    return res.match.id


# ---------------------------------------------------------------------------- /turns
async def test_turns_names_and_links_only_the_servers_and_channels_the_player_may_see(env):
    """"/turns lists every unfinished match and event game waiting on the player, across every
    server the bot shares with them (names and links only where the player may see them),
    ordered by time left, each with its game, opponent, turn and a jump link"."""
    alice, bob, carol = env.alice, env.bob, env.carol
    home = await env.start("first=1", time_control="daily")                  # here, Alice to act
    env.clock.advance(HOUR)
    seen = await waiting_on(env, alice, carol, AWAY, 6001)                    # another server, open channel
    env.clock.advance(HOUR)
    closed = await waiting_on(env, alice, carol, AWAY, 6002)                  # … a channel she cannot see
    env.clock.advance(HOUR)
    gone = await waiting_on(env, alice, carol, GONE, 7001)                    # a server the bot has left
    bobs = await waiting_on(env, bob, carol, AWAY, 6001)                      # Bob is no member there
    thread = env.fake.channels[(await env.match(home)).channel_id]
    cache_guild(env, env.fake.guild_id, "Home", [env.fake.channel], [thread])
    cache_guild(env, AWAY, "Away *Club*", [channel(6001, "games"), channel(6002, "staff", hidden=True)])
    members_route(env, {AWAY: {uid(alice), uid(carol)}})
    ix = await env.fake.slash(env.bot, alice, "turns")
    assert ix.ephemeral
    lines = ix.text.split("\n")
    assert lines[0] == "4 games are waiting on you:"
    assert [int(re.search(r"#(\d+)", line).group(1)) for line in lines[1:]] == [home, seen, closed, gone]
    assert lines[1].startswith(f"1. SQUARES [#{home}](https://discord.com/channels/{env.fake.guild_id}/{thread['id']})"
                               " vs Bob · turn 1 · time runs out <t:")
    assert lines[1].endswith("· in Home")
    assert f"[#{seen}](https://discord.com/channels/{AWAY}/6001) vs Carol" in lines[2]
    assert lines[2].endswith(r"in Away \*Club\*")                        # a server's name is user text
    assert f"#{closed} vs Carol" in lines[3] and "](" not in lines[3] and lines[3].endswith(r"in Away \*Club\*")
    assert f"#{gone} vs Carol" in lines[4] and lines[4].endswith("a match in another server")
    # one member lookup for the other server, none for the one the command was used in
    assert len(env.fake.calls("GET", r"^/guilds/\d+/members/")) == 1
    # Bob, in a DM: the server where he is no member is not named
    ix = await env.fake.slash(env.bot, bob, "turns", dm=True, locale="ja")
    assert ix.ephemeral and ix.text.split("\n")[0] == "あなたの番の対戦：1件"
    assert f"#{bobs}：Carolとの対戦" in ix.text and "（別のサーバーの対戦）" in ix.text and "Away" not in ix.text


async def test_turns_pages_with_buttons_that_only_its_owner_may_press(env):
    """"/turns (pages with buttons if more than one page; ephemeral; works in DMs and servers)"."""
    alice, bob = env.alice, env.bob
    ids = []
    for _ in range(12):
        ids.append(await waiting_on(env, alice, bob, None, None))
        env.clock.advance(60)
    ix = await env.fake.slash(env.bot, alice, "turns", dm=True)
    assert ix.ephemeral and ix.text.startswith("12 games are waiting on you:") and "Page 1/2" in ix.text
    message = ix.last
    assert component(message, rf"^ct:t:{uid(alice)}:0$")["disabled"] is True
    assert [f"#{m} " in ix.text for m in ids] == [True] * 10 + [False] * 2
    nxt = await env.fake.click(env.bot, alice, message, f"ct:t:{uid(alice)}:1")
    assert "Page 2/2" in nxt.text and f"#{ids[10]} " in nxt.text and f"#{ids[0]} " not in nxt.text
    assert component(nxt.last, rf"^ct:t:{uid(alice)}:1$")["disabled"] is True
    other = await env.fake.click(env.bot, env.carol, nxt.last, f"ct:t:{uid(alice)}:0")
    assert other.text == "⚠️ This list is someone else's: use /turns for your own."


async def test_turns_with_nothing_waiting_says_so_in_both_languages(env):
    """"/turns … ephemeral; works in DMs and servers"."""
    ix = await env.fake.slash(env.bot, env.alice, "turns")
    assert ix.ephemeral and ix.text == "No game is waiting on you."
    ix = await env.fake.slash(env.bot, env.alice, "turns", dm=True, locale="ja")
    assert ix.text == "あなたの番の対戦はありません。"


# ---------------------------------------------------------------------------- /vacation
async def test_vacation_start_end_and_status_retime_the_match_and_show_it_on_the_board(env):
    """"/vacation start [days], /vacation end, /vacation status … opponents see 'on vacation
    until …'"."""
    alice = env.alice
    mid = await env.start("first=1", time_control="daily")
    t0 = env.clock.t
    ix = await env.fake.slash(env.bot, alice, "vacation start", days=2)
    until = int(t0 + 2 * DAY)
    assert ix.ephemeral and ix.text == (f"Vacation started for 2 days, until <t:{until}:f>. Meanwhile your clocks "
                                        "do not run in matches that allow vacation.")
    assert (await env.match(mid)).deadline == pytest.approx(t0 + 2 * DAY + 3 * DAY)
    board = await env.board(mid)
    assert f"Alice is on vacation until <t:{until}:f>." in message_text(board)
    ix = await env.fake.slash(env.bot, alice, "vacation status", locale="ja")
    assert ix.text.startswith(f"<t:{until}:f>（<t:{until}:R>）まで休暇中です。\n休暇の残りは12日です")
    env.clock.advance(HOUR)
    ix = await env.fake.slash(env.bot, alice, "vacation end")
    assert ix.text == "Vacation ended: 1 day counted."
    assert (await env.match(mid)).deadline == pytest.approx(env.clock.t + 3 * DAY)
    assert "on vacation" not in message_text(await env.board(mid))


async def test_vacation_refusals_are_localized_and_change_nothing(env):
    """Localized refusals: "vacation with no days left, a second vacation while one runs, end
    without one"."""
    alice = env.alice
    ix = await env.fake.slash(env.bot, alice, "vacation end", locale="ja")
    assert ix.ephemeral and ix.text == "⚠️ 今は休暇中ではありません。"
    ix = await env.fake.slash(env.bot, alice, "vacation start")
    assert "Vacation started for 1 day," in ix.text
    ix = await env.fake.slash(env.bot, alice, "vacation start", days=3)
    assert ix.text.startswith("⚠️ You are already on vacation until <t:")
    assert len(await env.store.vacations(uid(alice), 0)) == 1
    await env.fake.slash(env.bot, alice, "vacation end")
    # the server gives 1 day a year: none is left now
    await env.store.set_guild_setting(env.fake.guild_id, "vacation_days", 1)
    ix = await env.fake.slash(env.bot, alice, "vacation start", locale="ja")
    assert ix.text.startswith("⚠️ 休暇の残り日数がありません。次の1日は<t:")
    assert len(await env.store.vacations(uid(alice), 0)) == 1
    # in a DM, the default allowance (14 days)
    ix = await env.fake.slash(env.bot, alice, "vacation status", dm=True)
    assert "13 vacation days left, of 14 per 365 days." in ix.text


# ---------------------------------------------------------------------------- /notify
async def test_notify_sets_zone_quiet_hours_how_and_digest_and_shows_them(env):
    """"Per player: a time zone (IANA names with autocomplete, e.g. Asia/Tokyo), quiet hours …,
    and how to be told …: thread ping, DM, or digest only"; "a daily digest DM at a local hour
    the player chooses"."""
    alice = env.alice
    choices = await env.fake.autocomplete(env.bot, alice, "notify zone", "zone", zone="tok")
    assert choices[0] == {"name": "Asia/Tokyo", "value": "Asia/Tokyo"}
    ix = await env.fake.slash(env.bot, alice, "notify zone", zone="Asia/Tokyo")
    assert ix.ephemeral and ix.text.startswith("Saved. Your settings now:\nTime zone: Asia/Tokyo")
    ix = await env.fake.slash(env.bot, alice, "notify quiet", hours="23:00-07:00", locale="ja")
    assert "通知しない時間帯：23:00〜07:00" in ix.text
    ix = await env.fake.slash(env.bot, alice, "notify how", how="digest")
    assert "Told in the daily digest only" in ix.text and "Daily digest at 09:00" in ix.text
    hours = await env.fake.autocomplete(env.bot, alice, "notify digest", "hour", hour="7")
    assert hours[0] == {"name": "07:00", "value": "7"}
    ix = await env.fake.slash(env.bot, alice, "notify digest", hour="7")
    assert "Daily digest at 07:00" in ix.text
    ix = await env.fake.slash(env.bot, alice, "notify show", dm=True)
    assert ix.text == ("Time zone: Asia/Tokyo\nQuiet hours: 23:00 to 07:00\nTold in the daily digest only\n"
                       "Daily digest at 07:00")
    assert await env.store.get_player_settings(uid(alice)) == {"zone": "Asia/Tokyo", "quiet": "23:00-07:00",
                                                               "how": "digest", "digest_hour": 7}


async def test_notify_refuses_a_bad_zone_and_bad_quiet_hours_in_the_readers_language(env):
    """Localized refusals for "bad zone, bad quiet hours": what was typed is quoted safely and
    nothing changes."""
    alice = env.alice
    await env.fake.slash(env.bot, alice, "notify zone", zone="Europe/Paris")
    ix = await env.fake.slash(env.bot, alice, "notify zone", zone="**Mars**")
    assert ix.ephemeral and ix.text == (r"⚠️ “\*\*Mars\*\*” is not a time zone: choose one from the list, "
                                        "e.g. Asia/Tokyo or Europe/Paris.")
    ix = await env.fake.slash(env.bot, alice, "notify quiet", hours="22時〜26時", locale="ja")
    assert ix.text == "⚠️ 通知しない時間帯の終了「26時」は時刻として読めません。`07:30`のように書いてください。"
    ix = await env.fake.slash(env.bot, alice, "notify quiet", hours="whenever")
    assert ix.text.startswith("⚠️ “whenever” is not a start and an end")
    ix = await env.fake.slash(env.bot, alice, "notify digest", hour="off")
    assert "Daily digest: none" in ix.text
    await env.fake.slash(env.bot, alice, "notify how", how="digest")
    ix = await env.fake.slash(env.bot, alice, "notify digest", hour="off")
    assert ix.text.startswith("⚠️ You are told by the daily digest only")
    assert await env.store.get_player_settings(uid(alice)) == {"zone": "Europe/Paris", "quiet": None,
                                                               "how": "digest", "digest_hour": 9}
