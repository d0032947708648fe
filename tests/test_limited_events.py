"""Events in sealed or draft format (issue 52: "Events take sealed or draft as their format: the
pool and the deck are locked like decklists and shown under the same rules; a draft pod pairs its
first round inside the pod").  The pure part (host/events/limited.py, host/leagues.py's start)
against hand-worked tables, then a sealed event of Art of War through the league service on a real
SQLite store with the real card-set service and table: pools dealt at the start, matches refused
until both decks are built, decks locked and registered with their pools, the match played with
both decks and the set's limited numbers, the lists shown at the end."""
from __future__ import annotations

from dataclasses import replace

import pytest

from data.store import open_store
from host import Host, engines
from host import leagues as L
from host.events import entry as E
from host.events import limited as LE
from host.events.document import LeagueError
from host.league_service import Leagues
from limited_sets import Clock, clone_ids, cloned_set

G, ORG = 111, 999
GAMES = ("logic_square", "maken", "art_of_war", "avalon")


def _doc(game: str = "art_of_war", fmt: str = "swiss", n: int = 4, limited: str | None = "draft") -> dict:
    d = L.new_league(name="Cup", game=game, fmt=fmt, rounds=3 if fmt == "swiss" else None, deadline_hours=0,
                     rated=False, signup_hours=None, organiser=ORG, channel_id=None, season=1, now=0.0)
    for p in range(1, n + 1):
        L.join(d, "signup", p, f"P{p}", 0.0)
    if limited:
        LE.configure(d, "signup", limited, games=GAMES)
    return d


# ------------------------------------------------------------------ the pods
@pytest.mark.parametrize("n, sizes", [
    (2, [2]), (3, [3]), (8, [8]), (9, [5, 4]), (10, [6, 4]), (15, [8, 7]), (16, [8, 8]), (17, [6, 6, 5]),
    (24, [8, 8, 8]), (25, [7, 6, 6, 6]),
])
def test_pods_hold_at_most_8_as_even_as_can_be_and_at_most_one_is_odd(n, sizes):
    """"a draft pod" seats 2–8 (a booster draft's table); every player is in exactly one pod."""
    pods = LE.make_pods(list(range(1, n + 1)), "seed")
    assert [len(p) for p in pods] == sizes
    assert sorted(u for p in pods for u in p) == list(range(1, n + 1))
    assert sum(len(p) % 2 for p in pods) <= 1


def test_pods_are_smaller_when_the_cube_deals_fewer_and_refused_below_two():
    """A cube deals each card once: a pod holds no more players than it can give a pack of 5."""
    assert LE.most_per_pod(None) == 8 and LE.most_per_pod(12) == 2 and LE.most_per_pod(29) == 5
    assert [len(p) for p in LE.make_pods(list(range(1, 6)), "k", most=2)] == [3, 2] or \
        max(len(p) for p in LE.make_pods(list(range(1, 6)), "k", most=2)) <= 3
    with pytest.raises(LeagueError) as e:
        LE.make_pods([1, 2, 3], "k", most=1)
    assert e.value.key == "events.limited.err.cannot_deal"


def test_the_pods_are_drawn_from_the_secret_seed():
    a = LE.make_pods(list(range(1, 11)), "one")
    assert a == LE.make_pods(list(range(1, 11)), "one")
    assert any(LE.make_pods(list(range(1, 11)), f"other{k}") != a for k in range(5))


@pytest.mark.parametrize("packs_size, cube, seats", [
    ((3, 15), 360, 8), ((3, 15), 1000, 8), ((3, 10), 240, 8), ((1, 6), 12, 2), ((3, 5), 30, 2), ((3, 5), 45, 3), ((2, 7), 28, 2),
    (None, 9, 2),
])
def test_a_cube_deals_the_most_cards_a_player_three_packs_of_15_at_most(packs_size, cube, seats):
    assert LE.cube_plan(cube, seats) == packs_size
    if packs_size:
        assert seats * packs_size[0] * packs_size[1] <= cube


