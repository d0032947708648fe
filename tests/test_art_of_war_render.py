"""Art of War pictures: drawn from views only; PNGs decode in both locales, public and seat views."""
from __future__ import annotations

import io
import random
import re

from PIL import Image, ImageDraw

from render import art_of_war as aow_render
from render import has_renderer, render_png
from render.base import Ctx
from rules import registry

game = registry.get("art_of_war")


def _decode(png: bytes) -> Image.Image:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(png))
    img.load()
    return img


def _random_state(seed: int, moves: int):
    rng = random.Random(seed)
    state = game.new_match(2, seed, {})
    for _ in range(moves):
        if game.outcome(state) is not None:
            break
        seat = game.to_act(state)[0]
        state = game.apply(state, seat, rng.choice(game.legal_commands(state, seat)))
    return state


def test_art_of_war_has_its_own_drawer():
    assert has_renderer("art_of_war")


def test_public_and_seat_views_render_in_both_locales():
    for seed, moves in ((1, 0), (7, 30), (3, 60), (5, 400)):
        state = _random_state(seed, moves)
        for seat in (None, 0, 1):
            view = game.view(state, seat)
            for locale in ("en", "ja"):
                img = _decode(render_png("art_of_war", view, locale=locale, names=["Alice", "Bob"],
                                         clock={"deadline_in": 42, "turn_seconds": 300}))
                assert img.width == 520              # a phone's width (issue 14)
                banner = int(520 * 0.13) if view.get("outcome") else 0   # render: the result banner
                assert img.height > aow_render.H + banner  # status, last action (and the hand) below
                if seat is not None and view.get("hand"):
                    public = _decode(render_png("art_of_war", game.view(state, None), locale=locale,
                                                names=["Alice", "Bob"],
                                                clock={"deadline_in": 42, "turn_seconds": 300}))
                    assert img.height > public.height    # the hand strip for the DM picture


def test_same_view_same_bytes_and_window_view_renders():
    state = game.position(player=0, field={"b2": "0s", "b3": "1s/", "a3": "1g:1"},
                          hands={0: "ppp", 1: "g"})
    window = game.apply(state, 0, "attack b2 b3")
    for seat in (None, 0, 1):
        a = render_png("art_of_war", game.view(window, seat))
        assert a == render_png("art_of_war", game.view(window, seat))
        _decode(a)
    # the public picture of a hidden window is the picture of the moment before
    assert render_png("art_of_war", game.view(window, None)) == render_png("art_of_war", game.view(state, None))


def test_garbage_views_do_not_crash():
    for view in ({}, {"field": [{"square": "z9"}]}, {"players": [], "to_act": [5]}):
        _decode(render_png("art_of_war", view))


def test_text_view_for_the_console():
    from render.text import render_text

    state = game.position(player=0, field={"b2": "0s/", "b3": "1g:1"}, hands={0: "pk"}, waiting={1: "wa"})
    text = render_text("art_of_war", game.view(state, 0), locale="en", names=["Alice", "Bob"], notation=True)
    assert "S1/" in text and "G2-1" in text and "Waiting area (2 of 5, front first): WIZARD, ARCHER" in text
    assert re.search(r"Your hand: [A-Z ]*KING, PRIEST", text), text
    public = render_text("art_of_war", game.view(state, None), locale="ja", names=["Alice", "Bob"])
    assert "手札" in public and "Your hand" not in public and "あなたの手札" not in public


def test_text_of_a_seats_own_part_shows_only_its_private_sections():
    """A DM (and the console's private section) carries only what the public view lacks: the
    declaring seat's own part is its hand; the responder's adds the declaration it answers."""
    from host.table import own_part
    from render.text import render_text

    state = game.position(player=0, field={"b2": "0s", "b3": "1s"}, hands={0: "ppp", 1: "gk"})
    window = game.apply(state, 0, "attack b2 b3")
    public = game.view(window, None)
    mine = render_text("art_of_war", own_part(game.view(window, 0), public), locale="en", names=["Alice", "Bob"])
    assert mine == "Your hand: PRIEST ×3"
    theirs = render_text("art_of_war", own_part(game.view(window, 1), public), locale="en", names=["Alice", "Bob"])
    assert re.search(r"Your hand: [A-Z ]*KING, GUARDIAN", theirs), theirs
    assert "Answering: Alice attacks: SOLDIER (b2) → SOLDIER (b3), attack 3" in theirs
    assert re.search(r"Answer: support with GUARDIAN / support with [A-Z ]*KING as GUARDIAN / pass", theirs), theirs
    ja = render_text("art_of_war", own_part(game.view(window, 1), public), locale="ja", names=["Alice", "Bob"])
    assert "対応する宣言：Aliceの攻撃：ソルジャー（b2）→ソルジャー（b3）、攻撃力3" in ja


def test_the_pending_rear_support_is_named_for_the_wizard_answer():
    from render.text import render_text

    state = game.position(player=0, field={"b2": "0s", "b3": "1s"}, hands={0: "kp", 1: "w"})
    window = game.apply(state, 0, "support k a b3")
    text = render_text("art_of_war", game.view(window, 1), locale="en", names=["Alice", "Bob"])
    assert "Answering: Alice: ARCHER rear support (by the KING) — 1 damage to the unit on b3" in text
    png = render_png("art_of_war", game.view(window, 1), locale="en", names=["Alice", "Bob"])
    assert _decode(png).width == 520


def test_hand_picture_draws_each_cards_range_diagram():
    """The DM hand shows each card's attack, defence and range as in the rulebook (攻撃範囲: the card
    ■ at the bottom, squares in range marked).  WIZARD: 正面の列全て; GUARDIAN: 正面のみ."""
    def square(img, forward, sideways):
        cell = 14                                            # the card's diagram drawn at (0, 0)
        return img.getpixel(((sideways + 2) * cell + 5, (3 - forward) * cell + 5))

    def light(rgb):                 # a marked square is white (the PNG palette may shift it a little)
        return min(rgb) > 230

    for hand, marked in (("w", {(1, 0), (2, 0), (3, 0)}), ("g", {(1, 0)}), ("a", {(1, -2), (1, 2), (2, -1), (2, 1)})):
        view = game.view(game.position(player=0, field={"b2": "0s", "b3": "1s"}, hands={0: hand}), 0)
        img = Image.new("RGB", (aow_render.W, 200), (0, 114, 178))      # on a coloured ground
        # the hand picture and the hand under a seat's board draw the same cards (render.hand_sheet)
        card, = aow_render.hand_cards(view, Ctx("art_of_war", "en", ("Alice", "Bob"), None, None), 0, view["hand"])
        card.art[2](ImageDraw.Draw(img), 0, 0)
        for f in range(1, 4):
            for sw in range(-2, 3):
                assert light(square(img, f, sw)) == ((f, sw) in marked), (hand, f, sw)
        assert max(square(img, 0, 0)) < 80                       # the card itself: ■
