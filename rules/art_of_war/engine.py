"""Art of War: the rules engine behind the contract (``docs/engine.md``; rules: ``docs/rules/art_of_war.md``).

>>> from rules import registry
>>> game = registry.get("art_of_war")
>>> state = game.new_match(players=2, seed=3, options={"first": 0})
>>> game.to_act(state), game.legal_commands(state, 0)
([0], ['keep', 'mulligan'])
>>> state = game.apply(game.apply(state, 0, "keep"), 1, "keep")
>>> game.legal_commands(state, 0)[0].startswith("setup ")
True

Squares are absolute, like chess: files a–c as seen by seat 0, ranks 1–4.  Rank 1 is seat 0's
back row, rank 2 its front row, rank 3 seat 1's front row, rank 4 seat 1's back row.  Card
tokens: ``k`` (the seat's KING), ``s`` SOLDIER, ``a`` ARCHER, ``p`` PRIEST, ``g`` GUARDIAN,
``w`` WIZARD.  A field cell is ``None`` or ``(owner, code, sideways 0/1, damage this turn)``.
"""
from __future__ import annotations

from rules.common import loser_first
import json
import re
from typing import Any

from rules.contract import IllegalCommand, Ref, en_text
from rules import prng as _prng
from rules.deck_rules import OPTION as DECK_RULES, from_options
from rules.art_of_war.cards import (CODES, ID_OF, CardSet, Decks, check_rules, decode_deck,
                                    normalise_deck, validate_deck)
from rules.art_of_war.messages import EN
from rules.art_of_war import finality as _finality
from rules.art_of_war.board import (  # noqa: F401 - re-exported
    GAME, FILES, SQUARES, SQ_INDEX, FRONT_ROW, BACK_ROW, FORWARD, OWN, ENEMY, CARD_ORDER,
    KINGDOM_ORDER, WAITING_MAX, HAND_START, M64, OWN_TURN_EFFECTS, CARD_WORDS, VERBS, USAGE,
    front_of, reach, _rng_next, _tables, _stat, _TAB_CACHE, tables_for, EDITIONS, EDITION,
    _edition, AowState, _int_option)
from rules.art_of_war.mechanics import (  # noqa: F401 - re-exported
    _shuffle, _draw, _distinct, _placeable, _move_targets, _targets, _can_respond, _answers,
    _may_answer, _legal, _ev, _execute, _relocate, _forward, _resolve, _hit, _nation, _settle,
    _begin_turn, _end_turn)


