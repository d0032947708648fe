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
from .twin import find_component, message_text
from .twin_v2 import pictures_of

pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")

# the games of a best-of-three end one after another in one thread, faster than people play:
# Discord's 5 posts per channel in a 1 s window (tests/e2e/conftest.py, channel_window)
CHANNEL_WINDOW = 1.0

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
    # a layout: the picture in its gallery, who plays whom in words beneath it
    assert pictures_of(first_picture) == [f"bracket-{i}.png" for i in range(1, len(first_picture["attachments"]) + 1)]
    assert not first_picture["content"]
    assert "Winners' round 1" in message_text(first_picture) and " vs " in message_text(first_picture)

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
    assert pictures_of(ix.last) == ["bracket.png"] and " beat " in ix.text, ix.text

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


# ---------------------------------------------------------------------------- the 9-player event
SCHEDULE_LINE = re.compile(r"`#(\d+)` (\w+) vs (\w+) — (.+)")


def newest_board_in(twin, thread_id: int, not_match: set[int]) -> int | None:
    """The match whose Act board is newest in thread ``thread_id`` (a game the bot started there)."""
    for m in reversed(twin.posts(thread_id)):
        c = find_component(m, r"^m:\d+:act$")
        if c is not None:
            mid = int(c["custom_id"].split(":")[1])
            if mid not in not_match:
                return mid
    return None


async def play_series(table, twin, users: dict, league_id: int, pairing: int, a: str, b: str,
                      winners: list[str]) -> list[int]:
    """A best-of-three pairing played on the bot, each game ended by resignation: ``a`` starts it
    with ``/league play``, ``b`` accepts (the decks registered at check-in are used without asking);
    after each game the loser is asked who moves first and presses "Play first", and the bot
    starts the next game in the same thread.  (``/league play`` is the same as the league
    message's button, which the double elimination above and tests/e2e/test_league_e2e.py press.)  ``winners``: who wins each game, in order."""
    ix = await twin.slash(users[a], "league play", league=league_id)
    assert_ephemeral(ix)
    match_id = int(re.search(rf"Match #(\d+) for pairing #{pairing}", ix.text).group(1))
    challenge = await twin.wait_for(lambda: table.board_message(match_id), what="the challenge")
    ix = await twin.click(users[b], challenge, f"m:{match_id}:accept")
    assert ix.response_type == 6, ix.text        # the registered deck, without a deck picker
    board = await twin.wait_for(lambda: find_component(table.board_message(match_id) or {}, r":act$")
                                and table.board_message(match_id), what="game 1's board")
    thread = int(board["channel_id"])
    # the league channel links the pairing to its thread
    await twin.wait_for(lambda: [m for m in twin.posts(twin.channel["id"])
                                 if f"▶ Pairing #{pairing} ({a} vs {b}) is being played in <#{thread}>" in message_text(m)],
                        what=f"the link to the thread of #{pairing}")
    played = []
    for n, winner in enumerate(winners, start=1):
        played.append(match_id)
        loser = b if winner == a else a
        await twin.slash(users[loser], "match resign", match=match_id, channel_id=thread)
        if n == len(winners):
            break
        # the loser chooses who moves first in the next game, in the thread
        choice = f"lgc:{league_id}:{pairing}:{n + 1}:f"
        prompt = await twin.wait_for(lambda: next((m for m in twin.posts(thread) if find_component(m, rf"^{choice}$")),
                                                  None), what=f"the choice for game {n + 1} of #{pairing}")
        assert f"<@{users[loser]['id']}>" in prompt["content"], prompt["content"]
        ix = await twin.click(users[loser], prompt, choice)
        match_id = await twin.wait_for(lambda: newest_board_in(twin, thread, set(played)),
                                       what=f"game {n + 1} of #{pairing}")
    decided = await twin.wait_for(lambda: [m for m in twin.posts(thread) if f"Pairing #{pairing} is decided" in m["content"]],
                                  what=f"pairing #{pairing} decided")
    score = f"{winners.count(a)}–{winners.count(b)}" if winners.count(a) > winners.count(b) \
        else f"{winners.count(b)}–{winners.count(a)}"
    assert score in decided[-1]["content"], decided[-1]["content"]
    # the games the bot started say who moves first and why, and nobody "accepted" them
    accepted = [m for m in twin.posts(thread) if " accepted." in message_text(m)]
    assert len(accepted) == 1, [message_text(m) for m in accepted]
    return played


async def round_pairings(twin, organiser: dict, league_id: int, rnd: int) -> list[tuple[int, str, str]]:
    out = []
    for _ in range(3):
        choices = await twin.autocomplete(organiser, "league-admin report", "pairing", pairing="", league=league_id)
        out = [(int(m.group(1)), m.group(3), m.group(4)) for m in (OPEN.match(c["name"]) for c in choices)
               if m and int(m.group(2)) == rnd]
        if out:
            return out
        await twin.settle(quiet=0.3)
    return out


