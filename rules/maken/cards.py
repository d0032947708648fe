"""Project Maken card schema: validation of card data (already parsed JSON) into a :class:`CardSet`.

Nothing here reads files: ``data/cards/maken_loader.py`` reads ``data/cards/maken/*.json`` and
hands the parsed objects to :meth:`CardSet.from_sources`.  Errors name the file, the card and the
field.  Card format (one object per file)::

    {"format": 1,
     "characters": [{"id", "name": {"en","ja"}, "text": {"en","ja"}, "draw_limit": 3}],
     "cards": [{"id", "character", "kind": "attack", "name": {"en","ja"},
                "speed": 4, "reach": 2 | [front, back], "attack": 3, "guard": 2,
                "posture": "stand"|"crouch"|"air", "unguardable": ["stand", ...],
                "cost": 0, "gain": 0, "gc": null|"only"|"able",
                "bet": [effect], "hit": [effect], "icon": "dust"|"gauge"|"hand"|"stamina"},
               {"id", "character", "kind": "support", "name", "timing": "before"|"after",
                "effect": [effect], "icon"}],
     "decks": [{"id", "name": {"en","ja"}, "character", "cards": {card_id: copies}}]}

    effect = {"do": "draw"|"gauge"|"power"|"recover", "n": 1..5, "if_gauge": 0..10 (bet only)}

The normalised card is a plain JSON dict (``front``/``back`` instead of ``reach``, every field
present, and a generated ``text`` in both languages), so match states copy it verbatim.  A
character's ``text`` is its own words (optional: without it, the rules text generated from its
draw limit, :func:`character_text`, stands in).

Every error is a :class:`CardDataError` (a :class:`rules.card_errors.CardDataError`) with a
catalog key (``cardcheck.<key>``, ``data/i18n/<lang>/cardcheck*.json``; a deck rule: its
``maken.deck.*`` key) and its params.  ``from_sources(sources)`` raises the first; with
``problems=[...]`` it reports every problem there, card by card and deck by deck, and returns None:

>>> bad = {"characters": [{"id": "hana", "name": {"en": "Hana", "ja": "ハナ"}, "draw_limit": 9}],
...        "cards": [{"id": "hn01", "kind": "attack", "character": "hana", "name": {"en": "A", "ja": "A"},
...                   "speed": 3, "reach": 1, "attack": 2, "guard": 1, "posture": "sit", "icon": "dust"}]}
>>> found = []
>>> CardSet.from_sources([("new.json", bad)], problems=found) is None
True
>>> [(e.card, e.field, e.key) for e in found]
[('hana', 'draw_limit', 'int_range'), ('hn01', 'posture', 'choice')]
"""
from __future__ import annotations

import re
from typing import Any, Iterable

from rules.card_errors import CardDataError as _CardDataError
from rules.card_errors import collect_into
from rules.editions import PerEdition, add_patch

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


def _deck_shape(ctx: _Ctx, label: str, raw: dict) -> list[CardDataError]:
    """What makes a deck unreadable (before its rules are checked), every one."""
    out = []
    for key in raw:
        if key not in DECK_KEYS:
            out.append(ctx.fail(label, key, "unknown deck field; allowed: id, name, character, cards",
                                key="unknown_field", allowed=list(DECK_KEYS[:4])))
    ch = raw.get("character")
    if ch is not None and not isinstance(ch, str):
        out.append(ctx.fail(label, "character", f"the deck's character must be a card id, not {ch!r}",
                            key="mk_deck_character", value=_shown(ch)))
    cards = raw.get("cards", {})
    if isinstance(cards, list):
        if not all(isinstance(c, str) for c in cards):
            out.append(ctx.fail(label, "cards", "the deck's cards must be card ids", key="mk_deck_cards"))
    elif isinstance(cards, dict):
        for cid, n in cards.items():
            if isinstance(n, bool) or not isinstance(n, int) or n < 1:
                out.append(ctx.fail(label, f"cards.{cid}", f"copies of {cid!r} must be a whole number ≥ 1, not {n!r}",
                                    key="mk_copies", card=str(cid)[:30], value=_shown(n)))
    else:
        out.append(ctx.fail(label, "cards", "the deck's cards must be an object card id -> copies",
                            key="mk_deck_cards"))
    return out


