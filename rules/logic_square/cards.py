"""Battle Logic Square card data: the schema, its validation and the :class:`CardSet`.

Card files are plain JSON (the format is documented in ``docs/cards.md``).  This module never
reads a file: the loader in ``rules/logic_square/files.py`` reads them and hands the parsed JSON here as
``(source name, data)`` pairs; every error names the source, the card (or deck) and the field,
and carries a catalog key (``cardcheck.<key>``: the shared ``data/i18n/*/cardcheck.json`` or the
game's ``cardcheck_logic_square.json``; a deck rule its ``logic_square.deck.*`` key) with its params.
``CardSet.from_sources(sources, problems=[...])`` reports every problem into the list instead of
raising at the first (a server's card-set upload, ``data/card_sets/logic_square.py``).

>>> cs = CardSet.from_sources([("demo.json", {
...     "types": {"strike": {"ja": "ストライク", "en": "Strike"}},
...     "cards": [{"id": "jab", "category": "Ac", "colour": "white", "types": ["strike"],
...                "name": {"ja": "ジャブ", "en": "Jab"}, "text": {"ja": "40ダメージ。", "en": "40 damage."},
...                "damage": 40, "range": ["x", "o"]}]})])
>>> cs["jab"].action.range, cs["jab"].action.target
(((1, 0),), 'enemy')
>>> CardSet.from_sources([("bad.json", {"cards": [{"id": "jab", "category": "Xx"}]})])
Traceback (most recent call last):
...
rules.logic_square.card_schema.CardDataError: bad.json: card 'jab': field 'category': must be one of AVI, Ac, Sc, Br, IT, not 'Xx'
>>> found = []
>>> CardSet.from_sources([("bad.json", {"cards": [{"id": "jab", "category": "Xx"}, {"id": "J"}, 7]})],
...                      problems=found) is None
True
>>> [(e.card, e.field, e.key) for e in found]
[('jab', 'category', 'choice'), ('J', 'id', 'id_format'), ('#3', None, 'not_object')]
"""
from __future__ import annotations

import json
from typing import Any, Iterable

from rules.card_errors import collect_into
from rules.editions import PerEdition, add_patch
from rules.logic_square.card_schema import (ABILITY_FIELDS, BREAKS, BUILD_KEYS, CARD_FIELDS, CATEGORIES,  # noqa: F401
                                            COLOURS, EFFECT_IFS, EFFECTS, FORMAT, ID_RULE, LANGS, MAX_ABILITIES,
                                            MAX_BUILD, MAX_OFFSET, MODS, RESOURCE_CATEGORIES, TYPE_RULE,
                                            UNKNOWN_NAME, Ability, Action, Card, CardDataError, Deck, _Ctx,
                                            _ID_RE, _card, _lang, _word, parse_range, read_card)


# --------------------------------------------------------------------------- the card set

