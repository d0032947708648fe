"""A league's trail (変更履歴): every change of a result or of a player's standing, oldest first.

The trail is ``d["trail"]``, a list of entries::

    {"at": seconds since the epoch, "by": the user id who did it (None: the bot itself),
     "what": "events.trail.<kind>" (a catalog key), "params": {...},
     "before": ..., "after": ...}

:func:`changes` compares a league before and after one write (:meth:`host.league_service.Leagues._mutate`
holds both) and returns the entries that write makes, so nothing that changes a result or a
standing goes untold, whichever command made it.  Kinds:

* players: ``join`` (signed up, or back after leaving), ``left`` (left during sign-up), ``drop``
  (dropped out once running; ``after["decided"]``: the pairings forfeited by it), ``remove`` (an
  organiser removed them, in sign-up or later; the same);
* a pairing (``params``: ``pairing``, ``round``, ``a``, ``b``; ``before`` / ``after``: the
  pairing's state ``{"result", "how", "held", "reports", "claims"}``): ``report`` (one side
  reported; ``params["outcome"]``: what they said, ``"a"``/``"b"``/``"draw"``), ``confirm`` (the
  second, matching report: the result counts), ``held`` (the reports differ), ``decide`` (an
  organiser's result for an open or held pairing), ``override`` (an organiser's result for a
  decided one: ``before`` is the result it replaces), ``forfeit`` (an organiser's forfeit),
  ``claim`` (a forfeit win claimed after the deadline), ``claim_held`` (both sides claimed),
  ``match`` (a bot match reported itself; ``params["match"]``), ``time_out`` (the round's time
  limit decided it), ``disputed`` (the opponent disputed a report: held for an organiser),
  ``confirm_auto`` (the bot confirmed a report nobody answered in the organiser's time,
  :mod:`host.events.reports`), ``result`` (anything else); a report with a game score (best of
  3 or 5) keeps it in ``params["games"]``, and its words say it ("Alice 2–1 Bob");
* best of 3 or 5 (:mod:`host.events.bestof`): ``game`` (each game of a series: ``params["n"]``,
  the game score after it), ``game_forfeit`` (a game won by a no-show claim), ``game_unfinished``
  (a game under way at the time limit, counted as drawn), ``first_drawn`` (the random draw of
  who moves first, with its seed), ``choice_first`` / ``choice_second`` (a player's choice),
  ``extend`` (an organiser's extra minutes), ``time_up`` (a bracket pairing's time ran out);
* the event's clock (:mod:`host.events.clock`; ``what`` ``events.clock.trail.<setting>``): each
  setting changed, its new value in ``params["value"]``;
* the league: ``start``, ``paired`` (a round's new pairings, ``after["pairings"]``), ``finished``
  (the last round is complete), ``close``, ``cancelled`` (sign-up ended with too few players),
  ``cancelled_checkin`` (fewer than two players checked in by the start);
* a bracket (:mod:`host.events.stages`; ``what`` ``events.bracket.trail.<kind>``): ``cut`` (the
  top cut, ``after["seeds"]``), ``draw`` (the random draw that broke a tie at the cut line:
  ``after`` is the draw), ``start`` (an elimination of everyone and its seeding), ``replay`` (a
  drawn elimination match, played again), ``void`` (a pairing whose match changed players after
  a correction: taken out with its result, ``before``).

The standings are never stored: they are computed from the results each time, so an entry that
changes an old result (an ``override``) corrects every place and tiebreak after it.

The trail keeps the newest :data:`TRAIL_MAX` entries (2,000); ``d["trail_cut"]`` counts the
older ones let go.  :func:`page` and :func:`line` show it newest first, in words.

>>> before = {"players": [], "pairings": []}
>>> after = {"players": [{"id": 7, "name": "Ann", "status": "active"}], "pairings": []}
>>> [e["what"] for e in changes(before, after, "signup", "signup", at=0.0, by=7)]
['events.trail.join']
"""
from __future__ import annotations

from typing import Any, Callable

