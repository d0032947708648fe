"""The public facts of one finished match (issue 37): who played which deck, what the deck was
known by, which cards each seat played publicly, who moved first, how long the match was and
who won — pure, from the stored record and its command log, knowing no Discord and no store.

    facts = match_facts(engine, rec, await store.commands(rec.id))

Everything a seat played is read from the **public** steps everyone saw
(:func:`host.replay_steps.public_steps`; here :func:`lazy_steps`) and the start position's
public view, never from a seat's own view or the engine state (the per-game rules:
:mod:`host.stats.played`; Avalon's Sanctuary's only asks a step's state whether its last battle
changed, so as to draw no view in vain): a second
history whose hidden cards differ but whose public views are the same gives the same facts
(``tests/test_stats_facts.py``).  The decks come from the match's options (what ``/play`` said
in public: a ready-made deck by name, anything else as a player's own deck) and, for a late
joiner or a rejoiner who named a deck, from its ``__join__`` entry — only ever as a ready-made id
or ``"own"``, never a list.

The facts are two parts (issue 46): what only the **replay** of the log says (who won, the first
player, the length, the opening, each seat's identity and cards played: :func:`replayed`) and
what the **record** says (the match, its split and scope, each seat's player and deck:
:func:`assemble`).  A rebuild (:mod:`host.stats.rebuild`) takes the first part from the facts
stored when the match was counted, if they are of this :data:`VERSION`, and the second from the
record again; :func:`counted` is what the statistics store, both ways the same.

The result (JSON-able; :mod:`host.stats.aggregate` adds it up)::

    {"v": 1, "game", "match", "guild", "finished_at", "edition", "cards", "league", "pairing",
     "practice", "rated", "winners", "reason", "first", "length",
     "seats": [{"user", "deck", "identity", "played": [card ids, sorted]}],
     "opening": [first placement per seat, SQUARES only; [] in the card games]}

and as stored (:func:`counted`): with ``"names"`` and, on a seat that played a saved deck of its
own, its ``"own_hash"``; the statistics add the ``"season"`` it was counted in.
"""
from __future__ import annotations

import hashlib
import re
from typing import Any, Iterable

from data.store import MatchRecord
from host.replay import JOIN, _deck_of_token, _initial_state
from host.replay_steps import history, step_view, steps_of
from host.stats.played import identities, opening, played_cards

#: what the replay of a log says (:func:`replayed`) — raise it whenever that changes (a rule of
#: "played", the identities, the length, an engine's public steps…): a rebuild then replays every
#: stored match again instead of reusing the facts stored with an older version
VERSION = 1
OWN = "own"          # a player's own deck (a saved deck, a deck code): never which cards it holds


def match_facts(engine: Any, rec: MatchRecord, commands: Iterable[Any]) -> dict:
    """The public facts of ``rec`` (a finished match) played by ``engine`` (the game object that
    played it: ``host.engines.engine_for``), from ``commands``, its stored log in order (objects
    with ``seat`` and ``command``, as ``store.commands(match_id)`` returns them)."""
    commands = list(commands)
    start = _initial_state(engine, rec)
    start_view = engine.view(start, None)        # states are never changed in place: drawn first
    return facts_of(engine, rec, lazy_steps(engine, rec, commands, start), start_view, joins=joined(commands))


def counted(engine: Any, rec: MatchRecord, commands: Iterable[Any]) -> dict:
    """The facts as the statistics count and store them: :func:`match_facts` with the players'
    names (as every public message of the match showed them) and each own deck's hash
    (:func:`with_record`)."""
    commands = list(commands)
    return with_record(engine, rec, match_facts(engine, rec, commands), joined(commands))


def lazy_steps(engine: Any, rec: MatchRecord, commands: Iterable[Any], start: Any) -> list[dict]:
    """The public steps of the log from the state ``start``, as
    :func:`host.replay_steps.public_steps` gives them with ``views="lazy", words=False`` (the
    same ``seq``, ``seat``, ``name``, ``command``, released at the same moments, each with its
    ``view_of``; ``tests/test_stats_rebuild.py`` compares them) — and each with ``state``, the
    engine state its view is drawn from, so that a rule of "played" can tell that a part of the
    public view cannot have changed without drawing it (:mod:`host.stats.played`)."""
    return steps_of(engine, rec, history(engine, rec, commands, start), views="lazy")


def facts_of(engine: Any, rec: MatchRecord, steps: list[dict], start_view: dict,
             joins: Iterable[tuple[int, str]] = ()) -> dict:
    """:func:`match_facts` from the match's public ``steps`` (with their views) and the start
    position's public view; ``joins``: the late joins of the log, ``(seat, deck token or "")``
    (:func:`joined`).  Nothing else of the match is read."""
    return assemble(engine, rec, replayed(rec, steps, start_view), joins)


def replayed(rec: MatchRecord, steps: list[dict], start_view: dict) -> dict:
    """What only the replay says: ``winners``, ``reason``, ``first``, ``length``, ``opening`` and
    per seat its ``identities`` and the cards it ``played``."""
    n = len(rec.seats)

    def newest_first():
        for step in reversed(steps):
            view = step_view(step)
            if view is not None:
                yield view
        yield start_view
    result = rec.result
    if not result:          # the engine's outcome on the last public view (only drawn then)
        final = next(newest_first())
        result = (final.get("outcome") if isinstance(final.get("outcome"), dict) else None) or {}
    ids = identities(rec.game, newest_first(), n, newest_first=True)
    try:
        played = played_cards(rec.game, start_view, steps, n)
    except ValueError:      # a game without rules of "played" (a plugin game): no card figures
        played = [[] for _ in range(n)]
    first = start_view.get("first", start_view.get("leader"))      # Avalon's Sanctuary: the first leader
    return {
        "winners": [int(w) for w in (result.get("winners") or [])],
        "reason": str(result.get("reason") or ""),
        "first": first if type(first) is int and 0 <= first < n else None,
        "length": len(steps),
        "identities": ids,
        "played": played,
        "opening": opening(steps, n) if rec.game == "squares" else [],
    }


