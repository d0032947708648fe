"""Deck rules (rulebook section 3 and the project rulings, docs/rules/logic_square.md "Deck rules") and the shareable deck code.

:func:`validate_deck` is pure: it takes the card set and a deck spec and lists EVERY broken
rule at once, each as a :class:`DeckProblem` with a catalog key and its params (``/deck
validate`` shows them in the player's language).

>>> from rules.logic_square.decks import encode_deck, decode_deck
>>> spec = {"avi": "av01", "resources": ["ac01"] * 3 + ["sc01"], "it": ["it01", "it02"]}
>>> code = encode_deck(spec)
>>> code
'ls1-av01-3ac01.sc01-it01.it02-7576'
>>> decode_deck(code) == {"avi": "av01", "resources": ["ac01", "ac01", "ac01", "sc01"], "it": ["it01", "it02"]}
True
"""
from __future__ import annotations

import re
import zlib
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from rules.contract import en_text
from rules.deck_rules import read as read_rules
from rules.logic_square.messages import EN

RESOURCE_SIZE = 30
IT_SIZE = 5
COPY_LIMITS = {"white": 3, "green": 2, "blue": 1, "red": 1}
BLUE_TOTAL = 5
RED_TOTAL = 1
CODE_PREFIX = "ls1"
NO_AVI = "x"                      # in a code: a deck still without an AVI

_ID_RE = re.compile(r"^[a-z][a-z0-9_]{1,11}$")
_ENTRY_RE = re.compile(r"^([1-9]\d?)?([a-z][a-z0-9_]{1,11})$")


@dataclass(frozen=True)
class DeckProblem:
    """One broken deck rule: ``key`` (catalog key), ``params``, ``field`` (avi/resources/it)."""

    key: str
    params: dict = field(default_factory=dict)
    field: str = "resources"

    @property
    def message(self) -> str:
        return en_text(EN, self.key, self.params)


class DeckCodeError(ValueError):
    """A deck code that cannot be read; ``key``/``params`` for the catalog."""

    def __init__(self, key: str, **params: Any) -> None:
        self.key, self.params = key, params
        super().__init__(en_text(EN, key, params))


class DeckEditError(ValueError):
    """A deck edit that cannot be made (``game.decks.add``/``remove``); ``key``/``params`` for the catalog."""

    def __init__(self, key: str, **params: Any) -> None:
        self.key, self.params = key, params
        super().__init__(en_text(EN, key, params))


def normalise_deck(spec: Any) -> dict:
    """``{"avi": id, "resources": [ids] or {id: copies}, "it": [ids]}`` -> canonical form
    (resources sorted).  Raises ValueError when the shape is wrong (legality is not checked)."""
    if not isinstance(spec, dict):
        raise ValueError('a deck is {"avi": id, "resources": [30 ids], "it": [5 ids]}')
    extra = set(spec) - {"avi", "resources", "it"}
    if extra:
        raise ValueError(f"unknown deck field {sorted(extra)[0]!r}; a deck has avi, resources and it")
    avi = spec.get("avi")
    if avi is not None and not isinstance(avi, str):
        raise ValueError(f"the deck's avi must be a card id, not {avi!r}")
    res = spec.get("resources")
    if isinstance(res, dict):
        items: list[str] = []
        for cid, n in res.items():
            if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 30:
                raise ValueError(f"copies of {cid!r} must be a whole number from 1 to 30, not {n!r}")
            items += [cid] * n
        res = items
    if not isinstance(res, list) or not all(isinstance(c, str) for c in res):
        raise ValueError("the deck's resources must be a list of card ids (or an object id -> copies)")
    it = spec.get("it")
    if not isinstance(it, list) or not all(isinstance(c, str) for c in it):
        raise ValueError("the deck's it must be a list of IT card ids")
    return {"avi": avi.strip().lower() if avi else None, "resources": sorted(c.strip().lower() for c in res),
            "it": [c.strip().lower() for c in it]}


