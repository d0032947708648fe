"""Project Maken's state and mechanics below the engine's commands: the state's PRNG, the state
object, card values and the steps the rules are made of (draws, gauge, bets, downs, damage).
Used by :mod:`rules.maken.engine`; rules and footnotes: ``docs/rules/maken.md``."""
from __future__ import annotations

from typing import Any

from rules import prng as _prng

GAME = "maken"
GAUGE_CAP = 10          # 注1, 注19
DAMAGE_DOWN = 10        # 注18
LP_CARDS = 3
SUPPORT_MAX = 6
DEFAULT_MAX_TURNS = 60
GUARD_TYPES = ("stand", "crouch", "air")
BONUSES = ("atk", "spd", "grd")
TRIPLE_BONUSES = (("atk", "grd"), ("atk", "spd"), ("grd", "spd"))
LOG_KEEP = 16
STEP_VERBS = {
    "mulligan": ("ready", "mulligan"), "draw": ("draw",), "before": ("set", "use", "fb", "skip"),
    "attack": ("attack", "guard", "keep", "gc", "call", "break"), "bonus": ("bonus", "pass"),
    "after": ("use", "end"),
}
_MASK = (1 << 64) - 1


# --------------------------------------------------------------------------- PRNG (in the state)
def _rng_next(x: int | str) -> tuple[int | str, int]:
    """(new state, 64-bit output) of the match\'s stream (:func:`rules.prng.step`)."""
    return _prng.step(x)


def _shuffle(d: dict, pile: list) -> None:
    x = d["rng"]
    for i in range(len(pile) - 1, 0, -1):
        x, z = _rng_next(x)
        j = z % (i + 1)
        pile[i], pile[j] = pile[j], pile[i]
    d["rng"] = x


# --------------------------------------------------------------------------- the state
_PAIRS = ("hand", "stamina", "lp", "gauge", "damage", "dust", "guard")


class MakenState:
    """The whole match as one JSON-able dict ``d`` (see the module docstring)."""

    __slots__ = ("d",)

    def __init__(self, d: dict) -> None:
        self.d = d

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MakenState) and self.d == other.d

    def __repr__(self) -> str:
        d = self.d
        return f"<MakenState turn {d['turn']} step {d['step']} tp {d['tp']}>"


def _copy(d: dict) -> dict:
    n = dict(d)
    for k in _PAIRS:
        n[k] = [list(d[k][0]), list(d[k][1])]
    n["support"] = [[list(x) for x in d["support"][0]], [list(x) for x in d["support"][1]]]
    n["field"] = [[[e[0], list(e[1]), e[2]] for e in d["field"][0]],
                  [[e[0], list(e[1]), e[2]] for e in d["field"][1]]]
    for k in ("gtype", "gc_open", "mulled", "chars"):
        n[k] = list(d[k])
    n["log"] = list(d["log"])
    if d["pending"] is not None:
        n["pending"] = dict(d["pending"])
    return n


# --------------------------------------------------------------------------- card values
def _speed(d: dict, e: list) -> int:
    return d["cards"][e[0]]["speed"] + e[1].count("spd")


def _attack(d: dict, e: list) -> int:
    return d["cards"][e[0]]["attack"] + e[1].count("atk")


def _difficulty(d: dict, e: list) -> int:
    return d["cards"][e[0]]["guard"] + e[1].count("grd")


def _top(d: dict, s: int) -> list | None:
    f = d["field"][s]
    return f[-1] if f else None


def _top_speed(d: dict, s: int) -> int:
    t = _top(d, s)
    return 0 if t is None else _speed(d, t)          # 注12: no card = speed 0


def _top_back(d: dict, s: int) -> int:
    t = _top(d, s)
    return 0 if t is None else d["cards"][t[0]]["back"]


def _multisets(counts: list[tuple[str, int]], k: int, start: int = 0) -> list[tuple[str, ...]]:
    """All sorted multisets of size k from (id, available) pairs (sorted by id)."""
    if k == 0:
        return [()]
    out = []
    for i in range(start, len(counts)):
        cid, n = counts[i]
        if n <= 0:
            continue
        counts[i] = (cid, n - 1)
        for rest in _multisets(counts, k - 1, i):
            out.append((cid,) + rest)
        counts[i] = (cid, n)
    return out


def _counts(hand: list[str]) -> dict[str, int]:
    c: dict[str, int] = {}
    for x in hand:
        c[x] = c.get(x, 0) + 1
    return c


def _face_down_sets(hand: list[str], k: int) -> list[str]:
    """Token strings "<top> <rest sorted>" for every way to bet k face-down cards from hand."""
    counts = _counts(hand)
    out = []
    for top in sorted(counts):
        rest_counts = sorted(counts.items())
        rest_counts = [(c, n - (c == top)) for c, n in rest_counts]
        for rest in _multisets(rest_counts, k - 1):
            out.append(" ".join((top,) + rest))
    return out


# --------------------------------------------------------------------------- mechanics
def _event(d: dict, **ev: Any) -> None:
    d["log"].append(ev)
    if len(d["log"]) > LOG_KEEP:
        del d["log"][0]
    d["events"].append(ev)


