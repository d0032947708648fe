"""Card sets for the limited-play tests: a server's own set of each card game big enough to draft,
made from the shipped cards (each pool card copied under a new id and name) with a ``limited``
declaration — the upload a designer would make (docs/card_sets.md, "Limited play")."""
from __future__ import annotations

import json
from typing import Any

from data.card_sets import games

# the section of a game's card file that holds its pool cards, and how to tell one
POOL_SECTIONS = {
    "logic_square": ("cards", lambda c: c.get("category") in ("Ac", "Sc", "Br")),
    "maken": ("cards", lambda c: c.get("category") in ("attack", "support") or c.get("kind") in ("attack", "support")),
    "avalon": ("cards", lambda c: c.get("category") in ("creature", "support", "magic")),
    "art_of_war": ("kings", lambda c: True),       # an army's pool card is its KING
}


def shipped_cards(game: str) -> list[tuple[str, dict]]:
    ad = games.adapter(game)
    return ad.shipped_files(ad.newest_edition())


def cloned_set(game: str, copies: int = 2, *, limited: dict | None = None, suffix: str = "x") -> bytes:
    """An ``extend`` upload (one JSON file) adding ``copies`` renamed copies of every shipped pool
    card of ``game``, with ``limited`` as its declaration."""
    own: dict[str, list] = {}
    for _label, data in shipped_cards(game):
        for section, value in data.items():
            if not isinstance(value, list):
                continue
            for card in value:
                if not isinstance(card, dict) or "id" not in card or not _is_pool(game, section, card):
                    continue
                for k in range(1, copies + 1):
                    c = json.loads(json.dumps(card))
                    c["id"] = f"{suffix}{k}{card['id']}"[:16]
                    if isinstance(c.get("name"), dict):
                        c["name"] = {lang: f"{text} {suffix.upper()}{k}" for lang, text in c["name"].items()}
                    own.setdefault(section, []).append(c)
    body: dict[str, Any] = {"format": _format(game), **own}
    if limited is not None:
        body["limited"] = limited
    return json.dumps(body, ensure_ascii=False).encode("utf-8")


def clone_ids(game: str, copies: int = 2, *, where: Any = None, suffix: str = "x") -> list[str]:
    """The ids :func:`cloned_set` gives its copies of the shipped pool cards ``where(card)`` keeps."""
    out = []
    for _label, data in shipped_cards(game):
        for section, value in data.items():
            for card in value if isinstance(value, list) else []:
                if isinstance(card, dict) and "id" in card and _is_pool(game, section, card) and \
                        (where is None or where(card)):
                    out += [f"{suffix}{k}{card['id']}"[:16] for k in range(1, copies + 1)]
    return out


def _format(game: str) -> Any:
    for _label, data in shipped_cards(game):
        if "format" in data:
            return data["format"]
    return f"{game}/1" if game == "art_of_war" else 1     # Art of War's files name their game


def _is_pool(game: str, section: str, card: dict) -> bool:
    if game in POOL_SECTIONS:
        want, test = POOL_SECTIONS[game]
        return section == want and bool(test(card))
    return False


class Clock:
    """The host's clock in the limited-play tests: a fixed time a test moves by hand (``clock.t``)."""

    def __init__(self) -> None:
        self.t = 1_800_000_000.0

    def __call__(self) -> float:
        return self.t


__all__ = ["cloned_set", "clone_ids", "shipped_cards", "Clock"]
