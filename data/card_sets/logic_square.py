"""Battle Logic Square card sets: AVIs and their abilities, resource cards (Ac, Sc, Br), IT cards,
types and ready-made decks (the rulebook fixes no card: every card of this project is its own).
The CSV layouts are documented in ``docs/card_sets/logic_square.md``; the JSON format is
``docs/cards.md`` (Battle Logic Square).

A set's cards are what the engine plays; the rules text players see is generated from their data
(:mod:`rules.logic_square.card_text`), the set's own ``text`` (of a card, an ability, an
awakening) shown beside it as its wording.  A card without a ``text`` gets the generated one.
A set changes cards, never a rule of the game: an ``editions`` block or a rules key (``rules``,
``life``, ``ap`` …) is refused.

>>> from data.card_sets.upload import read_upload
>>> from data.card_sets.build import build_set
>>> csv = ("id,name_ja,name_en,category,colour,cb,damage,range,effects\\n"
...        "srv01,サーバージャブ,Server Jab,Ac,green,yes,50,.x./xxx/.o.,draw 1 if=hit_avi\\n")
>>> files, _ = read_upload("resources.csv", csv.encode())
>>> built = build_set("logic_square", files, "extend")
>>> built.ok, built.counts["cards"]
(True, 1)
>>> print(built.cardset["srv01"].text["en"])
CB. Hit damage 50. Hit range: the 3 squares in front and the square 2 ahead. If it hits the opponent's AVI, draw 1 card.
"""
from __future__ import annotations

import copy
import json
import re
from collections import Counter
from functools import lru_cache
from typing import Any

from data.card_sets import csv_layout as cl
from data.card_sets import keys
from data.card_sets.build import SHIPPED
from data.card_sets.limited import LIMITED
from data.card_sets.model import NAME_LIMIT, TEXT_LIMIT, Entry, Fact, without_replaced
from rules.logic_square import card_text as ct
from rules.logic_square.cards import (BREAKS, BUILD_KEYS, COLOURS, EFFECT_IFS, EFFECTS, MODS, RESOURCE_CATEGORIES,
                                      Card, CardDataError, CardSet, parse_range, read_card)
from rules.logic_square.match import EDITION

GAME = "logic_square"
SECTIONS = ("format", "comment", "types", "cards", "decks")      # what a set's file may hold
ID_LIMIT = 31                 # what a cell may hold; the schema's id rule (2–12 characters) says the rest
# top-level keys that would change a rule of the game, not a card (refused: ``rules_patch``)
RULE_KEYS = ("rules", "rule", "options", "settings", "life", "life_start", "life_cap", "ap", "ap_turn",
             "ap_first_turn", "hand", "hand_size", "hand_target", "board", "max_turns", "deck_rules",
             "copy_limits", "limits", "caa", "chain", "awakening_rule", "turn_limit")


# --------------------------------------------------------------------------- cells

def _ref() -> cl.Cell:
    """A card id as another column names it (an ability's AVI, a deck's AVI): lower case."""
    def parse(text: str) -> str:
        value = text.strip().lower()
        if not re.fullmatch(r"[a-z][a-z0-9_]*", value) or len(value) > ID_LIMIT:
            raise cl.CellError("cell_id", value=text[:30])
        return value
    return cl.Cell(parse, lambda v: v, {"en": "a card id: av01", "ja": "カードID：av01"})


class _CellCtx:
    """The schema's range reader raising cell errors (same keys and params)."""

    def fail(self, fld: str | None, message: str, key: str | None = None, **params: Any) -> cl.CellError:
        m = re.search(r"\[(\d+)\]$", fld or "")
        return cl.CellError(key or "ls_range", f"#{int(m.group(1)) + 1}" if m else None, **params)


_OFFSET = re.compile(r"[+-]?\d:[+-]?\d")


def grid(offsets: Any) -> list[str]:
    """A range's canonical grid (the form of docs/cards.md): the farthest row first, as narrow as
    the range, ``o`` the user's AVI (``@`` when in range).

    >>> grid([[2, 0], [1, -1], [1, 0], [1, 1]])
    ['.x.', 'xxx', '.o.']
    """
    offs = {(int(f), int(s)) for f, s in offsets}
    top = max([f for f, _ in offs] + [0])
    low = min([f for f, _ in offs] + [0])
    w = max([abs(s) for _, s in offs] + [0])
    return ["".join(("@" if (0, 0) in offs else "o") if (f, s) == (0, 0) else "x" if (f, s) in offs else "."
                    for s in range(-w, w + 1)) for f in range(top, low - 1, -1)]


