"""Board geometry: squares, areas and hit ranges projected from an AVI.

Coordinates are absolute, as in SQUARES: files a–e left to right as seen by seat 0, ranks 1–5,
rank 1 = seat 0's nearest row.  A square's index is ``(rank - 1) * 5 + file``.

Ranges are (forward, sideways) offsets as the user faces the opponent: seat 0 faces rank 5, so
forward is +rank and its right is +file; seat 1 faces rank 1, so forward is -rank and its right
is -file (the board turned half a turn).

>>> squares_in_range(0, SQ_INDEX["c1"], ((1, 0), (2, -1)))
('c2', 'b3')
>>> squares_in_range(1, SQ_INDEX["c5"], ((1, 0), (2, -1)))
('c4', 'd3')
"""
from __future__ import annotations

from functools import lru_cache

FILES = "abcde"
SQUARES: tuple[str, ...] = tuple(f + str(r) for r in range(1, 6) for f in FILES)
SQ_INDEX: dict[str, int] = {name: i for i, name in enumerate(SQUARES)}
START = (SQ_INDEX["c1"], SQ_INDEX["c5"])       # "自分のエリアの中央の列、もっとも手前のマス"
FORWARD = (1, -1)                               # row step of "forward" per seat


def _neighbours(i: int) -> tuple[int, ...]:
    r, f = divmod(i, 5)
    out = []
    for dr, df in ((1, 0), (0, -1), (0, 1), (-1, 0)):
        rr, ff = r + dr, f + df
        if 0 <= rr < 5 and 0 <= ff < 5:
            out.append(rr * 5 + ff)
    return tuple(sorted(out))


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_neighbours(i) for i in range(25))


def own_area(seat: int, i: int) -> bool:
    """Seat's area: its two nearest rows (rulebook 4.①)."""
    row = i // 5
    return row <= 1 if seat == 0 else row >= 3


def avi_may_stand(seat: int, i: int) -> bool:
    """An AVI may stand in its own area or the shared row, never in the opponent's area (4.③)."""
    row = i // 5
    return row <= 2 if seat == 0 else row >= 2


@lru_cache(maxsize=None)
def project(seat: int, origin: int, offsets: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    """Board indexes of ``offsets`` from ``origin`` for ``seat`` (off-board offsets dropped)."""
    r0, f0 = divmod(origin, 5)
    out = []
    for fwd, side in offsets:
        if seat == 0:
            r, f = r0 + fwd, f0 + side
        else:
            r, f = r0 - fwd, f0 - side
        if 0 <= r < 5 and 0 <= f < 5:
            out.append(r * 5 + f)
    return tuple(out)


def squares_in_range(seat: int, origin: int, offsets) -> tuple[str, ...]:
    return tuple(SQUARES[i] for i in project(seat, origin, tuple(offsets)))


__all__ = ["FILES", "SQUARES", "SQ_INDEX", "START", "FORWARD", "NEIGHBOURS", "own_area",
           "avi_may_stand", "project", "squares_in_range"]
