"""End-to-end SQUARES scenarios: the real ``bot.py`` process, discord.py's own HTTP client and
gateway websocket, against the local Discord twin (tests/e2e/twin.py) on 127.0.0.1.

Every test ends with the twin's protocol check (conftest): nothing the bot sent was refused
for breaking Discord's limits, and no interaction was answered late or twice.
"""
from __future__ import annotations

import random
import re

import pytest

from .checks import assert_ephemeral, assert_every_message_within_limits, assert_no_public_secret
from .harness import played_or_refused
from .twin import EPHEMERAL, MEMBER_PERMISSIONS, components_of, find_component, message_text
from .twin_v2 import is_v2, pictures_of

# aiohttp's own multipart reader (the twin reading uploads) uses a deprecated call internally
pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")

OPTIONS = "first=1 max_turns=10"


def log_commands(text: str) -> list[str]:
    """The commands of a /match log answer, in order."""
    return [m.group(1) or m.group(2) or m.group(3) for m in re.finditer(   # "N. name: words (`notation`)"
        r"^\s*\d+\. [^:\n]+: (?:.*?\(`([^`]+)`\)|`([^`]+)`|(.+))$", text, flags=re.M)]


async def test_full_squares_match_from_play_to_result_by_buttons_and_by_move(table, twin):
    alice, bob = table.alice, table.bob
    # /play: an ephemeral confirmation, a public challenge that pings exactly Bob
    match_id, challenge = await table.challenge("squares", OPTIONS)
    assert challenge["channel_id"] == twin.channel["id"]
    assert is_v2(challenge) and not challenge["content"] and not challenge["embeds"], "the challenge is a layout"
    assert f"<@{bob['id']}>" in message_text(challenge)
    assert [str(u) for u in challenge["_allowed_mentions"]["users"]] == [bob["id"]]
    assert find_component(challenge, rf"^m:{match_id}:accept$") and find_component(challenge, rf"^m:{match_id}:decline$")
    # Bob accepts: the match moves into its own thread, the board is posted there with a picture
    ix = await twin.click(bob, challenge, f"m:{match_id}:accept")
    assert ix.response_type == 6
    await twin.wait_for(lambda: table.board_message(match_id) and find_component(
        table.board_message(match_id), rf"^m:{match_id}:act$"), what="board")
    [thread] = twin.threads()
    assert thread["parent_id"] == twin.channel["id"]
    board = table.board_message(match_id)
    assert board["channel_id"] == thread["id"]
    pointer = message_text(twin.message(challenge["id"]))
    assert "in " in pointer and f"<#{thread['id']}>" in pointer and not components_of(twin.message(challenge["id"]))
    picture = twin.picture(board, "board.png")
    assert picture.format == "PNG" and picture.width >= 200 and picture.height >= 200
    assert pictures_of(board) == ["board.png"], "the picture is shown through the layout's gallery"

    rng = random.Random(5)
    played: list[str] = []
    pictures = [picture.tobytes()]
    boards = [board["id"]]
    for turn in range(30):
        board = table.board_message(match_id)
        if board is None:
            break
        user = await table.to_act(match_id)
        assert user is not None
        if turn % 2 == 0:
            # the Act button: the move in words from one select, played at once, all ephemeral
            command, ix = await table.act_by_menu(user, match_id, pick=rng.choice)
            assert ix.response_type == 6    # deferred update of the ephemeral menu
        else:
            choices = await twin.autocomplete(user, "move", "command", command="",
                                              channel_id=thread["id"])
            assert choices and all(len(c["name"]) <= 100 for c in choices)
            assert not any(c["name"] == c["value"] for c in choices), "autocomplete shows moves in words"
            command = rng.choice(choices)["value"]
            ix = await table.move(user, match_id, command)
            assert_ephemeral(ix)
            assert "You played" in ix.text and f"`{command}`" in ix.text
        played.append(command)
        # the board shows the move and is the newest message; when the turn passed it is a new
        # board pinging the next player, and the previous one is retired (its words stay, its
        # picture and buttons go)
        await twin.wait_for(lambda: table.latest_board(match_id) is not None and
                            twin.picture(table.latest_board(match_id)).tobytes() != pictures[-1],
                            what="the board to show the move")
        new = table.latest_board(match_id)
        assert twin.posts(thread["id"])[-1] is new
        if new["id"] != boards[-1]:
            await twin.wait_for(lambda: components_of(twin.message(boards[-1])) == [] and
                                not pictures_of(twin.message(boards[-1])), what="the previous board retired")
            assert message_text(twin.message(boards[-1])).strip(), "a retired board keeps its words"
            boards.append(new["id"])
            nxt = await table.to_act(match_id)
            if nxt is not None:
                assert f"<@{nxt['id']}>: your turn" in message_text(new)
                assert [str(u) for u in new["_allowed_mentions"]["users"]] == [nxt["id"]]
        pictures.append(twin.picture(new).tobytes())
    else:
        raise AssertionError("the match did not end in 30 turns")
    board_id = boards[-1]
    # one message per turn in the thread: the boards, nothing else
    assert len(twin.posts(thread["id"])) == len(boards)

    # the result: the board has no buttons any more and says how it ended; an event says it too
    final = twin.message(board_id)
    assert components_of(final) == []
    assert re.search(r"Draw|won", message_text(final)), "the final board says the result in words"
    assert len(played) == 10   # max_turns=10: one command per turn
    # the full log is exactly what was played, in order
    ix = await twin.slash(alice, "match log", match=match_id, channel_id=thread["id"])
    assert_ephemeral(ix)
    assert log_commands(ix.text) == played

    # secrecy: SQUARES has no private information, so no DM was ever opened or sent …
    assert twin.calls("POST", r"^/users/@me/channels$") == []
    assert twin.all_dms() == []
    # … and what only one user saw (menus, confirmations) stayed ephemeral
    menus = [m for m in twin.messages.values() if any("your move (" in v["content"] for v in m["_versions"])]
    assert menus and all(m["flags"] & EPHEMERAL for m in menus)
    assert_no_public_secret(twin, ["your move (", "You played"])
    assert assert_every_message_within_limits(twin) > 20


