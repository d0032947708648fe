"""Swiss pairing by score groups, pure and deterministic: :func:`pair`.

The rules
---------
* **Pairing order.**  Points first, then standings order (``ranked``, best first): a stable sort
  of ``ranked`` by points.  "Higher" and "lower" below mean earlier and later in this order.
* **Score groups, top first.**  Players with equal points form a score group; groups are paired
  from the highest points down.  Inside a group the top half meets the bottom half, the first of
  the top half the first of the bottom half, and so on (1-5, 2-6, 3-7, 4-8 in a group of eight).
  A player of the top half who has already met the opponent so given takes the next one of the
  bottom half they have not met; players still unpaired then meet the next one below they have
  not met, and if that leaves players of the group unpaired while another pairing of the group
  would pair more of them, that pairing is used (augmenting paths, below).
* **Floaters.**  With an odd group, its lowest player floats down to the next group; so does a
  player who cannot be paired inside the group without a rematch.  Floaters are paired first in
  the next group, the highest first, each with the highest player of that group they have not
  met; the rest of that group is then paired top half against bottom half.
* **No rematch while a rematch-free pairing of everyone exists.**  A guarantee, not a best
  effort (see "Why it is exact"); to keep it, the score-group pairing above may be changed (the
  repair below).  When every pairing of everyone has a rematch, as few rematches as possible.
* **The bye** (odd number of players): the lowest player who has not had one, among those whose
  bye still leaves a rematch-free pairing of the others.  A player who has had a bye gets another
  only when everyone has had one.  When no allowed bye leaves a rematch-free pairing, the bye
  goes to the lowest allowed player among those whose bye leaves the fewest rematches.

Output: ``[(a, b), ...]`` with the higher player first, pairs in the order of their higher
player, and the bye last as ``(player, None)``.

How it pairs
------------
A rematch-free pairing of everyone is a perfect matching of the "have not met yet" graph.  The
score-group pass builds a matching quickly; it is then made maximum with augmenting paths
(Edmonds' blossom algorithm, started from the score-group pairing instead of from nothing).  An
augmenting path runs from one unpaired player to another, alternately over a new pairing and an
existing one; swapping along it pairs both ends and keeps everyone else paired, e.g. x and w
unpaired, y-z paired: x meets y, and z meets w.

1. Each group, with the floaters it received, is paired greedily as described; then its unpaired
   players are offered augmenting paths inside the group, so a group floats no more players than
   its own pairings force.
2. The players left unpaired after the last group are offered augmenting paths through the
   whole field.  Searches look at the nearest players in the pairing order first, so a repair is
   usually one swap in a nearby group.

Step 2 repairs the corner a group-by-group pass paints itself into: the top groups paired among
themselves can leave the last players only opponents they have met, while another pairing of
the top groups would have freed the right partners.  Step 2 finds such a pairing whenever one
exists, however far up it reaches.

Why it is exact
---------------
Berge's theorem: a matching is maximum exactly when no augmenting path exists.  And a player
from whom no augmenting path starts never gets one later, after other augmentations: so one
search per unpaired player suffices, and the players of such a search's tree (a "frustrated"
tree: its outer players have no neighbour outside it) can be left out of the later searches
(Edmonds).  When the searches end with everyone paired, the round is rematch-free; otherwise
the matching has as many new pairings as any pairing can have, the players left over have all
met one another (else they would have been paired), and they are paired in pairing order: the
fewest rematches possible.

For the bye: given a maximum matching of the whole field, the players whose bye leaves a
matching of the others as large as a bye can (a perfect one when some bye leaves a rematch-free
round) are exactly those some maximum matching leaves out: the unpaired players and those reached
from one by an even alternating path (the Gallai-Edmonds decomposition), which the same search
finds as its "outer" players.  The bye is tried first on the lowest allowed player (nearly always
right); only if that leaves a rematch is this set computed, once, and the bye given to the lowest
allowed player in it.

Cost: the score-group pass is about linear in the number of players (times the few opponents a
player has met).  After a few rounds each player has met only a few others, so augmenting paths
are short and found after looking at a handful of players.  A search is O(n^2) at worst (small,
saturated fields, far more rounds than a Swiss plays), never exponential.  Nothing depends on
hash order or randomness: the same input gives the same pairing.
"""
from __future__ import annotations

from collections import deque
from typing import Iterable, Iterator

__all__ = ["pair"]


