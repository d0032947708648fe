"""One full match of every registered game, end to end: the real bot process against the twin,
driven only by what a user has — the board's Act button and ``/move`` with its autocomplete —
choosing random legal commands until the match ends.  A new game in ``rules/`` is picked up here
with no change (give it quick options in ``QUICK_OPTIONS`` if its matches are long)."""
from __future__ import annotations

import io
import os
import random
import re

import pytest

from data.store import FINISHED

from .checks import assert_every_message_within_limits, match_states, private_lines
from .twin import message_text

# aiohttp's own multipart reader (the twin reading uploads) uses a deprecated call internally
pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")

# Options that keep a random match short (a game not listed uses its defaults).
QUICK_OPTIONS = {"squares": "max_turns=16", "logic_square": "max_turns=10", "maken": "max_turns=10",
                 "avalon": "max_rounds=5"}
# Random legal commands end every game's match by its own rules well within this many
# commands (16–110 with the options above); only a match that has not ended by then is resigned.
MAX_COMMANDS = int(os.environ.get("E2E_MAX_COMMANDS", "400"))
# Every this many commands the Act menu (button → selects → confirm) is used instead of /move.
MENU_EVERY = 12


def registered_games() -> list[str]:
    try:
        from rules import registry
    except Exception as exc:   # a game being written right now may not import yet
        return [pytest.param("?", marks=pytest.mark.skip(reason=f"rules do not import: {exc}"))]
    test_only = {"hidden_duel", "secret_duel", "window_test"}
    return [n for n in registry.names() if n not in test_only]


def render_pixels(game: str, view: dict, names: list[str]) -> bytes:
    """What the bot must draw for ``view`` (the host's own call: no clock, English; a seat's
    view is its hand picture, as its DM shows it)."""
    from PIL import Image

    from render import render_png

    part = "hand" if isinstance(view.get("seat"), int) else "full"
    return Image.open(io.BytesIO(render_png(game, view, locale="en", names=names, clock=None,
                                            part=part))).convert("RGB").tobytes()


@pytest.mark.parametrize("game", registered_games())
async def test_one_full_match_of_every_game_by_random_legal_commands(game, table, twin, bot):
    """/play, Accept (a deck picked for card games), then random legal commands — by /move and
    now and then by the Act menu — until the match ends by the game's own rules.  Then: the
    board shows the result and the public view's picture; each player's DM shows exactly their
    own view (its picture is the engine's view for that seat); no line only one player may
    read was ever in a public message or in another player's DM."""
    from rules import registry

    engine = registry.get(game)
    users = [table.alice, table.bob, table.carol][:max(2, engine.min_players)]
    extra = {f"opponent{i + 1}": u for i, u in enumerate(users[2:], start=1)}
    match_id = await table.start(game, QUICK_OPTIONS.get(game), **extra)
    thread_id = table.thread_of(match_id)
    rng = random.Random(f"{game}-e2e")
    played = 0
    resigned = False
    while table.board_message(match_id) is not None:
        if played >= MAX_COMMANDS:
            ix = await twin.slash(users[0], "match resign", match=match_id, channel_id=thread_id)
            assert "⚠️" not in ix.text, ix.text
            resigned = True
            break
        actor = None
        for user in users:
            choices = await twin.autocomplete(user, "move", "command", command="", match=match_id,
                                              channel_id=thread_id)
            if choices:
                actor = user
                break
        if actor is None:   # the last command ended the match: its board may still be on the way
            await twin.wait_for(lambda: table.board_message(match_id) is None,
                                what=f"someone to act in {game} #{match_id}, or its result")
            break
        if played % MENU_EVERY == 1:
            command, ix = await table.act_by_menu(actor, match_id, pick=rng.choice)
        else:
            command = rng.choice(choices)["value"]
            ix = await twin.slash(actor, "move", command=command, match=match_id, channel_id=thread_id, quiet=0)
        assert "You played" in ix.text and f"`{command}`" in ix.text, ix.text
        played += 1
        # issue 14: after every move the board with its controls is the thread's newest message
        await twin.wait_for(lambda: twin.posts(thread_id)[-1] is table.latest_board(match_id),
                            what="the board as the newest message")
    await twin.wait_for(lambda: table.board_message(match_id) is None, what="the board without buttons",
                        timeout=60)
    board = table.latest_board(match_id)
    assert twin.posts(thread_id)[-1] is board, "the final board is the newest message"
    board_text = message_text(board)
    print(f"{game}: {played} commands{' (resigned)' if resigned else ''}; {board_text.splitlines()[1:2]}")
    assert re.search(r"won|Draw|resign", board_text), board_text
    assert played >= 2

    rec, states = await match_states(bot.db, match_id)
    assert rec.status == FINISHED and len(states) == played + 1
    # the stored result is the engine's outcome, with what the result line names beyond it
    # (``outcome_detail``: lives at the turn limit, how a KING fell…)
    stored = {k: v for k, v in (rec.result or {}).items() if k != "detail"}
    assert resigned or engine.outcome(states[-1]) == stored, (rec.result, engine.outcome(states[-1]))
    names = list(rec.names)
    final = states[-1] if not resigned else None
    # the board's last picture is the public view of the final position
    if final is not None:
        from host.replay import _with_said   # the host adds the last move in words ("said")

        assert pixels(twin.picture(board, "board.png")) == render_pixels(
            game, _with_said(rec, engine.view(final, None)), names)
    # private views went by DM to seated players only; each player's last DM is their own view
    seated = [int(u["id"]) for u in users]
    for ch in twin.channels.values():
        if ch["type"] == 1 and twin.dms(int(ch["recipients"][0]["id"])):
            assert int(ch["recipients"][0]["id"]) in seated
    has_private = any(_strip_seat(engine.view(states[0], s)) != _strip_seat(engine.view(states[0], None))
                      for s in range(len(users)))
    if not has_private:
        assert twin.all_dms() == [], "a game without private views sent DMs"
    elif final is not None:
        for seat, uid in enumerate(seated):
            want = render_pixels(game, engine.view(final, seat), names)
            await twin.wait_for(lambda: pixels(twin.picture(view_dm(twin, uid), "hand.png")) == want,
                                what=f"seat {seat}'s DM to show their own final view", timeout=30)
    # secrecy: what only one seat may read (at any point of the match) is in no public message,
    # and what only one seat may read now is in no other seat's DM
    secrets = [set() for _ in users]
    for state in states:
        for seat, lines in enumerate(private_lines(game, state, names)):
            secrets[seat] |= lines
    public = "\n".join(message_text(m) for m in twin.public_messages())
    for seat, lines in enumerate(secrets):
        leaked = [line for line in lines if line in public]
        assert not leaked, f"seat {seat}'s private lines in a public message: {leaked[:3]}"
    # (the text a DM carries is checked by test_each_players_dm_text_is_their_own_view_…)
    assert_every_message_within_limits(twin)


