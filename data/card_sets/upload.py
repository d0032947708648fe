"""Reading an uploaded attachment into card files: a JSON file, a CSV file or a zip of several.

Nothing here knows a game: it turns bytes into :class:`Upload` files (parsed JSON, or a CSV's
rows with their line numbers) and reports what cannot be read as :class:`Problem` s, never
raising on bad input.  Every limit is checked as early as the data allows, so the work and the
memory of one upload grow no faster than the bytes received (issue 45: a hostile upload can
neither stall nor bloat the bot).  The limits (``docs/card_sets.md``, "Limits and safety"):

- one file at most :data:`MAX_FILE` bytes (512 KiB); a zip at most :data:`MAX_FILES` files
  (:data:`MAX_ZIP_ENTRIES` entries in its directory) and :data:`MAX_UNPACKED` bytes unpacked
  (2 MiB); each member is unpacked here with a bounded decoder (stored, deflate, bzip2, LZMA:
  an LZMA dictionary is never larger than the member may be), its CRC checked, and any damage
  answered as ``zip_member_bad``, so a zip that lies about its sizes or is corrupt cannot blow
  up in memory nor crash the reader;
- plain file names only: no folders, no ``..``, no hidden files, ``.json`` or ``.csv``;
- UTF-8, with or without a byte-order mark; anything else is refused naming the line;
- a CSV with a NUL byte, an unterminated quote, a header wider than :data:`MAX_COLUMNS`
  (refused before any row is read), more than :data:`MAX_ROWS` rows, or more than
  :data:`MAX_TOTAL_ROWS` rows in all the files of the upload, is refused;
- JSON without ``NaN``/``Infinity``, numbers of at most :data:`MAX_DIGITS` digits, nested at
  most :data:`MAX_JSON_DEPTH` deep, no key twice in one object, at most :data:`MAX_JSON_KEYS`
  keys in one object and :data:`MAX_JSON_VALUES` values in all the files of the upload (once
  they are spent, the upload's other JSON files are not even parsed);
- every text (each JSON string and key, each CSV cell) is NFC; a JSON string holding a lone
  UTF-16 surrogate (``"\\ud800"``) is refused naming its field, before anything is hashed;
- a file reports at most :data:`MAX_PROBLEMS` problems (then one saying there are more).

>>> files, problems = read_upload("set.csv", "id,name_ja\\r\\nab,あ\\r\\n".encode("utf-8-sig"))
>>> files[0].kind, files[0].header, files[0].rows[0].line, problems
('csv', ['id', 'name_ja'], 2, [])
>>> files, problems = read_upload("set.json", b'{"cards": [1,')
>>> problems[0].key, problems[0].params["line"]
('cardcheck.json', 1)
>>> [(p.key, p.field) for p in read_upload("set.json", b'{"cards": [{"id": "a\\\\ud800"}]}')[1]]
[('cardcheck.surrogate', 'cards[0].id')]
"""
from __future__ import annotations

import bz2
import csv
import io
import itertools
import json
import lzma
import re
import struct
import unicodedata
import zipfile
import zlib
from dataclasses import dataclass, field
from typing import Any

from data.card_sets.problems import Problem, problem

MAX_FILE = 512 * 1024
MAX_UNPACKED = 2 * 1024 * 1024
MAX_FILES = 20
MAX_ZIP_ENTRIES = 200         # entries of a zip's directory: its files, folders and a Mac's forks
MAX_ROWS = 2_000              # rows of one CSV file
MAX_TOTAL_ROWS = 5_000        # rows of all the CSV files of one upload
MAX_COLUMNS = 64              # cells of a CSV header (the widest layout of any game has 24 columns)
MAX_CELL = 2_000              # characters in one CSV cell (text fields have their own, smaller limits)
MAX_JSON_DEPTH = 32
MAX_JSON_VALUES = 50_000      # objects, lists, texts and numbers of all the JSON files of one upload
                              # (a 500-card set holds 8,000–14,000)
