"""Swiss pairing by score groups, pure and deterministic for a given seed: :func:`pair`.

The rules
---------
* **Pairing order.**  Points first, then standings order (``ranked``, best first): a stable sort
  of ``ranked`` by points.  "Higher" and "lower" below mean earlier and later in this order.
* **No rematch while a rematch-free pairing of everyone exists.**  A guarantee, not a best
  effort (see "Why it is exact").  When every pairing of everyone has a rematch, as few
  rematches as possible.
* **The bye** (odd number of players): the lowest player who has not had one, among those whose
  bye still leaves a rematch-free pairing of the others.  A player who has had a bye gets another
  only when everyone has had one.  When no allowed bye leaves a rematch-free pairing, the bye
  goes to the lowest allowed player among those whose bye leaves the fewest rematches.
* **Score groups, floats no longer than needed.**  Players with equal points form a score group.
  Among the pairings with the fewest rematches (given the bye), the pairing chosen

  1. has the least sum over its pairs of the squared point difference,
  2. then the shortest floats for the higher groups: for each score group from the top, the sum
     of the squared differences of the pairs whose higher player is in it, the first group that
     differs deciding (the smaller wins),
  3. and is drawn at random among those still equal, from ``seed`` (:mod:`random`, so the same
     seed gives the same pairing).

  So players meet inside their score group whenever they can, paired at random there (MTR:
  "paired randomly within their point group"); a group with an odd number floats one player,
  drawn at random among those whose float leaves the best pairing, to the next group; and a
  player floats two groups, or two players float, only when nothing shorter avoids a rematch.
  The criteria, the lower bound behind them and the exact solver: :mod:`host.events.swiss_cost`.

Output: ``[(a, b), ...]`` with the higher player first, pairs in the order of their higher
player, and the bye last as ``(player, None)``.

How it pairs
------------
A rematch-free pairing of everyone is a perfect matching of the "have not met yet" graph.

1. **The bye and the rematches** (:meth:`_Field.pair_all`): a quick score-group pass builds a
   matching, made maximum with augmenting paths (Edmonds' blossom algorithm).  An augmenting
   path runs from one unpaired player to another, alternately over a new pairing and an existing
   one; swapping along it pairs both ends and keeps everyone else paired.  This decides whether
   a rematch-free round exists and who gets the bye (below).
2. **The fast path** (:class:`_Plan`), when a rematch-free round exists: the groups from the top,
   each with a stand-in for the floater it receives (one of the players the group above may
   float, not chosen yet: it may meet anyone one of them has not met).  A group is paired in a
   random order, then made maximum with augmenting paths; an even group (with its stand-in) must
   pair everyone, an odd one all but one, and the players it may float are exactly those some
   maximum matching leaves out (reached from the unpaired one by an even alternating path: the
   Gallai-Edmonds decomposition).  Then from the bottom up each group's stand-in is made a real
   floater, drawn among those of the group above who have not met its opponent, and the group
   above is re-paired around them.  When every group succeeds, every pair is inside a group or
   between neighbouring groups, with one floater exactly where the count above is odd: the lower
   bound of :mod:`host.events.swiss_cost`, so the pairing is optimal.
3. **Windows**, where a group cannot be paired so (two players who drew each other on a score
   nobody else has, say): that group is paired exactly (:func:`host.events.swiss_cost.optimum`),
   together with stand-ins for the groups around it: players at the score of the group just
   above (and just below) who have met nobody, as many as could help.  The players the best
   such pairing sends to a stand-in become guests of that neighbouring group in step 2, which
   must pair each with one of its own players they have not met.  When a neighbour cannot, or a
   stand-in above meets one below, the window takes in that group and everything is paired
   again; once windows hold half the field, the whole field is paired exactly instead (in a
   field of 16 or fewer at the first failure: as quick there).
4. **Rematches**: when no rematch-free round exists, the whole field is paired exactly.

Why it is exact
---------------
Berge's theorem: a matching is maximum exactly when no augmenting path exists.  And a player
from whom no augmenting path starts never gets one later, after other augmentations: so one
search per unpaired player suffices, and the players of such a search's tree (a "frustrated"
tree: its outer players have no neighbour outside it) can be left out of the later searches
(Edmonds).  So step 1 knows exactly whether the round can be rematch-free; and step 2, whose
every group is decided the same way (the stand-in for the floater stands for all the choices
at once), finds a pairing in the lower bound's structure whenever there is one.

For the bye: given a maximum matching of the whole field, the players whose bye leaves a
matching of the others as large as a bye can (a perfect one when some bye leaves a rematch-free
round) are exactly those some maximum matching leaves out: the unpaired players and those reached
from one by an even alternating path, which the same search finds as its "outer" players.  The
bye is tried first on the lowest allowed player (nearly always right); only if that leaves a
rematch is this set computed, once, and the bye given to the lowest allowed player in it.

For a window (groups p..q; gaps between groups as in :mod:`host.events.swiss_cost`): a pair of
any pairing crossing the boundaries of gaps g1..gj costs (g1+...+gj)², at least the sum of the
gi² outside the window plus what the same pair costs in the window's problem, where a player
from above the window is a stand-in at the score of group p-1 (a pair from further up only
costs more) and one from below one at the score of q+1.  Each boundary outside the window is
crossed an odd number of times when the count above it is odd.  So every pairing of everyone
costs at least the lower bound outside the window plus the window problem's optimum, which
allows more than any real pairing does: the stand-ins have met nobody, and there are enough of
them (when the best leaves two stand-ins paired with each other, more would not help: they are
interchangeable, so a better pairing using more would differ from it by alternating cycles,
one of which, using just two more, would already improve it).  The pairing made costs exactly
that bound, so it is optimal; a pairing as cheap meets it term by term, so it has the same
floats outside the window and the window problem's floats inside, where the window's pairing is
the best (criterion 2).  Several windows add up the same way.

Cost: step 1 is about linear in the number of players (times the few opponents a player has
met).  Step 2 pairs each group once more, augmenting paths are short after a few rounds, and a
search is O(n^2) at worst, never exponential.  A window is a few players of small groups: at
round 8 a 256-player field pairs in about 3 ms (slowest seen over 1,000 random rounds: 0.07 s),
1,024 players in about 20 ms.  The exact solver runs on the whole field only in small events
late in the Swiss or when a rematch is unavoidable (about 0.1 s at 64 players).  The only
randomness is ``seed``'s: the same input gives the same pairing.
"""
from __future__ import annotations

