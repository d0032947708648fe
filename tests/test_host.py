"""The host (table): challenges, commands under lock + version check, persistence, clocks,
abort/resign/spectate/rematch and bad input — through the real SQLite store and SQUARES engine."""
from __future__ import annotations

import asyncio
import io

import pytest

from data.store import ABORTED, ACTIVE, DECLINED, FINISHED, PENDING, open_store
from host import Host
from host.console import main as console_main
from rules import registry

from discord_fakes import Clock

ALICE, BOB, CAROL = 101, 202, 303

# seat 0 (Alice) wins by leaping three pieces into the centre row; Bob stays out of the way
QUICK_WIN = [
    (ALICE, "place L1 a1"), (BOB, "place X1 e5"),
    (ALICE, "leap a1 a3"), (BOB, "place X2 d5"),
    (ALICE, "place L2 b1"), (BOB, "place X3 c5"),
    (ALICE, "leap b1 b3"), (BOB, "move e5 e4"),
    (ALICE, "place L3 c1"), (BOB, "move d5 d4"),
    (ALICE, "leap c1 c3"),
]


@pytest.fixture
async def store(tmp_path):
    s = await open_store(str(tmp_path / "host.db"))
    yield s
    await s.close()


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def host(store, clock):
    return Host(store, now=clock, render=False)


async def start_match(host: Host, **kw) -> int:
    kw.setdefault("options", {"first": 0})
    res = await host.challenge("squares", ALICE, "Alice", opponents=[(BOB, "Bob")], **kw)
    assert res.ok, res.error
    assert res.match.status == PENDING and res.notify == [BOB]
    res = await host.accept(res.match.id, BOB)
    assert res.ok and res.match.status == ACTIVE
    return res.match.id


async def test_challenge_accept_starts_and_prompts_the_first_player(host):
    res = await host.challenge("squares", ALICE, "Alice", opponents=[(BOB, "Bob")], options={"first": 1})
    mid = res.match.id
    assert (await host.command(mid, ALICE, "place L1 a1")).error.key == "host.err.not_active"
    res = await host.accept(mid, BOB)
    assert res.ok and res.public.view["to_act"] == [1]
    assert [p.user_id for p in res.prompts] == [BOB]
    assert "place S1 a5" in res.prompts[0].legal
    assert res.private == []  # SQUARES has nothing private: no DM spam
    # … also once a move was made (the public view then carries the move in words, "said")
    res = await host.command(mid, BOB, "place S1 a5")
    assert res.ok and res.public.view["said"]["text"]["en"].startswith("Place ") and res.private == []


async def test_decline_and_withdraw_end_the_challenge(host):
    res = await host.challenge("squares", ALICE, "Alice", opponents=[(BOB, "Bob")])
    assert (await host.decline(res.match.id, CAROL)).error.key == "host.err.not_challenged"
    res = await host.decline(res.match.id, BOB)
    assert res.ok and res.match.status == DECLINED
    assert (await host.accept(res.match.id, BOB)).error.key == "host.err.not_waiting"


async def test_open_seat_join_starts_a_two_player_game(host):
    res = await host.challenge("squares", ALICE, "Alice", open_seats=1)
    mid = res.match.id
    assert (await host.join(mid, ALICE, "Alice")).error.key == "host.err.already_seated"
    res = await host.join(mid, CAROL, "Carol")
    assert res.ok and res.match.status == ACTIVE and res.match.seats == [ALICE, CAROL]
    assert (await host.join(mid, BOB, "Bob")).error.key == "host.err.not_open"


async def test_full_match_to_a_result_is_recorded(host, store):
    mid = await start_match(host)
    for uid, cmd in QUICK_WIN:
        res = await host.command(mid, uid, cmd)
        assert res.ok, (cmd, res.error and res.error.render())
    assert res.match.status == FINISHED
    assert res.match.result == {"winners": [0], "reason": "centre"}
    assert res.public.status_line.render("en") == "Alice won: holds 3 of the 5 centre squares."
    rows = await store.results_for_user(BOB)
    assert [(r.outcome, r.reason) for r in rows] == [("loss", "centre")]
    assert (await host.command(mid, BOB, "pass")).error.key == "host.err.not_active"


