"""Pictures: render/ draws PNGs of game views (SQUARES board, generic text card)."""
from __future__ import annotations

import copy
import io
import json
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from PIL import Image

from data import i18n
from render import has_renderer, render_image, render_png
from render import fonts
from render.base import format_duration

ROOT = Path(__file__).resolve().parents[1]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def squares_view(*, outcome: dict | None = None, phase: str = "play", seat=None) -> dict:
    """A hand-built SQUARES view in the engine's view format (mid-game, a battle just happened)."""
    pieces = [
        ("a1", 0, "A", 4, "S"), ("b2", 0, "B", 3, "P"), ("c3", 0, "A", 2, "L"),
        ("b3", 0, "A", 5, "S"), ("d3", 1, "B", 1, "X"), ("c5", 1, "A", 3, "L"),
        ("e4", 1, "B", 5, "P"), ("d4", 1, "A", 4, "S"),
    ]
    return {
        "game": "squares", "seat": seat, "first": 0, "turn": 12, "max_turns": 200,
        "to_act": [] if outcome else [1], "phase": "over" if outcome else phase,
        "pieces": [{"square": sq, "owner": o, "kind": k, "number": n, "side": s,
                    "label": f"{s}{n}"} for sq, o, k, n, s in pieces],
        "reserves": [
            [{"kind": "A", "number": 1}, {"kind": "A", "number": 3}, {"kind": "B", "number": 1},
             {"kind": "B", "number": 2}, {"kind": "B", "number": 4}, {"kind": "B", "number": 5}],
            [{"kind": "A", "number": 1}, {"kind": "A", "number": 2}, {"kind": "A", "number": 5},
             {"kind": "B", "number": 2}, {"kind": "B", "number": 3}, {"kind": "B", "number": 4}],
        ],
        "row_sums": [[4, 3, 7, 0, 0], [0, 0, 1, 10 if phase == "return" else 9, 3]],
        "row_limits": [[8, 9, 8, 8, 8], [8, 8, 8, 9, 8]],
        "over_limit": [[], [4] if phase == "return" else []],
        "centre": [2, 1],
        "last": {"seat": 0, "command": "leap c1 c3", "from": "c1", "to": "c3",
                 "battle": {"square": "c3", "attacker": 4, "defender": 3, "winner": "attacker"},
                 "returned": ["c4"]},
        "outcome": outcome,
    }


def decode(png: bytes) -> Image.Image:
    assert png[:8] == PNG_MAGIC
    img = Image.open(io.BytesIO(png))
    img.load()
    return img


def random_views(seed: int, moves: int, every: int = 7):
    """Public views of a random SQUARES match from the real engine, every few commands."""
    from rules import registry

    game = registry.get("squares")
    state = game.new_match(players=2, seed=seed, options={})
    rng = random.Random(seed)
    for i in range(moves):
        if i % every == 0:
            yield game.view(state, None)
        if game.outcome(state) is not None:
            break
        seat = rng.choice(game.to_act(state))
        state = game.apply(state, seat, rng.choice(game.legal_commands(state, seat)))
    yield game.view(state, None)
    yield game.view(state, 1)


@pytest.mark.parametrize("locale", ["en", "ja"])
def test_squares_picture_is_a_png_of_sensible_size_in_both_locales(locale):
    png = render_png("squares", squares_view(), locale=locale, names=["Alice", "ボブ"],
                     clock={"deadline_in": 272, "turn_seconds": 300})
    img = decode(png)
    assert 500 <= img.width <= 1600 and 500 <= img.height <= 1600
    assert len(png) <= 200_000


def test_locales_draw_different_text_on_the_same_board():
    en = render_png("squares", squares_view(), locale="en")
    ja = render_png("squares", squares_view(), locale="ja")
    assert en != ja
    # Discord locale spellings map onto the catalog's languages
    assert render_png("squares", squares_view(), locale="ja") == render_png(
        "squares", squares_view(), locale="ja-JP")


def test_japanese_ability_names_are_drawn_with_real_glyphs_not_tofu():
    f = fonts.font(32, bold=True)
    notdef = f.getmask("\U000F0000\U000F0000")           # two missing-glyph boxes
    for word in ("援護", "飛躍", "交換", "補給"):
        mask = f.getmask(word)
        assert mask.getbbox() is not None                 # something is drawn …
        assert bytes(mask) != bytes(notdef)               # … and it is not the .notdef box
    # every character of every Japanese picture string is in the font
    missing = {ch for key, text in i18n.catalog("ja").items() if key.startswith("render.")
               for ch in text if not ch.isspace() and ch not in "{}" and not fonts.has_glyph(ch)}
    assert not missing
    for ch in "▲▼▶★…–—":
        assert fonts.has_glyph(ch), ch