MAX_JSON_KEYS = 200           # keys of one JSON object (a set's decks or types by id: at most 100)
MAX_DIGITS = 15               # digits of a JSON number (a card's numbers are small)
MAX_PROBLEMS = 200            # problems reported for one file (then one that says there are more)
LZMA_DICT = 1024 * 1024       # the largest LZMA dictionary a member needs: it unpacks to at most MAX_FILE
_NAME_RE = re.compile(r"^[^\x00-\x1f/\\:*?\"<>|]{1,100}$")
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def _shown(text: str, limit: int = 200) -> str:
    """A key or path as a problem names it: short, a lone surrogate shown as U+FFFD (the problem
    itself is written to a problems.txt in UTF-8)."""
    return _SURROGATE.sub("\ufffd", text[:limit])


@dataclass
class Row:
    """A CSV data row: ``line`` as a spreadsheet numbers it (the header is line 1), ``cells``
    by header name (every named column of the header, a missing cell empty)."""

    line: int
    cells: dict[str, str]


@dataclass
class Upload:
    """One readable file of an upload: ``kind`` ``"json"`` (``data``: the parsed value) or
    ``"csv"`` (``header``: the normalised column names, ``rows``)."""

    name: str
    kind: str
    data: Any = None
    header: list[str] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)
    raw_header: list[str] = field(default_factory=list)


@dataclass
class _Budget:
    """What is left for the rest of one upload: CSV rows and JSON values over all its files."""

    rows: int = MAX_TOTAL_ROWS
    values: int = MAX_JSON_VALUES


def plain_name(name: str) -> bool:
    """A file name a designer typed: no folder, not hidden, no control characters."""
    return bool(_NAME_RE.match(name)) and not name.startswith(".") and ".." not in name \
        and name.strip() == name


def _kind(name: str) -> str | None:
    low = name.lower()
    return "json" if low.endswith(".json") else "csv" if low.endswith(".csv") else \
        "zip" if low.endswith(".zip") else None


def read_upload(filename: str, data: bytes) -> tuple[list[Upload], list[Problem]]:
    """The files of one attachment and every problem reading them (see the module docstring)."""
    name = str(filename or "")
    if not plain_name(name):
        return [], [problem("file_name", name[:60] or "?")]
    kind = _kind(name)
    if kind is None:
        return [], [problem("file_type", name)]
    data = bytes(data or b"")
    if kind == "zip":
        return _read_zip(name, data)
    if len(data) > MAX_FILE:
        return [], [problem("file_size", name, size=_kib(len(data)), limit=_kib(MAX_FILE))]
    return _read_one(name, kind, data, _Budget())


def _kib(n: int) -> str:
    return f"{n / 1024:,.0f} KiB" if n >= 1024 else f"{n} B"


# --------------------------------------------------------------------------- zip

class _Damaged(Exception):
    """A zip member that cannot be unpacked (whatever the decoder said)."""


class _TooBig(Exception):
    """A zip member that unpacks to more than it may."""


def _member_bytes(data: bytes, info: zipfile.ZipInfo, limit: int) -> bytes:
    """The unpacked bytes of one member, never more than ``limit`` + 1 of them whatever its
    headers say: :class:`_TooBig` past ``limit``, :class:`_Damaged` for anything else wrong
    (a broken local header, encryption, an unknown method, corrupt data, a wrong CRC or size)."""
    if info.flag_bits & 0x1:
        raise _Damaged("encrypted")
    at = info.header_offset
    head = data[at:at + 30]
    if len(head) < 30 or head[:4] != b"PK\x03\x04":
        raise _Damaged("no local header")
    name_len, extra_len = struct.unpack("<HH", head[26:30])
    start = at + 30 + name_len + extra_len
    raw = data[start:start + info.compress_size]
    if len(raw) < info.compress_size:
        raise _Damaged("cut short")
    method, cap = info.compress_type, limit + 1
    if method == zipfile.ZIP_STORED:
        out, done = raw[:cap], True
    elif method == zipfile.ZIP_DEFLATED:
        inflate = zlib.decompressobj(-15)
        out = inflate.decompress(raw, cap)
        done = inflate.eof
    elif method == zipfile.ZIP_BZIP2:
        unbz = bz2.BZ2Decompressor()
        out = unbz.decompress(raw, cap)
        done = unbz.eof
    elif method == zipfile.ZIP_LZMA:
        out, done = _unlzma(raw, cap)
    else:
        raise _Damaged(f"method {method}")
    if len(out) > limit:
        raise _TooBig()
    if not done or len(out) != info.file_size or zlib.crc32(out) != info.CRC:
        raise _Damaged("cut short, or not what its header says")
    return out


