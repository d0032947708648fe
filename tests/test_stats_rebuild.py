"""Issue 46: a server's statistics rebuilt fast (host/stats/rebuild.py) with the results of
today's rebuild — every match counted again one by one through the finished-match hook's path
(``Stats.count_many``), the reference kept here as :func:`old_rebuild` — and the deck a player
joins an Avalon's Sanctuary match with attributed on ``/profile``.

The matches are a few hundred of every game played by seeded random legal commands (Avalon's
Sanctuary with late joins and rejoins, with saved decks; practice and league matches; two rating
seasons; some never counted, some counted under another facts version), a few of a server's own
card set played through the host, all stored as the host stores them.  Each test's docstring
quotes the clause it proves."""
from __future__ import annotations

import json
import random
import shutil
import sqlite3
from pathlib import Path

import pytest

from bench.workload import Template, copy_templates
from data.store import FINISHED, CommandRecord, open_store
from host import Host, engines
from host.records import SEASON_KEY
from host.replay import RESIGN, _initial_state, _step
from host.replay_steps import public_steps
from host.stats import aggregate as AG
from host.stats import rebuild as RB
from host.stats.facts import counted, lazy_steps, match_facts, own_hash
from host.stats.service import Stats
from rules import IllegalCommand, registry
from test_stats_facts import _record

G = 55                      # test_stats_facts._record's server
GAMES = ("squares", "logic_square", "maken", "art_of_war", "avalon")
PER_GAME = 60
CARDS = Path(__file__).resolve().parent / "data" / "card_sets" / "art_of_war"


# ------------------------------------------------------------------------------- the reference
async def old_rebuild(stats: Stats, guild_id: int) -> int:
    """Today's rebuild, as it was: the seasons kept, everything forgotten, then every finished
    match counted again through the hook's path, 500 a page, one season at a time."""
    seasons = await stats.store.stats_seasons(int(guild_id))
    await stats.store.delete_stats(int(guild_id))
    current = await stats._season(int(guild_id))
    n, after = 0, 0
    while True:
        batch = await stats.store.finished_in_guild(int(guild_id), after)
        if not batch:
            break
        after = max(int(rec.id) for rec in batch)
        for season in sorted({seasons.get(rec.id) or current for rec in batch}):
            page = [rec for rec in batch if (seasons.get(rec.id) or current) == season]
            n += sum(await stats.count_many(page, season=season))
    return n


def tables(path: Path) -> dict:
    """Every statistics table of the file, in order (the facts decoded)."""
    db = sqlite3.connect(str(path))
    try:
        return {
            "counts": db.execute("SELECT guild_id, game, split, scope, key, n, score FROM stats_counts "
                                 "ORDER BY 1, 2, 3, 4, 5").fetchall(),
            "users": db.execute("SELECT user_id, guild_id, game, key, n, score FROM stats_users "
                                "ORDER BY 1, 2, 3, 4").fetchall(),
            "matches": [(*r[:6], json.loads(r[6])) for r in db.execute(
                "SELECT match_id, guild_id, game, finished_at, league_id, season, facts FROM stats_matches "
                "ORDER BY match_id")],
            "pairings": db.execute("SELECT league_id, pairing_id FROM stats_pairings ORDER BY 1, 2").fetchall(),
        }
    finally:
        db.close()


# ------------------------------------------------------------------------------- the matches
def _random_play(eng, rec, state, log, rng, moves: int):
    for _ in range(moves):
        if eng.outcome(state) is not None:
            break
        seats = [s for s in eng.to_act(state) if eng.legal_commands(state, s)]
        if not seats:
            break
        seat = rng.choice(seats)
        command = rng.choice(eng.legal_commands(state, seat))
        state = _step(eng, state, seat, command)
        log.append((seat, command))
    return state


