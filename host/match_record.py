"""A match as a short text record, like a chess PGN (issue 35, "A match record as text"): pure,
knowing no Discord and no store.

The record is UTF-8 text in three parts (docs/replays.md describes it for players):

1. **Header tags**, one a line, ``[Name "value"]`` (``\\`` and ``"`` escaped with a backslash):
   ``Game`` (the game's name in the writer's language), ``Players`` (seat order, the first
   player marked), ``Options`` (the public options only, in words: :mod:`host.options_text`),
   ``Result`` (who won and how, as the thread said it), ``Date`` (the day the match was created,
   UTC), ``Match`` (``#12``), ``Edition`` (the rules edition it was played under, for games
   that have editions) and ``Cards`` (a server's card set it was played with: its name, version
   and the start of its content hash).
2. **Numbered moves**, one a line — ``12. Alice: Move Ryu c1 → c2 {move c2}``: the move in words,
   its public notation in braces — each followed by what it did (its story), indented.
3. **The views block**, the last line: ``[Views "<base64 of zlib-compressed JSON>"]``.  The JSON
   is ``{"format": 1, "game", "names", "start", "steps"}``: ``start`` is the public view before
   the first step, and each step carries ``seq``, ``seat``, ``name``, ``command``, ``words`` and
   ``story`` (both languages), ``turn`` and ``patch``: how its public view differs from the view
   before it (:func:`diff`).  So every public step can be redrawn without the seed, in either
   language, and a long match stays small (a view repeats its card tables at every step).

Why a record holds nothing a stranger may not see: it is built from :func:`host.replay_steps.
public_steps` only — public commands, public views (``game.view(state, None)``) — and the options
pass through :func:`host.options_text.public_lines`, which never prints a deck's contents; the
seed and the hidden commands are in the full export (:meth:`host.records.Records.export`), which
only the match's own players get, once it has ended (:func:`full_export_allowed`).

:func:`read_record` reads such a text back from a file anybody may hand us, so it checks every
part and caps what it unpacks (a zip bomb); anything wrong is a :class:`RecordError` that says,
in the reader's language, what is wrong and what was expected — never a traceback.
"""
from __future__ import annotations

import base64
import binascii
import json
import re
import time
import unicodedata
import zlib
from dataclasses import dataclass, field
from typing import Any, Iterable

from data import i18n
from data.store import ABORTED, ACTIVE, FINISHED, MatchRecord
from host.types import Msg

FORMAT = 1                          # the views block's format version (docs/replays.md)
MAX_STEPS = 5000                    # more public steps than any match has; a record with more is refused
MAX_UNPACKED = 32 * 1024 * 1024     # the views block's JSON, unpacked (a zip bomb stops here)
MAX_TEXT = 48 * 1024 * 1024         # a whole record as text (its base64 included)
MAX_NAMES = 64                      # seats, late joiners included
MAX_NAME = 200                      # characters of a player's name
MAX_COMMAND = 4000                  # characters of a step's notation
MAX_STORY = 500                     # story lines of one step
MAX_LINE = 4000                     # characters of one text in words
TAGS = ("Game", "Players", "Options", "Result", "Date", "Match", "Edition", "Cards")
HOST_ENTRIES = ("join", "resign")   # the host's own steps: told in words only

_TAG = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]*) "((?:[^"\\]|\\.)*)"\]$')


