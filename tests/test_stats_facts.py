"""Issue 37 (first part): the public facts of a finished match (host/stats/facts.py) and, per game,
what counts as a card played publicly (host/stats/played.py, docs/stats_played.md).

Issue 37: "for each card, the matches it was played in publicly — never what stayed hidden (a
card that stayed in a hand, face down, in a deck, in an IT deck, a secret choice never revealed
does NOT count) — and the win rate of the player who played it".  Matches are played here through
the engines (seeded random legal play, or a hand-written log whose results are known), then read
back from the record and the log as the host stores them; the secrecy test re-deals every hidden
card and gets the same facts.  Each test's docstring quotes the rule it checks."""
from __future__ import annotations

import json
import random

import pytest

from data.store import FINISHED, CommandRecord, MatchRecord
from host.replay import RESIGN, _initial_state, _step, start_edition
from host.replay_steps import history, public_steps, steps_of
from host.stats.facts import OWN, facts_of, joined, match_facts, seat_decks
from host.stats.played import IDENTITY_KEYS, RULES, identities, opening, played_cards
from rules import IllegalCommand, registry
from test_replay_secrecy import _second_history   # every hidden card re-dealt from the public view

A, B, C = 101, 102, 103
CARD_GAMES = ("logic_square", "maken", "art_of_war", "avalon")
KEYS = {"v", "game", "match", "guild", "finished_at", "edition", "cards", "league", "pairing", "practice",
        "rated", "winners", "reason", "first", "length", "seats", "opening"}


# ------------------------------------------------------------------------------- helpers
def _record(game: str, seed: int, options: dict | None = None, *, seats: int = 2, players0: int | None = None,
            meta: dict | None = None) -> MatchRecord:
    """A started match as the host stores it (``players0`` and the rules edition in ``meta``)."""
    eng = registry.get(game)
    return MatchRecord(game=game, seed=seed, seats=[A, B, C, 104][:seats], names=["Ann", "Ben", "Cy", "Di"][:seats],
                       creator=A, options=dict(options or {}), status="active", id=seed + 1000, guild_id=55,
                       meta={"players0": players0 or seats, **start_edition(eng), **(meta or {})},
                       updated_at=1_800_000_000.0)


def _finish(eng, rec: MatchRecord, log: list[tuple[int, str]], result: dict | None = None):
    """``rec`` finished after ``log`` (every entry replayed, so an illegal one fails here), with
    the engine's outcome or the host's ``result`` (a two-player resignation: no log entry, every
    other seat wins).  Returns (record, commands as the store returns them, final state)."""
    commands = [CommandRecord(rec.id, i + 1, seat, command, 0.0) for i, (seat, command) in enumerate(log)]
    state = _initial_state(eng, rec)
    for c in commands:
        state = _step(eng, state, c.seat, c.command)
    rec.status = FINISHED
    rec.result = result if result is not None else eng.outcome(state)
    assert rec.result is not None, "the match is over"
    return rec, commands, state


def _random_match(game: str, seed: int, max_moves: int = 400):
    """Seeded random legal play until the game ends, or else a resignation: the host's
    ``__resign__`` entries for a game that plays resignations out (Avalon's Sanctuary), its
    result with no log entry for the others."""
    eng = registry.get(game)
    rec = _record(game, seed)
    state = _initial_state(eng, rec)
    rng = random.Random(seed)
    log: list[tuple[int, str]] = []
    for _ in range(max_moves):
        if eng.outcome(state) is not None:
            break
        seat = rng.choice(list(eng.to_act(state)))
        command = rng.choice(eng.legal_commands(state, seat))
        log.append((seat, command))
        state = _step(eng, state, seat, command)
    result = None
    if eng.outcome(state) is None:
        if hasattr(eng, "resign"):
            for seat in range(len(rec.seats)):     # one after another until one is left
                if eng.outcome(state) is not None:
                    break
                try:
                    after = eng.resign(state, seat)
                except IllegalCommand:               # already out
                    continue
                log.append((seat, RESIGN))
                state = after
        else:
            result = {"winners": [1], "reason": "resign", "resigned": 0}
    rec, commands, state = _finish(eng, rec, log, result)
    return eng, rec, commands, state


