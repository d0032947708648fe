"""/profile, /history, /h2h, /leaderboard and /league … driven through discord.py's real objects on
the fake HTTP layer (tests/discord_fakes.py): no token, no network."""
from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest

from discord_fakes import ALL_PERMISSIONS, component, custom_ids, make_env, message_text
from layout_reading import message_text as layout_text, reply_text

from host import leagues as LG
from host import ratings as R


@pytest.fixture
async def env(tmp_path):
    e = await make_env(tmp_path)
    e.dave = e.fake.user("Dave")
    e.erin = e.fake.user("Erin")
    yield e
    await e.close()


def uid(user: dict) -> int:
    return int(user["id"])


async def finish(env, winner: dict, loser: dict, **play_options) -> int:
    """``winner`` challenges ``loser``, who accepts and resigns; returns the match id."""
    ix = await env.play(winner, game="squares", opponent=loser, options="first=1", **play_options)
    assert "#" in ix.text, ix.text
    match_id = max(m.id for m in await env.store.matches_for_user(uid(winner)))
    board = await env.board(match_id)
    await env.fake.click(env.bot, loser, board, f"m:{match_id}:accept")
    ix = await env.fake.slash(env.bot, loser, "match resign", match=match_id)
    assert (await env.match(match_id)).status == "finished", ix.text
    return match_id


# ---------------------------------------------------------------------------- records
async def test_a_finished_match_is_rated_and_an_unrated_one_is_not(env):
    unrated = await finish(env, env.alice, env.bob, rated=False)
    assert (await env.match(unrated)).meta["rated"] is False
    assert await env.store.is_processed(unrated)
    assert await env.store.get_ratings("global", "squares", [uid(env.alice)]) == {}
    rated = await finish(env, env.alice, env.bob)
    assert await env.store.is_processed(rated)
    got = await env.store.get_ratings("global", "squares", [uid(env.alice), uid(env.bob)])
    assert got[uid(env.alice)].mu > R.MU > got[uid(env.bob)].mu
    assert got[uid(env.alice)].games == 1, "the unrated match did not count"


async def test_profile_shows_ratings_record_streak_and_a_chart(env):
    await finish(env, env.alice, env.bob)
    await finish(env, env.alice, env.bob)
    ix = await env.fake.slash(env.bot, env.carol, "profile", player=env.alice)
    text = ix.text
    assert ix.ephemeral and "Records of Alice" in text
    assert "2 W · 0 L · 0 D" in text and "2 wins in a row" in text
    assert re.search(r"Rating here: \*\*\d{4}\?\*\*", text), text
    assert "provisional" in text
    assert ix.files == ["rating.png"]
    assert env.fake.messages[int(ix.last["id"])]["attachments"][0]["_bytes"][:8] == b"\x89PNG\r\n\x1a\n"
    # in Japanese
    ix = await env.fake.slash(env.bot, env.alice, "profile", locale="ja")
    assert "Aliceの記録" in ix.text and "2勝0敗0分" in ix.text


async def test_profile_of_someone_without_matches(env):
    ix = await env.fake.slash(env.bot, env.alice, "profile", player=env.dave)
    assert "No finished matches yet" in ix.text and ix.files == []


async def test_history_pages_link_the_thread_and_export_the_record(env):
    ids = [await finish(env, env.alice, env.bob) for _ in range(11)]
    ix = await env.fake.slash(env.bot, env.bob, "history")
    first = ix.last
    assert "(page 1/2)" in first["content"]
    assert f"`#{ids[-1]}`" in first["content"] and f"`#{ids[0]}`" not in first["content"]
    rec = await env.match(ids[-1])
    assert f"https://discord.com/channels/{env.fake.guild_id}/{rec.channel_id}" in first["content"]
    prev = component(first, rf"^rec:h:{uid(env.bob)}:-:0$")
    assert prev["disabled"], "no previous page on page 1"
    nxt = component(first, rf"^rec:h:{uid(env.bob)}:-:1$")
    assert not nxt["disabled"]
    ix = await env.fake.click(env.bot, env.bob, first, nxt["custom_id"])
    page2 = ix.last
    assert page2["id"] == first["id"], "the page is edited in place"
    assert "(page 2/2)" in page2["content"] and f"`#{ids[0]}`" in page2["content"]
    assert component(page2, rf"^rec:h:{uid(env.bob)}:-:1$")["disabled"], "no next page on the last page"
    assert not component(page2, rf"^rec:h:{uid(env.bob)}:-:0$")["disabled"]
    # a stale button past the end shows the last page
    stale = dict(page2)
    stale["components"] = [{"type": 1, "components": [{"type": 2, "style": 2, "label": "x",
                                                        "custom_id": f"rec:h:{uid(env.bob)}:-:9"}]}]
    env.fake.messages[int(stale["id"])] = {**env.fake.messages[int(stale["id"])], "components": stale["components"]}
    ix = await env.fake.click(env.bot, env.bob, stale, f"rec:h:{uid(env.bob)}:-:9")
    assert "(page 2/2)" in ix.last["content"]
    # export
    ix = await env.fake.slash(env.bot, env.bob, "history", game="squares")
    select = component(ix.last, r"^rec:x$")
    ix = await env.fake.click(env.bot, env.bob, ix.last, "rec:x", values=[str(ids[-1])])
    assert ix.files == [f"match-{ids[-1]}.json"]
    raw = env.fake.messages[int(ix.last["id"])]["attachments"][0]["_bytes"]
    data = json.loads(raw)
    assert data["game"] == "squares" and data["id"] == ids[-1]
    assert [s["user_id"] for s in data["seats"]] == [env.alice["id"], env.bob["id"]]
    assert data["result"]["reason"] == "resign" and data["seed"] == rec.seed
    assert select["options"][0]["value"] == str(ids[-1])
    # issue 35: "the full export (seed and hidden commands) goes only to the match's own players
    # once it has ended; everyone else ... gets the public record"
    ix = await env.fake.slash(env.bot, env.bob, "history", game="squares")
    ix = await env.fake.click(env.bot, env.carol, ix.last, "rec:x", values=[str(ids[-1])])
    public = json.loads(env.fake.messages[int(ix.last["id"])]["attachments"][0]["_bytes"])
    assert public["public"] is True and "seed" not in public and "prng" not in public
    assert public["id"] == ids[-1] and public["result"]["reason"] == "resign"


