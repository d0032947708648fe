"""Which cards each seat drew in a finished match, and the per-seat rows of limited play's card
figures (host/stats/drawn.py).

The rule: a card is drawn by a seat when it was ever in that seat's own hand during the match
(the opening hand included), read from the seat's own view after each log entry; per game,
Battle Logic Square's resource cards in hand and its IT deck (not the AVI), Project Maken's hand
(not the character), Art of War's units and KING in hand (tokens named by card id), Avalon's
Sanctuary's hand (not the avatar); SQUARES draws nothing.  Matches are played here through the
engines (seeded random legal play, as tests/test_stats_facts.py plays them) and read back from
the record and the log as the host stores them."""
from __future__ import annotations

import json
import random

import pytest

from data.store import CommandRecord
from host.batch_log import entry
from host.replay import JOIN, RESIGN, _initial_state, _step
from host.stats.card_figures import SeatGame
from host.stats.drawn import deck_lists, drawn_cards, limited_rows
from host.stats.facts import match_facts
from rules import IllegalCommand, registry
from test_stats_facts import _deck_cards, _finish, _random_match, _record

CARD_GAMES = ("logic_square", "maken", "art_of_war", "avalon")
#: two ready-made decks per game that share as few cards as possible (seat 0, seat 1)
APART = {"logic_square": ["blitz", "aegis"], "maken": ["tsubaki_basic", "gou_basic"],
         "art_of_war": ["iron_wall", "falcon_raid"], "avalon": ["dawn", "tide"]}


# ------------------------------------------------------------------------------- helpers
def _own_cards(eng, game: str, state, seat: int) -> set[str]:
    """What ``seat``'s own view shows in its hand (and Battle Logic Square's IT deck), by card
    id — the test's own reading of the view, to compare with the module's."""
    view = eng.view(state, seat)
    hand = list(view.get("hand") or [])
    if game == "logic_square":
        return set(hand) | set(view.get("it_unused") or [])
    if game == "art_of_war":
        king = view["players"][seat]["king"]
        return {king if t == "k" else view["units"][t]["id"] for t in hand}
    return set(hand)


def _seen(eng, rec, commands) -> list[set[str]]:
    """Per seat, the union of its own views' hands at the start and after every entry."""
    state = _initial_state(eng, rec)
    seen = [_own_cards(eng, rec.game, state, s) for s in range(len(rec.seats))]
    for c in commands:
        state = _step(eng, state, c.seat, c.command)
        for s in range(len(rec.seats)):
            seen[s] |= _own_cards(eng, rec.game, state, s)
    return seen


def _played(game: str, seed: int, moves: int, options: dict | None = None, seats: int = 2):
    """Seeded random legal play for ``moves`` entries at most (no resignation commands), then,
    if the game is not over, a resignation as the host records it (``__resign__`` entries for
    Avalon's Sanctuary, a result with no entry for the others).  Returns (engine, record,
    commands)."""
    eng = registry.get(game)
    rec = _record(game, seed, options, seats=seats)
    state = _initial_state(eng, rec)
    rng = random.Random(seed)
    log: list[tuple[int, str]] = []
    for _ in range(moves):
        if eng.outcome(state) is not None:
            break
        seat = rng.choice(list(eng.to_act(state)))
        legal = [c for c in eng.legal_commands(state, seat) if not c.startswith(("resign", "concede"))]
        command = rng.choice(legal or eng.legal_commands(state, seat))
        log.append((seat, command))
        state = _step(eng, state, seat, command)
    result = None
    if eng.outcome(state) is None:
        if game == "avalon":
            for seat in range(seats - 1):
                try:
                    state = eng.resign(state, seat)
                except IllegalCommand:
                    continue
                log.append((seat, RESIGN))
                if eng.outcome(state) is not None:
                    break
        else:
            result = {"winners": [1], "reason": "resign", "resigned": 0}
    rec, commands, _ = _finish(eng, rec, log, result)
    return eng, rec, commands


def _deck_pile(game: str, state, seat: int, view: dict) -> list[str]:
    """The cards still in ``seat``'s deck (the engine state: tests only), by card id."""
    if game == "logic_square":
        return list(state.deck[seat])
    if game == "maken":
        return list(state.d["stamina"][seat])
    if game == "art_of_war":
        return [view["units"][t]["id"] for t in state.decks[seat] if t != "k"]
    return list(state.players[seat].deck)


