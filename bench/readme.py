"""``python -m bench.readme [--out DIR] [--locale en|ja]``: the README's pictures (a board per
game, a hand, the Act menu), drawn by :mod:`render.readme` into ``--out`` (default
``docs/pictures``, git-ignored).  The Act menu is handed to the renderer as the cog builds it
(:func:`menu_parts`, :func:`cogs.components.build_menu`), which is why the command lives here,
above the cogs.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import discord

from cogs.components import build_menu
from render.readme import MENU, MENU_MATCH_ID, MenuParts, Scene, menu_moves, write_all

DEFAULT_OUT = Path("docs") / "pictures"


def menu_parts(scene: Scene = MENU, locale: str = "en") -> MenuParts:
    """(content, placeholder, options) of the Act menu at ``scene``, exactly as the cog builds
    them: ``options`` are (emoji, label, description) of the select, in order."""
    content, view = build_menu(MENU_MATCH_ID, menu_moves(scene, locale), 0, 0, locale)
    items = [getattr(item, "item", item) for item in view.children]   # a DynamicItem wraps its select
    select = next(item for item in items if isinstance(item, discord.ui.Select))
    options = [(str(o.emoji or ""), o.label, o.description or "") for o in select.options]
    return content, select.placeholder or "", options


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.readme",
        description="Draw the README's pictures (a board per game, a hand, the Act menu) from the renderer.")
    parser.add_argument("--out", default=str(DEFAULT_OUT), help="folder to write into (default: docs/pictures)")
    parser.add_argument("--locale", default="en", choices=["en", "ja"], help="language of the pictures")
    args = parser.parse_args(argv)
    for path in write_all(Path(args.out), args.locale, menu_parts):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
