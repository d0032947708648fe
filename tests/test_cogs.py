"""The Discord front end, driven through discord.py's real objects on a fake HTTP layer.

No token, no network: see tests/discord_fakes.py for how requests are answered and how
gateway-shaped interactions are dispatched.
"""
from __future__ import annotations

import json

import pytest

from discord_fakes import component, controls_of, custom_ids, is_v2, make_env, message_text, pictures_of

NOT_YOURS = "is not yours"


@pytest.fixture
async def env_render(tmp_path):
    e = await make_env(tmp_path, render=True)
    yield e
    await e.close()


def uid(user: dict) -> int:
    return int(user["id"])


async def play_via_menu(env, user, match_id: int, *, pick=lambda options: options[0]) -> str:
    """Open the Act menu on the board and pick moves (a group first when the moves do not fit
    one select) until one is played; returns the command played."""
    board = await env.board(match_id)
    moves = await env.host.choices(match_id, uid(user), "en")
    ix = await env.fake.click(env.bot, user, board, f"m:{match_id}:act")
    assert ix.ephemeral, ix.text
    menu = ix.last
    for _ in range(4):
        select = component(menu, r":c:")
        assert select is not None, message_text(menu)
        option = pick([o for o in select["options"] if not o["value"].startswith("p:")])
        ix = await env.fake.click(env.bot, user, menu, select["custom_id"], values=[option["value"]])
        if option["value"].startswith("c:"):
            move = moves[int(option["value"][2:])]
            assert f"`{move.command}`" in ix.text and "You played" in ix.text, ix.text
            return move.command
        menu = ix.last
    raise AssertionError("no move played in 4 picks")


# ---------------------------------------------------------------------------- the happy path
async def test_play_posts_a_challenge_that_pings_only_the_opponent(env):
    ix = await env.play(env.alice, game="squares", opponent=env.bob, options="first=1")
    assert ix.ephemeral and "Challenge #1" in ix.text
    [challenge] = env.fake.posts(env.fake.channel["id"])
    assert custom_ids(challenge) == ["m:1:accept", "m:1:decline"]
    assert is_v2(challenge) and not challenge["content"] and not challenge["embeds"], "a layout, nothing beside it"
    assert f"<@{env.bob['id']}>" in message_text(challenge)
    allowed = challenge["_allowed_mentions"]
    assert allowed["parse"] == [] and allowed["users"] == [uid(env.bob)]
    assert "Alice challenges Bob to SQUARES" in message_text(challenge)


async def test_accept_starts_the_match_in_a_thread_with_a_board_picture(env_render):
    env = env_render
    match_id = await env.start()
    [thread] = env.fake.threads()
    assert thread["parent_id"] == env.fake.channel["id"]
    rec = await env.match(match_id)
    assert rec.status == "active" and rec.channel_id == int(thread["id"])
    board = await env.board(match_id)
    assert board["channel_id"] == thread["id"]
    assert [a["filename"] for a in board["attachments"]] == ["board.png"]
    assert board["attachments"][0]["_bytes"][:8] == b"\x89PNG\r\n\x1a\n"
    assert pictures_of(board) == ["board.png"], "the picture is shown through the layout"
    assert custom_ids(board) == [f"m:{match_id}:act", f"m:{match_id}:status", f"m:{match_id}:resign"]
    # the challenge in the channel now points to the thread and has no buttons
    [challenge] = env.fake.posts(env.fake.channel["id"])
    assert thread["id"] in message_text(challenge) and not custom_ids(challenge) and not pictures_of(challenge)
    # the player to act is pinged in the thread, and only them
    pings = [m for m in env.fake.posts(thread["id"]) if "your turn" in message_text(m)]
    assert pings and pings[-1]["_allowed_mentions"]["users"] == [uid(env.alice)]


