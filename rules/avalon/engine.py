"""Avalon's Sanctuary (アヴァロンの聖域): the rules engine behind the contract (ENGINE.md).

2–4 players, leader and chasers, late join.  Rules, rulings, notation and view format:
``docs/rules/avalon.md``.

>>> from rules import registry
>>> game = registry.get("avalon")
>>> s = game.new_match(players=2, seed=7, options={"leader": 0})
>>> game.to_act(s)
[0]
>>> game.legal_commands(s, 0)[-1]
'done'
>>> s = game.apply(s, 0, "done")          # leader's set phase -> main phase
>>> game.legal_commands(s, 0)
['pass']
"""
from __future__ import annotations

import json
from itertools import combinations
from typing import Any

from rules import IllegalCommand, Ref, english
from rules import prng as _prng
from rules.avalon.cards import GRANT_ORDER, SUPPORT_ORDER, ATTR_LETTER
from rules.avalon.messages import EN

HAND_SIZE = 6
LANDS = 5
MAX_SET_ACTIONS = 60          # house rule: a set phase ends after this many actions (termination)
MASK = (1 << 64) - 1

# mode -> (life bonus or fixed life, target mana, proofs); rulebook mode table
MODES = {
    "intro": ("+", 3, 10, 2),
    "normal": ("+", 2, 12, 2),
    "veteran": ("+", 1, 12, 2),
    "expert": ("+", 1, 12, 3),
    "complete": ("=", 3, 12, 3),
}
OPTION_SCHEMA: dict[str, dict[str, Any]] = {
    "mode": {"default": "normal", "choices": list(MODES)},
    "leader": {"default": None, "choices": [None, 0, 1, 2, 3]},
    "max_rounds": {"default": 60, "min": 5, "max": 500},
}
LAND_TOKENS = ("l1", "l2", "l3", "l4", "l5")
VERBS = ("forge", "summon", "magic", "discard", "use", "done", "advance", "ranged", "invade", "pass", "support")


# --------------------------------------------------------------------------- PRNG (splitmix64)

def _next(s: "State") -> int:
    """A 64-bit output: the keyed stream (rules.prng) for a str state, else the original
    splitmix64 of matches stored before it (prng version 1)."""
    if type(s.rng) is str:
        s.rng, out = _prng.draw(s.rng)
        return out
    s.rng = (s.rng + 0x9E3779B97F4A7C15) & MASK
    z = s.rng
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def _shuffle(s: "State", items: list) -> None:
    for i in range(len(items) - 1, 0, -1):
        j = _next(s) % (i + 1)
        items[i], items[j] = items[j], items[i]


# --------------------------------------------------------------------------- state

class Player:
    __slots__ = ("status", "deck", "avatar", "memory", "hand", "life", "discard", "lands",
                 "proofs", "focus", "out_at")
    # ``out_at``: the state's ``moves`` when the player went out (None while in the match);
    # players out in the same command tie in the finishing order (``outcome()["ranks"]``)

    def clone(self) -> "Player":
        p = Player.__new__(Player)
        p.status, p.deck, p.avatar = self.status, self.deck, self.avatar
        p.memory, p.hand, p.life, p.discard = self.memory[:], self.hand[:], self.life[:], self.discard[:]
        p.lands = [[l[0][:], l[1], l[2]] for l in self.lands]
        p.proofs, p.focus, p.out_at = self.proofs[:], self.focus, self.out_at
        return p

    def to_json(self) -> dict:
        return {k: getattr(self, k) for k in self.__slots__}

    @staticmethod
    def from_json(d: dict) -> "Player":
        p = Player.__new__(Player)
        for k in Player.__slots__:
            setattr(p, k, d.get(k) if k == "out_at" else d[k])   # absent in older dumps
        p.lands = [[[list(m) for m in l[0]], l[1], l[2]] for l in p.lands]
        return p


# Rules editions.  A match keeps the edition it started under, so a match stored before a ruling
# changed replays exactly as it was played.  1: reflect always beat instant death, and a lasting
# attack bonus on a land counted before the ability order; 2 (GAMES.md): the printed tie order
# decides at step 8 too (an invader's instant death resolves before a defender's reflect), and a
# lasting attack bonus is an attack change of ability order 4; 3: edition 2's rules with the
# balance changes to card numbers and ready-made decks of data/cards/avalon/06_editions.json
# (rules/avalon/editions.py; docs/rules/avalon.md, "Balance (rules edition 3)").
EDITIONS = (1, 2, 3)
EDITION = EDITIONS[-1]


def _edition(value: object) -> int:
    if isinstance(value, bool) or value not in EDITIONS:
        raise ValueError(f"unknown Avalon's Sanctuary rules edition {value!r} (known: {EDITIONS})")
    return int(value)  # type: ignore[call-overload]


class State:
    """The whole match as data.  A land is ``[mana, creature, atk_bonus]`` where ``mana`` is a
    list of ``[card_id, conversions]`` (bottom first; ``conversions`` a string of icon letters
    turned rainbow, ``"*"`` = all) and ``creature`` a card id or None.  ``sanct`` is the
    sanctuary (a land of the leader's) or None."""

    __slots__ = ("defs", "seed", "rng", "mode", "life0", "target", "proofs_needed", "max_rounds",
                 "players", "leader", "round", "kind", "step", "actor", "queue", "decls", "bi",
                 "battle", "sanct", "advanced", "holy", "abort", "result", "events", "last_battle",
                 "decks_opt", "acts", "moves", "edition")
    # ``moves``: commands, joins and resignations applied so far (stamps eliminations)
    # ``edition``: the rules edition the match started under (EDITIONS)

    def clone(self) -> "State":
        s = State.__new__(State)
        for k in ("defs", "seed", "rng", "mode", "life0", "target", "proofs_needed", "max_rounds",
                  "leader", "round", "kind", "step", "actor", "bi", "advanced", "holy", "abort",
                  "result", "last_battle", "decks_opt", "acts", "moves", "edition"):
            setattr(s, k, getattr(self, k))
        s.players = [p.clone() for p in self.players]
        s.queue = self.queue[:]
        s.decls = self.decls[:]
        s.battle = None if self.battle is None else dict(self.battle, choice=self.battle["choice"][:])
        s.sanct = None if self.sanct is None else [self.sanct[0][:], self.sanct[1], self.sanct[2]]
        s.events = self.events[:]
        return s


# --------------------------------------------------------------------------- card helpers

def icons(defs: dict, entry: list) -> dict:
    """The icons of one mana entry after rainbow conversions."""
    base = defs[entry[0]].get("mana") or {}
    out = dict(base)
    conv = entry[1]
    if conv == "*":
        n = sum(v for k, v in out.items() if k != "v")
        out = {"w": n} if n else {}
        if base.get("v"):
            out["v"] = base["v"]
    else:
        for a in conv:
            if out.get(a, 0) > 0:
                out[a] -= 1
                if not out[a]:
                    del out[a]
                out["w"] = out.get("w", 0) + 1
    return out


def land_icons(defs: dict, land: list) -> dict:
    tot: dict[str, int] = {}
    for e in land[0]:
        for k, v in icons(defs, e).items():
            tot[k] = tot.get(k, 0) + v
    return tot


def mana_count(defs: dict, land: list) -> int:
    """Mana of a land for the target and for summoning: every icon but the rainbow vessel."""
    return sum(v for k, v in land_icons(defs, land).items() if k != "v")


def mana_total(defs: dict, p: Player) -> int:
    return sum(mana_count(defs, l) for l in p.lands)


def eff_target(s: State, p: Player) -> int:
    defs = s.defs
    minus = sum(defs[l[1]].get("target_minus", 0) for l in p.lands if l[1])
    # 素成中 (while forged: mana on the player's own lands) and 証 (while a proof)
    minus += sum(defs[e[0]]["while_forged"]["target_minus"] for l in p.lands for e in l[0]
                 if "while_forged" in defs[e[0]])
    minus += sum(defs[c]["as_proof"]["target_minus"] for c in p.proofs if "as_proof" in defs[c])
    return max(1, s.target - minus - p.focus)


def can_stack(defs: dict, land: list, card: dict) -> bool:
    """Rulebook: on a land with mana only a card of the top mana's attribute or a colourless
    creature may be forged; colourless, rainbow, vessel mana and no-mana cards lift the limit."""
    if not land[0] or card["attr"] == "none":
        return True
    top = icons(defs, land[0][-1])
    if not top or any(k in top for k in ("c", "w", "v")):
        return True
    return ATTR_LETTER[card["attr"]] in top