def test_fonts_come_from_the_pypi_noto_cjk_package_and_are_cached():
    import noto_cjk

    assert fonts.font_path(False) == Path(noto_cjk.font_path("sans", "jp", "regular"))
    assert fonts.font_path(True) == Path(noto_cjk.font_path("sans", "jp", "bold"))
    assert fonts.font(18) is fonts.font(18)
    assert fonts.font(18, bold=True) is not fonts.font(18)


def test_every_render_string_exists_in_both_languages():
    # an English plural form (``key.one``) has no Japanese twin: Japanese has no plural
    en = {k for k in i18n.catalog("en") if k.startswith("render.") and not k.endswith(".one")}
    ja = {k for k in i18n.catalog("ja") if k.startswith("render.")}
    assert en == ja
    for key in en:
        assert i18n.placeholders(i18n.catalog("en")[key]) == i18n.placeholders(
            i18n.catalog("ja")[key]), key


def test_generic_card_draws_any_unknown_game():
    view = {"game": "mystery", "seat": None, "to_act": [0], "phase": "main", "turn": 3,
            "hand": list(range(40)), "note": "テスト", "outcome": None}
    assert not has_renderer("mystery")
    img = decode(render_png("mystery", view, locale="ja", names=["Alice", "Bob"]))
    assert 500 <= img.width <= 1600
    # many fields grow the card but stay bounded
    big = {f"field_{i}": i for i in range(200)}
    tall = decode(render_png("mystery", big))
    assert tall.height <= 1600
    # an ended match shows its banner
    over = dict(view, to_act=[], outcome={"winners": [], "reason": "turn_limit"})
    assert render_png("mystery", over) != render_png("mystery", view)


def test_squares_has_its_own_drawer():
    assert has_renderer("squares")


def test_outcome_banner_and_last_battle_render():
    won = squares_view(outcome={"winners": [0], "reason": "centre"})
    draw = squares_view(outcome={"winners": [], "reason": "repetition"})
    for view in (won, draw):
        for locale in ("en", "ja"):
            decode(render_png("squares", view, locale=locale, names=["Alice", "Bob"],
                              title="Match #42"))
    assert render_png("squares", won) != render_png("squares", draw)


def test_return_phase_and_private_view_render():
    view = squares_view(phase="return", seat=1)
    view["last"] = {"seat": 0, "command": "swap c3 d3", "from": "c3", "to": "d3",
                    "battle": None, "returned": []}
    png = render_png("squares", view, locale="ja", names=["A" * 80, "長い名前" * 20],
                     clock={"deadline_in": 45, "turn_seconds": None})
    decode(png)


def test_same_view_gives_byte_identical_png_and_view_is_not_changed():
    view = squares_view()
    before = copy.deepcopy(view)
    a = render_png("squares", view, locale="ja", names=["Alice", "Bob"])
    b = render_png("squares", json.loads(json.dumps(view)), locale="ja", names=["Alice", "Bob"])
    assert a == b
    assert view == before
    # … and the picture does depend on the view
    moved = copy.deepcopy(view)
    moved["pieces"][0]["square"] = "a2"
    assert render_png("squares", moved, locale="ja", names=["Alice", "Bob"]) != a


def test_rendering_from_many_threads_gives_the_same_bytes():
    view = squares_view()
    expected = render_png("squares", view, locale="ja")
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(lambda loc: render_png("squares", view, locale=loc),
                                ["ja", "en"] * 12))
    assert all(r == expected for r in results[::2])
    assert len(set(results[1::2])) == 1


def test_render_image_returns_a_fresh_image_each_time():
    a = render_image("squares", squares_view())
    a.paste((0, 0, 0), (0, 0, 100, 100))                  # callers may draw on their copy
    b = render_image("squares", squares_view())
    assert a.tobytes() != b.tobytes()
    assert b.getpixel((5, 5)) != (0, 0, 0)