def _deck_cards(eng, deck: str) -> set[str]:
    spec = eng.decks.ready()[deck]["spec"]
    return {cid for section in eng.decks.describe(spec)["sections"] for cid, _ in section["cards"]}


def _hand(eng, state, seat: int) -> list[str]:
    """A seat's own hand (tests only: the facts never read it)."""
    return list(eng.view(state, seat).get("hand") or [])


# ------------------------------------------------------------------------------- random matches
@pytest.mark.parametrize("game", list(registry.names()))
@pytest.mark.parametrize("seed,max_moves", [(3, 400), (4, 400), (5, 25)])
def test_the_facts_of_random_finished_matches_are_public_json_and_consistent(game, seed, max_moves):
    """"The result (JSON-able, checked by the lead's store)" — for every game, random finished
    matches (ended by the game or by a resignation) give the facts format: ``length`` the number
    of public steps, ``first`` the seat the start position says moves first, the record's winners,
    each seat's ready-made deck and its identity, and only cards of that seat's deck played."""
    eng, rec, commands, state = _random_match(game, seed, max_moves)
    facts = match_facts(eng, rec, commands)
    assert set(facts) == KEYS
    assert json.loads(json.dumps(facts)) == facts, "JSON-able"
    start = eng.view(_initial_state(eng, rec), None)
    assert facts["v"] == 1 and facts["game"] == game and facts["match"] == rec.id and facts["guild"] == 55
    assert facts["finished_at"] == rec.updated_at and facts["edition"] == rec.meta.get("edition")
    assert facts["length"] == len(public_steps(eng, rec, commands))
    assert facts["first"] == start.get("first", start.get("leader"))
    assert facts["winners"] == rec.result["winners"] and facts["reason"] == rec.result["reason"]
    assert facts["practice"] is False and facts["rated"] is True
    assert facts["cards"] is None and facts["league"] is None and facts["pairing"] is None
    assert [s["user"] for s in facts["seats"]] == rec.seats
    for seat, s in enumerate(facts["seats"]):
        assert s["played"] == sorted(set(s["played"])), "each card once, sorted"
        if game == "squares":
            assert s == {"user": rec.seats[seat], "deck": None, "identity": None, "played": []}
            continue
        assert s["deck"] == list(eng.decks.ready())[seat], "no deck chosen: the seat's default"
        cards = _deck_cards(eng, s["deck"])
        assert s["identity"] in cards
        assert s["identity"] == eng.view(state, None)["players"][seat][IDENTITY_KEYS[game]]
        assert set(s["played"]) <= cards, "a seat plays its own deck's cards"
        if game != "art_of_war":        # the KING is a card played like a unit; the others never are
            assert s["identity"] not in s["played"]
    if game == "squares":
        assert len(facts["opening"]) == 2 and all(o is None or len(o.split()) == 2 for o in facts["opening"])
    else:
        assert facts["opening"] == []
    if max_moves > 100 and game != "squares":
        assert any(s["played"] for s in facts["seats"]), "a long match plays cards"


@pytest.mark.parametrize("game", list(registry.names()))
async def test_a_match_played_through_the_host_gives_its_facts_from_the_stored_log(tmp_path, game):
    """"``commands`` its stored log (objects with ``seat`` and ``command``, in order, as
    ``store.commands(match_id)`` returns)" — a match played to its end through a real host and
    store: its ``length`` is the public move count the thread showed ("after N moves", the
    host's ``meta["shown"]``) and every seat has its facts."""
    from test_replay_steps import _played

    store, eng, rec, commands = await _played(tmp_path, game, seed=7, max_moves=120)
    try:
        facts = match_facts(eng, rec, commands)
        assert facts["length"] == rec.meta["shown"]
        assert facts["winners"] == rec.result["winners"] and facts["edition"] == rec.meta.get("edition")
        assert [s["user"] for s in facts["seats"]] == rec.seats
        assert json.loads(json.dumps(facts)) == facts
    finally:
        await store.close()


def test_every_game_has_rules_of_played_and_an_unknown_game_is_refused():
    """"For each card game, which public commands / public view changes mean a card was played" —
    every registered game has its rule (SQUARES: none played), so no game goes uncounted silently."""
    assert set(registry.names()) <= set(RULES)
    assert set(IDENTITY_KEYS) == set(CARD_GAMES)
    with pytest.raises(ValueError, match="chess"):
        played_cards("chess", {}, [], 2)