def check_rules(rules: Any) -> tuple[dict | None, DeckProblem | None]:
    """Limited deck rules (``{"size", "copies"}``, :mod:`rules.deck_rules`) checked for this
    game: the resource deck holds 15–30 cards, copies 1..size.  ``(rules, None)`` or
    ``(None, the one problem)`` (``logic_square.deck.rules_<reason>``)."""
    checked, problem = read_rules(rules, RESOURCE_SIZE)
    if problem is not None:
        return None, DeckProblem(f"logic_square.deck.rules_{problem[0]}", problem[1])
    return checked, None


def validate_deck(cardset: Any, spec: Any, rules: Any = None) -> list[DeckProblem]:
    """Every rule the deck breaks (an empty list = legal).

    Rules (rulebook 3 and the project rulings, docs/rules/logic_square.md): exactly 1 AVI; a resource deck of exactly 30 Ac/Sc/Br
    cards, white ≤ 3 per name, green ≤ 2 per name, blue ≤ 1 per name and ≤ 5 in total, red ≤ 1
    in total; an IT deck of exactly 5 different IT cards.

    ``rules`` (limited play, :mod:`rules.deck_rules`): ``{"size": n, "copies": m or None}`` — the
    resource deck holds exactly ``n`` cards, and with ``m`` every name at most ``m`` copies in
    place of the per-colour limits of a name; the blue and red totals, the AVI and the IT deck
    stay.  Bad rules are the one problem reported.
    """
    limited = None
    if rules is not None:
        limited, bad = check_rules(rules)
        if bad is not None:
            return [bad]
    try:
        deck = normalise_deck(spec)
    except ValueError as exc:
        return [DeckProblem("logic_square.deck.malformed", {"detail": str(exc)}, "resources")]
    out: list[DeckProblem] = []
    avi = cardset.get(deck["avi"]) if deck["avi"] else None
    if deck["avi"] is None:
        out.append(DeckProblem("logic_square.deck.avi_missing", {}, "avi"))
    elif avi is None:
        out.append(DeckProblem("logic_square.deck.unknown_card", {"card": deck["avi"], "part": "avi"}, "avi"))
    elif avi.category != "AVI":
        out.append(DeckProblem("logic_square.deck.avi_not_avi", {"card": avi.id, "category": avi.category}, "avi"))
    res = deck["resources"]
    if limited is None and len(res) != RESOURCE_SIZE:
        out.append(DeckProblem("logic_square.deck.resource_count", {"count": len(res)}, "resources"))
    elif limited is not None and len(res) != limited["size"]:
        out.append(DeckProblem("logic_square.deck.resource_count_limited", {"count": len(res),
                                                                             "size": limited["size"]}))
    copies = limited["copies"] if limited is not None else None
    counts = Counter(res)
    blue = red = 0
    for cid in sorted(counts, key=res.index):
        n = counts[cid]
        card = cardset.get(cid)
        if card is None:
            out.append(DeckProblem("logic_square.deck.unknown_card", {"card": cid, "part": "resources"}))
            continue
        if not card.is_resource:
            out.append(DeckProblem("logic_square.deck.not_resource", {"card": cid, "category": card.category}))
            continue
        if copies is not None:
            if n > copies:
                out.append(DeckProblem("logic_square.deck.limited_copies", {"card": cid, "count": n, "limit": copies}))
        elif n > COPY_LIMITS[card.colour]:
            out.append(DeckProblem(f"logic_square.deck.{card.colour}_copies", {"card": cid, "count": n}))
        if card.colour == "blue":
            blue += n
        elif card.colour == "red":
            red += n
    if blue > BLUE_TOTAL:
        out.append(DeckProblem("logic_square.deck.blue_total", {"count": blue}))
    if red > RED_TOTAL:
        out.append(DeckProblem("logic_square.deck.red_total", {"count": red}))
    it = deck["it"]
    if len(it) != IT_SIZE:
        out.append(DeckProblem("logic_square.deck.it_count", {"count": len(it)}, "it"))
    seen: set[str] = set()
    for cid in it:
        card = cardset.get(cid)
        if card is None:
            out.append(DeckProblem("logic_square.deck.unknown_card", {"card": cid, "part": "it"}, "it"))
        elif card.category != "IT":
            out.append(DeckProblem("logic_square.deck.it_not_it", {"card": cid, "category": card.category}, "it"))
        if cid in seen:
            out.append(DeckProblem("logic_square.deck.it_duplicate", {"card": cid}, "it"))
        seen.add(cid)
    return out


