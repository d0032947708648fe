"""Issue 37: a server's statistics counted from real matches (host/stats/service.py over the
store's counters, data/sql_stats.py) — played through a real host on a real store, with known
results, and read back as ``/stats`` reads them.  Each test's docstring quotes what it checks.

The Art of War log ``AOW_LOG`` (tests/test_stats_facts.py) is a known one: with the shipped
cards, seed 1 and the first player seat 0, IRON WALL (seat 0) plays ARCHER, KING, PRIEST,
SOLDIER and WIZARD publicly, FALCON RAID (seat 1) ARCHER, GUARDIAN, KING and PRIEST — ARCHER and
PRIEST played by both players."""
from __future__ import annotations

import pytest

from data.store import FINISHED, open_store
from discord_fakes import Clock
from host import Host
from host.replay import _initial_state, _step
from host.stats import aggregate as AG
from host.stats.service import Stats
from rules import registry
from test_stats_facts import AOW_LOG

G, CH = 77, 78
A, B, C = 11, 12, 13
IRON, FALCON = "iron_wall", "falcon_raid"
SHORT_LOG = [(0, "keep"), (1, "keep"), (0, "setup s a2 k"), (1, "setup k a3 a")]
IRON_PLAYS = {"archer", "king_iron", "priest", "soldier", "wizard"}
FALCON_PLAYS = {"archer", "guardian", "king_falcon", "priest"}


@pytest.fixture
async def table(tmp_path):
    store = await open_store(str(tmp_path / "stats.db"))
    clock = Clock()
    host = Host(store, now=clock, render=False)
    stats = Stats(store, host, now=clock)
    host.on_finish.append(stats.on_finish)          # what the Stats cog does
    yield store, host, stats
    await store.close()


async def _aow(host, log, loser: int | None, *, guild: int = G, players=((A, "Ann"), (B, "Ben")),
               practice: bool = False) -> int:
    """An Art of War match (seed 1, seat 0 first, the default decks) played through the host
    with ``log``, then the ``loser`` seat resigns (None: the log ends it)."""
    (a, an), (b, bn) = players
    # a practice match is what host.practice starts (its meta), with this seed for the known log
    meta = {"rated": False, "practice": True, "ai": {"1": "easy"}} if practice else None
    res = await host.challenge("art_of_war", a, an, opponents=[(b, bn)], options={"first": 0},
                               guild_id=guild, channel_id=CH, seed=1, meta=meta)
    assert res.ok, res.error
    assert (await host.accept(res.match.id, b)).ok
    mid = res.match.id
    rec = await host.store.get_match(mid)
    for seat, command in log:
        done = await host.command(mid, rec.seats[seat], command)
        assert done.ok, (command, done.error)
    if loser is not None:
        assert (await host.resign(mid, rec.seats[loser])).ok
    assert (await host.store.get_match(mid)).status == FINISHED
    return mid


async def _figures(stats: Stats, game: str = "art_of_war", **kw) -> dict:
    res = await stats.report(G, game, **kw)
    assert res.ok, res.error
    return res.data["figures"]