def _unlzma(raw: bytes, cap: int) -> tuple[bytes, bool]:
    """A zip's LZMA member (a 4-byte version and size, then the LZMA properties): decoded with
    a dictionary of at most :data:`LZMA_DICT` (a member's header may ask for 4 GiB; what it
    unpacks to fits a smaller one, as no match reaches back past the start)."""
    if len(raw) < 4:
        raise _Damaged("no LZMA header")
    size = struct.unpack("<H", raw[2:4])[0]
    props = raw[4:4 + size]
    if size != 5 or len(props) != 5 or props[0] >= 9 * 5 * 5:
        raise _Damaged("bad LZMA properties")
    pb, rest = divmod(props[0], 45)
    lp, lc = divmod(rest, 9)
    if lc + lp > 4:
        raise _Damaged("LZMA literal settings out of range")
    dict_size = max(4096, min(struct.unpack("<I", props[1:5])[0], LZMA_DICT))
    unlz = lzma.LZMADecompressor(lzma.FORMAT_RAW, filters=[
        {"id": lzma.FILTER_LZMA1, "dict_size": dict_size, "lc": lc, "lp": lp, "pb": pb}])
    out = unlz.decompress(raw[4 + size:], cap)
    # a zip's LZMA member may or may not carry an end marker: all its input read is the end too
    return out, unlz.eof or (unlz.needs_input and len(out) < cap)


def _read_zip(name: str, data: bytes) -> tuple[list[Upload], list[Problem]]:
    if len(data) > MAX_UNPACKED:
        return [], [problem("file_size", name, size=_kib(len(data)), limit=_kib(MAX_UNPACKED))]
    entries = data.count(b"PK\x01\x02")        # at least the entries of its directory: refused before they are read
    if entries > MAX_ZIP_ENTRIES:
        return [], [problem("zip_files", name, count=entries, limit=MAX_FILES)]
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = archive.infolist()
    except Exception:                   # noqa: BLE001 — whatever a hostile directory makes zipfile raise
        return [], [problem("zip_bad", name)]
    files: list[Upload] = []
    problems: list[Problem] = []
    real = [m for m in members if not m.is_dir()]
    if len(real) > MAX_FILES or len(members) > MAX_ZIP_ENTRIES:
        return [], [problem("zip_files", name, count=len(real), limit=MAX_FILES)]
    if not real:
        return [], [problem("zip_empty", name)]
    total = 0
    seen: set[str] = set()
    budget = _Budget()
    for m in members:
        if m.is_dir():
            if m.filename.strip("/") not in ("", "__MACOSX"):
                problems.append(problem("zip_folder", name, m.filename[:60]))
            continue
        member = m.filename
        if member.startswith("__MACOSX/") or member.split("/")[-1].startswith("._"):
            continue                     # a Mac's resource forks beside the files: not the designer's
        if not plain_name(member):
            problems.append(problem("zip_member_name", name, member[:60]))
            continue
        kind = _kind(member)
        if kind not in ("json", "csv"):
            problems.append(problem("file_type", member))
            continue
        if member.lower() in seen:
            problems.append(problem("zip_twice", member))
            continue
        seen.add(member.lower())
        if m.file_size > MAX_FILE:
            problems.append(problem("file_size", member, size=_kib(m.file_size), limit=_kib(MAX_FILE)))
            continue
        if total + m.file_size > MAX_UNPACKED:
            problems.append(problem("zip_unpacked", name, limit=_kib(MAX_UNPACKED)))
            break
        room = min(MAX_FILE, MAX_UNPACKED - total)      # what it may unpack to, whatever its header says
        try:
            body = _member_bytes(data, m, room)
        except _TooBig:
            if room < MAX_FILE:
                problems.append(problem("zip_unpacked", name, limit=_kib(MAX_UNPACKED)))
                break
            problems.append(problem("file_size", member, size=f"> {_kib(MAX_FILE)}", limit=_kib(MAX_FILE)))
            continue
        except Exception:               # noqa: BLE001 — zlib.error, LZMAError, OSError, … : every decoder's
            problems.append(problem("zip_member_bad", member))
            continue
        total += len(body)
        got, bad = _read_one(member, kind, body, budget)
        files += got
        problems += bad
    return files, problems


