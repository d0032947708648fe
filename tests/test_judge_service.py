"""Judge calls at an event, host side (host/judge_service.py over host/events/judge.py,
host/undo.py and host/judging.py), on a real store and host: a player's call, a judge taking it,
looking at the hands (kept in the trail), putting the match back, adding time, a warning, a game
loss in a best of three (the series records it and the standings follow), a match loss, and the
authority rule — "judges act only in their own server's events; a call from a match of another
server is refused"."""
from __future__ import annotations

import pytest

from data.store import ABORTED, ACTIVE, FINISHED
from host.events import judge as J
from host.judge_service import Judges
from host import leagues as L

from test_league_series import CH, G, ORG, _data, _first_game, _setup

JUDGE, OTHER_GUILD = 777, 55


@pytest.fixture
async def event(tmp_path):
    """A 4-player Swiss event of SQUARES, best of three, started; the first pairing's first game
    under way (its players made two moves).  The store is closed afterwards."""
    made = await _event(tmp_path)
    yield made
    await made[0].close()


async def _event(tmp_path, **kw):
    store, host, svc, clock, lid = await _setup(tmp_path, game="squares", n=4, best_of=3, **kw)
    p = (await _data(store, lid))["pairings"][0]
    mid = await _first_game(svc, host, lid, p, p["a"])
    for _ in range(2):
        rec = await store.get_match(mid)
        who = rec.seats[(await host.to_act(mid))[0]]
        assert (await host.command(mid, who, (await host.legal(mid, who))[0])).ok
    return store, host, svc, clock, lid, p, mid


async def _call(judges, mid, by, text="they moved twice"):
    res = await judges.call(mid, G, by, text)
    assert res.ok, res.error
    return res.data["call"]


async def test_a_call_is_kept_with_the_last_moves_and_taken_and_closed_by_a_judge(event):
    store, host, svc, clock, lid, p, mid = event
    judges = Judges(svc)
    c = await _call(judges, mid, p["a"])
    assert (c["status"], c["by"], c["text"], c["match"]) == ("open", p["a"], "they moved twice", mid)
    res = await judges.call(mid, G, p["b"], "again")
    assert not res.ok and res.error.key == "events.judge.err.already_called"
    res = await judges.take(lid, c["id"], G, JUDGE)
    assert res.ok and res.data["call"]["judge"] == JUDGE and res.data["call"]["status"] == "taken"
    assert [x["id"] for x in (await judges.calls(lid, G)).data["calls"]] == [c["id"]]
    assert (await judges.close(lid, c["id"], G, JUDGE)).ok
    assert (await judges.calls(lid, G)).data["calls"] == []
    kinds = [e["what"] for e in (await _data(store, lid))["trail"]]
    assert {"events.judge.trail.call_text", "events.judge.trail.take", "events.judge.trail.close"} <= set(kinds)


async def test_the_call_carries_the_last_moves_in_words(event):
    store, host, svc, clock, lid, p, mid = event
    res = await Judges(svc).call(mid, G, p["a"], "")
    assert res.ok and len(res.data["moves"]) == 2 and all(m.get("words") for m in res.data["moves"])


async def test_a_judge_who_is_not_seated_sees_every_hand_and_the_look_is_in_the_trail(event):
    store, host, svc, clock, lid, p, mid = event
    judges = Judges(svc)
    c = await _call(judges, mid, p["a"])
    res = await judges.look(lid, c["id"], G, p["b"])          # a seated player is no judge of their match
    assert not res.ok and res.error.key == "judge.err.seated"
    res = await judges.look(lid, c["id"], G, JUDGE)
    assert res.ok and sorted(u.seat for u in res.private) == [0, 1]
    looks = [e for e in (await _data(store, lid))["trail"] if e["what"] == "events.judge.trail.look"]
    assert [(e["by"], e["params"]["match"]) for e in looks] == [(JUDGE, mid)]
    assert (await judges.close(lid, c["id"], G, JUDGE)).ok
    assert (await judges.look(lid, c["id"], G, JUDGE)).error.key == "events.judge.err.closed"


async def test_a_judge_puts_the_match_back_two_moves_with_a_reason(event):
    store, host, svc, clock, lid, p, mid = event
    judges = Judges(svc)
    c = await _call(judges, mid, p["a"])
    assert (await judges.rewind(lid, c["id"], G, JUDGE, 2, "  ")).error.key == "events.judge.err.reason"
    res = await judges.rewind(lid, c["id"], G, JUDGE, 2, "moved out of turn")
    assert res.ok, res.error
    assert "put the match back 2 moves" in res.public.text[0].render("en")
    assert (await store.get_match(mid)).n_commands == 0
    undone = (await host.log(mid)).data["undone"]
    assert [(u["kind"], u["reason"]) for u in undone] == [("judge", "moved out of turn")] * 2
    rewinds = [e for e in (await _data(store, lid))["trail"] if e["what"] == "events.judge.trail.rewind"]
    assert rewinds[0]["params"]["n"] == 2 and rewinds[0]["by"] == JUDGE


