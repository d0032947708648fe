"""How an Avalon's Sanctuary position looks for each seat, from the public view (see :mod:`ai.evaluate`).

The level ``normal`` looks one command ahead, so the evaluation has to see what a command leads
to before the turn is over:

- **life** keeps a player in (every turn costs one; a match lasts a handful of rounds), and a
  **proof** is half a win (the sanctuary creature a likely one, unless a chaser at its target
  mana has a creature that beats it);
- **board presence**: a deployed creature holds the mana under it through the end phase (mana on a
  land without a creature is cleared there), lives one turn per mana card under it, and is
  worth its strength; mana **towards the target** (held mana counts fully, loose mana part way,
  since a creature may still be summoned on it this set phase) makes a leader who can advance
  or a chaser who can invade;
- **cards in hand** are options, worth little (the draw phase refills the hand to 6);
- a **battle** declared but not fought yet is scored as it will most likely end (the two
  creatures' attack, durability and keywords, no support), and the end phase the battle leads
  to (the life it costs, the proof the sanctuary creature becomes) is counted already, so that
  a battle, an advance and a pass are compared at the same moment of the turn.
"""
from __future__ import annotations


LIFE = 3.0            # one life card
PROOF = 9.0           # one proof (the mode needs 2 or 3)
SANCT = 6.0           # the leader's sanctuary creature: a proof if it survives the chaser turn
REACH = 4.0           # mana that outlasts the next end phase, towards the target
REACH_NOW = 2.0       # mana on the lands now (the main phase counts it), towards the target
AT_TARGET = 2.0       # at the target with a creature that may advance / invade
LEADER = 1.0          # leading: only the leader advances
CREATURE = 0.6        # a deployed creature (it keeps its land's mana)
STRENGTH = 0.08       # per point of attack + durability
LIFETIME = 0.25       # per mana card under a creature (one turn of life each), up to 3
LOOSE = 0.8           # loose mana in its owner's set phase (a creature may still hold it), as kept mana
HAND = 0.12           # a card in hand
THREAT = 1.0          # an opposing creature that would destroy one of yours in a ranged battle


def _fight(inv: dict, dfn: dict, cards: dict) -> tuple[bool, bool]:
    """(invader destroyed, defender destroyed) with no battle support: ability order 3–4
    (Ninja Master, battle abilities), then strike order 1–6 with evade, reflect, instant death
    and counter (as rules/avalon/engine.py resolves it)."""
    atk = [inv["atk"], dfn["atk"]]
    dur = [inv["dur"], dfn["dur"]]
    kw = [set(inv.get("keywords") or ()), set(dfn.get("keywords") or ())]
    for side, c in enumerate((inv, dfn)):
        card = cards.get(c["card"]) or {}
        if card.get("ninja"):
            kw[side] |= {"first", "evade"}
            kw[side].discard("last")
        bt = card.get("battle")
        if bt and (bt.get("when") == "any" or (bt.get("when") == "invade") == (side == 0)):
            atk[side] = max(0, atk[side] + bt.get("atk", 0))
            dur[side] = max(1, dur[side] + bt.get("dur", 0))

    def slot(side: int) -> int:
        return side if "first" in kw[side] else 4 + side if "last" in kw[side] else 2 + side

    dmg, dead = [0, 0], [False, False]
    for x in sorted((0, 1), key=slot):
        y = 1 - x
        if dead[x] or dead[y] or atk[x] <= 0:
            continue
        if "evade" in kw[y] and "evade_null" not in kw[x]:
            continue
        death = "death" in kw[x] and "death_null" not in kw[y]
        reflect = "reflect" in kw[y] and "reflect_null" not in kw[x]
        if reflect and not (death and x == 0):
            dmg[x] += atk[x]
            dead[x] = dmg[x] >= dur[x]
            continue
        dmg[y] += atk[x]
        dead[y] = death or dmg[y] >= dur[y]
        if not dead[y] and "counter" in kw[y]:
            dmg[x] += atk[x]
            dead[x] = dmg[x] >= dur[x]
    return dead[0], dead[1]


