"""Card files of Avalon's Sanctuary: their cards, ready-made decks and edition patches checked
together (:func:`validate_sources`).  The schema of one card is :mod:`rules.avalon.card_schema`,
the card texts in both languages (generated from the data so text and behaviour never disagree)
:mod:`rules.avalon.card_text`; the names of both that the card-set code reads are named here too.

A card is a plain JSON dict (``docs/rules/avalon.md``, "Cards"):

- creature: ``id, category="creature", name{en,ja}, attr (yellow/red/blue/green/none), orig 1–5,
  atk, dur, mana {y,r,b,g: attribute icons, c: colourless, w: rainbow, v: rainbow vessel}``, and
  optionally ``keywords`` (first, last, evade, evade_null, death, death_null, reflect,
  reflect_null, counter), ``target_minus`` (while deployed), ``battle {atk, dur, when}``
  (ability order 4), ``on_summon {draw}``, ``support {...}`` (usable as battle support),
  ``ninja`` (the Ninja Master ability, order 3), and the timed abilities of ``TIMINGS``
  (``on_forge`` 素成時, ``while_forged`` 素成中, ``battle_start`` 戦闘開始時, ``on_win`` 戦闘勝利時,
  ``on_loss`` 戦闘敗北時, ``battle_end`` 戦闘終了時, ``in_hand`` 手札, ``as_proof`` 証), each one effect
  ``{draw: n}``, ``{life: n}``, ``{atk: n}`` or ``{target_minus: n}`` as the timing allows;
- support: ``id, category="support", name, orig, support {kind, ...}``;
- magic: ``id, category="magic", name, orig, magic {kind, ...}``;
- avatar: ``id, category="avatar", name``.

A card has only the fields of its category (``FIELDS``): an unknown field, effect or parameter is
refused, naming it.  :func:`validate_sources` checks whole card files (cards, ready-made decks,
edition patches): raising at the first problem (the operator's files, at start-up), or with
``problems=[...]`` collecting every problem card by card and deck by deck (a server's upload).
Every error carries a catalog key (``cardcheck.<key>``, ``data/i18n/*/cardcheck*.json``).

>>> bad = {"id": "c99", "category": "creature", "name": {"en": "X", "ja": "X"}, "attr": "purple",
...        "orig": 7, "atk": 1, "dur": 1, "mana": {"y": 1}, "on_win": {"heal": 1}}
>>> [(e.field, e.key) for e in card_problems(bad, "x.json")]
[('orig', 'int_range'), ('attr', 'choice'), ('on_win', 'unknown_effect')]
>>> found = []
>>> validate_sources([("x.json", {"cards": [bad], "decks": {"d1": {"name": {"en": "D", "ja": "D"},
...     "spec": {"avatar": "a1", "cards": {"c99": 40}}}}})], problems=found) is None
True
>>> len(found)          # the deck naming c99 is not blamed for c99's own problems
3
"""
from __future__ import annotations

from typing import Any, Iterable

# the schema's and the texts' names that the card-set code (data/card_sets/avalon.py) reads here
from rules.avalon.card_schema import (ATTRS, BATTLE_RANGE, CATEGORIES, CREATURE_NUMBERS, DECK_ID_RULE,  # noqa: F401
                                      EFFECT_RANGE, KEYWORDS, MAGIC_DEFAULTS, MAGIC_KINDS, MAGIC_PARAMS,
                                      MANA_KEYS, MANA_RANGE, ON_SUMMON, SUPPORT_KINDS, SUPPORT_PARAMS, TIMINGS,
                                      TOP_KEYS, WHENS, _DECK_ID, CardDataError, _int, _name, _shown, card_problems,
                                      keyed)
from rules.avalon.card_text import ATTR_TEXT, KW_TEXT, MANA_TEXT, TIMING_TEXT, card_text  # noqa: F401
from rules.avalon.decks import normalise
from rules.avalon.decks import problems as deck_rules
from rules.avalon.editions import check
from rules.card_errors import collect_into


# --------------------------------------------------------------------------- card files

def _spec_problems(deck: Any, file: str, tag: str) -> list[CardDataError]:
    """A ready-made deck's shape: ``{"name": {en, ja}, "spec": {"avatar": id, "cards": {id: n}}}``
    (the deck rules are :func:`rules.avalon.decks.problems`)."""
    if not isinstance(deck, dict):
        return [CardDataError(file, tag, None, "a deck needs name and spec", key="not_object")]
    out: list[CardDataError] = []

    def bad(field: str | None, problem: str, key: str, **params: Any) -> None:
        out.append(CardDataError(file, tag, field, problem, key=key, **params))

    for key in deck:
        if key not in ("name", "spec"):
            bad(key, "unknown deck field; allowed: name, spec", "unknown_field", allowed=["name", "spec"])
    _name(deck.get("name"), "name", bad)
    spec = deck.get("spec")
    if not isinstance(spec, dict):
        bad("spec", "a deck needs name and spec", "required" if spec is None else "not_object")
        return out
    for key in spec:
        if key not in ("avatar", "cards"):
            bad(f"spec.{key}", "a deck spec has avatar and cards", "unknown_field", allowed=["avatar", "cards"])
    avatar = spec.get("avatar")
    if avatar is not None and not isinstance(avatar, str):
        bad("spec.avatar", "the deck's avatar must be a card id", "av_card_id", value=_shown(avatar))
    cards = spec.get("cards", {})
    if isinstance(cards, list):
        for cid in cards:
            if not isinstance(cid, str):
                bad("spec.cards", "the deck's cards must be card ids", "av_card_id", value=_shown(cid))
    elif isinstance(cards, dict):
        for cid, n in cards.items():
            _int(n, 0, 99, f"spec.cards.{cid}", bad)
    else:
        bad("spec.cards", "the deck's cards must be an object card_id -> copies", "not_object")
    return out


