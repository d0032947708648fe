"""End-to-end (issue 33, "DMs"): nothing a player received keeps a live button once what it asks
is over.  A secret decision's prompt DM is retired (edited once, without Act) when it is answered
and when its window closes; the deck picker says the deck chosen, without its select; Act in a
DM when no decision is the player's shows their status and hand; a finished match's DM says it
is over, without Act; a challenge accepted after it aged is not left with a live Accept."""
from __future__ import annotations

import re

import pytest

from .checks import assert_every_message_within_limits
from .conftest import TEST_PLUGINS
from .hidden_rules import NAME as HIDDEN
from .harness import board_title
from .twin import components_of, find_component, message_text
from .twin_v2 import is_v2, pictures_of

pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")

CLOCK_LOOP = 1     # seconds between the bot's clock-loop runs (BOT_TEST_CLOCK_LOOP)


@pytest.fixture
def bot_plugins() -> str:
    return f"{TEST_PLUGINS},tests.e2e.hidden_game,tests.e2e.window_game"


@pytest.fixture
def bot_env() -> dict:
    """conftest's bot, with a fast clock loop."""
    return {"BOT_TEST_CLOCK_LOOP": str(CLOCK_LOOP)}


def prompts(twin, user: dict) -> list[dict]:
    """The prompt DMs (a layout of words and Act, without the title the private view has)."""
    return [m for m in twin.dms(int(user["id"])) if not board_title(m["_versions"][0])
            and not m["flags"] & 64 and m["_via"] == "channel"]


async def test_a_prompt_dm_is_retired_when_answered_and_when_its_window_closes(table, twin):
    alice, bob = table.alice, table.bob
    match_id = await table.start("window_test")
    thread_id = table.thread_of(match_id)
    # Alice's "go" opens Bob's secret window: a DM asks him, with Act
    await table.move(alice, match_id, "go")
    [prompt] = await twin.wait_for(lambda: prompts(twin, bob), what="Bob's prompt DM")
    assert find_component(prompt, rf"^m:{match_id}:act$"), message_text(prompt)
    # Bob answers from that DM: the prompt is edited once, without its button
    command, _ = await table.act_by_menu(bob, match_id, pick=lambda options: next(
        o for o in options if o["label"] == "pass"), message=prompt)
    assert command == "pass"
    await twin.wait_for(lambda: not components_of(twin.message(prompt["id"])), what="the answered prompt retired")
    answered = twin.message(prompt["id"])
    assert "you answered this decision" in message_text(answered), message_text(answered)
    assert "Your choices" not in message_text(answered)
    # the next window: nobody answers; when it closes (5 minutes) the prompt is retired too
    await table.move(alice, match_id, "go")
    second = await twin.wait_for(lambda: [m for m in prompts(twin, bob) if m["id"] != prompt["id"]],
                                 what="Bob's second prompt DM")
    assert len(second) == 1 and find_component(second[0], rf"^m:{match_id}:act$")
    await twin.advance(6 * 60)
    await twin.wait_for(lambda: not components_of(twin.message(second[0]["id"])), timeout=CLOCK_LOOP + 15,
                        what="the timed-out prompt retired")
    closed = twin.message(second[0]["id"])
    assert "this decision is closed" in message_text(closed), message_text(closed)
    assert len(closed["_versions"]) == 2, "a prompt is edited once"
    await twin.settle(quiet=0.5)
    assert len(prompts(twin, bob)) == 2, "a decision is asked once"
    assert table.thread_of(match_id) == thread_id
    assert_every_message_within_limits(twin)


async def test_act_in_a_dm_between_turns_shows_status_and_hand_and_a_finished_dm_has_no_act(table, twin):
    alice, bob = table.alice, table.bob
    match_id = await table.start(HIDDEN)
    bob_dm = await twin.wait_for(lambda: twin.dms(int(bob["id"])), what="Bob's DM")
    bob_dm = bob_dm[0]
    # it is Alice's turn: Bob's Act answers with the status and his own hand, to him only
    ix = await twin.click(bob, bob_dm, f"m:{match_id}:act")
    assert ix.ephemeral, ix.text
    assert "It is not your turn" in ix.text and "Alice" in ix.text, ix.text
    assert ix.files == ["hand.png"] and "your private view" in ix.text, (ix.files, ix.text)
    assert find_component(ix.last, r":c:") is None, "no move menu when nothing is Bob's"
    # play the match out (3 gems each): the finished DM says so, without Act
    for _ in range(6):
        user = await table.to_act(match_id)
        if user is None:
            break
        await table.act_by_menu(user, match_id)
    await twin.wait_for(lambda: table.board_message(match_id) is None, what="the result", timeout=30)
    for user in (alice, bob):
        [dm] = [m for m in twin.dms(int(user["id"])) if m.get("attachments") and m["_via"] == "channel"]
        await twin.wait_for(lambda: not components_of(twin.message(dm["id"])), what="the DM without Act")
        text = message_text(twin.message(dm["id"]))
        assert "press Act" not in text and "The match is over. " in text, text
        assert re.search(r"won|Draw", text.split("The match is over. ")[1]), text
    assert_every_message_within_limits(twin)


