"""Elimination brackets for tournaments, pure and synchronous: no I/O, deterministic, JSON-able data.

A bracket is a fixed *structure* built once from the seeded entrants (:func:`build`) plus a dict
of *results* ``{match_id: {"winner": user_id, "score": "2–1"}}``.  Everything else — who plays in
which match, who is out, the placings — is derived from structure + results on every call
(:func:`state`), so an organiser's correction of an earlier result recomputes all that follows.
A later result that no longer fits (its winner is not one of the match's players now, or its
optional ``"loser"`` is not the other player) is reported as *invalid* and ignored, never kept
silently; so is a result stored for a match that cannot be played (still waiting, or a bye).

The rules implemented:

* **Seeding.**  Entrants are seeded best first (:func:`seeding`: by the Swiss standings, by rating,
  or at random from a stored seed).  The bracket has the next power of two of places; seeds are
  placed in the standard order, so that the best seeds meet as late as possible: for eight,
  1 v 8, 4 v 5, 2 v 7, 3 v 6 (:func:`seed_order`) — seed ``s`` meets seed ``size + 1 - s`` in the
  first round and the top two can only meet in the final.
* **Byes.**  The places above the number of entrants are byes, and they fall to the top seeds:
  with 6 entrants in a bracket of 8, seeds 1 and 2 meet a bye.  A first-round match against a bye
  is decided at once without a game (status ``"bye"``): the seed advances.
* **Single elimination.**  One loss and a player is out.  Winners' round ``r`` has ``size / 2**r``
  matches; the last one is the final.  Placings: the champion, the finalist, then the players
  who went out in each earlier round share a place (3rd–4th, 5th–8th, …).
* **Double elimination.**  A player is out after two losses.  A first loss (in the winners'
  bracket) sends the player to the losers' bracket; a loss there eliminates.  The winners'-bracket
  champion meets the losers'-bracket champion in the grand final ``GF``.  When the player coming
  from the losers' bracket wins ``GF``, both have lost once, so — if the event uses resets — a
  reset match ``GF2`` between the same two decides; otherwise (or when the winners'-bracket
  champion wins ``GF``) ``GF`` decides.  Placings: the champion, the runner-up, then by the
  losers' round a player went out in (the later, the better; players out in the same round
  share the place).
* **The losers' bracket** (``size = 2**k``, rounds ``L1 … L(2k-2)``).  ``L1`` pairs the losers of
  the winners' first round in order (losers of ``W1-1`` and ``W1-2``, of ``W1-3`` and ``W1-4``, …).
  After that the rounds alternate: an even round ``L(2d)`` is a *drop-in* round, where each
  survivor of ``L(2d-1)`` meets a loser of winners' round ``d + 1`` coming down; an odd round
  ``L(2d+1)`` is *internal*, pairing the survivors of ``L(2d)``.  ``L(2k-2)``, the losers' final,
  sends its winner to the grand final.
* **Drop-in orders.**  The losers come down in an order chosen per bracket size and drop-in
  round (:data:`DROP_ORDERS`, :func:`cross`), so that a player dropping in meets survivors from
  the far side of the bracket, as seldom as can be someone they already played.  The orders are
  those of brackets-manager.js (``natural``, ``reverse``, ``half_shift``, ``reverse_half_shift``,
  ``pair_flip``), picked for the fewest losers'-bracket rematches: with a random winner in every
  match, a rematch (two players meeting in the losers' bracket who met earlier) happens
  0.75 / 0.73 / 0.70 times per event of 16 / 32 / 64 players, against 1.03 / 0.82 / 1.05 with
  that library's own choice, and by the end of every losers' round no more often than with it
  (tests/test_bracket_dropins.py).  A bracket keeps the orders it was built with: its structure
  is stored when it is built, so a change of orders only reaches new brackets.
* **Byes in the losers' bracket.**  The loser of a first-round bye match is nobody: a losers'
  match with an empty side is a walkover (status ``"bye"``) for the other side, and a match
  between two empty sides sends nobody on, so the player it feeds gets the walkover instead.
  Walkovers count as neither a win nor a loss.

Sizes: 2..128 entrants in single elimination, 3..64 in double elimination.

Match ids are stable strings: ``"W{round}-{n}"`` (winners' bracket), ``"L{round}-{n}"`` (losers'
bracket), ``"GF"`` and ``"GF2"``.  Each match has two slots, each ``{"seed": k}`` (an entrant by
1-based seed), ``{"winner": match_id}``, ``{"loser": match_id}`` or ``{"bye": True}``.  The order of
play (:func:`next_matches`, ``state()["ready"]``) is W1, L1, W2, L2, W3, L3, L4, W4, L5, L6, …, GF,
GF2 — each round after every round it depends on — and top to bottom within a round.
"""
from __future__ import annotations

