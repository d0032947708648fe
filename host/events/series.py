"""One pairing of an event played as a series of games, best of 1, 3 or 5: pure and synchronous
(no I/O, no Discord, no clock: times are given as ``now``-style epoch seconds).

The rules (the project's rulings)
---------------------------------
* A pairing of players ``a`` and ``b`` plays best of N (N is 1, 3 or 5).  Each game is a bot
  match whose result is ``"a"``, ``"b"`` or ``"draw"``.  The series ends as soon as one player
  has won a majority of N games (1 of 1, 2 of 3, 3 of 5), or when N games have been played:
  drawn games count as games played, so 1-1-1 with a draw in a best of 3 is final.
* The pairing's result is its game score: the player with more game wins wins the match, equal
  wins (1-1-1, 0-0-1, or 0-0 when time ran out) is a match draw.
* Who moves first in each game:

  - game 1: in a Swiss round, a random draw, seeded with the ``seed`` given to :func:`new`
    (``random.Random(seed).choice((a, b))``), so it is recorded and can be replayed; in an
    elimination (top cut) match, the higher seed chooses.  A lower seed number is a higher seed
    (seed 1 is the best); a seeded player outranks an unseeded one, and when neither seed is
    known (or both are equal) player ``a`` counts as the higher seed;
  - after a won game, the loser of that game chooses for the next one;
  - after a drawn game, whoever chose for it chooses again.  **Ruling**: when nobody chose for
    the drawn game (a Swiss game 1 decided at random), the random draw decides again: the next
    draw of the same seeded generator (the k-th draw of a series is the k-th
    ``choice((a, b))`` of one ``random.Random(seed)``), so the whole series stays replayable;
  - **SQUARES** (``game == "squares"``): its ruling is that the previous game's winner moves
    second, so after game 1 nobody is asked: the loser of the previous game moves first.
    **Ruling**: after a drawn SQUARES game, the player who moved second in it moves first (nobody
    won, so the rule names no one; the first move simply passes to the other player).  This
    differs on purpose from a casual SQUARES rematch after a draw (random again,
    :meth:`rules.squares.SquaresGame.rematch_options`): in an event nothing after game 1 is left to
    chance.  Game 1 is decided as in any other game (random in Swiss, the higher seed's choice
    in elimination).

  To choose, the chooser says whether they play first or second (:func:`choose`).
* A round has a time limit (minutes, the organiser's choice; :func:`extend` adds minutes to one
  pairing's deadline).  When it runs out (:func:`time_out`), a game still in progress counts as
  drawn and the pairing's result counts its games so far: 1-0 with an unfinished game is 1-0-1,
  a match win; 0-0 with an unfinished game is 0-0-1, a draw; 1-1 with an unfinished game is
  1-1-1, a draw; 0-0 with no game under way is a draw with no games.
* A game awarded without being played (a no-show claim, :mod:`host.events.registration`) is
  recorded with ``forfeit=True``; it may be recorded before the first player was decided.  Any
  other game needs its first player decided before it is recorded.
* **Decisive** series (``decisive=True``; an event's elimination matches, where a match must have
  a winner): drawn games do not count toward the wins needed and do not end the series — it goes
  on, game after game, until one player has won the majority (2 of 3, 3 of 5), so its result is
  never a draw.  Who moves first after a drawn game follows the rules above.  Its time-out is not
  decided here (:func:`time_out` refuses it): the event's organiser decides.

The series is a JSON-able dict (the host stores it)::

    {"a", "b", "best_of", "elimination", "decisive", "seeds": [seed_a, seed_b], "game", "seed",
     "games": [{"result", "first", "chosen_by", "how", "match", "forfeit", "unfinished"}],
     "chooser": user | None, "first": user | None, "how": str | None, "draws": int, "timed_out": bool}

``chooser`` is who chooses (or chose) for the next game (None when it is decided automatically),
``first`` who moves first in the next game once known, ``how`` how it was decided, ``draws`` how
many random draws the series has made; read them with :func:`chooser` and :func:`first_player`.
Each game records who moved first, who chose (None for a random draw or the SQUARES rule) and
``how`` the first player was decided: ``"random"``, ``"choice"`` or ``"squares"`` (None for a
forfeit recorded before any decision).  ``match`` is the game's bot match, when there is one.

Errors are :class:`SeriesError` (a :class:`ValueError`) carrying a catalog key (``events.err.…``)
and params, and the series is left unchanged.

>>> s = new(1, 2, 3, elimination=True, seeds=(1, 4), game="maken", seed="x")
>>> chooser(s)
1
>>> s = record_game(choose(s, 1, True), "a")
>>> chooser(s), first_player(s)
(2, None)
>>> s = record_game(choose(s, 2, False), "a")
>>> over(s), result(s), score_text(s)
(True, 'a', '2–0')
"""
from __future__ import annotations

