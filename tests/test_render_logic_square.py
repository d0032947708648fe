"""Battle Logic Square pictures: the public board and a seat's hand picture, drawn from views of
the real engine only."""
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
from render import fonts, has_renderer, render_image, render_png
from rules import registry

ROOT = Path(__file__).resolve().parents[1]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
game = registry.get("logic_square")
NAMES = ["Alice", "ボブ"]


def decode(png: bytes) -> Image.Image:
    assert png[:8] == PNG_MAGIC
    img = Image.open(io.BytesIO(png))
    img.load()
    return img


def random_views(seed: int, moves: int, every: int = 6):
    """(public view, seat 0 view, seat 1 view) of a random match, every few commands, and the
    views of the last state."""
    state = game.new_match(players=2, seed=seed, options={})
    rng = random.Random(seed)
    for i in range(moves):
        if i % every == 0:
            yield game.view(state, None), game.view(state, 0), game.view(state, 1)
        if game.outcome(state) is not None:
            break
        seat = rng.choice(sorted(game.to_act(state)))
        state = game.apply(state, seat, rng.choice(game.legal_commands(state, seat)))
    yield game.view(state, None), game.view(state, 0), game.view(state, 1)


def chain_state():
    """Seat 0 declares Static Shot (CB); seat 1 holds Chain Breaker (CB): a chain window."""
    state = game.position(hands={0: ["ac13", "ac07"], 1: ["ac11"]}, pos=("c3", "c4"))
    return game.apply(state, 0, "use ac13")


def test_logic_square_has_its_own_drawer():
    assert has_renderer("logic_square")


@pytest.mark.parametrize("locale", ["en", "ja"])
def test_random_match_views_render_as_pngs_of_sensible_size(locale):
    seen_seat = seen_public = 0
    for seed in (3, 11):
        for pub, own0, own1 in random_views(seed, 160, every=9):
            for view in (pub, own0, own1):
                png = render_png("logic_square", view, locale=locale, names=NAMES,
                                 clock={"deadline_in": 75, "turn_seconds": 300})
                img = decode(png)
                # phone widths (issue 14): public board 500, hand 600 — shown 400 wide, text ≥ 8 px
                assert img.width in (500, 600), img.size
                assert 400 <= img.height <= 2600, img.size
                assert len(png) <= 200_000
            seen_public += 1
            seen_seat += 2
    assert seen_public > 5 and seen_seat > 10


def test_public_and_seat_pictures_differ_and_seat_picture_is_the_hand():
    state = game.new_match(players=2, seed=5, options={})
    pub = render_png("logic_square", game.view(state, None), names=NAMES)
    own = render_png("logic_square", game.view(state, 0), names=NAMES)
    assert pub != own
    assert decode(pub).width == 500 and decode(own).width == 600


def test_hand_picture_shows_the_hand():
    a = game.position(hands={0: ["ac01", "ac02", "sc03"], 1: ["ac11"]}, it={0: ["it01", "it05"]})
    b = game.position(hands={0: ["ac06", "br01", "sc12"], 1: ["ac11"]}, it={0: ["it01", "it05"]})
    for locale in ("en", "ja"):
        pa = render_png("logic_square", game.view(a, 0), locale=locale)
        pb = render_png("logic_square", game.view(b, 0), locale=locale)
        assert pa != pb
    # more cards -> a taller picture
    c = game.position(hands={0: ["ac01", "ac02", "sc03", "ac06", "br01", "sc12", "ac13"]},
                      it={0: ["it01", "it05"]})
    assert decode(render_png("logic_square", game.view(c, 0))).height > \
        decode(render_png("logic_square", game.view(a, 0))).height
    # the unused IT cards are drawn too
    d = game.position(hands={0: ["ac01", "ac02", "sc03"], 1: ["ac11"]}, it={0: ["it01", "it09"]})
    assert render_png("logic_square", game.view(d, 0)) != render_png("logic_square", game.view(a, 0))


def test_public_picture_does_not_depend_on_hidden_cards():
    """Same counts, different hands and face-down IT cards: same public view, same picture."""
    a = game.position(hands={0: ["ac01", "ac02"], 1: ["ac11"]}, it={0: ["it01"]}, decks={0: ["sc01"]})
    b = game.position(hands={0: ["ac06", "br01"], 1: ["ac13"]}, it={0: ["it05"]}, decks={0: ["sc02"]})
    va, vb = game.view(a, None), game.view(b, None)
    assert "hand" not in va and "it_unused" not in va
    assert render_png("logic_square", va, locale="ja") == render_png("logic_square", vb, locale="ja")


def test_same_view_gives_byte_identical_png_and_view_is_not_changed():
    for view in (game.view(chain_state(), None), game.view(chain_state(), 1),
                 game.view(chain_state(), 0)):
        before = copy.deepcopy(view)
        a = render_png("logic_square", view, locale="ja", names=NAMES)
        b = render_png("logic_square", json.loads(json.dumps(view)), locale="ja", names=NAMES)
        assert a == b
        assert view == before


def test_rendering_from_many_threads_gives_the_same_bytes():
    views = [game.view(chain_state(), None), game.view(chain_state(), 1)]
    expected = [render_png("logic_square", v, locale="ja") for v in views]
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(lambda i: render_png("logic_square", views[i % 2], locale="ja"),
                                range(16)))
    for i, r in enumerate(results):
        assert r == expected[i % 2]


