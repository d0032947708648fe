"""Project Maken: what a seat sees (``view``) and a full state consistent with it
(``determinize``) — the view half of :class:`MakenGame` (``rules/maken/engine.py``); the view
format is in ``docs/rules/maken.md``."""
from __future__ import annotations

import json
import random as _random
from typing import Any

from rules import prng as _prng
from rules.maken.editions import edition_key, edition_of, stamp
from rules.maken.mechanics import GAME, MakenState, _attack, _difficulty, _speed


class ViewMixin:
    """``view`` and ``determinize`` of :class:`rules.maken.engine.MakenGame`."""

    cardset: Any
    edition: int
    public_to_act: Any
    outcome: Any
    to_act: Any
    _legal: Any
    _blank: Any
    _all_cards: Any
    for_edition: Any
    # ----------------------------------------------------------------- view
    def view(self, state: MakenState, seat: int | None) -> dict:
        d = state.d
        cards = d["cards"]
        mentioned: set[str] = set(d["chars"])
        players = []
        for s in (0, 1):
            field = [{"card": e[0], "bonuses": list(e[1]), "twin": bool(e[2])} for e in d["field"][s]]
            mentioned.update(e[0] for e in d["field"][s])
            mentioned.update(d["dust"][s])
            if d["gc_open"][s]:
                mentioned.add(d["gc_open"][s])
            players.append({
                "seat": s, "character": d["chars"][s], "upright": s == d["tp"] and d["turn"] > 0,
                "hand_count": len(d["hand"][s]), "stamina_count": len(d["stamina"][s]),
                "gauge_count": len(d["gauge"][s]), "damage_count": len(d["damage"][s]),
                "lp_count": len(d["lp"][s]), "dust": list(d["dust"][s]),
                "dust_top": d["dust"][s][-1] if d["dust"][s] else None,
                "field": field,
                "top": ({"card": field[-1]["card"], "speed": _speed(d, d["field"][s][-1]),
                         "front": cards[field[-1]["card"]]["front"], "back": cards[field[-1]["card"]]["back"],
                         "attack": _attack(d, d["field"][s][-1]), "guard": _difficulty(d, d["field"][s][-1])}
                        if field else None),
                "guard": {"type": d["gtype"][s], "count": len(d["guard"][s]), "open": d["gc_open"][s]},
                "support": [{"turn_set": t} for _, t in d["support"][s]],
            })
        situation = None
        if d["situation"] == "even":
            situation = "even"
        elif d["situation"] == "guard":
            situation = "guard"
        judge = json.loads(json.dumps(d["judge"])) if d["judge"] else None
        if judge:
            mentioned.update(judge.get("hits", []))
        last = json.loads(json.dumps(d["last"])) if d["last"] else None
        log = json.loads(json.dumps(d["log"]))
        for ev in log + (last or {}).get("events", []):
            if isinstance(ev.get("card"), str):
                mentioned.add(ev["card"])
        out: dict[str, Any] = {
            "game": GAME, "seat": seat, "turn": d["turn"], "max_turns": d["max_turns"], **edition_key(d),
            "first": d["first"], "tp": d["tp"], "step": d["step"], "to_act": self.public_to_act(state),
            "situation": situation, "guarder": d["guarder"], "after_fb": d["after_fb"],
            "players": players, "judge": judge,
            "pending": ({"kind": d["pending"]["kind"], "seat": d["pending"]["seat"]} if d["pending"] else None),
            "last": last, "log": log, "outcome": self.outcome(state),
            # what the rules need to go on from here (determinize): who has mulliganed, and the
            # judge being settled (its winner and caller are public, as is a bonus bet)
            "mulled": list(d["mulled"]),
            "pending_detail": ({k: d["pending"].get(k) for k in ("winner", "caller", "bonus")}
                               if d["pending"] else None),
        }
        if seat in (0, 1):
            out["hand"] = sorted(d["hand"][seat])
            out["guard_cards"] = list(d["guard"][seat])
            out["support_cards"] = [{"card": c, "turn_set": t} for c, t in d["support"][seat]]
            mentioned.update(d["hand"][seat], d["guard"][seat], (c for c, _ in d["support"][seat]))
            out["legal"] = self._legal(d) if seat in self.to_act(state) else []
        # fresh copies of the cards' definitions, in one round trip through JSON (one per card
        # was a third of the cost of a view)
        out["cards"] = json.loads(json.dumps({cid: cards[cid] for cid in sorted(mentioned) if cid in cards}))
        return out

    # ----------------------------------------------------------------- determinize
    def determinize(self, view: dict, seat: int | None, rng: Any) -> MakenState:
        """A full state consistent with ``view`` (docs/engine.md).  Sampled from each player's
        character's cards: every face-down pile (stamina, LP, gauge, damage — face down to their
        owner too), the opponent's hand, face-down guard and set support cards; the random
        stream.  Everything face up (fields, dust, an opened guard-cancel card) is as shown."""
        if edition_of(view.get("edition", 1)) != self.edition:    # sampled under the match's edition
            return self.for_edition(view.get("edition", 1)).determinize(view, seat, rng)
        rng = rng if rng is not None else _random.Random()
        cards = self._all_cards()
        d = self._blank(0, cards, view["max_turns"])
        stamp(d, self.edition, self.cardset)
        d["rng"] = _prng.start(rng.getrandbits(127))
        players = {p["seat"]: p for p in view["players"]}
        d.update(first=view["first"], turn=view["turn"], tp=view["tp"], step=view["step"],
                 situation=view["situation"], guarder=view["guarder"], after_fb=view["after_fb"],
                 mulled=list(view["mulled"]))
        d["chars"] = [players[0]["character"], players[1]["character"]]
        for s in (0, 1):
            p = players[s]
            pool = [cid for cid, c in self.cardset.cards.items() if c.get("character") == p["character"]]

            def some(n: int, pool: list[str] = pool) -> list[str]:
                return [rng.choice(pool) for _ in range(n)]

            d["stamina"][s] = some(p["stamina_count"])
            d["lp"][s] = some(p["lp_count"])
            d["gauge"][s] = some(p["gauge_count"])
            d["damage"][s] = some(p["damage_count"])
            d["dust"][s] = list(p["dust"])
            d["field"][s] = [[e["card"], list(e["bonuses"]), 1 if e["twin"] else 0] for e in p["field"]]
            d["gtype"][s] = p["guard"]["type"]
            d["gc_open"][s] = p["guard"]["open"]
            if s == seat:
                d["hand"][s] = list(view["hand"])
                d["guard"][s] = list(view["guard_cards"])
                d["support"][s] = [[x["card"], x["turn_set"]] for x in view["support_cards"]]
            else:
                d["hand"][s] = some(p["hand_count"])
                d["guard"][s] = some(p["guard"]["count"])
                supports = [cid for cid in pool if self.cardset.cards[cid].get("kind") == "support"] or pool
                d["support"][s] = [[rng.choice(supports), x["turn_set"]] for x in p["support"]]
        if view.get("step") == "mulligan":
            d["mull"] = (view.get("to_act") or [None])[0]
        if view.get("pending"):
            d["pending"] = {"kind": view["pending"]["kind"], "seat": view["pending"]["seat"],
                            **(view.get("pending_detail") or {})}
        d["actor"] = self._actor_from(view)
        d["judge"] = json.loads(json.dumps(view["judge"])) if view.get("judge") else None
        d["last"] = json.loads(json.dumps(view["last"])) if view.get("last") else None
        d["log"] = json.loads(json.dumps(view.get("log") or []))
        d["result"] = json.loads(json.dumps(view["outcome"])) if view.get("outcome") else None
        return MakenState(d)

    @staticmethod
    def _actor_from(view: dict) -> int | None:
        """Who acts in the attack step (the state's ``actor``), as the view shows it."""
        to_act = view.get("to_act") or []
        return to_act[0] if view.get("step") == "attack" and to_act else None
