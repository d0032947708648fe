"""The computer drafter: which card a computer seat takes from a pack, and the deck it builds
from its pool afterwards (docs/ai.md, "The computer drafter").  Pure: no I/O, no clock, no
randomness — the same values, pack and pool give the same pick.

    drafter = Drafter(values, "maken", cards=engine.decks.cards())
    card = drafter.pick(pack, pool)            # one of pack
    deck = drafter.build_deck(pool, {"size": 30, "copies": 2})

- **Values.**  ``values`` maps a card id to its value for drafting: its win rate when in the deck
  in self-play, shrunk toward 0.5 (measured by ``python -m balance --card-values``; a plain dict,
  so this module needs nothing above ``rules``).  A card the values do not name is worth 0.5.
  Without values (``None`` or empty) every card gets the **fallback**: a rough power read from the
  card's own data (:func:`fallback_values`).
- **The pick** is the card of the pack with the highest value after the **pool adjustment**
  (:data:`USELESS`, :data:`SPARE`, :data:`OFF_PLAN`): a copy the deck could not hold (the copy
  limit of its name, Battle Logic Square's blue and red totals, Avalon's Sanctuary's one ★5
  card, an IT card already taken) is nearly worthless; a second kept part (an AVI, a Project
  Maken character, a KING, an avatar) or a sixth IT card is a spare; after a few picks the
  drafter commits — in Project Maken to the character it has most cards of, in Avalon's
  Sanctuary to its two creature attributes — and cards off that plan count little.  Ties go to
  the smaller card id.
- **The deck** (:meth:`Drafter.build_deck`): the kept parts from the pool where it has them,
  otherwise the best of the set; then the best cards of the pool by value, as many copies as the
  rules allow, up to the deck size.

``cards`` is the game's card data as plain dicts, ``engine.decks.cards()`` (each with its
``category``; a Battle Logic Square resource its ``colour``, a Project Maken card its
``character``, an Avalon's Sanctuary card its ``orig`` and a creature its ``attr``).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, NamedTuple

from rules.art_of_war.cards import DECK_UNITS
from rules.avalon.decks import COPY_LIMIT as AVALON_COPIES
from rules.avalon.decks import DECK_SIZE as AVALON_SIZE
from rules.avalon.decks import STAR5_TOTAL
from rules.logic_square.decks import BLUE_TOTAL, COPY_LIMITS, IT_SIZE, RED_TOTAL, RESOURCE_SIZE
from rules.maken.decks import COPY_LIMIT as MAKEN_COPIES
from rules.maken.decks import DECK_SIZE as MAKEN_SIZE

GAMES = ("logic_square", "maken", "art_of_war", "avalon")
NEUTRAL = 0.5                 # a card without a measured value: neither good nor bad
USELESS = 0.05                # the deck could not hold this copy
SPARE = 0.5                   # a second kept part, a sixth IT card: only a replacement
OFF_PLAN = 0.25               # another character's card (Project Maken), another attribute's creature
# the category of the kept part each deck has exactly one of (the ruling: from the pool where the
# pool has it, otherwise chosen from the set)
HEAD = {"logic_square": "AVI", "maken": "character", "art_of_war": "KING", "avalon": "avatar"}
IT = "IT"                     # Battle Logic Square's IT deck: IT_SIZE different IT cards, kept too
# the main deck's size in constructed play (a limited declaration may set another)
SIZE = {"logic_square": RESOURCE_SIZE, "maken": MAKEN_SIZE, "art_of_war": DECK_UNITS, "avalon": AVALON_SIZE}
NO_ATTR = "none"              # an Avalon's Sanctuary creature any deck may play
ATTRS_KEPT = 2                # an Avalon's Sanctuary deck plays creatures of at most two attributes
FALLBACK_LOW, FALLBACK_HIGH = 0.45, 0.55     # the fallback's values, by rank within a category


@dataclass(frozen=True)
class Style:
    """How a drafter drafts: ``adjust`` — weigh the pool at all (off: the highest value, whatever
    the pool); ``commit`` — picks before it commits to a character (Project Maken) or to two
    attributes (Avalon's Sanctuary)."""
    adjust: bool = True
    commit: Mapping[str, int] | None = None

    def commit_after(self, game: str) -> int:
        return dict(self.commit or {}).get(game, 0)


STYLES: dict[str, Style] = {
    "balanced": Style(commit={"maken": 3, "avalon": 6}),
    "focused": Style(commit={"maken": 1, "avalon": 3}),
    "greedy": Style(adjust=False),
}


@dataclass(frozen=True)
class DeckRules:
    """The deck a pool is built into: ``size`` main-deck cards (None: the game's own size) and at
    most ``copies`` of a name (None: the game's own limits).  The game's totals across names stay:
    Battle Logic Square's 5 blue and 1 red, Avalon's Sanctuary's one ★5 card."""
    size: int | None = None
    copies: int | None = None

    @classmethod
    def of(cls, rules: Any) -> "DeckRules":
        """From a DeckRules, None, a mapping ``{"size", "copies"}`` (a limited declaration's
        ``deck``; a whole declaration ``{"deck": {…}}`` too), or an object with ``size`` or
        ``deck_size`` and ``copies`` attributes (a set's limited declaration)."""
        if rules is None or isinstance(rules, DeckRules):
            return rules or cls()
        if isinstance(rules, Mapping):
            rules = rules.get("deck") if isinstance(rules.get("deck"), Mapping) else rules
            size, copies = rules.get("size"), rules.get("copies")
        else:
            size = getattr(rules, "size", None)
            size = size if size is not None else getattr(rules, "deck_size", None)
            copies = getattr(rules, "copies", None)
        for name, n in (("size", size), ("copies", copies)):
            if n is not None and (isinstance(n, bool) or not isinstance(n, int) or n < 1):
                raise ValueError(f"the deck's {name} is a whole number from 1, not {n!r}")
        return cls(size=size, copies=copies)


def _num(x: Any) -> float:
    return float(x) if isinstance(x, (int, float)) and not isinstance(x, bool) else 0.0


def _size(x: Any) -> int:
    return len(x) if isinstance(x, (list, tuple, dict)) else 0


def power(game: str, card: Mapping[str, Any]) -> float:
    """A rough strength read from a card's own data, to rank it within its category when no
    self-play values exist: Battle Logic Square — damage + 10 a square of range + 25 an effect,
    − 20 an AP of cost (an AVI: its abilities'); Project Maken — 2 × attack + guard + speed/2 +
    gain + 2 a posture it cannot be guarded from − cost (a support card: 2 an effect); Art of
    War — attack + defence + squares of range; Avalon's Sanctuary — originality (★), plus for a
    creature (attack + durability) per mana of its cost.  Fields a card lacks count 0."""
    if game == "logic_square":
        parts = [card, *(card.get("abilities") or [])] if card.get("category") == "AVI" else [card]
        return sum(_num(p.get("damage")) + 10 * _size(p.get("range")) + 25 * _size(p.get("effects"))
                   - 20 * _num(p.get("cost")) for p in parts if isinstance(p, Mapping))
    if game == "maken":
        if card.get("category") == "support":
            return 2 * _size(card.get("effect"))
        return (2 * _num(card.get("attack")) + _num(card.get("guard")) + _num(card.get("speed")) / 2
                + _num(card.get("gain")) + 2 * _size(card.get("unguardable")) - _num(card.get("cost")))
    if game == "art_of_war":
        defence = card.get("defence") if isinstance(card.get("defence"), list) else []
        return _num(card.get("attack")) + sum(_num(d) for d in defence) + _size(card.get("range"))
    if game == "avalon":
        out = _num(card.get("orig"))
        if card.get("category") == "creature":
            mana = card.get("mana") if isinstance(card.get("mana"), Mapping) else {}
            out += (_num(card.get("atk")) + _num(card.get("dur"))) / max(1.0, sum(_num(v) for v in mana.values()))
        return out
    return 0.0


def fallback_values(game: str, cards: Mapping[str, Mapping[str, Any]]) -> dict[str, float]:
    """Values from the cards' own data, for a set without self-play values: within each category
    the cards are ranked by :func:`power` and spread evenly from 0.45 (the weakest) to 0.55 (the
    strongest); equal power, equal value; a category of one card is worth 0.5.  Only the order
    within a category means anything — a fallback, not a measurement."""
    by_cat: dict[Any, list[tuple[float, str]]] = {}
    for cid, card in cards.items():
        by_cat.setdefault(card.get("category"), []).append((power(game, card), cid))
    out: dict[str, float] = {}
    for group in by_cat.values():
        levels = sorted({p for p, _ in group})
        step = (FALLBACK_HIGH - FALLBACK_LOW) / (len(levels) - 1) if len(levels) > 1 else 0.0
        rank = {p: i for i, p in enumerate(levels)}
        for p, cid in group:
            out[cid] = round(FALLBACK_LOW + step * rank[p], 6) if len(levels) > 1 else NEUTRAL
    return out


class _Held(NamedTuple):
    counts: Counter           # card id -> copies in the pool
    groups: Counter           # total (blue, red, star5) -> copies in the pool
    heads: int                # kept cards (AVI, character, KING, avatar) in the pool
    its: int                  # different IT cards in the pool
    plan: Any                 # the committed character / attributes, or None


class Drafter:
    """A computer drafter for ``game`` (see the module docstring).  ``values``: card id → value
    (None or empty: :func:`fallback_values`); ``style``: a name of :data:`STYLES`; ``cards``: the
    set's card data (``engine.decks.cards()``); ``copies``: the set's limited copies of a name,
    if it declares them (None: the game's own limits)."""

    def __init__(self, values: Mapping[str, float] | None, game: str, style: str = "balanced", *,
                 cards: Mapping[str, Mapping[str, Any]] | None = None, copies: int | None = None) -> None:
        if game not in GAMES:
            raise ValueError(f"no drafting in {game!r} (card games: {', '.join(GAMES)})")
        if style not in STYLES:
            raise ValueError(f"unknown drafting style {style!r} (known: {', '.join(STYLES)})")
        self.game, self.style_name, self.style = game, style, STYLES[style]
        self.cards: dict[str, Mapping[str, Any]] = dict(cards or {})
        self.copies = DeckRules.of({"copies": copies}).copies
        self.fallback = not values
        source = values if values else fallback_values(game, self.cards)
        self.values: dict[str, float] = {}
        for cid, v in source.items():
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0.0 <= v <= 1.0:
                raise ValueError(f"the value of {cid!r} is a number from 0 to 1, not {v!r}")
            self.values[str(cid)] = float(v)

    # ------------------------------------------------------------------ facts of one card
    def value(self, cid: str) -> float:
        return self.values.get(cid, NEUTRAL)

    def _card(self, cid: str) -> Mapping[str, Any]:
        return self.cards.get(cid) or {}

    def _category(self, cid: str) -> Any:
        return self._card(cid).get("category")

    def _is_head(self, cid: str) -> bool:
        return self._category(cid) == HEAD[self.game]

    def _is_it(self, cid: str) -> bool:
        return self.game == "logic_square" and self._category(cid) == IT

    def _owner(self, cid: str) -> str | None:
        """A Project Maken card's character (a character card its own)."""
        if self.game != "maken":
            return None
        return cid if self._is_head(cid) else self._card(cid).get("character")

    def _attr(self, cid: str) -> str | None:
        """An Avalon's Sanctuary creature's attribute (None: not a creature)."""
        if self.game != "avalon" or self._category(cid) != "creature":
            return None
        attr = self._card(cid).get("attr")
        return attr if isinstance(attr, str) and attr else NO_ATTR

    def limit(self, cid: str, copies: int | None = None) -> int | None:
        """Copies of this name a deck may hold (None: no limit): the declared ``copies``, else
        the game's own (Battle Logic Square by colour, Project Maken 3, Avalon's Sanctuary by ★)."""
        copies = copies if copies is not None else self.copies
        if copies is not None:
            return copies
        card = self._card(cid)
        if self.game == "logic_square":
            return COPY_LIMITS.get(card.get("colour"), 1)
        if self.game == "maken":
            return MAKEN_COPIES
        if self.game == "avalon":
            return AVALON_COPIES.get(card.get("orig"), 1)
        return None

    def group(self, cid: str) -> tuple[str, int] | None:
        """The total across names this card counts toward, and its cap: Battle Logic Square's
        blue (5) and red (1) resources, Avalon's Sanctuary's ★5 cards (1)."""
        card = self._card(cid)
        if self.game == "logic_square" and card.get("colour") in ("blue", "red"):
            return card["colour"], BLUE_TOTAL if card["colour"] == "blue" else RED_TOTAL
        if self.game == "avalon" and card.get("orig") == 5:
            return "star5", STAR5_TOTAL
        return None

    # ------------------------------------------------------------------ plans from the pool
    def character(self, pool: Iterable[str]) -> str | None:
        """Project Maken: the character with most cards in ``pool`` (ties: the higher summed
        value, then the smaller id); None when the pool has none."""
        count: Counter = Counter()
        worth: Counter = Counter()
        for cid in pool:
            owner = self._owner(cid)
            if owner:
                count[owner] += 1
                worth[owner] += self.value(cid)
        return min(count, key=lambda o: (-count[o], -worth[o], o)) if count else None

    def attributes(self, pool: Iterable[str]) -> tuple[str, ...]:
        """Avalon's Sanctuary: the (at most) two creature attributes with most creatures in
        ``pool`` (ties: summed value, then name); creatures of no attribute fit every deck."""
        count: Counter = Counter()
        worth: Counter = Counter()
        for cid in pool:
            attr = self._attr(cid)
            if attr and attr != NO_ATTR:
                count[attr] += 1
                worth[attr] += self.value(cid)
        return tuple(sorted(count, key=lambda a: (-count[a], -worth[a], a))[:ATTRS_KEPT])

    def adjusted(self, cid: str, pool: Iterable[str]) -> float:
        """``cid``'s value for a drafter holding ``pool`` (the pool adjustment of the module
        docstring)."""
        return self._score(cid, self._held(list(pool)))

    def _held(self, pool: list[str]) -> "_Held":
        """What the pool holds, counted once for a whole pack: O(pool)."""
        counts = Counter(pool)
        groups: Counter = Counter()
        heads = its = 0
        for cid, n in counts.items():
            group = self.group(cid)
            if group:
                groups[group[0]] += n
            heads += self._is_head(cid)
            its += self._is_it(cid)
        plan = self._plan(pool) if self.style.adjust else None
        return _Held(counts, groups, heads, its, plan)

    def _score(self, cid: str, held: "_Held") -> float:
        base = self.value(cid)
        if not self.style.adjust:
            return base
        counts, plan = held.counts, held.plan
        if self._is_head(cid):
            if self.game == "maken" and plan is not None:
                return base if cid == plan and not counts[cid] else base * USELESS
            return base * SPARE if held.heads else base
        if self._is_it(cid):
            if counts[cid]:
                return base * USELESS
            return base * SPARE if held.its >= IT_SIZE else base
        limit = self.limit(cid)
        group = self.group(cid)
        if (limit is not None and counts[cid] >= limit) or (group and held.groups[group[0]] >= group[1]):
            return base * USELESS
        if plan is not None:
            if self.game == "maken" and self._owner(cid) != plan:
                return base * OFF_PLAN
            attr = self._attr(cid)
            if self.game == "avalon" and attr not in (None, NO_ATTR) and attr not in plan:
                return base * OFF_PLAN
        return base

    def _plan(self, pool: list[str]) -> Any:
        """What the drafter has committed to: a character (Project Maken), attributes (Avalon's
        Sanctuary), or None — before the style's number of picks, or in the other games."""
        after = self.style.commit_after(self.game)
        if not after or len(pool) < after:
            return None
        if self.game == "maken":
            return self.character(pool)
        return self.attributes(pool) or None

    # ------------------------------------------------------------------ the pick
    def pick(self, pack: Iterable[str], pool: Iterable[str]) -> str:
        """The card of ``pack`` to take, holding ``pool``: the highest adjusted value, ties to
        the smaller id.  O(pack + pool)."""
        pack = list(pack)
        if not pack:
            raise ValueError("an empty pack has no card to pick")
        held = self._held(list(pool))
        return min(pack, key=lambda c: (-self._score(c, held), c))

    def ranked(self, pack: Iterable[str], pool: Iterable[str]) -> list[tuple[str, float]]:
        """Every card of ``pack`` with its adjusted value, best first (the pick's order)."""
        held = self._held(list(pool))
        scored = [(c, self._score(c, held)) for c in set(pack)]
        return sorted(scored, key=lambda cv: (-cv[1], cv[0]))

    # ------------------------------------------------------------------ the deck
    def _best(self, ids: Iterable[str]) -> list[str]:
        return sorted(set(ids), key=lambda c: (-self.value(c), c))

    def build_deck(self, pool: Iterable[str], rules: Any = None) -> list[str]:
        """The computer's deck from ``pool`` under ``rules`` (:meth:`DeckRules.of`): first the
        kept parts — the best kept card (AVI, character, KING, avatar) of the pool, else of the
        set, and in Battle Logic Square the IT deck, the pool's best different IT cards topped up
        from the set's — then the main deck: the pool's cards best first, each name as many copies
        as the pool has and the rules allow, within the game's totals, up to the deck size.  A
        Project Maken deck takes only its character's cards; an Avalon's Sanctuary deck first its
        two attributes' creatures and the cards of no attribute, then, if still short, others.
        An Art of War army whose pool holds no units (limited play deals only KINGs) gets an
        even mix of the set's basic units (:meth:`_army`).  The main deck is shorter than the
        size when the pool cannot fill it.  Each id once a copy:
        folding the list into ``game.decks.add`` gives the game's deck spec."""
        rules = DeckRules.of(rules)
        pool = list(pool)
        counts = Counter(pool)
        size = rules.size if rules.size is not None else SIZE[self.game]
        head_cat = HEAD[self.game]
        in_set = [c for c in self.cards if self._card(c).get("category") == head_cat]
        out: list[str] = []
        if self.game == "maken":
            head = self.character(pool) or next(iter(self._best(in_set)), None)
        else:
            head = next(iter(self._best(c for c in counts if self._is_head(c)) or self._best(in_set)), None)
        if head is not None:
            out.append(head)
        if self.game == "logic_square":
            its = self._best(c for c in counts if self._is_it(c))[:IT_SIZE]
            its += [c for c in self._best(c for c in self.cards if self._is_it(c)) if c not in its][:IT_SIZE - len(its)]
            out += its
        main = [c for c in counts if not self._is_head(c) and not self._is_it(c)]
        if self.game == "maken":
            main = [c for c in main if self._owner(c) == head]
        first, later = main, []
        if self.game == "avalon":
            attrs = self.attributes(pool)
            first = [c for c in main if self._attr(c) in (None, NO_ATTR) or self._attr(c) in attrs]
            chosen = set(first)
            later = [c for c in main if c not in chosen]
        if self.game == "art_of_war" and not main:
            return out + self._army(size)
        groups: Counter = Counter()
        deck: list[str] = []
        for cid in self._best(first) + self._best(later):
            limit = self.limit(cid, rules.copies)
            group = self.group(cid)
            room = min(counts[cid], size - len(deck), limit if limit is not None else counts[cid])
            if group:
                room = min(room, group[1] - groups[group[0]])
            if room > 0:
                deck += [cid] * room
                if group:
                    groups[group[0]] += room
            if len(deck) >= size:
                break
        return out + deck

    def _army(self, size: int) -> list[str]:
        """Art of War's units when the pool has none (limited play deals only KINGs; an army
        holds the basic units in any mix): an even mix of the set's units, the remainder one
        more each of the most valuable."""
        units = self._best(c for c in self.cards if self._category(c) == "unit")
        if not units:
            return []
        each, rest = divmod(size, len(units))
        return [c for i, c in enumerate(units) for _ in range(each + (i < rest))]


__all__ = ["Drafter", "DeckRules", "Style", "STYLES", "fallback_values", "power", "GAMES", "HEAD", "SIZE",
           "NEUTRAL", "USELESS", "SPARE", "OFF_PLAN"]
