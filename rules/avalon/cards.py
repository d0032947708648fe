"""Card definitions of Avalon's Sanctuary: the schema (validated when the set is loaded) and the
card texts in both languages, generated from the data so text and behaviour never disagree.

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
"""
from __future__ import annotations

from typing import Any

ATTRS = ("yellow", "red", "blue", "green", "none")
ATTR_LETTER = {"yellow": "y", "red": "r", "blue": "b", "green": "g", "none": "n"}
MANA_KEYS = ("y", "r", "b", "g", "c", "w", "v")
COLOURED = ("y", "r", "b", "g")
KEYWORDS = ("first", "last", "evade", "evade_null", "death", "death_null", "reflect",
            "reflect_null", "counter")
SUPPORT_KINDS = ("weapon_replace", "informant", "chaos_panic", "stat", "poison_mist",
                 "fingertips", "grant")
MAGIC_KINDS = ("draw", "life", "destroy", "surge", "scatter", "empower", "prism", "recycle", "focus")
CATEGORIES = ("creature", "support", "magic", "avatar")
# timed abilities (rulebook: クリーチャーカードが持つ能力): field -> allowed effect keys
EFFECT_RANGE = {"draw": (1, 3), "life": (1, 2), "atk": (1, 3), "target_minus": (1, 3)}
TIMINGS = {
    "on_forge": ("draw", "life"),            # 素成時
    "battle_start": ("draw", "life"),        # 戦闘開始時
    "while_forged": ("target_minus",),       # 素成中
    "on_win": ("draw", "life", "atk"),       # 戦闘勝利時
    "on_loss": ("draw", "life"),             # 戦闘敗北時
    "battle_end": ("draw", "life", "atk"),   # 戦闘終了時
    "in_hand": ("draw", "life"),             # 手札
    "as_proof": ("target_minus",),           # 証
}

# ability order (rulebook: 戦闘時における発動順 1–9)
SUPPORT_ORDER = {"weapon_replace": 1, "informant": 2, "chaos_panic": 3, "stat": 4,
                 "poison_mist": 5, "fingertips": 6}
GRANT_ORDER = {"first": 7, "last": 7, "evade": 8, "evade_null": 8, "death": 8, "death_null": 8,
               "reflect": 8, "reflect_null": 8, "counter": 9}


class CardDataError(ValueError):
    """A bad card file: names the file, the card and the field."""

    def __init__(self, file: str, card: str | None, field: str | None, problem: str) -> None:
        self.file, self.card, self.field, self.problem = file, card, field, problem
        where = file + (f", card {card!r}" if card else "") + (f", field {field!r}" if field else "")
        super().__init__(f"{where}: {problem}")


def _name(d: Any, file: str, cid: str, field: str = "name") -> None:
    if not (isinstance(d, dict) and isinstance(d.get("en"), str) and isinstance(d.get("ja"), str)
            and d["en"].strip() and d["ja"].strip()):
        raise CardDataError(file, cid, field, 'must be {"en": text, "ja": text}')


def _int(v: Any, lo: int, hi: int, file: str, cid: str, field: str) -> None:
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise CardDataError(file, cid, field, f"must be a whole number from {lo} to {hi}, not {v!r}")


def _support(eff: Any, file: str, cid: str) -> None:
    if not isinstance(eff, dict) or eff.get("kind") not in SUPPORT_KINDS:
        raise CardDataError(file, cid, "support", f"kind must be one of {', '.join(SUPPORT_KINDS)}")
    if eff["kind"] == "stat":
        _int(eff.get("atk", 0), -9, 9, file, cid, "support.atk")
        _int(eff.get("dur", 0), -9, 9, file, cid, "support.dur")
    if eff["kind"] == "grant" and eff.get("kw") not in KEYWORDS:
        raise CardDataError(file, cid, "support.kw", f"must be one of {', '.join(KEYWORDS)}")