def range_cell() -> cl.Cell:
    """A range as a grid, the farthest row first, rows joined by ``/``: ``x`` in range, ``.`` not,
    ``o`` the user's AVI (``@`` when it is in range too): ``.x./xxx/.o.``; or as offsets
    ``forward:sideways`` (sideways + = the user's right): ``2:0 1:-1 1:0 1:1`` (commas inside an
    effects cell).  Read into the canonical grid (:func:`grid`), written back as it."""
    def offsets(value: Any) -> tuple:
        return parse_range(value, _CellCtx(), "range")

    def parse(text: str) -> list:
        t = text.strip().lower().replace("／", "/").replace("｜", "|").replace("＠", "@").replace("　", " ")
        tokens = [p for p in re.split(r"[\s,;]+", t) if p]
        if tokens and all(_OFFSET.fullmatch(p) for p in tokens):
            value: list = [[int(a), int(b)] for a, b in (p.split(":") for p in tokens)]
        else:
            value = [re.sub(r"\s+", "", row) for row in re.split(r"[/|\n]", t)]
        return grid(offsets(value))

    def write(value: Any) -> str:
        return "/".join(grid(offsets(value)))
    return cl.Cell(parse, write, {"en": "a grid, the farthest row first, rows joined by /: x in range, . not, "
                                        "o your AVI (@ when it is in range too), like .x./xxx/.o.",
                                  "ja": "遠い行から/でつないだ図：xが範囲、.は範囲外、oが自身の《AVI》（範囲に含むときは@）。"
                                        "例 .x./xxx/.o."})


def _word() -> cl.Cell:
    def parse(text: str) -> str:
        value = text.strip().lower()
        if not re.fullmatch(r"[a-z][a-z0-9_]*", value):
            raise cl.CellError("cell_id", value=text[:30])
        return value
    return cl.Cell(parse, lambda v: v, {"en": "an id", "ja": "ID"})


def _param_cells(spec: dict[str, tuple]) -> list[tuple[str, cl.Cell]]:
    out = []
    for key, (kind, _default, *bounds) in spec.items():
        if kind == "int":
            cell = cl.integer(bounds[0], bounds[1])
        elif kind == "range":
            cell = range_cell()
        elif kind == "type":
            cell = _word()
        else:
            cell = cl.choice(kind)
        out.append((key, cell))
    return out


EFFECT_TABLE = {name: _param_cells(spec) for name, spec in EFFECTS.items()}
MOD_TABLE = {name: _param_cells(spec) for name, spec in MODS.items()}
BREAK_TABLE = {name: _param_cells(spec) for name, spec in BREAKS.items()}


def effects_cell() -> cl.Cell:
    return cl.calls(EFFECT_TABLE, tag="do", extra={"if": cl.choice(EFFECT_IFS)})


def _named(cell: cl.Cell, key: str) -> cl.Cell:
    """``cell`` (of :func:`calls`) naming an unknown modifier or condition as one, not as an effect."""
    def parse(text: str) -> Any:
        try:
            return cell.parse(text)
        except cl.CellError as exc:
            if exc.key == "unknown_effect":
                exc.key = key
            raise
    return cl.Cell(parse, cell.write, cell.help)


def mods_cell() -> cl.Cell:
    return _named(cl.calls(MOD_TABLE, tag="mod"), "ls_unknown_mod")


def breaks_cell() -> cl.Cell:
    return _named(cl.calls(BREAK_TABLE, tag="when"), "ls_unknown_break")


_CATEGORY_WORDS = {c.lower(): c for c in RESOURCE_CATEGORIES}
_RESERVED = set(_CATEGORY_WORDS) | set(COLOURS) | {"cb", "non-cb", "any"}


