"""Avalon's Sanctuary rules editions 3, 4 and 5: the balance changes (docs/rules/avalon.md,
"Balance (rules edition 3)", "(rules edition 4)" and "(rules edition 5)"), their edition gating,
and the two-colour ready-made decks of issue 17.

A stored match is rebuilt by replaying its commands from ``new_match(..., edition=meta["edition"])``
(host/replay.py), so a match started under edition 1, 2, 3 or 4 keeps exactly the cards and decks
it had; a new match uses edition 5."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from ai import choose
from rules.avalon.files import AVALON_DIR, load_avalon, load_avalon_from
from data.store import MatchRecord
from host.replay import _initial_state, start_edition
from rules import registry
from rules.avalon.cards import CardDataError
from rules.avalon.decks import normalise

game = registry.get("avalon")
FILES = load_avalon()
PATCHES = json.loads((AVALON_DIR / "06_editions.json").read_text(encoding="utf-8"))["editions"]
PATCH, PATCH4, PATCH5 = PATCHES["3"], PATCHES["4"], PATCHES["5"]
TWO_COLOUR = ("sunfire", "mistwood")


def _attrs(spec: dict, cards: dict) -> set[str]:
    return {cards[c]["attr"] for c in spec["cards"] if cards[c]["category"] == "creature"} - {"none"}


def test_edition_5_is_the_current_edition():
    assert game.editions == (1, 2, 3, 4, 5)
    assert game.new_match(seed=1).edition == 5
    assert start_edition(game) == {"edition": 5}


def test_the_patches_change_numbers_only():
    """docs/balance.md: "Change card numbers, texts or decks to get there, keep the
    rulebook's mechanics": a patch never changes a card's category, attribute or originality
    (the deck rules and summoning read them), nor adds a mechanic no card had."""
    for patch in (PATCH, PATCH4):
        for cid, fields in patch["cards"].items():
            assert not {"category", "attr", "orig", "id", "name"} & set(fields), cid
    # edition 4 gives battle abilities (戦闘時, as Cinder Pup and Elderbark Keeper have) and target
    # cuts (配置中, as the yellow creatures have): kinds of ability the cards had already
    for cid, fields in PATCH4["cards"].items():
        assert set(fields) <= {"battle", "target_minus"}, cid


@pytest.mark.parametrize("edition", [1, 2])
def test_old_editions_keep_the_files_cards_and_decks(edition):
    cards, ready = game.files.at(edition)
    assert cards == FILES["cards"]
    assert {d: normalise(v["spec"]) for d, v in ready.items()} == \
        {d: normalise(v["spec"]) for d, v in FILES["decks"].items()}
    s = game.new_match(seed=4, options={"decks": ["dawn", "ember"]}, edition=edition)
    assert s.defs == FILES["cards"]
    assert s.players[0].deck == normalise(FILES["decks"]["dawn"]["spec"])


def test_edition_3_keeps_its_cards_and_decks():
    """A match started under edition 3 replays with edition 3's numbers and lists."""
    cards, ready = game.files.at(3)
    for cid, fields in PATCH["cards"].items():
        for k, v in fields.items():
            assert cards[cid].get(k) == v, (cid, k)
    for cid in PATCH4["cards"]:                             # none of edition 4's changes
        assert cards[cid] == FILES["cards"][cid] or cid in PATCH["cards"], cid
        assert "battle" not in cards[cid] or cid in ("c08", "c26"), cid
    for did, change in PATCH["decks"].items():
        assert ready[did]["spec"]["cards"] == normalise({"cards": change["cards"]})["cards"]
    s = game.new_match(seed=4, options={"decks": ["tide", "ember"]}, edition=3)
    assert s.defs == cards
    assert s.players[0].deck == normalise({"avatar": "a2", "cards": PATCH["decks"]["tide"]["cards"]})


