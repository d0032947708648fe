"""Event (tournament) scoring and tiebreakers, pure and synchronous: no I/O, no Discord, no clock.

An event's Swiss or round-robin rounds are given as pairings ``{"round", "a", "b", "games",
"result"}``: ``games`` lists the games of the pairing in order, each ``"a"``, ``"b"`` or ``"draw"``
(best of 1, 3 or 5); ``b`` None is a bye.  The pairing's result is ``result`` when given, else the
game score decides: more games won wins the match, equal games won (1-1-1, or 1-1 when time ran
out) is a match draw, no games is an unfinished pairing, left out of everything.  ``"double"`` (a
double forfeit) means both players lose: no points for anyone and neither is the other's opponent.

Three presets, each a complete set of rules:

``card`` (match points and percentages, the usual trading-card-game rules)
    A match win is worth 3 match points, a draw 1, a loss 0.  A bye is a match win 2-0: 3 match
    points, 2 games won out of 2.  Game points: 3 per game won, 1 per game drawn.
    Match-win % (MWP) = match points / (3 x matches played), byes included, at least 0.33.
    Game-win % (GWP) = game points / (3 x games played), byes' games included, at least 0.33.
    Opponents' match-win % (OMW%) is the average of the MWP of each opponent met (one entry per
    match), opponents' game-win % (OGW%) the average of their GWP.  A bye has no opponent, so it
    is in the player's own figures but never in an opponents' average.  A player who drops keeps
    their results; their MWP and GWP (over the rounds they played) still count for the players
    they met.  Order: match points, OMW%, GWP, OGW%; players equal on all four share a place.
``pokemon`` (match points and resistance)
    Win 3, draw 1, loss 0, a bye is a win (3 points, counted under ``byes``).  A player's win %
    for resistance = matches won / matches played, counting only matches against an opponent:
    a bye is neither a win nor a match here (the bye still gives its 3 points).  A double
    forfeit counts as a match played and lost.  Each opponent's win % is at least 0.25; a
    dropped opponent's is taken over the rounds they played.  Order: match points, opponents'
    win % (OWP, the average of the opponents' win %), opponents' opponents' win % (OOWP, the
    average of the opponents' OWP), then head to head: among players equal on all three, the
    match points each scored in the pairings among them.
``chess`` (the leagues' scoring, :func:`host.events.chess.standings`)
    Win 1, draw 1/2, loss 0, bye 1; Buchholz (sum of the opponents' points), Sonneborn-Berger
    (sum of the points of the opponents one beat, plus half of those one drew), head to head
    (points scored among the players equal on the above).  Byes and double forfeits have no
    opponent and count for neither tiebreak.

In the card and pokemon presets a double forfeit is a match loss for both players (it counts
in their matches played, so it lowers their MWP or win %), and a double on a bye pairing counts
for nothing.  Players equal on points and every tiebreak (compared to 6 decimals) share a place
(1, 2, 2, 4) and are listed in sign-up order; dropped players stay in the table.

>>> match_result({"a": 1, "b": 2, "games": ["a", "b", "draw"], "result": None})
'draw'
>>> swiss_defaults(20)
(5, 8)
>>> percent(2 / 3)
'66.67%'
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from host.events import chess

PRESETS = ("card", "pokemon", "chess")
TIEBREAKS: dict[str, tuple[str, ...]] = {
    "card": ("omw", "gwp", "ogw"),
    "pokemon": ("owp", "oowp", "h2h"),
    "chess": ("buchholz", "sonneborn_berger", "h2h"),
}
RESULTS = ("a", "b", "draw", "bye", "double")
GAME_RESULTS = ("a", "b", "draw")
CARD_FLOOR = 0.33        # the least MWP / GWP used (card preset)
POKEMON_FLOOR = 0.25     # the least win % used for an opponent (pokemon preset)
PRECISION = 6            # tiebreaks are compared rounded to this many decimals
WIN, DRAW = 3, 1         # match points (card and pokemon)


def match_result(pairing: dict[str, Any]) -> str | None:
    """The pairing's result: ``"a"``, ``"b"``, ``"draw"``, ``"bye"``, ``"double"``, or None when
    it is not finished.  An explicit ``result`` wins; a pairing without ``b`` is a bye (unless
    marked ``"double"``); otherwise the game score decides (more games won wins, equal is a draw,
    no games is unfinished)."""
    res = pairing.get("result")
    if res is not None and res not in RESULTS:
        raise ValueError(f"unknown pairing result {res!r}")
    if pairing.get("b") is None:
        return "double" if res == "double" else "bye"
    if res is not None:
        return res
    games = list(pairing.get("games") or ())
    bad = [g for g in games if g not in GAME_RESULTS]
    if bad:
        raise ValueError(f"unknown game result {bad[0]!r}")
    if not games:
        return None
    a, b = games.count("a"), games.count("b")
    return "a" if a > b else "b" if b > a else "draw"


@dataclass
class Row:
    """One line of the table.  ``points``: match points (card, pokemon) or chess points;
    ``wins`` leaves byes out (they are in ``byes``); ``games_*`` count the games of the pairings
    (in the card preset a bye adds 2 games won); ``tiebreaks``: the preset's columns
    (:data:`TIEBREAKS`), fractions 0..1 for percentages, raw numbers for chess; ``own``: the
    player's own percentages (card: ``mwp``, ``gwp``; pokemon: ``wp``; chess: none)."""
    user_id: int
    name: str
    status: str = "active"
    points: float = 0.0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    games_won: int = 0
    games_drawn: int = 0
    games_lost: int = 0
    tiebreaks: dict[str, float] = field(default_factory=dict)
    place: int = 0
    opponents: list[int] = field(default_factory=list)
    own: dict[str, float] = field(default_factory=dict)