import random
from collections import deque
from typing import Iterable, Iterator

from host.events import swiss_cost

__all__ = ["pair"]


def pair(ranked: list[int], points: dict[int, float], played: set[frozenset],
         had_bye: set[int], seed: str = "") -> list[tuple[int, int | None]]:
    """Pairings for the next Swiss round (the rules: module doc).

    ``ranked``: the players to pair, best first (standings order); ``points``: each player's
    score (a missing player counts 0); ``played``: ``frozenset((a, b))`` of every pairing already
    played (pairs naming someone not in ``ranked`` are ignored); ``had_bye``: players who have
    had a bye; ``seed``: the random tie-break's seed (the same seed, the same pairing)."""
    order = sorted(dict.fromkeys(ranked), key=lambda p: -float(points.get(p, 0.0)))   # stable
    n = len(order)
    if n < 2:
        return [(order[0], None)] if order else []
    scores = [float(points.get(p, 0.0)) for p in order]
    field = _Field(order, scores, played)
    bye = None
    if n % 2:
        candidates = [i for i in reversed(range(n)) if order[i] not in had_bye] or list(reversed(range(n)))
        bye = candidates[0]
        if not field.pair_all(bye):
            options = field.bye_options(bye)             # (this changes the matching: pair again)
            bye = next((c for c in candidates if c in options), bye)
    rematch_free = field.pair_all(bye)
    alive = [i for i in range(n) if i != bye]
    rng = random.Random(seed)
    ints = swiss_cost.integer_scores(scores)
    if rematch_free:
        pairs = _Plan(field, alive, ints, rng).pairs()
    else:
        pairs = _solve(alive, ints, field.met, rng)
    out: list[tuple[int, int | None]] = [(order[a], order[b]) for a, b in sorted(
        (min(a, b), max(a, b)) for a, b in pairs)]
    if bye is not None:
        out.append((order[bye], None))
    return out


def _solve(people: list[int], ints: list[int], met: list[set[int]], rng: random.Random) -> list[tuple[int, int]]:
    """The exact solver on ``people`` (indices in pairing order), as pairs of indices."""
    pairs = swiss_cost.optimum([ints[v] for v in people], lambda i, j: people[j] in met[people[i]], rng)
    return [(people[i], people[j]) for i, j in pairs]


# a stand-in in a group's graph (:class:`_Plan`): the floater from the group above, one of that
# group's possible floaters not yet chosen, who may meet anyone one of them has not met
FLOATER = -1
# a field of at most this many players is paired exactly as a whole where the fast path fails:
# there that is as quick as a window (measured over random events)
SMALL = 16