async def test_history_links_the_board_message_of_a_match_played_without_a_thread(env):
    await env.fake.slash(env.bot, env.carol, "settings thread", value="off", permissions=ALL_PERMISSIONS)
    match_id = await finish(env, env.alice, env.bob)
    board = await env.board(match_id)
    ix = await env.fake.slash(env.bot, env.bob, "history")
    url = f"https://discord.com/channels/{env.fake.guild_id}/{env.fake.channel['id']}/{board['id']}"
    assert url in ix.text, ix.text


async def test_history_with_nothing_and_an_unknown_game(env):
    ix = await env.fake.slash(env.bot, env.carol, "history")
    assert "No finished matches" in ix.text
    ix = await env.fake.slash(env.bot, env.carol, "history", game="chess")
    assert "⚠️" in ix.text and "squares" in ix.text.lower()


async def test_h2h_counts_both_sides(env):
    await finish(env, env.alice, env.bob)
    await finish(env, env.bob, env.alice)
    await finish(env, env.bob, env.alice)
    ix = await env.fake.slash(env.bot, env.carol, "h2h", player=env.alice, other=env.bob)
    assert "1 – 2 (draws: 0) in 3 matches" in ix.text
    ix = await env.fake.slash(env.bot, env.alice, "h2h", player=env.bob)
    assert "1 – 2" in ix.text, "alone: the caller against the user"
    ix = await env.fake.slash(env.bot, env.alice, "h2h", player=env.alice)
    assert "two different players" in ix.text


async def test_leaderboard_server_global_and_seasons(env):
    await finish(env, env.alice, env.bob)
    ix = await env.fake.slash(env.bot, env.carol, "leaderboard", game="squares")
    text = ix.text
    assert "this server" in text and text.index(f"<@{env.alice['id']}>") < text.index(f"<@{env.bob['id']}>")
    assert "1 W 0 L 0 D" in text
    ix = await env.fake.slash(env.bot, env.carol, "leaderboard", game="squares", scope="global")
    assert "all servers" in ix.text and env.alice["id"] in ix.text
    ix = await env.fake.slash(env.bot, env.carol, "leaderboard", game="squares", season=2)
    assert "⚠️" in ix.text and "season 1" in ix.text, "no season 2 yet"
    # closing the season needs an organiser
    ix = await env.fake.slash(env.bot, env.carol, "league-admin season")
    assert "Only organisers" in ix.text
    ix = await env.fake.slash(env.bot, env.alice, "league-admin season", permissions=ALL_PERMISSIONS)
    assert "season 2 starts" in ix.text
    await finish(env, env.bob, env.carol)
    ix = await env.fake.slash(env.bot, env.carol, "leaderboard", game="squares", season=1)
    assert env.alice["id"] in ix.text and env.carol["id"] not in ix.text, "season 1 is archived as it was"
    ix = await env.fake.slash(env.bot, env.carol, "leaderboard", game="squares", season=2)
    assert env.carol["id"] in ix.text and env.alice["id"] not in ix.text
    ix = await env.fake.slash(env.bot, env.carol, "leaderboard", game="squares")
    assert env.alice["id"] in ix.text and env.carol["id"] in ix.text, "all time keeps everything"


async def test_leaderboard_pages(env):
    players = [env.fake.user(f"P{i}") for i in range(12)]
    for i in range(0, 12, 2):
        await finish(env, players[i], players[i + 1])
    ix = await env.fake.slash(env.bot, env.alice, "leaderboard", game="squares")
    assert "(page 1/2)" in ix.text
    nxt = component(ix.last, r"^rec:lb:squares:g:1$")
    ix = await env.fake.click(env.bot, env.alice, ix.last, nxt["custom_id"])
    assert "(page 2/2)" in ix.last["content"] and ix.last["content"].count("<@") == 2
    assert component(ix.last, r"^rec:lb:squares:g:0$") is not None


async def test_a_match_finished_while_the_bot_was_down_is_recorded_after_a_restart(env):
    match_id = await finish(env, env.alice, env.bob)
    # simulate a crash between the result commit and the rating: forget the processing
    import sqlite3
    conn = sqlite3.connect(env.db_path)
    conn.execute("DELETE FROM processed_matches WHERE match_id = ?", (match_id,))
    conn.execute("DELETE FROM ratings")
    conn.commit()
    conn.close()
    await env.restart()
    assert await env.store.is_processed(match_id)
    got = await env.store.get_ratings("global", "squares", [uid(env.alice)])
    assert got[uid(env.alice)].games == 1


# ---------------------------------------------------------------------------- leagues
def league_message(env, league_id: int) -> dict:
    for m in reversed(env.fake.posts(env.fake.channel["id"])):
        if any(c.startswith(f"lg:{league_id}:") for c in custom_ids(m)):
            return m
    raise AssertionError("no league message")


async def create_league(env, **options) -> int:
    opts = dict(name="Spring Cup", game="squares", format="swiss")
    opts.update(options)
    ix = await env.fake.slash(env.bot, env.alice, "league-admin create", permissions=ALL_PERMISSIONS, **opts)
    m = re.search(r"League #(\d+)", ix.text)
    assert m, ix.text
    return int(m.group(1))