class RecordError(ValueError):
    """A record that cannot be read (or written): ``key`` and ``params`` name the localized
    message (``record.err.*``); a param may be a :class:`host.types.Msg` (a phrase of its own)."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key, self.params = key, params

    def msg(self) -> Msg:
        return Msg(self.key, dict(self.params))

    def render(self, locale: Any = "en") -> str:
        return self.msg().render(locale)


@dataclass
class ReadRecord:
    """A record as read back (or built from a stored match by :func:`to_record`): its header
    tags, the game's registry name, the players' names, the public view before the first step,
    and the steps — each ``{"seq", "seat", "name", "command", "words", "story", "turn", "view"}``
    with its full public view."""

    header: dict[str, str]
    game: str
    names: list[str]
    start_view: dict
    steps: list[dict] = field(default_factory=list)


# ------------------------------------------------------------------------------ who gets what
def full_export_allowed(rec: MatchRecord, user_id: int | None) -> bool:
    """May ``user_id`` have the full export (seed and hidden commands, which reveal every hidden
    card)?  Only a player of the match, only once it has ended; everyone else gets the public
    record (:func:`write_record`).  A match of an event (``meta["league"]``) answers to its
    event's stricter rule as well (:func:`host.events.entry.export_access`: its players only
    once the whole event has ended, and its organisers)."""
    return (rec.status in (FINISHED, ABORTED) and user_id is not None
            and any(u is not None and int(u) == int(user_id) for u in rec.seats))


# ------------------------------------------------------------------------------ view patches
def diff(before: dict, after: dict) -> dict:
    """How ``after`` differs from ``before``, both JSON objects: ``{"s": {key: new value},
    "p": {key: patch of a nested object}, "d": [removed keys]}`` (empty parts left out).  Nested
    objects are patched key by key, anything else (lists included) is set whole — so a step whose
    only change is a life total carries that number, not the game's card table again."""
    out: dict[str, Any] = {}
    sets = {k: v for k, v in after.items() if k not in before or (
        before[k] != v and not (isinstance(v, dict) and isinstance(before[k], dict)))}
    patches = {k: diff(before[k], v) for k, v in after.items()
               if k in before and isinstance(v, dict) and isinstance(before[k], dict) and before[k] != v}
    drops = [k for k in before if k not in after]
    if sets:
        out["s"] = sets
    if patches:
        out["p"] = patches
    if drops:
        out["d"] = drops
    return out


def patch(view: dict, change: Any, where: str = "patch") -> dict:
    """``view`` with ``change`` (:func:`diff`) applied: a new object (unchanged parts are shared,
    never modified).  A change of the wrong shape is a :class:`RecordError`."""
    if not isinstance(change, dict) or not set(change) <= {"s", "p", "d"}:
        raise _field(where, "object_patch")
    out = dict(view)
    drops = change.get("d", [])
    if not isinstance(drops, list) or not all(isinstance(k, str) for k in drops):
        raise _field(where + ".d", "list_texts")
    for k in drops:
        out.pop(k, None)
    sets = change.get("s", {})
    if not isinstance(sets, dict):
        raise _field(where + ".s", "object")
    out.update(sets)
    nested = change.get("p", {})
    if not isinstance(nested, dict):
        raise _field(where + ".p", "object")
    for k, sub in nested.items():
        if not isinstance(out.get(k), dict):
            raise _field(f"{where}.p.{k}", "patch_of_object")
        out[k] = patch(out[k], sub, f"{where}.p.{k}")
    return out


# ------------------------------------------------------------------------------ building
def record_steps(rec: MatchRecord, steps: Iterable[dict]) -> list[dict]:
    """The steps as a record keeps them: only the public fields (a step's ``own`` view, should a
    caller have asked for one, never), as JSON reads them back, and the last view carrying the
    result when the host itself ended the match (:func:`host.replay._final_view`: a resignation
    leaves the engine's state without an outcome)."""
    from host.replay import _final_view

    steps = list(steps)
    last = steps[-1].get("view") if steps else None
    out = []
    for s in steps:
        view = s.get("view") or {}
        if view is last and rec.status != ACTIVE:
            view = _final_view(rec, view)
        out.append(_json({"seq": s["seq"], "seat": s["seat"], "name": s.get("name") or "",
                          "command": s["command"], "words": s.get("words"), "story": list(s.get("story") or []),
                          "turn": s.get("turn"), "view": view}))
    return out


def header(game: Any, rec: MatchRecord, start_view: dict, *, locale: str) -> dict[str, str]:
    """The header tags in ``locale``, in :data:`TAGS` order (``Match`` and ``Edition`` only when
    the match has an id and the game has editions)."""
    from host.options_text import public_lines

    names = list(rec.names)
    tags = {"Game": i18n.t(f"game.{rec.game}", locale) if i18n.has(f"game.{rec.game}") else rec.game,
            "Players": players_text(game, names, start_view, locale),
            "Options": i18n.t("record.options.sep", locale).join(public_lines(game, rec.options, names, locale))
            or i18n.t("record.options.default", locale),
            "Result": result_text(rec, locale),
            "Date": time.strftime("%Y-%m-%d", time.gmtime(rec.created_at))}
    if rec.id is not None:
        tags["Match"] = f"#{rec.id}"
    edition = (rec.meta or {}).get("edition")
    if edition is not None and getattr(game, "editions", None):
        tags["Edition"] = str(edition)
    cards = (rec.meta or {}).get("cards")
    if isinstance(cards, dict):         # a server's card set: its name, version and content hash
        tags["Cards"] = f"{cards.get('name')} v{cards.get('version')} ({str(cards.get('digest'))[:12]})"
    return tags


