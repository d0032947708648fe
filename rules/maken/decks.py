"""Project Maken decks (project ruling, docs/rules/maken.md "Decks"): one character card plus exactly 30 cards from that
character's own pool, at most 3 copies of a name; support cards count toward the 30.

A deck spec is ``{"character": id | None, "cards": {card_id: copies}}``.  Deck code:
``mk1-<character>-<entries>-<check>`` where entries are ``3ts01.ts02`` (3 copies of ts01, one
ts02) and ``check`` is 4 hex digits of CRC-32 of everything before it.

>>> from rules.maken.decks import encode_spec, decode_spec
>>> code = encode_spec({"character": "gou", "cards": {"gu01": 3, "gu02": 1}})
>>> code
'mk1-gou-3gu01.gu02-a55b'
>>> decode_spec(code)
{'character': 'gou', 'cards': {'gu01': 3, 'gu02': 1}}
"""
from __future__ import annotations

import re
import zlib
from typing import Any

from rules.contract import en_text
from rules.deck_rules import read as read_rules
from rules.maken.messages import EN

DECK_SIZE = 30
COPY_LIMIT = 3
PREFIX = "mk1"
_ID_RE = re.compile(r"^[a-z][a-z0-9_]{1,15}$")
_ENTRY_RE = re.compile(r"^([1-9]\d?)?([a-z][a-z0-9_]{1,15})$")


def _problem(key: str, **params: Any) -> dict:
    return {"key": key, "params": params, "text": en_text(EN, key, params)}


def normalise_spec(spec: Any) -> dict:
    """Shape check only: ``{"character": str|None, "cards": {id: n}}`` (a list of ids is accepted)."""
    if not isinstance(spec, dict):
        raise ValueError('a Project Maken deck is {"character": id, "cards": {card_id: copies}}')
    extra = set(spec) - {"character", "cards"}
    if extra:
        raise ValueError(f"unknown deck field {sorted(extra)[0]!r}; a deck has character and cards")
    ch = spec.get("character")
    if ch is not None and not isinstance(ch, str):
        raise ValueError(f"the deck's character must be a card id, not {ch!r}")
    cards = spec.get("cards", {})
    if isinstance(cards, list):
        counts: dict[str, int] = {}
        for c in cards:
            if not isinstance(c, str):
                raise ValueError("the deck's cards must be card ids")
            counts[c] = counts.get(c, 0) + 1
        cards = counts
    if not isinstance(cards, dict):
        raise ValueError("the deck's cards must be an object card id -> copies")
    out = {}
    for cid, n in cards.items():
        if not isinstance(cid, str) or isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ValueError(f"copies of {cid!r} must be a whole number ≥ 0, not {n!r}")
        if n:
            out[cid.strip().lower()] = out.get(cid.strip().lower(), 0) + n
    return {"character": ch.strip().lower() if isinstance(ch, str) else None,
            "cards": dict(sorted(out.items()))}


def check_rules(rules: Any) -> tuple[dict | None, dict | None]:
    """Limited deck rules (``{"size", "copies"}``, :mod:`rules.deck_rules`) checked for this
    game: 15–30 cards besides the character, copies 1..size.  ``(rules, None)`` or ``(None, the
    one problem)`` (``maken.deck.rules_<reason>``)."""
    checked, problem = read_rules(rules, DECK_SIZE)
    if problem is not None:
        return None, _problem(f"maken.deck.rules_{problem[0]}", **problem[1])
    return checked, None


def deck_problems(cardset: Any, spec: Any, rules: Any = None) -> list[dict]:
    """EVERY broken deck rule, each ``{"key", "params", "text"}``; ``[]`` = legal.

    ``rules`` (limited play, :mod:`rules.deck_rules`): ``{"size": n, "copies": m or None}`` — the
    deck holds exactly ``n`` cards besides its character, and with ``m`` at most ``m`` copies of
    a name in place of the 3; the character and its own pool stay.  Bad rules are the one
    problem reported."""
    size, copies, copies_key = DECK_SIZE, COPY_LIMIT, "maken.deck.copies"
    if rules is not None:
        limited, bad = check_rules(rules)
        if bad is not None:
            return [bad]
        size = limited["size"]
        if limited["copies"] is not None:
            copies, copies_key = limited["copies"], "maken.deck.limited_copies"
    try:
        deck = normalise_spec(spec)
    except ValueError as exc:
        return [_problem("maken.deck.malformed", detail=str(exc))]
    out = []
    ch = deck["character"]
    if ch is None:
        out.append(_problem("maken.deck.no_character"))
    elif ch not in cardset.characters:
        if ch in cardset.cards:
            out.append(_problem("maken.deck.character_not_character", card=ch))
        else:
            out.append(_problem("maken.deck.unknown_card", card=ch))
        ch = None
    total = sum(deck["cards"].values())
    if total != size:
        out.append(_problem("maken.deck.count", count=total, size=size))
    for cid, n in deck["cards"].items():
        if cid in cardset.characters:
            out.append(_problem("maken.deck.character_in_cards", card=cid))
            continue
        card = cardset.cards.get(cid)
        if card is None:
            out.append(_problem("maken.deck.unknown_card", card=cid))
            continue
        if n > copies:
            out.append(_problem(copies_key, card=cid, count=n, limit=copies))
        if ch is not None and card["character"] != ch:
            out.append(_problem("maken.deck.other_pool", card=cid, character=ch, owner=card["character"]))
    return out


