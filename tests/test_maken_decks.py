"""Project Maken decks and card data: the ``game.decks`` API (docs/engine.md) and the ruling
"one character card plus 30 cards from that character's own pool, at most 3 copies of a name;
support cards count toward the 30" (project ruling, docs/rules/maken.md)."""
from __future__ import annotations

import json

import pytest

from data import i18n
from rules.maken.files import MAKEN_DIR, load_maken, read_maken
from rules import registry
from rules.maken.cards import CardDataError, CardSet

game = registry.get("maken")
decks = game.decks


def test_ready_made_decks_are_legal_and_there_are_at_least_two_characters():
    cs = load_maken()
    assert len(cs.characters) >= 2
    ready = decks.ready()
    assert len(ready) >= 2
    for did, deck in ready.items():
        assert decks.validate(deck["spec"]) == [], did
        assert decks.describe(deck["spec"])["total"] == 30


def test_every_pool_covers_the_mechanics():
    """The project's content requirement: 12–16 cards per pool covering speed/reach/front-back reach, postures, each
    unguardable kind, gauge cost and gain, GC-only and GC-able, hit effects, each destination icon
    and support cards."""
    cs = load_maken()
    for ch in cs.characters:
        pool = [cs.cards[c] for c in cs.pool(ch)]
        assert 12 <= len(pool) <= 16, ch
        attacks = [c for c in pool if c["kind"] == "attack"]
        assert any(c["front"] != c["back"] for c in attacks)
        assert {c["posture"] for c in attacks} == {"stand", "crouch", "air"}
        kinds = {tuple(c["unguardable"]) for c in attacks}
        assert {("stand",), ("crouch",), ("air",), ("stand", "crouch")} <= kinds
        assert any(c["cost"] for c in attacks) and any(c["gain"] for c in attacks)
        assert {c["gc"] for c in attacks} >= {"only", "able"}
        assert any(c["hit"] for c in attacks)
        assert {c["icon"] for c in pool} == {"dust", "gauge", "hand", "stamina"}
        assert any(c["kind"] == "support" for c in pool)
        assert len({c["speed"] for c in attacks}) >= 3


def test_validate_lists_every_broken_rule():
    spec = {"character": "gou", "cards": {"gu01": 5, "ts01": 1, "zz99": 1, "tsubaki": 1}}
    keys = sorted(p["key"] for p in decks.validate(spec))
    assert keys == sorted(["maken.deck.count", "maken.deck.copies", "maken.deck.other_pool",
                           "maken.deck.unknown_card", "maken.deck.character_in_cards"])
    assert [p["key"] for p in decks.validate(decks.empty())] == ["maken.deck.no_character", "maken.deck.count"]
    for p in decks.validate(spec):
        assert i18n.t(p["key"], "en", **p["params"]) == p["text"]
        assert i18n.placeholders(i18n.catalog("ja")[p["key"]]) <= set(p["params"])


def test_add_remove_and_codes_round_trip():
    spec = decks.empty()
    spec = decks.add(spec, "tsubaki")
    spec2 = decks.add(spec, "ts01", 3)
    assert spec == {"character": "tsubaki", "cards": {}}              # the old spec is unchanged
    assert spec2["cards"] == {"ts01": 3}
    spec3 = decks.remove(spec2, "ts01")
    assert spec3["cards"] == {"ts01": 2}
    with pytest.raises(ValueError):
        decks.add(spec, "nope")
    with pytest.raises(ValueError):
        decks.remove(spec, "ts02")
    for deck in decks.ready().values():
        code = decks.encode(deck["spec"])
        assert decks.decode(code) == deck["spec"]
    with pytest.raises(ValueError):
        decks.decode("mk1-gou-3gu01-0000")
    with pytest.raises(ValueError):
        decks.decode("hello")


def test_a_deck_code_plays():
    code = decks.encode(decks.ready()["gou_basic"]["spec"])
    state = game.new_match(2, 5, {"decks": [code, "tsubaki_basic"]})
    assert state.d["chars"] == ["gou", "tsubaki"]


def test_cards_api_is_json_and_names_both_languages():
    cards = decks.cards()
    json.dumps(cards)
    for _cid, c in cards.items():
        assert set(c["name"]) == {"en", "ja"} and set(c["text"]) == {"en", "ja"}
        assert c["category"] in ("character", "attack", "support")


def test_card_errors_name_the_file_the_card_and_the_field():
    data = json.loads((MAKEN_DIR / "01_tsubaki.json").read_text(encoding="utf-8"))
    data["cards"][2]["posture"] = "flying"
    with pytest.raises(CardDataError) as err:
        CardSet.from_sources([("x.json", data)])
    assert err.value.file == "x.json" and err.value.card == "ts03" and err.value.field == "posture"
    assert read_maken(sorted(MAKEN_DIR.glob("*.json"))).decks.keys() == load_maken().decks.keys()


def test_a_match_copies_its_card_definitions():
    """docs/engine.md: the definitions of the cards in play are copied into the match state."""
    state = game.new_match(2, 1, {})
    text = game.dump(state)
    assert '"ts01"' in text and '"speed"' in text
    assert game.load(text) == state