async def test_the_figures_of_four_matches_with_known_results(table):
    """"the ready-made decks … with their match count and win rate with a 95 % interval …, the
    first player's win rate, the median match length; for each card, the matches it was played in
    (publicly …), the win rate of the player who played it, and the same deck's matches in which
    that card was not played (n and interval for both)" — three matches of the known log (IRON
    WALL wins twice, FALCON RAID once) and a short one IRON WALL wins before playing ARCHER:
    ARCHER, played by both players, counts for both decks."""
    store, host, stats = table
    await _aow(host, AOW_LOG, loser=1)
    await _aow(host, AOW_LOG, loser=1)
    await _aow(host, AOW_LOG, loser=0)
    await _aow(host, SHORT_LOG, loser=1)
    f = await _figures(stats)
    assert f["by"] == "match" and f["games"] == 4
    assert f["decks"][IRON] == AG.share(4, 3.0) and f["decks"][FALCON] == AG.share(4, 1.0)
    assert f["decks"][IRON]["share"] == 0.75 and f["decks"][IRON]["ci95"][0] < 0.75 < f["decks"][IRON]["ci95"][1]
    assert f["matchups"][(IRON, FALCON)] == AG.share(4, 3.0) and f["matchups"][(FALCON, IRON)] == AG.share(4, 1.0)
    assert f["identities"]["king_iron"] == AG.share(4, 3.0)
    assert f["first"] == AG.share(4, 3.0), "seat 0 moved first in each and won three"
    assert f["median_length"] == len(AOW_LOG) == 16, "the lengths 16, 16, 16 and the short one's"
    iron, falcon = f["cards"][IRON], f["cards"][FALCON]
    # ARCHER: IRON WALL played it in the three long matches (won 2), not in the short one (won it)
    assert iron["archer"] == {"played": AG.share(3, 2.0), "not_played": AG.share(1, 1.0)}
    # ... and FALCON RAID played it in all four (its waiting card in the short one): won 1 of 4
    assert falcon["archer"] == {"played": AG.share(4, 1.0), "not_played": AG.share(0, 0.0)}
    assert iron["soldier"]["played"] == AG.share(4, 3.0), "the short match's front card is played"
    assert set(iron) == IRON_PLAYS and set(falcon) == FALCON_PLAYS | {"archer"}


async def test_a_card_that_stayed_in_a_hand_is_never_counted(table):
    """"for each card, the matches it was played in (publicly — never what stayed hidden)" — in
    the short match each player's hand keeps cards it never played (the log ends with both hands
    full); none of them counts, and a card counts only in the matches it was played in."""
    store, host, stats = table
    mid = await _aow(host, SHORT_LOG, loser=1)
    eng = registry.get("art_of_war")
    rec = await store.get_match(mid)
    state = _initial_state(eng, rec)
    for c in await store.commands(mid):
        state = _step(eng, state, c.seat, c.command)
    hands = [set(_hand_cards(eng, state, seat)) for seat in (0, 1)]
    assert hands[0] - {"soldier", "king_iron"} and hands[1] - {"archer", "king_falcon"}, "cards stayed in hand"
    assert {"archer", "priest", "wizard"} <= hands[0] and "guardian" in hands[1]
    f = await _figures(stats)
    assert set(f["cards"][IRON]) == {"soldier", "king_iron"}
    assert set(f["cards"][FALCON]) == {"king_falcon", "archer"}
    assert not hands[0] & set(f["cards"][IRON]) and not hands[1] & set(f["cards"][FALCON])


def _hand_cards(eng, state, seat: int) -> list[str]:
    """The card ids in ``seat``'s hand (its own view: unit letters, named by the view's units)."""
    view = eng.view(state, seat)
    return [view["units"][letter]["id"] for letter in view["hand"]]


async def test_practice_matches_and_matches_against_the_computer_count_only_when_asked_for(table):
    """"Practice matches and matches against the computer are left out unless asked for.\""""
    store, host, stats = table
    await _aow(host, AOW_LOG, loser=1)
    await _aow(host, [], loser=0, practice=True, players=((A, "Ann"), (990, "AI")))    # Ann resigns
    assert (await _figures(stats))["games"] == 1
    both = await _figures(stats, practice=True)
    assert both["games"] == 2 and both["decks"][IRON] == AG.share(2, 1.0)


async def test_figures_are_split_by_rules_edition_and_card_set_version(table):
    """"Figures are split by rules edition (and by card set and its version …)" — the split is
    the match's edition and card set; /stats shows the newest split and lists every one."""
    store, host, stats = table
    await _aow(host, AOW_LOG, loser=1)
    res = await stats.report(G, "art_of_war")
    rec = await store.get_match(1)
    edition = rec.meta.get("edition")
    assert res.data["split"] == f"{edition if edition is not None else '-'}|-"
    assert res.data["splits"] == [(res.data["split"], 1)]
    facts = AG.increments({"edition": 99, "cards": 5, "seats": [], "winners": [], "length": 3})
    assert all(k[0] == "99|5" for k in facts)