AVATAR_RULES = ("avalon.deck.no_avatar", "avalon.deck.avatar_not_avatar")


def validate_sources(sources: Iterable[tuple[str, Any]], problems: list | None = None) -> dict | None:
    """``[(file label, parsed JSON), …]`` → ``{"cards": {id: card}, "decks": {id: {"name", "spec"}},
    "editions": {n: patch}}``, every card, ready-made deck and edition patch checked.

    A file is ``{"cards": [...]}``, ``{"decks": {...}}`` and/or ``{"editions": {...}}`` (and a
    ``comment``).  Every ready-made deck is legal and has its own avatar (the AI guesses an
    opponent's hidden cards from the ready-made deck its avatar belongs to).  Raises the first
    :class:`CardDataError`; with ``problems`` (a list) every problem is appended there instead —
    a card or deck with a problem is left out and the checking goes on, a deck naming a card left
    out for its own problem is not blamed for it — and the result is None when there was any."""
    start = len(problems) if problems is not None else 0

    def report(err: CardDataError) -> None:
        collect_into(problems, err)

    cards: dict[str, dict] = {}
    origin: dict[str, str] = {}
    failed: set[str] = set()              # cards left out for a problem of their own
    raw_decks: list[tuple[str, int, Any, Any]] = []
    patches: list[tuple[str, Any]] = []
    shape = 'a card file is {"cards": [...]}, {"decks": {...}} and/or {"editions": {...}}'
    for label, data in sources:
        if not isinstance(data, dict):
            report(CardDataError(label, None, None, shape, key="json_object"))
            continue
        for key in data:
            if key not in TOP_KEYS:
                report(CardDataError(label, None, key, shape, key="unknown_key", allowed=list(TOP_KEYS)))
        entries = data.get("cards", [])
        if not isinstance(entries, list):
            report(CardDataError(label, None, "cards", "must be a list of cards", key="not_list"))
            entries = []
        for i, card in enumerate(entries):
            found = card_problems(card, label, i)
            if found:
                for err in found:
                    report(err)
                if isinstance(card, dict) and isinstance(card.get("id"), str):
                    failed.add(card["id"])
                continue
            cid = card["id"]
            if cid in cards:
                report(CardDataError(label, cid, "id", "this id is used twice", key="defined_twice",
                                     other=origin[cid]))
                continue
            cards[cid], origin[cid] = card, label
        decks = data.get("decks", {})
        if not isinstance(decks, dict):
            report(CardDataError(label, None, "decks", "must be an object: deck id -> deck", key="not_object"))
        else:
            raw_decks += [(label, n, did, deck) for n, (did, deck) in enumerate(decks.items())]
        if "editions" in data:
            patches.append((label, data["editions"]))
    ready: dict[str, dict] = {}
    deck_origin: dict[str, str] = {}
    avatars: dict[str, str] = {}          # avatar -> the ready-made deck it belongs to
    for label, n, did, deck in raw_decks:
        tag = f"deck {did!r}" if isinstance(did, str) and did.strip() else f"deck #{n + 1}"
        if not isinstance(did, str) or not _DECK_ID.fullmatch(did):
            report(CardDataError(label, tag, "id", "must be lowercase letters, digits and _",
                                 key="id_format", value=_shown(did), rule=DECK_ID_RULE))
            continue
        found = _spec_problems(deck, label, tag)
        if found:
            for err in found:
                report(err)
            continue
        spec = normalise(deck["spec"])
        if spec["avatar"] in failed or any(c in failed for c in spec["cards"]):
            continue                   # its card's own problem is reported; the deck is not blamed
        broken = deck_rules(cards, deck["spec"])
        for i, p in enumerate(broken):
            avatar = p["key"] in AVATAR_RULES or (i == 0 and p["key"] == "avalon.deck.unknown_card"
                                                  and p["params"].get("card") == spec["avatar"])
            report(keyed(CardDataError(label, tag, "spec.avatar" if avatar else "spec.cards", p["text"]),
                         p["key"], p["params"]))
        if broken:
            continue
        if did in ready:
            report(CardDataError(label, tag, "id", "this deck id is used twice", key="defined_twice",
                                 other=deck_origin[did]))
            continue
        if spec["avatar"] in avatars:
            report(CardDataError(label, tag, "spec.avatar",
                                 f"avatar {spec['avatar']!r} is already ready-made deck {avatars[spec['avatar']]!r}'s: "
                                 "each ready-made deck has its own avatar", key="av_avatar_shared",
                                 avatar=spec["avatar"], deck=avatars[spec["avatar"]]))
            continue
        ready[did], deck_origin[did], avatars[spec["avatar"]] = deck, label, did
    editions: dict = {}
    for label, found_patches in patches:
        try:
            for ed, patch in check(found_patches, cards, label).items():
                if ed in editions:
                    report(CardDataError(label, None, f"editions.{ed}", "edition patched twice",
                                         key="av_edition_twice", edition=ed))
                    continue
                editions[ed] = patch
        except CardDataError as err:
            report(err)
    if problems is not None and len(problems) > start:
        return None
    return {"cards": cards, "decks": ready, "editions": dict(sorted(editions.items()))}
