"""Per-game ratings with OpenSkill (Plackett-Luce), pure and synchronous.

Why OpenSkill and not Glicko-2: Avalon's Sanctuary is a free-for-all for 2–4 players, and
OpenSkill rates any number of players and teams with ranks and ties natively (the engine's
``outcome()["ranks"]`` gives the finishing order: see :func:`ranks_of`); Glicko-2 is defined for
two players only.  The ``openskill`` package is maintained, MIT-licensed
and pure Python.

A rating is (mu, sigma) with the model's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300).
Players see ``display(mu) = round(60 * mu)`` (1500 for a newcomer) with a ``?`` while the rating
is provisional (fewer than :data:`PROVISIONAL_GAMES` rated games).  Leaderboards are ordered by
the conservative estimate ``mu - 3 sigma``, so one lucky win does not top the table.

>>> new = rate([(1, 1), (2, 2)], {})       # user 1 beat user 2, both newcomers
>>> new[1][0] > 25 > new[2][0]
True
"""
from __future__ import annotations

from typing import Iterable

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
MU = MODEL.mu
SIGMA = MODEL.sigma
PROVISIONAL_GAMES = 5
SCALE = 60


def display(mu: float) -> int:
    return int(round(SCALE * mu))


def conservative(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def provisional(games: int) -> bool:
    return games < PROVISIONAL_GAMES


def label(mu: float, games: int) -> str:
    """``1562`` or ``1562?`` (provisional)."""
    return f"{display(mu)}{'?' if provisional(games) else ''}"


def ranks_of(result: dict, n_seats: int) -> list[int]:
    """Rank per seat (1 = best, equal = tie) from a match result.

    An engine may give ``"ranks"`` (one per seat) for a full finishing order; otherwise the
    winners share rank 1 and everyone else rank 2; no winners is a draw (all rank 1).
    """
    ranks = result.get("ranks")
    if isinstance(ranks, list) and len(ranks) == n_seats and all(isinstance(r, int) for r in ranks):
        return list(ranks)
    winners = set(result.get("winners") or [])
    if not winners:
        return [1] * n_seats
    return [1 if s in winners else 2 for s in range(n_seats)]


def rate(players: Iterable[tuple[int, int]], current: dict[int, tuple[float, float]]
         ) -> dict[int, tuple[float, float]]:
    """New (mu, sigma) for each ``(user_id, rank)``; ``current`` holds known ratings (others
    start at the model's default).  Free-for-all: every player is a team of one."""
    players = list(players)
    if len(players) < 2:
        return {}
    teams = [[MODEL.rating(mu=current.get(uid, (MU, SIGMA))[0],
                           sigma=current.get(uid, (MU, SIGMA))[1], name=str(uid))]
             for uid, _ in players]
    rated = MODEL.rate(teams, ranks=[float(r) for _, r in players])
    return {uid: (team[0].mu, team[0].sigma) for (uid, _), team in zip(players, rated)}
