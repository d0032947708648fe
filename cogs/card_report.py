"""``/cards report``'s answer (cogs/cards.py): one Components V2 layout — the picture of the
per-card figures (render/card_report.py, 20 cards a page, most played first), the totals and the
playtest survey's fun in words, the top cards of the page in words (nothing only in the picture),
and the whole table as a CSV file beneath (host/stats/card_report_csv.py)."""
from __future__ import annotations

import asyncio
import io
from typing import Any

import discord

from cogs.common import game_name, safe_text, tr
from cogs.layouts import layout

PICTURE = "report.png"
CSV = "report.csv"
ACCENT = 0x8E44AD
WORDS_SHOWN = 20


def _pct(f: Any) -> str:
    return "—" if f is None else f"{round(100 * f.value)} % ({round(100 * f.low)}–{round(100 * f.high)})"


async def report_message(res: Any, game: str, locale: str, page: int = 0) -> dict[str, Any]:
    """The send arguments of the report of ``res`` (the service's answer) at ``page``."""
    from host.stats.card_report_csv import report_csv
    from render.card_report import PER_PAGE, lines_of, page_indices, report_pages, report_png

    report, names_all, (set_name, version) = res.data["report"], res.data["names"], res.data["set"]
    names = {cid: str(n.get(locale) or n.get("en") or cid) for cid, n in names_all.items()}
    data = report.to_json()
    pages = max(1, report_pages(len(lines_of(data, names))))
    page = max(0, min(page, pages - 1))
    label = (f"{safe_text(set_name, 40)} v{version}" if set_name else tr("draft.set.shipped", locale))
    png = await asyncio.to_thread(report_png, data, names, locale=locale, set_name=set_name or label,
                                  version=version or 0, page=page)
    csv = report_csv(report, names, locale)
    head = tr("cards.report.head", locale, game=game_name(game, locale), set=label, drafts=report.drafts,
              matches=report.matches, surveys=report.surveys, page=page + 1, pages=pages)
    fun = tr("cards.report.fun", locale, value=f"{report.fun.value:.1f}", low=f"{report.fun.low:.1f}",
             high=f"{report.fun.high:.1f}", n=report.fun.n) if report.fun else tr("cards.report.no_fun", locale)
    lines = []
    for i in page_indices(lines_of(data, names), page, PER_PAGE)[:WORDS_SHOWN]:
        row = report.rows[i]
        lines.append(tr("cards.report.line", locale, card=safe_text(names.get(row.card, row.card), 40),
                        deck=_pct(row.in_deck), games=row.games,
                        pick=f"{row.avg_pick.value:.1f}" if row.avg_pick else "—", strong=row.strong, weak=row.weak))
    view = layout(accent=ACCENT, title=tr("cards.report.title", locale, set=label), pictures=[(PICTURE, head)],
                  blocks=[head, fun, "\n".join(lines) or tr("cards.report.empty", locale),
                          tr("cards.report.note", locale, games=report.min_games, drafts=report.min_drafts)])
    box = view.children[0]
    box.add_item(discord.ui.File(f"attachment://{CSV}"))
    return {"view": view, "files": [discord.File(io.BytesIO(png), filename=PICTURE),
                                    discord.File(io.BytesIO(csv), filename=CSV)]}


__all__ = ["report_message"]
