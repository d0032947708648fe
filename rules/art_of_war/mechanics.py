"""Art of War: the mechanics — legal commands, executing a command, rear supports and response
windows, damage, victory and the turn (split out of :mod:`rules.art_of_war.engine`, which
re-exports every name here).  Pure functions on an :class:`AowState`."""
from __future__ import annotations

from typing import Any

from rules.art_of_war.board import (
    SQUARES, SQ_INDEX, FRONT_ROW, BACK_ROW, OWN, ENEMY, CARD_ORDER, KINGDOM_ORDER, WAITING_MAX,
    HAND_START, OWN_TURN_EFFECTS, front_of, reach, _rng_next, AowState)


def _shuffle(s: AowState, cards: list) -> None:
    x = s.rng
    for i in range(len(cards) - 1, 0, -1):
        x, r = _rng_next(x)
        j = r % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    s.rng = x


def _draw(s: AowState, seat: int, n: int) -> None:
    deck, hand = s.decks[seat], s.hands[seat]
    for _ in range(n):
        if deck:                                   # project ruling (docs/rules/art_of_war.md): deck out, no draw
            hand.append(deck.pop())


def _distinct(hand: list) -> list[str]:
    return [c for c in CARD_ORDER if c in hand]


def _placeable(s: AowState, seat: int, vacated: int | None = None) -> list[int]:
    """Empty squares of ``seat`` a card may be placed on: front row, or back row behind a unit."""
    field = s.field
    out = []
    for i in OWN[seat]:
        if field[i] is not None and i != vacated:
            continue
        f = front_of(i, seat)
        if f is None or (field[f] is not None and f != vacated):
            out.append(i)
    return out


def _move_targets(s: AowState, seat: int, o: int) -> list[int]:
    field = s.field
    out = []
    for t in OWN[seat]:
        if t == o:
            continue
        if field[t] is not None:
            out.append(t)
            continue
        f = front_of(t, seat)
        if f is None or (field[f] is not None and f != o):
            out.append(t)
    return out


def _targets(s: AowState, seat: int, o: int) -> list[int]:
    cell = s.field[o]
    rng = s.tab[(seat, cell[1])][0]
    field = s.field
    return [t for t in reach(seat, o, rng) if field[t] is not None]


def _can_respond(s: AowState, seat: int, eff: str) -> bool:
    hand = s.hands[seat]
    return len(s.waiting[seat]) < WAITING_MAX and (eff in hand or "k" in hand)


def _answers(s: AowState, seat: int) -> tuple[str, ...]:
    """The supports ``seat`` may answer the chain's last entry with (whether or not it holds
    them): GUARDIAN to an attack, WIZARD to an opponent's rear support — and, a project ruling (docs/rules/art_of_war.md), "after a
    WIZARD negates a GUARDIAN, the defender may answer the still-pending attack again (another
    GUARDIAN, or the KING as GUARDIAN)" (rules edition 2)."""
    last = s.chain[-1]
    if last[0] == "attack":
        return ("g",)
    first = s.chain[0]
    if s.edition >= 2 and first[0] == "attack" and seat != first[1] and last[3] == "w":
        return ("g", "w")
    return ("w",)


def _may_answer(s: AowState, seat: int) -> bool:
    return any(_can_respond(s, seat, eff) for eff in _answers(s, seat))


