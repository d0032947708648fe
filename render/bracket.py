"""Pictures of an elimination bracket (single or double elimination), as PNG pages.

``draw_bracket(view, locale)`` draws a bracket view (the shape ``host.events.bracket.view()``
produces: sections of rounds of matches of two slots) on as few pages as stay readable on a phone,
that is with the picture scaled to 400 px wide and no text smaller than 8 px there:

- each section is its own chain of rounds; a double elimination's grand final continues the
  losers' bracket (``losers → final``), so 16 players fit on two pages: the winners' bracket, then
  the losers' bracket and the grand final;
- a chain that does not fit one page is cut into equal parts of its first rounds (a 64-player
  bracket: four quarters of 16), each on its own page, and a last page goes on from the parts'
  last round (repeated there, so the last page reads as a small bracket of its own); that last
  page is cut again if it still does not fit;
- a page lays its rounds out as columns (left to right) or, when that gives wider boxes (the
  losers' bracket: many rounds of few matches), as rows (top to bottom) with the round names on
  the left.

Every word comes from the catalog (``events.pic.*``); the view's titles are used only when they
are catalog keys, else the round names follow from the structure (決勝, 準決勝, 敗者側決勝 …).
Matches of one round feed the next by position: match ``j`` of a round of ``n`` matches goes to
match ``j * n_next // n`` (two into one, or one into one in the losers' bracket).

>>> final = {"id": "W1-1", "status": "done", "slots": [{"name": "Alice", "seed": 1, "won": True, "score": "2"},
...                                                   {"name": "Bruno", "seed": 2, "won": False, "score": "1"}]}
>>> view = {"kind": "single", "sections": [{"key": "winners", "title": "", "rounds": [{"title": "", "matches": [final]}]}]}
>>> pages = draw_bracket(view, "en")
>>> len(pages), pages[0][:8] == b"\\x89PNG\\r\\n\\x1a\\n"
(1, True)

Sample views, fully played by the host's own bracket: :func:`bench.event_samples.sample_view`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from data import i18n
from render import fonts
from render.base import INK, MUTED, PAPER, WHITE, encode_png
from render.textfit import draw_fit, fit_block, fit_name, min_px

ACCENT = (0, 114, 178)          # a match that can be played now
WIN_FILL = (255, 241, 190)      # the winner's slot
WIRE = (150, 142, 130)          # lines from a match to the next round
FRAME = (176, 168, 154)
WAIT_FRAME = (212, 206, 196)
DIVIDER = (226, 220, 210)


# --------------------------------------------------------------------------- sizes
# the lengths of a page, designed at 800 px wide and scaled with the width
DESIGN = {
    "title": 26, "slot": 30,         # the page's title; the height of one player's line in a box
    "margin": 12, "header": 44,      # around the page; the title's band
    "band": 28,                      # the round names above the columns
    "col_gap": 22, "match_gap": 14,  # between columns (the lines to the next round); boxes of a round
    "row_gap": 30,                   # between rows (laid out top to bottom)
    "min_box": 140, "max_box": 270,  # narrower boxes hold no name worth reading; wider ones waste room
    "max_content": 1000,             # the tallest bracket a phone shows without losing it
}


class Metrics:
    """Every length of a bracket page ``width`` px wide (:data:`DESIGN`, scaled); ``small`` (seeds,
    scores, round names) is 8 px once shown 400 px wide, ``name`` a little larger."""

    title: int
    slot: int
    margin: int
    header: int
    band: int
    col_gap: int
    match_gap: int
    row_gap: int
    min_box: int
    max_box: int
    max_content: int

    def __init__(self, width: int) -> None:
        self.width = int(width)
        for key, value in DESIGN.items():
            setattr(self, key, self.px(value))
        self.small = max(min_px(self.width), self.px(16))
        self.name = max(self.small + 1, self.px(18))
        self.box_h = 2 * self.slot

    def px(self, v: float) -> int:
        return max(1, round(v * self.width / 800))


# --------------------------------------------------------------------------- structure
@dataclass
class Chain:
    """The rounds drawn as one bracket: a section, or the losers' bracket and the grand final."""

    key: str                          # single | winners | losers | losers_final | final
    titles: list[str]
    rounds: list[list[dict]]
    finals: int = 0                   # how many of the last rounds are the grand final's


