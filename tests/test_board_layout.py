"""The board, the hand DM and the replay as Components V2 layouts (cogs/board_layout.py): what a
layout holds stays within Discord's V2 limits however long the turn's words grow (the oldest
words give way, the status and the pings stay), the controls go into rows as Discord allows them,
the accent is the colour of the player to act, and a board posted before the boards were layouts
becomes one in the edit that next touches it.  The builders alone, then the bot on the fake
Discord."""
from __future__ import annotations

import json
from dataclasses import replace

import discord
import pytest

from cogs.board_layout import (COLOURS, TEXT_MAX, Layout, board_accent, colour_value, layout_view, seat_accent,
                               v2_edit, words_view)
from cogs.components import BoardButton, MoveSelect
from cogs.layouts import rows_of
from data.store import ACTIVE, FINISHED, MatchRecord
from discord_fakes import is_v2, make_env, message_text
from tests.e2e.twin_v2 import MAX_COMPONENTS, check_layout, check_v2, controls, texts


def _tree(components: list) -> list[dict]:
    out = []
    for c in components:
        out.append(c)
        out += _tree(c.get("components") or [])
        for item in c.get("items") or []:
            out.append(item)
    return out


def _count(view: discord.ui.LayoutView) -> int:
    """Components as Discord counts them (gallery items are not components)."""
    return len([c for c in _tree(view.to_components()) if "type" in c])


def _text(view: discord.ui.LayoutView) -> list[str]:
    return texts(view.to_components())


# ---------------------------------------------------------------------------- the builder
def test_a_board_with_every_control_is_one_container_within_the_limits():
    buttons = [BoardButton(12, a, label=a) for a in ("act", "status", "resign", "join", "judge")]
    layout = Layout(title="SQUARES #12", head="Alice: Place Pawn 5 on c5\n<@1>: your turn.",
                    status="To act: Bob", lines="Bob: something", pictures=(("board.png", "To act: Bob"),),
                    details="**Players**\n1. <@1> (Alice)\n2. <@2> (Bob)", footer="Press Act", accent=seat_accent(1))
    view = layout_view(layout, rows_of(buttons))
    components = view.to_components()
    assert [c["type"] for c in components] == [17]
    [box] = components
    assert [c["type"] for c in box["components"]] == [10, 10, 10, 12, 10, 14, 1]
    assert box["accent_color"] == seat_accent(1)
    assert check_layout(components, {"board.png"}) == []
    assert _count(view) <= MAX_COMPONENTS
    assert _text(view)[0] == "## SQUARES #12" and "**To act: Bob**" in _text(view)[2]
    assert box["components"][3]["items"][0]["media"]["url"] == "attachment://board.png"
    assert [c["custom_id"] for c in controls(components)] == [f"m:12:{a}" for a in
                                                               ("act", "status", "resign", "join", "judge")]


def test_long_words_give_way_oldest_first_and_keep_the_status_and_the_pings():
    turn = "\n".join(f"{n}. Alice: a very long account of a battle, blow by blow, line {n}" for n in range(200))
    pings = "<@1>: your turn."
    layout = Layout(title="Battle Logic Square #3", head=turn + "\n" + pings, status="To act: Alice",
                    lines="\n".join(f"Bob did {n}" for n in range(300)), pictures=(("board.png", "x"),),
                    details="**Players**\n1. <@1> (Alice)", footer="Press Act")
    view = layout_view(layout)
    shown = _text(view)
    assert sum(len(t) for t in shown) <= TEXT_MAX and view.content_length() <= TEXT_MAX
    assert check_layout(view.to_components(), {"board.png"}) == []
    head = shown[1]
    assert head.startswith("…") and head.endswith(pings), "the newest words and the pings stay"
    assert "line 199" in head and "line 0\n" not in head
    assert shown[2].startswith("**To act: Alice**"), "the status stays"
    assert "**Players**" in shown[-1], "the players stay"


def test_rows_hold_five_buttons_or_one_select():
    buttons = [BoardButton(1, "act", label=str(i)) for i in range(7)]
    select = MoveSelect(1, "ab", 0, 0, options=[discord.SelectOption(label="a", value="c:0")])
    rows = rows_of([*buttons[:3], select, *buttons[3:]])
    assert [len(r.children) for r in rows] == [3, 1, 4]
    assert rows[1].children == [select]


def test_a_retired_board_is_its_words_alone_and_an_edit_resets_what_v2_forbids():
    view = words_view("Alice: Place Pawn 5 on c5")
    assert view.to_components() == [{"type": 10, "content": "Alice: Place Pawn 5 on c5"}]
    assert words_view("x" * 5000).content_length() <= TEXT_MAX
    kwargs = v2_edit(view, attachments=[])
    assert kwargs["content"] is None and kwargs["embed"] is None and kwargs["view"] is view


def test_the_accent_is_the_colour_of_the_player_to_act_and_the_status_colour_when_over():
    rec = MatchRecord(game="squares", seed=1, seats=[10, 20], names=["Alice", "Bob"], creator=10, id=1,
                      status=ACTIVE)
    awaiting_bob = type("P", (), {"awaited": [20]})()
    assert board_accent(rec, awaiting_bob) == seat_accent(1) != seat_accent(0)
    assert board_accent(replace(rec, status=FINISHED), awaiting_bob) == colour_value(COLOURS[FINISHED])
    hidden = type("P", (), {"awaited": []})()           # a secret decision: nobody named
    assert board_accent(rec, hidden) == colour_value(COLOURS[ACTIVE])


# ---------------------------------------------------------------------------- the bot
@pytest.fixture
async def env(tmp_path):
    e = await make_env(tmp_path)
    try:
        yield e
    finally:
        await e.close()


async def test_a_board_posted_before_the_layouts_becomes_one_when_it_is_next_edited(env):
    """A board (and a challenge) sent as an embed before an upgrade: the next edit — its retirement
    here — sends the layout with the V2 flag and resets its content and embeds, as Discord asks
    of an edit that makes a message V2."""
    match_id = await env.start()
    board = await env.board(match_id)
    legacy = {**board, "flags": 0, "content": "<@1>: your turn.", "components": [],
              "embeds": [{"title": f"SQUARES #{match_id}", "description": "**To act: Alice**"}]}
    env.fake.messages[int(board["id"])].update(legacy)
    legal = await env.host.legal(match_id, int(env.alice["id"]))
    thread_id = (await env.match(match_id)).channel_id
    await env.fake.slash(env.bot, env.alice, "move", command=legal[0], channel_id=thread_id)
    [edit] = [r for r in env.fake.calls("PATCH", rf"/messages/{board['id']}$")]
    assert check_v2(edit.json, edit.files, create=False, current=legacy) == (True, [])
    retired = env.fake.messages[int(board["id"])]
    assert is_v2(retired) and not retired["content"] and not retired["embeds"]
    assert message_text(retired).strip() and "<@" not in message_text(retired)
    assert json.dumps(retired["components"]).count('"type": 10') == 1, "its words alone"
