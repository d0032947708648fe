"""Nothing private in public text (issue 13, "Trust").

For every card game and every way of bringing a deck — a ready-made deck id, a saved deck of
one's own, a deck code — on either seat, a match is started and played a little through the
real cogs (fake Discord HTTP), and then EVERY public message the bot sent is read, each
version of it (posts, edits, thread names; not DMs, not ephemeral replies).  None may hold:

* a card id of that seat's deck that the public view never showed (its face-down IT deck,
  the cards still in its deck…),
* the raw option dump (``decks=[{'avi': …}]``, the deck code, a saved deck's name), or a
  ready-made deck's raw id (it is named by its display name).

And the options line reads as a player reads it: "name: value", a deck by its display name
or "own deck" (:func:`host.options_text.public_options`).
"""
from __future__ import annotations

import copy
import json
import random
import re
from typing import Any

import pytest

from data.store import ACTIVE
from discord_fakes import message_text
from host.decks import deck_games
from rules import registry

GAMES = deck_games()
KINDS = ("ready", "saved", "code")
SAVED_NAME = "zzsecretdeck"
COMMANDS = 8
NAMING_KEYS = ("cards", "kings", "units")   # tables that only name things


def _word(token: str) -> re.Pattern:
    return re.compile(r"(?<![A-Za-z0-9_])" + re.escape(token) + r"(?![A-Za-z0-9_])")


def spec_ids(game: str, spec: Any) -> set[str]:
    """Every card id a deck spec names (keys and values, nested)."""
    cards = registry.get(game).decks.cards()
    out: set[str] = set()

    def walk(x: Any) -> None:
        if isinstance(x, dict):
            for k, v in x.items():
                walk(k)
                walk(v)
        elif isinstance(x, (list, tuple)):
            for v in x:
                walk(v)
        elif isinstance(x, str) and x in cards:
            out.add(x)

    walk(spec)
    return out


def deck_spec(game: str, deck: Any) -> Any:
    d = registry.get(game).decks
    return d.ready()[deck]["spec"] if isinstance(deck, str) else deck


def shown_text(m: dict) -> str:
    """What a reader sees of a message: content, embeds, and the labels of its components."""
    parts = [message_text(m)]
    for row in m.get("components") or []:
        for c in row.get("components") or []:
            parts += [c.get("label") or "", c.get("placeholder") or ""]
            for o in c.get("options") or []:
                parts += [o.get("label") or "", o.get("description") or ""]
    return "\n".join(p for p in parts if p)


def record_messages(fake: Any) -> list[dict]:
    """Snapshot every version of every message the fake Discord holds, as it changes."""
    snaps: list[dict] = []
    make, edit = fake._message, fake._edit

    def _message(*a: Any, **k: Any) -> dict:
        m = make(*a, **k)
        snaps.append(copy.deepcopy(fake.public(m)))
        return m

    def _edit(*a: Any, **k: Any) -> dict:
        m = edit(*a, **k)
        snaps.append(copy.deepcopy(fake.public(m)))
        return m

    fake._message, fake._edit = _message, _edit
    return snaps


def public_texts(fake: Any, snaps: list[dict]) -> list[str]:
    out = []
    for m in snaps:
        if fake.channels.get(int(m["channel_id"]), {}).get("type") == 1:
            continue            # a DM: private by design
        if int(m.get("flags") or 0) & 64:
            continue            # ephemeral: only its reader sees it
        out.append(shown_text(m))
    for r in fake.requests:    # thread names are public too
        if r.method == "POST" and r.path.endswith("/threads") and isinstance(r.json, dict):
            out.append(str(r.json.get("name") or ""))
    return out


async def _start(env: Any, game: str, kind: str, seat: int) -> tuple[int, Any, str | None]:
    """Alice (seat 0) challenges Bob (seat 1); the player on ``seat`` brings a deck of
    ``kind``, the other one a default ready-made deck.  Returns (match id, the secret deck
    as options hold it, its deck code or None)."""
    g = registry.get(game)
    d = g.decks
    rids = list(d.ready())
    defaults = list(g.option_schema()["decks"]["default"])
    secret_rid = next(r for r in reversed(rids) if r not in defaults)
    spec = d.ready()[secret_rid]["spec"]
    code = d.encode(spec)
    chooser = env.alice if seat == 0 else env.bob
    if kind == "ready":
        choice, secret = secret_rid, secret_rid
    elif kind == "saved":
        ix = await env.fake.slash(env.bot, chooser, "deck import", game=game, name=SAVED_NAME, code=code)
        assert ix.ephemeral, ix.text
        choice, secret = SAVED_NAME, spec
    else:
        choice, secret = code, spec
    kw = {"deck": choice} if seat == 0 else {}
    ix = await env.play(env.alice, game=game, opponent=env.bob, **kw)
    assert ix.ephemeral and "#" in ix.text, ix.text
    match_id = max(m.id for m in await env.store.matches_for_user(int(env.alice["id"])))
    board = await env.board(match_id)
    ix = await env.fake.click(env.bot, env.bob, board, f"m:{match_id}:accept")
    picker = next(c for row in ix.last["components"] for c in row["components"] if ":deck:" in c["custom_id"])
    # the menu's value goes to DeckBook.for_play, which also takes a deck code
    await env.fake.click(env.bot, env.bob, ix.last, picker["custom_id"],
                         values=[choice if seat == 1 else defaults[1]])
    rec = await env.match(match_id)
    assert rec.status == ACTIVE, rec.status
    assert rec.options["decks"][seat] == secret
    return match_id, secret, code if kind != "ready" else None


