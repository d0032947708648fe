"""Where a line of picture text may break: words for spaced text, characters for Japanese, and
the Japanese line-breaking rules (禁則処理) for both.

Pure: the width of a piece of text comes from ``measure`` (pixels, or anything additive), so the
rules are tested without fonts::

    >>> break_lines("「魔剣」を使う。", 4, len)
    ['「魔剣」', 'を使う。']
    >>> break_lines("ダメージだ。", 5, len)      # 。 never starts a line: だ。 go down together
    ['ダメージ', 'だ。']
    >>> break_lines("a 《AVI》 b", 5, len)
    ['a', '《AVI》', 'b']
    >>> break_lines("少なすぎ（2件）", 6, len)   # a number and its counter stay together
    ['少なすぎ', '（2件）']

Rules (JIS X 4051, simplified the way most printed rulebooks follow them):
- no closing punctuation ``。、，．」』）》】〉］｝・：；！？ー～…`` and no small kana
  (``ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ``) at the start of a line;
- no opening bracket ``「『（《【〈［｛`` at the end of a line;
- a number stays with the wide character after it (its counter: ``5ゲーム``, ``（2件）``);
- a word of Latin letters or digits stays whole when it fits on a line; spaces are dropped at a
  break; a word wider than a whole line is broken between characters (still by the rules).
When the rules cannot be kept without making a line longer than ``width`` (a line of nothing but
a closing bracket and small kana), the line is broken anyway: never wider than ``width`` unless
one character alone is wider.
"""
from __future__ import annotations

from typing import Callable

NO_START = frozenset("。、，．,.」』）)》〉】］｝]}・：；:;！？!?ー～〜…‥ゝゞヽヾ々"
                     "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ")
NO_END = frozenset("「『（(《〈【［｛[{")


def _is_wide(ch: str) -> bool:
    """A character a line may break before or after on its own (CJK, full-width forms)."""
    return ord(ch) >= 0x2E80 or ch in "…‥"


def _tokens(para: str) -> list[str]:
    """Unbreakable pieces: a run of narrow characters (a word, with its trailing spaces) or one
    wide character; then glued so that no piece starts with a NO_START character and none ends
    with a NO_END one."""
    raw: list[str] = []
    word = ""
    for ch in para:
        if ch == " ":
            if word:
                word += ch
            elif raw:
                raw[-1] += ch
            else:
                word = ch
        elif _is_wide(ch):
            if word:
                raw.append(word)
                word = ""
            raw.append(ch)
        elif word.endswith(" "):
            raw.append(word)
            word = ch
        else:
            word += ch
    if word:
        raw.append(word)
    out: list[str] = []
    for tok in raw:
        # a number keeps the counter or unit after it on its line (5ゲーム, （2件）, 3枚)
        counted = bool(out) and out[-1].rstrip(" ") == out[-1] and out[-1][-1].isdigit() and _is_wide(tok[0])
        if out and (tok[0] in NO_START or out[-1][-1] in NO_END or counted):
            out[-1] += tok
        else:
            out.append(tok)
    return out


def _bad_cut(s: str, i: int) -> bool:
    """True if breaking ``s`` before index ``i`` breaks a rule."""
    return s[i] in NO_START or s[i - 1] in NO_END


def _split_long(tok: str, width: float, measure: Callable[[str], float]) -> list[str]:
    """A piece wider than a line, cut between characters: as much as fits on each line, the cut
    moved back so that no part starts with a NO_START or ends with a NO_END character (unless
    nothing else fits)."""
    parts: list[str] = []
    rest = tok
    while len(rest) > 1 and measure(rest) > width:
        cut = 1
        while cut < len(rest) - 1 and measure(rest[:cut + 1]) <= width:
            cut += 1

        good = cut
        while good > 1 and _bad_cut(rest, good):
            good -= 1
        if _bad_cut(rest, good):
            good = cut
        parts.append(rest[:good].rstrip())
        rest = rest[good:].lstrip()
    if rest:
        parts.append(rest)
    return parts


def break_lines(text: str, width: float, measure: Callable[[str], float]) -> list[str]:
    """``text`` in lines at most ``width`` wide (as ``measure`` says), broken by the rules
    above; ``\\n`` always breaks.  Spaces at a break are dropped."""
    out: list[str] = []
    # A line's width grows by about its next token's (the token measured once, cached by the
    # caller's measure): while that estimate stays clearly inside the width the exact measure of
    # the whole line is skipped — only kerning between two tokens could tell them apart, and it
    # is far smaller than the slack — so a long Japanese text costs one measure per character
    # kind instead of one per character (the same lines either way).
    slack = max(4.0, 0.25 * measure("国"))
    for para in str(text).split("\n"):
        line, est = "", 0.0
        for tok in _tokens(para):
            cand = line + tok
            grown = est + measure(tok)
            if not line.strip() or grown <= width - slack:
                line, est = cand, grown
                continue
            exact = measure(cand.rstrip())
            if exact <= width:
                line, est = cand, exact
                continue
            out.append(line.rstrip())
            line, est = tok, measure(tok)
        out.append(line.rstrip())
    fitted: list[str] = []
    for line in out:                     # a piece wider than a whole line: cut between characters
        fitted.extend(_split_long(line, width, measure) if measure(line) > width else [line])
    return fitted