async def test_a_nine_player_swiss_of_best_of_three_into_a_top_four(table, twin):
    """Issue 34's event: sign-up, check-in with a deck (one player never checks in), three Swiss
    rounds of best-of-three played on the bot and ended by resignation, an off-bot result
    confirmed by the opponent's button, a player who drops after round 2, a disputed result
    decided by an organiser (the trail shows it), a top 4 single elimination with its bracket
    picture posted and brought up to date, the final reported and confirmed, and the CSV
    export read back."""
    import time

    names = ["Bob", "Carol", "Dave", "Erin", "Fay", "Gus", "Hana", "Ivan", "Jun", "Kai"]
    organiser = table.alice
    users = {n: twin.user(n) for n in names}
    league_id, message = await create_league(table, name="Autumn Open", game="logic_square", format="swiss",
                                             rounds=3, cut=4)
    start = int(time.time()) + 3600
    ix = await twin.slash(organiser, "league-admin settings", league=league_id, best_of=3, start=f"<t:{start}:F>",
                          checkin_minutes=120, permissions=ADMIN)
    assert "best of 3" in ix.text.lower() or "Best of 3" in ix.text, ix.text
    for n in names:
        ix = await twin.click(users[n], twin.message(message["id"]), f"lg:{league_id}:join")
        assert_ephemeral(ix)
    # check-in with a deck: a ready-made deck, locked for the event; Kai never checks in
    for n in names[:-1]:
        decks = await twin.autocomplete(users[n], "league checkin", "deck", deck="", league=league_id)
        assert decks, "no deck offered at check-in"
        ix = await twin.slash(users[n], "league checkin", deck=decks[0]["value"], league=league_id)
        assert_ephemeral(ix)
        assert "checked in" in ix.text.lower(), ix.text
    ix = await twin.slash(organiser, "league-admin start", league=league_id, permissions=ADMIN)
    assert_ephemeral(ix)
    assert f"League #{league_id} started: 5 rounds" in ix.text, ix.text      # 3 Swiss rounds, 2 of the top 4

    # round 1: nine checked-in players, one bye; Kai is not paired
    r1 = await round_pairings(twin, organiser, league_id, 1)
    assert len(r1) == 4, r1
    seated = {x for _, a, b in r1 for x in (a, b)}
    assert "Kai" not in seated and len(seated) == 8
    # three pairings on the bot; one played on paper, reported 2–1 and confirmed by the button
    (off, oa, ob), *on_bot = r1
    for pairing, a, b in on_bot:
        await play_series(table, twin, users, league_id, pairing, a, b, [a, b, a])
    ix = await twin.slash(users[oa], "league report", pairing=off, result="win", league=league_id)
    assert "played best of 3" in ix.text and "2-0, 2-1" in ix.text, ix.text    # the score is needed
    ix = await twin.slash(users[oa], "league report", pairing=off, result="win", score="2-1", league=league_id)
    assert_ephemeral(ix)
    assert f"{ob} is asked to confirm" in ix.text, ix.text
    ask = await twin.wait_for(lambda: next((m for m in twin.posts() if find_component(m, rf"^lgr:{league_id}:{off}:c$")),
                                           None), what="the question to the opponent")
    assert f"<@{users[ob]['id']}>" in ask["content"] and f"{oa} 2–1 {ob}" in ask["content"], ask["content"]
    assert [str(u) for u in (ask.get("_allowed_mentions") or {}).get("users", [])] == [users[ob]["id"]]
    ix = await twin.click(users[oa], ask, f"lgr:{league_id}:{off}:c")          # not the reporter's to confirm
    assert_ephemeral(ix)
    assert "Only" in ix.text and ob in ix.text, ix.text
    ix = await twin.click(users[ob], ask, f"lgr:{league_id}:{off}:c")
    await twin.wait_for(lambda: "confirmed" in twin.message(ask["id"])["content"], what="the answered question")
    assert not twin.message(ask["id"]).get("components")

    # round 2: a result disputed, then decided by the organiser; a player drops once their
    # round-2 pairing is decided
    r2 = await round_pairings(twin, organiser, league_id, 2)
    assert len(r2) == 4, r2
    (disp, da, db), *on_bot = r2
    for pairing, a, b in on_bot:
        await play_series(table, twin, users, league_id, pairing, a, b, [b, b])
    dropper = on_bot[0][1]
    ix = await twin.slash(users[dropper], "league leave", league=league_id)
    assert_ephemeral(ix)
    ix = await twin.slash(users[da], "league report", pairing=disp, result="win", score="2-0", league=league_id)
    ask = await twin.wait_for(lambda: next((m for m in twin.posts() if find_component(m, rf"^lgr:{league_id}:{disp}:d$")),
                                           None), what="the question to the opponent")
    ix = await twin.click(users[db], ask, f"lgr:{league_id}:{disp}:d")
    held = await twin.wait_for(lambda: [m for m in twin.posts() if f"Pairing #{disp}: {db} disputed" in m["content"]],
                               what="the dispute announced")
    assert organiser["id"] in [str(u) for u in (held[-1].get("_allowed_mentions") or {}).get("users", [])]
    ix = await twin.slash(organiser, "league-admin report", pairing=disp, result="second", league=league_id,
                          permissions=ADMIN)
    assert f"#{disp}" in ix.text, ix.text

    # round 3: eight players (the dropped one is not paired), no bye
    r3 = await round_pairings(twin, organiser, league_id, 3)
    assert len(r3) == 4 and dropper not in {x for _, a, b in r3 for x in (a, b)}, r3
    for pairing, a, b in r3:
        await play_series(table, twin, users, league_id, pairing, a, b, [a, a])

    # the top 4: a single elimination seeded by the Swiss standings, its picture in the channel
    await twin.wait_for(lambda: bracket_posts(twin, league_id), what="the top-cut bracket picture")
    semis = await round_pairings(twin, organiser, league_id, 4)
    assert len(semis) == 2, semis
    for pairing, a, b in semis:                    # best of one in the cut: one game each
        ix = await twin.slash(users[a], "league play", league=league_id)
        match_id = int(re.search(rf"Match #(\d+) for pairing #{pairing}", ix.text).group(1))
        challenge = await twin.wait_for(lambda: table.board_message(match_id), what="the semi-final challenge")
        ix = await twin.click(users[b], challenge, f"m:{match_id}:accept")
        board = await twin.wait_for(lambda: find_component(table.board_message(match_id) or {}, r":act$")
                                    and table.board_message(match_id), what="the semi-final board")
        await twin.slash(users[b], "match resign", match=match_id, channel_id=board["channel_id"])
    [(final, fa, fb)] = await round_pairings(twin, organiser, league_id, 5)
    ix = await twin.slash(users[fb], "league report", pairing=final, result="loss", league=league_id)
    ask = await twin.wait_for(lambda: next((m for m in twin.posts() if find_component(m, rf"^lgr:{league_id}:{final}:c$")),
                                           None), what="the final's question")
    await twin.click(users[fa], ask, f"lgr:{league_id}:{final}:c")
    await twin.wait_for(lambda: announcements(twin, league_id, "is finished"), what="the end of the event")
    pictures = bracket_posts(twin, league_id)
    assert sum(len(m["_versions"]) for m in pictures) > 1, "the bracket picture never changed"

    # the standings: the champion first, card tiebreakers as percentages, the drop marked
    ix = await twin.slash(users["Carol"], "league standings", league=league_id)
    first_line = next(line for line in ix.text.splitlines() if re.match(r"^\s*1 \w+", line))
    assert first_line.split()[1] == fa, ix.text
    assert "%" in ix.text

    # the trail: the confirmation, the dispute and the organiser's decision
    ix = await twin.slash(organiser, "league-admin trail", league=league_id, permissions=ADMIN)
    text = ix.text
    for page in range(1, 8):
        if f"{db} disputed the report of pairing #{disp}" in text and f"decided pairing #{disp}" in text:
            break
        more = await twin.slash(organiser, "league-admin trail", league=league_id, page=page + 1, permissions=ADMIN)
        text += more.text
    assert f"{db} disputed the report of pairing #{disp}" in text, text
    assert f"decided pairing #{disp}" in text and f"{db} won" in text, text

    # the CSV export reads back: every player with the tiebreakers, the drop, every pairing
    ix = await twin.slash(organiser, "league-admin export", league=league_id, permissions=ADMIN)
    files = {a["filename"]: twin.attachment(ix.last, a["filename"]) for a in ix.last.get("attachments") or []}
    standings = read_csv(files["standings.csv"])
    rows = standings[1:]
    assert len(rows) == 9 and fa in rows[0], rows[0]
    assert any(dropper in r and any("dropped" in c.lower() for c in r) for r in rows), rows
    assert not any("Kai" in r for r in rows)
    pairings_csv = read_csv(files["pairings.csv"])
    # rounds 1 and 2: four pairings and a bye; round 3: four; two semi-finals and the final
    assert len(pairings_csv) - 1 == 5 + 5 + 4 + 2 + 1, pairings_csv
    decks = read_csv(files["decklists.csv"])      # one row per card of each registered deck
    assert {r[0] for r in decks[1:]} == set(names[:-1])