def players_text(game: Any, names: list[str], start_view: dict, locale: str) -> str:
    """``Alice (First player) vs Bob``: seat order, the seat that starts marked with the game's
    own word for it (SQUARES' first player, Project Maken's first turn player, Avalon's first
    leader), as the options call it."""
    from host.options_text import option_name, player_label

    first, word = None, ""
    for key in ("first", "leader"):
        value = (start_view or {}).get(key)
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(names):
            first, word = value, option_name(game, key, locale)
            break
    shown = []
    for seat in range(len(names)):
        label = _clean(player_label(names, seat, locale))
        shown.append(i18n.t("record.players.first", locale, name=label, first=word) if seat == first else label)
    return i18n.t("record.players.sep", locale).join(shown)


def result_text(rec: MatchRecord, locale: str) -> str:
    """Who won and how, as the thread said it at the end (``host.outcome.*``); an aborted or an
    unfinished match says so."""
    from host.texts import _names, reason_msg

    if rec.status == FINISHED and rec.result is not None:
        res = rec.result
        reason = reason_msg(res.get("reason", ""), rec.game, res.get("detail"))
        winners = [w for w in res.get("winners") or [] if isinstance(w, int) and 0 <= w < len(rec.names)]
        if not winners:
            return Msg("host.outcome.draw", {"reason": reason}).render(locale)
        return Msg("host.outcome.win", {"names": _names(rec, winners), "reason": reason}).render(locale)
    if rec.status == ABORTED:
        return i18n.t("host.status.aborted", locale)
    return i18n.t("record.result.unfinished", locale)


def to_record(game: Any, rec: MatchRecord, steps: Iterable[dict], *, locale: str, start_view: dict) -> ReadRecord:
    """The record of ``rec`` as :func:`read_record` would read it back from :func:`write_record`'s
    text (what the console replays of a stored match, without a file in between)."""
    return ReadRecord(header=header(game, rec, start_view, locale=locale), game=rec.game,
                      names=[str(n or "") for n in rec.names], start_view=_json(start_view or {}),
                      steps=record_steps(rec, steps))


def write_record(game: Any, rec: MatchRecord, steps: Iterable[dict], *, locale: str, start_view: dict,
                 undone: list[dict] | None = None) -> str:
    """The public record of ``rec`` as text (module doc): ``steps`` from
    :func:`host.replay_steps.public_steps` (with their views), ``start_view`` the public view
    before the first command (``game.view(initial state, None)``).  ``undone``: the moves taken
    back (host ``undone_entries``), listed after the moves for people (a reader of the record
    skips them: only the views block is replayed).  Raises :class:`RecordError` when the match
    is too long for a record (:data:`MAX_STEPS`, :data:`MAX_UNPACKED`)."""
    record = to_record(game, rec, steps, locale=locale, start_view=start_view)
    if len(record.steps) > MAX_STEPS:
        raise RecordError("record.err.too_many_steps", n=len(record.steps), limit=MAX_STEPS)
    lines = [f'[{tag} "{_escape(value)}"]' for tag, value in record.header.items()]
    lines.append("")
    for s in record.steps:
        lines.append(f"{s['seq']}. " + move_line(s, locale))
        lines += ["    · " + _clean(in_words(line, locale)) for line in s["story"]]
    if undone:
        lines += ["", _clean(i18n.t("undo.log.header", locale))]
        for u in undone:
            how = i18n.t(f"undo.log.kind.{u['kind']}", locale, reason=_clean(u.get("reason") or "—"))
            lines.append(_clean(i18n.t("undo.log.line", locale, seq=u["seq"], name=_clean(u["name"]),
                                       move=u["words"], how=how)))
    lines.append("")
    lines.append(f'[Views "{pack(record)}"]')
    return "\n".join(lines) + "\n"