def _match(game: str, seed: int) -> Template:
    """A finished match of ``game`` from seeded random legal play, as the host stores it (every
    seventh a practice match, every eleventh a league game); Avalon's Sanctuary often with a late
    joiner bringing a saved deck and a player who resigns and rejoins with another deck."""
    rng = random.Random(seed)
    eng = registry.get(game)
    ready = list(eng.decks.ready()) if getattr(eng, "decks", None) is not None else []
    meta = {}
    if seed % 7 == 0:
        meta = {"practice": True, "rated": False, "ai": {"1": "easy"}}
    elif seed % 11 == 0:
        meta = {"league": 9, "pairing": seed}
    options: dict = {"first": 0} if game != "avalon" else {"leader": 0}
    if ready:
        pick = [rng.choice(ready) for _ in range(2)]
        if seed % 3 == 0:             # a saved deck: its spec
            pick[0] = eng.decks.ready()[pick[0]]["spec"]
        options["decks"] = pick
    rec = _record(game, seed, options, meta=meta)
    state = _initial_state(eng, rec)
    log: list[tuple[int, str]] = []
    state = _random_play(eng, rec, state, log, rng, rng.randrange(4, 30))
    if game == "avalon" and seed % 2 and eng.outcome(state) is None:
        spec = eng.decks.ready()[rng.choice(ready)]["spec"]
        rec.seats, rec.names = rec.seats + [103], rec.names + ["Cy"]
        for entry in (f"__join__ {eng.decks.encode(spec)}",):         # a late joiner's saved deck
            state = _step(eng, state, 2, entry)
            log.append((2, entry))
        state = _random_play(eng, rec, state, log, rng, rng.randrange(2, 20))
        if eng.outcome(state) is None and seed % 4 == 1:               # out, and back with another deck
            try:
                state = _step(eng, state, 1, RESIGN)
                log.append((1, RESIGN))
                token = rng.choice([rng.choice(ready), eng.decks.encode(eng.decks.ready()[rng.choice(ready)]["spec"])])
                state = _step(eng, state, 1, f"__join__ {token}")
                log.append((1, f"__join__ {token}"))
            except IllegalCommand:
                pass
    state = _random_play(eng, rec, state, log, rng, 300)
    result = None
    if eng.outcome(state) is None:
        if hasattr(eng, "resign"):
            for seat in range(len(rec.seats)):
                if eng.outcome(state) is not None:
                    break
                try:
                    after = eng.resign(state, seat)
                except IllegalCommand:
                    continue
                log.append((seat, RESIGN))
                state = after
        else:
            result = {"winners": [1], "reason": "resign", "resigned": 0}
    rec.status = FINISHED
    rec.result = result if result is not None else eng.outcome(state)
    rec.n_commands, rec.version = len(log), len(log) + 2
    rec.updated_at = 1_800_000_000.0 + seed
    return Template(rec, [CommandRecord(rec.id, i + 1, s, c, 0.0) for i, (s, c) in enumerate(log)])


async def _card_set_matches(store, n: int) -> None:
    """``n`` Art of War matches played through the host with the server's own card set."""
    import io
    import zipfile

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for p in sorted(CARDS.glob("*.csv")):
            z.writestr(p.name, p.read_bytes())
    host = Host(store, render=False)
    assert (await host.card_sets.upload(G, 7, "art_of_war", "Owls", "cards.zip", buf.getvalue())).ok
    rng = random.Random(4)
    for i in range(n):
        res = await host.challenge("art_of_war", 7, "A", opponents=[(8, "B")], guild_id=G, cards="Owls", seed=i)
        assert res.ok, res.error
        mid = res.match.id
        assert (await host.accept(mid, 8)).ok
        for _ in range(40):
            rec = await store.get_match(mid)
            if rec.status == FINISHED:
                break
            eng, state = await host.engine(rec), await host._state(rec)
            seat = rng.choice([s for s in eng.to_act(state) if eng.legal_commands(state, s)])
            assert (await host.command(mid, rec.seats[seat], rng.choice(eng.legal_commands(state, seat)))).ok
        if (await store.get_match(mid)).status != FINISHED:
            assert (await host.resign(mid, 8)).ok


@pytest.fixture(scope="module")
def stored(tmp_path_factory) -> Path:
    """The stored matches, counted as the hook counts them: the first half in season 1, the
    next third in season 2, the rest never counted; every tenth counted under another facts
    version, one with facts that do not read."""
    import asyncio

    path = tmp_path_factory.mktemp("rebuild") / "stats.db"
    templates = {g: [_match(g, 1000 * k + s) for s in range(PER_GAME)] for k, g in enumerate(GAMES, 1)}

    async def setup() -> None:
        await (await open_store(str(path))).close()
        copy_templates(str(path), templates, PER_GAME * len(GAMES), list(GAMES))
        store = await open_store(str(path))
        try:
            engines.forget()
            await _card_set_matches(store, 3)
            stats = Stats(store, Host(store, render=False))
            recs = await store.finished_in_guild(G, 0, limit=10_000)
            half, more = len(recs) // 2, len(recs) * 5 // 6
            assert sum(await stats.count_many(recs[:half], season=1)) == half
            assert sum(await stats.count_many(recs[half:more], season=2)) == more - half
            await store.set_guild_setting(G, SEASON_KEY, 3)
        finally:
            await store.close()
            engines.forget()
        db = sqlite3.connect(str(path))
        db.execute("UPDATE stats_matches SET facts = replace(facts, '\"v\":1,', '\"v\":0,') WHERE match_id % 10 = 3")
        db.execute("UPDATE stats_matches SET facts = '{\"v\":1' WHERE match_id = (SELECT MIN(match_id) + 4 FROM stats_matches)")
        db.commit()
        db.close()
    asyncio.run(setup())
    return path