def _public_view_text(game: Any, state: Any) -> str:
    view = game.view(state, None)
    return json.dumps({k: v for k, v in view.items() if k not in NAMING_KEYS}, ensure_ascii=False)


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("game", GAMES)
async def test_public_messages_never_show_a_decks_contents(env, game, kind, seat):
    snaps = record_messages(env.fake)
    match_id, secret, code = await _start(env, game, kind, seat)
    g = registry.get(game)
    rng = random.Random(f"{game}-{kind}-{seat}")
    users = {int(env.alice["id"]): env.alice, int(env.bob["id"]): env.bob}
    seen_public: list[str] = []
    for _ in range(COMMANDS):
        rec = await env.match(match_id)
        seen_public.append(_public_view_text(g, await env.host._state(rec)))
        if rec.status != ACTIVE:
            break
        acting = await env.host.to_act(match_id)
        uid = rec.seats[acting[0]]
        legal = await env.host.legal(match_id, uid)
        await env.fake.slash(env.bot, users[uid], "move", command=rng.choice(legal), channel_id=rec.channel_id)
    rec = await env.match(match_id)
    seen_public.append(_public_view_text(g, await env.host._state(rec)))
    await env.fake.slash(env.bot, env.carol, "match status", match=match_id)

    texts = public_texts(env.fake, snaps)
    assert texts, "the match posted nothing public"
    everything = "\n".join(texts)

    # 1. card ids of the seat's deck that were never public in the view
    other = deck_spec(game, rec.options["decks"][1 - seat])
    public_now = "\n".join(seen_public)
    hidden = {cid for cid in spec_ids(game, deck_spec(game, secret)) - spec_ids(game, other)
              if not _word(cid).search(public_now)}
    if game != "art_of_war":   # its cards are five public unit kinds: the counts are the secret
        assert hidden, "pick a deck with cards the public view does not show"
    leaked = sorted(cid for cid in hidden if _word(cid).search(everything))
    assert not leaked, f"hidden card ids of seat {seat} in public text: {leaked}\n{everything[:3000]}"

    # 2. the raw option dump, the deck code, a saved deck's name, raw ready-made deck ids
    assert "decks=" not in everything, everything[:3000]
    spec = deck_spec(game, secret)
    for key in (spec if isinstance(spec, dict) else {}):
        for quoted in (f"'{key}'", f'"{key}"'):
            assert quoted not in everything, (quoted, everything[:3000])
    if code:
        assert code not in everything
    assert SAVED_NAME not in everything
    for rid in registry.get(game).decks.ready():
        assert not _word(rid).search(everything), (rid, everything[:3000])

    # 3. the deck is named as a player reads it
    from data import i18n

    if kind == "ready":
        name = registry.get(game).decks.ready()[secret]["name"]["en"]
        assert name in everything
    else:
        assert i18n.t("options.own_deck", "en") in everything


@pytest.mark.parametrize("game", GAMES)
def test_public_options_text(game):
    """Each option as "name: value" in the reader's language; decks by display name or "own deck"."""
    from data import i18n
    from host.options_text import public_options

    g = registry.get(game)
    d = g.decks
    rids = list(d.ready())
    spec = d.ready()[rids[-1]]["spec"]
    options = {"decks": [rids[0], spec]}
    for locale in ("en", "ja"):
        text = public_options(g, options, ["Alice", "Bob"], locale)
        lines = text.splitlines()
        assert len(lines) == 2, text
        assert "Alice" in lines[0] and d.ready()[rids[0]]["name"][locale] in lines[0]
        assert "Bob" in lines[1] and i18n.t("options.own_deck", locale) in lines[1]
        assert rids[0] not in text and "{" not in text and "[" not in text
        for cid in spec_ids(game, spec):
            assert not _word(cid).search(text), cid
    # a seat that has not chosen yet is left out; no options at all: nothing
    assert public_options(g, {"decks": [rids[0], None]}, ["Alice", ""], "en").count("\n") == 0
    assert public_options(g, {}, ["Alice", "Bob"], "en") == ""


def test_public_options_name_each_changed_option():
    from host.options_text import public_options

    sq = registry.get("squares")
    assert public_options(sq, {"first": 1, "max_turns": 200}, ["Alice", "Bob"], "en") == "First player: Bob"
    assert public_options(sq, {"max_turns": 50}, ["Alice", "Bob"], "ja") == "手番数の上限：50"
    if "avalon" in registry:
        av = registry.get("avalon")
        text = public_options(av, {"mode": "expert", "leader": None}, ["A", "B", "C"], "en")
        assert text == "Mode: Expert", text
        assert public_options(av, {"leader": 1, "max_rounds": 60}, ["A", "B"], "ja") == "最初のリーダー：B"
    if "logic_square" in registry:
        ls = registry.get("logic_square")
        assert public_options(ls, {"awakening": False}, ["A", "B"], "en") == "Awakening: off"
        assert public_options(ls, {"awakening": False}, ["A", "B"], "ja") == "覚醒：なし"