async def test_acknowledged_command_is_committed_before_the_reply(host, tmp_path):
    mid = await start_match(host)
    assert (await host.command(mid, ALICE, "place L1 a1")).ok
    other = await open_store(str(tmp_path / "host.db"))  # another process reading the file
    try:
        log = await other.commands(mid)
        assert [(c.seat, c.command) for c in log] == [(0, "place L1 a1")]
    finally:
        await other.close()


async def test_two_concurrent_commands_on_one_match_apply_exactly_one(host, store):
    mid = await start_match(host)
    results = await asyncio.gather(host.command(mid, ALICE, "place L1 a1"),
                                   host.command(mid, ALICE, "place L2 b1"))
    assert sorted(r.ok for r in results) == [False, True]
    assert [r.error.key for r in results if not r.ok] == ["host.err.not_your_turn"]
    assert len(await store.commands(mid)) == 1


async def test_two_processes_sharing_the_database_never_apply_two_commands_on_one_version(tmp_path, clock):
    path = str(tmp_path / "shared.db")
    s1, s2 = await open_store(path), await open_store(path)
    try:
        h1, h2 = Host(s1, now=clock, render=False), Host(s2, now=clock, render=False)
        mid = await start_match(h1)
        for _ in range(5):
            to_act = (await h1.to_act(mid))[0]
            uid = [ALICE, BOB][to_act]
            legal = await h1.legal(mid, uid)
            results = await asyncio.gather(h1.command(mid, uid, legal[0]), h2.command(mid, uid, legal[-1]))
            assert sum(r.ok for r in results) == 1, [r.error for r in results]
            loser = next(r for r in results if not r.ok)
            assert loser.error.key in ("host.err.conflict", "host.err.not_your_turn")
        log = await s1.commands(mid)
        assert len(log) == 5 and (await s1.get_match(mid)).n_commands == 5
    finally:
        await s1.close()
        await s2.close()


async def test_restart_mid_match_resumes_with_nothing_lost(tmp_path, clock):
    path = str(tmp_path / "restart.db")
    s1 = await open_store(path)
    h1 = Host(s1, now=clock, render=False)
    mid = await start_match(h1)
    for uid, cmd in QUICK_WIN[:6]:
        assert (await h1.command(mid, uid, cmd)).ok
    before = (await h1.status(mid)).public.view
    await s1.close()

    s2 = await open_store(path)
    try:
        h2 = Host(s2, now=clock, render=False)
        assert await h2.resume() == 1
        assert (await h2.status(mid)).public.view == before
        for uid, cmd in QUICK_WIN[6:]:
            assert (await h2.command(mid, uid, cmd)).ok
        assert (await s2.get_match(mid)).result["winners"] == [0]
    finally:
        await s2.close()


async def test_replay_from_seed_and_log_matches_the_cached_state(host, store):
    mid = await start_match(host)
    for uid, cmd in QUICK_WIN[:7]:
        await host.command(mid, uid, cmd)
    rec = await store.get_match(mid)
    game = registry.get("squares")
    state = game.new_match(players=2, seed=rec.seed, options=rec.options)
    for c in await store.commands(mid):
        state = game.apply(state, c.seat, c.command)
    assert game.dump(state) == game.dump(await host._state(rec))


async def test_clock_reminds_then_expires_then_the_opponent_claims(host, clock):
    mid = await start_match(host, turn_seconds=300)
    assert (await host.claim_timeout(mid, BOB)).error.key == "host.err.time_left"
    clock.t += 200
    assert await host.tick() == []
    clock.t += 50  # 50 s left: inside the last 20 %
    events = await host.tick()
    assert [e.data["clock"] for e in events] == ["reminder"] and events[0].notify == [ALICE]
    assert await host.tick() == []  # reminded once only
    clock.t += 60
    events = await host.tick()
    assert [e.data["clock"] for e in events] == ["expired"] and events[0].notify == [BOB]
    assert (await host.claim_timeout(mid, ALICE)).error.key == "host.err.own_clock"
    res = await host.claim_timeout(mid, BOB)
    assert res.ok and res.match.status == FINISHED
    assert res.match.result["winners"] == [1] and res.match.result["reason"] == "timeout"


