"""TEST ONLY: the rules of Hidden Duel, a tiny game with a hidden hand (registered in the bot
process by :mod:`tests.e2e.hidden_game`; importing this module registers nothing).

Two players, three secret gems each (``gem-10`` … ``gem-98``).  Players take turns playing a
gem *face down* (``play gem-42``); everyone sees that a gem was played, never which.  After two
gems each, the higher sum of played gems wins.  No gem name ever becomes public, so any ``gem-``
in a public message is a leak.
"""
from __future__ import annotations

import copy
import json
import random
from typing import Any

from rules import IllegalCommand

NAME = "hidden_duel"
PLAYS_EACH = 2


class HiddenDuel:
    name = NAME
    min_players = 2
    max_players = 2

    def option_schema(self) -> dict:
        return {}

    def new_match(self, players: int, seed: int, options: dict | None = None) -> Any:
        if options:
            raise ValueError(f"unknown options: {', '.join(options)}")
        cards = [f"gem-{n}" for n in random.Random(seed).sample(range(10, 99), 6)]
        return {"hands": [sorted(cards[:3]), sorted(cards[3:])], "played": [[], []], "turn": 0}

    def to_act(self, s: Any) -> list[int]:
        return [] if self.outcome(s) else [s["turn"] % 2]

    def legal_commands(self, s: Any, seat: int) -> list[str]:
        return [f"play {c}" for c in s["hands"][seat]] if seat in self.to_act(s) else []

    def apply(self, s: Any, seat: int, command: str) -> Any:
        if command not in self.legal_commands(s, seat):
            raise IllegalCommand("play one of your own gems, on your turn")
        gem = command.split()[1]
        s = copy.deepcopy(s)
        s["hands"][seat].remove(gem)
        s["played"][seat].append(gem)
        s["turn"] += 1
        return s

    def public_command(self, state: Any, seat: int, command: str) -> str:
        return "play (face down)"

    def view(self, s: Any, seat: int | None) -> dict:
        v = {"game": NAME, "seat": seat, "face_down": [len(p) for p in s["played"]],
             "in_hand": [len(h) for h in s["hands"]], "to_act": self.to_act(s)}
        if seat is not None:
            v["hand"] = list(s["hands"][seat])
            v["played_by_you"] = list(s["played"][seat])
        return v

    def outcome(self, s: Any) -> dict | None:
        if s["turn"] < 2 * PLAYS_EACH:
            return None
        a, b = (sum(int(g.split("-")[1]) for g in p) for p in s["played"])
        return {"winners": [0] if a > b else [1] if b > a else [], "reason": "points"}

    def dump(self, s: Any) -> str:
        return json.dumps(s, sort_keys=True)

    def load(self, text: str) -> Any:
        return json.loads(text)


def secrets(state: Any) -> list[str]:
    """Every gem of a state (none may ever appear in a public message)."""
    return [g for part in ("hands", "played") for seat in state[part] for g in seat]

