"""From uploaded files to a checked set: every problem at once, each naming where it is.

    built = build_set("logic_square", uploads, "extend")     # uploads: data.card_sets.upload.read_upload
    built.problems          # [] when the set is valid; else every problem, sorted by file and row
    built.content           # the SetContent to store (None unless the whole set is valid)

The steps, all of them run whatever an earlier one found (but a count past its limit), so one
upload reports everything:

1. each JSON file is the game's own card format (``docs/cards.md``); each CSV file is read with
   the layout its header names (:func:`data.card_sets.csv_layout.detect`), its rows turned into
   entries of that format; rows that belong to another row (abilities) join their parent;
2. the set's cards, decks and other entries are counted as each file is read (at most
   :data:`MAX_OWN_CARDS` cards, :data:`MAX_DECKS` decks, :data:`MAX_ENTRIES` entries of any
   other section, such as Battle Logic Square's types): past a limit the upload is refused at
   once, before anything else is checked (issue 45: 30,000 stub cards cost no more than reading
   them);
3. what an upload may not hold is refused (the game's ``upload_rules``: an ``editions`` block or
   a rules patch, a section the game does not know); every text of the set's files is checked
   (:func:`text_problem`: no control or text-direction character anywhere but a line break in a
   long text, no invisible character in a name) and then made unable to mention anyone
   (:func:`neutral`); texts are held to their limits; a text given in one language only shows
   the same words in the other and is recorded as untranslated; a card's own ``wording``
   (games whose texts are generated) is set aside for display;
4. the set's own cards are merged onto the shipped cards of the newest edition (``extend``: an
   own card replaces a shipped one with its id) or stand alone;
5. the game's schema validates the whole, collecting every problem; each is located back: the
   CSV line (or JSON entry number) of its card or deck, and the CSV column its field came from;
6. a JSON file's ``limited`` key, the set's limited declaration, is set aside as the file is read
   and checked against the whole set (:func:`data.card_sets.limited.check`: its ids are cards of
   the set of a kind limited play deals, its boosters can be filled); a valid one is stored as a
   file of its own, ``limited.json``, in its checked form (so it names the version too).

Every step is linear in what was uploaded (entries are numbered, parents and problems located
through indexes built once), and at most :data:`MAX_REPORTED` problems are reported.
"""
from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from data import i18n
from data.card_sets import games
from data.card_sets import limited as lim
from data.card_sets.csv_layout import Layout, detect, read_rows
from data.card_sets.model import MAX_OWN_CARDS, MODES, NAME_LIMIT, TEXT_LIMIT, SetContent
from data.card_sets.problems import Problem, problem
from data.card_sets.upload import MAX_PROBLEMS, Upload
from rules.card_errors import CardDataError

SHIPPED = "shipped/"            # the label prefix of the shipped files an ``extend`` set builds on
LIMITED_FILE = "limited.json"   # the stored file of a set's limited declaration
MAX_DECKS = 100                 # ready-made decks of one set
MAX_ENTRIES = 100               # entries of any other section of a set (Battle Logic Square's types)
MAX_REPORTED = 5 * MAX_PROBLEMS  # problems reported for one upload (then one saying there are more)
# a text's characters that no text may hold: controls (a line break is a long text's own) and
# the characters that turn the direction of the text around it
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_NAME_REFUSED = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})     # and in a name: anything invisible too
_PLAIN = re.compile(r"[ -~\u3000-\u30ff\u4e00-\u9fff\uff01-\uff9f]*")   # a text that needs no closer look


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
    limited: lim.Limited | None = None      # the set's limited declaration, when it has one

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


def locate(err: CardDataError, where: dict[tuple[str, str], _Where],
           by_id: dict[str, _Where] | None = None) -> Problem:
    """``err`` as a :class:`Problem`, located by ``where`` (see the module docstring);
    ``by_id``: the set's own spots by card id alone (:func:`_by_id`, built once for many)."""
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
        spot = (by_id if by_id is not None else _by_id(where)).get(ident)
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


