"""End-to-end events (issue 34): the real ``bot.py`` against the twin, as an organiser runs them.

* A 6-player **double elimination** to its grand final: sign-up by the Join button, the start,
  every bracket match announced with a ping for its two players, results decided by the
  organiser, the bracket picture posted in the league's channel and brought up to date as
  results arrive, ``/league bracket`` answering with the picture, the final standings led by
  the bracket's placings, and the trail and CSV export read back.
"""
from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from data.csv_export import read_csv

from .checks import assert_ephemeral
from .test_league_e2e import ADMIN, announcements, create_league
from .twin import find_component

pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")

OPEN = re.compile(r"^#(\d+) round (\d+): (\w+) vs (\w+) — to play$")


async def open_pairings(twin, organiser: dict, league_id: int) -> list[tuple[int, str, str]]:
    """The pairings to play now, as the organiser's /league-admin report autocomplete offers them."""
    choices = await twin.autocomplete(organiser, "league-admin report", "pairing", pairing="", league=league_id)
    out = []
    for c in choices:
        m = OPEN.match(c["name"])
        if m:
            out.append((int(m.group(1)), m.group(3), m.group(4)))
    return out


def bracket_posts(twin, league_id: int) -> list[dict]:
    """The league channel's bracket pictures (messages with a bracket PNG)."""
    return [m for m in twin.posts(twin.channel["id"]) if any(a["filename"].startswith("bracket")
                                                            for a in m.get("attachments") or [])]


async def test_a_six_player_double_elimination_to_its_grand_final(table, twin):
    names = ["Alice", "Bob", "Carol", "Dave", "Erin", "Fay"]
    users = {n: twin.user(n) for n in names}
    organiser = users["Alice"] = table.alice
    league_id, message = await create_league(table, name="Winter Open", game="squares", format="double",
                                             seeding="random")
    for n in names:
        ix = await twin.click(users[n], twin.message(message["id"]), f"lg:{league_id}:join")
        assert_ephemeral(ix)
    ix = await twin.slash(organiser, "league-admin start", league=league_id, permissions=ADMIN)
    assert_ephemeral(ix)
    await twin.wait_for(lambda: bracket_posts(twin, league_id), what="the bracket picture")
    first_picture = bracket_posts(twin, league_id)[-1]
    img = Image.open(io.BytesIO(twin.attachment(first_picture)))
    assert img.format == "PNG" and img.width >= 400

    played = 0
    seen_pairings: set[int] = set()
    for _ in range(20):        # 6 players: at most 2·6 − 1 matches (with the reset)
        pairings = await open_pairings(twin, organiser, league_id)
        if not pairings:
            break
        for pairing, a, b in pairings:
            if pairing in seen_pairings:
                continue
            seen_pairings.add(pairing)
            # every bracket match is announced, pinging exactly its two players
            announced = await twin.wait_for(
                lambda: [m for m in announcements(twin, league_id, "") if f"`#{pairing}`" in m["content"]],
                what=f"the announcement of pairing #{pairing}")
            pinged = {str(u) for m in announced for u in (m.get("_allowed_mentions") or {}).get("users", [])}
            assert {users[a]["id"], users[b]["id"]} <= pinged
            ix = await twin.slash(organiser, "league-admin report", pairing=pairing, result="first",
                                  league=league_id, permissions=ADMIN)
            assert f"#{pairing}" in ix.text, ix.text
            played += 1
        await twin.settle(quiet=0.3)
    assert 9 <= played <= 11, played
    await twin.wait_for(lambda: announcements(twin, league_id, "is finished"), what="the end of the event")

    # the bracket picture was brought up to date as results arrived
    pictures = bracket_posts(twin, league_id)
    versions = sum(len(m["_versions"]) for m in pictures)
    assert versions > 1, "the bracket picture never changed"
    ix = await twin.slash(users["Bob"], "league bracket", league=league_id)
    assert_ephemeral(ix)
    assert any(a["filename"].endswith(".png") for a in ix.last.get("attachments") or [])

    # the final standings: the bracket's placings first, the champion at the top
    ix = await twin.slash(users["Carol"], "league standings", league=league_id)
    text = ix.text
    champion_line = next(line for line in text.splitlines() if re.match(r"^\s*1 \w+", line))
    champion = champion_line.split()[1]
    assert champion in names

    # the trail names every decision, and the export reads back
    ix = await twin.slash(organiser, "league-admin trail", league=league_id, permissions=ADMIN)
    assert_ephemeral(ix)
    assert "Alice" in ix.text or f"<@{organiser['id']}>" in ix.text
    ix = await twin.slash(organiser, "league-admin export", league=league_id, permissions=ADMIN)
    files = {a["filename"]: twin.attachment(ix.last, a["filename"]) for a in ix.last.get("attachments") or []}
    assert {"standings.csv", "pairings.csv"} <= set(files)
    standings = read_csv(files["standings.csv"])
    assert len(standings) == 1 + len(names)
    assert champion in standings[1]
    pairings_csv = read_csv(files["pairings.csv"])
    assert len(pairings_csv) - 1 >= played
    assert find_component(twin.message(message["id"]), rf"^lg:{league_id}:standings$")
