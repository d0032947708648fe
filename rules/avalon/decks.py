"""Deck rules of Avalon's Sanctuary and the ``decks`` API (docs/engine.md, "Decks").

Rulebook (デッキの組み方): 40 cards plus 1 avatar; copies of one card by originality — ★1: 4,
★2: 3, ★3: 2, ★4: 1; ★5: only ONE ★5 card in the whole deck, whatever its name.

A spec is ``{"avatar": "a1", "cards": {"c01": 4, ...}}``.  Deck code: ``av1-<avatar>-<n><id>.…-<crc>``.

>>> from rules.avalon.decks import encode, decode
>>> code = encode({"avatar": "a1", "cards": {"c01": 4, "m01": 2}})
>>> code
'av1-a1-4c01.2m01-63a6'
>>> decode(code)
{'avatar': 'a1', 'cards': {'c01': 4, 'm01': 2}}
"""
from __future__ import annotations

import re
import zlib
from typing import Any

from rules.contract import en_text
from rules.avalon.card_text import card_text
from rules.avalon.messages import EN
from rules.deck_rules import read as read_rules

DECK_SIZE = 40
COPY_LIMIT = {1: 4, 2: 3, 3: 2, 4: 1, 5: 1}
STAR5_TOTAL = 1
PREFIX = "av1"
_ENTRY = re.compile(r"^([1-9]\d?)([a-z0-9]{2,6})$")


def normalise(spec: Any) -> dict:
    """A spec in canonical form (cards sorted, counts > 0); ValueError for a wrong shape."""
    if not isinstance(spec, dict) or set(spec) - {"avatar", "cards"}:
        raise ValueError('a deck is {"avatar": id, "cards": {card_id: copies}}')
    avatar = spec.get("avatar")
    if avatar is not None and not isinstance(avatar, str):
        raise ValueError(f"the deck's avatar must be a card id, not {avatar!r}")
    cards = spec.get("cards", {})
    if isinstance(cards, list):
        d: dict[str, int] = {}
        for c in cards:
            if not isinstance(c, str):
                raise ValueError("the deck's cards must be card ids")
            d[c] = d.get(c, 0) + 1
        cards = d
    if not isinstance(cards, dict):
        raise ValueError("the deck's cards must be an object card_id -> copies (or a list of ids)")
    out: dict[str, int] = {}
    for cid, n in cards.items():
        if not isinstance(cid, str) or isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 99:
            raise ValueError(f"copies of {cid!r} must be a whole number from 0 to 99, not {n!r}")
        if n:
            out[cid.strip().lower()] = out.get(cid.strip().lower(), 0) + n
    return {"avatar": avatar.strip().lower() if isinstance(avatar, str) else None,
            "cards": dict(sorted(out.items()))}


def _problem(key: str, **params: Any) -> dict:
    return {"key": key, "params": params, "text": en_text(EN, key, params)}


def check_rules(rules: Any) -> tuple[dict | None, dict | None]:
    """Limited deck rules (``{"size", "copies"}``, :mod:`rules.deck_rules`) checked for this
    game: 20–40 cards (the avatar not counted), copies 1..size.  ``(rules, None)`` or ``(None,
    the one problem)`` (``avalon.deck.rules_<reason>``)."""
    checked, problem = read_rules(rules, DECK_SIZE)
    if problem is not None:
        return None, _problem(f"avalon.deck.rules_{problem[0]}", **problem[1])
    return checked, None


def problems(cards: dict, spec: Any, rules: Any = None) -> list[dict]:
    """EVERY broken deck rule as ``{"key", "params", "text"}``; [] = legal.

    ``rules`` (limited play, :mod:`rules.deck_rules`): ``{"size": n, "copies": m or None}`` — the
    deck holds exactly ``n`` cards besides its avatar, and with ``m`` at most ``m`` copies of a
    name in place of the limits by originality; the one ★5 card in the whole deck and the avatar
    stay.  Bad rules are the one problem reported."""
    p = _problem
    limited = None
    if rules is not None:
        limited, bad = check_rules(rules)
        if bad is not None:
            return [bad]
    try:
        deck = normalise(spec)
    except ValueError as exc:
        return [p("avalon.deck.malformed", detail=str(exc))]
    out = []
    av = deck["avatar"]
    if av is None:
        out.append(p("avalon.deck.no_avatar"))
    elif av not in cards:
        out.append(p("avalon.deck.unknown_card", card=av))
    elif cards[av]["category"] != "avatar":
        out.append(p("avalon.deck.avatar_not_avatar", card=av))
    total = sum(deck["cards"].values())
    if limited is None and total != DECK_SIZE:
        out.append(p("avalon.deck.size", count=total))
    elif limited is not None and total != limited["size"]:
        out.append(p("avalon.deck.size_limited", count=total, size=limited["size"]))
    copies = limited["copies"] if limited is not None else None
    star5 = 0
    for cid, n in deck["cards"].items():
        c = cards.get(cid)
        if c is None:
            out.append(p("avalon.deck.unknown_card", card=cid))
            continue
        if c["category"] == "avatar":
            out.append(p("avalon.deck.avatar_in_deck", card=cid))
            continue
        if copies is not None:
            if n > copies:
                out.append(p("avalon.deck.limited_copies", card=cid, count=n, limit=copies))
        elif n > COPY_LIMIT[c["orig"]]:
            out.append(p("avalon.deck.copies", card=cid, count=n, stars=c["orig"], limit=COPY_LIMIT[c["orig"]]))
        if c["orig"] == 5:
            star5 += n
    if star5 > STAR5_TOTAL:
        out.append(p("avalon.deck.star5", count=star5))
    return out


