"""The report built from counters (host/stats/card_figures.report_from_counts, the sums of
data/card_counts.py) is the report built from the rows (card_figures.report): the same values,
intervals, minimum samples, order and totals — on the hand-computed table of
tests/test_card_figures.py, on a random larger input (a fixed seed), and when the counters are
added to a write at a time (a draft's picks in two calls, a survey answer replaced) rather than
counted all at once.  Pure: no store (the store's counters: tests/test_store_card_counters.py)."""
from __future__ import annotations

import doctest
import random
from operator import attrgetter

import pytest

from data import card_counts as CC
from data.card_counts import CardCounts, SetCounts, Tally, tally_rows
from host.stats import card_figures as F
from host.stats.card_figures import PickRow, SeatGame, SurveyAnswer, report, report_from_counts
from tests.test_card_figures import games, picks, surveys

KEYS = dict(draft=attrgetter("draft"), match=attrgetter("match"), player=attrgetter("player_key"))
MINIMUMS = ({}, {"min_games": 1, "min_drafts": 1, "min_surveys": 1}, {"min_games": 4, "min_drafts": 3},
            {"min_games": 10, "min_drafts": 2, "min_surveys": 2}, {"min_games": 15, "min_drafts": 4, "min_surveys": 7})


def from_counts(p, g, s, **kw) -> F.CardReport:
    cards, totals = tally_rows(p, g, s, **KEYS).counts()
    return report_from_counts(cards, totals, **kw)


# ----------------------------------------------------------------------------- the hand table
@pytest.mark.parametrize("minimums", MINIMUMS)
def test_the_hand_table_gives_the_same_report_from_its_counters(minimums):
    kw = {"cards": ["A", "B", "C", "D", "E"], **minimums}
    assert from_counts(picks(), games(), surveys(), **kw) == report(picks(), games(), surveys(), **kw)


def test_the_hand_tables_counters_against_the_hand_table():
    """The sums themselves, read off the tables of tests/test_card_figures.py."""
    cards, totals = tally_rows(picks(), games(), surveys(), **KEYS).counts()
    k = {c.card: c for c in cards}
    # A: offered to a person in d1p1, d2p1, d2p2, d3p1 (drafts d1, d2, d3); taken at 1, 2, 1
    assert (k["A"].offered, k["A"].taken, k["A"].drafts_offered, k["A"].drafts_taken) == (4, 3, 3, 3)
    assert (k["A"].pick_sum, k["A"].pick_squares) == (4, 6)
    # A in every deck: 11 wins + 4 draws × ½; played only by the 4 draw seats
    assert (k["A"].games, k["A"].game_wins, k["A"].played, k["A"].played_wins) == (26, 13.0, 4, 2.0)
    # D: never taken; surveyed in m1 and m12 (p1's first m1 answer replaced, not counted twice)
    assert (k["D"].taken, k["D"].drafts_taken, k["D"].surveyed, k["D"].weak) == (0, 0, 4, 2)
    # fun 5, 2, 3, 4, 5 of six kept answers
    assert totals == SetCounts(drafts=3, matches=13, seat_games=26, surveys=6, fun_n=5, fun_sum=19, fun_squares=79)


def test_a_card_of_the_set_with_no_counters_has_an_empty_row_and_a_zeroed_one_none():
    """A card whose counters went back to nothing (its only survey answer replaced) has no row,
    as in the report from the rows; a card of the set has one all the same."""
    only = [SurveyAnswer("m1", "p", 3, "Z", None, frozenset({"Z"})),
            SurveyAnswer("m1", "p", 3, None, None, frozenset({"Y"}))]
    for cards in ((), ("Z",)):
        assert from_counts((), (), only, cards=cards) == report((), (), only, cards=cards)
    assert [r.card for r in from_counts((), (), only).rows] == ["Y"]
    r = report_from_counts([CardCounts("Q")], SetCounts(), cards=["Z"])
    assert [row.card for row in r.rows] == ["Z"] and r.fun is None


def test_a_card_counted_twice_or_a_minimum_below_one_is_refused():
    with pytest.raises(ValueError, match="twice"):
        report_from_counts([CardCounts("A", offered=1), CardCounts("A")], SetCounts())
    with pytest.raises(ValueError):
        report_from_counts([], SetCounts(), min_drafts=0)
    with pytest.raises(ValueError):
        report_from_counts([], SetCounts(), cards=[""])


