"""The chess preset's table (the leagues' original standings, :mod:`host.events.scoring` takes
its numbers from here): win 1, draw ½, loss 0, bye 1.  Ties are broken by Buchholz (sum of the
opponents' scores), then Sonneborn-Berger (sum of the scores of the opponents one beat, plus half
of those one drew), then head-to-head (points scored in games among the tied players), then
sign-up order.  Byes and double forfeits have no opponent and count for neither tiebreak.

>>> players = [{"id": 1, "name": "Ann"}, {"id": 2, "name": "Bob"}]
>>> [(s.user_id, s.points) for s in standings(players, [(1, 2, "b")])]
[(2, 1.0), (1, 0.0)]
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from host.events.document import RESULTS


@dataclass
class Standing:
    user_id: int
    name: str
    status: str = "active"
    points: float = 0.0
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    buchholz: float = 0.0
    sonneborn_berger: float = 0.0
    head_to_head: float = 0.0
    opponents: list[int] = field(default_factory=list)


def _scores(a_result: str) -> tuple[float, float]:
    return {"a": (1.0, 0.0), "b": (0.0, 1.0), "draw": (0.5, 0.5), "bye": (1.0, 0.0),
            "double": (0.0, 0.0)}[a_result]


def standings(players: list[dict], games: Iterable[tuple[int, int | None, str]]) -> list[Standing]:
    """``players``: ``[{"id", "name", "status"}]`` in sign-up order; ``games``: finished pairings
    ``(a, b, result)``.  Returns the table, best first."""
    table = {p["id"]: Standing(p["id"], p.get("name", ""), p.get("status", "active")) for p in players}
    order = {p["id"]: i for i, p in enumerate(players)}
    games = [g for g in games if g[2] in RESULTS]
    for a, b, res in games:
        sa, sb = _scores(res)
        if a in table:
            table[a].points += sa
        if b is not None and b in table:
            table[b].points += sb
        if res == "bye" or b is None:
            if a in table:
                table[a].byes += 1
            continue
        if res == "double":
            continue
        for me, other, s in ((a, b, sa), (b, a, sb)):
            st = table.get(me)
            if st is None:
                continue
            st.played += 1
            st.opponents.append(other)
            if s == 1:
                st.wins += 1
            elif s == 0.5:
                st.draws += 1
            else:
                st.losses += 1
    for a, b, res in games:
        if b is None or res in ("bye", "double"):
            continue
        sa, sb = _scores(res)
        for me, other, s in ((a, b, sa), (b, a, sb)):
            if me in table and other in table:
                table[me].buchholz += table[other].points
                table[me].sonneborn_berger += s * table[other].points
    # head-to-head among players tied on points, Buchholz and Sonneborn-Berger
    groups: dict[tuple, list[int]] = {}
    for st in table.values():
        groups.setdefault((st.points, st.buchholz, st.sonneborn_berger), []).append(st.user_id)
    for members in groups.values():
        if len(members) < 2:
            continue
        inside = set(members)
        for a, b, res in games:
            if b is None or res in ("bye", "double") or a not in inside or b not in inside:
                continue
            sa, sb = _scores(res)
            table[a].head_to_head += sa
            table[b].head_to_head += sb
    return sorted(table.values(), key=lambda s: (-s.points, -s.buchholz, -s.sonneborn_berger,
                                                  -s.head_to_head, order[s.user_id]))
