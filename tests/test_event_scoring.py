"""Event scoring (host/events/scoring.py) against tables computed by hand: the card preset's
match points and percentages, the pokemon preset's resistance, the chess preset (the leagues'
scoring), top cuts with a drawn tie, the Swiss defaults and game scores."""
from __future__ import annotations

import pytest

from host import leagues as L
from host.events import scoring as S
from host.events.scoring import cut, match_result, percent, standings, swiss_defaults

A, B, D = "a", "b", "draw"


def players(*ids: int, dropped: tuple[int, ...] = ()) -> list[dict]:
    return [{"id": i, "name": f"P{i}", "status": "dropped" if i in dropped else "active"} for i in ids]


def pair(rnd: int, a: int, b: int | None, games=(), result: str | None = None) -> dict:
    return {"round": rnd, "a": a, "b": b, "games": list(games), "result": result}


def by_id(rows: list[S.Row]) -> dict[int, S.Row]:
    return {r.user_id: r for r in rows}


def r4(x: float) -> float:
    return round(x, 4)


# An 8-player, 4-round Swiss, best of three.
SWISS8 = [
    pair(1, 1, 2, [A, A]), pair(1, 3, 4, [A, B, A]), pair(1, 5, 6, [A, B, D]), pair(1, 7, 8, [B, B]),
    pair(2, 1, 3, [B, A, B]), pair(2, 8, 5, [A, A]), pair(2, 6, 2, [A, B, A]), pair(2, 4, 7, [A, A]),
    pair(3, 3, 8, [A, B, D]), pair(3, 6, 1, [B, B]), pair(3, 4, 5, [A, B, A]), pair(3, 2, 7, [B, A, B]),
    pair(4, 3, 6, [A, A]), pair(4, 8, 1, [B, A, B]), pair(4, 4, 2, [A, B, A]), pair(4, 7, 5, [A, B]),
]