def test_clock_shows_minutes_and_seconds_or_hours():
    assert format_duration(272, "en") == "04:32"
    assert format_duration(0.2, "en") == "00:01"
    assert format_duration(-5, "en") == "00:00"
    assert format_duration(3725, "en") == "1 h 02 min"
    assert format_duration(3725, "ja") == "1時間02分"
    no_clock = render_png("squares", squares_view())
    assert render_png("squares", squares_view(), clock={"deadline_in": None}) == no_clock
    assert render_png("squares", squares_view(), clock={"deadline_in": 30}) != no_clock


def test_real_engine_views_render_through_a_whole_random_match():
    for seed in (1, 2):
        for view in random_views(seed, 300, every=25):
            assert render_png("squares", view, locale="ja")[:8] == PNG_MAGIC


def test_command_line_writes_a_valid_png(tmp_path):
    out = tmp_path / "board.png"
    proc = subprocess.run(
        [sys.executable, "-m", "render", "--game", "squares", "--seed", "7", "--moves", "30",
         "--out", str(out), "--locale", "ja", "--seat", "2"],
        cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert str(out) in proc.stdout
    img = decode(out.read_bytes())
    assert 500 <= img.width <= 1600


def test_command_line_rejects_an_unknown_game(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "render", "--game", "nope", "--out", str(tmp_path / "x.png")],
        cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert "unknown game" in proc.stderr


def test_display_names_lose_characters_the_font_cannot_draw():
    from render.base import make_ctx

    ctx = make_ctx("squares", "en", ["Al😀ice 🎲", "😀😀", "  "], None, None)
    assert ctx.name(0) == "Alice"
    assert ctx.name(1) == "Player 2"                     # nothing drawable left: default name
    assert ctx.name(2) == "Player 3"
    assert make_ctx("squares", "ja", None, None, None).name(0) == "プレイヤー1"


def test_warm_fills_the_caches_without_changing_pictures():
    import render

    before = render_png("squares", squares_view(), locale="ja")
    render.warm()
    assert render_png("squares", squares_view(), locale="ja") == before


def test_a_waiting_public_picture_is_drawn_before_waiting_private_ones():
    """The host hands a Result over before its private pictures are drawn; the next board
    update must not queue behind them."""
    import threading
    import time

    from render import _Slots

    slots = _Slots(1)
    order: list[str] = []
    slots.acquire(public=False)                      # a private picture is being drawn

    def wait(name: str, public: bool) -> None:
        slots.acquire(public=public)
        order.append(name)
        slots.release()

    private = threading.Thread(target=wait, args=("private", False))
    private.start()
    time.sleep(0.05)                                 # the private one waits first ...
    public = threading.Thread(target=wait, args=("public", True))
    public.start()
    deadline = time.monotonic() + 5
    while slots._public_waiting == 0 and time.monotonic() < deadline:
        time.sleep(0.001)
    slots.release()                                  # ... but the public one goes first
    private.join(5)
    public.join(5)
    assert order == ["public", "private"]


def test_generic_card_wraps_its_rows_instead_of_cutting_them():
    """Issue 33: the fallback card cut its ``key: value`` rows with "…"; it fits them as the other
    drawers do (render/textfit.py: shrink, wrap, shorten only as a last resort)."""
    from render import fonts
    from render.generic import TEXT, W, _rows
    from render.textfit import min_px

    note = "A long note about the state of the game that goes on past the width of the card, " * 2
    key = "a_key_name_much_longer_than_its_column"
    [(k, v, height)] = _rows([(key, note.strip())], 220, 460)
    assert len(v[1]) > 1 and not any("…" in line for line in v[1]), v
    assert "".join(v[1]).replace(" ", "") == note.strip().replace(" ", "")     # every word is there
    assert len(k[1]) == 2 and "".join(k[1]) == key and not any("…" in line for line in k[1]), k
    assert all(fonts.text_width(line, v[0]) <= 460 for line in v[1])
    assert all(fonts.text_width(line, k[0], True) <= 210 for line in k[1])
    assert min(k[0], v[0]) >= min_px(W) and max(k[0], v[0]) <= TEXT
    assert height >= len(v[1]) * v[0]                          # the row is as tall as its lines
    # only what cannot fit even wrapped over three lines is shortened
    [(_, v, _)] = _rows([("note", note * 4)], 220, 460)
    assert len(v[1]) == 3 and v[1][-1].endswith("…")
    decode(render_png("mystery", {"game": "mystery", "note": note, key: "x"}))
