"""The match state and the rule mechanics (turn flow, effects, chains).

:class:`LSState` is immutable plain data.  Every command copies it into a :class:`Match` (a
mutable working copy), runs the rules on it and freezes the result into a new state; the old
state is never touched.  All randomness comes from the keyed stream of :mod:`rules.prng` whose
state is ``LSState.rng`` (a splitmix64 64-bit int in matches stored before it).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, NamedTuple

from rules import prng as _prng
from rules.logic_square.board import FORWARD, SQUARES, avi_may_stand, project
from rules.logic_square.cards import Action, Card, CardSet

LIFE_START = 500
LIFE_CAP = 500                    # "ライフポイントの上限は500です"
HAND_TARGET = 5                   # draw phase: draw to 5; end phase: discard to 5
AP_FIRST_TURN = 2
AP_TURN = 3
CAA_MAX = 3
MASK = (1 << 64) - 1

# Rules editions.  A match keeps the edition it was started under, so a match stored before a
# ruling changed replays exactly as it was played.  1: the engine's own rulings before the project
# rulings of issue 16 (docs/rules/logic_square.md); 2: those rulings (a knockout ends the match at once; AP effects on the
# opponent bank for their next turn; a Br card with CB answers any CB card; an IT card a chain
# kept from resolving, and any destroyed placed card, goes to the trash).
# 3: the balance changes of the "editions" key in data/cards/logic_square/05_editions.json (card
# numbers and ready-made decks; reasons: docs/rules/logic_square.md, "Balance").
# 4: the second balance step, in the same file (Shield Bash's reach, Aegis Loop's awakening, the
# Aegis and Cipher decks; docs/rules/logic_square.md, "Balance (rules edition 4)").
EDITIONS = (1, 2, 3, 4)
EDITION = EDITIONS[-1]


# --------------------------------------------------------------------------- PRNG

def rng_seed(seed: int) -> int:
    return (seed * 0x9E3779B97F4A7C15 + 0x2545F4914F6CDD1D) & MASK


def rng_next(state: int | str) -> tuple[int | str, int]:
    """(new state, 64-bit output) of the match\'s stream (:func:`rules.prng.step`)."""
    return _prng.step(state)


# --------------------------------------------------------------------------- state

class Decl(NamedTuple):
    """A card declared in the current chain (revealed, not yet resolved)."""

    seat: int
    source: str                      # "hand" or "it"
    card: str
    target: int                      # square index, -1 = none
    squares: tuple[int, ...]         # its range squares when declared (for views, break conditions)
    paid: tuple[str, ...]            # IT build cost put in the trash


@dataclass(frozen=True)
class LSState:
    """A whole Battle Logic Square match as plain, immutable data.

    Zones hold card ids only; ``cards`` holds the definitions of every card in both decks,
    copied at ``new_match`` so a match replays identically even if card files change later.
    ``deck[s][0]`` is the top of seat s's resource deck.  ``hand`` keeps drawing order.
    ``placed`` = ``(square, owner, card id, durability)`` sorted by square.  ``window`` is the
    seat deciding a chain response (a secret decision), else None.  ``base`` is the state just
    before the command that opened the current chain, kept while a window is open: everyone but
    the deciding seat is shown that moment, so nothing reveals that a window was offered.
    """

    seed: int
    rng: int
    cards: CardSet
    first: int
    max_turns: int
    awakening: bool
    turn: int
    player: int
    phase: str                                   # "main" | "discard" | "over"
    ap: int
    caa_used: bool
    avi: tuple[str, str]
    pos: tuple[int, int]
    life: tuple[int, int]
    hand: tuple[tuple[str, ...], tuple[str, ...]]
    deck: tuple[tuple[str, ...], tuple[str, ...]]
    trash: tuple[tuple[str, ...], tuple[str, ...]]
    it_left: tuple[tuple[str, ...], tuple[str, ...]]
    it_used: tuple[tuple[str, ...], tuple[str, ...]]
    placed: tuple[tuple[int, int, str, int], ...]
    shield: tuple[int, int]
    ap_bank: tuple[int, int]
    chain: tuple[Decl, ...]
    window: int | None
    last: dict | None
    result: dict | None
    base: "LSState | None" = None
    edition: int = EDITION



def _sq(i: int | None) -> str | None:
    return None if i is None or i < 0 else SQUARES[i]


# --------------------------------------------------------------------------- build conditions