def test_card_swiss_of_eight_best_of_three_by_hand():
    """Card preset: "match points win 3, draw 1, loss 0"; "MWP = match points / (3 x matches
    played), at least 0.33"; "GWP = game points / (3 x games played), at least 0.33" with "3 for
    each game won, 1 for each game drawn"; "OMW% = the average of each opponent's MWP", OGW%
    likewise; "Order: match points, OMW%, GWP, OGW%"."""
    # Records (opponent, game score) -> MP; games won-drawn-lost -> game points / games:
    # P1: W 2 2-0, L 3 1-2, W 6 2-0, W 8 2-1      MP 9   MWP 9/12 = .75     GW 7-0-3: 21/30 = .7
    # P2: L 1 0-2, L 6 1-2, L 7 1-2, L 4 1-2      MP 0   MWP 0 -> .33       GW 3-0-8:  9/33 = .2727 -> .33
    # P3: W 4 2-1, W 1 2-1, D 8 1-1-1, W 6 2-0    MP 10  MWP 10/12 = .8333  GW 7-1-3: 22/33 = .6667
    # P4: L 3 1-2, W 7 2-0, W 5 2-1, W 2 2-1      MP 9   MWP .75            GW 7-0-4: 21/33 = .6364
    # P5: D 6 1-1-1, L 8 0-2, L 4 1-2, D 7 1-1    MP 2   MWP 2/12 -> .33    GW 3-1-6: 10/30 = .3333
    # P6: D 5 1-1-1, W 2 2-1, L 1 0-2, L 3 0-2    MP 4   MWP 4/12 = .3333   GW 3-1-6: 10/30 = .3333
    # P7: L 8 0-2, L 4 0-2, W 2 2-1, D 5 1-1      MP 4   MWP .3333          GW 3-0-6:  9/27 = .3333
    # P8: W 7 2-0, W 5 2-0, D 3 1-1-1, L 1 1-2    MP 7   MWP 7/12 = .5833   GW 6-1-3: 19/30 = .6333
    # (the 1-1 of P7-P5 ran out of time: equal games won is a match draw)
    # OMW%: P3 (.75 + .75 + .5833 + .3333)/4 = .6042     OGW% (.6364 + .7 + .6333 + .3333)/4 = .5758
    #       P1 (.33 + .8333 + .3333 + .5833)/4 = .52     OGW% (.33 + .6667 + .3333 + .6333)/4 = .4908
    #       P4 (.8333 + .3333 + .33 + .33)/4 = .4567     OGW% (.6667 + .3333 + .3333 + .33)/4 = .4158
    #       P8 (.3333 + .33 + .8333 + .75)/4 = .5617     OGW% (.3333 + .3333 + .6667 + .7)/4 = .5083
    #       P6 (.33 + .33 + .75 + .8333)/4 = .5608       OGW% (.3333 + .33 + .7 + .6667)/4 = .5075
    #       P7 (.5833 + .75 + .33 + .33)/4 = .4983       OGW% (.6333 + .6364 + .33 + .3333)/4 = .4833
    #       P5 (.3333 + .5833 + .75 + .3333)/4 = .5      OGW% (.3333 + .6333 + .6364 + .3333)/4 = .4841
    #       P2 (.75 + .3333 + .3333 + .75)/4 = .5417     OGW% (.7 + .3333 + .3333 + .6364)/4 = .5008
    # Order: P3 10; P1 and P4 on 9, P1's OMW% higher; P8 7; P6 and P7 on 4, P6's OMW% higher; P5; P2.
    rows = standings(players(*range(1, 9)), SWISS8, "card")
    assert [r.user_id for r in rows] == [3, 1, 4, 8, 6, 7, 5, 2]
    assert [r.place for r in rows] == [1, 2, 3, 4, 5, 6, 7, 8]
    t = by_id(rows)
    expected = {  # id: (MP, W, D, L, games won-drawn-lost, MWP, GWP, OMW%, OGW%)
        1: (9, 3, 0, 1, (7, 0, 3), .75, .7, .52, .4908),
        2: (0, 0, 0, 4, (3, 0, 8), .33, .33, .5417, .5008),
        3: (10, 3, 1, 0, (7, 1, 3), .8333, .6667, .6042, .5758),
        4: (9, 3, 0, 1, (7, 0, 4), .75, .6364, .4567, .4158),
        5: (2, 0, 2, 2, (3, 1, 6), .33, .3333, .5, .4841),
        6: (4, 1, 1, 2, (3, 1, 6), .3333, .3333, .5608, .5075),
        7: (4, 1, 1, 2, (3, 0, 6), .3333, .3333, .4983, .4833),
        8: (7, 2, 1, 1, (6, 1, 3), .5833, .6333, .5617, .5083),
    }
    for pid, (mp, w, d, lo, games, mwp, gwp, omw, ogw) in expected.items():
        r = t[pid]
        assert (r.points, r.wins, r.draws, r.losses, r.byes) == (mp, w, d, lo, 0), pid
        assert (r.games_won, r.games_drawn, r.games_lost) == games, pid
        assert (r4(r.own["mwp"]), r4(r.own["gwp"])) == (mwp, gwp), pid
        assert (r4(r.tiebreaks["omw"]), r4(r.tiebreaks["gwp"]), r4(r.tiebreaks["ogw"])) == (omw, gwp, ogw), pid
        assert list(r.tiebreaks) == list(S.TIEBREAKS["card"])
    assert t[3].opponents == [4, 1, 8, 6]