async def test_the_deck_picker_says_the_deck_chosen_and_loses_its_select(table, twin):
    match_id, challenge = await table.challenge("maken", "first=1 max_turns=10")
    ix = await twin.click(table.bob, challenge, f"m:{match_id}:accept")
    picker = find_component(ix.last, r":deck:accept$")
    assert ix.ephemeral and picker is not None
    message = ix.last
    ix = await table.pick_deck(table.bob, ix)
    retired = twin.message(message["id"])
    assert not components_of(retired), "the picker keeps its select after the pick"
    assert retired["content"].startswith("You play with "), retired["content"]
    assert_every_message_within_limits(twin)


async def test_a_challenge_accepted_after_it_aged_keeps_no_live_accept(table, twin):
    match_id, challenge = await table.challenge("squares")
    await twin.advance(2 * 3600)
    ix = await twin.click(table.bob, challenge, f"m:{match_id}:accept")
    assert ix.response_type == 6, ix.text
    await twin.wait_for(lambda: find_component(table.board_message(match_id) or {}, r":act$"), what="the board")
    await twin.settle(quiet=0.5)
    live = [m for m in twin.posts() if find_component(m, rf"^m:{match_id}:(accept|decline)$")]
    assert live == [], "the aged challenge still has Accept"
    channel = int(challenge["channel_id"])
    pointer = [m for m in twin.posts(channel) if "This match is being played in" in message_text(m)]
    assert len(pointer) == 1 and f"<#{table.thread_of(match_id)}>" in message_text(pointer[0])
    assert not [r for r in twin.refusals if "30046" in r or r.startswith("429")], twin.refusals
    assert_every_message_within_limits(twin)


async def test_a_retired_board_drops_its_ping_line(table, twin):
    match_id = await table.start("squares", "max_turns=16")
    thread_id = table.thread_of(match_id)
    for _ in range(3):
        user = await table.to_act(match_id)
        await table.act_by_menu(user, match_id)
    await twin.settle(quiet=0.5)
    boards = [m for m in twin.posts(thread_id) if board_title(m["_versions"][0])]
    assert len(boards) >= 3
    for old in boards[:-1]:
        assert "<@" not in message_text(old) and not components_of(old), message_text(old)
        assert message_text(old).strip(), "a retired board keeps its words"
        assert is_v2(old) and not old["attachments"] and not pictures_of(old), "its picture goes"
    assert "your turn" in message_text(boards[-1])
    assert_every_message_within_limits(twin)


async def test_the_result_is_said_once_on_the_final_board(table, twin):
    alice = table.alice
    match_id = await table.start("squares", "max_turns=16")
    thread_id = table.thread_of(match_id)
    await table.act_by_menu(await table.to_act(match_id), match_id)
    await twin.slash(alice, "match resign", match=match_id, channel_id=thread_id)
    final = await twin.wait_for(lambda: (b := table.latest_board(match_id)) and not components_of(b) and b,
                                what="the final board")
    text = message_text(final)
    result = re.search(r"\*\*([^*]*(won|Draw)[^*]*)\*\*", text)
    assert result, text
    assert text.count(result.group(1)) == 1, text
    assert_every_message_within_limits(twin)


async def test_a_practice_board_says_the_computer_is_thinking_and_never_pings_the_bot(table, twin):
    ix = await twin.slash(table.alice, "practice", game="squares", level="easy")
    match_id = int(re.search(r"#(\d+)", ix.text).group(1))
    await twin.wait_for(lambda: table.board_message(match_id), what="the practice board")
    thread = table.thread_of(match_id)
    for _ in range(100):        # Alice's turn (the computer may move first)
        choices = await twin.autocomplete(table.alice, "move", "command", command="", match=match_id,
                                          channel_id=thread)
        if choices:
            break
        await twin.settle(quiet=0.2)
    await twin.slash(table.alice, "move", command=choices[0]["value"], match=match_id, channel_id=thread)
    await twin.wait_for(lambda: any("Computer (easy) is thinking…" in message_text(v)
                                    for m in twin.posts(thread) for v in m["_versions"]),
                        what="the board saying the computer is thinking")
    me = twin.bot_user["id"]
    # (the players' list names the computer's seat by its mention, a name that pings nobody)
    pinged = [message_text(m) for m in twin.messages.values()
              if me in [str(u) for u in (m.get("_allowed_mentions") or {}).get("users") or []]]
    called = [message_text(v) for m in twin.messages.values() for v in m["_versions"]
              if f"<@{me}>: your turn" in message_text(v)]
    assert pinged == [] and called == [], (pinged, called)
    await twin.slash(table.alice, "match abort", match=match_id, channel_id=thread)
    assert_every_message_within_limits(twin)
