"""Art of War card sets: KINGs and ready-made decks (the five basic units are the rulebook's and
never a set's to change).  The CSV layouts are documented in ``docs/card_sets/art_of_war.md``.

>>> from data.card_sets.upload import read_upload
>>> from data.card_sets.build import build_set
>>> csv = "id,name_ja,name_en,range,attack,defence\\nking_owl,梟王,OWL KING,..x../.x.x./x...x,2,3/2\\n"
>>> files, _ = read_upload("kings.csv", csv.encode())
>>> built = build_set("art_of_war", files, "extend")
>>> built.ok, built.counts["cards"]
(True, 1)
>>> print(built.cardset.kings["king_owl"]["range"])
[[3, 0], [2, -1], [2, 1], [1, -2], [1, 2]]
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

from data.card_sets import csv_layout as cl
from data.card_sets import keys
from data.card_sets.build import SHIPPED
from data.card_sets.limited import LIMITED
from data.card_sets.model import NAME_LIMIT, TEXT_LIMIT, Entry, Fact, without_replaced
from rules.art_of_war.cards import BASIC_IDS, CardDataError, CardSet, build_cardset, king_text, range_words
from rules.art_of_war.board import EDITION

GAME = "art_of_war"
SECTIONS = ("format", "comment", "kings", "decks")        # what a set's file may hold (``units`` are the rulebook's)
# top-level keys that would change a rule of the game, not a card (refused: ``rules_patch``)
RULE_KEYS = ("rules", "rule", "options", "settings", "board", "hand", "hand_size", "hand_start", "waiting",
             "waiting_max", "deck_size", "deck_rules", "setup", "max_turns", "turn_limit", "win", "victory")


def _range_cell() -> cl.Cell:
    """A range as a picture of the 3 rows ahead (5 squares wide, the farthest row first, ``x`` in
    range, ``.`` not, rows separated by ``/``): ``..x../.x.x./xxxxx``; or as offsets
    ``forward:sideways`` separated by spaces: ``1:-1 1:0 1:1``."""
    def parse(text: str) -> list:
        t = text.strip().replace("／", "/").replace("　", " ").lower()
        if re.fullmatch(r"[.x/| \n-]+", t) and ("x" in t):
            rows = [r.strip() for r in re.split(r"[/|\n]+", t) if r.strip()]
            if len(rows) != 3 or any(len(r) != 5 for r in rows):
                raise cl.CellError("aow_grid", value=text[:40])
            out = []
            for i, row in enumerate(rows):
                for j, ch in enumerate(row):
                    if ch == "x":
                        out.append([3 - i, j - 2])
            return out
        out = []
        for part in [p for p in re.split(r"[\s;,]+", t) if p]:
            m = re.fullmatch(r"([+-]?\d):([+-]?\d)", part)
            if not m:
                raise cl.CellError("aow_grid", value=text[:40])
            out.append([int(m.group(1)), int(m.group(2))])
        if not out:
            raise cl.CellError("aow_grid", value=text[:40])
        return out

    def write(value: Any) -> str:
        marks = {(f, s) for f, s in value}
        return "/".join("".join("x" if (f, s) in marks else "." for s in range(-2, 3)) for f in (3, 2, 1))
    return cl.Cell(parse, write, {"en": "3 rows of 5, farthest first: ..x../.x.x./xxxxx",
                                  "ja": "5マス×3行、遠い行から：..x../.x.x./xxxxx"})


def _attack_cell() -> cl.Cell:
    number = cl.integer(0, 9)

    def parse(text: str) -> Any:
        if text.strip().lower() in ("hand", "手札"):
            return "hand"
        try:
            return number.parse(text)
        except cl.CellError:
            raise cl.CellError("aow_attack", value=text[:20]) from None
    return cl.Cell(parse, lambda v: v, {"en": "0–9, or hand", "ja": "0〜9、または hand"})


def _defence_cell() -> cl.Cell:
    def parse(text: str) -> list:
        m = re.fullmatch(r"\s*(\d)\s*[/／]\s*(\d)\s*", text)
        if not m or not all(1 <= int(g) <= 9 for g in m.groups()):
            raise cl.CellError("aow_defence", value=text[:20])
        return [int(m.group(1)), int(m.group(2))]
    return cl.Cell(parse, lambda v: f"{v[0]}/{v[1]}", {"en": "upright/sideways, each 1–9: 3/2",
                                                       "ja": "縦/横、それぞれ1〜9：3/2"})


KINGS = cl.Layout(
    "king", {"en": "KINGs", "ja": "KING"},
    (cl.Column("id", "id", cl.text(31), required=True),
     *cl.bilingual("name", "name", NAME_LIMIT, required=True),
     cl.Column("range", "range", _range_cell(), required=True),
     cl.Column("attack", "attack", _attack_cell(), required=True),
     cl.Column("defence", "defence", _defence_cell(), required=True),
     *cl.bilingual("text", "text", TEXT_LIMIT)),
    section="kings", example="docs/card_sets/art_of_war_kings.csv")
DECKS = cl.Layout(
    "deck", {"en": "decks", "ja": "デッキ"},
    (cl.Column("id", "id", cl.text(31), required=True),
     *cl.bilingual("name", "name", NAME_LIMIT, required=True),
     cl.Column("king", "king", cl.text(31), required=True),
     cl.Column("units", "units", cl.counts(most=20), required=True)),
    section="decks", example="docs/card_sets/art_of_war_decks.csv")


def _copy(value: Any) -> Any:
    return json.loads(json.dumps(value))


@lru_cache(maxsize=8)
def _shipped_text(edition: int) -> str:
    """:meth:`ArtOfWarCards.shipped_files` of ``edition`` as JSON text: every upload checked on
    the shipped cards reads them, and decoding one text is quicker than copying them again."""
    from rules.art_of_war.files import load_art_of_war

    cs = load_art_of_war().at(edition)
    units = [{k: c[k] for k in ("id", "code", "support", "name", "text", "range", "attack", "defence")}
             for c in cs.units.values()]
    kings = [{k: c[k] for k in ("id", "name", "text", "range", "attack", "defence")} for c in cs.kings.values()]
    decks = [{"id": did, "name": d["name"], **d["spec"]} for did, d in cs.decks.items()]
    return json.dumps([[SHIPPED + "cards.json", {"units": units, "kings": kings}],
                       [SHIPPED + "decks.json", {"decks": decks}]], ensure_ascii=False)


class ArtOfWarCards:
    game = GAME
    sections = SECTIONS + (LIMITED,)    # the top-level keys a set's file may hold (the export's)
    layouts = (KINGS, DECKS)
    fixed_ids = frozenset(BASIC_IDS)

    def newest_edition(self) -> int:
        return EDITION

    def blank_file(self) -> dict:
        return {"kings": [], "decks": []}

    def shipped_files(self, edition: int | None) -> list[tuple[str, dict]]:
        """The shipped units, KINGs and ready-made decks of rules ``edition`` in the file format
        (fresh dicts, read from the edition's JSON text made once)."""
        return [(label, data) for label, data in json.loads(_shipped_text(edition or EDITION))]

    def base_files(self, mode: str, edition: int | None) -> list[tuple[str, dict]]:
        files = self.shipped_files(edition)
        if mode == "alone":        # the rulebook's five basic units stay; no shipped KING or deck
            return [(files[0][0], {"units": files[0][1]["units"]})]
        return files

    def own_items(self, data: dict) -> list[tuple[str, str, dict]]:
        out = []
        for section in ("units", "kings", "decks"):
            for entry in data.get(section) or [] if isinstance(data.get(section), list) else []:
                if isinstance(entry, dict) and isinstance(entry.get("id"), str):
                    out.append((section, entry["id"], entry))
        return out

    def merge(self, base: list[tuple[str, dict]], own: list[tuple[str, dict]]) -> list[tuple[str, dict]]:
        """The base without what the set replaces, then the set's files (without what
        :meth:`upload_rules` refused); a KING without the set's own words gets its rules text."""
        kept, mine = without_replaced(base, keys.allowed_only(own, SECTIONS), self.own_items)
        for _label, data in mine:
            for king in data.get("kings") or [] if isinstance(data.get("kings"), list) else []:
                if isinstance(king, dict) and "text" not in king:
                    try:
                        king["text"] = king_text(king)
                    except (KeyError, TypeError, ValueError, IndexError):
                        pass        # the schema names what is missing
        return kept + mine

    def upload_rules(self, label: str, data: Any) -> list[CardDataError]:
        """A file holds KINGs and decks: ``units`` (in any spelling) are the rulebook's, an
        ``editions`` block or a rule of the game is refused, and so is any other key; a KING's or
        deck's texts are ``{"ja", "en"}`` only, and neither takes a ``wording`` (a KING's
        ``text`` is the set's words)."""
        def units(label: str, key: Any) -> list[CardDataError]:
            return [CardDataError(label, None, keys.shown(key), "the basic units are the rulebook's",
                                  key="fixed_card", id=", ".join(BASIC_IDS))]
        if not isinstance(data, dict):
            return []
        return keys.section_problems(label, data, SECTIONS, rules=RULE_KEYS, special={"units": units}) + \
            keys.entry_problems(label, self.layouts, self.own_items(data))

    def validate(self, files: list[tuple[str, dict]]) -> tuple[CardSet | None, list[CardDataError]]:
        problems: list[CardDataError] = []
        cs = build_cardset(files, problems=problems)
        keys.respelled(problems)
        if cs is not None and len(cs.decks) < 2:
            problems.append(CardDataError("", None, "decks", "needs two ready-made decks",
                                          key="too_few_decks", n=2, count=len(cs.decks)))
            cs = None
        return cs, problems

    def with_rules_text(self, cardset: CardSet, own: set[str]) -> CardSet:
        """The set's KINGs say what they do (their text generated from their numbers), and the
        set's own ready-made decks come first (the seats' default decks are the set's)."""
        kings = _copy(cardset.kings)
        for kid in own & set(kings):
            kings[kid]["text"] = king_text(kings[kid])
        decks = _copy(cardset.decks)
        decks = {d: decks[d] for d in sorted(decks, key=lambda d: d not in own)}
        return CardSet(_copy(cardset.units), kings, decks)

    def engine(self, cardset: CardSet, own: set[str]) -> Any:
        from rules.art_of_war.engine import ArtOfWarGame

        return ArtOfWarGame(self.with_rules_text(cardset, own))

    def deck_ids(self, cardset: CardSet, own: set[str]) -> list[str]:
        return [d for d in cardset.decks if d in own]

    def card_kinds(self, cardset: CardSet) -> dict[str, str]:
        """Card id → its kind (:attr:`Entry.kind`: ``king`` or ``unit``), without the rules
        texts :meth:`entries` generates."""
        return {**{kid: "king" for kid in cardset.kings}, **{uid: "unit" for uid in cardset.units}}

    def entries(self, cardset: CardSet, own: set[str]) -> list[Entry]:
        shown = self.with_rules_text(cardset, own)
        out = []
        for kid, king in shown.kings.items():
            out.append(Entry(kid, "king", dict(king["name"]), dict(king["text"]), _king_facts(king), own=kid in own,
                             wording=dict(cardset.kings[kid]["text"]) if kid in own else None,
                             view=_view(king)))
        for uid, unit in shown.units.items():
            out.append(Entry(uid, "unit", dict(unit["name"]), dict(unit["text"]), _king_facts(unit), own=False,
                             view=_view(unit)))
        for did, deck in shown.decks.items():
            out.append(Entry(did, "deck", dict(deck["name"]), _deck_words(shown, deck["spec"]),
                             _deck_facts(shown, deck["spec"]), own=did in own, deck=True))
        return out


def _view(card: dict) -> dict:
    return {k: _copy(card[k]) for k in ("id", "kind", "name", "text", "range", "attack", "defence", "code")}


def _king_facts(card: dict) -> list[Fact]:
    atk = card["attack"]
    shown = {"en": "hand size", "ja": "手札の枚数"} if atk == "hand" else {"en": str(atk), "ja": str(atk)}
    d = card["defence"]
    return [Fact("attack", {"en": "attack", "ja": "攻撃力"}, shown),
            Fact("defence", {"en": "defence (upright/sideways)", "ja": "防御力（縦/横）"},
                 {"en": f"{d[0]}/{d[1]}", "ja": f"{d[0]}/{d[1]}"}),
            Fact("range", {"en": "range", "ja": "攻撃範囲"}, range_words(card["range"]))]


def _deck_facts(cs: CardSet, spec: dict) -> list[Fact]:
    king = cs.kings.get(spec["king"], {}).get("name") or {"en": spec["king"], "ja": spec["king"]}
    facts = [Fact("king", {"en": "KING", "ja": "KING"}, dict(king))]
    for uid in BASIC_IDS:
        n = spec["units"].get(uid, 0)
        facts.append(Fact(f"units.{uid}", dict(cs.units[uid]["name"]), {"en": str(n), "ja": str(n)}))
    return facts


def _deck_words(cs: CardSet, spec: dict) -> dict:
    king = cs.kings.get(spec["king"], {}).get("name") or {"en": spec["king"], "ja": spec["king"]}
    units = [(cs.units[u]["name"], n) for u, n in spec["units"].items() if n]
    return {"en": f"KING: {king['en']}. " + ", ".join(f"{name['en']} ×{n}" for name, n in units),
            "ja": f"KING：{king['ja']}。" + "、".join(f"{name['ja']}×{n}" for name, n in units)}


ADAPTER = ArtOfWarCards()

__all__ = ["ADAPTER", "ArtOfWarCards", "KINGS", "DECKS"]