def test_card_floor_of_33_percent_raises_an_omw():
    """Card preset: "MWP = match points / (3 x matches played), at least 0.33" — an opponent at
    0-3 counts as 0.33, not 0, in an OMW%."""
    # Round robin of 4, best of one.  P1 beats everyone; P2 and P3 draw; P4 loses every match.
    # P1 MP 9 MWP 1; P2: L P1, W P4, D P3 -> MP 4, MWP 4/9 = .4444; P3 likewise; P4 0-3: MWP 0 -> .33.
    # P1's OMW% = (.4444 + .4444 + .33)/3 = .4063 (with 0 for P4 it would be 8/27 = .2963).
    ps = [pair(1, 1, 2, [A]), pair(1, 3, 4, [A]), pair(2, 1, 3, [A]), pair(2, 2, 4, [A]),
          pair(3, 1, 4, [A]), pair(3, 2, 3, [D])]
    t = by_id(standings(players(1, 2, 3, 4), ps, "card"))
    assert t[4].own["mwp"] == pytest.approx(0.33)
    assert r4(t[1].tiebreaks["omw"]) == 0.4063
    assert r4(t[1].tiebreaks["omw"]) != r4(8 / 27)


def test_card_bye_counts_for_own_points_and_gwp_not_for_opponents():
    """Card preset: "a bye is a match win 2-0 (3 match points, and 2 games won = 6 game points, 2
    games played)"; "Byes count for the player's own points (and own MWP/GWP) but are left out of
    every opponents' average"; "matches played include byes"."""
    # R1: P1 beats P2 2-1, P4 beats P3 2-0, P5 bye.  R2: P1 beats P5 2-1, P2 beats P3 2-0, P4 bye.
    # P1: MP 6, MWP 1, games 4-0-2: 12/18 = .6667, opponents P2, P5
    # P2: MP 3, MWP 3/6 = .5, games 3-0-2: 9/15 = .6, opponents P1, P3
    # P3: MP 0, MWP .33, games 0-0-4: .33, opponents P4, P2
    # P4: bye + W -> MP 6, MWP 6/6 = 1, games 4-0-0 (2 of them the bye's): 12/12 = 1, opponent P3 only
    # P5: bye + L -> MP 3, MWP 3/6 = .5 (the bye is a match played), games 3-0-2: 9/15 = .6, opponent P1
    # OMW%: P4 = P3's .33 alone (the bye is no opponent); P5 = P1's 1.0;
    #       P1 = (P2 .5 + P5 .5)/2 = .5 — P5's MWP as an opponent includes P5's bye (without it: .33);
    #       OGW% P1 = (.6 + .6)/2 = .6 (P5's GWP without the bye's 2-0 would be 3/9 = .3333).
    # Order: P1 (6, OMW .5), P4 (6, OMW .33), P5 (3, OMW 1.0), P2 (3, OMW (1 + .33)/2 = .665), P3.
    ps = [pair(1, 1, 2, [A, B, A]), pair(1, 3, 4, [B, B]), pair(1, 5, None),
          pair(2, 5, 1, [B, A, B]), pair(2, 2, 3, [A, A]), pair(2, 4, None)]
    rows = standings(players(1, 2, 3, 4, 5), ps, "card")
    assert [r.user_id for r in rows] == [1, 4, 5, 2, 3]
    t = by_id(rows)
    assert (t[5].points, t[5].byes, t[5].wins, t[5].losses) == (3, 1, 0, 1)
    assert (t[5].games_won, t[5].games_lost) == (3, 2)
    assert r4(t[5].own["mwp"]) == 0.5 and r4(t[5].own["gwp"]) == 0.6
    assert t[4].opponents == [3] and t[5].opponents == [1]
    assert r4(t[4].tiebreaks["omw"]) == 0.33 and r4(t[4].tiebreaks["ogw"]) == 0.33
    assert r4(t[4].tiebreaks["gwp"]) == 1.0
    assert r4(t[5].tiebreaks["omw"]) == 1.0 and r4(t[5].tiebreaks["ogw"]) == 0.6667
    assert r4(t[1].tiebreaks["omw"]) == 0.5 and r4(t[1].tiebreaks["ogw"]) == 0.6
    assert r4(t[2].tiebreaks["omw"]) == 0.665


