"""The store of limited play (data/sql_limited.py, migration 0011) on both backends: a draft and
its seats stored and read back (also by a second process), the optimistic lock on its state, a
person seated once before the start, a locked deck never changed, the drafts whose pick timed out,
the picks and games of finished drafts written idempotently, one survey answer per player per
match, a row that does not read skipped while the others are served, the writes whose COMMIT was
never confirmed read back, and the migration on a database of version 10."""
from __future__ import annotations

import logging
from dataclasses import replace

import pytest

from data import migrate
from data.sql_limited import (LIMITED_IDEMPOTENT, LIMITED_READS, LIMITED_WRITES, STATE_MAX, LimitedGameRecord,
                              LimitedRefused, PickRecord, SurveyRecord)
from data.sql_store import SqlStore
from data.store import MatchRecord, Store, StoreError, VersionConflict
from tests.test_store_faults import commit_answer_lost

T0 = 1_700_000_000.0
ALICE, BOB, CAROL = 101, 202, 303
G1, G2 = 9001, 9002
SEED = bytes(range(32))
DECK = ["c01", "c02", "c02", "c03"]


@pytest.fixture
async def store(backend):
    return await backend.open()


async def _draft(store: Store, *, seats=((ALICE, "Alice"), (None, "CPU 1"), (None, "CPU 2")), seed: bytes = SEED,
                 set_name: str | None = "Cube", set_version: int | None = 2, status: str = "open", due_at=None,
                 guild_id: int = G1, created_at: float = T0, **kw):
    return await store.create_draft(guild_id=guild_id, game="maken", format="booster", source="cube", seed=seed,
                                    created_by=ALICE, seats=list(seats), state={"log": [], "packs": [["c01"]]},
                                    set_name=set_name, set_version=set_version, channel_id=55, status=status,
                                    due_at=due_at, created_at=created_at, **kw)


async def _match(store: Store, guild_id: int = G1) -> int:
    rec = await store.create_match(MatchRecord(game="maken", seed=1, seats=[ALICE, BOB], names=["a", "b"],
                                               creator=ALICE, guild_id=guild_id, status="active"))
    return rec.id


async def _done(store: Store, draft):
    return await store.update_draft(draft.id, draft.version, state=draft.state, status="done", due_at=None,
                                    at=T0 + 100)


def _pick(draft_id: int, seq: int, card: str = "c01", seat: int = 0, human: bool = True) -> PickRecord:
    return PickRecord(draft_id, seq, 1, seq, seat, card, (card, "c09"), human, T0 + seq)


def _game(match_id: int, seat: int, draft_id: int, score: float = 1.0, **kw) -> LimitedGameRecord:
    fields = dict(guild_id=G1, game="maken", set_name="Cube", set_version=2, deck=tuple(DECK), drawn=("c01", "c02"),
                  played=("c02",), score=score)
    fields.update(kw)
    return LimitedGameRecord(match_id, seat, draft_id, **fields)


def _survey(match_id: int, user_id: int, fun=4, strong="c01", weak=None, set_name="Cube") -> SurveyRecord:
    return SurveyRecord(match_id, user_id, G1, "maken", set_name, 2 if set_name else None, fun, strong, weak,
                        ("c01", "c02", "c03"), T0)


async def _count(backend, table: str) -> int:
    return (await backend.raw(f"SELECT COUNT(*) FROM {table}"))[0][0]


# --------------------------------------------------------------------------- the interface
def test_every_limited_method_is_a_store_method_both_backends_have_and_retry():
    from data.postgres_store import PostgresStore
    from data.sqlite_store import SqliteStore

    names = {*LIMITED_READS, *LIMITED_WRITES, *LIMITED_IDEMPOTENT}
    assert len(names) == 12
    abstract = {n for n, f in vars(Store).items() if getattr(f, "__isabstractmethod__", False)}
    assert names <= abstract
    assert not SqliteStore.__abstractmethods__ and not PostgresStore.__abstractmethods__
    for name in names:
        assert getattr(getattr(SqlStore, name), "__wrapped_store_call__", False), name


