"""Events in sealed or draft format: the league setting, the pods, the first round paired inside
each pod, the numbers each pod's pools are dealt with, and the decks the players build —
pure and synchronous like the rest of :mod:`host.events` (the drafts themselves are
host/limited/; host/league_limited.py opens them and keeps this document in step).

The rules, restated (docs/limited.md, "Events"):

* An event's **format** may be ``sealed`` (each player opens a pool) or ``draft`` (a booster
  draft).  It is set during sign-up (``/league-admin settings limited``), for a game whose decks
  are built from a pool (Battle Logic Square, Project Maken, Art of War, Avalon's Sanctuary).
  A draft event plays Swiss or round-robin rounds: its first round is paired inside each pod,
  which an elimination bracket's seeding cannot promise.
* At the start the players are split into **pods** of at most 8 (a draft passes packs around one
  table; a sealed pod is one dealing of pools), as even as can be and at most one of odd size, in
  an order drawn from the event's secret seed.  Each pod's pools come from its own draft, dealt
  from its own secret seed.
* A **draft pod pairs its first round inside the pod**: Swiss round 1 and a round robin's first
  round pair players of the same pod (an odd pod's last player has the bye).
* **The pool and the deck are locked like decklists**: nobody registers a deck at check-in; each
  player builds one deck from their pool after the start, once — it is then locked for the event
  and used for every match of it.  Pools and decks are shown under the decklist rules
  (:func:`host.events.entry.decklists_public`): to the player and the organisers at once, to
  everyone once the event's lists are public.  A limited event shows its lists at the end unless
  the organiser says otherwise.
* A match of the event is played with both locked decks and the set's limited deck numbers; it
  cannot start before both players have built their deck.

League document keys: ``limited`` (``"sealed"`` | ``"draft"``), ``pods`` (``[[user ids]]``,
made at the start), ``limited_drafts`` (``{"<pod index>": draft id}``, as the drafts are opened),
``limited_rules`` (the set's limited deck numbers: the match option ``deck_rules``), and a
decklist entry of kind ``"limited"`` holding the pool (``pool``: card ids) and the draft.

>>> pods = make_pods(list(range(1, 11)), "k", most=8)
>>> sorted(len(p) for p in pods)
[4, 6]
>>> pairs = round_one(pods, "k")
>>> all(any(a in p and b in p for p in pods) for a, b in pairs if b is not None)
True
"""
from __future__ import annotations

import hashlib
from typing import Any, Iterable, Sequence

from host.events.document import LeagueError

FORMATS = ("sealed", "draft")
KIND = "limited"               # a decklist entry built from a pool
MOST = 8                        # players a pod holds (a booster draft seats 2–8)
PACKS = (1, 3)                  # packs a player opens, fewest and most, from a cube
SIZE = (5, 15)                  # cards a pack, fewest and most, from a cube
ELIMINATION = ("single", "double")


def limited_of(d: dict) -> str | None:
    """The event's limited format, or None (constructed)."""
    value = d.get("limited")
    return value if value in FORMATS else None


def configure(d: dict, status: str, value: str | None, *, games: Iterable[str]) -> list[str]:
    """``/league-admin settings limited``: ``value`` one of :data:`FORMATS`, or None for
    constructed play.  During sign-up only; ``games``: the games that have limited play.
    Returns ``["limited"]`` when it changed, else []."""
    if value is not None and value not in FORMATS:
        raise LeagueError("events.limited.err.format")
    if value == limited_of(d):
        return []
    if status != "signup":
        raise LeagueError("events.reg.err.settings_started")
    if value is not None and d.get("game") not in set(games):
        raise LeagueError("events.limited.err.game")
    if value == "draft" and d.get("format") in ELIMINATION:
        raise LeagueError("events.limited.err.draft_bracket")
    if value is not None and d.get("decklists"):
        raise LeagueError("events.limited.err.decks_registered", n=len(d["decklists"]))
    if value is None:
        d.pop("limited", None)
    else:
        d["limited"] = value
    return ["limited"]


def _order(ids: Sequence[int], key: str) -> list[int]:
    """``ids`` in an order drawn from ``key`` (the event's secret seed): SHA-256 of each id."""
    return sorted(ids, key=lambda u: hashlib.sha256(f"{key}:{int(u)}".encode()).hexdigest())