def test_a_new_match_plays_edition_4s_cards_and_edition_5s_decks():
    s = game.new_match(seed=4, options={"decks": ["dawn", "ember"]})
    assert s.edition == 5
    for cid, fields in PATCH4["cards"].items():
        for k, v in fields.items():
            assert s.defs[cid].get(k) == v, (cid, k)
            assert game.card_defs[cid].get(k) == v          # what /deck and the card list show
    for did, change in {**PATCH4["decks"], **PATCH5["decks"]}.items():
        assert game.decks.ready()[did]["spec"]["cards"] == normalise({"cards": change["cards"]})["cards"]
    for cid, fields in PATCH["cards"].items():             # edition 3's numbers stay
        for k, v in fields.items():
            assert s.defs[cid].get(k) == v, (cid, k)
    assert s.players[0].deck == game.decks.ready()["dawn"]["spec"]
    # and it stays so through a dump and a load
    assert game.load(game.dump(s)).defs == s.defs


def test_edition_4_sunfire_plays_without_sanctuary_hymn():
    """docs/rules/avalon.md, Balance (rules edition 4): tide vs sunfire stayed below one half, so
    sunfire's Sanctuary Hymn (m09) went out for a third Lantern Squire (c02); edition 3 keeps both."""
    assert "m09" not in game.decks.ready()["sunfire"]["spec"]["cards"]
    assert game.decks.ready()["sunfire"]["spec"]["cards"]["c02"] == 3
    assert game.files.at(3)[1]["sunfire"]["spec"]["cards"]["m09"] == 1


def test_edition_5_dawn_plays_one_sanctuary_hymn_and_two_sidestep_cloaks():
    """docs/rules/avalon.md, Balance (rules edition 5): dawn beat ember 0.62 and lost to sunfire
    0.60, so dawn's second Sanctuary Hymn (m09, target −3 for the turn: early advances and proofs)
    went out for a second Sidestep Cloak (s09, a battle support granting evade); edition 5 changes
    nothing else, and edition 4 keeps dawn's list as it was."""
    now, before = game.decks.ready(), game.files.at(4)[1]
    assert (now["dawn"]["spec"]["cards"]["m09"], now["dawn"]["spec"]["cards"]["s09"]) == (1, 2)
    assert (before["dawn"]["spec"]["cards"]["m09"], before["dawn"]["spec"]["cards"]["s09"]) == (2, 1)
    changed = {c for c in {**now["dawn"]["spec"]["cards"], **before["dawn"]["spec"]["cards"]}
               if now["dawn"]["spec"]["cards"].get(c) != before["dawn"]["spec"]["cards"].get(c)}
    assert changed == {"m09", "s09"}
    assert set(PATCH5) - {"comment"} == {"decks"} and set(PATCH5["decks"]) == {"dawn"}
    assert game.files.at(5)[0] == game.files.at(4)[0]
    assert {d: v["spec"] for d, v in now.items() if d != "dawn"} == \
        {d: v["spec"] for d, v in before.items() if d != "dawn"}
    s = game.new_match(seed=4, options={"decks": ["dawn", "ember"]})
    assert s.players[0].deck == now["dawn"]["spec"]
    assert game.new_match(seed=4, options={"decks": ["dawn", "ember"]}, edition=4).players[0].deck == \
        before["dawn"]["spec"]


@pytest.mark.parametrize("edition,destroyed", [(3, [False, True]), (4, [True, False]), (5, [True, False])])
def test_edition_4_gives_the_defender_its_battle_bonus(edition, destroyed):
    """Edition 4: Lantern Squire 2/2 (c02) battles as the defender with +1 attack and +2
    durability (戦闘時, ability order 4), so Thicket Stalker 2/2 (c23) no longer destroys it and is
    destroyed by its strike back; under edition 3 the same battle goes the other way."""
    s = game.new_match(players=2, seed=3, options={"leader": 0, "decks": ["grove", "dawn"]}, edition=edition)
    s.players[0].lands[0] = [[["c29", ""], ["c29", ""]], "c23", 0]
    s.players[1].lands[0] = [[["c29", ""], ["c29", ""]], "c02", 0]
    for seat, cmd in ((0, "done"), (0, "ranged l1 p2l1"), (0, "support avatar"), (1, "support avatar")):
        s = game.apply(s, seat, cmd)
    assert s.last_battle["atk"] == ([2, 3] if edition >= 4 else [2, 2])
    assert s.last_battle["destroyed"] == destroyed


