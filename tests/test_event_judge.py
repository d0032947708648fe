"""Judge calls, penalties and a judge's actions at an event (host/events/judge.py): the pure
rules on a running Swiss event of four players, every refusal (and that it changes nothing),
the cleaning of what people type, the limits, and the trail lines in both languages."""
from __future__ import annotations

import copy
import doctest
import re

import pytest

from data import i18n
from host import leagues as L
from host.events import judge as J
from host.events import trail
from host.events.document import LeagueError

ALICE, BOB, CLEO, DAN = 1, 2, 3, 4
ORG, JUDGE, JUDGE2 = 90, 91, 92
NAMES = {ALICE: "Alice", BOB: "Bob", CLEO: "Cleo", DAN: "Dan", JUDGE: "Judy", JUDGE2: "Jules"}
T0 = 1_700_000_000.0


def _event() -> dict:
    """A running Swiss event of four players, round 1 paired: two pairings, each with its bot
    match (pairing 1: match 101, pairing 2: match 102)."""
    d = L.new_league(name="Cup", game="maken", fmt="swiss", rounds=3, deadline_hours=0, rated=True,
                     signup_hours=None, organiser=ORG, channel_id=None, season=1, now=T0)
    for uid in (ALICE, BOB, CLEO, DAN):
        L.join(d, "signup", uid, NAMES[uid], T0)
    L.start(d, "signup", T0)
    for p in d["pairings"]:
        p["match"] = 100 + p["id"]
    return d


def _p(d: dict, pid: int) -> dict:
    return next(p for p in d["pairings"] if p["id"] == pid)


def _players(d: dict, pid: int) -> tuple[int, int]:
    p = _p(d, pid)
    return p["a"], p["b"]


def _refused(d: dict, key: str, fn, *args, **kw) -> LeagueError:
    """``fn`` raises LeagueError ``key`` and leaves ``d`` as it was."""
    before = copy.deepcopy(d)
    with pytest.raises(LeagueError) as err:
        fn(d, *args, **kw)
    assert err.value.key == key, (err.value.key, err.value.params)
    assert d == before
    return err.value


def _judge_trail(d: dict) -> list[dict]:
    return [e for e in d["trail"] if e["what"].startswith("events.judge.")]


def _call(d: dict, *, match_id: int = 101, pairing_id: int | None = 1, by: int | None = None,
          text: str = "Opponent drew too many", now: float = T0 + 10, status: str = "running") -> dict:
    if by is None:
        by = _players(d, pairing_id or 1)[0]
    return J.call(d, status, match_id=match_id, pairing_id=pairing_id, by=by, text=text, now=now)


def test_the_modules_doctest():
    assert doctest.testmod(J).failed == 0


# ---------------------------------------------------------------------------- clean_text
def test_clean_text_makes_one_clean_line_of_at_most_the_limit():
    assert J.clean_text("  a\x00b\n\nc\td\r\u202ee\x7f  ", 50) == "a b c d e"
    assert J.clean_text("x" * 400, J.CALL_TEXT_MAX) == "x" * J.CALL_TEXT_MAX
    assert J.clean_text("abc   def", 4) == "abc"            # no space left at the cut
    assert J.clean_text(None, 10) == "" and J.clean_text("   \n\t ", 10) == ""
    assert J.clean_text("A\ud800B", 10) == "A B"              # a lone surrogate
    assert J.clean_text("家族👨\u200d👩\u200d👧", 10) == "家族👨\u200d👩\u200d👧"   # the emoji joiner stays
    assert J.clean_text(123, 10) == "123"


