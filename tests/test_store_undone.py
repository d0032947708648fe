"""The store's undone log (data/sql_undo.py, migration 0010) on both backends: a rewind takes the
last entries off the command log and keeps them, in one version-checked transaction with the
match row, so the log stays gap-free and replays to the position as it stands; a second process
sees the same; a row that does not read is skipped and never stops the others."""
from __future__ import annotations

from dataclasses import replace

import pytest

from data.store import ACTIVE, MatchRecord, VersionConflict

A, B = 11, 22


async def _match_with(store, n: int) -> MatchRecord:
    rec = await store.create_match(MatchRecord(game="squares", seed=1, seats=[A, B], names=["A", "B"],
                                               creator=A, status=ACTIVE))
    for i in range(n):
        rec = await store.append_command(replace(rec, n_commands=rec.n_commands + 1), rec.version, i % 2,
                                         f"move {i}")
    return rec


async def test_a_rewind_moves_the_last_entries_and_a_new_entry_takes_their_place(backend):
    store = await backend.open()
    rec = await _match_with(store, 3)
    out = await store.rewind_log(replace(rec, n_commands=1, meta={"undos": 1}), rec.version, undo=1,
                                 kind="takeback", by_user=B, reason="agreed",
                                 words={2: {"en": "Move 1", "ja": "移動 1"}, 3: None})
    assert out.n_commands == 1 and out.version == rec.version + 1
    assert [c.command for c in await store.commands(rec.id)] == ["move 0"]
    undone = await store.undone(rec.id)
    assert [(u.seq, u.command, u.kind, u.by_user, u.reason) for u in undone] == [
        (2, "move 1", "takeback", B, "agreed"), (3, "move 2", "takeback", B, "agreed")]
    assert undone[0].words == {"en": "Move 1", "ja": "移動 1"} and undone[1].words is None
    # the log goes on from where it stands, and a second process reads the same
    again = await store.append_command(replace(out, n_commands=2), out.version, 1, "move x")
    other = await backend.open()
    assert (await other.get_match(rec.id)).n_commands == 2
    assert [c.command for c in await other.commands(rec.id)] == ["move 0", "move x"]
    assert len(await other.undone(rec.id)) == 2 and again.n_commands == 2


async def test_a_rewind_of_a_moved_version_or_past_the_log_writes_nothing(backend):
    store = await backend.open()
    rec = await _match_with(store, 2)
    with pytest.raises(VersionConflict):
        await store.rewind_log(replace(rec, n_commands=0), rec.version - 1, undo=1, kind="undo", by_user=A)
    with pytest.raises(ValueError):
        await store.rewind_log(replace(rec, n_commands=2), rec.version, undo=1, kind="undo", by_user=A)
    with pytest.raises(ValueError):
        await store.rewind_log(replace(rec, n_commands=1), rec.version, undo=1, kind="magic", by_user=A)
    assert len(await store.commands(rec.id)) == 2 and await store.undone(rec.id) == []
    assert (await store.get_match(rec.id)).version == rec.version


async def test_a_bad_undone_row_is_skipped_and_the_others_read(backend):
    store = await backend.open()
    rec = await _match_with(store, 2)
    out = await store.rewind_log(replace(rec, n_commands=1), rec.version, undo=1, kind="undo", by_user=A,
                                 words={2: {"en": "x", "ja": "x"}})
    await store.rewind_log(replace(out, n_commands=0), out.version, undo=2, kind="judge", by_user=9, reason="r")
    await backend.raw("UPDATE undone SET words = ? WHERE match_id = ? AND undo = 1", "[1, 2]", rec.id)
    assert [u.undo for u in await store.undone(rec.id)] == [2]
    assert await store.undone(10 ** 30) == []
