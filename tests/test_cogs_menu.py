"""The game-agnostic move menu (issue 14, "Two taps to move"): moves in words, one pick plays
when they fit one select; otherwise the piece or card first, then its move."""
from __future__ import annotations

import re

import discord

from cogs.components import (
    BOARD_TEMPLATE, CONFIRM_TEMPLATE, MOVE_TEMPLATE, BoardButton, build_menu, groups_of, legal_hash,
)
from render.labels import Choice


def items(view: discord.ui.View) -> list:
    return [getattr(i, "item", i) for i in view.children]


def moves(n: int, per_group: int = 1) -> list[Choice]:
    return [Choice(command=f"play c{i:02d}", label=f"Card {i}", description=f"does {i}",
                   group=f"Piece {i // per_group}", emoji="🃏") for i in range(n)]


def test_moves_that_fit_one_select_are_listed_whole_and_say_what_they_do():
    choices = moves(5)
    content, view = build_menu(7, choices, 0, 0, "en")
    (select,) = items(view)
    assert isinstance(select, discord.ui.Select)
    assert [o.label for o in select.options] == [f"Card {i}" for i in range(5)]
    assert [o.description for o in select.options] == [f"does {i}" for i in range(5)]
    assert [o.value for o in select.options] == [f"c:{i}" for i in range(5)]
    assert all(str(o.emoji) == "🃏" for o in select.options)
    assert "5 choices" in content and "played at once" in content


def test_many_moves_are_grouped_by_piece_then_listed():
    # 10 pieces with 12 moves each: more than the menu's selects hold (tests/test_menu_sheets.py)
    choices = moves(120, per_group=12)
    assert len(groups_of(choices)) == 10
    content, view = build_menu(3, choices, 0, 0, "en")
    (select,) = items(view)
    assert [o.label for o in select.options] == [f"Piece {k}" for k in range(10)]
    assert select.options[0].value == "g:1" and select.options[0].description == "12 choices"
    content, view = build_menu(3, choices, 2, 0, "en")
    select, back = items(view)
    assert [o.value for o in select.options] == [f"c:{i}" for i in range(12, 24)]
    assert "**Piece 1**" in content
    assert back.custom_id == "m:3:act" and "Back" in back.label


def test_a_group_of_one_move_plays_it_from_the_first_select():
    choices = moves(104, per_group=26) + [Choice(command="end", label="End your turn", group="End your turn")]
    content, view = build_menu(3, choices, 0, 0, "en")
    (select,) = items(view)
    last = select.options[-1]
    assert len(select.options) == 5 and last.label == "End your turn" and last.value == "c:104"


def test_a_long_group_is_paged_with_more():
    choices = moves(60, per_group=60)
    content, view = build_menu(3, choices, 1, 0, "en")
    select = items(view)[0]
    assert len(select.options) == 25
    assert select.options[-1].value == "p:1" and "more" in select.options[-1].label
    content, view = build_menu(3, choices, 1, 2, "en")
    select = items(view)[0]
    assert [o.value for o in select.options[:-1]] == [f"c:{i}" for i in range(48, 60)]
    assert select.options[-1].value == "p:0", "the last page wraps around"


def test_custom_ids_stay_within_discord_limits_and_match_their_templates():
    choices = [Choice(command=f"verb{i} " + "x" * 150, label="L" * 100, description="D" * 100, group=f"G{i // 3}")
               for i in range(80)]
    content, view = build_menu(10**18, choices, 0, 0, "ja")
    for item in items(view):
        assert len(item.custom_id) <= 100
    assert re.fullmatch(MOVE_TEMPLATE, items(view)[0].custom_id)
    for option in items(view)[0].options:
        assert len(option.value) <= 100 and len(option.label) <= 100
        assert option.description is None or len(option.description) <= 100
    values = [o.value for o in items(view)[0].options]
    assert len(values) == len(set(values)), "Discord refuses a select with duplicate values"
    for cid in ("m:12345678901234567890:status", f"m:1:c:{legal_hash(['a'])}:12:3", "m:1:ok:resign"):
        assert any(re.fullmatch(t, cid) for t in (BOARD_TEMPLATE, MOVE_TEMPLATE, CONFIRM_TEMPLATE))
    assert len(BoardButton(10**19, "decline").item.custom_id) <= 100


def test_the_menu_speaks_japanese():
    content, view = build_menu(1, moves(3), 0, 0, "ja")
    assert "あなたの番" in content and "選ぶとすぐに実行" in content
    assert items(view)[0].placeholder == "行動を選んでください…"