# ---------------------------------------------------------------------------- calls
def test_a_player_calls_a_judge_and_the_call_is_on_the_record():
    d = _event()
    a, b = _players(d, 1)
    c = _call(d, by=b, text="  He drew\x00 three\ncards  ")
    assert c == {"id": 1, "match": 101, "pairing": 1, "by": b, "text": "He drew three cards", "at": T0 + 10,
                 "status": "open", "judge": None, "taken_at": None, "closed_at": None, "staff": None}
    assert d["calls"] == [c] and c is d["calls"][0] and d["next_call"] == 2
    assert J.call_of(d, 1) is c and J.live_call(d, 101) is c and J.live_call(d, 102) is None
    assert J.open_calls(d) == [c]
    e = _judge_trail(d)[-1]
    assert e == {"at": T0 + 10, "by": b, "what": "events.judge.trail.call_text",
                 "params": {"pairing": 1, "round": 1, "a": a, "b": b, "call": 1, "match": 101,
                            "text": "He drew three cards"}, "before": None, "after": None}
    # a call with nothing written, and one without its pairing (any active player of the event)
    c2 = _call(d, match_id=102, pairing_id=None, by=CLEO, text=" \n ", now=T0 + 20)
    assert c2["id"] == 2 and c2["text"] == "" and c2["pairing"] is None
    assert _judge_trail(d)[-1]["what"] == "events.judge.trail.call"
    assert _judge_trail(d)[-1]["params"] == {"call": 2, "match": 102}
    assert J.open_calls(d) == [c, c2]


def test_what_the_caller_wrote_is_cut_to_the_limit():
    d = _event()
    c = _call(d, text="y" * 1000)
    assert c["text"] == "y" * J.CALL_TEXT_MAX


def test_call_refusals_change_nothing():
    d = _event()
    a, b = _players(d, 1)
    c, dd = _players(d, 2)
    _refused(d, "events.judge.err.not_running", J.call, "finished", match_id=101, pairing_id=1, by=a, text="",
             now=T0)
    _refused(d, "events.judge.err.not_running", J.call, "signup", match_id=101, pairing_id=1, by=a, text="", now=T0)
    # a player of the other pairing, someone who is no player, a dropped player without a pairing
    _refused(d, "events.judge.err.not_in_match", J.call, "running", match_id=101, pairing_id=1, by=c, text="",
             now=T0)
    _refused(d, "events.judge.err.not_in_match", J.call, "running", match_id=101, pairing_id=None, by=JUDGE,
             text="", now=T0)
    e = _refused(d, "leagues.err.no_pairing", J.call, "running", match_id=101, pairing_id=77, by=a, text="", now=T0)
    assert e.params == {"pairing": 77}
    first = _call(d, by=a)
    e = _refused(d, "events.judge.err.already_called", J.call, "running", match_id=101, pairing_id=1, by=b,
                 text="again", now=T0 + 30)
    assert e.params == {"call": first["id"]}
    gone = copy.deepcopy(d)
    gone["players"] = [dict(p, status="dropped") if p["id"] == dd else p for p in gone["players"]]
    _refused(gone, "events.judge.err.not_in_match", J.call, "running", match_id=102, pairing_id=None, by=dd,
             text="", now=T0)


def test_a_closed_call_lets_the_match_be_called_again():
    d = _event()
    first = _call(d)
    J.close(d, first["id"], JUDGE, T0 + 60)
    second = _call(d, now=T0 + 70)
    assert second["id"] == 2 and J.live_call(d, 101) is second


def test_at_most_open_calls_max_open_or_taken_calls_at_once():
    d = _event()
    for m in range(J.OPEN_CALLS_MAX):
        _call(d, match_id=1000 + m, pairing_id=None, by=ALICE, now=T0 + m)
    J.take(d, 1, JUDGE, T0 + 100)          # a taken call still counts
    e = _refused(d, "events.judge.err.too_many", J.call, "running", match_id=5000, pairing_id=None, by=BOB,
                 text="", now=T0 + 200)
    assert e.params == {"n": J.OPEN_CALLS_MAX}
    J.close(d, 1, JUDGE, T0 + 300)         # a closed one does not
    assert _call(d, match_id=5000, pairing_id=None, by=BOB, now=T0 + 400)["id"] == J.OPEN_CALLS_MAX + 1
    assert len(J.open_calls(d)) == J.OPEN_CALLS_MAX


