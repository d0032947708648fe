"""Avalon's Sanctuary card schema: the fields, effects and numbers a card may have and the check
of one card definition (:func:`card_problems`, :func:`validate_card`), every problem a
:class:`CardDataError` with a catalog key (``cardcheck.<key>``).

Whole card files (cards, ready-made decks, edition patches) are checked by
:func:`rules.avalon.cards.validate_sources`, which re-exports the names here that its callers use;
the card texts are :mod:`rules.avalon.card_text`.
"""
from __future__ import annotations

import json
import re
from typing import Any, Callable, Iterable

from rules.card_errors import CardDataError as _CardDataError

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
WHENS = ("invade", "defend", "any")
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
ON_SUMMON = ("draw",)                        # 召喚時: {"draw": n}
# the numbers a creature prints: field -> (lowest, highest)
CREATURE_NUMBERS = {"orig": (1, 5), "atk": (0, 20), "dur": (1, 20), "target_minus": (1, 5)}
MANA_RANGE = (1, 9)                          # icons of one kind on a card
BATTLE_RANGE = (-9, 9)                       # 戦闘時: attack and durability change
# the parameters of each battle support and magic effect (absent: the default the text names)
SUPPORT_PARAMS: dict[str, dict[str, Any]] = {"stat": {"atk": (-9, 9), "dur": (-9, 9)}, "grant": {"kw": KEYWORDS}}
MAGIC_PARAMS: dict[str, dict[str, tuple[int, int]]] = {
    "draw": {"n": (1, 4)}, "life": {"n": (1, 3)}, "destroy": {"max_orig": (1, 5)},
    "empower": {"atk": (1, 5)}, "focus": {"n": (1, 6)}}
MAGIC_DEFAULTS = {"draw": {"n": 2}, "life": {"n": 1}, "destroy": {"max_orig": 2}, "empower": {"atk": 1},
                  "focus": {"n": 3}}
COMMON = ("id", "category", "name")
FIELDS = {
    "creature": COMMON + ("attr", "orig", "atk", "dur", "mana", "keywords", "target_minus", "battle",
                          "on_summon", *TIMINGS, "ninja", "support"),
    "support": COMMON + ("orig", "support"),
    "magic": COMMON + ("orig", "magic"),
    "avatar": COMMON,
}
TOP_KEYS = ("cards", "decks", "editions", "comment")
ID_RULE = {"en": "2–6 lowercase letters and digits, at least one letter",
           "ja": "英小文字・数字の2〜6文字（英字を1文字以上）"}
DECK_ID_RULE = {"en": "lowercase letters, digits and _, starting with a letter (2–31)",
                "ja": "英小文字で始まる英小文字・数字・_（2〜31文字）"}
_ID = re.compile(r"(?=[a-z0-9]*[a-z])[a-z0-9]{2,6}")
_DECK_ID = re.compile(r"[a-z][a-z0-9_]{1,30}")

# ability order (rulebook: 戦闘時における発動順 1–9)
SUPPORT_ORDER = {"weapon_replace": 1, "informant": 2, "chaos_panic": 3, "stat": 4,
                 "poison_mist": 5, "fingertips": 6}
GRANT_ORDER = {"first": 7, "last": 7, "evade": 8, "evade_null": 8, "death": 8, "death_null": 8,
               "reflect": 8, "reflect_null": 8, "counter": 9}


class CardDataError(_CardDataError):
    """A bad card file: names the file, the card (``"deck 'dawn'"`` for a deck, ``"#3"`` for an
    entry without a usable id) and the field; ``key``/``params``: the same in the catalog
    (``cardcheck.<key>``, or a deck rule's own ``avalon.deck.<rule>``)."""

    def __init__(self, file: str, card: str | None, field: str | None, problem: str, /,
                 *, key: str | None = None, **params: Any) -> None:
        super().__init__(file, card, field, problem, key=key, **params)
        whose = (f", {card}" if str(card).startswith("deck ") else f", card {card!r}") if card else ""
        self.args = (file + whose + (f", field {field!r}" if field else "") + f": {problem}",)

    def __str__(self) -> str:
        return str(self.args[0])


