"""Issue 34, second slice, pure: event formats with stages (host/events/stages.py, called from
host/leagues.py) — a Swiss into a top cut, single and double elimination of everyone, the
defaults of MTR Appendix E for new leagues (old ones unchanged), the cut's tie-break draw on the
trail, placings in the final standings, corrections that void later pairings, and no draws in
elimination."""
from __future__ import annotations

import copy
import random

import pytest

from host import leagues as L
from host.events import bracket as B
from host.events import scoring, stages, trail

ORG = 999


def _league(n: int, fmt: str = "swiss", rounds: int | None = None, **kw) -> dict:
    d = L.new_league(name="Cup", game="maken", fmt=fmt, rounds=rounds, deadline_hours=0, rated=True,
                     signup_hours=None, organiser=ORG, channel_id=None, season=1, now=0.0, **kw)
    for p in range(1, n + 1):
        L.join(d, "signup", p, f"P{p}", 0.0)
    return d


def _open(d: dict) -> list[dict]:
    return [p for p in L.round_pairings(d) if p["result"] is None and p["b"] is not None]


def _decide(d: dict, p: dict, outcome: str, status: str = "running") -> tuple[str, list[dict], list[dict]]:
    """An organiser's result and what follows (like host.records does), with the trail entries
    of that write."""
    before = copy.deepcopy(d)
    L.report(d, status, p["id"], ORG, outcome, organiser=True)
    state, paired = L.advance(d, 0.0)
    entries = trail.changes(before, d, status, "finished" if state == "finished" else status, at=0.0,
                            by=ORG, act="decide", target=p["id"])
    return state, paired, entries


def _play_out(d: dict, pick) -> tuple[list[dict], list[dict]]:
    """Decide every open pairing with ``pick(pairing) -> "a"|"b"|"draw"`` until the event ends;
    returns every pairing made on the way and every trail entry."""
    made, entries = [], []
    for _ in range(500):
        todo = _open(d)
        if not todo:
            break
        state, paired, told = _decide(d, todo[0], pick(todo[0]))
        made += paired
        entries += told
        if state == "finished":
            return made, entries
    raise AssertionError("the event did not finish")


# ---------------------------------------------------------------------------- a Swiss into a top 4
def _swiss_with_a_tie_at_the_cut(seed_range=range(400)) -> tuple[int, dict, list[dict]]:
    """Random results (wins, losses and draws) in a 9-player Swiss of 3 rounds into a top 4,
    until a field ends with an exact tie across the cut line."""
    for seed in seed_range:
        d = _league(9, rounds=3, cut=4)
        L.start(d, "signup", 0.0, key=77)
        rng = random.Random(seed)
        entries: list[dict] = []
        while d.get("bracket") is None:
            state, paired, told = _decide(d, _open(d)[0], rng.choice(["a", "b", "draw"]))
            entries += told
        if d["bracket"]["draw"]:
            return seed, d, entries
    raise AssertionError("no tie at the cut line in any field tried")


