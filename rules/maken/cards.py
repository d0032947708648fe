"""Project Maken card data: validation of card files (already parsed JSON) into a :class:`CardSet`.

Nothing here reads files: ``rules/maken/files.py`` reads ``data/cards/maken/*.json`` and
hands the parsed objects to :meth:`CardSet.from_sources`.  Errors name the file, the card and the
field.  Card format (one object per file)::

    {"format": 1,
     "characters": [{"id", "name": {"en","ja"}, "text": {"en","ja"}, "draw_limit": 3}],
     "cards": [{"id", "character", "kind": "attack", "name": {"en","ja"},
                "speed": 4, "reach": 2 | [front, back], "attack": 3, "guard": 2,
                "posture": "stand"|"crouch"|"air", "unguardable": ["stand", ...],
                "cost": 0, "gain": 0, "gc": null|"only"|"able",
                "bet": [effect], "hit": [effect], "icon": "dust"|"gauge"|"hand"|"stamina"},
               {"id", "character", "kind": "support", "name", "timing": "before"|"after",
                "effect": [effect], "icon"}],
     "decks": [{"id", "name": {"en","ja"}, "character", "cards": {card_id: copies}}]}

    effect = {"do": "draw"|"gauge"|"power"|"recover", "n": 1..5, "if_gauge": 0..10 (bet only)}

The normalised card is a plain JSON dict (``front``/``back`` instead of ``reach``, every field
present, and a generated ``text`` in both languages), so match states copy it verbatim.  A
character's ``text`` is its own words (optional: without it, the rules text generated from its
draw limit, :func:`character_text`, stands in).

The schema of one entry is :mod:`rules.maken.card_schema`.  Every error is a :class:`CardDataError` (a :class:`rules.card_errors.CardDataError`) with a
catalog key (``cardcheck.<key>``, ``data/i18n/<lang>/cardcheck*.json``; a deck rule: its
``maken.deck.*`` key) and its params.  ``from_sources(sources)`` raises the first; with
``problems=[...]`` it reports every problem there, card by card and deck by deck, and returns None:

>>> bad = {"characters": [{"id": "hana", "name": {"en": "Hana", "ja": "ハナ"}, "draw_limit": 9}],
...        "cards": [{"id": "hn01", "kind": "attack", "character": "hana", "name": {"en": "A", "ja": "A"},
...                   "speed": 3, "reach": 1, "attack": 2, "guard": 1, "posture": "sit", "icon": "dust"}]}
>>> found = []
>>> CardSet.from_sources([("new.json", bad)], problems=found) is None
True
>>> [(e.card, e.field, e.key) for e in found]
[('hana', 'draw_limit', 'int_range'), ('hn01', 'posture', 'choice')]
"""
from __future__ import annotations

from typing import Any, Iterable

from rules.card_errors import collect_into
from rules.editions import PerEdition, add_patch
from rules.maken.decks import deck_problems, normalise_spec
from rules.maken.card_schema import (BET_EFFECTS, DECK_KEYS, EFFECT_N, HIT_EFFECTS, ICON_EN, ICON_JA,  # noqa: F401
                                     ICONS, ID_RULE, IF_GAUGE, NUMBERS, POSTURE_EN, POSTURE_JA, POSTURES,
                                     SUPPORT_EFFECTS, TIMINGS, TOP_KEYS, CardDataError, _Ctx, _ID_RE, _label,
                                     _names, _shown, card_text, character_text, keyed, normalise_card,
                                     normalise_character)
from rules.maken.editions import at, parse_patch


