"""Issue 45, "What to do": "A fuzz test (marked slow) of at least 20,000 generated hostile uploads
across the four games, asserting no exception escapes, every refusal is located, no upload takes
over 2 s or 64 MiB in the test process, and nothing is stored for a refused upload."

5,000 uploads per game, each made by one of the attacks below from the game's worked example
(``docs/card_sets/``: its CSVs and its JSON export), seeded so a failure repeats:

- zip members damaged (deflate, bzip2, LZMA, stored with a wrong CRC), zip bombs of every method
  lying about their sizes, zips cut short, a directory of thousands of entries;
- deep and huge JSON (lists, objects, texts, numbers), objects of too many keys, a key twice,
  numeric extremes (``1e400``, twenty digits, ``NaN``), lone surrogates in values and keys;
- wide CSV headers, rows of thousands of cells, other encodings (Shift-JIS, UTF-16), NUL bytes,
  unterminated quotes, formula prefixes, cells garbled as tests/test_card_sets_fuzz.py does;
- names and texts with direction, zero-width, control and other invisible characters, mentions
  (``@everyone``, ``<@&id>``) and markdown (masked links);
- rules blocks in other letter cases and widths (``Editions``, ``RULES``, ``Units``,
  ``MAX_ROUNDS``, ``Target_Mana``, ``ＲＵＬＥＳ``, ``max-rounds``) — always refused;
- broken decks (unknown cards, absurd counts, no cards), too many cards, decks and types.

Each upload is read and checked as ``/cards upload`` does (:func:`bench.hostile_uploads.measure`'s
path).  Its CPU time (``time.process_time``) is measured on every upload; its memory (the peak of
Python allocations, tracemalloc) on a sample — every 50th upload and every fifth large one (a
bomb, huge JSON, a wide CSV; each distinct large body once): tracemalloc slows an upload several
times (a large JSON tens of times), so measuring all would make this test many minutes longer
without covering another shape.  The whole file takes about a minute and a half on one core.
"""
from __future__ import annotations

import csv
import io
import json
import random
import time
import tracemalloc
import zipfile

import pytest

from bench import hostile_uploads as hostile
from data.card_sets import games
from data.card_sets.build import build_set, text_problem
from data.card_sets.upload import MAX_JSON_VALUES, read_upload

PER_GAME = 5_000                    # four games: 20,000 uploads
SECONDS = 2.0                       # "no upload takes over 2 s"
BUDGET = 64 * 2 ** 20               # "... or 64 MiB"
RULE_WORDS = {
    "logic_square": ("editions", "rules", "max_turns", "hand_size", "life_start", "copy_limits"),
    "maken": ("editions", "rules"),
    "art_of_war": ("editions", "rules", "units", "max_turns", "hand_size", "deck_size"),
    "avalon": ("editions", "rules", "max_rounds", "target_mana", "life", "hand_size"),
}
HOSTILE_CHARS = ["\u202e", "\u202d", "\u2066", "\u2069", "\u200e", "\u200f", "\u061c", "\u200b", "\u200c", "\u200d",
                 "\u2060", "\u2063", "\ufeff", "\u00ad", "\u180e", "\x00", "\x07", "\x1b", "\x7f", "\x85", "\u2028",
                 "\t", "\r"]
SHOWN_TEXTS = ["@everyone", "@here", "<@123456789012345678>", "<@!1>", "<@&987654321098765432>", "<#1>", "</x:1>",
               "[a](https://e.co)[b](https://e.co)", "[[x](https://evil.example)]", "**bold** __u__ ~~s~~ ||spoil||",
               "> quote", "# Head", "-# small", "`code`", "=SUM(A1:A9)", "+1", "-1", "@SUM(1)", "'=x", "\\", "🃏",
               "ＯＷＬ", "Оwl"]
GARBAGE = ["", " ", "-1", "0", "99999999999", "1e3", "NaN", "=SUM(A1:A9)", "@everyone", "<@&1>", "\x07bell",
           "x" * 3000, "ｘ", "１２", "yes", "null", "[]", "{}", "draw 99", "a*b*c", "ac01*0", "ac01*999", "..x/xx",
           "🃏", "　", "'", "\"", ";;", "\u202eevil", "a\u200bb"]


