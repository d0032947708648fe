"""Pictures of game views (PNG), for Discord messages and the local console.

>>> from render import render_png, has_renderer
>>> has_renderer("squares")
True
>>> png = render_png("no_such_game", {"game": "no_such_game", "to_act": [0]})
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True

The API others call::

    render_png(game, view, *, locale="en", names=None, clock=None, title=None) -> bytes
    render_image(game, view, *, locale="en", names=None, clock=None, title=None) -> PIL.Image
    has_renderer(game) -> bool      # True if ``game`` has its own drawer (else: the text card)
    warm()                          # optional: fill the caches at start-up

- ``view`` is what ``game.view(state, seat)`` returned; a picture is drawn from it alone, never
  from raw state.  ``names``: display names per seat.  ``clock``:
  ``{"deadline_in": seconds | None, "turn_seconds": int | None}`` (drawn as "Remaining mm:ss").
  ``title``: an optional heading (default: the game's localized name).
- Pure and synchronous: the same arguments give a byte-identical PNG.  Thread-safe, so callers
  may run it with ``asyncio.to_thread``: fonts, static layers and piece tiles are cached
  (``functools.lru_cache``), FreeType calls hold ``render.fonts.LOCK``, and every call draws on
  its own copy of the cached background.
- Per-game drawers register with ``@render.base.register("name")``; games without one fall
  back to :mod:`render.generic`.  Text comes from the ``render.*`` keys of ``data/i18n``.
"""
from __future__ import annotations

import threading
from typing import Any

from PIL import Image, ImageDraw

from render.base import PAPER, banner_height, drawer, encode_png, hand_drawer, make_ctx, register, result_banner
from render.generic import draw_generic
from render import squares as _squares  # noqa: F401  (registers "squares")


def _discover() -> None:
    """Import ``render/<game>.py`` for every registered game that has one (it registers itself)."""
    import importlib

    from rules import registry

    for name in registry.names():
        try:
            importlib.import_module(f"render.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"render.{name}":
                raise


_discover()

__all__ = ["render_png", "render_image", "has_renderer", "register", "warm"]


def has_renderer(game: str) -> bool:
    """True if ``game`` has a dedicated drawer; others get the generic text card."""
    return drawer(game) is not None


def render_image(game: str, view: dict, *, locale: Any = "en", names: list[str] | None = None,
                 clock: dict | None = None, title: str | None = None, part: str = "full") -> Image.Image:
    """Draw ``view`` of ``game`` and return a new RGB image (the caller may modify it).

    ``part="hand"`` (a seat's own view): the game's hand picture for the player's DM, when the
    game has one (:func:`render.base.register_hand`); else the whole view."""
    ctx = make_ctx(game, locale, names, clock, title)
    fn = (hand_drawer(game) if part == "hand" and isinstance((view or {}).get("seat"), int) else None) \
        or drawer(game) or draw_generic
    image = fn(view or {}, ctx)
    outcome = (view or {}).get("outcome")
    if isinstance(outcome, dict):
        image = _with_result_banner(image, ctx, outcome)
    return image


def _with_result_banner(image: Image.Image, ctx: Any, outcome: dict) -> Image.Image:
    """The final picture of every game, whatever ended the match (the rules, a resignation, a
    timeout): a result banner across the top — who won, large, and how — sized to the picture's
    width, so it reads at a phone's width too."""
    w = image.width
    pad = max(6, w // 80)
    size = max(16, int(w * 0.045))
    h = max(64, int(w * 0.13), banner_height(ctx, outcome, w - 2 * pad, size) + pad + pad // 2)
    out = Image.new("RGB", (w, image.height + h), PAPER)
    out.paste(image.convert("RGB"), (0, h))
    result_banner(ImageDraw.Draw(out), ctx, outcome, (pad, pad, w - pad, h - pad // 2), size=size)
    return out


# Pictures drawn at once, at most.  Drawing is mostly Python holding the GIL, so a second drawing
# thread adds little throughput (~8 % on 2 cores) but makes the event loop, which needs the GIL
# too, wait about twice as long (loop lag p99 ~5 ms with one slot, ~10 ms with two, 20-30 ms
# with asyncio's default pool of threads).  Extra callers queue here without touching the GIL.
# See docs/performance.md, "The host, the pictures and the process".
SLOTS = 1


class _Slots:
    """At most ``n`` pictures drawn at once; a public picture (``view["seat"]`` is None) waiting
    for a slot goes before every private one, so a board update never queues behind hands
    (the host hands a Result over before its private pictures are drawn)."""

    def __init__(self, n: int) -> None:
        self._cond = threading.Condition()
        self._free = n
        self._public_waiting = 0

    def acquire(self, public: bool) -> None:
        with self._cond:
            if public:
                self._public_waiting += 1
            try:
                while self._free == 0 or (not public and self._public_waiting):
                    self._cond.wait()
            finally:
                if public:
                    self._public_waiting -= 1
            self._free -= 1

    def release(self) -> None:
        with self._cond:
            self._free += 1
            self._cond.notify_all()


_slots = _Slots(SLOTS)


def render_png(game: str, view: dict, *, locale: Any = "en", names: list[str] | None = None,
               clock: dict | None = None, title: str | None = None, part: str = "full") -> bytes:
    """Draw ``view`` of ``game`` as PNG bytes (same arguments -> same bytes)."""
    _slots.acquire(public=(view or {}).get("seat") is None)
    try:
        return encode_png(render_image(game, view, locale=locale, names=names, clock=clock,
                                       title=title, part=part))
    finally:
        _slots.release()


def warm(locales: tuple[str, ...] = ("en", "ja")) -> None:
    """Build the font, background and tile caches now (e.g. at bot start-up), so the first
    picture of each locale costs the same as the others (~12 ms instead of ~40 ms)."""
    from render.squares import warm as _warm_squares

    for locale in locales:
        view = _warm_squares(locale)
        render_png("squares", view, locale=locale, clock={"deadline_in": 90, "turn_seconds": 300})
        render_png("squares", dict(view, outcome=None), locale=locale)
        render_png("no_such_game", {"to_act": [0], "turn": 1}, locale=locale)
    # other games' drawers may offer warm(locale) too
    import sys

    from rules import registry

    for name in registry.names():
        module = sys.modules.get(f"render.{name}")
        fn = getattr(module, "warm", None) if name != "squares" else None
        if callable(fn):
            for locale in locales:
                fn(locale)
