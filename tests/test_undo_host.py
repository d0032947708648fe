"""Taking moves back at the table (host/undo.py, host/undo_rules.py, the store's undone log):
an undo within the player's own turn, a takeback the opponent answers, a judge's rewind — each
through the real SQLite store and the real engines.

The rules they follow (docs/undo.md):
- "after a move, the acting player may take back their own moves of the current turn — one
  button, no one else asked — as long as nothing since revealed or drew anything";
- "Takeback after the turn passed: a player may ask; the opponent(s) accept or decline …; never
  offered once anything hidden was revealed since; off in event and rated matches unless the
  event or server allows it";
- "An undone or taken-back move disappears from the position, the board and the replay but stays
  in the match's log as undone".
"""
from __future__ import annotations

import pytest

from data.store import ACTIVE, open_store
from host import Host
from host.match_record import read_record, record_text, write_record
from host.replay import _initial_state
from host.engines import engine_of

from discord_fakes import Clock

ALICE, BOB, AI = 101, 202, 999


@pytest.fixture
async def store(tmp_path):
    s = await open_store(str(tmp_path / "undo.db"))
    yield s
    await s.close()


@pytest.fixture
def host(store):
    return Host(store, now=Clock(), render=False)


async def bls(host: Host, **meta) -> int:
    """A Battle Logic Square match, Alice first (seed 7: ``move c2`` keeps her turn with one AP
    left; ``caa ac01`` draws two cards)."""
    res = await host.challenge("logic_square", ALICE, "Alice", opponents=[(BOB, "Bob")],
                               options={"first": 0}, seed=7, **meta)
    res = await host.accept(res.match.id, BOB)
    assert res.ok and res.match.status == ACTIVE
    return res.match.id


async def squares(host: Host, **kw) -> int:
    res = await host.challenge("squares", ALICE, "Alice", opponents=[(BOB, "Bob")], options={"first": 0}, **kw)
    res = await host.accept(res.match.id, BOB)
    assert res.ok
    return res.match.id


async def dump_now(host: Host, mid: int) -> str:
    rec = await host.store.get_match(mid)
    return engine_of(rec).dump(await host._state(rec))


async def test_undo_within_the_turn_goes_back_exactly_and_keeps_the_move_in_the_log(host, store):
    """"the acting player may take back their own moves of the current turn — one button, no one
    else asked": a move that leaves Alice acting (one AP left) is undone; the position is the
    start again, the log is empty, and the undone move is listed with its words."""
    mid = await bls(host)
    start = await dump_now(host, mid)
    res = await host.command(mid, ALICE, "move c2")
    assert res.ok
    assert await host.undo_offer(mid, ALICE) and not await host.undo_offer(mid, BOB)
    res = await host.undo(mid, ALICE)
    assert res.ok, res.error
    assert "took back their move" in res.public.text[0].render("en")
    assert "c2" in res.public.text[0].render("en")
    assert [p.user_id for p in res.prompts] == [ALICE]          # her turn still
    assert await dump_now(host, mid) == start
    rec = await store.get_match(mid)
    assert rec.n_commands == 0 and rec.meta["undos"] == 1 and rec.meta["shown"] == 0
    log = await host.log(mid)
    assert log.data["log"] == []
    [u] = log.data["undone"]
    assert (u["seq"], u["name"], u["kind"], u["by"]) == (1, "Alice", "undo", ALICE)
    assert "c2" in u["words"]["en"] and u["words"]["ja"]
    assert "command" not in u           # only the words everyone saw, never the stored notation
    # the move may be played again, differently: the log is the new one
    assert (await host.command(mid, ALICE, "move b1")).ok
    assert [c.command for c in await store.commands(mid)] == ["move b1"]