class ArtOfWarGame:
    """Art of War behind the engine contract."""

    name = GAME
    min_players = 2
    max_players = 2
    editions = EDITIONS          # rules editions, oldest first; new matches use the last

    def __init__(self, cardset: CardSet) -> None:
        self.files_cardset = cardset                 # the files' cards, with every edition's patches
        self.cardset = cardset.at(EDITION)           # the cards of the current edition
        self.decks = Decks(self.cardset)

    def cardset_at(self, edition: int) -> CardSet:
        """The cards and ready-made decks of rules ``edition`` (a match keeps its edition's)."""
        return self.files_cardset.at(_edition(edition))

    # ------------------------------------------------------------------ options
    def option_schema(self) -> dict[str, dict[str, Any]]:
        ids = list(self.cardset.decks)
        return {"first": {"default": None, "choices": [None, 0, 1]},
                "decks": {"default": ids[:2], "choices": ids}}

    def deck_spec(self, item: Any, *, edition: int = EDITION, rules: dict | None = None) -> dict:
        """A ready-made deck id, a deck code or a spec -> a legal spec; ValueError listing every
        broken deck rule.  ``edition``: whose ready-made decks a deck id names; ``rules``:
        limited deck rules (:mod:`rules.deck_rules`), else constructed."""
        cs = self.cardset_at(edition)
        if isinstance(item, str):
            text = item.strip()
            if text.lower() in cs.decks and rules is None:
                return json.loads(json.dumps(cs.decks[text.lower()]["spec"]))
            if text.lower() in cs.decks:                # limited play: it must fit the rules too
                spec = json.loads(json.dumps(cs.decks[text.lower()]["spec"]))
            elif text.lower().startswith("aow1-"):
                spec = decode_deck(text, cs)
            else:
                raise ValueError(f"unknown deck {text!r}; ready-made decks: {', '.join(cs.decks)} "
                                 "(or a deck code aow1-…)")
        elif isinstance(item, dict):
            spec = item
        else:
            raise ValueError(f"a deck is a ready-made deck id, a deck code or a spec, not {item!r}")
        problems = validate_deck(cs, spec, rules)
        if problems:
            raise ValueError("illegal deck: " + "; ".join(p["text"] for p in problems))
        return normalise_deck(spec)

    @staticmethod
    def deck_rules(options: dict) -> dict | None:
        """The match's limited deck rules (option ``deck_rules``, :func:`rules.deck_rules.from_options`)
        checked, or None for constructed play; ValueError naming the problem."""
        return from_options(options, check_rules, "Art of War")

    def validate_options(self, options: dict | None, *, edition: int = EDITION) -> dict:
        """Checked options; ``edition``: whose ready-made decks the deck ids name."""
        cs = self.cardset_at(edition)
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise ValueError(f"Art of War options must be a dict, not {type(options).__name__}")
        out: dict[str, Any] = {}
        rules = self.deck_rules(options)      # limited play: every seat's deck is checked with them
        if rules is not None:
            out[DECK_RULES] = rules
        for name, value in options.items():
            if name == DECK_RULES:
                continue
            if name == "first":
                if value is None or (isinstance(value, str) and value.strip().lower() in ("", "random")):
                    continue
                try:
                    seat = _int_option(name, value)
                except ValueError:
                    seat = -1
                if seat not in (0, 1):
                    raise ValueError(f"Art of War option 'first' must be 0 or 1 (or absent for random), not {value!r}")
                out[name] = seat
            elif name == "decks":
                if value is None:
                    continue
                items = value
                if isinstance(value, str):
                    items = [v for v in re.split(r"[/+\s]+", value.strip()) if v]
                if not isinstance(items, (list, tuple)) or len(items) != 2:
                    raise ValueError("Art of War option 'decks' must name 2 decks (seat 0, seat 1), e.g. "
                                     + "/".join(list(cs.decks)[:2]))
                ids = list(cs.decks)
                specs = []
                for seat, item in enumerate(items):
                    if item is None:
                        item = ids[seat % len(ids)]
                    try:
                        specs.append(self.deck_spec(item, edition=edition, rules=rules))
                    except ValueError as exc:
                        raise ValueError(f"Art of War option 'decks': seat {seat}'s deck: {exc}") from None
                out[name] = specs
            else:
                raise ValueError(f"unknown Art of War option {name!r}; allowed options: first, decks")
        if "decks" not in out:
            ids = list(cs.decks)
            try:
                out["decks"] = [self.deck_spec(ids[0], edition=edition, rules=rules),
                                self.deck_spec(ids[1 % len(ids)], edition=edition, rules=rules)]
            except ValueError as exc:       # limited rules the ready-made decks do not fit
                raise ValueError(f"Art of War option 'decks': {exc}") from None
        return out

    def rematch_options(self, options: dict | None, outcome: dict | None) -> dict:
        """**Ruling** (set-up ③ 適当な方法で先攻後攻を決める): in a rematch the loser goes first;
        after a draw the first player is random again.  Decks stay with their seats."""
        return loser_first(options, outcome)

    # ------------------------------------------------------------------ set-up
    def new_match(self, players: int = 2, seed: int = 0, options: dict | None = None, *,
                  prng: int = _prng.CURRENT, edition: int = EDITION) -> AowState:
        """``edition``: the rules edition (:data:`EDITIONS`); a stored match replays under its own."""
        edition = _edition(edition)
        if players != 2:
            raise ValueError(f"Art of War is for exactly 2 players, not {players!r}")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"seed must be an integer, not {seed!r}")
        opts = self.validate_options(options, edition=edition)
        decks = opts["decks"]
        cs = self.cardset_at(edition)                  # a match keeps its edition's numbers
        cards = {"units": {c: cs.units[ID_OF[c]] for c in CODES},
                 "kings": [cs.kings[d["king"]] for d in decks]}
        cards = json.loads(json.dumps(cards))          # the match owns its copy of the card texts
        s = AowState.__new__(AowState)
        legacy = _prng.check(prng) == _prng.LEGACY
        s.seed, s.rng, s.cards = seed, seed & M64 if legacy else _prng.start(seed), cards
        s.tab = tables_for(cards)
        if "first" in opts:
            s.first = opts["first"]
        else:
            s.rng, out = _rng_next(s.rng)
            s.first = out % 2
        s.turn, s.player, s.phase, s.actor = 0, s.first, "mulligan", s.first
        s.hands, s.decks, s.waiting, s.grave = [[], []], [[], []], [[], []], [[], []]
        s.kingdom = [[0] * 5, [0] * 5]
        s.field = [None] * 12
        s.mode, s.immigrated, s.boost = "", False, 0
        s.chain, s.window, s.base, s.mull, s.draft = [], None, None, [False, False], 0
        s.last, s.result, s._legal, s.edition = None, None, None, edition
        for seat in (0, 1):                      # ② shuffle the 20 basic units; ④ draw 3
            s.decks[seat] = [c for c in CODES for _ in range(decks[seat]["units"].get(ID_OF[c], 0))]
            _shuffle(s, s.decks[seat])
            _draw(s, seat, HAND_START)
        return s

    def position(self, *, player: int = 0, hands: dict | None = None, decks: dict | None = None,
                 waiting: dict | None = None, kingdom: dict | None = None, grave: dict | None = None,
                 field: dict | None = None, kings: tuple[str, str] | None = None, turn: int = 5,
                 mode: str = "", immigrated: bool = False, boost: int = 0, seed: int = 0,
                 edition: int = EDITION) -> AowState:
        """A state in the middle of ``player``'s turn (after recovery and draw), for tests and docs.

        ``hands``/``decks``/``waiting``/``grave``: seat -> string of card tokens (deck: top last;
        waiting: front first), e.g. ``{0: "ssk"}``; ``kingdom``: seat -> string of tokens;
        ``field``: square -> ``"0s"`` (seat 0's SOLDIER, upright), ``"1g/"`` (sideways),
        ``"1w:1"`` (1 damage this turn), e.g. ``{"b2": "0s", "b3": "1g/"}``."""
        cs = self.cardset_at(edition)
        ids = list(cs.kings)
        kings = kings or (ids[0], ids[1 % len(ids)])
        cards = {"units": {c: cs.units[ID_OF[c]] for c in CODES},
                 "kings": [cs.kings[k] for k in kings]}
        cards = json.loads(json.dumps(cards))
        s = AowState.__new__(AowState)
        s.seed, s.rng, s.cards, s.tab, s.first = seed, seed & M64, cards, tables_for(cards), player
        s.turn, s.player, s.phase, s.actor = turn, player, "play", player
        get = lambda table, seat: list((table or {}).get(seat, ""))     # noqa: E731
        s.hands = [get(hands, 0), get(hands, 1)]
        s.decks = [get(decks, 0), get(decks, 1)]
        s.waiting = [get(waiting, 0), get(waiting, 1)]
        s.grave = [get(grave, 0), get(grave, 1)]
        s.kingdom = [[get(kingdom, seat).count(c) for c in CODES] for seat in (0, 1)]
        s.field = [None] * 12
        for sq, text in (field or {}).items():
            m = re.fullmatch(r"([01])([ksapgw])(/?)(?::(\d+))?", text)
            if not m or sq not in SQ_INDEX:
                raise ValueError(f"bad field entry {sq!r}: {text!r}")
            owner = int(m.group(1))
            if SQ_INDEX[sq] not in OWN[owner]:
                raise ValueError(f"{sq} is not on seat {owner}'s battlefield")
            s.field[SQ_INDEX[sq]] = (owner, m.group(2), 1 if m.group(3) else 0, int(m.group(4) or 0))
        _forward(s, 0)
        _forward(s, 1)
        s.mode, s.immigrated, s.boost = mode, immigrated, boost
        s.chain, s.window, s.base, s.mull, s.draft = [], None, None, [True, True], 0
        s.last, s.result, s._legal, s.edition = None, None, None, _edition(edition)
        return s

    # ------------------------------------------------------------------ queries
    def to_act(self, state: AowState) -> list[int]:
        if state.result is not None:
            return []
        if state.window is not None:
            return [state.window]
        return [state.actor]

    def public_to_act(self, state: AowState) -> list[int]:
        """While a hidden response window is open, everyone is shown the seat that declared."""
        if state.result is not None:
            return []
        if state.window is not None:
            return [state.player]
        return [state.actor]

    def hidden_pending(self, state: AowState) -> bool:
        """True while a private response window is open, whoever answers it — also when the
        turn player answers a response (``public_to_act`` then names the same seat, so the
        host cannot tell from ``to_act`` alone that public lines must still be held back)."""
        return state.result is None and state.window is not None

    def outcome(self, state: AowState) -> dict | None:
        if state.result is None:
            return None
        return {"winners": list(state.result["winners"]), "reason": state.result["reason"]}

    def outcome_detail(self, state: AowState) -> dict | None:
        """What the result line names beyond the reason: how the KING fell (``destroyed`` or
        ``captured``) in an execution."""
        if (state.result or {}).get("reason") != "execution":
            return None
        fell = [e for e in (state.last or {}).get("events") or []
                if isinstance(e, dict) and e.get("card") == "k" and e.get("kind") in ("capture", "destroy")]
        if not fell:
            return None
        return {"form": "captured" if fell[-1]["kind"] == "capture" else "destroyed"}

    def timeout_command(self, state: AowState, seat: int) -> str | None:
        """The host's default when ``seat``'s clock runs out: ``pass`` in a response window,
        ``keep`` at the mulligan, the first legal placement in set-up and conscription; None in
        a normal turn (the clock decides)."""
        if state.result is not None or seat not in self.to_act(state):
            return None
        if state.window == seat:
            return "pass"
        if state.phase == "mulligan":
            return "keep"
        if state.phase in ("setup", "draft"):
            return self._legal(state)[0]
        return None

    def legal_commands(self, state: AowState, seat: int) -> list[str]:
        if isinstance(seat, bool) or seat not in self.to_act(state):
            return []
        return list(self._legal(state))

    def _legal(self, state: AowState) -> tuple[str, ...]:
        if state._legal is None:
            state._legal = tuple(_legal(state)) if state.result is None else ()
        return state._legal

    # ------------------------------------------------------------------ errors
    def _hint(self, state: AowState, verb: str | None = None, limit: int = 6) -> str:
        legal = self._legal(state)
        if verb:
            pref = [c for c in legal if c.split()[0] == verb]
            legal = tuple(pref) + tuple(c for c in legal if c.split()[0] != verb)
        shown = ", ".join(legal[:limit])
        if len(legal) > limit:
            shown += f", … (+{len(legal) - limit})"
        return shown

    def _fail(self, key: str, state: AowState | None = None, prefer: str | None = None,
              **params: Any) -> IllegalCommand:
        if state is not None and "{legal}" in EN[key]:
            params["legal"] = self._hint(state, prefer)
        return IllegalCommand(en_text(EN, key, params), key=key, **params)

    # ------------------------------------------------------------------ parsing
    def _parse(self, state: AowState, command: Any) -> tuple[str, list[str]]:
        """Command text -> (verb, canonical args).  Syntax only."""
        if not isinstance(command, str):
            raise self._fail("art_of_war.err.syntax", state, command=str(command)[:40], usage=USAGE[None])
        tokens = command.lower().split()
        if not tokens:
            raise self._fail("art_of_war.err.empty", state)
        verb, args = tokens[0], tokens[1:]
        if verb not in VERBS:
            if re.fullmatch(r"[a-z]+", verb):
                raise self._fail("art_of_war.err.unknown_verb", state, verb=verb[:20])
            raise self._fail("art_of_war.err.syntax", state, command=" ".join(tokens)[:40], usage=USAGE[None])
        # each verb: a pattern of token kinds (C card, Q square, E effect card)
        shapes = {"keep": [""], "mulligan": [""], "pass": [""], "end": [""],
                  "setup": ["CQC"], "deploy": ["Q"], "exchange": ["Q"], "move": ["QQ"],
                  "play": ["CQ"], "swap": ["QC"], "attack": ["QQ"], "immigrate": ["C"],
                  "draft": ["Q", "CQ"],
                  "support": ["C", "CQ", "CQQ", "CC", "CCQ", "CCQQ"]}[verb]
        want = [sh for sh in shapes if len(sh) == len(args)]
        if not want:
            raise self._fail("art_of_war.err.syntax", state, verb, command=" ".join(tokens)[:40],
                             usage=USAGE[verb])
        last_err = None
        for shape in want:
            out = []
            try:
                for kind, tok in zip(shape, args):
                    if kind == "C":
                        code = CARD_WORDS.get(tok, tok)
                        if code not in CARD_ORDER:
                            raise self._fail("art_of_war.err.unknown_card", state, verb, token=tok[:20])
                        out.append(code)
                    else:
                        if tok not in SQ_INDEX:
                            raise self._fail("art_of_war.err.unknown_square", state, verb, token=tok[:20])
                        out.append(tok)
            except IllegalCommand as err:
                last_err = err
                continue
            return verb, out
        raise last_err  # type: ignore[misc]

    def public_command(self, state_before: AowState, seat: int, command: str) -> str | None:
        """The command as everyone may see it.  A ``pass`` in a response window is hidden
        (None): it must look like no window at all.  Everything else is public (rear supports
        are declared aloud and the waiting area is face up)."""
        try:
            verb, args = self._parse(state_before, command)
        except IllegalCommand:
            return " ".join(str(command).split())
        if verb == "pass" and state_before.window == seat:
            return None
        return " ".join([verb, *args])

    def reveals(self, state_before: AowState, seat: int, command: str, state_after: AowState) -> bool:
        return _finality.reveals(state_before, seat, command, state_after)   # rules/art_of_war/finality.py

    def final(self, state_before: AowState, seat: int, command: str, state_after: AowState) -> bool:
        return _finality.final(self, state_before, seat, command, state_after)

    # ------------------------------------------------------------------ apply
    def apply(self, state: AowState, seat: int, command: str) -> AowState:
        if state.result is not None:
            raise self._fail("art_of_war.err.game_over")
        waiting = self.to_act(state)
        if isinstance(seat, bool) or seat not in waiting:
            raise self._fail("art_of_war.err.not_your_turn", waiting=waiting[0] + 1)   # 1-based
        verb, args = self._parse(state, command)
        canonical = " ".join([verb, *args])
        if canonical not in self._legal(state):
            try:
                err = self._diagnose(state, seat, verb, args, canonical)
            except (IndexError, ValueError, KeyError):      # an odd shape: the generic message
                err = self._fail("art_of_war.err.not_legal", state, verb, command=canonical)
            raise err
        return _execute(state, seat, verb, args, canonical)

    def _diagnose(self, state: AowState, seat: int, verb: str, args: list[str], canonical: str) -> IllegalCommand:
        f = lambda key, **kw: self._fail(key, state, verb, **kw)     # noqa: E731
        hand = state.hands[seat]
        if state.window is not None:
            if verb != "support":
                return f("art_of_war.err.window")
        elif state.phase == "mulligan":
            return f("art_of_war.err.mulligan_phase")
        elif state.phase == "setup":
            if verb != "setup":
                return f("art_of_war.err.setup_phase")
        elif state.phase == "draft":
            if verb != "draft":
                return f("art_of_war.err.draft_phase")
        elif verb in ("keep", "mulligan", "setup", "draft"):
            return f("art_of_war.err.not_legal", command=canonical)
        elif verb == "pass":
            return f("art_of_war.err.nothing_to_pass")
        cards = [a for a in args if a in CARD_ORDER and len(a) == 1]
        squares = [a for a in args if a in SQ_INDEX]
        if verb in ("setup", "play", "swap", "immigrate", "support"):
            for c in (cards if verb == "setup" else cards[:1]):
                if c not in hand:
                    return f("art_of_war.err.not_in_hand", card=c)
        if verb == "setup" and cards[0] == cards[1] and hand.count(cards[0]) < 2:
            return f("art_of_war.err.setup_two", card=cards[0])
        if verb == "immigrate":
            if cards[0] == "k":
                return f("art_of_war.err.king_kingdom")
            if state.immigrated:
                return f("art_of_war.err.immigrated")
        if verb == "support":
            eff = cards[1] if cards[0] == "k" and len(cards) > 1 else cards[0]
            if cards[0] == "k" and len(cards) == 1:
                return f("art_of_war.err.king_effect")
            if len(state.waiting[seat]) >= WAITING_MAX:
                return f("art_of_war.err.waiting_full")
            if eff == "k":
                return f("art_of_war.err.king_effect")
            when = {"g": "art_of_war.when.guardian", "w": "art_of_war.when.wizard"}.get(eff, "art_of_war.when.own")
            if state.window is None and eff in ("g", "w"):
                return f("art_of_war.err.support_timing", card=eff, when=Ref(when))
            if state.window is not None:
                need = "g" if state.chain[-1][0] == "attack" else "w"
                if eff != need:
                    return f("art_of_war.err.support_timing", card=eff, when=Ref(when))
        if verb in ("deploy", "exchange", "move", "play", "swap"):
            if state.mode == "arrange":
                return f("art_of_war.err.arranged")
            if state.mode == "battle":
                return f("art_of_war.err.battle_started")
            if verb in ("play", "swap") and state.waiting[seat]:
                return f("art_of_war.err.waiting_not_empty")
            if verb in ("deploy", "exchange") and not state.waiting[seat]:
                return f("art_of_war.err.waiting_empty")
        if verb == "attack" and state.mode == "arrange":
            return f("art_of_war.err.arranged")
        if verb == "draft" and len(args) == 2 and args[0] in KINGDOM_ORDER \
                and state.kingdom[seat][KINGDOM_ORDER.index(args[0])] == 0:
            return f("art_of_war.err.no_kingdom_card", card=args[0])
        for sq in squares:
            if SQ_INDEX[sq] not in OWN[seat] and not (verb == "attack" and sq == squares[-1]) \
                    and not (verb == "support" and cards and (cards[-1] == "a")):
                return f("art_of_war.err.not_own_square", square=sq)
        if verb in ("exchange", "move", "swap", "attack") or (verb == "support" and cards[-1] == "p"):
            sq = squares[0]
            cell = state.field[SQ_INDEX[sq]]
            if cell is None or cell[0] != seat:
                return f("art_of_war.err.no_unit", square=sq)
            if verb == "attack":
                if cell[2]:
                    return f("art_of_war.err.sideways", square=sq)
                return f("art_of_war.err.out_of_range", square=sq, target=squares[1])
            if verb == "move" or verb == "support":
                return f("art_of_war.err.no_change")
        if verb in ("deploy", "play", "setup", "draft"):
            return f("art_of_war.err.not_placeable", square=squares[0])
        return f("art_of_war.err.not_legal", command=canonical)

    # ------------------------------------------------------------------ view
    def view(self, state: AowState, seat: int | None) -> dict:
        shown = state
        if state.window is not None and seat != state.window and state.base is not None:
            shown = state.base                 # a hidden window: show the moment before it
        return _view(self, shown, seat, state)

    # ------------------------------------------------------------------ determinize
    def determinize(self, view: dict, seat: int | None, rng: Any) -> AowState:
        """A full state consistent with ``view`` (docs/engine.md): both decks (face down to everyone)
        and the opponent's hand, which the seat cannot see, sampled card by card from the basic
        units (the opponent's KING in its hand once dealt and not seen elsewhere); a fresh
        random stream.  A window the seat is answering is rebuilt
        from the view's chain."""
        import random as _random

        rng = rng if rng is not None else _random.Random()
        s = AowState.__new__(AowState)
        s.seed, s.rng = 0, _prng.start(rng.getrandbits(127))
        cs = self.cardset_at(view.get("edition", EDITION))
        kings = [cs.kings[p["king"]] for p in view["players"]]
        s.cards = json.loads(json.dumps({"units": {c: cs.units[ID_OF[c]] for c in CODES},
                                         "kings": kings}))
        s.tab = tables_for(s.cards)
        s.first, s.turn, s.player = view["first"], view["turn"], view["player"]
        s.actor, s.mode, s.immigrated, s.boost = view["actor"], view["mode"], view["immigrated"], view["boost"]
        outcome = view.get("outcome")
        s.phase = view["phase"] if view["phase"] != "over" else (view.get("last") or {}).get("phase", "play")
        s.draft = view.get("draft", 0)
        s.edition = _edition(view.get("edition", EDITION))
        s.field = [None] * 12
        for u in view["field"]:
            s.field[SQ_INDEX[u["square"]]] = (u["owner"], u["card"], 1 if u["orientation"] == "sideways" else 0,
                                              u["damage"])
        s.hands, s.decks, s.waiting, s.kingdom, s.grave = [[], []], [[], []], [[], []], [[], []], [[], []]
        s.mull = [False, False]
        for p in view["players"]:
            i = p["seat"]
            s.waiting[i] = list(p["waiting"])
            s.kingdom[i] = [p["kingdom"][c] for c in KINGDOM_ORDER]
            s.grave[i] = list(p["graveyard"])
            s.mull[i] = p["mulligan_done"]
            # a deck is face down to its owner too (the view shows its size only)
            if i == seat:
                s.hands[i] = list(view["hand"])
                s.decks[i] = [rng.choice(CODES) for _ in range(p["deck_count"])]
            else:           # unseen: any basic unit may be there — and the KING, once dealt
                seen = any(u["owner"] == i and u["card"] == "k" for u in view["field"]) or \
                    "k" in p["waiting"] or "k" in p["graveyard"]
                king = ["k"] if view["phase"] != "mulligan" and not seen and p["hand_count"] else []
                s.hands[i] = king + [rng.choice(CODES) for _ in range(p["hand_count"] - len(king))]
                s.decks[i] = [rng.choice(CODES) for _ in range(p["deck_count"])]
        window = view.get("window") if seat is not None else None
        s.chain, s.window, s.base = [], None, None
        if window:
            for e in window["chain"]:
                if e["kind"] == "attack":
                    s.chain.append(("attack", e["seat"], SQ_INDEX[e["from"]], SQ_INDEX[e["to"]], e["power"]))
                else:
                    s.chain.append(("support", e["seat"], e["card"], e["effect"], *e["args"]))
            s.window = seat
        s.last = json.loads(json.dumps(view["last"])) if view.get("last") is not None else None
        s.result = json.loads(json.dumps(outcome)) if outcome else None
        s._legal = None
        return s

    # ------------------------------------------------------------------ persistence
    def dump(self, state: AowState) -> str:
        d = state.to_json()
        d["game"], d["version"] = GAME, 1
        return json.dumps(d, ensure_ascii=False, separators=(",", ":"), sort_keys=True)

    def load(self, text: str) -> AowState:
        d = json.loads(text)
        if not isinstance(d, dict) or d.get("game") != GAME or d.get("version") != 1:
            raise ValueError("not an Art of War state (version 1)")
        return AowState.from_json(d)


