"""The league document's common ground: what every part of an event reads and writes the same
way — the error every rule raises (:class:`LeagueError`), the pairing results, and a league's
players and pairings looked up, added and snapshotted.  Pure and synchronous, below the parts
that use it (:mod:`host.leagues` and the modules of :mod:`host.events`).

A league is a JSON-able dict (stored as :class:`data.store.LeagueRecord.data`): ``players``
(``[{"id", "name", "status"}]`` in sign-up order), ``pairings`` (``[{"id", "round", "a", "b",
"result", "how", …}]``), ``round``, ``next_id`` … (:func:`host.leagues.new_league`).

>>> d = {"players": [{"id": 1, "name": "Ann", "status": "active"}], "pairings": [], "round": 1,
...      "next_id": 1, "deadline_hours": 0}
>>> add_pairing(d, 1, 1, None, 0.0)["result"], [p["id"] for p in round_pairings(d)]
('bye', [1])
"""
from __future__ import annotations

from typing import Any

# how a pairing was decided when it was played (one game counts); forfeits count no game
PLAYED = ("match", "report", "organiser")
# pairing results: "a"/"b" (that side won), "draw", "bye" (a rests, scores 1), "double"
# (double forfeit: nobody scores)
RESULTS = ("a", "b", "draw", "bye", "double")


class LeagueError(Exception):
    """A rule refused a change: a catalog key and its params; nothing was changed."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


# ---------------------------------------------------------------------------- players
def player(d: dict, user_id: int) -> dict | None:
    return next((p for p in d["players"] if p["id"] == int(user_id)), None)


def active_ids(d: dict) -> list[int]:
    return [p["id"] for p in d["players"] if p["status"] == "active"]


# ---------------------------------------------------------------------------- pairings
def pairing(d: dict, pairing_id: int) -> dict:
    p = next((p for p in d["pairings"] if p["id"] == int(pairing_id)), None)
    if p is None:
        raise LeagueError("leagues.err.no_pairing", pairing=pairing_id)
    return p


def own_open_pairing(d: dict, status: str, pairing_id: int, by: int) -> dict:
    """Pairing ``pairing_id`` of a running league, one that ``by`` plays (no bye) and that has no
    result yet — what a forfeit claim and an answer to a report are about; else LeagueError."""
    if status != "running":
        raise LeagueError("leagues.err.not_running")
    p = pairing(d, pairing_id)
    if by not in (p["a"], p["b"]) or p["b"] is None:
        raise LeagueError("leagues.err.not_yours", pairing=p["id"])
    if p["result"] is not None:
        raise LeagueError("leagues.err.already_reported", pairing=p["id"])
    return p


def current(d: dict) -> list[dict]:
    """The pairings of the league's current round, and every open elimination pairing of an
    earlier one (a bracket pairs a match as soon as its players are known)."""
    return [p for p in d["pairings"]
            if p["round"] == d["round"] or (p.get("bracket") and (p["result"] is None or p.get("held")))]


def round_pairings(d: dict, rnd: int | None = None) -> list[dict]:
    """The pairings of round ``rnd``; without it, the current ones (in a bracket also every
    open pairing of an earlier round: :func:`current`)."""
    if rnd is None and d.get("bracket"):
        return current(d)
    rnd = d["round"] if rnd is None else rnd
    return [p for p in d["pairings"] if p["round"] == rnd]


def round_seconds(d: dict) -> int | None:
    """How long a pairing has from when it is paired: the event's round length in days
    (``d["clock"]["round_days"]``, :mod:`host.events.clock`), else the deadline hours the league
    was made with; None: no deadline."""
    days = (d.get("clock") or {}).get("round_days")
    if days:
        return int(days) * 86400
    return int(d["deadline_hours"]) * 3600 if d.get("deadline_hours") else None


def add_pairing(d: dict, rnd: int, a: int, b: int | None, now: float) -> dict:
    """A new pairing of round ``rnd`` (``b`` None: a bye, decided at once), with the league's
    deadline from ``now`` (:func:`round_seconds`)."""
    span = round_seconds(d)
    p = {"id": d["next_id"], "round": rnd, "a": a, "b": b, "result": None, "how": None,
         "match": None, "reports": {}, "claims": [], "held": False,
         "deadline": now + span if span else None}
    d["next_id"] += 1
    if b is None:
        p["result"], p["how"] = "bye", "bye"
    d["pairings"].append(p)
    return p


def relative(p: dict, user_id: int, outcome: str) -> str:
    """'win'/'loss'/'draw' said by ``user_id`` -> 'a'/'b'/'draw'."""
    if outcome == "draw":
        return "draw"
    me = "a" if p["a"] == user_id else "b"
    other = "b" if me == "a" else "a"
    return me if outcome == "win" else other


def pairing_state(p: dict[str, Any]) -> dict[str, Any]:
    """What the trail keeps of a pairing (:mod:`host.events.trail`): its result and how it was
    reached."""
    return {"result": p.get("result"), "how": p.get("how"), "held": bool(p.get("held")),
            "reports": dict(p.get("reports") or {}), "claims": list(p.get("claims") or [])}
