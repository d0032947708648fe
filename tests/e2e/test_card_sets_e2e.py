"""Issue 36, "Done when": the real ``bot.py`` against the twin, for each of the four card games —
a CSV with two mistakes is refused naming both rows and columns; the fixed files are accepted; a
match is played with the new set; the set is changed and the earlier match still replays
exactly; ``/cards diff`` names the change; a balance run finishes and posts its picture; from a
second server the set can be neither seen nor used.

Each game's test set is ``tests/data/card_sets/<game>/``: its CSV files and ``mistakes.json``
(the two cell edits that break it, where each problem must be named, and the one change of the
second version with the words its diff line must hold)."""
from __future__ import annotations

import csv
import io
import json
import re
import zipfile
from pathlib import Path

import pytest
from PIL import Image

from .twin import components_of, find_component, message_text
from .twin_limits import MEMBER_PERMISSIONS
from .twin_v2 import pictures_of

pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")

DATA = Path(__file__).resolve().parent.parent / "data" / "card_sets"
GAMES = [g for g in ("logic_square", "maken", "art_of_war", "avalon") if (DATA / g / "mistakes.json").exists()]
MANAGER = str((1 << 5) | int(MEMBER_PERMISSIONS))   # a member with Manage Server
SET = "Playtest One"


@pytest.fixture
def bot_env() -> dict:
    # the run's flow (progress, result, picture) is what this test reads; its figures with the
    # full 20 matches per pairing and seat order are tests/test_balance_runs.py's: 2 here, so the
    # bot's run takes 8 matches instead of 40 (Battle Logic Square's took minutes of the suite),
    # and 2 for the card values instead of 40 (their figures: tests/test_balance_runs.py)
    return {"CARD_BALANCE_CPU_SECONDS": "600", "CARD_BALANCE_PER_ORDER": "2", "CARD_BALANCE_VALUE_MATCHES": "2"}


def _files(game: str) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((DATA / game).glob("*.csv"))}


def _edit(data: bytes, edits: list) -> bytes:
    """The CSV with cells replaced: ``[row (as a spreadsheet numbers it), column, value]``."""
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))
    header = rows[0]
    for row, column, value in edits:
        rows[row - 1][header.index(column)] = value
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    return out.getvalue().encode("utf-8")