# ------------------------------------------------------------------ the first round inside the pods
def test_round_one_pairs_inside_each_pod_and_the_odd_pods_last_player_has_the_bye():
    pods = [[1, 2, 3, 4, 5], [6, 7, 8, 9]]
    pairs = LE.round_one(pods, "k")
    assert len(pairs) == 5 and pairs[-1][1] is None and pairs[-1][0] in pods[0]
    for a, b in pairs[:-1]:
        assert any(a in p and b in p for p in pods)


@pytest.mark.parametrize("pairs", [[(1, 2), (3, 4), (5, 6)], [(1, 2), (3, 4), (5, None)], [(7, 8)]])
def test_the_round_robin_order_plays_the_pods_pairs_first(pairs):
    rounds = L.round_robin(LE.circle_order(pairs))
    assert {frozenset(x) if x[1] else (x[0],) for x in rounds[0]} == \
        {frozenset(x) if x[1] else (x[0],) for x in pairs}


@pytest.mark.parametrize("fmt", ["swiss", "rr"])
def test_a_draft_event_pairs_its_first_round_inside_each_pod(fmt):
    """"a draft pod pairs its first round inside the pod"."""
    d = _doc(fmt=fmt, n=11)
    L.start(d, "signup", 10.0, key="secret")
    pods = d["pods"]
    assert [len(p) for p in pods] == [6, 5]
    round1 = [p for p in d["pairings"] if p["round"] == 1]
    assert len(round1) == 6
    for p in round1:
        if p["b"] is not None:
            assert LE.pod_of(d, p["a"]) == LE.pod_of(d, p["b"]), p


def test_a_sealed_event_has_pods_but_pairs_as_any_event():
    d = _doc(limited="sealed", n=4)
    L.start(d, "signup", 10.0, key="secret")
    assert d["pods"] and LE.limited_of(d) == "sealed"
    assert len([p for p in d["pairings"] if p["round"] == 1]) == 2


# ------------------------------------------------------------------ the setting
def test_the_setting_is_for_card_games_during_sign_up_and_a_draft_is_not_a_bracket():
    d = _doc(limited=None)
    assert LE.configure(d, "signup", "sealed", games=GAMES) == ["limited"]
    assert LE.configure(d, "signup", "sealed", games=GAMES) == []
    with pytest.raises(LeagueError) as e:
        LE.configure(d, "running", "draft", games=GAMES)
    assert e.value.key == "events.reg.err.settings_started"
    with pytest.raises(LeagueError) as e:
        LE.configure(_doc(game="squares", limited=None), "signup", "sealed", games=GAMES)
    assert e.value.key == "events.limited.err.game"
    with pytest.raises(LeagueError) as e:
        LE.configure(_doc(fmt="single", limited=None), "signup", "draft", games=GAMES)
    assert e.value.key == "events.limited.err.draft_bracket"
    assert LE.configure(_doc(fmt="single", limited=None), "signup", "sealed", games=GAMES) == ["limited"]
    assert LE.configure(d, "signup", None, games=GAMES) == ["limited"] and "limited" not in d
    with pytest.raises(LeagueError) as e:
        LE.configure(d, "signup", "cube", games=GAMES)
    assert e.value.key == "events.limited.err.format"


def test_nobody_registers_a_deck_of_their_own_in_a_limited_event():
    """"the pool and the deck are locked like decklists": the deck is built from the pool after
    the start, so a deck registered at check-in is refused, and a limited format is refused once
    decks of the players' own are registered."""
    d = _doc(limited="sealed")
    with pytest.raises(LeagueError) as e:
        E.register_deck(d, "signup", 1, "sun", 1.0, kind="ready", label=None)
    assert e.value.key == "events.limited.err.no_register"
    own = _doc(limited=None)
    own["decklists"] = {"1": {"spec": {}, "hash": "x"}}
    with pytest.raises(LeagueError) as e:
        LE.configure(own, "signup", "sealed", games=GAMES)
    assert e.value.key == "events.limited.err.decks_registered"


