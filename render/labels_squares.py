"""SQUARES moves in words (see :mod:`render.labels`).

Notation (docs/rules/squares.md): ``place <piece> <square>`` puts a piece from the reserve on a
square of one's own first row, ``move <from> <to>`` one square orthogonally, ``leap <from> <to>``
exactly two squares (a Leap-up piece), ``swap <from> <to>`` exchanges a Swap-up piece with an
orthogonally adjacent piece, ``return <square>`` sends an own piece back to the reserve when a row
is over its limit.  A piece is named by its up side and number ("Support 1", 「援護1」); a move onto
an opponent's piece is a battle, and its label says against what.
"""
from __future__ import annotations

from data import i18n
from render.labels import Choice

EMOJI = {"place": "📥", "move": "➡️", "leap": "⤴️", "swap": "🔄", "return": "↩️"}


def _piece(side: str, number, locale: str) -> str:
    return i18n.t("labels.squares.piece", locale, side=i18n.t(f"squares.side.{side}", locale), n=number)


def choices(view: dict, seat: int, legal: list[str], locale: str, names: list[str]) -> list[Choice]:
    at = {p.get("square"): p for p in view.get("pieces") or [] if isinstance(p, dict)}

    def name(square: str) -> str:
        p = at.get(square)
        return _piece(p.get("side", "?"), p.get("number", "?"), locale) if p else square

    def t(key: str, **params) -> str:
        return i18n.t(f"labels.squares.{key}", locale, **params)

    out = []
    for command in legal:
        verb, *args = command.split()
        emoji = EMOJI.get(verb, "")
        if verb == "place" and len(args) == 2 and len(args[0]) >= 2:
            piece = _piece(args[0][0], args[0][1:], locale)
            out.append(Choice(command, t("place", piece=piece, to=args[1]), t("place.why"),
                              t("place.group", piece=piece), emoji))
        elif verb in ("move", "leap", "swap") and len(args) == 2:
            src, dst = args
            piece = name(src)
            target = at.get(dst)
            if verb == "swap":
                why = t("swap.why", other=name(dst)) if target else ""
            elif target and target.get("owner") != seat:
                why = t("battle", other=name(dst))
                emoji = "⚔️"
            else:
                why = ""
            out.append(Choice(command, t(verb, piece=piece, frm=src, to=dst), why,
                              t("group", piece=piece, at=src), emoji))
        elif verb == "return" and len(args) == 1:
            piece = name(args[0])
            out.append(Choice(command, t("return", piece=piece, at=args[0]), t("return.why"),
                              t("return.group"), emoji))
        else:
            out.append(Choice(command, t("other", command=command), "", t("other.group"), ""))
    return out
