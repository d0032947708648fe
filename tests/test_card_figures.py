"""Per-card figures of limited play and the survey roll-up (host/stats/card_figures.py), checked
against a table computed by hand: four cards A–D, three drafts, 13 matches (26 seat-games) and
seven survey answers.

The Wilson score interval used throughout, z = 1.96, z² = 3.8416, p = wins / n:
    d = 1 + z²/n,  centre = (p + z²/2n) / d,  half = z·√(p(1−p)/n + z²/4n²) / d,
    interval = (centre − half, centre + half), kept inside 0–1.
The interval of a mean: mean ± t·s/√n, s² = (Σx² − (Σx)²/n)/(n − 1), t the 97.5 % quantile of
Student's t with n − 1 degrees of freedom (t₂ = 4.303, t₄ = 2.776).
"""
from __future__ import annotations

import doctest
import json
import random

import pytest

from host.stats import card_figures as CF
from host.stats.card_figures import PickRow, SeatGame, SurveyAnswer, one_per_player, report

A, B, C, D = "A", "B", "C", "D"
ALL = frozenset({A, B, C, D})


def approx(x):
    return pytest.approx(x, abs=1e-4)


# ----------------------------------------------------------------------------- the table
def games() -> list[SeatGame]:
    """13 matches: m1–m11 seat 0 wins; m12, m13 drawn.

    | seat-games           | deck    | drawn                  | played          | score |
    | m1–m11 seat 0 (×11)  | A B C   | A B (m1–m6), B (m7–11) | B               | 1     |
    | m1–m11 seat 1 (×11)  | A C D   | C D, and A in m1–m3    | C, and D m1–m5  | 0     |
    | m12, m13 both (×4)   | A B D   | A                      | A               | 0.5   |
    """
    out = []
    for m in range(1, 12):
        out.append(SeatGame(f"m{m}", 0, frozenset({A, B, C}), frozenset({A, B} if m <= 6 else {B}),
                            frozenset({B}), 1.0))
        out.append(SeatGame(f"m{m}", 1, frozenset({A, C, D}), frozenset({C, D, A} if m <= 3 else {C, D}),
                            frozenset({C, D} if m <= 5 else {C}), 0.0))
    for m in (12, 13):
        for seat in (0, 1):
            out.append(SeatGame(f"m{m}", seat, frozenset({A, B, D}), frozenset({A}), frozenset({A}), 0.5))
    return out


def picks() -> list[PickRow]:
    """Three drafts; one computer pick (d1 seat 1), left out of every pick figure.

    | draft seat | pick | offered   | took | person |
    | d1 0       | 1    | A B C D   | A    | yes    |
    | d1 0       | 2    | B C       | B    | yes    |
    | d1 1       | 1    | C D       | C    | no     |
    | d2 0       | 1    | A B C D   | B    | yes    |
    | d2 0       | 2    | A D       | A    | yes    |
    | d3 0       | 1    | A B C     | A    | yes    |
    | d3 1       | 1    | C D       | C    | yes    |
    | d3 0       | 2    | B         | B    | yes    |
    """
    return [PickRow("d1", 0, A, 1, (A, B, C, D), True), PickRow("d1", 0, B, 2, (B, C), True),
            PickRow("d1", 1, C, 1, (C, D), False),
            PickRow("d2", 0, B, 1, (A, B, C, D), True), PickRow("d2", 0, A, 2, (A, D), True),
            PickRow("d3", 0, A, 1, (A, B, C), True), PickRow("d3", 1, C, 1, (C, D), True),
            PickRow("d3", 0, B, 2, (B,), True)]