def pair(ranked: list[int], points: dict[int, float], played: set[frozenset],
         had_bye: set[int]) -> list[tuple[int, int | None]]:
    """Pairings for the next Swiss round (the rules: module doc).

    ``ranked``: the players to pair, best first (standings order); ``points``: each player's
    score (a missing player counts 0); ``played``: ``frozenset((a, b))`` of every pairing already
    played (pairs naming someone not in ``ranked`` are ignored); ``had_bye``: players who have
    had a bye."""
    order = sorted(dict.fromkeys(ranked), key=lambda p: -float(points.get(p, 0.0)))   # stable
    n = len(order)
    if n < 2:
        return [(order[0], None)] if order else []
    field = _Field(order, [float(points.get(p, 0.0)) for p in order], played)
    if n % 2 == 0:
        field.pair_all(None)
        return field.pairs(None)
    candidates = [i for i in reversed(range(n)) if order[i] not in had_bye] or list(reversed(range(n)))
    bye = candidates[0]
    if not field.pair_all(bye):
        options = field.bye_options(bye)             # (this changes the matching: pair again)
        bye = next((c for c in candidates if c in options), bye)
        field.pair_all(bye)
    return field.pairs(bye)


def _near(verts: list[int], k: int) -> Iterator[int]:
    """``verts`` from position ``k`` outwards: k+1, k-1, k+2, k-2, ... (nearest ranks first)."""
    n = len(verts)
    for d in range(1, n):
        lo, hi = k - d, k + d
        if hi < n:
            yield verts[hi]
        if lo >= 0:
            yield verts[lo]
        elif hi >= n:
            return


