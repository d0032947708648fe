"""The picture of a card set's per-card figures of limited play: a table that reads on a phone
(800 px wide, no text under 16 px: 8 px once shown 400 px wide).

It draws the plain data it is handed — the report as :meth:`host.stats.card_figures.CardReport.
to_json` gives it (rows of figures ``{"value", "low", "high", "n"}`` or ``None``, the totals, the
mean fun, the minimum samples) and the cards' names — and imports nothing above ``render/``.

A page holds :data:`PER_PAGE` cards: page 1 the most played ones (seat-games with the card in
the deck), page 2 the next, and so on; on a page the cards keep the report's order (win rate in
the deck, highest first, cards without that figure last).  Columns: the card, the average pick
position, the pick rate, the win rate with the card in the deck, drawn, played — each figure
over its 95 % interval ("52%" over "45–59"), the win rates tinted green when near even and red
the further from it — then the survey's votes ("2 / 1" too strong / too weak, over "of 6"
surveys that showed the card).  A figure below its minimum sample is "—".  Over the table: the
set and version, the totals, the mean fun; under it, the legend.

>>> report, names = sample_report(3)
>>> report_png(report, names, locale="en", set_name="Owl Kings", version=2)[:4]
b'\\x89PNG'
>>> report_pages(41), report_pages(0)
(3, 1)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from PIL import Image, ImageDraw

from data import i18n
from render import fonts
from render.base import INK, MUTED, PAPER, encode_png
from render.matrix import colour
from render.textfit import draw_fit, fit_block, min_px

WIDTH = 800
PER_PAGE = 20
FIGURES = ("avg_pick", "pick_rate", "in_deck", "drawn", "played")
WIN_RATES = frozenset({"in_deck", "drawn", "played"})
STRIPE = (240, 235, 226)
RULE = (176, 168, 154)
SOFT = (84, 84, 92)                 # an interval: quieter than a figure, darker than MUTED on a tint


@dataclass(frozen=True)
class Fig:
    """One figure as drawn: its value and 95 % interval (a share 0–1, or a pick position)."""

    value: float
    low: float
    high: float
    n: int


@dataclass(frozen=True)
class CardLine:
    """One card's row of the picture; a figure is ``None`` below its minimum sample."""

    name: str
    figures: tuple[Fig | None, ...]          # in the order of FIGURES
    games: int
    strong: int
    weak: int
    surveyed: int


def _fig(d: Any) -> Fig | None:
    """A figure of the report's rows, or None when it is missing or does not read."""
    if not isinstance(d, Mapping):
        return None
    try:
        value, low, high, n = (float(d["value"]), float(d["low"]), float(d["high"]), int(d["n"]))
    except (KeyError, TypeError, ValueError):
        return None
    return Fig(value, low, high, n)


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def lines_of(report: Mapping, names: Mapping[str, str]) -> list[CardLine]:
    """The report's rows as :class:`CardLine` (in the report's order), named by ``names`` (card
    id → the name shown; the id when missing)."""
    out = []
    for row in report.get("rows") or ():
        if not isinstance(row, Mapping):
            continue
        card = str(row.get("card") or "")
        out.append(CardLine(str(names.get(card) or card), tuple(_fig(row.get(k)) for k in FIGURES),
                            _count(row.get("games")), _count(row.get("strong")), _count(row.get("weak")),
                            _count(row.get("surveyed"))))
    return out


