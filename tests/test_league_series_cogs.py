"""Issue 34, best-of-3 pairings through discord.py's real objects on the fake HTTP layer
(tests/discord_fakes.py): the choice of who moves first posted in the match thread pinging the
chooser, a refusal for anyone else, the choice starting the next game in the same thread with the
chosen player first, a second press answered as decided; a bracket pairing's choice posted when it
is announced; the settings; the round time limit's abort.  Each test's docstring quotes the rule
it checks."""
from __future__ import annotations

import copy
import re

import pytest

from discord_fakes import ALL_PERMISSIONS, custom_ids, make_env, message_text

from data.store import ABORTED, ACTIVE, FINISHED
from host import leagues as LG
from host.events import bestof as BO
from host.events import series as S


@pytest.fixture
async def env(tmp_path):
    e = await make_env(tmp_path)
    yield e
    await e.close()


def uid(user: dict) -> int:
    return int(user["id"])


async def data(env, league_id: int) -> dict:
    return (await env.store.get_league(league_id)).data


async def league(env, *, fmt: str = "swiss", players: tuple = (), decks: tuple = (), **settings) -> int:
    ix = await env.fake.slash(env.bot, env.alice, "league-admin create", permissions=ALL_PERMISSIONS,
                              name="Cup", game="logic_square", format=fmt, rounds=1) if fmt == "swiss" else \
        await env.fake.slash(env.bot, env.alice, "league-admin create", permissions=ALL_PERMISSIONS,
                             name="Cup", game="logic_square", format=fmt)
    league_id = int(re.search(r"League #(\d+)", ix.text).group(1))
    ix = await env.fake.slash(env.bot, env.alice, "league-admin settings", permissions=ALL_PERMISSIONS, **settings)
    assert "Event settings of league" in ix.text, ix.text
    for user, deck in zip(players, decks):
        await env.fake.slash(env.bot, user, "league join")
        ix = await env.fake.slash(env.bot, user, "league checkin", deck=deck)     # locked: no deck picker
        assert "Deck registered" in ix.text, ix.text
    await env.fake.slash(env.bot, env.alice, "league-admin start", permissions=ALL_PERMISSIONS)
    return league_id


async def finish(env, match_id: int, winner: int) -> None:
    """The loser resigns (the host), and the result is shown as the Game cog shows it."""
    rec = await env.match(match_id)
    loser = next(u for u in rec.seats if u != winner)
    res = await env.host.resign(match_id, loser)
    assert res.ok and (await env.match(match_id)).status == FINISHED
    await env.bot.get_cog("Delivery").publish(res, actor=loser)
    await env.fake.settle()


def posts_with(env, channel_id: int, pattern: str) -> list[dict]:
    return [m for m in env.fake.posts(channel_id) if any(re.search(pattern, c) for c in custom_ids(m))]


