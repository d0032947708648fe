"""A picture of an event's standings: one table page of up to ``per_page`` players.

Columns: the place (tied players print the same place), the name (shortened with "…" to fit; a
dropped player dimmed and marked), the record W-L-D, the points, then one column per tiebreak
asked for (``omw``, ``gwp``, ``ogw``, ``owp``, ``oowp`` are fractions printed as percentages with
two decimals under a "%" header; ``h2h``, ``buchholz``, ``sonneborn_berger`` and any other key
are numbers).  Every word comes from the catalog (``events.pic.*``); the picture is 800 px wide
and no text is smaller than 8 px once it is shown 400 px wide.

>>> png = draw_standings(sample_rows(5), ["omw", "gwp"], "en", title="Standings")
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n", standings_pages(17), standings_pages(0)
(True, 2, 1)
"""
from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from data import i18n
from render import fonts
from render.base import INK, MUTED, PAPER, encode_png
from render.textfit import draw_fit, fit_name, min_px

WIDTH = 800
PERCENT = frozenset({"omw", "gwp", "ogw", "owp", "oowp"})
STRIPE = (240, 235, 226)
RULE = (176, 168, 154)
DROPPED = frozenset({"dropped", "drop", "withdrawn"})


def standings_pages(n_rows: int, per_page: int = 16) -> int:
    """How many pages ``n_rows`` players take (at least one: an empty table is one page)."""
    per_page = max(1, int(per_page))
    return max(1, -(-max(0, int(n_rows)) // per_page))


def number_text(value: Any) -> str:
    """A number as a table prints it: whole numbers bare, others with up to 2 decimals.

    >>> number_text(3), number_text(4.0), number_text(12.5), number_text(2 / 3), number_text(None)
    ('3', '4', '12.5', '0.67', '—')
    """
    if value is None or value == "":
        return "—"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.2f}".rstrip("0").rstrip(".")


def tiebreak_text(key: str, value: Any) -> str:
    """A tiebreak's value: a percentage with 2 decimals for the fractions, else a number.

    >>> tiebreak_text("omw", 2 / 3), tiebreak_text("buchholz", 11.5)
    ('66.67', '11.5')
    """
    if key in PERCENT and isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"{float(value) * 100:.2f}"
    return number_text(value)


def _header(key: str, locale: str) -> str:
    k = f"events.pic.col.{key}"
    return i18n.t(k, locale) if i18n.has(k) else key.upper()


def _cells(row: dict, columns: list[str]) -> list[str]:
    """The texts of a row's columns after the name: record, points, tiebreaks."""
    record = f"{int(row.get('wins') or 0)}-{int(row.get('losses') or 0)}-{int(row.get('draws') or 0)}"
    tiebreaks = row.get("tiebreaks") or {}
    return [record, number_text(row.get("points"))] + [tiebreak_text(c, tiebreaks.get(c)) for c in columns]


def draw_standings(rows: list[dict], columns: list[str], locale: str, *, title: str, page: int = 0,
                   per_page: int = 16) -> bytes:
    """PNG of page ``page`` (from 0; clamped) of the standings ``rows`` (in place order), with a
    column for each tiebreak key of ``columns``."""
    loc = i18n.locale_of(locale)
    per_page = max(1, int(per_page))
    pages = standings_pages(len(rows), per_page)
    page = min(max(0, int(page)), pages - 1)
    shown = rows[page * per_page:(page + 1) * per_page]
    u = WIDTH / 800
    small = max(min_px(WIDTH), round(16 * u))
    body = max(small + 1, round(18 * u))
    margin, pad, row_h = round(16 * u), round(8 * u), round(34 * u)
    head_h, band_h = round(46 * u), round(32 * u)
    inner = WIDTH - 2 * margin

    # column widths: over every row, so that every page lines up the same
    heads = [_header(k, loc) for k in ("place", "name", "record", "points")] + [_header(c, loc) for c in columns]
    cells = [_cells(r, columns) for r in rows]
    places = [str(r.get("place", "")) for r in rows]
    place_w = max([fonts.text_width(heads[0], small, True)] + [fonts.text_width(p, body, True) for p in places])
    size = body
    widths: list[float] = []
    for size in (body, small):
        widths = [max([fonts.text_width(heads[2 + i], small, True)]
                      + [fonts.text_width(c[i], size, i == 1) for c in cells]) + 2 * pad
                  for i in range(2 + len(columns))]
        if inner - place_w - 2 * pad - sum(widths) >= 0.3 * inner:
            break
    place_w += 2 * pad
    name_w = max(inner - place_w - sum(widths), 0.12 * inner)

    height = margin + head_h + band_h + max(1, len(shown)) * row_h + margin
    img = Image.new("RGB", (WIDTH, height), PAPER)
    d = ImageDraw.Draw(img)
    heading = i18n.t("events.pic.page_of", loc, title=title, page=page + 1, pages=pages) if pages > 1 else title
    draw_fit(d, (margin, margin + head_h / 2), heading, round(26 * u), small, inner, INK, bold=True, anchor="lm")

    # the column headers
    y = margin + head_h
    xs = [margin, margin + place_w, margin + place_w + name_w]
    for w in widths:
        xs.append(xs[-1] + w)
    cy = y + band_h / 2
    fonts.text(d, (xs[1] - pad, cy), fit_name(heads[0], fonts.font(small, True), place_w - pad), small, MUTED,
               bold=True, anchor="rm")
    fonts.text(d, (xs[1] + pad, cy), fit_name(heads[1], fonts.font(small, True), name_w - 2 * pad), small, MUTED,
               bold=True, anchor="lm")
    for i, w in enumerate(widths):
        fonts.text(d, (xs[3 + i] - pad, cy), fit_name(heads[2 + i], fonts.font(small, True), w - pad), small,
                   MUTED, bold=True, anchor="rm")
    y += band_h
    d.line((margin, y - 1, WIDTH - margin, y - 1), fill=RULE, width=max(1, round(2 * u)))

    if not shown:
        fonts.text(d, (margin + pad, y + row_h / 2), i18n.t("events.pic.no_rows", loc), body, MUTED, anchor="lm")
    mark = i18n.t("events.pic.dropped", loc)
    mark_w = fonts.text_width(mark, small) + 2 * pad
    for k, row in enumerate(shown):
        top = y + k * row_h
        if k % 2:
            d.rectangle((margin, top, WIDTH - margin, top + row_h), fill=STRIPE)
        cy = top + row_h / 2
        dropped = str(row.get("status") or "") in DROPPED
        colour = MUTED if dropped else INK
        fonts.text(d, (xs[1] - pad, cy), str(row.get("place", "")), body, colour, bold=True, anchor="rm")
        room = name_w - 2 * pad - ((mark_w + pad) if dropped else 0)
        name = fit_name(str(row.get("name") or ""), fonts.font(body), room)
        if name:
            fonts.text(d, (xs[1] + pad, cy), name, body, colour, anchor="lm")
        if dropped:
            x0 = xs[1] + pad + (fonts.text_width(name, body) if name else 0) + pad
            half = small * 0.75
            d.rounded_rectangle((x0, cy - half, x0 + mark_w, cy + half), radius=round(4 * u), outline=MUTED,
                                width=1)
            fonts.text(d, (x0 + mark_w / 2, cy), mark, small, MUTED, anchor="mm")
        for i, text in enumerate(_cells(row, columns)):
            fonts.text(d, (xs[3 + i] - pad, cy), text, size, colour, bold=(i == 1), anchor="rm")
    return encode_png(img)


def sample_rows(n: int) -> list[dict]:
    """``n`` made-up standings rows after five rounds, in place order, with a tie for 2nd place
    and a few dropped players; pure and deterministic (for the tests and the bench)."""
    names = sample_names(max(0, int(n)))
    rows = []
    for i, name in enumerate(names):
        wins = max(0, 5 - (i * 6) // max(1, len(names)))
        draws = 1 if i % 4 == 2 and wins < 5 else 0
        losses = 5 - wins - draws
        omw = 0.72 - 0.012 * i + ((i * 37) % 11) / 400
        gwp = 0.4 + 0.1 * wins + ((i * 13) % 7) / 100
        tb = {"omw": round(omw, 4), "gwp": round(min(gwp, 1.0), 4), "ogw": round(0.6 - 0.008 * i, 4),
              "owp": round(omw - 0.05, 4), "oowp": 0.5, "h2h": i % 2, "buchholz": 12.5 - i / 2,
              "sonneborn_berger": 8 - i / 4}
        if i == 2 and rows:                       # tied with the one above it: the same place
            wins, losses, draws, tb = rows[-1]["wins"], rows[-1]["losses"], rows[-1]["draws"], dict(rows[-1]["tiebreaks"])
        rows.append({"name": name, "status": "dropped" if i % 7 == 5 else "active", "wins": wins,
                     "losses": losses, "draws": draws, "points": 3 * wins + draws, "tiebreaks": tb})
    rows.sort(key=lambda r: (-r["points"], -r["tiebreaks"]["omw"], -r["tiebreaks"]["gwp"], -r["tiebreaks"]["ogw"]))
    for k, row in enumerate(rows):
        prev = rows[k - 1] if k else None
        same = prev is not None and (prev["points"], prev["tiebreaks"]) == (row["points"], row["tiebreaks"])
        row["place"] = prev["place"] if same else k + 1
    return rows


_GIVEN = ["Alice", "Bruno", "Chiara", "Dmitri", "Emeka", "Fatima", "Gustavo", "Hana", "Ingrid", "Jonas",
          "Keiko", "Lars", "Mei", "Nadia", "Oskar", "Priya"]
_FAMILY = ["Tanaka", "Okafor", "Rossi", "Novak", "Lindqvist", "Haddad", "Moreau", "Silva"]
_JAPANESE = ["山田 太郎", "佐藤 花子", "高橋 翔太", "渡辺 美咲", "伊藤 健一", "中村 さくら", "小林 大輔", "加藤 結衣"]
_LONG = "Maximiliana Alexandrovna Featherstonehaugh-Wolfeschlegelsteinhausen"


def sample_names(n: int) -> list[str]:
    """``n`` made-up player names (deterministic): Latin, Japanese, and one very long one."""
    out = []
    for i in range(n):
        if i % 5 == 3:
            out.append(_JAPANESE[(i // 5) % len(_JAPANESE)])
        elif i == 6:
            out.append(_LONG)
        else:
            out.append(f"{_GIVEN[i % len(_GIVEN)]} {_FAMILY[(i * 3 + i // len(_GIVEN)) % len(_FAMILY)]}")
    return out