class CardSet:
    """Validated cards, types and ready-made decks (read-only).

    ``cards``: id -> :class:`Card` in file order; ``types``: type id -> {"ja", "en"};
    ``decks``: deck id -> :class:`Deck` in file order; ``sources``: card/deck id -> source name.
    """

    def __init__(self, cards: dict[str, Card], types: dict[str, dict], decks: dict[str, Deck] | None = None,
                 sources: dict[str, str] | None = None) -> None:
        self.cards = cards
        self.types = types
        self.decks = decks or {}
        self.sources = sources or {}
        self._key: str | None = None
        self.raw_sources: list[tuple[str, Any]] = []     # the files read (for editions)
        self.patches: dict[int, dict] = {}               # rules edition -> its changes
        self._at = PerEdition(self._build_at)

    def at(self, edition: int) -> "CardSet":
        """The card set as it stands in rules ``edition``: the files' cards with every patch of
        an edition up to ``edition`` applied (rules/logic_square/editions.py), kept per edition."""
        if not any(ed <= edition for ed in self.patches):
            return self
        return self._at(edition)

    def _build_at(self, edition: int) -> "CardSet":
        from rules.logic_square.editions import patched_sources

        def fail(fld, message, key=None, **params):
            return CardDataError("editions", None, fld, message, key=key, **params)
        return CardSet.from_sources(patched_sources(self.raw_sources, self.patches, edition, fail))

    def __getitem__(self, cid: str) -> Card:
        return self.cards[cid]

    def __contains__(self, cid: object) -> bool:
        return cid in self.cards

    def __len__(self) -> int:
        return len(self.cards)

    def get(self, cid: str) -> Card | None:
        return self.cards.get(cid)

    def ids(self, category: str | None = None) -> list[str]:
        return [c for c, card in self.cards.items() if category is None or card.category == category]

    def to_json(self) -> dict:
        """The cards and the types they use, as canonical JSON (what a match state stores)."""
        return {"types": {t: dict(n) for t, n in self.types.items()},
                "cards": [self.cards[c].raw for c in self.cards]}

    def key(self) -> str:
        if self._key is None:
            self._key = json.dumps(self.to_json(), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return self._key

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        return f"<CardSet {len(self.cards)} cards, {len(self.decks)} decks>"

    def view_text(self, cid: str) -> str:
        """The definition of card ``cid`` as views show it, as JSON text (cached): the card's
        data plus ``types`` with their names, ``cost`` (AP to use it from hand: 1; Br 0, chain
        only; AVI null), ``target`` and ``cb``."""
        cache = self.__dict__.setdefault("_view_text", {})
        text = cache.get(cid)
        if text is None:
            card = self.cards[cid]
            v = json.loads(json.dumps(card.raw))
            v["types"] = [{"id": t, "ja": self.types[t]["ja"], "en": self.types[t]["en"]} for t in card.types]
            v["cost"] = 1 if card.category in ("Ac", "Sc", "IT") else 0 if card.category == "Br" else None
            if card.action is not None:
                v["target"] = card.action.target
            v.setdefault("cb", False)
            text = cache[cid] = json.dumps(v, ensure_ascii=False, separators=(",", ":"))
        return text

    def view(self, cid: str) -> dict:
        """The definition of one card as views show it (a fresh dict)."""
        return json.loads(self.view_text(cid))

    def views(self, ids: Iterable[str]) -> dict[str, dict]:
        """``{id: definition}`` for these cards, in the given order (fresh dicts)."""
        return json.loads("{" + ",".join(f'"{c}":{self.view_text(c)}' for c in ids) + "}")

    def subset(self, ids: Iterable[str]) -> "CardSet":
        """Only the given cards (in this set's order) and the types they use; no decks."""
        wanted = set(ids)
        cards = {c: card for c, card in self.cards.items() if c in wanted}
        missing = wanted - set(cards)
        if missing:
            raise KeyError(f"unknown card ids: {', '.join(sorted(missing))}")
        used: set[str] = set()
        for card in cards.values():
            used.update(card.types)
            for b in card.breaks:
                if "type" in b:
                    used.add(b["type"])
            for r in card.build:
                if "type" in r:
                    used.add(r["type"])
        types = {t: n for t, n in self.types.items() if t in used}
        return CardSet(cards, types)

    @classmethod
    def from_json(cls, data: dict, source: str = "<state>") -> "CardSet":
        return cls.from_sources([(source, data)], check_decks=False)

    @classmethod
    def from_sources(cls, sources: Iterable[tuple[str, Any]], *, check_decks: bool = True,
                     problems: list | None = None, left_out: Iterable[str] = ()) -> "CardSet | None":
        """Validate parsed card files ``[(source name, JSON data), ...]`` into one CardSet.

        Each file is an object with optional ``"format": 1``, ``"types"``, ``"cards"`` and
        ``"decks"``.  Raises :class:`CardDataError` naming the file, the card and the field of
        the first problem; with ``problems`` (a list) every problem is appended there instead,
        card by card and deck by deck — a card (or deck) with a problem is left out and the
        validation goes on; a deck naming a card left out for its own problem is not blamed for
        it — and the result is None when there was any.  ``left_out``: ids of cards an upload
        already left out for a problem of their own (a CSV row that could not be read), which
        the decks naming them are not blamed for either.
        """
        sources = list(sources)
        start = len(problems) if problems is not None else 0

        def report(err: CardDataError) -> None:
            collect_into(problems, err)

        types: dict[str, dict] = {}
        type_src: dict[str, str] = {}
        failed: set[str] = set(left_out)     # ids left out for a problem of their own
        top = ("format", "types", "cards", "decks", "comment", "editions")
        readable: list[tuple[str, dict]] = []
        for file, data in sources:
            ctx = _Ctx(file)
            if not isinstance(data, dict):
                report(ctx.fail(None, "a card file must be a JSON object with \"cards\", \"types\" and/or \"decks\"",
                                "json_object"))
                continue
            readable.append((file, data))
            for key in data:
                if key not in top:
                    report(ctx.fail(key, "unknown top-level key; allowed: format, types, cards, decks, comment, editions",
                                    "unknown_key", allowed=list(top)))
            if data.get("format", FORMAT) != FORMAT:
                report(ctx.fail("format", f"unsupported format {data.get('format')!r}; this bot reads format {FORMAT}",
                                "format", value=_word(data.get("format")), expected=f'"format": {FORMAT}'))
            t_in = data.get("types", {})
            if not isinstance(t_in, dict):
                report(ctx.fail("types", "must be an object: type id -> {\"ja\": ..., \"en\": ...}", "not_object"))
                continue
            for tid, names in t_in.items():
                try:
                    if not isinstance(tid, str) or not _ID_RE.match(tid):
                        raise ctx.fail(f"types.{tid}", "a type id is 2–12 lowercase letters, digits or _", "id_format",
                                       value=_word(tid), rule=TYPE_RULE)
                    names = _lang(ctx, f"types.{tid}", names)
                    if tid in types and types[tid] != names:
                        raise ctx.fail(f"types.{tid}", f"is already defined differently in {type_src[tid]}",
                                       "ls_type_twice", other=type_src[tid])
                except CardDataError as err:
                    report(err)
                    failed.add(str(tid))
                    continue
                types[tid] = names
                type_src[tid] = file
        known = set(types) | failed          # a card naming a type with a problem of its own is not blamed
        cards: dict[str, Card] = {}
        src: dict[str, str] = {}
        for file, data in readable:
            c_in = data.get("cards", [])
            if not isinstance(c_in, list):
                report(CardDataError(file, None, "cards", "must be a list of card objects", key="not_list"))
                continue
            for i, entry in enumerate(c_in):
                try:
                    card = _card(entry, file, i, known)
                    if card.id in cards:
                        raise CardDataError(file, card.id, "id", f"is already used by a card in {src[card.id]}",
                                            key="defined_twice", other=src[card.id])
                except CardDataError as err:
                    report(err)
                    if isinstance(entry, dict) and isinstance(entry.get("id"), str) and entry["id"] not in cards:
                        failed.add(entry["id"])
                    continue
                cards[card.id] = card
                src[card.id] = file
        names: dict[tuple[str, str], str] = {}
        for cid, card in list(cards.items()):
            try:
                for lang in LANGS:
                    k = (lang, card.name[lang].casefold())
                    if k in names:
                        raise CardDataError(src[cid], cid, f"name.{lang}",
                                            f"{card.name[lang]!r} is already the name of card {names[k]!r}",
                                            key="name_taken", name=card.name[lang], other=names[k])
                for i, req in enumerate(card.build):
                    if "card" in req and req["card"] not in failed:
                        other = cards.get(req["card"])
                        if other is None or not other.is_resource:
                            raise CardDataError(src[cid], cid, f"build[{i}].card",
                                                f"{req['card']!r} is not a resource card (Ac, Sc or Br)",
                                                key="ls_build_card", id=req["card"])
            except CardDataError as err:
                report(err)
                failed.add(cid)
                del cards[cid]
                continue
            for lang in LANGS:
                names[(lang, card.name[lang].casefold())] = cid
        cs = cls(cards, types, {}, src)
        decks: dict[str, Deck] = {}
        for file, data in readable:
            d_in = data.get("decks", [])
            if not isinstance(d_in, list):
                report(CardDataError(file, None, "decks", "must be a list of deck objects", key="not_list"))
                continue
            for i, entry in enumerate(d_in):
                try:
                    deck = _deck(entry, file, i, cs, check=check_decks, failed=failed, problems=problems)
                    if deck is None:
                        continue
                    if deck.id in decks or deck.id in cards:
                        raise CardDataError(file, f"deck {deck.id!r}", "id", "is already used", key="defined_twice",
                                            other=src.get(deck.id, file))
                except CardDataError as err:
                    report(err)
                    continue
                decks[deck.id] = deck
                src[deck.id] = file
        cs.decks = decks
        from rules.logic_square.editions import read_patches
        for file, data in readable:
            if "editions" in data:
                try:
                    for ed, patch in read_patches(file, data["editions"], _Ctx(file).fail).items():
                        add_patch(cs.patches, ed, patch, lambda why, ed=ed, file=file: CardDataError(
                            file, None, f"editions.{ed}", why, key="ls_edition_twice", edition=ed))
                except CardDataError as err:
                    report(err)
        if problems is not None and len(problems) > start:
            return None
        if cs.patches:
            cs.raw_sources = sources
            for ed in cs.patches:                  # every edition's cards must be valid too
                try:
                    cs.at(ed)
                except CardDataError as err:
                    report(err)
        if problems is not None and len(problems) > start:
            return None
        return cs


def _deck(entry: Any, file: str, index: int, cs: CardSet, *, check: bool, failed: set[str] | None = None,
          problems: list | None = None) -> Deck | None:
    """One ready-made deck.  Raising: CardDataError at its first problem (an illegal deck: every
    broken deck rule in one message).  With ``problems``: every broken deck rule is reported
    there on its own (its ``logic_square.deck.*`` key and params) and the result is None; so is
    a deck naming a card in ``failed`` (left out for its own problem: not blamed again)."""
    from rules.logic_square.decks import normalise_deck, validate_deck

    if not isinstance(entry, dict):
        raise CardDataError(file, f"deck #{index + 1}", None, "a deck must be a JSON object", key="not_object")
    did = entry.get("id")
    label = f"deck {did!r}" if isinstance(did, str) and did else f"deck #{index + 1}"
    if not isinstance(did, str) or not _ID_RE.match(did):
        raise CardDataError(file, label, "id", "must be 2–12 lowercase letters, digits or _, starting with a letter",
                            key="id_format", value=_word(did), rule=TYPE_RULE)
    for key in entry:
        if key not in DECK_FIELDS:
            raise CardDataError(file, label, key, "unknown field; allowed: id, name, avi, resources, it",
                                key="unknown_field", allowed=list(DECK_FIELDS))
    ctx = _Ctx(file, label)
    name = _lang(ctx, "name", entry.get("name"))
    _deck_shape(ctx, entry)
    try:
        spec = normalise_deck({k: entry.get(k) for k in ("avi", "resources", "it")})
    except ValueError as exc:
        raise CardDataError(file, label, "resources", str(exc)) from None
    left_out = [c for c in [spec["avi"], *spec["resources"], *spec["it"]] if c and c in (failed or ())]
    if check:
        # a card it names that was left out for its own problem: the deck is not blamed for it
        found = [p for p in validate_deck(cs, spec) if p.params.get("card") not in left_out]
        if found and problems is not None:
            for p in found:
                collect_into(problems, keyed(CardDataError(file, label, p.field, "the deck is not legal: " + p.message),
                                             p.key, _deck_params(p.params)))
            return None
        if left_out:
            return None
        if found:
            raise keyed(CardDataError(file, label, found[0].field,
                                      "the deck is not legal: " + "; ".join(p.message for p in found)),
                        found[0].key, _deck_params(found[0].params))
    return Deck(id=did, name=name, avi=spec["avi"], resources=tuple(spec["resources"]), it=tuple(spec["it"]))


DECK_FIELDS = ("id", "name", "avi", "resources", "it")


def keyed(err: CardDataError, key: str, params: dict) -> CardDataError:
    """``err`` with a catalog key and params (params may be named like the error's own fields:
    a deck rule's ``card``)."""
    err.key, err.params = key, dict(params)
    return err
DECK_PARTS = {"avi": {"en": "the AVI", "ja": "《AVI》"}, "resources": {"en": "the resource deck", "ja": "リソースデッキ"},
              "it": {"en": "the IT deck", "ja": "《IT》カードデッキ"}}


def _deck_params(params: dict) -> dict:
    """A deck rule's params for a card file's reader: the part of the deck in both languages."""
    out = dict(params)
    if out.get("part") in DECK_PARTS:
        out["part"] = dict(DECK_PARTS[out["part"]])
    return out


def _deck_shape(ctx: _Ctx, entry: dict) -> None:
    """The fields of a deck entry have the shape :func:`normalise_deck` reads (keyed errors)."""
    avi = entry.get("avi")
    if avi is not None and not isinstance(avi, str):
        raise ctx.fail("avi", f"the deck's avi must be a card id, not {avi!r}", "ls_deck_id", value=_word(avi))
    res = entry.get("resources")
    if isinstance(res, dict):
        for cid, n in res.items():
            if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 30:
                raise ctx.fail(f"resources.{cid}", f"copies of {cid!r} must be a whole number from 1 to 30, not {n!r}",
                               "int_range", low=1, high=30, value=_word(n))
    elif not isinstance(res, list) or not all(isinstance(c, str) for c in res):
        raise ctx.fail("resources", "the deck's resources must be a list of card ids (or an object id -> copies)",
                       "ls_deck_resources")
    it = entry.get("it")
    if not isinstance(it, list) or not all(isinstance(c, str) for c in it):
        raise ctx.fail("it", "the deck's it must be a list of IT card ids", "ls_deck_it")


__all__ = ["CardSet", "Card", "Action", "Ability", "Deck", "CardDataError", "parse_range", "read_card",
           "CATEGORIES", "RESOURCE_CATEGORIES", "COLOURS", "EFFECTS", "MODS", "BREAKS", "BUILD_KEYS"]
