"""Every board picture fits its text (issue 33, "Fit every banner and label": shrink, wrap or
shorten, never cut or overlap — "Blitz Vecto" under a star, SQUARES' "Centre" label clipped at
the left edge, "Drive Lance, Sweep Code, …"), and a seat's board shows its hand readably.

For each game's board picture — the public view and a seat's view, in English and Japanese, at
the start, in the middle and at the end of random matches, and with a long result — every text
box recorded by :class:`render.fonts.drawn_boxes`:
- lies inside the picture (its canvas);
- overlaps no other text;
- is a whole label: nothing ends in "…" (lists say "and 3 more" through the catalog).
"""
from __future__ import annotations

import random
import sys

import pytest

from render import render_image
from render.fonts import drawn_boxes, drawn_text, overlaps
from rules import registry

GAMES = ["squares", "logic_square", "maken", "art_of_war", "avalon"]
NAMES = ["Alexandra Featherstonehaugh", "Bob"]          # a long display name and a short one


def _fresh_tiles() -> None:
    """Drop the cached tiles and backgrounds, so the text drawn on them is recorded too."""
    for name, module in list(sys.modules.items()):
        if not name.startswith("render.") or name == "render.fonts":
            continue
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)) and getattr(value, "__module__", "") == name:
                value.cache_clear()


def _positions(name: str, seed: int, plies=(0, 12, 40, 400)) -> list:
    game = registry.get(name)
    state = game.new_match(players=2, seed=seed, options={})
    rng = random.Random(seed)
    out = []
    for ply in range(max(plies) + 1):
        if ply in plies:
            out.append(state)
        if game.outcome(state) is not None or not game.to_act(state):
            out.append(state)
            break
        seat = game.to_act(state)[0]
        state = game.apply(state, seat, rng.choice(game.legal_commands(state, seat)))
    return out


def _problems(name: str, view: dict, locale: str) -> list[str]:
    _fresh_tiles()
    with drawn_boxes() as boxes:
        image = render_image(name, view, locale=locale, names=NAMES)
    out = []
    canvas = {id(image.im)}
    for b in boxes:
        x0, y0, x1, y1 = b.box
        if b.canvas in canvas and (x0 < 0 or y0 < 0 or x1 > image.width or y1 > image.height):
            out.append(f"{b.text!r} {b.box} outside the {image.width}x{image.height} picture")
        if b.text.rstrip().endswith("…"):
            out.append(f"{b.text!r} is cut")
    out += [f"{a.text!r} {a.box} overlaps {b.text!r} {b.box}" for a, b in overlaps(boxes)]
    return out


@pytest.mark.parametrize("name", GAMES)
def test_board_picture_text_is_whole_inside_and_apart(name: str) -> None:
    game = registry.get(name)
    problems = []
    for seed in (1, 3):
        states = _positions(name, seed)
        for k, state in enumerate(states):
            for seat in (None, 0):
                view = game.view(state, seat)
                views = [view]
                if k == 1 and seed == 1:              # a finished match with a long result
                    views.append(dict(view, outcome={"winners": [0], "reason": "turn_limit"}))
                for v in views:
                    for locale in ("en", "ja"):
                        problems += [f"seed {seed} position {k} seat {seat} {locale}: {p}"
                                     for p in _problems(name, v, locale)]
    assert not problems, "\n".join(problems[:15])


def _squares_view(**extra) -> dict:
    game = registry.get("squares")
    return dict(game.view(game.new_match(players=2, seed=1, options={}), None), **extra)


def test_squares_centre_label_is_drawn_inside_the_picture() -> None:
    _fresh_tiles()
    for locale, word in (("en", "Centre"), ("ja", "中央")):
        with drawn_boxes() as boxes:
            image = render_image("squares", _squares_view(), locale=locale, names=NAMES)
        labels = [b for b in boxes if b.text == word]
        assert labels, locale
        assert all(b.box[0] >= 0 and b.box[2] <= image.width for b in labels), labels


def test_logic_square_awakened_avi_name_is_whole_and_clear_of_the_star() -> None:
    """"Blitz Vecto" under a star: the name keeps the tile's width, the star goes by the life."""
    game = registry.get("logic_square")
    view = game.view(game.new_match(players=2, seed=1, options={}), None)
    for avi in view["board"]["avis"]:
        avi["awakened"] = True
    names = {(c.get("name") or {}).get("en") for c in view["cards"].values()}
    _fresh_tiles()
    with drawn_boxes() as boxes:
        render_image("logic_square", view, locale="en", names=NAMES)
    drawn = {b.text for b in boxes}
    assert names <= drawn, names - drawn
    assert "★" in drawn
    assert not overlaps(boxes)


def test_logic_square_trash_names_whole_cards_and_counts_the_rest() -> None:
    """The trash list shows whole card names and "and n more" — in Japanese with 、 and ほか n 枚."""
    game = registry.get("logic_square")
    state = _positions("logic_square", 1, plies=(0, 400))[-1]
    view = game.view(state, None)
    trash = max(len(p.get("trash") or []) for p in view["players"])
    assert trash > 8                                     # enough cards that not all fit
    for locale, more in (("en", " more"), ("ja", "枚")):
        with drawn_text() as drawn:
            render_image("logic_square", view, locale=locale, names=NAMES)
        texts = [t for _, t in drawn]
        assert any(t.endswith(more) for t in texts), texts[-6:]
        assert not [t for t in texts if t.endswith("…")]
        if locale == "ja":
            assert not [t for t in texts if "、" not in t and ", " in t and t.endswith(more)]


@pytest.mark.parametrize("name", ["maken", "art_of_war", "avalon"])
@pytest.mark.parametrize("locale", ["en", "ja"])
def test_a_seats_board_shows_its_hand_readably_on_a_phone(name: str, locale: str) -> None:
    """The board a seat sees draws its hand as the hand picture does: each card's whole text, no
    text under 8 px once the picture is shown 400 px wide."""
    game = registry.get(name)
    for state in _positions(name, 3, plies=(0, 12)):
        view = game.view(state, 0)
        if not view.get("hand"):
            continue
        with drawn_text() as drawn:
            image = render_image(name, view, locale=locale, names=NAMES)
        assert min(size for size, _ in drawn) * 400 / image.width >= 8
        shown = "".join("".join(t.split()) for _, t in drawn)
        cards = view.get("cards") or {}
        for cid in view["hand"]:
            card = (view.get("kings") or [{}])[0] if name == "art_of_war" and cid == "k" else \
                (view.get("units") or {}).get(cid) if name == "art_of_war" else cards.get(cid)
            text = ((card or {}).get("text") or {}).get(locale, "")
            assert "".join(text.split()) in shown, (cid, text)


def test_art_of_war_hand_heading_counts_in_the_readers_brackets() -> None:
    game = registry.get("art_of_war")
    view = game.view(_positions("art_of_war", 3, plies=(0, 12))[-1], 0)
    n = len(view["hand"])
    for part in ("full", "hand"):
        with drawn_text() as drawn:
            render_image("art_of_war", view, locale="ja", names=NAMES, part=part)
        texts = [t for _, t in drawn]
        assert f"あなたの手札（{n}）" in texts, part
        assert not [t for t in texts if f"({n})" in t]