async def test_missed_matches_are_caught_up_at_start_and_a_rebuild_gives_the_same_figures(table):
    """"Built incrementally when a match ends …; matches the hook missed (a crash between the end
    and the update) are caught up at start; rebuildable from the logs by an operator command" —
    two matches finish while the hook is off; the catch-up counts them once, a second catch-up
    counts nothing, and a rebuild from the logs gives the figures again exactly."""
    store, host, stats = table
    await _aow(host, AOW_LOG, loser=1)
    host.on_finish.clear()                           # the bot stops between the end and the count
    await _aow(host, AOW_LOG, loser=0)
    await _aow(host, SHORT_LOG, loser=1)
    assert (await _figures(stats))["games"] == 1
    assert await stats.catch_up() == 2
    assert await stats.catch_up() == 0
    counted = await _figures(stats)
    assert counted["games"] == 3 and counted["decks"][IRON] == AG.share(3, 2.0)
    assert await stats.rebuild(G) == 3
    assert await _figures(stats) == counted


async def test_one_servers_matches_never_count_in_another(table):
    """"per-server statistics" — a match in another server is counted there, never here."""
    store, host, stats = table
    await _aow(host, AOW_LOG, loser=1)
    await _aow(host, AOW_LOG, loser=0, guild=G + 1)
    assert (await _figures(stats))["games"] == 1
    other = await stats.report(G + 1, "art_of_war")
    assert other.data["figures"]["decks"][IRON] == AG.share(1, 0.0)
    assert (await stats.report(None, "art_of_war")).error.key == "stats.err.dm"


async def test_a_players_own_decks_and_profile(table):
    """"A player's own view: /profile gains their most played decks and their win rates" — Ann
    played IRON WALL three times (won 2); Ben FALCON RAID; most played first."""
    store, host, stats = table
    await _aow(host, AOW_LOG, loser=1)
    await _aow(host, AOW_LOG, loser=0)
    await _aow(host, SHORT_LOG, loser=1)
    await _aow(host, SHORT_LOG, loser=1, players=((C, "Cy"), (A, "Ann")))     # Ann with FALCON RAID
    mine = (await stats.user_decks(A, G))["art_of_war"]
    assert list(mine) == [IRON, FALCON]
    assert mine[IRON] == AG.share(3, 2.0) and mine[FALCON] == AG.share(1, 0.0)
    assert (await stats.user_decks(A, G + 1)) == {}


async def test_a_best_of_three_counts_each_game_for_game_figures_and_the_pairing_for_match_figures(tmp_path):
    """"a best-of-three counts each game for game figures and the pairing for match figures" — a
    league pairing won 2–1 in three games: three games for the game figures, one match for the
    match figures, won by the pairing's winner."""
    from test_league_series import _first_game, _pairing, _setup, _win
    from host import leagues as L

    store, host, svc, clock, lid = await _setup(tmp_path, game="art_of_war", best_of=3)
    stats = Stats(store, host, now=clock)
    host.on_finish.append(stats.on_finish)            # after the league's hook, as the cogs load
    d = (await store.get_league(lid)).data
    (p,) = L.round_pairings(d)
    m1 = await _first_game(svc, host, lid, p, by=p["a"])
    await _win(host, m1, p["a"])
    q = await _pairing(store, lid, p["id"])
    from host.events import series as S
    assert (await svc.series.choose(lid, 5, p["id"], S.chooser(q["series"]), True, n=2)).ok
    m2 = (await svc.series.next_game(lid, p["id"])).match.id
    await _win(host, m2, p["b"])
    q = await _pairing(store, lid, p["id"])
    assert (await svc.series.choose(lid, 5, p["id"], S.chooser(q["series"]), True, n=3)).ok
    m3 = (await svc.series.next_game(lid, p["id"])).match.id
    await _win(host, m3, p["a"])
    assert (await _pairing(store, lid, p["id"]))["result"] == "a"
    res = await stats.report(5, "art_of_war", league=lid)
    f = res.data["figures"]
    assert f["by"] == "match" and f["games"] == 3
    rec1 = await store.get_match(m1)
    deck_a = rec1.options["decks"][rec1.seats.index(p["a"])] if isinstance(rec1.options.get("decks"), list) else None
    rows = await store.stats_counts(5, "art_of_war", res.data["split"], [f"l{lid}"])
    games = {k: n for _s, k, n, _sc in rows if k.startswith("g:deck:")}
    matches = {k: (n, sc) for _s, k, n, sc in rows if k.startswith("m:deck:")}
    assert sum(games.values()) == 6, "three games, two seats each"
    assert sum(n for n, _ in matches.values()) == 2, "one match, two seats"
    assert sum(sc for _, sc in matches.values()) == 1.0, "won once, by the pairing's winner"
    if deck_a is not None:
        assert matches[f"m:deck:{deck_a}"][1] == 1.0
    # counted once: a catch-up at start counts the pairing again never
    await stats.catch_up()
    rows2 = await store.stats_counts(5, "art_of_war", res.data["split"], [f"l{lid}"])
    assert rows2 == rows
    await store.close()