class _Plan:
    """The pairing of everyone but the bye when a rematch-free one exists (module doc, "How it
    pairs"): the groups in the LB structure, each with the floater it receives, except inside
    windows, which are paired exactly (``windows``: ranges of group numbers, first and last)."""

    def __init__(self, field: "_Field", alive: list[int], ints: list[int], rng: random.Random) -> None:
        self.field, self.ints, self.rng = field, ints, rng
        self.groups: list[list[int]] = []
        for v in alive:
            if self.groups and ints[self.groups[-1][0]] == ints[v]:
                self.groups[-1].append(v)
            else:
                self.groups.append([v])
        self.windows: list[tuple[int, int]] = []
        self.solved: dict[tuple[int, int], tuple[list[tuple[int, int]], list[int], list[int]] | None] = {}

    def pairs(self) -> list[tuple[int, int]]:
        """The pairing: the fast path, with windows added where it fails; the exact solver on
        everyone once the windows hold half the field (about as costly, and final), or at the
        first failure in a field of at most SMALL players."""
        last = len(self.groups) - 1
        everyone = sum(len(g) for g in self.groups)
        while 2 * sum(len(g) for p, q in self.windows for g in self.groups[p:q + 1]) <= everyone and \
                (everyone > SMALL or not self.windows):
            found = self._attempt()
            if isinstance(found, list):
                return found
            spans = sorted(self.windows + [(max(0, k), min(last, k)) for k in found])
            merged: list[tuple[int, int]] = []
            for p, q in spans:          # windows that overlap or touch become one
                if merged and p <= merged[-1][1] + 1:
                    merged[-1] = (merged[-1][0], max(q, merged[-1][1]))
                else:
                    merged.append((p, q))
            self.windows = merged
        return _solve([v for g in self.groups for v in g], self.ints, self.field.met, self.rng)

    def _attempt(self) -> list[tuple[int, int]] | tuple[int, ...]:
        """The pairing with the current windows (a list of pairs), or the groups to add to the
        windows (a tuple of group numbers) where it cannot be made."""
        groups, met = self.groups, self.field.met
        pairs: list[tuple[int, int]] = []
        up: dict[int, list[int]] = {}        # group -> window players below who meet one of it
        down: dict[int, list[int]] = {}      # group -> window players above who meet one of it
        inside: set[int] = set()
        for p, q in self.windows:
            if (p, q) not in self.solved:
                self.solved[p, q] = self._window(p, q)
            found = self.solved[p, q]
            if found is None:               # a pair from above the window to below it
                return (p - 1, q + 1)
            internal, to_above, to_below = found
            pairs += internal
            if to_above:
                up[p - 1] = to_above
            if to_below:
                down[q + 1] = to_below
            inside.update(range(p, q + 1))
        plans: list[tuple[_Field, list[int], list[int], int] | None] = []
        floaters: list[int] = []          # who of the group above may float into this one
        for k, group in enumerate(groups):
            if k in inside:
                plans.append(None)
                floaters = []
                continue
            members = list(group)
            self.rng.shuffle(members)
            guests = ([FLOATER] if floaters else []) + down.get(k, []) + up.get(k, [])
            people = guests + members
            where = {p: i for i, p in enumerate(people) if p != FLOATER}
            first = len(guests)              # people[first:] are the group's own players
            local: list[set[int]] = []
            for i, p in enumerate(people):
                if i >= first:
                    local.append({where[q] for q in met[p] if q in where})
                elif p == FLOATER:
                    local.append({i for i in range(first, len(people)) if all(people[i] in met[x] for x in floaters)})
                else:
                    local.append({where[q] for q in met[p] if q in where and where[q] >= first})
                if i < first:               # guests meet the group's players, never one another
                    local[i].update(range(first))
            for i in range(first):
                for j in local[i]:
                    local[j].add(i)
            sub = _Field.local(local)
            verts = list(range(len(people)))
            left = sub.match(verts)
            plans.append((sub, people, floaters, first))
            if len(people) % 2 == 0:
                if left:
                    return (k,)
                floaters = []
            else:
                assert k + 1 not in inside, "a group above a window is even: it floats nobody into it"
                if len(left) != 1:
                    return (k,)
                floaters = [people[i] for i in sorted(sub.even_reach(verts, left[0])) if i >= first]
                if not floaters:
                    return (k,)
        below: int | None = None        # the player the group below took as its floater
        for plan in reversed(plans):
            if plan is None:
                below = None
                continue
            sub, people, incoming, first = plan
            if below is not None:
                sub.leave_out(people.index(below))
            below = None
            for i, p in enumerate(people):
                j = sub.mate[i]
                if p == FLOATER:
                    below = self.rng.choice([x for x in incoming if people[j] not in met[x]])
                    pairs.append((below, people[j]))
                elif i < first or (i < j and j >= first):
                    pairs.append((p, people[j]))
        return pairs

    def _window(self, p: int, q: int) -> tuple[list[tuple[int, int]], list[int], list[int]] | None:
        """Groups p..q paired exactly, with stand-ins for the groups around them: any number of
        players at the score of group p-1 (and of q+1) who have met nobody, as many as could
        help.  Returns (the pairs inside, the players meeting a stand-in above, below), or None
        when the best uses a stand-in above against one below."""
        groups, ints, met = self.groups, self.ints, self.field.met
        inside = [v for g in groups[p:q + 1] for v in g]
        above = sum(len(g) for g in groups[:p]) % 2 + 2 if p > 0 else 0
        below = sum(len(g) for g in groups[q + 1:]) % 2 + 2 if q + 1 < len(groups) else 0
        top = ints[groups[p - 1][0]] if above else 0
        bottom = ints[groups[q + 1][0]] if below else 0
        while True:
            people = [-1] * above + inside + [-2] * below
            scores = [top] * above + [ints[v] for v in inside] + [bottom] * below
            found = swiss_cost.optimum(scores, lambda i, j, who=people: who[i] >= 0 and who[j] in met[who[i]], self.rng)
            kinds = [(people[i] if people[i] < 0 else 0, people[j] if people[j] < 0 else 0) for i, j in found]
            if above and (-1, -1) not in kinds:
                above += 2                  # every stand-in above is used: would more help?
            elif below and (-2, -2) not in kinds:
                below += 2
            else:
                break
        if (-1, -2) in kinds:
            return None
        internal, to_above, to_below = [], [], []
        for i, j in found:
            a, b = people[i], people[j]
            if a >= 0 and b >= 0:
                internal.append((a, b))
            elif a == -1 and b >= 0:
                to_above.append(b)
            elif b == -2 and a >= 0:
                to_below.append(a)
        return internal, to_above, to_below


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

    @classmethod
    def local(cls, met: list[set[int]]) -> "_Field":
        """A field of players 0..len(met)-1 (one score group, say) who have met ``met[i]``."""
        f = cls.__new__(cls)
        f.n = len(met)
        f.ids, f.scores, f.met, f.mate = list(range(f.n)), [0.0] * f.n, met, [-1] * f.n
        return f

    def match(self, verts: list[int]) -> list[int]:
        """A maximum rematch-free matching of ``verts``: each unpaired player in the order given
        takes the first later one not met, then augmenting paths; returns the players left."""
        mate, met = self.mate, self.met
        for k, a in enumerate(verts):
            if mate[a] != -1:
                continue
            for b in verts[k + 1:]:
                if mate[b] == -1 and b not in met[a]:
                    self._link(a, b)
                    break
        left = [v for v in verts if mate[v] == -1]
        if len(left) > 1:
            self._maximise(verts, left)
        return [v for v in verts if mate[v] == -1]

    def even_reach(self, verts: list[int], root: int) -> set[int]:
        """Given a maximum matching of ``verts`` that leaves only ``root`` unpaired: the players
        some maximum matching leaves unpaired (reached from ``root`` by an even alternating
        path, the outer vertices of its search: Gallai-Edmonds)."""
        end, _, _, outer = self._search(root, verts, {v: k for k, v in enumerate(verts)}, {root: None}, set())
        assert end is None, "the matching was maximum"
        return outer

    def leave_out(self, v: int) -> None:
        """Change the matching (maximum, of all players, with one left unpaired) into one that
        leaves ``v`` unpaired instead: ``v`` must be one :meth:`even_reach` found."""
        w = self.mate[v]
        if w == -1:
            return
        self.mate[v] = self.mate[w] = -1
        verts = [u for u in range(self.n) if u != v]
        self._maximise(verts, [w])
        assert self.mate[w] != -1, "v is left unpaired by some maximum matching"

    # ------------------------------------------------------------------ the score-group pass
    def pair_all(self, bye: int | None) -> bool:
        """A maximum rematch-free matching of everyone but ``bye``, built group by group and
        repaired; True when it pairs everyone.  (Step 1 of the module doc: it decides the bye and
        whether a rematch-free round exists; the pairing itself is :class:`_Plan`'s.)"""
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
