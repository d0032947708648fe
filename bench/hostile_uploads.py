"""A fixed corpus of hostile card-set uploads (issue 45), shared by ``python -m bench --cards``
(``worst_upload_s``, ``worst_upload_mib``) and the tests (tests/test_card_sets_hostile*.py).

Each :class:`Shape` is what a member with upload rights who wants to hurt the bot would send:
zip bombs and damaged zip members (deflate, bzip2, LZMA, a wrong CRC, an LZMA dictionary of
4 GiB, a directory of 15,000 entries), deep and huge JSON, wide CSVs, lone surrogates, names
with direction and zero-width characters, mentions and markdown, formula prefixes, rules
blocks in other letter cases, numeric extremes, too many cards, decks and types.  The shapes of
the issue's findings are there as it measured them: ``b"a," * 30000``; a 64 KiB CSV of 11,000
columns × 2,000 rows and a zip of four; 30,000 stub cards in 450 KiB of JSON.

:func:`measure` runs one shape as ``/cards upload`` checks it (:func:`data.card_sets.upload.
read_upload` then :func:`data.card_sets.build.build_set`, and the version's digest when it is
valid) and returns its CPU seconds, or with ``memory=True`` its peak of Python allocations.

>>> sorted({s.game for s in shapes()}) == sorted(["art_of_war", "avalon", "logic_square", "maken"])
True
"""
from __future__ import annotations

import csv
import io
import json
import struct
import time
import tracemalloc
import zipfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

GAMES = ("logic_square", "maken", "art_of_war", "avalon")
DOCS = Path(__file__).resolve().parent.parent / "docs" / "card_sets"
# rules blocks in other letter cases (finding 4), by game: each must be refused, never stored
RULES_BLOCKS = {
    "logic_square": ("Editions", "RULES", "Max_Turns", "Hand_Size"),
    "maken": ("Editions", "RULES", "Rules"),
    "art_of_war": ("Editions", "RULES", "Units", "Max_Turns"),
    "avalon": ("Editions", "RULES", "MAX_ROUNDS", "Target_Mana"),
}


# the shapes of the issue's findings, as it measured them (``--tiny`` measures only these)
ISSUE_SHAPES = frozenset({
    "zip member: deflate data damaged", "zip member: lzma data damaged", "JSON: a lone surrogate in a name",
    "JSON: a lone surrogate in an effect's name", "JSON: 30,000 stub cards (450 KiB)", "CSV: the header b'a,' * 30000",
    "CSV: 64 KiB, 11,000 columns x 2,000 rows", "zip: four such CSVs", "JSON: 512 KiB of [",
    "zip bomb: deflate, 16 MiB of zeros said to be 100 bytes",
    "Battle Logic Square: mentions in a type's names", "rules block: Editions", "rules block: RULES",
    "rules block: Units", "rules block: MAX_ROUNDS", "rules block: Target_Mana",
})


@dataclass(frozen=True)
class Shape:
    """One hostile upload: ``refused`` True when it must be refused, None when it may be taken
    (its texts made harmless: a mention in a type name is stored neutralised)."""

    label: str
    game: str
    filename: str
    body: bytes
    refused: bool | None = True


