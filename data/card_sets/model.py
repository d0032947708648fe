"""A server's card set as stored: :class:`SetContent`, and what each card game provides to read,
check, show and compare sets (:class:`GameCards`, one per game in ``data/card_sets/<game>.py``).

A version of a set is its content, canonical JSON, named by its SHA-256 (:meth:`SetContent.digest`):

- ``game``, ``mode`` — ``extend`` (the shipped cards of ``base_edition`` plus the set's own,
  which replace shipped ones with the same id) or ``alone`` (only the set's cards; a game whose
  rulebook fixes some cards, Art of War's five basic units, keeps those);
- ``base_edition`` — the shipped rules edition an ``extend`` set builds on (kept, so a later
  edition of the shipped cards never changes a stored version);
- ``files`` — the set's own cards and decks, ``[label, data]`` in the game's JSON card format
  (``docs/cards.md``), CSV uploads already turned into it;
- ``wording`` — card id → the set's own words for what a card does ``{"ja", "en"}``; players see
  the rules text generated from the card's effects, the set's wording beside it;
- ``untranslated`` — card id → the texts given in one language only (``"name:en"``: the English
  name shows the Japanese words).

>>> c = SetContent("art_of_war", "extend", 3, [["kings.csv", {"kings": []}]])
>>> SetContent.from_json(c.canonical()) == c, len(c.digest())
(True, 64)
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Protocol

from data.card_sets.csv_layout import Layout
from rules.card_errors import CardDataError

FORMAT = "cardset/1"
MODES = ("extend", "alone")
MAX_OWN_CARDS = 500
NAME_LIMIT = 48               # characters in a card's or deck's name
TEXT_LIMIT = 400              # characters in any other text (a card's own wording, a rules text)
SET_NAME_LIMIT = 32


@dataclass
class SetContent:
    game: str
    mode: str
    base_edition: int | None
    files: list[list] = field(default_factory=list)
    wording: dict[str, dict] = field(default_factory=dict)
    untranslated: dict[str, list[str]] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"format": FORMAT, "game": self.game, "mode": self.mode, "base_edition": self.base_edition,
                "files": [[str(label), data] for label, data in self.files],
                "wording": self.wording, "untranslated": {k: sorted(v) for k, v in self.untranslated.items()}}

    def canonical(self) -> str:
        return json.dumps(self.to_json(), sort_keys=True, ensure_ascii=False, separators=(",", ":"))

    def digest(self) -> str:
        """The version's name: a hash of what it holds, not of how its files were named (the same
        cards uploaded again under other file names are the same version)."""
        data = self.to_json()
        data["files"] = merged_sections(self.files)
        text = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        # "surrogatepass": an upload never holds a lone surrogate (data.card_sets.upload refuses
        # it), and a version read back that does is named, not a crash (issue 45, finding 1)
        return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()

    @classmethod
    def from_json(cls, text: str | dict) -> "SetContent":
        """A stored version read back, every field checked (a row is checked when read):
        ValueError for anything that does not fit."""
        data = json.loads(text) if isinstance(text, str) else text
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"not a card set of format {FORMAT}")
        game, mode, base = data.get("game"), data.get("mode"), data.get("base_edition")
        if not isinstance(game, str) or mode not in MODES:
            raise ValueError("a card set needs its game and a mode (extend or alone)")
        if base is not None and (isinstance(base, bool) or not isinstance(base, int) or base < 1):
            raise ValueError(f"bad base edition {base!r}")
        files = data.get("files")
        if not isinstance(files, list) or not all(
                isinstance(f, list) and len(f) == 2 and isinstance(f[0], str) and isinstance(f[1], dict) for f in files):
            raise ValueError("a card set's files are [label, object] pairs")
        wording, untranslated = data.get("wording", {}), data.get("untranslated", {})
        if not isinstance(wording, dict) or not all(
                isinstance(w, dict) and all(isinstance(v, str) for v in w.values()) for w in wording.values()):
            raise ValueError("a card set's wording is card id -> {ja, en}")
        if not isinstance(untranslated, dict) or not all(
                isinstance(v, list) and all(isinstance(x, str) for x in v) for v in untranslated.values()):
            raise ValueError("a card set's untranslated texts are card id -> [field:lang]")
        return cls(game, mode, base, [list(f) for f in files], dict(wording), {k: list(v) for k, v in untranslated.items()})


def merged_sections(files: list) -> dict:
    """The files' sections as one: lists joined in file order, objects merged; ``comment`` and
    ``format`` left out (how the cards are split into files, and the notes, do not make a version)."""
    out: dict[str, Any] = {}
    for _label, data in files:
        for key, value in data.items():
            if key in ("comment", "format"):
                continue
            if isinstance(value, list):
                out.setdefault(key, []).extend(value)
            elif isinstance(value, dict):
                out.setdefault(key, {}).update(value)
            else:
                out[key] = value
    return {k: v for k, v in out.items() if v not in ([], {})}


def without_replaced(base: list, own: list, items: Any, *, drop: tuple = ()) -> tuple[list, list]:
    """An ``extend`` set's files as the schema reads them: the ``base`` files without what the
    set's ``own`` files replace — an entry of a section (listed with its ``id``, or keyed by it)
    whose (section, id) one of the set's files defines, ``items`` being the game's ``own_items``
    — and the set's files copied, without the top-level keys ``drop`` (what ``upload_rules``
    refused, so it is reported once).  Returns (the base files kept, the set's files)."""
    replaced = {(section, ident) for _label, data in own if isinstance(data, dict)
                for section, ident, _entry in items(data)}
    kept = []
    for label, data in base:
        out = {}
        for section, value in data.items():
            if isinstance(value, list):
                value = [e for e in value if not (isinstance(e, dict) and (section, e.get("id")) in replaced)]
            elif isinstance(value, dict):
                value = {k: v for k, v in value.items() if (section, k) not in replaced}
            out[section] = value
        kept.append((label, json.loads(json.dumps(out))))
    mine = [(label, {k: json.loads(json.dumps(v)) for k, v in data.items() if k not in drop and str(k).lower() not in drop}
             if isinstance(data, dict) else data) for label, data in own]
    return kept, mine


@dataclass(frozen=True)
class Fact:
    """One thing a card says, for comparing versions in words: ``key`` is stable between versions
    (``cost``, ``abilities.0.cost``); ``subject`` what inside the card it is about (an ability's
    name) or None for the card itself; ``label`` and ``value`` in both languages."""

    key: str
    label: dict
    value: dict
    subject: dict | None = None


@dataclass
class Entry:
    """A card or deck of a set as people read it (``/cards show``, ``/cards diff``)."""

    id: str
    kind: str                       # the CSV layout's kind: "avi", "resource", "king", "deck", …
    name: dict                      # {"ja", "en"}
    rules: dict                     # the rules text, generated from the card's data; a deck: its list in words
    facts: list[Fact] = field(default_factory=list)
    own: bool = True                # the set's own (False: a shipped card an ``extend`` set keeps)
    deck: bool = False
    wording: dict | None = None     # the set's own words, beside the rules text
    untranslated: list[str] = field(default_factory=list)
    view: dict | None = None        # the card as a match's views show it (drawn by render/card_pages.py)

    def search_text(self) -> str:
        return " ".join([self.id, *(str(v) for v in self.name.values())]).casefold()


class GameCards(Protocol):
    """What a card game provides for server card sets (``data/card_sets/<game>.py``)."""

    game: str
    layouts: tuple[Layout, ...]             # one per kind of card (and decks), in the docs' order
    fixed_ids: frozenset                    # ids the rulebook fixes (never a set's to replace)

    def newest_edition(self) -> int | None: ...
    def blank_file(self) -> dict: ...       # an empty file of the game's format
    def shipped_files(self, edition: int | None) -> list[tuple[str, dict]]: ...
    def base_files(self, mode: str, edition: int | None) -> list[tuple[str, dict]]: ...
    def own_items(self, data: dict) -> list[tuple[str, str, dict]]: ...      # (section, id, entry)
    def merge(self, base: list[tuple[str, dict]], own: list[tuple[str, dict]]) -> list[tuple[str, dict]]: ...
    def upload_rules(self, label: str, data: Any) -> list[CardDataError]: ...
    def validate(self, files: list[tuple[str, dict]]) -> tuple[Any | None, list[CardDataError]]: ...
    def engine(self, cardset: Any, own: set[str]) -> Any: ...
    def entries(self, cardset: Any, own: set[str]) -> list[Entry]: ...
    def deck_ids(self, cardset: Any, own: set[str]) -> list[str]: ...


__all__ = ["SetContent", "Entry", "Fact", "GameCards", "without_replaced", "merged_sections", "FORMAT", "MODES", "MAX_OWN_CARDS",
           "NAME_LIMIT", "TEXT_LIMIT", "SET_NAME_LIMIT"]