def _land(view: dict, seat: int, li: int) -> dict | None:
    if li == -1:
        return view.get("sanctuary")
    return view["players"][seat]["lands"][li]


class _Pos:
    """The numbers the score is made of, per seat, adjusted for what is bound to happen."""

    def __init__(self, view: dict) -> None:
        self.players = sorted(view["players"], key=lambda p: p["seat"])
        n = len(self.players)
        self.life = [p["life"] for p in self.players]
        self.proofs = [len(p["proofs"]) for p in self.players]
        self.gone: set[tuple[int, int]] = set()        # (seat, land) destroyed; land -1 = sanctuary
        self.leader = view.get("leader")
        self.new_leader: int | None = None
        self.n = n


def _battle(view: dict, pos: _Pos, cards: dict, a: int, al: int, d: int, dl: int) -> bool:
    """Apply the likely result of one battle; True when a holy battle was won."""
    la, ld = _land(view, a, al), _land(view, d, dl)
    if not la or not ld or not la.get("creature") or not ld.get("creature"):
        return False
    if (a, al) in pos.gone or (d, dl) in pos.gone:
        return False
    dead_a, dead_d = _fight(la["creature"], ld["creature"], cards)
    if dead_d:
        pos.gone.add((d, dl))
        pos.life[a] += 1
        pos.life[d] -= 1
    if dead_a:
        pos.gone.add((a, al))
        pos.life[d] += 1
        pos.life[a] -= 1
    return dl == -1 and dead_d


def _pending(view: dict, pos: _Pos, cards: dict) -> None:
    """The battles declared but not fought, and the end phase they lead to."""
    step = view.get("step")
    prog = view.get("progress") or {}
    b = view.get("battle")
    holy_won = None
    if prog.get("holy") is not None:
        holy_won = prog["holy"]
    if b is not None:
        if _battle(view, pos, cards, b["invader"], b["invader_land"], b["defender"], b["defender_land"]):
            holy_won = b["invader"]
    if view.get("kind") == "chaser" and step in ("support", "declare"):
        decls = prog.get("decls") or []
        start = prog.get("bi", 0) if step == "support" else 0
        for dcl in decls[start:]:
            if holy_won is not None:
                break
            if dcl["verb"] == "invade" and view.get("sanctuary"):
                if _battle(view, pos, cards, dcl["seat"], dcl["land"], view["leader"], -1):
                    holy_won = dcl["seat"]
            elif dcl["verb"] == "ranged":
                _battle(view, pos, cards, dcl["seat"], dcl["land"], view["leader"], dcl["tland"])
    if step == "support":
        # the end phase the battle leads to: its turn's players lose a life each
        if prog.get("battle_ret") == "leader_end":
            if not prog.get("advanced"):
                pos.life[view["leader"]] -= 1
        else:
            for p in pos.players:
                if p["seat"] != view["leader"] and p["status"] == "play" and p["seat"] != holy_won:
                    pos.life[p["seat"]] -= 1
            if view.get("sanctuary") and (view["leader"], -1) not in pos.gone and holy_won is None:
                pos.proofs[view["leader"]] += 1
                pos.gone.add((view["leader"], -1))        # it became a proof
    if holy_won is not None:
        pos.new_leader = holy_won


def _sanct_safe(view: dict, pos: _Pos, cards: dict) -> float:
    """How likely the sanctuary creature survives the chaser turn."""
    sv = view.get("sanctuary")
    if not sv or not sv.get("creature"):
        return 0.0
    risk = 0.0
    for p in pos.players:
        if p["seat"] == view["leader"] or p["status"] != "play":
            continue
        short = p["target"] - p["mana_total"]
        for li, land in enumerate(p["lands"]):
            c = land.get("creature")
            if c is None or (p["seat"], li) in pos.gone:
                continue
            _, dead = _fight(c, sv["creature"], cards)
            if dead:
                risk = max(risk, 0.8 if short <= 0 else 0.45 if short <= 3 else 0.15)
            elif short <= 0:
                risk = max(risk, 0.2)        # a support may still turn the battle
    return 1.0 - risk