def test_beyond_calls_max_only_the_oldest_closed_calls_are_let_go():
    d = _event()
    kept_open = [_call(d, match_id=900 + i, pairing_id=None, by=ALICE, now=T0 + i) for i in range(3)]
    n = J.CALLS_MAX + 40
    for i in range(n):
        c = _call(d, match_id=101, pairing_id=1, now=T0 + 10 + i)
        J.close(d, c["id"], JUDGE, T0 + 10 + i)
    calls = d["calls"]
    assert len(calls) == J.CALLS_MAX
    assert calls[:3] == kept_open and all(c["status"] == "open" for c in calls[:3])
    closed = [c["id"] for c in calls[3:]]
    last = 3 + n
    assert closed == list(range(last - (J.CALLS_MAX - 3) + 1, last + 1)), "the newest closed ones stay"
    assert d["calls_cut"] == 3 + n - J.CALLS_MAX
    assert d["next_call"] == last + 1
    # the cut ones are gone for good
    _refused(d, "events.judge.err.no_call", J.call_of, 4)
    # a new call still fits, and the open ones are still there
    _call(d, match_id=102, pairing_id=2, now=T0 + 10_000)
    assert len(d["calls"]) == J.CALLS_MAX and d["calls"][:3] == kept_open


def test_take_take_over_and_close():
    d = _event()
    c = _call(d)
    assert J.take(d, c["id"], JUDGE, T0 + 20) is c
    assert (c["status"], c["judge"], c["taken_at"]) == ("taken", JUDGE, T0 + 20)
    e = _judge_trail(d)[-1]
    assert (e["what"], e["by"], e["params"]) == ("events.judge.trail.take", JUDGE, {"call": 1, "match": 101})
    # the same judge again: nothing changes
    before = copy.deepcopy(d)
    assert J.take(d, c["id"], JUDGE, T0 + 25) is c and d == before
    # another judge takes it over: the trail names the one who had it
    J.take(d, c["id"], JUDGE2, T0 + 30)
    assert (c["status"], c["judge"], c["taken_at"]) == ("taken", JUDGE2, T0 + 30)
    e = _judge_trail(d)[-1]
    assert (e["what"], e["by"], e["params"]) == ("events.judge.trail.take_over", JUDGE2,
                                                 {"call": 1, "match": 101, "previous": [JUDGE]})
    assert "from Judy" in trail.line(e, NAMES, "en")
    # closed with a note (cleaned), by the judge who has it
    assert J.close(d, c["id"], JUDGE2, T0 + 40, note=" Gave a warning\n ") is c
    assert (c["status"], c["closed_at"], c["closed_by"], c["note"], c["judge"]) == \
        ("closed", T0 + 40, JUDGE2, "Gave a warning", JUDGE2)
    e = _judge_trail(d)[-1]
    assert (e["what"], e["params"]) == ("events.judge.trail.close_note",
                                        {"call": 1, "match": 101, "note": "Gave a warning"})
    assert J.open_calls(d) == [] and J.live_call(d, 101) is None and J.call_of(d, 1) is c
    # closing an open call nobody took: it is the closing judge's; no note, no note on the trail
    c2 = _call(d, match_id=102, pairing_id=2, now=T0 + 50)
    J.close(d, c2["id"], JUDGE, T0 + 60)
    assert (c2["status"], c2["judge"], c2["note"]) == ("closed", JUDGE, "")
    assert _judge_trail(d)[-1]["what"] == "events.judge.trail.close"
    assert _judge_trail(d)[-1]["params"] == {"call": 2, "match": 102}


def test_a_closed_or_unknown_call_is_refused():
    d = _event()
    c = _call(d)
    J.close(d, c["id"], JUDGE, T0 + 30)
    for fn, args in ((J.take, (c["id"], JUDGE2, T0 + 40)), (J.close, (c["id"], JUDGE, T0 + 40)),
                     (J.look, (c["id"], JUDGE, T0 + 40))):
        assert _refused(d, "events.judge.err.closed", fn, *args).params == {"call": c["id"]}
    for fn, args in ((J.take, (9, JUDGE, T0)), (J.close, (9, JUDGE, T0)), (J.look, (9, JUDGE, T0)),
                     (J.set_staff_ref, (9, "1:2")), (J.call_of, (9,))):
        assert _refused(d, "events.judge.err.no_call", fn, *args).params == {"call": 9}
    _refused(d, "events.judge.err.no_call", J.call_of, "nine")


def test_the_staff_post_is_kept_with_the_call():
    d = _event()
    c = _call(d)
    J.set_staff_ref(d, c["id"], "123456:789012")
    assert c["staff"] == "123456:789012"
    J.close(d, c["id"], JUDGE, T0 + 5)
    J.set_staff_ref(d, c["id"], "123456:789099")      # the post may move after the call is closed
    assert c["staff"] == "123456:789099"


