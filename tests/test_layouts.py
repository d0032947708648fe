"""The Components V2 building blocks (cogs/layouts.py): whatever a cog hands them — long tables,
many blocks, many buttons — the layout stays within what Discord takes (checked by the twin's own
rules, tests/e2e/twin_v2.py): 4,000 characters of text, 40 components, a gallery of at most ten
pictures naming files of the message; a clipped code block still closes its fence; an edit
clears the content and the embeds a message had before it was a layout."""
from __future__ import annotations

import io

import discord
import pytest

from cogs.layouts import (COMPONENTS_MAX, TEXT_MAX, edit_kwargs, fit, fit_all, layout, moved_rows, rows_of,
                          send_kwargs)
from layout_reading import check_layout, view_pictures, view_text


def _button(i: int) -> discord.ui.Button:
    return discord.ui.Button(label=str(i), custom_id=f"b:{i}")


def test_a_code_block_is_cut_at_a_line_and_keeps_its_closing_fence():
    table = "```\n" + "\n".join(f"{i:>3} player{i:<10} 1-0-0 3" for i in range(200)) + "\n```"
    out = fit(table, 500)
    assert len(out) <= 500 and out.startswith("```\n") and out.endswith("\n…\n```")
    body = out.split("\n")[1:-2]
    assert body and all(line in table.split("\n") for line in body), "only whole lines kept"
    assert fit("short", 10) == "short" and fit("a" * 20, 10) == "a" * 9 + "…"


def test_the_longest_block_gives_way_first():
    out = fit_all(["head", "x" * 5000, "legend " * 10, ""], 3000)
    assert out[0] == "head" and out[2] == ("legend " * 10) and len(out) == 3
    assert sum(map(len, out)) <= 3000 and out[1].endswith("…")


def test_any_amount_of_words_and_controls_stays_within_discords_limits():
    blocks = ["```\n" + "\n".join("row " * 20 for _ in range(100)) + "\n```"] + [f"block {i} " * 30 for i in range(60)]
    rows = rows_of([_button(i) for i in range(10)])
    view = layout(accent=0x123456, title="T" * 400, pictures=[(f"p{i}.png", "alt " * 400) for i in range(12)],
                  blocks=blocks, footer="small print", rows=rows)
    components = view.to_components()
    assert check_layout(components, {f"p{i}.png" for i in range(12)}) == []
    assert view.total_children_count <= COMPONENTS_MAX and view.content_length() <= TEXT_MAX
    assert view_pictures(view) == [f"attachment://p{i}.png" for i in range(10)], "a gallery holds ten"
    text = view_text(view)
    assert text.startswith("### " + "T" * 200) and "block 59" in text, "surplus blocks joined, not dropped"
    assert text.splitlines()[-1] == "-# small print"
    box = components[0]
    assert box["type"] == 17 and box["accent_color"] == 0x123456
    assert [c["type"] for c in box["components"][-3:]] == [14, 1, 1], "a divider, then the rows beneath"


def test_buttons_go_five_to_a_row_and_a_select_alone():
    select = discord.ui.Select(custom_id="s", options=[discord.SelectOption(label="a")])
    rows = rows_of([*(_button(i) for i in range(7)), select, _button(7)])
    assert [len(r.children) for r in rows] == [5, 2, 1, 1]
    assert isinstance(rows[2].children[0], discord.ui.Select)


def test_a_classic_views_items_move_into_rows_unchanged():
    view = discord.ui.View(timeout=None)
    for i in range(3):
        view.add_item(_button(i))
    [row] = moved_rows(view)
    assert [b.custom_id for b in row.children] == ["b:0", "b:1", "b:2"] and not view.children
    assert moved_rows(None) == []


def test_a_send_has_no_content_and_an_edit_clears_what_the_message_had():
    view = layout(title="x", blocks=["y"])
    assert send_kwargs(view) == {"view": view}
    files = [discord.File(io.BytesIO(b"png"), filename="a.png")]
    assert send_kwargs(view, files)["files"] == files
    edit = edit_kwargs(view, files)
    assert edit["content"] is None and edit["embed"] is None and edit["view"] is view and edit["attachments"] == files
    assert "attachments" not in edit_kwargs(view), "no files given: the attachments stay"


def test_a_layout_of_nothing_is_refused_before_discord_would():
    with pytest.raises(ValueError):
        layout()