# --------------------------------------------------------------------------- drafts and seats
async def test_a_draft_and_its_seats_read_back_as_written_also_in_a_second_process(store, backend):
    draft = await _draft(store, league_id=77)
    assert draft.id is not None and draft.version == 0 and draft.status == "open"
    assert (draft.seed, draft.set_name, draft.set_version, draft.edition) == (SEED, "Cube", 2, None)
    assert [(s.seat, s.user_id, s.name, s.deck, s.locked) for s in draft.seats] == [
        (0, ALICE, "Alice", None, False), (1, None, "CPU 1", None, False), (2, None, "CPU 2", None, False)]
    assert SEED.hex() not in repr(draft) and "seed" not in repr(draft)     # a pool is hidden information
    assert await store.get_draft(draft.id) == draft
    other = await backend.open()
    assert await other.get_draft(draft.id) == draft
    assert (await backend.raw("SELECT seed FROM limited_drafts"))[0][0] == SEED.hex()
    # the shipped cards: no set, an edition
    shipped = await _draft(store, seed=bytes(31) + b"\x01", set_name=None, set_version=None, edition="2nd",
                           created_at=T0 + 1)
    assert (await store.get_draft(shipped.id)).edition == "2nd"
    assert await store.get_draft(10 ** 30) is None and await store.get_draft(shipped.id + 1) is None


async def test_what_a_draft_cannot_hold_is_refused_before_anything_is_written(store, backend):
    with pytest.raises(ValueError):
        await _draft(store, seed=b"short")
    with pytest.raises(ValueError):
        await _draft(store, seats=[(ALICE, "A")] * 2)                  # one person, two seats
    with pytest.raises(ValueError):
        await _draft(store, seats=[(None, f"CPU {i}") for i in range(9)])
    with pytest.raises(ValueError):
        await store.create_draft(guild_id=G1, game="squares", format="booster", source="cube", seed=SEED,
                                 created_by=ALICE, seats=[(ALICE, "A")], state={})      # SQUARES has no cards
    with pytest.raises(ValueError):
        await _draft(store, set_version=None)                            # a set without its version
    with pytest.raises(ValueError):
        await _draft(store, edition="2nd")                               # a server's set has no edition
    assert await _count(backend, "limited_drafts") == 0
    # a long name is clipped, not refused
    draft = await _draft(store, seats=[(ALICE, "x" * 500), (None, "CPU")])
    assert len(draft.seats[0].name) == 100 and (await store.get_draft(draft.id)).seats[0].name == "x" * 100


async def test_the_state_is_written_only_from_the_version_read(store, backend):
    draft = await _draft(store, due_at=T0 + 60)
    one = await store.update_draft(draft.id, 0, state={"log": [[1, 1, 0, "c01"]]}, status="drafting",
                                   due_at=T0 + 90, at=T0 + 5)
    assert (one.version, one.status, one.due_at, one.updated_at) == (1, "drafting", T0 + 90, T0 + 5)
    assert one.state == {"log": [[1, 1, 0, "c01"]]} and await store.get_draft(draft.id) == one
    with pytest.raises(VersionConflict):           # written from the draft as it was before
        await store.update_draft(draft.id, 0, state={"log": []}, status="drafting", due_at=None)
    with pytest.raises(VersionConflict):
        await store.update_draft(draft.id + 99, 0, state={}, status="drafting", due_at=None)
    assert await store.get_draft(draft.id) == one
    with pytest.raises(ValueError):
        await store.update_draft(draft.id, 1, state={"big": "x" * STATE_MAX}, status="drafting", due_at=None)
    with pytest.raises(ValueError):
        await store.update_draft(draft.id, 1, state={}, status="finished", due_at=None)
    # a draft that is over is due for nothing, and does not move on
    done = await store.update_draft(draft.id, 1, state=one.state, status="done", due_at=T0 + 99)
    assert done.due_at is None and (await store.get_draft(draft.id)).due_at is None
    with pytest.raises(LimitedRefused) as e:
        await store.update_draft(draft.id, 2, state={}, status="drafting", due_at=None)
    assert e.value.reason == "over"
    assert (await store.get_draft(draft.id)).version == 2


async def test_a_person_takes_a_computers_seat_once_and_only_before_the_start(store):
    draft = await _draft(store)
    bob = await store.set_seat_user(draft.id, 1, BOB, "Bob")
    assert bob.seats[1].user_id == BOB and bob.seats[1].name == "Bob" and bob.version == 1
    assert await store.get_draft(draft.id) == bob
    assert (await store.set_seat_user(draft.id, 1, BOB, "Bob")).version == 1      # asked again: unchanged
    for seat, user, reason in ((2, BOB, "seated"), (1, CAROL, "taken"), (0, CAROL, "taken"), (3, CAROL, "no_seat")):
        with pytest.raises(LimitedRefused) as e:
            await store.set_seat_user(draft.id, seat, user, "x")
        assert e.value.reason == reason, (seat, user)
    with pytest.raises(LimitedRefused) as e:
        await store.set_seat_user(draft.id + 99, 1, CAROL, "Carol")
    assert e.value.reason == "no_draft"
    assert (await store.get_draft(draft.id)).seats == bob.seats
    with pytest.raises(VersionConflict):           # a seat taken moved the draft on
        await store.update_draft(draft.id, 0, state={}, status="drafting", due_at=None)
    back = await store.set_seat_user(draft.id, 1, None, "CPU 1")         # Bob leaves before the start
    assert back.seats[1].computer and back.version == 2
    started = await store.update_draft(draft.id, 2, state={}, status="drafting", due_at=None)
    with pytest.raises(LimitedRefused) as e:
        await store.set_seat_user(draft.id, 1, CAROL, "Carol")
    assert e.value.reason == "started"
    assert await store.get_draft(draft.id) == started


