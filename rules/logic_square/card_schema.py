"""Battle Logic Square card definitions: the effect vocabulary, the data classes and the reading
of one card entry (every error a :class:`CardDataError` naming the file, the card and the field).

The set of cards (:class:`rules.logic_square.cards.CardSet`) and the ready-made decks are read
in ``rules/logic_square/cards.py``, which re-exports everything here.

>>> read_card({"id": "jab", "category": "Ac", "colour": "white", "name": {"ja": "ジャブ", "en": "Jab"},
...            "text": {"ja": "40ダメージ。", "en": "40 damage."}, "damage": 40, "range": ["x", "o"]},
...           "demo.json", 0, set()).action.range
((1, 0),)
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Iterable

from rules.card_errors import CardDataError as _CardDataError

CATEGORIES = ("AVI", "Ac", "Sc", "Br", "IT")
RESOURCE_CATEGORIES = ("Ac", "Sc", "Br")
COLOURS = ("white", "green", "blue", "red")
LANGS = ("ja", "en")
FORMAT = 1
MAX_ABILITIES = 9
MAX_OFFSET = 4

# effect vocabulary: name -> {param: (kind, default, low, high)}; kind "int" or a tuple of choices
_WHO = ("self", "opponent")
EFFECTS: dict[str, dict[str, tuple]] = {
    "damage": {"amount": ("int", None, 1, 1000)},
    "heal": {"amount": ("int", None, 1, 1000)},
    "draw": {"count": ("int", None, 1, 5), "who": (_WHO, "self")},
    "trash": {"count": ("int", None, 1, 5), "who": (_WHO, "opponent"), "from": (("hand", "deck"), "hand")},
    "push": {"distance": ("int", None, 1, 4)},
    "pull": {"distance": ("int", None, 1, 4)},
    "move_self": {},
    "ap": {"amount": ("int", None, -3, 3), "who": (_WHO, "self")},
    "shield": {"amount": ("int", None, 1, 1000)},
    "lose_life": {"amount": ("int", None, 1, 1000)},
}
EFFECT_IFS = ("hit_avi", "awakened")
# passive modifiers of an awakening or of a placed card ("aura")
MODS: dict[str, dict[str, tuple]] = {
    "damage_bonus": {"amount": ("int", None, 1, 500)},
    "damage_reduction": {"amount": ("int", None, 1, 500)},
    "ap_bonus": {"amount": ("int", None, 1, 3)},
    "draw_bonus": {"amount": ("int", None, 1, 3)},
    "ability_discount": {"amount": ("int", None, 1, 3)},
    "heal_start": {"amount": ("int", None, 1, 500)},
    "turret": {"damage": ("int", None, 1, 500), "range": ("range", None)},     # placed cards only
}
BREAKS: dict[str, dict[str, tuple]] = {
    "in_range": {},
    "category": {"category": (("Ac", "Sc", "Br", "IT"), None)},
    "colour": {"colour": (COLOURS, None)},
    "cb": {},
    "damage_at_least": {"amount": ("int", None, 1, 1000)},
    "life_at_most": {"amount": ("int", None, 1, 500)},
    "places": {},
    "type": {"type": ("type", None)},
}
BUILD_KEYS = ("count", "category", "colour", "type", "cb", "card")
MAX_BUILD = 3

_ID_RE = re.compile(r"^[a-z][a-z0-9_]{1,11}$")
_SQUARE_RE = re.compile(r"^[a-e][1-5]$")

CARD_FIELDS = {
    "AVI": {"id", "category", "name", "text", "types", "abilities", "awakening"},
    "Ac": {"id", "category", "name", "text", "types", "colour", "cb", "damage", "durability", "range",
           "effects", "aura"},
    "IT": {"id", "category", "name", "text", "types", "colour", "cb", "damage", "durability", "range",
           "effects", "aura", "build"},
}
CARD_FIELDS["Sc"] = CARD_FIELDS["Ac"]
CARD_FIELDS["Br"] = CARD_FIELDS["Ac"] | {"break"}
ABILITY_FIELDS = ("cost", "name", "text", "damage", "range", "effects")


class CardDataError(_CardDataError):
    """Bad card data.  ``file``, ``card`` (card id, ``"deck <id>"``, ``"#3"``/``"deck #3"`` for an
    entry without a usable id — its 1-based number in its list — or None) and ``field`` (a JSON
    path) name the spot; ``message`` in English; ``key``/``params`` the same in the catalog."""


ID_RULE = {"en": "2–12 lowercase letters, digits or _, starting with a letter, not a square name like c3",
           "ja": "英小文字で始まる2〜12文字の英小文字・数字・_（c3のようなマス名は不可）"}
TYPE_RULE = {"en": "2–12 lowercase letters, digits or _, starting with a letter",
             "ja": "英小文字で始まる2〜12文字の英小文字・数字・_"}


# --------------------------------------------------------------------------- data classes

@dataclass(frozen=True)
class Action:
    """What a card (or an AVI ability) does when it resolves.

    ``range``: (forward, sideways) offsets from the user's AVI, as the user faces the opponent
    (sideways +1 = the user's right); ``(0, 0)`` means the user's own AVI is in range too.
    ``target``: ``"enemy"`` (an opponent's AVI or placed card in range), ``"empty"`` (an empty
    square in range: the card is placed there), ``"move"`` (an empty square in range the user's
    AVI may stand on: it moves there) or ``"none"`` (no range, no target).
    """

    damage: int
    range: tuple[tuple[int, int], ...]
    durability: int
    effects: tuple[dict, ...]
    aura: tuple[dict, ...]
    target: str

    @property
    def self_in_range(self) -> bool:
        return (0, 0) in self.range

    @property
    def places(self) -> bool:
        return self.durability > 0


@dataclass(frozen=True)
class Ability:
    cost: int
    name: dict
    text: dict
    action: Action


@dataclass(frozen=True)
class Card:
    id: str
    category: str
    name: dict
    text: dict
    types: tuple[str, ...] = ()
    colour: str | None = None
    cb: bool = False
    action: Action | None = None
    breaks: tuple[dict, ...] = ()
    build: tuple[dict, ...] = ()
    abilities: tuple[Ability, ...] = ()
    awakening: dict | None = None
    raw: dict = field(default_factory=dict, compare=False)

    @property
    def is_resource(self) -> bool:
        return self.category in RESOURCE_CATEGORIES


@dataclass(frozen=True)
class Deck:
    """A ready-made deck (or any deck spec after normalisation)."""

    id: str
    name: dict
    avi: str
    resources: tuple[str, ...]            # 30 ids, sorted, repeats for copies
    it: tuple[str, ...]                   # 5 ids, in the given order

    def to_spec(self) -> dict:
        return {"avi": self.avi, "resources": list(self.resources), "it": list(self.it)}


# --------------------------------------------------------------------------- helpers

class _Ctx:
    """Where we are, for error messages."""

    def __init__(self, file: str, card: str | None = None) -> None:
        self.file, self.card = file, card

    def fail(self, fld: str | None, message: str, key: str | None = None, /, **params: Any) -> CardDataError:
        return CardDataError(self.file, self.card, fld, message, key=key, **params)


def _int(ctx: _Ctx, fld: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ctx.fail(fld, f"must be a whole number, not {value!r}", "whole_number", value=_shown(value))
    if not low <= value <= high:
        raise ctx.fail(fld, f"must be between {low} and {high}, not {value}", "int_range",
                       low=low, high=high, value=value)
    return value


def _shown(value: Any) -> str:
    """A bad value as a message param: short JSON (plain text, never a Python repr)."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = str(value)
    return text[:40]


def _lang(ctx: _Ctx, fld: str, value: Any) -> dict:
    if not isinstance(value, dict):
        raise ctx.fail(fld, 'must be an object with "ja" and "en" texts', "lang_object")
    extra = set(value) - set(LANGS)
    if extra:
        raise ctx.fail(f"{fld}.{sorted(map(str, extra))[0]}", 'unknown language; use "ja" and "en"',
                       "unknown_key", allowed=list(LANGS))
    out = {}
    for lang in LANGS:
        text = value.get(lang)
        if not isinstance(text, str) or not text.strip():
            raise ctx.fail(f"{fld}.{lang}", "is missing or empty (every card needs a Japanese and an English text)",
                           "lang_object")
        out[lang] = text.strip()
    return out


def parse_range(value: Any, ctx: _Ctx, fld: str) -> tuple[tuple[int, int], ...]:
    """A range: a list of ``[forward, sideways]`` pairs, or a grid of strings.

    In a grid the top row is the farthest forward; ``o`` marks the user's AVI, ``@`` the user's
    AVI when it is in range itself, ``x`` a square in range, ``.`` (or a space) one that is not.
    """
    if value is None:
        return ()
    if not isinstance(value, list):
        raise ctx.fail(fld, "must be a list of [forward, sideways] pairs or a grid of strings", "ls_range")
    offsets: set[tuple[int, int]] = set()
    if value and all(isinstance(row, str) for row in value):
        marks = [(r, c) for r, row in enumerate(value) for c, ch in enumerate(row) if ch in "o@"]
        if len(marks) != 1:
            raise ctx.fail(fld, "a range grid needs exactly one 'o' (or '@') for the user's AVI", "ls_range_avi",
                           count=len(marks))
        ur, uc = marks[0]
        for r, row in enumerate(value):
            for c, ch in enumerate(row):
                if ch == "x" or ch == "@":
                    offsets.add((ur - r, c - uc))
                elif ch not in ". o":
                    raise ctx.fail(f"{fld}[{r}]", f"unknown grid character {ch!r}; use x . o @", "ls_range_char",
                                   char=ch)
    else:
        for i, pair in enumerate(value):
            if (not isinstance(pair, list) or len(pair) != 2
                    or any(isinstance(v, bool) or not isinstance(v, int) for v in pair)):
                raise ctx.fail(f"{fld}[{i}]", f"must be a [forward, sideways] pair of whole numbers, not {pair!r}",
                               "ls_range_pair", value=_shown(pair))
            if pair and tuple(pair) in offsets:
                raise ctx.fail(f"{fld}[{i}]", f"offset {pair} is listed twice", "ls_range_twice",
                               offset=_shown(pair))
            offsets.add((pair[0], pair[1]))
    for f, s in sorted(offsets):
        if abs(f) > MAX_OFFSET or abs(s) > MAX_OFFSET:
            raise ctx.fail(fld, f"offset ({f}, {s}) is off any 5×5 board (each part must be within ±{MAX_OFFSET})",
                           "ls_range_off", offset=f"[{f}, {s}]", limit=MAX_OFFSET)
    return tuple(sorted(offsets, key=lambda o: (-o[0], o[1])))


def _params(ctx: _Ctx, fld: str, obj: dict, spec: dict[str, tuple], known_types: set[str],
            ignore: Iterable[str]) -> dict:
    out: dict[str, Any] = {}
    for key in obj:
        if key not in spec and key not in ignore:
            allowed = ", ".join(list(ignore) + list(spec)) or "nothing else"
            raise ctx.fail(f"{fld}.{key}", f"unknown parameter; allowed: {allowed}", "unknown_param",
                           name=_word(key), known=[k for k in list(ignore) + list(spec) if k not in ("do", "mod", "when")])
    for key, (kind, default, *bounds) in spec.items():
        if key not in obj:
            if default is None:
                raise ctx.fail(f"{fld}.{key}", "is required", "required")
            out[key] = default
            continue
        value = obj[key]
        if kind == "int":
            out[key] = _int(ctx, f"{fld}.{key}", value, bounds[0], bounds[1])
        elif kind == "range":
            rng = parse_range(value, ctx, f"{fld}.{key}")
            if not rng or (0, 0) in rng:
                raise ctx.fail(f"{fld}.{key}", "must name at least one square and not the card's own square",
                               "ls_turret_range")
            out[key] = [list(o) for o in rng]
        elif kind == "type":
            if not isinstance(value, str) or value not in known_types:
                raise ctx.fail(f"{fld}.{key}", f"unknown type {value!r}; define it in a \"types\" table",
                               "ls_unknown_type", type=_word(value))
            out[key] = value
        else:
            if value not in kind:
                raise ctx.fail(f"{fld}.{key}", f"must be one of {', '.join(map(str, kind))}, not {value!r}", "choice",
                               value=_word(value), choices=[str(k) for k in kind])
            out[key] = value
    return out


def _word(value: Any) -> str:
    return value[:30] if isinstance(value, str) else _shown(value)


UNKNOWN_NAME = {"do": "unknown_effect", "mod": "ls_unknown_mod", "when": "ls_unknown_break"}


def _named(ctx: _Ctx, fld: str, obj: Any, table: dict, tag: str, known_types: set[str],
           extra: Iterable[str] = ()) -> dict:
    if not isinstance(obj, dict):
        raise ctx.fail(fld, f"must be an object with a {tag!r} key", "not_object")
    name = obj.get(tag)
    if not isinstance(name, str) or name not in table:
        raise ctx.fail(f"{fld}.{tag}", f"must be one of {', '.join(table)}, not {name!r}", UNKNOWN_NAME[tag],
                       name=_word(name), known=list(table))
    out = {tag: name}
    out.update(_params(ctx, fld, obj, table[name], known_types, [tag, *extra]))
    return out


def _action(ctx: _Ctx, entry: dict, prefix: str, known_types: set[str], *, allow_place: bool) -> Action:
    p = prefix
    damage = _int(ctx, p + "damage", entry.get("damage", 0), 0, 1000)
    durability = 0
    if "durability" in entry:
        if not allow_place:
            raise ctx.fail(p + "durability", "only a card can be placed", "ls_no_place")
        durability = _int(ctx, p + "durability", entry["durability"], 1, 1000)
        if damage:
            raise ctx.fail(p + "durability", "a card shows either hit damage or durability, not both",
                           "ls_damage_or_durability")
    rng = parse_range(entry.get("range"), ctx, p + "range")
    effects_in = entry.get("effects", [])
    if not isinstance(effects_in, list):
        raise ctx.fail(p + "effects", "must be a list of effect objects", "not_list")
    effects = []
    for i, eff in enumerate(effects_in):
        e = _named(ctx, f"{p}effects[{i}]", eff, EFFECTS, "do", known_types, extra=["if"])
        if e["do"] == "ap" and e["amount"] == 0:
            raise ctx.fail(f"{p}effects[{i}].amount", "must not be 0", "ls_ap_zero")
        if "if" in eff:
            if eff["if"] not in EFFECT_IFS:
                raise ctx.fail(f"{p}effects[{i}].if", f"must be one of {', '.join(EFFECT_IFS)}, not {eff['if']!r}",
                               "choice", value=_word(eff["if"]), choices=list(EFFECT_IFS))
            e["if"] = eff["if"]
        effects.append(e)
    dos = [e["do"] for e in effects]
    if "move_self" in dos:
        target = "move"
        if dos.count("move_self") > 1:
            raise ctx.fail(p + "effects", "move_self may appear only once", "ls_move_once")
        if damage or durability or "push" in dos or "pull" in dos:
            raise ctx.fail(p + "effects", "a card that moves its user's AVI cannot also hit, place, push or pull",
                           "ls_move_alone")
    elif durability:
        target = "empty"
        if "push" in dos or "pull" in dos:
            raise ctx.fail(p + "effects", "a placed card cannot push or pull", "ls_place_push")
    elif rng:
        target = "enemy"
    else:
        target = "none"
        if damage:
            raise ctx.fail(p + "range", "a card with hit damage needs a hit range", "ls_damage_range")
        if "push" in dos or "pull" in dos:
            raise ctx.fail(p + "range", "push and pull act on the target and need a hit range", "ls_push_range")
    if target in ("empty", "move"):
        if not rng:
            raise ctx.fail(p + "range", "a card that places or moves needs a range of squares to choose from",
                           "ls_target_range")
        if (0, 0) in rng:
            raise ctx.fail(p + "range", "the user's own square cannot be a place to put a card or move to",
                           "ls_own_square")
    for e in effects:
        if e.get("if") == "hit_avi" and not damage:
            raise ctx.fail(p + "effects", "'if': 'hit_avi' needs hit damage on the card", "ls_hit_avi")
    aura_in = entry.get("aura", [])
    if aura_in and not durability:
        raise ctx.fail(p + "aura", "only a placed card (with durability) has an aura", "ls_aura_placed")
    if not isinstance(aura_in, list):
        raise ctx.fail(p + "aura", "must be a list of modifier objects", "not_list")
    aura = tuple(_named(ctx, f"{p}aura[{i}]", m, MODS, "mod", known_types) for i, m in enumerate(aura_in))
    return Action(damage=damage, range=rng, durability=durability, effects=tuple(effects),
                  aura=aura, target=target)


def _action_raw(a: Action) -> dict:
    out: dict[str, Any] = {}
    if a.damage:
        out["damage"] = a.damage
    if a.durability:
        out["durability"] = a.durability
    if a.range:
        out["range"] = [list(o) for o in a.range]
    if a.effects:
        out["effects"] = [dict(e) for e in a.effects]
    if a.aura:
        out["aura"] = [dict(m) for m in a.aura]
    return out


def read_card(entry: Any, file: str, index: int, known_types: set[str]) -> Card:
    """One card entry of a file (``index``: its place in the file's ``cards``, from 0) validated
    into a :class:`Card`; CardDataError at its first problem.  ``known_types``: the type ids the
    card set defines."""
    return _card(entry, file, index, known_types)


def _card(entry: Any, file: str, index: int, known_types: set[str]) -> Card:
    ctx = _Ctx(file, None)
    if not isinstance(entry, dict):
        raise CardDataError(file, f"#{index + 1}", None, "a card must be a JSON object", key="not_object")
    cid = entry.get("id")
    if not isinstance(cid, str) or not _ID_RE.match(cid) or _SQUARE_RE.match(cid):
        raise CardDataError(file, cid if isinstance(cid, str) and cid else f"#{index + 1}", "id",
                            "must be 2–12 lowercase letters, digits or _, starting with a letter, "
                            f"and not a square name like c3; got {cid!r}", key="id_format",
                            value=_word(cid), rule=ID_RULE)
    ctx.card = cid
    cat = entry.get("category")
    if not isinstance(cat, str) or cat not in CATEGORIES:
        raise ctx.fail("category", f"must be one of {', '.join(CATEGORIES)}, not {cat!r}", "choice",
                       value=_word(cat), choices=list(CATEGORIES))
    allowed = CARD_FIELDS[cat]
    for key in entry:
        if key not in allowed:
            hint = ""
            if key == "break":
                hint = " (only a Br card has a break condition)"
            elif key == "build":
                hint = " (only an IT card has a build condition)"
            elif key in ("abilities", "awakening"):
                hint = " (only an AVI has abilities and an awakening)"
            elif cat == "AVI":
                hint = " (an AVI has id, category, name, text, types, abilities, awakening)"
            raise ctx.fail(key, f"is not a field of a {cat} card{hint}", "unknown_field", allowed=sorted(allowed))
    name = _lang(ctx, "name", entry.get("name"))
    text = _lang(ctx, "text", entry.get("text"))
    types_in = entry.get("types", [])
    if not isinstance(types_in, list) or len(types_in) > 2:
        raise ctx.fail("types", "must be a list of at most 2 type ids", "ls_types", most=2)
    for i, t in enumerate(types_in):
        if not isinstance(t, str) or t not in known_types:
            raise ctx.fail(f"types[{i}]", f"unknown type {t!r}; define it in a \"types\" table", "ls_unknown_type",
                           type=_word(t))
    if len(set(types_in)) != len(types_in):
        raise ctx.fail("types", "lists a type twice", "ls_types_twice")
    types = tuple(types_in)
    raw: dict[str, Any] = {"id": cid, "category": cat, "name": name, "text": text}
    if types:
        raw["types"] = list(types)

    if cat == "AVI":
        abil_in = entry.get("abilities", [])
        if not isinstance(abil_in, list) or not 1 <= len(abil_in) <= MAX_ABILITIES:
            raise ctx.fail("abilities", f"must be a list of 1 to {MAX_ABILITIES} abilities", "ls_abilities",
                           most=MAX_ABILITIES)
        abilities = []
        for i, ab in enumerate(abil_in):
            fld = f"abilities[{i}]"
            if not isinstance(ab, dict):
                raise ctx.fail(fld, "must be an object", "not_object")
            for key in ab:
                if key not in ABILITY_FIELDS:
                    raise ctx.fail(f"{fld}.{key}", "unknown field; allowed: " + ", ".join(ABILITY_FIELDS),
                                   "unknown_field", allowed=list(ABILITY_FIELDS))
            if "cost" not in ab:
                raise ctx.fail(f"{fld}.cost", "is required (the AP the ability costs)", "required")
            cost = _int(ctx, f"{fld}.cost", ab["cost"], 1, 6)
            act = _action(ctx, ab, fld + ".", known_types, allow_place=False)
            if any(e["do"] == "ap" and e["who"] == "self" and e["amount"] > 0 for e in act.effects):
                raise ctx.fail(f"{fld}.effects", "an AVI ability cannot gain AP for its user "
                               "(it could repeat forever and a turn must end)", "ls_ability_ap")
            abilities.append(Ability(cost=cost, name=_lang(ctx, f"{fld}.name", ab.get("name")),
                                     text=_lang(ctx, f"{fld}.text", ab.get("text")), action=act))
        raw["abilities"] = [dict({"cost": a.cost, "name": a.name, "text": a.text}, **_action_raw(a.action))
                            for a in abilities]
        awakening = None
        if "awakening" in entry:
            aw = entry["awakening"]
            if not isinstance(aw, dict):
                raise ctx.fail("awakening", "must be an object with life, mods and text", "not_object")
            for key in aw:
                if key not in ("life", "mods", "text"):
                    raise ctx.fail(f"awakening.{key}", "unknown field; allowed: life, mods, text", "unknown_field",
                                   allowed=["life", "mods", "text"])
            if "life" not in aw:
                raise ctx.fail("awakening.life", "is required (<覚醒 X>: on while life ≤ X)", "required")
            life = _int(ctx, "awakening.life", aw["life"], 1, 499)
            mods_in = aw.get("mods")
            if not isinstance(mods_in, list) or not mods_in:
                raise ctx.fail("awakening.mods", "must be a non-empty list of modifiers", "ls_mods")
            mods = []
            for i, m in enumerate(mods_in):
                mm = _named(ctx, f"awakening.mods[{i}]", m, MODS, "mod", known_types)
                if mm["mod"] == "turret":
                    raise ctx.fail(f"awakening.mods[{i}].mod", "turret is for placed cards only", "ls_turret_placed")
                mods.append(mm)
            awakening = {"life": life, "mods": mods, "text": _lang(ctx, "awakening.text", aw.get("text"))}
            raw["awakening"] = awakening
        return Card(id=cid, category=cat, name=name, text=text, types=types,
                    abilities=tuple(abilities), awakening=awakening, raw=raw)

    colour = entry.get("colour")
    if cat in RESOURCE_CATEGORIES or colour is not None:
        if not isinstance(colour, str) or colour not in COLOURS:
            raise ctx.fail("colour", f"must be one of {', '.join(COLOURS)}, not {colour!r}", "choice",
                           value=_word(colour), choices=list(COLOURS))
        raw["colour"] = colour
    cb = entry.get("cb", False)
    if not isinstance(cb, bool):
        raise ctx.fail("cb", f"must be true or false, not {cb!r}", "ls_bool", value=_word(cb))
    if cb:
        raw["cb"] = True
    action = _action(ctx, entry, "", known_types, allow_place=True)
    raw.update(_action_raw(action))
    breaks: tuple[dict, ...] = ()
    if cat == "Br":
        b_in = entry.get("break")
        if not isinstance(b_in, list) or not b_in:
            raise ctx.fail("break", "a Br card needs a break condition: a non-empty list of conditions (all must hold)",
                           "ls_break_missing")
        breaks = tuple(_named(ctx, f"break[{i}]", b, BREAKS, "when", known_types) for i, b in enumerate(b_in))
        raw["break"] = [dict(b) for b in breaks]
    build: tuple[dict, ...] = ()
    if cat == "IT":
        b_in = entry.get("build")
        if not isinstance(b_in, list) or not b_in:
            raise ctx.fail("build", "an IT card needs a build condition: a non-empty list of requirements",
                           "ls_build_missing")
        reqs = []
        total = 0
        for i, req in enumerate(b_in):
            fld = f"build[{i}]"
            if not isinstance(req, dict):
                raise ctx.fail(fld, "must be an object like {\"count\": 2, \"category\": \"Ac\"}", "not_object")
            r: dict[str, Any] = {}
            for key, value in req.items():
                if key not in BUILD_KEYS:
                    raise ctx.fail(f"{fld}.{key}", f"unknown requirement; allowed: {', '.join(BUILD_KEYS)}",
                                   "unknown_field", allowed=list(BUILD_KEYS))
                if key == "count":
                    r[key] = _int(ctx, f"{fld}.count", value, 1, MAX_BUILD)
                elif key == "category":
                    if not isinstance(value, str) or value not in RESOURCE_CATEGORIES:
                        raise ctx.fail(f"{fld}.category", f"must be one of Ac, Sc, Br, not {value!r}", "choice",
                                       value=_word(value), choices=list(RESOURCE_CATEGORIES))
                    r[key] = value
                elif key == "colour":
                    if not isinstance(value, str) or value not in COLOURS:
                        raise ctx.fail(f"{fld}.colour", f"must be one of {', '.join(COLOURS)}, not {value!r}",
                                       "choice", value=_word(value), choices=list(COLOURS))
                    r[key] = value
                elif key == "type":
                    if not isinstance(value, str) or value not in known_types:
                        raise ctx.fail(f"{fld}.type", f"unknown type {value!r}", "ls_unknown_type", type=_word(value))
                    r[key] = value
                elif key == "cb":
                    if not isinstance(value, bool):
                        raise ctx.fail(f"{fld}.cb", "must be true or false", "ls_bool", value=_word(value))
                    r[key] = value
                else:
                    if not isinstance(value, str) or not _ID_RE.match(value):
                        raise ctx.fail(f"{fld}.card", f"must be a card id, not {value!r}", "id_format",
                                       value=_word(value), rule=ID_RULE)
                    r[key] = value
            r.setdefault("count", 1)
            total += r["count"]
            reqs.append(r)
        if total > MAX_BUILD:
            raise ctx.fail("build", f"asks for {total} cards; at most {MAX_BUILD} in all", "ls_build_total",
                           count=total, limit=MAX_BUILD)
        build = tuple(reqs)
        raw["build"] = [dict(r) for r in build]
    return Card(id=cid, category=cat, name=name, text=text, types=types, colour=raw.get("colour"),
                cb=cb, action=action, breaks=breaks, build=build, raw=raw)