def _legal(s: AowState) -> list[str]:
    if s.window is not None:
        r = s.window
        out = []
        if len(s.waiting[r]) < WAITING_MAX:
            effects = _answers(s, r)
            out += [f"support {eff}" for eff in effects if eff in s.hands[r]]
            if "k" in s.hands[r]:
                out += [f"support k {eff}" for eff in effects]
        out.append("pass")
        return out
    phase = s.phase
    if phase == "mulligan":
        return ["keep", "mulligan"]
    seat = s.actor
    hand = s.hands[seat]
    if phase == "setup":
        out = []
        spots = _placeable(s, seat)
        for d in _distinct(hand):
            rest = list(hand)
            rest.remove(d)
            for w in _distinct(rest):
                for sq in spots:
                    out.append(f"setup {d} {SQUARES[sq]} {w}")
        return sorted(out, key=lambda c: (CARD_ORDER.index(c[6]), c[8:10], CARD_ORDER.index(c[11])))
    if phase == "draft":
        spots = _placeable(s, seat)
        if s.waiting[seat]:
            return [f"draft {SQUARES[i]}" for i in spots]
        return [f"draft {c} {SQUARES[i]}" for k, c in enumerate(KINGDOM_ORDER) if s.kingdom[seat][k]
                for i in spots]
    # the turn player's main step
    field = s.field
    out: list[str] = []
    distinct = _distinct(hand)
    units = [i for i in OWN[seat] if field[i] is not None]
    if s.mode == "":
        if s.waiting[seat]:
            out += [f"deploy {SQUARES[i]}" for i in _placeable(s, seat)]
            out += [f"exchange {SQUARES[i]}" for i in units]
        else:
            spots = _placeable(s, seat)
            out += [f"play {c} {SQUARES[i]}" for c in distinct for i in spots]
            out += [f"swap {SQUARES[i]} {c}" for i in units for c in distinct]
        out += [f"move {SQUARES[o]} {SQUARES[t]}" for o in units for t in _move_targets(s, seat, o)]
    if s.mode != "arrange":
        for o in units:
            if not field[o][2]:
                out += [f"attack {SQUARES[o]} {SQUARES[t]}" for t in _targets(s, seat, o)]
    if len(s.waiting[seat]) < WAITING_MAX:
        enemies = [i for i in ENEMY[seat] if field[i] is not None]
        for c in distinct:
            effs = OWN_TURN_EFFECTS if c == "k" else ((c,) if c in OWN_TURN_EFFECTS else ())
            head = "support k " if c == "k" else "support "
            for e in effs:
                if e == "s":
                    out.append(head + "s")
                elif e == "a":
                    out += [f"{head}a {SQUARES[i]}" for i in enemies]
                else:
                    out += [f"{head}p {SQUARES[o]} {SQUARES[t]}" for o in units
                            for t in _move_targets(s, seat, o)]
    if not s.immigrated:
        out += [f"immigrate {c}" for c in distinct if c != "k"]
    out.append("end")
    return out


def _ev(s: AowState, **kw: Any) -> None:
    s.last["events"].append(kw)