# ------------------------------------------------------------------------------- hand-made matches
LS_LOG = [
    (0, "move c2"), (0, "move c3"), (0, "discard ac01"),          # seat 0's first turn; an end-phase discard
    (1, "move c4"), (1, "use ac06"), (0, "chain br01"),            # a Br answer (no CB: the chain ends)
    (1, "use ac11"), (0, "chain ac13"), (1, "chain ac13"), (0, "chain br01"),   # a chain of three answers
    (0, "it it01 ac01 ac02"),                                      # an IT card: ac01, ac02 are its build cards
    (0, "caa br04"), (0, "end"),                                   # CAA: br04 to the trash
]


def _ls_own_deck():
    """A player's own deck, as a deck code: the ready-made ``blitz`` cards with Cipher Moth's AVI."""
    eng = registry.get("logic_square")
    spec = json.loads(json.dumps(eng.decks.ready()["blitz"]["spec"]))
    spec["avi"] = "av03"
    return eng.decks.encode(spec)


def test_battle_logic_square_counts_used_it_and_chained_cards_never_trashed_or_kept_ones():
    """Battle Logic Square: "a card used from hand, an IT card used and a card declared in a chain
    (also one that did not resolve) count; the IT card's build cards, CAA and end-phase trashes,
    the AVI and the cards left in hand do not" — and a card played by both players (ac13, each
    declared it in one chain) counts for both.  Seat 1's own deck (a deck code) is ``own``, known
    by its AVI."""
    eng = registry.get("logic_square")
    rec = _record("logic_square", 2, {"first": 0, "decks": ["blitz", _ls_own_deck()]})
    rec, commands, state = _finish(eng, rec, LS_LOG, {"winners": [0], "reason": "resign", "resigned": 1})
    facts = match_facts(eng, rec, commands)
    assert facts["seats"] == [
        {"user": A, "deck": "blitz", "identity": "av01", "played": ["ac13", "br01", "it01"]},
        {"user": B, "deck": OWN, "identity": "av03", "played": ["ac06", "ac11", "ac13"]},
    ]
    assert sorted(_hand(eng, state, 0)) == ["ac01", "ac02", "ac09", "br03"], "kept, trashed as build cards"
    assert sorted(_hand(eng, state, 1)) == ["ac02", "ac13", "br03", "sc01", "sc01"]
    assert "sc01" not in facts["seats"][1]["played"] and "br03" not in facts["seats"][0]["played"]
    assert facts["first"] == 0 and facts["length"] == len(LS_LOG) == 13, "a hidden pass is no step"
    assert facts["winners"] == [0] and facts["reason"] == "resign"


MAKEN_OWN = "mk1-tsubaki-2ts01.3ts02.3ts03.3ts04.3ts05.3ts06.3ts07.ts08.ts09.3ts10.ts11.2ts12.ts13.ts14-640c"
MAKEN_LOG = [
    (0, "ready"), (1, "ready"), (0, "draw 2"),
    (0, "set ts13"), (0, "set ts14"),                    # two support cards set face down
    (0, "fb ts02"), (1, "guard crouch ts03"),            # a face-down guard
    (0, "attack ts10"), (1, "keep"), (0, "attack ts10"), (1, "keep"), (0, "call"),
    (1, "draw 2"), (1, "set ts12"), (1, "fb ts02"),
    (0, "guard crouch ts08"), (1, "attack ts06"),
    (0, "gc"),                                           # opens ts08, the top guard card
    (0, "bonus ts10"), (0, "draw 2"), (0, "use ts14"),   # ts14 used; ts13 never is
]


