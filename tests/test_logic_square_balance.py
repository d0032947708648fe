"""Battle Logic Square rules edition 3: the balance changes (docs/rules/logic_square.md, "Balance
(rules edition 3)") and their edition gating.  A stored match is rebuilt by replaying its commands
from ``new_match(..., edition=meta["edition"])`` (host/replay.py), so a match started under
edition 1 or 2 must keep exactly its old numbers and decks (edition 4, the current one, keeps
edition 3's numbers but these: test_logic_square_edition4.py).  Each
changed card has a test quoting the clause it applies."""
from __future__ import annotations

import json
import random

import pytest

from rules.logic_square.files import LOGIC_SQUARE_DIR, read_logic_square
from data.store import MatchRecord
from host.replay import _initial_state, start_edition
from rules import registry
from rules.logic_square.cards import CardDataError, CardSet

game = registry.get("logic_square")

# (AVI, ability index) -> (cost, damage or heal) in editions 1-2 and in edition 3
OLD = {("av01", 0): (2, 50), ("av02", 0): (1, 40), ("av02", 1): (2, 40), ("av03", 1): (3, 60)}
NEW = {("av01", 0): (2, 60), ("av02", 0): (2, 40), ("av02", 1): (2, 60), ("av03", 1): (2, 60)}
# AVI -> (awakening life, its modifier's amount)
OLD_AW = {"av01": (200, 20), "av02": (250, 20), "av03": (200, 1), "av04": (200, 1)}
NEW_AW = {"av01": (300, 20), "av02": (250, 10), "av03": (200, 1), "av04": (200, 1)}


def _numbers(cards: CardSet) -> dict:
    out = {}
    for (avi, i) in OLD:
        if avi in cards:
            ab = cards[avi].abilities[i]
            amount = ab.action.damage or next(e["amount"] for e in ab.action.effects if e["do"] == "heal")
            out[(avi, i)] = (ab.cost, amount)
    for avi in OLD_AW:
        if avi in cards:
            out[avi] = (cards[avi].awakening["life"], cards[avi].awakening["mods"][0]["amount"])
    return out


def _want(table: dict, cards: CardSet) -> dict:
    aw = OLD_AW if table is OLD else NEW_AW
    return {**{k: v for k, v in table.items() if k[0] in cards}, **{a: v for a, v in aw.items() if a in cards}}


def test_edition_3_follows_editions_1_and_2():
    """Edition 4 (test_logic_square_edition4.py) is the current one; edition 3 stays playable."""
    assert game.editions[:3] == (1, 2, 3)
    assert game.new_match(seed=1, edition=3).edition == 3
    assert start_edition(game) == {"edition": game.editions[-1]}


@pytest.mark.parametrize("decks", [["blitz", "aegis"], ["cipher", "fox"], ["aegis", "cipher"]])
def test_a_new_match_uses_the_new_numbers_and_an_old_edition_keeps_the_old(decks):
    new = game.new_match(seed=7, options={"decks": decks}, edition=3)
    assert _numbers(new.cards) == _want(NEW, new.cards)
    for ed in (1, 2):
        old = game.new_match(seed=7, options={"decks": decks}, edition=ed)
        assert _numbers(old.cards) == _want(OLD, old.cards)
        assert _numbers(game.load(game.dump(old)).cards) == _want(OLD, old.cards)
        assert old.hand == new.hand and old.deck == new.deck      # the same deal: only numbers differ


def test_the_ready_made_decks_are_the_same_in_editions_1_to_3():
    """Edition 4 changes two decks (test_logic_square_edition4.py)."""
    for ed in (2, 3):
        assert {d: deck.to_spec() for d, deck in game.cardset_at(ed).decks.items()} == \
            {d: deck.to_spec() for d, deck in game.cardset_at(1).decks.items()}


def test_the_shown_cards_and_decks_are_the_current_editions():
    cards = game.decks.cards()
    assert cards["av02"]["abilities"][0]["cost"] == 2
    assert "2AP" in cards["av02"]["abilities"][0]["text"]["ja"]
    assert "[2 AP]" in cards["av02"]["abilities"][0]["text"]["en"]


