"""Art of War card data: the schema, validation, the deck rules and deck codes (pure; no I/O).

``rules/art_of_war/files.py`` reads the JSON files and calls :func:`build_cardset`.

A deck spec is ``{"king": "king_iron", "units": {"soldier": 4, "archer": 4, ...}}``: exactly one
KING and 20 basic units (rulebook: 「KING」カード1枚+5種類のカードを20枚選び合計21で1デッキ).

>>> cs = build_cardset([("t", {"units": BASIC_FOR_DOCTEST, "kings": [KING_FOR_DOCTEST]})])
>>> spec = {"king": "king_x", "units": {"soldier": 20}}
>>> validate_deck(cs, spec)
[]
>>> decode_deck(encode_deck(cs, spec), cs) == normalise_deck(spec)
True
"""
from __future__ import annotations

import json
import re
from typing import Any, Iterable

from rules.contract import en_text
from rules.deck_rules import read as read_rules
from rules.card_errors import CardDataError as _CardDataError
from rules.card_errors import collect_into
from rules.editions import PerEdition, add_patch, edition_number, number_error, upto

BASIC_IDS = ("soldier", "archer", "priest", "guardian", "wizard")
CODES = ("s", "a", "p", "g", "w")
CODE_OF = dict(zip(BASIC_IDS, CODES))
ID_OF = dict(zip(CODES, BASIC_IDS))
SUPPORTS = {"s": "boost", "a": "shoot", "p": "relocate", "g": "cancel", "w": "negate"}
DECK_UNITS = 20
CODE_PREFIX = "aow1"


class CardDataError(_CardDataError):
    """A problem in a card file, naming the file, the card and the field (``key``/``params``: the
    same in the catalog, ``cardcheck.<key>``)."""

    def __init__(self, file: str, card: str | None, field: str | None, problem: str, /,
                 *, key: str | None = None, **params: Any) -> None:
        super().__init__(file, card, field, problem, key=key, **params)
        where = file + (f", card {card!r}" if card else "") + (f", field {field!r}" if field else "")
        self.args = (f"{where}: {problem}",)

    def __str__(self) -> str:
        return self.args[0]


ID_RULE = {"en": "lowercase letters, digits and _, starting with a letter (2–31)",
           "ja": "英小文字で始まる英小文字・数字・_（2〜31文字）"}


def _names(obj: Any, file: str, card: str, field: str) -> dict:
    if not (isinstance(obj, dict) and isinstance(obj.get("en"), str) and isinstance(obj.get("ja"), str)
            and obj["en"].strip() and obj["ja"].strip()):
        raise CardDataError(file, card, field, 'must be {"en": text, "ja": text}, both non-empty', key="lang_object")
    return {"en": obj["en"], "ja": obj["ja"]}


def _card(entry: Any, file: str, king: bool, index: int = 0) -> dict:
    if not isinstance(entry, dict):
        raise CardDataError(file, f"#{index + 1}", None, "a card must be a JSON object", key="not_object")
    cid = entry.get("id")
    if not isinstance(cid, str) or not re.fullmatch(r"[a-z][a-z0-9_]{1,30}", cid):
        raise CardDataError(file, str(cid) if isinstance(cid, str) and cid else f"#{index + 1}", "id",
                            "must be lowercase letters, digits and _", key="id_format", value=str(cid)[:40],
                            rule=ID_RULE)
    allowed = {"id", "name", "range", "attack", "defence", "text"} | (set() if king else {"code", "support"})
    for key in entry:
        if key not in allowed:
            raise CardDataError(file, cid, key, f"unknown field; allowed: {', '.join(sorted(allowed))}",
                                key="unknown_field", allowed=sorted(allowed))
    rng = entry.get("range")
    if not isinstance(rng, list) or not rng:
        raise CardDataError(file, cid, "range", "must be a non-empty list of [forward, sideways]", key="aow_range")
    offsets = []
    for off in rng:
        if (not isinstance(off, list) or len(off) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in off)
                or not 1 <= off[0] <= 3 or not -2 <= off[1] <= 2):
            raise CardDataError(file, cid, "range", f"{off!r} is not [forward 1..3, sideways -2..2]",
                                key="aow_offset", offset=json.dumps(off)[:30])
        if off in offsets:
            raise CardDataError(file, cid, "range", f"{off!r} is listed twice", key="aow_offset_twice",
                                offset=json.dumps(off))
        offsets.append(list(off))
    attack = entry.get("attack")
    if not ((isinstance(attack, int) and not isinstance(attack, bool) and 0 <= attack <= 9) or attack == "hand"):
        raise CardDataError(file, cid, "attack", 'must be a whole number 0..9 or "hand"', key="aow_attack",
                            value=str(attack)[:20])
    dfc = entry.get("defence")
    if (not isinstance(dfc, list) or len(dfc) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 9 for v in dfc)):
        raise CardDataError(file, cid, "defence", "must be [upright, sideways], whole numbers 1..9",
                            key="aow_defence", value=json.dumps(dfc)[:30])
    card = {"id": cid, "kind": "king" if king else "unit",
            "name": _names(entry.get("name"), file, cid, "name"),
            "text": _names(entry.get("text"), file, cid, "text"),
            "range": offsets, "attack": attack, "defence": list(dfc)}
    if not king:
        if cid not in CODE_OF:
            raise CardDataError(file, cid, "id", f"basic units are exactly {', '.join(BASIC_IDS)}",
                                key="aow_basic_ids", ids=list(BASIC_IDS))
        if entry.get("code") != CODE_OF[cid]:
            raise CardDataError(file, cid, "code", f"must be {CODE_OF[cid]!r}", key="aow_fixed", value=CODE_OF[cid])
        if entry.get("support") != SUPPORTS[CODE_OF[cid]]:
            raise CardDataError(file, cid, "support", f"must be {SUPPORTS[CODE_OF[cid]]!r}", key="aow_fixed",
                                value=SUPPORTS[CODE_OF[cid]])
        card["code"] = CODE_OF[cid]
        card["support"] = SUPPORTS[CODE_OF[cid]]
    else:
        card["code"] = "k"
        card["support"] = "any"
    return card


