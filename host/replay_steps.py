"""A played match as the public steps everyone saw (issue 35's replays, ``/match log``): pure,
from the stored record and its command log, knowing no Discord and no store.

A **step** is a public change — a command everyone may see (a hidden decision never is a step of
its own: its public consequences are told with the step before it) — numbered by what everyone
can see, not by the stored log, so a gap never tells that a secret decision was made.  Steps made
inside a secret window (simultaneous choices, a response window) are held and released together
when the window closes, each with the public view of that moment; a match that ended inside a
window releases them at its end.  Each step carries:

* ``seq`` (1, 2, …), ``seat``, ``name``, ``command`` (the public form), ``words`` (the move in
  words, as the Act menu said it), ``story`` (what it did, from the public views only);
* ``view``: the public view after the step was released (``game.view(state, None)``), and
  ``turn``: that view's turn number.

Nothing here reads a seat's private view: a replay that shows a player's own hand asks the
engine for it separately (and only for that player).
"""
from __future__ import annotations

from typing import Any, Iterable, Iterator

from data.store import ACTIVE, MatchRecord
from host.replay import JOIN, RESIGN, _hidden, _initial_state, _public_command, _step
from host.texts import log_words, told


def history(game: Any, rec: MatchRecord, commands: Iterable[Any], start: Any = None
            ) -> Iterator[tuple[Any, int, str, Any]]:
    """The stored log replayed: ``(state before, seat, command, state after)`` per command, from
    the match's initial state (or ``start``, a caller's own copy of it)."""
    state = _initial_state(game, rec) if start is None else start
    for c in commands:
        after = _step(game, state, c.seat, c.command)
        yield state, c.seat, c.command, after
        state = after


def public_steps(game: Any, rec: MatchRecord, commands: Iterable[Any], *, views: bool = True,
                 own: int | None = None, words: bool = True) -> list[dict]:
    """The public steps of ``rec`` replayed from ``commands`` (its stored log, in order; each
    with ``seat`` and ``command``).  ``views`` False leaves out ``view`` and ``turn`` (what
    ``/match log`` needs).  ``own``: a seat whose own view of each step's moment is added as
    ``own`` (only ever for that seat's own player).  ``words`` False leaves ``words`` and
    ``story`` out (the statistics read only seats, commands and views: half the time)."""
    return steps_of(game, rec, history(game, rec, commands), views=views, own=own, words=words)


def steps_of(game: Any, rec: MatchRecord, played: Iterable[tuple[Any, int, str, Any]], *,
             views: bool = True, own: int | None = None, words: bool = True) -> list[dict]:
    """:func:`public_steps` from a replayed ``played`` history (:func:`history`).  What a step
    holds comes from the public views of the states and the public form of each command alone
    (the secrecy tests feed a second history whose hidden cards differ and get the same steps)."""
    if views == "lazy":
        return _lazy_steps(game, rec, played)
    entries: list[dict] = []
    held: list[dict] = []
    public = state = None
    for before, seat, command, after in played:
        if public is None:
            public = game.view(before, None)        # each public view is drawn once
        shown = ("join" if command.startswith(JOIN) else "resign" if command == RESIGN
                 else _public_command(game, before, seat, command))
        public_after = game.view(after, None)
        # what it did, in words, from the public views only (a host entry says itself)
        story = [] if shown in ("join", "resign") or not words else \
            told(rec.game, public, public_after, list(rec.names), seat)
        if shown is not None:      # hidden decisions are nobody else's business
            held.append({"seq": len(entries) + len(held) + 1, "seat": seat, "name": rec.names[seat],
                         "command": shown, "story": story, "words": (before, public)})
        elif story and (held or entries):     # a secret decision's public consequences
            (held or entries)[-1]["story"] = (held or entries)[-1]["story"] + story
        state, public = after, public_after
        if not _hidden(game, state):          # lines held during a secret window are released
            entries += _released(game, rec, held, public, views, game.view(state, own) if own is not None else None,
                                 words=words)
            held = []
    if rec.status != ACTIVE and public is not None:    # a match ended inside a window: nothing is secret
        entries += _released(game, rec, held, public, views, game.view(state, own) if own is not None else None,
                             words=words)
    return entries


def _lazy_steps(game: Any, rec: MatchRecord, played: Iterable[tuple[Any, int, str, Any]]) -> list[dict]:
    """The steps of :func:`steps_of` with ``views="lazy"``: ``seq``, ``seat``, ``name`` and
    ``command`` the same, no words or story, and instead of ``view`` a ``view_of``: a function
    that draws the public view of the step's release (once, when first asked) — for readers that
    look at few views (the statistics: the public view of each step would be most of their time)
    — and ``state``, the engine state that view is drawn from (a reader may tell from it that a
    part of the view cannot have changed without drawing it).  The same steps are released at the
    same moments as :func:`steps_of` releases them."""
    entries: list[dict] = []
    held: list[dict] = []
    state, seen = None, False
    for before, seat, command, after in played:
        seen = True
        shown = ("join" if command.startswith(JOIN) else "resign" if command == RESIGN
                 else _public_command(game, before, seat, command))
        if shown is not None:
            held.append({"seq": len(entries) + len(held) + 1, "seat": seat, "name": rec.names[seat],
                         "command": shown, "story": []})
        state = after
        if not _hidden(game, state):
            entries += _attach(held, _view_once(game, state), state)
            held = []
    if rec.status != ACTIVE and seen:
        entries += _attach(held, _view_once(game, state), state)
    return entries


def _view_once(game: Any, state: Any) -> Any:
    drawn: list[dict] = []

    def view_of() -> dict:
        if not drawn:
            drawn.append(game.view(state, None))
        return drawn[0]
    return view_of


def _attach(held: list[dict], view_of: Any, state: Any) -> list[dict]:
    for e in held:
        e["view_of"], e["state"] = view_of, state
    return held


def step_view(step: dict) -> dict | None:
    """A step's public view: its ``view``, or a lazy step's (``view_of``) drawn now."""
    view = step.get("view")
    if view is None and callable(step.get("view_of")):
        view = step["view_of"]()
    return view if isinstance(view, dict) else None


def _released(game: Any, rec: MatchRecord, held: list[dict], public: dict, views: bool,
              own_view: dict | None = None, *, words: bool = True) -> list[dict]:
    """The held steps, told now: their words name the cards from the public views before them
    and at their release (a card used into a hidden window is shown when the window closes)."""
    for e in held:
        before, public_before = e.pop("words")
        if words:
            e["words"] = log_words(rec.game, game, before, e["seat"], e["command"], list(rec.names),
                                   public_before, public)
    if views:
        for e in held:
            e["view"], e["turn"] = public, public.get("turn")
            if own_view is not None:
                e["own"] = own_view
    return held
