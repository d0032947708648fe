"""Per-card figures of limited play (sealed and draft) and the roll-up of the playtest survey —
pure: plain rows in, a :class:`CardReport` out; no I/O, no clock, no store.

What a designer of a server's card set reads, per card of one set version:

- **average pick position** — the mean ``pick_no`` of the picks in which a *person* took the
  card (computer drafters are left out: they pick by the cards' value, which is what is being
  measured), with the 95 % interval of a mean (Student's t);
- **pick rate** — times a person took the card ÷ times it was offered to a person (each copy of
  it among the cards of a pick — a pack, a Winston pile — is one offer), with the 95 % Wilson
  score interval;
- **win rate when in the deck, when drawn, when played** — over the *seat-games* (one player's
  side of one finished match played with a drafted or sealed deck) whose deck held the card,
  whose player drew it, whose player played it; a draw counts half a win; each with the 95 %
  Wilson score interval (:func:`data.intervals.wilson`).

Each figure is a :class:`Figure` ``(value, low, high, n)``, or ``None`` below its minimum sample:
:data:`MIN_SEAT_GAMES` seat-games for a win rate; for the pick figures, :data:`MIN_DRAFTS`
different drafts in which a person was offered the card (pick rate) or took it (average pick
position).  Both are parameters of :func:`report`.

The survey (one tap after a match: fun 1–5, a card that felt too strong, one too weak, both
chosen from the cards seen in that match) is rolled up per set version: the mean fun with the
95 % interval of a mean (from :data:`MIN_SURVEYS` answers with a fun score), and per card the
"too strong" and "too weak" votes with their share among the surveys whose match showed the
card.  A player answers once per match: :func:`one_per_player` keeps a second answer in place of
the first.  The player key is read for that rule only: no figure and nothing in a
:class:`CardReport` says who answered or how.

Linear in its input: every row is read once into counting dicts (``Counter.update`` over a
deck counts in C), never a scan of every game per card.  :func:`report_from_counts` builds the
same report from a version's counters instead (data/card_counts.py: sums the store keeps up to
date as rows are written), which is what ``/cards report`` reads: a few hundred counter rows in
place of every pick, seat-game and answer.

>>> games = [SeatGame("m1", 0, frozenset({"a", "b"}), frozenset({"a"}), frozenset({"a"}), 1.0),
...          SeatGame("m1", 1, frozenset({"a", "c"}), frozenset({"c"}), frozenset(), 0.0)]
>>> r = report((), games, (), min_games=2)
>>> [(row.card, row.in_deck and row.in_deck.value) for row in r.rows]
[('a', 0.5), ('b', None), ('c', None)]
>>> r.matches, r.seat_games
(1, 2)
"""
from __future__ import annotations

import math
from collections import Counter
from itertools import chain, groupby
from operator import attrgetter
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from data.card_counts import CardCounts, SetCounts
from data.intervals import wilson

#: a win rate needs so many seat-games (the card in the deck, drawn, played) before it is shown
MIN_SEAT_GAMES = 20
#: a pick figure needs so many different drafts (the card offered to a person, taken by one)
MIN_DRAFTS = 10
#: the mean fun needs so many answers with a fun score
MIN_SURVEYS = 5
SCORES = frozenset({0.0, 0.5, 1.0})
FUN = range(1, 6)

# Student's t, 97.5 % quantile, for 1–30 degrees of freedom (beyond: Cornish–Fisher, below)
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
         2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
         2.045, 2.042)
_Z = 1.959964


def t975(df: int) -> float:
    """The 97.5 % quantile of Student's t with ``df`` degrees of freedom: a table to 30, then the
    Cornish–Fisher expansion around the normal quantile (within 0.0001 from 30 on).

    >>> t975(4), round(t975(60), 3), round(t975(10_000), 2)
    (2.776, 2.0, 1.96)
    """
    if df < 1:
        raise ValueError("a t quantile needs at least one degree of freedom")
    if df <= len(_T975):
        return _T975[df - 1]
    z = _Z
    return (z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)
            + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * df ** 3))


