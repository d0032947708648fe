"""League logic (host/leagues.py) and the league service (host/league_service.Leagues) on a real store:
pairings, standings and tiebreaks, reports, claims, drops, persistence across a restart."""
from __future__ import annotations

import random
from functools import lru_cache

import pytest
import swiss_reference

from data.store import open_store
from host import leagues as L

A, B, C, D, E, F = 1, 2, 3, 4, 5, 6


# ---------------------------------------------------------------------------- round robin
@pytest.mark.parametrize("n", range(2, 12))
def test_round_robin_circle_method_meets_everyone_once_with_byes_for_odd_counts(n):
    players = list(range(100, 100 + n))
    rounds = L.round_robin(players)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    met = []
    byes = []
    for rnd in rounds:
        seen = [p for pair in rnd for p in pair if p is not None]
        assert sorted(seen) == players, "everyone appears exactly once per round"
        for a, b in rnd:
            if b is None:
                byes.append(a)
            else:
                met.append(frozenset((a, b)))
    assert len(met) == len(set(met)) == n * (n - 1) // 2, "every pair meets exactly once"
    if n % 2:
        assert sorted(byes) == players, "with an odd count each player rests exactly once"
    else:
        assert byes == []


def test_round_robin_fixed_player_alternates_sides():
    rounds = L.round_robin([A, B, C, D])
    firsts = [next(pair for pair in rnd if A in pair)[0] == A for rnd in rounds]
    assert firsts == [True, False, True]


# ---------------------------------------------------------------------------- Swiss
def _perfect_matching_exists(players: list[int], played: set[frozenset]) -> bool:
    """Independent check (bitmask DP): can ``players`` be paired with no rematch?"""
    n = len(players)

    @lru_cache(maxsize=None)
    def ok(mask: int) -> bool:
        if mask == (1 << n) - 1:
            return True
        i = next(k for k in range(n) if not mask >> k & 1)
        for j in range(i + 1, n):
            if not mask >> j & 1 and frozenset((players[i], players[j])) not in played:
                if ok(mask | 1 << i | 1 << j):
                    return True
        return False

    return ok(0)


def _random_swiss(rng: random.Random, n: int, rounds: int) -> None:
    d = L.new_league(name="t", game="squares", fmt="swiss", rounds=rounds, deadline_hours=0, rated=True,
                     signup_hours=None, organiser=A, channel_id=None, season=1, now=0.0)
    for i in range(n):
        L.join(d, "signup", 100 + i, f"p{i}", 0.0)
    L.start(d, "signup", 0.0)
    status = "running"
    while True:
        rnd = L.round_pairings(d)
        # the invariant, checked on the state before this round was paired
        earlier = [p for p in d["pairings"] if p["round"] < d["round"]]
        played = {frozenset((p["a"], p["b"])) for p in earlier if p["b"] is not None}
        had_bye = {p["a"] for p in earlier if p["b"] is None}
        rematch = any(frozenset((p["a"], p["b"])) in played for p in rnd if p["b"] is not None)
        byes = [p["a"] for p in rnd if p["b"] is None]
        assert len(byes) == n % 2
        if rematch:
            # allowed only if no bye choice leaves a rematch-free pairing
            ids = L.active_ids(d)
            candidates = [None] if n % 2 == 0 else [x for x in ids if x not in had_bye] or ids
            for bye in candidates:
                rest = [x for x in ids if x != bye]
                assert not _perfect_matching_exists(rest, played), (d["round"], bye)
        if byes and any(x not in had_bye for x in L.active_ids(d)):
            assert byes[0] not in had_bye, "the bye goes to someone who has not had one"
        for p in rnd:
            if p["result"] is None:
                L.report(d, status, p["id"], 0, rng.choice(["a", "b", "draw"]), organiser=True)
        state, _ = L.advance(d, 0.0)
        if state == "finished":
            break
    assert d["round"] == rounds