def test_catalog_matches_the_engine_messages_in_both_languages():
    """Every user-facing string is in data/i18n/{en,ja}/maken.json with the same placeholders."""
    from pathlib import Path

    from rules.maken.messages import EN

    root = Path(i18n.__file__).resolve().parent
    en = json.loads((root / "en" / "maken.json").read_text(encoding="utf-8"))
    ja = json.loads((root / "ja" / "maken.json").read_text(encoding="utf-8"))
    assert en == EN
    singular = {k for k in en if k.endswith(".one") and k[:-4] in en}     # English only: ja has no plural
    assert set(ja) == set(en) - singular
    for key in set(en) - singular:
        assert i18n.placeholders(en[key]) == i18n.placeholders(ja[key]), key
    for kind in ("clean_hit", "trade", "guard_holds", "guard_break", "guard_cancel"):
        assert f"maken.judge.{kind}" in en
    # the engine's English picks the singular as the front end does (rules.en_text)
    from rules import en_text
    assert en_text(EN, "maken.deck.count", {"count": 1, "size": 30}) == i18n.t("maken.deck.count", "en", count=1, size=30)
    assert "has 1 card;" in en_text(EN, "maken.deck.count", {"count": 1, "size": 30})


# ------------------------------------------------------------------ /deck in Discord
@pytest.fixture
async def env(tmp_path):
    from discord_fakes import make_env

    e = await make_env(tmp_path)
    yield e
    await e.close()


async def test_a_deck_is_built_card_by_card_with_the_deck_commands_and_played(env):
    """Project ruling (docs/rules/maken.md): one character card plus 30 cards from that character's own pool, at most 3
    copies of a name; support cards count toward the 30 — built through /deck new and /deck edit."""
    from data.store import ACTIVE
    from discord_fakes import message_text

    slash = env.fake.slash
    ix = await slash(env.bot, env.alice, "deck new", game="maken", name="storm")
    assert "breaks" in message_text(ix.last)
    await slash(env.bot, env.alice, "deck edit", game="maken", name="storm", action="add", card="kotetsu")
    pool = sorted(c for c, v in decks.cards().items() if v.get("character") == "kotetsu")
    chosen = pool[4:]
    assert len(chosen) == 10 and any(decks.cards()[c]["category"] == "support" for c in chosen)
    for cid in chosen:                                       # 10 names × 3 = 30, supports included
        ix = await slash(env.bot, env.alice, "deck edit", game="maken", name="storm", action="add",
                         card=cid, count=3)
    assert "is legal" in message_text(ix.last)
    ix = await slash(env.bot, env.alice, "deck edit", game="maken", name="storm", action="add", card=chosen[0])
    text = message_text(ix.last)
    assert "at most 3 copies" in text and "needs exactly 30" in text
    await slash(env.bot, env.alice, "deck edit", game="maken", name="storm", action="remove", card=chosen[0])
    ix = await slash(env.bot, env.alice, "deck edit", game="maken", name="storm", action="add", card="ts01")
    assert "only its character's pool" in message_text(ix.last)
    ix = await slash(env.bot, env.alice, "play", game="maken", opponent=env.bob, deck="storm")
    assert "cannot be played" in ix.text
    await slash(env.bot, env.alice, "deck edit", game="maken", name="storm", action="remove", card="ts01")
    await slash(env.bot, env.alice, "play", game="maken", opponent=env.bob, deck="storm")
    match_id = (await env.store.matches_for_user(int(env.alice["id"])))[0].id
    board = env.fake.posts()[-1]
    ix = await env.fake.click(env.bot, env.bob, board, f"m:{match_id}:accept")
    select = next(c for row in ix.last["components"] for c in row["components"] if ":deck:" in c["custom_id"])
    await env.fake.click(env.bot, env.bob, ix.last, select["custom_id"], values=["gou_basic"])
    rec = await env.match(match_id)
    assert rec.status == ACTIVE and rec.options["decks"][0]["character"] == "kotetsu"
    assert sum(rec.options["decks"][0]["cards"].values()) == 30


def test_cards_doc_examples_are_real_cards():
    """docs/cards.md (Project Maken): the attack and support card examples load and are the
    packaged ts07 and ts13 exactly; every field of the format is documented."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    section = (root / "docs" / "cards.md").read_text(encoding="utf-8").split("## Project Maken", 1)[1]
    blocks, current = [], []
    for line in section.split("\n") + [""]:
        if line.startswith("    "):
            current.append(line[4:])
        elif current and line.strip() == "":
            blocks.append("\n".join(current))
            current = []
    examples = [json.loads(b) for b in blocks if '"kind"' in b]
    cs = load_maken()
    got = CardSet.from_sources([("doc", {"characters": [{"id": "tsubaki", "name": {"en": "T", "ja": "T"},
                                                         "text": {"en": "t", "ja": "t"}}],
                                         "cards": examples})])
    assert got.cards == {"ts07": cs.cards["ts07"], "ts13": cs.cards["ts13"]}
    for field in ("speed", "reach", "attack", "guard", "posture", "unguardable", "cost", "gain", "gc",
                  "bet", "hit", "icon", "timing", "effect", "draw_limit", "if_gauge", "recover", "power"):
        assert f"`{field}`" in section or f'"{field}"' in section, field