class Maker:
    """The uploads of one game: ``make(i)`` → (attack, file name, bytes, large, must refuse)."""

    def __init__(self, game: str, rng: random.Random) -> None:
        self.game, self.rng = game, rng
        self.csvs = hostile.example_files(game)
        self.example = hostile.example_json(game)
        self.text = json.dumps(self.example, ensure_ascii=False)
        kings = hostile.example_files("art_of_war")["art_of_war_kings.csv"]
        self.bombs = [hostile.lie_about_sizes(hostile.zip_of({"a.csv": bytes(n)}, method), rng.choice([10, 100, 4096]))
                      for method in (zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA)
                      for n in (600 * 1024, 4 * 2 ** 20)]
        self.member = kings * 8
        self.many = hostile._many_entries(3_000)
        self.attacks = [
            (self.damaged_member, 6), (self.bomb, 3), (self.cut_zip, 3), (self.many_entries, 1),
            (self.deep_json, 3), (self.huge_json, 2), (self.wide_object, 2), (self.numbers, 5),
            (self.surrogate, 5), (self.twice, 2), (self.wide_header, 3), (self.wide_rows, 2),
            (self.encoding, 4), (self.garbled_csv, 10), (self.hostile_name, 14), (self.shown_text, 8),
            (self.rules_block, 10), (self.broken_deck, 6), (self.too_many, 2), (self.zipped_csvs, 4),
        ]
        self.weights = [w for _a, w in self.attacks]

    def make(self) -> tuple[str, str, bytes, bool, bool]:
        attack = self.rng.choices([a for a, _w in self.attacks], self.weights)[0]
        return (attack.__name__, *attack())

    # -- zips
    def damaged_member(self):
        method = self.rng.choice([zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA, zipfile.ZIP_STORED])
        data = bytearray(hostile.zip_of({"kings.csv": self.member}, method))
        start, end = 30 + len("kings.csv"), data.find(b"PK\x01\x02")
        for _ in range(self.rng.randint(1, 6)):
            data[self.rng.randrange(start, end)] ^= self.rng.randrange(1, 256)
        return "set.zip", bytes(data), False, False

    def bomb(self):
        return "bomb.zip", self.rng.choice(self.bombs), True, True

    def cut_zip(self):
        data = hostile.zip_of({k: v for k, v in self.csvs.items()}, self.rng.choice([0, 8, 12, 14]))
        return "set.zip", data[:self.rng.randrange(len(data))], False, True

    def many_entries(self):
        return "many.zip", self.many, True, True

    # -- JSON
    def deep_json(self):
        depth = self.rng.choice([33, 40, 200, 5_000, 200_000])
        opener, closer = self.rng.choice([(b"[", b"]"), (b'{"a":', b"}")])
        return "deep.json", b'{"cards":' + opener * depth + closer * depth + b"}", depth > 5_000, True

    def huge_json(self):
        item = self.rng.choice([b"[]", b"{}", b"0", b'"ab"', b"1.5", b"null", b'{"id":"x"}'])
        n = self.rng.choice([600, 6_000, 60_000]) if self.rng.random() < 0.9 else (500 * 1024) // (len(item) + 1)
        section = self.rng.choice([b"cards", b"decks", b"comment", b"kings", b"characters", b"types"])
        body = b'{"' + section + b'":[' + b",".join([item] * n) + b"]}"
        # refused: past the values of an upload, or more entries than a section may hold (or a
        # section the game does not know); a long ``comment`` is only a note, never stored as cards
        return "huge.json", body, n > 20_000, n > MAX_JSON_VALUES or section != b"comment"

    def wide_object(self):
        n = self.rng.choice([201, 2_000, 40_000])
        return "keys.json", b"{" + b",".join(b'"k%d":%d' % (i, i) for i in range(n)) + b"}", n > 20_000, True

    def numbers(self):
        number = self.rng.choice(["1e400", "-1e400", "9" * 20, "-" + "9" * 16, "1" + "0" * 5000, "NaN", "Infinity",
                                  "-Infinity", "1e-400", "123456789012345678901234567890.5"])
        text = self.text
        spots = [i for i in range(len(text) - 1) if text[i] == ":" and text[i + 1] == " " and text[i + 2:i + 3].isdigit()]
        if not spots:
            return "set.json", ('{"comment": ' + number + "}").encode(), False, True
        at = self.rng.choice(spots) + 2
        end = at
        while end < len(text) and (text[end].isdigit() or text[end] in "-."):
            end += 1
        return "set.json", (text[:at] + number + text[end:]).encode(), False, number != "1e-400"

    def surrogate(self):
        text = self.text
        quotes = [i for i, ch in enumerate(text) if ch == '"']
        at = self.rng.choice(quotes) + 1
        lone = self.rng.choice(["\\ud800", "\\udfff", "\\udbff", "\\udc00x"])
        return "set.json", (text[:at] + lone + text[at:]).encode(), False, True

    def twice(self):
        data = self.text.rstrip("}")
        first = next(iter(self.example))
        return "set.json", (data + f', "{first}": {json.dumps(self.example[first])}}}').encode(), False, True

    # -- CSV
    def wide_header(self):
        n = self.rng.choice([65, 200, 11_000, 30_000])
        header = ",".join(self.rng.choice(["a", "id", "name_ja"]) if self.rng.random() < 0.3 else f"c{i}" for i in range(n))
        return "wide.csv", (header + "\n" + "x\n" * self.rng.choice([1, 2_000])).encode(), n > 5_000, True

    def wide_rows(self):
        name, body = self.rng.choice(sorted(self.csvs.items()))
        lines = body.split(b"\n")
        extra = b"," * self.rng.choice([100, 11_000]) + self.rng.choice([b"", b"x"])
        lines = [lines[0]] + [line + extra if line else line for line in lines[1:]] * self.rng.choice([1, 20])
        return name, b"\n".join(lines)[:512 * 1024], True, False

    def encoding(self):
        name, body = self.rng.choice(sorted(self.csvs.items()))
        text = body.decode("utf-8-sig")
        kind = self.rng.choice(["sjis", "utf16", "nul", "quote", "cr", "latin1"])
        if kind == "sjis":
            data = text.encode("shift_jis", "replace")
        elif kind == "utf16":
            data = text.encode("utf-16")
        elif kind == "nul":
            data = body[:len(body) // 2] + b"\x00" + body[len(body) // 2:]
        elif kind == "quote":
            data = body + b'"unterminated,' + b"x" * 200
        elif kind == "cr":
            data = body.replace(b"\n", b"\r")
        else:
            data = text.encode("latin-1", "replace")
        return name, data, False, kind in ("utf16", "nul", "quote")

    def garbled_csv(self):
        name, body = self.rng.choice(sorted(self.csvs.items()))
        rows = list(csv.reader(io.StringIO(body.decode("utf-8-sig"), newline="")))
        for _ in range(self.rng.randint(1, 4)):
            r = self.rng.randrange(len(rows))
            if rows[r]:
                rows[r][self.rng.randrange(len(rows[r]))] = self.rng.choice(GARBAGE + SHOWN_TEXTS)
        out = io.StringIO()
        csv.writer(out).writerows(rows)
        return name, out.getvalue().encode("utf-8"), False, False

    def zipped_csvs(self):
        files = dict(self.csvs)
        name = self.rng.choice(sorted(files))
        files[name] = self.garbled_csv()[1] if self.rng.random() < 0.7 else files[name]
        if self.rng.random() < 0.3:
            files[self.rng.choice(["../x.csv", "dir/a.csv", "notes.txt", ".hidden.csv", "a" * 120 + ".csv"])] = b"id\n"
        method = self.rng.choice([zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA])
        return "set.zip", hostile.zip_of(files, method), False, False

    # -- texts, rules blocks, decks
    def _strings(self, value, path=()):
        if isinstance(value, dict):
            for k, v in value.items():
                yield from self._strings(v, path + (k,))
        elif isinstance(value, list):
            for i, v in enumerate(value):
                yield from self._strings(v, path + (i,))
        elif isinstance(value, str):
            yield path

    def _set(self, data, path, value):
        for k in path[:-1]:
            data = data[k]
        data[path[-1]] = value

    def hostile_name(self):
        data = json.loads(self.text)
        names = [p for p in self._strings(data) if "name" in p or (p and p[0] == "types")]
        path = self.rng.choice(names)
        node = data
        for k in path:
            node = node[k]
        ch = self.rng.choice(HOSTILE_CHARS)
        at = self.rng.randrange(len(node) + 1)
        self._set(data, path, node[:at] + ch + node[at:])
        return "set.json", json.dumps(data, ensure_ascii=self.rng.random() < 0.5).encode(), False, True

    def shown_text(self):
        data = json.loads(self.text)
        path = self.rng.choice(list(self._strings(data)))
        self._set(data, path, self.rng.choice(SHOWN_TEXTS)[:40])
        return "set.json", json.dumps(data, ensure_ascii=False).encode(), False, False

    def rules_block(self):
        word = self.rng.choice(RULE_WORDS[self.game])
        wide = "".join(chr(ord(c) + 0xFEE0) if "A" <= c <= "Z" else c for c in word.upper())     # ＲＵＬＥＳ
        spelled = self.rng.choice([word.title(), word.upper(), word.replace("_", "-"), word.replace("_", " ").title(),
                                   word.capitalize(), wide])
        if spelled == word:
            spelled = word.upper()
        data = json.loads(self.text)
        data[spelled] = self.rng.choice([{"max_turns": 1}, [], 3, "x", {"life": 99}])
        return "set.json", json.dumps(data, ensure_ascii=False).encode(), False, True

    def broken_deck(self):
        data = json.loads(self.text)
        decks = data.get("decks")
        entries = list(decks.values()) if isinstance(decks, dict) else decks or []
        if not entries:
            return "set.json", b'{"decks": [{}]}', False, True
        deck = self.rng.choice(entries)
        key = self.rng.choice([k for k in deck if k not in ("name",)] or ["id"])
        deck[key] = self.rng.choice([[], {}, "nosuchcard", ["nosuchcard"] * 50, {"nosuchcard": 99}, -1, 10 ** 9, None])
        return "set.json", json.dumps(data, ensure_ascii=False).encode(), False, False

    def too_many(self):
        section = self.rng.choice(["decks", "cards", "kings", "characters", "types"])
        n = self.rng.choice([501, 1_000, 5_000])
        if section == "types":
            value: object = {f"t{i}": {"ja": "タ", "en": "T"} for i in range(min(n, 199))}
        else:
            value = [{"id": f"x{i}"} for i in range(n)]
        return "set.json", json.dumps({section: value}).encode(), False, True


def _texts(value):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _texts(k)
            yield from _texts(v)
    elif isinstance(value, list):
        for v in value:
            yield from _texts(v)
    elif isinstance(value, str):
        yield value


def _check(game: str, name: str, body: bytes, mode: str = "extend"):
    files, read = read_upload(name, body)
    built = build_set(game, files, mode, read_problems=read)
    if built.content is not None:
        built.content.digest()
    return built


@pytest.mark.parametrize("game", games.GAMES)
def test_hostile_uploads_crash_nothing_stall_nothing_bloat_nothing_and_store_nothing_refused(game):
    rng = random.Random(f"hostile:{game}")
    maker = Maker(game, rng)
    seen: dict[str, int] = {}
    worst_s, worst_mib, sampled = 0.0, 0.0, 0
    measured: set = set()               # the large uploads measured (a large one repeats: once is enough)
    for i in range(PER_GAME):
        attack, name, body, large, must_refuse = maker.make()
        mode = rng.choice(["extend", "alone"])
        seen[attack] = seen.get(attack, 0) + 1
        where = (game, i, attack, mode, name, body[:120])
        t0 = time.process_time()
        try:
            built = _check(game, name, body, mode)
        except Exception as exc:        # noqa: BLE001 — the point: nothing may escape
            raise AssertionError(f"{where}: {type(exc).__name__}: {exc}") from exc
        took = time.process_time() - t0
        if took > worst_s:
            worst_s, slowest = took, where[:4]
        assert took < SECONDS, (where, took)
        if i % 50 == 0 or (large and (attack, len(body), hash(body)) not in measured and seen[attack] % 5 == 1):
            measured.add((attack, len(body), hash(body)))
            tracemalloc.start()
            try:
                _check(game, name, body, mode)
                peak = tracemalloc.get_traced_memory()[1]
            finally:
                tracemalloc.stop()
            sampled += 1
            if peak / 2 ** 20 > worst_mib:
                worst_mib, largest = peak / 2 ** 20, where[:4]
            assert peak < BUDGET, (where, peak / 2 ** 20)
        if must_refuse:
            assert not built.ok, where
        if not built.ok:
            # nothing is stored for a refusal, and the refusal is located: each problem names its
            # file (a problem of the whole set — a set that stands alone with too few decks, or
            # Art of War's without a KING — names its field)
            assert built.content is None and built.problems, where
            for p in built.problems:
                assert p.file or p.field in ("decks", "kings"), (where, p)
            if i % 10 == 0:
                for locale in ("en", "ja"):
                    for p in built.problems:
                        text = p.render(locale)
                        text.encode("utf-8")
                        assert "cardcheck." not in text, (where, text)
            continue
        # what is stored can mention no one and turns no text around
        stored = list(_texts(built.content.to_json()))
        for text in stored:
            assert "@everyone" not in text and "@here" not in text and "<@" not in text and "<#" not in text, \
                (where, text)
            assert text_problem(text.replace("\u200b", "")) is None, (where, text)
    assert set(seen) == {a.__name__ for a, _w in maker.attacks}, seen
    print(f"{game}: {PER_GAME} uploads, slowest {worst_s:.3f} s ({slowest}), largest {worst_mib:.1f} MiB "
          f"({largest}) over {sampled} measured")