def _crc(payload: str) -> str:
    return format(zlib.crc32(payload.encode()) & 0xFFFF, "04x")


def encode(spec: Any) -> str:
    deck = normalise(spec)
    body = ".".join(f"{n}{cid}" for cid, n in deck["cards"].items()) or "0"
    payload = f"{PREFIX}-{deck['avatar'] or 'none'}-{body}"
    return f"{payload}-{_crc(payload)}"


def decode(code: Any) -> dict:
    if not isinstance(code, str):
        raise ValueError("a deck code is text like av1-a1-4c01.3c02-1a2b")
    text = code.strip().lower()
    parts = text.split("-")
    if len(parts) != 4 or parts[0] != PREFIX:
        raise ValueError(f"{code!r} is not an Avalon's Sanctuary deck code (av1-<avatar>-<cards>-<check>)")
    payload = "-".join(parts[:3])
    if _crc(payload) != parts[3]:
        raise ValueError(f"the deck code {code!r} is damaged (its check digits do not match)")
    cards: dict[str, int] = {}
    if parts[2] != "0":
        for entry in parts[2].split("."):
            m = _ENTRY.match(entry)
            if not m:
                raise ValueError(f"{entry!r} in the deck code is not <copies><card id>")
            cards[m.group(2)] = cards.get(m.group(2), 0) + int(m.group(1))
    return {"avatar": None if parts[1] == "none" else parts[1], "cards": dict(sorted(cards.items()))}


def is_code(text: Any) -> bool:
    return isinstance(text, str) and text.strip().lower().startswith(PREFIX + "-")


SECTION = {"creature": {"en": "Creatures", "ja": "クリーチャー"},
           "support": {"en": "Battle supports", "ja": "戦闘支援"},
           "magic": {"en": "Magic", "ja": "魔法"},
           "avatar": {"en": "Avatar", "ja": "アバター"}}


class Decks:
    """The ``game.decks`` object of docs/engine.md."""

    def __init__(self, cards: dict, ready: dict) -> None:
        self._cards = cards
        self._ready = ready

    def cards(self) -> dict:
        out = {}
        for cid, c in self._cards.items():
            d = {k: v for k, v in c.items() if k != "id"}
            d["text"] = card_text(c)
            out[cid] = d
        return out

    def ready(self) -> dict:
        return {k: {"name": dict(v["name"]), "spec": normalise(v["spec"])} for k, v in self._ready.items()}

    def empty(self) -> dict:
        return {"avatar": None, "cards": {}}

    def add(self, spec: Any, card_id: str, n: int = 1) -> dict:
        deck = normalise(spec)
        cid = str(card_id).strip().lower()
        c = self._cards.get(cid)
        if c is None:
            raise ValueError(f"unknown card {card_id!r}")
        if c["category"] == "avatar":
            deck["avatar"] = cid
            return deck
        cards = dict(deck["cards"])
        cards[cid] = cards.get(cid, 0) + int(n)
        return normalise({"avatar": deck["avatar"], "cards": cards})

    def remove(self, spec: Any, card_id: str, n: int = 1) -> dict:
        deck = normalise(spec)
        cid = str(card_id).strip().lower()
        if deck["avatar"] == cid:
            deck["avatar"] = None
            return deck
        if cid not in deck["cards"]:
            raise ValueError(f"card {card_id!r} is not in the deck")
        cards = dict(deck["cards"])
        cards[cid] = max(0, cards[cid] - int(n))
        return normalise({"avatar": deck["avatar"], "cards": cards})

    def validate(self, spec: Any, rules: Any = None) -> list[dict]:
        """Every broken rule; ``rules``: limited deck rules (see :func:`problems`)."""
        return problems(self._cards, spec, rules)

    def encode(self, spec: Any) -> str:
        return encode(spec)

    def decode(self, code: str) -> dict:
        return decode(code)

    def describe(self, spec: Any) -> dict:
        deck = normalise(spec)
        sections = []
        if deck["avatar"]:
            sections.append({"title": dict(SECTION["avatar"]), "cards": [[deck["avatar"], 1]]})
        for cat in ("creature", "support", "magic"):
            rows = [[cid, n] for cid, n in deck["cards"].items()
                    if self._cards.get(cid, {}).get("category") == cat]
            if rows:
                sections.append({"title": dict(SECTION[cat]), "cards": rows})
        unknown = [[cid, n] for cid, n in deck["cards"].items() if cid not in self._cards]
        if unknown:
            sections.append({"title": {"en": "Unknown", "ja": "不明"}, "cards": unknown})
        return {"sections": sections, "total": sum(deck["cards"].values())}

    def resolve(self, item: Any, rules: Any = None) -> dict:
        """A ready-made deck id, a deck code or a spec -> a legal spec; ValueError listing every
        broken rule otherwise.  ``rules``: limited deck rules (a ready-made deck must fit them
        too), else constructed play."""
        if isinstance(item, str):
            key = item.strip().lower()
            if key in self._ready and rules is None:
                return normalise(self._ready[key]["spec"])
            if key in self._ready:
                spec = self._ready[key]["spec"]
            elif is_code(key):
                spec = decode(key)
            else:
                raise ValueError(f"unknown deck {item!r}; ready-made decks: {', '.join(self._ready)} "
                                 "(or a deck code av1-…)")
        else:
            spec = item
        probs = problems(self._cards, spec, rules)
        if probs:
            raise ValueError("illegal deck: " + "; ".join(x["text"] for x in probs))
        return normalise(spec)
