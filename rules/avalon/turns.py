"""Avalon's Sanctuary: the turn machine — primitive actions, leader and chaser turns, battles
and the legal commands of each step (used by :mod:`rules.avalon.engine`)."""
from __future__ import annotations

from typing import Any

from rules.avalon.card_schema import GRANT_ORDER, SUPPORT_ORDER
from rules.avalon.state import (
    HAND_SIZE, LANDS, MAX_SET_ACTIONS, _shuffle, Player, State, mana_total, eff_target,
    can_stack, can_summon, vessel_choices, ptok, ltok
)


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
                reflect = False    # project ruling: the printed tie order holds at step 8 — death first
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
