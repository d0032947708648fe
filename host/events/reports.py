"""Results played off the bot (on paper at a meetup, or a bot match that broke), reported by the
players: one reports, the other confirms — or disputes, and an organiser decides — or, when the
organiser set a time (``confirm_minutes``), the bot confirms a report nobody answered.  Pure and
synchronous like :mod:`host.leagues`; errors are :class:`host.leagues.LeagueError` (catalog keys
``events.report.…``) and the caller works on a copy.

The rules (the project's rulings)
---------------------------------
* A report names the result from the reporter's side (win, loss, draw) and, for a pairing played
  best of 3 or 5, its **game score** from the reporter's side — their games won, the opponent's,
  then drawn games when there were any ("2-1", "1-1-1"); a best-of-one report needs none (one
  game: 1-0, 0-1, or drawn).  The score is what the standings count for game-win percentages
  (:func:`host.leagues.score_pairings`), so it must be one a best of N can end with:
  nobody past the wins needed, not both at it, at most N games (a Swiss pairing stopped by the
  round's time limit counts fewer), and agreeing with the result (more games won is a win,
  equal a draw).  In a bracket the winner has the wins needed and drawn games do not count
  towards them (:mod:`host.events.bestof`), so a draw is no result there.
* The first report waits for the opponent (its reporter may still replace it).  The opponent confirms it (the Confirm button or the
  same report), and it counts; a different report, or Dispute, holds the pairing for an
  organiser, whose decision keeps the game score of the report it agrees with.
* ``confirm_minutes`` (the organiser's setting; None: never): a report left unanswered that long
  is confirmed by the bot, and the trail says so.

Pairing keys: ``reports`` (``{user id: "a"/"b"/"draw"}``, as before), ``report_games``
(``{user id: [each game, "a"/"b"/"draw"]}``, for best of 3 or 5), ``reported_at`` (when the
first report came), ``disputed`` (who disputed), ``confirmed`` (``"player"`` or ``"bot"``),
``scored`` (the pairing's ``games`` come from a report).  League key: ``confirm_minutes``.

>>> parse_score("2-1"), parse_score(" 1–1–1 ")
((2, 1, 0), (1, 1, 1))
>>> valid_scores(3, elimination=False, outcome="win")
['2-0', '2-1', '1-0']
>>> games_of_score((2, 1, 0), "b")
['b', 'b', 'a']
"""
from __future__ import annotations

import re
from typing import Any

from host.events import series as S
from host.events.bestof import stage_best_of
from host.events.document import LeagueError, own_open_pairing, pairing, relative, round_pairings
from host.events.stages import refuse_draw
from host.types import Msg

MAX_CONFIRM_MINUTES = 7 * 24 * 60
MAX_DRAWN_GAMES = 9
SCORE = re.compile(r"^\s*(\d{1,2})\s*[-–—:ー－]\s*(\d{1,2})(?:\s*[-–—:ー－]\s*(\d{1,2}))?\s*$")
OUTCOMES = ("win", "loss", "draw")


def parse_score(text: str) -> tuple[int, int, int]:
    """"2-1" / "2–1–1" / "２-１" (full-width digits too) -> (mine, theirs, drawn)."""
    import unicodedata

    m = SCORE.match(unicodedata.normalize("NFKC", str(text or ""))[:20])
    if m is None:
        raise LeagueError("events.report.err.score_format", score=str(text or "")[:20])
    return int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)


def _ok(w: int, lost: int, dr: int, best_of: int, elimination: bool) -> bool:
    need = S.needed(best_of)
    if w > need or lost > need or (w == need and lost == need) or dr > MAX_DRAWN_GAMES:
        return False
    if elimination:     # a winner with the wins needed; drawn games do not count towards them
        return (w == need) != (lost == need)
    return 1 <= w + lost + dr <= best_of


def outcome_of(score: tuple[int, int, int]) -> str:
    w, lost, _ = score
    return "win" if w > lost else "loss" if w < lost else "draw"


