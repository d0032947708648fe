"""Project Maken rules editions 2, 3 and 4: the balance changes (docs/rules/maken.md, "Balance (rules
edition 2)", "(rules edition 3)" and "(rules edition 4)") and their edition gating; edition 5: edition 4's
cards under the rulebook's opening again ("Rules edition 5").  A stored match is rebuilt by
replaying its commands from ``new_match(..., edition=meta["edition"])`` (host/replay.py), so a match
started under edition 1 or 2 (or stored before editions) must keep exactly its old numbers and
decks; a new match uses the newest edition, 5."""
from __future__ import annotations

import json
import random

import pytest

from rules.maken.files import MAKEN_DIR, read_maken
from data.store import MatchRecord
from host.replay import _initial_state, start_edition
from rules import registry
from rules.maken import MakenGame
from rules.maken.cards import CardDataError, CardSet
from rules.maken.editions import PRINTED, RULES_PATCH_LAST

game = registry.get("maken")
PATCHES = json.loads((MAKEN_DIR / "editions.json").read_text(encoding="utf-8"))["editions"]
PATCH = PATCHES["2"]
NEWEST = 5
FILES = sorted(MAKEN_DIR.glob("0*.json"))          # the characters' files: rules edition 1
printed = MakenGame(read_maken(FILES))              # the files alone, as before editions


def _ready(state, n=2):
    return game.apply(game.apply(state, state.d["first"], "ready"), 1 - state.d["first"], "ready")


def test_edition_5_is_the_current_edition():
    assert game.editions == (1, 2, 3, 4, 5) and game.edition == NEWEST
    assert sorted(map(int, PATCHES)) == [2, 3, 4, 5]
    assert game.new_match(seed=1).d["edition"] == NEWEST
    assert start_edition(game) == {"edition": NEWEST}
    assert game.for_edition(1).edition == 1 and game.for_edition(2).edition == 2
    assert game.for_edition(3).edition == 3 and game.for_edition(4).edition == 4
    assert game.for_edition(NEWEST) is game
    with pytest.raises(ValueError, match="unknown Project Maken rules edition 6"):
        game.new_match(seed=1, edition=6)


def _changes_exactly(edition: int, changes: dict) -> tuple:
    """Edition ``edition``'s patch names exactly ``changes`` (card -> {field: (before, after)}),
    each card's other fields are the edition before's; returns (before, after) card sets."""
    old, new = game.cardset_at(edition - 1), game.cardset_at(edition)
    assert {cid: set(f) for cid, f in PATCHES[str(edition)]["cards"].items()} == {c: set(f) for c, f in changes.items()}
    for cid in old.cards:
        want = dict(old.cards[cid])
        for field, (before, after) in changes.get(cid, {}).items():
            assert old.cards[cid][field] == before, (cid, field)
            want[field] = after
        assert {k: v for k, v in new.cards[cid].items() if k != "text"} == \
            {k: v for k, v in want.items() if k != "text"}, cid
    return old, new


# edition 3's changes (docs/rules/maken.md, "Balance (rules edition 3)"): card -> {field: (2, 3)}
EDITION_3 = {"ts10": {"gain": (1, 0)}, "gu10": {"gain": (1, 0)}, "ms10": {"gain": (1, 0)},
             "kt10": {"gain": (1, 0), "guard": (1, 2)}, "gu02": {"speed": (3, 4)}, "kt05": {"speed": (5, 4)},
             "ms05": {"speed": (4, 5)}}


def test_edition_3_changes_exactly_its_numbers_and_keeps_edition_2s_others():
    """A card patched in editions 2 and 3 keeps edition 2's numbers for the fields edition 3 does not
    name (the 10s keep reach 1/0 and attack 2); edition 2 itself stays as it was."""
    two, three = _changes_exactly(3, EDITION_3)
    for cid in ("ts10", "gu10", "ms10", "kt10"):
        assert (three.cards[cid]["front"], three.cards[cid]["back"], three.cards[cid]["attack"]) == (1, 0, 2)
    assert "ゲージ増加" not in three.cards["ts10"]["text"]["ja"] and "ゲージ増加1" in two.cards["ts10"]["text"]["ja"]
    assert three.characters == two.characters and three.rules == two.rules
    assert {d: v["spec"] for d, v in three.decks.items()} == {d: v["spec"] for d, v in two.decks.items()}


