"""Battle Logic Square through the host: the chain-answer window is a secret, timed decision.

project ruling (docs/rules/logic_square.md): "The opponent's chance to respond is a real decision with a time limit, offered only
when they hold a card that may legally respond — never reveal that they hold one."  The issue:
"A chance to chain is a private prompt to the responding player listing only the legal responses
and a pass, with a time limit; it is offered only when a legal response exists, and nothing public
reveals that it was offered."  These tests drive real matches through :class:`host.Host` (with
pictures) and check what the channel would be shown: the public text, view, picture and status
line, the declarer's private update, the prompts, the clock and the log.
"""
from __future__ import annotations

import json
import random

import pytest

from data.store import ACTIVE
from rules import registry

from playing import random_log_until

game = registry.get("logic_square")
ALICE, BOB = 1, 2
OPTIONS = {"first": 0, "decks": ["blitz", "cipher"]}




def opens_window(state, seat, cmd) -> bool:
    return game.apply(state, seat, cmd).window is not None


def window_line(seed: int):
    """Engine-side: commands from the start of match ``seed`` up to (and including) a command of
    the turn player that opens an answer window for the other seat (None if there is none soon)."""
    state = game.new_match(2, seed, OPTIONS)
    rng = random.Random(seed)
    cmds = []
    for _ in range(60):
        if game.outcome(state) is not None:
            return None
        seat = game.to_act(state)[0]
        legal = game.legal_commands(state, seat)
        if state.window is None and state.phase == "main":
            for cmd in legal:
                if opens_window(state, seat, cmd):
                    return cmds + [(seat, cmd)]
        quiet = [c for c in legal if c != "end" and not opens_window(state, seat, c)] or legal
        cmd = rng.choice(quiet)
        cmds.append((seat, cmd))
        state = game.apply(state, seat, cmd)
    return None


@pytest.fixture
async def host(clocked_host):
    return await clocked_host(render=True)


@pytest.fixture
async def unpictured_host(clocked_host):
    """The host without pictures, for a test that reads views and texts only (a picture is drawn
    from the public view and nothing else)."""
    return await clocked_host(render=False)


async def to_the_window(host, seed: int, turn_seconds: int | None = 60):
    """Play the commands of :func:`window_line` through the host; return the match id, the last
    result before the window, and the window-opening (seat, command)."""
    line = window_line(seed)
    assert line is not None, seed
    res = await host.challenge("logic_square", ALICE, "Alice", opponents=[(BOB, "Bob")],
                               options=dict(OPTIONS), seed=seed, turn_seconds=turn_seconds)
    mid = res.match.id
    res = await host.accept(mid, BOB)
    assert res.ok
    users = (ALICE, BOB)
    for seat, cmd in line[:-1]:
        res = await host.command(mid, users[seat], cmd)
        assert res.ok, (cmd, res.error)
    return mid, res, line[-1]


def private_of(res, user_id):
    return next(p for p in res.private if p.user_id == user_id)


@pytest.mark.parametrize("seed", [3, 8])
async def test_an_open_window_changes_nothing_public_and_nothing_for_the_declarer(host, seed):
    mid, before, (seat, cmd) = await to_the_window(host, seed)
    users = (ALICE, BOB)
    declarer, responder = users[seat], users[1 - seat]
    logged = (await host.log(mid)).data["log"]
    res = await host.command(mid, declarer, cmd)
    assert res.ok
    state = await host._state(res.match)
    assert game.to_act(state) == [1 - seat]
    # the channel: no line, the same view, the same picture, the same "to act" line
    assert res.public.text == []
    assert res.public.view == before.public.view
    assert res.public.picture == before.public.picture and res.public.picture
    assert res.public.status_line == before.public.status_line
    # the declarer's own DM is unchanged too (the declared card is still shown in hand)
    assert private_of(res, declarer).view == private_of(before, declarer).view
    assert private_of(res, declarer).picture == private_of(before, declarer).picture
    # the responder alone is asked, secretly, with exactly the legal answers and a pass
    assert [(p.user_id, p.secret) for p in res.prompts] == [(responder, True)]
    legal = res.prompts[0].legal
    assert legal == game.legal_commands(state, 1 - seat) and legal[-1] == "pass"
    assert all(c.startswith("chain ") for c in legal[:-1]) and len(legal) >= 2
    assert private_of(res, responder).view["pending"]["kind"] == "chain"
    # the declarer cannot act and is told only that something is resolving; no commands offered
    err = (await host.command(mid, declarer, "end")).error
    assert err.key == "host.err.resolving" and "Bob" not in err.render("en") and "Alice" not in err.render("en")
    assert await host.legal(mid, declarer) == []
    # the log shows nothing of the declaration while the window is open
    assert (await host.log(mid)).data["log"] == logged