@dataclass
class Page:
    chain: Chain
    spans: list[tuple[int, int, int]]   # (round of the chain, first match, end)
    part: int = 1
    parts: int = 1


def _t(key: str, locale: str, **params: Any) -> str:
    return i18n.t(key, locale, **params)


def _round_title(kind: str, key: str, i: int, n: int, given: Any, locale: str) -> str:
    """The name of round ``i`` of ``n`` of section ``key``: the view's title when it is a
    catalog key, else from the structure."""
    if isinstance(given, str) and given and i18n.has(given):
        return _t(given, locale)
    left = n - 1 - i
    if key == "final" and kind == "double":
        return _t("events.pic.round.gf" if i == 0 else "events.pic.round.gf_reset", locale)
    if key == "losers":
        return _t("events.pic.round.l_final", locale) if left == 0 else _t("events.pic.round.n", locale, n=i + 1)
    if left == 0 and kind == "double":      # the winners' final is not the event's final
        return _t("events.pic.round.w_final", locale)
    names = {0: "final", 1: "semi", 2: "quarter"}
    if left in names:
        return _t(f"events.pic.round.{names[left]}", locale)
    return _t("events.pic.round.n", locale, n=i + 1)


def chains(view: dict, locale: str) -> list[Chain]:
    """The view's sections as chains of rounds; a "final" section continues the chain before it."""
    kind = str(view.get("kind") or "single")
    sections = [s for s in view.get("sections") or [] if any(r.get("matches") for r in s.get("rounds") or [])]
    if kind != "double":             # one chain: its rounds are named from its end (決勝, 準決勝 …)
        rounds = [r for s in sections for r in s.get("rounds") or [] if r.get("matches")]
        if not rounds:
            return []
        return [Chain("single", [_round_title(kind, "single", i, len(rounds), r.get("title"), locale)
                                 for i, r in enumerate(rounds)], [list(r["matches"]) for r in rounds])]
    out: list[Chain] = []
    for sec in sections:
        key = str(sec.get("key") or "winners")
        rounds = [r for r in sec.get("rounds") or [] if r.get("matches")]
        titles = [_round_title(kind, key, i, len(rounds), r.get("title"), locale) for i, r in enumerate(rounds)]
        matches = [list(r["matches"]) for r in rounds]
        if key == "final" and out:
            out[-1].key = "losers_final" if out[-1].key == "losers" else out[-1].key
            out[-1].titles += titles
            out[-1].rounds += matches
            out[-1].finals += len(matches)
        else:
            out.append(Chain(key, titles, matches))
    return out


def target(j: int, n: int, n_next: int) -> int:
    """The match of the next round (``n_next`` matches) that match ``j`` of ``n`` feeds."""
    return j * n_next // max(1, n)


# --------------------------------------------------------------------------- paging
def _label_w(m: Metrics, labels: list[str]) -> int:
    """The width of the round names on the left of a page laid out top to bottom."""
    widest = max((fonts.text_width(s, m.small, True) for s in labels), default=0)
    return int(min(widest, m.width * 0.1)) + m.px(6)     # longer names wrap (up to 3 lines)