async def test_a_locked_deck_is_never_changed(store, backend):
    draft = await _draft(store)
    seat = await store.save_limited_deck(draft.id, 1, ["c09"], at=T0)
    seat = await store.save_limited_deck(draft.id, 1, ["c09", "c08"], at=T0 + 1)    # unlocked: changes freely
    assert (seat.deck, seat.deck_at, seat.locked) == (("c09", "c08"), T0 + 1, False)
    locked = await store.save_limited_deck(draft.id, 0, DECK, locked=True, at=T0 + 2)
    assert locked.deck == tuple(DECK) and locked.locked
    assert await store.save_limited_deck(draft.id, 0, DECK, at=T0 + 3) == locked      # the same deck: unchanged
    for deck in (["c01"], DECK + ["c04"]):
        with pytest.raises(LimitedRefused) as e:
            await store.save_limited_deck(draft.id, 0, deck)
        assert e.value.reason == "locked"
    got = await store.get_draft(draft.id)
    assert got.seats[0] == locked and got.seats[1] == seat
    with pytest.raises(LimitedRefused):
        await store.save_limited_deck(draft.id, 5, DECK)
    for bad in (["c"] * 201, ["x" * 65], [""], [1, 2], "c01"):
        with pytest.raises(ValueError):
            await store.save_limited_deck(draft.id, 1, bad)
    assert (await store.get_draft(draft.id)).seats[1] == seat


async def test_the_drafts_whose_pick_timed_out_are_found_earliest_first(store):
    late = await _draft(store, seed=b"\x01" * 32, due_at=T0 + 5)
    early = await _draft(store, seed=b"\x02" * 32, due_at=T0 - 5, status="drafting")
    later = await _draft(store, seed=b"\x03" * 32, due_at=T0 + 500)
    await _draft(store, seed=b"\x04" * 32)                             # nothing timed
    assert await store.drafts_due(T0) == [early.id]
    assert await store.drafts_due(T0 + 10) == [early.id, late.id]
    assert await store.drafts_due(T0 + 1000, limit=2) == [early.id, late.id]
    await store.update_draft(early.id, 0, state={}, status="cancelled", due_at=T0)
    assert await store.drafts_due(T0 + 1000) == [late.id, later.id]


async def test_a_servers_drafts_newest_first_and_a_players_own(store):
    a = await _draft(store, seed=b"\x01" * 32, created_at=T0)
    b = await _draft(store, seed=b"\x02" * 32, created_at=T0 + 1, seats=[(BOB, "Bob"), (None, "CPU")])
    c = await _draft(store, seed=b"\x03" * 32, created_at=T0 + 2)
    await _draft(store, seed=b"\x04" * 32, created_at=T0 + 3, guild_id=G2)
    await _done(store, c)
    assert [d.id for d in await store.drafts_of(G1)] == [b.id, a.id]
    assert [d.id for d in await store.drafts_of(G1, statuses=("done", "open"))] == [c.id, b.id, a.id]
    assert [d.id for d in await store.drafts_of(G1, user_id=BOB)] == [b.id]
    assert [d.id for d in await store.drafts_of(G1, limit=1)] == [b.id]
    assert await store.drafts_of(G1, statuses=()) == [] and await store.drafts_of(G1, user_id=CAROL) == []


