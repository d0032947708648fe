"""Elimination brackets for tournaments (host/events/bracket.py): pure structure + results.

"Standard seeding order (1 v 8, 4 v 5, 2 v 7, 3 v 6 for eight), byes to the top seeds up to the
next power of two; double elimination sends a first loss to the losers' bracket, and a grand
final the losers'-bracket winner wins is followed by a reset match when the event uses resets."
Everything but the structure is derived from the results every time, so a corrected result
recomputes what follows and a later result that no longer fits is reported invalid.
"""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from host.events import bracket

TITLES = {"winners": "Winners", "losers": "Losers", "final": "Final", "round": "Round {n}",
          "semifinal": "Semifinal", "grand_final": "Grand final", "reset": "Reset"}


def _users(n: int) -> list[int]:
    """n user ids, best seed first (101 is seed 1)."""
    return [100 + i for i in range(1, n + 1)]


def _play(structure: dict, pick, results: dict | None = None, check=None) -> dict:
    """Plays every ready match, in order of play, until none is left; ``pick(match_id,
    players)`` names the winner.  The matches ready at once are played together (their players
    are known, and no result of one changes another's), then the state is read again;
    ``check(state)`` runs on every state read, before its results."""
    results = dict(results or {})
    while True:
        st = bracket.state(structure, results)
        if check:
            check(st)
        if not st["ready"]:
            return results
        for mid in st["ready"]:
            results[mid] = {"winner": pick(mid, st["matches"][mid]["players"]), "score": "2–1"}


def _better(seeds: list[int]):
    """A pick: the better seed always wins."""
    rank = {u: i for i, u in enumerate(seeds)}
    return lambda mid, players: min(players, key=rank.__getitem__)


def _losses(st: dict) -> Counter:
    return Counter(m["loser"] for m in st["matches"].values() if m["status"] == "done")


# -- seeding --------------------------------------------------------------------------------------

def test_seed_order_standard():
    """"Standard seeding order (1 v 8, 4 v 5, 2 v 7, 3 v 6 for eight)": seed s meets size + 1 - s
    first, and the top two seeds can only meet in the final."""
    assert bracket.seed_order(2) == [1, 2]
    assert bracket.seed_order(4) == [1, 4, 2, 3]
    assert bracket.seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert bracket.seed_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
    for size in (2, 4, 8, 16, 32, 64, 128):
        order = bracket.seed_order(size)
        assert sorted(order) == list(range(1, size + 1))
        assert all(order[i] + order[i + 1] == size + 1 for i in range(0, size, 2))
        assert order.index(2) >= size // 2          # 1 and 2 in opposite halves
    with pytest.raises(ValueError):
        bracket.seed_order(6)


@pytest.mark.parametrize("count", [5, 6, 7, 12])
def test_byes_go_to_top_seeds(count):
    """"Byes to the top seeds up to the next power of two": with n entrants in a bracket of size,
    seeds 1..size-n meet a bye, which is decided at once (the seed advances, no game)."""
    users = _users(count)
    structure = bracket.build(users)
    size = structure["size"]
    assert size == {5: 8, 6: 8, 7: 8, 12: 16}[count]
    first = [m for mid, m in structure["matches"].items() if mid.startswith("W1-")]
    assert len(first) == size // 2
    byes = sorted(m["slots"][0]["seed"] for m in first if {"bye": True} in m["slots"])
    assert byes == list(range(1, size - count + 1))
    st = bracket.state(structure, {})
    for mid, m in st["matches"].items():
        if mid.startswith("W1-") and m["status"] == "bye":
            assert m["winner"] in users[: size - count] and m["players"][1] is None
    # The real first-round games are ready, and so is a second-round game between two bye winners.
    first_ready = [mid for mid in st["ready"] if mid.startswith("W1-")]
    assert len(first_ready) == count - size // 2
    assert all(None not in st["matches"][mid]["players"] for mid in st["ready"])
    second = [mid for mid in st["ready"] if mid.startswith("W2-")]
    assert all(set(st["matches"][mid]["players"]) <= set(users[: size - count]) for mid in second)
    assert len(second) == {5: 1, 6: 0, 7: 0, 12: 0}[count]


