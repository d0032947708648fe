"""Avalon's Sanctuary pictures: smoke tests (PNG decodes, both locales, 2 and 4 players, public
and seat views) and the console text view."""
from __future__ import annotations

import io
import json
import random

import pytest
from PIL import Image

from render import render_png
from render.text import render_text
from rules import registry

game = registry.get("avalon")


def midgame(players: int, seed: int, steps: int = 120):
    rng = random.Random(seed)
    s = game.new_match(players=players, seed=seed, options={"mode": "intro"})
    for _ in range(steps):
        if game.outcome(s) is not None:
            break
        seat = rng.choice(game.to_act(s))
        legal = game.legal_commands(s, seat)
        pref = [c for c in legal if c.startswith(("advance", "invade", "summon"))]
        s = game.apply(s, seat, rng.choice(pref) if pref and rng.random() < 0.8 else rng.choice(legal))
    return s


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("locale", ["en", "ja"])
def test_pictures_decode_for_public_and_seat_views(players, locale):
    s = midgame(players, 3 + players)
    for seat in (None, 0, players - 1):
        view = game.view(s, seat)
        png = render_png("avalon", view, locale=locale, names=[f"P{i}" for i in range(players)])
        img = Image.open(io.BytesIO(png))
        img.load()
        assert img.size[0] == 600 and img.size[1] > 400      # a phone's width (issue 14)


def test_picture_of_a_pending_battle_and_a_waiting_joiner():
    s = game.new_match(players=3, seed=2, options={"leader": 0})
    s.players[0].lands[0] = [[["c02", ""]], "c02", 0]
    s.players[1].lands[0] = [[["c02", ""]], "c05", 0]
    s = game.join(s, 3)
    s = game.apply(game.apply(s, 0, "done"), 0, "ranged l1 p2l1")
    s = game.apply(s, 0, "support avatar")
    for seat in (None, 0, 1, 3):
        Image.open(io.BytesIO(render_png("avalon", game.view(s, seat), locale="ja"))).load()


def test_console_text_view_shows_lands_and_only_the_own_hand():
    s = midgame(3, 9, 60)
    pub = render_text("avalon", game.view(s, None), locale="en", names=["A", "B", "C"])
    assert "Sanctuary" in pub and "Your hand" not in pub
    mine = render_text("avalon", game.view(s, 1), locale="ja", names=["A", "B", "C"])
    assert "あなたの手札" in mine
    json.dumps(game.view(s, 1))


def test_dm_text_of_the_own_part_shows_the_hand_and_the_own_support_only():
    """DMs carry what only that seat sees (host.table.own_part): the hand, headed with the reader's
    own seat, and during a battle the seat's own secret support choice — no header of Nones."""
    from host.table import own_part
    s = game.new_match(players=3, seed=2, options={"leader": 0})
    s.players[0].lands[0] = [[["c02", ""]], "c02", 0]
    s.players[1].lands[0] = [[["c02", ""]], "c05", 0]
    s.players[0].hand[0] = "s06"
    # seat 1 holds no Battle Hymn of its own, so "s06" in its DM could only be seat 0's secret
    s.players[1].hand = ["s01" if c == "s06" else c for c in s.players[1].hand]
    s = game.apply(game.apply(s, 0, "done"), 0, "ranged l1 p2l1")
    s = game.apply(s, 0, "support s06")
    own = own_part(game.view(s, 0), game.view(s, None))
    text = render_text("avalon", own, locale="en", names=["A", "B", "C"])
    assert "None" not in text and "Avalon's Sanctuary" not in text     # no header (a card may be a Sanctuary Hymn)
    assert "Your hand (P1 A):" in text and "Battle support: Battle Hymn" in text
    for cid in s.players[0].hand:   # each card by name, never by its id
        assert own["cards"][cid]["name"]["en"] in text and cid not in text
    console = render_text("avalon", own, locale="en", names=["A", "B", "C"], notation=True)
    assert all(cid in console for cid in s.players[0].hand)
    other = render_text("avalon", own_part(game.view(s, 1), game.view(s, None)), locale="ja", names=[])
    assert "s06" not in other and "あなたの手札" in other
