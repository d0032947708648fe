"""The counters behind ``/cards report`` in the store (data/sql_card_counters.py, migration 0012)
on both backends: kept in step with the rows by every write — a draft's picks kept twice or in
two calls counted once, a match's seats kept twice counted once, a survey answer replaced (also
by one of another set version) taken away — so that the report built from them is the report
built from the rows; a counter row that does not read skipped and logged, the others served, and
the version counted again at its next read; a version whose rows were kept before the counters
existed (a database of schema 11) counted from its rows by its first read, writes made meanwhile
included; and ``Feedback.report`` reading the counters."""
from __future__ import annotations

import logging
import random
from dataclasses import replace

import pytest

from data import migrate
from data.card_counts import SetCounts, tally_rows
from data.sql_card_counters import COUNTER_IDEMPOTENT
from data.rows import dumps
from data.sql_limited import _GAME_COLS, _PICK_COLS, _SURVEY_COLS, LimitedGameRecord, PickRecord, SurveyRecord
from data.sql_store import SqlStore
from data.store import MatchRecord, Store
from host.stats import card_figures as F

T0 = 1_700_000_000.0
ALICE, BOB, CAROL = 101, 202, 303
G1 = 9001
SET = ("Cube", 2)
CARDS = [f"c{i:02d}" for i in range(12)]


@pytest.fixture
async def store(backend):
    return await backend.open()


async def _draft(store: Store, seed: int, set_name: str | None = "Cube", set_version: int | None = 2):
    d = await store.create_draft(guild_id=G1, game="maken", format="booster", source="cube",
                                 seed=bytes([seed]) * 32, created_by=ALICE,
                                 seats=[(ALICE, "Alice"), (BOB, "Bob"), (None, "CPU")], state={},
                                 set_name=set_name, set_version=set_version, created_at=T0 + seed)
    return await store.update_draft(d.id, 0, state={}, status="done", due_at=None, at=T0 + 100)


async def _match(store: Store) -> int:
    rec = await store.create_match(MatchRecord(game="maken", seed=1, seats=[ALICE, BOB], names=["a", "b"],
                                               creator=ALICE, guild_id=G1, status="active"))
    return rec.id