def test_seeding_by_standings_rating_random():
    """"by="standings" uses ranked (the Swiss standings, best first) filtered to the entrants;
    "rating" sorts by ratings (higher first, ties by entrants order); "random" shuffles with
    random.Random(seed)" — the same seed, the same bracket."""
    entrants = [1, 2, 3, 4, 5]
    assert bracket.seeding(entrants, by="standings", ranked=[9, 4, 2, 8, 5, 1, 3]) == [4, 2, 5, 1, 3]
    assert bracket.seeding(entrants, by="standings", ranked=[3, 1]) == [3, 1, 2, 4, 5]   # unranked last
    ratings = {1: 1500.0, 2: 1600.0, 3: 1500.0, 4: 1700.0, 5: 1500.0}
    assert bracket.seeding(entrants, by="rating", ratings=ratings) == [4, 2, 1, 3, 5]
    assert bracket.seeding([5, 3, 1], by="rating", ratings=ratings) == [5, 3, 1]      # ties: entrants order
    shuffled = bracket.seeding(list(range(20)), by="random", seed="event-7")
    assert shuffled == bracket.seeding(list(range(20)), by="random", seed="event-7")
    assert sorted(shuffled) == list(range(20)) and shuffled != list(range(20))
    assert shuffled != bracket.seeding(list(range(20)), by="random", seed="event-8")
    expected = list(range(20))
    random.Random("event-7").shuffle(expected)
    assert shuffled == expected
    with pytest.raises(ValueError):
        bracket.seeding(entrants, by="standings")
    with pytest.raises(ValueError):
        bracket.seeding(entrants, by="luck")


def test_sizes_are_checked():
    """"Support 2..128 entrants for single, 3..64 for double (ValueError otherwise, with a
    message)"; an entrant seeded twice is refused too."""
    bracket.build(_users(2))
    bracket.build(_users(128))
    bracket.build(_users(3), kind="double")
    bracket.build(_users(64), kind="double")
    for users, kind in ((_users(1), "single"), (_users(129), "single"), (_users(2), "double"),
                        (_users(65), "double"), (_users(4), "triple"), ([1, 2, 2], "single")):
        with pytest.raises(ValueError, match=r"\w"):
            bracket.build(users, kind=kind)


# -- single elimination ---------------------------------------------------------------------------

def test_single_elimination_of_eight_to_the_end():
    """"Placings: 1st, 2nd, 3rd–4th shared, 5th–8th shared in single elimination"; the first
    round is 1 v 8, 4 v 5, 2 v 7, 3 v 6 and the winners meet in order."""
    users = _users(8)
    structure = bracket.build(users)
    st = bracket.state(structure, {})
    assert st["ready"] == ["W1-1", "W1-2", "W1-3", "W1-4"]
    assert [st["matches"][f"W1-{i}"]["players"] for i in range(1, 5)] == [
        [101, 108], [104, 105], [102, 107], [103, 106]]
    assert st["matches"]["W2-1"]["status"] == "waiting" and st["champion"] is None
    upset = {"W1-2": 105, "W2-2": 103}                     # seed 5 and seed 3 win their games
    results = _play(structure, lambda mid, p: upset.get(mid, min(p)))
    st = bracket.state(structure, results)
    assert len(results) == 7 and st["ready"] == [] and st["invalid"] == []
    assert st["matches"]["W2-1"]["players"] == [101, 105]
    assert st["matches"]["W3-1"]["players"] == [101, 103]
    assert st["matches"]["W3-1"]["score"] == "2–1"
    assert st["champion"] == 101
    assert st["placings"] == [[101], [103], [102, 105], [104, 106, 107, 108]]


def test_single_elimination_every_size_to_the_end():
    """One loss and a player is out: n - 1 games for n entrants (byes are no games), every
    player but the champion loses exactly once, and the placings hold every entrant."""
    rng = random.Random(20261201)
    for count in range(2, 129):
        users = _users(count)
        structure = bracket.build(users)
        results = _play(structure, lambda mid, p: rng.choice(p))
        st = bracket.state(structure, results)
        losses = _losses(st)
        assert len(results) == count - 1
        assert st["champion"] is not None and st["champion"] not in losses
        assert set(losses) == set(users) - {st["champion"]} and set(losses.values()) == {1}
        assert sorted(u for group in st["placings"] for u in group) == users
        assert st["placings"][0] == [st["champion"]]