def test_a_9_player_swiss_of_3_rounds_into_a_top_4_breaks_a_tie_at_the_cut_line_by_a_recorded_draw():
    """"When the last Swiss round is complete and cut > 0: take the top cut active players of the
    standings (scoring.cut with a seed derived from the league id and stored), record the
    tie-break draw in the league so the trail shows it, build the bracket … seeded by the Swiss
    standings"; "round numbers continuing after the Swiss rounds"; "the final standings … list
    the bracket placings first … and then the Swiss standings of the rest"."""
    seed, d, entries = _swiss_with_a_tie_at_the_cut()
    assert d["draw_seed"] == "77" and d["rounds"] == 3 and d["cut"] == 4
    b = d["bracket"]
    assert b["stage"] == "cut" and b["kind"] == "single" and b["base"] == 3
    # the cut is the top 4 of the Swiss table; the tie across the line drawn from the stored seed
    swiss = L.table(d)
    chosen, draw = scoring.cut(swiss, 4, "77-cut")
    assert b["draw"] == draw and draw["seed"] == "77-cut"
    tied = [r.user_id for r in swiss if r.place == draw["place"]]
    assert draw["tied"] == tied and sorted(draw["drawn"]) == sorted(tied)
    above = [r.user_id for r in swiss if r.place < draw["place"]]
    assert b["structure"]["seeds"] == [r.user_id for r in chosen] == above + draw["drawn"][:4 - len(above)]
    shuffled = list(tied)
    random.Random("77-cut").shuffle(shuffled)
    assert draw["drawn"] == shuffled, "the draw is the stored seed's, so it can be redone"
    # the trail tells the cut and the draw, in words
    names = stages.names(d)
    whats = [e["what"] for e in entries]
    assert "events.bracket.trail.cut" in whats and "events.bracket.trail.draw" in whats
    told = trail.line(next(e for e in entries if e["what"] == "events.bracket.trail.draw"), names, "en")
    assert f"Tie at place {draw['place']}" in told and "77-cut" in told and names[tied[0]] in told
    assert "抽選" in trail.line(next(e for e in entries if e["what"] == "events.bracket.trail.draw"), names, "ja")
    # the semifinals: round 4, seeds 1 v 4 and 2 v 3, each pinging a real pairing
    semis = [p for p in d["pairings"] if p.get("stage") == "cut"]
    seeds = b["structure"]["seeds"]
    assert [(p["round"], p["bracket"], p["a"], p["b"]) for p in semis] == [
        (4, "W1-1", seeds[0], seeds[3]), (4, "W1-2", seeds[1], seeds[2])]
    assert L.total_rounds(d) == 5
    # the cut's matches do not change the Swiss table while the bracket runs
    rng = random.Random(seed)
    _decide(d, semis[0], rng.choice("ab"))
    assert [(r.user_id, r.points) for r in L.table(d)] == [(r.user_id, r.points) for r in swiss]
    made, _ = _play_out(d, lambda p: "b")
    [final] = made
    assert (final["round"], final["bracket"]) == (5, "W2-1")
    champion = final["b"]
    assert stages.champion(d) == champion
    rows = L.table(d)
    st = stages.state(d)
    assert [r.user_id for r in rows[:4]] == [u for g in st["placings"] for u in g]
    assert [r.place for r in rows[:4]] == [1, 2, 3, 3]
    rest = [r.user_id for r in swiss if r.user_id not in seeds]
    assert [r.user_id for r in rows[4:]] == rest, "then the Swiss standings of the rest"
    assert [r.place for r in rows[4:]][0] == 5


# ---------------------------------------------------------------------------- defaults
@pytest.mark.parametrize("n, rounds, cut", [(9, 5, 4), (16, 5, 4), (17, 5, 8), (32, 5, 8), (40, 6, 8), (100, 7, 8)])
def test_new_swiss_leagues_take_mtr_appendix_e_rounds_and_cut_by_player_count(n, rounds, cut):
    """"A Swiss whose organiser gave no rounds gets, at the start, swiss_defaults(n) rounds and
    cut (e.g. 17–32 players: 5 rounds, top 8; 9–16: 5 rounds, top 4)"."""
    d = _league(n)
    assert d["events"] == 1 and d["cut"] is None and d["seeding"] == "rating" and d["reset"] is True
    L.start(d, "signup", 0.0, key=1)
    assert (d["rounds"], d["cut"]) == (rounds, cut) == scoring.swiss_defaults(n)
    assert d["bracket"] is None and d["round"] == 1
    assert L.total_rounds(d) == rounds + (cut - 1).bit_length()


def test_the_organiser_overrides_rounds_and_cut():
    """"Unless the organiser set cut explicitly … The organiser may override both (rounds and
    cut options)": an explicit cut (none too) keeps Appendix E's rounds; given rounds keep the
    cut chosen, or none; a field of 8 or fewer with a cut chosen plays a Swiss into that cut."""
    d = _league(20, cut=0)
    L.start(d, "signup", 0.0)
    assert (d["rounds"], d["cut"]) == (5, 0)
    d = _league(20, cut=2)
    L.start(d, "signup", 0.0)
    assert (d["rounds"], d["cut"]) == (5, 2)
    d = _league(20, rounds=3)
    L.start(d, "signup", 0.0)
    assert (d["rounds"], d["cut"]) == (3, 0)
    d = _league(12, rounds=2, cut=8)
    L.start(d, "signup", 0.0)
    assert (d["rounds"], d["cut"]) == (2, 8)
    d = _league(6, cut=4)
    L.start(d, "signup", 0.0)
    assert (d["rounds"], d["cut"]) == (3, 4) and d["bracket"] is None
    with pytest.raises(L.LeagueError) as e:
        _league(6, cut=3)
    assert e.value.key == "events.bracket.err.cut"