def test_a_stored_match_replays_with_its_own_editions_numbers():
    """host/replay.py rebuilds a match from its record: meta["edition"], or edition 1 when the
    record predates editions."""
    opts = {"decks": ["blitz", "aegis"]}
    for meta, want in (({"edition": 2}, OLD), ({}, OLD), ({"edition": 1}, OLD), ({"edition": 3}, NEW)):
        rec = MatchRecord(game="logic_square", seed=3, seats=[1, 2], names=["A", "B"], creator=1,
                          options=opts, meta=meta)
        state = _initial_state(game, rec)
        assert _numbers(state.cards) == _want(want, state.cards)


def test_the_ai_samples_a_match_under_its_own_edition():
    state = game.new_match(seed=5, options={"decks": ["aegis", "cipher"]}, edition=2)
    sample = game.determinize(game.view(state, 0), 0, random.Random(1))
    assert sample.edition == 2 and _numbers(sample.cards)[("av02", 0)] == (1, 40)
    assert sample.cards["av02"].awakening["mods"][0]["amount"] == 20
    new = game.new_match(seed=5, options={"decks": ["aegis", "cipher"]})
    assert _numbers(game.determinize(game.view(new, 0), 0, random.Random(1)).cards)[("av02", 0)] == (2, 40)


# ----------------------------------------------------------------- each changed card, its clause

def test_firewall_refresh_costs_2_ap():
    """Aegis Loop's Firewall Refresh: 2 AP (was 1). 6.II D 《AVI》カードの効果に記載されたAPを消費します
    (自分の残りのAPが効果に記載されたAPより少ない場合、使用できません): with 3 AP it is used once, not three
    times; under edition 2 three heals of 40 fitted in a turn."""
    new = game.position(avis=("av02", "av01"), life=(300, 500), ap=3)
    new = game.apply(new, 0, "avi 1")
    assert new.life[0] == 340 and new.ap == 1
    assert not [c for c in game.legal_commands(new, 0) if c.startswith("avi 1")]
    old = game.position(avis=("av02", "av01"), life=(300, 500), ap=3, edition=2)
    for _ in range(3):
        old = game.apply(old, 0, "avi 1") if old.ap else old
    assert old.life[0] == 420


def test_vector_lance_deals_60():
    """Blitz Vector's Vector Lance: hit damage 60 (was 50). 6.II B 相手の《AVI》カードにヒットダメージを
    与えた場合、その値だけ相手のライフポイントを減少させます。"""
    new = game.apply(game.position(avis=("av01", "av02"), pos=("c2", "c5")), 0, "avi 1")
    old = game.apply(game.position(avis=("av01", "av02"), pos=("c2", "c5"), edition=2), 0, "avi 1")
    assert new.life[1] == 440 and old.life[1] == 450 and new.ap == old.ap == 1


def test_moth_swarm_costs_2_ap():
    """Cipher Moth's Moth Swarm: 2 AP (was 3), hit damage 60 as before. 6.II D: the AP the ability
    names is spent; with the 2 AP of the first player's first turn it can now be used."""
    new = game.position(avis=("av03", "av01"), pos=("c2", "c5"), ap=2)
    assert "avi 2" in game.legal_commands(new, 0)
    new = game.apply(new, 0, "avi 2")
    assert new.life[1] == 440 and new.ap == 0
    old = game.position(avis=("av03", "av01"), pos=("c2", "c5"), ap=2, edition=2)
    assert "avi 2" not in game.legal_commands(old, 0)


def test_shield_bash_deals_60():
    """Aegis Loop's Shield Bash: hit damage 60 (was 40); the push is unchanged. 6.II B
    相手の《AVI》カードにヒットダメージを与えた場合、その値だけ相手のライフポイントを減少させます。"""
    for ed, want in ((3, 440), (2, 460)):
        state = game.apply(game.position(avis=("av02", "av01"), pos=("c2", "c3"), edition=ed), 0, "avi 2")
        assert state.life[1] == want


