"""A Battle Logic Square card's rules text, generated from its validated data (pure; no I/O).

A server's card set (``data/card_sets/logic_square.py``) shows players this text, never the
set's own wording alone: a card cannot say one thing and do another.  Everything a card does is
stated — its category, colour and CB mark; its hit damage and hit range in words ("the 3 squares
straight ahead", and when the user's own AVI is in range); what it places and its durability;
every effect with its condition; its aura; its break condition (Br) and build condition (IT,
worded by :func:`rules.logic_square.match.build_text`); an AVI's abilities (cost, name, what it
does) and its awakening — in Japanese (the style of the shipped cards: ヒットダメージ・耐久値・設置・
《CB》・【ブレイク条件】・【アクション構築条件】・<覚醒 X>・AP・トラッシュ) and in English.

>>> from rules.logic_square.cards import read_card
>>> card = read_card({"id": "zz01", "category": "Ac", "colour": "green", "cb": True,
...                   "name": {"ja": "テスト", "en": "Test"}, "text": {"ja": "-", "en": "-"},
...                   "damage": 50, "range": [".x.", "xxx", ".o."],
...                   "effects": [{"do": "draw", "count": 1, "if": "hit_avi"}]}, "t.json", 0, set())
>>> print(card_text(card)["ja"])
《CB》ヒットダメージ50。ヒット範囲：前方3マスと2マス先の正面。相手の《AVI》にヒットしたら、カードを1枚引く。
>>> print(card_text(card)["en"])
CB. Hit damage 50. Hit range: the 3 squares in front and the square 2 ahead. If it hits the opponent's AVI, draw 1 card.
>>> range_words(((0, -1), (0, 0), (0, 1), (1, -1), (1, 0), (1, 1), (-1, -1), (-1, 0), (-1, 1)))["en"]
"the 8 squares around, and your own AVI's square"
"""
from __future__ import annotations

import re
from typing import Any, Iterable

from rules.logic_square.match import COLOUR_JA, build_text

COLOUR_EN = {"white": "white", "green": "green", "blue": "blue", "red": "red"}
IFS = {"hit_avi": ("if it hits the opponent's AVI, ", "相手の《AVI》にヒットしたら、"),
       "awakened": ("if your AVI is awakened, ", "自身の《AVI》が覚醒していれば、")}


def _bi(en: str, ja: str) -> dict:
    return {"en": en, "ja": ja}