async def test_the_choice_is_posted_in_the_thread_and_the_chosen_player_moves_first_in_game_2(env):
    """"When a choice is needed, the bot posts in the match thread a message pinging the chooser:
    "Game 2 of 3 (Alice leads 1–0): Alice, choose who moves first" with two buttons Play first /
    Play second … only the chooser may press — others get a localized refusal; a second press after
    the choice answers that it is decided.  On the choice … the bot starts the next game … in the
    same thread, with the right player first, each player's deck as in game 1"."""
    users = {uid(env.bob): env.bob, uid(env.carol): env.carol}
    league_id = await league(env, players=(env.bob, env.carol), decks=("blitz", "aegis"), best_of=3)
    d = await data(env, league_id)
    (p,) = LG.round_pairings(d)
    x = S.first_player(p["series"])                     # the seeded draw moves first in game 1
    y = p["b"] if x == p["a"] else p["a"]
    told = [m for m in env.fake.posts(env.fake.channel["id"]) if "Who moves first in game 1" in (m.get("content") or "")]
    assert told and f"#{p['id']} " in told[-1]["content"] and told[-1]["content"].rstrip().endswith("moves first")
    ix = await env.fake.slash(env.bot, users[y], "league play")
    assert "moves first (random draw)" in ix.text, ix.text
    p = LG.pairing(await data(env, league_id), p["id"])
    m1 = p["match"]
    board = await env.board(m1)
    await env.fake.click(env.bot, users[x], board, f"m:{m1}:accept")
    rec1 = await env.match(m1)
    assert rec1.status == ACTIVE and BO.first_of_match(rec1.game, rec1.options, rec1.seats) == x
    thread = rec1.channel_id
    assert thread != env.fake.channel["id"], "game 1 plays in its own thread"
    await finish(env, m1, y)                              # y leads 1–0: x lost and chooses
    [prompt] = posts_with(env, thread, rf"^lgc:{league_id}:{p['id']}:2:")
    assert prompt["content"].startswith("Game 2 of 3 (") and "leads 1–0" in prompt["content"]
    assert f"<@{x}>, choose who moves first" in prompt["content"]
    assert prompt["_allowed_mentions"]["users"] == [x], "the chooser is pinged"
    ids = custom_ids(prompt)
    assert ids == [f"lgc:{league_id}:{p['id']}:2:f", f"lgc:{league_id}:{p['id']}:2:s"]
    labels = [c["label"] for row in prompt["components"] for c in row["components"]]
    assert labels == ["Play first", "Play second"]
    snapshot = copy.deepcopy(prompt)
    ix = await env.fake.click(env.bot, users[y], prompt, ids[1])
    assert ix.ephemeral and "Only" in ix.text and "chooses who moves first in game 2" in ix.text, ix.text
    ix = await env.fake.click(env.bot, users[y], prompt, ids[1], locale="ja")
    assert "第2ゲームの先攻・後攻を選べるのは" in ix.text
    ix = await env.fake.click(env.bot, users[x], prompt, ids[1])          # x plays second: y first
    edited = env.fake.messages[int(prompt["id"])]
    assert "chose to play second in game 2" in edited["content"] and not custom_ids(edited), "the buttons are gone"
    p = LG.pairing(await data(env, league_id), p["id"])
    m2 = p["match"]
    assert m2 != m1
    rec2 = await env.match(m2)
    assert rec2.status == ACTIVE and rec2.channel_id == thread, "game 2 in the same thread"
    assert BO.first_of_match(rec2.game, rec2.options, rec2.seats) == y, "the chosen player first"
    assert rec2.options["decks"][rec2.seats.index(uid(env.bob))] == "blitz"
    assert rec2.options["decks"][rec2.seats.index(uid(env.carol))] == "aegis"
    refs = await env.refs(m2)
    assert refs.get("nothread") == "1" and refs.get("board"), "its board is in the thread"
    assert int(refs["board"].split(":")[0]) == thread
    said = [m["content"] for m in env.fake.posts(thread) if (m.get("content") or "").startswith("Game 2 of 3")]
    assert any("moves first (" in s and "choice" in s for s in said), said
    # a second press on the old prompt (a client that still shows its buttons)
    data_ = {"custom_id": ids[0], "component_type": 2}
    payload = env.fake.interaction_payload(3, users[x], data_, channel_id=thread, message=snapshot)
    ix = await env.fake.dispatch(env.bot, payload)
    assert ix.ephemeral and "already decided" in ix.text, ix.text
    # game 2 ends: the pairing is decided 2–0 and the thread says so
    await finish(env, m2, y)
    p = LG.pairing(await data(env, league_id), p["id"])
    assert p["result"] == ("a" if y == p["a"] else "b") and p["games"] == [p["result"]] * 2
    assert any(f"Pairing #{p['id']} is decided" in (m.get("content") or "") and "2–0" in m["content"]
               for m in env.fake.posts(thread))
    ix = await env.fake.slash(env.bot, env.bob, "league schedule")
    assert "2–0" in ix.text, ix.text