async def test_act_menu_walks_the_prefix_tree_and_plays_the_command(env_render):
    env = env_render
    match_id = await env.start()
    board_before = await env.board(match_id)
    words_before = message_text(board_before)
    command = await play_via_menu(env, env.alice, match_id)
    log = (await env.host.log(match_id)).data["log"]
    assert [e["command"] for e in log] == [command]
    board = await env.board(match_id)
    # issue 14: the turn passed, so the board is posted anew as the newest message of the thread,
    # saying what happened and pinging Bob; the previous board keeps its words only
    thread = env.fake.posts(board["channel_id"])
    assert board["id"] != board_before["id"] and thread[-1]["id"] == board["id"]
    # … in words: the label Alice picked ("Place Support 1 on a1"), not the notation
    piece = {"S": "Support", "L": "Leap", "X": "Swap", "P": "Supply"}.get(command.split()[1][0], "")
    assert f"Alice: Place {piece} {command.split()[1][1:]} on {command.split()[2]}" in message_text(board)
    assert f"<@{uid(env.bob)}>: your turn" in message_text(board)
    assert board["_allowed_mentions"]["users"] == [uid(env.bob)]
    assert "To act: Bob" in message_text(board) and component(board, rf"^m:{match_id}:act$")
    old = env.fake.messages[int(board_before["id"])]
    assert custom_ids(old) == [] and pictures_of(old) == [] and old.get("attachments") == []
    kept = message_text(old)
    assert kept and "<@" not in kept and kept in words_before, "a retired board keeps its words, not its pings"
    assert len(thread) == 2, [message_text(m) for m in thread]


async def test_move_command_plays_and_answers_ephemerally(env):
    match_id = await env.start()
    thread_id = (await env.match(match_id)).channel_id
    legal = await env.host.legal(match_id, uid(env.alice))
    ix = await env.fake.slash(env.bot, env.alice, "move", command=legal[3], channel_id=thread_id)
    assert ix.ephemeral and "You played" in ix.text and f"`{legal[3]}`" in ix.text
    assert (await env.match(match_id)).n_commands == 1
    # an explicit match option works from anywhere (here: the parent channel)
    legal_b = await env.host.legal(match_id, uid(env.bob))
    ix = await env.fake.slash(env.bot, env.bob, "move", command=legal_b[0], match=match_id)
    assert "You played" in ix.text and (await env.match(match_id)).n_commands == 2


async def test_a_full_match_by_move_autocomplete_reaches_a_result(env):
    match_id = await env.start(options="first=1 max_turns=10")
    thread_id = (await env.match(match_id)).channel_id
    players = {uid(env.alice): env.alice, uid(env.bob): env.bob}
    for _ in range(200):
        rec = await env.match(match_id)
        if rec.status != "active":
            break
        mover = [u for u in players if await env.host.legal(match_id, u)][0]
        choices = await env.fake.autocomplete(env.bot, players[mover], "move", "command",
                                              command="", channel_id=thread_id)
        assert choices
        ix = await env.fake.slash(env.bot, players[mover], "move", command=choices[-1]["value"],
                                  channel_id=thread_id)
        assert "You played" in ix.text, ix.text
    rec = await env.match(match_id)
    assert rec.status == "finished" and rec.result is not None
    board = await env.board(match_id)
    assert custom_ids(board) == [], "a finished board has no buttons"
    last = env.fake.posts(thread_id)[-1]
    assert "won" in message_text(last) or "Draw" in message_text(last)


# ---------------------------------------------------------------------------- autocomplete
async def test_move_autocomplete_offers_only_the_invokers_own_legal_commands(env):
    match_id = await env.start()
    thread_id = (await env.match(match_id)).channel_id
    legal = await env.host.legal(match_id, uid(env.alice))
    choices = await env.fake.autocomplete(env.bot, env.alice, "move", "command", command="place S2",
                                          channel_id=thread_id)
    assert 0 < len(choices) <= 25
    assert all(c["value"] in legal and c["value"].startswith("place S2") for c in choices)
    # the player not to act, and a stranger, get nothing
    assert await env.fake.autocomplete(env.bot, env.bob, "move", "command", command="",
                                       channel_id=thread_id) == []
    assert await env.fake.autocomplete(env.bot, env.carol, "move", "command", command="",
                                       channel_id=thread_id) == []
    assert await env.fake.autocomplete(env.bot, env.carol, "move", "command", command="",
                                       match=match_id) == []