from data import i18n
from host.events.bestof import trail_changes as series_changes
from host.events.clock import trail_changes as clock_changes
from host.events.document import pairing_state
from host.events.entry import trail_changes
from host.events.stages import total_rounds
from host.events.words import result_text

TRAIL_MAX = 2000
PER_PAGE = 10


def _pairing_kind(act: str | None, before: dict, after: dict) -> str:
    if act == "match":
        # a drawn elimination match stays open: it is played again
        return "match" if after["result"] is not None else "events.bracket.trail.replay"
    if act == "decide":
        return "decide" if before["result"] is None else "override"
    if act == "forfeit":
        return "forfeit"
    if act == "time":
        return "time_out"
    if act == "claim":
        return "claim" if after["result"] is not None else "claim_held"
    if act == "report":
        if after["result"] is not None:
            return "confirm"
        return "held" if after["held"] else "report"
    if act in ("confirm", "dispute"):          # the Confirm / Dispute buttons (host/events/reports.py)
        return "confirm" if after["result"] is not None else "disputed"
    if act == "auto_confirm":
        return "confirm_auto"
    return "result"


def changes(before: dict, after: dict, status_before: str, status_after: str, *, at: float,
            by: int | None, act: str | None = None, target: int | None = None) -> list[dict]:
    """The trail entries of one write: ``before`` / ``after`` are the league document and
    status around it; ``by`` who did it (None: the bot); ``act`` what they did (``report``,
    ``decide``, ``forfeit``, ``claim``, ``match``, ``start``, ``next_round`` …) and ``target``
    the pairing it was about (an entry even when nothing changed: an organiser who confirms a
    result is on the record too)."""
    out: list[dict] = []

    def entry(kind: str, params: dict, was: Any, now: Any, who: int | None = by) -> None:
        what = kind if "." in kind else f"events.trail.{kind}"
        out.append({"at": float(at), "by": who, "what": what, "params": params, "before": was, "after": now})

    old_players = {p["id"]: p for p in before.get("players", [])}
    new_players = {p["id"]: p for p in after.get("players", [])}
    old_pairings = {p["id"]: p for p in before.get("pairings", [])}
    gone: set[int] = set()
    # the event's registration, check-ins, decks and no-shows (host/events/entry.py) first; the
    # players and pairings they tell are not told again below
    told, told_players, told_pairings = trail_changes(before, after, at=at, by=by, act=act)
    out += told
    # best-of-N play (host/events/bestof.py): each game, each choice, an extension, a time-out
    games, quiet = series_changes(before, after, at=at, by=by)
    out += games
    # the clock of the event's games and the round length (host/events/clock.py)
    out += clock_changes(before, after, at=at, by=by)
    for uid, p in new_players.items():
        if uid in told_players:
            continue
        was = old_players.get(uid)
        was_status = was["status"] if was else None
        if was_status == p["status"]:
            continue
        if p["status"] == "active":
            entry("join", {"player": uid, "name": p.get("name", "")}, {"status": was_status}, {"status": "active"})
            continue
        gone.add(uid)
        decided = [q for q in after.get("pairings", []) if uid in (q["a"], q["b"]) and q["id"] in old_pairings
                   and old_pairings[q["id"]].get("result") is None and q.get("result") is not None]
        entry("remove" if p["status"] == "removed" else "drop", {"player": uid, "name": p.get("name", "")},
              {"status": was_status},
              {"status": p["status"], "decided": [{"pairing": q["id"], "result": q["result"]} for q in decided]})
    for uid, p in old_players.items():
        if uid not in new_players and uid not in told_players:
            entry("remove" if act == "remove" else "left", {"player": uid, "name": p.get("name", "")},
                  {"status": p["status"]}, {"status": None})

    for q in after.get("pairings", []):
        was = old_pairings.get(q["id"])
        if was is None or q["id"] in told_pairings:
            continue
        s0, s1 = pairing_state(was), pairing_state(q)
        if s0 == s1 and (q["id"] != target or q["id"] in quiet):
            continue
        if s0["result"] is None and q.get("how") == "drop" and {q["a"], q["b"]} & gone:
            continue                      # told by the drop (or removal) itself
        # the bot's confirmations are about every pairing they decided (no one target)
        kind = _pairing_kind(act if q["id"] == target or act == "auto_confirm" else None, s0, s1)
        params: dict[str, Any] = {"pairing": q["id"], "round": q["round"], "a": q["a"], "b": q["b"]}
        if kind in ("report", "confirm", "held") and by is not None:
            params["outcome"] = s1["reports"].get(str(by))
        games = (q.get("report_games") or {}).get(str(by)) if by is not None else None
        if kind in ("confirm_auto", "decide", "override") or (kind == "confirm" and act == "confirm"):
            games = q.get("games") if q.get("scored") else None
        if games and kind in ("report", "confirm", "held", "confirm_auto", "decide", "override"):
            params["games"] = list(games)      # a reported game score: "Alice 2–1 Bob"
        if kind in ("match", "events.bracket.trail.replay"):
            params["match"] = q.get("match")
        entry(kind, params, s0, s1)

    for q in before.get("pairings", []):
        if q.get("bracket") and q["id"] not in {x["id"] for x in after.get("pairings", [])}:
            out.append({"at": float(at), "by": by, "what": "events.bracket.trail.void",
                        "params": {"pairing": q["id"], "round": q["round"], "a": q["a"], "b": q["b"]},
                        "before": pairing_state(q), "after": None})
    if status_before == "signup" and status_after == "running":
        active = [p for p in after.get("players", []) if p["status"] == "active"]
        rounds = total_rounds(after) if after.get("events") else \
            len(after.get("schedule") or []) if after.get("format") == "rr" else after.get("rounds")
        entry("start", {"players": len(active), "rounds": rounds}, {"status": status_before}, {"status": status_after})
    out += _bracket(before, after, at, by if act in ("start", "next_round") else None)
    fresh = [q for q in after.get("pairings", []) if q["id"] not in old_pairings]
    for rnd in sorted({q["round"] for q in fresh}):
        made = [q for q in fresh if q["round"] == rnd]
        entry("paired", {"round": rnd, "count": len(made)}, None,
              {"pairings": [{"pairing": q["id"], "a": q["a"], "b": q["b"], "result": q.get("result")} for q in made]},
              who=by if act in ("start", "next_round") else None)
    if status_after == "finished" and status_before != "finished":
        entry("finished", {"round": after.get("round")}, {"status": status_before}, {"status": status_after},
              who=by if act == "next_round" else None)
    if status_after == "closed" and status_before != "closed":
        if after.get("cancelled") == "too_few_checkin":    # fewer than two checked in by the start
            checked = [e for e in (after.get("registration") or {}).get("entries", []) if e.get("checked_in_at")]
            entry("cancelled_checkin", {"players": len(checked)}, {"status": status_before}, {"status": status_after},
                  who=None)
        elif after.get("cancelled"):
            active = [p for p in after.get("players", []) if p["status"] == "active"]
            entry("cancelled", {"players": len(active)}, {"status": status_before}, {"status": status_after}, who=None)
        else:
            entry("close", {}, {"status": status_before}, {"status": status_after})
    return out