# ----------------------------------------------------------------------------- the figures
@dataclass(frozen=True)
class Figure:
    """One figure: its ``value``, the 95 % interval ``low``–``high`` and the sample ``n`` it is
    read from (picks, offers, seat-games or answers)."""

    value: float
    low: float
    high: float
    n: int

    def to_json(self) -> dict:
        return {"value": self.value, "low": self.low, "high": self.high, "n": self.n}

    @classmethod
    def from_json(cls, d: Any) -> "Figure":
        if not isinstance(d, dict) or set(d) != {"value", "low", "high", "n"}:
            raise ValueError("a figure is {value, low, high, n}")
        nums = [d[k] for k in ("value", "low", "high")]
        if any(isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x) for x in nums):
            raise ValueError("a figure's value and bounds are finite numbers")
        n = d["n"]
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError("a figure's n is a whole number of at least 1")
        if not nums[1] <= nums[0] <= nums[2]:
            raise ValueError("a figure's value lies inside its interval")
        return cls(float(nums[0]), float(nums[1]), float(nums[2]), n)


def rate(wins: float, n: int) -> Figure:
    """A share (a win rate, a pick rate) with its 95 % Wilson score interval; ``wins`` may hold
    halves (a draw counts half a win).

    >>> f = rate(2, 3); (round(f.value, 3), round(f.low, 3), round(f.high, 3), f.n)
    (0.667, 0.208, 0.939, 3)
    """
    low, high = wilson(wins, n)
    return Figure(wins / n, low, high, n)


def mean(total: float, squares: float, n: int, floor: float | None = None, ceiling: float | None = None) -> Figure:
    """The mean of ``n`` numbers from their sum and sum of squares, with the 95 % interval of a
    mean (mean ± t·s/√n, t of n − 1 degrees of freedom), kept inside ``floor``–``ceiling``.

    >>> f = mean(6, 14, 3); (f.value, round(f.low, 3), round(f.high, 3))
    (2.0, -0.484, 4.484)
    """
    if n < 2:
        raise ValueError("a mean's interval needs two numbers at least")
    m = total / n
    var = max(0.0, (squares - total * total / n) / (n - 1))
    half = t975(n - 1) * math.sqrt(var / n)
    low, high = m - half, m + half
    if floor is not None:
        low = max(floor, low)
    if ceiling is not None:
        high = min(ceiling, high)
    return Figure(m, low, high, n)


# ----------------------------------------------------------------------------- the inputs
def _key(value: Any, what: str) -> None:
    if isinstance(value, bool) or not isinstance(value, (str, int)) or value == "":
        raise ValueError(f"{what} is a text or a whole number")


def _card(value: Any, what: str) -> None:
    if not isinstance(value, str) or not value:
        raise ValueError(f"{what} is a card id (a text)")


def _cards(value: Any, what: str) -> frozenset:
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple, set, frozenset)):
        raise ValueError(f"{what} is a list of card ids")
    for c in value:
        _card(c, f"each card of {what}")
    return frozenset(value)


def _fields(d: Any, names: tuple[str, ...], what: str) -> dict:
    if not isinstance(d, dict) or set(d) != set(names):
        raise ValueError(f"{what} has the fields {', '.join(names)}")
    return d


@dataclass(frozen=True)
class PickRow:
    """One pick of a draft: in ``draft``, the drafter at ``seat`` took ``card``, the ``pick_no``-th
    card they took from that pack (1 = the first card taken from a fresh pack), choosing among
    ``offered`` (the pack as it came to them, the taken card included; each copy of a card in it
    is one offer); ``human`` — a person picked, not a computer drafter.  Checked when made."""

    draft: str | int
    seat: int
    card: str
    pick_no: int
    offered: tuple[str, ...]
    human: bool

    def __post_init__(self) -> None:
        _key(self.draft, "a pick's draft")
        if isinstance(self.seat, bool) or not isinstance(self.seat, int) or self.seat < 0:
            raise ValueError("a pick's seat is a whole number from 0")
        _card(self.card, "a pick's card")
        if isinstance(self.pick_no, bool) or not isinstance(self.pick_no, int) or self.pick_no < 1:
            raise ValueError("a pick's number is a whole number from 1")
        if not isinstance(self.offered, tuple) or self.card not in self.offered:
            raise ValueError("a pick's offered cards are a tuple holding the card taken")
        _cards(self.offered, "a pick's offered cards")
        if not isinstance(self.human, bool):
            raise ValueError("a pick's human is true or false")

    def to_json(self) -> dict:
        return {"draft": self.draft, "seat": self.seat, "card": self.card, "pick_no": self.pick_no,
                "offered": list(self.offered), "human": self.human}

    @classmethod
    def from_json(cls, d: Any) -> "PickRow":
        d = _fields(d, ("draft", "seat", "card", "pick_no", "offered", "human"), "a pick")
        if not isinstance(d["offered"], list):
            raise ValueError("a pick's offered cards are a list")
        return cls(d["draft"], d["seat"], d["card"], d["pick_no"], tuple(d["offered"]), d["human"])


