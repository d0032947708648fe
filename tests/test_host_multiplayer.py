"""Free-for-all matches through the host (Avalon's Sanctuary, 2–4 players): when a Join is
possible (``PublicUpdate.joinable``, ``host.join_check``), resignations that put only one player
out (the host entry ``__resign__``, replayed from seed + log), timeout claims, the finishing order
feeding the ratings, and league matches that stay one against one."""
from __future__ import annotations

import pytest

from data.store import ACTIVE, FINISHED
from host import Host
from host import ratings as R
from host.records import Records
from host.table import RESIGN
from rules import registry

A, B, C, D, E = 11, 12, 13, 14, 15
game = registry.get("avalon")


@pytest.fixture
async def host(clocked_host):
    return await clocked_host(render=False)


async def start(host, n: int, **kw) -> int:
    others = [(B, "Ben"), (C, "Cy"), (D, "Di")][:n - 1]
    res = await host.challenge("avalon", A, "Ann", opponents=others, options={"leader": 0}, **kw)
    for uid, _ in others:
        res = await host.accept(res.match.id, uid)
    assert res.ok and res.match.status == ACTIVE
    return res.match.id


async def state(host, mid):
    return await host._state(await host.store.get_match(mid))


# --------------------------------------------------------------------------- who may join

async def test_join_is_offered_only_while_a_seat_is_free_or_a_defeated_player_may_rejoin(host):
    """「最大4人同時対戦」;「(敗北しても、すぐに途中参加可能です)」: with 3 seats anyone may
    join; with 4 nobody may, until a player is out — then only that player, into their seat."""
    mid = await start(host, 3)
    res = await host.status(mid)
    assert res.public.joinable
    assert (await host.join_check(mid, D)).ok
    assert (await host.join_check(mid, B)).error.key == "avalon.err.join_playing"
    res = await host.join(mid, D, "Di")
    assert res.ok and not res.public.joinable, "4 seats, nobody out"
    check = await host.join_check(mid, E)
    assert check.error.key == "host.err.full_running"
    assert "only a player who is out may rejoin" in check.error.render("en")
    assert "脱落したプレイヤー" in check.error.render("ja")
    res = await host.resign(mid, C)
    assert res.ok and res.public.joinable, "seat 3 is out and may come back"
    assert (await host.join_check(mid, E)).error.key == "host.err.full_running"
    assert (await host.join_check(mid, C)).ok
    n = (await host.store.get_match(mid)).n_commands
    assert (await host.join(mid, E, "Ed")).error.key == "host.err.full_running"
    assert (await host.store.get_match(mid)).n_commands == n, "a refused join changes nothing"
    res = await host.join(mid, C, "Cy")
    assert res.ok and res.public.text[0].key == "host.rejoined" and not res.public.joinable


async def test_no_join_for_games_without_late_join_or_finished_matches(host):
    res = await host.challenge("squares", A, "Ann", opponents=[(B, "Ben")])
    res = await host.accept(res.match.id, B)
    assert not res.public.joinable
    assert (await host.join_check(res.match.id, C)).error.key == "host.err.not_open"
    mid = await start(host, 2)
    res = await host.resign(mid, A)
    assert res.match.status == FINISHED and not res.public.joinable
    assert (await host.join_check(mid, C)).error.key == "host.err.not_open"


# --------------------------------------------------------------------------- resigning

async def test_a_resignation_in_a_four_player_match_puts_only_that_player_out(host):
    """**Ruling:** in a free-for-all a resignation puts only that player out (like a player at 0
    life); the match goes on; the last one left wins.  Logged as ``__resign__``, so a restarted
    host replays it from seed + log."""
    mid = await start(host, 4)
    res = await host.resign(mid, B)
    assert res.ok and res.match.status == ACTIVE
    assert [m.key for m in res.public.text] == ["host.resigned_out"]
    assert res.public.text[0].render("en") == "Ben resigned and is out of the match; the others play on."
    assert res.public.view["players"][1]["status"] == "out"
    assert [p.user_id for p in res.prompts] == [A], "the leader goes on"
    assert (await host.resign(mid, B)).error.key == "avalon.err.resign_out"
    assert (await host.command(mid, A, "done")).ok
    log = [(c.seat, c.command) for c in await host.store.commands(mid)]
    assert log == [(1, RESIGN), (0, "done")]
    assert [e["command"] for e in (await host.log(mid)).data["log"]] == ["resign", "done"]
    fresh = Host(host.store, render=False)
    rec = await host.store.get_match(mid)
    assert game.dump(await fresh._state(rec)) == game.dump(await host._state(rec))

    res = await host.resign(mid, A)                     # the leader, in its own turn
    assert res.ok and res.match.status == ACTIVE
    res = await host.resign(mid, D)
    assert res.match.status == FINISHED
    assert res.match.result == {"winners": [2], "reason": "resign", "ranks": [3, 4, 1, 2]}
    assert [m.key for m in res.public.text] == ["host.resigned", "host.outcome.win"]
    assert res.public.text[1].render("en") == "Cy won: every other player resigned or is out."


