"""Battle Logic Square card data: the schema, its validation and the :class:`CardSet`.

Card files are plain JSON (the format is documented in ``docs/cards.md``).  This module never
reads a file: the loader in ``data/cards`` reads them and hands the parsed JSON here as
``(source name, data)`` pairs; every error names the source, the card (or deck) and the field,
and carries a catalog key (``cardcheck.<key>``: the shared ``data/i18n/*/cardcheck.json`` or the
game's ``cardcheck_logic_square.json``; a deck rule its ``logic_square.deck.*`` key) with its params.
``CardSet.from_sources(sources, problems=[...])`` reports every problem into the list instead of
raising at the first (a server's card-set upload, ``data/card_sets/logic_square.py``).

>>> cs = CardSet.from_sources([("demo.json", {
...     "types": {"strike": {"ja": "ストライク", "en": "Strike"}},
...     "cards": [{"id": "jab", "category": "Ac", "colour": "white", "types": ["strike"],
...                "name": {"ja": "ジャブ", "en": "Jab"}, "text": {"ja": "40ダメージ。", "en": "40 damage."},
...                "damage": 40, "range": ["x", "o"]}]})])
>>> cs["jab"].action.range, cs["jab"].action.target
(((1, 0),), 'enemy')
>>> CardSet.from_sources([("bad.json", {"cards": [{"id": "jab", "category": "Xx"}]})])
Traceback (most recent call last):
...
rules.logic_square.cards.CardDataError: bad.json: card 'jab': field 'category': must be one of AVI, Ac, Sc, Br, IT, not 'Xx'
>>> found = []
>>> CardSet.from_sources([("bad.json", {"cards": [{"id": "jab", "category": "Xx"}, {"id": "J"}, 7]})],
...                      problems=found) is None
True
>>> [(e.card, e.field, e.key) for e in found]
[('jab', 'category', 'choice'), ('J', 'id', 'id_format'), ('#3', None, 'not_object')]
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Iterable

from rules.card_errors import CardDataError as _CardDataError
from rules.card_errors import collect_into
from rules.editions import PerEdition, add_patch

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


# --------------------------------------------------------------------------- the card set

class CardSet:
    """Validated cards, types and ready-made decks (read-only).

    ``cards``: id -> :class:`Card` in file order; ``types``: type id -> {"ja", "en"};
    ``decks``: deck id -> :class:`Deck` in file order; ``sources``: card/deck id -> source name.
    """

    def __init__(self, cards: dict[str, Card], types: dict[str, dict], decks: dict[str, Deck] | None = None,
                 sources: dict[str, str] | None = None) -> None:
        self.cards = cards
        self.types = types
        self.decks = decks or {}
        self.sources = sources or {}
        self._key: str | None = None
        self.raw_sources: list[tuple[str, Any]] = []     # the files read (for editions)
        self.patches: dict[int, dict] = {}               # rules edition -> its changes
        self._at = PerEdition(self._build_at)

    def at(self, edition: int) -> "CardSet":
        """The card set as it stands in rules ``edition``: the files' cards with every patch of
        an edition up to ``edition`` applied (rules/logic_square/editions.py), kept per edition."""
        if not any(ed <= edition for ed in self.patches):
            return self
        return self._at(edition)

    def _build_at(self, edition: int) -> "CardSet":
        from rules.logic_square.editions import patched_sources

        def fail(fld, message, key=None, **params):
            return CardDataError("editions", None, fld, message, key=key, **params)
        return CardSet.from_sources(patched_sources(self.raw_sources, self.patches, edition, fail))

    def __getitem__(self, cid: str) -> Card:
        return self.cards[cid]

    def __contains__(self, cid: object) -> bool:
        return cid in self.cards

    def __len__(self) -> int:
        return len(self.cards)

    def get(self, cid: str) -> Card | None:
        return self.cards.get(cid)

    def ids(self, category: str | None = None) -> list[str]:
        return [c for c, card in self.cards.items() if category is None or card.category == category]

    def to_json(self) -> dict:
        """The cards and the types they use, as canonical JSON (what a match state stores)."""
        return {"types": {t: dict(n) for t, n in self.types.items()},
                "cards": [self.cards[c].raw for c in self.cards]}

    def key(self) -> str:
        if self._key is None:
            self._key = json.dumps(self.to_json(), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return self._key

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        return f"<CardSet {len(self.cards)} cards, {len(self.decks)} decks>"

    def view_text(self, cid: str) -> str:
        """The definition of card ``cid`` as views show it, as JSON text (cached): the card's
        data plus ``types`` with their names, ``cost`` (AP to use it from hand: 1; Br 0, chain
        only; AVI null), ``target`` and ``cb``."""
        cache = self.__dict__.setdefault("_view_text", {})
        text = cache.get(cid)
        if text is None:
            card = self.cards[cid]
            v = json.loads(json.dumps(card.raw))
            v["types"] = [{"id": t, "ja": self.types[t]["ja"], "en": self.types[t]["en"]} for t in card.types]
            v["cost"] = 1 if card.category in ("Ac", "Sc", "IT") else 0 if card.category == "Br" else None
            if card.action is not None:
                v["target"] = card.action.target
            v.setdefault("cb", False)
            text = cache[cid] = json.dumps(v, ensure_ascii=False, separators=(",", ":"))
        return text

    def view(self, cid: str) -> dict:
        """The definition of one card as views show it (a fresh dict)."""
        return json.loads(self.view_text(cid))

    def views(self, ids: Iterable[str]) -> dict[str, dict]:
        """``{id: definition}`` for these cards, in the given order (fresh dicts)."""
        return json.loads("{" + ",".join(f'"{c}":{self.view_text(c)}' for c in ids) + "}")

    def subset(self, ids: Iterable[str]) -> "CardSet":
        """Only the given cards (in this set's order) and the types they use; no decks."""
        wanted = set(ids)
        cards = {c: card for c, card in self.cards.items() if c in wanted}
        missing = wanted - set(cards)
        if missing:
            raise KeyError(f"unknown card ids: {', '.join(sorted(missing))}")
        used: set[str] = set()
        for card in cards.values():
            used.update(card.types)
            for b in card.breaks:
                if "type" in b:
                    used.add(b["type"])
            for r in card.build:
                if "type" in r:
                    used.add(r["type"])
        types = {t: n for t, n in self.types.items() if t in used}
        return CardSet(cards, types)

    @classmethod
    def from_json(cls, data: dict, source: str = "<state>") -> "CardSet":
        return cls.from_sources([(source, data)], check_decks=False)

    @classmethod
    def from_sources(cls, sources: Iterable[tuple[str, Any]], *, check_decks: bool = True,
                     problems: list | None = None, left_out: Iterable[str] = ()) -> "CardSet | None":
        """Validate parsed card files ``[(source name, JSON data), ...]`` into one CardSet.

        Each file is an object with optional ``"format": 1``, ``"types"``, ``"cards"`` and
        ``"decks"``.  Raises :class:`CardDataError` naming the file, the card and the field of
        the first problem; with ``problems`` (a list) every problem is appended there instead,
        card by card and deck by deck — a card (or deck) with a problem is left out and the
        validation goes on; a deck naming a card left out for its own problem is not blamed for
        it — and the result is None when there was any.  ``left_out``: ids of cards an upload
        already left out for a problem of their own (a CSV row that could not be read), which
        the decks naming them are not blamed for either.
        """
        sources = list(sources)
        start = len(problems) if problems is not None else 0

        def report(err: CardDataError) -> None:
            collect_into(problems, err)

        types: dict[str, dict] = {}
        type_src: dict[str, str] = {}
        failed: set[str] = set(left_out)     # ids left out for a problem of their own
        top = ("format", "types", "cards", "decks", "comment", "editions")
        readable: list[tuple[str, dict]] = []
        for file, data in sources:
            ctx = _Ctx(file)
            if not isinstance(data, dict):
                report(ctx.fail(None, "a card file must be a JSON object with \"cards\", \"types\" and/or \"decks\"",
                                "json_object"))
                continue
            readable.append((file, data))
            for key in data:
                if key not in top:
                    report(ctx.fail(key, "unknown top-level key; allowed: format, types, cards, decks, comment, editions",
                                    "unknown_key", allowed=list(top)))
            if data.get("format", FORMAT) != FORMAT:
                report(ctx.fail("format", f"unsupported format {data.get('format')!r}; this bot reads format {FORMAT}",
                                "format", value=_word(data.get("format")), expected=f'"format": {FORMAT}'))
            t_in = data.get("types", {})
            if not isinstance(t_in, dict):
                report(ctx.fail("types", "must be an object: type id -> {\"ja\": ..., \"en\": ...}", "not_object"))
                continue
            for tid, names in t_in.items():
                try:
                    if not isinstance(tid, str) or not _ID_RE.match(tid):
                        raise ctx.fail(f"types.{tid}", "a type id is 2–12 lowercase letters, digits or _", "id_format",
                                       value=_word(tid), rule=TYPE_RULE)
                    names = _lang(ctx, f"types.{tid}", names)
                    if tid in types and types[tid] != names:
                        raise ctx.fail(f"types.{tid}", f"is already defined differently in {type_src[tid]}",
                                       "ls_type_twice", other=type_src[tid])
                except CardDataError as err:
                    report(err)
                    failed.add(str(tid))
                    continue
                types[tid] = names
                type_src[tid] = file
        known = set(types) | failed          # a card naming a type with a problem of its own is not blamed
        cards: dict[str, Card] = {}
        src: dict[str, str] = {}
        for file, data in readable:
            c_in = data.get("cards", [])
            if not isinstance(c_in, list):
                report(CardDataError(file, None, "cards", "must be a list of card objects", key="not_list"))
                continue
            for i, entry in enumerate(c_in):
                try:
                    card = _card(entry, file, i, known)
                    if card.id in cards:
                        raise CardDataError(file, card.id, "id", f"is already used by a card in {src[card.id]}",
                                            key="defined_twice", other=src[card.id])
                except CardDataError as err:
                    report(err)
                    if isinstance(entry, dict) and isinstance(entry.get("id"), str) and entry["id"] not in cards:
                        failed.add(entry["id"])
                    continue
                cards[card.id] = card
                src[card.id] = file
        names: dict[tuple[str, str], str] = {}
        for cid, card in list(cards.items()):
            try:
                for lang in LANGS:
                    k = (lang, card.name[lang].casefold())
                    if k in names:
                        raise CardDataError(src[cid], cid, f"name.{lang}",
                                            f"{card.name[lang]!r} is already the name of card {names[k]!r}",
                                            key="name_taken", name=card.name[lang], other=names[k])
                for i, req in enumerate(card.build):
                    if "card" in req and req["card"] not in failed:
                        other = cards.get(req["card"])
                        if other is None or not other.is_resource:
                            raise CardDataError(src[cid], cid, f"build[{i}].card",
                                                f"{req['card']!r} is not a resource card (Ac, Sc or Br)",
                                                key="ls_build_card", id=req["card"])
            except CardDataError as err:
                report(err)
                failed.add(cid)
                del cards[cid]
                continue
            for lang in LANGS:
                names[(lang, card.name[lang].casefold())] = cid
        cs = cls(cards, types, {}, src)
        decks: dict[str, Deck] = {}
        for file, data in readable:
            d_in = data.get("decks", [])
            if not isinstance(d_in, list):
                report(CardDataError(file, None, "decks", "must be a list of deck objects", key="not_list"))
                continue
            for i, entry in enumerate(d_in):
                try:
                    deck = _deck(entry, file, i, cs, check=check_decks, failed=failed, problems=problems)
                    if deck is None:
                        continue
                    if deck.id in decks or deck.id in cards:
                        raise CardDataError(file, f"deck {deck.id!r}", "id", "is already used", key="defined_twice",
                                            other=src.get(deck.id, file))
                except CardDataError as err:
                    report(err)
                    continue
                decks[deck.id] = deck
                src[deck.id] = file
        cs.decks = decks
        from rules.logic_square.editions import read_patches
        for file, data in readable:
            if "editions" in data:
                try:
                    for ed, patch in read_patches(file, data["editions"], _Ctx(file).fail).items():
                        add_patch(cs.patches, ed, patch, lambda why, ed=ed, file=file: CardDataError(
                            file, None, f"editions.{ed}", why, key="ls_edition_twice", edition=ed))
                except CardDataError as err:
                    report(err)
        if problems is not None and len(problems) > start:
            return None
        if cs.patches:
            cs.raw_sources = sources
            for ed in cs.patches:                  # every edition's cards must be valid too
                try:
                    cs.at(ed)
                except CardDataError as err:
                    report(err)
        if problems is not None and len(problems) > start:
            return None
        return cs


def _deck(entry: Any, file: str, index: int, cs: CardSet, *, check: bool, failed: set[str] | None = None,
          problems: list | None = None) -> Deck | None:
    """One ready-made deck.  Raising: CardDataError at its first problem (an illegal deck: every
    broken deck rule in one message).  With ``problems``: every broken deck rule is reported
    there on its own (its ``logic_square.deck.*`` key and params) and the result is None; so is
    a deck naming a card in ``failed`` (left out for its own problem: not blamed again)."""
    from rules.logic_square.decks import normalise_deck, validate_deck

    if not isinstance(entry, dict):
        raise CardDataError(file, f"deck #{index + 1}", None, "a deck must be a JSON object", key="not_object")
    did = entry.get("id")
    label = f"deck {did!r}" if isinstance(did, str) and did else f"deck #{index + 1}"
    if not isinstance(did, str) or not _ID_RE.match(did):
        raise CardDataError(file, label, "id", "must be 2–12 lowercase letters, digits or _, starting with a letter",
                            key="id_format", value=_word(did), rule=TYPE_RULE)
    for key in entry:
        if key not in DECK_FIELDS:
            raise CardDataError(file, label, key, "unknown field; allowed: id, name, avi, resources, it",
                                key="unknown_field", allowed=list(DECK_FIELDS))
    ctx = _Ctx(file, label)
    name = _lang(ctx, "name", entry.get("name"))
    _deck_shape(ctx, entry)
    try:
        spec = normalise_deck({k: entry.get(k) for k in ("avi", "resources", "it")})
    except ValueError as exc:
        raise CardDataError(file, label, "resources", str(exc)) from None
    left_out = [c for c in [spec["avi"], *spec["resources"], *spec["it"]] if c and c in (failed or ())]
    if check:
        # a card it names that was left out for its own problem: the deck is not blamed for it
        found = [p for p in validate_deck(cs, spec) if p.params.get("card") not in left_out]
        if found and problems is not None:
            for p in found:
                collect_into(problems, keyed(CardDataError(file, label, p.field, "the deck is not legal: " + p.message),
                                             p.key, _deck_params(p.params)))
            return None
        if left_out:
            return None
        if found:
            raise keyed(CardDataError(file, label, found[0].field,
                                      "the deck is not legal: " + "; ".join(p.message for p in found)),
                        found[0].key, _deck_params(found[0].params))
    return Deck(id=did, name=name, avi=spec["avi"], resources=tuple(spec["resources"]), it=tuple(spec["it"]))


DECK_FIELDS = ("id", "name", "avi", "resources", "it")


def keyed(err: CardDataError, key: str, params: dict) -> CardDataError:
    """``err`` with a catalog key and params (params may be named like the error's own fields:
    a deck rule's ``card``)."""
    err.key, err.params = key, dict(params)
    return err
DECK_PARTS = {"avi": {"en": "the AVI", "ja": "《AVI》"}, "resources": {"en": "the resource deck", "ja": "リソースデッキ"},
              "it": {"en": "the IT deck", "ja": "《IT》カードデッキ"}}


def _deck_params(params: dict) -> dict:
    """A deck rule's params for a card file's reader: the part of the deck in both languages."""
    out = dict(params)
    if out.get("part") in DECK_PARTS:
        out["part"] = dict(DECK_PARTS[out["part"]])
    return out


def _deck_shape(ctx: _Ctx, entry: dict) -> None:
    """The fields of a deck entry have the shape :func:`normalise_deck` reads (keyed errors)."""
    avi = entry.get("avi")
    if avi is not None and not isinstance(avi, str):
        raise ctx.fail("avi", f"the deck's avi must be a card id, not {avi!r}", "ls_deck_id", value=_word(avi))
    res = entry.get("resources")
    if isinstance(res, dict):
        for cid, n in res.items():
            if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 30:
                raise ctx.fail(f"resources.{cid}", f"copies of {cid!r} must be a whole number from 1 to 30, not {n!r}",
                               "int_range", low=1, high=30, value=_word(n))
    elif not isinstance(res, list) or not all(isinstance(c, str) for c in res):
        raise ctx.fail("resources", "the deck's resources must be a list of card ids (or an object id -> copies)",
                       "ls_deck_resources")
    it = entry.get("it")
    if not isinstance(it, list) or not all(isinstance(c, str) for c in it):
        raise ctx.fail("it", "the deck's it must be a list of IT card ids", "ls_deck_it")


__all__ = ["CardSet", "Card", "Action", "Ability", "Deck", "CardDataError", "parse_range", "read_card",
           "CATEGORIES", "RESOURCE_CATEGORIES", "COLOURS", "EFFECTS", "MODS", "BREAKS", "BUILD_KEYS"]
