"""League logic, pure and synchronous: pairings, standings, tiebreaks, reports, drops.

A league is a JSON-able dict (stored as :class:`data.store.LeagueRecord.data`); every function
here takes it and either changes it and returns what happened, or raises :class:`LeagueError`
(a catalog key and params) and changes nothing.  :mod:`host.records` loads, calls and stores.
This is the front of the league logic: the parts of an event are the modules of
:mod:`host.events`, which it calls; what they share with it (:class:`LeagueError`, the players
and pairings looked up) is :mod:`host.events.document`, below both.

Formats
-------
* **Round robin** (``rr``): the circle method; with an odd number of players a bye is added, so
  each round one player rests.  The whole schedule is fixed at the start.
* **Swiss** (``swiss``): each round pairs within score groups (:mod:`host.events.swiss`): players
  of equal points among themselves, at random from the round's seed; a player floats to another
  group only as far as needed (the least sum of squared point differences, then the shortest
  floats for the higher groups).  Never a rematch while a rematch-free pairing of everyone
  exists (decided exactly: a rematch-free pairing is a perfect matching of the not-yet-met
  graph); with an odd number the bye goes to the lowest-ranked player who has not had one (among
  those whose bye still leaves a rematch-free pairing).  When no rematch-free pairing exists, as
  few rematches as possible.
* **Single and double elimination** (``single``, ``double``), and a Swiss (or round robin) into
  a **top cut**: a bracket (:mod:`host.events.bracket`) whose matches are paired as soon as
  their players are known; the rules, the defaults by MTR Appendix E and the placings are in
  :mod:`host.events.stages`.

Scoring: each league has a preset (``d["scoring"]``, :mod:`host.events.scoring`): ``card``
(match points 3/1/0, OMW%, GW%, OGW%; the default for every game but SQUARES), ``pokemon``
(match points, resistance) or ``chess`` (the default for SQUARES, and what a league stored
without the key keeps).  :func:`table` is that preset's standings; Swiss rounds are paired on
its points (match points for card and pokemon).  A pairing played best of 3 or 5
(:mod:`host.events.bestof`) counts its real games; a best-of-one result decided by play (a bot
match, the players' reports, an organiser) counts as a single game (1-0, or one drawn game) and
a forfeit as no game at all (:func:`score_pairings`).

The chess preset is :func:`standings` (:mod:`host.events.chess`): win 1, draw ½, loss 0, bye 1.
Ties are broken by Buchholz (sum of the opponents' scores), then Sonneborn-Berger (sum of the
scores of the opponents one beat, plus half of those one drew), then head-to-head (points scored
in games among the tied players), then sign-up order.  Byes and double forfeits have no opponent
and count for neither tiebreak.

>>> round_robin([1, 2, 3, 4])[0]
[(1, 4), (2, 3)]
>>> swiss_pairings([1, 2, 3, 4], played=set(), had_bye=set())
[(1, 2), (3, 4)]
"""
from __future__ import annotations

from typing import Any

from host.events import bestof, entry, reports, scoring, stages, swiss
from host.events import limited as limited_events
from host.events.chess import standings  # noqa: F401 - callers know the chess table as host.leagues.standings
from host.events.document import (PLAYED, RESULTS, LeagueError, active_ids, add_pairing, own_open_pairing, pairing,
                                  player, round_pairings)
from host.events.stages import total_rounds  # noqa: F401 - callers know it as host.leagues.total_rounds

# rr and swiss, then the elimination events (single, double: host/events/stages.py)
FORMATS = ("rr", "swiss", "single", "double")
# a league stored without "scoring" (made before the presets existed) keeps today's scoring
LEGACY_SCORING = "chess"


