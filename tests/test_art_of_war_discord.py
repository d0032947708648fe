"""Art of War in Discord (discord.py's real objects, HTTP faked): deck building with /deck (a KING +
20 basic units), a match with hands by DM and public waiting area/kingdom/graveyard, and a private
response window that the thread never reveals.

Rulebook: 「KING」カード1枚+5種類のカードを20枚選び合計21で1デッキ(国)を構成し遊びます。
Issue: "Hands by DM; the waiting area, kingdom and graveyard are public." project ruling (docs/rules/art_of_war.md): GUARDIAN's and
WIZARD's supports are "real response windows for the other player, offered only when they could
respond".
"""
from __future__ import annotations

import random
import re

import pytest

from data.store import ACTIVE
from discord_fakes import make_env, message_text
from rules import registry
from rules.art_of_war.engine import SQUARES

GAME = "art_of_war"
game = registry.get(GAME)


@pytest.fixture
async def env(tmp_path):
    """Pictures on: DMs carry the hand picture as well as its text."""
    e = await make_env(tmp_path, render=True)
    yield e
    await e.close()


def uid(user) -> int:
    return int(user["id"])


async def test_a_deck_of_one_king_and_twenty_basic_units_is_built_with_slash_deck(env):
    ix = await env.fake.slash(env.bot, env.alice, "deck new", game=GAME, name="mine")
    text = message_text(ix.last)
    assert ix.ephemeral and "breaks" in text
    assert "exactly one KING" in text and "exactly 20 basic units" in text
    ix = await env.fake.slash(env.bot, env.alice, "deck edit", game=GAME, name="mine", action="add",
                              card="king_sage")
    for unit, n in (("soldier", 5), ("archer", 5), ("priest", 5), ("guardian", 4)):
        ix = await env.fake.slash(env.bot, env.alice, "deck edit", game=GAME, name="mine", action="add",
                                  card=unit, count=n)
    text = message_text(ix.last)
    assert "breaks 1 deck-building rule" in text and "this one has 19" in text
    # a 21st card: legal; a second KING replaces the first (a deck has one KING)
    ix = await env.fake.slash(env.bot, env.alice, "deck edit", game=GAME, name="mine", action="add",
                              card="wizard")
    assert "is legal" in message_text(ix.last)
    ix = await env.fake.slash(env.bot, env.alice, "deck edit", game=GAME, name="mine", action="add",
                              card="king_iron")
    assert "is legal" in message_text(ix.last)
    ix = await env.fake.slash(env.bot, env.alice, "deck validate", game=GAME, name="mine")
    assert "is legal" in message_text(ix.last)
    ix = await env.fake.slash(env.bot, env.alice, "deck export", game=GAME, name="mine")
    assert "aow1-king_iron-5.5.5.4.1" in ix.text
    # the autocomplete offers the KINGs and the five basic units
    choices = await env.fake.autocomplete(env.bot, env.alice, "deck edit", "card", game=GAME, name="mine",
                                          action="add", card="")
    values = {c["value"] for c in choices}
    assert {"king_iron", "king_falcon", "king_sage", "soldier", "archer", "priest", "guardian", "wizard"} <= values
    # the saved deck plays
    await env.fake.slash(env.bot, env.alice, "play", game=GAME, opponent=env.bob, deck="mine")
    match_id = (await env.store.matches_for_user(uid(env.alice)))[0].id
    await _accept(env, match_id, "sage_court")
    rec = await env.match(match_id)
    assert rec.status == ACTIVE
    assert rec.options["decks"] == [{"king": "king_iron", "units": {"soldier": 5, "archer": 5, "priest": 5,
                                                                   "guardian": 4, "wizard": 1}}, "sage_court"]
    assert [k["id"] for k in game.view(await env.host._state(rec), None)["kings"]] == ["king_iron", "king_sage"]