async def test_a_game_loss_ends_the_game_and_the_series_and_standings_follow(event):
    store, host, svc, clock, lid, p, mid = event
    judges = Judges(svc)
    c = await _call(judges, mid, p["a"])
    before = L.pairing(await _data(store, lid), p["id"])
    assert before["series"]["games"] == []
    res = await judges.penalty(lid, c["id"], G, JUDGE, "game_loss", p["b"], "slow play, second time")
    assert res.ok, res.error
    rec = await store.get_match(mid)
    assert rec.status == FINISHED and rec.result["reason"] == "game_loss"
    assert rec.seats[rec.result["winners"][0]] == p["a"]
    after = L.pairing(await _data(store, lid), p["id"])
    assert [g["result"] for g in after["series"]["games"]] == ["a"]       # game 1 to A
    pens = (await judges.penalties(lid, G)).data["penalties"]
    assert [(x["kind"], x["player"]) for x in pens] == [("game_loss", p["b"])]
    assert (await judges.penalties(lid, G, player=p["a"])).data["penalties"] == []


async def test_a_match_loss_decides_the_pairing_and_stops_its_game(event):
    store, host, svc, clock, lid, p, mid = event
    judges = Judges(svc)
    c = await _call(judges, mid, p["a"])
    res = await judges.penalty(lid, c["id"], G, JUDGE, "match_loss", p["a"], "collusion")
    assert res.ok, res.error
    assert L.pairing(await _data(store, lid), p["id"])["result"] == "b"
    assert (await store.get_match(mid)).status == ABORTED
    assert res.data.get("stopped")


async def test_a_warning_is_only_recorded_and_time_is_added_to_the_player_on_the_clock(event):
    store, host, svc, clock, lid, p, mid = event
    judges = Judges(svc)
    c = await _call(judges, mid, p["a"])
    assert (await judges.penalty(lid, c["id"], G, JUDGE, "warning", p["a"], "table talk")).ok
    assert (await store.get_match(mid)).status == ACTIVE
    res = await judges.add_time(lid, c["id"], G, JUDGE, p["a"], 15, "connection trouble")
    # an event without a clock has no time to add: refused, in words
    assert not res.ok and res.error.key == "judge.err.no_clock"


async def test_another_servers_member_cannot_act_on_any_of_it(event):
    """"judges act only in their own server's events; a call from a match of another server is
    refused" — every entry point, from the other server, changes nothing."""
    store, host, svc, clock, lid, p, mid = event
    judges = Judges(svc)
    assert (await judges.call(mid, OTHER_GUILD, p["a"], "x")).error.key == "host.err.no_match"
    c = await _call(judges, mid, p["a"])
    before = await _data(store, lid)
    for res in (await judges.take(lid, c["id"], OTHER_GUILD, JUDGE),
                await judges.close(lid, c["id"], OTHER_GUILD, JUDGE),
                await judges.look(lid, c["id"], OTHER_GUILD, JUDGE),
                await judges.rewind(lid, c["id"], OTHER_GUILD, JUDGE, 1, "x"),
                await judges.add_time(lid, c["id"], OTHER_GUILD, JUDGE, p["a"], 5, "x"),
                await judges.penalty(lid, c["id"], OTHER_GUILD, JUDGE, "game_loss", p["a"], "x"),
                await judges.penalties(lid, OTHER_GUILD),
                await judges.calls(lid, None)):
        assert not res.ok and res.error.key == "leagues.err.no_league", res.error
    assert await _data(store, lid) == before
    assert (await store.get_match(mid)).status == ACTIVE


async def test_calls_are_for_event_matches_and_their_players(event):
    store, host, svc, clock, lid, p, mid = event
    judges = Judges(svc)
    res = await host.challenge("squares", 1, "P1", opponents=[(2, "P2")], guild_id=G, channel_id=CH)
    casual = (await host.accept(res.match.id, 2)).match.id
    assert (await judges.call(casual, G, 1, "x")).error.key == "judge.err.not_event"
    others = [u for u in (1, 2, 3, 4) if u not in (p["a"], p["b"])]
    assert (await judges.call(mid, G, others[0], "x")).error.key == "events.judge.err.not_in_match"


async def test_an_event_may_allow_takebacks_for_the_matches_it_starts(event):
    store, host, svc, clock, lid, p, mid = event
    rec = await store.get_match(mid)
    mover = rec.seats[0]
    assert (await host.takeback(mid, mover)).error.key == "undo.err.takeback_event"
    assert (await svc.settings(lid, G, ORG, takebacks=True)).ok
    assert (await _data(store, lid))["takebacks"] is True
    assert L.match_meta(await _data(store, lid), lid, p["id"])["takebacks"] is True


@pytest.mark.parametrize("text, said", [("a\x00b\u202ec", "a b c"), ("x" * 400, "x" * J.CALL_TEXT_MAX)])
async def test_a_calls_text_is_cleaned(event, text, said):
    store, host, svc, clock, lid, p, mid = event
    c = await _call(Judges(svc), mid, p["a"], text)
    assert c["text"] == said