class CardSet:
    """Validated basic units, KINGs (file order) and ready-made decks."""

    def __init__(self, units: dict[str, dict], kings: dict[str, dict], decks: dict[str, dict],
                 patches: dict[int, dict] | None = None) -> None:
        self.units = units            # id -> card (the five basic units)
        self.kings = kings            # id -> card
        self.decks = decks            # id -> {"name": {...}, "spec": spec}
        # rules edition -> the changes it makes: {"units"/"kings": {id: {field: value}},
        # "decks": {id: {"king", "units"}}} (the "editions" key of a card file)
        self.patches = patches or {}
        self.at = PerEdition(self._at)

    def _at(self, edition: int) -> "CardSet":
        """The card set as it stands in rules ``edition`` (``at``, kept per edition): the files'
        cards with every patch of an edition up to ``edition`` applied, oldest first (a match
        keeps its edition's numbers; ``rules/editions.py``)."""
        def step(sets: tuple[dict, dict, dict], _ed: int, patch: dict) -> tuple[dict, dict, dict]:
            units, kings, decks = sets
            for key, table in (("units", units), ("kings", kings)):
                for cid, fields in patch.get(key, {}).items():
                    table[cid].update(json.loads(json.dumps(fields)))
            for did, spec in patch.get("decks", {}).items():
                decks[did]["spec"] = json.loads(json.dumps(spec))
            return sets

        fresh = json.loads(json.dumps([self.units, self.kings, self.decks]))
        return CardSet(*upto(tuple(fresh), self.patches, edition, step))

    def card(self, cid: str) -> dict:
        return self.units.get(cid) or self.kings[cid]

    def __contains__(self, cid: object) -> bool:
        return cid in self.units or cid in self.kings