async def test_a_move_resets_the_clock(host, clock):
    mid = await start_match(host, turn_seconds=300)
    clock.t += 250
    res = await host.command(mid, ALICE, "place L1 a1")
    assert res.match.deadline == clock.t + 300 and res.match.reminded is False


async def test_no_clock_means_no_claim(host):
    mid = await start_match(host)
    assert (await host.claim_timeout(mid, BOB)).error.key == "host.err.no_clock"


async def test_abort_needs_every_player_or_a_moderator(host, store):
    mid = await start_match(host)
    res = await host.abort(mid, ALICE)
    assert res.ok and res.match.status == ACTIVE and res.notify == [BOB]
    assert (await host.abort(mid, ALICE)).error.key == "host.err.already_voted"
    assert (await host.abort(mid, CAROL)).error.key == "host.err.not_a_player"
    res = await host.abort(mid, BOB)
    assert res.match.status == ABORTED and res.match.result is None
    assert await store.results_for_user(ALICE) == []

    mid2 = await start_match(host, guild_id=77)
    res = await host.abort(mid2, CAROL, moderator_guild=77)
    assert res.ok and res.match.status == ABORTED


async def test_resign_gives_the_win_to_the_other_player(host):
    mid = await start_match(host)
    assert (await host.resign(mid, CAROL)).error.key == "host.err.not_a_player"
    res = await host.resign(mid, BOB)
    assert res.match.result["winners"] == [0] and res.match.result["reason"] == "resign"
    assert res.prompts == []


async def test_spectator_sees_the_public_board_only(host):
    mid = await start_match(host)
    res = await host.spectate(mid, CAROL)
    assert res.ok and res.public.view["seat"] is None and res.private == [] and res.prompts == []
    assert CAROL in res.match.spectators


async def test_rematch_previous_winner_moves_second(host):
    mid = await start_match(host)
    for uid, cmd in QUICK_WIN:
        await host.command(mid, uid, cmd)
    assert (await host.rematch(mid, CAROL)).error.key == "host.err.not_a_player"
    res = await host.rematch(mid, BOB)
    assert res.ok and res.notify == [ALICE] and res.match.rematch_of == mid
    assert res.match.seats == [ALICE, BOB] and res.match.options["first"] == 1
    res = await host.accept(res.match.id, ALICE)
    assert res.public.view["to_act"] == [1]


async def test_a_second_rematch_request_accepts_the_first_offer(host, store):
    """One rematch per match: when both players ask, the second request accepts the first
    offer (1.(3): the previous winner moves second) instead of opening a second challenge."""
    mid = await start_match(host)
    for uid, cmd in QUICK_WIN:
        await host.command(mid, uid, cmd)
    offer = await host.rematch(mid, ALICE)
    assert offer.ok and offer.match.status == PENDING
    again = await host.rematch(mid, ALICE)
    assert not again.ok and again.error.key == "host.err.rematch_offered"
    assert "#%d" % offer.match.id in again.error.render("en")
    res = await host.rematch(mid, BOB)
    assert res.ok and res.data["accepted_rematch"] and res.match.id == offer.match.id
    assert res.match.status == ACTIVE and res.public.view["to_act"] == [1]
    rematches = [m for m in await store.matches_for_user(ALICE, (PENDING, ACTIVE)) if m.rematch_of == mid]
    assert [m.id for m in rematches] == [offer.match.id]


async def test_log_lists_every_command_in_order(host):
    mid = await start_match(host)
    for uid, cmd in QUICK_WIN[:3]:
        await host.command(mid, uid, cmd)
    log = (await host.log(mid)).data["log"]
    assert [(e["name"], e["command"]) for e in log] == [("Alice", "place L1 a1"), ("Bob", "place X1 e5"),
                                                        ("Alice", "leap a1 a3")]


