"""How a Art of War position looks for each seat, from the public view (see :mod:`ai.evaluate`).

The level ``normal`` looks one command ahead, so the evaluation has to see what the opponent can
do next: a KING that the opponent's units can reach with enough attack is as good as lost (its
capture or destruction loses at once), and a unit standing in reach of more attack than its
defence is likely to be taken (and may feed the opponent's kingdom)."""
from __future__ import annotations

from rules.art_of_war.engine import SQ_INDEX, reach

KINGDOM = 2.0          # a kingdom card: the end of war counts them, nation building compares them
HAND = 0.3             # a card in hand: options, SOLDIER attack, supports
UNIT = 1.0             # a unit on the battlefield: it holds the field (conscription, annihilation)
KING_LOST = 12.0       # the KING in reach of enough attack for the opponent's next chance
KING_PRESSED = 1.5     # the KING in reach of some attack (times the share of its defence)
UNIT_LOST = 0.6        # a basic unit in reach of enough attack to be taken
LEAD = 0.4             # each kingdom type ahead (nation building needs 4)


def _attack(u: dict, hand: int) -> int:
    a = u["attack"]
    return max(0, hand) if a == "hand" else int(a)


def strength(view: dict, seats: int) -> list[float]:
    """The kingdom decides the end of war; units on the battlefield hold it; a KING (or unit)
    within reach of enough of the opponent's attack is about to be lost."""
    out = [1.0, 1.0]
    players = {p["seat"]: p for p in view["players"]}
    for seat, p in players.items():
        out[seat] += KINGDOM * p["kingdom_count"] + HAND * p["hand_count"]
    kingdoms = [players[s]["kingdom"] for s in (0, 1)]
    for t in kingdoms[0]:
        a, b = kingdoms[0][t], kingdoms[1].get(t, 0)
        if a != b:
            out[0 if a > b else 1] += LEAD
    units = {0: {}, 1: {}}
    for u in view["field"]:
        units[u["owner"]][SQ_INDEX[u["square"]]] = u
    ranges = {"k": [tuple(tuple(o) for o in k["range"]) for k in view["kings"]]}
    for code, card in view["units"].items():
        ranges[code] = tuple(tuple(o) for o in card["range"])
    turn = view.get("player")
    battle_over = view.get("mode") == "arrange"
    for seat in (0, 1):
        enemy = 1 - seat
        # the enemy's next chance: its own turn now (upright units only, unless it arranged),
        # else its next turn (all its units stand up, it draws a card)
        now = turn == enemy
        if now and battle_over:
            attackers = []
        else:
            attackers = [(sq, u) for sq, u in units[enemy].items()
                         if not now or u["orientation"] == "upright"]
        e_hand = players[enemy]["hand_count"] + (0 if now else 1)
        for sq, u in units[seat].items():
            power = 0
            hits = 0
            for asq, a in attackers:
                arng = ranges["k"][enemy] if a["card"] == "k" else ranges[a["card"]]
                if sq in reach(enemy, asq, arng):
                    power += _attack(a, e_hand)
                    hits += 1
            # the defence the enemy has to beat: this turn's damage only counts in its own turn
            defence = u["defence"] - (u["damage"] if now else 0)
            if hits and e_hand > 0:
                power += 1                   # a SOLDIER or ARCHER rear support on top
            if u["card"] == "k":
                out[seat] += UNIT - 1.5 * u["damage"] * (1 if now else 0)
                if power >= defence:
                    out[enemy] += KING_LOST
                elif power:
                    out[enemy] += KING_PRESSED * power / max(1, defence)
            else:
                out[seat] += UNIT - 0.2 * u["damage"]
                if hits and power >= defence:
                    out[enemy] += UNIT_LOST
    return out