async def test_match_autocomplete_lists_the_users_unfinished_matches(env):
    match_id = await env.start()
    choices = await env.fake.autocomplete(env.bot, env.bob, "match status", "match", match="")
    assert [c["value"] for c in choices] == [match_id]
    assert "SQUARES" in choices[0]["name"] and "Alice" in choices[0]["name"]
    assert await env.fake.autocomplete(env.bot, env.carol, "match status", "match", match="") == []


# ---------------------------------------------------------------------------- wrong people, wrong time
async def test_out_of_turn_player_is_told_whose_turn_it_is(env):
    match_id = await env.start()
    thread_id = (await env.match(match_id)).channel_id
    legal_alice = await env.host.legal(match_id, uid(env.alice))
    ix = await env.fake.slash(env.bot, env.bob, "move", command=legal_alice[0], channel_id=thread_id)
    assert ix.ephemeral and "It is not your turn: waiting for Alice" in ix.text
    board = await env.board(match_id)
    ix = await env.fake.click(env.bot, env.bob, board, f"m:{match_id}:act")
    assert ix.ephemeral and "not your turn" in ix.text and "Alice" in ix.text
    assert (await env.match(match_id)).n_commands == 0


async def test_a_strangers_click_gets_a_short_ephemeral_answer(env):
    match_id = await env.start()
    board = await env.board(match_id)
    posts_before = len(env.fake.posts())
    for action in ("act", "resign"):
        ix = await env.fake.click(env.bot, env.carol, board, f"m:{match_id}:{action}")
        assert ix.ephemeral and NOT_YOURS in ix.text
    ix = await env.fake.click(env.bot, env.carol, board, f"m:{match_id}:status")
    assert ix.ephemeral and "To act: Alice" in ix.text     # anyone may look
    assert len(env.fake.posts()) == posts_before
    # a stranger cannot accept someone else's challenge
    await env.play(env.alice, game="squares", opponent=env.bob)
    challenge = env.fake.posts(env.fake.channel["id"])[-1]
    ix = await env.fake.click(env.bot, env.carol, challenge, "m:2:accept")
    assert ix.ephemeral and "not addressed to you" in ix.text
    assert (await env.match(2)).status == "pending"


async def test_illegal_and_garbage_commands_are_refused_and_change_nothing(env):
    match_id = await env.start()
    thread_id = (await env.match(match_id)).channel_id
    board = await env.board(match_id)
    patches = len(env.fake.calls("PATCH", rf"/messages/{board['id']}$"))
    for text in ("fly to the moon", "place Z9 z9", "move c1 c2"):
        ix = await env.fake.slash(env.bot, env.alice, "move", command=text, channel_id=thread_id)
        assert ix.ephemeral and ix.text.startswith("⚠️"), ix.text
        assert "place" in ix.text, "the answer says what is allowed instead"
    assert (await env.match(match_id)).n_commands == 0
    assert len(env.fake.calls("PATCH", rf"/messages/{board['id']}$")) == patches


async def test_a_finished_matchs_buttons_get_a_clear_answer(env):
    match_id = await env.start()
    board = dict(await env.board(match_id))          # the message as it was, buttons and all
    thread_id = (await env.match(match_id)).channel_id
    await env.fake.slash(env.bot, env.bob, "match resign", channel_id=thread_id)
    old = dict(board)
    env.fake.messages[int(old["id"])]["components"] = board["components"]  # a stale client still shows them
    ix = await env.fake.click(env.bot, env.alice, old, f"m:{match_id}:act")
    assert ix.ephemeral and "is over" in ix.text and "/match rematch" in ix.text
    ix = await env.fake.click(env.bot, env.alice, old, f"m:{match_id}:resign")
    assert ix.ephemeral and "is over" in ix.text
    ix = await env.fake.click(env.bot, env.alice, old, f"m:{match_id}:status")
    assert ix.ephemeral and "Alice won" in ix.text