def replayed_of(facts: Any, rec: MatchRecord) -> dict | None:
    """The replay's part of ``facts`` stored when ``rec`` was counted (:func:`replayed`), or None
    when they are not this version's facts of this match (another version, another match or
    game, another number of seats, anything that does not read): then it is replayed again."""
    if not isinstance(facts, dict) or facts.get("v") != VERSION or facts.get("skipped"):
        return None
    seats = facts.get("seats")
    n = len(rec.seats)
    if facts.get("match") != rec.id or facts.get("game") != rec.game or not isinstance(seats, list) \
            or len(seats) != n or not all(isinstance(s, dict) for s in seats):
        return None
    played = [s.get("played") for s in seats]
    ids = [s.get("identity") for s in seats]
    winners, first, length, opened = facts.get("winners"), facts.get("first"), facts.get("length"), facts.get("opening")
    if not (isinstance(winners, list) and all(type(w) is int for w in winners)
            and isinstance(facts.get("reason"), str) and (first is None or type(first) is int)
            and type(length) is int and isinstance(opened, list)
            and all(isinstance(p, list) and all(isinstance(c, str) for c in p) for p in played)
            and all(i is None or isinstance(i, str) for i in ids)):
        return None
    return {"winners": list(winners), "reason": facts["reason"], "first": first, "length": length,
            "identities": ids, "played": [list(p) for p in played], "opening": list(opened)}


def assemble(engine: Any, rec: MatchRecord, rep: dict, joins: Iterable[tuple[int, str]] = ()) -> dict:
    """The facts of ``rec`` from the replay's part ``rep`` (:func:`replayed`) and the record."""
    meta = rec.meta or {}
    n = len(rec.seats)
    decks = seat_decks(engine, rec.options, n, joins)
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
        "winners": rep["winners"],
        "reason": rep["reason"],
        "first": rep["first"],
        "length": rep["length"],
        "seats": [{"user": rec.seats[i], "deck": decks[i], "identity": rep["identities"][i],
                   "played": rep["played"][i]} for i in range(n)],
        "opening": rep["opening"],
    }


def with_record(engine: Any, rec: MatchRecord, facts: dict, joins: Iterable[tuple[int, str]] = ()) -> dict:
    """``facts`` as the statistics store them: with ``names`` and, on a seat that played its own
    saved deck, ``own_hash`` (:func:`own_specs`, :func:`own_hash`: named only in its player's own
    view)."""
    facts["names"] = list(rec.names)
    specs = own_specs(engine, rec.options, len(facts.get("seats") or []), joins)
    for row, spec in zip(facts.get("seats") or [], specs):
        if row.get("deck") == OWN and isinstance(spec, dict):
            row["own_hash"] = own_hash(engine, spec)
    return facts


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
    chosen = _chosen(options)
    out = [_deck_id(chosen[i] if i < len(chosen) else None, ready, i) for i in range(seats)]
    for seat, token in joins:
        if token and 0 <= seat < seats:
            out[seat] = _deck_id(token, ready, seat)
    return out


def own_specs(engine: Any, options: dict | None, seats: int,
              joins: Iterable[tuple[int, str]] = ()) -> list[dict | None]:
    """Each seat's own deck, as a spec, for the deck it ended the match with (as
    :func:`seat_decks` decides it): a saved deck's spec in ``options["decks"]``, or the deck
    decoded from the seat's last ``__join__`` entry that named one (a late joiner's deck, or a
    rejoiner's new one).  None for a ready-made deck, a deck code typed into ``/play``, a seat
    with no deck."""
    if getattr(engine, "decks", None) is None:
        return [None] * seats
    chosen = _chosen(options)
    specs: list[Any] = [chosen[i] if i < len(chosen) and isinstance(chosen[i], dict) else None for i in range(seats)]
    ready = engine.decks.ready()
    for seat, token in joins:
        if token and 0 <= seat < seats:
            try:
                spec = None if token in ready else _deck_of_token(engine, token)
            except (AttributeError, KeyError, TypeError, ValueError):
                spec = None
            specs[seat] = spec if isinstance(spec, dict) else None
    return specs


def own_hash(engine: Any, spec: Any) -> str | None:
    """A player's own deck by the hash of its deck code (the same deck, the same hash)."""
    try:
        code = engine.decks.encode(spec)
    except (AttributeError, KeyError, TypeError, ValueError):
        return None
    return hashlib.sha256(code.encode("utf-8")).hexdigest()[:16]


def _chosen(options: dict | None) -> list:
    chosen = (options or {}).get("decks")
    if isinstance(chosen, str):          # "cipher/fox", as the engines read it
        chosen = [v for v in re.split(r"[/+\s]+", chosen.strip()) if v]
    return list(chosen) if isinstance(chosen, (list, tuple)) else []


def _deck_id(item: Any, ready: list[str], seat: int) -> str | None:
    if item is None:
        return ready[seat % len(ready)] if ready else None
    return item if isinstance(item, str) and item in ready else OWN