async def test_the_operator_rebuilds_a_servers_statistics_from_the_logs(tmp_path, monkeypatch, capsys):
    """"rebuildable from the logs by an operator command for a server" (``python bot.py
    --rebuild-stats GUILD``): the counters are counted again from the command logs — a server's
    counters lost (here: deleted) come back exactly; a bad server id changes nothing."""
    import asyncio

    import bot

    path = tmp_path / "stats.db"
    store = await open_store(str(path))
    host = Host(store, now=Clock(), render=False)
    stats = Stats(store, host)
    host.on_finish.append(stats.on_finish)
    await _aow(host, AOW_LOG, loser=1)
    await _aow(host, SHORT_LOG, loser=0)
    before = await _figures(stats)
    await store.delete_stats(G)
    assert (await stats.report(G, "art_of_war")).data["figures"] is None
    await store.close()
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{path}")
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    assert await asyncio.to_thread(bot.main, ["--rebuild-stats", "not-a-server"]) == 2
    assert "is not a server id" in capsys.readouterr().err
    assert await asyncio.to_thread(bot.main, ["--rebuild-stats", str(G)]) == 0
    assert f"Statistics of server {G} rebuilt from the logs: 2 finished matches counted." in capsys.readouterr().out
    store = await open_store(str(path))
    try:
        assert await _figures(Stats(store, Host(store, render=False))) == before
    finally:
        await store.close()


async def test_the_stores_count_once_keep_players_apart_skip_a_bad_row_and_forget_a_server(backend):
    """The counters on both backends (data/sql_stats.py): "a match is counted once" (a second
    record_stats adds nothing), a player's own counters are read per player and per server, "a
    row that does not read is skipped and logged, never served, and never stops the others", and
    a server's statistics are forgotten before a rebuild (the other server's stay)."""
    store = await backend.open()
    facts = {"v": 1, "game": "art_of_war", "edition": 3, "cards": None, "league": None, "practice": False,
             "winners": [0], "first": 0, "length": 20, "season": 1,
             "seats": [{"user": A, "deck": IRON, "identity": "king_iron", "played": ["archer"]},
                       {"user": B, "deck": FALCON, "identity": "king_falcon", "played": ["archer"]}]}
    inc = AG.increments(facts)
    assert await store.record_stats(1, G, "art_of_war", 1.0, None, facts, inc)
    assert not await store.record_stats(1, G, "art_of_war", 1.0, None, facts, inc), "counted once"
    assert await store.record_stats(2, G + 1, "art_of_war", 2.0, None, facts, inc)
    rows = await store.stats_counts(G, "art_of_war", "3|-", ["all"])
    f = AG.report([(k, n, s) for _sp, k, n, s in rows])
    assert f["decks"][IRON] == AG.share(1, 1.0) and f["cards"][FALCON]["archer"]["played"] == AG.share(1, 0.0)
    assert not any(k.startswith("u:") for _sp, k, _n, _s in rows), "players' counters are apart"
    assert await store.stats_user(A, G) == [("art_of_war", f"u:{A}:deck:{IRON}", 1, 1.0)]
    assert await store.stats_user(A) == [("art_of_war", f"u:{A}:deck:{IRON}", 2, 2.0)], "every server"
    await backend.raw("INSERT INTO stats_matches (match_id, guild_id, game, finished_at, league_id, facts) "
                      "VALUES (?, ?, ?, ?, ?, ?)", 3, G, "art_of_war", 3.0, None, "{not json")
    assert [x["seats"][0]["deck"] for x in await store.stats_facts(G)] == [IRON], "the bad row is skipped"
    assert await store.stats_splits(G, "art_of_war", ["all"]) == [("3|-", 1)]
    assert await store.stats_seasons(G) == {1: 1}, "the season it was counted in, for a rebuild"
    await store.delete_stats(G)
    assert await store.stats_counts(G, "art_of_war", None, ["all"]) == []
    assert await store.stats_user(A, G) == [] and await store.stats_user(A, G + 1) != []
    assert len(await store.stats_facts(G + 1)) == 1