def keyed(err: CardDataError, key: str, params: dict) -> CardDataError:
    """``err`` with a catalog key and its params set afterwards (a deck rule's params name a
    ``card``, which the constructor's own ``card`` argument would take)."""
    err.key, err.params = key, dict(params)
    return err


Bad = Callable[..., None]


def _shown(value: Any) -> str:
    """A value a designer wrote, as an error quotes it."""
    return (value if isinstance(value, str) else json.dumps(value, ensure_ascii=False))[:30]


def _name(d: Any, field: str, bad: Bad) -> None:
    if not (isinstance(d, dict) and isinstance(d.get("en"), str) and isinstance(d.get("ja"), str)
            and d["en"].strip() and d["ja"].strip()):
        bad(field, 'must be {"en": text, "ja": text}', "lang_object")


def _int(v: Any, lo: int, hi: int, field: str, bad: Bad) -> None:
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        why = f"must be a whole number from {lo} to {hi}, not {v!r}"
        if v is None:
            bad(field, why, "required")
        elif isinstance(v, bool) or not isinstance(v, int):
            bad(field, why, "whole_number", value=_shown(v))
        else:
            bad(field, why, "int_range", low=lo, high=hi, value=v)


def _choice(v: Any, choices: Iterable[str], field: str, bad: Bad, why: str) -> bool:
    choices = tuple(choices)
    if v in choices:
        return True
    if v is None:
        bad(field, why, "required")
    else:
        bad(field, why, "choice", value=_shown(v), choices=list(choices))
    return False


def _effect(eff: Any, field: str, kinds: tuple, params: dict, bad: Bad) -> None:
    """A battle support or a magic effect ``{"kind": …, <its parameters>}``: the kind one of
    ``kinds`` (unknown: refused naming it), each parameter the kind's (``params``) and in range."""
    why = f"kind must be one of {', '.join(kinds)}"
    if eff is None:
        bad(field, why, "required")
        return
    if not isinstance(eff, dict):
        bad(field, why, "not_object")
        return
    kind = eff.get("kind")
    if kind is None:
        bad(f"{field}.kind", why, "required")
        return
    if kind not in kinds:
        bad(field, why, "unknown_effect", name=_shown(kind), known=list(kinds))
        return
    allowed = params.get(kind, {})
    for key, value in eff.items():
        if key == "kind":
            continue
        if key not in allowed:
            bad(f"{field}.{key}", f"{kind} takes no parameter {key!r}", "unknown_param", name=_shown(key),
                known=["kind", *allowed])
        elif isinstance(allowed[key], tuple) and allowed[key] and isinstance(allowed[key][0], int):
            _int(value, *allowed[key], f"{field}.{key}", bad)
        else:
            _choice(value, allowed[key], f"{field}.{key}", bad, f"must be one of {', '.join(allowed[key])}")
    for key, rule in allowed.items():      # a parameter without a default (grant's keyword)
        if key not in eff and not (isinstance(rule, tuple) and rule and isinstance(rule[0], int)):
            _choice(None, rule, f"{field}.{key}", bad, f"must be one of {', '.join(rule)}")


def _timed(eff: Any, field: str, allowed: tuple, bad: Bad) -> None:
    """A timed ability: exactly one effect ``{k: n}`` of the kinds its timing allows."""
    why = f"must be one effect: {{k: n}} with k one of {', '.join(allowed)}"
    if not isinstance(eff, dict) or len(eff) != 1:
        bad(field, why, "av_one_effect", effects=list(allowed))
        return
    k, n = next(iter(eff.items()))
    if k not in allowed:
        bad(field, why, "unknown_effect", name=_shown(k), known=list(allowed))
        return
    _int(n, *EFFECT_RANGE[k], f"{field}.{k}", bad)