async def test_a_bracket_pairing_asks_the_higher_seed_when_it_is_announced_and_play_waits_for_the_choice(env):
    """"Elimination: refused until the higher seed chose — tell who must choose, and post the
    choice buttons when the elimination pairing is announced"."""
    league_id = await league(env, fmt="single", players=(env.bob, env.carol), decks=("blitz", "aegis"),
                             best_of=3, round_minutes=45)
    d = await data(env, league_id)
    (p,) = LG.round_pairings(d)
    high = S.chooser(p["series"])
    assert high == d["bracket"]["structure"]["seeds"][0]
    low = p["b"] if high == p["a"] else p["a"]
    users = {uid(env.bob): env.bob, uid(env.carol): env.carol}
    channel = env.fake.channel["id"]
    [prompt] = posts_with(env, channel, rf"^lgc:{league_id}:{p['id']}:1:")
    assert "you are the higher seed" in prompt["content"] and prompt["_allowed_mentions"]["users"] == [high]
    ix = await env.fake.slash(env.bot, users[low], "league play")
    assert "chooses who moves first in game 1 first" in ix.text, ix.text
    ix = await env.fake.click(env.bot, users[high], prompt, f"lgc:{league_id}:{p['id']}:1:f")
    hint = env.fake.posts(channel)[-1]["content"]
    assert "moves first in game 1" in hint and "/league play" in hint, hint
    ix = await env.fake.slash(env.bot, users[low], "league play")
    assert "#" in ix.text and "moves first (" in ix.text, ix.text
    rec = await env.match(LG.pairing(await data(env, league_id), p["id"])["match"])
    assert BO.first_of_match(rec.game, rec.options, rec.seats) == high
    message = [m for m in env.fake.posts(channel) if f"lg:{league_id}:standings" in custom_ids(m)][-1]
    assert "Round time limit: 45 minutes" in message["embeds"][0]["description"]
    assert "Matches: best of 3" in message["embeds"][0]["description"]


async def test_the_time_limit_aborts_the_running_game_and_tells_the_channel(env):
    """"When it runs out (the leagues' clock tick), an unfinished game counts as drawn and the
    pairing's result counts its games so far: abort the running match of that pairing (host abort
    as the bot/system)"."""
    league_id = await league(env, players=(env.bob, env.carol), decks=("blitz", "aegis"), best_of=3, round_minutes=30)
    (p,) = LG.round_pairings(await data(env, league_id))
    users = {uid(env.bob): env.bob, uid(env.carol): env.carol}
    x = S.first_player(p["series"])
    y = p["b"] if x == p["a"] else p["a"]
    await env.fake.slash(env.bot, users[x], "league play")
    m1 = LG.pairing(await data(env, league_id), p["id"])["match"]
    await env.fake.click(env.bot, users[y], await env.board(m1), f"m:{m1}:accept")
    thread = (await env.match(m1)).channel_id
    env.clock.advance(30 * 60)
    leagues = env.bot.get_cog("Leagues")
    assert await leagues.tick_once() >= 1
    await env.fake.settle()
    assert (await env.match(m1)).status == ABORTED
    q = LG.pairing(await data(env, league_id), p["id"])
    assert (q["result"], q["how"], q["games"]) == ("draw", "time", ["draw"])
    assert any("time limit is up" in message_text(m) for m in env.fake.posts(thread))
    told = [m["content"] for m in env.fake.posts(env.fake.channel["id"]) if "Time is up for pairing" in (m.get("content") or "")]
    assert told and "0–0–1" in told[-1], told