def _final_state(eng, rec, commands):
    state = _initial_state(eng, rec)
    for c in commands:
        state = _step(eng, state, c.seat, c.command)
    return state


# ------------------------------------------------------------------------------- drawn
@pytest.mark.parametrize("game", CARD_GAMES)
@pytest.mark.parametrize("seed,moves", [(3, 400), (11, 400), (5, 12)])
def test_drawn_is_every_card_the_seats_own_views_showed_in_hand(game, seed, moves):
    """"every card id that was ever in that seat's own hand during the match (including the
    opening hand), read from the seat's own view after each step" — the drawn sets are exactly
    the union of the seat's own views' hands; the opening hand and the last hand are in it;
    every card drawn is one of the seat's deck."""
    eng, rec, commands = _played(game, seed, moves)
    drawn = drawn_cards(eng, rec, commands)
    assert len(drawn) == 2 and all(isinstance(d, frozenset) for d in drawn)
    assert drawn == [frozenset(s) for s in _seen(eng, rec, commands)]
    start, final = _initial_state(eng, rec), _final_state(eng, rec, commands)
    for seat in (0, 1):
        opening = _own_cards(eng, game, start, seat)
        assert opening and opening <= drawn[seat], "the opening hand counts"
        assert _own_cards(eng, game, final, seat) <= drawn[seat]
        ready = list(eng.decks.ready())
        deck = _deck_cards(eng, ready[seat % len(ready)])
        assert drawn[seat] <= deck


@pytest.mark.parametrize("game", CARD_GAMES)
def test_a_card_still_in_the_deck_is_not_drawn(game):
    """"a card still in the deck is not" drawn — after a short match, the cards left in the deck
    that never reached the hand are outside the drawn set, which is smaller than the deck."""
    eng, rec, commands = _played(game, 7, 6)
    drawn = drawn_cards(eng, rec, commands)
    seen = _seen(eng, rec, commands)
    final = _final_state(eng, rec, commands)
    for seat in (0, 1):
        left = set(_deck_pile(game, final, seat, eng.view(final, seat))) - seen[seat]
        assert left, "some card of the deck never reached the hand"
        assert not left & drawn[seat]
        deck = set(deck_lists(eng, rec.options, 2)[seat])
        assert drawn[seat] < deck


@pytest.mark.parametrize("game", CARD_GAMES)
@pytest.mark.parametrize("seed", [3, 4])
def test_the_other_seats_hand_never_leaks(game, seed):
    """"the other seat's hand never leaks into this seat's set" — with two decks that differ,
    the cards only the opponent's deck holds are drawn by the opponent and never counted for
    this seat."""
    eng, rec, commands = _played(game, seed, 400, {"decks": APART[game]})
    drawn = drawn_cards(eng, rec, commands)
    decks = [set(d) for d in deck_lists(eng, rec.options, 2)]
    for seat in (0, 1):
        only_theirs = decks[1 - seat] - decks[seat]
        assert only_theirs & drawn[1 - seat], "the opponent drew cards of its own"
        assert not only_theirs & drawn[seat]
        assert drawn[seat] <= decks[seat]


@pytest.mark.parametrize("game,kept", [("logic_square", "avi"), ("maken", "character"),
                                       ("art_of_war", None), ("avalon", "avatar")])
def test_what_counts_per_game(game, kept):
    """Per game: the AVI, the character and the avatar are never drawn (they are the deck's
    identity, never in the hand); Battle Logic Square's whole IT deck counts (face down by its
    owner from the opening, usable any time); Art of War's KING, which both players put into
    their hands after the mulligans, counts by its card id, never by its hand token."""
    eng, rec, commands = _played(game, 3, 400)
    drawn = drawn_cards(eng, rec, commands)
    start = eng.view(_initial_state(eng, rec), None)
    for seat in (0, 1):
        if kept is not None:
            assert start["players"][seat][kept] not in drawn[seat]
        if game == "logic_square":
            it = set(eng.view(_initial_state(eng, rec), seat)["it_unused"])
            assert len(it) == 5 and it <= drawn[seat]
        if game == "art_of_war":
            assert start["players"][seat]["king"] in drawn[seat]
            assert not drawn[seat] & {"s", "a", "p", "g", "w", "k"}
            assert drawn[seat] <= set(start["units"][c]["id"] for c in start["units"]) | {start["players"][seat]["king"]}