@pytest.mark.parametrize("seed", range(40))
def test_swiss_never_pairs_a_rematch_that_could_be_avoided_over_many_random_rounds(seed):
    rng = random.Random(seed)
    n = rng.randint(4, 11)
    _random_swiss(rng, n, rng.randint(2, n - 1 if n % 2 == 0 else n))


def test_swiss_round_one_pairs_top_down_and_gives_the_bye_to_the_last():
    assert L.swiss_pairings([A, B, C, D, E], set(), set()) == [(A, B), (C, D), (E, None)]


def test_swiss_bye_goes_to_the_lowest_ranked_player_without_one():
    # E (last) had a bye already: D is the lowest-ranked without one
    pairs = L.swiss_pairings([A, B, C, D, E], set(), {E})
    assert (D, None) in pairs
    # everyone had one: the lowest-ranked gets it again
    pairs = L.swiss_pairings([A, B, C], set(), {A, B, C})
    assert (C, None) in pairs


def test_swiss_bye_rotates_over_rounds_with_an_odd_count():
    d = L.new_league(name="t", game="squares", fmt="swiss", rounds=5, deadline_hours=0, rated=True,
                     signup_hours=None, organiser=A, channel_id=None, season=1, now=0.0)
    for p in (A, B, C, D, E):
        L.join(d, "signup", p, str(p), 0.0)
    L.start(d, "signup", 0.0)
    byes = []
    for _ in range(5):
        for p in L.round_pairings(d):
            if p["result"] is None:
                L.report(d, "running", p["id"], 0, "a", organiser=True)
            if p["b"] is None:
                byes.append(p["a"])
        L.advance(d, 0.0)
    assert sorted(byes) == [A, B, C, D, E], "five rounds, five different players rest"


def test_swiss_avoids_rematch_by_skipping_down():
    # A-B already played: A meets C, B meets D
    assert L.swiss_pairings([A, B, C, D], {frozenset((A, B))}, set()) == [(A, C), (B, D)]


@pytest.mark.parametrize("seed", range(60))
def test_the_blossom_matching_agrees_with_brute_force_on_random_graphs(seed):
    """The perfect-matching test behind "no rematch while one can be avoided" against an
    independent bitmask search, on random "already met" graphs of 2-14 players."""
    rng = random.Random(seed)
    n = rng.choice(range(2, 15, 2))
    players = list(range(n))
    density = rng.random()
    played = {frozenset((i, j)) for i in range(n) for j in range(i + 1, n) if rng.random() < density}
    pairs = swiss_reference.pair_without_rematch(players, played)
    assert (pairs is not None) == _perfect_matching_exists(players, played)
    if pairs is not None:
        assert sorted(p for pair in pairs for p in pair) == players
        assert not any(frozenset(pair) in played for pair in pairs)
    fewest = swiss_reference.pair_fewest_rematches(players, played)
    assert sorted(p for pair in fewest for p in pair) == players


@pytest.mark.parametrize("seed", range(12))
def test_swiss_bigger_fields_never_pair_an_avoidable_rematch(seed):
    """Fields of 12-16 players played to n-1 rounds (far beyond the usual log2 n), checked
    round by round against the independent search."""
    rng = random.Random(1000 + seed)
    n = rng.randint(12, 16)
    _random_swiss(rng, n, n - 1)


def test_swiss_finds_the_only_rematch_free_pairing_in_a_large_odd_field():
    """21 players; P19 and P20 (the two lowest) have met everyone except each other.  The only
    rematch-free round: P19 meets P20, so the bye goes to the lowest-ranked other player, P18,
    and the rest pair top-down.  (A plain search explores every pairing of the top 18 before
    it learns that P19 or P20 cannot be placed.)"""
    players = list(range(21))
    played = {frozenset((x, q)) for x in (19, 20) for q in range(19)}
    pairs = L.swiss_pairings(players, played, set())
    assert pairs == [(2 * i, 2 * i + 1) for i in range(9)] + [(19, 20), (18, None)]


