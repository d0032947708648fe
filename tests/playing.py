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


def untexted(view: Any) -> Any:
    """A view without the cards' rules texts (``text`` of each entry of ``cards``, and of Art of
    War's ``units`` and ``kings``): their wording is presentation and is improved (issue 16
    rewrote Avalon's; issue 33 gave Art of War's units theirs, for the hand pictures), while the
    deal, the play and every number must stay exactly as recorded."""
    def bare(part: Any) -> Any:
        def one(c: Any) -> Any:
            return {k: v for k, v in c.items() if k != "text"} if isinstance(c, dict) else c
        if isinstance(part, dict):
            return {k: one(c) for k, c in part.items()}
        if isinstance(part, list):
            return [one(c) for c in part]
        return part

    if not isinstance(view, dict):
        return view
    return {k: bare(v) if k in ("cards", "units", "kings") else v for k, v in view.items()}
