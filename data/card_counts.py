"""The counters behind ``/cards report`` — pure: rows of limited play in, sums out; no I/O.

The per-card figures of a server's set version (host/stats/card_figures.py) are shares, means
and distinct-draft counts.  Each is rebuilt exactly from a few sums, so the store keeps the sums
(data/sql_card_counters.py, migration 0012) and adds to them in the transaction that keeps the
rows, and the report reads ~300 counter rows instead of every pick, seat-game and answer:

* per card (:class:`CardCounts`): the offers to a person and the person's picks of it; the
  drafts in which a person was offered it / took it (each draft counted once per card: a draft's
  picks are kept together, when it is done); the sum and the sum of squares of the pick numbers
  (a mean with Student's t needs n, Σx and Σx²); the seat-games whose deck held it, whose player
  drew it, played it, each with its wins as a sum of scores (a draw adds ½: a Wilson interval
  needs the wins and n); the surveys whose match showed it and its "too strong" / "too weak"
  votes;
* per set version (:class:`SetCounts`): the drafts, matches, seat-games and survey answers, and
  the fun scores' count, sum and sum of squares.

:class:`Tally` is the one place that says what a row adds: a draft's newly kept picks (given the
picks of that draft kept before, so a card's drafts are counted once), a seat-game (given
whether its match is new to the version), a survey answer added or — replaced by a later answer
of the same player — taken away.  The store feeds it what each write newly keeps, and the
whole of a version's rows when it counts a version again (:func:`tally_rows`); the tests feed it
the raw rows of host/stats/card_figures.py and compare the report built from the sums with the
one built from the rows.

Rows are read by attribute: a pick needs ``card``, ``pick_no``, ``offered`` and ``human``; a
seat-game ``deck``, ``drawn``, ``played`` and ``score``; an answer ``fun``, ``strong``, ``weak``
and ``seen`` — both the store's records (data/sql_limited.py) and the figures' rows have them.
Wins are sums of 1, ½ and 0: exact in a float, in whatever order they are added.

>>> from collections import namedtuple
>>> Pick = namedtuple("Pick", "card pick_no offered human")
>>> t = Tally()
>>> t.draft([Pick("a", 1, ("a", "b"), True), Pick("b", 2, ("b",), True)])
>>> cards, totals = t.counts()
>>> [(k.card, k.offered, k.taken, k.drafts_offered, k.pick_sum) for k in cards], totals.drafts
([('a', 1, 1, 1, 1), ('b', 2, 1, 1, 2)], 1)
"""
from __future__ import annotations

from collections import Counter
from dataclasses import astuple, dataclass
from itertools import chain
from operator import attrgetter
from typing import Any, Callable, Iterable

#: a card's counters, in the order of the table's columns (data/migrations/0012_card_counters.sql)
CARD_FIELDS = ("offered", "taken", "drafts_offered", "drafts_taken", "pick_sum", "pick_squares",
               "games", "game_wins", "drawn", "drawn_wins", "played", "played_wins",
               "surveyed", "strong", "weak")
#: the counters that are sums of scores (halves allowed); every other counter is a whole number
WIN_FIELDS = ("game_wins", "drawn_wins", "played_wins")
#: a set version's counters, in the order of the table's columns
SET_FIELDS = ("drafts", "matches", "seat_games", "surveys", "fun_n", "fun_sum", "fun_squares")

(_OFFERED, _TAKEN, _DRAFTS_OFFERED, _DRAFTS_TAKEN, _PICK_SUM, _PICK_SQUARES, _GAMES, _GAME_WINS, _DRAWN,
 _DRAWN_WINS, _PLAYED, _PLAYED_WINS, _SURVEYED, _STRONG, _WEAK) = range(len(CARD_FIELDS))
_DRAFTS, _MATCHES, _SEAT_GAMES, _SURVEYS, _FUN_N, _FUN_SUM, _FUN_SQUARES = range(len(SET_FIELDS))
# (a seat-game's part, its count, its wins)
_PARTS = (("deck", _GAMES, _GAME_WINS), ("drawn", _DRAWN, _DRAWN_WINS), ("played", _PLAYED, _PLAYED_WINS))


@dataclass(frozen=True)
class CardCounts:
    """One card's counters in one set version (see the module docstring; ``*_wins``: a sum of
    scores, a draw adding ½)."""

    card: str
    offered: int = 0
    taken: int = 0
    drafts_offered: int = 0
    drafts_taken: int = 0
    pick_sum: int = 0
    pick_squares: int = 0
    games: int = 0
    game_wins: float = 0.0
    drawn: int = 0
    drawn_wins: float = 0.0
    played: int = 0
    played_wins: float = 0.0
    surveyed: int = 0
    strong: int = 0
    weak: int = 0

    @property
    def named(self) -> bool:
        """Something names the card: offered to a person, in a deck, drawn, played or shown in a
        surveyed match — the report has a row for it (as it has for every card of the set)."""
        return bool(self.offered or self.games or self.drawn or self.played or self.surveyed)

    def values(self) -> tuple:
        """The counters in :data:`CARD_FIELDS` order."""
        return astuple(self)[1:]


