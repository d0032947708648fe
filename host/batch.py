"""Several moves of one kind in one go (issue 33): the pure part of a batch.

A game may declare, with the optional engine function ``batches(state, seat)``
(docs/engine.md), which of the seat's legal commands may be picked together and how many —
end-of-turn discards, the cards to trash for a CAA, several cards onto one land.  Each group
is a dict::

    {"commands": [legal commands, a repeat = a second copy], "min": m, "max": n}
    {"commands": ["caa ac01", "caa ac02", ...], "min": 1, "max": 3, "join": "caa"}

Without ``join`` the picked commands are played one after another, in the order they are
listed; with ``join`` the tokens after the prefix are joined into ONE command
(``caa ac01 ac02``).  Either way the batch is exactly what the rules allow one at a time:
:func:`walk` plays it on copies of the state and checks, before every step, that the seat is
still the one to act and the step is one of its legal commands then, and that no secret
decision opened between steps.  The host stores a batch of several commands as ONE entry of
the log (:mod:`host.batch_log`) under the match lock — all or nothing, one board update.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from host.batch_log import SEP
from rules import IllegalCommand

MAX_PICK = 25              # a Discord select takes at most 25 options and 25 values


def groups(game: Any, state: Any, seat: int) -> list[dict]:
    """The engine's batch groups for ``seat`` now, checked and clipped to what one select
    holds: only legal commands (a ``join`` group: commands ``<join> <part>``), at most 25
    options, ``1 <= min <= max <= options``; groups that offer no real choice of several are
    left out.  [] for a game without ``batches``."""
    fn = getattr(game, "batches", None)
    if fn is None:
        return []
    legal = set(game.legal_commands(state, seat))
    out = []
    for g in fn(state, seat) or []:
        join = g.get("join")
        commands = [str(c) for c in g.get("commands") or []
                    if str(c) in legal and SEP.strip() not in str(c)
                    and (not join or str(c).startswith(f"{join} "))][:MAX_PICK]
        lo, hi = int(g.get("min", 1)), int(g.get("max", len(commands)))
        hi = min(hi, len(commands))
        lo = max(1, lo)
        if lo > hi or hi < 2:
            continue
        out.append({"commands": commands, "min": lo, "max": hi, "kind": str(g.get("kind") or ""),
                    **({"join": str(join)} if join else {})})
    return out


def covered(group: dict, legal: list[str]) -> set[str]:
    """The legal commands a group offers in another form: its own commands, and for a ``join``
    group every command made of its prefix (``caa ac01 ac02``), which the group builds."""
    if group.get("join"):
        prefix = f"{group['join']} "
        return {c for c in legal if c.startswith(prefix)}
    return set(group["commands"])


def compose(group: dict, picked: list[int]) -> list[str]:
    """The commands a pick of option indexes makes (in the listed order): the picked commands,
    or for a ``join`` group the one command joining their parts.  ValueError for a pick the
    group does not allow (a repeated or unknown index, too few, too many)."""
    ix = sorted(set(picked))
    if len(ix) != len(picked) or any(not 0 <= i < len(group["commands"]) for i in ix):
        raise ValueError("unknown or repeated option")
    if not group["min"] <= len(ix) <= group["max"]:
        raise ValueError(f"pick {group['min']}..{group['max']}, not {len(ix)}")
    chosen = [group["commands"][i] for i in ix]
    if group.get("join"):
        prefix = group["join"]
        return [" ".join([prefix] + [c[len(prefix) + 1:] for c in chosen])]
    return chosen


@dataclass
class Walk:
    """A batch played on copies: every state (``states[0]`` the one before, ``states[i]`` after
    step i), or the step that is not allowed (0-based ``failed``), why, and the seat's legal
    commands at that point."""

    states: list[Any] = field(default_factory=list)
    failed: int | None = None
    error: IllegalCommand | None = None
    legal: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.failed is None


def walk(game: Any, state: Any, seat: int, commands: list[str]) -> Walk:
    """Play ``commands`` one at a time from ``state`` (never changed: engines return new
    states), checking each step against the rules as if played alone (see the module doc)."""
    from host.replay import _hidden

    out = Walk(states=[state])
    for i, command in enumerate(commands):
        now = out.states[-1]
        legal = game.legal_commands(now, seat) if seat in game.to_act(now) else []
        if i and _hidden(game, now):
            legal = []          # a secret decision opened: nothing more is this seat's now
        if command not in legal or SEP.strip() in command:
            out.failed, out.legal = i, legal
            return out
        try:
            out.states.append(game.apply(now, seat, command))
        except IllegalCommand as exc:
            out.failed, out.error, out.legal = i, exc, legal
            return out
    return out


def in_order(game: Any, state: Any, seat: int, commands: list[str]) -> list[str]:
    """The picked commands in an order the rules allow, if there is one that each next step
    finds: the first picked command legal now, then the first of the rest legal after it, …
    (a player picks a set — three cards onto one land — and the stack must be built so each
    card may go onto the one below).  When no picked command is legal at some point, the rest
    follow as listed, so :func:`walk` refuses that step."""
    rest, out = list(commands), []
    while rest:
        legal = set(game.legal_commands(state, seat)) if seat in game.to_act(state) else set()
        nxt = next((c for c in rest if c in legal), None)
        if nxt is None:
            return out + rest
        try:
            state = game.apply(state, seat, nxt)
        except IllegalCommand:
            return out + rest
        rest.remove(nxt)
        out.append(nxt)
    return out


def told_batch(game_name: str, game: Any, states: list[Any], seat: int, commands: list[str],
               names: list[str]) -> tuple[Any, list[dict]]:
    """How the thread tells a batch: its public steps in words, joined into one line in every
    language (``{"en": "Discard Drive Lance, Discard Null Break", "ja": …}``; the notation when
    a step has no words), and what every step did (narration, step by step, from the public
    views only).  ``states``: :attr:`Walk.states`."""
    from data import i18n
    from host.replay import _public_command
    from host.texts import played_text, told

    words: list[Any] = []
    shown: list[str] = []
    story: list[dict] = []
    publics = [game.view(s, None) for s in states]
    for i, command in enumerate(commands):
        public = _public_command(game, states[i], seat, command)
        if public is not None:
            shown.append(public)
            words.append(played_text(game_name, game, states[i], seat, public, names, publics[i]))
        story += told(game_name, publics[i], publics[i + 1], names, seat)
    if not words:
        return None, story
    if any(not isinstance(w, dict) for w in words):     # a step without words: the notation
        return SEP.join(shown), story
    return {loc: i18n.t("core.list_sep", loc).join(w[loc] for w in words) for loc in i18n.LOCALES}, story


def batch_refusal(rec: Any, game: Any, walked: Walk, seat: int, commands: list[str]) -> Any:
    """The Result refusing a batch whose step ``walked.failed`` is not allowed: nothing was
    played; it names that step and what was allowed then, in words in every language."""
    from data import i18n
    from host.texts import illegal_msg
    from host.types import Result, msg
    from render.labels import choices as describe

    i = walked.failed or 0
    state = walked.states[-1]
    view = game.view(state, seat)
    names = list(rec.names)
    step, allowed = {}, {}
    for loc in i18n.LOCALES:
        step[loc] = describe(rec.game, view, seat, [commands[i]], loc, names)[0].label
        labels = [c.label for c in describe(rec.game, view, seat, walked.legal, loc, names)]
        shown = i18n.t("core.list_sep", loc).join(labels[:8])
        allowed[loc] = i18n.t("host.batch.more", loc, moves=shown, n=len(labels) - 8) if len(labels) > 8 \
            else shown or i18n.t("host.batch.none", loc)
    why = illegal_msg(walked.error) if walked.error is not None else msg("host.batch.not_legal")
    return Result(ok=False, match=rec, error=msg("host.err.batch_step", n=i + 1, total=len(commands),
                                                 move=step, reason=why, allowed=allowed))
