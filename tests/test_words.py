"""Words, not debug text (issue 14): the text a DM or the console shows of any game's view, in
either language, reads as sentences — never a dump of the view (``pending: kind=main ap=2
caa_used=false``), never a view key, never JSON literals."""
from __future__ import annotations

import json
import random
import re

import pytest

from host.table import own_part
from render.text import render_text
from rules import registry

DUMP = [
    re.compile(r"\b[a-z]+(?:_[a-z]+)+\b"),     # a view key such as caa_used, it_unused, hand_count
    re.compile(r"(?<![A-Za-z0-9_])[a-z][a-z0-9_]*=\S"),   # key=value
    re.compile(r"(?<!-)\b(?:null|true|false|None|True|False)\b"),   # ("evade-null" is a keyword)
    re.compile(r"^\s*[a-z_]+:\s*$", re.M),     # a bare "key:" heading of a nested dump
]


def _positions(name: str, players: int, seed: int, n: int = 120):
    game = registry.get(name)
    state = game.new_match(players=players, seed=seed, options={})
    r = random.Random(seed)
    for _ in range(n):
        yield game, state
        if game.outcome(state) is not None or not game.to_act(state):
            return
        seat = r.choice(game.to_act(state))
        state = game.apply(state, seat, r.choice(game.legal_commands(state, seat)))
    yield game, state


@pytest.mark.parametrize("name", registry.names())
@pytest.mark.parametrize("locale", ["en", "ja"])
def test_the_text_of_every_view_and_dm_is_words(name, locale):
    game = registry.get(name)
    names = ["Alice", "Bob", "Carol", "Dave"]
    for players in sorted({game.min_players, min(game.max_players, 3)}):
        for seed in (1, 2):
            for i, (game, state) in enumerate(_positions(name, players, seed)):
                if i % 7 and game.outcome(state) is None:
                    continue
                public = game.view(state, None)
                texts = [render_text(name, public, locale=locale, names=names[:players])]
                for seat in range(players):
                    texts.append(render_text(name, own_part(game.view(state, seat), public),
                                             locale=locale, names=names[:players]))
                for text in texts:
                    for pattern in DUMP:
                        found = pattern.search(text)
                        assert found is None, (name, locale, found.group(0), text)


@pytest.mark.parametrize("kind", ["ready", "saved", "code"])
async def test_the_deck_chosen_reply_names_the_deck_as_a_player_knows_it(env, kind):
    """"You play with blitz." named a ready-made deck by its id (and a deck code by the code):
    now a ready-made deck's title, the player's own deck name, or "own deck"."""
    from data import i18n

    game = "logic_square"
    d = registry.get(game).decks
    rid = list(d.ready())[-1]
    code = d.encode(d.ready()[rid]["spec"])
    choice = {"ready": rid, "saved": "mine", "code": code}[kind]
    if kind == "saved":
        await env.fake.slash(env.bot, env.bob, "deck import", game=game, name="mine", code=code)
    await env.play(env.alice, game=game, opponent=env.bob)
    match_id = max(m.id for m in await env.store.matches_for_user(int(env.alice["id"])))
    board = await env.board(match_id)
    ix = await env.fake.click(env.bot, env.bob, board, f"m:{match_id}:accept")
    picker = next(c for row in ix.last["components"] for c in row["components"] if ":deck:" in c["custom_id"])
    ix = await env.fake.click(env.bot, env.bob, ix.last, picker["custom_id"], values=[choice])
    expected = {"ready": d.ready()[rid]["name"]["en"], "saved": "mine",
                "code": i18n.t("options.own_deck", "en")}[kind]
    assert i18n.t("cogs.deck.chosen", "en", name=expected) in ix.text, ix.text
    if kind != "saved":
        assert choice not in ix.text