def test_a_deck_of_the_pool_is_registered_once_and_the_match_carries_the_limited_numbers():
    d = _doc(limited="sealed")
    L.start(d, "signup", 10.0, key="k")
    d["limited_drafts"] = {str(i): 40 + i for i in range(len(d["pods"]))}
    d["limited_rules"] = {"size": 10, "copies": None}
    assert LE.missing_decks(d, [1, 2]) == [1, 2]
    entry = LE.register(d, 1, {"king": "k"}, ["k", "k2"], 40, "h", 5.0)
    assert entry["kind"] == "limited" and entry["pool"] == ["k", "k2"]
    assert LE.register(d, 1, {"king": "other"}, [], 40, "h2", 6.0) is None, "a deck is locked once"
    assert LE.missing_decks(d, [1, 2]) == [2]
    assert LE.options(d, {"first": 0}) == {"first": 0, "deck_rules": {"size": 10, "copies": None}}
    assert LE.options(_doc(limited=None), None) is None
    meta = LE.meta(d, [1, 2])["limited"]
    assert meta["drafts"] == [LE.draft_of(d, 1), LE.draft_of(d, 2)] and meta["draft"] == LE.draft_of(d, 1)


# ------------------------------------------------------------------ a sealed event of Art of War, on a real store
KINGS = clone_ids("art_of_war", 3)          # 9 KINGs of a server's own, beside the 3 shipped ones
SEALED = {"deck": {"size": 10}, "rarities": {"common": KINGS},
          "boosters": {"packs": 1, "size": 5, "slots": [{"rarity": "common", "count": 5}]}}


@pytest.fixture
async def event(tmp_path):
    engines.forget()
    store = await open_store(str(tmp_path / "event.db"))
    clock = Clock()
    host = Host(store, render=False, now=clock)
    res = await host.card_sets.upload(G, ORG, "art_of_war", "Kings", "kings.json",
                                      cloned_set("art_of_war", 3, limited=SEALED), "extend")
    assert res.ok, res
    assert (await host.card_sets.set_default(G, ORG, "art_of_war", "Kings")).ok    # what the server plays
    leagues = Leagues(store, host, now=clock)
    yield store, host, leagues, clock
    await store.close()
    engines.forget()


