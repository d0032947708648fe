"""Reading an uploaded attachment into card files: a JSON file, a CSV file or a zip of several.

Nothing here knows a game: it turns bytes into :class:`Upload` files (parsed JSON, or a CSV's
rows with their line numbers) and reports what cannot be read as :class:`Problem` s, all of
them, never raising on bad input.  The limits (the issue's "Limits and safety"):

- one file at most :data:`MAX_FILE` bytes (512 KiB); a zip at most :data:`MAX_FILES` files and
  :data:`MAX_UNPACKED` bytes unpacked (2 MiB), each member read with a limit so a zip that lies
  about its sizes cannot blow up in memory;
- plain file names only: no folders, no ``..``, no hidden files, ``.json`` or ``.csv``;
- UTF-8, with or without a byte-order mark; anything else is refused naming the line;
- a CSV with a NUL byte, an unterminated quote or more than :data:`MAX_ROWS` rows is refused.

>>> files, problems = read_upload("set.csv", "id,name_ja\\r\\nab,あ\\r\\n".encode("utf-8-sig"))
>>> files[0].kind, files[0].header, files[0].rows[0].line, problems
('csv', ['id', 'name_ja'], 2, [])
>>> files, problems = read_upload("set.json", b'{"cards": [1,')
>>> problems[0].key, problems[0].params["line"]
('cardcheck.json', 1)
"""
from __future__ import annotations

import csv
import io
import json
import re
import zipfile
from dataclasses import dataclass, field
from typing import Any

from data.card_sets.problems import Problem, problem

MAX_FILE = 512 * 1024
MAX_UNPACKED = 2 * 1024 * 1024
MAX_FILES = 20
MAX_ROWS = 2_000
MAX_CELL = 2_000              # characters in one CSV cell (text fields have their own, smaller limits)
MAX_JSON_DEPTH = 32
_NAME_RE = re.compile(r"^[^\x00-\x1f/\\:*?\"<>|]{1,100}$")


@dataclass
class Row:
    """A CSV data row: ``line`` as a spreadsheet numbers it (the header is line 1), ``cells``
    by header name (every header present, missing cells empty)."""

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
    if kind == "zip":
        return _read_zip(name, data)
    if len(data) > MAX_FILE:
        return [], [problem("file_size", name, size=_kib(len(data)), limit=_kib(MAX_FILE))]
    return _read_one(name, kind, data)


def _kib(n: int) -> str:
    return f"{n / 1024:,.0f} KiB" if n >= 1024 else f"{n} B"


def _read_zip(name: str, data: bytes) -> tuple[list[Upload], list[Problem]]:
    if len(data) > MAX_UNPACKED:
        return [], [problem("file_size", name, size=_kib(len(data)), limit=_kib(MAX_UNPACKED))]
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError, EOFError, NotImplementedError):
        return [], [problem("zip_bad", name)]
    files: list[Upload] = []
    problems: list[Problem] = []
    real = [m for m in members if not m.is_dir()]
    if len(real) > MAX_FILES:
        return [], [problem("zip_files", name, count=len(real), limit=MAX_FILES)]
    if not real:
        return [], [problem("zip_empty", name)]
    total = 0
    seen: set[str] = set()
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
        try:
            with archive.open(m) as fh:
                body = fh.read(MAX_FILE + 1)       # never more than the limit, whatever the header says
        except (zipfile.BadZipFile, RuntimeError, ValueError, OSError, EOFError, NotImplementedError,
                zipfile.LargeZipFile):
            problems.append(problem("zip_member_bad", member))
            continue
        if len(body) > MAX_FILE:
            problems.append(problem("file_size", member, size=f"> {_kib(MAX_FILE)}", limit=_kib(MAX_FILE)))
            continue
        total += len(body)
        got, bad = _read_one(member, kind, body)
        files += got
        problems += bad
    return files, problems


def _text(name: str, data: bytes) -> tuple[str | None, Problem | None]:
    """UTF-8 with or without a BOM, or the problem naming the line of the first bad byte."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        return None, problem("utf8", name, line=line)
    if "\x00" in text:
        return None, problem("nul", name, line=text[:text.index("\x00")].count("\n") + 1)
    return text, None


def _depth(value: Any, depth: int = 0) -> int:
    if depth > MAX_JSON_DEPTH:
        return depth
    if isinstance(value, dict):
        return max([_depth(v, depth + 1) for v in value.values()] or [depth + 1])
    if isinstance(value, list):
        return max([_depth(v, depth + 1) for v in value] or [depth + 1])
    return depth


def _read_one(name: str, kind: str, data: bytes) -> tuple[list[Upload], list[Problem]]:
    text, bad = _text(name, data)
    if bad is not None:
        return [], [bad]
    assert text is not None
    if kind == "json":
        try:
            value = json.loads(text, parse_constant=_no_constant)
        except json.JSONDecodeError as exc:
            return [], [problem("json", name, line=exc.lineno, col=exc.colno, why=exc.msg)]
        except (ValueError, RecursionError):
            return [], [problem("json_number", name)]
        if _depth(value) > MAX_JSON_DEPTH:
            return [], [problem("json_deep", name, limit=MAX_JSON_DEPTH)]
        return [Upload(name, "json", data=value)], []
    return _read_csv(name, text)


def _no_constant(word: str) -> Any:
    raise ValueError(f"{word} is not a number JSON allows")


def normal_header(cell: str) -> str:
    """A header cell as a column name: trimmed, lower case, spaces and hyphens as ``_``."""
    return re.sub(r"[\s\-]+", "_", cell.strip().lower())


def _read_csv(name: str, text: str) -> tuple[list[Upload], list[Problem]]:
    # a spreadsheet may save with ; as the separator (a European locale); a header tells which
    first = text.split("\n", 1)[0]
    delimiter = ";" if first.count(";") > first.count(",") and first.count("\t") <= first.count(";") else \
        "\t" if first.count("\t") > first.count(",") else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    rows: list[Row] = []
    problems: list[Problem] = []
    header: list[str] | None = None
    raw_header: list[str] = []
    try:
        for cells in reader:
            line = reader.line_num
            if header is None:
                if not any(c.strip() for c in cells):
                    continue                 # blank lines above the header
                raw_header = [c.strip() for c in cells]
                header = [normal_header(c) for c in cells]
                dup = sorted({h for h in header if h and header.count(h) > 1})
                if dup:
                    problems.append(problem("csv_header_twice", name, 1, None, dup[0], is_column=True))
                    return [], problems
                continue
            if not any(c.strip() for c in cells):
                continue                     # an empty row between blocks
            if len(rows) >= MAX_ROWS:
                problems.append(problem("csv_rows", name, line, limit=MAX_ROWS))
                break
            if len(cells) > len(header) and any(c.strip() for c in cells[len(header):]):
                problems.append(problem("csv_extra_cells", name, line, count=len(cells), columns=len(header)))
                continue
            long = [header[i] for i, c in enumerate(cells[:len(header)]) if len(c) > MAX_CELL]
            if long:
                problems.append(Problem(name, line, None, long[0], "cardcheck.too_long",
                                        {"limit": MAX_CELL}, column=True))
                continue
            padded = list(cells) + [""] * (len(header) - len(cells))
            rows.append(Row(line, {h: unescape(padded[i].strip()) for i, h in enumerate(header) if h}))
    except csv.Error as exc:
        problems.append(problem("csv", name, reader.line_num, why=str(exc)))
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
           "MAX_FILE", "MAX_UNPACKED", "MAX_FILES", "MAX_ROWS"]