def test_card_dropped_player_keeps_results_and_counts_for_opponents():
    """Card preset: "A player who drops keeps their results, and their MWP still counts for their
    past opponents"; "players equal on points and every tiebreak share a place"."""
    # R1: P2 beats P1 2-0, P3 beats P4 2-0; P2 drops.  R2: P1 beats P3 2-0, P4 bye.
    # P2: MP 3 from one match, MWP 1, GWP 1, OMW% = P1's .5.
    # P1: MP 3, MWP .5, GWP 6/12 = .5, OMW% = (P2 1.0 + P3 .5)/2 = .75 — the dropped P2 still counts.
    # P3: MP 3, MWP .5, GWP .5, OMW% = (P4 .5 + P1 .5)/2 = .5, OGW% .5
    # P4: MP 3 (bye), MWP 3/6 = .5, GWP (bye 2-0 + 0-2) 6/12 = .5, OMW% = P3's .5, OGW% .5
    # Order: P1 (OMW .75), P2 (OMW .5, GWP 1), then P3 and P4 equal on everything: place 3 each.
    ps = [pair(1, 1, 2, [B, B]), pair(1, 3, 4, [A, A]), pair(2, 1, 3, [A, A]), pair(2, 4, None)]
    rows = standings(players(1, 2, 3, 4, dropped=(2,)), ps, "card")
    assert [(r.user_id, r.place, r.status) for r in rows] == [
        (1, 1, "active"), (2, 2, "dropped"), (3, 3, "active"), (4, 3, "active")]
    t = by_id(rows)
    assert r4(t[1].tiebreaks["omw"]) == 0.75
    assert r4(t[2].own["mwp"]) == 1.0 and r4(t[2].tiebreaks["omw"]) == 0.5
    # a top cut passes over the dropped player and draws between the tied P3 and P4
    top, record = cut(rows, 2, "seed")
    assert [r.user_id for r in top][0] == 1 and record["tied"] == [3, 4]


# Round robin of 4, best of one: P1 beats everyone, P2 and P3 draw each other and beat P4.
TIED = [pair(1, 1, 2, [A]), pair(1, 3, 4, [A]), pair(2, 1, 3, [A]), pair(2, 2, 4, [A]),
        pair(3, 1, 4, [A]), pair(3, 2, 3, [D])]


def test_shared_place_on_an_exact_tie():
    """"players equal on points and every tiebreak share a place: 1, 2, 2, 4"; "exact ties keep
    sign-up order for listing"."""
    # P2 and P3: MP 4 each, opponents {P1, P3/P2, P4} with the same MWPs and GWPs: equal on all.
    rows = standings(players(1, 3, 2, 4), TIED, "card")
    assert [(r.user_id, r.place) for r in rows] == [(1, 1), (3, 2), (2, 2), (4, 4)]
    assert rows[1].tiebreaks == rows[2].tiebreaks


def test_cut_draws_a_tie_across_the_line_deterministically():
    """cut: "When the rows at the cut line share a place, break it by a random draw from
    random.Random(seed) and return a record of that draw"; "Deterministic for a seed"."""
    rows = standings(players(1, 2, 3, 4), TIED, "card")
    top, record = cut(rows, 2, "event-7")
    again, record2 = cut(rows, 2, "event-7")
    assert [r.user_id for r in top] == [r.user_id for r in again] and record == record2
    assert record["place"] == 2 and record["tied"] == [2, 3] and record["seed"] == "event-7"
    assert sorted(record["drawn"]) == [2, 3]
    assert [r.user_id for r in top] == [1, record["drawn"][0]]
    # different seeds can draw differently; both outcomes occur
    assert {cut(rows, 2, f"s{i}")[1]["drawn"][0] for i in range(40)} == {2, 3}
    # no tie across the line: no draw
    assert cut(rows, 1, "x") == ([rows[0]], None)
    assert cut(rows, 3, "x") == (rows[:3], None)
    assert cut(rows, 8, "x") == (rows, None)