# ---------------------------------------------------------------------------- pairing
def round_robin(players: list[int]) -> list[list[tuple[int, int | None]]]:
    """The circle method: player 0 stays, the others rotate.  ``(a, None)`` is a bye."""
    ps: list[int | None] = list(players)
    if len(ps) < 2:
        return []
    if len(ps) % 2:
        ps.append(None)
    n = len(ps)
    rounds = []
    for r in range(n - 1):
        pairs: list[tuple[int, int | None]] = []
        byes: list[tuple[int, int | None]] = []
        for i in range(n // 2):
            a, b = ps[i], ps[n - 1 - i]
            if a is None or b is None:
                byes.append((a if a is not None else b, None))  # type: ignore[arg-type]
                continue
            if i == 0 and r % 2 == 1:
                a, b = b, a          # the fixed player alternates sides
            pairs.append((a, b))
        rounds.append(pairs + byes)
        ps = [ps[0], ps[-1]] + ps[1:-1]
    return rounds


def swiss_pairings(ranked: list[int], played: set[frozenset], had_bye: set[int],
                   points: dict[int, float] | None = None, seed: str = "") -> list[tuple[int, int | None]]:
    """Pairings for the next Swiss round (:func:`host.events.swiss.pair`, rules in its module
    doc).  ``ranked``: active players, best first; ``points``: their scores, for the score
    groups; ``seed``: the round's seed for the random choice among equally good pairings.
    Without points, standings order alone: player i of ``ranked`` counts -i points, each a score
    group of their own, so the pairing keeps the players' places as close as it can (1-2, 3-4,
    ..., and around a rematch the nearest places that avoid it)."""
    if points is None:
        points = {p: -float(i) for i, p in enumerate(ranked)}
    return swiss.pair(list(ranked), points, played, had_bye, seed)


# ---------------------------------------------------------------------------- the league document
def default_scoring(game: str) -> str:
    """The preset a new league of ``game`` gets: chess for SQUARES, card for the card games."""
    return "chess" if game == "squares" else "card"


def scoring_of(d: dict) -> str:
    return d.get("scoring") or LEGACY_SCORING


def new_league(*, name: str, game: str, fmt: str, rounds: int | None, deadline_hours: int,
               rated: bool, signup_hours: int | None, organiser: int, channel_id: int | None,
               season: int, now: float, locale: str = "en", scoring_preset: str | None = None,
               cut: int | None = None, seeding: str | None = None, reset: bool | None = None,
               edition: Any = None) -> dict:
    """A new league document.  ``cut`` (0, 2, 4, 8; None: by MTR Appendix E at the start),
    ``seeding`` (``rating`` or ``random``) and ``reset`` (double elimination): the event's
    stages, :mod:`host.events.stages`; the league is marked ``"events": 1`` for them.
    ``edition``: the game's rules edition when the league is made, pinned for every match of
    the event (a later edition of the cards changes none of them; a league stored without one,
    or a game with one set of rules, plays the newest)."""
    if fmt not in FORMATS:
        raise LeagueError("leagues.err.format")
    preset = scoring_preset or default_scoring(game)
    if preset not in scoring.PRESETS:
        raise LeagueError("events.err.scoring")
    if cut is not None and cut not in stages.CUTS:
        raise LeagueError("events.bracket.err.cut")
    if seeding is not None and seeding not in stages.SEEDINGS:
        raise LeagueError("events.bracket.err.seeding")
    return {"name": name, "game": game, "format": fmt, "rounds": rounds, "deadline_hours": deadline_hours,
            "rated": bool(rated), "signup_until": now + signup_hours * 3600 if signup_hours else None,
            "organiser": organiser, "channel_id": channel_id, "message": None, "season": season,
            "locale": locale, "scoring": preset,
            "events": 1, "cut": cut, "seeding": seeding or "rating", "reset": True if reset is None else bool(reset),
            "bracket": None, "edition": edition,
            "players": [], "round": 0, "schedule": [], "pairings": [], "next_id": 1, "trail": []}


def match_meta(d: dict, league_id: int, pairing_id: int) -> dict:
    """The ``meta`` of a bot match played for a pairing: rated as the league is, which league and
    pairing it counts for, and the event's pinned rules edition and card set (when it has them)."""
    meta = {"rated": bool(d["rated"]), "league": int(league_id), "pairing": int(pairing_id)}
    if d.get("edition") is not None:
        meta["edition"] = d["edition"]
    if d.get("cards") is not None:      # the server's card set version pinned when the event was made
        meta["cards"] = d["cards"]
    if d.get("takebacks"):              # the event lets its players ask for takebacks (host/undo.py)
        meta["takebacks"] = True
    return meta


def join(d: dict, status: str, user_id: int, name: str, now: float) -> str | None:
    """A sign-up.  A league with a player cap (its registration, :mod:`host.events.entry`)
    returns ``"registered"`` or ``"waiting"`` (on the waiting list, past the cap); None
    without one."""
    if status != "signup":
        raise LeagueError("leagues.err.started")
    if d["signup_until"] is not None and now > d["signup_until"]:
        raise LeagueError("leagues.err.signup_closed")
    p = player(d, user_id)
    if p is not None and p["status"] == "active":
        raise LeagueError("leagues.err.already_joined")
    if p is not None and p["status"] == "removed":
        raise LeagueError("leagues.err.removed")
    if d.get("registration"):
        return entry.sign_up(d, user_id, name, now)
    if p is not None:
        p["status"] = "active"
        p["name"] = name
        return None
    d["players"].append({"id": int(user_id), "name": name, "status": "active"})
    return None


def games(d: dict) -> list[tuple[int, int | None, str]]:
    return [(p["a"], p["b"], p["result"]) for p in d["pairings"] if p["result"] in RESULTS]


def score_pairings(d: dict) -> list[dict]:
    """The league's decided pairings in the shape :mod:`host.events.scoring` reads: ``{"round",
    "a", "b", "games", "result"}``.  ``games`` is the pairing's own list when it has one (every
    game of a best-of-3 or -5 series, a no-show game claim); without one, a result decided by
    play (:data:`PLAYED`) is a single game — won by the winner, or drawn — and a forfeit, a drop,
    a bye or a double forfeit has no games.  Pairings without a result (to play, or held for an
    organiser) are left out."""
    out = []
    for p in d["pairings"]:
        res = p.get("result")
        if res not in RESULTS:
            continue
        games = bestof.games_of(p)
        if not games and p.get("how") in PLAYED and res in ("a", "b", "draw"):
            games = [res]
        out.append({"round": p["round"], "a": p["a"], "b": p["b"], "games": games, "result": res})
    return out


def table(d: dict) -> list[scoring.Row]:
    """The league's standings, best first, by its scoring preset (:func:`scoring_of`); each row
    has its ``place`` (exact ties share one).  The matches of a top cut do not count in them;
    with a bracket the placings come first (:func:`host.events.stages.final_rows`)."""
    if not d.get("bracket"):
        return scoring.standings(d["players"], score_pairings(d), scoring_of(d))
    swiss_only = dict(d, pairings=[p for p in d["pairings"] if p.get("stage") != "cut"])
    return stages.final_rows(d, scoring.standings(d["players"], score_pairings(swiss_only), scoring_of(d)))


def tiebreaks(d: dict) -> tuple[str, ...]:
    """The tiebreak columns of the league's preset, in order."""
    return scoring.TIEBREAKS[scoring_of(d)]


def places(rows: list) -> list[int]:
    """The place of each row of a table (best first): players equal on points and every
    tiebreak share a place, and the next place skips as many (1, 2, 2, 4) — sign-up order only
    decides who is printed first.  Rows of :func:`table` carry their place; rows of
    :func:`standings` (the chess preset's own) are compared here."""
    if rows and hasattr(rows[0], "place"):
        return [r.place for r in rows]
    out: list[int] = []
    for i, s in enumerate(rows):
        key = (s.points, s.buchholz, s.sonneborn_berger, s.head_to_head)
        prev = rows[i - 1] if i else None
        if prev is not None and key == (prev.points, prev.buchholz, prev.sonneborn_berger,
                                        prev.head_to_head):
            out.append(out[-1])
        else:
            out.append(i + 1)
    return out


def admit(d: dict, now: float) -> None:
    """At the start: who of those signed up plays (check-in, the player cap and its waiting list
    — the event's registration settings); without such settings everyone signed up plays.
    With check-in only checked-in players play: registered players who did not check in are
    left out, waiting-list players who checked in fill free places (:func:`host.events.entry.admit`)."""
    if d.get("registration"):
        entry.admit(d, now)


def start(d: dict, status: str, now: float, *, ratings: dict[int, float] | None = None,
          key: Any = None, pod_most: int | None = None) -> list[dict]:
    """Close sign-up and pair round 1 (or the first matches of an elimination of everyone:
    :func:`host.events.stages.plan`); returns the new pairings.  ``ratings``: the players'
    server ratings, for seeding by rating; ``key``: the league's id, stored as the seed of the
    event's random draws.  A sealed or draft event (:mod:`host.events.limited`) is split into
    pods of at most ``pod_most`` players (what its set can deal), and a draft's first round is
    paired inside each pod."""
    if status != "signup":
        raise LeagueError("leagues.err.started")
    admit(d, now)
    ids = active_ids(d)
    if len(ids) < 2:
        raise LeagueError("leagues.err.too_few", n=len(ids))
    elimination = d["format"] != "rr" and stages.plan(d, len(ids))
    if key is not None:
        d["draw_seed"] = str(key)
    if limited_events.limited_of(d) is not None:
        d["pods"] = limited_events.make_pods(ids, stages.seed_key(d, "pods"),
                                             limited_events.MOST if pod_most is None else pod_most)
    if d["format"] == "rr":
        if _pods_pair_first(d):
            ids = limited_events.circle_order(limited_events.round_one(d["pods"], stages.seed_key(d, "round1")))
        d["schedule"] = [[[a, b] for a, b in rnd] for rnd in round_robin(ids)]
    paired = stages.open_elimination(d, now, ratings) if elimination else _pair_round(d, 1, now)
    bestof.attach(d, now)         # best of 3 or 5, the round's time limit
    return paired


def _pair_round(d: dict, rnd: int, now: float) -> list[dict]:
    d["round"] = rnd
    active = set(active_ids(d))
    out = []
    if d["format"] == "rr":
        for a, b in d["schedule"][rnd - 1]:
            p = add_pairing(d, rnd, a, b, now)
            # a dropped player's scheduled games are forfeited to the opponent
            if b is not None and (a not in active or b not in active):
                if a not in active and b not in active:
                    p["result"] = "double"
                else:
                    p["result"] = "b" if a not in active else "a"
                p["how"] = "drop"
            elif b is None and a not in active:
                p["result"], p["how"] = "double", "drop"
            out.append(p)
        return out
    if rnd == 1 and _pods_pair_first(d):       # a draft event: the first round inside each pod
        for a, b in limited_events.round_one(d["pods"], stages.seed_key(d, "round1")):
            out.append(add_pairing(d, rnd, a, b, now))
        return out
    rows = table(d)
    ranked = [s.user_id for s in rows if s.user_id in active]
    points = {s.user_id: s.points for s in rows}
    played = {frozenset((p["a"], p["b"])) for p in d["pairings"] if p["b"] is not None}
    had_bye = {p["a"] for p in d["pairings"] if p["b"] is None}
    for a, b in swiss_pairings(ranked, played, had_bye, points, stages.seed_key(d, f"swiss-{rnd}")):
        out.append(add_pairing(d, rnd, a, b, now))
    return out


def _pods_pair_first(d: dict) -> bool:
    """Whether the first round is paired inside the pods: a draft event with more than one pod
    (one pod pairs as any event does)."""
    return limited_events.limited_of(d) == "draft" and len(d.get("pods") or []) > 1


def round_complete(d: dict) -> bool:
    return all(p["result"] is not None and not p["held"] for p in round_pairings(d))


def advance(d: dict, now: float, *, by_hand: bool = False) -> tuple[str, list[dict]]:
    """After a result: ``("finished", [])`` when the last round is complete, ``("paired",
    pairings)`` when the next round was paired, ``("wait", [])`` otherwise.  After the last
    round a league with a cut pairs its top cut; in a bracket, every match whose two players
    are known is paired at once, and the event is finished when it has a champion
    (:mod:`host.events.stages`).  A league whose organiser pairs by hand (``pair_by_hand``)
    waits at a complete round (``d["round_ready"]``: its number) until ``by_hand`` — the
    organiser's ``/league-admin next-round``."""
    state, paired = _advance(d, now, by_hand)
    bestof.attach(d, now)         # the new pairings' series (best of 3 or 5) and time limits
    return state, paired


def _advance(d: dict, now: float, by_hand: bool = False) -> tuple[str, list[dict]]:
    if d.get("bracket"):
        return stages.advance(d, now)
    if not d["round"] or not round_complete(d):
        return "wait", []
    more = d["round"] < stages.own_rounds(d) or stages.cut_due(d)
    if d.get("pair_by_hand") and not by_hand and more and len(active_ids(d)) >= 2:
        d["round_ready"] = d["round"]       # the organiser pairs the next round (or the cut)
        return "wait", []
    paired: list[dict] = []
    while True:
        if d["round"] >= stages.own_rounds(d) or len(active_ids(d)) < 2:
            if stages.cut_due(d):
                state, more = stages.start_cut(d, now, table(d))
                return state, paired + more
            return "finished", paired
        paired += _pair_round(d, d["round"] + 1, now)
        if not round_complete(d):   # a round decided in advance (drops, byes) is skipped over
            return "paired", paired


def pairing_of(d: dict, user_id: int) -> dict | None:
    """The user's open pairing in the current round (no result yet)."""
    for p in round_pairings(d):
        if user_id in (p["a"], p["b"]) and p["b"] is not None and p["result"] is None:
            return p
    return None


def report(d: dict, status: str, pairing_id: int, by: int, outcome: str, organiser: bool,
           score: str | None = None, now: float = 0.0) -> str:
    """A result report.  ``outcome`` is 'win'/'loss'/'draw' from ``by``'s side (with the game
    score for best of 3 or 5: :func:`host.events.reports.report`), or for an organiser
    'a'/'b'/'draw'/'double'.  Returns 'final', 'waiting' (one side reported) or 'held' (the two
    sides disagree: an organiser decides).  An elimination match has a winner: a draw (or a
    double forfeit) is refused there."""
    if not organiser:
        return reports.report(d, status, pairing_id, by, outcome, score, now)
    if status != "running":
        raise LeagueError("leagues.err.not_running")
    p = pairing(d, pairing_id)
    if p["b"] is None:
        raise LeagueError("leagues.err.bye_pairing")
    if outcome not in ("a", "b", "draw", "double"):
        raise LeagueError("leagues.err.bad_result")
    stages.refuse_draw(p, outcome)
    p["result"], p["how"], p["held"] = outcome, "organiser", False
    reports.decided_games(p)          # the game score of the report the organiser agrees with
    return "final"


def match_result(d: dict, pairing_id: int, match_id: int, winners: list[int],
                 seated: list[int] | None = None, first: int | None = None) -> bool:
    """A bot match of this pairing finished (``winners``: user ids; ``seated``: everyone who
    sat in it; ``first``: who moved first, when the match says).  False if ignored: the pairing
    already has a result, the match is not the pairing's, or it was not the two players of the
    pairing alone (someone else sat in, or won) — then the players report it, or an organiser
    decides.  A drawn match of an elimination pairing is played again: the pairing stays open
    (True the first time it is told).  A pairing played best of 3 or 5 records the game in its
    series and stays open until the series is decided (:func:`host.events.bestof.record_match`)."""
    p = next((p for p in d["pairings"] if p["id"] == int(pairing_id)), None)
    if p is None or p["match"] != int(match_id) or p["result"] is not None:
        return False
    pair = {p["a"], p["b"]}
    if (seated is not None and set(seated) != pair) or not set(winners) <= pair:
        return False
    if p.get("series") is not None:
        return bestof.record_match(d, p, match_id, winners, first)
    if not winners or set(winners) == pair:
        if p.get("bracket"):
            return stages.replay(p, match_id)
        p["result"] = "draw"
    else:
        p["result"] = "a" if p["a"] in winners else "b"
    p["how"], p["held"] = "match", False
    return True


def claim(d: dict, status: str, pairing_id: int, by: int, now: float, match_active: bool, *,
          begun: bool = False, challenger: int | None = None) -> str:
    """A forfeit claim after the deadline.  'final' (the claimant wins) or 'held' (both sides
    claimed: an organiser decides).  A league with the no-show rule (``no_show_minutes``) takes
    a no-show claim first (:func:`host.events.entry.no_show`: a game win, then the match; 'noted'
    when a game claim does not decide a longer match): ``begun`` — a game of the pairing has
    begun; ``challenger`` — who made the pairing's challenge still waiting to be accepted."""
    p = own_open_pairing(d, status, pairing_id, by)
    if d.get("no_show_minutes"):
        state = entry.no_show(d, p, by, now, begun=begun or match_active, challenger=challenger)
        if state is not None:
            return state
    if p["deadline"] is None or now < p["deadline"]:
        raise LeagueError("leagues.err.before_deadline", pairing=p["id"],
                          at=int(p["deadline"]) if p["deadline"] else 0)
    if match_active:
        raise LeagueError("leagues.err.match_running", match_id=p["match"])
    if by in p["claims"]:
        raise LeagueError("leagues.err.already_claimed")
    p["claims"].append(by)
    if len(p["claims"]) == 2:
        p["held"] = True
        return "held"
    p["result"], p["how"] = ("a" if by == p["a"] else "b"), "forfeit"
    return "final"


def forfeit(d: dict, status: str, pairing_id: int, loser: int | None) -> None:
    """Organiser: ``loser`` forfeits (None: both, a double forfeit)."""
    if status != "running":
        raise LeagueError("leagues.err.not_running")
    p = pairing(d, pairing_id)
    if p["b"] is None:
        raise LeagueError("leagues.err.bye_pairing")
    if loser is None:
        stages.refuse_draw(p, "double")
        p["result"] = "double"
    elif loser in (p["a"], p["b"]):
        p["result"] = "b" if loser == p["a"] else "a"
    else:
        raise LeagueError("leagues.err.not_in_pairing", pairing=p["id"])
    p["how"], p["held"] = "forfeit", False


def drop(d: dict, status: str, user_id: int, removed: bool, now: float = 0.0) -> list[dict]:
    """A player leaves (or is removed).  In sign-up they are simply taken off the list (with a
    player cap, the first on the waiting list moves up: :func:`host.events.entry.leave`); once
    running, their open pairings in the current round are forfeited to the opponent and they
    are paired no more (their results stay for the tiebreaks).  Returns the pairings decided."""
    if status == "signup" and d.get("registration"):
        entry.leave(d, user_id, now)
        return []
    p = player(d, user_id)
    if p is None or p["status"] != "active":
        raise LeagueError("leagues.err.not_member")
    if status == "signup":
        d["players"].remove(p)
        return []
    if status not in ("running",):
        raise LeagueError("leagues.err.not_running")
    p["status"] = "removed" if removed else "dropped"
    if d.get("registration"):
        entry.drop(d, user_id, now)
    decided = []
    for q in round_pairings(d):
        if user_id not in (q["a"], q["b"]) or q["result"] is not None:
            continue
        if q["b"] is None:
            q["result"], q["how"] = "double", "drop"
        else:
            q["result"] = "b" if q["a"] == user_id else "a"
            q["how"], q["held"] = "drop", False
        decided.append(q)
    return decided


def overdue(d: dict, now: float) -> list[dict]:
    """Open pairings of the current round past their deadline, not yet announced."""
    return [p for p in round_pairings(d) if p["result"] is None and p["b"] is not None
            and p["deadline"] is not None and now >= p["deadline"] and not p.get("overdue")]