async def play_pairing(env, league_id: int, starter: dict, loser: dict) -> int:
    """``starter`` presses Play my match; the opponent accepts; ``loser`` resigns."""
    msg = league_message(env, league_id)
    ix = await env.fake.click(env.bot, starter, msg, f"lg:{league_id}:play")
    m = re.search(r"Match #(\d+)", ix.text)
    assert m, ix.text
    match_id = int(m.group(1))
    rec = await env.match(match_id)
    assert rec.meta["league"] == league_id
    other = next(u for u in (env.alice, env.bob, env.carol, env.dave, env.erin)
                 if uid(u) in rec.seats and uid(u) != uid(starter))
    board = await env.board(match_id)
    await env.fake.click(env.bot, other, board, f"m:{match_id}:accept")
    await env.fake.slash(env.bot, loser, "match resign", match=match_id)
    assert (await env.match(match_id)).status == "finished"
    return match_id


async def test_non_organisers_cannot_use_organiser_commands(env):
    ix = await env.fake.slash(env.bot, env.bob, "league-admin create", name="x", game="squares", format="rr")
    assert "Only organisers" in ix.text
    assert await env.store.leagues(env.fake.guild_id) == []
    league_id = await create_league(env)
    for path, opts in (("league-admin start", {}), ("league-admin next-round", {}), ("league-admin close", {}),
                       ("league-admin forfeit", {"pairing": 1}), ("league-admin remove", {"player": env.carol})):
        ix = await env.fake.slash(env.bot, env.bob, path, **opts)
        assert "Only organisers" in ix.text, path
    assert (await env.store.get_league(league_id)).status == "signup"
    ix = await env.fake.slash(env.bot, env.bob, "league standings", locale="ja")
    assert "リーグ #1" in reply_text(ix)


async def test_an_organiser_role_grants_organiser_commands(env):
    role_id = env.fake.snowflake()
    role = {"id": str(role_id), "name": "TO", "color": 0, "hoist": False, "position": 1,
            "permissions": "0", "managed": False, "mentionable": False, "flags": 0}
    data = env.fake._command_data(env.bot, "league-admin role", {}, None)
    data["options"][0]["options"] = [{"name": "role", "type": 8, "value": str(role_id)}]
    data["resolved"] = {"roles": {str(role_id): role}}
    payload = env.fake.interaction_payload(2, env.alice, data, permissions=ALL_PERMISSIONS)
    ix = await env.fake.dispatch(env.bot, payload)
    assert "may now organise" in ix.text, ix.text
    data = env.fake._command_data(env.bot, "league-admin create", {"name": "R", "game": "squares", "format": "rr"}, None)
    payload = env.fake.interaction_payload(2, env.bob, data)
    payload["member"]["roles"] = [str(role_id)]
    ix = await env.fake.dispatch(env.bot, payload)
    assert "League #1" in ix.text, ix.text
    ix = await env.fake.slash(env.bot, env.carol, "league-admin start")
    assert "Only organisers" in ix.text, "no role, no Manage Server"


async def test_a_swiss_league_from_sign_up_to_final_standings(env):
    league_id = await create_league(env, rounds=2)
    msg = league_message(env, league_id)
    assert "Spring Cup" in message_text(msg) and "Swiss" in message_text(msg)
    for user in (env.alice, env.bob, env.carol):
        ix = await env.fake.click(env.bot, user, league_message(env, league_id), f"lg:{league_id}:join")
        assert "You joined" in ix.text, ix.text
    ix = await env.fake.slash(env.bot, env.dave, "league join")
    assert "4 players" in ix.text
    ix = await env.fake.slash(env.bot, env.dave, "league join")
    assert "already signed up" in ix.text
    ix = await env.fake.slash(env.bot, env.alice, "league-admin start", permissions=ALL_PERMISSIONS)
    assert "2 rounds" in ix.text
    ix = await env.fake.slash(env.bot, env.erin, "league join")
    assert "already started" in ix.text, "joining a started league is refused"
    assert uid(env.erin) not in [p["id"] for p in (await env.store.get_league(league_id)).data["players"]]
    assert any("round 1 is paired" in m["content"] for m in env.fake.posts(env.fake.channel["id"]))
    lg = await env.store.get_league(league_id)
    p1, p2 = lg.data["pairings"]
    users = {uid(u): u for u in (env.alice, env.bob, env.carol, env.dave)}
    # pairing 1 is played as a bot match and reports itself
    await play_pairing(env, league_id, users[p1["a"]], users[p1["b"]])
    lg = await env.store.get_league(league_id)
    assert lg.data["pairings"][0]["result"] == "a" and lg.data["pairings"][0]["how"] == "match"
    assert "won" in message_text(league_message(env, league_id))
    # a stranger reports pairing 2: refused, nothing changes
    stranger = users[p1["a"]]
    ix = await env.fake.slash(env.bot, stranger, "league report", pairing=p2["id"], result="win")
    assert "is not yours" in ix.text
    # the two players of pairing 2 disagree: held for an organiser
    ix = await env.fake.slash(env.bot, users[p2["a"]], "league report", pairing=p2["id"], result="win")
    assert "it counts once they do" in ix.text
    ix = await env.fake.slash(env.bot, users[p2["b"]], "league report", pairing=p2["id"], result="win")
    assert "held until an organiser" in ix.text
    lg = await env.store.get_league(league_id)
    assert lg.data["round"] == 1 and lg.data["pairings"][1]["held"]
    assert any("reported different results" in m["content"] for m in env.fake.posts(env.fake.channel["id"]))
    ix = await env.fake.slash(env.bot, env.alice, "league-admin next-round", permissions=ALL_PERMISSIONS)
    assert "still need a result" in ix.text
    # the organiser decides; round 2 is paired automatically, without a rematch
    organiser = env.erin
    ix = await env.fake.slash(env.bot, organiser, "league-admin report", pairing=p2["id"], result="second",
                              permissions=ALL_PERMISSIONS)
    assert "recorded" in ix.text, ix.text
    lg = await env.store.get_league(league_id)
    assert lg.data["round"] == 2
    r1 = {frozenset((p["a"], p["b"])) for p in lg.data["pairings"] if p["round"] == 1}
    r2 = [p for p in lg.data["pairings"] if p["round"] == 2]
    assert not r1 & {frozenset((p["a"], p["b"])) for p in r2}
    # winners meet winners
    winners = {p1["a"], p2["b"]}
    assert any({p["a"], p["b"]} == winners for p in r2)
    # a restart in between: the league message buttons still work
    await env.restart()
    ix = await env.fake.click(env.bot, env.bob, league_message(env, league_id), f"lg:{league_id}:standings")
    assert "Buchholz" in reply_text(ix)
    q1, q2 = r2
    await play_pairing(env, league_id, users[q1["b"]], users[q1["b"]])
    await play_pairing(env, league_id, users[q2["a"]], users[q2["b"]])
    lg = await env.store.get_league(league_id)
    assert lg.status == "finished"
    assert any("is finished" in layout_text(m) for m in env.fake.posts(env.fake.channel["id"]))
    ix = await env.fake.slash(env.bot, env.carol, "league standings")
    table = reply_text(ix)
    champion = next(u for u in (q1["a"], q2["a"], q1["b"], q2["b"])
                    if u in winners and (u == q1["a"] if u in (q1["a"], q1["b"]) else u == q2["a"]))
    first_row = [ln for ln in table.splitlines() if re.match(r"^\s*1 ", ln)][0]
    assert users[champion]["global_name"] in first_row
    ix = await env.fake.slash(env.bot, env.alice, "league-admin close", permissions=ALL_PERMISSIONS)
    assert "closed and archived" in ix.text
    assert (await env.store.get_league(league_id)).status == "closed"
    # league matches were rated
    assert (await env.store.get_ratings("global", "squares", [champion]))[champion].games == 2


