"""A card set's name as people read it: cleaned when typed, and two keys to compare it by.

A set is found by its name without regard to case (``Owl Kings`` and ``owl kings`` are one set),
and a new set may not take a name that only *looks* like another set's — one with a Cyrillic
``О`` for the Latin ``O``, a full-width ``Ｏ``, or digits for look-alike letters — or anyone could
put an impostor beside the set a server plays.  Invisible characters (zero-width spaces, a
direction override) are refused outright: they are never part of a name anyone types on purpose.

- :func:`clean` — the name as stored (NFC, spaces collapsed), or None when it holds a character
  a name may not (controls, invisible and direction characters, unassigned or private ones);
- :func:`same_key` — the key of "the same set" (NFKC, case-folded);
- :func:`looks_like` — "looks the same": each character replaced by a representative of
  the characters it can be confused with (the Unicode confusables data, from the
  ``confusable-homoglyphs`` package), after :func:`same_key`.

>>> clean("  Owl   Kings "), clean("Owl\\u200bKings"), clean("Owl\\u202eKings")
('Owl Kings', None, None)
>>> same_key("Owl Kings") == same_key("OWL KINGS"), looks_like("Owl Kings", "Оwl Кings")
(True, True)
>>> looks_like("フクロウ王", "フクロウ玉"), looks_like("Set AI", "Set AL")
(False, False)
"""
from __future__ import annotations

import functools
import unicodedata

# Unicode categories a name may not hold: controls, format characters (zero-width, direction
# marks and overrides, the byte-order mark, the soft hyphen), surrogates, private use, unassigned,
# and the line and paragraph separators.
_REFUSED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def clean(name: str) -> str | None:
    """``name`` as stored (NFC, runs of spaces as one, trimmed), or None if it holds a character
    of :data:`_REFUSED` (the caller says what a name may hold)."""
    text = unicodedata.normalize("NFC", str(name))
    if any(unicodedata.category(ch) in _REFUSED for ch in text):
        return None
    return " ".join(text.split())


def same_key(name: str) -> str:
    """Names of one set: compatibility forms folded (full-width letters), case-folded."""
    return unicodedata.normalize("NFKC", " ".join(str(name).split())).casefold()


@functools.lru_cache(maxsize=1)
def _representatives() -> dict[str, str]:
    """Character -> the representative of the characters it can be confused with (the smallest
    code point of its group; groups are joined when the data links them either way)."""
    from confusable_homoglyphs.confusables import confusables_data

    parent: dict[str, str] = {}

    def find(ch: str) -> str:
        root = ch
        while parent.get(root, root) != root:
            root = parent[root]
        while parent.get(ch, ch) != root:          # path compression
            parent[ch], ch = root, parent[ch]
        return root

    def join(a: str, b: str) -> None:
        ra, rb = find(a), find(b)
        if ra != rb:
            lo, hi = (ra, rb) if ra < rb else (rb, ra)
            parent[hi] = lo
    for ch, glyphs in confusables_data.items():
        if len(ch) != 1:
            continue
        for glyph in glyphs:
            other = glyph.get("c", "").replace("\u200e", "").replace("\u200f", "")
            if len(other) == 1:
                join(ch, other)
    return {ch: find(ch) for ch in list(parent)}


def _mapped(text: str) -> str:
    reps = _representatives()
    return "".join(reps.get(ch, ch) for ch in text)


def look_keys(name: str) -> frozenset[str]:
    """Two names look alike when they share a key (see the module docstring): the confusables
    mapped as written (a Cyrillic ``К`` is a Latin ``K``, a digit ``0`` an ``O``) and mapped
    after case-folding (a Cyrillic ``р`` is a Latin ``p``).  Mapping once each way, never twice,
    keeps ``AI`` and ``AL`` apart (an ``I`` is like an ``l``, not like an ``L``)."""
    text = unicodedata.normalize("NFKC", " ".join(str(name).split()))
    return frozenset((_mapped(text), _mapped(text.casefold())))


def looks_like(a: str, b: str) -> bool:
    """Do the names ``a`` and ``b`` look alike (or name one set)?"""
    return same_key(a) == same_key(b) or bool(look_keys(a) & look_keys(b))


__all__ = ["clean", "same_key", "look_keys", "looks_like"]