@dataclass(frozen=True)
class SetCounts:
    """One set version's totals: drafts (with a pick kept, a computer's included), matches,
    seat-games, survey answers (one per player per match), and the fun scores' count, sum and
    sum of squares."""

    drafts: int = 0
    matches: int = 0
    seat_games: int = 0
    surveys: int = 0
    fun_n: int = 0
    fun_sum: int = 0
    fun_squares: int = 0

    def values(self) -> tuple:
        """The totals in :data:`SET_FIELDS` order."""
        return astuple(self)


class Tally:
    """Counters being summed — what some writes add (a delta) or a version's whole count.
    ``cards``: card id -> a list of :data:`CARD_FIELDS` numbers; ``totals``: the
    :data:`SET_FIELDS` numbers."""

    def __init__(self) -> None:
        self.cards: dict[str, list] = {}
        self.totals: list[int] = [0] * len(SET_FIELDS)

    def _row(self, card: str) -> list:
        row = self.cards.get(card)
        if row is None:
            row = self.cards[card] = [0, 0, 0, 0, 0, 0, 0, 0.0, 0, 0.0, 0, 0.0, 0, 0, 0]
        return row

    def draft(self, picks: Iterable[Any], kept: Iterable[Any] = ()) -> None:
        """Add one draft's newly kept ``picks``, given the picks of that draft ``kept`` before
        (none: the draft is new to the version and counted).  Only a person's picks count for
        the cards; a card's ``drafts_offered`` / ``drafts_taken`` move on only when this draft
        had not yet offered it to / seen it taken by a person."""
        picks, kept = list(picks), list(kept)
        if not picks:
            return
        if not kept:
            self.totals[_DRAFTS] += 1
        human = [p for p in picks if p.human]
        if not human:
            return
        before = [p for p in kept if p.human]
        offered_before = set(chain.from_iterable(p.offered for p in before))
        taken_before = {p.card for p in before}
        for card, k in Counter(chain.from_iterable(p.offered for p in human)).items():
            row = self._row(card)
            row[_OFFERED] += k
            if card not in offered_before:
                row[_DRAFTS_OFFERED] += 1
        for p in human:
            row = self._row(p.card)
            row[_TAKEN] += 1
            row[_PICK_SUM] += p.pick_no
            row[_PICK_SQUARES] += p.pick_no * p.pick_no
        for card in {p.card for p in human} - taken_before:
            self._row(card)[_DRAFTS_TAKEN] += 1

    def seat_game(self, game: Any, new_match: bool) -> None:
        """Add one newly kept seat-game; ``new_match``: the first seat of its match kept in this
        version.  A card counts once per part (deck, drawn, played) whatever its copies."""
        self.totals[_SEAT_GAMES] += 1
        if new_match:
            self.totals[_MATCHES] += 1
        score = float(game.score)
        for part, n, wins in _PARTS:
            for card in set(getattr(game, part)):
                row = self._row(card)
                row[n] += 1
                row[wins] += score

    def survey(self, answer: Any, sign: int = 1) -> None:
        """Add one survey answer (``sign`` -1: take away an answer a later one replaces)."""
        self.totals[_SURVEYS] += sign
        if answer.fun is not None:
            self.totals[_FUN_N] += sign
            self.totals[_FUN_SUM] += sign * answer.fun
            self.totals[_FUN_SQUARES] += sign * answer.fun * answer.fun
        for card in set(answer.seen):
            self._row(card)[_SURVEYED] += sign
        if answer.strong is not None:
            self._row(answer.strong)[_STRONG] += sign
        if answer.weak is not None:
            self._row(answer.weak)[_WEAK] += sign

    def __bool__(self) -> bool:
        return bool(self.cards) or any(self.totals)

    def counts(self) -> tuple[list[CardCounts], SetCounts]:
        """The sums as :class:`CardCounts` (by card id) and :class:`SetCounts`."""
        return ([CardCounts(card, *row) for card, row in sorted(self.cards.items())], SetCounts(*self.totals))


def tally_rows(picks: Iterable[Any], games: Iterable[Any], answers: Iterable[Any], *,
               draft: Callable[[Any], Any] = attrgetter("draft_id"), match: Callable[[Any], Any] = attrgetter("match_id"),
               player: Callable[[Any], Any] = attrgetter("user_id")) -> Tally:
    """The whole count of one set version from all its rows, in any order: the picks grouped
    by ``draft``, the matches told apart by ``match``, one answer per ``player`` per match (a
    later answer in place of an earlier one, as host.stats.card_figures.one_per_player).  The
    defaults read the store's records; the figures' rows name them ``draft``, ``match`` and
    ``player_key``."""
    t = Tally()
    drafts: dict[Any, list] = {}
    for p in picks:
        drafts.setdefault(draft(p), []).append(p)
    for rows in drafts.values():
        t.draft(rows)
    seen: set = set()
    for g in games:
        m = match(g)
        t.seat_game(g, m not in seen)
        seen.add(m)
    kept: dict[tuple, Any] = {}
    for a in answers:
        kept[(match(a), player(a))] = a
    for a in kept.values():
        t.survey(a)
    return t


__all__ = ["CardCounts", "SetCounts", "Tally", "tally_rows", "CARD_FIELDS", "SET_FIELDS", "WIN_FIELDS"]