def _picks(draft_id: int, rnd: random.Random, n: int = 12) -> list[PickRecord]:
    """A draft's picks: three seats (two people and a computer), packs from CARDS with copies."""
    out = []
    for seq in range(1, n + 1):
        pack = tuple(rnd.choice(CARDS) for _ in range(rnd.randint(1, 5)))
        seat = seq % 3
        out.append(PickRecord(draft_id, seq, 1, 1 + seq // 3, seat, rnd.choice(pack), pack, seat < 2, T0 + seq))
    return out


def _game(match_id: int, seat: int, draft_id: int, score: float, rnd: random.Random,
          set_name: str | None = "Cube", set_version: int | None = 2) -> LimitedGameRecord:
    deck = tuple(rnd.choice(CARDS) for _ in range(8))
    drawn = tuple(c for c in deck if rnd.random() < 0.6)
    return LimitedGameRecord(match_id, seat, draft_id, G1, "maken", set_name, set_version, deck, drawn,
                             tuple(c for c in drawn if rnd.random() < 0.5), score)


def _survey(match_id: int, user_id: int, fun=4, strong="c01", weak=None, set_name="Cube",
            seen=("c01", "c02", "c03")) -> SurveyRecord:
    return SurveyRecord(match_id, user_id, G1, "maken", set_name, 2 if set_name else None, fun, strong, weak,
                        seen, T0)


async def _same_as_the_rows(store: Store, set_name: str | None = "Cube", set_version: int | None = 2):
    """The counters are the count of the version's rows, and the report built from them is the
    report built from the rows (with every minimum at 1, so that every figure is compared)."""
    picks, games, answers = await store.limited_rows(G1, "maken", set_name, set_version)
    counts, totals = await store.card_counts(G1, "maken", set_name, set_version)
    want = tally_rows(picks, games, answers).counts()
    assert ([k for k in counts if any(k.values())], totals) == want
    small = {"min_games": 1, "min_drafts": 1, "min_surveys": 1}
    rows = F.report(
        (F.PickRow(p.draft_id, p.seat, p.card, p.pick_no, p.offered, p.human) for p in picks),
        (F.SeatGame(g.match_id, g.seat, frozenset(g.deck), frozenset(g.drawn), frozenset(g.played), g.score)
         for g in games),
        (F.SurveyAnswer(a.match_id, str(a.user_id), a.fun, a.strong, a.weak, frozenset(a.seen)) for a in answers),
        cards=CARDS, **small)
    assert F.report_from_counts(counts, totals, cards=CARDS, **small) == rows
    return counts, totals


def test_the_counters_read_is_a_store_method_both_backends_have_and_retry():
    abstract = {n for n, f in vars(Store).items() if getattr(f, "__isabstractmethod__", False)}
    assert set(COUNTER_IDEMPOTENT) == {"card_counts"} <= abstract
    assert getattr(SqlStore.card_counts, "__wrapped_store_call__", False)


# --------------------------------------------------------------------------- in step with the rows
async def test_a_drafts_picks_are_counted_once_however_often_and_in_however_many_calls(store):
    rnd = random.Random(1)
    d = await _draft(store, 1)
    picks = _picks(d.id, rnd)
    await store.add_picks(d.id, picks[:5])
    await store.add_picks(d.id, picks[:5])                     # kept twice: counted once
    counts, totals = await _same_as_the_rows(store)
    assert totals.drafts == 1
    await store.add_picks(d.id, picks)                          # the rest, with the first five again
    await store.add_picks(d.id, [replace(picks[0], card=picks[0].offered[-1], pick_no=9)])  # the first stands
    counts, totals = await _same_as_the_rows(store)
    assert totals.drafts == 1
    k = {c.card: c for c in counts}
    human = [p for p in picks if p.human]
    for card in CARDS:                 # a card's drafts: at most one, this one, whatever its offers
        offers = sum(p.offered.count(card) for p in human)
        got = k.get(card)
        assert ((got.offered, got.drafts_offered) if got else (0, 0)) == (offers, min(offers, 1)), card
    # a second draft, a computer's picks only: a draft, and no card's figure
    d2 = await _draft(store, 2)
    await store.add_picks(d2.id, [p for p in _picks(d2.id, rnd) if not p.human])
    _, totals = await _same_as_the_rows(store)
    assert totals.drafts == 2


async def test_a_matchs_seats_are_counted_once_and_the_match_once(store):
    rnd = random.Random(2)
    d = await _draft(store, 1)
    m1, m2 = await _match(store), await _match(store)
    first = [_game(m1, 0, d.id, 1.0, rnd), _game(m1, 1, d.id, 0.0, rnd)]
    await store.add_limited_games(first)
    await store.add_limited_games(first)
    await store.add_limited_games([replace(first[0], score=0.0)])          # the first written stands
    # a seat given twice in one call: the first is kept and counted
    await store.add_limited_games([_game(m2, 0, d.id, 0.5, rnd), _game(m2, 0, d.id, 1.0, rnd)])
    _, totals = await _same_as_the_rows(store)
    assert (totals.matches, totals.seat_games) == (2, 3)
    await store.add_limited_games([_game(m2, 1, d.id, 0.5, rnd)])          # m2's other seat, later
    counts, totals = await _same_as_the_rows(store)
    assert (totals.matches, totals.seat_games) == (2, 4)
    assert sum(k.game_wins for k in counts) == sum(
        len(set(g.deck)) * g.score for g in (await store.limited_rows(G1, "maken", *SET))[1])


async def test_a_survey_answer_replaced_is_taken_away_also_from_another_version(store):
    m = await _match(store)
    await store.put_survey(_survey(m, ALICE, fun=2, strong="c01"))
    await store.put_survey(_survey(m, BOB, fun=None, strong="c02", weak="c03"))
    counts, totals = await _same_as_the_rows(store)
    assert (totals.surveys, totals.fun_n, totals.fun_sum) == (2, 1, 2)
    await store.put_survey(_survey(m, ALICE, fun=5, strong=None, weak="c01", seen=("c01", "c04")))
    await store.put_survey(_survey(m, ALICE, fun=5, strong=None, weak="c01", seen=("c01", "c04")))   # again
    counts, totals = await _same_as_the_rows(store)
    k = {c.card: c for c in counts}
    assert (totals.surveys, totals.fun_n, totals.fun_sum, totals.fun_squares) == (2, 1, 5, 25)
    assert (k["c01"].strong, k["c01"].weak, k["c01"].surveyed, k["c04"].surveyed) == (0, 1, 2, 1)
    # Bob's answer now names the shipped cards: gone from the set's counters, in the shipped ones'
    await store.put_survey(_survey(m, BOB, fun=3, strong=None, set_name=None))
    counts, totals = await _same_as_the_rows(store)
    assert totals.surveys == 1 and {c.card: c.weak for c in counts}["c03"] == 0
    _, shipped = await _same_as_the_rows(store, None, None)
    assert (shipped.surveys, shipped.fun_sum) == (1, 3)


async def test_a_larger_mix_of_writes_gives_the_report_of_the_rows(store, backend):
    """Drafts, matches and answers written in random order and repeated, on two stores of one
    database (as two processes would): the counters stay the count of the rows."""
    rnd = random.Random(3)
    other = await backend.open()
    drafts = [await _draft(store, i) for i in range(1, 4)]
    matches = [await _match(store) for _ in range(6)]
    writes = []
    for d in drafts:
        picks = _picks(d.id, rnd, 20)
        writes += [("picks", d.id, picks[:8]), ("picks", d.id, picks)]
    for m in matches:
        d = rnd.choice(drafts)
        writes += [("games", [_game(m, s, d.id, sc, rnd)]) for s, sc in enumerate(rnd.choice(([1.0, 0.0], [0.5, 0.5])))]
        for user in (ALICE, BOB):
            seen = tuple(rnd.sample(CARDS, 4))
            writes += [("survey", _survey(m, user, rnd.choice([None, 1, 3, 5]), seen[0], seen[1], seen=seen))
                       for _ in range(rnd.randint(1, 3))]
    rnd.shuffle(writes)
    for w in writes + writes[:10]:
        s = rnd.choice((store, other))
        if w[0] == "picks":
            await s.add_picks(w[1], w[2])
        elif w[0] == "games":
            await s.add_limited_games(w[1])
        else:
            await s.put_survey(w[1])
    counts, totals = await _same_as_the_rows(store)
    assert totals.drafts == 3 and totals.matches == 6 and totals.surveys == 12
    assert await other.card_counts(G1, "maken", *SET) == (counts, totals)


async def test_nothing_kept_nothing_counted(store):
    assert await store.card_counts(G1, "maken", *SET) == ([], SetCounts())
    assert await store.card_counts(G1, "maken", "Cube", None) == ([], SetCounts())   # not a set's key
    assert await store.card_counts(-1, "maken", *SET) == ([], SetCounts())
    assert await store.card_counts(G1, "squares", *SET) == ([], SetCounts())


# --------------------------------------------------------------------------- rows that do not read
async def test_a_counter_row_that_does_not_read_is_skipped_and_the_version_counted_again(store, backend, caplog):
    rnd = random.Random(4)
    d = await _draft(store, 1)
    await store.add_picks(d.id, _picks(d.id, rnd))
    m = await _match(store)
    await store.add_limited_games([_game(m, 0, d.id, 1.0, rnd), _game(m, 1, d.id, 0.0, rnd)])
    await store.put_survey(_survey(m, ALICE))
    good, totals = await _same_as_the_rows(store)
    victim = good[0].card
    wrong = [("offered", -1), ("game_wins", 0.25), ("taken", 10 ** 6)]
    if backend.name == "sqlite":                # a text where a number belongs (PostgreSQL refuses it)
        wrong.append(("taken", "x"))
    for column, value in wrong:
        await backend.raw(f"UPDATE card_counts SET {column} = ? WHERE card = ?", value, victim)
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="data.store"):
            counts, got_totals = await store.card_counts(G1, "maken", *SET)
        assert counts == good[1:] and got_totals == totals, column      # the others served
        assert any("does not read" in r.getMessage() for r in caplog.records)
        await _same_as_the_rows(store)                                   # counted again: whole
    # the totals: served as nothing, the cards as they are; whole again at the next read
    await backend.raw("UPDATE card_count_totals SET matches = seat_games + 1")
    with caplog.at_level(logging.WARNING, logger="data.store"):
        counts, got_totals = await store.card_counts(G1, "maken", *SET)
    assert counts == good and got_totals == SetCounts()
    assert (await _same_as_the_rows(store))[1] == totals


async def test_a_kept_row_that_does_not_read_has_its_version_counted_again(store, backend, caplog):
    """What a kept row added is unknown once it does not read: a write meeting one leaves the
    counters to be counted again from the rows (the bad row skipped, as limited_rows skips it)."""
    rnd = random.Random(5)
    d = await _draft(store, 1)
    picks = _picks(d.id, rnd)
    await store.add_picks(d.id, picks[:6])
    await backend.raw("UPDATE limited_picks SET offered = ? WHERE draft_id = ? AND seq = 2", "[1]", d.id)
    with caplog.at_level(logging.WARNING, logger="data.store"):
        await store.add_picks(d.id, picks)
    assert any("counted again" in r.getMessage() for r in caplog.records)
    _, totals = await _same_as_the_rows(store)
    assert totals.drafts == 1
    m = await _match(store)
    await store.put_survey(_survey(m, ALICE))
    await backend.raw("UPDATE card_surveys SET strong = ? WHERE user_id = ?", "c99", ALICE)
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="data.store"):
        await store.put_survey(_survey(m, ALICE, fun=1, strong="c02"))
    assert any("counted again" in r.getMessage() for r in caplog.records)
    _, totals = await _same_as_the_rows(store)
    assert totals.surveys == 1 and totals.fun_sum == 1


