"""The README's pictures, drawn by the bot's own code so they never go stale.

    python -m bench.readme [--out docs/pictures] [--locale en|ja]

(:mod:`bench.readme`: the command, which hands this module the Act menu as the cog builds it.)
:func:`write_all` writes, into ``--out`` (default ``docs/pictures``, git-ignored: pictures are
made, never committed):

- ``board_<game>.png`` — the public board of every registered game, after a fixed number of
  random legal commands from a fixed seed (:func:`render.__main__.play`, the same play as
  ``python -m render``), drawn by :func:`render.render_png` as the bot posts it;
- ``hand_<game>.png`` — the hand picture a player of that card game gets by DM
  (``render_png(..., part="hand")`` of the seat's own view);
- ``act_menu.png`` — the ephemeral **Act** menu, as Discord shows it to the player whose move it
  is: the text and the select's options built by :func:`cogs.components.build_menu` (handed in
  by :func:`bench.readme.menu_parts`) from the player's legal moves in words
  (:func:`menu_moves`: :func:`render.labels.choices`, what ``host.choices`` hands the cog), drawn
  with the project font.  Emoji the font cannot draw are left out of that picture.

Same arguments, same pictures: every position comes from a fixed seed.  ``tests/test_readme.py``
runs this script and checks that every picture the README embeds is made by it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from PIL import Image, ImageDraw

NAMES = ["Alice", "Bob", "Carol", "Dave"]


@dataclass(frozen=True)
class Scene:
    game: str
    seed: int
    moves: int
    players: int


# one position per game: a match under way, with pieces or cards on the table
BOARDS = (
    Scene("squares", 7, 30, 2),
    Scene("logic_square", 7, 30, 2),
    Scene("maken", 7, 40, 2),
    Scene("art_of_war", 7, 40, 2),
    Scene("avalon", 2, 60, 3),
)
# the hand picture of the flagship card game, seen by the seat whose move it is
HAND = Scene("logic_square", 7, 30, 2)
# the Act menu of an Art of War turn: attacks and rear supports, every one fits one select, so
# one pick plays it
MENU = Scene("art_of_war", 7, 40, 2)
MENU_MATCH_ID = 12


def pictures() -> list[str]:
    """The file names :func:`write_all` writes (for the README test)."""
    return ([f"board_{s.game}.png" for s in BOARDS] + [f"hand_{HAND.game}.png", "act_menu.png"])


def _position(scene: Scene):
    from render.__main__ import play

    game, state = play(scene.game, scene.seed, scene.moves, scene.players)
    return game, state


def board_png(scene: Scene, locale: str = "en") -> bytes:
    from render import render_png

    game, state = _position(scene)
    return render_png(scene.game, game.view(state, None), locale=locale, names=NAMES[:scene.players])


def _seat_to_act(game, state) -> int:
    seats = game.to_act(state)
    if not seats:
        raise ValueError("the scene's match has nobody to act; choose fewer moves")
    return sorted(seats)[0]


def hand_png(scene: Scene, locale: str = "en") -> bytes:
    from render import render_png

    game, state = _position(scene)
    seat = _seat_to_act(game, state)
    return render_png(scene.game, game.view(state, seat), locale=locale, names=NAMES[:scene.players],
                      part="hand")


# (content, placeholder, options) of the Act menu: ``options`` are (emoji, label, description) of
# the select, in order
MenuParts = tuple[str, str, list[tuple[str, str, str]]]


def menu_moves(scene: Scene, locale: str = "en") -> list:
    """The moves in words (:class:`render.labels.Choice`) of the seat to act at ``scene``, as
    ``host.choices`` hands them to the cog's Act menu."""
    from render.labels import choices

    game, state = _position(scene)
    seat = _seat_to_act(game, state)
    return choices(scene.game, game.view(state, seat), seat, game.legal_commands(state, seat), locale,
                   NAMES[:scene.players])


# Discord's dark theme, roughly: the message, its text, the select and its open list
_BG = (49, 51, 56)
_TEXT = (219, 222, 225)
_MUTED = (148, 155, 164)
_FIELD = (30, 31, 34)
_LIST = (43, 45, 49)
_ROW_LINE = (63, 65, 71)
_ACCENT = (88, 101, 242)


