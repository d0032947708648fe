"""The game-agnostic Act menu: a prefix tree over space-separated commands."""
from __future__ import annotations

import discord

from cogs.components import (
    BOARD_TEMPLATE, CONFIRM_TEMPLATE, GO_TEMPLATE, TREE_TEMPLATE, BoardButton, build_menu, descend,
    legal_hash, level, prefix_from,
)
import re


def items(view: discord.ui.View) -> list:
    return [getattr(i, "item", i) for i in view.children]


def test_level_lists_distinct_next_tokens_in_engine_order():
    legal = ["move c1 c2", "move c1 c3", "leap c1 c4", "pass"]
    children, complete = level(legal, [])
    assert [t for t, _ in children] == ["move", "leap", "pass"] and complete is None
    children, complete = level(legal, ["pass"])
    assert children == [] and complete == 3


def test_forced_steps_are_taken_automatically():
    legal = ["play 12", "play 40"]
    prefix, children, complete = descend(legal, [])
    assert prefix == ["play"] and [t for t, _ in children] == ["12", "40"]


def test_a_command_that_is_also_a_prefix_offers_both_confirm_and_more():
    legal = ["return", "return c3", "return d3"]
    content, view = build_menu(7, legal, [], 0, "en")
    select, confirm, restart = items(view)
    assert isinstance(select, discord.ui.Select) and [o.label for o in select.options] == ["c3", "d3"]
    assert confirm.label == "Play: return" and ":go:" in confirm.custom_id
    assert restart.custom_id == "m:7:act"


def test_a_level_with_more_than_25_tokens_is_paged_with_more():
    legal = [f"pick t{i:02d}" for i in range(60)]
    content, view = build_menu(3, legal, ["pick"], 0, "en")
    select = items(view)[0]
    assert len(select.options) == 25
    assert select.options[-1].value == "p:1" and "more" in select.options[-1].label
    assert [o.label for o in select.options[:24]] == [f"t{i:02d}" for i in range(24)]
    content, view = build_menu(3, legal, ["pick"], 2, "en")
    select = items(view)[0]
    assert [o.label for o in select.options[:-1]] == [f"t{i:02d}" for i in range(48, 60)]
    assert select.options[-1].value == "p:0", "the last page wraps around"


def test_custom_ids_stay_within_discord_limits_and_match_their_templates():
    legal = [f"verb{i} " + " ".join(f"tok{j}" for j in range(30)) for i in range(40)]
    content, view = build_menu(10**18, legal, [], 0, "ja")
    for item in items(view):
        assert len(item.custom_id) <= 100
    assert re.fullmatch(TREE_TEMPLATE, items(view)[0].custom_id)
    for option in items(view)[0].options:
        assert len(option.value) <= 100 and len(option.label) <= 100
        assert option.description is None or len(option.description) <= 100
    for cid in ("m:12345678901234567890:status", f"m:1:go:{legal_hash(legal)}:39", "m:1:ok:resign"):
        assert any(re.fullmatch(t, cid) for t in (BOARD_TEMPLATE, GO_TEMPLATE, CONFIRM_TEMPLATE))
    assert len(BoardButton(10**19, "decline").item.custom_id) <= 100


def test_prefix_from_rebuilds_the_path_from_depth_and_reference():
    legal = ["move c1 c2", "move d1 d2"]
    assert prefix_from(legal, 2, 1) == ["move", "d1"]
    assert prefix_from(legal, 0, 99) == []
    assert prefix_from(legal, 2, 99) is None


def test_the_menu_speaks_japanese():
    content, view = build_menu(1, ["pass", "move a b"], [], 0, "ja")
    assert "ここまでのコマンド" in content
