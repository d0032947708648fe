"""CSV export (data/csv_export.py): BOM, CRLF, Japanese text, formula-injection escaping, numbers,
quoting of commas, quotes and line breaks."""
from __future__ import annotations

import pytest

from data.csv_export import read_csv, to_csv


def test_utf8_with_bom_and_crlf():
    """"UTF-8 with BOM (so spreadsheets open Japanese names), CRLF line ends"."""
    data = to_csv(["a", "b"], [[1, 2]])
    assert data.startswith(b"\xef\xbb\xbf")
    assert data[3:] == b"a,b\r\n1,2\r\n"


def test_japanese_round_trips():
    """"UTF-8 with BOM (so spreadsheets open Japanese names)"."""
    rows = [["山田太郎", "ｶﾀｶﾅ", "ひらがな・漢字"], ["Zoë", "😀", ""]]
    data = to_csv(["名前", "読み", "備考"], rows)
    assert "山田太郎".encode("utf-8") in data
    assert read_csv(data) == [["名前", "読み", "備考"], *rows]


@pytest.mark.parametrize("text", ["=SUM(A1:A2)", "+1", "-1+2", "@cmd", "\tx", "\rx", "=", "-"])
def test_formula_prefixes_escaped(text):
    """"every cell that starts with =, +, -, @, a tab or a carriage return is escaped by prefixing
    a single quote" (OWASP CSV injection advice)."""
    assert read_csv(to_csv(["c"], [[text]])) == [["c"], ["'" + text]]
    assert read_csv(to_csv([text], [])) == [["'" + text]]


def test_harmless_text_not_escaped():
    """Only cells starting with a formula character are escaped: "a=b", " -1" stay as they are."""
    assert read_csv(to_csv(["c"], [["a=b"], [" -1"], ["x@y"]]))[1:] == [["a=b"], [" -1"], ["x@y"]]


def test_numbers_not_escaped_and_none_empty():
    """"plain negative numbers passed as int/float stay numbers; None → empty cell; floats
    written ... repr-free"."""
    data = to_csv(["i", "f", "n", "z", "s"], [[-3, -0.5, None, 0.1 + 0.2, "-3"]])
    assert data[3:].split(b"\r\n")[1] == b"-3,-0.5,,0.3,'-3"
    assert read_csv(to_csv(["x"], [[66.67], [1e20], [12345678.0]]))[1:] == [["66.67"], ["1e+20"], ["12345678"]]


def test_commas_quotes_newlines_quoted_and_read_back():
    """Cells with commas, quotes or line breaks are quoted and read back unchanged."""
    rows = [["a,b", 'say "hi"', "line1\nline2", "crlf\r\ninside"]]
    data = to_csv(["1", "2", "3", "4"], rows)
    assert b'"a,b"' in data and b'"say ""hi"""' in data and b'"line1\nline2"' in data
    assert read_csv(data) == [["1", "2", "3", "4"], *rows]


def test_read_csv_without_bom():
    """read_csv "strips the BOM" — and reads a file without one too."""
    assert read_csv(b"a,b\r\n1,2\r\n") == [["a", "b"], ["1", "2"]]