def record_text(game: Any, rec: MatchRecord, commands: Iterable[Any], *, locale: str) -> str:
    """The public record of a stored match from its command log: :func:`write_record` of its
    public steps (what a ``/match record`` download holds)."""
    from host.replay import _initial_state
    from host.replay_steps import public_steps

    start = game.view(_initial_state(game, rec), None)
    return write_record(game, rec, public_steps(game, rec, commands), locale=locale, start_view=start)


def move_line(step: dict, locale: str) -> str:
    """A step in words then its notation in braces (``Alice: Move Ryu c1 → c2 {move c2}``); the
    notation alone when it has no words, the words alone for the host's own entries (a join, a
    resignation: their notation would say nothing more)."""
    name = _clean(step.get("name") or i18n.t("options.seat", locale, n=int(step.get("seat", 0)) + 1))
    command = _clean(str(step.get("command", ""))).replace("{", "(").replace("}", ")")
    words = _clean(in_words(step.get("words"), locale)) if step.get("words") else ""
    if words and command in HOST_ENTRIES:
        return i18n.t("record.move.words", locale, name=name, words=words)
    if words:
        return i18n.t("record.move", locale, name=name, words=words, notation="{" + command + "}")
    return i18n.t("record.move.notation", locale, name=name, notation="{" + command + "}")


