"""Small texts the host builds about a match: why it ended, the game's name, players' names,
a time left, an engine's refusal in the reader's language."""
from __future__ import annotations

import logging
import re
from typing import Any

from data import i18n
from data.store import MatchRecord
from host.batch_log import SEP
from host.types import Msg, msg
from render.labels import choices as describe
from render.labels import is_raw_id
from rules import IllegalCommand

log = logging.getLogger("host.texts")


def with_detail(result: dict, game: Any, state: Any) -> dict:
    """A match's stored result with what its result line names beyond the reason (``detail``:
    the game's ``outcome_detail(state)``, e.g. ``{"form": "captured"}`` or both lives), if any."""
    fn = getattr(game, "outcome_detail", None)
    try:
        detail = fn(state) if fn is not None else None
    except Exception:       # a nicety: the result itself always stands
        log.exception("outcome detail failed")
        detail = None
    return {**result, "detail": dict(detail)} if detail else result


def reason_msg(reason: str, game: str = "", detail: dict | None = None) -> Msg:
    """The localized reason a match ended: with a ``detail`` (:func:`with_detail`) its own
    wording (``outcome.<game>.<reason>.<form>`` with the detail's numbers: "the enemy KING was
    captured", "turn limit reached with 12 life against 9"), else the game's own wording
    (``<game>.reason.<reason>``), then the shared one (``reason.<reason>``)."""
    if isinstance(detail, dict) and detail.get("form"):
        key = f"outcome.{game}.{reason}.{detail['form']}"
        if i18n.has(key):
            return Msg(key, {k: v for k, v in detail.items() if k != "form"})
    for key in (f"{game}.reason.{reason}", f"reason.{reason}"):
        if i18n.has(key):
            return Msg(key)
    return msg("host.raw", text=reason)


def game_msg(game: str) -> Msg:
    return Msg(f"game.{game}") if i18n.has(f"game.{game}") else msg("host.raw", text=game)


def _names(rec: MatchRecord, seats: list[int]) -> Any:
    """The players of ``seats`` as a message parameter: one name, or a list in both languages
    (joined with each language's ``core.list_sep``: "Alice, Bob" / "Alice、Bob")."""
    names = [rec.names[s] or f"#{s + 1}" for s in seats]
    if len(names) <= 1:
        return "".join(names)
    return {loc: i18n.t("core.list_sep", loc).join(names) for loc in i18n.LOCALES}


