"""From uploaded files to a checked set: every problem at once, each naming where it is.

    built = build_set("logic_square", uploads, "extend")     # uploads: data.card_sets.upload.read_upload
    built.problems          # [] when the set is valid; else every problem, sorted by file and row
    built.content           # the SetContent to store (None unless the whole set is valid)

The steps, all of them run whatever an earlier one found, so one upload reports everything:

1. each JSON file is the game's own card format (``docs/cards.md``); each CSV file is read with
   the layout its header names (:func:`data.card_sets.csv_layout.detect`), its rows turned into
   entries of that format; rows that belong to another row (abilities) join their parent;
2. what an upload may not hold is refused (the game's ``upload_rules``: an ``editions`` block or
   a rules patch, a section the game does not know); texts are held to their limits and stripped
   of control characters; a text given in one language only shows the same words in the other
   and is recorded as untranslated; a card's own ``wording`` (games whose texts are generated)
   is set aside for display;
3. the set's cards are counted (at most :data:`MAX_OWN_CARDS`) and merged onto the shipped cards
   of the newest edition (``extend``: an own card replaces a shipped one with its id) or stand
   alone;
4. the game's schema validates the whole, collecting every problem; each is located back: the
   CSV line (or JSON entry number) of its card or deck, and the CSV column its field came from.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from data import i18n
from data.card_sets import games
from data.card_sets.csv_layout import Layout, detect, read_rows
from data.card_sets.model import MAX_OWN_CARDS, MODES, NAME_LIMIT, TEXT_LIMIT, SetContent
from data.card_sets.problems import Problem, problem
from data.card_sets.upload import Upload
from rules.card_errors import CardDataError

SHIPPED = "shipped/"            # the label prefix of the shipped files an ``extend`` set builds on
_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f]")


@dataclass
class _Where:
    """Where a card or deck came from: the file, its row (CSV line or JSON entry), its layout
    (CSV), and the rows of its children (``(list field, index) -> (row, layout)``)."""

    file: str
    row: int
    entry: bool
    layout: Layout | None = None
    children: dict = field(default_factory=dict)


@dataclass
class Built:
    content: SetContent | None
    cardset: Any = None
    problems: list[Problem] = field(default_factory=list)
    own: set[str] = field(default_factory=set)
    counts: dict = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.content is not None and not self.problems


def _card_id(label: Any) -> str | None:
    """The id in a CardDataError's ``card`` (``jab``, ``deck 'blitz'``; ``#3`` has none)."""
    if label is None:
        return None
    text = str(label)
    if text.startswith("deck "):
        text = text[5:]
    text = text.strip().strip("'\"")
    return None if not text or text.startswith("#") else text


def _field_parts(path: str) -> list[str]:
    return [p for p in re.split(r"[.\[\]]+", path) if p]


def _column_of(layout: Layout, path: str) -> tuple[str | None, str | None]:
    """The column of ``layout`` a field path came from, and the rest of the path inside it."""
    parts = _field_parts(path)
    best, best_len = None, 0
    for col in layout.columns:
        cp = _field_parts(col.path)
        if len(cp) > best_len and parts[:len(cp)] == cp:
            best, best_len = col, len(cp)
    if best is None:        # a whole text object (``name``): the pair of its columns
        pair = [c.name for c in layout.columns if _field_parts(c.path)[:-1] == parts and c.pair]
        return (" / ".join(pair), None) if pair else (None, None)
    rest = parts[best_len:]
    detail = " · ".join(f"#{int(p) + 1}" if p.isdigit() else p for p in rest) or None
    return best.name, detail