def test_chain_in_progress_renders():
    state = chain_state()
    pub = game.view(state, None)
    assert pub["chain"] == []                         # a hidden window: the public sees the moment before
    own1 = game.view(state, 1)
    assert own1["pending"]["kind"] == "chain" and own1["chain"][0]["card"] == "ac13"
    for locale in ("en", "ja"):
        decode(render_png("logic_square", pub, locale=locale, names=NAMES))
        decode(render_png("logic_square", own1, locale=locale, names=NAMES))
    # the board draws a chain box when a view holds one (never a real public view: see secrecy)
    assert render_png("logic_square", dict(pub, chain=own1["chain"])) != render_png("logic_square", pub)
    # the seat that may answer sees the answer prompt: not the same as without one
    quiet = dict(own1, pending=None)
    assert render_png("logic_square", own1) != render_png("logic_square", quiet)
    # deeper in the chain the responder's picture lists the earlier declarations too
    deep = game.view(game.apply(state, 1, "chain ac11"), 0)
    assert [d["card"] for d in deep["chain"]] == ["ac13", "ac11"]
    short = dict(deep, chain=deep["chain"][-1:])
    assert decode(render_png("logic_square", deep)).height > decode(render_png("logic_square", short)).height
    # a finished chain shows which cards resolved, and the range of the last card
    done = game.apply(game.apply(state, 1, "chain ac11"), 0, "chain ac07")
    last = game.view(done, None)["last"]
    assert last["resolved"] == [2, 1] and last["chain"][0]["range"]
    decode(render_png("logic_square", game.view(done, None), locale="ja"))


def test_last_card_range_is_overlaid():
    state = game.position(hands={0: ["ac01", "ac02"]}, pos=("c2", "c4"))
    after = game.apply(state, 0, "use ac01")
    view = game.view(after, None)
    assert view["last"]["chain"][0]["range"]
    without = copy.deepcopy(view)
    without["last"]["chain"][0]["range"] = []
    assert render_png("logic_square", view) != render_png("logic_square", without)


@pytest.mark.parametrize("locale", ["en", "ja"])
def test_outcome_banner_renders(locale):
    state = game.position(hands={0: ["ac12"]}, pos=("c3", "c4"), life=(500, 100))
    over = game.apply(state, 0, "use ac12")
    view = game.view(over, None)
    assert view["outcome"] and view["outcome"]["winners"] == [0]
    won = render_png("logic_square", view, locale=locale, names=NAMES)
    decode(won)
    running = render_png("logic_square", dict(view, outcome=None), locale=locale, names=NAMES)
    draw = render_png("logic_square", dict(view, outcome={"winners": [], "reason": "decks_out"}),
                      locale=locale, names=NAMES)
    assert len({won, running, draw}) == 3
    decode(render_png("logic_square", game.view(over, 1), locale=locale, names=NAMES))


def test_japanese_text_is_drawn_with_real_glyphs_not_tofu():
    f = fonts.font(32, bold=True)
    notdef = f.getmask("\U000F0000\U000F0000")
    for word in ("手札", "覚醒", "耐久", "ライフ", "《AVI》"):
        mask = f.getmask(word)
        assert mask.getbbox() is not None
        assert bytes(mask) != bytes(notdef)
    texts = [v for k, v in i18n.catalog("ja").items() if k.startswith("render.ls.")]
    # every card name and text of the starter set, as views carry them
    cards = game.view(game.new_match(players=2, seed=1, options={}), 0)["cards"]
    full = game.cardset.views(list(game.cardset.cards))
    for card in list(cards.values()) + list(full.values()):
        texts += [card["name"]["ja"], card["text"]["ja"]]
    missing = {ch for text in texts for ch in text
               if not ch.isspace() and ch not in "{}" and not fonts.has_glyph(ch)}
    assert not missing


def test_render_ls_strings_exist_in_both_languages_with_the_same_placeholders():
    en = {k: v for k, v in i18n.catalog("en").items() if k.startswith("render.ls.")}
    ja = {k: v for k, v in i18n.catalog("ja").items() if k.startswith("render.ls.")}
    assert en and set(en) == set(ja)
    for key in en:
        assert i18n.placeholders(en[key]) == i18n.placeholders(ja[key]), key
    for loc in ("en", "ja"):
        data = json.loads((ROOT / "data" / "i18n" / loc / "render_ls.json").read_text("utf-8"))
        assert all(k.startswith("render.ls.") for k in data)



def test_render_image_returns_a_fresh_image_each_time():
    view = game.view(chain_state(), None)
    a = render_image("logic_square", view)
    a.paste((0, 0, 0), (0, 0, 100, 100))
    b = render_image("logic_square", view)
    assert b.getpixel((5, 5)) != (0, 0, 0)


@pytest.mark.parametrize("seat", [None, 1])
def test_command_line_writes_a_valid_png(tmp_path, seat):
    out = tmp_path / "ls.png"
    cmd = [sys.executable, "-m", "render", "--game", "logic_square", "--seed", "7", "--moves", "40",
           "--out", str(out), "--locale", "ja"]
    if seat is not None:
        cmd += ["--seat", str(seat)]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    img = decode(out.read_bytes())
    assert img.width in (500, 600)
