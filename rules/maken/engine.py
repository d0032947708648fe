"""Project Maken (さあくる湯沢温泉): the rules engine behind the contract (``docs/engine.md``).

Rules, rulings, notation and the view format: ``docs/rules/maken.md``.  The attack phase follows
its section "Attack phase (seed)" there (sections A–F and footnotes 注1–注19); the rest of the
turn follows the project rulings stated there too.

>>> from rules import registry
>>> game = registry.get("maken")
>>> state = game.new_match(players=2, seed=7, options={"first": 0})
>>> game.to_act(state), game.legal_commands(state, 0)
([0], ['ready', 'mulligan'])
>>> state = game.apply(game.apply(state, 0, "ready"), 1, "ready")
>>> game.legal_commands(state, 0)      # the very first TP draws at most 1 (edition 2; 2 before)
['draw 1']

The state is one JSON-able dict (``MakenState.d``); ``apply`` works on a copy.  Piles are lists:
``stamina[s][0]`` is the top of the stamina pile, ``dust[s][-1]`` the top of the dust, the last
entry of ``field[s]`` the top of the attack field (``[card, bonuses, twin]``), the last entry of
``guard[s]`` the top face-down guard card.
"""
from __future__ import annotations

from rules.common import int_option, loser_first
import json
import re
from typing import Any

from rules import prng as _prng
from rules.deck_rules import OPTION as DECK_RULES, from_options
from rules.maken import finality as _finality
from rules.maken.diagnosis import DiagnosisMixin
from rules.maken.editions import EditionsMixin, edition_of, first_draw_limit, hand_start, stamp
from rules.maken.messages import USAGE, VERBS
from rules.maken.views import ViewMixin
from rules.maken.mechanics import (
    _rng_next, _shuffle, MakenState, _copy, _attack, _difficulty, _top, _top_speed,
    _top_back, _face_down_sets, _event, _draw, _pay, _send, _apply_effects, _bet,
    _down, _damage, _game_over, _can_bet_face_up, GAME, GAUGE_CAP, DAMAGE_DOWN, LP_CARDS,
    SUPPORT_MAX, DEFAULT_MAX_TURNS, GUARD_TYPES, BONUSES, TRIPLE_BONUSES, _MASK,
    _PAIRS
)

# --------------------------------------------------------------------------- options
def _int_option(name: str, value: Any) -> int:
    return int_option("Project Maken", name, value)


