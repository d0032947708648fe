"""Issue 34, first slice, host side: a league's scoring preset (host/leagues.py over
host/events/scoring.py), the trail of every change (host/events/trail.py, written by
host.league_service.Leagues._mutate), standings recomputed after an organiser's override, and the CSV
exports (host/events/exports.py) read back with data.csv_export.read_csv."""
from __future__ import annotations

import pytest

from data.csv_export import read_csv
from data.store import FINISHED, MatchRecord, open_store
from host import leagues as L
from host.events import exports, scoring, trail
from host.league_service import Leagues

G, ORG = 5, 999


class _Clock:
    def __init__(self, t: float = 1000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


class _NoHost:
    now = staticmethod(lambda: 1000.0)


def _doc(game: str = "maken", fmt: str = "rr", n: int = 4, **kw) -> dict:
    d = L.new_league(name="Cup", game=game, fmt=fmt, rounds=kw.pop("rounds", 3), deadline_hours=0, rated=True,
                     signup_hours=None, organiser=ORG, channel_id=None, season=1, now=0.0, **kw)
    for p in range(1, n + 1):
        L.join(d, "signup", p, f"P{p}", 0.0)
    return d


async def _league(tmp_path, *, game: str = "maken", n: int = 4, deadline_hours: int = 0, start: bool = True,
                  **kw):
    store = await open_store(str(tmp_path / "l.db"))
    clock = _Clock()
    svc = Leagues(store, _NoHost(), now=clock)
    res = await svc.create(guild_id=G, channel_id=6, organiser=ORG, name="Cup", game=game,
                           fmt=kw.pop("fmt", "rr"), rounds=kw.pop("rounds", None), deadline_hours=deadline_hours,
                           rated=False, signup_hours=kw.pop("signup_hours", None), **kw)
    assert res.ok, res.error
    lid = res.data["league"].id
    for p in range(1, n + 1):
        assert (await svc.join(lid, G, p, f"P{p}")).ok
    if start:
        assert (await svc.start(lid, G, by=ORG)).ok
    return store, svc, clock, lid


async def _data(store, lid: int) -> dict:
    return (await store.get_league(lid)).data


def _last(d: dict, what: str) -> dict:
    return next(e for e in reversed(d["trail"]) if e["what"] == f"events.trail.{what}")


def _names(d: dict) -> dict[int, str]:
    return {p["id"]: p["name"] for p in d["players"]}


# ---------------------------------------------------------------------------- scoring presets
def test_a_new_league_gets_its_games_preset_or_the_one_chosen():
    """Scoring preset per league: "card" by default for the card games, "chess" for SQUARES, or
    the one the organiser picks; anything else is refused with a catalog key."""
    for game in ("logic_square", "maken", "art_of_war", "avalon"):
        assert _doc(game)["scoring"] == "card", game
    assert _doc("squares")["scoring"] == "chess"
    assert _doc("squares", scoring_preset="pokemon")["scoring"] == "pokemon"
    with pytest.raises(L.LeagueError) as e:
        _doc("maken", scoring_preset="golf")
    assert e.value.key == "events.err.scoring"


async def test_the_service_creates_a_league_with_the_chosen_preset_and_refuses_an_unknown_one(tmp_path):
    """/league-admin create's scoring option reaches the league; an unknown preset writes nothing."""
    store, svc, _, lid = await _league(tmp_path, game="squares", scoring="card", start=False)
    assert (await _data(store, lid))["scoring"] == "card"
    res = await svc.create(guild_id=G, channel_id=6, organiser=ORG, name="x", game="maken", fmt="rr", rounds=None,
                           deadline_hours=0, rated=True, signup_hours=None, scoring="golf")
    assert not res.ok and res.error.key == "events.err.scoring"
    assert len(await store.leagues(G)) == 1
    await store.close()


def test_a_league_stored_without_a_preset_keeps_chess_scoring():
    """"A league stored without the key is chess (today's scoring; existing leagues keep theirs)":
    even a card game's old league reads with points 1/½/0 and Buchholz, Sonneborn-Berger, head
    to head, the numbers of host.leagues.standings."""
    d = _doc("maken", fmt="swiss", n=5)
    del d["scoring"], d["trail"]
    L.start(d, "signup", 0.0)
    for p in L.round_pairings(d):
        if p["result"] is None:
            L.report(d, "running", p["id"], ORG, "a", organiser=True)
    assert L.scoring_of(d) == "chess" and L.tiebreaks(d) == ("buchholz", "sonneborn_berger", "h2h")
    rows = L.table(d)
    old = L.standings(d["players"], L.games(d))
    assert [r.user_id for r in rows] == [s.user_id for s in old]
    assert [r.points for r in rows] == [s.points for s in old] and max(r.points for r in rows) == 1.0
    assert [r.tiebreaks["buchholz"] for r in rows] == [s.buchholz for s in old]
    assert L.places(rows) == L.places(old)


def test_card_scoring_counts_a_played_result_as_one_game_a_forfeit_as_none_and_a_bye_as_two():
    """Card preset over league pairings without a game list: a bot match, a confirmed report or
    an organiser's result is a single game (1-0, or one drawn game); a forfeit is a match win
    without games; a bye is a 2-0 win.  Match points 3/1/0, and GW% follows the games."""
    d = _doc("maken", fmt="swiss", n=5, rounds=2)
    L.start(d, "signup", 0.0)
    p1, p2, bye = L.round_pairings(d)
    assert bye["b"] is None
    p1["match"] = 7
    assert L.match_result(d, p1["id"], 7, [p1["a"]])
    L.forfeit(d, "running", p2["id"], p2["b"])
    t = {r.user_id: r for r in L.table(d)}
    assert (t[p1["a"]].points, t[p1["a"]].games_won, t[p1["b"]].games_lost) == (3, 1, 1)
    assert (t[p2["a"]].points, t[p2["a"]].games_won, t[p2["b"]].games_lost) == (3, 0, 0)
    assert (t[bye["a"]].points, t[bye["a"]].byes, t[bye["a"]].games_won) == (3, 1, 2)
    assert t[p1["a"]].tiebreaks["gwp"] == 1.0 and t[p1["b"]].tiebreaks["gwp"] == pytest.approx(0.33)
    assert t[p2["a"]].tiebreaks["gwp"] == pytest.approx(0.33), "no game played: the floor"
    shaped = L.score_pairings(d)
    assert {"round", "a", "b", "games", "result"} <= set(shaped[0])


def test_swiss_pairs_a_card_league_on_match_points(monkeypatch):
    """"Swiss pairing keeps using points (match points for card/pokemon)": the score groups the
    pairer gets are the preset's points, 3 for a win and 1 for a draw."""
    d = _doc("maken", fmt="swiss", n=4, rounds=2)
    L.start(d, "signup", 0.0)
    p1, p2 = L.round_pairings(d)
    L.report(d, "running", p1["id"], ORG, "a", organiser=True)
    L.report(d, "running", p2["id"], ORG, "draw", organiser=True)
    seen = {}
    real = L.swiss_pairings

    def spy(ranked, played, had_bye, points=None, seed=""):
        seen.update(points)
        return real(ranked, played, had_bye, points, seed)
    monkeypatch.setattr(L, "swiss_pairings", spy)
    assert L.advance(d, 0.0)[0] == "paired"
    assert seen == {p1["a"]: 3.0, p1["b"]: 0.0, p2["a"]: 1.0, p2["b"]: 1.0}


# ---------------------------------------------------------------------------- the trail
async def test_the_trail_records_sign_up_start_pairings_reports_confirmations_and_held_results(tmp_path):
    """Trail: a player's report (who reported what), the confirming report (who confirmed, the
    result before and after), a held result, the start and the pairings made, each with the
    user who did it; the words name the players, never their ids."""
    store, svc, clock, lid = await _league(tmp_path)
    d = await _data(store, lid)
    kinds = [e["what"].rsplit(".", 1)[1] for e in d["trail"]]
    assert kinds == ["join"] * 4 + ["start", "paired"]
    assert [e["by"] for e in d["trail"][:4]] == [1, 2, 3, 4]
    assert _last(d, "start")["by"] == ORG and _last(d, "start")["params"] == {"players": 4, "rounds": 3}
    paired = _last(d, "paired")
    assert paired["by"] == ORG and len(paired["after"]["pairings"]) == 2
    p1, p2 = L.round_pairings(d)

    clock.t = 2000.0
    assert (await svc.report(lid, G, p1["id"], p1["a"], "win", organiser=False)).ok
    e = _last(await _data(store, lid), "report")
    assert (e["at"], e["by"], e["params"]["pairing"], e["params"]["outcome"]) == (2000.0, p1["a"], p1["id"], "a")
    assert e["before"]["reports"] == {} and e["after"]["reports"] == {str(p1["a"]): "a"}
    assert e["after"]["result"] is None
    assert (await svc.report(lid, G, p1["id"], p1["b"], "loss", organiser=False)).ok
    e = _last(await _data(store, lid), "confirm")
    assert e["by"] == p1["b"] and (e["before"]["result"], e["after"]["result"], e["after"]["how"]) == (None, "a", "report")
    assert (await svc.report(lid, G, p2["id"], p2["a"], "win", organiser=False)).ok
    assert (await svc.report(lid, G, p2["id"], p2["b"], "win", organiser=False)).ok
    d = await _data(store, lid)
    e = _last(d, "held")
    assert e["by"] == p2["b"] and e["after"]["held"] and not e["before"]["held"] and e["params"]["outcome"] == "b"
    text = trail.line(_last(d, "confirm"), _names(d), "en")
    assert text == f"<t:2000:f> P{p1['b']} confirmed pairing #{p1['id']} (P{p1['a']} vs P{p1['b']}): P{p1['a']} won"
    ja = trail.line(_last(d, "held"), _names(d), "ja")
    assert "主催者の判断待ち" in ja and f"P{p2['b']}が組 #{p2['id']}" in ja
    await store.close()


async def test_an_organisers_decision_and_override_are_on_the_trail_and_recompute_the_standings(tmp_path):
    """Trail: an organiser's result for a held pairing (decide) and for a decided one (override)
    with the result before and after.  Standings are recomputed from the results: overriding a
    round-1 result moves the two players' points and the tiebreaks of everyone they met later,
    exactly as if the result had always been the new one."""
    store, svc, clock, lid = await _league(tmp_path)
    d = await _data(store, lid)
    p1, p2 = L.round_pairings(d)
    assert (await svc.report(lid, G, p2["id"], p2["a"], "win", organiser=False)).ok
    assert (await svc.report(lid, G, p2["id"], p2["b"], "win", organiser=False)).ok
    assert (await svc.report(lid, G, p1["id"], ORG, "a", organiser=True)).ok
    e = _last(await _data(store, lid), "decide")
    assert e["by"] == ORG and (e["before"]["result"], e["after"]["result"]) == (None, "a")
    assert (await svc.report(lid, G, p2["id"], ORG, "b", organiser=True)).ok
    d = await _data(store, lid)
    e = _last(d, "decide")
    assert e["before"]["held"] and (e["after"]["result"], e["after"]["how"]) == ("b", "organiser")
    auto = _last(d, "paired")
    assert auto["by"] is None and auto["params"]["round"] == 2, "the bot paired round 2 by itself"
    for q in L.round_pairings(d):                       # round 2: the first player wins
        assert (await svc.report(lid, G, q["id"], ORG, "a", organiser=True)).ok

    d = await _data(store, lid)
    before = {r.user_id: r for r in L.table(d)}
    # every result so far, with round 1's first pairing won by its second player from the start
    always = [{"round": q["round"], "a": q["a"], "b": q["b"], "games": [r], "result": r}
              for q in d["pairings"] if q["result"] for r in ["b" if q["id"] == p1["id"] else q["result"]]]
    clock.t = 5000.0
    assert (await svc.report(lid, G, p1["id"], ORG, "b", organiser=True)).ok
    d = await _data(store, lid)
    e = _last(d, "override")
    assert (e["at"], e["by"], e["before"]["result"], e["after"]["result"]) == (5000.0, ORG, "a", "b")
    assert trail.line(e, _names(d), "en").endswith(f"P{p1['a']} won → P{p1['b']} won")
    after = {r.user_id: r for r in L.table(d)}
    a, b = p1["a"], p1["b"]
    assert (after[a].points, after[b].points) == (before[a].points - 3, before[b].points + 3)
    met_a_later = next(q["b"] if q["a"] == a else q["a"] for q in L.round_pairings(d, 2) if a in (q["a"], q["b"]))
    assert after[met_a_later].tiebreaks["omw"] < before[met_a_later].tiebreaks["omw"], \
        "the override reaches the tiebreaks of a player who met the old winner later"
    fresh = scoring.standings(d["players"], always, "card")
    assert [(r.user_id, r.points, r.tiebreaks, r.place) for r in L.table(d)] == \
        [(r.user_id, r.points, r.tiebreaks, r.place) for r in fresh]
    await store.close()


async def test_forfeits_claims_drops_and_removals_are_on_the_trail(tmp_path):
    """Trail: an organiser's forfeit (before/after), a forfeit claim after the deadline (who
    claimed), a player's drop and an organiser's removal (status before/after and the pairings
    they forfeit), the bot's own pairing of the next round."""
    store, svc, clock, lid = await _league(tmp_path, deadline_hours=1)
    p1, p2 = L.round_pairings(await _data(store, lid))
    assert (await svc.forfeit(lid, G, p1["id"], p1["a"], by=ORG)).ok
    e = _last(await _data(store, lid), "forfeit")
    assert e["by"] == ORG and (e["before"]["result"], e["after"]["result"], e["after"]["how"]) == (None, "b", "forfeit")
    clock.t += 2 * 3600
    assert (await svc.claim(lid, G, p2["id"], p2["b"])).ok
    d = await _data(store, lid)
    e = _last(d, "claim")
    assert e["by"] == p2["b"] and e["after"]["claims"] == [p2["b"]] and e["after"]["result"] == "b"
    assert _last(d, "paired")["params"]["round"] == 2
    q1, q2 = L.round_pairings(d)
    assert (await svc.leave(lid, G, q1["a"])).ok
    e = _last(await _data(store, lid), "drop")
    assert (e["by"], e["params"]["player"], e["before"], e["after"]["status"]) == (
        q1["a"], q1["a"], {"status": "active"}, "dropped")
    assert e["after"]["decided"] == [{"pairing": q1["id"], "result": "b"}]
    assert (await svc.leave(lid, G, q2["b"], removed=True, by=ORG)).ok
    d = await _data(store, lid)
    e = _last(d, "remove")
    assert (e["by"], e["params"]["player"], e["after"]["status"]) == (ORG, q2["b"], "removed")
    assert e["after"]["decided"] == [{"pairing": q2["id"], "result": "a"}]
    assert not [x for x in d["trail"] if x["what"] == "events.trail.result"], "drops are told once, by the drop"
    assert f"<@{ORG}> removed P{q2['b']}; forfeited: #{q2['id']}" in trail.line(e, _names(d), "en")
    await store.close()


async def test_the_clock_start_a_bot_match_result_the_finish_and_the_close_are_on_the_trail(tmp_path):
    """Trail: a league the clock starts (by the bot: ``by`` None), a bot match reporting its
    pairing (the match's number, the result after), the end of the last round and the close."""
    store, svc, clock, lid = await _league(tmp_path, n=2, start=False, signup_hours=1)
    clock.t += 3601
    assert any(r.data.get("started") for r in await svc.tick())
    d = await _data(store, lid)
    assert _last(d, "start")["by"] is None and _last(d, "paired")["by"] is None
    (p,) = L.round_pairings(d)

    def link(dd: dict, status: str):
        L.pairing(dd, p["id"])["match"] = 77
        return status, None
    assert (await svc._mutate(lid, G, link)).ok
    assert len((await _data(store, lid))["trail"]) == len(d["trail"]), "starting a match changes no result"
    rec = MatchRecord(game="maken", seed=1, seats=[p["a"], p["b"]], names=["a", "b"], creator=p["a"],
                      status=FINISHED, id=77, result={"winners": [1], "reason": "resign"},
                      meta={"league": lid, "pairing": p["id"]})
    assert (await svc.on_finish(rec)).ok
    d = await _data(store, lid)
    e = _last(d, "match")
    assert (e["by"], e["params"]["match"], e["after"]["result"], e["after"]["how"]) == (None, 77, "b", "match")
    assert _last(d, "finished")["params"] == {"round": 1}
    assert trail.line(e, _names(d), "ja").endswith(f"対戦 #77の結果で組 #{p['id']}（P{p['a']}対P{p['b']}）が確定：P{p['b']}の勝ち")
    assert (await svc.close(lid, G, by=ORG)).ok
    e = _last(await _data(store, lid), "close")
    assert (e["by"], e["before"], e["after"]) == (ORG, {"status": "finished"}, {"status": "closed"})
    await store.close()


def test_the_trail_keeps_the_newest_2000_entries_and_pages_newest_first():
    """"Bound its length sensibly": the newest 2,000 entries stay, the count of the older ones
    let go is kept; pages of ten show the newest first."""
    d: dict = {"trail": []}
    trail.add(d, [{"at": float(i), "by": None, "what": "events.trail.close", "params": {}, "before": None,
                   "after": None} for i in range(2005)])
    assert len(d["trail"]) == trail.TRAIL_MAX == 2000 and d["trail_cut"] == 5
    assert d["trail"][0]["at"] == 5.0
    entries, page, pages = trail.page(d, 0)
    assert [e["at"] for e in entries] == [float(i) for i in range(2004, 1994, -1)] and pages == 200
    entries, page, _ = trail.page(d, 999)
    assert page == 199 and entries[-1]["at"] == 5.0


# ---------------------------------------------------------------------------- CSV exports
def test_the_csv_exports_read_back_with_localized_headers_numbers_and_words():
    """/league-admin export: standings.csv (place, name, status, record, points, each tiebreak
    as a number) and pairings.csv (round, pairing, players, result in words, how it was
    decided, match), headers in the organiser's language, read back with read_csv; a name that
    looks like a spreadsheet formula is escaped."""
    d = _doc("maken", fmt="swiss", n=5, rounds=2)
    d["players"][0]["name"] = "=1+1"
    L.start(d, "signup", 0.0, key=4)      # a round is paired at random within its score group, from
    p1, p2, bye = L.round_pairings(d)      # the event's seed: this one pairs P1–P3 and P2–P4
    assert [(p["a"], p["b"]) for p in (p1, p2, bye)] == [(1, 3), (2, 4), (5, None)]
    p1["match"] = 31
    assert L.match_result(d, p1["id"], 31, [1])
    L.report(d, "running", p2["id"], ORG, "draw", organiser=True)
    L.drop(d, "running", 4, removed=False)
    files = dict(exports.files(d, "en"))
    assert list(files) == ["standings.csv", "pairings.csv", "decklists.csv"]   # decklists: issue 34
    assert files["standings.csv"].startswith(b"\xef\xbb\xbf")
    rows = read_csv(files["standings.csv"])
    assert rows[0] == ["Place", "Player", "Status", "Wins", "Losses", "Draws", "Byes", "Points", "OMW%", "GW%", "OGW%"]
    # P1 beat P3 in one game (OMW%: P3's match-win % 0, floored at 33%); P5 had the bye (2-0,
    # no opponent); P2 and P4 drew one game and share 3rd place; P4 has dropped
    assert rows[1:] == [["1", "'=1+1", "playing", "1", "0", "0", "0", "3", "33", "100", "33"],
                        ["2", "P5", "playing", "0", "0", "0", "1", "3", "0", "100", "0"],
                        ["3", "P2", "playing", "0", "0", "1", "0", "1", "33.3333", "33.3333", "33.3333"],
                        ["3", "P4", "dropped", "0", "0", "1", "0", "1", "33.3333", "33.3333", "33.3333"],
                        ["5", "P3", "playing", "0", "1", "0", "0", "0", "100", "33", "100"]]
    pairs = read_csv(files["pairings.csv"])
    assert pairs == [["Round", "Pairing", "Player A", "Player B", "Result", "Decided by", "Match"],
                     ["1", str(p1["id"]), "'=1+1", "P3", "'=1+1 won", "bot match", "31"],
                     ["1", str(p2["id"]), "P2", "P4", "draw", "organiser", ""],
                     ["1", str(bye["id"]), "P5", "", "bye", "bye", ""]]
    ja = dict(exports.files(d, "ja"))
    assert read_csv(ja["standings.csv"])[0][:8] == ["順位", "選手", "状態", "勝", "敗", "分", "不戦勝", "勝点"]
    assert read_csv(ja["standings.csv"])[4][2] == "棄権"
    assert read_csv(ja["pairings.csv"])[2][4:6] == ["引き分け", "主催者"]


async def test_an_event_deck_read_in_a_database_hiccup_is_try_again_never_a_free_deck_pick():
    """"A transient fault (a timeout, a lost connection) is answered 'try again'": the accept of an
    event match uses the deck its player registered, without asking — when the league cannot be
    read for a moment, the accept must fail as a hiccup (cogs.common.run_in_cog answers "try
    again"), not fall back to the deck picker, where any deck could be chosen instead of the
    locked one."""
    from types import SimpleNamespace

    import pytest

    from cogs.common import transient
    from cogs.league_event import event_deck
    from data.store import TransientStoreError

    class Hiccup:
        async def get_league(self, league_id):
            raise TransientStoreError("timeout")

    class Broken:
        async def get_league(self, league_id):
            raise ValueError("a row that cannot be read")

    rec = SimpleNamespace(meta={"league": 7}, game="logic_square")
    with pytest.raises(TransientStoreError) as caught:
        await event_deck(Hiccup(), rec, 1)
    assert transient(caught.value)
    assert await event_deck(Broken(), rec, 1) is None         # logged; that league's deck is unknown
    assert await event_deck(Hiccup(), SimpleNamespace(meta={}, game="logic_square"), 1) is None
