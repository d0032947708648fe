"""Which cards each seat **played publicly** in a match, per game (issue 37): read from the
public steps everyone saw (:func:`host.replay_steps.public_steps` — each step's ``seat``, its
public ``command`` and the public ``view`` after it) and the start position's public view, never
from a seat's own view or the engine state, so a card that stayed hidden can never count.

A card counts once per match and seat however often it was played.  What counts, per game
(``docs/stats_played.md`` says the same for players):

* **Battle Logic Square** — a card used from hand (``use``), an IT card used (``it``: the IT card
  only; the hand cards its build condition trashes are a cost, not a play) and a card declared in
  a chain (``chain``, also when it did not resolve: it was revealed).  Not: CAA and end-phase
  trashes, the AVI (its ability is not a card played; the AVI is the seat's identity).
* **Project Maken** — a card bet face up (first bet ``fb``, ``attack``, ``bonus``, doubles and
  triples once), a support card used (``use``: revealed then) and the guard card a guard cancel
  opens (``gc``: the card is named by the public view's events).  Not: face-down guard cards and
  support cards that were set and never used (a guard card reaches the dust later among the
  other cards going there: revealed by the rules, not played face up), the character card.
* **Art of War** — a card its owner puts from hand onto the battlefield (the set-up's front card,
  ``play``, ``swap``), into the waiting area (the set-up's waiting card, every rear support
  ``support <card> …`` — also one a WIZARD negates, and the KING used as one), into the kingdom
  (``immigrate``), and a kingdom card its owner conscripts (``draft <type> <square>``).  A card
  deployed from the waiting area (``deploy``, ``exchange``, ``draft <square>``) was counted when
  it entered the waiting area.  Not: the set-up's kingdom card (the top of the deck), a unit
  captured into the opponent's kingdom.  Units are named by their card ids (``soldier`` …), the
  KING by its own id.
* **Avalon's Sanctuary** — a creature forged (mana is public) or summoned, a magic card cast, an
  in-hand ability used (``use``), and a battle support once both supports are revealed (the
  view's ``last_battle``, also a support an Informant cancelled).  Not: set-phase discards, the
  avatar as a support (it means "nothing"), a support chosen for a battle that was never fought,
  cards Mana Surge forges from the memory.
* **SQUARES** has no cards: nothing is played; its facts carry the opening instead
  (:func:`opening`).

Host entries (``join``, ``resign``) play no card.  A batch step (several commands told as one,
``host/batch.py``) is read command by command.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable, Iterator

from host.batch import SEP
from host.replay_steps import step_view

#: the public view's key, per game, of what a seat's deck is known by (``players[seat][key]``):
#: the AVI, the character, the KING, the avatar.  A game without one (SQUARES) is absent.
IDENTITY_KEYS: dict[str, str] = {
    "logic_square": "avi",
    "maken": "character",
    "art_of_war": "king",
    "avalon": "avatar",
}

NO_SUPPORT = "avatar"        # Avalon's Sanctuary: the avatar as a battle support means "nothing"
_UNREAD = object()           # a step without an engine state to compare (its view is always read)


def played_cards(game: str, start_view: dict, steps: Iterable[dict], seats: int) -> list[list[str]]:
    """The card ids each of ``seats`` seats played publicly (sorted, each once), from the match's
    public ``steps`` (with their views) and the start position's public view.  ValueError for a
    game without rules of "played" (so a new game cannot go uncounted silently)."""
    rule = RULES.get(game)
    if rule is None:
        raise ValueError(f"no rules of 'played publicly' for the game {game!r}")
    out: list[set[str]] = [set() for _ in range(seats)]
    rule(start_view, list(steps), out)
    return [sorted(s) for s in out]


def identities(game: str, views: Iterable[dict], seats: int, *, newest_first: bool = False) -> list[str | None]:
    """What each seat's deck is publicly known by (AVI, character, KING, avatar) at the match's
    end: the last of ``views`` (oldest first) that names it.  All None in a game without one.
    ``newest_first``: ``views`` come newest first (an iterable read only until every seat is
    named: lazy views are drawn no further)."""
    key = IDENTITY_KEYS.get(game)
    out: list[str | None] = [None] * seats
    if key is None:
        return out
    for view in views:
        for i, p in enumerate((view or {}).get("players") or []):
            seat = p.get("seat", i) if isinstance(p, dict) else None
            if isinstance(seat, int) and 0 <= seat < seats and isinstance(p.get(key), str):
                if not newest_first or out[seat] is None:
                    out[seat] = p[key]
        if newest_first and all(o is not None for o in out):
            break
    return out


def opening(steps: Iterable[dict], seats: int) -> list[str | None]:
    """SQUARES: each seat's first placement in the rules' notation — the piece token (the up
    side's letter and the number: ``S3`` is A3 Support-up) and the square, ``"S3 c1"`` — or None
    for a seat that never placed.  A player's first action is always a placement (nothing of
    theirs is on the board yet); squares are absolute (seat 0 places on rank 1, seat 1 on
    rank 5)."""
    out: list[str | None] = [None] * seats
    for step in steps:
        seat = step.get("seat")
        if not isinstance(seat, int) or not 0 <= seat < seats or out[seat] is not None:
            continue
        for toks in _commands(step):
            if toks[0] == "place" and len(toks) >= 3:
                out[seat] = f"{toks[1]} {toks[2]}"
                break
    return out


# ------------------------------------------------------------------------------- helpers
def _commands(step: dict) -> Iterator[list[str]]:
    """The tokens of each command of a step's public form (a batch step holds several)."""
    for part in str(step.get("command") or "").split(SEP.strip()):
        toks = part.split()
        if toks:
            yield toks


