"""The keys of an uploaded card file as a designer may spell them, and what a file may hold.

A key is compared *folded* (:func:`fold`): NFKC (full-width ``ＲＵＬＥＳ`` is ``RULES``), case
folded, spaces and hyphens as ``_`` — so ``Editions``, ``RULES``, ``MAX_ROUNDS``, ``max-rounds``
and ``max rounds`` are the keys they look like, never something a set may slip past the check.

:func:`section_problems` is every game's check of a file's top-level keys: a section of the
game's format spelled exactly passes; an ``editions`` block or a rule of the game in any spelling
is refused as such; a section spelled in another letter case or width is refused naming the
right spelling; anything else is refused naming the sections a file may hold.  Every game's file
may hold :data:`LIMITED`, the set's limited declaration (``data/card_sets/limited.py`` checks it
against the whole set).  Nothing a game's
schema does not know is kept (the adapters' ``merge`` leaves every refused key out, so it is
reported once).  :func:`text_problems` does the same inside a card: a text is ``{"ja", "en"}``
and nothing else.

>>> fold("ＭＡＸ－Ｒｏｕｎｄｓ"), fold("Target Mana"), fold("editions")
('max_rounds', 'target_mana', 'editions')
>>> [(e.field, e.key) for e in section_problems("a.json", {"cards": [], "Cards": [], "RULES": {}, "Editions": {},
...                                                          "cardz": []}, ("cards", "comment"), rules=("rules",))]
[('Cards', 'key_spelling'), ('RULES', 'rules_patch'), ('Editions', 'no_editions'), ('cardz', 'unknown_section')]
"""
from __future__ import annotations

import re
import unicodedata
from typing import Any, Callable, Iterable

from data.card_sets.csv_layout import Layout
from rules.card_errors import CardDataError

_SEPARATORS = re.compile(r"[\s\-\u2010-\u2015\u30fb_]+")
LANGS = ("ja", "en")
LIMITED = "limited"             # the limited declaration's key: a section of every game's file
COMMENT_LIMIT = 2_000           # characters of a file's ``comment`` (a note for people, dropped from a version)
# the catalog keys (``cardcheck.<key>``) of the problems made here
CATALOG_KEYS = ("no_editions", "rules_patch", "key_spelling", "unknown_section", "unknown_field", "lang_object",
                "comment_text")


def fold(key: Any) -> str:
    """A key as it is compared: NFKC, case folded, runs of spaces, hyphens and ``_`` as one
    ``_``, none at either end."""
    text = unicodedata.normalize("NFKC", str(key)).casefold()
    return _SEPARATORS.sub("_", text).strip("_")


def shown(key: Any) -> str:
    """A key as a problem names it (short: a hostile key may be long)."""
    return str(key)[:40]


def _error(label: str, card: str | None, field: str, message: str, catalog: str, /, **params: Any) -> CardDataError:
    err = CardDataError(label, card, field, message, key=catalog)
    err.params = dict(params)       # ``key`` may be a param too (the constructor takes it as the catalog key)
    return err


def no_editions(label: str, key: Any) -> CardDataError:
    return _error(label, None, shown(key), "a set carries no editions", "no_editions")


def rules_patch(label: str, key: Any, card: str | None = None, field: str | None = None) -> CardDataError:
    return _error(label, card, field or shown(key), "a set changes cards, never a rule of the game", "rules_patch",
                  key=shown(key))


def section_problems(label: str, data: Any, sections: Iterable[str], *, rules: Iterable[str] = (),
                     special: dict[str, Callable[[str, Any], list[CardDataError]]] | None = None
                     ) -> list[CardDataError]:
    """Every top-level key of the uploaded file ``data`` that a set may not hold (see the module
    docstring).  ``sections``: the keys a set's file may hold, spelled as the format spells them;
    ``rules``: the game's rules (refused as rules, in any spelling); ``special``: folded key →
    the game's own refusal of it (Art of War's ``units``, Project Maken's nested ``rules``).
    :data:`LIMITED` is always allowed (a game's ``merge`` leaves it out: it is no card)."""
    if not isinstance(data, dict):
        return []
    allowed = tuple(sections)
    if LIMITED not in allowed:
        allowed += (LIMITED,)
    right = {fold(s): s for s in allowed}
    rule_folds = {fold(r) for r in rules}
    special = {fold(k): v for k, v in (special or {}).items()}
    out: list[CardDataError] = []
    for key in data:
        if key == "comment" and key in allowed:
            value = data[key]           # a note for people: one text, never a place to keep data
            if not isinstance(value, str) or len(value) > COMMENT_LIMIT:
                out.append(_error(label, None, "comment", "a comment is one text", "comment_text", limit=COMMENT_LIMIT,
                                  field="comment"))
            continue
        if key in allowed:
            continue
        folded = fold(key)
        if folded in special:
            out += special[folded](label, key)
        elif folded == "editions":
            out.append(no_editions(label, key))
        elif folded in rule_folds:
            out.append(rules_patch(label, key))
        elif folded in right:
            out.append(_error(label, None, shown(key), f"must be spelled {right[folded]!r}", "key_spelling",
                              key=shown(key), right=right[folded]))
        else:
            out.append(_error(label, None, shown(key), "not a section of a card set", "unknown_section",
                              key=shown(key), allowed=list(allowed)))
    return out


