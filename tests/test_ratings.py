"""Ratings (OpenSkill, host/ratings.py) and the records service (host/records.Records) on a real
SQLite store: two-player and free-for-all updates, scopes, seasons, unrated matches, exactly-once
processing, persistence across a restart, pagination boundaries."""
from __future__ import annotations

import pytest

from data.store import (
    ABORTED, FINISHED, MatchRecord, RatingChange, RatingRow, VersionConflict, open_store,
)
from host import ratings as R
from host.records import PER_PAGE, Records, guild_scope, season_scope

A, B, C, D = 1001, 1002, 1003, 1004
GUILD = 77


# ---------------------------------------------------------------------------- the model
def test_a_win_moves_the_winner_up_and_the_loser_down_and_both_get_surer():
    new = R.rate([(A, 1), (B, 2)], {})
    assert new[A][0] > R.MU > new[B][0]
    assert new[A][1] < R.SIGMA and new[B][1] < R.SIGMA
    assert abs((new[A][0] - R.MU) - (R.MU - new[B][0])) < 1e-9, "symmetric for equal players"


def test_a_draw_between_equals_keeps_their_mu():
    new = R.rate([(A, 1), (B, 1)], {})
    assert new[A][0] == pytest.approx(R.MU) and new[B][0] == pytest.approx(R.MU)


def test_beating_a_stronger_player_gains_more():
    strong = {B: (35.0, 3.0)}
    vs_strong = R.rate([(A, 1), (B, 2)], strong)[A][0] - R.MU
    vs_equal = R.rate([(A, 1), (B, 2)], {})[A][0] - R.MU
    assert vs_strong > vs_equal > 0


def test_free_for_all_four_players_one_winner():
    new = R.rate([(A, 1), (B, 2), (C, 2), (D, 2)], {})
    assert new[A][0] > R.MU
    assert new[B][0] == pytest.approx(new[C][0]) and new[C][0] == pytest.approx(new[D][0])
    assert new[B][0] < R.MU


def test_free_for_all_with_a_full_finishing_order():
    ranks = R.ranks_of({"winners": [2], "ranks": [3, 2, 1]}, 3)
    assert ranks == [3, 2, 1]
    new = R.rate([(A, 3), (B, 2), (C, 1)], {})
    assert new[C][0] > new[B][0] > new[A][0]


def test_ranks_from_winners_and_draws():
    assert R.ranks_of({"winners": [0]}, 2) == [1, 2]
    assert R.ranks_of({"winners": []}, 3) == [1, 1, 1]
    assert R.ranks_of({"winners": [0, 2]}, 4) == [1, 2, 1, 2]
    assert R.ranks_of({"winners": [1], "ranks": "junk"}, 2) == [2, 1]


def test_provisional_until_enough_games_and_display_scale():
    assert R.display(R.MU) == 1500
    assert R.label(R.MU, R.PROVISIONAL_GAMES - 1) == "1500?"
    assert R.label(R.MU, R.PROVISIONAL_GAMES) == "1500"


# ---------------------------------------------------------------------------- the service
@pytest.fixture
async def store(tmp_path):
    s = await open_store(str(tmp_path / "r.db"))
    yield s
    await s.close()


_t = [1_700_000_000.0]


async def finished(store, seats, winners, *, game="squares", guild=GUILD, rated=None, status=FINISHED,
                   names=None) -> MatchRecord:
    _t[0] += 60
    meta = {} if rated is None else {"rated": rated}
    rec = MatchRecord(game=game, seed=1, seats=list(seats), names=names or [f"u{u}" for u in seats],
                      creator=seats[0], status=status, guild_id=guild, channel_id=9,
                      result={"winners": winners, "reason": "resign"} if status == FINISHED else None,
                      meta=meta, created_at=_t[0], updated_at=_t[0])
    return await store.create_match(rec)


async def test_a_rated_match_updates_global_server_and_season_scopes_once(store):
    rec = Records(store, now=lambda: 1.0)
    m = await finished(store, [A, B], [0])
    assert await rec.process(m)
    assert not await rec.process(m), "a match is rated exactly once"
    for scope in ("global", guild_scope(GUILD), season_scope(GUILD, 1)):
        got = await store.get_ratings(scope, "squares", [A, B])
        assert got[A].mu > R.MU > got[B].mu, scope
        assert (got[A].games, got[A].wins, got[B].losses) == (1, 1, 1)
    hist = await store.rating_history(A, "squares", "global")
    assert [(h.match_id, h.mu_before) for h in hist] == [(m.id, R.MU)]