# --------------------------------------------------------------------------- deck code

def _checksum(payload: str) -> str:
    return format(zlib.crc32(payload.encode("utf-8")) & 0xFFFF, "04x")


def encode_deck(spec: Any) -> str:
    """A short, typeable code for a deck: ``ls1-<avi>-<resources>-<it>-<check>``.

    Resources are listed by id in sorted order, ``3ac01`` meaning 3 copies; entries are joined by
    ``.``; ``check`` is 4 hex digits of CRC-32 of everything before it.  Card ids (not indexes)
    make a code survive new cards being added to the set.  No spaces, commas or ``=``.
    """
    deck = normalise_deck(spec)
    counts = Counter(deck["resources"])
    res = ".".join((f"{counts[c]}{c}" if counts[c] > 1 else c) for c in sorted(counts))
    payload = "-".join([CODE_PREFIX, deck["avi"] or NO_AVI, res, ".".join(deck["it"])])
    return f"{payload}-{_checksum(payload)}"


def decode_deck(code: Any) -> dict:
    """The deck spec of a code made by :func:`encode_deck`; DeckCodeError if it cannot be read."""
    if not isinstance(code, str):
        raise DeckCodeError("logic_square.deck.code_invalid", code=str(code))
    text = code.strip().lower()
    parts = text.split("-")
    if len(parts) != 5 or parts[0] != CODE_PREFIX:
        raise DeckCodeError("logic_square.deck.code_invalid", code=code.strip()[:60])
    payload, check = "-".join(parts[:4]), parts[4]
    if _checksum(payload) != check:
        raise DeckCodeError("logic_square.deck.code_checksum", code=code.strip()[:60])
    _, avi, res_txt, it_txt = parts[:4]
    if avi != NO_AVI and not _ID_RE.match(avi):
        raise DeckCodeError("logic_square.deck.code_invalid", code=code.strip()[:60])
    resources: list[str] = []
    for entry in filter(None, res_txt.split(".")):
        m = _ENTRY_RE.match(entry)
        if not m:
            raise DeckCodeError("logic_square.deck.code_invalid", code=code.strip()[:60])
        resources += [m.group(2)] * int(m.group(1) or 1)
    it = [c for c in it_txt.split(".") if c]
    if not all(_ID_RE.match(c) for c in it):
        raise DeckCodeError("logic_square.deck.code_invalid", code=code.strip()[:60])
    return {"avi": None if avi == NO_AVI else avi, "resources": sorted(resources), "it": it}


def is_deck_code(text: Any) -> bool:
    return isinstance(text, str) and text.strip().lower().startswith(CODE_PREFIX + "-")


# --------------------------------------------------------------------------- game.decks

SECTION_TITLES = {
    "avi": {"en": "AVI", "ja": "《AVI》"},
    "white": {"en": "Resource deck: white", "ja": "リソースデッキ：白"},
    "green": {"en": "Resource deck: green", "ja": "リソースデッキ：緑"},
    "blue": {"en": "Resource deck: blue", "ja": "リソースデッキ：青"},
    "red": {"en": "Resource deck: red", "ja": "リソースデッキ：赤"},
    "it": {"en": "IT deck", "ja": "《IT》カードデッキ"},
    "unknown": {"en": "Unknown cards", "ja": "不明なカード"},
}


