"""Issue 33, "Taps per turn, not just per move", through the Discord twin: Battle Logic Square's
end-of-turn discards are ONE multi-select ("Pick the 2 cards to put in the trash"), played by
the host as one batch — one log entry, one line in the thread — and the menu of a move offers
the next move of the same turn in the same message."""
from __future__ import annotations

import pytest

from .checks import match_states
from .twin import components_of, find_component, message_text

pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")


async def _steer(table, twin, bot, match_id, thread_id):
    """Play by /move towards an end phase with cards to put in the trash: a CAA of 3 (draw 6),
    then end the turn; an answer window is passed.  Returns the player who must discard."""
    from rules import registry

    game = registry.get("logic_square")
    users = {0: None, 1: None}
    for _ in range(60):
        rec, states = await match_states(bot.db, match_id)
        state = states[-1]
        seat = game.to_act(state)[0]
        user = table.alice if int(rec.seats[seat]) == int(table.alice["id"]) else table.bob
        users[seat] = user
        if state.phase == "discard" and len(state.hand[seat]) >= 7:
            return user, state, seat
        legal = game.legal_commands(state, seat)
        caa = [c for c in legal if c.startswith("caa ") and len(c.split()) == 4]
        cmd = "pass" if "pass" in legal else caa[0] if caa else "end" if "end" in legal else legal[0]
        ix = await twin.slash(user, "move", command=cmd, match=match_id, channel_id=thread_id)
        assert "⚠️" not in ix.text, ix.text
    raise AssertionError("no end-phase discard reached")


async def test_end_of_turn_discards_are_one_multi_select_and_one_board_update(table, twin, bot):
    match_id = await table.start("logic_square")
    thread_id = table.thread_of(match_id)
    user, state, seat = await _steer(table, twin, bot, match_id, thread_id)
    excess = len(state.hand[seat]) - 5
    rec, states = await match_states(bot.db, match_id)
    n_before = len(states)
    board = table.board_message(match_id)
    ix = await twin.click(user, board, f"m:{match_id}:act")
    # every move is a discard: the menu is the multi-select alone, with exactly that many picks
    selects = [c for c in components_of(ix.last) if c.get("type") == 3]
    assert len(selects) == 1 and ":b:" in selects[0]["custom_id"], message_text(ix.last)
    select = selects[0]
    assert select["min_values"] == select["max_values"] == excess
    assert f"Pick the {excess} cards to put in the trash" in select["placeholder"]
    assert all(o["label"].startswith("Discard ") for o in select["options"])
    posts_before = len(twin.posts(thread_id))
    values = [o["value"] for o in select["options"][:excess]]
    ix = await twin.click(user, ix.last, select["custom_id"], values=values,
                          until=lambda i: "You played" in i.text or "⚠️" in i.text)
    assert "You played" in ix.text, ix.text
    await twin.settle(quiet=0.5)
    rec, states = await match_states(bot.db, match_id)
    assert len(states) == n_before + 1                  # one entry of the log
    assert len(states[-1].hand[seat]) == 5 and states[-1].player != seat
    # one board update: the new lines say every discard in one line, under one board
    new = twin.posts(thread_id)[posts_before:]
    said = [message_text(m) for m in new] + [message_text(table.board_message(match_id) or {})]
    line = next(t for t in said if t.count("Discard") == excess)
    assert line
    assert find_component(table.board_message(match_id) or {}, rf"^m:{match_id}:act$") is not None
    assert not twin.violations, twin.violations


async def test_the_menu_of_a_move_offers_the_next_move_of_the_same_turn(table, twin, bot):
    match_id = await table.start("logic_square")
    board = table.board_message(match_id)
    rec, states = await match_states(bot.db, match_id)
    from rules import registry

    seat = registry.get("logic_square").to_act(states[-1])[0]
    user = table.alice if int(rec.seats[seat]) == int(table.alice["id"]) else table.bob
    ix = await twin.click(user, board, f"m:{match_id}:act")
    select = find_component(ix.last, r":c:")
    # a long menu is grouped ("Move <AVI>" then one option per square): open the group first
    move = next(o for o in select["options"] if o["value"][:2] in ("c:", "g:") and "Move" in o["label"])
    if move["value"].startswith("g:"):
        ix = await twin.click(user, ix.last, select["custom_id"], values=[move["value"]])
        select = find_component(ix.last, r":c:")
        move = next(o for o in select["options"] if o["value"].startswith("c:") and "Move" in o["label"])
    ix = await twin.click(user, ix.last, select["custom_id"], values=[move["value"]],
                          until=lambda i: "You played" in i.text or "⚠️" in i.text)
    assert "You played" in ix.text
    assert ix.ephemeral and find_component(ix.last, r":c:") is not None, message_text(ix.last)