@pytest.mark.parametrize("name", registry.names())
@pytest.mark.parametrize("ending", ["resign", "timeout"])
async def test_a_match_the_host_ends_shows_who_won_and_how(clocked_host, name, ending):
    """After a resignation or a timeout the final picture and text said whose turn it was:
    now they carry the result — the winner and the reason, in words."""
    from render import render_png
    from render.base import reason_text

    host = await clocked_host(render=False)
    res = await host.challenge(name, 1, "Alice", opponents=[(2, "Bob")], turn_seconds=3600)
    mid = res.match.id
    await host.accept(mid, 2)
    if ending == "resign":
        loser = 1
        assert (await host.resign(mid, loser)).ok
    else:
        # a game with a default for the late seat (a mulligan "keep", a pass) plays it and goes
        # on; claim again until a decision without a default times out and ends the match
        for _ in range(12):
            seat = (await host.to_act(mid))[0]
            loser = [1, 2][seat]
            host.clock.t += 3601
            res = await host.claim_timeout(mid, 3 - loser)
            assert res.ok, res.error
            if res.match.status == "finished":
                break
        if name == "avalon" and res.match.status != "finished":
            pytest.skip("Avalon's Sanctuary always has a default: a late player loses life instead")
        assert res.match.status == "finished"
    status = await host.status(mid)
    view = status.public.view
    assert view["outcome"]["winners"] == [2 - loser] and view.get("to_act") in ([], None)
    for locale in ("en", "ja"):
        text = render_text(name, view, locale=locale, names=["Alice", "Bob"])
        reason = reason_text(name, ending, locale)     # the game's own wording first
        assert "Bob" in text and reason in text, text
        assert f"{name}.reason." not in text and "reason." not in text
        render_png(name, view, locale=locale, names=["Alice", "Bob"])


@pytest.mark.parametrize("game", ["logic_square", "art_of_war", "maken"])
async def test_a_dm_is_edited_only_when_what_it_shows_changed(env, game):
    """Every DM was edited after every command, changed or not (a rate-limited REST call each):
    now an edit always changes the DM's text or picture."""
    fake = env.fake
    noop: list[str] = []
    real_edit = fake._edit

    def edit(m, payload, files):
        dm = fake.channels.get(int(m["channel_id"]), {}).get("type") == 1
        before = (json.dumps([m.get("embeds"), m.get("components")], sort_keys=True),
                  [a.get("_bytes") for a in m.get("attachments") or []])
        out = real_edit(m, payload, files)
        after = (json.dumps([out.get("embeds"), out.get("components")], sort_keys=True),
                 [a.get("_bytes") for a in out.get("attachments") or []])
        if dm and before == after:
            noop.append(m["id"])
        return out

    fake._edit = edit
    await env.play(env.alice, game=game, opponent=env.bob)
    match_id = max(m.id for m in await env.store.matches_for_user(int(env.alice["id"])))
    board = await env.board(match_id)
    ix = await fake.click(env.bot, env.bob, board, f"m:{match_id}:accept")
    picker = next((c for row in (ix.last or {}).get("components") or [] for c in row["components"]
                   if ":deck:" in c["custom_id"]), None)
    if picker is not None:
        await fake.click(env.bot, env.bob, ix.last, picker["custom_id"], values=[picker["options"][0]["value"]])
    users = {int(env.alice["id"]): env.alice, int(env.bob["id"]): env.bob}
    rng = random.Random(4)
    edits_before = len(fake.calls("PATCH", r"/channels/\d+/messages/\d+"))
    for _ in range(14):
        rec = await env.match(match_id)
        acting = await env.host.to_act(match_id)
        if rec.status != "active" or not acting:
            break
        uid = rec.seats[acting[0]]
        legal = await env.host.legal(match_id, uid)
        await fake.slash(env.bot, users[uid], "move", command=rng.choice(legal), channel_id=rec.channel_id)
    assert noop == [], "a DM was edited to show exactly what it showed"
    assert len(fake.calls("PATCH", r"/channels/\d+/messages/\d+")) > edits_before   # the board still is