def orientation(m: Metrics, counts: list[int], labels: list[str]) -> tuple[str, int, int]:
    """("h" | "v", box width, content height) of a page of rounds of ``counts`` matches: in
    columns ("h") or in rows ("v"), whichever gives wider boxes (columns when close) and fits
    the height; box width 0 when neither fits."""
    inner = m.width - 2 * m.margin
    most = max(counts)
    h_w = min(m.max_box, (inner - (len(counts) - 1) * m.col_gap) // len(counts))
    h_h = most * (m.box_h + m.match_gap) - m.match_gap
    v_w = min(m.max_box, (inner - _label_w(m, labels) - (most - 1) * m.match_gap) // most)
    v_h = len(counts) * (m.box_h + m.row_gap) - m.row_gap
    options = [(w, o, hh) for w, o, hh in ((h_w * 1.1, "h", h_h), (v_w, "v", v_h)) if hh <= m.max_content]
    if not options:
        return "h", 0, h_h
    w, o, hh = max(options, key=lambda x: x[0])
    return o, (h_w if o == "h" else v_w), hh


def fits(m: Metrics, counts: list[int], labels: list[str]) -> bool:
    return orientation(m, counts, labels)[1] >= m.min_box


def paginate(m: Metrics, chain: Chain) -> list[Page]:
    """The pages of a chain (see the module doc): the whole chain when it fits, else parts of its
    first rounds and a page for the rest, largest parts first."""
    counts = [len(r) for r in chain.rounds]
    spans_list = _spans(m, counts, chain.titles, 0)
    return [Page(chain, spans, i + 1, len(spans_list)) for i, spans in enumerate(spans_list)]


def _spans(m: Metrics, counts: list[int], labels: list[str], start: int) -> list[list[tuple[int, int, int]]]:
    n = len(counts)
    if fits(m, counts[start:], labels[start:]):
        return [[(r, 0, counts[r]) for r in range(start, n)]]
    for k in range(n - 1, start, -1):           # rounds start..k-1 cut into parts
        parts = 1
        while parts <= counts[start]:
            if any(counts[r] % parts for r in range(start, k)):
                break
            if fits(m, [counts[r] // parts for r in range(start, k)], labels[start:k]):
                pages = [[(r, p * counts[r] // parts, (p + 1) * counts[r] // parts) for r in range(start, k)]
                         for p in range(parts)]
                rest = k - 1 if k - 1 > start else k
                return pages + _spans(m, counts, labels, rest)
            parts *= 2
    # nothing regular fits: each round alone, in slices of at most 8 matches
    return [[(r, a, min(a + 8, counts[r]))] for r in range(start, n) for a in range(0, counts[r], 8)]


# --------------------------------------------------------------------------- text
def _fitted_width(text: str, size: int, min_size: int, width: int, bold: bool) -> int:
    s, lines = fit_block(text, size, min_size, width, 1, bold)
    return int(max((fonts.text_width(ln, s, bold) for ln in lines), default=0))


def champion(view_chains: list[Chain]) -> tuple[int, str] | None:
    """(the index of the last chain, the winner's name) once the last match is played."""
    if not view_chains or not view_chains[-1].rounds or not view_chains[-1].rounds[-1]:
        return None
    last = view_chains[-1].rounds[-1][-1]
    if last.get("status") != "done":
        return None
    for slot in last.get("slots") or []:
        if slot.get("won") and slot.get("name"):
            return len(view_chains) - 1, str(slot["name"])
    return None


# --------------------------------------------------------------------------- drawing
def _slot_text(match: dict, slot: dict, locale: str) -> tuple[str, bool]:
    """(the text of a slot, whether it is a real name)."""
    name = slot.get("name")
    if name is None or not " ".join(fonts.printable(str(name)).split()):
        return _t("events.pic.bye" if match.get("status") == "bye" else "events.pic.tbd", locale), False
    return str(name), True


def _draw_match(d: ImageDraw.ImageDraw, m: Metrics, box: tuple[int, int, int, int], match: dict, locale: str,
                seed_w: int, score_w: int) -> None:
    x0, y0, x1, y1 = box
    status = match.get("status")
    slots = (list(match.get("slots") or []) + [{}, {}])[:2]
    decided = status == "done" and any(s.get("won") for s in slots)
    d.rectangle(box, fill=WHITE)
    pad = m.px(6)
    for i, slot in enumerate(slots):
        top = y0 + i * m.slot
        won = bool(slot.get("won"))
        if won:
            d.rectangle((x0, top, x1, top + m.slot), fill=WIN_FILL)
        cy = top + m.slot / 2
        text, real = _slot_text(match, slot, locale)
        colour = MUTED if (not real or (decided and not won)) else INK
        x = x0 + pad
        if seed_w:
            if slot.get("seed") is not None and real:
                fonts.text(d, (x + seed_w, cy), str(slot["seed"]), m.small, MUTED, anchor="rm")
            x += seed_w + m.px(6)
        right = x1 - pad
        score = slot.get("score")
        if score not in (None, "") and score_w:
            shown = fit_name(str(score), fonts.font(m.name, won), score_w)
            fonts.text(d, (right, cy), shown, m.name, colour, bold=won, anchor="rm")
        if score_w:
            right -= score_w + m.px(8)
        shown = fit_name(text, fonts.font(m.name, won), right - x)
        if shown:
            fonts.text(d, (x, cy), shown, m.name, colour, bold=won, anchor="lm")
    d.line((x0, y0 + m.slot, x1, y0 + m.slot), fill=DIVIDER, width=1)
    frame, thick = (ACCENT, m.px(3)) if status == "ready" else \
        (WAIT_FRAME, 1) if status == "waiting" else (FRAME, max(1, m.px(1.5)))
    d.rectangle(box, outline=frame, width=thick)


def _page_title(page: Page, locale: str) -> str:
    key = page.chain.key
    if key == "losers_final":
        finals = any(r >= len(page.chain.rounds) - page.chain.finals for r, _, _ in page.spans)
        key = "losers_final" if finals else "losers"
    section = _t(f"events.pic.section.{key if i18n.has(f'events.pic.section.{key}') else 'single'}", locale)
    if page.parts == 1:
        return section
    part = _t("events.pic.part", locale, page=page.part, pages=page.parts)
    return _t("events.pic.page_title", locale, section=section, part=part)


def _positions(spans: list[tuple[int, int, int]], counts_all: list[int],
               lo: float, hi: float, boxes: list[float], gap: float) -> list[list[float]]:
    """The centre (y in columns, x in rows) of every match of a page: the first round evenly
    spread over [lo, hi], each later match between the matches that feed it."""
    out: list[list[float]] = []
    for i, (r, a, b) in enumerate(spans):
        n = b - a
        even = [lo + (j + 0.5) * (hi - lo) / n for j in range(n)]
        if i == 0:
            out.append(even)
            continue
        pr, pa, pb = spans[i - 1]
        fed: dict[int, list[float]] = {}
        for j in range(pa, pb):
            fed.setdefault(target(j, counts_all[pr], counts_all[r]), []).append(out[-1][j - pa])
        col = [sum(fed[g]) / len(fed[g]) if g in fed else even[g - a] for g in range(a, b)]
        if any(q - p < boxes[i] + gap / 2 for p, q in zip(col, col[1:])):
            col = even
        out.append(col)
    return out


def draw_page(page: Page, m: Metrics, locale: str, crown: str | None = None) -> Image.Image:
    """One page of a bracket as an RGB image."""
    chain = page.chain
    counts_all = [len(r) for r in chain.rounds]
    counts = [b - a for _, a, b in page.spans]
    labels = [chain.titles[r] for r, _, _ in page.spans]
    orient, bw, content_h = orientation(m, counts, labels)
    bw = max(bw, m.min_box // 2)
    top = m.margin + m.header + (m.band if orient == "h" else 0)
    W, H = m.width, top + content_h + m.margin
    img = Image.new("RGB", (W, H), PAPER)
    d = ImageDraw.Draw(img)
    matches = [chain.rounds[r][a:b] for r, a, b in page.spans]
    slots = [s for ms in matches for x in ms for s in (x.get("slots") or [])]
    seeds = [str(s["seed"]) for s in slots if s.get("seed") is not None and s.get("name")]
    seed_w = int(max((fonts.text_width(s, m.small) for s in seeds), default=0))
    scores = [str(s["score"]) for s in slots if s.get("score") not in (None, "")]
    # rounded up: a score exactly as wide as the room must still fit (fit_name drops what does not)
    score_w = math.ceil(min(bw * 0.3, max((fonts.text_width(s, m.name, True) for s in scores), default=0)))

    # the header: the page's title on the left, the champion on the right
    title = _page_title(page, locale)
    inner = W - 2 * m.margin
    used = _fitted_width(title, m.title, m.small, inner if not crown else int(inner * 0.6), True)
    draw_fit(d, (m.margin, m.margin + m.header / 2), title, m.title, m.small,
             inner if not crown else int(inner * 0.6), INK, bold=True, anchor="lm")
    if crown:
        text = _t("events.pic.champion", locale, name=" ".join(fonts.printable(crown).split()))
        room = inner - used - m.px(24)
        size = max(m.small, m.name)
        shown = fit_name(text, fonts.font(size, True), room)
        if shown:
            fonts.text(d, (W - m.margin, m.margin + m.header / 2), shown, size, ACCENT, bold=True, anchor="rm")

    boxes: list[list[tuple[int, int, int, int]]] = []
    if orient == "h":
        n = len(counts)
        pitch = bw + m.col_gap
        left = m.margin + (inner - (n * bw + (n - 1) * m.col_gap)) // 2
        ys = _positions(page.spans, counts_all, top, top + content_h, [m.box_h] * n, m.match_gap)
        for i, col in enumerate(ys):
            x0 = left + i * pitch
            draw_fit(d, (x0 + bw / 2, top - m.band / 2), labels[i], m.small, m.small, bw + m.col_gap - m.px(6),
                     MUTED, bold=True, anchor="mm")
            boxes.append([(x0, int(y - m.box_h / 2), x0 + bw, int(y - m.box_h / 2) + m.box_h) for y in col])
    else:
        lw = _label_w(m, labels)
        x_lo = m.margin + lw + m.px(8)
        # a row of fewer matches has wider boxes (up to the widest a name needs)
        room = W - m.margin - x_lo
        widths = [max(bw, min(m.max_box, (room - (c - 1) * m.match_gap) // c)) for c in counts]
        xs = _positions(page.spans, counts_all, x_lo, W - m.margin, widths, m.match_gap)
        for i, row in enumerate(xs):
            y0 = top + i * (m.box_h + m.row_gap)
            bw = widths[i]
            draw_fit(d, (m.margin, y0 + m.box_h / 2), labels[i], m.small, m.small, lw, MUTED, bold=True,
                     anchor="lm", max_lines=3, height=m.box_h)
            boxes.append([(int(x - bw / 2), y0, int(x - bw / 2) + bw, y0 + m.box_h) for x in row])

    # the lines from each match to the one it feeds, under the boxes
    wire = max(1, m.px(2))
    for i in range(len(page.spans) - 1):
        r, a, b = page.spans[i]
        r2, a2, b2 = page.spans[i + 1]
        for j in range(a, b):
            g = target(j, counts_all[r], counts_all[r2])
            if not a2 <= g < b2:
                continue
            s, t_ = boxes[i][j - a], boxes[i + 1][g - a2]
            if orient == "h":
                ys, yt, xm = (s[1] + s[3]) / 2, (t_[1] + t_[3]) / 2, (s[2] + t_[0]) / 2
                d.line([(s[2], ys), (xm, ys), (xm, yt), (t_[0], yt)], fill=WIRE, width=wire)
            else:
                xs_, xt, ym = (s[0] + s[2]) / 2, (t_[0] + t_[2]) / 2, (s[3] + t_[1]) / 2
                d.line([(xs_, s[3]), (xs_, ym), (xt, ym), (xt, t_[1])], fill=WIRE, width=wire)
    for i, ms in enumerate(matches):
        for match, box in zip(ms, boxes[i]):
            _draw_match(d, m, box, match, locale, seed_w, score_w)
    return img


def _pages(view: dict, locale: str, width: int) -> list[tuple[Page, str | None]]:
    loc = i18n.locale_of(locale)
    m = Metrics(int(width))
    view_chains = chains(view, loc)
    crown = champion(view_chains)
    out: list[tuple[Page, str | None]] = []
    for ci, chain in enumerate(view_chains):
        pages = paginate(m, chain)
        for pi, page in enumerate(pages):
            out.append((page, crown[1] if crown and crown[0] == ci and pi == len(pages) - 1 else None))
    return out


def draw_images(view: dict, locale: str, *, width: int = 800) -> list[Image.Image]:
    """The pages of :func:`draw_bracket` as images."""
    m = Metrics(int(width))
    loc = i18n.locale_of(locale)
    return [draw_page(page, m, loc, crown) for page, crown in _pages(view, loc, width)]


def draw_bracket(view: dict, locale: str, *, width: int = 800) -> list[bytes]:
    """PNG pages of a bracket view ``width`` px wide (see the module doc for the paging)."""
    return [encode_png(img) for img in draw_images(view, locale, width=width)]


def min_text_px(view: dict, locale: str, phone_width: int = 400, *, width: int = 800) -> float:
    """The smallest text of the bracket's pictures, in px, once shown ``phone_width`` px wide
    (measured from the sizes the drawing actually used)."""
    with fonts.drawn_text() as drawn:
        draw_images(view, locale, width=width)
    return min((size for size, _ in drawn), default=0) * phone_width / width
