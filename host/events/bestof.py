"""A league pairing played best of 1, 3 or 5: the glue between the league document
(:mod:`host.leagues`) and the pure series of games (:mod:`host.events.series`).  Pure and
synchronous like both: times are given as ``now``; errors are :class:`host.leagues.LeagueError`
(catalog keys ``events.err.…`` / ``events.series.err.…``) and the caller works on a copy.

The rules (the project's rulings)
---------------------------------
* Each stage plays best of 1, 3 or 5: ``best_of`` for the Swiss or round-robin rounds and for an
  elimination of everyone, ``cut_best_of`` for a top cut (both 1 by default, and for a league
  stored without them).  A best-of-one pairing is played as before (one bot match, the game's
  own random draw for who moves first); a longer one carries a series (``p["series"]``).
* Its games are bot matches started one after another in the same thread.  Who moves first in
  game 1: a recorded seeded draw in the Swiss (seed ``"<league>-<pairing>"``), the higher seed's
  choice in a bracket; then the loser of a game chooses for the next (after a drawn game, whoever
  chose for it chooses again); SQUARES keeps its ruling that the previous winner moves second
  (nobody is asked).
* The pairing's result is its game score: more games won wins the match, equal is a match draw.
  In a bracket a drawn series is impossible: drawn games do not count toward the wins needed
  (the series is *decisive*), so it goes on until someone has won the majority.
* A no-show game claim counts as one game won in the series (:func:`forfeit_game`); a match
  claim decides the pairing (:mod:`host.events.entry`).
* A round time limit (``round_minutes``; organisers extend one pairing, :func:`extend`): when it
  runs out, an unfinished game counts as drawn and the result counts the games so far
  (:func:`time_out`) — in the Swiss and round robin.  In a bracket a time-out decides nothing:
  the pairing is marked (``time_up``) and the organiser decides.

League keys: ``best_of``, ``cut_best_of`` (1, 3, 5), ``round_minutes`` (None: no limit).
Pairing keys: ``best_of`` (3 or 5, only on a series), ``series`` (:mod:`host.events.series`),
``games`` (each game's result, ``"a"``/``"b"``/``"draw"``, kept in step), ``ends_at`` (the time
limit, epoch seconds), ``extended`` (minutes added), ``time_up`` (a bracket pairing whose time
ran out, told once), ``prompted`` (the game number whose choice was asked for), ``starting``
(``{"n", "at"}`` while the bot starts game n), and ``how == "time"`` for a result at the time limit.

>>> d = {"best_of": 3, "cut_best_of": 1}
>>> stage_best_of(d, {}), stage_best_of(d, {"stage": "cut"})
(3, 1)
>>> first_options("avalon", 1), first_options("maken", 0)
({'leader': 1}, {'first': 0})
"""
from __future__ import annotations

from typing import Any

from data import i18n
from host.events import series as S
from host.events.document import LeagueError, round_pairings

BEST_OFS = S.BEST_OF
SETTINGS = ("best_of", "cut_best_of", "round_minutes")
MAX_ROUND_MINUTES = 7 * 24 * 60
# the option of a game that says which seat moves first (0-based): "first", Avalon's "leader"
FIRST_OPTION = {"avalon": "leader"}
STARTING_TTL = 120.0          # a start of the next game older than this was interrupted


def _err(e: S.SeriesError, d: dict) -> LeagueError:
    return LeagueError(i18n.game_key(e.key, d.get("game")), **e.params)


# ---------------------------------------------------------------------------- settings
def settings(d: dict) -> dict:
    return {"best_of": int(d.get("best_of") or 1), "cut_best_of": int(d.get("cut_best_of") or 1),
            "round_minutes": d.get("round_minutes")}


