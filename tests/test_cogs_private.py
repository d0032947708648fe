"""Private views: DMs edited in place, closed DMs, /match hand — with a game the cogs have never
heard of (registered only for these tests), which is also the proof that a new game needs no
change to any cog."""
from __future__ import annotations

import copy
import json
import random
import re

import pytest

from discord_fakes import is_v2, make_env, message_text, pictures_of
from rules import IllegalCommand, registry


class SecretDuel:
    """Two players, three hidden cards each (two-digit numbers); play them in turn; high sum wins."""

    name = "secret_duel"
    min_players = 2
    max_players = 2

    def new_match(self, players, seed, options=None):
        if options:
            raise ValueError(f"unknown options: {', '.join(options)}")
        rng = random.Random(seed)
        cards = rng.sample(range(10, 99), 6)
        return {"hands": [sorted(cards[:3]), sorted(cards[3:])], "played": [[], []], "turn": 0}

    def to_act(self, s):
        return [] if self.outcome(s) else [s["turn"] % 2]

    def legal_commands(self, s, seat):
        return [f"play {c}" for c in s["hands"][seat]] if seat in self.to_act(s) else []

    def apply(self, s, seat, command):
        if command not in self.legal_commands(s, seat):
            raise IllegalCommand(f"{command!r} is not allowed; play one of your cards")
        card = int(command.split()[1])
        s = copy.deepcopy(s)
        s["hands"][seat].remove(card)
        s["played"][seat].append(card)
        s["turn"] += 1
        return s

    def view(self, s, seat):
        v = {"game": self.name, "seat": seat, "played": s["played"],
             "counts": [len(h) for h in s["hands"]], "to_act": self.to_act(s)}
        if seat is not None:
            v["hand"] = list(s["hands"][seat])
        return v

    def outcome(self, s):
        if s["turn"] < 4:
            return None
        a, b = (sum(p) for p in s["played"])
        return {"winners": [0] if a > b else [1] if b > a else [], "reason": "points"}

    def dump(self, s):
        return json.dumps(s)

    def load(self, text):
        return json.loads(text)


@pytest.fixture
def secret_game():
    registry.register(SecretDuel())
    yield registry.get("secret_duel")
    registry._games.pop("secret_duel", None)


@pytest.fixture
async def env(tmp_path, secret_game):
    e = await make_env(tmp_path, render=True)
    yield e
    await e.close()


def uid(user):
    return int(user["id"])


async def hands(env, match_id):
    rec = await env.match(match_id)
    state = await env.host._state(rec)
    return state["hands"]


def without_mentions(text: str) -> str:
    return re.sub(r"<[@#]!?\d+>", "", text)


async def test_private_views_go_by_dm_and_are_edited_in_place(env):
    match_id = await env.start(game="secret_duel", options="")
    dms = env.fake.dms(uid(env.alice))
    assert len(dms) == 1
    dm = dms[0]
    assert "your private view" in message_text(dm)
    assert [a["filename"] for a in dm["attachments"]] == ["hand.png"]
    # the same private information as text (screen readers, search), and only the own part
    alice_hand = (await hands(env, match_id))[0]
    assert f"hand: [{', '.join(str(c) for c in alice_hand)}]" in message_text(dm)
    assert "played" not in message_text(dm) and is_v2(dm) and pictures_of(dm) == ["hand.png"]
    assert len(env.fake.dms(uid(env.bob))) == 1
    # a move updates each DM in place instead of sending a new one
    legal = await env.host.legal(match_id, uid(env.alice))
    thread_id = (await env.match(match_id)).channel_id
    await env.fake.slash(env.bot, env.alice, "move", command=legal[0], channel_id=thread_id)
    assert len(env.fake.dms(uid(env.alice))) == 1 and len(env.fake.dms(uid(env.bob))) == 1
    assert env.fake.calls("PATCH", rf"/channels/{dm['channel_id']}/messages/{dm['id']}$")
    refs = await env.refs(match_id)
    assert refs[f"dm:{uid(env.alice)}"] == f"{dm['channel_id']}:{dm['id']}"


async def test_closed_dms_get_a_notice_in_the_thread_without_secrets_and_match_hand_works(env):
    env.fake.closed_dms.add(uid(env.alice))
    match_id = await env.start(game="secret_duel", options="")
    thread_id = (await env.match(match_id)).channel_id
    assert env.fake.dms(uid(env.alice)) == []
    assert len(env.fake.dms(uid(env.bob))) == 1, "a closed DM never blocks the others"
    notices = [m for m in env.fake.posts(thread_id) if "/match hand" in m["content"]]
    assert len(notices) == 1
    notice = notices[0]
    assert f"<@{env.alice['id']}>" in notice["content"]
    assert notice["_allowed_mentions"]["users"] == [uid(env.alice)]
    assert not notice["embeds"] and not notice["attachments"]
    alice_hand, bob_hand = await hands(env, match_id)
    for card in alice_hand + bob_hand:
        assert str(card) not in without_mentions(notice["content"])
    # the public board was still posted
    board = await env.board(match_id)
    assert "To act: Alice" in message_text(board)
    # more moves: the notice is not repeated
    legal = await env.host.legal(match_id, uid(env.alice))
    await env.fake.slash(env.bot, env.alice, "move", command=legal[0], channel_id=thread_id)
    assert len([m for m in env.fake.posts(thread_id) if "/match hand" in m["content"]]) == 1
    # /match hand shows Alice her view, ephemerally
    ix = await env.fake.slash(env.bot, env.alice, "match hand", channel_id=thread_id)
    assert ix.ephemeral and "your private view" in ix.text and ix.files == ["hand.png"]
    # a stranger has no hand here
    ix = await env.fake.slash(env.bot, env.carol, "match hand", match=match_id)
    assert ix.ephemeral and "not playing in this match" in ix.text


