"""Decks for every card game: the shared ``decks`` API (docs/engine.md), saved decks
(host.decks.DeckBook), choosing decks for a match, and the /deck commands in Discord."""
from __future__ import annotations

import json

import pytest

from data import i18n
from data.store import ACTIVE
from discord_fakes import message_text
from host import Host
from host.decks import DeckBook, deck_games
from rules import registry

GAMES = deck_games()
ALICE, BOB = 11, 22


def test_every_card_game_has_decks():
    assert set(GAMES) >= {"logic_square", "maken", "art_of_war", "avalon"} & set(registry.names())
    assert "squares" not in GAMES


@pytest.mark.parametrize("game", GAMES)
def test_ready_made_decks_are_legal_and_their_codes_round_trip(game):
    d = registry.get(game).decks
    ready = d.ready()
    assert ready, "a card game ships ready-made decks"
    for rid, entry in ready.items():
        assert entry["name"]["en"] and entry["name"]["ja"], rid
        assert d.validate(entry["spec"]) == [], (rid, d.validate(entry["spec"]))
        code = d.encode(entry["spec"])
        assert isinstance(code, str) and len(code) <= 1000
        assert d.validate(d.decode(code)) == []
        assert d.encode(d.decode(code)) == code


@pytest.mark.parametrize("game", GAMES)
def test_an_empty_deck_lists_its_broken_rules_in_both_languages(game):
    d = registry.get(game).decks
    problems = d.validate(d.empty())
    assert problems, "an empty deck is never legal"
    for p in problems:
        assert p["text"]
        assert i18n.has(p["key"]), p["key"]
        for loc in ("en", "ja"):
            text = i18n.t(p["key"], loc, **p.get("params", {}))
            assert "{" not in text, (p["key"], loc, text)


@pytest.mark.parametrize("game", GAMES)
def test_add_and_remove_return_new_specs_and_refuse_unknown_cards(game):
    d = registry.get(game).decks
    card = next(iter(d.cards()))
    empty = d.empty()
    before = json.dumps(empty, sort_keys=True)
    one = d.add(empty, card, 1)
    assert json.dumps(empty, sort_keys=True) == before, "add must not change its input"
    def count(spec):
        return sum(n for sec in d.describe(spec)["sections"] for cid, n in sec["cards"] if cid == card)

    assert count(one) == count(empty) + 1
    assert count(d.remove(one, card, 1)) == count(empty)
    with pytest.raises(ValueError):
        d.add(empty, "no-such-card-xyz", 1)
    with pytest.raises(ValueError):
        d.decode("!!not a deck code!!")


@pytest.mark.parametrize("game", GAMES)
def test_cards_have_names_in_both_languages(game):
    for cid, card in registry.get(game).decks.cards().items():
        assert card["name"]["en"] and card["name"]["ja"], cid


@pytest.mark.parametrize("game", GAMES)
def test_matches_take_decks_through_options_and_refuse_illegal_ones(game):
    g = registry.get(game)
    d = g.decks
    rids = list(d.ready())
    state = g.new_match(players=g.min_players, seed=3,
                        options={"decks": [rids[i % len(rids)] for i in range(g.min_players)]})
    assert g.to_act(state)
    with pytest.raises(ValueError):
        g.new_match(players=g.min_players, seed=3, options={"decks": [d.empty()] * g.min_players})


# ------------------------------------------------------------------ saved decks
@pytest.fixture
async def store(backend):
    """A store on a fresh database of each backend, SQLite and PostgreSQL (see conftest)."""
    return await backend.open()


GAME = "logic_square" if "logic_square" in GAMES else (GAMES[0] if GAMES else None)
needs_game = pytest.mark.skipif(GAME is None, reason="no card game registered")