async def _rebuilt(src: Path, dest: Path, how) -> tuple[int, dict]:
    shutil.copy(src, dest)
    engines.forget()
    store = await open_store(str(dest))
    try:
        n = await how(Stats(store, Host(store, render=False)))
    finally:
        await store.close()
        engines.forget()
    return n, tables(dest)


@pytest.fixture(scope="module")
def old(stored, tmp_path_factory) -> tuple[int, dict]:
    """Today's rebuild of the stored matches (:func:`old_rebuild`): what each rebuild is compared
    with, made once for the module (it reads nothing the tests change)."""
    import asyncio

    return asyncio.run(_rebuilt(stored, tmp_path_factory.mktemp("old") / "old.db", lambda s: old_rebuild(s, G)))


# ------------------------------------------------------------------------------- the tests
async def test_the_rebuild_gives_todays_results_on_a_few_hundred_matches_of_every_game(stored, old, tmp_path):
    """"Statistics rebuilt … with identical results to today's rebuild (a test compares both on a
    few hundred matches of every game)" — the counters, the players' counters, every match's
    facts and season, whether each was counted from its stored facts (the same version), replayed
    (never counted, another version, facts that do not read) or all replayed (``replay=True``)."""
    n_old, old = old
    n_new, new = await _rebuilt(stored, tmp_path / "new.db", lambda s: s.rebuild(G))
    n_all, replayed = await _rebuilt(stored, tmp_path / "all.db", lambda s: s.rebuild(G, replay=True))
    assert n_old == n_new == n_all == PER_GAME * len(GAMES) + 3
    assert {g for _m, _g, game, *_ in old["matches"] for g in [game]} == set(GAMES)
    assert {row[5] for row in old["matches"]} == {1, 2, 3}, "both seasons kept, the current for the rest"
    assert any(s.get("own_hash") for row in old["matches"] for s in row[6]["seats"])
    assert any(row[6]["cards"] is not None for row in old["matches"]), "a server's card set"
    assert any(row[6]["practice"] for row in old["matches"]) and any(row[4] for row in old["matches"])
    for table in ("counts", "users", "matches", "pairings"):
        assert new[table] == old[table], table
        assert replayed[table] == old[table], table


async def test_the_rebuild_replays_only_the_matches_without_this_versions_facts(stored, tmp_path, monkeypatch):
    """"computing facts from already stored data instead of replaying" — only the matches never
    counted, counted under another facts version or with facts that do not read are replayed;
    every other one is counted from its stored facts and its record (here in a thread, to count
    the replays)."""
    monkeypatch.setattr(RB, "POOL_FROM", 10 ** 6)
    replays = []
    real = RB.counted
    monkeypatch.setattr(RB, "counted", lambda engine, rec, log: replays.append(rec.id) or real(engine, rec, log))
    db = sqlite3.connect(str(stored))
    try:
        matches = {m for (m,) in db.execute("SELECT id FROM matches WHERE status = 'finished'")}
        current = {m for (m,) in db.execute("SELECT match_id FROM stats_matches WHERE facts LIKE '{\"v\":1,%'")}
    finally:
        db.close()
    n, _got = await _rebuilt(stored, tmp_path / "new.db", lambda s: s.rebuild(G))
    assert n == len(matches) and 0 < len(current) < len(matches)
    assert sorted(replays) == sorted(matches - current)


async def test_the_rebuild_pages_through_many_matches_with_the_same_sums(stored, old, tmp_path, monkeypatch):
    """"the loop never held …" — the rebuild works a page at a time (here 40 matches a page, 8
    replays a worker's task, a worker process from 10 replays): the sums of many small pages are
    those of today's rebuild."""
    monkeypatch.setattr(RB, "PAGE", 40)
    monkeypatch.setattr(RB, "CHUNK", 8)
    monkeypatch.setattr(RB, "POOL_FROM", 10)
    _n, new = await _rebuilt(stored, tmp_path / "new.db", lambda s: s.rebuild(G))
    assert new == old[1]