# --------------------------------------------------------------------------- the figures' rows
async def test_picks_are_kept_once_the_draft_is_done_and_twice_is_once(store, backend):
    draft = await _draft(store)
    picks = [_pick(draft.id, 1), _pick(draft.id, 2, "c02", seat=1, human=False)]
    with pytest.raises(LimitedRefused) as e:          # a pick is hidden information until the end
        await store.add_picks(draft.id, picks)
    assert e.value.reason == "not_done" and await _count(backend, "limited_picks") == 0
    await _done(store, draft)
    await store.add_picks(draft.id, picks)
    await store.add_picks(draft.id, picks)
    await store.add_picks(draft.id, [replace(picks[0], card="c09")])       # the first written stands
    got, _, _ = await store.limited_rows(G1, "maken", "Cube", 2)
    assert got == picks and await _count(backend, "limited_picks") == 2
    for bad in ([replace(picks[0], card="zz")], [replace(picks[0], draft_id=draft.id + 1)],
                [replace(picks[0], seat=5)], [picks[0], picks[0]]):
        with pytest.raises(ValueError):
            await store.add_picks(draft.id, bad)
    assert await store.limited_rows(G1, "maken", "Cube", 1) == ([], [], [])
    assert await store.limited_rows(G2, "maken", "Cube", 2) == ([], [], [])


async def test_games_are_kept_once_per_match_and_seat(store, backend):
    draft = await _draft(store)
    m1, m2 = await _match(store), await _match(store)
    rows = [_game(m1, 0, draft.id, 1.0), _game(m1, 1, draft.id, 0.0), _game(m2, 0, draft.id, 0.5)]
    await store.add_limited_games(rows)
    await store.add_limited_games(rows)
    await store.add_limited_games([replace(rows[0], score=0.0)])
    _, games, _ = await store.limited_rows(G1, "maken", "Cube", 2)
    assert games == rows and await _count(backend, "limited_games") == 3
    for bad in ([_game(m1, 2, draft.id, set_version=3)],            # not the draft's set
                [_game(m1, 2, draft.id + 9)], [_game(m1 + 99, 0, draft.id)],
                [_game(m1, 2, draft.id, score=0.7)], [_game(m1, 2, draft.id, deck=("c",) * 201)]):
        with pytest.raises(ValueError):
            await store.add_limited_games(bad + [_game(m2, 1, draft.id)])
    assert await _count(backend, "limited_games") == 3                 # a refused batch writes nothing


async def test_card_ids_needing_escapes_read_back_as_written(store):
    """A list of plain ids is read by splitting it, any other through the JSON parser: both give
    back exactly the ids written."""
    odd = ('a"b', "c\\d", "日本", ",", '","', "x" * 64, "tab\there", "[]")
    draft = await _draft(store)
    assert (await store.save_limited_deck(draft.id, 0, odd)).deck == odd
    assert (await store.get_draft(draft.id)).seats[0].deck == odd
    m = await _match(store)
    await store.add_limited_games([_game(m, 0, draft.id, deck=odd, drawn=odd[:3], played=())])
    _, games, _ = await store.limited_rows(G1, "maken", "Cube", 2)
    assert (games[0].deck, games[0].drawn, games[0].played) == (odd, odd[:3], ())


async def test_one_survey_answer_per_player_per_match_the_second_replacing_the_first(store, backend):
    m = await _match(store)
    await store.put_survey(_survey(m, ALICE, fun=2, strong="c01"))
    await store.put_survey(_survey(m, ALICE, fun=5, strong=None, weak="c03"))
    await store.put_survey(_survey(m, BOB, fun=None, strong="c02"))
    await store.put_survey(_survey(m, BOB, set_name=None))              # a shipped-cards match
    _, _, answers = await store.limited_rows(G1, "maken", "Cube", 2)
    assert [(a.user_id, a.fun, a.strong, a.weak) for a in answers] == [(ALICE, 5, None, "c03")]
    _, _, shipped = await store.limited_rows(G1, "maken", None, None)
    assert [(a.user_id, a.set_name, a.fun) for a in shipped] == [(BOB, None, 4)]
    assert await _count(backend, "card_surveys") == 2
    for bad in (_survey(m, CAROL, fun=6), _survey(m, CAROL, strong="c99"), _survey(m + 99, CAROL),
                replace(_survey(m, CAROL), seen=("c01",) * 1001)):
        with pytest.raises(ValueError):
            await store.put_survey(bad)
    assert await _count(backend, "card_surveys") == 2