def validate_card(card: Any, file: str) -> dict:
    """Check one card definition; return it (unchanged) or raise CardDataError."""
    if not isinstance(card, dict):
        raise CardDataError(file, None, None, "a card must be an object")
    cid = card.get("id")
    if not isinstance(cid, str) or not cid.isalnum() or not cid.islower() or not 2 <= len(cid) <= 6:
        raise CardDataError(file, str(cid), "id", "must be 2–6 lowercase letters/digits")
    cat = card.get("category")
    if cat not in CATEGORIES:
        raise CardDataError(file, cid, "category", f"must be one of {', '.join(CATEGORIES)}")
    _name(card.get("name"), file, cid)
    if cat == "avatar":
        return card
    _int(card.get("orig"), 1, 5, file, cid, "orig")
    if cat == "creature":
        if card.get("attr") not in ATTRS:
            raise CardDataError(file, cid, "attr", f"must be one of {', '.join(ATTRS)}")
        _int(card.get("atk"), 0, 20, file, cid, "atk")
        _int(card.get("dur"), 1, 20, file, cid, "dur")
        mana = card.get("mana")
        if not isinstance(mana, dict) or any(k not in MANA_KEYS for k in mana):
            raise CardDataError(file, cid, "mana", f"must map icons ({', '.join(MANA_KEYS)}) to counts")
        for k, n in mana.items():
            _int(n, 1, 9, file, cid, f"mana.{k}")
        kws = card.get("keywords", [])
        if not isinstance(kws, list) or any(k not in KEYWORDS for k in kws):
            raise CardDataError(file, cid, "keywords", f"each must be one of {', '.join(KEYWORDS)}")
        if "target_minus" in card:
            _int(card["target_minus"], 1, 5, file, cid, "target_minus")
        if "battle" in card:
            b = card["battle"]
            if not isinstance(b, dict) or b.get("when") not in ("invade", "defend", "any"):
                raise CardDataError(file, cid, "battle", "needs atk, dur and when (invade/defend/any)")
            _int(b.get("atk", 0), -9, 9, file, cid, "battle.atk")
            _int(b.get("dur", 0), -9, 9, file, cid, "battle.dur")
        if "on_summon" in card:
            _int(card["on_summon"].get("draw") if isinstance(card["on_summon"], dict) else None,
                 1, 3, file, cid, "on_summon.draw")
        if "support" in card:
            _support(card["support"], file, cid)
        for tf, allowed in TIMINGS.items():
            if tf in card:
                eff = card[tf]
                if not isinstance(eff, dict) or len(eff) != 1 or next(iter(eff)) not in allowed:
                    raise CardDataError(file, cid, tf, f"must be one effect: {{k: n}} with k one of {', '.join(allowed)}")
                k = next(iter(eff))
                _int(eff[k], *EFFECT_RANGE[k], file, cid, f"{tf}.{k}")
        if "ninja" in card and card["ninja"] is not True:
            raise CardDataError(file, cid, "ninja", "must be true when present")
    elif cat == "support":
        _support(card.get("support"), file, cid)
    else:
        eff = card.get("magic")
        if not isinstance(eff, dict) or eff.get("kind") not in MAGIC_KINDS:
            raise CardDataError(file, cid, "magic", f"kind must be one of {', '.join(MAGIC_KINDS)}")
    return card


# --------------------------------------------------------------------------- texts

KW_TEXT = {
    "first": ("First strike", "先制"), "last": ("Last strike", "後攻"),
    "evade": ("Evade", "避け"), "evade_null": ("Evade-null", "避け無効"),
    "death": ("Instant death", "即死"), "death_null": ("Death-null", "即死無効"),
    "reflect": ("Reflect", "反射"), "reflect_null": ("Reflect-null", "反射無効"),
    "counter": ("Counter", "反撃"),
}
ATTR_TEXT = {"yellow": ("yellow", "黄"), "red": ("red", "赤"), "blue": ("blue", "青"),
             "green": ("green", "緑"), "none": ("colourless", "無")}
MANA_TEXT = {"y": ("yellow", "黄"), "r": ("red", "赤"), "b": ("blue", "青"), "g": ("green", "緑"),
             "c": ("colourless", "無"), "w": ("rainbow", "虹"), "v": ("rainbow vessel", "虹の器")}
WHEN_TEXT = {"invade": ("when it battles as the invader", "侵略側で戦闘する時"),
             "defend": ("when it battles as the defender", "防衛側で戦闘する時"),
             "any": ("in battle", "戦闘時")}