async def test_the_window_has_a_time_limit_and_running_out_is_a_silent_pass(host):
    mid, before, (seat, cmd) = await to_the_window(host, 3)
    users = (ALICE, BOB)
    n_logged = len((await host.log(mid)).data["log"])
    await host.command(mid, users[seat], cmd)
    assert len((await host.log(mid)).data["log"]) == n_logged        # held back while open
    host.clock.t += 30
    assert await host.tick() == []                                   # no public reminder of a secret
    host.clock.t += 31
    events = await host.tick()
    assert [e.data.get("clock") for e in events] == ["auto"]
    res = events[0]
    state = await host._state(res.match)
    assert state.window is None and not state.chain
    # only the declaration shows, as if no window had been offered; nothing says "pass" or "time"
    lines = [m.render("en") for m in res.public.text]
    card = registry.get("logic_square").view(state, None)["cards"][cmd.split()[1]]["name"]["en"]
    verb = "Use" if cmd.startswith("use ") else "IT"      # a card from hand or an IT card
    assert lines and lines[0].startswith(f"{'Alice' if seat == 0 else 'Bob'}: {verb} {card}")   # in words
    assert not any("pass" in line or "time" in line for line in lines)
    log = [e["command"] for e in (await host.log(mid)).data["log"]]
    assert log[n_logged:] == [cmd]
    assert [c.command for c in await host.store.commands(mid)][-2:] == [cmd, "pass"]


async def test_an_illegal_answer_is_refused_and_changes_nothing(host):
    """The issue's bad input: "a chain response that is not legal: a clear localized message,
    nothing changes"."""
    mid, before, (seat, cmd) = await to_the_window(host, 3)
    users = (ALICE, BOB)
    res = await host.command(mid, users[seat], cmd)
    state = await host._state(res.match)
    responder = users[1 - seat]
    legal = set(game.legal_commands(state, 1 - seat))
    wrong = next(f"chain {c}" for c in sorted(set(state.hand[1 - seat])) if f"chain {c}" not in legal
                 and not any(x.startswith(f"chain {c} ") for x in legal))
    n = res.match.n_commands
    for text in (wrong, "use " + wrong.split()[1], "end"):
        bad = await host.command(mid, responder, text)
        assert not bad.ok and bad.error.key.startswith("logic_square.err.")
        assert bad.error.render("ja") != bad.error.render("en")
        assert (await host.store.get_match(mid)).n_commands == n
    assert game.dump(await host._state(await host.store.get_match(mid))) == game.dump(state)


async def test_public_updates_never_hold_an_unrevealed_hand_or_it_card(unpictured_host):
    """Project ruling (docs/rules/logic_square.md): "IT cards are face-down and private to the owner until used"; 4.⑦ 手札は相手に
    見えない.  Through a whole match: every public view (the channel picture is drawn from it and
    nothing else) and every update sent to a seat hold no card that is only in the other seat's
    hand or face-down IT deck."""
    host = unpictured_host
    rng = random.Random(5)
    res = await host.challenge("logic_square", ALICE, "Alice", opponents=[(BOB, "Bob")],
                               options={"decks": ["cipher", "fox"]}, seed=21)
    mid = res.match.id
    res = await host.accept(mid, BOB)
    users = (ALICE, BOB)
    for _ in range(150):
        state = await host._state(res.match)
        secret = [set(state.hand[s]) | set(state.it_left[s]) for s in (0, 1)]
        known = set(state.avi) | {p[2] for p in state.placed}      # and what was declared:
        known |= {d.card for d in state.chain} | {c for d in state.chain for c in d.paid}
        for s in (0, 1):
            known |= set(state.trash[s]) | set(state.it_used[s])
        pub = json.dumps(res.public.view)
        for s in (0, 1):
            for cid in secret[s] - known - secret[1 - s]:
                assert cid not in pub, (cid, "public")
                for p in res.private:
                    if p.seat != s:
                        assert cid not in json.dumps(p.view), (cid, "seat", p.seat)
        for p in res.prompts:
            for cid in secret[1 - p.seat] - known - secret[p.seat]:
                assert all(cid not in c for c in p.legal)
        if res.match.status != ACTIVE:
            break
        seat = game.to_act(state)[0]
        other = users[1 - seat]
        assert await host.legal(mid, other) == []                    # the opponent's autocomplete
        res = await host.command(mid, users[seat], rng.choice(game.legal_commands(state, seat)))
        assert res.ok