def configure(d: dict, status: str, **changes: Any) -> list[str]:
    """``/league-admin settings``: best of N for the rounds and for the top cut, the round time
    limit (None clears it).  During sign-up; while the event runs, the round time limit (the
    rounds paired from then on) and the top cut's best of N before the cut.  Returns the
    settings changed."""
    unknown = set(changes) - set(SETTINGS)
    if unknown:
        raise TypeError(f"unknown settings: {sorted(unknown)}")
    if not changes:
        return []
    old = settings(d)
    new = dict(old, **changes)
    moved = {k for k in SETTINGS if new[k] != old[k]}
    # while the event runs: the round time limit (for the rounds paired from then on) and the
    # top cut's best of N until the cut begins; best of N for the rounds only in sign-up
    running_ok = {"round_minutes"} | ({"cut_best_of"} if not d.get("bracket") else set())
    if status != "signup" and (status != "running" or moved - running_ok):
        raise LeagueError("events.reg.err.settings_started")
    for k in ("best_of", "cut_best_of"):
        if isinstance(new[k], bool) or new[k] not in BEST_OFS:
            raise LeagueError("events.err.best_of", best_of=new[k])
    minutes = new["round_minutes"]
    if minutes is not None and (isinstance(minutes, bool) or not isinstance(minutes, int)
                                or not 1 <= minutes <= MAX_ROUND_MINUTES):
        raise LeagueError("events.err.bad_minutes")
    changed = [k for k in SETTINGS if new[k] != old[k]]
    for k in changed:
        d[k] = new[k]
    return changed


def stage_best_of(d: dict, p: dict) -> int:
    """Best of how many games pairing ``p`` is played: the top cut's setting for a cut pairing,
    the rounds' for any other (a bracket of everyone included)."""
    key = "cut_best_of" if p.get("stage") == "cut" else "best_of"
    return int(d.get(key) or 1)


def first_options(game: str, seat: int) -> dict:
    """The match option that makes seat ``seat`` (0-based) move first."""
    return {FIRST_OPTION.get(game, "first"): int(seat)}


def first_of_match(game: str, options: dict, seats: list) -> int | None:
    """Who moved first in a match started with the first-player option, else None."""
    seat = (options or {}).get(FIRST_OPTION.get(game, "first"))
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(seats):
        return seats[seat]
    return None


# ---------------------------------------------------------------------------- pairings
def _seeds(d: dict, p: dict) -> tuple[int | None, int | None]:
    b = d.get("bracket") or {}
    seeds = list(((b.get("structure") or {}).get("seeds")) or [])
    return tuple(seeds.index(u) + 1 if u in seeds else None for u in (p["a"], p["b"]))  # type: ignore[return-value]


def attach(d: dict, now: float) -> list[dict]:
    """Every open pairing not yet set up gets its series (when its stage plays more than one
    game) and its time limit (when the league has one).  Returns the pairings given a series."""
    out = []
    minutes = d.get("round_minutes")
    for p in d["pairings"]:
        if p["b"] is None or p.get("result") is not None:
            continue
        if minutes and p.get("ends_at") is None:
            p["ends_at"] = now + int(minutes) * 60
        n = stage_best_of(d, p)
        if n <= 1 or p.get("series") is not None:
            continue
        elimination = bool(p.get("bracket"))
        p["best_of"] = n
        p["series"] = S.new(p["a"], p["b"], n, elimination=elimination, decisive=elimination,
                            seeds=_seeds(d, p), game=d["game"], seed=f"{d.get('draw_seed', '')}-{p['id']}")
        out.append(p)
    return out


def series_of(p: dict) -> dict | None:
    return p.get("series")


def played(p: dict) -> bool:
    """Whether a game of the pairing's series was played as a bot match (so it has a thread)."""
    s = p.get("series")
    return bool(s) and any(g.get("match") for g in s["games"])


def number(p: dict) -> int:
    """The number of the pairing's next game (1 for the first)."""
    s = p.get("series")
    return len(s["games"]) + 1 if s else 1


def _sync(p: dict, how: str) -> None:
    """The pairing's games in step with its series; its result once the series is over."""
    s = p["series"]
    p["games"] = [g["result"] for g in s["games"]]
    if S.over(s):
        p["result"], p["how"], p["held"] = S.result(s), how, False


def record_match(d: dict, p: dict, match_id: int, winners: list[int], first: int | None = None) -> bool:
    """A bot match of a series pairing finished (``winners``: user ids; ``first``: who moved first
    in it, when the match says): the game is recorded, and the pairing decided once the series is.
    False when the match was counted already (or the series cannot take it)."""
    s = p["series"]
    if any(g.get("match") == int(match_id) for g in s["games"]):
        return False
    pair = {p["a"], p["b"]}
    res = "draw" if not winners or set(winners) == pair else ("a" if p["a"] in winners else "b")
    if s["first"] is None and first in pair:
        s["first"], s["how"] = first, "played"      # a game started without the series' decision
    try:
        S.record_game(s, res, int(match_id))
    except S.SeriesError:
        return False
    _sync(p, "match")
    return True