async def test_a_match_that_does_not_replay_never_stops_the_catch_up_and_a_store_hiccup_marks_nothing(table, tmp_path):
    """"every stored row is checked when read, and one bad row never stops anything else"; "a
    transient fault … never treated as a corrupt row" — at start, a finished match whose log no
    longer replays is left out (marked, never tried again) and the next one is counted; when
    the store fails for a moment the catch-up stops there, marks nothing, and the next start
    counts the match."""
    import sqlite3

    from data.store import TransientStoreError

    store, host, stats = table
    host.on_finish.clear()
    bad = await _aow(host, AOW_LOG, loser=1)
    good = await _aow(host, SHORT_LOG, loser=1)
    db = sqlite3.connect(str(tmp_path / "stats.db"))
    seq = db.execute("SELECT MAX(seq) FROM commands WHERE match_id = ?", (bad,)).fetchone()[0]
    db.execute("INSERT INTO commands (match_id, seq, seat, command, at) VALUES (?, ?, 0, 'attack z9 z9', 0)",
               (bad, seq + 1))          # the log no longer replays
    db.commit()
    db.close()
    real = store.commands
    calls = []

    async def hiccup(match_id):
        calls.append(match_id)
        if len(calls) == 1:
            raise TransientStoreError("connection lost")
        return await real(match_id)
    store.commands = hiccup
    assert await stats.catch_up() == 0, "stopped at the hiccup"
    assert await store.stats_seasons(G) == {} and (await store.unprocessed_stats()) != []
    await stats.catch_up()                  # the next start: the bad one left out, the good one counted
    f = await _figures(stats)
    assert f["games"] == 1 and f["cards"][IRON].keys() == {"soldier", "king_iron"}
    assert await store.unprocessed_stats() == [] and await stats.catch_up() == 0
    # the store's own check of the row found the bad log (and quarantined the match): never counted
    assert [q[0] for q in await store.quarantined()] == [bad] and await store.stats_seasons(G) == {good: 1}


async def test_a_match_whose_facts_cannot_be_read_is_left_out_and_the_next_is_counted(table):
    """"one bad row never stops anything else" — a match whose public facts fail to come out
    of its log (here: its replay raises) is marked as left out at start, never tried again, and
    the matches after it are counted."""
    from rules import IllegalCommand

    store, host, stats = table
    host.on_finish.clear()
    bad = await _aow(host, AOW_LOG, loser=1)
    await _aow(host, SHORT_LOG, loser=1)
    real = stats.facts_of

    async def broken(rec, commands=None):
        if rec.id == bad:
            raise IllegalCommand("the log does not replay")
        return await real(rec, commands)
    stats.facts_of = broken
    assert await stats.catch_up() == 2
    assert (await _figures(stats))["games"] == 1
    assert await store.unprocessed_stats() == [], "the bad one is marked: never tried again"
    assert [f.get("skipped") for f in await store.stats_facts(G)] == [True, None]