@dataclass
class _Tally:
    matches: int = 0                      # played, byes and double forfeits included
    met: list[tuple[int, int]] = field(default_factory=list)   # (opponent, my match points)


def _finished(pairings: list[dict]) -> list[tuple[dict, str]]:
    out = []
    for p in pairings:
        res = match_result(p)
        if res is not None:
            out.append((p, res))
    return out


def _tally(players: list[dict], pairings: list[dict], preset: str) -> tuple[dict[int, Row], dict[int, _Tally]]:
    """Points, records, games and opponents of every player (chess points come from :mod:`.chess`)."""
    rows = {p["id"]: Row(p["id"], p.get("name", ""), p.get("status", "active")) for p in players}
    tallies = {pid: _Tally() for pid in rows}
    for p, res in _finished(pairings):
        a, b = p["a"], p.get("b")
        if b is None or res == "bye":
            if res == "double" or a not in rows:
                continue              # a forfeited bye: nothing at all
            row = rows[a]
            row.byes += 1
            row.points += WIN
            tallies[a].matches += 1
            if preset == "card":
                row.games_won += 2
            continue
        games = list(p.get("games") or ())
        for me, other, side in ((a, b, "a"), (b, a, "b")):
            row = rows.get(me)
            if row is None:
                continue
            tallies[me].matches += 1
            if res == "double":
                row.losses += 1
                continue
            mine = WIN if res == side else DRAW if res == "draw" else 0
            row.points += mine
            row.wins += mine == WIN
            row.draws += mine == DRAW
            row.losses += mine == 0
            row.games_won += sum(g == side for g in games)
            row.games_drawn += games.count("draw")
            row.games_lost += sum(g not in (side, "draw") for g in games)
            row.opponents.append(other)
            tallies[me].met.append((other, mine))
    return rows, tallies


