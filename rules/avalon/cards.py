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

import json
import re
from typing import Any, Callable, Iterable

from rules.card_errors import CardDataError as _CardDataError
from rules.card_errors import collect_into

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
    from rules.avalon.decks import normalise
    from rules.avalon.decks import problems as deck_rules
    from rules.avalon.editions import check

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