def zip_of(members: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as z:
        for name, body in members.items():
            z.writestr(name, body)
    return buf.getvalue()


def lie_about_sizes(data: bytes, size: int = 100) -> bytes:
    """A zip whose headers (local and central) say each member unpacks to ``size`` bytes."""
    out = bytearray(data)
    at = 0
    while (at := out.find(b"PK\x03\x04", at)) >= 0:
        out[at + 22:at + 26] = struct.pack("<I", size)
        at += 4
    at = 0
    while (at := out.find(b"PK\x01\x02", at)) >= 0:
        out[at + 24:at + 28] = struct.pack("<I", size)
        at += 4
    return bytes(out)


def _damaged(members: dict[str, bytes], method: int) -> bytes:
    """A zip whose one member's packed data has 16 bytes flipped in its middle."""
    data = bytearray(zip_of(members, method))
    name = next(iter(members)).encode()
    start = data.find(name) + len(name)
    end = data.find(b"PK\x01\x02")
    mid = start + max(12, (end - start) // 2)
    for i in range(mid, min(mid + 16, end)):
        data[i] ^= 0xA5
    return bytes(data)


def _lzma_dictionary(members: dict[str, bytes], size: int = 0xFFFFFFFF) -> bytes:
    """A valid LZMA zip whose member asks for a dictionary of ``size`` bytes (4 GiB)."""
    data = bytearray(zip_of(members, zipfile.ZIP_LZMA))
    name = next(iter(members)).encode()
    props = data.find(name) + len(name) + 4 + 1          # version (2), size (2), lc/lp/pb (1)
    data[props:props + 4] = struct.pack("<I", size)
    return bytes(data)


def _wrong_crc(members: dict[str, bytes]) -> bytes:
    data = bytearray(zip_of(members, zipfile.ZIP_STORED))
    for sig, off in ((b"PK\x03\x04", 14), (b"PK\x01\x02", 16)):
        at = data.find(sig)
        data[at + off:at + off + 4] = b"\x00\x00\x00\x00"
    return bytes(data)


def _many_entries(n: int = 15_000) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
        for i in range(n):
            z.writestr(f"{i}.csv", b"")
    return buf.getvalue()


@lru_cache(maxsize=None)
def example_files(game: str) -> dict[str, bytes]:
    """The game's worked example of ``docs/card_sets/`` (its CSVs)."""
    return {p.name: p.read_bytes() for p in sorted(DOCS.glob(f"{game}_*.csv"))}


@lru_cache(maxsize=None)
def example_json(game: str) -> dict:
    """The worked example as one JSON card file (its JSON export)."""
    from data.card_sets.build import build_set
    from data.card_sets.export import export_files
    from data.card_sets.upload import read_upload

    files = [f for name, body in example_files(game).items() for f in read_upload(name, body)[0]]
    built = build_set(game, files, "extend")
    if not built.ok:
        raise RuntimeError(f"{game}: the worked example no longer builds: {built.problems[:2]}")
    return json.loads(export_files(built.content, "set")["set.json"])


def _json(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False).encode("utf-8")


def _first_text(data: Any, path: tuple = ()) -> tuple | None:
    """The path of the first ``{"ja", "en"}`` name in ``data`` (a card's or deck's)."""
    if isinstance(data, dict):
        if isinstance(data.get("name"), dict) and isinstance(data["name"].get("en"), str):
            return path + ("name",)
        items = data.items()
    elif isinstance(data, list):
        items = enumerate(data)
    else:
        return None
    for k, v in items:
        found = _first_text(v, path + (k,))
        if found:
            return found
    return None


def with_name(game: str, text: str, lang: str = "en") -> bytes:
    """The worked example's JSON with its first card's (or deck's) name in ``lang`` set to ``text``."""
    data = json.loads(json.dumps(example_json(game)))
    path = _first_text({k: v for k, v in data.items() if k != "types"})
    node = data
    for k in path:
        node = node[k]
    node[lang] = text
    return _json(data)


def _csv(rows: list[list[str]]) -> bytes:
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    return out.getvalue().encode("utf-8")


def _base36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, d = divmod(n, 36)
        out = digits[d] + out
        if n == 0:
            return "c" + out


def wide_csv(columns: int = 11_000, rows: int = 2_000) -> bytes:
    """A header of ``columns`` distinct names and ``rows`` short rows (finding 3: about 64 KiB,
    11,000 columns × 2,000 rows)."""
    return (",".join(_base36(i) for i in range(columns)) + "\n" + "x\n" * rows).encode()


@lru_cache(maxsize=None)
def shapes() -> tuple[Shape, ...]:
    """Every shape of the corpus, in a fixed order (built once)."""
    out: list[Shape] = []
    zeros = bytes(16 * 1024 * 1024)
    kings = example_files("art_of_war")["art_of_war_kings.csv"]
    # finding 1: every decoder's damage, and what a zip's headers may lie about
    for label, method in (("deflate", zipfile.ZIP_DEFLATED), ("bzip2", zipfile.ZIP_BZIP2), ("lzma", zipfile.ZIP_LZMA)):
        out.append(Shape(f"zip member: {label} data damaged", "art_of_war", "set.zip",
                         _damaged({"kings.csv": kings * 20}, method)))
        out.append(Shape(f"zip bomb: {label}, 16 MiB of zeros said to be 100 bytes", "art_of_war", "bomb.zip",
                         lie_about_sizes(zip_of({"kings.csv": zeros}, method))))
    out.append(Shape("zip member: LZMA asking for a 4 GiB dictionary", "art_of_war", "set.zip",
                     _lzma_dictionary({"art_of_war_kings.csv": kings, **{k: v for k, v in example_files("art_of_war").items()
                                                                         if "kings" not in k}}), None))
    out.append(Shape("zip member: a wrong CRC", "art_of_war", "set.zip", _wrong_crc({"kings.csv": kings})))
    out.append(Shape("zip: a directory of 15,000 entries", "art_of_war", "many.zip", _many_entries()))
    out.append(Shape("zip bomb: 20 members of 512 KiB of zeros", "art_of_war", "bomb.zip",
                     zip_of({f"f{i}.csv": b"id\n" + bytes(512 * 1024 - 3) for i in range(20)})))
    # finding 1: lone surrogates, in a value, a key, an effect's name
    out.append(Shape("JSON: a lone surrogate in a name", "art_of_war", "set.json",
                     with_name("art_of_war", "OWL").replace(b'"OWL"', b'"A\\ud800B"')))
    out.append(Shape("JSON: a lone surrogate in a key", "maken", "set.json", b'{"cards": [{"i\\udfffd": "x"}]}'))
    ls = json.loads(json.dumps(example_json("logic_square")))
    effect = next(e for c in ls["cards"] for e in c.get("effects", []) if isinstance(e, dict) and "do" in e)
    effect["do"] = "A\ud800B"
    out.append(Shape("JSON: a lone surrogate in an effect's name", "logic_square", "set.json",
                     json.dumps(ls).encode()))
    # finding 2: quadratic work
    stubs = json.dumps({"cards": [{"id": f"c{i}"} for i in range(30_000)]}, separators=(",", ":")).encode()
    out.append(Shape("JSON: 30,000 stub cards (450 KiB)", "logic_square", "stubs.json", stubs))
    out.append(Shape("CSV: the header b'a,' * 30000", "logic_square", "wide.csv", b"a," * 30_000))
    # finding 3: memory
    wide = wide_csv()
    out.append(Shape("CSV: 64 KiB, 11,000 columns x 2,000 rows", "logic_square", "wide.csv", wide))
    out.append(Shape("zip: four such CSVs", "logic_square", "wide.zip",
                     zip_of({f"w{i}.csv": wide for i in range(4)})))
    out.append(Shape("CSV: 2 columns, rows of 11,000 empty cells", "art_of_war", "kings.csv",
                     b"id,name_ja\n" + (b"k1,a" + b"," * 11_000 + b"\n") * 40))
    head = kings.split(b"\n", 1)[0]
    bad_row = b",".join([b"zz"] * (head.count(b",") + 1)) + b"\n"
    out.append(Shape("CSV: 2,000 rows of bad cells", "art_of_war", "kings.csv", head + b"\n" + bad_row * 2_000))
    out.append(Shape("zip: four CSVs of 2,000 rows each", "art_of_war", "rows.zip",
                     zip_of({f"k{i}.csv": head + b"\n" + b"k,a\n" * 2_000 for i in range(4)})))
    out.append(Shape("CSV: one cell of 500 KiB", "art_of_war", "kings.csv", head + b"\nk," + b"x" * 500_000 + b"\n"))
    out.append(Shape("CSV: an unterminated quote", "art_of_war", "kings.csv", head + b'\n"k1,' + b"x" * 1000))
    # deep and huge JSON
    out.append(Shape("JSON: 512 KiB of [", "maken", "deep.json", b"[" * (512 * 1024 - 1)))
    out.append(Shape("JSON: nested 33 deep", "maken", "deep.json", b'{"cards":' + b"[" * 33 + b"]" * 33 + b"}"))
    for label, item in (("empty lists", b"[]"), ("empty objects", b"{}"), ("short texts", b'"ab"'), ("zeros", b"0")):
        n = (512 * 1024 - 20) // (len(item) + 1)
        out.append(Shape(f"JSON: 512 KiB of {label}", "maken", "wide.json",
                         b'{"cards":[' + b",".join([item] * n) + b"]}"))
    keys = b",".join(b'"k%d":0' % i for i in range(45_000))
    out.append(Shape("JSON: an object of 45,000 keys", "maken", "keys.json", b"{" + keys + b"}"))
    out.append(Shape("zip: twenty JSON files of 100 KiB of objects", "maken", "wide.zip",
                     zip_of({f"f{i}.json": b'{"comment":[' + b",".join([b"{}"] * 33_000) + b"]}"
                             for i in range(20)})))
    # numeric extremes
    extreme = json.loads(json.dumps(example_json("art_of_war")))
    extreme["kings"][0]["attack"] = 987654321
    for label, number in (("1e400", b"1e400"), ("a 5,000-digit number", b"9" * 5000),
                          ("-0.000…1", b"-0." + b"0" * 40 + b"1"), ("-2**63", b"-9223372036854775808")):
        out.append(Shape(f"JSON: {label}", "art_of_war", "set.json", _json(extreme).replace(b"987654321", number)))
    out.append(Shape("JSON: a key twice", "art_of_war", "set.json", b'{"kings": [], "kings": []}'))
    # names and texts: direction, invisible and control characters; mentions and markdown
    for label, text in (("a direction override", "OWL\u202eKING"), ("a zero-width space", "OWL\u200bKING"),
                        ("a byte-order mark", "\ufeffOWL"), ("a control character", "OWL\x07"),
                        ("an isolate", "\u2066OWL\u2069"), ("a soft hyphen", "OW\u00adL")):
        for game in GAMES:
            out.append(Shape(f"name: {label}", game, "set.json", with_name(game, text)))
    for label, text in (("@everyone", "@everyone"), ("a role mention", "<@&123456789012345678>"),
                        ("a masked link", "[a](https://e.co)[b](https://e.co)"), ("a formula", "=HYPERLINK(\"x\")")):
        for game in GAMES:
            out.append(Shape(f"name: {label}", game, "set.json", with_name(game, text), None))
    types = json.loads(json.dumps(example_json("logic_square")))
    types["types"] = dict(types.get("types") or {}, pulse={"ja": "@everyone", "en": "<@&123> **loud**"})
    out.append(Shape("Battle Logic Square: mentions in a type's names", "logic_square", "set.json",
                     json.dumps(types).encode(), None))
    # rules blocks in other letter cases (finding 4)
    for game, blocks in RULES_BLOCKS.items():
        for key in blocks:
            data = dict(example_json(game))
            data[key] = {"max_turns": 1} if key != "Units" else []
            out.append(Shape(f"rules block: {key}", game, "set.json", _json(data)))
    # too many of a kind
    many = json.loads(json.dumps(example_json("art_of_war")))
    many["decks"] = [dict(many["decks"][0], id=f"d{i}") for i in range(1_000)]
    out.append(Shape("JSON: 1,000 decks", "art_of_war", "set.json", _json(many)))
    lots = json.loads(json.dumps(example_json("logic_square")))
    lots["types"] = {f"t{i}": {"ja": "タ", "en": "T"} for i in range(1_000)}
    out.append(Shape("JSON: 1,000 types", "logic_square", "set.json", _json(lots)))
    return tuple(out)


def measure(shape: Shape, *, memory: bool = False) -> dict[str, Any]:
    """One shape checked as ``/cards upload`` checks it: ``seconds`` (CPU), ``mib`` (the peak of
    Python allocations, with ``memory``), ``refused`` and the problems' keys."""
    from data.card_sets.build import build_set
    from data.card_sets.upload import read_upload

    if memory:
        tracemalloc.start()
    t0 = time.process_time()
    try:
        files, read = read_upload(shape.filename, shape.body)
        built = build_set(shape.game, files, "extend", read_problems=read)
        if built.content is not None:
            built.content.digest()
            built.content.canonical()
    finally:
        seconds = time.process_time() - t0
        peak = tracemalloc.get_traced_memory()[1] if memory else 0
        if memory:
            tracemalloc.stop()
    return {"seconds": seconds, "mib": peak / 2 ** 20, "refused": not built.ok, "built": built,
            "keys": sorted({p.key for p in built.problems})}


def worst(log: Any = lambda s: None, only: Any = None) -> dict[str, Any]:
    """The slowest and the largest shape of the corpus (``only``: of the shapes so labelled):
    ``worst_upload_s`` (CPU seconds, measured without tracemalloc) and ``worst_upload_mib`` (the
    peak of Python allocations)."""
    every = tuple(s for s in shapes() if only is None or s.label in only)
    measure(every[0])                       # imports and caches: not an upload's cost
    seconds = {s.label + " · " + s.game: measure(s)["seconds"] for s in every}
    mib = {s.label + " · " + s.game: measure(s, memory=True)["mib"] for s in every}
    slow = max(seconds, key=seconds.get)
    big = max(mib, key=mib.get)
    log(f"cards: hostile uploads: {len(every)} shapes; slowest {seconds[slow]:.3f} s ({slow}); "
        f"largest {mib[big]:.1f} MiB ({big})")
    return {"worst_upload_s": seconds[slow], "worst_upload_mib": mib[big], "slowest": slow, "largest": big,
            "shapes": len(every)}


__all__ = ["Shape", "shapes", "measure", "worst", "ISSUE_SHAPES", "zip_of", "lie_about_sizes", "example_files", "example_json",
           "with_name", "wide_csv", "RULES_BLOCKS", "GAMES"]
