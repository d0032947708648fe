"""A server's statistics as counters (issue 37): pure — what one finished game adds, and the
figures read back from the sums.

A game's public facts (:func:`host.stats.facts.match_facts`) become **increments** of counters
``(split, scope, key) → (n, score)``: ``n`` games (or matches, for the match figures) and
``score`` the wins of the side counted, a draw counting half.  Adding is all that ever happens,
so a game's statistics are written once, in one transaction, whatever is already stored, and the
sums are the same whatever order the games came in.

- **split** — the rules edition and the card set version the game was played with
  (``"4|-"``, ``"4|17"``): figures are never mixed across them.
- **scope** — which figures the game belongs to: ``all``, its season ``s<n>``, its league
  ``l<id>``; a practice match or one against the computer in ``…|p`` scopes only, left out unless
  asked for.
- **key** — what is counted:

  ``g:deck:<deck>`` games a deck played (``own`` for players' own decks) and its wins;
  ``g:vs:<deck>|<other>`` the same against one other deck (two-player games);
  ``g:id:<identity>`` an AVI, character, KING or avatar;
  ``m:deck:…``, ``m:vs:…``, ``m:id:…`` the same counted by **match**: a game outside a league is
  a match; a league pairing of several games is one match, counted when it is decided
  (:func:`pairing_increments`);
  ``card:<deck>:<card>`` the games in which a deck's player played the card publicly, and their
  wins (the same deck's games without it are ``g:deck`` minus these);
  ``first`` games with a known first player, and the first player's wins;
  ``len:<n>`` games of ``n`` public moves (the median is read from them);
  ``open:<order>:<placement>`` SQUARES: the first (order 1) or second player's first placement
  (``S3 c1``: the piece and the square, as the thread showed it), and that player's wins;
  ``u:<user>:deck:<deck>`` a player's games with a deck (``/profile``), and their wins;
  ``u:<user>:own:<hash>`` the same for one of their own decks, by the hash of its deck code
  (named only in that player's own view, from their saved decks).

>>> facts = {"game": "art_of_war", "edition": 3, "cards": None, "league": None, "practice": False,
...          "winners": [0], "first": 0, "length": 41, "season": 1,
...          "seats": [{"user": 1, "deck": "iron_wall", "identity": "king_iron", "played": ["archer", "king_iron"]},
...                    {"user": 2, "deck": "own", "identity": None, "played": ["soldier"]}]}
>>> inc = increments(facts)
>>> inc[("3|-", "all", "g:deck:iron_wall")], inc[("3|-", "s1", "card:own:soldier")]
((1, 1.0), (1, 0.0))
>>> inc[("3|-", "all", "m:vs:iron_wall|own")], inc[("3|-", "all", "first")]
((1, 1.0), (1, 1.0))
"""
from __future__ import annotations

from collections import defaultdict
from typing import Iterable

from data.intervals import MIN_CELL, wilson  # noqa: F401  (MIN_CELL: read here by cogs/stats.py)

OWN = "own"


def split_of(facts: dict) -> str:
    edition = facts.get("edition")
    cards = facts.get("cards")
    return f"{edition if edition is not None else '-'}|{cards if cards is not None else '-'}"


def scopes_of(facts: dict) -> list[str]:
    scopes = ["all"]
    if facts.get("season") is not None:
        scopes.append(f"s{int(facts['season'])}")
    if facts.get("league") is not None:
        scopes.append(f"l{int(facts['league'])}")
    if facts.get("practice"):
        scopes = [f"{s}|p" for s in scopes]
    return scopes


def score_of(facts: dict, seat: int) -> float:
    winners = facts.get("winners") or []
    return 0.5 if not winners else (1.0 if seat in winners else 0.0)


def _deck(seat: dict) -> str:
    deck = seat.get("deck")
    return OWN if deck in (None, OWN) or not isinstance(deck, str) else deck


def _add(out: dict, key: tuple, score: float) -> None:
    n, s = out.get(key, (0, 0.0))
    out[key] = (n + 1, s + score)


def increments(facts: dict) -> dict[tuple[str, str, str], tuple[int, float]]:
    """What one finished game adds: ``(split, scope, key) → (n, score)``."""
    out: dict[tuple[str, str, str], tuple[int, float]] = {}
    split = split_of(facts)
    seats = facts.get("seats") or []
    by_match = facts.get("league") is None        # a league game counts for its pairing instead
    for scope in scopes_of(facts):
        for s, seat in enumerate(seats):
            score = score_of(facts, s)
            keys = []
            if seat.get("deck") is not None:        # a game played with decks
                deck = _deck(seat)
                keys.append(f"g:deck:{deck}")
                if len(seats) == 2 and seats[1 - s].get("deck") is not None:
                    keys.append(f"g:vs:{deck}|{_deck(seats[1 - s])}")
            if seat.get("identity"):
                keys.append(f"g:id:{seat['identity']}")
            if by_match:
                keys += ["m:" + k[2:] for k in keys]
            if seat.get("deck") is not None:
                keys += [f"card:{deck}:{c}" for c in sorted(set(seat.get("played") or []))]
                if scope == "all" and seat.get("user") is not None:      # never a practice match
                    keys.append(f"u:{int(seat['user'])}:deck:{deck}")
                    if deck == OWN and seat.get("own_hash"):
                        keys.append(f"u:{int(seat['user'])}:own:{seat['own_hash']}")
            for k in keys:
                _add(out, (split, scope, k), score)
        first = facts.get("first")
        if isinstance(first, int) and 0 <= first < len(seats):
            _add(out, (split, scope, "first"), score_of(facts, first))
        _add(out, (split, scope, f"len:{int(facts.get('length') or 0)}"), 0.0)
        for s, placement in enumerate(facts.get("opening") or []):
            if placement and isinstance(first, int):
                _add(out, (split, scope, f"open:{1 if s == first else 2}:{placement}"), score_of(facts, s))
    return out