# ============================================================================ view

def _card_info(s: AowState, owner: int, code: str) -> dict:
    card = s.cards["kings"][owner] if code == "k" else s.cards["units"][code]
    return card


def _view(game: ArtOfWarGame, s: AowState, seat: int | None, real: AowState) -> dict:
    field = []
    for i, c in enumerate(s.field):
        if c is None:
            continue
        owner, code, side, dmg = c
        rng, atk, du, ds = s.tab[(owner, code)]
        field.append({"square": SQUARES[i], "owner": owner, "card": code,
                      "id": _card_info(s, owner, code)["id"],
                      "orientation": "sideways" if side else "upright", "damage": dmg,
                      "defence": ds if side else du,
                      "attack": "hand" if atk < 0 else atk})
    players = []
    for p in (0, 1):
        players.append({
            "seat": p, "king": s.cards["kings"][p]["id"], "hand_count": len(s.hands[p]),
            "deck_count": len(s.decks[p]), "waiting": list(s.waiting[p]),
            "kingdom": dict(zip(KINGDOM_ORDER, s.kingdom[p])), "kingdom_count": sum(s.kingdom[p]),
            "graveyard": list(s.grave[p]), "graveyard_count": len(s.grave[p]),
            "mulligan_done": s.mull[p],
        })
    units = {c: {"id": v["id"], "name": v["name"], "range": v["range"], "attack": v["attack"],
                 "defence": v["defence"], "text": v.get("text")} for c, v in s.cards["units"].items()}
    kings = [{"id": v["id"], "name": v["name"], "range": v["range"], "attack": v["attack"],
              "defence": v["defence"], "text": v.get("text")} for v in s.cards["kings"]]
    game_over = real.result is not None
    out: dict[str, Any] = {
        "game": GAME, "seat": seat, "turn": s.turn, "first": s.first, "player": s.player,
        "phase": "over" if game_over else s.phase,
        "to_act": game.public_to_act(real) if seat is None or seat != real.window else game.to_act(real),
        "actor": s.actor, "mode": s.mode, "immigrated": s.immigrated, "boost": s.boost,
        "draft": s.draft if s.phase == "draft" else 0,
        "field": field, "players": players, "units": units, "kings": kings,
        "last": json.loads(json.dumps(s.last)) if s.last is not None else None,
        "outcome": game.outcome(real),
    }
    out["edition"] = real.edition
    if seat in (0, 1):
        out["hand"] = sorted(s.hands[seat], key=CARD_ORDER.index)
        if real.window == seat:
            out["window"] = {"chain": [_entry_view(e) for e in real.chain],
                             "responses": [c for c in game._legal(real) if c != "pass"]}
    return out


def _entry_view(e: tuple) -> dict:
    if e[0] == "attack":
        return {"kind": "attack", "seat": e[1], "from": SQUARES[e[2]], "to": SQUARES[e[3]], "power": e[4]}
    return {"kind": "support", "seat": e[1], "card": e[2], "effect": e[3], "args": list(e[4:])}