def build_cardset(sources: Iterable[tuple[str, Any]], *, problems: list | None = None) -> CardSet | None:
    """Validate ``[(file label, parsed JSON), ...]`` into a :class:`CardSet`.

    Raises :class:`CardDataError` naming the file, the card and the field of the first problem;
    with ``problems`` (a list) every problem is appended there instead, card by card and deck by
    deck (a card with a problem is left out, a deck naming it is not blamed for it), and the
    result is None when there was any.
    """
    def report(err: CardDataError) -> None:
        collect_into(problems, err)

    units: dict[str, dict] = {}
    kings: dict[str, dict] = {}
    failed: set[str] = set()               # cards left out for a problem of their own
    raw_decks: list[tuple[str, int, Any]] = []
    raw_patches: list[tuple[str, str, Any]] = []
    top = ("format", "comment", "units", "kings", "decks", "editions")
    for file, data in sources:
        if not isinstance(data, dict):
            report(CardDataError(file, None, None, 'a card file must be a JSON object with "units", "kings" and/or "decks"',
                                 key="json_object"))
            continue
        for key in data:
            if key not in top:
                report(CardDataError(file, None, key, "unknown top-level key; allowed: " + ", ".join(top),
                                     key="unknown_key", allowed=list(top)))
        if "format" in data and data["format"] != "art_of_war/1":
            report(CardDataError(file, None, "format", 'must be "art_of_war/1"', key="format",
                                 value=str(data["format"])[:30], expected="art_of_war/1"))
        for key, king in (("units", False), ("kings", True)):
            entries = data.get(key, [])
            if not isinstance(entries, list):
                report(CardDataError(file, None, key, "must be a list of cards", key="not_list"))
                continue
            for i, entry in enumerate(entries):
                try:
                    card = _card(entry, file, king, i)
                except CardDataError as err:
                    report(err)
                    if isinstance(entry, dict) and isinstance(entry.get("id"), str):
                        failed.add(entry["id"])
                    continue
                if card["id"] in units or card["id"] in kings:
                    report(CardDataError(file, card["id"], "id", "is defined twice", key="defined_twice",
                                         other=card["id"]))
                    continue
                (kings if king else units)[card["id"]] = card
        decks = data.get("decks", [])
        if not isinstance(decks, list):
            report(CardDataError(file, None, "decks", "must be a list of decks", key="not_list"))
        else:
            raw_decks += [(file, i, d) for i, d in enumerate(decks)]
        eds = data.get("editions", {})
        if not isinstance(eds, dict):
            report(CardDataError(file, None, "editions", 'must be {"<edition>": {"units", "kings", "decks"}}',
                                 key="not_object"))
        else:
            raw_patches += [(file, k, v) for k, v in eds.items()]
    missing = [u for u in BASIC_IDS if u not in units and u not in failed]
    if missing:
        report(CardDataError("", None, "units", f"missing basic units: {', '.join(missing)}",
                             key="aow_missing_units", ids=missing))
    if not kings and not any(c not in units for c in failed):
        report(CardDataError("", None, "kings", "needs at least one KING", key="aow_no_king"))
    units = {u: units[u] for u in BASIC_IDS if u in units}
    cs = CardSet(units, kings, {})
    for file, i, d in raw_decks:
        if not isinstance(d, dict) or not isinstance(d.get("id"), str) or not re.fullmatch(r"[a-z][a-z0-9_]{1,30}", d["id"]):
            report(CardDataError(file, f"deck #{i + 1}", "id", "a deck needs an id", key="id_format",
                                 value=str(d.get("id") if isinstance(d, dict) else d)[:40], rule=ID_RULE))
            continue
        did = d["id"]
        label = f"deck {did!r}"
        bad = False
        for key in d:
            if key not in ("id", "name", "king", "units"):
                report(CardDataError(file, label, key, "unknown deck field; allowed: id, name, king, units",
                                     key="unknown_field", allowed=["id", "name", "king", "units"]))
                bad = True
        try:
            name = _names(d.get("name"), file, label, "name")
        except CardDataError as err:
            report(err)
            bad = True
        spec = {"king": d.get("king"), "units": d.get("units")}
        named = [spec["king"]] + (list(spec["units"]) if isinstance(spec["units"], dict) else [])
        if any(isinstance(c, str) and c in failed for c in named):
            continue                   # its card's own problem is reported; the deck is not blamed
        found = validate_deck(cs, spec)
        for p in found:
            report(CardDataError(file, label, "king" if "king" in p["key"] else "units",
                                 "illegal deck: " + p["text"], key=p["key"], **p["params"]))
        if found or bad:
            continue
        if did in cs.decks:
            report(CardDataError(file, label, "id", "deck defined twice", key="defined_twice", other=did))
            continue
        cs.decks[did] = {"name": name, "spec": normalise_deck(spec)}
    for file, key, patch in raw_patches:
        try:
            _patch(cs, file, key, patch)
        except CardDataError as err:
            report(err)
    if problems:
        return None
    return cs


PATCH_FIELDS = ("range", "attack", "defence", "text")


