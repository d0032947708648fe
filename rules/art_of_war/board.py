"""Art of War: the board, the card tables, the rules editions and the match state (split out of
:mod:`rules.art_of_war.engine`, which re-exports every name here).

Squares are absolute, like chess: files a–c as seen by seat 0, ranks 1–4.  Rank 1 is seat 0's
back row, rank 2 its front row, rank 3 seat 1's front row, rank 4 seat 1's back row.  A field cell
is ``None`` or ``(owner, code, sideways 0/1, damage this turn)``.
"""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from rules import prng as _prng
from rules.common import int_option
from rules.art_of_war.cards import CODES
from rules.editions import known

GAME = "art_of_war"
FILES = "abc"
SQUARES = tuple(f + str(r) for r in range(1, 5) for f in FILES)      # index = (rank-1)*3 + file
SQ_INDEX = {s: i for i, s in enumerate(SQUARES)}
FRONT_ROW = (1, 2)                 # row index (rank - 1) of each seat's front row
BACK_ROW = (0, 3)
FORWARD = (1, -1)                  # rank direction toward the enemy
OWN = (tuple(range(0, 6)), tuple(range(6, 12)))
ENEMY = (OWN[1], OWN[0])
CARD_ORDER = "ksapgw"
KINGDOM_ORDER = CODES              # s a p g w
WAITING_MAX = 5
HAND_START = 3
M64 = (1 << 64) - 1
OWN_TURN_EFFECTS = ("s", "a", "p")
CARD_WORDS = {"king": "k", "soldier": "s", "archer": "a", "archier": "a", "priest": "p",
              "guardian": "g", "wizard": "w"}
VERBS = ("keep", "mulligan", "setup", "deploy", "exchange", "move", "play", "swap", "attack",
         "support", "immigrate", "draft", "pass", "end")
USAGE = {
    "keep": "keep", "mulligan": "mulligan", "setup": "setup s b2 g", "deploy": "deploy b2",
    "exchange": "exchange b2", "move": "move a2 b1", "play": "play s b2", "swap": "swap b2 s",
    "attack": "attack b2 b3", "support": "support a b3 / support k s", "immigrate": "immigrate s",
    "draft": "draft b2 / draft s b2", "pass": "pass", "end": "end",
    None: "attack b2 b3 / deploy b2 / support a b3 / immigrate s / end",
}


def front_of(i: int, seat: int) -> int | None:
    """The front-row square in front of back-row square ``i`` of ``seat`` (else None)."""
    r = i // 3
    if r == BACK_ROW[seat]:
        return FRONT_ROW[seat] * 3 + i % 3
    return None


@lru_cache(maxsize=4096)
def reach(seat: int, sq: int, rng: tuple) -> tuple[int, ...]:
    """Enemy squares in range of a unit of ``seat`` on ``sq`` with range offsets ``rng``.

    Project ruling (docs/rules/art_of_war.md): "Ranges use one 4×3 grid: own back row, own front row, enemy front row, enemy back
    row; "forward" is toward the enemy."  Sideways is as the owner sees it (seat 1 faces down the
    board, so its right is toward file a)."""
    r, c = divmod(sq, 3)
    side = 1 if seat == 0 else -1
    out = []
    for f, s in rng:
        rr, cc = r + f * FORWARD[seat], c + s * side
        if 0 <= rr < 4 and 0 <= cc < 3:
            t = rr * 3 + cc
            if t in ENEMY[seat]:
                out.append(t)
    return tuple(sorted(out))


def _rng_next(x: int | str) -> tuple[int | str, int]:
    """(new state, 64-bit output) of the match\'s stream (:func:`rules.prng.step`)."""
    return _prng.step(x)


def _tables(cards: dict) -> dict:
    """(owner, code) -> (range tuple, attack (-1 = hand size), defence upright, defence sideways)."""
    tab = {}
    for owner in (0, 1):
        for code, card in cards["units"].items():
            tab[(owner, code)] = _stat(card)
        tab[(owner, "k")] = _stat(cards["kings"][owner])
    return tab


def _stat(card: dict) -> tuple:
    atk = card["attack"]
    return (tuple(tuple(o) for o in card["range"]), -1 if atk == "hand" else atk,
            card["defence"][0], card["defence"][1])


_TAB_CACHE: dict[str, dict] = {}


