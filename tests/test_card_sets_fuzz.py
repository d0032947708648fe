"""Issue 36, "Done when": at least 10,000 mutated uploads crash nothing, and every refusal names
where it is.  Each game's test set (CSV) and its JSON export are mutated at random — cells
replaced by garbage, numbers, huge or empty texts, control characters and formulas, rows cut or
doubled, headers broken, bytes flipped, files truncated, zipped, doubled — and each upload is
read and checked as ``/cards upload`` does.  An upload either stores a set whose cards the
game's engine plays, or it is refused with problems that each name a file (and, where there is
one, the row and the column), rendered in both languages from the catalog."""
from __future__ import annotations

import csv
import io
import random
import string
import zipfile
from pathlib import Path

import pytest

from data.card_sets import games
from data.card_sets.build import build_set
from data.card_sets.export import export_files
from data.card_sets.upload import read_upload

DATA = Path(__file__).resolve().parent / "data" / "card_sets"
PER_GAME = 2_500                      # four games: 10,000 uploads
GARBAGE = ["", " ", "-1", "0", "99999999999", "1e3", "NaN", "=SUM(A1:A9)", "@everyone", "<@123>", "\u0000",
           "\x07bell", "x" * 3000, "ｘ", "１２", "yes", "no", "null", "[]", "{}", "{\"do\": 1}", "draw",
           "draw 99", "heal 1; heal 2", "a*b*c", "ac01*0", "..x/xx", "3/", "/", "🃏", "　", "'", "\"", ";;",
           "unknown_effect 3", "0:0", "-3:9", "ab" * 40, "\n", "\r\n", "\\", "%s%s", "{name}"]


def _files(game: str) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((DATA / game).glob("*.csv"))}


def _mutate_csv(data: bytes, rng: random.Random) -> bytes:
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))
    for _ in range(rng.randint(1, 4)):
        kind = rng.random()
        if kind < 0.55 and len(rows) > 1:
            r = rng.randrange(1, len(rows))
            if rows[r]:
                rows[r][rng.randrange(len(rows[r]))] = rng.choice(GARBAGE + [rng.choice(string.printable) * rng.randint(1, 9)])
        elif kind < 0.65 and len(rows) > 1:
            rows.insert(rng.randrange(1, len(rows) + 1), list(rng.choice(rows[1:])))       # a row twice
        elif kind < 0.72 and len(rows) > 2:
            del rows[rng.randrange(1, len(rows))]
        elif kind < 0.80:
            c = rng.randrange(len(rows[0]))
            rows[0][c] = rng.choice(["", "ID", "name", rows[0][c] + "x", rows[0][(c + 1) % len(rows[0])]])
        elif kind < 0.88 and len(rows) > 1:
            r = rng.randrange(1, len(rows))
            rows[r] = rows[r][:rng.randrange(len(rows[r]) + 1)] + [rng.choice(GARBAGE)] * rng.randint(0, 3)
        else:
            rng.shuffle(rows)
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    raw = bytearray(out.getvalue().encode("utf-8"))
    if rng.random() < 0.08 and raw:                   # a flipped byte: maybe not UTF-8 any more
        raw[rng.randrange(len(raw))] = rng.randrange(256)
    if rng.random() < 0.05:
        raw = raw[:rng.randrange(len(raw) + 1)]
    return bytes(raw)


def _mutate_json(data: bytes, rng: random.Random) -> bytes:
    text = data.decode("utf-8")
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(text) + 1)
        kind = rng.random()
        if kind < 0.4:           # a number, a word or a bracket somewhere
            text = text[:i] + rng.choice(["1", "-5", "99999", "true", "null", "\"x\"", "[", "]", "{", "}", ","]) + text[i:]
        elif kind < 0.7:         # a value replaced
            j = text.find(":", i)
            if j > 0:
                end = min([k for k in (text.find(",", j), text.find("}", j)) if k > 0] or [len(text)])
                text = text[:j + 1] + " " + rng.choice(["0", "\"\"", "[]", "{}", "null", "\"draw 9\"", "-1", "1.5",
                                                        "\"" + "x" * 500 + "\""]) + text[end:]
        else:
            text = text[:i] + text[i + rng.randint(1, 20):]
    return text.encode("utf-8")


def _upload(game: str, rng: random.Random, sources: dict[str, bytes], exported: bytes) -> tuple[str, bytes]:
    choice = rng.random()
    if choice < 0.25:
        return "set.json", _mutate_json(exported, rng)
    files = dict(sources)
    target = rng.choice(sorted(files))
    files[target] = _mutate_csv(files[target], rng)
    if rng.random() < 0.1:
        files[rng.choice(["extra.csv", "notes.txt", "../x.csv", "dir/a.csv"])] = rng.choice(list(files.values()))
    if choice < 0.45:
        return target, files[target]
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", rng.choice([zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED])) as z:
        for name, body in files.items():
            z.writestr(name, body)
    raw = buf.getvalue()
    if rng.random() < 0.05:
        raw = raw[:rng.randrange(len(raw))]
    return "set.zip", raw


@pytest.mark.parametrize("game", games.GAMES)
def test_mutated_uploads_crash_nothing_and_every_refusal_names_where(game):
    rng = random.Random(f"fuzz:{game}")
    sources = _files(game)
    clean = build_set(game, [f for name, body in sources.items() for f in read_upload(name, body)[0]], "extend")
    assert clean.ok
    exported = export_files(clean.content, "fuzz")["fuzz.json"]
    accepted = refused = 0
    for i in range(PER_GAME):
        name, body = _upload(game, rng, sources, exported)
        files, read_problems = read_upload(name, body)
        built = build_set(game, files, rng.choice(["extend", "extend", "alone"]), read_problems=read_problems)
        if built.ok:
            accepted += 1
            assert built.content is not None and not built.problems
            if i % 50 == 0:               # what was stored plays: its engine starts a match
                engine = games.adapter(game).engine(built.cardset, built.own)
                engine.new_match(players=2, seed=i, options={})
            continue
        refused += 1
        assert built.problems, (name, body[:200])
        for p in built.problems:
            assert p.file is not None or p.field is not None or p.key in (
                "cardcheck.too_many_cards", "cardcheck.mode", "cardcheck.game"), p
            for locale in ("en", "ja"):
                text = p.render(locale)
                assert "cardcheck." not in text and "cardset." not in text, (p, text)
                where = p.where(locale)
                assert where or p.field is None, p
    assert refused > PER_GAME // 3 and accepted > 0, (accepted, refused)