async def test_a_strangers_click_and_an_out_of_turn_command_change_nothing(table, twin):
    alice, bob, carol = table.alice, table.bob, table.carol
    match_id, challenge = await table.challenge("squares", OPTIONS)
    # Carol cannot accept a challenge addressed to Bob
    ix = await twin.click(carol, challenge, f"m:{match_id}:accept")
    assert "not addressed to you" in ix.text and ix.ephemeral
    assert twin.threads() == []
    await twin.click(bob, challenge, f"m:{match_id}:accept")
    board = await twin.wait_for(lambda: find_component(table.board_message(match_id) or {}, r":act$")
                                and table.board_message(match_id), what="board")
    versions = len(board["_versions"])
    thread_id = board["channel_id"]
    # a stranger presses Act and Resign: told off privately, nothing public happens
    posts_before = len(twin.posts())
    for action in ("act", "resign"):
        ix = await twin.click(carol, board, f"m:{match_id}:{action}")
        assert_ephemeral(ix)
        assert f"Match #{match_id} is not yours" in ix.text
    # a stranger's /move and autocomplete
    assert await twin.autocomplete(carol, "move", "command", command="", channel_id=thread_id) == []
    ix = await twin.slash(carol, "move", command="place S1 a1", match=match_id, channel_id=thread_id)
    assert_ephemeral(ix)
    assert "not playing in this match" in ix.text or "not yours" in ix.text, ix.text
    # Bob moves out of turn (first=1: Alice begins), with a command that is legal for Alice
    alice_moves = await twin.autocomplete(alice, "move", "command", command="", channel_id=thread_id)
    assert alice_moves
    assert await twin.autocomplete(bob, "move", "command", command="", channel_id=thread_id) == []
    ix = await table.move(bob, match_id, alice_moves[0]["value"])
    assert_ephemeral(ix)
    assert "It is not your turn" in ix.text
    ix = await twin.click(bob, board, f"m:{match_id}:act")
    assert_ephemeral(ix)
    assert "It is not your turn" in ix.text
    # nothing changed: the board was not edited, no public message was posted
    assert len(twin.message(board["id"])["_versions"]) == versions
    assert len(twin.posts()) == posts_before
    # and Alice can still play
    ix = await table.move(alice, match_id, alice_moves[0]["value"])
    assert "You played" in ix.text and f"`{alice_moves[0]['value']}`" in ix.text
    assert_every_message_within_limits(twin)


