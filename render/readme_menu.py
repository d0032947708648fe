"""The README's picture of the **Act** menu: what the menu says, and the picture of it.

:func:`act_menu_parts` builds, from a player's moves in words (:func:`render.labels.choices`)
and the catalog, the text, placeholder and options of the ephemeral Act message exactly as the
cog's ``build_menu`` (cogs/components.py) builds them when every move fits one select — the
case the README shows.  The renderer may not import the cogs (imports only go downward), so the
few rules are written out here; ``tests/test_readme_pictures.py`` asserts that they give what
``build_menu`` gives for the same moves, in English and Japanese, so the picture cannot drift
from the bot.

:func:`menu_image` draws that message with its select opened, roughly in Discord's dark theme,
with the project font (emoji the font cannot draw are left out of the picture).
"""
from __future__ import annotations

import re
from typing import Sequence

from PIL import Image, ImageDraw

from data import i18n
from render import fonts
from render.base import encode_png
from render.labels import TEXT_MAX, Choice

SELECT_MAX = 25          # Discord: options in one select (the cog's SELECT_MAX)
LABEL_MAX = TEXT_MAX     # Discord: an option's label and description (the cog's LABEL_MAX)
PLACEHOLDER_MAX = 150    # Discord: a select's placeholder

# (content, placeholder, options) of the Act menu: ``options`` are (emoji, label, description)
# of the select, in order ("" where the option has none)
MenuParts = tuple[str, str, list[tuple[str, str, str]]]


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters with "…" when longer (the cog's ``clip``)."""
    text = text or ""
    return text if len(text) <= limit else text[: max(0, limit - 1)] + "…"


def act_menu_parts(match_id: int, choices: Sequence[Choice], locale: str = "en") -> MenuParts:
    """The Act menu of match ``match_id`` for a player whose moves in words are ``choices``,
    when they fit one select (no groups, no pages, no multi-selects): the header line and the
    tap hint (``cogs.act.header``, ``cogs.act.tap``), the placeholder (``cogs.act.placeholder``)
    and one option per move, its label and description clipped to Discord's 100 characters.
    ``ValueError`` when there are no moves or more than one select holds."""
    if not choices or len(choices) > SELECT_MAX:
        raise ValueError(f"the one-select Act menu holds 1 to {SELECT_MAX} moves, not {len(choices)}")
    lines = [i18n.t("cogs.act.header", locale, match_id=match_id, n=len(choices)),
             i18n.t("cogs.act.tap", locale)]
    options = [(c.emoji or "", clip(c.label, LABEL_MAX), clip(c.description, LABEL_MAX)) for c in choices]
    return "\n".join(lines), clip(i18n.t("cogs.act.placeholder", locale), PLACEHOLDER_MAX), options


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


def menu_image(content: str, placeholder: str, options: list[tuple[str, str, str]], *, width: int = 480,
               bot_name: str = "Doujin Table", footer: str = "Only you can see this") -> Image.Image:
    """The ephemeral Act message with its select opened, as a player sees it.  480 px wide with
    16 px text and 14 px descriptions: shown 400 px wide on a phone, 13 and almost 12 px."""
    pad, size, small = 14, 16, 14
    inner = width - 2 * pad
    lines: list[str] = []
    for raw in content.split("\n"):
        lines.extend(fonts.wrap(fonts.printable(raw), size, inner))
    rows: list[tuple[str, list[str]]] = []
    for emoji, label, description in options:
        label = fonts.fit(fonts.printable(f"{emoji} {label}").strip(), size, inner - 24, bold=False)
        desc = list(fonts.wrap(fonts.printable(description), small, inner - 24)) if description else []
        rows.append((label, desc[:2]))
    line_h, small_h = size + 7, small + 5
    height = pad + 24 + len(lines) * line_h + 12 + 40 + 6
    height += sum(12 + line_h + len(d) * small_h for _, d in rows) + pad + 22
    img = Image.new("RGB", (width, height), _BG)
    d = ImageDraw.Draw(img)
    y = pad
    fonts.text(d, (pad, y), bot_name, size, (242, 243, 245), bold=True)
    tag_x = pad + fonts.text_width(bot_name, size, True) + 8
    d.rounded_rectangle((tag_x, y + 1, tag_x + 36, y + size + 3), 3, fill=_ACCENT)
    fonts.text(d, (tag_x + 18, y + size // 2 + 2), "APP", 11, (255, 255, 255), bold=True, anchor="mm")
    y += 24
    for raw in lines:
        x = pad
        for text, bold in _segments(raw):
            fonts.text(d, (x, y), text, size, _TEXT, bold=bold)
            x += fonts.text_width(text, size, bold)
        y += line_h
    y += 12
    d.rounded_rectangle((pad, y, width - pad, y + 40), 4, fill=_FIELD)
    fonts.text(d, (pad + 12, y + 20), fonts.fit(fonts.printable(placeholder), size, inner - 40), size, _MUTED,
               anchor="lm")
    d.polygon([(width - pad - 24, y + 16), (width - pad - 12, y + 16), (width - pad - 18, y + 24)], fill=_TEXT)
    y += 46
    d.rounded_rectangle((pad, y, width - pad, height - pad - 22), 4, fill=_LIST, outline=_FIELD)
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
    fonts.text(d, (pad, height - pad - 15), footer, small - 1, _MUTED)
    return img


def menu_png(parts: MenuParts, footer: str = "Only you can see this") -> bytes:
    """PNG of :func:`menu_image` for ``(content, placeholder, options)``."""
    content, placeholder, options = parts
    return encode_png(menu_image(content, placeholder, options, footer=footer))
