"""A card set's *limited declaration*: what sealed pools and drafts of the set are dealt from.

The standing ruling of limited play: a sealed pool or a draft changes what a player may build
from, never how the game is played.  A set may declare, for limited play only, the deck size
(within the game's own range) and the copies allowed of one card; each deck keeps the part its
game requires — a Battle Logic Square deck its AVI and IT deck, a Project Maken deck its
character, an Art of War army its KING, an Avalon's Sanctuary deck its avatar — taken from the
pool where the pool has them, otherwise chosen from the set as in constructed play.  The
opening, the turn, damage and victory stay as the rulebook says.

The declaration is the top-level ``limited`` key of an uploaded JSON card file (any one file of
the upload; a CSV cannot hold it — put a JSON file beside the CSVs in the zip).  Every part is
optional::

    "limited": {
      "deck": {"size": 30, "copies": 1},
      "cube": ["c001", "c002"],
      "rarities": {"common": ["c001"], "rare": ["c002"]},
      "boosters": {"packs": 3, "size": 15,
                   "slots": [{"rarity": "rare", "count": 1}, {"kind": "it", "count": 1}, …]}
    }

- ``deck.size`` — how many cards a limited deck holds, counted as :data:`GAME_RULES` says for
  each game (``part``): every game's rulebook fixes one number, and "within its range" means
  from half of that number (rounded up) to the number itself — never more than the rulebook's
  deck, never so few that the opening (a hand of five, Project Maken's three LP cards, Art of
  War's kingdom card) takes most of it, so the rules of the opening, the turn, damage and
  victory (deck-out included) act as written.  Default: the rulebook's number.
- ``deck.copies`` — the most copies of one card a limited deck may hold, from 1 to the deck
  size (default: the game's own per-card limits).  Art of War has none to declare: an army
  holds one KING and the rulebook's basic units in any mix.
- ``cube`` — the cards a cube draft deals, each at most once (default: :func:`default_cube`,
  every pool card of the set once).
- ``rarities`` — rarity name → its cards; a card has at most one rarity.  Names are lower-case
  ids (``common``, ``rare``, ``mythic``), at most :data:`MAX_RARITIES`.
- ``boosters`` — ``packs`` a player (1–5), ``size`` cards a pack (5–20), and ``slots`` filled in
  order, each ``count`` (1–30) cards of a ``rarity``, of a ``kind`` (every card of the set of
  that kind), or of both; the counts add up to ``size``.  Boosters are dealt only when declared.

Which cards limited play deals is a matter of their *kind* (:attr:`data.card_sets.model.Entry.kind`,
the CSV layout's kind): a game's **pool cards** (the default cube) and its **kept** kinds (the
part a deck keeps) may be named in a cube, a rarity or a slot; any other kind (an Art of War
basic unit: the rulebook's, never dealt) may not.  See :data:`GAME_RULES` and
``docs/card_sets.md`` ("Limited play").

Checking (:func:`parse`) names every problem with its field (``limited.cube[3]``) in the
upload's words (``cardcheck.<key>``), limits first: a list past its limit is refused before its
ids are looked at.  With the set's card kinds it also refuses an unknown card, a card of a kind
never dealt, and slots the set cannot fill (see :func:`slot_problems`).

>>> decl = Limited.from_json({"deck": {"size": 20}, "cube": ["b", "a"]}, "maken")
>>> decl.deck_size, decl.cube, decl.to_json()
(20, ('b', 'a'), {'deck': {'size': 20}, 'cube': ['b', 'a']})
>>> [e.key for e in parse({"deck": {"size": 40}}, "maken")[1]]
['limited_deck_size']
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from data.card_sets import keys
from rules.art_of_war.cards import DECK_UNITS
from rules.avalon.decks import DECK_SIZE as AVALON_DECK
from rules.card_errors import CardDataError
from rules.logic_square.decks import RESOURCE_SIZE
from rules.maken.decks import DECK_SIZE as MAKEN_DECK

LIMITED = keys.LIMITED            # the top-level key of a card file: "limited"
PARTS = ("deck", "cube", "rarities", "boosters")
DECK_FIELDS = ("size", "copies")
BOOSTER_FIELDS = ("packs", "size", "slots")
SLOT_FIELDS = ("rarity", "kind", "count")
MAX_CUBE = 1_000                  # cards a cube lists (and all the rarities together)
MAX_RARITIES = 8
MAX_SLOTS = 20                    # slots of a booster (each of at least one card: a pack holds at most 20)
PACKS = (1, 5)                    # packs a player opens
PACK_SIZE = (5, 20)               # cards a pack
SLOT_COUNT = (1, 30)              # cards a slot
ANY_DECK = (1, 60)                # a deck size read without its game (the largest rulebook deck is 40)
_NAME = re.compile(r"^[a-z][a-z0-9_]{0,15}$")


@dataclass(frozen=True)
class GameLimited:
    """What limited play deals of one game: ``pool`` the kinds of its pool cards (the default
    cube), ``kept`` the kinds of the part a deck keeps (a cube or booster may hold them too),
    ``deck`` the rulebook's deck size and ``part`` what it counts, ``copies`` whether a copy
    limit can be declared."""

    game: str
    pool: tuple[str, ...]
    kept: tuple[str, ...]
    deck: int
    part: dict
    copies: bool = True

    @property
    def low(self) -> int:
        """The smallest limited deck: half the rulebook's (rounded up)."""
        return (self.deck + 1) // 2

    @property
    def dealt(self) -> tuple[str, ...]:
        """Every kind a cube, a rarity or a slot may name."""
        return self.pool + tuple(k for k in self.kept if k not in self.pool)