async def test_a_match_the_hook_counted_meanwhile_is_not_counted_twice(stored, old, tmp_path):
    """A rebuild is "safe while the bot runs": a match counted by the hook while its page was
    being made is written once and its counters added once."""
    shutil.copy(stored, tmp_path / "ref.db")
    old = old[1]
    store = await open_store(str(tmp_path / "ref.db"))
    try:
        stats = Stats(store, Host(store, render=False))
        real, seasons = store.record_stats_page, await store.stats_seasons(G)

        async def racing(guild_id, rows, increments_of):
            first = await store.get_match(rows[0][0])      # the hook counts it just before the page is written
            assert await stats.count(first, season=seasons.get(first.id) or 3)
            return await real(guild_id, rows, increments_of)
        store.record_stats_page = racing
        n = await stats.rebuild(G)
    finally:
        await store.close()
        engines.forget()
    got = tables(tmp_path / "ref.db")
    assert n == PER_GAME * len(GAMES) + 3 - 1, "the page's first match was counted by the hook"
    assert got["counts"] == old["counts"] and got["users"] == old["users"]


async def test_a_log_that_does_not_replay_is_marked_and_never_stops_the_rebuild(stored, tmp_path):
    """"one that does not read is skipped and logged and never stops the others" — a stored
    log that no longer replays (an entry after the match's end): that match is left out (and marked, so the catch-up at start does not try
    it in a loop), every other one counted."""
    path = tmp_path / "bad.db"
    shutil.copy(stored, path)
    db = sqlite3.connect(str(path))
    victim, seq = db.execute("SELECT match_id, MAX(seq) FROM commands GROUP BY match_id ORDER BY match_id").fetchone()
    db.execute("INSERT INTO commands (match_id, seq, seat, command, at) VALUES (?, ?, 0, 'nonsense 42', 0)",
               (victim, seq + 1))          # the log no longer replays (the row still reads)
    db.execute("UPDATE matches SET n_commands = n_commands + 1 WHERE id = ?", (victim,))
    db.commit()
    db.close()
    n, got = await _rebuilt(path, tmp_path / "bad2.db", lambda s: s.rebuild(G, replay=True))
    assert n == PER_GAME * len(GAMES) + 3 - 1
    marked = [row for row in got["matches"] if row[0] == victim]
    assert marked and marked[0][6].get("skipped") is True


@pytest.mark.parametrize("game", GAMES)
def test_the_statistics_steps_are_the_public_steps_and_give_the_same_facts(game):
    """"a renderer draws from the view it is handed" / the facts "only from what everyone at the
    table could see": the statistics' own replay (one start state, each step with the state its
    view is drawn from, Avalon's Sanctuary's views drawn only when a battle can have been fought)
    gives the public steps of ``host.replay_steps.public_steps`` and exactly the facts read from
    every step's drawn view."""
    from host.stats.facts import facts_of, joined

    for seed in range(12):
        t = _match(game, 5000 + seed)
        eng, rec, commands = registry.get(game), t.record, t.commands
        ours = lazy_steps(eng, rec, commands, _initial_state(eng, rec))
        theirs = public_steps(eng, rec, commands, views=True, words=False)
        assert [(s["seq"], s["seat"], s["command"]) for s in ours] == \
            [(s["seq"], s["seat"], s["command"]) for s in theirs]
        assert [s["view_of"]() for s in ours] == [s["view"] for s in theirs]
        every = facts_of(eng, rec, theirs, eng.view(_initial_state(eng, rec), None), joined(commands))
        assert match_facts(eng, rec, commands) == every


# ------------------------------------------------------------------------------- joined decks
@pytest.fixture
async def table(tmp_path):
    store = await open_store(str(tmp_path / "joins.db"))
    host = Host(store, render=False)
    stats = Stats(store, host)
    host.on_finish.append(stats.on_finish)
    yield store, host, stats
    await store.close()


