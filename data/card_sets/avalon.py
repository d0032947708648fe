"""Avalon's Sanctuary card sets: creatures, battle supports, magic, avatars and ready-made decks.
The CSV layouts are documented in ``docs/card_sets/avalon.md``; the rulebook fixes no card, so a
set may replace any shipped card by its id (``extend``) or bring every card it plays (``alone``).

A card's abilities are its data: each ability is a column in the effects mini-language
(``grant first``, ``stat 2 1``, ``defend 1 2``, ``draw 1``), an unknown one is refused naming
it, and the rules text players see is generated from the card (``rules.avalon.cards.card_text``),
the set's own ``wording`` shown beside it.

>>> from data.card_sets.upload import read_upload
>>> from data.card_sets.build import build_set
>>> csv = "id,name_ja,name_en,attr,stars,atk,dur,mana,keywords,on_win\\n" \\
...       "c90,炎の狼,Flame Wolf,red,2,3,2,r2,first,atk 1\\n"
>>> files, _ = read_upload("creatures.csv", csv.encode())
>>> built = build_set("avalon", files, "extend")
>>> built.ok, built.counts["cards"]
(True, 1)
>>> built.cardset["cards"]["c90"]["on_win"], built.cardset["cards"]["c90"]["mana"]
({'atk': 1}, {'r': 2})
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
from rules.avalon import cards as rc
from rules.avalon.cards import CardDataError, card_text, validate_sources

GAME = "avalon"
SECTIONS = tuple(k for k in rc.TOP_KEYS if k != "editions")      # what a set's file may hold
# top-level keys of an upload that would change a rule of the game, not a card: refused
RULE_KEYS = ("rules", "rule", "modes", "mode", "options", "target", "target_mana", "life", "proofs", "hand_size",
             "lands", "deck_size", "copy_limit", "copies", "star5", "ability_order", "strike_order",
             "max_rounds", "rounds", "setup", "deck_rules", "battle_rules")


def _l(en: str, ja: str) -> dict:
    return {"en": en, "ja": ja}


# --------------------------------------------------------------------------- cells
# A layout's required columns are the ones that tell it from the others; every other field the
# card needs is the schema's to ask for (``rules/avalon/cards.py``): a card with an empty ``atk``
# is reported there, on its row and column, and a deck holding it is not blamed for it.

def _single(many: cl.Cell, text: str) -> dict:
    """The one effect of a cell (its problems named without the effect's number: there is one)."""
    try:
        got = many.parse(text)
    except cl.CellError as exc:
        exc.detail = re.sub(r"^#1\s*", "", exc.detail or "") or None
        raise
    if not got:
        raise cl.CellError("required")
    return got[0]


def _one(table: dict, tag: str) -> cl.Cell:
    """One effect of the mini-language (``grant first``, ``defend 1 2``) as a JSON object whose
    ``tag`` key holds its name."""
    many = cl.calls(table, tag=tag, most=1)
    return cl.Cell(lambda text: _single(many, text), lambda v: many.write([v]), many.help)


def _params(spec: dict) -> list[tuple[str, cl.Cell]]:
    out = []
    for key, rule in spec.items():
        if isinstance(rule, tuple) and rule and isinstance(rule[0], int):
            out.append((key, cl.integer(*rule)))
        else:
            out.append((key, cl.choice(rule, {k.replace("_", "-"): k for k in rule})))
    return out


SUPPORT_TABLE = {kind: _params(rc.SUPPORT_PARAMS.get(kind, {})) for kind in rc.SUPPORT_KINDS}
MAGIC_TABLE = {kind: _params(rc.MAGIC_PARAMS.get(kind, {})) for kind in rc.MAGIC_KINDS}
BATTLE_TABLE = {when: [("atk", cl.integer(*rc.BATTLE_RANGE)), ("dur", cl.integer(*rc.BATTLE_RANGE))]
                for when in rc.WHENS}


def _timed_cell(allowed: tuple) -> cl.Cell:
    """A timed ability, one effect with its number: ``draw 1`` → ``{"draw": 1}`` (the number
    left out: 1)."""
    many = cl.calls({k: [("n", cl.integer(*rc.EFFECT_RANGE[k]))] for k in allowed}, tag="do", most=1)

    def parse(text: str) -> dict:
        got = _single(many, text)
        return {got["do"]: got.get("n", 1)}

    def write(value: dict) -> str:
        k, n = next(iter(value.items()))
        return many.write([{"do": k, "n": n}])
    return cl.Cell(parse, write, many.help)


def _mana_cell() -> cl.Cell:
    """Mana icons with their counts: ``y2 w1`` (``y`` alone: one), ``none`` for a card without
    mana; icons ``y r b g`` (attributes), ``c`` colourless, ``w`` rainbow, ``v`` rainbow vessel."""
    def parse(text: str) -> dict:
        t = text.strip().lower()
        if t in ("none", "-", "なし", "0"):
            return {}
        out: dict[str, int] = {}
        for tok in [w for w in re.split(r"[\s,、，/;；・]+", t) if w]:
            m = re.fullmatch(r"([a-z]+)\s*[*x×:]?\s*(\d{1,2})?", tok) or re.fullmatch(r"(\d{1,2})([a-z]+)", tok)
            if not m:
                raise cl.CellError("av_mana", value=tok[:20])
            icon, count = (m.group(1), m.group(2)) if not m.group(1).isdigit() else (m.group(2), m.group(1))
            if icon not in rc.MANA_KEYS:
                raise cl.CellError("av_mana_icon", value=icon[:20])
            if icon in out:
                raise cl.CellError("av_mana_twice", value=icon)
            n = int(count or 1)
            if not rc.MANA_RANGE[0] <= n <= rc.MANA_RANGE[1]:
                raise cl.CellError("int_range", detail=icon, value=n, low=rc.MANA_RANGE[0], high=rc.MANA_RANGE[1])
            out[icon] = n
        if not out:
            raise cl.CellError("av_mana", value=text[:20])
        return out

    def write(value: dict) -> str:
        return " ".join(f"{k}{value[k]}" for k in rc.MANA_KEYS if k in value) or "none"
    return cl.Cell(parse, write, _l("icons with counts: y2 w1 (none: no mana)", "魔素の種類と数：y2 w1（なしは none）"))


def _keywords_cell() -> cl.Cell:
    inner = cl.words(rc.KEYWORDS)
    return cl.Cell(lambda text: inner.parse(text.replace("-", "_")), inner.write, inner.help)


def _ninja_cell() -> cl.Cell:
    def parse(text: str) -> bool:
        if text.strip().lower() in cl.TRUE_WORDS:
            return True
        raise cl.CellError("av_ninja_cell", value=text[:20])
    return cl.Cell(parse, lambda v: "yes", _l("yes, or empty", "yes または空欄"))


def _deck_cards_cell() -> cl.Cell:
    """A ready-made deck's cards with copies (``c01*3 c02``); a card listed with 0 copies (JSON
    allows it: the deck does not hold it) is left out when written, as the deck reads it."""
    inner = cl.counts(most=99)

    def write(value: Any) -> str:
        if isinstance(value, dict):
            value = {cid: n for cid, n in value.items() if n}
        return inner.write(value)
    return cl.Cell(inner.parse, write, inner.help)


def _card_id_cell() -> cl.Cell:
    def parse(text: str) -> str:
        t = text.strip().lower()
        if not re.fullmatch(r"[a-z0-9_]{1,31}", t):
            raise cl.CellError("cell_id", value=text[:30])
        return t
    return cl.Cell(parse, lambda v: v, _l("a card id: a1", "カードID：a1"))


ATTR_ALIASES = {"colourless": "none", "colorless": "none", "黄": "yellow", "赤": "red", "青": "blue",
                "緑": "green", "無": "none"}


def _id() -> cl.Column:
    return cl.Column("id", "id", cl.text(31), required=True)


def _wording() -> tuple[cl.Column, cl.Column]:
    return cl.bilingual("wording", "wording", TEXT_LIMIT)


CREATURES = cl.Layout(
    "creature", _l("creatures", "クリーチャー"),
    (_id(), *cl.bilingual("name", "name", NAME_LIMIT, required=True),
     cl.Column("attr", "attr", cl.choice(rc.ATTRS, ATTR_ALIASES), required=True),
     cl.Column("stars", "orig", cl.integer(*rc.CREATURE_NUMBERS["orig"])),
     cl.Column("atk", "atk", cl.integer(*rc.CREATURE_NUMBERS["atk"])),
     cl.Column("dur", "dur", cl.integer(*rc.CREATURE_NUMBERS["dur"])),
     cl.Column("mana", "mana", _mana_cell()),
     cl.Column("keywords", "keywords", _keywords_cell()),
     cl.Column("target_minus", "target_minus", cl.integer(*rc.CREATURE_NUMBERS["target_minus"])),
     cl.Column("battle", "battle", _one(BATTLE_TABLE, "when")),
     cl.Column("on_summon", "on_summon", _timed_cell(rc.ON_SUMMON)),
     *(cl.Column(tf, tf, _timed_cell(allowed)) for tf, allowed in rc.TIMINGS.items()),
     cl.Column("ninja", "ninja", _ninja_cell()),
     cl.Column("support", "support", _one(SUPPORT_TABLE, "kind")),
     *_wording()),
    section="cards", constant={"category": "creature"}, match={"category": "creature"},
    example="docs/card_sets/avalon_creatures.csv")
SUPPORTS = cl.Layout(
    "support", _l("battle supports", "戦闘支援"),
    (_id(), *cl.bilingual("name", "name", NAME_LIMIT, required=True),
     cl.Column("stars", "orig", cl.integer(*rc.CREATURE_NUMBERS["orig"])),
     cl.Column("support", "support", _one(SUPPORT_TABLE, "kind"), required=True),
     *_wording()),
    section="cards", constant={"category": "support"}, match={"category": "support"},
    example="docs/card_sets/avalon_supports.csv")
MAGIC = cl.Layout(
    "magic", _l("magic", "魔法"),
    (_id(), *cl.bilingual("name", "name", NAME_LIMIT, required=True),
     cl.Column("stars", "orig", cl.integer(*rc.CREATURE_NUMBERS["orig"])),
     cl.Column("magic", "magic", _one(MAGIC_TABLE, "kind"), required=True),
     *_wording()),
    section="cards", constant={"category": "magic"}, match={"category": "magic"},
    example="docs/card_sets/avalon_magic.csv")
AVATARS = cl.Layout(
    "avatar", _l("avatars", "アバター"),
    (_id(), *cl.bilingual("name", "name", NAME_LIMIT, required=True), *_wording()),
    section="cards", constant={"category": "avatar"}, match={"category": "avatar"},
    example="docs/card_sets/avalon_avatars.csv")
DECKS = cl.Layout(
    "deck", _l("ready-made decks", "構築済みデッキ"),
    (_id(), *cl.bilingual("name", "name", NAME_LIMIT, required=True),
     cl.Column("avatar", "spec.avatar", _card_id_cell()),
     cl.Column("cards", "spec.cards", _deck_cards_cell(), required=True)),
    section="decks", keyed=True, example="docs/card_sets/avalon_decks.csv")
LAYOUTS = (CREATURES, SUPPORTS, MAGIC, AVATARS, DECKS)
KIND = {"creature": "creature", "support": "support", "magic": "magic", "avatar": "avatar"}


def _copy(value: Any) -> Any:
    return json.loads(json.dumps(value))


@lru_cache(maxsize=None)
def _shipped_at(edition: int) -> str:
    """The shipped cards and ready-made decks of rules ``edition`` (patches applied), as JSON."""
    from rules.avalon.files import load_avalon
    from rules.avalon.editions import Editions

    loaded = load_avalon()
    cards, ready = Editions(loaded["cards"], loaded["decks"], loaded["editions"]).at(edition)
    return json.dumps({"cards": list(cards.values()), "decks": ready}, ensure_ascii=False)


class AvalonCards:
    game = GAME
    sections = SECTIONS + (LIMITED,)    # the top-level keys a set's file may hold (the export's)
    layouts = LAYOUTS
    fixed_ids: frozenset = frozenset()      # the rulebook prints no card of its own

    def newest_edition(self) -> int:
        from rules.avalon.state import EDITION

        return EDITION

    def blank_file(self) -> dict:
        return {"cards": [], "decks": {}}

    def shipped_files(self, edition: int | None) -> list[tuple[str, dict]]:
        data = json.loads(_shipped_at(edition or self.newest_edition()))
        return [(SHIPPED + "cards.json", {"cards": data["cards"]}),
                (SHIPPED + "decks.json", {"decks": data["decks"]})]

    def base_files(self, mode: str, edition: int | None) -> list[tuple[str, dict]]:
        return self.shipped_files(edition) if mode == "extend" else []

    def own_items(self, data: dict) -> list[tuple[str, str, dict]]:
        out: list[tuple[str, str, dict]] = []
        cards = data.get("cards") if isinstance(data, dict) else None
        for entry in cards if isinstance(cards, list) else []:
            if isinstance(entry, dict) and isinstance(entry.get("id"), str):
                out.append(("cards", entry["id"], entry))
        decks = data.get("decks") if isinstance(data, dict) else None
        for did, entry in decks.items() if isinstance(decks, dict) else []:
            if isinstance(did, str) and isinstance(entry, dict):
                out.append(("decks", did, entry))
        return out

    def merge(self, base: list[tuple[str, dict]], own: list[tuple[str, dict]]) -> list[tuple[str, dict]]:
        """Own cards and decks replace base ones with their id; what ``upload_rules`` refused
        (``editions``, a rules patch) is left out, so it is not reported a second time."""
        kept, mine = without_replaced(base, keys.allowed_only(own, SECTIONS), self.own_items)
        return kept + mine

    def upload_rules(self, label: str, data: Any) -> list[CardDataError]:
        """A file holds cards and ready-made decks: an ``editions`` block or a rule of the game
        (in any letter case or width) is refused, and so is any other key; a card's texts are
        ``{"ja", "en"}`` only, and a deck takes no ``wording``."""
        if not isinstance(data, dict):
            return []
        return keys.section_problems(label, data, SECTIONS, rules=RULE_KEYS) + \
            keys.entry_problems(label, self.layouts, self.own_items(data))

    def validate(self, files: list[tuple[str, dict]]) -> tuple[dict | None, list[CardDataError]]:
        problems: list[CardDataError] = []
        cs = validate_sources(files, problems=problems)
        keys.respelled(problems)
        if cs is not None and len(cs["decks"]) < 2:
            problems.append(CardDataError("", None, "decks", "needs two ready-made decks",
                                          key="too_few_decks", n=2, count=len(cs["decks"])))
            cs = None
        return cs, problems

    def engine(self, cardset: dict, own: set[str]) -> Any:
        """The game with the set's cards and ready-made decks (the set's own decks first: seat n
        plays deck n, every seat beyond the decks counted round again — 3 and 4 players with two
        decks).  Rules texts are generated from the cards whenever a view shows them."""
        from rules.avalon.engine import AvalonGame

        decks = cardset["decks"]
        ready = {d: decks[d] for d in decks if d in own} | {d: decks[d] for d in decks if d not in own}
        return AvalonGame(_copy(cardset["cards"]), _copy(ready), None)

    def deck_ids(self, cardset: dict, own: set[str]) -> list[str]:
        return [d for d in cardset["decks"] if d in own]

    def card_kinds(self, cardset: dict) -> dict[str, str]:
        """Card id → its kind (:attr:`Entry.kind`: ``creature``, ``support``, ``magic`` or
        ``avatar``), without the rules texts :meth:`entries` generates."""
        return {cid: KIND[card["category"]] for cid, card in cardset["cards"].items()}

    def entries(self, cardset: dict, own: set[str]) -> list[Entry]:
        from rules.avalon.engine import _card_brief

        cards = cardset["cards"]
        out = []
        for cat in rc.CATEGORIES:
            for cid, card in cards.items():
                if card["category"] != cat:
                    continue
                out.append(Entry(cid, KIND[cat], dict(card["name"]), card_text(card), card_facts(card),
                                 own=cid in own, view=_card_brief(card)))
        for did, deck in cardset["decks"].items():
            out.append(Entry(did, "deck", dict(deck["name"]), deck_words(cards, deck["spec"]),
                             deck_facts(cards, deck["spec"]), own=did in own, deck=True))
        return out


# --------------------------------------------------------------------------- facts and words

SUPPORT_WORDS = {"weapon_replace": _l("attacks exchanged", "攻撃値の入れ替え"),
                 "informant": _l("opposing support cancelled", "相手の戦闘支援の無効化"),
                 "chaos_panic": _l("opposing attack and durability exchanged", "相手の攻撃値と耐久値の入れ替え"),
                 "stat": _l("attack and durability change", "攻撃値・耐久値の増減"),
                 "poison_mist": _l("opposing durability halved", "相手の耐久値の半減"),
                 "fingertips": _l("opposing battle keywords lost", "相手の戦闘能力の消去"),
                 "grant": _l("battle keyword gained", "戦闘能力を得る")}
MAGIC_WORDS = {"draw": _l("draw cards", "カードを引く"), "life": _l("life from the memory", "メモリーからライフに加える"),
               "destroy": _l("destroy a creature", "クリーチャーの破壊"),
               "surge": _l("top memory card forged", "メモリーの一番上を素成"),
               "scatter": _l("random discards", "ランダムに捨てさせる"), "empower": _l("attack bonus", "攻撃値の増加"),
               "prism": _l("mana turned rainbow", "魔素を虹属性にする"),
               "recycle": _l("discard pile into the memory", "捨て山をメモリーに戻す"),
               "focus": _l("target mana lower this turn", "このターンの目標魔力の減少")}
PARAM_LABEL = {"n": {"draw": _l("cards drawn", "引く枚数"), "life": _l("life added", "ライフに加える枚数"),
                     "focus": _l("target mana lower by", "目標魔力の減少")},
               "max_orig": {"destroy": _l("highest originality destroyed", "破壊できるオリジナリティの上限")},
               "atk": {"empower": _l("attack bonus", "攻撃値の増加")}}
EFFECT_LABEL = {"draw": _l("cards drawn", "引く枚数"), "life": _l("life added", "ライフに加える枚数"),
                "atk": _l("attack bonus", "攻撃値の増加"), "target_minus": _l("target mana lower by", "目標魔力の減少")}
WHEN_WORDS = {"invade": _l("as the invader", "侵略側"), "defend": _l("as the defender", "防衛側"),
              "any": _l("in any battle", "すべての戦闘")}


def _n(value: Any) -> dict:
    return {"en": str(value), "ja": str(value)}


def _signed(value: int) -> dict:
    return _n(f"{value:+d}")


def _kw(kw: str) -> dict:
    en, ja = rc.KW_TEXT[kw]
    return _l(en, ja)


def _support_facts(eff: dict, subject: dict) -> list[Fact]:
    kind = eff["kind"]
    out = [Fact("support.kind", _l("effect", "効果"), SUPPORT_WORDS[kind], subject)]
    if kind == "stat":
        out += [Fact("support.atk", _l("attack change", "攻撃値の増減"), _signed(eff.get("atk", 0)), subject),
                Fact("support.dur", _l("durability change", "耐久値の増減"), _signed(eff.get("dur", 0)), subject)]
    if kind == "grant":
        out.append(Fact("support.kw", _l("keyword", "戦闘能力"), _kw(eff["kw"]), subject))
    return out


def card_facts(card: dict) -> list[Fact]:
    """Every number, keyword and effect of a card a designer might change, by a stable key."""
    cat = card["category"]
    if cat == "avatar":
        return []
    out = [Fact("orig", _l("originality", "オリジナリティ"), _n("★" + str(card["orig"])))]
    if cat == "support":
        return out + _support_facts(card["support"], None)
    if cat == "magic":
        eff = card["magic"]
        kind = eff["kind"]
        out.append(Fact("magic.kind", _l("effect", "効果"), MAGIC_WORDS[kind]))
        for p in rc.MAGIC_PARAMS.get(kind, {}):
            out.append(Fact(f"magic.{p}", PARAM_LABEL[p][kind], _n(eff.get(p, rc.MAGIC_DEFAULTS[kind][p]))))
        return out
    a_en, a_ja = rc.ATTR_TEXT[card["attr"]]
    out += [Fact("attr", _l("attribute", "属性"), _l(a_en, a_ja)),
            Fact("atk", _l("attack", "攻撃値"), _n(card["atk"])),
            Fact("dur", _l("durability", "耐久値"), _n(card["dur"]))]
    for k in rc.MANA_KEYS:
        if k in card["mana"]:
            en, ja = rc.MANA_TEXT[k]
            out.append(Fact(f"mana.{k}", _l(f"{en} mana", f"{ja}の魔素"), _n(card["mana"][k])))
    for kw in card.get("keywords", []):
        out.append(Fact(f"keywords.{kw}", _l("battle keyword", "戦闘能力"), _kw(kw)))
    if "target_minus" in card:
        out.append(Fact("target_minus", _l("target mana lower while deployed", "配置中の目標魔力の減少"),
                        _n(card["target_minus"])))
    if "battle" in card:
        b = card["battle"]
        sub = _l("battle ability (step 4)", "戦闘時の能力（発動順4）")
        out += [Fact("battle.when", _l("when", "条件"), WHEN_WORDS[b["when"]], sub),
                Fact("battle.atk", _l("attack change", "攻撃値の増減"), _signed(b.get("atk", 0)), sub),
                Fact("battle.dur", _l("durability change", "耐久値の増減"), _signed(b.get("dur", 0)), sub)]
    if "on_summon" in card:
        out.append(Fact("on_summon.draw", EFFECT_LABEL["draw"], _n(card["on_summon"]["draw"]), _l("When summoned", "召喚時")))
    for tf in rc.TIMINGS:
        if tf in card:
            k, n = next(iter(card[tf].items()))
            en, ja = rc.TIMING_TEXT[tf]
            out.append(Fact(f"{tf}.{k}", EFFECT_LABEL[k], _n(n), _l(en, ja)))
    if card.get("ninja"):
        out.append(Fact("ninja", _l("Ninja Master", "ニンジャマスター"), _l("yes", "あり")))
    if "support" in card:
        out += _support_facts(card["support"], _l("battle support", "戦闘支援"))
    return out


def _name_of(cards: dict, cid: str) -> dict:
    return dict(cards[cid]["name"]) if cid in cards else _n(cid)


def deck_words(cards: dict, spec: dict) -> dict:
    """A ready-made deck's list in words: its avatar, then each card with its copies."""
    from rules.avalon.decks import normalise

    deck = normalise(spec)
    av = _name_of(cards, deck["avatar"]) if deck["avatar"] else _n("-")
    names = [(_name_of(cards, cid), n) for cid, n in deck["cards"].items()]
    return {"en": f"Avatar: {av['en']}. " + ", ".join(f"{name['en']} ×{n}" for name, n in names) + ".",
            "ja": f"アバター：{av['ja']}。" + "、".join(f"{name['ja']}×{n}" for name, n in names) + "。"}


def deck_facts(cards: dict, spec: dict) -> list[Fact]:
    from rules.avalon.decks import normalise

    deck = normalise(spec)
    out = [Fact("avatar", _l("avatar", "アバター"), _name_of(cards, deck["avatar"]) if deck["avatar"] else _n("-"))]
    for cid, n in deck["cards"].items():
        out.append(Fact(f"cards.{cid}", _name_of(cards, cid), _n(n)))
    return out


ADAPTER = AvalonCards()

__all__ = ["ADAPTER", "AvalonCards", "LAYOUTS", "CREATURES", "SUPPORTS", "MAGIC", "AVATARS", "DECKS",
           "card_facts", "deck_facts", "deck_words"]