async def test_a_round_robin_league_with_an_odd_count_drops_and_a_user_who_left(env):
    league_id = await create_league(env, format="rr", rated=False)
    for user in (env.alice, env.bob, env.carol):
        await env.fake.slash(env.bot, user, "league join")
    ix = await env.fake.slash(env.bot, env.alice, "league-admin start", permissions=ALL_PERMISSIONS)
    assert "3 rounds" in ix.text
    ix = await env.fake.slash(env.bot, env.bob, "league schedule")
    assert "bye" in ix.text and "(planned)" in ix.text
    # Carol has left the server: the organiser removes her by id (no member data is sent)
    data = env.fake._command_data(env.bot, "league-admin remove", {"player": env.carol}, None)
    data["resolved"].pop("members")
    payload = env.fake.interaction_payload(2, env.alice, data, permissions=ALL_PERMISSIONS)
    ix = await env.fake.dispatch(env.bot, payload)
    assert "was removed" in ix.text, ix.text
    lg = await env.store.get_league(league_id)
    assert next(p for p in lg.data["players"] if p["id"] == uid(env.carol))["status"] == "removed"
    for p in lg.data["pairings"]:
        if uid(env.carol) in (p["a"], p["b"]) and p["b"] is not None:
            assert p["how"] == "drop"
    # play out what is left by reports
    for _ in range(5):
        lg = await env.store.get_league(league_id)
        if lg.status != "running":
            break
        for p in lg.data["pairings"]:
            if p["round"] == lg.data["round"] and p["result"] is None:
                ix = await env.fake.slash(env.bot, env.alice, "league-admin report", pairing=p["id"], result="draw",
                                          permissions=ALL_PERMISSIONS)
                assert "recorded" in ix.text, ix.text
    lg = await env.store.get_league(league_id)
    assert lg.status == "finished" and lg.data["round"] == 3
    assert await env.store.get_ratings("global", "squares", [uid(env.alice)]) == {}, "an unrated league"


async def test_deadlines_turn_into_forfeit_claims(env):
    league_id = await create_league(env, format="rr", deadline_hours=1)
    for user in (env.alice, env.bob):
        await env.fake.slash(env.bot, user, "league join")
    await env.fake.slash(env.bot, env.alice, "league-admin start", permissions=ALL_PERMISSIONS)
    pairing = (await env.store.get_league(league_id)).data["pairings"][0]["id"]
    ix = await env.fake.slash(env.bot, env.bob, "league claim", pairing=pairing)
    assert "not past its deadline" in ix.text
    env.clock.advance(3601)
    cog = env.bot.get_cog("Leagues")
    assert await cog.tick_once() == 1
    assert await cog.tick_once() == 0, "announced once"
    notice = env.fake.posts(env.fake.channel["id"])[-1]
    assert "deadline" in notice["content"] and sorted(notice["_allowed_mentions"]["users"]) == sorted(
        [uid(env.alice), uid(env.bob)])
    ix = await env.fake.slash(env.bot, env.carol, "league claim", pairing=pairing)
    assert "is not yours" in ix.text
    ix = await env.fake.slash(env.bot, env.bob, "league claim", pairing=pairing)
    assert "Forfeit win recorded" in ix.text
    lg = await env.store.get_league(league_id)
    assert lg.status == "finished"
    assert [s.user_id for s in LG.table(lg.data)][0] == uid(env.bob)


async def test_leaving_a_running_league_forfeits_the_open_game(env):
    league_id = await create_league(env, format="swiss", rounds=1)
    for user in (env.alice, env.bob):
        await env.fake.slash(env.bot, user, "league join")
    await env.fake.slash(env.bot, env.alice, "league-admin start", permissions=ALL_PERMISSIONS)
    ix = await env.fake.slash(env.bot, env.bob, "league leave")
    assert "dropped out" in ix.text
    lg = await env.store.get_league(league_id)
    assert lg.status == "finished"
    assert lg.data["pairings"][0]["how"] == "drop"
    ix = await env.fake.slash(env.bot, env.bob, "league leave")
    assert "⚠️" in ix.text