def req_matches(card: Card, req: dict) -> bool:
    if "category" in req and card.category != req["category"]:
        return False
    if "colour" in req and card.colour != req["colour"]:
        return False
    if "type" in req and req["type"] not in card.types:
        return False
    if "cb" in req and card.cb != req["cb"]:
        return False
    if "card" in req and card.id != req["card"]:
        return False
    return True


def build_slots(card: Card) -> list[dict]:
    return [r for r in card.build for _ in range(r["count"])]


def pays_build(cards: CardSet, it_card: Card, pay: tuple[str, ...]) -> bool:
    """Can the cards ``pay`` (exactly) fill every slot of the IT card's build condition?"""
    slots = build_slots(it_card)
    if len(pay) != len(slots):
        return False
    used = [False] * len(slots)

    def place(k: int) -> bool:
        if k == len(pay):
            return True
        c = cards[pay[k]]
        for j, slot in enumerate(slots):
            if not used[j] and req_matches(c, slot):
                used[j] = True
                if place(k + 1):
                    return True
                used[j] = False
        return False

    return place(0)


def multisets(counts: dict[str, int], size: int) -> list[tuple[str, ...]]:
    """Sorted multisets of ``size`` ids drawn from ``counts`` (id -> copies available)."""
    ids = sorted(counts)
    out: list[tuple[str, ...]] = []

    def grow(start: int, left: int, acc: tuple[str, ...]) -> None:
        if left == 0:
            out.append(acc)
            return
        for k in range(start, len(ids)):
            cid = ids[k]
            n = acc.count(cid) if acc and acc[-1] == cid else 0
            if n < counts[cid]:
                grow(k, left - 1, acc + (cid,))

    grow(0, size, ())
    return out