def test_swiss_with_no_rematch_free_pairing_pairs_as_few_rematches_as_possible():
    """P0 has met everyone: one rematch is unavoidable, and only one is made."""
    players = list(range(8))
    played = {frozenset((0, q)) for q in range(1, 8)} | {frozenset((1, 2))}
    pairs = L.swiss_pairings(players, played, set())
    assert sorted(p for pair in pairs for p in pair) == players
    assert sum(frozenset(pair) in played for pair in pairs) == 1


# ---------------------------------------------------------------------------- standings
def _players(*ids):
    return [{"id": i, "name": f"P{i}", "status": "active"} for i in ids]


def test_standings_points_buchholz_and_sonneborn_berger_hand_computed():
    # Round 1: A beats B, C draws D.  Round 2: A draws C, B beats D.
    games = [(A, B, "a"), (C, D, "draw"), (A, C, "draw"), (B, D, "a")]
    t = {s.user_id: s for s in L.standings(_players(A, B, C, D), games)}
    # points: A 1.5, B 1, C 1, D 0.5
    assert [t[x].points for x in (A, B, C, D)] == [1.5, 1.0, 1.0, 0.5]
    # Buchholz: A: B1 + C1 = 2; B: A1.5 + D0.5 = 2; C: D0.5 + A1.5 = 2; D: C1 + B1 = 2
    assert [t[x].buchholz for x in (A, B, C, D)] == [2.0, 2.0, 2.0, 2.0]
    # Sonneborn-Berger: A: beat B (1) + drew C (½·1) = 1.5; B: beat D (0.5) = 0.5;
    # C: drew D (½·0.5) + drew A (½·1.5) = 1.0; D: drew C (½·1) = 0.5
    assert [t[x].sonneborn_berger for x in (A, B, C, D)] == [1.5, 0.5, 1.0, 0.5]
    order = [s.user_id for s in L.standings(_players(A, B, C, D), games)]
    assert order == [A, C, B, D], "B and C tie on points and Buchholz; C has the better SB"


def test_buchholz_breaks_a_tie_on_points():
    # A beat C, B beat D, C beat D: A, B and C have 1 point each.
    # Buchholz: A = C(1) = 1; B = D(0) = 0; C = A(1) + D(0) = 1  -> B is third.
    # A and C tie on Buchholz too; Sonneborn-Berger: A beat C (1 point) = 1, C beat D (0) = 0.
    games = [(A, C, "a"), (B, D, "a"), (C, D, "a")]
    order = L.standings(_players(B, A, C, D), games)
    assert [s.user_id for s in order] == [A, C, B, D]
    assert [s.buchholz for s in order] == [1.0, 1.0, 0.0, 2.0]
    assert [s.sonneborn_berger for s in order][:2] == [1.0, 0.0]


def test_head_to_head_breaks_a_tie_on_points_buchholz_and_sb():
    # a three-way cycle among A, B, C plus each beats D once... make a two-way tie instead:
    # A beat B; B beat C; C beat A; D lost to everyone -> A, B, C on 2 points, same Bu/SB;
    # head-to-head among the tied is 1 each: sign-up order decides.
    games = [(A, B, "a"), (B, C, "a"), (C, A, "a"), (A, D, "a"), (B, D, "a"), (C, D, "a")]
    order = L.standings(_players(C, B, A, D), games)
    assert [s.user_id for s in order] == [C, B, A, D]
    assert {s.head_to_head for s in order[:3]} == {1.0}
    # A two-way tie where head-to-head decides: A and B both 1 point, equal Bu and SB,
    # B beat A.
    games = [(B, A, "a"), (A, C, "a"), (C, B, "a")]
    t = L.standings(_players(A, B, C), games)
    assert {s.points for s in t} == {1.0}
    # all three tie on points, Bu (2 x 1 = 2) and SB (1): h2h among three is 1 each -> order
    assert [s.user_id for s in t] == [A, B, C]
    games = [(B, A, "a"), (C, D, "draw"), (A, D, "draw"), (B, C, "draw"), (A, C, "a"), (B, D, "double")]
    t = {s.user_id: s for s in L.standings(_players(A, B, C, D), games)}
    assert t[B].points == 1.5 and t[A].points == 1.5
    # A: opponents B(1.5) D(1) C(1) = 3.5; B: A(1.5) C(1) = 2.5 (double forfeit has no opponent)
    assert t[A].buchholz == 3.5 and t[B].buchholz == 2.5