# --------------------------------------------------------------------------- one file

def _text(name: str, data: bytes) -> tuple[str | None, Problem | None]:
    """UTF-8 with or without a BOM, or the problem naming the line of the first bad byte."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        return None, problem("utf8", name, line=line)
    nul = text.find("\x00")
    if nul >= 0:
        return None, problem("nul", name, line=text.count("\n", 0, nul) + 1)
    return text, None


def _read_one(name: str, kind: str, data: bytes, budget: _Budget) -> tuple[list[Upload], list[Problem]]:
    text, bad = _text(name, data)
    if bad is not None:
        return [], [bad]
    assert text is not None
    if kind == "json":
        return _read_json(name, text, budget)
    return _read_csv(name, text, budget)


class _JsonLimit(Exception):
    """Reading a JSON file stopped: ``key`` (``cardcheck.<key>``) and ``params``."""

    def __init__(self, key: str, path: str | None = None, **params: Any) -> None:
        super().__init__(key)
        self.key, self.path, self.params = key, path, params

    def problem(self, file: str) -> Problem:
        """The problem, named by the file and (when known) the field's path."""
        params = {k: _shown(v) if isinstance(v, str) else v for k, v in self.params.items()}
        return Problem(file, None, None, _shown(self.path) if self.path else None, f"cardcheck.{self.key}", params)


def _no_constant(word: str) -> Any:
    raise _JsonLimit("json_number")


_BIG = 10 ** MAX_DIGITS


def _plain(value: Any) -> bool:
    """A value :meth:`_Cleaner.clean` would only count: an ASCII text (no surrogate, already NFC),
    an integer of at most :data:`MAX_DIGITS` digits, true, false or null.  Huge uploads are mostly
    these, and counting them in the loop spares a call each."""
    kind = value.__class__
    if kind is str:
        return value.isascii()
    if kind is int:
        return -_BIG < value < _BIG
    return kind is bool or value is None


def _read_json(name: str, text: str, budget: _Budget) -> tuple[list[Upload], list[Problem]]:
    if budget.values <= 0:              # the upload's other files hold all the values it may
        return [], [problem("json_values", name, limit=MAX_JSON_VALUES)]
    twice: list[str] = []

    def pairs(items: list[tuple[str, Any]]) -> dict:
        obj = dict(items)
        if len(obj) != len(items) and not twice:        # a key twice: the first of them named
            seen: set[str] = set()
            for key, _value in items:
                if key in seen:
                    twice.append(key)
                    break
                seen.add(key)
        return obj
    try:
        value = json.loads(text, parse_constant=_no_constant, object_pairs_hook=pairs)
    except json.JSONDecodeError as exc:
        return [], [problem("json", name, line=exc.lineno, col=exc.colno, why=exc.msg)]
    except _JsonLimit as exc:
        return [], [exc.problem(name)]
    except RecursionError:
        return [], [problem("json_deep", name, limit=MAX_JSON_DEPTH)]
    except ValueError:                   # a number Python will not read: thousands of digits
        return [], [problem("json_long_number", name, digits=f"> {MAX_DIGITS}", limit=MAX_DIGITS)]
    if twice:
        return [], [Problem(name, None, None, _shown(twice[0], 40), "cardcheck.json_key_twice",
                            {"key": _shown(twice[0], 40)})]
    walk = _JsonWalk(name, budget.values)
    try:
        value = walk.clean(value, "", 0)
    except _JsonLimit as exc:
        return [], [exc.problem(name)]
    finally:
        budget.values = walk.left
    if walk.problems:
        return [], walk.problems
    return [Upload(name, "json", data=value)], []


