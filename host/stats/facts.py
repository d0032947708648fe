"""The public facts of one finished match (issue 37): who played which deck, what the deck was
known by, which cards each seat played publicly, who moved first, how long the match was and
who won — pure, from the stored record and its command log, knowing no Discord and no store.

    facts = match_facts(engine, rec, await store.commands(rec.id))

Everything a seat played is read from the **public** steps everyone saw
(:func:`host.replay_steps.public_steps`) and the start position's public view, never from a
seat's own view or the engine state (the per-game rules: :mod:`host.stats.played`): a second
history whose hidden cards differ but whose public views are the same gives the same facts
(``tests/test_stats_facts.py``).  The decks come from the match's options (what ``/play`` said
in public: a ready-made deck by name, anything else as a player's own deck) and, for a late
joiner, from its ``__join__`` entry — only ever as a ready-made id or ``"own"``, never a list.

The result (JSON-able; :mod:`host.stats.aggregate` adds it up)::

    {"v": 1, "game", "match", "guild", "finished_at", "edition", "cards", "league", "pairing",
     "practice", "rated", "winners", "reason", "first", "length",
     "seats": [{"user", "deck", "identity", "played": [card ids, sorted]}],
     "opening": [first placement per seat, SQUARES only; [] in the card games]}
"""
from __future__ import annotations

import re
from typing import Any, Iterable

from data.store import MatchRecord
from host.replay import JOIN, _initial_state
from host.replay_steps import public_steps, step_view
from host.stats.played import identities, opening, played_cards

VERSION = 1
OWN = "own"          # a player's own deck (a saved deck, a deck code): never which cards it holds


def match_facts(engine: Any, rec: MatchRecord, commands: Iterable[Any]) -> dict:
    """The public facts of ``rec`` (a finished match) played by ``engine`` (the game object that
    played it: ``host.engines.engine_for``), from ``commands``, its stored log in order (objects
    with ``seat`` and ``command``, as ``store.commands(match_id)`` returns them)."""
    commands = list(commands)
    steps = public_steps(engine, rec, commands, views="lazy", words=False)
    start_view = engine.view(_initial_state(engine, rec), None)
    return facts_of(engine, rec, steps, start_view, joins=joined(commands))


def facts_of(engine: Any, rec: MatchRecord, steps: list[dict], start_view: dict,
             joins: Iterable[tuple[int, str]] = ()) -> dict:
    """:func:`match_facts` from the match's public ``steps`` (with their views) and the start
    position's public view; ``joins``: the late joins of the log, ``(seat, deck token or "")``
    (:func:`joined`).  Nothing else of the match is read."""
    meta = rec.meta or {}
    n = len(rec.seats)
    def newest_first():
        for step in reversed(steps):
            view = step_view(step)
            if view is not None:
                yield view
        yield start_view
    final = next(newest_first())
    result = rec.result or (final.get("outcome") if isinstance(final.get("outcome"), dict) else None) or {}
    decks = seat_decks(engine, rec.options, n, joins)
    ids = identities(rec.game, newest_first(), n, newest_first=True)
    try:
        played = played_cards(rec.game, start_view, steps, n)
    except ValueError:      # a game without rules of "played" (a plugin game): no card figures
        played = [[] for _ in range(n)]
    first = start_view.get("first", start_view.get("leader"))      # Avalon's Sanctuary: the first leader
    ai = meta.get("ai")
    return {
        "v": VERSION,
        "game": rec.game,
        "match": rec.id,
        "guild": rec.guild_id,
        "finished_at": rec.updated_at,
        "edition": meta.get("edition"),
        "cards": (meta.get("cards") or {}).get("id") if isinstance(meta.get("cards"), dict) else None,
        "league": meta.get("league"),
        "pairing": meta.get("pairing"),
        # against the computer (a practice match, a seat the computer plays or took over): its
        # figures are kept apart (host.stats.aggregate)
        "practice": bool(meta.get("practice")) or (isinstance(ai, dict) and bool(ai)),
        "rated": meta.get("rated", True) is not False,
        "winners": [int(w) for w in (result.get("winners") or [])],
        "reason": str(result.get("reason") or ""),
        "first": first if type(first) is int and 0 <= first < n else None,
        "length": len(steps),
        "seats": [{"user": rec.seats[i], "deck": decks[i], "identity": ids[i], "played": played[i]}
                  for i in range(n)],
        "opening": opening(steps, n) if rec.game == "squares" else [],
    }


def joined(commands: Iterable[Any]) -> list[tuple[int, str]]:
    """The late joins of a log, in order: ``(seat, deck token)`` — the ready-made id or deck code
    the joiner chose, ``""`` when they chose none."""
    out = []
    for c in commands:
        text = str(c.command)
        if text == JOIN or text.startswith(JOIN + " "):
            out.append((int(c.seat), text[len(JOIN):].strip()))
    return out


def seat_decks(engine: Any, options: dict | None, seats: int,
               joins: Iterable[tuple[int, str]] = ()) -> list[str | None]:
    """Each seat's deck as the statistics name it: a ready-made deck id (one of
    ``engine.decks.ready()``), ``"own"`` for anything else (a saved deck, a deck code), or None
    in a game without decks.  From ``options["decks"]`` (per seat: a ready-made id, a code or a
    spec); a seat that chose none played its default ready-made deck (number ``seat`` mod the
    number of ready-made decks, as :func:`host.replay._fill_decks` and every engine decide).  A
    late joiner's deck is its ``__join__`` entry's; a defeated player who rejoined without
    naming a deck kept theirs, one who named one is counted with the deck they ended with."""
    api = getattr(engine, "decks", None)
    if api is None:
        return [None] * seats
    ready = list(api.ready())
    chosen = (options or {}).get("decks")
    if isinstance(chosen, str):          # "cipher/fox", as the engines read it
        chosen = [v for v in re.split(r"[/+\s]+", chosen.strip()) if v]
    if not isinstance(chosen, (list, tuple)):
        chosen = []
    out = [_deck_id(chosen[i] if i < len(chosen) else None, ready, i) for i in range(seats)]
    for seat, token in joins:
        if token and 0 <= seat < seats:
            out[seat] = _deck_id(token, ready, seat)
    return out


def _deck_id(item: Any, ready: list[str], seat: int) -> str | None:
    if item is None:
        return ready[seat % len(ready)] if ready else None
    return item if isinstance(item, str) and item in ready else OWN