async def test_the_sign_up_window_closes_and_the_league_starts_itself(env):
    league_id = await create_league(env, format="rr", signup_hours=1)
    for user in (env.alice, env.bob):
        await env.fake.slash(env.bot, user, "league join")
    cog = env.bot.get_cog("Leagues")
    assert await cog.tick_once() == 0, "the window is still open"
    env.clock.advance(3601)
    ix = await env.fake.slash(env.bot, env.carol, "league join")
    assert "sign-up window of this league has closed" in ix.text
    assert await cog.tick_once() == 1
    lg = await env.store.get_league(league_id)
    assert lg.status == "running" and lg.data["round"] == 1
    assert any("round 1 is paired" in m["content"] for m in env.fake.posts(env.fake.channel["id"]))
    # the league message now offers Play my match instead of Join
    assert f"lg:{league_id}:play" in custom_ids(league_message(env, league_id))
    ix = await env.fake.click(env.bot, env.alice, league_message(env, league_id), f"lg:{league_id}:play")
    assert "Match #" in ix.text
    ix = await env.fake.click(env.bot, env.bob, league_message(env, league_id), f"lg:{league_id}:play")
    assert "already has match" in ix.text, "one match per pairing at a time"
    ix = await env.fake.click(env.bot, env.carol, league_message(env, league_id), f"lg:{league_id}:play")
    assert "no pairing left to play" in ix.text


async def test_league_messages_speak_the_servers_language(env):
    ix = await env.fake.slash(env.bot, env.alice, "league-admin create", permissions=ALL_PERMISSIONS, locale="ja",
                              guild_locale="ja", name="春杯", game="squares", format="rr")
    assert "リーグ #1 春杯の募集を始めました" in ix.text
    msg = league_message(env, 1)
    assert "リーグ #1：春杯" in message_text(msg) and "総当たり" in message_text(msg)
    ix = await env.fake.click(env.bot, env.bob, msg, "lg:1:join")
    assert "You joined" in ix.text, "the reply follows the user's own language"
    assert "参加者（1）" in message_text(league_message(env, 1)), "the edited message stays Japanese"


async def test_league_autocomplete_lists_open_leagues_first_then_archived(env):
    first = await create_league(env, name="Old")
    await env.fake.slash(env.bot, env.alice, "league-admin close", league=first, permissions=ALL_PERMISSIONS)
    second = await create_league(env, name="New")
    choices = await env.fake.autocomplete(env.bot, env.bob, "league standings", "league", league="")
    assert [c["value"] for c in choices] == [second, first]
    assert "New" in choices[0]["name"] and "closed" in choices[1]["name"]
    ix = await env.fake.slash(env.bot, env.bob, "league standings", league=first)
    assert "Old" in reply_text(ix) and "closed" in reply_text(ix)
    ix = await env.fake.slash(env.bot, env.bob, "league standings", league=999)
    assert "no league #999" in ix.text


async def test_pairing_autocomplete_and_schedule(env):
    league_id = await create_league(env, format="swiss", rounds=3)
    for user in (env.alice, env.bob, env.carol):
        await env.fake.slash(env.bot, user, "league join")
    await env.fake.slash(env.bot, env.alice, "league-admin start", permissions=ALL_PERMISSIONS)
    data = (await env.store.get_league(league_id)).data
    game = next(p for p in data["pairings"] if p["b"] is not None)
    by_id = {int(u["id"]): u for u in (env.alice, env.bob, env.carol)}
    player, idle = by_id[game["a"]], next(u for i, u in by_id.items() if i not in (game["a"], game["b"]))
    choices = await env.fake.autocomplete(env.bot, player, "league report", "pairing", pairing="", result="win")
    assert len(choices) == 1 and "round 1" in choices[0]["name"] and "to play" in choices[0]["name"]
    # issue 14: a player's /league report and /league claim offer only their own pairings …
    assert await env.fake.autocomplete(env.bot, idle, "league report", "pairing", pairing="", result="win") == []
    assert await env.fake.autocomplete(env.bot, idle, "league claim", "pairing", pairing="") == []
    # … an organiser's /league-admin report offers every pairing
    choices = await env.fake.autocomplete(env.bot, idle, "league-admin report", "pairing", pairing="",
                                          result="first")
    assert [c["value"] for c in choices] == [game["id"]]
    ix = await env.fake.slash(env.bot, env.bob, "league schedule")
    assert "**Round 1**" in ix.text and ": bye" in ix.text and "paired when the previous round" in ix.text
    ix = await env.fake.slash(env.bot, env.bob, "league schedule", round=4)
    assert "has 3 rounds" in ix.text
    bye = next(p for p in (await env.store.get_league(league_id)).data["pairings"] if p["b"] is None)
    ix = await env.fake.slash(env.bot, env.alice, "league-admin report", pairing=bye["id"], result="first",
                              permissions=ALL_PERMISSIONS)
    assert "bye" in ix.text