@pytest.mark.parametrize("n", [6, 20])
def test_a_league_stored_before_events_had_stages_keeps_its_rounds_and_has_no_cut(n):
    """"Mark new leagues with a key, e.g. "events": 1, so existing ones keep today's behaviour:
    their rounds default stays default_swiss_rounds and no cut"."""
    d = _league(n)
    for key in ("events", "cut", "seeding", "reset", "bracket"):
        del d[key]
    L.start(d, "signup", 0.0)
    assert d["rounds"] == stages.default_swiss_rounds(n) and "bracket" not in d
    _play_out(d, lambda p: "a")
    assert d["round"] == d["rounds"] and not d.get("bracket")
    assert all(not p.get("stage") for p in d["pairings"])


# ---------------------------------------------------------------------------- single elimination
def test_a_field_of_8_goes_straight_to_single_elimination_seeded_by_rating():
    """"A field of 8 or fewer (swiss_defaults gives (0, 0)) plays single elimination straight
    away (seeded by rating)": standard bracket order 1 v 8, 4 v 5, 2 v 7, 3 v 6; unrated
    players seed last; a match is paired as soon as its two players are known, its round the
    bracket's; the placings are the final standings."""
    d = _league(8)
    ratings = {p: float(p) for p in range(1, 7)}          # P6 rated best, P7 and P8 unrated
    first = L.start(d, "signup", 0.0, ratings=ratings, key=5)
    b = d["bracket"]
    assert (d["rounds"], d["cut"], b["stage"], b["kind"]) == (0, 0, "elimination", "single")
    assert b["structure"]["seeds"] == [6, 5, 4, 3, 2, 1, 7, 8]
    assert [(p["round"], p["bracket"], p["a"], p["b"], p["stage"]) for p in first] == [
        (1, "W1-1", 6, 8, "elimination"), (1, "W1-2", 3, 2, "elimination"),
        (1, "W1-3", 5, 7, "elimination"), (1, "W1-4", 4, 1, "elimination")]
    assert L.total_rounds(d) == 3
    # W1-1 and W1-2 decided: the semifinal is paired while W1-3 and W1-4 are still open
    _decide(d, first[0], "a")
    state, paired, _ = _decide(d, first[1], "b")
    [semi] = paired
    assert state == "paired" and (semi["round"], semi["bracket"], semi["a"], semi["b"]) == (2, "W2-1", 6, 2)
    assert d["round"] == 2
    # every open pairing is current: each player finds theirs, whichever round it is in
    assert L.pairing_of(d, 7)["bracket"] == "W1-3" and L.pairing_of(d, 2)["bracket"] == "W2-1"
    assert {p["id"] for p in L.round_pairings(d)} == {first[2]["id"], first[3]["id"], semi["id"]}
    made, _ = _play_out(d, lambda p: "a")
    assert stages.champion(d) == 6
    rows = L.table(d)
    assert [r.user_id for r in rows] == [6, 5, 4, 2, 3, 1, 7, 8], "placings, each group in seed order"
    assert [r.place for r in rows] == [1, 2, 3, 3, 5, 5, 5, 5]
    assert "#3–4" in "\n".join(stages.placings_lines(d, "en")) and "3〜4位" in "\n".join(stages.placings_lines(d, "ja"))


def test_random_seeding_is_a_draw_from_the_stored_seed():
    """"seeding (for single/double: rating … or random)": the same league id draws the same
    bracket."""
    one, two = _league(5, "single", seeding="random"), _league(5, "single", seeding="random")
    L.start(one, "signup", 0.0, key=9)
    L.start(two, "signup", 0.0, key=9)
    seeds = one["bracket"]["structure"]["seeds"]
    assert seeds == two["bracket"]["structure"]["seeds"] == B.seeding([1, 2, 3, 4, 5], by="random", seed="9-seeding")


def test_a_dropped_player_loses_their_open_and_their_next_elimination_match():
    """A player who drops forfeits the open elimination match; one who drops after winning
    loses the next match as soon as it is paired ("byes of the bracket are not pairings", but a
    drop is decided at once)."""
    d = _league(4, "single")
    semi1, semi2 = L.start(d, "signup", 0.0)
    _decide(d, semi1, "a")
    winner = semi1["a"]
    decided = L.drop(d, "running", winner, removed=False)
    assert decided == [], "nothing open for them yet"
    state, paired, _ = _decide(d, semi2, "a")
    [final] = paired
    assert state == "finished" and final["result"] == "b" and final["how"] == "drop"
    assert stages.champion(d) == semi2["a"]