def build_cell() -> cl.Cell:
    """An IT card's build condition: requirements separated by ``;``, each a count (1–3, default
    1) and what the card must be — a category (``Ac``, ``Sc``, ``Br``), a colour, ``cb`` /
    ``non-cb``, a type id, ``card=<id>``, or ``any``: ``2 Ac``, ``blue; any``, ``strike; shot``."""
    def req(part: str, k: int) -> dict:
        r: dict[str, Any] = {}

        def put(key: str, value: Any, word: str) -> None:
            if key in r:
                raise cl.CellError("ls_build_twice", f"#{k}", value=word[:30])
            r[key] = value
        for word in part.replace("＝", "=").split():
            low = word.lower()
            if "=" in low:
                key, _, raw = low.partition("=")
                if key not in BUILD_KEYS:
                    raise cl.CellError("unknown_param", f"#{k}", name=key[:30], known=list(BUILD_KEYS))
                if key == "count":
                    put(key, cl.integer(1, 3).parse(raw), word)
                elif key == "cb":
                    put(key, cl.boolean().parse(raw), word)
                elif key == "category":
                    put(key, cl.choice(RESOURCE_CATEGORIES).parse(raw), word)
                elif key == "colour":
                    put(key, cl.choice(COLOURS).parse(raw), word)
                else:
                    put(key, _word().parse(raw), word)
            elif re.fullmatch(r"\d+", low):
                put("count", cl.integer(1, 3).parse(low), word)
            elif low in _CATEGORY_WORDS:
                put("category", _CATEGORY_WORDS[low], word)
            elif low in COLOURS:
                put("colour", low, word)
            elif low == "cb":
                put("cb", True, word)
            elif low in ("non-cb", "non_cb", "no-cb", "nocb"):
                put("cb", False, word)
            elif low in ("any", "*"):
                continue
            elif re.fullmatch(r"[a-z][a-z0-9_]*", low):
                put("type", low, word)
            else:
                raise cl.CellError("ls_build_word", f"#{k}", value=word[:30])
        return r

    def parse(text: str) -> list:
        parts = [p.strip() for p in re.split(r"[;；\n]+", text) if p.strip()]
        return [req(p, k) for k, p in enumerate(parts, 1)]

    def write(value: Any) -> str:
        out = []
        for r in value or []:
            words = [str(r["count"])] if r.get("count", 1) != 1 else []
            if "category" in r:
                words.append(r["category"])
            if "colour" in r:
                words.append(r["colour"])
            if "cb" in r:
                words.append("cb" if r["cb"] else "non-cb")
            if "type" in r:
                words.append(r["type"] if r["type"] not in _RESERVED else f"type={r['type']}")
            if "card" in r:
                words.append(f"card={r['card']}")
            out.append(" ".join(words) or "any")
        return "; ".join(out)
    return cl.Cell(parse, write, {"en": "requirements separated by ;, each a count and Ac/Sc/Br, a colour, cb, "
                                        "a type id, card=<id> or any: 2 Ac; blue; any",
                                  "ja": ";区切りの条件。それぞれ枚数とAc/Sc/Br・色・cb・タイプID・card=<ID>・any："
                                        "2 Ac; blue; any"})


# --------------------------------------------------------------------------- layouts

def _id() -> cl.Column:
    return cl.Column("id", "id", cl.text(ID_LIMIT), required=True)


def _action_columns(*, place: bool = True) -> tuple[cl.Column, ...]:
    cols = [cl.Column("damage", "damage", cl.integer(0, 1000))]
    if place:
        cols.append(cl.Column("durability", "durability", cl.integer(1, 1000)))
    cols += [cl.Column("range", "range", range_cell()), cl.Column("effects", "effects", effects_cell())]
    if place:
        cols.append(cl.Column("aura", "aura", mods_cell()))
    return tuple(cols)


AVIS = cl.Layout(
    "avi", {"en": "AVIs", "ja": "《AVI》"},
    (_id(), *cl.bilingual("name", "name", NAME_LIMIT, required=True),
     cl.Column("types", "types", cl.words(most=2)),
     cl.Column("awakening_life", "awakening.life", cl.integer(1, 499)),
     cl.Column("awakening_mods", "awakening.mods", mods_cell()),
     *cl.bilingual("awakening_text", "awakening.text", TEXT_LIMIT),
     *cl.bilingual("text", "text", TEXT_LIMIT)),
    section="cards", constant={"category": "AVI"}, match={"category": "AVI"},
    example="docs/card_sets/logic_square_avis.csv")