async def test_a_sealed_event_of_art_of_war_from_the_pools_to_the_lists_shown_at_the_end(event):
    store, host, leagues, clock = event
    made = await leagues.create(guild_id=G, channel_id=6, organiser=ORG, name="Sealed Cup", game="art_of_war",
                                fmt="swiss", rounds=1, deadline_hours=0, rated=False, signup_hours=None)
    assert made.ok, made.error
    lid = made.data["league"].id
    assert made.data["league"].data["cards"]["name"] == "Kings"
    res = await leagues.settings(lid, G, ORG, limited="sealed")
    assert res.ok, res.error
    d = res.data["league"].data
    assert d["limited"] == "sealed" and d["open_decklists"] is True, "a limited event shows its lists at the end"
    for uid in (1, 2):
        assert (await leagues.join(lid, G, uid, f"P{uid}")).ok
    # a deck of one's own at check-in is refused: the deck comes from the pool
    refused = await leagues.checkin(lid, G, 1, deck="iron", kind="ready")
    assert not refused.ok and refused.error.key == "events.limited.err.no_register"

    started = await leagues.start(lid, G, by=ORG)
    assert started.ok, started.error
    opened = started.data["drafts"]
    assert len(opened) == 1
    turn = opened[0].data["turn"]
    assert turn.finished and turn.draft.format == "sealed" and turn.draft.league_id == lid
    lg = await leagues.get(lid)
    draft_id = LE.draft_of(lg.data, 1)
    assert draft_id == turn.draft.id and lg.data["limited_rules"] == {"size": 10, "copies": None}
    assert await leagues.limited.open_drafts(lid) == [], "a pod's draft is opened once"

    # no match before both decks are built
    refused = await leagues.play(lid, G, 1, 6)
    assert not refused.ok and refused.error.key == "events.limited.err.no_deck"
    assert "P1" in refused.error.params["names"] and "P2" in refused.error.params["names"]

    drafts = leagues.limited.drafts
    row = (await drafts.get(draft_id))[0]
    pools = drafts.pools(row)
    assert all(len(p) == 5 and set(p) <= set(KINGS) for p in pools)
    # "Pools are dealt from a recorded seed, so a pool can be shown and re-dealt exactly"
    assert await drafts.dealt_again(row) is True
    changed = replace(row, state={**row.state, "pools": [pools[0] + [KINGS[0]], pools[1]]})
    assert await drafts.dealt_again(changed) is False, "a pool changed in the store is told"
    for uid in (1, 2):
        saved = await drafts.save_deck(draft_id, uid, [], G, auto=True)
        assert saved.ok, (saved.error, saved.info)
    again = await drafts.save_deck(draft_id, 1, [], G, auto=True)
    assert not again.ok and again.error.key == "draft.err.locked", "the deck is locked once saved"
    assert sorted(await leagues.limited.sync(lid)) == [1, 2]
    assert await leagues.limited.sync(lid) == []
    lg = await leagues.get(lid)
    for uid in (1, 2):
        entry = E.locked_deck(lg.data, uid)
        seat = drafts.seat_of((await drafts.get(draft_id))[0], uid)
        assert entry["kind"] == "limited" and entry["pool"] == pools[seat]
        assert entry["spec"]["king"] in pools[seat]
        assert sum(entry["spec"]["units"].values()) == 10
    # the lists are the players' and the organisers' while the event runs
    assert not E.may_see_decklist(lg.data, lg.status, viewer=2, owner=1, organiser=False)
    assert E.may_see_decklist(lg.data, lg.status, viewer=1, owner=1, organiser=False)
    # the pod's draft is the event's: no casual match, no cancel
    assert (await drafts.challenge(draft_id, G, 1, "P1", 2, "P2", 6)).error.key == "draft.err.event_play"
    assert (await drafts.cancel(draft_id, G, ORG)).error.key == "draft.err.event"

    played = await leagues.play(lid, G, 1, 6)
    assert played.ok, played.error
    rec = played.match
    assert rec.options["deck_rules"] == {"size": 10, "copies": None}
    assert rec.options["decks"] == [E.locked_deck(lg.data, 1)["spec"], E.locked_deck(lg.data, 2)["spec"]]
    assert rec.meta["limited"]["drafts"] == [draft_id, draft_id] and rec.meta["cards"]["name"] == "Kings"
    accepted = await host.accept(rec.id, 2)
    assert accepted.ok, accepted.error
    resigned = await host.resign(rec.id, 2)
    assert resigned.ok, resigned.error
    await leagues.on_finish(resigned.match)
    kept = await drafts.on_match_finished(resigned.match)      # the rows of the per-card figures
    assert kept.ok and set(kept.data["survey"]) == {1, 2}
    _picks, games, _answers = await store.limited_rows(G, "art_of_war", "Kings", 1)
    assert sorted((g.seat, g.draft_id) for g in games) == [(0, draft_id), (1, draft_id)]
    lg = await leagues.get(lid)
    assert lg.status == "finished"
    assert E.decklists_public(lg.data, lg.status), "the pools and decks are shown at the end"
    text = E.decklist_text(lg.data, 2, "en")
    assert "Pool (5 cards)" in text
    ja = E.decklist_text(lg.data, 2, "ja")
    assert "プール（5枚）" in ja


# ------------------------------------------------------------------ a draft event of Battle Logic Square in two pods
PLAIN = clone_ids("logic_square", 2, where=lambda c: c.get("colour") in ("white", "green"))
BLS_DRAFT = {"deck": {"size": 15, "copies": 2}, "rarities": {"common": PLAIN},
             "boosters": {"packs": 3, "size": 8, "slots": [{"rarity": "common", "count": 8}]}}


