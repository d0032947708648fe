"""Every registered game plays through Discord (discord.py's real objects, HTTP faked): /play,
Accept (with the deck menu for card games), moves by /move until the match ends; the other
player's autocomplete never offers the mover's commands.  (View secrecy itself is proved per
game by the engines' secrecy tests; delivery secrecy by test_cogs_private/_secret_window.)"""
from __future__ import annotations

import random

import pytest

from data.store import ACTIVE, FINISHED
from discord_fakes import message_text
from rules import registry

MAX_STEPS = 400


async def accept(env, match_id: int) -> None:
    board = await env.board(match_id)
    ix = await env.fake.click(env.bot, env.bob, board, f"m:{match_id}:accept")
    picker = [c for row in (ix.last or {}).get("components", []) for c in row["components"]
              if ":deck:" in c.get("custom_id", "")]
    if picker:  # card games: Bob picks a deck first
        await env.fake.click(env.bot, env.bob, ix.last, picker[0]["custom_id"],
                             values=[picker[0]["options"][0]["value"]])


@pytest.mark.parametrize("game", [g for g in registry.names() if registry.get(g).min_players <= 2])
async def test_a_full_match_of_every_game_through_discord(env, game):
    rng = random.Random(11)
    await env.play(env.alice, game=game, opponent=env.bob)
    match_id = max(m.id for m in await env.store.matches_for_user(int(env.alice["id"])))
    await accept(env, match_id)
    rec = await env.match(match_id)
    assert rec.status == ACTIVE, rec.status
    users = {int(env.alice["id"]): env.alice, int(env.bob["id"]): env.bob}
    thread_id = rec.channel_id
    for _ in range(MAX_STEPS):
        rec = await env.match(match_id)
        if rec.status != ACTIVE:
            break
        acting = await env.host.to_act(match_id)
        uid = rec.seats[acting[0]]
        legal = await env.host.legal(match_id, uid)
        # a player who is not to act gets no commands in autocomplete (when both must act,
        # e.g. a secret battle-support choice, each sees only their own)
        for seat, other in enumerate(rec.seats):
            choices = await env.fake.autocomplete(env.bot, users[other], "move", "command", command="",
                                                  channel_id=thread_id)
            if seat not in acting:
                assert choices == []
            else:
                assert {c["value"] for c in choices} <= set(await env.host.legal(match_id, other))
        ix = await env.fake.slash(env.bot, users[uid], "move", command=rng.choice(legal), channel_id=thread_id)
        assert ix.ephemeral and "⚠️" not in ix.text, ix.text
    else:  # a long random game: end it by resignation
        await env.host.resign(match_id, int(env.alice["id"]))
    rec = await env.match(match_id)
    assert rec.status == FINISHED and rec.result is not None
    board = message_text(await env.board(match_id))
    assert "won" in board or "Draw" in board