async def test_a_429_on_the_board_edit_is_waited_out_and_the_edit_succeeds(table, twin):
    match_id = await table.start("squares", OPTIONS)
    board = table.board_message(match_id)
    edit_path = rf"^/channels/{board['channel_id']}/messages/{board['id']}$"
    rule = twin.rate_limit("PATCH", edit_path, retry_after=1.5)
    versions = len(twin.message(board["id"])["_versions"])
    ix = await table.move(table.alice, match_id, (await twin.autocomplete(
        table.alice, "move", "command", command="", channel_id=board["channel_id"]))[0]["value"])
    assert "You played" in ix.text
    await twin.wait_for(lambda: len(twin.message(board["id"])["_versions"]) > versions, what="the board edit")
    assert len(rule["hits"]) == 1
    edits = twin.calls("PATCH", edit_path)
    assert [e.status for e in edits[-2:]] == [429, 200]
    # discord.py waited retry_after before trying again (the twin's protocol check, not a speed test)
    assert edits[-1].at - edits[-2].at >= 1.5 - 0.05
    assert "Bob" in message_text(twin.message(board["id"]))
    assert twin.refusals == [f"429 PATCH {edits[-1].path}"]
    # a 429 on an interaction follow-up (discord.py's webhook client) is waited out as well
    followups = twin.rate_limit("POST", rf"^/webhooks/{twin.app_id}/[^/]+$", retry_after=0.5)
    ix = await twin.slash(table.bob, "match status", match=match_id, channel_id=board["channel_id"])
    assert_ephemeral(ix)
    assert len(followups["hits"]) == 1 and ix.files == ["board.png"]
    assert_every_message_within_limits(twin)


async def test_the_gateway_dropped_mid_match_resumes_and_the_next_command_works(table, twin):
    match_id = await table.start("squares", OPTIONS)
    thread_id = table.thread_of(match_id)
    first = await twin.autocomplete(table.alice, "move", "command", command="", channel_id=thread_id)
    await table.move(table.alice, match_id, first[0]["value"])
    assert (twin.identifies, twin.resumes) == (1, 0)
    # the connection dies (no close frame): discord.py reconnects to resume_gateway_url and RESUMEs
    await twin.drop_gateway()
    await twin.wait_connected()
    assert (twin.identifies, twin.resumes) == (1, 1)
    assert twin.log[-2:] == ["HELLO", "RESUME"]
    bob_moves = await twin.autocomplete(table.bob, "move", "command", command="", channel_id=thread_id)
    ix = await table.move(table.bob, match_id, bob_moves[0]["value"])
    assert "You played" in ix.text and f"`{bob_moves[0]['value']}`" in ix.text
    # an interaction sent while the socket is down is replayed on RESUME (Discord keeps the events)
    await twin.drop_gateway()
    alice_moves = await twin.autocomplete(table.alice, "move", "command", command="", channel_id=thread_id)
    assert alice_moves and twin.resumes == 2
    # Discord asks for a reconnect (op 7): the bot resumes again
    await twin.request_reconnect()
    await twin.wait_connected()
    assert (twin.identifies, twin.resumes) == (1, 3)
    # the first connection came from GET /gateway/bot, every resume from READY's resume_gateway_url
    assert twin.connect_paths == ["/gateway"] + ["/gateway-resume"] * 3
    assert twin.heartbeats >= 3   # every connection starts with a heartbeat, each ACKed
    ix = await table.move(table.alice, match_id, alice_moves[0]["value"])
    assert "You played" in ix.text and f"`{alice_moves[0]['value']}`" in ix.text
    ix = await twin.slash(table.alice, "match log", match=match_id, channel_id=thread_id)
    assert log_commands(ix.text) == [first[0]["value"], bob_moves[0]["value"], alice_moves[0]["value"]]
    assert_every_message_within_limits(twin)


