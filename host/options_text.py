"""A match's options as everyone may read them — the one place public text shows options.

``rec.options`` holds what the engine needs, and for card games that includes every deck list
(a custom deck's spec: its face-down IT deck, the cards still in its deck …).  Public text
(the board message, ``/match status``) never prints it as it is: :func:`public_options` gives
one line per option that differs from the game's default, ``name: value`` in the reader's
language, and one line per seat for its deck — a ready-made deck by its display name, any
other deck (a saved deck, a deck code) only as "own deck".  Never a deck's contents, never a
raw id.  A limited match's deck rules (the option ``deck_rules``, :mod:`rules.deck_rules`) are
one line in words: "Limited deck: 20 resource cards besides the AVI and the IT deck, at most 2
copies of a card" (:func:`deck_rules_line`).  (The exported record of a finished match keeps
the full options: it is released only once the match is over, see ``host.records``.)

The match's clock is said the same way, in words (:func:`clock_lines`): its time control
("Daily: 3 days + 1 day per move, at most 7 days", or today's time per move), the weekend pause,
an event's playing hours and whether vacation stops the banks — never a bank's stored seconds.

>>> from rules import registry
>>> public_options(registry.get("squares"), {"first": 1}, ["Alice", "Bob"], "en")
'First player: Bob'
"""
from __future__ import annotations

from typing import Any

from data import i18n
from host.clocks import calendar, control
from host.clocks import match as bank_clock
from rules.deck_rules import OPTION as DECK_RULES

# options whose value is a seat number: shown as that seat's player
SEAT_OPTIONS = frozenset({"first", "leader"})


def _game_name(game: Any) -> str:
    return str(getattr(game, "name", "") or "")


def option_name(game: Any, name: str, locale: str) -> str:
    """An option's name for players: ``options.<game>.<name>``, else ``options.name.<name>``."""
    for key in (f"options.{_game_name(game)}.{name}", f"options.name.{name}"):
        if i18n.has(key):
            return i18n.t(key, locale)
    return name


def player_label(names: list[str] | None, seat: int, locale: str) -> str:
    name = (names[seat] if names and 0 <= seat < len(names) else "") or ""
    return name[:40] if name.strip() else i18n.t("options.seat", locale, n=seat + 1)


def option_value(game: Any, name: str, value: Any, names: list[str] | None, locale: str) -> str:
    if value is None:
        return i18n.t("options.random", locale)
    if isinstance(value, bool):
        return i18n.t("options.on" if value else "options.off", locale)
    if name in SEAT_OPTIONS and isinstance(value, int):
        return player_label(names, value, locale)
    key = f"{_game_name(game)}.{name}.{value}"     # e.g. avalon.mode.expert
    if i18n.has(key):
        return i18n.t(key, locale)
    return str(value)[:60]


def deck_name(game: Any, deck: Any, locale: str) -> str:
    """A ready-made deck by its display name; any other deck (a spec, a code) is "own deck"."""
    decks = getattr(game, "decks", None)
    ready = decks.ready() if decks is not None else {}
    if isinstance(deck, str) and deck in ready:
        names = ready[deck].get("name") or {}
        if isinstance(names, dict):
            shown = names.get(locale) or names.get("en")
            if shown:
                return str(shown)
        elif names:
            return str(names)
    return i18n.t("options.own_deck", locale)


def deck_rules_line(game: Any, rules: Any, locale: str) -> str | None:
    """A limited match's deck rules in words, counted as the game counts its deck, or None when
    ``rules`` is not ``{"size": n, "copies": m or None}`` of whole numbers (nothing raw is shown).

    >>> from rules import registry
    >>> deck_rules_line(registry.get("maken"), {"size": 20, "copies": 2}, "en")
    'Limited deck: 20 cards besides the character, at most 2 copies of a card'
    """
    if not isinstance(rules, dict) or set(rules) - {"size", "copies"}:
        return None
    size, copies = rules.get("size"), rules.get("copies")
    if not _whole(size) or not (copies is None or _whole(copies)):
        return None
    key = f"limited_deck.line.{_game_name(game)}"
    line = i18n.t(key if i18n.has(key) else "limited_deck.line", locale, size=size)
    if copies is None:
        return line
    return i18n.t("limited_deck.copies", locale, line=line, count=copies)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_default(spec: dict | None, value: Any) -> bool:
    if not spec or "default" not in spec:
        return False
    default = spec["default"]
    return value == default and type(value) is type(default)


def public_lines(game: Any, options: dict | None, names: list[str] | None, locale: str) -> list[str]:
    options = options or {}
    schema = game.option_schema() if hasattr(game, "option_schema") else {}
    lines = []
    for name, value in options.items():
        if name == DECK_RULES:
            line = deck_rules_line(game, value, locale)
            if line:
                lines.append(line)
            continue
        if name == "decks" or _is_default(schema.get(name), value):
            continue
        if not (value is None or isinstance(value, (bool, int, float, str))):
            continue    # a structured value is never printed as it is
        lines.append(i18n.t("options.line", locale, name=option_name(game, str(name), locale),
                            value=option_value(game, str(name), value, names, locale)))
    decks = options.get("decks")
    if isinstance(decks, (list, tuple)):
        for seat, deck in enumerate(decks):
            if deck is None:        # not chosen yet
                continue
            # a limited match's decks are built from the players' pools
            shown = i18n.t("options.pool_deck", locale) if DECK_RULES in options else deck_name(game, deck, locale)
            lines.append(i18n.t("options.deck", locale, player=player_label(names, seat, locale), deck=shown))
    return lines


def public_options(game: Any, options: dict | None, names: list[str] | None, locale: str) -> str:
    """Options as public text (one line each; "" when there is nothing to say)."""
    return "\n".join(public_lines(game, options, names, locale))


def clock_lines(rec: Any, locale: str) -> list[str]:
    """How the match's clock works, one line each, for everyone: a bank's time control in words
    (``control.describe``), the weekend pause, the playing hours (an event's) and, when a
    player's vacation does not stop the banks, that; else today's time per move in words (the
    ``/play`` choice's own words when it is one); nothing without a clock.  A bank match keeps
    its starting time in ``turn_seconds``: that is never shown as a time per move."""
    mc = bank_clock.read(rec)
    if mc is not None:
        lines = [i18n.t("play_clock.board.control", locale, control=control.describe(mc.control, locale))]
        if mc.weekend:
            lines.append(i18n.t("play_clock.board.weekend", locale))
        if mc.hours:
            lines.append(i18n.t("play_clock.board.hours", locale, hours=calendar.format_hours(mc.hours, locale),
                                zone=mc.hours_zone or bank_clock.UTC))
        if not mc.vacation:
            lines.append(i18n.t("play_clock.board.no_vacation", locale))
        return lines
    seconds = getattr(rec, "turn_seconds", None)
    if not seconds:
        return []
    if (getattr(rec, "meta", None) or {}).get(bank_clock.KEY) is not None:
        return []               # a bank that cannot be read: its seconds are no time per move
    key = f"cogs.turn.{seconds}"
    return [i18n.t(key, locale) if i18n.has(key) else control.words(int(seconds), locale, days=False)]
