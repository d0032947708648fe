"""Options as players type them (``first=0 max_turns=100``): parsing, the list a game offers,
and why an engine refused a value — in the reader's language.  (What public messages show of a
match's options is :mod:`host.options_text`.)"""
from __future__ import annotations

import json
from typing import Any

from host.types import Msg, msg


def typed_value(value: Any) -> str:
    """An option value as it is typed: ``random`` for None, ``true``/``false``, else as is."""
    if value is None:
        return "random"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def describe_options(game: Any) -> str:
    """'name=default (choices|range)' for each option of a game, or '-'.  Decks are left out:
    they are chosen with the deck option or menu, not typed as an option."""
    schema = game.option_schema() if hasattr(game, "option_schema") else {}
    parts = []
    for name, spec in schema.items():
        if name == "decks":
            continue
        if "choices" in spec:
            rng = "|".join(typed_value(c) for c in spec["choices"])
        elif "min" in spec or "max" in spec:
            rng = f"{spec.get('min', '')}..{spec.get('max', '')}"
        else:
            rng = ""
        parts.append(f"{name}={typed_value(spec.get('default'))}" + (f" ({rng})" if rng else ""))
    return ", ".join(parts) or "-"


def read_options(game: Any, text: str | None) -> tuple[dict[str, Any], Msg | None]:
    """Typed options (``"first=0 max_turns=100"``) -> (options, None), or ({}, the localized
    reason) for a token that is not ``name=value`` or a name the game does not have.  Values
    are checked by the engine when the match is created (see :func:`option_problem`)."""
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
    return options, None


def option_problem(game: Any, options: dict, players: int, exc: Exception) -> Msg:
    """Why ``game.new_match`` refused ``options`` (it raised ``exc``), in the reader's language:
    the first option the engine refuses on its own, explained from the game's option schema.
    The engine's own (English) text is the last resort, e.g. for an illegal deck."""
    schema = game.option_schema() if hasattr(game, "option_schema") else {}
    for name, value in options.items():
        if name == "decks":
            continue
        spec = schema.get(name)
        if spec is None:
            return msg("host.opt.unknown", name=str(name)[:40])
        try:
            game.new_match(players=players, seed=0, options={name: value})
        except ValueError:
            shown = typed_value(value)[:40]
            if "choices" in spec:
                return msg("host.opt.choice", name=name, value=shown,
                           choices="|".join(typed_value(c) for c in spec["choices"]))
            if "min" in spec or "max" in spec:
                return msg("host.opt.range", name=name, value=shown, min=spec.get("min", ""),
                           max=spec.get("max", ""))
            break
        except Exception:  # another engine problem: say what the engine said
            break
    return msg("host.raw", text=str(exc)[:300])


def parse_options(text: str | None) -> dict[str, Any]:
    """``"first=0 max_turns=100"`` -> ``{"first": 0, "max_turns": 100}`` (JSON values allowed).

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