async def test_the_bot_killed_mid_match_carries_on_after_a_restart_with_old_buttons(table, twin, bot):
    match_id = await table.start("squares", OPTIONS)
    thread_id = table.thread_of(match_id)
    board = table.board_message(match_id)
    played = []
    command, _ = await table.act_by_menu(table.alice, match_id)
    played.append(command)
    bob_moves = await twin.autocomplete(table.bob, "move", "command", command="", channel_id=thread_id)
    ix = await table.move(table.bob, match_id, bob_moves[0]["value"])
    assert "You played" in ix.text
    played.append(bob_moves[0]["value"])
    # Alice opens the Act menu (on the newest board), then the process dies hard before she picks
    await twin.wait_for(lambda: table.board_message(match_id)["id"] != board["id"], what="Bob's move shown")
    board = table.board_message(match_id)
    ix = await twin.click(table.alice, board, f"m:{match_id}:act")
    old_menu = ix.last
    await bot.kill()
    assert bot.proc.returncode == -9
    await bot.start()
    assert twin.identifies == 2 and bot.starts == 2
    assert "1 unfinished matches" in bot.log()
    # the menu opened before the kill still works after the restart …
    ix = await twin.click(table.alice, old_menu, find_component(old_menu, r":c:")["custom_id"],
                          values=[find_component(old_menu, r":c:")["options"][0]["value"]],
                          until=lambda i: "You played" in i.text or find_component(i.last or {}, r":c:"))
    while "You played" not in ix.text:
        select = find_component(ix.last, r":c:")
        ix = await twin.click(table.alice, ix.last, select["custom_id"], values=[select["options"][0]["value"]],
                              until=lambda i: "You played" in i.text or find_component(i.last or {}, r":c:"))
    played.append(re.search(r"You played .*?`([^`]+)`", ix.text).group(1))
    # … the turn passed: the new board, posted by the new process, is the newest message
    await twin.wait_for(lambda: table.board_message(match_id)["id"] != board["id"], what="a new board")
    assert twin.posts(thread_id)[-1] is table.board_message(match_id)
    command, _ = await table.act_by_menu(table.bob, match_id)
    played.append(command)
    alice_moves = await twin.autocomplete(table.alice, "move", "command", command="", channel_id=thread_id)
    await table.move(table.alice, match_id, alice_moves[0]["value"])
    played.append(alice_moves[0]["value"])
    # no command lost: the log is every command played, before and after the kill
    ix = await twin.slash(table.bob, "match log", match=match_id, channel_id=thread_id)
    assert log_commands(ix.text) == played
    assert "To act: Bob" in message_text(twin.message(board["id"])) or "Bob" in message_text(twin.message(board["id"]))
    assert_every_message_within_limits(twin)


async def test_other_commands_stay_within_discords_limits(table, twin):
    """/rules (paged, with its picture), /help, /match status, a wrong /play and a 200-character
    /move: every answer fits."""
    alice = table.alice
    ix = await twin.slash(alice, "rules", game="squares")
    assert ix.replies and ix.replies[-1]["embeds"][0]["title"]
    assert_ephemeral(ix)
    assert twin.picture(ix.last, "start.png").format == "PNG"
    ix = await twin.click(alice, ix.last, "guide:squares:1")
    assert ix.text and "guide:squares:2" in str(ix.last["components"])
    ix = await twin.slash(alice, "help", locale="ja")
    assert_ephemeral(ix)
    assert "/ルール" in ix.text and "/ヘルプ" in ix.text
    match_id = await table.start("squares", OPTIONS)
    thread_id = table.thread_of(match_id)
    ix = await twin.slash(alice, "match status", channel_id=thread_id)
    assert_ephemeral(ix)
    assert twin.picture(ix.last, "board.png").format == "PNG"
    ix = await twin.slash(alice, "play", game="squares", opponent=table.bob, options="nonsense=" + "x" * 180)
    assert_ephemeral(ix)
    assert "⚠️" in ix.text
    ix = await table.move(alice, match_id, "move " + "z" * 195)
    assert_ephemeral(ix)
    assert "⚠️" in ix.text
    ix = await twin.slash(alice, "match resign", channel_id=thread_id)
    assert ix.text
    assert_every_message_within_limits(twin)