class _Field:
    """The players as indices 0..n-1 in pairing order (points, then standings), who has met
    whom, and the matching being built (``mate[i]``: i's opponent, -1 while unpaired)."""

    def __init__(self, order: list[int], scores: list[float], played: Iterable[frozenset]) -> None:
        self.ids = order
        self.scores = scores
        self.n = len(order)
        index = {p: i for i, p in enumerate(order)}
        self.met: list[set[int]] = [set() for _ in order]
        for game in played:
            if len(game) != 2:
                continue
            a, b = game
            i, j = index.get(a), index.get(b)
            if i is not None and j is not None:
                self.met[i].add(j)
                self.met[j].add(i)
        self.mate = [-1] * self.n

    # ------------------------------------------------------------------ the score-group pass
    def pair_all(self, bye: int | None) -> bool:
        """A maximum rematch-free matching of everyone but ``bye``, built group by group and
        repaired; True when it pairs everyone."""
        mate = self.mate = [-1] * self.n
        alive = [i for i in range(self.n) if i != bye]
        floaters: list[int] = []
        start = 0
        while start < len(alive):
            end = start
            while end < len(alive) and self.scores[alive[end]] == self.scores[alive[start]]:
                end += 1
            residents = alive[start:end]
            bracket = floaters + residents          # already in pairing order
            self._pair_group(floaters, residents)
            left = [v for v in bracket if mate[v] == -1]
            if len(left) > 1:
                self._maximise(bracket, left)
            floaters = [v for v in bracket if mate[v] == -1]
            start = end
        if len(floaters) > 1:
            self._maximise(alive, floaters)
        return all(mate[v] != -1 for v in alive)

    def _link(self, a: int, b: int) -> None:
        self.mate[a], self.mate[b] = b, a

    def _pair_group(self, floaters: list[int], residents: list[int]) -> None:
        """Greedy pairing of one score group: floaters with the highest residents they have not
        met, then the other residents top half against bottom half, then whoever is left top-down."""
        met, mate = self.met, self.mate
        avail = list(residents)
        for f in floaters:
            for k, r in enumerate(avail):
                if r not in met[f]:
                    self._link(f, r)
                    del avail[k]
                    break
        half = len(avail) // 2
        top, bottom = avail[:half], avail[half:]
        for a in top:
            for k, b in enumerate(bottom):
                if b not in met[a]:
                    self._link(a, b)
                    del bottom[k]
                    break
        rest = [v for v in avail if mate[v] == -1]
        for k, a in enumerate(rest):
            if mate[a] != -1:
                continue
            for b in rest[k + 1:]:
                if mate[b] == -1 and b not in met[a]:
                    self._link(a, b)
                    break

    # ------------------------------------------------------------------ augmenting paths
    def _maximise(self, verts: list[int], roots: list[int]) -> None:
        """Augment the matching inside ``verts`` (pairing order) from each of ``roots`` that is
        still unpaired: afterwards no augmenting path inside ``verts`` starts at any of them."""
        pos = {v: k for k, v in enumerate(verts)}
        free = dict.fromkeys(v for v in verts if self.mate[v] == -1)     # an ordered set
        dead: set[int] = set()
        for r in roots:
            if self.mate[r] != -1:
                continue
            end, parent, tree, _ = self._search(r, verts, pos, free, dead)
            if end is not None:
                self._augment(end, parent)
                del free[r], free[end]
            else:
                dead.update(tree)

    def _augment(self, end: int, parent: dict[int, int]) -> None:
        mate, v = self.mate, end
        while v != -1:
            pv = parent[v]
            nxt = mate[pv]
            mate[v], mate[pv] = pv, v
            v = nxt

    def _search(self, root: int, verts: list[int], pos: dict[int, int], free: dict[int, None],
                dead: set[int]) -> tuple[int | None, dict[int, int], list[int], set[int]]:
        """Edmonds' search for an augmenting path from the unpaired ``root`` inside ``verts``,
        leaving out ``dead`` (the trees of earlier searches that found none).  Returns (the
        unpaired end of the path or None, the tree's parent links, the tree's vertices, its outer
        vertices).  Without a path, the outer vertices are exactly those reached from ``root`` by
        an even alternating path, and they have no neighbour outside the tree: the tree is
        "frustrated", and no later augmenting path can use any of its vertices (Edmonds), so the
        caller leaves them out of later searches.  Any unpaired player next to a new outer vertex
        is taken at once, which keeps the search short in a dense field."""
        mate, met = self.mate, self.met
        parent: dict[int, int] = {}
        base: dict[int, int] = {}
        outer = {root}
        tree = [root]
        queue = deque([root])

        def b(v: int) -> int:
            return base.get(v, v)

        def free_next_to(x: int) -> int | None:
            seen = met[x]
            for f in free:
                if f != root and f != x and f not in seen and f not in dead:
                    return f
            return None

        def lca(x: int, y: int) -> int:
            path = set()
            while True:
                x = b(x)
                path.add(x)
                if mate[x] == -1:
                    break
                x = parent[mate[x]]
            while True:
                y = b(y)
                if y in path:
                    return y
                y = parent[mate[y]]

        def mark(v: int, top: int, child: int, blossom: set[int]) -> None:
            while b(v) != top:
                blossom.add(b(v))
                blossom.add(b(mate[v]))
                parent[v] = child
                child = mate[v]
                v = parent[mate[v]]

        f = free_next_to(root)
        if f is not None:
            parent[f] = root
            return f, parent, tree, outer
        while queue:
            v = queue.popleft()
            seen = met[v]
            for to in _near(verts, pos[v]):
                if to in seen or to in dead or mate[v] == to or b(v) == b(to):
                    continue
                if to == root or (mate[to] != -1 and mate[to] in parent):
                    top = lca(v, to)          # an odd cycle: shrink the blossom into its base
                    blossom: set[int] = set()
                    mark(v, top, to, blossom)
                    mark(to, top, v, blossom)
                    new = []
                    for i in tree:
                        if b(i) in blossom:
                            base[i] = top
                            if i not in outer:
                                outer.add(i)
                                queue.append(i)
                                new.append(i)
                    for x in new:
                        f = free_next_to(x)
                        if f is not None:
                            parent[f] = x
                            return f, parent, tree, outer
                elif to not in parent:
                    parent[to] = v
                    tree.append(to)
                    if mate[to] == -1:
                        return to, parent, tree, outer
                    w = mate[to]
                    outer.add(w)
                    tree.append(w)
                    queue.append(w)
                    f = free_next_to(w)
                    if f is not None:
                        parent[f] = w
                        return f, parent, tree, outer
        return None, parent, tree, outer

    # ------------------------------------------------------------------ the bye, exactly
    def bye_options(self, bye: int) -> set[int]:
        """Given a maximum matching of everyone but ``bye`` (after :meth:`pair_all`), the players
        whose bye leaves a maximum matching as large as any bye allows (a perfect one when some
        bye leaves a rematch-free round): those missed by some maximum matching of the whole
        field, i.e. reached by an even alternating path from one of its unpaired players."""
        verts = list(range(self.n))
        pos = {v: v for v in verts}
        free = dict.fromkeys(v for v in verts if self.mate[v] == -1)
        dead: set[int] = set()
        end, parent, _, _ = self._search(bye, verts, pos, free, dead)
        if end is not None:                  # now a maximum matching of the whole field
            self._augment(end, parent)
            del free[bye], free[end]
        # Each search below ends frustrated (the matching is maximum).  An alternating path from a
        # later root could enter an earlier tree only through its inner vertices and would stay
        # in it, reaching outer vertices already counted: so the earlier trees are left out.
        options: set[int] = set()
        for r in list(free):
            end, _, tree, outer = self._search(r, verts, pos, free, dead)
            if end is None:                  # always: the matching is maximum
                options |= outer
                dead.update(tree)
        return options

    def pairs(self, bye: int | None) -> list[tuple[int, int | None]]:
        """The pairing: the matching, the players it leaves (who have all met one another) paired
        in standings order, best pairs first, the bye last."""
        mate, ids = self.mate, self.ids
        alive = [v for v in range(self.n) if v != bye]
        left = [v for v in alive if mate[v] == -1]
        for a, b in zip(left[::2], left[1::2]):
            self._link(a, b)
        out: list[tuple[int, int | None]] = [(ids[v], ids[mate[v]]) for v in alive if v < mate[v]]
        if bye is not None:
            out.append((ids[bye], None))
        return out
