"""Project Maken: why a command is refused (a localized error that names what is allowed
instead), and a command as everyone may see it — the diagnosis half of :class:`MakenGame`
(``rules/maken/engine.py``)."""
from __future__ import annotations

from typing import Any

from rules.contract import IllegalCommand, Ref, en_text
from rules.maken.messages import EN, USAGE
from rules.maken.mechanics import (
    MakenState, _counts, _difficulty, _top, _top_back, _top_speed, BONUSES, GUARD_TYPES,
    STEP_VERBS, SUPPORT_MAX,
)


class DiagnosisMixin:
    """Errors and public text of :class:`rules.maken.engine.MakenGame` (uses its ``_legal``,
    ``_draw_limit``, ``_guard_types``, ``_keep_plan``, ``_gc_ok`` and ``_canonical``)."""

    _legal: Any
    _draw_limit: Any
    _guard_types: Any
    _keep_plan: Any
    _gc_ok: Any
    _canonical: Any
    # ----------------------------------------------------------------- errors
    def _hint(self, d: dict, verb: str | None = None, limit: int = 6) -> str:
        legal = self._legal(d)
        if verb:
            pref = [c for c in legal if c.split()[0] == verb]
            legal = pref + [c for c in legal if c.split()[0] != verb]
        shown = ", ".join(legal[:limit])
        if len(legal) > limit:
            shown += f", … (+{len(legal) - limit})"
        return shown

    def _fail(self, key: str, d: dict | None = None, prefer: str | None = None, **params: Any) -> IllegalCommand:
        if "{legal}" in EN[key]:
            params["legal"] = self._hint(d, prefer) if d is not None else ""
        return IllegalCommand(en_text(EN, key, params), key=key, **params)

    # ----------------------------------------------------------------- diagnosis
    def _diagnose(self, d: dict, s: int, verb: str, args: list[str], text: str, legal: list[str]) -> IllegalCommand:
        step = d["step"]
        verbs_now = {c.split()[0] for c in legal}
        if verb not in STEP_VERBS.get(step, ()):
            return self._fail("maken.err.wrong_step", d, verb=verb, step=Ref(f"maken.step.{step}"))
        if verb not in verbs_now:
            if verb == "call" and step == "attack" and d["guarder"] == s:
                return self._fail("maken.err.no_call_guarding", d)
            if verb == "attack" and step == "attack" and d["guarder"] == s:
                return self._fail("maken.err.no_attack_guarding", d)
            if verb == "break" and step == "attack":
                return self._fail("maken.err.cannot_break", d)
            if verb == "guard" and step == "attack":
                why = "maken.why.guarding" if d["guarder"] == s else "maken.why.guarded" if d["guarder"] is not None else "maken.why.unguardable"
                if d["guarder"] is None and len(d["hand"][s]) < _difficulty(d, _top(d, 1 - s)):
                    return self._fail("maken.err.hand_short", d, "guard", need=_difficulty(d, _top(d, 1 - s)), have=len(d["hand"][s]))
                return self._fail("maken.err.cannot_guard", d, why=Ref(why))
            if verb == "keep" and step == "attack":
                why = "maken.why.not_guarding" if d["guarder"] != s else "maken.why.hand"
                return self._fail("maken.err.cannot_keep", d, why=Ref(why))
            if verb == "gc" and step == "attack":
                why = self._gc_ok(d, s) if d["guarder"] == s else "maken.why.not_guarding"
                return self._fail("maken.err.cannot_gc", d, why=Ref(why or "maken.why.not_guarding"))
            if verb == "set" and step == "before" and len(d["support"][s]) >= SUPPORT_MAX:
                return self._fail("maken.err.support_full", d, max=SUPPORT_MAX)
            if verb == "skip" and step == "before":
                return self._fail("maken.err.must_fb", d, "fb")
        if verb in ("ready", "mulligan", "skip", "gc", "call", "break", "pass", "end"):
            return self._fail("maken.err.syntax", d, verb, command=text[:60], usage=USAGE[verb])
        if verb == "draw":
            return self._fail("maken.err.draw_count", d, "draw", max=self._draw_limit(d))
        if not args:
            return self._fail("maken.err.syntax", d, verb, command=text[:60], usage=USAGE[verb])
        cards = d["cards"]
        if verb in ("set", "use", "fb", "attack", "bonus"):
            cid = args[0]
            if cid not in cards or cards[cid]["kind"] == "character":
                return self._fail("maken.err.unknown_card", d, verb, token=cid[:30])
            card = cards[cid]
            if verb in ("set", "use") and card["kind"] != "support":
                return self._fail("maken.err.not_support", d, verb, card=cid)
            if verb == "use":
                return self._fail("maken.err.support_not_ready", d, verb, card=cid,
                                  timing=Ref(f"maken.step.{step}"))
            mult = 1
            if len(args) >= 2:
                if args[1] not in ("double", "triple") or verb not in ("fb", "attack"):
                    return self._fail("maken.err.syntax", d, verb, command=text[:60], usage=USAGE[verb])
                mult = 2 if args[1] == "double" else 3
                want = 1 if mult == 2 else 2
                bonus = args[2:]
                bad = [b for b in bonus if b not in BONUSES]
                if bad:
                    return self._fail("maken.err.bad_bonus", d, verb, token=bad[0][:20])
                if len(bonus) != want or (mult == 3 and bonus[0] == bonus[1]):
                    return self._fail("maken.err.syntax", d, verb, command=text[:60], usage=USAGE[verb])
            have = d["hand"][s].count(cid)
            if have < mult:
                return self._fail("maken.err.not_in_hand", d, verb, card=cid, count=mult)
            if verb == "set":
                return self._fail("maken.err.not_legal", d, verb, command=text[:60])
            if card["kind"] != "attack":
                return self._fail("maken.err.not_attack", d, verb, card=cid)
            if card["gc"] == "only":
                return self._fail("maken.err.gc_only", d, verb, card=cid)
            if card["cost"] * mult > len(d["gauge"][s]):
                return self._fail("maken.err.gauge_short", d, verb, card=cid, cost=card["cost"] * mult,
                                  gauge=len(d["gauge"][s]))
            if verb == "fb" and card["front"] == 0:
                return self._fail("maken.err.fb_reach_zero", d, verb, card=cid)
            if verb == "attack" and d["situation"] == "even":
                o = 1 - s
                if card["speed"] < _top_speed(d, o):
                    return self._fail("maken.err.too_slow", d, verb, card=cid, speed=card["speed"], need=_top_speed(d, o))
                if card["front"] < _top_back(d, o):
                    return self._fail("maken.err.too_short", d, verb, card=cid, reach=card["front"], need=_top_back(d, o))
            return self._fail("maken.err.not_legal", d, verb, command=text[:60])
        # guard / keep
        o = 1 - s
        if verb == "guard":
            kind, chosen = args[0], args[1:]
            allowed = self._guard_types(d, s)
            if kind not in GUARD_TYPES or not chosen:
                return self._fail("maken.err.syntax", d, verb, command=text[:60], usage=USAGE[verb])
            if kind not in allowed:
                return self._fail("maken.err.guard_type", d, verb, kind=Ref(f"maken.posture.{kind}"),
                                  allowed=", ".join(allowed) or "-")
            need = _difficulty(d, _top(d, o))
        else:
            flushed, types, need = self._keep_plan(d, s)
            chosen = args
            if flushed:
                if not args or args[0] not in GUARD_TYPES:
                    return self._fail("maken.err.keep_type", d, verb, allowed=", ".join(types) or "-")
                if args[0] not in types:
                    return self._fail("maken.err.guard_type", d, verb, kind=Ref(f"maken.posture.{args[0]}"), allowed=", ".join(types) or "-")
                chosen = args[1:]
            elif args and args[0] in GUARD_TYPES:
                return self._fail("maken.err.keep_no_type", d, verb,
                                  kind=Ref(f"maken.posture.{d['gtype'][s]}") if d["gtype"][s] else "-")
        for c in chosen:
            if c not in cards or cards[c]["kind"] == "character":
                return self._fail("maken.err.unknown_card", d, verb, token=c[:30])
        if len(chosen) != need:
            return self._fail("maken.err.guard_count", d, verb, need=need, given=len(chosen))
        counts = _counts(d["hand"][s])
        for c, n in _counts(chosen).items():
            if counts.get(c, 0) < n:
                return self._fail("maken.err.not_in_hand", d, verb, card=c, count=n)
        return self._fail("maken.err.not_legal", d, verb, command=text[:60])

    # ----------------------------------------------------------------- public text
    def _public_text(self, d: dict, seat: int, verb: str, args: list[str]) -> str:
        if verb == "guard":
            return " ".join(["guard", args[0]] + ["?"] * (len(args) - 1))
        if verb == "keep":
            head = [args[0]] if args and args[0] in GUARD_TYPES else []
            return " ".join(["keep"] + head + ["?"] * (len(args) - len(head)))
        if verb == "set":
            return "set ?"
        return " ".join([verb, *args])

    def public_command(self, state_before: MakenState, seat: int, command: str) -> str | None:
        """The command as everyone may see it: face-down cards (guard, keep, set) become ``?``."""
        try:
            verb, args = self._canonical(state_before.d, command)
        except IllegalCommand:
            return " ".join(str(command).split())
        return self._public_text(state_before.d, seat, verb, args)
