"""Plain-text views for the terminal (``python bot.py --local``), drawn from a view only.

>>> print(render_text("unknown", {"to_act": [0], "turn": 3}))
to_act: [0]
turn: 3
"""
from __future__ import annotations

import json
from typing import Any, Callable

from data import i18n

_TEXT: dict[str, Callable[..., str]] = {}


def text_renderer(game: str):
    def deco(fn):
        _TEXT[game] = fn
        return fn
    return deco


def render_text(game: str, view: dict, *, locale: str = "en", names: list[str] | None = None,
                notation: bool = False) -> str:
    """``notation``: the console, where a player types commands: a card's id follows its name
    ("Pulse Jab (ac01)") and a board may be drawn as a grid of codes.  Without it (a player's
    DM) every card is named in words only."""
    fn = _TEXT.get(game, _generic)
    return fn(view, locale=locale, names=names or [], notation=notation)


def card_words(name: str, locale: str, cid: str | None = None, notation: bool = False) -> str:
    """A card as a text view names it: 「name」 in Japanese, its id after it only with ``notation``."""
    if notation and cid and cid != name:
        return i18n.t("text.card_id", locale, name=name, id=cid)
    return i18n.t("text.card", locale, name=name)


def card_with_text(card: str, text: str, locale: str) -> str:
    """A card (:func:`card_words`) and what it does."""
    return i18n.t("text.card_text", locale, card=card, text=text) if text else card


def move_words(game: str, view: dict, seat: int, command: str, locale: str, names: list[str],
               notation: bool = False) -> str:
    """A command in words, as the Act menu labels it (``view``: the position the labels read);
    its notation after the words only with ``notation`` (the console)."""
    from render.labels import choices, is_raw_id

    said = choices(game, view, seat, [command], locale, names)
    label = said[0].label if said else command
    if is_raw_id(label, [command]) or command in label:
        return f"`{command}`" if not notation else command
    return i18n.t("text.said", locale, label=label, command=command) if notation else label


def heading(label: str, locale: str) -> str:
    """A heading a list follows: "Your hand:" / 「あなたの手札：」."""
    return i18n.t("text.heading", locale, label=label)


def field(label: str, value: str, locale: str) -> str:
    """"label: value" with the reader's colon."""
    return i18n.t("text.field", locale, label=label, value=value)


_SKIP = {"game", "seat", "cards"}


def _generic(view: dict, *, locale: str, names: list[str], notation: bool = False) -> str:
    """Any game: one line per top-level key, nested data indented, card ids with their names."""
    cards = view.get("cards") if isinstance(view.get("cards"), dict) else {}
    lines: list[str] = []
    for key, value in view.items():
        if key in _SKIP:
            continue
        _emit(lines, key, value, cards, locale, names, 0)
    return "\n".join(lines)


def _card_label(value: Any, cards: dict, locale: str) -> str | None:
    if isinstance(value, str) and value in cards:
        name = (cards[value].get("name") or {}) if isinstance(cards[value], dict) else {}
        shown = name.get(locale) or name.get("en") if isinstance(name, dict) else None
        return f"{value} {shown}" if shown else value
    return None


def _scalar(value: Any, cards: dict, locale: str, names: list[str], key: str = "") -> str:
    label = _card_label(value, cards, locale)
    if label is not None:
        return label
    if key in ("seat", "player", "owner", "winner") and isinstance(value, int) and 0 <= value < len(names):
        return names[value]
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, (int, float, str)):
        return str(value)
    if isinstance(value, list) and all(not isinstance(v, (dict, list)) for v in value):
        return "[" + ", ".join(_scalar(v, cards, locale, names) for v in value) + "]"
    if isinstance(value, dict) and all(not isinstance(v, (dict, list)) for v in value.values()):
        return " ".join(f"{k}={_scalar(v, cards, locale, names, k)}" for k, v in value.items())
    return json.dumps(value, ensure_ascii=False)


def _emit(lines: list[str], key: str, value: Any, cards: dict, locale: str, names: list[str],
          depth: int) -> None:
    pad = "  " * depth
    simple_list = isinstance(value, list) and all(not isinstance(v, (dict, list)) for v in value)
    if not isinstance(value, (dict, list)) or simple_list or (
            isinstance(value, dict) and all(not isinstance(v, (dict, list)) for v in value.values())):
        lines.append(f"{pad}{key}: {_scalar(value, cards, locale, names, key)}")
        return
    lines.append(f"{pad}{key}:")
    if isinstance(value, dict):
        for k, v in value.items():
            _emit(lines, str(k), v, cards, locale, names, depth + 1)
    else:
        for i, v in enumerate(value):
            label = names[i] if key in ("players", "seats") and i < len(names) else f"- {i + 1}"
            if isinstance(v, dict) and all(not isinstance(x, (dict, list)) for x in v.values()):
                lines.append(f"{pad}  {label}: {_scalar(v, cards, locale, names)}")
            else:
                _emit(lines, label, v, cards, locale, names, depth + 1)


@text_renderer("squares")
def _squares(view: dict, *, locale: str, names: list[str], notation: bool = False) -> str:
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
    outcome = view.get("outcome")
    if outcome:
        from render.base import make_ctx, reason_text

        head, _ = make_ctx("squares", locale, names, None, None).outcome_text(outcome)
        reason = reason_text("squares", outcome.get("reason"), locale)
        out.append(f"★ {head}" + (f" — {reason}" if reason else ""))
    return "\n".join(out)