GAME_RULES: dict[str, GameLimited] = {
    "logic_square": GameLimited(
        "logic_square", ("resource",), ("avi", "it"), RESOURCE_SIZE,
        {"en": "resource cards (Ac, Sc, Br; the AVI and the IT deck apart)",
         "ja": "枚のリソースカード（Ac・Sc・Br。AVIとITデッキは別）"}),
    "maken": GameLimited(
        "maken", ("attack", "support"), ("character",), MAKEN_DECK,
        {"en": "attack and support cards (the character apart)", "ja": "枚の攻撃カードと補助カード（キャラクターは別）"}),
    "art_of_war": GameLimited(
        "art_of_war", ("king",), ("king",), DECK_UNITS,
        {"en": "basic units (the KING apart)", "ja": "枚の基本ユニット（KINGは別）"}, copies=False),
    "avalon": GameLimited(
        "avalon", ("creature", "support", "magic"), ("avatar",), AVALON_DECK,
        {"en": "cards (the avatar apart)", "ja": "枚のカード（アバターは別）"}),
}


@dataclass(frozen=True)
class Slot:
    """One slot of a booster: ``count`` cards of ``rarity``, of ``kind``, or of both."""

    count: int
    rarity: str | None = None
    kind: str | None = None

    def to_json(self) -> dict:
        out: dict[str, Any] = {}
        if self.rarity is not None:
            out["rarity"] = self.rarity
        if self.kind is not None:
            out["kind"] = self.kind
        out["count"] = self.count
        return out


@dataclass(frozen=True)
class Boosters:
    """``packs`` a player, ``size`` cards a pack, filled slot by slot."""

    packs: int
    size: int
    slots: tuple[Slot, ...]

    def to_json(self) -> dict:
        return {"packs": self.packs, "size": self.size, "slots": [s.to_json() for s in self.slots]}


@dataclass(frozen=True)
class Limited:
    """A set's limited declaration, every part checked (see the module docstring); a part not
    declared is None (``rarities``: empty)."""

    deck_size: int | None = None
    copies: int | None = None
    cube: tuple[str, ...] | None = None
    rarities: tuple[tuple[str, tuple[str, ...]], ...] = ()
    boosters: Boosters | None = field(default=None)

    def rarity(self, name: str) -> tuple[str, ...]:
        """The cards of rarity ``name`` (KeyError: no such rarity)."""
        for rarity, cards in self.rarities:
            if rarity == name:
                return cards
        raise KeyError(name)

    def rarity_of(self) -> dict[str, str]:
        """Card id → its rarity."""
        return {card: name for name, cards in self.rarities for card in cards}

    def to_json(self) -> dict:
        """The declaration as stored and exported (only the parts declared)."""
        out: dict[str, Any] = {}
        deck = {k: v for k, v in (("size", self.deck_size), ("copies", self.copies)) if v is not None}
        if deck:
            out["deck"] = deck
        if self.cube is not None:
            out["cube"] = list(self.cube)
        if self.rarities:
            out["rarities"] = {name: list(cards) for name, cards in self.rarities}
        if self.boosters is not None:
            out["boosters"] = self.boosters.to_json()
        return out

    @classmethod
    def from_json(cls, data: Any, game: str | None = None) -> "Limited":
        """A declaration read back, every field checked (``game``: its deck range too):
        ValueError naming the first problem."""
        decl, problems = parse(data, game)
        if problems or decl is None:
            raise ValueError(str(problems[0]) if problems else "not a limited declaration")
        return decl


# --------------------------------------------------------------------------- checking