def test_pokemon_resistance_floor_and_head_to_head():
    """Pokemon preset: "win 3, draw 1, loss 0"; "each opponent's win % = wins / matches played",
    "each opponent's at least 0.25"; "opponents' opponents' win % (the average of the opponents'
    resistances)"; "head to head (among exactly-tied players: match points scored in pairings
    among them)"."""
    # Round robin of 4 (Bea signed up before Ash):  Ash beats Bea, Cy beats Ash, Ash beats Dee,
    # Bea beats Cy, Bea beats Dee, Cy and Dee draw.
    # Ash W-L-W MP 6 wp 2/3; Bea L-W-W MP 6 wp 2/3; Cy W-L-D MP 4 wp 1/3; Dee L-L-D MP 1 wp 0 -> .25
    # OWP: Ash (Bea 2/3 + Cy 1/3 + Dee .25)/3 = 5/12 = .4167 (without the floor: 1/3);
    #      Bea (Ash 2/3 + Cy 1/3 + Dee .25)/3 = .4167; Cy (2/3 + 2/3 + .25)/3 = 19/36 = .5278;
    #      Dee (2/3 + 2/3 + 1/3)/3 = 5/9 = .5556
    # OOWP: Ash (5/12 + 19/36 + 5/9)/3 = .5; Bea the same; Cy (5/12 + 5/12 + 5/9)/3 = .463;
    #       Dee (5/12 + 5/12 + 19/36)/3 = .4537
    # Ash and Bea tie on MP, OWP and OOWP: head to head Ash 3, Bea 0, so Ash first.
    ash, bea, cy, dee = 11, 10, 12, 13
    ps = [pair(1, ash, bea, [A]), pair(1, cy, dee, [D]), pair(2, cy, ash, [A]), pair(2, bea, dee, [A]),
          pair(3, ash, dee, [A]), pair(3, bea, cy, [A])]
    rows = standings(players(bea, ash, cy, dee), ps, "pokemon")
    assert [(r.user_id, r.place) for r in rows] == [(ash, 1), (bea, 2), (cy, 3), (dee, 4)]
    t = by_id(rows)
    assert [t[p].points for p in (ash, bea, cy, dee)] == [6, 6, 4, 1]
    assert r4(t[dee].own["wp"]) == 0.25
    assert [r4(t[p].tiebreaks["owp"]) for p in (ash, bea, cy, dee)] == [0.4167, 0.4167, 0.5278, 0.5556]
    assert [r4(t[p].tiebreaks["oowp"]) for p in (ash, bea, cy, dee)] == [0.5, 0.5, 0.463, 0.4537]
    assert (t[ash].tiebreaks["h2h"], t[bea].tiebreaks["h2h"]) == (3, 0)
    assert list(t[ash].tiebreaks) == list(S.TIEBREAKS["pokemon"])


def test_pokemon_byes_left_out_of_win_percentage():
    """Pokemon preset: "byes left out of opponents' figures" — ruling: a bye gives its 3 points
    but is neither a win nor a match in the win % that opponents' resistance uses."""
    # R1: P1 beats P2, P3 bye.  R2: P3 beats P1, P2 bye.
    # P1 W-L MP 3 wp 1/2; P2 L + bye MP 3 wp 0/1 -> .25; P3 bye + W MP 6 wp 1/1.
    # OWP: P1 (P2 .25 + P3 1)/2 = .625 (counting byes as wins it would be (.5 + 1)/2 = .75);
    #      P2 = P1's .5; P3 = P1's .5.  Order: P3, then P1 (.625) before P2 (.5).
    ps = [pair(1, 1, 2, [A]), pair(1, 3, None), pair(2, 3, 1, [A]), pair(2, 2, None)]
    rows = standings(players(1, 2, 3), ps, "pokemon")
    assert [r.user_id for r in rows] == [3, 1, 2]
    t = by_id(rows)
    assert (t[2].points, t[2].byes, t[2].wins) == (3, 1, 0)
    assert r4(t[2].own["wp"]) == 0.25 and r4(t[3].own["wp"]) == 1.0
    assert r4(t[1].tiebreaks["owp"]) == 0.625 and r4(t[2].tiebreaks["owp"]) == 0.5