async def _accept(env, match_id: int, deck: str) -> None:
    board = await env.board(match_id)
    ix = await env.fake.click(env.bot, env.bob, board, f"m:{match_id}:accept")
    picker = [c for row in (ix.last or {}).get("components", []) for c in row["components"]
              if ":deck:" in c.get("custom_id", "")]
    assert picker, "Bob is asked for his deck"
    await env.fake.click(env.bot, env.bob, ix.last, picker[0]["custom_id"], values=[deck])


async def _start(env, **kw) -> int:
    """Alice challenges Bob with ready-made decks; Bob accepts with his deck choice."""
    await env.play(env.alice, game=GAME, opponent=env.bob, options="first=1", deck="iron_wall", **kw)
    match_id = max(m.id for m in await env.store.matches_for_user(uid(env.alice)))
    await _accept(env, match_id, "falcon_raid")
    rec = await env.match(match_id)
    assert rec.status == ACTIVE
    return match_id


def _hand_line(text: str) -> str | None:
    """The hand as letters ("S S G") from the DM's words ("Your hand: SOLDIER ×2, GUARDIAN")."""
    m = re.search(r"Your hand: ([^\n]+)", text)
    if not m:
        return None
    letters = {"KING": "K", "SOLDIER": "S", "ARCHER": "A", "PRIEST": "P", "GUARDIAN": "G", "WIZARD": "W"}
    out: list[str] = []
    for part in m.group(1).strip().split(", "):
        name, _, times = part.partition(" ×")
        out += [letters.get(name.strip(), name.strip())] * (int(times) if times.isdigit() else 1)
    return " ".join(out)


async def test_hands_go_by_dm_and_the_thread_shows_only_public_facts(env):
    match_id = await _start(env)
    rec = await env.match(match_id)
    thread = rec.channel_id
    state = await env.host._state(rec)
    for user, seat in ((env.alice, 0), (env.bob, 1)):
        dms = env.fake.dms(uid(user))
        assert dms, "each player gets a DM with the private view"
        shown = _hand_line(message_text(dms[-1]))
        assert shown == " ".join(c.upper() for c in sorted(state.hands[seat], key="ksapgw".index))
        assert [a["filename"] for a in dms[-1]["attachments"]] == ["hand.png"]
    for post in env.fake.posts(thread):
        assert "Your hand" not in message_text(post)
    # mulligan decisions and set-up: the waiting areas and kingdoms become public, hands stay in DMs
    for _ in range(2):
        acting = (await env.host.to_act(match_id))[0]
        await env.fake.slash(env.bot, (env.alice, env.bob)[acting], "move", command="keep", channel_id=thread)
    for _ in range(2):
        acting = (await env.host.to_act(match_id))[0]
        user = (env.alice, env.bob)[acting]
        legal = await env.host.legal(match_id, uid(user))
        await env.fake.slash(env.bot, user, "move", command=legal[0], channel_id=thread)
    rec = await env.match(match_id)
    state = await env.host._state(rec)
    assert state.phase == "play"
    public = game.view(state, None)
    assert public["players"][0]["waiting"] and public["players"][1]["waiting"]
    assert public["players"][0]["kingdom_count"] == 1 and "hand" not in public
    for post in env.fake.posts(thread):
        text = message_text(post)
        assert "Your hand" not in text and "hand.png" not in str(post.get("attachments"))
    for user, seat in ((env.alice, 0), (env.bob, 1)):
        shown = _hand_line(message_text(env.fake.dms(uid(user))[-1]))
        assert shown == " ".join(c.upper() for c in sorted(state.hands[seat], key="ksapgw".index))