async def test_a_two_player_resignation_still_ends_the_match(host):
    mid = await start(host, 2)
    res = await host.resign(mid, B)
    assert res.match.status == FINISHED and res.match.result["winners"] == [0]
    assert res.match.result["reason"] == "resign"


async def test_games_without_a_resign_method_end_the_match_as_before(host):
    res = await host.challenge("squares", A, "Ann", opponents=[(B, "Ben")])
    mid = (await host.accept(res.match.id, B)).match.id
    res = await host.resign(mid, A)
    assert res.match.result == {"winners": [1], "reason": "resign", "resigned": 0}
    assert await host.store.commands(mid) == []


# --------------------------------------------------------------------------- clock

async def test_a_timeout_claim_plays_the_games_default_and_the_match_goes_on(host):
    """The clock's default (docs/rules/avalon.md "Clock": `done` in a set phase …) is what a
    claim does too: one absent player never ends a free-for-all for everyone."""
    mid = await start(host, 3, turn_seconds=600)
    host.now.t += 601
    res = await host.claim_timeout(mid, B)
    assert res.ok and res.data["clock"] == "auto" and res.match.status == ACTIVE
    assert [(c.seat, c.command) for c in await host.store.commands(mid)] == [(0, "done")]
    assert (await host.claim_timeout(mid, B)).error.key == "host.err.time_left"


# --------------------------------------------------------------------------- ratings

async def test_a_four_player_match_rates_players_by_finishing_order(host):
    """OpenSkill free-for-all with the engine's ``ranks``: the winner gains most, then the
    player out last, …, the player out first loses most."""
    records = Records(host.store, now=host.now)
    host.on_finish.append(records.on_finish)
    mid = await start(host, 4)
    for uid in (C, A, D):                               # out first: Cy, then Ann, then Di
        assert (await host.resign(mid, uid)).ok
    rec = await host.store.get_match(mid)
    assert rec.status == FINISHED and rec.result["winners"] == [1]
    assert R.ranks_of(rec.result, 4) == [3, 1, 4, 2]
    rows, total = await host.store.leaderboard("global", "avalon")
    assert total == 4
    by_mu = sorted(rows, key=lambda r: -r.mu)
    assert [r.user_id for r in by_mu] == [B, D, A, C]
    assert [(r.wins, r.losses) for r in by_mu] == [(1, 0), (0, 1), (0, 1), (0, 1)]


# --------------------------------------------------------------------------- leagues

async def test_a_league_match_takes_no_late_joiner(host):
    """A league pairing is one against one: no Join is offered and a join is refused."""
    mid = await start(host, 2, meta={"league": 7, "pairing": 1})
    res = await host.status(mid)
    assert not res.public.joinable
    for res in (await host.join_check(mid, C), await host.join(mid, C, "Cy")):
        assert res.error.key == "host.err.league_join"
        assert "league match" in res.error.render("en") and "大会の対戦" in res.error.render("ja")
    assert len((await host.store.get_match(mid)).seats) == 2


# --------------------------------------------------------------------------- abort

async def test_an_abort_needs_the_votes_of_the_players_still_in_the_match_only(host):
    """Issue 2: abort when "all players agree".  In a free-for-all a player who is out (0 life or
    resigned) is no longer playing: the players still in decide, a defeated player who walked away
    cannot hold the match hostage — and their vote alone aborts nothing."""
    mid = await start(host, 3)
    assert (await host.resign(mid, C)).ok
    res = await host.abort(mid, C)                     # the out player's vote counts for nothing
    assert res.ok and res.match.status == ACTIVE
    res = await host.abort(mid, A)
    assert res.ok and res.match.status == ACTIVE
    assert [m.render("en") for m in res.info] and "Ben" in res.info[0].render("en")
    assert "Cy" not in res.info[0].render("en")        # not waited for
    res = await host.abort(mid, B)
    assert res.ok and res.match.status == "aborted"


async def test_without_seats_in_play_every_seated_player_votes(host):
    res = await host.challenge("squares", A, "Ann", opponents=[(B, "Ben")])
    mid = res.match.id
    await host.accept(mid, B)
    assert (await host.abort(mid, A)).match.status == ACTIVE
    assert (await host.abort(mid, B)).match.status == "aborted"