def test_correction_invalidates_later_results():
    """"An organiser's correction of an earlier result recomputes everything after it (a later
    result that no longer fits — a match whose players changed — is reported as invalidated,
    not silently kept)"."""
    users = _users(8)
    structure = bracket.build(users)
    results = {"W1-1": {"winner": 101, "score": "2–0"}, "W1-2": {"winner": 104, "score": "2–1"},
               "W2-1": {"winner": 104, "score": "2–1"}}
    st = bracket.state(structure, results)
    assert st["matches"]["W2-1"]["status"] == "done" and st["invalid"] == []
    results["W1-2"] = {"winner": 105, "score": "1–2"}    # the quarterfinal corrected
    st = bracket.state(structure, results)
    assert st["invalid"] == ["W2-1"]
    semi = st["matches"]["W2-1"]
    assert semi["players"] == [101, 105] and semi["status"] == "ready" and semi["winner"] is None
    assert "W2-1" in st["ready"] and st["matches"]["W3-1"]["players"][0] is None
    # A result naming the opponent it was played against is invalidated even when its winner still plays.
    results["W2-1"] = {"winner": 101, "loser": 104, "score": "2–0"}
    assert bracket.state(structure, results)["invalid"] == ["W2-1"]
    results["W2-1"] = {"winner": 101, "loser": 105, "score": "2–0"}
    st = bracket.state(structure, results)
    assert st["invalid"] == [] and st["matches"]["W3-1"]["players"][0] == 101
    # Taking the quarterfinal result away leaves the semifinal waiting, its stored result invalid.
    del results["W1-2"]
    st = bracket.state(structure, results)
    assert st["matches"]["W2-1"]["status"] == "waiting" and st["invalid"] == ["W2-1"]
    # Results for a bye or an unknown match are never applied.
    st = bracket.state(bracket.build(_users(6)), {"W1-1": {"winner": 101}, "X9": {"winner": 1}})
    assert st["matches"]["W1-1"]["status"] == "bye" and st["invalid"] == ["W1-1", "X9"]


# -- double elimination ---------------------------------------------------------------------------

def test_double_elimination_layout_of_eight():
    """"Losers' round 1 takes the losers of winners' round 1 paired; later losers' rounds alternate
    drop-in rounds — losers of the next winners' round enter, in an order chosen per bracket size
    and round to delay rematches — and internal rounds"; the grand final meets the two bracket
    champions.  32 players: reverse_half_shift, reverse, natural (tests/test_bracket_dropins.py
    measures the orders)."""
    m = bracket.build(_users(8), kind="double")["matches"]
    assert m["L1-1"]["slots"] == [{"loser": "W1-1"}, {"loser": "W1-2"}]
    assert m["L1-2"]["slots"] == [{"loser": "W1-3"}, {"loser": "W1-4"}]
    assert m["L2-1"]["slots"] == [{"loser": "W2-2"}, {"winner": "L1-1"}]     # crossed
    assert m["L2-2"]["slots"] == [{"loser": "W2-1"}, {"winner": "L1-2"}]
    assert m["L3-1"]["slots"] == [{"winner": "L2-1"}, {"winner": "L2-2"}]
    assert m["L4-1"]["slots"] == [{"loser": "W3-1"}, {"winner": "L3-1"}]
    assert m["GF"]["slots"] == m["GF2"]["slots"] == [{"winner": "W3-1"}, {"winner": "L4-1"}]
    assert len(m) == 7 + 6 + 2
    m32 = bracket.build(_users(32), kind="double")["matches"]
    assert [m32[f"L2-{i}"]["slots"][0]["loser"] for i in range(1, 9)] == \
        [f"W2-{i}" for i in (4, 3, 2, 1, 8, 7, 6, 5)]
    assert [m32[f"L4-{i}"]["slots"][0]["loser"] for i in (1, 2, 3, 4)] == ["W3-4", "W3-3", "W3-2", "W3-1"]
    assert [m32[f"L6-{i}"]["slots"][0]["loser"] for i in (1, 2)] == ["W4-1", "W4-2"]
    assert bracket.rounds(bracket.build(_users(8), kind="double", reset=False))[2] == {"key": "final",
                                                                                       "rounds": [["GF"]]}


def _to_grand_final(structure: dict) -> tuple[dict, int, int]:
    """Plays a double elimination of 6 up to its grand final (better seed wins, except that seed 2
    loses W2-2 to seed 3 and comes back through the losers' bracket)."""
    users = structure["seeds"]
    better = _better(users)
    results = {}
    while True:
        st = bracket.state(structure, results)
        ready = [mid for mid in st["ready"] if mid != "GF"]
        if not ready:
            break
        mid = ready[0]
        players = st["matches"][mid]["players"]
        results[mid] = {"winner": 103 if mid == "W2-2" else better(mid, players), "score": "2–0"}
    st = bracket.state(structure, results)
    assert st["ready"] == ["GF"] and st["champion"] is None
    winners_side, losers_side = st["matches"]["GF"]["players"]
    return results, winners_side, losers_side


