"""Art of War rules edition 3: the balance changes (docs/rules/art_of_war.md, "Balance (rules
edition 3)") and their edition gating.  A stored match is rebuilt by replaying its commands from
``new_match(..., edition=meta["edition"])`` (host/replay.py), so a match started under edition 1 or
2 must keep exactly its old numbers and decks; a new match uses edition 3.  Each changed card has a
test quoting the clause it changes."""
from __future__ import annotations

import json
import random

import pytest

from ai import choose
from ai.evaluate import evaluate
from rules.art_of_war.files import ART_OF_WAR_DIR, read_art_of_war
from data.store import MatchRecord
from host.replay import _initial_state, start_edition
from rules.art_of_war.cards import CardDataError, build_cardset
from rules import registry

game = registry.get("art_of_war")

OLD = {"king_iron": [4, 3], "king_falcon": [3, 1], "king_sage": [2, 2]}      # editions 1–2
NEW = {"king_iron": [3, 3], "king_falcon": [3, 2], "king_sage": [3, 2]}      # edition 3


def _kings(state) -> dict:
    return {k["id"]: k["defence"] for k in state.cards["kings"]}


def test_edition_3_is_the_current_edition():
    assert game.editions == (1, 2, 3)
    assert game.new_match(seed=1).edition == 3
    assert start_edition(game) == {"edition": 3}


@pytest.mark.parametrize("decks", [["iron_wall", "falcon_raid"], ["sage_court", "iron_wall"],
                                   ["falcon_raid", "sage_court"]])
def test_a_new_match_uses_the_new_numbers_and_an_old_edition_keeps_the_old(decks):
    new = game.new_match(seed=7, options={"decks": decks})
    assert _kings(new) == {k: NEW[k] for k in _kings(new)}
    for ed in (1, 2):
        old = game.new_match(seed=7, options={"decks": decks}, edition=ed)
        assert _kings(old) == {k: OLD[k] for k in _kings(old)}
        # the same deal: only the card numbers differ
        assert old.hands == new.hands and old.decks == new.decks
        # and it stays so through a dump and a load
        assert _kings(game.load(game.dump(old))) == _kings(old)


def test_the_basic_units_and_ready_made_decks_are_the_same_in_every_edition():
    for ed in (1, 2, 3):
        cs = game.cardset_at(ed)
        assert cs.units == game.cardset_at(3).units
        assert {d: v["spec"] for d, v in cs.decks.items()} == \
            {d: v["spec"] for d, v in game.cardset.decks.items()}


def test_the_shown_cards_are_the_current_editions():
    cards = game.decks.cards()
    assert {k: cards[k]["defence"] for k in NEW} == NEW


def test_a_stored_match_replays_with_its_own_editions_numbers():
    """host/replay.py rebuilds a match from its record: meta["edition"], or edition 1 when the
    record predates editions."""
    opts = {"decks": ["iron_wall", "falcon_raid"]}
    for meta, want in (({"edition": 2}, OLD), ({}, OLD), ({"edition": 3}, NEW)):
        rec = MatchRecord(game="art_of_war", seed=3, seats=[1, 2], names=["A", "B"], creator=1,
                          options=opts, meta=meta)
        state = _initial_state(game, rec)
        assert _kings(state) == {k: want[k] for k in ("king_iron", "king_falcon")}


def test_the_ai_samples_a_match_under_its_own_edition():
    state = game.new_match(seed=5, options={"decks": ["iron_wall", "sage_court"]}, edition=2)
    view = game.view(state, 0)
    sample = game.determinize(view, 0, random.Random(1))
    assert sample.edition == 2 and _kings(sample) == {"king_iron": [4, 3], "king_sage": [2, 2]}
    new = game.new_match(seed=5, options={"decks": ["iron_wall", "sage_court"]})
    assert _kings(game.determinize(game.view(new, 0), 0, random.Random(1))) == \
        {"king_iron": [3, 3], "king_sage": [3, 2]}


# ----------------------------------------------------------------- each changed card, its clause

def test_iron_king_defence_3_3():
    """IRON KING 3/3 (was 4/3). project ruling (docs/rules/art_of_war.md): "One hit whose damage equals the defence exactly captures
    the unit"; "SOLDIER's attack is the attacker's hand size when the attack is declared": a SOLDIER
    with 3 cards in hand now captures the upright IRON KING (execution); under edition 2 it only
    damaged it (defence 4)."""
    kings = ("king_falcon", "king_iron")
    field = {"b2": "0s", "b3": "1k"}
    new = game.apply(game.position(player=0, field=field, hands={0: "ppp"}, kings=kings), 0, "attack b2 b3")
    assert game.outcome(new) == {"winners": [0], "reason": "execution"}
    old = game.apply(game.position(player=0, field=field, hands={0: "ppp"}, kings=kings, edition=2),
                     0, "attack b2 b3")
    assert game.outcome(old) is None
    # sideways it is still 3 (the sturdiest KING once it has attacked): 2 is not enough
    side = game.apply(game.position(player=0, field={"b2": "0s", "b3": "1k/"}, hands={0: "pp"}, kings=kings),
                      0, "attack b2 b3")
    assert game.outcome(side) is None