def can_summon(defs: dict, land: list, card: dict) -> bool:
    if land[1] is not None or not land[0]:
        return False
    ic = land_icons(defs, land)
    if card["attr"] == "none":
        return sum(v for k, v in ic.items() if k != "v") >= card["orig"]
    return ic.get(ATTR_LETTER[card["attr"]], 0) + ic.get("w", 0) >= card["orig"]


def vessel_choices(defs: dict, land: list, card: dict) -> list[str]:
    """Which icons of the card below a rainbow vessel forged on ``land`` turns rainbow: every
    choice of ``min(vessel count, icons below)`` icons (「直前に素成した魔素のどれかを虹の器の魔素の
    数だけ、虹属性に変換する」), each spelled as its icon letters in the order y r b g c."""
    n = (card.get("mana") or {}).get("v", 0)
    if not n or not land[0]:
        return []
    below = icons(defs, land[0][-1])
    pool = "".join(k * below.get(k, 0) for k in "yrbgc")
    if not pool:
        return []
    return sorted({"".join(c) for c in combinations(pool, min(n, len(pool)))},
                  key=lambda w: ["yrbgc".index(ch) for ch in w])


def vessel_token(defs: dict, land: list, card: dict, token: str) -> str:
    """The canonical spelling of a vessel choice.  A single letter (the spelling of this engine's
    first version, and a short form) means the choice with the most icons of that kind."""
    choices = vessel_choices(defs, land, card)
    if token in choices or len(token) != 1:
        return token
    best = max(choices, key=lambda w: w.count(token), default="")
    return best if best.count(token) else token


def creature_view(defs: dict, land: list) -> dict | None:
    if land[1] is None:
        return None
    c = defs[land[1]]
    return {"card": land[1], "atk": c["atk"] + land[2], "dur": c["dur"], "orig": c["orig"],
            "attr": c["attr"], "keywords": list(c.get("keywords", []))}


# --------------------------------------------------------------------------- errors

def fail(key: str, **params: Any) -> IllegalCommand:
    return IllegalCommand(english(EN[key], EN, params), key=key, **params)


def ptok(seat: int) -> str:
    return f"p{seat + 1}"


def ltok(i: int) -> str:
    return f"l{i + 1}"


# --------------------------------------------------------------------------- primitive actions

MAX_EVENTS = 40        # public events kept (edition 1 kept 14): one leader end phase of four
                       # players says a few per player, and the table tells every one of them


def _event(s: State, key: str, **params: Any) -> None:
    s.events.append({"key": key, "params": params})
    if len(s.events) > (MAX_EVENTS if s.edition >= 2 else 14):
        del s.events[0]


def _told(s: State, key: str, **params: Any) -> None:
    """An event edition 1 did not tell (life, lifespan): a match that started under it replays
    with exactly the view it had."""
    if s.edition >= 2:
        _event(s, key, **params)


def _alive(s: State) -> list[int]:
    return [i for i, p in enumerate(s.players) if p.status != "out"]


def _eliminate(s: State, seat: int, why: str = "eliminated") -> None:
    p = s.players[seat]
    if p.status == "out":
        return
    p.status = "out"
    p.out_at = s.moves
    p.memory, p.hand, p.life, p.discard, p.proofs = [], [], [], [], []
    p.lands = [[[], None, 0] for _ in range(LANDS)]
    p.focus = 0
    _event(s, f"avalon.ev.{why}", player=ptok(seat))
    if seat == s.leader:
        s.sanct = None
        if s.kind == "leader":
            s.abort = True                  # Ruling: the leader turn ends at once
    alive = _alive(s)
    if len(alive) <= 1 and s.result is None:
        s.result = {"winners": alive, "reason": "last_standing" if alive else "all_out"}
        s.step = "over"


def _lose_life(s: State, seat: int) -> None:
    p = s.players[seat]
    if p.status == "out":
        return
    if p.life:
        p.discard.append(p.life.pop())
        _told(s, "avalon.ev.life_lost", player=ptok(seat), life=len(p.life))
    if not p.life:
        _eliminate(s, seat)


def _check_memory(s: State, seat: int) -> None:
    """Rulebook: メモリーが0枚になったら、その時点でライフを1枚捨て山に送り、その後捨て山をよく
    切ってからメモリーとして戻す."""
    p = s.players[seat]
    if p.memory or p.status == "out":
        return
    _event(s, "avalon.ev.refresh", player=ptok(seat))
    _lose_life(s, seat)
    if p.status == "out":
        return
    p.memory, p.discard = p.discard, []
    _shuffle(s, p.memory)


def _draw(s: State, seat: int, n: int) -> None:
    p = s.players[seat]
    for _ in range(n):
        if not p.memory or p.status == "out":
            return
        p.hand.append(p.memory.pop())
        _check_memory(s, seat)


def _gain_life(s: State, seat: int) -> None:
    p = s.players[seat]
    if p.memory and p.status != "out":
        p.life.append(p.memory.pop())
        _told(s, "avalon.ev.life_gained", player=ptok(seat), life=len(p.life))
        _check_memory(s, seat)


def _ability(s: State, seat: int, cid: str, timing: str, land: list | None = None) -> None:
    """Resolve the timed ability ``timing`` of card ``cid`` (cards.TIMINGS) for ``seat``.
    ``atk`` only affects the creature while it is still deployed on ``land``."""
    eff = s.defs[cid].get(timing)
    p = s.players[seat]
    if not eff or p.status == "out" or s.result is not None:
        return
    k, n = next(iter(eff.items()))
    if k == "atk" and (land is None or land[1] != cid):
        return
    _event(s, f"avalon.ev.ab_{timing}", player=ptok(seat), card=cid)
    if k == "draw":
        _draw(s, seat, n)
    elif k == "life":
        for _ in range(n):
            _gain_life(s, seat)
    elif k == "atk":
        land[2] += n


def _begin_battle(s: State, battle: dict) -> None:
    """A declared battle begins: 戦闘開始時 abilities (「メインフェイズで発生する戦闘に入る前に発動」)
    resolve before the battle supports are chosen, the invader's creature first; then both
    battlers choose their supports.  A battler out by then (a draw that emptied the memory) means
    the battle is not fought."""
    a, d = battle["a"], battle["d"]
    la = s.players[a].lands[battle["al"]]
    ld = s.sanct if battle["dl"] == -1 else s.players[d].lands[battle["dl"]]
    cards = (la[1], ld[1])
    _ability(s, a, cards[0], "battle_start")
    _ability(s, d, cards[1], "battle_start")
    if s.result is not None:
        return
    if s.players[a].status != "play" or s.players[d].status != "play":
        _event(s, "avalon.ev.battle_skipped", player=ptok(a))
        s.step = battle["ret"]
        return
    s.battle = battle
    s.step = "support"


def _clear_land(p: Player, land: list) -> None:
    if land[1] is not None:
        p.discard.append(land[1])
    p.discard.extend(e[0] for e in land[0])
    land[0], land[1], land[2] = [], None, 0


def _lifespan(s: State, seat: int, sanct: bool) -> None:
    """Rulebook: each deployed creature sends its bottom mana card to the discard pile; with none
    left it is destroyed; a land with mana but no creature loses all its mana."""
    p = s.players[seat]
    lands = list(p.lands) + ([s.sanct] if sanct and s.sanct is not None else [])
    spent = cleared = 0
    for land in lands:
        if land[1] is not None:
            if land[0]:
                p.discard.append(land[0].pop(0)[0])
                spent += 1
            else:
                _event(s, "avalon.ev.expired", player=ptok(seat), card=land[1])
                _clear_land(p, land)
        elif land[0]:
            cleared += len(land[0])
            _clear_land(p, land)
    if spent:
        _told(s, "avalon.ev.lifespan", player=ptok(seat), n=spent)
    if cleared:
        _told(s, "avalon.ev.mana_cleared", player=ptok(seat), n=cleared)
    if sanct and s.sanct is not None and s.sanct[1] is None:
        s.sanct = None


def _setup_player(s: State, seat: int, deck: dict) -> Player:
    p = Player.__new__(Player)
    p.status = "play"
    p.deck = deck
    p.avatar = deck["avatar"]
    p.memory = [cid for cid, n in deck["cards"].items() for _ in range(n)]
    _shuffle(s, p.memory)
    p.hand, p.life, p.discard, p.proofs = [], [], [], []
    p.lands = [[[], None, 0] for _ in range(LANDS)]
    p.focus = 0
    p.out_at = None
    for _ in range(HAND_SIZE):
        p.hand.append(p.memory.pop())
    for _ in range(s.life0):
        p.life.append(p.memory.pop())
    return p


# --------------------------------------------------------------------------- the turn machine

def _wake_joiners(s: State) -> None:
    """途中参加: a waiting player plays as a chaser once a leader turn ends."""
    for p in s.players:
        if p.status == "waiting":
            p.status = "play"