def test_exact_ties_share_a_place():
    """Issue 14: "exact standings ties are broken by sign-up order with no shared place" — players
    equal on points and every tiebreak share a place and the next place skips (1, 1, 1, 4)."""
    games = [(A, B, "a"), (B, C, "a"), (C, A, "a"), (A, D, "a"), (B, D, "a"), (C, D, "a")]
    rows = L.standings(_players(C, B, A, D), games)
    assert [s.user_id for s in rows] == [C, B, A, D]          # printed in sign-up order
    assert L.places(rows) == [1, 1, 1, 4]
    rows = L.standings(_players(A, B, C, D), [(A, C, "a"), (B, D, "a"), (C, D, "a")])
    assert L.places(rows) == [1, 2, 3, 4]                      # every tie broken: no sharing


def test_head_to_head_decides_between_two_exactly_tied_players():
    # A and B each beat a different player of equal score, and drew each other?  Construct:
    # A beat C, B beat D, C and D drew, A lost to B -> B 2, A 1: no tie.  Use symmetric data:
    # A beat B, B beat E, E ... simplest exact tie: A vs B drawn is symmetric, so give h2h by a
    # separate game: A beat B, then B beat A (double round robin) and A beat B once more.
    games = [(A, B, "a"), (B, A, "a"), (A, B, "a"), (B, A, "a"), (B, A, "a"), (A, B, "a")]
    t = L.standings(_players(B, A), games)
    assert [s.points for s in t] == [3.0, 3.0]
    # exactly tied: sign-up order (B first)
    assert [s.user_id for s in t] == [B, A]
    games = games + [(A, B, "draw")]
    t = L.standings(_players(B, A), games)
    assert [s.user_id for s in t] == [B, A]
    # now an extra win decides head-to-head, Bu and SB move with it
    games = [(A, B, "a")]
    assert [s.user_id for s in L.standings(_players(B, A), games)] == [A, B]


def test_head_to_head_decides_when_points_buchholz_and_sonneborn_berger_are_equal():
    """Round robin of four.  A beat B, C beat D, C beat A, B beat D, A drew D, B drew C.
    Points: A 1 + 0 + ½ = 1.5, B 0 + 1 + ½ = 1.5, C 1 + 1 + ½ = 2.5, D 0 + 0 + ½ = 0.5.
    Buchholz: A = B 1.5 + C 2.5 + D 0.5 = 4.5; B = A 1.5 + D 0.5 + C 2.5 = 4.5.
    Sonneborn-Berger: A = beat B (1.5) + drew D (½ · 0.5) = 1.75;
    B = beat D (0.5) + drew C (½ · 2.5) = 1.75.  Tied on all three: head-to-head among A and B
    is A 1, B 0, so A is second although B signed up first."""
    games = [(A, B, "a"), (C, D, "a"), (C, A, "a"), (B, D, "a"), (A, D, "draw"), (B, C, "draw")]
    order = L.standings(_players(B, A, C, D), games)
    t = {s.user_id: s for s in order}
    assert [t[x].points for x in (A, B, C, D)] == [1.5, 1.5, 2.5, 0.5]
    assert t[A].buchholz == t[B].buchholz == 4.5
    assert t[A].sonneborn_berger == t[B].sonneborn_berger == 1.75
    assert (t[A].head_to_head, t[B].head_to_head) == (1.0, 0.0)
    assert [s.user_id for s in order] == [C, A, B, D]
    assert t[C].head_to_head == 0 and t[D].head_to_head == 0, "nobody is tied with C or D"


def test_byes_score_a_point_but_count_for_no_tiebreak():
    t = {s.user_id: s for s in L.standings(_players(A, B, C), [(A, None, "bye"), (B, C, "a")])}
    assert t[A].points == 1.0 and t[A].buchholz == 0 and t[A].byes == 1 and t[A].played == 0