async def test_an_unrated_match_is_recorded_but_changes_no_rating(store):
    rec = Records(store)
    m = await finished(store, [A, B], [0], rated=False)
    assert await rec.process(m)
    assert await store.is_processed(m.id)
    assert await store.get_ratings("global", "squares", [A, B]) == {}
    rows, total = await store.results_query(A)
    assert total == 1 and rows[0].outcome == "win", "the result still counts for W/L/D"


async def test_an_aborted_match_is_not_recorded(store):
    rec = Records(store)
    m = await finished(store, [A, B], [], status=ABORTED)
    assert not await rec.process(m)
    assert not await store.is_processed(m.id)


async def test_a_multiplayer_match_rates_every_seat(store):
    rec = Records(store)
    m = await finished(store, [A, B, C, D], [2], game="squares")
    await rec.process(m)
    got = await store.get_ratings("global", "squares", [A, B, C, D])
    assert got[C].mu > R.MU and all(got[u].mu < R.MU for u in (A, B, D))
    assert got[C].wins == 1 and got[A].losses == 1


async def test_draws_count_as_draws(store):
    rec = Records(store)
    await rec.process(await finished(store, [A, B], []))
    got = await store.get_ratings("global", "squares", [A, B])
    assert got[A].draws == got[B].draws == 1 and got[A].mu == pytest.approx(R.MU)


async def test_closing_a_season_archives_it_and_keeps_all_time(store):
    rec = Records(store)
    await rec.process(await finished(store, [A, B], [0]))
    res = await rec.close_season(GUILD)
    assert res.data == {"old": 1, "new": 2}
    await rec.process(await finished(store, [A, B], [1]))
    s1 = await store.get_ratings(season_scope(GUILD, 1), "squares", [A, B])
    s2 = await store.get_ratings(season_scope(GUILD, 2), "squares", [A, B])
    allt = await store.get_ratings(guild_scope(GUILD), "squares", [A, B])
    assert s1[A].games == 1 and s1[A].wins == 1, "season 1 is frozen"
    assert s2[A].games == 1 and s2[A].losses == 1, "season 2 starts fresh"
    assert allt[A].games == 2, "all-time keeps everything"


async def test_other_servers_do_not_share_a_server_rating(store):
    rec = Records(store)
    await rec.process(await finished(store, [A, B], [0], guild=1))
    await rec.process(await finished(store, [A, B], [0], guild=2))
    assert (await store.get_ratings(guild_scope(1), "squares", [A]))[A].games == 1
    assert (await store.get_ratings("global", "squares", [A]))[A].games == 2


async def test_ratings_persist_across_a_restart_and_missed_matches_are_caught_up(tmp_path):
    path = str(tmp_path / "r.db")
    store = await open_store(path)
    await Records(store).process(await finished(store, [A, B], [0]))
    missed = await finished(store, [A, B], [0])      # finished, but the process stopped before rating
    before = (await store.get_ratings("global", "squares", [A]))[A]
    await store.close()

    store = await open_store(path)
    rec = Records(store)
    assert (await store.get_ratings("global", "squares", [A]))[A] == before
    assert [m.id for m in await store.unprocessed_finished()] == [missed.id]
    assert await rec.catch_up() == 1
    assert await rec.catch_up() == 0
    assert (await store.get_ratings("global", "squares", [A]))[A].games == 2
    await store.close()


async def test_leaderboard_pagination_boundaries(store):
    rec = Records(store)
    players = list(range(2000, 2000 + 2 * PER_PAGE + 1))        # 21 players
    for i in range(0, len(players) - 1, 2):
        await rec.process(await finished(store, [players[i], players[i + 1]], [0]))
    await rec.process(await finished(store, [players[-1], players[0]], [0]))
    rows, page, n, total = await rec.leaderboard("squares", guild_scope(GUILD), 0)
    assert (len(rows), page, n, total) == (PER_PAGE, 0, 3, 21)
    rows, page, n, _ = await rec.leaderboard("squares", guild_scope(GUILD), 2)
    assert (len(rows), page) == (1, 2), "the last page holds the remainder"
    rows2, page, _, _ = await rec.leaderboard("squares", guild_scope(GUILD), 99)
    assert page == 2 and rows2 == rows, "past the end shows the last page"
    _, page, _, _ = await rec.leaderboard("squares", guild_scope(GUILD), -5)
    assert page == 0
    allrows = []
    for p in range(3):
        allrows += (await rec.leaderboard("squares", guild_scope(GUILD), p))[0]
    assert len({r.user_id for r in allrows}) == 21, "no one twice, no one missing"
    keys = [r.mu - 3 * r.sigma for r in allrows]
    assert keys == sorted(keys, reverse=True)
    rows, page, n, total = await rec.leaderboard("squares", guild_scope(999), 0)
    assert (rows, page, n, total) == ([], 0, 1, 0), "an empty board has one empty page"