async def test_a_draft_event_of_nine_opens_two_pods_pairs_round_one_inside_them_and_plays_the_drafted_decks(tmp_path):
    """"a draft pod pairs its first round inside the pod": nine players make pods of 5 and 4, each
    drafting its own packs; every pairing of round 1 is two players of one pod."""
    engines.forget()
    store = await open_store(str(tmp_path / "draft.db"))
    try:
        clock = Clock()
        host = Host(store, render=False, now=clock)
        assert (await host.card_sets.upload(G, ORG, "logic_square", "Owls", "owls.json",
                                            cloned_set("logic_square", 2, limited=BLS_DRAFT), "extend")).ok
        assert (await host.card_sets.set_default(G, ORG, "logic_square", "Owls")).ok
        leagues = Leagues(store, host, now=clock)
        lid = (await leagues.create(guild_id=G, channel_id=6, organiser=ORG, name="Draft Cup", game="logic_square",
                                    fmt="swiss", rounds=2, deadline_hours=0, rated=False,
                                    signup_hours=None)).data["league"].id
        assert (await leagues.settings(lid, G, ORG, limited="draft")).ok
        people = list(range(1, 10))
        for uid in people:
            assert (await leagues.join(lid, G, uid, f"P{uid}")).ok
        started = await leagues.start(lid, G, by=ORG)
        assert started.ok, started.error
        d = (await leagues.get(lid)).data
        assert sorted(len(p) for p in d["pods"]) == [4, 5]
        for p in d["pairings"]:
            if p["b"] is not None:
                assert LE.pod_of(d, p["a"]) == LE.pod_of(d, p["b"]), "round 1 inside the pod"
        opened = started.data["drafts"]
        assert len(opened) == 2 and all(r.data["turn"].draft.status == "drafting" for r in opened)
        assert {r.data["turn"].draft.format for r in opened} == {"booster"}
        drafts = leagues.limited.drafts
        for res in opened:
            draft_id = res.data["turn"].draft.id
            seated = [s.user_id for s in res.data["turn"].draft.seats]
            assert sorted(seated) == sorted(d["pods"][LE.pod_of(d, seated[0])]), "every seat is a player of the pod"
            for _ in range(200):
                row, _err = await drafts.get(draft_id)
                if row.status != "drafting":
                    break
                for uid in seated:
                    front = drafts.in_front(row, drafts.seat_of(row, uid))
                    if front is not None:
                        picked = await drafts.pick(draft_id, uid, front["cards"][0], expect=(front["round"], front["pick"]))
                        assert picked.ok, picked.error
                        row = picked.data["turn"].draft
            assert row.status == "building"
            for uid in seated:
                saved = await drafts.save_deck(draft_id, uid, [], G, auto=True)
                assert saved.ok, (saved.error, saved.info)
        assert sorted(await leagues.limited.sync(lid)) == people
        d = (await leagues.get(lid)).data
        p = next(p for p in d["pairings"] if p["b"] is not None)
        played = await leagues.play(lid, G, p["a"], 6)
        assert played.ok, played.error
        meta = played.match.meta["limited"]
        assert meta["drafts"][0] == meta["drafts"][1] == LE.draft_of(d, p["a"])
        assert played.match.options["deck_rules"] == {"size": 15, "copies": 2}
    finally:
        await store.close()
        engines.forget()


async def test_a_draft_event_refuses_an_elimination_bracket_and_a_set_that_deals_too_few(event):
    store, host, leagues, clock = event
    lid = (await leagues.create(guild_id=G, channel_id=6, organiser=ORG, name="KO", game="art_of_war", fmt="single",
                                rounds=None, deadline_hours=0, rated=False, signup_hours=None)).data["league"].id
    refused = await leagues.settings(lid, G, ORG, limited="draft")
    assert refused.error.key == "events.limited.err.draft_bracket"
    # the shipped Art of War cards: three KINGs, too few to deal two pools of five
    shipped = (await leagues.create(guild_id=G, channel_id=6, organiser=ORG, name="Plain", game="art_of_war",
                                    fmt="swiss", rounds=1, deadline_hours=0, rated=False, signup_hours=None))
    lid = shipped.data["league"].id
    d = await store.get_league(lid)          # an event made before the server chose its set: the shipped cards
    data = dict(d.data)
    data.pop("cards", None)
    await store.update_league(replace(d, data=data), d.version)
    refused = await leagues.settings(lid, G, ORG, limited="sealed")
    assert refused.error.key == "events.limited.err.cube_small" and refused.error.params["have"] == 3