def _by_id(where: dict[tuple[str, str], _Where]) -> dict[str, _Where]:
    """The set's own spots by card id alone (the first file that has it; shipped files left out)."""
    out: dict[str, _Where] = {}
    for (f, i), w in where.items():
        if not f.startswith(SHIPPED):
            out.setdefault(i, w)
    return out


def _about(err: CardDataError, ids: set[str]) -> bool:
    """Is ``err`` about one of ``ids`` (its card, or a card its params name)?"""
    if not ids:
        return False
    if _card_id(err.card) in ids:
        return True
    values = [v for v in (err.params or {}).values()]
    flat = [x for v in values for x in (v if isinstance(v, (list, tuple)) else [v])]
    return any(isinstance(x, str) and x in ids for x in flat)


# --------------------------------------------------------------------------- texts

_MENTION = re.compile(r"@(?=everyone|here)|<(?=[@#])", re.IGNORECASE)
_MARK = re.compile(r"(?<=@)\u200b(?=everyone|here)|(?<=<)\u200b(?=[@#])", re.IGNORECASE)


def neutral(text: str) -> str:
    """A set's text that can never mention anyone in a Discord message: ``@everyone``, ``@here``
    and the ``<@…>`` (a member, ``<@&…>`` a role) / ``<#…>`` forms get an invisible zero-width
    space after their ``@`` / ``<`` (the words still read the same, on a card and in the thread).

    >>> neutral("@everyone <@123> <@&45>") == "@\u200beveryone <\u200b@123> <\u200b@&45>"
    True
    """
    return _MENTION.sub(lambda m: m.group(0) + "\u200b", text)


def designed(text: str) -> str:
    """The text as its designer wrote it: without the marks :func:`neutral` put in (a set
    exported and uploaded again is checked, and stored, as it was the first time).

    >>> designed(neutral("@here <#1>")) == "@here <#1>"
    True
    """
    return _MARK.sub("", text) if "\u200b" in text else text


def text_problem(text: str, name: bool = False) -> str | None:
    """The first character ``text`` may not hold, as ``U+XXXX`` (None: it may hold them all).
    No text holds a control character (but a long text's line break ``\\n``), a character that
    turns the text's direction (U+202A–U+202E, U+2066–U+2069, U+200E/U+200F, U+061C) or a lone
    surrogate; a ``name`` holds nothing invisible either (Unicode's format characters: zero-width
    spaces and joiners, the soft hyphen, the byte-order mark…, and line separators).

    >>> text_problem("Owl King"), text_problem("Owl\\u202eKing"), text_problem("a\\nb"), text_problem("a\\nb", True)
    (None, 'U+202E', None, 'U+000A')
    >>> text_problem("Owl\\u200bKing"), text_problem("Owl\\u200bKing", name=True)
    (None, 'U+200B')
    """
    if _PLAIN.fullmatch(text):
        return None
    for ch in text:
        if ch in _BIDI:
            return f"U+{ord(ch):04X}"
        cat = unicodedata.category(ch)
        if (cat in _NAME_REFUSED) if name else (cat == "Cs" or (cat == "Cc" and ch != "\n")):
            return f"U+{ord(ch):04X}"
    return None


def _is_name(path: str) -> bool:
    """A name's field (``name``, ``abilities[0].name``): every other text is a long one."""
    return path.endswith("name")


def _checked(text: str, name: bool, report) -> str:
    """One text of the set: its designer's words checked (``report(key, char)`` for a character
    it may not hold), then neutralised."""
    text = designed(text)
    bad = text_problem(text, name)
    if bad is not None:
        report("name_chars" if name else "text_chars", bad)
    return neutral(text)


def _is_text_object(value: Any) -> bool:
    return bool(value) and set(value) <= {"ja", "en"} and all(isinstance(v, str) for v in value.values())