async def test_a_guardian_window_is_asked_by_dm_only_and_the_thread_shows_nothing_until_it_closes(env):
    """Project ruling (docs/rules/art_of_war.md): GUARDIAN's support is a response to an opponent's attack … offered only when they
    could respond.  The defender is asked privately; the thread neither pings nor names him, and the
    attack itself is held back until he answers."""
    match_id = await _start(env)
    rec = await env.match(match_id)
    thread = rec.channel_id
    # drive the match to the first attack that opens a GUARDIAN window
    rng = random.Random(4)
    for _ in range(400):
        rec = await env.match(match_id)
        state = await env.host._state(rec)
        if state.window is not None or rec.status != ACTIVE:
            break
        seat = game.to_act(state)[0]
        legal = game.legal_commands(state, seat)
        attacks = [c for c in legal if c.startswith("attack")]
        responder = 1 - seat
        opening = [c for c in attacks if ("g" in state.hands[responder] or "k" in state.hands[responder])
                   and len(state.waiting[responder]) < 5]
        # avoid opening WIZARD windows so the first window is the GUARDIAN one
        quiet = [c for c in legal if not c.startswith(("attack", "support"))]
        cmd = opening[0] if opening else rng.choice(quiet or legal)
        before_posts = len(env.fake.posts(thread))
        user = (env.alice, env.bob)[seat]
        await env.fake.slash(env.bot, user, "move", command=cmd, channel_id=thread)
    rec = await env.match(match_id)
    state = await env.host._state(rec)
    assert state.window is not None and state.chain[0][0] == "attack", "no GUARDIAN window opened"
    defender = state.window
    defender_user = (env.alice, env.bob)[defender]
    attacker_user = (env.alice, env.bob)[1 - defender]
    # nothing public since the declaration: no post names or pings the defender
    for post in env.fake.posts(thread)[before_posts:]:
        text = message_text(post)
        assert f"<@{uid(defender_user)}>" not in text
        assert uid(defender_user) not in (post.get("_allowed_mentions") or {}).get("users", [])
        assert "attack" not in text
    board = message_text(await env.board(match_id))
    assert defender_user["username"] not in board.split("To act:")[-1].split("\n")[0]
    # the defender's DM lists exactly the legal answers and a pass
    dms = [message_text(m) for m in env.fake.dms(uid(defender_user))]
    answers = [c for c in game.legal_commands(state, defender) if c != "pass"]
    prompt = dms[-1]
    assert "a decision is waiting for you" in prompt
    # … in words (the menu's labels): "Answer with GUARDIAN, …, Pass"
    from render.labels import choices as describe
    words = [c.label for c in describe("art_of_war", game.view(state, defender), defender,
                                       answers + ["pass"], "en", ["Alice", "Bob"])]
    assert "Your choices: " + ", ".join(words) in prompt and "Pass" in words
    # the private view (edited in place) names what is being answered
    view_dm = next(t for t in dms if "private view" in t)
    attack = state.chain[0]
    assert "Answering:" in view_dm and f"({SQUARES[attack[2]]}) → " in view_dm \
        and f"({SQUARES[attack[3]]}), attack {attack[4]}" in view_dm
    # the attacker's DMs show no window
    for text in (message_text(m) for m in env.fake.dms(uid(attacker_user))):
        assert "Answer" not in text and "decision is waiting" not in text
    # the attacker cannot act and is told only that something is resolving
    ix = await env.fake.slash(env.bot, attacker_user, "move", command="end", channel_id=thread)
    assert defender_user["username"] not in ix.text
    # the pass is not shown; the held attack is released
    before_posts = len(env.fake.posts(thread))
    await env.fake.slash(env.bot, defender_user, "move", command="pass", channel_id=thread)
    new = " ".join(message_text(p) for p in env.fake.posts(thread)[before_posts:])
    board = message_text(await env.board(match_id))
    assert "pass" not in new and "pass" not in board.split("To act:")[0]
    assert "attack" in board.lower() or "attack" in new.lower()      # "Alice: Attack: IRON KING b2 → …"
    log = [e["command"] for e in (await env.host.log(match_id)).data["log"]]
    assert any(c.startswith("attack") for c in log) and "pass" not in log
