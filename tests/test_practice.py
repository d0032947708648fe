"""Practice against the computer through the host (issue 17): the computer's seat plays through
the same path as a person — logged, replayable — handed only its seat's view; practice matches
are unrated and marked as such."""
from __future__ import annotations

import random

import pytest

from data.store import ACTIVE, FINISHED, open_store
from host import Host
from rules import registry

ME, BOT = 101, 999


@pytest.fixture
async def host(tmp_path):
    store = await open_store(str(tmp_path / "p.db"))
    yield Host(store, render=False)
    await store.close()


async def test_a_practice_match_starts_at_once_unrated_with_the_computer_in_seat_two(host):
    res = await host.practice("squares", ME, "Ann", ai_user=BOT, ai_name="Computer (easy)", level="easy",
                              options={"first": 0})
    assert res.ok, res.error
    rec = res.match
    assert rec.status == ACTIVE and rec.seats == [ME, BOT]
    assert rec.meta["ai"] == {"1": "easy"} and rec.meta["practice"] is True and rec.meta["rated"] is False
    assert not await host.ai_to_act(rec.id), "the player moves first"
    assert (await host.command(rec.id, ME, "place L1 a1")).ok
    assert await host.ai_to_act(rec.id)
    moved = await host.ai_move(rec.id)
    assert moved is not None and moved.ok
    log = (await host.log(rec.id)).data["log"]
    assert [e["name"] for e in log] == ["Ann", "Computer (easy)"]
    assert log[1]["command"] in registry.get("squares").legal_commands(
        registry.get("squares").apply(registry.get("squares").new_match(2, rec.seed, {"first": 0}), 0, "place L1 a1"), 1)
    assert await host.ai_move(rec.id) is None, "not its turn now"


async def test_the_computer_is_handed_its_seats_view_and_nothing_else(host, monkeypatch):
    import ai

    seen = []

    def spy(game_name, view, legal, seat, **kw):
        seen.append((game_name, view, legal, seat))
        return legal[0]

    monkeypatch.setattr(ai, "choose", spy)
    res = await host.practice("logic_square", ME, "Ann", ai_user=BOT, level="normal", options={"first": 1})
    mid = res.match.id
    rec = await host.store.get_match(mid)
    state = await host._state(rec)
    game = registry.get("logic_square")
    want = game.view(state, 1)
    await host.ai_move(mid)
    (name, view, legal, seat), = seen
    assert name == "logic_square" and seat == 1 and isinstance(view, dict)
    assert view == want, "exactly what seat 2 may see"
    assert "hand" in view and view["hand"] == list(state.hand[1])
    assert view != game.view(state, 0) and set(view) == set(game.view(state, 1))


async def test_a_practice_match_played_out_is_recorded_unrated(host):
    res = await host.practice("squares", ME, "Ann", ai_user=BOT, level="normal",
                              options={"first": 0, "max_turns": 12})
    mid = res.match.id
    rng = random.Random(3)
    for _ in range(100):
        rec = await host.store.get_match(mid)
        if rec.status != ACTIVE:
            break
        if await host.ai_to_act(mid):
            assert (await host.ai_move(mid)).ok
        else:
            legal = await host.legal(mid, ME)
            assert (await host.command(mid, ME, rng.choice(legal))).ok
    rec = await host.store.get_match(mid)
    assert rec.status == FINISHED and rec.meta["rated"] is False


async def test_an_unknown_level_is_refused_with_the_levels(host):
    res = await host.practice("squares", ME, "Ann", ai_user=BOT, level="godlike")
    assert not res.ok and "easy, normal, hard" in res.error.render("en")
    assert "easy, normal, hard" in res.error.render("ja")


async def test_the_player_alone_may_abort_a_practice_match(host):
    """An abort needs every player's vote; the computer never votes, so the player's is enough."""
    res = await host.practice("squares", ME, "Ann", ai_user=BOT, level="easy", options={"first": 0})
    done = await host.abort(res.match.id, ME)
    assert done.ok and done.match.status == "aborted"


# ------------------------------------------------------------------------------ fill:ai

async def _ffa(host, n: int, **meta):
    others = [(202, "Ben"), (303, "Cy"), (404, "Di")][:n - 1]
    res = await host.challenge("avalon", ME, "Ann", opponents=others, options={"leader": 0}, meta=meta)
    for uid, _ in others:
        res = await host.accept(res.match.id, uid)
    return res.match


async def test_fill_ai_replaces_a_player_who_resigns_so_the_others_can_finish(host):
    """Issue 17: "a free-for-all may be started with fill:ai; a player who leaves, resigns or
    times out is then replaced by the AI so the others can finish, and the table says so"."""
    rec = await _ffa(host, 3, fill_ai=True)
    res = await host.resign(rec.id, 202)
    assert res.ok and res.data["filled"] == [1]
    assert "Ben left the match: the computer plays their seat" in res.public.text[0].render("en")
    assert "コンピューターがその席を担当します" in res.public.text[0].render("ja")
    rec = await host.store.get_match(rec.id)
    assert rec.status == ACTIVE and host.ai_seats(rec) == {1: "normal"} and rec.meta["rated"] is False
    game = registry.get("avalon")
    state = await host._state(rec)
    assert game.view(state, None)["players"][1]["status"] == "play", "Ben's seat plays on"
    rng = random.Random(1)
    for _ in range(60):                 # the others play, the computer answers for Ben
        rec = await host.store.get_match(rec.id)
        if rec.status != ACTIVE:
            break
        if await host.ai_to_act(rec.id):
            assert (await host.ai_move(rec.id)).ok
            continue
        state = await host._state(rec)
        seat = game.to_act(state)[0]
        uid = rec.seats[seat]
        assert uid != 202, "Ben is never asked again"
        assert (await host.command(rec.id, uid, rng.choice(game.legal_commands(state, seat)))).ok


async def test_without_fill_ai_or_with_two_players_a_resignation_is_a_resignation(host):
    rec = await _ffa(host, 3)
    res = await host.resign(rec.id, 202)
    assert "filled" not in res.data and not host.ai_seats(await host.store.get_match(rec.id))
    two = await _ffa(host, 2, fill_ai=True)
    res = await host.resign(two.id, 202)
    assert "filled" not in res.data and res.match.status != ACTIVE


async def test_a_player_replaced_by_the_computer_can_no_longer_play_or_resign_that_seat(host):
    rec = await _ffa(host, 3, fill_ai=True)
    await host.resign(rec.id, 202)
    assert await host.legal(rec.id, 202) == []
    res = await host.command(rec.id, 202, "done")
    assert res.error.key == "host.err.computer_seat" and "computer plays your seat" in res.error.render("en")
    assert (await host.resign(rec.id, 202)).error.key == "host.err.computer_seat"
