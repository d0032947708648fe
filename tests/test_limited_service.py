"""The draft service (host/limited/): a server's Battle Logic Square set drafted by two people and
two computer drafters — created, joined, started from a secret seed, picked, a pick timed out and
taken by the computer, decks built from the pools, the draft done, a match played with the decks,
its rows kept, the survey answered and the report holding the picks — on a real SQLite store
with the real card-set service and table, no Discord."""
from __future__ import annotations

import pytest

from host import Host, engines
from host.limited.building import chosen_deck, deck_problems, load_cards
from host.limited.service import Drafts
from limited_sets import Clock, clone_ids, cloned_set

GUILD, OTHER = 111, 222
ALICE, BOB, CAROL = 1, 2, 3
SET = "Owl Kings"
# only white and green resource cards in the boosters (no deck-wide totals): every pool of 30
# makes a legal deck of 15, whatever the secret seed dealt
PLAIN = clone_ids("logic_square", 2, where=lambda c: c.get("colour") in ("white", "green"))
LIMITED = {"deck": {"size": 15, "copies": 2}, "rarities": {"common": PLAIN},
           "boosters": {"packs": 3, "size": 10, "slots": [{"rarity": "common", "count": 10}]}}


@pytest.fixture
async def store(tmp_path):
    from data.store import open_store

    s = await open_store(str(tmp_path / "drafts.db"))
    yield s
    await s.close()


@pytest.fixture
async def table(store):
    engines.forget()
    clock = Clock()
    host = Host(store, render=False, now=clock)
    res = await host.card_sets.upload(GUILD, 7, "logic_square", SET, "owl.json", cloned_set("logic_square", 2,
                                                                                          limited=LIMITED), "extend")
    assert res.ok, res
    drafts = Drafts(store, load_cards(host.card_sets), host=host, now=clock)
    yield host, drafts, clock
    engines.forget()


async def _pick_through(drafts: Drafts, draft_id: int, people: list[int]) -> None:
    """Every person picks the first card of whatever pack is in front of them until no pack is."""
    for _ in range(200):
        row, _ = await drafts.get(draft_id)
        if row.status != "drafting":
            return
        moved = False
        for uid in people:
            seat = drafts.seat_of(row, uid)
            front = drafts.in_front(row, seat)
            if front is None:
                continue
            res = await drafts.pick(draft_id, uid, front["cards"][0], expect=(front["round"], front["pick"]))
            assert res.ok, res.error
            moved = True
            row = res.data["turn"].draft
        if not moved:
            return


