"""Battle Logic Square: a full state consistent with a seat's view (the engine contract's
``determinize``), for the computer player, which sees only a view."""
from __future__ import annotations

from typing import Any

from rules import prng as _prng
from rules.common import copy_json
from rules.logic_square.board import SQ_INDEX
from rules.logic_square.match import EDITION, Decl, LSState


def determinize(game: Any, view: dict, seat: int | None, rng: Any) -> LSState:
    """A full state consistent with ``view`` (docs/engine.md).  Sampled (from the card set's
    resource cards): both resource decks, which nobody sees, and the opponent's hand; the
    opponent's face-down IT cards (different IT cards it has not used); the random stream.  A chain the
    seat is answering is rebuilt from the view."""
    import random as _random

    rng = rng if rng is not None else _random.Random()
    pool = game.cardset_at(view.get("edition", EDITION))
    resources = [c for c, card in pool.cards.items() if card.category in ("Ac", "Sc", "Br")]
    its = [c for c, card in pool.cards.items() if card.category == "IT"]
    players = {p["seat"]: p for p in view["players"]}
    avis = {a["seat"]: a for a in view["board"]["avis"]}
    hand, deck, it_left = [(), ()], [(), ()], [(), ()]
    for i in (0, 1):
        p = players[i]
        # a deck is face down to its owner too (the view shows its size only)
        deck[i] = tuple(rng.choice(resources) for _ in range(p["deck_count"]))
        if i == seat:
            hand[i] = tuple(view["hand"])
            it_left[i] = tuple(view["it_unused"])
        else:
            hand[i] = tuple(rng.choice(resources) for _ in range(p["hand_count"]))
            unused = [c for c in its if c not in p["it_used"]]
            it_left[i] = tuple(rng.sample(unused, min(len(unused), p["it_unused_count"])))
    decls = []
    pending = view.get("pending") or {}
    window = seat if isinstance(pending, dict) and pending.get("kind") == "chain" else None
    for d in view.get("chain") or []:
        decls.append(Decl(d["seat"], d["source"], d["card"], SQ_INDEX[d["target"]] if d.get("target") else -1,
                          tuple(SQ_INDEX[q] for q in d.get("range") or []), tuple(d.get("paid") or [])))
    outcome = view.get("outcome")
    turn_player = view["player"]
    return LSState(
        seed=0, rng=_prng.start(rng.getrandbits(127)), cards=pool, first=view["first"],
        max_turns=view["max_turns"], awakening=view["awakening_rule"], turn=view["turn"],
        player=turn_player, phase=view["phase"], ap=players[turn_player]["ap"],
        caa_used=players[turn_player]["caa_used"],
        avi=(players[0]["avi"], players[1]["avi"]),
        pos=(SQ_INDEX[avis[0]["square"]], SQ_INDEX[avis[1]["square"]]),
        life=(players[0]["life"], players[1]["life"]),
        hand=(hand[0], hand[1]), deck=(deck[0], deck[1]),
        trash=(tuple(players[0]["trash"]), tuple(players[1]["trash"])),
        it_left=(it_left[0], it_left[1]),
        it_used=(tuple(players[0]["it_used"]), tuple(players[1]["it_used"])),
        placed=tuple(sorted((SQ_INDEX[q["square"]], q["owner"], q["card"], q["durability"])
                            for q in view["board"]["placed"])),
        shield=(players[0]["shield"], players[1]["shield"]),
        ap_bank=(players[0]["ap_next"], players[1]["ap_next"]),
        chain=tuple(decls), window=window, last=copy_json(view["last"]) if view.get("last") is not None else None,
        result=copy_json(outcome) if outcome else None, base=None, edition=view.get("edition", EDITION))