async def test_a_deck_a_player_joins_avalons_sanctuary_with_is_the_one_profile_counts(table):
    """"a deck a player joins an Avalon's Sanctuary match with (a late join, or a rejoin after
    defeat with another deck) is never attributed in /profile … docs/stats.md says a player counts
    with the deck they ended the match with" — Cy joins late with a saved deck: named on Cy's
    /profile; Ann, out and back with another saved deck, is counted with that one, not the one she
    started with; Ben, out and back without naming one, keeps his."""
    store, host, stats = table
    eng = registry.get("avalon")
    ready = eng.decks.ready()
    started, joined_with, back_with = (dict(ready[d]["spec"]) for d in ("dawn", "ember", "tide"))
    A, B, C = 11, 12, 13
    res = await host.challenge("avalon", A, "Ann", opponents=[(B, "Ben")], options={"leader": 0}, guild_id=G,
                               channel_id=5, deck=started)
    mid = res.match.id
    assert (await host.accept(mid, B, deck="grove")).ok
    assert (await host.join(mid, C, "Cy", deck=joined_with)).ok              # a late join
    assert (await host.resign(mid, A)).ok
    assert (await host.join(mid, A, "Ann", deck=back_with)).ok               # a rejoin with another deck
    assert (await host.resign(mid, B)).ok
    assert (await host.join(mid, B, "Ben")).ok                               # a rejoin naming none
    for who in (A, B):
        assert (await host.resign(mid, who)).ok
    rec = await store.get_match(mid)
    assert rec.status == FINISHED and rec.result["winners"] == [2]
    for user, spec in ((C, joined_with), (A, back_with)):
        decks = (await stats.user_decks(user, G))["avalon"]
        assert list(decks) == ["own", f"own:{own_hash(eng, spec)}"], user
    assert f"own:{own_hash(eng, started)}" not in (await stats.user_decks(A, G))["avalon"]
    assert list((await stats.user_decks(B, G))["avalon"]) == ["grove"]
    assert (await stats.user_decks(C, G))["avalon"][f"own:{own_hash(eng, joined_with)}"] == AG.share(1, 1.0)
    # and a rebuild says the same
    facts = counted(eng, rec, await store.commands(mid))
    assert [s.get("own_hash") for s in facts["seats"]] == [own_hash(eng, back_with), None, own_hash(eng, joined_with)]
    before = await stats.user_decks(A, G), await stats.user_decks(C, G)
    assert await stats.rebuild(G) == 1
    assert (await stats.user_decks(A, G), await stats.user_decks(C, G)) == before


# ------------------------------------------------------------------------------- both stores
async def test_both_stores_keep_read_and_count_a_page_once_and_a_rebuild_gives_the_same_figures(backend):
    """"Statistics rebuilt … with identical results" on both backends (data/sql_stats.py): the
    facts and seasons read before they are forgotten, a page's logs (or only their late joins) in
    one query, a page of matches written in one transaction and counted once — and every figure
    the same after the rebuild."""
    from data.store import FINISHED as DONE
    from host.replay import JOIN
    from test_stats_service import AOW_LOG, SHORT_LOG, _aow

    store = await backend.open()
    host = Host(store, render=False)
    stats = Stats(store, host)
    host.on_finish.append(stats.on_finish)
    guild = 77
    ids = [await _aow(host, AOW_LOG, loser=1, guild=guild), await _aow(host, SHORT_LOG, loser=0, guild=guild)]
    res = await host.challenge("avalon", 11, "Ann", opponents=[(12, "Ben")], options={"leader": 0}, guild_id=guild,
                               channel_id=5)
    ids.append(res.match.id)
    assert (await host.accept(ids[2], 12)).ok and (await host.join(ids[2], 13, "Cy", deck="tide")).ok
    assert (await host.resign(ids[2], 11)).ok and (await host.resign(ids[2], 12)).ok
    assert (await store.get_match(ids[2])).status == DONE

    async def figures():
        out = [await store.stats_counts(guild, g, None, ["all", "s1"]) for g in ("art_of_war", "avalon")]
        out += [await store.stats_user(u, guild) for u in (11, 12, 13)]
        return sorted(map(str, out)), sorted(json.dumps(f, sort_keys=True) for f in await store.stats_facts(guild))
    before = await figures()
    kept = await store.stats_kept(guild)
    assert [(m, s) for m, s, _t in kept] == [(m, 1) for m in ids] and json.loads(kept[2][2])["match"] == ids[2]
    assert await store.stats_kept(guild, ids[0], limit=1) == kept[1:2]
    logs = await store.stats_logs(ids)
    assert logs[ids[0]] == [(c.seat, c.command) for c in await store.commands(ids[0])]
    assert await store.stats_logs(ids, JOIN) == {ids[2]: [(2, f"{JOIN} tide")]}
    assert await stats.rebuild(guild) == 3
    assert await figures() == before
    row = (ids[0], "art_of_war", 1.0, None, 1, kept[0][2])
    assert await store.record_stats_page(guild, [row], lambda counted: pytest.fail("nothing to add")) == set()
    assert await figures() == before, "counted once"