def valid_scores(best_of: int, *, elimination: bool, outcome: str) -> list[str]:
    """The scores without drawn games a report of ``outcome`` may give, most games first
    (for the error message; a third number adds drawn games)."""
    need = S.needed(best_of)
    out = []
    for total in range(min(best_of, 2 * need - 1), 0, -1):
        for w in range(total, -1, -1):
            score = (w, total - w, 0)
            if _ok(*score, best_of, elimination) and outcome_of(score) == outcome:
                out.append(f"{w}-{total - w}")
    return sorted(out, key=lambda s: (-max(map(int, s.split("-"))), s)) if out else out


def check_score(score: tuple[int, int, int], best_of: int, *, elimination: bool, outcome: str) -> None:
    if outcome_of(score) != outcome or not _ok(*score, best_of, elimination):
        allowed = valid_scores(best_of, elimination=elimination, outcome=outcome)
        raise LeagueError("events.report.err.score", score="-".join(map(str, score if score[2] else score[:2])),
                            format=_format(best_of), allowed=", ".join(allowed) or "-")


def _format(best_of: int) -> Msg:
    """"best of 3" / 「2本先取（3ゲーム）」, said in the reader's language."""
    return Msg(f"events.series.best_of.{int(best_of)}", {})


def games_of_score(score: tuple[int, int, int], side: str) -> list[str]:
    """A score from ``side``'s view ("a" or "b") -> the pairing's games in a/b terms."""
    other = "b" if side == "a" else "a"
    w, lost, dr = score
    return [side] * w + [other] * lost + ["draw"] * dr


def _counts(games: list[str]) -> tuple[int, int, int]:
    return games.count("a"), games.count("b"), games.count("draw")


def _best_of(d: dict, p: dict) -> int:
    return int((p.get("series") or {}).get("best_of") or stage_best_of(d, p))


def report(d: dict, status: str, pairing_id: int, by: int, outcome: str, score: str | None,
           now: float) -> str:
    """A player's report of their pairing: ``outcome`` 'win'/'loss'/'draw' from ``by``'s side,
    ``score`` the game score (needed for best of 3 or 5).  'waiting' (the first report),
    'final' (the second agrees) or 'held' (it does not: an organiser decides)."""
    if status != "running":
        raise LeagueError("leagues.err.not_running")
    p = pairing(d, pairing_id)
    if p["b"] is None:
        raise LeagueError("leagues.err.bye_pairing")
    if by not in (p["a"], p["b"]):
        raise LeagueError("leagues.err.not_yours", pairing=p["id"])
    if p["result"] is not None:
        raise LeagueError("leagues.err.already_reported", pairing=p["id"])
    if outcome not in OUTCOMES:
        raise LeagueError("leagues.err.bad_result")
    refuse_draw(p, outcome)
    best_of = _best_of(d, p)
    elimination = bool(p.get("bracket"))
    side = "a" if by == p["a"] else "b"
    games = None
    if best_of > 1:
        if score is None:
            raise LeagueError("events.report.err.score_needed", format=_format(best_of),
                                allowed=", ".join(valid_scores(best_of, elimination=elimination, outcome=outcome)))
        parsed = parse_score(score)
        check_score(parsed, best_of, elimination=elimination, outcome=outcome)
        games = games_of_score(parsed, side)
    if p.get("held"):
        raise LeagueError("events.report.err.held", pairing=p["id"])
    res = relative(p, by, outcome)      # a second report of one's own replaces the first
    p.setdefault("reports", {})[str(by)] = res
    if games is not None:
        p.setdefault("report_games", {})[str(by)] = games
    other = p["b"] if by == p["a"] else p["a"]
    theirs = p["reports"].get(str(other))
    if theirs is None:
        p["reported_at"] = float(now)
        return "waiting"
    their_games = (p.get("report_games") or {}).get(str(other))
    if theirs != res or (games is not None and their_games is not None and _counts(games) != _counts(their_games)):
        p["held"] = True
        return "held"
    _final(p, str(by), "player")
    return "final"


def _final(p: dict, reporter: str, confirmed: str) -> None:
    """The report of ``reporter`` counts: the result, and its games when it has a score."""
    games = (p.get("report_games") or {}).get(reporter)
    p["result"], p["how"], p["held"] = p["reports"][reporter], "report", False
    p["confirmed"] = confirmed
    if games is not None:
        p["games"], p["scored"] = list(games), True
    p.pop("reported_at", None)