def surveys() -> list[SurveyAnswer]:
    """Seven answers; p1's second answer to m1 replaces its first.

    | match player | fun | too strong | too weak | seen     |
    | m1 p1        | 4   | B          | –        | A B C D  |  (replaced)
    | m1 p2        | 2   | B          | D        | A B C D  |
    | m1 p1        | 5   | –          | C        | A B C D  |
    | m2 p1        | 3   | A          | –        | A B      |
    | m2 p3        | –   | –          | A        | A B      |
    | m12 p2       | 4   | B          | –        | A B D    |
    | m12 p4       | 5   | –          | D        | A B D    |
    """
    return [SurveyAnswer("m1", "p1", 4, B, None, ALL), SurveyAnswer("m1", "p2", 2, B, D, ALL),
            SurveyAnswer("m1", "p1", 5, None, C, ALL), SurveyAnswer("m2", "p1", 3, A, None, frozenset({A, B})),
            SurveyAnswer("m2", "p3", None, None, A, frozenset({A, B})),
            SurveyAnswer("m12", "p2", 4, B, None, frozenset({A, B, D})),
            SurveyAnswer("m12", "p4", 5, None, D, frozenset({A, B, D}))]


def rows(**kw) -> dict[str, CF.CardRow]:
    r = report(picks(), games(), surveys(), **kw)
    return {row.card: row for row in r.rows}


def check(fig, value, low, high, n):
    assert fig is not None
    assert (fig.value, fig.low, fig.high, fig.n) == (approx(value), approx(low), approx(high), n)


# ----------------------------------------------------------------------------- win rates
def test_win_rate_in_the_deck_against_the_hand_table():
    r = rows(min_games=10)
    # A: all 26 seat-games; wins 11 + 4 draws × ½ = 13 → 13/26 = 0.5
    #    d = 1 + 3.8416/26 = 1.147754; centre = (0.5 + 3.8416/52)/d = 0.5
    #    half = 1.96·√(0.25/26 + 3.8416/2704)/d = 1.96·√0.0110361/1.147754 = 0.179397
    check(r[A].in_deck, 0.5, 0.320603, 0.679397, 26)
    # B: 11 winners + 4 draw seats = 15; wins 11 + 2 = 13 → 0.866667
    #    d = 1.256107; centre = (0.866667 + 0.128053)/d = 0.791907; half = 0.170732
    check(r[B].in_deck, 13 / 15, 0.621175, 0.962639, 15)
    # C: 11 winners + 11 losers = 22; wins 11 → 0.5; d = 1.174618; half = 0.192782
    check(r[C].in_deck, 0.5, 0.307218, 0.692782, 22)
    # D: 11 losers + 4 draw seats = 15; wins 2 → 0.133333 (B's interval mirrored: 1 − 0.962639, 1 − 0.621175)
    check(r[D].in_deck, 2 / 15, 0.037361, 0.378825, 15)


def test_win_rate_when_drawn_and_when_played_against_the_hand_table():
    r = rows(min_games=4)
    # drawn — A: 6 winners + 3 losers + 4 draws = 13, wins 6 + 2 = 8 → 0.615385
    #   d = 1 + 3.8416/13 = 1.295508; centre = (0.615385 + 0.147754)/d = 0.589065; half = 0.233840
    check(r[A].drawn, 8 / 13, 0.355225, 0.822905, 13)
    # B: drawn by the 11 winners only → 11/11 = 1; d = 1.349236; centre = (1 + 0.174618)/d = 0.870580;
    #   half = 1.96·√(3.8416/484)/d = 0.129420 → (0.741160, 1.0)
    check(r[B].drawn, 1.0, 0.741160, 1.0, 11)
    # C and D: drawn by the 11 losers only → 0/11 = 0 → (0.0, 0.258840)
    check(r[C].drawn, 0.0, 0.0, 0.258840, 11)
    check(r[D].drawn, 0.0, 0.0, 0.258840, 11)
    # played — A: the 4 draw seats, wins 2 → 0.5; d = 1.9604; half = 1.96·√(0.0625 + 0.060025)/d = 0.349964
    check(r[A].played, 0.5, 0.150036, 0.849964, 4)
    check(r[B].played, 1.0, 0.741160, 1.0, 11)            # 11/11, as B drawn
    check(r[C].played, 0.0, 0.0, 0.258840, 11)            # 0/11
    # D: the losers of m1–m5 → 0/5; d = 1.76832; centre = 0.76832/2/d = 0.217246 = half → (0, 0.434492)
    check(r[D].played, 0.0, 0.0, 0.434492, 5)
    assert (r[A].games, r[A].drawn_games, r[A].played_games) == (26, 13, 4)
    assert (r[D].games, r[D].drawn_games, r[D].played_games) == (15, 11, 5)