def _icons(m: dict) -> int:
    return sum(n for k, n in (m.get("icons") or {}).items() if k != "v")


def _lifespan_now(view: dict) -> set[int]:
    """Seats whose end phase the position already counts as done (a battle waiting for its
    supports leads straight to it): their lands are scored after their lifespan."""
    if view.get("step") != "support":
        return set()
    prog = view.get("progress") or {}
    if prog.get("battle_ret") == "leader_end":
        return {view["leader"]}
    return {p["seat"] for p in view["players"] if p["seat"] != view["leader"] and p["status"] == "play"}


def strength(view: dict, seats: int) -> list[float]:
    cards = view.get("cards") or {}
    pos = _Pos(view)
    _pending(view, pos, cards)
    leader = pos.new_leader if pos.new_leader is not None else view.get("leader")
    ended = _lifespan_now(view)
    # the acting player may still summon on loose mana only in its set phase
    setting = view.get("actor") if view.get("step") == "set" else None
    mine: dict[int, list[dict]] = {}
    for p in pos.players:
        mine[p["seat"]] = [land["creature"] for li, land in enumerate(p["lands"])
                           if land.get("creature") and (p["seat"], li) not in pos.gone]
    out = []
    for p in pos.players:
        seat = p["seat"]
        if p["status"] == "out" or pos.life[seat] <= 0:
            out.append(0.0)
            continue
        # cards in hand are options: the first two as battle supports; more only keep the draw
        # phase from refilling the hand (a card left over is one card fewer drawn); the same in
        # every step, so that ending the set phase and discarding compare fairly
        hand = p["hand_count"]
        v = 1.0 + LIFE * pos.life[seat] + PROOF * pos.proofs[seat]
        v += HAND * min(hand, 2) - 0.02 * max(0, hand - 2)
        if seat == leader:
            v += LEADER
            if (view.get("sanctuary") and view["leader"] == seat and (seat, -1) not in pos.gone):
                v += SANCT * _sanct_safe(view, pos, cards)
        now = keep = 0.0
        ready = False
        for li, land in enumerate(p["lands"]):
            c = land.get("creature")
            mana = land.get("mana") or []
            if c is not None and (seat, li) in pos.gone:
                continue
            if c is None:
                if seat not in ended:
                    now += land["mana_count"]
                    if seat == setting and mana:    # what a creature summoned on it would keep
                        keep += LOOSE * (land["mana_count"] - _icons(mana[0]))
                continue
            if seat in ended:                   # its lifespan counted now: the bottom card goes
                if not mana:
                    continue
                mana = mana[1:]
            m = sum(_icons(x) for x in mana)
            now += m
            keep += m - (_icons(mana[0]) if mana else 0)
            if not mana:
                v -= CREATURE                   # destroyed at the next end phase, blocking its land
                continue
            # a creature on one mana card is gone after the next end phase but one, and blocks its
            # land meanwhile; on more it holds them
            v += (CREATURE if len(mana) > 1 else -0.3) + STRENGTH * (c["atk"] + c["dur"]) \
                + LIFETIME * min(3, len(mana) - 1)
            if c.get("attr") != "none":
                ready = True
            for q in pos.players:
                if q["seat"] == seat or q["status"] != "play":
                    continue
                if not (seat == view.get("leader") or q["seat"] == view.get("leader")):
                    continue
                if any(_fight(e, c, cards)[1] and not _fight(e, c, cards)[0] for e in mine[q["seat"]]):
                    v -= THREAT
                    break
        target = max(1, p["target"])
        focus = ((view.get("progress") or {}).get("focus") or [0] * (seat + 1))[seat]
        lasting = max(1, target + focus)         # a magic's "this turn" reduction does not last
        v += REACH_NOW * min(1.0, now / lasting) + REACH * min(1.0, keep / lasting)
        if now >= target and ready:
            v += AT_TARGET
        out.append(v)
    return out