def pending(p: dict) -> str | None:
    """The one report waiting for the opponent (its user id, as stored), else None."""
    reports = p.get("reports") or {}
    if p.get("result") is not None or p.get("held") or len(reports) != 1:
        return None
    return next(iter(reports))


def _answer(d: dict, status: str, pairing_id: int, by: int) -> tuple[dict, str]:
    """The pairing whose waiting report ``by`` (its opponent) answers, and the reporter's id."""
    p = own_open_pairing(d, status, pairing_id, by)
    reporter = pending(p)
    if reporter is None:
        raise LeagueError("events.report.err.nothing", pairing=p["id"])
    if reporter == str(by):
        raise LeagueError("events.report.err.own", pairing=p["id"])
    return p, reporter


def confirm(d: dict, status: str, pairing_id: int, by: int) -> str:
    """The opponent confirms the report waiting for them: it counts ('final')."""
    p, reporter = _answer(d, status, pairing_id, by)
    p.setdefault("reports", {})[str(by)] = p["reports"][reporter]
    if reporter in (p.get("report_games") or {}):
        p["report_games"][str(by)] = list(p["report_games"][reporter])
    _final(p, reporter, "player")
    return "final"


def dispute(d: dict, status: str, pairing_id: int, by: int) -> str:
    """The opponent says the report waiting for them is wrong: held for an organiser ('held')."""
    p, _ = _answer(d, status, pairing_id, by)
    p["held"], p["disputed"] = True, int(by)
    p.pop("reported_at", None)
    return "held"


def decided_games(p: dict) -> None:
    """An organiser decided a held pairing: the game score of the report it agrees with counts
    (a best of 3 or 5; with no agreeing report, the games played on the bot, if any)."""
    for uid, res in (p.get("reports") or {}).items():
        games = (p.get("report_games") or {}).get(uid)
        if res == p.get("result") and games is not None:
            p["games"], p["scored"] = list(games), True
            return


# ---------------------------------------------------------------------------- the bot confirms
def confirm_minutes(d: dict) -> int | None:
    minutes = d.get("confirm_minutes")
    return int(minutes) if isinstance(minutes, int) and not isinstance(minutes, bool) and minutes > 0 else None


def configure(d: dict, status: str, minutes: Any) -> list[str]:
    """``/league-admin settings confirm_minutes``: 0 or None turns it off.  Any time before
    the event ends (a report already waiting is confirmed that long after it came)."""
    if status in ("finished", "closed"):
        raise LeagueError("leagues.err.not_running")
    if minutes is not None and (isinstance(minutes, bool) or not isinstance(minutes, int)
                                or not 0 <= minutes <= MAX_CONFIRM_MINUTES):
        raise LeagueError("events.report.err.minutes", max=MAX_CONFIRM_MINUTES)
    new = minutes or None
    if new == d.get("confirm_minutes"):
        return []
    d["confirm_minutes"] = new
    return ["confirm_minutes"]


def due_at(d: dict, p: dict) -> float | None:
    """When the bot confirms the report waiting in ``p`` (None: it never does)."""
    minutes = confirm_minutes(d)
    if minutes is None or pending(p) is None or p.get("reported_at") is None:
        return None
    return float(p["reported_at"]) + minutes * 60


def due(d: dict, now: float) -> list[dict]:
    """The current round's pairings whose waiting report the bot confirms now."""
    out = []
    for p in round_pairings(d):
        at = due_at(d, p)
        if at is not None and now >= at:
            out.append(p)
    return out


def auto_confirm(d: dict, status: str, now: float) -> list[dict]:
    """The bot confirms every report left unanswered for ``confirm_minutes``; returns them."""
    if status != "running":
        return []
    done = []
    for p in due(d, now):
        reporter = pending(p)
        _final(p, reporter, "bot")
        done.append(p)
    return done


def settings_line(d: dict, locale: str) -> str:
    from data import i18n

    minutes = confirm_minutes(d)
    if minutes is None:
        return i18n.t("events.report.setting.off", locale)
    return i18n.t("events.report.setting.on", locale, minutes=minutes)