def _average(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _ratio(num: float, den: float, floor: float) -> float:
    """``num / den`` but at least ``floor``; ``floor`` when nothing was played."""
    return max(floor, num / den) if den else floor


def _card(rows: dict[int, Row], tallies: dict[int, _Tally]) -> None:
    """MWP, GWP, OMW%, OGW%.  A player with no opponents (only byes, or nothing played) has
    OMW% and OGW% 0."""
    for pid, row in rows.items():
        games = row.games_won + row.games_drawn + row.games_lost
        row.own = {"mwp": _ratio(row.points, 3 * tallies[pid].matches, CARD_FLOOR),
                   "gwp": _ratio(WIN * row.games_won + DRAW * row.games_drawn, 3 * games, CARD_FLOOR)}
    for row in rows.values():
        opps = [rows[o] for o in row.opponents if o in rows]
        row.tiebreaks = {"omw": _average([o.own["mwp"] for o in opps]), "gwp": row.own["gwp"],
                         "ogw": _average([o.own["gwp"] for o in opps])}


def _pokemon(rows: dict[int, Row], tallies: dict[int, _Tally]) -> None:
    """Win % (byes left out), OWP, OOWP, head to head.  A player with no opponents has OWP and
    OOWP 0."""
    for pid, row in rows.items():
        row.own = {"wp": _ratio(row.wins, tallies[pid].matches - row.byes, POKEMON_FLOOR)}
    for row in rows.values():
        row.tiebreaks = {"owp": _average([rows[o].own["wp"] for o in row.opponents if o in rows])}
    for row in rows.values():
        row.tiebreaks["oowp"] = _average([rows[o].tiebreaks["owp"] for o in row.opponents if o in rows])
        row.tiebreaks["h2h"] = 0.0
    groups: dict[tuple, set[int]] = {}
    for pid, row in rows.items():
        groups.setdefault(_key(row, ("owp", "oowp")), set()).add(pid)
    for members in groups.values():
        if len(members) > 1:
            for pid in members:
                rows[pid].tiebreaks["h2h"] = float(sum(mp for o, mp in tallies[pid].met if o in members))


def _chess(players: list[dict], pairings: list[dict], rows: dict[int, Row]) -> None:
    """Points, record and tiebreaks from :func:`host.events.chess.standings`; games from our tally."""
    games = [(p["a"], p.get("b"), res) for p, res in _finished(pairings)]
    for st in chess.standings(players, games):
        row = rows[st.user_id]
        row.points, row.wins, row.draws, row.losses, row.byes = st.points, st.wins, st.draws, st.losses, st.byes
        row.opponents = list(st.opponents)
        row.tiebreaks = {"buchholz": st.buchholz, "sonneborn_berger": st.sonneborn_berger,
                         "h2h": st.head_to_head}
        row.own = {}


def _key(row: Row, columns: tuple[str, ...]) -> tuple[float, ...]:
    return (round(row.points, PRECISION), *(round(row.tiebreaks[c], PRECISION) for c in columns))


def standings(players: list[dict], pairings: list[dict], preset: str = "card") -> list[Row]:
    """The table, best first.  ``players``: ``[{"id", "name", "status"}]`` in sign-up order;
    ``pairings``: the rounds' pairings (unfinished ones are ignored).  Players equal on points
    and every tiebreak share a place and are listed in sign-up order."""
    if preset not in PRESETS:
        raise ValueError(f"unknown scoring preset {preset!r}")
    rows, tallies = _tally(players, pairings, preset)
    if preset == "card":
        _card(rows, tallies)
    elif preset == "pokemon":
        _pokemon(rows, tallies)
    else:
        _chess(players, pairings, rows)
    columns = TIEBREAKS[preset]
    order = {p["id"]: i for i, p in enumerate(players)}
    table = sorted(rows.values(), key=lambda r: (tuple(-x for x in _key(r, columns)), order[r.user_id]))
    for i, row in enumerate(table):
        same = i and _key(row, columns) == _key(table[i - 1], columns)
        row.place = table[i - 1].place if same else i + 1
    return table


def cut(rows: list[Row], size: int, seed: str) -> tuple[list[Row], dict | None]:
    """The top ``size`` players for a top cut, from a table (best first).  Only players still
    ``active`` are eligible: a dropped player is passed over and the next one goes through.
    When the players at the cut line share a place (an exact tie across the line), a random
    draw from ``random.Random(seed)`` orders the tied players and the first ones drawn fill the
    remaining seats; the draw is returned as ``{"place", "tied", "drawn", "seed"}`` (user ids;
    ``tied`` in table order, ``drawn`` in drawn order), else None.  The chosen rows are in table
    order, the drawn ones last in drawn order."""
    if size < 0:
        raise ValueError("a top cut cannot be negative")
    eligible = [r for r in rows if r.status == "active"]
    if size == 0 or size >= len(eligible) or eligible[size - 1].place != eligible[size].place:
        return eligible[:size], None
    place = eligible[size - 1].place
    tied = [r for r in eligible if r.place == place]
    above = [r for r in eligible if r.place < place]
    drawn = list(tied)
    random.Random(seed).shuffle(drawn)
    record = {"place": place, "tied": [r.user_id for r in tied], "drawn": [r.user_id for r in drawn],
              "seed": seed}
    return above + drawn[:size - len(above)], record


# (most players, Swiss rounds, top cut); up to 8 players: single elimination straight away
_SWISS = ((8, 0, 0), (16, 5, 4), (32, 5, 8), (64, 6, 8), (128, 7, 8), (226, 8, 8), (409, 9, 8))


def swiss_defaults(n: int) -> tuple[int, int]:
    """(Swiss rounds, top cut size) for ``n`` players: 2-8 players play no Swiss, a single-
    elimination bracket of everyone (0, 0); 9-16: 5 rounds, top 4; 17-32: 5, top 8; 33-64: 6;
    65-128: 7; 129-226: 8; 227-409: 9; 410 or more: 10 rounds, top 8."""
    if n < 2:
        raise ValueError("an event needs at least 2 players")
    for most, rounds, top in _SWISS:
        if n <= most:
            return rounds, top
    return 10, 8


def percent(x: float) -> str:
    """A tiebreak fraction as a percentage with 2 decimals and a dot: ``0.666…`` → ``66.67%``."""
    return f"{x * 100:.2f}%"
