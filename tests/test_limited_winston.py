"""The Winston draft for two (host/limited/winston.py): small stacks followed step by step by
hand, the end of the stack, refusals, the look timer, and the stored form read back (and
refused when tampered)."""
from __future__ import annotations

import copy
import json
import random
from collections import Counter

import pytest

from host.limited import winston as w
from host.limited.draft import PickTimer, Refused
from host.limited.winston import WinstonDraft

T0 = 1_700_000_000.5
NINE = list("abcdefghi")          # the stack, top first


def state(dr: WinstonDraft) -> tuple:
    """What the table shows: piles (cards), the stack (top first), who looks at which pile."""
    j = dr.to_json()
    return ["".join(p) for p in j["piles"]], "".join(j["stack"]), j["to_act"], j["looking_at"]


def pools(dr: WinstonDraft) -> list[str]:
    return ["".join(p) for p in dr.pools()]


def roundtrip(dr: WinstonDraft) -> WinstonDraft:
    return WinstonDraft.from_json(json.loads(json.dumps(dr.to_json())))


def test_three_piles_start_with_one_card_each_from_the_top_of_the_stack():
    dr = WinstonDraft(NINE, timer=None)
    assert state(dr) == (["a", "b", "c"], "defghi", None, None)
    dr.start(T0)
    assert state(dr) == (["a", "b", "c"], "defghi", 0, 0)
    assert dr.pile_in_front(0) == ("a",) and dr.pile_in_front(1) is None     # only the looker sees it


def test_a_nine_card_stack_followed_by_hand_to_the_end():
    """Each step checked: a take refills the pile, a pass adds a card and moves on, passing pile
    3 takes the top of the stack blind (with one card left that card is the blind one and the
    pile gets nothing), an empty stack adds nothing, the last pile with cards must be taken, an
    empty pile is skipped, and the draft ends when everything is empty."""
    dr = WinstonDraft(NINE, timer=None)
    dr.start(T0)
    # turn 1, player 0: pass pile 1 (d onto it), take pile 2 (b; refilled with e)
    ev = dr.pass_pile(0, T0)
    assert (ev.entry.action, ev.entry.pile, ev.turn_over) == ("pass", 0, False)
    assert state(dr) == (["ad", "b", "c"], "efghi", 0, 1)
    ev = dr.take(0, T0)
    assert (ev.entry.action, ev.entry.cards, ev.turn_over) == ("take", ("b",), True)
    assert state(dr) == (["ad", "e", "c"], "fghi", 1, 0) and pools(dr) == ["b", ""]
    # turn 2, player 1: takes pile 1 (a, d; refilled with f)
    dr.take(1, T0)
    assert state(dr) == (["f", "e", "c"], "ghi", 0, 0) and pools(dr) == ["b", "ad"]
    # turn 3, player 0: passes all three; g onto pile 1, h onto pile 2, then pile 3 with one card
    # left in the stack: i is the blind card and pile 3 stays as it was
    dr.pass_pile(0, T0)
    dr.pass_pile(0, T0)
    assert state(dr) == (["fg", "eh", "c"], "i", 0, 2)
    ev = dr.pass_pile(0, T0)
    assert (ev.entry.action, ev.entry.pile, ev.entry.cards, ev.turn_over) == ("blind", 2, ("i",), True)
    assert state(dr) == (["fg", "eh", "c"], "", 1, 0) and pools(dr) == ["bi", "ad"]
    # turn 4, player 1: the stack is empty; passing adds nothing, and pile 3 must be taken
    dr.pass_pile(1, T0)
    dr.pass_pile(1, T0)
    assert state(dr) == (["fg", "eh", "c"], "", 1, 2)
    assert not dr.can_pass()
    with pytest.raises(Refused) as exc:
        dr.pass_pile(1, T0)
    assert exc.value.code == w.MUST_TAKE
    dr.take(1, T0)
    assert state(dr) == (["fg", "eh", ""], "", 0, 0) and pools(dr) == ["bi", "adc"]
    # turn 5, player 0: takes pile 1, which is not refilled
    dr.take(0, T0)
    assert state(dr) == (["", "eh", ""], "", 1, 1)                 # the empty pile 1 is skipped
    # turn 6, player 1: pile 2 is the only one left, so it must be taken; the draft ends
    assert not dr.can_pass()
    ev = dr.take(1, T0)
    assert ev.done and dr.done and dr.to_act is None
    assert state(dr) == (["", "", ""], "", None, None)
    assert pools(dr) == ["bifg", "adceh"]
    assert [(e.turn, e.player, e.action, e.pile) for e in dr.log] == [
        (1, 0, "pass", 0), (1, 0, "take", 1), (2, 1, "take", 0), (3, 0, "pass", 0), (3, 0, "pass", 1),
        (3, 0, "blind", 2), (4, 1, "pass", 0), (4, 1, "pass", 1), (4, 1, "take", 2), (5, 0, "take", 0),
        (6, 1, "take", 1)]
    assert roundtrip(dr).to_json() == dr.to_json()


