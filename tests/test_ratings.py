"""Ratings (OpenSkill, host/ratings.py) and the records service (host/records.Records) on both real
stores (SQLite and PostgreSQL): two-player and free-for-all updates, scopes, seasons, unrated matches, exactly-once
processing, persistence across a restart, pagination boundaries."""
from __future__ import annotations

import pytest

from data.store import (
    ABORTED, FINISHED, MatchRecord, RatingChange, RatingRow, VersionConflict,
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


# Hand-computed Plackett-Luce updates (Weng & Lin 2011, Algorithm 4, as in openskill with its
# defaults): sigma' = sqrt(sigma^2 + tau^2) first; c = sqrt(sum over players of sigma'^2 + beta^2);
# for player i, over every q ranked at or above i: quotient = e^(mu_i/c) / sum_{r_j >= r_q} e^(mu_j/c),
# omega_i += (1 - quotient)/A_q if q = i else -quotient/A_q,  delta_i += quotient(1 - quotient)/A_q
# (A_q: players tied with q); mu_i += sigma'^2/c * omega_i;
# sigma_i = sigma' * sqrt(1 - (sigma'/c) * sigma'^2/c^2 * delta_i).
_S2 = (25 / 3) ** 2 + (25 / 300) ** 2          # sigma'^2 of a newcomer
_B2 = (25 / 6) ** 2                             # beta^2


def _sigma_after(c: float, delta: float) -> float:
    s = _S2 ** 0.5
    return s * (1 - (s / c) * (_S2 / c ** 2) * delta) ** 0.5


def test_two_newcomers_hand_computed():
    # equal mu: winner's quotient 1/2 -> omega +1/2, delta 1/4; loser: -1/2, 1/4
    c = (2 * (_S2 + _B2)) ** 0.5
    new = R.rate([(A, 1), (B, 2)], {})
    assert new[A][0] == pytest.approx(25 + _S2 / c / 2) == pytest.approx(27.6354, abs=1e-4)
    assert new[B][0] == pytest.approx(25 - _S2 / c / 2)
    assert new[A][1] == pytest.approx(_sigma_after(c, 1 / 4)) == pytest.approx(new[B][1])
    assert R.display(new[A][0]) == 1658 and R.display(new[B][0]) == 1342


def test_three_player_free_for_all_hand_computed():
    """Avalon's Sanctuary is a free-for-all: one winner (rank 1), the other two tied (rank 2).
    Winner: quotient 1/3 -> omega 2/3, delta 2/9.  Each loser: q = winner 1/3 (omega -1/3,
    delta 2/9), q = itself 1/2 over A = 2 (+1/4, 1/8), q = the other loser (-1/4, 1/8)
    -> omega -1/3, delta 17/36."""
    c = (3 * (_S2 + _B2)) ** 0.5
    new = R.rate([(A, 2), (B, 1), (C, 2)], {})
    assert new[B][0] == pytest.approx(25 + _S2 / c * 2 / 3)
    assert new[A][0] == pytest.approx(25 - _S2 / c / 3) == pytest.approx(new[C][0])
    assert new[B][1] == pytest.approx(_sigma_after(c, 2 / 9))
    assert new[A][1] == pytest.approx(_sigma_after(c, 17 / 36))
    assert sum(mu for mu, _ in new.values()) == pytest.approx(75), "mu is only moved around"


# ---------------------------------------------------------------------------- the service
@pytest.fixture
async def store(backend):
    """A store on a fresh database of each backend, SQLite and PostgreSQL (see conftest)."""
    return await backend.open()


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


async def test_ratings_persist_across_a_restart_and_missed_matches_are_caught_up(backend):
    store = await backend.open()
    await Records(store).process(await finished(store, [A, B], [0]))
    missed = await finished(store, [A, B], [0])      # finished, but the process stopped before rating
    before = (await store.get_ratings("global", "squares", [A]))[A]
    await store.close()

    store = await backend.open()
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
    res = await host.challenge("squares", A, "a", opponents=[(B, "b")], guild_id=GUILD)
    m2 = res.match.id
    await host.accept(m2, B)
    await host.abort(m2, A, moderator_guild=res.match.guild_id)
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


async def test_a_real_avalon_free_for_all_through_the_host_rates_every_seat(store):
    """Avalon's Sanctuary (2-4 players) is rated free-for-all: a 3-player match played to its
    end through the host updates all three players in every scope by the finishing places, the
    winner up, the others down (by the same amount when they tie for second)."""
    import random

    from host import Host
    from rules import registry

    host = Host(store, render=False)
    host.on_finish.append(Records(store).on_finish)
    game = registry.get("avalon")
    for seed in range(20):
        trio = [5000 + 3 * seed, 5001 + 3 * seed, 5002 + 3 * seed]     # newcomers every time
        res = await host.challenge("avalon", trio[0], "a", opponents=[(trio[1], "b"), (trio[2], "c")],
                                   options={"max_rounds": 5}, seed=seed, guild_id=GUILD)
        mid = res.match.id
        await host.accept(mid, trio[1])
        await host.accept(mid, trio[2])
        rng = random.Random(seed)
        while (rec := await store.get_match(mid)).status == "active":
            seat = rng.choice(await host.to_act(mid))
            cmd = rng.choice(game.legal_commands(await host._state(rec), seat))
            assert (await host.command(mid, rec.seats[seat], cmd)).ok
        if len(rec.result["winners"]) == 1:
            break
    else:
        pytest.fail("no single-winner Avalon match in 20 seeds")
    assert await store.is_processed(mid)
    winner = rec.seats[rec.result["winners"][0]]
    losers = [u for u in rec.seats if u != winner]
    # the finishing places (outcome ranks): the others tie for second when they went out through
    # the same command, else the later out places better (which happens depends on the cards)
    ranks = rec.result.get("ranks") or [1 if u == winner else 2 for u in rec.seats]
    expected = R.rate(list(zip(rec.seats, ranks)), {})
    for scope in ("global", guild_scope(GUILD), season_scope(GUILD, 1)):
        got = await store.get_ratings(scope, "avalon", trio)
        for u in trio:
            assert (got[u].mu, got[u].sigma) == pytest.approx(expected[u]), (scope, u)
            assert got[u].games == 1
        assert got[winner].wins == 1 and all(got[u].losses == 1 for u in losers)
        assert got[winner].mu > R.MU > min(got[u].mu for u in losers)
        if sorted(ranks) == [1, 2, 2]:
            assert got[losers[0]].mu == pytest.approx(got[losers[1]].mu)


async def test_the_record_of_an_unfinished_match_cannot_be_exported(store):
    """The seed and command log of a running match would reveal every hidden card."""
    rec = Records(store)
    m = await finished(store, [A, B], [0], status="active")
    res = await rec.export(m.id)
    assert not res.ok and res.error.key == "records.err.export_running"
    assert "not over yet" in res.error.render("en") and "終わっていません" in res.error.render("ja")


async def test_the_chart_series_starts_at_1500_and_marks_the_provisional_matches(store):
    rec = Records(store)
    for _ in range(7):
        await rec.process(await finished(store, [A, B], [0]))
    series, provisional = await rec.chart_series(A, "squares", guild_scope(GUILD))
    assert series[0] == 1500 and len(series) == 8
    assert series == sorted(series), "seven wins in a row only go up"
    assert provisional == R.PROVISIONAL_GAMES - 1, "after the 5th match the rating is no longer provisional"
    # only the last 3 matches charted: it does not start with the first match, nothing is marked
    series, provisional = await rec.chart_series(A, "squares", guild_scope(GUILD), limit=3)
    assert len(series) == 4 and provisional == 0
    assert await rec.chart_series(C, "squares", guild_scope(GUILD)) == ([], 0)


async def test_results_and_head_to_head_filter_by_game_and_server(store):
    """/profile and /h2h narrow to one game, one server, or both (every combination)."""
    rec = Records(store)
    games = [("squares", GUILD, [0]), ("squares", 88, [1]), ("maken", GUILD, [1]), ("maken", 88, [0])]
    for game, guild, winners in games:
        await rec.process(await finished(store, [A, B], winners, game=game, guild=guild))
    for game in (None, "squares", "maken"):
        for guild in (None, GUILD, 88):
            want = [(g, gu) for g, gu, _ in games if game in (None, g) and guild in (None, gu)]
            rows, total = await store.results_query(A, game=game, guild_id=guild)
            assert total == len(want) and sorted((r.game, r.guild_id) for r in rows) == sorted(want)
            pairs = await store.head_to_head(A, B, game=game, guild_id=guild)
            assert sorted((x.game, x.guild_id) for x, _ in pairs) == sorted(want)
            assert all(x.user_id == A and y.user_id == B and x.match_id == y.match_id for x, y in pairs)
