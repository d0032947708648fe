"""Shared pieces of every drawer: the drawer registry, the drawing context, colours, PNG output.

A drawer is ``fn(view: dict, ctx: Ctx) -> PIL.Image.Image`` registered with
``@register("game")``.  It must draw from ``view`` and ``ctx`` only (no clocks, no randomness,
no global mutable drawing state), so the same inputs always give the same picture.
"""
from __future__ import annotations

import io
import math
from dataclasses import dataclass
from typing import Any, Callable

from PIL import Image, ImageDraw

from data import i18n
from render import fonts

Drawer = Callable[[dict, "Ctx"], Image.Image]
_DRAWERS: dict[str, Drawer] = {}


def register(game: str) -> Callable[[Drawer], Drawer]:
    """Decorator: make ``fn`` the drawer of ``game``."""

    def deco(fn: Drawer) -> Drawer:
        if game in _DRAWERS and _DRAWERS[game] is not fn:
            raise ValueError(f"a drawer for {game!r} is already registered")
        _DRAWERS[game] = fn
        return fn

    return deco


def drawer(game: str) -> Drawer | None:
    return _DRAWERS.get(game)


_HAND_DRAWERS: dict[str, Drawer] = {}


def register_hand(game: str) -> Callable[[Drawer], Drawer]:
    """Decorator: make ``fn`` the drawer of ``game``'s HAND picture — what only the seat of a
    seat's own view may see (its hand, its secret choices), for the player's DM.  It shows
    nothing public that changes as others play, so the DM is edited only when the hand does."""

    def deco(fn: Drawer) -> Drawer:
        _HAND_DRAWERS[game] = fn
        return fn

    return deco


def hand_drawer(game: str) -> Drawer | None:
    return _HAND_DRAWERS.get(game)


def drawers() -> dict[str, Drawer]:
    return dict(_DRAWERS)


# --- colours (Okabe–Ito palette: tells apart for the common colour-vision deficiencies) -------
INK = (34, 34, 38)
MUTED = (110, 110, 118)
PAPER = (250, 248, 244)
LINE = (186, 178, 164)
RED = (200, 30, 40)
WHITE = (255, 255, 255)
HILITE = (240, 228, 66)            # Okabe–Ito yellow: last-move outline
SEAT_COLOURS = [(0, 114, 178), (230, 159, 0), (0, 158, 115), (204, 121, 167),
                (86, 180, 233), (213, 94, 0)]
SEAT_DARK = [(0, 78, 124), (158, 104, 0), (0, 104, 76), (150, 72, 115), (40, 120, 170),
             (150, 60, 0)]
SEAT_TEXT = [WHITE, INK, WHITE, INK, INK, WHITE]   # readable text on the seat colour
SEAT_TINT = [(222, 236, 246), (252, 238, 210), (214, 240, 230), (244, 226, 236),
             (226, 242, 252), (248, 222, 206)]


def seat_colour(seat: int) -> tuple[int, int, int]:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def seat_dark(seat: int) -> tuple[int, int, int]:
    return SEAT_DARK[seat % len(SEAT_DARK)]


def seat_text(seat: int) -> tuple[int, int, int]:
    return SEAT_TEXT[seat % len(SEAT_TEXT)]


def seat_tint(seat: int) -> tuple[int, int, int]:
    return SEAT_TINT[seat % len(SEAT_TINT)]