def test_double_elimination_of_six_with_reset():
    """"A grand final the losers'-bracket winner wins is followed by a reset match when the event
    uses resets"; when the winners'-bracket champion wins GF, GF decides and GF2 is not played."""
    users = _users(6)
    structure = bracket.build(users, kind="double")
    st = bracket.state(structure, {})
    assert st["ready"] == ["W1-2", "W1-4"]                 # seeds 1 and 2 have byes
    assert st["matches"]["L1-1"]["status"] == "waiting"
    results, top, bottom = _to_grand_final(structure)
    assert (top, bottom) == (101, 102)
    st = bracket.state(structure, results)
    # The losers of the bye matches are nobody: their losers' matches were walkovers.
    assert st["matches"]["L1-1"]["status"] == st["matches"]["L1-2"]["status"] == "bye"
    assert st["matches"]["L1-1"]["winner"] == 105 and st["matches"]["L1-2"]["winner"] == 106
    assert st["matches"]["GF2"]["status"] == "waiting"
    # The losers'-bracket champion wins GF: both have lost once, the reset is played.
    reset = dict(results, GF={"winner": bottom, "score": "2–1"})
    st = bracket.state(structure, reset)
    assert st["ready"] == ["GF2"] and st["matches"]["GF2"]["players"] == [top, bottom]
    assert st["champion"] is None and sorted(st["placings"][0]) == [top, bottom]
    for winner, loser in ((top, bottom), (bottom, top)):
        st = bracket.state(structure, dict(reset, GF2={"winner": winner, "score": "2–0"}))
        assert st["champion"] == winner and st["ready"] == []
        assert st["placings"][:2] == [[winner], [loser]]
        assert _losses(st)[loser] == 2
    # The winners'-bracket champion wins GF: it decides.
    st = bracket.state(structure, dict(results, GF={"winner": top, "score": "2–0"}))
    assert st["champion"] == top and st["ready"] == []
    assert st["matches"]["GF2"]["status"] == "bye" and st["matches"]["GF2"]["players"] == [None, None]
    assert st["placings"] == [[101], [102], [103], [104], [105, 106]]
    st = bracket.state(structure, dict(results, GF={"winner": top}, GF2={"winner": top}))
    assert st["invalid"] == ["GF2"] and st["champion"] == top


def test_double_elimination_without_reset_ends_at_grand_final():
    """reset=False: "otherwise GF decides" — even when the losers'-bracket champion wins it."""
    structure = bracket.build(_users(6), kind="double", reset=False)
    assert "GF2" not in structure["matches"] and structure["reset"] is False
    results, top, bottom = _to_grand_final(structure)
    st = bracket.state(structure, dict(results, GF={"winner": bottom, "score": "2–1"}))
    assert st["champion"] == bottom and st["ready"] == []
    assert st["placings"][:2] == [[bottom], [top]]


@pytest.mark.parametrize("reset", [True, False])
def test_double_elimination_two_losses_and_out(reset):
    """"Every entrant in a double elimination is eliminated exactly after two losses": over random
    results for 3..32 entrants, nobody plays after a second loss, every non-champion ends with
    exactly 2 losses and the champion with at most 1 (with reset=False the runner-up who came
    from the winners' bracket and lost GF has 1)."""
    rng = random.Random(4242)
    for count in range(3, 33):
        users = _users(count)
        structure = bracket.build(users, kind="double", reset=reset)

        def never_after_two(st):
            losses = _losses(st)
            for mid in st["ready"]:
                assert all(losses[p] < 2 for p in st["matches"][mid]["players"]), (count, mid)

        for _ in range(3):
            results = _play(structure, lambda mid, p: rng.choice(p), check=never_after_two)
            st = bracket.state(structure, results)
            losses = _losses(st)
            champion = st["champion"]
            assert champion in users and losses[champion] <= 1
            others = [u for u in users if u != champion]
            runner_up = st["placings"][1][0]
            if reset:
                assert all(losses[u] == 2 for u in others), count
            else:
                assert all(losses[u] == 2 for u in others if u != runner_up), count
                assert losses[runner_up] in (1, 2)
            assert len(results) == sum(losses.values()) == 2 * count - 2 + (st["matches"].get("GF2", {})
                                                                                 .get("status") == "done")
            assert sorted(u for group in st["placings"] for u in group) == users
            assert st["placings"][0] == [champion] and st["invalid"] == []


@pytest.mark.parametrize("kind", ["single", "double"])
def test_nobody_in_two_ready_matches(kind):
    """No player appears in two ready matches at once, and every ready match has two players."""
    rng = random.Random(7)

    def check(st):
        seen = [p for mid in st["ready"] for p in st["matches"][mid]["players"]]
        assert None not in seen and len(seen) == len(set(seen))

    for count in (3, 5, 8, 11, 16, 23, 32):
        _play(bracket.build(_users(count), kind=kind), lambda mid, p: rng.choice(p), check=check)