def test_a_win_rate_is_hidden_below_the_minimum_of_seat_games():
    r = rows()                                         # the default: 20 seat-games
    assert CF.MIN_SEAT_GAMES == 20
    assert r[A].in_deck is not None and r[C].in_deck is not None          # 26 and 22
    assert r[B].in_deck is None and r[D].in_deck is None                  # 15 each
    assert all(r[c].drawn is None and r[c].played is None for c in ALL)   # 13 at most
    assert r[B].games == 15                            # the plain count still says how many
    assert rows(min_games=15)[B].in_deck is not None   # exactly the minimum: shown
    assert rows(min_games=16)[B].in_deck is None


# ----------------------------------------------------------------------------- picks
def test_pick_rate_and_average_pick_position_against_the_hand_table():
    r = rows(min_drafts=3)
    # offered to a person (the computer's d1 pick left out):
    #   A: d1p1, d2p1, d2p2, d3p1 = 4; B: d1p1, d1p2, d2p1, d3p1, d3p2 = 5;
    #   C: d1p1, d1p2, d2p1, d3p1, d3 seat 1 = 5; D: d1p1, d2p1, d2p2, d3 seat 1 = 4
    # taken by a person: A 3 (d1, d2, d3), B 3 (d1, d2, d3), C 1 (d3), D 0
    assert [(r[c].offered, r[c].taken) for c in (A, B, C, D)] == [(4, 3), (5, 3), (5, 1), (4, 0)]
    # pick rate A 3/4: d = 1.9604, centre = (0.75 + 0.4802)/d = 0.627525, half = 0.326889
    check(r[A].pick_rate, 0.75, 0.300636, 0.954414, 4)
    # B 3/5: d = 1.76832, centre = (0.6 + 0.38416)/d = 0.556551, half = 0.325831
    check(r[B].pick_rate, 0.6, 0.230720, 0.882382, 5)
    # C 1/5: centre = (0.2 + 0.38416)/d = 0.330347, half = 0.294124
    check(r[C].pick_rate, 0.2, 0.036223, 0.624471, 5)
    # D 0/4: centre = half = 0.4802/1.9604 = 0.244950
    check(r[D].pick_rate, 0.0, 0.0, 0.489900, 4)
    # average pick position A: 1, 2, 1 → 4/3; s² = (6 − 16/3)/2 = 1/3; t₂·s/√3 = 4.303·(1/3) = 1.434333
    #   → (−0.101, 2.767667), the low end kept at the first pick: 1
    check(r[A].avg_pick, 4 / 3, 1.0, 4 / 3 + 1.434333, 3)
    # B: 2, 1, 2 → 5/3, the same spread → (1, 5/3 + 1.434333)
    check(r[B].avg_pick, 5 / 3, 1.0, 5 / 3 + 1.434333, 3)
    # C: taken in one draft only (fewer than 3); D never taken
    assert r[C].avg_pick is None and r[D].avg_pick is None


def test_pick_figures_are_hidden_below_the_minimum_of_drafts():
    r = rows()                                         # the default: 10 drafts
    assert CF.MIN_DRAFTS == 10
    assert all(r[c].pick_rate is None and r[c].avg_pick is None for c in ALL)
    r = rows(min_drafts=4)                             # every card was offered in 3 drafts only
    assert all(r[c].pick_rate is None for c in ALL)


