"""Avalon's Sanctuary card texts in both languages, generated from a card's definition
(:func:`card_text`), so text and behaviour never disagree."""
from __future__ import annotations

from rules.avalon.card_schema import GRANT_ORDER, MANA_KEYS, TIMINGS


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
        "draw": ("Draw a card." if eff.get("n", 2) == 1 else f"Draw {eff.get('n', 2)} cards.",
                 f"カードを{eff.get('n', 2)}枚引く。"),
        "life": (("Add the top card of your memory to your life.", "メモリーの一番上のカードをライフに加える。")
                 if eff.get("n", 1) == 1 else
                 (f"Add the top {eff['n']} cards of your memory to your life.", f"メモリーの上から{eff['n']}枚をライフに加える。")),
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