def _segments(line: str) -> list[tuple[str, bool]]:
    """A line of Discord markdown as (text, bold) runs (``**bold**`` only)."""
    parts = re.split(r"\*\*", line)
    return [(p, i % 2 == 1) for i, p in enumerate(parts) if p]


def menu_image(content: str, placeholder: str, options: list[tuple[str, str, str]], *, width: int = 560,
               bot_name: str = "Doujin Table") -> Image.Image:
    """The ephemeral Act message with its select opened, as a player sees it."""
    from render import fonts

    pad, size, small = 16, 15, 13
    inner = width - 2 * pad
    lines: list[tuple[str, bool]] = []
    for raw in content.split("\n"):
        for seg in fonts.wrap(fonts.printable(raw), size, inner):
            lines.append((seg, False))
    rows: list[tuple[str, list[str]]] = []
    for emoji, label, description in options:
        label = fonts.fit(fonts.printable(f"{emoji} {label}").strip(), size, inner - 24, bold=False)
        desc = list(fonts.wrap(fonts.printable(description), small, inner - 24)) if description else []
        rows.append((label, desc[:2]))
    line_h, small_h = size + 7, small + 5
    height = pad + 22 + len(lines) * line_h + 12 + 40 + 6
    height += sum(12 + line_h + len(d) * small_h for _, d in rows) + pad + 22
    img = Image.new("RGB", (width, height), _BG)
    d = ImageDraw.Draw(img)
    y = pad
    fonts.text(d, (pad, y), bot_name, size, (242, 243, 245), bold=True)
    tag_x = pad + fonts.text_width(bot_name, size, True) + 8
    d.rounded_rectangle((tag_x, y + 1, tag_x + 34, y + size + 3), 3, fill=_ACCENT)
    fonts.text(d, (tag_x + 17, y + size // 2 + 2), "APP", 10, (255, 255, 255), bold=True, anchor="mm")
    y += 22
    for raw in lines:
        x = pad
        for text, bold in _segments(raw[0]):
            fonts.text(d, (x, y), text, size, _TEXT, bold=bold)
            x += fonts.text_width(text, size, bold)
        y += line_h
    y += 12
    d.rounded_rectangle((pad, y, width - pad, y + 40), 4, fill=_FIELD)
    fonts.text(d, (pad + 12, y + 20), fonts.fit(fonts.printable(placeholder), size, inner - 40), size, _MUTED,
               anchor="lm")
    d.polygon([(width - pad - 24, y + 16), (width - pad - 12, y + 16), (width - pad - 18, y + 24)], fill=_TEXT)
    y += 46
    top = y
    d.rounded_rectangle((pad, top, width - pad, height - pad - 22), 4, fill=_LIST, outline=_FIELD)
    for i, (label, desc) in enumerate(rows):
        if i:
            d.line((pad + 8, y, width - pad - 8, y), fill=_ROW_LINE)
        y += 6
        fonts.text(d, (pad + 12, y), label, size, _TEXT)
        y += line_h
        for seg in desc:
            fonts.text(d, (pad + 12, y), seg, small, _MUTED)
            y += small_h
        y += 6
    fonts.text(d, (pad, height - pad - 14), "Only you can see this", small - 1, _MUTED)
    return img


def menu_png(parts: MenuParts) -> bytes:
    from render.base import encode_png

    content, placeholder, options = parts
    return encode_png(menu_image(content, placeholder, options))


def write_all(out: Path, locale: str, menu_parts: Callable[[Scene, str], MenuParts]) -> list[Path]:
    """Draw every picture into ``out`` (made if missing); returns the files written.
    ``menu_parts(scene, locale)``: the Act menu at a scene as the cog builds it."""
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []

    def put(name: str, data: bytes) -> None:
        path = out / name
        path.write_bytes(data)
        written.append(path)

    for scene in BOARDS:
        put(f"board_{scene.game}.png", board_png(scene, locale))
    put(f"hand_{HAND.game}.png", hand_png(HAND, locale))
    put("act_menu.png", menu_png(menu_parts(MENU, locale)))
    return written
