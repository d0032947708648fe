"""Autocomplete for ``/play options:`` — suggestions built from the chosen game's option schema.

The option stays free text (``first=1 max_turns=100``, read by :func:`host.read_options`); this
only offers what the game takes: for the word being typed, every ``name=value`` of an option not
set yet (each choice; for a number range the default, the bounds and a number being typed),
appended to what is already typed.  The label names the option and its value in the reader's
language (``first=1 — First player: seat 1``: seats count from 1, as everywhere people type
them).  Decks are left out: they are chosen with the deck option or menu.
"""
from __future__ import annotations

import logging
from typing import Any

import discord
from discord.app_commands import Choice

from cogs.common import CHOICE_MAX, VALUE_MAX, clip, tr, user_locale
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