def test_project_maken_counts_face_up_bets_used_supports_and_the_opened_guard_card():
    """Project Maken: "a card bet face up (first bet, attack, bonus bet), a support card used and
    the guard card a guard cancel opens count; face-down guard cards and support cards set and
    never used do not" — ts02, first bet by both players, counts for both; ts10 bet three times
    counts once."""
    eng = registry.get("maken")
    rec = _record("maken", 149, {"first": 0, "decks": ["tsubaki_basic", MAKEN_OWN]})
    rec, commands, state = _finish(eng, rec, MAKEN_LOG, {"winners": [1], "reason": "resign", "resigned": 0})
    facts = match_facts(eng, rec, commands)
    assert facts["seats"] == [
        {"user": A, "deck": "tsubaki_basic", "identity": "tsubaki", "played": ["ts02", "ts08", "ts10", "ts14"]},
        {"user": B, "deck": OWN, "identity": "tsubaki", "played": ["ts02", "ts06"]},
    ]
    assert [c for c, _ in state.d["support"][0]] == ["ts13"], "set and never used: hidden, not played"
    assert [c for c, _ in state.d["support"][1]] == ["ts12"]
    assert "ts03" not in facts["seats"][1]["played"], "a face-down guard card is not played"
    assert facts["first"] == 0 and facts["length"] == 21 and facts["winners"] == [1]


AOW_LOG = [
    (0, "keep"), (1, "keep"),
    (0, "setup s a2 k"), (1, "setup k a3 a"),            # front card, waiting card (and a kingdom card from the deck)
    (0, "attack a2 a3"), (1, "support g"), (0, "support w"), (1, "support g"),   # GUARDIAN, WIZARD, GUARDIAN again
    (0, "support a a3"), (0, "immigrate p"), (0, "end"),
    (1, "attack a3 a2"), (0, "draft a2"), (0, "draft a1"),   # conscription from the waiting area
    (1, "immigrate p"), (1, "end"),
]


def test_art_of_war_counts_cards_put_out_from_hand_and_rear_supports_not_the_kingdom_card_from_the_deck():
    """Art of War: "a card its owner puts from hand onto the battlefield, into the waiting area
    (also every rear support, the KING as one) or into the kingdom counts; the set-up's kingdom
    card (the top of the deck) does not, and a card deployed from the waiting area was counted
    when it got there" — GUARDIAN used twice counts once; ARCHER and PRIEST, played by both
    players, count for both."""
    eng = registry.get("art_of_war")
    rec = _record("art_of_war", 1, {"first": 0})
    rec, commands, state = _finish(eng, rec, AOW_LOG, {"winners": [0], "reason": "resign", "resigned": 1})
    facts = match_facts(eng, rec, commands)
    assert facts["seats"] == [
        {"user": A, "deck": "iron_wall", "identity": "king_iron",
         "played": ["archer", "king_iron", "priest", "soldier", "wizard"]},
        {"user": B, "deck": "falcon_raid", "identity": "king_falcon",
         "played": ["archer", "guardian", "king_falcon", "priest"]},
    ]
    public = eng.view(state, None)["players"]
    assert public[1]["kingdom"]["s"] == 1, "seat 1's SOLDIER came from its deck at set-up: not played"
    assert facts["first"] == 0 and facts["length"] == len(AOW_LOG) == 16


AVALON_LOG = [
    (0, "magic m01"), (0, "forge c01 l1"), (0, "forge c04 l1"), (0, "summon c05 l1"), (0, "done"), (0, "pass"),
    (1, "forge c09 l1"), (1, "summon c30 l1"), (1, "forge c30 l2"), (1, "done"),
    (1, "ranged l1 p1l1"), (0, "support s01"), (1, "support s03"),     # both supports revealed together
    (2, "__join__ tide"),                                              # a late joiner with a ready-made deck
    (1, RESIGN), (2, RESIGN),
]


def test_avalons_sanctuary_counts_forged_summoned_cast_and_revealed_supports_and_a_late_joiners_deck():
    """Avalon's Sanctuary: "a creature forged or summoned, a magic card cast and a battle support
    once revealed count; cards left in hand do not" — c30 forged and summoned counts once; the
    late joiner (``__join__ tide``) played ``tide``, known by its avatar, and nothing; the last
    one standing wins after two resignations."""
    eng = registry.get("avalon")
    rec = _record("avalon", 85, {"leader": 0}, seats=3, players0=2)
    rec, commands, state = _finish(eng, rec, AVALON_LOG)
    facts = match_facts(eng, rec, commands)
    assert facts["seats"] == [
        {"user": A, "deck": "dawn", "identity": "a1", "played": ["c01", "c04", "c05", "m01", "s01"]},
        {"user": B, "deck": "ember", "identity": "a3", "played": ["c09", "c30", "s03"]},
        {"user": C, "deck": "tide", "identity": "a2", "played": []},
    ]
    assert sorted(_hand(eng, state, 0)) == ["c02", "c05", "c07", "s06", "s06", "s06"], "kept: not played"
    assert facts["first"] == 0, "the first leader"
    assert facts["length"] == 16 and facts["winners"] == [0] and facts["reason"] == "resign"