class MakenGame(DiagnosisMixin, ViewMixin, EditionsMixin):
    """Project Maken behind the engine contract (``docs/engine.md``); rules editions: ``editions.py``,
    errors and public text: ``diagnosis.py``, view and determinize: ``views.py``."""

    name = GAME
    min_players = 2
    max_players = 2

    def __init__(self, cardset: Any, edition: int | None = None) -> None:
        from rules.maken.decks import MakenDecks

        self._init_editions(cardset, edition)          # self.cardset: the cards of that edition
        self.decks = MakenDecks(self.cardset)

    # ----------------------------------------------------------------- options
    def option_schema(self) -> dict:
        ids = list(self.cardset.decks)
        return {
            "decks": {"default": ids[:2], "choices": ids},
            "first": {"default": None, "choices": [None, 0, 1]},
            "max_turns": {"default": DEFAULT_MAX_TURNS, "min": 10, "max": 500},
        }

    def deck_spec(self, item: Any, rules: dict | None = None) -> dict:
        """A ready-made deck id, a deck code or a spec -> a legal spec (ValueError lists every
        broken rule); ``rules``: limited deck rules (:mod:`rules.deck_rules`), else constructed."""
        from rules.maken.decks import DeckCodeError, decode_spec, deck_problems, normalise_spec

        if isinstance(item, str):
            text = item.strip()
            if text.lower() in self.cardset.decks and rules is None:
                return normalise_spec(self.cardset.decks[text.lower()]["spec"])
            if text.lower() in self.cardset.decks:      # limited play: it must fit the rules too
                spec = self.cardset.decks[text.lower()]["spec"]
            elif text.lower().startswith("mk1-"):
                try:
                    spec = decode_spec(text)
                except DeckCodeError as exc:
                    raise ValueError(str(exc)) from None
            else:
                known = ", ".join(self.cardset.decks) or "(none)"
                raise ValueError(f"unknown deck {text!r}; ready-made decks: {known} (or a deck code mk1-…)")
        elif isinstance(item, dict):
            spec = item
        else:
            raise ValueError(f"a deck is a ready-made deck id, a deck code or {{\"character\", \"cards\"}}, not {item!r}")
        problems = deck_problems(self.cardset, spec, rules)
        if problems:
            raise ValueError("illegal deck: " + "; ".join(p["text"] for p in problems))
        return normalise_spec(spec)

    @staticmethod
    def deck_rules(options: dict) -> dict | None:
        """The match's limited deck rules (option ``deck_rules``, :func:`rules.deck_rules.from_options`)
        checked, or None for constructed play; ValueError naming the problem."""
        from rules.maken.decks import check_rules

        return from_options(options, check_rules, "Project Maken")

    def validate_options(self, options: dict | None) -> dict:
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise ValueError(f"Project Maken options must be a dict, not {type(options).__name__}")
        schema = self.option_schema()
        out: dict[str, Any] = {}
        rules = self.deck_rules(options)      # limited play: every seat's deck is checked with them
        if rules is not None:
            out[DECK_RULES] = rules
        for name, value in options.items():
            if name == DECK_RULES:
                continue
            if name not in schema:
                raise ValueError(f"unknown Project Maken option {name!r}; allowed options: {', '.join(schema)}")
            if name == "first":
                if value is None or (isinstance(value, str) and value.strip().lower() in ("", "random")):
                    continue
                try:
                    seat = _int_option(name, value)
                except ValueError:
                    seat = -1
                if seat not in (0, 1):
                    raise ValueError(f"Project Maken option 'first' must be 0 or 1 (or absent for random), not {value!r}")
                out[name] = seat
            elif name == "max_turns":
                n = _int_option(name, value)
                if not schema[name]["min"] <= n <= schema[name]["max"]:
                    raise ValueError(f"Project Maken option 'max_turns' must be between {schema[name]['min']} "
                                     f"and {schema[name]['max']}, not {n}")
                out[name] = n
            elif name == "decks":
                if value is None:
                    continue
                items = value
                if isinstance(value, str):
                    items = [v for v in re.split(r"[/+\s]+", value.strip()) if v]
                if not isinstance(items, (list, tuple)) or len(items) != 2:
                    raise ValueError("Project Maken option 'decks' must name 2 decks (seat 0, seat 1), e.g. "
                                     + "/".join(schema["decks"]["default"]))
                specs = []
                ready = list(self.cardset.decks)
                for seat, item in enumerate(items):
                    if item is None:
                        item = ready[seat % len(ready)]
                    try:
                        specs.append(self.deck_spec(item, rules))
                    except ValueError as exc:
                        raise ValueError(f"Project Maken option 'decks': seat {seat}'s deck: {exc}") from None
                out[name] = specs
        if "decks" not in out:
            ready = list(self.cardset.decks)
            if len(ready) < 2:
                raise ValueError("Project Maken needs 'decks': fewer than 2 ready-made decks exist")
            try:
                out["decks"] = [self.deck_spec(ready[0], rules), self.deck_spec(ready[1], rules)]
            except ValueError as exc:       # limited rules the ready-made decks do not fit
                raise ValueError(f"Project Maken option 'decks': {exc}") from None
        return out

    def rematch_options(self, options: dict | None, outcome: dict | None) -> dict:
        """Ruling: in a rematch the loser is the first TP; after a draw it is random again.
        Decks stay with their seats."""
        return loser_first(options, outcome)

    # ----------------------------------------------------------------- setup
    def new_match(self, players: int = 2, seed: int = 0, options: dict | None = None, *,
                  prng: int = _prng.CURRENT, edition: int | None = None) -> MakenState:
        if edition is not None and edition_of(edition) != self.edition:   # a stored match: its own
            return self.for_edition(edition).new_match(players, seed, options, prng=prng, edition=edition)
        if players != 2:
            raise ValueError(f"Project Maken is for exactly 2 players, not {players!r}")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"seed must be an integer, not {seed!r}")
        opts = self.validate_options(options)
        decks = opts["decks"]
        used = {d["character"] for d in decks} | {c for d in decks for c in d["cards"]}
        cards = {cid: json.loads(json.dumps(self.cardset.characters.get(cid) or self.cardset.cards[cid]))
                 for cid in sorted(used)}
        d = self._blank(seed, cards, opts.get("max_turns", DEFAULT_MAX_TURNS))
        stamp(d, self.edition, self.cardset)
        if _prng.check(prng) == _prng.LEGACY:
            d["rng"] = (seed * 0x2545F4914F6CDD1D + 0x1234567) & _MASK
        else:
            d["rng"] = _prng.start(seed)
        if "first" in opts:
            first = opts["first"]
        else:
            d["rng"], z = _rng_next(d["rng"])
            first = z % 2
        d["first"] = first
        d["tp"] = first
        for s in (0, 1):                         # shuffle, (cut), 3 LP cards, the rest is stamina
            d["chars"][s] = decks[s]["character"]
            pile = [c for c, n in decks[s]["cards"].items() for _ in range(n)]
            _shuffle(d, pile)
            d["lp"][s] = pile[:LP_CARDS]
            d["stamina"][s] = pile[LP_CARDS:]
        for s in (0, 1):
            _draw(d, s, hand_start(d, s))
        d["step"] = "mulligan"
        d["mull"] = first
        d["events"] = []
        return MakenState(d)

    @staticmethod
    def _blank(seed: int, cards: dict, max_turns: int) -> dict:
        return {
            "game": GAME, "version": 1, "seed": seed, "rng": 0, "cards": cards, "first": 0,
            "max_turns": max_turns, "turn": 0, "tp": 0, "step": "mulligan", "chars": [None, None],
            "hand": [[], []], "stamina": [[], []], "lp": [[], []], "gauge": [[], []],
            "damage": [[], []], "dust": [[], []], "guard": [[], []], "support": [[], []],
            "field": [[], []], "gtype": [None, None], "gc_open": [None, None], "mulled": [False, False],
            "mull": None, "situation": None, "guarder": None, "actor": None, "after_fb": False,
            "pending": None, "judge": None, "last": None, "log": [], "events": [], "result": None,
        }

    def position(self, *, chars: tuple[str, str] | None = None, tp: int = 0, actor: int | None = None,
                 step: str = "attack", turn: int = 3, situation: str | None = "even",
                 guarder: int | None = None, after_fb: bool = False, seed: int = 0,
                 max_turns: int = DEFAULT_MAX_TURNS, **seats: Any) -> MakenState:
        """A state built from a position (tests, docs, puzzles).  ``seats``: ``hand0``, ``field1``,
        ``stamina0`` (top first), ``dust1`` (top last), ``gauge0``, ``damage0``, ``lp0``,
        ``guard1`` (top last), ``gtype1``, ``support0`` (``[[card, turn_set], ...]``); a field entry
        is a card id or ``[card, bonuses, twin]``.  Card ids must exist in the card set."""
        ready = list(self.cardset.decks.values())
        chars = chars or (ready[0]["spec"]["character"], ready[1]["spec"]["character"])
        cards = self._all_cards()
        d = self._blank(seed, cards, max_turns)
        stamp(d, self.edition, self.cardset)
        d["rng"] = seed & _MASK
        d.update(first=tp, tp=tp, step=step, turn=turn, chars=list(chars), situation=situation,
                 guarder=guarder, after_fb=after_fb, mull=None, mulled=[True, True])
        d["actor"] = (1 - tp if actor is None else actor) if step == "attack" else None
        for s in (0, 1):
            for k in _PAIRS:
                d[k][s] = list(seats.get(f"{k}{s}", []))
            d["support"][s] = [list(x) for x in seats.get(f"support{s}", [])]
            d["field"][s] = [[e, [], 0] if isinstance(e, str) else [e[0], list(e[1]), e[2]]
                             for e in seats.get(f"field{s}", [])]
            d["gtype"][s] = seats.get(f"gtype{s}")
        return MakenState(d)

    # ----------------------------------------------------------------- queries
    def to_act(self, state: MakenState) -> list[int]:
        d = state.d
        if d["result"] is not None:
            return []
        step = d["step"]
        if step == "mulligan":
            return [d["mull"]]
        if step == "attack":
            return [d["actor"]]
        if step == "bonus":
            return [d["pending"]["seat"]]
        return [d["tp"]]

    def public_to_act(self, state: MakenState) -> list[int]:
        """No secret decisions in Project Maken: the same as ``to_act``."""
        return self.to_act(state)

    def reveals(self, state_before: MakenState, seat: int, command: str, state_after: MakenState) -> bool:
        return _finality.reveals(state_before, seat, command, state_after)   # rules/maken/finality.py

    def final(self, state_before: MakenState, seat: int, command: str, state_after: MakenState) -> bool:
        return _finality.final(self, state_before, seat, command, state_after)

    def outcome(self, state: MakenState) -> dict | None:
        r = state.d["result"]
        if r is None:
            return None
        return {"winners": list(r["winners"]), "reason": r["reason"]}

    def outcome_detail(self, state: MakenState) -> dict | None:
        """What the result line names beyond the reason: at the turn limit, both players' LP
        cards left (``win``: the winner's and the loser's; ``draw``)."""
        r = state.d["result"]
        if r is None or r["reason"] != "turn_limit":
            return None
        lp = [len(state.d["lp"][0]), len(state.d["lp"][1])]
        if not r["winners"]:
            return {"form": "draw", "winner": lp[0], "loser": lp[1]}
        w = r["winners"][0]
        return {"form": "win", "winner": lp[w], "loser": lp[1 - w]}

    def legal_commands(self, state: MakenState, seat: int) -> list[str]:
        if isinstance(seat, bool) or seat not in self.to_act(state):
            return []
        return self._legal(state.d)

    def timeout_command(self, state: MakenState, seat: int) -> str | None:
        """The default when ``seat``'s clock runs out: keep the hand, draw the most, skip a
        bonus bet, end the turn; in the attack phase call (or let the guard break)."""
        d = state.d
        if d["result"] is not None or seat not in self.to_act(state):
            return None
        legal = self._legal(d)
        for cmd in ("ready", "pass", "end", "call", "break", "skip"):
            if cmd in legal:
                return cmd
        draws = [c for c in legal if c.startswith("draw ")]
        return draws[-1] if draws else None

    # ----------------------------------------------------------------- legal commands
    def _legal(self, d: dict) -> list[str]:
        step = d["step"]
        if d["result"] is not None:
            return []
        if step == "mulligan":
            return ["ready", "mulligan"] if not d["mulled"][d["mull"]] else ["ready"]
        tp = d["tp"]
        if step == "draw":
            return [f"draw {n}" for n in range(1, self._draw_limit(d) + 1)]
        if step == "before":
            out = []
            if len(d["support"][tp]) < SUPPORT_MAX:
                out += [f"set {c}" for c in sorted(set(d["hand"][tp])) if d["cards"][c]["kind"] == "support"]
            out += [f"use {c}" for c in self._usable(d, tp, "before")]
            fbs = self._fb_options(d)
            out += fbs
            if not fbs:
                out.append("skip")
            return out
        if step == "after":
            return [f"use {c}" for c in self._usable(d, tp, "after")] + ["end"]
        if step == "bonus":
            s = d["pending"]["seat"]
            return [f"bonus {c}" for c in sorted(set(d["hand"][s])) if _can_bet_face_up(d, s, c)] + ["pass"]
        return self._attack_options(d)

    def _draw_limit(self, d: dict) -> int:
        tp = d["tp"]
        limit = d["cards"][d["chars"][tp]].get("draw_limit", 3)
        if d["turn"] == 1:
            limit = min(limit, first_draw_limit(d))
        return max(1, min(limit, len(d["stamina"][tp])))

    def _usable(self, d: dict, s: int, timing: str) -> list[str]:
        return sorted({c for c, t in d["support"][s] if t < d["turn"] and d["cards"][c]["timing"] == timing})

    def _multi(self, d: dict, s: int, cid: str, verb: str) -> list[str]:
        """The single bet and the double/triple attack variants of ``cid``."""
        n = d["hand"][s].count(cid)
        out = [f"{verb} {cid}"]
        if n >= 2 and _can_bet_face_up(d, s, cid, 2):
            out += [f"{verb} {cid} double {b}" for b in BONUSES]
        if n >= 3 and _can_bet_face_up(d, s, cid, 3):
            out += [f"{verb} {cid} triple {a} {b}" for a, b in TRIPLE_BONUSES]
        return out

    def _fb_options(self, d: dict) -> list[str]:
        tp = d["tp"]
        defenceless = not d["hand"][1 - tp]
        out = []
        for cid in sorted(set(d["hand"][tp])):
            if not _can_bet_face_up(d, tp, cid):
                continue
            if d["cards"][cid]["front"] == 0 and not defenceless:
                continue
            out += self._multi(d, tp, cid, "fb")
        return out

    def _attack_ok(self, d: dict, s: int, cid: str) -> bool:
        """B.1: speed and reach against the opponent's top card, unless the opponent guards (◎)."""
        if not _can_bet_face_up(d, s, cid):
            return False
        if d["situation"] == "guard":
            return True
        card = d["cards"][cid]
        o = 1 - s
        return card["speed"] >= _top_speed(d, o) and card["front"] >= _top_back(d, o)

    def _guard_types(self, d: dict, s: int) -> list[str]:
        """B.2 and figure 3: the guard types ``s`` may take now (even situation)."""
        o = 1 - s
        top = _top(d, o)
        if top is None:
            return []
        ung = d["cards"][top[0]]["unguardable"]
        if not d["field"][s]:                    # right after the opponent's FB: stand or crouch
            return [t for t in ("stand", "crouch") if t not in ung]
        posture = d["cards"][d["field"][s][-1][0]]["posture"]     # 注7: judged before the dust
        return [] if posture in ung else [posture]

    def _keep_plan(self, d: dict, s: int) -> tuple[bool, list[str], int]:
        """B.3: (flushed?, guard types allowed, face-down cards needed)."""
        o = 1 - s
        top = _top(d, o)
        n = _difficulty(d, top)
        ung = d["cards"][top[0]]["unguardable"]
        if d["gtype"][s] in ung:                 # ガード流し, then stand or crouch anew (注9)
            return True, [t for t in ("stand", "crouch") if t not in ung], n
        return False, [d["gtype"][s]], max(0, n - len(d["guard"][s]))

    def _gc_ok(self, d: dict, s: int) -> str | None:
        """B.4: None if the top guard card may be opened, else a why-key."""
        if not d["guard"][s]:
            return "maken.why.no_guard_cards"
        card = d["cards"][d["guard"][s][-1]]
        if card["kind"] != "attack" or card["gc"] not in ("only", "able"):
            return "maken.why.top_not_gc"
        if card["cost"] > len(d["gauge"][s]):
            return "maken.why.gauge"
        if card["front"] < _top_back(d, 1 - s):
            return "maken.why.reach"
        return None

    def _attack_options(self, d: dict) -> list[str]:
        s = d["actor"]
        o = 1 - s
        out = []
        hand = d["hand"][s]
        if d["situation"] == "even" or d["guarder"] == o:
            for cid in sorted(set(hand)):
                if self._attack_ok(d, s, cid):
                    out += self._multi(d, s, cid, "attack")
        if d["situation"] == "even":
            n = _difficulty(d, _top(d, o))
            if len(hand) >= n:                   # 注5
                for t in self._guard_types(d, s):
                    out += [f"guard {t} {x}" for x in _face_down_sets(hand, n)]
            out.append("call")
            return out
        if d["guarder"] == o:
            out.append("call")
            return out
        flushed, types, need = self._keep_plan(d, s)
        if flushed:
            if len(hand) >= need:
                for t in types:
                    out += [f"keep {t} {x}" for x in _face_down_sets(hand, need)]
        elif need == 0:
            out.append("keep")
        elif len(hand) >= need:
            out += [f"keep {x}" for x in _face_down_sets(hand, need)]
        if self._gc_ok(d, s) is None:
            out.append("gc")
        out.append("break")
        return out

    # ----------------------------------------------------------------- parsing
    def _canonical(self, d: dict, command: Any) -> tuple[str, list[str]]:
        if not isinstance(command, str):
            raise self._fail("maken.err.syntax", d, command=str(command)[:60], usage=USAGE[None])
        tokens = command.lower().replace(",", " ").split()
        if not tokens:
            raise self._fail("maken.err.empty", d)
        verb, args = tokens[0], tokens[1:]
        aliases = {"keephand": "ready", "guardcancel": "gc", "first": "fb", "bet": "attack"}
        verb = aliases.get(verb, verb)
        if verb not in VERBS:
            if re.fullmatch(r"[a-z]+", verb):
                raise self._fail("maken.err.unknown_verb", d, verb=verb[:30])
            raise self._fail("maken.err.syntax", d, command=" ".join(tokens)[:60], usage=USAGE[None])
        args = [{"x2": "double", "x3": "triple", "2": "double", "3": "triple"}.get(a, a)
                if i == 1 and verb in ("attack", "fb") else a for i, a in enumerate(args)]
        if verb in ("attack", "fb") and len(args) == 4 and args[1] == "triple":
            args = args[:2] + sorted(args[2:])
        if verb == "guard" and len(args) >= 3:
            args = args[:2] + sorted(args[2:])
        if verb == "keep" and args:
            head = 1 if args[0] in GUARD_TYPES else 0
            if len(args) > head + 1:
                args = args[:head + 1] + sorted(args[head + 1:])
        return verb, args

    # ----------------------------------------------------------------- apply
    def apply(self, state: MakenState, seat: int, command: str) -> MakenState:
        d0 = state.d
        if d0["result"] is not None:
            raise self._fail("maken.err.game_over")
        waiting = self.to_act(state)
        if isinstance(seat, bool) or seat not in waiting:
            raise self._fail("maken.err.not_your_turn", waiting=waiting[0] + 1)   # 1-based
        verb, args = self._canonical(d0, command)
        text = " ".join([verb, *args])
        legal = self._legal(d0)
        if text not in legal:
            raise self._diagnose(d0, seat, verb, args, text, legal)
        d = _copy(d0)
        d["events"] = []
        d["last"] = {"seat": seat, "command": self._public_text(d0, seat, verb, args), "step": d0["step"]}
        getattr(self, f"_do_{verb}")(d, seat, args)
        self._ten_damage_downs(d)
        d["last"]["events"] = d["events"]
        return MakenState(d)

    @staticmethod
    def _ten_damage_downs(d: dict) -> None:
        """注18: 「ダメージ解決」中でなくとも、ダメージ札が10枚に達したら「ダウン」処理を行います.
        Damage resolution downs at once (:func:`_damage`); this catches 10 damage cards reached any
        other way, after every command (TP first — ruling).  No shipped card moves cards to the
        damage pile outside damage resolution, so this only acts on positions or future card data."""
        for s in (d["tp"], 1 - d["tp"]):
            if d["result"] is None and len(d["damage"][s]) >= DAMAGE_DOWN:
                _down(d, s)
        if d["result"] is not None:
            _game_over(d)

    # each _do_* gets a legal command (already checked) on the working copy
    def _do_ready(self, d: dict, s: int, args: list[str]) -> None:
        d["mulled"][s] = True
        self._after_mulligan(d, s)

    def _do_mulligan(self, d: dict, s: int, args: list[str]) -> None:
        d["mulled"][s] = True
        d["stamina"][s].extend(d["hand"][s])
        d["hand"][s] = []
        _shuffle(d, d["stamina"][s])
        _draw(d, s, hand_start(d, s))
        _event(d, t="mulligan", seat=s)
        self._after_mulligan(d, s)

    def _after_mulligan(self, d: dict, s: int) -> None:
        if s == d["first"]:                       # ruling: the first TP decides first
            d["mull"] = 1 - s
            return
        d["mull"] = None
        d["turn"] = 1
        self._start_turn(d, d["first"])

    def _start_turn(self, d: dict, tp: int) -> None:
        d["tp"] = tp
        d["step"] = "draw" if d["stamina"][tp] else "before"     # no stamina: no draw
        _event(d, t="turn", seat=tp, turn=d["turn"])

    def _do_draw(self, d: dict, s: int, args: list[str]) -> None:
        n = _draw(d, s, int(args[0]))
        _event(d, t="draw", seat=s, n=n)
        d["step"] = "before"

    def _do_set(self, d: dict, s: int, args: list[str]) -> None:
        d["hand"][s].remove(args[0])
        d["support"][s].append([args[0], d["turn"]])
        _event(d, t="set", seat=s)

    def _do_use(self, d: dict, s: int, args: list[str]) -> None:
        cid = args[0]
        sup = d["support"][s]
        for i, (c, t) in enumerate(sup):
            if c == cid and t < d["turn"]:
                del sup[i]
                break
        _event(d, t="use", seat=s, card=cid)
        _apply_effects(d, s, d["cards"][cid]["effect"], "support")
        _send(d, s, cid)

    def _do_skip(self, d: dict, s: int, args: list[str]) -> None:
        _event(d, t="skip", seat=s)
        self._after_attack(d)

    def _parse_bet(self, args: list[str]) -> tuple[str, int, list[str]]:
        if len(args) == 1:
            return args[0], 1, []
        if args[1] == "double":
            return args[0], 2, [args[2]]
        return args[0], 3, args[2:4]

    def _do_fb(self, d: dict, s: int, args: list[str]) -> None:
        cid, mult, bonuses = self._parse_bet(args)
        d["step"] = "attack"
        d["situation"] = "even"                  # A: both players are even
        d["guarder"] = None
        _bet(d, s, cid, mult, bonuses, "fb")
        d["actor"] = 1 - s
        d["after_fb"] = True

    def _next_action(self, d: dict, s: int) -> None:
        d["actor"] = 1 - s
        d["after_fb"] = False

    def _do_attack(self, d: dict, s: int, args: list[str]) -> None:
        cid, mult, bonuses = self._parse_bet(args)
        _bet(d, s, cid, mult, bonuses, "attack")
        self._next_action(d, s)

    def _do_guard(self, d: dict, s: int, args: list[str]) -> None:
        kind, cards = args[0], args[1:]
        for e in d["field"][s]:                  # 注5: to the dust in the order they were bet
            d["dust"][s].append(e[0])
        d["field"][s] = []
        self._face_down(d, s, cards)
        d["gtype"][s] = kind
        d["situation"] = "guard"
        d["guarder"] = s
        _event(d, t="guard", seat=s, kind=kind, count=len(cards))
        self._next_action(d, s)

    def _face_down(self, d: dict, s: int, cards: list[str]) -> None:
        """Bet ``cards`` face down; the first named ends on top."""
        for c in cards:
            d["hand"][s].remove(c)
        d["guard"][s].extend(list(reversed(cards[1:])) + [cards[0]])

    def _do_keep(self, d: dict, s: int, args: list[str]) -> None:
        flushed, _, _ = self._keep_plan(d, s)
        if flushed:                              # ガード流し (注8: still guarding)
            d["dust"][s].extend(d["guard"][s])
            d["guard"][s] = []
            d["gtype"][s] = args[0]
            args = args[1:]
            _event(d, t="flush", seat=s)
        if args:
            self._face_down(d, s, args)
        _event(d, t="keep", seat=s, kind=d["gtype"][s], added=len(args), count=len(d["guard"][s]))
        self._next_action(d, s)

    def _do_gc(self, d: dict, s: int, args: list[str]) -> None:
        cid = d["guard"][s].pop()                # 注10: only the top card
        _pay(d, s, d["cards"][cid]["cost"])
        d["gc_open"][s] = cid
        _event(d, t="gc", seat=s, card=cid)
        self._judge(d, "guard_cancel", s, None)

    def _do_call(self, d: dict, s: int, args: list[str]) -> None:
        _event(d, t="call", seat=s)
        if d["situation"] == "guard":
            self._judge(d, "guard_holds", d["guarder"], s)
            return
        a, b = _top_speed(d, s), _top_speed(d, 1 - s)
        if a == b:
            self._judge(d, "trade", None, s)
        else:
            self._judge(d, "clean_hit", s if a > b else 1 - s, s)

    def _do_break(self, d: dict, s: int, args: list[str]) -> None:
        self._judge(d, "guard_break", 1 - s, None)

    def _do_bonus(self, d: dict, s: int, args: list[str]) -> None:
        _bet(d, s, args[0], 1, [], "bonus")
        d["pending"]["bonus"] = args[0]
        self._finish_judge(d)

    def _do_pass(self, d: dict, s: int, args: list[str]) -> None:
        self._finish_judge(d)

    def _do_end(self, d: dict, s: int, args: list[str]) -> None:
        self._next_turn(d)

    # ----------------------------------------------------------------- judge (D) and damage (E)
    def _judge(self, d: dict, kind: str, winner: int | None, caller: int | None) -> None:
        d["pending"] = {"kind": kind, "winner": winner, "caller": caller, "seat": None, "bonus": None}
        bonus_seat = None
        if kind == "clean_hit" and not d["field"][1 - winner]:
            bonus_seat = winner                  # D.1: the opponent's field is empty
        elif kind == "guard_cancel":
            bonus_seat = winner                  # project ruling (docs/rules/maken.md): a bonus bet after a GC
        if bonus_seat is not None:
            d["pending"]["seat"] = bonus_seat
            if d["hand"][bonus_seat]:             # asked whenever the hand is not empty (public),
                # so that being asked never reveals whether a legal bonus bet exists
                d["step"] = "bonus"
                d["actor"] = None
                return
        self._finish_judge(d)

    def _finish_judge(self, d: dict) -> None:
        p = d["pending"]
        kind, w, caller = p["kind"], p["winner"], p["caller"]
        cards = d["cards"]
        rec: dict[str, Any] = {"kind": kind, "turn": d["turn"], "winner": w, "caller": caller, "totals": [None, None],
                               "hits": [], "bonus": p.get("bonus")}
        order: list[tuple[int, int]] = []                 # (who takes damage, whose total); D.3: none
        if kind in ("clean_hit", "guard_break"):
            field = d["field"][w]
            hits = [e for e in field if not e[2]]          # double attack: text once
            power = 0
            for e in hits:
                rec["hits"].append(e[0])
                power += _apply_effects(d, w, cards[e[0]]["hit"], "hit")
            if kind == "clean_hit":
                total = sum(_attack(d, e) for e in field)
            else:                                          # 注16: GB correction
                total = _attack(d, field[-1]) + (len(field) - 1)
            rec["totals"][w] = max(0, total + power)       # 注14
            order = [(1 - w, w)]
        elif kind == "guard_cancel":
            opened = d["gc_open"][w]
            hit = [opened] + ([p["bonus"]] if p.get("bonus") else [])
            power = 0
            for c in hit:
                rec["hits"].append(c)
                power += _apply_effects(d, w, cards[c]["hit"], "hit")
            total = sum(cards[c]["attack"] for c in hit)
            rec["totals"][w] = max(0, total + power)
            order = [(1 - w, w)]
        elif kind == "trade":
            called = 1 - caller
            t_caller = sum(_attack(d, e) for e in d["field"][caller]) - _top_back(d, called)   # 注15
            t_called = sum(_attack(d, e) for e in d["field"][called])
            rec["totals"][caller] = max(0, t_caller)
            rec["totals"][called] = max(0, t_called)
            order = [(called, caller), (caller, called)]   # 注17: the called player first
        _event(d, t="judge", kind=kind, winner=w, totals=list(rec["totals"]))
        for victim, source in order:                       # E: damage resolution
            if d["result"] is None:
                _damage(d, victim, rec["totals"][source])
        d["judge"] = rec
        d["pending"] = None
        if d["result"] is not None:
            _game_over(d)
            return
        self._end_attack_phase(d)

    def _end_attack_phase(self, d: dict) -> None:
        """F: face-up cards go where their icon says, face-down cards to the dust (TP first,
        then the other player; each in the order bet — ruling)."""
        tp = d["tp"]
        for s in (tp, 1 - tp):
            for e in d["field"][s]:
                _send(d, s, e[0])
            d["field"][s] = []
            if d["gc_open"][s]:
                _send(d, s, d["gc_open"][s])
                d["gc_open"][s] = None
            d["dust"][s].extend(d["guard"][s])
            d["guard"][s] = []
            d["gtype"][s] = None
        d["situation"] = None
        d["guarder"] = None
        d["actor"] = None
        d["after_fb"] = False
        self._after_attack(d)

    def _after_attack(self, d: dict) -> None:
        tp = d["tp"]
        d["step"] = "after"
        if not any(t < d["turn"] for _, t in d["support"][tp]):
            self._next_turn(d)

    def _next_turn(self, d: dict) -> None:
        """The other player becomes TP.  Ruling (engine): a TP with no stamina (no draw), no hand
        and no support card set on an earlier turn has no decision at all, so that turn passes at
        once (all public facts); the loop ends at the turn limit at the latest."""
        while True:
            if d["turn"] >= d["max_turns"]:      # house rule: the turn limit
                lp = [len(d["lp"][0]), len(d["lp"][1])]
                winners = [] if lp[0] == lp[1] else [0 if lp[0] > lp[1] else 1]
                d["result"] = {"winners": winners, "reason": "turn_limit"}
                _game_over(d)
                return
            d["turn"] += 1
            tp = 1 - d["tp"]
            self._start_turn(d, tp)
            if d["step"] == "draw" or d["hand"][tp] or any(t < d["turn"] for _, t in d["support"][tp]):
                return
            _event(d, t="skip", seat=tp)

    # ----------------------------------------------------------------- persistence
    def dump(self, state: MakenState) -> str:
        return json.dumps(state.d, ensure_ascii=False, separators=(",", ":"), sort_keys=True)

    def load(self, text: str) -> MakenState:
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("game") != GAME or data.get("version") != 1:
            raise ValueError("not a Project Maken state (version 1)")
        missing = set(self._blank(0, {}, 10)) - set(data)
        if missing:
            raise ValueError(f"Project Maken state lacks {sorted(missing)[0]!r}")
        data.setdefault("edition", 1)             # a state stored before rules editions
        return MakenState(data)


__all__ = ["MakenGame", "MakenState", "GAUGE_CAP", "DAMAGE_DOWN", "SUPPORT_MAX"]