async def test_a_booster_draft_from_creation_to_the_report(table, store):
    host, drafts, clock = table
    res = await drafts.create(guild_id=GUILD, channel_id=5, user_id=ALICE, name="Alice", game="logic_square",
                              set_name=SET, fmt="booster", seats=4, source="boosters", timer=5)
    assert res.ok, res.error
    draft = res.data["draft"]
    assert draft.set_name == SET and draft.set_version == 1 and len(draft.seed) == 32
    # another server cannot see or join it
    assert not (await drafts.join(draft.id, OTHER, BOB, "Bob")).ok
    assert (await drafts.join(draft.id, GUILD, BOB, "Bob")).ok
    assert (await drafts.join(draft.id, GUILD, BOB, "Bob")).error.key == "draft.err.already_in"
    assert (await drafts.start(draft.id, GUILD, BOB)).error.key == "draft.err.not_creator"
    res = await drafts.start(draft.id, GUILD, ALICE)
    assert res.ok, res.error
    turn = res.data["turn"]
    assert sorted(turn.show) == [ALICE, BOB], "both people are shown their first pack"
    row = turn.draft
    assert row.status == "drafting" and row.due_at is not None
    front = drafts.in_front(row, drafts.seat_of(row, ALICE))
    assert front["kind"] == "pack" and len(front["cards"]) == 10 and front["pick"] == 1
    # a card that is not in the pack, and a stale menu, change nothing
    bad = await drafts.pick(draft.id, ALICE, "av01", expect=(1, 1))
    assert bad.error.key == "draft.err.pick.not_in_pack"
    assert (await drafts.pick(draft.id, ALICE, front["cards"][0], expect=(1, 5))).error.key == "draft.err.pick.stale"
    # Alice picks twice; Bob lets his time run out: the computer picks for him
    bob_seat = drafts.seat_of(row, BOB)
    deadline = drafts.deadline(row, bob_seat)
    assert deadline == pytest.approx(clock.t + 10 + 5 * 10), "10 s and 5 s a card: 60 s for a pack of 10"
    assert (await drafts.pick(draft.id, ALICE, front["cards"][0], expect=(1, 1))).ok
    clock.t += 30
    row, _ = await drafts.get(draft.id)
    second = drafts.in_front(row, drafts.seat_of(row, ALICE))
    assert second["pick"] == 2 and len(second["cards"]) == 9, "the computer at her right passed her its pack"
    assert (await drafts.pick(draft.id, ALICE, second["cards"][0], expect=(1, 2))).ok
    clock.t = deadline + 1
    expired = await drafts.expire_due()
    assert len(expired) == 1
    row = expired[0].data["turn"].draft
    machine = drafts.machine(row)
    assert [e.auto for e in machine.log if e.seat == bob_seat] == [True]
    assert drafts.timed_out(row) == [{"seat": bob_seat, "round": 1, "pick": 1}], "said in public: who, which pick"
    await _pick_through(drafts, draft.id, [ALICE, BOB])
    row, _ = await drafts.get(draft.id)
    assert row.status == "building"
    assert await drafts.dealt_again(row) is True, "the recorded seed deals the same packs again"
    pools = drafts.pools(row)
    assert [len(p) for p in pools] == [30, 30, 30, 30]
    # a deck the pool does not hold is refused with its reasons; then each builds one
    pool = await drafts.pool_of(draft.id, ALICE)
    cards = pool.data["cards"]
    foreign = [c for c in cards.cube if c not in pools[0]][:15]
    assert deck_problems(cards, pools[0], foreign), "cards not in the pool"
    assert not (await drafts.save_deck(draft.id, ALICE, foreign)).ok
    res = await drafts.save_deck(draft.id, ALICE, [], auto=True)
    assert res.ok, (res.error, res.info)
    assert not res.data["done"]
    # the deck builder's selects: a kept AVI and the pool's cards as copies
    part = await drafts.build_part(draft.id, BOB, "m.0", [f"{c}~1" for c in pools[1][:3]])
    assert part.ok and chosen_deck(part.data["chosen"]) == pools[1][:3]
    res = await drafts.save_deck(draft.id, BOB, [], auto=True)
    assert res.ok and res.data["done"], "the last person's deck makes the draft done"
    row, _ = await drafts.get(draft.id)
    assert row.status == "done" and all(s.deck for s in row.seats)
    picks, _, _ = await store.limited_rows(GUILD, "logic_square", SET, 1)
    assert len(picks) == 4 * 30 and sum(p.human for p in picks) == 2 * 30 - 1, "Bob's timed-out pick is no person's"
    # a match with the two decks: its rows and the survey once it ends
    res = await drafts.challenge(draft.id, GUILD, ALICE, "Alice", BOB, "Bob", 5)
    assert res.ok, res.error
    match = res.match
    assert match.options["deck_rules"] == {"size": 15, "copies": 2} and match.meta["limited"] == {"draft": draft.id}
    accepted = await host.accept(match.id, BOB)
    assert accepted.ok, accepted.error
    done = await host.resign(match.id, BOB)
    assert done.ok
    rec = await store.get_match(match.id)
    finished = await drafts.on_match_finished(rec)
    assert finished.ok and set(finished.data["survey"]) == {ALICE, BOB}
    _, games, _ = await store.limited_rows(GUILD, "logic_square", SET, 1)
    assert sorted((g.seat, g.score) for g in games) == [(0, 1.0), (1, 0.0)]
    seen = finished.data["survey"][ALICE]
    assert (await drafts.answer_survey(match.id, ALICE, fun=4)).ok
    assert (await drafts.answer_survey(match.id, ALICE, strong=seen[0])).ok
    assert (await drafts.answer_survey(match.id, ALICE, weak=seen[0])).error.key == "survey.err.both"
    assert (await drafts.answer_survey(match.id, CAROL, fun=3)).error.key == "survey.err.none"
    assert (await drafts.answer_survey(match.id, ALICE, fun=9)).error.key == "survey.err.fun"
    report = await drafts.report(GUILD, "logic_square", SET)
    assert report.ok
    r = report.data["report"]
    assert r.drafts == 1 and r.matches == 1 and r.surveys == 1
    strong = next(row for row in r.rows if row.card == seen[0])
    assert strong.strong == 1


async def test_a_draft_too_big_for_its_cube_is_refused_with_the_numbers(table):
    _, drafts, _ = table
    res = await drafts.create(guild_id=GUILD, channel_id=5, user_id=ALICE, name="Alice", game="logic_square",
                              set_name=SET, fmt="booster", seats=8, source="cube")
    assert res.error.key == "draft.err.cube_small"
    assert res.error.params["need"] == 8 * 3 * 15


async def test_sealed_pools_open_at_once_and_the_seed_deals_them_again(table):
    _, drafts, _ = table
    res = await drafts.create(guild_id=GUILD, channel_id=5, user_id=ALICE, name="Alice", game="logic_square",
                              set_name=SET, fmt="sealed", seats=2, source="boosters")
    draft = res.data["draft"]
    await drafts.join(draft.id, GUILD, BOB, "Bob")
    res = await drafts.start(draft.id, GUILD, ALICE)
    assert res.ok and res.data["turn"].finished
    row, _ = await drafts.get(draft.id)
    assert row.status == "building"
    first = drafts.pools(row)
    cards, _ = await drafts.cards_of(row)
    again = drafts._deal(row, cards)
    from host.limited.deal import sealed_pools

    assert sealed_pools(again) == first, "the recorded seed deals the same pools"


async def test_a_winston_stack_is_dealt_again_from_its_seed(table, store):
    """"Pools are dealt from a recorded seed, so a pool can be shown and re-dealt exactly": a
    Winston draft's stack too."""
    host, drafts, clock = table
    res = await host.card_sets.upload(GUILD, 7, "maken", "Owl Blades", "blades.json",
                                      cloned_set("maken", 2, limited={"deck": {"size": 15}}), "extend")
    assert res.ok, res
    made = await drafts.create(guild_id=GUILD, channel_id=5, user_id=ALICE, name="Alice", game="maken",
                               set_name="Owl Blades", fmt="winston", size=24, timer=0)
    assert made.ok, made.error
    started = await drafts.start(made.data["draft"].id, GUILD, ALICE)
    assert started.ok, started.error
    row = started.data["turn"].draft
    assert await drafts.dealt_again(row) is True
    from dataclasses import replace

    assert await drafts.dealt_again(replace(row, seed=bytes(32))) is False, "another seed deals another stack"