async def test_undo_is_refused_after_a_draw(host, store):
    """"as long as nothing since revealed or drew anything (no draw …)": CAA draws two cards."""
    mid = await bls(host)
    assert (await host.command(mid, ALICE, "caa ac01")).ok
    before = await store.get_match(mid)
    assert not await host.undo_offer(mid, ALICE)
    res = await host.undo(mid, ALICE)
    assert not res.ok and res.error.key == "undo.err.final"
    after = await store.get_match(mid)
    assert (after.version, after.n_commands) == (before.version, before.n_commands)   # nothing changed


async def test_undo_is_only_of_the_players_own_last_move(host):
    """Another player's move, a spectator, and a match with nothing played are refused."""
    mid = await bls(host)
    assert (await host.undo(mid, ALICE)).error.key == "undo.err.nothing"
    assert (await host.command(mid, ALICE, "move c2")).ok
    assert (await host.undo(mid, BOB)).error.key == "undo.err.not_last"
    assert (await host.undo(mid, 555)).error.key == "host.err.not_a_player"


async def test_squares_moves_are_final_so_a_takeback_is_asked_and_declined(host, store):
    """SQUARES passes the turn with every move ("行動をしたら、相手の手番になります"): no undo,
    but a takeback the opponent may decline — and then nothing changes."""
    mid = await squares(host)
    assert (await host.command(mid, ALICE, "place L1 a1")).ok
    assert (await host.undo(mid, ALICE)).error.key == "undo.err.not_last" or \
        (await host.undo(mid, ALICE)).error.key == "undo.err.final"
    assert await host.takeback_offer(mid, ALICE) and not await host.takeback_offer(mid, BOB)
    res = await host.takeback(mid, ALICE)
    assert res.ok and res.notify == [BOB]
    assert "asks to take back" in res.public.text[0].render("en")
    assert (await host.takeback(mid, ALICE)).error.key == "undo.err.takeback_open"
    assert (await host.takeback_answer(mid, ALICE, True)).error.key == "undo.err.not_asked"
    assert await host.takeback_request(mid, BOB) == {"name": "Alice", "n": 1}
    res = await host.takeback_answer(mid, BOB, False)
    assert res.ok and "declined" in res.public.text[0].render("en")
    rec = await store.get_match(mid)
    assert rec.n_commands == 1 and "takeback" not in rec.meta
    assert await host.takeback_request(mid, BOB) is None


async def test_an_accepted_takeback_undoes_the_move_and_the_turn_is_the_askers_again(host, store):
    mid = await squares(host)
    start = await dump_now(host, mid)
    assert (await host.command(mid, ALICE, "place L1 a1")).ok
    assert (await host.takeback(mid, ALICE)).ok
    res = await host.takeback_answer(mid, BOB, True)
    assert res.ok and "accepted" in res.public.text[0].render("en")
    assert [p.user_id for p in res.prompts] == [ALICE]
    assert await dump_now(host, mid) == start
    [u] = (await host.log(mid)).data["undone"]
    assert u["kind"] == "takeback" and u["by"] == BOB


async def test_a_takeback_lapses_when_anyone_moves(host, store):
    mid = await squares(host)
    assert (await host.command(mid, ALICE, "place L1 a1")).ok
    assert (await host.takeback(mid, ALICE)).ok
    assert (await host.command(mid, BOB, "place X1 e5")).ok      # Bob plays on instead
    assert "takeback" not in (await store.get_match(mid)).meta
    assert (await host.takeback_answer(mid, BOB, True)).error.key == "undo.err.no_request"


async def test_a_takeback_also_undoes_the_moves_after_it_and_is_refused_after_a_draw(host, store):
    """Alice's move and Bob's answer go back together; once a card was drawn since, no takeback
    ("never offered once anything hidden was revealed since")."""
    mid = await squares(host)
    assert (await host.command(mid, ALICE, "place L1 a1")).ok
    assert (await host.command(mid, BOB, "place X1 e5")).ok
    assert (await host.takeback(mid, ALICE)).ok
    assert (await host.takeback_answer(mid, BOB, True)).ok
    assert (await store.get_match(mid)).n_commands == 0
    assert len((await host.log(mid)).data["undone"]) == 2

    mid = await bls(host)
    assert (await host.command(mid, ALICE, "caa ac01")).ok      # drew two cards
    assert not await host.takeback_offer(mid, ALICE)
    assert (await host.takeback(mid, ALICE)).error.key == "undo.err.revealed"