def test_falcon_king_defence_3_2():
    """FALCON KING 3/2 (was 3/1). project ruling (docs/rules/art_of_war.md): "Defence is upright/sideways: the unit's current
    orientation decides … attacking turns a unit sideways": an ARCHER's 1 no longer captures the
    sideways FALCON KING; under edition 2 it did (sideways defence 1)."""
    field = {"a2": "0a", "c3": "1k/"}
    new = game.apply(game.position(player=0, field=field, hands={0: "s"}), 0, "attack a2 c3")
    assert game.outcome(new) is None
    assert [u["damage"] for u in game.view(new, None)["field"] if u["card"] == "k"] == [1]
    old = game.apply(game.position(player=0, field=field, hands={0: "s"}, edition=2), 0, "attack a2 c3")
    assert game.outcome(old) == {"winners": [0], "reason": "execution"}


def test_sage_king_defence_3_2():
    """SAGE KING 3/2 (was 2/2). project ruling (docs/rules/art_of_war.md): "One hit whose damage equals the defence exactly captures
    the unit": a SOLDIER with 2 cards in hand no longer captures the upright SAGE KING; under
    edition 2 it did."""
    kings = ("king_iron", "king_sage")
    field = {"b2": "0s", "b3": "1k"}
    new = game.apply(game.position(player=0, field=field, hands={0: "pp"}, kings=kings), 0, "attack b2 b3")
    assert game.outcome(new) is None
    old = game.apply(game.position(player=0, field=field, hands={0: "pp"}, kings=kings, edition=2),
                     0, "attack b2 b3")
    assert game.outcome(old) == {"winners": [0], "reason": "execution"}


# ----------------------------------------------------------------------- the editions file

def _files() -> list[tuple[str, dict]]:
    return [(p.name, json.loads(p.read_text(encoding="utf-8"))) for p in sorted(ART_OF_WAR_DIR.glob("*.json"))]


def test_the_packaged_files_load_with_the_edition_3_patch():
    cs = read_art_of_war(sorted(ART_OF_WAR_DIR.glob("*.json")))
    assert {k: v["defence"] for k, v in cs.kings.items()} == OLD          # the files: edition 1
    assert {k: v["defence"] for k, v in cs.at(3).kings.items()} == NEW
    assert cs.at(2).kings == cs.kings


@pytest.mark.parametrize("patch, words", [
    ({"9x": {}}, "edition"),
    ({"1": {}}, "edition"),
    ({"3": {"kings": {"king_nobody": {"defence": [3, 3]}}}}, "king_nobody"),
    ({"3": {"kings": {"king_iron": {"defence": [0, 3]}}}}, "defence"),
    ({"3": {"kings": {"king_iron": {"name": {"en": "X", "ja": "X"}}}}}, "cannot be patched"),
    ({"3": {"cards": {}}}, "unknown key"),
    ({"3": {"decks": {"iron_wall": {"units": {"soldier": 21}}}}}, "illegal deck"),
    ({"3": {"decks": {"nowhere": {"units": {"soldier": 20}}}}}, "no such ready-made deck"),
])
def test_a_broken_edition_patch_is_refused_naming_the_file(patch, words):
    files = _files() + [("zz_more.json", {"format": "art_of_war/1", "editions": patch})]
    files = [(n, d) for n, d in files if n != "editions.json"]
    with pytest.raises(CardDataError) as info:
        build_cardset(files)
    assert "zz_more.json" in str(info.value) and words in str(info.value)


def test_a_deck_patch_changes_the_deck_from_its_edition_on():
    files = [(n, d) for n, d in _files() if n != "editions.json"]
    units = {"soldier": 5, "archer": 3, "priest": 3, "guardian": 5, "wizard": 4}
    cs = build_cardset(files + [("e.json", {"editions": {"4": {"decks": {"iron_wall": {"units": units}}}}})])
    assert cs.at(3).decks["iron_wall"]["spec"]["units"]["soldier"] == 4
    assert cs.at(4).decks["iron_wall"]["spec"]["units"] == units


# ------------------------------------------------------------------------- the AI at normal

def test_normal_sees_that_a_king_in_reach_is_lost():
    """ai/eval_art_of_war.py: a KING in reach of enough enemy attack for the opponent's next turn
    scores far worse than one out of reach."""
    safe = game.position(player=0, field={"a2": "0k", "c3": "1s"}, hands={0: "", 1: "ppp"})
    open_ = game.position(player=0, field={"b2": "0k", "b3": "1s"}, hands={0: "", 1: "ppp"})
    assert evaluate("art_of_war", game.view(safe, None), 2)[0] > \
        evaluate("art_of_war", game.view(open_, None), 2)[0] + 0.2


def test_normal_takes_the_king_out_of_reach():
    """With its KING about to be taken (a SOLDIER with 3 cards in hand right in front of it, KING
    defence 3), normal moves the KING out of the SOLDIER's reach."""
    for seed in range(3):
        state = game.position(player=0, field={"b2": "0k", "a2": "0g", "b3": "1s"}, hands={0: "s", 1: "ppp"})
        move = choose("art_of_war", game.view(state, 0), game.legal_commands(state, 0), 0,
                      level="normal", seed=seed)
        after = game.apply(state, 0, move)
        king = [u["square"] for u in game.view(after, None)["field"] if u["owner"] == 0 and u["card"] == "k"]
        assert king and king[0] != "b2", move
