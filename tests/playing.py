"""Random legal play through the engine contract, for tests that need a position reached by play."""
from __future__ import annotations

import random
from typing import Any, Callable


def random_log_until(game: Any, options: dict, stop: Callable[[Any], bool], *, seeds=range(300),
                     prefer: Callable[[list[str]], list[str]] | None = None,
                     max_commands: int = 400) -> tuple[int, list[tuple[int, str]]]:
    """The first seed (and its command log) whose random play reaches a state where ``stop``
    holds.  ``prefer`` narrows the legal commands to choose from when it returns any (e.g. always
    answer a chain)."""
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_match(2, seed, options)
        log: list[tuple[int, str]] = []
        while game.outcome(state) is None and len(log) < max_commands:
            seat = game.to_act(state)[0]
            legal = game.legal_commands(state, seat)
            cmd = rng.choice((prefer(legal) if prefer else None) or legal)
            state = game.apply(state, seat, cmd)
            log.append((seat, cmd))
            if stop(state):
                return seed, log
    raise AssertionError(f"no seed in {seeds} reaches the position")