def test_passing_pile_three_with_cards_to_spare_adds_one_and_takes_the_next_blind():
    dr = WinstonDraft(NINE, timer=None)
    dr.start(T0)
    for _ in range(3):
        dr.pass_pile(0, T0)
    assert state(dr) == (["ad", "be", "cf"], "hi", 1, 0) and pools(dr) == ["g", ""]


def test_a_stack_of_three_is_the_smallest_and_runs_out_at_once():
    dr = WinstonDraft(["x", "y", "z"], first=1, timer=None)
    dr.start(T0)
    assert dr.to_act == 1 and dr.stack_size() == 0
    dr.pass_pile(1, T0)                            # adds nothing
    dr.pass_pile(1, T0)
    with pytest.raises(Refused):
        dr.pass_pile(1, T0)
    dr.take(1, T0)
    assert pools(dr) == ["", "z"] and dr.to_act == 0
    dr.take(0, T0)
    dr.take(1, T0)
    assert dr.done and pools(dr) == ["x", "zy"]


def test_random_stacks_deal_every_card_exactly_once():
    """Whatever the players do, every card of the stack ends in exactly one pool, the players
    alternate after each take, and a stored draft read back at any point is the same."""
    rng = random.Random(7)                       # the test's own choices, not the draft's
    for size in (3, 4, 5, 10, 45, 90):
        stack = [f"c{i}" for i in range(size)]
        dr = WinstonDraft(stack, first=size % 2, timer=None)
        dr.start(T0)
        last_player = None
        while not dr.done:
            p = dr.to_act
            if dr.can_pass() and rng.random() < 0.6:
                ev = dr.pass_pile(p, T0)
            else:
                ev = dr.take(p, T0)
            if ev.turn_over:
                assert ev.entry.player != last_player
                last_player = ev.entry.player
            if rng.random() < 0.1:
                dr = roundtrip(dr)
        assert Counter(c for pool in dr.pools() for c in pool) == Counter(stack)
        assert dr.stack_size() == 0 and dr.pile_sizes() == (0, 0, 0)


# --------------------------------------------------------------------------- refusals
def test_every_refusal_has_its_code():
    dr = WinstonDraft(NINE, timer=None)
    for action in (dr.take, dr.pass_pile):
        with pytest.raises(Refused) as exc:
            action(0, T0)
        assert exc.value.code == w.NOT_STARTED
    dr.start(T0)
    with pytest.raises(Refused) as exc:
        dr.start(T0)
    assert exc.value.code == w.ALREADY_STARTED
    for player, code in ((1, w.NOT_YOUR_TURN), (2, w.UNKNOWN_SEAT), (True, w.UNKNOWN_SEAT)):
        with pytest.raises(Refused) as exc:
            dr.take(player, T0)
        assert exc.value.code == code
    before = dr.to_json()
    assert before["log"] == []
    while not dr.done:
        dr.take(dr.to_act, T0)
    with pytest.raises(Refused) as exc:
        dr.take(0, T0)
    assert exc.value.code == w.DRAFT_OVER


@pytest.mark.parametrize("stack,first", [(["a", "b"], 0), ([], 0), (["a", "b", ""], 0), (["a", "b", 3], 0),
                                         (NINE, 2), (NINE, True), ("abc", 0)])
def test_stacks_that_cannot_be_drafted_are_refused(stack, first):
    with pytest.raises(ValueError):
        WinstonDraft(stack, first=first)