def _tidy(entry: dict, ident: str, file: str, untranslated: dict, out: list[CardDataError]) -> dict:
    """One own entry's texts: every string checked and neutralised (:func:`_checked`); each
    ``{"ja", "en"}`` text in both languages (the missing one from the other, marked), within
    its limit."""
    def report(path: str):
        def say(key: str, char: str) -> None:
            out.append(CardDataError(file, ident, path, f"holds the character {char}", key=key, char=char))
        return say

    def text_object(obj: dict, path: str) -> dict:
        obj = dict(obj)
        given = [lang for lang in ("ja", "en") if obj.get(lang, "").strip()]
        if len(given) == 1:
            other = "en" if given[0] == "ja" else "ja"
            obj[other] = obj[given[0]]
            untranslated.setdefault(ident, set()).add(f"{path}:{other}")
        name = _is_name(path)
        limit = NAME_LIMIT if name else TEXT_LIMIT
        for lang in ("ja", "en"):
            text = obj.get(lang)
            if not isinstance(text, str):
                continue
            before = len(out)
            obj[lang] = text = _checked(text, name, report(f"{path}.{lang}"))
            if len(out) == before and len(text) > limit:
                out.append(CardDataError(file, ident, f"{path}.{lang}", f"is longer than {limit} characters",
                                         key="too_long", limit=limit, length=len(text)))
        return obj

    def walk(value: Any, path: str) -> Any:
        if isinstance(value, dict):
            if _is_text_object(value):
                return text_object(value, path)
            return {k: walk(v, f"{path}.{k}" if path else k) for k, v in value.items()}
        if isinstance(value, list):
            return [walk(v, f"{path}[{i}]") for i, v in enumerate(value)]
        if isinstance(value, str):
            return _checked(value, _is_name(path), report(path))
        return value
    return walk(entry, "")


def _tidy_rest(data: dict, label: str, own: set[int], where: dict, out: list[CardDataError]) -> dict:
    """The texts of a file outside its own cards and decks (``own``: their ``id()``), checked and
    neutralised like theirs: a ``comment``, and a section of names by id (Battle Logic Square's
    ``types``: each ``{"ja", "en"}`` a name, its problem named by the type's row when a CSV gave it)."""
    def walk(value: Any, path: str, name: bool, card: str | None) -> Any:
        if id(value) in own:
            return value
        if isinstance(value, dict):         # in place: the file is build_set's own copy
            for k, v in value.items():
                value[k] = walk(v, f"{path}.{k}", name, card)
            return value
        if isinstance(value, list):
            for i, v in enumerate(value):
                value[i] = walk(v, f"{path}[{i}]", name, card)
            return value
        if isinstance(value, str):
            def say(key: str, char: str) -> None:
                lang = path.rsplit(".", 1)[-1]
                out.append(CardDataError(label, card, lang if card else path, f"holds the character {char}",
                                         key=key, char=char))
            return _checked(value, name, say)
        return value

    for section, value in data.items():
        if isinstance(value, dict) and value and all(isinstance(v, dict) and _is_text_object(v) and id(v) not in own
                                                    for v in value.values()):
            for k, v in value.items():
                value[k] = walk(v, f"{section}.{k}", True, k if (label, k) in where else None)
        else:
            data[section] = walk(value, str(section), _is_name(str(section)), None)
    return data


# --------------------------------------------------------------------------- counting

@dataclass
class _Counts:
    """What the upload's files hold so far: cards, decks, entries of other sections."""

    cards: int = 0
    decks: int = 0
    other: dict = field(default_factory=dict)

    def add(self, adapter: Any, label: str, data: dict) -> Problem | None:
        """Count one file's entries (a list's or object's length: a stub counts as a card too);
        the problem of the first limit passed, or None."""
        kinds = _sections(adapter)
        for section, value in data.items():
            if not isinstance(value, (list, dict)) or section not in kinds:
                continue
            if kinds[section] == "decks":
                self.decks += len(value)
            elif kinds[section] == "cards":
                self.cards += len(value)
            else:
                self.other[section] = self.other.get(section, 0) + len(value)
        if self.cards > MAX_OWN_CARDS:
            return problem("too_many_cards", label, count=self.cards, limit=MAX_OWN_CARDS)
        if self.decks > MAX_DECKS:
            return problem("too_many_decks", label, count=self.decks, limit=MAX_DECKS)
        for section, n in self.other.items():
            if n > MAX_ENTRIES:
                return problem("too_many_entries", label, None, None, section, section=section, count=n,
                               limit=MAX_ENTRIES)
        return None