def test_a_look_at_the_hands_is_on_the_trail():
    d = _event()
    c = _call(d)
    J.look(d, c["id"], JUDGE, T0 + 15)                 # an open call
    J.take(d, c["id"], JUDGE, T0 + 16)
    J.look(d, c["id"], JUDGE, T0 + 17)                 # a taken one
    looks = [e for e in _judge_trail(d) if e["what"] == "events.judge.trail.look"]
    assert [(e["at"], e["by"], e["params"]) for e in looks] == [
        (T0 + 15, JUDGE, {"call": 1, "match": 101}), (T0 + 17, JUDGE, {"call": 1, "match": 101})]
    assert c["status"] == "taken"


# ---------------------------------------------------------------------------- penalties
def test_a_warning_is_recorded_and_decides_nothing():
    d = _event()
    a, b = _players(d, 1)
    c = _call(d)
    pen = J.penalty(d, "running", kind="warning", player=b, pairing_id=1, match_id=101,
                    reason="  Slow\nplay ", by=JUDGE, now=T0 + 50, call_id=c["id"])
    assert pen == {"id": 1, "kind": "warning", "player": b, "pairing": 1, "match": 101, "reason": "Slow play",
                   "by": JUDGE, "at": T0 + 50, "call": 1}
    assert d["penalties"] == [pen] and d["next_penalty"] == 2
    assert _p(d, 1)["result"] is None
    e = _judge_trail(d)[-1]
    assert e["what"] == "events.judge.trail.warning" and e["by"] == JUDGE
    assert e["params"] == {"pairing": 1, "round": 1, "a": a, "b": b, "player": b, "name": NAMES[b],
                           "reason": "Slow play", "penalty": 1, "match": 101, "call": 1}


def test_a_game_loss_is_only_the_record():
    d = _event()
    a, b = _players(d, 1)
    pairing_before = copy.deepcopy(_p(d, 1))
    pen = J.penalty(d, "running", kind="game_loss", player=a, pairing_id=1, match_id=None, reason="Marked cards",
                    by=JUDGE, now=T0 + 60)
    assert (pen["kind"], pen["match"], pen["call"]) == ("game_loss", None, None)
    assert _p(d, 1) == pairing_before
    e = _judge_trail(d)[-1]
    assert e["what"] == "events.judge.trail.game_loss" and "match" not in e["params"] and "call" not in e["params"]


def test_a_match_loss_decides_the_pairing_as_an_organisers_forfeit_does():
    for side in ("a", "b"):
        d = _event()
        loser = _p(d, 1)[side]
        by_organiser = copy.deepcopy(d)
        L.forfeit(by_organiser, "running", 1, loser)
        pen = J.penalty(d, "running", kind="match_loss", player=loser, pairing_id=1, match_id=101,
                        reason="Hidden information", by=JUDGE, now=T0 + 70)
        assert _p(d, 1) == _p(by_organiser, 1)
        assert _p(d, 1)["result"] == ("b" if side == "a" else "a") and _p(d, 1)["how"] == "forfeit"
        assert _p(d, 2) == _p(by_organiser, 2)
        assert pen["kind"] == "match_loss" and J.penalties(d) == [pen]
        assert _judge_trail(d)[-1]["what"] == "events.judge.trail.match_loss"


def test_a_match_loss_replaces_a_result_as_a_forfeit_would_and_a_game_loss_then_is_refused():
    d = _event()
    a, b = _players(d, 1)
    _p(d, 1)["result"], _p(d, 1)["how"] = "a", "match"
    e = _refused(d, "events.judge.err.decided", J.penalty, "running", kind="game_loss", player=a, pairing_id=1,
                 match_id=101, reason="late", by=JUDGE, now=T0)
    assert e.params == {"pairing": 1}
    J.penalty(d, "running", kind="warning", player=a, pairing_id=1, match_id=None, reason="late", by=JUDGE, now=T0)
    J.penalty(d, "running", kind="match_loss", player=a, pairing_id=1, match_id=None, reason="cheating",
              by=JUDGE, now=T0)
    assert (_p(d, 1)["result"], _p(d, 1)["how"]) == ("b", "forfeit")
    # a held pairing (the reports differ) has no result yet: a game loss may still go to it
    d2 = _event()
    _p(d2, 1)["result"], _p(d2, 1)["held"] = None, True
    J.penalty(d2, "running", kind="game_loss", player=a, pairing_id=1, match_id=None, reason="x", by=JUDGE, now=T0)