def make_pods(ids: Sequence[int], key: str, most: int = MOST) -> list[list[int]]:
    """The players split into pods of at most ``most`` (at least 2): as few pods as that allows,
    their sizes as even as can be with at most one pod of odd size (so the first round, paired
    inside the pods, gives at most the one bye an odd number of players needs), in an order drawn
    from ``key``.  LeagueError when fewer than 2 players, or ``most`` is below 2."""
    ids = list(dict.fromkeys(int(u) for u in ids))
    if len(ids) < 2:
        raise LeagueError("leagues.err.too_few", n=len(ids))
    most = min(MOST, int(most))
    if most < 2:
        raise LeagueError("events.limited.err.cannot_deal")
    pairs_per_pod = most // 2                        # whole pairs a pod holds
    n_pairs, odd = divmod(len(ids), 2)
    pods_n = max(1, -(-n_pairs // pairs_per_pod))
    # the odd player needs room in a pod that is not full
    if odd and n_pairs == pods_n * pairs_per_pod and 2 * pairs_per_pod + 1 > most:
        pods_n += 1
    sizes = [2 * (n_pairs // pods_n + (1 if i < n_pairs % pods_n else 0)) for i in range(pods_n)]
    if odd:
        sizes[sizes.index(min(sizes))] += 1
    order = _order(ids, f"{key}-pods")
    out, at = [], 0
    for size in sizes:
        out.append(order[at:at + size])
        at += size
    return [p for p in out if p]


def round_one(pods: Sequence[Sequence[int]], key: str) -> list[tuple[int, int | None]]:
    """The first round, paired inside each pod: each pod's players in an order drawn from
    ``key``, paired first with second, third with fourth…; an odd pod's last player has the bye
    (listed last)."""
    pairs: list[tuple[int, int | None]] = []
    bye: list[tuple[int, int | None]] = []
    for i, pod in enumerate(pods):
        order = _order(pod, f"{key}-round1-{i}")
        for j in range(0, len(order) - 1, 2):
            pairs.append((order[j], order[j + 1]))
        if len(order) % 2:
            bye.append((order[-1], None))
    return pairs + bye


def circle_order(pairs: Sequence[tuple[int, int | None]]) -> list[int]:
    """The players in the order whose round robin (:func:`host.leagues.round_robin`, the circle
    method) plays ``pairs`` as its first round: the bye's player first (paired with the added
    empty seat), then the first players of the pairs, then the second ones in reverse."""
    full = [(a, b) for a, b in pairs if b is not None]
    bye = [a for a, b in pairs if b is None]
    return bye + [a for a, _ in full] + [b for _, b in reversed(full)]   # type: ignore[misc]


def cube_plan(cube: int, seats: int) -> tuple[int, int] | None:
    """Packs a player and cards a pack for ``seats`` players dealt from a cube of ``cube`` cards
    (each card at most once): the most cards a player (3 packs of 15 at most, at least 5 cards a
    pack), and of as many cards, more packs (a draft passes left, then right); None when even one
    pack of 5 each is too many."""
    best: tuple[int, int] | None = None
    for packs in range(PACKS[1], PACKS[0] - 1, -1):
        size = min(SIZE[1], cube // max(1, seats * packs))
        if size >= SIZE[0] and (best is None or packs * size > best[0] * best[1]):
            best = (packs, size)
    return best


def most_per_pod(cube: int | None) -> int:
    """The most players a pod may hold when its pools come from a cube of ``cube`` cards (None:
    the set's declared boosters, which any number can open)."""
    if cube is None:
        return MOST
    return max(0, min(MOST, cube // SIZE[0]))


def pod_of(d: dict, user_id: int) -> int | None:
    """The index of the pod ``user_id`` plays in, or None."""
    for i, pod in enumerate(d.get("pods") or []):
        if int(user_id) in [int(u) for u in pod]:
            return i
    return None


def draft_of(d: dict, user_id: int) -> int | None:
    """The draft (id) that dealt ``user_id``'s pool, once it is open."""
    i = pod_of(d, user_id)
    if i is None:
        return None
    value = (d.get("limited_drafts") or {}).get(str(i))
    return int(value) if type(value) is int else None


def pods_to_open(d: dict) -> list[int]:
    """The pods whose draft is not open yet."""
    opened = d.get("limited_drafts") or {}
    return [i for i, _ in enumerate(d.get("pods") or []) if str(i) not in opened]


def register(d: dict, user_id: int, spec: Any, pool: Sequence[str], draft_id: int, deck_hash: str,
             now: float) -> dict | None:
    """A player's deck of their pool, locked for the event: stored as their decklist entry (kind
    ``limited``, with the pool).  None when they already have one (a deck is locked once)."""
    lists = d.setdefault("decklists", {})
    key = str(int(user_id))
    if key in lists:
        return None
    entry = {"spec": spec, "ready": None, "kind": KIND, "label": None, "hash": deck_hash, "at": now,
             "pool": [str(c) for c in pool], "draft": int(draft_id)}
    lists[key] = entry
    return entry


def missing_decks(d: dict, ids: Iterable[int]) -> list[int]:
    """Of ``ids``, the players without a locked deck."""
    lists = d.get("decklists") or {}
    return [int(u) for u in ids if str(int(u)) not in lists]


def options(d: dict, base: dict | None) -> dict | None:
    """A match's options in a limited event: ``base`` with the set's limited deck numbers
    (``deck_rules``); unchanged elsewhere."""
    if limited_of(d) is None:
        return base
    return {**(base or {}), "deck_rules": dict(d.get("limited_rules") or {})}


def meta(d: dict, seats: Sequence[int]) -> dict:
    """What a limited event's match adds to its ``meta``: the drafts that dealt each seat's pool
    (``limited``: ``{"draft", "drafts"}``), for the per-card figures; {} elsewhere."""
    if limited_of(d) is None:
        return {}
    drafts = [draft_of(d, u) for u in seats]
    first = next((x for x in drafts if x is not None), None)
    if first is None:
        return {}
    return {"limited": {"draft": first, "drafts": drafts, "league": True}}


__all__ = ["FORMATS", "KIND", "limited_of", "configure", "make_pods", "round_one", "circle_order", "cube_plan",
           "most_per_pod", "pod_of", "draft_of", "pods_to_open", "register", "missing_decks", "options", "meta"]