async def test_a_japanese_server_open_seat_join_resign_by_button_rematch_and_spectate(table, twin):
    """The other paths a server sees, in Japanese, all through the twin's limits."""
    alice, bob, carol = table.alice, table.bob, table.carol
    admin = str((1 << 5) | int(MEMBER_PERMISSIONS))   # a member with Manage Server
    ix = await twin.slash(alice, "settings language", value="ja", permissions=admin, locale="ja")
    assert_ephemeral(ix)
    # an open seat (no opponent named): Bob joins
    ix = await twin.slash(alice, "play", game="squares", options=OPTIONS, locale="ja")
    assert_ephemeral(ix)
    match_id = int(re.search(r"#(\d+)", ix.text).group(1))
    challenge = await twin.wait_for(lambda: table.board_message(match_id), what="open challenge")
    ix = await twin.click(bob, challenge, f"m:{match_id}:join", locale="ja")
    assert ix.response_type == 6
    board = await twin.wait_for(lambda: find_component(table.board_message(match_id) or {}, r":act$")
                                and table.board_message(match_id), what="board")
    thread_id = board["channel_id"]
    # Carol spectates
    ix = await twin.slash(carol, "match spectate", match=match_id, channel_id=twin.channel["id"])
    assert_ephemeral(ix)
    assert int(carol["id"]) in twin.thread_members.get(int(thread_id), set())
    # Bob resigns with the board's Resign button and its confirmation
    ix = await twin.click(bob, board, f"m:{match_id}:resign", locale="ja")
    assert_ephemeral(ix)
    confirm = find_component(ix.last, r":ok:resign$")
    assert confirm is not None and len(confirm["label"]) <= 80
    ix = await twin.click(bob, ix.last, confirm["custom_id"], locale="ja")
    await twin.wait_for(lambda: components_of(twin.message(board["id"])) == [], what="the finished board")
    # a rematch from the thread, accepted by Alice
    ix = await twin.slash(bob, "match rematch", match=match_id, channel_id=thread_id, locale="ja")
    assert_ephemeral(ix)
    rematch_id = int(re.search(r"#(\d+)", ix.text).group(1))
    assert rematch_id != match_id
    offer = await twin.wait_for(lambda: table.board_message(rematch_id), what="rematch offer")
    ix = await twin.click(alice, offer, f"m:{rematch_id}:accept", locale="ja")
    await twin.wait_for(lambda: find_component(table.board_message(rematch_id) or {}, r":act$"), what="rematch board")
    assert all(len(t["name"]) <= 100 for t in twin.threads())
    assert_every_message_within_limits(twin)


async def test_without_threads_the_match_is_played_in_the_channel_and_a_match_inside_a_thread_stays_there(
        table, twin):
    alice, bob = table.alice, table.bob
    admin = str((1 << 5) | int(MEMBER_PERMISSIONS))
    # only a member with Manage Server may change settings (Discord hides the command from the
    # others by default_member_permissions; the bot checks again)
    ix = await twin.slash(bob, "settings thread", value="off")
    assert_ephemeral(ix)
    assert "Manage Server" in ix.text
    ix = await twin.slash(alice, "settings thread", value="off", permissions=admin)
    assert_ephemeral(ix)
    assert "Saved.\nThreads: off" in ix.text
    ix = await twin.slash(alice, "settings show", permissions=admin)
    assert ix.text == ("Threads: off · Public language: auto (server language)\nAnimated picture at the end: on\n"
                       "Default clock of new matches and events: none (no time limit unless one is chosen)\n"
                       "Weekend pause by default (time banks only): off\n"
                       "Vacation days: 14 per 365 days for each player")
    match_id = await table.start("squares", OPTIONS)
    assert twin.threads() == []
    board = table.board_message(match_id)
    assert board["channel_id"] == twin.channel["id"]
    await table.move(alice, match_id, (await twin.autocomplete(alice, "move", "command", command="",
                                                               channel_id=twin.channel["id"]))[0]["value"])
    await twin.slash(alice, "match resign", match=match_id)
    await twin.wait_for(lambda: components_of(twin.message(board["id"])) == [], what="the finished board")
    # threads on again; a /play inside an existing thread plays right there (threads hold no threads)
    await twin.slash(alice, "settings thread", value="on", permissions=admin)
    second = await table.start("squares", OPTIONS)
    [thread] = twin.threads()
    third, challenge = await table.challenge("squares", OPTIONS, channel_id=thread["id"])
    assert challenge["channel_id"] == thread["id"]
    ix = await twin.click(bob, challenge, f"m:{third}:accept")
    await twin.wait_for(lambda: find_component(table.board_message(third) or {}, r":act$"), what="board")
    assert len(twin.threads()) == 1 and table.thread_of(third) == int(thread["id"])
    assert second != third
    assert_every_message_within_limits(twin)