def test_penalty_refusals_change_nothing():
    d = _event()
    a, b = _players(d, 1)
    c, _ = _players(d, 2)
    base = dict(player=a, pairing_id=1, match_id=101, reason="Slow play", by=JUDGE, now=T0)
    _refused(d, "events.judge.err.not_running", J.penalty, "finished", kind="warning", **base)
    _refused(d, "events.judge.err.not_running", J.penalty, "finished", kind="match_loss", **base)
    _refused(d, "events.judge.err.kind", J.penalty, "running", kind="disqualification", **base)
    _refused(d, "events.judge.err.not_in_match", J.penalty, "running", kind="match_loss", **dict(base, player=c))
    _refused(d, "events.judge.err.not_in_match", J.penalty, "running", kind="warning", **dict(base, player=JUDGE))
    for reason in ("", "   ", "\x00\n\t", None):
        _refused(d, "events.judge.err.reason", J.penalty, "running", kind="match_loss", **dict(base, reason=reason))
    _refused(d, "leagues.err.no_pairing", J.penalty, "running", kind="warning", **dict(base, pairing_id=55))
    _refused(d, "events.judge.err.no_call", J.penalty, "running", kind="match_loss", call_id=3, **base)
    # a bye
    bye = copy.deepcopy(d)
    bye["pairings"].append({"id": 9, "round": 1, "a": DAN, "b": None, "result": "bye", "how": "bye", "match": None,
                            "reports": {}, "claims": [], "held": False, "deadline": None})
    e = _refused(bye, "events.judge.err.bye", J.penalty, "running", kind="warning",
                 **dict(base, player=DAN, pairing_id=9))
    assert e.params == {"pairing": 9}
    assert "penalties" not in d and "next_penalty" not in d


def test_the_reason_is_cleaned_and_cut():
    d = _event()
    a, _ = _players(d, 1)
    pen = J.penalty(d, "running", kind="warning", player=a, pairing_id=1, match_id=None,
                    reason="r\x00" + "z" * 500, by=JUDGE, now=T0)
    assert pen["reason"] == "r " + "z" * (J.REASON_MAX - 2) and len(pen["reason"]) == 300


def test_penalties_lists_all_or_one_players_oldest_first():
    d = _event()
    a, b = _players(d, 1)
    c, dd = _players(d, 2)
    made = [J.penalty(d, "running", kind=k, player=who, pairing_id=pid, match_id=None, reason=f"r{i}",
                      by=JUDGE, now=T0 + i)
            for i, (k, who, pid) in enumerate([("warning", a, 1), ("warning", c, 2), ("game_loss", a, 1),
                                                ("warning", dd, 2)])]
    assert J.penalties(d) == made and [p["id"] for p in made] == [1, 2, 3, 4]
    assert J.penalties(d, a) == [made[0], made[2]] and J.penalties(d, b) == []
    assert J.penalties(_event()) == []


# ---------------------------------------------------------------------------- a judge's actions
def test_a_rewind_and_more_time_are_on_the_trail():
    d = _event()
    a, b = _players(d, 1)
    c = _call(d)
    J.judge_action(d, kind="rewind", call_id=c["id"], match_id=101, by=JUDGE, now=T0 + 80, reason="Misclick\n",
                   n=2)
    e = _judge_trail(d)[-1]
    assert e == {"at": T0 + 80, "by": JUDGE, "what": "events.judge.trail.rewind",
                 "params": {"n": 2, "call": 1, "match": 101, "reason": "Misclick"}, "before": None, "after": None}
    J.judge_action(d, kind="time", call_id=None, match_id=101, by=JUDGE, now=T0 + 90, reason="Judge call took long",
                   player=b, minutes=5, pairing=1)
    e = _judge_trail(d)[-1]
    assert e["what"] == "events.judge.trail.time"
    assert e["params"] == {"pairing": 1, "round": 1, "a": a, "b": b, "player": b, "name": NAMES[b], "minutes": 5,
                           "match": 101, "reason": "Judge call took long"}
    J.judge_action(d, kind="time", call_id=None, match_id=101, by=JUDGE, now=T0, reason="x", player=b,
                   minutes=J.ADD_TIME_MAX_MINUTES)