# ---------------------------------------------------------------------------- double elimination
@pytest.mark.parametrize("reset", [True, False])
def test_a_6_player_double_elimination_played_to_its_grand_final(reset):
    """"double (double elimination: winners' and losers' brackets, a grand final with an
    optional reset — league key reset, default true)": with 6 players the top two seeds have
    byes; the player from the losers' bracket wins the grand final, so with reset a second
    grand final decides, without it the first does; placings by the round a player went out."""
    d = _league(6, "double", reset=reset)
    L.start(d, "signup", 0.0, ratings={p: 10.0 - p for p in range(1, 7)}, key=2)
    assert d["bracket"]["structure"]["reset"] is reset
    made, _ = _play_out(d, lambda p: "b" if p["bracket"] == "GF" else ("a" if p["a"] < p["b"] else "b"))
    ids = [p["bracket"] for p in d["pairings"]]
    assert "W1-1" not in ids and "W1-3" not in ids, "byes are no pairings"
    gf = next(p for p in d["pairings"] if p["bracket"] == "GF")
    assert (gf["a"], gf["b"]) == (1, 2), "the winners' champion against the losers' champion"
    if reset:
        gf2 = next(p for p in d["pairings"] if p["bracket"] == "GF2")
        assert gf2["round"] == gf["round"] + 1 and stages.champion(d) == 1
        assert L.total_rounds(d) == gf2["round"] == 7
    else:
        assert "GF2" not in ids and stages.champion(d) == 2
    assert stages.state(d)["placings"][2:] == [[3], [4], [5, 6]]
    assert [r.place for r in L.table(d)] == [1, 2, 3, 4, 5, 5]


def test_the_winners_champion_winning_the_grand_final_needs_no_reset():
    """"a grand final with an optional reset": only when the player from the losers' bracket
    wins the grand final."""
    d = _league(3, "double")
    L.start(d, "signup", 0.0)
    _play_out(d, lambda p: "a")
    assert "GF2" not in [p["bracket"] for p in d["pairings"]] and stages.champion(d) is not None


# ---------------------------------------------------------------------------- corrections
def test_an_override_of_a_quarterfinal_invalidates_the_semifinal():
    """"An organiser's override of an elimination result recomputes the bracket (results of
    later matches whose players changed become invalid — state()["invalid"] — tell the organiser
    … and drop those pairings' results)": the semifinal played by the old winner is voided with
    its result (kept in bracket["void"], on the trail) and paired again with the new winner;
    the untouched semifinal stays."""
    d = _league(8, "single")
    qf = L.start(d, "signup", 0.0)
    for p in qf:
        _decide(d, p, "a")
    sf1, sf2 = [p for p in d["pairings"] if p["bracket"] in ("W2-1", "W2-2")]
    _decide(d, sf1, "a")
    old = sf1["a"]
    assert old == qf[0]["a"]
    state, paired, entries = _decide(d, qf[0], "b")        # the quarterfinal was won by the other
    assert state == "paired"
    [again] = paired
    assert again["bracket"] == "W2-1" and again["a"] == qf[0]["b"] and again["b"] == sf1["b"]
    assert again["result"] is None
    assert sf1["id"] not in [p["id"] for p in d["pairings"]], "the old semifinal is no pairing any more"
    [void] = d["bracket"]["void"]
    assert void["id"] == sf1["id"] and void["result"] == "a" and void["void"] is True
    assert "W2-1" not in d["bracket"]["results"] and sf2 in d["pairings"]
    [told] = [e for e in entries if e["what"] == "events.bracket.trail.void"]
    assert told["before"]["result"] == "a"
    line = trail.line(told, stages.names(d), "en")
    assert f"Pairing #{sf1['id']}" in line and "voided" in line
    # an open pairing whose player changed is voided too
    state, paired, _ = _decide(d, qf[0], "a")
    assert [p["bracket"] for p in paired] == ["W2-1"] and paired[0]["a"] == old
    assert [p["id"] for p in d["bracket"]["void"]] == [sf1["id"], again["id"]]