class _Report:
    """The problems of one declaration, each a CardDataError naming the file and the field."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.problems: list[CardDataError] = []

    def __call__(self, fld: str, message: str, key: str, **params: Any) -> None:
        self.problems.append(CardDataError(self.label, None, fld, message, key=key, **params))

    def fields(self, value: dict, where: str, allowed: tuple[str, ...]) -> None:
        for name in value:
            if name not in allowed:
                self(f"{where}.{keys.shown(name)}", "is not a field here", "unknown_field", allowed=list(allowed))

    def integer(self, value: Any, where: str, low: int, high: int, *, key: str = "int_range",
                **params: Any) -> int | None:
        if isinstance(value, bool) or not isinstance(value, int):
            self(where, f"must be a whole number, not {value!r}", "whole_number", value=_value(value))
            return None
        if not low <= value <= high:
            self(where, f"must be a whole number from {low} to {high}, not {value}", key, low=low, high=high,
                 value=value, **params)
            return None
        return value


def _value(value: Any) -> str:
    return repr(value)[:30]


def parse(raw: Any, game: str | None = None, kinds: Mapping[str, str] | None = None,
          label: str = "") -> tuple[Limited | None, list[CardDataError]]:
    """``raw`` (the value of a file's ``limited`` key) checked: ``(declaration, [])`` or
    ``(None, every problem)``.  ``game``: the deck range and the kinds a slot may name are the
    game's; ``kinds`` (card id → kind, the set's cards): every id must be a card of the set of a
    kind limited play deals, and the boosters must be fillable (:func:`slot_problems`)."""
    rules = None
    if game is not None:
        rules = GAME_RULES.get(game)
        if rules is None:
            raise ValueError(f"limited play is for {', '.join(GAME_RULES)}, not {game!r}")
    bad = _Report(label)
    if not isinstance(raw, dict):
        bad(LIMITED, "must be an object", "not_object")
        return None, bad.problems
    bad.fields(raw, LIMITED, PARTS)
    size, copies = _deck(raw.get("deck"), rules, bad) if "deck" in raw else (None, None)
    cube = _cards(raw["cube"], f"{LIMITED}.cube", rules, kinds, bad) if "cube" in raw else None
    if cube is not None and not cube and not bad.problems:
        bad(f"{LIMITED}.cube", "a cube lists at least one card", "limited_cube_empty")
    rarities = _rarities(raw["rarities"], rules, kinds, bad) if "rarities" in raw else ()
    boosters = _boosters(raw["boosters"], rarities, rules, bad) if "boosters" in raw else None
    if boosters is not None and kinds is not None and not bad.problems:
        for fld, message, key, params in slot_problems(boosters, dict(rarities), kinds):
            bad(fld, message, key, **params)
    keys.respelled(bad.problems)
    if bad.problems:
        return None, bad.problems
    return Limited(size, copies, tuple(cube) if cube is not None else None, rarities, boosters), []


def _deck(value: Any, rules: GameLimited | None, bad: _Report) -> tuple[int | None, int | None]:
    where = f"{LIMITED}.deck"
    if not isinstance(value, dict):
        bad(where, "must be an object", "not_object")
        return None, None
    bad.fields(value, where, DECK_FIELDS)
    size = copies = None
    if "size" in value:
        if rules is None:
            size = bad.integer(value["size"], f"{where}.size", *ANY_DECK)
        else:
            size = bad.integer(value["size"], f"{where}.size", rules.low, rules.deck, key="limited_deck_size",
                               part=dict(rules.part), deck=rules.deck)
    if "copies" in value:
        if rules is not None and not rules.copies:
            bad(f"{where}.copies", "an army holds one KING and the basic units in any mix", "limited_no_copies")
        else:
            most = size or (rules.deck if rules is not None else ANY_DECK[1])
            copies = bad.integer(value["copies"], f"{where}.copies", 1, most)
    return size, copies


def _cards(value: Any, where: str, rules: GameLimited | None, kinds: Mapping[str, str] | None, bad: _Report,
           seen: dict[str, str] | None = None, rarity: str | None = None) -> list[str] | None:
    """A list of card ids: at most :data:`MAX_CUBE`, each a text, each once (``seen``: card →
    the rarity already naming it, shared by the rarities), each a card of a kind dealt."""
    if not isinstance(value, list):
        bad(where, "must be a list", "not_list")
        return None
    if len(value) > MAX_CUBE:
        bad(where, f"lists {len(value)}; at most {MAX_CUBE}", "cell_too_many", count=len(value), limit=MAX_CUBE)
        return None
    out: list[str] = []
    mine: set[str] = set()
    for i, card in enumerate(value):
        spot = f"{where}[{i}]"
        if not isinstance(card, str) or not card:
            bad(spot, f"must be a card id, not {_value(card)}", "limited_not_id", value=_value(card))
            continue
        if card in mine:
            bad(spot, f"{card!r} is listed twice", "limited_listed_twice", card=card)
            continue
        mine.add(card)
        if seen is not None:
            if card in seen:
                bad(spot, f"{card!r} is in two rarities", "limited_rarity_twice", card=card, first=seen[card],
                    second=rarity)
                continue
            seen[card] = rarity or ""
        if kinds is not None:
            kind = kinds.get(card)
            if kind is None:
                bad(spot, f"{card!r} is not a card of this set", "unknown_card", card=card)
                continue
            if rules is not None and kind not in rules.dealt:
                bad(spot, f"{card!r} is a {kind}: limited play never deals one", "limited_kind", card=card,
                    kind=kind, kinds=list(rules.dealt))
                continue
        out.append(card)
    return out


def _rarities(value: Any, rules: GameLimited | None, kinds: Mapping[str, str] | None,
              bad: _Report) -> tuple[tuple[str, tuple[str, ...]], ...]:
    where = f"{LIMITED}.rarities"
    if not isinstance(value, dict):
        bad(where, "must be an object", "not_object")
        return ()
    if len(value) > MAX_RARITIES:
        bad(where, f"lists {len(value)}; at most {MAX_RARITIES}", "cell_too_many", count=len(value),
            limit=MAX_RARITIES)
        return ()
    total = sum(len(v) for v in value.values() if isinstance(v, list))
    if total > MAX_CUBE:
        bad(where, f"lists {total}; at most {MAX_CUBE}", "cell_too_many", count=total, limit=MAX_CUBE)
        return ()
    seen: dict[str, str] = {}
    out = []
    for name, cards in value.items():
        spot = f"{where}.{keys.shown(name)}"
        if not _NAME.match(name):
            bad(spot, f"{name!r} is not a rarity name", "limited_rarity_name", value=keys.shown(name))
            continue
        got = _cards(cards, spot, rules, kinds, bad, seen, name)
        if got is not None:
            out.append((name, tuple(got)))
    return tuple(out)


def _boosters(value: Any, rarities: tuple, rules: GameLimited | None, bad: _Report) -> Boosters | None:
    where = f"{LIMITED}.boosters"
    if not isinstance(value, dict):
        bad(where, "must be an object", "not_object")
        return None
    bad.fields(value, where, BOOSTER_FIELDS)
    for name in BOOSTER_FIELDS:
        if name not in value:
            bad(f"{where}.{name}", "is required", "required")
    packs = bad.integer(value["packs"], f"{where}.packs", *PACKS) if "packs" in value else None
    size = bad.integer(value["size"], f"{where}.size", *PACK_SIZE) if "size" in value else None
    slots_raw = value.get("slots")
    if "slots" not in value:
        return None
    if not isinstance(slots_raw, list):
        bad(f"{where}.slots", "must be a list", "not_list")
        return None
    if not 1 <= len(slots_raw) <= MAX_SLOTS:
        bad(f"{where}.slots", f"lists {len(slots_raw)}; from 1 to {MAX_SLOTS}", "limited_slots", count=len(slots_raw),
            limit=MAX_SLOTS)
        return None
    names = [name for name, _cards in rarities]
    slots: list[Slot] = []
    for i, slot in enumerate(slots_raw):
        spot = f"{where}.slots[{i}]"
        if not isinstance(slot, dict):
            bad(spot, "must be an object", "not_object")
            continue
        bad.fields(slot, spot, SLOT_FIELDS)
        ok = True
        count = None
        if "count" not in slot:
            bad(f"{spot}.count", "is required", "required")
            ok = False
        else:
            count = bad.integer(slot["count"], f"{spot}.count", *SLOT_COUNT)
            ok = count is not None
        rarity, kind = slot.get("rarity"), slot.get("kind")
        if rarity is None and kind is None:
            bad(spot, "a slot names a rarity, a kind or both", "limited_slot_what")
            ok = False
        if rarity is not None and (not isinstance(rarity, str) or rarity not in names):
            if names:
                bad(f"{spot}.rarity", f"{_value(rarity)} is not a declared rarity", "limited_unknown_rarity",
                    rarity=keys.shown(rarity), rarities=names)
            else:
                bad(f"{spot}.rarity", "no rarities are declared", "limited_no_rarities")
            ok = False
        if kind is not None and (not isinstance(kind, str) or (rules is not None and kind not in rules.dealt)):
            allowed = list(rules.dealt) if rules is not None else []
            bad(f"{spot}.kind", f"{_value(kind)} is not a kind limited play deals", "limited_unknown_kind",
                kind=keys.shown(kind), kinds=allowed)
            ok = False
        if ok and count is not None:
            slots.append(Slot(count, rarity, kind))
    if packs is None or size is None or len(slots) != len(slots_raw):
        return None
    total = sum(s.count for s in slots)
    if total != size:
        bad(f"{where}.slots", f"the slots hold {total} cards but a pack {size}", "limited_slots_sum",
            total=total, size=size)
        return None
    return Boosters(packs, size, tuple(slots))


def slot_cards(slot: Slot, rarities: Mapping[str, Iterable[str]], kinds: Mapping[str, str] | None) -> list[str]:
    """The cards ``slot`` draws from, in a fixed order: its rarity's cards as declared (of its
    kind too, when it names both), or every card of the set of its kind in id order.  ``kinds``
    (card id → kind) is needed for a slot that names a kind."""
    if slot.kind is not None and kinds is None:
        raise ValueError(f"a slot of kind {slot.kind!r} needs the set's card kinds")
    if slot.rarity is not None:
        cards = list(rarities[slot.rarity])
        return [c for c in cards if kinds.get(c) == slot.kind] if slot.kind is not None else cards  # type: ignore[union-attr]
    return sorted(c for c, k in kinds.items() if k == slot.kind)  # type: ignore[union-attr]


def slot_problems(boosters: Boosters, rarities: Mapping[str, Iterable[str]],
                  kinds: Mapping[str, str]) -> list[tuple[str, str, str, dict]]:
    """Slots the set cannot fill, as ``(field, message, key, params)``: a slot needs as many
    different cards as its own count and the counts of every slot sharing a card with it (a
    pack holds no card twice, and those slots may have taken theirs first).  Filling slot by
    slot never fails for boosters that pass this (host/limited/deal.py relies on it)."""
    cards = [set(slot_cards(s, rarities, kinds)) for s in boosters.slots]
    out = []
    for i, (slot, mine) in enumerate(zip(boosters.slots, cards)):
        need = sum(other.count for other, theirs in zip(boosters.slots, cards)
                   if other is slot or not mine.isdisjoint(theirs))
        if len(mine) < need:
            out.append((f"{LIMITED}.boosters.slots[{i}]", f"needs {need} different cards; {len(mine)} fit it",
                        "limited_slot_short", {"need": need, "have": len(mine)}))
    return out


def check(game: str, declared: list[tuple[str, Any]],
          kinds: Mapping[str, str] | None) -> tuple[Limited | None, list[CardDataError]]:
    """The declaration of an upload: ``declared`` the ``(file, value)`` of each file holding a
    ``limited`` key (more than one is refused), ``kinds`` the set's card kinds (None when its
    cards did not validate: the declaration's own shape is still checked)."""
    if not declared:
        return None, []
    first = declared[0][0]
    twice = [CardDataError(label, None, LIMITED, "the limited declaration is given twice", key="limited_twice",
                           other=first) for label, _raw in declared[1:]]
    decl, problems = parse(declared[0][1], game, kinds, first)
    return (decl if not twice else None), twice + problems