# edition 4's changes (docs/rules/maken.md, "Balance (rules edition 4)"): card -> {field: (3, 4)}
EDITION_4 = {"ts01": {"speed": (5, 6)}, "ts07": {"speed": (5, 6)}, "gu01": {"speed": (4, 5)},
             "gu06": {"speed": (5, 4)}, "ms01": {"attack": (2, 3)},
             **{cid: {"icon": ("dust", "stamina")} for cid in ("ts02", "gu02", "ms02", "kt02")}}


def test_edition_4_changes_exactly_its_cards_and_keeps_edition_3s_others():
    three, four = _changes_exactly(4, EDITION_4)
    assert "スタミナ" in four.cards["ts02"]["text"]["ja"] and "stamina" in four.cards["ts02"]["text"]["en"]
    assert "ダスト" in three.cards["ts02"]["text"]["ja"]
    assert four.characters == three.characters and four.rules == three.rules
    assert {d: v["spec"] for d, v in four.decks.items()} == {d: v["spec"] for d, v in three.decks.items()}


@pytest.mark.parametrize("edition, goes_to", [(3, "dust"), (4, "stamina")])
def test_edition_4s_02s_go_under_the_stamina_after_the_attack_phase(edition, goes_to):
    """F: 表向きの「アタックフィールド」のカードは「どこいくのアイコン」の示す場所に移動 — from rules
    edition 4 the 02s' icon is the bottom of the stamina (edition 3: the dust)."""
    g = game.for_edition(edition)
    fill = ["gu01"] * 20
    s = g.position(field0=["ts02"], actor=1, hand1=["gu05"], chars=("tsubaki", "gou"),
                   stamina0=list(fill), stamina1=list(fill), lp0=["ts01"] * 3, lp1=["gu01"] * 3)
    s = g.apply(s, 1, "call")                                  # speed 4 against none: a clean hit
    assert s.d["judge"]["kind"] == "clean_hit" and not s.d["field"][0]
    if goes_to == "stamina":
        assert s.d["stamina"][0][-1] == "ts02" and "ts02" not in s.d["dust"][0]
    else:
        assert s.d["dust"][0][-1] == "ts02" and "ts02" not in s.d["stamina"][0]


def test_every_patched_number_of_edition_2_applies_from_edition_2_on():
    new, old = game.cardset_at(2), game.cardset_at(1)
    assert old.cards == printed.cardset.cards and old.characters == printed.cardset.characters
    assert {d: v["spec"] for d, v in old.decks.items()} == {d: v["spec"] for d, v in printed.cardset.decks.items()}
    for cid, fields in PATCH["cards"].items():
        for field, value in fields.items():
            if field == "reach":
                front, back = value if isinstance(value, list) else (value, value)
                assert (new.cards[cid]["front"], new.cards[cid]["back"]) == (front, back), cid
            else:
                assert new.cards[cid][field] == value, (cid, field)
        # the generated card text says the new numbers' effects, never the old
        assert new.cards[cid]["text"]["ja"] and set(new.cards[cid]) == set(old.cards[cid])
    for ch, fields in PATCH.get("characters", {}).items():
        assert new.characters[ch]["draw_limit"] == fields["draw_limit"]
        assert old.characters[ch]["draw_limit"] == 3
    for did, cards in PATCH["decks"].items():
        assert new.decks[did]["spec"]["cards"] == dict(sorted(cards.items())) and sum(cards.values()) == 30
    assert game.decks.ready() == {d: {"name": v["name"], "spec": v["spec"]} for d, v in new.decks.items()}


