"""Avalon's Sanctuary: the state (players, lands, the PRNG), rules editions, card helpers and
errors — the data the turn machine (:mod:`rules.avalon.turns`) and the engine work on."""
from __future__ import annotations

from itertools import combinations
from typing import Any

from rules.contract import IllegalCommand, en_text
from rules import prng as _prng
from rules.avalon.card_schema import ATTR_LETTER
from rules.editions import known
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
    """The next 64-bit output of the match's stream (:func:`rules.prng.step`)."""
    s.rng, out = _prng.step(s.rng)
    return out


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
# attack bonus on a land counted before the ability order; 2 (a project ruling, docs/rules/avalon.md): the printed tie order
# decides at step 8 too (an invader's instant death resolves before a defender's reflect), and a
# lasting attack bonus is an attack change of ability order 4; 3: edition 2's rules with the
# balance changes to card numbers and ready-made decks of data/cards/avalon/06_editions.json
# (rules/avalon/editions.py; docs/rules/avalon.md, "Balance (rules edition 3)"); 4: edition 3 with
# the further balance changes of the same file (defender bonuses, target cuts, deck lists; "Balance
# (rules edition 4)"); 5: edition 4 with dawn's deck list changed ("Balance (rules edition 5)").
EDITIONS = (1, 2, 3, 4, 5)
EDITION = EDITIONS[-1]


def _edition(value: object) -> int:
    return known(value, EDITIONS, "Avalon's Sanctuary")


class State:
    """The whole match as data.  A land is ``[mana, creature, atk_bonus]`` where ``mana`` is a
    list of ``[card_id, conversions]`` (bottom first; ``conversions`` a string of icon letters
    turned rainbow, ``"*"`` = all) and ``creature`` a card id or None.  ``sanct`` is the
    sanctuary (a land of the leader's) or None."""

    __slots__ = ("defs", "seed", "rng", "mode", "life0", "target", "proofs_needed", "max_rounds",
                 "players", "leader", "round", "kind", "step", "actor", "queue", "decls", "bi",
                 "battle", "sanct", "advanced", "holy", "abort", "result", "events", "last_battle",
                 "decks_opt", "acts", "moves", "edition", "deck_rules")
    # ``moves``: commands, joins and resignations applied so far (stamps eliminations)
    # ``edition``: the rules edition the match started under (EDITIONS)
    # ``deck_rules``: a limited match's deck rules (rules.deck_rules), which a late joiner's deck
    # must fit too; None in constructed play (and then left out of the dump)

    def clone(self) -> "State":
        s = State.__new__(State)
        for k in ("defs", "seed", "rng", "mode", "life0", "target", "proofs_needed", "max_rounds",
                  "leader", "round", "kind", "step", "actor", "bi", "advanced", "holy", "abort",
                  "result", "last_battle", "decks_opt", "acts", "moves", "edition", "deck_rules"):
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
    return IllegalCommand(en_text(EN, key, params), key=key, **params)


def ptok(seat: int) -> str:
    return f"p{seat + 1}"


def ltok(i: int) -> str:
    return f"l{i + 1}"


_ALIASES = {"end": "done", "finish": "done", "skip": "pass"}


def command_tokens(command: Any) -> list[str]:
    """A command's words as the engine reads them: lower case, the verb's aliases (``end``,
    ``finish`` → ``done``; ``skip`` → ``pass``) and ``support none`` → ``support avatar``."""
    if not isinstance(command, str):
        return []
    toks = command.strip().lower().split()
    if toks and toks[0] in _ALIASES:
        toks[0] = _ALIASES[toks[0]]
    if len(toks) == 2 and toks[0] == "support" and toks[1] == "none":
        toks[1] = "avatar"
    return toks
