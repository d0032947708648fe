"""Swiss pairing by score groups (host/events/swiss.py) and the league's use of it
(host.leagues.swiss_pairings, _pair_round): the rules, the exact guarantees against networkx's
blossom matching, and random 8-round Swiss runs.  How far players float, and the proof that it
is as little as possible: tests/test_swiss_optimal.py."""
from __future__ import annotations

import itertools
import random

import networkx as nx
import pytest

from host import leagues as L
from host.events.swiss import pair

A, B, C, D, E, F, G, H = range(1, 9)


def _nu(players: list[int], played: set[frozenset]) -> int:
    """Independent: the most rematch-free pairs among ``players`` (networkx's blossom)."""
    g = nx.Graph()
    g.add_nodes_from(players)
    g.add_edges_from((a, b) for a, b in itertools.combinations(players, 2) if frozenset((a, b)) not in played)
    return len(nx.max_weight_matching(g, maxcardinality=True))


def _rematches(pairs: list[tuple[int, int | None]], played: set[frozenset]) -> int:
    return sum(frozenset(p) in played for p in pairs if p[1] is not None)


def _met(*pairs: tuple[int, int]) -> set[frozenset]:
    return {frozenset(p) for p in pairs}


# ---------------------------------------------------------------------------- score groups
def _groups_of(pairs: list[tuple[int, int | None]], points: dict[int, float]) -> list[tuple[float, float]]:
    return [(points[a], points[b]) for a, b in pairs if b is not None]


def test_score_groups_are_paired_among_themselves_at_random_from_the_seed():
    """Players of equal points are paired among themselves, the top group first; inside a group
    at random from the round's seed (MTR: "paired randomly within their point group"), so
    different seeds give different pairings, and the same seed the same one."""
    ranked = [A, B, C, D, E, F, G, H]
    points = {A: 2, B: 2, C: 2, D: 2, E: 1, F: 1, G: 1, H: 1}
    seen = set()
    for seed in range(20):
        pairs = pair(ranked, points, set(), set(), seed=str(seed))
        assert all(x == y for x, y in _groups_of(pairs, points)), pairs
        assert pairs == pair(ranked, points, set(), set(), seed=str(seed))
        seen.add(tuple(pairs))
    assert len(seen) == 9, "each group of four has three pairings: all nine are drawn"


def test_a_group_of_eight_is_paired_at_random_no_longer_one_five_two_six():
    """A group of eight: any player may meet any other; over 40 seeds player 1 meets at least
    five different opponents (the former fold always paired 1-5)."""
    ranked = list(range(1, 9))
    partners = set()
    for seed in range(40):
        pairs = pair(ranked, dict.fromkeys(ranked, 3.0), set(), set(), seed=f"r{seed}")
        assert sorted(x for p in pairs for x in p) == ranked
        partners.add(next(b for a, b in pairs if a == 1))
    assert len(partners) >= 5, partners


def test_a_player_who_met_one_of_the_group_meets_another_of_it():
    """A met C: the group of four still pairs among itself, without the rematch (A-B and C-D,
    or A-D and B-C), whatever the seed."""
    ranked = [A, B, C, D]
    points = dict.fromkeys(ranked, 1.0)
    for seed in range(10):
        pairs = pair(ranked, points, _met((A, C)), set(), seed=str(seed))
        assert pairs in ([(A, B), (C, D)], [(A, D), (B, C)])


def test_an_odd_group_floats_one_player_drawn_at_random_to_the_next_group():
    """Group {A, B, C} at 2 points, D-H at 1: exactly one pair crosses between the groups (the
    float the odd group forces, one point: the least possible), every other pair is inside a
    group, and the floater is drawn at random among A, B and C."""
    ranked = [A, B, C, D, E, F, G, H]
    points = {A: 2, B: 2, C: 2, D: 1, E: 1, F: 1, G: 1, H: 1}
    floaters = set()
    for seed in range(30):
        pairs = pair(ranked, points, set(), set(), seed=str(seed))
        assert sorted(_groups_of(pairs, points)) == [(1, 1), (1, 1), (2, 1), (2, 2)]
        floaters |= {a for a, b in pairs if points[a] != points[b]}
    assert floaters == {A, B, C}


def test_a_player_who_cannot_be_paired_in_the_group_without_a_rematch_floats_down():
    """A has met B, C and D, the rest of the top group: A floats down, to E or F, and then the
    group's other three are odd, so one of them floats too and meets the other of E and F; the
    last two of B, C, D meet each other.  Two floats of one point: nothing shorter avoids the
    rematches."""
    ranked = [A, B, C, D, E, F]
    points = {A: 2, B: 2, C: 2, D: 2, E: 1, F: 1}
    played = _met((A, B), (A, C), (A, D))
    for seed in range(10):
        pairs = pair(ranked, points, played, set(), seed=str(seed))
        assert _rematches(pairs, played) == 0
        assert sorted(_groups_of(pairs, points)) == [(2, 1), (2, 1), (2, 2)]
        assert next(b for a, b in pairs if a == A) in (E, F)