async def test_an_avalon_league_pairing_is_played_as_a_bot_match_and_reports_itself(env):
    """Avalon's Sanctuary is for 2–4 players (「最大4人同時対戦」), so a league pairing is a legal
    two-seat match; it takes no late joiner (no Join button; a press on an old one is refused),
    is played to its end with /move and its result is reported to the league automatically."""
    import copy
    import random

    from rules import registry

    game = registry.get("avalon")
    league_id = await create_league(env, name="Sanctuary Cup", game="avalon", format="rr")
    for user in (env.alice, env.bob):
        await env.fake.click(env.bot, user, league_message(env, league_id), f"lg:{league_id}:join")
    await env.fake.slash(env.bot, env.alice, "league-admin start", permissions=ALL_PERMISSIONS)
    ix = await env.fake.click(env.bot, env.alice, league_message(env, league_id), f"lg:{league_id}:play")
    match_id = int(re.search(r"Match #(\d+)", ix.text).group(1))
    ix = await env.fake.click(env.bot, env.bob, await env.board(match_id), f"m:{match_id}:accept")
    select = next(c for row in ix.last["components"] for c in row["components"] if ":deck:" in c["custom_id"])
    await env.fake.click(env.bot, env.bob, ix.last, select["custom_id"], values=[select["options"][1]["value"]])
    rec = await env.match(match_id)
    assert rec.status == "active" and rec.meta["league"] == league_id and len(rec.seats) == 2
    board = await env.board(match_id)
    assert f"m:{match_id}:join" not in custom_ids(board)

    stale = copy.deepcopy(board)           # a Join a client might still show: refused all the same
    stale["components"][0]["components"].append(
        {"type": 2, "style": 2, "label": "Join", "custom_id": f"m:{match_id}:join"})
    payload = env.fake.interaction_payload(3, env.carol, {"custom_id": f"m:{match_id}:join", "component_type": 2},
                                           channel_id=board["channel_id"], message=stale)
    ix = await env.fake.dispatch(env.bot, payload)
    assert "This is a league match" in ix.text and ":deck:" not in str(ix.last)
    assert len((await env.match(match_id)).seats) == 2

    users = {int(env.alice["id"]): env.alice, int(env.bob["id"]): env.bob}
    rng = random.Random(3)
    for _ in range(2000):
        rec = await env.match(match_id)
        if rec.status != "active":
            break
        state = await env.host._state(rec)
        seat = rng.choice(game.to_act(state))
        legal = game.legal_commands(state, seat)
        good = [c for c in legal if c.split()[0] in ("summon", "advance", "invade", "ranged")]
        cmd = rng.choice(good if good and rng.random() < 0.7 else legal)
        ix = await env.fake.slash(env.bot, users[rec.seats[seat]], "move", command=cmd, channel_id=rec.channel_id)
        assert "⚠️" not in ix.text, (cmd, ix.text)
    rec = await env.match(match_id)
    assert rec.status == "finished" and rec.result["reason"] != "resign"
    lg = await env.store.get_league(league_id)
    (p,) = lg.data["pairings"]
    assert p["how"] == "match" and p["match"] == match_id and lg.status == "finished"
    winners = [rec.seats[s] for s in rec.result["winners"]]
    expected = "draw" if not winners else "a" if winners == [p["a"]] else "b"
    assert p["result"] == expected


async def test_a_league_match_that_ended_while_the_bot_was_down_is_reported_after_a_restart(env):
    league_id = await create_league(env, format="rr")
    for user in (env.alice, env.bob, env.carol):
        await env.fake.slash(env.bot, user, "league join")
    await env.fake.slash(env.bot, env.alice, "league-admin start", permissions=ALL_PERMISSIONS)
    users = {uid(u): u for u in (env.alice, env.bob, env.carol)}
    lg = await env.store.get_league(league_id)
    p = next(q for q in lg.data["pairings"] if q["b"] is not None)
    match_id = await play_pairing(env, league_id, users[p["a"]], users[p["b"]])
    # simulate a crash between the match's end and the league report: undo the report
    lg = await env.store.get_league(league_id)
    q = next(q for q in lg.data["pairings"] if q["id"] == p["id"])
    assert q["result"] == "a"
    q["result"], q["how"] = None, None
    lg.data["round"] = 1
    lg.data["pairings"] = [x for x in lg.data["pairings"] if x["round"] == 1]
    await env.store.update_league(lg, lg.version)
    await env.restart()
    assert await env.bot.get_cog("Leagues").tick_once() == 1
    lg = await env.store.get_league(league_id)
    q = next(q for q in lg.data["pairings"] if q["id"] == p["id"])
    assert (q["result"], q["how"], q["match"]) == ("a", "match", match_id)
    assert lg.data["round"] == 2, "the round was complete: round 2 is paired"
    assert await env.bot.get_cog("Leagues").tick_once() == 0, "reported once"


async def test_a_forfeit_claim_cannot_override_a_finished_match(env):
    """The deadline passed, but the pairing's match was played to the end (its report was lost
    in a restart): the match's result stands, the loser's claim is refused."""
    league_id = await create_league(env, format="rr", deadline_hours=1)
    for user in (env.alice, env.bob, env.carol):
        await env.fake.slash(env.bot, user, "league join")
    await env.fake.slash(env.bot, env.alice, "league-admin start", permissions=ALL_PERMISSIONS)
    users = {uid(u): u for u in (env.alice, env.bob, env.carol)}
    p = next(q for q in (await env.store.get_league(league_id)).data["pairings"] if q["b"] is not None)
    await play_pairing(env, league_id, users[p["a"]], users[p["b"]])      # a wins
    lg = await env.store.get_league(league_id)
    lg.data["pairings"] = [q for q in lg.data["pairings"] if q["round"] == 1]
    lg.data["round"] = 1
    next(q for q in lg.data["pairings"] if q["id"] == p["id"])["result"] = None
    await env.store.update_league(replace(lg, status="running"), lg.version)
    env.clock.advance(2 * 3600)

    def announced() -> int:
        return sum("round 2 is paired" in m["content"] for m in env.fake.posts(env.fake.channel["id"]))
    before = announced()
    ix = await env.fake.slash(env.bot, users[p["b"]], "league claim", pairing=p["id"])
    assert "already has a result" in ix.text, ix.text
    lg = await env.store.get_league(league_id)
    q = next(q for q in lg.data["pairings"] if q["id"] == p["id"])
    assert (q["result"], q["how"]) == ("a", "match"), "the match decided, not the claim"
    assert lg.status == "running" and lg.data["round"] == 2
    assert announced() == before + 1, "the catch-up paired round 2 and said so"