def pack(record: ReadRecord) -> str:
    """The views block's payload: base64 of the zlib-compressed JSON (module doc)."""
    steps, view = [], record.start_view
    for s in record.steps:
        steps.append({k: v for k, v in s.items() if k != "view"} | {"patch": diff(view, s["view"])})
        view = s["view"]
    data = json.dumps({"format": FORMAT, "game": record.game, "names": record.names, "start": record.start_view,
                       "steps": steps}, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    if len(data) > MAX_UNPACKED:
        raise RecordError("record.err.too_large", limit=MAX_UNPACKED // (1024 * 1024))
    return base64.b64encode(zlib.compress(data, 9)).decode("ascii")


# ------------------------------------------------------------------------------ reading
def read_record(text: str) -> ReadRecord:
    """A record's text (:func:`write_record`) read back and checked: its views block must be
    there once, be base64 of zlib data that unpacks to at most :data:`MAX_UNPACKED` bytes of JSON
    of format :data:`FORMAT`, of a known game, with at most :data:`MAX_STEPS` steps numbered
    1, 2, … of the shape the writer gives them.  The header tags are read as written (they are
    for people; the views block is what is replayed).  Raises :class:`RecordError`."""
    if not isinstance(text, str):
        raise RecordError("record.err.not_text")
    if len(text) > MAX_TEXT:
        raise RecordError("record.err.file_too_large", limit=MAX_TEXT // (1024 * 1024))
    tags: dict[str, str] = {}
    payloads: list[str] = []
    for raw in text.lstrip("\ufeff").splitlines():
        line = raw.strip()
        if line.startswith('[Views "'):     # the long line: no pattern runs over its megabytes
            if not line.endswith('"]'):
                raise RecordError("record.err.base64")
            payloads.append(line[len('[Views "'):-2])
            continue
        m = _TAG.match(line)
        if m is None:
            continue
        if m.group(1) not in tags:
            tags[m.group(1)] = _unescape(m.group(2))
    if not payloads:
        raise RecordError("record.err.no_views")
    if len(payloads) > 1:
        raise RecordError("record.err.two_views", n=len(payloads))
    data = _unpack(payloads[0])
    return _checked(data, tags)


def _unpack(payload: str) -> Any:
    try:
        packed = base64.b64decode("".join(payload.split()), validate=True)
    except (binascii.Error, ValueError):
        raise RecordError("record.err.base64") from None
    unpacker = zlib.decompressobj()
    try:
        data = unpacker.decompress(packed, MAX_UNPACKED + 1)
    except zlib.error:
        raise RecordError("record.err.zlib") from None
    if len(data) > MAX_UNPACKED or unpacker.unconsumed_tail:
        raise RecordError("record.err.too_large", limit=MAX_UNPACKED // (1024 * 1024))
    if not unpacker.eof:
        raise RecordError("record.err.zlib")
    try:
        return json.loads(data.decode("utf-8"), parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        detail = exc.msg if isinstance(exc, json.JSONDecodeError) else type(exc).__name__
        raise RecordError("record.err.json", detail=str(detail)[:120]) from None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def _checked(data: Any, tags: dict[str, str]) -> ReadRecord:
    from rules import registry

    if not isinstance(data, dict):
        raise _field("views", "object")
    fmt = data.get("format")
    if fmt != FORMAT:
        raise RecordError("record.err.format", found=str(fmt)[:20], expected=FORMAT)
    game = data.get("game")
    if not isinstance(game, str) or game not in registry:
        raise RecordError("record.err.unknown_game", game=str(game)[:40], games=", ".join(registry.names()))
    names = data.get("names")
    if not isinstance(names, list) or not 1 <= len(names) <= MAX_NAMES:
        raise _field("names", "names", most=MAX_NAMES)
    for i, name in enumerate(names):
        if not isinstance(name, str) or len(name) > MAX_NAME:
            raise _field(f"names[{i}]", "text", most=MAX_NAME)
    start = data.get("start")
    if not isinstance(start, dict):
        raise _field("start", "object")
    steps = data.get("steps")
    if not isinstance(steps, list):
        raise _field("steps", "list")
    if len(steps) > MAX_STEPS:
        raise RecordError("record.err.too_many_steps", n=len(steps), limit=MAX_STEPS)
    out, view = [], start
    for i, step in enumerate(steps):
        where = f"steps[{i}]"
        if not isinstance(step, dict):
            raise _field(where, "object")
        seq = step.get("seq")
        if not _whole(seq) or seq != i + 1:
            raise _field(where + ".seq", "seq", n=i + 1)
        seat = step.get("seat")
        if not _whole(seat) or not 0 <= seat < len(names):
            raise _field(where + ".seat", "between", low=0, high=len(names) - 1)
        name, command = step.get("name"), step.get("command")
        if not isinstance(name, str) or len(name) > MAX_NAME:
            raise _field(where + ".name", "text", most=MAX_NAME)
        if not isinstance(command, str) or len(command) > MAX_COMMAND:
            raise _field(where + ".command", "text", most=MAX_COMMAND)
        words, story, turn = step.get("words"), step.get("story"), step.get("turn")
        if words is not None and not _wordy(words):
            raise _field(where + ".words", "words", most=MAX_LINE)
        if not isinstance(story, list) or len(story) > MAX_STORY or not all(_wordy(s) for s in story):
            raise _field(where + ".story", "story", most=MAX_STORY)
        if turn is not None and not _whole(turn):
            raise _field(where + ".turn", "whole")
        view = patch(view, step.get("patch"), where + ".patch")
        out.append({"seq": seq, "seat": seat, "name": name, "command": command, "words": words,
                    "story": story, "turn": turn, "view": view})
    return ReadRecord(header=tags, game=game, names=names, start_view=start, steps=out)


# ------------------------------------------------------------------------------ small helpers
def _field(where: str, expected: str, **params: Any) -> RecordError:
    return RecordError("record.err.field", where=where, expected=Msg(f"record.expect.{expected}", params))


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _wordy(value: Any) -> bool:
    """A text in words as steps carry it: a string, or one per language (``{"en": …, "ja": …}``)."""
    if isinstance(value, str):
        return len(value) <= MAX_LINE
    return (isinstance(value, dict) and bool(value) and len(value) <= 8
            and all(isinstance(k, str) and isinstance(v, str) and len(v) <= MAX_LINE for k, v in value.items()))


def in_words(value: Any, locale: str) -> str:
    """A text in words in ``locale`` (English, then any language, when it lacks that one)."""
    if isinstance(value, dict):
        loc = i18n.locale_of(locale)
        return str(value.get(loc) or value.get(i18n.FALLBACK) or next(iter(value.values()), ""))
    return "" if value is None else str(value)


def _clean(text: str) -> str:
    """One line of the record: control characters (a newline in a name could start a fake tag
    line) become spaces."""
    return " ".join("".join(" " if unicodedata.category(ch).startswith("C") else ch for ch in str(text)).split())


def _escape(value: str) -> str:
    return _clean(value).replace("\\", "\\\\").replace('"', '\\"')


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def _json(value: Any) -> Any:
    """``value`` as JSON reads it back (tuples become lists, keys strings), so what is written
    and what is read compare equal."""
    return json.loads(json.dumps(value, ensure_ascii=False))