def _bracket(before: dict, after: dict, at: float, by: int | None) -> list[dict]:
    """A bracket that starts: a top cut (who went through, and the draw that broke a tie at the
    cut line) or an elimination of everyone (how it was seeded)."""
    b = after.get("bracket")
    if not b or before.get("bracket"):
        return []
    seeds = list(b["structure"]["seeds"])
    if b["stage"] == "cut":
        out = [{"at": float(at), "by": by, "what": "events.bracket.trail.cut",
                "params": {"n": len(seeds), "seeds": seeds}, "before": None, "after": {"seeds": seeds}}]
    else:
        out = [{"at": float(at), "by": by, "what": "events.bracket.trail.start",
                "params": {"n": len(seeds), "seeds": seeds, "kind": f"leagues.format.{b['kind']}",
                           "seeding": f"events.bracket.seeding.{after.get('seeding') or 'rating'}"},
                "before": None, "after": {"seeds": seeds}}]
    draw = b.get("draw")
    if draw:
        above = sum(1 for u in seeds if u not in draw["tied"])
        seats = len(seeds) - above
        out.append({"at": float(at), "by": None, "what": "events.bracket.trail.draw",
                    "params": {"place": draw["place"], "tied": list(draw["tied"]), "drawn": list(draw["drawn"]),
                               "seed": str(draw["seed"]), "seats": seats, "count": seats},
                    "before": None, "after": dict(draw)})
    return out