def forfeit_game(d: dict, p: dict, by: int) -> str:
    """A no-show game claim by ``by`` in a longer match: one game won in the series.  ``"final"``
    when that decides the pairing, else ``"noted"``."""
    s = p.get("series")
    side = "a" if by == p["a"] else "b"
    if s is None:             # no series to count it in: the claim is kept (``p["no_show"]``)
        return "noted"
    try:
        S.record_game(s, side, None, forfeit=True)
    except S.SeriesError as e:
        raise _err(e, d) from None
    _sync(p, "forfeit")
    return "final" if p["result"] is not None else "noted"


def choose(d: dict, p: dict, by: int, play_first: bool) -> None:
    """The chooser of the next game decides to move first or second."""
    s = p.get("series")
    if s is None or p.get("result") is not None:
        raise LeagueError("events.err.series_over")
    if by not in (p["a"], p["b"]):
        raise LeagueError("leagues.err.not_yours", pairing=p["id"])
    try:
        S.choose(s, by, play_first)
    except S.SeriesError as e:
        raise _err(e, d) from None


def first_for_play(d: dict, p: dict) -> int | None:
    """Who moves first in the pairing's next game when a player starts it: None for a best-of-one
    pairing (the game's own draw); refused while the chooser has not chosen."""
    s = p.get("series")
    if s is None:
        return None
    if S.over(s):
        raise LeagueError("events.err.series_over")
    chooser = S.chooser(s)
    if chooser is not None:
        raise LeagueError(i18n.game_key("events.series.err.choose_first", d.get("game")), name=name(d, chooser),
                          n=number(p))
    return S.first_player(s)


def time_due(d: dict, now: float) -> list[dict]:
    """Open pairings whose time limit has run out, not yet handled."""
    return [p for p in round_pairings(d) if p["b"] is not None and p.get("result") is None
            and p.get("ends_at") is not None and now >= p["ends_at"] and not p.get("time_up")]


def time_out(d: dict, p: dict, unfinished: bool, match_id: int | None = None) -> None:
    """The time limit of a Swiss or round-robin pairing ran out: an ``unfinished`` game (its bot
    match aborted) counts as drawn, and the result counts the games so far (0–0: a draw)."""
    if p.get("bracket"):
        raise LeagueError("events.series.err.time_elimination", pairing=p["id"])
    s = p.get("series")
    if s is None:
        p["games"] = ["draw"] if unfinished else []
        p["result"], p["how"], p["held"] = "draw", "time", False
        return
    try:
        S.time_out(s, unfinished, match_id=match_id)
    except S.SeriesError as e:
        raise _err(e, d) from None
    _sync(p, "time")


def time_up(p: dict, now: float) -> None:
    """A bracket pairing's time ran out: nothing is decided, the organiser is told (once)."""
    p["time_up"] = now


def extend(d: dict, p: dict, minutes: int, now: float) -> float:
    """An organiser gives one pairing ``minutes`` more (after its time ran out in a bracket: from
    now).  Returns the new end."""
    if p["b"] is None or p.get("result") is not None:
        raise LeagueError("leagues.err.already_reported", pairing=p["id"])
    if p.get("ends_at") is None:
        raise LeagueError("events.series.err.no_limit")
    base = max(float(p["ends_at"]), now) if p.get("time_up") else float(p["ends_at"])
    try:
        p["ends_at"] = S.extend(base, minutes)
    except S.SeriesError as e:
        raise _err(e, d) from None
    p["extended"] = int(p.get("extended") or 0) + int(minutes)
    p.pop("time_up", None)
    return p["ends_at"]


def games_of(p: dict) -> list[str]:
    """The pairing's games, each ``"a"``, ``"b"`` or ``"draw"`` (its own list, kept in step with
    its series; a match claim's is empty)."""
    if "games" in p:
        return list(p.get("games") or [])
    s = p.get("series")
    return [g["result"] for g in s["games"]] if s else []


# ---------------------------------------------------------------------------- words
def name(d: dict, uid: int | None) -> str:
    return next((q.get("name") or str(uid) for q in d.get("players", []) if q["id"] == uid), str(uid))


