"""Project Maken card schema: the vocabulary of a card file and the reading of one character or
card entry (every error a :class:`CardDataError` naming the file, the card and the field), and the
rules texts generated from the data (:func:`card_text`, :func:`character_text`).

The set of cards (:class:`rules.maken.cards.CardSet`), its ready-made decks and its editions'
patches are read in ``rules/maken/cards.py``, which re-exports the names here that its callers use.
"""
from __future__ import annotations

import re
from typing import Any, Iterable

from rules.card_errors import CardDataError as _CardDataError

POSTURES = ("stand", "crouch", "air")
ICONS = ("dust", "gauge", "hand", "stamina")
GC_KINDS = (None, "only", "able")
TIMINGS = ("before", "after")
BET_EFFECTS = ("draw", "gauge")
HIT_EFFECTS = ("draw", "gauge", "power")
SUPPORT_EFFECTS = ("draw", "gauge", "recover")
EFFECT_N = (1, 5)                    # an effect's amount
IF_GAUGE = (0, 10)                   # a bet effect's condition: gauge cards at least
NUMBERS = {"speed": (0, 9), "reach": (0, 9), "attack": (0, 9), "guard": (1, 5), "cost": (0, 10), "gain": (0, 10),
           "draw_limit": (1, 5)}
_ID_RE = re.compile(r"^[a-z][a-z0-9_]{1,15}$")
ID_RULE = {"en": "2–16 characters: a lowercase letter, then lowercase letters, digits or _",
           "ja": "英小文字で始まる英小文字・数字・_の2〜16文字"}
TOP_KEYS = ("format", "characters", "cards", "decks", "editions", "comment")
CHARACTER_KEYS = ("id", "name", "text", "draw_limit", "comment")
DECK_KEYS = ("id", "name", "character", "cards", "comment")

POSTURE_JA = {"stand": "立ち", "crouch": "屈み", "air": "空中"}
POSTURE_EN = {"stand": "standing", "crouch": "crouching", "air": "air"}
ICON_EN = {"dust": "dust", "gauge": "gauge", "hand": "hand", "stamina": "bottom of stamina"}
ICON_JA = {"dust": "ダスト", "gauge": "ゲージ", "hand": "手札", "stamina": "スタミナの下"}


class CardDataError(_CardDataError):
    """A problem in the card data: names the file, the card (or ``deck '<id>'``) and the field;
    ``problem`` in English (the operator's start-up message), ``key``/``params`` for the catalog."""

    def __init__(self, file: str, card: str | None, field: str | None, problem: str, /,
                 *, key: str | None = None, **params: Any) -> None:
        super().__init__(file, card, field, problem, key=key, **params)
        who = "" if not card else f", {card}" if str(card).startswith("deck ") else f", card {card!r}"
        where = str(file) + who + (f", field {field!r}" if field else "")
        self.args = (f"{where}: {problem}",)

    def __str__(self) -> str:
        return str(self.args[0])


def _effect_text(eff: dict, lang: str) -> str:
    n = eff["n"]
    if lang == "ja":
        base = {"draw": f"{n}枚ドロー", "gauge": f"スタミナ札{n}枚をゲージ行き",
                "power": f"攻撃値合計+{n}", "recover": f"ダメージ札{n}枚をスタミナ札の下へ"}[eff["do"]]
        if eff.get("if_gauge") is not None:
            base = f"ゲージ札が{eff['if_gauge']}枚以上なら{base}"
        return base
    base = {"draw": f"draw {n}", "gauge": f"move {n} stamina card{'s' if n > 1 else ''} to your gauge",
            "power": f"attack total +{n}",
            "recover": f"put {n} damage card{'s' if n > 1 else ''} under your stamina"}[eff["do"]]
    if eff.get("if_gauge") is not None:
        base = f"if you have {eff['if_gauge']}+ gauge, {base}"
    return base