def _next_leader(s: State, old: int) -> int:
    """The next player in play clockwise from ``old`` (a late joiner still waiting enters as a
    chaser, so it leads only when nobody else is left)."""
    order = _clockwise(s, old)[1:]
    for ok in (("play",), ("play", "waiting")):
        for i in order:
            if s.players[i].status in ok:
                return i
    return old  # pragma: no cover - the match is over when nobody is left


def _clockwise(s: State, start: int) -> list[int]:
    n = len(s.players)
    return [(start + k) % n for k in range(n)]


def _chasers(s: State) -> list[int]:
    return [i for i in _clockwise(s, s.leader)[1:] if s.players[i].status == "play"]


def _progress(s: State) -> None:
    """Run automatic steps until a decision is awaited or the match is over."""
    while True:
        if s.result is not None:
            s.step = "over"
            return
        if s.abort:
            # Ruling: the leader is out during its own leader turn: the rest of that turn is
            # skipped (its end phase has nothing left to do) and the chaser turn follows.
            s.abort = False
            s.battle, s.queue = None, []
            s.step = "leader_end"
        st = s.step
        if st in ("set", "declare") and s.kind == "chaser" and s.players[s.actor].status == "out":
            s.queue = [c for c in s.queue if c != s.actor]     # out during its own set phase
            s.step = "chaser_set" if st == "set" else "declare_next"
            continue
        if st in ("set", "main", "declare", "support", "over"):
            return
        if st == "leader_start":
            if s.players[s.leader].status == "out":
                # Ruling: the new leader went out in the end phase that made it leader
                old = s.leader
                s.leader = _next_leader(s, old)
                _event(s, "avalon.ev.leader_out", player=ptok(old), leader=ptok(s.leader))
                continue
            s.round += 1
            if s.round > s.max_rounds:
                _finish_by_cap(s)
                continue
            s.kind, s.advanced, s.holy, s.decls, s.bi = "leader", False, None, [], 0
            if s.players[s.leader].status == "waiting":
                s.players[s.leader].status = "play"
            _event(s, "avalon.ev.leader_turn", player=ptok(s.leader), round=s.round)
            need = HAND_SIZE - len(s.players[s.leader].hand)
            _draw(s, s.leader, max(0, need))
            s.step, s.actor, s.acts = "set", s.leader, 0
        elif st == "leader_end":
            _lifespan(s, s.leader, True)
            if s.advanced:
                _told(s, "avalon.ev.advance_reward", player=ptok(s.leader))
                _gain_life(s, s.leader)          # 聖地到達報酬
            else:
                _lose_life(s, s.leader)
            for p in s.players:
                p.focus = 0
            _wake_joiners(s)                     # 途中参加: the leader turn has ended
            s.abort = False                      # (the leader's own life loss ends nothing more)
            s.step = "chaser_start"
        elif st == "chaser_start":
            s.kind = "chaser"
            for c in _chasers(s):
                need = HAND_SIZE - len(s.players[c].hand)
                _draw(s, c, max(0, need))
            s.queue = _chasers(s)
            s.step = "chaser_set"
        elif st == "chaser_set":
            s.queue = [c for c in s.queue if s.players[c].status == "play"]
            if s.queue:
                s.step, s.actor, s.acts = "set", s.queue[0], 0
            else:
                s.step = "order"
        elif st == "order":
            cw = _chasers(s)
            sums = {c: sum(s.defs[l[1]]["orig"] for l in s.players[c].lands if l[1]) for c in cw}
            s.queue = sorted(cw, key=lambda c: (-sums[c], cw.index(c)))
            s.decls = []
            s.step = "declare_next"
        elif st == "declare_next":
            s.queue = [c for c in s.queue if s.players[c].status == "play"]
            if s.queue:
                s.step, s.actor = "declare", s.queue[0]
            else:
                s.bi = 0
                s.step = "battle_next"
        elif st == "battle_next":
            if s.bi >= len(s.decls):
                s.step = "chaser_end"
                continue
            d = s.decls[s.bi]
            s.bi += 1
            if d["verb"] == "pass":
                continue
            a = d["seat"]
            pa = s.players[a]
            if pa.status != "play" or pa.lands[d["land"]][1] is None:
                _event(s, "avalon.ev.battle_skipped", player=ptok(a))
                continue
            if d["verb"] == "invade":
                if s.sanct is None:
                    _event(s, "avalon.ev.battle_skipped", player=ptok(a))
                    continue
                dl = -1
            else:
                dl = d["tland"]
                if s.players[s.leader].lands[dl][1] is None:
                    _event(s, "avalon.ev.battle_skipped", player=ptok(a))
                    continue
            _begin_battle(s, {"kind": "holy" if dl == -1 else "ranged", "a": a, "al": d["land"],
                              "d": s.leader, "dl": dl, "choice": [None, None], "ret": "battle_next"})
        elif st == "chaser_end":
            _chaser_end(s)
        else:  # pragma: no cover - defensive
            raise RuntimeError(f"unknown step {st!r}")


def _ranks(s: State) -> list[int]:
    """Finishing places (1 = best, equal = tie) for free-for-all ratings: the winners first;
    then the players still in the match by the printed tie-breaks of the round limit (most
    proofs, then most life); then the players who are out, the later out the better (players
    out in the same command tie)."""
    winners = set(s.result["winners"]) if s.result is not None else set()

    def key(i: int) -> tuple:
        p = s.players[i]
        if i in winners:
            return (2, 0, 0)
        if p.status != "out":
            return (1, len(p.proofs), len(p.life))
        return (0, -1 if p.out_at is None else p.out_at, 0)
    keys = [key(i) for i in range(len(s.players))]
    return [1 + sum(1 for k in keys if k > mine) for mine in keys]


def _finish_by_cap(s: State) -> None:
    """House rule: after max_rounds leader turns the most proofs wins, then the most life."""
    alive = _alive(s)
    best = max((len(s.players[i].proofs), len(s.players[i].life)) for i in alive)
    winners = [i for i in alive if (len(s.players[i].proofs), len(s.players[i].life)) == best]
    s.result = {"winners": winners if len(winners) == 1 else [], "reason": "round_limit"}
    s.step = "over"


def _chaser_end(s: State) -> None:
    chasers = _chasers(s)
    new_leader = s.leader
    # 1. 聖地の確認
    if s.holy is not None and s.players[s.holy].status == "play":
        new_leader = s.holy
        _event(s, "avalon.ev.leader_change_holy", player=ptok(new_leader))
    elif s.sanct is None:
        best, who = -1, None
        for c in chasers:
            p = s.players[c]
            m = mana_total(s.defs, p)
            if m >= eff_target(s, p) and m > best:
                best, who = m, c
        if who is not None:
            new_leader = who
            _event(s, "avalon.ev.leader_change_mana", player=ptok(who))
        elif s.players[s.leader].status == "out":
            # Ruling: the leader went out during this chaser turn and nobody reached the target
            # mana: the next player in play clockwise leads.
            new_leader = _next_leader(s, s.leader)
            _event(s, "avalon.ev.leader_out", player=ptok(s.leader), leader=ptok(new_leader))
    else:
        lp = s.players[s.leader]
        lp.proofs.append(s.sanct[1])
        lp.discard.extend(e[0] for e in s.sanct[0])
        _event(s, "avalon.ev.proof", player=ptok(s.leader), card=s.sanct[1], proofs=len(lp.proofs))
        s.sanct = None
        if len(lp.proofs) >= s.proofs_needed:
            s.result = {"winners": [s.leader], "reason": "proofs"}
            s.step = "over"
            return
    # 2. 寿命処理 / 3. ライフの増減
    for c in chasers:
        _lifespan(s, c, False)
    for c in chasers:
        if c != s.holy:
            _lose_life(s, c)
        elif s.players[c].status == "play":       # リーダー奪取報酬
            _told(s, "avalon.ev.holy_reward", player=ptok(c))
        s.players[c].focus = 0
    s.players[s.leader].focus = 0
    if s.result is not None:
        return
    s.leader = new_leader
    s.battle, s.queue = None, []
    s.step = "leader_start"


# --------------------------------------------------------------------------- battle

def _support_eff(s: State, choice: str) -> dict | None:
    if choice == "avatar":
        return None
    return s.defs[choice].get("support")


def _eff_order(eff: dict) -> int:
    if eff["kind"] == "grant":
        return GRANT_ORDER[eff["kw"]]
    return SUPPORT_ORDER[eff["kind"]]