def _deck_shape(ctx: _Ctx, label: str, raw: dict) -> list[CardDataError]:
    """What makes a deck unreadable (before its rules are checked), every one."""
    out = []
    for key in raw:
        if key not in DECK_KEYS:
            out.append(ctx.fail(label, key, "unknown deck field; allowed: id, name, character, cards",
                                key="unknown_field", allowed=list(DECK_KEYS[:4])))
    ch = raw.get("character")
    if ch is not None and not isinstance(ch, str):
        out.append(ctx.fail(label, "character", f"the deck's character must be a card id, not {ch!r}",
                            key="mk_deck_character", value=_shown(ch)))
    cards = raw.get("cards", {})
    if isinstance(cards, list):
        if not all(isinstance(c, str) for c in cards):
            out.append(ctx.fail(label, "cards", "the deck's cards must be card ids", key="mk_deck_cards"))
    elif isinstance(cards, dict):
        for cid, n in cards.items():
            if isinstance(n, bool) or not isinstance(n, int) or n < 1:
                out.append(ctx.fail(label, f"cards.{cid}", f"copies of {cid!r} must be a whole number ≥ 1, not {n!r}",
                                    key="mk_copies", card=str(cid)[:30], value=_shown(n)))
    else:
        out.append(ctx.fail(label, "cards", "the deck's cards must be an object card id -> copies",
                            key="mk_deck_cards"))
    return out


def _deck_field(problem: dict, character: Any) -> str:
    """The field of a deck a broken deck rule is about: its character, or its cards."""
    if problem["key"] in ("maken.deck.no_character", "maken.deck.character_not_character"):
        return "character"
    if problem["key"] == "maken.deck.unknown_card" and problem["params"].get("card") == character:
        return "character"
    return "cards"