def tables_for(cards: dict) -> dict:
    key = json.dumps(cards, sort_keys=True)
    tab = _TAB_CACHE.get(key)
    if tab is None:
        if len(_TAB_CACHE) > 64:
            _TAB_CACHE.clear()
        tab = _TAB_CACHE[key] = _tables(cards)
    return tab


# Rules editions.  A match keeps the edition it started under, so a match stored before a ruling
# changed replays exactly as it was played.  1: after a WIZARD negated a GUARDIAN the defender could
# only negate that WIZARD; 2 (a project ruling, docs/rules/art_of_war.md): the defender may also answer the still-pending attack with
# another GUARDIAN (or the KING as GUARDIAN), and the windows alternate until one side passes;
# 3: the balance changes of data/cards/art_of_war/editions.json (KING defences, see
# docs/rules/art_of_war.md, "Balance (rules edition 3)").
EDITIONS = (1, 2, 3)
EDITION = EDITIONS[-1]


def _edition(value: object) -> int:
    return known(value, EDITIONS, "Art of War")


class AowState:
    """The whole match as plain data.  Treat as immutable: ``apply`` returns a new one."""

    __slots__ = ("seed", "rng", "cards", "first", "turn", "player", "phase", "actor", "hands",
                 "decks", "waiting", "kingdom", "grave", "field", "mode", "immigrated", "boost",
                 "chain", "window", "base", "mull", "draft", "last", "result", "tab", "_legal",
                 "edition")

    def copy(self) -> "AowState":
        s = AowState.__new__(AowState)
        s.seed, s.rng, s.cards, s.first, s.turn = self.seed, self.rng, self.cards, self.first, self.turn
        s.player, s.phase, s.actor = self.player, self.phase, self.actor
        s.hands = [list(self.hands[0]), list(self.hands[1])]
        s.decks = [list(self.decks[0]), list(self.decks[1])]
        s.waiting = [list(self.waiting[0]), list(self.waiting[1])]
        s.kingdom = [list(self.kingdom[0]), list(self.kingdom[1])]
        s.grave = [list(self.grave[0]), list(self.grave[1])]
        s.field = list(self.field)
        s.mode, s.immigrated, s.boost = self.mode, self.immigrated, self.boost
        s.chain = list(self.chain)
        s.window, s.base, s.mull, s.draft = self.window, self.base, list(self.mull), self.draft
        s.last, s.result, s.tab = self.last, self.result, self.tab
        s.edition = self.edition
        s._legal = None
        return s

    def to_json(self) -> dict:
        return {
            "seed": self.seed, "rng": self.rng, "cards": self.cards, "first": self.first,
            "turn": self.turn, "player": self.player, "phase": self.phase, "actor": self.actor,
            "hands": self.hands, "decks": self.decks, "waiting": self.waiting,
            "kingdom": self.kingdom, "grave": self.grave,
            "field": [list(c) if c else None for c in self.field],
            "mode": self.mode, "immigrated": self.immigrated, "boost": self.boost,
            "chain": [list(e) for e in self.chain], "window": self.window,
            "base": self.base.to_json() if self.base is not None else None,
            "mull": self.mull, "draft": self.draft, "last": self.last, "result": self.result,
            "edition": self.edition,
        }

    @classmethod
    def from_json(cls, d: dict) -> "AowState":
        s = cls.__new__(cls)
        s.seed, s.rng, s.cards, s.first = d["seed"], d["rng"], d["cards"], d["first"]
        s.turn, s.player, s.phase, s.actor = d["turn"], d["player"], d["phase"], d["actor"]
        s.hands = [list(h) for h in d["hands"]]
        s.decks = [list(h) for h in d["decks"]]
        s.waiting = [list(h) for h in d["waiting"]]
        s.kingdom = [list(h) for h in d["kingdom"]]
        s.grave = [list(h) for h in d["grave"]]
        s.field = [tuple(c) if c else None for c in d["field"]]
        s.mode, s.immigrated, s.boost = d["mode"], d["immigrated"], d["boost"]
        s.chain = [tuple(e) for e in d["chain"]]
        s.window = d["window"]
        s.base = cls.from_json(d["base"]) if d["base"] is not None else None
        s.mull, s.draft, s.last, s.result = list(d["mull"]), d["draft"], d["last"], d["result"]
        s.tab = tables_for(s.cards)
        s.edition = _edition(d.get("edition", 1))     # a state stored before editions: edition 1
        s._legal = None
        return s

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AowState) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]


def _int_option(name: str, value: Any) -> int:
    return int_option("Art of War", name, value)
