"""Autocomplete for ``/play options:`` — suggestions built from the chosen game's option schema.

The option stays free text (``first=1 max_turns=100``, read by :func:`host.read_options`); this
only offers what the game takes: for the word being typed, every ``name=value`` of an option not
set yet (each choice; for a number range the default, the bounds and a number being typed),
appended to what is already typed.  The label names the option and its value in the reader's
language (``first=1 — First player: seat 1``: seats count from 1, as everywhere people type
them).  Decks are left out: they are chosen with the deck option or menu.

The clock of a new match (``/play time_control:`` and ``weekend_pause:``, and the server's
defaults set with ``/settings``): :func:`control_suggestions` offers the presets in the reader's
words, today's times per move and what is being typed read back in words;
:func:`clock_args` turns the options given (or the server's defaults) into the arguments of
``host.challenge`` — or a refusal in the player's language, before anything is created
(docs/clocks.md, "Choosing a clock").
"""
from __future__ import annotations

import logging
import unicodedata
from typing import Any

import discord
from discord.app_commands import Choice

from cogs.common import CHOICE_MAX, TURN_CHOICES, VALUE_MAX, clip, tr, user_locale
from host.clocks import ClockError, control, notify
from host.options import parse_options
from host.options import typed_value
from host.options_text import SEAT_OPTIONS, option_name, option_value
from rules import registry

log = logging.getLogger("cogs.play_options")


def _candidates(spec: dict, typed: str, seat: bool = False) -> list[Any]:
    """The values offered for one option: its choices, or default, bounds and a typed number."""
    if "choices" in spec:
        return list(spec["choices"])
    values: list[Any] = [spec.get("default")]
    lo, hi = spec.get("min"), spec.get("max")
    try:
        number = int(typed)
    except ValueError:
        number = None
    if number is not None and seat:
        number -= 1                 # typed from 1, kept from 0
    if number is not None and (lo is None or number >= lo) and (hi is None or number <= hi):
        values.insert(0, number)
    values += [v for v in (lo, hi) if v is not None]
    return list(dict.fromkeys(v for v in values if v is not None or "choices" in spec))


def option_suggestions(game: Any, current: str, locale: str) -> list[tuple[str, str]]:
    """(label, value) suggestions for the typed ``current`` text of ``/play options``."""
    schema = game.option_schema() if hasattr(game, "option_schema") else {}
    text = current or ""
    done, _, last = text.rpartition(" ") if not text.endswith(" ") else (text.rstrip(), "", "")
    done = done.strip()
    try:
        already = parse_options(done)
    except ValueError:
        already = {}
    name_typed, eq, value_typed = last.partition("=")
    out: list[tuple[str, str]] = []
    for name, spec in schema.items():
        if name == "decks" or name in already:
            continue
        local = option_name(game, name, locale)
        if eq:
            if name != name_typed:
                continue
        elif name_typed and not (name.startswith(name_typed.lower())
                                 or name_typed.lower() in local.lower()):
            continue
        for value in _candidates(spec, value_typed if eq else "", name in SEAT_OPTIONS):
            token = f"{name}={typed_value(value, name)}"
            if eq and value_typed and not token.startswith(f"{name}={value_typed}"):
                continue
            full = f"{done} {token}".strip()
            if len(full) > VALUE_MAX:
                continue
            key = "play.options.suggest_default" if value == spec.get("default") else "play.options.suggest"
            label = tr(key, locale, text=token, name=local,
                       value=option_value(game, name, value, None, locale))
            out.append((clip((done + " " if done else "") + label, 100), full))
    return out


async def options_autocomplete(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """``/play options``: what the game chosen in ``game`` takes (nothing before a game)."""
    game = str(getattr(interaction.namespace, "game", "") or "").strip()
    if game not in registry:
        return []
    try:
        found = option_suggestions(registry.get(game), current, user_locale(interaction))
    except Exception:
        log.exception("options autocomplete failed")
        return []
    return [Choice(name=label, value=value) for label, value in found[:CHOICE_MAX]]


# --------------------------------------------------------------------------- the clock
# what a player or an admin types for "no clock" (compared after NFKC and case folding)
NO_CLOCK_WORDS = frozenset({"none", "off", "no clock", "なし", "オフ", "無し"})
NO_CLOCK = "none"


def _fold(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text or "").casefold().split())


def is_no_clock(text: str | None) -> bool:
    """Whether ``text`` asks for no clock at all (``none``, ``なし`` …)."""
    return _fold(text or "") in NO_CLOCK_WORDS


def read_control(text: str) -> control.TimeControl | None:
    """The control typed: None for "no clock" (``none``, ``なし``), else :func:`control.parse` —
    which raises :class:`ClockError` saying, in the reader's language, which part cannot be read."""
    if is_no_clock(text):
        return None
    return control.parse(text)