class CardSet:
    """Validated characters, cards and ready-made decks (plain dicts, read-only by convention)."""

    def __init__(self, characters: dict, cards: dict, decks: dict, patches: dict | None = None) -> None:
        self.characters = characters
        self.cards = cards
        self.decks = decks
        self.patches = patches or {}      # rules edition -> its changes (rules/maken/editions.py)
        self._at = PerEdition(self._build_at)

    def at(self, edition: int) -> "CardSet":
        """The card set as it stands in rules ``edition`` (kept per edition): the files' cards with
        every patch of an edition up to ``edition`` applied, oldest first (a match keeps its
        edition's numbers)."""
        return self._at(edition)

    def _build_at(self, edition: int) -> "CardSet":
        return at(self, edition)

    def __repr__(self) -> str:
        return f"<maken CardSet {len(self.characters)} characters, {len(self.cards)} cards, {len(self.decks)} decks>"

    def pool(self, character: str) -> list[str]:
        return [cid for cid, c in self.cards.items() if c["character"] == character]

    @classmethod
    def from_sources(cls, sources: Iterable[tuple[str, Any]], *, problems: list | None = None) -> "CardSet | None":
        """``sources``: (file label, parsed JSON) pairs.  Raises CardDataError for the first problem;
        with ``problems`` (a list) every problem is appended there instead, card by card and deck
        by deck (a card or deck with a problem is left out, a deck naming a card left out is not
        blamed for it), and the result is None when there was any.

        The characters of every file are read first, then the cards, then the decks, so a card may
        name a character of another file whatever the order of the files (a zip's)."""
        start = len(problems) if problems is not None else 0

        def report(err: CardDataError) -> None:
            collect_into(problems, err)

        characters: dict = {}
        cards: dict = {}
        failed: set[str] = set()          # characters and cards left out for a problem of their own
        names: dict[str, dict[str, str]] = {"en": {}, "ja": {}}      # a name (folded) -> the id it names
        raw: dict[str, list] = {"characters": [], "cards": [], "decks": []}
        raw_patches = []
        for file, data in sources:
            ctx = _Ctx(file)
            if not isinstance(data, dict):
                report(ctx.fail(None, None, "a card file must be a JSON object", key="json_object"))
                continue
            for key in data:
                if key not in TOP_KEYS:
                    report(ctx.fail(None, key, "unknown top-level key; allowed: " + ", ".join(TOP_KEYS),
                                    key="unknown_key", allowed=list(TOP_KEYS)))
            if data.get("format", 1) != 1:
                report(ctx.fail(None, "format", "only format 1 is known", key="format",
                                value=str(data["format"])[:30], expected="1"))
            for section in raw:
                value = data.get(section, [])
                if not isinstance(value, list):
                    report(ctx.fail(None, section, f"must be a list of {section}", key="not_list"))
                    continue
                raw[section] += [(ctx, i, entry) for i, entry in enumerate(value)]
            eds = data.get("editions", {})
            if not isinstance(eds, dict):
                report(ctx.fail(None, "editions", 'must be {"<edition>": {"cards", "decks", "rules"}}',
                                key="not_object"))
            else:
                raw_patches += [(file, k, v) for k, v in eds.items()]

        def named(ctx: _Ctx, entry: dict) -> bool:
            """A name already another card's is refused: "at most 3 copies of a name" must mean one card."""
            for lang in ("en", "ja"):
                other = names[lang].get(entry["name"][lang].strip().casefold())
                if other is not None and other != entry["id"]:
                    report(ctx.fail(entry["id"], f"name.{lang}", f"{entry['name'][lang]!r} is already the name of {other!r}",
                                    key="name_taken", name=entry["name"][lang], other=other))
                    return False
            for lang in ("en", "ja"):
                names[lang][entry["name"][lang].strip().casefold()] = entry["id"]
            return True

        for ctx, i, entry in raw["characters"]:
            try:
                ch = normalise_character(ctx, entry, i)
            except CardDataError as err:
                report(err)
                failed.add(_label(entry, i))
                continue
            if ch["id"] in characters:
                report(ctx.fail(ch["id"], "id", "defined twice", key="defined_twice", other=ch["id"]))
                continue
            if named(ctx, ch):
                characters[ch["id"]] = ch
            else:
                failed.add(ch["id"])
        for ctx, i, entry in raw["cards"]:
            try:
                card = normalise_card(ctx, entry, characters, i, failed)
            except CardDataError as err:
                report(err)
                failed.add(_label(entry, i))
                continue
            if card["id"] in cards or card["id"] in characters:
                report(ctx.fail(card["id"], "id", "defined twice", key="defined_twice", other=card["id"]))
                continue
            if card["character"] not in characters:     # its character's own problem is reported
                failed.add(card["id"])
                continue
            if named(ctx, card):
                cards[card["id"]] = card
            else:
                failed.add(card["id"])
        cs = cls(characters, cards, {})
        for ctx, i, entry in raw["decks"]:
            if not isinstance(entry, dict) or not isinstance(entry.get("id"), str) or not _ID_RE.match(entry["id"]):
                shown = entry.get("id") if isinstance(entry, dict) else entry
                report(ctx.fail(_label(entry, i, deck=True), "id", "each deck needs an id (a–z, 0–9, _)",
                                key="required" if shown is None else "id_format", value=str(shown)[:40], rule=ID_RULE))
                continue
            did = entry["id"]
            label = f"deck {did!r}"
            bad = _deck_shape(ctx, label, entry)
            try:
                name = _names(ctx, label, entry.get("name"))
            except CardDataError as err:
                bad.append(err)
            for err in bad:
                report(err)
            if bad:
                continue
            spec = normalise_spec({"character": entry.get("character"), "cards": entry.get("cards", {})})
            if spec["character"] in failed or any(c in failed for c in spec["cards"]):
                continue                   # its card's own problem is reported; the deck is not blamed
            found = deck_problems(cs, spec)
            for p in found:
                report(keyed(ctx.file, label, _deck_field(p, spec["character"]), "illegal ready-made deck: " + p["text"],
                             p["key"], p["params"]))
            if found:
                continue
            if did in cs.decks:
                report(ctx.fail(label, "id", "deck defined twice", key="defined_twice", other=did))
                continue
            cs.decks[did] = {"name": name, "spec": spec}
        # oldest first: a patch builds on the cards as the editions before it left them
        raw_patches.sort(key=lambda p: int(p[1]) if str(p[1]).isdigit() else 0)
        for file, key, patch in raw_patches:
            try:
                ed, changes = parse_patch(cs, file, key, patch)
                add_patch(cs.patches, ed, changes, lambda why, file=file, key=key: CardDataError(
                    file, None, f"editions.{key}", why, key="mk_edition_twice", edition=str(key)))
            except CardDataError as err:
                if err.card not in failed:      # a patch of a card left out: its own problem is reported
                    report(err)
        if problems is not None and len(problems) > start:
            return None
        return cs


__all__ = ["CardSet", "CardDataError", "card_text", "character_text", "normalise_card", "normalise_character",
           "POSTURES", "ICONS", "TIMINGS", "BET_EFFECTS", "HIT_EFFECTS", "SUPPORT_EFFECTS", "NUMBERS", "ID_RULE"]