def view_dm(twin, user_id: int) -> dict:
    """The DM that carries a player's private view (edited in place all match long)."""
    found = [m for m in twin.dms(user_id) if any(a["filename"] == "hand.png" for a in m.get("attachments", []))]
    assert len(found) == 1, f"{len(found)} private-view DMs to {user_id}"
    return found[0]


def pixels(img) -> bytes:
    return img.convert("RGB").tobytes()


def _strip_seat(view: dict) -> dict:
    return {k: v for k, v in view.items() if k != "seat"}


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


@pytest.mark.parametrize("game", games_with_private_views())
async def test_each_players_dm_text_is_their_own_view_and_nobody_elses(game, table, twin, bot):
    """A DM's text (the private view as text, for readers who cannot see the picture) says only
    what is true of its reader's own view — every line of it is a line of the engine's view for
    that seat — and no line that only another player may read."""
    from render.text import render_text
    from rules import registry

    from .checks import dm_text_block

    engine = registry.get(game)
    users = [table.alice, table.bob]
    match_id = await table.start(game, QUICK_OPTIONS.get(game))
    thread_id = table.thread_of(match_id)
    rng = random.Random(f"{game}-dm")
    for _ in range(6):
        for user in users:
            choices = await twin.autocomplete(user, "move", "command", command="", match=match_id,
                                              channel_id=thread_id)
            if choices:
                ix = await twin.slash(user, "move", command=rng.choice(choices)["value"], match=match_id,
                                      channel_id=thread_id, quiet=0)
                assert "You played" in ix.text, ix.text
                break
    rec, states = await match_states(bot.db, match_id)
    final, names = states[-1], list(rec.names)
    # The moves came without waiting for their updates, so some may still be on their way (one
    # slow update, e.g. behind a rate limit, and the next ones queue up behind it, coalesced).
    # Watching a DM until it looks final is no barrier: a hand can look the same at an earlier
    # position (Art of War: "S W", then "S P W", then "S W" again), and a DM that already looked
    # final was then edited to the in-between hand.  Wait until the bot has shown this version —
    # its board and every DM sent; nothing older can come after it — then the DMs must be final.
    await twin.wait_for(lambda: bot.shown(match_id) >= rec.version,
                        what=f"the bot to show version {rec.version} of match #{match_id}", timeout=30)
    only = private_lines(game, final, names)
    problems = []
    for seat, user in enumerate(users):
        assert pixels(twin.picture(view_dm(twin, int(user["id"])), "hand.png")) == render_pixels(
            game, engine.view(final, seat), names), f"seat {seat}'s DM picture is not their final view"
        block = dm_text_block(view_dm(twin, int(user["id"])))
        assert block, "the DM carries no text view"
        true = {line.strip() for line in render_text(game, engine.view(final, seat), locale="en",
                                                     names=names).splitlines()}
        lines = block.splitlines()
        if lines and lines[-1].endswith("…"):   # a text view clipped to fit the embed
            lines.pop()
        problems += [f"seat {seat} reads {line.strip()!r}, not in their view" for line in lines
                     if line.strip() and line.strip() not in true]
        read = {line.strip() for line in lines}   # whole lines: "Your hand: K P" is not "Your hand: K P S"
        problems += [f"seat {seat} reads seat {other}'s {line!r}" for other in range(len(users)) if other != seat
                     for line in only[other] if line in read]
    assert not problems, "\n".join(problems[:12])
