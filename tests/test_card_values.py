"""A card's value for drafting, measured by self-play (balance.card_values): the shrinkage toward
0.5, determinism from the seed, legal random decks, a rigged example where one card always wins
and another always loses, resuming in chunks, the JSON round trip and the command line."""
from __future__ import annotations

import doctest
import json
from types import SimpleNamespace

import pytest

from balance import card_values as cv
from balance.__main__ import main
from rules import registry

CARD_GAMES = ("logic_square", "maken", "art_of_war", "avalon")


def test_the_module_doctest():
    assert doctest.testmod(cv).failed == 0


def test_the_value_is_the_win_rate_shrunk_toward_one_half_by_the_prior():
    assert cv.shrink(0.0, 0) == 0.5                              # never seen: neutral
    # (3 + 10 × 0.5) / (3 + 10) = 8 / 13
    assert cv.shrink(3.0, 3) == pytest.approx(8 / 13)
    # the same perfect record over more games is believed more
    assert 0.5 < cv.shrink(3.0, 3) < cv.shrink(30.0, 30) < cv.shrink(300.0, 300) < 1.0
    assert 0.0 < cv.shrink(0.0, 300) < cv.shrink(0.0, 30) < cv.shrink(0.0, 3) < 0.5
    # a card that won half its games stays at 0.5 whatever its sample; the prior decides how far
    assert cv.shrink(20.0, 40) == 0.5
    assert cv.shrink(10.0, 10, prior=0.0001) == pytest.approx(1.0, abs=1e-4)
    assert cv.shrink(10.0, 10, prior=30.0) == pytest.approx(25 / 40)


@pytest.mark.parametrize("game", CARD_GAMES)
def test_the_random_decks_are_legal_and_follow_from_the_seed_alone(game):
    engine = registry.get(game)
    cards = engine.decks.cards()
    decks = [cv.match_decks(game, cards, 7, i) for i in range(4)]
    for pair in decks:
        for deck in pair:
            assert engine.decks.validate(cv.deck_spec(engine, deck)) == []
    assert decks == [cv.match_decks(game, cards, 7, i) for i in range(4)]      # the same seed, the same decks
    assert decks != [cv.match_decks(game, cards, 8, i) for i in range(4)]      # another seed, others
    assert decks[0][0] != decks[0][1]


def _rigged(good: str, bad: str):
    """A match decided by the decks alone: the deck that holds ``good`` when the other does not
    wins; else the deck that holds ``bad`` when the other does not loses; else a draw."""
    def play(name, decks, seed):
        has_good = [good in d for d in decks]
        has_bad = [bad in d for d in decks]
        if has_good[0] != has_good[1]:
            return [has_good.index(True)]
        if has_bad[0] != has_bad[1]:
            return [has_bad.index(False)]
        return []
    return play


# a tiny Art of War set: one KING and eight units (a deck: the KING and 20 units of a few kinds)
TINY = {"king": {"category": "KING"}, **{u: {"category": "unit"} for u in
                                          ("good", "bad", "u1", "u2", "u3", "u4", "u5", "u6")}}
TINY_ENGINE = SimpleNamespace(decks=SimpleNamespace(cards=lambda: TINY))


def test_a_card_that_always_wins_ranks_above_one_that_always_loses():
    values = cv.measure("art_of_war", matches=60, seed=3, engine=TINY_ENGINE, play=_rigged("good", "bad"))
    ranked = [c for c, _ in values.ranked()]
    assert ranked[0] == "good" and ranked[-1] == "bad"
    assert values.values["good"] > 0.6 and values.values["bad"] < 0.45
    assert values.values["king"] == 0.5                   # in every deck: every match, one win a match
    assert values.games["king"] == 120 and values.wins["king"] == 60.0
    # the value is the shrunk win rate of exactly what was counted
    for cid in ("good", "bad"):
        assert values.values[cid] == round(cv.shrink(values.wins[cid], values.games[cid]), 6)
        assert 0 < values.games[cid] < 120


