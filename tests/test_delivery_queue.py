"""Issue 15: a publisher sleeping out a 429 never holds up the next updates of its match.
While an update of a match is being shown, later ones join the line as ONE coalesced update —
the newest board and views, every line and ping of the skipped ones — shown right after; the
callers return at once."""
from __future__ import annotations

import asyncio
from types import SimpleNamespace

from cogs.delivery import Delivery, coalesce
from data.store import ACTIVE
from host.types import PublicUpdate, Result, msg


def _result(version: int, line: str, notify: list[int] | None = None) -> Result:
    rec = SimpleNamespace(id=7, status=ACTIVE, version=version)
    return Result(ok=True, match=rec, public=PublicUpdate(text=[msg("host.raw", text=line)], view={"v": version}),
                  notify=notify or [])


def test_coalesce_keeps_the_newest_state_and_every_line_and_ping():
    a, b = _result(2, "two", [1]), _result(3, "three", [2])
    for merged in (coalesce(a, b), coalesce(b, a)):      # in whatever order they arrive
        assert merged.match.version == 3 and merged.public.view == {"v": 3}
        assert [m.render("en") for m in merged.public.text] == ["two", "three"]
        assert merged.notify == [1, 2]


async def test_updates_behind_a_slow_publish_are_coalesced_and_shown_once_after_it():
    delivery = Delivery.__new__(Delivery)
    Delivery.__init__(delivery, SimpleNamespace(host=None, store=None))
    shown: list[tuple[int, list[str]]] = []
    release = asyncio.Event()

    async def slow_publish(result, rec, actor, via=None):
        if not shown:
            await release.wait()              # the first board edit sleeps out a 429
        shown.append((rec.version, [m.render("en") for m in result.public.text]))
        return f"board {rec.version}"

    delivery._publish = slow_publish
    first = asyncio.create_task(delivery.publish(_result(1, "one"), actor=1))
    await asyncio.sleep(0)
    assert await delivery.publish(_result(2, "two"), actor=2) is None       # returns at once
    assert await delivery.publish(_result(3, "three"), actor=1) is None
    assert not first.done()
    release.set()
    assert await first == "board 3"
    assert shown == [(1, ["one"]), (3, ["two", "three"])]               # one coalesced update after


async def test_a_dm_whose_newer_view_is_queued_is_edited_once_with_the_newer():
    """A hand shown by DM is edited once per burst: when a newer update of the match is queued
    behind the one being shown, the older update's DMs to the same players are skipped (the
    newer follows at once) — no in-between hand, no wasted rate-limited edit; a player the
    newer update has no DM for still gets the older one's."""
    delivery = Delivery.__new__(Delivery)
    Delivery.__init__(delivery, SimpleNamespace(host=None, store=None))
    sent: list[tuple[int, int]] = []

    async def deliver_private(rec, pu, *, active=False):
        sent.append((rec.version, pu.user_id))

    delivery.deliver_private = deliver_private
    older, newer = _result(4, "four"), _result(5, "five")
    older.private = [SimpleNamespace(seat=0, user_id=10), SimpleNamespace(seat=1, user_id=11)]
    newer.private = [SimpleNamespace(seat=0, user_id=10)]
    delivery._queued[7] = (newer, 1)
    await delivery._deliver_privates(older, older.match)
    assert sent == [(4, 11)]                       # player 10's in-between hand is not sent
    delivery._queued.pop(7)
    await delivery._deliver_privates(newer, newer.match)
    assert sent == [(4, 11), (5, 10)]
    await delivery._deliver_privates(older, older.match)     # nothing queued: every DM goes out
    assert sent[-2:] == [(4, 10), (4, 11)]


async def test_the_computers_seat_gets_no_dm_to_the_bot_itself():
    """A practice match seats the bot's own user as the computer (cogs/practice.py): its private
    view is never sent as a DM (Discord refuses a DM to oneself, a wasted rate-limited call);
    the person's DM still goes out."""
    delivery = Delivery.__new__(Delivery)
    Delivery.__init__(delivery, SimpleNamespace(host=None, store=None, user=SimpleNamespace(id=99)))
    sent: list[int] = []

    async def deliver_private(rec, pu, *, active=False):
        sent.append(pu.user_id)

    delivery.deliver_private = deliver_private
    res = _result(6, "six")
    res.private = [SimpleNamespace(seat=0, user_id=10), SimpleNamespace(seat=1, user_id=99)]
    await delivery._deliver_privates(res, res.match)
    assert sent == [10]