def _patch(cs: CardSet, file: str, key: str, patch: Any) -> None:
    """Validate one edition's changes (``"editions": {"3": {...}}`` in a card file) into
    ``cs.patches``: card fields (range, attack, defence, text) of known cards, and whole decks."""
    where = f"editions.{key}"
    ed = edition_number(key, 2)
    if ed is None:
        raise CardDataError(file, None, where, number_error(2))
    if not isinstance(patch, dict):
        raise CardDataError(file, None, where, 'must be an object with "units", "kings" and/or "decks"')
    out: dict[str, dict] = {}
    for part, value in patch.items():
        if part not in ("units", "kings", "decks"):
            raise CardDataError(file, None, f"{where}.{part}", "unknown key; allowed: units, kings, decks")
        if not isinstance(value, dict):
            raise CardDataError(file, None, f"{where}.{part}", "must be an object keyed by id")
        out[part] = {}
        for cid, fields in value.items():
            if part == "decks":
                if cid not in cs.decks:
                    raise CardDataError(file, cid, where, "no such ready-made deck")
                if not isinstance(fields, dict) or set(fields) - {"king", "units"}:
                    raise CardDataError(file, cid, where, "a deck patch is {\"king\", \"units\"}")
                spec = {**cs.decks[cid]["spec"], **fields}
                problems = validate_deck(cs, spec)
                if problems:
                    raise CardDataError(file, cid, where, "illegal deck: " + "; ".join(p["text"] for p in problems))
                out[part][cid] = normalise_deck(spec)
                continue
            table = cs.units if part == "units" else cs.kings
            if cid not in table:
                raise CardDataError(file, cid, where, f"no such {'basic unit' if part == 'units' else 'KING'}")
            if not isinstance(fields, dict) or not fields:
                raise CardDataError(file, cid, where, f"must be an object with some of: {', '.join(PATCH_FIELDS)}")
            for f in fields:
                if f not in PATCH_FIELDS:
                    raise CardDataError(file, cid, f"{where}.{f}", f"cannot be patched; allowed: {', '.join(PATCH_FIELDS)}")
            base = table[cid]
            entry = {"id": cid, "name": base["name"], "range": base["range"], "attack": base["attack"],
                     "defence": base["defence"], "text": base["text"], **fields}
            if part == "units":
                entry["code"], entry["support"] = base["code"], base["support"]
            card = _card(entry, file, part == "kings")
            out[part][cid] = {f: card[f] for f in fields}
    add_patch(cs.patches, ed, out, lambda why: CardDataError(file, None, where, why))


# --------------------------------------------------------------------------- rules text

SIDE_WORDS = {-2: ("2 left", "左2列"), -1: ("left", "左"), 0: ("centre", "正面"), 1: ("right", "右"),
              2: ("2 right", "右2列")}


def range_words(offsets: list) -> dict:
    """A range in words: ``[[1, -1], [1, 0], [2, 0]]`` → ``1 ahead: left, centre; 2 ahead: centre``.

    >>> range_words([[1, -1], [1, 0], [2, 0]])["ja"]
    '1マス先（左・正面）、2マス先（正面）'
    """
    rows: dict[int, list[int]] = {}
    for f, s in offsets:
        rows.setdefault(f, []).append(s)
    en = "; ".join(f"{f} ahead: " + ", ".join(SIDE_WORDS[s][0] for s in sorted(rows[f])) for f in sorted(rows))
    ja = "、".join(f"{f}マス先（" + "・".join(SIDE_WORDS[s][1] for s in sorted(rows[f])) + "）" for f in sorted(rows))
    return {"en": en, "ja": ja}


def king_text(card: dict) -> dict:
    """A KING's rules text, generated from its numbers (what a server's set shows players: a card
    cannot say one thing and do another).

    >>> king_text({"range": [[1, 0]], "attack": 2, "defence": [3, 2]})["en"]
    'Attack 2, defence 3 upright / 2 sideways. Attacks 1 ahead: centre. Rear support: declare any rear support.'
    """
    atk, (up, side), rng = card["attack"], card["defence"], range_words(card["range"])
    atk_en = "your hand size" if atk == "hand" else str(atk)
    atk_ja = "手札の枚数" if atk == "hand" else str(atk)
    return {"en": f"Attack {atk_en}, defence {up} upright / {side} sideways. Attacks {rng['en']}. "
                  "Rear support: declare any rear support.",
            "ja": f"攻撃力{atk_ja}、防御力 縦{up}／横{side}。攻撃範囲：{rng['ja']}。"
                  "後方支援：使用したい後方支援を宣言して発動できる。"}


# --------------------------------------------------------------------------- deck rules