import random
from typing import Any

KINDS = ("single", "double")
SIZES = {"single": (2, 128), "double": (3, 64)}
GRAND_FINAL = "GF"
RESET = "GF2"

_EMPTY: Any = object()     # a side that is definitively nobody (a bye, or the loser of a bye match)


# -- seeding --------------------------------------------------------------------------------------

def seed_order(size: int) -> list[int]:
    """The 1-based seeds in bracket order for a power-of-two ``size``; adjacent pairs meet in the
    first round (8 → [1, 8, 4, 5, 2, 7, 3, 6]).  Built by doubling: every seed ``s`` of the
    bracket of half the size is followed by its first-round opponent ``size + 1 - s``."""
    if size < 1 or size & (size - 1):
        raise ValueError(f"a bracket size must be a power of two, not {size}")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for top in order for s in (top, total - top)]
    return order


def seeding(entrants: list[int], *, by: str, ranked: list[int] | None = None,
            ratings: dict[int, float] | None = None, seed: str = "") -> list[int]:
    """The entrants in seeded order, best first.

    ``by="standings"``: in the order of ``ranked`` (the Swiss standings, best first), filtered to
    the entrants; entrants missing from ``ranked`` follow in ``entrants`` order.
    ``by="rating"``: higher ``ratings`` first, ties (and unrated entrants, who come last) in
    ``entrants`` order.  ``by="random"``: shuffled with ``random.Random(seed)`` — the same seed
    gives the same order."""
    people = list(dict.fromkeys(entrants))
    if by == "standings":
        if ranked is None:
            raise ValueError("seeding by standings needs the ranked list")
        inside = set(people)
        first = [u for u in dict.fromkeys(ranked) if u in inside]
        placed = set(first)
        return first + [u for u in people if u not in placed]
    if by == "rating":
        if ratings is None:
            raise ValueError("seeding by rating needs the ratings")
        return sorted(people, key=lambda u: (u not in ratings, -float(ratings.get(u, 0.0))))
    if by == "random":
        random.Random(seed).shuffle(people)
        return people
    raise ValueError(f"unknown seeding {by!r}: standings, rating or random")


# -- structure ------------------------------------------------------------------------------------