def control_suggestions(current: str, locale: str, *, none: bool = True) -> list[tuple[str, str]]:
    """(label, value) for a time-control option: what is typed, read back in words when it can be
    read; the presets ("Daily: 3 days + 1 day per move, at most 7 days"); today's times per move;
    and "none".  The value is the short form the parser reads back (``3d+1d max 7d``), the
    preset's id, or ``none``; what is typed filters the presets and the times."""
    typed = (current or "").strip()[:control.MAX_TEXT]
    needle = _fold(typed)
    out: list[tuple[str, str]] = []
    if typed and not is_no_clock(typed):
        try:
            tc = control.parse(typed)
        except ClockError:
            tc = None
        if tc is not None:
            out.append((clip(control.describe(tc, locale), 100), control.preset_of(tc) or control.notation(tc)))
    offered = [(control.describe(tc, locale), name, name) for name, tc in control.PRESETS.items()]
    for seconds in TURN_CHOICES:
        if seconds:
            tc = control.TimeControl.move(seconds)
            offered.append((control.describe(tc, locale), control.notation(tc), control.notation(tc)))
    if none:
        offered.append((tr("play_clock.choice.none", locale), NO_CLOCK, NO_CLOCK))
    for label, value, word in offered:
        if needle and needle not in _fold(label) and not _fold(word).startswith(needle):
            continue
        if all(v != value for _, v in out):
            out.append((clip(label, 100), value))
    return out[:CHOICE_MAX]


async def control_autocomplete(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """``/play time_control`` and ``/settings clock``: :func:`control_suggestions`."""
    try:
        found = control_suggestions(current, user_locale(interaction))
    except Exception:
        log.exception("time control autocomplete failed")
        return []
    return [Choice(name=label, value=value) for label, value in found]


def stored_control(settings: dict) -> control.TimeControl | None:
    """A server's default time control (``clock_control``), None when unset — or damaged, which
    is logged: a new match then plays as without a default."""
    raw = (settings or {}).get("clock_control")
    if raw is None:
        return None
    try:
        return control.TimeControl.from_json(raw)
    except ClockError as exc:
        log.warning("a server's default time control cannot be used: %s", exc.text("en"))
        return None


def clock_args(turn_time: int | None, time_control: str | None, weekend_pause: bool | None,
               settings: dict, locale: str) -> tuple[dict[str, Any], str | None]:
    """The clock of a new match, as ``host.challenge`` takes it (``turn_seconds``, or
    ``time_control`` and ``weekend_pause``), or ``({}, refusal)`` in ``locale``:

    - ``turn_time`` (today's choices; 0: none) and ``time_control`` (a preset, a typed control
      such as ``3d+1d max 7d`` or ``24h per move``, or ``none``) are one choice: giving both is
      refused;
    - neither: the server's default control (``settings["clock_control"]``), else no clock;
    - ``weekend_pause`` None: the server's default (``clock_weekend``) for a bank, off otherwise;
      on without a bank is refused (there is no clock to pause)."""
    typed = (time_control or "").strip()
    if turn_time is not None and typed:
        return {}, tr("play_clock.err.both", locale)
    tc: control.TimeControl | None = None
    if turn_time is not None:
        if int(turn_time) not in TURN_CHOICES:
            allowed = tr("core.list_sep", locale).join(tr(f"cogs.turn.{s}", locale) for s in TURN_CHOICES)
            return {}, tr("cogs.err.turn_time", locale, allowed=allowed)
        if turn_time:
            tc = control.TimeControl.move(int(turn_time))
    elif typed:
        try:
            tc = read_control(typed)
        except ClockError as exc:
            return {}, exc.text(locale)
    else:
        tc = stored_control(settings)
    bank = tc is not None and tc.is_bank
    if weekend_pause is None:
        weekend = bank and (settings or {}).get("clock_weekend") is True
    elif weekend_pause and not bank:
        return {}, tr("clock.err.control.weekend", locale)
    else:
        weekend = bool(weekend_pause)
    if tc is None:
        return {}, None
    if turn_time is not None:           # today's option, as it was
        return {"turn_seconds": tc.per_move}, None
    args: dict[str, Any] = {"time_control": tc.to_json()}
    if bank:
        args["weekend_pause"] = weekend
    return args, None


async def zone_autocomplete(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """``zone``: IANA time zones for what was typed (a name, a city, a common place)."""
    try:
        return [Choice(name=z, value=z) for z in notify.zone_choices(current or "", CHOICE_MAX)]
    except Exception:
        log.exception("time zone autocomplete failed")
        return []