@dataclass(frozen=True)
class SeatGame:
    """One player's side of one finished match played with a drafted or sealed deck: the cards of
    the ``deck``, those the player ``drew`` (``drawn``) and ``played``, and the ``score``: 1 a
    win, 0.5 a draw, 0 a loss.  A card counts once whatever its copies."""

    match: str | int
    seat: int
    deck: frozenset
    drawn: frozenset
    played: frozenset
    score: float

    def __post_init__(self) -> None:
        _key(self.match, "a seat-game's match")
        if isinstance(self.seat, bool) or not isinstance(self.seat, int) or self.seat < 0:
            raise ValueError("a seat-game's seat is a whole number from 0")
        for name in ("deck", "drawn", "played"):
            value = getattr(self, name)
            if not isinstance(value, frozenset):
                raise ValueError(f"a seat-game's {name} is a frozenset of card ids")
            _cards(value, f"a seat-game's {name}")
        if isinstance(self.score, bool) or self.score not in SCORES:
            raise ValueError("a seat-game's score is 1 (a win), 0.5 (a draw) or 0 (a loss)")

    def to_json(self) -> dict:
        return {"match": self.match, "seat": self.seat, "deck": sorted(self.deck), "drawn": sorted(self.drawn),
                "played": sorted(self.played), "score": self.score}

    @classmethod
    def from_json(cls, d: Any) -> "SeatGame":
        d = _fields(d, ("match", "seat", "deck", "drawn", "played", "score"), "a seat-game")
        sets = []
        for name in ("deck", "drawn", "played"):
            if not isinstance(d[name], list):
                raise ValueError(f"a seat-game's {name} is a list")
            sets.append(_cards(d[name], f"a seat-game's {name}"))
        score = d["score"]
        if isinstance(score, bool) or not isinstance(score, (int, float)):
            raise ValueError("a seat-game's score is a number")
        return cls(d["match"], d["seat"], sets[0], sets[1], sets[2], float(score))


@dataclass(frozen=True)
class SurveyAnswer:
    """One player's answer to the survey after ``match``: ``fun`` 1–5, the card that felt
    ``strong`` (too strong) and the one that felt ``weak`` (too weak) — each may be left out —
    chosen from ``seen``, the cards that match showed.  ``player_key`` only tells two answers of
    one player apart (:func:`one_per_player`); it is never part of a figure."""

    match: str | int
    player_key: str
    fun: int | None
    strong: str | None
    weak: str | None
    seen: frozenset

    def __post_init__(self) -> None:
        _key(self.match, "an answer's match")
        if not isinstance(self.player_key, str) or not self.player_key:
            raise ValueError("an answer's player key is a text")
        if self.fun is not None and (isinstance(self.fun, bool) or not isinstance(self.fun, int)
                                     or self.fun not in FUN):
            raise ValueError("fun is a whole number from 1 to 5, or left out")
        if not isinstance(self.seen, frozenset):
            raise ValueError("an answer's seen cards are a frozenset of card ids")
        _cards(self.seen, "an answer's seen cards")
        for name in ("strong", "weak"):
            card = getattr(self, name)
            if card is not None and (not isinstance(card, str) or card not in self.seen):
                raise ValueError(f"the {name} card is one of the cards the match showed")
        if self.strong is not None and self.strong == self.weak:
            raise ValueError("one card cannot feel both too strong and too weak")

    def to_json(self) -> dict:
        return {"match": self.match, "player_key": self.player_key, "fun": self.fun, "strong": self.strong,
                "weak": self.weak, "seen": sorted(self.seen)}

    @classmethod
    def from_json(cls, d: Any) -> "SurveyAnswer":
        d = _fields(d, ("match", "player_key", "fun", "strong", "weak", "seen"), "a survey answer")
        if not isinstance(d["seen"], list):
            raise ValueError("an answer's seen cards are a list")
        return cls(d["match"], d["player_key"], d["fun"], d["strong"], d["weak"], _cards(d["seen"], "seen"))