@pytest.mark.parametrize("decks", [["tsubaki_basic", "gou_basic"], ["mizuha_basic", "kotetsu_basic"]])
def test_a_new_match_uses_the_newest_edition_and_an_edition_1_match_keeps_the_old_numbers(decks):
    new = game.new_match(seed=7, options={"decks": decks, "first": 0})
    old = game.new_match(seed=7, options={"decks": decks, "first": 0}, edition=1)
    two = game.new_match(seed=7, options={"decks": decks, "first": 0}, edition=2)
    for cid, card in new.d["cards"].items():
        assert card == game.cardset_at(NEWEST).characters.get(cid, game.cardset_at(NEWEST).cards.get(cid))
    for cid, card in two.d["cards"].items():
        assert card == game.cardset_at(2).characters.get(cid, game.cardset_at(2).cards.get(cid))
    assert two.d["edition"] == 2 and game.load(game.dump(two)).d["cards"] == two.d["cards"]
    for cid, card in old.d["cards"].items():
        assert card == printed.cardset.characters.get(cid, printed.cardset.cards.get(cid))
    # the opening numbers: the very first TP draws at most 2 (the rulebook's, edition 1 and from
    # edition 5 on); editions 2–4 kept their rules.first_draw_limit 1
    assert game.legal_commands(_ready(new), 0) == ["draw 1", "draw 2"]
    assert game.legal_commands(_ready(old), 0) == ["draw 1", "draw 2"]
    first = PATCH["rules"]["first_draw_limit"]
    assert game.legal_commands(_ready(two), 0) == [f"draw {n}" for n in range(1, first + 1)] == ["draw 1"]
    assert game.load(game.dump(old)).d["cards"] == old.d["cards"] and game.load(game.dump(old)).d["edition"] == 1


def _random_match(g, seed, edition=None):
    rng = random.Random(seed)
    kw = {} if edition is None else {"edition": edition}
    state = g.new_match(seed=seed, options={"decks": ["gou_basic", "kotetsu_basic"]}, **kw)
    states = [state]
    while g.outcome(state) is None and len(states) < 250:
        seat = g.to_act(state)[0]
        state = g.apply(state, seat, rng.choice(g.legal_commands(state, seat)))
        states.append(state)
    return states


def test_an_edition_1_match_replays_exactly_as_before_editions():
    """The same seed and commands under edition 1 give the very states and views the files alone
    gave before rules editions existed (only the state's own ``edition`` mark is new)."""
    for seed in (1, 2):
        now, before = _random_match(game, seed, edition=1), _random_match(printed.for_edition(1), seed)
        assert len(now) == len(before)
        for a, b in zip(now, before):
            assert {k: v for k, v in a.d.items() if k != "edition"} == {k: v for k, v in b.d.items() if k != "edition"}
            for seat in (None, 0, 1):
                assert game.view(a, seat) == printed.view(b, seat)


def test_a_state_stored_before_editions_loads_and_replays_as_edition_1():
    state = game.new_match(seed=4, options={"decks": ["tsubaki_basic", "mizuha_basic"]}, edition=1)
    stored = {k: v for k, v in state.d.items() if k != "edition"}      # as dumped before editions
    loaded = game.load(json.dumps(stored))
    assert loaded.d["edition"] == 1 and "rules" not in loaded.d
    assert "edition" not in game.view(loaded, 0)                          # edition 1's views as before
    assert game.determinize(game.view(loaded, 0), 0, random.Random(1)).d["cards"]["ts01"] == \
        printed.cardset.cards["ts01"]


def test_a_stored_match_replays_with_its_own_editions_numbers():
    """host/replay.py rebuilds a match from its record: meta["edition"], or edition 1 when the
    record predates editions."""
    opts = {"decks": ["tsubaki_basic", "gou_basic"], "first": 0}
    for meta, want in (({}, 1), ({"edition": 1}, 1), ({"edition": 2}, 2), ({"edition": 3}, 3), ({"edition": 4}, 4),
                       ({"edition": 5}, 5)):
        rec = MatchRecord(game="maken", seed=3, seats=[1, 2], names=["A", "B"], creator=1, options=opts, meta=meta)
        state = _initial_state(game, rec)
        assert state.d["edition"] == want
        assert state.d["cards"]["ts01"] == game.cardset_at(want).cards["ts01"]
        assert state.d["cards"]["ts10"] == game.cardset_at(want).cards["ts10"]
        assert state.d["cards"]["ts02"] == game.cardset_at(want).cards["ts02"]


