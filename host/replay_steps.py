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

from typing import Any, Iterable

from data.store import ACTIVE, MatchRecord
from host.replay import JOIN, RESIGN, _hidden, _initial_state, _public_command, _step
from host.texts import log_words, told


def public_steps(game: Any, rec: MatchRecord, commands: Iterable[Any], *, views: bool = True) -> list[dict]:
    """The public steps of ``rec`` replayed from ``commands`` (its stored log, in order; each
    with ``seat`` and ``command``).  ``views`` False leaves out ``view`` and ``turn`` (what
    ``/match log`` needs)."""
    state = _initial_state(game, rec)
    public = game.view(state, None)        # each public view is drawn once
    entries: list[dict] = []
    held: list[dict] = []
    for c in commands:
        shown = ("join" if c.command.startswith(JOIN) else "resign" if c.command == RESIGN
                 else _public_command(game, state, c.seat, c.command))
        after = _step(game, state, c.seat, c.command)
        public_after = game.view(after, None)
        # what it did, in words, from the public views only (a host entry says itself)
        story = [] if shown in ("join", "resign") else told(rec.game, public, public_after, list(rec.names), c.seat)
        if shown is not None:      # hidden decisions are nobody else's business
            held.append({"seq": len(entries) + len(held) + 1, "seat": c.seat, "name": rec.names[c.seat],
                         "command": shown, "story": story,
                         "words": log_words(rec.game, game, state, c.seat, shown, list(rec.names), public)})
        elif story and (held or entries):     # a secret decision's public consequences
            (held or entries)[-1]["story"] = (held or entries)[-1]["story"] + story
        state, public = after, public_after
        if not _hidden(game, state):          # lines held during a secret window are released
            entries += _released(held, public, views)
            held = []
    if rec.status != ACTIVE:    # a match ended (a resignation, a claim) inside a window: nothing is secret
        entries += _released(held, public, views)
    return entries


def _released(held: list[dict], public: dict, views: bool) -> list[dict]:
    if views:
        for e in held:
            e["view"], e["turn"] = public, public.get("turn")
    return held
