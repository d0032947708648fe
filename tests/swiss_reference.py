"""The former Swiss pairer, kept as an exact reference for the tests: a perfect matching of
the "have not met yet" graph is exactly a rematch-free pairing of everyone, and networkx's
maximum-cardinality matching (Edmonds' blossom algorithm) decides in polynomial time whether one
exists.  It pairs the whole field at once (about n^3: 1.8 s at 128 players); the bot pairs by
score groups (host/events/swiss.py), checked against this."""
from __future__ import annotations

import networkx as nx


def _graph(players: list[int], played: set[frozenset]) -> nx.Graph:
    """Index graph: i - j when players[i] and players[j] have not met."""
    n = len(players)
    g = nx.Graph()
    g.add_nodes_from(range(n))
    g.add_edges_from((i, j) for i in range(n) for j in range(i + 1, n)
                     if frozenset((players[i], players[j])) not in played)
    return g


def _maximum_matching(g: nx.Graph) -> set[tuple[int, int]]:
    return nx.max_weight_matching(g, maxcardinality=True)


def _has_perfect_matching(g: nx.Graph) -> bool:
    return 2 * len(_maximum_matching(g)) == g.number_of_nodes()


def pair_without_rematch(players: list[int], played: set[frozenset]) -> list[tuple[int, int]] | None:
    """Pair ``players`` (best first) with no rematch, None if that is impossible.  Top-down:
    the best unpaired player meets the next-best player they have not met whose pairing still
    leaves a rematch-free pairing of everyone below (the first such pairing in standings order,
    found greedily with a perfect-matching test instead of a search)."""
    n = len(players)
    if n % 2:
        return None
    g = _graph(players, played)
    if not _has_perfect_matching(g):
        return None
    out = []
    for i in range(n):
        if i not in g:
            continue
        for j in sorted(g[i]):
            rest = g.copy()
            rest.remove_nodes_from((i, j))
            if _has_perfect_matching(rest):
                g = rest
                out.append((players[i], players[j]))
                break
        else:  # pragma: no cover - the perfect matching above guarantees a partner
            raise AssertionError("no partner although a perfect matching exists")
    return out


def pair_fewest_rematches(players: list[int], played: set[frozenset]) -> list[tuple[int, int]]:
    """When every pairing of everyone has a rematch: as many new pairings as possible (a
    maximum matching of the not-yet-met graph), the players left over paired in standings
    order; listed best first."""
    n = len(players)
    pairs = [tuple(sorted(e)) for e in _maximum_matching(_graph(players, played))]
    matched = {v for e in pairs for v in e}
    rest = [i for i in range(n) if i not in matched]
    pairs += [(rest[k], rest[k + 1]) for k in range(0, len(rest) - 1, 2)]
    return [(players[a], players[b]) for a, b in sorted(pairs)]