def test_a_stored_match_replays_with_its_own_editions_cards():
    """host/replay.py rebuilds a match from its record: meta["edition"], or edition 1 when the
    record predates editions."""
    opts = {"decks": ["dawn", "grove"]}
    for meta, want in (({"edition": 2}, FILES["cards"]), ({}, FILES["cards"]),
                       ({"edition": 3}, game.files.at(3)[0]), ({"edition": 4}, game.files.at(4)[0]),
                       ({"edition": 5}, game.files.at(5)[0])):
        rec = MatchRecord(game="avalon", seed=3, seats=[1, 2], names=["A", "B"], creator=1,
                          options=opts, meta=meta)
        assert _initial_state(game, rec).defs == want


@pytest.mark.parametrize("edition", [2, 3, 4, 5])
def test_the_ai_samples_a_match_under_its_own_edition(edition):
    state = game.new_match(seed=5, options={"decks": ["ember", "tide"]}, edition=edition)
    rng = random.Random(2)
    for _ in range(60):
        if game.outcome(state) is not None:
            break
        seat = game.to_act(state)[0]
        view = game.view(state, seat)
        sample = game.determinize(view, seat, rng)
        assert sample.edition == edition and sample.defs == state.defs
        assert game.view(sample, seat) == view
        state = game.apply(state, seat, choose("avalon", view, game.legal_commands(state, seat), seat,
                                               seed=rng.randrange(99)))


@pytest.mark.parametrize("edition", [1, 2, 3, 4, 5])
def test_every_ready_made_deck_is_legal_in_every_edition(edition):
    """「40枚のカードの山を創りましょう」 and the copy limits of デッキの組み方, with the edition's cards."""
    decks = game.decks_at(edition)
    for did, d in decks.ready().items():
        assert decks.validate(d["spec"]) == [], (edition, did)


@pytest.mark.parametrize("did", TWO_COLOUR)
def test_the_two_colour_decks_validate_and_have_two_colours(did):
    """Issue 17 / the project's content requirement: "Avalon's Sanctuary's ready-made decks are all one colour plus
    colourless (make two-colour decks too)"."""
    for edition in game.editions:
        cards, ready = game.files.at(edition)
        spec = ready[did]["spec"]
        assert game.decks_at(edition).validate(spec) == []
        assert len(_attrs(spec, cards)) == 2, (edition, did)
        # each colour has creatures to summon and mana to summon them with
        for attr in _attrs(spec, cards):
            assert sum(n for c, n in spec["cards"].items() if cards[c].get("attr") == attr) >= 10
    d = game.decks.ready()[did]
    assert d["name"]["en"] and d["name"]["ja"] and d["name"]["en"] != d["name"]["ja"]
    assert game.new_match(seed=1, options={"decks": [did, "dawn"]}).players[0].deck == d["spec"]


def test_each_ready_made_deck_has_its_own_avatar():
    """The AI samples an opponent's hidden cards from the ready-made deck its avatar names
    (determinize), so no two ready-made decks share an avatar."""
    avatars = [d["spec"]["avatar"] for d in game.decks.ready().values()]
    assert len(avatars) == len(set(avatars))