# --------------------------------------------------------------------------- the migration
async def _keep_as_schema_11_did(store: Store, picks=(), games=(), answers=()) -> None:
    """The rows written as the code of schema 11 wrote them: the rows alone (no counters then)."""
    async with store._write() as c:
        for p in picks:
            head = await c.fetchone("SELECT guild_id, game, set_name, set_version FROM limited_drafts WHERE id = ?",
                                    p.draft_id)
            await c.execute(f"INSERT INTO limited_picks ({_PICK_COLS}, guild_id, game, set_name, set_version) "
                            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", p.draft_id, p.seq, p.round, p.pick_no,
                            p.seat, p.card, dumps(list(p.offered), "offered"), int(p.human), p.at, *head)
        for g in games:
            await c.execute(f"INSERT INTO limited_games ({_GAME_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                            g.match_id, g.seat, g.draft_id, g.guild_id, g.game, g.set_name, g.set_version,
                            dumps(list(g.deck), "deck"), dumps(list(g.drawn), "drawn"),
                            dumps(list(g.played), "played"), g.score)
        for a in answers:
            await c.execute(f"INSERT INTO card_surveys ({_SURVEY_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                            a.match_id, a.user_id, a.guild_id, a.game, a.set_name, a.set_version, a.fun, a.strong,
                            a.weak, dumps(list(a.seen), "seen"), a.at)


