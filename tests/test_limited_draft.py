"""The booster draft as a state machine (host/limited/draft.py): passing left then right, packs
queued at a slow seat, every refusal, pick numbers, the pick timer and its automatic picks,
computer seats, a full 8-seat draft, and the stored form read back (and refused when tampered)."""
from __future__ import annotations

import copy
import json
from collections import Counter

import pytest

from host.limited import draft as d
from host.limited.draft import BoosterDraft, PickTimer, Refused

T0 = 1_700_000_000.5


def deal(seats: int, rounds: int = 3, size: int = 3) -> list[list[tuple[str, ...]]]:
    """Packs whose cards say where they were dealt: ``r1s0c2`` is card 2 of seat 0's round-1 pack."""
    return [[tuple(f"r{r}s{s}c{c}" for c in range(size)) for s in range(seats)] for r in range(1, rounds + 1)]


def first(_seat, pack, _pool):
    return pack[0]


def last(_seat, pack, _pool):
    return pack[-1]


def origin(card: str) -> int:
    """The seat whose pack a test card was dealt in."""
    return int(card.split("s")[1].split("c")[0])


def roundtrip(draft: BoosterDraft) -> BoosterDraft:
    return BoosterDraft.from_json(json.loads(json.dumps(draft.to_json())))


# --------------------------------------------------------------------------- passing
def test_round_one_passes_left_round_two_right_round_three_left():
    """"round 1 passes left (seat i hands its pack to i+1), round 2 right, round 3 left"."""
    dr = BoosterDraft(deal(4), timer=None)
    dr.start(T0)
    assert [dr.pack_of(s)[0] for s in range(4)] == ["r1s0c0", "r1s1c0", "r1s2c0", "r1s3c0"]
    ev = dr.pick(0, "r1s0c0", T0)
    assert ev.passed_to == 1 and dr.queued(1) == 2
    ev = dr.pick(3, "r1s3c1", T0)
    assert ev.passed_to == 0                                   # seat 3's left is seat 0
    assert dr.pack_of(0) == ("r1s3c0", "r1s3c2")
    # finish round 1 taking the first card each time, then look at round 2
    while dr.round == 1:
        for s in dr.waiting():
            dr.pick(s, dr.pack_of(s)[0], T0)
    assert dr.round == 2 and [dr.pack_of(s)[0] for s in range(4)] == ["r2s0c0", "r2s1c0", "r2s2c0", "r2s3c0"]
    assert dr.pick(0, "r2s0c0", T0).passed_to == 3             # right: seat 0 hands to seat 3
    assert dr.pick(2, "r2s2c0", T0).passed_to == 1
    while dr.round == 2:
        for s in dr.waiting():
            dr.pick(s, dr.pack_of(s)[0], T0)
    assert dr.pick(1, "r3s1c0", T0).passed_to == 2             # left again
    assert [d.direction(r) for r in (1, 2, 3, 4)] == [1, -1, 1, -1]


def test_round_one_pools_follow_the_packs_to_the_left():
    """With everyone taking the first card, seat s's k-th pick (from 0) in round 1 comes from
    the pack of seat s - k (it travelled left k times); in round 2 from seat s + k."""
    dr = BoosterDraft(deal(5, rounds=2, size=5), timer=None)
    dr.start(T0)
    while not dr.done:
        for s in dr.waiting():
            dr.pick(s, dr.pack_of(s)[0], T0)
    for s in range(5):
        pool = dr.pool_of(s)
        assert [origin(c) for c in pool[:5]] == [(s - k) % 5 for k in range(5)]
        assert [origin(c) for c in pool[5:]] == [(s + k) % 5 for k in range(5)]


