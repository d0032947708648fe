"""Options as players type them (``first=1 max_turns=100``): parsing, the list a game offers
(as typed, and in the reader's words for the guide: :func:`options_guide`), and why an engine
refused a value — in the reader's language.  (What public messages show of a
match's options is :mod:`host.options_text`.)

Seats are counted from 1 wherever a person types or reads them (``first=1`` is the first seat,
as ``--ai 2=hard`` and ``2: pass`` in the console); the engines and stored matches count from 0.
The conversion happens here, where typed text becomes options (:func:`read_options`) and where
options are shown as they would be typed (:func:`typed_value`).

>>> from rules import registry
>>> read_options(registry.get("squares"), "first=2 max_turns=50")
({'first': 1, 'max_turns': 50}, None)
>>> describe_options(registry.get("squares"))
'first=random (random|1|2), max_turns=200 (10..1000), repetition=3 (2..10)'
"""
from __future__ import annotations

import json
from typing import Any

from data import i18n
from host.options_text import SEAT_OPTIONS, option_name
from host.types import Msg, msg


def _is_seat(name: Any, value: Any) -> bool:
    return name in SEAT_OPTIONS and isinstance(value, int) and not isinstance(value, bool)


def typed_value(value: Any, name: str | None = None) -> str:
    """An option value as it is typed: ``random`` for None, ``true``/``false``, a seat option
    (``first``, ``leader``) counted from 1, else as is.

    >>> typed_value(0, "first"), typed_value(0, "max_turns"), typed_value(None, "first")
    ('1', '0', 'random')
    """
    if value is None:
        return "random"
    if isinstance(value, bool):
        return "true" if value else "false"
    if _is_seat(name, value):
        return str(value + 1)
    return str(value)


def stored_value(name: str, value: Any) -> Any:
    """A typed value as the engine and the store keep it: a seat option counts from 0."""
    return value - 1 if _is_seat(name, value) else value


def describe_options(game: Any) -> str:
    """'name=default (choices|range)' for each option of a game, or '-'.  Decks are left out:
    they are chosen with the deck option or menu, not typed as an option."""
    schema = game.option_schema() if hasattr(game, "option_schema") else {}
    parts = []
    for name, spec in schema.items():
        if name == "decks":
            continue
        if "choices" in spec:
            rng = "|".join(typed_value(c, name) for c in spec["choices"])
        elif "min" in spec or "max" in spec:
            rng = f"{spec.get('min', '')}..{spec.get('max', '')}"
        else:
            rng = ""
        parts.append(f"{name}={typed_value(spec.get('default'), name)}" + (f" ({rng})" if rng else ""))
    return ", ".join(parts) or "-"


def options_guide(game: Any, locale: str) -> str:
    """What ``/play``'s options field takes, for the guide (``/rules``): one line per option in
    the reader's language — its name, what is typed, the values and the default — instead of the
    raw ``first=random (random|1|2)``.  Decks are left out (chosen with the deck option).

    >>> from rules import registry
    >>> print(options_guide(registry.get("art_of_war"), "ja"))
    • 先攻 `first`：`random`・`1`・`2`（既定：`random`）
    """
    schema = game.option_schema() if hasattr(game, "option_schema") else {}
    sep = i18n.t("options.describe.sep", locale)
    lines = []
    for name, spec in schema.items():
        if name == "decks":
            continue
        if "choices" in spec:
            values = sep.join(f"`{typed_value(c, name)}`" for c in spec["choices"])
        elif "min" in spec or "max" in spec:
            values = i18n.t("options.describe.range", locale, min=spec.get("min", ""), max=spec.get("max", ""))
        else:
            values = "…"
        lines.append(i18n.t("options.describe.line", locale, label=option_name(game, name, locale), name=name,
                            values=values, default=typed_value(spec.get("default"), name)))
    return "\n".join(lines) or i18n.t("options.describe.none", locale)


def read_options(game: Any, text: str | None) -> tuple[dict[str, Any], Msg | None]:
    """Typed options (``"first=1 max_turns=100"``) -> (options as stored, None), or ({}, the
    localized reason) for a token that is not ``name=value`` or a name the game does not have.
    A seat is typed from 1 and stored from 0 (``first=1`` -> ``{"first": 0}``).  Values are
    checked by the engine when the match is created (see :func:`option_problem`)."""
    try:
        options = parse_options(text)
    except ValueError as exc:
        return {}, msg("host.opt.syntax", token=str(exc.args[1]) if len(exc.args) > 1 else str(exc))
    schema = game.option_schema() if hasattr(game, "option_schema") else None
    for name in options:
        if name == "decks":
            return {}, msg("host.opt.decks")
        if schema is not None and name not in schema:
            return {}, msg("host.opt.unknown", name=name[:40])
    return {name: stored_value(name, value) for name, value in options.items()}, None


def option_problem(game: Any, options: dict, players: int, exc: Exception) -> Msg:
    """Why ``game.new_match`` refused ``options`` (it raised ``exc``), in the reader's language:
    the first option the engine refuses on its own, explained from the game's option schema.
    The engine's own (English) text is the last resort, e.g. for an illegal deck."""
    schema = game.option_schema() if hasattr(game, "option_schema") else {}
    for name, value in options.items():
        if name in ("decks", "deck_rules"):      # the decks, and a limited match's deck rules (set by the host)
            continue
        spec = schema.get(name)
        if spec is None:
            return msg("host.opt.unknown", name=str(name)[:40])
        try:
            game.new_match(players=players, seed=0, options={name: value})
        except ValueError:
            shown = typed_value(value, name)[:40]
            if "choices" in spec:
                return msg("host.opt.choice", name=name, value=shown,
                           choices="|".join(typed_value(c, name) for c in spec["choices"]))
            if "min" in spec or "max" in spec:
                return msg("host.opt.range", name=name, value=shown, min=spec.get("min", ""),
                           max=spec.get("max", ""))
            break
        except Exception:  # another engine problem: say what the engine said
            break
    return msg("host.raw", text=str(exc)[:300])


def parse_options(text: str | None) -> dict[str, Any]:
    """``"first=1 max_turns=100"`` -> ``{"first": 1, "max_turns": 100}`` (JSON values allowed;
    the text as typed: seats still count from 1, see :func:`read_options`).

    Raises ValueError(message, token) for a token that is not ``name=value``.
    """
    out: dict[str, Any] = {}
    for token in (text or "").replace(",", " ").split():
        name, eq, raw = token.partition("=")
        if not eq or not name:
            raise ValueError(f"{token!r} is not name=value", token[:40])
        try:
            out[name] = json.loads(raw)
        except json.JSONDecodeError:
            out[name] = raw
    return out
