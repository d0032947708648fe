"""Project Maken pictures: drawn from views only; PNG decodes in both locales, public and seat views."""
from __future__ import annotations

import io
import random

from PIL import Image

from render import has_renderer, render_png
from rules import registry

# a long random match of rules edition 1 (edition 2's matches are shorter)
game = registry.get("maken").for_edition(1)


def states():
    rng = random.Random(4)
    state = game.new_match(2, 4, {"first": 0})
    out = [state]
    while game.outcome(state) is None and len(out) < 400:
        seat = game.to_act(state)[0]
        state = game.apply(state, seat, rng.choice(game.legal_commands(state, seat)))
        out.append(state)
    return out[::37] + [out[-1]]


def test_maken_has_its_own_drawer():
    assert has_renderer("maken")


def test_pictures_decode_in_both_locales_public_and_seat_views():
    for state in states():
        for seat in (None, 0, 1):
            for locale in ("en", "ja"):
                png = render_png("maken", game.view(state, seat), locale=locale, names=["A", "B"],
                                 clock={"deadline_in": 42, "turn_seconds": 300})
                img = Image.open(io.BytesIO(png))
                img.load()
                assert img.size[0] == 600          # a phone's width (issue 14): text ≥ 12 px


def test_picture_is_a_pure_function_of_the_view():
    state = states()[3]
    view = game.view(state, None)
    assert render_png("maken", view) == render_png("maken", dict(view))


def test_empty_or_partial_views_do_not_crash():
    render_png("maken", {"game": "maken"})
    render_png("maken", {"game": "maken", "players": [{}, {}], "seat": 0, "hand": ["nope"]})


def test_text_view_for_the_console_full_and_partial():
    from render.text import render_text

    state = states()[3]
    for locale in ("en", "ja"):
        text = render_text("maken", game.view(state, None), locale=locale, names=["A", "B"])
        assert "LP" in text and "None" not in text
        own = {k: v for k, v in game.view(state, 0).items() if k in ("hand", "cards", "guard_cards")}
        text = render_text("maken", own, locale=locale, names=["A", "B"])
        assert "None" not in text
        for cid in own["hand"]:     # a DM names each card in words, never by its id
            assert own["cards"][cid]["name"][locale] in text and cid not in text
        console = render_text("maken", own, locale=locale, names=["A", "B"], notation=True)
        for cid in own["hand"]:     # the console, where ids are typed, shows the id after the name
            assert cid in console


def test_every_cards_text_fits_on_its_picture_in_both_locales():
    """Nothing printed on a card is cut: cost/gain and the bet/hit effects (e.g. 牽制's
    「ベット時:1ドロー(G3+)」, wider than a card) flow over the two lines above the icon, and a
    support card's text over its eight lines — no "…" on any card of any character."""
    from render.maken import CW, INK, TEXT, _card_notes, _flow

    cards = game.cardset.cards
    assert "ts10" in cards
    for cid, card in cards.items():
        if card.get("kind") not in ("attack", "support"):
            continue
        for locale in ("en", "ja"):
            if card.get("kind") == "support":
                text = card.get("text", {}).get(locale, "")
                lines = _flow([(w, INK) for w in text.split(" ")], TEXT, CW - 10, 8)
            else:
                lines = _card_notes(card, locale, 2)     # the room left on a card with unguardable marks
            printed = ["".join(run for run, _ in line) for line in lines]
            assert not any("…" in line for line in printed), (cid, locale, printed)
    ts10 = _card_notes(cards["ts10"], "ja")
    assert "".join(run for line in ts10 for run, _ in line).replace(" ", "") == "増加1ベット時:1ドロー(G3+)"