async def test_unknown_game_is_refused_with_the_list_of_games(env):
    ix = await env.play(env.alice, game="chess", opponent=env.bob)
    assert ix.ephemeral and 'Unknown game "chess"' in ix.text and "SQUARES" in ix.text
    assert await env.store.matches_for_user(uid(env.alice)) == []


@pytest.mark.parametrize("options, detail", [
    ("colour=red", "colour"),
    ("max_turns=5", "max_turns"),
    ("garbage", "garbage"),
])
async def test_bad_options_get_a_message_listing_the_allowed_options(env, options, detail):
    ix = await env.play(env.alice, game="squares", opponent=env.bob, options=options)
    assert ix.ephemeral and detail in ix.text
    assert "max_turns=200 (10..1000)" in ix.text and "first=" in ix.text
    assert await env.store.matches_for_user(uid(env.alice)) == []
    assert env.fake.posts() == []


async def test_bad_options_message_is_japanese_for_a_japanese_user(env):
    ix = await env.play(env.alice, game="squares", opponent=env.bob, options="colour=red", locale="ja")
    assert "使えるオプション" in ix.text and "max_turns=200" in ix.text


async def test_a_bot_cannot_be_challenged(env):
    robot = env.fake.user("Robot")
    robot["bot"] = True
    ix = await env.play(env.alice, game="squares", opponent=robot)
    assert ix.ephemeral and "is a bot" in ix.text


# ---------------------------------------------------------------------------- /match subcommands
async def test_match_resign_by_slash_and_by_button_with_confirmation(env):
    match_id = await env.start()
    thread_id = (await env.match(match_id)).channel_id
    ix = await env.fake.slash(env.bot, env.alice, "match resign", channel_id=thread_id)
    assert "You resigned match #1" in ix.text
    rec = await env.match(match_id)
    assert rec.status == "finished" and rec.result["winners"] == [1]
    assert "Bob won" in message_text(await env.board(match_id))

    match2 = await env.start()
    board = await env.board(match2)
    ix = await env.fake.click(env.bot, env.bob, board, f"m:{match2}:resign")
    assert ix.ephemeral and "Really resign" in ix.text
    assert (await env.match(match2)).status == "active", "nothing happens before confirming"
    confirm = ix.last
    ix = await env.fake.click(env.bot, env.bob, confirm, f"m:{match2}:ok:resign")
    assert "You resigned" in ix.text
    assert (await env.match(match2)).result["winners"] == [0]


async def test_match_abort_needs_both_players(env):
    match_id = await env.start()
    thread_id = (await env.match(match_id)).channel_id
    ix = await env.fake.slash(env.bot, env.alice, "match abort", channel_id=thread_id)
    assert "asks to abort" in ix.text
    assert (await env.match(match_id)).status == "active"
    vote = env.fake.posts(thread_id)[-1]
    assert "asks to abort" in message_text(vote) and vote["_allowed_mentions"]["users"] == [uid(env.bob)]
    ix = await env.fake.slash(env.bot, env.alice, "match abort", channel_id=thread_id)
    assert "already asked" in ix.text
    await env.fake.slash(env.bot, env.bob, "match abort", channel_id=thread_id)
    assert (await env.match(match_id)).status == "aborted"
    assert "aborted" in message_text(await env.board(match_id))


async def test_a_moderator_outside_the_match_can_abort_it(env):
    match_id = await env.start()
    from discord_fakes import ALL_PERMISSIONS
    await env.fake.slash(env.bot, env.carol, "match abort", match=match_id, permissions=ALL_PERMISSIONS)
    assert (await env.match(match_id)).status == "aborted"


async def rematch_offered(env, loser: dict) -> int:
    """Alice and Bob play, ``loser`` resigns, Alice offers a rematch (#2); returns the thread."""
    match_id = await env.start()
    thread_id = (await env.match(match_id)).channel_id
    await env.fake.slash(env.bot, loser, "match resign", channel_id=thread_id)
    ix = await env.fake.slash(env.bot, env.alice, "match rematch", channel_id=thread_id)
    assert "Rematch offered as match #2" in ix.text
    return thread_id