ABILITIES = cl.Layout(
    "abilities", {"en": "AVI abilities", "ja": "《AVI》効果"},
    (cl.Column("avi", "avi", _ref(), required=True),
     *cl.bilingual("name", "name", NAME_LIMIT, required=True),
     cl.Column("cost", "cost", cl.integer(1, 6), required=True),
     *_action_columns(place=False),
     *cl.bilingual("text", "text", TEXT_LIMIT)),
    section="cards", parent=("avi", "avi", "abilities"), example="docs/card_sets/logic_square_abilities.csv")
RESOURCES = cl.Layout(
    "resource", {"en": "resource cards (Ac, Sc, Br)", "ja": "リソースカード（《Ac》《Sc》《Br》）"},
    (_id(), *cl.bilingual("name", "name", NAME_LIMIT, required=True),
     cl.Column("category", "category", cl.choice(RESOURCE_CATEGORIES), required=True),
     cl.Column("colour", "colour", cl.choice(COLOURS), required=True),
     cl.Column("cb", "cb", cl.boolean()),
     cl.Column("types", "types", cl.words(most=2)),
     *_action_columns(),
     cl.Column("break", "break", breaks_cell()),
     *cl.bilingual("text", "text", TEXT_LIMIT)),
    section="cards", match={"category": RESOURCE_CATEGORIES}, example="docs/card_sets/logic_square_resources.csv")
ITS = cl.Layout(
    "it", {"en": "IT cards", "ja": "《IT》カード"},
    (_id(), *cl.bilingual("name", "name", NAME_LIMIT, required=True),
     cl.Column("colour", "colour", cl.choice(COLOURS)),
     cl.Column("cb", "cb", cl.boolean()),
     cl.Column("types", "types", cl.words(most=2)),
     *_action_columns(),
     cl.Column("build", "build", build_cell(), required=True),
     *cl.bilingual("text", "text", TEXT_LIMIT)),
    section="cards", constant={"category": "IT"}, match={"category": "IT"}, example="docs/card_sets/logic_square_its.csv")
TYPES = cl.Layout(
    "type", {"en": "types", "ja": "タイプ"},
    (cl.Column("type", "type", _word(), required=True),
     # not a pair of the layout's kind: a type's names are the object itself ({"ja", "en"}); one
     # language is enough all the same (merge shows it in the other)
     cl.Column("name_ja", "ja", cl.text(NAME_LIMIT)),
     cl.Column("name_en", "en", cl.text(NAME_LIMIT))),
    section="types", id_column="type", keyed=True, example="docs/card_sets/logic_square_types.csv")
DECKS = cl.Layout(
    "deck", {"en": "ready-made decks", "ja": "構築済みデッキ"},
    (_id(), *cl.bilingual("name", "name", NAME_LIMIT, required=True),
     cl.Column("avi", "avi", _ref(), required=True),
     cl.Column("resources", "resources", cl.counts(most=30), required=True),
     cl.Column("it", "it", cl.ids(), required=True)),
    section="decks", example="docs/card_sets/logic_square_decks.csv")


# --------------------------------------------------------------------------- the adapter