def format_duration(seconds: float, locale: str) -> str:
    """``mm:ss`` under an hour, else ``h h mm min`` (localized)."""
    s = max(0, int(math.ceil(seconds)))
    if s < 3600:
        return f"{s // 60:02d}:{s % 60:02d}"
    return i18n.t("render.hours", locale, h=s // 3600, m=f"{(s % 3600) // 60:02d}")


@dataclass(frozen=True)
class Ctx:
    """Everything besides the view that a picture may depend on."""

    game: str
    locale: str
    names: tuple[str, ...] | None
    clock: tuple[tuple[str, Any], ...] | None
    title: str | None

    def t(self, key: str, **params: Any) -> str:
        return i18n.t(key, self.locale, **params)

    def name(self, seat: int | None) -> str:
        if seat is None:
            return "?"
        if self.names and 0 <= seat < len(self.names):
            name = " ".join(fonts.printable(str(self.names[seat])).split())
            if name:
                return name
        return self.t("render.seat_default", n=seat + 1)

    def game_title(self) -> str:
        if self.title:
            return self.title
        key = f"game.{self.game}"
        text = self.t(key)
        return self.game if text == key else text

    def clock_text(self) -> str | None:
        """"Remaining mm:ss" from ``clock["deadline_in"]``, or None when there is no deadline."""
        clock = dict(self.clock or ())
        left = clock.get("deadline_in")
        if left is None:
            return None
        total = clock.get("turn_seconds")
        if total:
            return self.t("render.remaining_of", time=format_duration(left, self.locale),
                          total=format_duration(total, self.locale))
        return self.t("render.remaining", time=format_duration(left, self.locale))

    def clock_urgent(self) -> bool:
        left = dict(self.clock or ()).get("deadline_in")
        return left is not None and left <= 60

    def view_label(self, view: dict) -> str:
        seat = view.get("seat")
        if isinstance(seat, int):
            return self.t("render.view_of", name=self.name(seat))
        return self.t("render.public_view")

    def outcome_text(self, outcome: dict) -> tuple[str, str]:
        """(headline, reason) of an outcome, localized."""
        winners = list(outcome.get("winners") or [])
        if winners:
            head = self.t("render.wins", name=" & ".join(self.name(w) for w in winners))
        else:
            head = self.t("render.draw")
        reason = str(outcome.get("reason") or "")
        for key in (f"render.{self.game}.reason.{reason}", f"render.reason.{reason}"):
            if reason and i18n.has(key):
                return head, self.t(key)
        return head, reason


def reason_text(game: str, reason: Any, locale: str) -> str:
    """Why a match ended, in words: the game's own wording (``<game>.reason.<r>``), then the
    pictures' (``render.reason.<r>``), then the shared one (``reason.<r>``) — so an ending the
    host decides (a resignation, a timeout) reads as well as one the rules decide."""
    code = str(reason or "")
    for key in (f"{game}.reason.{code}", f"render.reason.{code}", f"reason.{code}"):
        if code and i18n.has(key):
            return i18n.t(key, locale)
    return code


def make_ctx(game: str, locale: Any, names, clock, title) -> Ctx:
    return Ctx(
        game=game,
        locale=i18n.locale_of(locale),
        names=tuple(str(n) for n in names) if names else None,
        clock=tuple(sorted((clock or {}).items())) if clock else None,
        title=title or None,
    )


def encode_png(img: Image.Image) -> bytes:
    """PNG bytes of a flat-colour picture: quantised to a 128-colour palette (fast octree, no
    dithering; deterministic), then a quick zlib pass.  ~25–35 kB instead of ~80 kB in RGB, and
    faster to compress.
    """
    if img.mode not in ("P", "L", "1"):
        if img.mode != "RGB":     # convert() copies even RGB -> RGB: ~1 ms for nothing
            img = img.convert("RGB")
        img = img.quantize(colors=128, method=Image.Quantize.FASTOCTREE,
                           dither=Image.Dither.NONE)
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=3)
    return buf.getvalue()


def rounded(draw: ImageDraw.ImageDraw, box, radius: int, fill=None, outline=None, width: int = 1):
    draw.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)


def _banner_layout(ctx: Ctx, outcome: dict, width: int, size: int):
    """(headline, its size and lines; reason, its size and lines) of a result banner ``width``
    px wide: shrunk, then wrapped (the headline to 2 lines, the reason to 3), never cut unless
    even the smallest readable size (8 px at 400 px wide) cannot hold it."""
    from render.textfit import fit_block, min_px

    head, _ = ctx.outcome_text(outcome)
    reason = reason_text(ctx.game, outcome.get("reason"), ctx.locale)
    least = max(10, min_px(width + 40))
    big, head_lines = fit_block(head, size, least, width, 2, True)
    small, reason_lines = fit_block(reason, max(least, int(size * 0.62)), least, width, 3) if reason else (0, ())
    return big, head_lines, small, reason_lines