def test_structure_survives_json():
    """The host stores an event as JSON (key order not guaranteed): state from a round-tripped,
    key-shuffled structure and results is the same."""
    structure = bracket.build(_users(11), kind="double")
    rng = random.Random(3)
    results = _play(structure, lambda mid, p: rng.choice(p))
    items = list(json.loads(json.dumps(structure))["matches"].items())
    rng.shuffle(items)
    stored = dict(json.loads(json.dumps(structure)), matches=dict(items))
    again = bracket.state(stored, json.loads(json.dumps(results)))
    assert again == bracket.state(structure, results)
    assert bracket.rounds(stored) == bracket.rounds(structure)
    assert bracket.next_matches(structure, {}) == bracket.state(structure, {})["ready"]


# -- view -----------------------------------------------------------------------------------------

def _check_view_shape(v: dict) -> None:
    for section in v["sections"]:
        assert set(section) == {"key", "title", "rounds"}
        for row in section["rounds"]:
            assert set(row) == {"title", "matches"} and isinstance(row["title"], str)
            for match in row["matches"]:
                assert set(match) == {"id", "status", "slots"} and len(match["slots"]) == 2
                assert match["status"] in ("done", "ready", "waiting", "bye")
                for slot in match["slots"]:
                    assert set(slot) == {"name", "seed", "won", "score"}
    json.dumps(v)


def test_view_single_of_sixteen():
    """view(): the JSON-able input of the bracket picture; round titles from titles, the last two
    winners' rounds of a single elimination titled final and semifinal."""
    users = _users(16)
    names = {u: f"P{u - 100}" for u in users}
    structure = bracket.build(users)
    results = {"W1-1": {"winner": 101, "score": "2–0"}}
    v = bracket.view(structure, results, names, TITLES)
    _check_view_shape(v)
    assert v["kind"] == "single" and [s["key"] for s in v["sections"]] == ["winners"]
    rows = v["sections"][0]["rounds"]
    assert v["sections"][0]["title"] == "Winners"
    assert [r["title"] for r in rows] == ["Round 1", "Round 2", "Semifinal", "Final"]
    assert [len(r["matches"]) for r in rows] == [8, 4, 2, 1]
    first = rows[0]["matches"][0]
    assert first == {"id": "W1-1", "status": "done", "slots": [
        {"name": "P1", "seed": 1, "won": True, "score": "2"},
        {"name": "P16", "seed": 16, "won": False, "score": "0"}]}
    assert rows[0]["matches"][1]["status"] == "ready"
    assert rows[1]["matches"][0]["slots"] == [{"name": "P1", "seed": 1, "won": False, "score": None},
                                              {"name": None, "seed": None, "won": False, "score": None}]
    assert rows[1]["matches"][0]["status"] == "waiting"


def test_view_double_of_sixteen():
    """view() of a double elimination: winners, losers and final sections, the reset round kept
    until it is known not to be played."""
    users = _users(16)
    names = {u: f"P{u - 100}" for u in users}
    structure = bracket.build(users, kind="double")
    v = bracket.view(structure, {}, names, TITLES)
    _check_view_shape(v)
    assert v["kind"] == "double"
    assert [(s["key"], s["title"]) for s in v["sections"]] == [("winners", "Winners"), ("losers", "Losers"),
                                                             ("final", "Final")]
    winners, losers, final = (s["rounds"] for s in v["sections"])
    assert [r["title"] for r in winners] == ["Round 1", "Round 2", "Round 3", "Round 4"]
    assert [len(r["matches"]) for r in winners] == [8, 4, 2, 1]
    assert [r["title"] for r in losers] == [f"Round {n}" for n in range(1, 7)]
    assert [len(r["matches"]) for r in losers] == [4, 4, 2, 2, 1, 1]
    assert [(r["title"], [m["id"] for m in r["matches"]]) for r in final] == [("Grand final", ["GF"]),
                                                                             ("Reset", ["GF2"])]
    better = _better(users)
    results = _play(structure, better)
    v = bracket.view(structure, results, names, TITLES)
    _check_view_shape(v)
    final = v["sections"][2]["rounds"]
    assert [r["title"] for r in final] == ["Grand final"]
    assert final[0]["matches"][0]["slots"][0] == {"name": "P1", "seed": 1, "won": True, "score": "2"}
    assert all(m["status"] == "done" for s in v["sections"] for r in s["rounds"] for m in r["matches"])