def resolve_battle(s: State) -> None:
    """Ability order 1–9 (tie: invader's support, defender's support, invader's creature,
    defender's creature), then the strike order 1–6, then the results on life."""
    b = s.battle
    a, d = b["a"], b["d"]
    pa, pd = s.players[a], s.players[d]
    la = pa.lands[b["al"]]
    ld = s.sanct if b["dl"] == -1 else pd.lands[b["dl"]]
    lands = (la, ld)
    cards = (s.defs[la[1]], s.defs[ld[1]])
    new_rules = s.edition >= 2
    bonus = (la[2], ld[2])                 # lasting attack bonuses on the battling lands
    atk = [cards[0]["atk"], cards[1]["atk"]]
    if not new_rules:                      # edition 1: counted before the ability order
        atk = [atk[0] + bonus[0], atk[1] + bonus[1]]
    dur = [cards[0]["dur"], cards[1]["dur"]]
    kw = [set(cards[0].get("keywords", [])), set(cards[1].get("keywords", []))]
    # where each keyword came from, as its place in the printed tie order (0 invader's support,
    # 1 defender's support, 2 invader's creature, 3 defender's creature): it decides step 8
    rank = [{k: 2 + side for k in kw[side]} for side in (0, 1)]
    choice = b["choice"]
    effs = [_support_eff(s, choice[0]), _support_eff(s, choice[1])]
    log: list[list] = []
    steps = []
    for side in (0, 1):
        if effs[side] is not None:
            steps.append((_eff_order(effs[side]), side, "support", effs[side]))
    for side in (0, 1):
        c = cards[side]
        if c.get("ninja"):
            steps.append((3, 2 + side, "ninja", None))
        if new_rules and bonus[side]:          # Ruling: a lasting bonus is an order-4 attack change
            steps.append((4, 2 + side, "bonus", {"atk": bonus[side]}))
        bt = c.get("battle")
        if bt and (bt["when"] == "any" or (bt["when"] == "invade") == (side == 0)):
            steps.append((4, 2 + side, "battle", bt))
    steps.sort(key=lambda t: (t[0], t[1]))
    cancelled = [False, False]
    no_damage = bool(effs[0] and effs[1] and effs[0]["kind"] == effs[1]["kind"] == "weapon_replace")
    for order, tie, what, eff in steps:
        side = tie % 2
        other = 1 - side
        if what == "support":
            if cancelled[side]:
                log.append([order, side, "cancelled"])
                continue
            k = eff["kind"]
            if k == "weapon_replace":
                atk[0], atk[1] = atk[1], atk[0]
            elif k == "informant":
                if effs[other] is not None and _eff_order(effs[other]) > 2:
                    cancelled[other] = True
            elif k == "chaos_panic":
                atk[other], dur[other] = dur[other], max(1, atk[other])
            elif k == "stat":
                atk[side] += eff.get("atk", 0)
                dur[side] += eff.get("dur", 0)
            elif k == "poison_mist":
                dur[other] = (dur[other] + 1) // 2
            elif k == "fingertips":
                kw[other].clear()
                rank[other].clear()
            elif k == "grant":
                kw[side].add(eff["kw"])
                rank[side][eff["kw"]] = min(rank[side].get(eff["kw"], side), side)
                if eff["kw"] == "first":
                    kw[side].discard("last")
                elif eff["kw"] == "last":
                    kw[side].discard("first")
            log.append([order, side, k])
        elif what == "ninja":
            kw[side] |= {"first", "evade"}
            kw[side].discard("last")
            for k in ("first", "evade"):
                rank[side][k] = min(rank[side].get(k, tie), tie)
            log.append([order, side, "ninja"])
        elif what == "bonus":
            atk[side] += eff["atk"]
            log.append([order, side, "bonus"])
        else:
            atk[side] += eff.get("atk", 0)
            dur[side] += eff.get("dur", 0)
            log.append([order, side, "battle"])
        atk[side], atk[other] = max(0, atk[side]), max(0, atk[other])
        dur[side], dur[other] = max(1, dur[side]), max(1, dur[other])
    dmg = [0, 0]
    dead = [False, False]
    strikes: list[list] = []
    if not no_damage:
        def slot(side: int) -> int:
            if "first" in kw[side]:
                return side
            if "last" in kw[side]:
                return 4 + side
            return 2 + side
        for x in sorted((0, 1), key=slot):
            y = 1 - x
            if dead[x] or dead[y] or atk[x] <= 0:
                continue
            if "evade" in kw[y] and "evade_null" not in kw[x]:
                strikes.append([x, "evade", 0])
                continue
            death = "death" in kw[x] and "death_null" not in kw[y]
            reflect = "reflect" in kw[y] and "reflect_null" not in kw[x]
            if reflect and death and new_rules and rank[x]["death"] < rank[y]["reflect"]:
                reflect = False    # GAMES.md: the printed tie order holds at step 8 — death first
            if reflect:
                dmg[x] += atk[x]
                strikes.append([x, "reflect", atk[x]])
                if dmg[x] >= dur[x]:
                    dead[x] = True
                continue
            dmg[y] += atk[x]
            if death:
                dead[y] = True
                strikes.append([x, "death", atk[x]])
            else:
                strikes.append([x, "hit", atk[x]])
                if dmg[y] >= dur[y]:
                    dead[y] = True
            if not dead[y] and "counter" in kw[y]:
                dmg[x] += atk[x]
                strikes.append([y, "counter", atk[x]])
                if dmg[x] >= dur[x]:
                    dead[x] = True
    s.last_battle = {
        "kind": b["kind"], "invader": a, "defender": d, "invader_land": b["al"], "defender_land": b["dl"],
        "cards": [lands[0][1], lands[1][1]], "supports": list(choice), "cancelled": cancelled,
        "atk": atk, "dur": dur, "damage": dmg, "keywords": [sorted(kw[0]), sorted(kw[1])],
        "abilities": log, "strikes": strikes, "destroyed": dead, "no_damage": no_damage,
    }
    ids = (lands[0][1], lands[1][1])
    # 戦闘終了時: supports to the discard pile, avatars go back
    for side, seat in ((0, a), (1, d)):
        if choice[side] != "avatar":
            p = s.players[seat]
            p.hand.remove(choice[side])
            p.discard.append(choice[side])
    s.battle = None
    res = "both" if all(dead) else "invader" if dead[1] else "defender" if dead[0] else "none"
    _event(s, f"avalon.ev.battle_{b['kind']}_{res}", invader=ptok(a), defender=ptok(d))
    if dead[0]:
        _clear_land(pa, la)
    if dead[1]:
        if b["dl"] == -1:
            _clear_land(pd, s.sanct)
            s.sanct = None
        else:
            _clear_land(pd, ld)
    # life: gains first (invader, then defender), then losses
    if dead[1]:
        _gain_life(s, a)
    if dead[0]:
        _gain_life(s, d)
    if dead[1]:
        _lose_life(s, d)
    if dead[0]:
        _lose_life(s, a)
    # timed abilities: 戦闘勝利時 / 戦闘敗北時 (invader first), then 戦闘終了時
    for side, seat in ((0, a), (1, d)):
        if dead[1 - side]:
            _ability(s, seat, ids[side], "on_win", lands[side])
        if dead[side]:
            _ability(s, seat, ids[side], "on_loss")
    for side, seat in ((0, a), (1, d)):
        _ability(s, seat, ids[side], "battle_end", lands[side])
    if b["kind"] == "holy" and dead[1]:
        s.holy = a                                  # 聖戦に勝利: the rest of the battles are not fought
        s.step = "chaser_end"
    else:
        s.step = b["ret"]


# --------------------------------------------------------------------------- legal commands

def _set_commands(s: State, seat: int) -> list[str]:
    defs = s.defs
    p = s.players[seat]
    forge, summon, magic, use, discard = [], [], [], [], []
    for cid in sorted(set(p.hand)):
        c = defs[cid]
        cat = c["category"]
        if cat == "creature":
            for i, land in enumerate(p.lands):
                if land[1] is None and can_stack(defs, land, c):
                    vc = vessel_choices(defs, land, c)
                    if vc:
                        forge += [f"forge {cid} {ltok(i)} {a}" for a in vc]
                    else:
                        forge.append(f"forge {cid} {ltok(i)}")
            for i, land in enumerate(p.lands):
                if can_summon(defs, land, c):
                    summon.append(f"summon {cid} {ltok(i)}")
        if c.get("in_hand"):
            use.append(f"use {cid}")
        if cat == "magic":
            for t in _magic_targets(s, seat, c["magic"]):
                magic.append(f"magic {cid} {t}" if t else f"magic {cid}")
        discard.append(f"discard {cid}")
    return forge + summon + magic + use + discard + ["done"]


