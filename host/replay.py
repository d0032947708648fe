"""How the host drives an engine through a match's log: the initial state (with the match's
PRNG version), one log entry replayed (a command, a late join, a resignation), what of a command
everyone may see, whether a secret decision is pending, decks as the log writes them, and the
part of a seat's view that only that seat sees."""
from __future__ import annotations

from typing import Any

from data import i18n
from data.store import FINISHED, MatchRecord
from host.batch_log import SEP, steps_of
from host.types import Msg, Result
from rules import IllegalCommand
from rules import prng as PRNG

JOIN = "__join__"                  # the log entry of a late join (see docs/engine.md)
RESIGN = "__resign__"              # the log entry of a resignation the game plays out (docs/engine.md)


def _strip_seat(view: dict) -> dict:
    return {k: v for k, v in view.items() if k != "seat"}


def _public_command(game: Any, state: Any, seat: int, command: str) -> str | None:
    """The command as everyone may see it; None for a hidden decision.  A batch entry
    (host/batch_log.py): its public steps joined with " ; " (None when none is public)."""
    steps = steps_of(command)
    if steps is not None:
        shown = []
        for step in steps:
            one = _public_command(game, state, seat, step)
            if one is not None:
                shown.append(one)
            state = game.apply(state, seat, step)
        return SEP.join(shown) if shown else None
    fn = getattr(game, "public_command", None)
    return command if fn is None else fn(state, seat, command)


def _with_deck(options: dict, seat: int, n: int, deck: Any) -> dict:
    if deck is None:
        return options
    decks = list(options.get("decks") or [None] * n)
    decks += [None] * (n - len(decks))
    decks[seat] = deck
    return {**options, "decks": decks}


def _fill_decks(game: Any, options: dict, n: int) -> dict:
    """Seats that chose no deck get the game's ready-made deck for their seat number."""
    decks = options.get("decks")
    if not isinstance(decks, list) or None not in decks:
        return options
    ready = list(game.decks.ready())
    decks = list(decks) + [None] * max(0, n - len(decks))
    return {**options, "decks": [d if d is not None else ready[i % len(ready)]
                                 for i, d in enumerate(decks[:n])]}


def own_part(view: dict, public: dict) -> dict:
    """What a seat's view holds beyond the public view (its hand, secret choices...), plus the
    tables that name things (``cards``; Art of War's ``kings``) so the part reads as the whole
    view does, and ``seat`` so it can say whose it is."""
    return {k: v for k, v in view.items() if k in _NAMING_KEYS or public.get(k) != v}


# View keys that are reference tables, not position: kept in a seat's own part so its text
# names cards and KINGs exactly as the full view's text does.
_NAMING_KEYS = ("cards", "kings", "seat")


def start_edition(eng: object, pinned: Any = None) -> dict:
    """The rules edition a match starts under, for its ``meta``: kept in its record so it replays
    under the same rules after a later ruling (``editions`` in the engine, newest last; a game
    without any has one set of rules).  ``pinned``: the edition an event fixed for all its
    matches (``meta["edition"]`` of a league match, :func:`host.leagues.new_league`) — kept
    when the engine has it, else the newest."""
    editions = getattr(eng, "editions", None)
    if not editions:
        return {}
    return {"edition": pinned if pinned in editions else editions[-1]}


def edition_args(eng: object, meta: dict | None) -> dict:
    """``new_match`` keyword arguments for the edition a match will start under (its pinned one)."""
    return start_edition(eng, (meta or {}).get("edition"))


def newest_edition(eng: object) -> Any:
    """The edition a new match of ``eng`` starts under today (None: a game with one set of rules)."""
    return start_edition(eng).get("edition")


def _initial_state(game: Any, rec: MatchRecord) -> Any:
    """The engine state before the first command.  A match stored before the keyed stream
    (``rec.prng == 1``) is rebuilt with the engine's original generator, so it replays exactly
    as it was played; every newer one with the engine's default (:data:`rules.prng.CURRENT`).
    Likewise under the rules edition it started with (``meta["edition"]``)."""
    players = int(rec.meta.get("players0", len(rec.seats)))
    extra: dict = {} if rec.prng == PRNG.CURRENT else {"prng": rec.prng}
    editions = getattr(game, "editions", None)
    if editions:        # the rules it was started under; a match stored before editions: the first
        extra["edition"] = rec.meta.get("edition", editions[0])
    return game.new_match(players=players, seed=rec.seed, options=rec.options, **extra)