def test_measured_on_the_real_set_every_card_gets_a_value():
    values = cv.measure("logic_square", matches=6, seed=3, play=_rigged("ac01", "ac02"))
    assert set(values.values) == set(registry.get("logic_square").decks.cards())
    assert all(0.0 < v < 1.0 for v in values.values.values())
    assert sum(values.games[c] for c in values.games if c.startswith("av")) == 12     # one AVI a deck


def test_a_measurement_is_deterministic_and_resumes_in_chunks():
    first = cv.measure("art_of_war", matches=4, seed=11, level="easy")
    again = cv.measure("art_of_war", matches=4, seed=11, level="easy")
    assert first == again and first.to_json() == again.to_json()
    assert first.matches == 4 and sum(first.games[k] for k in ("king_iron", "king_falcon", "king_sage")) == 8
    # played in two chunks, the second before the first, the result is the same
    late, _ = cv.play_chunk("art_of_war", [2, 3], seed=11, level="easy")
    early, _ = cv.play_chunk("art_of_war", [0, 1], seed=11, level="easy")
    cards = registry.get("art_of_war").decks.cards()
    assert cv.values_from("art_of_war", cards, late + early, seed=11, level="easy") == first


def test_no_matches_leave_every_card_at_one_half():
    cards = registry.get("maken").decks.cards()
    values = cv.values_from("maken", cards, [], seed=0)
    assert set(values.values) == set(cards) and set(values.values.values()) == {0.5}
    assert set(values.games.values()) == {0}


def test_the_values_round_trip_through_json_and_a_tampered_row_is_refused():
    values = cv.measure("maken", matches=6, seed=2, play=_rigged("ts01", "gu01"), label="set 12 v3")
    text = json.dumps(values.to_json())
    assert cv.CardValues.from_json(json.loads(text)) == values
    good = json.loads(text)

    def tampered(change):
        d = json.loads(text)
        change(d)
        return d

    bad = [
        tampered(lambda d: d["cards"]["ts01"].update(value=0.99)),          # not its shrunk win rate
        tampered(lambda d: d["cards"]["ts01"].update(games=13)),            # more than 2 × 6 seats
        tampered(lambda d: d["cards"]["ts01"].update(wins=0.3)),            # not a multiple of one half
        tampered(lambda d: d["cards"]["ts01"].update(wins=-1)),
        tampered(lambda d: d["cards"]["ts01"].update(extra=1)),
        tampered(lambda d: d.update(game="squares")),
        tampered(lambda d: d.update(matches=True)),
        tampered(lambda d: d.update(level="expert")),
        tampered(lambda d: d.update(prior=0)),
        tampered(lambda d: d.update(label=5)),
        tampered(lambda d: d.pop("seed")),
        tampered(lambda d: d.update(cards=[])),
        [],
    ]
    for d in bad:
        with pytest.raises(ValueError):
            cv.CardValues.from_json(d)
    assert cv.CardValues.from_json(good).label == "set 12 v3"


def test_a_measurement_refuses_a_game_without_cards_and_no_matches():
    with pytest.raises(ValueError):
        cv.measure("squares", matches=2)
    with pytest.raises(ValueError):
        cv.measure("maken", matches=0)


def test_the_command_line_writes_the_values_as_json(tmp_path, capsys):
    out = tmp_path / "values.json"
    assert main(["--card-values", str(out), "--game", "art_of_war", "--matches", "2", "--seed-set", "5", "-q"]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    values = cv.CardValues.from_json(data["games"]["art_of_war"])
    assert values.matches == 2 and values.seed == 5 and values.level == cv.LEVEL
    assert "art_of_war: card values from 2 self-play matches" in capsys.readouterr().out
    assert main(["--card-values", str(out), "--game", "squares", "-q"]) == 2
    with pytest.raises(SystemExit):
        main(["--matches", "3"])                   # --matches only with --card-values