def test_ranked_need_not_be_sorted_by_points_groups_keep_standings_order():
    """The pairing order is points first, then the order given (a stable sort)."""
    assert pair([A, B, C, D], {A: 0, B: 1, C: 0, D: 1}, set(), set()) == [(B, D), (A, C)]


# ---------------------------------------------------------------------------- no avoidable rematch
def test_the_corner_greedy_group_pairing_paints_itself_into_is_repaired():
    """Top group A-D (2 points), then E, F (1), then G, H (0).  Paired greedily group by group:
    A-C, B-D; E and F have met, so both float; E meets G; F and H are left, and they have met:
    a rematch.  But a rematch-free pairing exists: H has met everyone but C, G everyone but E,
    so H must meet C, G must meet E, and the top group gives up A-C for A-F.  The pairer must
    find it (an augmenting path F-A=C-H through the top group)."""
    ranked = [A, B, C, D, E, F, G, H]
    points = {A: 2, B: 2, C: 2, D: 2, E: 1, F: 1, G: 0, H: 0}
    played = _met((E, F), *((G, x) for x in ranked if x not in (G, E)), *((H, x) for x in ranked if x not in (H, C)))
    assert _nu(ranked, played) == 4, "a rematch-free pairing exists"
    pairs = pair(ranked, points, played, set())
    assert _rematches(pairs, played) == 0
    assert sorted(x for p in pairs for x in p) == ranked
    assert {frozenset((C, H)), frozenset((E, G))} <= {frozenset(p) for p in pairs}