SQUARES_LOG = [(1, "place S3 c5"), (0, "place L2 b1"), (1, "move c5 c4"), (0, "place P4 d1"), (1, "move c4 c3")]


def test_squares_opening_is_each_players_first_placement_and_nothing_is_played():
    """SQUARES has no cards: "``played`` is [] and ``opening`` holds each player's first
    placement in public notation" (the piece token and the square: ``S3 c5`` is A3 Support-up on
    c5); the option ``first`` 1 makes seat 1 the first player."""
    eng = registry.get("squares")
    rec = _record("squares", 9, {"first": 1})
    rec, commands, _ = _finish(eng, rec, SQUARES_LOG, {"winners": [1], "reason": "resign", "resigned": 0})
    facts = match_facts(eng, rec, commands)
    assert facts["opening"] == ["L2 b1", "S3 c5"]
    assert facts["first"] == 1 and facts["length"] == 5 and facts["winners"] == [1]
    assert [s["played"] for s in facts["seats"]] == [[], []]
    assert [s["deck"] for s in facts["seats"]] == [None, None]
    assert opening([{"seat": 0, "command": "place S1 a1"}], 2) == ["S1 a1", None], "a seat that never placed"


# ------------------------------------------------------------------------------- the rules, step by step
def _steps(*entries) -> list[dict]:
    return [{"seat": seat, "command": command, **({"view": view} if view is not None else {})}
            for seat, command, view in entries]


def test_battle_logic_square_reads_only_the_it_card_of_an_it_command_and_nothing_of_a_batch_of_discards():
    """"The hand cards an IT card's build condition trashes are a cost, not a play"; a batch step
    (``discard … ; discard …``, host/batch.py) is read command by command."""
    steps = _steps((0, "it it02 c2 sc01", None), (1, "discard ac01 ; discard ac02", None),
                   (1, "caa ac01 ac01 sc02", None), (1, "avi 1 c3", None), (1, "use sc03 d2 ; use ac01", None))
    assert played_cards("logic_square", {}, steps, 2) == [["it02"], ["ac01", "sc03"]]


def test_project_maken_takes_the_guard_cancel_card_from_the_public_events_and_never_a_question_mark():
    """"The guard card a guard cancel opens (``gc``: the card is named by the public view's
    events)" — and face-down cards, shown as ``?``, never count."""
    gc_view = {"last": {"command": "gc", "events": [{"t": "gc", "seat": 1, "card": "gu08"},
                                                    {"t": "judge", "kind": "guard_cancel"}]}}
    steps = _steps((0, "fb gu02 double spd", None), (1, "guard stand ? ?", None), (1, "set ?", None),
                   (1, "gc", gc_view), (1, "bonus gu05", None), (0, "keep crouch ? ?", None))
    assert played_cards("maken", {}, steps, 2) == [["gu02"], ["gu05", "gu08"]]


def test_art_of_war_counts_play_swap_and_a_kingdom_card_conscripted_but_not_deploys_from_the_waiting_area():
    """"A kingdom card its owner conscripts (``draft <type> <square>``) counts; a card deployed
    from the waiting area (``deploy``, ``exchange``, ``draft <square>``) was counted when it
    entered the waiting area"; unit tokens are named by their ids, ``k`` by the seat's KING."""
    start = {"units": {"s": {"id": "soldier"}, "a": {"id": "archer"}, "p": {"id": "priest"},
                       "g": {"id": "guardian"}, "w": {"id": "wizard"}},
             "players": [{"seat": 0, "king": "king_sage"}, {"seat": 1, "king": "king_iron"}]}
    steps = _steps((0, "play w b2", None), (0, "swap b2 g", None), (0, "deploy a1", None), (0, "exchange b2", None),
                   (1, "draft s b3", None), (1, "draft a3", None), (1, "support k p a3 b3", None),
                   (1, "attack a3 a2", None), (0, "move a2 c2", None))
    assert played_cards("art_of_war", start, steps, 2) == [["guardian", "wizard"], ["king_iron", "soldier"]]