def add(d: dict, entries: list[dict]) -> None:
    """Append ``entries`` to the league's trail, keeping the newest :data:`TRAIL_MAX`."""
    if not entries:
        return
    trail = d.setdefault("trail", [])
    trail.extend(entries)
    extra = len(trail) - TRAIL_MAX
    if extra > 0:
        del trail[:extra]
        d["trail_cut"] = int(d.get("trail_cut") or 0) + extra


def pages(d: dict, per_page: int = PER_PAGE) -> int:
    return max(1, -(-len(d.get("trail") or []) // per_page))


def page(d: dict, number: int, per_page: int = PER_PAGE) -> tuple[list[dict], int, int]:
    """Page ``number`` (from 0, clamped) of the trail, newest first: (entries, page, pages)."""
    trail = d.get("trail") or []
    n = pages(d, per_page)
    number = min(max(0, int(number)), n - 1)
    newest = trail[::-1]
    return newest[number * per_page:(number + 1) * per_page], number, n


def _name(uid: Any, names: dict[int, str], fallback: str = "") -> str:
    if uid is None:
        return "-"
    return names.get(uid) or fallback or f"<@{uid}>"


def line(e: dict, names: dict[int, str], locale: str, words_of: Callable[[Any], str] = str) -> str:
    """One entry in words: when (a Discord timestamp), who, what — names, not ids (someone who is
    no player, an organiser, is a mention, which Discord shows by name).  ``names`` are shown as
    given (a front end passes them made safe for its messages); ``words_of`` makes the entry's
    own texts safe (a name kept with the entry, a reason someone typed)."""
    p = e.get("params") or {}
    words: dict[str, Any] = {k: (words_of(v) if isinstance(v, str) else v) for k, v in p.items()
                             if isinstance(v, (int, str)) and not isinstance(v, bool)}
    for k, v in p.items():        # players (a list of ids) by name; words given as catalog keys
        if isinstance(v, list):
            words[k] = i18n.t("core.list_sep", locale).join(_name(u, names) for u in v)
        elif k in ("kind", "seeding") and isinstance(v, str) and i18n.has(v):
            words[k] = i18n.t(v, locale)
    words["who"] = i18n.t("events.trail.bot", locale) if e.get("by") is None else _name(e["by"], names)
    if "player" in p:
        words["player"] = names.get(p["player"]) or (words_of(p["name"]) if p.get("name") else _name(p["player"], names))
    if "pairing" in p:
        a, b = p.get("a"), p.get("b")
        words["a"], words["b"] = _name(a, names), _name(b, names)
        for side in ("before", "after"):
            st = e.get(side) or {}
            words[side] = result_text({**st, "a": a, "b": b}, names, locale)
        outcome = p.get("outcome")
        scored = {"games": p["games"], "scored": True} if p.get("games") else {}
        words["outcome"] = result_text({"result": outcome, "how": "report", "a": a, "b": b, **scored}, names, locale) \
            if outcome else "-"
        if scored and (e.get("after") or {}).get("result") is not None:
            words["after"] = result_text({**e["after"], "a": a, "b": b, **scored}, names, locale)
    decided = (e.get("after") or {}).get("decided") if isinstance(e.get("after"), dict) else None
    words["decided"] = ""
    if decided:
        words["decided"] = i18n.t("events.trail.decided", locale, pairings=i18n.t("core.list_sep", locale).join(
            f"#{x['pairing']}" for x in decided))
    text = i18n.t(str(e.get("what")), locale, **words)
    return i18n.t("events.trail.line", locale, at=int(e.get("at") or 0), text=text)