def _sections(adapter: Any) -> dict[str, str]:
    """The sections a game's file lists its entries in: ``decks``; ``other`` for a section of
    names by id (Battle Logic Square's ``types``); ``cards`` for the rest (every layout's
    section, and Art of War's ``units``)."""
    out = {lay.section: "decks" if lay.section == "decks" else "other" if lay.keyed else "cards"
           for lay in adapter.layouts if lay.parent is None}
    out.setdefault("units", "cards")
    return out


def _numbers(data: dict) -> dict[int, int]:
    """Each entry of each section of a JSON file (by ``id()``) → its number in its section, from 1."""
    out: dict[int, int] = {}
    for value in data.values():
        if isinstance(value, list):
            for i, entry in enumerate(value, 1):
                out.setdefault(id(entry), i)
        elif isinstance(value, dict):
            for i, entry in enumerate(value.values(), 1):
                out.setdefault(id(entry), i)
    return out


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
    if not uploads and problems:        # nothing could be read: what reading found is all there is to say
        return Built(None, problems=sorted(problems, key=Problem.sort_key)[:MAX_REPORTED])
    edition = base_edition if base_edition is not None else adapter.newest_edition()
    where: dict[tuple[str, str], _Where] = {}
    files: list[tuple[str, dict]] = []
    errors: list[CardDataError] = []
    children: list[tuple[str, int, Layout, dict]] = []      # (file, line, layout, entry) to attach
    untranslated: dict[str, set] = {}          # card id -> "path:lang" of texts given in one language
    one_language: dict[int, list[str]] = {}    # a CSV entry (by id()) -> its texts given in one language
    dropped: set[str] = set()                  # rows left out for a bad cell (reported already)
    declared: list[tuple[str, Any]] = []       # (file, value) of each ``limited`` key
    tally = _Counts()

    def order(up: Upload) -> tuple:
        """JSON files first, then CSVs in the layouts' order: how the files were named or packed
        makes no other version."""
        if up.kind == "json":
            return (0, 0, up.name)
        lay, _bad = detect(up, adapter.layouts)
        return (1, adapter.layouts.index(lay) if lay is not None else len(adapter.layouts), up.name)

    def refused(too_many: Problem) -> Built:
        """Past a count's limit: the upload is refused at once (nothing more is checked)."""
        return Built(None, None, sorted(problems + [too_many], key=Problem.sort_key)[:MAX_REPORTED])

    for up in sorted(uploads, key=order):
        if up.kind == "json":
            data = up.data
            if not isinstance(data, dict):
                problems.append(problem("json_object", up.name))
                continue
            too_many = tally.add(adapter, up.name, data)
            if too_many is not None:
                return refused(too_many)
            errors += adapter.upload_rules(up.name, data)
            if lim.LIMITED in data:         # checked against the whole set below, stored on its own
                declared.append((up.name, data[lim.LIMITED]))
                data = {k: v for k, v in data.items() if k != lim.LIMITED}
            numbers = _numbers(data)
            for _section, ident, entry in adapter.own_items(data):
                where.setdefault((up.name, ident), _Where(up.name, numbers.get(id(entry)), True))
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
        too_many = tally.add(adapter, up.name, data)
        if too_many is not None:
            return refused(too_many)
        files.append((up.name, data))
    # children (an AVI's abilities) join their parent, wherever in the upload it is
    parents: dict[str, tuple[dict, str]] = {}
    for label, data in files:
        for _section, ident, item in adapter.own_items(data):
            parents.setdefault(ident, (item, label))
    for file, line, layout, entry in children:
        column, parent_kind, list_field = layout.parent
        pid = entry.pop(column, None)
        parent, parent_label = parents.get(pid, (None, None)) if isinstance(pid, str) else (None, None)
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
    # texts: checked and neutralised, both languages, limits; wording set aside; untranslated recorded
    wording: dict[str, dict] = {}
    own: set[str] = set()
    tidied: list[tuple[str, dict]] = []
    n_cards = 0
    for label, data in files:
        data = json.loads(json.dumps(data))
        mine: set[int] = set()
        for section, ident, entry in adapter.own_items(data):
            own.add(ident)
            mine.add(id(entry))
            if section != "decks":
                n_cards += 1
            clean = _tidy(entry, ident, label, untranslated, errors)
            words = clean.pop("wording", None)
            if isinstance(words, dict) and words:
                wording[ident] = {k: str(v) for k, v in words.items() if k in ("ja", "en")}
            entry.clear()
            entry.update(clean)
        tidied.append((label, _tidy_rest(data, label, mine, where, errors)))
    if n_cards > MAX_OWN_CARDS:
        problems.append(problem("too_many_cards", count=n_cards, limit=MAX_OWN_CARDS))
    by_id = _by_id(where)
    fixed = sorted(own & set(adapter.fixed_ids))
    for ident in fixed:
        spot = by_id.get(ident)
        problems.append(Problem(spot.file if spot else None, spot.row if spot else None, ident, "id",
                                "cardcheck.fixed_card", {"id": ident}, entry=bool(spot and spot.entry)))
    base = adapter.base_files(mode, edition)
    merged = adapter.merge(base, tidied)
    cardset, found = adapter.validate(merged)
    errors += found
    kinds = adapter.card_kinds(cardset) if declared and cardset is not None else None
    declaration, found = lim.check(game, declared, kinds)
    errors += found
    # a card whose row was left out for a bad cell is not blamed again, nor is a deck naming it
    problems += [locate(e, where, by_id) for e in errors if not _about(e, dropped)]
    seen: set = set()
    unique = []
    for p in sorted(problems, key=Problem.sort_key):
        k = (p.file, p.row, p.card, p.field, p.key, json.dumps(p.params, sort_keys=True, default=str), p.detail)
        if k not in seen:
            seen.add(k)
            unique.append(p)
    if len(unique) > MAX_REPORTED:
        unique = unique[:MAX_REPORTED] + [problem("more_problems", unique[MAX_REPORTED].file, limit=MAX_REPORTED)]
    counts = {"cards": n_cards, "decks": sum(1 for _l, d in tidied for s, _i, _e in adapter.own_items(d) if s == "decks"),
              "replaced": len(own & _ids(adapter, base))}
    if unique or cardset is None:
        return Built(None, None, unique, own, counts)
    declared_file = [[LIMITED_FILE, {lim.LIMITED: declaration.to_json()}]] \
        if declaration is not None and declaration.to_json() else []
    content = SetContent(game, mode, edition, [list(f) for f in tidied] + declared_file,
                         wording, {k: sorted(v) for k, v in untranslated.items() if v})
    if any(up.kind == "json" for up in uploads):    # stored as its CSV export reads back (export.as_csv)
        from data.card_sets.export import as_csv

        files, read = as_csv(content)
        again = build_set(game, files, mode, read_problems=read, base_edition=edition)
        if again.ok and again.content is not None:   # a CSV holds no declaration: it is the set's all the same
            content, cardset = again.content, again.cardset
            content.files += declared_file
    return Built(content, cardset, [], own, counts, declaration)


def _ids(adapter: Any, files: list[tuple[str, dict]]) -> set[str]:
    return {ident for _label, data in files for _s, ident, _e in adapter.own_items(data)}


@dataclass
class Opened:
    """A stored version made ready to use: its checked card set, the set's own ids, its limited
    declaration (None: it has none)."""

    content: SetContent
    cardset: Any
    own: set[str]
    limited: lim.Limited | None = None


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
    declared = [(str(label), data[lim.LIMITED]) for label, data in content.files
                if isinstance(data, dict) and lim.LIMITED in data]
    declaration, errors = lim.check(content.game, declared, adapter.card_kinds(cardset) if declared else None)
    if errors:
        raise ValueError("the stored limited declaration no longer fits: " + "; ".join(str(e) for e in errors[:3]))
    return Opened(content, cardset, own, declaration)


__all__ = ["build_set", "open_content", "locate", "Built", "Opened", "SHIPPED", "LIMITED_FILE"]
