"""Which cards each seat **drew** in a finished match, and the per-seat rows the per-card figures
of limited play read (:class:`host.stats.card_figures.SeatGame`: the deck, the cards drawn, the
cards played, the score) — pure, from the stored record and its command log, knowing no Discord
and no store.

    rows = limited_rows(engine, rec, await store.commands(rec.id))

A card is **drawn** by a seat when it was ever in that seat's own hand during the match,
the opening hand included: the log is replayed exactly as the host replays it
(:func:`host.replay._initial_state`, then each entry as :func:`host.replay._step` plays it —
a command, a late join ``__join__``, a resignation ``__resign__``) and the seat's **own view**
(``engine.view(state, seat)``) is read at the start and after every entry; a batch entry
(several commands told as one, :mod:`host.batch_log`) is read after each of its commands, so a
card that came into the hand and left it inside one batch still counts.  A card counts once per
match and seat however often it was drawn, by its card id in the deck (never an instance or a
hand token).  What counts, per game:

* **Battle Logic Square** — every resource card that reached the hand (the opening hand, each
  draw) and every card of the IT deck: the IT deck lies face down
  by its owner from the opening (``it_unused`` of the own view) and any of its cards may be used
  whenever its build condition holds, so the whole IT deck is in the player's hand in all but
  name (an IT card is drawn exactly when its deck holds it, and a card played is always one
  drawn).  Not: the AVI (on the board from the start: the deck's identity, never drawn), a card
  still in the resource deck at the end.
* **Project Maken** — every card that reached the hand (``hand`` of the own view): the opening
  hand, also one sent back by the mulligan, and every later draw.  Not: the character card, the
  face-down piles (stamina, LP, gauge, damage: face down to their owner too), a card still in the
  deck.
* **Art of War** — every unit and the KING that reached the hand (the opening hand, also one
  sent back by the mulligan, each draw); the own view's hand holds unit tokens (``s a p g w``)
  and ``k``, named here by the view's ``units`` and the seat's ``king``.  Not: a card that went
  from the deck straight to the kingdom or the battlefield without passing through the hand.
* **Avalon's Sanctuary** — every card that reached the hand (``hand`` of the own view).  Not: the
  avatar (never in the hand: the deck's identity; "avatar" as a battle support means nothing),
  cards that went from the deck straight to the life, the memory or a land.
* **SQUARES** has no cards: every seat drew nothing.

A card that entered the hand and left it again inside a single command, never shown in any of
the seat's own views, does not count: the player never held it to play.  After a late join or a
rejoin with another deck, the cards drawn from the first deck still count (they were drawn in
this match).

**Not a secret leak.**  What a seat drew is hidden information while the match is played; here
it is read only from a match that has ended, only from that seat's own view (never another
seat's hand: each seat's set is built from its own views alone), and the figures made from it
(:mod:`host.stats.card_figures`) are only ever shown aggregated over many finished matches, per
card of a set version and from a minimum sample: no figure says what one player held in one
match.

The rows (:func:`limited_rows`), one per seat, JSON-able::

    {"seat": 0, "deck": [card ids, one per copy, sorted], "drawn": [sorted], "played": [sorted],
     "score": 1.0 | 0.5 | 0.0}

``played`` is :func:`host.stats.played.played_cards` (the public steps of the same replay), the
deck comes from the match's options as :func:`host.stats.facts.seat_decks` reads them (each seat's
ready-made deck, a saved deck's spec or a deck code; a late joiner's or rejoiner's ``__join__``
deck), listed by the game's ``engine.decks.describe`` with every section — the kept parts (AVI,
IT deck, character, KING, avatar) too; the score is the one the statistics give
(:func:`host.stats.aggregate.score_of`: no winner is a draw, 0.5 each).

Speed: one replay serves the drawn cards, the played cards and the outcome; each seat's own view
is drawn once per log entry (and per command of a batch) — nearly all of the time.  Linear in the
log: a random 150-entry Project Maken match takes tens of milliseconds, a 160-entry four-seat
Avalon's Sanctuary match about a seventh of a second.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable

from data.store import MatchRecord
from host.batch_log import steps_of as batch_steps
from host.replay import _deck_of_token, _initial_state, _step
from host.replay_steps import steps_of
from host.stats.aggregate import score_of
from host.stats.facts import _chosen, joined
from host.stats.played import played_cards

HandReader = Callable[[dict, int], Iterable[str]]


def drawn_cards(engine: Any, rec: MatchRecord, commands: Iterable[Any]) -> list[frozenset[str]]:
    """For each seat of ``rec`` (a finished match played by ``engine``), every card id that was
    ever in that seat's own hand (module docstring, per game), from ``commands``, its stored log
    in order (objects with ``seat`` and ``command``).  ValueError for a game without rules of
    "drawn" (so a new game cannot go uncounted silently)."""
    reader = _reader(rec.game)
    return _Replay(engine, rec, list(commands), reader).drawn


def limited_rows(engine: Any, rec: MatchRecord, commands: Iterable[Any]) -> list[dict]:
    """Per seat of ``rec``: ``{"seat", "deck", "drawn", "played", "score"}`` (module docstring)
    — what :class:`host.stats.card_figures.SeatGame` is made of.  A game without rules of
    "drawn" or "played" (a plugin game) gets empty sets, never an error."""
    commands = list(commands)
    n = len(rec.seats)
    reader = READERS.get(rec.game, _nothing)
    replay = _Replay(engine, rec, commands, reader)
    steps = steps_of(engine, rec, replay.history, views="lazy")
    try:
        played = played_cards(rec.game, replay.start_view, steps, n)
    except ValueError:
        played = [[] for _ in range(n)]
    result = rec.result or engine.outcome(replay.final) or {}
    outcome = {"winners": [int(w) for w in (result.get("winners") or [])]}
    decks = deck_lists(engine, rec.options, n, joined(commands))
    return [{"seat": i, "deck": decks[i], "drawn": sorted(replay.drawn[i]), "played": list(played[i]),
             "score": score_of(outcome, i)} for i in range(n)]


def deck_lists(engine: Any, options: dict | None, seats: int,
               joins: Iterable[tuple[int, str]] = ()) -> list[list[str]]:
    """Each seat's deck as card ids, one per copy, sorted — every section the game's
    ``engine.decks.describe`` lists (the kept parts too).  Chosen as
    :func:`host.stats.facts.seat_decks` chooses it: ``options["decks"][seat]`` (a ready-made id,
    a deck code or a spec; none: the ready-made deck of number ``seat`` mod their number), a
    late joiner's or rejoiner's ``__join__`` deck in its place.  ``[]`` in a game without decks,
    or for a deck that does not read."""
    api = getattr(engine, "decks", None)
    if api is None:
        return [[] for _ in range(seats)]
    ready = api.ready()
    ids = list(ready)
    chosen = _chosen(options)
    items: list[Any] = [chosen[i] if i < len(chosen) else None for i in range(seats)]
    for seat, token in joins:
        if token and 0 <= seat < seats:
            items[seat] = token
    out = []
    for seat, item in enumerate(items):
        if item is None:
            item = ids[seat % len(ids)] if ids else None
        out.append(_listed(engine, ready, item))
    return out


# ------------------------------------------------------------------------------- the replay
class _Replay:
    """One replay of a log: ``history`` (``(state before, seat, command, state after)`` per entry,
    as :func:`host.replay_steps.history` gives it), ``start_view`` (the start's public view),
    ``final`` (the last state) and ``drawn`` (per seat, read by ``reader`` from its own views)."""

    def __init__(self, engine: Any, rec: MatchRecord, commands: list[Any], reader: HandReader) -> None:
        n = len(rec.seats)
        state = _initial_state(engine, rec)
        self.start_view = engine.view(state, None)      # states are never changed in place
        sets: list[set[str]] = [set() for _ in range(n)]
        read = reader is not _nothing

        def look(st: Any) -> None:
            for seat in range(n):
                view = engine.view(st, seat)
                if isinstance(view, dict):
                    sets[seat].update(c for c in reader(view, seat) if isinstance(c, str) and c)

        if read:
            look(state)
        history = []
        for c in commands:
            seat, command = c.seat, str(c.command)
            parts = batch_steps(command)
            if parts is None:
                after = _step(engine, state, seat, command)
                if read:
                    look(after)
            else:                   # a batch: read after each of its commands, as _step plays them
                after = state
                for part in parts:
                    after = engine.apply(after, seat, part)
                    if read:
                        look(after)
            history.append((state, seat, command, after))
            state = after
        self.history = history
        self.final = state
        self.drawn = [frozenset(s) for s in sets]


# ------------------------------------------------------------------------------- per game
def _nothing(view: dict, seat: int) -> list[str]:
    """SQUARES has no cards (and a game without rules of "drawn" is read as drawing nothing)."""
    return []


def _hand(view: dict, seat: int) -> list[str]:
    """Project Maken, Avalon's Sanctuary: the own view's ``hand`` holds card ids."""
    hand = view.get("hand")
    return list(hand) if isinstance(hand, list) else []


def _logic_square(view: dict, seat: int) -> list[str]:
    """The own view's ``hand`` (resource cards) and ``it_unused`` (the IT deck, face down)."""
    it = view.get("it_unused")
    return _hand(view, seat) + (list(it) if isinstance(it, list) else [])


def _art_of_war(view: dict, seat: int) -> list[str]:
    """The own view's hand tokens named by card id: a unit by the view's ``units``, ``k`` by the
    seat's KING (its ``players`` entry)."""
    units = view.get("units") if isinstance(view.get("units"), dict) else {}
    king = None
    for i, p in enumerate(view.get("players") or []):
        if isinstance(p, dict) and p.get("seat", i) == seat:
            king = p.get("king")
    out = []
    for token in _hand(view, seat):
        if token == "k":
            card = king
        else:
            unit = units.get(token)
            card = unit.get("id") if isinstance(unit, dict) else None
        if isinstance(card, str):
            out.append(card)
    return out


READERS: dict[str, HandReader] = {
    "squares": _nothing,
    "logic_square": _logic_square,
    "maken": _hand,
    "art_of_war": _art_of_war,
    "avalon": _hand,
}


def _reader(game: str) -> HandReader:
    reader = READERS.get(game)
    if reader is None:
        raise ValueError(f"no rules of 'drawn' for the game {game!r}")
    return reader


def _listed(engine: Any, ready: dict, item: Any) -> list[str]:
    """A deck (a ready-made id, a deck code, a spec) as card ids, one per copy, sorted."""
    try:
        if isinstance(item, str):
            item = _deck_of_token(engine, item)
        if isinstance(item, str):
            entry = ready.get(item)
            item = entry.get("spec") if isinstance(entry, dict) else None
        if not isinstance(item, dict):
            return []
        sections = engine.decks.describe(item).get("sections") or []
    except (AttributeError, KeyError, TypeError, ValueError):
        return []
    out: list[str] = []
    for section in sections:
        for row in section.get("cards") or []:
            card, copies = row[0], row[1]
            if isinstance(card, str) and card and type(copies) is int and copies > 0:
                out += [card] * copies
    return sorted(out)