import random
from typing import Any

BEST_OF = (1, 3, 5)
GAME_RESULTS = ("a", "b", "draw")
SQUARES = "squares"
DASH = "–"   # an en dash, as in "2–1"


class SeriesError(ValueError):
    """An invalid series operation: ``key`` is a catalog key, ``params`` its placeholders."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


def needed(best_of: int) -> int:
    """Games a player must win to take a best-of-``best_of`` series: 1, 2 or 3."""
    if best_of not in BEST_OF:
        raise SeriesError("events.err.best_of", best_of=best_of)
    return best_of // 2 + 1


def new(a: int, b: int, best_of: int, *, elimination: bool, seeds: tuple[int | None, int | None] = (None, None),
        game: str, seed: str, decisive: bool = False) -> dict:
    """A series not yet begun.  Swiss (``elimination`` False): game 1's first player is drawn
    now from ``random.Random(seed)``.  Elimination: the higher seed is the chooser for game 1.
    ``decisive``: drawn games do not count, the series ends only with a winner (module doc)."""
    needed(best_of)
    if a == b:
        raise SeriesError("events.err.same_player", user=a)
    if len(seeds) != 2:
        raise SeriesError("events.err.seeds", seeds=list(seeds))
    s: dict[str, Any] = {"a": a, "b": b, "best_of": best_of, "elimination": bool(elimination),
                         "seeds": list(seeds), "game": game, "seed": seed, "games": [],
                         "chooser": None, "first": None, "how": None, "draws": 0,
                         "timed_out": False}
    if decisive:
        s["decisive"] = True
    if elimination:
        s["chooser"] = _higher_seed(s)
    else:
        _draw(s)
    return s


def _higher_seed(s: dict) -> int:
    sa, sb = s["seeds"]
    if sb is not None and (sa is None or sb < sa):
        return s["b"]
    return s["a"]


def _other(s: dict, user: int) -> int:
    return s["b"] if user == s["a"] else s["a"]


def _draw(s: dict) -> None:
    """The next random draw of the series' seeded generator decides the next first player."""
    rng = random.Random(s["seed"])
    pick = s["a"]
    for _ in range(s["draws"] + 1):
        pick = rng.choice((s["a"], s["b"]))
    s["draws"] += 1
    s["first"], s["chooser"], s["how"] = pick, None, "random"


def score(s: dict) -> tuple[int, int, int]:
    """(games won by a, games won by b, games drawn)."""
    results = [g["result"] for g in s["games"]]
    return results.count("a"), results.count("b"), results.count("draw")


def over(s: dict) -> bool:
    """The series has ended: a majority won, all N games played, or the time ran out (a
    decisive series: only a majority won)."""
    wa, wb, _ = score(s)
    if s.get("decisive"):
        return max(wa, wb) >= needed(s["best_of"])
    return (s["timed_out"] or max(wa, wb) >= needed(s["best_of"])
            or len(s["games"]) >= s["best_of"])


def result(s: dict) -> str | None:
    """``"a"``, ``"b"`` or ``"draw"`` (equal game wins) once the series is over, else None."""
    if not over(s):
        return None
    wa, wb, _ = score(s)
    return "a" if wa > wb else "b" if wb > wa else "draw"


def chooser(s: dict) -> int | None:
    """Who must choose who moves first in the next game now; None when it is decided (or
    decided automatically) or the series is over."""
    return None if over(s) or s["first"] is not None else s["chooser"]


def first_player(s: dict) -> int | None:
    """Who moves first in the next game, once known; None while the chooser has not chosen or
    when the series is over."""
    return None if over(s) else s["first"]


def choose(s: dict, by: int, play_first: bool) -> dict:
    """The chooser ``by`` decides: they move first (``play_first``) or second in the next game."""
    if over(s):
        raise SeriesError("events.err.series_over")
    if s["first"] is not None:
        raise SeriesError("events.err.already_chosen", first=s["first"])
    if by != s["chooser"]:
        raise SeriesError("events.err.not_chooser", user=by, chooser=s["chooser"])
    s["first"] = by if play_first else _other(s, by)
    s["how"] = "choice"
    return s