def one_per_player(answers: Iterable[SurveyAnswer]) -> list[SurveyAnswer]:
    """One answer per player per match: a later answer of the same player to the same match
    replaces the earlier one (``answers`` in the order they were given); the answers come back
    in the order each player first answered.

    >>> seen = frozenset({"a"})
    >>> kept = one_per_player([SurveyAnswer(1, "p", 2, None, None, seen), SurveyAnswer(1, "q", 3, None, None, seen),
    ...                        SurveyAnswer(1, "p", 5, "a", None, seen)])
    >>> [(a.player_key, a.fun) for a in kept]
    [('p', 5), ('q', 3)]
    """
    kept: dict[tuple, SurveyAnswer] = {}
    for a in answers:
        kept[(a.match, a.player_key)] = a
    return list(kept.values())


def fun_figure(answers: Iterable[SurveyAnswer], min_n: int = MIN_SURVEYS) -> Figure | None:
    """The mean fun (1–5) of ``answers`` (already one per player per match) with the 95 %
    interval of a mean, kept inside 1–5; ``None`` with fewer than ``min_n`` fun scores (or 2)."""
    n, total, squares = 0, 0, 0
    for a in answers:
        if a.fun is not None:
            n, total, squares = n + 1, total + a.fun, squares + a.fun * a.fun
    return mean(total, squares, n, 1.0, 5.0) if n >= max(2, min_n) else None


# ----------------------------------------------------------------------------- the report
@dataclass(frozen=True)
class CardRow:
    """One card's figures (``None``: below the minimum sample) and its plain counts: seat-games
    with the card in the deck (``games``), drawn, played; times offered to and taken by a person;
    surveys whose match showed it (``surveyed``) and its "too strong" / "too weak" votes."""

    card: str
    avg_pick: Figure | None
    pick_rate: Figure | None
    in_deck: Figure | None
    drawn: Figure | None
    played: Figure | None
    games: int
    drawn_games: int
    played_games: int
    offered: int
    taken: int
    strong: int
    weak: int
    surveyed: int

    @property
    def strong_share(self) -> float | None:
        return self.strong / self.surveyed if self.surveyed else None

    @property
    def weak_share(self) -> float | None:
        return self.weak / self.surveyed if self.surveyed else None

    def to_json(self) -> dict:
        figs = {k: (None if getattr(self, k) is None else getattr(self, k).to_json())
                for k in ("avg_pick", "pick_rate", "in_deck", "drawn", "played")}
        return {"card": self.card, **figs, "games": self.games, "drawn_games": self.drawn_games,
                "played_games": self.played_games, "offered": self.offered, "taken": self.taken,
                "strong": self.strong, "weak": self.weak, "surveyed": self.surveyed}


@dataclass(frozen=True)
class CardReport:
    """The report of one set version: ``rows`` sorted as a designer reads them — by win rate in
    the deck, highest first, the cards without that figure last (those by seat-games, most
    first; then by card id) — the totals, the mean ``fun`` and the minimum samples used.  Holds
    no player key."""

    rows: tuple[CardRow, ...]
    drafts: int
    matches: int
    seat_games: int
    surveys: int
    fun: Figure | None
    min_games: int
    min_drafts: int
    min_surveys: int

    def to_json(self) -> dict:
        """Plain data (the picture, :mod:`render.card_report`, draws from it)."""
        return {"rows": [r.to_json() for r in self.rows],
                "totals": {"drafts": self.drafts, "matches": self.matches, "seat_games": self.seat_games,
                           "surveys": self.surveys},
                "fun": None if self.fun is None else self.fun.to_json(),
                "minimums": {"games": self.min_games, "drafts": self.min_drafts, "surveys": self.min_surveys}}