def pairing_increments(games: list[dict], result: dict) -> dict[tuple[str, str, str], tuple[int, float]]:
    """What a decided league pairing adds to the match figures: one match between its two
    players, with the decks of its first game, won as the pairing was (``result``: ``{"winner":
    user id or None for a draw}``)."""
    if not games:
        return {}
    first = games[0]
    seats = first.get("seats") or []
    if len(seats) != 2:
        return {}
    winner = result.get("winner")
    facts = dict(first, winners=[s for s, seat in enumerate(seats) if winner is not None
                                 and seat.get("user") == winner], league=first.get("league"))
    out: dict[tuple[str, str, str], tuple[int, float]] = {}
    split = split_of(first)
    for scope in scopes_of(facts):
        for s, seat in enumerate(seats):
            score = score_of(facts, s)
            keys = []
            if seat.get("deck") is not None and seats[1 - s].get("deck") is not None:
                deck = _deck(seat)
                keys += [f"m:deck:{deck}", f"m:vs:{deck}|{_deck(seats[1 - s])}"]
            if seat.get("identity"):
                keys.append(f"m:id:{seat['identity']}")
            for k in keys:
                _add(out, (split, scope, k), score)
    return out


# ---------------------------------------------------------------------------- reading the sums
def share(n: int, score: float) -> dict:
    """A share with its 95 % Wilson interval."""
    low, high = wilson(score, n)
    return {"n": int(n), "score": round(score, 1), "share": round(score / n, 3) if n else None,
            "ci95": [round(low, 3), round(high, 3)]}


def median_length(lengths: dict[int, int]) -> float | None:
    """The median of a histogram ``length → games`` (None without games).

    >>> median_length({10: 1, 20: 2, 40: 1}), median_length({7: 3})
    (20.0, 7.0)
    """
    total = sum(lengths.values())
    if not total:
        return None
    seen, lo, hi = 0, None, None
    for length in sorted(lengths):
        seen += lengths[length]
        if lo is None and seen >= (total + 1) // 2:
            lo = length
        if seen >= total // 2 + 1:
            hi = length
            break
    return (lo + hi) / 2 if total % 2 == 0 else float(lo)


def report(rows: Iterable[tuple[str, float, float]], *, matches: bool = True) -> dict:
    """The figures of one split and scope from its counters ``(key, n, score)``: ``decks``
    (by match, else by game), ``identities``, ``matchups`` (``{(deck, other): share}``),
    ``first``, ``median_length``, ``games``, ``cards`` (per deck and card: played and not played)."""
    sums: dict[str, tuple[int, float]] = {}
    for key, n, score in rows:
        a, b = sums.get(key, (0, 0.0))
        sums[key] = (a + int(n), b + float(score))
    prefix = "m:" if matches and any(k.startswith("m:deck:") for k in sums) else "g:"
    decks = {k[len(prefix) + 5:]: share(*v) for k, v in sums.items() if k.startswith(prefix + "deck:")}
    ids = {k[len(prefix) + 3:]: share(*v) for k, v in sums.items() if k.startswith(prefix + "id:")}
    matchups = {}
    for k, v in sums.items():
        if k.startswith(prefix + "vs:"):
            a, _, b = k[len(prefix) + 3:].partition("|")
            matchups[(a, b)] = share(*v)
    game_decks = {k[7:]: v for k, v in sums.items() if k.startswith("g:deck:")}
    cards: dict[str, dict[str, dict]] = defaultdict(dict)
    for k, (n, score) in sums.items():
        if not k.startswith("card:"):
            continue
        deck, _, card = k[5:].partition(":")
        total_n, total_score = game_decks.get(deck, (0, 0.0))
        cards[deck][card] = {"played": share(n, score),
                             "not_played": share(max(0, total_n - n), max(0.0, total_score - score))}
    lengths = {int(k[4:]): n for k, (n, _s) in sums.items() if k.startswith("len:") and k[4:].isdigit()}
    openings = {k[5:]: share(*v) for k, v in sums.items() if k.startswith("open:")}
    first = sums.get("first", (0, 0.0))
    return {"by": "match" if prefix == "m:" else "game", "decks": decks, "identities": ids, "matchups": matchups,
            "first": share(*first), "median_length": median_length(lengths), "games": sum(lengths.values()),
            "cards": {d: dict(c) for d, c in cards.items()}, "openings": openings}


def user_decks(rows: Iterable[tuple[str, float, float]], user_id: int) -> dict[str, dict]:
    """A player's decks (``/profile``): deck → share, most played first, from the
    ``u:<user>:deck:`` counters; their own decks also one by one as ``own:<hash>``."""
    sums: dict[str, tuple[int, float]] = {}
    for key, n, score in rows:
        for prefix, label in ((f"u:{int(user_id)}:deck:", ""), (f"u:{int(user_id)}:own:", "own:")):
            if key.startswith(prefix):
                name = label + key[len(prefix):]
                a, b = sums.get(name, (0, 0.0))
                sums[name] = (a + int(n), b + float(score))
    return {d: share(*v) for d, v in sorted(sums.items(), key=lambda kv: -kv[1][0])}


__all__ = ["increments", "pairing_increments", "report", "user_decks", "share", "median_length",
           "split_of", "scopes_of", "OWN", "MIN_CELL"]