def test_a_bad_edition_patch_is_refused(tmp_path: Path):
    for name in ("01_creatures.json", "02_supports.json", "03_magic.json", "04_avatars.json", "05_decks.json"):
        (tmp_path / name).write_text((AVALON_DIR / name).read_text(encoding="utf-8"), encoding="utf-8")
    bad = [{"2": {"cards": {"c01": {"atk": 2}}}},                 # editions 1-2 are the files
           {"3": {"cards": {"zz9": {"atk": 2}}}},                 # unknown card
           {"3": {"cards": {"c01": {"category": "magic"}}}},      # not a number
           {"3": {"cards": {"c01": {"atk": -4}}}},                # out of range for a creature
           {"3": {"decks": {"dawn": {"cards": {"c01": 40}}}}}]    # an illegal deck
    for patch in bad:
        (tmp_path / "06_editions.json").write_text(json.dumps({"editions": patch}), encoding="utf-8")
        with pytest.raises(CardDataError):
            loaded = load_avalon_from(tmp_path)
            from rules.avalon import make_game
            make_game(loaded["cards"], loaded["decks"], loaded["editions"])


def test_the_balance_editions_keep_the_rulebooks_numbers():
    """Project ruling (docs/rules/avalon.md): "Modes exactly as the table (life, target mana, proofs)" — 「ノーマルモード 2～3人
    人数+2 12 2」, 「手札として6枚カードを引きます」: the balance edition changes cards and decks only,
    so a new match starts with the printed life, target mana, proofs and hand (no compensation for
    the seat that leads first: the rulebook has none, see docs/rules/avalon.md, Balance)."""
    for edition in game.editions:
        s = game.new_match(players=2, seed=9, edition=edition)
        assert (s.life0, s.target, s.proofs_needed) == (2 + 2, 12, 2)
        assert [len(p.hand) for p in s.players] == [6, 6]
        assert [len(p.life) for p in s.players] == [4, 4]
        s3 = game.new_match(players=3, seed=9, options={"mode": "veteran"}, edition=edition)
        assert (s3.life0, s3.target, s3.proofs_needed) == (3 + 1, 12, 2)


# --------------------------------------------------------------------------- the AI's evaluation

def _leader_with(hand: list[str]):
    s = game.new_match(players=2, seed=3, options={"leader": 0, "decks": ["dawn", "ember"]})
    s.players[0].hand = list(hand)
    return s


def _score(s) -> float:
    from ai.evaluate import evaluate
    return evaluate("avalon", game.view(s, None), 2)[0]


def _run(s, commands: list[str]):
    for c in commands:
        s = game.apply(s, 0, c)
    return s


def test_normal_values_a_creature_on_a_stack_over_loose_mana_and_discards():
    """「クリーチャーが召喚されていない、魔素だけの土地があった場合…エンドフェイズのタイミングですべて捨て山に
    送られます」 and 「自身を素成している魔素として素成したカードを、一番下からそれぞれ一枚ずつ捨て山に送ります」:
    a creature summoned on a stack keeps its mana through the end phase, loose mana is lost, so
    the evaluation (ai/eval_avalon.py) ranks stacking and summoning above loose forging, and that
    above throwing the cards away."""
    hand = ["c02", "c02", "c03"]
    stacked = _run(_leader_with(hand), ["forge c02 l1", "forge c02 l1", "summon c03 l1", "done"])
    loose = _run(_leader_with(hand), ["forge c02 l1", "forge c02 l2", "forge c03 l3", "done"])
    thrown = _run(_leader_with(hand), ["discard c02", "discard c02", "discard c03", "done"])
    assert _score(stacked) > _score(loose) > _score(thrown)


def test_normal_sees_the_likely_result_of_a_declared_battle():
    """A ranged battle waiting for its supports is scored as it will most likely end: attacking
    a creature that survives and strikes back is worse than attacking one that falls."""
    def battle(target: str):
        s = _leader_with([])
        s.players[0].lands[0] = [[["c02", ""], ["c02", ""]], "c09", 0]          # 2/2 first strike
        s.players[1].lands[0] = [[["c08", ""], ["c08", ""]], target, 0]
        return _run(s, ["done", "ranged l1 p2l1"])
    weak, strong = battle("c08"), battle("c10")          # Cinder Pup vs Magma Brute (4/3)
    assert weak.step == strong.step == "support"
    assert _score(weak) > _score(strong)