_DRAFT, _OFFERED, _CARD, _PICK_NO, _MATCH, _SEAT = (attrgetter(k) for k in ("draft", "offered", "card", "pick_no",
                                                                            "match", "seat"))


def _wins(wins: Counter, draws: Counter, card: str) -> float:
    return wins.get(card, 0) + 0.5 * draws.get(card, 0)


def report(picks: Iterable[PickRow], games: Iterable[SeatGame], surveys: Iterable[SurveyAnswer], *,
           cards: Iterable[str] = (), min_games: int = MIN_SEAT_GAMES, min_drafts: int = MIN_DRAFTS,
           min_surveys: int = MIN_SURVEYS) -> CardReport:
    """The figures of one set version from its ``picks``, its ``games`` (seat-games of matches
    played with drafted or sealed decks) and its ``surveys`` (one answer per player per match is
    kept, :func:`one_per_player`).  Every card of ``cards`` (the set's list) has a row, and so
    has every card the rows name.  Raises ValueError on a seat of a match given twice.  One
    pass over each input: linear in picks × pack size + seat-games × deck size + answers."""
    if min(min_games, min_drafts, min_surveys) < 1:
        raise ValueError("a minimum sample is at least 1")
    # picks: offers and takes by people, the drafts each card was offered in / taken in — read a
    # run of one draft's rows at a time, so the counting runs in C (Counter.update, chain, zip)
    offered, taken, positions = Counter(), Counter(), Counter()
    seen_in: dict[Any, set] = {}
    taken_in: dict[Any, set] = {}
    for draft, run in groupby(picks, _DRAFT):
        human = [p for p in run if p.human]
        seen_in.setdefault(draft, set())
        if not human:
            continue
        offers = list(chain.from_iterable(map(_OFFERED, human)))
        offered.update(offers)
        seen_in[draft].update(offers)
        took = list(map(_CARD, human))
        taken.update(took)
        taken_in.setdefault(draft, set()).update(took)
        positions.update(zip(took, map(_PICK_NO, human)))
    drafts_offered, drafts_taken = Counter(), Counter()
    for s in seen_in.values():
        drafts_offered.update(s)
    for s in taken_in.values():
        drafts_taken.update(s)
    pick_sum, pick_sq = Counter(), Counter()
    for (c, no), k in positions.items():
        pick_sum[c] += k * no
        pick_sq[c] += k * no * no

    # seat-games: per card the games, the wins and the draws — in the deck, drawn, played; each
    # Counter is fed once, from one chain of every game's cards (the counting runs in C)
    played_games = list(games)
    seats = set(zip(map(_MATCH, played_games), map(_SEAT, played_games)))
    if len(seats) != len(played_games):
        twice = Counter(zip(map(_MATCH, played_games), map(_SEAT, played_games))).most_common(1)[0][0]
        raise ValueError(f"seat {twice[1]} of match {twice[0]!r} is given twice")
    matches = set(map(_MATCH, played_games))
    winners = [g for g in played_games if g.score == 1.0]
    drawers = [g for g in played_games if g.score == 0.5]
    n, won, drew = {}, {}, {}
    for k in ("deck", "drawn", "played"):
        part = attrgetter(k)
        n[k] = Counter(chain.from_iterable(map(part, played_games)))
        won[k] = Counter(chain.from_iterable(map(part, winners)))
        drew[k] = Counter(chain.from_iterable(map(part, drawers)))

    # the survey
    answers = one_per_player(surveys)
    surveyed, strong, weak = Counter(chain.from_iterable(a.seen for a in answers)), Counter(), Counter()
    for a in answers:
        if a.strong is not None:
            strong[a.strong] += 1
        if a.weak is not None:
            weak[a.weak] += 1

    every = set(cards)
    for c in every:
        _card(c, "a card of the set")
    every.update(offered, n["deck"], n["drawn"], n["played"], surveyed)

    def win_rate(k: str, c: str) -> Figure | None:
        games_n = n[k].get(c, 0)
        return rate(_wins(won[k], drew[k], c), games_n) if games_n >= min_games else None

    rows = []
    for c in every:
        t = taken.get(c, 0)
        avg = (mean(pick_sum[c], pick_sq[c], t, floor=1.0)
               if drafts_taken.get(c, 0) >= min_drafts and t >= 2 else None)
        pr = rate(t, offered[c]) if drafts_offered.get(c, 0) >= min_drafts else None
        rows.append(CardRow(c, avg, pr, win_rate("deck", c), win_rate("drawn", c), win_rate("played", c),
                            n["deck"].get(c, 0), n["drawn"].get(c, 0), n["played"].get(c, 0),
                            offered.get(c, 0), t, strong.get(c, 0), weak.get(c, 0), surveyed.get(c, 0)))
    rows.sort(key=lambda r: (r.in_deck is None, -(r.in_deck.value if r.in_deck else 0.0), -r.games, r.card))
    return CardReport(tuple(rows), len(seen_in), len(matches), len(seats), len(answers),
                      fun_figure(answers, min_surveys), min_games, min_drafts, min_surveys)