def _n(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _join_en(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _join_ja(items: list[str]) -> str:
    return items[0] if len(items) == 1 else "、".join(items[:-1]) + "と" + items[-1]


def _sentence(text: dict) -> dict:
    """A phrase as a sentence: English capitalised with a full stop, Japanese with 。."""
    en = text["en"]
    return {"en": (en[:1].upper() + en[1:]).rstrip(".") + ".", "ja": text["ja"].rstrip("。") + "。"}


def _concat(parts: Iterable[dict], sep_en: str = " ", sep_ja: str = "") -> dict:
    parts = [p for p in parts if p and (p.get("en") or p.get("ja"))]
    return {"en": sep_en.join(p["en"] for p in parts), "ja": sep_ja.join(p["ja"] for p in parts)}


# --------------------------------------------------------------------------- ranges

def _side_en(s: int) -> str:
    return "centre" if s == 0 else f"{abs(s)} {'left' if s < 0 else 'right'}"


def _side_ja(s: int) -> str:
    return "正面" if s == 0 else f"{'左' if s < 0 else '右'}{abs(s)}"


def _span(sides: list[int]) -> int | None:
    """w when ``sides`` is exactly -w..w, else None."""
    w = max(abs(s) for s in sides)
    return w if sorted(sides) == list(range(-w, w + 1)) else None


def _rows(squares: set) -> list[dict]:
    """The squares described row by row, rows ahead merged while they have the same span."""
    rows: dict[int, list[int]] = {}
    for f, s in squares:
        rows.setdefault(f, []).append(s)
    out = []
    ahead = sorted(f for f in rows if f > 0)
    groups: list[tuple[int, int, int | None, list[int]]] = []      # (first, last, span, sides)
    for f in ahead:
        w = _span(rows[f])
        if groups and groups[-1][1] == f - 1 and w is not None and groups[-1][2] == w:
            groups[-1] = (groups[-1][0], f, w, rows[f])
        else:
            groups.append((f, f, w, sorted(rows[f])))
    for a, b, w, sides in groups:
        if w is None:
            out.append(_bi(f"{a} ahead: " + ", ".join(_side_en(s) for s in sides),
                           f"{a}マス先の" + "・".join(_side_ja(s) for s in sides)))
        elif w == 0:
            if a == 1:
                out.append(_bi("the square straight ahead" if b == 1 else f"the {b} squares straight ahead", f"正面{b}マス"))
            elif a == b:
                out.append(_bi(f"the square {a} ahead", f"{a}マス先の正面"))
            else:
                out.append(_bi(f"the squares {a} to {b} ahead", f"{a}〜{b}マス先"))
        elif a == 1 and b == 1:
            out.append(_bi(f"the {2 * w + 1} squares in front", f"前方{2 * w + 1}マス"))
        elif a == 1:
            out.append(_bi(f"the {2 * w + 1} columns ahead, {b} squares deep", f"前方{2 * w + 1}列×{b}マス"))
        elif a == b:
            out.append(_bi(f"the {2 * w + 1} squares {a} ahead", f"{a}マス先の{2 * w + 1}マス"))
        else:
            out.append(_bi(f"the {2 * w + 1} columns {a} to {b} ahead", f"{a}〜{b}マス先の{2 * w + 1}列"))
    if 0 in rows:
        sides = sorted(rows[0])
        v = max(abs(s) for s in sides)
        if sides == [s for s in range(-v, v + 1) if s]:
            out.append(_bi(f"{_n(v, 'square', 'squares')} on each side", f"左右{v}マス"))
        else:
            out.append(_bi("beside: " + ", ".join(_side_en(s) for s in sides),
                           "横の" + "・".join(_side_ja(s) for s in sides)))
    for f in sorted((f for f in rows if f < 0), reverse=True):
        sides = sorted(rows[f])
        w = _span(sides)
        if w == 0:
            out.append(_bi(f"the square {-f} behind", f"{-f}マス後ろ"))
        elif w is not None:
            out.append(_bi(f"the {2 * w + 1} squares {-f} behind", f"{-f}マス後ろの{2 * w + 1}マス"))
        else:
            out.append(_bi(f"{-f} behind: " + ", ".join(_side_en(s) for s in sides),
                           f"{-f}マス後ろの" + "・".join(_side_ja(s) for s in sides)))
    return out


def range_words(offsets: Iterable) -> dict:
    """A hit range (``(forward, sideways)`` offsets from the user's AVI) in words.

    >>> range_words([(3, 0), (2, 0), (1, 0)])["ja"], range_words([(1, -1), (1, 0), (1, 1)])["en"]
    ('正面3マス', 'the 3 squares in front')
    >>> range_words([(2, 0), (1, 0), (0, -1), (0, 1), (-1, 0)])["en"]
    'the 4 neighbouring squares and the square 2 ahead'
    """
    squares = {(int(f), int(s)) for f, s in offsets}
    self_in = (0, 0) in squares
    squares.discard((0, 0))
    parts: list[dict] = []
    ring = {(f, s) for f in (-1, 0, 1) for s in (-1, 0, 1)} - {(0, 0)}
    cross = {(1, 0), (-1, 0), (0, 1), (0, -1)}
    if not squares:
        pass
    elif squares == ring:
        parts = [_bi("the 8 squares around", "周囲8マス")]
    else:
        n = max(abs(f) + abs(s) for f, s in squares)
        diamond = {(f, s) for f in range(-n, n + 1) for s in range(-n, n + 1) if 0 < abs(f) + abs(s) <= n}
        if n >= 2 and squares == diamond:
            parts = [_bi(f"every square within {n} squares", f"{n}マス以内のすべてのマス")]
        elif cross <= squares and n >= 1:
            parts = [_bi("the 4 neighbouring squares", "上下左右の隣接4マス")] + _rows(squares - cross)
        else:
            parts = _rows(squares)
    if self_in:
        if not parts:
            return _bi("your own AVI's square", "自身の《AVI》のマス")
        words = _bi(_join_en([p["en"] for p in parts]), _join_ja([p["ja"] for p in parts]))
        return _bi(words["en"] + ", and your own AVI's square", words["ja"] + "（自身の《AVI》のマスも含む）")
    if not parts:
        return _bi("no square", "なし")
    return _bi(_join_en([p["en"] for p in parts]), _join_ja([p["ja"] for p in parts]))


# --------------------------------------------------------------------------- effects, modifiers

def effect_phrase(e: dict) -> dict:
    """One effect (``{"do": …}`` as validated: defaults filled in) in words, its ``if`` first."""
    do = e["do"]
    n = e.get("amount", e.get("count", e.get("distance", 0)))
    who = e.get("who", "self")
    if do == "damage":
        words = _bi(f"your opponent's AVI takes {n} damage wherever it stands", f"相手の《AVI》に{n}ダメージ（ヒット範囲に関係なく）")
    elif do == "heal":
        words = _bi(f"your AVI recovers {n} life", f"自身の《AVI》のライフを{n}回復する")
    elif do == "lose_life":
        words = _bi(f"your AVI loses {n} life", f"自身の《AVI》のライフを{n}失う")
    elif do == "draw":
        words = _bi(f"draw {_n(n, 'card', 'cards')}", f"カードを{n}枚引く") if who == "self" else \
            _bi(f"your opponent draws {_n(n, 'card', 'cards')}", f"相手はカードを{n}枚引く")
    elif do == "trash":
        if e.get("from", "hand") == "deck":
            whose_en, whose_ja = ("your opponent's", "相手の") if who == "opponent" else ("your", "自分の")
            en = (f"the top card of {whose_en} resource deck goes to the trash" if n == 1 else
                  f"the top {n} cards of {whose_en} resource deck go to the trash")
            words = _bi(en, f"{whose_ja}リソースデッキの上から{n}枚をトラッシュに置く")
        elif who == "opponent":
            words = _bi(f"your opponent puts {_n(n, 'random card', 'random cards')} from their hand in the trash",
                        f"相手の手札をランダムに{n}枚トラッシュに置く")
        else:
            words = _bi(f"put {_n(n, 'random card', 'random cards')} from your hand in the trash",
                        f"自分の手札をランダムに{n}枚トラッシュに置く")
    elif do == "push":
        words = _bi(f"push the opponent's AVI in range {_n(n, 'square', 'squares')} back",
                    f"相手の《AVI》がヒット範囲にいれば{n}マス押し出す")
    elif do == "pull":
        words = _bi(f"pull the opponent's AVI in range {_n(n, 'square', 'squares')} closer",
                    f"相手の《AVI》がヒット範囲にいれば{n}マス引き寄せる")
    elif do == "move_self":
        words = _bi("move your AVI to the chosen empty square of its range (never into the opponent's area)",
                    "自身の《AVI》を範囲内の選んだ空いているマスに移動する（相手のエリアには入れない）")
    elif do == "ap":
        k = abs(n)
        if who == "self":
            words = _bi(f"gain {k} AP", f"{k}APを得る") if n > 0 else _bi(f"lose {k} AP", f"{k}APを失う")
        else:
            words = _bi(f"your opponent gains {k} AP {'more' if n > 0 else 'less'} next turn",
                        f"相手は次のターンに得るAP{'+' if n > 0 else '-'}{k}")
    elif do == "shield":
        words = _bi(f"until the start of your next turn, your AVI takes {n} less damage from each hit",
                    f"次の自分のターン開始時まで、自身の《AVI》が受けるダメージ-{n}")
    else:                                    # the schema knows no other; shown as data, never hidden
        words = _bi(str(do), str(do))
    cond = IFS.get(e.get("if"))
    if cond:
        words = _bi(cond[0] + words["en"], cond[1] + words["ja"])
    return words


def mod_phrase(m: dict, placed: bool = True) -> dict:
    """A modifier: of a placed card's aura (``placed``) or of an awakening."""
    mod, n = m["mod"], m.get("amount", 0)
    if mod == "turret":
        r = range_words(m["range"])
        return _bi(f"at the start of your main phase it deals hit damage {m['damage']} to {r['en']} of it",
                   f"自分のメインフェイズ開始時、このカードから見て{r['ja']}にヒットダメージ{m['damage']}")
    if mod == "heal_start":
        return _bi(f"at the start of your main phase, your AVI recovers {n} life",
                   f"自分のメインフェイズ開始時、自身の《AVI》のライフを{n}回復する")
    words = {
        "damage_bonus": _bi(f"your cards and AVI abilities deal +{n} hit damage", f"自分のカードと《AVI》効果のヒットダメージ+{n}"),
        "damage_reduction": _bi(f"your AVI takes {n} less damage from each hit", f"自身の《AVI》が受けるダメージ-{n}"),
        "ap_bonus": _bi(f"you gain {n} more AP at the start of your main phase", f"メインフェイズ開始時に得るAP+{n}"),
        "draw_bonus": _bi(f"you draw {_n(n, 'more card', 'more cards')} in your draw phase", f"ドローフェイズに引く枚数+{n}"),
        "ability_discount": _bi(f"your AVI abilities cost {n} AP less (at least 1)", f"自分の《AVI》効果の消費AP-{n}（最低1）"),
    }.get(mod, _bi(str(mod), str(mod)))
    if placed:
        return _bi("while it stands, " + words["en"], "設置されている間、" + words["ja"])
    return words


def break_phrase(b: dict, types: dict | None = None) -> dict:
    """One condition of a Br card's break condition."""
    when = b["when"]
    if when == "in_range":
        return _bi("your AVI is in the hit range of the card your opponent declared", "相手が使用したカードのヒット範囲に自身の《AVI》がいる")
    if when == "category":
        return _bi(f"your opponent declared an {b['category']} card", f"相手が《{b['category']}》カードを使用した")
    if when == "colour":
        c = b["colour"]
        return _bi(f"your opponent declared a {COLOUR_EN.get(c, c)} card", f"相手が{COLOUR_JA.get(c, c)}カードを使用した")
    if when == "type":
        name = (types or {}).get(b["type"]) or {"en": b["type"], "ja": b["type"]}
        return _bi(f"your opponent declared a [{name['en']}] card", f"相手が[{name['ja']}]カードを使用した")
    if when == "cb":
        return _bi("your opponent declared a card with CB", "相手が《CB》を持つカードを使用した")
    if when == "damage_at_least":
        return _bi(f"the card your opponent declared has hit damage {b['amount']} or more",
                   f"相手が使用したカードのヒットダメージが{b['amount']}以上")
    if when == "life_at_most":
        return _bi(f"your AVI has {b['amount']} life or less", f"自身の《AVI》のライフが{b['amount']}以下")
    if when == "places":
        return _bi("your opponent declared a card that places", "相手が設置するカードを使用した")
    return _bi(str(when), str(when))


def build_words(card: Any, types: dict | None = None) -> dict:
    """An IT card's build condition in words (:func:`rules.logic_square.match.build_text`)."""
    words = build_text(card, types)
    ja = re.sub(r"(?<=[^\x00-\x7f]) (?=\d)", "", words["ja"])            # 青 1枚 -> 青1枚
    en = re.sub(r"\b(\d+) any\b", r"\1 of any kind", words["en"])
    return {"en": en, "ja": ja}


# --------------------------------------------------------------------------- whole texts

def action_text(act: Any, types: dict | None = None) -> dict:
    """What a card or an AVI ability does: its hit (or what it places, or where it moves), its
    range, its effects in order, and a placed card's aura."""
    parts: list[dict] = []
    r = range_words(act.range) if act.range else None
    if act.target == "empty":
        parts.append(_bi(f"Place it on an empty square in range (durability {act.durability}). Range: {r['en']}.",
                         f"範囲内の空いているマスに設置する（耐久値{act.durability}）。範囲：{r['ja']}。"))
    elif act.target == "move":
        parts.append(_bi(f"Move your AVI to an empty square in range (never into the opponent's area). Range: {r['en']}.",
                         f"自身の《AVI》を範囲内の空いているマスに移動する（相手のエリアには入れない）。範囲：{r['ja']}。"))
    elif act.damage:
        parts.append(_bi(f"Hit damage {act.damage}. Hit range: {r['en']}.", f"ヒットダメージ{act.damage}。ヒット範囲：{r['ja']}。"))
    elif r is not None:
        parts.append(_bi(f"Hit range: {r['en']} (it needs an opponent's AVI or placed card there).",
                         f"ヒット範囲：{r['ja']}（相手の《AVI》か設置されたカードがある必要がある）。"))
    parts += [_sentence(effect_phrase(e)) for e in act.effects if e["do"] != "move_self"]
    parts += [_sentence(mod_phrase(m)) for m in act.aura]
    return _concat(parts)


def ability_text(ability: Any, types: dict | None = None) -> dict:
    """An AVI ability's text as the card carries it: ``【2AP】…`` / ``[2 AP] …``."""
    body = action_text(ability.action, types)
    return {"en": f"[{ability.cost} AP] {body['en']}".rstrip(), "ja": f"【{ability.cost}AP】{body['ja']}"}


def awakening_text(awakening: dict) -> dict:
    """An AVI's awakening: ``<覚醒 X> …`` — the modifiers on while its life is X or less."""
    body = _concat(_sentence(mod_phrase(m, placed=False)) for m in awakening["mods"])
    return {"en": f"<Awakening {awakening['life']}> {body['en']}", "ja": f"<覚醒 {awakening['life']}> {body['ja']}"}


def avi_text(card: Any, types: dict | None = None) -> dict:
    """An AVI's whole text: each ability (number, name, cost, what it does), then its awakening."""
    lines = []
    for i, ab in enumerate(card.abilities, 1):
        t = ability_text(ab, types)
        lines.append(_bi(f"{i}. {ab.name['en']} {t['en']}", f"{i}. {ab.name['ja']}{t['ja']}"))
    if card.awakening:
        lines.append(awakening_text(card.awakening))
    return _concat(lines, "\n", "\n")


def card_text(card: Any, types: dict | None = None) -> dict:
    """The text a card carries in a server set's engine (the style of the shipped card texts):
    ``《CB》`` first, what it does, then 【ブレイク条件】 (Br) or 【アクション構築条件】 (IT) — the
    hand picture puts those on a line of their own.  An AVI: :func:`avi_text`."""
    if card.category == "AVI":
        return avi_text(card, types)
    parts = [action_text(card.action, types)]
    if card.breaks:
        conds = [break_phrase(b, types) for b in card.breaks]
        parts.append(_bi("Break condition: " + " and ".join(c["en"] for c in conds) + ".",
                         "【ブレイク条件】" + "、かつ".join(c["ja"] for c in conds) + "。"))
    if card.build:
        b = build_words(card, types)
        parts.append(_bi(f"Build condition: put these cards from your hand in the trash: {b['en']}.",
                         f"【アクション構築条件】手札から次のカードをトラッシュに置く：{b['ja']}。"))
    text = _concat(parts)
    if card.cb:
        text = {"en": "CB. " + text["en"], "ja": "《CB》" + text["ja"]}
    if not text["en"]:
        text = _bi("No effect.", "効果なし。")
    return text


def marks(card: Any, types: dict | None = None) -> dict:
    """The card's category, colour, CB mark and types: ``Ac · white · CB · [Strike]``."""
    en = [card.category]
    ja = [f"《{card.category}》"]
    if card.colour:
        en.append(COLOUR_EN.get(card.colour, card.colour))
        ja.append(COLOUR_JA.get(card.colour, card.colour))
    if card.cb:
        en.append("CB")
        ja.append("《CB》")
    for t in card.types:
        name = (types or {}).get(t) or {"en": t, "ja": t}
        en.append(f"[{name['en']}]")
        ja.append(f"[{name['ja']}]")
    return {"en": " · ".join(en), "ja": "・".join(ja)}


def rules_text(card: Any, types: dict | None = None) -> dict:
    """Everything the card is and does: :func:`marks`, then :func:`card_text`."""
    head, body = marks(card, types), card_text(card, types)
    return {"en": f"{head['en']}\n{body['en']}", "ja": f"{head['ja']}\n{body['ja']}"}


def generated(card: Any, types: dict | None = None) -> dict:
    """The texts a card carries, generated: ``{"text": …}``, with an AVI's ``abilities`` (one
    text each) and ``awakening`` text."""
    out: dict[str, Any] = {"text": card_text(card, types)}
    if card.category == "AVI":
        out["abilities"] = [ability_text(ab, types) for ab in card.abilities]
        out["awakening"] = awakening_text(card.awakening) if card.awakening else None
    return out


__all__ = ["range_words", "effect_phrase", "mod_phrase", "break_phrase", "build_words", "action_text",
           "ability_text", "awakening_text", "avi_text", "card_text", "marks", "rules_text", "generated"]
