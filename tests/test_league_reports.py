"""Issue 34, results played off the bot and the event's pinned rules edition — the pure rules
(host/events/reports.py) and the league service on a real store and host
(host.league_service.Leagues: ``report``, ``answer_report``, ``confirm_due``, ``play``).  Each
test's docstring quotes the rule it checks."""
from __future__ import annotations

import pytest

from data.store import open_store
from conftest import close_after_test
from discord_fakes import Clock
from host import Host
from host import leagues as L
from host.events import reports as RP
from host.events import trail
from host.league_service import Leagues

G, CH, ORG = 5, 6, 999


# ---------------------------------------------------------------------------- pure
def test_a_score_is_read_in_every_way_a_player_types_it():
    """"the game score from the reporter's side — their games won, the opponent's, then drawn
    games when there were any ("2-1", "1-1-1")" — full-width digits and dashes too."""
    assert RP.parse_score("2-1") == (2, 1, 0)
    assert RP.parse_score("２－０") == (2, 0, 0)
    assert RP.parse_score(" 1–1–1 ") == (1, 1, 1)
    assert RP.parse_score("2:0") == (2, 0, 0)
    for bad in ("", "two-one", "2", "2-1-1-1", "-1-2", "999-0"):
        with pytest.raises(L.LeagueError) as e:
            RP.parse_score(bad)
        assert e.value.key == "events.report.err.score_format"


def test_only_scores_a_best_of_n_can_end_with_are_taken():
    """"nobody past the wins needed, not both at it, at most N games (a Swiss pairing stopped by
    the round's time limit counts fewer), and agreeing with the result" — "In a bracket the
    winner has the wins needed and drawn games do not count towards them"."""
    ok = [((2, 0, 0), 3, False, "win"), ((2, 1, 0), 3, False, "win"), ((1, 0, 0), 3, False, "win"),
          ((1, 1, 1), 3, False, "draw"), ((1, 0, 1), 3, False, "win"), ((0, 2, 0), 3, False, "loss"),
          ((3, 2, 0), 5, False, "win"), ((2, 1, 1), 3, True, "win"), ((1, 0, 0), 1, True, "win"),
          ((0, 0, 1), 1, False, "draw")]
    for score, best_of, elim, outcome in ok:
        RP.check_score(score, best_of, elimination=elim, outcome=outcome)
    bad = [((3, 0, 0), 3, False, "win"), ((2, 2, 0), 3, False, "draw"), ((2, 1, 0), 3, False, "loss"),
           ((1, 1, 2), 3, False, "draw"), ((1, 0, 0), 3, True, "win"), ((0, 0, 0), 3, False, "draw"),
           ((1, 1, 0), 3, True, "draw")]
    for score, best_of, elim, outcome in bad:
        with pytest.raises(L.LeagueError) as e:
            RP.check_score(score, best_of, elimination=elim, outcome=outcome)
        assert e.value.key == "events.report.err.score"
    assert RP.valid_scores(3, elimination=True, outcome="win") == ["2-0", "2-1"]
    assert RP.valid_scores(5, elimination=False, outcome="loss")[:3] == ["0-3", "1-3", "2-3"]


# ---------------------------------------------------------------------------- service
pytestmark = pytest.mark.usefixtures("close_helper_stores")     # the stores the helper below opens


async def _league(tmp_path, *, best_of: int = 3, n: int = 2, fmt: str = "swiss"):
    store = close_after_test(await open_store(str(tmp_path / "reports.db")))
    clock = Clock()
    host = Host(store, now=clock, render=False)
    svc = Leagues(store, host, now=clock)
    host.on_finish.append(svc.on_finish)
    res = await svc.create(guild_id=G, channel_id=CH, organiser=ORG, name="Meetup", game="maken", fmt=fmt,
                           rounds=1, deadline_hours=0, rated=False, signup_hours=None)
    assert res.ok, res.error
    lid = res.data["league"].id
    if best_of != 1:
        assert (await svc.settings(lid, G, ORG, best_of=best_of)).ok
    for u in range(1, n + 1):
        assert (await svc.join(lid, G, u, f"P{u}")).ok
    assert (await svc.start(lid, G, by=ORG)).ok
    d = (await store.get_league(lid)).data
    p = next(q for q in d["pairings"] if q["b"] is not None)
    return store, svc, clock, lid, p


def _row(d: dict, uid: int):
    return next(r for r in L.table(d) if r.user_id == uid)