# --------------------------------------------------------------------------- the timer
def test_a_look_that_runs_out_of_time_takes_the_pile_in_front():
    """The time for a look is the pick timer on the pile's cards, from when the look began."""
    dr = WinstonDraft(NINE, timer=PickTimer(base=10, per_card=5, floor=10))
    dr.start(T0)
    assert dr.deadline() == T0 + 15                               # one card: 10 + 5
    dr.pass_pile(0, T0 + 3)                                       # pile 2 (one card) from now
    assert dr.deadline() == T0 + 3 + 15
    assert dr.due(T0 + 17.9) == [] and dr.due(T0 + 18) == [0]
    events = dr.expire(T0 + 20)
    assert [(e.entry.action, e.entry.pile, e.entry.cards, e.entry.auto) for e in events] == [
        ("take", 1, ("b",), True)]
    assert dr.to_act == 1 and dr.deadline() == T0 + 20 + 20      # pile 1 now holds two cards
    assert dr.expire(T0 + 21) == []
    assert roundtrip(dr).to_json() == dr.to_json()
    untimed = WinstonDraft(NINE, timer=None)
    untimed.start(T0)
    assert untimed.deadline() is None and untimed.due(T0 + 10**9) == []


# --------------------------------------------------------------------------- storing
def mid_draft() -> WinstonDraft:
    dr = WinstonDraft(NINE, first=1, timer=PickTimer())
    dr.start(T0)
    dr.pass_pile(1, T0 + 1)
    dr.take(1, T0 + 2)
    dr.pass_pile(0, T0 + 3)
    dr.expire(T0 + 100)
    return dr


def test_a_stored_draft_reads_back_and_carries_on_identically():
    dr = mid_draft()
    back = roundtrip(dr)
    assert back.to_json() == dr.to_json() and back.log == dr.log
    for x in (dr, back):
        while not x.done:
            if x.can_pass():
                x.pass_pile(x.to_act, T0 + 200)
            else:
                x.take(x.to_act, T0 + 200)
    assert back.to_json() == dr.to_json()
    fresh = WinstonDraft(NINE)
    assert roundtrip(fresh).to_json() == fresh.to_json()


@pytest.mark.parametrize("change", [
    lambda j: j["pools"][0].append("z"),
    lambda j: j["pools"].reverse(),
    lambda j: j["piles"][0].reverse(),
    lambda j: j["stack"].pop(),
    lambda j: j.__setitem__("to_act", 1 - j["to_act"]),
    lambda j: j.__setitem__("looking_at", 2),
    lambda j: j.__setitem__("since", T0),
    lambda j: j.__setitem__("turn", 9),
    lambda j: j["log"][0].__setitem__(2, "take"),            # a pass turned into a take
    lambda j: j["log"][1].__setitem__(4, ["z"]),             # other cards taken
    lambda j: j["log"][1].__setitem__(1, 0),                 # by the other player
    lambda j: j["log"][1].__setitem__(3, 0),                 # from another pile
    lambda j: j["log"][0].__setitem__(5, True),              # a pass is never automatic
    lambda j: j["log"][1].__setitem__(5, True),              # a person's take as the timer's, too early
    lambda j: j["log"][1].__setitem__(6, T0 - 5),            # before the start
    lambda j: j["log"][0].__setitem__(2, "shuffle"),
    lambda j: j["log"].pop(),
    lambda j: j["log"].append(j["log"][-1]),
    lambda j: j["stack_dealt"].reverse(),
    lambda j: j.__setitem__("first", 0),
    lambda j: j.__setitem__("first", 2),
    lambda j: j.__setitem__("timer", None),
    lambda j: j.__setitem__("started_at", None),
    lambda j: j.__setitem__("format", "draft/booster/1"),
    lambda j: j.__setitem__("extra", []),
])
def test_a_tampered_draft_is_refused(change):
    data = json.loads(json.dumps(mid_draft().to_json()))
    change(data)
    with pytest.raises(ValueError):
        WinstonDraft.from_json(data)


def test_odd_values_anywhere_in_a_stored_draft_raise_only_value_error():
    """Every field of a stored draft replaced by values of the wrong kind: read back, it is
    either refused with ValueError or read exactly as given, never a crash of another kind."""
    base = mid_draft().to_json()

    def paths(obj, path=()):
        if isinstance(obj, dict):
            for k, v in obj.items():
                yield from paths(v, path + (k,))
        elif isinstance(obj, list):
            for i, v in enumerate(obj):
                yield from paths(v, path + (i,))
        if path:
            yield path

    for path in paths(base):
        for odd in (None, True, -1, 1.5, float("nan"), "x", [], {}):
            data = copy.deepcopy(base)
            node = data
            for k in path[:-1]:
                node = node[k]
            node[path[-1]] = odd
            try:
                assert WinstonDraft.from_json(data).to_json() == data
            except ValueError:
                pass
