"""Project Maken card sets: characters, attack cards, support cards and ready-made decks (no
card is fixed by the rulebook: every character of this project is its own).  The CSV layouts are
documented in ``docs/card_sets/maken.md``; the JSON format is ``docs/cards.md`` ("Project Maken").

A set's cards are what the engine plays: their rules text is generated from their data (an
attack or support card's always is, ``rules.maken.cards.card_text``; a set's own character gets
:func:`rules.maken.cards.character_text` from its draw limit), the set's own words (a character's
``text``, any card's ``wording``) shown beside it.  A set changes cards, never a rule of the game:
an ``editions`` block or a rules number (``first_draw_limit``, ``second_hand``) is refused.

>>> from data.card_sets.upload import read_upload
>>> from data.card_sets.build import build_set
>>> csv = ("id,character,name_ja,name_en,speed,reach,attack,guard,posture,unguardable,gain,hit,icon\\n"
...        "ts15,tsubaki,燕返し,Swallow Return,4,3/1,3,2,stand,crouch,1,draw 1,dust\\n")
>>> files, _ = read_upload("attacks.csv", csv.encode())
>>> built = build_set("maken", files, "extend")
>>> built.ok, built.counts["cards"]
(True, 1)
>>> card = built.cardset.cards["ts15"]
>>> (card["front"], card["back"]), card["text"]["en"]
((3, 1), 'No crouching guard. Gauge gain 1. On hit: draw 1. Goes to: dust')
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

from data.card_sets import csv_layout as cl
from data.card_sets import keys
from data.card_sets.build import SHIPPED
from data.card_sets.limited import LIMITED
from data.card_sets.model import NAME_LIMIT, TEXT_LIMIT, Entry, Fact, without_replaced
from rules.maken.cards import (BET_EFFECTS, EFFECT_N, HIT_EFFECTS, ICON_EN, ICON_JA, ICONS, IF_GAUGE, NUMBERS,
                               POSTURE_EN, POSTURE_JA, POSTURES, SUPPORT_EFFECTS, TIMINGS, TOP_KEYS, CardDataError,
                               CardSet, character_text)
from rules.maken.editions import EDITION, RULES, _raw, rules_patch_error

GAME = "maken"
ID_LIMIT = 16


# --------------------------------------------------------------------------- cells

def _ref() -> cl.Cell:
    """A character's (or card's) id, as the id column reads it: lower case."""
    def parse(text: str) -> str:
        value = text.strip().lower()
        if not re.fullmatch(r"[a-z][a-z0-9_]*", value) or len(value) > ID_LIMIT:
            raise cl.CellError("cell_id", value=text[:30])
        return value
    return cl.Cell(parse, lambda v: v, {"en": "an id: tsubaki", "ja": "ID：tsubaki"})


def _number(field: str) -> cl.Cell:
    return cl.integer(*NUMBERS[field])


def _reach_cell() -> cl.Cell:
    """One reach (``2``: front and back the same; ``2/2`` reads as 2) or front/back (``3/1``; also
    ``3|1``)."""
    low, high = NUMBERS["reach"]

    def parse(text: str) -> Any:
        t = text.strip().replace("／", "/").replace("｜", "|")
        t = t.translate(str.maketrans("０１２３４５６７８９", "0123456789"))
        m = re.fullmatch(r"(\d{1,2})(?:\s*[/|]\s*(\d{1,2}))?", t)
        if not m:
            raise cl.CellError("mk_reach_cell", value=text[:20])
        values = [int(g) for g in m.groups() if g is not None]
        for v in values:
            if not low <= v <= high:
                raise cl.CellError("int_range", value=v, low=low, high=high)
        return values[0] if len(values) == 1 or values[0] == values[1] else values

    def write(value: Any) -> Any:       # one reach when front and back are the same (``[2, 2]`` is 2)
        if isinstance(value, list) and len(value) == 2 and value[0] != value[1]:
            return f"{value[0]}/{value[1]}"
        return value[0] if isinstance(value, list) and value else value
    return cl.Cell(parse, write, {"en": "0–9, or front/back like 3/1", "ja": "0〜9、または先間合/後間合（3/1）"})


_GC_WORDS = {"only": "only", "gc only": "only", "gc_only": "only", "gc専用": "only", "専用": "only",
             "able": "able", "gc-able": "able", "gc_able": "able", "gc able": "able", "gc可能": "able", "可能": "able",
             "none": None, "no": None, "null": None, "-": None, "なし": None}


def _gc_cell() -> cl.Cell:
    def parse(text: str) -> Any:
        key = text.strip().lower().replace("【", "").replace("】", "")
        if key not in _GC_WORDS:
            raise cl.CellError("mk_gc_cell", value=text[:20])
        return _GC_WORDS[key]
    return cl.Cell(parse, lambda v: v, {"en": "only (GC only), able (GC-able) or none",
                                        "ja": "only（GC専用）・able（GC可能）・none"})


def _effects(names: tuple, condition: bool) -> cl.Cell:
    """Effects ``draw 1; gauge 2`` (``do`` and ``n``); on a bet, ``if_gauge=3`` makes one need at
    least 3 gauge cards."""
    amount = cl.integer(*EFFECT_N)
    return cl.calls({name: [("n", amount)] for name in names}, tag="do",
                    extra={"if_gauge": cl.integer(*IF_GAUGE)} if condition else None, most=5)


def _wording() -> tuple[cl.Column, cl.Column]:
    return cl.bilingual("wording", "wording", TEXT_LIMIT)


CHARACTERS = cl.Layout(
    "character", {"en": "characters", "ja": "キャラクター"},
    (cl.Column("id", "id", cl.text(ID_LIMIT), required=True),
     *cl.bilingual("name", "name", NAME_LIMIT, required=True),
     *cl.bilingual("text", "text", TEXT_LIMIT),
     cl.Column("draw_limit", "draw_limit", _number("draw_limit"))),
    section="characters", example="docs/card_sets/maken_characters.csv")
ATTACKS = cl.Layout(
    "attack", {"en": "attack cards", "ja": "攻撃カード"},
    (cl.Column("id", "id", cl.text(ID_LIMIT), required=True),
     cl.Column("character", "character", _ref(), required=True),
     *cl.bilingual("name", "name", NAME_LIMIT, required=True),
     cl.Column("speed", "speed", _number("speed"), required=True),
     cl.Column("reach", "reach", _reach_cell(), required=True),
     cl.Column("attack", "attack", _number("attack"), required=True),
     cl.Column("guard", "guard", _number("guard"), required=True),
     cl.Column("posture", "posture", cl.choice(POSTURES), required=True),
     cl.Column("unguardable", "unguardable", cl.words(POSTURES, most=3)),
     cl.Column("cost", "cost", _number("cost")),
     cl.Column("gain", "gain", _number("gain")),
     cl.Column("gc", "gc", _gc_cell()),
     cl.Column("bet", "bet", _effects(BET_EFFECTS, True)),
     cl.Column("hit", "hit", _effects(HIT_EFFECTS, False)),
     cl.Column("icon", "icon", cl.choice(ICONS), required=True),
     *_wording()),
    section="cards", constant={"kind": "attack"}, match={"kind": "attack"},
    example="docs/card_sets/maken_attacks.csv")
SUPPORTS = cl.Layout(
    "support", {"en": "support cards", "ja": "補助カード"},
    (cl.Column("id", "id", cl.text(ID_LIMIT), required=True),
     cl.Column("character", "character", _ref(), required=True),
     *cl.bilingual("name", "name", NAME_LIMIT, required=True),
     cl.Column("timing", "timing", cl.choice(TIMINGS), required=True),
     cl.Column("effect", "effect", _effects(SUPPORT_EFFECTS, False), required=True),
     cl.Column("icon", "icon", cl.choice(ICONS), required=True),
     *_wording()),
    section="cards", constant={"kind": "support"}, match={"kind": "support"},
    example="docs/card_sets/maken_supports.csv")
DECKS = cl.Layout(
    "deck", {"en": "decks", "ja": "デッキ"},
    (cl.Column("id", "id", cl.text(ID_LIMIT), required=True),
     *cl.bilingual("name", "name", NAME_LIMIT, required=True),
     cl.Column("character", "character", _ref(), required=True),
     cl.Column("cards", "cards", cl.counts(most=30), required=True)),
    section="decks", example="docs/card_sets/maken_decks.csv")

SECTIONS = ("characters", "cards", "decks")
FILE_KEYS = tuple(k for k in TOP_KEYS if k != "editions")       # what a set's file may hold


def _copy(value: Any) -> Any:
    return json.loads(json.dumps(value))


@lru_cache(maxsize=8)
def _shipped_text(edition: int) -> str:
    """:meth:`MakenCards.shipped_files` of ``edition`` as JSON text: every upload checked on the
    shipped cards reads them, and decoding one text is quicker than copying them again."""
    from rules.maken.files import load_maken

    cs = load_maken().at(edition)
    characters = [{k: c[k] for k in ("id", "name", "text", "draw_limit")} for c in cs.characters.values()]
    cards = [_raw(c) for c in cs.cards.values()]
    decks = [{"id": did, "name": d["name"], "character": d["spec"]["character"], "cards": d["spec"]["cards"]}
             for did, d in cs.decks.items()]
    return json.dumps([[SHIPPED + "cards.json", {"characters": characters, "cards": cards}],
                       [SHIPPED + "decks.json", {"decks": decks}]], ensure_ascii=False)


def _both(en: str, ja: str) -> dict:
    return {"en": en, "ja": ja}


def _same(value: Any) -> dict:
    return {"en": str(value), "ja": str(value)}


# --------------------------------------------------------------------------- the adapter

class MakenCards:
    game = GAME
    sections = FILE_KEYS + (LIMITED,)   # the top-level keys a set's file may hold (the export's)
    layouts = (CHARACTERS, ATTACKS, SUPPORTS, DECKS)
    fixed_ids: frozenset = frozenset()          # the rulebook prints no character: every one is a set's to change

    def newest_edition(self) -> int:
        return EDITION

    def blank_file(self) -> dict:
        return {"characters": [], "cards": [], "decks": []}

    def _shipped(self) -> CardSet:
        from rules.maken.files import load_maken

        return load_maken()

    def shipped_files(self, edition: int | None) -> list[tuple[str, dict]]:
        """The shipped characters, cards and ready-made decks of rules ``edition`` (its patches
        applied; its opening numbers are rules, not cards, and stay out), in the file format
        (fresh dicts, read from the edition's JSON text made once)."""
        return [(label, data) for label, data in json.loads(_shipped_text(edition or EDITION))]

    def base_files(self, mode: str, edition: int | None) -> list[tuple[str, dict]]:
        if mode == "alone":        # the rulebook fixes no card of this game
            return []
        return self.shipped_files(edition)

    def own_items(self, data: dict) -> list[tuple[str, str, dict]]:
        out = []
        for section in SECTIONS:
            value = data.get(section) if isinstance(data, dict) else None
            for entry in value if isinstance(value, list) else []:
                if isinstance(entry, dict) and isinstance(entry.get("id"), str):
                    out.append((section, entry["id"], entry))
        return out

    def merge(self, base: list[tuple[str, dict]], own: list[tuple[str, dict]]) -> list[tuple[str, dict]]:
        """The base files without what the set replaces (an own character, card or deck replaces
        the base one of its section with the same id), then the set's files.  What
        :meth:`upload_rules` refuses (``editions``, ``rules``) is left out of the set's files, so
        it is reported once."""
        kept, mine = without_replaced(base, keys.allowed_only(own, FILE_KEYS), self.own_items)
        return kept + mine

    def upload_rules(self, label: str, data: Any) -> list[CardDataError]:
        """An upload holds cards and decks only: no ``editions`` (a new version of the set is a new
        upload) and no rules number anywhere (docs/rules/maken.md: a rule of the game is never
        card content) — in any letter case or width — and no key the format does not know; a
        card's ``wording`` is a text, a character's own words are its ``text``."""
        if not isinstance(data, dict):
            return []
        rule_names = {keys.fold(r): r for r in RULES}

        def rules(value: Any, where: str, card: str | None = None) -> list[CardDataError]:
            names = list(value) if isinstance(value, dict) and value else []
            return [rules_patch_error(label, card, f"{where}.{keys.shown(name)}" if names else where,
                                      keys.shown(name), "a card set changes cards, never a rule of the game")
                    for name in names or ["rules"]]

        def editions(label: str, key: Any) -> list[CardDataError]:
            out = [keys.no_editions(label, key)]
            eds = data[key]
            for ed, patch in (eds.items() if isinstance(eds, dict) else []):
                for name in (patch if isinstance(patch, dict) else []):
                    if keys.fold(name) == "rules":
                        out += rules(patch[name], f"{keys.shown(key)}.{ed}.{keys.shown(name)}")
            return out

        out = keys.section_problems(label, data, FILE_KEYS, rules=RULES, special={
            "editions": editions, "rules": lambda _label, key: rules(data[key], keys.shown(key))})
        for section, ident, entry in self.own_items(data):
            for key in entry:
                if keys.fold(key) in rule_names:
                    out.append(rules_patch_error(label, f"deck {ident!r}" if section == "decks" else ident,
                                                 keys.shown(key), keys.shown(key),
                                                 "a card set changes cards, never a rule of the game"))
        return out + keys.entry_problems(label, self.layouts, self.own_items(data), texts=False)

    def validate(self, files: list[tuple[str, dict]]) -> tuple[CardSet | None, list[CardDataError]]:
        problems: list[CardDataError] = []
        cs = CardSet.from_sources(files, problems=problems)
        keys.respelled(problems)
        if cs is not None and len(cs.decks) < 2:
            problems.append(CardDataError("(card set)", None, "decks", "needs two ready-made decks",
                                          key="too_few_decks", n=2, count=len(cs.decks)))
            cs = None
        return cs, problems

    def with_rules_text(self, cardset: CardSet, own: set[str]) -> CardSet:
        """The set's characters say what they do: their text is generated from their draw limit
        (an attack or support card's always is)."""
        characters = _copy(cardset.characters)
        for cid in own & set(characters):
            characters[cid]["text"] = character_text(characters[cid])
        return CardSet(characters, _copy(cardset.cards), _copy(cardset.decks))

    def engine(self, cardset: CardSet, own: set[str]) -> Any:
        """The game whose cards are the set's, under the newest rules edition (the printed
        opening: a set never changes a rule)."""
        from rules.maken.engine import MakenGame

        return MakenGame(self.with_rules_text(cardset, own))

    def deck_ids(self, cardset: CardSet, own: set[str]) -> list[str]:
        return [d for d in cardset.decks if d in own]

    def card_kinds(self, cardset: CardSet) -> dict[str, str]:
        """Card id → its kind (:attr:`Entry.kind`: ``character``, ``attack`` or ``support``),
        without the rules texts :meth:`entries` generates."""
        return {**{chid: "character" for chid in cardset.characters},
                **{cid: card["kind"] for cid, card in cardset.cards.items()}}

    def entries(self, cardset: CardSet, own: set[str], wording: dict | None = None,
                untranslated: dict | None = None) -> list[Entry]:
        """Every character (each followed by its cards) and deck as people read them.  A card's
        own ``wording`` is set aside by the upload (``SetContent.wording``), not in the cards: the
        caller fills it in (host/card_sets.py does), or passes ``wording``/``untranslated`` here.
        An own character's wording is its ``text``, the set's own words."""
        shown = self.with_rules_text(cardset, own)
        wording = wording or {}
        untranslated = untranslated or {}
        out = []

        def entry(cid: str, kind: str, card: dict, rules: dict, facts: list[Fact], words: dict | None) -> Entry:
            mine = cid in own
            return Entry(cid, kind, dict(card["name"]), dict(rules), facts, own=mine,
                         wording=(dict(wording[cid]) if cid in wording else words) if mine else None,
                         untranslated=list(untranslated.get(cid, [])), view=_copy(card))

        listed = set()
        for chid, ch in shown.characters.items():
            out.append(entry(chid, "character", ch, ch["text"], _character_facts(ch),
                             dict(cardset.characters[chid]["text"])))
            for cid in shown.pool(chid):
                card = shown.cards[cid]
                listed.add(cid)
                out.append(entry(cid, card["kind"], card, card["text"], _card_facts(shown, card), None))
        for cid, card in shown.cards.items():
            if cid not in listed:
                out.append(entry(cid, card["kind"], card, card["text"], _card_facts(shown, card), None))
        for did, deck in shown.decks.items():
            out.append(Entry(did, "deck", dict(deck["name"]), _deck_words(shown, deck["spec"]),
                             _deck_facts(shown, deck["spec"]), own=did in own, deck=True,
                             untranslated=list(untranslated.get(did, []))))
        return out


# --------------------------------------------------------------------------- facts and words

EFFECT_LABEL = {"draw": _both("draw", "ドロー"), "gauge": _both("stamina cards to the gauge", "スタミナ札をゲージ行き"),
                "power": _both("attack total bonus", "攻撃値合計の加算"),
                "recover": _both("damage cards under the stamina", "ダメージ札をスタミナ札の下へ")}
WHEN = {"bet": _both("on bet", "ベット時"), "hit": _both("on hit", "ヒット時"), "effect": _both("effect", "効果")}
TIMING_WORDS = {"before": _both("before attack", "アタック前"), "after": _both("after attack", "アタック後")}
GC_WORDS = {"only": _both("GC only", "GC専用"), "able": _both("GC-able", "GC可能"), None: _both("none", "なし")}
NONE = _both("none", "なし")


def _name_of(cs: CardSet, cid: str) -> dict:
    card = cs.characters.get(cid) or cs.cards.get(cid)
    return dict(card["name"]) if card else _same(cid)


def _reach(card: dict) -> str:
    return str(card["front"]) if card["front"] == card["back"] else f"{card['front']}/{card['back']}"


def _character_facts(ch: dict) -> list[Fact]:
    return [Fact("draw_limit", _both("draw limit", "ドロー上限"), _same(ch["draw_limit"]))]


def _effect_facts(field: str, effects: list) -> list[Fact]:
    out = []
    for i, eff in enumerate(effects):
        key = f"{field}.{i}.{eff['do']}"
        out.append(Fact(key, dict(EFFECT_LABEL[eff["do"]]), _same(eff["n"]), dict(WHEN[field])))
        if eff.get("if_gauge") is not None:
            label = EFFECT_LABEL[eff["do"]]
            out.append(Fact(key + ".if_gauge", _both(f"{label['en']}: only with gauge cards at least",
                                                     f"{label['ja']}：ゲージ札の条件（以上）"),
                            _same(eff["if_gauge"]), dict(WHEN[field])))
    return out


def _card_facts(cs: CardSet, card: dict) -> list[Fact]:
    facts = [Fact("character", _both("character", "キャラクター"), _name_of(cs, card["character"]))]
    if card["kind"] == "support":
        facts.append(Fact("timing", _both("timing", "タイミング"), dict(TIMING_WORDS[card["timing"]])))
        facts += _effect_facts("effect", card["effect"])
    else:
        ung = card["unguardable"]
        facts += [Fact("speed", _both("speed", "速度"), _same(card["speed"])),
                  Fact("reach", _both("reach (front/back)", "間合（先間合/後間合）"), _same(_reach(card))),
                  Fact("attack", _both("attack value", "攻撃値"), _same(card["attack"])),
                  Fact("guard", _both("guard difficulty", "ガード難易度"), _same(card["guard"])),
                  Fact("posture", _both("posture", "姿勢"), _both(POSTURE_EN[card["posture"]], POSTURE_JA[card["posture"]])),
                  Fact("unguardable", _both("unguardable", "ガード不可"),
                       _both(", ".join(POSTURE_EN[p] for p in ung), "・".join(POSTURE_JA[p] for p in ung)) if ung
                       else dict(NONE)),
                  Fact("cost", _both("gauge cost", "ゲージ消費"), _same(card["cost"])),
                  Fact("gain", _both("gauge gain", "ゲージ増加"), _same(card["gain"])),
                  Fact("gc", _both("GC", "GC"), dict(GC_WORDS[card["gc"]]))]
        facts += _effect_facts("bet", card["bet"]) + _effect_facts("hit", card["hit"])
    facts.append(Fact("icon", _both("goes to", "どこいく"), _both(ICON_EN[card["icon"]], ICON_JA[card["icon"]])))
    return facts


def _deck_facts(cs: CardSet, spec: dict) -> list[Fact]:
    facts = [Fact("character", _both("character", "キャラクター"), _name_of(cs, spec["character"]))]
    for cid, n in spec["cards"].items():
        facts.append(Fact(f"cards.{cid}", _name_of(cs, cid), _same(n)))
    return facts


def _deck_words(cs: CardSet, spec: dict) -> dict:
    ch = _name_of(cs, spec["character"])
    cards = [(_name_of(cs, cid), n) for cid, n in spec["cards"].items()]
    return {"en": f"Character: {ch['en']}. " + ", ".join(f"{name['en']} ×{n}" for name, n in cards),
            "ja": f"キャラクター：{ch['ja']}。" + "、".join(f"{name['ja']}×{n}" for name, n in cards)}


ADAPTER = MakenCards()

__all__ = ["ADAPTER", "MakenCards", "CHARACTERS", "ATTACKS", "SUPPORTS", "DECKS"]