async def test_takebacks_are_off_in_event_and_rated_matches_unless_allowed(host, store):
    mid = await squares(host, guild_id=1, meta={"rated": True})
    assert (await host.command(mid, ALICE, "place L1 a1")).ok
    assert (await host.takeback(mid, ALICE)).error.key == "undo.err.takeback_rated"
    await store.set_guild_setting(1, "takebacks", "rated")
    assert (await host.takeback(mid, ALICE)).ok

    rec = await store.get_match(mid)
    from dataclasses import replace
    meta = {k: v for k, v in rec.meta.items() if k != "takeback"}
    rec = await store.update_match(replace(rec, meta={**meta, "league": 5, "pairing": 1}), rec.version)
    assert (await host.takeback(mid, ALICE)).error.key == "undo.err.takeback_event"
    rec = await store.update_match(replace(rec, meta={**rec.meta, "takebacks": True}), rec.version)
    assert (await host.takeback(mid, ALICE)).ok


async def test_against_the_computer_a_takeback_is_accepted_at_once(host, store):
    res = await host.practice("squares", ALICE, "Alice", ai_user=AI, level="easy", options={"first": 0})
    mid = res.match.id
    assert (await host.command(mid, ALICE, "place L1 a1")).ok
    res = await host.takeback(mid, ALICE)
    assert res.ok and "computer agreed" in res.public.text[0].render("en")
    assert (await store.get_match(mid)).n_commands == 0


async def test_a_judge_rewind_warns_when_something_was_revealed_and_the_judge_decides(host, store):
    mid = await bls(host)
    assert (await host.command(mid, ALICE, "move c2")).ok
    assert (await host.command(mid, ALICE, "caa ac01")).ok
    res = await host.rewind(mid, 2, by_user=777, reason="misclick")
    assert not res.ok and res.data["revealed"] and res.error.key == "undo.err.revealed_since"
    assert (await host.rewind(mid, 9, by_user=777, reason="x", force=True)).error.key == "undo.err.rewind_range"
    res = await host.rewind(mid, 2, by_user=777, reason="misclick", force=True)
    assert res.ok and "put the match back 2 moves" in res.public.text[0].render("en")
    assert (await store.get_match(mid)).n_commands == 0
    undone = (await host.log(mid)).data["undone"]
    assert [(u["kind"], u["reason"], u["by"]) for u in undone] == [("judge", "misclick", 777)] * 2


async def test_a_state_cached_by_another_process_is_not_used_after_a_rewind(store):
    """Two processes on one database: one caches the position after Alice's move, the other
    takes it back and a different move is played — the first must not use its cached state."""
    a, b = Host(store, now=Clock(), render=False), Host(store, now=Clock(), render=False)
    mid = await bls(a)
    assert (await a.command(mid, ALICE, "move c2")).ok         # a caches (1 entry, 0 rewinds)
    assert (await b.undo(mid, ALICE)).ok
    assert (await b.command(mid, ALICE, "move b1")).ok         # 1 entry again, another log
    rec = await store.get_match(mid)
    game = engine_of(rec)
    expected = game.apply(_initial_state(game, rec), 0, "move b1")
    assert game.dump(await a._state(rec)) == game.dump(expected)