@needs_game
async def test_a_deck_is_built_checked_shared_and_deleted(store):
    book = DeckBook(store)
    d = registry.get(GAME).decks
    rid = next(iter(d.ready()))
    res = await book.new(ALICE, GAME, "mine")
    assert res.ok and not res.data["legal"] and res.info[0].key == "deck.illegal"
    assert (await book.new(ALICE, GAME, "mine")).error.key == "deck.err.exists"
    res = await book.new(ALICE, GAME, "copy", copy_of=rid)
    assert res.ok and res.data["legal"] and res.info[0].key == "deck.legal"
    card = next(iter(d.cards()))
    res = await book.edit(ALICE, GAME, "mine", "add", card, 1)
    assert res.ok and res.data["describe"]["total"] == 1
    assert (await book.edit(ALICE, GAME, "mine", "add", "nope", 1)).error.key == "deck.err.unknown_card"
    assert (await book.edit(ALICE, GAME, "ghost", "add", card, 1)).error.key == "deck.err.no_such_deck"
    code = (await book.export(ALICE, GAME, "copy")).data["code"]
    res = await book.import_code(BOB, GAME, "shared", code)
    assert res.ok and res.data["legal"] and res.data["spec"] == d.decode(code)
    assert (await book.import_code(BOB, GAME, "bad", "garbage!!")).error.key == "deck.err.bad_code"
    names = [r["name"] for r in (await book.list(ALICE, GAME)).data["decks"] if not r.get("ready")]
    assert names == ["copy", "mine"]
    assert (await book.delete(ALICE, GAME, "mine")).ok
    assert (await book.delete(ALICE, GAME, "mine")).error.key == "deck.err.no_such_deck"
    assert (await book.new(ALICE, "squares", "x")).error.key == "deck.err.no_decks"
    assert (await book.new(ALICE, GAME, "")).error.key == "deck.err.bad_name"


async def test_deck_code_and_edit_errors_speak_the_readers_language(store):
    """The issue's bad input: "A deck that breaks a rule … a clear localized message, nothing
    changes" — a game's keyed deck errors reach /deck in the reader's language."""
    book = DeckBook(store)
    ls = registry.get("logic_square").decks
    code = ls.encode(ls.ready()["blitz"]["spec"])
    bad = await book.import_code(ALICE, "logic_square", "typo", code[:-1] + ("0" if code[-1] != "0" else "1"))
    assert bad.error.key == "deck.err.bad_code"
    assert "check digits" in bad.error.render("en") and "チェック用の文字" in bad.error.render("ja")
    assert (await book.list(ALICE, "logic_square")).data["decks"][0].get("ready")   # nothing saved
    await book.new(ALICE, "logic_square", "mine")
    res = await book.edit(ALICE, "logic_square", "mine", "remove", "ac01", 1)
    assert res.error.key == "deck.err.edit"
    assert "not in this deck" in res.error.render("en") and "入っていない" in res.error.render("ja")
    res = await book.edit(ALICE, "logic_square", "mine", "add", "av01", 2)
    assert "exactly 1 AVI" in res.error.render("en") and "1枚だけ" in res.error.render("ja")
    assert (await book.show(ALICE, "logic_square", "mine")).data["spec"] == ls.empty()
    # a game whose errors carry no catalog key still shows its own text
    from host.decks import error_detail
    assert error_detail(ValueError("plain words")) == "plain words"


@needs_game
async def test_only_legal_decks_can_be_played(store):
    book = DeckBook(store)
    d = registry.get(GAME).decks
    rid = next(iter(d.ready()))
    await book.new(ALICE, GAME, "empty")
    deck, err = await book.for_play(ALICE, GAME, "empty")
    assert deck is None and err.error.key == "deck.err.illegal_for_play" and err.info
    assert (await book.for_play(ALICE, GAME, rid)) == (rid, None)
    code = d.encode(d.ready()[rid]["spec"])
    deck, err = await book.for_play(ALICE, GAME, code)
    assert err is None and d.validate(deck) == []
    deck, err = await book.for_play(ALICE, GAME, "who-knows")
    assert err.error.key == "deck.err.no_such_deck"


@needs_game
async def test_each_player_brings_their_own_deck_to_the_match(store):
    host = Host(store, render=False)
    d = registry.get(GAME).decks
    rids = list(d.ready())
    mine = d.ready()[rids[-1]]["spec"]
    res = await host.challenge(GAME, ALICE, "Alice", opponents=[(BOB, "Bob")], deck=mine)
    assert res.ok
    res = await host.accept(res.match.id, BOB, deck=rids[0])
    assert res.ok and res.match.status == ACTIVE
    assert res.match.options["decks"] == [mine, rids[0]]
    # no choice at all: each seat gets the ready-made deck for its seat
    res = await host.challenge(GAME, ALICE, "Alice", opponents=[(BOB, "Bob")], deck=rids[0])
    res = await host.accept(res.match.id, BOB)
    assert res.match.options["decks"] == [rids[0], rids[1 % len(rids)]]


# ------------------------------------------------------------------ Discord