def test_avalons_sanctuary_counts_a_cancelled_support_but_not_the_avatar_or_a_discard():
    """"A battle support once both supports are revealed (also a support an Informant
    cancelled)" counts, for the invader and the defender of that battle; the avatar as a support
    means nothing; a discard, a battle choice still secret (``support``) and a battle already
    counted do not."""
    battle = {"invader": 2, "defender": 0, "supports": ["s02", "avatar"], "cancelled": [True, False]}
    later = {"invader": 0, "defender": 2, "supports": ["c17", "s05"], "cancelled": [False, False]}
    steps = _steps((0, "discard s06", None), (2, "use c42", None), (2, "forge c01 l1 ; forge c02 l1", None),
                   (0, "support", {"last_battle": None, "battle": {"chosen": [True, False]}}),
                   (2, "support", {"last_battle": battle}), (0, "magic m03 p3l1", {"last_battle": battle}),
                   (0, "support", {"last_battle": later}), (2, "support", {"last_battle": later}))
    assert played_cards("avalon", {"last_battle": None}, steps, 3) == [["c17", "m03"], [], ["c01", "c02", "c42", "s02", "s05"]]


def test_an_identity_is_the_last_public_view_that_names_it():
    """"The id of the deck's AVI / character / KING / avatar as publicly known at the match's
    end": the last view naming a seat's avatar wins (a player who rejoined with another deck)."""
    views = [{"players": [{"seat": 0, "avatar": "a1"}, {"seat": 1, "avatar": "a3"}]},
             {"players": [{"seat": 0, "avatar": "a1"}, {"seat": 1, "avatar": "a3"}, {"seat": 2, "avatar": "a2"}]},
             {"players": [{"seat": 0, "avatar": "a1"}, {"seat": 1, "avatar": "a4"}, {"seat": 2, "avatar": "a2"}]}]
    assert identities("avalon", views, 3) == ["a1", "a4", "a2"]
    assert identities("squares", views, 2) == [None, None]


# ------------------------------------------------------------------------------- decks and the record
def test_a_seats_deck_is_a_ready_made_id_or_own_and_defaults_as_the_engine_decides():
    """"A ready-made deck id must be one of ``engine.decks.ready()``; anything else a seat played
    with is "own"" — a deck code or a spec is ``own``, a seat without a choice plays its default
    ready-made deck (``seat`` mod the number of them), a late joiner's deck is its ``__join__``
    entry's, and a rejoin that names no deck keeps the seat's deck."""
    ls = registry.get("logic_square")
    spec = ls.decks.ready()["fox"]["spec"]
    assert seat_decks(ls, {"decks": ["fox", _ls_own_deck()]}, 2) == ["fox", OWN]
    assert seat_decks(ls, {"decks": [spec, None]}, 2) == [OWN, "aegis"]
    assert seat_decks(ls, {}, 2) == ["blitz", "aegis"]
    assert seat_decks(ls, {"decks": "cipher/fox"}, 2) == ["cipher", "fox"]
    av = registry.get("avalon")
    ready = list(av.decks.ready())
    assert seat_decks(av, {"decks": ["tide"]}, 4) == ["tide", ready[1], ready[2], ready[3]]
    joins = joined([CommandRecord(1, 1, 2, "__join__ grove", 0.0), CommandRecord(1, 2, 3, "__join__", 0.0),
                    CommandRecord(1, 3, 0, "forge c01 l1", 0.0), CommandRecord(1, 4, 0, "__join__ av1-a1-4c01-0000", 0.0),
                    CommandRecord(1, 5, 1, "__join__", 0.0)])
    assert joins == [(2, "grove"), (3, ""), (0, "av1-a1-4c01-0000"), (1, "")]
    assert seat_decks(av, {"decks": ["tide", "dawn"]}, 4, joins) == [OWN, "dawn", "grove", ready[3]]
    assert seat_decks(registry.get("squares"), {}, 2) == [None, None]