def build_payments(cards: CardSet, it_card: Card, hand: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Every sorted multiset of hand cards that exactly fills the IT card's build condition
    (what :func:`pays_build` accepts), in :func:`multisets` order.  Each distinct hand card is
    matched against the slots once, not once per candidate payment."""
    slots = build_slots(it_card)
    n = len(slots)
    fits: dict[str, tuple[int, ...]] = {}
    for c in hand:
        if c not in fits:
            card = cards[c]
            fits[c] = tuple(j for j, s in enumerate(slots) if req_matches(card, s))
    counts = {c: k for c, k in Counter(hand).items() if fits[c]}
    if sum(counts.values()) < n:
        return []
    if n == 1:
        return [(c,) for c in sorted(counts)]
    out = []
    for pay in multisets(counts, n):
        used = [False] * n

        def place(k: int, pay: tuple = pay, used: list[bool] = used) -> bool:
            if k == n:
                return True
            for j in fits[pay[k]]:
                if not used[j]:
                    used[j] = True
                    if place(k + 1, pay, used):
                        return True
                    used[j] = False
            return False

        if place(0):
            out.append(pay)
    return out


COLOUR_JA = {"white": "白", "green": "緑", "blue": "青", "red": "赤"}


def build_text(it_card: Card, types: dict[str, dict] | None = None) -> dict[str, str]:
    """A build condition for messages, ``{"en", "ja"}``: ``2 Ac, 1 blue, 1 Strike`` /
    ``Ac 2枚、青 1枚、ストライク 1枚``.  ``types``: the card set's type names (ids otherwise)."""
    en, ja = [], []
    for r in it_card.build:
        b_en = [r[k] for k in ("category", "colour") if k in r]
        b_ja = [r["category"]] if "category" in r else []
        if "colour" in r:
            b_ja.append(COLOUR_JA.get(r["colour"], r["colour"]))
        if "type" in r:
            name = (types or {}).get(r["type"], {})
            b_en.append(name.get("en", r["type"]))
            b_ja.append(name.get("ja", r["type"]))
        if "cb" in r:
            b_en.append("CB" if r["cb"] else "non-CB")
            b_ja.append("CB" if r["cb"] else "CBなし")
        if "card" in r:
            b_en.append(r["card"])
            b_ja.append(r["card"])
        en.append(f"{r['count']} {' '.join(b_en) or 'any'}")
        ja.append(f"{' '.join(b_ja) or '任意'} {r['count']}枚")
    return {"en": ", ".join(en), "ja": "、".join(ja)}


# --------------------------------------------------------------------------- the working copy

class Match:
    """A mutable copy of an :class:`LSState` that the rules work on; :meth:`freeze` returns a new state."""

    def __init__(self, st: LSState) -> None:
        self.st = st
        self.new_rules = st.edition >= 2        # the project rulings (see EDITIONS)
        self.cards = st.cards
        self.rng = st.rng
        self.turn = st.turn
        self.player = st.player
        self.phase = st.phase
        self.ap = st.ap
        self.caa_used = st.caa_used
        self.pos = list(st.pos)
        self.life = list(st.life)
        self.hand = [list(h) for h in st.hand]
        self.deck = [list(d) for d in st.deck]
        self.trash = [list(t) for t in st.trash]
        self.it_left = [list(t) for t in st.it_left]
        self.it_used = [list(t) for t in st.it_used]
        self.placed = [list(p) for p in st.placed]
        self.shield = list(st.shield)
        self.ap_bank = list(st.ap_bank)
        self.chain = list(st.chain)
        self.window = st.window
        self.base = st.base
        self.result = st.result
        last = st.last
        self.last: dict | None = None if last is None else dict(last, events=list(last.get("events", [])))

    def freeze(self) -> LSState:
        st = self.st
        last = self.last
        if last is not None and "events" in last:
            last = dict(last, events=list(last["events"]))
        return LSState(
            seed=st.seed, rng=self.rng, cards=st.cards, first=st.first, max_turns=st.max_turns,
            awakening=st.awakening, turn=self.turn, player=self.player,
            phase="over" if self.result is not None else self.phase, ap=self.ap,
            caa_used=self.caa_used, avi=st.avi, pos=tuple(self.pos), life=tuple(self.life),
            hand=(tuple(self.hand[0]), tuple(self.hand[1])),
            deck=(tuple(self.deck[0]), tuple(self.deck[1])),
            trash=(tuple(self.trash[0]), tuple(self.trash[1])),
            it_left=(tuple(self.it_left[0]), tuple(self.it_left[1])),
            it_used=(tuple(self.it_used[0]), tuple(self.it_used[1])),
            placed=tuple(sorted(tuple(p) for p in self.placed)),
            shield=tuple(self.shield), ap_bank=tuple(self.ap_bank),
            chain=tuple(self.chain) if self.result is None else (),
            window=self.window if self.result is None else None,
            last=last, result=self.result,
            base=self.base if self.result is None and self.window is not None else None,
            edition=st.edition)

    # ------------------------------------------------------------------ small helpers
    def event(self, **ev: Any) -> None:
        if self.last is not None:
            self.last["events"].append(ev)

    def rand(self, n: int) -> int:
        self.rng, out = rng_next(self.rng)
        return out % n

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.rand(i + 1)
            items[i], items[j] = items[j], items[i]

    def placed_at(self, i: int) -> list | None:
        for p in self.placed:
            if p[0] == i:
                return p
        return None

    def free(self, i: int) -> bool:
        return i not in self.pos and self.placed_at(i) is None

    def awakened(self, seat: int) -> bool:
        """<覚醒 X>: on while the AVI's life ≤ X (and the awakening option is on)."""
        if not self.st.awakening:
            return False
        aw = self.cards[self.st.avi[seat]].awakening
        return aw is not None and self.life[seat] <= aw["life"]

    def mod(self, seat: int, name: str) -> int:
        total = 0
        if self.awakened(seat):
            for m in self.cards[self.st.avi[seat]].awakening["mods"]:
                if m["mod"] == name:
                    total += m["amount"]
        for _sq, owner, cid, _ in self.placed:
            if owner == seat:
                for m in self.cards[cid].action.aura:
                    if m["mod"] == name:
                        total += m.get("amount", 0)
        return total

    def ability_cost(self, seat: int, index: int) -> int:
        ab = self.cards[self.st.avi[seat]].abilities[index]
        return max(1, ab.cost - self.mod(seat, "ability_discount"))

    # ------------------------------------------------------------------ targets
    def choices(self, seat: int, act: Action) -> list[int | None]:
        """Where ``act`` may be declared by ``seat`` now: square indexes for a card that places
        or moves; ``[None]`` for a card that hits (when an opponent's AVI or placed card is in
        range) or has no range; ``[]`` when it cannot be declared."""
        if act.target == "none":
            return [None]
        squares = project(seat, self.pos[seat], act.range)
        if act.target == "enemy":
            opp = 1 - seat
            if self.pos[opp] in squares:
                return [None]
            for p in self.placed:
                if p[1] == opp and p[0] in squares:
                    return [None]
            return []
        out = []
        for i in squares:
            if self.free(i) and (act.target == "empty" or avi_may_stand(seat, i)):
                out.append(i)
        return sorted(out)

    # ------------------------------------------------------------------ zones
    def draw(self, seat: int, n: int) -> int:
        """Draw up to ``n`` (an empty deck draws nothing)."""
        n = max(0, min(n, len(self.deck[seat])))
        if n:
            self.hand[seat].extend(self.deck[seat][:n])
            del self.deck[seat][:n]
        return n


    # ------------------------------------------------------------------ damage and life
    def damage_avi(self, victim: int, amount: int, cid: str, reducible: bool = True) -> None:
        red = (self.mod(victim, "damage_reduction") + self.shield[victim]) if reducible else 0
        final = max(0, amount - red)
        self.life[victim] -= final
        self.event(type="damage", seat=victim, square=SQUARES[self.pos[victim]], target="avi",
                   amount=final, card=cid)

    def damage_placed(self, p: list, amount: int, cid: str) -> None:
        p[3] -= amount
        self.event(type="damage", seat=p[1], square=SQUARES[p[0]], target="placed", placed=p[2],
                   amount=amount, card=cid)
        if p[3] <= 0:
            self.placed.remove(p)
            if self.new_rules or self.cards[p[2]].category != "IT":
                self.trash[p[1]].append(p[2])       # any category, IT too (project ruling)
            else:
                self.it_used[p[1]].append(p[2])     # edition 1: a placed IT card stayed in its IT area
            self.event(type="destroyed", seat=p[1], square=SQUARES[p[0]], card=p[2])

    def knocked_out(self) -> bool:
        """An AVI is at 0 life or less: the match is over at this moment (check_ko says how).
        Edition 1 let the card finish first."""
        return self.new_rules and min(self.life) <= 0

    def check_ko(self) -> bool:
        if self.result is not None:
            return True
        dead = [s for s in (0, 1) if self.life[s] <= 0]
        if len(dead) == 2:
            self.result = {"winners": [], "reason": "double_knockout"}
        elif dead:
            self.result = {"winners": [1 - dead[0]], "reason": "knockout"}
        else:
            return False
        self.phase = "over"
        self.event(type="over", **self.result)
        return True

    def finish_by_life(self, reason: str) -> None:
        a, b = self.life
        self.result = {"winners": [] if a == b else [0 if a > b else 1], "reason": reason}
        self.phase = "over"
        self.event(type="over", **self.result)

    # ------------------------------------------------------------------ resolution
    def resolve(self, seat: int, act: Action, target: int, cid: str) -> bool:
        """Resolve one card or ability; return True when the card was placed on the board."""
        opp = 1 - seat
        squares = project(seat, self.pos[seat], act.range)
        hit_avi = False
        placed = False
        if act.damage:
            dmg = act.damage + self.mod(seat, "damage_bonus")
            if self.pos[opp] in squares:
                hit_avi = True
                self.damage_avi(opp, dmg, cid)
            for p in [p for p in self.placed if p[1] == opp and p[0] in squares]:
                self.damage_placed(p, dmg, cid)
            if self.pos[seat] in squares:                # only when the card says so: (0, 0)
                self.damage_avi(seat, dmg, cid)
        if self.knocked_out():
            return placed          # project ruling: the match ends the moment an AVI is at 0 or less
        if act.target == "empty":
            if target in squares and self.free(target):
                self.placed.append([target, seat, cid, act.durability])
                placed = True
                self.event(type="place", seat=seat, square=SQUARES[target], card=cid,
                           durability=act.durability)
            else:
                self.event(type="fizzle", seat=seat, card=cid, square=_sq(target))
        elif act.target == "move":
            if target in squares and self.free(target) and avi_may_stand(seat, target):
                self.event(type="move", seat=seat, **{"from": SQUARES[self.pos[seat]]}, to=SQUARES[target])
                self.pos[seat] = target
            else:
                self.event(type="fizzle", seat=seat, card=cid, square=_sq(target))
        for e in act.effects:
            if self.knocked_out():
                break              # what the card does "then" (その後) after a knockout does not happen
            cond = e.get("if")
            if cond == "hit_avi" and not hit_avi:
                continue
            if cond == "awakened" and not self.awakened(seat):
                continue
            self.effect(seat, e, squares, cid)
        return placed

    def effect(self, seat: int, e: dict, squares: tuple[int, ...], cid: str) -> None:
        do = e["do"]
        opp = 1 - seat
        if do == "damage":
            self.damage_avi(opp, e["amount"], cid)
        elif do == "heal":
            before = self.life[seat]
            self.life[seat] = min(LIFE_CAP, before + e["amount"])
            self.event(type="heal", seat=seat, amount=self.life[seat] - before)
        elif do == "lose_life":
            self.damage_avi(seat, e["amount"], cid, reducible=False)
        elif do == "draw":
            who = seat if e["who"] == "self" else opp
            self.event(type="draw", seat=who, count=self.draw(who, e["count"]))
        elif do == "trash":
            who = seat if e["who"] == "self" else opp
            gone = []
            for _ in range(e["count"]):
                if e["from"] == "deck":
                    if not self.deck[who]:
                        break
                    gone.append(self.deck[who].pop(0))
                else:
                    if not self.hand[who]:
                        break
                    gone.append(self.hand[who].pop(self.rand(len(self.hand[who]))))
            self.trash[who].extend(gone)
            self.event(type="trash", seat=who, cards=gone, **{"from": e["from"]})
        elif do in ("push", "pull"):
            if self.pos[opp] not in squares:
                return
            step = FORWARD[seat] * (1 if do == "push" else -1)
            start = at = self.pos[opp]
            for _ in range(e["distance"]):
                nxt = at + 5 * step
                if not 0 <= nxt < 25 or not self.free(nxt) or not avi_may_stand(opp, nxt):
                    break
                at = nxt
            if at != start:
                self.pos[opp] = at
                self.event(type="move", seat=opp, **{"from": SQUARES[start]}, to=SQUARES[at])
        elif do == "ap":
            who = seat if e["who"] == "self" else opp
            # the user's own AP changes now (in their main phase); an effect on the opponent
            # names their "next turn" (project ruling): never the turn in which it resolved
            if (who == seat or not self.new_rules) and self.phase == "main" and self.player == who and self.result is None:
                before = self.ap
                self.ap = max(0, self.ap + e["amount"])
                self.event(type="ap", seat=who, amount=self.ap - before, banked=False)
            else:                          # not in that player's main phase: their next one
                self.ap_bank[who] += e["amount"]
                self.event(type="ap", seat=who, amount=e["amount"], banked=True)
        elif do == "shield":
            self.shield[seat] += e["amount"]
            self.event(type="shield", seat=seat, amount=e["amount"])

    # ------------------------------------------------------------------ chains
    def break_holds(self, seat: int, cond: dict, d: Decl) -> bool:
        card = self.cards[d.card]
        w = cond["when"]
        if w == "in_range":
            return self.pos[seat] in d.squares
        if w == "category":
            return card.category == cond["category"]
        if w == "colour":
            return card.colour == cond["colour"]
        if w == "cb":
            return card.cb
        if w == "damage_at_least":
            return card.action.damage >= cond["amount"]
        if w == "life_at_most":
            return self.life[seat] <= cond["amount"]
        if w == "places":
            return card.action.places
        if w == "type":
            return cond["type"] in card.types
        return False

    def may_answer(self, seat: int, cid: str) -> bool:
        """May ``seat`` declare ``cid`` from hand to answer the last declaration? (range aside)"""
        d = self.chain[-1]
        card = self.cards[cid]
        cb_kinds = ("Ac", "Sc", "Br") if self.new_rules else ("Ac", "Sc")
        if card.cb and self.cards[d.card].cb and card.category in cb_kinds:
            return True     # a CB answer to a CB card (8.) — a Br card with CB too, break or not (project ruling)
        if card.category == "Br":
            return all(self.break_holds(seat, b, d) for b in card.breaks)
        return False

    def responses(self, seat: int) -> list[tuple[str, int | None]]:
        out = []
        for cid in sorted(set(self.hand[seat])):
            if self.may_answer(seat, cid):
                for t in self.choices(seat, self.cards[cid].action):
                    out.append((cid, t))
        return out

    def declare(self, seat: int, source: str, cid: str, target: int | None,
                paid: tuple[str, ...] = ()) -> None:
        act = self.cards[cid].action
        squares = project(seat, self.pos[seat], act.range)
        d = Decl(seat, source, cid, -1 if target is None else target, squares, paid)
        self.chain.append(d)
        if self.last is not None:
            self.last["chain"] = list(self.last.get("chain", [])) + [decl_view(d)]
        self.after_declaration()

    def after_declaration(self) -> None:
        """Offer the other player a chance to answer (a secret decision) or resolve at once."""
        answerer = 1 - self.chain[-1].seat
        if self.responses(answerer):
            self.window = answerer
            if self.base is None:            # the first window of this chain: the moment before it
                self.base = self.st
        else:
            self.resolve_chain()

    def resolve_chain(self) -> None:
        """Section 8: only each player's LAST declared card resolves, starting with the player
        who declared last; then every revealed card goes to the trash (placed cards stay)."""
        chain = self.chain
        self.window = None
        self.base = None
        last_of: dict[int, int] = {}
        for i, d in enumerate(chain):
            last_of[d.seat] = i
        order = [last_of[chain[-1].seat]]
        other = 1 - chain[-1].seat
        if other in last_of:
            order.append(last_of[other])
        placed: set[int] = set()
        done = []
        for i in order:
            d = chain[i]
            self.event(type="resolve", seat=d.seat, card=d.card, index=i)
            if self.resolve(d.seat, self.cards[d.card].action, d.target, d.card):
                placed.add(i)
            done.append(i)
            if self.check_ko():
                break
        for i, d in enumerate(chain):
            if i not in placed:
                # project ruling: an IT card that resolved goes face up to its IT area (6.C); one that a
                # chain kept from resolving goes to the trash like every other revealed card
                if d.source == "it" and (i in done or not self.new_rules):
                    self.it_used[d.seat].append(d.card)
                else:
                    self.trash[d.seat].append(d.card)
        if self.last is not None:
            self.last["resolved"] = done
        self.chain = []
        self.settle()

    # ------------------------------------------------------------------ turn flow
    def settle(self) -> None:
        """After an action: the main phase ends when AP is spent ("APをすべて消費したら")."""
        if self.result is not None:
            self.phase = "over"
        elif self.phase == "main" and self.window is None and not self.chain and self.ap <= 0:
            self.end_main()

    def begin_turn(self) -> None:
        p = self.player
        self.shield[p] = 0                       # shields last until their owner's next turn
        self.caa_used = False
        self.ap = 0
        # I. draw phase: to 5; with 5 or more in hand, 1
        n = HAND_TARGET - len(self.hand[p]) if len(self.hand[p]) < HAND_TARGET else 1
        n += self.mod(p, "draw_bonus")
        self.event(type="turn", seat=p, turn=self.turn)
        self.event(type="draw", seat=p, count=self.draw(p, n))
        # II. main phase start: placed cards' turrets, awakening heals, then AP
        for sq, owner, cid, _ in sorted(self.placed):
            if owner != p or self.placed_at(sq) is None:
                continue
            for m in self.cards[cid].action.aura:
                if m["mod"] == "turret":
                    self.turret(p, sq, cid, m)
            if self.check_ko():
                return
        heal = self.mod(p, "heal_start")
        if heal:
            before = self.life[p]
            self.life[p] = min(LIFE_CAP, before + heal)
            self.event(type="heal", seat=p, amount=self.life[p] - before)
        base = AP_FIRST_TURN if self.turn == 1 else AP_TURN
        self.ap = max(0, base + self.mod(p, "ap_bonus") + self.ap_bank[p])
        self.ap_bank[p] = 0
        self.phase = "main"
        self.event(type="ap", seat=p, amount=self.ap, banked=False)
        if self.ap <= 0:
            self.end_main()

    def turret(self, seat: int, sq: int, cid: str, m: dict) -> None:
        opp = 1 - seat
        squares = project(seat, sq, tuple(tuple(o) for o in m["range"]))
        if self.pos[opp] in squares:
            self.damage_avi(opp, m["damage"], cid)
        for p in [p for p in self.placed if p[1] == opp and p[0] in squares]:
            self.damage_placed(p, m["damage"], cid)

    def end_main(self) -> None:
        """III. end phase: with 6 or more cards the player chooses cards to trash down to 5."""
        if len(self.hand[self.player]) > HAND_TARGET:
            self.phase = "discard"
        else:
            self.end_turn()

    def end_turn(self) -> None:
        if not self.deck[0] and not self.deck[1]:
            self.finish_by_life("decks_out")     # 7: both resource decks at 0, at the end of that turn
            return
        if self.turn >= self.st.max_turns:
            self.finish_by_life("turn_limit")    # house rule
            return
        self.player = 1 - self.player
        self.turn += 1
        self.begin_turn()


def decl_view(d: Decl) -> dict:
    return {"seat": d.seat, "source": d.source, "card": d.card, "target": _sq(d.target),
            "range": [SQUARES[i] for i in d.squares], "paid": list(d.paid)}


__all__ = ["LSState", "Decl", "Match", "decl_view", "rng_seed", "rng_next", "build_payments",
           "pays_build", "build_text", "multisets", "req_matches", "LIFE_START", "LIFE_CAP",
           "HAND_TARGET", "CAA_MAX"]