async def test_without_a_turn_clock_the_window_still_has_a_time_limit(host):
    """Project ruling (docs/rules/logic_square.md): the chance to respond is "a real decision with a time limit" — also in a match
    started without a turn clock.  The window then lasts ``WINDOW_SECONDS``; no other decision of
    an untimed match has a deadline, nothing public is posted before it runs out, and running out
    is the same silent pass."""
    from host.table import WINDOW_SECONDS

    mid, before, (seat, cmd) = await to_the_window(host, 3, turn_seconds=None)
    assert before.match.deadline is None                       # an ordinary turn: no deadline
    res = await host.command(mid, (ALICE, BOB)[seat], cmd)
    assert res.match.deadline == host.clock.t + WINDOW_SECONDS
    host.clock.t += WINDOW_SECONDS - 1
    assert await host.tick() == []
    host.clock.t += 2
    events = await host.tick()
    assert [e.data.get("clock") for e in events] == ["auto"]
    state = await host._state(events[0].match)
    assert state.window is None and events[0].match.deadline is None
    assert [c.command for c in await host.store.commands(mid)][-2:] == [cmd, "pass"]
    assert await host.tick() == []                              # nothing more is due


def _log_to_a_turn_player_window() -> tuple[int, list[tuple[int, str]]]:
    """A seed and a command log (random play, answering whenever possible) ending where the turn
    player must decide whether to answer the opponent's chained card."""
    return random_log_until(game, OPTIONS, lambda s: s.window is not None and s.window == s.player,
                            prefer=lambda legal: [c for c in legal if c.startswith("chain ")])


async def test_the_turn_players_answer_to_a_chain_is_a_secret_window_too(host):
    """Section 8 (チェーンアクション): the chain goes back and forth ("CB answers CB").  When the
    turn player may answer the opponent's answer, that chance is as secret as the first: the
    public lines stay held back, the prompt goes only by DM, and nothing public changes."""
    seed, log = _log_to_a_turn_player_window()
    res = await host.challenge("logic_square", ALICE, "Alice", opponents=[(BOB, "Bob")],
                               options=dict(OPTIONS), seed=seed, turn_seconds=60)
    mid = res.match.id
    await host.accept(mid, BOB)
    users = (ALICE, BOB)
    for seat, cmd in log[:-1]:
        res = await host.command(mid, users[seat], cmd)
        assert res.ok, (cmd, res.error)
    before_public = res.public
    seat, cmd = log[-1]
    res = await host.command(mid, users[seat], cmd)
    assert res.ok
    state = await host._state(res.match)
    assert game.hidden_pending(state) and game.to_act(state) == game.public_to_act(state) == [state.player]
    assert res.public.text == []                       # the chain so far is still held back
    assert res.public.view == before_public.view and res.public.picture == before_public.picture
    assert [(p.user_id, p.secret) for p in res.prompts] == [(users[state.player], True)]


async def test_a_match_keeps_the_rules_edition_it_started_under(clocked_host):
    """A new match records the current rules edition; a stored match replays under the edition
    in its record (a ruling never changes a match under way), and a bad edition is refused on
    read like any bad row."""
    from dataclasses import replace

    from data.rows import Bad, _plausible
    host = await clocked_host(render=False)
    res = await host.challenge("logic_square", ALICE, "Alice", opponents=[(BOB, "Bob")],
                               options=dict(OPTIONS), seed=11)
    mid = res.match.id
    assert (await host.accept(mid, BOB)).ok
    rec = await host.store.get_match(mid)
    assert rec.meta["edition"] == game.editions[-1]
    assert (await host._state(rec)).edition == game.editions[-1]
    old = await host.store.update_match(replace(rec, meta={**rec.meta, "edition": 1}), rec.version)
    host._states.clear()
    assert (await host._state(old)).edition == 1
    with pytest.raises(Bad):
        _plausible(replace(rec, meta={**rec.meta, "edition": "two"}))