def locate(err: CardDataError, where: dict[tuple[str, str], _Where]) -> Problem:
    """``err`` as a :class:`Problem`, located by ``where`` (see the module docstring)."""
    key = "cardcheck.engine"
    params: dict[str, Any] = {"message": err.message}
    if err.key:     # a shared or game key (cardcheck.<key>), or a catalog key of its own (a deck rule's)
        key = f"cardcheck.{err.key}" if i18n.has(f"cardcheck.{err.key}") or not i18n.has(err.key) else err.key
        params = dict(err.params)
    file, card, fld = err.file, err.card, err.field
    number = re.fullmatch(r"(deck )?#(\d+)", str(card or ""))
    if number:          # an entry without a usable id: its number in its list (from 1)
        return Problem(file, int(number.group(2)), "deck #" if number.group(1) else None, fld,
                       key, params, entry=True)
    ident = _card_id(err.card)
    spot = where.get((str(file), ident)) if ident else None
    if spot is None and ident:
        spot = next((w for (f, i), w in where.items() if i == ident and not f.startswith(SHIPPED)), None)
    if spot is None:
        return Problem(file, None, card, fld, key, params)
    file, row, layout, column, detail = spot.file, spot.row, spot.layout, False, None
    if fld and layout is not None:
        m = re.match(r"^(\w+)\[(\d+)\](?:\.(.*))?$", fld)
        child = spot.children.get((m.group(1), int(m.group(2)))) if m else None
        if child is not None:
            file, row, layout = child
            fld = m.group(3) or ""
        name, detail = _column_of(layout, fld) if fld else (None, None)
        if name is not None:
            fld, column = name, True
    return Problem(file, row, card, fld or None, key, params, column=column, entry=spot.entry, detail=detail)


def _about(err: CardDataError, ids: set[str]) -> bool:
    """Is ``err`` about one of ``ids`` (its card, or a card its params name)?"""
    if not ids:
        return False
    if _card_id(err.card) in ids:
        return True
    values = [v for v in (err.params or {}).values()]
    flat = [x for v in values for x in (v if isinstance(v, (list, tuple)) else [v])]
    return any(isinstance(x, str) and x in ids for x in flat)


_MENTION = re.compile(r"@(?=everyone|here)|<(?=[@#])", re.IGNORECASE)


def neutral(text: str) -> str:
    """A set's text that can never mention anyone in a Discord message: ``@everyone``, ``@here``
    and the ``<@…>`` / ``<#…>`` forms get an invisible zero-width space after their ``@`` / ``<``
    (the words still read the same, on a card and in the thread).

    >>> neutral("@everyone <@123>") == "@\u200beveryone <\u200b@123>"
    True
    """
    return _MENTION.sub(lambda m: m.group(0) + "\u200b", text)


def _walk_texts(value: Any, path: str, visit) -> Any:
    """``value`` with every ``{"ja", "en"}`` text object passed through ``visit(obj, path)``."""
    if isinstance(value, dict):
        if value and set(value) <= {"ja", "en"} and all(isinstance(v, str) for v in value.values()):
            return visit(value, path)
        return {k: _walk_texts(v, f"{path}.{k}" if path else k, visit) for k, v in value.items()}
    if isinstance(value, list):
        return [_walk_texts(v, f"{path}[{i}]", visit) for i, v in enumerate(value)]
    return value


def _tidy(entry: dict, ident: str, file: str, untranslated: dict, out: list[CardDataError]) -> dict:
    """One own entry's texts: both languages (the missing one from the other, marked), within
    their limits, without control characters."""
    def visit(obj: dict, path: str) -> dict:
        obj = dict(obj)
        given = [lang for lang in ("ja", "en") if obj.get(lang, "").strip()]
        if len(given) == 1:
            other = "en" if given[0] == "ja" else "ja"
            obj[other] = obj[given[0]]
            untranslated.setdefault(ident, set()).add(f"{path}:{other}")
        limit = NAME_LIMIT if path.split(".")[-1] == "name" or path.endswith("name") else TEXT_LIMIT
        for lang in ("ja", "en"):
            text = obj.get(lang)
            if not isinstance(text, str):
                continue
            obj[lang] = text = neutral(text)
            if _CONTROL.search(text):
                out.append(CardDataError(file, ident, f"{path}.{lang}", "holds control characters",
                                         key="control_chars"))
            elif len(text) > limit:
                out.append(CardDataError(file, ident, f"{path}.{lang}", f"is longer than {limit} characters",
                                         key="too_long", limit=limit, length=len(text)))
        return obj
    return _walk_texts(entry, "", visit)