@pytest.mark.parametrize("edition", [1, 2, 3, 4, 5])
def test_the_ai_samples_a_match_under_its_own_edition(edition):
    for state in _random_match(game, 5, edition=edition)[::20]:
        for seat in (0, 1):
            view = game.view(state, seat)
            assert view.get("edition", 1) == edition
            sample = game.determinize(view, seat, random.Random(2))
            assert sample.d["edition"] == edition
            assert sample.d["cards"]["gu01"] == game.cardset_at(edition).cards["gu01"]
            assert sample.d["cards"]["kt10"] == game.cardset_at(edition).cards["kt10"]
            assert sample.d["cards"]["kt02"] == game.cardset_at(edition).cards["kt02"]
            assert game.view(sample, seat) == view                   # the determinize law


# ----------------------------------------------------------------- bad edition data is refused

def _sources(editions):
    files = [(p.name, json.loads(p.read_text(encoding="utf-8"))) for p in FILES]
    return files + [("editions.json", {"format": 1, "editions": editions})]


@pytest.mark.parametrize("editions, where, says", [
    ({"1": {}}, "field 'editions.1'", "edition 1 is the files' cards"),
    ({"6": {}}, "field 'editions.6'", "unknown rules edition"),
    ({"2": {"units": {}}}, "field 'editions.2.units'", "unknown key"),
    ({"2": {"cards": {"zz01": {"attack": 2}}}}, "card 'zz01'", "no such card"),
    ({"2": {"cards": {"ts01": {"posture": "air"}}}}, "card 'ts01', field 'editions.2.posture'", "cannot be patched"),
    ({"2": {"cards": {"ts01": {"speed": 12}}}}, "card 'ts01', field 'speed'", "from 0 to 9"),
    ({"2": {"cards": {"ts05": {"hit": [{"do": "power", "n": 1}]}}}}, "card 'ts05', field 'editions.2.hit'",
     "effect amounts only"),
    ({"2": {"decks": {"gou_basic": {"gu01": 3}}}}, "card 'gou_basic', field 'editions.2.decks'", "illegal deck"),
    ({"2": {"decks": {"nope": {}}}}, "card 'nope'", "no such ready-made deck"),
    ({"2": {"rules": {"lp_cards": 2}}}, "field 'editions.2.rules.lp_cards'", "not a rules number"),
    ({"2": {"rules": {"first_draw_limit": 0}}}, "field 'editions.2.rules.first_draw_limit'", "from 1 to 3"),
    ({"2": {"cards": {"ts01": {"icon": "moon"}}}}, "card 'ts01', field 'icon'", "must be one of dust"),
    ({"2": {"characters": {"gou": {"draw_limit": 9}}}}, "card 'gou', field 'editions.2.draw_limit'", "from 1 to 5"),
])
def test_bad_edition_data_is_refused_naming_file_card_and_field(editions, where, says):
    with pytest.raises(CardDataError) as err:
        CardSet.from_sources(_sources(editions))
    assert str(err.value).startswith("editions.json") and where in str(err.value) and says in str(err.value)


def test_the_shipped_editions_file_is_valid_and_read_with_the_cards():
    cs = CardSet.from_sources(_sources(json.loads((MAKEN_DIR / "editions.json").read_text("utf-8"))["editions"]))
    assert sorted(cs.patches) == [2, 3, 4, 5] and cs.at(5).cards == game.cardset.cards
    assert cs.at(4).cards == game.cardset_at(4).cards
    assert cs.at(3).cards == game.cardset_at(3).cards
    assert cs.at(2).cards == game.cardset_at(2).cards


def test_a_later_patch_builds_on_the_earlier_editions_in_any_file_order():
    """Edition 3 patches a card as edition 2 left it, even when "3" comes first in the file."""
    eds = {"3": {"cards": {"ts10": {"gain": 0}}}, "2": {"cards": {"ts10": {"reach": [1, 0], "attack": 2}}}}
    cs = CardSet.from_sources(_sources(eds))
    ts10 = cs.at(3).cards["ts10"]
    assert (ts10["front"], ts10["back"], ts10["attack"], ts10["gain"]) == (1, 0, 2, 0)
    assert cs.at(2).cards["ts10"]["gain"] == 1 and cs.at(1).cards["ts10"]["front"] == 0