def test_chess_preset_is_the_leagues_scoring():
    """Chess preset: "today's host.leagues.standings (points 1/½/0, bye 1, Buchholz,
    Sonneborn-Berger, head to head)"."""
    ps = SWISS8 + [pair(5, 1, 4, result="double"), pair(5, 2, None), pair(5, 3, 5, result="b"),
                   pair(5, 6, 7, [D]), pair(5, 8, None, result="double")]
    people = players(*range(1, 9))
    rows = standings(people, ps, "chess")
    old = L.standings(people, [(p["a"], p["b"], match_result(p)) for p in ps])
    assert [r.user_id for r in rows] == [s.user_id for s in old]
    assert [r.place for r in rows] == L.places(old)
    for r, s in zip(rows, old):
        assert (r.points, r.wins, r.draws, r.losses, r.byes) == (s.points, s.wins, s.draws, s.losses, s.byes)
        assert r.tiebreaks == {"buchholz": s.buchholz, "sonneborn_berger": s.sonneborn_berger,
                               "h2h": s.head_to_head}
    assert by_id(rows)[3].points == 3.5


@pytest.mark.parametrize("n, expected", [
    (2, (0, 0)), (8, (0, 0)), (9, (5, 4)), (16, (5, 4)), (17, (5, 8)), (32, (5, 8)), (33, (6, 8)),
    (64, (6, 8)), (65, (7, 8)), (128, (7, 8)), (129, (8, 8)), (226, (8, 8)), (227, (9, 8)),
    (409, (9, 8)), (410, (10, 8)), (5000, (10, 8))])
def test_swiss_defaults_table(n, expected):
    """swiss_defaults: "n ≤ 8 → (0, 0)"; "9–16 → (5, 4)"; "17–32 → (5, 8)"; "33–64 → (6, 8)";
    "65–128 → (7, 8)"; "129–226 → (8, 8)"; "227–409 → (9, 8)"; "410+ → (10, 8)"."""
    assert swiss_defaults(n) == expected


def test_swiss_defaults_needs_two_players():
    """swiss_defaults: "n < 2 → ValueError"."""
    for n in (0, 1, -3):
        with pytest.raises(ValueError):
            swiss_defaults(n)


@pytest.mark.parametrize("games, result, expected", [
    ([A, A], None, "a"), ([B, A, B], None, "b"), ([A, B, D], None, "draw"), ([A, B], None, "draw"),
    ([], None, None), ([D], None, "draw"), ([A, A], "double", "double"), ([], "b", "b")])
def test_match_result_from_game_score(games, result, expected):
    """match_result: "more games won wins the match; equal games won → a match draw; a pairing
    with no games and no result is not finished"; an explicit result is taken as given."""
    assert match_result(pair(1, 1, 2, games, result)) == expected


def test_match_result_byes_and_bad_values():
    """match_result: "b is None is a bye"; results are "a", "b", "draw", "bye", "double"."""
    assert match_result(pair(1, 1, None)) == "bye"
    assert match_result(pair(1, 1, None, result="double")) == "double"
    with pytest.raises(ValueError):
        match_result(pair(1, 1, 2, result="win"))
    with pytest.raises(ValueError):
        match_result(pair(1, 1, 2, ["a", "x"]))


def test_unfinished_pairings_are_ignored_and_unknown_preset_refused():
    """"a pairing with no games and no result is not finished and is ignored"."""
    rows = standings(players(1, 2), [pair(1, 1, 2)], "card")
    assert [(r.user_id, r.points, r.place, r.opponents) for r in rows] == [(1, 0, 1, []), (2, 0, 1, [])]
    assert rows[0].tiebreaks["omw"] == 0  # no opponents: OMW% 0
    with pytest.raises(ValueError):
        standings(players(1, 2), [], "go")


def test_percent_is_two_decimals_with_a_dot():
    """percent: "a tiebreak fraction shown as a percentage with 2 decimals ("66.67%")"."""
    assert percent(2 / 3) == "66.67%"
    assert percent(0.33) == "33.00%"
    assert percent(1) == "100.00%"
    assert percent(0) == "0.00%"