def test_a_slow_seat_queues_packs_and_picks_from_the_oldest():
    """"a seat may have several packs queued … picks from the oldest pack waiting for it"."""
    dr = BoosterDraft(deal(3), timer=None)
    dr.start(T0)
    dr.pick(0, "r1s0c0", T0)            # seat 0's pack goes to seat 1, which has its own still
    assert dr.queued(1) == 2 and dr.pack_of(1) == ("r1s1c0", "r1s1c1", "r1s1c2")
    dr.pick(2, "r1s2c0", T0)            # seat 2's pack reaches seat 0
    dr.pick(0, "r1s2c1", T0)            # and seat 0 passes it on to seat 1
    assert dr.waiting() == [1] and dr.queued(1) == 3
    assert dr.pick_number(1) == 1 and dr.pick_number(0) is None
    dr.pick(1, "r1s1c2", T0)            # its own pack first
    assert dr.pack_of(1) == ("r1s0c1", "r1s0c2") and dr.pick_number(1) == 2
    ev = dr.pick(1, "r1s0c2", T0)
    assert ev.passed_to == 2
    assert dr.pack_of(1) == ("r1s2c2",) and dr.pick_number(1) == 3
    assert dr.waiting() == [1, 2]       # seat 1's own pack has reached seat 2, seat 0's behind it
    assert dr.pack_of(2) == ("r1s1c0", "r1s1c1") and dr.queued(2) == 2


def test_a_round_ends_only_when_every_pack_is_empty():
    """A fast seat waits; the next round's packs open once the last card of the round is taken."""
    dr = BoosterDraft(deal(2, rounds=2, size=2), timer=None)
    dr.start(T0)
    dr.pick(0, "r1s0c0", T0)
    dr.pick(1, "r1s1c0", T0)
    ev = dr.pick(0, "r1s1c1", T0)
    assert not ev.round_over and ev.passed_to is None and dr.round == 1
    assert dr.waiting() == [1] and dr.pack_of(0) is None
    ev = dr.pick(1, "r1s0c1", T0)
    assert ev.round_over and not ev.done and dr.round == 2
    assert dr.pack_of(0) == ("r2s0c0", "r2s0c1") and dr.pack_of(1) == ("r2s1c0", "r2s1c1")


# --------------------------------------------------------------------------- refusals
def refused(fn, *args, **kw) -> str:
    with pytest.raises(Refused) as exc:
        fn(*args, **kw)
    return exc.value.code


def test_every_refusal_has_its_code():
    dr = BoosterDraft(deal(3, rounds=1, size=2), computers=[2], timer=None)
    assert refused(dr.pick, 0, "r1s0c0", T0) == d.NOT_STARTED
    dr.start(T0)
    assert refused(dr.start, T0) == d.ALREADY_STARTED
    assert refused(dr.pick, 0, "r1s1c0", T0) == d.NOT_IN_PACK          # in another seat's pack
    assert refused(dr.pick, 0, "nonsense", T0) == d.NOT_IN_PACK
    assert refused(dr.pick, 0, None, T0) == d.NOT_IN_PACK
    assert refused(dr.pick, 3, "r1s0c0", T0) == d.UNKNOWN_SEAT
    assert refused(dr.pick, -1, "r1s0c0", T0) == d.UNKNOWN_SEAT
    assert refused(dr.pick, True, "r1s0c0", T0) == d.UNKNOWN_SEAT
    assert refused(dr.pick, 2, "r1s2c0", T0) == d.COMPUTER_SEAT
    assert refused(dr.pick, 0, "r1s0c0", T0, expect=(1, 2)) == d.STALE
    dr.pick(0, "r1s0c0", T0, expect=(1, 1))
    assert refused(dr.pick, 0, "r1s2c0", T0) == d.NOT_YOUR_PACK        # nothing in front of seat 0
    assert refused(dr.pick, 1, "r1s0c1", T0) == d.NOT_IN_PACK          # queued, not in front
    dr.pick(1, "r1s1c0", T0)
    dr.computer_picks(first, T0)
    dr.pick(0, dr.pack_of(0)[0], T0)
    dr.pick(1, dr.pack_of(1)[0], T0)
    dr.computer_picks(first, T0)
    assert dr.done
    assert refused(dr.pick, 0, "r1s0c1", T0) == d.DRAFT_OVER
    assert set(d.REFUSALS) == {d.NOT_STARTED, d.ALREADY_STARTED, d.DRAFT_OVER, d.UNKNOWN_SEAT, d.NOT_YOUR_PACK,
                               d.NOT_IN_PACK, d.STALE, d.COMPUTER_SEAT}