def support_text(eff: dict) -> tuple[str, str]:
    k = eff["kind"]
    if k == "weapon_replace":
        return ("Battle support (resolves at step 1): the two battling creatures exchange attack values. "
                "If both sides use it, both creatures survive.",
                "戦闘支援（発動順1）：戦闘する2体の攻撃値を入れ替える。双方が使用した場合、双方とも生き残る。")
    if k == "informant":
        return ("Battle support (resolves at step 2): the opposing battle support is cancelled (unless it already resolved).",
                "戦闘支援（発動順2）：相手の戦闘支援の効果を無効にする（既に発動したものを除く）。")
    if k == "chaos_panic":
        return ("Battle support (resolves at step 3): the opposing creature's attack and durability are exchanged.",
                "戦闘支援（発動順3）：相手クリーチャーの攻撃値と耐久値を入れ替える。")
    if k == "poison_mist":
        return ("Battle support (resolves at step 5): the opposing creature's durability is halved (rounded up).",
                "戦闘支援（発動順5）：相手クリーチャーの耐久値を半分にする（端数切り上げ）。")
    if k == "fingertips":
        return ("Battle support (resolves at step 6): the opposing creature loses every battle keyword it has now.",
                "戦闘支援（発動順6）：相手クリーチャーはこの時点で持つ戦闘能力をすべて失う。")
    if k == "stat":
        en, ja = _change(eff.get("atk", 0), eff.get("dur", 0))
        return (f"Battle support (resolves at step 4): your creature gets {en}.",
                f"戦闘支援（発動順4）：自分のクリーチャーの{ja}。")
    en, ja = KW_TEXT[eff["kw"]]
    order = GRANT_ORDER[eff["kw"]]
    return (f"Battle support (resolves at step {order}): your creature gains {en.lower()}.",
            f"戦闘支援（発動順{order}）：自分のクリーチャーは「{ja}」を得る。")


def magic_text(eff: dict) -> tuple[str, str]:
    k = eff["kind"]
    return {
        "draw": (f"Draw {eff.get('n', 2)} cards.", f"カードを{eff.get('n', 2)}枚引く。"),
        "life": ("Add the top card of your memory to your life.", "メモリーの一番上のカードをライフに加える。"),
        "destroy": (f"Destroy another player's creature of originality {eff.get('max_orig', 2)} or less on a land "
                    "(its mana stays).",
                    f"他のプレイヤーの土地にいるオリジナリティ{eff.get('max_orig', 2)}以下のクリーチャー1体を破壊する（魔素は残る）。"),
        "surge": ("Put the top card of your memory as mana on one of your lands without a creature, ignoring the stacking restriction.",
                  "メモリーの一番上のカードを、クリーチャーのいない自分の土地に魔素として素成する（重ねる制限を無視）。"),
        "scatter": ("Every other player discards a random card from their hand.",
                    "他のプレイヤー全員は手札からランダムに1枚捨てる。"),
        "empower": (f"Your creature on a land gets +{eff.get('atk', 1)} attack while deployed.",
                    f"自分の土地のクリーチャー1体は、配置中攻撃値+{eff.get('atk', 1)}。"),
        "prism": ("Every icon of the top mana card of one of your lands becomes rainbow.",
                  "自分の土地1つの一番上の魔素カードの魔素をすべて虹属性にする。"),
        "recycle": ("Shuffle your discard pile into your memory.", "捨て山をメモリーに加えてよく切る。"),
        "focus": (f"This turn your target mana is {eff.get('n', 3)} lower.",
                  f"このターン、自分の目標魔力を{eff.get('n', 3)}少なくする。"),
    }[k]


TIMING_TEXT = {
    "on_forge": ("When forged", "素成時"), "while_forged": ("While forged", "素成中"),
    "battle_start": ("At battle start", "戦闘開始時"),
    "on_win": ("On battle win", "戦闘勝利時"), "on_loss": ("On battle loss", "戦闘敗北時"),
    "battle_end": ("At battle end", "戦闘終了時"), "in_hand": ("In hand", "手札"),
    "as_proof": ("As a proof", "証"),
}


WHEN_FULL = {     # each timing as the condition a card text starts with
    "on_forge": ("When it is forged as mana on your land", "魔素として自分の土地に素成された時"),
    "while_forged": ("While it is mana on your land", "魔素として自分の土地にある間"),
    "battle_start": ("Before a battle it fights, ahead of the battle supports", "自身が戦う戦闘に入る前（戦闘支援を選ぶ前）"),
    "on_win": ("When it destroys the opposing creature in battle", "戦闘で相手クリーチャーを倒した時"),
    "on_loss": ("When it is destroyed in battle", "戦闘で自身が倒された時"),
    "battle_end": ("When a battle it fought ends", "自身が戦った戦闘が終わった時"),
    "in_hand": ("In your set phase, discard it from your hand to use it", "自分のセットフェイズに手札から捨てて使える"),
    "as_proof": ("While it is one of your proofs", "自分の証である間"),
}