async def _backfill(open_store, old) -> None:
    """Rows kept by the code of schema 11 (two versions), the database opened by today's code:
    each version is counted from its rows by its first read — with writes made before that read
    (an answer replacing one of schema 11, a new one) counted too — and only once."""
    s11 = await open_store(old)
    rnd = random.Random(6)
    try:
        assert await s11.schema_version() == 11
        d = await _draft(s11, 1)
        shipped = await _draft(s11, 2, None, None)
        m = await _match(s11)
        await _keep_as_schema_11_did(s11, _picks(d.id, rnd) + _picks(shipped.id, rnd),
                                     [_game(m, 0, d.id, 0.5, rnd), _game(m, 1, d.id, 0.5, rnd)],
                                     [_survey(m, ALICE, fun=2)])
    finally:
        await s11.close()
    s = await open_store(None)
    try:
        assert await s.schema_version() == migrate.latest_version() >= 12
        await s.put_survey(_survey(m, ALICE, fun=4, strong="c03"))       # before the first report
        await s.put_survey(_survey(m, BOB, fun=5))
        _, totals = await _same_as_the_rows(s)
        assert (totals.drafts, totals.matches, totals.surveys, totals.fun_sum) == (1, 1, 2, 9)
        _, shipped_totals = await _same_as_the_rows(s, None, None)
        assert shipped_totals.drafts == 1
        m2 = await _match(s)                                              # after it: kept in step
        await s.add_limited_games([_game(m2, 0, d.id, 1.0, rnd)])
        _, totals = await _same_as_the_rows(s)
        assert totals.matches == 2
    finally:
        await s.close()


