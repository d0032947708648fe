"""The text a DM carries (the seat's own part of its view, ``host.table.own_part``) reads line
for line as the seat's whole view reads: a player never sees a line in their DM that their own
view, shown whole, would not show (e.g. a player line without its KING's name)."""
from __future__ import annotations

import random

import pytest

from host.table import own_part
from render.text import render_text
from rules import registry

NAMES = ["Alice", "Bob", "Carol", "Dave"]


def _positions(name: str, count: int = 60):
    game = registry.get(name)
    players = max(2, game.min_players)
    for seed in range(count):
        rng = random.Random(seed)
        state = game.new_match(players=players, seed=seed, options={})
        for _ in range(rng.randint(0, 40)):
            seats = game.to_act(state)
            if not seats or game.outcome(state) is not None:
                break
            state = game.apply(state, seats[0], rng.choice(game.legal_commands(state, seats[0])))
        yield game, players, state


@pytest.mark.parametrize("name", ["logic_square", "maken", "art_of_war", "avalon"])
@pytest.mark.parametrize("locale", ["en", "ja"])
def test_every_line_of_a_dm_is_a_line_of_the_readers_whole_view(name, locale):
    checked = 0
    for game, players, state in _positions(name):
        public = game.view(state, None)
        for seat in range(players):
            view = game.view(state, seat)
            names = NAMES[:players]
            whole = {line.strip() for line in render_text(name, view, locale=locale, names=names).splitlines()}
            part = render_text(name, own_part(view, public), locale=locale, names=names)
            stray = [line for line in part.splitlines() if line.strip() and line.strip() not in whole]
            assert not stray, f"seat {seat}: {stray}"
            checked += bool(part.strip())
    assert checked, "no position gave a seat a private part to check"


def test_art_of_war_responder_reads_the_kings_by_name_in_the_dm():
    """During a response window the players' lines differ from the public ones (the declared
    card has left the hand), so they are in the own part — with the KINGs named as on the board."""
    game = registry.get("art_of_war")
    state = game.position(player=0, field={"b2": "0s", "b3": "1s"}, hands={0: "kp", 1: "w"})
    window = game.apply(state, 0, "support k a b3")
    text = render_text("art_of_war", own_part(game.view(window, 1), game.view(window, None)),
                       locale="en", names=["Alice", "Bob"])
    players = [line for line in text.splitlines() if line.startswith(("Alice", "Bob"))]
    assert players and all("KING)" in line for line in players), text
