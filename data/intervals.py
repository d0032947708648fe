"""Pure statistics shared by the layers above (issue 46): the 95 % Wilson score interval of a
win rate and the least number of matches a cell of a win-rate picture is read from.

Here, in ``data/``, because ``balance/`` (a card set's balance run), ``host/stats/`` (a server's
``/stats``) and ``render/`` (the pictures of both) all use them and may only import downward.

>>> [round(x, 3) for x in wilson(2, 3)]
[0.208, 0.939]
>>> wilson(0, 0)
(0.0, 1.0)
"""
from __future__ import annotations

import math

#: a matchup cell with fewer matches is greyed and labelled "too few" (``/stats``)
MIN_CELL = 5


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate (draws counted as half a win)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


__all__ = ["wilson", "MIN_CELL"]
