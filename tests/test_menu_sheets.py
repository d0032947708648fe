"""The Act menu lays more moves than one select holds on several selects, group by group, so one
pick plays any of them (two taps from the board), while the message keeps a row for Undo and a
takeback's answers; only when even that does not fit is the piece or card picked first."""
from __future__ import annotations

import re

import discord

from cogs.components import MENU_ROWS, MOVE_TEMPLATE, BoardButton, build_menu, groups_of, sheets_of
from render import labels
from render.labels import Choice
from rules import registry


def items(view: discord.ui.View) -> list:
    return [getattr(i, "item", i) for i in view.children]


def moves(n: int, per_group: int) -> list[Choice]:
    return [Choice(command=f"play c{i:03d}", label=f"Card {i}", description=f"does {i}",
                   group=f"Piece {i // per_group}", emoji="🃏") for i in range(n)]


def rows_of(view: discord.ui.View) -> list[list[dict]]:
    return [row["components"] for row in view.to_components()]


def test_a_hundred_moves_are_four_selects_of_whole_groups_each_named():
    choices = moves(100, per_group=5)           # 20 pieces, 5 moves each (SQUARES' opening)
    content, view = build_menu(9, choices, 0, 0, "en")
    selects = items(view)
    assert len(selects) == 4 and all(isinstance(s, discord.ui.Select) for s in selects)
    assert [len(s.options) for s in selects] == [25, 25, 25, 25]
    # every move is offered once, as a move (c:), in order: one pick plays it
    assert [o.value for s in selects for o in s.options] == [f"c:{i}" for i in range(100)]
    assert [o.label for o in selects[1].options[:2]] == ["Card 25", "Card 26"]
    assert selects[1].options[0].description == "does 25" and str(selects[1].options[0].emoji) == "🃏"
    # each select says which pieces it holds, and holds each of them whole
    assert selects[0].placeholder == "Piece 0, Piece 1, Piece 2, Piece 3, Piece 4"
    assert selects[3].placeholder.startswith("Piece 15, ")
    for s in selects:
        named = {f"Piece {int(o.label.split()[1]) // 5}" for o in s.options}
        assert named == set(s.placeholder.split(", "))
    # distinct custom ids of Discord's size, each a move select of the top level
    ids = [s.custom_id for s in selects]
    assert len(set(ids)) == 4 and all(len(i) <= 100 and re.fullmatch(MOVE_TEMPLATE, i) for i in ids)
    assert [re.fullmatch(MOVE_TEMPLATE, i)["group"] for i in ids] == ["0"] * 4
    assert "100 choices" in content and "played at once" in content
    assert "Back" not in content


def test_the_menu_keeps_a_row_for_undo_and_a_takebacks_answers():
    content, view = build_menu(9, moves(100, per_group=5), 0, 0, "en")
    for action in ("tbyes", "tbno", "undo"):
        view.add_item(BoardButton(9, action, label=action))
    rows = rows_of(view)
    assert len(rows) <= MENU_ROWS
    assert [len(r) for r in rows] == [1, 1, 1, 1, 3], "a select alone in its row, the buttons below"


def test_a_group_never_straddles_two_selects_unless_it_is_longer_than_one():
    assert sheets_of([("a", list(range(20))), ("b", list(range(20, 30)))], 4) == [
        (["a"], list(range(20))), (["b"], list(range(20, 30)))]
    # a group of 30 fills a select of its own and the start of the next, where the next group joins it
    got = sheets_of([("a", list(range(30))), ("b", list(range(30, 40)))], 4)
    assert got == [(["a"], list(range(25))), (["a", "b"], list(range(25, 40)))]
    assert sheets_of([("a", list(range(30)))] * 3, 4) is None, "6 selects needed, 4 at hand"


def test_moves_that_do_not_fit_the_selects_are_picked_piece_first():
    # 105 moves in groups of 5: a fifth select would be needed
    content, view = build_menu(9, moves(105, per_group=5), 0, 0, "en")
    (select,) = items(view)
    assert [o.value for o in select.options][:2] == ["g:1", "g:2"] and len(select.options) == 21
    assert select.placeholder == "Choose the piece or card first…"


def test_multi_selects_take_rows_from_the_move_selects():
    batch = ({"commands": ["discard x0", "discard x1"], "min": 1, "max": 2}, [
        Choice(command="discard x0", label="Discard X0"), Choice(command="discard x1", label="Discard X1")])
    choices = moves(60, per_group=5) + [Choice(command=f"discard x{i}", label=f"Discard X{i}") for i in range(2)]
    # 60 moves: 3 selects, and the multi-select below them
    content, view = build_menu(9, choices, 0, 0, "en", batches=[batch])
    kinds = [type(i).__name__ for i in view.children]
    assert kinds == ["MoveSelect"] * 3 + ["BatchSelect"]
    assert [o.value for s in items(view)[:3] for o in s.options] == [f"c:{i}" for i in range(60)]
    # 80 moves would need 4 selects: with the multi-select's row taken, the piece comes first
    choices = moves(80, per_group=5) + choices[-2:]
    content, view = build_menu(9, choices, 0, 0, "en", batches=[batch])
    kinds = [type(i).__name__ for i in view.children]
    assert kinds == ["MoveSelect", "BatchSelect"] and items(view)[0].options[0].value == "g:1"


def test_the_squares_opening_is_one_pick_away_in_both_languages():
    engine = registry.get("squares")
    state = engine.new_match(2, 1, {})
    seat = engine.to_act(state)[0]
    legal = engine.legal_commands(state, seat)
    assert len(legal) > 25
    for locale, sep in (("en", ", "), ("ja", "、")):
        choices = labels.choices("squares", engine.view(state, seat), seat, legal, locale, ["A", "B"])
        content, view = build_menu(4, choices, 0, 0, locale)
        selects = items(view)
        assert 1 < len(selects) <= MENU_ROWS - 1
        offered = [choices[int(o.value[2:])].command for s in selects for o in s.options]
        assert sorted(offered) == sorted(legal) and all(o.value.startswith("c:") for s in selects for o in s.options)
        groups = dict(groups_of(choices))
        for s in selects:
            assert s.placeholder and all(name in groups for name in s.placeholder.split(sep))
