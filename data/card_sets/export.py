"""A stored set as files to download (``/cards export``): one JSON file in the game's card format
and one CSV per layout, written with the project's CSV helper (:mod:`data.csv_export`: UTF-8
with a byte-order mark, formula-looking cells escaped).  Uploading these files again gives the
same version: the CSVs use the same layouts the upload reads, a text given in one language only
is written in that language only (an ability's too), a card's own wording goes with it, and a
JSON upload is stored as its CSV export reads back (:func:`as_csv`).

>>> from data.card_sets.model import SetContent, merged_sections
>>> c = SetContent("art_of_war", "extend", 3, [["k.json", {"kings": [{"id": "king_x", "name": {"en": "X", "ja": "X"},
...     "text": {"en": "t", "ja": "t"}, "range": [[1, 0]], "attack": 2, "defence": [3, 2]}]}]])
>>> files = export_files(c, "my set")
>>> sorted(files)
['my_set.json', 'my_set_king.csv']
"""
from __future__ import annotations

import json
import re
from typing import Any

from data.card_sets import games
from data.card_sets.csv_layout import Layout, set_path, write_rows
from data.card_sets.model import SetContent, merged_sections
from data.card_sets.problems import Problem
from data.card_sets.upload import Upload, read_upload
from data.csv_export import to_csv


def file_stem(name: str) -> str:
    """A set's name as a file name: letters, digits, - and _ (others become _)."""
    stem = re.sub(r"[^\w\-]+", "_", name.strip(), flags=re.UNICODE).strip("_")
    return stem[:40] or "card_set"


def combined(content: SetContent) -> dict:
    """The set's own files as one file of the game's format (lists joined, objects merged; only
    the sections a set's file may hold), each card's own wording with it."""
    adapter = games.adapter(content.game)
    allowed = getattr(adapter, "sections", None)       # a version stored before a key was refused keeps it out
    out: dict[str, Any] = json.loads(json.dumps({k: v for k, v in merged_sections(content.files).items()
                                                 if allowed is None or k in allowed}))
    for _section, ident, entry in adapter.own_items(out):
        if ident in content.wording:
            entry["wording"] = dict(content.wording[ident])
        if content.untranslated.get(ident):
            blank = _blank_untranslated(entry, content.untranslated[ident])
            entry.clear()
            entry.update(blank)
    return out


def _blank_untranslated(row_entry: dict, paths: list[str], prefix: str = "") -> dict:
    """``row_entry`` with each text given in one language only left out of the other's column."""
    entry = json.loads(json.dumps(row_entry))
    for item in paths:
        path, _, lang = item.rpartition(":")
        if prefix:
            if not path.startswith(prefix):
                continue
            path = path[len(prefix):].lstrip(".")
        node: Any = entry           # a path into lists too: ``abilities[0].name`` (an AVI's ability)
        for key in re.sub(r"\[(\d+)\]", r".\1", path).split("."):
            if isinstance(node, list) and key.isdigit() and int(key) < len(node):
                node = node[int(key)]
            elif isinstance(node, dict):
                node = node.get(key)
            else:
                node = None
        if isinstance(node, dict) and lang in node:
            node.pop(lang)
    return entry


def layout_rows(content: SetContent, layout: Layout, data: dict) -> tuple[list[str], list[list[Any]]]:
    """The header and rows of ``layout`` for the combined file ``data``."""
    adapter = games.adapter(content.game)
    entries: list[dict] = []
    if layout.parent is not None:
        column, parent_kind, list_field = layout.parent
        parent = next(lay for lay in adapter.layouts if lay.kind == parent_kind)
        for _section, ident, entry in adapter.own_items(data):
            if not parent.matches(entry) or _section != parent.section:
                continue
            for i, child in enumerate(entry.get(list_field) or []):
                row = _blank_untranslated(child, content.untranslated.get(ident, []), f"{list_field}[{i}]")
                set_path(row, column, ident)
                entries.append(row)
    else:
        value = data.get(layout.section)
        items = list(value.items()) if isinstance(value, dict) else [(None, e) for e in value or []]
        for key, entry in items:
            if not isinstance(entry, dict):
                continue
            row = dict(entry)
            if key is not None:
                row[layout.id_column] = key
            if not layout.matches(row):
                continue
            ident = row.get(layout.id_column)
            entries.append(_blank_untranslated(row, content.untranslated.get(str(ident), [])))
    return write_rows(layout, entries)


def pretty(data: dict) -> str:
    """A card file as people read it: one card (or deck) a line."""
    def one(v: Any) -> str:
        return json.dumps(v, ensure_ascii=False, separators=(", ", ": "))
    parts = []
    for key, value in data.items():
        if isinstance(value, list) and value:
            inner = ",\n".join("    " + one(v) for v in value)
            parts.append(f"  {one(key)}: [\n{inner}\n  ]")
        elif isinstance(value, dict) and value:
            inner = ",\n".join(f"    {one(k)}: {one(v)}" for k, v in value.items())
            parts.append(f"  {one(key)}: {{\n{inner}\n  }}")
        else:
            parts.append(f"  {one(key)}: {one(value)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def csv_files(content: SetContent, stem: str, data: dict | None = None) -> dict[str, bytes]:
    """``{file name: bytes}``: one CSV per layout that has rows (``data``: :func:`combined`)."""
    data = combined(content) if data is None else data
    files = {}
    for layout in games.adapter(content.game).layouts:
        header, rows = layout_rows(content, layout, data)
        if rows:
            files[f"{stem}_{layout.kind}.csv"] = to_csv(header, rows)
    return files


def export_files(content: SetContent, name: str) -> dict[str, bytes]:
    """``{file name: bytes}``: the set as JSON and as one CSV per layout that has rows."""
    stem = file_stem(name)
    data = combined(content)
    files = {f"{stem}.json": pretty({"comment": f"{name} ({content.game}, {content.mode})", **data}).encode("utf-8")}
    return files | csv_files(content, stem, data)


def as_csv(content: SetContent) -> tuple[list[Upload], list[Problem]]:
    """The set's CSV export read back as an upload (:func:`data.card_sets.upload.read_upload`).

    A set uploaded as JSON is stored as this reads back (``build.build_set``): the CSV cells
    spell each value one way (a range as its grid, a deck's cards as id → copies, texts without
    spaces around them), and the cards come in the layouts' order — so the set's JSON and CSV
    exports upload again as the very same version, whichever the designer uploaded."""
    files: list[Upload] = []
    problems: list[Problem] = []
    for name, data in csv_files(content, "set").items():
        got, bad = read_upload(name, data)
        files += got
        problems += bad
    return files, problems


__all__ = ["export_files", "csv_files", "as_csv", "combined", "layout_rows", "file_stem"]