def test_a_refused_pick_changes_nothing():
    dr = BoosterDraft(deal(2), timer=None)
    dr.start(T0)
    before = dr.to_json()
    for args in ((0, "r1s1c0"), (5, "r1s0c0")):
        with pytest.raises(Refused):
            dr.pick(*args, T0)
    with pytest.raises(Refused):
        dr.pick(0, "r1s0c0", T0, expect=(2, 1))
    assert dr.to_json() == before


@pytest.mark.parametrize("packs,why", [
    ([[("a",)]], "seats"),                                           # one seat
    ([[("a",)] * 9], "seats"),                                       # nine seats
    ([[("a", "b"), ("c",)]], "same number"),                         # packs of different sizes
    ([[("a",), ("b",)], [("c",)]], "one pack for each"),             # a round short of a pack
    ([[(), ()]], "1 to"),                                            # an empty pack
    ([[("a",), ("",)]], "card id"),
    ([[("a",), (7,)]], "card id"),
    ([], "rounds"),
])
def test_packs_that_cannot_be_drafted_are_refused(packs, why):
    with pytest.raises(ValueError, match=why):
        BoosterDraft(packs)


def test_the_same_card_twice_in_a_pack_is_taken_one_copy_at_a_time():
    dr = BoosterDraft([[("x", "x", "y"), ("z", "z", "z")]], timer=None)
    dr.start(T0)
    dr.pick(0, "x", T0)
    assert dr.pack_of(1) == ("z", "z", "z") and dr.queued(1) == 2
    dr.pick(1, "z", T0)
    assert dr.pack_of(1) == ("x", "y")


# --------------------------------------------------------------------------- pick numbers
def test_pick_numbers_count_within_the_pack():
    """pick_no is the card's place in its pack: every seat makes picks 1..size once a round."""
    dr = BoosterDraft(deal(3, rounds=2, size=4), timer=None)
    dr.start(T0)
    assert [dr.pick_number(s) for s in range(3)] == [1, 1, 1]
    while not dr.done:
        for s in dr.waiting():
            dr.pick(s, dr.pack_of(s)[-1], T0)
    for s in range(3):
        for r in (1, 2):
            assert sorted(e.pick_no for e in dr.log if e.seat == s and e.round == r) == [1, 2, 3, 4]
    assert dr.pick_number(0) is None


# --------------------------------------------------------------------------- the timer
def test_the_timer_shrinks_with_the_pack_and_never_goes_below_its_floor():
    t = PickTimer()
    assert (t.base, t.per_card, t.floor) == (10.0, 5.0, 10.0)
    assert [t.limit(n) for n in (15, 14, 2, 1, 0)] == [85.0, 80.0, 20.0, 15.0, 10.0]
    steep = PickTimer(base=0, per_card=4, floor=10)
    assert [steep.limit(n) for n in (5, 3, 2, 1)] == [20.0, 12.0, 10.0, 10.0]
    for bad in (dict(base=-1), dict(per_card=float("nan")), dict(floor=0.5), dict(base=True),
                dict(floor=d.MAX_TIMER + 1), dict(per_card="5")):
        with pytest.raises(ValueError):
            PickTimer(**bad)


def test_a_deadline_starts_when_the_pack_reaches_the_front():
    """The clock of a queued pack starts when the seat picks from the pack before it, not when
    it arrived; a pack reaching an idle seat starts its clock on arrival."""
    t = PickTimer(base=10, per_card=5, floor=10)
    dr = BoosterDraft(deal(3, rounds=1, size=3), timer=t)
    dr.start(T0)
    assert [dr.deadline(s) for s in range(3)] == [T0 + 25] * 3         # 3 cards: 10 + 15
    dr.pick(0, "r1s0c0", T0 + 4)          # arrives at seat 1, which is still on its own pack
    assert dr.deadline(1) == T0 + 25 and dr.deadline(0) is None
    dr.pick(1, "r1s1c0", T0 + 9)          # now seat 0's pack (2 cards) is in front of seat 1
    assert dr.deadline(1) == T0 + 9 + 20
    dr.pick(2, "r1s2c0", T0 + 12)         # seat 2's pack reaches idle seat 0: its clock starts now
    assert dr.deadline(0) == T0 + 12 + 20
    assert dr.deadline(2) == T0 + 12 + 20   # seat 1's pack waited behind seat 2's own until now
    assert dr.next_deadline() == T0 + 9 + 20