def allowed_only(files: Iterable[tuple[str, Any]], sections: Iterable[str]) -> list[tuple[str, Any]]:
    """The set's ``files`` without the top-level keys :func:`section_problems` refuses: what a
    game's ``merge`` validates (each refused key is reported once, by the upload's check, and
    replaces nothing: Art of War's ``Units`` leave the basic units as they are)."""
    allowed = set(sections)
    return [(label, {k: v for k, v in data.items() if k in allowed} if isinstance(data, dict) else data)
            for label, data in files]


def is_text(value: Any) -> bool:
    """A text object: ``{"ja": …, "en": …}`` (one of them a string), whatever else it holds."""
    return isinstance(value, dict) and any(isinstance(value.get(lang), str) for lang in LANGS)


def text_problems(label: str, card: str | None, entry: Any, path: str = "") -> list[CardDataError]:
    """Every text object inside ``entry`` holding more than ``ja`` and ``en`` (a third language, a
    note): refused naming the key, so no part of a text is kept that no reader sees or no check
    reads."""
    out: list[CardDataError] = []
    if isinstance(entry, dict):
        if is_text(entry):
            for key in entry:
                if key not in LANGS:
                    out.append(_error(label, card, f"{path}.{shown(key)}" if path else shown(key),
                                      "a text holds ja and en only", "unknown_field", allowed=list(LANGS)))
            return out
        for key, value in entry.items():
            out += text_problems(label, card, value, f"{path}.{key}" if path else str(key))
    elif isinstance(entry, list):
        for i, value in enumerate(entry):
            out += text_problems(label, card, value, f"{path}[{i}]")
    return out


def layout_of(layouts: Iterable[Layout], section: str, entry: Any) -> Layout | None:
    """The CSV layout an own entry of ``section`` is written with (None: its category is not one
    the game knows, which the schema names)."""
    return next((lay for lay in layouts if lay.section == section and lay.parent is None
                 and isinstance(entry, dict) and lay.matches(entry)), None)


def json_fields(layouts: Iterable[Layout], layout: Layout) -> list[str]:
    """The fields an entry of ``layout`` has in the JSON format: its columns' (a pair's once),
    its constant fields and its children's list (an AVI's ``abilities``)."""
    out: list[str] = []
    for col in layout.columns:
        first = col.path.split(".")[0]
        if first not in out and not (layout.keyed and col.name == layout.id_column):
            out.append(first)
    out += [k for k in layout.constant if k not in out]
    out += [lay.parent[2] for lay in layouts if lay.parent is not None and lay.parent[1] == layout.kind]
    return out


def entry_problems(label: str, layouts: tuple[Layout, ...], items: Iterable[tuple[str, str, Any]], *,
                   texts: bool = True) -> list[CardDataError]:
    """What the own entries ``items`` (a game's ``own_items``) hold that a set may not keep: a
    ``wording`` on a card whose layout has no wording columns (where it has, a text of strings),
    and (``texts``: the game's schema does not check it) a text holding more than ``ja``/``en``."""
    out: list[CardDataError] = []
    for section, ident, entry in items:
        card = f"deck {ident!r}" if section == "decks" else ident
        layout = layout_of(layouts, section, entry)
        if layout is not None and isinstance(entry, dict) and "wording" in entry:
            if not any(col.path.startswith("wording.") for col in layout.columns):
                out.append(_error(label, card, "wording", "not a field of this card", "unknown_field",
                                  allowed=json_fields(layouts, layout)))
            else:
                words = entry["wording"]
                if not is_text(words) or not all(isinstance(words.get(lang, ""), str) for lang in LANGS):
                    out.append(_error(label, card, "wording", "must be a text {ja, en}", "lang_object"))
                else:
                    out += text_problems(label, card, words, "wording")
        if texts and isinstance(entry, dict):
            out += text_problems(label, card, {k: v for k, v in entry.items() if k != "wording"})
    return out


def respelled(errors: list[CardDataError]) -> list[CardDataError]:
    """The schema's ``unknown_field`` / ``unknown_key`` problems of a key that is an allowed one in
    another letter case or width (``Damage``, ``ＮＡＭＥ``) said as the right spelling (in place)."""
    for err in errors:
        allowed = (err.params or {}).get("allowed")
        last = re.split(r"[.\[\]]+", str(err.field or "").rstrip("]"))[-1]
        if err.key in ("unknown_field", "unknown_key") and isinstance(allowed, (list, tuple)) and last:
            match = next((a for a in allowed if isinstance(a, str) and a != last and fold(a) == fold(last)), None)
            if match is not None:
                err.key, err.params = "key_spelling", {"key": shown(last), "right": match}
                err.message = f"must be spelled {match!r}"
    return errors


__all__ = ["fold", "shown", "section_problems", "allowed_only", "text_problems", "entry_problems", "respelled",
           "layout_of", "json_fields", "no_editions", "rules_patch", "is_text", "LANGS", "CATALOG_KEYS", "LIMITED"]