def _copy(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _loaded() -> CardSet:
    from rules.logic_square.files import load_logic_square

    return load_logic_square(env=False)     # the packaged cards (an operator's folder is not a set's base)


@lru_cache(maxsize=8)
def _shipped_text(edition: int) -> str:
    """:meth:`LogicSquareCards.shipped_files` of ``edition`` as JSON text: every upload checked
    on the shipped cards reads them, and decoding one text is quicker than copying them again."""
    cs = _loaded().at(edition)
    cards = {"format": 1, "types": cs.types, "cards": [c.raw for c in cs.cards.values()]}
    decks = {"format": 1, "decks": [deck_entry(d) for d in cs.decks.values()]}
    return json.dumps([[SHIPPED + "cards.json", cards], [SHIPPED + "decks.json", decks]], ensure_ascii=False)


def deck_entry(deck: Any) -> dict:
    """A ready-made deck as its file entry (resources as id → copies)."""
    return {"id": deck.id, "name": dict(deck.name), "avi": deck.avi,
            "resources": dict(Counter(deck.resources)), "it": list(deck.it)}


def _kind(card: Card) -> str:
    """A card's kind as its CSV layout names it: ``avi``, ``it`` or ``resource``."""
    return "avi" if card.category == "AVI" else "it" if card.category == "IT" else "resource"


_TYPE_FIELD = re.compile(r"^types\.([^.]+)(?:\.(ja|en))?$")


class LogicSquareCards:
    game = GAME
    sections = SECTIONS + (LIMITED,)    # the top-level keys a set's file may hold (the export's)
    layouts = (AVIS, ABILITIES, RESOURCES, ITS, TYPES, DECKS)
    fixed_ids: frozenset = frozenset()

    def newest_edition(self) -> int:
        return EDITION

    def blank_file(self) -> dict:
        return {"cards": [], "decks": []}

    def shipped_files(self, edition: int | None) -> list[tuple[str, dict]]:
        """The shipped cards, types and ready-made decks of rules ``edition`` in the file format
        (fresh dicts, read from the edition's JSON text made once)."""
        return [(label, data) for label, data in json.loads(_shipped_text(edition or EDITION))]

    def base_files(self, mode: str, edition: int | None) -> list[tuple[str, dict]]:
        if mode == "alone":          # the rulebook fixes no card: a set that stands alone brings all of its own
            return []
        return self.shipped_files(edition)

    def own_items(self, data: dict) -> list[tuple[str, str, dict]]:
        out = []
        for section in ("cards", "decks"):
            value = data.get(section) if isinstance(data, dict) else None
            for entry in value if isinstance(value, list) else []:
                if isinstance(entry, dict) and isinstance(entry.get("id"), str):
                    out.append((section, entry["id"], entry))
        return out

    def merge(self, base: list[tuple[str, dict]], own: list[tuple[str, dict]]) -> list[tuple[str, dict]]:
        """The base files without what the set replaces (cards and decks by id, types by id),
        then the set's files — without an ``editions`` block (refused by :meth:`upload_rules`),
        each type name in both languages, and each card's missing texts generated."""
        out, own = without_replaced(base, keys.allowed_only(own, SECTIONS), self.own_items)
        own_types = {t for _l, d in own if isinstance(d, dict) and isinstance(d.get("types"), dict) for t in d["types"]}
        names: dict[str, dict] = {}
        for _label, kept in out:            # a type of the set replaces the shipped one of its id
            if isinstance(kept.get("types"), dict):
                kept["types"] = {t: n for t, n in kept["types"].items() if t not in own_types}
                names.update(kept["types"])
        for _label, data in own:
            if not isinstance(data, dict):
                continue
            types = data.get("types")
            if isinstance(types, dict):
                for tid, name in types.items():
                    if isinstance(name, dict):
                        given = [lang for lang in ("ja", "en") if isinstance(name.get(lang), str) and name[lang].strip()]
                        if len(given) == 1:
                            name[{"ja": "en", "en": "ja"}[given[0]]] = name[given[0]]
                        if len(given) >= 1:
                            names[tid] = name
        known = set(names)
        for label, data in own:
            if isinstance(data, dict) and isinstance(data.get("cards"), list):
                data["cards"] = [_with_texts(e, label, i, known, names) for i, e in enumerate(data["cards"])]
            out.append((label, data))
        return out

    def upload_rules(self, label: str, data: Any) -> list[CardDataError]:
        """A file holds types, cards and ready-made decks: an ``editions`` block or a rule of the
        game (in any letter case or width) is refused, and so is any other key (the schema checks
        what a card holds; a card's own words are its ``text``, so it takes no ``wording``); a
        type's name is held to a name's limits."""
        if not isinstance(data, dict):
            return []
        out = keys.section_problems(label, data, SECTIONS, rules=RULE_KEYS) + \
            keys.entry_problems(label, self.layouts, self.own_items(data), texts=False)
        types = data.get("types")
        if isinstance(types, dict):
            for tid, name in types.items():
                for lang, text in (name.items() if isinstance(name, dict) else ()):
                    if not isinstance(text, str):
                        continue
                    if re.search(r"[\x00-\x1f\x7f]", text):
                        out.append(CardDataError(label, str(tid), f"types.{tid}.{lang}", "holds control characters",
                                                 key="control_chars"))
                    elif len(text) > NAME_LIMIT:
                        out.append(CardDataError(label, str(tid), f"types.{tid}.{lang}",
                                                 f"is longer than {NAME_LIMIT} characters", key="too_long",
                                                 limit=NAME_LIMIT, length=len(text)))
        return out

    def validate(self, files: list[tuple[str, dict]], left_out: Any = ()) -> tuple[CardSet | None, list[CardDataError]]:
        """Collect mode (``(cardset, [])`` or ``(None, problems)``).  ``left_out``: ids of cards the
        upload already refused (CSV rows whose cells could not be read): decks naming them are not
        blamed for them."""
        problems: list[CardDataError] = []
        cs = CardSet.from_sources(files, problems=problems, left_out=left_out)
        problems = [_type_spot(e) for e in keys.respelled(problems)]
        if cs is not None and len(cs.decks) < 2:
            problems.append(CardDataError("", None, "decks", "needs two ready-made decks",
                                          key="too_few_decks", n=2, count=len(cs.decks)))
            cs = None
        return cs, problems

    def with_rules_text(self, cardset: CardSet, own: set[str]) -> CardSet:
        """The set's own cards say what they do: their texts (an AVI's abilities and awakening
        too) are generated from their data; the other cards keep theirs.  The set's own
        ready-made decks come first (the seats' default decks are the set's)."""
        cards = []
        for cid, card in cardset.cards.items():
            raw = _copy(card.raw)
            if cid in own:
                gen = ct.generated(card, cardset.types)
                raw["text"] = gen["text"]
                for ab, text in zip(raw.get("abilities") or [], gen.get("abilities") or []):
                    ab["text"] = text
                if raw.get("awakening") and gen.get("awakening"):
                    raw["awakening"]["text"] = gen["awakening"]
            cards.append(raw)
        decks = sorted(cardset.decks.values(), key=lambda d: d.id not in own)
        data = {"types": _copy(cardset.types), "cards": cards, "decks": [deck_entry(d) for d in decks]}
        return CardSet.from_sources([("card set", data)])

    def engine(self, cardset: CardSet, own: set[str]) -> Any:
        from rules.logic_square.engine import LogicSquareGame

        return LogicSquareGame(self.with_rules_text(cardset, own))

    def deck_ids(self, cardset: CardSet, own: set[str]) -> list[str]:
        return [d for d in cardset.decks if d in own]

    def card_kinds(self, cardset: CardSet) -> dict[str, str]:
        """Card id → its kind (:attr:`Entry.kind`, what limited play deals by), without the
        rules texts :meth:`entries` generates."""
        return {cid: _kind(card) for cid, card in cardset.cards.items()}

    def entries(self, cardset: CardSet, own: set[str]) -> list[Entry]:
        shown = self.with_rules_text(cardset, own)
        types = cardset.types
        out = []
        for cid, card in cardset.cards.items():
            kind = _kind(card)
            out.append(Entry(cid, kind, dict(card.name), ct.rules_text(card, types), card_facts(card, types),
                             own=cid in own, wording=_wording(card, types) if cid in own else None,
                             view=shown.view(cid)))
        for did, deck in cardset.decks.items():
            out.append(Entry(did, "deck", dict(deck.name), deck_words(cardset, deck), deck_facts(cardset, deck),
                             own=did in own, deck=True))
        return out


def _keyed(err: CardDataError, key: str, params: dict) -> CardDataError:
    err.key, err.params = key, dict(params)
    return err


def _type_spot(err: CardDataError) -> CardDataError:
    """A problem of a type: named by the type's id and its name's language (a types CSV's row
    and column ``name_ja``/``name_en``)."""
    m = _TYPE_FIELD.match(str(err.field or ""))
    if err.card is not None or not m:
        return err
    moved = CardDataError(err.file, m.group(1), m.group(2), err.message)
    return _keyed(moved, err.key, err.params) if err.key else moved


_PLACEHOLDER = {"ja": "-", "en": "-"}


def _with_texts(entry: Any, label: str, index: int, known: set[str], names: dict) -> Any:
    """A card entry whose missing texts (the card's, an ability's, the awakening's) are the
    generated ones; one that does not validate keeps placeholders (the schema names its problem)."""
    if not isinstance(entry, dict):
        return entry
    abilities = entry.get("abilities") if isinstance(entry.get("abilities"), list) else []
    awakening = entry.get("awakening") if isinstance(entry.get("awakening"), dict) else None
    missing = "text" not in entry or any(isinstance(a, dict) and "text" not in a for a in abilities) or \
        (awakening is not None and "text" not in awakening)
    if not missing:
        return entry
    trial = copy.deepcopy(entry)
    trial.setdefault("text", dict(_PLACEHOLDER))
    for ab in trial.get("abilities") if isinstance(trial.get("abilities"), list) else []:
        if isinstance(ab, dict):
            ab.setdefault("text", dict(_PLACEHOLDER))
    if isinstance(trial.get("awakening"), dict):
        trial["awakening"].setdefault("text", dict(_PLACEHOLDER))
    try:
        card = read_card(trial, label, index, known)
    except CardDataError:
        return trial
    gen = ct.generated(card, names)
    out = copy.deepcopy(entry)
    out.setdefault("text", gen["text"])
    for ab, text in zip(out.get("abilities") or [], gen.get("abilities") or []):
        if isinstance(ab, dict):
            ab.setdefault("text", text)
    if isinstance(out.get("awakening"), dict) and gen.get("awakening"):
        out["awakening"].setdefault("text", gen["awakening"])
    return out


def _wording(card: Card, types: dict) -> dict | None:
    """The set's own words for a card where they are not the generated text: the card's text,
    then (an AVI) each ability's and the awakening's, each only when the set's differs; None
    when every text is the generated one."""
    gen = ct.generated(card, types)
    en: list[str] = []
    ja: list[str] = []
    if card.text != gen["text"]:
        en.append(card.text["en"])
        ja.append(card.text["ja"])
    for i, (ab, text) in enumerate(zip(card.abilities, gen.get("abilities") or []), 1):
        if ab.text != text:
            en.append(f"{i}. {ab.name['en']} {ab.text['en']}")
            ja.append(f"{i}. {ab.name['ja']}{ab.text['ja']}")
    if card.awakening and card.awakening["text"] != gen.get("awakening"):
        en.append(card.awakening["text"]["en"])
        ja.append(card.awakening["text"]["ja"])
    return {"en": "\n".join(en), "ja": "\n".join(ja)} if en else None


# --------------------------------------------------------------------------- facts

def _num(n: Any) -> dict:
    return {"en": str(n), "ja": str(n)}


LABELS = {
    "category": {"en": "category", "ja": "カテゴリー"}, "colour": {"en": "colour", "ja": "色"},
    "cb": {"en": "CB", "ja": "《CB》"}, "types": {"en": "types", "ja": "タイプ"},
    "damage": {"en": "hit damage", "ja": "ヒットダメージ"}, "durability": {"en": "durability", "ja": "耐久値"},
    "range": {"en": "hit range", "ja": "ヒット範囲"}, "build": {"en": "build condition", "ja": "アクション構築条件"},
    "cost": {"en": "cost", "ja": "コスト"}, "name": {"en": "name", "ja": "名前"}, "life": {"en": "life", "ja": "ライフ"},
}
YES, NO = {"en": "yes", "ja": "あり"}, {"en": "no", "ja": "なし"}
AWAKENING = {"en": "Awakening", "ja": "覚醒"}


def _effect_label(i: int) -> dict:
    return {"en": f"effect {i + 1}", "ja": f"効果{i + 1}"}


def _action_facts(act: Any, prefix: str, subject: dict | None) -> list[Fact]:
    out = []
    if act.damage:
        out.append(Fact(prefix + "damage", LABELS["damage"], _num(act.damage), subject))
    if act.durability:
        out.append(Fact(prefix + "durability", LABELS["durability"], _num(act.durability), subject))
    if act.range:
        out.append(Fact(prefix + "range", LABELS["range"], ct.range_words(act.range), subject))
    for i, e in enumerate(act.effects):
        out.append(Fact(f"{prefix}effects.{i}", _effect_label(i), ct.effect_phrase(e), subject))
    for i, m in enumerate(act.aura):
        out.append(Fact(f"{prefix}aura.{i}", {"en": f"while placed {i + 1}", "ja": f"設置中の効果{i + 1}"},
                        ct.mod_phrase(m), subject))
    return out


def card_facts(card: Card, types: dict) -> list[Fact]:
    """Every number, keyword and effect of a card a designer might change, with stable keys."""
    facts = [Fact("category", LABELS["category"], {"en": card.category, "ja": f"《{card.category}》"})]
    names = [types.get(t) or {"en": t, "ja": t} for t in card.types]
    facts.append(Fact("types", LABELS["types"], {"en": ", ".join(f"[{n['en']}]" for n in names) or "none",
                                                 "ja": "".join(f"[{n['ja']}]" for n in names) or "なし"}))
    if card.category == "AVI":
        for i, ab in enumerate(card.abilities):
            subject = dict(ab.name)
            facts.append(Fact(f"abilities.{i}.name", LABELS["name"], dict(ab.name),
                              {"en": f"ability {i + 1}", "ja": f"《AVI》効果{i + 1}"}))
            facts.append(Fact(f"abilities.{i}.cost", LABELS["cost"], _num(ab.cost), subject))
            facts += _action_facts(ab.action, f"abilities.{i}.", subject)
        if card.awakening:
            facts.append(Fact("awakening.life", LABELS["life"], _num(card.awakening["life"]), AWAKENING))
            for i, m in enumerate(card.awakening["mods"]):
                facts.append(Fact(f"awakening.mods.{i}", _effect_label(i), ct.mod_phrase(m, placed=False), AWAKENING))
        return facts
    if card.colour:
        facts.append(Fact("colour", LABELS["colour"], {"en": card.colour, "ja": ct.COLOUR_JA.get(card.colour, card.colour)}))
    facts.append(Fact("cb", LABELS["cb"], YES if card.cb else NO))
    facts += _action_facts(card.action, "", None)
    for i, b in enumerate(card.breaks):
        facts.append(Fact(f"break.{i}", {"en": f"break condition {i + 1}", "ja": f"ブレイク条件{i + 1}"},
                          ct.break_phrase(b, types)))
    if card.build:
        facts.append(Fact("build", LABELS["build"], ct.build_words(card, types)))
    return facts


def _name(cs: CardSet, cid: str) -> dict:
    card = cs.get(cid)
    return dict(card.name) if card is not None else {"en": cid, "ja": cid}


def deck_words(cs: CardSet, deck: Any) -> dict:
    """A ready-made deck's list in words: its AVI, its resource deck, its IT deck."""
    avi = _name(cs, deck.avi)
    counts = Counter(deck.resources)
    res = [(_name(cs, c), n) for c, n in counts.items()]
    its = [_name(cs, c) for c in deck.it]
    return {"en": f"AVI: {avi['en']}. Resource deck ({len(deck.resources)}): "
                  + ", ".join(f"{name['en']} ×{n}" for name, n in res) + ". IT deck: "
                  + ", ".join(n["en"] for n in its) + ".",
            "ja": f"《AVI》：{avi['ja']}。リソースデッキ（{len(deck.resources)}枚）："
                  + "、".join(f"{name['ja']}×{n}" for name, n in res) + "。《IT》カードデッキ："
                  + "、".join(n["ja"] for n in its) + "。"}


def deck_facts(cs: CardSet, deck: Any) -> list[Fact]:
    facts = [Fact("avi", {"en": "AVI", "ja": "《AVI》"}, _name(cs, deck.avi))]
    for cid, n in Counter(deck.resources).items():
        facts.append(Fact(f"resources.{cid}", _name(cs, cid), _num(n)))
    for cid in deck.it:
        facts.append(Fact(f"it.{cid}", _name(cs, cid), {"en": "in the IT deck", "ja": "《IT》カードデッキに入っている"}))
    return facts


ADAPTER = LogicSquareCards()

__all__ = ["ADAPTER", "LogicSquareCards", "AVIS", "ABILITIES", "RESOURCES", "ITS", "TYPES", "DECKS",
           "range_cell", "effects_cell", "mods_cell", "breaks_cell", "build_cell", "card_facts", "deck_facts",
           "deck_words"]
