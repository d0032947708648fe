"""Rules editions' changes to the cards and ready-made decks (the ``"editions"`` key of a card file).

A card file may carry ``"editions": {"<edition>": {"cards": {id: patch}, "decks": {id: fields}}}``.
Edition N's card set is the files' cards with every patch of an edition up to N applied, oldest
first; a match keeps the card set of the edition it started under (its state stores its cards, and
a record replays ``new_match(edition=…)``), so a later balance change never alters a stored match.

A card patch merges into the card's JSON entry: a field's new value replaces the old one, except
that an object merges into an object field (``"text": {"en": …}``) and an object keyed by index
merges into a list field (``"abilities": {"0": {"effects": {"0": {"amount": 25}}}}``).  A deck patch
replaces the given fields (``avi``, ``resources``, ``it``, ``name``).  The patched files are
validated like the files themselves (every error names the file, card and field, with a catalog
key: ``fail(field, message, key, **params)``).
"""
from __future__ import annotations

import copy
from typing import Any

from rules.editions import edition_number, number_error, upto

DECK_FIELDS = ("name", "avi", "resources", "it")


def merge(target: Any, patch: Any) -> Any:
    """``patch`` merged into ``target`` (a fresh value; see the module docstring)."""
    if isinstance(patch, dict) and isinstance(target, dict):
        out = dict(target)
        for k, v in patch.items():
            out[k] = merge(target.get(k), v)
        return out
    if isinstance(patch, dict) and isinstance(target, list):
        out_l = list(target)
        for k, v in patch.items():
            i = int(k)
            if not 0 <= i < len(out_l):
                raise ValueError(f"index {k} is out of range (the list has {len(out_l)} entries)")
            out_l[i] = merge(out_l[i], v)
        return out_l
    return copy.deepcopy(patch)


def read_patches(file: str, data: Any, fail) -> dict[int, dict]:
    """The ``editions`` of one card file: {edition: {"cards": {...}, "decks": {...}}}."""
    out: dict[int, dict] = {}
    if not isinstance(data, dict):
        raise fail("editions", 'must be {"<edition>": {"cards": {...}, "decks": {...}}}', "not_object")
    for key, patch in data.items():
        where = f"editions.{key}"
        ed = edition_number(key, 3)
        if ed is None:
            raise fail(where, number_error(3), "ls_edition_number", low=3)
        if not isinstance(patch, dict) or set(patch) - {"cards", "decks"}:
            raise fail(where, 'must be {"cards": {id: changes}, "decks": {id: changes}}', "unknown_key",
                       allowed=["cards", "decks"])
        for part in ("cards", "decks"):
            if not isinstance(patch.get(part, {}), dict):
                raise fail(f"{where}.{part}", "must be an object: id -> changes", "not_object")
        for did, fields in patch.get("decks", {}).items():
            if not isinstance(fields, dict) or set(fields) - set(DECK_FIELDS):
                raise fail(f"{where}.decks.{did}", "may change only " + ", ".join(DECK_FIELDS), "unknown_field",
                           allowed=list(DECK_FIELDS))
        out[ed] = patch
    return out


def patched_sources(sources: list[tuple[str, Any]], patches: dict[int, dict], edition: int,
                    fail) -> list[tuple[str, Any]]:
    """The card files as they stand in ``edition`` (``editions`` keys removed)."""
    def step(files: list[tuple[str, Any]], ed: int, patch: dict) -> list[tuple[str, Any]]:
        for kind, table in (("cards", patch.get("cards", {})), ("decks", patch.get("decks", {}))):
            for cid, fields in table.items():
                for _name, data in files:
                    entries = data.get(kind) or []
                    hit = [i for i, e in enumerate(entries) if isinstance(e, dict) and e.get("id") == cid]
                    if hit:
                        try:
                            entries[hit[0]] = (merge(entries[hit[0]], fields) if kind == "cards"
                                               else {**entries[hit[0]], **copy.deepcopy(fields)})
                        except (ValueError, TypeError) as exc:
                            raise fail(f"editions.{ed}.{kind}.{cid}", str(exc), "ls_edition_index") from None
                        break
                else:
                    raise fail(f"editions.{ed}.{kind}.{cid}", f"no {kind[:-1]} {cid!r} to change",
                               "ls_edition_missing", id=str(cid))
        return files

    files = [(name, {k: copy.deepcopy(v) for k, v in data.items() if k != "editions"})
             for name, data in sources]
    return upto(files, patches, edition, step)


__all__ = ["merge", "read_patches", "patched_sources", "DECK_FIELDS"]