def declaration_of(files: Iterable[Any], game: str | None = None) -> Limited | None:
    """The declaration a stored version's ``files`` (``[label, data]``) hold, or None; checked
    as read (ValueError: it does not fit, or two files hold one)."""
    found = [data[LIMITED] for _label, data in files if isinstance(data, dict) and LIMITED in data]
    if len(found) > 1:
        raise ValueError("a card set holds one limited declaration")
    return Limited.from_json(found[0], game) if found else None


def default_cube(entries: Iterable[Any], game: str) -> list[str]:
    """The cube of a set that declares none: every pool card of the set once, in id order
    (``entries``: :class:`data.card_sets.model.Entry`, decks left out)."""
    pool = set(GAME_RULES[game].pool)
    return sorted(e.id for e in entries if not e.deck and e.kind in pool)


def deck_size(decl: Limited | None, game: str) -> int:
    """The size of a limited deck of ``game`` (what :data:`GAME_RULES` ``part`` counts)."""
    return decl.deck_size if decl is not None and decl.deck_size is not None else GAME_RULES[game].deck


__all__ = ["Limited", "Boosters", "Slot", "GameLimited", "GAME_RULES", "LIMITED", "parse", "check",
           "declaration_of", "default_cube", "deck_size", "slot_cards", "slot_problems", "MAX_CUBE",
           "MAX_RARITIES", "MAX_SLOTS", "PACKS", "PACK_SIZE", "SLOT_COUNT"]