async def test_match_rematch_offers_a_new_challenge_in_the_same_thread(env):
    thread_id = await rematch_offered(env, env.alice)
    offer = await env.board(2)
    assert offer["channel_id"] == str(thread_id)
    assert custom_ids(offer) == ["m:2:accept", "m:2:decline"]
    assert offer["_allowed_mentions"]["users"] == [uid(env.bob)]
    await env.fake.click(env.bot, env.bob, offer, "m:2:accept")
    rec2 = await env.match(2)
    assert rec2.status == "active" and rec2.channel_id == thread_id
    assert len(env.fake.threads()) == 1, "no thread inside a thread"


async def test_when_both_players_ask_for_a_rematch_the_second_accepts_the_first(env):
    thread_id = await rematch_offered(env, env.bob)
    ix = await env.fake.slash(env.bot, env.bob, "match rematch", channel_id=thread_id, locale="ja")
    assert "対戦 #2" in ix.text and "承諾" in ix.text
    rec2 = await env.match(2)
    assert rec2.status == "active" and rec2.options["first"] == 1   # the winner, Alice, moves second
    assert await env.match(3) is None
    assert "To act: Bob" in message_text(await env.board(2))


async def test_match_hand_says_squares_has_nothing_private(env):
    match_id = await env.start()
    thread_id = (await env.match(match_id)).channel_id
    ix = await env.fake.slash(env.bot, env.alice, "match hand", channel_id=thread_id)
    assert ix.ephemeral and "nothing private" in ix.text and ix.files == []
    ix = await env.fake.slash(env.bot, env.alice, "match hand", channel_id=thread_id, locale="ja")
    assert "非公開の情報はありません" in ix.text


async def test_match_spectate_status_and_log(env):
    match_id = await env.start()
    thread_id = (await env.match(match_id)).channel_id
    first = (await env.host.legal(match_id, uid(env.alice)))[0]
    await env.fake.slash(env.bot, env.alice, "move", command=first, channel_id=thread_id)

    ix = await env.fake.slash(env.bot, env.carol, "match spectate", match=match_id)
    assert ix.ephemeral and "You are watching match #1" in ix.text and str(thread_id) in ix.text
    assert uid(env.carol) in env.fake.thread_members[thread_id]
    assert uid(env.carol) in (await env.match(match_id)).spectators

    ix = await env.fake.slash(env.bot, env.bob, "match status", channel_id=thread_id)
    assert ix.ephemeral and "To act: Bob" in ix.text and "Your turn" in ix.text

    ix = await env.fake.slash(env.bot, env.bob, "match log", match=match_id)
    assert ix.ephemeral and "1. Alice: " in ix.text and f"(`{first}`)" in ix.text and len(ix.last["content"]) <= 2000


async def test_match_without_a_match_here_says_how_to_choose_one(env):
    ix = await env.fake.slash(env.bot, env.carol, "match status")
    assert ix.ephemeral and "Which match?" in ix.text
    ix = await env.fake.slash(env.bot, env.carol, "match status", match=999)
    assert "There is no match #999" in ix.text


async def test_open_seats_join_and_start(env):
    ix = await env.play(env.alice, game="squares", open_seats=1)
    board = env.fake.posts()[-1]
    assert custom_ids(board) == ["m:1:join", "m:1:start", "m:1:decline"]
    ix = await env.fake.click(env.bot, env.alice, board, "m:1:join")
    assert "already have a seat" in ix.text
    await env.fake.click(env.bot, env.carol, board, "m:1:join")
    rec = await env.match(1)
    assert rec.status == "active" and uid(env.carol) in rec.seats