def test_an_expired_pick_is_taken_by_the_chooser_and_marked_automatic():
    dr = BoosterDraft(deal(2, rounds=1, size=3), timer=PickTimer())
    dr.start(T0)
    assert dr.due(T0 + 24.9) == []
    dr.pick(1, "r1s1c0", T0 + 1)
    assert dr.due(T0 + 25) == [0]                                       # 10 + 5 * 3 after the start
    seen = []

    def chooser(seat, pack, pool):
        seen.append((seat, pack, pool))
        return pack[-1]

    events = dr.expire(T0 + 30, chooser)
    assert seen == [(0, ("r1s0c0", "r1s0c1", "r1s0c2"), ())]
    assert [e.entry for e in events] == [d.LogEntry(1, 1, 0, "r1s0c2", True, T0 + 30)]
    # seat 0 now has seat 1's pack (it arrived at T0 + 1 but came to the front at T0 + 30)
    assert dr.deadline(0) == T0 + 30 + 20
    assert dr.expire(T0 + 31, chooser) == []
    assert dr.log[0].auto is False and dr.log[1].auto is True


def test_without_a_timer_nothing_is_ever_due():
    dr = BoosterDraft(deal(2), timer=None)
    dr.start(T0)
    assert dr.due(T0 + 10**9) == [] and dr.deadline(0) is None and dr.next_deadline() is None


def test_time_never_runs_backwards_inside_a_draft():
    dr = BoosterDraft(deal(2), timer=None)
    dr.start(T0)
    dr.pick(0, "r1s0c0", T0 + 50)
    ev = dr.pick(1, "r1s1c0", T0 + 20)       # another process with a clock behind
    assert ev.entry.at == T0 + 50
    with pytest.raises(ValueError):
        dr.pick(1, "r1s0c1", float("inf"))


# --------------------------------------------------------------------------- computer seats
def test_computer_seats_pick_at_once_and_a_table_of_computers_drafts_to_the_end():
    dr = BoosterDraft(deal(4, rounds=3, size=5), computers=range(4), timer=PickTimer())
    dr.start(T0)
    events = dr.computer_picks(first, T0 + 1)
    assert dr.done and len(events) == 60 and events[-1].done
    assert all(e.entry.auto for e in events) and all(len(dr.pool_of(s)) == 15 for s in range(4))


def test_computer_picks_stop_where_a_person_must_choose():
    dr = BoosterDraft(deal(3, rounds=1, size=3), computers=[1, 2], timer=None)
    dr.start(T0)
    events = dr.computer_picks(first, T0)
    # seats 1 and 2 take from their own packs; seat 2 then from seat 1's; seat 0 now holds two
    assert [(e.entry.seat, e.entry.card) for e in events] == [
        (1, "r1s1c0"), (2, "r1s2c0"), (2, "r1s1c1")]
    assert dr.waiting() == [0] and dr.queued(0) == 3
    assert dr.pack_of(0) == ("r1s0c0", "r1s0c1", "r1s0c2")
    dr.pick(0, "r1s0c0", T0)
    events = dr.computer_picks(first, T0)
    assert {e.entry.seat for e in events} == {1, 2}
    assert dr.waiting() == [0]


# --------------------------------------------------------------------------- a full draft
def test_a_full_eight_seat_draft_of_three_packs_of_fifteen():
    """8 seats × 3 packs of 15 (half of them people, who take the last card, half computers):
    45 cards each, every dealt card in exactly one pool, 360 picks logged, picks 1..15 once a
    round for each seat, and the stored form read back at any point continues the same way."""
    packs = deal(8, rounds=3, size=15)
    dr = BoosterDraft(packs, computers=[1, 3, 5, 7], timer=PickTimer())
    dr.start(T0)
    now = T0
    steps = 0
    while not dr.done:
        now += 1
        dr.computer_picks(first, now)
        for s in dr.waiting():
            if s % 2 == 0:
                dr.pick(s, dr.pack_of(s)[-1], now)
        steps += 1
        if steps % 7 == 0:
            dr = roundtrip(dr)
    assert [len(dr.pool_of(s)) for s in range(8)] == [45] * 8
    dealt = Counter(c for rnd in packs for p in rnd for c in p)
    assert Counter(c for p in dr.pools() for c in p) == dealt
    assert len(dr.log) == 360
    for s in range(8):
        for r in (1, 2, 3):
            assert sorted(e.pick_no for e in dr.log if e.seat == s and e.round == r) == list(range(1, 16))
        assert all(e.auto == (s % 2 == 1) for e in dr.log if e.seat == s)
    assert dr.waiting() == [] and dr.next_deadline() is None
    assert roundtrip(dr).to_json() == dr.to_json()


