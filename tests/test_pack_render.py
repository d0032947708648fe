"""The pack and pool pictures of limited play (render/pack.py): every card numbered in the order
the pick select lists them and read in that order (down the first column, then the second), text
never under 8 px at a phone's 400 px, a card the set no longer has drawn by its id, a pool with
each card once and its copies."""
from __future__ import annotations

import pytest

from data.card_sets import games
from render import hand_sheet
from render.fonts import drawn_boxes, drawn_text
from render.pack import card_name, pack_image, pool_image


def _entries(game: str) -> dict:
    ad = games.adapter(game)
    cs, _ = ad.validate(ad.base_files("extend", None))
    return {e.id: e for e in ad.entries(cs, set())}


def _cards(entries: dict, n: int) -> list[str]:
    return [i for i, e in entries.items() if e.view is not None and not e.deck][:n]


@pytest.mark.parametrize("game", ["logic_square", "maken", "avalon"])
def test_a_pack_is_numbered_in_reading_order_down_each_column(game):
    entries = _entries(game)
    pack = _cards(entries, 15)
    with drawn_boxes() as boxes:
        img = pack_image(game, pack, entries, title="Draft #1", note="Round 1 · pick 1")
    assert img.width == hand_sheet.W
    titles = {}
    for drawn in boxes:
        for i, cid in enumerate(pack, start=1):
            if drawn.text.startswith(f"{i}. ") and cid not in titles:
                titles[cid] = drawn.box
    assert len(titles) == len(pack), "every card of the pack is drawn with its number"
    seq = [(int(titles[c][0] >= img.width // 2), titles[c][1]) for c in pack]   # (column, y)
    assert seq == sorted(seq), "1… down the first column, then down the second"


def test_text_reads_on_a_phone_and_a_stale_card_is_drawn_by_its_id():
    entries = _entries("maken")
    pack = _cards(entries, 3) + ["zz_gone"]
    with drawn_text() as texts:
        img = pack_image("maken", pack, entries, title="Draft #2", locale="ja")
    assert min(size for size, _ in texts) * 400 / img.width >= 8
    assert "4. zz_gone" in [t for _, t in texts]
    assert card_name(entries, "zz_gone", "ja") == "zz_gone"
    assert card_name(entries, pack[0], "ja") == entries[pack[0]].name["ja"]


def test_a_pool_shows_each_card_once_with_its_copies():
    entries = _entries("avalon")
    a, b = _cards(entries, 2)
    with drawn_text() as texts:
        pool_image("avalon", [a, b, a], entries, title="Pool", locale="en")
    drawn = [t for _, t in texts]
    assert f"×2 {entries[a].name['en']}" in drawn and f"×1 {entries[b].name['en']}" in drawn
    assert not any(t.startswith("×3") for t in drawn)