# ----------------------------------------------------------------------------- a larger input
def random_rows(rnd: random.Random, n_cards: int = 40, n_drafts: int = 14, n_matches: int = 160):
    """Drafts of 2–4 seats (a person or a computer at each) with packs holding copies, Winston-
    like piles of 1–3, matches of 2–4 seats with decks holding copies, every score, and survey
    answers — some replaced by the same player's later answer, some without a fun score."""
    cards = [f"c{i:02d}" for i in range(n_cards)]
    out_picks = []
    for d in range(n_drafts):
        for seat in range(rnd.randint(2, 4)):
            human = rnd.random() < 0.6
            for _round in range(rnd.randint(1, 3)):
                pack = [rnd.choice(cards) for _ in range(rnd.randint(1, 8))]
                for pick_no in range(1, len(pack) + 1):
                    offered = tuple(pack)
                    took = pack.pop(rnd.randrange(len(pack)))
                    out_picks.append(PickRow(f"d{d}", seat, took, pick_no, offered, human and rnd.random() < 0.9))
    rnd.shuffle(out_picks)                       # a draft's picks need not come together
    out_games = []
    for m in range(n_matches):
        seats = rnd.randint(2, 4)
        scores = rnd.choice([[1.0] + [0.0] * (seats - 1), [0.5] * seats, [0.0] * seats])
        for seat in range(seats):
            deck = [rnd.choice(cards) for _ in range(rnd.randint(0, 12))]
            drawn = [c for c in deck if rnd.random() < 0.6] + [rnd.choice(cards)] * (rnd.random() < 0.1)
            played = [c for c in drawn if rnd.random() < 0.5]
            out_games.append(SeatGame(m, seat, frozenset(deck), frozenset(drawn), frozenset(played), scores[seat]))
    out_surveys = []
    for m in range(n_matches):
        seen = sorted({rnd.choice(cards) for _ in range(rnd.randint(1, 10))})
        for _ in range(rnd.randint(0, 4)):
            strong, weak = (rnd.sample(seen, 2) if len(seen) > 1 and rnd.random() < 0.7 else (seen[0], None))
            out_surveys.append(SurveyAnswer(m, f"p{rnd.randrange(3)}", rnd.choice([None, 1, 2, 3, 4, 5]),
                                            strong if rnd.random() < 0.8 else None, weak, frozenset(seen)))
    return out_picks, out_games, out_surveys, cards


@pytest.mark.parametrize("seed", range(8))
def test_a_random_input_gives_the_same_report_from_its_counters(seed):
    rnd = random.Random(seed)
    p, g, s, cards = random_rows(rnd)
    for minimums in MINIMUMS:
        kw = {"cards": cards[: rnd.randint(0, len(cards))], **minimums}
        assert from_counts(p, g, s, **kw) == report(p, g, s, **kw), (seed, minimums)
    # every figure is shown somewhere with the smallest minimums: the comparison is not of Nones
    r = from_counts(p, g, s, min_games=1, min_drafts=1, min_surveys=1)
    assert r.fun is not None and all(any(getattr(row, f) is not None for row in r.rows)
                                     for f in ("avg_pick", "pick_rate", "in_deck", "drawn", "played"))


@pytest.mark.parametrize("seed", range(4))
def test_counters_added_a_write_at_a_time_are_the_counters_of_all_the_rows(seed):
    """As the store adds them: a draft's picks in two calls (the second given the first as
    kept), a match's seats one at a time, each answer added and — when the same player answers
    the match again — the earlier one taken away.  The sums are those of all the rows counted at
    once, and so is the report."""
    rnd = random.Random(100 + seed)
    p, g, s, cards = random_rows(rnd)
    t = Tally()
    by_draft: dict = {}
    for row in p:
        by_draft.setdefault(row.draft, []).append(row)
    for rows in by_draft.values():
        cut = rnd.randint(0, len(rows))
        t.draft(rows[:cut])
        t.draft(rows[cut:], rows[:cut])
    seen_matches = set()
    for row in g:
        t.seat_game(row, row.match not in seen_matches)
        seen_matches.add(row.match)
    answered: dict = {}
    for a in s:
        if (a.match, a.player_key) in answered:
            t.survey(answered[(a.match, a.player_key)], -1)
        t.survey(a)
        answered[(a.match, a.player_key)] = a
    whole = tally_rows(p, g, s, **KEYS)
    incremental_cards, incremental_totals = t.counts()
    whole_cards, whole_totals = whole.counts()
    assert incremental_totals == whole_totals
    assert [k for k in incremental_cards if any(k.values())] == whole_cards
    for minimums in MINIMUMS:
        assert report_from_counts(incremental_cards, incremental_totals, cards=cards, **minimums) == \
            report(p, g, s, cards=cards, **minimums)


def test_the_module_examples_hold():
    assert doctest.testmod(CC).failed == 0