class LogicSquareDecks:
    """``game.decks`` (docs/engine.md "Decks"): deck building on top of a :class:`CardSet`.

    A spec is ``{"avi": id or None, "resources": [ids, sorted], "it": [ids]}``.

    >>> from rules.logic_square.files import load_logic_square
    >>> d = LogicSquareDecks(load_logic_square(env=False))
    >>> spec = d.add(d.add(d.empty(), "av01"), "ac01", 3)
    >>> spec
    {'avi': 'av01', 'resources': ['ac01', 'ac01', 'ac01'], 'it': []}
    >>> [p["key"] for p in d.validate(spec)]
    ['logic_square.deck.resource_count', 'logic_square.deck.it_count']
    >>> d.decode(d.encode(spec)) == spec
    True
    """

    def __init__(self, cardset: Any) -> None:
        self.cardset = cardset

    def cards(self) -> dict[str, dict]:
        return self.cardset.views(self.cardset.ids())

    def ready(self) -> dict[str, dict]:
        return {did: {"name": dict(deck.name), "spec": deck.to_spec()} for did, deck in self.cardset.decks.items()}

    def empty(self) -> dict:
        return {"avi": None, "resources": [], "it": []}

    def _card(self, card_id: Any):
        card = self.cardset.get(str(card_id).strip().lower()) if card_id is not None else None
        if card is None:
            raise ValueError(f"unknown card {card_id!r}")
        return card

    def add(self, spec: Any, card_id: str, n: int = 1) -> dict:
        """Add ``n`` copies (an AVI replaces the deck's AVI; limits are checked by validate)."""
        deck = normalise_deck(spec)
        card = self._card(card_id)
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"the number of copies must be a whole number from 1, not {n!r}")
        if card.category == "AVI":
            if n != 1:
                raise DeckEditError("logic_square.deck.edit_one_avi", card=card.id)
            deck["avi"] = card.id
        elif card.category == "IT":
            deck["it"] = deck["it"] + [card.id] * n
        else:
            deck["resources"] = sorted(deck["resources"] + [card.id] * n)
        return deck

    def remove(self, spec: Any, card_id: str, n: int = 1) -> dict:
        """Remove up to ``n`` copies; ValueError if the card is not in the deck."""
        deck = normalise_deck(spec)
        cid = str(card_id).strip().lower()
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"the number of copies must be a whole number from 1, not {n!r}")
        if deck["avi"] == cid:
            deck["avi"] = None
            return deck
        for part in ("resources", "it"):
            if cid in deck[part]:
                items = list(deck[part])
                for _ in range(min(n, items.count(cid))):
                    items.remove(cid)
                deck[part] = items
                return deck
        raise DeckEditError("logic_square.deck.edit_not_in_deck", card=cid)

    def validate(self, spec: Any, rules: Any = None) -> list[dict]:
        """Every broken rule; ``rules``: limited deck rules (see :func:`validate_deck`)."""
        return [{"key": p.key, "params": dict(p.params), "text": p.message}
                for p in validate_deck(self.cardset, spec, rules)]

    def encode(self, spec: Any) -> str:
        return encode_deck(spec)

    def decode(self, code: str) -> dict:
        return decode_deck(code)

    def describe(self, spec: Any) -> dict:
        deck = normalise_deck(spec)
        groups: dict[str, Counter] = {}
        if deck["avi"]:
            groups["avi" if deck["avi"] in self.cardset else "unknown"] = Counter([deck["avi"]])
        for cid in deck["resources"]:
            card = self.cardset.get(cid)
            key = card.colour if card is not None and card.is_resource else "unknown"
            groups.setdefault(key, Counter())[cid] += 1
        for cid in deck["it"]:
            key = "it" if cid in self.cardset else "unknown"
            groups.setdefault(key, Counter())[cid] += 1
        sections = [{"title": dict(SECTION_TITLES[k]), "cards": [[c, n] for c, n in sorted(groups[k].items())]}
                    for k in SECTION_TITLES if k in groups]
        total = (1 if deck["avi"] else 0) + len(deck["resources"]) + len(deck["it"])
        return {"sections": sections, "total": total}


__all__ = ["LogicSquareDecks", "DeckProblem", "DeckCodeError", "DeckEditError", "normalise_deck", "validate_deck",
           "check_rules", "encode_deck",
           "decode_deck", "is_deck_code", "RESOURCE_SIZE", "IT_SIZE", "COPY_LIMITS"]
