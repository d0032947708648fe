"""Plain-text views for the terminal (``python bot.py --local``), drawn from a view only.

>>> print(render_text("unknown", {"to_act": [0], "turn": 3}))
to_act: [0]
turn: 3
"""
from __future__ import annotations

import json
from typing import Callable

from data import i18n

_TEXT: dict[str, Callable[..., str]] = {}


def text_renderer(game: str):
    def deco(fn):
        _TEXT[game] = fn
        return fn
    return deco


def render_text(game: str, view: dict, *, locale: str = "en", names: list[str] | None = None) -> str:
    fn = _TEXT.get(game, _generic)
    return fn(view, locale=locale, names=names or [])


def _generic(view: dict, *, locale: str, names: list[str]) -> str:
    lines = []
    for key, value in view.items():
        if key in ("game", "seat"):
            continue
        lines.append(f"{key}: {json.dumps(value, ensure_ascii=False)}")
    return "\n".join(lines)


@text_renderer("squares")
def _squares(view: dict, *, locale: str, names: list[str]) -> str:
    """Rank 5 (seat 2's nearest row) on top, rank 1 at the bottom; ``S3`` = seat 1's piece,
    ``s3`` = seat 2's piece; ``*`` marks the centre row."""
    at = {p["square"]: p for p in view.get("pieces", [])}
    last = view.get("last") or {}
    marks = {last.get("from"), last.get("to")} - {None}
    sums, limits = view.get("row_sums", [[0] * 5] * 2), view.get("row_limits", [[8] * 5] * 2)
    name = lambda s: names[s] if s < len(names) else f"#{s + 1}"  # noqa: E731
    out = [f"      a    b    c    d    e     {name(0)} / {name(1)}"]
    for rank in range(5, 0, -1):
        cells = []
        for col in "abcde":
            sq = f"{col}{rank}"
            p = at.get(sq)
            label = " .. " if p is None else (" " + (p["label"] if p["owner"] == 0 else p["label"].lower()) + " ")
            if sq in marks:
                label = "[" + label[1:3] + "]"
            cells.append(label)
        centre = "*" if rank == 3 else " "
        out.append(f"  {rank}{centre} " + " ".join(cells)
                   + f"   {sums[0][rank - 1]}/{limits[0][rank - 1]}  {sums[1][rank - 1]}/{limits[1][rank - 1]}")
    for seat in (0, 1):
        res = view.get("reserves", [[], []])[seat]
        pieces = " ".join(f"{r['kind']}{r['number']}" for r in res) or "-"
        out.append(i18n.t("text.reserve", locale, name=name(seat), pieces=pieces))
    out.append(i18n.t("text.squares.key", locale))
    if last.get("command"):
        out.append(i18n.t("text.last", locale, name=name(last.get("seat", 0)), command=last["command"]))
    return "\n".join(out)
