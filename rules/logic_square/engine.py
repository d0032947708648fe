"""Battle Logic Square (AMaRo Project., 2023): the rules engine behind the contract (docs/engine.md).

Rules, rulings, the notation and the view format: ``docs/rules/logic_square.md``.  Card data:
``docs/cards.md``.  The engine is built with a validated :class:`CardSet` (the loader in
``rules/logic_square/files.py`` reads the files; nothing here does I/O).

>>> from rules import registry
>>> game = registry.get("logic_square")
>>> state = game.new_match(players=2, seed=7, options={"first": 0})
>>> game.to_act(state), state.ap
([0], 2)
>>> game.legal_commands(state, 0)[:3]
['move b1', 'move d1', 'move c2']
>>> state = game.apply(state, 0, "move c2")
>>> game.view(state, None)["board"]["avis"][0]["square"]
'c2'
"""
from __future__ import annotations

from rules.common import copy_json, int_option, loser_first
import json
import re
from collections import Counter
from typing import Any

from rules.contract import IllegalCommand, en_text
from rules import prng as _prng
from rules.logic_square.board import NEIGHBOURS, SQ_INDEX, SQUARES, START, avi_may_stand, project
from rules.logic_square import finality
from rules.logic_square.cards import CardSet
from rules.deck_rules import OPTION as DECK_RULES, from_options
from rules.logic_square.decks import (DeckCodeError, LogicSquareDecks, check_rules, decode_deck, is_deck_code,
                                      normalise_deck, validate_deck)
from rules.logic_square.match import (CAA_MAX, EDITION, EDITIONS, HAND_TARGET, LIFE_START, LSState, Match,
                                      build_payments, build_text, decl_view, multisets,
                                      pays_build, rng_next, rng_seed)
from rules.logic_square.messages import EN, USAGE, VERBS
from rules.logic_square.storage import _cardset_from_text, _edition, _state_from_json, _state_json

GAME = "logic_square"
DEFAULT_MAX_TURNS = 100

_SQUARE_RE = re.compile(r"^[a-e][1-5]$")
_ID_RE = re.compile(r"^[a-z][a-z0-9_]{1,11}$")


def _int_option(name: str, value: Any) -> int:
    return int_option("Battle Logic Square", name, value)