def build_set(game: str, uploads: list[Upload], mode: str = "extend", *,
              read_problems: list[Problem] | None = None, base_edition: int | None = None) -> Built:
    """Check an upload (see the module docstring).  ``read_problems``: what reading the
    attachment already found (:func:`data.card_sets.upload.read_upload`), reported with the rest."""
    problems: list[Problem] = list(read_problems or [])
    if mode not in MODES:
        return Built(None, problems=[problem("mode", value=str(mode)[:20], choices=list(MODES))])
    adapter = games.adapter(game)
    if adapter is None:
        return Built(None, problems=[problem("game", value=str(game)[:20], choices=list(games.GAMES))])
    edition = base_edition if base_edition is not None else adapter.newest_edition()
    where: dict[tuple[str, str], _Where] = {}
    files: list[tuple[str, dict]] = []
    errors: list[CardDataError] = []
    children: list[tuple[str, int, Layout, dict]] = []      # (file, line, layout, entry) to attach
    untranslated: dict[str, set] = {}          # card id -> "path:lang" of texts given in one language
    one_language: dict[int, list[str]] = {}    # a CSV entry (by id()) -> its texts given in one language
    dropped: set[str] = set()                  # rows left out for a bad cell (reported already)

    def order(up: Upload) -> tuple:
        """JSON files first, then CSVs in the layouts' order: how the files were named or packed
        makes no other version."""
        if up.kind == "json":
            return (0, 0, up.name)
        lay, _bad = detect(up, adapter.layouts)
        return (1, adapter.layouts.index(lay) if lay is not None else len(adapter.layouts), up.name)

    for up in sorted(uploads, key=order):
        if up.kind == "json":
            data = up.data
            if not isinstance(data, dict):
                problems.append(problem("json_object", up.name))
                continue
            errors += adapter.upload_rules(up.name, data)
            for section, ident, entry in adapter.own_items(data):
                listed = data.get(section)          # its number in its own list (from 1)
                number = next((i for i, e in enumerate(listed) if e is entry), 0) + 1 \
                    if isinstance(listed, list) else list(listed).index(ident) + 1 if isinstance(listed, dict) \
                    and ident in listed else None
                where.setdefault((up.name, ident), _Where(up.name, number, True))
            files.append((up.name, data))
            continue
        layout, bad = detect(up, adapter.layouts)
        if layout is None:
            problems.append(bad)
            continue
        read = read_rows(up, layout)
        problems += read.problems
        dropped.update(read.dropped)
        for entry, path, lang in read.untranslated:
            one_language.setdefault(id(entry), []).append(f"{path}:{lang}")
        data = adapter.blank_file()
        for line, entry in read.entries:
            if layout.parent is not None:
                children.append((up.name, line, layout, entry))
                continue
            ident = entry.get(layout.id_column)
            if isinstance(ident, str):
                untranslated.setdefault(ident, set()).update(one_language.get(id(entry), []))
            if layout.keyed:
                section = data.setdefault(layout.section, {})
                key = entry.pop(layout.id_column, None)
                if key in section:
                    problems.append(Problem(up.name, line, key, layout.id_column, "cardcheck.duplicate_id", {},
                                            column=True))
                    continue
                section[key] = entry
            else:
                data.setdefault(layout.section, []).append(entry)
            if isinstance(ident, str):
                where.setdefault((up.name, ident), _Where(up.name, line, False, layout))
        files.append((up.name, data))
    # children (an AVI's abilities) join their parent, wherever in the upload it is
    for file, line, layout, entry in children:
        column, parent_kind, list_field = layout.parent
        pid = entry.pop(column, None)
        parent = None
        for label, data in files:
            for _section, ident, item in adapter.own_items(data):
                if ident == pid:
                    parent, parent_label = item, label
                    break
            if parent is not None:
                break
        if parent is None:
            if pid in dropped:          # its parent's row has a problem of its own, already named
                continue
            parent_title = next((lay.title for lay in adapter.layouts if lay.kind == parent_kind), parent_kind)
            problems.append(Problem(file, line, pid, column, "cardcheck.unknown_parent",
                                    {"id": pid or "", "kind": parent_title}, column=True))
            continue
        parent.setdefault(list_field, []).append(entry)
        index = len(parent[list_field]) - 1
        untranslated.setdefault(pid, set()).update(f"{list_field}[{index}].{item}"
                                                   for item in one_language.get(id(entry), []))
        spot = where.get((parent_label, pid))
        if spot is not None:
            spot.children[(list_field, len(parent[list_field]) - 1)] = (file, line, layout)
    # texts: both languages, limits; wording set aside; untranslated recorded
    wording: dict[str, dict] = {}
    own: set[str] = set()
    tidied: list[tuple[str, dict]] = []
    n_cards = 0
    for label, data in files:
        data = json.loads(json.dumps(data))
        for section, ident, entry in adapter.own_items(data):
            own.add(ident)
            if section != "decks":
                n_cards += 1
            clean = _tidy(entry, ident, label, untranslated, errors)
            words = clean.pop("wording", None)
            if isinstance(words, dict) and words:
                wording[ident] = {k: str(v) for k, v in words.items() if k in ("ja", "en")}
            entry.clear()
            entry.update(clean)
        tidied.append((label, data))
    if n_cards > MAX_OWN_CARDS:
        problems.append(problem("too_many_cards", count=n_cards, limit=MAX_OWN_CARDS))
    fixed = sorted(own & set(adapter.fixed_ids))
    for ident in fixed:
        spot = next((w for (f, i), w in where.items() if i == ident), None)
        problems.append(Problem(spot.file if spot else None, spot.row if spot else None, ident, "id",
                                "cardcheck.fixed_card", {"id": ident}, entry=bool(spot and spot.entry)))
    base = adapter.base_files(mode, edition)
    merged = adapter.merge(base, tidied)
    cardset, found = adapter.validate(merged)
    errors += found
    # a card whose row was left out for a bad cell is not blamed again, nor is a deck naming it
    problems += [locate(e, where) for e in errors if not _about(e, dropped)]
    seen: set = set()
    unique = []
    for p in sorted(problems, key=Problem.sort_key):
        k = (p.file, p.row, p.card, p.field, p.key, json.dumps(p.params, sort_keys=True, default=str), p.detail)
        if k not in seen:
            seen.add(k)
            unique.append(p)
    counts = {"cards": n_cards, "decks": sum(1 for _l, d in tidied for s, _i, _e in adapter.own_items(d) if s == "decks"),
              "replaced": len(own & _ids(adapter, base))}
    if unique or cardset is None:
        return Built(None, None, unique, own, counts)
    content = SetContent(game, mode, edition, [list(f) for f in tidied],
                         wording, {k: sorted(v) for k, v in untranslated.items() if v})
    return Built(content, cardset, [], own, counts)


def _ids(adapter: Any, files: list[tuple[str, dict]]) -> set[str]:
    return {ident for _label, data in files for _s, ident, _e in adapter.own_items(data)}


@dataclass
class Opened:
    """A stored version made ready to use: its checked card set, the set's own ids, the entries."""

    content: SetContent
    cardset: Any
    own: set[str]


def open_content(content: SetContent) -> Opened:
    """A stored version's cards, validated again (a row is checked when read): ValueError when
    they no longer validate (a stored row changed by hand, or a game that changed its schema)."""
    adapter = games.adapter(content.game)
    if adapter is None:
        raise ValueError(f"card set of an unknown game {content.game!r}")
    own = set().union(*[_ids(adapter, [(label, data)]) for label, data in content.files]) if content.files else set()
    merged = adapter.merge(adapter.base_files(content.mode, content.base_edition),
                           [(label, data) for label, data in content.files])
    cardset, errors = adapter.validate(merged)
    if errors or cardset is None:
        raise ValueError("the stored card set no longer validates: " + "; ".join(str(e) for e in errors[:3]))
    return Opened(content, cardset, own)


__all__ = ["build_set", "open_content", "locate", "Built", "Opened", "SHIPPED"]