def report_pages(n_rows: int, per_page: int = PER_PAGE) -> int:
    """How many pages ``n_rows`` cards take (at least one)."""
    per_page = max(1, int(per_page))
    return max(1, -(-max(0, int(n_rows)) // per_page))


def page_indices(lines: Sequence[CardLine], page: int, per_page: int) -> list[int]:
    ranked = sorted(range(len(lines)), key=lambda i: (-lines[i].games, i))
    return sorted(ranked[page * per_page:(page + 1) * per_page])


def page_lines(lines: Sequence[CardLine], page: int, per_page: int = PER_PAGE) -> list[CardLine]:
    """The cards of page ``page`` (from 0): the most played first across pages, the report's
    order within a page."""
    return [lines[i] for i in page_indices(lines, page, per_page)]


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def _cell(key: str, f: Fig | None, t) -> tuple[str, str]:
    """(value, interval) texts of one figure; ("—", "") below the sample."""
    if f is None:
        return t("card_report.pic.none"), ""
    if key == "avg_pick":
        return f"{f.value:.1f}", t("card_report.pic.interval", low=f"{f.low:.1f}", high=f"{f.high:.1f}")
    return _pct(f.value), t("card_report.pic.interval", low=f"{100 * f.low:.0f}", high=f"{100 * f.high:.0f}")


def _tint(share: float) -> tuple[int, int, int]:
    """The matchup picture's green-to-red, blended half-way into the paper: a cell stays readable."""
    c = colour(share)
    return tuple((a + b) // 2 for a, b in zip(c, PAPER))  # type: ignore[return-value]


def report_image(report: Mapping, names: Mapping[str, str], *, locale: Any = "en", set_name: str = "",
                 version: Any = "", page: int = 0, per_page: int = PER_PAGE) -> Image.Image:
    """The picture of page ``page`` (from 0; clamped) of ``report`` (``CardReport.to_json()``)."""
    loc = i18n.locale_of(locale)
    t = lambda key, **p: i18n.t(key, loc, **p)  # noqa: E731
    lines = lines_of(report, names)
    per_page = max(1, int(per_page))
    pages = report_pages(len(lines), per_page)
    page = min(max(0, int(page)), pages - 1)
    chosen = page_indices(lines, page, per_page)

    small = min_px(WIDTH)                     # 16 px: 8 px on a phone
    body, value_px, title_px = 19, 21, 26
    under = small + 1                         # an interval, under its figure
    margin, pad = 16, 6
    inner = WIDTH - 2 * margin
    row_h = round(pad + value_px * 1.2 + under * 1.2 + pad)

    # the figure and vote columns: as wide as their widest text, the header in at most 2 lines
    heads = [t(f"card_report.pic.col.{k}") for k in (*FIGURES, "votes")]
    cells = [[_cell(k, line.figures[i], t) for i, k in enumerate(FIGURES)]
             + [(t("card_report.pic.votes", strong=line.strong, weak=line.weak),
                 t("card_report.pic.votes_of", n=line.surveyed))] for line in lines]
    widths = []
    least = fonts.text_width("100%", value_px, True)
    for i, head in enumerate(heads):
        w = max([least] + [max(fonts.text_width(a, value_px, True), fonts.text_width(b, under)) for a, b in
                           (c[i] for c in cells)])
        w = int(max([w] + [fonts.text_width(word, small, True) for word in head.split()])) + 1   # no cut word
        while len(fonts.wrap(head, small, w, True)) > 2 and w < inner // 5:
            w += 2
        widths.append(w + 2 * pad)
    name_w = inner - sum(widths)

    # the top: title, totals and page, fun
    totals = report.get("totals") or {}
    minimums = report.get("minimums") or {}
    title = t("card_report.pic.title", set=" ".join(fonts.printable(str(set_name)).split()), version=version)
    sub = t("card_report.pic.totals", drafts=_count(totals.get("drafts")), matches=_count(totals.get("matches")),
            surveys=_count(totals.get("surveys")))
    if pages > 1:
        sub = t("card_report.pic.with_page", totals=sub, page=t("card_report.pic.page", page=page + 1, pages=pages))
    fun = _fig(report.get("fun"))
    fun_text = (t("card_report.pic.fun", value=f"{fun.value:.1f}", low=f"{fun.low:.1f}", high=f"{fun.high:.1f}",
                  n=fun.n) if fun else t("card_report.pic.fun_few", min=_count(minimums.get("surveys")) or 5))
    title_size, title_lines = fit_block(title, title_px, small + 2, inner, 2, True)
    sub_size, sub_lines = fit_block(sub, body, small, inner, 2)
    legend = t("card_report.pic.legend", games=_count(minimums.get("games")), drafts=_count(minimums.get("drafts")))
    legend_lines = fonts.wrap(legend, small, inner)
    head_lines = [fonts.wrap(h, small, max(1, w - 2 * pad), True)[:2] for h, w in zip(heads, widths)]
    band_h = round(max(2, max(len(h) for h in head_lines)) * small * 1.2 + 2 * pad)

    top_h = round(margin + len(title_lines) * title_size * 1.25 + len(sub_lines) * sub_size * 1.3
                  + body * 1.4 + pad)
    height = top_h + band_h + max(1, len(chosen)) * row_h + pad * 2 + round(len(legend_lines) * small * 1.35) + margin
    img = Image.new("RGB", (WIDTH, height), PAPER)
    d = ImageDraw.Draw(img)

    y = margin
    for line in title_lines:
        fonts.text(d, (margin, y + title_size * 0.62), line, title_size, INK, bold=True, anchor="lm")
        y += title_size * 1.25
    for line in sub_lines:
        fonts.text(d, (margin, y + sub_size * 0.65), line, sub_size, MUTED, anchor="lm")
        y += sub_size * 1.3
    draw_fit(d, (margin, y + body * 0.7), fun_text, body, small, inner, INK, anchor="lm")

    # the column headers
    y = top_h
    xs = [margin + name_w]
    for w in widths:
        xs.append(xs[-1] + w)
    draw_fit(d, (margin + pad, y + band_h / 2), t("card_report.pic.col.card"), small, small, name_w - 2 * pad,
             MUTED, bold=True, anchor="lm")
    for i, lines_h in enumerate(head_lines):
        cx = (xs[i] + xs[i + 1]) / 2
        step = small * 1.2
        hy = y + band_h / 2 - step * (len(lines_h) - 1) / 2
        for part in lines_h:
            fonts.text(d, (cx, hy), fonts.fit(part, small, widths[i] - 2 * pad, True), small, MUTED, bold=True,
                       anchor="mm")
            hy += step
    y += band_h
    d.line((margin, y - 1, WIDTH - margin, y - 1), fill=RULE, width=2)

    if not chosen:
        draw_fit(d, (margin + pad, y + row_h / 2), t("card_report.pic.empty"), body, small, inner - 2 * pad, MUTED,
                 anchor="lm", max_lines=2)
    for k, j in enumerate(chosen):
        line = lines[j]
        row_top = y + k * row_h
        if k % 2:
            d.rectangle((margin, row_top, WIDTH - margin, row_top + row_h), fill=STRIPE)
        cy = row_top + row_h / 2
        name = " ".join(fonts.printable(line.name).split()) or "?"
        draw_fit(d, (margin + pad, cy), name, body, small, name_w - 2 * pad, INK, anchor="lm", max_lines=2)
        for i, (value, interval) in enumerate(cells[j]):
            x0, x1 = xs[i], xs[i + 1]
            f = line.figures[i] if i < len(FIGURES) else None
            if f is not None and FIGURES[i] in WIN_RATES:
                d.rectangle((x0 + 2, row_top + 3, x1 - 2, row_top + row_h - 3), fill=_tint(f.value))
            cx = (x0 + x1) / 2
            if not interval:
                fonts.text(d, (cx, cy), value, value_px, MUTED, bold=True, anchor="mm")
                continue
            fonts.text(d, (cx, row_top + pad + value_px * 0.6), value, value_px, INK, bold=True, anchor="mm")
            fonts.text(d, (cx, row_top + pad + value_px * 1.2 + under * 0.6), interval, under, SOFT, anchor="mm")
    y += max(1, len(chosen)) * row_h + pad * 2
    d.line((margin, y - pad, WIDTH - margin, y - pad), fill=RULE, width=1)
    for line in legend_lines:
        fonts.text(d, (margin, y + small * 0.65), line, small, MUTED, anchor="lm")
        y += small * 1.35
    return img


def report_png(report: Mapping, names: Mapping[str, str], **kw: Any) -> bytes:
    """:func:`report_image` as PNG bytes."""
    return encode_png(report_image(report, names, **kw))


# ----------------------------------------------------------------------------- sample data
_EN = ["Owl Sentry", "Ember Fox", "Tide Caller", "Iron Tortoise", "Moss Witch", "Glass Heron", "Storm Ram"]
_JA = ["灰刃の決闘士", "月影の弓兵", "潮騒の巫女", "鉄甲の亀", "苔むす魔女", "硝子の鷺", "嵐の牡羊"]
_LONG = "Archivist of the Thousand Forgotten Libraries of the Drowned Southern Coast"


def sample_report(n: int, *, japanese: bool = False) -> tuple[dict, dict[str, str]]:
    """A made-up report of ``n`` cards (as ``CardReport.to_json()`` gives it) and their names —
    one very long — deterministic; for the tests and a look at the picture."""
    rows, names = [], {}
    for i in range(max(0, int(n))):
        card = f"c{i:03d}"
        names[card] = _LONG if i == 2 else (_JA if japanese else _EN)[i % 7] + (f" {i // 7 + 1}" if i >= 7 else "")
        games = max(0, 80 - 7 * i + (i * 13) % 11)
        share = 0.38 + ((i * 37) % 29) / 100

        def fig(value: float, half: float, k: int) -> dict | None:
            return None if k < 20 else {"value": value, "low": max(0.0, value - half), "high": min(1.0, value + half),
                                        "n": k}

        rows.append({"card": card,
                     "avg_pick": None if i % 5 == 4 else {"value": 2.0 + i % 9 * 0.7, "low": 1.6 + i % 9 * 0.6,
                                                         "high": 2.5 + i % 9 * 0.8, "n": 12 + i},
                     "pick_rate": None if i % 5 == 4 else {"value": 0.6 - i % 9 * 0.05, "low": 0.5 - i % 9 * 0.05,
                                                          "high": 0.7 - i % 9 * 0.05, "n": 40 + i},
                     "in_deck": fig(share, 0.11, games), "drawn": fig(min(1.0, share + 0.04), 0.14, games * 2 // 3),
                     "played": fig(min(1.0, share + 0.07), 0.17, games // 2), "games": games,
                     "drawn_games": games * 2 // 3, "played_games": games // 2, "offered": 40 + i, "taken": 12 + i,
                     "strong": (i * 5) % 4, "weak": (i * 2) % 3, "surveyed": 6 + i % 5})
    rows.sort(key=lambda r: (r["in_deck"] is None, -(r["in_deck"] or {"value": 0})["value"], -r["games"], r["card"]))
    report = {"rows": rows, "totals": {"drafts": 14, "matches": 96, "seat_games": 192, "surveys": 57},
              "fun": {"value": 3.9, "low": 3.6, "high": 4.2, "n": 57},
              "minimums": {"games": 20, "drafts": 10, "surveys": 5}}
    return report, names


__all__ = ["report_image", "report_png", "report_pages", "page_lines", "lines_of", "CardLine", "Fig",
           "sample_report", "PER_PAGE", "WIDTH"]
