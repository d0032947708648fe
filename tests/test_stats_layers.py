"""Issue 46, [layers]: the statistics' and the balance pictures' modules import only downward —
rules; data, ai; render; host, balance; cogs; bot; bench — a pure statistic shared by ``balance/``
and ``host/stats/`` living below both (``data/intervals.py``), each renderer drawing the figures
it is handed.  Every import is read, also one inside a function."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYER = {"rules": 0, "data": 1, "ai": 1, "render": 2, "host": 3, "balance": 3, "cogs": 4, "bot": 5, "bench": 6}
MODULES = ["render/stats_chart.py", "render/balance_chart.py", "render/matrix.py", "data/intervals.py",
           "data/sql_stats.py", "balance/judge.py", "balance/sets.py",
           *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "host" / "stats").glob("*.py"))]


def _imports(path: Path) -> list[str]:
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.append(node.module)
    return out


@pytest.mark.parametrize("module", MODULES)
def test_no_module_imports_from_a_layer_above_or_beside_its_own(module):
    """"[layers] no module imports from a layer above its own … a pure statistic (the Wilson
    interval, a cell minimum) lives where both balance/ and host/stats/ can import it downward;
    a renderer draws from the view it is handed … Climbs found: render/stats_chart.py →
    host/stats, render/balance_chart.py → balance/" — none of them is left: a module imports its
    own package or a lower layer only."""
    package = module.split("/")[0]
    climbs = [name for name in _imports(ROOT / module)
              if name.split(".")[0] in LAYER and name.split(".")[0] != package
              and LAYER[name.split(".")[0]] >= LAYER[package]]
    assert climbs == [], f"{module} imports {climbs}"


def test_the_wilson_interval_and_the_cell_minimum_are_one_and_the_same_everywhere():
    """"a pure statistic … lives where both balance/ and host/stats/ can import it" — the names
    the callers know still give it: ``balance.judge.wilson``, ``host.stats.aggregate.MIN_CELL``."""
    import balance.judge
    import data.intervals
    import host.stats.aggregate

    assert balance.judge.wilson is data.intervals.wilson
    assert host.stats.aggregate.MIN_CELL == data.intervals.MIN_CELL == 5
    low, high = data.intervals.wilson(2, 3)
    assert (round(low, 2), round(high, 2)) == (0.21, 0.94)
    assert host.stats.aggregate.share(3, 2.0)["ci95"] == [round(low, 3), round(high, 3)]