def _add(out: list[set[str]], seat: Any, card: Any) -> None:
    if isinstance(seat, int) and 0 <= seat < len(out) and isinstance(card, str) and card and card != "?":
        out[seat].add(card)


def _events(step: dict) -> list[dict]:
    """The events of the public view's ``last`` (the command that step released)."""
    last = (step_view(step) or {}).get("last")
    events = last.get("events") if isinstance(last, dict) else None
    return [e for e in events if isinstance(e, dict)] if isinstance(events, list) else []


# ------------------------------------------------------------------------------- per game
def _squares(start: dict, steps: list[dict], out: list[set[str]]) -> None:
    """SQUARES has no cards."""


def _logic_square(start: dict, steps: list[dict], out: list[set[str]]) -> None:
    """``use <card> …``, ``it <IT card> …`` (not its build cards) and ``chain <card> …``."""
    for step in steps:
        for toks in _commands(step):
            if toks[0] in ("use", "it", "chain") and len(toks) > 1:
                _add(out, step.get("seat"), toks[1])


def _maken(start: dict, steps: list[dict], out: list[set[str]]) -> None:
    """``fb``/``attack``/``bonus <card> …`` (face up), ``use <support card>``, and the card a
    ``gc`` opens (the public ``gc`` event names it; Project Maken has no secret window, so a
    step's view is the moment right after it)."""
    for step in steps:
        seat = step.get("seat")
        for toks in _commands(step):
            if toks[0] in ("fb", "attack", "bonus", "use") and len(toks) > 1:
                _add(out, seat, toks[1])
            elif toks[0] == "gc":
                for ev in _events(step):
                    if ev.get("t") == "gc" and ev.get("seat") == seat:
                        _add(out, seat, ev.get("card"))


def _art_of_war(start: dict, steps: list[dict], out: list[set[str]]) -> None:
    """Cards from hand onto the battlefield, into the waiting area or the kingdom, and kingdom
    cards conscripted; unit tokens (``s a p g w``) named by their ids, ``k`` by the seat's KING."""
    units = {code: u.get("id") for code, u in (start.get("units") or {}).items() if isinstance(u, dict)}
    kings = {p.get("seat", i): p.get("king") for i, p in enumerate(start.get("players") or [])}

    def card(seat: Any, token: str) -> Any:
        return kings.get(seat) if token == "k" else units.get(token)

    for step in steps:
        seat = step.get("seat")
        for toks in _commands(step):
            verb, args = toks[0], toks[1:]
            if verb == "setup" and len(args) >= 3:          # setup <front card> <square> <waiting card>
                tokens = [args[0], args[2]]
            elif verb in ("play", "immigrate", "support") and args:
                tokens = args[:1]
            elif verb == "swap" and len(args) >= 2:          # swap <square> <card from hand>
                tokens = args[1:2]
            elif verb == "draft" and len(args) >= 2:         # draft <kingdom card> <square>
                tokens = args[:1]
            else:
                tokens = []
            for token in tokens:
                _add(out, seat, card(seat, token))


def _avalon(start: dict, steps: list[dict], out: list[set[str]]) -> None:
    """``forge``/``summon``/``magic``/``use <card> …``, and each battle's revealed supports (a new
    ``last_battle`` in a step's public view: ``supports`` of the invader and the defender).

    The public view's ``last_battle`` is a copy of the engine state's (``rules/avalon/engine.py``,
    ``view``), so a step whose ``state`` (:func:`host.stats.facts.lazy_steps`) holds the same
    ``last_battle`` as the step before it shows the same one: its view is not drawn (most steps
    fight no battle; drawing every view was most of a match's count).  Only whether it changed is
    read from the state; the supports are read from the view, as everywhere."""
    shown = start.get("last_battle")
    before: Any = _UNREAD
    for step in steps:
        for toks in _commands(step):
            if toks[0] in ("forge", "summon", "magic", "use") and len(toks) > 1:
                _add(out, step.get("seat"), toks[1])
        state = step.get("state")
        raw = getattr(state, "last_battle", _UNREAD) if state is not None else _UNREAD
        if raw is not _UNREAD and before is not _UNREAD and raw == before:
            continue            # the same last battle as the step before: nothing newly revealed
        before = raw
        battle = (step_view(step) or {}).get("last_battle")
        if isinstance(battle, dict) and battle != shown:
            shown = battle
            supports = battle.get("supports") or []
            for side, who in enumerate((battle.get("invader"), battle.get("defender"))):
                if side < len(supports) and supports[side] != NO_SUPPORT:
                    _add(out, who, supports[side])


RULES: dict[str, Callable[[dict, list[dict], list[set[str]]], None]] = {
    "squares": _squares,
    "logic_square": _logic_square,
    "maken": _maken,
    "art_of_war": _art_of_war,
    "avalon": _avalon,
}
