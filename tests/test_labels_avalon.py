"""Avalon's Sanctuary moves in words (issue 14): cards by name, lands as "land 2" or "Bob's land 3",
creatures with attack/durability — never a bare id (docs/rules/avalon.md, "Notation")."""
from __future__ import annotations

import random

from render.labels import choices
from rules import registry

game = registry.get("avalon")
NAMES = ["Alice", "Bob", "Carol"]


def _menu(state, seat, locale, players=3):
    legal = game.legal_commands(state, seat)
    return {c.command: c for c in choices("avalon", game.view(state, seat), seat, legal, locale, NAMES[:players])}


def test_forge_and_summon_name_the_card_and_the_land():
    # "| `forge <card> <land> [icons]` | set phase | …" and "| `summon <card> <land>` | set phase |"
    state = game.new_match(players=3, seed=2, options={})
    seat = game.to_act(state)[0]
    view = game.view(state, seat)
    en, ja = _menu(state, seat, "en"), _menu(state, seat, "ja")
    forge = next(c for c in en.values() if c.command.startswith("forge ") and len(c.command.split()) == 3)
    cid, land = forge.command.split()[1:]
    card = view["cards"][cid]
    assert forge.label == f"Forge {card['name']['en']} on land {land[1]}" and forge.group == card["name"]["en"]
    assert forge.description.startswith("mana: ")
    assert ja[forge.command].label == f"{card['name']['ja']}を土地{land[1]}に素成"
    assert en["done"].label == "Done" and ja["done"].label == "セット終了"


def test_another_players_land_is_named_by_the_player():
    # "another player's land `p<seat+1>l<n>` (e.g. `p2l3` = seat 1's land 3)"
    rng = random.Random(3)
    state = game.new_match(players=3, seed=3, options={})
    for _ in range(600):
        seat = game.to_act(state)[0]
        legal = game.legal_commands(state, seat)
        other = [c for c in legal if any(tok.startswith("p") and "l" in tok and tok[1:2].isdigit()
                                         and int(tok[1]) - 1 != seat for tok in c.split()[1:])]
        if other:
            c = _menu(state, seat, "en")[other[0]]
            tok = next(t for t in other[0].split()[1:] if t.startswith("p") and t[1:2].isdigit())
            assert f"{NAMES[int(tok[1]) - 1]}'s land {tok[3]}" in c.label, c.label
            return
        state = game.apply(state, seat, rng.choice(legal))
        if game.outcome(state) is not None:
            state = game.new_match(players=3, seed=rng.randrange(100), options={})
    raise AssertionError("no move aimed at another player's land")