def _execute(state: AowState, seat: int, verb: str, args: list[str], canonical: str) -> AowState:
    s = state.copy()
    if s.window is None:
        s.last = {"seat": seat, "command": canonical, "events": []}
    else:
        s.last = dict(s.last or {}, events=list((s.last or {}).get("events", [])))
    hand = s.hands[seat]
    if verb in ("keep", "mulligan"):
        s.mull[seat] = True
        if verb == "mulligan":                       # ④ 一度だけ戻してシャッフルし、引き直す
            s.decks[seat] += hand
            hand.clear()
            _shuffle(s, s.decks[seat])
            _draw(s, seat, HAND_START)
        if seat == s.first:
            s.actor = 1 - seat
        else:                                        # ⑤ お互いにキングを手札に入れる
            s.hands[0].append("k")
            s.hands[1].append("k")
            s.phase, s.actor = "setup", s.first
        return s
    if verb == "setup":                              # ⑥
        d, sq, w = args
        hand.remove(d)
        hand.remove(w)
        s.field[SQ_INDEX[sq]] = (seat, d, 0, 0)
        s.waiting[seat].append(w)
        if s.decks[seat]:
            top = s.decks[seat].pop()
            s.kingdom[seat][KINGDOM_ORDER.index(top)] += 1
            _ev(s, kind="kingdom", seat=seat, card=top)
            _nation(s)
        if s.result is None:
            if seat == s.first:
                s.actor = 1 - seat
            else:
                _begin_turn(s, s.first, 1)
        return _settle(s)
    if verb == "draft":
        if len(args) == 1:
            card = s.waiting[seat].pop(0)
            sq = args[0]
        else:
            card, sq = args
            s.kingdom[seat][KINGDOM_ORDER.index(card)] -= 1
        s.field[SQ_INDEX[sq]] = (seat, card, 0, 0)
        _ev(s, kind="draft", seat=seat, card=card, square=sq)
        s.draft -= 1
        if s.draft == 0:
            s.phase, s.actor = "play", s.player
        return _settle(s)
    if verb == "pass":
        return _settle(_resolve(s))
    if verb == "support":
        card = args[0]
        eff = args[1] if card == "k" else card
        rest = args[2:] if card == "k" else args[1:]
        hand.remove(card)
        s.waiting[seat].append(card)
        entry = ("support", seat, card, eff, *rest)
        if s.window is not None:                     # a response (GUARDIAN cancel / WIZARD)
            s.chain.append(entry)
            other = 1 - seat
            if _may_answer(s, other):
                s.window = other
                return s
            return _settle(_resolve(s))
        opp = 1 - seat
        if _can_respond(s, opp, "w"):                # WIZARD window for the opponent
            s.chain, s.window, s.base = [entry], opp, state
            return s
        s.chain = [entry]
        return _settle(_resolve(s))
    if verb == "attack":
        o, t = SQ_INDEX[args[0]], SQ_INDEX[args[1]]
        owner, code, _, dmg = s.field[o]
        atk = s.tab[(seat, code)][1]
        power = (len(hand) if atk < 0 else atk) + s.boost     # 攻撃宣言時点での手札枚数
        s.field[o] = (owner, code, 1, dmg)           # 横向きにした時点でそのカードの攻撃力が確定
        s.mode = "battle"
        entry = ("attack", seat, o, t, power)
        opp = 1 - seat
        if _can_respond(s, opp, "g"):                # GUARDIAN window for the defender
            s.chain, s.window, s.base = [entry], opp, state
            return s
        s.chain = [entry]
        return _settle(_resolve(s))
    if verb == "immigrate":                          # 入国
        card = args[0]
        hand.remove(card)
        s.immigrated = True
        s.kingdom[seat][KINGDOM_ORDER.index(card)] += 1
        _nation(s)
        return _settle(s)
    if verb == "end":
        return _end_turn(s)
    # arrange actions
    s.mode = "arrange"
    field = s.field
    if verb == "deploy":
        card = s.waiting[seat].pop(0)
        field[SQ_INDEX[args[0]]] = (seat, card, 0, 0)
    elif verb == "exchange":
        i = SQ_INDEX[args[0]]
        s.waiting[seat].append(field[i][1])
        card = s.waiting[seat].pop(0)
        field[i] = (seat, card, 0, 0)
    elif verb == "move":
        _relocate(s, seat, SQ_INDEX[args[0]], SQ_INDEX[args[1]])
    elif verb == "play":
        card, sq = args
        hand.remove(card)
        field[SQ_INDEX[sq]] = (seat, card, 0, 0)
    elif verb == "swap":
        sq, card = args
        i = SQ_INDEX[sq]
        hand.remove(card)
        hand.append(field[i][1])
        field[i] = (seat, card, 0, 0)
    _forward(s, seat)
    return _settle(s)


def _relocate(s: AowState, seat: int, o: int, t: int) -> None:
    field = s.field
    field[o], field[t] = field[t], field[o]
    _forward(s, seat)


def _forward(s: AowState, seat: int) -> None:
    """後列に置かれたユニットの前に前列のユニットが無い…即座に前列へ移動させる。(強制)"""
    field = s.field
    fr, br = FRONT_ROW[seat] * 3, BACK_ROW[seat] * 3
    for c in range(3):
        if field[fr + c] is None and field[br + c] is not None:
            field[fr + c], field[br + c] = field[br + c], None


def _resolve(s: AowState) -> AowState:
    """Resolve the chain from the top: a WIZARD that is not itself negated negates the entry just
    below it; the first entry takes effect unless it is negated or — an attack — cancelled by a
    GUARDIAN that is not negated."""
    chain = s.chain
    negated = set()
    for i in range(len(chain) - 1, 0, -1):
        if i not in negated and chain[i][3] == "w":
            negated.add(i - 1)
    if chain[0][0] == "attack":
        effective = not any(e[3] == "g" and i not in negated for i, e in enumerate(chain) if i)
    else:
        effective = 0 not in negated
    for e in chain[1:]:
        _ev(s, kind="respond", seat=e[1], card=e[2], effect=e[3])
    first = chain[0]
    s.chain, s.window, s.base = [], None, None
    if not effective:
        _ev(s, kind="cancel" if first[0] == "attack" else "negated", seat=first[1])
        return s
    if first[0] == "attack":
        _, seat, o, t, power = first
        _hit(s, seat, t, power, True)
        return s
    _, seat, card, eff, *rest = first
    if eff == "s":
        s.boost += 1
        _ev(s, kind="boost", seat=seat, n=s.boost)
    elif eff == "a":
        t = SQ_INDEX[rest[0]]
        if s.field[t] is not None:
            _hit(s, seat, t, 1, False)
    elif eff == "p":
        _relocate(s, seat, SQ_INDEX[rest[0]], SQ_INDEX[rest[1]])
    return s


