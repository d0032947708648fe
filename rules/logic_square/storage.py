"""Battle Logic Square match states as JSON (the engine's ``dump``/``load``): every field but the
card set, checked when read (an unknown phase or rules edition is refused)."""
from __future__ import annotations

import json
from functools import lru_cache

from rules.logic_square.cards import CardSet
from rules.editions import known
from rules.logic_square.match import EDITIONS, Decl, LSState


@lru_cache(maxsize=64)
def _cardset_from_text(text: str) -> CardSet:
    return CardSet.from_json(json.loads(text), source="<match state>")


def _state_json(state: LSState) -> dict:
    """Everything of a state but its card set and its ``base`` (JSON-able)."""
    return {
        "seed": state.seed, "rng": state.rng, "first": state.first, "max_turns": state.max_turns,
        "awakening": state.awakening, "turn": state.turn, "player": state.player,
        "phase": state.phase, "ap": state.ap, "caa_used": state.caa_used,
        "avi": list(state.avi), "pos": list(state.pos), "life": list(state.life),
        "hand": [list(h) for h in state.hand], "deck": [list(d) for d in state.deck],
        "trash": [list(t) for t in state.trash], "it_left": [list(t) for t in state.it_left],
        "it_used": [list(t) for t in state.it_used], "placed": [list(p) for p in state.placed],
        "shield": list(state.shield), "ap_bank": list(state.ap_bank),
        "chain": [[d.seat, d.source, d.card, d.target, list(d.squares), list(d.paid)] for d in state.chain],
        "window": state.window, "last": state.last, "result": state.result,
        "edition": state.edition,
    }


def _state_from_json(data: dict, cards: CardSet, base: LSState | None) -> LSState:
    if data["phase"] not in ("main", "discard", "over"):
        raise ValueError(f"Battle Logic Square state has an unknown phase {data['phase']!r}")

    def pair(key: str) -> tuple:
        return tuple(tuple(x) for x in data[key])

    return LSState(
        seed=data["seed"], rng=data["rng"], cards=cards, first=data["first"],
        max_turns=data["max_turns"], awakening=data["awakening"], turn=data["turn"],
        player=data["player"], phase=data["phase"], ap=data["ap"], caa_used=data["caa_used"],
        avi=tuple(data["avi"]), pos=tuple(data["pos"]), life=tuple(data["life"]),
        hand=pair("hand"), deck=pair("deck"), trash=pair("trash"), it_left=pair("it_left"),
        it_used=pair("it_used"), placed=tuple(tuple(p) for p in data["placed"]),
        shield=tuple(data["shield"]), ap_bank=tuple(data["ap_bank"]),
        chain=tuple(Decl(d[0], d[1], d[2], d[3], tuple(d[4]), tuple(d[5])) for d in data["chain"]),
        window=data["window"], last=data["last"], result=data["result"], base=base,
        edition=_edition(data.get("edition", 1)))     # a state stored before editions: edition 1


def _edition(value: object) -> int:
    return known(value, EDITIONS, "Battle Logic Square")