# ---------------------------------------------------------------------------- reports, claims, drops
def _running(n=4, fmt="rr", deadline_hours=24):
    d = L.new_league(name="t", game="squares", fmt=fmt, rounds=3, deadline_hours=deadline_hours, rated=True,
                     signup_hours=None, organiser=A, channel_id=None, season=1, now=1000.0)
    for p in list(range(1, n + 1)):
        L.join(d, "signup", p, f"P{p}", 1000.0)
    L.start(d, "signup", 1000.0)
    return d


def test_joining_a_started_league_is_refused():
    d = _running()
    with pytest.raises(L.LeagueError) as e:
        L.join(d, "running", 99, "late", 2000.0)
    assert e.value.key == "leagues.err.started"


def test_sign_up_window_closes():
    d = L.new_league(name="t", game="squares", fmt="rr", rounds=None, deadline_hours=0, rated=True,
                     signup_hours=2, organiser=A, channel_id=None, season=1, now=0.0)
    L.join(d, "signup", A, "a", 3600.0)
    with pytest.raises(L.LeagueError) as e:
        L.join(d, "signup", B, "b", 3 * 3600.0)
    assert e.value.key == "leagues.err.signup_closed"


def test_reporting_a_pairing_that_is_not_yours_is_refused():
    d = _running()
    p = L.round_pairings(d)[0]
    stranger = next(x for x in L.active_ids(d) if x not in (p["a"], p["b"]))
    before = repr(d)
    with pytest.raises(L.LeagueError) as e:
        L.report(d, "running", p["id"], stranger, "win", organiser=False)
    assert e.value.key == "leagues.err.not_yours"
    assert repr(d) == before, "nothing changed"


def test_matching_reports_confirm_and_different_reports_are_held_for_an_organiser():
    d = _running()
    p1, p2 = L.round_pairings(d)
    assert L.report(d, "running", p1["id"], p1["a"], "win", False) == "waiting"
    assert p1["result"] is None
    assert L.report(d, "running", p1["id"], p1["b"], "loss", False) == "final"
    assert p1["result"] == "a"
    assert L.report(d, "running", p2["id"], p2["a"], "win", False) == "waiting"
    assert L.report(d, "running", p2["id"], p2["b"], "win", False) == "held"
    assert p2["held"] and p2["result"] is None
    assert L.advance(d, 0.0)[0] == "wait", "a held pairing keeps the round open"
    assert L.report(d, "running", p2["id"], A, "draw", True) == "final"
    assert p2["result"] == "draw" and not p2["held"]
    assert L.advance(d, 0.0)[0] == "paired"


def test_a_second_report_after_the_result_is_refused():
    d = _running()
    p = L.round_pairings(d)[0]
    L.report(d, "running", p["id"], p["a"], "win", False)
    L.report(d, "running", p["id"], p["b"], "loss", False)
    with pytest.raises(L.LeagueError) as e:
        L.report(d, "running", p["id"], p["b"], "win", False)
    assert e.value.key == "leagues.err.already_reported"


def test_claims_only_after_the_deadline_and_both_claims_are_held():
    d = _running(deadline_hours=24)
    p1, p2 = L.round_pairings(d)
    with pytest.raises(L.LeagueError) as e:
        L.claim(d, "running", p1["id"], p1["a"], 1000.0 + 3600, False)
    assert e.value.key == "leagues.err.before_deadline"
    late = 1000.0 + 25 * 3600
    assert [p["id"] for p in L.overdue(d, late)] == [p1["id"], p2["id"]]
    with pytest.raises(L.LeagueError) as e:
        L.claim(d, "running", p1["id"], p1["a"], late, True)
    assert e.value.key == "leagues.err.match_running"
    assert L.claim(d, "running", p1["id"], p1["a"], late, False) == "final"
    assert p1["result"] == "a" and p1["how"] == "forfeit"
    assert L.claim(d, "running", p2["id"], p2["a"], late, False) == "final"
    d2 = _running(deadline_hours=1)
    q = L.round_pairings(d2)[0]
    q["claims"].append(q["b"])   # the opponent claimed first but their claim was held
    q["result"] = None
    assert L.claim(d2, "running", q["id"], q["a"], 1000.0 + 7200, False) == "held"


