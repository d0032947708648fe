"""Two taps to move in SQUARES: its opening offers 100 moves (20 pieces, 5 squares each), laid out
on four selects of whole pieces in the Act menu, so Act and one pick play any of them — the last
select's too — and a takeback's Accept / Decline still fit under them.  The real ``bot.py``
against the twin (which refuses a menu breaking Discord's limits: 5 rows, 25 options, a select
alone in its row)."""
from __future__ import annotations

import re

import pytest

from .twin import components_of, find_component, message_text

pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")


def _move_selects(message: dict, match_id: int) -> list[dict]:
    return [c for c in components_of(message) if c.get("type") == 3
            and re.match(rf"^m:{match_id}:c:", c.get("custom_id") or "")]


async def test_the_opening_is_act_and_one_pick_from_any_of_four_selects(table, twin, bot):
    match_id = await table.start("squares", "first=1", rated=False)     # casual: takebacks allowed
    alice, bob = table.alice, table.bob
    ix = await twin.click(alice, table.board_message(match_id), f"m:{match_id}:act")
    selects = _move_selects(ix.last, match_id)
    assert [len(s["options"]) for s in selects] == [25, 25, 25, 25], message_text(ix.last)
    assert all(o["value"].startswith("c:") for s in selects for o in s["options"])
    assert "(100 choices)" in ix.text and "played at once" in ix.text
    last = selects[-1]
    assert last["placeholder"].startswith("Place ") and last["options"][-1]["label"].startswith("Place ")
    option = last["options"][-1]
    ix = await twin.click(alice, ix.last, last["custom_id"], values=[option["value"]],
                          until=lambda i: "You played" in i.text or "⚠️" in i.text)
    played = re.search(r"You played .*?`([^`]+)`", ix.text)
    assert played, ix.text
    assert option["label"] in ix.text            # the move picked is the move played
    # Alice asks for a takeback: Bob's menu holds his 100 moves and Accept / Decline beneath
    await twin.wait_for(lambda: f"<@{bob['id']}>" in message_text(table.board_message(match_id) or {}),
                        what="Bob's turn")
    ix = await twin.click(alice, table.board_message(match_id), f"m:{match_id}:act")
    ix = await twin.click(alice, ix.last, f"m:{match_id}:takeback")
    await twin.settle(quiet=0.3)
    ix = await twin.click(bob, table.board_message(match_id), f"m:{match_id}:act")
    assert sum(len(s["options"]) for s in _move_selects(ix.last, match_id)) == 100, message_text(ix.last)
    assert find_component(ix.last, rf"^m:{match_id}:tbyes$") and find_component(ix.last, rf"^m:{match_id}:tbno$")
    assert len(ix.last["components"]) == 5
    # and he just plays on, from his third select
    third = _move_selects(ix.last, match_id)[2]
    ix = await twin.click(bob, ix.last, third["custom_id"], values=[third["options"][0]["value"]],
                          until=lambda i: "You played" in i.text or "⚠️" in i.text)
    assert "You played" in ix.text, ix.text
    assert third["options"][0]["label"] in ix.text