def effect_text(timing: str, eff: dict) -> tuple[str, str]:
    """The text of one timed ability (``TIMINGS``): its condition, then what it does."""
    k, n = next(iter(eff.items()))
    if k == "draw":
        en, ja = ("draw a card" if n == 1 else f"draw {n} cards"), f"カードを{n}枚引く"
    elif k == "life":
        en, ja = (f"add the top {n} cards of your memory to your life" if n > 1 else
                  "add the top card of your memory to your life",
                  f"メモリーの上から{n}枚をライフに加える")
    elif k == "atk":
        en, ja = f"this creature gets +{n} attack while deployed", f"このクリーチャーは配置中攻撃値+{n}"
    else:
        en, ja = f"your target mana is {n} lower", f"自分の目標魔力を{n}少なくする"
    w_en, w_ja = WHEN_FULL[timing]
    return f"{w_en}: {en}.", f"{w_ja}：{ja}。"


def _change(atk: int, dur: int) -> tuple[str, str]:
    """"+1 attack and +2 durability" without the parts that do not change."""
    en = [f"{v:+d} {word}" for v, word in ((atk, "attack"), (dur, "durability")) if v]
    ja = [f"{word}{v:+d}" for v, word in ((atk, "攻撃値"), (dur, "耐久値")) if v]
    return " and ".join(en) or "no change", "・".join(ja) or "変化なし"


def card_text(card: dict) -> dict:
    """``{"en": text, "ja": text}`` of a card, generated from its definition."""
    cat = card["category"]
    if cat == "avatar":
        return {"en": "Avatar: your other self. In a battle, putting it out as your battle support means using nothing.",
                "ja": "アバター：あなたの分身。戦闘で戦闘支援として出すと「何も使用しない」と同じ意味になる。"}
    if cat == "support":
        en, ja = support_text(card["support"])
        return {"en": en, "ja": ja}
    if cat == "magic":
        en, ja = magic_text(card["magic"])
        return {"en": "Magic: " + en, "ja": "魔法：" + ja}
    en_parts, ja_parts = [], []
    a_en, a_ja = ATTR_TEXT[card["attr"]]
    mana = card["mana"]
    order = [k for k in MANA_KEYS if mana.get(k)]          # canonical order: text never depends on dict order
    m_en = ", ".join(f"{mana[k]} {MANA_TEXT[k][0]}" + ("s" if k == "v" and mana[k] > 1 else "")
                     for k in order) or "none"
    m_ja = "・".join(f"{MANA_TEXT[k][1]}{mana[k]}" for k in order) or "なし"
    en_parts.append(f"{a_en.capitalize()} creature ★{card['orig']}, {card['atk']}/{card['dur']}. Mana: {m_en}.")
    ja_parts.append(f"{a_ja}属性クリーチャー★{card['orig']}、攻撃値{card['atk']}／耐久値{card['dur']}。魔素：{m_ja}。")
    kws = card.get("keywords", [])
    if kws:
        en_parts.append(", ".join(KW_TEXT[k][0] for k in kws) + ".")
        ja_parts.append("・".join(KW_TEXT[k][1] for k in kws) + "。")
    if card.get("target_minus"):
        n = card["target_minus"]
        en_parts.append(f"While deployed: your target mana is {n} lower.")
        ja_parts.append(f"配置中：自分の目標魔力を{n}少なくする。")
    if card.get("battle"):
        b = card["battle"]
        w_en, w_ja = WHEN_TEXT[b["when"]]
        c_en, c_ja = _change(b.get("atk", 0), b.get("dur", 0))
        en_parts.append(f"{w_en.capitalize()} (resolves at step 4): {c_en}.")
        ja_parts.append(f"{w_ja}（発動順4）：{c_ja}。")
    if card.get("on_summon"):
        n = card["on_summon"]["draw"]
        en_parts.append("When summoned: draw a card." if n == 1 else f"When summoned: draw {n} cards.")
        ja_parts.append(f"召喚時：カードを{n}枚引く。")
    for tf in TIMINGS:
        if card.get(tf):
            en, ja = effect_text(tf, card[tf])
            en_parts.append(en)
            ja_parts.append(ja)
    if card.get("ninja"):
        en_parts.append("Ninja Master (resolves at step 3): in battle it gains first strike and evade.")
        ja_parts.append("ニンジャマスター（発動順3）：戦闘時、先制と避けを得る。")
    if card.get("support"):
        en, ja = support_text(card["support"])
        en_parts.append(en)
        ja_parts.append(ja)
    return {"en": " ".join(en_parts), "ja": "".join(ja_parts)}