def test_a_computer_pick_counts_for_no_pick_figure_but_its_draft_is_counted():
    only_computer = [PickRow("d9", 0, D, 1, (C, D), False)]
    r = report(picks() + only_computer, (), (), min_drafts=1)
    row = {x.card: x for x in r.rows}
    assert (row[D].offered, row[D].taken) == (4, 0) and row[C].taken == 1
    assert r.drafts == 4


def test_picks_in_any_order_give_the_same_figures():
    """Rows of one draft need not come together: a draft interleaved with another is counted
    once per card all the same."""
    shuffled = picks()
    random.Random(7).shuffle(shuffled)
    assert report(shuffled, (), (), min_drafts=3) == report(picks(), (), (), min_drafts=3)


# ----------------------------------------------------------------------------- survey
def test_one_answer_per_player_per_match_the_later_replaces_the_earlier():
    kept = one_per_player(surveys())
    assert len(kept) == 6
    m1p1 = [a for a in kept if (a.match, a.player_key) == ("m1", "p1")]
    assert len(m1p1) == 1 and (m1p1[0].fun, m1p1[0].strong, m1p1[0].weak) == (5, None, C)
    assert kept[0] is m1p1[0]                          # in the place of the first answer
    # the same player in another match is another answer
    assert sum(a.player_key == "p1" for a in kept) == 2


def test_the_survey_roll_up_against_the_hand_table():
    r = report(picks(), games(), surveys())
    row = {x.card: x for x in r.rows}
    # fun of the 6 kept answers: 5, 2, 3, (none), 4, 5 → n = 5, Σ = 19, mean 3.8, Σx² = 79
    #   s² = (79 − 361/5)/4 = 1.7; t₄·√(1.7/5) = 2.776 · 0.583095 = 1.618672 → (2.181328, 5.418672 → 5)
    check(r.fun, 3.8, 2.181328, 5.0, 5)
    assert r.surveys == 6
    # votes: too strong B (m1 p2, m12 p2) 2, A (m2 p1) 1 — m1 p1's first "B" was replaced
    #        too weak C (m1 p1) 1, D (m1 p2, m12 p4) 2, A (m2 p3) 1
    # surveys that showed the card: A 6, B 6, C 2 (m1), D 4 (m1, m12)
    assert [(row[c].strong, row[c].weak, row[c].surveyed) for c in (A, B, C, D)] == \
        [(1, 1, 6), (2, 0, 6), (0, 1, 2), (0, 2, 4)]
    assert row[B].strong_share == pytest.approx(2 / 6) and row[D].weak_share == pytest.approx(2 / 4)
    assert row[C].weak_share == pytest.approx(1 / 2) and row[C].strong_share == 0


def test_the_mean_fun_needs_five_answers_with_a_score():
    four = [SurveyAnswer(f"m{i}", "p", 3 + i % 2, None, None, ALL) for i in range(4)]
    assert CF.fun_figure(four) is None and report((), (), four).fun is None
    assert CF.fun_figure(four + [SurveyAnswer("m9", "p", 4, None, None, ALL)]) is not None
    no_score = four + [SurveyAnswer("m9", "p", None, A, None, ALL)]
    assert CF.fun_figure(no_score) is None             # an answer without fun counts for the votes only


def test_the_report_holds_no_player_key():
    r = report(picks(), games(), surveys())
    text = json.dumps(r.to_json())
    assert all(key not in text for key in ("p1", "p2", "p3", "p4"))
    assert "player" not in text
    for row in r.rows:
        assert not any("player" in name for name in vars(row))
    assert not any("player" in name for name in vars(r))


# ----------------------------------------------------------------------------- the report
def test_rows_are_sorted_by_win_rate_in_the_deck_and_cards_without_it_last():
    r = report(picks(), games(), surveys(), cards=[A, B, C, D, "E"], min_games=10)
    # B 0.867; A 0.5 with 26 games before C 0.5 with 22; D 0.133; E (no figure) last
    assert [x.card for x in r.rows] == [B, A, C, D, "E"]
    r = report(picks(), games(), surveys(), cards=[A, B, C, D, "E"])
    # with 20 games: A, C have a figure; B and D (15 games each) then E (none), by games then id
    assert [x.card for x in r.rows] == [A, C, B, D, "E"]
    assert (r.drafts, r.matches, r.seat_games, r.surveys) == (3, 13, 26, 6)
    assert (r.min_games, r.min_drafts, r.min_surveys) == (20, 10, 5)