def test_a_corner_that_needs_a_long_chain_of_swaps_through_the_groups():
    """Twelve players in six groups of two, each pair already met (so everyone floats), and the
    last player has met everyone but the first: any rematch-free round pairs P11 with P0, which
    the group-by-group pass (P0 meets P2 at once) does not; the repair reaches from the bottom
    to the top group.  Found, and no rematch."""
    ranked = list(range(12))
    points = {p: float(5 - p // 2) for p in ranked}
    played = _met(*((2 * k, 2 * k + 1) for k in range(6)), *((11, x) for x in range(1, 11)))
    assert _nu(ranked, played) == 6
    pairs = pair(ranked, points, played, set())
    assert _rematches(pairs, played) == 0
    assert (0, 11) in pairs


def test_fewest_rematches_when_no_pairing_is_rematch_free():
    """A has met everyone: one rematch is unavoidable, and only one is made.  Six of eight who
    have all met one another: two of them must meet inside, two rematches at least, and only
    two are made."""
    ranked = [A, B, C, D, E, F, G, H]
    points = dict.fromkeys(ranked, 0.0)
    played = _met(*((A, x) for x in ranked if x != A), (B, C))
    pairs = pair(ranked, points, played, set())
    assert sorted(x for p in pairs for x in p) == ranked
    assert _rematches(pairs, played) == 1
    played = {frozenset(p) for p in itertools.combinations([A, B, C, D, E, F], 2)}
    pairs = pair(ranked, points, played, set())
    assert sorted(x for p in pairs for x in p) == ranked
    assert _rematches(pairs, played) == 2 == 4 - _nu(ranked, played)


# ---------------------------------------------------------------------------- the bye
def test_the_bye_goes_to_the_lowest_ranked_player_without_one():
    ranked = [A, B, C, D, E]
    points = dict.fromkeys(ranked, 0.0)
    assert pair(ranked, points, set(), set())[-1] == (E, None)
    assert pair(ranked, points, set(), {E})[-1] == (D, None), "E had one: D, the lowest without"
    assert pair(ranked, points, set(), {C, D, E})[-1] == (B, None)
    assert pair([A, B, C], dict.fromkeys([A, B, C], 0.0), set(), {A, B, C})[-1] == (C, None), \
        "everyone had one: the lowest-ranked gets another"


def test_the_bye_is_listed_last_and_counts_in_the_lowest_score_group():
    ranked = [A, B, C, D, E]
    points = {A: 1, B: 1, C: 0, D: 0, E: 1}      # E is ranked last but has 1 point
    pairs = pair(ranked, points, set(), set())
    assert pairs[-1] == (D, None), "the lowest in pairing order (points, then standings)"


def test_a_bye_that_would_force_a_rematch_is_skipped():
    """E is the lowest without a bye, but D has met A, B and C: with E resting, D could only be
    paired with a rematch.  D rests instead (the lowest whose bye leaves a rematch-free round)."""
    ranked = [A, B, C, D, E]
    played = _met((D, A), (D, B), (D, C))
    pairs = pair(ranked, dict.fromkeys(ranked, 0.0), played, set())
    assert pairs[-1] == (D, None)
    assert _rematches(pairs, played) == 0


def test_the_only_rematch_free_round_of_a_large_odd_field_is_found():
    """21 players; P19 and P20 have met everyone but each other: they must meet, so neither can
    rest; the bye goes to P18, the lowest other player."""
    ranked = list(range(21))
    played = {frozenset((x, q)) for x in (19, 20) for q in range(19)}
    pairs = pair(ranked, dict.fromkeys(ranked, 1.0), played, set())
    assert pairs[-1] == (18, None)
    assert (19, 20) in pairs and _rematches(pairs, played) == 0


def test_a_player_who_had_a_bye_does_not_get_one_to_avoid_a_rematch():
    """Only E has not had a bye, and E resting forces a rematch (D has met A, B and C): E rests
    all the same, and the round has the fewest rematches (one)."""
    ranked = [A, B, C, D, E]
    played = _met((D, A), (D, B), (D, C))
    pairs = pair(ranked, dict.fromkeys(ranked, 0.0), played, {A, B, C, D})
    assert pairs[-1] == (E, None)
    assert _rematches(pairs, played) == 1


def test_without_a_rematch_free_bye_the_bye_leaves_the_fewest_rematches():
    """Seven players: A has met everyone (one rematch always), E and F everyone but G.  G (the
    lowest) resting would leave A, E and F with nobody new: two rematches.  F resting leaves one
    (A with anyone; E can still meet G).  So F rests, and the round has that one rematch."""
    ranked = [A, B, C, D, E, F, G]
    played = _met(*((A, x) for x in ranked if x != A), *((y, x) for y in (E, F) for x in ranked if x not in (y, G)))
    assert 3 - _nu([A, B, C, D, E, F], played) == 2 and 3 - _nu([A, B, C, D, E, G], played) == 1
    pairs = pair(ranked, dict.fromkeys(ranked, 0.0), played, set())
    assert pairs[-1] == (F, None)
    assert _rematches(pairs, played) == 1


# ---------------------------------------------------------------------------- shape, determinism
def test_small_fields_and_the_output_shape():
    assert pair([], {}, set(), set()) == []
    assert pair([A], {A: 0}, set(), set()) == [(A, None)]
    assert pair([A, B], {A: 0, B: 0}, _met((A, B)), set()) == [(A, B)], "a rematch rather than nothing"
    pairs = pair([A, B, C], {A: 1, B: 0, C: 0}, set(), set())
    assert pairs == [(A, B), (C, None)]


def test_the_same_input_gives_the_same_pairing_whatever_the_order_of_played():
    rng = random.Random(7)
    ranked = list(range(40))
    points = {p: float(rng.randint(0, 4)) for p in ranked}
    ranked.sort(key=lambda p: -points[p])
    games = [frozenset(rng.sample(ranked, 2)) for _ in range(150)]
    first = pair(ranked, points, set(games), set())
    again = pair(list(ranked), dict(points), set(reversed(games)), set())
    assert first == again


def test_pairs_naming_players_not_in_the_field_are_ignored():
    assert pair([A, B], {A: 0, B: 0}, _met((A, 99), (B, 98)), set()) == [(A, B)]


# ---------------------------------------------------------------------------- random Swiss runs
def _check_round(ranked: list[int], points: dict[int, float], played: set[frozenset], had_bye: set[int],
                 pairs: list[tuple[int, int | None]]) -> None:
    n = len(ranked)
    assert sorted(x for p in pairs for x in p if x is not None) == sorted(ranked), "everyone exactly once"
    byes = [a for a, b in pairs if b is None]
    assert len(byes) == n % 2 and (not byes or pairs[-1][1] is None)
    rematches = _rematches(pairs, played)
    order = sorted(ranked, key=lambda p: -points[p])           # the pairing order
    if not byes:
        if rematches:
            assert rematches == n // 2 - _nu(ranked, played), "no rematch-free pairing, and the fewest rematches"
        return
    bye = byes[0]
    candidates = [p for p in reversed(order) if p not in had_bye] or list(reversed(order))
    assert bye in candidates, "nobody gets a second bye while someone has had none"

    def cost(x: int) -> int:
        return (n - 1) // 2 - _nu([p for p in ranked if p != x], played)

    # every allowed player below the bye would have left more rematches (none, if rematch-free)
    for lower in candidates[:candidates.index(bye)]:
        assert cost(lower) > rematches, (lower, bye)
    if rematches:
        assert rematches == cost(bye) == min(cost(x) for x in candidates)


@pytest.mark.parametrize("seed", range(48))
def test_random_eight_round_swiss_runs_never_pair_an_avoidable_rematch(seed):
    """8 rounds of random results for 6-64 players (seeded): every round pairs everyone exactly
    once; it is rematch-free whenever networkx finds a rematch-free perfect matching (for the
    allowed byes), else has the fewest rematches; the bye goes to the lowest allowed player whose
    bye leaves the fewest (no) rematches."""
    rng = random.Random(seed)
    n = rng.randint(6, 64)
    strength = {p: rng.random() for p in range(n)}          # a tiebreak, fixed per run
    points = {p: 0.0 for p in range(n)}
    played: set[frozenset] = set()
    had_bye: set[int] = set()
    for _ in range(8):
        ranked = sorted(points, key=lambda p: (-points[p], -strength[p]))
        pairs = pair(ranked, points, played, had_bye)
        _check_round(ranked, points, played, had_bye, pairs)
        for a, b in pairs:
            if b is None:
                points[a] += 1
                had_bye.add(a)
                continue
            played.add(frozenset((a, b)))
            won = rng.choices(["a", "b", "draw"], [45, 45, 10])[0]
            points[a] += {"a": 1.0, "b": 0.0, "draw": 0.5}[won]
            points[b] += {"a": 0.0, "b": 1.0, "draw": 0.5}[won]


@pytest.mark.parametrize("seed", range(40))
def test_exact_on_random_graphs_against_networkx(seed):
    """Random "already met" graphs (sparse to nearly complete), random score groups and byes:
    the fewest rematches and the bye, against networkx."""
    rng = random.Random(500 + seed)
    n = rng.randint(2, 30)
    density = rng.random() ** 0.5
    ranked = list(range(n))
    points = {p: float(rng.randint(0, 3)) for p in ranked}
    ranked.sort(key=lambda p: -points[p])
    played = {frozenset(e) for e in itertools.combinations(ranked, 2) if rng.random() < density}
    had_bye = {p for p in ranked if rng.random() < 0.3}
    _check_round(ranked, points, played, had_bye, pair(ranked, points, played, had_bye))


# ---------------------------------------------------------------------------- the league uses it
def test_swiss_pairings_without_points_keeps_places_as_close_as_it_can():
    """host.leagues.swiss_pairings without points: player i counts -i points, each a group of
    their own, so neighbours in the standings meet (1-2, 3-4), and around a rematch the nearest
    places that avoid it (A-C, B-D: squared differences 4 + 4 beat A-D, B-C's 9 + 1).  With
    points, one group of four is paired at random from the seed."""
    assert L.swiss_pairings([A, B, C, D, E], set(), set()) == [(A, B), (C, D), (E, None)]
    assert L.swiss_pairings([A, B, C, D], _met((A, B)), set()) == [(A, C), (B, D)]
    points = {A: 1, B: 1, C: 1, D: 1}
    drawn = {tuple(L.swiss_pairings([A, B, C, D], set(), set(), points, seed=str(s))) for s in range(12)}
    assert drawn == {((A, B), (C, D)), ((A, C), (B, D)), ((A, D), (B, C))}


def test_a_league_pairs_each_round_with_its_own_seed_and_round_two_by_score_groups():
    """Round 1 of eight: everyone has 0 points, one group, paired at random from the round's
    seed, stages.seed_key(d, "swiss-1") (the event's stored draw seed, then the round): the same
    league key gives the same pairing, another key (over a few) another one.  The first-named
    side wins every game.  Round 2 (_pair_round passes the points and "swiss-2"): the four
    winners among themselves, the four losers likewise, no rematch."""
    from host.events import stages

    def league(key: str) -> tuple[dict, list[dict]]:
        d = L.new_league(name="t", game="squares", fmt="swiss", rounds=3, deadline_hours=0, rated=True,
                         signup_hours=None, organiser=A, channel_id=None, season=1, now=0.0)
        for p in range(1, 9):
            L.join(d, "signup", p, f"p{p}", 0.0)
        return d, L.start(d, "signup", 0.0, key=key)

    d, first = league("7")
    pairs = [(p["a"], p["b"]) for p in first]
    field = list(range(1, 9))
    assert pairs == pair(field, dict.fromkeys(field, 0.0), set(), set(), stages.seed_key(d, "swiss-1"))
    assert pairs == [(p["a"], p["b"]) for p in league("7")[1]]
    assert len({tuple((p["a"], p["b"]) for p in league(str(k))[1]) for k in range(8)}) > 1
    for p in first:
        L.report(d, "running", p["id"], 0, "a", organiser=True)
    state, second = L.advance(d, 0.0)
    assert state == "paired"
    pairs = [(p["a"], p["b"]) for p in second]
    winners = {p["a"] for p in first}
    assert all({a, b} <= winners or not {a, b} & winners for a, b in pairs)
    assert _rematches(pairs, {frozenset((p["a"], p["b"])) for p in first}) == 0