def _draw(d: dict, s: int, n: int) -> int:
    st = d["stamina"][s]
    k = min(n, len(st))
    d["hand"][s].extend(st[:k])
    del st[:k]
    return k


def _gauge_gain(d: dict, s: int, n: int) -> int:
    """注1: at 10 gauge cards (already or on reaching it) the rest of the gain is ignored."""
    moved = 0
    for _ in range(n):
        if len(d["gauge"][s]) >= GAUGE_CAP or not d["stamina"][s]:
            break
        d["gauge"][s].append(d["stamina"][s].pop(0))
        moved += 1
    return moved


def _pay(d: dict, s: int, n: int) -> None:
    for _ in range(n):                           # gauge cards to the dust
        d["dust"][s].append(d["gauge"][s].pop())


def _send(d: dict, s: int, cid: str) -> None:
    """A face-up card moves to where its destination icon says (F, 注19)."""
    icon = d["cards"][cid]["icon"]
    if icon == "gauge" and len(d["gauge"][s]) < GAUGE_CAP:
        d["gauge"][s].append(cid)
    elif icon == "hand":
        d["hand"][s].append(cid)
    elif icon == "stamina":
        d["stamina"][s].append(cid)
    else:                                        # dust, or the 11th gauge card (注19)
        d["dust"][s].append(cid)


def _apply_effects(d: dict, s: int, effects: list, where: str) -> int:
    power = 0
    for eff in effects:
        if "if_gauge" in eff and len(d["gauge"][s]) < eff["if_gauge"]:
            continue
        n = eff["n"]
        if eff["do"] == "draw":
            _event(d, t="effect", seat=s, where=where, do="draw", n=_draw(d, s, n))
        elif eff["do"] == "gauge":
            _event(d, t="effect", seat=s, where=where, do="gauge", n=_gauge_gain(d, s, n))
        elif eff["do"] == "power":
            power += n
        elif eff["do"] == "recover":
            k = min(n, len(d["damage"][s]))
            moved = d["damage"][s][len(d["damage"][s]) - k:]
            del d["damage"][s][len(d["damage"][s]) - k:]
            d["stamina"][s].extend(moved)
            _event(d, t="effect", seat=s, where=where, do="recover", n=k)
    return power


def _bet(d: dict, s: int, cid: str, mult: int, bonuses: list[str], how: str) -> None:
    """注4 — the order of a bet (engine ruling): pay the gauge cost, place the card(s), the gauge
    gain (注2: before the card's text), the double/triple attack draw, then the text effects."""
    card = d["cards"][cid]
    _pay(d, s, card["cost"] * mult)
    hand = d["hand"][s]
    for _ in range(mult):
        hand.remove(cid)
    for i in range(mult):
        top = i == mult - 1
        d["field"][s].append([cid, list(bonuses) if top else [], 0 if top else 1])
    gained = _gauge_gain(d, s, card["gain"] * mult)
    _event(d, t="bet", seat=s, how=how, card=cid, copies=mult, bonuses=list(bonuses),
           cost=card["cost"] * mult, gained=gained)
    if mult > 1:
        _event(d, t="effect", seat=s, where="multi", do="draw", n=_draw(d, s, 1))
    _apply_effects(d, s, card["bet"], "bet")


def _down(d: dict, s: int) -> None:
    """A down: take 1 LP card into the hand, all damage cards under the stamina.  Ruling: taking the
    last LP card loses the match (注17)."""
    lp = d["lp"][s]
    if lp:
        d["hand"][s].append(lp.pop(0))
    d["stamina"][s].extend(d["damage"][s])
    d["damage"][s] = []
    _event(d, t="down", seat=s, lp_left=len(lp))
    if not lp and d["result"] is None:
        d["result"] = {"winners": [1 - s], "reason": "lp"}


def _damage(d: dict, s: int, total: int) -> None:
    """E: ``total`` cards from stamina (then dust, turned face down) to the damage pile; a down at
    10 damage (注18) or when nothing is left while damage remains ends the resolution."""
    if total <= 0:
        _event(d, t="damage", seat=s, n=0, from_dust=0)
        return
    taken = from_dust = 0
    st, dust, dmg = d["stamina"][s], d["dust"][s], d["damage"][s]
    for _ in range(total):
        if st:
            dmg.append(st.pop(0))
        elif dust:
            dmg.append(dust.pop())
            from_dust += 1
        else:
            _event(d, t="damage", seat=s, n=taken, from_dust=from_dust)
            _down(d, s)
            return
        taken += 1
        if len(dmg) >= DAMAGE_DOWN:
            _event(d, t="damage", seat=s, n=taken, from_dust=from_dust)
            _down(d, s)
            return
    _event(d, t="damage", seat=s, n=taken, from_dust=from_dust)


def _game_over(d: dict) -> None:
    """The match has a result: nobody acts any more; the last attack fields stay on show."""
    d.update(step="over", actor=None, pending=None, situation=None, guarder=None)


def _can_bet_face_up(d: dict, s: int, cid: str, mult: int = 1) -> bool:
    card = d["cards"][cid]
    return card["kind"] == "attack" and card["gc"] != "only" and card["cost"] * mult <= len(d["gauge"][s])
