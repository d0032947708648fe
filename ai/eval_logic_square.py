"""How a Battle Logic Square position looks for each seat, from the public view (see :mod:`ai.evaluate`).

The match is won by a knockout or, when both resource decks are spent, by the higher life (7.).
So the evaluation is a win chance: each seat's *worth* in life points — its life, what its placed
cards will still do for it (turrets that fire at the opponent, docks that heal, walls that take
hits off its AVI), the shield and AP it has banked, its awakening, the cards and IT cards it can
still use, the damage its AVI abilities reach from where it stands — and the lead in worth is read
against how much can still happen: the deck-out clock.  Early, a lead of 100 life means little;
with both decks nearly spent it decides the match.  The level ``normal`` looks one command ahead,
so these terms are what tells it to close in, place a turret or spend a deck while ahead.
"""
from __future__ import annotations

import math

from rules.logic_square.board import SQ_INDEX, project

HAND = 18              # a card in hand: about half a hit, and an answer the opponent must fear
DECK = 9               # a card still in the resource deck: drawn later (a CAA trades 3 of hand for 6)
HAND_KEEP = 5          # the end phase trashes down to 5: more than 5 + the AP left is lost
IT = 22                # a face-down IT card still to use
AP_BANKED = 35         # an AP banked for (or drained from) the seat's next main phase
SHIELD = 0.8           # a shield takes hit damage off the opponent's next turn
REACH = 0.3            # the AVI's abilities reach the opponent's AVI from where it stands
DURABILITY = 0.25      # a placed card: it blocks squares and soaks hits
HITS_PER_TURN = 1.5    # hits an AVI takes in a turn (a damage reduction counts this often)
PLACED_TURNS = 3       # turns a placed card's aura is counted for (it is hit meanwhile)
CARDS_PER_TURN = 3.0   # resource cards a seat goes through in a turn (draw to 5, CAA)
SPREAD = 45.0          # the worth lead that is a coin flip even on the last turn ...
SPREAD_TURN = 75.0     # ... plus this times the square root of the turns left each
AWAKENING = {"damage_bonus": 1.5, "ap_bonus": 40, "ability_discount": 25, "draw_bonus": 12}


def _offsets(rng) -> tuple:
    return tuple(tuple(o) for o in rng or ())


def strength(view: dict, seats: int) -> list[float]:
    """The two seats' win chances (see the module docstring)."""
    players = {p["seat"]: p for p in view["players"]}
    avis = {a["seat"]: a for a in view["board"]["avis"]}
    cards = view.get("cards") or {}
    pos = {s: SQ_INDEX[avis[s]["square"]] for s in (0, 1)}
    turns_left = max(players[0]["deck_count"], players[1]["deck_count"]) / CARDS_PER_TURN
    horizon = min(PLACED_TURNS, turns_left + 1)
    worth = [0.0, 0.0]
    reduction = [0, 0]
    bonus = [0, 0]
    for s in (0, 1):
        p = players[s]
        usable = min(p["hand_count"], HAND_KEEP + (p["ap"] if s == view["player"] else 0))
        worth[s] += max(0, p["life"]) + HAND * usable + DECK * p["deck_count"] + IT * p["it_unused_count"]
        worth[s] += AP_BANKED * p["ap_next"] + SHIELD * p["shield"]
        aw = (cards.get(p["avi"]) or {}).get("awakening")
        if avis[s].get("awakened") and aw:
            for m in aw.get("mods", ()):
                if m["mod"] == "damage_reduction":
                    reduction[s] += m["amount"]
                elif m["mod"] == "damage_bonus":
                    bonus[s] += m["amount"]
                worth[s] += AWAKENING.get(m["mod"], 0) * (m["amount"] if m["mod"] == "damage_bonus" else 1)
    for q in view["board"]["placed"]:
        s = q["owner"]
        worth[s] += DURABILITY * q["durability"]
        for m in (cards.get(q["card"]) or {}).get("aura") or ():
            if m["mod"] == "turret":
                squares = project(s, SQ_INDEX[q["square"]], _offsets(m.get("range")))
                aim = 1.0 if pos[1 - s] in squares else 0.3
                worth[s] += aim * m.get("damage", 0) * horizon
            elif m["mod"] == "heal_start":
                missing = 500 - players[s]["life"]
                worth[s] += min(m.get("amount", 0) * horizon, missing + m.get("amount", 0))
            elif m["mod"] == "damage_reduction":
                reduction[s] += m.get("amount", 0)
    for s in (0, 1):
        # hit damage taken off the opponent's coming hits; the damage the AVI's abilities reach
        worth[s] += reduction[s] * HITS_PER_TURN * min(turns_left + 1, PLACED_TURNS)
        avi = cards.get(players[s]["avi"]) or {}
        reach = 0
        for ab in avi.get("abilities") or ():
            if ab.get("damage") and pos[1 - s] in project(s, pos[s], _offsets(ab.get("range"))):
                reach = max(reach, ab["damage"] + bonus[s] - reduction[1 - s])
        worth[s] += REACH * max(0, reach)
    spread = SPREAD + SPREAD_TURN * math.sqrt(turns_left)
    lead = (worth[0] - worth[1]) / spread
    p0 = 1.0 / (1.0 + math.exp(-1.7 * max(-30.0, min(30.0, lead))))
    return [p0, 1.0 - p0]