async def test_a_double_tap_on_a_move_plays_it_once(table, twin):
    alice = table.alice
    match_id = await table.start("squares", OPTIONS)
    thread_id = table.thread_of(match_id)
    ix = await twin.click(alice, table.board_message(match_id), f"m:{match_id}:act")
    menu, select = ix.last, find_component(ix.last, r":c:")
    while not select["options"][0]["value"].startswith("c:"):   # a piece first, then its move
        ix = await twin.click(alice, menu, select["custom_id"], values=[select["options"][0]["value"]])
        menu, select = ix.last, find_component(ix.last, r":c:")
    option = next(o for o in select["options"] if o["value"].startswith("c:"))
    # two picks before the first is answered (a double tap, or a slow connection)
    first = await twin.click(alice, menu, select["custom_id"], values=[option["value"]], settle=False)
    second = await twin.click(alice, menu, select["custom_id"], values=[option["value"]], settle=False)
    await twin.settle(first, until=played_or_refused)
    await twin.settle(second, until=lambda ix: ix.replies)
    played = [m for m in (first.text, second.text) if "You played" in m]
    assert len(played) == 1, (first.text, second.text)
    ix = await twin.slash(alice, "match log", match=match_id, channel_id=thread_id)
    assert len(log_commands(ix.text)) == 1
    assert_every_message_within_limits(twin)


async def test_a_declined_challenge_and_an_aborted_match_end_without_a_result(table, twin):
    """Decline by the challenge's button; abort by both players' /match abort votes (the first
    vote pings the other), or by a moderator alone.  No thread for a declined challenge, no
    buttons left, nothing recorded."""
    alice, bob, carol = table.alice, table.bob, table.carol
    match_id, challenge = await table.challenge("squares", OPTIONS)
    ix = await twin.click(carol, challenge, f"m:{match_id}:decline")
    assert ix.ephemeral and "⚠️" in ix.text
    ix = await twin.click(bob, challenge, f"m:{match_id}:decline")
    assert ix.response_type == 6
    await twin.wait_for(lambda: components_of(twin.message(challenge["id"])) == [], what="the declined challenge")
    assert "declined" in message_text(twin.message(challenge["id"]))
    assert twin.threads() == []
    # an active match: Alice votes to abort, Bob is pinged, Bob's vote ends it
    second = await table.start("squares", OPTIONS)
    board = table.board_message(second)
    thread_id = board["channel_id"]
    ix = await twin.slash(alice, "match abort", match=second, channel_id=thread_id)
    assert_ephemeral(ix)
    vote = await twin.wait_for(lambda: [p for p in twin.posts(thread_id) if f"<@{bob['id']}>" in message_text(p)],
                               what="the abort vote in the thread")
    assert [str(u) for u in vote[-1]["_allowed_mentions"]["users"]] == [bob["id"]]
    assert find_component(table.board_message(second), r":act$")
    await twin.slash(bob, "match abort", match=second, channel_id=thread_id)
    await twin.wait_for(lambda: table.board_message(second) is None, what="the aborted board")
    assert "aborted" in message_text(table.latest_board(second))
    assert twin.posts(thread_id)[-1] is table.latest_board(second)
    # a moderator (Manage Messages) who is not playing aborts alone
    third = await table.start("squares", OPTIONS)
    third_board = table.board_message(third)
    moderator = str((1 << 13) | int(MEMBER_PERMISSIONS))
    ix = await twin.slash(carol, "match abort", match=third, channel_id=third_board["channel_id"],
                          permissions=moderator)
    await twin.wait_for(lambda: table.board_message(third) is None, what="the moderator's abort")
    assert "A moderator aborted the match" in "\n".join(message_text(p) for p in twin.posts(third_board["channel_id"]))
    ix = await twin.slash(alice, "history")
    assert "No finished matches" in ix.text
    assert_every_message_within_limits(twin)