async def test_decline_closes_the_challenge(env):
    await env.play(env.alice, game="squares", opponent=env.bob)
    challenge = env.fake.posts()[-1]
    await env.fake.click(env.bot, env.bob, challenge, "m:1:decline")
    assert (await env.match(1)).status == "declined"
    challenge = env.fake.posts()[-1]
    assert custom_ids(challenge) == [] and "declined" in message_text(challenge)
    assert env.fake.threads() == []


# ---------------------------------------------------------------------------- persistence, failures
async def test_restart_a_fresh_bot_handles_an_old_buttons_custom_id(env):
    match_id = await env.start()
    board = await env.board(match_id)
    await env.restart()
    assert env.fake.unhandled == []
    ix = await env.fake.click(env.bot, env.alice, board, f"m:{match_id}:act")
    assert ix.ephemeral and component(ix.last, r":c:") is not None
    command = await play_via_menu(env, env.alice, match_id)
    assert (await env.host.log(match_id)).data["log"][0]["command"] == command


async def test_a_stale_menu_is_refreshed_instead_of_playing_an_old_choice(env):
    match_id = await env.start()
    thread_id = (await env.match(match_id)).channel_id
    board = await env.board(match_id)
    ix = await env.fake.click(env.bot, env.alice, board, f"m:{match_id}:act")
    menu = ix.last
    # meanwhile the position changes
    for user in (env.alice, env.bob):
        legal = await env.host.legal(match_id, uid(user))
        await env.fake.slash(env.bot, user, "move", command=legal[-1], channel_id=thread_id)
    select = component(menu, r":c:")
    ix = await env.fake.click(env.bot, env.alice, menu, select["custom_id"], values=[select["options"][0]["value"]])
    assert "position changed" in ix.text
    assert (await env.match(match_id)).n_commands == 2


async def test_a_deleted_board_message_is_posted_again(env):
    match_id = await env.start()
    board = await env.board(match_id)
    env.fake.delete_message(int(board["id"]))
    legal = await env.host.legal(match_id, uid(env.alice))
    await env.fake.slash(env.bot, env.alice, "move", command=legal[0], match=match_id)
    new_board = await env.board(match_id)
    assert new_board["id"] != board["id"] and new_board["channel_id"] == board["channel_id"]
    assert "To act: Bob" in message_text(new_board)


async def test_a_deleted_thread_falls_back_to_the_parent_channel(env):
    match_id = await env.start()
    thread_id = (await env.match(match_id)).channel_id
    env.fake.delete_channel(thread_id)
    legal = await env.host.legal(match_id, uid(env.alice))
    ix = await env.fake.slash(env.bot, env.alice, "move", command=legal[0], match=match_id)
    assert "You played" in ix.text
    rec = await env.match(match_id)
    assert rec.channel_id == int(env.fake.channel["id"])
    board = await env.board(match_id)
    assert board["channel_id"] == env.fake.channel["id"] and "To act: Bob" in message_text(board)


async def test_no_permission_to_post_withdraws_the_challenge(env):
    env.fake.forbidden_channels.add(int(env.fake.channel["id"]))
    ix = await env.play(env.alice, game="squares", opponent=env.bob)
    assert ix.ephemeral and "cannot post" in ix.text
    assert (await env.match(1)).status == "declined"


async def test_an_unexpected_error_gets_a_localized_generic_answer(env, monkeypatch):
    match_id = await env.start()

    async def boom(*a, **k):
        raise RuntimeError("kaboom")

    monkeypatch.setattr(env.host, "status", boom)
    ix = await env.fake.slash(env.bot, env.alice, "match status", match=match_id)
    assert ix.ephemeral and "Something went wrong" in ix.text
    ix = await env.fake.slash(env.bot, env.alice, "match status", match=match_id, locale="ja")
    assert "内部でエラー" in ix.text
    board = await env.board(match_id)
    ix = await env.fake.click(env.bot, env.alice, board, f"m:{match_id}:status")
    assert "Something went wrong" in ix.text