async def test_match_for_finds_the_users_match_in_the_channel(host):
    mid = await start_match(host, channel_id=555)
    assert (await host.match_for(ALICE, 555)).id == mid
    assert (await host.match_for(ALICE, None)).id == mid
    # a spectator in the match's own channel means its only match; elsewhere nothing
    assert (await host.match_for(CAROL, 555)).id == mid
    assert await host.match_for(CAROL, 556) is None
    await host.set_channel(mid, 777)
    assert (await host.match_for(BOB, 777)).id == mid


async def test_match_for_in_a_finished_matchs_thread_means_that_match(host):
    """Issue 14: "/match log|status|hand in a finished match's own thread answers 'Which
    match?'" — a finished (or aborted) match is still the one its thread means."""
    mid = await start_match(host, channel_id=888)
    assert (await host.resign(mid, BOB)).ok
    assert (await host.match_for(ALICE, 888)).id == mid
    assert (await host.match_for(CAROL, 888)).id == mid
    other = await start_match(host, channel_id=888)     # a rematch in the same thread
    assert (await host.match_for(ALICE, 888)).id == other
    assert await host.match_for(CAROL, 888) is None     # two matches: a stranger must choose


@pytest.mark.parametrize("call, key", [
    (lambda h, m: h.command(m, BOB, "place X1 e5"), "host.err.not_your_turn"),
    (lambda h, m: h.command(m, CAROL, "place L1 a1"), "host.err.not_a_player"),
    (lambda h, m: h.command(m, ALICE, ""), "host.err.empty"),
    (lambda h, m: h.command(m, ALICE, "x" * 500), "host.err.too_long"),
    (lambda h, m: h.command(m + 999, ALICE, "pass"), "host.err.no_match"),
    (lambda h, m: h.accept(m, BOB), "host.err.not_waiting"),
    (lambda h, m: h.rematch(m, ALICE), "host.err.not_over"),
    (lambda h, m: h.start(m, ALICE), "host.err.not_open"),
])
async def test_bad_input_is_refused_with_a_clear_message_and_changes_nothing(host, store, call, key):
    mid = await start_match(host)
    before = await store.get_match(mid)
    res = await call(host, mid)
    assert not res.ok and res.error.key == key
    for loc in ("en", "ja"):
        text = res.error.render(loc)
        assert text and not text.startswith("host.") and "{" not in text
    assert await store.get_match(mid) == before


async def test_illegal_and_garbage_commands_are_explained_in_both_languages(host, store):
    mid = await start_match(host)
    before = await store.get_match(mid)
    for text in ("move a1 a2", "hello world", "place L1 a3", "leap c1 c3"):
        res = await host.command(mid, ALICE, text)
        assert not res.ok
        assert res.error.render("en") != res.error.render("ja")
        assert not res.error.render("ja").startswith("squares.")
    assert await store.get_match(mid) == before


@pytest.mark.parametrize("options, en, ja", [
    ({"max_turns": 5}, "max_turns must be a whole number from 10 to 1000, not 5.", "max_turnsは10〜1000の整数です"),
    ({"max_turns": "many"}, "max_turns must be a whole number from 10 to 1000, not many.", "manyは使えません"),
    ({"first": 7}, "first must be one of random|1|2, not 8.", "firstはrandom|1|2のどれか"),
    ({"colour": "red"}, 'there is no option "colour".', "「colour」というオプションはありません"),
])
async def test_bad_option_values_are_explained_in_the_readers_language(host, store, options, en, ja):
    """Bad input: bad options get a localized answer that says what is allowed, and no match."""
    res = await host.challenge("squares", ALICE, "Alice", opponents=[(BOB, "Bob")], options=options)
    assert not res.ok and res.error.key == "host.err.bad_options"
    text_en, text_ja = res.error.render("en"), res.error.render("ja")
    assert en in text_en and "Allowed: first=random (random|1|2), max_turns=200 (10..1000)" in text_en
    assert ja in text_ja and "SQUARES option" not in text_ja and "使えるもの" in text_ja
    assert await store.matches_for_user(ALICE) == []