async def test_an_interaction_replayed_after_a_slow_resume_is_too_late_and_is_logged_once_at_info(table, twin):
    """Issue 15, finding 6: Discord counts an interaction's 3 s from its creation. One made
    while the gateway is down and replayed by a RESUME that took longer cannot be answered any
    more (10062); the bot logs that once at INFO — never as an error — and the next command works."""
    match_id = await table.start("squares", OPTIONS)
    thread_id = table.thread_of(match_id)
    twin.resume_delay = 3.5
    await twin.drop_gateway()
    ix = await twin.slash(table.alice, "match status", channel_id=thread_id, settle=False)
    await twin.wait_connected()
    twin.resume_delay = 0.0
    await twin.wait_for(lambda: any("10062" in v for v in twin.violations), what="the late answer refused")
    late = [v for v in twin.violations if "10062" in v]
    assert len(late) == 1 and "answered after" in late[0], late
    twin.violations.remove(late[0])            # Discord's doing, not the bot's
    assert ix.response_type is None            # Alice saw "This interaction failed" — nothing more
    await twin.settle(quiet=0.5)
    logged = [line for line in table.bot.log().splitlines() if "expired before it was answered" in line]
    assert len(logged) == 1 and " INFO " in logged[0], logged
    assert not table.bot.errors(), table.bot.errors()
    # the next command works
    moves = await twin.autocomplete(table.alice, "move", "command", command="", channel_id=thread_id)
    ix = await table.move(table.alice, match_id, moves[0]["value"])
    assert "You played" in ix.text


async def test_with_discords_rate_limits_a_fast_match_gets_no_429(table, twin):
    """Issue 15, finding 5: with Discord's own limits (a channel's messages: 5 per 5 s; 50
    calls per second globally) and their X-RateLimit headers, a match played as fast as two
    players can type never makes Discord answer 429: the bot (discord.py) waits out a spent
    bucket before asking, and a board update behind a slow one is coalesced, not queued."""
    twin.discord_rate_limits()
    match_id = await table.start("squares", OPTIONS)
    thread_id = table.thread_of(match_id)
    users = {"Alice": table.alice, "Bob": table.bob}
    played = 0
    for _ in range(12):
        moved = False
        for user in users.values():
            moves = await twin.autocomplete(user, "move", "command", command="", channel_id=thread_id)
            if moves:
                ix = await table.move(user, match_id, moves[0]["value"])
                assert "You played" in ix.text, ix.text
                played += 1
                moved = True
                break
        if not moved:
            break
    assert played >= 8
    await twin.settle(quiet=1.0)
    assert [r for r in twin.requests if r.status == 429] == []
    # the limit was really reached (5 posts in one of Discord's windows) and waited out, never
    # overrun.  Discord's windows are fixed — one opens with the first post after the last one
    # closed — so they are counted that way (a sliding 5 s may hold more than 5, rightly).
    posts = [r.at for r in twin.requests if r.method == "POST" and r.path == f"/channels/{thread_id}/messages"]
    windows: list[list[float]] = []
    for t in posts:
        if not windows or t - windows[-1][0] >= 5.0:
            windows.append([])
        windows[-1].append(t)
    busiest = max(len(w) for w in windows)
    assert busiest == 5, busiest
    # (a match that ended gets its animated picture joined to its final board, never after it)
    newest = twin.posts(thread_id)
    assert newest[-1] is table.latest_board(match_id), "the newest message is the board"
    assert_every_message_within_limits(twin)