def _duration(seconds: float) -> str:
    seconds = max(0, int(seconds))
    h, rem = divmod(seconds, 3600)
    m, s = divmod(rem, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def illegal_msg(exc: IllegalCommand) -> Msg:
    """An engine's refusal in the reader's language: its catalog key, else its English text."""
    if exc.key and i18n.has(exc.key):
        return Msg(exc.key, dict(exc.params))
    return msg("host.err.illegal", reason=exc.reason)


def legal_in_words(error: Msg, game_name: str, game: Any, state: Any, seat: int, names: list[str]) -> Msg:
    """An engine's refusal whose ``{legal}`` lists the legal commands in notation ("place S1 a1,
    place S1 b1, … (+23)"), with each command in words first and its notation after, as the
    Act menu says it ("Place Support 1 on a1 (`place S1 a1`)"), in both languages.  The player
    reads their own refusal: the words may come from their own view."""
    listed = error.params.get("legal") if isinstance(error.params, dict) else None
    if not isinstance(listed, str) or not listed.strip():
        return error
    try:
        legal = set(game.legal_commands(state, seat))
        parts = [p.strip() for p in listed.split(", ") if p.strip()]
        commands = [p for p in parts if p in legal]
        if not commands:
            return error
        view = game.view(state, seat)
        said = {}
        for loc in i18n.LOCALES:
            labels = {c.command: c.label for c in describe(game_name, view, seat, commands, loc, names)}
            out = []
            for part in parts:
                if part in labels and labels[part] != part and not is_raw_id(labels[part], [part]):
                    out.append(i18n.t("host.legal.move", loc, words=labels[part], command=part))
                elif part in legal:
                    out.append(f"`{part}`")
                else:       # "… (+23)": how many more
                    more = part.strip("…() +")
                    out.append(i18n.t("host.legal.more", loc, n=int(more)) if more.isdigit() else part)
            said[loc] = i18n.t("core.list_sep", loc).join(out)
        return Msg(error.key, {**error.params, "legal": said})
    except Exception:               # words are a nicety: the refusal itself always works
        log.exception("%s: the legal moves of a refusal could not be put in words", game_name)
        return error


def played_text(game_name: str, game: Any, before: Any, seat: int, command: str,
                names: list[str], public_before: dict | None = None, public_after: dict | None = None) -> Any:
    """How the thread tells a public ``command`` (as :func:`host.replay._public_command` shows
    it: face-down cards are ``?``): in words in both languages
    (``{"en": "Leap: Support 2 c1 ⤴ c3", "ja": …}``, the same label the player picked from the
    menu), else the command itself.

    The words are drawn from the PUBLIC view of the position before the command; from the
    player's own view only the definitions of the cards the command itself names (what a card
    is, never where it was or what else is in the hand), so they cannot tell what the command
    does not.  ``public_before``: that public view when the caller already has it;
    ``public_after``: the public view after the command, whose cards (those the command revealed)
    name them before the player's own view is asked (a replay then names every card from the
    public views alone)."""
    try:
        view = dict(public_before if public_before is not None else game.view(before, None))
        cards = {**((public_after or {}).get("cards") or {}), **(view.get("cards") or {})}
        view["cards"] = cards
        missing = [token for token in command.split() if token not in cards]
        out = _labels(game_name, view, seat, command, names, missing)
        if out is None and missing:     # a card only its player saw yet: their view names it
            own_cards = (game.view(before, seat) or {}).get("cards") or {}
            for token in missing:
                if token in own_cards:
                    cards[token] = own_cards[token]
            out = _labels(game_name, view, seat, command, names)
        return command if out is None else out
    except Exception:               # words are a nicety: the notation always works
        log.exception("%s: describing %r for the thread failed", game_name, command)
        return command


def _labels(game_name: str, view: dict, seat: int, command: str, names: list[str],
            unnamed: list[str] = ()) -> dict | None:
    """The command's menu label in every language, or None when one of them would show a raw id
    (the whole command, or one of ``unnamed``: tokens the view has no card for)."""
    out = {}
    for locale in i18n.LOCALES:
        label = describe(game_name, view, seat, [command], locale, names)[0].label
        if not label or is_raw_id(label, [command]) or any(
                re.search(rf"(?<![0-9A-Za-z]){re.escape(t)}(?![0-9A-Za-z])", label) for t in unnamed):
            return None
        out[locale] = label
    return out


def log_words(game_name: str, game: Any, before: Any, seat: int, shown: str, names: list[str],
              public_before: dict | None = None, public_after: dict | None = None) -> Any:
    """A ``/match log`` entry in words in both languages (``{"en": …, "ja": …}``), as the thread
    told it (:func:`played_text`; a batch: its steps joined), or None when there are no words
    for it (the log then shows the notation alone).  ``shown``: the public command (``join`` and
    ``resign`` for the host's own entries)."""
    if shown in ("join", "resign"):
        return {loc: i18n.t(f"host.log.{shown}", loc) for loc in i18n.LOCALES}
    if SEP in shown:     # a batch: each of its steps named from the public views around it
        parts = []
        for step in shown.split(SEP):
            said = played_text(game_name, game, before, seat, step, names, public_before, public_after)
            if not isinstance(said, dict):
                return None
            parts.append(said)
        return {loc: i18n.t("core.list_sep", loc).join(p[loc] for p in parts) for loc in i18n.LOCALES}
    said = played_text(game_name, game, before, seat, shown, names, public_before, public_after)
    return said if isinstance(said, dict) else None


def told(game_name: str, public_before: dict, public_after: dict, names: list[str], seat: int) -> list[dict]:
    """What a command did, in words in every language (:func:`render.narrate.narrate`), drawn
    from the PUBLIC views around it only — a secret decision that changed nothing public says
    nothing."""
    from render.narrate import narrate

    try:
        return narrate(game_name, public_before, public_after, names, seat)
    except Exception:               # words are a nicety: the move itself always lands
        log.exception("%s: narrating a command failed", game_name)
        return []


def told_lines(released: list) -> list[Msg]:
    """The thread's lines for released public moves: each as "name: move in words", then what
    it did.  An entry is ``[name, words, command, story]`` (``name`` None: a secret decision's
    public consequences only; entries stored by older versions have no story)."""
    lines: list[Msg] = []
    for entry in released:
        if not isinstance(entry, list) or len(entry) < 2:
            continue
        if entry[1] is not None:
            lines.append(msg("host.played", name=entry[0], command=entry[1]))
        story = entry[3] if len(entry) > 3 and isinstance(entry[3], list) else []
        lines.extend(msg("host.raw", text=line) for line in story if isinstance(line, (dict, str)))
    return lines


def public_moves(rec: Any) -> int:
    """How many entries ``/match log`` shows for the match now ("after N moves"): never a secret
    decision.  A match stored before the count was kept counts its whole log."""
    return (rec.meta or {}).get("shown", rec.n_commands)


def shown_after(rec: Any, released: list) -> int:
    """The public move count ("after N moves") once ``released`` lines are shown: it counts what
    ``/match log`` numbers — a line with a move or a host entry (a join, a resignation) — never
    a secret decision, whose public consequences join the entry before it."""
    return public_moves(rec) + sum(
        1 for line in released if any(x is not None for x in line[1:3]))