@pytest.mark.parametrize("text, key", [
    ("first=0 garbage", "host.opt.syntax"),
    ("=3", "host.opt.syntax"),
    ("colour=red", "host.opt.unknown"),
    ("decks=blitz", "host.opt.decks"),
])
def test_typed_options_are_read_or_refused_with_a_localized_reason(text, key):
    from host import read_options

    options, problem = read_options(registry.get("squares"), text)
    assert options == {} and problem.key == key
    assert "{" not in problem.render("en") and "{" not in problem.render("ja")
    assert read_options(registry.get("squares"), "first=2, max_turns=50") == ({"first": 1, "max_turns": 50}, None)


@pytest.mark.parametrize("kwargs, key", [
    (dict(game="chess"), "host.err.unknown_game"),
    (dict(options={"first": 7}), "host.err.bad_options"),
    (dict(options={"colour": "red"}), "host.err.bad_options"),
    (dict(turn_seconds=5), "host.err.turn_time"),
    (dict(opponents=[(ALICE, "Alice")]), "host.err.duplicate_player"),
    (dict(opponents=[(BOB, "Bob"), (CAROL, "Carol")]), "host.err.player_count"),
])
async def test_bad_challenges_are_refused(host, kwargs, key):
    args = dict(game="squares", opponents=[(BOB, "Bob")])
    args.update(kwargs)
    res = await host.challenge(args.pop("game"), ALICE, "Alice", **args)
    assert not res.ok and res.error.key == key
    assert "{" not in res.error.render("en") and "{" not in res.error.render("ja")


async def test_unreadable_match_is_quarantined_and_others_carry_on(host, store):
    bad = await start_match(host)
    good = await start_match(host)
    await store._db.execute("UPDATE matches SET seats = 'not json' WHERE id = ?", (bad,))
    await store._db.commit()
    res = await host.command(bad, ALICE, "place L1 a1")
    assert res.error.key == "host.err.quarantined"
    assert [q[0] for q in await store.quarantined()] == [bad]
    assert (await host.command(good, ALICE, "place L1 a1")).ok
    assert [m.id for m in await store.unfinished_matches()] == [good]


async def test_public_update_carries_a_png_when_rendering(store, clock):
    host = Host(store, now=clock, render=True)
    mid = await start_match(host)
    res = await host.command(mid, ALICE, "place L1 a1")
    assert res.public.picture[:8] == b"\x89PNG\r\n\x1a\n"


async def test_pictures_are_drawn_off_the_event_loop(store, clock, monkeypatch):
    """Render off the event loop: every picture of a Result is drawn in a worker thread."""
    import threading

    import render

    threads = []
    real = render.render_png

    def spy(*args, **kwargs):
        threads.append(threading.current_thread())
        return real(*args, **kwargs)

    monkeypatch.setattr(render, "render_png", spy)
    host = Host(store, now=clock, render=True)
    mid = await start_match(host)
    res = await host.command(mid, ALICE, "place L1 a1")
    assert res.ok and res.public.picture[:4] == b"\x89PNG"
    await host.status(mid, viewer=BOB)
    assert threads and threading.main_thread() not in threads


async def test_private_pictures_are_drawn_after_the_public_update_is_handed_over(store, clock):
    """The Result of a command comes back once the public picture is drawn; each seat's
    private picture follows (``ready()``), drawn from that seat's view only."""
    from render import render_png

    host = Host(store, now=clock, render=True)
    res = await host.challenge("logic_square", ALICE, "Alice", opponents=[(BOB, "Bob")],
                               options={"first": 0})
    res = await host.accept(res.match.id, BOB)
    assert res.ok and res.public.picture[:4] == b"\x89PNG"
    assert sorted(u.seat for u in res.private) == [0, 1]
    assert all(u.pending is not None and u.picture is None for u in res.private)
    assert await res.ready() is res
    for u in res.private:
        assert u.pending is None
        # the DM's hand picture (render.base.register_hand)
        assert u.picture == render_png("logic_square", u.view, locale="en", names=["Alice", "Bob"], part="hand")
    assert (await res.ready()).private[0].picture[:4] == b"\x89PNG"   # ready twice is harmless


