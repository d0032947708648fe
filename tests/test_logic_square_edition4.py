"""Battle Logic Square rules edition 4: the second balance step (docs/rules/logic_square.md,
"Balance (rules edition 4)") and its edition gating.  A stored match replays under the edition in
its record, so a match started under edition 3 keeps edition 3's decks and numbers; a new match
uses edition 4.  Each changed card or deck has a test quoting the clause it applies."""
from __future__ import annotations

from collections import Counter

from data.store import MatchRecord
from host.replay import _initial_state, start_edition
from rules import registry
from rules.logic_square import validate_deck

game = registry.get("logic_square")


def _resources(cs, deck: str) -> Counter:
    return Counter(cs.decks[deck].to_spec()["resources"])


def test_edition_4_is_the_current_edition():
    assert game.editions == (1, 2, 3, 4)
    assert game.new_match(seed=1).edition == 4
    assert start_edition(game) == {"edition": 4}


def test_the_cipher_deck_plays_reflect_shell_instead_of_firewall_snap():
    """3. デッキの構築ルール: green cards at most 2 of a name — the two Firewall Snap (br07) become two
    Reflect Shell (br02); the deck stays legal."""
    new, old = _resources(game.cardset_at(4), "cipher"), _resources(game.cardset_at(3), "cipher")
    assert (new["br02"], new["br07"]) == (2, 0) and (old["br02"], old["br07"]) == (0, 2)
    assert new - Counter({"br02": 2}) == old - Counter({"br07": 2})
    assert validate_deck(game.cardset_at(4), game.cardset_at(4).decks["cipher"].to_spec()) == []


def test_the_aegis_deck_plays_firewall_snap_instead_of_reflect_shell():
    """The reverse swap in Aegis Bulwark: two Reflect Shell (br02) become two Firewall Snap (br07)."""
    new, old = _resources(game.cardset_at(4), "aegis"), _resources(game.cardset_at(3), "aegis")
    assert (new["br02"], new["br07"]) == (0, 2) and (old["br02"], old["br07"]) == (2, 0)
    assert new - Counter({"br07": 2}) == old - Counter({"br02": 2})
    assert validate_deck(game.cardset_at(4), game.cardset_at(4).decks["aegis"].to_spec()) == []


def test_the_other_decks_and_the_it_decks_are_unchanged():
    for deck in ("blitz", "fox"):
        assert game.cardset_at(4).decks[deck].to_spec() == game.cardset_at(3).decks[deck].to_spec()
    for deck in ("aegis", "cipher"):
        assert game.cardset_at(4).decks[deck].to_spec()["it"] == game.cardset_at(3).decks[deck].to_spec()["it"]


def test_a_match_keeps_the_decks_of_its_edition():
    """A stored match replays from new_match(..., edition=meta["edition"]) (host/replay.py)."""
    opts = {"decks": ["aegis", "cipher"]}
    for ed, snap, shell in ((3, (0, 2), (2, 0)), (4, (2, 0), (0, 2))):
        rec = MatchRecord(game="logic_square", seed=3, seats=[1, 2], names=["A", "B"], creator=1,
                          options=opts, meta={"edition": ed})
        state = _initial_state(game, rec)
        cards = [Counter(state.hand[s] + state.deck[s]) for s in (0, 1)]
        assert (cards[0]["br07"], cards[1]["br07"]) == snap
        assert (cards[0]["br02"], cards[1]["br02"]) == shell


def test_shield_bash_reaches_2_squares_deep():
    """Aegis Loop's Shield Bash: the 3 columns ahead, 2 squares deep (was 1). 6.II D / B: an ability
    with a hit range needs an opponent's AVI or placed card in it; the push is unchanged."""
    new = game.position(avis=("av02", "av03"), pos=("c2", "c4"))
    assert "avi 2" in game.legal_commands(new, 0)
    new = game.apply(new, 0, "avi 2")
    assert new.life[1] == 440 and new.pos[1] == game.position(pos=("c1", "c5")).pos[1]    # pushed to c5
    old = game.position(avis=("av02", "av03"), pos=("c2", "c4"), edition=3)
    assert "avi 2" not in game.legal_commands(old, 0)
    for ed in (3, 4):                                   # next to it, as before
        state = game.apply(game.position(avis=("av02", "av01"), pos=("c2", "c3"), edition=ed), 0, "avi 2")
        assert state.life[1] == 440


def test_aegis_awakening_at_150():
    """Aegis Loop's awakening: on at 150 life or less (was 250), 10 less damage from each hit. 9.
    自身の《AVI》カードのライフポイントが X 以下となった場合、効果が働きます。"""
    for ed, life, want in ((4, 200, 160), (3, 200, 170), (4, 150, 120)):
        state = game.position(avis=("av01", "av02"), hands={0: ["ac01"]}, pos=("c2", "c3"), life=(500, life),
                              edition=ed)
        assert game.apply(state, 0, "use ac01").life[1] == want


def test_the_shown_texts_state_the_new_numbers():
    av02 = game.decks.cards()["av02"]
    assert "2 squares deep" in av02["abilities"][1]["text"]["en"]
    assert "3列×2マス" in av02["abilities"][1]["text"]["ja"]
    assert "150" in av02["awakening"]["text"]["en"] and "覚醒 150" in av02["awakening"]["text"]["ja"]
    assert "250" in game.cardset_at(3)["av02"].raw["awakening"]["text"]["en"]