def card_text(card: dict) -> dict:
    """The rules text of a normalised card in English and Japanese (generated from its fields)."""
    out = {}
    for lang in ("en", "ja"):
        parts = []
        if card["kind"] == "support":
            timing = ({"before": "Before attack", "after": "After attack"} if lang == "en"
                      else {"before": "アタック前", "after": "アタック後"})[card["timing"]]
            effs = ("; " if lang == "en" else "、").join(_effect_text(e, lang) for e in card["effect"])
            parts.append(f"{timing}: {effs}" if lang == "en" else f"{timing}：{effs}")
        else:
            if lang == "en":
                if card["gc"] == "only":
                    parts.append("[GC only]")
                elif card["gc"] == "able":
                    parts.append("[GC-able]")
                for u in card["unguardable"]:
                    parts.append(f"No {POSTURE_EN[u]} guard")
                if card["cost"]:
                    parts.append(f"Gauge cost {card['cost']}")
                if card["gain"]:
                    parts.append(f"Gauge gain {card['gain']}")
                if card["bet"]:
                    parts.append("On bet: " + "; ".join(_effect_text(e, lang) for e in card["bet"]))
                if card["hit"]:
                    parts.append("On hit: " + "; ".join(_effect_text(e, lang) for e in card["hit"]))
            else:
                if card["gc"] == "only":
                    parts.append("【GC専用】")
                elif card["gc"] == "able":
                    parts.append("【GC可能】")
                for u in card["unguardable"]:
                    parts.append(f"{POSTURE_JA[u]}ガード不可")
                if card["cost"]:
                    parts.append(f"ゲージ消費{card['cost']}")
                if card["gain"]:
                    parts.append(f"ゲージ増加{card['gain']}")
                if card["bet"]:
                    parts.append("ベット時：" + "、".join(_effect_text(e, lang) for e in card["bet"]))
                if card["hit"]:
                    parts.append("ヒット時：" + "、".join(_effect_text(e, lang) for e in card["hit"]))
        icon = (ICON_EN if lang == "en" else ICON_JA)[card["icon"]]
        parts.append(("Goes to: " if lang == "en" else "どこいく：") + icon)
        out[lang] = (". " if lang == "en" else "。").join(parts)
    return out


def character_text(character: dict) -> dict:
    """A character's rules text, generated from its data (its draw limit): what a server's set
    shows players beside the set's own words (a card cannot say one thing and do another).

    >>> character_text({"draw_limit": 2})["en"]
    'Draw limit 2: in your draw phase, declare 1 to 2 and draw that many cards from your stamina'
    >>> character_text({"draw_limit": 1})["ja"]
    'ドロー上限1枚：ドローフェイズに1枚をスタミナ札からドロー'
    """
    n = character["draw_limit"]
    if n == 1:
        return {"en": "Draw limit 1: in your draw phase, draw 1 card from your stamina",
                "ja": "ドロー上限1枚：ドローフェイズに1枚をスタミナ札からドロー"}
    return {"en": f"Draw limit {n}: in your draw phase, declare 1 to {n} and draw that many cards from your stamina",
            "ja": f"ドロー上限{n}枚：ドローフェイズに1〜{n}枚を宣言してスタミナ札からドロー"}


def keyed(file: str, card: str | None, field: str | None, problem: str, key: str, params: dict) -> CardDataError:
    """A :class:`CardDataError` whose params may be named as its own arguments are (a deck rule's
    ``{card}``): they are set after the error is made."""
    err = CardDataError(file, card, field, problem, key=key)
    err.params.update(params)
    return err


class _Ctx:
    def __init__(self, file: str) -> None:
        self.file = file

    def fail(self, card: str | None, field: str | None, problem: str, /, *, key: str | None = None,
             **params: Any) -> CardDataError:
        return CardDataError(self.file, card, field, problem, key=key, **params)