def test_judge_action_refusals_change_nothing():
    d = _event()
    _, b = _players(d, 1)
    _refused(d, "events.judge.err.reason", J.judge_action, kind="rewind", call_id=None, match_id=101, by=JUDGE,
             now=T0, reason=" \n", n=1)
    _refused(d, "events.judge.err.moves", J.judge_action, kind="rewind", call_id=None, match_id=101, by=JUDGE,
             now=T0, reason="r", n=0)
    for minutes in (0, -5, J.ADD_TIME_MAX_MINUTES + 1):
        e = _refused(d, "events.judge.err.minutes", J.judge_action, kind="time", call_id=None, match_id=101,
                     by=JUDGE, now=T0, reason="r", player=b, minutes=minutes)
        assert e.params == {"max": J.ADD_TIME_MAX_MINUTES}
    _refused(d, "events.judge.err.no_call", J.judge_action, kind="rewind", call_id=4, match_id=101, by=JUDGE,
             now=T0, reason="r", n=1)
    before = copy.deepcopy(d)
    with pytest.raises(ValueError):
        J.judge_action(d, kind="undo", call_id=None, match_id=101, by=JUDGE, now=T0, reason="r")
    with pytest.raises(TypeError):
        J.judge_action(d, kind="rewind", call_id=None, match_id=101, by=JUDGE, now=T0, reason="r", minutes=3)
    with pytest.raises(TypeError):
        J.judge_action(d, kind="time", call_id=None, match_id=101, by=JUDGE, now=T0, reason="r", player=b)
    assert d == before


# ---------------------------------------------------------------------------- in words
def _every_entry() -> tuple[dict, set[str]]:
    """An event with one trail entry of every judge kind; the texts people typed."""
    d = _event()
    a, b = _players(d, 1)
    c, dd = _players(d, 2)
    typed = {"Opponent looked at my deck", "Resolved, play on", "Slow play", "Marked cards", "Hidden information",
             "Misclick", "Call took long"}
    c1 = _call(d, text="Opponent looked at my deck")
    _call(d, match_id=102, pairing_id=2, by=c, text="", now=T0 + 11)
    J.take(d, 1, JUDGE, T0 + 12)
    J.take(d, 1, ORG, T0 + 13)              # the organiser: no player, shown as a mention
    J.look(d, 1, ORG, T0 + 14)
    J.judge_action(d, kind="rewind", call_id=1, match_id=101, by=ORG, now=T0 + 15, reason="Misclick", n=1)
    J.judge_action(d, kind="rewind", call_id=1, match_id=101, by=ORG, now=T0 + 15, reason="Misclick", n=3)
    J.judge_action(d, kind="time", call_id=1, match_id=101, by=ORG, now=T0 + 15, reason="Call took long",
                   player=a, minutes=1)
    J.judge_action(d, kind="time", call_id=None, match_id=101, by=ORG, now=T0 + 15, reason="Call took long",
                   player=b, minutes=10, pairing=1)
    J.penalty(d, "running", kind="warning", player=a, pairing_id=1, match_id=101, reason="Slow play", by=ORG,
              now=T0 + 16, call_id=c1["id"])
    J.penalty(d, "running", kind="game_loss", player=c, pairing_id=2, match_id=None, reason="Marked cards",
              by=JUDGE, now=T0 + 17)
    J.penalty(d, "running", kind="match_loss", player=dd, pairing_id=2, match_id=102, reason="Hidden information",
              by=JUDGE, now=T0 + 18)
    J.close(d, 1, ORG, T0 + 19, note="Resolved, play on")
    J.close(d, 2, JUDGE, T0 + 20)
    return d, typed


KINDS = {"call", "call_text", "take", "take_over", "look", "close", "close_note", "warning", "game_loss",
         "match_loss", "rewind", "time"}