@pytest.mark.parametrize("meta,practice,rated", [
    ({}, False, True),
    ({"practice": True, "rated": False, "ai": {"1": "normal"}}, True, False),
    ({"ai": {"2": "easy"}, "rated": False, "fill_ai": True}, True, False),    # the computer took a seat over
    ({"fill_ai": True}, False, True),                                           # offered, never needed
    ({"rated": False}, False, False),
])
def test_practice_and_rated_come_from_the_record(meta, practice, rated):
    """""practice": True if meta "practice", any meta "ai" seat, or "fill_ai" took a seat over;
    "rated": ``meta.get("rated", True) is not False``" — and the league, pairing, card set
    version and rules edition are the record's."""
    eng = registry.get("squares")
    rec = _record("squares", 9, {"first": 1}, meta={**meta, "league": 4, "pairing": 12,
                                                   "cards": {"id": 17, "name": "x", "version": 1, "digest": "0" * 64}})
    rec, commands, _ = _finish(eng, rec, SQUARES_LOG[:2], {"winners": [], "reason": "abort"})
    facts = match_facts(eng, rec, commands)
    assert (facts["practice"], facts["rated"]) == (practice, rated)
    assert (facts["league"], facts["pairing"], facts["cards"]) == (4, 12, 17)
    assert facts["winners"] == [] and facts["reason"] == "abort"


# ------------------------------------------------------------------------------- secrecy
@pytest.mark.parametrize("game", CARD_GAMES)
@pytest.mark.parametrize("seed", [5, 8, 13])
def test_re_dealing_every_hidden_card_gives_the_same_facts(game, seed):
    """"The project's secrecy tests re-deal hidden cards and expect identical public facts": a
    second history with the same public views but other hands, decks and face-down cards
    (``engine.determinize(public view, None, rng)``) gives exactly the same facts."""
    eng, rec, commands, _ = _random_match(game, seed)
    played = list(history(eng, rec, commands))
    other, states, redealt = _second_history(eng, played, random.Random(seed))
    differ = sum(eng.view(a, s) != eng.view(b, s) for a, b in zip(states, redealt) for s in range(len(rec.seats)))
    assert differ >= len(states) // 2, "the second history really holds other hidden cards"
    joins = joined(commands)
    facts = facts_of(eng, rec, steps_of(eng, rec, played), eng.view(states[0], None), joins)
    again = facts_of(eng, rec, steps_of(eng, rec, other), eng.view(redealt[0], None), joins)
    assert facts == again == match_facts(eng, rec, commands)
    assert any(s["played"] for s in facts["seats"])


@pytest.mark.parametrize("game,log,options,seed,seats", [
    ("logic_square", LS_LOG, {"first": 0, "decks": ["blitz", None]}, 2, 2),
    ("maken", MAKEN_LOG, {"first": 0, "decks": ["tsubaki_basic", MAKEN_OWN]}, 149, 2),
    ("avalon", AVALON_LOG, {"leader": 0}, 85, 3),
])
def test_re_dealing_the_hand_made_matches_keeps_their_known_played_lists(game, log, options, seed, seats):
    """The same secrecy law on the hand-made matches, whose ``played`` lists are known: hands
    that held other cards (sc01 and br03 kept by Battle Logic Square's seat 1, Project Maken's
    set support cards, Avalon's kept cards) change nothing."""
    eng = registry.get(game)
    if game == "logic_square":
        options = {**options, "decks": ["blitz", _ls_own_deck()]}
    rec = _record(game, seed, options, seats=seats, players0=2)
    result = None if game == "avalon" else {"winners": [0], "reason": "resign", "resigned": 1}
    rec, commands, _ = _finish(eng, rec, log, result)
    played = list(history(eng, rec, commands))
    other, _, redealt = _second_history(eng, played, random.Random(1))
    again = facts_of(eng, rec, steps_of(eng, rec, other), eng.view(redealt[0], None), joined(commands))
    assert again == match_facts(eng, rec, commands)


def test_a_game_without_rules_of_played_is_counted_without_cards():
    """A game added without rules of "played" (a plugin's game, the end-to-end tests' own) is
    still counted — who played, who won, first player, length — with no card played: its end
    never fails the finished-match hook."""
    eng = registry.get("squares")
    rec = _record("squares", 9, {"first": 1})
    rec, commands, _ = _finish(eng, rec, SQUARES_LOG, {"winners": [1], "reason": "resign", "resigned": 0})
    rec.game = "plugin_duel"
    facts = match_facts(eng, rec, commands)
    assert [s["played"] for s in facts["seats"]] == [[], []] and facts["winners"] == [1] and facts["length"] == 5