async def test_the_text_record_lists_the_moves_taken_back_and_still_reads(host, store):
    mid = await bls(host)
    assert (await host.command(mid, ALICE, "move c2")).ok
    assert (await host.undo(mid, ALICE)).ok
    assert (await host.command(mid, ALICE, "move b1")).ok
    rec = await store.get_match(mid)
    game = engine_of(rec)
    from host.replay_steps import public_steps

    text = write_record(game, rec, public_steps(game, rec, await store.commands(mid)), locale="en",
                        start_view=game.view(_initial_state(game, rec), None),
                        undone=await host.undone_entries(rec))
    assert "Taken back" in text and "undone by its player" in text
    assert read_record(text).steps and len(read_record(text).steps) == 1
    assert "Taken back" not in record_text(game, rec, await store.commands(mid), locale="en")


async def test_a_bad_undone_row_is_skipped_and_the_others_still_read(host, store):
    mid = await bls(host)
    assert (await host.command(mid, ALICE, "move c2")).ok
    assert (await host.undo(mid, ALICE)).ok
    assert (await host.command(mid, ALICE, "move c2")).ok
    assert (await host.undo(mid, ALICE)).ok
    async with store._write() as c:
        await c.execute("UPDATE undone SET words = ? WHERE match_id = ? AND undo = 1", "{not json", mid)
    entries = await host.undone_entries(await store.get_match(mid))
    assert [e["undo"] for e in entries] == [2]


async def test_a_rewind_of_a_moved_row_writes_nothing(host, store):
    """The store's rewind is version-checked like every write of a match."""
    from data.store import VersionConflict

    mid = await bls(host)
    assert (await host.command(mid, ALICE, "move c2")).ok
    rec = await store.get_match(mid)
    from dataclasses import replace
    with pytest.raises(VersionConflict):
        await store.rewind_log(replace(rec, n_commands=0), rec.version - 1, undo=1, kind="undo", by_user=ALICE)
    assert len(await store.commands(mid)) == 1 and await store.undone(mid) == []


# ---------------------------------------------------------------------------- a judge's table powers
async def test_a_judge_adds_time_to_the_player_on_a_turn_clock_only(host, store):
    """On a clock per move, time goes to the running deadline of the player whose decision it is;
    for the other player there is nothing to add to, and they are told so."""
    mid = await squares(host, turn_seconds=3600)
    before = await store.get_match(mid)
    res = await host.add_time(mid, 0, 600)
    assert res.ok and "Alice gets 10 min more" in res.public.text[-1].render("en"), res.public.text[-1].render("en")
    assert (await store.get_match(mid)).deadline == pytest.approx(before.deadline + 600)
    res = await host.add_time(mid, 1, 600)
    assert not res.ok and res.error.key == "judge.err.not_acting"
    assert (await host.add_time(mid, 5, 60)).error.key == "judge.err.seat"
    assert (await host.add_time(mid, 0, 0)).error.key == "judge.err.seconds"


async def test_a_judge_adds_time_to_a_bank_of_a_player_waiting(clocked_host):
    """On a time bank, time goes to the player's bank, whoever is to act."""
    from test_host_time_bank import banks, started

    host = await clocked_host()
    mid = await started(host)
    before = banks(await host.store.get_match(mid))
    assert (await host.add_time(mid, 1, 900)).ok
    after = banks(await host.store.get_match(mid))
    assert after[1] == pytest.approx(before[1] + 900) and after[0] == pytest.approx(before[0])


async def test_a_game_loss_ends_the_match_once_and_every_hand_is_shown_to_a_judge(host, store):
    mid = await bls(host)
    views = await host.seat_views(mid)
    assert views.ok and [u.seat for u in views.private] == [0, 1]
    assert views.private[0].view != views.private[1].view          # each seat's own
    res = await host.judge_loss(mid, 1)
    assert res.ok and "⚖️ A judge gave Bob a game loss." in [m.render("en") for m in res.public.text]
    rec = await store.get_match(mid)
    assert rec.result["winners"] == [0] and rec.result["reason"] == "game_loss"
    assert (await host.judge_loss(mid, 0)).error.key == "undo.err.not_active"
    assert (await host.seat_views(mid)).error.key == "undo.err.not_active"