def score(games: list[str], first: str = "a") -> str:
    """"2–1", "1–1–1": ``first``'s wins, the other's, then the draws when there are any."""
    other = "b" if first == "a" else "a"
    parts = [games.count(first), games.count(other)]
    if "draw" in games:
        parts.append(games.count("draw"))
    return S.DASH.join(str(x) for x in parts)


def result_words(p: dict, names: dict[int, str], locale: str) -> str | None:
    """The state of a series pairing in words — "Alice 2–1 Bob" (the winner first), "Alice 1–1–1
    Bob", "Alice 1–0 Bob, game 2 next" — or None when the plain words fit (a best-of-one pairing,
    a forfeit, an organiser's result)."""
    s = p.get("series")
    scored = bool(p.get("scored")) and p.get("how") in ("report", "organiser")   # a reported game score
    if s is None and not scored and (p.get("how") != "time" or "games" not in p):
        return None
    res = p.get("result")
    games = games_of(p)
    a, b = names.get(p["a"], "?"), names.get(p.get("b"), "?")
    if res is None:
        if not games:
            return None
        return i18n.t("events.series.result.open", locale, a=a, b=b, score=score(games), n=len(games) + 1)
    if p.get("how") not in ("match", "time") and not scored:
        return None
    if p.get("how") == "time" and not games:
        return i18n.t("events.series.result.time_none", locale)
    if res == "draw":
        text = i18n.t("events.series.result.draw", locale, a=a, b=b, score=score(games))
    else:
        winner, loser = (a, b) if res == "a" else (b, a)
        text = i18n.t("events.series.result.win", locale, winner=winner, loser=loser, score=score(games, res))
    if p.get("how") == "time":
        text = i18n.t("events.series.result.timed", locale, result=text)
    return text


def lead(d: dict, p: dict, locale: str) -> str:
    """"Alice leads 1–0", "level at 1–1" (game 1: "no game played yet")."""
    games = games_of(p)
    if not games:
        return i18n.t("events.series.lead.none", locale)
    wa, wb = games.count("a"), games.count("b")
    if wa == wb:
        return i18n.t("events.series.lead.level", locale, score=score(games))
    side = "a" if wa > wb else "b"
    return i18n.t("events.series.lead.ahead", locale, name=name(d, p[side]), score=score(games, side))


def game_words(p: dict, locale: str, n: int | None = None) -> str:
    """"Game 2 of 3" / 「第2ゲーム（2本先取）」: the pairing's next game (or game ``n``)."""
    s = p.get("series") or {}
    return i18n.t(f"events.series.game.{int(s.get('best_of') or 1)}", locale, n=number(p) if n is None else n)


def format_words(best_of: int, locale: str) -> str:
    """"best of 3" / 「2本先取（3ゲーム）」."""
    return i18n.t(f"events.series.best_of.{int(best_of)}", locale)


def prompt_text(d: dict, p: dict, locale: str) -> str:
    """"Game 2 of 3 (Alice leads 1–0): <@Bob>, choose who moves first (pairing #4)."."""
    s = p["series"]
    chooser = S.chooser(s)
    key = "events.series.prompt_seed" if not s["games"] and s.get("elimination") else "events.series.prompt"
    return i18n.t(i18n.game_key(key, d.get("game")), locale, game=game_words(p, locale), lead=lead(d, p, locale),
                  mention=f"<@{chooser}>", pairing=p["id"])


def first_text(d: dict, p: dict, locale: str) -> str:
    """Who moves first in the next game and why: the random draw, a choice, SQUARES' rule."""
    s = p["series"]
    how = s.get("how") if s.get("how") in ("random", "choice", "squares", "played") else "random"
    key = i18n.game_key(f"events.series.first.{how}", d.get("game"))    # SQUARES: 先番
    return i18n.t(key, locale, game=game_words(p, locale), lead=lead(d, p, locale),
                  name=name(d, S.first_player(s)), chooser=name(d, s.get("chooser")), pairing=p["id"])


def settings_lines(d: dict, locale: str) -> list[str]:
    s = settings(d)
    out = [i18n.t("events.series.set.best_of", locale, format=format_words(s["best_of"], locale)),
           i18n.t("events.series.set.cut_best_of", locale, format=format_words(s["cut_best_of"], locale))]
    out.append(i18n.t("events.series.set.round_minutes", locale, minutes=s["round_minutes"])
               if s["round_minutes"] else i18n.t("events.series.set.round_minutes_none", locale))
    return out