def _hit(s: AowState, by: int, t: int, power: int, attack: bool) -> None:
    """docs/rules/art_of_war.md: "One hit whose damage equals the defence exactly captures the unit …; a hit
    above the defence, or an accumulated total ≥ defence after two or more hits, destroys it"."""
    owner, code, side, prior = s.field[t]
    dfc = s.tab[(owner, code)][3 if side else 2]
    total = prior + power
    sq = SQUARES[t]
    if attack and prior == 0 and power == dfc:
        s.field[t] = None
        _ev(s, kind="capture", seat=owner, card=code, square=sq)
        if code == "k":
            s.result = {"winners": [by], "reason": "execution"}
        else:
            s.kingdom[by][KINGDOM_ORDER.index(code)] += 1
            _nation(s)
    elif power > dfc or total >= dfc:
        s.field[t] = None
        s.grave[owner].append(code)
        _ev(s, kind="destroy", seat=owner, card=code, square=sq)
        if code == "k":
            s.result = {"winners": [by], "reason": "execution"}
    else:
        s.field[t] = (owner, code, side, total)
        _ev(s, kind="damage", seat=owner, card=code, square=sq, n=power, total=total)
    _forward(s, owner)


def _nation(s: AowState) -> None:
    """建国: お互いの王国エリアにカードが置かれるたびに各種類の枚数を比較する。"""
    if s.result is not None:
        return
    k0, k1 = s.kingdom
    ahead0 = sum(1 for a, b in zip(k0, k1) if a > b)
    ahead1 = sum(1 for a, b in zip(k0, k1) if b > a)
    if ahead0 >= 4:
        s.result = {"winners": [0], "reason": "nation_building"}
    elif ahead1 >= 4:
        s.result = {"winners": [1], "reason": "nation_building"}


def _settle(s: AowState) -> AowState:
    """After an action: game over, or conscription (徴兵) for a seat whose battlefield is empty."""
    if s.result is not None:
        s.phase, s.window, s.chain, s.base = "over", None, [], None
        return s
    if s.phase in ("play",) and s.window is None:
        for seat in (1 - s.player, s.player):
            if not any(s.field[i] is not None for i in OWN[seat]):
                # 滅亡: 2枚のユニットを展開できない場合、展開できなかったプレイヤーは敗北する
                if len(s.waiting[seat]) + sum(s.kingdom[seat]) < 2:
                    s.result = {"winners": [1 - seat], "reason": "annihilation"}
                    s.phase = "over"
                    return s
                s.phase, s.actor, s.draft = "draft", seat, 2
                return s
    return s


def _begin_turn(s: AowState, player: int, turn: int) -> None:
    s.player, s.actor, s.turn, s.phase = player, player, turn, "play"
    s.mode, s.immigrated, s.boost = "", False, 0
    field = s.field
    for i in OWN[player]:                            # 1. リカバリーフェイズ
        c = field[i]
        if c is not None and c[2]:
            field[i] = (c[0], c[1], 0, c[3])
    _draw(s, player, 1)                              # 2. ドローフェイズ


def _end_turn(s: AowState) -> AowState:
    field = s.field
    for i in range(12):                              # ターンの終了時に蓄積したダメージはリセット
        c = field[i]
        if c is not None and c[3]:
            field[i] = (c[0], c[1], c[2], 0)
    s.boost = 0
    if not s.decks[0] and not s.decks[1]:            # 終戦
        k = [sum(s.kingdom[0]), sum(s.kingdom[1])]
        g = [len(s.grave[0]), len(s.grave[1])]
        if k[0] != k[1]:
            winners = [0 if k[0] > k[1] else 1]
        elif g[0] != g[1]:
            winners = [0 if g[0] < g[1] else 1]
        else:
            winners = []
        s.result = {"winners": winners, "reason": "end_of_war"}
        s.phase = "over"
        return s
    _begin_turn(s, 1 - s.player, s.turn + 1)
    return s