# --------------------------------------------------------------------------- storing
def mid_draft() -> BoosterDraft:
    dr = BoosterDraft(deal(3, rounds=2, size=3), computers=[2], timer=PickTimer(base=30, per_card=2, floor=20))
    dr.start(T0)
    dr.pick(0, "r1s0c1", T0 + 3)
    dr.computer_picks(first, T0 + 4)
    dr.expire(T0 + 100, last)
    return dr


def test_a_stored_draft_reads_back_and_carries_on_identically():
    dr = mid_draft()
    back = roundtrip(dr)
    assert back.to_json() == dr.to_json()
    assert (back.pools(), back.waiting(), back.log) == (dr.pools(), dr.waiting(), dr.log)
    assert [back.deadline(s) for s in range(3)] == [dr.deadline(s) for s in range(3)]
    for x in (dr, back):
        while not x.done:
            x.computer_picks(first, T0 + 200)
            for s in x.waiting():
                if s != 2:
                    x.pick(s, x.pack_of(s)[0], T0 + 200)
    assert back.to_json() == dr.to_json()
    not_started = BoosterDraft(deal(2))
    assert roundtrip(not_started).to_json() == not_started.to_json()


def tampered(change) -> dict:
    data = json.loads(json.dumps(mid_draft().to_json()))
    change(data)
    return data


@pytest.mark.parametrize("change", [
    lambda j: j["pools"][0].append("r1s0c0"),                 # a card slipped into a pool
    lambda j: j["pools"].reverse(),                           # pools swapped between seats
    lambda j: j["contents"][1].pop(),                         # a card vanished from a pack
    lambda j: j["queues"][1].reverse(),                       # the queue reordered
    lambda j: j["since"].__setitem__(0, T0),                  # a deadline moved
    lambda j: j["log"][0].__setitem__(3, "r1s1c0"),           # a pick from another pack
    lambda j: j["log"][0].__setitem__(2, 1),                  # a pick by another seat
    lambda j: j["log"][0].__setitem__(1, 2),                  # the wrong pick number
    lambda j: j["log"][0].__setitem__(5, T0 - 1),             # a pick before the start
    lambda j: j["log"][1].__setitem__(4, False),              # a computer's pick as a person's
    lambda j: j["log"][0].__setitem__(4, True),               # a person's pick as timed out, too early
    lambda j: j["log"].pop(),                                 # a pick forgotten
    lambda j: j["log"].append(j["log"][-1]),                  # a pick twice
    lambda j: j["log"][0].append("extra"),
    lambda j: j.__setitem__("round", 2),
    lambda j: j.__setitem__("seats", 4),
    lambda j: j.__setitem__("seats", "3"),
    lambda j: j.__setitem__("computers", [2, 2]),
    lambda j: j.__setitem__("computers", [3]),
    lambda j: j.__setitem__("timer", {"base": 30}),
    lambda j: j["timer"].__setitem__("floor", 0),
    lambda j: j.__setitem__("started_at", None),
    lambda j: j.__setitem__("started_at", "yesterday"),
    lambda j: j["packs"][0][0].__setitem__(0, "forged"),
    lambda j: j["packs"][1].pop(),
    lambda j: j.__setitem__("format", "draft/booster/0"),
    lambda j: j.__setitem__("surprise", 1),
    lambda j: j.pop("queues"),
])
def test_a_tampered_draft_is_refused(change):
    with pytest.raises(ValueError):
        BoosterDraft.from_json(tampered(change))


def test_refusal_of_things_that_are_not_drafts():
    for junk in (None, [], "draft", {"format": d.FORMAT}, {**mid_draft().to_json(), "log": "x"}):
        with pytest.raises(ValueError):
            BoosterDraft.from_json(copy.deepcopy(junk))