def summary_lines(d: dict, locale: str) -> list[str]:
    """The league message's lines (none at the defaults)."""
    s = settings(d)
    out = []
    if s["best_of"] > 1 or s["cut_best_of"] > 1:
        out.append(i18n.t("events.series.embed.best_of", locale, format=format_words(s["best_of"], locale),
                          cut=format_words(s["cut_best_of"], locale)))
    if s["round_minutes"]:
        out.append(i18n.t("events.series.embed.round_minutes", locale, minutes=s["round_minutes"]))
    return out


# ---------------------------------------------------------------------------- the trail
def _entry(what: str, at: float, by: int | None, params: dict, before: Any = None, after: Any = None) -> dict:
    return {"at": float(at), "by": by, "what": what, "params": params, "before": before, "after": after}


def trail_changes(before: dict, after: dict, *, at: float, by: int | None) -> tuple[list[dict], set[int]]:
    """The trail entries of one write about best-of-N play (:func:`host.events.trail.changes`
    adds them): a setting changed, the random draw for game 1, each game recorded (won, drawn,
    by a no-show, unfinished at the time limit), each choice, an extension, a bracket pairing's
    time running out.  Also returns the pairings these entries tell, so an unchanged result is
    not told again."""
    out: list[dict] = []
    quiet: set[int] = set()
    game = after.get("game")        # who moves first, said in the game's words (SQUARES: 先番)
    drawn = i18n.game_key("events.trail.first_drawn", game)
    s0, s1 = settings(before), settings(after)
    for k in SETTINGS:
        if s0[k] != s1[k]:
            value = s1[k]
            what = f"events.series.trail.set.{k}" + ("_off" if value is None else "")
            params: dict[str, Any] = {} if value is None else {"value": int(value)}
            if k != "round_minutes":
                params["kind"] = f"events.series.best_of.{int(value)}"     # said in the reader's words
            out.append(_entry(what, at, by, params, s0[k], value))
    old = {p["id"]: p for p in before.get("pairings", [])}
    for q in after.get("pairings", []):
        p = old.get(q["id"])
        base = {"pairing": q["id"], "round": q["round"], "a": q["a"], "b": q["b"]}
        s = q.get("series")
        was = (p or {}).get("series")
        if s is not None:
            if was is None and s["games"] == [] and s.get("how") == "random":
                out.append(_entry(drawn, at, None, {**base, "n": 1, "player": s["first"], "seed": s["seed"]},
                                  None, {"first": s["first"]}))
            done = len(was["games"]) if was else 0
            for i, g in enumerate(s["games"][done:], done + 1):
                games = [x["result"] for x in s["games"][:i]]
                params = {**base, "n": i, "score": score(games), "outcome": g["result"]}
                kind = "game_unfinished" if g.get("unfinished") else "game_forfeit" if g.get("forfeit") else "game"
                if g.get("forfeit"):
                    params["player"] = q[g["result"]]
                out.append(_entry(f"events.trail.{kind}", at, by if g.get("forfeit") else None, params, None, dict(g)))
                quiet.add(q["id"])
            if was is not None and was.get("first") is None and s.get("first") is not None and s.get("games") == was["games"]:
                if s.get("how") == "choice":
                    side = "first" if s["first"] == by else "second"
                    out.append(_entry(i18n.game_key(f"events.trail.choice_{side}", game), at, by,
                                      {**base, "n": number(q), "player": by}, None, {"first": s["first"]}))
                    quiet.add(q["id"])
            if s["games"] and (was is None or len(was["games"]) < len(s["games"])) and s.get("how") == "random" \
                    and s.get("first") is not None:
                out.append(_entry(drawn, at, None, {**base, "n": number(q), "player": s["first"], "seed": s["seed"]},
                                  None, {"first": s["first"]}))
        if p is None:
            continue
        if q.get("ends_at") is not None and p.get("ends_at") is not None and q["ends_at"] > p["ends_at"]:
            minutes = int(q.get("extended") or 0) - int(p.get("extended") or 0)
            out.append(_entry("events.trail.extend", at, by, {**base, "minutes": minutes, "until": int(q["ends_at"])},
                              {"ends_at": p["ends_at"]}, {"ends_at": q["ends_at"]}))
            quiet.add(q["id"])
        if q.get("time_up") and not p.get("time_up"):
            out.append(_entry("events.trail.time_up", at, None, base))
            quiet.add(q["id"])
    return out, quiet