def _check(payload: str) -> str:
    return format(zlib.crc32(payload.encode("utf-8")) & 0xFFFF, "04x")


class DeckCodeError(ValueError):
    def __init__(self, key: str, **params: Any) -> None:
        self.key, self.params = key, params
        super().__init__(en_text(EN, key, params))


def encode_spec(spec: Any) -> str:
    deck = normalise_spec(spec)
    entries = ".".join(f"{n}{c}" if n > 1 else c for c, n in deck["cards"].items())
    payload = "-".join([PREFIX, deck["character"] or "none", entries])
    return f"{payload}-{_check(payload)}"


def decode_spec(code: Any) -> dict:
    if not isinstance(code, str):
        raise DeckCodeError("maken.deck.code_invalid", code=str(code)[:60])
    text = code.strip().lower()
    parts = text.split("-")
    if len(parts) != 4 or parts[0] != PREFIX:
        raise DeckCodeError("maken.deck.code_invalid", code=code.strip()[:60])
    payload, check = "-".join(parts[:3]), parts[3]
    if _check(payload) != check:
        raise DeckCodeError("maken.deck.code_checksum", code=code.strip()[:60])
    ch = parts[1]
    if ch != "none" and not _ID_RE.match(ch):
        raise DeckCodeError("maken.deck.code_invalid", code=code.strip()[:60])
    cards: dict[str, int] = {}
    for entry in filter(None, parts[2].split(".")):
        m = _ENTRY_RE.match(entry)
        if not m:
            raise DeckCodeError("maken.deck.code_invalid", code=code.strip()[:60])
        cards[m.group(2)] = cards.get(m.group(2), 0) + int(m.group(1) or 1)
    return {"character": None if ch == "none" else ch, "cards": dict(sorted(cards.items()))}


class MakenDecks:
    """The ``game.decks`` API of docs/engine.md for Project Maken."""

    def __init__(self, cardset: Any) -> None:
        self.cs = cardset

    def cards(self) -> dict:
        out = {}
        for cid, c in self.cs.characters.items():
            out[cid] = {"name": dict(c["name"]), "category": "character", "text": dict(c["text"]),
                        "draw_limit": c["draw_limit"]}
        for cid, c in self.cs.cards.items():
            d = {k: (list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else v)
                 for k, v in c.items() if k not in ("id", "kind")}
            d["category"] = c["kind"]
            out[cid] = d
        return out

    def ready(self) -> dict:
        return {did: {"name": dict(d["name"]), "spec": {"character": d["spec"]["character"],
                                                       "cards": dict(d["spec"]["cards"])}}
                for did, d in self.cs.decks.items()}

    def empty(self) -> dict:
        return {"character": None, "cards": {}}

    def add(self, spec: dict, card_id: str, n: int = 1) -> dict:
        deck = normalise_spec(spec)
        cid = str(card_id).strip().lower()
        if cid in self.cs.characters:
            deck["character"] = cid
            return deck
        if cid not in self.cs.cards:
            raise ValueError(EN["maken.deck.unknown_card"].format(card=cid))
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"the number of copies must be a whole number ≥ 1, not {n!r}")
        deck["cards"][cid] = deck["cards"].get(cid, 0) + n
        deck["cards"] = dict(sorted(deck["cards"].items()))
        return deck

    def remove(self, spec: dict, card_id: str, n: int = 1) -> dict:
        deck = normalise_spec(spec)
        cid = str(card_id).strip().lower()
        if cid == deck["character"]:
            deck["character"] = None
            return deck
        if cid not in deck["cards"]:
            raise ValueError(EN["maken.deck.not_in_deck"].format(card=cid))
        left = deck["cards"][cid] - max(1, int(n))
        if left > 0:
            deck["cards"][cid] = left
        else:
            del deck["cards"][cid]
        return deck

    def validate(self, spec: Any, rules: Any = None) -> list[dict]:
        """Every broken rule; ``rules``: limited deck rules (see :func:`deck_problems`)."""
        return deck_problems(self.cs, spec, rules)

    def encode(self, spec: Any) -> str:
        return encode_spec(spec)

    def decode(self, code: str) -> dict:
        return decode_spec(code)

    def describe(self, spec: Any) -> dict:
        deck = normalise_spec(spec)
        sections = []
        if deck["character"]:
            sections.append({"title": {"en": "Character", "ja": "キャラクター"}, "cards": [[deck["character"], 1]]})
        attacks = [[c, n] for c, n in deck["cards"].items() if self.cs.cards.get(c, {}).get("kind") == "attack"]
        supports = [[c, n] for c, n in deck["cards"].items() if self.cs.cards.get(c, {}).get("kind") == "support"]
        unknown = [[c, n] for c, n in deck["cards"].items() if c not in self.cs.cards]
        sections.append({"title": {"en": "Attack cards", "ja": "攻撃カード"}, "cards": attacks})
        sections.append({"title": {"en": "Support cards", "ja": "補助カード"}, "cards": supports})
        if unknown:
            sections.append({"title": {"en": "Unknown cards", "ja": "不明なカード"}, "cards": unknown})
        return {"sections": sections, "total": sum(deck["cards"].values())}


__all__ = ["MakenDecks", "deck_problems", "check_rules", "normalise_spec", "encode_spec", "decode_spec",
           "DeckCodeError", "DECK_SIZE", "COPY_LIMIT"]