@pytest.mark.parametrize("locale", ["en", "ja"])
def test_every_trail_entry_reads_in_words(locale):
    d, typed = _every_entry()
    entries = _judge_trail(d)
    assert {e["what"].rsplit(".", 1)[1] for e in entries} == KINDS
    for e in entries:
        assert i18n.has(e["what"]), e["what"]
        text = trail.line(e, NAMES, locale)
        assert "{" not in text and "}" not in text and "events.judge" not in text, text
        assert "None" not in text, text
        body = re.sub(r"^<t:\d+:f> ", "", text)
        assert f"<@{ORG}>" in body or e["by"] != ORG, text
        for uid in e["params"].get("previous", []):
            assert NAMES.get(uid, f"<@{uid}>") in body
        if "player" in e["params"]:
            assert NAMES[e["params"]["player"]] in body
        if "pairing" in e["params"] and "#{pairing}" in i18n.catalog(locale)[e["what"]]:
            assert f"#{e['params']['pairing']}" in body
        if locale == "ja":
            bare = body
            for word in sorted(set(NAMES.values()) | typed, key=len, reverse=True):
                bare = bare.replace(word, "")
            assert not re.search(r"[A-Za-z]", bare), text
        else:
            assert not re.search(r"[\u3040-\u30ff\u3400-\u9fff]", body), text


def test_counted_words_follow_the_number_in_english():
    d, _ = _every_entry()
    lines = [trail.line(e, NAMES, "en") for e in _judge_trail(d)]
    assert any("back 1 move:" in x for x in lines) and any("back 3 moves:" in x for x in lines)
    a, b = (NAMES[x] for x in _players(d, 1))
    assert any(f"{a} 1 minute more" in x for x in lines) and any(f"{b} 10 minutes more" in x for x in lines)
    ja = [trail.line(e, NAMES, "ja") for e in _judge_trail(d)]
    assert any("操作3回分戻した" in x for x in ja) and any(f"{b}の持ち時間を10分追加" in x for x in ja)


@pytest.mark.parametrize("locale", ["en", "ja"])
def test_the_list_lines_and_words(locale):
    d, typed = _every_entry()
    lines = [J.penalty_line(p, NAMES, locale) for p in J.penalties(d)] + \
            [J.call_line(c, locale) for c in d["calls"]]
    c = _call(d, match_id=103, pairing_id=None, by=ALICE, text="")
    J.take(d, c["id"], JUDGE, T0 + 30)
    lines.append(J.call_line(c, locale))
    lines.append(J.call_line(_call(d, match_id=104, pairing_id=None, by=BOB, text="Help"), locale))
    for x in lines:
        assert "{" not in x and "events.judge" not in x, x
        if locale == "ja":
            bare = x
            for word in sorted(set(NAMES.values()) | typed | {"Help"}, key=len, reverse=True):
                bare = bare.replace(word, "")
            assert not re.search(r"[A-Za-z]", bare), x
    assert f"<@{ORG}>" in lines[0]          # the organiser gave it: no name given, a mention
    for key in [f"events.judge.kind.{k}" for k in J.PENALTIES] + [f"events.judge.status.{s}" for s in J.STATUSES]:
        assert i18n.has(key) and i18n.t(key, locale) != key
    if locale == "en":
        assert lines[0] == f"#1 warning: Alice (pairing #1) — Slow play, by <@{ORG}>"


@pytest.mark.parametrize("locale", ["en", "ja"])
def test_every_refusal_reads_in_words(locale):
    """Every err key the module raises has its text, and its params fill every placeholder."""
    source = open(J.__file__, encoding="utf-8").read()
    keys = set(re.findall(r'"(events\.judge\.err\.\w+)"', source))
    assert keys == {f"events.judge.err.{k}" for k in ("not_running", "not_in_match", "already_called", "too_many",
                                                      "closed", "no_call", "kind", "reason", "bye", "decided",
                                                      "minutes", "moves")}
    params = {"call": 3, "n": J.OPEN_CALLS_MAX, "pairing": 2, "max": J.ADD_TIME_MAX_MINUTES}
    for key in keys:
        text = i18n.t(key, locale, **params)
        assert text != key and "{" not in text, (key, text)


def test_the_judge_module_imports_no_ring():
    """judge.py reads the trail and the league's forfeit; neither of them reads judge.py."""
    import ast
    import pathlib

    for mod in (trail, L):
        tree = ast.parse(pathlib.Path(mod.__file__).read_text(encoding="utf-8"))
        names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        names |= {f"{n.module}.{a.name}" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names}
        assert not any("judge" in x for x in names), (mod.__name__, names)