# ---------------------------------------------------------------------------- clock
async def test_clock_reminds_then_announces_expiry_and_the_opponent_claims(env):
    match_id = await env.start(turn_time=300)
    thread_id = (await env.match(match_id)).channel_id
    delivery = env.bot.get_cog("Delivery")
    ix = await env.fake.slash(env.bot, env.bob, "match claim", channel_id=thread_id)
    assert "has not run out" in ix.text
    env.clock.advance(250)
    assert await delivery.tick_once() == 1
    reminder = env.fake.posts(thread_id)[-1]
    assert "runs out in" in message_text(reminder) and reminder["_allowed_mentions"]["users"] == [uid(env.alice)]
    # issue 14: the notice comes as a new board (picture and Act under it): the newest message
    # of the thread is still the board, and the board before it is retired
    from discord_fakes import component
    assert component(reminder, r":act$") is not None and f"## SQUARES #{match_id}" in message_text(reminder)
    assert (await env.board(match_id))["id"] == reminder["id"]
    env.clock.advance(100)
    assert await delivery.tick_once() == 1
    expired = env.fake.posts(thread_id)[-1]
    assert "ran out of time" in message_text(expired) and expired["_allowed_mentions"]["users"] == [uid(env.bob)]
    ix = await env.fake.slash(env.bot, env.bob, "match claim", channel_id=thread_id)
    assert "claimed the win" in ix.text
    assert (await env.match(match_id)).result["reason"] == "timeout"


# ---------------------------------------------------------------------------- settings
async def test_settings_need_manage_server(env):
    before = await env.store.get_guild_settings(env.fake.guild_id)      # the fake server's (gif off)
    ix = await env.fake.slash(env.bot, env.alice, "settings thread", value="off")
    assert ix.ephemeral and "Manage Server" in ix.text
    assert await env.store.get_guild_settings(env.fake.guild_id) == before and "thread" not in before


async def test_settings_thread_off_plays_in_the_channel(env):
    from discord_fakes import ALL_PERMISSIONS
    ix = await env.fake.slash(env.bot, env.carol, "settings thread", value="off", permissions=ALL_PERMISSIONS)
    assert "Saved" in ix.text and "Threads: off" in ix.text
    match_id = await env.start()
    assert env.fake.threads() == []
    rec = await env.match(match_id)
    assert rec.channel_id == int(env.fake.channel["id"])
    board = await env.board(match_id)
    assert board["channel_id"] == env.fake.channel["id"]
    assert custom_ids(board) == [f"m:{match_id}:act", f"m:{match_id}:status", f"m:{match_id}:resign"]


async def test_settings_language_makes_public_messages_japanese(env):
    from discord_fakes import ALL_PERMISSIONS
    await env.fake.slash(env.bot, env.carol, "settings language", value="ja", permissions=ALL_PERMISSIONS)
    await env.play(env.alice, game="squares", opponent=env.bob)       # en user, en guild locale
    challenge = env.fake.posts()[-1]
    assert "対戦の申し込み" in message_text(challenge)
    labels = [c["label"] for c in controls_of(challenge)]
    assert labels == ["承諾", "辞退"]


# ---------------------------------------------------------------------------- Japanese
async def test_japanese_users_get_japanese_replies_and_japanese_guilds_japanese_boards(env):
    ix = await env.play(env.alice, game="squares", opponent=env.bob, options="first=1",
                        locale="ja", guild_locale="ja")
    assert "申し込みを投稿しました" in ix.text
    challenge = env.fake.posts()[-1]
    assert "対戦の申し込み" in message_text(challenge)
    await env.fake.click(env.bot, env.bob, challenge, "m:1:accept", locale="ja")
    board = await env.board(1)
    labels = [c["label"] for c in controls_of(board)]
    assert labels == ["行動", "状況", "投了"]
    ix = await env.fake.click(env.bot, env.bob, board, "m:1:act", locale="ja")
    assert "今はあなたの番ではありません" in ix.text
    ix = await env.fake.click(env.bot, env.alice, board, "m:1:act", locale="ja")
    assert "あなたの番" in ix.text
    ix = await env.fake.slash(env.bot, env.carol, "match status", locale="ja")
    assert "どの対戦か決められません" in ix.text