def banner_height(ctx: Ctx, outcome: dict, box_width: int, size: int) -> int:
    """The height a :func:`result_banner` ``box_width`` wide needs for its text at ``size``."""
    pad = max(8, size // 2)
    big, head, small, reason = _banner_layout(ctx, outcome, box_width - 2 * pad, size)
    return int(len(head) * big * 1.3 + len(reason) * small * 1.35 + 2 * pad * 0.8) + 4


def result_banner(draw: ImageDraw.ImageDraw, ctx: Ctx, outcome: dict, box: tuple[int, int, int, int],
                  *, size: int = 0) -> None:
    """The result of a finished match across ``box`` (x0, y0, x1, y1): the winner (or a draw)
    large, and how it ended below it — the same on every game's final picture, whatever ended
    it (the rules, a resignation, a timeout).  ``size``: the headline's px (default: fits the
    box).  Every line is shrunk or wrapped to fit the box (:mod:`render.textfit`), never cut."""
    x0, y0, x1, y1 = box
    winners = list(outcome.get("winners") or [])
    colour = seat_dark(winners[0]) if len(winners) == 1 else INK
    rounded(draw, box, radius=max(6, min(24, (y1 - y0) // 6)), fill=(255, 250, 225), outline=colour, width=4)
    height = y1 - y0
    size = size or max(12, int(height * 0.38))
    pad = max(8, size // 2)
    big, head, small, reason = _banner_layout(ctx, outcome, x1 - x0 - 2 * pad, size)
    block = len(head) * big * 1.3 + len(reason) * small * 1.35
    y = y0 + (height - block) / 2
    cx = (x0 + x1) / 2
    for line in head:
        fonts.text(draw, (cx, y + big * 0.65), line, big, colour, bold=True, anchor="mm")
        y += big * 1.3
    for line in reason:
        fonts.text(draw, (cx, y + small * 0.68), line, small, INK, anchor="mm")
        y += small * 1.35


def hand_header(d: Any, ctx: "Ctx", seat: int, width: int, margin: int) -> int:
    """The top of a hand picture: whose hand, and the game.  No turn and no clock: a hand
    picture changes only when the hand does.  Returns the y below it."""
    from render.textfit import draw_fit, min_px

    least = max(12, min_px(width))
    draw_fit(d, (margin, 22), ctx.t("render.hand_title", name=ctx.name(seat)), 22, least, width - 2 * margin, INK,
             bold=True, anchor="lm")
    draw_fit(d, (margin, 48), ctx.game_title(), 14, least, width - 2 * margin, MUTED, anchor="lm")
    return 64


def said_text(view: dict, ctx: "Ctx") -> str | None:
    """The last public move in words (``view["said"]``, added by the host), as "Alice: Move
    Support 2 c1 → c2" in the picture's language; None without one, or when it is not the move
    the view's ``last`` shows (e.g. while a secret window holds the newest lines back)."""
    said = view.get("said")
    last = view.get("last")
    if not isinstance(said, dict) or not isinstance(last, dict) or said.get("command") != last.get("command"):
        return None
    text = said.get("text")
    if isinstance(text, dict):
        text = text.get(ctx.locale) or text.get("en")
    if not isinstance(text, str) or not text:
        return None
    return f"{said.get('name') or '?'}: {text}"


def card_name(view: dict, cid: Any, locale: str) -> str:
    """The name of card ``cid`` in the view's ``cards`` (in ``locale``, else English), or the id."""
    card = (view.get("cards") or {}).get(cid) if isinstance(cid, str) else None
    name = (card or {}).get("name") if isinstance(card, dict) else None
    if isinstance(name, dict):
        return str(name.get(locale) or name.get("en") or cid)
    return str(cid if cid is not None else "?")