def _shown(value: Any) -> Any:
    """A bad value as a problem's param: a number as it is, anything else as short JSON."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    import json

    try:
        return json.dumps(value, ensure_ascii=False)[:30]
    except (TypeError, ValueError):
        return str(value)[:30]


def _label(raw: Any, index: int, deck: bool = False) -> str:
    """How a problem names an entry: its id, or its number in its list when it has no usable one."""
    ident = raw.get("id") if isinstance(raw, dict) else None
    if isinstance(ident, str) and _ID_RE.match(ident):
        return f"deck {ident!r}" if deck else ident
    return f"deck #{index + 1}" if deck else f"#{index + 1}"


def _check_id(ctx: _Ctx, raw: dict, index: int, deck: bool = False) -> str:
    cid = raw.get("id")
    if not isinstance(cid, str) or not _ID_RE.match(cid):
        label = (f"deck #{index + 1}" if deck else f"#{index + 1}") if not isinstance(cid, str) or not cid \
            else (f"deck {cid!r}" if deck else cid)
        raise ctx.fail(label, "id", "must be 2–16 characters: a–z first, then a–z, 0–9 or _",
                       key="required" if cid is None else "id_format", value=str(cid)[:40], rule=ID_RULE)
    return cid


def _names(ctx: _Ctx, cid: str | None, value: Any, field: str = "name") -> dict:
    if not isinstance(value, dict) or set(value) != {"en", "ja"} or \
            not all(isinstance(v, str) and v.strip() for v in value.values()):
        raise ctx.fail(cid, field, 'must be {"en": text, "ja": text}, both non-empty', key="lang_object")
    return {"en": value["en"], "ja": value["ja"]}


def _int(ctx: _Ctx, cid: str, field: str, value: Any, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ctx.fail(cid, field, f"must be a whole number from {lo} to {hi}, not {value!r}",
                       key="required" if value is None else "int_range", low=lo, high=hi, value=_shown(value))
    return value


def _choice(ctx: _Ctx, cid: str, field: str, value: Any, allowed: tuple, what: str = "") -> Any:
    if value not in allowed:
        shown = ", ".join("null" if a is None else a for a in allowed)
        raise ctx.fail(cid, field, what or f"must be one of {shown}, not {value!r}",
                       key="required" if value is None else "choice",
                       choices=["null" if a is None else a for a in allowed], value=str(value)[:30])
    return value


def _effects(ctx: _Ctx, cid: str, field: str, value: Any, allowed: tuple, cond: bool) -> list:
    if not isinstance(value, list):
        raise ctx.fail(cid, field, "must be a list of effects", key="not_list")
    out = []
    for i, eff in enumerate(value):
        f = f"{field}[{i}]"
        if not isinstance(eff, dict):
            raise ctx.fail(cid, f, "an effect is an object {\"do\", \"n\"}", key="not_object")
        extra = set(eff) - {"do", "n", "if_gauge"}
        if extra:
            raise ctx.fail(cid, f"{f}.{sorted(extra)[0]}", f"unknown key {sorted(extra)[0]!r}", key="unknown_key",
                           allowed=["do", "n"] + (["if_gauge"] if cond else []))
        if eff.get("do") not in allowed:
            raise ctx.fail(cid, f + ".do", f"must be one of {', '.join(allowed)}, not {eff.get('do')!r}",
                           key="unknown_effect", name=str(eff.get("do"))[:30], known=list(allowed))
        e = {"do": eff["do"], "n": _int(ctx, cid, f + ".n", eff.get("n"), *EFFECT_N)}
        if "if_gauge" in eff:
            if not cond:
                raise ctx.fail(cid, f + ".if_gauge", "a condition is allowed on bet effects only", key="mk_bet_only")
            e["if_gauge"] = _int(ctx, cid, f + ".if_gauge", eff["if_gauge"], *IF_GAUGE)
        out.append(e)
    return out


_ATTACK_KEYS = {"id", "character", "kind", "name", "speed", "reach", "attack", "guard", "posture",
                "unguardable", "cost", "gain", "gc", "bet", "hit", "icon", "comment"}
_SUPPORT_KEYS = {"id", "character", "kind", "name", "timing", "effect", "icon", "comment"}


def normalise_character(ctx: _Ctx, raw: Any, index: int = 0) -> dict:
    """One character of a file, checked (its ``text`` optional: the generated rules text stands in)."""
    if not isinstance(raw, dict):
        raise ctx.fail(f"#{index + 1}", None, "each character must be an object", key="not_object")
    cid = _check_id(ctx, raw, index)
    extra = set(raw) - set(CHARACTER_KEYS)
    if extra:
        raise ctx.fail(cid, sorted(extra)[0], "unknown field; allowed: id, name, text, draw_limit",
                       key="unknown_field", allowed=list(CHARACTER_KEYS[:4]))
    out = {"id": cid, "kind": "character", "name": _names(ctx, cid, raw.get("name")),
           "draw_limit": _int(ctx, cid, "draw_limit", raw.get("draw_limit", 3), *NUMBERS["draw_limit"])}
    out["text"] = _names(ctx, cid, raw["text"], "text") if "text" in raw else character_text(out)
    return {k: out[k] for k in ("id", "kind", "name", "text", "draw_limit")}


def normalise_card(ctx: _Ctx, raw: Any, characters: dict, index: int = 0, failed: Iterable[str] = ()) -> dict:
    """One attack or support card, checked; ``failed``: characters left out for a problem of their
    own (a card of one is still checked, and not blamed for its character)."""
    if not isinstance(raw, dict):
        raise ctx.fail(f"#{index + 1}", None, "each card must be an object", key="not_object")
    cid = _check_id(ctx, raw, index)
    kind = _choice(ctx, cid, "kind", raw.get("kind"), ("attack", "support"),
                   f"must be attack or support, not {raw.get('kind')!r}")
    keys = _ATTACK_KEYS if kind == "attack" else _SUPPORT_KEYS
    extra = set(raw) - keys
    if extra:
        raise ctx.fail(cid, sorted(extra)[0], f"unknown field for a {kind} card; allowed: {', '.join(sorted(keys))}",
                       key="unknown_field", allowed=sorted(keys - {"comment"}))
    ch = raw.get("character")
    if not isinstance(ch, str) or (ch not in characters and ch not in set(failed)):
        raise ctx.fail(cid, "character", f"unknown character {ch!r} (define it under \"characters\" first)",
                       key="mk_unknown_character", character=str(ch)[:30])
    icon = _choice(ctx, cid, "icon", raw.get("icon"), ICONS)
    card: dict[str, Any] = {"id": cid, "kind": kind, "character": ch, "name": _names(ctx, cid, raw.get("name")),
                            "icon": icon}
    if kind == "support":
        card["timing"] = _choice(ctx, cid, "timing", raw.get("timing"), TIMINGS,
                                 f"must be before or after, not {raw.get('timing')!r}")
        card["effect"] = _effects(ctx, cid, "effect", raw.get("effect"), SUPPORT_EFFECTS, False)
        if not card["effect"]:
            raise ctx.fail(cid, "effect", "a support card needs at least one effect", key="mk_no_effect")
    else:
        card["speed"] = _int(ctx, cid, "speed", raw.get("speed"), *NUMBERS["speed"])
        reach = raw.get("reach")
        if isinstance(reach, list):
            if len(reach) != 2:
                raise ctx.fail(cid, "reach", "front/back reach is a list [front, back]", key="mk_reach")
            card["front"] = _int(ctx, cid, "reach[0]", reach[0], *NUMBERS["reach"])
            card["back"] = _int(ctx, cid, "reach[1]", reach[1], *NUMBERS["reach"])
        else:
            card["front"] = card["back"] = _int(ctx, cid, "reach", reach, *NUMBERS["reach"])
        card["attack"] = _int(ctx, cid, "attack", raw.get("attack"), *NUMBERS["attack"])
        card["guard"] = _int(ctx, cid, "guard", raw.get("guard"), *NUMBERS["guard"])
        card["posture"] = _choice(ctx, cid, "posture", raw.get("posture"), POSTURES)
        ung = raw.get("unguardable", [])
        if not isinstance(ung, list) or any(u not in POSTURES for u in ung) or len(set(ung)) != len(ung):
            raise ctx.fail(cid, "unguardable", "must be a list of distinct postures (stand, crouch, air)",
                           key="mk_unguardable", choices=list(POSTURES))
        card["unguardable"] = [p for p in POSTURES if p in ung]
        card["cost"] = _int(ctx, cid, "cost", raw.get("cost", 0), *NUMBERS["cost"])
        card["gain"] = _int(ctx, cid, "gain", raw.get("gain", 0), *NUMBERS["gain"])
        card["gc"] = _choice(ctx, cid, "gc", raw.get("gc"), GC_KINDS, f"must be null, only or able, not {raw.get('gc')!r}")
        card["bet"] = _effects(ctx, cid, "bet", raw.get("bet", []), BET_EFFECTS, True)
        card["hit"] = _effects(ctx, cid, "hit", raw.get("hit", []), HIT_EFFECTS, False)
    card["text"] = card_text(card)
    return card