async def test_the_act_menu_works_for_a_game_the_cogs_do_not_know(env):
    match_id = await env.start(game="secret_duel", options="")
    alice_hand = (await hands(env, match_id))[0]
    board = await env.board(match_id)
    ix = await env.fake.click(env.bot, env.alice, board, f"m:{match_id}:act")
    # a game without a describer: its commands are the labels, all in one select, one pick plays
    select = next(c for row in ix.last["components"] for c in row["components"] if ":c:" in c["custom_id"])
    assert sorted(o["label"] for o in select["options"]) == sorted(f"play {c}" for c in alice_hand)
    option = next(o for o in select["options"] if o["label"] == f"play {alice_hand[1]}")
    ix = await env.fake.click(env.bot, env.alice, ix.last, select["custom_id"], values=[option["value"]])
    assert f"You played `play {alice_hand[1]}`" in ix.text
    # Bob's autocomplete shows his cards, never Alice's
    thread_id = (await env.match(match_id)).channel_id
    choices = await env.fake.autocomplete(env.bot, env.bob, "move", "command", command="", channel_id=thread_id)
    bob_hand = (await hands(env, match_id))[1]
    assert sorted(c["value"] for c in choices) == sorted(f"play {c}" for c in bob_hand)


async def test_dm_locale_follows_the_players_own_discord_language(env):
    await env.play(env.alice, game="secret_duel", opponent=env.bob, locale="ja")
    board = env.fake.posts()[-1]
    await env.fake.click(env.bot, env.bob, board, "m:1:accept", locale="en-US")
    assert "あなただけの情報" in message_text(env.fake.dms(uid(env.alice))[0])
    assert "your private view" in message_text(env.fake.dms(uid(env.bob))[0])


async def test_private_views_are_never_logged(env, caplog):
    caplog.set_level("DEBUG")
    env.fake.closed_dms.add(uid(env.alice))
    match_id = await env.start(game="secret_duel", options="")
    thread_id = (await env.match(match_id)).channel_id
    await env.fake.slash(env.bot, env.alice, "match hand", channel_id=thread_id)
    alice_hand, bob_hand = await hands(env, match_id)
    cog_logs = "\n".join(r.getMessage() for r in caplog.records if r.name.startswith(("cogs", "bot")))
    for card in alice_hand + bob_hand:
        assert f"play {card}" not in cog_logs and "'hand': [" not in cog_logs


async def test_a_players_dm_has_act_and_is_edited_only_when_their_view_changed(env):
    """Issue 14, "DMs you can act from": a player's DM carries Act, which opens the same move
    menu as under the board (one pick plays); the button does not change with the moves on
    offer, so the DM is edited only when the private view changed (each edit is a rate-limited
    REST call; ``python -m bench --discord`` counts them)."""
    from discord_fakes import component

    match_id = await env.start(game="secret_duel", options="")
    alice_hand, bob_hand = await hands(env, match_id)
    [alice_dm] = env.fake.dms(uid(env.alice))
    [bob_dm] = env.fake.dms(uid(env.bob))
    for dm in (alice_dm, bob_dm):
        assert component(dm, rf"^m:{match_id}:act$") is not None and component(dm, r":c:") is None
    ix = await env.fake.click(env.bot, env.alice, alice_dm, f"m:{match_id}:act")
    assert ix.ephemeral
    select = next(c for row in ix.last["components"] for c in row["components"] if ":c:" in c["custom_id"])
    assert sorted(o["label"] for o in select["options"]) == sorted(f"play {c}" for c in alice_hand)
    option = next(o for o in select["options"] if o["label"] == f"play {alice_hand[2]}")
    ix = await env.fake.click(env.bot, env.alice, ix.last, select["custom_id"], values=[option["value"]])
    assert f"You played `play {alice_hand[2]}`" in ix.text
    assert (await env.match(match_id)).n_commands == 1
    # both DMs were edited in place (never sent again) and still carry Act, no move list
    sent = lambda user: [m for m in env.fake.dms(uid(user)) if m.get("_via") == "channel"]  # noqa: E731
    assert len(sent(env.alice)) == 1 and len(sent(env.bob)) == 1
    bob_dm = env.fake.messages[int(bob_dm["id"])]
    assert component(bob_dm, rf"^m:{match_id}:act$") is not None and component(bob_dm, r":c:") is None
    alice_dm = env.fake.messages[int(alice_dm["id"])]
    assert component(alice_dm, rf"^m:{match_id}:act$") is not None
