"""The messages of limited play (cogs/draft_layouts.py) against Discord's Components V2 rules as
the twin enforces them: the table in each state, a drafter's DM with its pack, a Winston pile,
the deck builder of a 100-card pool and the survey — each within 40 components and 4,000
characters, its picture named by ``attachment://``, and everything the picture shows said in words."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from cogs.draft_layouts import build_layout, copy_values, pick_layout, survey_layout, table_layout, winston_layout
from host.limited.cards import DraftCards
from rules import registry
from tests.e2e.twin_v2 import check_layout, controls, texts
from data.card_sets import games


@pytest.fixture(scope="module")
def cards() -> DraftCards:
    ad = games.adapter("logic_square")
    cs, _ = ad.validate(ad.base_files("extend", None))
    entries = {e.id: e for e in ad.entries(cs, set()) if not e.deck}
    return DraftCards("logic_square", registry.get("logic_square"), entries, None, None)


def _row(status: str, fmt: str = "booster") -> SimpleNamespace:
    seats = [SimpleNamespace(seat=0, user_id=11, name="Alice", deck=None),
             SimpleNamespace(seat=1, user_id=None, name="", deck=None)]
    return SimpleNamespace(id=7, game="logic_square", format=fmt, status=status, set_name="Owl Kings", set_version=2,
                           seats=seats, seed=bytes(range(32)), state={"packs": 3, "size": 15, "timer": 5})


def _words(view) -> str:
    return "\n".join(texts(view.to_components()))


def _ok(view, files=None) -> list[dict]:
    comps = view.to_components()
    assert check_layout(comps, files) == [], check_layout(comps, files)
    return comps


@pytest.mark.parametrize("status", ["open", "drafting", "building", "done", "cancelled"])
def test_the_table_in_each_state_names_the_set_the_seats_and_what_to_do(status):
    view = table_layout(_row(status), "en", waiting=[0], deadline=1_800_000_000.0, round_no=(2, 3))
    comps = _ok(view)
    words = _words(view)
    assert "Booster draft #7 · Battle Logic Square" in words and "Owl Kings v2" in words
    assert "<@11> (Alice)" in words
    ids = [c["custom_id"] for c in controls(comps)]
    expected = {"open": "dr:7:join", "drafting": "dr:7:pack", "building": "dr:7:build", "done": "dr:7:show"}
    if status in expected:
        assert expected[status] in ids
    if status == "drafting":
        assert "Still picking: <@11>" in words and "<t:1800000000:R>" in words
        assert "Round 2 of 3: packs pass right (to the seat before)." in words
    if status == "done":
        assert bytes(range(32)).hex() in words, "the seed is shown once the draft is done"
    else:
        assert bytes(range(32)).hex() not in words, "never before"


def test_a_pack_dm_numbers_its_cards_in_the_picture_and_the_select(cards):
    ids = [c for c in cards.entries][:15]
    front = {"kind": "pack", "cards": ids, "round": 1, "rounds": 3, "pick": 1, "queued": 2, "deadline": 1.8e9}
    view = pick_layout(_row("drafting"), front, cards, [], "en")
    comps = _ok(view, {"pack.png"})
    select = next(c for c in controls(comps) if c["custom_id"] == "dp:7:1:1")
    assert [o["label"].split(". ", 1)[0] for o in select["options"]] == [str(i) for i in range(1, 16)]
    assert select["options"][0]["label"] == f"1. {cards.name(ids[0], 'en')}"
    words = _words(view)
    assert "Round 1 of 3 · pick 1 · 15 cards" in words and "1 more pack is waiting" in words
    waiting = pick_layout(_row("drafting"), None, cards, ids[:3], "ja")
    assert "次のパック" in _words(waiting) and "自分のプール（3）" in str(waiting.to_components())


def test_a_winston_pile_offers_take_and_pass_only_when_passing_is_allowed(cards):
    ids = list(cards.entries)[:3]
    front = {"kind": "pile", "cards": ids, "pile": 2, "piles": [1, 3, 2], "stack": 40, "can_pass": False,
             "deadline": None, "turn": 5}
    view = winston_layout(_row("drafting", "winston"), front, cards, [], "en")
    ids_shown = [c["custom_id"] for c in controls(_ok(view, {"pack.png"}))]
    assert "dw:7:5:take" in ids_shown and "dw:7:5:pass" not in ids_shown
    assert f"1. {cards.name(ids[0], 'en')}" in _words(view), "the pile's cards in words"


def test_the_deck_builder_of_a_big_pool_stays_within_discords_limits(cards):
    pool = [c for c, e in cards.entries.items() if e.kind == "resource"] * 3
    data = {"cards": cards, "pool": pool, "rules": {"size": 15, "copies": 2}, "deck": None,
            "kept": {"avi": [c for c, e in cards.entries.items() if e.kind == "avi"],
                     "it": [c for c, e in cards.entries.items() if e.kind == "it"]}}
    view = build_layout(_row("building"), data, "en", problems=["The deck breaks 1 rule:", "too few cards"])
    comps = _ok(view, {"pool.png"})
    selects = [c for c in controls(comps) if c["custom_id"].startswith("db:7:")]
    assert len(selects) == 2 + 4, "the AVI, the IT deck, and the pool's cards in four lists"
    values = [o["value"] for s in selects if s["custom_id"].startswith("db:7:m.") for o in s["options"]]
    assert len(values) == len(set(values)) == min(len(pool), 100), "each copy once"
    assert "⚠️ The deck breaks 1 rule:\n- too few cards" in _words(view)
    assert copy_values(["b", "a", "a"]) == [("a", "a~1"), ("a", "a~2"), ("b", "b~1")]


def test_the_survey_is_one_tap_a_part_and_says_it_is_anonymous(cards):
    seen = list(cards.entries)[:40]
    answer = SimpleNamespace(fun=4, strong=seen[0], weak=None)
    view = survey_layout(12, "logic_square", "Owl Kings v2", seen, cards, "en", answer=answer)
    comps = _ok(view)
    ids = [c["custom_id"] for c in controls(comps)]
    assert ids[:5] == [f"sv:12:f:{n}" for n in range(1, 6)] and "sv:12:strong" in ids and "sv:12:weak" in ids
    strong = next(c for c in controls(comps) if c["custom_id"] == "sv:12:strong")
    assert len(strong["options"]) == 25
    words = _words(view)
    assert "fun 4/5" in words and "never says who" in words


def test_the_table_says_whose_pick_the_timer_took_and_never_the_card():
    late = [{"seat": 0, "round": 1, "pick": 3}]
    en = _words(table_layout(_row("drafting"), "en", waiting=[0], late=late))
    ja = _words(table_layout(_row("drafting"), "ja", waiting=[0], late=late))
    assert "Time ran out, so the computer picked for: Alice (round 1, pick 3)." in en
    assert "時間切れのため、コンピューターが代わりにピックしました：Alice（1巡目・3ピック目）" in ja


def test_an_event_pods_table_keeps_its_seed_for_the_events_lists_and_sends_players_to_the_event():
    """An event's pool is locked like a decklist and shown under the same rules: the table of a
    done pod never shows the seed that would deal every pool again."""
    row = _row("done", "sealed")
    words = _words(table_layout(row, "en", league=4))
    assert bytes(range(32)).hex() not in words and "locked for event #4" in words
    assert "Play my match" in _words(table_layout(_row("building", "sealed"), "en", league=4))
    assert "大会 #4" in _words(table_layout(row, "ja", league=4))
