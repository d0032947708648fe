"""One full match of every registered game, end to end: the real bot process against the twin,
driven only by what a user has — the board's Act button and ``/move`` with its autocomplete —
choosing random legal commands until the match ends.  A new game in ``rules/`` is picked up here
with no change (give it quick options in ``QUICK_OPTIONS`` if its matches are long)."""
from __future__ import annotations

import os
import random
import re

import pytest

from .checks import assert_every_message_within_limits
from .twin import find_component, message_text

# aiohttp's own multipart reader (the twin reading uploads) uses a deprecated call internally
pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")

# Options that keep a random match short (a game not listed uses its defaults).
QUICK_OPTIONS = {"squares": "max_turns=16", "logic_square": "max_turns=10", "maken": "max_turns=10",
                 "avalon": "max_rounds=5"}
# A match that has not ended after this many commands is resigned, so every test reaches a result
# in well under a minute.  E2E_MAX_COMMANDS=400 plays random matches to their natural end
# (40–100 commands for the card games: about a second each).
MAX_COMMANDS = int(os.environ.get("E2E_MAX_COMMANDS", "24"))


def registered_games() -> list[str]:
    try:
        from rules import registry
    except Exception as exc:   # a game being written right now may not import yet
        return [pytest.param("?", marks=pytest.mark.skip(reason=f"rules do not import: {exc}"))]
    test_only = {"hidden_duel", "secret_duel", "window_test"}
    return [n for n in registry.names() if n not in test_only]


@pytest.mark.parametrize("game", registered_games())
async def test_one_full_match_of_every_game_by_random_legal_commands(game, table, twin):
    from rules import registry

    engine = registry.get(game)
    users = [table.alice, table.bob, table.carol][:max(2, engine.min_players)]
    if len(users) < engine.min_players:
        pytest.skip(f"{game} needs {engine.min_players} players")
    extra = {f"opponent{i + 1}": u for i, u in enumerate(users[2:], start=1)}
    match_id = await table.start(game, QUICK_OPTIONS.get(game), **extra)
    board_id = table.board_message(match_id)["id"]
    thread_id = table.thread_of(match_id)
    rng = random.Random(f"{game}-e2e")
    played = 0
    while find_component(twin.message(board_id), rf"^m:{match_id}:act$") is not None:
        if played >= MAX_COMMANDS:
            ix = await twin.slash(users[0], "match resign", match=match_id, channel_id=thread_id)
            assert "⚠️" not in ix.text, ix.text
            break
        actor = None
        for user in users:
            choices = await twin.autocomplete(user, "move", "command", command="", match=match_id,
                                              channel_id=thread_id)
            if choices:
                actor = user
                break
        if actor is None:   # the last command ended the match: its board edit may still be on the way
            await twin.wait_for(lambda: twin.message(board_id)["components"] == [],
                                what=f"someone to act in {game} #{match_id}, or its result")
            break
        if played % 3 == 2:
            command, ix = await table.act_by_menu(actor, match_id, pick=rng.choice)
        else:
            command = rng.choice(choices)["value"]
            ix = await twin.slash(actor, "move", command=command, match=match_id, channel_id=thread_id)
        assert f"You played `{command}`" in ix.text, ix.text
        played += 1
    await twin.wait_for(lambda: twin.message(board_id)["components"] == [], what="the board without buttons")
    print(f"{game}: {played} commands; {message_text(twin.message(board_id)).splitlines()[1:2]}")
    # private views went by DM to seated players only (and never to anyone else)
    seated = {int(u["id"]) for u in users}
    for cid, ch in twin.channels.items():
        if ch["type"] == 1 and twin.dms(int(ch["recipients"][0]["id"])):
            assert int(ch["recipients"][0]["id"]) in seated
    assert re.search(r"won|Draw|resign", message_text(twin.message(board_id))), message_text(twin.message(board_id))
    assert twin.picture(twin.message(board_id)).format == "PNG"
    assert_every_message_within_limits(twin)


def games_with_private_views() -> list[str]:
    """Registered games whose players see something the public does not (hands, decks …)."""
    out = []
    try:
        from rules import registry

        for name in registered_games():
            engine = registry.get(name)
            state = engine.new_match(engine.min_players, 1, {})
            public = {k: v for k, v in engine.view(state, None).items() if k != "seat"}
            if any({k: v for k, v in engine.view(state, s).items() if k != "seat"} != public
                   for s in range(engine.min_players)):
                out.append(name)
    except Exception as exc:
        return [pytest.param("?", marks=pytest.mark.skip(reason=f"rules do not import: {exc}"))]
    return out or [pytest.param("?", marks=pytest.mark.skip(reason="no registered game has private views"))]


@pytest.mark.parametrize("game", games_with_private_views())
async def test_closed_dms_get_a_thread_notice_without_secrets_and_match_hand_works_in_every_card_game(
        game, table, twin):
    alice, bob = table.alice, table.bob
    twin.closed_dms.add(int(alice["id"]))
    match_id = await table.start(game, QUICK_OPTIONS.get(game))
    thread_id = table.thread_of(match_id)
    # Bob's private view came by DM, with its picture; Alice's DM was refused (403/50007) …
    await twin.wait_for(lambda: twin.dms(int(bob["id"])), what="Bob's DM")
    [bob_dm] = twin.dms(int(bob["id"]))
    assert "your private view" in message_text(bob_dm)
    bob_picture = twin.picture(bob_dm, "hand.png")
    assert twin.dms(int(alice["id"])) == [] and any("50007" in r for r in twin.refusals)
    # … so the thread tells her, once, without any secret: no embed, no picture, just the way
    notices = [m for m in twin.posts(thread_id) if "/match hand" in m["content"]]
    assert len(notices) == 1
    notice = notices[0]
    assert not notice["embeds"] and not notice["attachments"]
    assert re.sub(r"<@\d+>", "", notice["content"]).strip().startswith(":")
    # /match hand: her own view, only to her, not the public picture and not Bob's
    ix = await twin.slash(alice, "match hand", channel_id=thread_id)
    assert ix.ephemeral and ix.files == ["hand.png"] and "your private view" in ix.text
    alice_picture = twin.picture(ix.last, "hand.png")
    board_picture = twin.picture(table.board_message(match_id), "board.png")
    assert alice_picture.tobytes() != board_picture.tobytes()
    assert alice_picture.tobytes() != bob_picture.tobytes()
    # a stranger has no hand here
    ix = await twin.slash(table.carol, "match hand", match=match_id, channel_id=thread_id)
    assert ix.ephemeral and "not playing in this match" in ix.text
    assert_every_message_within_limits(twin)
