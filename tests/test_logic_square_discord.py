"""Battle Logic Square secrecy in Discord (discord.py's real objects, HTTP faked).

The issue: "a secrecy test that the public view, the channel picture and autocomplete shown to the
opponent never contain a hand card or an unused IT card".  project ruling (docs/rules/logic_square.md): "IT cards are face-down and
private to the owner until used … Send hand and IT deck to the owner by DM."  A match is played by
/move; after every command the thread's new messages, the board message, the opponent's DMs and
both players' /move autocomplete are checked against the cards that are, at that moment, only in a
hand or a face-down IT deck.  (The picture is drawn from the public view alone; the host tests
check that view and picture, test_render_logic_square that hidden cards never change it.)
"""
from __future__ import annotations

import json
import random


from data.store import ACTIVE
from discord_fakes import message_text
from rules import registry

game = registry.get("logic_square")


def hidden_only(state, seat: int) -> set[str]:
    """Card ids in ``seat``'s hand or face-down IT deck that nothing public shows and the other
    seat does not hold itself."""
    known = set(state.avi) | {p[2] for p in state.placed}
    for s in (0, 1):
        known |= set(state.trash[s]) | set(state.it_used[s])
    known |= {d.card for d in state.chain} | {c for d in state.chain for c in d.paid}
    last = state.last or {}
    known |= {d["card"] for d in last.get("chain") or []}
    mine = set(state.hand[seat]) | set(state.it_left[seat])
    theirs = set(state.hand[1 - seat]) | set(state.it_left[1 - seat])
    return mine - known - theirs


def words(state, ids: set[str]) -> set[str]:
    """The ids and both names of these cards."""
    out = set(ids)
    for cid in ids:
        out |= set(state.cards[cid].name.values())
    return out


def message_blob(m: dict) -> str:
    return message_text(m) + json.dumps(m.get("embeds") or [], ensure_ascii=False) + \
        json.dumps(m.get("components") or [], ensure_ascii=False)


async def test_the_channel_the_board_and_the_opponents_autocomplete_never_show_hidden_cards(env):
    env.host._rng = random.Random(11)   # a known deal (seeds otherwise come from secrets): it has chain windows
    await env.play(env.alice, game="logic_square", opponent=env.bob, options="first=1", deck="cipher")
    match_id = max(m.id for m in await env.store.matches_for_user(int(env.alice["id"])))
    board = await env.board(match_id)
    ix = await env.fake.click(env.bot, env.bob, board, f"m:{match_id}:accept")
    picker = [c for row in (ix.last or {}).get("components", []) for c in row["components"]
              if ":deck:" in c.get("custom_id", "")]
    if picker:
        await env.fake.click(env.bot, env.bob, ix.last, picker[0]["custom_id"], values=["fox"])
    rec = await env.match(match_id)
    assert rec.status == ACTIVE
    users = {rec.seats[0]: env.alice, rec.seats[1]: env.bob}
    thread_id = rec.channel_id
    rng = random.Random(4)
    seen_posts = len(env.fake.posts(thread_id))
    seen_dms = {uid: len(env.fake.dms(uid)) for uid in rec.seats}
    windows = 0
    for _ in range(120):
        rec = await env.match(match_id)
        if rec.status != ACTIVE:
            break
        state = await env.host._state(rec)
        secret = [words(state, hidden_only(state, s)) for s in (0, 1)]
        # the thread (new posts and the board as it stands) shows no hidden card of either seat
        posts = env.fake.posts(thread_id)[seen_posts:] + [await env.board(match_id)]
        seen_posts = len(env.fake.posts(thread_id))
        for m in posts:
            blob = message_blob(m)
            for w in secret[0] | secret[1]:
                assert w not in blob, (w, blob[:300])
        # each player's DMs never show the other seat's hidden cards
        for seat, uid in enumerate(rec.seats):
            for m in env.fake.dms(uid)[seen_dms[uid]:]:
                blob = message_blob(m)
                for w in secret[1 - seat]:
                    assert w not in blob, (w, "DM of seat", seat)
            seen_dms[uid] = len(env.fake.dms(uid))
        # /move autocomplete: nothing for a player not asked; only one's own commands otherwise
        acting = game.to_act(state)
        for seat, uid in enumerate(rec.seats):
            choices = await env.fake.autocomplete(env.bot, users[uid], "move", "command", command="",
                                                  channel_id=thread_id)
            if seat not in acting:
                assert choices == []
            for c in choices:
                assert not any(w in c["name"] or w in c["value"] for w in secret[1 - seat]), c
        seat = acting[0]
        legal = game.legal_commands(state, seat)
        cmd = rng.choice([c for c in legal if c != "end"] or legal)
        windows += state.window is not None
        ix = await env.fake.slash(env.bot, users[rec.seats[seat]], "move", command=cmd, channel_id=thread_id)
        assert ix.ephemeral and "⚠️" not in ix.text, ix.text
    assert windows, "the match should have offered a chain window"
