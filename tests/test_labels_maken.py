"""Project Maken moves in words (issue 14): the Act menu names the cards and what they do, never
the ids of the notation (docs/rules/maken.md, "Notation")."""
from __future__ import annotations

import random

from render.labels import choices
from rules import registry

game = registry.get("maken")


def _menu(state, seat, locale):
    legal = game.legal_commands(state, seat)
    return {c.command: c for c in choices("maken", game.view(state, seat), seat, legal, locale, ["Alice", "Bob"])}


def _first(state, verb):
    """A position where the seat to act may play ``verb`` (random play from a fixed seed)."""
    rng = random.Random(5)
    for _ in range(400):
        seat = game.to_act(state)[0]
        legal = game.legal_commands(state, seat)
        if any(c.split()[0] == verb for c in legal):
            return state, seat
        state = game.apply(state, seat, rng.choice(legal))
    raise AssertionError(f"no position with {verb}")


def test_opening_and_first_bet_read_as_words():
    # "| `ready` / `mulligan` | opening | keep the hand / mulligan once |"
    state = game.new_match(players=2, seed=3, options={})
    seat = game.to_act(state)[0]
    en, ja = _menu(state, seat, "en"), _menu(state, seat, "ja")
    assert en["ready"].label == "Keep this hand" and ja["ready"].label == "この手札で始める"
    assert en["mulligan"].label == "Mulligan" and ja["mulligan"].label == "マリガン"
    # "| `fb ts05` | before attack | first bet |" — the card by name, with its numbers
    state, seat = _first(state, "fb")
    view = game.view(state, seat)
    en = _menu(state, seat, "en")
    fb = next(c for c in en.values() if c.command.startswith("fb ") and len(c.command.split()) == 2)
    card = view["cards"][fb.command.split()[1]]
    assert fb.label == f"First bet: {card['name']['en']}" and fb.group == card["name"]["en"]
    assert fb.description.startswith(f"SPD {card['speed']} · reach ")
    ja = _menu(state, seat, "ja")
    assert ja[fb.command].label == f"ファーストベット：{card['name']['ja']}"


def test_guards_name_their_type_and_cards():
    # "| `guard stand ts03 ts01` | attack phase | guard: type, then the cards (first named on top, …) |"
    state, seat = _first(game.new_match(players=2, seed=8, options={}), "guard")
    view = game.view(state, seat)
    en = _menu(state, seat, "en")
    guard = next(c for c in en.values() if c.command.startswith("guard "))
    _, kind, *ids = guard.command.split()
    names = [view["cards"][c]["name"]["en"] for c in ids]
    assert guard.label.startswith("Guard (") and all(n in guard.label for n in names)
    assert guard.description.startswith(f"{names[0]} on top")