async def test_rules_shows_the_start_of_the_rules_within_limits(env):
    ix = await env.fake.slash(env.bot, env.alice, "rules", game="squares")
    assert ix.ephemeral
    embed = ix.last["embeds"][0]
    assert "SQUARES" in embed["title"] and len(embed["description"]) <= 2000
    assert sum(len(message_text(ix.last)) for _ in [0]) <= 6000
    ix = await env.fake.slash(env.bot, env.alice, "rules", game="nope")
    assert "Unknown game" in ix.text


async def test_rules_speak_the_readers_language(env):
    ix = await env.fake.slash(env.bot, env.alice, "rules", game="squares", locale="ja")
    embed = ix.last["embeds"][0]
    assert "中央の列" in embed["description"] and "援護" in embed["description"]
    assert "rulings and notation" not in embed["description"]      # not the English document
    assert "docs/" not in json.dumps(ix.last, ensure_ascii=False)  # developer docs never reach players
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields["人数"] == "2–2"
    ix = await env.fake.slash(env.bot, env.alice, "rules", game="squares")
    embed = ix.last["embeds"][0]
    assert "3 of the 5 centre squares" in embed["description"] and "Goal" in embed["description"]
    # the guide's later pages (a turn, actions, rulings, notation): tests/test_guide.py


async def test_no_request_goes_unanswered_by_the_fake(env):
    await env.start()
    assert env.fake.unhandled == []
    assert all(r.status < 400 for r in env.fake.requests), [r for r in env.fake.requests if r.status >= 400]


async def test_concurrent_publishes_make_one_thread_and_never_show_an_older_board(env):
    import asyncio

    await env.play(env.alice, game="squares", opponent=env.bob, options="first=1")
    started = await env.host.accept(1, uid(env.bob))
    legal = await env.host.legal(1, uid(env.alice))
    moved = await env.host.command(1, uid(env.alice), legal[0])
    delivery = env.bot.get_cog("Delivery")
    await asyncio.gather(delivery.publish(moved, actor=uid(env.alice)), delivery.publish(started))
    assert len(env.fake.threads()) == 1
    assert "To act: Bob" in message_text(await env.board(1))


async def test_a_match_started_inside_a_thread_is_played_in_that_thread(env):
    thread = env.fake.thread(int(env.fake.channel["id"]), "chat")
    await env.play(env.alice, game="squares", opponent=env.bob, options="first=1", channel_id=thread["id"])
    challenge = env.fake.posts(thread["id"])[-1]
    await env.fake.click(env.bot, env.bob, challenge, "m:1:accept")
    assert len(env.fake.threads()) == 1
    board = await env.board(1)
    assert env.fake.posts(thread["id"])[-1]["id"] == board["id"], "the board is the newest message"
    assert custom_ids(board) == ["m:1:act", "m:1:status", "m:1:resign"]
    assert f"<@{uid(env.alice)}>: your turn" in message_text(board)
    assert custom_ids(env.fake.messages[int(challenge["id"])]) == [], "the challenge has no buttons left"


async def test_match_commands_work_from_direct_messages_with_a_match_number(env):
    match_id = await env.start()
    ix = await env.fake.slash(env.bot, env.alice, "match status", match=match_id, dm=True)
    assert ix.ephemeral and "To act: Alice" in ix.text
    legal = await env.host.legal(match_id, uid(env.alice))
    ix = await env.fake.slash(env.bot, env.alice, "move", command=legal[0], match=match_id, dm=True)
    assert "You played" in ix.text
    assert "To act: Bob" in message_text(await env.board(match_id))


async def test_aborting_a_pending_challenge_makes_no_thread(env):
    await env.play(env.alice, game="squares", opponent=env.bob)
    await env.fake.slash(env.bot, env.alice, "match abort", match=1)
    assert (await env.match(1)).status == "aborted"
    assert env.fake.threads() == []
    assert custom_ids(env.fake.posts()[0]) == []