DECK_EN = {
    "art_of_war.deck.not_a_deck": "A deck names one KING and counts of basic units (king, units).",
    "art_of_war.deck.no_king": "A deck needs exactly one KING; choose one of: {kings}.",
    "art_of_war.deck.unknown_king": "\"{card}\" is not a KING; KINGs: {kings}.",
    "art_of_war.deck.unknown_card": "\"{card}\" is not a basic unit; basic units: {units}.",
    "art_of_war.deck.bad_count": "The count of {card} must be a whole number ≥ 0, not {count}.",
    "art_of_war.deck.total": "A deck has exactly 20 basic units besides its KING; this one has {total}.",
    "art_of_war.deck.total_limited": "A deck of this limited match has exactly {size} basic units besides its KING; this one has {total}.",
    "art_of_war.deck.rules_shape": "The limited deck rules cannot be read ({value}): they give the number of basic units.",
    "art_of_war.deck.rules_size": "A limited deck holds from {low} to {high} basic units besides its KING (the rulebook's {high} down to half of it), not {size}.",
    "art_of_war.deck.rules_no_copies": "A deck holds one KING and its basic units in any mix: limited deck rules declare no copy limit for Art of War.",
}


def _problem(key: str, **params: Any) -> dict:
    return {"key": key, "params": params, "text": en_text(DECK_EN, key, params)}


def check_rules(rules: Any) -> tuple[dict | None, dict | None]:
    """Limited deck rules (``{"size"}``, :mod:`rules.deck_rules`) checked for this game: 10–20
    basic units, no copy limit.  ``(rules, None)`` or ``(None, the one problem)``
    (``art_of_war.deck.rules_<reason>``)."""
    checked, problem = read_rules(rules, DECK_UNITS, copies=False)
    if problem is not None:
        return None, _problem(f"art_of_war.deck.rules_{problem[0]}", **problem[1])
    return checked, None


def validate_deck(cs: CardSet, spec: Any, rules: Any = None) -> list[dict]:
    """Every broken deck rule of ``spec`` as ``{"key", "params", "text"}``; [] = legal.

    ``rules`` (limited play, :mod:`rules.deck_rules`): ``{"size": n}`` — exactly ``n`` basic units
    besides the one KING, still in any mix.  Bad rules are the one problem reported."""
    size = None
    if rules is not None:
        limited, bad = check_rules(rules)
        if bad is not None:
            return [bad]
        size = limited["size"]
    if not isinstance(spec, dict):
        return [_problem("art_of_war.deck.not_a_deck")]
    out = []
    kings = ", ".join(cs.kings)
    king = spec.get("king")
    if king is None or king == "":
        out.append(_problem("art_of_war.deck.no_king", kings=kings))
    elif not isinstance(king, str) or king not in cs.kings:
        out.append(_problem("art_of_war.deck.unknown_king", card=str(king), kings=kings))
    units = spec.get("units")
    if units is None:
        units = {}
    if not isinstance(units, dict):
        return out + [_problem("art_of_war.deck.not_a_deck")]
    total = 0
    for cid, n in units.items():
        if cid not in cs.units:
            out.append(_problem("art_of_war.deck.unknown_card", card=str(cid), units=", ".join(BASIC_IDS)))
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            out.append(_problem("art_of_war.deck.bad_count", card=str(cid), count=str(n)))
        elif cid in cs.units:
            total += n
    if size is None and total != DECK_UNITS:
        out.append(_problem("art_of_war.deck.total", total=total))
    elif size is not None and total != size:
        out.append(_problem("art_of_war.deck.total_limited", total=total, size=size))
    return out


def normalise_deck(spec: dict) -> dict:
    """The canonical form: basic units in rulebook order, zero counts dropped."""
    units = spec.get("units") or {}
    return {"king": spec.get("king"),
            "units": {u: units[u] for u in BASIC_IDS if isinstance(units.get(u), int) and units.get(u)}}


def encode_deck(cs: CardSet, spec: dict) -> str:
    """``aow1-<king>-s.a.p.g.w`` e.g. ``aow1-king_iron-4.3.3.6.4``."""
    spec = normalise_deck(spec)
    counts = ".".join(str(spec["units"].get(u, 0)) for u in BASIC_IDS)
    return f"{CODE_PREFIX}-{spec['king']}-{counts}"