def build(seeds: list[int], *, kind: str = "single", reset: bool = True) -> dict:
    """The bracket's structure for ``seeds`` (user ids, best first): ``{"kind", "reset", "size",
    "seeds", "matches": {match_id: {"slots": [slot, slot]}}}``.  ``reset`` only matters in double
    elimination (a single elimination stores False).  ValueError for an unknown kind, a repeated
    entrant or a number of entrants outside 2..128 (single) or 3..64 (double)."""
    if kind not in KINDS:
        raise ValueError(f"unknown bracket kind {kind!r}: single or double")
    low, high = SIZES[kind]
    count = len(seeds)
    if not low <= count <= high:
        raise ValueError(f"a {kind} elimination bracket takes {low} to {high} entrants, not {count}")
    if len(set(seeds)) != count:
        raise ValueError("an entrant is seeded twice")
    size = 1 << (count - 1).bit_length()
    last = size.bit_length() - 1            # the number of winners' rounds
    order = seed_order(size)
    matches: dict[str, dict] = {}
    for i in range(size // 2):
        matches[f"W1-{i + 1}"] = {"slots": [_seed_slot(order[2 * i], count), _seed_slot(order[2 * i + 1], count)]}
    for r in range(2, last + 1):
        for i in range(size >> r):
            matches[f"W{r}-{i + 1}"] = {"slots": [{"winner": f"W{r - 1}-{2 * i + 1}"},
                                                  {"winner": f"W{r - 1}-{2 * i + 2}"}]}
    double = kind == "double"
    if double:
        matches.update(_losers(size))
        final = [{"winner": f"W{last}-1"}, {"winner": f"L{2 * last - 2}-1"}]
        matches[GRAND_FINAL] = {"slots": final}
        if reset:
            matches[RESET] = {"slots": [dict(slot) for slot in final]}
    return {"kind": kind, "reset": bool(reset) and double, "size": size, "seeds": list(seeds), "matches": matches}


def _seed_slot(seed: int, count: int) -> dict:
    return {"seed": seed} if seed <= count else {"bye": True}


def _natural(ids: list[str]) -> list[str]:
    return list(ids)


def _reverse(ids: list[str]) -> list[str]:
    return ids[::-1]


def _half_shift(ids: list[str]) -> list[str]:
    half = len(ids) // 2
    return ids[half:] + ids[:half]


def _reverse_half_shift(ids: list[str]) -> list[str]:
    half = len(ids) // 2
    return ids[:half][::-1] + ids[half:][::-1]


def _pair_flip(ids: list[str]) -> list[str]:
    return [ids[i + k] for i in range(0, len(ids) - 1, 2) for k in (1, 0)] + ids[len(ids) & ~1:]


# The orderings by their names in brackets-manager.js (src/ordering.ts): with eight matches
# 1..8, natural 1 2 3 4 5 6 7 8, reverse 8 7 6 5 4 3 2 1, half_shift 5 6 7 8 1 2 3 4,
# reverse_half_shift 4 3 2 1 8 7 6 5, pair_flip 2 1 4 3 6 5 8 7.
ORDERINGS = {"natural": _natural, "reverse": _reverse, "half_shift": _half_shift,
             "reverse_half_shift": _reverse_half_shift, "pair_flip": _pair_flip}

# Per bracket size, the ordering of each drop-in round in turn (L2, L4, …, the losers' final
# last): of all the orders that, at each level of the bracket, swap the two halves of every part
# or of none (2**b orders for 2**b matches; the named ones are five of them), the combination with
# the fewest expected losers'-bracket rematches when every match has a random winner; ties go to
# the name listed first in ORDERINGS.  brackets-manager.js's defaultMinorOrdering for the same
# rounds: 8 reverse; 16 reverse_half_shift, reverse; 32 reverse, half_shift, natural; 64 reverse,
# half_shift, reverse, natural (its first losers' round is natural, as here, and it leaves the
# losers' final, one match, unordered).
DROP_ORDERS: dict[int, tuple[str, ...]] = {
    4: ("natural",),
    8: ("reverse", "natural"),
    16: ("reverse", "natural", "natural"),
    32: ("reverse_half_shift", "reverse", "natural", "natural"),
    64: ("half_shift", "reverse", "reverse_half_shift", "reverse", "natural"),
}


def cross(ids: list[str], drop: int) -> list[str]:
    """The winners'-round matches ``ids`` (top to bottom) in the order their losers drop into the
    ``drop``-th drop-in round (1 = the losers of W2 into L2): the ordering :data:`DROP_ORDERS`
    names for the bracket's size (``len(ids) * 2**(drop + 1)``) and round."""
    size = len(ids) << (drop + 1)
    return ORDERINGS[DROP_ORDERS[size][drop - 1]](list(ids))


def _losers(size: int) -> dict[str, dict]:
    """The losers' bracket of a double elimination of ``size`` places (module docstring): ``L1``
    pairs the losers of the winners' first round in order, each drop-in round takes its losers in
    the order :func:`cross` gives, each internal round pairs neighbours."""
    last = size.bit_length() - 1
    out: dict[str, dict] = {}
    for i in range(size // 4):
        out[f"L1-{i + 1}"] = {"slots": [{"loser": f"W1-{2 * i + 1}"}, {"loser": f"W1-{2 * i + 2}"}]}
    for d in range(1, last):
        count = size >> (d + 1)
        dropped = cross([f"W{d + 1}-{i + 1}" for i in range(count)], d)
        for i in range(count):
            out[f"L{2 * d}-{i + 1}"] = {"slots": [{"loser": dropped[i]}, {"winner": f"L{2 * d - 1}-{i + 1}"}]}
        if d < last - 1:
            for i in range(count // 2):
                out[f"L{2 * d + 1}-{i + 1}"] = {"slots": [{"winner": f"L{2 * d}-{2 * i + 1}"},
                                                          {"winner": f"L{2 * d}-{2 * i + 2}"}]}
    return out


def _parse(match_id: str) -> tuple[str, int, int]:
    """``(section key, round, number)`` of a match id: W3-2 → ("winners", 3, 2)."""
    if match_id == GRAND_FINAL:
        return "final", 1, 1
    if match_id == RESET:
        return "final", 2, 1
    head, _, number = match_id.partition("-")
    return ("winners" if head[0] == "W" else "losers"), int(head[1:]), int(number)


def _play_key(match_id: str) -> tuple[int, int, int, int]:
    """The order of play: W1, L1, W2, L2, W3, L3, L4, W4, L5, L6, …, GF, GF2."""
    key, r, n = _parse(match_id)
    if key == "winners":
        return r, 0, 0, n
    if key == "losers":
        return (1 if r == 1 else (r + 3) // 2), 1, r, n
    return 1 << 10, r, 0, 0


def _ordered(structure: dict) -> list[str]:
    return sorted(structure["matches"], key=_play_key)


# -- state ----------------------------------------------------------------------------------------

def _resolve(slot: dict, seeds: list[int], winners: dict[str, Any], losers: dict[str, Any]) -> Any:
    """A slot's player: a user id, _EMPTY (nobody, for good) or None (not known yet)."""
    if "seed" in slot:
        return seeds[slot["seed"] - 1]
    if "winner" in slot:
        return winners.get(slot["winner"])
    if "loser" in slot:
        return losers.get(slot["loser"])
    return _EMPTY


def _fits(result: Any, a: int, b: int) -> bool:
    """Whether a stored result fits a match between ``a`` and ``b`` now."""
    if not isinstance(result, dict) or result.get("winner") not in (a, b):
        return False
    loser = result.get("loser")
    return loser is None or loser == (b if result["winner"] == a else a)


def _user(player: Any) -> int | None:
    return None if player is _EMPTY else player


def state(structure: dict, results: dict[str, dict]) -> dict:
    """Everything derived from the structure and the results::

        {"matches": {match_id: {"players": [a, b], "status": "done"|"ready"|"waiting"|"bye",
                                "winner": id|None, "loser": id|None, "score": str|None}},
         "ready": [match ids playable now, in order of play],
         "invalid": [match ids whose stored result does not fit; ignored],
         "champion": id|None, "placings": [[ids], ...]}

    A player is None while not known yet (and for a bye).  ``"bye"``: decided without a game (a
    walkover; its winner may be None when both sides are empty); ``GF2`` is also ``"bye"``, with no
    players, once ``GF`` was won by the winners'-bracket champion.  ``placings`` are best first:
    the players still in share the first group (only the champion once the event is over), then
    the players out, grouped by the round they went out in, later first; each group in seed order.
    Results for ids that are not in the bracket are reported invalid too, after the others."""
    seeds = structure["seeds"]
    matches = structure["matches"]
    winners: dict[str, Any] = {}
    losers: dict[str, Any] = {}
    out: dict[str, dict] = {}
    invalid: list[str] = []
    for mid in _ordered(structure):
        a, b = (_resolve(slot, seeds, winners, losers) for slot in matches[mid]["slots"])
        if mid == RESET:
            final = out[GRAND_FINAL]
            if final["status"] != "done":
                a = b = None
            elif final["winner"] == final["players"][0]:
                a = b = _EMPTY                 # the winners'-bracket champion won GF: no reset
        result = results.get(mid)
        entry: dict[str, Any] = {"players": [_user(a), _user(b)], "status": "waiting",
                                 "winner": None, "loser": None, "score": None}
        if a is None or b is None:
            pass
        elif a is _EMPTY or b is _EMPTY:
            entry["status"] = "bye"
            winners[mid] = b if a is _EMPTY else a
            losers[mid] = _EMPTY
            entry["winner"] = _user(winners[mid])
        elif _fits(result, a, b):
            winner = result["winner"]
            winners[mid], losers[mid] = winner, (b if winner == a else a)
            entry.update(status="done", winner=winner, loser=losers[mid], score=result.get("score"))
        else:
            entry["status"] = "ready"
        if result is not None and entry["status"] != "done":
            invalid.append(mid)
        out[mid] = entry
    invalid += sorted(mid for mid in results if mid not in matches)
    champion = _champion(structure, out)
    return {"matches": out, "ready": [mid for mid, m in out.items() if m["status"] == "ready"],
            "invalid": invalid, "champion": champion, "placings": _placings(structure, out, champion)}


def _champion(structure: dict, out: dict[str, dict]) -> int | None:
    if structure["kind"] == "single":
        last = structure["size"].bit_length() - 1
        return out[f"W{last}-1"]["winner"]
    final = out[GRAND_FINAL]
    if final["status"] != "done":
        return None
    if final["winner"] == final["players"][0] or not structure["reset"]:
        return final["winner"]
    return out[RESET]["winner"] if out[RESET]["status"] == "done" else None


def _placings(structure: dict, out: dict[str, dict], champion: int | None) -> list[list[int]]:
    """Placings best first (see :func:`state`)."""
    single = structure["kind"] == "single"
    out_in: dict[int, tuple[int, int]] = {}     # player -> (section rank, round) of the loss that put them out
    for mid, m in out.items():
        if m["status"] != "done":
            continue
        key, r, _ = _parse(mid)
        if single or key == "losers":
            out_in[m["loser"]] = (0, r)
        elif key == "final":
            last_game = mid == RESET or not structure["reset"] or m["winner"] == m["players"][0]
            if last_game:
                out_in[m["loser"]] = (1, r)
    order = {uid: i for i, uid in enumerate(structure["seeds"])}
    alive = [champion] if champion is not None else [u for u in structure["seeds"] if u not in out_in]
    groups: dict[tuple[int, int], list[int]] = {}
    for uid, when in out_in.items():
        groups.setdefault(when, []).append(uid)
    ranked = [sorted(groups[when], key=order.__getitem__) for when in sorted(groups, reverse=True)]
    return [group for group in [alive, *ranked] if group]


def next_matches(structure: dict, results: dict[str, dict]) -> list[str]:
    """The matches playable now, in order of play (``state()["ready"]``)."""
    return state(structure, results)["ready"]


# -- display --------------------------------------------------------------------------------------

def rounds(structure: dict) -> list[dict]:
    """Sections and rounds for display: ``[{"key": "winners"|"losers"|"final", "rounds": [[match
    ids top to bottom], ...]}]`` — winners, then (double elimination) losers and the final
    (``[["GF"], ["GF2"]]``, without GF2 when the event has no reset)."""
    found: dict[str, dict[int, list[tuple[int, str]]]] = {}
    for mid in structure["matches"]:
        key, r, n = _parse(mid)
        found.setdefault(key, {}).setdefault(r, []).append((n, mid))
    return [{"key": key, "rounds": [[mid for _, mid in sorted(found[key][r])] for r in sorted(found[key])]}
            for key in ("winners", "losers", "final") if key in found]


def view(structure: dict, results: dict[str, dict], names: dict[int, str], titles: dict[str, str]) -> dict:
    """The JSON-able input of the bracket picture::

        {"kind": "single"|"double",
         "sections": [{"key": "winners"|"losers"|"final", "title": titles[key],
                       "rounds": [{"title": str, "matches": [
                           {"id": "W1-1", "status": "done"|"ready"|"waiting"|"bye",
                            "slots": [{"name": str|None, "seed": int|None, "won": bool, "score": str|None},
                                      {...}]}]}]}]}

    Round titles come from ``titles``: ``titles["round"].format(n=r)``, except the last two
    winners' rounds of a single elimination (``"final"``, ``"semifinal"``) and the final section
    (``"grand_final"``, ``"reset"``).  A name is None when the player is not known yet or for a bye
    (the renderer prints its own words for those); ``won`` marks the winner (of a game or a
    walkover); each slot's score is the games that player won ("2" and "1" for a 2–1).  The reset round is left out
    once it is known not to be played."""
    st = state(structure, results)["matches"]
    seed_of = {uid: i + 1 for i, uid in enumerate(structure["seeds"])}
    single = structure["kind"] == "single"
    sections = []
    for section in rounds(structure):
        key, rows = section["key"], []
        total = len(section["rounds"])
        for r, ids in enumerate(section["rounds"], 1):
            if key == "final":
                if ids[0] == RESET and st[RESET]["status"] == "bye":
                    continue
                title = titles["grand_final"] if ids[0] == GRAND_FINAL else titles["reset"]
            elif single and r == total:
                title = titles["final"]
            elif single and r == total - 1:
                title = titles["semifinal"]
            else:
                title = titles["round"].format(n=r)
            rows.append({"title": title, "matches": [_view_match(mid, st[mid], names, seed_of) for mid in ids]})
        sections.append({"key": key, "title": titles[key], "rounds": rows})
    return {"kind": structure["kind"], "sections": sections}


def _split_score(score: Any) -> tuple[str, str] | None:
    """A result's game score ("2–1", winner first; a third figure counts draws) as the games
    each side won: ("2", "1"); None when it is not such a score."""
    parts = [p.strip() for p in str(score or "").replace("-", "–").split("–")]
    if len(parts) < 2 or not all(p.isdigit() for p in parts[:2]):
        return None
    return parts[0], parts[1]


def _view_match(mid: str, m: dict, names: dict[int, str], seed_of: dict[int, int]) -> dict:
    """One match of the picture: each slot's score is the games that player won (a bracket shows
    "2" beside the winner and "1" beside the loser); a score that is not a game score stays whole
    on the winner's slot."""
    slots = []
    split = _split_score(m["score"]) if m["status"] == "done" else None
    for uid in m["players"]:
        won = uid is not None and uid == m["winner"]
        if split is not None and uid is not None:
            score: str | None = split[0] if won else split[1]
        else:
            score = m["score"] if won else None
        slots.append({"name": None if uid is None else names.get(uid, str(uid)), "seed": seed_of.get(uid),
                      "won": won, "score": score})
    return {"id": mid, "status": m["status"], "slots": slots}