def test_a_card_of_the_set_with_no_data_has_an_empty_row():
    r = report((), (), (), cards=["Z"])
    (row,) = r.rows
    assert (row.card, row.games, row.offered, row.surveyed, row.in_deck, row.avg_pick) == ("Z", 0, 0, 0, None, None)
    assert row.strong_share is None
    assert (r.drafts, r.matches, r.surveys, r.fun) == (0, 0, 0, None)


def test_bad_rows_are_refused():
    with pytest.raises(ValueError, match="given twice"):
        report((), games() + [SeatGame("m1", 0, frozenset({A}), frozenset(), frozenset(), 0.0)], ())
    with pytest.raises(ValueError):
        PickRow("d1", 0, A, 1, (B, C), True)           # the card taken was not offered
    with pytest.raises(ValueError):
        PickRow("d1", 0, A, 0, (A,), True)             # picks count from 1
    with pytest.raises(ValueError):
        SeatGame("m1", 0, frozenset({A}), frozenset(), frozenset(), 0.3)
    with pytest.raises(ValueError):
        SeatGame("m1", True, frozenset({A}), frozenset(), frozenset(), 1.0)
    with pytest.raises(ValueError):
        SurveyAnswer("m1", "p", 6, None, None, ALL)    # fun is 1–5
    with pytest.raises(ValueError):
        SurveyAnswer("m1", "p", 3, "E", None, ALL)     # a card the match did not show
    with pytest.raises(ValueError):
        SurveyAnswer("m1", "p", 3, A, A, ALL)          # too strong and too weak at once
    with pytest.raises(ValueError):
        report((), (), (), min_games=0)


def test_stored_rows_round_trip_and_are_checked_when_read():
    for row in picks() + games() + surveys():
        assert type(row).from_json(json.loads(json.dumps(row.to_json()))) == row
    good = games()[0].to_json()
    for bad in ({**good, "extra": 1}, {**good, "score": "1"}, {**good, "deck": "ABC"}, {**good, "seat": -1},
                {k: v for k, v in good.items() if k != "played"}):
        with pytest.raises(ValueError):
            SeatGame.from_json(bad)
    with pytest.raises(ValueError):
        PickRow.from_json({**picks()[0].to_json(), "human": 1})
    with pytest.raises(ValueError):
        SurveyAnswer.from_json({**surveys()[0].to_json(), "seen": "AB"})
    stored = CF.report_from_json([p.to_json() for p in picks()], [g.to_json() for g in games()],
                                 [a.to_json() for a in surveys()], min_games=10)
    assert stored == report(picks(), games(), surveys(), min_games=10)
    figure = stored.rows[0].in_deck
    assert CF.Figure.from_json(figure.to_json()) == figure
    with pytest.raises(ValueError):
        CF.Figure.from_json({"value": 2.0, "low": 0.1, "high": 0.9, "n": 3})


def test_the_t_quantile_and_the_interval_of_a_mean():
    assert CF.t975(2) == 4.303 and CF.t975(30) == 2.042
    assert CF.t975(31) == pytest.approx(2.0395, abs=2e-4)   # tables: t₃₁ = 2.0395
    assert CF.t975(120) == pytest.approx(1.9799, abs=2e-4)  # tables: t₁₂₀ = 1.9799
    f = CF.mean(6, 14, 3)                      # 1, 2, 3: mean 2, s = 1, 4.303/√3 = 2.484338
    assert (f.value, f.low, f.high) == (2.0, approx(-0.484338), approx(4.484338))


def test_the_module_examples_hold():
    assert doctest.testmod(CF).failed == 0
