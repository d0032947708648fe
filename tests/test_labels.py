"""Moves in words (issue 14, "Two taps to move"): every legal command of every game, at every
position random play reaches, has a label a player can read — never a bare id or notation token —
in both languages; moves are told apart; every game has its own describer."""
from __future__ import annotations

import importlib
import random

import pytest

from render.labels import TEXT_MAX, Choice, choices, is_raw_id
from rules import registry

NAMES = ["Alice", "Bob", "Carol", "Dave"]
def _cases():
    for name in registry.names():
        for players in ([2, 3, 4] if name == "avalon" else [2]):
            yield pytest.param(name, players, id=f"{name}-{players}p")


def test_is_raw_id() -> None:
    legal = ["use ac07", "fb ts03", "move c1 c3", "end"]
    for raw in ("ac07", "c21", "fb ts03", "end", "use ac07", "ts03 ac07", ""):
        assert is_raw_id(raw, legal), raw
    for words in ("Leap L2 c1 → c3", "End the turn", "Drive Lance — 70 to 2 squares ahead", "パス"):
        assert not is_raw_id(words, legal), words


@pytest.mark.parametrize("name", registry.names())
def test_every_game_has_a_describer(name: str) -> None:
    module = importlib.import_module(f"render.labels_{name}")
    assert callable(module.choices)


@pytest.mark.parametrize("name,players", list(_cases()))
def test_every_legal_command_reads_as_words(name: str, players: int) -> None:
    game = registry.get(name)
    problems: list[str] = []
    for seed in range(3):
        state = game.new_match(players=players, seed=seed, options={})
        rng = random.Random(seed)
        for _ in range(400):
            if game.outcome(state) is not None or not game.to_act(state):
                break
            for seat in game.to_act(state):
                legal = game.legal_commands(state, seat)
                view = game.view(state, seat)
                for locale in ("en", "ja"):
                    out = choices(name, view, seat, legal, locale, NAMES[:players])
                    assert [c.command for c in out] == legal
                    seen: dict[tuple[str, str, str], str] = {}
                    for c in out:
                        assert isinstance(c, Choice)
                        if is_raw_id(c.label, legal):
                            problems.append(f"{locale} {c.command!r} -> label {c.label!r}")
                        if c.group and is_raw_id(c.group, legal):
                            problems.append(f"{locale} {c.command!r} -> group {c.group!r}")
                        assert len(c.label) <= TEXT_MAX and len(c.description) <= TEXT_MAX
                        key = (c.group, c.label, c.description)
                        if key in seen:
                            problems.append(f"{locale} {c.command!r} and {seen[key]!r} read the same: {key}")
                        seen[key] = c.command
            seat = game.to_act(state)[0]
            state = game.apply(state, seat, rng.choice(game.legal_commands(state, seat)))
    assert not problems, "\n".join(sorted(set(problems))[:20])
