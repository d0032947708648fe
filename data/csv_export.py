"""CSV files for spreadsheets: standings, results and other tables handed to organisers.

* Encoding: UTF-8 with a byte-order mark, so spreadsheet programs recognise UTF-8 and show
  Japanese (and any other non-ASCII) names correctly.
* Lines end in CRLF and cells holding commas, quotes or line breaks are quoted (quotes doubled),
  as the standard CSV dialect does.
* Formula injection: a text cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
  return could be run as a formula by a spreadsheet, so a single quote ``'`` is put in front of it
  (it then shows as text).  Numbers passed as ``int`` or ``float`` are written as numbers even
  when negative, never escaped; the same characters in a string are always escaped.
* ``None`` is an empty cell; floats are written with up to 15 significant digits (``0.1`` stays
  ``0.1``, no float noise); anything else is written as ``str(value)``.

:func:`read_csv` reads such a file back (the byte-order mark removed); it does not undo the
quote in front of escaped cells.

>>> to_csv(["name", "points"], [["=1+1", -3]])
b"\\xef\\xbb\\xbfname,points\\r\\n'=1+1,-3\\r\\n"
"""
from __future__ import annotations

import csv
import io
from typing import Any, Iterable

BOM = "\ufeff"
DANGEROUS = ("=", "+", "-", "@", "\t", "\r")


def cell(value: Any) -> str:
    """One cell's text (before CSV quoting)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return format(value, ".15g")
    text = str(value)
    return "'" + text if text.startswith(DANGEROUS) else text


def to_csv(header: list[str], rows: Iterable[Iterable[Any]]) -> bytes:
    """``header`` and ``rows`` as CSV bytes: UTF-8 with BOM, CRLF, formula-looking text escaped."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([cell(h) for h in header])
    for row in rows:
        writer.writerow([cell(v) for v in row])
    return (BOM + out.getvalue()).encode("utf-8")


def read_csv(data: bytes) -> list[list[str]]:
    """The rows of CSV bytes (a leading BOM removed), every cell as text."""
    text = data.decode("utf-8-sig")
    return [row for row in csv.reader(io.StringIO(text, newline=""))]