def _path(at: Any) -> str:
    """The text of a place in a JSON value (as a problem names it), built only when a problem
    needs it: ``at`` is ``""`` (the top) or ``(parent, key)`` — an int, a list's index, or a
    str, an object's key: ``cards[3].name_ja``, each object's step cut at 200 characters."""
    keys = []
    while at:
        at, key = at
        keys.append(key)
    text = ""
    for key in reversed(keys):
        if isinstance(key, int):
            text = f"{text}[{key}]"
        else:
            text = f"{text}.{key}"[:200] if text else key[:200]
    return text


class _JsonWalk:
    """One pass over a parsed JSON value: its depth and size held to the limits (``left``:
    the values the upload may still hold), its numbers to :data:`MAX_DIGITS` digits and finite,
    every string and key made NFC, a lone surrogate found and named by its path (``at``, see
    :func:`_path`: the text of a path is made only for a problem, never for every value)."""

    def __init__(self, name: str, left: int) -> None:
        self.name, self.left = name, left
        self.problems: list[Problem] = []

    def text(self, value: str, at: Any) -> str:
        if _SURROGATE.search(value):
            if len(self.problems) < MAX_PROBLEMS:
                ch = _SURROGATE.search(value).group(0)          # type: ignore[union-attr]
                self.problems.append(problem("surrogate", self.name, None, None, _shown(_path(at)) or None,
                                             char=f"U+{ord(ch):04X}"))
            return value
        return value if value.isascii() else unicodedata.normalize("NFC", value)

    def clean(self, value: Any, at: Any, depth: int) -> Any:
        self.left -= 1
        if self.left < 0:
            raise _JsonLimit("json_values", limit=MAX_JSON_VALUES)
        if isinstance(value, str):
            return self.text(value, at)
        if isinstance(value, bool) or value is None:
            return value
        if isinstance(value, int):
            if not -_BIG < value < _BIG:
                raise _JsonLimit("json_long_number", digits=len(str(abs(value))), limit=MAX_DIGITS, path=_path(at))
            return value
        if isinstance(value, float):
            if value != value or value in (float("inf"), float("-inf")):
                raise _JsonLimit("json_number", path=_path(at))
            if not -_BIG < value < _BIG:
                raise _JsonLimit("json_long_number", digits=f"> {MAX_DIGITS}", limit=MAX_DIGITS, path=_path(at))
            return value
        if depth >= MAX_JSON_DEPTH:
            raise _JsonLimit("json_deep", limit=MAX_JSON_DEPTH, path=_path(at))
        if isinstance(value, list):
            for i, item in enumerate(value):
                if _plain(item):        # counted here: nothing else to check or change
                    self.left -= 1
                    if self.left < 0:
                        raise _JsonLimit("json_values", limit=MAX_JSON_VALUES)
                    continue
                value[i] = self.clean(item, (at, i), depth + 1)
            return value
        if len(value) > MAX_JSON_KEYS:
            raise _JsonLimit("json_keys", count=len(value), limit=MAX_JSON_KEYS, path=_path(at))
        keys = [self.text(key, (at, key)) for key in value]
        if len(set(keys)) != len(keys):     # two keys that are one text once NFC
            twice = next(k for i, k in enumerate(keys) if k in keys[:i])
            raise _JsonLimit("json_key_twice", key=twice[:40], path=_path((at, twice)) if at else twice[:40])
        if all(a is b for a, b in zip(keys, value)):
            for key, item in value.items():     # the same keys: the values replaced in place
                if _plain(item):
                    self.left -= 1
                    if self.left < 0:
                        raise _JsonLimit("json_values", limit=MAX_JSON_VALUES)
                    continue
                value[key] = self.clean(item, (at, key), depth + 1)
            return value
        return {k: self.clean(item, (at, k), depth + 1) for k, item in zip(keys, value.values())}


# --------------------------------------------------------------------------- CSV

def normal_header(cell: str) -> str:
    """A header cell as a column name: NFC, trimmed, lower case, spaces and hyphens as ``_``."""
    return re.sub(r"[\s\-]+", "_", unicodedata.normalize("NFC", cell).strip().lower())


