"""Every game's pictures read on a phone (issue 14, "Pictures for phones").

Discord shows a picture about 400 px wide on a phone.  For every game (Avalon's Sanctuary with
2, 3 and 4 players), in both languages, public and private views, at the start, in the middle,
at an ending the rules decide and at one the host decides (a resignation, a timeout):
- no text is smaller than 8 px once the picture is scaled to 400 px wide;
- the final picture says who won and how (the result banner), in the picture's language.

The sizes are those :func:`render.fonts.text` was asked to draw (every drawer draws its text
through it), recorded with :class:`render.fonts.drawn_text`.
"""
from __future__ import annotations

import random

import pytest

from data import i18n
from render import render_image
from render.base import reason_text
from render.fonts import drawn_text
from rules import registry

PHONE_WIDTH = 400
MIN_PX = 8.0
NAMES = ["Alice", "Bob", "Carol", "Dave"]


def _cases():
    for name in registry.names():
        for players in ([2, 3, 4] if name == "avalon" else [2]):
            yield pytest.param(name, players, id=f"{name}-{players}p")


def _positions(game, players: int, seed: int):
    """(label, state): the start, a middle position and the end of one random match."""
    state = game.new_match(players=players, seed=seed, options={})
    out = [("start", state)]
    rng = random.Random(seed)
    for ply in range(4000):
        if game.outcome(state) is not None:
            break
        seats = game.to_act(state)
        if not seats:
            break
        seat = seats[0]
        state = game.apply(state, seat, rng.choice(game.legal_commands(state, seat)))
        if ply == 25:
            out.append(("middle", state))
    out.append(("end", state))
    return out


def _smallest_at_phone_width(name: str, view: dict, locale: str, players: int, part: str = "full"):
    with drawn_text() as drawn:
        image = render_image(name, view, locale=locale, names=NAMES[:players],
                             clock={"deadline_in": 3000, "turn_seconds": 86400}, part=part)
    assert drawn, f"{name}: nothing drawn as text"
    scale = PHONE_WIDTH / image.width
    size, text = min(drawn)
    return size * scale, text, drawn, image


@pytest.mark.parametrize("name,players", list(_cases()))
@pytest.mark.parametrize("locale", ["en", "ja"])
def test_no_text_under_8px_at_phone_width(name: str, players: int, locale: str) -> None:
    game = registry.get(name)
    problems = []
    for label, state in _positions(game, players, seed=7):
        for seat in [None] + list(range(players)):
            view = game.view(state, seat)
            for part in ("full",) if seat is None else ("full", "hand"):   # hand: the DM picture
                px, text, _, image = _smallest_at_phone_width(name, view, locale, players, part)
                if px < MIN_PX:
                    problems.append(f"{label} seat={seat} {part} {image.width}px wide: {text!r} is {px:.1f}px at 400")
    assert not problems, "\n".join(problems[:10])


@pytest.mark.parametrize("name,players", list(_cases()))
@pytest.mark.parametrize("locale", ["en", "ja"])
@pytest.mark.parametrize("reason", ["resign", "timeout"])
def test_final_picture_has_result_banner(name: str, players: int, locale: str, reason: str) -> None:
    """A match the host ended (resignation, timeout) shows the winner and how on its picture —
    host.replay._final_view hands the drawer the view with this outcome."""
    game = registry.get(name)
    state = _positions(game, players, seed=3)[1][1]
    for seat in (None, 0):
        view = {**game.view(state, seat), "to_act": [], "outcome": {"winners": [1], "reason": reason}}
        px, text, drawn, _ = _smallest_at_phone_width(name, view, locale, players)
        strings = " ".join(s for _, s in drawn)
        assert i18n.t("render.wins", locale, name=NAMES[1]) in strings
        assert reason_text(name, reason, locale) in strings