async def test_history_pagination_boundaries_and_profile(store):
    rec = Records(store)
    for i in range(PER_PAGE + 1):
        await rec.process(await finished(store, [A, B], [0] if i % 3 else [1]))
    rows, page, n = await rec.history(A, None, GUILD, 0)
    assert (len(rows), page, n) == (PER_PAGE, 0, 2)
    rows, page, n = await rec.history(A, None, GUILD, 1)
    assert (len(rows), page) == (1, 1)
    assert (await rec.history(A, None, GUILD, 5))[1] == 1
    assert (await rec.history(A, "other", GUILD, 0))[0] == []
    newest_first = [r.match_id for r, _ in (await rec.history(A, None, GUILD, 0))[0]]
    assert newest_first == sorted(newest_first, reverse=True)
    prof = await rec.profile(A, GUILD)
    g = prof["games"]["squares"]
    assert (g["win"], g["loss"]) == (7, 4)
    assert set(g["ratings"]) == {"global", "server", "season"}
    assert prof["streak"] == ("win", 1), "the last was a win (i = 10), the one before a loss (i = 9)"
    h = await rec.h2h(A, B)
    assert h["score"] == {"a": 7, "b": 4, "draw": 0} and h["total"] == 11


async def test_export_gives_the_replayable_record(store):
    rec = Records(store)
    m = await finished(store, [A, B], [0])
    res = await rec.export(m.id)
    data = res.data["export"]
    assert {"game", "options", "seats", "seed", "commands", "result"} <= set(data)
    assert data["seats"][0]["user_id"] == str(A)
    bad = await rec.export(999999)
    assert not bad.ok and bad.error.key == "host.err.no_match"


# ---------------------------------------------------------------------------- the host hook
async def test_the_host_calls_on_finish_after_the_result_is_committed_and_never_for_an_abort(store):
    from host import Host

    host = Host(store, render=False)
    seen = []

    async def hook(rec):
        assert (await store.get_match(rec.id)).status == FINISHED, "called after the commit"
        seen.append(rec.id)

    async def broken(rec):
        raise RuntimeError("a failing hook never reaches the player")

    host.on_finish += [broken, hook, Records(store).on_finish]
    res = await host.challenge("squares", A, "a", opponents=[(B, "b")], options={"first": 0})
    m1 = res.match.id
    await host.accept(m1, B)
    assert (await host.resign(m1, A)).ok
    res = await host.challenge("squares", A, "a", opponents=[(B, "b")])
    m2 = res.match.id
    await host.accept(m2, B)
    await host.abort(m2, A, moderator=True)
    assert seen == [m1]
    assert await store.is_processed(m1) and not await store.is_processed(m2)
    assert (await store.get_ratings("global", "squares", [B]))[B].wins == 1


async def test_a_rating_changed_by_another_process_meanwhile_is_not_overwritten(store):
    rec = Records(store)
    m1 = await finished(store, [A, B], [0])
    m2 = await finished(store, [A, B], [0])
    await rec.process(m1)
    # another process computed m2's update from the ratings before m1 landed
    rows = [RatingRow("global", "squares", A, 30.0, 7.0, 1, 1, 0, 0, 1.0)]
    hist = [RatingChange(m2.id, "global", "squares", A, R.MU, R.SIGMA, 30.0, 7.0, 1.0)]
    with pytest.raises(VersionConflict):
        await store.record_processed(m2.id, True, rows, hist, 1.0)
    assert not await store.is_processed(m2.id), "nothing was written"
    assert await rec.process(m2), "the service recomputes from the fresh rating"
    got = (await store.get_ratings("global", "squares", [A]))[A]
    assert got.games == 2 and got.wins == 2