def replay_start(game: Any, rec: MatchRecord, n: int) -> tuple[Any, int]:
    """Where replaying the first ``n`` entries of ``rec``'s log starts: ``(state, entries it
    already holds)`` — the match's snapshot when it was taken at or before entry ``n``, else the
    initial state."""
    if rec.snapshot is not None and rec.snapshot_seq <= n:
        return game.load(rec.snapshot), rec.snapshot_seq
    return _initial_state(game, rec), 0


def _illegal_join(rec: MatchRecord, exc: IllegalCommand) -> Result:
    if exc.key and i18n.has(exc.key):
        return Result(ok=False, match=rec, error=Msg(exc.key, dict(exc.params)))
    return Result.fail("host.err.already_seated", match=rec)


def _may_rejoin(game: Any, state: Any, seat: int) -> bool:
    """Would the game let the player of ``seat`` rejoin now (they are defeated)?"""
    try:
        game.join(state, seat)
    except IllegalCommand:
        return False
    return True


def _step(game: Any, state: Any, seat: int, command: str) -> Any:
    """Replay one log entry (a command, a late join ``__join__ [deck]``, a resignation
    ``__resign__``, a batch ``__batch__ c1 ; c2`` of several commands: host/batch_log.py)."""
    steps = steps_of(command)
    if steps is not None:
        for step in steps:
            state = game.apply(state, seat, step)
        return state
    if command == RESIGN:
        return game.resign(state, seat)
    if command == JOIN or command.startswith(JOIN + " "):
        token = command[len(JOIN) + 1:].strip()
        if not token:
            return game.join(state, seat)
        return game.join(state, seat, deck=_deck_of_token(game, token))
    return game.apply(state, seat, command)


def _deck_token(game: Any, deck: Any) -> str:
    """How a late joiner's deck is written in the log: a ready-made id, or a deck code."""
    return deck if isinstance(deck, str) else game.decks.encode(deck)


def _deck_of_token(game: Any, token: str) -> Any:
    return token if token in game.decks.ready() else game.decks.decode(token)


def _hidden(game: Any, state: Any) -> bool:
    """Is a decision pending that everyone may not know about?  A game says so with
    ``hidden_pending(state)`` (needed when the secret decider is also the seat everyone sees
    acting, e.g. the turn player answering a response); otherwise a seat in ``to_act`` that
    ``public_to_act`` does not name is a secret decider."""
    fn = getattr(game, "hidden_pending", None)
    if fn is not None and fn(state):
        return True
    return not set(game.to_act(state)) <= set(_public_to_act(game, state))


def _public_to_act(game: Any, state: Any) -> list[int]:
    fn = getattr(game, "public_to_act", None)
    return fn(state) if fn is not None else game.to_act(state)


def _example(game: Any, state: Any, seat: int) -> str:
    legal = game.legal_commands(state, seat)
    return ", ".join(legal[:3]) if legal else "help"


def _with_said(rec: MatchRecord, view: dict) -> dict:
    """The public view with ``said``: the last public move in words as the thread told it
    (``{"name": "Alice", "text": {"en": …, "ja": …}, "command": "move c1 c2"}``; the host keeps it
    in the match's meta), so a picture's "Last:" line names pieces and cards instead of notation.
    A stored value of the wrong shape is ignored."""
    said = (rec.meta or {}).get("said")
    if not isinstance(view, dict) or not isinstance(said, list) or len(said) != 3:
        return view
    name, text, command = said
    if not isinstance(name, str) or not (isinstance(text, str) or (
            isinstance(text, dict) and all(isinstance(v, str) for v in text.values()))):
        return view
    return {**view, "said": {"name": name, "text": text, "command": str(command)}}


def _final_view(rec: MatchRecord, view: dict) -> dict:
    """A view of a match the host ended itself (a resignation, a timeout claim: the engine's
    state goes on without an outcome) carries the match's result, so its pictures and texts show
    who won and how instead of whose turn it was."""
    result = rec.result if rec.status == FINISHED else None
    if not result or not isinstance(view, dict) or view.get("outcome"):
        return view
    return {**view, "to_act": [],
            "outcome": {"winners": list(result.get("winners") or []), "reason": result.get("reason", "")}}