def _zip(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, body in files.items():
            z.writestr(name, body)
    return buf.getvalue()


async def _upload(twin, user, game: str, name: str, body: bytes, *, permissions: str = MANAGER, **kw):
    return await twin.slash(user, "cards upload", file=twin.upload(name, body), game=game, name=SET,
                            permissions=permissions, **kw)


async def _record(twin, user, match_id: int, thread_id: int) -> str:
    ix = await twin.slash(user, "match record", match=match_id, channel_id=thread_id)
    return twin.attachment(ix.last, f"match-{match_id}.txt").decode("utf-8")


async def _play_and_resign(twin, table, match_id: int, thread_id: int, moves: int = 6) -> None:
    """The first offered command, a few times, then Bob resigns."""
    await table.play_first_offered(match_id, moves)
    board = table.board_message(match_id)
    ix = await twin.click(table.bob, board, f"m:{match_id}:resign")
    confirm = find_component(ix.last, r":ok:resign$")
    await twin.click(table.bob, ix.last, confirm["custom_id"])


@pytest.mark.parametrize("game", GAMES)
async def test_a_server_card_set_uploaded_checked_played_changed_compared_balanced_and_kept_home(
        game, table, twin, bot):
    alice, bob, carol = table.alice, table.bob, table.carol
    plan = json.loads((DATA / game / "mistakes.json").read_text(encoding="utf-8"))
    files = _files(game)

    # a member without Manage Server cannot upload
    ix = await _upload(twin, bob, game, "cards.zip", _zip(files), permissions=MEMBER_PERMISSIONS)
    assert "Manage Server" in ix.text and "⚠️" in ix.text

    # two mistakes: refused, both named by row and column, nothing stored
    broken = dict(files)
    broken[plan["file"]] = _edit(files[plan["file"]], plan["edits"])
    ix = await _upload(twin, alice, game, "cards.zip", _zip(broken))
    assert "2 problems" in ix.text and "nothing stored" in ix.text, ix.text + bot.log()[-3000:]
    report = twin.attachment(ix.last, "problems.txt").decode("utf-8")
    for row, column in plan["expect"]:
        assert f"{plan['file']}, row {row}" in report and f"column “{column}”" in report, report
    assert len(report.strip().splitlines()) == 2, report
    ix = await twin.slash(alice, "cards list", game=game, permissions=MANAGER)
    assert SET not in ix.text
    # the same in Japanese
    ix = await twin.slash(alice, "cards upload", file=twin.upload("cards.zip", _zip(broken)), game=game,
                          name=SET, permissions=MANAGER, locale="ja")
    report_ja = twin.attachment(ix.last, "problems.txt").decode("utf-8")
    for row, column in plan["expect"]:
        assert f"{row}行目" in report_ja and f"列「{column}」" in report_ja, report_ja

    # the fixed files (one at a time would be versions; the zip holds them all): version 1
    ix = await _upload(twin, alice, game, "cards.zip", _zip(files))
    assert f"Stored {SET} v1" in ix.text, ix.text
    ix = await twin.slash(carol, "cards list", game=game)
    assert f"**{SET}** v1" in ix.text
    # looking at it: a picture of its cards, pages that work
    ix = await twin.slash(carol, "cards show", game=game, **{"set": SET})
    page = Image.open(io.BytesIO(twin.attachment(ix.last, "cards.png")))
    assert page.width == 600
    assert pictures_of(ix.last) == ["cards.png"] and "🃏 " in ix.text, ix.text   # the cards in words too
    nxt = find_component(ix.last, r"^cs:")
    if nxt is not None:
        buttons = components_of(ix.last)
        forward = [b for b in buttons if b.get("label") == "▶" and not b.get("disabled")]
        if forward:
            ix2 = await twin.click(carol, ix.last, forward[0]["custom_id"])
            assert ix2.response_type == 7, ix2.text

    # a match with the set: the challenge says which cards, the players' hands are the set's
    match_id, challenge = await table.challenge(game, **{"set": SET})
    assert f"{SET} v1" in message_text(challenge), message_text(challenge)
    ix = await twin.click(bob, challenge, f"m:{match_id}:accept")
    ix = await table.pick_deck(bob, ix)
    thread_id = await twin.wait_for(lambda: table.thread_of(match_id), what="the match thread")
    await _play_and_resign(twin, table, match_id, thread_id)
    before = await _record(twin, alice, match_id, thread_id)
    assert "Result" in before

    # version 2 changes one number; the diff says so in words
    row, column, value, words = plan["change"]
    changed = dict(files)
    changed[plan["file"]] = _edit(files[plan["file"]], [[row, column, value]])
    ix = await _upload(twin, alice, game, "cards.zip", _zip(changed))
    assert f"Stored {SET} v2" in ix.text, ix.text
    ix = await twin.slash(carol, "cards diff", game=game, **{"set": SET})
    assert words in ix.text, ix.text
    # the earlier match still replays exactly as it was played
    assert await _record(twin, alice, match_id, thread_id) == before

    # a balance run of version 2: progress, then the result and its picture
    ix = await twin.slash(alice, "cards balance", game=game, **{"set": SET}, permissions=MANAGER)
    channel = int(ix.last["channel_id"])
    posted = await twin.wait_for(
        lambda: next((m for m in twin.posts(channel) if any(a["filename"] == "balance.png"
                                                          for a in m.get("attachments", []))), None),
        timeout=240, what="the balance run's picture")
    text = message_text(posted)
    assert "is done" in text and "95% interval" in text and "first player" in text.lower(), text
    assert "Card values for the computer drafter" in text and "2 self-play matches" in text, text
    assert "Most valuable: " in text, text          # the set's own cards, by name
    chart = Image.open(io.BytesIO(twin.attachment(posted, "balance.png")))
    assert chart.width == 600

    # from another server the set is nobody's: not listed, not shown, not playable
    other = await twin.join_guild(0, "Other Server")
    elsewhere = other["channel_id"]
    ix = await twin.slash(carol, "cards list", game=game, channel_id=elsewhere)
    assert SET not in ix.text
    ix = await twin.slash(carol, "cards show", game=game, **{"set": SET}, channel_id=elsewhere)
    assert "no set" in ix.text, ix.text
    ix = await twin.slash(carol, "play", game=game, opponent=bob, **{"set": SET}, channel_id=elsewhere)
    assert "no set" in ix.text, ix.text
    found = await twin.autocomplete(carol, "play", "set", game=game, channel_id=elsewhere, **{"set": ""})
    assert all(c["value"] != SET for c in found)
    assert re.search(r"\bv2\b", (await twin.slash(carol, "cards list", game=game)).text)
