"""What a Swiss pairing costs, its lower bound, and the exact solver for the rounds that need one.

:func:`host.events.swiss.pair` chooses, among the pairings with the fewest rematches, one that

1. minimises the **sum over pairs of the squared point difference** (:func:`cost`), then
2. keeps the higher players' floats as short as possible: for each score group from the top,
   the sum of the squared differences of the pairs whose higher player is in that group (the
   **float profile**, :func:`cost`); the first group where two pairings differ decides, the
   smaller sum wins;
3. breaks the remaining ties at random, from the round's seed.

Points are made integers first (:func:`integer_scores`): every score is an exact fraction of a
float, scaled by the least common denominator, so 3/1/0, 1/½/0 and the negative pseudo-points
of a field without points all compare and subtract exactly.

The lower bound
---------------
Players sorted by score, the score groups G1 (top), G2, ...; the boundary below Gk has ``c``
players above it and a gap ``g`` (the score of Gk less that of Gk+1).  A pair crossing the
boundaries of gaps g1..gj costs (g1+...+gj)² >= g1²+...+gj², with equality only for j = 1; and a
boundary with an odd number of players above it is crossed by an odd number of pairs, at least
one.  So every pairing costs at least **LB = the sum of g² over the boundaries with an odd
number of players above** (:func:`lower_bound`), which the sorted field paired 1-2, 3-4, ...
reaches.  A pairing reaches LB exactly when every pair is inside one score group or between
two adjacent groups, and each boundary is crossed by exactly one pair if the number of players
above it is odd, by none if it is even (the "LB structure"; tests/test_swiss_optimal.py checks
the claim against every pairing of small fields).  All such pairings have the same float
profile too (one pair of gap g at each odd boundary, counted at the group above it): a pairing
with no rematch in the LB structure is optimal for criteria 1 and 2 at once.

The exact solver
----------------
:func:`optimum` pairs a set of players exactly, with a maximum-weight matching (networkx's
Edmonds blossom, exact on integer weights).  Each possible pair gets one integer weight that
encodes, from the most significant digits down: a rematch, the squared difference, the squared
difference again at the digit of its higher player's score group, and a random number from the
seed.  Each "digit" is wider than the largest total the lower ones can reach over a whole round,
so the weight of a pairing orders pairings exactly as the criteria do, lexicographically.
host/events/swiss.py uses it for the few groups the fast path cannot pair in the LB structure
(a "window", with stand-ins for the groups around it), and for the whole field only when a
rematch is unavoidable or the window grows to everyone, which happens in small events late in
the Swiss.  networkx is pure Python and imported only then: about 0.1 s for 64 players, and
roughly eight times as long for each doubling, which is why large fields must not need it.
"""
from __future__ import annotations

import math
import random
from fractions import Fraction
from typing import Callable

__all__ = ["integer_scores", "lower_bound", "cost", "optimum"]

# the random tie-break of one pair, in [0, TIE): wide enough that equal sums are rare
TIE = 1 << 20


def integer_scores(scores: list[float]) -> list[int]:
    """``scores`` as integers with the same order and proportional differences: each exact
    fraction (a float is one) times the least common denominator."""
    fracs = [Fraction(s) for s in scores]
    den = 1
    for f in fracs:
        den = den * f.denominator // math.gcd(den, f.denominator)
    return [int(f * den) for f in fracs]


def lower_bound(scores: list[int]) -> int:
    """LB (module doc) of a field with these scores, best first: the cost of pairing the sorted
    field 1-2, 3-4, ...; each such pair is inside a group or spans exactly the boundary below
    an odd number of players."""
    s = sorted(scores, reverse=True)
    return sum((s[i] - s[i + 1]) ** 2 for i in range(0, len(s) - 1, 2))


def groups_of(scores: list[int]) -> dict[int, int]:
    """Score -> its group's number among ``scores``, 0 for the highest."""
    return {s: k for k, s in enumerate(sorted(set(scores), reverse=True))}


def cost(pairs: list[tuple[int, int]], score: dict[int, int]) -> tuple[int, tuple[int, ...]]:
    """(sum of squared differences, float profile) of ``pairs`` of players with scores
    ``score``: the profile has one entry per score group of the players paired, top first, the
    sum of the squared differences of the pairs whose higher player is in it."""
    rank = groups_of([score[p] for pr in pairs for p in pr])
    profile = [0] * len(rank)
    for a, b in pairs:
        hi, lo = (a, b) if score[a] >= score[b] else (b, a)
        profile[rank[score[hi]]] += (score[hi] - score[lo]) ** 2
    return sum(profile), tuple(profile)


def optimum(scores: list[int], met: Callable[[int, int], bool], rng: random.Random) -> list[tuple[int, int]]:
    """The best pairing of players 0..len(scores)-1 (an even number, in pairing order: scores
    never rising) by the criteria of the module doc, the fewest rematches first (``met(i, j)``
    for i < j: they have met).  Pairs ``(i, j)`` with i < j, in the order of i."""
    import networkx as nx         # only for the rounds that need it: a pure-Python library

    n = len(scores)
    m = n // 2
    if m == 0:
        return []
    rank = groups_of(scores)
    top = scores[0] - scores[-1]
    # digits, from the least significant: ties (< m*TIE over a round), the float profile (one
    # digit per group, each group's sum < base), the squared differences (< base), a rematch
    base = m * top * top + 1
    profile_unit = m * TIE
    digit = [profile_unit * base ** (len(rank) - 1 - rank[s]) for s in scores]
    square_unit = profile_unit * base ** len(rank)
    rematch_unit = square_unit * base
    ceiling = rematch_unit * (m + 1)
    g = nx.Graph()
    g.add_nodes_from(range(n))
    for i in range(n):
        for j in range(i + 1, n):
            d2 = (scores[i] - scores[j]) ** 2
            c = rematch_unit * met(i, j) + (square_unit + digit[i]) * d2 + rng.randrange(TIE)
            g.add_edge(i, j, weight=ceiling - c)
    return sorted((min(a, b), max(a, b)) for a, b in nx.max_weight_matching(g, maxcardinality=True))
