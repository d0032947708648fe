"""Sample tournament pictures: :func:`sample_view`, a fully played elimination bracket built and
decided by the host's own bracket (:mod:`host.events.bracket`), and :func:`write_samples`, sample
pictures of brackets and standings — for the tests, the bench (``bench/leagues.py``) and a look by
eye: ``python -m bench.event_samples OUTPUT_FOLDER``.
"""
from __future__ import annotations

import sys
from pathlib import Path

from data import i18n
from host.events import bracket
from render.bracket import draw_bracket
from render.standings import draw_standings, sample_names, sample_rows, standings_pages


def sample_view(n: int, kind: str = "single") -> dict:
    """A fully played bracket of ``n`` made-up entrants (``kind`` "single" or "double"), built
    and decided by the host's own bracket (:mod:`host.events.bracket`, byes and all): the better
    seed wins but for an upset now and then; deterministic (for the tests, the samples and the
    bench)."""
    n = max(2, int(n))
    names = dict(enumerate(sample_names(n), start=1))
    structure = bracket.build(list(range(1, n + 1)), kind=kind)
    results: dict[str, dict] = {}
    for salt in range(10_000):
        ready = bracket.state(structure, results)["ready"]
        if not ready:
            break
        mid = ready[0]
        a, b = bracket.state(structure, results)["matches"][mid]["players"]
        upset = (a * 7 + b * 13 + salt) % 4 == 0 and abs(a - b) <= 8
        winner = (a if a < b else b) if not upset else (b if a < b else a)
        results[mid] = {"winner": winner, "score": f"2–{(a + b + salt) % 2}"}
    return bracket.view(structure, results, names, {key: "" for key in _VIEW_TITLES})


_VIEW_TITLES = ("winners", "losers", "final", "round", "semifinal", "grand_final", "reset")


def write_samples(folder: str | Path, locales: tuple[str, ...] = ("en", "ja")) -> list[Path]:
    """Write sample pictures (16 single, 16 double, 64 double, standings of 20) to ``folder``."""
    out_dir = Path(folder)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for locale in locales:
        for n, kind in ((16, "single"), (16, "double"), (64, "double")):
            for i, png in enumerate(draw_bracket(sample_view(n, kind), locale), 1):
                path = out_dir / f"{kind}{n}_{locale}_{i}.png"
                path.write_bytes(png)
                written.append(path)
        rows = sample_rows(20)
        columns = ["omw", "gwp", "ogw"]
        for page in range(standings_pages(len(rows))):
            title = i18n.t("events.pic.standings", locale)
            path = out_dir / f"standings20_{locale}_{page + 1}.png"
            path.write_bytes(draw_standings(rows, columns, locale, title=title, page=page))
            written.append(path)
    return written


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python -m bench.event_samples OUTPUT_FOLDER")
    for p in write_samples(sys.argv[1]):
        print(p)