# ------------------------------------------------- rules edition 5: the rulebook's opening again

def test_edition_5_is_edition_4s_cards_under_the_rulebooks_opening():
    """Project ruling (docs/rules/maken.md): the TP declares 1 to the draw limit, "the very first TP of the game at most 2" — a
    rule, not a card's number, so edition 5 drops editions 2–4's ``first_draw_limit`` 1 and changes
    nothing else: the cards, characters and ready-made decks are edition 4's."""
    four, five = game.cardset_at(4), game.cardset_at(5)
    assert five.cards == four.cards and five.characters == four.characters
    assert {d: v["spec"] for d, v in five.decks.items()} == {d: v["spec"] for d, v in four.decks.items()}
    assert five.rules == PRINTED == {"first_draw_limit": 2, "second_hand": 5}
    assert set(PATCHES["5"]) == {"comment"}
    state = game.new_match(players=2, seed=3, options={"first": 0})
    assert state.d["edition"] == 5 and "rules" not in state.d          # the printed numbers
    assert game.legal_commands(_ready(state), 0) == ["draw 1", "draw 2"]
    assert [len(h) for h in state.d["hand"]] == [5, 5]


@pytest.mark.parametrize("edition", [2, 3, 4])
def test_editions_2_to_4_still_load_with_their_rules_patch(edition):
    """Editions 2–4 carried ``"rules": {"first_draw_limit": 1}`` (edition 2's, inherited); they load
    unchanged so that their stored matches replay exactly."""
    assert PATCHES["2"]["rules"] == {"first_draw_limit": 1} and edition <= RULES_PATCH_LAST
    cs = CardSet.from_sources(_sources(PATCHES))
    assert cs.at(edition).rules == {"first_draw_limit": 1, "second_hand": 5}
    assert game.cardset_at(edition).rules == cs.at(edition).rules and cs.at(5).rules == PRINTED
    state = game.new_match(players=2, seed=3, options={"first": 0}, edition=edition)
    assert state.d["rules"] == {"first_draw_limit": 1}
    assert game.legal_commands(_ready(state), 0) == ["draw 1"]
    assert game.load(game.dump(state)).d["rules"] == {"first_draw_limit": 1}
    # a rules patch in these editions is still read (a copy of the file, through the loader)
    for key, value in (("first_draw_limit", 3), ("second_hand", 6)):
        got = CardSet.from_sources(_sources({**PATCHES, str(edition): {"rules": {key: value}}}))
        assert got.at(edition).rules[key] == value and got.at(5).rules == PRINTED


@pytest.mark.parametrize("key, value", [("first_draw_limit", 1), ("first_draw_limit", 2), ("second_hand", 6)])
def test_the_loader_refuses_a_rules_patch_after_edition_4_naming_the_file_and_the_key(tmp_path, key, value):
    """Project ruling (docs/rules/maken.md): rules editions change card content only and never a rule of the game, so a
    ``rules`` patch in an edition after 4 is refused, naming the file and the key."""
    data = json.loads((MAKEN_DIR / "editions.json").read_text(encoding="utf-8"))
    data["editions"]["5"]["rules"] = {key: value}
    path = tmp_path / "editions_zz.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CardDataError) as err:
        read_maken(FILES + [path])
    assert err.value.file == str(path) and err.value.field == f"editions.5.rules.{key}"
    assert str(err.value).startswith(str(path)) and f"editions.5.rules.{key}" in str(err.value)
    assert "never a rule of the game" in str(err.value)
    # an empty or malformed rules part is refused the same way
    for bad in ({}, 2):
        with pytest.raises(CardDataError) as err:
            CardSet.from_sources(_sources({"5": {"rules": bad}}))
        assert err.value.file == "editions.json" and err.value.field == "editions.5.rules"