def test_a_drop_forfeits_the_open_game_and_takes_the_player_out_of_later_rounds():
    d = _running(n=4, fmt="swiss")
    p = next(p for p in L.round_pairings(d) if D in (p["a"], p["b"]))
    opp = p["a"] if p["b"] == D else p["b"]
    decided = L.drop(d, "running", D, removed=False)
    assert decided == [p] and p["result"] == ("a" if p["a"] == opp else "b") and p["how"] == "drop"
    for q in L.round_pairings(d):
        if q["result"] is None:
            L.report(d, "running", q["id"], 0, "a", True)
    state, paired = L.advance(d, 0.0)
    assert state == "paired"
    assert all(D not in (q["a"], q["b"]) for q in paired)
    assert [q for q in paired if q["b"] is None], "three players left: one rests"
    standing = {s.user_id: s for s in L.table(d)}
    assert standing[D].status == "dropped", "a dropped player stays in the table"


def test_a_dropped_player_in_round_robin_forfeits_the_scheduled_games():
    d = _running(n=4, fmt="rr")
    L.drop(d, "running", B, removed=True)
    for q in L.round_pairings(d):
        if q["result"] is None:
            L.report(d, "running", q["id"], 0, "draw", True)
    L.advance(d, 0.0)
    for q in L.round_pairings(d):
        if B in (q["a"], q["b"]):
            assert q["how"] == "drop" and q["result"] == ("b" if q["a"] == B else "a")


def test_leaving_during_sign_up_just_takes_the_name_off():
    d = L.new_league(name="t", game="squares", fmt="rr", rounds=None, deadline_hours=0, rated=True,
                     signup_hours=None, organiser=A, channel_id=None, season=1, now=0.0)
    L.join(d, "signup", A, "a", 0.0)
    L.drop(d, "signup", A, removed=False)
    assert d["players"] == []


def test_round_robin_league_runs_to_final_standings():
    d = _running(n=5, fmt="rr")
    rounds = 0
    while True:
        rounds += 1
        for p in L.round_pairings(d):
            if p["result"] is None:
                # the lower id always wins
                L.report(d, "running", p["id"], 0, "a" if p["a"] < p["b"] else "b", True)
        state, _ = L.advance(d, 0.0)
        if state == "finished":
            break
    assert rounds == 5
    assert [s.user_id for s in L.table(d)] == [1, 2, 3, 4, 5]
    assert [s.points for s in L.table(d)] == [5.0, 4.0, 3.0, 2.0, 1.0], "4 games + 1 bye each"


def test_a_match_result_reports_the_pairing_once():
    d = _running()
    p = L.round_pairings(d)[0]
    p["match"] = 77
    assert not L.match_result(d, p["id"], 78, [p["a"]]), "another match is ignored"
    assert L.match_result(d, p["id"], 77, [p["b"]])
    assert p["result"] == "b" and p["how"] == "match"
    assert not L.match_result(d, p["id"], 77, [p["a"]]), "reported once"


def test_a_match_someone_else_sat_in_is_not_reported_automatically():
    """A league pairing is one player against one other: a match with a third player (or won
    by someone outside the pairing) is left for the players' reports or an organiser."""
    d = _running()
    p = L.round_pairings(d)[0]
    p["match"] = 77
    assert not L.match_result(d, p["id"], 77, [99], [p["a"], p["b"], 99])
    assert not L.match_result(d, p["id"], 77, [p["a"]], [p["a"], p["b"], 99])
    assert not L.match_result(d, p["id"], 77, [99])
    assert p["result"] is None
    assert L.match_result(d, p["id"], 77, [], [p["b"], p["a"]])
    assert p["result"] == "draw"


# ---------------------------------------------------------------------------- the service on a store
class _NoHost:
    now = staticmethod(lambda: 1000.0)