@needs_game
async def test_deck_commands_in_discord(env):
    d = registry.get(GAME).decks
    rid = next(iter(d.ready()))
    ix = await env.fake.slash(env.bot, env.alice, "deck new", game=GAME, name="mine", copy=rid)
    assert ix.ephemeral and "is legal" in message_text(ix.last)
    ix = await env.fake.slash(env.bot, env.alice, "deck export", game=GAME, name="mine")
    code = d.encode(d.ready()[rid]["spec"])
    assert code in ix.text
    ix = await env.fake.slash(env.bot, env.bob, "deck import", game=GAME, name="from alice", code=code)
    assert "is legal" in message_text(ix.last)
    ix = await env.fake.slash(env.bot, env.bob, "deck new", game=GAME, name="empty")
    assert "breaks" in message_text(ix.last)
    # /deck validate lists every broken rule at once, in the reader's language
    for locale, loc in (("en-US", "en"), ("ja", "ja")):
        ix = await env.fake.slash(env.bot, env.bob, "deck validate", game=GAME, name="empty", locale=locale)
        text = message_text(ix.last)
        problems = d.validate(d.empty())
        assert len(problems) >= 2 and text.count("•") == len(problems)
        for p in problems:
            assert i18n.t(p["key"], loc, **p.get("params", {})) in text
    ix = await env.fake.slash(env.bot, env.bob, "deck list", game=GAME)
    assert "from alice" in ix.text and "empty" in ix.text
    choices = await env.fake.autocomplete(env.bot, env.bob, "deck edit", "card", game=GAME, name="empty",
                                          action="add", card="")
    assert 0 < len(choices) <= 25
    ix = await env.fake.slash(env.bot, env.bob, "deck edit", game=GAME, name="empty", action="add",
                              card=choices[0]["value"])
    assert "×1" in message_text(ix.last)
    ix = await env.fake.slash(env.bot, env.bob, "deck delete", game=GAME, name="empty")
    assert "Deleted" in ix.text
    ix = await env.fake.slash(env.bot, env.bob, "deck show", game=GAME, name="empty", locale="ja")
    assert "デッキはありません" in ix.text


@needs_game
async def test_play_with_a_saved_deck_and_accept_by_picking_one(env):
    d = registry.get(GAME).decks
    rids = list(d.ready())
    await env.fake.slash(env.bot, env.alice, "deck new", game=GAME, name="mine", copy=rids[-1])
    choices = await env.fake.autocomplete(env.bot, env.alice, "play", "deck", game=GAME, deck="")
    assert "mine" in [c["value"] for c in choices]
    await env.fake.slash(env.bot, env.alice, "play", game=GAME, opponent=env.bob, deck="mine")
    board = env.fake.posts()[-1]
    match_id = (await env.store.matches_for_user(int(env.alice["id"])))[0].id
    ix = await env.fake.click(env.bot, env.bob, board, f"m:{match_id}:accept")
    assert ix.ephemeral
    select = next(c for row in ix.last["components"] for c in row["components"] if ":deck:" in c["custom_id"])
    # a value says which kind of deck it is (r: ready-made, u: saved), so none repeats
    assert f"r:{rids[0]}" in [o["value"] for o in select["options"]]
    ix = await env.fake.click(env.bot, env.bob, ix.last, select["custom_id"], values=[f"r:{rids[0]}"])
    rec = await env.match(match_id)
    assert rec.status == ACTIVE and rec.options["decks"] == [d.ready()[rids[-1]]["spec"], rids[0]]


@needs_game
async def test_playing_an_illegal_deck_is_refused_with_every_broken_rule(env):
    await env.fake.slash(env.bot, env.alice, "deck new", game=GAME, name="empty")
    ix = await env.fake.slash(env.bot, env.alice, "play", game=GAME, opponent=env.bob, deck="empty")
    assert ix.ephemeral and "cannot be played" in ix.text and "•" in ix.text
    assert await env.store.matches_for_user(int(env.alice["id"])) == []


@needs_game
def test_the_local_console_takes_a_deck_per_seat(tmp_path):
    import io

    from host.console import main as console_main

    d = registry.get(GAME).decks
    rids = list(d.ready())
    code = d.encode(d.ready()[rids[-1]]["spec"])
    out = io.StringIO()
    rc = console_main(["--hot-seat", "--game", GAME, "--no-pictures", "--deck", f"1={rids[0]}", "--deck", f"2={code}"],
                      stdin=io.StringIO("help\nquit\n"), stdout=out)
    assert rc == 0 and "Legal commands" in out.getvalue()
    out = io.StringIO()
    rc = console_main(["--game", GAME, "--no-pictures", "--deck", "3=x"], stdin=io.StringIO(""), stdout=out)
    assert rc == 2 and "--deck takes SEAT=DECK" in out.getvalue()
    out = io.StringIO()
    rc = console_main(["--game", GAME, "--no-pictures", "--deck", "1=nonsense"], stdin=io.StringIO(""), stdout=out)
    assert rc == 2 and "no deck called" in out.getvalue()
