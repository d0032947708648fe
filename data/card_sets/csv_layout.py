"""CSV column layouts: how a spreadsheet's rows become a game's card data, and back.

A game documents one :class:`Layout` per kind of card (``docs/card_sets.md`` and its game's
page): the columns, what each cell may hold, and where in the game's JSON card format (``docs/
cards.md``) the value goes.  Reading and writing use the same layout, so a set exported as CSV
reads back into the same cards.

- A cell kind (:class:`Cell`) parses a cell's text into a JSON value and writes it back;
  a bad cell raises :class:`CellError` with a catalog key (``cardcheck.<key>``) that says what
  is allowed instead.
- A :class:`Column` is a header name, the JSON path it fills (``name.ja``, ``damage``, ``range``)
  and its cell kind.  Two columns ``<x>_ja`` / ``<x>_en`` of one text are a pair: one of them is
  enough, the other shows the same words and the card records that it is untranslated.
- A :class:`Layout` is the columns of one kind of card, the section of the game's file its rows
  go to (``cards``, ``decks``, ``kings``, …), fields every row gets (``{"category": "IT"}``), and
  for rows that belong to another row (a Battle Logic Square AVI's abilities) the parent column.

The effects mini-language (:func:`calls`): ``draw 1; damage 30 if=hit_avi`` — effects separated
by ``;``, each a name then its parameters, in the documented order or as ``name=value``.

>>> eff = calls({"draw": [("count", integer(1, 5)), ("who", choice(("self", "opponent")))],
...              "push": [("distance", integer(1, 4))]}, tag="do", extra={"if": choice(("hit_avi",))})
>>> eff.parse("draw 2; push distance=1 if=hit_avi")
[{'do': 'draw', 'count': 2}, {'do': 'push', 'distance': 1, 'if': 'hit_avi'}]
>>> eff.write([{'do': 'draw', 'count': 2, 'who': 'opponent'}])
'draw 2 opponent'
>>> try:
...     eff.parse("drwa 2")
... except CellError as e:
...     print(e.key, e.params["name"])
unknown_effect drwa
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from data.card_sets.problems import Problem, problem
from data.card_sets.upload import MAX_PROBLEMS, Row, Upload

TRUE_WORDS = ("yes", "true", "1", "y", "o", "○", "はい", "true")
FALSE_WORDS = ("no", "false", "0", "n", "x", "×", "いいえ", "")


class CellError(Exception):
    """A cell that cannot be read: ``key`` (``cardcheck.<key>``) and ``params``; ``detail``: the
    part of the cell it is about (``effect 2 · count``)."""

    def __init__(self, key: str, detail: str | None = None, **params: Any) -> None:
        super().__init__(key)
        self.key, self.detail, self.params = key, detail, params


@dataclass(frozen=True)
class Cell:
    """A kind of cell: ``parse(text) -> JSON value`` (raises :class:`CellError`), ``write(value)
    -> cell``, and ``help``: what it may hold, ``{"en", "ja"}``, for the docs."""

    parse: Callable[[str], Any]
    write: Callable[[Any], Any]
    help: dict = field(default_factory=dict)


def _bilingual(en: str, ja: str) -> dict:
    return {"en": en, "ja": ja}


def integer(low: int, high: int) -> Cell:
    def parse(text: str) -> int:
        t = text.strip().replace("＋", "+").replace("−", "-").replace("－", "-")
        t = t.translate(str.maketrans("０１２３４５６７８９", "0123456789"))
        if not re.fullmatch(r"[+-]?\d{1,9}", t):
            raise CellError("cell_int", value=text[:30], low=low, high=high)
        value = int(t)
        if not low <= value <= high:
            raise CellError("int_range", value=value, low=low, high=high)
        return value
    return Cell(parse, lambda v: v, _bilingual(f"a whole number {low}–{high}", f"{low}〜{high}の整数"))


def choice(values: Iterable[str], aliases: dict[str, str] | None = None) -> Cell:
    values = tuple(values)
    table = {v.lower(): v for v in values}
    table.update({k.lower(): v for k, v in (aliases or {}).items()})

    def parse(text: str) -> str:
        value = table.get(text.strip().lower())
        if value is None:
            raise CellError("choice", value=text[:30], choices=list(values))
        return value
    return Cell(parse, lambda v: v, _bilingual("one of " + ", ".join(values), "次のいずれか：" + "、".join(values)))


def boolean() -> Cell:
    def parse(text: str) -> bool:
        t = text.strip().lower()
        if t in TRUE_WORDS:
            return True
        if t in FALSE_WORDS:
            return False
        raise CellError("cell_bool", value=text[:30])
    return Cell(parse, lambda v: "yes" if v else "no", _bilingual("yes or no", "yes か no"))


def text(limit: int) -> Cell:
    def parse(value: str) -> str:
        if len(value) > limit:
            raise CellError("too_long", limit=limit, length=len(value))
        if re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", value):
            raise CellError("control_chars")
        return value
    return Cell(parse, lambda v: v, _bilingual(f"text, at most {limit} characters", f"{limit}文字以内の文字列"))


def _split_words(value: str) -> list[str]:
    return [w for w in re.split(r"[\s,、，/]+", value.strip()) if w]


def words(choices: Iterable[str] | None = None, *, most: int | None = None, low: bool = True) -> Cell:
    """A list of words separated by spaces, commas or slashes; each one of ``choices`` if given."""
    allowed = tuple(choices) if choices is not None else None

    def parse(value: str) -> list[str]:
        out = []
        for w in _split_words(value):
            w = w.lower() if low else w
            if allowed is not None and w not in allowed:
                raise CellError("choice", value=w[:30], choices=list(allowed))
            out.append(w)
        if most is not None and len(out) > most:
            raise CellError("cell_too_many", count=len(out), limit=most)
        return out
    hint = ("words separated by spaces" + (": " + ", ".join(allowed) if allowed else ""),
            "空白区切りの語" + ("：" + "、".join(allowed) if allowed else ""))
    return Cell(parse, lambda v: " ".join(v), _bilingual(*hint))


_COUNT_RE = re.compile(r"^([a-z0-9_]+)(?:\*(\d{1,3}))?$")


def counts(*, most: int = 99) -> Cell:
    """Card ids with copies: ``ac01*3 ac02*2 ac05`` (also ``ac01 x3``, ``ac01:3``; ``;``, ``,`` or
    a line break between them) → ``{"ac01": 3, "ac02": 2, "ac05": 1}``."""
    def parse(value: str) -> dict[str, int]:
        out: dict[str, int] = {}
        t = value.strip().lower().replace("＊", "*").replace("　", " ")
        # ac01*3, ac01:3, ac01×3 and ac01 x3 all mean 3 copies (an "x" only after a space: an id
        # may end in x2)
        t = re.sub(r"\s*[*×:]\s*(\d)", r"*\1", t)
        t = re.sub(r"\s+x\s*(\d)", r"*\1", t)
        for part in [p for p in re.split(r"[;,\n、]+|\s+(?=[a-z])", t) if p.strip()]:
            m = _COUNT_RE.match(part.strip())
            if not m:
                raise CellError("cell_counts", value=part.strip()[:30])
            cid, n = m.group(1), int(m.group(2) or 1)
            if not 1 <= n <= most:
                raise CellError("int_range", detail=cid, value=n, low=1, high=most)
            out[cid] = out.get(cid, 0) + n
        return out

    def write(value: Any) -> str:
        if isinstance(value, list):           # a plain list of ids, repeats for copies
            tally: dict[str, int] = {}
            for cid in value:
                tally[cid] = tally.get(cid, 0) + 1
            value = tally
        return " ".join(cid if n == 1 else f"{cid}*{n}" for cid, n in value.items())
    return Cell(parse, write, _bilingual("card ids with copies: ac01*3 ac02*2 ac05",
                                         "カードIDと枚数：ac01*3 ac02*2 ac05"))


def ids() -> Cell:
    """A list of ids (no copies): ``it01 it05 it08``."""
    def parse(value: str) -> list[str]:
        out = [w.lower() for w in _split_words(value)]
        for w in out:
            if not re.fullmatch(r"[a-z][a-z0-9_]*", w):
                raise CellError("cell_id", value=w[:30])
        return out
    return Cell(parse, lambda v: " ".join(v), _bilingual("ids separated by spaces", "空白区切りのID"))


def json_cell() -> Cell:
    """A JSON value inside a cell, for a structure a spreadsheet has no simpler spelling of."""
    def parse(value: str) -> Any:
        try:
            return json.loads(value)
        except json.JSONDecodeError as exc:
            raise CellError("cell_json", col=exc.colno, why=exc.msg) from None
    return Cell(parse, lambda v: json.dumps(v, ensure_ascii=False, separators=(",", ":")),
                _bilingual("JSON", "JSON"))


def calls(table: dict[str, list[tuple[str, Cell]]], *, tag: str = "do",
          extra: dict[str, Cell] | None = None, most: int = 9) -> Cell:
    """Effects (or modifiers, conditions) as text: ``name p1 p2 key=value; name2 …``.

    ``table``: name → its parameters in order (each a (JSON key, cell kind)); ``tag``: the JSON
    key that holds the name (``do``, ``mod``, ``when``); ``extra``: keys any entry may add as
    ``key=value`` (``if=hit_avi``).  Parameters left out take the game's defaults.  Written back
    positionally up to the last parameter given."""
    extra = extra or {}

    def parse(value: str) -> list[dict]:
        out = []
        parts = [p.strip() for p in re.split(r"[;；\n]+", value) if p.strip()]
        if len(parts) > most:
            raise CellError("cell_too_many", count=len(parts), limit=most)
        for k, part in enumerate(parts, 1):
            tokens = part.replace("＝", "=").split()
            name = tokens[0].lower()
            if name not in table:
                raise CellError("unknown_effect", detail=f"#{k}", name=name[:30], known=list(table))
            params = table[name]
            entry: dict[str, Any] = {tag: name}
            positional = 0
            for tok in tokens[1:]:
                if "=" in tok:
                    key, _, raw = tok.partition("=")
                    key = key.lower()
                    cell = dict(params).get(key) or extra.get(key)
                    if cell is None:
                        allowed = [p for p, _ in params] + list(extra)
                        raise CellError("unknown_param", detail=f"#{k} {name}", name=key[:30], known=allowed)
                else:
                    if positional >= len(params):
                        raise CellError("too_many_params", detail=f"#{k} {name}", name=name,
                                        count=len(params), known=[p for p, _ in params])
                    key, cell = params[positional]
                    raw = tok
                    positional += 1
                try:
                    entry[key] = cell.parse(raw)
                except CellError as exc:
                    exc.detail = f"#{k} {name} · {key}"
                    raise
            out.append(entry)
        return out

    def write(value: Any) -> str:
        parts = []
        for entry in value or []:
            name = entry.get(tag)
            params = table.get(name, [])
            given = [p for p, _ in params]
            last = max([i for i, p in enumerate(given) if p in entry] or [-1])
            tokens = [str(name)]
            for i, (p, cell) in enumerate(params):
                if i > last:
                    break
                if p in entry:
                    tokens.append(str(cell.write(entry[p])))
                else:       # a gap before a later parameter: name the later ones
                    for q, c in params[i:]:
                        if q in entry:
                            tokens.append(f"{q}={c.write(entry[q])}")
                    break
            for key, cell in extra.items():
                if key in entry:
                    tokens.append(f"{key}={cell.write(entry[key])}")
            for key in entry:
                if key != tag and key not in given and key not in extra:
                    tokens.append(f"{key}={json.dumps(entry[key], ensure_ascii=False)}")
            parts.append(" ".join(tokens))
        return "; ".join(parts)
    names = ", ".join(table)
    return Cell(parse, write, _bilingual(f"{names}; separated by ;", f"{names}（;区切り）"))


@dataclass(frozen=True)
class Column:
    """``name``: the header; ``path``: where the value goes in the row's entry (dots for nested
    objects: ``awakening.life``; ``name.ja``); ``pair``: the shared base of a ``_ja``/``_en``
    pair (``name``) — one of the two is enough."""

    name: str
    path: str
    cell: Cell
    required: bool = False
    pair: str | None = None
    help: dict = field(default_factory=dict)


def bilingual(base: str, path: str, limit: int, *, required: bool = False) -> tuple[Column, Column]:
    """The ``<base>_ja`` and ``<base>_en`` columns of a text in both languages."""
    return (Column(f"{base}_ja", f"{path}.ja", text(limit), required, pair=base),
            Column(f"{base}_en", f"{path}.en", text(limit), required, pair=base))


@dataclass(frozen=True)
class Layout:
    """The columns of one kind of card and where its rows go (see the module docstring).

    ``section``: the key of the game's file its entries are listed under; ``keyed``: that section
    is an object id → entry (the id column leaves the entry) instead of a list; ``constant``:
    fields every entry gets; ``match``: which entries of the section are this layout's (for
    writing); ``parent``: ``(column, parent layout kind, list field)`` for rows that belong to
    another row (appended to that entry's list field in row order)."""

    kind: str
    title: dict
    columns: tuple[Column, ...]
    section: str
    id_column: str = "id"
    keyed: bool = False
    constant: dict = field(default_factory=dict)
    match: dict = field(default_factory=dict)
    parent: tuple[str, str, str] | None = None
    example: str = ""

    @property
    def names(self) -> list[str]:
        return [c.name for c in self.columns]

    def required(self) -> set[str]:
        return {c.name for c in self.columns if c.required and c.pair is None}

    def matches(self, entry: dict) -> bool:
        return all(entry.get(k) in (v if isinstance(v, tuple) else (v,)) for k, v in self.match.items())


def set_path(entry: dict, path: str, value: Any) -> None:
    keys = path.split(".")
    node = entry
    for k in keys[:-1]:
        node = node.setdefault(k, {})
    node[keys[-1]] = value


def get_path(entry: Any, path: str) -> Any:
    node = entry
    for k in path.split("."):
        if not isinstance(node, dict) or k not in node:
            return None
        node = node[k]
    return node


def detect(upload: Upload, layouts: Iterable[Layout]) -> tuple[Layout | None, Problem | None]:
    """The layout a CSV's header names, or the problem saying why none fits."""
    header = set(upload.header)
    fits = []
    for lay in layouts:
        pairs = {c.pair for c in lay.columns if c.pair and c.required}
        if lay.required() <= header and all({f"{p}_ja", f"{p}_en"} & header for p in pairs):
            fits.append(lay)
    exact = [lay for lay in fits if header <= set(lay.names)]
    if len(exact) == 1:
        return exact[0], None
    if len(exact) > 1:       # the one asking most of the header (a layout of fewer columns is a subset)
        best = max(exact, key=lambda lay: len(lay.required()))
        return best, None
    if fits:
        lay = max(fits, key=lambda f: len(header & set(f.names)))
        unknown = sorted(header - set(lay.names))
        return None, Problem(upload.name, 1, None, unknown[0], "cardcheck.csv_unknown_columns",
                             {"columns": unknown, "layout": lay.title, "known": lay.names}, column=True)
    return None, Problem(upload.name, 1, None, None, "cardcheck.csv_layout",
                         {"layouts": [f"{lay.title['en']} ({', '.join(sorted(lay.required()))})" for lay in layouts]})


@dataclass
class ReadRows:
    """What :func:`read_rows` made of one CSV: the entries (each with the line it came from),
    the problems, and which texts were given in one language only (``(entry, path, lang)``:
    shown in the other language's words and marked untranslated)."""

    entries: list[tuple[int, dict]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    untranslated: list[tuple[dict, str, str]] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)      # ids of the rows left out for a bad cell


def read_rows(upload: Upload, layout: Layout) -> ReadRows:
    """Every row of ``upload`` as an entry of ``layout`` (cells parsed; every bad cell reported,
    up to :data:`data.card_sets.upload.MAX_PROBLEMS` of them: then one saying there are more,
    and the rows after are not read)."""
    out = ReadRows()
    cols = {c.name: c for c in layout.columns}
    pairs = sorted({c.pair for c in layout.columns if c.pair})
    for row in upload.rows:
        if len(out.problems) >= MAX_PROBLEMS:
            out.problems.append(problem("more_problems", upload.name, row.line, limit=MAX_PROBLEMS))
            break
        entry: dict[str, Any] = json.loads(json.dumps(layout.constant))
        card = row.cells.get(layout.id_column, "").strip().lower() or None
        if layout.parent is not None:
            card = row.cells.get(layout.parent[0], "").strip().lower() or card
        bad = False
        for name, raw in row.cells.items():
            col = cols.get(name)
            if col is None:
                continue
            if raw == "":
                if col.required and col.pair is None:
                    out.problems.append(Problem(upload.name, row.line, card, name, "cardcheck.required", {},
                                                column=True))
                    bad = True
                continue
            try:
                value = col.cell.parse(raw)
            except CellError as exc:
                out.problems.append(Problem(upload.name, row.line, card, name, f"cardcheck.{exc.key}",
                                            exc.params, column=True, detail=exc.detail))
                bad = True
                continue
            if name == layout.id_column and isinstance(value, str):
                value = value.lower()
            set_path(entry, col.path, value)
        for base in pairs:
            ja, en = cols[f"{base}_ja"], cols[f"{base}_en"]
            got_ja, got_en = get_path(entry, ja.path), get_path(entry, en.path)
            if got_ja is None and got_en is None:
                if ja.required:
                    out.problems.append(Problem(upload.name, row.line, card, f"{base}_ja", "cardcheck.required_pair",
                                                {"ja": f"{base}_ja", "en": f"{base}_en"}, column=True))
                    bad = True
                continue
            if got_ja is None:
                set_path(entry, ja.path, got_en)
                out.untranslated.append((entry, ja.path.rsplit(".", 1)[0], "ja"))
            elif got_en is None:
                set_path(entry, en.path, got_ja)
                out.untranslated.append((entry, en.path.rsplit(".", 1)[0], "en"))
        if not bad:
            out.entries.append((row.line, entry))
        elif card:
            out.dropped.append(card)
    return out


def write_rows(layout: Layout, entries: Iterable[dict]) -> tuple[list[str], list[list[Any]]]:
    """The header and rows of ``entries`` in ``layout`` (the inverse of :func:`read_rows`)."""
    header = layout.names
    rows = []
    for entry in entries:
        row = []
        for col in layout.columns:
            value = get_path(entry, col.path)
            row.append(None if value is None else col.cell.write(value))
        rows.append(row)
    return header, rows


__all__ = ["Cell", "CellError", "Column", "Layout", "ReadRows", "bilingual", "boolean", "calls", "choice",
           "counts", "detect", "get_path", "ids", "integer", "json_cell", "read_rows", "set_path", "text",
           "words", "write_rows", "Row"]