def test_the_mulligan_keeps_the_first_hand_drawn():
    """"including the opening hand" — Project Maken's and Art of War's first hands count even when
    the mulligan sends them back into the deck."""
    for game in ("maken", "art_of_war"):
        eng = registry.get(game)
        rec = _record(game, 21)
        state = _initial_state(eng, rec)
        first = [_own_cards(eng, game, state, s) for s in (0, 1)]
        log = []
        for _ in range(2):
            seat = eng.to_act(state)[0]
            log.append((seat, "mulligan"))
            state = _step(eng, state, seat, "mulligan")
        rec, commands, _ = _finish(eng, rec, log, {"winners": [0], "reason": "resign", "resigned": 1})
        drawn = drawn_cards(eng, rec, commands)
        for seat in (0, 1):
            assert first[seat] <= drawn[seat]
            assert _own_cards(eng, game, state, seat) <= drawn[seat]


@pytest.mark.parametrize("game", CARD_GAMES)
def test_a_batch_entry_is_read_command_by_command(game):
    """A batch entry (several commands of one seat as one log entry, host/batch_log.py) is read
    after each of its commands: the same moves logged as batches give the same drawn sets."""
    eng, rec, commands = _played(game, 4, 400)
    merged: list[tuple[int, list[str]]] = []
    for c in commands:
        host_entry = c.command.startswith(JOIN) or c.command == RESIGN
        if merged and merged[-1][0] == c.seat and not host_entry and len(merged[-1][1]) < 4:
            merged[-1][1].append(c.command)
        else:
            merged.append((c.seat, [c.command]))
    assert any(len(cs) > 1 for _, cs in merged if not cs[0].startswith(JOIN) and cs[0] != RESIGN)
    batched = [CommandRecord(rec.id, i + 1, seat, entry(cs), 0.0) for i, (seat, cs) in enumerate(merged)]
    assert drawn_cards(eng, rec, batched) == drawn_cards(eng, rec, commands)


def test_squares_draws_nothing_and_an_unknown_game_is_refused():
    """SQUARES has no cards: every seat drew nothing, its rows have no deck; a game without
    rules of "drawn" is refused by drawn_cards (never counted silently) and gets empty rows."""
    eng, rec, commands, _ = _random_match("squares", 3, 60)
    assert drawn_cards(eng, rec, commands) == [frozenset(), frozenset()]
    rows = limited_rows(eng, rec, commands)
    assert [(r["deck"], r["drawn"], r["played"]) for r in rows] == [([], [], [])] * 2
    eng, rec, commands = _played("maken", 3, 30)
    rec.game = "plugin_game"
    with pytest.raises(ValueError):
        drawn_cards(eng, rec, commands)
    assert all(r["drawn"] == [] and r["played"] == [] for r in limited_rows(eng, rec, commands))


# ------------------------------------------------------------------------------- the rows
@pytest.mark.parametrize("game", CARD_GAMES)
def test_limited_rows_hold_the_deck_drawn_played_and_score(game):
    """The rows: per seat its deck (one id per copy, the kept parts too), the drawn set, the cards
    played publicly (the same as the match's facts) and the score; JSON-able, and each a
    SeatGame of the card figures."""
    eng, rec, commands = _played(game, 11, 400)
    rows = limited_rows(eng, rec, commands)
    assert json.loads(json.dumps(rows)) == rows
    facts = match_facts(eng, rec, commands)
    drawn = drawn_cards(eng, rec, commands)
    ready = eng.decks.ready()
    winners = rec.result["winners"]
    for seat, row in enumerate(rows):
        assert set(row) == {"seat", "deck", "drawn", "played", "score"} and row["seat"] == seat
        spec = ready[list(ready)[seat % len(ready)]]["spec"]
        copies = [cid for section in eng.decks.describe(spec)["sections"] for cid, n in section["cards"]
                  for _ in range(n)]
        assert row["deck"] == sorted(copies) and len(row["deck"]) > len(set(row["deck"]))
        assert row["drawn"] == sorted(drawn[seat])
        assert row["played"] == facts["seats"][seat]["played"]
        assert set(row["played"]) <= set(row["drawn"]) <= set(row["deck"])
        assert row["score"] == (0.5 if not winners else 1.0 if seat in winners else 0.0)
        sg = SeatGame(rec.id, seat, frozenset(row["deck"]), frozenset(row["drawn"]), frozenset(row["played"]),
                      row["score"])
        assert SeatGame.from_json(sg.to_json()) == sg