def _magic_targets(s: State, seat: int, eff: dict) -> list[str]:
    k = eff["kind"]
    p = s.players[seat]
    if k in ("draw", "life", "scatter", "recycle", "focus"):
        return [""]
    if k == "destroy":
        out = []
        for q in range(len(s.players)):
            if q == seat or s.players[q].status != "play":
                continue
            for j, land in enumerate(s.players[q].lands):
                if land[1] is not None and s.defs[land[1]]["orig"] <= eff.get("max_orig", 2):
                    out.append(f"{ptok(q)}{ltok(j)}")
        return out
    if k == "surge":
        return [ltok(i) for i, l in enumerate(p.lands) if l[1] is None]
    if k == "empower":
        return [ltok(i) for i, l in enumerate(p.lands) if l[1] is not None]
    if k == "prism":
        return [ltok(i) for i, l in enumerate(p.lands) if l[0]]
    return []  # pragma: no cover


def _battle_targets(s: State, seat: int, own: int) -> list[str]:
    """Ranged-battle commands: own creature on a land vs an opposing creature on a land."""
    p = s.players[seat]
    targets = []
    if seat == s.leader:
        foes = _chasers(s)
    else:
        foes = [s.leader]
    for q in foes:
        for j, land in enumerate(s.players[q].lands):
            if land[1] is not None:
                targets.append(f"{ptok(q)}{ltok(j)}")
    out = []
    for i, land in enumerate(p.lands):
        if land[1] is not None:
            out += [f"ranged {ltok(i)} {t}" for t in targets]
    return out


def _main_commands(s: State, seat: int) -> list[str]:
    p = s.players[seat]
    out = []
    if mana_total(s.defs, p) >= eff_target(s, p) and s.sanct is None:
        out += [f"advance {ltok(i)}" for i, l in enumerate(p.lands)
                if l[1] is not None and s.defs[l[1]]["attr"] != "none"]
    return out + _battle_targets(s, seat, 0) + ["pass"]


def _declare_commands(s: State, seat: int) -> list[str]:
    p = s.players[seat]
    out = []
    if s.sanct is not None and mana_total(s.defs, p) >= eff_target(s, p):
        out += [f"invade {ltok(i)}" for i, l in enumerate(p.lands) if l[1] is not None]
    return out + _battle_targets(s, seat, 0) + ["pass"]


def _support_commands(s: State, seat: int) -> list[str]:
    p = s.players[seat]
    ids = sorted({c for c in p.hand if s.defs[c].get("support")})
    return ["support avatar"] + [f"support {c}" for c in ids]


def _legal(s: State, seat: int) -> list[str]:
    st = s.step
    if st == "set" and seat == s.actor:
        return _set_commands(s, seat) if s.acts < MAX_SET_ACTIONS else ["done"]
    if st == "main" and seat == s.actor:
        return _main_commands(s, seat)
    if st == "declare" and seat == s.actor:
        return _declare_commands(s, seat)
    if st == "support" and s.battle is not None:
        b = s.battle
        for side, who in enumerate((b["a"], b["d"])):
            if who == seat and b["choice"][side] is None:
                return _support_commands(s, seat)
    return []


def _to_act(s: State) -> list[int]:
    st = s.step
    if st in ("set", "main", "declare"):
        return [s.actor]
    if st == "support" and s.battle is not None:
        b = s.battle
        return sorted(w for side, w in enumerate((b["a"], b["d"])) if b["choice"][side] is None)
    return []


# --------------------------------------------------------------------------- the game

_ALIASES = {"end": "done", "finish": "done", "skip": "pass"}
USAGE = {
    "forge": "forge c01 l1", "summon": "summon c01 l1", "magic": "magic m01 / magic m03 p2l1",
    "discard": "discard c01", "use": "use c42", "done": "done", "advance": "advance l1", "ranged": "ranged l1 p2l3",
    "invade": "invade l1", "pass": "pass", "support": "support avatar / support s01",
}
STEP_VERBS = {"set": ("forge", "summon", "magic", "discard", "use", "done"),
              "main": ("advance", "ranged", "pass"),
              "declare": ("invade", "ranged", "pass"),
              "support": ("support",)}