async def test_a_player_cannot_report_a_pairing_of_another_league_member_and_nothing_changes(env):
    league_id = await create_league(env, format="swiss", rounds=1)
    for user in (env.alice, env.bob, env.carol, env.dave):
        await env.fake.slash(env.bot, user, "league join")
    await env.fake.slash(env.bot, env.alice, "league-admin start", permissions=ALL_PERMISSIONS)
    before = await env.store.get_league(league_id)
    p1, p2 = before.data["pairings"]
    outsider = next(u for u in (env.alice, env.bob, env.carol, env.dave) if uid(u) in (p1["a"], p1["b"]))
    for result in ("win", "loss", "draw"):
        ix = await env.fake.slash(env.bot, outsider, "league report", pairing=p2["id"], result=result)
        assert "is not yours" in ix.text
    ix = await env.fake.slash(env.bot, outsider, "league-admin forfeit", pairing=p2["id"])
    assert "Only organisers" in ix.text
    after = await env.store.get_league(league_id)
    assert after.version == before.version and after.data == before.data, "nothing was written"


async def test_an_unanswered_league_challenge_does_not_block_a_claim_and_is_withdrawn(env):
    """Alice pressed Play my match, Bob never accepted, the deadline passed: Alice's claim wins
    the pairing and her challenge is withdrawn, so it cannot start after the forfeit."""
    league_id = await create_league(env, format="rr", deadline_hours=1)
    for user in (env.alice, env.bob):
        await env.fake.slash(env.bot, user, "league join")
    await env.fake.slash(env.bot, env.alice, "league-admin start", permissions=ALL_PERMISSIONS)
    ix = await env.fake.click(env.bot, env.alice, league_message(env, league_id), f"lg:{league_id}:play")
    match_id = int(re.search(r"Match #(\d+)", ix.text).group(1))
    assert (await env.match(match_id)).status == "pending"
    pairing = (await env.store.get_league(league_id)).data["pairings"][0]["id"]
    ix = await env.fake.slash(env.bot, env.alice, "league claim", pairing=pairing)
    assert "not past its deadline" in ix.text
    assert (await env.match(match_id)).status == "pending", "a refused claim withdraws nothing"
    env.clock.advance(3601)
    ix = await env.fake.slash(env.bot, env.alice, "league claim", pairing=pairing)
    assert "Forfeit win recorded" in ix.text, ix.text
    assert (await env.match(match_id)).status == "declined"
    board = await env.board(match_id)
    assert f"m:{match_id}:accept" not in custom_ids(board), "the challenge message was updated"
    assert "withdr" in message_text(board).lower(), message_text(board)
    lg = await env.store.get_league(league_id)
    assert lg.status == "finished" and lg.data["pairings"][0]["result"] == ("a" if lg.data["pairings"][0]["a"] == uid(env.alice) else "b")


async def test_standings_of_a_big_league_fit_one_message_and_japanese_names_stay_aligned(env):
    from data.store import LeagueRecord

    d = LG.new_league(name="Big", game="squares", fmt="swiss", rounds=3, deadline_hours=0, rated=True,
                      signup_hours=None, organiser=1, channel_id=None, season=1, now=0.0)
    for i in range(60):
        LG.join(d, "signup", 100 + i, ("山田太郎さんの長い名前" if i % 2 else f"player{i}"), 0.0)
    LG.start(d, "signup", 0.0)
    lg = LeagueRecord(id=1, guild_id=env.fake.guild_id, status="running", data=d)
    cog = env.bot.get_cog("Leagues")
    text = cog._table_text(lg, "ja")
    assert text.startswith("```\n") and text.endswith("\n```") and len(text) <= 1700
    assert "ほか" in text.splitlines()[-2], "the rows that do not fit are counted, not cut off"
    import unicodedata

    rows = text.splitlines()[2:-2]
    assert len(rows) > 20 and all("0-0-0" in ln for ln in rows)
    cells = {sum(2 if unicodedata.east_asian_width(ch) == "W" else 1 for ch in ln[:ln.index("0-0-0")])
             for ln in rows}
    assert len(cells) == 1, "the columns after the name start at the same display column in every row"
    assert len(cog._table_text(lg, "en", limit=10, budget=1000)) <= 1000


async def test_a_round_robin_league_of_three_played_as_bot_matches_to_final_standings(env):
    """Circle method with a bye each round; every pairing is started from the league message and
    reports itself; the final table, the leaderboard and the profiles agree."""
    league_id = await create_league(env, name="RR", format="rr", deadline_hours=48)
    users = {uid(u): u for u in (env.alice, env.bob, env.carol)}
    for user in users.values():
        await env.fake.click(env.bot, user, league_message(env, league_id), f"lg:{league_id}:join")
    ix = await env.fake.slash(env.bot, env.alice, "league-admin start", permissions=ALL_PERMISSIONS)
    assert "3 rounds" in ix.text
    byes = []
    for rnd in (1, 2, 3):
        lg = await env.store.get_league(league_id)
        assert lg.status == "running" and lg.data["round"] == rnd
        pairs = [p for p in lg.data["pairings"] if p["round"] == rnd]
        byes += [p["a"] for p in pairs if p["b"] is None]
        (p,) = [p for p in pairs if p["b"] is not None]
        # the lower user id wins every game
        winner, loser = sorted((p["a"], p["b"]))
        await play_pairing(env, league_id, users[p["b"]], users[loser])
        assert next(q for q in (await env.store.get_league(league_id)).data["pairings"]
                    if q["id"] == p["id"])["how"] == "match"
    assert sorted(byes) == sorted(users), "each player rests once"
    lg = await env.store.get_league(league_id)
    assert lg.status == "finished"
    table = LG.table(lg.data)
    ids = sorted(users)
    assert [s.user_id for s in table] == ids
    assert [(s.points, s.wins, s.losses, s.byes) for s in table] == [(3.0, 2, 0, 1), (2.0, 1, 1, 1), (1.0, 0, 2, 1)]
    final = layout_text(env.fake.posts(env.fake.channel["id"])[-1])     # the end of the league: a layout
    first_row = next(ln for ln in final.splitlines() if re.match(r"^\s*1 ", ln))
    assert "is finished" in final and users[ids[0]]["global_name"] in first_row
    ix = await env.fake.slash(env.bot, env.carol, "leaderboard", game="squares")
    order = [int(m) for m in re.findall(r"<@(\d+)>", ix.text)]
    assert order == ids, "two wins, one win, no win"
    ix = await env.fake.slash(env.bot, env.carol, "profile", player=users[ids[0]])
    assert "2 W · 0 L · 0 D" in ix.text