async def test_a_best_of_three_played_on_paper_is_reported_and_confirmed_with_its_game_score(tmp_path):
    """"Off-bot pairings (played on paper at a meetup) are reported by one player and confirmed
    by the other" — and "The pairing's result is its game score (2–1, 2–0 …)": the 2–1 counts
    in the game-win percentages, and the trail names who reported and who confirmed."""
    store, svc, clock, lid, p = await _league(tmp_path, n=4)      # another pairing keeps the round open
    a, b = p["a"], p["b"]
    res = await svc.report(lid, G, p["id"], a, "win", organiser=False)
    assert not res.ok and res.error.key == "events.report.err.score_needed"
    assert res.error.params["allowed"] == "2-0, 2-1, 1-0"
    res = await svc.report(lid, G, p["id"], a, "win", organiser=False, score="1-2")
    assert not res.ok and res.error.key == "events.report.err.score"
    res = await svc.report(lid, G, p["id"], a, "win", organiser=False, score="2-1")
    assert res.ok and res.data["payload"]["state"] == "waiting"
    # only the opponent answers, and only once a report waits
    res = await svc.answer_report(lid, G, p["id"], a, True)
    assert not res.ok and res.error.key == "events.report.err.own"
    res = await svc.answer_report(lid, G + 1, p["id"], b, True)          # from another server
    assert not res.ok and res.error.key == "leagues.err.no_league"
    res = await svc.answer_report(lid, G, p["id"], b, True)
    assert res.ok and res.data["payload"]["state"] == "final"
    d = res.data["league"].data
    q = L.pairing(d, p["id"])
    assert q["result"] == "a" and q["how"] == "report" and sorted(q["games"]) == ["a", "a", "b"]
    assert _row(d, a).games_won == 2 and _row(d, b).games_won == 1
    assert abs(_row(d, a).tiebreaks["gwp"] - 2 / 3) < 1e-9
    names = {u["id"]: u["name"] for u in d["players"]}
    lines = [trail.line(e, names, "en") for e in d["trail"] if e["params"].get("pairing") == p["id"]]
    na, nb = names[a], names[b]
    assert any(f"{na} reported" in x and f"{na} 2–1 {nb}" in x for x in lines), lines
    assert any(f"{nb} confirmed" in x and f"{na} 2–1 {nb}" in x for x in lines), lines
    res = await svc.answer_report(lid, G, p["id"], b, True)
    assert not res.ok and res.error.key == "leagues.err.already_reported"


async def test_a_disputed_report_is_held_and_the_organisers_decision_keeps_the_agreeing_score(tmp_path):
    """"a different report, or Dispute, holds the pairing for an organiser, whose decision keeps
    the game score of the report it agrees with" — and the trail shows the dispute and the
    decision."""
    store, svc, clock, lid, p = await _league(tmp_path)
    a, b = p["a"], p["b"]
    assert (await svc.report(lid, G, p["id"], b, "win", organiser=False, score="2-0")).ok
    res = await svc.answer_report(lid, G, p["id"], a, False)
    assert res.ok and res.data["payload"]["state"] == "held"
    res = await svc.report(lid, G, p["id"], a, "win", organiser=False, score="2-1")
    assert not res.ok and res.error.key == "events.report.err.held"
    res = await svc.report(lid, G, p["id"], ORG, "b", organiser=True)
    assert res.ok
    d = res.data["league"].data
    q = L.pairing(d, p["id"])
    assert q["result"] == "b" and q["how"] == "organiser" and q["games"] == ["b", "b"]
    names = {u["id"]: u["name"] for u in d["players"]}
    lines = [trail.line(e, names, "en") for e in d["trail"] if e["params"].get("pairing") == p["id"]]
    assert any(f"{names[a]} disputed the report of pairing" in x for x in lines), lines
    assert any("decided pairing" in x and f"{names[b]} 2–0 {names[a]}" in x for x in lines), lines


async def test_two_different_reports_hold_the_pairing(tmp_path):
    """"a different report … holds the pairing for an organiser" — a different game score
    too."""
    store, svc, clock, lid, p = await _league(tmp_path)
    assert (await svc.report(lid, G, p["id"], p["a"], "win", organiser=False, score="2-1")).ok
    res = await svc.report(lid, G, p["id"], p["b"], "loss", organiser=False, score="0-2")
    assert res.ok and res.data["payload"]["state"] == "held"