def test_deck_lists_with_copies_from_ids_specs_codes_and_joins():
    """The deck of each seat as the match's options name it — a ready-made id, a saved deck's
    spec, a deck code, none (the ready-made deck of the seat's number), a late joiner's
    ``__join__`` deck in its place — with every copy and the kept parts."""
    eng = registry.get("logic_square")
    ready = eng.decks.ready()
    blitz = ready["blitz"]["spec"]
    listed = deck_lists(eng, {"decks": ["blitz", None]}, 2)
    assert listed[0].count("ac01") == 3 and listed[0].count(blitz["avi"]) == 1
    assert set(blitz["it"]) <= set(listed[0]) and len(listed[0]) == 1 + len(blitz["resources"]) + len(blitz["it"])
    assert listed[1] == sorted([ready["aegis"]["spec"]["avi"], *ready["aegis"]["spec"]["resources"],
                                *ready["aegis"]["spec"]["it"]])
    own = eng.decks.remove(blitz, "ac01", 1)
    code = eng.decks.encode(own)
    assert deck_lists(eng, {"decks": [own, code]}, 2) == [deck_lists(eng, {"decks": [own]}, 1)[0]] * 2
    assert deck_lists(eng, {"decks": [own, code]}, 2)[0].count("ac01") == 2
    assert deck_lists(eng, {"decks": "cipher/fox"}, 2) == deck_lists(eng, {"decks": ["cipher", "fox"]}, 2)
    joined = deck_lists(eng, {"decks": ["blitz", "aegis"]}, 2, [(1, "fox"), (0, "")])
    assert joined == deck_lists(eng, {"decks": ["blitz", "fox"]}, 2)
    assert deck_lists(eng, {"decks": ["blitz", "not a code"]}, 2)[1] == []
    maken = registry.get("maken")
    row = deck_lists(maken, {"decks": ["gou_basic"]}, 1)[0]
    assert row.count(maken.decks.ready()["gou_basic"]["spec"]["character"]) == 1
    assert len(row) == 1 + sum(maken.decks.ready()["gou_basic"]["spec"]["cards"].values())


@pytest.mark.parametrize("game", ["logic_square", "maken", "art_of_war"])
def test_the_score_of_a_resignation_and_a_draw(game):
    """The score from the outcome: a resignation the host recorded (no log entry) is a win for the
    other seat (1) and a loss for the one who resigned (0); no winner is a draw, 0.5 each."""
    eng, rec, commands = _played(game, 9, 4)
    assert rec.result["reason"] == "resign"
    assert [r["score"] for r in limited_rows(eng, rec, commands)] == [0.0, 1.0]
    rec.result = {"winners": [], "reason": "draw"}
    assert [r["score"] for r in limited_rows(eng, rec, commands)] == [0.5, 0.5]


def test_avalon_resignations_and_more_seats():
    """Avalon's Sanctuary plays resignations out (``__resign__`` entries): the last player left
    scores 1, the others 0; with four seats every seat has its own drawn set, from its own view."""
    eng, rec, commands = _played("avalon", 5, 40, seats=4)
    assert any(c.command == RESIGN for c in commands)
    rows = limited_rows(eng, rec, commands)
    winners = eng.outcome(_final_state(eng, rec, commands))["winners"]
    assert len(winners) == 1
    assert [r["score"] for r in rows] == [1.0 if s in winners else 0.0 for s in range(4)]
    seen = _seen(eng, rec, commands)
    assert [set(r["drawn"]) for r in rows] == seen
    assert all(r["drawn"] for r in rows)