def record_game(s: dict, result: str, match_id: int | None = None, *, forfeit: bool = False) -> dict:
    """Records the next game's result (``"a"``, ``"b"`` or ``"draw"``) and decides who moves
    first, or who chooses, for the game after it.  ``forfeit``: a game awarded without being
    played (a win only), which may be recorded before the first player is decided."""
    if result not in GAME_RESULTS:
        raise SeriesError("events.err.bad_result", result=result)
    if over(s):
        raise SeriesError("events.err.series_over")
    if forfeit and result == "draw":
        raise SeriesError("events.err.forfeit_draw")
    if s["first"] is None and not forfeit:
        raise SeriesError("events.err.choose_first", chooser=s["chooser"])
    s["games"].append(_game(s, result, match_id, forfeit=forfeit, unfinished=False))
    _next(s)
    return s


def _game(s: dict, result: str, match_id: int | None, *, forfeit: bool, unfinished: bool) -> dict:
    decided = s["first"] is not None
    return {"result": result, "first": s["first"], "chosen_by": s["chooser"] if decided else None,
            "how": s["how"] if decided else None, "match": match_id, "forfeit": forfeit,
            "unfinished": unfinished}


def _next(s: dict) -> None:
    """Who moves first, or who chooses, for the game after the last recorded one."""
    s["first"], s["chooser"], s["how"] = None, None, None
    if over(s):
        return
    last = s["games"][-1]
    a, b = s["a"], s["b"]
    if s["game"] == SQUARES:
        if last["result"] == "draw":                # a played draw: its first player is known
            s["first"] = _other(s, last["first"])   # the drawn game's second player
        else:
            s["first"] = b if last["result"] == "a" else a   # the winner moves second
        s["how"] = "squares"
    elif last["result"] != "draw":
        s["chooser"] = b if last["result"] == "a" else a     # the loser chooses
    elif last["chosen_by"] is not None:
        s["chooser"] = last["chosen_by"]                     # the same chooser again
    else:
        _draw(s)                                             # nobody chose: drawn again


def time_out(s: dict, unfinished: bool, *, match_id: int | None = None) -> dict:
    """The round's time ran out: an ``unfinished`` game (one under way, ``match_id`` its bot
    match) counts as drawn and the series ends with the games played so far.  A series already
    over is left as it is (an unfinished game then is an error).  A decisive series is refused
    (``events.err.decisive_time_out``): its time-out decides nothing, the organiser does."""
    if s.get("decisive"):
        raise SeriesError("events.err.decisive_time_out")
    if over(s):
        if unfinished:
            raise SeriesError("events.err.series_over")
        return s
    if unfinished:
        s["games"].append(_game(s, "draw", match_id, forfeit=False, unfinished=True))
    s["timed_out"] = True
    s["first"], s["chooser"], s["how"] = None, None, None
    return s


def deadline(started_at: float, minutes: int) -> float:
    """The end of a round that began at ``started_at`` with a limit of ``minutes``."""
    return extend(started_at, minutes)


def extend(deadline: float, minutes: int) -> float:
    """One pairing's deadline moved ``minutes`` (at least 1) later."""
    if isinstance(minutes, bool) or not isinstance(minutes, int) or minutes < 1:
        raise SeriesError("events.err.bad_minutes", minutes=minutes)
    return deadline + minutes * 60


def score_text(s: dict, a_first: bool = True) -> str:
    """The game score with an en dash: wins of one side, wins of the other, then the draws when
    there are any ("2–1", "1–1–1", "1–0–1"); ``a_first`` False puts b's wins first."""
    wa, wb, d = score(s)
    parts = [wa, wb] if a_first else [wb, wa]
    if d:
        parts.append(d)
    return DASH.join(str(x) for x in parts)


def for_scoring(s: dict) -> dict:
    """The pairing fields :mod:`host.events.scoring` reads: ``games`` (each ``"a"``, ``"b"`` or
    ``"draw"``) and ``result``, given explicitly once over (so a 0-0 time-out, which has no
    games, counts as the draw it is rather than as unfinished)."""
    return {"games": [g["result"] for g in s["games"]], "result": result(s)}