async def test_a_row_that_does_not_read_is_skipped_and_the_others_served(store, backend, caplog):
    good, bad = await _draft(store, seed=b"\x01" * 32), await _draft(store, seed=b"\x02" * 32, created_at=T0 + 1)
    seat_bad = await _draft(store, seed=b"\x03" * 32, created_at=T0 + 2)
    for d in (good, bad):
        await _done(store, d)
    await store.add_picks(good.id, [_pick(good.id, 1), _pick(good.id, 2)])
    await store.add_picks(bad.id, [_pick(bad.id, 1)])
    m = await _match(store)
    await store.add_limited_games([_game(m, 0, good.id), _game(m, 1, good.id, 0.0)])
    await store.put_survey(_survey(m, ALICE))
    await store.put_survey(_survey(m, BOB))
    await backend.raw("UPDATE limited_drafts SET state = ? WHERE id = ?", "not json", bad.id)
    await backend.raw("UPDATE limited_seats SET deck = ? WHERE draft_id = ? AND seat = 1", '{"a": 1}', seat_bad.id)
    await backend.raw("UPDATE limited_picks SET offered = ? WHERE draft_id = ? AND seq = 2", "[1, 2]", good.id)
    await backend.raw("UPDATE limited_games SET drawn = ? WHERE match_id = ? AND seat = 1", "[", m)
    await backend.raw("UPDATE card_surveys SET strong = ? WHERE user_id = ?", "c99", BOB)
    with caplog.at_level(logging.WARNING, logger="data.store"):
        assert await store.get_draft(bad.id) is None and await store.get_draft(seat_bad.id) is None
        assert [d.id for d in await store.drafts_of(G1, statuses=("open", "done"))] == [good.id]
        picks, games, answers = await store.limited_rows(G1, "maken", "Cube", 2)
    assert [(p.draft_id, p.seq) for p in picks] == [(good.id, 1), (bad.id, 1)]
    assert [(g.match_id, g.seat) for g in games] == [(m, 0)]
    assert [a.user_id for a in answers] == [ALICE]
    assert sum("does not read" in r.getMessage() for r in caplog.records) >= 5
    with pytest.raises(StoreError):                # a draft that does not read is not written blind
        await store.update_draft(bad.id, 1, state={}, status="done", due_at=None)


# --------------------------------------------------------------------------- commits never confirmed
@pytest.mark.parametrize("committed", [True, False])
async def test_a_new_draft_and_a_state_whose_commit_was_not_confirmed_are_read_back(store, backend, committed):
    async with commit_answer_lost(store, backend, committed) as used:
        draft = await _draft(store)
    assert used and [r[0] for r in await backend.raw("SELECT id FROM limited_drafts")] == [draft.id]
    assert await store.get_draft(draft.id) == draft and await _count(backend, "limited_seats") == 3
    # committed: read back and answered as written; not committed: known to be unwritten, so the
    # store wrote it again — either way written exactly once, never a VersionConflict with itself
    async with commit_answer_lost(store, backend, committed):
        one = await store.update_draft(draft.id, 0, state={"n": 1}, status="drafting", due_at=T0, at=T0 + 1)
    assert one == await store.get_draft(draft.id) and one.version == 1 and one.state == {"n": 1}


# --------------------------------------------------------------------------- the migration
async def _upgrade(make, old_migrations) -> None:
    """A database made by the code of schema 10 (with a match in it), opened by today's code:
    migrated, what was stored kept, the limited-play tables usable."""
    s10 = make(old_migrations)
    await s10.open()
    try:
        assert await s10.schema_version() == 10
        match_id = await _match(s10)
    finally:
        await s10.close()
    s = make(None)
    await s.open()
    try:
        assert await s.schema_version() == migrate.latest_version() >= 11
        assert (await s.get_match(match_id)).seats == [ALICE, BOB]
        draft = await _draft(s)
        await s.add_limited_games([_game(match_id, 0, draft.id)])
        await s.put_survey(_survey(match_id, ALICE))
        _, games, answers = await s.limited_rows(G1, "maken", "Cube", 2)
        assert len(games) == len(answers) == 1 and (await s.get_draft(draft.id)).seats == draft.seats
    finally:
        await s.close()


async def test_the_migration_applies_to_a_sqlite_database_of_version_10(tmp_path):
    from data.sqlite_store import SqliteStore

    path = tmp_path / "v10.db"
    await _upgrade(lambda migs: SqliteStore(path, migrations=migs), migrate.load_migrations()[:10])


async def test_the_migration_applies_to_a_postgres_database_of_version_10(pg_url):
    from data import pg_migrate
    from data.postgres_store import PostgresStore

    await _upgrade(lambda migs: PostgresStore(pg_url, migrations=migs), pg_migrate.load_pg_migrations()[:10])


async def test_a_players_survey_answer_is_read_alone(tmp_path):
    """``survey_of``: one player's answer about one match, None for another player or match."""
    from data.store import open_store

    store = await open_store(str(tmp_path / "survey.db"))
    try:
        assert await store.survey_of(1, 2) is None
        assert await store.survey_of(-1, 2) is None, "an id no row can have"
    finally:
        await store.close()
