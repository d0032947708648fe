"""Avalon's Sanctuary (アヴァロンの聖域): the rules engine behind the contract (docs/engine.md).

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
from typing import Any

from rules.contract import IllegalCommand, Ref
from rules import prng as _prng
from rules.deck_rules import OPTION as DECK_RULES, from_options
from rules.avalon import finality
from rules.avalon.state import (
    MAX_SET_ACTIONS, MASK, MODES, OPTION_SCHEMA, LAND_TOKENS, VERBS, _next, _shuffle, Player,
    EDITIONS, EDITION, _edition, State, icons, land_icons, mana_count, mana_total, eff_target,
    can_stack, vessel_choices, vessel_token, creature_view, fail, ptok, ltok,
    command_tokens as _tokens,
)
from rules.avalon.turns import (
    _event, _alive, _eliminate, _check_memory, _draw, _gain_life, _ability, _begin_battle,
    _setup_player, _clockwise, _progress, _ranks, resolve_battle, _legal, _to_act
)


# --------------------------------------------------------------------------- the game

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
    """Avalon's Sanctuary behind the engine contract (``docs/engine.md``)."""

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
        rules = self.deck_rules(options)      # limited play: every seat's deck is checked with them
        if rules is not None:
            out[DECK_RULES] = rules
        for k, v in options.items():
            if k == DECK_RULES:
                continue
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
                        decks.append(self.decks_at(edition).resolve(item, rules))
                    except ValueError as exc:
                        raise ValueError(f"Avalon's Sanctuary option 'decks': seat {seat}'s deck: {exc}") from None
                out["decks"] = decks
            else:
                raise ValueError(f"unknown Avalon's Sanctuary option {k!r}; allowed options: "
                                 f"{', '.join(list(OPTION_SCHEMA) + ['decks'])}")
        return out

    def deck_rules(self, options: dict) -> dict | None:
        """The match's limited deck rules (option ``deck_rules``, :func:`rules.deck_rules.from_options`)
        checked, or None for constructed play; ValueError naming the problem."""
        from rules.avalon.decks import check_rules

        return from_options(options, check_rules, "Avalon's Sanctuary")

    def _deck_for(self, s: State, seat: int, given: Any = None) -> dict:
        """The deck of ``seat``: ``given`` (a late joiner's), else the option's, else a ready-made
        deck; in a limited match each must fit the match's deck rules."""
        decks = self.decks_at(s.edition)
        if given is not None:
            return decks.resolve(given, s.deck_rules)
        if seat < len(s.decks_opt) and s.decks_opt[seat] is not None:
            return s.decks_opt[seat]
        from rules.avalon.decks import normalise
        rid = self._ready_ids[seat % len(self._ready_ids)]
        if s.deck_rules is not None:
            return decks.resolve(rid, s.deck_rules)
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
        s.deck_rules = opts.get(DECK_RULES)
        s.players = []
        for seat in range(players):
            try:
                deck = self._deck_for(s, seat)
            except ValueError as exc:       # limited rules a ready-made deck does not fit
                raise ValueError(f"Avalon's Sanctuary option 'decks': seat {seat}'s deck: {exc}") from None
            s.players.append(_setup_player(s, seat, deck))
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

    def batches(self, state: State, seat: int) -> list[dict]:
        """Moves picked together in a set phase (docs/engine.md ``batches``), which allows
        "any order, any number": discards, then for each land the cards forged onto it (the
        lands with the most choices first; a rainbow vessel, which asks which icons turn, is
        forged alone).  Each step is checked in turn: a card that no longer stacks is refused."""
        if state.result is not None or state.step != "set" or seat != state.actor \
                or state.acts >= MAX_SET_ACTIONS:
            return []
        room = MAX_SET_ACTIONS - state.acts
        hand = sorted(state.players[seat].hand)
        legal = set(_legal(state, seat))
        out = [{"kind": "discard", "commands": [f"discard {c}" for c in hand], "min": 1, "max": room}]
        lands = []
        for i in range(len(state.players[seat].lands)):
            forged = [f"forge {c} {LAND_TOKENS[i]}" for c in hand if f"forge {c} {LAND_TOKENS[i]}" in legal]
            if len(forged) >= 2:
                lands.append({"kind": "forge", "commands": forged, "min": 1, "max": min(room, len(forged))})
        return out + sorted(lands, key=lambda g: -len(g["commands"]))

    def outcome(self, state: State) -> dict | None:
        """``winners`` and ``reason`` (the contract), plus ``ranks`` (docs/engine.md addition):
        the finishing place of every seat, 1 = best, equal = tie — see :func:`_ranks`."""
        if state.result is None:
            return None
        return {"winners": list(state.result["winners"]), "reason": state.result["reason"],
                "ranks": _ranks(state)}

    def outcome_detail(self, state: State) -> dict | None:
        """What the result line names beyond the reason: at the round limit (house rule: most
        proofs, then most life) the scores that decided it — the winner's proofs and life
        against the next best player's (``win``), or the tied best (``draw``)."""
        r = state.result
        if r is None or r.get("reason") != "round_limit":
            return None
        alive = list(_alive(state)) or list(range(len(state.players)))
        score = {i: (len(state.players[i].proofs), len(state.players[i].life)) for i in alive}
        if not r["winners"]:
            proofs, life = max(score.values())
            return {"form": "draw", "proofs": proofs, "life": life}
        w = r["winners"][0]
        others = [score[i] for i in alive if i != w]
        if w not in score or not others:
            return None
        (proofs, life), (proofs2, life2) = score[w], max(others)
        return {"form": "win", "proofs": proofs, "life": life, "proofs2": proofs2, "life2": life2}

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

    def reveals(self, state_before: State, seat: int, command: str, state_after: State) -> bool:
        """docs/engine.md ``reveals`` (rules/avalon/finality.py)."""
        return finality.reveals(state_before, seat, command, state_after)

    def final(self, state_before: State, seat: int, command: str, state_after: State) -> bool:
        """docs/engine.md ``final``: ``reveals`` or the decision handed over (finality.py)."""
        return finality.final(self, state_before, seat, command, state_after)

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
            raise fail("avalon.err.not_your_turn", waiting=waiting[0] + 1)   # 1-based, as players count
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
        """A full state consistent with ``view`` (docs/engine.md).  Sampled from each player's
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
        s.deck_rules = None
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
        if d["deck_rules"] is None:        # constructed play: the dump stays as it always was
            del d["deck_rules"]
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
            elif k == "deck_rules":
                s.deck_rules = d.get("deck_rules")            # absent: constructed play
            elif k != "players":
                setattr(s, k, d[k])
        s.players = [Player.from_json(p) for p in d["players"]]
        if s.sanct is not None:
            s.sanct = [[list(m) for m in s.sanct[0]], s.sanct[1], s.sanct[2]]
        return s


# a card definition's generated text, once per definition (the definitions of a card set are never
# changed once loaded; the entry holds the definition, so its id is never another's)
_TEXTS: dict[int, tuple[dict, dict]] = {}


def _card_brief(c: dict) -> dict:
    from rules.avalon.card_text import card_text
    hit = _TEXTS.get(id(c))
    if hit is None or hit[0] is not c:
        if len(_TEXTS) >= 8192:
            _TEXTS.clear()
        hit = _TEXTS[id(c)] = (c, card_text(c))
    out = {k: v for k, v in c.items() if k != "id"}
    out["text"] = dict(hit[1])
    return out