def report_from_counts(counts: Iterable[CardCounts], totals: SetCounts, *, cards: Iterable[str] = (),
                       min_games: int = MIN_SEAT_GAMES, min_drafts: int = MIN_DRAFTS,
                       min_surveys: int = MIN_SURVEYS) -> CardReport:
    """The same :class:`CardReport` as :func:`report` — the same values, intervals, minimum
    samples, order and totals — built from a set version's counters (data/card_counts.py:
    what the store keeps as rows are written) instead of its rows: a few hundred
    :class:`CardCounts` and one :class:`SetCounts`, so ``/cards report`` need not read every
    pick, seat-game and answer.  Every card of ``cards`` has a row, and so has every card the
    counters name (offered to a person, in a deck, drawn, played or shown in a surveyed match).
    Raises ValueError on a card counted twice."""
    if min(min_games, min_drafts, min_surveys) < 1:
        raise ValueError("a minimum sample is at least 1")
    by_card: dict[str, CardCounts] = {}
    for k in counts:
        if k.card in by_card:
            raise ValueError(f"card {k.card!r} is counted twice")
        by_card[k.card] = k
    every = set(cards)
    for c in every:
        _card(c, "a card of the set")
    every.update(c for c, k in by_card.items() if k.named)

    def win_rate(wins: float, games_n: int) -> Figure | None:
        return rate(float(wins), games_n) if games_n >= min_games else None

    rows = []
    for c in every:
        k = by_card.get(c) or CardCounts(c)
        avg = (mean(k.pick_sum, k.pick_squares, k.taken, floor=1.0)
               if k.drafts_taken >= min_drafts and k.taken >= 2 else None)
        pr = rate(k.taken, k.offered) if k.drafts_offered >= min_drafts else None
        rows.append(CardRow(c, avg, pr, win_rate(k.game_wins, k.games), win_rate(k.drawn_wins, k.drawn),
                            win_rate(k.played_wins, k.played), k.games, k.drawn, k.played, k.offered, k.taken,
                            k.strong, k.weak, k.surveyed))
    rows.sort(key=lambda r: (r.in_deck is None, -(r.in_deck.value if r.in_deck else 0.0), -r.games, r.card))
    fun = (mean(totals.fun_sum, totals.fun_squares, totals.fun_n, 1.0, 5.0)
           if totals.fun_n >= max(2, min_surveys) else None)
    return CardReport(tuple(rows), totals.drafts, totals.matches, totals.seat_games, totals.surveys, fun,
                      min_games, min_drafts, min_surveys)


def report_from_json(picks: Iterable[Mapping], games: Iterable[Mapping], surveys: Iterable[Mapping],
                     **kw: Any) -> CardReport:
    """:func:`report` of stored rows (each checked as it is read: a row that does not fit raises
    ValueError)."""
    return report((PickRow.from_json(d) for d in picks), (SeatGame.from_json(d) for d in games),
                  (SurveyAnswer.from_json(d) for d in surveys), **kw)


__all__ = ["Figure", "PickRow", "SeatGame", "SurveyAnswer", "CardRow", "CardReport", "report", "report_from_counts",
           "report_from_json", "one_per_player", "fun_figure", "rate", "mean", "t975", "MIN_SEAT_GAMES", "MIN_DRAFTS", "MIN_SURVEYS"]