async def test_leagues_survive_a_restart_and_writes_are_version_checked(backend):
    from data.store import VersionConflict
    from host.league_service import Leagues

    store = await backend.open()
    svc = Leagues(store, _NoHost(), now=lambda: 1000.0)
    res = await svc.create(guild_id=5, channel_id=6, organiser=A, name="Spring", game="squares",
                           fmt="swiss", rounds=3, deadline_hours=24, rated=True, signup_hours=None)
    assert res.ok
    lid = res.data["league"].id
    for p in (A, B, C):
        assert (await svc.join(lid, 5, p, f"P{p}")).ok
    stale = await store.get_league(lid)
    assert (await svc.start(lid, 5)).ok
    await store.close()

    store = await backend.open()
    svc = Leagues(store, _NoHost(), now=lambda: 1000.0)
    lg = await store.get_league(lid)
    assert lg.status == "running" and lg.data["round"] == 1 and len(lg.data["players"]) == 3
    assert [l.id for l in await store.leagues(5)] == [lid]
    with pytest.raises(VersionConflict):
        await store.update_league(stale, stale.version)
    wrong_guild = await svc.join(lid, 6, D, "x")
    assert not wrong_guild.ok and wrong_guild.error.key == "leagues.err.no_league"
    late = await svc.join(lid, 5, D, "late")
    assert not late.ok and late.error.key == "leagues.err.started"
    assert (await store.get_league(lid)).version == lg.version, "a refused call writes nothing"
    await store.close()


async def test_league_creation_refuses_bad_input(tmp_path):
    from host.league_service import Leagues

    store = await open_store(str(tmp_path / "l.db"))
    svc = Leagues(store, _NoHost())
    base = dict(guild_id=5, channel_id=6, organiser=A, name="x", game="squares", fmt="rr", rounds=None,
                deadline_hours=24, rated=True, signup_hours=None)
    for bad, key in ((dict(game="nope"), "host.err.unknown_game"), (dict(fmt="ladder"), "leagues.err.format"),
                     (dict(rounds=0, fmt="swiss"), "leagues.err.rounds"),
                     (dict(deadline_hours=-1), "leagues.err.deadline"), (dict(name="   "), "leagues.err.name")):
        res = await svc.create(**{**base, **bad})
        assert not res.ok and res.error.key == key, bad
    assert await store.leagues(5) == []
    await store.close()


async def test_avalon_has_leagues_and_a_game_no_two_can_play_is_refused_with_the_games_that_can(tmp_path):
    """A league pairs one player against one other.  Avalon's Sanctuary is for 2–4 players
    (「最大4人同時対戦」), so a two-seat league match is a legal match of it; its late joins are
    refused in a league match by the host (test_host_multiplayer), so it stays one against one.
    A game nobody can play two-handed gets no league, and the answer says which games have them."""
    from host.league_service import Leagues, league_game
    from rules import registry

    class Trio:
        name, min_players, max_players = "trio_test", 3, 5

    registry.register(Trio())
    store = await open_store(str(tmp_path / "l.db"))
    try:
        svc = Leagues(store, _NoHost())
        base = dict(guild_id=5, channel_id=6, organiser=A, name="x", fmt="swiss", rounds=None,
                    deadline_hours=24, rated=True, signup_hours=None)
        assert (await svc.create(game="avalon", **base)).ok
        res = await svc.create(game="trio_test", **base)
        assert not res.ok and res.error.key == "leagues.err.two_player"
        en, ja = res.error.render("en"), res.error.render("ja")
        assert "3–5 players" in en and "Leagues can be run for: SQUARES, Battle Logic Square" in en
        assert "Avalon's Sanctuary" in en and "アヴァロンの聖域" in ja and "3〜5人用" in ja
        assert len(await store.leagues(5)) == 1
        allowed = [g for g in registry.names() if league_game(g)]
        assert {"squares", "logic_square", "maken", "art_of_war", "avalon"} <= set(allowed)
        assert "trio_test" not in allowed
    finally:
        registry._games.pop("trio_test")
        await store.close()
