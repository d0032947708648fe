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
present, and a generated ``text`` in both languages), so match states copy it verbatim.
"""
from __future__ import annotations

import re
from typing import Any, Iterable

from rules.editions import PerEdition, add_patch

POSTURES = ("stand", "crouch", "air")
ICONS = ("dust", "gauge", "hand", "stamina")
GC_KINDS = (None, "only", "able")
TIMINGS = ("before", "after")
BET_EFFECTS = ("draw", "gauge")
HIT_EFFECTS = ("draw", "gauge", "power")
SUPPORT_EFFECTS = ("draw", "gauge", "recover")
_ID_RE = re.compile(r"^[a-z][a-z0-9_]{1,15}$")

POSTURE_JA = {"stand": "立ち", "crouch": "屈み", "air": "空中"}
POSTURE_EN = {"stand": "standing", "crouch": "crouching", "air": "air"}
ICON_EN = {"dust": "dust", "gauge": "gauge", "hand": "hand", "stamina": "bottom of stamina"}
ICON_JA = {"dust": "ダスト", "gauge": "ゲージ", "hand": "手札", "stamina": "スタミナの下"}


class CardDataError(ValueError):
    """A problem in the card data: names the file, the card (or deck) and the field."""

    def __init__(self, file: str, card: str | None, field: str | None, problem: str) -> None:
        self.file, self.card, self.field, self.problem = file, card, field, problem
        where = file + (f", card {card!r}" if card else "") + (f", field {field!r}" if field else "")
        super().__init__(f"{where}: {problem}")


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


class _Ctx:
    def __init__(self, file: str) -> None:
        self.file = file

    def fail(self, card: str | None, field: str | None, problem: str) -> CardDataError:
        return CardDataError(self.file, card, field, problem)


def _names(ctx: _Ctx, cid: str | None, value: Any, field: str = "name") -> dict:
    if not isinstance(value, dict) or set(value) != {"en", "ja"} or \
            not all(isinstance(v, str) and v.strip() for v in value.values()):
        raise ctx.fail(cid, field, 'must be {"en": text, "ja": text}, both non-empty')
    return {"en": value["en"], "ja": value["ja"]}


def _int(ctx: _Ctx, cid: str, field: str, value: Any, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ctx.fail(cid, field, f"must be a whole number from {lo} to {hi}, not {value!r}")
    return value


def _effects(ctx: _Ctx, cid: str, field: str, value: Any, allowed: tuple, cond: bool) -> list:
    if not isinstance(value, list):
        raise ctx.fail(cid, field, "must be a list of effects")
    out = []
    for i, eff in enumerate(value):
        f = f"{field}[{i}]"
        if not isinstance(eff, dict):
            raise ctx.fail(cid, f, "an effect is an object {\"do\", \"n\"}")
        extra = set(eff) - {"do", "n", "if_gauge"}
        if extra:
            raise ctx.fail(cid, f, f"unknown key {sorted(extra)[0]!r}")
        if eff.get("do") not in allowed:
            raise ctx.fail(cid, f + ".do", f"must be one of {', '.join(allowed)}, not {eff.get('do')!r}")
        e = {"do": eff["do"], "n": _int(ctx, cid, f + ".n", eff.get("n"), 1, 5)}
        if "if_gauge" in eff:
            if not cond:
                raise ctx.fail(cid, f + ".if_gauge", "a condition is allowed on bet effects only")
            e["if_gauge"] = _int(ctx, cid, f + ".if_gauge", eff["if_gauge"], 0, 10)
        out.append(e)
    return out


_ATTACK_KEYS = {"id", "character", "kind", "name", "speed", "reach", "attack", "guard", "posture",
                "unguardable", "cost", "gain", "gc", "bet", "hit", "icon", "comment"}
_SUPPORT_KEYS = {"id", "character", "kind", "name", "timing", "effect", "icon", "comment"}


def normalise_card(ctx: _Ctx, raw: Any, characters: dict) -> dict:
    if not isinstance(raw, dict):
        raise ctx.fail(None, "cards", "each card must be an object")
    cid = raw.get("id")
    if not isinstance(cid, str) or not _ID_RE.match(cid):
        raise ctx.fail(str(cid), "id", "must be 2–16 characters: a–z first, then a–z, 0–9 or _")
    kind = raw.get("kind")
    if kind not in ("attack", "support"):
        raise ctx.fail(cid, "kind", f"must be attack or support, not {kind!r}")
    keys = _ATTACK_KEYS if kind == "attack" else _SUPPORT_KEYS
    extra = set(raw) - keys
    if extra:
        raise ctx.fail(cid, sorted(extra)[0], f"unknown field for a {kind} card; allowed: {', '.join(sorted(keys))}")
    ch = raw.get("character")
    if ch not in characters:
        raise ctx.fail(cid, "character", f"unknown character {ch!r} (define it under \"characters\" first)")
    icon = raw.get("icon")
    if icon not in ICONS:
        raise ctx.fail(cid, "icon", f"must be one of {', '.join(ICONS)}, not {icon!r}")
    card: dict[str, Any] = {"id": cid, "kind": kind, "character": ch, "name": _names(ctx, cid, raw.get("name")),
                            "icon": icon}
    if kind == "support":
        timing = raw.get("timing")
        if timing not in TIMINGS:
            raise ctx.fail(cid, "timing", f"must be before or after, not {timing!r}")
        card["timing"] = timing
        card["effect"] = _effects(ctx, cid, "effect", raw.get("effect"), SUPPORT_EFFECTS, False)
        if not card["effect"]:
            raise ctx.fail(cid, "effect", "a support card needs at least one effect")
    else:
        card["speed"] = _int(ctx, cid, "speed", raw.get("speed"), 0, 9)
        reach = raw.get("reach")
        if isinstance(reach, list):
            if len(reach) != 2:
                raise ctx.fail(cid, "reach", "front/back reach is a list [front, back]")
            card["front"] = _int(ctx, cid, "reach[0]", reach[0], 0, 9)
            card["back"] = _int(ctx, cid, "reach[1]", reach[1], 0, 9)
        else:
            card["front"] = card["back"] = _int(ctx, cid, "reach", reach, 0, 9)
        card["attack"] = _int(ctx, cid, "attack", raw.get("attack"), 0, 9)
        card["guard"] = _int(ctx, cid, "guard", raw.get("guard"), 1, 5)
        posture = raw.get("posture")
        if posture not in POSTURES:
            raise ctx.fail(cid, "posture", f"must be one of {', '.join(POSTURES)}, not {posture!r}")
        card["posture"] = posture
        ung = raw.get("unguardable", [])
        if not isinstance(ung, list) or any(u not in POSTURES for u in ung) or len(set(ung)) != len(ung):
            raise ctx.fail(cid, "unguardable", "must be a list of distinct postures (stand, crouch, air)")
        card["unguardable"] = [p for p in POSTURES if p in ung]
        card["cost"] = _int(ctx, cid, "cost", raw.get("cost", 0), 0, 10)
        card["gain"] = _int(ctx, cid, "gain", raw.get("gain", 0), 0, 10)
        gc = raw.get("gc")
        if gc not in GC_KINDS:
            raise ctx.fail(cid, "gc", f"must be null, only or able, not {gc!r}")
        card["gc"] = gc
        card["bet"] = _effects(ctx, cid, "bet", raw.get("bet", []), BET_EFFECTS, True)
        card["hit"] = _effects(ctx, cid, "hit", raw.get("hit", []), HIT_EFFECTS, False)
    card["text"] = card_text(card)
    return card


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
    def from_sources(cls, sources: Iterable[tuple[str, Any]]) -> "CardSet":
        """``sources``: (file label, parsed JSON) pairs.  Raises CardDataError for the first problem."""
        from rules.maken.decks import deck_problems

        characters: dict = {}
        cards: dict = {}
        decks: dict = {}
        raw_decks = []
        raw_patches = []
        for file, data in sources:
            ctx = _Ctx(file)
            if not isinstance(data, dict):
                raise ctx.fail(None, None, "a card file must be a JSON object")
            extra = set(data) - {"format", "characters", "cards", "decks", "editions", "comment"}
            if extra:
                raise ctx.fail(None, sorted(extra)[0],
                               "unknown top-level key; allowed: format, characters, cards, decks, editions, comment")
            if data.get("format", 1) != 1:
                raise ctx.fail(None, "format", "only format 1 is known")
            for raw in data.get("characters", []):
                if not isinstance(raw, dict):
                    raise ctx.fail(None, "characters", "each character must be an object")
                cid = raw.get("id")
                if not isinstance(cid, str) or not _ID_RE.match(cid):
                    raise ctx.fail(str(cid), "id", "must be 2–16 characters: a–z first, then a–z, 0–9 or _")
                extra = set(raw) - {"id", "name", "text", "draw_limit", "comment"}
                if extra:
                    raise ctx.fail(cid, sorted(extra)[0], "unknown field; allowed: id, name, text, draw_limit")
                if cid in characters or cid in cards:
                    raise ctx.fail(cid, "id", "defined twice")
                characters[cid] = {"id": cid, "kind": "character", "name": _names(ctx, cid, raw.get("name")),
                                   "text": _names(ctx, cid, raw.get("text"), "text"),
                                   "draw_limit": _int(ctx, cid, "draw_limit", raw.get("draw_limit", 3), 1, 5)}
            for raw in data.get("cards", []):
                card = normalise_card(ctx, raw, characters)
                if card["id"] in cards or card["id"] in characters:
                    raise ctx.fail(card["id"], "id", "defined twice")
                cards[card["id"]] = card
            for raw in data.get("decks", []):
                raw_decks.append((ctx, raw))
            eds = data.get("editions", {})
            if not isinstance(eds, dict):
                raise ctx.fail(None, "editions", 'must be {"<edition>": {"cards", "decks", "rules"}}')
            raw_patches += [(file, k, v) for k, v in eds.items()]
        cs = cls(characters, cards, {})
        for ctx, raw in raw_decks:
            if not isinstance(raw, dict) or not isinstance(raw.get("id"), str) or not _ID_RE.match(raw["id"]):
                raise ctx.fail(None, "decks", "each deck needs an id (a–z, 0–9, _)")
            did = raw["id"]
            spec = {"character": raw.get("character"), "cards": raw.get("cards")}
            problems = deck_problems(cs, spec)
            if problems:
                raise ctx.fail(did, "cards", "illegal ready-made deck: " + "; ".join(p["text"] for p in problems))
            decks[did] = {"name": _names(ctx, did, raw.get("name")),
                          "spec": {"character": spec["character"], "cards": dict(sorted(spec["cards"].items()))}}
        out = cls(characters, cards, decks)
        from rules.maken.editions import parse_patch

        # oldest first: a patch builds on the cards as the editions before it left them
        raw_patches.sort(key=lambda p: int(p[1]) if str(p[1]).isdigit() else 0)
        for file, key, patch in raw_patches:
            ed, changes = parse_patch(out, file, key, patch)
            add_patch(out.patches, ed, changes, lambda why, file=file, key=key: CardDataError(file, None, f"editions.{key}", why))
        return out


__all__ = ["CardSet", "CardDataError", "card_text", "POSTURES", "ICONS"]