class AvalonGame:
    """Avalon's Sanctuary behind the engine contract (``ENGINE.md`` + ``docs/engine.md``)."""

    name = "avalon"
    min_players = 2
    max_players = 4
    editions = EDITIONS          # rules editions, oldest first; new matches use the last

    def __init__(self, cards: dict, ready: dict, editions: dict | None = None) -> None:
        from rules.avalon.editions import Editions
        self.files = Editions(cards, ready, editions)   # the cards and decks of every edition
        self.files.check_decks(EDITIONS)
        self._decks: dict[int, Any] = {}
        self.card_defs, ready = self.files.at(EDITION)
        self.decks = self.decks_at(EDITION)
        self._ready_ids = list(ready)

    def decks_at(self, edition: int) -> Any:
        """The ``decks`` API with the cards and ready-made decks of rules ``edition``."""
        from rules.avalon.decks import Decks
        if edition not in self._decks:
            self._decks[edition] = Decks(*self.files.at(edition))
        return self._decks[edition]

    # ----------------------------------------------------------------- options
    def option_schema(self) -> dict:
        out = {k: dict(v, choices=list(v["choices"])) if "choices" in v else dict(v)
               for k, v in OPTION_SCHEMA.items()}
        out["decks"] = {"default": self._ready_ids[:2], "choices": list(self._ready_ids)}
        return out

    def rematch_options(self, options: dict | None, outcome: dict | None) -> dict:
        """Same mode and decks; the previous winner does not lead first (the leader is drawn
        again among the others when there was a single winner)."""
        new = dict(options or {})
        new.pop("leader", None)
        return new

    def validate_options(self, options: dict | None, players: int, edition: int = EDITION) -> dict:
        """Checked options; ``edition``: whose ready-made decks the deck ids name."""
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise ValueError("Avalon's Sanctuary options must be a dict")
        out: dict[str, Any] = {"mode": "normal", "leader": None, "max_rounds": 60, "decks": []}
        for k, v in options.items():
            if k == "mode":
                v = v.strip().lower() if isinstance(v, str) else v
                if v not in MODES:
                    raise ValueError(f"Avalon's Sanctuary option 'mode' must be one of {', '.join(MODES)}, not {v!r}")
                out["mode"] = v
            elif k == "leader":
                if v is None or (isinstance(v, str) and v.strip().lower() in ("", "random")):
                    continue
                try:
                    n = int(v)
                except (TypeError, ValueError):
                    n = -1
                if isinstance(v, bool) or not 0 <= n < players:
                    raise ValueError(f"Avalon's Sanctuary option 'leader' must be a seat 0–{players - 1} "
                                     f"(or absent for random), not {v!r}")
                out["leader"] = n
            elif k == "max_rounds":
                spec = OPTION_SCHEMA["max_rounds"]
                if isinstance(v, str) and v.strip().isdigit():
                    v = int(v.strip())
                if isinstance(v, bool) or not isinstance(v, int) or not spec["min"] <= v <= spec["max"]:
                    raise ValueError(f"Avalon's Sanctuary option 'max_rounds' must be a whole number "
                                     f"from {spec['min']} to {spec['max']}, not {v!r}")
                out["max_rounds"] = v
            elif k == "decks":
                if not isinstance(v, (list, tuple)) or len(v) > self.max_players:
                    raise ValueError("Avalon's Sanctuary option 'decks' must be a list of up to 4 decks "
                                     "(one per seat, late joiners included; None = a ready-made deck)")
                decks = []
                for seat, item in enumerate(v):
                    if item is None:
                        decks.append(None)
                        continue
                    try:
                        decks.append(self.decks_at(edition).resolve(item))
                    except ValueError as exc:
                        raise ValueError(f"Avalon's Sanctuary option 'decks': seat {seat}'s deck: {exc}") from None
                out["decks"] = decks
            else:
                raise ValueError(f"unknown Avalon's Sanctuary option {k!r}; allowed options: "
                                 f"{', '.join(list(OPTION_SCHEMA) + ['decks'])}")
        return out

    def _deck_for(self, s: State, seat: int, given: Any = None) -> dict:
        decks = self.decks_at(s.edition)
        if given is not None:
            return decks.resolve(given)
        if seat < len(s.decks_opt) and s.decks_opt[seat] is not None:
            return s.decks_opt[seat]
        from rules.avalon.decks import normalise
        rid = self._ready_ids[seat % len(self._ready_ids)]
        return normalise(decks._ready[rid]["spec"])

    def new_match(self, players: int = 2, seed: int = 0, options: dict | None = None, *,
                  prng: int = _prng.CURRENT, edition: int = EDITION) -> State:
        """``edition``: the rules edition (:data:`EDITIONS`); a stored match replays under its own."""
        edition = _edition(edition)
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
            raise ValueError(f"Avalon's Sanctuary is for 2–4 players, not {players!r}")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"seed must be an integer, not {seed!r}")
        opts = self.validate_options(options, players, edition)
        s = State.__new__(State)
        s.edition = edition
        s.defs = dict(self.files.at(edition)[0])   # the edition's cards: late joiners and replays need no files
        s.seed = seed
        s.rng = seed & MASK if _prng.check(prng) == _prng.LEGACY else _prng.start(seed)
        kind, n, target, proofs = MODES[opts["mode"]]
        s.mode, s.target, s.proofs_needed = opts["mode"], target, proofs
        s.life0 = players + n if kind == "+" else n
        s.max_rounds = opts["max_rounds"]
        s.decks_opt = opts["decks"]
        s.players = []
        for seat in range(players):
            s.players.append(_setup_player(s, seat, self._deck_for(s, seat)))
        s.leader = opts["leader"] if opts["leader"] is not None else _next(s) % players
        s.round, s.kind, s.step, s.actor = 0, "leader", "leader_start", s.leader
        s.queue, s.decls, s.bi, s.battle, s.sanct = [], [], 0, None, None
        s.advanced, s.holy, s.abort, s.result = False, None, False, None
        s.events, s.last_battle, s.acts, s.moves = [], None, 0, 0
        s.edition = edition
        _progress(s)
        return s

    # ----------------------------------------------------------------- queries
    def to_act(self, state: State) -> list[int]:
        return _to_act(state)

    def public_to_act(self, state: State) -> list[int]:
        return _to_act(state)

    def legal_commands(self, state: State, seat: int) -> list[str]:
        if state.result is not None or isinstance(seat, bool) or not isinstance(seat, int):
            return []
        return _legal(state, seat)

    def outcome(self, state: State) -> dict | None:
        """``winners`` and ``reason`` (the contract), plus ``ranks`` (docs/engine.md addition):
        the finishing place of every seat, 1 = best, equal = tie — see :func:`_ranks`."""
        if state.result is None:
            return None
        return {"winners": list(state.result["winners"]), "reason": state.result["reason"],
                "ranks": _ranks(state)}

    def timeout_command(self, state: State, seat: int) -> str | None:
        """The host's default when ``seat``'s clock runs out, so the other players go on:
        ``done`` in a set phase, ``pass`` in a main phase or declaration, ``support avatar``
        (use nothing) in a battle.  An absent player keeps losing life and is out soon."""
        if state.result is not None or seat not in _to_act(state):
            return None
        return {"set": "done", "main": "pass", "declare": "pass", "support": "support avatar"}.get(state.step)

    def public_command(self, state_before: State, seat: int, command: str) -> str | None:
        """Support choices are secret: the log shows only ``support``."""
        toks = _tokens(command)
        if toks and toks[0] == "support":
            return "support"
        return " ".join(toks)

    # ----------------------------------------------------------------- late join
    def can_join(self, state: State) -> bool:
        """A player may join (or a defeated one rejoin) while the match runs; they enter as a
        chaser when the current (or next) leader turn ends."""
        if state.result is not None:
            return False
        return len(state.players) < self.max_players or any(p.status == "out" for p in state.players)

    def join(self, state: State, seat: int, deck: Any = None) -> State:
        if state.result is not None:
            raise fail("avalon.err.game_over")
        n = len(state.players)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= n:
            raise fail("avalon.err.join_seat", seat=str(seat))
        if seat == n and n >= self.max_players:
            raise fail("avalon.err.join_full")
        if seat < n and state.players[seat].status != "out":
            raise fail("avalon.err.join_playing", player=ptok(seat))
        try:
            spec = self._deck_for(state, seat, deck) if seat == n or deck is not None else state.players[seat].deck
        except ValueError as exc:
            raise fail("avalon.err.join_deck", detail=str(exc)) from None
        s = state.clone()
        s.moves += 1
        p = _setup_player(s, seat, spec)
        p.status = "waiting"
        if seat == n:
            s.players.append(p)
        else:
            s.players[seat] = p
        _event(s, "avalon.ev.joined", player=ptok(seat))
        return s

    # ----------------------------------------------------------------- apply
    def apply(self, state: State, seat: int, command: str) -> State:
        if state.result is not None:
            raise fail("avalon.err.game_over")
        waiting = _to_act(state)
        if isinstance(seat, bool) or seat not in waiting:
            raise fail("avalon.err.not_your_turn", waiting=", ".join(ptok(w) for w in waiting))
        toks = self._canonical_tokens(state, seat, _tokens(command))
        legal = _legal(state, seat)
        canonical = " ".join(toks)
        if canonical not in legal:
            raise self._diagnose(state, seat, toks, legal)
        s = state.clone()
        s.moves += 1
        self._execute(s, seat, toks)
        _progress(s)
        return s

    # ----------------------------------------------------------------- resignation
    def seats_in_play(self, state: State) -> list[int]:
        """Seats still in the match (docs/engine.md addition): not out (at 0 life or resigned).
        Only they vote on an abort."""
        return _alive(state)

    def resign(self, state: State, seat: int) -> State:
        """``seat`` resigns (docs/engine.md addition): it is out at once, exactly like a player
        at 0 life — its cards leave the game, a battle it is in is not fought, a leader's turn
        ends — and may rejoin later like any defeated player.  The match goes on while two or
        more players are left; the last one left wins (reason ``resign``)."""
        if state.result is not None:
            raise fail("avalon.err.game_over")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(state.players):
            raise fail("avalon.err.resign_seat", seat=str(seat))
        if state.players[seat].status == "out":
            raise fail("avalon.err.resign_out", player=ptok(seat))
        s = state.clone()
        s.moves += 1
        b = s.battle
        if b is not None and seat in (b["a"], b["d"]):
            # the battle waiting for supports is not fought; supports stay in the hands
            s.battle = None
            _event(s, "avalon.ev.battle_skipped", player=ptok(b["a"]))
            s.step = b["ret"]
        _eliminate(s, seat, "resigned")
        if s.result is not None and s.result["reason"] == "last_standing":
            s.result["reason"] = "resign"
        _progress(s)
        return s

    def _canonical_tokens(self, s: State, seat: int, toks: list[str]) -> list[str]:
        """Friendly variants to their canonical spelling (a one-letter rainbow-vessel choice)."""
        if (len(toks) == 4 and toks[0] == "forge" and s.step == "set" and 0 <= seat < len(s.players)
                and toks[1] in s.defs and toks[2] in LAND_TOKENS):
            land = s.players[seat].lands[int(toks[2][1]) - 1]
            toks = toks[:3] + [vessel_token(s.defs, land, s.defs[toks[1]], toks[3])]
        return toks

    def canonical(self, state: State, seat: int, command: str) -> str:
        """The canonical spelling of ``command`` for ``seat`` (aliases such as ``end`` → ``done``,
        ``support none`` → ``support avatar``, a one-letter vessel choice); legal or not."""
        return " ".join(self._canonical_tokens(state, seat, _tokens(command)))

    def _execute(self, s: State, seat: int, toks: list[str]) -> None:
        verb = toks[0]
        p = s.players[seat]
        defs = s.defs
        if verb in ("forge", "summon", "magic", "discard", "use"):
            s.acts += 1
        if verb == "forge":
            cid, li = toks[1], int(toks[2][1:]) - 1
            land = p.lands[li]
            p.hand.remove(cid)
            land[0].append([cid, ""])
            if len(toks) == 4:                  # a rainbow vessel: the chosen icons below turn rainbow
                below = land[0][-2]
                land[0][-2] = [below[0], below[1] + toks[3]]
            _event(s, "avalon.ev.forge", player=ptok(seat), card=cid, land=ltok(li))
            _ability(s, seat, cid, "on_forge")
        elif verb == "summon":
            cid, li = toks[1], int(toks[2][1:]) - 1
            p.hand.remove(cid)
            p.lands[li][1], p.lands[li][2] = cid, 0
            _event(s, "avalon.ev.summon", player=ptok(seat), card=cid, land=ltok(li))
            draw = defs[cid].get("on_summon", {}).get("draw", 0)
            if draw:
                _draw(s, seat, draw)
        elif verb == "magic":
            cid = toks[1]
            p.hand.remove(cid)                  # put out on the play sheet while it resolves
            if len(toks) > 2:
                _event(s, "avalon.ev.magic_target", player=ptok(seat), card=cid, target=toks[2])
            else:
                _event(s, "avalon.ev.magic", player=ptok(seat), card=cid)
            self._magic(s, seat, defs[cid]["magic"], toks[2] if len(toks) > 2 else "")
            if p.status != "out":
                p.discard.append(cid)           # 「効果を適用したのちに捨て山に送ります」
        elif verb == "use":
            cid = toks[1]
            p.hand.remove(cid)
            p.discard.append(cid)
            _event(s, "avalon.ev.use", player=ptok(seat), card=cid)
            _ability(s, seat, cid, "in_hand")
        elif verb == "discard":
            p.hand.remove(toks[1])
            p.discard.append(toks[1])
            _event(s, "avalon.ev.discard", player=ptok(seat), card=toks[1])
        elif verb == "done":
            if s.kind == "leader":
                s.step = "main"
            else:
                s.queue.pop(0)
                s.step = "chaser_set"
        elif verb == "advance":
            li = int(toks[1][1:]) - 1
            s.sanct = p.lands[li]
            p.lands[li] = [[], None, 0]
            s.advanced = True
            _event(s, "avalon.ev.advance", player=ptok(seat), card=s.sanct[1])
            s.step = "leader_end"
        elif verb in ("ranged", "invade", "pass") and s.step == "declare":
            d = {"seat": seat, "verb": verb, "land": -1, "tseat": -1, "tland": -1}
            if verb != "pass":
                d["land"] = int(toks[1][1:]) - 1
            if verb == "ranged":
                d["tseat"], d["tland"] = int(toks[2][1]) - 1, int(toks[2][3]) - 1
            s.decls.append(d)
            s.queue.pop(0)
            _event(s, "avalon.ev.declare", player=ptok(seat), command=" ".join(toks))
            s.step = "declare_next"
        elif verb == "ranged":
            q, j = int(toks[2][1]) - 1, int(toks[2][3]) - 1
            _event(s, "avalon.ev.declare", player=ptok(seat), command=" ".join(toks))
            _begin_battle(s, {"kind": "ranged", "a": seat, "al": int(toks[1][1:]) - 1, "d": q, "dl": j,
                              "choice": [None, None], "ret": "leader_end"})
        elif verb == "pass":
            s.step = "leader_end"
        elif verb == "support":
            b = s.battle
            side = 0 if b["a"] == seat else 1
            b["choice"][side] = toks[1]
            if None not in b["choice"]:
                resolve_battle(s)

    def _magic(self, s: State, seat: int, eff: dict, target: str) -> None:
        p = s.players[seat]
        k = eff["kind"]
        if k == "draw":
            _draw(s, seat, eff.get("n", 2))
        elif k == "life":
            for _ in range(eff.get("n", 1)):
                _gain_life(s, seat)
        elif k == "destroy":
            q, j = int(target[1]) - 1, int(target[3]) - 1
            land = s.players[q].lands[j]
            s.players[q].discard.append(land[1])
            land[1], land[2] = None, 0
        elif k == "surge":
            if p.memory:
                cid = p.memory.pop()
                p.lands[int(target[1:]) - 1][0].append([cid, ""])
                _check_memory(s, seat)
                if s.defs[cid]["category"] == "creature":
                    _ability(s, seat, cid, "on_forge")     # surge forges it (素成する)
        elif k == "scatter":
            for q in _clockwise(s, seat)[1:]:
                o = s.players[q]
                if o.status == "play" and o.hand:       # Ruling: a joiner still waiting is not in play yet
                    o.discard.append(o.hand.pop(_next(s) % len(o.hand)))
        elif k == "empower":
            p.lands[int(target[1:]) - 1][2] += eff.get("atk", 1)
        elif k == "prism":
            mana = p.lands[int(target[1:]) - 1][0]
            mana[-1] = [mana[-1][0], "*"]
        elif k == "recycle":
            p.memory.extend(p.discard)
            p.discard = []
            _shuffle(s, p.memory)
        elif k == "focus":
            p.focus += eff.get("n", 3)

    # ----------------------------------------------------------------- errors
    def _hint(self, legal: list[str], verb: str | None) -> str:
        if verb:
            legal = [c for c in legal if c.split()[0] == verb] + [c for c in legal if c.split()[0] != verb]
        shown = ", ".join(legal[:6])
        return shown + (f", … (+{len(legal) - 6})" if len(legal) > 6 else "")

    def _diagnose(self, s: State, seat: int, toks: list[str], legal: list[str]) -> IllegalCommand:
        def f(key: str, **params: Any) -> IllegalCommand:
            params["legal"] = self._hint(legal, toks[0] if toks else None)
            return fail(key, **params)
        if not toks:
            return f("avalon.err.empty")
        verb = toks[0]
        if verb not in VERBS:
            return f("avalon.err.unknown_verb", verb=verb[:20])
        allowed = STEP_VERBS.get(s.step, ())
        if verb not in allowed:
            return f(f"avalon.err.step_{s.step}", verb=verb)
        p = s.players[seat]
        defs = s.defs
        if s.step == "set" and s.acts >= MAX_SET_ACTIONS:
            return f("avalon.err.set_limit", limit=MAX_SET_ACTIONS)
        if verb in ("forge", "summon", "magic", "discard", "use", "support") and len(toks) >= 2:
            cid = toks[1]
            if verb == "support" and cid == "avatar":
                return f("avalon.err.syntax", command=" ".join(toks)[:40], usage=USAGE[verb])
            if cid not in p.hand:
                return f("avalon.err.not_in_hand", card=cid[:12])
            c = defs[cid]
            if verb in ("forge", "summon") and c["category"] != "creature":
                return f("avalon.err.not_creature", card=cid, verb=verb)
            if verb == "use" and not c.get("in_hand"):
                return f("avalon.err.no_hand_ability", card=cid)
            if verb == "magic" and c["category"] != "magic":
                return f("avalon.err.not_magic", card=cid)
            if verb == "support" and not c.get("support"):
                return f("avalon.err.not_support", card=cid)
            if verb in ("forge", "summon") and len(toks) >= 3:
                if toks[2] not in LAND_TOKENS:
                    return f("avalon.err.bad_land", token=toks[2][:12])
                land = p.lands[int(toks[2][1]) - 1]
                if land[1] is not None:
                    return f("avalon.err.land_occupied", land=toks[2])
                if verb == "forge" and not can_stack(defs, land, c):
                    return f("avalon.err.stacking", card=cid, land=toks[2])
                if verb == "forge" and not vessel_choices(defs, land, c):
                    return f("avalon.err.syntax", command=" ".join(toks)[:40], usage=USAGE[verb])
                if verb == "forge":
                    return f("avalon.err.vessel", card=cid, land=toks[2],
                             choices=", ".join(vessel_choices(defs, land, c)) or "-")
                if verb == "summon":
                    return f("avalon.err.summon_mana", card=cid, land=toks[2], stars=c["orig"],
                             attr=Ref(f"avalon.attr.{c['attr']}"))
            if verb == "magic" and len(toks) <= 3:
                return f("avalon.err.magic_target", card=cid)
        if verb in ("advance", "invade", "ranged") and len(toks) >= 2:
            if toks[1] not in LAND_TOKENS:
                return f("avalon.err.bad_land", token=toks[1][:12])
            land = p.lands[int(toks[1][1]) - 1]
            if land[1] is None:
                return f("avalon.err.no_creature", land=toks[1])
            if verb in ("advance", "invade"):
                if verb == "invade" and s.sanct is None:
                    return f("avalon.err.no_sanctuary")
                if mana_total(defs, p) < eff_target(s, p):
                    return f("avalon.err.below_target", mana=mana_total(defs, p), target=eff_target(s, p))
                if verb == "advance" and defs[land[1]]["attr"] == "none":
                    return f("avalon.err.advance_colourless", card=land[1])
            if verb == "ranged" and len(toks) == 3:
                return f("avalon.err.ranged_target", target=toks[2][:12])
        return f("avalon.err.syntax", command=" ".join(toks)[:40], usage=USAGE[verb])

    # ----------------------------------------------------------------- views
    def view(self, state: State, seat: int | None) -> dict:
        s = state
        defs = s.defs
        used: set[str] = set()

        def land_view(land: list) -> dict:
            mana = []
            for e in land[0]:
                used.add(e[0])
                mana.append({"card": e[0], "icons": icons(defs, e)})
            cv = creature_view(defs, land)
            if cv:
                used.add(cv["card"])
            return {"mana": mana, "icons": land_icons(defs, land), "mana_count": mana_count(defs, land),
                    "creature": cv}

        players = []
        for i, p in enumerate(s.players):
            used.update(p.proofs)
            used.update(p.discard[-1:])
            players.append({
                "seat": i, "player": ptok(i), "status": p.status, "leader": i == s.leader,
                "avatar": p.avatar, "life": len(p.life), "memory": len(p.memory), "hand_count": len(p.hand),
                "discard_count": len(p.discard), "discard_top": p.discard[-1] if p.discard else None,
                "proofs": list(p.proofs), "lands": [land_view(l) for l in p.lands],
                "mana_total": mana_total(defs, p), "target": eff_target(s, p),
            })
            used.add(p.avatar)
        battle = None
        if s.battle is not None:
            b = s.battle
            battle = {"kind": b["kind"], "invader": b["a"], "defender": b["d"], "invader_land": b["al"],
                      "defender_land": b["dl"], "chosen": [c is not None for c in b["choice"]]}
            if seat is not None and seat in (b["a"], b["d"]):
                mine = b["choice"][0 if seat == b["a"] else 1]
                battle["my_choice"] = mine
        last = json.loads(json.dumps(s.last_battle)) if s.last_battle else None
        if last:
            used.update(c for c in last["cards"] + last["supports"] if c != "avatar")
        out = {
            "game": "avalon", "seat": seat, "mode": s.mode, "target": s.target,
            "proofs_needed": s.proofs_needed, "life_start": s.life0, "round": s.round,
            # turns so far: each round is a leader turn, then a chaser turn
            "turn": max(0, 2 * s.round - (1 if s.kind == "leader" else 0)),
            "max_rounds": s.max_rounds, "kind": s.kind, "step": s.step, "leader": s.leader,
            "actor": s.actor if s.step in ("set", "main", "declare") else None,
            "to_act": _to_act(s), "players": players,
            "sanctuary": None if s.sanct is None else dict(land_view(s.sanct), owner=s.leader),
            "declarations": [dict(d, player=ptok(d["seat"])) for d in s.decls] if s.kind == "chaser" else [],
            "battle": battle, "last_battle": last,
            "events": json.loads(json.dumps(s.events)), "outcome": self.outcome(s),
            # what the rules need to go on from here (determinize), all of it public: the turn's
            # bookkeeping, each player's target reduction this turn and finishing stamp
            "progress": {"queue": list(s.queue), "bi": s.bi, "advanced": s.advanced, "holy": s.holy,
                         "acts": s.acts, "moves": s.moves, "edition": s.edition, "abort": s.abort,
                         "decls": json.loads(json.dumps(s.decls)),
                         "battle_ret": s.battle.get("ret") if s.battle is not None else None,
                         "focus": [p.focus for p in s.players], "out_at": [p.out_at for p in s.players]},
        }
        if seat is not None and 0 <= seat < len(s.players):
            out["hand"] = sorted(s.players[seat].hand)
            used.update(out["hand"])
            if battle and battle.get("my_choice") and battle["my_choice"] != "avatar":
                used.add(battle["my_choice"])
        for ev in s.events:
            c = ev["params"].get("card")
            if c:
                used.add(c)
        used.discard(None)
        out["cards"] = {c: _card_brief(defs[c]) for c in sorted(used) if c in defs}
        return out

    # ----------------------------------------------------------------- determinize
    def determinize(self, view: dict, seat: int | None, rng: Any) -> State:
        """A full state consistent with ``view`` (ENGINE.md).  Sampled from each player's
        deck's cards (their avatar's ready-made deck when the view cannot tell): the memory, the
        face-down life, the opponents' hands, the discard pile under its top card, an
        opponent's secret battle support (the avatar: always a possible choice); the random
        stream.  Lands, the sanctuary, proofs and the turn's bookkeeping are as shown."""
        import random as _random

        from rules.avalon.decks import normalise

        rng = rng if rng is not None else _random.Random()
        prog = view["progress"]
        s = State.__new__(State)
        defs, _ready = self.files.at(_edition(prog["edition"]))
        decks = self.decks_at(_edition(prog["edition"]))
        s.defs = dict(defs)
        s.seed, s.rng = 0, _prng.start(rng.getrandbits(127))
        s.mode, s.target, s.proofs_needed = view["mode"], view["target"], view["proofs_needed"]
        s.life0, s.max_rounds, s.round = view["life_start"], view["max_rounds"], view["round"]
        s.kind, s.step, s.leader = view["kind"], view["step"], view["leader"]
        to_act = list(view.get("to_act") or [])
        s.actor = view["actor"] if view.get("actor") is not None else (to_act[0] if to_act else view["leader"])
        s.queue, s.bi, s.advanced, s.holy = list(prog["queue"]), prog["bi"], prog["advanced"], prog["holy"]
        s.acts, s.moves, s.abort = prog["acts"], prog["moves"], prog["abort"]
        s.edition = _edition(prog["edition"])
        s.decls = json.loads(json.dumps(prog["decls"]))
        s.decks_opt = [None] * len(view["players"])
        s.events = json.loads(json.dumps(view["events"]))
        s.last_battle = json.loads(json.dumps(view["last_battle"])) if view.get("last_battle") else None
        outcome = view.get("outcome")
        s.result = {"winners": list(outcome["winners"]), "reason": outcome["reason"]} if outcome else None

        def land_from(lv: dict) -> list:
            mana = []
            for m in lv["mana"]:
                base = dict(defs[m["card"]].get("mana") or {})
                conv = "".join(k * max(0, base.get(k, 0) - m["icons"].get(k, 0)) for k in ("y", "r", "b", "g", "c"))
                mana.append([m["card"], conv])
            cv = lv.get("creature")
            creature = cv["card"] if cv else None
            bonus = cv["atk"] - defs[creature]["atk"] if cv else 0
            return [mana, creature, bonus]

        s.players = []
        for i, pv in enumerate(view["players"]):
            p = Player.__new__(Player)
            p.status, p.avatar = pv["status"], pv["avatar"]
            p.deck = self._deck_for(s, i)
            ready = [rid for rid in self._ready_ids
                     if normalise(decks._ready[rid]["spec"]).get("avatar") == p.avatar] or list(self._ready_ids)
            spec = normalise(decks._ready[ready[0]]["spec"])
            pool = [cid for cid, n in spec["cards"].items() for _ in range(n)]

            def some(n: int, pool: list[str] = pool) -> list[str]:
                return [rng.choice(pool) for _ in range(n)]

            p.memory, p.life = some(pv["memory"]), some(pv["life"])
            p.hand = list(view["hand"]) if i == seat else some(pv["hand_count"])
            p.discard = some(max(0, pv["discard_count"] - 1)) + ([pv["discard_top"]] if pv["discard_top"] else [])
            p.lands = [land_from(lv) for lv in pv["lands"]]
            p.proofs = list(pv["proofs"])
            p.focus, p.out_at = prog["focus"][i], prog["out_at"][i]
            s.players.append(p)
        sv = view.get("sanctuary")
        s.sanct = land_from(sv) if sv else None
        s.battle = None
        if view.get("battle"):
            bv = view["battle"]
            choice = [None, None]
            for side, who in enumerate((bv["invader"], bv["defender"])):
                if who == seat and bv.get("my_choice") is not None:
                    choice[side] = bv["my_choice"]
                elif bv["chosen"][side]:
                    choice[side] = "avatar"      # an unseen choice: the avatar is always possible
            s.battle = {"kind": bv["kind"], "a": bv["invader"], "d": bv["defender"], "al": bv["invader_land"],
                        "dl": bv["defender_land"], "choice": choice, "ret": prog["battle_ret"]}
        return s

    # ----------------------------------------------------------------- persistence
    def dump(self, state: State) -> str:
        d = {k: getattr(state, k) for k in State.__slots__ if k != "players"}
        d["players"] = [p.to_json() for p in state.players]
        d["game"], d["version"] = "avalon", 1
        return json.dumps(d, ensure_ascii=False, separators=(",", ":"), sort_keys=True)

    def load(self, text: str) -> State:
        d = json.loads(text)
        if not isinstance(d, dict) or d.get("game") != "avalon" or d.get("version") != 1:
            raise ValueError("not an Avalon's Sanctuary state (version 1)")
        s = State.__new__(State)
        for k in State.__slots__:
            if k == "moves":
                s.moves = d.get("moves", 0)           # absent in older dumps
            elif k == "edition":
                s.edition = _edition(d.get("edition", 1))     # stored before editions: edition 1
            elif k != "players":
                setattr(s, k, d[k])
        s.players = [Player.from_json(p) for p in d["players"]]
        if s.sanct is not None:
            s.sanct = [[list(m) for m in s.sanct[0]], s.sanct[1], s.sanct[2]]
        return s


def _card_brief(c: dict) -> dict:
    from rules.avalon.cards import card_text
    out = {k: v for k, v in c.items() if k != "id"}
    out["text"] = card_text(c)
    return out


def _tokens(command: Any) -> list[str]:
    if not isinstance(command, str):
        return []
    toks = command.strip().lower().split()
    if toks and toks[0] in _ALIASES:
        toks[0] = _ALIASES[toks[0]]
    if len(toks) == 2 and toks[0] == "support" and toks[1] == "none":
        toks[1] = "avatar"
    return toks