async def test_the_counters_of_a_sqlite_database_of_version_11_are_counted_from_its_rows(tmp_path):
    from data.sqlite_store import SqliteStore

    async def open_store(migs):
        s = SqliteStore(tmp_path / "v11.db", migrations=migs)
        await s.open()
        return s
    await _backfill(open_store, migrate.load_migrations()[:11])


async def test_the_counters_of_a_postgres_database_of_version_11_are_counted_from_its_rows(pg_url):
    from data import pg_migrate
    from data.postgres_store import PostgresStore

    async def open_store(migs):
        s = PostgresStore(pg_url, migrations=migs)
        await s.open()
        return s
    await _backfill(open_store, pg_migrate.load_pg_migrations()[:11])


# --------------------------------------------------------------------------- the report
async def test_the_report_reads_the_counters(store):
    """``Feedback.report`` (host/limited/feedback.py) builds its figures from the counters — the
    report of the rows, with the set's every card — and never reads the rows themselves."""
    from types import SimpleNamespace

    from host.limited.feedback import Feedback

    rnd = random.Random(7)
    d = await _draft(store, 1)
    await store.add_picks(d.id, _picks(d.id, rnd, 30))
    for _ in range(25):
        m = await _match(store)
        await store.add_limited_games([_game(m, 0, d.id, 1.0, rnd), _game(m, 1, d.id, 0.0, rnd)])
        await store.put_survey(_survey(m, ALICE, fun=rnd.randint(1, 5)))
    cards = SimpleNamespace(set_name="Cube", set_version=2, cube={c: 1 for c in CARDS + ["never"]},
                            entries={c: SimpleNamespace(name={"en": c.upper()}) for c in CARDS})

    class Reader(Feedback):
        def __init__(self) -> None:
            self.store = store

        async def cards(self, guild_id, game, set_name, version):
            return cards, None

    async def no_rows(*a, **kw):
        raise AssertionError("the report reads the counters, not the rows")
    picks, games, answers = await store.limited_rows(G1, "maken", *SET)
    rows_report = F.report((F.PickRow(p.draft_id, p.seat, p.card, p.pick_no, p.offered, p.human) for p in picks),
                           (F.SeatGame(g.match_id, g.seat, frozenset(g.deck), frozenset(g.drawn),
                                       frozenset(g.played), g.score) for g in games),
                           (F.SurveyAnswer(a.match_id, str(a.user_id), a.fun, a.strong, a.weak, frozenset(a.seen))
                            for a in answers), cards=sorted(cards.cube))
    store.limited_rows = no_rows
    res = await Reader().report(G1, "maken", "Cube", 2)
    assert res.ok and res.data["report"] == rows_report and res.data["set"] == SET
    assert res.data["report"].matches == 25 and any(r.in_deck is not None for r in rows_report.rows)
    assert "never" in {r.card for r in rows_report.rows}