async def test_the_bot_confirms_a_report_nobody_answered_in_the_organisers_time(tmp_path):
    """"or confirmed by the bot after a time the organiser sets" (``confirm_minutes``, which an
    organiser may set while the event runs); the trail says the bot did it."""
    store, svc, clock, lid, p = await _league(tmp_path, best_of=1)
    assert await svc.confirm_due() == []
    res = await svc.settings(lid, G, ORG, confirm_minutes=30)
    assert res.ok and "confirm_minutes" in res.data["payload"]["changed"]
    res = await svc.settings(lid, G, ORG, best_of=3)              # the rest only during sign-up
    assert not res.ok
    assert (await svc.report(lid, G, p["id"], p["b"], "win", organiser=False)).ok
    clock.advance(29 * 60)
    assert await svc.confirm_due() == []
    clock.advance(2 * 60)
    [res] = await svc.confirm_due()
    d = res.data["league"].data
    q = L.pairing(d, p["id"])
    assert q["result"] == "b" and q["confirmed"] == "bot"
    assert res.data["league"].status == "finished"          # one round: the last result ends it
    entry = next(e for e in d["trail"] if e["what"] == "events.trail.confirm_auto")
    assert entry["by"] is None
    assert await svc.confirm_due() == []


async def test_an_event_pins_the_rules_edition_for_all_its_matches(tmp_path):
    """"An event pins the rules edition … for all its matches": the edition of the day the
    league was made, kept when a newer one ships; a match outside the event starts under the
    newest."""
    from rules import registry

    store, svc, clock, lid, p = await _league(tmp_path, best_of=1)
    newest = registry.get("maken").editions[-1]
    lg = await store.get_league(lid)
    assert lg.data["edition"] == newest
    # as if the league had been made before the newest edition shipped
    from dataclasses import replace
    old = registry.get("maken").editions[-3]
    await store.update_league(replace(lg, data={**lg.data, "edition": old}), lg.version)
    res = await svc.play(lid, G, p["a"], CH)
    assert res.ok, res.error
    assert res.match.meta["edition"] == old
    started = await svc.host.accept(res.match.id, p["b"])
    assert started.ok and started.match.meta["edition"] == old
    free = await svc.host.challenge("maken", 70, "X", opponents=[(71, "Y")], guild_id=G, channel_id=CH)
    assert (await svc.host.accept(free.match.id, 71)).match.meta["edition"] == newest


def test_some_settings_may_change_while_the_event_runs_and_the_rest_is_refused():
    """"While the event runs … an organiser may still change: the no-show minutes and open
    decklists, the round time limit (for the rounds paired from then on), the top cut's best of N
    (until the cut begins), confirm_minutes" — the cap, the start, check-in and the rounds' best
    of N are settled at the start."""
    from host.events import bestof as BO
    from host.events import entry as E

    d = L.new_league(name="x", game="maken", fmt="swiss", rounds=3, deadline_hours=0, rated=True,
                     signup_hours=None, organiser=ORG, channel_id=None, season=1, now=0.0)
    assert E.configure(d, "running", 100.0, no_show_minutes=10, open_decklists=True)["changed"] == \
        ["no_show_minutes", "open_decklists"]
    assert d["no_show_minutes"] == 10 and d["open_decklists"] is True
    assert BO.configure(d, "running", round_minutes=50, cut_best_of=3) == ["cut_best_of", "round_minutes"]
    assert RP.configure(d, "running", 15) == ["confirm_minutes"]
    for kw in ({"cap": 8}, {"checkin_minutes": 30}, {"start_at": 500.0}):
        with pytest.raises(L.LeagueError) as e:
            E.configure(d, "running", 100.0, **kw)
        assert e.value.key == "events.reg.err.settings_started", kw
    with pytest.raises(L.LeagueError):
        BO.configure(d, "running", best_of=3)
    d["bracket"] = {"stage": "cut"}                 # the cut has begun
    with pytest.raises(L.LeagueError):
        BO.configure(d, "running", cut_best_of=5)
    for status in ("finished", "closed"):
        with pytest.raises(L.LeagueError):
            E.configure(d, status, 100.0, no_show_minutes=5)
        with pytest.raises(L.LeagueError):
            RP.configure(d, status, 5)


async def test_the_bots_own_abort_is_not_counted_among_the_players_abort_votes(tmp_path):
    """The abort votes are the players' own: "a moderator's abort" — the bot's own abort at an
    event's round time limit (host/series_table.py, user 0) included — ends the match without
    being recorded as a vote."""
    from data.store import ABORTED
    from host.series_table import SYSTEM

    store, svc, clock, lid, p = await _league(tmp_path, best_of=1)
    res = await svc.play(lid, G, p["a"], CH)
    assert (await svc.host.accept(res.match.id, p["b"])).ok
    assert (await svc.host.abort(res.match.id, p["a"])).ok          # one player's vote
    done = await svc.host.abort(res.match.id, SYSTEM, moderator_guild=G)
    assert done.ok and done.match.status == ABORTED
    assert done.match.abort_votes == [p["a"]]