def _cell(text: str) -> str:
    text = unescape(text.strip())
    return text if text.isascii() else unicodedata.normalize("NFC", text)


def _read_csv(name: str, text: str, budget: _Budget | None = None) -> tuple[list[Upload], list[Problem]]:
    budget = budget or _Budget()
    # a spreadsheet may save with ; as the separator (a European locale); a header tells which
    end = text.find("\n")
    first = text[:end] if end >= 0 else text
    delimiter = ";" if first.count(";") > first.count(",") and first.count("\t") <= first.count(";") else \
        "\t" if first.count("\t") > first.count(",") else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    rows: list[Row] = []
    problems: list[Problem] = []
    header: list[str] | None = None
    raw_header: list[str] = []
    named: list[tuple[int, str]] = []            # (index, column) of the header's named cells
    width = 0
    try:
        for cells in reader:
            line = reader.line_num
            if header is None:
                if not any(c.strip() for c in cells):
                    continue                 # blank lines above the header
                while cells and not cells[-1].strip():
                    cells.pop()              # empty cells a spreadsheet leaves after the last column
                if len(cells) > MAX_COLUMNS:
                    return [], [problem("csv_columns", name, line, count=len(cells), limit=MAX_COLUMNS)]
                raw_header = [c.strip() for c in cells]
                header = [normal_header(c) for c in cells]
                count: dict[str, int] = {}
                for h in header:
                    count[h] = count.get(h, 0) + 1
                dup = sorted(h for h, n in count.items() if h and n > 1)
                if dup:
                    problems.append(problem("csv_header_twice", name, 1, None, dup[0], is_column=True))
                    return [], problems
                named = [(i, h) for i, h in enumerate(header) if h]
                width = len(header)
                continue
            if not any(c.strip() for c in cells):
                continue                     # an empty row between blocks
            if len(problems) >= MAX_PROBLEMS:
                problems.append(problem("more_problems", name, line, limit=MAX_PROBLEMS))
                break
            if len(rows) >= MAX_ROWS:
                problems.append(problem("csv_rows", name, line, limit=MAX_ROWS))
                break
            if budget.rows <= 0:
                problems.append(problem("rows_total", name, line, limit=MAX_TOTAL_ROWS))
                break
            # cells past the header's (one join: a row of thousands of empty cells costs one pass)
            if len(cells) > width and "".join(itertools.islice(cells, width, None)).strip():
                problems.append(problem("csv_extra_cells", name, line, count=len(cells), columns=width))
                continue
            long = next((h for i, h in named if i < len(cells) and len(cells[i]) > MAX_CELL), None)
            if long is not None:
                problems.append(Problem(name, line, None, long, "cardcheck.too_long",
                                        {"limit": MAX_CELL}, column=True))
                continue
            budget.rows -= 1
            rows.append(Row(line, {h: _cell(cells[i]) if i < len(cells) else "" for i, h in named}))
    except csv.Error as exc:
        problems.append(Problem(name, reader.line_num, None, None, "cardcheck.csv",
                                {"row": reader.line_num, "why": str(exc)[:100]}))
        return [], problems
    if header is None:
        return [], [problem("csv_empty", name)]
    return [Upload(name, "csv", header=[h for h in header if h], rows=rows, raw_header=raw_header)], problems


def unescape(cell: str) -> str:
    """Undo the quote the project's CSV export puts before a cell that a spreadsheet would run
    as a formula (``'=1`` → ``=1``), so an exported set reads back as it was."""
    if len(cell) >= 2 and cell[0] == "'" and cell[1] in "=+-@":
        return cell[1:]
    return cell


__all__ = ["read_upload", "Upload", "Row", "plain_name", "normal_header", "unescape",
           "MAX_FILE", "MAX_UNPACKED", "MAX_FILES", "MAX_ROWS", "MAX_TOTAL_ROWS", "MAX_COLUMNS",
           "MAX_JSON_VALUES", "MAX_JSON_KEYS", "MAX_JSON_DEPTH", "MAX_PROBLEMS", "MAX_ZIP_ENTRIES"]