def test_local_console_plays_a_full_squares_match(tmp_path):
    script = "\n".join(["help", "hello", *[c for _, c in QUICK_WIN]]) + "\n"
    out = io.StringIO()
    code = console_main(["--hot-seat", "--game", "squares", "--options", "first=1", "--out", str(tmp_path / "boards")],
                        stdin=io.StringIO(script), stdout=out)
    text = out.getvalue()
    assert code == 0
    assert "place L1 a1" in text            # help listed the legal commands
    assert "! " in text                     # the garbage line was refused with a message
    assert "Player 1 won" in text and "Match #1 is over." in text
    pngs = sorted((tmp_path / "boards").glob("*.png"))
    assert pngs and pngs[-1].read_bytes()[:4] == b"\x89PNG"


def test_local_console_refuses_bad_options_in_its_language(capsys):
    out = io.StringIO()
    assert console_main(["--game", "squares", "--lang", "ja", "--options", "max_turns=5"],
                        stdin=io.StringIO(""), stdout=out) == 2
    assert "max_turnsは10〜1000の整数です" in out.getvalue()
    out = io.StringIO()
    assert console_main(["--game", "chess"], stdin=io.StringIO(""), stdout=out) == 2
    assert 'Unknown game "chess"' in out.getvalue() and "squares" in out.getvalue()


def test_local_console_asks_again_for_an_unknown_game():
    out = io.StringIO()
    assert console_main(["--hot-seat", "--no-pictures", "--options", "first=1"],
                        stdin=io.StringIO("chess\nsquares\nresign\n"), stdout=out) == 0
    text = out.getvalue()
    assert 'Unknown game "chess"' in text and "Player 2 won" in text


def test_local_console_help_follows_the_lang_option(capsys, monkeypatch):
    monkeypatch.setenv("LANG", "C.UTF-8")
    with pytest.raises(SystemExit):
        console_main(["--lang", "ja", "--help"])
    assert "あなた（席1）とコンピューターの対戦" in capsys.readouterr().out
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    with pytest.raises(SystemExit):
        console_main(["--help"])
    assert "盤面画像を書き出すフォルダ" in capsys.readouterr().out


def test_local_console_speaks_japanese(tmp_path):
    out = io.StringIO()
    console_main(["--hot-seat", "--game", "squares", "--lang", "ja", "--no-pictures", "--options", "first=1"],
                 stdin=io.StringIO("help\nquit\n"), stdout=out)
    assert "できる行動" in out.getvalue()


async def test_state_cache_is_bounded_and_evicted_matches_replay_from_the_store(store, clock):
    host = Host(store, now=clock, render=False, cache_size=1)
    m1, m2 = await start_match(host), await start_match(host)
    for uid, cmd in QUICK_WIN[:4]:
        assert (await host.command(m1, uid, cmd)).ok
        assert (await host.command(m2, uid, cmd)).ok
    assert len(host._states) == 1
    v1, v2 = (await host.status(m1)).public.view, (await host.status(m2)).public.view
    assert v1 == v2 and v1["last"]["command"] == "place X2 d5"


async def test_random_matches_through_the_host_finish_and_replay_from_the_store(store, clock):
    """A match is (game, options, seats, seed, command log): replaying the stored log
    reproduces the recorded result exactly."""
    import random

    host = Host(store, now=clock, render=False)
    game = registry.get("squares")
    rng = random.Random(5)
    for _ in range(12):
        mid = await start_match(host, options={"max_turns": 60})
        while (rec := await store.get_match(mid)).status == ACTIVE:
            seat = (await host.to_act(mid))[0]
            uid = rec.seats[seat]
            res = await host.command(mid, uid, rng.choice(await host.legal(mid, uid)))
            assert res.ok
        assert rec.status == FINISHED and rec.result is not None
        state = game.new_match(players=2, seed=rec.seed, options=rec.options)
        for c in await store.commands(mid):
            state = game.apply(state, c.seat, c.command)
        assert game.outcome(state) == rec.result
        assert len(await store.results_for_user(ALICE)) >= 1
