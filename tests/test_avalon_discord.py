"""Avalon's Sanctuary through Discord (discord.py's real objects, HTTP faked): a 3-player match
started with /play, a fourth player joins late with the Join button (deck menu), hands go by DM,
a secret battle-support choice shows up in no public message until both have chosen, and the
match plays to its end with /move."""
from __future__ import annotations

import random


from data.store import ACTIVE, FINISHED
from discord_fakes import custom_ids, message_text
from rules import registry

game = registry.get("avalon")


def uid(user: dict) -> int:
    return int(user["id"])


async def pick_deck(env, user, ix, option: int = 0) -> None:
    picker = [c for row in (ix.last or {}).get("components", []) for c in row["components"]
              if ":deck:" in c.get("custom_id", "")]
    assert picker, ix.text
    await env.fake.click(env.bot, user, ix.last, picker[0]["custom_id"],
                         values=[picker[0]["options"][option]["value"]])


async def state_of(env, match_id):
    return await env.host._state(await env.match(match_id))


def card_name(cid: str) -> str:
    return game.card_defs[cid]["name"]["en"]


def pick(rng: random.Random, legal: list[str]) -> str:
    """A random legal command, biased towards building up and battling so battles happen."""
    for verbs in (("summon",), ("ranged", "invade", "advance"), ("forge",)):
        good = [c for c in legal if c.split()[0] in verbs]
        if good and rng.random() < 0.8:
            return rng.choice(good)
    return rng.choice(legal)


async def test_three_players_a_late_joiner_private_hands_and_secret_supports(env):
    """「最大4人同時対戦」;「途中参加する場合は、チェイサーとしてリーダーターンが終了し次第プレイ」;
    project ruling (docs/rules/avalon.md): "A battle's support choice is secret until both have chosen"; hands by DM."""
    dave = env.fake.user("Dave")
    users = [env.alice, env.bob, env.carol, dave]
    await env.play(env.alice, game="avalon", opponent=env.bob, opponent2=env.carol, options="leader=1")
    match_id = max(m.id for m in await env.store.matches_for_user(uid(env.alice)))
    for user in (env.bob, env.carol):
        ix = await env.fake.click(env.bot, user, await env.board(match_id), f"m:{match_id}:accept")
        await pick_deck(env, user, ix)
    rec = await env.match(match_id)
    assert rec.status == ACTIVE and len(rec.seats) == 3
    assert f"m:{match_id}:join" in custom_ids(await env.board(match_id))       # 3 seats < 4

    # the fourth player joins with a deck of their choice; set up at once, plays as a chaser later
    ix = await env.fake.click(env.bot, dave, await env.board(match_id), f"m:{match_id}:join")
    await pick_deck(env, dave, ix, option=2)
    rec = await env.match(match_id)
    assert rec.seats[-1] == uid(dave) and len(rec.seats) == 4
    state = await state_of(env, match_id)
    assert state.players[3].status == "waiting" and 3 not in game.to_act(state)

    # hands by DM: each DM names the own hand and no other seat's private cards
    for seat, user in enumerate(users):
        dms = env.fake.dms(uid(user))
        assert dms, seat
        text = message_text(dms[-1])
        mine = f"Your hand (P{seat + 1} {rec.names[seat]}):"        # the own part, named for its reader
        assert mine in text and text.count("Your hand") == 1
        # each card by its name (no id: "Words, not ids"), no other seat's card named
        for cid in state.players[seat].hand:
            assert card_name(cid) in text and cid not in text.split()
        for other in range(4):
            if other != seat:
                only_theirs = set(state.players[other].hand) - set(state.players[seat].hand)
                mine_names = {card_name(c) for c in state.players[seat].hand}
                for c in only_theirs:
                    name = card_name(c)
                    assert name in mine_names or name not in text, (seat, other, name)

    thread_id = rec.channel_id
    rng = random.Random(8)
    secret_checked = 0
    for _ in range(900):
        rec = await env.match(match_id)
        if rec.status != ACTIVE:
            break
        state = await state_of(env, match_id)
        acting = game.to_act(state)
        with_support = [s for s in acting if len(game.legal_commands(state, s)) > 1]
        seat = rng.choice(with_support if state.step == "support" and with_support else acting)
        legal = game.legal_commands(state, seat)
        cmd = pick(rng, legal)
        cards = [c.split()[1] for c in legal if c.startswith("support ") and c != "support avatar"]
        first_of_two = state.step == "support" and len(acting) == 2
        if first_of_two and cards:
            cmd = f"support {cards[0]}"
            name = card_name(cards[0])
            board_before = message_text(await env.board(match_id))
            n_posts = len(env.fake.posts(thread_id))
        ix = await env.fake.slash(env.bot, users[seat], "move", command=cmd, channel_id=thread_id)
        assert ix.ephemeral and "⚠️" not in ix.text, (cmd, ix.text)
        if first_of_two and cards:
            new_posts = " ".join(message_text(m) for m in env.fake.posts(thread_id)[n_posts:])
            board_after = message_text(await env.board(match_id))
            assert cards[0] not in new_posts and name not in new_posts
            assert name in board_before or name not in board_after
            assert cards[0] not in board_after
            secret_checked += 1
    else:
        await env.host.resign(match_id, uid(env.alice))
    assert secret_checked >= 1
    rec = await env.match(match_id)
    assert rec.status == FINISHED and len(rec.seats) == 4


async def test_deck_command_enforces_the_originality_copy_limits_and_40_cards(env):
    """「オリジナリティの星が1つで4枚、2つで3枚まで、3つで2枚、4つは1枚まで ... 星が5つのカードは、
    カードの名前が違っても、デッキには1枚しか入れることができません」;「40枚のカード ... アバター
    カードは40枚に含みません」 — through /deck in Discord."""
    ix = await env.fake.slash(env.bot, env.alice, "deck new", game="avalon", name="mine", copy="dawn")
    assert "is legal" in message_text(ix.last)
    ix = await env.fake.slash(env.bot, env.alice, "deck edit", game="avalon", name="mine", action="add",
                              card="c07")            # a second copy of a ★5 card: 41 cards
    text = message_text(ix.last)
    assert "may hold 1 of it at most" in text and "only one ★5 card" in text and "exactly 40 cards" in text
    await env.fake.slash(env.bot, env.alice, "deck edit", game="avalon", name="mine", action="remove", card="c07")
    await env.fake.slash(env.bot, env.alice, "deck edit", game="avalon", name="mine", action="remove", card="c02")
    ix = await env.fake.slash(env.bot, env.alice, "deck edit", game="avalon", name="mine", action="add",
                              card="c36")            # another ★5 card, another name: still too many
    text = message_text(ix.last)
    assert "only one ★5 card" in text and "exactly 40" not in text
    ix = await env.fake.slash(env.bot, env.alice, "play", game="avalon", opponent=env.bob, deck="mine")
    assert ix.ephemeral and "cannot be played" in ix.text
    await env.fake.slash(env.bot, env.alice, "deck edit", game="avalon", name="mine", action="remove", card="c36")
    ix = await env.fake.slash(env.bot, env.alice, "deck edit", game="avalon", name="mine", action="add",
                              card="c03", count=2)   # ★2: 3 copies at most (dawn has 3 already)
    assert "may hold 3 of it at most" in message_text(ix.last)