async def test_a_card_game_league_match_is_played_with_each_players_own_deck(env):
    """/league play deck:… starts the pairing with the caller's saved deck (autocompleted for the
    league's game); the opponent picks theirs when accepting; an illegal deck changes nothing."""
    from rules import registry

    game = "maken"
    d = registry.get(game).decks
    rids = list(d.ready())
    league_id = await create_league(env, name="Maken Cup", game=game, format="rr")
    for user in (env.alice, env.bob):
        await env.fake.slash(env.bot, user, "league join")
    await env.fake.slash(env.bot, env.alice, "league-admin start", permissions=ALL_PERMISSIONS)
    await env.fake.slash(env.bot, env.alice, "deck new", game=game, name="mine", copy=rids[-1])
    await env.fake.slash(env.bot, env.alice, "deck new", game=game, name="empty")
    choices = await env.fake.autocomplete(env.bot, env.alice, "league play", "deck", deck="")
    assert "mine" in [c["value"] for c in choices] and rids[0] in [c["value"] for c in choices]
    ix = await env.fake.slash(env.bot, env.alice, "league play", deck="empty")
    assert "cannot be played" in ix.text and "•" in ix.text
    assert (await env.store.get_league(league_id)).data["pairings"][0]["match"] is None
    ix = await env.fake.slash(env.bot, env.alice, "league play", deck="mine")
    match_id = int(re.search(r"Match #(\d+)", ix.text).group(1))
    board = await env.board(match_id)
    ix = await env.fake.click(env.bot, env.bob, board, f"m:{match_id}:accept")
    select = next(c for row in ix.last["components"] for c in row["components"] if ":deck:" in c["custom_id"])
    await env.fake.click(env.bot, env.bob, ix.last, select["custom_id"], values=[rids[0]])
    rec = await env.match(match_id)
    assert rec.status == "active" and rec.meta["league"] == league_id
    assert rec.options["decks"] == [d.ready()[rids[-1]]["spec"], rids[0]]
    await env.fake.slash(env.bot, env.bob, "match resign", match=match_id)
    lg = await env.store.get_league(league_id)
    assert lg.status == "finished" and lg.data["pairings"][0]["how"] == "match"


async def test_a_sign_up_window_that_closes_with_one_player_calls_the_league_off(env):
    """Nobody can join once the window has closed, so a league left with fewer than 2 players
    could never start: it is called off once, announced to the organiser and whoever signed
    up, and its message says so — instead of staying in sign-up for ever."""
    league_id = await create_league(env, format="rr", signup_hours=1)
    await env.fake.slash(env.bot, env.bob, "league join")
    cog = env.bot.get_cog("Leagues")
    assert await cog.tick_once() == 0, "the window is still open"
    env.clock.advance(3601)
    assert await cog.tick_once() == 1
    lg = await env.store.get_league(league_id)
    assert lg.status == "closed" and lg.data["cancelled"] == "too_few" and lg.data["round"] == 0
    said = [m["content"] for m in env.fake.posts(env.fake.channel["id"]) if "called off" in m["content"]]
    assert len(said) == 1 and "with only 1 player;" in said[0]
    assert f"<@{env.alice['id']}>" in said[0] and f"<@{env.bob['id']}>" in said[0], "organiser and sign-up pinged"
    assert any("Called off" in message_text(m) and f"League #{league_id}" in message_text(m)
               for m in env.fake.posts(env.fake.channel["id"])), "the league message says so"
    assert await cog.tick_once() == 0, "announced once"
    ix = await env.fake.slash(env.bot, env.carol, "league join", league=league_id)
    assert "⚠️" in ix.text


async def test_profile_names_a_players_own_saved_decks_only_in_their_own_view(env):
    """Issue 37: "/profile gains their most played decks and their win rates (their own saved
    decks by name only in their own ephemeral view)" — Alice wins twice with her saved deck
    "Storm" and loses once with a ready-made one; Carol reading Alice's profile sees "own decks",
    never the name."""
    from rules import registry

    maken = registry.get("maken")
    await env.store.save_deck(uid(env.alice), "maken", "Storm", maken.decks.ready()["mizuha_basic"]["spec"])
    for deck, loser in (("Storm", env.bob), ("Storm", env.bob), ("gou_basic", env.alice)):
        ix = await env.play(env.alice, game="maken", opponent=env.bob, deck=deck)
        assert "#" in ix.text, ix.text
        match_id = max(m.id for m in await env.store.matches_for_user(uid(env.alice)))
        board = await env.board(match_id)
        ix = await env.fake.click(env.bot, env.bob, board, f"m:{match_id}:accept")
        picker = [c for row in (ix.last or {}).get("components", []) for c in row["components"]
                  if ":deck:" in c.get("custom_id", "")]
        await env.fake.click(env.bot, env.bob, ix.last, picker[0]["custom_id"],
                             values=[picker[0]["options"][0]["value"]])
        await env.fake.slash(env.bot, loser, "match resign", match=match_id)
        assert (await env.match(match_id)).status == "finished"
    mine = await env.fake.slash(env.bot, env.alice, "profile")
    line = next(x for x in mine.text.splitlines() if x.startswith("Decks:"))
    assert "Storm 100%" in line and "n = 2" in line and "own decks" not in line, line
    theirs = await env.fake.slash(env.bot, env.carol, "profile", player=env.alice)
    line = next(x for x in theirs.text.splitlines() if x.startswith("Decks:"))
    assert "Storm" not in theirs.text and "own decks 100%" in line, line
    assert "0%" in line and "n = 1" in line, "the ready-made deck, lost once"