def test_aegis_awakening_takes_10_off_each_hit():
    """Aegis Loop's awakening: 10 less damage from each hit (was 20). 9. 自身の《AVI》カードのライフ
    ポイントが X 以下となった場合、効果が働きます: at 250 life a Pulse Jab (40) takes 30 now, 20 under
    edition 2."""
    for ed, want in ((3, 220), (2, 230)):
        state = game.position(avis=("av01", "av02"), hands={0: ["ac01"]}, pos=("c2", "c3"), life=(500, 250),
                              edition=ed)
        assert game.apply(state, 0, "use ac01").life[1] == want


def test_quantum_wall_takes_10_off_each_hit():
    """Quantum Wall (IT): 10 less damage from each hit while it stands (was 20). project ruling (docs/rules/logic_square.md): "A placed
    card occupies its square … and has durability"; its aura acts while it stands: a Pulse Jab (40)
    takes 30 off the AVI behind it now (its own 150 durability is hit too), 20 under edition 2."""
    for ed, want in ((3, 470), (2, 480)):
        state = game.position(avis=("av01", "av02"), hands={0: ["ac01"]}, pos=("c2", "c4"),
                              placed=[("b3", 1, "it02", 150)], edition=ed)
        assert game.apply(state, 0, "use ac01").life[1] == want


def test_blitz_awakening_at_300():
    """Blitz Vector's awakening: on at 300 life or less (was 200), +20 hit damage. 9. 自身の《AVI》
    カードのライフポイントが X 以下となった場合、効果が働きます。"""
    for ed, want in ((3, 440), (2, 460)):
        state = game.position(avis=("av01", "av03"), hands={0: ["ac01"]}, pos=("c2", "c4"), life=(300, 500),
                              edition=ed)
        assert game.apply(state, 0, "use ac01").life[1] == want


# ----------------------------------------------------------------------- the editions in the files

def _files() -> list[tuple[str, dict]]:
    return [(p.name, json.loads(p.read_text(encoding="utf-8"))) for p in sorted(LOGIC_SQUARE_DIR.glob("*.json"))]


def test_the_packaged_files_load_with_the_edition_3_patch():
    cs = read_logic_square(sorted(LOGIC_SQUARE_DIR.glob("*.json")))
    assert _numbers(cs) == _want(OLD, cs)               # the files themselves: editions 1 and 2
    assert _numbers(cs.at(3)) == _want(NEW, cs)
    assert cs.at(2) is cs and cs.at(1) is cs
    assert json.dumps(cs.at(3)["ac01"].raw, sort_keys=True) == json.dumps(cs["ac01"].raw, sort_keys=True)
    assert cs["it02"].action.aura[0]["amount"] == 20 and cs.at(3)["it02"].action.aura[0]["amount"] == 10


@pytest.mark.parametrize("patch, field", [
    ({"3": {"cards": {"zz99": {"damage": 10}}}}, "editions.3.cards.zz99"),
    ({"2": {"cards": {}}}, "editions.2"),
    ({"3": {"units": {}}}, "editions.3"),
    ({"3": {"decks": {"blitz": {"king": "x"}}}}, "editions.3.decks.blitz"),
    ({"3": {"cards": {"av02": {"abilities": {"5": {"cost": 2}}}}}}, "editions.3.cards.av02"),
])
def test_a_bad_patch_names_the_edition_and_the_card(patch, field):
    files = [(n, d) for n, d in _files() if "editions" not in d] + [("mine.json", {"editions": patch})]
    with pytest.raises(CardDataError) as info:
        CardSet.from_sources(files)
    assert field in str(info.value)


def test_a_patch_that_breaks_a_card_or_deck_is_refused():
    base = [(n, d) for n, d in _files() if "editions" not in d]
    bad_card = {"3": {"cards": {"av02": {"abilities": {"0": {"cost": 99}}}}}}
    bad_deck = {"3": {"decks": {"blitz": {"resources": {"ac01": 30}}}}}
    for patch in (bad_card, bad_deck):
        with pytest.raises(CardDataError):
            CardSet.from_sources(base + [("mine.json", {"editions": patch})])