def decode_deck(code: Any, cs: CardSet) -> dict:
    if not isinstance(code, str):
        raise ValueError(f"a deck code is text like {CODE_PREFIX}-king_iron-4.4.4.4.4, not {code!r}")
    m = re.fullmatch(rf"\s*{CODE_PREFIX}-([a-z][a-z0-9_]*)-(\d{{1,2}})\.(\d{{1,2}})\.(\d{{1,2}})\.(\d{{1,2}})\.(\d{{1,2}})\s*",
                     code.strip().lower())
    if not m:
        raise ValueError(f"{code!r} is not an Art of War deck code; it looks like "
                         f"{CODE_PREFIX}-king_iron-4.4.4.4.4 (KING, then SOLDIER.ARCHER.PRIEST.GUARDIAN.WIZARD counts)")
    king = m.group(1)
    if king not in cs.kings:
        raise ValueError(f"deck code {code!r} names an unknown KING {king!r}; KINGs: {', '.join(cs.kings)}")
    units = {u: int(m.group(i + 2)) for i, u in enumerate(BASIC_IDS)}
    return normalise_deck({"king": king, "units": units})


class Decks:
    """The ``game.decks`` interface of ``docs/engine.md``."""

    def __init__(self, cs: CardSet) -> None:
        self.cs = cs

    def cards(self) -> dict:
        out = {}
        for cid, c in list(self.cs.kings.items()) + list(self.cs.units.items()):
            out[cid] = {"name": dict(c["name"]), "category": "KING" if c["kind"] == "king" else "unit",
                        "text": dict(c["text"]), "range": [list(o) for o in c["range"]],
                        "attack": c["attack"], "defence": list(c["defence"]), "code": c["code"]}
        return out

    def ready(self) -> dict:
        return {did: {"name": dict(d["name"]), "spec": json.loads(json.dumps(d["spec"]))}
                for did, d in self.cs.decks.items()}

    def empty(self) -> dict:
        return {"king": None, "units": {}}

    def _spec(self, spec: Any) -> dict:
        if not isinstance(spec, dict):
            return self.empty()
        units = spec.get("units") if isinstance(spec.get("units"), dict) else {}
        return {"king": spec.get("king"), "units": dict(units)}

    def add(self, spec: dict, card_id: str, n: int = 1) -> dict:
        new = self._spec(spec)
        if card_id in self.cs.kings:
            new["king"] = card_id                     # a deck has one KING: adding one replaces it
            return new
        if card_id not in self.cs.units:
            raise ValueError(f"unknown card {card_id!r}; cards: {', '.join(list(self.cs.kings) + list(BASIC_IDS))}")
        if not isinstance(n, int) or n < 1:
            raise ValueError(f"n must be a whole number ≥ 1, not {n!r}")
        new["units"][card_id] = int(new["units"].get(card_id, 0)) + n
        return new

    def remove(self, spec: dict, card_id: str, n: int = 1) -> dict:
        new = self._spec(spec)
        if card_id in self.cs.kings and new.get("king") == card_id:
            new["king"] = None
            return new
        have = new["units"].get(card_id, 0)
        if not isinstance(have, int) or have <= 0:
            raise ValueError(f"{card_id!r} is not in the deck")
        if not isinstance(n, int) or n < 1:
            raise ValueError(f"n must be a whole number ≥ 1, not {n!r}")
        if have - n > 0:
            new["units"][card_id] = have - n
        else:
            del new["units"][card_id]
        return new

    def validate(self, spec: Any, rules: Any = None) -> list[dict]:
        """Every broken rule; ``rules``: limited deck rules (see :func:`validate_deck`)."""
        return validate_deck(self.cs, spec, rules)

    def encode(self, spec: dict) -> str:
        return encode_deck(self.cs, spec)

    def decode(self, code: str) -> dict:
        return decode_deck(code, self.cs)

    def describe(self, spec: dict) -> dict:
        spec = self._spec(spec)
        king = spec.get("king")
        units = [[u, spec["units"][u]] for u in BASIC_IDS if isinstance(spec["units"].get(u), int) and spec["units"][u] > 0]
        units += [[u, n] for u, n in spec["units"].items() if u not in BASIC_IDS]
        total = sum(n for _, n in units if isinstance(n, int)) + (1 if king else 0)
        return {"sections": [{"title": {"en": "KING", "ja": "キング"}, "cards": [[king, 1]] if king else []},
                             {"title": {"en": "Basic units", "ja": "基本ユニット"}, "cards": units}],
                "total": total}


BASIC_FOR_DOCTEST = [
    {"id": u, "code": c, "support": SUPPORTS[c], "name": {"en": u, "ja": u}, "text": {"en": u, "ja": u},
     "range": [[1, 0]], "attack": 1, "defence": [2, 1]} for u, c in zip(BASIC_IDS, CODES)]
KING_FOR_DOCTEST = {"id": "king_x", "name": {"en": "X", "ja": "X"}, "text": {"en": "x", "ja": "x"},
                    "range": [[1, 0]], "attack": 2, "defence": [3, 2]}