async def test_settings_show_best_of_and_the_time_limit_and_refuse_them_once_running(env):
    """"Settings best_of and cut_best_of (choices 1/3/5, default 1; existing leagues 1) go into
    /league-admin settings"; "round_minutes (0 = none, default none)"."""
    ix = await env.fake.slash(env.bot, env.alice, "league-admin create", permissions=ALL_PERMISSIONS,
                              name="Cup", game="maken", format="swiss")
    ix = await env.fake.slash(env.bot, env.alice, "league-admin settings", permissions=ALL_PERMISSIONS)
    assert "Rounds: best of 1" in ix.text and "Top cut: best of 1" in ix.text and "Round time limit: none" in ix.text
    ix = await env.fake.slash(env.bot, env.alice, "league-admin settings", permissions=ALL_PERMISSIONS,
                              best_of=3, cut_best_of=5, round_minutes=50)
    assert "Rounds: best of 3" in ix.text and "Top cut: best of 5" in ix.text and "50 minutes" in ix.text, ix.text
    ix = await env.fake.slash(env.bot, env.alice, "league-admin settings", permissions=ALL_PERMISSIONS, locale="ja",
                              round_minutes=0)
    assert "2本先取" in ix.text and "3本先取" in ix.text and "回戦の制限時間：なし" in ix.text, ix.text


async def test_extend_is_for_organisers_and_tells_the_channel(env):
    """"Organiser extensions per pairing (/league-admin extend pairing minutes)"."""
    league_id = await league(env, players=(env.bob, env.carol), decks=("blitz", "aegis"), best_of=3, round_minutes=30)
    (p,) = LG.round_pairings(await data(env, league_id))
    ix = await env.fake.slash(env.bot, env.bob, "league-admin extend", pairing=p["id"], minutes=10)
    assert "Only organisers" in ix.text
    ix = await env.fake.slash(env.bot, env.alice, "league-admin extend", permissions=ALL_PERMISSIONS,
                              pairing=p["id"], minutes=10)
    until = int(env.clock.t) + 40 * 60
    assert ix.ephemeral and f"has 10 more minutes: its time is up <t:{until}:R>" in ix.text, ix.text
    assert f"Pairing #{p['id']} has 10 more minutes" in env.fake.posts(env.fake.channel["id"])[-1]["content"]
    ix = await env.fake.slash(env.bot, env.alice, "league-admin extend", permissions=ALL_PERMISSIONS, locale="ja",
                              pairing=p["id"], minutes=5)
    assert "5分延長しました" in ix.text, ix.text


async def test_a_start_with_fewer_than_two_checked_in_is_called_off_with_a_clear_message(env):
    """Leftover: "when the start time arrives and fewer than 2 players checked in … the league is
    called off (the existing "cancelled" path, with a clear localized message)"."""
    start = int(env.clock.t) + 7200
    ix = await env.fake.slash(env.bot, env.alice, "league-admin create", permissions=ALL_PERMISSIONS,
                              name="Cup", game="squares", format="rr")
    league_id = int(re.search(r"League #(\d+)", ix.text).group(1))
    await env.fake.slash(env.bot, env.alice, "league-admin settings", permissions=ALL_PERMISSIONS,
                         start=str(start), checkin_minutes=60)
    for user in (env.bob, env.carol):
        await env.fake.slash(env.bot, user, "league join")
    env.clock.t = start
    leagues = env.bot.get_cog("Leagues")
    assert await leagues.tick_once() == 1 and await leagues.tick_once() == 0, "called off once, not retried"
    told = [m for m in env.fake.posts(env.fake.channel["id"]) if "is called off" in (m.get("content") or "")][-1]
    assert "only 0 checked in by its start" in told["content"]
    assert set(told["_allowed_mentions"]["users"]) == {uid(env.alice), uid(env.bob), uid(env.carol)}
    lg = await env.store.get_league(league_id)
    assert lg.status == "closed" and lg.data["cancelled"] == "too_few_checkin"
    message = [m for m in env.fake.posts(env.fake.channel["id"]) if m.get("embeds")
               and f"#{league_id}" in (m["embeds"][0].get("title") or "")][-1]
    assert "fewer than 2 players checked in" in message["embeds"][0]["description"]