class LogicSquareGame:
    """Battle Logic Square behind the engine contract (``docs/engine.md``)."""

    name = GAME
    min_players = 2
    max_players = 2
    editions = EDITIONS          # rules editions, oldest first; new matches use the last

    def __init__(self, cardset: CardSet) -> None:
        self.files_cardset = cardset                 # the files' cards, with every edition's patches
        self.cardset = cardset.at(EDITION)           # the cards and decks of the current edition
        self.decks = LogicSquareDecks(self.cardset)     # docs/engine.md "Decks"

    def cardset_at(self, edition: int) -> CardSet:
        """The cards and ready-made decks of rules ``edition`` (a match keeps its edition's)."""
        return self.files_cardset.at(_edition(edition))

    # ----------------------------------------------------------------- options
    def option_schema(self) -> dict[str, dict[str, Any]]:
        decks = list(self.cardset.decks)
        return {
            "decks": {"default": decks[:2], "choices": decks},
            "first": {"default": None, "choices": [None, 0, 1]},
            "max_turns": {"default": DEFAULT_MAX_TURNS, "min": 10, "max": 1000},
            "awakening": {"default": True, "choices": [True, False]},
        }

    def deck_spec(self, item: Any, *, edition: int = EDITION, rules: dict | None = None) -> dict:
        """A deck given as a ready-made deck id, a deck code or a spec dict -> a legal spec.

        Raises ValueError listing every broken deck rule.  ``edition``: whose ready-made decks a
        deck id names; ``rules``: limited deck rules (:mod:`rules.deck_rules`), else constructed."""
        cs = self.cardset_at(edition)
        if isinstance(item, str):
            text = item.strip()
            if text.lower() in cs.decks and rules is None:
                return cs.decks[text.lower()].to_spec()
            if text.lower() in cs.decks:                # limited play: it must fit the rules too
                spec = cs.decks[text.lower()].to_spec()
            elif is_deck_code(text):
                try:
                    spec = decode_deck(text)
                except DeckCodeError as exc:
                    raise ValueError(str(exc)) from None
            else:
                known = ", ".join(cs.decks) or "(none)"
                raise ValueError(f"unknown deck {text!r}; ready-made decks: {known} (or a deck code ls1-…)")
        elif isinstance(item, dict):
            spec = item
        else:
            raise ValueError(f"a deck is a ready-made deck id, a deck code or "
                             f"{{\"avi\", \"resources\", \"it\"}}, not {item!r}")
        problems = validate_deck(cs, spec, rules)
        if problems:
            raise ValueError("illegal deck: " + "; ".join(p.message for p in problems))
        return normalise_deck(spec)

    @staticmethod
    def deck_rules(options: dict) -> dict | None:
        """The match's limited deck rules (option ``deck_rules``, :func:`rules.deck_rules.from_options`)
        checked, or None for constructed play; ValueError naming the problem."""
        return from_options(options, check_rules, "Battle Logic Square")

    def validate_options(self, options: dict | None, *, edition: int = EDITION) -> dict:
        """The normalised options (decks always filled in); ValueError for bad ones.
        ``edition``: whose ready-made decks the deck ids name."""
        cs = self.cardset_at(edition)
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise ValueError(f"Battle Logic Square options must be a dict, not {type(options).__name__}")
        schema = self.option_schema()
        out: dict[str, Any] = {}
        rules = self.deck_rules(options)      # limited play: every seat's deck is checked with them
        if rules is not None:
            out[DECK_RULES] = rules
        for name, value in options.items():
            if name == DECK_RULES:
                continue
            if name not in schema:
                raise ValueError(f"unknown Battle Logic Square option {name!r}; allowed options: "
                                 f"{', '.join(schema)}")
            if name == "first":
                if value is None or (isinstance(value, str) and value.strip().lower() in ("", "random")):
                    continue
                try:
                    seat = _int_option(name, value)
                except ValueError:
                    seat = -1
                if seat not in (0, 1):
                    raise ValueError("Battle Logic Square option 'first' must be 0 or 1 "
                                     f"(or absent for random), not {value!r}")
                out[name] = seat
            elif name == "max_turns":
                n = _int_option(name, value)
                if not 10 <= n <= 1000:
                    raise ValueError(f"Battle Logic Square option 'max_turns' must be between 10 and 1000, not {n}")
                out[name] = n
            elif name == "awakening":
                if isinstance(value, str) and value.strip().lower() in ("true", "on", "yes", "1"):
                    value = True
                elif isinstance(value, str) and value.strip().lower() in ("false", "off", "no", "0"):
                    value = False
                elif isinstance(value, int) and not isinstance(value, bool) and value in (0, 1):
                    value = bool(value)
                if not isinstance(value, bool):
                    raise ValueError(f"Battle Logic Square option 'awakening' must be true or false, not {value!r}")
                out[name] = value
            elif name == "decks":
                if value is None:
                    continue
                items = value
                if isinstance(value, str):
                    items = [v for v in re.split(r"[/+\s]+", value.strip()) if v]
                if not isinstance(items, (list, tuple)) or len(items) != 2:
                    example = "/".join(schema["decks"]["default"])
                    raise ValueError("Battle Logic Square option 'decks' must name 2 decks (seat 0, seat 1), "
                                     f"e.g. {example}")
                specs = []
                ready = list(cs.decks)
                for seat, item in enumerate(items):
                    if item is None and ready:                  # no choice: the seat's default deck
                        item = ready[seat % len(ready)]
                    try:
                        specs.append(self.deck_spec(item, edition=edition, rules=rules))
                    except ValueError as exc:
                        raise ValueError(f"Battle Logic Square option 'decks': seat {seat}'s deck: {exc}") from None
                out[name] = specs
        if "decks" not in out:
            ids = list(cs.decks)
            if len(ids) < 2:
                raise ValueError("Battle Logic Square needs 'decks': the card set has fewer than 2 ready-made decks")
            try:
                out["decks"] = [self.deck_spec(did, edition=edition, rules=rules) for did in ids[:2]]
            except ValueError as exc:           # limited rules the ready-made decks do not fit
                raise ValueError(f"Battle Logic Square option 'decks': {exc}") from None
        return out

    def rematch_options(self, options: dict | None, outcome: dict | None) -> dict:
        """Ruling (5.④ "適当な方法で先攻プレイヤーを決める"): in a rematch the loser moves first;
        after a draw the first player is random again.  Decks stay with their seats."""
        return loser_first(options, outcome)

    # ----------------------------------------------------------------- setup
    def new_match(self, players: int = 2, seed: int = 0, options: dict | None = None, *,
                  prng: int = _prng.CURRENT, edition: int = EDITION) -> LSState:
        """``edition``: the rules edition (:data:`EDITIONS`); a stored match replays under its own."""
        if edition not in EDITIONS or isinstance(edition, bool):
            raise ValueError(f"unknown Battle Logic Square rules edition {edition!r} (known: {EDITIONS})")
        if players != 2:
            raise ValueError(f"Battle Logic Square is for exactly 2 players, not {players!r}")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"seed must be an integer, not {seed!r}")
        opts = self.validate_options(options, edition=edition)
        decks = opts["decks"]
        used = {d["avi"] for d in decks} | {c for d in decks for c in d["resources"] + d["it"]}
        cards = self.cardset_at(edition).subset(used)      # a match keeps its edition's numbers
        rng = rng_seed(seed) if _prng.check(prng) == _prng.LEGACY else _prng.start(seed)
        if "first" in opts:
            first = opts["first"]
        else:
            rng, out = rng_next(rng)
            first = out % 2
        st = LSState(
            seed=seed, rng=rng, cards=cards, first=first,
            max_turns=opts.get("max_turns", DEFAULT_MAX_TURNS), awakening=opts.get("awakening", True),
            turn=1, player=first, phase="main", ap=0, caa_used=False,
            avi=(decks[0]["avi"], decks[1]["avi"]), pos=START, life=(LIFE_START, LIFE_START),
            hand=((), ()), deck=(tuple(decks[0]["resources"]), tuple(decks[1]["resources"])),
            trash=((), ()), it_left=(tuple(decks[0]["it"]), tuple(decks[1]["it"])), it_used=((), ()),
            placed=(), shield=(0, 0), ap_bank=(0, 0), chain=(), window=None, last=None, result=None,
            edition=edition)
        m = Match(st)
        for s in (0, 1):                        # 5.② shuffle; 5.⑤ draw 5 each
            m.shuffle(m.deck[s])
        for s in (0, 1):
            m.draw(s, HAND_TARGET)
        m.last = {"seat": None, "kind": "start", "command": None, "events": []}
        m.begin_turn()                          # 5.⑦ the first player's turn starts
        return m.freeze()

    def position(self, *, player: int = 0, turn: int = 3, ap: int = 3, hands: dict | None = None,
                 decks: dict | None = None, it: dict | None = None, avis: tuple[str, str] | None = None,
                 pos: tuple[str, str] = ("c1", "c5"), life: tuple[int, int] = (LIFE_START, LIFE_START),
                 placed: list | None = None, trash: dict | None = None, caa_used: bool = False,
                 awakening: bool = True, max_turns: int = DEFAULT_MAX_TURNS, seed: int = 0,
                 first: int | None = None, edition: int = EDITION) -> LSState:
        """A main-phase state built from a position (for tests, docs and puzzles).

        ``hands``/``decks``/``it``/``trash``: seat -> list of card ids (deck: top first);
        ``placed``: ``[(square, owner, card id, durability), ...]``.  The state's card set holds
        exactly the cards mentioned.
        """
        hands, decks, it, trash = hands or {}, decks or {}, it or {}, trash or {}
        cs = self.cardset_at(edition)
        ids_avi = avis or tuple(cs.decks[d].avi for d in list(cs.decks)[:2])
        placed = [(SQ_INDEX[sq], o, c, d) for sq, o, c, d in (placed or [])]
        used = set(ids_avi) | {p[2] for p in placed}
        for table in (hands, decks, it, trash):
            for seat in (0, 1):
                used.update(table.get(seat, []))
        cards = cs.subset(used)
        st = LSState(
            seed=seed, rng=rng_seed(seed), cards=cards, first=player if first is None else first,
            max_turns=max_turns, awakening=awakening, turn=turn, player=player, phase="main", ap=ap,
            caa_used=caa_used, avi=tuple(ids_avi), pos=(SQ_INDEX[pos[0]], SQ_INDEX[pos[1]]),
            life=tuple(life), hand=tuple(tuple(hands.get(s, [])) for s in (0, 1)),
            deck=tuple(tuple(decks.get(s, [])) for s in (0, 1)),
            trash=tuple(tuple(trash.get(s, [])) for s in (0, 1)),
            it_left=tuple(tuple(it.get(s, [])) for s in (0, 1)), it_used=((), ()),
            placed=tuple(sorted(placed)), shield=(0, 0), ap_bank=(0, 0), chain=(), window=None,
            last=None, result=None, edition=_edition(edition))
        return st

    # ----------------------------------------------------------------- queries
    def to_act(self, state: LSState) -> list[int]:
        if state.result is not None:
            return []
        if state.window is not None:
            return [state.window]
        return [state.player]

    def public_to_act(self, state: LSState) -> list[int]:
        """Whose decision everyone may know is awaited: the turn player, also while a chain
        response window (a secret decision of the other seat) is open."""
        return [] if state.result is not None else [state.player]

    def hidden_pending(self, state: LSState) -> bool:
        """True while a chain response window is open, whoever answers it — also when the turn
        player answers the opponent's response (``public_to_act`` then names that same seat)."""
        return state.result is None and state.window is not None

    def outcome(self, state: LSState) -> dict | None:
        if state.result is None:
            return None
        return {"winners": list(state.result["winners"]), "reason": state.result["reason"]}

    def outcome_detail(self, state: LSState) -> dict | None:
        """What the result line names beyond the reason: both lives when the higher life decided
        (the turn limit, both decks out) — ``win`` with the winner's and the loser's, or ``draw``."""
        if state.result is None or state.result["reason"] not in ("turn_limit", "decks_out"):
            return None
        winners = list(state.result["winners"])
        life = list(state.life)
        if not winners:
            return {"form": "draw", "winner": life[0], "loser": life[1]}
        return {"form": "win", "winner": life[winners[0]], "loser": life[1 - winners[0]]}

    def timeout_command(self, state: LSState, seat: int) -> str | None:
        """The host's default when ``seat``'s clock runs out: ``pass`` in a chain window, the
        most recently drawn card in the end-phase discard; None in the main phase."""
        if state.result is not None or seat not in self.to_act(state):
            return None
        if state.window == seat:
            return "pass"
        if state.phase == "discard":
            return f"discard {state.hand[seat][-1]}"
        return None

    def legal_commands(self, state: LSState, seat: int) -> list[str]:
        if isinstance(seat, bool) or seat not in self.to_act(state):
            return []
        return list(self._legal(state))

    def batches(self, state: LSState, seat: int) -> list[dict]:
        """Moves picked together (docs/engine.md ``batches``): the end-phase discards, "until 5
        remain" — exactly as many as that, each one a legal ``discard`` in turn; and the cards
        of a CAA, "trash up to 3 cards" — joined into one ``caa`` command."""
        if isinstance(seat, bool) or seat not in self.to_act(state) or state.window is not None:
            return []
        hand = sorted(state.hand[seat])
        if state.phase == "discard":
            n = len(hand) - HAND_TARGET
            return [{"kind": "trash", "commands": [f"discard {c}" for c in hand], "min": n, "max": n}]
        if not state.caa_used and hand:
            return [{"kind": "caa", "commands": [f"caa {c}" for c in hand], "min": 1, "max": CAA_MAX,
                     "join": "caa"}]
        return []

    def _legal(self, state: LSState) -> tuple[str, ...]:
        m = Match(state)
        if state.window is not None:
            out = []
            for cid, t in m.responses(state.window):
                out.append(f"chain {cid}" + ("" if t is None else f" {SQUARES[t]}"))
            out.append("pass")
            return tuple(out)
        p = state.player
        hand = state.hand[p]
        if state.phase == "discard":
            return tuple(f"discard {c}" for c in sorted(set(hand)))
        cards = state.cards
        out = []
        if state.ap >= 1:
            for n in NEIGHBOURS[state.pos[p]]:
                if m.free(n) and avi_may_stand(p, n):
                    out.append(f"move {SQUARES[n]}")
            for cid in sorted(set(hand)):
                card = cards[cid]
                if card.category in ("Ac", "Sc"):
                    for t in m.choices(p, card.action):
                        out.append(f"use {cid}" + ("" if t is None else f" {SQUARES[t]}"))
            for cid in sorted(set(state.it_left[p])):
                card = cards[cid]
                targets = m.choices(p, card.action)
                if not targets:
                    continue
                pays = build_payments(cards, card, hand)
                for t in targets:
                    head = f"it {cid}" + ("" if t is None else f" {SQUARES[t]}")
                    for pay in pays:
                        out.append(" ".join((head,) + pay))
        avi = cards[state.avi[p]]
        for i, ab in enumerate(avi.abilities):
            if state.ap >= m.ability_cost(p, i):
                for t in m.choices(p, ab.action):
                    out.append(f"avi {i + 1}" + ("" if t is None else f" {SQUARES[t]}"))
        if not state.caa_used and hand:
            counts = Counter(hand)
            for k in range(1, CAA_MAX + 1):
                for combo in multisets(counts, k):
                    out.append("caa " + " ".join(combo))
        out.append("end")
        return tuple(out)

    # ----------------------------------------------------------------- errors
    def _hint(self, state: LSState, verb: str | None = None, limit: int = 5) -> str:
        legal = self._legal(state) if state.result is None else ()
        if verb:
            pref = [c for c in legal if c.split()[0] == verb]
            legal = tuple(pref) + tuple(c for c in legal if c.split()[0] != verb)
        shown = ", ".join(legal[:limit])
        if len(legal) > limit:
            shown += f", … (+{len(legal) - limit})"
        return shown

    def _fail(self, key: str, state: LSState | None = None, prefer: str | None = None,
              **params: Any) -> IllegalCommand:
        if state is not None and "{legal}" in EN[key]:
            params["legal"] = self._hint(state, prefer)
        english = {k: (v["en"] if isinstance(v, dict) and "en" in v else v) for k, v in params.items()}
        return IllegalCommand(en_text(EN, key, english), key=key, **params)

    # ----------------------------------------------------------------- parsing
    def _parse(self, state: LSState, command: Any) -> tuple[str, list[str]]:
        """Command text -> (verb, canonical args).  Syntax only (plus known ids), no rule checks."""
        if not isinstance(command, str):
            raise self._fail("logic_square.err.syntax", state, command=str(command), usage=USAGE[None])
        tokens = command.lower().replace("+", " ").replace(",", " ").split()
        if not tokens:
            raise self._fail("logic_square.err.empty", state)
        head = tokens[0]
        if head in VERBS:
            verb, args = head, tokens[1:]
        elif _SQUARE_RE.match(head) and len(tokens) == 1:
            verb, args = "move", tokens                       # a bare square = move there
        else:
            if re.fullmatch(r"[a-z]+", head):
                raise self._fail("logic_square.err.unknown_verb", state, verb=head)
            raise self._fail("logic_square.err.syntax", state, command=" ".join(tokens), usage=USAGE[None])

        def syntax() -> IllegalCommand:
            return self._fail("logic_square.err.syntax", state, verb, command=" ".join(tokens),
                              usage=USAGE[verb])

        def square(tok: str) -> str:
            if not _SQUARE_RE.match(tok):
                raise self._fail("logic_square.err.unknown_square", state, verb, token=tok)
            return tok

        def card(tok: str) -> str:
            if tok not in state.cards:
                if _SQUARE_RE.match(tok) or re.fullmatch(r"\d+", tok):
                    raise syntax()
                raise self._fail("logic_square.err.unknown_card", state, verb, token=tok)
            return tok

        if verb in ("end", "pass"):
            if args:
                raise syntax()
            return verb, []
        if verb == "move":
            if len(args) != 1:
                raise syntax()
            return verb, [square(args[0])]
        if verb in ("use", "chain"):
            if not 1 <= len(args) <= 2:
                raise syntax()
            out = [card(args[0])]
            if len(args) == 2:
                out.append(square(args[1]))
            return verb, out
        if verb == "discard":
            if len(args) != 1:
                raise syntax()
            return verb, [card(args[0])]
        if verb == "avi":
            if not 1 <= len(args) <= 2 or not re.fullmatch(r"\d{1,2}", args[0]):
                raise syntax()
            out = [str(int(args[0]))]
            if len(args) == 2:
                out.append(square(args[1]))
            return verb, out
        if verb == "caa":
            if not 1 <= len(args) <= CAA_MAX:
                raise self._fail("logic_square.err.caa_count", state, verb, count=len(args))
            return verb, sorted(card(a) for a in args)
        # it <card> [<square>] [<pay> ...]
        if not args:
            raise syntax()
        out = [card(args[0])]
        rest = args[1:]
        if rest and _SQUARE_RE.match(rest[0]):
            out.append(rest[0])
            rest = rest[1:]
        return verb, out + sorted(card(a) for a in rest)

    # ----------------------------------------------------------------- apply
    def apply(self, state: LSState, seat: int, command: str) -> LSState:
        if state.result is not None:
            raise self._fail("logic_square.err.game_over")
        if isinstance(seat, bool) or seat not in self.to_act(state):
            if seat in self.public_to_act(state):
                raise self._fail("logic_square.err.resolving")
            raise self._fail("logic_square.err.not_your_turn",
                              waiting=self.public_to_act(state)[0] + 1)   # 1-based
        verb, args = self._parse(state, command)
        canonical = " ".join([verb, *args])
        if state.window == seat:
            if verb not in ("chain", "pass"):
                raise self._fail("logic_square.err.must_respond", state, "chain")
            return self._respond(state, seat, verb, args)
        if verb in ("chain", "pass"):
            raise self._fail("logic_square.err.no_window", state)
        if state.phase == "discard":
            if verb != "discard":
                raise self._fail("logic_square.err.must_discard", state, "discard",
                                 count=len(state.hand[seat]))
            return self._discard(state, seat, args[0], canonical)
        if verb == "discard":
            raise self._fail("logic_square.err.no_discard", state)
        return getattr(self, "_do_" + verb)(state, seat, args, canonical)

    def _start(self, state: LSState, seat: int, kind: str, canonical: str, **extra: Any) -> Match:
        m = Match(state)
        m.last = {"seat": seat, "kind": kind, "command": canonical, **extra, "events": []}
        return m

    def _need_ap(self, state: LSState, verb: str, cost: int) -> None:
        if state.ap < cost:
            raise self._fail("logic_square.err.no_ap", state, verb, cost=cost, ap=state.ap)

    def _check_target(self, state: LSState, m: Match, seat: int, verb: str, cid: str, act,
                      sq: str | None) -> int | None:
        choices = m.choices(seat, act)
        if act.target in ("enemy", "none"):
            if sq is not None:
                raise self._fail("logic_square.err.square_not_allowed", state, verb, card=cid)
            if not choices:
                raise self._fail("logic_square.err.no_target", state, verb, card=cid)
            return None
        if not choices:
            raise self._fail("logic_square.err.no_square", state, verb, card=cid)
        if sq is None:
            raise self._fail("logic_square.err.square_needed", state, verb, card=cid,
                             example=f"{verb} {cid} {SQUARES[choices[0]]}" if verb != "avi" else SQUARES[choices[0]])
        if SQ_INDEX[sq] not in choices:
            raise self._fail("logic_square.err.bad_square", state, verb, card=cid, square=sq)
        return SQ_INDEX[sq]

    def _do_move(self, state: LSState, seat: int, args: list[str], canonical: str) -> LSState:
        sq = args[0]
        t = SQ_INDEX[sq]
        origin = state.pos[seat]
        self._need_ap(state, "move", 1)
        if t not in NEIGHBOURS[origin]:
            raise self._fail("logic_square.err.move_not_adjacent", state, "move", square=sq,
                             origin=SQUARES[origin])
        m = Match(state)
        if not m.free(t):
            raise self._fail("logic_square.err.move_occupied", state, "move", square=sq)
        if not avi_may_stand(seat, t):
            raise self._fail("logic_square.err.move_opponent_area", state, "move", square=sq)
        m = self._start(state, seat, "move", canonical, **{"from": SQUARES[origin]}, to=sq)
        m.ap -= 1
        m.pos[seat] = t
        m.settle()
        return m.freeze()

    def _hand_card(self, state: LSState, seat: int, verb: str, cid: str) -> None:
        if cid not in state.hand[seat]:
            raise self._fail("logic_square.err.not_in_hand", state, verb, card=cid)

    def _do_use(self, state: LSState, seat: int, args: list[str], canonical: str) -> LSState:
        cid = args[0]
        sq = args[1] if len(args) > 1 else None
        self._hand_card(state, seat, "use", cid)
        card = state.cards[cid]
        if card.category == "Br":
            raise self._fail("logic_square.err.br_chain_only", state, "use", card=cid)
        if card.category not in ("Ac", "Sc"):
            raise self._fail("logic_square.err.not_hand_card", state, "use", card=cid)
        self._need_ap(state, "use", 1)
        m = Match(state)
        t = self._check_target(state, m, seat, "use", cid, card.action, sq)
        m = self._start(state, seat, "use", canonical, card=cid, target=sq, chain=[], resolved=None)
        m.ap -= 1
        m.hand[seat].remove(cid)
        m.declare(seat, "hand", cid, t)
        return m.freeze()

    def _do_it(self, state: LSState, seat: int, args: list[str], canonical: str) -> LSState:
        cid = args[0]
        rest = args[1:]
        sq = rest[0] if rest and _SQUARE_RE.match(rest[0]) else None
        pay = tuple(rest[1:] if sq is not None else rest)
        if cid not in state.it_left[seat]:
            raise self._fail("logic_square.err.it_unknown", state, "it", card=cid)
        card = state.cards[cid]
        self._need_ap(state, "it", 1)
        m = Match(state)
        t = self._check_target(state, m, seat, "it", cid, card.action, sq)
        have = Counter(state.hand[seat])
        want = Counter(pay)
        if any(want[c] > have[c] for c in want):
            missing = sorted(c for c in want if want[c] > have[c])
            raise self._fail("logic_square.err.cards_not_in_hand", state, "it", cards=" ".join(missing))
        if not pays_build(state.cards, card, pay):
            raise self._fail("logic_square.err.build", state, "it", card=cid, need=build_text(card, self.cardset.types))
        m = self._start(state, seat, "it", canonical, card=cid, target=sq, paid=list(pay), chain=[],
                        resolved=None)
        m.ap -= 1
        m.it_left[seat].remove(cid)
        for c in pay:                                    # "不足なくトラッシュに置く"
            m.hand[seat].remove(c)
            m.trash[seat].append(c)
        m.declare(seat, "it", cid, t, pay)
        return m.freeze()

    def _do_avi(self, state: LSState, seat: int, args: list[str], canonical: str) -> LSState:
        avi = state.cards[state.avi[seat]]
        n = int(args[0])
        sq = args[1] if len(args) > 1 else None
        if not 1 <= n <= len(avi.abilities):
            raise self._fail("logic_square.err.avi_ability", state, "avi", number=args[0],
                             count=len(avi.abilities))
        m = Match(state)
        cost = m.ability_cost(seat, n - 1)
        self._need_ap(state, "avi", cost)
        act = avi.abilities[n - 1].action
        t = self._check_target(state, m, seat, "avi", avi.id, act, sq)
        squares = project(seat, state.pos[seat], act.range)
        m = self._start(state, seat, "avi", canonical, card=avi.id, ability=n, target=sq,
                        range=[SQUARES[i] for i in squares], cost=cost)
        m.ap -= cost
        m.resolve(seat, act, -1 if t is None else t, avi.id)
        m.check_ko()
        m.settle()
        return m.freeze()

    def _do_caa(self, state: LSState, seat: int, args: list[str], canonical: str) -> LSState:
        if state.caa_used:
            raise self._fail("logic_square.err.caa_used", state)
        have = Counter(state.hand[seat])
        want = Counter(args)
        if any(want[c] > have[c] for c in want):
            missing = sorted(c for c in want if want[c] > have[c])
            raise self._fail("logic_square.err.cards_not_in_hand", state, "caa", cards=" ".join(missing))
        m = self._start(state, seat, "caa", canonical, cards=list(args))
        for c in args:
            m.hand[seat].remove(c)
            m.trash[seat].append(c)
        m.caa_used = True
        m.event(type="draw", seat=seat, count=m.draw(seat, 2 * len(args)))
        m.settle()
        return m.freeze()

    def _do_end(self, state: LSState, seat: int, args: list[str], canonical: str) -> LSState:
        m = self._start(state, seat, "end", canonical)
        m.ap = 0                                          # remaining AP is lost
        m.end_main()
        return m.freeze()

    def _discard(self, state: LSState, seat: int, cid: str, canonical: str) -> LSState:
        self._hand_card(state, seat, "discard", cid)
        m = self._start(state, seat, "discard", canonical, card=cid)
        m.hand[seat].remove(cid)
        m.trash[seat].append(cid)
        if len(m.hand[seat]) <= HAND_TARGET:
            m.end_turn()
        return m.freeze()

    def _respond(self, state: LSState, seat: int, verb: str, args: list[str]) -> LSState:
        m = Match(state)                                  # keeps the chain's `last` record
        if verb == "pass":
            m.resolve_chain()
            return m.freeze()
        cid = args[0]
        sq = args[1] if len(args) > 1 else None
        self._hand_card(state, seat, "chain", cid)
        if not m.may_answer(seat, cid):
            raise self._fail("logic_square.err.not_a_response", state, "chain", card=cid)
        t = self._check_target(state, m, seat, "chain", cid, state.cards[cid].action, sq)
        m.hand[seat].remove(cid)
        m.declare(seat, "hand", cid, t)                   # no AP: "APの消費をしないで"
        return m.freeze()

    # ----------------------------------------------------------------- public command
    def public_command(self, state_before: LSState, seat: int, command: str) -> str | None:
        """The command as everyone may see it.  A ``pass`` in a chain window is hidden (None):
        it must look exactly like no window at all.  Everything else is public (used cards are
        revealed, the trash is face up)."""
        try:
            verb, args = self._parse(state_before, command)
        except IllegalCommand:
            return " ".join(str(command).split())
        if verb == "pass" and state_before.window == seat:
            return None
        return " ".join([verb, *args])

    def final(self, state_before: LSState, seat: int, command: str, state_after: LSState) -> bool:
        """docs/engine.md ``final``: not undoable alone (rules/logic_square/finality.py)."""
        return finality.final(self, state_before, seat, command, state_after)

    def reveals(self, state_before: LSState, seat: int, command: str, state_after: LSState) -> bool:
        """docs/engine.md ``reveals``: drew, used randomness or touched a chain window."""
        return finality.reveals(state_before, seat, command, state_after)

    # ----------------------------------------------------------------- view
    def card_view(self, cards: CardSet, cid: str) -> dict:
        """One card definition as views show it (a fresh dict)."""
        return cards.view(cid)

    def view(self, state: LSState, seat: int | None) -> dict:
        """What ``seat`` may know (``None``: the public).  While a chain window is open, every seat
        but the deciding one sees the match as it was before the command that opened the chain
        (``state.base``): a window offered must look exactly like a command not yet made."""
        if state.window is not None and seat != state.window and state.base is not None:
            state = state.base
        cards = state.cards
        m = Match(state)
        mentioned: set[str] = set(state.avi)
        avis = []
        players = []
        for s in (0, 1):
            aw = cards[state.avi[s]].awakening
            avis.append({"seat": s, "card": state.avi[s], "square": SQUARES[state.pos[s]],
                         "life": state.life[s], "awakened": m.awakened(s),
                         "awakening_life": aw["life"] if aw else None})
            mentioned.update(state.trash[s], state.it_used[s])
            players.append({
                "seat": s, "avi": state.avi[s], "life": state.life[s],
                "ap": state.ap if (s == state.player and state.result is None) else 0,
                "ap_next": state.ap_bank[s], "shield": state.shield[s],
                "hand_count": len(state.hand[s]), "deck_count": len(state.deck[s]),
                "trash": list(state.trash[s]), "it_used": list(state.it_used[s]),
                "it_unused_count": len(state.it_left[s]),
                "caa_used": state.caa_used if s == state.player else False,
            })
        placed = []
        for sq, owner, cid, dur in state.placed:
            mentioned.add(cid)
            placed.append({"square": SQUARES[sq], "owner": owner, "card": cid, "durability": dur,
                           "max_durability": cards[cid].action.durability})
        chain = [decl_view(d) for d in state.chain]
        for d in state.chain:
            mentioned.add(d.card)
            mentioned.update(d.paid)
        last = copy_json(state.last) if state.last is not None else None
        if last is not None:
            for key in ("card", "placed"):
                if isinstance(last.get(key), str):
                    mentioned.add(last[key])
            mentioned.update(last.get("cards", []) or [])
            mentioned.update(last.get("paid", []) or [])
            for d in last.get("chain", []) or []:
                mentioned.add(d["card"])
                mentioned.update(d["paid"])
            for ev in last.get("events", []):
                for key in ("card", "placed"):
                    if isinstance(ev.get(key), str):
                        mentioned.add(ev[key])
                mentioned.update(ev.get("cards", []) or [])
        out: dict[str, Any] = {
            "game": GAME, "seat": seat, "turn": state.turn, "max_turns": state.max_turns,
            "first": state.first, "player": state.player, "phase": state.phase,
            "to_act": self.public_to_act(state), "awakening_rule": state.awakening,
            "board": {"avis": avis, "placed": placed},
            "players": players, "chain": chain, "last": last, "outcome": self.outcome(state),
        }
        out["edition"] = state.edition
        if seat in (0, 1):
            out["hand"] = list(state.hand[seat])
            out["it_unused"] = list(state.it_left[seat])
            mentioned.update(state.hand[seat], state.it_left[seat])
            out["pending"] = self._pending(state, seat)
        out["cards"] = cards.views(sorted(c for c in mentioned if c in cards))
        return out

    def determinize(self, view: dict, seat: int | None, rng: Any) -> LSState:
        """A full state consistent with ``view`` (docs/engine.md): see :mod:`rules.logic_square.determinize`."""
        from rules.logic_square.determinize import determinize

        return determinize(self, view, seat, rng)

    def _pending(self, state: LSState, seat: int) -> dict | None:
        if state.result is not None:
            return None
        if state.window == seat:
            d = state.chain[-1]
            return {"kind": "chain", "answering": decl_view(d),
                    "responses": [c for c in self._legal(state) if c != "pass"]}
        if state.window is None and not state.chain and state.player == seat:
            if state.phase == "discard":
                return {"kind": "discard", "count": len(state.hand[seat]) - HAND_TARGET}
            return {"kind": "main", "ap": state.ap, "caa_used": state.caa_used}
        return None

    # ----------------------------------------------------------------- persistence
    def dump(self, state: LSState) -> str:
        data = _state_json(state)
        data.update(game=GAME, version=1, cards=state.cards.to_json(),
                    base=None if state.base is None else _state_json(state.base))
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)

    def load(self, text: str) -> LSState:
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("game") != GAME or data.get("version") != 1:
            raise ValueError("not a Battle Logic Square state (version 1)")
        cards = _cardset_from_text(json.dumps(data["cards"], sort_keys=True, ensure_ascii=False))
        base = data.get("base")
        return _state_from_json(data, cards, None if base is None else _state_from_json(base, cards, None))


__all__ = ["LogicSquareGame", "GAME", "DEFAULT_MAX_TURNS"]