def card_problems(card: Any, file: str, index: int = 0) -> list[CardDataError]:
    """EVERY problem of one card definition (``index``: its place in its file's list, naming an
    entry without a usable id ``#<index + 1>``); [] = valid."""
    if not isinstance(card, dict):
        return [CardDataError(file, f"#{index + 1}", None, "a card must be an object", key="not_object")]
    out: list[CardDataError] = []
    cid = card.get("id")
    label = cid if isinstance(cid, str) and cid.strip() else f"#{index + 1}"

    def bad(field: str | None, problem: str, key: str, **params: Any) -> None:
        out.append(CardDataError(file, label, field, problem, key=key, **params))

    if not isinstance(cid, str) or not _ID.fullmatch(cid):
        bad("id", "must be 2–6 lowercase letters/digits", "id_format", value=_shown(cid), rule=ID_RULE)
    cat = card.get("category")
    if not _choice(cat, CATEGORIES, "category", bad, f"must be one of {', '.join(CATEGORIES)}"):
        return out
    for key in card:
        if key == "text":
            bad("text", "a card's text is generated from its data", "av_text")
        elif key not in FIELDS[cat]:
            bad(key, f"unknown field; allowed: {', '.join(FIELDS[cat])}", "unknown_field", allowed=list(FIELDS[cat]))
    _name(card.get("name"), "name", bad)
    if cat == "avatar":
        return out
    _int(card.get("orig"), *CREATURE_NUMBERS["orig"], "orig", bad)
    if cat == "support":
        _effect(card.get("support"), "support", SUPPORT_KINDS, SUPPORT_PARAMS, bad)
        return out
    if cat == "magic":
        _effect(card.get("magic"), "magic", MAGIC_KINDS, MAGIC_PARAMS, bad)
        return out
    _choice(card.get("attr"), ATTRS, "attr", bad, f"must be one of {', '.join(ATTRS)}")
    for key in ("atk", "dur"):
        _int(card.get(key), *CREATURE_NUMBERS[key], key, bad)
    mana = card.get("mana")
    if not isinstance(mana, dict):
        bad("mana", f"must map icons ({', '.join(MANA_KEYS)}) to counts", "required" if mana is None else "not_object")
    else:
        for k, n in mana.items():
            if k not in MANA_KEYS:
                bad("mana", f"must map icons ({', '.join(MANA_KEYS)}) to counts", "av_mana_icon", value=_shown(k))
            else:
                _int(n, *MANA_RANGE, f"mana.{k}", bad)
    kws = card.get("keywords", [])
    if not isinstance(kws, list):
        bad("keywords", f"each must be one of {', '.join(KEYWORDS)}", "not_list")
    else:
        for k in kws:
            _choice(k, KEYWORDS, "keywords", bad, f"each must be one of {', '.join(KEYWORDS)}")
    if "target_minus" in card:
        _int(card["target_minus"], *CREATURE_NUMBERS["target_minus"], "target_minus", bad)
    if "battle" in card:
        b = card["battle"]
        why = "needs atk, dur and when (invade/defend/any)"
        if not isinstance(b, dict):
            bad("battle", why, "not_object")
        else:
            _choice(b.get("when"), WHENS, "battle.when", bad, why)
            for key in b:
                if key not in ("atk", "dur", "when"):
                    bad(f"battle.{key}", why, "unknown_param", name=_shown(key), known=["when", "atk", "dur"])
            _int(b.get("atk", 0), *BATTLE_RANGE, "battle.atk", bad)
            _int(b.get("dur", 0), *BATTLE_RANGE, "battle.dur", bad)
    if "on_summon" in card:
        _timed(card["on_summon"], "on_summon", ON_SUMMON, bad)
    if "support" in card:
        _effect(card["support"], "support", SUPPORT_KINDS, SUPPORT_PARAMS, bad)
    for tf, allowed in TIMINGS.items():
        if tf in card:
            _timed(card[tf], tf, allowed, bad)
    if "ninja" in card and card["ninja"] is not True:
        bad("ninja", "must be true when present", "av_ninja")
    return out


def validate_card(card: Any, file: str, index: int = 0) -> dict:
    """Check one card definition; return it (unchanged) or raise its first CardDataError."""
    found = card_problems(card, file, index)
    if found:
        raise found[0]
    return card