def _deck_field(problem: dict, character: Any) -> str:
    """The field of a deck a broken deck rule is about: its character, or its cards."""
    if problem["key"] in ("maken.deck.no_character", "maken.deck.character_not_character"):
        return "character"
    if problem["key"] == "maken.deck.unknown_card" and problem["params"].get("card") == character:
        return "character"
    return "cards"


class CardSet:
    """Validated characters, cards and ready-made decks (plain dicts, read-only by convention)."""

    def __init__(self, characters: dict, cards: dict, decks: dict, patches: dict | None = None) -> None:
        self.characters = characters
        self.cards = cards
        self.decks = decks
        self.patches = patches or {}      # rules edition -> its changes (rules/maken/editions.py)
        self._at = PerEdition(self._build_at)

    def at(self, edition: int) -> "CardSet":
        """The card set as it stands in rules ``edition`` (kept per edition): the files' cards with
        every patch of an edition up to ``edition`` applied, oldest first (a match keeps its
        edition's numbers)."""
        return self._at(edition)

    def _build_at(self, edition: int) -> "CardSet":
        from rules.maken.editions import at

        return at(self, edition)

    def __repr__(self) -> str:
        return f"<maken CardSet {len(self.characters)} characters, {len(self.cards)} cards, {len(self.decks)} decks>"

    def pool(self, character: str) -> list[str]:
        return [cid for cid, c in self.cards.items() if c["character"] == character]

    @classmethod
    def from_sources(cls, sources: Iterable[tuple[str, Any]], *, problems: list | None = None) -> "CardSet | None":
        """``sources``: (file label, parsed JSON) pairs.  Raises CardDataError for the first problem;
        with ``problems`` (a list) every problem is appended there instead, card by card and deck
        by deck (a card or deck with a problem is left out, a deck naming a card left out is not
        blamed for it), and the result is None when there was any.

        The characters of every file are read first, then the cards, then the decks, so a card may
        name a character of another file whatever the order of the files (a zip's)."""
        from rules.maken.decks import deck_problems, normalise_spec
        from rules.maken.editions import parse_patch

        start = len(problems) if problems is not None else 0

        def report(err: CardDataError) -> None:
            collect_into(problems, err)

        characters: dict = {}
        cards: dict = {}
        failed: set[str] = set()          # characters and cards left out for a problem of their own
        names: dict[str, dict[str, str]] = {"en": {}, "ja": {}}      # a name (folded) -> the id it names
        raw: dict[str, list] = {"characters": [], "cards": [], "decks": []}
        raw_patches = []
        for file, data in sources:
            ctx = _Ctx(file)
            if not isinstance(data, dict):
                report(ctx.fail(None, None, "a card file must be a JSON object", key="json_object"))
                continue
            for key in data:
                if key not in TOP_KEYS:
                    report(ctx.fail(None, key, "unknown top-level key; allowed: " + ", ".join(TOP_KEYS),
                                    key="unknown_key", allowed=list(TOP_KEYS)))
            if data.get("format", 1) != 1:
                report(ctx.fail(None, "format", "only format 1 is known", key="format",
                                value=str(data["format"])[:30], expected="1"))
            for section in raw:
                value = data.get(section, [])
                if not isinstance(value, list):
                    report(ctx.fail(None, section, f"must be a list of {section}", key="not_list"))
                    continue
                raw[section] += [(ctx, i, entry) for i, entry in enumerate(value)]
            eds = data.get("editions", {})
            if not isinstance(eds, dict):
                report(ctx.fail(None, "editions", 'must be {"<edition>": {"cards", "decks", "rules"}}',
                                key="not_object"))
            else:
                raw_patches += [(file, k, v) for k, v in eds.items()]

        def named(ctx: _Ctx, entry: dict) -> bool:
            """A name already another card's is refused: "at most 3 copies of a name" must mean one card."""
            for lang in ("en", "ja"):
                other = names[lang].get(entry["name"][lang].strip().casefold())
                if other is not None and other != entry["id"]:
                    report(ctx.fail(entry["id"], f"name.{lang}", f"{entry['name'][lang]!r} is already the name of {other!r}",
                                    key="name_taken", name=entry["name"][lang], other=other))
                    return False
            for lang in ("en", "ja"):
                names[lang][entry["name"][lang].strip().casefold()] = entry["id"]
            return True

        for ctx, i, entry in raw["characters"]:
            try:
                ch = normalise_character(ctx, entry, i)
            except CardDataError as err:
                report(err)
                failed.add(_label(entry, i))
                continue
            if ch["id"] in characters:
                report(ctx.fail(ch["id"], "id", "defined twice", key="defined_twice", other=ch["id"]))
                continue
            if named(ctx, ch):
                characters[ch["id"]] = ch
            else:
                failed.add(ch["id"])
        for ctx, i, entry in raw["cards"]:
            try:
                card = normalise_card(ctx, entry, characters, i, failed)
            except CardDataError as err:
                report(err)
                failed.add(_label(entry, i))
                continue
            if card["id"] in cards or card["id"] in characters:
                report(ctx.fail(card["id"], "id", "defined twice", key="defined_twice", other=card["id"]))
                continue
            if card["character"] not in characters:     # its character's own problem is reported
                failed.add(card["id"])
                continue
            if named(ctx, card):
                cards[card["id"]] = card
            else:
                failed.add(card["id"])
        cs = cls(characters, cards, {})
        for ctx, i, entry in raw["decks"]:
            if not isinstance(entry, dict) or not isinstance(entry.get("id"), str) or not _ID_RE.match(entry["id"]):
                shown = entry.get("id") if isinstance(entry, dict) else entry
                report(ctx.fail(_label(entry, i, deck=True), "id", "each deck needs an id (a–z, 0–9, _)",
                                key="required" if shown is None else "id_format", value=str(shown)[:40], rule=ID_RULE))
                continue
            did = entry["id"]
            label = f"deck {did!r}"
            bad = _deck_shape(ctx, label, entry)
            try:
                name = _names(ctx, label, entry.get("name"))
            except CardDataError as err:
                bad.append(err)
            for err in bad:
                report(err)
            if bad:
                continue
            spec = normalise_spec({"character": entry.get("character"), "cards": entry.get("cards", {})})
            if spec["character"] in failed or any(c in failed for c in spec["cards"]):
                continue                   # its card's own problem is reported; the deck is not blamed
            found = deck_problems(cs, spec)
            for p in found:
                report(keyed(ctx.file, label, _deck_field(p, spec["character"]), "illegal ready-made deck: " + p["text"],
                             p["key"], p["params"]))
            if found:
                continue
            if did in cs.decks:
                report(ctx.fail(label, "id", "deck defined twice", key="defined_twice", other=did))
                continue
            cs.decks[did] = {"name": name, "spec": spec}
        # oldest first: a patch builds on the cards as the editions before it left them
        raw_patches.sort(key=lambda p: int(p[1]) if str(p[1]).isdigit() else 0)
        for file, key, patch in raw_patches:
            try:
                ed, changes = parse_patch(cs, file, key, patch)
                add_patch(cs.patches, ed, changes, lambda why, file=file, key=key: CardDataError(
                    file, None, f"editions.{key}", why, key="mk_edition_twice", edition=str(key)))
            except CardDataError as err:
                if err.card not in failed:      # a patch of a card left out: its own problem is reported
                    report(err)
        if problems is not None and len(problems) > start:
            return None
        return cs


__all__ = ["CardSet", "CardDataError", "card_text", "character_text", "normalise_card", "normalise_character",
           "POSTURES", "ICONS", "TIMINGS", "BET_EFFECTS", "HIT_EFFECTS", "SUPPORT_EFFECTS", "NUMBERS", "ID_RULE"]