def test_the_bracket_state_flags_what_an_override_left_behind():
    """The bracket module reports a later result that no longer fits as invalid; the league's
    bracket never keeps one (its results follow its pairings)."""
    d = _league(4, "single")
    s1, s2 = L.start(d, "signup", 0.0)
    _decide(d, s1, "a")
    _decide(d, s2, "a")
    final = next(p for p in d["pairings"] if p["bracket"] == "W2-1")
    stale = dict(d["bracket"]["results"], **{"W2-1": {"winner": final["a"], "loser": final["b"], "score": "1–0"}},
                 **{"W1-1": {"winner": s1["b"], "loser": s1["a"], "score": "1–0"}})
    assert B.state(d["bracket"]["structure"], stale)["invalid"] == ["W2-1"]
    _decide(d, s1, "b")
    assert stages.state(d)["invalid"] == []


# ---------------------------------------------------------------------------- no draws
def test_draws_are_refused_in_elimination_and_a_drawn_bot_match_is_played_again():
    """"An elimination match cannot end in a draw: a drawn bot match is played again (a new
    match for the same pairing …) — players' reports of "draw" are refused with a localized
    error in elimination; an organiser's draw too."""
    d = _league(4, "single")
    p, _ = L.start(d, "signup", 0.0)
    for by, outcome, organiser in ((p["a"], "draw", False), (ORG, "draw", True), (ORG, "double", True)):
        with pytest.raises(L.LeagueError) as e:
            L.report(d, "running", p["id"], by, outcome, organiser)
        assert e.value.key in ("events.bracket.err.draw", "events.bracket.err.double")
    with pytest.raises(L.LeagueError) as e:
        L.forfeit(d, "running", p["id"], None)
    assert e.value.key == "events.bracket.err.double"
    assert p["result"] is None and p["reports"] == {}
    from data import i18n
    assert "cannot end in a draw" in i18n.t("events.bracket.err.draw", "en", pairing=p["id"])
    assert "引き分けにはできません" in i18n.t("events.bracket.err.draw", "ja", pairing=p["id"])
    # a bot match that ends in a draw: the pairing stays open, to be played again
    p["match"] = 11
    before = copy.deepcopy(d)
    assert L.match_result(d, p["id"], 11, [])
    assert p["result"] is None and p["drawn"] == [11]
    [told] = trail.changes(before, d, "running", "running", at=0.0, by=None, act="match", target=p["id"])
    assert told["what"] == "events.bracket.trail.replay" and "played again" in trail.line(told, stages.names(d), "en")
    assert not L.match_result(d, p["id"], 11, []), "the same drawn match never counts twice"
    assert L.pairing_of(d, p["a"]) is p
    p["match"] = 12
    assert L.match_result(d, p["id"], 12, [p["b"]]) and p["result"] == "b"
    # a Swiss pairing may still be drawn
    s = _league(4, rounds=1)
    q = L.start(s, "signup", 0.0)[0]
    L.report(s, "running", q["id"], ORG, "draw", True)
    assert q["result"] == "draw"


def test_a_round_robin_can_end_in_a_top_cut_too():
    """The cut follows "the last Swiss round"; a round robin with a cut chosen (cut option)
    ends in its top cut the same way, its bracket rounds after the schedule's."""
    d = _league(4, "rr", cut=2)
    L.start(d, "signup", 0.0, key=3)
    assert d["cut"] == 2 and L.total_rounds(d) == 3 + 1
    made, _ = _play_out(d, lambda p: "a" if p["a"] < p["b"] else "b")
    [final] = [p for p in made if p.get("stage") == "cut"]
    assert (final["round"], final["a"], final["b"]) == (4, 1, 2) and stages.champion(d) == 1


def test_an_elimination_outside_its_sizes_is_refused_and_changes_nothing():
    """"Sizes: 2..128 entrants in single elimination, 3..64 in double elimination" — a double
    elimination of two players does not start (a LeagueError, the document untouched)."""
    d = _league(2, "double")
    before = copy.deepcopy(d)
    with pytest.raises(L.LeagueError) as e:
        L.start(d, "signup", 0.0, key=1)
    assert e.value.key == "events.bracket.err.size" and d == before
    d = _league(2, "single")
    L.start(d, "signup", 0.0, key=1)
    assert [p["bracket"] for p in d["pairings"]] == ["W1-1"] and L.total_rounds(d) == 1
